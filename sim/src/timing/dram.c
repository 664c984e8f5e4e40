/* dram.c - the DRAM channel: one request at a time, in issue order; a request spends the
** channel's latency, then transfers its bytes at the interface bandwidth.
**
** Timing rule: a request of b bytes takes latency + ceil(b / bandwidth) cycles (mx_tdram_dur, the
** analytic engines); the detailed engine steps the same rule one cycle at a time
** (mx_tdram_xfer_cycle).  Bandwidth is an integer in 1/1024 byte per cycle (MX_T_BW_FRAC) so that
** both agree exactly.  Events for the energy model: each request's bytes by operand (A and B
** mantissas and scales, outputs) and the request count, added by the engine that issues them.
** Ignored: banks, refresh, read/write turnaround.
*/
#include "tinternal.h"

void mx_tdram_derive(const mxsim_tconfig *cfg, mx_tarch *a)
{
    /* exact: mxsim_tconfig_validate refuses a bandwidth that is not a whole number of steps */
    int64_t q = (int64_t)(cfg->dram_bw_bytes_per_cycle * MX_T_BW_FRAC + 0.5);
    a->bw_q = q < 1 ? 1 : q;
    a->dram_lat = cfg->dram_latency_cycles;
}

int64_t mx_tdram_dur(const mx_tarch *a, int64_t bytes)
{
    if (bytes <= 0) return 0;
    if (bytes <= ((int64_t)1 << 52)) return a->dram_lat + mx_t_ceil_div(bytes * MX_T_BW_FRAC, a->bw_q);
    /* a whole-tensor request (dequant, quantize) can pass 2^63 / 1024 bytes: the same ceiling
    ** without forming bytes * 1024, saturating when the duration itself passes 2^63 */
    int64_t hi = bytes / a->bw_q, lo = bytes % a->bw_q;
    return mx_t_sat_add(mx_t_sat_add(mx_t_sat_mul(hi, MX_T_BW_FRAC), mx_t_ceil_div(lo * MX_T_BW_FRAC, a->bw_q)),
                        a->dram_lat);
}

int64_t mx_tdram_xfer_cycle(const mx_tarch *a, int64_t *credit, int64_t bytes)
{
    *credit += a->bw_q; /* bw * 1024 credits per cycle, a byte per 1024 */
    return mx_t_min(bytes, *credit / MX_T_BW_FRAC);
}

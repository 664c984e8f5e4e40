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
    int64_t q = (int64_t)(cfg->dram_bw_bytes_per_cycle * MX_T_BW_FRAC + 0.5);
    a->bw_q = q < 1 ? 1 : q;
    a->dram_lat = cfg->dram_latency_cycles;
}

int64_t mx_tdram_dur(const mx_tarch *a, int64_t bytes)
{
    if (bytes <= 0) return 0;
    return a->dram_lat + mx_t_ceil_div(bytes * MX_T_BW_FRAC, a->bw_q);
}

int64_t mx_tdram_xfer_cycle(const mx_tarch *a, int64_t *credit, int64_t bytes)
{
    *credit += a->bw_q; /* bw * 1024 credits per cycle, a byte per 1024 */
    return mx_t_min(bytes, *credit / MX_T_BW_FRAC);
}

/* scalesim.c - SCALE-Sim compatibility mode (report.scalesim_compat; implied by a .cfg).
**
** Modelled (sim/doc/architecture.md section 6): SCALE-Sim v2's timing of one layer (Samajdar et
** al., "A Systematic Methodology for Characterizing Scalability of DNN Accelerators using
** SCALE-Sim", ISPASS 2020; github.com/scalesim-project/scale-sim-v2, PyPI scalesim 2.0.2):
**   - the array time does not depend on the SRAM sizes: the whole GEMM is one tile (no K split);
**   - CALC interface bandwidth never stalls and the first fill of the SRAMs is free;
**   - USER bandwidth: each operand's double-buffered SRAM is refilled half by half, back to back
**     at the interface bandwidth, and the array stalls when the demand reaches data whose half
**     has not arrived yet; outputs stall when the writes outrun the drain (an estimate, see
**     mx_tscalesim_stall);
**   - the reported total is the index of the last cycle: one less than the cycle count.
** Ignored: SCALE-Sim's address-level buffer bookkeeping (its hits on repeated conv addresses,
** its set granularity of 1/100 of a buffer), which only the USER estimate would need.
** Invariant: with CALC, total = array cycles - 1 exactly (tests/timing/scalesim: 0 differences
** from SCALE-Sim v2 on the grid).
*/
#include "tinternal.h"

void mx_tscalesim_tiling(const mx_top_resolved *op, mx_ttiling *t)
{
    *t = (mx_ttiling){op->m, op->n, op->k, 1, 1, 1};
}

/* Latest stall of one operand's refill stream: U elements demanded `passes` times in order over
** the tc array cycles, an SRAM of s bytes (half active, half being refilled), bw bytes/cycle.  The
** first half is loaded before cycle 0; refill j (j >= 1) brings elements [h + (j-1) p, h + j p)
** of the demand stream and is complete at cycle j (ceil(p / bw) + 1) - 1, one request line per
** cycle plus the port's cycle of latency.  Demand is taken as uniform over the array time, so the
** lateness of refill j is linear in j: its maximum is at the first or the last refill. */
static int64_t stream_stall(int64_t u, int64_t passes, int64_t s, int64_t bw_q, int64_t tc)
{
    int64_t h = (s + 1) / 2, p = s - h, total = u * passes;
    if (u <= h || p <= 0 || tc <= 0) return 0;
    int64_t n = mx_t_ceil_div(total - h, p);
    int64_t lc = mx_t_ceil_div(p * MX_T_BW_FRAC, bw_q) + 1;
    int64_t worst = 0;
    int64_t js[2] = {1, n};
    for (int i = 0; i < 2; i++) {
        int64_t j = js[i];
        int64_t ready = j * lc - 1;
        int64_t need = (int64_t)((double)(h + (j - 1) * p) / (double)total * (double)tc);
        worst = mx_t_max(worst, ready - need - 1);
    }
    return worst;
}

int64_t mx_tscalesim_stall(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                           int64_t tc)
{
    if (cfg->scalesim_bw == MXSIM_SCALESIM_BW_CALC) return 0;
    const int64_t R = a->R, C = a->C, M = op->m, N = op->n, K = op->k;
    int64_t pa = 1, pb = 1, writes = M * N;
    int64_t sa = a->half_a_bytes * 2, sb = a->half_b_bytes * 2, so = a->half_c_bytes * 2;
    if (a->df == MXSIM_DF_OS) {
        /* column folds outer, row folds inner: A is streamed once per column fold; a B column
        ** fold is reused by the row folds when it fits the active half */
        pa = mx_t_ceil_div(N, C);
        pb = K * mx_t_min(C, N) <= (sb + 1) / 2 ? 1 : mx_t_ceil_div(M, R);
    } else if (a->df == MXSIM_DF_WS) {
        pa = mx_t_ceil_div(N, C);                 /* A once per column fold of B */
        writes = M * N * mx_t_ceil_div(K, R);     /* a partial sum per reduction fold */
    } else {
        pb = mx_t_ceil_div(M, C);                 /* B once per column fold of A */
        writes = M * N * mx_t_ceil_div(K, R);
    }
    int64_t st = mx_t_max(stream_stall(M * K, pa, sa, a->bw_q, tc), stream_stall(K * N, pb, sb, a->bw_q, tc));
    /* the output SRAM absorbs so bytes; the rest drains at the interface bandwidth */
    if (writes > so) st = mx_t_max(st, mx_t_ceil_div((writes - so) * MX_T_BW_FRAC, a->bw_q) - tc);
    return st;
}

void mx_tscalesim_finish(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                         mxsim_tstats *st)
{
    int64_t array = st->cycles_compute + st->cycles_fill_drain + st->cycles_exp_stall;
    st->cycles_mem_stall = mx_tscalesim_stall(cfg, a, op, array);
    /* SCALE-Sim prints the index of the last cycle */
    st->cycles_fill_drain -= 1;
    st->cycles_total = array - 1 + st->cycles_mem_stall;
}

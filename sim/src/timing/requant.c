/* requant.c - the re-quantizer: turns fp32 outputs into MXINT8 (a max-abs over each group of G
** outputs along n, a shared exponent, 8-bit mantissas), requant.lanes elements per cycle behind a
** pipeline of requant.depth_cycles; it also serves `quantize` ops (bf16 -> MXINT8).
**
** Timing rule: a GEMM's MXINT8 output store first passes the re-quantizer, depth + ceil(elements /
** lanes) cycles (mx_trequant_cycles), then goes to DRAM; the detailed engine steps its intake
** (mx_trequant_intake).  A quantize op streams its padded m x n elements through the unit while
** one load and one store overlap it (mx_trequant_time).  Events for the energy model: one
** re-quantized element and one max-abs compare per output element (mx_trequant_gemm_events).
*/
#include "tinternal.h"

int64_t mx_trequant_cycles(const mxsim_tconfig *cfg, const mx_top_resolved *op, int64_t elems)
{
    return op->out_fmt == MXSIM_OUT_MXINT8 && elems > 0 ? cfg->requant_depth_cycles + mx_t_ceil_div(elems, cfg->requant_lanes)
                                                        : 0;
}

int64_t mx_trequant_intake(const mxsim_tconfig *cfg, int64_t left) { return mx_t_min(cfg->requant_lanes, left); }

void mx_trequant_gemm_events(const mx_top_resolved *op, mxsim_tstats *st)
{
    if (op->out_fmt == MXSIM_OUT_MXINT8) {
        st->n_requant_elems = op->m * op->n;
        st->n_maxabs_compares = op->m * op->n;
    }
}

const char *mx_trequant_time(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, mxsim_tstats *st)
{
    /* the MXINT8 side is whole groups along n (zero-padded); the bf16 side is the useful m*n */
    int64_t np = mx_t_ceil_div(op->n, op->g) * op->g, sc = op->m * (np / op->g);
    int64_t e = op->m * op->n, ep = op->m * np;
    const char *ovf = mx_tpipe_unit_op(a, cfg->requant_lanes, cfg->requant_depth_cycles, ep, 2 * e, ep + sc, st);
    st->dram_a_mant_bytes = 2 * e;
    st->sram_a_rd_mant_bytes = st->dram_a_mant_bytes;
    st->n_requant_elems = st->n_maxabs_compares = ep;
    st->tile_m = op->m;
    st->tile_n = op->n;
    st->tile_k = 1;
    return ovf;
}

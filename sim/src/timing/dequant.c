/* dequant.c - the dequant unit: MXINT8 -> bf16 (each mantissa times its group's power-of-two
** scale), dequant.lanes elements per cycle behind a pipeline of dequant.depth_cycles.
**
** Timing rule: a dequant op streams its padded m x n elements (whole groups along n) through the
** unit while one load (mantissas and scales) and one store (bf16) overlap it; the excess of memory
** time is stall (mx_tdequant_time, through mx_tpipe_unit_op).  Both engines time dequant ops this
** way (the detailed engine steps GEMMs only).  Events for the energy model: one dequantized element
** per padded element.
*/
#include "tinternal.h"

const char *mx_tdequant_time(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, mxsim_tstats *st)
{
    /* the MXINT8 side is whole groups along n (zero-padded); the bf16 side is the useful m*n */
    int64_t np = mx_t_ceil_div(op->n, op->g) * op->g, sc = op->m * (np / op->g);
    int64_t e = op->m * op->n, ep = op->m * np;
    const char *ovf = mx_tpipe_unit_op(a, cfg->dequant_lanes, cfg->dequant_depth_cycles, ep, ep + sc, 2 * e, st);
    st->dram_a_mant_bytes = ep;
    st->dram_a_scale_bytes = sc;
    st->sram_a_rd_mant_bytes = st->dram_a_mant_bytes;
    st->sram_a_rd_scale_bytes = st->dram_a_scale_bytes;
    st->n_dequant_elems = ep;
    st->tile_m = op->m;
    st->tile_n = op->n;
    st->tile_k = 1;
    return ovf;
}

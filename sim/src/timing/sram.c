/* sram.c - the A, B and C SRAMs: each is double-buffered (a tile uses one half while the next
** tile's operands load into the other).
**
** Timing rule: a tiling fits when an A tile and a B tile (mantissas and one scale byte per group)
** fit half of their SRAM and the tile's fp32 partial sums half of C's (mx_tsram_fit_prefix, with
** the bytes per row of a k chunk from mx_tsram_row_bytes); the SRAMs
** never stall the array (one read port per edge feeder, ignored bank conflicts).  Events for the
** energy model: operand reads at the array edges (mx_tsram_reads: the stationary operand once per
** tile, the streamed one once per fold across the other spatial dim), partial-sum writes and reads
** (added per tile by the pipeline) and the store path's reads.
*/
#include "tinternal.h"

void mx_tsram_derive(const mxsim_tconfig *cfg, mx_tarch *a)
{
    a->half_a_bytes = cfg->sram_a_kib * 1024 / 2;
    a->half_b_bytes = cfg->sram_b_kib * 1024 / 2;
    a->half_c_bytes = cfg->sram_c_kib * 1024 / 2;
}

int64_t mx_tsram_row_bytes(const mx_top_resolved *op, int64_t tk)
{
    /* an MXINT8 chunk is whole groups: tk mantissas and tk / G scale bytes per row */
    return tk + (op->mx ? tk / op->g : 0);
}

int mx_tsram_fit_prefix(const mx_tarch *a, int64_t tm, int64_t tn, const int64_t *row_bytes, int n)
{
    if (tm * tn * 4 > a->half_c_bytes) return 0;
    /* the largest row a half of A and of B holds for tm and tn rows: tm * row <= half A, tn * row <= half B */
    int64_t lim = mx_t_min(a->half_a_bytes / tm, a->half_b_bytes / tn);
    int i = 0;
    while (i < n && row_bytes[i] <= lim) i++;
    return i;
}

void mx_tsram_reads(const mx_tarch *a, const mx_top_resolved *op, const mx_ttiling *t, mxsim_tstats *st)
{
    int64_t ra = 0, rb = 0, rsa = 0, rsb = 0;
    /* tiles differ only by edge sizes: every term depends on (tm, tn) alone, so each of the (at
    ** most) four shape classes adds its per-tile reads times its tile count */
    int64_t sm[2] = {t->tm, op->m - (t->nm - 1) * t->tm}, cm[2] = {t->nm - 1, 1};
    int64_t sn[2] = {t->tn, op->n - (t->nn - 1) * t->tn}, cn[2] = {t->nn - 1, 1};
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int64_t cnt = cm[i] * cn[j], tm = sm[i], tn = sn[j], ea, eb;
            if (cnt == 0) continue;
            if (a->df == MXSIM_DF_OS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn * mx_t_ceil_div(tm, a->R); }
            else if (a->df == MXSIM_DF_WS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn; }
            else { ea = tm * op->k; eb = op->k * tn * mx_t_ceil_div(tm, a->C); }
            ra += cnt * ea; rb += cnt * eb;
            if (op->mx) { rsa += cnt * (ea / op->g); rsb += cnt * (eb / op->g); }
        }
    st->sram_a_rd_mant_bytes = ra;
    st->sram_b_rd_mant_bytes = rb;
    st->sram_a_rd_scale_bytes = rsa;
    st->sram_b_rd_scale_bytes = rsb;
}

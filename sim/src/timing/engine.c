/* engine.c - the analytic timing engine: tiling, the double-buffered memory pipeline, event
** counts, and the public mxsim_time_op.
**
** Modelled: an op is cut into tiles (tm x tn x tk; loop order m, n, k innermost) that fit half of
** each SRAM (A and B hold mantissas plus scale bytes, C holds fp32 partial sums).  One DRAM channel
** serves requests in issue order, each costing latency + ceil(bytes / bandwidth) cycles.  Tile t+1's
** load is issued when tile t starts computing (its buffer half was freed by tile t-1); tile t's
** output store (through the re-quantizer when the output is MXINT8) is issued when it finishes.
** The tiling is the candidate (m, n: powers of two times the array's granularity, the full dim,
** and the narrower sizes: every power of two and the array's width halved; k: G * 2^i or the full
** (padded) K, for int8 also every power of two; or the size forced by tile.m/n/k) with the fewest
** total cycles (ties: the array-granular candidates first), found by evaluating candidates in
** the order of a lower bound of their cost and stopping when no bound can win.  The candidate list
** depends on neither lanes nor the operand format, a larger SRAM only adds candidates, and for a
** fixed tiling every cost term is monotone in each resource, so the minimum never grows with more
** hardware and int8 is never slower than MXINT8 (sim/doc/architecture.md section 6); a larger
** array's list holds a smaller one's (R a power of two, or R' / R one), so the larger array is
** slower only by what the smaller array's tiling loses on it (fill/drain per fold; section 3).
** MXINT8 GEMMs pad K to whole groups (issued work and traffic); n_macs stays the useful m*n*K.
** With detail = 1 the GEMM is timed by detail.c instead, on the same tiling, after an admission
** check against its limits.
** Ignored: DRAM banks and refresh, partial-sum spills (the output tile stays in SRAM across k).
** Invariant: cycles_total = compute + fill_drain + exp_stall + lane_limit + mem_stall and
** mem_stall = dram_bw + dram_latency, per op and in total (architecture.md section 10).
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tinternal.h"

mxsim_status mx_top_resolve(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_top *op,
                            const char *source, mx_top_resolved *r)
{
    char where[600];
    mx_snprintf(where, sizeof where, "%s:%d: op '%s'", source ? source : "trace", op->line, op->name);
    memset(r, 0, sizeof *r);
    r->kind = op->kind;
    r->m = op->m;
    r->n = op->n;
    r->k = op->kind == MXSIM_OP_GEMM ? op->k : 1;
    r->repeat = op->repeat;
    r->src = op;
    if (op->kind < 0 || op->kind > MXSIM_OP_QUANTIZE) return mx_fail(ctx, MXSIM_E_INPUT, "%s: unknown op kind %d", where, op->kind);
    if (r->m < 1 || r->n < 1 || r->k < 1 || r->m > MX_T_MAX_DIM || r->n > MX_T_MAX_DIM || r->k > MX_T_MAX_DIM)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: dims must be 1..2^31", where);
    if (r->repeat < 1) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'repeat': must be >= 1", where);
    /* refused here, not left to the tiling: a one-row tile of a huge group may fit the SRAM */
    if (op->group_size < 0 || op->group_size > MXSIM_MAX_GROUP)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'group': %lld must be in 1..%d", where, (long long)op->group_size,
                       MXSIM_MAX_GROUP);
    int fa = op->a_fmt < 0 ? (int)cfg->operand_format : op->a_fmt;
    int fb = op->b_fmt < 0 ? (int)cfg->operand_format : op->b_fmt;
    if (fa != fb)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "%s: fields 'a'/'b': mixed operand formats are not modelled", where);
    r->mx = fa == MXSIM_FMT_MXINT8 || op->kind != MXSIM_OP_GEMM;
    r->out_fmt = op->out_fmt < 0 ? (int)cfg->out_format : op->out_fmt;
    int64_t g = op->group_size > 0 ? op->group_size : cfg->group_size;
    r->out_g = g;
    r->k_useful = r->k;
    if (r->mx && op->kind == MXSIM_OP_GEMM) {
        /* an MXINT8 tensor is stored as whole groups: K is padded with zeros to ceil(K / G)
        ** groups, which are issued, stored and moved; n_macs stays the useful m*n*K.  (A
        ** dequant/quantize pads its n the same way: time_elementwise.) */
        r->g = g;
        r->k = mx_t_ceil_div(r->k, g) * g;
    } else {
        r->g = r->mx ? g : r->k;
    }
    /* products of dims and repeat must stay in int64 (bytes, MACs, cycles) */
    double n_pad = op->kind != MXSIM_OP_GEMM && r->mx ? (double)(mx_t_ceil_div(r->n, r->g) * r->g) : (double)r->n;
    double macs = (double)r->m * n_pad * (double)r->k * (double)r->repeat;
    if (macs > 4e18 / 16)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: %s = %.10g is above the counters' limit of 2.5e17", where,
                       op->kind == MXSIM_OP_GEMM ? "m*n*k*repeat (MACs)" : "m*n*repeat (elements)", macs);
    return MXSIM_OK;
}

static int64_t out_elem_bytes(int fmt) { return fmt == MXSIM_OUT_FP32 ? 4 : fmt == MXSIM_OUT_BF16 ? 2 : 1; }

void mx_tengine_tile(const mx_top_resolved *op, const mx_ttiling *t, int64_t idx, mx_ttile *o)
{
    int64_t ik = idx % t->nk, in = (idx / t->nk) % t->nn, im = idx / (t->nk * t->nn);
    o->tm = mx_t_min(t->tm, op->m - im * t->tm);
    o->tn = mx_t_min(t->tn, op->n - in * t->tn);
    o->tk = mx_t_min(t->tk, op->k - ik * t->tk);
    /* A(m,k) is still in SRAM when only n moved and K is one chunk; B(k,n) when only m moved and
    ** both K and N are one chunk. */
    o->load_a = !(idx > 0 && t->nk == 1 && in > 0);
    o->load_b = !(idx > 0 && t->nk == 1 && t->nn == 1);
    int64_t sc = op->mx ? 1 : 0;
    o->load_bytes = 0;
    if (o->load_a) o->load_bytes += o->tm * o->tk + sc * (o->tm * o->tk / op->g);
    if (o->load_b) o->load_bytes += o->tk * o->tn + sc * (o->tk * o->tn / op->g);
    o->store_elems = ik == t->nk - 1 ? o->tm * o->tn : 0;
    o->store_bytes = o->store_elems * out_elem_bytes(op->out_fmt);
    if (o->store_elems && op->out_fmt == MXSIM_OUT_MXINT8) { /* a scale per G outputs along n */
        /* a group's scale goes with the tile holding its last column (the row's last group may
        ** be short), so an n tile narrower than G does not add scale bytes */
        int64_t n0 = in * t->tn, n1 = n0 + o->tn, G = op->out_g;
        o->store_bytes += o->tm * (n1 / G - n0 / G + (n1 == op->n && op->n % G != 0));
    }
}

int64_t mx_tengine_store_dur(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                             const mx_ttile *tl)
{
    if (tl->store_bytes == 0) return 0;
    int64_t d = mx_tdram_dur(a, tl->store_bytes);
    if (op->out_fmt == MXSIM_OUT_MXINT8)
        d += mx_trequant_cycles(cfg, op, tl->store_elems);
    return d;
}

static int64_t pipeline(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                        const mx_ttiling *t, mxsim_tstats *st, const char **ovf)
{
    return mx_tpipe_run(cfg, a, op, t, st, ovf);
}

/* Tile times already computed during one search, by tile shape (direct-mapped): candidates share
** their full and edge tile shapes, and a WS/IS MXINT8 tile time tries several beat widths. */
#define MX_T_MEMO 1024
typedef struct {
    int64_t tm, tn, tk;
    mx_tfold f;
} tmemo_ent;

/* Only the validity bits are cleared per search: zeroing (and so touching) the whole table cost
** a search page faults and a 100 KB memset, more than the entries it uses. */
typedef struct {
    uint64_t valid[MX_T_MEMO / 64];
    tmemo_ent e[MX_T_MEMO];
} tmemo;

static const mx_tfold *tile_time(tmemo *memo, const mx_tarch *a, const mx_top_resolved *op, int64_t tm,
                                 int64_t tn, int64_t tk)
{
    uint64_t h = ((uint64_t)tm * 0x9e3779b97f4a7c15u) ^ ((uint64_t)tn * 0xc2b2ae3d27d4eb4fu) ^ (uint64_t)tk;
    uint64_t x = (h ^ (h >> 29)) % MX_T_MEMO, bit = (uint64_t)1 << (x % 64);
    tmemo_ent *e = &memo->e[x];
    if (!(memo->valid[x / 64] & bit) || e->tm != tm || e->tn != tn || e->tk != tk) {
        mx_tpe_tile(a, op->mx, op->g, tm, tn, tk, &e->f);
        e->tm = tm, e->tn = tn, e->tk = tk;
        memo->valid[x / 64] |= bit;
    }
    return &e->f;
}

/* Cycles of tile (tm, tn, tk) from a smaller tile's: in OS a tile whose sides are whole multiples
** of the array is (tm/R)(tn/C) identical folds; in WS (IS) a tile whose n (m) side is a multiple
** of C is that many identical column folds, and the beat choice compares totals that all scale by
** that count (mx_tpe_tile, stream_lb), so it picks the same beat.  Candidates then share tile
** times across m or n sizes. */
static int64_t tile_cycles(tmemo *memo, const mx_tarch *a, const mx_top_resolved *op, int64_t tm, int64_t tn,
                           int64_t tk)
{
    if (a->df == MXSIM_DF_OS && tm % a->R == 0 && tn % a->C == 0 && (tm > a->R || tn > a->C))
        return (tm / a->R) * (tn / a->C) * tile_time(memo, a, op, a->R, a->C, tk)->cycles;
    if (a->df == MXSIM_DF_WS && tn % a->C == 0 && tn > a->C)
        return (tn / a->C) * tile_time(memo, a, op, tm, a->C, tk)->cycles;
    if (a->df == MXSIM_DF_IS && tm % a->C == 0 && tm > a->C)
        return (tm / a->C) * tile_time(memo, a, op, a->C, tn, tk)->cycles;
    return tile_time(memo, a, op, tm, tn, tk)->cycles;
}

/* One candidate size along a dim, precomputed once per search: the full and last tile sizes s,
** their counts c (c[0] = tiles - 1, c[1] = 1) and merged counts u (an edge as large as a full
** tile joins its class), the tile count n; for k, g = s / G (MXINT8 chunks are whole groups) and,
** for the cheap bound, N and E of stream_lb; for every dim q = s / C and r = s % C (column folds). */
typedef struct {
    int64_t s[2], c[2], u[2], n, g[2], N[2], E[2], q[2], r[2];
    int64_t qr[2], rr[2]; /* s / R and s % R (OS row folds) */
    int64_t os[2];        /* k: cycles of an R x C x s OS tile, once needed (-1: not yet) */
} tdim;

static void tdim_set(tdim *d, const mx_tarch *a, const mx_top_resolved *op, int64_t dim, int64_t size, int is_k)
{
    d->n = mx_t_ceil_div(dim, size);
    d->s[0] = size, d->s[1] = dim - (d->n - 1) * size;
    d->c[0] = d->u[0] = d->n - 1, d->c[1] = d->u[1] = 1;
    if (d->s[1] == d->s[0]) d->u[0] += d->u[1], d->u[1] = 0;
    int64_t tg = op->mx ? mx_tload_beats_per_group(a, op->g) : 1;
    for (int i = 0; i < 2; i++) {
        d->g[i] = is_k && op->mx ? d->s[i] / op->g : 0;
        d->N[i] = mx_t_ceil_div(d->g[i] * tg, a->R);
        d->E[i] = mx_t_min(d->N[i], d->g[i]);
        d->q[i] = d->s[i] / a->C, d->r[i] = d->s[i] % a->C;
        d->qr[i] = d->s[i] / a->R, d->rr[i] = d->s[i] % a->R;
        d->os[i] = -1;
    }
}

/* The stores of a tiling: every output block's (a tile of sn columns holds at least floor(sn / G)
** MXINT8 group ends) and the last block's (its scales: the groups ending in its columns plus a short
** last group).  They depend on tm and tn only: computed once for all k sizes. */
static void lb_stores(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, const tdim *dm,
                      const tdim *dn, int64_t *stores, int64_t *last_store)
{
    const int64_t *sm = dm->s, *sn = dn->s, *um = dm->u, *un = dn->u;
    int64_t ob = op->out_fmt == MXSIM_OUT_FP32 ? 4 : op->out_fmt == MXSIM_OUT_BF16 ? 2 : 1;
    *stores = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            if (um[i] * un[j] == 0) continue;
            mx_ttile st = {sm[i], sn[j], 0, 0, 0, sm[i] * sn[j], 0, 0};
            st.store_bytes = st.store_elems * ob;
            if (op->out_fmt == MXSIM_OUT_MXINT8) st.store_bytes += sm[i] * (sn[j] / op->out_g);
            *stores = mx_t_sat_add(*stores, mx_t_sat_mul(um[i] * un[j], mx_tengine_store_dur(cfg, a, op, &st)));
        }
    mx_ttile lt = {sm[1], sn[1], 0, 0, sm[1] * sn[1], 0, 0, 0};
    lt.store_bytes = lt.store_elems * ob;
    if (op->out_fmt == MXSIM_OUT_MXINT8) {
        int64_t G = op->out_g, n0 = (dn->n - 1) * sn[0];
        lt.store_bytes += sm[1] * (op->n / G - n0 / G + (op->n % G != 0));
    }
    *last_store = mx_tengine_store_dur(cfg, a, op, &lt);
}

/* tile_cycles of class (i, j, l) of the precomputed sizes: an OS tile of whole R x C folds is
** that many times the one-fold tile of its k size, kept per k size for the whole search. */
static int64_t class_cycles(tmemo *memo, const mx_tarch *a, const mx_top_resolved *op, const tdim *dm, int i,
                            const tdim *dn, int j, tdim *dk, int l)
{
    if (a->df == MXSIM_DF_OS && dm->rr[i] == 0 && dn->r[j] == 0) {
        if (dk->os[l] < 0) dk->os[l] = tile_time(memo, a, op, a->R, a->C, dk->s[l])->cycles;
        return dm->qr[i] * dn->q[j] * dk->os[l];
    }
    return tile_cycles(memo, a, op, dm->s[i], dn->s[j], dk->s[l]);
}

/* stream_lb (pe_array.c) of a WS/IS MXINT8 tile from the precomputed sizes: cols on the columns in
** q full folds and one of r columns, S streaming steps, chunk class l of dk. */
static int64_t stream_lb_at(const mx_tarch *a, const tdim *dk, int l, int64_t q, int64_t r, int64_t S)
{
    const int64_t R = a->R, C = a->C, N = dk->N[l], E = dk->E[l], ng = dk->g[l];
    int64_t fill = N * (2 * R + C - 1), lb = 0;
    for (int j = 0; j < 2; j++) {
        int64_t cnt = j == 0 ? q : (r != 0), mc = j == 0 ? C : r;
        if (cnt == 0) continue;
        int64_t sum_i = a->share == MXSIM_EXP_PER_COL ? mx_t_max(N, ng * a->ii)
                        : E * mx_t_max(1, (a->share == MXSIM_EXP_PER_ROW ? mc : 1) * a->ii) + (N - E);
        lb += cnt * (fill + (S - 1) * sum_i);
    }
    return lb;
}

/* A lower bound of pipeline()'s result from the tile classes: the array runs the tiles one after
** another between the first load and the last store, and the DRAM channel serves every request
** one after another.  Used only to skip candidates that cannot win.  cheap = 1: WS/IS MXINT8 tile
** times by their O(1) bound (stream_lb at the full beat, below every beat width's time), a weaker
** bound that orders the candidates first; the exact tile times are computed only for candidates
** it cannot rule out.  Sums and products saturate at INT64_MAX: a bound past 2^63 means the
** candidate's own counts pass it too (pipeline() then names the count), so it never wins. */
static int64_t lower_bound(const mx_tarch *a, const mx_top_resolved *op, const tdim *dm, const tdim *dn,
                           tdim *dk, tmemo *memo, int64_t stores, int64_t last_store, int cheap)
{
    const int64_t *sm = dm->s, *sn = dn->s, *sk = dk->s, *cm = dm->c, *cn = dn->c;
    const int64_t *um = dm->u, *un = dn->u, *uk = dk->u, *kg = dk->g;
    int64_t arr = 0, loads = 0;
    const tdim *dc = a->df == MXSIM_DF_WS ? dn : dm; /* the dim on the columns (WS/IS) */
    if (um[1] == 0 && un[1] == 0 && uk[1] == 0 && dk->n > 1) {
        /* every tile alike (aligned sizes, K split): the general sums below with one class */
        int64_t T = um[0] * un[0] * uk[0], d = mx_tdram_dur(a, (sm[0] + sn[0]) * (sk[0] + kg[0]));
        int64_t tc = cheap ? stream_lb_at(a, dk, 0, dc->q[0], dc->r[0], a->df == MXSIM_DF_WS ? sm[0] : sn[0])
                           : class_cycles(memo, a, op, dm, 0, dn, 0, dk, 0);
        return mx_t_max(mx_t_sat_add(mx_t_sat_add(d, mx_t_sat_mul(T, tc)), last_store),
                        mx_t_sat_add(mx_t_sat_mul(T, d), stores));
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            if (um[i] * un[j] == 0) continue;
            for (int l = 0; l < 2; l++) {
                if (uk[l] == 0) continue;
                int64_t tc;
                if (cheap) {
                    int ic = a->df == MXSIM_DF_WS ? j : i;
                    tc = stream_lb_at(a, dk, l, dc->q[ic], dc->r[ic], a->df == MXSIM_DF_WS ? sm[i] : sn[j]);
                } else {
                    tc = class_cycles(memo, a, op, dm, i, dn, j, dk, l);
                }
                arr = mx_t_sat_add(arr, mx_t_sat_mul(um[i] * un[j] * uk[l], tc));
            }
        }
    /* loads: with several k chunks every tile loads A and B; else A once per m row of tiles,
    ** and B once (one n tile) or with every tile */
    int64_t ab[2][2]; /* A bytes of m class i; B bytes of n class j (for the single-chunk case) */
    for (int i = 0; i < 2; i++) {
        ab[0][i] = sm[i] * (sk[0] + kg[0]);
        ab[1][i] = sn[i] * (sk[0] + kg[0]);
    }
    int64_t first_dur = -1;
    if (dk->n > 1) {
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++)
                for (int l = 0; l < 2; l++) {
                    int64_t n = um[i] * un[j] * uk[l];
                    if (n == 0) continue;
                    int64_t d = mx_tdram_dur(a, (sm[i] + sn[j]) * (sk[l] + kg[l]));
                    if (i == 0 && j == 0 && l == 0) first_dur = d; /* the first tile's request */
                    loads = mx_t_sat_add(loads, mx_t_sat_mul(n, d));
                }
    } else {
        int jf = dn->n > 1 ? 0 : 1; /* class of the first n tile */
        for (int i = 0; i < 2; i++) {
            if (cm[i] == 0) continue;
            /* first tile of each m row: A, plus B when B moves with every tile or it is tile 0 */
            int64_t first_b = dn->n > 1 ? ab[1][jf] : 0;
            loads = mx_t_sat_add(loads, mx_t_sat_mul(cm[i], mx_tdram_dur(a, ab[0][i] + first_b)));
            if (dn->n > 1)
                for (int j = 0; j < 2; j++) {
                    int64_t n = cm[i] * (cn[j] - (j == jf));
                    if (n > 0) loads = mx_t_sat_add(loads, mx_t_sat_mul(n, mx_tdram_dur(a, ab[1][j])));
                }
        }
        if (dn->n == 1) /* B once, in tile 0's request (A of tile 0 already counted) */
            loads = mx_t_sat_add(loads, mx_tdram_dur(a, ab[0][dm->n > 1 ? 0 : 1] + ab[1][1]) -
                                            mx_tdram_dur(a, ab[0][dm->n > 1 ? 0 : 1]));
    }
    /* the first tile loads full-size A and B */
    if (first_dur < 0) first_dur = mx_tdram_dur(a, ab[0][0] + ab[1][0]);
    return mx_t_max(mx_t_sat_add(mx_t_sat_add(first_dur, arr), last_store), mx_t_sat_add(loads, stores));
}

/* Every statistic of one op on tiling t (analytic; the op once, without repeat).  Returns 0, or -1
** with *ovf naming a count that would pass 2^63. */
static int candidate_stats(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                           const mx_ttiling *t, mxsim_tstats *st, const char **ovf)
{
    memset(st, 0, sizeof *st);
    mx_tengine_volumes(cfg, a, op, t, st);
    st->cycles_total = pipeline(cfg, a, op, t, st, ovf);
    if (st->cycles_total < 0) return -1;
    st->cycles_mem_stall = st->cycles_total - st->cycles_compute - st->cycles_fill_drain - st->cycles_exp_stall -
                           st->cycles_lane_limit;
    st->util_mapping = st->n_folds > 0 ? st->util_mapping / ((double)st->n_folds * (double)a->R * (double)a->C) : 0;
    /* n_lane_slots is no term of the objective, so it does not steer the choice (the detailed
    ** engine's search, on cycles alone, picks the same tiling); mxsim_time_op checks it */
    (void)mx_tstats_finish(cfg, st);
    return 0;
}

/* The energy model as the tile search sees it (tile.objective energy or edp): mxsim_cost_energy
** with the caller's cost parameters (a sweep's node, Vdd, overhead and SRAM bank; NULL: the
** defaults), nominal band; the same function and parameters the sweep reports. */
typedef struct {
    int on;
#ifdef MXSIM_HAVE_COST
    mxsim_cost_params p;
    mxsim_area area;
#endif
} tcost;

static mxsim_status tcost_init(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_cost_params *p, tcost *c)
{
    memset(c, 0, sizeof *c);
    c->on = cfg->tile_objective != MXSIM_OBJ_CYCLES;
#ifdef MXSIM_HAVE_COST
    if (c->on) {
        if (p != NULL) c->p = *p;
        else mxsim_cost_params_default(&c->p);
        return mxsim_cost_area(ctx, cfg, &c->p, &c->area);
    }
    return MXSIM_OK;
#else
    (void)p;
    return c->on ? mx_fail(ctx, MXSIM_E_UNSUPPORTED, "tile.objective: energy and edp need the cost model") : MXSIM_OK;
#endif
}

/* Objective value of a candidate with statistics st (cycles: cycles_total).  lb = 1: st holds only
** a lower bound's counts, and the result keeps only energy terms that are exact or below the true
** ones (every dropped term is >= 0). */
static mxsim_status objective(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const tcost *c, const mxsim_tstats *st,
                              int lb, double *out)
{
    if (!c->on) {
        *out = (double)st->cycles_total;
        return MXSIM_OK;
    }
#ifdef MXSIM_HAVE_COST
    mxsim_energy e;
    mxsim_status s = mxsim_cost_energy(ctx, cfg, &c->p, &c->area, st, &e);
    if (s != MXSIM_OK) return s;
    double pj = e.total_pj[MXSIM_BAND_NOM];
    if (lb) /* terms that depend on counts the bound does not know (set to 0 there) */
        pj -= e.dyn_pj[MXSIM_BAND_NOM][MXSIM_COMP_ADDER_TREE] + e.dyn_pj[MXSIM_BAND_NOM][MXSIM_COMP_ACCUM] +
              e.dyn_pj[MXSIM_BAND_NOM][MXSIM_COMP_SRAM] + e.dyn_pj[MXSIM_BAND_NOM][MXSIM_COMP_OVERHEAD];
    *out = cfg->tile_objective == MXSIM_OBJ_EDP ? pj * (double)st->cycles_total : pj;
    return MXSIM_OK;
#else
    (void)ctx, (void)cfg, (void)st, (void)lb;
    return MXSIM_E_UNSUPPORTED;
#endif
}

/* Lower bound of a candidate's objective from its cycle bound: the op's MACs and exponent ops, the
** tiling's DRAM reads in closed form (A once per n tile when K is split, B once per m tile unless
** it stays resident), leakage over lb_cycles. */
static void lb_stats(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, const mx_ttiling *t,
                     int64_t lb_cycles, mxsim_tstats *st)
{
    memset(st, 0, sizeof *st);
    int64_t ra = t->nk > 1 ? t->nn : 1, rb = t->nk > 1 || t->nn > 1 ? t->nm : 1;
    st->dram_a_mant_bytes = op->m * op->k * ra;
    st->dram_b_mant_bytes = op->k * op->n * rb;
    if (op->mx) {
        st->dram_a_scale_bytes = op->m * (op->k / op->g) * ra;
        st->dram_b_scale_bytes = (op->k / op->g) * op->n * rb;
    }
    st->n_macs = op->m * op->n * op->k_useful;
    st->n_macs_issued = op->m * op->n * op->k;
    st->n_exp_ops = op->mx ? op->m * op->n * (op->k / op->g) : 0;
    st->cycles_total = lb_cycles;
    (void)a;
    (void)mx_tstats_finish(cfg, st); /* n_lane_slots is no term of the objective */
}

/* The objective's lower bound for tiling t whose cycle bound is lbc: the cycles themselves, or the
** energy (or EDP) of lb_stats at those cycles. */
static mxsim_status lb_objective(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const tcost *c, const mx_tarch *a,
                                 const mx_top_resolved *op, const mx_ttiling *t, int64_t lbc, double *out)
{
    *out = (double)lbc;
    if (!c->on) return MXSIM_OK;
    mxsim_tstats ls;
    lb_stats(cfg, a, op, t, lbc, &ls);
    return objective(ctx, cfg, c, &ls, 1, out);
}

/* The candidates in (lb, order) order, a strict total order since orders differ: a binary
** min-heap of small keys, built in O(n), because the search usually stops after a few pops
** (a full sort of the candidates cost more than their bounds).  A key names its tiling by the
** indices of its m, n, k sizes, so no large candidate array is allocated per search. */
typedef struct {
    double lb;      /* lower bound of the objective */
    int32_t order;  /* position in the tie order (< 2 * MX_T_LATE_ORDER) */
    uint8_t im, in, ik;
    uint8_t cheap;  /* lb is the cheap bound (lower_bound, cheap = 1) */
} ckey;             /* 16 bytes: the heap moves them */

static int ckey_less(const ckey *x, const ckey *y) { return x->lb < y->lb || (x->lb == y->lb && x->order < y->order); }

static void heap_up(ckey *h, int i)
{
    while (i > 0 && ckey_less(&h[i], &h[(i - 1) / 2])) {
        ckey tmp = h[i];
        h[i] = h[(i - 1) / 2];
        h[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

static void heap_down(ckey *h, int n, int i)
{
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < n && ckey_less(&h[l], &h[m])) m = l;
        if (l + 1 < n && ckey_less(&h[l + 1], &h[m])) m = l + 1;
        if (m == i) return;
        ckey tmp = h[i];
        h[i] = h[m];
        h[m] = tmp;
        i = m;
    }
}

/* mn_bound's array term, K(nk) * P(m size) * Q(n size): every fold costs at least its fill/drain
** and its beats or rows.  OS: the R x C fold positions, P row folds times Q column folds, each
** streaming K's beats (nkb) through nk chunk folds of R + C - 2 fill/drain: K = nkb + nk (R+C-2).
** WS/IS: the column folds (Q for WS's n, P for IS's m) each hold max(nk, ceil(nkb / R)) reduction
** folds of 2R + C - 2 plus their streamed rows, summed over the streamed dim's tiles (P for WS's m:
** nm (2R + C - 2) + M; Q for IS's n).  nkb: K's beats at the full beat (the WS/IS beat choice
** only adds beats). */
static int64_t mn_factor(const mx_tarch *a, const tdim *d, int64_t dim, int is_n)
{
    const int64_t R = a->R, C = a->C;
    int on_cols = a->df == MXSIM_DF_IS ? !is_n : is_n; /* else on the rows (OS) or streamed (WS/IS) */
    if (a->df != MXSIM_DF_OS && !on_cols) return mx_t_sat_add(mx_t_sat_mul(d->n, 2 * R + C - 2), dim);
    int64_t f = 0;
    for (int i = 0; i < 2; i++) f += d->u[i] * (on_cols ? d->q[i] + (d->r[i] != 0) : d->qr[i] + (d->rr[i] != 0));
    return f;
}

static int64_t mn_kfactor(const mx_tarch *a, int64_t nkb, int64_t nk)
{
    if (a->df == MXSIM_DF_OS) return mx_t_sat_add(nkb, mx_t_sat_mul(nk, a->R + a->C - 2));
    return mx_t_max(nk, mx_t_ceil_div(nkb, a->R));
}

/* A lower bound of pipeline()'s cycles for every tiling with the m and n sizes of dm and dn and a
** fitting k size (the largest: dk), to skip a pair of late sizes whole; it returns as soon as a
** partial bound reaches stop.  pq: P * Q of the pair (mn_factor).  Every such tiling has at least
** nk = dk->n chunks; the bound is the larger of the array term and the DRAM channel's time, its
** requests back to back: with K split every tile loads its A and B chunk (A nn times, B nm times,
** nm * nn * nk requests), else A once and B once per m tile when N is split (once when not), a
** request per output tile (per m tile when N is one tile); plus the stores (lb_stores). */
static int64_t mn_bound(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, const tdim *dm,
                        const tdim *dn, const tdim *dk, int64_t nkb, int64_t pq, int64_t stop)
{
    const int64_t nk = dk->n;
    int64_t arr = mx_t_sat_mul(mn_kfactor(a, nkb, nk), pq);
    if (arr >= stop) return arr;
    int64_t row = mx_tsram_row_bytes(op, op->k), bytes, req;
    if (nk > 1) {
        bytes = mx_t_sat_add(mx_t_sat_mul(mx_t_sat_mul(op->m, row), dn->n),
                             mx_t_sat_mul(mx_t_sat_mul(op->n, row), dm->n));
        req = mx_t_sat_mul(mx_t_sat_mul(dm->n, dn->n), nk);
    } else {
        bytes = mx_t_sat_add(mx_t_sat_mul(op->m, row),
                             mx_t_sat_mul(mx_t_sat_mul(op->n, row), dn->n > 1 ? dm->n : 1));
        req = dn->n > 1 ? mx_t_sat_mul(dm->n, dn->n) : dm->n;
    }
    int64_t loads = mx_t_sat_add(mx_tdram_dur(a, bytes), mx_t_sat_mul(req - 1, a->dram_lat));
    if (loads >= stop) return loads;
    int64_t stores, last_store;
    lb_stores(cfg, a, op, dm, dn, &stores, &last_store);
    return mx_t_max(arr, mx_t_sat_add(loads, stores));
}

/* m or n sizes per dim (dim_candidates: at most 95); a candidate's tie order is its position,
** plus MX_T_LATE_ORDER when its m or n size is a late one (> 95 * 95 * 96 positions) */
#define MX_T_DIM_CAND 100
#define MX_T_LATE_ORDER (1 << 22)

static void add_candidates(int64_t *v, int *n, int64_t gran, int64_t dim)
{
    for (int64_t x = gran; x < dim && *n < 40; x *= 2) v[(*n)++] = x;
    v[(*n)++] = dim;
}

/* The m or n sizes of a dim whose array granularity is gran, ascending and distinct: the
** array-granular sizes gran * 2^i below the dim and the dim itself (late[i] = 0), then the narrower
** and in-between sizes (late[i] = 1): every power of two below the dim and the halvings
** ceil(gran / 2^j).  A tile narrower than the array wastes PEs but needs less SRAM and DRAM per
** tile; the late sizes make the lists nested: an R' array's list holds an R array's whenever
** R <= R' and R is a power of two or R' / R is (architecture.md section 3), so that tiling stays
** available on the larger array.  At most 31 + 31 + 32 + 1 sizes (dims up to 2^31). */
static int dim_candidates(int64_t *v, uint8_t *late, int64_t gran, int64_t dim)
{
    if ((gran & (gran - 1)) == 0) { /* every size is a power of two, late below gran, and the dim */
        int n = 0;
        for (int64_t s = 1; s < dim; s *= 2) v[n] = s, late[n++] = s < gran;
        v[n] = dim, late[n++] = 0;
        return n;
    }
    /* three ascending lists merged, dropping repeats: gran * 2^i and the dim; 2^p; ceil(gran / 2^j) */
    int64_t g[33], p[32], h[33];
    int ng = 0, np = 0, nh = 0, n = 0;
    for (int64_t s = gran; s < dim; s *= 2) g[ng++] = s;
    g[ng++] = dim;
    for (int64_t s = 1; s < dim; s *= 2) p[np++] = s;
    for (int64_t s = gran; s > 1;) {
        s = (s + 1) / 2;
        if (s < dim) h[nh++] = s;
    }
    for (int i = 0, j = 0, k = nh - 1; i < ng || j < np || k >= 0;) {
        int64_t x = i < ng ? g[i] : INT64_MAX;
        x = mx_t_min(x, j < np ? p[j] : INT64_MAX);
        x = mx_t_min(x, k >= 0 ? h[k] : INT64_MAX);
        int gr = i < ng && g[i] == x; /* a granular size is not late, wherever else it appears */
        while (i < ng && g[i] == x) i++;
        while (j < np && p[j] == x) j++;
        while (k >= 0 && h[k] == x) k--;
        v[n] = x, late[n++] = (uint8_t)!gr;
    }
    return n;
}

mxsim_status mx_tengine_choose(mxsim_ctx *ctx, const mx_tarch *a, const mx_top_resolved *op,
                               const char *where, const mxsim_cost_params *cost_p, mx_ttiling *best,
                               mxsim_tstats *best_st)
{
    int64_t cm[MX_T_DIM_CAND], cn[MX_T_DIM_CAND], ck[96];
    uint8_t lm[MX_T_DIM_CAND] = {0}, ln[MX_T_DIM_CAND] = {0}; /* late sizes (dim_candidates) */
    int nm = 0, nn = 0, nk = 0;
    int64_t gm = a->df == MXSIM_DF_OS ? a->R : a->df == MXSIM_DF_IS ? a->C : 8;
    int64_t gn = a->df == MXSIM_DF_IS ? 8 : a->C;
    const mxsim_tconfig *cfg = a->cfg;
    /* a tile size set in the configuration is the only candidate of its dim */
    if (cfg->tile_m > 0) cm[nm++] = mx_t_min(cfg->tile_m, op->m);
    else nm = dim_candidates(cm, lm, gm, op->m);
    if (cfg->tile_n > 0) cn[nn++] = mx_t_min(cfg->tile_n, op->n);
    else nn = dim_candidates(cn, ln, gn, op->n);
    /* reduction chunks: G, 2G, 4G, ... and the whole K, for int8 operands too (G of the op or
    ** the configuration), so that the list depends on neither the lanes nor the operand format:
    ** each MXINT8 chunk c has the int8 chunk min(c, K) (architecture.md section 6) */
    if (cfg->tile_k > 0) {
        ck[nk++] = mx_t_min(cfg->tile_k, op->k);
        if (op->mx && ck[0] % op->g != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'tile.k': %lld is not a multiple of G=%lld", where,
                           (long long)ck[0], (long long)op->g);
    } else {
        add_candidates(ck, &nk, op->out_g, op->k);
        if (!op->mx) { /* int8 also gets the powers of two (a superset, still lane-independent) */
            int64_t p2[48], mg[96];
            int n2 = 0, n = 0, i = 0, j = 0;
            add_candidates(p2, &n2, 1, op->k);
            while (i < nk || j < n2) { /* merge two ascending lists, dropping repeats */
                int64_t v = j == n2 || (i < nk && ck[i] <= p2[j]) ? ck[i++] : p2[j++];
                if (n == 0 || mg[n - 1] != v) mg[n++] = v;
            }
            memcpy(ck, mg, (size_t)n * sizeof *ck);
            nk = n;
        }
    }
    /* Candidates in the original order (largest first; the array-granular ones, then those with a
    ** late size); each gets a lower bound of its cost and is evaluated only if the bound can still
    ** beat the best so far, in bound order; ties keep the earlier candidate: the choice is the one
    ** an exhaustive search in that order makes.  The set is every listed candidate that fits, a
    ** filter on the candidate alone, so more SRAM only adds candidates.  A candidate whose counts
    ** would pass 2^63 never wins. */
    tcost cost;
    mxsim_status cst = tcost_init(ctx, cfg, cost_p, &cost);
    if (cst != MXSIM_OK) return cst;
    size_t ncand = (size_t)nm * (size_t)nn * (size_t)nk;
    ckey *heap = NULL;
    if (ctx && ctx->tile_heap_cap >= ncand) {
        heap = ctx->tile_heap;
    } else if ((heap = malloc(ncand * sizeof *heap)) != NULL && ctx) {
        free(ctx->tile_heap);
        ctx->tile_heap = heap;
        ctx->tile_heap_cap = ncand;
    }
    tmemo *memo = ctx ? ctx->tile_memo : NULL;
    if (memo == NULL && (memo = malloc(sizeof *memo)) != NULL && ctx) ctx->tile_memo = memo;
    if (memo != NULL) memset(memo->valid, 0, sizeof memo->valid);
    if (heap == NULL || memo == NULL) {
        if (!ctx) free(heap), free(memo);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", where);
    }
    tdim dms[MX_T_DIM_CAND], dns[MX_T_DIM_CAND], dks[96]; /* each candidate size, precomputed */
    /* two tiers of bounds when the exact tile times are the costly part (WS/IS MXINT8) */
    const int cheap = op->mx && a->df != MXSIM_DF_OS;
    for (int i = 0; i < nm; i++) tdim_set(&dms[i], a, op, op->m, cm[i], 0);
    for (int j = 0; j < nn; j++) tdim_set(&dns[j], a, op, op->n, cn[j], 0);
    for (int l = 0; l < nk; l++) tdim_set(&dks[l], a, op, op->k, ck[l], 1);
    /* K's beats at the full beat and each size's factor of the array term (mn_bound) */
    const int64_t nkb = op->mx ? (op->k / op->g) * mx_tload_beats_per_group(a, op->g) : mx_t_ceil_div(op->k, a->w);
    int64_t fp[MX_T_DIM_CAND], fq[MX_T_DIM_CAND], fq_min = INT64_MAX;
    /* the n sizes' indices, largest first: all (ja), the granular (jg) and the late ones (jl) */
    int ja[MX_T_DIM_CAND], jg[MX_T_DIM_CAND], jl[MX_T_DIM_CAND], njg = 0, njl = 0;
    for (int j = nn - 1; j >= 0; j--) {
        ja[nn - 1 - j] = j;
        if (ln[j]) jl[njl++] = j;
        else jg[njg++] = j;
    }
    for (int i = 0; i < nm; i++) fp[i] = mn_factor(a, &dms[i], op->m, 0);
    for (int j = 0; j < nn; j++) fq_min = mx_t_min(fq_min, fq[j] = mn_factor(a, &dns[j], op->n, 1));
    int64_t tkb[96]; /* bytes per row of a k chunk: mantissas and scales */
    for (int l = 0; l < nk; l++) tkb[l] = mx_tsram_row_bytes(op, ck[l]);
    /* Two passes: the array-granular candidates (the list before the narrower sizes were added),
    ** then those with a late m or n size (dim_candidates), which come after them in the tie order
    ** and so replace the best only with a strictly smaller cost: a pair (tm, tn) whose bound over
    ** every k (mn_bound) reaches the best cycles is skipped whole.  The choice is the exhaustive
    ** search's over both lists in that order. */
    double best_cost = -1;
    int64_t best_order = -1;
    const char *ovf_any = NULL;
    for (int late = 0; late < 2; late++) {
        int nc = 0;
        /* the late pass skips, before anything else, an m size (or n size, or pair) whose array
        ** term cannot beat the best cycles with any partner and one chunk */
        const int64_t stop = late && best_cost >= 0 && !cost.on ? (int64_t)best_cost : INT64_MAX;
        const int64_t k1 = mn_kfactor(a, nkb, 1);
        for (int i = nm - 1; i >= 0; i--) {
            if (late ? mx_t_sat_mul(mx_t_sat_mul(k1, fp[i]), fq_min) >= stop : lm[i]) continue;
            /* the granular pass: granular n sizes; the late pass: every n size of a late m size,
            ** else the late n sizes */
            const int *js = late && !lm[i] ? jl : late ? ja : jg;
            for (int jx = late && !lm[i] ? njl : late ? nn : njg, jj = 0; jj < jx; jj++) {
                const int j = js[jj];
                int64_t pq = mx_t_sat_mul(fp[i], fq[j]);
                if (late && mx_t_sat_mul(k1, pq) >= stop) continue;
                /* sizes ascend and the fit grows with each: the fitting k sizes are a prefix */
                int lmax = mx_tsram_fit_prefix(a, cm[i], cn[j], tkb, nk) - 1;
                if (late && lmax >= 0 && best_cost >= 0) { /* can any k size win? (strictly: late) */
                    /* cycles: stop the bound once it reaches the best; energy and EDP grow with
                    ** the cycles and with the DRAM reads of the fewest chunks (lb_stats) */
                    int64_t lbc = mn_bound(cfg, a, op, &dms[i], &dns[j], &dks[lmax], nkb, pq, stop);
                    mx_ttiling t = {cm[i], cn[j], ck[lmax], dms[i].n, dns[j].n, dks[lmax].n};
                    double lbo;
                    if ((cst = lb_objective(ctx, cfg, &cost, a, op, &t, lbc, &lbo)) != MXSIM_OK) {
                        if (!ctx) free(heap), free(memo);
                        return cst;
                    }
                    if (lbo >= best_cost) continue;
                }
                int64_t stores = 0, last_store = 0;
                if (lmax >= 0) lb_stores(cfg, a, op, &dms[i], &dns[j], &stores, &last_store);
                for (int l = lmax; l >= 0; l--) {
                    /* no tile-count limit: the pipeline is a closed form (pipeline.c) */
                    int64_t lbc = lower_bound(a, op, &dms[i], &dns[j], &dks[l], memo, stores, last_store, cheap);
                    mx_ttiling t = {cm[i], cn[j], ck[l], dms[i].n, dns[j].n, dks[l].n};
                    double lbo;
                    if ((cst = lb_objective(ctx, cfg, &cost, a, op, &t, lbc, &lbo)) != MXSIM_OK) {
                        if (!ctx) free(heap), free(memo);
                        return cst;
                    }
                    /* the tie order: the array-granular candidates (largest first), then those with a
                    ** late size (largest first), so a narrower tile wins only by fewer cycles */
                    int32_t order = nc + (late ? MX_T_LATE_ORDER : 0);
                    heap[nc] = (ckey){lbo, order, (uint8_t)i, (uint8_t)j, (uint8_t)l, (uint8_t)cheap};
                    nc++;
                }
            }
        }
        /* Until a first candidate is evaluated, pops scan the keys for the least (a popped key is set
        ** to HUGE_VAL); then only the keys that can still win (at most the best cost) are kept, as a
        ** heap: usually a handful of the hundreds. */
        int heaped = 0;
        for (int hn = nc; hn > 0;) {
            if (!heaped && best_cost >= 0) {
                int live = 0;
                for (int i = 0; i < hn; i++)
                    if (heap[i].lb < best_cost || (heap[i].lb == best_cost && heap[i].order < best_order))
                        heap[live++] = heap[i];
                hn = live;
                for (int i = hn / 2 - 1; i >= 0; i--) heap_down(heap, hn, i);
                heaped = 1;
                if (hn == 0) break;
            }
            ckey cand;
            int at = 0;
            if (heaped) {
                cand = heap[0]; /* the next candidate in (lb, order) order */
                heap[0] = heap[--hn];
                heap_down(heap, hn, 0);
            } else {
                for (int i = 1; i < hn; i++)
                    if (ckey_less(&heap[i], &heap[at])) at = i;
                cand = heap[at];
                if (cand.lb == HUGE_VAL) break; /* all popped */
                heap[at].lb = HUGE_VAL;
            }
            const mx_ttiling ct = {cm[cand.im], cn[cand.in], ck[cand.ik],
                                   dms[cand.im].n, dns[cand.in].n, dks[cand.ik].n};
            if (best_cost >= 0 && (cand.lb > best_cost || (cand.lb == best_cost && cand.order > best_order))) break;
            if (cand.cheap) { /* the exact bound (>= the cheap one), back in line */
                int64_t stores, last_store;
                lb_stores(cfg, a, op, &dms[cand.im], &dns[cand.in], &stores, &last_store);
                int64_t lbc =
                    lower_bound(a, op, &dms[cand.im], &dns[cand.in], &dks[cand.ik], memo, stores, last_store, 0);
                double lbo;
                if ((cst = lb_objective(ctx, cfg, &cost, a, op, &ct, lbc, &lbo)) != MXSIM_OK) {
                    if (!ctx) free(heap), free(memo);
                    return cst;
                }
                ckey back = {lbo > cand.lb ? lbo : cand.lb, cand.order, cand.im, cand.in, cand.ik, 0};
                if (heaped) {
                    heap[hn] = back;
                    heap_up(heap, hn);
                    hn++;
                } else {
                    heap[at] = back; /* back in line, with the exact bound */
                }
                continue;
            }
            double c;
            const char *ovf = NULL;
            mxsim_tstats cst_s;
            if (cost.on || best_st != NULL) { /* every statistic: the objective's, or the caller's */
                if (candidate_stats(cfg, a, op, &ct, &cst_s, &ovf) < 0) { /* past 2^63: never best */
                    ovf_any = ovf;
                    continue;
                }
                if ((cst = objective(ctx, cfg, &cost, &cst_s, 0, &c)) != MXSIM_OK) {
                    if (!ctx) free(heap), free(memo);
                    return cst;
                }
            } else {
                int64_t cyc = pipeline(a->cfg, a, op, &ct, NULL, &ovf);
                if (cyc < 0) {
                    ovf_any = ovf;
                    continue;
                }
                c = (double)cyc;
            }
            if (best_cost < 0 || c < best_cost || (c == best_cost && cand.order < best_order)) {
                best_cost = c;
                best_order = cand.order;
                *best = ct;
                if (best_st != NULL) *best_st = cst_s;
            }
        }
    }
    if (!ctx) free(heap);
    if (best_cost >= 0) /* the beat each tile shape runs at, for the detailed engine */
        for (int cls = 0; cls < 8; cls++) {
            int64_t tm = cls & 1 ? op->m - (best->nm - 1) * best->tm : best->tm;
            int64_t tn = cls & 2 ? op->n - (best->nn - 1) * best->tn : best->tn;
            int64_t tk = cls & 4 ? op->k - (best->nk - 1) * best->tk : best->tk;
            best->tg[cls] = tile_time(memo, a, op, tm, tn, tk)->tg;
        }
    if (!ctx) free(memo);
    if (best_cost < 0 && ovf_any != NULL)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: field '%s': the count passes 2^63 on every tiling", where, ovf_any);
    if (best_cost < 0)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: no tiling fits: fields 'sram.a_kib', 'sram.b_kib', 'sram.c_kib' too small "
                       "for one %lld x %lld x %lld tile%s", where, (long long)cm[0], (long long)cn[0],
                       (long long)ck[0], cfg->tile_m || cfg->tile_n || cfg->tile_k ? " (fields 'tile.*' set)" : "");
    return MXSIM_OK;
}

/* The volumes both engines share: SRAM reads at the array edges, MACs, exponent operations and
** re-quantized outputs, each from its block's module. */
void mx_tengine_volumes(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                        const mx_ttiling *t, mxsim_tstats *st)
{
    (void)cfg;
    mx_tsram_reads(a, op, t, st);
    mx_tpe_macs(op, st);
    mx_texp_events(op, st);
    mx_trequant_gemm_events(op, st);
}

const char *mx_tstats_finish(const mxsim_tconfig *cfg, mxsim_tstats *st)
{
    double slots = (double)cfg->array_rows * (double)cfg->array_cols * (double)cfg->pe_lanes;
    st->cycles_array = st->cycles_compute + st->cycles_fill_drain + st->cycles_exp_stall + st->cycles_lane_limit;
    /* bound: the largest class, ties to the earlier one (MXSIM_BOUNDS order) */
    const int64_t cls[MXSIM_BOUND_COUNT_] = {st->cycles_compute, st->cycles_fill_drain, st->cycles_exp_stall,
                                             st->cycles_lane_limit, st->cycles_dram_bw, st->cycles_dram_latency};
    st->tile_objective = cfg->tile_objective;
    st->bound = 0;
    for (int i = 1; i < MXSIM_BOUND_COUNT_; i++)
        if (cls[i] > cls[st->bound]) st->bound = i;
    st->util_compute = st->cycles_total > 0 ? (double)st->n_macs / (slots * (double)st->cycles_total) : 0;
    /* the bound classes count an overlapped transfer as what the array does meanwhile: this says how
    ** much of the time the bytes alone need (doubles: the byte sum may pass 2^63 in a TOTAL) */
    const double dram_bytes = (double)st->dram_a_mant_bytes + (double)st->dram_a_scale_bytes +
                              (double)st->dram_b_mant_bytes + (double)st->dram_b_scale_bytes + (double)st->dram_out_bytes;
    st->dram_floor = cfg->scalesim_compat      ? NAN /* SCALE-Sim's words and stall model: no such floor (1307% was shown) */
                     : st->cycles_total > 0 ? dram_bytes / cfg->dram_bw_bytes_per_cycle / (double)st->cycles_total
                                            : 0;
    /* one division: time_us is exactly RN(cycles / MHz), as a user computes it (seconds times 1e6
    ** was off by an ulp for a quarter of the values, e.g. 61.199999999999996 for 61200 cycles) */
    st->time_us = (double)st->cycles_total / cfg->clock_mhz;
    st->tops = st->time_us > 0 ? 2.0 * (double)st->n_macs / st->time_us / 1e6 : 0;
    /* R*C*L slots (up to 2^32) times the array cycles passes 2^63 long before the cycles do */
    int64_t n;
    if (__builtin_mul_overflow(cfg->array_rows, cfg->array_cols, &n) || __builtin_mul_overflow(n, cfg->pe_lanes, &n) ||
        __builtin_mul_overflow(n, st->cycles_array, &n)) {
        st->n_lane_slots = 0;
        return "n_lane_slots";
    }
    st->n_lane_slots = n;
    return NULL;
}

MXSIM_API mxsim_status mxsim_time_op(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_top *op,
                                     const char *source, int detail, const char *access_trace_path,
                                     mxsim_tstats *out)
{
    return mxsim_time_op_cost(ctx, cfg, NULL, op, source, detail, access_trace_path, out);
}

MXSIM_API mxsim_status mxsim_time_op_cost(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_cost_params *cost,
                                          const mxsim_top *op, const char *source, int detail,
                                          const char *access_trace_path, mxsim_tstats *out)
{
    mx_clear_err(ctx);
    if (ctx == NULL || cfg == NULL || op == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "time_op: NULL argument");
    memset(out, 0, sizeof *out);
    mxsim_status s;
    if (cost != NULL &&
        (s = mx_check_size(ctx, "mxsim_time_op_cost", "mxsim_cost_params", cost->struct_size, sizeof *cost)) != MXSIM_OK)
        return s;
    s = mxsim_tconfig_validate(ctx, cfg);
    if (s != MXSIM_OK) return s;
    mx_top_resolved r;
    if ((s = mx_top_resolve(ctx, cfg, op, source, &r)) != MXSIM_OK) return s;
    mx_tarch a;
    mx_tarch_derive(cfg, &a);
    if (r.kind != MXSIM_OP_GEMM) {
        const char *ovf = r.kind == MXSIM_OP_DEQUANT ? mx_tdequant_time(cfg, &a, &r, out)
                                                     : mx_trequant_time(cfg, &a, &r, out);
        if (ovf != NULL) {
            memset(out, 0, sizeof *out);
            return mx_fail(ctx, MXSIM_E_LIMIT, "%s:%d: op '%s': field '%s': the count passes 2^63",
                           source ? source : "trace", op->line, op->name, ovf);
        }
    } else {
        char where[600];
        mx_snprintf(where, sizeof where, "%s:%d: op '%s'", source ? source : "trace", op->line, op->name);
        mx_ttiling t;
        if (cfg->scalesim_compat) mx_tscalesim_tiling(&a, &r, &t);
        else if ((s = mx_tengine_choose(ctx, &a, &r, where, cost, &t, detail ? NULL : out)) != MXSIM_OK) return s;
        if (detail) {
            /* Admission: the analytic estimate refuses at once what the detailed engine would
            ** stop at its limits only after stepping them (its own checks stay as a backstop).
            ** The detailed engine then counts every cycle and volume itself. */
            mxsim_tstats est;
            memset(&est, 0, sizeof est);
            const char *ovf = NULL;
            int64_t tot = pipeline(cfg, &a, &r, &t, &est, &ovf);
            if (tot < 0) tot = INT64_MAX;
            int64_t arr = est.cycles_compute + est.cycles_fill_drain + est.cycles_exp_stall + est.cycles_lane_limit;
            if ((double)arr * (double)(a.R * a.C) > (double)MX_TDETAIL_MAX_PE_CYC || tot > MX_TDETAIL_MAX_CYC)
                return mx_fail(ctx, MXSIM_E_LIMIT,
                               "%s: detailed mode steps at most 2^26 PE-cycles (R*C*array cycles) and 2^26 "
                               "cycles per op; this op takes about %.3g PE-cycles and %.3g cycles: use the "
                               "analytic engine (detail off)", where, (double)arr * (double)(a.R * a.C), (double)tot);
            if ((s = mx_tdetail_run(ctx, cfg, &a, &r, &t, where, access_trace_path, out)) != MXSIM_OK) return s;
        } else if (cfg->scalesim_compat) { /* else the search left the chosen tiling's statistics */
            const char *ovf = NULL;
            if (candidate_stats(cfg, &a, &r, &t, out, &ovf) < 0)
                return mx_fail(ctx, MXSIM_E_LIMIT, "%s: field '%s': the count passes 2^63", where, ovf);
        }
        if (detail)
            out->util_mapping = out->n_folds > 0 ? out->util_mapping / ((double)out->n_folds * (double)a.R * (double)a.C) : 0;
        out->tile_m = t.tm;
        out->tile_n = t.tn;
        out->tile_k = t.tk;
        out->n_tiles = t.nm * t.nn * t.nk;
        if (cfg->scalesim_compat) { /* its memory model: USER stepped (E_LIMIT beyond its bounds) */
            if ((s = mx_tscalesim_prepare(ctx, cfg, &a, &r, where)) != MXSIM_OK) return s;
            mx_tscalesim_finish(cfg, &a, &r, out);
        }
    }
    double um = out->util_mapping;
    const char *ovf = mx_tstats_scale_overflow(out, r.repeat);
    if (ovf != NULL) {
        memset(out, 0, sizeof *out);
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s:%d: op '%s': field '%s': %lld repeats pass 2^63", source ? source : "trace",
                       op->line, op->name, ovf, (long long)r.repeat);
    }
    if (r.repeat > 1) mx_tstats_scale(out, r.repeat);
    out->util_mapping = um;
    if ((ovf = mx_tstats_finish(cfg, out)) != NULL) {
        long long arr = (long long)out->cycles_array;
        memset(out, 0, sizeof *out);
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s:%d: op '%s': field '%s': R*C*L = %lld slots x %lld array cycles passes 2^63",
                       source ? source : "trace", op->line, op->name, ovf,
                       (long long)(cfg->array_rows * cfg->array_cols * cfg->pe_lanes), arr);
    }
    return MXSIM_OK;
}

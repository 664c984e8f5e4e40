/* pipeline.c - the analytic double-buffered memory pipeline of a tiled GEMM: the tile walk (the
** test oracle) and its closed form over tile classes (what mxsim_time_op uses), equal in every
** counter (sim/doc/architecture.md section 13).
**
** Modelled: tiles run in order (m outer, n, k inner).  One DRAM channel serves requests in issue
** order, each costing latency + ceil(bytes / bandwidth) cycles (mx_tdram_dur).  Tile t+1's load is
** issued when tile t starts computing (its buffer half was freed by tile t-1); tile t's output store
** (re-quantized first when the output is MXINT8) is issued when it finishes.  The array waits for
** a tile's operands; each wait is split into DRAM latency (the channel in a request's latency
** phase) and DRAM bandwidth (transferring or re-quantizing).
** Ignored: DRAM banks and refresh, partial-sum spills (the output tile stays in SRAM across k).
*/
#include <stdint.h>
#include <string.h>

#include "tinternal.h"

/* ---- the walk (oracle) ------------------------------------------------------------------ */

/* Latency windows [lo, hi) of the channel's last requests (a ring): the requests are served one
** after another, and a wait of the array overlaps at most the few still in flight. */
#define MX_T_LATWIN 8
typedef struct {
    int64_t lo[MX_T_LATWIN], hi[MX_T_LATWIN];
    int n;
} latwin;

static void latwin_add(latwin *w, int64_t lo, int64_t len)
{
    w->lo[w->n % MX_T_LATWIN] = lo;
    w->hi[w->n % MX_T_LATWIN] = lo + len;
    w->n++;
}

/* Splits the array's wait [x, y) into DRAM latency and DRAM bandwidth. */
static void stall_split(const latwin *w, int64_t x, int64_t y, mxsim_tstats *st)
{
    if (st == NULL || y <= x) return;
    int64_t lat = 0;
    for (int i = 0; i < MX_T_LATWIN && i < w->n; i++)
        lat += mx_t_max(0, mx_t_min(y, w->hi[i]) - mx_t_max(x, w->lo[i]));
    st->cycles_dram_latency += lat;
    st->cycles_dram_bw += y - x - lat;
}

/* Steps every tile: the definition the closed form is held to (tests/timing/test_timing_closed.c).
** No overflow checks: the tests run it on cases whose counts fit. */
static int64_t pipeline_walk(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                             const mx_ttiling *t, mxsim_tstats *st)
{
    mx_tfold cache[8];
    int have[8] = {0};
    int64_t T = t->nm * t->nn * t->nk;
    int64_t chan = 0, ld_done, ce = 0, pe_sum = 0;
    latwin lw = {{0}, {0}, 0};
    mx_ttile tl, nx;
    mx_tengine_tile(op, t, 0, &tl);
    ld_done = mx_tdram_dur(a, tl.load_bytes);
    if (tl.load_bytes > 0) latwin_add(&lw, 0, a->dram_lat);
    chan = ld_done;
    int64_t n_req = tl.load_bytes > 0;
    for (int64_t i = 0; i < T; i++) {
        int64_t cs = mx_t_max(ld_done, ce);
        stall_split(&lw, ce, cs, st);
        if (i + 1 < T) {
            mx_tengine_tile(op, t, i + 1, &nx);
            if (nx.load_bytes > 0) {
                latwin_add(&lw, mx_t_max(cs, chan), a->dram_lat);
                chan = mx_t_max(cs, chan) + mx_tdram_dur(a, nx.load_bytes);
                ld_done = chan;
                n_req++;
            } else {
                ld_done = cs;
            }
        }
        int cls = (tl.tm != t->tm) | (tl.tn != t->tn) << 1 | (tl.tk != t->tk) << 2;
        if (!have[cls]) {
            mx_tpe_tile(a, op->mx, op->g, tl.tm, tl.tn, tl.tk, &cache[cls]);
            have[cls] = 1;
        }
        const mx_tfold *f = &cache[cls];
        ce = cs + f->cycles;
        if (st) {
            st->cycles_compute += f->compute;
            st->cycles_fill_drain += f->fill_drain;
            st->cycles_exp_stall += f->exp_stall;
            st->cycles_lane_limit += f->lane;
            st->n_folds += f->n_folds;
            /* adder-tree outputs written to the group (or int32) partial-sum register, one per
            ** beat at the tile's beat width; an int8 chunk ends with a partial beat */
            st->n_acc_writes += tl.tm * tl.tn * (op->mx ? (tl.tk / op->g) * f->tg : mx_t_ceil_div(tl.tk, a->w));
            pe_sum += f->pe_used_sum;
            if (tl.load_a) {
                st->dram_a_mant_bytes += tl.tm * tl.tk;
                st->dram_a_scale_bytes += op->mx ? tl.tm * tl.tk / op->g : 0;
            }
            if (tl.load_b) {
                st->dram_b_mant_bytes += tl.tk * tl.tn;
                st->dram_b_scale_bytes += op->mx ? tl.tk * tl.tn / op->g : 0;
            }
            st->dram_out_bytes += tl.store_bytes;
            /* psum traffic: one fp32 write per reduction pass, a read for every later pass, and
            ** the store path reads the finished fp32 sums (converted after the read) */
            int64_t passes = f->kfolds, outs = tl.tm * tl.tn;
            int first = (i % t->nk) == 0;
            st->sram_c_wr_bytes += outs * 4 * passes;
            st->sram_c_rd_bytes += outs * 4 * (passes - 1 + !first) + (tl.store_elems ? outs * 4 : 0);
        }
        if (tl.store_bytes > 0) {
            /* a store re-quantizes first (MXINT8 output), then pays the latency */
            latwin_add(&lw, mx_t_max(ce, chan) + mx_trequant_cycles(cfg, op, tl.store_elems), a->dram_lat);
            chan = mx_t_max(ce, chan) + mx_tengine_store_dur(cfg, a, op, &tl);
            n_req++;
        }
        if (i + 1 < T) tl = nx;
    }
    stall_split(&lw, ce, chan, st);
    if (st) {
        st->n_dram_requests = n_req;
        st->util_mapping += (double)pe_sum; /* one conversion: the closed form's exact sum */
    }
    return mx_t_max(ce, chan);
}

/* ---- the closed form -------------------------------------------------------------------- */

/* What the pipeline needs of tile j: its array time P, its load's duration L (every tile loads:
** A or B is new in each one), its store's duration S and re-quantize time rq (st: it stores, i.e.
** it is the last k chunk of its output block). */
typedef struct {
    int64_t P, L, S, rq;
    int st;
} tdesc;

typedef struct {
    const mxsim_tconfig *cfg;
    const mx_tarch *a;
    const mx_top_resolved *op;
    const mx_ttiling *t;
    mx_tfold f[8];
    int have[8];
    int64_t sm[2], sn[2], sk[2]; /* full and last tile sizes along m, n, k */
    int64_t ob;                  /* output bytes per element */
    int64_t q;                   /* MXINT8 output: group ends in a full n tile, floor(tn / G) */
    /* descriptors met so far, by shape class (3 bits), loads (2 bits) and store scale bytes per
    ** row (q or q + 1; other counts are not kept): a closed form meets a few kinds of tile many
    ** times */
    tdesc dval[32][2];
    uint8_t dhave[32][2];
    int ovf; /* a sum passed 2^63 */
} pctx;

static const mx_tfold *fold_of(pctx *c, int64_t tm, int64_t tn, int64_t tk)
{
    int cls = (tm != c->t->tm) | (tn != c->t->tn) << 1 | (tk != c->t->tk) << 2;
    if (!c->have[cls]) {
        mx_tpe_tile(c->a, c->op->mx, c->op->g, tm, tn, tk, &c->f[cls]);
        c->have[cls] = 1;
    }
    return &c->f[cls];
}

/* Descriptor of tile (im, in, ik), as mx_tengine_tile defines it; sc >= 0 replaces the MXINT8
** output scale bytes per row of its store (an interior n tile holds floor(tn/G) or that + 1 group
** ends, by its position). */
static void desc(pctx *c, int64_t im, int64_t in, int64_t ik, int64_t sc, tdesc *d)
{
    const mx_ttiling *t = c->t;
    const mx_top_resolved *op = c->op;
    int pm = im == t->nm - 1, pn = in == t->nn - 1, pk = ik == t->nk - 1, first = im == 0 && in == 0 && ik == 0;
    int la = !(!first && t->nk == 1 && in > 0), lb = !(!first && t->nk == 1 && t->nn == 1);
    int64_t tm = c->sm[pm], tn = c->sn[pn], tk = c->sk[pk];
    if (pk && sc < 0 && op->out_fmt == MXSIM_OUT_MXINT8) {
        int64_t G = op->out_g, n0 = in * t->tn, n1 = n0 + tn;
        sc = n1 / G - n0 / G + (n1 == op->n && op->n % G != 0);
    }
    int key = pm | pn << 1 | pk << 2 | la << 3 | lb << 4;
    int sv = !pk || op->out_fmt != MXSIM_OUT_MXINT8 ? 0 : sc == c->q ? 0 : sc == c->q + 1 ? 1 : -1;
    if (sv >= 0 && c->dhave[key][sv]) {
        *d = c->dval[key][sv];
        return;
    }
    int64_t mxs = op->mx ? 1 : 0, load = 0;
    if (la) load += tm * tk + mxs * (tm * tk / op->g);
    if (lb) load += tk * tn + mxs * (tk * tn / op->g);
    mx_ttile tl = {tm, tn, tk, load, 0, pk ? tm * tn : 0, la, lb};
    tl.store_bytes = tl.store_elems * c->ob + (pk && op->out_fmt == MXSIM_OUT_MXINT8 ? tm * sc : 0);
    d->P = fold_of(c, tm, tn, tk)->cycles;
    d->L = mx_tdram_dur(c->a, load);
    d->st = tl.store_bytes > 0;
    d->S = mx_tengine_store_dur(c->cfg, c->a, op, &tl);
    d->rq = mx_trequant_cycles(c->cfg, op, tl.store_elems);
    if (sv >= 0) {
        c->dval[key][sv] = *d;
        c->dhave[key][sv] = 1;
    }
}

/* The tile before (*im, *in, *ik) in the order m, n, k (inner); 0 if it is the first. */
static int prev_tile(const mx_ttiling *t, int64_t *im, int64_t *in, int64_t *ik)
{
    if (*ik > 0) return --*ik, 1;
    *ik = t->nk - 1;
    if (*in > 0) return --*in, 1;
    *in = t->nn - 1;
    if (*im > 0) return --*im, 1;
    return 0;
}

static int64_t overlap(int64_t x, int64_t y, int64_t lo, int64_t hi) { return mx_t_max(0, mx_t_min(y, hi) - mx_t_max(x, lo)); }

/* Wait of the array before tile j (descriptor d0), from the two tiles before it (d1, d2; NULL
** before the first).  With cs the start of tile j-1: tile j's load is issued at cs + x, where x is
** the store of tile j-2 still ahead of it in the channel (the store was issued at cs, when tile
** j-2 had finished and tile j-1's operands were in), and the array is free at cs + P(j-1), so the
** wait is [P, x + L) relative to cs.  Its latency part: tile j's load latency [x, x + lat) and
** tile j-2's store latency [rq, rq + lat); older requests ended before cs. */
typedef struct {
    int64_t stall, lat;
} swait;

static swait wait_before(const pctx *c, const tdesc *d2, const tdesc *d1, const tdesc *d0)
{
    int s2 = d2 != NULL && d2->st;
    int64_t x = s2 ? d2->S : 0, P = d1 ? d1->P : 0, y = x + d0->L, lat = c->a->dram_lat;
    swait w = {0, 0};
    if (y <= P) return w;
    w.stall = y - P;
    w.lat = overlap(P, y, x, x + lat) + (s2 ? overlap(P, y, d2->rq, d2->rq + lat) : 0);
    return w;
}

/* w += k * v, checked */
static void wadd(pctx *c, swait *w, swait v, int64_t k)
{
    int64_t p, q;
    if (__builtin_mul_overflow(v.stall, k, &p) || __builtin_add_overflow(w->stall, p, &w->stall) ||
        __builtin_mul_overflow(v.lat, k, &q) || __builtin_add_overflow(w->lat, q, &w->lat))
        c->ovf = 1;
}

/* Waits before the tiles of output block (im, in): its first two tiles depend on the blocks
** before it (the store of the previous block is ahead of their loads), the others only on the
** block itself: chunks 2 .. nk-2 are identical (x = 0, a full chunk's P and L), chunk nk-1 loads
** the k edge.  sc: as in desc(), for every tile involved. */
static swait block_waits(pctx *c, int64_t im, int64_t in, int64_t sc)
{
    const mx_ttiling *t = c->t;
    int64_t nk = t->nk, j0 = (im * t->nn + in) * nk;
    tdesc d[4]; /* tiles j0-2 .. j0+1 */
    int64_t pm = im, pn = in, pk = 0;
    for (int i = 1; i >= 0 && prev_tile(t, &pm, &pn, &pk); i--) desc(c, pm, pn, pk, sc, &d[i]);
    desc(c, im, in, 0, sc, &d[2]);
    if (nk >= 2) desc(c, im, in, 1, sc, &d[3]);
    swait w = {0, 0};
    wadd(c, &w, wait_before(c, j0 >= 2 ? &d[0] : NULL, j0 >= 1 ? &d[1] : NULL, &d[2]), 1);
    if (nk >= 2) wadd(c, &w, wait_before(c, j0 >= 1 ? &d[1] : NULL, &d[2], &d[3]), 1);
    if (nk >= 3) {
        tdesc dl;
        desc(c, im, in, nk - 1, sc, &dl);
        wadd(c, &w, wait_before(c, &d[3], &d[3], &d[3]), nk - 3);
        wadd(c, &w, wait_before(c, &d[3], &d[3], &dl), 1);
    }
    return w;
}

/* Group ends in MXINT8 output columns [n0, n1) (n1 < n: no short last group): floor(tn/G) or one
** more.  Over n tiles lo..hi (inclusive, interior) the count of the larger is the telescoped
** sum minus the tiles times floor(tn/G). */
static int64_t hi_tiles(const mx_ttiling *t, int64_t G, int64_t lo, int64_t hi)
{
    return ((hi + 1) * t->tn / G - lo * t->tn / G) - (hi - lo + 1) * (t->tn / G);
}

/* Waits of a row of blocks im: the first blocks (0, or 0 .. 2 with one k chunk) and block nn-1 on
** their own; the blocks between depend on their row only through the scale bytes of the store
** before their loads (block in-1's, or in-2's with one k chunk), two values counted in closed form
** (hi_tiles). */
static swait row_waits(pctx *c, int64_t im)
{
    const mx_ttiling *t = c->t;
    int64_t nn = t->nn;
    swait w = {0, 0};
    /* blocks lo .. nn-2 are the interior class; with K split every tile loads A and B, so block 0
    ** is like the others (lo = 1), while with one chunk it alone loads A and the two blocks after
    ** it look back at it (lo = 3) */
    int64_t lo = t->nk >= 2 ? 1 : 3;
    for (int64_t in = 0; in < nn && in < lo; in++) wadd(c, &w, block_waits(c, im, in, -1), 1);
    if (nn - 1 >= lo) wadd(c, &w, block_waits(c, im, nn - 1, -1), 1);
    int64_t cnt = nn - 1 - lo; /* blocks lo .. nn-2 */
    if (cnt > 0) {
        if (c->op->out_fmt == MXSIM_OUT_MXINT8) {
            int64_t G = c->op->out_g, q = t->tn / G, dd = t->nk == 1 ? 2 : 1;
            int64_t nh = hi_tiles(t, G, lo - dd, nn - 2 - dd);
            if (nh > 0) wadd(c, &w, block_waits(c, im, lo, q + 1), nh);
            if (cnt - nh > 0) wadd(c, &w, block_waits(c, im, lo, q), cnt - nh);
        } else {
            wadd(c, &w, block_waits(c, im, lo, -1), cnt);
        }
    }
    return w;
}

/* x += a * b, checked: 0 on overflow */
static int madd(int64_t *x, int64_t a, int64_t b)
{
    int64_t p;
    return !__builtin_mul_overflow(a, b, &p) && !__builtin_add_overflow(*x, p, x);
}

#define MADD_(field, a, b)                              \
    do {                                                \
        if (!madd(&st->field, (a), (b))) {              \
            *ovf = #field;                              \
            return -1;                                  \
        }                                               \
    } while (0)

/* The pipeline in closed form.  Each tile's wait depends only on the tile and the two before it
** (wait_before), so the total is
**   cycles_total = sum_j P(j) + sum_j wait(j) + tail,
** the array times summed over the (at most 8) tile shape classes times their counts, the waits
** summed over blocks (block_waits) and rows (row_waits): the first and last rows on their own,
** the rows between in a few classes of identical rows (full m, preceded by full rows).  tail: the
** last store after the last tile.
** O(1) in the tile count; every sum checked (-1 with *ovf naming the count past 2^63). */
static int64_t pipeline_closed(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                               const mx_ttiling *t, mxsim_tstats *st, const char **ovf)
{
    pctx c;
    /* only the validity flags are cleared: the tables are ~3 KB, most of it never touched */
    memset(c.have, 0, sizeof c.have);
    memset(c.dhave, 0, sizeof c.dhave);
    c.ovf = 0;
    c.cfg = cfg, c.a = a, c.op = op, c.t = t;
    const int64_t nm = t->nm, nn = t->nn, nk = t->nk, T = nm * nn * nk;
    int64_t *sm = c.sm, *sn = c.sn, *sk = c.sk, cm[2] = {nm - 1, 1}, cn[2] = {nn - 1, 1}, ck[2] = {nk - 1, 1};
    sm[0] = t->tm, sm[1] = op->m - (nm - 1) * t->tm;
    sn[0] = t->tn, sn[1] = op->n - (nn - 1) * t->tn;
    sk[0] = t->tk, sk[1] = op->k - (nk - 1) * t->tk;
    c.ob = op->out_fmt == MXSIM_OUT_FP32 ? 4 : op->out_fmt == MXSIM_OUT_BF16 ? 2 : 1;
    c.q = op->out_fmt == MXSIM_OUT_MXINT8 ? t->tn / op->out_g : 0;
    /* array time and the per-tile counts, by shape class */
    int64_t arr = 0;
    mxsim_tstats z;
    if (st == NULL) { /* cycles only: the per-tile counts go to a scratch */
        memset(&z, 0, sizeof z);
        st = &z;
    }
    int64_t pe_sum = 0;
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int64_t blocks = cm[i] * cn[j], outs = sm[i] * sn[j];
            if (blocks == 0) continue;
            for (int l = 0; l < 2; l++) {
                int64_t cnt = blocks * ck[l], tm = sm[i], tn = sn[j], tk = sk[l];
                if (cnt == 0) continue;
                const mx_tfold *f = fold_of(&c, tm, tn, tk);
                if (!madd(&arr, cnt, f->cycles)) {
                    *ovf = "cycles_total";
                    return -1;
                }
                if (st == &z) continue;
                MADD_(cycles_compute, cnt, f->compute);
                MADD_(cycles_fill_drain, cnt, f->fill_drain);
                MADD_(cycles_exp_stall, cnt, f->exp_stall);
                MADD_(cycles_lane_limit, cnt, f->lane);
                MADD_(n_folds, cnt, f->n_folds);
                MADD_(n_acc_writes, cnt, outs * (op->mx ? (tk / op->g) * f->tg : mx_t_ceil_div(tk, a->w)));
                if (!madd(&pe_sum, cnt, f->pe_used_sum)) {
                    *ovf = "util_mapping";
                    return -1;
                }
                /* psums: a write per pass, a read per later pass, one more per chunk after the
                ** first of its block, and the store's read of the last chunk */
                int64_t later = l == 0 ? blocks * (nk >= 2 ? nk - 2 : 0) : (nk >= 2 ? blocks : 0);
                MADD_(sram_c_wr_bytes, cnt, outs * 4 * f->kfolds);
                MADD_(sram_c_rd_bytes, cnt, outs * 4 * (f->kfolds - 1));
                MADD_(sram_c_rd_bytes, later, outs * 4);
                if (l == 1) MADD_(sram_c_rd_bytes, cnt, outs * 4);
                /* operand loads: every tile loads A and B when K is split; with one chunk A
                ** comes with the first n tile of each row, B with every tile (once if nn = 1) */
                int64_t na = nk > 1 ? cnt : (j == (nn == 1 ? 1 : 0) ? cm[i] : 0);
                int64_t nb = nk > 1 || nn > 1 ? cnt : (i == (nm == 1 ? 1 : 0) && j == 1 ? 1 : 0);
                MADD_(dram_a_mant_bytes, na, tm * tk);
                MADD_(dram_b_mant_bytes, nb, tk * tn);
                if (op->mx) {
                    MADD_(dram_a_scale_bytes, na, tm * tk / op->g);
                    MADD_(dram_b_scale_bytes, nb, tk * tn / op->g);
                }
            }
        }
    if (st != &z) {
        /* stores: every output element once; an MXINT8 output adds a scale per G columns of each
        ** row (the short last group included): m * ceil(n / G) */
        MADD_(dram_out_bytes, op->m * op->n, c.ob);
        if (op->out_fmt == MXSIM_OUT_MXINT8) MADD_(dram_out_bytes, op->m, mx_t_ceil_div(op->n, op->out_g));
        MADD_(n_dram_requests, 1, T);
        MADD_(n_dram_requests, nm, nn);
    }
    /* waits: rows 0, 1, 2, nm-1 and (nm-4) times row 3 */
    swait w = {0, 0};
    if (nn >= 3 && nm >= 4) {
        /* rows 1 .. nm-2 are alike: each follows a full row whose last two blocks are not the
        ** first tile's, and a wait looks back at most two blocks */
        wadd(&c, &w, row_waits(&c, 0), 1);
        wadd(&c, &w, row_waits(&c, 1), nm - 2);
        wadd(&c, &w, row_waits(&c, nm - 1), 1);
    } else {
        swait r2 = {0, 0};
        for (int64_t im = 0; im < nm && im <= 2; im++) {
            swait r = row_waits(&c, im);
            wadd(&c, &w, r, 1);
            if (im == 2) r2 = r;
        }
        if (nm - 1 > 2) wadd(&c, &w, row_waits(&c, nm - 1), 1);
        /* row 3 is row 2 when a row holds two blocks or more: both follow a full row that is not
        ** the first, and a wait looks back at most two blocks */
        if (nm - 4 > 0) wadd(&c, &w, nn >= 2 ? r2 : row_waits(&c, 3), nm - 4);
    }
    /* tail: the last tile's store is issued at max(its end, the end of tile T-2's store) */
    tdesc d1, d2;
    int64_t lm = nm - 1, ln = nn - 1, lk = nk - 1;
    desc(&c, lm, ln, lk, -1, &d1);
    if (T >= 2 && prev_tile(t, &lm, &ln, &lk)) desc(&c, lm, ln, lk, -1, &d2);
    int s2 = T >= 2 && d2.st;
    int64_t x = s2 ? d2.S : 0, s0 = mx_t_max(d1.P, x), y = s0 + d1.S, lat = a->dram_lat;
    swait tail = {y - d1.P, overlap(d1.P, y, s0 + d1.rq, s0 + d1.rq + lat) +
                                (s2 ? overlap(d1.P, y, d2.rq, d2.rq + lat) : 0)};
    wadd(&c, &w, tail, 1);
    int64_t tot = arr;
    if (c.ovf || __builtin_add_overflow(tot, w.stall, &tot)) {
        *ovf = "cycles_total";
        return -1;
    }
    if (st != &z) {
        MADD_(cycles_dram_latency, 1, w.lat);
        MADD_(cycles_dram_bw, 1, w.stall - w.lat);
        st->util_mapping += (double)pe_sum;
    }
    return tot;
}

const char *mx_tpipe_unit_op(const mx_tarch *a, int64_t lanes, int64_t depth, int64_t elems, int64_t in_b,
                             int64_t out_b, mxsim_tstats *st)
{
    st->cycles_compute = mx_t_ceil_div(elems, lanes);
    st->cycles_fill_drain = depth;
    /* a whole tensor in one request: at a low bandwidth its duration can pass 2^63 */
    int64_t mem = mx_t_sat_add(mx_tdram_dur(a, in_b), mx_tdram_dur(a, out_b));
    if (mem == INT64_MAX) return "cycles_total";
    /* The elements stream through the unit as the load delivers them and leave as the store takes
    ** them: the load's latency passes before the first element is converted and the store's after
    ** the last, whichever of the unit and the transfers is slower in between (as a GEMM exposes
    ** its first load and its last store).  Total = 2 lat + max(compute + depth, transfers). */
    const int64_t lat2 = (in_b > 0) * a->dram_lat + (out_b > 0) * a->dram_lat, xfer = mem - lat2;
    st->cycles_total = mx_t_sat_add(lat2, mx_t_max(st->cycles_compute + depth, xfer));
    if (st->cycles_total == INT64_MAX) return "cycles_total";
    st->cycles_mem_stall = st->cycles_total - st->cycles_compute - depth;
    /* the stall a latency-free DRAM would leave is bandwidth; the rest is latency */
    st->cycles_dram_bw = mx_t_max(0, xfer - st->cycles_compute - depth);
    st->cycles_dram_latency = st->cycles_mem_stall - st->cycles_dram_bw;
    st->dram_out_bytes = out_b;
    st->sram_c_wr_bytes = out_b;
    st->sram_c_rd_bytes = out_b;
    st->n_dram_requests = 2;
    st->n_tiles = 1;
    return NULL;
}

int64_t mx_tpipe_run(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op, const mx_ttiling *t,
                     mxsim_tstats *st, const char **ovf)
{
    return pipeline_closed(cfg, a, op, t, st, ovf);
}

int64_t mx_tengine_pipeline(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                            const mx_ttiling *t, mxsim_tstats *st, int walk)
{
    const char *ovf = NULL;
    return walk ? pipeline_walk(cfg, a, op, t, st) : pipeline_closed(cfg, a, op, t, st, &ovf);
}

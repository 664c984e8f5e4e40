/* detail.c - detailed mode: a cycle-by-cycle simulation of one GEMM on the machine of
** sim/doc/architecture.md, written apart from the closed forms of pe_array.c and pipeline.c so that
** each engine checks the other (tests/timing/test_timing_detail.c holds them equal).
**
** Stepped every cycle, in this order at each cycle boundary, then for the cycle itself:
**   - the PE array, fold after fold.  Edge feeders apply the systolic skew (row i of A, column j
**     of B enter i or j cycles late); tokens then move one PE per cycle (OS: A right, B down;
**     WS/IS: an R-cycle preload shifts the stationary operand down, then streamed rows move
**     right and partial sums down).  Tokens cross the whole array, mapped or not (partial folds
**     cost as much as full ones, as in SCALE-Sim); only PEs of the mapped region read operands,
**     multiply, and issue exponent operations.  A beat that ends a group queues an operation at
**     its exponent unit (per PE, row or column), which issues at most one operation every II
**     cycles, in arrival order, from the cycle of the group's last beat on; a result is ready
**     `latency` cycles after issue.  An output is written to the C SRAM once its last partial sum
**     has left the array and its last exponent operation is done.
**   - the array controller: releases steps (OS: the beats of a group on consecutive cycles;
**     WS/IS: one streamed row) at a fixed step interval, found before each fold by counting one
**     step's operations per unit: II times the largest count (at least the beat base), so the
**     units, which queue operations and issue whenever one waits, keep up step after step.
**   - the tile controller: starts the next tile when the array is idle and the tile's operands
**     are resident; at that moment it issues the load of the tile after it into the SRAM halves
**     it does not use, skipping an operand whose block (A: m,k; B: k,n) is the one in use; when
**     the last reduction chunk of an output tile ends it issues the store.
**   - the DMA channel: one request at a time, in issue order, each going through its phases one
**     cycle at a time: re-quantizer intake (requant.lanes elements/cycle) and depth for MXINT8
**     outputs, DRAM latency, then the transfer, which earns bw * 1024 credits per cycle and moves
**     a byte per 1024 credits.
** Cycle classes are observed, not derived: array idle = memory stall; a release cycle = compute;
** preload and the skew after the last release = fill/drain; the rest (waiting for exponent
** units between steps or after the array has drained) = exponent stall.
** Every SRAM access is counted and, with a path, written to a gzip access trace in cycle order.
** Not stepped: dequant/quantize ops (timed by the analytic engine in both modes), SRAM ports.
*/
#include <stdlib.h>
#include <string.h>

#include "tinternal.h"

#define MX_BT_MAX ((int64_t)1 << 16)

enum { PH_RQ, PH_DEPTH, PH_LAT, PH_XFER };

/* A DMA request: a tile load (segments into the A and B SRAMs) or an output store. */
typedef struct {
    int store;
    int64_t tile;
    int64_t bytes, moved, credit;
    int nseg;
    int seg_kind[4]; /* 0 A mantissas, 1 A scales, 2 B mantissas, 3 B scales */
    int64_t seg_addr[4], seg_len[4];
    int64_t elems, elems_read, ebytes, c_addr; /* store: output elements, read from C SRAM */
    int phase;
    int64_t rq_left, depth_left, lat_left;
} dreq;

typedef struct {
    int64_t cyc, addr;
} pwrite;

typedef struct {
    mxsim_ctx *ctx;
    const mxsim_tconfig *cfg;
    const mx_tarch *a;
    const mx_top_resolved *op;
    const mx_ttiling *t;
    const char *where;
    mxsim_tstats *st;
    mx_tacc *acc;
    int64_t R, C, w, pe_cyc, c;
    /* the tile on the array */
    int busy;
    int64_t tile, im, in, ik, tm, tn, tk;
    int64_t a_base, b_base, c_base; /* SRAM byte addresses of the tile's blocks */
    int64_t g, tg, nb, n_grp;       /* group, beats per group, beats and groups of the chunk */
    /* fold loop and the fold in progress */
    int64_t fi, fj, nfi, nfj;
    int stream;                     /* 0 OS; 1 WS/IS */
    int64_t tg_l;                   /* beats per group (int8: of the chunk) at the full L lanes */
    struct bcache *bc;              /* beat_info of the beats in flight (direct-mapped, per tile) */
    int64_t bc_n;
    /* per-beat counts of the tile's chunk, index b + 1 (0: no token), when the chunk has at most
    ** MX_BT_MAX beats: the PE loop then adds without a branch per PE */
    /* per beat, packed (index b + 1; 0: no token): elements issued (bits 0-22), useful elements
    ** (23-45), 1 (46-58), and bit 63 when the beat ends a group or is the chunk's last.  A row of
    ** at most 4096 PEs of at most 1024 lanes sums to < 2^22 per field, so a row's values add as
    ** one integer (bit 63 wraps away) and the OR of the row says whether a beat is special. */
    uint64_t *bt_pk;
    int64_t bt_cap;
    int bt_on;
    int lane_fold;                  /* stream fold that L-wide beats would not need: lane limit */
    int64_t mr, mc, row0, col0;     /* OS: mapped rows/cols, first output row/col in the tile */
    int64_t fr, nbf, n_steps;       /* stream: first beat, beats in fold; steps (beats or rows) */
    int64_t I, n_rel, next_rel, step_start;
    int first_pass;
    int64_t c0, max_done, n_outs, ops_per_out;
    /* array state */
    int32_t *ra, *rb, *rw;  /* token registers: OS A/B; stream streamed/psum/stationary */
    int32_t *ring;          /* recent releases, for the skewed feeders */
    int64_t ring_n;
    mx_texp_unit *u;        /* the exponent units (exp_unit.c), stepped in fold cycles */
    int64_t n_u, n_queued;
    int64_t *prof;          /* scratch for the interval profile: unit << 32 | offset */
    int32_t *rem;           /* per output: exponent ops still to issue */
    int64_t *exitc, *mdone; /* per output: cycle it left the array (-1), last op end */
    int64_t outs_cap;
    pwrite *pw;             /* C writes due in a later cycle (trace order only) */
    int64_t pw_n, pw_cap;
    /* memory system */
    dreq q[4];
    int64_t qh, qn;
    dreq cur;
    int chan_busy;
    int64_t next_tile;   /* next tile to start */
    int next_loaded;     /* its operands are resident */
    int64_t a_half[2], b_half[2]; /* SRAM half of the current [0] and next [1] tile's blocks */
} dsim;

static const char *const k_seg_name[4] = {"A", "As", "B", "Bs"};

/* ---- beats and addresses ------------------------------------------------------------------- */

/* Beat b of the tile's reduction chunk: first element, element count, group, group end. */
static void beat_info(const dsim *d, int64_t b, int64_t *k0, int64_t *elems, int64_t *grp, int *gend)
{
    mx_tload_beat(d->op->mx ? d->g : d->tk, d->w, d->tg, d->op->mx, b, k0, elems, grp, gend);
}

/* beat_info of beat b, memoised: the beats in flight in the array span fewer than R + C
** consecutive indices, so a direct-mapped table of at least R + C entries holds all of them (a
** speed-up only: each entry is beat_info's own result). */
struct bcache {
    int64_t b, k0, el, grp, useful; /* useful: MACs of the beat within the trace's K (count_macs) */
    int gend;
};

static const struct bcache *beat_cached(dsim *d, int64_t b)
{
    struct bcache *e = &d->bc[b & (d->bc_n - 1)];
    if (e->b != b) {
        beat_info(d, b, &e->k0, &e->el, &e->grp, &e->gend);
        e->useful = mx_t_max(0, mx_t_min(e->el, d->op->k_useful - (d->ik * d->t->tk + e->k0)));
        e->b = b;
    }
    return e;
}

/* Operand `opnd` (0 A, 1 B): address of row `line` (A: m index; B: n index) at element k0. */
static int64_t mant_addr(const dsim *d, int opnd, int64_t line, int64_t k0)
{
    return (opnd == 0 ? d->a_base : d->b_base) + line * d->tk + k0;
}

static int64_t scale_addr(const dsim *d, int opnd, int64_t line, int64_t grp)
{
    int64_t lines = opnd == 0 ? d->tm : d->tn;
    return (opnd == 0 ? d->a_base : d->b_base) + lines * d->tk + line * d->n_grp + grp;
}

/* C SRAM address of output index `out` of the fold (fp32 block [tm][tn] of the tile). */
static int64_t out_addr(const dsim *d, int64_t out)
{
    int64_t r, c;
    if (!d->stream) {
        r = d->row0 + out / d->mc;
        c = d->col0 + out % d->mc;
    } else if (d->a->df == MXSIM_DF_WS) {
        r = out / d->mc;
        c = d->col0 + out % d->mc;
    } else {
        r = d->col0 + out % d->mc;
        c = out / d->mc;
    }
    return d->c_base + 4 * (r * d->tn + c);
}

static void rec(dsim *d, const char *opnd, char rw, int64_t addr, int64_t bytes)
{
    if (d->acc) mx_tacc_rec(d->acc, d->c, opnd, rw, addr, bytes);
}

/* A feeder reads one beat (and, with the group's last beat, its scale byte) of operand opnd. */
static void read_beat(dsim *d, int opnd, int64_t line, int64_t b)
{
    int64_t k0, el, grp;
    int gend;
    beat_info(d, b, &k0, &el, &grp, &gend);
    if (opnd == 0) d->st->sram_a_rd_mant_bytes += el;
    else d->st->sram_b_rd_mant_bytes += el;
    rec(d, opnd == 0 ? "A" : "B", 'r', mant_addr(d, opnd, line, k0), el);
    if (gend) {
        if (opnd == 0) d->st->sram_a_rd_scale_bytes += 1;
        else d->st->sram_b_rd_scale_bytes += 1;
        rec(d, opnd == 0 ? "As" : "Bs", 'r', scale_addr(d, opnd, line, grp), 1);
    }
}

/* A mapped PE multiplies a beat of el elements from k0 of the chunk: all are issued; those
** below the trace's K are useful, the rest are the zero padding of the last group. */
static void count_macs(dsim *d, int64_t k0, int64_t el)
{
    int64_t kg = d->ik * d->t->tk + k0;
    d->st->n_macs_issued += el;
    d->st->n_macs += mx_t_max(0, mx_t_min(el, d->op->k_useful - kg));
}

/* ---- outputs and exponent units ------------------------------------------------------------ */

static mxsim_status write_out(dsim *d, int64_t out, int64_t fcyc)
{
    d->st->sram_c_wr_bytes += 4;
    if (fcyc > d->max_done) d->max_done = fcyc;
    if (d->acc == NULL) return MXSIM_OK;
    if (fcyc == d->c - d->c0) {
        rec(d, "C", 'w', out_addr(d, out), 4);
        return MXSIM_OK;
    }
    if (d->pw_n == d->pw_cap) {
        int64_t nc = d->pw_cap ? d->pw_cap * 2 : 256;
        pwrite *p = realloc(d->pw, (size_t)nc * sizeof *p);
        if (p == NULL) return mx_fail(d->ctx, MXSIM_E_NOMEM, "%s: detailed mode: out of memory", d->where);
        d->pw = p;
        d->pw_cap = nc;
    }
    d->pw[d->pw_n++] = (pwrite){fcyc, out_addr(d, out)};
    return MXSIM_OK;
}

static void flush_writes(dsim *d, int64_t fcyc)
{
    int64_t k = 0;
    for (int64_t i = 0; i < d->pw_n; i++) {
        if (d->pw[i].cyc == fcyc) rec(d, "C", 'w', d->pw[i].addr, 4);
        else d->pw[k++] = d->pw[i];
    }
    d->pw_n = k;
}

/* The output left the array (its last beat, or the bottom row) in fold cycle fcyc. */
static mxsim_status out_exit(dsim *d, int64_t out, int64_t fcyc)
{
    d->exitc[out] = fcyc;
    if (d->rem[out] == 0) return write_out(d, out, mx_t_max(fcyc, d->mdone[out]));
    return MXSIM_OK;
}

static int64_t unit_of(const dsim *d, int64_t i, int64_t j) { return mx_texp_unit_of(d->a, i, j); }

static mxsim_status unit_push(dsim *d, int64_t uid, int64_t ready, int64_t out, int64_t step)
{
    if (mx_texp_push(&d->u[uid], (mx_texp_op){ready, out, step}) != 0)
        return mx_fail(d->ctx, MXSIM_E_NOMEM, "%s: detailed mode: out of memory", d->where);
    d->n_queued++;
    d->st->n_exp_ops++;
    return MXSIM_OK;
}

/* Each unit issues its oldest ready operation if its initiation interval allows. */
static mxsim_status units_issue(dsim *d, int64_t fcyc)
{
    if (d->n_queued == 0) return MXSIM_OK;
    for (int64_t uid = 0; uid < d->n_u; uid++) {
        mx_texp_op o;
        if (!mx_texp_issue(d->a, &d->u[uid], fcyc, &o)) continue;
        d->n_queued--;
        int64_t done = fcyc + d->a->lat;
        if (done > d->mdone[o.out]) d->mdone[o.out] = done;
        if (--d->rem[o.out] == 0 && d->exitc[o.out] >= 0) {
            mxsim_status s = write_out(d, o.out, mx_t_max(d->exitc[o.out], d->mdone[o.out]));
            if (s != MXSIM_OK) return s;
        }
    }
    return MXSIM_OK;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* Step interval of the fold: the controller releases steps at the throughput of the busiest
** unit, so no unit's queue grows from step to step: max(base, II x the most operations one unit
** receives in one step).  d->prof holds one step's operations as unit << 32 | cycle offset. */
static int64_t profile_interval(dsim *d, int64_t n, int64_t base)
{
    qsort(d->prof, (size_t)n, sizeof d->prof[0], cmp_i64);
    int64_t I = base;
    for (int64_t i = 0; i < n;) {
        int64_t uid = d->prof[i] >> 32, cnt = 0;
        for (; i < n && d->prof[i] >> 32 == uid; i++) cnt++;
        I = mx_texp_step_interval(d->a, I, cnt);
    }
    return I;
}

/* ---- folds --------------------------------------------------------------------------------- */

static mxsim_status fold_start(dsim *d)
{
    const int64_t R = d->R, C = d->C;
    d->c0 = d->c;
    d->n_rel = 0;
    d->next_rel = 0;
    d->step_start = 0;
    d->max_done = -1;
    memset(d->ra, 0xff, (size_t)(R * C) * sizeof *d->ra);
    memset(d->rb, 0xff, (size_t)(R * C) * sizeof *d->rb);
    memset(d->rw, 0xff, (size_t)(R * C) * sizeof *d->rw);
    memset(d->ring, 0xff, (size_t)d->ring_n * sizeof *d->ring);
    for (int64_t i = 0; i < d->n_u; i++) {
        d->u[i].n = d->u[i].head = 0;
        d->u[i].next_ok = 0;
    }
    d->n_queued = 0;
    int64_t n_prof = 0, lb_pe_cyc;
    if (!d->stream) {
        d->mr = mx_t_min(R, d->tm - d->fi * R);
        d->mc = mx_t_min(C, d->tn - d->fj * C);
        d->row0 = d->fi * R;
        d->col0 = d->fj * C;
        d->lane_fold = 0;
        d->n_steps = d->nb;
        d->n_outs = d->mr * d->mc;
        d->ops_per_out = d->op->mx ? d->n_grp : 0;
        lb_pe_cyc = R * C * d->nb;
        /* one group: PE (i,j) ends it tg-1+i+j cycles after the group's first release */
        if (d->op->mx)
            for (int64_t i = 0; i < d->mr; i++)
                for (int64_t j = 0; j < d->mc; j++)
                    d->prof[n_prof++] = unit_of(d, i, j) << 32 | (d->tg - 1 + i + j);
        d->I = profile_interval(d, n_prof, d->tg);
    } else {
        int64_t cols = d->a->df == MXSIM_DF_WS ? d->tn : d->tm;
        d->mc = mx_t_min(C, cols - d->fj * C);
        d->col0 = d->fj * C;
        d->fr = d->fi * R;
        d->nbf = mx_t_min(R, d->nb - d->fr);
        d->lane_fold = d->fr >= (d->op->mx ? d->n_grp : 1) * d->tg_l;
        d->n_steps = d->a->df == MXSIM_DF_WS ? d->tm : d->tn;
        d->n_outs = d->n_steps * d->mc;
        d->first_pass = d->ik == 0 && d->fi == 0;
        lb_pe_cyc = R * C * (R + d->n_steps);
        d->ops_per_out = 0;
        for (int64_t r = 0; r < d->nbf; r++) {
            int64_t k0, el, grp;
            int gend;
            beat_info(d, d->fr + r, &k0, &el, &grp, &gend);
            if (!gend) continue;
            d->ops_per_out++;
            /* one streamed row: PE (r,j) sees it r+j cycles after its release */
            for (int64_t j = 0; j < d->mc; j++) d->prof[n_prof++] = unit_of(d, r, j) << 32 | (r + j);
        }
        d->I = profile_interval(d, n_prof, 1);
    }
    if (d->pe_cyc + lb_pe_cyc > MX_TDETAIL_MAX_PE_CYC)
        return mx_fail(d->ctx, MXSIM_E_LIMIT,
                       "%s: detailed mode steps at most 2^26 PE-cycles (R*C*array cycles) per op; "
                       "this op needs more: use the analytic engine (detail off)", d->where);
    if (d->n_outs > d->outs_cap) {
        free(d->rem);
        free(d->exitc);
        free(d->mdone);
        d->rem = mx_malloc((size_t)d->n_outs, sizeof *d->rem);
        d->exitc = mx_malloc((size_t)d->n_outs, sizeof *d->exitc);
        d->mdone = mx_malloc((size_t)d->n_outs, sizeof *d->mdone);
        d->outs_cap = d->n_outs;
        if (!d->rem || !d->exitc || !d->mdone) {
            d->outs_cap = 0;
            return mx_fail(d->ctx, MXSIM_E_NOMEM, "%s: detailed mode: out of memory", d->where);
        }
    }
    for (int64_t o = 0; o < d->n_outs; o++) {
        d->rem[o] = (int32_t)d->ops_per_out;
        d->exitc[o] = -1;
        d->mdone[o] = -1;
    }
    d->st->n_folds++;
    d->st->util_mapping += (double)(d->stream ? d->nbf * d->mc : d->mr * d->mc);
    /* OS accumulators start from the C SRAM after the first reduction chunk */
    if (!d->stream && d->ik > 0)
        for (int64_t o = 0; o < d->n_outs; o++) {
            d->st->sram_c_rd_bytes += 4;
            rec(d, "C", 'r', out_addr(d, o), 4);
        }
    return MXSIM_OK;
}

static int any_token(const int32_t *r, int64_t n)
{
    for (int64_t i = 0; i < n; i++)
        if (r[i] >= 0) return 1;
    return 0;
}

/* Shifts `reg` (R x C) one PE right (dir 0) or down (dir 1); the edge takes the release made
** `skew` cycles ago, the skew being the row (dir 0) or column (dir 1) index. */
static void shift(dsim *d, int32_t *reg, int dir, int64_t fcyc)
{
    const int64_t R = d->R, C = d->C;
    if (dir == 0) {
        for (int64_t i = 0; i < R; i++) {
            memmove(reg + i * C + 1, reg + i * C, (size_t)(C - 1) * sizeof *reg);
            reg[i * C] = fcyc - i >= 0 ? d->ring[(fcyc - i) % d->ring_n] : -1;
        }
    } else {
        memmove(reg + C, reg, (size_t)((R - 1) * C) * sizeof *reg);
        for (int64_t j = 0; j < C; j++) reg[j] = fcyc - j >= 0 ? d->ring[(fcyc - j) % d->ring_n] : -1;
    }
}

/* Bound attribution of one array cycle (architecture.md section 10); rel: the beat (OS) or row
** released in it, -1 if none.  OS: a beat of a group past the first tg_l is lane limit; WS/IS: every
** cycle of a fold past the beats L lanes would need is. */
static void classify(dsim *d, int32_t rel, int live)
{
    int64_t *c;
    if (d->lane_fold) c = &d->st->cycles_lane_limit;
    else if (rel >= 0) c = !d->stream && rel % d->tg >= d->tg_l ? &d->st->cycles_lane_limit : &d->st->cycles_compute;
    else if (d->n_rel < d->n_steps) c = &d->st->cycles_exp_stall;  /* controller waits on a unit */
    else if (live) c = &d->st->cycles_fill_drain;
    else c = &d->st->cycles_exp_stall;                            /* array drained, units not */
    (*c)++;
}

/* One cycle of an OS fold; *ended = 1 (and nothing done) if the fold ended at this boundary. */
static mxsim_status os_cycle(dsim *d, int64_t fcyc, int *ended)
{
    const int64_t R = d->R, C = d->C;
    int32_t rel = -1;
    if (d->n_rel < d->n_steps && fcyc >= d->next_rel) {
        int64_t k0, el, grp;
        int gend;
        rel = (int32_t)d->n_rel;
        beat_info(d, rel, &k0, &el, &grp, &gend);
        if (rel % d->tg == 0) d->step_start = fcyc;
        d->n_rel++;
        /* a group's beats go on consecutive cycles; the next group waits for the interval */
        d->next_rel = (d->op->mx && gend) ? mx_t_max(fcyc + 1, d->step_start + d->I) : fcyc + 1;
    }
    d->ring[fcyc % d->ring_n] = rel;
    shift(d, d->ra, 0, fcyc);
    shift(d, d->rb, 1, fcyc);
    int live = any_token(d->ra, R * C);
    if (!live && d->n_rel == d->n_steps && d->n_queued == 0 && fcyc > d->max_done) {
        *ended = 1;
        return MXSIM_OK;
    }
    *ended = 0;
    flush_writes(d, fcyc);
    classify(d, rel, live);
    for (int64_t i = 0; i < d->mr; i++)
        if (d->ra[i * C] >= 0) read_beat(d, 0, d->row0 + i, d->ra[i * C]);
    for (int64_t j = 0; j < d->mc; j++)
        if (d->rb[j] >= 0) read_beat(d, 1, d->col0 + j, d->rb[j]);
    /* per-cycle sums in locals (the compiler cannot keep d->st's fields in registers) */
    int64_t n_acc = 0, n_iss = 0, n_use = 0;
    /* every PE's A and B tokens must meet: one vectorised compare, the scan only on a mismatch */
    if (memcmp(d->ra, d->rb, (size_t)(R * C) * sizeof *d->ra) != 0)
        for (int64_t i = 0; i < R * C; i++)
            if (d->ra[i] != d->rb[i])
                return mx_fail(d->ctx, MXSIM_E_INTERNAL, "%s: detailed mode: PE (%lld,%lld) holds A beat %d "
                               "and B beat %d", d->where, (long long)(i / C), (long long)(i % C), d->ra[i], d->rb[i]);
    /* only the mapped region computes; loop invariants in locals (the calls below take d) */
    const int64_t mr = d->mr, mc = d->mc, last = d->nb - 1, bmask = d->bc_n - 1;
    const struct bcache *bc = d->bc;
    if (d->bt_on) {
        const uint64_t *pk = d->bt_pk + 1;
        /* two passes: the counting pass makes no calls (its pointers stay in registers); the
        ** rare beats that end a group or the chunk are visited in a second pass */
        const uint64_t fm = ((uint64_t)1 << 23) - 1;
        uint64_t any_spec = 0;
        for (int64_t i = 0; i < mr; i++) {
            const int32_t *row = d->ra + i * C;
            uint64_t sum = 0, orv = 0;
            for (int64_t j = 0; j < mc; j++) {
                uint64_t v = pk[row[j]]; /* -1 (no token) reads the zero entry */
                sum += v;
                orv |= v;
            }
            n_iss += (int64_t)(sum & fm);
            n_use += (int64_t)((sum >> 23) & fm);
            n_acc += (int64_t)((sum >> 46) & 0x1fff);
            any_spec |= orv;
        }
        for (int64_t i = 0; (any_spec >> 63) && i < mr; i++) {
            const int32_t *row = d->ra + i * C;
            for (int64_t j = 0; j < mc; j++) {
                int32_t b = row[j];
                if (!(pk[b] >> 63)) continue;
                const struct bcache *bi = beat_cached(d, b);
                int64_t out = i * mc + j;
                mxsim_status s;
                if (bi->gend && (s = unit_push(d, unit_of(d, i, j), fcyc, out, bi->grp)) != MXSIM_OK) return s;
                if (b == last && (s = out_exit(d, out, fcyc)) != MXSIM_OK) return s;
            }
        }
    } else
    for (int64_t i = 0; i < mr; i++) {
        const int32_t *row = d->ra + i * C;
        for (int64_t j = 0; j < mc; j++) {
            int32_t b = row[j];
            if (b < 0) continue;
            int64_t out = i * mc + j;
            const struct bcache *bi = &bc[b & bmask];
            if (bi->b != b) bi = beat_cached(d, b);
            n_iss += bi->el;
            n_use += bi->useful;
            n_acc++;
            mxsim_status s;
            if (bi->gend && (s = unit_push(d, unit_of(d, i, j), fcyc, out, bi->grp)) != MXSIM_OK) return s;
            if (b == last && (s = out_exit(d, out, fcyc)) != MXSIM_OK) return s;
        }
    }
    d->st->n_acc_writes += n_acc;
    d->st->n_macs_issued += n_iss;
    d->st->n_macs += n_use;
    d->pe_cyc += R * C;
    return units_issue(d, fcyc);
}

/* One cycle of a WS/IS fold (stationary operand on the columns, reduction beats on the rows). */
static mxsim_status stream_cycle(dsim *d, int64_t fcyc, int *ended)
{
    const int64_t R = d->R, C = d->C;
    int stat = d->a->df == MXSIM_DF_WS ? 1 : 0; /* stationary operand: WS B, IS A */
    *ended = 0;
    if (fcyc < R) { /* preload: stationary rows shift down; row R-1-fcyc enters at the top */
        memmove(d->rw + C, d->rw, (size_t)((R - 1) * C) * sizeof *d->rw);
        int32_t r = (int32_t)(R - 1 - fcyc);
        for (int64_t j = 0; j < C; j++) d->rw[j] = r;
        if (r < d->nbf)
            for (int64_t j = 0; j < d->mc; j++) read_beat(d, stat, d->col0 + j, d->fr + r);
        if (d->lane_fold) d->st->cycles_lane_limit++;
        else d->st->cycles_fill_drain++;
        d->pe_cyc += R * C;
        if (fcyc == R - 1)
            for (int64_t i = 0; i < R * C; i++)
                if (d->rw[i] != (int32_t)(i / C))
                    return mx_fail(d->ctx, MXSIM_E_INTERNAL, "%s: detailed mode: preload misplaced row %d",
                                   d->where, d->rw[i]);
        return MXSIM_OK;
    }
    int64_t ls = fcyc - R;
    int32_t rel = -1;
    if (d->n_rel < d->n_steps && ls >= d->next_rel) {
        rel = (int32_t)d->n_rel++;
        d->next_rel = ls + d->I;
    }
    d->ring[ls % d->ring_n] = rel;
    shift(d, d->ra, 0, ls);  /* streamed rows: right, skewed by PE row */
    shift(d, d->rb, 1, ls);  /* partial sums: down, skewed by column */
    int live = any_token(d->ra, R * C) || any_token(d->rb, R * C);
    if (!live && d->n_rel == d->n_steps && d->n_queued == 0 && fcyc > d->max_done) {
        *ended = 1;
        return MXSIM_OK;
    }
    flush_writes(d, fcyc);
    classify(d, rel, live);
    for (int64_t r = 0; r < d->nbf; r++)
        if (d->ra[r * C] >= 0) read_beat(d, 1 - stat, d->ra[r * C], d->fr + r);
    if (!d->first_pass)
        for (int64_t j = 0; j < d->mc; j++)
            if (d->rb[j] >= 0) { /* the partial sum of the previous pass enters at the top */
                d->st->sram_c_rd_bytes += 4;
                rec(d, "C", 'r', out_addr(d, d->rb[j] * d->mc + j), 4);
            }
    mxsim_status s;
    for (int64_t r = 0; r < R; r++)
        for (int64_t j = 0; j < C; j++) {
            int32_t sr = d->ra[r * C + j];
            if (sr != d->rb[r * C + j])
                return mx_fail(d->ctx, MXSIM_E_INTERNAL, "%s: detailed mode: PE (%lld,%lld) holds row %d and "
                               "partial sum %d", d->where, (long long)r, (long long)j, sr, d->rb[r * C + j]);
            if (sr < 0 || r >= d->nbf || j >= d->mc) continue;
            int64_t k0, el, grp;
            int gend;
            beat_info(d, d->fr + r, &k0, &el, &grp, &gend);
            count_macs(d, k0, el);
            d->st->n_acc_writes++;
            if (gend && (s = unit_push(d, unit_of(d, r, j), fcyc, sr * d->mc + j, sr)) != MXSIM_OK) return s;
        }
    for (int64_t j = 0; j < d->mc; j++) { /* partial sums leave the bottom row */
        int32_t sr = d->rb[(R - 1) * C + j];
        if (sr >= 0 && (s = out_exit(d, sr * d->mc + j, fcyc)) != MXSIM_OK) return s;
    }
    d->pe_cyc += R * C;
    return units_issue(d, fcyc);
}

/* ---- tiles and the DMA channel ------------------------------------------------------------- */

static void tile_geom(const dsim *d, int64_t idx, int64_t *im, int64_t *in, int64_t *ik)
{
    *ik = idx % d->t->nk;
    *in = (idx / d->t->nk) % d->t->nn;
    *im = idx / (d->t->nk * d->t->nn);
}

static mxsim_status enqueue(dsim *d, const dreq *r)
{
    if (d->qn == 4) return mx_fail(d->ctx, MXSIM_E_INTERNAL, "%s: detailed mode: DMA queue overflow", d->where);
    d->q[(d->qh + d->qn) % 4] = *r;
    d->qn++;
    d->st->n_dram_requests++;
    return MXSIM_OK;
}

/* Issues the load of tile idx (the tile in use, if any, is idx-1): the operand blocks not
** already resident go to the SRAM halves the running tile does not use. */
static mxsim_status issue_load(dsim *d, int64_t idx)
{
    int64_t im, in, ik, pm = -1, pn = -1, pk = -1;
    tile_geom(d, idx, &im, &in, &ik);
    if (idx > 0) tile_geom(d, idx - 1, &pm, &pn, &pk);
    int need_a = !(idx > 0 && pm == im && pk == ik), need_b = !(idx > 0 && pn == in && pk == ik);
    d->a_half[1] = need_a ? 1 - d->a_half[0] : d->a_half[0];
    d->b_half[1] = need_b ? 1 - d->b_half[0] : d->b_half[0];
    int64_t tm = mx_t_min(d->t->tm, d->op->m - im * d->t->tm);
    int64_t tn = mx_t_min(d->t->tn, d->op->n - in * d->t->tn);
    int64_t tk = mx_t_min(d->t->tk, d->op->k - ik * d->t->tk), ngr = d->op->mx ? tk / d->op->g : 0;
    dreq r;
    memset(&r, 0, sizeof r);
    r.tile = idx;
    r.phase = PH_LAT;
    r.lat_left = d->a->dram_lat;
    if (need_a) {
        int64_t base = d->a_half[1] * d->a->half_a_bytes;
        r.seg_kind[r.nseg] = 0, r.seg_addr[r.nseg] = base, r.seg_len[r.nseg++] = tm * tk;
        r.seg_kind[r.nseg] = 1, r.seg_addr[r.nseg] = base + tm * tk, r.seg_len[r.nseg++] = tm * ngr;
    }
    if (need_b) {
        int64_t base = d->b_half[1] * d->a->half_b_bytes;
        r.seg_kind[r.nseg] = 2, r.seg_addr[r.nseg] = base, r.seg_len[r.nseg++] = tn * tk;
        r.seg_kind[r.nseg] = 3, r.seg_addr[r.nseg] = base + tn * tk, r.seg_len[r.nseg++] = tn * ngr;
    }
    for (int i = 0; i < r.nseg; i++) r.bytes += r.seg_len[i];
    d->next_loaded = r.bytes == 0;
    return r.bytes == 0 ? MXSIM_OK : enqueue(d, &r);
}

static mxsim_status issue_store(dsim *d)
{
    dreq r;
    memset(&r, 0, sizeof r);
    r.store = 1;
    r.tile = d->tile;
    r.elems = d->tm * d->tn;
    r.c_addr = d->c_base;
    int fmt = d->op->out_fmt;
    r.ebytes = fmt == MXSIM_OUT_FP32 ? 4 : fmt == MXSIM_OUT_BF16 ? 2 : 1;
    r.bytes = r.elems * r.ebytes;
    if (fmt == MXSIM_OUT_MXINT8) { /* one scale byte per group of outputs along n, per row, */
        int64_t groups = 0;       /* stored with the tile that holds the group's last column */
        for (int64_t c = d->in * d->t->tn; c < d->in * d->t->tn + d->tn; c++)
            if ((c + 1) % d->op->out_g == 0 || c + 1 == d->op->n) groups++;
        r.bytes += d->tm * groups;
        r.phase = PH_RQ;
        r.rq_left = r.elems;
        r.depth_left = d->cfg->requant_depth_cycles;
    } else {
        r.phase = PH_LAT;
    }
    r.lat_left = d->a->dram_lat;
    return enqueue(d, &r);
}

/* C SRAM reads of the store: the fp32 sums of elements [from, to). */
static void store_read(dsim *d, dreq *r, int64_t to)
{
    if (to <= r->elems_read) return;
    d->st->sram_c_rd_bytes += 4 * (to - r->elems_read);
    rec(d, "C", 'r', r->c_addr + 4 * r->elems_read, 4 * (to - r->elems_read));
    r->elems_read = to;
}

/* One cycle of the channel's current request; returns 1 when it completed in this cycle.  *phase:
** the phase the cycle was spent in. */
static int chan_cycle(dsim *d, int *phase)
{
    dreq *r = &d->cur;
    for (;;) {
        *phase = r->phase;
        switch (r->phase) {
        case PH_RQ:
            if (r->rq_left == 0) { r->phase = PH_DEPTH; continue; }
            {
                int64_t take = mx_trequant_intake(d->cfg, r->rq_left);
                r->rq_left -= take;
                d->st->n_requant_elems += take;
                d->st->n_maxabs_compares += take;
                store_read(d, r, r->elems - r->rq_left);
            }
            return 0;
        case PH_DEPTH:
            if (r->depth_left == 0) { r->phase = PH_LAT; continue; }
            r->depth_left--;
            return 0;
        case PH_LAT:
            if (r->lat_left == 0) { r->phase = PH_XFER; continue; }
            r->lat_left--;
            return 0;
        default: {
            int64_t from = r->moved, now = mx_tdram_xfer_cycle(d->a, &r->credit, r->bytes);
            r->moved = now;
            if (r->store) {
                d->st->dram_out_bytes += now - from;
                store_read(d, r, mx_t_min(r->elems, mx_t_ceil_div(now, r->ebytes)));
            } else { /* bytes land in the SRAM segments in order */
                int64_t off = 0;
                for (int i = 0; i < r->nseg; i++) {
                    int64_t lo = mx_t_max(from, off), hi = mx_t_min(now, off + r->seg_len[i]);
                    if (hi > lo) {
                        int64_t *cnt[4] = {&d->st->dram_a_mant_bytes, &d->st->dram_a_scale_bytes,
                                           &d->st->dram_b_mant_bytes, &d->st->dram_b_scale_bytes};
                        *cnt[r->seg_kind[i]] += hi - lo;
                        rec(d, k_seg_name[r->seg_kind[i]], 'w', r->seg_addr[i] + lo - off, hi - lo);
                    }
                    off += r->seg_len[i];
                }
            }
            return r->moved == r->bytes;
        }
        }
    }
}

static mxsim_status tile_start(dsim *d)
{
    d->tile = d->next_tile++;
    tile_geom(d, d->tile, &d->im, &d->in, &d->ik);
    d->tm = mx_t_min(d->t->tm, d->op->m - d->im * d->t->tm);
    d->tn = mx_t_min(d->t->tn, d->op->n - d->in * d->t->tn);
    d->tk = mx_t_min(d->t->tk, d->op->k - d->ik * d->t->tk);
    d->a_half[0] = d->a_half[1];
    d->b_half[0] = d->b_half[1];
    d->a_base = d->a_half[0] * d->a->half_a_bytes;
    d->b_base = d->b_half[0] * d->a->half_b_bytes;
    d->c_base = ((d->im * d->t->nn + d->in) % 2) * d->a->half_c_bytes;
    /* beats of the chunk: a group of g elements takes tg beats of at most w elements; an MXINT8
    ** tile runs at the beat the plan gives its shape (the full width, or a narrower one) */
    d->g = d->op->mx ? d->op->g : d->tk;
    d->w = d->a->w;
    if (d->op->mx) {
        int cls = (d->tm != d->t->tm) | (d->tn != d->t->tn) << 1 | (d->tk != d->t->tk) << 2;
        int64_t want = d->t->tg[cls];
        if (want != mx_tload_group_beats(d->g, d->w)) d->w = mx_tload_group_width(d->g, want);
    }
    d->tg = mx_tload_group_beats(d->g, d->w);
    d->tg_l = mx_tload_group_beats(d->g, d->a->L);
    for (int64_t i = 0; i < d->bc_n; i++) d->bc[i].b = -1; /* beats mean other elements now */
    d->n_grp = d->op->mx ? d->tk / d->g : 0;
    d->nb = (d->op->mx ? d->n_grp : 1) * d->tg;
    d->bt_on = 0;
    if (d->nb + 1 <= MX_BT_MAX) {
        if (d->nb + 1 > d->bt_cap) {
            free(d->bt_pk);
            d->bt_pk = mx_malloc((size_t)(d->nb + 1), sizeof *d->bt_pk);
            d->bt_cap = d->bt_pk ? d->nb + 1 : 0;
        }
        if (d->bt_cap > 0) { /* else (no memory) the cached path below serves */
            d->bt_pk[0] = 0;
            for (int64_t b = 0; b < d->nb; b++) {
                int64_t k0, el, grp;
                int gend;
                beat_info(d, b, &k0, &el, &grp, &gend);
                uint64_t use = (uint64_t)mx_t_max(0, mx_t_min(el, d->op->k_useful - (d->ik * d->t->tk + k0)));
                d->bt_pk[b + 1] = (uint64_t)el | use << 23 | (uint64_t)1 << 46 | (uint64_t)(gend || b == d->nb - 1) << 63;
            }
            d->bt_on = 1;
        }
    }
    d->stream = d->a->df != MXSIM_DF_OS;
    d->fi = d->fj = 0;
    if (!d->stream) {
        d->nfi = mx_t_ceil_div(d->tm, d->R);
        d->nfj = mx_t_ceil_div(d->tn, d->C);
    } else { /* fi counts reduction folds (inner), fj column folds (outer) */
        d->nfi = mx_t_ceil_div(d->nb, d->R);
        d->nfj = mx_t_ceil_div(d->a->df == MXSIM_DF_WS ? d->tn : d->tm, d->C);
    }
    d->busy = 1;
    mxsim_status s = MXSIM_OK;
    if (d->next_tile < d->t->nm * d->t->nn * d->t->nk) s = issue_load(d, d->next_tile);
    return s == MXSIM_OK ? fold_start(d) : s;
}

/* Advances the fold loop; returns 0 when the tile has no fold left. */
static int next_fold(dsim *d)
{
    if (!d->stream) {
        if (++d->fj == d->nfj) { d->fj = 0; d->fi++; }
        return d->fi < d->nfi;
    }
    if (++d->fi == d->nfi) { d->fi = 0; d->fj++; }
    return d->fj < d->nfj;
}

static mxsim_status run(dsim *d)
{
    const int64_t T = d->t->nm * d->t->nn * d->t->nk;
    mxsim_status s = issue_load(d, 0);
    if (s != MXSIM_OK) return s;
    for (d->c = 0;; d->c++) {
        if (d->c >= MX_TDETAIL_MAX_CYC || d->pe_cyc > MX_TDETAIL_MAX_PE_CYC)
            return mx_fail(d->ctx, MXSIM_E_LIMIT,
                           "%s: detailed mode steps at most 2^26 PE-cycles and 2^26 cycles per op; this op "
                           "needs more: use the analytic engine (detail off)", d->where);
        /* the caller's cancellation hook, every 2^14 cycles (at most 2^26 PE-cycles in all) */
        if ((d->c & 0x3FFF) == 0 && mx_cancelled(d->ctx))
            return mx_fail(d->ctx, MXSIM_E_CANCELLED, "%s: detailed mode: cancelled at cycle %lld", d->where,
                           (long long)d->c);
        int done_array = 0;
        /* boundary: array (folds back to back, then the next tile), then the channel */
        while (d->busy) {
            int ended = 0;
            s = d->stream ? stream_cycle(d, d->c - d->c0, &ended) : os_cycle(d, d->c - d->c0, &ended);
            if (s != MXSIM_OK) return s;
            if (!ended) {
                done_array = 1;
                break;
            }
            if (next_fold(d)) {
                if ((s = fold_start(d)) != MXSIM_OK) return s;
                continue;
            }
            d->busy = 0;
            if (d->ik == d->t->nk - 1 && (s = issue_store(d)) != MXSIM_OK) return s;
        }
        if (!d->busy && d->next_tile < T && d->next_loaded) {
            if ((s = tile_start(d)) != MXSIM_OK) return s;
            int ended = 0;
            s = d->stream ? stream_cycle(d, 0, &ended) : os_cycle(d, 0, &ended);
            if (s != MXSIM_OK) return s;
            done_array = 1;
        }
        if (!d->chan_busy && d->qn > 0) {
            d->cur = d->q[d->qh];
            d->qh = (d->qh + 1) % 4;
            d->qn--;
            d->chan_busy = 1;
        }
        if (!d->busy && d->next_tile == T && !d->chan_busy) break;
        /* the cycle itself: the array has stepped above; now the channel */
        int phase = -1;
        if (d->chan_busy && chan_cycle(d, &phase)) {
            d->chan_busy = 0;
            if (!d->cur.store && d->cur.tile == d->next_tile) d->next_loaded = 1;
        }
        if (!done_array) { /* the array waits: on DRAM latency or on the channel's transfers */
            d->st->cycles_mem_stall++;
            if (phase == PH_LAT) d->st->cycles_dram_latency++;
            else d->st->cycles_dram_bw++;
        }
    }
    d->st->cycles_total = d->c;
    return MXSIM_OK;
}

mxsim_status mx_tdetail_run(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mx_tarch *a,
                            const mx_top_resolved *op, const mx_ttiling *t, const char *where,
                            const char *trace_path, mxsim_tstats *st)
{
    /* refuse up front what cannot fit: every beat of every output takes one PE-cycle */
    int64_t tg = 0;
    for (int64_t e = 0; e < (op->mx ? op->g : 1); e += a->w) tg++;
    double beats = op->mx ? (double)(op->k / op->g) * (double)tg : (double)mx_t_ceil_div(op->k, a->w);
    if ((double)op->m * (double)op->n * beats > (double)MX_TDETAIL_MAX_PE_CYC)
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s: detailed mode steps at most 2^26 PE-cycles (R*C*array cycles) per op; this op "
                       "needs at least %.3g (m*n*beats): use the analytic engine (detail off)", where,
                       (double)op->m * (double)op->n * beats);
    /* every operand byte crosses the DRAM channel at least once */
    int64_t ebytes = op->out_fmt == MXSIM_OUT_FP32 ? 4 : op->out_fmt == MXSIM_OUT_BF16 ? 2 : 1;
    double bytes = (double)op->m * (double)op->k + (double)op->k * (double)op->n +
                   (double)op->m * (double)op->n * (double)ebytes;
    if (bytes * MX_T_BW_FRAC / (double)a->bw_q > (double)MX_TDETAIL_MAX_CYC)
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s: detailed mode steps at most 2^26 cycles per op; this op's DRAM transfers alone "
                       "take at least %.3g: use the analytic engine (detail off)", where,
                       bytes * MX_T_BW_FRAC / (double)a->bw_q);
    dsim d;
    memset(&d, 0, sizeof d);
    d.ctx = ctx, d.cfg = cfg, d.a = a, d.op = op, d.t = t, d.where = where, d.st = st;
    d.R = a->R, d.C = a->C, d.w = a->w;
    d.ring_n = mx_t_max(a->R, a->C) + 1;
    d.n_u = a->share == MXSIM_EXP_PER_PE ? a->R * a->C : a->share == MXSIM_EXP_PER_ROW ? a->R : a->C;
    size_t rc = (size_t)(a->R * a->C);
    d.ra = mx_malloc(rc, sizeof *d.ra);
    d.rb = mx_malloc(rc, sizeof *d.rb);
    d.rw = mx_malloc(rc, sizeof *d.rw);
    d.ring = mx_malloc((size_t)d.ring_n, sizeof *d.ring);
    d.u = mx_calloc((size_t)d.n_u, sizeof *d.u);
    d.prof = mx_malloc(rc, sizeof *d.prof);
    for (d.bc_n = 1; d.bc_n < a->R + a->C; d.bc_n *= 2) {}
    d.bc = mx_malloc((size_t)d.bc_n, sizeof *d.bc);
    mxsim_status s = MXSIM_OK;
    if (!d.ra || !d.rb || !d.rw || !d.ring || !d.u || !d.prof || !d.bc)
        s = mx_fail(ctx, MXSIM_E_NOMEM, "%s: detailed mode: out of memory", where);
    if (s == MXSIM_OK && trace_path != NULL) s = mx_tacc_open(ctx, trace_path, &d.acc);
    if (s == MXSIM_OK) s = run(&d);
    if (d.acc) {
        mxsim_status s2 = mx_tacc_close(ctx, d.acc, s == MXSIM_OK);
        if (s == MXSIM_OK) s = s2;
    }
    if (d.u)
        for (int64_t i = 0; i < d.n_u; i++) free(d.u[i].q);
    free(d.ra), free(d.rb), free(d.rw), free(d.ring), free(d.u), free(d.prof), free(d.bc);
    free(d.bt_pk);
    free(d.rem), free(d.exitc), free(d.mdone), free(d.pw);
    return s;
}

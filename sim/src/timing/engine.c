/* engine.c - the analytic timing engine: tiling, the double-buffered memory pipeline, event
** counts, and the public mxsim_time_op.
**
** Modelled: an op is cut into tiles (tm x tn x tk; loop order m, n, k innermost) that fit half of
** each SRAM (A and B hold mantissas plus scale bytes, C holds fp32 partial sums).  One DRAM channel
** serves requests in issue order, each costing latency + ceil(bytes / bandwidth) cycles.  Tile t+1's
** load is issued when tile t starts computing (its buffer half was freed by tile t-1); tile t's
** output store (through the re-quantizer when the output is MXINT8) is issued when it finishes.
** The tiling is the candidate (powers of two times the array's granularity, or the full dim)
** with the fewest total cycles; a larger SRAM only adds candidates, so cycles never grow with
** SRAM, and every transfer shrinks with bandwidth, so cycles never grow with bandwidth.
** Ignored: DRAM banks and refresh, partial-sum spills (the output tile stays in SRAM across k).
** Invariant: cycles_total = compute + fill_drain + exp_stall + mem_stall, per op and in total.
*/
#include <stdio.h>
#include <string.h>

#include "tinternal.h"

static const char *kind_name(int k) { return k == MXSIM_OP_GEMM ? "gemm" : k == MXSIM_OP_DEQUANT ? "dequant" : "quantize"; }

mxsim_status mx_top_resolve(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_top *op,
                            const char *source, mx_top_resolved *r)
{
    char where[600];
    snprintf(where, sizeof where, "%s:%d: op '%s'", source ? source : "trace", op->line, op->name);
    memset(r, 0, sizeof *r);
    r->kind = op->kind;
    r->m = op->m;
    r->n = op->n;
    r->k = op->kind == MXSIM_OP_GEMM ? op->k : 1;
    r->repeat = op->repeat;
    if (op->kind < 0 || op->kind > MXSIM_OP_QUANTIZE) return mx_fail(ctx, MXSIM_E_INPUT, "%s: unknown op kind %d", where, op->kind);
    if (r->m < 1 || r->n < 1 || r->k < 1 || r->m > MX_T_MAX_DIM || r->n > MX_T_MAX_DIM || r->k > MX_T_MAX_DIM)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: dims must be 1..2^31", where);
    if (r->repeat < 1) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'repeat': must be >= 1", where);
    int fa = op->a_fmt < 0 ? (int)cfg->operand_format : op->a_fmt;
    int fb = op->b_fmt < 0 ? (int)cfg->operand_format : op->b_fmt;
    if (fa != fb)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "%s: fields 'a'/'b': mixed operand formats are not modelled", where);
    r->mx = fa == MXSIM_FMT_MXINT8 || op->kind != MXSIM_OP_GEMM;
    r->out_fmt = op->out_fmt < 0 ? (int)cfg->out_format : op->out_fmt;
    int64_t g = op->group_size > 0 ? op->group_size : cfg->group_size;
    int64_t along = op->kind == MXSIM_OP_GEMM ? r->k : r->n;
    if (r->mx) {
        if (along % g != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'group': G=%lld does not divide %s=%lld", where,
                           (long long)g, op->kind == MXSIM_OP_GEMM ? "k" : "n", (long long)along);
        r->g = g;
    } else {
        r->g = r->k;
    }
    /* products of dims and repeat must stay in int64 (bytes, MACs, cycles) */
    double macs = (double)r->m * (double)r->n * (double)r->k * (double)r->repeat;
    if (macs > 4e18 / 16)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: m*n*k*repeat = %.3g overflows the counters", where, macs);
    return MXSIM_OK;
}

int64_t mx_tmem_dur(const mx_tarch *a, int64_t bytes)
{
    if (bytes <= 0) return 0;
    return a->dram_lat + mx_t_ceil_div(bytes * MX_T_BW_FRAC, a->bw_q);
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
    if (o->store_elems && op->out_fmt == MXSIM_OUT_MXINT8)
        o->store_bytes += o->tm * mx_t_ceil_div(o->tn, op->g);
}

int64_t mx_tengine_store_dur(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                             const mx_ttile *tl)
{
    if (tl->store_bytes == 0) return 0;
    int64_t d = mx_tmem_dur(a, tl->store_bytes);
    if (op->out_fmt == MXSIM_OUT_MXINT8)
        d += cfg->requant_depth_cycles + mx_t_ceil_div(tl->store_elems, cfg->requant_lanes);
    return d;
}

/* Fits: A and B tiles (mantissas + scales) in half of their SRAM, fp32 psums in half of C's. */
static int fits(const mx_tarch *a, const mx_top_resolved *op, int64_t tm, int64_t tn, int64_t tk)
{
    int64_t sc = op->mx ? 1 : 0;
    return tm * tk + sc * (tm * tk / op->g) <= a->half_a_bytes &&
           tk * tn + sc * (tk * tn / op->g) <= a->half_b_bytes && tm * tn * 4 <= a->half_c_bytes;
}

/* Runs the memory pipeline over every tile; per-shape array time is cached.  Returns total. */
static int64_t pipeline(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                        const mx_ttiling *t, mxsim_tstats *st)
{
    mx_tfold cache[8];
    int have[8] = {0};
    int64_t T = t->nm * t->nn * t->nk;
    int64_t chan = 0, ld_done, ce = 0;
    mx_ttile tl, nx;
    mx_tengine_tile(op, t, 0, &tl);
    ld_done = mx_tmem_dur(a, tl.load_bytes);
    chan = ld_done;
    int64_t n_req = tl.load_bytes > 0;
    for (int64_t i = 0; i < T; i++) {
        int64_t cs = mx_t_max(ld_done, ce);
        if (i + 1 < T) {
            mx_tengine_tile(op, t, i + 1, &nx);
            if (nx.load_bytes > 0) {
                chan = mx_t_max(cs, chan) + mx_tmem_dur(a, nx.load_bytes);
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
            st->n_folds += f->n_folds;
            st->util_mapping += (double)f->pe_used_sum;
            if (tl.load_a) {
                st->dram_a_mant_bytes += tl.tm * tl.tk;
                st->dram_a_scale_bytes += op->mx ? tl.tm * tl.tk / op->g : 0;
            }
            if (tl.load_b) {
                st->dram_b_mant_bytes += tl.tk * tl.tn;
                st->dram_b_scale_bytes += op->mx ? tl.tk * tl.tn / op->g : 0;
            }
            st->dram_out_bytes += tl.store_bytes;
            /* psum traffic: one fp32 write per reduction pass, a read for every later pass */
            int64_t passes = f->kfolds, outs = tl.tm * tl.tn;
            int first = (i % t->nk) == 0;
            st->sram_c_wr_bytes += outs * 4 * passes;
            st->sram_c_rd_bytes += outs * 4 * (passes - 1 + !first) + tl.store_bytes;
        }
        if (tl.store_bytes > 0) {
            chan = mx_t_max(ce, chan) + mx_tengine_store_dur(cfg, a, op, &tl);
            n_req++;
        }
        if (i + 1 < T) tl = nx;
    }
    if (st) st->n_dram_requests = n_req;
    return mx_t_max(ce, chan);
}

static void add_candidates(int64_t *v, int *n, int64_t gran, int64_t dim)
{
    for (int64_t x = gran; x < dim && *n < 40; x *= 2) v[(*n)++] = x;
    v[(*n)++] = dim;
}

mxsim_status mx_tengine_choose(mxsim_ctx *ctx, const mx_tarch *a, const mx_top_resolved *op,
                               const char *where, mx_ttiling *best)
{
    int64_t cm[48], cn[48], ck[48];
    int nm = 0, nn = 0, nk = 0;
    int64_t gm = a->df == MXSIM_DF_OS ? a->R : a->df == MXSIM_DF_IS ? a->C : 8;
    int64_t gn = a->df == MXSIM_DF_IS ? 8 : a->C;
    add_candidates(cm, &nm, gm, op->m);
    add_candidates(cn, &nn, gn, op->n);
    /* reduction chunks: multiples of G (of the beat for int8) */
    add_candidates(ck, &nk, op->mx ? op->g : a->w, op->k);
    int64_t best_cost = -1;
    /* largest first, so the first fitting candidate has few tiles */
    for (int i = nm - 1; i >= 0; i--)
        for (int j = nn - 1; j >= 0; j--)
            for (int l = nk - 1; l >= 0; l--) {
                if (!fits(a, op, cm[i], cn[j], ck[l])) continue;
                mx_ttiling t = {cm[i], cn[j], ck[l], mx_t_ceil_div(op->m, cm[i]),
                                mx_t_ceil_div(op->n, cn[j]), mx_t_ceil_div(op->k, ck[l])};
                /* keep the search cheap: tiny tiles of huge ops are never the best */
                if (t.nm * t.nn * t.nk > (1 << 16) && best_cost >= 0) continue;
                int64_t c = pipeline(a->cfg, a, op, &t, NULL);
                if (best_cost < 0 || c < best_cost) {
                    best_cost = c;
                    *best = t;
                }
            }
    if (best_cost < 0)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: no tiling fits: fields 'sram.a_kib', 'sram.b_kib', 'sram.c_kib' too small "
                       "for one %lld x %lld x %lld tile", where, (long long)mx_t_min(gm, op->m),
                       (long long)mx_t_min(gn, op->n), (long long)ck[0]);
    return MXSIM_OK;
}

/* Operand element reads from the A and B SRAMs (what the array edges consume): the stationary
** operand is read once per tile, the streamed one once per fold across the other spatial dim. */
void mx_tengine_volumes(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                        const mx_ttiling *t, mxsim_tstats *st)
{
    int64_t T = t->nm * t->nn * t->nk;
    int64_t ra = 0, rb = 0, rsa = 0, rsb = 0;
    (void)cfg;
    /* tiles differ only by edge sizes: walk m, n, k edges instead of all tiles */
    for (int64_t im = 0; im < t->nm; im++) {
        int64_t tm = mx_t_min(t->tm, op->m - im * t->tm);
        if (im == 1 && t->nm > 2) { /* interior rows repeat: jump to the last one */
            int64_t reps = t->nm - 2;
            int64_t save_a = ra, save_b = rb, save_sa = rsa, save_sb = rsb;
            /* compute one interior row, then multiply */
            int64_t da = 0, db = 0, dsa = 0, dsb = 0;
            for (int64_t in = 0; in < t->nn; in++) {
                int64_t tn = mx_t_min(t->tn, op->n - in * t->tn);
                int64_t ea, eb;
                if (a->df == MXSIM_DF_OS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn * mx_t_ceil_div(tm, a->R); }
                else if (a->df == MXSIM_DF_WS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn; }
                else { ea = tm * op->k; eb = op->k * tn * mx_t_ceil_div(tm, a->C); }
                da += ea; db += eb;
                if (op->mx) { dsa += ea / op->g; dsb += eb / op->g; }
            }
            ra = save_a + da * reps; rb = save_b + db * reps; rsa = save_sa + dsa * reps; rsb = save_sb + dsb * reps;
            im = t->nm - 2;
            continue;
        }
        for (int64_t in = 0; in < t->nn; in++) {
            int64_t tn = mx_t_min(t->tn, op->n - in * t->tn);
            int64_t ea, eb;
            if (a->df == MXSIM_DF_OS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn * mx_t_ceil_div(tm, a->R); }
            else if (a->df == MXSIM_DF_WS) { ea = tm * op->k * mx_t_ceil_div(tn, a->C); eb = op->k * tn; }
            else { ea = tm * op->k; eb = op->k * tn * mx_t_ceil_div(tm, a->C); }
            ra += ea; rb += eb;
            if (op->mx) { rsa += ea / op->g; rsb += eb / op->g; }
        }
    }
    (void)T;
    st->sram_a_rd_mant_bytes = ra;
    st->sram_b_rd_mant_bytes = rb;
    st->sram_a_rd_scale_bytes = rsa;
    st->sram_b_rd_scale_bytes = rsb;
    st->n_macs = op->m * op->n * op->k;
    st->n_exp_ops = op->mx ? op->m * op->n * (op->k / op->g) : 0;
    /* adder-tree outputs written to the group (or int32) partial-sum register, one per beat */
    int64_t beats = op->mx ? (op->k / op->g) * mx_tpe_beats_per_group(a, op->g) : mx_t_ceil_div(op->k, a->w);
    st->n_acc_writes = op->m * op->n * beats;
    if (op->out_fmt == MXSIM_OUT_MXINT8) {
        st->n_requant_elems = op->m * op->n;
        st->n_maxabs_compares = op->m * op->n;
    }
}

void mx_tstats_finish(const mxsim_tconfig *cfg, mxsim_tstats *st)
{
    double slots = (double)cfg->array_rows * (double)cfg->array_cols * (double)cfg->pe_lanes;
    st->cycles_array = st->cycles_compute + st->cycles_fill_drain + st->cycles_exp_stall;
    st->n_lane_slots = (int64_t)slots * st->cycles_array;
    st->util_compute = st->cycles_total > 0 ? (double)st->n_macs / (slots * (double)st->cycles_total) : 0;
    st->seconds = (double)st->cycles_total / (cfg->clock_mhz * 1e6);
    st->tops = st->seconds > 0 ? 2.0 * (double)st->n_macs / st->seconds / 1e12 : 0;
}

static void scale_counts(mxsim_tstats *st, int64_t r)
{
    int64_t *f[] = {&st->cycles_total, &st->cycles_compute, &st->cycles_fill_drain, &st->cycles_exp_stall,
                    &st->cycles_mem_stall, &st->sram_a_rd_mant_bytes, &st->sram_a_rd_scale_bytes,
                    &st->sram_b_rd_mant_bytes, &st->sram_b_rd_scale_bytes, &st->sram_c_rd_bytes,
                    &st->sram_c_wr_bytes, &st->dram_a_mant_bytes, &st->dram_a_scale_bytes,
                    &st->dram_b_mant_bytes, &st->dram_b_scale_bytes, &st->dram_out_bytes, &st->n_macs,
                    &st->n_exp_ops, &st->n_acc_writes, &st->n_dequant_elems, &st->n_requant_elems,
                    &st->n_maxabs_compares, &st->n_dram_requests, &st->n_folds, &st->n_tiles};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++) *f[i] *= r;
}

/* Dequant (MXINT8 -> bf16) and quantize (bf16 -> MXINT8) stream m*n elements through a unit of
** `lanes` elements/cycle with a pipeline depth; the load and the store are one DRAM request each
** and overlap the unit, so the excess of memory time is stall. */
static void time_elementwise(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                             mxsim_tstats *st)
{
    int64_t e = op->m * op->n, sc = e / op->g;
    int deq = op->kind == MXSIM_OP_DEQUANT;
    int64_t lanes = deq ? cfg->dequant_lanes : cfg->requant_lanes;
    int64_t depth = deq ? cfg->dequant_depth_cycles : cfg->requant_depth_cycles;
    int64_t in_b = deq ? e + sc : 2 * e, out_b = deq ? 2 * e : e + sc;
    st->cycles_compute = mx_t_ceil_div(e, lanes);
    st->cycles_fill_drain = depth;
    int64_t mem = mx_tmem_dur(a, in_b) + mx_tmem_dur(a, out_b);
    st->cycles_total = mx_t_max(st->cycles_compute + depth, mem);
    st->cycles_mem_stall = st->cycles_total - st->cycles_compute - depth;
    st->dram_a_mant_bytes = deq ? e : 2 * e;
    st->dram_a_scale_bytes = deq ? sc : 0;
    st->dram_out_bytes = out_b;
    st->sram_a_rd_mant_bytes = st->dram_a_mant_bytes;
    st->sram_a_rd_scale_bytes = st->dram_a_scale_bytes;
    st->sram_c_wr_bytes = out_b;
    st->sram_c_rd_bytes = out_b;
    st->n_dram_requests = 2;
    if (deq) st->n_dequant_elems = e;
    else st->n_requant_elems = st->n_maxabs_compares = e;
    st->tile_m = op->m;
    st->tile_n = op->n;
    st->tile_k = 1;
    st->n_tiles = 1;
}

MXSIM_API mxsim_status mxsim_time_op(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_top *op,
                                     const char *source, int detail, const char *access_trace_path,
                                     mxsim_tstats *out)
{
    if (ctx == NULL || cfg == NULL || op == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "time_op: NULL argument");
    memset(out, 0, sizeof *out);
    mxsim_status s = mxsim_tconfig_validate(ctx, cfg);
    if (s != MXSIM_OK) return s;
    mx_top_resolved r;
    if ((s = mx_top_resolve(ctx, cfg, op, source, &r)) != MXSIM_OK) return s;
    mx_tarch a;
    mx_tarch_derive(cfg, &a);
    if (r.kind != MXSIM_OP_GEMM) {
        time_elementwise(cfg, &a, &r, out);
    } else {
        char where[600];
        snprintf(where, sizeof where, "%s:%d: op '%s'", source ? source : "trace", op->line, op->name);
        mx_ttiling t;
        if ((s = mx_tengine_choose(ctx, &a, &r, where, &t)) != MXSIM_OK) return s;
        mx_tengine_volumes(cfg, &a, &r, &t, out);
        if (detail) {
            if ((s = mx_tdetail_run(ctx, cfg, &a, &r, &t, access_trace_path, out)) != MXSIM_OK) return s;
        } else {
            out->cycles_total = pipeline(cfg, &a, &r, &t, out);
            out->cycles_mem_stall = out->cycles_total - out->cycles_compute - out->cycles_fill_drain -
                                    out->cycles_exp_stall;
        }
        out->util_mapping = out->n_folds > 0 ? out->util_mapping / ((double)out->n_folds * (double)a.R * (double)a.C) : 0;
        out->tile_m = t.tm;
        out->tile_n = t.tn;
        out->tile_k = t.tk;
        out->n_tiles = t.nm * t.nn * t.nk;
        if (cfg->scalesim_compat) { /* SCALE-Sim prints the index of the last cycle */
            out->cycles_total -= 1;
            out->cycles_fill_drain -= 1;
        }
    }
    double um = out->util_mapping;
    if (r.repeat > 1) scale_counts(out, r.repeat);
    out->util_mapping = um;
    mx_tstats_finish(cfg, out);
    (void)kind_name;
    return MXSIM_OK;
}

MXSIM_API void mxsim_tstats_add(const mxsim_tconfig *cfg, mxsim_tstats *acc, const mxsim_tstats *s)
{
    if (cfg == NULL || acc == NULL || s == NULL) return;
    /* mapping utilisation: weighted by folds */
    double um = acc->util_mapping * (double)acc->n_folds + s->util_mapping * (double)s->n_folds;
    int64_t *d = &acc->sram_a_rd_mant_bytes;
    const int64_t *x = &s->sram_a_rd_mant_bytes;
    acc->cycles_total += s->cycles_total;
    acc->cycles_compute += s->cycles_compute;
    acc->cycles_fill_drain += s->cycles_fill_drain;
    acc->cycles_exp_stall += s->cycles_exp_stall;
    acc->cycles_mem_stall += s->cycles_mem_stall;
    /* the int64 counters from sram_a_rd_mant_bytes to n_dram_requests are contiguous */
    int64_t n = (int64_t)(&acc->n_dram_requests - d) + 1;
    for (int64_t i = 0; i < n; i++) d[i] += x[i];
    acc->n_folds += s->n_folds;
    acc->n_tiles += s->n_tiles;
    acc->util_mapping = acc->n_folds > 0 ? um / (double)acc->n_folds : 0;
    mx_tstats_finish(cfg, acc);
}

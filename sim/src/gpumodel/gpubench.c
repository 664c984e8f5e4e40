/* gpubench.c - measured GPU points (a bench.csv of kernels/gpu_check.sh), their comparison with
** the model of gpumodel.c, and the calibration of the card's "calibrated" fields.
**
** The split into a training and a held-out half is fixed when the file is read (see mxsim.h):
** calibration reads only training points, so the held-out error is an honest test.  Rows that
** define a measured card value (the D2D copy, the cuBLAS peaks on the largest shape) are
** references and are not scored. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "gpuinternal.h"
#include "internal.h"

struct mxsim_gpu_bench {
    char card[64];
    int64_t n;
    mxsim_gpu_point *pts;
    int swapped; /* mxsim_gpu_bench_swap_split ran an odd number of times (the report's Reproduce line) */
};

void mxsim_gpu_bench_free(mxsim_gpu_bench *b)
{
    if (!b) return;
    free(b->pts);
    free(b);
}
int64_t mxsim_gpu_bench_count(const mxsim_gpu_bench *b) { return b ? b->n : 0; }
const mxsim_gpu_point *mxsim_gpu_bench_point(const mxsim_gpu_bench *b, int64_t i)
{
    return b && i >= 0 && i < b->n ? &b->pts[i] : NULL;
}
const char *mxsim_gpu_bench_card(const mxsim_gpu_bench *b) { return b ? b->card : ""; }
void mxsim_gpu_bench_swap_split(mxsim_gpu_bench *b)
{
    if (!b) return;
    for (int64_t i = 0; i < b->n; i++)
        if (b->pts[i].split < 2) b->pts[i].split ^= 1;
    b->swapped ^= 1;
}

int mx_gpu_bench_swapped(const mxsim_gpu_bench *b) { return b ? b->swapped : 0; }

static int parse_i64(const char *s, int64_t *v)
{
    char *e;
    errno = 0;
    long long x = strtoll(s, &e, 10);
    if (e == s || *e || errno) return -1;
    *v = x;
    return 0;
}

static int cmp_rowkey(const void *a, const void *b)
{
    const mx_gpu_rowkey *x = a, *y = b;
    int c = strcmp(x->method, y->method);
    if (c) return c;
    if (x->M != y->M) return x->M < y->M ? -1 : 1;
    if (x->N != y->N) return x->N < y->N ? -1 : 1;
    if (x->K != y->K) return x->K < y->K ? -1 : 1;
    if (x->G != y->G) return x->G < y->G ? -1 : 1;
    return x->line < y->line ? -1 : x->line > y->line;
}

int mx_gpu_rowkey_dup(mx_gpu_rowkey *k, int64_t n, int *first)
{
    if (n < 2) return 0;
    qsort(k, (size_t)n, sizeof *k, cmp_rowkey);
    int best = 0;
    for (int64_t i = 1; i < n; i++) {
        mx_gpu_rowkey a = k[i - 1], b = k[i];
        a.line = b.line = 0;
        if (cmp_rowkey(&a, &b) == 0 && (best == 0 || k[i].line < best)) {
            /* k[i - 1] is not necessarily the first of its run: walk back to it */
            int64_t j = i - 1;
            while (j > 0 && strcmp(k[j - 1].method, k[i].method) == 0 && k[j - 1].M == k[i].M && k[j - 1].N == k[i].N &&
                   k[j - 1].K == k[i].K && k[j - 1].G == k[i].G)
                j--;
            best = k[i].line, *first = k[j].line;
        }
    }
    return best;
}

mxsim_status mx_gpu_rowkey_check(mxsim_ctx *ctx, const char *path, mx_gpu_rowkey *k, int64_t n)
{
    int first = 0, dup = mx_gpu_rowkey_dup(k, n, &first);
    if (!dup) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: row: the same method, M, N, K, G as line %d (a row measured twice)", path,
                   dup, first);
}

/* A finite number in (0, hi]. */
static int parse_pos(const char *s, double hi, double *v)
{
    char *e;
    errno = 0;
    *v = mx_strtod(s, &e);
    return e != s && !*e && !errno && isfinite(*v) && *v > 0.0 && *v <= hi;
}

mxsim_status mx_gpu_bench_extra(mxsim_ctx *ctx, const char *path, int line, char *const *f, int col_rate, int col_unit,
                                int col_ratio)
{
    double v;
    if (col_rate >= 0 && !parse_pos(f[col_rate], 1e9, &v))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'rate': '%s' is not a number in (0, 1e9]", path, line, f[col_rate]);
    if (col_unit >= 0 && strcmp(f[col_unit], "TOPS") && strcmp(f[col_unit], "TFLOPS") && strcmp(f[col_unit], "GB/s"))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'unit': '%s' is not TOPS, TFLOPS or GB/s", path, line, f[col_unit]);
    if (col_ratio >= 0 && !parse_pos(f[col_ratio], 1e9, &v))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'ratio': '%s' is not a number in (0, 1e9]", path, line, f[col_ratio]);
    return MXSIM_OK;
}

mxsim_status mx_gpu_bench_card(mxsim_ctx *ctx, const char *path, int line, const char *v, char *card, size_t cap,
                               int *card_line)
{
    if (!v[0]) return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'card': empty (the GPU's name)", path, line);
    if (strlen(v) >= cap) return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'card': longer than %zu bytes", path, line, cap - 1);
    if (!card[0]) {
        memcpy(card, v, strlen(v) + 1);
        *card_line = line;
    } else if (strcmp(card, v) != 0) {
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'card': '%s' differs from '%s' on line %d (one card per bench)",
                       path, line, v, card, *card_line);
    }
    return MXSIM_OK;
}

mxsim_status mxsim_gpu_bench_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_bench **out)
{
    mx_clear_err(ctx);
    if (!path || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_bench_load: NULL argument");
    *out = NULL;
    char *data;
    size_t cap;
    mxsim_status st = mx_text_read(ctx, path, 16u << 20, &data, &cap);
    if (st != MXSIM_OK) return st;
    mxsim_gpu_bench *b = mx_calloc(1, sizeof *b);
    mx_gpu_rowkey *keys = mx_calloc(cap, sizeof *keys);
    int64_t n_keys = 0;
    if (b) b->pts = mx_calloc(cap, sizeof *b->pts);
    if (!b || !b->pts || !keys) {
        free(data);
        free(keys);
        mxsim_gpu_bench_free(b);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    int64_t shapes[64][3];
    int n_shapes = 0, line = 0, card_line = 0;
    mx_lines cur;
    mx_lines_init(&cur, data);
    for (char *buf; (buf = mx_lines_next(&cur)) != NULL;) {
        line = cur.line;
        if (strlen(buf) >= 512) { /* bench rows are short: a long one is refused, not split */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: line too long", path, line);
            goto fail;
        }
        if (!buf[0]) continue;
        char *f[12];
        int nf = mx_csv_split(buf, f, 11);
        if (line == 1) {
            static const char *const hdr[11] = {"card", "shape", "M", "N", "K", "G", "method", "median_us", "rate", "unit", "ratio"};
            int okh = nf == 11;
            for (int j = 0; okh && j < 11; j++) okh = strcmp(f[j], hdr[j]) == 0;
            if (!okh) {
                st = mx_fail(ctx, MXSIM_E_INPUT,
                             "%s:1: header: expected card,shape,M,N,K,G,method,median_us,rate,unit,ratio", path);
                goto fail;
            }
            continue;
        }
        if (nf != 11) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected 11 fields, found %d", path, line, nf);
            goto fail;
        }
        mxsim_gpu_point *pt = &b->pts[b->n];
        memset(pt, 0, sizeof *pt);
        if (strlen(f[1]) >= sizeof pt->shape || strlen(f[6]) >= sizeof pt->method) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: shape/method: too long", path, line);
            goto fail;
        }
        int64_t M, N, K, G;
        static const char *names[] = {"M", "N", "K", "G"};
        int64_t *dst[] = {&M, &N, &K, &G};
        for (int j = 0; j < 4; j++)
            /* M, N, K are dimensions (>= 1; a 0 used to pass here and fail only in the model,
            ** tests/fuzz/crashes/gpu_bench); G may be 0 (no groups).  2^40 bounds 2 * M below. */
            if (parse_i64(f[2 + j], dst[j]) || *dst[j] < (j < 3 ? 1 : 0) || *dst[j] > ((int64_t)1 << 40)) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field '%s': '%s' is not a %s in %d..2^40", path, line, names[j],
                             f[2 + j], j < 3 ? "dimension" : "group size", j < 3 ? 1 : 0);
                goto fail;
            }
        if ((st = mx_gpu_bench_card(ctx, path, line, f[0], b->card, sizeof b->card, &card_line)) != MXSIM_OK) goto fail;
        mx_gpu_rowkey *key = &keys[n_keys++];
        mx_snprintf(key->method, sizeof key->method, "%s", f[6]);
        key->M = M, key->N = N, key->K = K, key->G = G, key->line = line;
        if (strstr(f[6], "unsupported")) continue; /* cuBLASLt had no algorithm: no time */
        mx_snprintf(pt->shape, sizeof pt->shape, "%s", f[1]);
        mx_snprintf(pt->method, sizeof pt->method, "%s", f[6]);
        st = mxsim_gpu_method_parse(ctx, f[6], &pt->op);
        if (st != MXSIM_OK) {
            /* a bench of a later build (the Hopper kernels, cfg 7 and up) is the cross-card model's input */
            if (strncmp(f[6], "mxk-gemm-mxint8-cfg", 19) == 0)
                st = mx_fail(ctx, MXSIM_E_INPUT,
                             "%s:%d: method: kernel '%s' is not in this model (it covers cfg 0-6 of the "
                             "first kernel generation); benches of the current kernels are read by the "
                             "cross-card model: mxsim gpu-calibrate (sim/doc/gpu-model.md section 6)",
                             path, line, f[6]);
            else
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: method: unknown kernel '%s'", path, line, f[6]);
            goto fail;
        }
        if (!parse_pos(f[7], MX_GPU_MAX_US, &pt->measured_us)) { /* 'inf': fuzz_gpu_bench */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'median_us': '%s' is not a time in (0, 1e9] us", path, line, f[7]);
            goto fail;
        }
        if ((st = mx_gpu_bench_extra(ctx, path, line, f, 8, 9, 10)) != MXSIM_OK) goto fail;
        pt->op.m = M, pt->op.n = N, pt->op.k = K, pt->op.g = G;
        if (pt->op.kernel == MXSIM_GK_COPY) pt->op.m = 2 * M; /* n bf16 elements: 2n bytes */
        /* the model's own checks of the op, named by the bench's field */
        const char *bad_field = NULL;
        if ((st = mx_gpu_op_check(ctx, &pt->op, &bad_field)) != MXSIM_OK) {
            char why[512] = "";
            const char *m = ctx ? mxsim_errmsg(ctx) : "";
            const char *c1 = strstr(m, ": ");
            const char *c2 = c1 ? strstr(c1 + 2, ": ") : NULL;
            mx_snprintf(why, sizeof why, "%s", c2 ? c2 + 2 : m);
            const char *bf = !bad_field ? "method" : !strcmp(bad_field, "m") ? "M" : !strcmp(bad_field, "n") ? "N"
                           : !strcmp(bad_field, "k") ? "K" : !strcmp(bad_field, "g") ? "G" : "method";
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field '%s': %s (method %s)", path, line, bf, why, f[6]);
            goto fail;
        }
        /* split */
        int si = -1;
        for (int s = 0; s < n_shapes; s++)
            if (shapes[s][0] == M && shapes[s][1] == N && shapes[s][2] == K) si = s;
        if (si < 0) {
            if (n_shapes == 64) {
                st = mx_fail(ctx, MXSIM_E_LIMIT, "%s:%d: more than 64 shapes", path, line);
                goto fail;
            }
            shapes[n_shapes][0] = M, shapes[n_shapes][1] = N, shapes[n_shapes][2] = K;
            si = n_shapes++;
        }
        if (pt->op.kernel == MXSIM_GK_COPY) pt->split = 2;
        else if (pt->op.kernel == MXSIM_GK_DEQUANT_OCP) pt->split = 0;
        else if (pt->op.kernel == MXSIM_GK_DEQUANT_MASE) pt->split = 1;
        else pt->split = si % 2;
        b->n++;
    }
    if ((st = mx_gpu_rowkey_check(ctx, path, keys, n_keys)) != MXSIM_OK) goto fail;
    /* the cuBLAS rows of the largest GEMM define cublas.bf16_tflops / cublaslt.int8_tops */
    {
        double big = 0;
        for (int64_t i = 0; i < b->n; i++) {
            const mxsim_gpu_op *o = &b->pts[i].op;
            if (o->kernel >= MXSIM_GK_MXK_GEMM && (double)o->m * o->n * o->k > big) big = (double)o->m * o->n * o->k;
        }
        for (int64_t i = 0; i < b->n; i++) {
            const mxsim_gpu_op *o = &b->pts[i].op;
            if ((o->kernel == MXSIM_GK_CUBLAS_BF16 || o->kernel == MXSIM_GK_CUBLASLT_INT8) &&
                (double)o->m * o->n * o->k == big)
                b->pts[i].split = 2;
        }
    }
    free(data);
    free(keys);
    if (b->n == 0) {
        mxsim_gpu_bench_free(b);
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: no measured rows", path);
    }
    *out = b;
    return MXSIM_OK;
fail:
    free(data);
    free(keys);
    mxsim_gpu_bench_free(b);
    return st;
}

static void summarise(const mxsim_gpu_bench *b, mxsim_gpu_summary *s)
{
    memset(s, 0, sizeof *s);
    double sx[3] = {0}, sy[3] = {0}, sxx[3] = {0}, syy[3] = {0}, sxy[3] = {0};
    for (int64_t i = 0; i < b->n; i++) {
        const mxsim_gpu_point *p = &b->pts[i];
        if (p->split == 2) continue;
        double a = fabs(p->err_pct), x = log(p->predicted_us), y = log(p->measured_us);
        for (int h = 0; h < 3; h++) {
            if (h < 2 && p->split != h) continue;
            s->n[h]++;
            s->mape_pct[h] += a;
            if (a > s->max_abs_err_pct[h]) s->max_abs_err_pct[h] = a;
            sx[h] += x, sy[h] += y, sxx[h] += x * x, syy[h] += y * y, sxy[h] += x * y;
        }
    }
    for (int h = 0; h < 3; h++) {
        double n = (double)s->n[h];
        if (n < 1) continue;
        s->mape_pct[h] /= n;
        double cxy = sxy[h] - sx[h] * sy[h] / n, cxx = sxx[h] - sx[h] * sx[h] / n, cyy = syy[h] - sy[h] * sy[h] / n;
        s->pearson_r[h] = cxx > 0 && cyy > 0 ? cxy / sqrt(cxx * cyy) : 0.0;
    }
}

mxsim_status mxsim_gpu_compare(mxsim_ctx *ctx, const mxsim_gpu_card *card, mxsim_gpu_bench *b,
                               mxsim_gpu_summary *out)
{
    mx_clear_err(ctx);
    if (!card || !b || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_compare: NULL argument");
    mxsim_status cst = mx_gpu_card_check(ctx, card);
    if (cst != MXSIM_OK) return cst;
    for (int64_t i = 0; i < b->n; i++) {
        mxsim_gpu_point *p = &b->pts[i];
        mxsim_status st = mxsim_gpu_predict(ctx, card, &p->op, &p->pred);
        if (st != MXSIM_OK) return st;
        p->predicted_us = p->pred.time_us;
        p->err_pct = 100.0 * (p->predicted_us - p->measured_us) / p->measured_us;
    }
    summarise(b, out);
    return MXSIM_OK;
}

/* Training MAPE of card on b (predictions only; no error possible for loaded points). */
static double train_mape(const mxsim_gpu_card *card, const mxsim_gpu_bench *b)
{
    double sum = 0;
    int64_t n = 0;
    for (int64_t i = 0; i < b->n; i++) {
        const mxsim_gpu_point *p = &b->pts[i];
        if (p->split != 0) continue;
        mxsim_gpu_pred pr;
        if (mxsim_gpu_predict(NULL, card, &p->op, &pr) != MXSIM_OK) return INFINITY;
        sum += fabs(pr.time_us - p->measured_us) / p->measured_us;
        n++;
    }
    return n ? 100.0 * sum / (double)n : INFINITY;
}

mxsim_status mxsim_gpu_calibrate(mxsim_ctx *ctx, mxsim_gpu_card *card, mxsim_gpu_bench *b,
                                 mxsim_gpu_summary *out)
{
    mx_clear_err(ctx);
    if (!card || !b || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_calibrate: NULL argument");
    static const double steps[] = {1.3, 1.0 / 1.3, 1.05, 1.0 / 1.05, 1.01, 1.0 / 1.01};
    mxsim_status cst = mx_gpu_card_check(ctx, card);
    if (cst != MXSIM_OK) return cst;
    double best = train_mape(card, b);
    if (!isfinite(best)) return mx_fail(ctx, MXSIM_E_INPUT, "calibrate: no training points");
    for (int sweep = 0; sweep < 400; sweep++) {
        int improved = 0;
        for (int i = 0; i < mxsim_gpu_field_count(); i++) {
            const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
            if (strcmp(f->kind, "calibrated") != 0) continue;
            for (size_t s = 0; s < sizeof steps / sizeof steps[0]; s++) {
                mxsim_gpu_card trial = *card;
                double cur = mxsim_gpu_card_get(card, i);
                if (cur <= 0) cur = 1e-3;
                double nv = cur * steps[s];
                if (strcmp(f->key, "stream.overlap_loss") == 0 && nv > 1.0) nv = 1.0;
                if (!mx_gpu_field_ok(i, nv)) continue; /* the search stays where a card file may go */
                mx_gpu_card_set(&trial, i, nv);
                double e = train_mape(&trial, b);
                if (e < best - 1e-9) {
                    best = e;
                    *card = trial;
                    improved = 1;
                }
            }
        }
        if (!improved) break;
    }
    return mxsim_gpu_compare(ctx, card, b, out);
}

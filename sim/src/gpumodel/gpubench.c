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
}

static int parse_i64(const char *s, int64_t *v)
{
    char *e;
    errno = 0;
    long long x = strtoll(s, &e, 10);
    if (e == s || *e || errno) return -1;
    *v = x;
    return 0;
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
    if (b) b->pts = mx_calloc(cap, sizeof *b->pts);
    if (!b || !b->pts) {
        free(data);
        mxsim_gpu_bench_free(b);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    int64_t shapes[64][3];
    int n_shapes = 0, line = 0;
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
            if (nf != 11 || strcmp(f[0], "card") || strcmp(f[6], "method") || strcmp(f[7], "median_us")) {
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
        if (strlen(f[1]) >= sizeof pt->shape || strlen(f[6]) >= sizeof pt->method || strlen(f[0]) >= sizeof b->card) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: card/shape/method: too long", path, line);
            goto fail;
        }
        if (strstr(f[6], "unsupported")) continue; /* cuBLASLt had no algorithm: no time */
        snprintf(b->card, sizeof b->card, "%s", f[0]);
        snprintf(pt->shape, sizeof pt->shape, "%s", f[1]);
        snprintf(pt->method, sizeof pt->method, "%s", f[6]);
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
        char *e;
        errno = 0;
        pt->measured_us = strtod(f[7], &e);
        if (e == f[7] || *e || errno || !(pt->measured_us > 0.0) || !isfinite(pt->measured_us)) { /* 'inf': fuzz_gpu_bench */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'median_us': '%s' is not a finite positive time", path, line, f[7]);
            goto fail;
        }
        pt->op.m = M, pt->op.n = N, pt->op.k = K, pt->op.g = G;
        if (pt->op.kernel == MXSIM_GK_COPY) pt->op.m = 2 * M; /* n bf16 elements: 2n bytes */
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
    if (b->n == 0) {
        mxsim_gpu_bench_free(b);
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: no measured rows", path);
    }
    *out = b;
    return MXSIM_OK;
fail:
    free(data);
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

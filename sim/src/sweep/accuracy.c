/* accuracy.c - the numerical error an MXINT8 configuration causes on one op.
**
** Modelled: the bit-exact functional model (mxsim_mx_quantize, mxsim_gemm, mxsim_mx_dequantize)
** run on float32 data and compared with a float64 computation on the same float32 values:
**   GEMM      C = A . B^T, A [rows, K] activations, B [cols, K] weights, both grouped along K;
**   quantize  bf16 input -> MXINT8 codes, decoded exactly to float32, against the bf16 input;
**   dequant   float32 value -> MXINT8 -> bf16 output, against the float32 value.
** Data are synthetic (seeded; documented in mxsim.h and sim/doc/sweeps.md) or the user's .npy
** files.  Large ops are sampled: at most sample_rows rows of A and sample_cols rows of B, picked
** evenly (row j of S taken from row floor(j*M/S)), always the full reduction length; every
** synthetic row is generated from its own seed, so a sample holds exactly the rows the full
** tensor would.  Ignored: the error of ops' inputs produced by earlier ops (each op is measured
** on fresh data), the accelerator's output format (outputs are compared as float32).
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"

/* Synthetic-data parameters (documented in sim/doc/sweeps.md). */
#define OUTLIER_CHANNEL_ONE_IN 32 /* a channel is an outlier with probability 1/32 */
#define OUTLIER_LOG10_MIN 1.0     /* outlier scale 10^U(1,2): 10x .. 100x */
#define OUTLIER_LOG10_SPAN 1.0
#define WEIGHT_STD 0.02           /* Gaussian weights, the usual transformer init */

static uint64_t mix64(uint64_t z)
{ /* splitmix64 finaliser */
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t hash_str(uint64_t h, const char *s)
{ /* FNV-1a over the op name, then mixed with the seed */
    uint64_t f = 0xcbf29ce484222325ull;
    for (; *s; s++) f = (f ^ (unsigned char)*s) * 0x100000001b3ull;
    return mix64(h ^ f);
}

typedef struct {
    uint64_t s;
} rng;
static uint64_t rng_next(rng *r) { return mix64(r->s += 0x9E3779B97F4A7C15ull); }
static double rng_unit(rng *r) { return ((double)(rng_next(r) >> 11) + 0.5) * 0x1p-53; } /* (0,1) */
static double rng_gauss(rng *r)
{
    double u1 = rng_unit(r), u2 = rng_unit(r);
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}

/* Scale of channel k of an activation tensor (1, or 10..100 for an outlier channel). */
static double channel_scale(uint64_t h, int64_t k)
{
    rng r = {mix64(h ^ 0x4f55544cull) ^ (uint64_t)k * 0xD1B54A32D192ED03ull};
    if (rng_next(&r) % OUTLIER_CHANNEL_ONE_IN != 0) return 1.0;
    return pow(10.0, OUTLIER_LOG10_MIN + OUTLIER_LOG10_SPAN * rng_unit(&r));
}

/* Row `row` of a synthetic tensor: kind 'a' activations (outlier channels), 'w' weights. */
static void synth_row(uint64_t h, int kind, int64_t row, int64_t len, float *out)
{
    rng r = {mix64(h ^ (uint64_t)kind * 0x9E3779B97F4A7C15ull) ^ mix64((uint64_t)row + 1)};
    for (int64_t k = 0; k < len; k++) {
        double g = rng_gauss(&r);
        out[k] = (float)(kind == 'w' ? WEIGHT_STD * g : g * channel_scale(h, k));
    }
}

/* Sample count and the source row of sample j. */
static int64_t n_sample(int64_t have, int64_t cap) { return cap <= 0 || have <= cap ? have : cap; }
static int64_t sample_row(int64_t j, int64_t have, int64_t n) { return (int64_t)((__int128)j * have / n); }

static int file_exists(const char *p)
{
    struct stat sb;
    return stat(p, &sb) == 0;
}

/* Loads DIR/NAME<suffix>.npy (float32 2-D, `len` columns) when it exists: *t NULL if absent. */
static mxsim_status load_user(mxsim_ctx *ctx, const char *dir, const char *name, const char *suffix,
                              int64_t len, mxsim_tensor **t, char *path, size_t plen)
{
    *t = NULL;
    /* DIR/NAME.npy names a file in DIR: an op named '../x' read DIR/../x.a.npy (audit of the
    ** twenty-fifth session) */
    if (strchr(name, '/') || !strcmp(name, "..") || name[0] == '.')
        return mx_fail(ctx, MXSIM_E_INPUT, "op '%s': field 'name': a name with '/' or a leading '.' cannot name a file "
                       "in the data directory %s (rename the op)", name, dir);
    mx_snprintf(path, plen, "%s/%s%s.npy", dir, name, suffix);
    if (!file_exists(path)) return MXSIM_OK;
    mxsim_status st = mxsim_tensor_load_npy(ctx, path, t);
    if (st != MXSIM_OK) return st;
    const int64_t *sh = mxsim_tensor_shape(*t);
    if (mxsim_tensor_dtype(*t) != MXSIM_DTYPE_F32 || mxsim_tensor_ndim(*t) != 2 || sh[1] != len || sh[0] < 1) {
        mxsim_tensor_free(*t);
        *t = NULL;
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'shape': expected float32 [rows, %lld] for op '%s'",
                       path, (long long)len, name);
    }
    /* accuracy against float64 has no meaning on NaN or infinite data: its SQNR came out NaN under
    ** status "ok" */
    const float *v = mxsim_tensor_cdata(*t);
    for (int64_t i = 0; i < sh[0] * len; i++)
        if (!isfinite(v[i])) {
            mx_fail(ctx, MXSIM_E_INPUT, "%s: element (%lld, %lld) is %s: accuracy data must be finite", path,
                    (long long)(i / len), (long long)(i % len), isnan(v[i]) ? "NaN" : "infinite");
            mxsim_tensor_free(*t);
            *t = NULL;
            return MXSIM_E_INPUT;
        }
    return MXSIM_OK;
}

/* Fills a [n, len] float32 tensor with sampled rows of the user's tensor or synthetic data. */
static mxsim_status make_operand(mxsim_ctx *ctx, const mxsim_tensor *user, uint64_t h, int kind,
                                 int64_t have_rows, int64_t cap, int64_t len, mxsim_tensor **out)
{
    if (user) have_rows = mxsim_tensor_shape(user)[0];
    int64_t n = n_sample(have_rows, cap);
    int64_t shape[2] = {n, len};
    mxsim_status st = mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, out);
    if (st != MXSIM_OK) return st;
    float *d = mxsim_tensor_data(*out);
    for (int64_t j = 0; j < n; j++) {
        int64_t r = sample_row(j, have_rows, n);
        if (user) memcpy(d + j * len, (const float *)mxsim_tensor_cdata(user) + r * len, (size_t)len * sizeof(float));
        else synth_row(h, kind, r, len, d + j * len);
    }
    return MXSIM_OK;
}

typedef struct {
    double sig, err, max_rel;
} errsum;

static void err_add(errsum *e, double ref, double y)
{
    double d = isfinite(y) ? y - ref : INFINITY;
    e->sig += ref * ref;
    e->err += d * d;
    if (ref != 0) {
        double rel = fabs(d) / fabs(ref);
        if (rel > e->max_rel || isnan(rel)) e->max_rel = rel;
    }
}

static void finish(const errsum *e, mxsim_accuracy *out)
{
    out->sqnr_db = e->err == 0 ? INFINITY : e->sig == 0 ? -INFINITY : 10.0 * log10(e->sig / e->err);
    out->max_rel_err = e->max_rel;
    out->nsr_sum = e->err == 0 ? 0 : e->sig == 0 ? INFINITY : e->err / e->sig;
    out->n_ops = 1;
}

MXSIM_API void mxsim_accuracy_opts_default(mxsim_accuracy_opts *o)
{
    if (o == NULL) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->profile = MXSIM_PROFILE_OCP;
    o->acc = MXSIM_ACC_FP32;
    o->group_size = 32;
    o->sample_rows = 64;
    o->sample_cols = 64;
    o->seed = 1;
    o->data_dir = NULL;
}

/* x (rows x len, float32) with each row padded with zeros to a multiple of G, into *out (x itself
** when G divides len): a K (or n) that G does not divide is carried as whole groups whose tail is
** zeros, as mxsim run times it and the hardware stores it (architecture.md section 3.1).  The zeros
** change neither a group's largest magnitude (its scale) nor any dot product. */
static mxsim_status pad_groups(mxsim_ctx *ctx, mxsim_tensor *x, int64_t G, mxsim_tensor **out, mxsim_tensor **owned)
{
    const int64_t R = mxsim_tensor_shape(x)[0], L = mxsim_tensor_shape(x)[1], Lp = (L + G - 1) / G * G;
    *owned = NULL;
    *out = x;
    if (Lp == L) return MXSIM_OK;
    int64_t shape[2] = {R, Lp};
    mxsim_status st = mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, owned);
    if (st != MXSIM_OK) return st;
    float *d = mxsim_tensor_data(*owned);
    const float *s = mxsim_tensor_cdata(x);
    for (int64_t i = 0; i < R; i++) {
        memcpy(d + i * Lp, s + i * L, (size_t)L * sizeof *d);
        memset(d + i * Lp + L, 0, (size_t)(Lp - L) * sizeof *d);
    }
    *out = *owned;
    return MXSIM_OK;
}

static mxsim_status acc_gemm(mxsim_ctx *ctx, const mxsim_top *op, const mxsim_accuracy_opts *o,
                             uint64_t h, mxsim_accuracy *out)
{
    mxsim_tensor *ua = NULL, *ub = NULL, *a = NULL, *b = NULL, *c = NULL, *pa_own = NULL, *pb_own = NULL, *ap, *bp;
    mxsim_mx *qa = NULL, *qb = NULL;
    char path[1024];
    mxsim_status st = MXSIM_OK;
    const int64_t K = op->k;
    if (o->data_dir) {
        if ((st = load_user(ctx, o->data_dir, op->name, ".a", K, &ua, path, sizeof path)) != MXSIM_OK) goto done;
        if ((st = load_user(ctx, o->data_dir, op->name, ".b", K, &ub, path, sizeof path)) != MXSIM_OK) goto done;
        if ((ua == NULL) != (ub == NULL)) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s/%s.%s.npy: missing (op '%s' needs both .a and .b)",
                         o->data_dir, op->name, ua ? "b" : "a", op->name);
            goto done;
        }
    }
    if ((st = make_operand(ctx, ua, h, 'a', op->m, o->sample_rows, K, &a)) != MXSIM_OK) goto done;
    if ((st = make_operand(ctx, ub, h, 'w', op->n, o->sample_cols, K, &b)) != MXSIM_OK) goto done;
    if ((st = pad_groups(ctx, a, o->group_size, &ap, &pa_own)) != MXSIM_OK) goto done;
    if ((st = pad_groups(ctx, b, o->group_size, &bp, &pb_own)) != MXSIM_OK) goto done;
    if ((st = mxsim_mx_quantize(ctx, ap, o->profile, o->group_size, 1, &qa)) != MXSIM_OK) goto done;
    if ((st = mxsim_mx_quantize(ctx, bp, o->profile, o->group_size, 1, &qb)) != MXSIM_OK) goto done;
    mxsim_gemm_opts go;
    mxsim_gemm_opts_default(&go);
    go.acc = o->acc;
    if ((st = mxsim_gemm(ctx, qa, qb, &go, &c)) != MXSIM_OK) goto done;
    {
        const int64_t R = mxsim_tensor_shape(a)[0], C = mxsim_tensor_shape(b)[0];
        const float *pa = mxsim_tensor_cdata(a), *pb = mxsim_tensor_cdata(b), *pc = mxsim_tensor_cdata(c);
        errsum e = {0, 0, 0};
        for (int64_t i = 0; i < R; i++)
            for (int64_t j = 0; j < C; j++) {
                double ref = 0; /* float64 reference on the same float32 inputs */
                for (int64_t k = 0; k < K; k++) ref += (double)pa[i * K + k] * (double)pb[j * K + k];
                err_add(&e, ref, (double)pc[i * C + j]);
            }
        finish(&e, out);
        out->rows = R;
        out->cols = C;
        out->sampled = R < op->m || C < op->n;
        out->from_file = ua != NULL;
    }
done:
    mxsim_tensor_free(pa_own);
    mxsim_tensor_free(pb_own);
    mxsim_tensor_free(ua);
    mxsim_tensor_free(ub);
    mxsim_tensor_free(a);
    mxsim_tensor_free(b);
    mxsim_tensor_free(c);
    mxsim_mx_free(qa);
    mxsim_mx_free(qb);
    return st;
}

static mxsim_status acc_elementwise(mxsim_ctx *ctx, const mxsim_top *op, const mxsim_accuracy_opts *o,
                                    uint64_t h, mxsim_accuracy *out)
{
    mxsim_tensor *u = NULL, *x = NULL, *y = NULL, *xp_own = NULL, *xp;
    mxsim_mx *q = NULL;
    char path[1024];
    mxsim_status st = MXSIM_OK;
    const int64_t N = op->n;
    const int quant = op->kind == MXSIM_OP_QUANTIZE;
    if (o->data_dir && (st = load_user(ctx, o->data_dir, op->name, "", N, &u, path, sizeof path)) != MXSIM_OK)
        goto done;
    if ((st = make_operand(ctx, u, h, 'a', op->m, o->sample_rows, N, &x)) != MXSIM_OK) goto done;
    float *px = mxsim_tensor_data(x);
    const int64_t R = mxsim_tensor_shape(x)[0];
    if (quant) /* the re-quantizer's input is bf16 */
        for (int64_t i = 0; i < R * N; i++) px[i] = mxsim_bf16_to_f32(mxsim_f32_to_bf16(px[i]));
    if ((st = pad_groups(ctx, x, o->group_size, &xp, &xp_own)) != MXSIM_OK) goto done;
    if ((st = mxsim_mx_quantize(ctx, xp, o->profile, o->group_size, 1, &q)) != MXSIM_OK) goto done;
    if ((st = mxsim_mx_dequantize(ctx, q, quant ? MXSIM_DTYPE_F32 : MXSIM_DTYPE_BF16, &y)) != MXSIM_OK) goto done;
    {
        errsum e = {0, 0, 0};
        const void *py = mxsim_tensor_cdata(y);
        const int64_t Np = mxsim_tensor_shape(y)[1]; /* N, or N padded to whole groups */
        for (int64_t r = 0; r < R; r++)
            for (int64_t j = 0; j < N; j++) {
                const int64_t i = r * Np + j;
                double v = quant ? (double)((const float *)py)[i] : (double)mxsim_bf16_to_f32(((const uint16_t *)py)[i]);
                err_add(&e, (double)px[r * N + j], v);
            }
        finish(&e, out);
        out->rows = R;
        out->cols = N;
        out->sampled = R < op->m;
        out->from_file = u != NULL;
    }
done:
    mxsim_tensor_free(xp_own);
    mxsim_tensor_free(u);
    mxsim_tensor_free(x);
    mxsim_tensor_free(y);
    mxsim_mx_free(q);
    return st;
}

/* A data directory that does not exist must fail, not fall back to synthetic data unnoticed
** (an op without files is synthetic only inside an existing directory). */
mxsim_status mx_acc_check_data_dir(mxsim_ctx *ctx, const char *dir)
{
    struct stat sb;
    if (dir == NULL) return MXSIM_OK;
    if (stat(dir, &sb) != 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "accuracy data directory '%s': %s", dir, strerror(errno));
    if (!S_ISDIR(sb.st_mode))
        return mx_fail(ctx, MXSIM_E_INPUT, "accuracy data directory '%s': not a directory", dir);
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_accuracy_op(mxsim_ctx *ctx, const mxsim_top *op,
                                         const mxsim_accuracy_opts *o, mxsim_accuracy *out)
{
    mx_clear_err(ctx);
    if (op == NULL || o == NULL || out == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_accuracy_op: NULL argument");
    memset(out, 0, sizeof *out);
    mxsim_status cs = mx_check_size(ctx, "mxsim_accuracy_op", "mxsim_accuracy_opts", o->struct_size, sizeof *o);
    if (cs != MXSIM_OK) return cs;
    if ((cs = mx_acc_check_data_dir(ctx, o->data_dir)) != MXSIM_OK) return cs;
    if (o->sample_rows < 0 || o->sample_cols < 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "accuracy: sample_rows/sample_cols must be >= 0");
    if (o->group_size < 1 || o->group_size > MXSIM_MAX_GROUP)
        return mx_fail(ctx, MXSIM_E_INPUT, "op '%s': field 'group': G=%lld is not in 1..%d", op->name,
                       (long long)o->group_size, MXSIM_MAX_GROUP);
    uint64_t h = hash_str(mix64(o->seed), op->name);
    return op->kind == MXSIM_OP_GEMM ? acc_gemm(ctx, op, o, h, out) : acc_elementwise(ctx, op, o, h, out);
}

MXSIM_API void mxsim_accuracy_add(mxsim_accuracy *acc, const mxsim_accuracy *s)
{
    if (acc == NULL || s == NULL) return;
    acc->nsr_sum += s->nsr_sum;
    acc->n_ops += s->n_ops;
    if (s->max_rel_err > acc->max_rel_err || isnan(s->max_rel_err)) acc->max_rel_err = s->max_rel_err;
    acc->rows += s->rows;
    acc->cols += s->cols;
    acc->sampled |= s->sampled;
    acc->from_file |= s->from_file;
    acc->sqnr_db = acc->n_ops == 0 ? 0 : acc->nsr_sum == 0 ? INFINITY : -10.0 * log10(acc->nsr_sum / (double)acc->n_ops);
}

/* gemm.c - the functional MXINT8 GEMM: argument checks, scale mapping, path dispatch, and the
** portable scalar back end with both accumulator modes.
**
** The contract (sim/doc/numerics.md section 4) fixes every rounding, so all back ends must give
** identical bits: threads split outputs (never one output's sum), SIMD lanes hold different
** outputs, and each output adds its group terms in ascending group order.  The exact mode keeps
** a 640-bit two's complement fixed-point sum per output (a Kulisch accumulator) and rounds once.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

/* ---- exact (Kulisch) accumulator ---------------------------------------------------------- */

/* LSB weight 2^-276: terms have s >= -268 (two MASE byte-0 scales) and |d| < 2^31, so the top
** term bit is below 2^(242+31) = bit 549 of 640, leaving 90 bits for carries and the sign. */
#define KUL_LIMBS 10
#define KUL_LSB_EXP (-276)

typedef struct {
    uint64_t w[KUL_LIMBS];
} kulisch;

static void kul_add(kulisch *k, int32_t d, int s)
{
    if (d == 0) return;
    uint64_t mag = d < 0 ? (uint64_t)(-(int64_t)d) : (uint64_t)d;
    int shift = s - KUL_LSB_EXP, li = shift / 64, off = shift % 64;
    uint64_t part[2] = {mag << off, off ? mag >> (64 - off) : 0};
    uint64_t carry = 0; /* carry when adding, borrow when subtracting */
    for (int i = li; i < KUL_LIMBS; i++) {
        uint64_t v = i - li < 2 ? part[i - li] : 0, o = k->w[i], r1, r2;
        if (i - li >= 2 && carry == 0) break;
        if (d > 0) {
            r1 = o + v;
            r2 = r1 + carry;
            carry = (r1 < o) | (r2 < r1);
        } else {
            r1 = o - v;
            r2 = r1 - carry;
            carry = (o < v) | (r1 < carry);
        }
        k->w[i] = r2;
    }
}

/* Rounds the exact sum to float32: RNE, gradual underflow, overflow to Inf, zero -> +0.0. */
static float kul_round(const kulisch *k0)
{
    kulisch k = *k0;
    int neg = (int)(k.w[KUL_LIMBS - 1] >> 63);
    if (neg) { /* two's complement negate */
        uint64_t carry = 1;
        for (int i = 0; i < KUL_LIMBS; i++) {
            k.w[i] = ~k.w[i] + carry;
            carry = carry && k.w[i] == 0;
        }
    }
    int top = -1;
    for (int i = KUL_LIMBS - 1; i >= 0 && top < 0; i--)
        if (k.w[i]) top = i * 64 + 63 - __builtin_clzll(k.w[i]);
    if (top < 0) return 0.0f;
    /* Quantum of the result: 24 significant bits, but never below the subnormal step 2^-149. */
    int q = top + KUL_LSB_EXP - 23;
    if (q < -149) q = -149;
    int r = q - KUL_LSB_EXP; /* bits dropped; >= 127 */
    uint64_t kept = 0;
    for (int b = 0; b < 25 && r + b <= top; b++) /* at most 24 bits (+1 spare) are kept */
        if ((k.w[(r + b) / 64] >> ((r + b) % 64)) & 1) kept |= (uint64_t)1 << b;
    int rb = r - 1, rl = rb / 64, ro = rb % 64;
    int round = (int)((k.w[rl] >> ro) & 1);
    int sticky = (k.w[rl] & (((uint64_t)1 << ro) - 1)) != 0;
    for (int i = 0; i < rl; i++) sticky |= k.w[i] != 0;
    if (round && (sticky || (kept & 1))) kept++;
    float v = ldexpf((float)kept, q); /* exact, or +Inf beyond FLT_MAX */
    return neg ? -v : v;
}

/* ---- scalar back end ---------------------------------------------------------------------- */

typedef struct {
    const mx_gemm_prob *p;
    mxsim_acc acc;
} scalar_job;

static int32_t dot_group(const int8_t *a, const int8_t *b, int64_t g)
{
    int32_t d = 0;
    for (int64_t k = 0; k < g; k++) d += (int32_t)a[k] * (int32_t)b[k];
    return d;
}

static void scalar_rows(void *arg, int64_t i0, int64_t i1)
{
    const scalar_job *job = arg;
    const mx_gemm_prob *p = job->p;
    for (int64_t i = i0; i < i1; i++)
        for (int64_t j = 0; j < p->N; j++) {
            const int8_t *a = p->am + i * p->K, *b = p->bm + j * p->K;
            const int16_t *ea = p->ae + i * p->ng, *eb = p->be + j * p->ng;
            int nan = 0;
            float acc = 0.0f;
            kulisch kul;
            if (job->acc == MXSIM_ACC_EXACT) memset(&kul, 0, sizeof kul);
            for (int64_t g = 0; g < p->ng; g++) {
                if (ea[g] == MX_E_NAN || eb[g] == MX_E_NAN) {
                    nan = 1;
                    break;
                }
                int32_t d = dot_group(a + g * p->G, b + g * p->G, p->G);
                int s = ea[g] + eb[g] - 266;
                if (job->acc == MXSIM_ACC_EXACT) kul_add(&kul, d, s);
                else acc += mx_gemm_term(d, s);
            }
            if (job->acc == MXSIM_ACC_EXACT && !nan) acc = kul_round(&kul);
            p->c[i * p->N + j] = nan ? NAN : acc;
        }
}

mxsim_status mx_gemm_scalar(mxsim_ctx *ctx, const mx_gemm_prob *p, mxsim_acc acc,
                            unsigned n_threads)
{
    (void)ctx;
    scalar_job job = {p, acc};
    mx_parallel_for(n_threads, p->M, 1, scalar_rows, &job);
    return MXSIM_OK;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

MXSIM_API int mxsim_simd_available(mxsim_simd simd)
{
    switch (simd) {
    case MXSIM_SIMD_AUTO:
    case MXSIM_SIMD_SCALAR: return 1;
    case MXSIM_SIMD_AVX2: return mx_cpu_has_avx2();
    default: return 0;
    }
}

#if !MXSIM_HAVE_X86
int mx_cpu_has_avx2(void) { return 0; }
mxsim_status mx_gemm_avx2(mxsim_ctx *ctx, const mx_gemm_prob *p, unsigned n_threads)
{
    (void)p;
    (void)n_threads;
    return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "AVX2 GEMM: not built for this architecture");
}
#endif

static mxsim_status run_gemm(mxsim_ctx *ctx, const mx_gemm_prob *p, mxsim_acc acc)
{
    unsigned nt = ctx->n_threads;
    if (nt == 0) {
        nt = mx_online_cpus();
        if ((double)p->M * (double)p->N * (double)p->K < 1 << 18) nt = 1; /* not worth a thread */
    }
    int avx2_ok = acc == MXSIM_ACC_FP32 && p->G % 2 == 0 && p->G <= 1024 && mx_cpu_has_avx2();
    if (ctx->simd == MXSIM_SIMD_AVX2 && !mx_cpu_has_avx2())
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "simd=avx2: this CPU lacks AVX2");
    /* Shapes the AVX2 kernel does not cover (odd G, G > 1024, exact mode) use the scalar path
    ** even under SIMD_AVX2: both give identical bits by construction. */
    if (ctx->simd != MXSIM_SIMD_SCALAR && avx2_ok) return mx_gemm_avx2(ctx, p, nt);
    return mx_gemm_scalar(ctx, p, acc, nt);
}

static mxsim_status map_scales(mxsim_ctx *ctx, const char *what, mxsim_profile prof,
                               const uint8_t *bytes, int64_t n, int16_t **out)
{
    int16_t *e = mx_malloc((size_t)n, sizeof *e);
    if (e == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory for scales", what);
    for (int64_t i = 0; i < n; i++) {
        int eo, nan;
        mxsim_scale_to_ocp(prof, bytes[i], &eo, &nan);
        e[i] = nan ? (int16_t)MX_E_NAN : (int16_t)eo;
    }
    *out = e;
    return MXSIM_OK;
}

static mxsim_status gemm_core(mxsim_ctx *ctx, int64_t M, int64_t N, int64_t K, int64_t G,
                              const int8_t *am, const uint8_t *as, mxsim_profile ap,
                              const int8_t *bm, const uint8_t *bs, mxsim_profile bp, mxsim_acc acc,
                              float *c)
{
    int16_t *ae = NULL, *be = NULL;
    mxsim_status st;
    if (acc != MXSIM_ACC_FP32 && acc != MXSIM_ACC_EXACT)
        return mx_fail(ctx, MXSIM_E_ARG, "acc=%d: expected fp32 or exact", (int)acc);
    if (M < 0 || N < 0 || K < 1 || G < 1 || G > MXSIM_MAX_GROUP || K % G != 0)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "gemm: M=%lld N=%lld K=%lld G=%lld: need M, N >= 0, K >= 1, G in 1..%d "
                       "dividing K",
                       (long long)M, (long long)N, (long long)K, (long long)G, MXSIM_MAX_GROUP);
    mx_gemm_prob p = {M, N, K, G, K / G, am, bm, NULL, NULL, c};
    if ((st = map_scales(ctx, "A", ap, as, M * p.ng, &ae)) != MXSIM_OK) goto done;
    if ((st = map_scales(ctx, "B", bp, bs, N * p.ng, &be)) != MXSIM_OK) goto done;
    p.ae = ae;
    p.be = be;
    st = M && N ? run_gemm(ctx, &p, acc) : MXSIM_OK;
done:
    free(ae);
    free(be);
    return st;
}

MXSIM_API mxsim_status mxsim_gemm_raw(mxsim_ctx *ctx, int64_t M, int64_t N, int64_t K, int64_t G,
                                      const int8_t *a_m, const uint8_t *a_e, const int8_t *b_m,
                                      const uint8_t *b_e, mxsim_acc acc, float *c)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    if ((M && (a_m == NULL || a_e == NULL)) || (N && (b_m == NULL || b_e == NULL)) ||
        (M && N && c == NULL))
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gemm_raw: NULL array");
    if (M > (int64_t)1 << 40 || N > (int64_t)1 << 40 || K > (int64_t)1 << 40)
        return mx_fail(ctx, MXSIM_E_LIMIT, "mxsim_gemm_raw: dimension above 2^40");
    /* Each dimension may be legal while the arrays they describe cannot exist: the element
    ** counts are checked too, so no index computation downstream can overflow. */
    const struct {
        const char *name;
        int64_t x, y;
    } k_arrays[] = {{"M*K (A)", M, K}, {"N*K (B)", N, K}, {"M*N (C)", M, N}};
    for (size_t i = 0; i < sizeof k_arrays / sizeof k_arrays[0]; i++) {
        int64_t n;
        if (k_arrays[i].x > 0 && k_arrays[i].y > 0 &&
            (__builtin_mul_overflow(k_arrays[i].x, k_arrays[i].y, &n) || n > MX_MAX_TENSOR_BYTES))
            return mx_fail(ctx, MXSIM_E_LIMIT,
                           "mxsim_gemm_raw: %s = %lld x %lld elements exceeds the 2^36 limit",
                           k_arrays[i].name, (long long)k_arrays[i].x, (long long)k_arrays[i].y);
    }
    return gemm_core(ctx, M, N, K, G, a_m, a_e, MXSIM_PROFILE_OCP, b_m, b_e, MXSIM_PROFILE_OCP, acc,
                     c);
}

static mxsim_status check_operand(mxsim_ctx *ctx, const char *name, const mxsim_mx *x)
{
    char sb[160];
    if (x->mant->ndim != 2)
        return mx_fail(ctx, MXSIM_E_INPUT, "gemm: %s: mantissa shape %s, expected 2-D", name,
                       mx_shape_str(x->mant->ndim, x->mant->shape, sb, sizeof sb));
    if (x->axis != 1)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "gemm: %s: grouped along axis %d, expected axis 1 (the reduction axis K; "
                       "B is [N, K] as a linear layer's weight)",
                       name, x->axis);
    return MXSIM_OK;
}

MXSIM_API void mxsim_gemm_opts_default(mxsim_gemm_opts *o)
{
    if (o == NULL) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->acc = MXSIM_ACC_FP32;
    o->out_dtype = MXSIM_DTYPE_F32;
}

MXSIM_API mxsim_status mxsim_gemm(mxsim_ctx *ctx, const mxsim_mx *a, const mxsim_mx *b,
                                  const mxsim_gemm_opts *opts, mxsim_tensor **out)
{
    mx_clear_err(ctx);
    mxsim_status st;
    if (ctx == NULL) return MXSIM_E_ARG;
    if (a == NULL || b == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gemm: NULL argument");
    *out = NULL;
    mxsim_gemm_opts o;
    mxsim_gemm_opts_default(&o);
    if (opts) {
        if ((st = mx_check_size(ctx, "mxsim_gemm", "mxsim_gemm_opts", opts->struct_size, sizeof *opts)) != MXSIM_OK)
            return st;
        o = *opts;
    }
    if (o.out_dtype != MXSIM_DTYPE_F32 && o.out_dtype != MXSIM_DTYPE_BF16)
        return mx_fail(ctx, MXSIM_E_ARG, "gemm: output dtype %s: expected f32 or bf16",
                       mxsim_dtype_name(o.out_dtype) ? mxsim_dtype_name(o.out_dtype) : "?");
    if ((st = check_operand(ctx, "A", a)) != MXSIM_OK) return st;
    if ((st = check_operand(ctx, "B", b)) != MXSIM_OK) return st;
    int64_t M = a->mant->shape[0], K = a->mant->shape[1], N = b->mant->shape[0];
    if (b->mant->shape[1] != K)
        return mx_fail(ctx, MXSIM_E_INPUT, "gemm: K mismatch: A is [%lld, %lld], B is [%lld, %lld]",
                       (long long)M, (long long)K, (long long)N, (long long)b->mant->shape[1]);
    if (a->group_size != b->group_size)
        return mx_fail(ctx, MXSIM_E_INPUT, "gemm: group_size mismatch: A has %lld, B has %lld",
                       (long long)a->group_size, (long long)b->group_size);
    int64_t shape[2] = {M, N};
    mxsim_tensor *c = NULL;
    if ((st = mx_tensor_new(ctx, MXSIM_DTYPE_F32, 2, shape, &c)) != MXSIM_OK) return st;
    st = gemm_core(ctx, M, N, K, a->group_size, a->mant->data, a->scale->data, a->profile,
                   b->mant->data, b->scale->data, b->profile, o.acc, c->data);
    if (st == MXSIM_OK && o.out_dtype == MXSIM_DTYPE_BF16) {
        mxsim_tensor *h = NULL;
        if ((st = mx_tensor_new(ctx, MXSIM_DTYPE_BF16, 2, shape, &h)) == MXSIM_OK) {
            const float *cf = c->data;
            uint16_t *hb = h->data;
            for (int64_t i = 0; i < c->numel; i++) hb[i] = mxsim_f32_to_bf16(cf[i]);
        }
        mxsim_tensor_free(c);
        c = h;
    }
    if (st != MXSIM_OK) {
        mxsim_tensor_free(c);
        return st;
    }
    *out = c;
    return MXSIM_OK;
}

/* numerics.c - the four MXINT8 numerics profiles: decode, quantize and fake-quantize one block.
**
** Each profile reproduces one reference implementation bit for bit (sim/doc/numerics.md; sources
** in sim/doc/references.md section 3): OCP MX v1.0 as gfloat implements it, MASE's
** software quantizer, mase-cuda (torch quantizer + CUDA dequantize kernel) and microxcaling's
** default Python path.  The quirks are deliberate: MASE's and microxcaling's log2 is evaluated in
** the input dtype and rounded, mase-cuda double-rounds through bf16, and so on.
**
** Everything here is a pure function of its arguments.  Intermediate values are exact in double
** (inputs are float32/bf16, scalings are powers of two, and |scaled| < 2^10), so every rounding
** the upstream code performs is written out explicitly.  A NaN block is stored as scale 0xFF with
** zero mantissas in every profile.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "numerics.h"

/* ---- bf16 ------------------------------------------------------------------------------- */

MXSIM_API uint16_t mxsim_f32_to_bf16(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x0040u); /* quiet NaN */
    u += 0x7FFFu + ((u >> 16) & 1u); /* RNE; carries into the exponent and up to Inf */
    return (uint16_t)(u >> 16);
}

MXSIM_API float mxsim_bf16_to_f32(uint16_t b)
{
    uint32_t u = (uint32_t)b << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Rounds an exactly-known value to the input dtype the way torch does: to float32, then (bf16
** tensors) float32 -> bf16.  Both steps are RNE with subnormals kept. */
static double round_dtype(double v, int is_bf16)
{
    float f = (float)v;
    if (is_bf16) f = mxsim_bf16_to_f32(mxsim_f32_to_bf16(f));
    return f;
}

/* Round half to even of an exact double of moderate magnitude (|q| < 2^52). */
static double rne(double q)
{
    double f = floor(q), r = q - f;
    if (r > 0.5) return f + 1.0;
    if (r < 0.5) return f;
    return fmod(f, 2.0) == 0.0 ? f : f + 1.0;
}

static int8_t clamp_i8(double v, double lo, double hi)
{
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return (int8_t)v;
}

/* log2 of a positive finite float as a correctly rounded float32 (double log2 then one rounding). */
static float log2_f32(double amax) { return (float)log2(amax); }

/* ---- decode ----------------------------------------------------------------------------- */

/* mase-cuda's CUDA dequantize kernel (numerics.md section 2): build bf16 bits from the code, then subtract the
** implicit leading one in bf16 arithmetic unless bit 6 of the magnitude supplies it. */
static uint16_t mase_cuda_decode_bf16(uint8_t e, int8_t m)
{
    int a = m < 0 ? -(int)m : (int)m; /* 128 for -128 */
    uint16_t s = m < 0 ? 0x8000u : 0u;
    uint16_t out = (uint16_t)(s | (uint16_t)(e << 7) | (uint16_t)((a & 0x3F) << 1));
    uint16_t bias = (uint16_t)(s | (uint16_t)(e << 7));
    if (a & 0x40) return out;
    float diff = mxsim_bf16_to_f32(out) - mxsim_bf16_to_f32(bias); /* exact (Sterbenz) or NaN */
    return mxsim_f32_to_bf16(diff);
}

MXSIM_API float mxsim_decode_f32(mxsim_profile p, uint8_t scale, int8_t m)
{
    switch (p) {
    case MXSIM_PROFILE_OCP:
    case MXSIM_PROFILE_MICROXCALING:
        if (scale == 0xFF) return NAN;
        return ldexpf((float)m, (int)scale - 133); /* exact; (254, -128) overflows to -Inf */
    case MXSIM_PROFILE_MASE:
        if (scale == 0xFF) return m == 0 ? NAN : copysignf(INFINITY, (float)m); /* m/128 * 2^128 */
        return ldexpf((float)m, (int)scale - 134);
    case MXSIM_PROFILE_MASE_CUDA:
        return mxsim_bf16_to_f32(mase_cuda_decode_bf16(scale, m));
    default:
        return NAN;
    }
}

MXSIM_API uint16_t mxsim_decode_bf16(mxsim_profile p, uint8_t scale, int8_t m)
{
    if (p == MXSIM_PROFILE_MASE_CUDA) return mase_cuda_decode_bf16(scale, m);
    /* The other decodes are exact in float32 (MASE byte 0 included: m * 2^-134 >= 2^-149), so
    ** one RNE to bf16 is the single rounding of the exact value. */
    return mxsim_f32_to_bf16(mxsim_decode_f32(p, scale, m));
}

void mxsim_scale_to_ocp(mxsim_profile p, uint8_t scale, int *e_ocp, int *is_nan)
{
    int nan = scale == 0xFF;
    int e = p == MXSIM_PROFILE_MASE ? (int)scale - 1 : (int)scale;
    if (is_nan) *is_nan = nan;
    if (e_ocp) *e_ocp = nan ? 0 : e;
}

/* ---- quantize ----------------------------------------------------------------------------- */

static void nan_block(size_t n, uint8_t *scale, int8_t *m)
{
    *scale = 0xFF;
    memset(m, 0, n);
}

static int block_nonfinite(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 1;
    return 0;
}

static double block_amax(const float *x, size_t n)
{
    double amax = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs((double)x[i]) > amax) amax = fabs((double)x[i]);
    return amax;
}

/* OCP / gfloat (numerics.md section 3): exact floor(log2 amax), clipped to [-127, 127]; RNE; saturate to
** [-128, 127].  An all-zero block gets 2^-127 (byte 0). */
static void quant_ocp(const float *x, size_t n, uint8_t *scale, int8_t *m, int *zero_neg)
{
    if (block_nonfinite(x, n)) return nan_block(n, scale, m);
    double amax = block_amax(x, n);
    int e = amax == 0.0 ? -127 : ilogb(amax);
    if (e < -127) e = -127;
    if (e > 127) e = 127;
    *scale = (uint8_t)(e + 127);
    for (size_t i = 0; i < n; i++) {
        m[i] = clamp_i8(rne(ldexp((double)x[i], 6 - e)), -128.0, 127.0);
        if (zero_neg) zero_neg[i] = 0;
    }
}

/* MASE (numerics.md sections 3 and 5.3): S = ceil(log2 amax) evaluated in the input dtype; byte = S + 127 (its own
** bias); mantissas on the 2^(S-7) grid, RNE, clamp [-128, 127].  S = 128 divides by +Inf. */
static void quant_mase(const float *x, size_t n, int is_bf16, uint8_t *scale, int8_t *m,
                       int *zero_neg)
{
    if (block_nonfinite(x, n)) return nan_block(n, scale, m);
    double amax = block_amax(x, n);
    if (amax < 0x1p-126) amax = 0x1p-126; /* finfo(dtype).tiny for fp32 and bf16 */
    double l2 = round_dtype(log2_f32(amax), is_bf16);
    int s = (int)ceil(l2);
    int byte = s + 127;
    if (byte > 255) byte = 255;
    *scale = (uint8_t)byte;
    for (size_t i = 0; i < n; i++) {
        double q = s >= 128 ? 0.0 : rne(ldexp((double)x[i], 7 - s));
        m[i] = clamp_i8(q, -128.0, 127.0);
        if (zero_neg) zero_neg[i] = m[i] == 0 && signbit(x[i]); /* torch.round keeps -0 */
    }
}

/* mase-cuda's torch quantizer (numerics.md section 3): round to bf16, flush |w| < 2^-126, E = largest exponent
** field, symmetric RNE magnitudes in [0, 127]. */
static void quant_mase_cuda(const float *x, size_t n, uint8_t *scale, int8_t *m, int *zero_neg)
{
    int emax = 0;
    for (size_t i = 0; i < n; i++) {
        float w = mxsim_bf16_to_f32(mxsim_f32_to_bf16(x[i]));
        if (fabsf(w) < 0x1p-126f) w = 0.0f;
        uint32_t u;
        memcpy(&u, &w, sizeof u);
        int fe = (int)((u >> 23) & 0xFF);
        if (fe > emax) emax = fe;
    }
    *scale = (uint8_t)emax;
    for (size_t i = 0; i < n; i++) {
        if (zero_neg) zero_neg[i] = 0;
        if (emax == 0 || emax == 255) { /* zero group, or NaN/Inf group: mantissas 0 */
            m[i] = 0;
            continue;
        }
        double w = mxsim_bf16_to_f32(mxsim_f32_to_bf16(x[i]));
        if (fabs(w) < 0x1p-126) w = 0.0;
        double mag = rne(ldexp(fabs(w), 6 - (emax - 127)));
        if (mag > 127.0) mag = 127.0;
        m[i] = (int8_t)(w < 0 ? -mag : mag);
    }
}

/* microxcaling Python path (numerics.md sections 3 and 5.3): floor(log2 amax) in the input dtype; the add of round-half-away
** rounds in the dtype too; symmetric clamp +-127. */
static void quant_mx(const float *x, size_t n, int is_bf16, uint8_t *scale, int8_t *m,
                     int *zero_neg)
{
    if (block_nonfinite(x, n)) return nan_block(n, scale, m);
    double amax = block_amax(x, n);
    if (amax == 0.0) amax = 0x1p-126;
    double l2 = round_dtype(log2_f32(amax), is_bf16);
    int se = (int)floor(l2);
    if (se > 127) return nan_block(n, scale, m);
    if (se < -127) se = -127;
    *scale = (uint8_t)(se + 127);
    for (size_t i = 0; i < n; i++) {
        double a = round_dtype(ldexp((double)x[i], -se), is_bf16); /* may underflow to +-0 */
        double q = fabs(a) * 64.0;                                 /* exact */
        double f = floor(round_dtype(q + 0.5, is_bf16));
        if (f > 127.0) f = 127.0;
        m[i] = (int8_t)(a < 0 ? -f : f);
        if (zero_neg) zero_neg[i] = m[i] == 0 && a < 0; /* torch.sign(-0.0) is 0 */
    }
}

mxsim_status mx_quantize_f32(mxsim_profile p, int is_bf16, const float *x, size_t n,
                             uint8_t *scale, int8_t *m, int *zero_neg)
{
    switch (p) {
    case MXSIM_PROFILE_OCP: quant_ocp(x, n, scale, m, zero_neg); break;
    case MXSIM_PROFILE_MASE: quant_mase(x, n, is_bf16, scale, m, zero_neg); break;
    case MXSIM_PROFILE_MASE_CUDA: quant_mase_cuda(x, n, scale, m, zero_neg); break;
    case MXSIM_PROFILE_MICROXCALING: quant_mx(x, n, is_bf16, scale, m, zero_neg); break;
    default: return MXSIM_E_ARG;
    }
    return MXSIM_OK;
}

/* Widens the input block to float (bf16 -> f32 is exact); `buf` holds n floats. */
static const float *load_block(mxsim_dtype dt, const void *in, size_t n, float *buf)
{
    if (dt == MXSIM_DTYPE_F32) return in;
    const uint16_t *b = in;
    for (size_t i = 0; i < n; i++) buf[i] = mxsim_bf16_to_f32(b[i]);
    return buf;
}

static int valid_block_args(mxsim_profile p, mxsim_dtype dt, const void *in, size_t n)
{
    return (int)p >= 0 && p < MXSIM_PROFILE_COUNT_ &&
           (dt == MXSIM_DTYPE_F32 || dt == MXSIM_DTYPE_BF16) && in != NULL && n >= 1 &&
           n <= MXSIM_MAX_GROUP;
}

MXSIM_API mxsim_status mxsim_quantize_block(mxsim_profile p, mxsim_dtype in_dtype, const void *in,
                                            size_t n, uint8_t *scale, int8_t *mantissa)
{
    if (!valid_block_args(p, in_dtype, in, n) || scale == NULL || mantissa == NULL)
        return MXSIM_E_ARG;
    float *buf = in_dtype == MXSIM_DTYPE_F32 ? NULL : mx_malloc(n, sizeof *buf);
    if (in_dtype != MXSIM_DTYPE_F32 && buf == NULL) return MXSIM_E_NOMEM;
    const float *x = load_block(in_dtype, in, n, buf);
    mxsim_status st = mx_quantize_f32(p, in_dtype == MXSIM_DTYPE_BF16, x, n, scale, mantissa, NULL);
    free(buf);
    return st;
}

mxsim_status mx_fake_quant_f32(mxsim_profile p, int is_bf16, const float *x, size_t n, float *out,
                               int8_t *m_tmp, int *neg_tmp)
{
    uint8_t scale;
    mxsim_status st = mx_quantize_f32(p, is_bf16, x, n, &scale, m_tmp, neg_tmp);
    if (st != MXSIM_OK) return st;
    for (size_t i = 0; i < n; i++) {
        float v = is_bf16 ? mxsim_bf16_to_f32(mxsim_decode_bf16(p, scale, m_tmp[i]))
                          : mxsim_decode_f32(p, scale, m_tmp[i]);
        if (neg_tmp[i] && v == 0.0f) v = -0.0f;
        out[i] = v;
    }
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_fake_quant_block(mxsim_profile p, mxsim_dtype dtype, const void *in,
                                              size_t n, void *out)
{
    if (!valid_block_args(p, dtype, in, n) || out == NULL) return MXSIM_E_ARG;
    float *buf = mx_malloc(n, 2 * sizeof(float));
    int8_t *m = mx_malloc(n, 1);
    int *neg = mx_malloc(n, sizeof *neg);
    mxsim_status st = MXSIM_E_NOMEM;
    if (buf && m && neg) {
        const float *x = load_block(dtype, in, n, buf);
        float *res = buf + n;
        st = mx_fake_quant_f32(p, dtype == MXSIM_DTYPE_BF16, x, n, res, m, neg);
        if (st == MXSIM_OK && dtype == MXSIM_DTYPE_F32) memcpy(out, res, n * sizeof(float));
        if (st == MXSIM_OK && dtype == MXSIM_DTYPE_BF16)
            for (size_t i = 0; i < n; i++) ((uint16_t *)out)[i] = mxsim_f32_to_bf16(res[i]);
    }
    free(buf);
    free(m);
    free(neg);
    return st;
}

/* ref_numerics.h - independent reference model of the MXINT8 numerics, for the unit tests only.
**
** Written from sim/doc/numerics.md (sections 1-3 and the edge cases of section 5), without
** looking at the library's implementation.  It is
** deliberately "straightforward" rather than fast:
**   - values are built exactly in double (ldexp) or as (sign, integer, power of two);
**   - rounding to binary32 / bfloat16 is done by integer arithmetic on an exact (M, k) form
**     (value = M * 2^k), never by the usual "add 0x7FFF + lsb" bit trick and never by a cast;
**   - every quantizer follows the profile's table column of numerics.md section 3 step by step.
** Formats: `bf16` flags select bfloat16 (8 significant bits) or binary32 (24); both have an 8-bit
** exponent field with bias 127, so emin = -126 and the smallest subnormal is 2^(-126-(p-1)).
*/
#ifndef REF_NUMERICS_H
#define REF_NUMERICS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mxsim.h"

/* ---- rounding of an exact value M * 2^k (M > 0 integer) to bf16 / f32 bits, RNE ------------- */

/* Significand bits (incl. the hidden one) and fraction-field width of the target format. */
static inline int ref_prec(int bf16) { return bf16 ? 8 : 24; }

/* Returns the bit pattern (16 or 32 bits) of RNE(+-M * 2^k), gradual underflow, overflow to Inf. */
static inline uint32_t ref_round_mk(int neg, uint64_t M, int k, int bf16)
{
    const int p = ref_prec(bf16), fbits = p - 1;
    const uint32_t sign = neg ? (uint32_t)1 << (fbits + 8) : 0;
    if (M == 0) return sign;
    int bl = 0; /* bit length of M */
    for (uint64_t t = M; t; t >>= 1) bl++;
    const int lead = k + bl - 1;        /* floor(log2 value) */
    int qe = lead - (p - 1);            /* exponent of the unit in the last place */
    const int qmin = -126 - (p - 1);    /* subnormal quantum */
    if (qe < qmin) qe = qmin;
    const int sh = qe - k;              /* value / 2^qe = M / 2^sh */
    uint64_t N;
    if (sh <= 0) {
        N = M << (-sh); /* fits: N < 2^p */
    } else if (sh > bl) {
        N = 0; /* below half a quantum */
    } else if (sh == bl) {
        /* value in [2^(qe-1), 2^qe): exactly half iff M is a power of two -> tie to even (0) */
        N = (M & (M - 1)) ? 1 : 0;
    } else {
        const uint64_t rem = M & (((uint64_t)1 << sh) - 1), half = (uint64_t)1 << (sh - 1);
        N = M >> sh;
        if (rem > half || (rem == half && (N & 1))) N++;
    }
    if (N == ((uint64_t)1 << p)) { /* carried into the next binade */
        N >>= 1;
        qe++;
    }
    if (N == 0) return sign;
    if (N < ((uint64_t)1 << fbits)) return sign | (uint32_t)N; /* subnormal (qe == qmin) */
    const int biased = qe + fbits + 127;
    if (biased >= 255) return sign | ((uint32_t)0xFF << fbits); /* overflow -> Inf */
    return sign | ((uint32_t)biased << fbits) | (uint32_t)(N - ((uint64_t)1 << fbits));
}

/* Canonical quiet NaN bits of the format (sign +). */
static inline uint32_t ref_nan_bits(int bf16) { return bf16 ? 0x7FC0u : 0x7FC00000u; }

/* Rounds a double (taken apart from its own bits) to bf16/f32 bits.  NaN -> canonical NaN. */
static inline uint32_t ref_round_double(double v, int bf16)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    const int neg = (int)(u >> 63);
    const int ex = (int)((u >> 52) & 0x7FF);
    const uint64_t frac = u & (((uint64_t)1 << 52) - 1);
    const int fbits = ref_prec(bf16) - 1;
    if (ex == 0x7FF) {
        if (frac) return ref_nan_bits(bf16);
        return (neg ? (uint32_t)1 << (fbits + 8) : 0) | ((uint32_t)0xFF << fbits);
    }
    if (ex == 0) return ref_round_mk(neg, frac, -1074, bf16); /* zero or double subnormal */
    return ref_round_mk(neg, frac | ((uint64_t)1 << 52), ex - 1075, bf16);
}

/* Exact value of a bf16 / f32 bit pattern, computed from its fields (NaN -> NAN, +-Inf). */
static inline double ref_bits_value(uint32_t b, int bf16)
{
    const int fbits = ref_prec(bf16) - 1;
    const int neg = (int)((b >> (fbits + 8)) & 1);
    const int ex = (int)((b >> fbits) & 0xFF);
    const uint32_t frac = b & (((uint32_t)1 << fbits) - 1);
    double v;
    if (ex == 0xFF) v = frac ? NAN : INFINITY;
    else if (ex == 0) v = ldexp((double)frac, -126 - fbits);
    else v = ldexp((double)(frac | ((uint32_t)1 << fbits)), ex - 127 - fbits);
    return neg ? -v : v; /* -(+0.0) is -0.0 */
}

static inline float ref_f32_from_bits(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}
static inline uint32_t ref_f32_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* v rounded to the dtype, returned as the (exact) double value of the result. */
static inline double ref_rn(double v, int bf16) { return ref_bits_value(ref_round_double(v, bf16), bf16); }

/* float32 -> bf16 bits, RNE, subnormals kept; NaN -> quiet NaN, same sign, top payload kept. */
static inline uint16_t ref_f32_to_bf16(float x)
{
    const uint32_t b = ref_f32_bits(x);
    if ((b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu)) return (uint16_t)((b >> 16) | 0x0040u);
    return (uint16_t)ref_round_double((double)x, 1); /* float -> double is exact */
}

/* The value of bf16 bits as a float (exact; via the field decoder, then f32 RNE = exact). */
static inline float ref_bf16_value_f32(uint16_t b)
{
    const double v = ref_bits_value(b, 1);
    if (isnan(v)) return NAN;
    return ref_f32_from_bits(ref_round_double(v, 0));
}

/* ---- decode ------------------------------------------------------------------------------ */

/* mase-cuda's CUDA kernel recipe (numerics.md section 2), bit by bit. */
static inline uint16_t ref_decode_mase_cuda(uint8_t E, int8_t m)
{
    const unsigned s = m < 0 ? 0x8000u : 0u;
    const unsigned a = m < 0 ? (unsigned)(-(int)m) : (unsigned)m; /* 128 for -128 */
    const uint16_t out = (uint16_t)(s | ((unsigned)E << 7) | ((a & 63u) << 1));
    const uint16_t bias = (uint16_t)(s | ((unsigned)E << 7));
    if (a & 64u) return out;
    /* float(out) - float(bias), rounded to bf16.  Both are bf16 values, so the double difference
    ** is exact (Sterbenz for 1 <= E <= 254; E = 0: bias is +-0); x - x = +0 in RNE. */
    const double d = ref_bits_value(out, 1) - ref_bits_value(bias, 1);
    return (uint16_t)ref_round_double(d, 1);
}

/* Exact decoded value (before rounding to an output format) of (scale, m) for OCP, MASE and
** microxcaling (numerics.md section 2).  NaN / Inf as the table says. */
static inline double ref_decode_exact(mxsim_profile p, uint8_t scale, int8_t m)
{
    if (p == MXSIM_PROFILE_MASE) {
        if (scale == 255) return m == 0 ? NAN : (m < 0 ? -INFINITY : INFINITY);
        return ldexp((double)m, (int)scale - 134);
    }
    /* OCP and microxcaling */
    if (scale == 255) return NAN;
    return ldexp((double)m, (int)scale - 133);
}

static inline uint16_t ref_decode_bf16(mxsim_profile p, uint8_t scale, int8_t m)
{
    if (p == MXSIM_PROFILE_MASE_CUDA) return ref_decode_mase_cuda(scale, m);
    return (uint16_t)ref_round_double(ref_decode_exact(p, scale, m), 1);
}

static inline float ref_decode_f32(mxsim_profile p, uint8_t scale, int8_t m)
{
    if (p == MXSIM_PROFILE_MASE_CUDA) return ref_bf16_value_f32(ref_decode_mase_cuda(scale, m));
    return ref_f32_from_bits(ref_round_double(ref_decode_exact(p, scale, m), 0));
}

/* ---- log2 ------------------------------------------------------------------------------------
** RN_f32(log2 a) for a positive finite float a.  log2l works in the x87 80-bit format (64-bit
** significand); its result is then rounded once to binary32.  That equals the correctly rounded
** log2f unless log2(a) lies within about 2^-62 (relative) of a binary32 rounding midpoint.
** For a a power of two the result is an exact integer.  Otherwise log2(a) is irrational and
** only its position relative to the midpoints next to integers matters for ceil()/floor();
** the test ref_selfcheck_log2_* cross-checks this against the counts and thresholds that the
** reference document reports from running the upstream code, and the report of this test suite
** records an exhaustive comparison with the double-precision log2 over all positive floats. */
static inline double ref_log2_rn_f32(double a)
{
    const long double l = log2l((long double)a);
    return (double)(float)l; /* one rounding, long double -> binary32 */
}

/* RN_dtype(log2 a) as numerics.md defines it: f32 -> RN_f32; bf16 -> bf16(RN_f32(log2 a)). */
static inline double ref_log2_dtype(double a, int bf16)
{
    const double l = ref_log2_rn_f32(a);
    return bf16 ? ref_rn(l, 1) : l;
}

/* floor(log2 a), exact, for a > 0 finite (frexp: a = f * 2^ex, f in [0.5, 1)). */
static inline int ref_floor_log2(double a)
{
    int ex;
    (void)frexp(a, &ex);
    return ex - 1;
}

/* Round half to even of a double to an integer value, keeping the sign of zero. */
static inline double ref_rne_int(double q)
{
    const double a = fabs(q);
    double f = floor(a);
    const double d = a - f; /* exact for |q| < 2^52 */
    if (d > 0.5 || (d == 0.5 && fmod(f, 2.0) != 0.0)) f += 1.0;
    return copysign(f, q);
}

/* ---- quantizers (numerics.md section 3) --------------------------------------------------------
** Input: n values x[] (exact values of f32 or bf16 inputs, as doubles).  Output: the scale byte, n
** mantissas and the fake-quant output as exact doubles (NaN / +-0 / +-Inf meaningful), before
** conversion to the output dtype (which the caller does with ref_round_double). */

static inline int ref_block_has_nonfinite(const double *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(x[i])) return 1;
    return 0;
}

static inline void ref_nan_block(size_t n, uint8_t *scale, int8_t *m, double *dq)
{
    *scale = 0xFF;
    for (size_t i = 0; i < n; i++) {
        m[i] = 0;
        dq[i] = NAN;
    }
}

/* OCP (gfloat): floor exponent, RNE, clamp [-128, 127]; fake quant = decode of the codes. */
static inline void ref_quant_ocp(const double *x, size_t n, uint8_t *scale, int8_t *m, double *dq)
{
    if (ref_block_has_nonfinite(x, n)) {
        ref_nan_block(n, scale, m, dq);
        return;
    }
    double amax = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > amax) amax = fabs(x[i]);
    int e = amax == 0.0 ? -127 : ref_floor_log2(amax);
    if (e < -127) e = -127;
    if (e > 127) e = 127;
    *scale = (uint8_t)(e + 127);
    for (size_t i = 0; i < n; i++) {
        double r = ref_rne_int(ldexp(x[i], 6 - e));
        if (r > 127) r = 127;
        if (r < -128) r = -128;
        m[i] = (int8_t)r;
        dq[i] = ref_decode_exact(MXSIM_PROFILE_OCP, *scale, m[i]); /* codes: no -0 */
    }
}

/* MASE software quantizer: amax >= 2^-126, S = ceil(RN_dtype(log2 amax)), q = x * 2^(7-S), RNE,
** clamp [-128, 127], byte = min(S + 127, 255); dq = r/128 * 2^(byte-127) keeps -0.0; S = 128 makes
** q = +-0 and dq = +-0 * Inf = NaN. */
static inline void ref_quant_mase(int bf16, const double *x, size_t n, uint8_t *scale, int8_t *m,
                                  double *dq)
{
    if (ref_block_has_nonfinite(x, n)) {
        ref_nan_block(n, scale, m, dq);
        return;
    }
    double amax = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > amax) amax = fabs(x[i]);
    if (amax < 0x1p-126) amax = 0x1p-126;
    const int S = (int)ceil(ref_log2_dtype(amax, bf16));
    int byte = S + 127;
    if (byte > 255) byte = 255;
    if (byte < 0) byte = 0;
    *scale = (uint8_t)byte;
    for (size_t i = 0; i < n; i++) {
        /* x / 2^S * 128.  In the dtype, x / 2^S may underflow for tiny x, but then |q| < 2^-119
        ** and the RNE result is the same signed zero; S = 128: x / Inf = +-0. */
        const double q = S >= 128 ? copysign(0.0, x[i]) : ldexp(x[i], 7 - S);
        double r = ref_rne_int(q);
        if (r > 127) r = 127;
        if (r < -128) r = -128;
        m[i] = (int8_t)r;
        dq[i] = byte == 255 ? NAN : ldexp(r, byte - 134); /* ldexp keeps -0.0 */
    }
}

/* mase-cuda torch quantizer: f32 -> bf16, flush |x| < 2^-126, E = max exponent field (0 for an
** all-zero block, 255 with Inf/NaN), q = |x| * 2^(6-(E-127)), RNE, clamp [0,127], times sign;
** fake quant = the CUDA kernel's decode of the codes (bf16 values). */
static inline void ref_quant_mase_cuda(int bf16, const double *x, size_t n, uint8_t *scale,
                                       int8_t *m, double *dq)
{
    int nonfinite = 0, E = 0;
    for (size_t i = 0; i < n; i++) {
        double xr = bf16 ? x[i] : ref_rn(x[i], 1);
        if (!isfinite(xr)) {
            nonfinite = 1;
            continue;
        }
        if (fabs(xr) < 0x1p-126) continue; /* flushed */
        const int f = ref_floor_log2(fabs(xr)) + 127;
        if (f > E) E = f;
    }
    if (nonfinite) {
        ref_nan_block(n, scale, m, dq);
        return;
    }
    *scale = (uint8_t)E;
    for (size_t i = 0; i < n; i++) {
        double xr = bf16 ? x[i] : ref_rn(x[i], 1);
        if (fabs(xr) < 0x1p-126) xr = 0.0;
        double r = E == 0 ? 0.0 : ref_rne_int(ldexp(fabs(xr), 6 - (E - 127)));
        if (r > 127) r = 127;
        const int mi = xr < 0 ? -(int)r : (int)r;
        m[i] = (int8_t)mi;
        dq[i] = ref_bits_value(ref_decode_mase_cuda((uint8_t)E, m[i]), 1);
    }
}

/* microxcaling Python path: amax (+2^-126 if 0), se = floor(RN_dtype(log2 amax)), se > 127 -> NaN
** block, se < -127 -> -127; q = RN_dtype(|x| * 2^(6-se)); t = floor(RN_dtype(q + 0.5)), clamp 127;
** m = sign * t; dq = m * 2^(se-6), and -0.0 when x < 0, t = 0 and RN_dtype(x * 2^-se) != 0. */
static inline void ref_quant_microxcaling(int bf16, const double *x, size_t n, uint8_t *scale,
                                          int8_t *m, double *dq)
{
    if (ref_block_has_nonfinite(x, n)) {
        ref_nan_block(n, scale, m, dq);
        return;
    }
    double amax = 0.0;
    for (size_t i = 0; i < n; i++)
        if (fabs(x[i]) > amax) amax = fabs(x[i]);
    if (amax == 0.0) amax = 0x1p-126;
    int se = (int)floor(ref_log2_dtype(amax, bf16));
    if (se > 127) {
        ref_nan_block(n, scale, m, dq);
        return;
    }
    if (se < -127) se = -127;
    *scale = (uint8_t)(se + 127);
    for (size_t i = 0; i < n; i++) {
        const double quot = ref_rn(ldexp(x[i], -se), bf16);
        const double q = ref_rn(ldexp(fabs(x[i]), 6 - se), bf16);
        /* q + 0.5 is exact in double whenever it matters (see the test report), then RN_dtype */
        double t = floor(ref_rn(q + 0.5, bf16));
        if (t > 127) t = 127;
        const int mi = x[i] < 0 ? -(int)t : (int)t;
        m[i] = (int8_t)mi;
        if (mi == 0) dq[i] = (x[i] < 0 && quot != 0.0) ? -0.0 : 0.0;
        else dq[i] = ldexp((double)mi, se - 6);
    }
}

static inline void ref_quantize(mxsim_profile p, int bf16, const double *x, size_t n,
                                uint8_t *scale, int8_t *m, double *dq)
{
    switch (p) {
    case MXSIM_PROFILE_OCP: ref_quant_ocp(x, n, scale, m, dq); break;
    case MXSIM_PROFILE_MASE: ref_quant_mase(bf16, x, n, scale, m, dq); break;
    case MXSIM_PROFILE_MASE_CUDA: ref_quant_mase_cuda(bf16, x, n, scale, m, dq); break;
    default: ref_quant_microxcaling(bf16, x, n, scale, m, dq); break;
    }
}

#endif

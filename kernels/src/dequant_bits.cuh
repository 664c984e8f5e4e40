/* dequant_bits.cuh - the MXINT8 -> bf16 decode used by dequantize.cu, written so that the host
** compiler can run the same code (an exhaustive CPU check against mxsim_decode_bf16 needs no GPU).
**
** ocp (numerics.md section 2): m * 2^(E-133), NaN for E = 255.  For every (E, m) the value is exact
** in float32 and in bf16 (|m| <= 128 has at most 8 significant bits; 2^(E-133) >= 2^-133 is bf16's
** subnormal ulp), (254, -128) overflows to -Inf under round-to-nearest.  So:
**   x = float bits 0x4B0000uu with uu = m + 128 (one XOR of the word with 0x80808080 and one PRMT
**       per byte) is 2^23 + 128 + m;  x - (2^23 + 128) = m exactly (FADD);
**   v = m * S with S = 2^(E-133) (float, subnormal for E < 7; NaN for E = 255) is exact, or -Inf
**       for (254, -128), or NaN (FMUL, no FTZ);
**   bf16(v) = the upper 16 bits of v: v is exactly representable in bf16, so its low 16 bits are 0
**       (and NaN stays NaN), and no rounding step is needed.  Two results pack with one PRMT.
** mase-cuda (the kernel's recipe, numerics.md section 2) equals ocp for 1 <= E <= 254 except that
**   m = -128 gives +0: for |m| >= 64 the recipe's `out` is exactly bf16(m * 2^(E-133)), and for
**   |m| < 64 `out - bias` is +-(|m| & 63) * 2^(E-133) = m * 2^(E-133).  m = -128 (byte 0x80, uu = 0)
**   becomes uu = 128 (m = 0, +0) by a SWAR zero-byte test.  E = 0 and E = 255 take the recipe
**   itself (dq_mase_ref), element by element.
*/
#ifndef MXK_DEQUANT_BITS_CUH
#define MXK_DEQUANT_BITS_CUH

#include <stdint.h>
#include <string.h>

#ifdef __CUDACC__
#define MXK_HD __host__ __device__ __forceinline__
#else
#define MXK_HD static inline
#endif

#define DQ_OCP 0
#define DQ_MASE_CUDA 2

MXK_HD uint32_t dq_perm(uint32_t x, uint32_t y, uint32_t s)
{
#ifdef __CUDA_ARCH__
    return __byte_perm(x, y, s);
#else
    const uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)((v >> (8 * ((s >> (4 * i)) & 7))) & 0xFF) << (8 * i);
    return r;
#endif
}
MXK_HD float dq_f(uint32_t u)
{
#ifdef __CUDA_ARCH__
    return __uint_as_float(u);
#else
    float f;
    memcpy(&f, &u, 4);
    return f;
#endif
}
MXK_HD uint32_t dq_u(float f)
{
#ifdef __CUDA_ARCH__
    return __float_as_uint(f);
#else
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
#endif
}
MXK_HD float dq_sub(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fsub_rn(a, b);
#else
    return a - b;
#endif
}
MXK_HD float dq_mul(float a, float b)
{
#ifdef __CUDA_ARCH__
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

/* S = 2^(E-133) for E in 0..254 (float subnormal below E = 7), NaN for E = 255. */
MXK_HD float dq_scale(uint32_t e)
{
    const uint32_t bits = e >= 7u ? (e - 6u) << 23 : 1u << (e + 16u);
    return dq_f(e == 255u ? 0x7FC00000u : bits);
}

/* Bytes equal to 0 (m = -128 after the XOR) become 0x80 (m = 0): mase-cuda's -128 -> +0. */
MXK_HD uint32_t dq_fix_m128(uint32_t u)
{
    const uint32_t t = (u & 0x7F7F7F7Fu) + 0x7F7F7F7Fu;
    return u | (~(t | u) & 0x80808080u);
}

/* Four mantissas (u = word ^ 0x80808080, little-endian) -> four bf16 in two words. */
MXK_HD void dq_word(uint32_t u, float S, uint32_t &lo, uint32_t &hi)
{
    const float C = 8388736.0f; /* 2^23 + 128 */
    const float f0 = dq_mul(dq_sub(dq_f(dq_perm(u, 0x4B000000u, 0x7650)), C), S);
    const float f1 = dq_mul(dq_sub(dq_f(dq_perm(u, 0x4B000000u, 0x7651)), C), S);
    const float f2 = dq_mul(dq_sub(dq_f(dq_perm(u, 0x4B000000u, 0x7652)), C), S);
    const float f3 = dq_mul(dq_sub(dq_f(dq_perm(u, 0x4B000000u, 0x7653)), C), S);
    lo = dq_perm(dq_u(f0), dq_u(f1), 0x7632);
    hi = dq_perm(dq_u(f2), dq_u(f3), 0x7632);
}

/* mase-cuda's recipe as written (numerics.c), for E = 0 and E = 255. */
MXK_HD uint32_t dq_mase_ref(uint32_t e, int m)
{
    const int a = m < 0 ? -m : m;
    const uint32_t s = m < 0 ? 0x8000u : 0u;
    const uint32_t out = s | (e << 7) | ((uint32_t)(a & 0x3F) << 1);
    if (a & 0x40) return out;
    const uint32_t bias = s | (e << 7);
    uint32_t u = dq_u(dq_sub(dq_f(out << 16), dq_f(bias << 16)));
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (u >> 16) | 0x0040u;
    u += 0x7FFFu + ((u >> 16) & 1u);
    return u >> 16;
}

/* Eight mantissas (two little-endian words) sharing scale byte e -> eight bf16 in o[0..3]. */
template <int P> MXK_HD void dq_decode8(uint32_t w0, uint32_t w1, uint32_t e, uint32_t *o)
{
    if (P == DQ_MASE_CUDA && (e == 0u || e == 255u)) {
        uint32_t r[8];
#pragma unroll
        for (int j = 0; j < 8; j++) r[j] = dq_mase_ref(e, (int)(int8_t)(uint8_t)((j < 4 ? w0 : w1) >> (8 * (j & 3))));
#pragma unroll
        for (int j = 0; j < 4; j++) o[j] = r[2 * j] | (r[2 * j + 1] << 16);
        return;
    }
    const float S = dq_scale(e);
    uint32_t u0 = w0 ^ 0x80808080u, u1 = w1 ^ 0x80808080u;
    if (P == DQ_MASE_CUDA) {
        u0 = dq_fix_m128(u0);
        u1 = dq_fix_m128(u1);
    }
    dq_word(u0, S, o[0], o[1]);
    dq_word(u1, S, o[2], o[3]);
}

/* One element (byte = the mantissa's two's-complement byte) with scale byte e. */
template <int P> MXK_HD uint32_t dq_elem(uint32_t e, uint32_t byte)
{
    if (P == DQ_MASE_CUDA && (e == 0u || e == 255u)) return dq_mase_ref(e, (int)(int8_t)(uint8_t)byte);
    uint32_t u = (byte & 0xFFu) ^ 0x80u;
    if (P == DQ_MASE_CUDA && u == 0u) u = 0x80u;
    const float v = dq_mul(dq_sub(dq_f(0x4B000000u | u), 8388736.0f), dq_scale(e));
    return dq_u(v) >> 16;
}

#endif

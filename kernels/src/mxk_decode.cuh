/* mxk_decode.cuh - device helpers shared by the two decode kernels (gemm_decode.cu, cfg 9, and
** gemm_decode_v1.cu, cfg 10): the scale-byte loads, and the exact term of
** the fp32 contract (the proofs are in gemm_decode.cu's header). */
#ifndef MXK_DECODE_CUH
#define MXK_DECODE_CUH

#include <stdint.h>

/* scale bytes: volatile, so that they are issued where written (before the weight stream) */
__device__ __forceinline__ uint32_t mxk_ld32v(const void *p)
{
    uint32_t v;
    asm volatile("ld.global.nc.u32 %0, [%1];\n" : "=r"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ uint32_t mxk_ld8v(const uint8_t *p)
{
    uint32_t v;
    asm volatile("ld.global.nc.u8 %0, [%1];\n" : "=r"(v) : "l"(p));
    return v;
}

/* f(E) = 2^(E-133) exactly (subnormal for E < 7), NaN for E = 255 */
__device__ __forceinline__ float mxk_dec_fac(int e)
{
    if (e == 255) return __int_as_float(0x7FC00000);
    return e >= 7 ? __int_as_float((e - 6) << 23) : __int_as_float(1 << (e + 16));
}
/* t = RN(d * 2^(EA+EB-266)) as (d * f(EA)) * f(EB): the first product exact, the second the rounding */
__device__ __forceinline__ float mxk_dec_term(int d, float fa, float fb)
{
    return __fmul_rn(__fmul_rn(__int2float_rn(d), fa), fb);
}
/* the swapped order where EA is in [235, 254] */
__device__ __forceinline__ float mxk_dec_term_sw(int d, float fa, float fb)
{
    const bool sw = fa >= 0x1p102f; /* EA in [235, 254] (NaN compares false) */
    return __fmul_rn(__fmul_rn(__int2float_rn(d), sw ? fb : fa), sw ? fa : fb);
}

#endif

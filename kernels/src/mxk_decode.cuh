/* mxk_decode.cuh - device helpers shared by the two decode kernels (gemm_decode.cu, cfg 9, and
** gemm_decode_v1.cu, cfg 10): the s8 tensor-core step, the scale-byte loads, and the exact term of
** the fp32 contract (the proofs are in gemm_decode.cu's header). */
#ifndef MXK_DECODE_CUH
#define MXK_DECODE_CUH

#include <stdint.h>

/* d += A (16x32 s8, 4 registers) . B (32x8 s8, 2 registers), s32 accumulate */
__device__ __forceinline__ void mxk_mma_s8(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                           uint32_t b0, uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

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

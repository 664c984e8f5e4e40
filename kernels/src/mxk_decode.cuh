/* mxk_decode.cuh - device helpers shared by the decode kernels (gemm_decode.cu, cfg 9,
** gemm_decode_v1.cu, cfg 10, gemm_decode_row.cu, cfg 12): the scale-byte loads, and the exact term of
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

#ifdef __cplusplus
#include <type_traits>
/* The kernel instance of a decode call: MS = 1 slab of 8 activation rows at M <= 8, 2 above; ONE
** at M = 1; GT = G (32, 64, 128 or 256, checked by the caller).  Calls
** f(integral_constant MS, integral_constant GT, bool_constant ONE) and returns its result. */
template <class F> static int mxk_decode_dispatch(int M, int G, F &&f)
{
    auto by_g = [&](auto ms, auto one) -> int {
        if (G == 32) return f(ms, std::integral_constant<int, 32>{}, one);
        if (G == 64) return f(ms, std::integral_constant<int, 64>{}, one);
        if (G == 128) return f(ms, std::integral_constant<int, 128>{}, one);
        return f(ms, std::integral_constant<int, 256>{}, one);
    };
    if (M == 1) return by_g(std::integral_constant<int, 1>{}, std::true_type{});
    if (M <= 8) return by_g(std::integral_constant<int, 1>{}, std::false_type{});
    return by_g(std::integral_constant<int, 2>{}, std::false_type{});
}
#endif

#endif

/* mxk_common.cuh - device helpers shared by the kernels: exact powers of two, bf16 rounding
** identical to mxsim_f32_to_bf16, and the contract's term t = RN_f32(d * 2^s). */
#ifndef MXK_COMMON_CUH
#define MXK_COMMON_CUH

#include <cuda_runtime.h>
#include <stdint.h>

#include "mxk.h"

/* 2^k as a float, exact for k in [-149, 127] (subnormal below -126). */
__device__ __forceinline__ float mxk_pow2f(int k)
{
    return k >= -126 ? __int_as_float((k + 127) << 23) : __int_as_float(1 << (k + 149));
}

/* 2^k as a double, exact for k in [-1022, 1023]. */
__device__ __forceinline__ double mxk_pow2d(int k)
{
    return __longlong_as_double((long long)(k + 1023) << 52);
}

/* float32 -> bf16 bits, RNE, subnormals kept, NaN quieted: the C model's mxsim_f32_to_bf16. */
__device__ __forceinline__ uint16_t mxk_f32_to_bf16(float x)
{
    uint32_t u = __float_as_uint(x);
    if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7FFFu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

__device__ __forceinline__ float mxk_bf16_to_f32(uint16_t b)
{
    return __uint_as_float((uint32_t)b << 16);
}

/* The contract's term for one group: NaN if a scale is NaN, else RN_f32(d * 2^(ea+eb-266)),
** computed exactly in double (|d| < 2^31, s in [-266, 242]) and rounded once. */
__device__ __forceinline__ float mxk_term_exact(int d, int ea, int eb)
{
    if (ea == 255 || eb == 255) return __int_as_float(0x7FC00000);
    double v = __dmul_rn((double)d, mxk_pow2d(ea + eb - 266));
    return __double2float_rn(v);
}

static inline int mxk_err(cudaError_t e) { return (int)e; }

/* The current device's limits that the launchers decide by (host side, mxk_device.cu; MXK_EMULATE
** lowers them to another card's).  All zero when no device answers. */
struct MxkCaps {
    int cc;         /* compute capability, 10 * major + minor */
    int sms;        /* streaming multiprocessors */
    int smem_optin; /* bytes of dynamic shared memory one block may opt in to */
};
MxkCaps mxk_caps();

/* mma.sync m16n8k32: d += A (16x32 s8, 4 registers) . B (32x8 s8, 2 registers), s32 accumulate */
__device__ __forceinline__ void mxk_mma_s8(int (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                           uint32_t b0, uint32_t b1)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

#endif

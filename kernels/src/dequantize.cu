/* dequantize.cu - MXINT8 -> bf16 for the `ocp` and `mase-cuda` profiles (numerics.md section 2).
**
** Vector path: each thread loads 4 x 16 mantissas (16-byte loads, all issued before the first
** use) and writes 16 bf16 values per vector (two 16-byte stores); when 16 | G all 16 share one
** scale byte, else each element finds its own group.  A scalar kernel handles the tail
** (n mod 16) and misaligned pointers.
**   ocp:       E = 255 -> NaN; else m * 2^(E-133) (exact in float32 and in bf16; (254, -128)
**              overflows to -Inf), then the C model's RNE to bf16.
**   mase-cuda: the kernel's bit recipe: out = s | E<<7 | (a&63)<<1, and unless a & 64,
**              bf16(float(out) - float(bias)) with bias = s | E<<7 (no FTZ). */
#include "mxk_common.cuh"

template <int P>
__device__ __forceinline__ uint16_t decode1(uint32_t e, int m)
{
    if (P == MXK_PROFILE_OCP) {
        if (e == 255u) return 0x7FC0u;
        return mxk_f32_to_bf16(__fmul_rn((float)m, mxk_pow2f((int)e - 133)));
    } else {
        const int a = m < 0 ? -m : m;
        const uint32_t s = m < 0 ? 0x8000u : 0u;
        const uint32_t out = s | (e << 7) | (uint32_t)((a & 0x3F) << 1);
        if (a & 0x40) return (uint16_t)out;
        const uint32_t bias = s | (e << 7);
        return mxk_f32_to_bf16(__fsub_rn(mxk_bf16_to_f32((uint16_t)out), mxk_bf16_to_f32((uint16_t)bias)));
    }
}

#define DQ_UNROLL 4 /* 16-byte vectors per thread, all loads issued before the first use */

template <int P, bool SAME_SCALE>
__global__ void __launch_bounds__(256) dequant_vec16(const int4 *__restrict__ mant,
                                                     const uint8_t *__restrict__ scale,
                                                     int64_t n_vec, int64_t G, uint4 *__restrict__ out)
{
    const int64_t v0 = (int64_t)blockIdx.x * (256 * DQ_UNROLL) + threadIdx.x;
    int4 raw[DQ_UNROLL];
    uint32_t es[DQ_UNROLL];
#pragma unroll
    for (int u = 0; u < DQ_UNROLL; u++) {
        const int64_t v = v0 + u * 256;
        raw[u] = v < n_vec ? __ldg(mant + v) : make_int4(0, 0, 0, 0);
        es[u] = (SAME_SCALE && v < n_vec) ? __ldg(scale + v * 16 / G) : 0;
    }
#pragma unroll
    for (int u = 0; u < DQ_UNROLL; u++) {
        const int64_t v = v0 + u * 256;
        if (v >= n_vec) break;
        const uint32_t w[4] = {(uint32_t)raw[u].x, (uint32_t)raw[u].y, (uint32_t)raw[u].z, (uint32_t)raw[u].w};
        const int64_t i0 = v * 16;
        uint32_t o[8];
#pragma unroll
        for (int j = 0; j < 16; j += 2) {
            const int m0 = (int)(int8_t)(w[j >> 2] >> ((j & 3) * 8));
            const int m1 = (int)(int8_t)(w[(j + 1) >> 2] >> (((j + 1) & 3) * 8));
            uint32_t ea = es[u], eb = es[u];
            if (!SAME_SCALE) {
                ea = __ldg(scale + (i0 + j) / G);
                eb = __ldg(scale + (i0 + j + 1) / G);
            }
            o[j >> 1] = (uint32_t)decode1<P>(ea, m0) | ((uint32_t)decode1<P>(eb, m1) << 16);
        }
        out[2 * v] = make_uint4(o[0], o[1], o[2], o[3]);
        out[2 * v + 1] = make_uint4(o[4], o[5], o[6], o[7]);
    }
}

template <int P>
__global__ void dequant_scalar(const int8_t *mant, const uint8_t *scale, int64_t lo, int64_t n,
                               int64_t G, uint16_t *out)
{
    int64_t i = lo + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) out[i] = decode1<P>(scale[i / G], (int)mant[i]);
}

template <int P>
static int launch(const int8_t *m, const uint8_t *s, int64_t n, int64_t G, uint16_t *out,
                  cudaStream_t st)
{
    const bool aligned = ((uintptr_t)m % 16 == 0) && ((uintptr_t)out % 16 == 0);
    int64_t n_vec = aligned ? n / 16 : 0;
    if (n_vec > 0) {
        const int64_t blocks = (n_vec + 256 * DQ_UNROLL - 1) / (256 * DQ_UNROLL);
        if (blocks > 0x7FFFFFFF) return (int)cudaErrorInvalidValue;
        if (G % 16 == 0)
            dequant_vec16<P, true><<<(unsigned)blocks, 256, 0, st>>>((const int4 *)m, s, n_vec, G, (uint4 *)out);
        else
            dequant_vec16<P, false><<<(unsigned)blocks, 256, 0, st>>>((const int4 *)m, s, n_vec, G, (uint4 *)out);
    }
    const int64_t lo = n_vec * 16;
    if (lo < n) {
        int64_t blocks = (n - lo + 255) / 256;
        if (blocks > 65536) blocks = 65536;
        dequant_scalar<P><<<(unsigned)blocks, 256, 0, st>>>(m, s, lo, n, G, out);
    }
    return mxk_err(cudaGetLastError());
}

extern "C" int mxk_dequantize_bf16(int profile, const int8_t *mantissa, const uint8_t *scale,
                                   int64_t n, int64_t G, uint16_t *out, mxk_stream stream)
{
    if (!mantissa || !scale || !out || n < 1 || G < 1 || G > 65536 || n % G != 0)
        return (int)cudaErrorInvalidValue;
    cudaStream_t st = (cudaStream_t)stream;
    if (profile == MXK_PROFILE_OCP) return launch<MXK_PROFILE_OCP>(mantissa, scale, n, G, out, st);
    if (profile == MXK_PROFILE_MASE_CUDA)
        return launch<MXK_PROFILE_MASE_CUDA>(mantissa, scale, n, G, out, st);
    return (int)cudaErrorInvalidValue;
}

/* quantize.cu - OCP MXINT8 quantizer (sim/doc/numerics.md section 3, `ocp` column).
**
** One warp per group (any G): lanes stride through the group, a warp reduction finds the
** largest magnitude and whether any element is NaN or Inf.  The scale byte is the biased
** exponent field of amax (floor(log2 amax) + 127, which is 0 for zero or subnormal maxima:
** the clip at -127), mantissas are RNE(x * 2^(6-e)) clamped to [-128, 127].  The scaling is
** exact: x * 2^(6-e) is one multiply by a normal power of two, or two when 6-e > 127; results
** that underflow are below 2^-126 and round to 0 either way. */
#include "mxk_common.cuh"

template <bool BF16>
__device__ __forceinline__ float load_in(const void *in, int64_t i)
{
    if (BF16) return mxk_bf16_to_f32(__ldg((const unsigned short *)in + i));
    return __ldg((const float *)in + i);
}

template <bool BF16>
__global__ void __launch_bounds__(256) quantize_ocp_kernel(const void *in, int64_t n_groups,
                                                           int64_t G, int8_t *mant, uint8_t *scale)
{
    const int lane = threadIdx.x & 31;
    int64_t g = ((int64_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int64_t warps = ((int64_t)gridDim.x * blockDim.x) >> 5;
    for (; g < n_groups; g += warps) {
        const int64_t base = g * G;
        uint32_t amax_bits = 0; /* |x| bits compare as unsigned for finite values */
        int nonfinite = 0;
        for (int64_t j = lane; j < G; j += 32) {
            uint32_t u = __float_as_uint(load_in<BF16>(in, base + j)) & 0x7FFFFFFFu;
            nonfinite |= u >= 0x7F800000u;
            amax_bits = max(amax_bits, u);
        }
        for (int o = 16; o > 0; o >>= 1) amax_bits = max(amax_bits, __shfl_xor_sync(~0u, amax_bits, o));
        nonfinite = __any_sync(~0u, nonfinite);
        if (nonfinite) {
            if (lane == 0) scale[g] = 0xFF;
            for (int64_t j = lane; j < G; j += 32) mant[base + j] = 0;
            continue;
        }
        const int ef = (int)(amax_bits >> 23); /* 0..254 */
        const int e = ef == 0 ? -127 : ef - 127;
        if (lane == 0) scale[g] = (uint8_t)ef;
        const int sh = 6 - e; /* -121..133 */
        const float f1 = mxk_pow2f(sh > 127 ? sh - 64 : sh);
        const float f2 = sh > 127 ? mxk_pow2f(64) : 1.0f;
        for (int64_t j = lane; j < G; j += 32) {
            float q = __fmul_rn(__fmul_rn(load_in<BF16>(in, base + j), f1), f2);
            q = rintf(q); /* RNE */
            q = fminf(fmaxf(q, -128.0f), 127.0f);
            mant[base + j] = (int8_t)(int)q;
        }
    }
}

extern "C" int mxk_quantize_ocp(int in_dtype, const void *in, int64_t n, int64_t G,
                                int8_t *mantissa, uint8_t *scale, mxk_stream stream)
{
    if ((in_dtype != MXK_DTYPE_F32 && in_dtype != MXK_DTYPE_BF16) || !in || !mantissa || !scale ||
        n < 1 || G < 1 || G > 65536 || n % G != 0)
        return (int)cudaErrorInvalidValue;
    const int64_t n_groups = n / G;
    int64_t blocks = (n_groups + 7) / 8;
    if (blocks > 65536) blocks = 65536;
    cudaStream_t s = (cudaStream_t)stream;
    if (in_dtype == MXK_DTYPE_F32)
        quantize_ocp_kernel<false><<<(unsigned)blocks, 256, 0, s>>>(in, n_groups, G, mantissa, scale);
    else
        quantize_ocp_kernel<true><<<(unsigned)blocks, 256, 0, s>>>(in, n_groups, G, mantissa, scale);
    return mxk_err(cudaGetLastError());
}

/* gemm_simt.cu - the MXINT8 GEMM contract on CUDA cores, one thread per output: the path for
** any G (G not a multiple of 32, misaligned operands) and the tests' second opinion.
** For each group in ascending order: exact int32 dot, t = RN_f32(d * 2^(E_A+E_B-266)) through
** double (exact, one rounding), acc = RN_f32(acc + t) from +0.0; a NaN scale gives NaN. */
#include "mxk_common.cuh"

__global__ void __launch_bounds__(256) gemm_simt_kernel(int64_t M, int64_t N, int64_t K,
                                                        int64_t G, const int8_t *__restrict__ am,
                                                        const uint8_t *__restrict__ ae,
                                                        const int8_t *__restrict__ bm,
                                                        const uint8_t *__restrict__ be, float *c)
{
    const int64_t j = (int64_t)blockIdx.x * 16 + threadIdx.x;
    const int64_t i = (int64_t)blockIdx.y * 16 + threadIdx.y;
    if (i >= M || j >= N) return;
    const int64_t ng = K / G;
    const int8_t *ar = am + i * K, *br = bm + j * K;
    float acc = 0.0f;
    for (int64_t g = 0; g < ng; g++) {
        int d = 0;
        for (int64_t k = g * G; k < (g + 1) * G; k++) d += (int)__ldg(ar + k) * (int)__ldg(br + k);
        acc = __fadd_rn(acc, mxk_term_exact(d, __ldg(ae + i * ng + g), __ldg(be + j * ng + g)));
    }
    c[i * N + j] = acc;
}

extern "C" int mxk_gemm_simt(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m,
                             const uint8_t *a_e, const int8_t *b_m, const uint8_t *b_e, float *c,
                             mxk_stream stream)
{
    if (M < 1 || N < 1 || K < 1 || G < 1 || G > 65536 || K % G != 0 || !a_m || !a_e || !b_m ||
        !b_e || !c || (M + 15) / 16 > 65535)
        return (int)cudaErrorInvalidValue;
    dim3 block(16, 16), grid((unsigned)((N + 15) / 16), (unsigned)((M + 15) / 16));
    gemm_simt_kernel<<<grid, block, 0, (cudaStream_t)stream>>>(M, N, K, G, a_m, a_e, b_m, b_e, c);
    return mxk_err(cudaGetLastError());
}

/* mxk.h - C ABI of mxsim's CUDA kernels (MXINT8 quantize, dequantize and GEMM on a GPU).
**
** Every function takes DEVICE pointers, enqueues its work on `stream` (0 = the legacy default
** stream) and returns a cudaError_t as int: 0 (cudaSuccess) on success, cudaErrorInvalidValue
** (1) for bad arguments, or the launch error.  Nothing is printed, nothing exits, nothing
** synchronises; call cudaStreamSynchronize to see asynchronous faults.
**
** Numerics are those of the C model (sim/doc/numerics.md), bit for bit:
**   - mxk_quantize_ocp: the `ocp` profile quantizer (mxsim_quantize_block), float32 or bf16 in.
**   - mxk_dequantize_bf16: the `ocp` or `mase-cuda` decode to bf16 (mxsim_decode_bf16).
**   - mxk_gemm: the fp32-accumulator GEMM contract (mxsim_gemm_raw with MXSIM_ACC_FP32).
** Layouts are flat, C order, groups of G consecutive elements (the last axis), as in
** mxsim_gemm_raw: a tensor of n elements has n/G scale bytes.  bf16 travels as uint16 bits.
** Built with --ftz=false --prec-div=true --prec-sqrt=true -fmad=false: no flush-to-zero.
*/
#ifndef MXK_H
#define MXK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Numerics profiles, same values as mxsim_profile (only these two have GPU decoders). */
#define MXK_PROFILE_OCP 0
#define MXK_PROFILE_MASE_CUDA 2

/* Input dtypes of the quantizer, same values as mxsim_dtype. */
#define MXK_DTYPE_F32 0
#define MXK_DTYPE_BF16 1

/* Opaque stream handle (a cudaStream_t), so that C callers need no CUDA header. */
typedef void *mxk_stream;

/* Quantizes n values (float32 or bf16 bits, per in_dtype) in groups of G (G | n, 1..65536) to
** OCP MXINT8: mantissa[n] int8 and scale[n/G] bytes (0xFF for a group holding NaN or Inf). */
int mxk_quantize_ocp(int in_dtype, const void *in, int64_t n, int64_t G, int8_t *mantissa,
                     uint8_t *scale, mxk_stream stream);

/* Dequantizes n MXINT8 elements (G | n, 1..65536) with profile MXK_PROFILE_OCP or
** MXK_PROFILE_MASE_CUDA to bf16 bits.  Vector loads and 16-byte stores when a head of fewer than
** 16 elements aligns both pointers to 16 bytes (always, from cudaMalloc); a scalar path otherwise.
** G a multiple of 8 takes the fast path (one scale byte per 8 elements; on an H200, 0.96x of the
** bytes per second of a device-to-device copy). */
int mxk_dequantize_bf16(int profile, const int8_t *mantissa, const uint8_t *scale, int64_t n,
                        int64_t G, uint16_t *out, mxk_stream stream);

/* The same with a kernel variant (tests, benchmarks): cfg 0 = the default of mxk_dequantize_bf16;
** 1 = the general path (per-element scale lookup) even where the fast path applies.  Every cfg gives
** the same bits.  out must be 2-byte aligned (any alignment of mantissa is accepted).  The other
** variants (old cfg 1..11: the run-5 kernel, layouts, unrolls, grid shapes, cache hints) served no
** shape and were removed (issue 16 item 7; src/dequantize.cu says what they measured). */
#define MXK_DEQUANT_CFG_MAX 1
int mxk_dequantize_bf16_cfg(int profile, const int8_t *mantissa, const uint8_t *scale, int64_t n,
                            int64_t G, uint16_t *out, int cfg, mxk_stream stream);

/* C[M,N] (float32, row-major) = A[M,K] . B[N,K]^T under the fp32 arithmetic contract:
** a_m[M*K], b_m[N*K] int8 row-major; a_e[M*(K/G)], b_e[N*(K/G)] OCP scale bytes (0xFF = NaN).
** Any M, N >= 1 and K >= G with G | K, G <= 65536.  G a multiple of 32 runs on int8 tensor
** cores (mma.sync m16n8k32); G in {32, 64, 128} is the fast path; other G use a SIMT kernel.
** cfg = 0 picks the kernel by heuristic (M <= 16: cfg 9, 10 or 12, below); 2 = 64x64, 3 = 16x32
** tiles (mma.sync; cfg 0 takes 2 with >= 100 tiles of 64 x 64, else 3); 4 = the small-M kernel (any
** M; blocks of 16 columns x 8 or 16 rows, K split over 8 warps, ordered fp32 sum); 5 = 128x128
** tiles on 16 warps (the fallback of cfg 8); 8 = the Hopper kernel (src/gemm_wgmma.cu: wgmma int8,
** TMA ring, warp-specialised, persistent), sm_90 with 16-byte aligned operands and K % 16 == 0,
** else cfg 5.  cfg 0 takes cfg 8 when M > 16 and there are at least 132 tiles of 128 x 128, and
** cfg 11 (below) instead at G = 32.
** 9 = the decode kernel (src/gemm_decode.cu: persistent, contiguous row ranges per block, a
** producer warp streaming the weights with 1-D bulk copies into a shared-memory ring, mma.sync
** consumers, ordered fp32 sum per stage) for M <= 16, G in {32, 64, 128, 256}, K % 64 == 0,
** K/G <= 256 and a shared-memory plan of >= 2 ring stages, else cfg 4; 10 = the first decode
** kernel (src/gemm_decode_v1.cu: weights in registers, all of K in flight per block), same rules.
** cfg 0 takes cfg 9 for M <= 16, except cfg 10 for 8 < M <= 16 at G = 32 (where each measured
** fastest, reports/gpu/NVIDIA-H200-2026-11-26-decode2) and cfg 12 (below) for M = 1 at G >= 64.
** 11 = the Hopper kernel on the bf16 tensor path (src/gemm_bf16.cu: a pre-pass writes every
** element as the bf16 m * 2^(E-133), wgmma bf16 with fp32 accumulation forms each group's scaled
** dot exactly, one fp32 add per output and group; the whole call on the exact CUDA-core path if a
** nonzero group's scale is outside [70, 186] or NaN), sm_90 with G in {32, 64}, K % 64 == 0,
** 16-byte aligned operands and room for 2 (M + N) K bytes of stream-ordered scratch, else cfg 8.
** 12 = the M = 1 decode kernel (src/gemm_decode_row.cu: a warp per weight row, the row's bytes in
** registers through plain loads, dp4a dots, one lane's ordered fp32 sum) for M = 1, G in {32, 64,
** 128, 256}, K % 512 == 0 and K <= 32768, else cfg 9.
** cfg 1, 6 and 7 (128x128 on 8 warps, 128x64 at 2 blocks per SM, an alias of 8) served no shape
** and were removed (issue 16 item 7): like any number outside 0..12 they return
** cudaErrorInvalidValue. */
int mxk_gemm(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m, const uint8_t *a_e,
             const int8_t *b_m, const uint8_t *b_e, float *c, int cfg, mxk_stream stream);
/* The same, and *ran_cfg (if not NULL) = the kernel that was launched after the fallbacks: 2..12,
** or -1 for the SIMT kernel; -2 when the call returned an error.  Each kernel hands the call on
** where it does not apply, the device included: cfg 8 and 11 need compute capability 9.0 and
** their shared memory (about 227 KB); 9 needs 9.0; 2, 3, 4, 5, 10 and 12 need 8.0 (int8 mma.sync,
** cp.async) and their shared memory within what the card gives one block (cfg 5 120 KB, cfg 2 80 KB,
** cfg 3 46 KB, cfg 4 up to 64 KB, cfg 10 up to 200 KB by M, K and G): 12 -> 9 -> 4 -> 3, 10 -> 4,
** 11 -> 8 -> 5 -> 2 -> 3, and below 8.0 the SIMT kernel. */
int mxk_gemm_ex(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m, const uint8_t *a_e,
                const int8_t *b_m, const uint8_t *b_e, float *c, int cfg, int *ran_cfg, mxk_stream stream);
/* The current device's limits that the kernels decide by: compute capability (10 major + minor),
** SM count, and the dynamic shared memory one block may opt in to (bytes).  The environment
** variable MXK_EMULATE (diagnostics) lowers them to another card's, so that its fallbacks run on
** a Hopper: "a100" (8.0, 166912 bytes), "l40s" (8.9, 101376), "t4" (7.5, 65536).  Returns 0;
** cudaErrorInvalidValue, before any device work, when MXK_EMULATE names no such card (the kernels
** then use the card's own limits); else the CUDA error of the query. */
int mxk_device_caps(int *cc, int *sms, int *smem_optin);

/* The kernel that cfg 0 of mxk_gemm picks for an M x N GEMM with groups of G (the rules above): 9,
** 10 or 12 (M <= 16), 11 or 8 (M > 16 and at least 132 tiles of 128 x 128; 11 at G = 32), else 2 (at
** least 100 tiles of 64 x 64) or 3; -1 where G is not a multiple of 32 (the SIMT kernel runs).  The
** kernel may still hand the call to its fallback at run time (11 -> 8 -> 5 -> 2 -> 3, 12 -> 9, 9 and
** 10 -> 4 -> 3: the device, K, the alignment or the scratch; mxk_gemm_ex below says which ran);
** unaligned operands run the SIMT kernel. */
int mxk_gemm_cfg0(int64_t M, int64_t N, int64_t G);

/* The same GEMM by the plain SIMT kernel only (any G): the reference path for tests. */
int mxk_gemm_simt(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m,
                  const uint8_t *a_e, const int8_t *b_m, const uint8_t *b_e, float *c,
                  mxk_stream stream);

#ifdef __cplusplus
}
#endif
#endif /* MXK_H */

/* gemm_mma.cu - MXINT8 GEMM on int8 tensor cores (mma.sync m16n8k32 s8.s8.s32), bit-exact with
** the fp32 arithmetic contract (sim/doc/numerics.md section 4).
**
** Tiles: a block computes BM x BN outputs, streaming K in 128-byte slices through a cp.async
** pipeline of STAGES shared-memory buffers (rows swizzled by 16-byte chunk ^ (row & 7), so that
** ldmatrix is conflict-free).  Each warp owns a (16 MT) x (8 NT) sub-tile.  Per group of G = 32 KPG
** bytes of K: KPG mma steps accumulate the exact int32 dot d; then every output adds its term:
**
**   The int32 accumulator starts at 0x4B400000 (the float 1.5 * 2^23) instead of 0, so that for
**   |d| < 2^22 (G <= 128 gives |d| <= 2^21) its bits ARE the float 1.5*2^23 + d, exactly.
**   x = fma(f', 2^(EA-133), -1.5*2^23 * 2^(EA-133)) = d * 2^(EA-133), exact (<= 22 bits, LSB >=
**       2^-133, no overflow while EA <= 237);
**   t = x * 2^(EB-133): ONE rounding of d * 2^(EA+EB-266), gradual underflow, overflow to Inf
**       (EB = 255 makes the factor NaN, so t = NaN);
**   acc = acc + t in RNE, groups in ascending order, acc from +0.0.
** A group in which some lane sees EA > 237 (EA = 255 = NaN included), or G > 128, takes the exact
** double path (mxk_term_exact) for the whole warp.  Three FP32 instructions per output per group
** remain on the CUDA cores: that, not the tensor cores, bounds the kernel at G = 32.
** Compiled with -fmad=false and explicit _rn intrinsics: nothing is contracted or flushed. */
#include "mxk_common.cuh"

#define BK 128 /* bytes of K per pipeline stage */

/* gemm_gemv.cu: the small-M kernel (cfg 4) */
int mxk_gemm_gemv_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                           const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s);
#define MAGIC 0x4B400000
/* gemm_decode.cu: the decode kernel (cfg 9); -1 when it does not apply */
int mxk_gemm_decode_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                             const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s);
/* gemm_decode_v1.cu: the first decode kernel (cfg 10); -1 when it does not apply */
int mxk_gemm_decode_v1_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                                const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s);
/* gemm_decode_row.cu: the M = 1 decode kernel, a warp per weight row (cfg 12); -1 when it does not apply */
int mxk_gemm_decode_row_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                                 const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s);
/* gemm_bf16.cu: the Hopper kernel on the bf16 tensor path (cfg 11); -1 when it does not apply */
int mxk_gemm_bf16_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                           const uint8_t *be, float *c, cudaStream_t s);
/* gemm_wgmma.cu: the Hopper kernel (cfg 8); -1 when it does not apply (not sm_90, K % 16, ...) */
int mxk_gemm_wgmma_internal(int variant, int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                            const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s);

__device__ __forceinline__ void cp_async16(uint32_t dst, const void *src, int bytes)
{
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(bytes));
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;\n" ::); }
template <int N> __device__ __forceinline__ void cp_async_wait()
{
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}
__device__ __forceinline__ void ldsm_x4(uint32_t addr, uint32_t &r0, uint32_t &r1, uint32_t &r2, uint32_t &r3)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x2(uint32_t addr, uint32_t &r0, uint32_t &r1)
{
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r0), "=r"(r1) : "r"(addr));
}
__device__ __forceinline__ void mma_s8(int (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2],
                                       int c0, int c1, int c2, int c3)
{
    asm("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                 "{%8,%9}, {%10,%11,%12,%13};\n"
                 : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c0),
                   "r"(c1), "r"(c2), "r"(c3));
}

template <int BM, int BN, int WARPS_M, int WARPS_N, int STAGES, int MINB>
__global__ void __launch_bounds__(WARPS_M *WARPS_N * 32, MINB)
    gemm_mma_kernel(int M, int N, int K, int G, const int8_t *__restrict__ am,
                    const uint8_t *__restrict__ ae, const int8_t *__restrict__ bm,
                    const uint8_t *__restrict__ be, float *__restrict__ c)
{
    constexpr int NTHREADS = WARPS_M * WARPS_N * 32;
    constexpr int WM = BM / WARPS_M, WN = BN / WARPS_N;
    constexpr int MT = WM / 16, NT = WN / 8;
    constexpr int TILE_BYTES = (BM + BN) * BK;
    constexpr int STAGE_BYTES = TILE_BYTES + (BM + BN) * (BK / 32) * 8; /* + scale factors */
    constexpr int N_SC = (BM + BN) * (BK / 32);                          /* entries per stage */
    constexpr int SC_PER_THREAD = (N_SC + NTHREADS - 1) / NTHREADS;
    extern __shared__ __align__(128) uint8_t smem[];
    const uint32_t smem_base = (uint32_t)__cvta_generic_to_shared(smem);

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm0 = (warp / WARPS_N) * WM, wn0 = (warp % WARPS_N) * WN;
    const int gid = lane >> 2, tig = lane & 3;
    const int bm0 = blockIdx.y * BM, bn0 = blockIdx.x * BN;
    const int ng = K / G, KPG = G / 32, KS = K / 32, n_kt = (K + BK - 1) / BK;
    const bool magic = G <= 128;
    const int init = magic ? MAGIC : 0;

    auto load_stage = [&](int slot, int kt) {
        const uint32_t sbase = smem_base + slot * STAGE_BYTES;
        const int k0 = kt * BK;
        for (int ci = tid; ci < (BM + BN) * 8; ci += NTHREADS) {
            const int row = ci >> 3, ch = ci & 7;
            const int kb = k0 + ch * 16;
            const int8_t *src;
            bool ok;
            if (row < BM) {
                const int gr = bm0 + row;
                ok = gr < M && kb < K;
                src = ok ? am + (size_t)gr * K + kb : am;
            } else {
                const int gr = bn0 + row - BM;
                ok = gr < N && kb < K;
                src = ok ? bm + (size_t)gr * K + kb : bm;
            }
            cp_async16(sbase + row * BK + ((ch ^ (row & 7)) << 4), src, ok ? 16 : 0);
        }
    };

    /* Scale factors of a stage, one entry per (kstep kk, row): A rows as float2 {2^(EA-133),
    ** -1.5*2^23*2^(EA-133) or NaN when EA > 237}, B rows as float2 {2^(EB-133) or NaN, EB}. */
    auto sc_byte = [&](int kt, int ci) -> int {
        const int kk = ci / (BM + BN), row = ci % (BM + BN);
        const int ks = kt * (BK / 32) + kk;
        if (ci >= N_SC || ks >= KS) return 0;
        const int g = ks / KPG;
        if (row < BM) {
            const int gr = bm0 + row;
            return gr < M ? (int)__ldg(ae + (size_t)gr * ng + g) : 0;
        }
        const int gr = bn0 + row - BM;
        return gr < N ? (int)__ldg(be + (size_t)gr * ng + g) : 0;
    };
    auto sc_store = [&](int slot, int ci, int e) {
        if (ci >= N_SC) return;
        const int kk = ci / (BM + BN), row = ci % (BM + BN);
        float2 v;
        if (row < BM) {
            v.x = mxk_pow2f(e - 133);
            v.y = e > 237 ? __int_as_float(0x7FC00000)
                          : __int_as_float((int)(0x80000000u | ((uint32_t)(e + 17) << 23) | 0x400000u));
        } else {
            v.x = e == 255 ? __int_as_float(0x7FC00000) : mxk_pow2f(e - 133);
            v.y = __int_as_float(e);
        }
        float2 *f = reinterpret_cast<float2 *>(smem + slot * STAGE_BYTES + TILE_BYTES);
        f[kk * (BM + BN) + row] = v;
    };
    int sc_reg[SC_PER_THREAD];

    float acc[MT][NT][4];
    int ia[MT][NT][4];
#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int j = 0; j < NT; j++)
#pragma unroll
            for (int q = 0; q < 4; q++) acc[i][j][q] = 0.0f, ia[i][j][q] = init;

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < n_kt) {
            load_stage(s, s);
#pragma unroll
            for (int q = 0; q < SC_PER_THREAD; q++) sc_store(s, tid + q * NTHREADS, sc_byte(s, tid + q * NTHREADS));
        }
        cp_async_commit();
    }

    for (int kt = 0; kt < n_kt; kt++) {
        cp_async_wait<STAGES - 2>();
        __syncthreads();
        if (kt >= 1 && kt + STAGES - 2 < n_kt) { /* scale bytes fetched one iteration ago */
#pragma unroll
            for (int q = 0; q < SC_PER_THREAD; q++)
                sc_store((kt + STAGES - 2) % STAGES, tid + q * NTHREADS, sc_reg[q]);
        }
        {
            const int nk = kt + STAGES - 1;
            if (nk < n_kt) {
                load_stage(nk % STAGES, nk);
#pragma unroll
                for (int q = 0; q < SC_PER_THREAD; q++) sc_reg[q] = sc_byte(nk, tid + q * NTHREADS);
            }
            cp_async_commit();
        }
        const uint32_t sA = smem_base + (kt % STAGES) * STAGE_BYTES;
        const uint32_t sB = sA + BM * BK;
        const float2 *sF = reinterpret_cast<const float2 *>(smem + (kt % STAGES) * STAGE_BYTES + TILE_BYTES);
#pragma unroll
        for (int kk = 0; kk < BK / 32; kk++) {
            const int ks = kt * (BK / 32) + kk;
            if (ks >= KS) break;
            const int kin = ks % KPG;
            uint32_t af[MT][4], bf[NT][2];
            const int li = lane >> 3, lr = lane & 7;
#pragma unroll
            for (int i = 0; i < MT; i++) {
                const int row = wm0 + i * 16 + (li & 1) * 8 + lr;
                const int ch = kk * 2 + (li >> 1);
                ldsm_x4(sA + row * BK + ((ch ^ (row & 7)) << 4), af[i][0], af[i][1], af[i][2], af[i][3]);
            }
            if (NT % 2 == 0) {
#pragma unroll
                for (int p = 0; p < NT / 2; p++) {
                    const int row = wn0 + p * 16 + (li >> 1) * 8 + lr;
                    const int ch = kk * 2 + (li & 1);
                    ldsm_x4(sB + row * BK + ((ch ^ (row & 7)) << 4), bf[2 * p][0], bf[2 * p][1],
                            bf[2 * p + 1][0], bf[2 * p + 1][1]);
                }
            } else {
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    const int row = wn0 + j * 8 + lr;
                    const int ch = kk * 2 + (li & 1);
                    ldsm_x2(sB + row * BK + ((ch ^ (row & 7)) << 4), bf[j][0], bf[j][1]);
                }
            }
            if (kin == 0) {
#pragma unroll
                for (int i = 0; i < MT; i++)
#pragma unroll
                    for (int j = 0; j < NT; j++) mma_s8(ia[i][j], af[i], bf[j], init, init, init, init);
            } else {
#pragma unroll
                for (int i = 0; i < MT; i++)
#pragma unroll
                    for (int j = 0; j < NT; j++)
                        mma_s8(ia[i][j], af[i], bf[j], ia[i][j][0], ia[i][j][1], ia[i][j][2], ia[i][j][3]);
            }
            if (kin == KPG - 1) { /* group end: scale and accumulate, in group order */
                const float2 *fa = sF + kk * (BM + BN);
                const float2 *fb = fa + BM;
                float sa[MT][2], ca[MT][2], sb[NT][2];
                int ebv[NT][2];
                bool slow = !magic;
#pragma unroll
                for (int i = 0; i < MT; i++)
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const float2 v = fa[wm0 + i * 16 + h * 8 + gid];
                        sa[i][h] = v.x;
                        ca[i][h] = v.y;
                        slow |= v.y != v.y;
                    }
#pragma unroll
                for (int j = 0; j < NT; j++) {
                    const float4 v = *reinterpret_cast<const float4 *>(fb + wn0 + j * 8 + tig * 2);
                    sb[j][0] = v.x;
                    ebv[j][0] = __float_as_int(v.y);
                    sb[j][1] = v.z;
                    ebv[j][1] = __float_as_int(v.w);
                }
                if (__any_sync(0xffffffffu, slow)) {
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int h = 0; h < 2; h++) {
                            const int bits = __float_as_int(sa[i][h]);
                            const int e = bits >= 0x00800000 ? (bits >> 23) + 6 : (31 - __clz(bits)) - 16;
#pragma unroll
                            for (int j = 0; j < NT; j++)
#pragma unroll
                                for (int x = 0; x < 2; x++) {
                                    const int q = h * 2 + x;
                                    const int d = ia[i][j][q] - init;
                                    acc[i][j][q] = __fadd_rn(acc[i][j][q], mxk_term_exact(d, e, ebv[j][x]));
                                }
                        }
                } else {
#pragma unroll
                    for (int i = 0; i < MT; i++)
#pragma unroll
                        for (int j = 0; j < NT; j++)
#pragma unroll
                            for (int q = 0; q < 4; q++) {
                                const float x = __fmaf_rn(__int_as_float(ia[i][j][q]), sa[i][q >> 1], ca[i][q >> 1]);
                                acc[i][j][q] = __fadd_rn(acc[i][j][q], __fmul_rn(x, sb[j][q & 1]));
                            }
                }
            }
        }
    }
    cp_async_wait<0>();

#pragma unroll
    for (int i = 0; i < MT; i++)
#pragma unroll
        for (int h = 0; h < 2; h++) {
            const int r = bm0 + wm0 + i * 16 + h * 8 + gid;
            if (r >= M) continue;
#pragma unroll
            for (int j = 0; j < NT; j++) {
                const int cc = bn0 + wn0 + j * 8 + tig * 2;
                float *dst = c + (size_t)r * N + cc;
                if (cc + 1 < N && (N % 2 == 0)) {
                    *reinterpret_cast<float2 *>(dst) = make_float2(acc[i][j][h * 2], acc[i][j][h * 2 + 1]);
                } else {
                    if (cc < N) dst[0] = acc[i][j][h * 2];
                    if (cc + 1 < N) dst[1] = acc[i][j][h * 2 + 1];
                }
            }
        }
}

template <int BM, int BN, int WM_, int WN_, int ST, int MINB = 1>
static int launch_cfg(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                      const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    auto kern = gemm_mma_kernel<BM, BN, WM_, WN_, ST, MINB>;
    const int smem = ST * ((BM + BN) * BK + (BM + BN) * (BK / 32) * 8);
    const MxkCaps cap = mxk_caps();
    if (cap.cc < 80 || smem > cap.smem_optin) return -1; /* int8 mma.sync and cp.async: sm_80 */
    static bool attr_set = false; /* once per instantiation (benign race: idempotent) */
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e != cudaSuccess) return (int)e;
        attr_set = true;
    }
    dim3 grid((unsigned)((N + BN - 1) / BN), (unsigned)((M + BM - 1) / BM));
    if (grid.y > 65535) return (int)cudaErrorInvalidValue;
    kern<<<grid, WM_ * WN_ * 32, smem, s>>>(M, N, K, G, am, ae, bm, be, c);
    return mxk_err(cudaGetLastError());
}

/* cfg 0's choice by shape (mxk.h); mxsim-gpu's roofline asks the same function */
extern "C" int mxk_gemm_cfg0(int64_t M, int64_t N, int64_t G)
{
    if (M < 1 || N < 1 || G < 32 || G % 32 != 0) return -1; /* mxk_gemm runs the SIMT kernel */
    const int64_t tiles_l = ((M + 127) / 128) * ((N + 127) / 128);
    const int64_t tiles_s = ((M + 63) / 64) * ((N + 63) / 64);
    /* M <= 16: the decode kernel (cfg 9; its fallback is the small-M kernel, cfg 4, which beat the
    ** 16x32 tiles of cfg 3 on every decode shape of the bench on an H200, run 2 of 2026-11-26). At
    ** least one 128x128 tile per SM: the Hopper wgmma kernel (cfg 8, falling back to cfg 5). */
    int cfg = M <= 16 ? 9 : tiles_l >= 132 ? 8 : tiles_s >= 100 ? 2 : 3;
    /* The streaming decode kernel (cfg 9) where it measured fastest on an H200 (2026-11-26,
    ** reports/gpu/NVIDIA-H200-2026-11-26-decode2): M <= 8 at every G, M > 8 at G >= 64; the first decode kernel
    ** (cfg 10) at M > 8 with G = 32, where the 16 x 16 terms per group bound cfg 9. */
    if (cfg == 9 && M > 8 && G == 32) cfg = 10;
    /* M = 1 at G >= 64: the row kernel (cfg 12, falling back to cfg 9 where K does not suit it),
    ** 2-8% faster than cfg 9 at 1x4096x4096 and 1x11008x4096 on an H200 (same-call A/B, session 14:
    ** gemm_decode_row.cu); cfg 9 keeps G = 32, where the row kernel measured 4-9% slower */
    if (cfg == 9 && M == 1 && G >= 64) cfg = 12;
    /* G = 32 on the Hopper kernel's shapes: its bf16-path twin (cfg 11, falling back to cfg 8),
    ** 1.3-1.4x faster at the bench's prefill shapes on an H200 (gemm_bf16.cu); cfg 8 keeps
    ** G >= 64, where it measured faster */
    if (cfg == 8 && G == 32) cfg = 11;
    return cfg;
}

/* The kernel chain of mxk_gemm: each launcher returns -1 where it does not apply (shape, K, device,
** shared memory, scratch) and the call moves to its fallback (mxk.h); *ran = the cfg that was
** launched, -1 for the SIMT kernel. */
static int gemm_chain(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m, const uint8_t *a_e,
                      const int8_t *b_m, const uint8_t *b_e, float *c, int cfg, mxk_stream stream, int *ran)
{
    if (M < 1 || N < 1 || K < 1 || G < 1 || G > 65536 || K % G != 0 || !a_m || !a_e || !b_m ||
        !b_e || !c || cfg < 0 || cfg > 12 || cfg == 1 || cfg == 6 || cfg == 7)
        return (int)cudaErrorInvalidValue;
    const bool aligned = ((uintptr_t)a_m % 16 == 0) && ((uintptr_t)b_m % 16 == 0);
    if (G % 32 != 0 || !aligned || M > INT32_MAX / 2 || N > INT32_MAX / 2 || K > INT32_MAX / 2)
        return mxk_gemm_simt(M, N, K, G, a_m, a_e, b_m, b_e, c, stream);
    cudaStream_t s = (cudaStream_t)stream;
    const int m = (int)M, n = (int)N, k = (int)K, g = (int)G;
    if (cfg == 0) cfg = mxk_gemm_cfg0(M, N, G);
    /* one step of the chain: launched (or a CUDA error) ends it, -1 moves on to `next` */
#define MXK_TRY(this_cfg, call, next)                                                              \
    if (cfg == (this_cfg)) {                                                                       \
        const int r = (call);                                                                      \
        if (r >= 0) {                                                                              \
            *ran = (this_cfg);                                                                     \
            return r;                                                                              \
        }                                                                                          \
        cfg = (next);                                                                              \
    }
    MXK_TRY(12, mxk_gemm_decode_row_internal(m, n, k, g, a_m, a_e, b_m, b_e, c, s), 9)
    MXK_TRY(9, mxk_gemm_decode_internal(m, n, k, g, a_m, a_e, b_m, b_e, c, s), 4)
    MXK_TRY(10, mxk_gemm_decode_v1_internal(m, n, k, g, a_m, a_e, b_m, b_e, c, s), 4)
    MXK_TRY(11, mxk_gemm_bf16_internal(m, n, k, g, a_m, a_e, b_m, b_e, c, s), 8)
    MXK_TRY(8, mxk_gemm_wgmma_internal(1, m, n, k, g, a_m, a_e, b_m, b_e, c, s), 5)
    MXK_TRY(4, mxk_gemm_gemv_internal(m, n, k, g, a_m, a_e, b_m, b_e, c, s), 3)
    MXK_TRY(5, (launch_cfg<128, 128, 4, 4, 3>(m, n, k, g, a_m, a_e, b_m, b_e, c, s)), 2)
    MXK_TRY(2, (launch_cfg<64, 64, 2, 2, 4>(m, n, k, g, a_m, a_e, b_m, b_e, c, s)), 3)
    MXK_TRY(3, (launch_cfg<16, 32, 1, 4, 6>(m, n, k, g, a_m, a_e, b_m, b_e, c, s)), -1)
#undef MXK_TRY
    return mxk_gemm_simt(M, N, K, G, a_m, a_e, b_m, b_e, c, stream); /* below sm_80 */
}

extern "C" int mxk_gemm_ex(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m,
                           const uint8_t *a_e, const int8_t *b_m, const uint8_t *b_e, float *c,
                           int cfg, int *ran_cfg, mxk_stream stream)
{
    int ran = -1;
    const int r = gemm_chain(M, N, K, G, a_m, a_e, b_m, b_e, c, cfg, stream, &ran);
    if (ran_cfg) *ran_cfg = r == 0 ? ran : -2;
    return r;
}

extern "C" int mxk_gemm(int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *a_m,
                        const uint8_t *a_e, const int8_t *b_m, const uint8_t *b_e, float *c,
                        int cfg, mxk_stream stream)
{
    return mxk_gemm_ex(M, N, K, G, a_m, a_e, b_m, b_e, c, cfg, nullptr, stream);
}

/* gemm_gemv.cu - MXINT8 GEMM for small M (decode: M <= 16), bit-exact with the fp32 arithmetic
** contract (sim/doc/numerics.md section 4).  G a multiple of 32, operands 8-byte aligned.
**
** Why a second kernel: the tile kernel (gemm_mma.cu) gives one block 32 columns and walks all of
** K serially in it: at M = 16, N = 4096 that is 128 blocks (0.2 waves) and DRAM ran 7% busy.
** The contract orders only the fp32 ADDITIONS: the exact int32 dot of each group and its term
** t_g = RN_f32(d_g * 2^(EA+EB-266)) do not depend on the accumulator, so they may be computed by
** any thread in any order.  Here:
**   - a block owns 16 columns of C (weight rows) and MR = 8*MS rows of A; its W = 8 warps split K:
**     in one round, warp w computes the terms of GPW consecutive groups (4 k-steps of 32 bytes);
**   - each warp's int32 dots come from mma.sync m16n8k32 with the WEIGHTS as the 16-row operand
**     and the activations as the 8-column operand (M <= 8: one mma per k-step, M <= 16: two).
**     Both operands use the same permutation of k inside the 32-byte k-step (lane tig holds bytes
**     [8 tig, 8 tig + 8) of each row: one 8-byte load per row), and a permutation of the k
**     indices of an integer dot product does not change it (exact integer arithmetic);
**   - the terms go to shared memory, [group][column][row]; after one barrier, the thread owning
**     output (m, n) adds the round's terms to its fp32 accumulator in ascending group order, from
**     +0.0, one RN add each: exactly the contract's sequence of additions;
**   - the weight loads of round r+1 are issued before the terms of round r are formed, and the
**     term buffer is double-buffered (one barrier per round).
** Term, fast path (EA <= 234, EB <= 254, G <= 1024, so |d| <= 2^24):
**   f = (float)d is exact (|d| <= 2^24);
**   x = f * 2^(EA-133) is exact: |x| <= 2^24 * 2^101 < FLT_MAX, and x is an integer multiple of
**       2^(EA-133) >= 2^-133 with at most 24 significant bits, so it is representable (normal or
**       subnormal: every multiple of 2^-149 below 2^-126 is);
**   t = x * 2^(EB-133): ONE rounding of d * 2^(EA+EB-266), gradual underflow, overflow to Inf.
** Otherwise (EA > 234, EA or EB = 255 (NaN), G > 1024) the exact double path mxk_term_exact.
** Compiled with -fmad=false and explicit _rn intrinsics: nothing is contracted or flushed. */
#include "mxk_common.cuh"

#define GV_W 8   /* warps per block */
#define GV_KS 4  /* 32-byte k-steps per warp per round (weights in flight: 16 x 128 B per warp) */

__device__ __forceinline__ uint2 gv_ld8(const int8_t *p)
{
    uint2 v;
    asm volatile("ld.global.nc.v2.u32 {%0,%1}, [%2];\n" : "=r"(v.x), "=r"(v.y) : "l"(p));
    return v;
}

__device__ __forceinline__ float gv_term(int d, int ea, int eb, bool fast_g)
{
    if (fast_g && ea <= 234 && eb != 255)
        return __fmul_rn(__fmul_rn(__int2float_rn(d), mxk_pow2f(ea - 133)), mxk_pow2f(eb - 133));
    return mxk_term_exact(d, ea, eb);
}

/* MS: 8-row slices of A per block (MR = 8 MS rows); KPG_T: k-steps per group (1, 2, 4), or 0 for
** any G (runtime KPG, one group per warp per round, its k-steps in chunks of GV_KS). */
template <int MS, int KPG_T>
__global__ void __launch_bounds__(GV_W * 32, 2)
    gemm_gemv_kernel(int M, int N, int K, int G, const int8_t *__restrict__ am,
                     const uint8_t *__restrict__ ae, const int8_t *__restrict__ bm,
                     const uint8_t *__restrict__ be, float *__restrict__ c)
{
    constexpr int MR = 8 * MS;
    constexpr int GPW = KPG_T ? GV_KS / KPG_T : 1; /* groups per warp per round */
    constexpr int GR = GV_W * GPW;                 /* groups per round */
    constexpr int BUF = GR * 16 * MR;              /* floats per term buffer */
    extern __shared__ __align__(16) float tsm[];   /* [2][GR][16][MR] */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int gid = lane >> 2, tig = lane & 3;
    const int n0 = blockIdx.x * 16, m0 = blockIdx.y * MR;
    const int ng = K / G, KPG = G / 32;
    const bool fast_g = G <= 1024;
    const bool packed = ng % 4 == 0 && ((uintptr_t)ae & 3) == 0 && ((uintptr_t)be & 3) == 0;

    /* rows this lane reads (clamped: rows past the edge compute terms that are never stored) */
    const int nr0 = min(n0 + gid, N - 1), nr1 = min(n0 + gid + 8, N - 1);
    const int8_t *brow0 = bm + (size_t)nr0 * K + tig * 8;
    const int8_t *brow1 = bm + (size_t)nr1 * K + tig * 8;
    const int8_t *arow[MS];
    int mrow_e[MS][2];
#pragma unroll
    for (int s = 0; s < MS; s++) {
        arow[s] = am + (size_t)min(m0 + s * 8 + gid, M - 1) * K + tig * 8;
        mrow_e[s][0] = min(m0 + s * 8 + tig * 2, M - 1);
        mrow_e[s][1] = min(m0 + s * 8 + tig * 2 + 1, M - 1);
    }

    /* owner of output (on, om) for tid < 16 MR */
    const int on = tid / MR, om = tid % MR;
    float acc = 0.0f;

    const int n_rounds = (ng + GR - 1) / GR;
    if constexpr (KPG_T != 0) {
        constexpr int KP = KPG_T ? KPG_T : 1;
        uint2 wb0[GV_KS], wb1[GV_KS];
        int eb[GPW][2], ea[GPW][MS][2]; /* the scale bytes of the round, fetched with the weights */
        /* k-step q of this warp in round r: group g = r*GR + warp*GPW + q/KP, step q%KP */
        auto load = [&](int r) {
#pragma unroll
            for (int q = 0; q < GV_KS; q++) {
                const int g = r * GR + warp * GPW + q / KP;
                if (g < ng) {
                    const int kb = g * G + (q % KP) * 32;
                    wb0[q] = gv_ld8(brow0 + kb);
                    wb1[q] = gv_ld8(brow1 + kb);
                }
            }
            if (GPW == 4 && packed) {
                /* G = 32: the warp's 4 groups are 4 consecutive scale bytes of each row, one
                ** aligned 32-bit load per row (g0 % 4 == 0, ng % 4 == 0, pointers 4-aligned) */
                const int g0 = r * GR + warp * GPW;
                if (g0 < ng) {
                    const uint32_t w0 = __ldg(reinterpret_cast<const uint32_t *>(be + (size_t)nr0 * ng + g0));
                    const uint32_t w1 = __ldg(reinterpret_cast<const uint32_t *>(be + (size_t)nr1 * ng + g0));
                    uint32_t wa[MS][2];
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        wa[s][0] = __ldg(reinterpret_cast<const uint32_t *>(ae + (size_t)mrow_e[s][0] * ng + g0));
                        wa[s][1] = __ldg(reinterpret_cast<const uint32_t *>(ae + (size_t)mrow_e[s][1] * ng + g0));
                    }
#pragma unroll
                    for (int p = 0; p < GPW; p++) {
                        eb[p][0] = (w0 >> (8 * p)) & 0xFF;
                        eb[p][1] = (w1 >> (8 * p)) & 0xFF;
#pragma unroll
                        for (int s = 0; s < MS; s++) {
                            ea[p][s][0] = (wa[s][0] >> (8 * p)) & 0xFF;
                            ea[p][s][1] = (wa[s][1] >> (8 * p)) & 0xFF;
                        }
                    }
                }
            } else
#pragma unroll
            for (int p = 0; p < GPW; p++) {
                const int g = r * GR + warp * GPW + p;
                if (g < ng) {
                    eb[p][0] = __ldg(be + (size_t)nr0 * ng + g);
                    eb[p][1] = __ldg(be + (size_t)nr1 * ng + g);
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        ea[p][s][0] = __ldg(ae + (size_t)mrow_e[s][0] * ng + g);
                        ea[p][s][1] = __ldg(ae + (size_t)mrow_e[s][1] * ng + g);
                    }
                }
            }
        };
        load(0);
        for (int r = 0; r < n_rounds; r++) {
            float *tb = tsm + (r & 1) * BUF;
            int dd[GPW][MS][4];
#pragma unroll
            for (int p = 0; p < GPW; p++)
#pragma unroll
                for (int s = 0; s < MS; s++)
#pragma unroll
                    for (int q = 0; q < 4; q++) dd[p][s][q] = 0;
#pragma unroll
            for (int q = 0; q < GV_KS; q++) {
                const int g = r * GR + warp * GPW + q / KP;
                if (g < ng) {
                    const int kb = g * G + (q % KP) * 32;
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        const uint2 a = __ldg(reinterpret_cast<const uint2 *>(arow[s] + kb));
                        mxk_mma_s8(dd[q / KP][s], wb0[q].x, wb1[q].x, wb0[q].y, wb1[q].y, a.x, a.y);
                    }
                }
            }
            int ebc[GPW][2], eac[GPW][MS][2];
#pragma unroll
            for (int p = 0; p < GPW; p++) {
                ebc[p][0] = eb[p][0], ebc[p][1] = eb[p][1];
#pragma unroll
                for (int s = 0; s < MS; s++) eac[p][s][0] = ea[p][s][0], eac[p][s][1] = ea[p][s][1];
            }
            if (r + 1 < n_rounds) load(r + 1);
#pragma unroll
            for (int p = 0; p < GPW; p++) {
                const int gl = warp * GPW + p, g = r * GR + gl;
                if (g < ng) {
                    const int eb0 = ebc[p][0], eb1 = ebc[p][1];
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        const int ea0 = eac[p][s][0], ea1 = eac[p][s][1];
                        float *t0 = tb + (gl * 16 + gid) * MR + s * 8 + tig * 2;
                        float *t1 = t0 + 8 * MR;
                        *reinterpret_cast<float2 *>(t0) =
                            make_float2(gv_term(dd[p][s][0], ea0, eb0, fast_g), gv_term(dd[p][s][1], ea1, eb0, fast_g));
                        *reinterpret_cast<float2 *>(t1) =
                            make_float2(gv_term(dd[p][s][2], ea0, eb1, fast_g), gv_term(dd[p][s][3], ea1, eb1, fast_g));
                    }
                }
            }
            __syncthreads();
            if (tid < 16 * MR) {
                const int cnt = min(GR, ng - r * GR);
                const float *tp = tb + on * MR + om;
#pragma unroll 8
                for (int gl = 0; gl < cnt; gl++) acc = __fadd_rn(acc, tp[gl * 16 * MR]);
            }
        }
    } else {
        /* any G: warp w takes group r*GV_W + w; its KPG k-steps in chunks of GV_KS */
        for (int r = 0; r < n_rounds; r++) {
            float *tb = tsm + (r & 1) * BUF;
            const int g = r * GR + warp;
            if (g < ng) {
                int dd[MS][4];
#pragma unroll
                for (int s = 0; s < MS; s++)
#pragma unroll
                    for (int q = 0; q < 4; q++) dd[s][q] = 0;
                for (int k0 = 0; k0 < KPG; k0 += GV_KS) {
                    uint2 w0[GV_KS], w1[GV_KS];
#pragma unroll
                    for (int q = 0; q < GV_KS; q++)
                        if (k0 + q < KPG) {
                            const int kb = g * G + (k0 + q) * 32;
                            w0[q] = gv_ld8(brow0 + kb);
                            w1[q] = gv_ld8(brow1 + kb);
                        }
#pragma unroll
                    for (int q = 0; q < GV_KS; q++)
                        if (k0 + q < KPG) {
                            const int kb = g * G + (k0 + q) * 32;
#pragma unroll
                            for (int s = 0; s < MS; s++) {
                                const uint2 a = __ldg(reinterpret_cast<const uint2 *>(arow[s] + kb));
                                mxk_mma_s8(dd[s], w0[q].x, w1[q].x, w0[q].y, w1[q].y, a.x, a.y);
                            }
                        }
                }
                const int eb0 = __ldg(be + (size_t)nr0 * ng + g), eb1 = __ldg(be + (size_t)nr1 * ng + g);
#pragma unroll
                for (int s = 0; s < MS; s++) {
                    const int ea0 = __ldg(ae + (size_t)mrow_e[s][0] * ng + g);
                    const int ea1 = __ldg(ae + (size_t)mrow_e[s][1] * ng + g);
                    float *t0 = tb + (warp * 16 + gid) * MR + s * 8 + tig * 2;
                    float *t1 = t0 + 8 * MR;
                    *reinterpret_cast<float2 *>(t0) =
                        make_float2(gv_term(dd[s][0], ea0, eb0, fast_g), gv_term(dd[s][1], ea1, eb0, fast_g));
                    *reinterpret_cast<float2 *>(t1) =
                        make_float2(gv_term(dd[s][2], ea0, eb1, fast_g), gv_term(dd[s][3], ea1, eb1, fast_g));
                }
            }
            __syncthreads();
            if (tid < 16 * MR) {
                const int cnt = min(GR, ng - r * GR);
                const float *tp = tb + on * MR + om;
                for (int gl = 0; gl < cnt; gl++) acc = __fadd_rn(acc, tp[gl * 16 * MR]);
            }
        }
    }
    if (tid < 16 * MR) {
        const int n = n0 + on, m = m0 + om;
        if (n < N && m < M) c[(size_t)m * N + n] = acc;
    }
}

template <int MS, int KPG_T>
static int gv_launch(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                     const uint8_t *be, float *c, cudaStream_t s)
{
    constexpr int GPW = KPG_T ? GV_KS / KPG_T : 1;
    const int smem = 2 * GV_W * GPW * 16 * 8 * MS * (int)sizeof(float);
    auto kern = gemm_gemv_kernel<MS, KPG_T>;
    const MxkCaps cap = mxk_caps();
    if (cap.cc < 80 || smem > cap.smem_optin) return -1; /* int8 mma.sync: sm_80 */
    static bool attr_set = false; /* once per instantiation (benign race: idempotent) */
    if (!attr_set) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
        if (e != cudaSuccess) return (int)e;
        attr_set = true;
    }
    dim3 grid((unsigned)((N + 15) / 16), (unsigned)((M + 8 * MS - 1) / (8 * MS)));
    if (grid.y > 65535) return (int)cudaErrorInvalidValue;
    kern<<<grid, GV_W * 32, smem, s>>>(M, N, K, G, am, ae, bm, be, c);
    return mxk_err(cudaGetLastError());
}

template <int MS>
static int gv_dispatch_g(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                         const uint8_t *be, float *c, cudaStream_t s)
{
    if (G == 32) return gv_launch<MS, 1>(M, N, K, G, am, ae, bm, be, c, s);
    if (G == 64) return gv_launch<MS, 2>(M, N, K, G, am, ae, bm, be, c, s);
    if (G == 128) return gv_launch<MS, 4>(M, N, K, G, am, ae, bm, be, c, s);
    return gv_launch<MS, 0>(M, N, K, G, am, ae, bm, be, c, s);
}

/* Internal entry (called by mxk_gemm; arguments already checked: G % 32 == 0, 16-byte aligned
** mantissas, sizes < 2^31). Any M; rows in slices of 8 (M <= 8) or 16. */
int mxk_gemm_gemv_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                           const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    if (M <= 8) return gv_dispatch_g<1>(M, N, K, G, am, ae, bm, be, c, s);
    return gv_dispatch_g<2>(M, N, K, G, am, ae, bm, be, c, s);
}

/* decode_wgmma_probe.cu - could tensor-core dots with the ordered sums kept in registers make the
** decode GEMM (M <= 16) faster than the streaming kernel (cfg 9, gemm_decode.cu), whose dots, terms
** buffer and folder hand-off cost 3.5-5.6 us at M = 16 (H200 final3 README, dev/ab15)?  A development
** probe, not part of the library: M <= 16, G = 128, N % 32 == 0, K % 512 == 0 and K <= 4096 (shared
** memory), every scale inside the fast-path window of gemm_wgmma.cu (the probe has no exact path and
** says so if the data leaves it; its data stays inside).
**
** Three kernels, each persistent over 32-row weight tiles, the activations (16 rows, zero past M)
** resident in shared memory as TMA boxes of 128 bytes x 16 rows (128-byte swizzle; rows past the
** tensor, i.e. M < 16 mapped directly, measured 2.3 us slower: the probe pads the activations to 16
** rows), per k-block (one group at G = 128) 4 wgmma k-steps into one of two accumulator sets (the
** next group's in flight while this one is promoted), the promotion of gemm_wgmma.cu's fast path (IADD
** + 2 FFMA per output, its proof) into fp32 accumulators, groups ascending: the contract's sequence
** of additions for each output, with no terms buffer and no hand-off.
**   default (dp_kernel): weights as the wgmma B operand, m64n32k32, TMA boxes of 128 bytes x 32 rows
**     per k-block; the activations as A span 64 rows (8-row groups 1024 bytes apart), so rows 16-63
**     read the next k-blocks' bytes and their outputs are dropped (the tensor cores have time to
**     spare in decode).  -3: one 3-D box (128 bytes x 32 rows x SKB k-blocks) per stage instead.
**   -r / -r2 (dr_kernel): weights as the A operand FROM REGISTERS, m64n16k32 with the activations as
**     B, streamed as cfg 9 streams them (one 1-D bulk copy per weight row and stage, rows KS + 16
**     bytes apart: conflict-free LDS.32), each CTA a contiguous range of rows (the last tile partial);
**     -r2: two consumer warpgroups, 16 rows each.
** Measured (H200, 2026-11-26, reports/gpu/NVIDIA-H200-2026-11-26-final3/dev/ab16_*): bit-exact with
** cfg 9 on every shape (M = 1, 4, 8, 16; N = 4096, 11008; K = 2048, 4096); 16x4096x4096 12.2-13.1 us
** against cfg 9's 12.4-12.9 (-r), but 1x4096x4096 12.2-12.9 against 9.9-10.3 and 16x11008x4096
** 25.5-26.7 against 22.4-22.6: the time hardly depends on M, i.e. this stream (one CTA of one
** consumer warpgroup per SM) is slower than cfg 9's, and 2 KB or 4 KB per-row copies (SKB 16 / 32),
** the 3-D boxes and a second consumer warpgroup were no faster.  What it shows: the register-resident
** ordered sums are exact and cheap; the stream around them is what a faster M = 16 kernel needs.
**
** It times the probe and mxk_gemm cfg 9 (and cfg 0) on the same data, cold L2 (B rotates over
** copies, events per launch, median of 30, as mxsim-gpu perf with MXK_PERF_COLD=1), and compares the
** probe's outputs with cfg 9's bit for bit (exit 1 on any mismatch).  Built by CMake (sm_90a).
** usage: decode_wgmma_probe [-3 | -r | -r2] [M N K]...   (default: 1 4096 4096  16 4096 4096
**        1 11008 4096  16 11008 4096)
** CSV on stdout: card,M,N,K,G,method,median_us,mismatches_vs_cfg9 */
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda_check.h"
#include "event_time.h"
#include "mxk.h"
#include "../src/mxk_mbar.cuh"
#include "../src/mxk_wgmma.cuh"

#ifndef DP_SKB
#define DP_SKB 8   /* k-blocks per ring stage (32 KB of weights; -r: 1 KB per row) */
#endif
#ifndef DP_NS
#define DP_NS 4    /* ring stages */
#endif
#define DP_BN 32   /* weight rows per tile */

__device__ __forceinline__ void dp_tma2d(uint32_t dst, const CUtensorMap *map, int c0, int c1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n" ::"r"(dst), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar)
                 : "memory");
}
#define DP_MMA                                                                                        \
    "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 "                                               \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, %16, %17, p;\n}\n"
#define DP_RW(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3])
#define DP_WW(i) "=r"(d[i]), "=r"(d[i + 1]), "=r"(d[i + 2]), "=r"(d[i + 3])
__device__ __forceinline__ void dp_mma(int (&d)[16], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" DP_MMA
                 : DP_RW(0), DP_RW(4), DP_RW(8), DP_RW(12) : "l"(da), "l"(db));
}
__device__ __forceinline__ void dp_mma_first(int (&d)[16], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n" DP_MMA
                 : DP_WW(0), DP_WW(4), DP_WW(8), DP_WW(12) : "l"(da), "l"(db));
}
__device__ __forceinline__ void dp_wait0(int (&d)[16])
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" : DP_RW(0), DP_RW(4), DP_RW(8), DP_RW(12)::"memory");
}
__device__ __forceinline__ void dp_wait1(int (&d)[16])
{
    asm volatile("wgmma.wait_group.sync.aligned 1;\n" : DP_RW(0), DP_RW(4), DP_RW(8), DP_RW(12)::"memory");
}
__device__ __forceinline__ float dp_pow2(int e) { return __int_as_float((e + 127) << 23); } /* normal e only */

/* Scale bytes to factor tables: the `rows` x ng contiguous bytes at src (rows past them up to `all`
** read as E = 133, factor 1, their outputs dropped), every word loaded before the first is used (one
** memory latency, not one per loop trip); put(row, g, E) for each of the `all` x ng entries; returns
** the fast-path window flag.  Needs ng % 4 == 0 and all ng / 4 <= 4 nt (K % 512 == 0; the probe takes K <= 4096: shared memory). */
template <class F>
__device__ __forceinline__ unsigned dp_scales(const uint8_t *src, int rows, int all, int ng, int tid, int nt, F put)
{
    const uint32_t *w = reinterpret_cast<const uint32_t *>(src);
    const int nw = rows * ng / 4;
    uint32_t v[4];
#pragma unroll
    for (int u = 0; u < 4; u++) v[u] = tid + nt * u < nw ? w[tid + nt * u] : 0x85858585u;
    unsigned bad = 0;
#pragma unroll
    for (int u = 0; u < 4; u++)
#pragma unroll
        for (int b = 0; b < 4; b++) {
            const int idx = 4 * (tid + nt * u) + b;
            if (idx >= all * ng) continue;
            const int r = idx / ng, g = idx - r * ng, e = (v[u] >> (8 * b)) & 0xFF;
            bad |= (unsigned)(e - 59) > 127u;
            put(r, g, e);
        }
    return bad;
}
/* the tile's weight factors FB[g][32] = 2^(E-133) */
__device__ __forceinline__ unsigned dp_fill_fb(float *FB, const uint8_t *be, int ng, int tid, int rows = DP_BN,
                                                int nt = 128)
{
    return dp_scales(be, rows, DP_BN, ng, tid, nt, [&](int r, int g, int e) { FB[g * DP_BN + r] = dp_pow2(e - 133); });
}
/* the activation factors FA[g][16] = {2^(E-133), -1.5 2^23 2^(E-133)} (rows >= M: factor 1) */
__device__ __forceinline__ unsigned dp_fill_fa(float2 *FA, const uint8_t *ae, int M, int ng, int tid, int nt)
{
    return dp_scales(ae, M, 16, ng, tid, nt, [&](int m, int g, int e) {
        const float sa = dp_pow2(e - 133);
        FA[g * 16 + m] = make_float2(sa, -12582912.0f * sa);
    });
}

struct DpParams {
    int M, N, K, ntiles;
    const uint8_t *ae, *be;
    float *c;
    unsigned *outside; /* groups whose scales leave the fast-path window (the probe has no exact path) */
};

template <bool B3D>
__global__ void __launch_bounds__(160, 1)
    dp_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, const DpParams P)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t raw[];
    uint8_t *sm = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    const int K = P.K, nkb = K / 128, ng = nkb; /* G = 128: one group per k-block */
    const uint32_t a0 = (uint32_t)__cvta_generic_to_shared(sm);
    const uint32_t ring0 = a0 + (nkb + 3) * 2048;
    const uint32_t bars = ring0 + DP_NS * DP_SKB * 4096; /* full[NS], empty[NS], abar */
    float2 *FA = reinterpret_cast<float2 *>(sm + (bars - a0) + 256);        /* [g][16]: {sa, ca} */
    float *FB = reinterpret_cast<float *>(FA + 16 * ng);                     /* [g][32]: sb of the tile */
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int nst = (nkb + DP_SKB - 1) / DP_SKB;
    if (tid == 128) {
        for (int s = 0; s < DP_NS; s++) mxk_mbar_init(bars + 8 * s, 1), mxk_mbar_init(bars + 8 * (DP_NS + s), 4);
        mxk_mbar_init(bars + 16 * DP_NS, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    /* activation factors (rows >= M: factor 1, their outputs are dropped) */
    unsigned bad = 0;
    bad |= dp_fill_fa(FA, P.ae, P.M, ng, tid, blockDim.x);
    __syncthreads();
    if (warp == 4) {
        if (lane == 0) {
            const uint32_t abar = bars + 16 * DP_NS;
            mxk_mbar_arrive_tx(abar, (uint32_t)nkb * 2048);
            for (int b = 0; b < nkb; b++) dp_tma2d(a0 + b * 2048, &tmA, b * 128, 0, abar);
            int it = 0;
            for (int t = blockIdx.x; t < P.ntiles; t += gridDim.x)
                for (int st = 0; st < nst; st++, it++) {
                    const int s = it % DP_NS;
                    if (it >= DP_NS) mxk_mbar_wait(bars + 8 * (DP_NS + s), (uint32_t)((it / DP_NS) + 1) & 1u);
                    const int kb0 = st * DP_SKB, n = min(DP_SKB, nkb - kb0);
                    mxk_mbar_arrive_tx(bars + 8 * s, (uint32_t)(B3D ? DP_SKB : n) * 4096);
                    if (B3D) /* one box of 128 bytes x 32 rows x SKB k-blocks (past K: zero fill, counted) */
                        asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                                     " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(ring0 + s * DP_SKB * 4096),
                                     "l"((uint64_t)&tmB), "r"(0), "r"(t * DP_BN), "r"(kb0), "r"(bars + 8 * s)
                                     : "memory");
                    else
                        for (int j = 0; j < n; j++)
                            dp_tma2d(ring0 + (s * DP_SKB + j) * 4096, &tmB, (kb0 + j) * 128, t * DP_BN, bars + 8 * s);
                }
        }
        if (bad) atomicAdd(P.outside, 1u);
        return;
    }
    /* consumers: warp 0 lanes hold rows gid and gid + 8, columns 8 jj + 2 q + e (jj < 4, e < 2) */
    const int gid = lane >> 2, q = lane & 3;
    mxk_mbar_wait(bars + 16 * DP_NS, 0u);
    float acc[16];
    int d0[16], d1[16];
#pragma unroll
    for (int i = 0; i < 16; i++) acc[i] = 0.0f, d0[i] = 0, d1[i] = 0;
    int it = 0;
    for (int t = blockIdx.x; t < P.ntiles; t += gridDim.x) {
        /* the tile's weight factors (the previous tile's readers are done: named barrier of the WG) */
        asm volatile("bar.sync 1, 128;\n" ::: "memory");
        bad |= dp_fill_fb(FB, P.be + (size_t)t * DP_BN * ng, ng, tid);
        asm volatile("bar.sync 1, 128;\n" ::: "memory");
        for (int st = 0; st < nst; st++, it++) {
            const int s = it % DP_NS, kb0 = st * DP_SKB, n = min(DP_SKB, nkb - kb0);
            mxk_mbar_wait(bars + 8 * s, (uint32_t)(it / DP_NS) & 1u);
            auto issue = [&](int (&dd)[16], int j) {
                const int kb = kb0 + j;
                wgmma_fence();
                dp_mma_first(dd, make_desc(a0 + kb * 2048), make_desc(ring0 + (s * DP_SKB + j) * 4096));
#pragma unroll
                for (int k = 1; k < 4; k++)
                    dp_mma(dd, make_desc(a0 + kb * 2048 + 32 * k), make_desc(ring0 + (s * DP_SKB + j) * 4096 + 32 * k));
                wgmma_commit();
            };
            /* every warp promotes (rows 16-63 are junk and never stored): a warp-dependent branch
            ** next to an in-flight accumulator would make ptxas serialise the wgmmas */
            auto promote = [&](int (&dd)[16], int g) {
                const float2 A0 = FA[g * 16 + gid], A1 = FA[g * 16 + gid + 8];
#pragma unroll
                for (int jj = 0; jj < 4; jj++)
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        const int i = 4 * jj + e;
                        const float2 A = (e >> 1) ? A1 : A0;
                        const float sb = FB[g * DP_BN + 8 * jj + 2 * q + (e & 1)];
                        const float x = __fmaf_rn(__int_as_float(dd[i] + 0x4B400000), A.x, A.y);
                        acc[i] = __fmaf_rn(x, sb, acc[i]);
                    }
            };
            if (n == DP_SKB) {
                issue(d0, 0);
#pragma unroll
                for (int j = 0; j < DP_SKB; j++) {
                    int(&dd)[16] = (j & 1) ? d1 : d0;
                    int(&dn)[16] = (j & 1) ? d0 : d1;
                    if (j + 1 < DP_SKB) issue(dn, j + 1);
                    if (j + 1 < DP_SKB) dp_wait1(dd);
                    else dp_wait0(dd);
                    promote(dd, kb0 + j);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    issue(d0, j);
                    dp_wait0(d0);
                    promote(d0, kb0 + j);
                }
            }
            __syncwarp();
            if (lane == 0) mxk_mbar_arrive(bars + 8 * (DP_NS + s));
        }
        if (warp == 0) {
#pragma unroll
            for (int i = 0; i < 16; i++) {
                const int m = gid + 8 * ((i >> 1) & 1), nn = t * DP_BN + 8 * (i >> 2) + 2 * q + (i & 1);
                if (m < P.M) P.c[(size_t)m * P.N + nn] = acc[i];
                acc[i] = 0.0f;
            }
        }
    }
    if (bad) atomicAdd(P.outside, 1u);
#endif
}

/* -r: the weights as the wgmma A operand FROM REGISTERS (m64n16k32, the activations as B from shared
** memory), so that they can stream as cfg 9's do: one 1-D bulk copy per weight row and stage (lane r
** of the producer warp copies row r) into rows KS + 16 bytes apart (LDS.32 of the 8 rows of a phase
** hit distinct banks).  Warps 0-1 hold the tile's 32 weight rows; warps 2-3 load the same rows again
** (their outputs are dropped), so that no warp-dependent branch meets an in-flight wgmma. */
#define DR_KS (DP_SKB * 128)
#define DR_KSP (DR_KS + 16)
#define DR_MMA                                                                                        \
    "wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.s8 "                                               \
    "{%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p;\n}\n"
#define DR_D(c) c(d[0]), c(d[1]), c(d[2]), c(d[3]), c(d[4]), c(d[5]), c(d[6]), c(d[7])
#define DR_RW(x) "+r"(x)
#define DR_WO(x) "=r"(x)
__device__ __forceinline__ void dr_mma(int (&d)[8], const uint32_t (&a)[4], uint64_t db, bool first)
{
    if (first)
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n" DR_MMA
                     : DR_D(DR_WO) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
    else
        asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" DR_MMA
                     : DR_D(DR_RW) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db));
}
__device__ __forceinline__ void dr_wait0(int (&d)[8]) { asm volatile("wgmma.wait_group.sync.aligned 0;\n" : DR_D(DR_RW)::"memory"); }
__device__ __forceinline__ void dr_wait1(int (&d)[8]) { asm volatile("wgmma.wait_group.sync.aligned 1;\n" : DR_D(DR_RW)::"memory"); }
__device__ __forceinline__ uint32_t dr_lds(uint32_t addr)
{
    uint32_t v;
    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr));
    return v;
}

/* NWG consumer warpgroups: with 2, warpgroup w takes the tile's rows 16 w .. 16 w + 15 (in its warp 0;
** its warps 1-3 repeat them), so that two wgmma streams run per SM */
template <int NWG>
__global__ void __launch_bounds__(NWG * 128 + 32, 1)
    dr_kernel(const __grid_constant__ CUtensorMap tmA, const int8_t *__restrict__ bm, const DpParams P)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t raw[];
    uint8_t *sm = (uint8_t *)(((uintptr_t)raw + 1023) & ~(uintptr_t)1023);
    const int K = P.K, nkb = K / 128, ng = nkb;
    const uint32_t a0 = (uint32_t)__cvta_generic_to_shared(sm);        /* activations: [kb][16][128], swizzled */
    const uint32_t ring0 = a0 + nkb * 2048;                             /* [NS][32 rows][DR_KSP] */
    const uint32_t bars = ring0 + DP_NS * DP_BN * DR_KSP;
    float2 *FA = reinterpret_cast<float2 *>(sm + (bars - a0) + 256);   /* [g][16]: {sa, ca} of the activations */
    float *FB = reinterpret_cast<float *>(FA + 16 * ng);                /* [g][32]: sb of the tile's rows */
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    const int nst = (nkb + DP_SKB - 1) / DP_SKB;
    /* this CTA's contiguous weight rows [r0, r1): at most one more than the average, in tiles of 32
    ** (the last one partial), so that no SM streams a whole tile more than another */
    const int r0 = (int)((int64_t)blockIdx.x * P.N / gridDim.x), r1 = (int)((int64_t)(blockIdx.x + 1) * P.N / gridDim.x);
    constexpr int NC = NWG * 128; /* consumer threads; the producer warp follows them */
    if (tid == NC) {
        for (int s = 0; s < DP_NS; s++) mxk_mbar_init(bars + 8 * s, 1), mxk_mbar_init(bars + 8 * (DP_NS + s), 4 * NWG);
        mxk_mbar_init(bars + 16 * DP_NS, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    unsigned bad = 0;
    bad |= dp_fill_fa(FA, P.ae, P.M, ng, tid, blockDim.x);
    __syncthreads();
    if (warp == 4 * NWG) {
        const uint32_t abar = bars + 16 * DP_NS;
        if (lane == 0) {
            mxk_mbar_arrive_tx(abar, (uint32_t)nkb * 2048);
            for (int b = 0; b < nkb; b++) dp_tma2d(a0 + b * 2048, &tmA, b * 128, 0, abar);
        }
        int it = 0;
        for (int t = 0; 32 * t < r1 - r0; t++)
            for (int st = 0; st < nst; st++, it++) {
                const int s = it % DP_NS, rows = min(DP_BN, r1 - r0 - 32 * t);
                if (it >= DP_NS) mxk_mbar_wait(bars + 8 * (DP_NS + s), (uint32_t)((it / DP_NS) + 1) & 1u);
                const int k0 = st * DR_KS, kb = min(DR_KS, K - k0);
                if (lane == 0) mxk_mbar_arrive_tx(bars + 8 * s, (uint32_t)(rows * kb));
                if (lane < rows) /* rows past the range: neither copied nor stored (stale ring bytes) */
                    mxk_bulk_g2s(ring0 + (s * DP_BN + lane) * DR_KSP, bm + (size_t)(r0 + 32 * t + lane) * K + k0,
                                 (uint32_t)kb, bars + 8 * s);
            }
        if (bad) atomicAdd(P.outside, 1u);
        return;
    }
    const int gid = lane >> 2, q = lane & 3;
    const int wr = (NWG == 1 ? (warp & 1) : (warp >> 2)) * 16 + gid; /* this lane's weight rows wr, wr + 8 */
    mxk_mbar_wait(bars + 16 * DP_NS, 0u);
    float acc[8];
    int d0[8], d1[8];
    uint32_t x0[4][4], x1[4][4]; /* A registers of a group's 4 k-steps, two sets */
#pragma unroll
    for (int i = 0; i < 8; i++) acc[i] = 0.0f, d0[i] = 0, d1[i] = 0;
    int it = 0;
    for (int t = 0; 32 * t < r1 - r0; t++) {
        const int tr0 = r0 + 32 * t, rows = min(DP_BN, r1 - tr0);
        asm volatile("bar.sync 1, %0;\n" ::"n"(NC) : "memory");
        bad |= dp_fill_fb(FB, P.be + (size_t)tr0 * ng, ng, tid, rows, NC);
        asm volatile("bar.sync 1, %0;\n" ::"n"(NC) : "memory");
        for (int st = 0; st < nst; st++, it++) {
            const int s = it % DP_NS, kb0 = st * DP_SKB, n = min(DP_SKB, nkb - kb0);
            mxk_mbar_wait(bars + 8 * s, (uint32_t)(it / DP_NS) & 1u);
            const uint32_t wrow = ring0 + (s * DP_BN + wr) * DR_KSP + 4 * q;
            auto load = [&](uint32_t (&x)[4][4], int j) {
#pragma unroll
                for (int ks = 0; ks < 4; ks++) {
                    const uint32_t o = wrow + j * 128 + ks * 32;
                    x[ks][0] = dr_lds(o), x[ks][1] = dr_lds(o + 8 * DR_KSP);
                    x[ks][2] = dr_lds(o + 16), x[ks][3] = dr_lds(o + 8 * DR_KSP + 16);
                }
            };
            auto issue = [&](int (&dd)[8], const uint32_t (&x)[4][4], int j) {
                wgmma_fence();
#pragma unroll
                for (int ks = 0; ks < 4; ks++) dr_mma(dd, x[ks], make_desc(a0 + (kb0 + j) * 2048 + 32 * ks), ks == 0);
                wgmma_commit();
            };
            auto promote = [&](int (&dd)[8], int g) {
                const float sb0 = FB[g * DP_BN + wr], sb1 = FB[g * DP_BN + wr + 8];
#pragma unroll
                for (int jj = 0; jj < 2; jj++)
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        const int i = 4 * jj + e;
                        const float2 A = FA[g * 16 + 8 * jj + 2 * q + (e & 1)];
                        const float x = __fmaf_rn(__int_as_float(dd[i] + 0x4B400000), A.x, A.y);
                        acc[i] = __fmaf_rn(x, (e >> 1) ? sb1 : sb0, acc[i]);
                    }
            };
            if (n == DP_SKB) {
                load(x0, 0);
                issue(d0, x0, 0);
#pragma unroll
                for (int j = 0; j < DP_SKB; j++) {
                    int(&dd)[8] = (j & 1) ? d1 : d0;
                    int(&dn)[8] = (j & 1) ? d0 : d1;
                    uint32_t(&xn)[4][4] = (j & 1) ? x0 : x1;
                    if (j + 1 < DP_SKB) {
                        load(xn, j + 1);
                        issue(dn, xn, j + 1);
                        dr_wait1(dd);
                    } else {
                        dr_wait0(dd);
                    }
                    promote(dd, kb0 + j);
                }
            } else {
                for (int j = 0; j < n; j++) {
                    load(x0, j);
                    issue(d0, x0, j);
                    dr_wait0(d0);
                    promote(d0, kb0 + j);
                }
            }
            __syncwarp();
            if (lane == 0) mxk_mbar_arrive(bars + 8 * (DP_NS + s));
        }
        if (NWG == 1 ? warp < 2 : (warp & 3) == 0) {
#pragma unroll
            for (int i = 0; i < 8; i++) {
                const int m = 8 * (i >> 2) + 2 * q + (i & 1), rl = wr + 8 * ((i >> 1) & 1);
                if (m < P.M && rl < rows) P.c[(size_t)m * P.N + tr0 + rl] = acc[i];
                acc[i] = 0.0f;
            }
        }
    }
    if (bad) atomicAdd(P.outside, 1u);
#endif
}

static PFN_cuTensorMapEncodeTiled_v12000 dp_encode()
{
    void *p = nullptr;
    cudaDriverEntryPointQueryResult r;
    if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &r) != cudaSuccess ||
        r != cudaDriverEntryPointSuccess)
        return nullptr;
    return (PFN_cuTensorMapEncodeTiled_v12000)p;
}
/* B as 3 dimensions {128 bytes, rows, K / 128 k-blocks}: one box per ring stage, laid out k-block by
** k-block as the 2-D boxes are */
static bool dp_map3(CUtensorMap *m, const void *p, int rows, int K)
{
    static PFN_cuTensorMapEncodeTiled_v12000 enc = dp_encode();
    if (!enc) return false;
    cuuint64_t dims[3] = {128, (cuuint64_t)rows, (cuuint64_t)K / 128}, strides[2] = {(cuuint64_t)K, 128};
    cuuint32_t box[3] = {128, DP_BN, DP_SKB}, es[3] = {1, 1, 1};
    const CUresult r = enc(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 3, (void *)p, dims, strides, box, es,
                           CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                           CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r != CUDA_SUCCESS) fprintf(stderr, "decode_wgmma_probe: 3-D tensor map refused (CUresult %d)\n", (int)r);
    return r == CUDA_SUCCESS;
}
static bool dp_map(CUtensorMap *m, const void *p, int rows, int K, int box_rows)
{
    static PFN_cuTensorMapEncodeTiled_v12000 enc = dp_encode();
    if (!enc) return false;
    cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)rows}, strides[1] = {(cuuint64_t)K};
    cuuint32_t box[2] = {128, (cuuint32_t)box_rows}, es[2] = {1, 1};
    return enc(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void *)p, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) ==
           CUDA_SUCCESS;
}

static bool g_3d = false; /* -3: the weights as one 3-D box per stage */
static int g_rs = 0; /* -r / -r2: the weights from registers (dr_kernel), 1 or 2 consumer warpgroups */

static int run_shape(const cudaDeviceProp &prop, int M, int N, int K)
{
    const int G = 128, ng = K / G;
    const size_t bsz = (size_t)N * K;
    const int nsets = (int)std::max<size_t>(2, 3 * (size_t)prop.l2CacheSize / bsz + 1);
    std::vector<int8_t> ha((size_t)M * K), hb(bsz);
    std::vector<uint8_t> hae((size_t)M * ng), hbe((size_t)N * ng);
    uint64_t x = 0x9E3779B97F4A7C15ull ^ ((uint64_t)M << 40 | (uint64_t)N << 20 | (uint64_t)K);
    auto rnd = [&]() { x ^= x << 13, x ^= x >> 7, x ^= x << 17; return x; };
    for (auto &v : ha) v = (int8_t)(rnd() & 0xFF);
    for (auto &v : hb) v = (int8_t)(rnd() & 0xFF);
    for (auto &v : hae) v = (uint8_t)(100 + rnd() % 41); /* inside the fast-path window [59, 186] */
    for (auto &v : hbe) v = (uint8_t)(100 + rnd() % 41);
    int8_t *da, *db;
    uint8_t *dae, *dbe;
    float *c_probe, *c_ref;
    unsigned *outside;
    CK(cudaMalloc(&da, (size_t)16 * K)); /* 16 rows, zero past M: the activations' TMA box stays in bounds */
    CK(cudaMemset(da, 0, (size_t)16 * K));
    CK(cudaMalloc(&db, bsz * nsets));
    CK(cudaMalloc(&dae, hae.size()));
    CK(cudaMalloc(&dbe, hbe.size()));
    CK(cudaMalloc(&c_probe, (size_t)M * N * 4));
    CK(cudaMalloc(&c_ref, (size_t)M * N * 4));
    CK(cudaMalloc(&outside, 4));
    CK(cudaMemset(outside, 0, 4));
    CK(cudaMemcpy(da, ha.data(), ha.size(), cudaMemcpyHostToDevice));
    for (int i = 0; i < nsets; i++) CK(cudaMemcpy(db + bsz * i, hb.data(), bsz, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dae, hae.data(), hae.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dbe, hbe.data(), hbe.size(), cudaMemcpyHostToDevice));
    std::vector<CUtensorMap> mb(nsets);
    CUtensorMap ma;
    bool ok = dp_map(&ma, da, 16, K, 16);
    for (int i = 0; i < nsets; i++) ok = ok && (g_3d ? dp_map3(&mb[i], db + bsz * i, N, K) : dp_map(&mb[i], db + bsz * i, N, K, DP_BN));
    if (!ok) {
        fprintf(stderr, "decode_wgmma_probe: cuTensorMapEncodeTiled failed\n");
        return 1;
    }
    const size_t smem = g_rs ? 1024 + (size_t)(K / 128) * 2048 + DP_NS * DP_BN * DR_KSP + 256 + 16 * ng * 8 + DP_BN * ng * 4
                             : 1024 + (size_t)(K / 128 + 3) * 2048 + DP_NS * DP_SKB * 4096 + 256 + 16 * ng * 8 + DP_BN * ng * 4;
    if (smem > (size_t)prop.sharedMemPerBlockOptin) {
        fprintf(stderr, "decode_wgmma_probe: %dx%dx%d: %zu bytes of shared memory needed (K too large)\n", M, N, K, smem);
        return 2;
    }
    auto kern = g_3d ? dp_kernel<true> : dp_kernel<false>;
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(dr_kernel<1>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(dr_kernel<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    DpParams P{M, N, K, N / DP_BN, dae, dbe, c_probe, outside};
    const int grid = std::min(P.ntiles, prop.multiProcessorCount);
    auto probe = [&](int i) {
        if (g_rs == 2) dr_kernel<2><<<grid, 288, smem>>>(ma, db + bsz * i, P);
        else if (g_rs) dr_kernel<1><<<grid, 160, smem>>>(ma, db + bsz * i, P);
        else kern<<<grid, 160, smem>>>(ma, mb[i], P);
    };
    auto cfg = [&](int i, int k, float *c) { CK((cudaError_t)mxk_gemm(M, N, K, G, da, dae, db + bsz * i, dbe, c, k, 0)); };
    probe(0);
    cfg(0, 9, c_ref);
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> hp((size_t)M * N), hr((size_t)M * N);
    CK(cudaMemcpy(hp.data(), c_probe, hp.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(hr.data(), c_ref, hr.size() * 4, cudaMemcpyDeviceToHost));
    long mism = 0;
    for (size_t i = 0; i < hp.size(); i++) mism += hp[i] != hr[i];
    unsigned out_h = 0;
    CK(cudaMemcpy(&out_h, outside, 4, cudaMemcpyDeviceToHost));
    const double t_probe = median_event_us(probe, nsets);
    const double t9 = median_event_us([&](int i) { cfg(i, 9, c_ref); }, nsets);
    const double t0 = median_event_us([&](int i) { cfg(i, 0, c_ref); }, nsets);
    const double t_probe2 = median_event_us(probe, nsets);
    const char *name = g_rs == 2 ? "decode-wgmma-probe-rs2" : g_rs ? "decode-wgmma-probe-rs" : g_3d ? "decode-wgmma-probe-3d" : "decode-wgmma-probe";
    printf("%s,%d,%d,%d,%d,%s,%.3f,%ld\n", prop.name, M, N, K, G, name, t_probe, mism);
    printf("%s,%d,%d,%d,%d,mxk-gemm-mxint8-cfg9,%.3f,0\n", prop.name, M, N, K, G, t9);
    printf("%s,%d,%d,%d,%d,mxk-gemm-mxint8,%.3f,\n", prop.name, M, N, K, G, t0);
    printf("%s,%d,%d,%d,%d,%s-again,%.3f,%ld\n", prop.name, M, N, K, G, name, t_probe2, mism);
    if (out_h) fprintf(stderr, "decode_wgmma_probe: %u blocks saw scales outside the fast-path window\n", out_h);
    cudaFree(da), cudaFree(db), cudaFree(dae), cudaFree(dbe), cudaFree(c_probe), cudaFree(c_ref), cudaFree(outside);
    return mism || out_h ? 1 : 0;
}

int main(int argc, char **argv)
{
    std::vector<int> shapes;
    for (int i = 1; i < argc; i++) {
        if (i == 1 && (!strcmp(argv[i], "-3") || !strcmp(argv[i], "-r") || !strcmp(argv[i], "-r2"))) {
            if (argv[i][1] == '3') g_3d = true;
            else g_rs = argv[i][2] ? 2 : 1;
            continue;
        }
        char *end = nullptr;
        const long v = strtol(argv[i], &end, 10);
        if (!end || *end || v < 1 || v > (1 << 20)) {
            fprintf(stderr, "decode_wgmma_probe: argument %d ('%s'): expected a positive integer (M N K triples)\n", i, argv[i]);
            return 2;
        }
        shapes.push_back((int)v);
    }
    if (shapes.size() % 3) {
        fprintf(stderr, "decode_wgmma_probe: expected M N K triples\n");
        return 2;
    }
    if (shapes.empty()) shapes = {1, 4096, 4096, 16, 4096, 4096, 1, 11008, 4096, 16, 11008, 4096};
    for (size_t i = 0; i < shapes.size(); i += 3) /* before any device work */
        if (shapes[i] > 16 || shapes[i + 1] % DP_BN || shapes[i + 2] % 512 || shapes[i + 2] > 4096) {
            fprintf(stderr, "decode_wgmma_probe: %dx%dx%d: needs 1 <= M <= 16, N %% 32 == 0, K %% 512 == 0, K <= 4096\n",
                    shapes[i], shapes[i + 1], shapes[i + 2]);
            return 2;
        }
    cudaDeviceProp prop;
    if (tool_device("decode_wgmma_probe", 9, &prop)) return 1;
    printf("card,M,N,K,G,method,median_us,mismatches_vs_cfg9\n");
    int rc = 0;
    for (size_t i = 0; i < shapes.size(); i += 3) rc |= run_shape(prop, shapes[i], shapes[i + 1], shapes[i + 2]);
    return rc;
}

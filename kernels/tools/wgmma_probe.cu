/* wgmma_probe.cu - how fast do int8 wgmma chains run on this card when each warpgroup drains its
** chain every few instructions, as the Hopper GEMM (gemm_wgmma.cu) does once per 128-byte stage,
** and what does each piece of the GEMM's per-stage work cost?  A development probe, not part of
** the library: one CTA per SM, NWG consumer warpgroups, each issuing `iters` commit groups of C
** wgmma.m64n128k32.s32.s8.s8 from one shared-memory tile (128-byte swizzle, K-major), then
** wait_group 0.  probe<NWG, C>: nothing else.  probe_ring<NWG, MODE>: chains of 4 (one 128-byte
** stage) with the GEMM's ring handshake and, by MODE, its factor loads and its fast promotion
** (see probe_ring).  probe_promo: the consumer loop without the ring.  probe_g32<NWG, BIAS, KPG>:
** the GEMM's two-set structure at G = 32 KPG with its factor loads (BIAS: the promotion without
** its IADD).  probe_n64: 4 warpgroups of 64x64 tiles.  probe_bf16: the two-set structure on the
** bf16 path of cfg 11 (gemm_bf16.cu).  probe_mixed<KIND>: one warpgroup's wgmma stream while the
** other one runs CUDA-core work of KIND (does that work slow the tensor stream?).  The fraction is
** of the int8 tensor peak, 4096 MACs per SM per clock at the card's maximum SM clock
** (probe_session.sh samples the clock it actually ran at).  exact_bf16<KS>: the exactness of the
** bf16 path's fp32 accumulation that cfg 11's proof rests on (mismatch counts to stderr).
** Built by CMake (target wgmma_probe, sm_90a); kernels/tools/probe_session.sh runs it.
** usage: wgmma_probe [-g]   (-g: only the probe_g32 rows, twice; CSV: card,nwg,n,chain,us,fraction_of_peak for probe, probe_ring,
**                       probe_promo, probe_g32, probe_n64 and probe_bf16; then a second header,
**                       card,probe,wgmma_clk_per_chain4, wgmma_fraction_of_peak,
**                       wg1_warp_instr_per_clk_per_sm, for probe_mixed) */
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cuda_check.h"
#include "../src/mxk_mbar.cuh"
#include "../src/mxk_wgmma.cuh"


/* C wgmmas per commit group (k-steps of the 128-byte tile, cycled), then drain */
template <int NWG, int C>
__global__ void __launch_bounds__(NWG * 128, 1) probe(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    for (int i = threadIdx.x; i < (64 * NWG + 128) * 128; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    const uint32_t a = (uint32_t)__cvta_generic_to_shared(s) + wg * 64 * 128;
    const uint32_t b = (uint32_t)__cvta_generic_to_shared(s) + NWG * 64 * 128;
    const uint64_t da = make_desc(a), db = make_desc(b);
    int d[64];
#pragma unroll
    for (int i = 0; i < 64; i++) d[i] = 0;
    for (int it = 0; it < iters; it++) {
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < C; k++) wgmma_s8(d, da + 2 * (k & 3), db + 2 * (k & 3), 1);
        wgmma_commit();
        wgmma_wait0(d);
    }
    int x = 0;
#pragma unroll
    for (int i = 0; i < 64; i++) x ^= d[i];
    if (x == 0x12345) out[0] = x;
}

/* As probe<NWG, 4>, with the GEMM's per-stage traffic around each chain: MODE 1 adds the ring
** handshake (5 slots; one producer thread, no copies: it arms full[s] once empty[s] completes;
** each consumer warp arrives on empty[s]), MODE 2 adds to it 10 shared loads per thread (the
** factor tables) issued before the fence, MODE 3 the same loads issued after the commit, MODE 4
** = MODE 2 + the fast promotion of the 64 dots into fp32 accumulators, MODE 5 = MODE 4 without
** the wgmmas (the promotion's own time), MODE 6 = MODE 4 with the factors in registers. */
template <int NWG, int MODE>
__global__ void __launch_bounds__(NWG * 128 + 128, 1) probe_ring(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const int tile = (64 * NWG + 128) * 128, S = 5;
    const uint32_t full0 = base + tile + 4096, empty0 = full0 + 8 * S;
    for (int i = threadIdx.x; i < tile + 4096; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    if (threadIdx.x == 0)
        for (int i = 0; i < S; i++) mxk_mbar_init(full0 + 8 * i, 1), mxk_mbar_init(empty0 + 8 * i, 4 * NWG);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    if (wg == NWG) {
        if (threadIdx.x == NWG * 128)
            for (int it = 0; it < iters; it++) {
                if (it >= S) mxk_mbar_wait(empty0 + 8 * (it % S), (uint32_t)((it / S) + 1) & 1u);
                mxk_mbar_arrive(full0 + 8 * (it % S));
            }
        return;
    }
    const uint64_t da = make_desc(base + wg * 64 * 128), db = make_desc(base + NWG * 64 * 128);
    /* the GEMM's pattern: 8 LDS.128 of which a warp's lanes read 4 distinct addresses (B factors by
    ** column quad) and 2 LDS.64 of 8 distinct rows (A factors) */
    const float4 *fac = reinterpret_cast<const float4 *>(s + tile) + (threadIdx.x & 3);
    const float2 *fa = reinterpret_cast<const float2 *>(s + tile + 2048) + ((threadIdx.x >> 2) & 7);
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = 0.f;
    int d[64];
#pragma unroll
    for (int i = 0; i < 64; i++) d[i] = 0;
    float fs = 0.f;
    for (int it = 0; it < iters; it++) {
        const int sl = it % S;
        mxk_mbar_wait(full0 + 8 * sl, (uint32_t)(it / S) & 1u);
        float4 f[8];
        float2 a0, a1;
        auto ld = [&] {
#pragma unroll
            for (int j = 0; j < 8; j++) f[j] = fac[4 * j + 32 * sl];
            a0 = fa[16 * sl], a1 = fa[16 * sl + 8];
        };
        if (MODE == 2 || MODE == 4 || MODE == 5) ld();
        if (MODE == 6) { /* factors fixed in registers: no loads */
#pragma unroll
            for (int j = 0; j < 8; j++) f[j] = make_float4(1.f, 2.f, 3.f, (float)j);
            a0 = make_float2(1.f, (float)sl), a1 = make_float2(2.f, 3.f);
        }
        if (MODE != 5) {
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < 4; k++) wgmma_s8(d, da + 2 * k, db + 2 * k, 1);
            wgmma_commit();
        }
        if (MODE == 3) ld();
        wgmma_wait0(d);
        __syncwarp();
        if ((threadIdx.x & 31) == 0) mxk_mbar_arrive(empty0 + 8 * sl);
        if (MODE == 2 || MODE == 3)
#pragma unroll
            for (int j = 0; j < 8; j++) fs += f[j].x * f[j].w + a0.x * a1.y;
        if (MODE >= 4) /* the fast promotion: IADD + 2 FFMA per output */
#pragma unroll
            for (int i = 0; i < 64; i++) {
                const float4 B = f[i >> 3];
                const float2 A = (i & 2) ? a1 : a0;
                const float x = __fmaf_rn(__int_as_float(d[i] + 0x4B400000), A.x, A.y);
                acc[i] = __fmaf_rn(x, (i & 1) ? B.y : B.x, acc[i]);
            }
    }
    int x = 0;
#pragma unroll
    for (int i = 0; i < 64; i++) x ^= d[i];
#pragma unroll
    for (int i = 0; i < 64; i++) fs += acc[i];
    if (x == 0x12345 || fs == 1.2345f) out[0] = x;
}

/* The GEMM's consumer loop without the ring: NWG warpgroups each repeat {4 wgmma, commit, wait 0,
** promote the 64 dots} on their own registers.  P: 0 no promotion, 1 the fast promotion (IADD + 2
** FFMA per output), 2 two FFMA per output, 3 one FFMA per output (what an fp32-accumulating MMA
** needs).  Do the warpgroups' promotions overlap the other warpgroup's wgmma? */
template <int NWG, int P>
__global__ void __launch_bounds__(NWG * 128, 1) probe_promo(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    for (int i = threadIdx.x; i < (64 * NWG + 128) * 128; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const uint64_t da = make_desc(base + wg * 64 * 128), db = make_desc(base + NWG * 64 * 128);
    int d[64];
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = 0.f, d[i] = 0;
    const float sa = 1.0000001f + threadIdx.x, ca = -3.0f, sb = 0.9999999f;
    for (int it = 0; it < iters; it++) {
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < 4; k++) {
            /* without a promotion the chain accumulates across iterations: an overwritten, unread
            ** result lets ptxas drop the wgmmas (a first run measured "1.97x the peak") */
            if (k == 0 && P > 0) wgmma_s8_first(d, da, db);
            else wgmma_s8(d, da + 2 * k, db + 2 * k, 1);
        }
        wgmma_commit();
        wgmma_wait0(d);
#pragma unroll
        for (int i = 0; i < 64; i++) {
            if (P == 1) acc[i] = __fmaf_rn(__fmaf_rn(__int_as_float(d[i] + 0x4B400000), sa, ca), sb, acc[i]);
            if (P == 2) acc[i] = __fmaf_rn(__fmaf_rn(__int_as_float(d[i]), sa, ca), sb, acc[i]);
            if (P == 3) acc[i] = __fmaf_rn(__int_as_float(d[i]), sa, acc[i]);
        }
    }
    int x = 0;
    float fs = 0.f;
#pragma unroll
    for (int i = 0; i < 64; i++) x ^= d[i], fs += acc[i];
    if (x == 0x12345 || fs == 1.2345f) out[0] = x;
}

/* The GEMM's factor loads and fast promotion of one group (gemm_wgmma.cu, apply_fac): NB LDS.128 of
** B factors (this thread's column quads, 64 bytes apart from fb) and 2 LDS.64 of A factors (rows
** rl0 and rl0 + 8, at fa and fa + 64), then per output x = fma(F, sa, ca), acc = fma(x, sb, acc)
** with F the accumulator's bits (BIAS) or those of d + 0x4B400000 (the IADD).  NB = 8 for a
** 64 x 128 tile (64 outputs per thread), 4 for 64 x 64 (32). */
template <int NB, bool BIAS>
__device__ __forceinline__ void probe_promote(const int *dd, float *acc, uint32_t fb, uint32_t fa)
{
    float4 f[NB];
    float2 a0, a1;
#pragma unroll
    for (int j = 0; j < NB; j++)
        asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];\n" : "=f"(f[j].x), "=f"(f[j].y), "=f"(f[j].z), "=f"(f[j].w) : "r"(fb + 64 * j));
    asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];\n" : "=f"(a0.x), "=f"(a0.y) : "r"(fa));
    asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];\n" : "=f"(a1.x), "=f"(a1.y) : "r"(fa + 64));
#pragma unroll
    for (int bb = 0; bb < NB; bb++) {
        const float sbv[4] = {f[bb].x, f[bb].y, f[bb].z, f[bb].w};
#pragma unroll
        for (int h2 = 0; h2 < 2; h2++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                const int i = (bb * 2 + h2) * 4 + e;
                const float2 A = (e >> 1) ? a1 : a0;
                const int bits = BIAS ? dd[i] : dd[i] + 0x4B400000;
                const float x = __fmaf_rn(__int_as_float(bits), A.x, A.y);
                acc[i] = __fmaf_rn(x, sbv[h2 * 2 + (e & 1)], acc[i]);
            }
    }
}

/* The Hopper GEMM's two-set structure (4 groups of KPG k-steps, G = 32 KPG, two accumulator sets,
** the wgmmas of group gi + 1 in flight while gi is promoted, drained after the 4th: the G = 32 stage,
** or a G = 64 stage pair), with the 10 factor loads per group, on NWG warpgroups without a ring.
** BIAS 0: the GEMM's promotion, IADD + 2 FFMA per output.  BIAS 1 (KPG = 1): each group starts with
** a wgmma over a constant region of bytes 0x80 (-128 x -128 x 32 = 2^19 in every s32 accumulator),
** so that the accumulator holds 2^19 + d in [0, 2^20] and its bits are the float (2^19 + d) 2^-149
** (subnormal): 2 FFMA per output and no IADD, for twice the tensor work.  KPG > 1 (G = 64, 128):
** the same one bias k-step per group, 1 / KPG more tensor work; this times it only (|d| reaches
** 2^20 / 2^21 there, so an exact kernel needs a bias of at least 128 x 127 x G: a u8 x u8 k-step of
** bytes 0xFF gives 255 x 255 x 32 = 2,080,800 >= 2,080,768 for G = 128, at the s8 step's rate). */
template <int NWG, int BIAS, int KPG>
__global__ void __launch_bounds__(NWG * 128, 1) probe_g32(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    const int tile = (64 * NWG + 128) * 128, cbytes = 128 * 128;
    for (int i = threadIdx.x; i < tile; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    for (int i = threadIdx.x; i < cbytes; i += blockDim.x) s[tile + i] = 0x80;
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) s[tile + cbytes + i] = (uint8_t)(i * 13 + 7);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const uint64_t da = make_desc(base + wg * 64 * 128), db = make_desc(base + NWG * 64 * 128);
    const uint64_t dc = make_desc(base + tile);
    /* the GEMM's factor loads: 8 LDS.128 (B factors by column quad) and 2 LDS.64 (A factors) */
    const uint32_t fb0 = base + tile + cbytes + 16 * (threadIdx.x & 3), fa0 = base + tile + cbytes + 2048 + 8 * ((threadIdx.x >> 2) & 7);
    int d[64], d1[64];
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = 0.f, d[i] = 0, d1[i] = 0;
    auto issue = [&](int (&dd)[64], int gi) {
        wgmma_fence();
        if (BIAS) wgmma_s8_first(dd, dc, dc);
#pragma unroll
        for (int k = 0; k < KPG; k++) {
            const int ks = (gi * KPG + k) & 3;
            if (k == 0 && !BIAS) wgmma_s8_first(dd, da + 2 * ks, db + 2 * ks);
            else wgmma_s8(dd, da + 2 * ks, db + 2 * ks, 1);
        }
        wgmma_commit();
    };
    auto promote = [&](int (&dd)[64], int gi) { probe_promote<8, BIAS != 0>(dd, acc, fb0 + 512 * gi, fa0 + 128 * gi); };
    for (int it = 0; it < iters; it++) {
        issue(d, 0);
        issue(d1, 1);
        wgmma_wait1(d);
        promote(d, 0);
        issue(d, 2);
        wgmma_wait1(d1);
        promote(d1, 1);
        issue(d1, 3);
        wgmma_wait1(d);
        promote(d, 2);
        wgmma_wait0(d1);
        promote(d1, 3);
    }
    float fs = 0.f;
#pragma unroll
    for (int i = 0; i < 64; i++) fs += acc[i];
    if (fs == 1.2345f) out[0] = 1;
}

/* wgmma.m64n64k32.s32.s8.s8: 32 accumulators per thread (probe_n64 only) */
template <bool FIRST> __device__ __forceinline__ void wgmma_s8_n64(int (&d)[32], uint64_t da, uint64_t db)
{
#define WG_N64_R8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k32.s32.s8.s8 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31},"
                 " %32, %33, p;\n}\n"
                 : WG_N64_R8(0), WG_N64_R8(8), WG_N64_R8(16), WG_N64_R8(24)
                 : "l"(da), "l"(db), "r"(FIRST ? 0 : 1));
#undef WG_N64_R8
}
__device__ __forceinline__ void wgmma_wait_n64(int (&d)[32])
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]), "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7]),
                   "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11]), "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15]),
                   "+r"(d[16]), "+r"(d[17]), "+r"(d[18]), "+r"(d[19]), "+r"(d[20]), "+r"(d[21]), "+r"(d[22]), "+r"(d[23]),
                   "+r"(d[24]), "+r"(d[25]), "+r"(d[26]), "+r"(d[27]), "+r"(d[28]), "+r"(d[29]), "+r"(d[30]), "+r"(d[31])
                 :: "memory");
}

/* More promoting warps per scheduler: NWG warpgroups (up to 4: 4 warps per scheduler), each with a
** 64 x 64 tile (m64n64k32, 32 accumulators), groups of KPG k-steps (G = 32 KPG), one accumulator
** set: {wgmma x KPG, commit, wait 0, 6 factor loads, IADD + 2 FFMA per output}.  The fraction counts
** the int8 MACs; the question: does the promotion's issue scale with the number of warps? */
template <int NWG, int KPG>
__global__ void __launch_bounds__(NWG * 128, 1) probe_n64(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    const int tile = (64 * NWG + 64) * 128;
    for (int i = threadIdx.x; i < tile + 4096; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const uint64_t da = make_desc(base + wg * 64 * 128), db = make_desc(base + NWG * 64 * 128);
    const uint32_t fb0 = base + tile + 16 * (threadIdx.x & 3), fa0 = base + tile + 2048 + 8 * ((threadIdx.x >> 2) & 7);
    int d[32];
    float acc[32];
#pragma unroll
    for (int i = 0; i < 32; i++) acc[i] = 0.f, d[i] = 0;
    for (int it = 0; it < iters; it++) {
#pragma unroll 1
        for (int gi = 0; gi < 4 / KPG; gi++) {
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < KPG; k++) {
                if (k == 0) wgmma_s8_n64<true>(d, da + 2 * (gi * KPG), db + 2 * (gi * KPG));
                else wgmma_s8_n64<false>(d, da + 2 * (gi * KPG + k), db + 2 * (gi * KPG + k));
            }
            wgmma_commit();
            wgmma_wait_n64(d);
            probe_promote<4, false>(d, acc, fb0 + 256 * gi, fa0 + 128 * gi);
        }
    }
    float fs = 0.f;
#pragma unroll
    for (int i = 0; i < 32; i++) fs += acc[i];
    if (fs == 1.2345f) out[0] = 1;
}

/* wgmma.m64n128k16.f32.bf16.bf16, both operands K-major from shared memory (the same 128-byte swizzle
** and the same 32 bytes per k-step as the int8 instruction), scale-d from the caller */
#define WG_F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
__device__ __forceinline__ void wgmma_bf16(float (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
                 "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
                 "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63},"
                 " %64, %65, p, 1, 1, 0, 0;\n}\n"
                 : WG_F8(0), WG_F8(8), WG_F8(16), WG_F8(24), WG_F8(32), WG_F8(40), WG_F8(48), WG_F8(56)
                 : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void wgmma_wait_f(float (&d)[64], int n)
{
    if (n == 0)
        asm volatile("wgmma.wait_group.sync.aligned 0;\n" : WG_F8(0), WG_F8(8), WG_F8(16), WG_F8(24), WG_F8(32), WG_F8(40), WG_F8(48), WG_F8(56)::"memory");
    else
        asm volatile("wgmma.wait_group.sync.aligned 1;\n" : WG_F8(0), WG_F8(8), WG_F8(16), WG_F8(24), WG_F8(32), WG_F8(40), WG_F8(48), WG_F8(56)::"memory");
}
#undef WG_F8

/* The two-set structure of probe_g32 on the bf16 tensor path: operands pre-scaled into bf16 (an int8
** mantissa times its power-of-two scale is a bf16), each group of G = 16 KPG a chain of KPG
** m64n128k16 (fp32 accumulate, the first with scale-d = 0), promoted with ONE FADD per output (the
** group's dot already carries its scale), no factor loads.  Half the int8 tensor rate; the fraction
** is of the int8 peak (at most 0.5 here). */
template <int NWG, int KPG>
__global__ void __launch_bounds__(NWG * 128, 1) probe_bf16(int iters, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    const int tile = (64 * NWG + 128) * 128;
    for (int i = threadIdx.x; i < tile / 2; i += blockDim.x) /* bf16 of small integers */
        reinterpret_cast<uint16_t *>(s)[i] = (uint16_t)(0x3F80 + ((i * 37 + 11) & 0x7F) * 0x10);
    __syncthreads();
    const int wg = threadIdx.x >> 7;
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const uint64_t da = make_desc(base + wg * 64 * 128), db = make_desc(base + NWG * 64 * 128);
    float d[64], d1[64], acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = 0.f, d[i] = 0.f, d1[i] = 0.f;
    auto issue = [&](float (&dd)[64], int gi) {
        wgmma_fence();
#pragma unroll
        for (int k = 0; k < KPG; k++) {
            const int ks = (gi * KPG + k) & 3;
            wgmma_bf16(dd, da + 2 * ks, db + 2 * ks, k > 0);
        }
        wgmma_commit();
    };
    auto promote = [&](float (&dd)[64]) {
#pragma unroll
        for (int i = 0; i < 64; i++) acc[i] = __fadd_rn(acc[i], dd[i]);
    };
    for (int it = 0; it < iters; it++) {
        issue(d, 0);
        issue(d1, 1);
        wgmma_wait_f(d, 1);
        promote(d);
        issue(d, 2);
        wgmma_wait_f(d1, 1);
        promote(d1);
        issue(d1, 3);
        wgmma_wait_f(d, 1);
        promote(d);
        wgmma_wait_f(d1, 0);
        promote(d1);
    }
    float fs = 0.f;
#pragma unroll
    for (int i = 0; i < 64; i++) fs += acc[i];
    if (fs == 1.2345f) out[0] = 1;
}

/* Is the bf16 path exact?  One warpgroup, `trials` groups of 16 KS (KS k-steps: 32 = cfg 11's G = 32,
** 64 = its G = 64): A (64 x 16 KS) and B (128 x 16 KS) int8
** mantissas (random, all -128, or 127s with one +-1 in a row: the low bit under the largest
** partial sums) times per-row powers of two 2^(E-133), E in [70, 187], written as bf16 into the
** 128-byte-swizzled tiles; KS k-steps of m64n128k16 with fp32 accumulation; each output compared
** with its exact value d 2^(EA+EB-266), d the integer dot (|d| <= 2^20, so the value is a float).
** out[0] += mismatches, out[1] += outputs compared. */
__device__ __forceinline__ uint32_t probe_hash(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}
__device__ __forceinline__ int probe_mant(int trial, int side, int row, int k, int glen)
{
    const int mode = trial & 3;
    const uint32_t h = probe_hash((uint32_t)(trial * 7919 + side * 104729 + row * 131 + k));
    const uint32_t h1 = probe_hash((uint32_t)(trial * 7919 + side * 104729 + row * 131)); /* per row */
    if (mode == 1) return -128;
    if (mode == 2) return k == (int)(h1 % (uint32_t)glen) ? ((h & 1) ? 1 : -1) : ((h & 2) ? 127 : -128);
    return (int)(h & 0xFF) - 128;
}
__device__ __forceinline__ int probe_exp(int trial, int side, int row)
{
    if ((trial & 3) == 3) return 70 + (int)(probe_hash((uint32_t)(trial * 31 + side * 17 + row * 1009)) % 117); /* the window [70, 186] */
    return 120 + (int)(probe_hash((uint32_t)(trial * 31 + side * 17 + row * 1009)) % 16);
}
template <int KS>
__global__ void __launch_bounds__(128, 1) exact_bf16(int trials, unsigned long long *out)
{
    constexpr int GL = 16 * KS; /* the group's length: KS k-steps of 16 */
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    const uint64_t da = make_desc(base), db = make_desc(base + 64 * 128);
    const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
    unsigned long long bad = 0, n = 0;
    for (int trial = blockIdx.x; trial < trials; trial += gridDim.x) {
        __syncthreads();
        for (int i = threadIdx.x; i < 192 * GL; i += 128) { /* row r (A 0-63, B 64-191), element k < GL */
            const int r = i / GL, k = i % GL, side = r >= 64, row = side ? r - 64 : r;
            const float v = ldexpf((float)probe_mant(trial, side, row, k, GL), probe_exp(trial, side, row) - 133);
            const uint32_t byte = (uint32_t)r * 128 + ((((uint32_t)k * 2) >> 4) ^ ((uint32_t)r & 7)) * 16 + (((uint32_t)k * 2) & 15);
            *reinterpret_cast<uint16_t *>(s + byte) = (uint16_t)(__float_as_uint(v) >> 16); /* exact: 8 significant bits */
        }
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
        __syncthreads();
        float d[64];
#pragma unroll
        for (int i = 0; i < 64; i++) d[i] = 0.f;
        wgmma_fence();
#pragma unroll
        for (int ks = 0; ks < KS; ks++) wgmma_bf16(d, da + 2 * ks, db + 2 * ks, ks > 0);
        wgmma_commit();
        wgmma_wait_f(d, 0);
#pragma unroll 1
        for (int i = 0; i < 64; i++) {
            const int row = 16 * w + (lane >> 2) + 8 * ((i >> 1) & 1), col = (i >> 2) * 8 + (lane & 3) * 2 + (i & 1);
            int dot = 0;
            for (int k = 0; k < GL; k++) dot += probe_mant(trial, 0, row, k, GL) * probe_mant(trial, 1, col, k, GL);
            const double ref = ldexp((double)dot, probe_exp(trial, 0, row) + probe_exp(trial, 1, col) - 266);
            bad += (double)d[i] != ref || __float_as_uint(d[i]) != __float_as_uint((float)ref);
            n++;
        }
    }
    atomicAdd(&out[0], bad);
    atomicAdd(&out[1], n);
}

/* One CSV row of a timed probe: kern<<<nsm, threads, smem>>>(iters, out) once to warm up, then 5
** launches between events; the MACs are nwg warpgroups x wgmmas_per_wg m64n128k32 (262144 each) per
** SM, the fraction is of 4096 MAC/clk/SM at clk_ghz.  chain: the CSV's chain column. */
static void time_row(void (*kern)(int, int *), const char *card, int nsm, double clk_ghz, int nwg, int threads,
                     int smem, int iters, double wgmmas_per_wg, const char *chain, int *out)
{
    CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    kern<<<nsm, threads, smem>>>(iters, out);
    CK(cudaDeviceSynchronize());
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    for (int r = 0; r < 5; r++) kern<<<nsm, threads, smem>>>(iters, out);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    CK(cudaEventDestroy(e0));
    CK(cudaEventDestroy(e1));
    const double us = ms * 1000.0 / 5;
    const double macs = (double)nsm * nwg * wgmmas_per_wg * 64.0 * 128 * 32;
    printf("%s,%d,128,%s,%.1f,%.3f\n", card, nwg, chain, us, macs / ((double)nsm * 4096 * clk_ghz * 1e9 * us * 1e-6));
}

template <int NWG, int P> static void run_promo(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "4+promo%d", P);
    time_row(probe_promo<NWG, P>, card, nsm, clk_ghz, NWG, NWG * 128, 1024 + (64 * NWG + 128) * 128, 4096, 4096.0 * 4,
             chain, out);
}

template <int NWG, int BIAS, int KPG = 1> static void run_g32(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "2set-g%d-bias%d", 32 * KPG, BIAS);
    /* the fraction counts the data k-steps only (4 KPG per iteration), not the bias wgmmas */
    time_row(probe_g32<NWG, BIAS, KPG>, card, nsm, clk_ghz, NWG, NWG * 128, 1024 + (64 * NWG + 128) * 128 + 128 * 128 + 4096,
             4096 / KPG, 4096.0 * 4, chain, out);
}

template <int NWG, int KPG> static void run_n64(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "n64-g%d", 32 * KPG);
    /* m64n64k32 is half an m64n128k32: 4 k-steps per iteration count as 2 of time_row's units */
    time_row(probe_n64<NWG, KPG>, card, nsm, clk_ghz, NWG, NWG * 128, 1024 + (64 * NWG + 64) * 128 + 4096, 4096,
             4096.0 * 2, chain, out);
}

template <int NWG, int KPG> static void run_bf16(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "bf16-2set-g%d", 16 * KPG);
    /* 4 groups of KPG m64n128k16 per iteration: KPG / 2 units of 262144 MACs per group */
    time_row(probe_bf16<NWG, KPG>, card, nsm, clk_ghz, NWG, NWG * 128, 1024 + (64 * NWG + 128) * 128, 8192 / KPG,
             (double)(8192 / KPG) * 4 * KPG / 2, chain, out);
}

/* exact_bf16<KS> over 4096 groups of 16 KS, mismatches to stderr */
template <int KS> static void exact_run(int nsm)
{
    unsigned long long *ex, h[2];
    CK(cudaMalloc(&ex, sizeof h));
    CK(cudaMemset(ex, 0, sizeof h));
    CK(cudaFuncSetAttribute(exact_bf16<KS>, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024 + 192 * 128));
    exact_bf16<KS><<<nsm, 128, 1024 + 192 * 128>>>(4096, ex);
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h, ex, sizeof h, cudaMemcpyDeviceToHost));
    CK(cudaFree(ex));
    fprintf(stderr, "exact_bf16: %llu mismatches in %llu outputs (4096 groups of %d)\n", h[0], h[1], 16 * KS);
}

/* Does work on one warpgroup slow the other one's wgmma stream?  Warpgroup 0 runs `iters` chains of
** 4 wgmma (as probe<1, 4>) and times them with clock64; warpgroup 1 meanwhile repeats a body of
** KIND until warpgroup 0 is done: 0 nothing (it exits), 1 the fast promotion's 64 x (IADD + 2
** FFMA), 2 128 FFMA, 3 64 IADD, 4 10 shared loads (the factor-table pattern) + 8 FFMA.  The bodies
** keep 64 independent dependency chains (as the promotion has) and feed each result into the next
** iteration, so that nothing is loop-invariant.  stats per block: wgmma clocks, bodies run, and
** warpgroup 1's clocks. */
template <int KIND> __device__ void mixed_body(const uint8_t *fac_base, long long *st, volatile int *done, int *out);
template <int KIND>
__global__ void __launch_bounds__(256, 1) probe_mixed(int iters, long long *stats, int *out)
{
    extern __shared__ __align__(1024) uint8_t sm[];
    uint8_t *s = (uint8_t *)(((uintptr_t)sm + 1023) & ~(uintptr_t)1023);
    __shared__ volatile int done;
    const int tile = (64 + 128) * 128;
    for (int i = threadIdx.x; i < tile + 4096; i += blockDim.x) s[i] = (uint8_t)(i * 37 + 11);
    if (threadIdx.x == 0) done = 0;
    __syncthreads();
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s);
    if (threadIdx.x < 128) {
        long long *st = stats + 3 * blockIdx.x;
        const uint64_t da = make_desc(base), db = make_desc(base + 64 * 128);
        int d[64];
#pragma unroll
        for (int i = 0; i < 64; i++) d[i] = 0;
        const long long t0 = clock64();
        for (int it = 0; it < iters; it++) {
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < 4; k++) wgmma_s8(d, da + 2 * k, db + 2 * k, 1);
            wgmma_commit();
            wgmma_wait0(d);
        }
        const long long t1 = clock64();
        __syncwarp();
        if (threadIdx.x == 0) done = 1, st[0] = t1 - t0;
        int x = 0;
#pragma unroll
        for (int i = 0; i < 64; i++) x ^= d[i];
        if (x == 0x12345) out[0] = x;
        return;
    }
    if constexpr (KIND != 0) mixed_body<KIND>(s + tile, stats + 3 * blockIdx.x, &done, out);
}

/* warpgroup 1 of probe_mixed: the body of KIND until *done */
template <int KIND> __device__ void mixed_body(const uint8_t *fac_base, long long *st, volatile int *done, int *out)
{
    const uint8_t *s = fac_base;
    const int tile = 0;
    float acc[64];
#pragma unroll
    for (int i = 0; i < 64; i++) acc[i] = (float)(threadIdx.x + i);
    const float4 *fac = reinterpret_cast<const float4 *>(s + tile) + (threadIdx.x & 3);
    const float2 *fa = reinterpret_cast<const float2 *>(s + tile + 2048) + ((threadIdx.x >> 2) & 7);
    const float sa = 1.0000001f, ca = -3.0f, sb = 0.9999999f;
    long long n = 0;
    const long long t0 = clock64();
    while (!*done) {
        if (KIND == 1)
#pragma unroll
            for (int i = 0; i < 64; i++) {
                const float x = __fmaf_rn(__int_as_float(__float_as_int(acc[i]) + 0x4B400000), sa, ca);
                acc[i] = __fmaf_rn(x, sb, acc[i]);
            }
        if (KIND == 2)
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = __fmaf_rn(__fmaf_rn(acc[i], sa, ca), sb, 1.0f);
        if (KIND == 3)
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = __int_as_float(__float_as_int(acc[i]) + 0x4B400000);
        if (KIND == 4) {
            float4 f[8];
            const int sl = (int)(n % 5);
#pragma unroll
            for (int j = 0; j < 8; j++) f[j] = fac[4 * j + 32 * sl];
            const float2 a0 = fa[16 * sl], a1 = fa[16 * sl + 8];
#pragma unroll
            for (int j = 0; j < 8; j++) acc[j] = __fmaf_rn(f[j].x + f[j].w, a0.x, acc[j] + a1.y);
        }
        n++;
    }
    const long long t1 = clock64();
    float fs = 0.f;
#pragma unroll
    for (int i = 0; i < 64; i++) fs += acc[i];
    if (fs == 1.2345f) out[0] = 1;
    if (threadIdx.x == 128) st[1] = n, st[2] = t1 - t0;
}

/* warp instructions per body of probe_mixed's KIND (the arithmetic only; the loop adds ~4) */
static const int mixed_body_instr[5] = {0, 192, 128, 64, 10 + 16};

template <int KIND> static void run_mixed(const char *card, int nsm, int *out)
{
    const int smem = 1024 + (64 + 128) * 128 + 4096;
    CK(cudaFuncSetAttribute(probe_mixed<KIND>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    long long *st;
    CK(cudaMalloc(&st, sizeof(long long) * 3 * nsm));
    CK(cudaMemset(st, 0, sizeof(long long) * 3 * nsm));
    const int iters = 8192;
    probe_mixed<KIND><<<nsm, 256, smem>>>(iters, st, out); /* warm-up */
    probe_mixed<KIND><<<nsm, 256, smem>>>(iters, st, out);
    CK(cudaDeviceSynchronize());
    long long *h = (long long *)malloc(sizeof(long long) * 3 * nsm);
    CK(cudaMemcpy(h, st, sizeof(long long) * 3 * nsm, cudaMemcpyDeviceToHost));
    double wg_clk = 0, ipc = 0;
    for (int b = 0; b < nsm; b++) {
        wg_clk += (double)h[3 * b] / nsm;
        if (h[3 * b + 2] > 0) ipc += (double)h[3 * b + 1] * mixed_body_instr[KIND] * 4 / h[3 * b + 2] / nsm;
    }
    /* a chain of 4 m64n128k32 is 4 * 64 clocks at 4096 MAC/clk/SM */
    printf("%s,mixed-kind%d,%.0f,%.3f,%.3f\n", card, KIND, wg_clk / iters, 256.0 * iters / wg_clk, ipc);
    free(h);
    CK(cudaFree(st));
}

template <int NWG, int MODE> static void run_ring(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "4+ring-mode%d", MODE);
    time_row(probe_ring<NWG, MODE>, card, nsm, clk_ghz, NWG, NWG * 128 + 128, 1024 + (64 * NWG + 128) * 128 + 4096 + 128,
             4096, 4096.0 * 4, chain, out);
}

template <int NWG, int C> static void run(const char *card, int nsm, double clk_ghz, int *out)
{
    char chain[32];
    snprintf(chain, sizeof chain, "%d", C);
    time_row(probe<NWG, C>, card, nsm, clk_ghz, NWG, NWG * 128, 1024 + (64 * NWG + 128) * 128, 16384 / C,
             (double)(16384 / C) * C, chain, out);
}

/* The two-set rows at G = 32, 64, 128, each without and with the bias k-step (-g runs only these). */
static void run_2set(const char *card, int nsm, double clk_ghz, int *out)
{
    run_g32<2, 0>(card, nsm, clk_ghz, out);
    run_g32<2, 1>(card, nsm, clk_ghz, out);
    run_g32<2, 0, 2>(card, nsm, clk_ghz, out);
    run_g32<2, 1, 2>(card, nsm, clk_ghz, out);
    run_g32<2, 0, 4>(card, nsm, clk_ghz, out);
    run_g32<2, 1, 4>(card, nsm, clk_ghz, out);
}

int main(int argc, char **argv)
{
    const bool only_2set = argc == 2 && argv[1][0] == '-' && argv[1][1] == 'g' && argv[1][2] == 0;
    if (argc != 1 && !only_2set) {
        fprintf(stderr, "usage: wgmma_probe [-g]   (-g: the two-set rows only, with and without the bias wgmma)\n");
        return 2;
    }
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    int clk_khz = 0;
    CK(cudaDeviceGetAttribute(&clk_khz, cudaDevAttrClockRate, 0));
    const double ghz = clk_khz * 1e-6;
    int *out;
    CK(cudaMalloc(&out, 4));
    printf("# %s, %d SMs, max SM clock %.2f GHz (fraction is of 4096 MAC/clk/SM at that clock)\n", p.name,
           p.multiProcessorCount, ghz);
    printf("card,nwg,n,chain,us,fraction_of_peak\n");
    const int n = p.multiProcessorCount;
    if (only_2set) {
        for (int r = 0; r < 2; r++) run_2set(p.name, n, ghz, out);
        return 0;
    }
    run<1, 4>(p.name, n, ghz, out);
    run<2, 4>(p.name, n, ghz, out);
    run<3, 4>(p.name, n, ghz, out);
    run<4, 4>(p.name, n, ghz, out);
    run<2, 8>(p.name, n, ghz, out);
    run<2, 16>(p.name, n, ghz, out);
    run<2, 64>(p.name, n, ghz, out);
    run<3, 16>(p.name, n, ghz, out);
    run<4, 16>(p.name, n, ghz, out);
    run_ring<2, 1>(p.name, n, ghz, out);
    run_ring<2, 2>(p.name, n, ghz, out);
    run_ring<2, 3>(p.name, n, ghz, out);
    run_ring<2, 4>(p.name, n, ghz, out);
    run_ring<2, 5>(p.name, n, ghz, out);
    run_ring<2, 6>(p.name, n, ghz, out);
    run_ring<1, 4>(p.name, n, ghz, out);
    run_ring<1, 5>(p.name, n, ghz, out);
    run_promo<1, 0>(p.name, n, ghz, out);
    run_promo<1, 1>(p.name, n, ghz, out);
    run_promo<2, 0>(p.name, n, ghz, out);
    run_promo<2, 1>(p.name, n, ghz, out);
    run_promo<2, 2>(p.name, n, ghz, out);
    run_promo<2, 3>(p.name, n, ghz, out);
    run_promo<3, 1>(p.name, n, ghz, out);
    run_2set(p.name, n, ghz, out);
    run_n64<2, 1>(p.name, n, ghz, out);
    run_n64<3, 1>(p.name, n, ghz, out);
    run_n64<4, 1>(p.name, n, ghz, out);
    run_n64<4, 2>(p.name, n, ghz, out);
    run_n64<4, 4>(p.name, n, ghz, out);
    run_n64<2, 4>(p.name, n, ghz, out);
    run_bf16<2, 2>(p.name, n, ghz, out);
    run_bf16<2, 4>(p.name, n, ghz, out);
    run_bf16<2, 8>(p.name, n, ghz, out);
    exact_run<2>(n);
    exact_run<4>(n);
    printf("card,probe,wgmma_clk_per_chain4,wgmma_fraction_of_peak,wg1_warp_instr_per_clk_per_sm\n");
    run_mixed<0>(p.name, n, out);
    run_mixed<1>(p.name, n, out);
    run_mixed<2>(p.name, n, out);
    run_mixed<3>(p.name, n, out);
    run_mixed<4>(p.name, n, out);
    return 0;
}

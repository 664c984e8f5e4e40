/* gemm_wgmma.cu - MXINT8 GEMM for Hopper (sm_90a): wgmma int8 with s32 accumulators, TMA loads
** into a multi-stage shared-memory ring guarded by mbarriers, warp specialisation (one producer
** warpgroup, two consumer warpgroups), a persistent tile scheduler, and the contract's per-group
** promotion on the CUDA cores.  Bit-exact with the fp32 arithmetic contract (sim/doc/numerics.md
** section 4): C[i,j] = fold over groups g ascending of acc = RN(acc + RN(d_g * 2^(EA+EB-266))).
**
** Structure (one CTA per SM, 384 threads, grid = min(tiles, SMs), tile t = blockIdx.x + i*gridDim.x):
**   - a tile is 128 rows of A x 128 rows of B (columns of C); K streams in stages of 128 bytes
**     (4 k-steps of 32), STAGES = 5 deep.  A stage holds the A and B tiles (TMA, 128-byte swizzle,
**     zero fill outside the tensor) and, for every group that ENDS in the stage, the per-row and
**     per-column scale values the consumers need (written by the producer warpgroup's threads).
**   - producer warpgroup (setmaxnreg 40): thread 0 arms full[s] with the TMA byte count and issues
**     the two tensor copies; all 128 threads load the scale bytes of the stage (prefetched one
**     stage ahead), turn them into float factors, reduce the tile's scale range per group, and
**     thread 0 arrives a second time on full[s] once the fast-path flags are written.
**   - consumer warpgroups 1 and 2 (setmaxnreg 232) own rows [0,64) and [64,128) of the tile: per
**     k-step one wgmma.m64n128k32.s32.s8.s8 from the swizzled stage; at a group's last k-step they
**     wait for their own wgmma and promote the 64 s32 group dots per thread into 64 fp32
**     accumulators.  While one warpgroup promotes, the other's wgmma runs on the tensor cores:
**     that is the overlap of the CUDA-core promotion with the next wgmma.  After the last k-step of
**     a stage each consumer warp arrives on empty[s].
**
** Promotion, fast path.  It applies to a (consumer warpgroup, group) when, over the warpgroup's 64
** rows and the tile's 128 columns, EA_max <= 237, EB_max <= 254, EA_min + EB_min >= 117,
** EA_max + EB_max <= 372 and G <= 128 (the producer computes these per tile with warp reductions).
** Then for every output, with d the exact s32 group dot (|d| <= G * 2^14 <= 2^21):
**   (1) F = as_float(d + 0x4B400000) is exactly 1.5*2^23 + d: for |d| < 2^22 the integer
**       0x4B400000 + d stays inside the binade [2^23, 2^24) whose float bits are 0x4B000000 + v -
**       2^23, so the bits are those of the float 1.5*2^23 + d.  (cfg 8 keeps the accumulator
**       preloaded with 0x4B400000 so that the wgmma itself adds it; cfg 7 adds it with one IADD.)
**   (2) x = fma(F, sa, ca) with sa = 2^(EA-133) and ca = -1.5*2^23*sa: the exact value of
**       F*sa + ca is d * 2^(EA-133), an integer of at most 22 bits times 2^(EA-133) >= 2^-133,
**       below 2^143-... in magnitude (EA <= 237: |x| <= 2^21 * 2^104); so it is representable
**       (normal or subnormal: every multiple of 2^-149 below 2^-126 is), and the FMA returns it
**       with no rounding.  sa is a float for EA in [0, 260] (subnormal below EA = 7, no FTZ) and
**       ca is a float for EA <= 237.
**   (3) acc = fma(x, sb, acc) with sb = 2^(EB-133) (a float for EB in [0, 254]): the FMA rounds
**       acc + x*sb = acc + d*2^s (s = EA+EB-266) once.  The contract rounds twice: t = RN(d*2^s),
**       then RN(acc + t).  Both are equal when t = d*2^s exactly, i.e. when d*2^s is a float:
**       s >= -149 makes every bit of d (at most 22 bits) land at a weight >= 2^-149, and s <= 106
**       keeps |d|*2^s <= 2^21 * 2^106 = 2^127 below the overflow threshold.  EA+EB in [117, 372]
**       is exactly s in [-149, 106].  Signed zeros: d = 0 gives x = +0 (an exact zero sum rounds
**       to +0) and acc + (+0*sb) = acc for acc != -0; acc is never -0 (it starts at +0.0 and a sum
**       of RN additions is -0 only if both addends are -0, and t = RN(0*2^s) = +0).  Infinite or
**       NaN accumulators (from an earlier exact-path group) propagate identically through the FMA.
** Otherwise (a NaN scale, an out-of-range sum, G > 128): the exact double path, mxk_term_exact
** (one rounding of d*2^s computed exactly in double) and an RN add, for the whole warpgroup.
** So the common case costs 2 FFMA per output per group plus the IADD (cfg 7) or a quarter of an
** LDS.128 to reload the bias (cfg 8).  Compiled with -fmad=false and explicit _rn intrinsics.
**
** Requirements (checked by the launcher, else the caller falls back to the tile kernels): an
** sm_90 device, G a multiple of 32, K a multiple of 16 (TMA strides), 16-byte aligned operands. */
#include "mxk_common.cuh"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stddef.h>
#include <stdlib.h>

#define WG_BM 128
#define WG_BN 128
#define WG_BK 128
#define WG_STAGES 5
#define WG_MAGIC 0x4B400000

namespace {

struct SlotSc {          /* the scale values of one group that ends in a stage */
    float2 a[WG_BM];     /* per A row: {2^(EA-133), -1.5*2^23*2^(EA-133) (NaN for EA > 237)} */
    float b[WG_BN];      /* per B row (C column), permuted for one LDS.128 per 2 n8 blocks */
    uint8_t ea[WG_BM];   /* raw bytes for the exact path */
    uint8_t eb[WG_BN];
    int mm[4][4];        /* per producer warp: min EA, max EA, min EB, max EB of its 32 rows */
    int flag[2];         /* fast path allowed for consumer warpgroup 0 / 1 */
    int pad[2];
};
constexpr int SLOTS = 4;
constexpr int A_TILE = WG_BM * WG_BK, B_TILE = WG_BN * WG_BK;
constexpr int DATA_BYTES = WG_STAGES * (A_TILE + B_TILE);
constexpr int SC_BYTES = WG_STAGES * SLOTS * (int)sizeof(SlotSc);
constexpr int SMEM_BYTES = 1024 + DATA_BYTES + SC_BYTES + 2 * WG_STAGES * 8 + 16;

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void mbar_init(uint32_t bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
__device__ __forceinline__ void mbar_arrive_tx(uint32_t bar, int bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra WAIT_%=;\n}\n" ::"r"(bar), "r"(parity) : "memory");
}
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const CUtensorMap *map, int c0, int c1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(dst), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}
/* K-major operand, 128-byte swizzle: rows of 128 bytes, 8-row groups 1024 bytes apart. */
__device__ __forceinline__ uint64_t make_desc(uint32_t addr)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) |
           ((uint64_t)1 << 62);
}

#define WG_R8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
__device__ __forceinline__ void wgmma_s8(int (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "
                 "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"
                 "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"
                 "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"
                 "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63},"
                 " %64, %65, p;\n}\n"
                 : WG_R8(0), WG_R8(8), WG_R8(16), WG_R8(24), WG_R8(32), WG_R8(40), WG_R8(48), WG_R8(56)
                 : "l"(da), "l"(db), "r"(scale_d));
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0(int (&d)[64])
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n"
                 : WG_R8(0), WG_R8(8), WG_R8(16), WG_R8(24), WG_R8(32), WG_R8(40), WG_R8(48), WG_R8(56)
                 :: "memory");
}
__device__ __forceinline__ void lds_magic4(uint32_t addr, int &a, int &b, int &c, int &e)
{
    asm volatile("ld.volatile.shared.v4.b32 {%0,%1,%2,%3}, [%4];\n" : "=r"(a), "=r"(b), "=r"(c), "=r"(e) : "r"(addr));
}
__device__ __forceinline__ float4 lds_f4(uint32_t addr)
{
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];\n" : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "r"(addr));
    return v;
}
__device__ __forceinline__ float2 lds_f2(uint32_t addr)
{
    float2 v;
    asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];\n" : "=f"(v.x), "=f"(v.y) : "r"(addr));
    return v;
}
__device__ __forceinline__ int lds_s32(uint32_t addr)
{
    int v;
    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(v) : "r"(addr));
    return v;
}

/* position of column c's factor in SlotSc::b: thread q = (c>>1)&3 reads one float4 per pair of n8
** blocks {8b+2q, 8b+2q+1, 8(b+1)+2q, 8(b+1)+2q+1} */
__device__ __forceinline__ int bperm(int c)
{
    const int b = c >> 3, q = (c >> 1) & 3, e = c & 1;
    return (((b >> 1) * 4 + q) * 4) + (b & 1) * 2 + e;
}

template <int RESET_LDS, int KPG_T>
__global__ void __launch_bounds__(384, 1)
    gemm_wgmma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, int M,
                      int N, int K, int G, const uint8_t *__restrict__ ae, const uint8_t *__restrict__ be,
                      float *__restrict__ c)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_u32(smem);
    SlotSc *scs = reinterpret_cast<SlotSc *>(smem + DATA_BYTES);
    uint64_t *bars = reinterpret_cast<uint64_t *>(smem + DATA_BYTES + SC_BYTES);
    const uint32_t full0 = smem_u32(bars), empty0 = full0 + WG_STAGES * 8;
    int *magic_smem = reinterpret_cast<int *>(bars + 2 * WG_STAGES);

    const int tid = threadIdx.x, wg = tid >> 7;
    const int Mt = (M + WG_BM - 1) / WG_BM, Nt = (N + WG_BN - 1) / WG_BN, ntiles = Mt * Nt;
    const int KS = K / 32, n_kt = (K + WG_BK - 1) / WG_BK, ng = K / G, KPG = G / 32;
    const int kp = KPG < 4 ? KPG : 4, nslot = 4 / kp;
    const int my_tiles = blockIdx.x < ntiles ? (ntiles - 1 - blockIdx.x) / gridDim.x + 1 : 0;
    const int njobs = my_tiles * n_kt;

    if (tid == 0) {
        for (int s = 0; s < WG_STAGES; s++) {
            mbar_init(full0 + 8 * s, 2);
            mbar_init(empty0 + 8 * s, 8);
        }
        for (int i = 0; i < 4; i++) magic_smem[i] = WG_MAGIC;
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmA) : "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmB) : "memory");
    }
    __syncthreads();

    if (wg == 0) {
        /* ------------------------------ producer ------------------------------ */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        const int lane = tid & 31, warp = tid >> 5;
        /* scale bytes of job q (slot j): thread t owns A row t and B row t of the tile */
        auto job_group = [&](int kt, int j) -> int { /* group ending in slot j of stage kt, or -1 */
            const int endk = 4 * kt + (j + 1) * kp; /* one past its last k-step */
            if (j >= nslot || endk > KS || endk % KPG) return -1;
            return endk / KPG - 1;
        };
        int pa[SLOTS], pb[SLOTS];
        auto fetch = [&](int q) {
            const int tile = blockIdx.x + (q / n_kt) * gridDim.x, kt = q % n_kt;
            const int r = (tile % Mt) * WG_BM + tid, cn = (tile / Mt) * WG_BN + tid;
#pragma unroll
            for (int j = 0; j < SLOTS; j++) {
                const int g = job_group(kt, j);
                pa[j] = (g >= 0 && r < M) ? (int)__ldg(ae + (size_t)r * ng + g) : 127;
                pb[j] = (g >= 0 && cn < N) ? (int)__ldg(be + (size_t)cn * ng + g) : 127;
            }
        };
        if (njobs > 0) fetch(0);
        int s = 0;
        uint32_t ph = 0;
        for (int q = 0; q < njobs; q++) {
            const int tile = blockIdx.x + (q / n_kt) * gridDim.x, kt = q % n_kt;
            const int m0 = (tile % Mt) * WG_BM, n0 = (tile / Mt) * WG_BN;
            int ca_[SLOTS], cb_[SLOTS];
#pragma unroll
            for (int j = 0; j < SLOTS; j++) ca_[j] = pa[j], cb_[j] = pb[j];
            if (q + 1 < njobs) fetch(q + 1);
            mbar_wait(empty0 + 8 * s, ph ^ 1);
            if (tid == 0) {
                const uint32_t fb = full0 + 8 * s;
                mbar_arrive_tx(fb, A_TILE + B_TILE);
                const uint32_t dA = sbase + s * (A_TILE + B_TILE);
                tma_load_2d(dA, &tmA, kt * WG_BK, m0, fb);
                tma_load_2d(dA + A_TILE, &tmB, kt * WG_BK, n0, fb);
            }
            SlotSc *st = scs + s * SLOTS;
#pragma unroll
            for (int j = 0; j < SLOTS; j++) {
                if (job_group(kt, j) < 0) continue; /* uniform over the producer */
                const int ea = ca_[j], eb = cb_[j];
                float2 av;
                av.x = mxk_pow2f(ea - 133);
                av.y = ea > 237 ? __int_as_float(0x7FC00000)
                                : __int_as_float((int)(0x80000000u | ((uint32_t)(ea + 17) << 23) | 0x400000u));
                st[j].a[tid] = av;
                st[j].ea[tid] = (uint8_t)ea;
                st[j].b[bperm(tid)] = eb == 255 ? __int_as_float(0x7FC00000) : mxk_pow2f(eb - 133);
                st[j].eb[tid] = (uint8_t)eb;
                const int mna = (int)__reduce_min_sync(0xffffffffu, (unsigned)ea);
                const int mxa = (int)__reduce_max_sync(0xffffffffu, (unsigned)ea);
                const int mnb = (int)__reduce_min_sync(0xffffffffu, (unsigned)eb);
                const int mxb = (int)__reduce_max_sync(0xffffffffu, (unsigned)eb);
                if (lane == 0) {
                    st[j].mm[warp][0] = mna;
                    st[j].mm[warp][1] = mxa;
                    st[j].mm[warp][2] = mnb;
                    st[j].mm[warp][3] = mxb;
                }
            }
            asm volatile("bar.sync 1, 128;\n" ::: "memory");
            if (tid == 0) {
#pragma unroll
                for (int j = 0; j < SLOTS; j++) {
                    if (job_group(kt, j) < 0) continue;
                    int mnb = 255, mxb = 0;
#pragma unroll
                    for (int w = 0; w < 4; w++) mnb = min(mnb, st[j].mm[w][2]), mxb = max(mxb, st[j].mm[w][3]);
#pragma unroll
                    for (int h = 0; h < 2; h++) {
                        const int mna = min(st[j].mm[2 * h][0], st[j].mm[2 * h + 1][0]);
                        const int mxa = max(st[j].mm[2 * h][1], st[j].mm[2 * h + 1][1]);
                        st[j].flag[h] = G <= 128 && mxa <= 237 && mxb <= 254 && mna + mnb >= 117 && mxa + mxb <= 372;
                    }
                }
                mbar_arrive(full0 + 8 * s);
            }
            if (++s == WG_STAGES) s = 0, ph ^= 1;
        }
    } else {
        /* ------------------------------ consumers ------------------------------ */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        const int cw = wg - 1, lane = tid & 31, w = (tid >> 5) & 3;
        const int q4 = lane & 3, rl0 = cw * 64 + w * 16 + (lane >> 2); /* tile-local rows rl0, rl0+8 */
        const uint32_t magic_addr = smem_u32(magic_smem);
        constexpr bool BIAS = RESET_LDS && KPG_T > 0; /* accumulator preloaded with the magic bias */
        int d[64];
        float acc[64];
#pragma unroll
        for (int i = 0; i < 64; i++) d[i] = BIAS ? WG_MAGIC : 0;
        /* promotion of the group dots in d into acc (see the header), then the bias reload */
        auto promote = [&](const SlotSc &sc) {
            const uint32_t sca = smem_u32(&sc);
            const int fast = __shfl_sync(0xffffffffu, lds_s32(sca + (uint32_t)offsetof(SlotSc, flag) + 4 * cw), 0);
            if (KPG_T > 0 && fast) {
                const float2 A0 = lds_f2(sca + 8 * rl0), A1 = lds_f2(sca + 8 * (rl0 + 8));
                const uint32_t bq = sca + (uint32_t)offsetof(SlotSc, b) + 16 * q4;
#pragma unroll
                for (int bb = 0; bb < 8; bb++) {
                    const float4 B = lds_f4(bq + 64 * bb);
                    const float sbv[4] = {B.x, B.y, B.z, B.w};
#pragma unroll
                    for (int h2 = 0; h2 < 2; h2++)
#pragma unroll
                        for (int e = 0; e < 4; e++) {
                            const int i = (bb * 2 + h2) * 4 + e;
                            const int dv = BIAS ? d[i] : d[i] + WG_MAGIC;
                            const float2 A = (e >> 1) ? A1 : A0;
                            const float x = __fmaf_rn(__int_as_float(dv), A.x, A.y);
                            acc[i] = __fmaf_rn(x, sbv[h2 * 2 + (e & 1)], acc[i]);
                        }
                }
            } else {
                const int ea0 = sc.ea[rl0], ea1 = sc.ea[rl0 + 8];
#pragma unroll
                for (int i = 0; i < 64; i++) {
                    const int col = (i >> 2) * 8 + q4 * 2 + (i & 1);
                    const int dv = BIAS ? (int)((unsigned)d[i] - (unsigned)WG_MAGIC) : d[i];
                    acc[i] = __fadd_rn(acc[i], mxk_term_exact(dv, (i & 2) ? ea1 : ea0, sc.eb[col]));
                }
            }
            if (BIAS) {
#pragma unroll
                for (int i = 0; i < 64; i += 4) lds_magic4(magic_addr, d[i], d[i + 1], d[i + 2], d[i + 3]);
            }
        };
        int s = 0;
        uint32_t ph = 0;
        for (int tile = blockIdx.x; tile < ntiles; tile += gridDim.x) {
            const int m0 = (tile % Mt) * WG_BM, n0 = (tile / Mt) * WG_BN;
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = 0.0f;
            for (int kt = 0; kt < n_kt; kt++) {
                mbar_wait(full0 + 8 * s, ph);
                const uint32_t dA = sbase + s * (A_TILE + B_TILE);
                const uint64_t descA = make_desc(dA + cw * 64 * WG_BK), descB = make_desc(dA + A_TILE);
                const SlotSc *st = scs + s * SLOTS;
                if (KPG_T > 0) {
                    constexpr int KP = KPG_T > 0 ? KPG_T : 1;
#pragma unroll
                    for (int gi = 0; gi < 4 / KP; gi++) {
                        if (kt * 4 + gi * KP >= KS) break; /* K tail (KS is a multiple of KP) */
                        wgmma_fence();
#pragma unroll
                        for (int k = 0; k < KP; k++)
                            wgmma_s8(d, descA + 2 * (gi * KP + k), descB + 2 * (gi * KP + k), BIAS ? 1 : (k != 0));
                        wgmma_commit();
                        wgmma_wait0(d);
                        promote(st[gi]);
                    }
                } else { /* G >= 256: a group spans stages; exact path only (G > 128) */
                    const int ks0 = kt * 4, nk = KS - ks0 < 4 ? KS - ks0 : 4;
                    const int first = ks0 % KPG == 0;
                    wgmma_fence();
#pragma unroll 1
                    for (int k = 0; k < nk; k++) wgmma_s8(d, descA + 2 * k, descB + 2 * k, (k == 0 && first) ? 0 : 1);
                    wgmma_commit();
                    wgmma_wait0(d);
                    if ((ks0 + nk) % KPG == 0) promote(st[0]);
                }
                __syncwarp();
                if (lane == 0) mbar_arrive(empty0 + 8 * s);
                if (++s == WG_STAGES) s = 0, ph ^= 1;
            }
            /* store this warpgroup's 64 x 128 outputs */
#pragma unroll
            for (int h = 0; h < 2; h++) {
                const int r = m0 + rl0 + 8 * h;
                if (r >= M) continue;
                float *crow = c + (size_t)r * N;
#pragma unroll
                for (int b = 0; b < 16; b++) {
                    const int cc = n0 + b * 8 + q4 * 2;
                    const float v0 = acc[b * 4 + h * 2], v1 = acc[b * 4 + h * 2 + 1];
                    if (cc + 1 < N && (N & 1) == 0) {
                        *reinterpret_cast<float2 *>(crow + cc) = make_float2(v0, v1);
                    } else {
                        if (cc < N) crow[cc] = v0;
                        if (cc + 1 < N) crow[cc + 1] = v1;
                    }
                }
            }
        }
    }
#endif
}

PFN_cuTensorMapEncodeTiled_v12000 get_encode()
{
    static PFN_cuTensorMapEncodeTiled_v12000 fn = nullptr;
    if (!fn) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = (PFN_cuTensorMapEncodeTiled_v12000)p;
    }
    return fn;
}

bool make_map(CUtensorMap *m, const int8_t *p, int rows, int K)
{
    auto enc = get_encode();
    if (!enc) return false;
    cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)K};
    cuuint32_t box[2] = {WG_BK, 128};
    cuuint32_t es[2] = {1, 1};
    return enc(m, CU_TENSOR_MAP_DATA_TYPE_UINT8, 2, (void *)p, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

} // namespace

/* 0 = launched; -1 = not applicable here (caller falls back); > 0 = CUDA error */
int mxk_gemm_wgmma_internal(int variant, int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                            const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    static int sms = 0, cc_major = 0;
    static const bool off = getenv("MXK_NO_WGMMA") != nullptr; /* diagnostics: force the fallback */
    if (off) return -1;
    if (!sms) {
        int dev = 0;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    }
    if (cc_major != 9 || G % 32 != 0 || K % 16 != 0 || (uintptr_t)am % 16 || (uintptr_t)bm % 16) return -1;
    CUtensorMap ta, tb;
    if (!make_map(&ta, am, M, K) || !make_map(&tb, bm, N, K)) return -1;
    decltype(&gemm_wgmma_kernel<0, 1>) kern;
    const int kpg = G / 32, ki = kpg == 1 ? 0 : kpg == 2 ? 1 : kpg == 4 ? 2 : 3;
    static decltype(&gemm_wgmma_kernel<0, 1>) const table[2][4] = {
        {gemm_wgmma_kernel<0, 1>, gemm_wgmma_kernel<0, 2>, gemm_wgmma_kernel<0, 4>, gemm_wgmma_kernel<0, 0>},
        {gemm_wgmma_kernel<1, 1>, gemm_wgmma_kernel<1, 2>, gemm_wgmma_kernel<1, 4>, gemm_wgmma_kernel<0, 0>}};
    kern = table[variant ? 1 : 0][ki];
    static bool attr[2][4] = {};
    if (!attr[variant ? 1 : 0][ki]) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
        if (e != cudaSuccess) return (int)e;
        attr[variant ? 1 : 0][ki] = true;
    }
    const long long tiles = (long long)((M + WG_BM - 1) / WG_BM) * ((N + WG_BN - 1) / WG_BN);
    const int grid = (int)(tiles < sms ? tiles : sms);
    kern<<<grid, 384, SMEM_BYTES, s>>>(ta, tb, M, N, K, G, ae, be, c);
    return mxk_err(cudaGetLastError());
}

/* gemm_wgmma.cu - MXINT8 GEMM for Hopper (sm_90a): wgmma int8 with s32 accumulators, TMA loads
** into a multi-stage shared-memory ring guarded by mbarriers, warp specialisation (one producer
** warpgroup, two consumer warpgroups, setmaxnreg 40 / 232), a persistent tile scheduler, and the
** contract's per-group promotion on the CUDA cores.  Bit-exact with the fp32 arithmetic contract
** (sim/doc/numerics.md section 4): C[i,j] = fold over groups g ascending of acc = RN(acc + RN(d_g *
** 2^(EA+EB-266))), acc from +0.0.  mxk_gemm cfg 8; cfg 0 picks it when M > 16 and there are >= 132
** tiles.
**
** Structure (one CTA per SM, 384 threads, grid = min(tiles, SMs), tile t = blockIdx.x + i*gridDim.x,
** M-blocks fastest so that concurrent CTAs share B tiles in L2):
**   - wg_factors (one small kernel before the GEMM, stream-ordered scratch from cudaMallocAsync;
**     the GEMM is its programmatic dependent launch) turns the scale bytes into factor tables, one
**     FacA / FacB per 128-row block and group: the per-row factors the promotion needs, the raw
**     bytes for the exact path, and the fast-path verdict of the block (a row outside the window,
**     per 64-row half for A).
**   - a tile is 128 rows of A x 128 rows of B (columns of C); K streams in stages of 128 bytes
**     (4 k-steps of 32), 5 stages.  A stage holds the A and B tiles (TMA, 128-byte swizzle, zero
**     fill outside the tensor) and the FacA / FacB of every group that ENDS in the stage (4 at
**     G = 32, 2 at 64, 1 at 128; G = 96 and G > 128 not a multiple of 128 end groups across stage
**     edges and go to cfg 5).
**   - producer: one thread waits for empty[s], arms full[s] with the byte count and issues the
**     stage's four copies (two tensor copies, two cp.async.bulk of the factors).  (The producer
**     warps used to form the factors per stage from the scale bytes; on an H200 that work and its
**     scale loads took 57 us of the 124 us at 2048x4096x4096 G=128 with the tensor work switched
**     off, and bounded the kernel; the tables cost two launches of a few microseconds.)
**   - consumer warpgroups 1 and 2 own rows [0,64) and [64,128): per group, KPG = G/32 wgmma
**     m64n128k32.s32.s8.s8 from the swizzled stage (the first with scale-d = 0, so the s32
**     registers hold the group dot d itself), commit, wait, promote the 64 dots per thread into 64
**     fp32 accumulators.  At G = 32 and 64, when every group of a (full) stage takes the fast
**     path, the stage runs with two accumulator sets: the wgmma of group gi+1 is in flight while
**     group gi is promoted (straight-line code drained at the stage end: an in-flight accumulator
**     that meets a branch (even lane 0's arrive) or a loop back edge makes ptxas serialise the
**     wgmmas, warnings C7514/C7518; two sets across stages at G = 128 hit exactly that).  At
**     G = 128 the factors go to registers before the wgmmas and the slot is released before the
**     promotion.  While one warpgroup promotes, the other one's wgmma runs on the tensor cores.
**     After a stage every consumer lane (G = 64: warp) arrives on empty[s] (MXK_WG_ARRIVE_ALL below).
**   - stage pairs at G = 64 and 128: when two full stages are both in the ring and all their groups
**     take the fast path, one straight-line block runs them: the pair's 4 (G = 64) or 2 (G = 128)
**     groups alternate between the two accumulator sets, the wgmmas of group q + 1 in flight while
**     group q is promoted, across the stage edge; both slots are released after the last group's
**     wgmmas completed (no branch meets an in-flight accumulator; ptxas keeps the wgmmas async).
**     Each warpgroup then keeps its own tensor work queued during its promotions, instead of
**     relying on the other warpgroup alone.  Same-call A/B on an H200 (cold L2, bench-prefill): G =
**     128 2048x4096x4096 110.5 -> 99.5 / 98.9 / 97.3 us, 2048x11008x4096 285 -> 256 / 257 / 248,
**     8192^3 1657 -> 1436 / 1387 / 1462 (three calls; the 8192^3 rows vary by +-7% between calls);
**     G = 64 141.3 -> 135.3 / 136.1, 372 -> 355 / 353, 2048 -> 1932 / 2060.  A pair with an
**     exact-path slot, and a trailing odd stage, run the stage-local paths, which measured slower in
**     this build than before it (pairs switched off, MXK_WG_DEBUG 2048: G = 128 130 / 339 / 2098 us,
**     G = 64 153 / 402 / 2327, against 110 / 286 / 1648 and 141 / 370 / 2075 for the build without
**     pairs: ptxas allocates the shared accumulator registers differently).  Longer runs (3 or 4
**     stages per block, all waited for before the first wgmma) measured slower: G = 128 113-123 us
**     against 97 for pairs at 2048x4096x4096.  At G = 32 (8 groups per pair) it measured slower (214.5 -> 220.6,
**     573 -> 588 us) and is not used; the stage-local two-set path above remains.  Loading the G =
**     128 factors after the commit instead of before the fence was slower (124 / 331 / 1804 us), and so
**     was issuing a pair group's factor loads before its wgmma wait (all 10: spills; the A factors and
**     4 of 8 B loads: 97 -> 100 us at 2048x4096x4096 G = 128; final3 README, dev/ab10_*).
**
** Promotion, fast path.  It applies to a (warpgroup, group) when every A row of the warpgroup and
** every B row of the tile has its scale E in the window [59, 186], and G <= 128 (the producer's
** vote).  The window gives EA <= 237, EB <= 254 and EA + EB in [118, 372], which is all the proof
** below needs; rows outside it (E = 255, NaN, included) send that warpgroup's group to the exact path.
** For every output, with d the exact s32 group dot (|d| <= G * 2^14 <= 2^21):
**   (1) F = as_float(d + 0x4B400000) (one IADD) is exactly the float 1.5*2^23 + d: for |d| < 2^22
**       the integer 0x4B400000 + d stays inside the binade [2^23, 2^24), whose float bits are
**       0x4B000000 + (v - 2^23) with an ulp of 1.
**   (2) x = fma(F, sa, ca), sa = 2^(EA-133), ca = -1.5*2^23*sa: the exact value of F*sa + ca is
**       d * 2^(EA-133), an integer of at most 22 bits times 2^(EA-133) >= 2^-133, at most
**       2^21 * 2^104 in magnitude (EA <= 237): representable (normal or subnormal: every multiple
**       of 2^-149 below 2^-126 is), so the FMA returns it with no rounding.  sa is a float for any
**       EA in [0, 254] (subnormal below EA = 7, no FTZ) and ca one for EA <= 237.
**   (3) acc = fma(x, sb, acc), sb = 2^(EB-133) (a float for EB in [0, 254]): the FMA rounds
**       acc + x*sb = acc + d*2^s (s = EA+EB-266) once.  The contract rounds twice: t = RN(d*2^s),
**       then RN(acc + t).  Both are equal when t = d*2^s exactly, i.e. when d*2^s is a float:
**       s >= -149 puts every bit of d (at most 22 bits) at a weight >= 2^-149, and s <= 106 keeps
**       |d|*2^s <= 2^21 * 2^106 = 2^127 below the overflow threshold; EA + EB in [117, 372] is
**       s in [-149, 106].  Signed zeros: d = 0 gives x = +0 (an exact zero sum rounds to +0) and
**       acc + (+0) = acc for acc != -0, and acc is never -0 (it starts at +0.0, and a sum of RN
**       additions is -0 only if both addends are -0, while t = RN(0 * 2^s) = +0).  Infinite or
**       NaN accumulators (from an earlier exact-path group) propagate identically through the FMA.
** Otherwise: the exact double path, mxk_term_exact (d*2^s formed exactly in double, rounded once)
** and an RN add.  The common case costs 1 IADD + 2 FFMA per output per group plus 10 shared loads
** per 64 outputs.  Compiled with -fmad=false and explicit _rn intrinsics.
**
** Measured on an H100 and an H200 while building it (the 2026-11-26 READMEs under reports/gpu): the
** producer was the bottleneck four times (integer divisions per stage; a min/max reduction with a
** named barrier; scale loads consumed before the slot wait; the per-stage factor work itself).
** Thread-block clusters with TMA multicast of the shared A or B block (2x1, 1x2, 2x2) were slower
** at every prefill shape: L2 traffic is not the bound.  MXK_WG_DEBUG (bits: 1 no promotion, 8 no
** wgmma, 16 no copies, 64/128 polling waits, 512 the G = 128 slot released after the promotion,
** 1024 a plain launch after wg_factors instead of a programmatic dependent one, 2048 no stage
** pairs)
** switches parts off for timing experiments; the results are then wrong, and it is never set
** outside them.
**
** Requirements (checked by the launcher, else mxk_gemm falls back to cfg 5): an sm_90 device, G a
** multiple of 32, K a multiple of 16 (TMA strides), 16-byte aligned mantissa pointers. */
#include "mxk_common.cuh"
#include "mxk_mbar.cuh"
#include "mxk_tma.cuh"
#include "mxk_wgmma.cuh"

#include <stddef.h>
#include <stdlib.h>

/* Who releases a ring stage (its empty barrier): compute-sanitizer's racecheck reports one arrive
** per consumer warp after __syncwarp as write-after-read hazards between the next TMA copy into the
** stage and the other lanes' shared-memory reads, and an arrive from every lane as none
** (kernels/tools/race_probe.cu; reports/gpu/NVIDIA-H200-2026-11-29-sanitize/README.md).  The
** one-arrive form is ordered by __syncwarp's memory ordering and the arrive's release; the tool does
** not follow that chain.  MXK_WG_ARRIVE_ALL: 1 (the default) every lane, except the G = 64 kernel
** (KPG_T 2), where the every-lane form gives ptxas a stack slot at the 168-register limit and cost
** 6% (2048 x 4096 x 4096, 2048 x 11008 x 4096) to 26% (8192^3) in the 2026-11-29 bench; 2 every
** lane in every kernel (the racecheck runs); 0 one arrive per warp everywhere (the form before). */
#ifndef MXK_WG_ARRIVE_ALL
#define MXK_WG_ARRIVE_ALL 1
#endif
template <int KPG_T> struct WgArrive {
    static constexpr bool all = MXK_WG_ARRIVE_ALL == 2 || (MXK_WG_ARRIVE_ALL == 1 && KPG_T != 2);
};

#define WG_BM 128
#define WG_BN 128
#define WG_BK 128
#define WG_STAGES 5
#define WG_MAGIC 0x4B400000

namespace {

/* The factors of one group of one 128-row block, formed once per call by wg_factors (global
** memory, [block][group]) and copied into a stage with the operand tiles (cp.async.bulk). */
struct FacA {            /* A rows */
    float2 v[WG_BM];     /* {2^(EA-133), -1.5*2^23*2^(EA-133) (NaN for EA > 237)} */
    uint8_t e[WG_BM];    /* raw bytes for the exact path */
    int bad;             /* bit 0: a row of rows 0-63, bit 1: of rows 64-127 outside the fast-path
                            window (7 for G > 128) */
    int pad[3];
};
struct FacB {            /* B rows (C columns) */
    float v[WG_BN];      /* 2^(EB-133), permuted for one LDS.128 per 2 n8 blocks (bperm) */
    uint8_t e[WG_BN];
    int bad;             /* bit 2: a row outside the window (7 for G > 128) */
    int pad[3];
};
constexpr int SLOTS = 4; /* groups ending in a stage, at most */
constexpr int A_TILE = WG_BM * WG_BK, B_TILE = WG_BN * WG_BK;
constexpr int DATA_BYTES = WG_STAGES * (A_TILE + B_TILE);
constexpr int FAC_STAGE = SLOTS * (int)(sizeof(FacA) + sizeof(FacB)); /* FacA[SLOTS], then FacB[SLOTS] */
constexpr int SC_BYTES = WG_STAGES * FAC_STAGE;
constexpr int SMEM_BYTES = 1024 + DATA_BYTES + SC_BYTES + 2 * WG_STAGES * 8;
static_assert(sizeof(FacA) % 16 == 0 && sizeof(FacB) % 16 == 0 && FAC_STAGE % 16 == 0, "bulk copies: 16-byte units");

__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* polling variant: mbarrier.test_wait never suspends the thread */
__device__ __forceinline__ void mbar_wait_poll(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nPOLL_%=:\n"
                 "mbarrier.test_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra POLL_%=;\n}\n" ::"r"(bar), "r"(parity) : "memory");
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

/* position of column c's factor in FacB::v: thread q = (c>>1)&3 reads one float4 per pair of n8
** blocks {8b+2q, 8b+2q+1, 8(b+1)+2q, 8(b+1)+2q+1} */
__device__ __forceinline__ int bperm(int c)
{
    const int b = c >> 3, q = (c >> 1) & 3, e = c & 1;
    return (((b >> 1) * 4 + q) * 4) + (b & 1) * 2 + e;
}

struct WgParams {
    int M, N, K, G;
    int Mt, Nt; /* 128 x 128 tiles */
    int dbg;
};

/* The factor tables of A and B in one launch: blocks [0, Mt) form A's, [Mt, Mt + Nt) B's; one block
** of 128 threads per (128-row block, 16 groups), one row per thread.  A row's 16 scale bytes are
** all loaded before the first is used: one memory latency per thread, where a load per group inside
** the loop (what ptxas made of the first version: it does not hoist loads across the vote and the
** shared atomics) cost 16 in series.  Rows past the operand's end get E = 127 (inside the window;
** their mantissas are TMA zero fill).  The GEMM is launched as this kernel's programmatic dependent
** (see the launcher): it may start as soon as every block of this kernel has started. */
__global__ void __launch_bounds__(128)
    wg_factors(const uint8_t *__restrict__ sca, int M, int Mt, const uint8_t *__restrict__ scb, int N, int ng,
               int G, FacA *__restrict__ fa_out, FacB *__restrict__ fb_out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
    __shared__ int bad[16];
    const bool is_a = (int)blockIdx.x < Mt;
    const int t = threadIdx.x, rb = is_a ? (int)blockIdx.x : (int)blockIdx.x - Mt, g0 = blockIdx.y * 16;
    const int row = rb * 128 + t, R = is_a ? M : N;
    const uint8_t *sc = (is_a ? sca : scb) + (size_t)row * ng;
    int e[16];
#pragma unroll
    for (int j = 0; j < 16; j++) e[j] = row < R && g0 + j < ng ? sc[g0 + j] : 127;
    if (t < 16) bad[t] = G > 128 ? 7 : 0;
    __syncthreads();
#pragma unroll
    for (int j = 0; j < 16; j++) {
        const int g = g0 + j;
        if (g >= ng) break; /* block-uniform */
        /* fast-path window (see the header): 59 <= E <= 186 */
        const bool b = __any_sync(0xffffffffu, (unsigned)(e[j] - 59) > 127u);
        if (is_a) {
            FacA *f = fa_out + (size_t)rb * ng + g;
            f->v[t] = make_float2(mxk_pow2f(e[j] - 133),
                                  e[j] > 237 ? __int_as_float(0x7FC00000)
                                             : __int_as_float((int)(0x80000000u | ((uint32_t)(e[j] + 17) << 23) | 0x400000u)));
            f->e[t] = (uint8_t)e[j];
            if (b && (t & 31) == 0) atomicOr(&bad[j], t < 64 ? 1 : 2);
        } else {
            FacB *f = fb_out + (size_t)rb * ng + g;
            f->v[bperm(t)] = e[j] == 255 ? __int_as_float(0x7FC00000) : mxk_pow2f(e[j] - 133);
            f->e[t] = (uint8_t)e[j];
            if (b && (t & 31) == 0) atomicOr(&bad[j], 4);
        }
    }
    __syncthreads();
    if (t < 16 && g0 + t < ng) {
        if (is_a) fa_out[(size_t)rb * ng + g0 + t].bad = bad[t];
        else fb_out[(size_t)rb * ng + g0 + t].bad = bad[t];
    }
}

template <int KPG_T>
__global__ void __launch_bounds__(384, 1)
    gemm_wgmma_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                      const WgParams P, const FacA *__restrict__ fac_a, const FacB *__restrict__ fac_b,
                      float *__restrict__ c)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = smem_u32(smem);
    const uint32_t fac0 = sbase + DATA_BYTES; /* stage s: FacA[SLOTS] at fac0 + s * FAC_STAGE, then FacB[SLOTS] */
    uint64_t *bars = reinterpret_cast<uint64_t *>(smem + DATA_BYTES + SC_BYTES);
    const uint32_t full0 = smem_u32(bars), empty0 = full0 + WG_STAGES * 8;

    const int tid = threadIdx.x, wg = tid >> 7;
    /* tile t -> origin (row of A, row of B), M-blocks fastest so that concurrent CTAs share B
    ** tiles in L2 (bands of 16 tile rows measured no better at 8192^3 once the producer stopped
    ** bounding the kernel) */
    auto origin = [&](int t) -> int2 { return make_int2((t % P.Mt) * WG_BM, (t / P.Mt) * WG_BN); };
    /* the problem's constants, formed inside each role after setmaxnreg (values live across the
    ** register-count change were spilled to local memory) */
#define WG_CONSTS                                                                                     \
    const int M = P.M, N = P.N, K = P.K, G = P.G, dbg = P.dbg;                                     \
    const int ngroups = P.Mt * P.Nt, cid = (int)blockIdx.x, ncl = (int)gridDim.x;                 \
    const int KS = K / 32, n_kt = (K + WG_BK - 1) / WG_BK, ng = K / G, KPG = G / 32;              \
    const int my_tiles = cid < ngroups ? (ngroups - 1 - cid) / ncl + 1 : 0;                        \
    const int njobs = my_tiles * n_kt;                                                             \
    (void)ng, (void)KPG, (void)njobs, (void)KS, (void)M, (void)N, (void)G, (void)dbg;

    if (tid == 0) {
        for (int s = 0; s < WG_STAGES; s++) {
            mxk_mbar_init(full0 + 8 * s, 1); /* the producer thread, with the bytes of its copies */
            mxk_mbar_init(empty0 + 8 * s, WgArrive<KPG_T>::all ? 8 * 32 : 8); /* every consumer lane (warp) */
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmA) : "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmB) : "memory");
    }
    __syncthreads();

    if (wg == 0) {
        /* ------------------------------ producer ------------------------------ */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        WG_CONSTS
        /* One thread issues every copy of a stage: the two operand tiles (TMA) and the factors of
        ** the groups that end in the stage (two bulk copies), all counted on full[s].  (The factors
        ** used to be formed here, per stage, by the producer warps from the scale bytes: that work
        ** and its scale loads bounded the kernel, MXK_WG_DEBUG timings on an H200: the pipeline
        ** without promotion, wgmma and TMA took 57 us of the 124 at 2048x4096x4096 G=128.) */
        if (tid == 0) {
            int s = 0;
            uint32_t ph = 0;
            bool factors_ready = false; /* the tables come from the kernel this one depends on */
            for (int t = cid; t < ngroups; t += ncl) {
                const int2 o = origin(t);
                const FacA *fa = fac_a + (size_t)(o.x / WG_BM) * ng;
                const FacB *fb = fac_b + (size_t)(o.y / WG_BN) * ng;
                for (int kt = 0; kt < n_kt; kt++) {
                    if (dbg & 64) mbar_wait_poll(empty0 + 8 * s, ph ^ 1);
                    else mxk_mbar_wait(empty0 + 8 * s, ph ^ 1);
                    const uint32_t fbar = full0 + 8 * s;
                    /* groups ending in k-steps (4 kt, min(4 kt + 4, KS)]: g0 .. g0 + n - 1 */
                    const int g0 = KPG_T > 0 ? kt * (4 / (KPG_T > 0 ? KPG_T : 1)) : 4 * kt / KPG;
                    const int kend = 4 * kt + 4 < KS ? 4 * kt + 4 : KS;
                    const int n = (KPG_T > 0 ? kend / (KPG_T > 0 ? KPG_T : 1) : kend / KPG) - g0;
                    if (dbg & 16) {
                        mxk_mbar_arrive(fbar); /* timing experiment: no copies */
                    } else {
                        mxk_mbar_arrive_tx(fbar, A_TILE + B_TILE + n * (int)(sizeof(FacA) + sizeof(FacB)));
                        const uint32_t dA = sbase + s * (A_TILE + B_TILE), dF = fac0 + s * FAC_STAGE;
                        mxk_tma_load_2d(dA, &tmA, kt * WG_BK, o.x, fbar);
                        mxk_tma_load_2d(dA + A_TILE, &tmB, kt * WG_BK, o.y, fbar);
                        if (n > 0) {
                            if (!factors_ready) {
                                /* the operand copies above need nothing from it; the factor copies
                                ** wait for wg_factors to finish and its writes to be visible */
                                asm volatile("griddepcontrol.wait;\n" ::: "memory");
                                factors_ready = true;
                            }
                            mxk_bulk_g2s(dF, fa + g0, n * (int)sizeof(FacA), fbar);
                            mxk_bulk_g2s(dF + SLOTS * (int)sizeof(FacA), fb + g0, n * (int)sizeof(FacB), fbar);
                        }
                    }
                    if (++s == WG_STAGES) s = 0, ph ^= 1;
                }
            }
        }
    } else {
        /* ------------------------------ consumers ------------------------------ */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        WG_CONSTS
        const int cw = wg - 1, lane = tid & 31, w = (tid >> 5) & 3;
        const int q4 = lane & 3, rl0 = cw * 64 + w * 16 + (lane >> 2); /* tile-local rows rl0, rl0+8 */
        int d[64], d1[64];
        float acc[64];
#pragma unroll
        for (int i = 0; i < 64; i++) d[i] = 0, d1[i] = 0, acc[i] = 0.0f;
        /* promotion of the group dots in dd into acc (see the header) */
        /* the fast path of the promotion (see the header): acc += ((dd + bias as float) * sa + ca) * sb */
        struct Fac {
            float2 a0, a1; /* rows rl0, rl0 + 8 */
            float4 b[8];   /* this thread's 32 columns */
        };
        /* slot j of stage s: its FacA and FacB (shared-memory addresses) */
        constexpr uint32_t SZA = sizeof(FacA), SZB = sizeof(FacB);
#define WG_SLOT(s, j) fac0 + (s) * FAC_STAGE + (j) * SZA, fac0 + (s) * FAC_STAGE + SLOTS * SZA + (j) * SZB
        auto load_fac = [&](uint32_t sca, uint32_t scb) -> Fac {
            Fac f;
            f.a0 = lds_f2(sca + 8 * rl0), f.a1 = lds_f2(sca + 8 * (rl0 + 8));
            const uint32_t bq = scb + 16 * q4;
#pragma unroll
            for (int bb = 0; bb < 8; bb++) f.b[bb] = lds_f4(bq + 64 * bb);
            return f;
        };
        auto apply_fac = [&](int (&dd)[64], const Fac &f) {
            const float2 A0 = f.a0, A1 = f.a1;
#pragma unroll
            for (int bb = 0; bb < 8; bb++) {
                const float4 B = f.b[bb];
                const float sbv[4] = {B.x, B.y, B.z, B.w};
#pragma unroll
                for (int h2 = 0; h2 < 2; h2++)
#pragma unroll
                    for (int e = 0; e < 4; e++) {
                        const int i = (bb * 2 + h2) * 4 + e;
                        const float2 A = (e >> 1) ? A1 : A0;
                        const float x = __fmaf_rn(__int_as_float(dd[i] + WG_MAGIC), A.x, A.y);
                        acc[i] = __fmaf_rn(x, sbv[h2 * 2 + (e & 1)], acc[i]);
                    }
            }
        };
        auto promote_fast = [&](int (&dd)[64], uint32_t sca, uint32_t scb) { apply_fac(dd, load_fac(sca, scb)); };
        auto release = [&](int s) {
            if (WgArrive<KPG_T>::all) { /* each lane's reads of the stage (factors, exponents) are done */
                mxk_mbar_arrive(empty0 + 8 * s);
            } else {
                __syncwarp();
                if (lane == 0) mxk_mbar_arrive(empty0 + 8 * s);
            }
        };
        /* one group's wgmmas into the set dd: the KP k-steps of group gl of the stage whose tiles
        ** the descriptors da, db address (the first overwrites dd), fenced and committed */
        constexpr int KPC = KPG_T > 0 ? KPG_T : 1;
        auto issue_group = [&](int (&dd)[64], uint64_t da, uint64_t db, int gl) {
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < KPC; k++) {
                if (k == 0) wgmma_s8_first(dd, da + 2 * (gl * KPC), db + 2 * (gl * KPC));
                else wgmma_s8(dd, da + 2 * (gl * KPC + k), db + 2 * (gl * KPC + k), 1);
            }
            wgmma_commit();
        };
        /* fast-path verdict of a slot for this warpgroup: a B row of the tile or an A row of the
        ** warpgroup outside the window makes it slow (warp-uniform by the vote) */
        auto slot_fast = [&](uint32_t sca, uint32_t scb) -> bool {
            const unsigned badw = (unsigned)(lds_s32(sca + (uint32_t)offsetof(FacA, bad)) | lds_s32(scb + (uint32_t)offsetof(FacB, bad)));
            return __all_sync(0xffffffffu, (badw & (4u | (1u << cw))) == 0);
        };
        /* promotion of the group dots in dd into acc, fast or exact path */
        auto promote = [&](int (&dd)[64], uint32_t sca, uint32_t scb) {
            const bool fast = slot_fast(sca, scb);
            if (dbg & 1) return; /* timing experiment only: no promotion */
            if (KPG_T > 0 && fast) {
                promote_fast(dd, sca, scb);
            } else {
                const FacA &fa = *reinterpret_cast<const FacA *>(smem + (sca - sbase));
                const FacB &fb = *reinterpret_cast<const FacB *>(smem + (scb - sbase));
                const int ea0 = fa.e[rl0], ea1 = fa.e[rl0 + 8];
#pragma unroll
                for (int i = 0; i < 64; i++) {
                    const int col = (i >> 2) * 8 + q4 * 2 + (i & 1);
                    acc[i] = __fadd_rn(acc[i], mxk_term_exact(dd[i], (i & 2) ? ea1 : ea0, fb.e[col]));
                }
            }
        };
        auto store_tile = [&](int2 o) { /* rows >= M, columns >= N (tiles past the edge) skipped */
            mxk_wg_store_tile(acc, c, M, N, o.x + rl0, o.y, q4);
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = 0.0f;
        };
        int s = 0;
        uint32_t ph = 0;
        for (int grp = cid; grp < ngroups; grp += ncl) {
            const int2 org = origin(grp);
            for (int kt = 0; kt < n_kt; kt++) {
                if ((KPG_T == 2 || KPG_T == 4) && !(dbg & (2048 | 512 | 8 | 1)) && kt + 1 < n_kt && kt * 4 + 8 <= KS) {
                    /* G = 64 and 128, two full stages whose groups all take the fast path: the stage
                    ** pair's groups alternate between the two accumulator sets, the wgmmas of group
                    ** q + 1 in flight while group q is promoted, across the stage edge (see the
                    ** header); both slots are released after the last group's wgmmas completed. */
                    constexpr int KP = KPG_T > 0 ? KPG_T : 1, NG = 4 / KP;
                    const int s1 = s + 1 == WG_STAGES ? 0 : s + 1;
                    const uint32_t ph1 = s + 1 == WG_STAGES ? ph ^ 1 : ph;
                    mxk_mbar_wait(full0 + 8 * s, ph);
                    mxk_mbar_wait(full0 + 8 * s1, ph1);
                    bool all = true;
#pragma unroll
                    for (int gi = 0; gi < NG; gi++) all &= slot_fast(WG_SLOT(s, gi)) && slot_fast(WG_SLOT(s1, gi));
                    if (all) {
                        const uint32_t dA0 = sbase + s * (A_TILE + B_TILE), dA1 = sbase + s1 * (A_TILE + B_TILE);
                        const uint64_t a0 = make_desc(dA0 + cw * 64 * WG_BK), b0 = make_desc(dA0 + A_TILE);
                        const uint64_t a1 = make_desc(dA1 + cw * 64 * WG_BK), b1 = make_desc(dA1 + A_TILE);
                        /* group q of the pair (q < NG: stage s, else s1) into the set dd */
                        auto issue = [&](int (&dd)[64], int q) { issue_group(dd, q < NG ? a0 : a1, q < NG ? b0 : b1, q % NG); };
                        issue(d, 0);
                        issue(d1, 1);
#pragma unroll
                        for (int q = 0; q < 2 * NG; q++) {
                            int(&dd)[64] = (q & 1) ? d1 : d;
                            if (q + 1 < 2 * NG) wgmma_wait1(dd);
                            else wgmma_wait0(dd);
                            if (q < NG) promote_fast(dd, WG_SLOT(s, q));
                            else promote_fast(dd, WG_SLOT(s1, q - NG));
                            if (q + 2 < 2 * NG) issue(dd, q + 2);
                        }
                        release(s);
                        release(s1);
                        s = s1 + 1 == WG_STAGES ? 0 : s1 + 1;
                        ph = s1 + 1 == WG_STAGES ? ph1 ^ 1 : ph1;
                        kt++;
                        continue;
                    }
                }
                if (dbg & 128) mbar_wait_poll(full0 + 8 * s, ph);
                else mxk_mbar_wait(full0 + 8 * s, ph);
                const uint32_t dA = sbase + s * (A_TILE + B_TILE);
                const uint64_t descA = make_desc(dA + cw * 64 * WG_BK), descB = make_desc(dA + A_TILE);
                bool released = false;
                if ((dbg & 8) || ((dbg & 32) && cw == 1)) {
                    /* timing experiment: no wgmma */
                } else if ((KPG_T == 1 || KPG_T == 2) && kt * 4 + 4 <= KS && !(dbg & 1) &&
                           [&] {
                               bool all = true;
#pragma unroll
                               for (int gi = 0; gi < 4 / (KPG_T > 0 ? KPG_T : 1); gi++) all &= slot_fast(WG_SLOT(s, gi));
                               return all;
                           }()) {
                    /* A full stage whose groups all take the fast path (4 groups at G = 32, 2 at 64):
                    ** two accumulator sets, the wgmma of group gi+1 in flight while group gi is
                    ** promoted; straight-line code, drained at the stage end, so that no in-flight
                    ** accumulator meets a data-dependent branch or the loop's back edge (either made
                    ** ptxas serialise the wgmmas). */
                    constexpr int KP = KPG_T > 0 ? KPG_T : 1, NG = 4 / KP;
                    auto issue = [&](int (&dd)[64], int gi) { issue_group(dd, descA, descB, gi); };
                    issue(d, 0);
                    issue(d1, 1);
                    wgmma_wait1(d);
                    promote_fast(d, WG_SLOT(s, 0));
                    if (NG == 4) {
                        issue(d, 2);
                        wgmma_wait1(d1);
                        promote_fast(d1, WG_SLOT(s, 1));
                        issue(d1, 3);
                        wgmma_wait1(d);
                        promote_fast(d, WG_SLOT(s, 2));
                        wgmma_wait0(d1);
                        promote_fast(d1, WG_SLOT(s, 3));
                    } else {
                        wgmma_wait0(d1);
                        promote_fast(d1, WG_SLOT(s, 1));
                    }
                } else if (KPG_T == 4 && kt * 4 + 4 <= KS && !(dbg & 512)) {
                    /* G = 128: the factors go to registers before the wgmmas (verdict and loads
                    ** ahead of them, so that no branch meets an in-flight accumulator), and the
                    ** slot is released as soon as the wgmmas that read it completed, before the
                    ** promotion: the producer refills it one promotion earlier. */
                    const bool fast = slot_fast(WG_SLOT(s, 0));
                    const Fac f = load_fac(WG_SLOT(s, 0));
                    issue_group(d, descA, descB, 0);
                    wgmma_wait0(d);
                    if (fast) {
                        release(s);
                        released = true;
                        if (!(dbg & 1)) apply_fac(d, f);
                    } else {
                        promote(d, WG_SLOT(s, 0));
                    }
                } else if (KPG_T > 0) {
                    constexpr int KP = KPG_T > 0 ? KPG_T : 1;
#pragma unroll
                    for (int gi = 0; gi < 4 / KP; gi++) {
                        if (kt * 4 + gi * KP >= KS) break; /* K tail (KS is a multiple of KP) */
                        issue_group(d, descA, descB, gi);
                        wgmma_wait0(d);
                        promote(d, WG_SLOT(s, gi));
                    }
                } else { /* G >= 256: a group spans stages; exact path only (G > 128) */
                    const int ks0 = kt * 4, nk = KS - ks0 < 4 ? KS - ks0 : 4;
                    const int first = ks0 % KPG == 0;
                    wgmma_fence();
#pragma unroll 1
                    for (int k = 0; k < nk; k++) wgmma_s8(d, descA + 2 * k, descB + 2 * k, (k == 0 && first) ? 0 : 1);
                    wgmma_commit();
                    wgmma_wait0(d);
                    if ((ks0 + nk) % KPG == 0) promote(d, WG_SLOT(s, 0));
                }
                if (!released) release(s);
                if (++s == WG_STAGES) s = 0, ph ^= 1;
            }
            store_tile(org);
        }
    }
#endif
}

typedef void (*WgKernel)(const CUtensorMap, const CUtensorMap, const WgParams, const FacA *, const FacB *, float *);

} // namespace

/* 0 = launched; -1 = not applicable here (caller falls back); > 0 = CUDA error */
int mxk_gemm_wgmma_internal(int variant, int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                            const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    static const bool off = getenv("MXK_NO_WGMMA") != nullptr; /* diagnostics: force the fallback */
    if (off) return -1;
    const MxkCaps cap = mxk_caps();
    const int sms = cap.sms;
    if (cap.cc / 10 != 9 || cap.smem_optin < SMEM_BYTES || G % 32 != 0 || K % 16 != 0 || (uintptr_t)am % 16 || (uintptr_t)bm % 16) return -1;
    /* groups end on stage (128-byte) boundaries or inside one stage: G in {32, 64, 128} or a
    ** multiple of 128 (G = 96, 160, ... would end groups across stage edges, which no path handles) */
    if (G > 128 ? G % 128 != 0 : G == 96) return -1;
    (void)variant;
    CUtensorMap ta, tb;
    if (!mxk_tma_map_2d(&ta, CU_TENSOR_MAP_DATA_TYPE_UINT8, am, M, K, 1, WG_BK, 128) ||
        !mxk_tma_map_2d(&tb, CU_TENSOR_MAP_DATA_TYPE_UINT8, bm, N, K, 1, WG_BK, 128))
        return -1;
    const int kpg = G / 32, ki = kpg == 1 ? 0 : kpg == 2 ? 1 : kpg == 4 ? 2 : 3;
    static const WgKernel table[4] = {gemm_wgmma_kernel<1>, gemm_wgmma_kernel<2>, gemm_wgmma_kernel<4>, gemm_wgmma_kernel<0>};
    const WgKernel kern = table[ki];
    static bool attr[4] = {};
    if (!attr[ki]) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM_BYTES);
        if (e != cudaSuccess) return (int)e;
        attr[ki] = true;
    }
    WgParams P;
    P.M = M, P.N = N, P.K = K, P.G = G;
    P.Mt = (M + WG_BM - 1) / WG_BM, P.Nt = (N + WG_BN - 1) / WG_BN;
    P.dbg = getenv("MXK_WG_DEBUG") ? atoi(getenv("MXK_WG_DEBUG")) : 0; /* timing experiments */
    const long long tiles = (long long)P.Mt * P.Nt;
    const int grid = (int)(tiles < sms ? tiles : sms);
    /* the factor tables, stream-ordered: formed, read by the GEMM, freed */
    const int ng = K / G, Nt = P.Nt;
    const size_t bytes_a = (size_t)P.Mt * ng * sizeof(FacA), bytes_b = (size_t)Nt * ng * sizeof(FacB);
    void *fac = nullptr;
    cudaError_t e = cudaMallocAsync(&fac, bytes_a + bytes_b, s);
    if (e != cudaSuccess) return (int)e;
    FacA *fa = reinterpret_cast<FacA *>(fac);
    FacB *fb = reinterpret_cast<FacB *>(reinterpret_cast<uint8_t *>(fac) + bytes_a);
    wg_factors<<<dim3(P.Mt + Nt, (ng + 15) / 16), 128, 0, s>>>(ae, M, P.Mt, be, N, ng, G, fa, fb);
    /* programmatic dependent launch: the GEMM's blocks start (barriers, register split, first
    ** operand copies) while wg_factors runs; its producer waits (griddepcontrol.wait) before the
    ** first factor copy.  Everything before wg_factors in the stream completed before wg_factors
    ** started, so the GEMM's other inputs are ready. */
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3(grid), lc.blockDim = dim3(384), lc.dynamicSmemBytes = SMEM_BYTES, lc.stream = s;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = P.dbg & 1024 ? 0 : 1; /* 1024: plain launch (timing) */
    lc.attrs = at, lc.numAttrs = 1;
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaLaunchKernelEx(&lc, kern, ta, tb, P, (const FacA *)fa, (const FacB *)fb, c);
    cudaFreeAsync(fac, s);
    return mxk_err(e);
}

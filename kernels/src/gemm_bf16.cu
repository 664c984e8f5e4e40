/* gemm_bf16.cu - MXINT8 GEMM for Hopper (sm_90a) on the bf16 tensor path, mxk_gemm cfg 11: every
** operand element pre-scaled into bf16, a group's dot formed by the tensor core in fp32, and ONE
** fp32 add per output and group on the CUDA cores.  Bit-exact with the fp32 arithmetic contract
** (sim/doc/numerics.md section 4): C[i,j] = fold over groups g ascending of acc = RN(acc +
** RN(d_g * 2^(EA+EB-266))), acc from +0.0.  cfg 0 picks it at G = 32 where it would pick the
** int8 Hopper kernel (cfg 8: M > 16, >= 132 tiles of 128 x 128); cfg 8 keeps G >= 64 (measured
** faster there, below).
**
** Why: the int8 kernel's promotion costs an IADD and two FFMA per output and group plus 10 factor
** loads per 64 outputs, and its consumer structure reaches 0.19 / 0.34 of the int8 peak at G = 32 /
** 64 even without its ring (reports/gpu/NVIDIA-H200-2026-11-27-probes).  Here the scales ride in the
** operands, the group dot comes out of the tensor core already scaled, and the promotion is one
** FADD with no factor loads: the same structure on bf16 wgmma measured 0.38 / 0.45 of the int8 peak
** (0.76 / 0.90 of the bf16 peak), for the price of a pre-pass over A and B.
**
** Two launches per call:
**   1. bf_prescale (A and B in one grid): each 8 mantissas m with their scale byte E become 8 bf16
**      m * 2^(E-133) (one FFMA each, exact: see bf_prescale) in a stream-ordered scratch
**      (cudaMallocAsync); each block writes one verdict word: 1 if one of its groups is outside the
**      window below and not all zero, or has E = 255.
**   2. gemm_bf16_kernel, the pre-pass's programmatic dependent: one CTA per SM, 384 threads (a
**      producer warpgroup, setmaxnreg 40; two consumer warpgroups, 232), a persistent tile scheduler
**      over 128 x 128 tiles (M-blocks fastest), K in stages of 64 elements (128 bytes per row, the
**      int8 kernel's swizzle and k-step addressing: 32 bytes per k-step for both), 6 stages (TMA,
**      zero fill outside the tensor).  Consumer warpgroup cw owns rows [64 cw, 64 cw + 64); per
**      group, G/16 wgmma m64n128k16.f32.bf16.bf16 (the first with scale-d = 0), the groups in two
**      accumulator sets, the wgmmas of the second in flight while the first is added: G = 32 one
**      stage (two groups) at a time, G = 64 two stages, straight-line (no branch meets an
**      in-flight accumulator: the slots are released after the last group).  If any verdict word
**      is set, the whole call is formed instead by the exact CUDA-core path (each output: integer
**      dots from the int8 operands, mxk_term_exact, RN adds; one thread per output, far slower, not
**      timed), so that no input is wrong.  The window (E = 133 +- 53, a factor 2^+-53 on the
**      mantissas) holds the scales of ordinary tensors; all-zero blocks may carry any scale below
**      255 (quantizers give them tiny ones) without leaving the fast path.
**
** Measured on an H200 while building it (same-call A/B, bench-prefill, cold L2;
** reports/gpu/NVIDIA-H200-2026-11-27-bf16/dev): at 2048x4096x4096 G = 32 161 us against cfg 8's
** 213-215 (cuBLAS bf16 90), 2048x11008x4096 409 against 568-574, 8192^3 2456-2658 against
** 3266-3448; G = 64 150 against cfg 8's 135 (cfg 8 keeps G = 64).  Slower, not kept: G = 32 in
** blocks of two stages (4 groups, the wgmmas of group q + 1 in flight while q is added) 164 us
** (with "=f" first-step operands ptxas spilled the accumulators: 285 us); G = 64 in blocks of four
** stages with a 7-stage ring 166; clusters of 2 CTAs sharing the B tile by TMA multicast (each copies
** half, both release each slot) 277 / 250 us at G = 32 / 64.  The structure without its ring
** (wgmma_probe, bf16-2set) runs at 0.38 / 0.45 of the int8 peak at G = 32 / 64; this kernel at about
** 0.22 / 0.25 after its pre-pass: twice the int8 kernel's operand bytes per MAC go through L2 and the
** ring (1.07 GB at 2048x4096x4096 against 0.54).  The pre-pass: 21.3 us on an H200, 26.2 on an H100 at
** 2048x4096x4096 G = 32 (Nsight Compute; 33.5 us with 16 mantissas per thread, whose two 16-byte
** stores per warp wrote half sectors: L2-bound); the GEMM after it runs at the board's 700 W limit,
** SM clock 1.62-1.65 GHz (reports/gpu/NVIDIA-H*-2026-11-27-final6/ncu_dispatched.txt).
**
** Proof of the fast path.  Window: 70 <= E <= 186 for every scale of a group with a nonzero
** mantissa (a group whose mantissas are all zero contributes +-0 products whatever its E < 255).
**   (1) a' = m * 2^(EA-133) is a bf16: |m| <= 128 has at most 8 significant bits (bf16 keeps 8) and
**       2^-126 <= 2^(EA-133) * |m| <= 2^(186-133+7) = 2^60 for m != 0 (normal).  Same for b'.
**   (2) each product a'b' = (m_a m_b) 2^s, s = EA+EB-266 in [-126, 106], is exact in fp32 (16
**       significant bits) and normal or zero.
**   (3) the group's sum: every product and every partial sum is an integer multiple of 2^s of
**       magnitude <= G 2^14 2^s <= 2^20 2^s (G <= 64): at most 21 significant bits, no overflow
**       (2^126).  That the wgmma chain returns this sum exactly, d' = d * 2^s = t (a float), is a
**       property of the tensor core that PTX does not specify: its fp32 accumulation must not drop
**       bits of such sums (bit-accurate models of the H100's matrix units, with their alignment and
**       accumulator widths per input format: Khattak and Mikaitis, "Accurate Models of NVIDIA Tensor
**       Cores", arXiv:2512.07004, 2025; the fp8 path is known to keep fewer bits and is not used).  It
**       is checked on the hardware: wgmma_probe's exact_bf16 (0 mismatches in 33.5 million outputs
**       of random, all -128 and 127-with-one-+-1 groups at random windowed scales: G = 32 on an
**       H200; G = 32 and 64 on an H100, reports/gpu/NVIDIA-H100-80GB-HBM3-2026-11-27-probes) and
**       mxsim-gpu verify in every card run (16 cfg 11 cases at G = 32 and 64: the window's edges,
**       all -128 mantissas (|d| = 2^19, 2^20), zero blocks with tiny scales; 0 mismatches on an H200
**       and an H100, final5 and final6).
**   (4) acc = RN(acc + d') is the contract's add.  Signed zeros: d' = -0 (all products -0) and +0
**       give the same acc (acc is never -0: it starts at +0.0 and RN(+0 + -0) = +0).
** Outside the window (E < 70 or > 186 with a nonzero mantissa, E = 255 NaN) the exact path runs.
** Requirements (checked by the launcher, else cfg 8): an sm_90 device, G in {32, 64}, K a multiple
** of 64, 16-byte aligned mantissa pointers, M K and N K below 2^31, and 2 (M + N) K bytes of
** stream-ordered scratch for the bf16 operands (freed when the GEMM is done; if the pool cannot
** give them, cfg 8 runs).
** Compiled with -fmad=false and explicit _rn intrinsics. */
#include "mxk_common.cuh"
#include "mxk_mbar.cuh"
#include "mxk_tma.cuh"
#include "mxk_wgmma.cuh"

#include <stddef.h>

#define BF_BM 128
#define BF_BN 128
#define BF_KE 64         /* K elements per stage: 128 bytes of bf16 per row */
#define BF_STAGES 6
#define BF_EMIN 70       /* the window of the fast path (header, (1)-(3)) */
#define BF_EMAX 186
#define BF_PRE_BLOCKS 264 /* blocks per operand of the pre-pass: one verdict word each */
#define BF_PRE_U 8       /* 8-element units per thread in flight in the pre-pass */

namespace {

constexpr int BF_TILE = BF_BM * BF_KE * 2; /* bytes of one operand tile of a stage (16 KB) */
constexpr int BF_SMEM = 1024 + BF_STAGES * 2 * BF_TILE + 2 * BF_STAGES * 8;

/* wgmma.m64n128k16.f32.bf16.bf16, both operands K-major from shared memory; scale-d from p */
#define BF_F8(i) "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), "+f"(d[i + 6]), "+f"(d[i + 7])
#define BF_MMA                                                                                        \
    "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "                                          \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                        \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"                               \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"                               \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63},"                              \
    " %64, %65, p, 1, 1, 0, 0;\n}\n"
__device__ __forceinline__ void bf_mma(float (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n" BF_MMA
                 : BF_F8(0), BF_F8(8), BF_F8(16), BF_F8(24), BF_F8(32), BF_F8(40), BF_F8(48), BF_F8(56)
                 : "l"(da), "l"(db));
}
/* a group's first k-step: D = A B, the old register values are dead */
#define BF_W8(i) "=f"(d[i]), "=f"(d[i + 1]), "=f"(d[i + 2]), "=f"(d[i + 3]), "=f"(d[i + 4]), "=f"(d[i + 5]), "=f"(d[i + 6]), "=f"(d[i + 7])
__device__ __forceinline__ void bf_mma_first(float (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n" BF_MMA
                 : BF_W8(0), BF_W8(8), BF_W8(16), BF_W8(24), BF_W8(32), BF_W8(40), BF_W8(48), BF_W8(56)
                 : "l"(da), "l"(db));
}
template <int N> __device__ __forceinline__ void bf_wait(float (&d)[64])
{
    asm volatile("wgmma.wait_group.sync.aligned %64;\n"
                 : BF_F8(0), BF_F8(8), BF_F8(16), BF_F8(24), BF_F8(32), BF_F8(40), BF_F8(48), BF_F8(56)
                 : "n"(N) : "memory");
}

/* The pre-pass over A and B as one index space of 8-element units (A's first), BF_PRE_U units per
** thread in flight.  A unit is 8 bytes in and 16 bytes out, so every warp-wide store covers 512
** contiguous bytes: with 16 elements per thread the two 16-byte stores of a warp each wrote half of
** every sector they touched, and the L2 (80% busy, DRAM 32%: Nsight Compute, H200) bounded the
** pre-pass at 32.5 us at 2048x4096x4096 G = 32, with 1 or 4 chunks in flight alike.  The int8
** operands are read once (streaming loads); the bf16 copies are the GEMM's next reads.  One verdict
** word per block (no initialisation needed: every block writes its own). */
template <int U>
__global__ void __launch_bounds__(256)
    bf_prescale(const int8_t *__restrict__ am, const uint8_t *__restrict__ ae, int64_t na, const int8_t *__restrict__ bm,
                const uint8_t *__restrict__ be, int64_t nb, int G, uint16_t *__restrict__ aq, uint16_t *__restrict__ bq,
                int *__restrict__ verdict)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
    const int64_t na8 = na / 8, n8 = na8 + nb / 8;
    const int64_t nthr = (int64_t)gridDim.x * gridDim.y * blockDim.x;
    const int blk = blockIdx.y * gridDim.x + blockIdx.x;
    const int gsh = G == 32 ? 2 : 3; /* units per scale byte: 2^gsh (G is 32 or 64 here) */
    int bad = 0;
    for (int64_t i0 = (int64_t)blk * blockDim.x + threadIdx.x; i0 < n8; i0 += U * nthr) {
        uint2 v[U];
        int E[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t i = i0 + u * nthr;
            if (i < n8) {
                const bool is_b = i >= na8;
                const int64_t j = is_b ? i - na8 : i;
                v[u] = __ldcs(reinterpret_cast<const uint2 *>(is_b ? bm : am) + j);
                E[u] = __ldg((is_b ? be : ae) + (j >> gsh));
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t i = i0 + u * nthr;
            if (i >= n8) break;
            const bool is_b = i >= na8;
            const int64_t j = is_b ? i - na8 : i;
            const int e = E[u];
            bad |= e == 255 || ((v[u].x | v[u].y) != 0 && (e < BF_EMIN || e > BF_EMAX));
            const float f = mxk_pow2f(e < BF_EMIN || e > BF_EMAX ? 0 : e - 133); /* outside: the values are unused */
            const float c0 = -8388736.0f * f; /* -(2^23 + 128) f, exact */
            const uint32_t w[2] = {v[u].x, v[u].y};
            uint32_t o[4];
#pragma unroll
            for (int k = 0; k < 2; k++) {
                /* byte b (m + 128 after the xor) in the low mantissa bits of 2^23: x = 2^23 + m + 128;
                ** fma(x, f, c0) = m f exactly (x f is exact: 24 bits times a power of two inside
                ** the window; the exact sum m f has 8 significant bits), so the fp32's upper half is
                ** the bf16.  No conversion unit (I2F issues at a fraction of the FMA rate); the identity
                ** is enumerated for every m and E of the window in tests/unit/test_decode.c. */
                const uint32_t wx = w[k] ^ 0x80808080u;
                float r[4];
#pragma unroll
                for (int b = 0; b < 4; b++)
                    r[b] = __fmaf_rn(__uint_as_float(__byte_perm(wx, 0x4B000000u, 0x7540 | b)), f, c0);
                o[2 * k] = __byte_perm(__float_as_uint(r[0]), __float_as_uint(r[1]), 0x7632);
                o[2 * k + 1] = __byte_perm(__float_as_uint(r[2]), __float_as_uint(r[3]), 0x7632);
            }
            reinterpret_cast<uint4 *>(is_b ? bq : aq)[j] = make_uint4(o[0], o[1], o[2], o[3]);
        }
    }
    bad = __syncthreads_or(bad);
    if (threadIdx.x == 0) verdict[blk] = bad;
}

struct BfParams {
    int M, N, K, G;
    int Mt, Nt;
};

template <int KPG>
__global__ void __launch_bounds__(384, 1)
    gemm_bf16_kernel(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB, const BfParams P,
                     const int *__restrict__ verdict, const int8_t *__restrict__ am, const uint8_t *__restrict__ ae,
                     const int8_t *__restrict__ bm, const uint8_t *__restrict__ be, float *__restrict__ c)
{
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ uint8_t smem_raw[];
    uint8_t *smem = (uint8_t *)(((uintptr_t)smem_raw + 1023) & ~(uintptr_t)1023);
    const uint32_t sbase = (uint32_t)__cvta_generic_to_shared(smem);
    const uint32_t full0 = sbase + BF_STAGES * 2 * BF_TILE, empty0 = full0 + BF_STAGES * 8;
    const int tid = threadIdx.x, wg = tid >> 7;
    auto origin = [&](int t) -> int2 { return make_int2((t % P.Mt) * BF_BM, (t / P.Mt) * BF_BN); };
    /* the problem's constants, formed inside each role after setmaxnreg (values live across the
    ** register-count change are spilled to local memory) */
#define BF_CONSTS const int ntiles = P.Mt * P.Nt, cid = (int)blockIdx.x, ncl = (int)gridDim.x, n_kt = P.K / BF_KE;
    if (tid == 0) {
        for (int s = 0; s < BF_STAGES; s++) {
            mxk_mbar_init(full0 + 8 * s, 1);
            mxk_mbar_init(empty0 + 8 * s, 8);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmA) : "memory");
        asm volatile("prefetch.tensormap [%0];\n" ::"l"((uint64_t)&tmB) : "memory");
    }
    /* the pre-pass's operands and verdicts are complete and visible after this */
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
    int bad = 0;
    for (int i = tid; i < 2 * BF_PRE_BLOCKS; i += blockDim.x) bad |= verdict[i];
    if (__syncthreads_or(bad)) {
        /* some group outside the window: the exact CUDA-core path for this CTA's tiles */
        BF_CONSTS
        (void)n_kt;
        const int ng = P.K / P.G;
        for (int t = cid; t < ntiles; t += ncl) {
            const int2 o = origin(t);
            for (int idx = tid; idx < BF_BM * BF_BN; idx += blockDim.x) {
                const int i = o.x + idx / BF_BN, j = o.y + idx % BF_BN;
                if (i >= P.M || j >= P.N) continue;
                const int8_t *ar = am + (size_t)i * P.K, *br = bm + (size_t)j * P.K;
                float acc = 0.0f;
                for (int g = 0; g < ng; g++) {
                    int dsum = 0;
                    for (int k = g * P.G; k < (g + 1) * P.G; k++) dsum += (int)ar[k] * (int)br[k];
                    acc = __fadd_rn(acc, mxk_term_exact(dsum, ae[(size_t)i * ng + g], be[(size_t)j * ng + g]));
                }
                c[(size_t)i * P.N + j] = acc;
            }
        }
        return;
    }

    if (wg == 0) {
        /* ------------------------------ producer ------------------------------ */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
        BF_CONSTS
        if (tid == 0) {
            int s = 0;
            uint32_t ph = 0;
            for (int t = cid; t < ntiles; t += ncl) {
                const int2 o = origin(t);
                for (int kt = 0; kt < n_kt; kt++) {
                    mxk_mbar_wait(empty0 + 8 * s, ph ^ 1);
                    const uint32_t fbar = full0 + 8 * s, dA = sbase + s * 2 * BF_TILE;
                    mxk_mbar_arrive_tx(fbar, 2 * BF_TILE);
                    mxk_tma_load_2d(dA, &tmA, kt * BF_KE, o.x, fbar);
                    mxk_tma_load_2d(dA + BF_TILE, &tmB, kt * BF_KE, o.y, fbar);
                    if (++s == BF_STAGES) s = 0, ph ^= 1;
                }
            }
        }
    } else {
        /* ------------------------------ consumers ------------------------------ */
        asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
        BF_CONSTS
        const int cw = wg - 1, lane = tid & 31;
        float d[64], d1[64], acc[64];
#pragma unroll
        for (int i = 0; i < 64; i++) d[i] = 0.0f, d1[i] = 0.0f, acc[i] = 0.0f;
        constexpr int GPS = 4 / KPG; /* groups per stage */
        auto release = [&](int s) {
            __syncwarp();
            if (lane == 0) mxk_mbar_arrive(empty0 + 8 * s);
        };
        /* group gl (of GPS) of the stage whose tiles the descriptors da, db address into the set dd:
        ** KPG k-steps of 32 bytes */
        auto issue = [&](float (&dd)[64], uint64_t da, uint64_t db, int gl) {
            wgmma_fence();
#pragma unroll
            for (int k = 0; k < KPG; k++) {
                if (k == 0) bf_mma_first(dd, da + 2 * (gl * KPG), db + 2 * (gl * KPG));
                else bf_mma(dd, da + 2 * (gl * KPG + k), db + 2 * (gl * KPG + k));
            }
            wgmma_commit();
        };
        auto add = [&](float (&dd)[64]) {
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = __fadd_rn(acc[i], dd[i]);
        };
        int s = 0;
        uint32_t ph = 0;
        for (int t = cid; t < ntiles; t += ncl) {
            for (int kt = 0; kt < n_kt; kt++) {
                if (GPS == 1 && kt + 1 < n_kt) {
                    /* G = 64: two stages in straight-line code, their 2 groups in d and d1.  (At G = 32
                    ** the same pairing, 4 groups with the wgmmas of group q + 1 in flight while q is
                    ** added, needed more than 232 registers: ptxas spilled the accumulators, 285.6
                    ** against 161.7 us at 2048x4096x4096 on an H200; G = 32 takes one stage at a time.) */
                    const int s1 = s + 1 == BF_STAGES ? 0 : s + 1;
                    const uint32_t ph1 = s + 1 == BF_STAGES ? ph ^ 1 : ph;
                    mxk_mbar_wait(full0 + 8 * s, ph);
                    mxk_mbar_wait(full0 + 8 * s1, ph1);
                    const uint32_t dS0 = sbase + s * 2 * BF_TILE, dS1 = sbase + s1 * 2 * BF_TILE;
                    const uint64_t a0 = make_desc(dS0 + cw * 64 * 128), b0 = make_desc(dS0 + BF_TILE);
                    const uint64_t a1 = make_desc(dS1 + cw * 64 * 128), b1 = make_desc(dS1 + BF_TILE);
                    constexpr int NQ = 2 * GPS;
                    auto issue_q = [&](float (&dd)[64], int q) { issue(dd, q < GPS ? a0 : a1, q < GPS ? b0 : b1, q % GPS); };
                    issue_q(d, 0);
                    issue_q(d1, 1);
#pragma unroll
                    for (int q = 0; q < NQ; q++) {
                        float(&dd)[64] = (q & 1) ? d1 : d;
                        if (q + 1 < NQ) bf_wait<1>(dd);
                        else bf_wait<0>(dd);
                        add(dd);
                        if (q + 2 < NQ) issue_q(dd, q + 2);
                    }
                    release(s);
                    release(s1);
                    s = s1 + 1 == BF_STAGES ? 0 : s1 + 1;
                    ph = s1 + 1 == BF_STAGES ? ph1 ^ 1 : ph1;
                    kt++;
                } else {
                    /* one stage: G = 32 (its 2 groups in d and d1), or G = 64's trailing stage */
                    mxk_mbar_wait(full0 + 8 * s, ph);
                    const uint32_t dS = sbase + s * 2 * BF_TILE;
                    const uint64_t a0 = make_desc(dS + cw * 64 * 128), b0 = make_desc(dS + BF_TILE);
                    if (GPS == 2) {
                        issue(d, a0, b0, 0);
                        issue(d1, a0, b0, 1);
                        bf_wait<1>(d);
                        add(d);
                        bf_wait<0>(d1);
                        add(d1);
                    } else {
                        issue(d, a0, b0, 0);
                        bf_wait<0>(d);
                        add(d);
                    }
                    release(s);
                    if (++s == BF_STAGES) s = 0, ph ^= 1;
                }
            }
            /* store the tile: rows >= M and columns >= N skipped */
            const int2 o = origin(t);
            mxk_wg_store_tile(acc, c, P.M, P.N, o.x + cw * 64 + ((tid >> 5) & 3) * 16 + (lane >> 2), o.y, lane & 3);
#pragma unroll
            for (int i = 0; i < 64; i++) acc[i] = 0.0f;
        }
    }
#endif
}

typedef void (*BfKernel)(const CUtensorMap, const CUtensorMap, const BfParams, const int *, const int8_t *,
                         const uint8_t *, const int8_t *, const uint8_t *, float *);

} // namespace

/* 0 = launched; -1 = not applicable here (the caller falls back); > 0 = CUDA error */
int mxk_gemm_bf16_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                           const uint8_t *be, float *c, cudaStream_t s)
{
    const MxkCaps cap = mxk_caps();
    const int sms = cap.sms;
    if (cap.cc / 10 != 9 || cap.smem_optin < BF_SMEM || (G != 32 && G != 64) || K % BF_KE != 0 || (uintptr_t)am % 16 || (uintptr_t)bm % 16 ||
        (int64_t)M * K >= ((int64_t)1 << 31) || (int64_t)N * K >= ((int64_t)1 << 31))
        return -1;
    const BfKernel kern = G == 32 ? gemm_bf16_kernel<2> : gemm_bf16_kernel<4>;
    static bool attr[2] = {};
    if (!attr[G == 64]) {
        const cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, BF_SMEM);
        if (e != cudaSuccess) return (int)e;
        attr[G == 64] = true;
    }
    /* scratch, stream-ordered: A' (M K bf16), B' (N K bf16), the verdict words */
    const size_t bytes_a = (size_t)M * K * 2, bytes_b = (size_t)N * K * 2;
    void *scr = nullptr;
    cudaError_t e = cudaMallocAsync(&scr, bytes_a + bytes_b + 2 * BF_PRE_BLOCKS * sizeof(int), s);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* no room for the bf16 operands: cfg 8 needs none */
        return -1;
    }
    if (e != cudaSuccess) return (int)e;
    uint16_t *aq = reinterpret_cast<uint16_t *>(scr), *bq = reinterpret_cast<uint16_t *>((uint8_t *)scr + bytes_a);
    int *verdict = reinterpret_cast<int *>((uint8_t *)scr + bytes_a + bytes_b);
    CUtensorMap ta, tb;
    /* rows x K bf16, boxes of 64 elements (128 bytes) x 128 rows */
    if (!mxk_tma_map_2d(&ta, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, aq, M, K, 2, BF_KE, 128) ||
        !mxk_tma_map_2d(&tb, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, bq, N, K, 2, BF_KE, 128)) {
        cudaFreeAsync(scr, s);
        return -1;
    }
    bf_prescale<BF_PRE_U><<<dim3(BF_PRE_BLOCKS, 2), 256, 0, s>>>(am, ae, (int64_t)M * K, bm, be, (int64_t)N * K, G, aq, bq, verdict);
    BfParams P;
    P.M = M, P.N = N, P.K = K, P.G = G;
    P.Mt = (M + BF_BM - 1) / BF_BM, P.Nt = (N + BF_BN - 1) / BF_BN;
    const long long tiles = (long long)P.Mt * P.Nt;
    cudaLaunchConfig_t lc = {};
    lc.gridDim = dim3((unsigned)(tiles < sms ? tiles : sms)), lc.blockDim = dim3(384), lc.dynamicSmemBytes = BF_SMEM;
    lc.stream = s;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    lc.attrs = at, lc.numAttrs = 1;
    e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaLaunchKernelEx(&lc, kern, ta, tb, P, (const int *)verdict, am, ae, bm, be, c);
    cudaFreeAsync(scr, s);
    return mxk_err(e);
}

/* gemm_decode.cu - MXINT8 GEMM for decode (M <= 16), mxk_gemm cfg 9: a persistent, warp-specialised
** streaming kernel.  Applies for M <= 16, G in {32, 64, 128, 256}, K % 64 == 0, K/G <= 256 and a
** shared-memory layout of at least 2 ring stages (below); else cfg 4 (gemm_gemv.cu).  The previous
** decode kernel (weights in registers) is cfg 10, gemm_decode_v1.cu; at M = 1 with G >= 64 cfg 0
** takes the row kernel, cfg 12 (gemm_decode_row.cu), 4-7% faster there.  Bit-exact with the fp32
** arithmetic contract (sim/doc/numerics.md section 4): C[m,n] = fold over groups g ascending of
** acc = RN(acc + t_g), acc from +0.0, with t_g = RN(d_g * 2^(EA[m,g] + EB[n,g] - 266)), d_g the exact
** int32 dot of group g.
**
** Decode is memory-bound: N K (1 + 1/G) weight bytes must move, and the time is how fast they
** stream.  The design keeps the DRAM busy from the first microsecond to the last, on every SM:
**   - grid = 2 blocks per SM at M <= 8 where two fit with >= 2 ring stages each, else 1 (more only
**     when the B scale bytes of a row range would not fit, see ds_plan); block b owns the
**     CONTIGUOUS weight rows [b N / grid, (b + 1) N / grid) (columns of C): at most one row more
**     than the average, so there is no wave tail.  It walks them in tiles of 16 rows and each
**     tile's K in stages of KS bytes (KS = 2048; 1024 at M > 8, G = 32).
**   - warp 8 (the producer) streams every stage with 1-D bulk copies (cp.async.bulk, lane r copies
**     row r: KS contiguous bytes, mbarrier complete_tx; lane 0 arms the stage's full barrier) into
**     a ring of NS stages in shared memory (NS = 2..8, as many as fit: ~100-200 KB in flight per
**     SM, against the ~30-60 KB that Little's law asks); it refills a stage when the consumers
**     release it (empty mbarrier).  The activations (M rows) come by the same path (one
**     mbarrier), so every block has its operands in shared memory and no register holds a byte in
**     flight.  The producer's first lane initialises the barriers; the warp then issues the first
**     weight stage, then the activations (from L2 after the first block: the same rows for all),
**     marks its arrival at the block barrier without waiting (bar.arrive) and fills the rest of
**     the ring at once.  Issued after a full block barrier, the first copy left ~3700-4000 clocks
**     after the block started; before it, with the activations first, ~1900-2900 (M = 1 / 16);
**     now ~1800-2000 (MXK_DS_TRACE below).  H200, same-call A/B of the last step, two rounds:
**     1x4096x4096 G = 128 10.34 / 10.16 -> 9.98 / 9.92 us, 16x4096x4096 13.73 / 13.68 -> 13.23 /
**     13.10, 16x11008x4096 22.75 / 22.91 -> 22.58 / 22.30; the other decode rows within noise
**     (final4 README, dev/s9_call1).  The copies leave at ~60-75 clocks each with the whole warp
**     issuing them (~120 from one thread).
**   - the consumers issue the loads of the block's B scale bytes (contiguous: rows r0..r1 x K/G)
**     and of the activation scales before the block barrier: they do not queue behind the weight
**     stream.  They land in shared memory as bytes (B, row stride odd in words: conflict-free) and
**     as factors (A, below).
**   - warps 0-7 (consumers), per stage: warp w takes chunks [w CPW, (w + 1) CPW) of the stage's
**     64-byte chunks (CPW = KS / 512).  Dots: mma.sync m16n8k32 s8 with the WEIGHTS as the 16-row
**     operand (lane (gid, tig) loads 16 bytes at byte 16 tig of the chunk of rows gid and gid + 8;
**     row stride KS + 64 in the ring: the 8 lanes of an LDS.128 phase hit distinct banks) and the
**     activations (16 bytes of row 8 s + gid at the same k) as the 8-column operand.  Both operands
**     use one permutation of k: mma k-slot 4 tig + j <-> byte 16 tig + j and slot 16 + 4 tig + j <->
**     byte 16 tig + 4 + j for the first mma of a chunk (registers .x, .y), + 8 for the second (.z,
**     .w).  An integer dot is invariant under a permutation of its index (exact arithmetic), so the
**     two mmas sum exactly the chunk's 64 products.  G >= 64: a 64-byte aligned chunk lies in one
**     group; the group's G/64 chunks are in one warp (CPW is a multiple of G/64; stages start at
**     multiples of KS, a multiple of G) and accumulate into one s32 set: d_g exactly (|d| <= G 2^14
**     < 2^31).  G = 32: bytes [0, 32) of the chunk (lanes tig 0, 1) are group 2c, bytes [32, 64)
**     (tig 2, 3) group 2c + 1; four mmas, the activation operand zeroed in the lanes of the other
**     group (exact zeros), give the two groups' dots in two s32 sets.  M = 1 (template ONE): the 8
**     activation columns are all row 0, so at G = 32 the even columns take the bytes of group 2c and
**     the odd ones those of 2c + 1 (zeros elsewhere): two mmas give, in every lane, (row gid, 2c),
**     (gid, 2c + 1), (gid + 8, 2c), (gid + 8, 2c + 1), and lane tig forms the term [tig] alone; at
**     G >= 64 lanes tig 0 and 1 form the terms of rows gid and gid + 8.
**   - terms: the thread holding d_g for (n, m) forms t_g (below) and stores it to shared memory
**     T[g][n][m] (two buffers, by stage parity); one named barrier of the 256 consumer threads per
**     stage; then thread 0 releases the ring stage and thread n M + m adds the stage's terms in
**     ascending g to its fp32 accumulator, one RN add each, while the other warps go on to the next
**     stage (they write the other T buffer; the next barrier orders the reuse): exactly the
**     contract's sequence of additions, stage after stage, from +0.0 at each tile (a term depends
**     only on (d, EA, EB), so which thread forms it and when is free).  After a tile's last stage,
**     the same thread stores C[m, n] and restarts from +0.0.
**   - V2 consumers (the default everywhere since the twelfth session; M = 1 with G = 32 ran the
**     per-stage barrier above until then; MXK_DS_V2=0 / 1 forces either): no block barrier per stage.  Each consumer warp waits for its
**     stage, loads its weight bytes of it into registers and releases its part of the ring stage
**     at once (empty mbarrier, every lane, count 8 x 32: the slot is out of the stream for the loads only, not for
**     the dots; H200, same call, two rounds: 16x11008x4096 G = 128 23.49 / 23.71 -> 22.64 / 22.75
**     us, 16x4096x4096 13.62 / 13.79 -> 13.41 / 13.47, G = 64 28.9 -> 28.2 and 15.5-15.8 -> 15.1-15.2,
**     M = 1 and G = 32 within noise), forms its dots with one s32 set per 64-byte chunk (the
**     chunks' mmas are independent; a group's G/64 chunks are then summed with integer adds, exact
**     since |d| <= G 2^14 < 2^31: the same d_g), waits until
**     the T slot of stage it - 2 is folded (tfree mbarrier, count: the folder threads), writes its
**     terms to T[g][n][m] of slot it & 1 and arrives on tready (every lane, count 8 x 32: each
**     lane's release orders its own stores; one arrive per warp after __syncwarp is what racecheck
**     reports as a hazard, kernels/tools/race_probe.cu).  Folder warps (16 M threads, rounded up
**     to warps, after the producer warp) wait for tready, add the stage's terms in ascending g, one
**     RN add each, to the accumulator of thread n M + m, free the slot, and store C[m, n] after a
**     tile's last stage: the same terms and the same sequence of additions as above, so the same
**     bits.  With V2 at M = 1 the ring has 2 stages per block (two blocks per SM).
**   - scale factors: f(E) = 2^(E-133) as a float (exact: normal for E >= 7, subnormal 2^(E-133) >=
**     2^-133 below; NaN for E = 255); A's in a table, B's formed from the byte at the term.  One
**     block-wide flag (bar.red.or over the consumers): some activation scale is in [235, 254] (then
**     the whole block takes the order rule below; block-uniform branch).
** Term, exact by construction (|d| <= 256 * 2^14 = 2^22 here, so F = (float)d is exact):
**   flag clear (every EA <= 234 or = 255): x = F * f(EA) is exact: |x| <= 2^22 * 2^101 < FLT_MAX,
**   and x is an integer multiple of 2^(EA-133) >= 2^-133 with at most 22 significant bits, so it
**   is representable (normal or subnormal: every multiple of 2^-149 below 2^-126 is).  t = x * f(EB)
**   is then ONE IEEE rounding of d * 2^(EA+EB-266): RN-even, gradual underflow (no FTZ: -ftz=false,
**   explicit __fmul_rn, -fmad=false; the SASS has FMUL without .FTZ), overflow to +-Inf: exactly the
**   contract's step 2.  EA = 255 or EB = 255 gives a NaN factor, hence a NaN term (also for d = 0),
**   hence a NaN output, as the contract says.
**   flag set, per term: if EA is in [235, 254] (f(EA) >= 2^102) the factors swap, t = (F * f(EB)) *
**   f(EA): when EB <= 234 the first product is exact by the same argument and the second is the
**   one rounding; when EB >= 235 as well, the exact |t| >= 2^204 (d != 0), i.e. +-Inf, and both
**   orders give +-Inf with d's sign (|x| >= 2^102 and the factor >= 2^102, or x already +-Inf);
**   d = 0 gives +0 in both.  EB = 255: NaN either way.  Otherwise the order of the flag-clear case.
** Measured (H200, reports/gpu/NVIDIA-H200-2026-11-26-decode3, cold L2, means of 3 same-call runs):
** V2 + 2-stage ring at M = 1: 1x11008x4096 G = 128 17.7 us (per-stage barrier 18.9), G = 64 18.1
** (20.3); 16x11008x4096 G = 64 26.8 (30.9), G = 32 44.3 (52.0), G = 128 23.8 (23.8); 1x4096x4096
** unchanged within noise (10.5-10.8).  Diagnostic modes of V2 (run 2; MXK_DS_NOCOMP=2: no ordered
** sums, =3: dots only) put most of the remaining gap to the stream in the dots themselves: 16x11008x4096
** G = 128 stream 17.3, dots only 21.6, + terms 22.9, + sums 23.8 us.
** Earlier (decode2, per-stage barrier everywhere): 1x4096x4096
** G = 32 10.9 us (cfg 10 12.7), 1x11008x4096 G = 32 19.2 (27.1), G = 128 18.8 (cfg 4 19.0),
** 16x11008x4096 G = 128 23.7 (cfg 4 27.4); with the dots switched off (MXK_DS_NOCOMP=1) the same
** stream takes 9.0 / 15.7 / 15.7 / 17.2 us: the rest is consumer work that the ring does not hide
** (the stages of a block complete nearly together, then are consumed one after the other: per stage
** the dots, one barrier and the ordered sums of 16 M threads).  Two blocks per SM at M <= 8 give
** two such pipelines per SM (1x11008x4096 G = 32: 23.4 us with one).  Tried and slower on the H200:
** 1 KB stages (MXK_DS_CPW=2, more barriers), 2-4 ring stages instead of 6 (no change), and a
** decoupled variant (commit 9fad076 and its fix: 4 groups of 2 warps each taking whole stages, a
** folder warp doing the ordered sums): 17.3 us at 1x4096x4096 G = 32.
** Also tried and slower (H200, 2026-11-26, same-call benches, cold L2, 0 mismatches on its own 12
** verify cases): an M = 1 GEMV on plain 16-byte loads, the way stream_probe measured the read floor
** (warp per weight row, 8 x 16 B per lane in flight, the next pass prefetched, dp4a dots, butterfly
** group sums, lane 0 folding the terms in order; 2 blocks of 8 warps per SM): 1x4096x4096 G = 128
** 11.5 us against cfg 9's 9.9, 1x11008x4096 G = 128 20.7 against 17.5, G = 32 24.5 against 19.0.
** Its per-row work (dependent shuffles and the ordered adds of one lane) is latency that too few
** warps hide; the ring kernel's split into dot warps and folder threads is what keeps up.
** And an L2 prefetch of each block's first 32 / 64 / 128 KB or all of its weight rows
** (prefetch.global.L2 per 128-byte line from the 256 consumer threads at the block's start, so that
** DRAM is busy before the producer's bulk copies are out): slower at every size (H200, same call,
** two rounds: 1x4096x4096 G = 128 9.9-10.2 us without, 10.9-12.4 with; 1x11008x4096 17.4-17.6
** against 18.1-21.3; 16x4096x4096 13.6 against 13.7-15.6).  Nor did more, smaller blocks at M = 1 (3 per SM, and/or
** row ranges of 8 rows: more producers issuing copies at once): 1x4096x4096 G = 128 9.8-10.2 us
** by default, 9.9-13.5 otherwise; 1x11008x4096 17.5-17.8 against 17.4-19.8 (H200, same call).
** Nor the weight stream by 16-byte cp.async from the producer warp's lanes instead of bulk copies
** (one warp cannot issue them fast enough: 1x4096x4096 G = 128 10.1 -> 11.3 us, 16x11008x4096 22.7
** -> 37.7), nor 1 KB stages at M = 1 with one tile per block (MXK_DS_CPW=2 there: up to 0.5 us
** faster at 1x4096x4096, 1.3-2.3 us slower at 1x1000x8192 where fewer blocks each keep half the
** bytes in flight; with twice the stages the 1x4096 gain went too).  H200 final3 README, dev/ab11-13.
** Nor the first ring fill issued by the consumer warps (after a start barrier, lanes 0-1 of warp w
** copy rows 2w, 2w + 1 of every ring stage, so the fill leaves in parallel instead of 16 copies per
** stage from the producer warp): every decode shape slower, three alternating rounds on an H200,
** 1x4096x4096 G = 128 9.9-10.3 -> 12.2-12.3 us, 16x11008x4096 22.7-22.9 -> 24.7; the trace has the
** first stage arriving ~4000 clocks later, the activations (queued behind every weight copy) too
** (reports/gpu/NVIDIA-H200-2026-11-27-final7/dev/s13_fill_*, session 13).
** Nor, at M = 16, the row kernel's way of streaming (plain 16-byte loads into registers from many
** warps, mma.sync dots, K split over warps, terms through shared memory, an ordered fold per
** output after a barrier): two such kernels measured 12.1-12.4 us at 16x4096x4096 G = 128 (this
** kernel 12.9-13.3) and 22.1-23.5 at 16x11008x4096 (22.4-22.8), and the second one's weight stream
** alone, every consumer switched off, took 19.6-20.4 us there (H200; reports/gpu/
** NVIDIA-H200-2026-11-27-m16 and NVIDIA-H200-2026-11-28-slice, the latter's kernel commit fc79a37).
** Rows of a tile past the block's range are neither copied nor stored (their ring bytes are stale:
** their dots, terms and sums are formed and dropped).  Compiled with -fmad=false: nothing is
** contracted. */
#include <algorithm>
#include <cstdlib>

#include "mxk_common.cuh"
#include "mxk_decode.cuh"
#include "mxk_mbar.cuh"

/* 1 (the default): every dot lane of V2 arrives on the ring's empty barriers and on tready; 0: one
** arrive per warp after __syncwarp, the form before 2026-11-29, kept for the A/B timing of that
** change (-DMXK_DS_ARRIVE_ALL=0).  Why: compute-sanitizer's racecheck reports the one-arrive form
** as write-after-read and read-after-write hazards on the ring and on T, and this one as none
** (kernels/tools/race_probe.cu; reports/gpu/NVIDIA-H200-2026-11-29-sanitize/README.md) */
#ifndef MXK_DS_ARRIVE_ALL
#define MXK_DS_ARRIVE_ALL 1
#endif

#define DS_W 8                   /* consumer warps */
#define DS_T (DS_W * 32 + 32)    /* + the producer warp */
#define DS_EB_MAX 12288          /* bytes of B scales a block keeps (its rows x K/G) */
#define DS_EBW (DS_EB_MAX / 1024) /* 32-bit scale loads per consumer thread */

/* barrier of the 256 consumer threads only (the producer warp never joins) */
__device__ __forceinline__ void ds_sync() { asm volatile("bar.sync 1, 256;\n" ::: "memory"); }
__device__ __forceinline__ int ds_sync_or(int v)
{
    int r;
    asm volatile("{\n.reg .pred p, q;\nsetp.ne.s32 q, %1, 0;\nbar.red.or.pred p, 1, 256, q;\nselp.s32 %0, 1, 0, p;\n}\n"
                 : "=r"(r) : "r"(v) : "memory");
    return r;
}

template <int MS, int GT, int CP> struct DsShape {
    static constexpr int MR = 8 * MS;
    static constexpr int CPW = CP;                          /* chunks per warp per stage */
    static constexpr int CS = DS_W * CPW;                   /* chunks per stage */
    static constexpr int KS = 64 * CS;                      /* bytes of a row per stage */
    static constexpr int KSP = KS + 64;                     /* ring row stride: conflict-free LDS.128 */
    static constexpr int GC = GT >= 64 ? GT / 64 : 1;       /* chunks per group */
    static constexpr int RG = GT == 32 ? 2 * CS : CS / GC;  /* groups per stage */
    static_assert(GT == 32 || CPW % GC == 0, "a group's chunks must lie in one warp");
};

/* Shared-memory plan, the same on host and device: offsets in bytes from the dynamic base. */
struct DsPlan {
    int ns;            /* ring stages */
    int mode;          /* 0; 1 = stream only, no dots (timing experiments: MXK_DS_NOCOMP=1) */
    int kp;            /* activation row stride */
    int ebp;           /* B scale row stride (bytes, odd number of words) */
    uint32_t o_x, o_t, o_fa, o_eb, bytes;
    unsigned long long *tr; /* MXK_DS_TRACE=1 (timing diagnostics): DS_TR clock64 stamps per block, else null */
};
#define DS_TR 64
/* stamp slot k of this block's trace (diagnostics only; one thread per slot) */
__device__ __forceinline__ void ds_stamp(const DsPlan &P, int k)
{
    if (P.tr && k < DS_TR) P.tr[(size_t)blockIdx.x * DS_TR + k] = (unsigned long long)clock64();
}
/* the same with %globaltimer (ns): slot 3 at the block's start, 60 / 61 at the consumers' / folders' end */
__device__ __forceinline__ void ds_stamp_ns(const DsPlan &P, int k)
{
    if (P.tr && k < DS_TR) {
        unsigned long long g;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g));
        P.tr[(size_t)blockIdx.x * DS_TR + k] = g;
    }
}

template <int MS, int GT, int CP, bool ONE, bool SW>
__device__ __forceinline__ void ds_body(const DsPlan &P, int M, int N, int K, int r0, int r1, uint32_t sbase,
                                        const uint8_t *sm, float *__restrict__ c)
{
    using S = DsShape<MS, GT, CP>;
    constexpr int MR = S::MR, CPW = S::CPW, CS = S::CS, KS = S::KS, KSP = S::KSP, GC = S::GC, RG = S::RG;
    const int ng = K / GT, nchunks = K / 64, NS = P.ns;
    const int nrows = r1 - r0, ntiles = (nrows + 15) / 16, nst = (K + KS - 1) / KS, nit = ntiles * nst;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int gid = lane >> 2, tig = lane & 3;
    const float *FA = reinterpret_cast<const float *>(sm + P.o_fa);
    float *T0 = reinterpret_cast<float *>(const_cast<uint8_t *>(sm) + P.o_t);
    const uint8_t *EB = sm + P.o_eb;
    const uint8_t *xr[MS]; /* this lane's activation bytes: row 8 s + gid (clamped), byte 16 tig */
    int tb[MS];            /* this lane's term offset in a group's T block: (gid, m0) */
#pragma unroll
    for (int s = 0; s < MS; s++) {
        xr[s] = sm + P.o_x + min(8 * s + gid, M - 1) * P.kp + tig * 16;
        tb[s] = gid * M + 8 * s + 2 * tig;
    }
    const uint32_t lo = tig < 2 ? 0xFFFFFFFFu : 0u, hi = ~lo;
    const uint32_t one_m = (tig < 2) == ((gid & 1) == 0) ? 0xFFFFFFFFu : 0u; /* ONE, G = 32 */
    const uint8_t *wl = sm + 256 + gid * KSP + tig * 16; /* ring: stage s at + s 16 KSP */
    float acc = 0.0f;
    for (int it = 0; it < nit; it++) {
        const int st = it % NS, t = it / nst, ks = it - t * nst;
        const int kc0 = ks * CS, gs0 = kc0 * 64 / GT;
        float *T = T0 + (it & 1) * (RG * 16 * M);
        const uint8_t *eb0 = EB + (16 * t + gid) * P.ebp, *eb1 = eb0 + 8 * P.ebp;
        auto emit = [&](int g, const int (&dd)[MS][4]) {
            const float fb0 = mxk_dec_fac(eb0[g]), fb1 = mxk_dec_fac(eb1[g]);
            float *tg = T + (g - gs0) * 16 * M;
#pragma unroll
            for (int s = 0; s < MS; s++) {
                const int m0 = 8 * s + 2 * tig;
                const float2 fa = *reinterpret_cast<const float2 *>(FA + g * MR + m0);
                float4 v;
                if (!SW) {
                    v.x = mxk_dec_term(dd[s][0], fa.x, fb0);
                    v.y = mxk_dec_term(dd[s][1], fa.y, fb0);
                    v.z = mxk_dec_term(dd[s][2], fa.x, fb1);
                    v.w = mxk_dec_term(dd[s][3], fa.y, fb1);
                } else {
                    v.x = mxk_dec_term_sw(dd[s][0], fa.x, fb0);
                    v.y = mxk_dec_term_sw(dd[s][1], fa.y, fb0);
                    v.z = mxk_dec_term_sw(dd[s][2], fa.x, fb1);
                    v.w = mxk_dec_term_sw(dd[s][3], fa.y, fb1);
                }
                float *tp = tg + tb[s];
                if (m0 < M) tp[0] = v.x, tp[8 * M] = v.z;
                if (m0 + 1 < M) tp[1] = v.y, tp[8 * M + 1] = v.w;
            }
        };
        /* M = 1: the term of group g for row gid + 8 rsel */
        auto emit1 = [&](int g, int rsel, int d) {
            const float fa = FA[g * MR], fb = mxk_dec_fac(rsel ? eb1[g] : eb0[g]);
            T[(g - gs0) * 16 + gid + 8 * rsel] = SW ? mxk_dec_term_sw(d, fa, fb) : mxk_dec_term(d, fa, fb);
        };
        mxk_mbar_wait(sbase + 8 * st, (uint32_t)(it / NS) & 1u);
        if (tid == 0) ds_stamp(P, 4 + it);
        __syncwarp();
        const uint8_t *ws = wl + st * 16 * KSP;
        int d0[MS][4], d1[MS][4];
#pragma unroll
        for (int s = 0; s < MS; s++)
#pragma unroll
            for (int q = 0; q < 4; q++) d0[s][q] = 0, d1[s][q] = 0;
#pragma unroll
        for (int i = 0; i < CPW; i++) {
            const int cl = warp * CPW + i, ch = kc0 + cl;
            if (ch < nchunks) {
                const uint4 p = *reinterpret_cast<const uint4 *>(ws + cl * 64);
                const uint4 q = *reinterpret_cast<const uint4 *>(ws + 8 * KSP + cl * 64);
                uint4 x[MS];
#pragma unroll
                for (int s = 0; s < MS; s++) x[s] = *reinterpret_cast<const uint4 *>(xr[s] + ch * 64);
                if (ONE) {
                    if (GT == 32) {
                        mxk_mma_s8(d0[0], p.x, q.x, p.y, q.y, x[0].x & one_m, x[0].y & one_m);
                        mxk_mma_s8(d0[0], p.z, q.z, p.w, q.w, x[0].z & one_m, x[0].w & one_m);
                        const int d = tig == 0 ? d0[0][0] : tig == 1 ? d0[0][1] : tig == 2 ? d0[0][2] : d0[0][3];
                        emit1(2 * ch + (tig & 1), tig >> 1, d);
#pragma unroll
                        for (int k = 0; k < 4; k++) d0[0][k] = 0;
                    } else {
                        mxk_mma_s8(d0[0], p.x, q.x, p.y, q.y, x[0].x, x[0].y);
                        mxk_mma_s8(d0[0], p.z, q.z, p.w, q.w, x[0].z, x[0].w);
                        if ((i + 1) % GC == 0) {
                            if (tig < 2) emit1(ch / GC, tig, tig ? d0[0][2] : d0[0][0]);
#pragma unroll
                            for (int k = 0; k < 4; k++) d0[0][k] = 0;
                        }
                    }
                } else {
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        if (GT == 32) {
                            mxk_mma_s8(d0[s], p.x, q.x, p.y, q.y, x[s].x & lo, x[s].y & lo);
                            mxk_mma_s8(d0[s], p.z, q.z, p.w, q.w, x[s].z & lo, x[s].w & lo);
                            mxk_mma_s8(d1[s], p.x, q.x, p.y, q.y, x[s].x & hi, x[s].y & hi);
                            mxk_mma_s8(d1[s], p.z, q.z, p.w, q.w, x[s].z & hi, x[s].w & hi);
                        } else {
                            mxk_mma_s8(d0[s], p.x, q.x, p.y, q.y, x[s].x, x[s].y);
                            mxk_mma_s8(d0[s], p.z, q.z, p.w, q.w, x[s].z, x[s].w);
                        }
                    }
                    if (GT == 32) {
                        emit(2 * ch, d0);
                        emit(2 * ch + 1, d1);
#pragma unroll
                        for (int s = 0; s < MS; s++)
#pragma unroll
                            for (int k = 0; k < 4; k++) d0[s][k] = 0, d1[s][k] = 0;
                    } else if ((i + 1) % GC == 0) {
                        emit(ch / GC, d0);
#pragma unroll
                        for (int s = 0; s < MS; s++)
#pragma unroll
                            for (int k = 0; k < 4; k++) d0[s][k] = 0;
                    }
                }
            }
        }
        ds_sync(); /* the stage's terms are in T; every warp is done with the ring stage */
        if (tid == 0) mxk_mbar_arrive(sbase + 8 * (NS + st)), ds_stamp(P, 32 + it);
        if (tid < 16 * M) {
            const int cnt = min(RG, ng - gs0);
            const float *tp = T + tid;
#pragma unroll 8
            for (int gl = 0; gl < cnt; gl++) acc = __fadd_rn(acc, tp[gl * 16 * M]);
            if (ks == nst - 1) { /* the tile's last stage: C[m, n], then +0.0 for the next tile */
                const int on = tid / M, om = tid - on * M, n = r0 + 16 * t + on;
                if (n < r1) c[(size_t)om * N + n] = acc;
                acc = 0.0f;
            }
        }
    }
}

/* V2 consumers (MXK_DS_V2=1; see the header's V2 paragraph): no block barrier per stage.  Each warp
** waits for its stage, forms all its dots (one s32 set per chunk: the chunks' mmas are independent,
** a group's chunks are summed with exact integer adds), releases its part of the ring stage (empty
** mbarrier, every lane: count 8 x 32), waits until the folder warps are done with the T slot of stage it - 2
** (tfree), writes its terms and arrives on tready (every lane: count 8 x 32).  The ordered sums are the folder warps'
** (ds_fold2), so no consumer waits for them. */
template <int MS, int GT, int CP, bool ONE, bool SW>
__device__ __forceinline__ void ds_body2(const DsPlan &P, int M, int K, int r0, int r1, uint32_t sbase,
                                         const uint8_t *sm)
{
    using S = DsShape<MS, GT, CP>;
    constexpr int MR = S::MR, CPW = S::CPW, CS = S::CS, KS = S::KS, KSP = S::KSP, GC = S::GC, RG = S::RG;
    constexpr int NGW = GT == 32 ? 2 * CPW : CPW / GC; /* groups of a warp per stage */
    const int nchunks = K / 64, NS = P.ns;
    const int nrows = r1 - r0, ntiles = (nrows + 15) / 16, nst = (K + KS - 1) / KS, nit = ntiles * nst;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int gid = lane >> 2, tig = lane & 3;
    const uint32_t trdy = sbase + 8 * (2 * NS + 1), tfree = trdy + 16;
    const float *FA = reinterpret_cast<const float *>(sm + P.o_fa);
    float *T0 = reinterpret_cast<float *>(const_cast<uint8_t *>(sm) + P.o_t);
    const uint8_t *EB = sm + P.o_eb;
    const uint8_t *xr[MS];
    int tb[MS];
#pragma unroll
    for (int s = 0; s < MS; s++) {
        xr[s] = sm + P.o_x + min(8 * s + gid, M - 1) * P.kp + tig * 16;
        tb[s] = gid * M + 8 * s + 2 * tig;
    }
    const uint32_t lo = tig < 2 ? 0xFFFFFFFFu : 0u, hi = ~lo;
    const uint32_t one_m = (tig < 2) == ((gid & 1) == 0) ? 0xFFFFFFFFu : 0u; /* ONE, G = 32 */
    const uint8_t *wl = sm + 256 + gid * KSP + tig * 16;
    for (int it = 0; it < nit; it++) {
        const int st = it % NS, t = it / nst, ks = it - t * nst;
        const int kc0 = ks * CS, gs0 = kc0 * 64 / GT, slot = it & 1;
        float *T = T0 + slot * (RG * 16 * M);
        const uint8_t *eb0 = EB + (16 * t + gid) * P.ebp, *eb1 = eb0 + 8 * P.ebp;
        mxk_mbar_wait(sbase + 8 * st, (uint32_t)(it / NS) & 1u);
        if (tid == 0) ds_stamp(P, 4 + it);
        __syncwarp();
        const uint8_t *ws = wl + st * 16 * KSP;
        /* dd[j]: the dots of the warp's group j of the stage (G = 32: 2i + h for chunk i, half h) */
        int dd[NGW][MS][4];
#pragma unroll
        for (int j = 0; j < NGW; j++)
#pragma unroll
            for (int s = 0; s < MS; s++)
#pragma unroll
                for (int q = 0; q < 4; q++) dd[j][s][q] = 0;
        int dc[CPW][MS][4]; /* G >= 64: one s32 set per chunk */
        /* the warp's weight bytes of the stage into registers, then the ring slot goes back to the
        ** producer before any mma: the slot is out of the stream only for the loads */
        uint4 pw[CPW], qw[CPW];
#pragma unroll
        for (int i = 0; i < CPW; i++) {
            const int cl = warp * CPW + i;
            if (kc0 + cl < nchunks) {
                pw[i] = *reinterpret_cast<const uint4 *>(ws + cl * 64);
                qw[i] = *reinterpret_cast<const uint4 *>(ws + 8 * KSP + cl * 64);
            }
        }
        if (MXK_DS_ARRIVE_ALL) { /* every lane's loads of the stage are done: the slot goes back */
            mxk_mbar_arrive(sbase + 8 * (NS + st));
        } else {
            __syncwarp();
            if (lane == 0) mxk_mbar_arrive(sbase + 8 * (NS + st)); /* this warp is done with the ring stage */
        }
        if (tid == 0) ds_stamp(P, 32 + it);
#pragma unroll
        for (int i = 0; i < CPW; i++) {
            const int cl = warp * CPW + i, ch = kc0 + cl;
#pragma unroll
            for (int s = 0; s < MS; s++)
#pragma unroll
                for (int q = 0; q < 4; q++) dc[i][s][q] = 0;
            if (ch < nchunks) {
                const uint4 p = pw[i], q = qw[i];
                uint4 x[MS];
#pragma unroll
                for (int s = 0; s < MS; s++) x[s] = *reinterpret_cast<const uint4 *>(xr[s] + ch * 64);
                if (ONE) {
                    if (GT == 32) {
                        mxk_mma_s8(dd[2 * i][0], p.x, q.x, p.y, q.y, x[0].x & one_m, x[0].y & one_m);
                        mxk_mma_s8(dd[2 * i][0], p.z, q.z, p.w, q.w, x[0].z & one_m, x[0].w & one_m);
                    } else {
                        mxk_mma_s8(dc[i][0], p.x, q.x, p.y, q.y, x[0].x, x[0].y);
                        mxk_mma_s8(dc[i][0], p.z, q.z, p.w, q.w, x[0].z, x[0].w);
                    }
                } else {
#pragma unroll
                    for (int s = 0; s < MS; s++) {
                        if (GT == 32) {
                            mxk_mma_s8(dd[2 * i][s], p.x, q.x, p.y, q.y, x[s].x & lo, x[s].y & lo);
                            mxk_mma_s8(dd[2 * i][s], p.z, q.z, p.w, q.w, x[s].z & lo, x[s].w & lo);
                            mxk_mma_s8(dd[2 * i + 1][s], p.x, q.x, p.y, q.y, x[s].x & hi, x[s].y & hi);
                            mxk_mma_s8(dd[2 * i + 1][s], p.z, q.z, p.w, q.w, x[s].z & hi, x[s].w & hi);
                        } else {
                            mxk_mma_s8(dc[i][s], p.x, q.x, p.y, q.y, x[s].x, x[s].y);
                            mxk_mma_s8(dc[i][s], p.z, q.z, p.w, q.w, x[s].z, x[s].w);
                        }
                    }
                }
            }
        }
        if (GT >= 64) /* a group's chunks: exact integer sums (|d| <= G 2^14 < 2^31) */
#pragma unroll
            for (int i = 0; i < CPW; i++)
#pragma unroll
                for (int s = 0; s < MS; s++)
#pragma unroll
                    for (int q = 0; q < 4; q++) dd[i / GC][s][q] += dc[i][s][q];
        if (it >= 2) mxk_mbar_wait(tfree + 8 * slot, (uint32_t)((it >> 1) + 1) & 1u); /* stage it - 2 folded */
        if (P.mode == 3) { /* timing only: the dots without the terms (kept alive by a store that never runs) */
            int x = 0;
#pragma unroll
            for (int j = 0; j < NGW; j++)
#pragma unroll
                for (int s = 0; s < MS; s++)
#pragma unroll
                    for (int q = 0; q < 4; q++) x ^= dd[j][s][q];
            if (x == 0x7EDCBA98) T[lane] = 1.0f;
        } else
#pragma unroll
        for (int j = 0; j < NGW; j++) {
            const int g = GT == 32 ? 2 * (kc0 + warp * CPW) + j : (kc0 + warp * CPW) / GC + j;
            if (g * GT >= K) break;
            if (ONE) {
                /* G = 32: lane tig forms (row gid + 8 (tig >> 1), group 2c + (tig & 1)), c the chunk
                ** (j = 2i: the even/odd columns hold groups 2c and 2c + 1 of chunk i); G >= 64: lanes
                ** tig 0, 1 form rows gid, gid + 8 */
                if (GT == 32) {
                    if ((j & 1) == 0) {
                        const int gg = g + (tig & 1), rsel = tig >> 1;
                        const int d = tig == 0 ? dd[j][0][0] : tig == 1 ? dd[j][0][1] : tig == 2 ? dd[j][0][2] : dd[j][0][3];
                        const float fa = FA[gg * MR], fb = mxk_dec_fac(rsel ? eb1[gg] : eb0[gg]);
                        T[(gg - gs0) * 16 + gid + 8 * rsel] = SW ? mxk_dec_term_sw(d, fa, fb) : mxk_dec_term(d, fa, fb);
                    }
                } else if (tig < 2) {
                    const int d = tig ? dd[j][0][2] : dd[j][0][0];
                    const float fa = FA[g * MR], fb = mxk_dec_fac(tig ? eb1[g] : eb0[g]);
                    T[(g - gs0) * 16 + gid + 8 * tig] = SW ? mxk_dec_term_sw(d, fa, fb) : mxk_dec_term(d, fa, fb);
                }
            } else {
                const float fb0 = mxk_dec_fac(eb0[g]), fb1 = mxk_dec_fac(eb1[g]);
                float *tg = T + (g - gs0) * 16 * M;
#pragma unroll
                for (int s = 0; s < MS; s++) {
                    const int m0 = 8 * s + 2 * tig;
                    const float2 fa = *reinterpret_cast<const float2 *>(FA + g * MR + m0);
                    float4 v;
                    if (!SW) {
                        v.x = mxk_dec_term(dd[j][s][0], fa.x, fb0);
                        v.y = mxk_dec_term(dd[j][s][1], fa.y, fb0);
                        v.z = mxk_dec_term(dd[j][s][2], fa.x, fb1);
                        v.w = mxk_dec_term(dd[j][s][3], fa.y, fb1);
                    } else {
                        v.x = mxk_dec_term_sw(dd[j][s][0], fa.x, fb0);
                        v.y = mxk_dec_term_sw(dd[j][s][1], fa.y, fb0);
                        v.z = mxk_dec_term_sw(dd[j][s][2], fa.x, fb1);
                        v.w = mxk_dec_term_sw(dd[j][s][3], fa.y, fb1);
                    }
                    float *tp = tg + tb[s];
                    if (m0 < M) tp[0] = v.x, tp[8 * M] = v.z;
                    if (m0 + 1 < M) tp[1] = v.y, tp[8 * M + 1] = v.w;
                }
            }
        }
        /* every lane releases its own terms (count 8 x 32): compute-sanitizer's racecheck reports the
        ** one-arrive-per-warp-after-__syncwarp form as hazards (kernels/tools/race_probe.cu, mode
        ** mbar1) and this one as none (mode mbar) */
        if (MXK_DS_ARRIVE_ALL) {
            mxk_mbar_arrive(trdy + 8 * slot);
        } else {
            __syncwarp();
            if (lane == 0) mxk_mbar_arrive(trdy + 8 * slot);
        }
    }
}

/* V2 folder warps: thread f = n M + m (f < 16 M) adds stage it's terms of (n, m) in ascending g to
** its accumulator once the 8 consumer warps have written them (tready), then frees the T slot
** (tfree, count: every folder thread); after a tile's last stage, C[m, n] and +0.0 again. */
__device__ __forceinline__ void ds_fold2(const DsPlan &P, int M, int N, int K, int GT, int RG, int KS, int r0, int r1,
                                         uint32_t sbase, const uint8_t *sm, float *__restrict__ c)
{
    const int ng = K / GT, NS = P.ns;
    const int nrows = r1 - r0, ntiles = (nrows + 15) / 16, nst = (K + KS - 1) / KS, nit = ntiles * nst;
    const int f = threadIdx.x - (DS_T);
    const uint32_t trdy = sbase + 8 * (2 * NS + 1), tfree = trdy + 16;
    const float *T0 = reinterpret_cast<const float *>(sm + P.o_t);
    const bool act = f < 16 * M;
    const int on = f / M, om = f - on * M;
    float acc = 0.0f;
    for (int it = 0; it < nit; it++) {
        const int t = it / nst, ks = it - t * nst, slot = it & 1, gs0 = ks * KS / GT;
        mxk_mbar_wait(trdy + 8 * slot, (uint32_t)(it >> 1) & 1u);
        if (act && P.mode == 0) {
            const int cnt = min(RG, ng - gs0);
            const float *tp = T0 + slot * (RG * 16 * M) + f;
#pragma unroll 8
            for (int gl = 0; gl < cnt; gl++) acc = __fadd_rn(acc, tp[gl * 16 * M]);
            if (ks == nst - 1) {
                const int n = r0 + 16 * t + on;
                if (n < r1) c[(size_t)om * N + n] = acc;
                acc = 0.0f;
            }
        }
        mxk_mbar_arrive(tfree + 8 * slot);
    }
    if (f == 0) ds_stamp(P, 62), ds_stamp_ns(P, 61);
}

/* V2: + the folder warps (16 M threads, rounded up to warps); launch bound: M <= 8 keeps two blocks per SM */
template <int MS, bool ONE, bool V2> struct DsThreads {
    static constexpr int FW = V2 ? (ONE ? 1 : MS == 1 ? 4 : 8) : 0; /* folder warps, at most */
    static constexpr int T = DS_T + 32 * FW;
    static constexpr int MINB = V2 && MS == 1 ? 2 : 1;
};

template <int MS, int GT, int CP, bool ONE, bool V2>
__global__ void __launch_bounds__((DsThreads<MS, ONE, V2>::T), (DsThreads<MS, ONE, V2>::MINB))
    gemm_decode_kernel(DsPlan P, int M, int N, int K, const int8_t *__restrict__ am, const uint8_t *__restrict__ ae,
                       const int8_t *__restrict__ bm, const uint8_t *__restrict__ be, float *__restrict__ c)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
    /* bulk copies and mbarrier transaction counts are sm_90 features; ds_launch1 never launches
    ** this kernel on an older device (it falls back to cfg 4), and this body keeps a multi-arch
    ** build (e.g. CMAKE_CUDA_ARCHITECTURES="80;90") compiling */
    __trap();
#else
    using S = DsShape<MS, GT, CP>;
    constexpr int MR = S::MR, KS = S::KS, KSP = S::KSP;
    extern __shared__ __align__(128) uint8_t dsm[];
    const int ng = K / GT, NS = P.ns;
    const int tid = threadIdx.x, warp = tid >> 5;
    const int r0 = (int)((int64_t)blockIdx.x * N / gridDim.x), r1 = (int)((int64_t)(blockIdx.x + 1) * N / gridDim.x);
    const int nrows = r1 - r0;
    const uint32_t sbase = (uint32_t)__cvta_generic_to_shared(dsm); /* full[NS], empty[NS], x */
    if (tid == 0 && P.tr) ds_stamp_ns(P, 3), ds_stamp(P, 0);
    /* The producer thread's stage `it`: the weight rows of that tile and K range, counted on full[st] */
    const int ntiles = (nrows + 15) / 16, nst = (K + KS - 1) / KS, nit = ntiles * nst;
    /* The producer warp's stage `it`: lane r < rows copies row r of that tile's K range, lane 0
    ** arms full[st] with the stage's bytes (a copy may complete before the arm: the transaction
    ** count may go below zero, and the phase cannot complete before lane 0's arrival).  One thread
    ** issuing all 16 copies took ~100 clocks per copy (MXK_DS_TRACE, H200). */
    const int plane = tid - DS_W * 32;
    auto issue = [&](int it) {
        const int st = it % NS, t = it / nst, k0 = (it - t * nst) * KS;
        const int rows = min(16, nrows - 16 * t), kb = min(KS, K - k0);
        const uint32_t full = sbase + 8 * st, dst = sbase + 256 + st * 16 * KSP;
        if (plane == 0) mxk_mbar_arrive_tx(full, (uint32_t)(rows * kb));
        if (plane < rows)
            mxk_bulk_g2s(dst + plane * KSP, bm + (size_t)(r0 + 16 * t + plane) * K + k0, (uint32_t)kb, full);
    };
    if (tid == DS_W * 32) {
        /* First thing in the block, by the producer thread: the barriers (full[NS], empty[NS], x, and
        ** for V2 tready[2], tfree[2]); then its warp's copies (see the header). */
        const bool v2 = V2 && P.mode != 1;
        for (int s = 0; s < 2 * NS + 1; s++) /* empty[NS] of V2: every dot lane (or warp) arrives */
            mxk_mbar_init(sbase + 8 * s, v2 && s >= NS && s < 2 * NS ? DS_W * (MXK_DS_ARRIVE_ALL ? 32 : 1) : 1);
        if (v2) {
            mxk_mbar_init(sbase + 8 * (2 * NS + 1), DS_W * (MXK_DS_ARRIVE_ALL ? 32 : 1)); /* tready */
            mxk_mbar_init(sbase + 8 * (2 * NS + 2), DS_W * (MXK_DS_ARRIVE_ALL ? 32 : 1));
            mxk_mbar_init(sbase + 8 * (2 * NS + 3), blockDim.x - DS_T);
            mxk_mbar_init(sbase + 8 * (2 * NS + 4), blockDim.x - DS_T);
        }
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        ds_stamp(P, 57);
    }
    if (warp == DS_W) {
        __syncwarp(); /* the barriers are initialised (and fenced) before any lane's copy */
        /* the weights first: they come from DRAM, the activations (the same M rows for every
        ** block) mostly from L2 */
        issue(0);
        if (plane == 0) ds_stamp(P, 1);
        const uint32_t xbar = sbase + 16 * NS;
        if (plane == 0) mxk_mbar_arrive_tx(xbar, (uint32_t)(M * K));
        if (plane < M) mxk_bulk_g2s(sbase + P.o_x + plane * P.kp, am + (size_t)plane * K, (uint32_t)K, xbar);
        if (plane == 0) ds_stamp(P, 58);
        /* the producer does not wait for the others: it marks its arrival (the barriers'
        ** initialisation, released by the fence above, is ordered before the consumers' waits) and
        ** goes on with the rest of the stages of every tile, in consumption order, each as its slot
        ** frees (PTX: a bar.arrive synchronises with the bar.sync that completes the barrier) */
        asm volatile("bar.arrive 2, %0;\n" ::"r"(blockDim.x) : "memory");
        for (int it = 1; it < nit; it++) {
            if (it >= NS) mxk_mbar_wait(sbase + 8 * (NS + it % NS), (uint32_t)((it / NS) + 1) & 1u);
            issue(it);
        }
        return;
    }
    /* The scale bytes (registers): 1/G of the bytes; the consumers store them after the barrier. */
    const uint8_t *bp = be + (size_t)r0 * ng;
    const int nb = nrows * ng; /* contiguous B scale bytes of the block */
    const bool fbw = (ng & 3) == 0 && ((uintptr_t)be & 3) == 0;
    uint32_t w[DS_EBW];
    int e[MR]; /* thread g < ng: the activation scales of group g */
    if (warp < DS_W) {
        if (fbw)
#pragma unroll
            for (int j = 0; j < DS_EBW; j++)
                if (4 * (tid + 256 * j) < nb) w[j] = mxk_ld32v(bp + 4 * (tid + 256 * j));
        if (tid < ng)
#pragma unroll
            for (int m = 0; m < MR; m++) e[m] = (int)mxk_ld8v(ae + (size_t)min(m, M - 1) * ng + tid);
    }
    asm volatile("bar.sync 2, %0;\n" ::"r"(blockDim.x) : "memory"); /* with the producer's arrival */
    if (V2 && warp > DS_W) { /* folder warps */
        if (P.mode != 1) ds_fold2(P, M, N, K, GT, S::RG, KS, r0, r1, sbase, dsm, c);
        return;
    }
    /* consumers: B scale bytes into shared memory (row stride ebp), A factors into FA[g][MR] */
    uint8_t *EB = dsm + P.o_eb;
    if (fbw) {
#pragma unroll
        for (int j = 0; j < DS_EBW; j++) {
            const int i = 4 * (tid + 256 * j);
            if (i < nb) {
                const int row = i / ng;
                *reinterpret_cast<uint32_t *>(EB + row * P.ebp + (i - row * ng)) = w[j];
            }
        }
    } else {
        for (int i = tid; i < nb; i += DS_W * 32) {
            const int row = i / ng;
            EB[row * P.ebp + (i - row * ng)] = bp[i];
        }
    }
    float *FA = reinterpret_cast<float *>(dsm + P.o_fa);
    int fl = 0;
    if (tid < ng)
#pragma unroll
        for (int m = 0; m < MR; m++) {
            FA[tid * MR + m] = mxk_dec_fac(e[m]);
            fl |= (e[m] > 234 && e[m] < 255);
        }
    /* some activation scale in [235, 254]: the swapped-order path (block-uniform) */
    const int sw = ds_sync_or(fl);
    mxk_mbar_wait(sbase + 16 * NS, 0u); /* the activations */
    if (tid == 0) ds_stamp(P, 2);
    if (P.mode == 1) { /* stream only: the ring's pace without the dots */
        const int nit = (nrows + 15) / 16 * ((K + KS - 1) / KS);
        for (int it = 0; it < nit; it++) {
            mxk_mbar_wait(sbase + 8 * (it % NS), (uint32_t)(it / NS) & 1u);
            if (tid == 0) ds_stamp(P, 4 + it);
            ds_sync();
            if (tid == 0) mxk_mbar_arrive(sbase + 8 * (NS + it % NS)), ds_stamp(P, 32 + it);
        }
        if (tid == 0) ds_stamp(P, 63), ds_stamp_ns(P, 60);
        return;
    }
    if (V2) {
        if (sw)
            ds_body2<MS, GT, CP, ONE, true>(P, M, K, r0, r1, sbase, dsm);
        else
            ds_body2<MS, GT, CP, ONE, false>(P, M, K, r0, r1, sbase, dsm);
    } else if (sw)
        ds_body<MS, GT, CP, ONE, true>(P, M, N, K, r0, r1, sbase, dsm, c);
    else
        ds_body<MS, GT, CP, ONE, false>(P, M, N, K, r0, r1, sbase, dsm, c);
    if (tid == 0) ds_stamp(P, 63), ds_stamp_ns(P, 60);
#endif
}

/* Grid and shared-memory plan; ns = 0 when nothing fits (then cfg 4). */
/* Timing knobs (environment, read once; for measurements, kernels/tools/decode_sweep.sh):
** MXK_DS_NS caps the ring stages, MXK_DS_BPS sets blocks per SM (default 2 at M <= 8, else 1),
** MXK_DS_NOCOMP=1 streams without dots (WRONG results: timing only; =2: V2 without the ordered sums,
** =3: V2 dots only, also timing only), MXK_DS_CPW=2 halves the stage (G <= 128), MXK_DS_V2=0 / 1
** forces the per-stage-barrier / V2 consumers, MXK_DS_TRACE=1 records clock64 stamps per block
** (start, barriers initialised, first copies issued, activations in, each stage's arrival and
** release, end) in a managed buffer that `mxsim-gpu perf` prints (results stay right; the stamps
** cost a few instructions).  Unset, the kernel runs as documented above. */
static int ds_env(const char *name)
{
    const char *v = getenv(name);
    return v ? atoi(v) : 0;
}
static const int ds_env_ns = ds_env("MXK_DS_NS"), ds_env_bps = ds_env("MXK_DS_BPS"),
                 ds_env_nocomp = ds_env("MXK_DS_NOCOMP"), ds_env_cpw = ds_env("MXK_DS_CPW");
/* MXK_DS_V2=1 / 0 forces the V2 consumers (folder warps, no block barrier per stage) / the per-stage
** barrier; unset: the default of ds_launch1 */
static const int ds_env_v2 = getenv("MXK_DS_V2") ? atoi(getenv("MXK_DS_V2")) : -1;

static unsigned long long *ds_trace_buf = nullptr;
static int ds_trace_blocks = 0, ds_trace_grid = 0;
/* MXK_DS_TRACE=1: the stamps of the last launch (managed memory; read after a synchronize).  A
** diagnostics hook for mxsim-gpu perf, not part of the ABI (mxk.h); the buffer is process-wide. */
extern "C" const unsigned long long *mxk_ds_trace(int *nblocks)
{
    *nblocks = ds_trace_grid;
    return ds_trace_buf;
}

template <int MS, int GT, int CP>
static DsPlan ds_plan(int M, int N, int K, int nsm, int smax, int bps, int nscap, int *grid)
{
    using S = DsShape<MS, GT, CP>;
    DsPlan P{};
    const int ng = K / GT;
    /* bps blocks per SM; more (smaller row ranges) only where the B scale bytes would not fit */
    int64_t g = std::min<int64_t>((int64_t)bps * nsm, (N + 15) / 16);
    g = std::max<int64_t>(g, ((int64_t)N * ng + DS_EB_MAX - 1) / DS_EB_MAX);
    g = std::min<int64_t>(g, N);
    *grid = (int)g;
    const int rows = (int)((N + g - 1) / g), rows16 = (rows + 15) / 16 * 16;
    const int budget = g > (int64_t)bps * nsm ? smax / (bps + 1) - 1024 : bps > 1 ? smax / bps - 1024 : smax;
    P.kp = K % 128 == 0 ? K + 64 : K;                       /* rows 64 bytes apart in the banks */
    const int wds = (ng + 3) / 4;
    P.ebp = 4 * (wds | 1);
    const int fixed_x = M * P.kp, t_bytes = 2 * S::RG * 16 * M * 4, fa_bytes = ng * S::MR * 4;
    const int eb_bytes = rows16 * P.ebp;
    const int fixed = 256 + fixed_x + t_bytes + fa_bytes + eb_bytes;
    const int stage = 16 * S::KSP;
    int ns = (budget - fixed) / stage;
    ns = std::min(ns, ds_env_ns > 1 ? ds_env_ns : nscap);
    if (ns < 2 || rows * ng > DS_EB_MAX) return P;
    P.ns = ns;
    P.mode = ds_env_nocomp >= 1 && ds_env_nocomp <= 3 ? ds_env_nocomp : 0;
    P.o_x = 256 + ns * stage;
    P.o_t = P.o_x + (uint32_t)fixed_x;
    P.o_fa = P.o_t + (uint32_t)t_bytes;
    P.o_eb = P.o_fa + (uint32_t)fa_bytes;
    P.bytes = P.o_eb + (uint32_t)eb_bytes;
    return P;
}

template <int MS, int GT, int CP, bool ONE>
static int ds_launch1(int M, int N, int K, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                     const uint8_t *be, float *c, cudaStream_t s)
{
    const MxkCaps cap = mxk_caps();
    const int nsm = cap.sms, smax = cap.smem_optin;
    if (nsm < 1 || smax < 1 || cap.cc < 90) return -1; /* sm_90 only */
    /* M <= 8: two blocks per SM where two fit with 2 ring stages each (measured on an H200: two
    ** independent consumer pipelines per SM hide each other's barriers and ordered sums, e.g.
    ** 1x11008x4096 G = 32 19.3 us against 23.4 with one block); else one block per SM */
    int grid = 0, bps = ds_env_bps >= 1 ? ds_env_bps : MS == 1 ? 2 : 1;
    /* V2 consumers everywhere: as fast or faster than the per-stage barrier, up to 15% at M = 16,
    ** G <= 64 (H200 decode3).  M = 1, G = 32 kept the barrier until the twelfth session (decode3 run 3:
    ** 11.0 us with V2 against 10.7 at 1x4096x4096); on today's kernel V2 is the faster there too,
    ** same-call A/B, three alternating rounds each: H200 1x4096x4096 11.07-11.22 against 11.20-11.39 us,
    ** 1x11008x4096 18.96-19.01 against 19.25-19.49 (reports/gpu/NVIDIA-H200-2026-11-27-bf16/dev/
    ** s12_h200_v2ab.txt); H100 1-3% (s11_h100_decode_knobs.txt).
    ** Ring stages: as many as fit (at most 8), but 2 for V2 at M = 1 with two blocks per SM
    ** (1x11008x4096 G = 128 17.7 us against 18.4-18.6 with 3, G = 64 18.1 against 19.2-19.4). */
    const bool v2w = ds_env_v2 >= 0 ? ds_env_v2 == 1 : true;
    DsPlan P = ds_plan<MS, GT, CP>(M, N, K, nsm, smax, bps, v2w && ONE && bps > 1 ? 2 : 8, &grid);
    if (P.ns == 0 && bps > 1) P = ds_plan<MS, GT, CP>(M, N, K, nsm, smax, bps = 1, 8, &grid);
    if (P.ns == 0) return -1;
    const bool v2 = v2w && P.mode != 1;
    if (ds_env("MXK_DS_TRACE") == 1) { /* diagnostics: one managed buffer, the last launch's stamps */
        if (!ds_trace_buf || ds_trace_blocks < grid) {
            if (ds_trace_buf) cudaFree(ds_trace_buf);
            if (cudaMallocManaged(&ds_trace_buf, (size_t)grid * DS_TR * 8) != cudaSuccess) return -1;
            ds_trace_blocks = grid;
        }
        ds_trace_grid = grid;
        P.tr = ds_trace_buf;
    }
    auto kern = v2 ? gemm_decode_kernel<MS, GT, CP, ONE, true> : gemm_decode_kernel<MS, GT, CP, ONE, false>;
    static int attr_set[2] = {0, 0}; /* once per instantiation (benign race: idempotent) */
    if (attr_set[v2] != smax) {
        cudaError_t e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, smax);
        if (e != cudaSuccess) return (int)e;
        attr_set[v2] = smax;
    }
    const int threads = v2 ? DS_T + 32 * ((16 * M + 31) / 32) : DS_T;
    kern<<<(unsigned)grid, (unsigned)threads, P.bytes, s>>>(P, M, N, K, am, ae, bm, be, c);
    return mxk_err(cudaGetLastError());
}

/* chunks per warp per stage: 4 (KS = 2048), 2 at M > 8 with G = 32 (the terms buffer), or 2 by
** MXK_DS_CPW=2 where G <= 128 */
template <int MS, int GT, bool ONE>
static int ds_launch(int M, int N, int K, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                     const uint8_t *be, float *c, cudaStream_t s)
{
    if constexpr (MS == 2 && GT == 32) {
        return ds_launch1<MS, GT, 2, ONE>(M, N, K, am, ae, bm, be, c, s);
    } else {
        if (ds_env_cpw == 2 && GT <= 128) return ds_launch1<MS, GT, (GT <= 128 ? 2 : 4), ONE>(M, N, K, am, ae, bm, be, c, s);
        return ds_launch1<MS, GT, 4, ONE>(M, N, K, am, ae, bm, be, c, s);
    }
}

/* Internal entry (called by mxk_gemm; arguments checked: G % 32 == 0, 16-byte aligned mantissas,
** sizes < 2^31).  -1 when the kernel does not apply (M > 16, G not 32/64/128/256, K % 64 != 0,
** K/G > 256, the shared-memory plan has fewer than 2 stages); the caller then takes cfg 4. */
int mxk_gemm_decode_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                             const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    if (M < 1 || M > 16 || (G != 32 && G != 64 && G != 128 && G != 256) || K % 64 != 0 || K / G > 256)
        return -1;
    if (K > 65536) return -1;
    return mxk_decode_dispatch(M, G, [&](auto ms, auto gt, auto one) {
        return ds_launch<decltype(ms)::value, decltype(gt)::value, decltype(one)::value>(M, N, K, am, ae, bm, be, c, s);
    });
}

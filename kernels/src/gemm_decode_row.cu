/* gemm_decode_row.cu - MXINT8 GEMM for decode at M = 1 (mxk_gemm cfg 12): one warp per weight row,
** the row's bytes in registers through plain 16-byte loads, the group dots by dp4a and a shuffle
** reduce-scatter, the ordered fp32 sum by one lane.  Applies for M = 1, G in {32, 64, 128, 256},
** K % 512 == 0 and K <= 32768; else cfg 9 (gemm_decode.cu).  Bit-exact with the fp32 arithmetic
** contract (sim/doc/numerics.md section 4): C[0,n] = fold over groups g ascending of
** acc = RN(acc + t_g), acc from +0.0, t_g = RN(d_g * 2^(EA[g] + EB[n,g] - 266)), d_g the exact int32
** dot of group g.
**
** Why a third decode kernel: at M = 1 the work per weight byte is one multiply-add, so the time is
** the time to read N K (1 + 1/G) bytes once.  The probe of that floor (kernels/tools/stream_probe.cu,
** reports/gpu/NVIDIA-H200-2026-11-26-final3/stream_probe.csv) reads 16.9 MB fastest with plain
** 16-byte loads from many threads at once (8.3-8.9 us on an H200), faster than with bulk copies
** into a shared-memory ring (8.6-9.4 us), which cfg 9 uses (9.8-10.3 us at 1x4096x4096 G = 128).
** This kernel is that probe plus the dots:
**   - a block is 8 warps; warp w of block b owns weight row n = 8 b + w and walks its K in chunks of
**     4096 bytes (U = 8 loads of 16 bytes per lane; lane l reads bytes [512 u + 16 l, +16) of the
**     chunk, so each load instruction of the warp covers 512 contiguous bytes).  The chunk's loads
**     are issued first, then the row's scale bytes, then the block copies the activation row (K
**     bytes) and its factors f(EA) into shared memory (one barrier): every weight byte of the first
**     chunk is in flight before the block waits for anything.  A later chunk's loads are issued as
**     soon as the previous chunk's dots are formed.  At N = 4096, K = 4096 the 512 blocks fit on
**     132 SMs at 4 blocks per SM: the whole 16.9 MB is requested in the first microsecond.
**   - dots: lane l's 16 bytes of load u against the activation's bytes at the same k (shared
**     memory), 4 dp4a: an exact partial d[u] (|d| <= 16 * 2^14).  A group of G bytes of load u is
**     LPG = G / 16 consecutive lanes.  Reduce-scatter among them (shfl.xor): at mask m a lane keeps
**     one half of its values (the upper half when lane & m), sends the other half, and adds what
**     its partner sent; after min(log2 LPG, 3) steps each lane holds V = 8 / LPG complete group
**     dots (G <= 128), or one half-sum that one more xor step completes (G = 256, two lanes hold
**     it, the even one writes).  Lane l then holds the groups of loads j = jo(l) + v, v < V, where
**     jo(l) sums the halves the lane kept, group index (512 j + 16 l) / G in the chunk.  Integer
**     additions in any order: the same d_g.  7 shuffles per lane at G = 128 (24 for a plain
**     butterfly on every value).
**   - terms: the lane holding d_g forms t_g (below) and stores it to shared memory T[warp][g];
**     after __syncwarp lane 0 adds the chunk's terms in ascending g, one RN add each, to the row's
**     accumulator (the contract's sequence of additions; a term depends only on (d, EA, EB), so who
**     forms it and when is free), and stores C[0, n] after the last chunk.
** Term: the decode kernels' mxk_dec_term_sw (mxk_decode.cuh; proof in gemm_decode.cu's header):
** t = (F * f(EA)) * f(EB) with F = (float)d exact (|d| <= 256 * 2^14 = 2^22), the first product
** exact when EA <= 234, the factors swapped when EA is in [235, 254]; f(255) = NaN makes t NaN.
** Compiled with -fmad=false and explicit _rn intrinsics: nothing is contracted or flushed.  No
** architecture-specific instruction: it runs on every card the library is built for.  64 registers,
** no local memory at G >= 64 (12 bytes of spill at G = 32).
**
** Measured (reports/gpu/<card>-2026-11-27-final8, runs 1-3, cold L2; H200 / H100): 1x4096x4096 G = 128
** 9.36-9.41 / 10.67-10.77 us against cfg 9's 9.79-9.84 / 11.09-11.15, 1x11008x4096 16.10-16.38 /
** 20.24-20.26 against 17.46-17.57 / 21.49-21.52, G = 64 likewise 4-7% ahead; G = 32 5-9% behind
** (11.68-12.08 against 10.78-11.04 on the H200), so cfg 0 keeps cfg 9 there.  Per-row %globaltimer
** stamps (MXK_DR_TRACE=1) put the rest above the read floor in the tail from a row's weights
** arriving to its end: 0.45-1.0 us at G = 128, 1.3-2.9 us at G = 32, while 31 warps per SM compete
** for issue slots (the scale loads are not it: taking them from shared memory, or not at all, left
** the tail unchanged).  Measured slower on the H200 and removed: two warps per row with 4 loads per
** lane (10.4-12.2 us), 4-warp blocks (9.7), 5 blocks per SM (10.4), the block's 8 rows folded at once
** after a block barrier (G = 32 +0.1-2.4 us); non-coherent loads were within noise (the final8 H200
** README and its dev/ folder). */
#include "mxk_common.cuh"
#include "mxk_decode.cuh"

#include <stdlib.h>

#define DR_KMAX 32768 /* the activation row lives in shared memory */

namespace {

/* weights: read once (streaming, evict first), issued where written */
__device__ __forceinline__ uint4 dr_ldw(const int8_t *p)
{
    uint4 v;
    asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}

/* the activation's 16 bytes at the weight's k: volatile, so that ptxas does not hoist them all (and
** their registers) above the first dot */
__device__ __forceinline__ uint4 dr_lds(uint32_t addr)
{
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
    return v;
}

/* %globaltimer (ns) once dep is known: the stamps of MXK_DR_TRACE */
__device__ __forceinline__ unsigned long long dr_now(int dep)
{
    unsigned long long t;
    asm volatile("{\n.reg .u32 z;\nmov.u32 z, %1;\nmov.u64 %0, %%globaltimer;\n}\n" : "=l"(t) : "r"(dep) : "memory");
    return t;
}

constexpr int dr_log2(int v) { return v <= 1 ? 0 : 1 + dr_log2(v / 2); }

/* U: 16-byte loads per lane per chunk (a chunk is 512 U bytes of a row); W: warps (rows) per block */
template <int G, int U, int W> struct DrShape {
    static constexpr int CH = 512 * U;                   /* bytes of a row per chunk */
    static constexpr int LPG = G / 16;                   /* lanes per group of a load */
    static constexpr int GPL = 512 / G;                  /* groups per load instruction */
    static constexpr int S = dr_log2(LPG < U ? LPG : U); /* reduce-scatter steps */
    static constexpr int V = U >> S;                     /* group dots per lane after them */
    static constexpr int PL = LPG >> S;                  /* lanes still sharing a group (G = 16 U and up) */
    static constexpr int GC = CH / G;                    /* groups per chunk */
    static constexpr int TS = GC;                        /* a row's terms in T */
};

/* MB: blocks per SM (launch bounds: 4 gives 64 registers); tr: MXK_DR_TRACE stamps or null */
template <int G, int U, int W, int MB>
__global__ void __launch_bounds__(W * 32, MB)
    gemm_decode_row_kernel(int N, int K, const int8_t *__restrict__ am, const uint8_t *__restrict__ ae,
                           const int8_t *__restrict__ bm, const uint8_t *__restrict__ be, float *__restrict__ c,
                           unsigned long long *tr)
{
    using S = DrShape<G, U, W>;
    extern __shared__ __align__(16) uint8_t dr_sm[];
    const int ng = K / G;
    uint8_t *x = dr_sm;              /* the activation row, K bytes */
    float *T = (float *)(dr_sm + K); /* [W][TS] terms of a chunk */
    float *fa = T + W * S::TS;       /* [ng] f(EA) */
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int n = blockIdx.x * W + warp;
    const bool active = n < N;
    const int8_t *brow = bm + (size_t)n * K + 16 * lane;
    const uint8_t *erow = be + (size_t)n * ng;
    unsigned long long t0 = tr ? dr_now(0) : 0;

    /* the loads j = jo + v this lane holds after the reduce-scatter; PL > 1: only the even lane writes */
    int jo = 0;
#pragma unroll
    for (int k = 0; k < S::S; k++)
        if (lane & (S::LPG >> (k + 1))) jo += U >> (k + 1);
    const bool writer = (lane & (S::PL - 1)) == 0;
    const int gl0 = lane / S::LPG; /* + j GPL: the group of load j in the chunk */

    uint4 w[U];
    uint32_t eb[S::V];
    auto issue = [&](int k0) { /* chunk at byte k0 (< K) */
#pragma unroll
        for (int u = 0; u < U; u++)
            if (k0 + 512 * u < K) w[u] = dr_ldw(brow + k0 + 512 * u);
#pragma unroll
        for (int v = 0; v < S::V; v++) {
            const int j = jo + v;
            eb[v] = writer && k0 + 512 * j < K ? mxk_ld8v(erow + k0 / G + j * S::GPL + gl0) : 0u;
        }
    };
    if (active) issue(0);
    /* not unrolled: its copies would hold registers next to those of the weights in flight */
#pragma unroll 1
    for (int i = threadIdx.x; i < K / 16; i += W * 32) ((uint4 *)x)[i] = ((const uint4 *)am)[i];
#pragma unroll 1
    for (int i = threadIdx.x; i < ng; i += W * 32) fa[i] = mxk_dec_fac(ae[i]);
    __syncthreads();
    if (!active) return;

    float acc = 0.0f; /* lane 0's: the row's fp32 accumulator */
    float *Tw = T + warp * S::TS;
    const uint32_t xs = (uint32_t)__cvta_generic_to_shared(x) + 16u * (uint32_t)lane;
    unsigned long long t1 = 0;
    for (int k0 = 0; k0 < K; k0 += S::CH) {
        {
            int d[U];
#pragma unroll
            for (int u = 0; u < U; u++) {
                d[u] = 0;
                if (k0 + 512 * u < K) {
                    const uint4 a = dr_lds(xs + (uint32_t)(k0 + 512 * u));
                    d[u] = __dp4a((int)w[u].w, (int)a.w, __dp4a((int)w[u].z, (int)a.z,
                                  __dp4a((int)w[u].y, (int)a.y, __dp4a((int)w[u].x, (int)a.x, 0))));
                }
            }
            if (tr && k0 == 0) t1 = dr_now(d[U - 1]);
            uint32_t ebc[S::V];
#pragma unroll
            for (int v = 0; v < S::V; v++) ebc[v] = eb[v];
            if (k0 + S::CH < K) issue(k0 + S::CH); /* the next chunk is in flight during this one's sums */
#pragma unroll
            for (int k = 0; k < S::S; k++) {
                const int m = S::LPG >> (k + 1), half = U >> (k + 1);
                const bool hi = (lane & m) != 0;
#pragma unroll
                for (int i = 0; i < half; i++) {
                    const int send = hi ? d[i] : d[i + half];
                    const int keep = hi ? d[i + half] : d[i];
                    d[i] = keep + __shfl_xor_sync(0xffffffffu, send, m);
                }
            }
#pragma unroll
            for (int m = S::PL >> 1; m >= 1; m >>= 1) d[0] += __shfl_xor_sync(0xffffffffu, d[0], m);
            if (writer) {
#pragma unroll
                for (int v = 0; v < S::V; v++) {
                    const int j = jo + v, gl = j * S::GPL + gl0;
                    if (k0 + 512 * j < K) Tw[gl] = mxk_dec_term_sw(d[v], fa[k0 / G + gl], mxk_dec_fac((int)ebc[v]));
                }
            }
        }
        __syncwarp();
        if (lane == 0) {
            const int gn = min(S::GC, (K - k0) / G);
#pragma unroll 8
            for (int g = 0; g < gn; g++) acc = __fadd_rn(acc, Tw[g]);
        }
        __syncwarp();
    }
    if (lane == 0) {
        c[n] = acc;
        if (tr) tr[4 * (size_t)n] = t0, tr[4 * (size_t)n + 1] = t1, tr[4 * (size_t)n + 2] = dr_now(__float_as_int(acc)),
                tr[4 * (size_t)n + 3] = blockIdx.x;
    }
}

/* MXK_DR_TRACE=1 (diagnostics, unset in normal use): per-row %globaltimer stamps of the last
** launch (start, weights in, end; mxk_dr_trace) */
static unsigned long long *dr_trace_buf = nullptr;
static int dr_trace_rows = 0, dr_trace_n = 0;

template <int G, int U, int W, int MB>
int dr_launch(int N, int K, const int8_t *am, const uint8_t *ae, const int8_t *bm, const uint8_t *be, float *c,
              cudaStream_t s)
{
    using S = DrShape<G, U, W>;
    const size_t smem = (size_t)K + 4u * W * S::TS + 4u * (size_t)(K / G); /* <= 40 KB: no opt-in */
    const unsigned grid = (unsigned)((N + W - 1) / W);
    unsigned long long *tr = nullptr;
    if (getenv("MXK_DR_TRACE") && atoi(getenv("MXK_DR_TRACE")) == 1) {
        if (!dr_trace_buf || dr_trace_rows < N) {
            if (dr_trace_buf) cudaFree(dr_trace_buf);
            dr_trace_buf = nullptr;
            if (cudaMallocManaged(&dr_trace_buf, (size_t)N * 32) != cudaSuccess) return -1;
            dr_trace_rows = N;
        }
        dr_trace_n = N;
        tr = dr_trace_buf;
    }
    gemm_decode_row_kernel<G, U, W, MB><<<grid, W * 32, smem, s>>>(N, K, am, ae, bm, be, c, tr);
    return mxk_err(cudaGetLastError());
}

} // namespace

/* MXK_DR_TRACE=1: the last launch's stamps, 4 per weight row (start, weights in, end in %globaltimer ns;
** the block).  A diagnostics hook for mxsim-gpu perf, not part of the ABI (mxk.h). */
extern "C" const unsigned long long *mxk_dr_trace(int *nrows)
{
    *nrows = dr_trace_n;
    return dr_trace_buf;
}

/* Internal entry (called by mxk_gemm; arguments checked: G % 32 == 0, 16-byte aligned mantissas,
** sizes < 2^31).  -1 when the kernel does not apply (M != 1, G not 32/64/128/256, K % 512 != 0,
** K > 32768, below sm_80); the caller then takes cfg 9. */
int mxk_gemm_decode_row_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                                 const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    if (M != 1 || K % 512 != 0 || K > DR_KMAX || mxk_caps().cc < 80) return -1;
    if (G == 32) return dr_launch<32, 8, 8, 4>(N, K, am, ae, bm, be, c, s);
    if (G == 64) return dr_launch<64, 8, 8, 4>(N, K, am, ae, bm, be, c, s);
    if (G == 128) return dr_launch<128, 8, 8, 4>(N, K, am, ae, bm, be, c, s);
    if (G == 256) return dr_launch<256, 8, 8, 4>(N, K, am, ae, bm, be, c, s);
    return -1;
}

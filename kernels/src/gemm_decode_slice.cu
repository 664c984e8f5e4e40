/* gemm_decode_slice.cu - MXINT8 GEMM for decode at 1 < M <= 16 (mxk_gemm cfg 13): the weights
** streamed into registers by plain 16-byte loads from many warps at once (the row kernel's, cfg 12,
** way of reaching the read floor), the dots on the int8 tensor cores, K split into four slices.
** Applies for M <= 16, G in {64, 128, 256}, K a multiple of 16 G with K / G <= 64, 4-byte aligned
** scale arrays; else cfg 9 (gemm_decode.cu).  Bit-exact with the fp32 arithmetic contract
** (sim/doc/numerics.md section 4): C[m,n] = fold over groups g ascending of acc = RN(acc + t_g), acc
** from +0.0, t_g = RN(d_g * 2^(EA[m,g] + EB[n,g] - 266)), d_g the exact int32 dot of group g.
**
** Why: at M = 16 the weight bytes still set the time (16 multiply-adds per byte are nothing for the
** tensor cores), but cfg 9's ring of bulk copies streams them more slowly than plain loads do: at
** 16x11008x4096 G = 128 its stream alone took 17.3 us on an H200 where the row kernel reads the same
** 45 MB (with its dots) in 16.1-16.4 us at M = 1.
**   - a row tile is 8 weight rows (C columns); a block is 8 warps: 2 row tiles x 4 K slices, warp
**     (r, s) owns rows [8 (2 b + r), +8) x bytes [s K/4, (s + 1) K/4).  It walks its slice in passes of
**     1024 bytes: lane (gid, tig) = (lane / 4, lane % 4) loads, with U = 16 loads of 16 bytes, the
**     bytes [64 u + 16 tig, +16) of the pass of row gid: one load instruction covers 64 contiguous
**     bytes of each of the 8 rows, the pass's 8 KB are all in flight at once (at K = 4096 the slice is
**     one pass), and two blocks per SM put 128 KB per SM in flight.
**   - dots: mma.sync m16n8k32 s8 with the ACTIVATIONS as the 16-row operand (rows >= M are zeros) and
**     the 8 weight rows as the 8-column operand, one permutation of k for both (mma k-slot 4 tig + j
**     <-> byte 16 tig + j, slot 16 + 4 tig + j <-> byte 16 tig + 4 + j of the 64-byte piece for the
**     first mma, registers .x / .y, + 8 for the second, .z / .w): an integer dot is invariant under a
**     permutation of its index, so the two mmas sum exactly the piece's 64 products.  A group (G =
**     64 / 128 / 256) is 1 / 2 / 4 consecutive pieces of one pass (a slice starts at a multiple of 4 G
**     and a pass at a multiple of 1024 within it), accumulated into one fresh s32 set: d_g exactly
**     (|d| <= G 2^14 <= 2^22).  The activation operand comes from global memory (16 bytes of rows gid
**     and gid + 8 at the same k; L1 evict-last: the 16 x K bytes are shared by every block on an SM,
**     where the weights bypass L1).
**   - terms: lane (gid, tig) holds d_g for activation rows gid, gid + 8 and weight rows 2 tig, 2 tig
**     + 1 of its tile, forms the four terms (mxk_dec_term_sw, mxk_decode.cuh: t = (F f(EA)) f(EB),
**     F = (float)d exact, the factors swapped for EA in [235, 254]; proof in gemm_decode.cu's header)
**     and stores them to shared memory T[r][g][lane][4]; the scale bytes come four groups per 32-bit
**     load, issued with the pass's weights.  After one block barrier thread (r, o) adds output o's
**     K/G terms in ascending g, one RN add each, from +0.0 (the contract's sequence: a term depends
**     only on (d, EA, EB), so which warp forms it and when is free) and stores C[m, n] when m < M and
**     n < N.  T is K/G KB per block (at most 64).
** Compiled with -fmad=false and explicit _rn intrinsics: nothing is contracted or flushed.  Runs on
** every card the library is built for (mma.sync s8: sm_80 and up). */
#include "mxk_common.cuh"
#include "mxk_decode.cuh"

#include <stdlib.h>

#include <type_traits>

namespace {

constexpr int DT_S = 4;           /* K slices of a row tile, one warp each */
constexpr int DT_R = 4;           /* row tiles of 8 weight rows per block */
constexpr int DT_W = DT_S * DT_R; /* warps per block: one block per SM, 128 registers per thread */
constexpr int DT_U = 16;          /* 16-byte loads per lane per pass: a pass is 1024 bytes of 8 rows */
constexpr int DT_PASS = 64 * DT_U;

/* weights: read once (streaming), issued where written; PF (development): L2 prefetch size */
template <int PF> __device__ __forceinline__ uint4 dt_ldw(const int8_t *p)
{
    uint4 v;
    if (PF == 1)
        asm volatile("ld.global.cs.L2::128B.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else if (PF == 2)
        asm volatile("ld.global.cs.L2::256B.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    else
        asm volatile("ld.global.cs.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
/* activations, from shared memory */
__device__ __forceinline__ uint4 dt_ldx(uint32_t addr)
{
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0,%1,%2,%3}, [%4];\n" : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "r"(addr));
    return v;
}

/* TWO: M > 8 (activation rows 8..15 exist).  Persistent: block b takes the block tiles (2 row tiles
** of 8) b, b + grid, ...; a warp's items are its slice's passes of those tiles, in order. */
template <int G, bool TWO, int PF>
__global__ void __launch_bounds__(DT_W * 32, 1)
    gemm_decode_slice_kernel(int M, int N, int K, const int8_t *__restrict__ am, const uint8_t *__restrict__ ae,
                             const int8_t *__restrict__ bm, const uint8_t *__restrict__ be, float *__restrict__ c, int dbg)
{
    constexpr int LPG = G / 64;          /* 64-byte pieces per group */
    constexpr int GPP = DT_PASS / G;     /* groups per full pass: 16, 8, 4 */
    constexpr int EW = GPP / 4;          /* 32-bit scale words per row per pass */
    extern __shared__ __align__(16) uint8_t dt_sm[];
    const int ng = K / G, L = K / DT_S, npass = (L + DT_PASS - 1) / DT_PASS;
    /* the activations, rows of K + 64 bytes (the 8 lanes of an LDS.128 phase, rows gid and gid + 1,
    ** hit distinct banks), 8 or 16 rows (zeros from M on); then the terms T[DT_R][ng][32][4] */
    constexpr int MR = TWO ? 16 : 8;
    const int XS = K + 64;
    float *dt_T = reinterpret_cast<float *>(dt_sm + (size_t)MR * XS);
    /* this block's weight rows [r0, r1): N / grid, +-1 (no SM has a tile more than another) */
    const int r0 = (int)((long long)blockIdx.x * N / gridDim.x), r1 = (int)((long long)(blockIdx.x + 1) * N / gridDim.x);
    const int ntile = (r1 - r0 + 8 * DT_R - 1) / (8 * DT_R);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int r = warp / DT_S, s = warp % DT_S;
    const int gid = lane >> 2, tig = lane & 3;
    const int k0 = s * L;
    const bool x0ok = gid < M, x1ok = TWO && gid + 8 < M;
    const uint32_t xp0 = (uint32_t)__cvta_generic_to_shared(dt_sm) + (uint32_t)(gid * XS + k0 + 16 * tig);
    const uint32_t xp1 = xp0 + 8u * (uint32_t)XS;
    const uint8_t *ea0 = ae + (size_t)gid * ng, *ea1 = ae + (size_t)(gid + 8) * ng;
    float4 *T = reinterpret_cast<float4 *>(dt_T) + (size_t)r * ng * 32 + lane;

    uint4 w[DT_U];
    uint32_t sa0[EW], sa1[EW], sb0[EW], sb1[EW];
    /* piece u of pass p of block tile t: lane's 16 bytes of row r0 + 8 (DT_R t + r) + gid (zeros from r1 on) */
    auto issue_w = [&](int t, int p, int u) {
        w[u] = make_uint4(0, 0, 0, 0);
        if (PF == 3) { /* timing only (wrong results): one row's 512 contiguous bytes per instruction */
            const int n = r0 + (t * DT_R + r) * 8 + (u & 7), kb = p * DT_PASS + 512 * (u >> 3) + 16 * lane;
            if (n < r1 && kb < L) w[u] = dt_ldw<0>(bm + (size_t)n * K + k0 + kb);
            return;
        }
        const int n = r0 + (t * DT_R + r) * 8 + gid, kb = p * DT_PASS + 64 * u;
        if (n < r1 && kb < L) w[u] = dt_ldw<PF>(bm + (size_t)n * K + k0 + kb + 16 * tig);
    };
    /* the scale words of pass p of block tile t: this lane's activation rows gid, gid + 8 and weight
    ** rows nb, nb + 1, four groups per word (E = 127 where the row does not exist: a finite factor,
    ** its outputs are not stored) */
    auto issue_s = [&](int t, int p) {
        const int nb = r0 + (t * DT_R + r) * 8 + 2 * tig, g0 = (k0 + p * DT_PASS) / G;
#pragma unroll
        for (int i = 0; i < EW; i++) {
            const bool in = p * DT_PASS + 4 * i * G < L;
            const int g = g0 + 4 * i;
            sa0[i] = in && x0ok ? mxk_ld32v(ea0 + g) : 0x7F7F7F7Fu;
            sa1[i] = in && x1ok ? mxk_ld32v(ea1 + g) : 0x7F7F7F7Fu;
            sb0[i] = in && nb < r1 ? mxk_ld32v(be + (size_t)nb * ng + g) : 0x7F7F7F7Fu;
            sb1[i] = in && nb + 1 < r1 ? mxk_ld32v(be + (size_t)(nb + 1) * ng + g) : 0x7F7F7F7Fu;
        }
    };
    int bt = 0, p = 0;
#pragma unroll
    for (int u = 0; u < DT_U; u++) issue_w(bt, 0, u);
    issue_s(bt, 0);
    /* the activations into shared memory once, behind the first weights (cp.async: no registers) */
    if (!(dbg & 4)) {
        const int per_row = K / 16;
#pragma unroll 1
        for (int i = threadIdx.x; i < MR * per_row; i += DT_W * 32) {
            const int row = i / per_row, col = (i - row * per_row) * 16;
            const uint32_t dst = (uint32_t)__cvta_generic_to_shared(dt_sm + (size_t)row * XS + col);
            if (row < M)
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(am + (size_t)row * K + col) : "memory");
            else
                *reinterpret_cast<uint4 *>(dt_sm + (size_t)row * XS + col) = make_uint4(0, 0, 0, 0);
        }
        asm volatile("cp.async.commit_group;\ncp.async.wait_all;\n" ::: "memory");
        __syncthreads();
    }
    const uint4 z4 = make_uint4(0, 0, 0, 0);
#pragma unroll 1
    for (;;) {
        const int kp = p * DT_PASS, g0 = (k0 + kp) / G;
        /* the next item: its pieces are issued as this one's are consumed (rolling prefetch) */
        int nt = bt, np = p + 1;
        if (np == npass) np = 0, nt++;
        const bool more = nt < ntile;
        const int pieces = (L - kp) / 64 < DT_U ? (L - kp) / 64 : DT_U;
        uint4 x0 = dt_ldx(xp0 + kp), x1 = TWO ? dt_ldx(xp1 + kp) : z4;
#pragma unroll
        for (int gq = 0; gq < GPP; gq++) {
            if (gq * LPG >= pieces) break; /* warp-uniform: a partial last pass */
            int d[4] = {0, 0, 0, 0};
#pragma unroll
            for (int v = 0; v < LPG; v++) {
                const int u = gq * LPG + v;
                const uint4 a0 = x0, a1 = x1;
                /* the next piece's activations, in flight during this piece's mmas */
                if (u + 1 < pieces) {
                    x0 = dt_ldx(xp0 + kp + 64 * (u + 1));
                    x1 = TWO ? dt_ldx(xp1 + kp + 64 * (u + 1)) : z4;
                }
                if (dbg & 1) {
                    d[0] ^= (int)(w[u].x ^ w[u].y ^ w[u].z ^ w[u].w);
                } else {
                    mxk_mma_s8(d, a0.x, a1.x, a0.y, a1.y, w[u].x, w[u].y);
                    mxk_mma_s8(d, a0.z, a1.z, a0.w, a1.w, w[u].z, w[u].w);
                }
                if (more) issue_w(nt, np, u);
            }
            const int i = gq >> 2, sh = (gq & 3) * 8;
            const float fa0 = mxk_dec_fac((int)((sa0[i] >> sh) & 255u)), fa1 = mxk_dec_fac((int)((sa1[i] >> sh) & 255u));
            const float fb0 = mxk_dec_fac((int)((sb0[i] >> sh) & 255u)), fb1 = mxk_dec_fac((int)((sb1[i] >> sh) & 255u));
            T[(size_t)(g0 + gq) * 32] = make_float4(mxk_dec_term_sw(d[0], fa0, fb0), mxk_dec_term_sw(d[1], fa0, fb1),
                                                    mxk_dec_term_sw(d[2], fa1, fb0), mxk_dec_term_sw(d[3], fa1, fb1));
        }
        if (more) {
#pragma unroll
            for (int u = 0; u < DT_U; u++)
                if (u >= pieces) issue_w(nt, np, u); /* the pieces a partial pass did not consume */
            issue_s(nt, np);
        }
        if (p == npass - 1 && !(dbg & 2)) {
            /* every slice's terms of block tile bt are in T: thread (rr, o) folds output o of row tile
            ** rr, o = 4 lane + i of the lane that formed its terms; then T is free for the next tile */
            __syncthreads();
            const int rr = threadIdx.x >> 7, o = threadIdx.x & 127, ol = o >> 2, oi = o & 3; /* DT_R x 128 threads */
            const int m = (ol >> 2) + 8 * (oi >> 1), n = r0 + (bt * DT_R + rr) * 8 + 2 * (ol & 3) + (oi & 1);
            if (m < M && n < r1) {
                const float *Tr = dt_T + (size_t)rr * ng * 128 + o;
                float acc = 0.0f;
#pragma unroll 8
                for (int g = 0; g < ng; g++) acc = __fadd_rn(acc, Tr[(size_t)g * 128]);
                c[(size_t)m * N + n] = acc;
            }
            __syncthreads();
        }
        if (!more) break;
        bt = nt, p = np;
    }
}

template <int G, bool TWO, int PF>
int dt_launch(int M, int N, int K, const int8_t *am, const uint8_t *ae, const int8_t *bm, const uint8_t *be, float *c,
              cudaStream_t s)
{
    auto kern = gemm_decode_slice_kernel<G, TWO, PF>;
    static int sms = 0, optin = 0; /* once per instantiation (benign race: idempotent) */
    if (!sms) {
        int dev = 0, v = 0, o = 0;
        cudaError_t e = cudaGetDevice(&dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev);
        if (e == cudaSuccess) e = cudaDeviceGetAttribute(&o, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
        if (e == cudaSuccess) e = cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, o);
        if (e != cudaSuccess) return (int)e;
        optin = o, sms = v;
    }
    const size_t smem = (size_t)(TWO ? 16 : 8) * (K + 64) + (size_t)DT_R * (K / G) * 512;
    if (smem > (size_t)optin) return -1;
    /* one block per SM, each with N / grid rows (at least 16: half a block tile) */
    const int most = (N + 15) / 16;
    const unsigned grid = (unsigned)(most < sms ? most : sms);
    const int dbg = getenv("MXK_DT_DBG") ? atoi(getenv("MXK_DT_DBG")) : 0; /* development: timing switches */
    kern<<<grid, DT_W * 32, smem, s>>>(M, N, K, am, ae, bm, be, c, dbg);
    return mxk_err(cudaGetLastError());
}

} // namespace

/* Internal entry (called by mxk_gemm; arguments checked: G % 32 == 0, 16-byte aligned mantissas,
** sizes < 2^31).  -1 when the kernel does not apply (M > 16, G not 64/128/256, K % (16 G) != 0,
** K / G > 64, scale arrays not 4-byte aligned); the caller then takes cfg 9. */
int mxk_gemm_decode_slice_internal(int M, int N, int K, int G, const int8_t *am, const uint8_t *ae,
                                   const int8_t *bm, const uint8_t *be, float *c, cudaStream_t s)
{
    if (M < 1 || M > 16 || (G != 64 && G != 128 && G != 256) || K % (16 * G) != 0 ||
        ((uintptr_t)ae | (uintptr_t)be) % 4 != 0)
        return -1;
    const bool two = M > 8;
    const int pf = getenv("MXK_DT_PF") ? atoi(getenv("MXK_DT_PF")) : 0; /* development */
    auto by = [&](auto pfc) -> int {
        constexpr int P = decltype(pfc)::value;
        if (G == 64) return two ? dt_launch<64, true, P>(M, N, K, am, ae, bm, be, c, s) : dt_launch<64, false, P>(M, N, K, am, ae, bm, be, c, s);
        if (G == 128) return two ? dt_launch<128, true, P>(M, N, K, am, ae, bm, be, c, s) : dt_launch<128, false, P>(M, N, K, am, ae, bm, be, c, s);
        return two ? dt_launch<256, true, P>(M, N, K, am, ae, bm, be, c, s) : dt_launch<256, false, P>(M, N, K, am, ae, bm, be, c, s);
    };
    if (pf == 1) return by(std::integral_constant<int, 1>{});
    if (pf == 2) return by(std::integral_constant<int, 2>{});
    if (pf == 3) return by(std::integral_constant<int, 3>{});
    return by(std::integral_constant<int, 0>{});
}

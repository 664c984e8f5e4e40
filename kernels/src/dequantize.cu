/* dequantize.cu - MXINT8 -> bf16 for the `ocp` and `mase-cuda` profiles (numerics.md section 2).
**
** The decode (dequant_bits.cuh) is exact float arithmetic plus byte permutes, with no rounding
** step: per 4 mantissas one XOR, 4 PRMT + 4 FADD + 4 FMUL, 2 PRMT to pack (mase-cuda: 3 more
** integer ops for m = -128, and the kernel's recipe itself for the rare groups with E = 0 or 255).
**
** Fast path (G a multiple of 8, and a head of h < 16 elements that aligns both pointers with
** h a multiple of 8): a warp owns chunks of 512 elements.  Layout "B" (the default): lane l
** loads 8 mantissas at 8l and 8 at 256 + 8l (two 8-byte loads; each warp load is 256 contiguous
** bytes) and stores 16 bytes at each of the same two places (each warp store is 512 contiguous
** bytes), so every load and store instruction covers whole 32-byte sectors.  Layout "A": lane l
** loads 16 contiguous mantissas (one 16-byte load) and stores two 16-byte halves 32 bytes apart
** (each warp store then writes half of every sector).  The 8 elements of a half share one scale
** byte, found by a multiply-high (x / G = umulhi(x, ceil(2^64 / G)), exact for x * G < 2^64).
** The head, the tail (n - h mod 512) are done by the last block, element by element.
** General path (other G, or a head that is not a multiple of 8): 16 mantissas per thread (one
** 16-byte load, two 16-byte stores), each element finds its own scale byte by a running counter.
** Pointers that no head can align both (out - 2 * mantissa not a multiple of 16): scalar kernel.
** cfg (mxk_dequantize_bf16_cfg) picks a variant for tests and benchmarks (L = layout, U = chunks per
** warp and iteration, one-shot grid or grid-stride over the resident blocks, cache hints):
**    1  the run-5 kernel (I2F + RNE per element, 4 x 16 B per thread), kept as the baseline
**    2  A U2 one-shot nc/default     3  A U2 one-shot nc.no_allocate/.cs
**    4  B U2 one-shot nc/default     5  B U2 one-shot nc.no_allocate/.cs
**    6  B U4 one-shot no_alloc/.cs   7  B U2 grid-stride no_alloc/.cs    8  B U4 grid-stride nc/default
**    9  B U1 one-shot no_alloc/.cs (the default, cfg 0)                  10 A U4 grid-stride no_alloc/.cs
**   11  B U2 one-shot ld.cs/.cs     12  the general path even where the fast path applies
** Measured on an H200 (reports/gpu/NVIDIA-H200-2026-11-26/bench_dequant.csv, n = 235 M): cfg 9 is
** 0.96x of cudaMemcpy's bytes per second, cfg 4-6 and 11 0.93-0.94x, the grid-stride cfg 7-8
** 0.88-0.90x, layout A 0.77-0.86x (cfg 10: 0.56-0.70x), cfg 1 0.67-0.79x. */
#include <algorithm>

#include "dequant_bits.cuh"
#include "mxk_common.cuh"

/* ---- loads and stores with cache hints ---------------------------------------------------- */
/* HINT 0: ld.global.nc (__ldg), default stores.  1: ld.global.nc.L1::no_allocate, st.global.cs.
** 2: ld.global.cs, st.global.cs. */
template <int HINT> __device__ __forceinline__ uint2 dq_ld8(const int8_t *p)
{
    uint2 r;
    if (HINT == 0) r = __ldg((const uint2 *)p);
    else if (HINT == 1)
        asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
    else r = __ldcs((const uint2 *)p);
    return r;
}
template <int HINT> __device__ __forceinline__ uint4 dq_ld16(const int8_t *p)
{
    uint4 r;
    if (HINT == 0) r = __ldg((const uint4 *)p);
    else if (HINT == 1)
        asm("ld.global.nc.L1::no_allocate.v4.u32 {%0, %1, %2, %3}, [%4];"
            : "=r"(r.x), "=r"(r.y), "=r"(r.z), "=r"(r.w)
            : "l"(p));
    else r = __ldcs((const uint4 *)p);
    return r;
}
template <int HINT> __device__ __forceinline__ void dq_st16(uint16_t *p, uint4 v)
{
    if (HINT == 0) *(uint4 *)p = v;
    else __stcs((uint4 *)p, v);
}

__device__ __forceinline__ int64_t dq_div(int64_t x, uint64_t gmag)
{
    return (int64_t)__umul64hi((uint64_t)x, gmag);
}

/* Elements [0, h) and [lo, n), one per thread of the calling block. */
template <int P>
__device__ __forceinline__ void dq_edges(const int8_t *m, const uint8_t *s, uint16_t *out, int64_t h,
                                         int64_t lo, int64_t n, int64_t G)
{
    for (int64_t i = threadIdx.x; i < h; i += blockDim.x) out[i] = (uint16_t)dq_elem<P>(s[i / G], (uint8_t)m[i]);
    for (int64_t i = lo + threadIdx.x; i < n; i += blockDim.x)
        out[i] = (uint16_t)dq_elem<P>(s[i / G], (uint8_t)m[i]);
}

#define DQ_THREADS 256

/* Fast path: G % 8 == 0, h % 8 == 0, m + h and out + h 16-byte aligned.  nchunks chunks of 512
** elements from element h; U chunks per warp and iteration; PERSIST: grid-stride loop. */
template <int P, int LAYOUT, int U, bool PERSIST, int HINT>
__global__ void __launch_bounds__(DQ_THREADS)
    dq_fast(const int8_t *__restrict__ m, const uint8_t *__restrict__ s, uint16_t *__restrict__ out,
            int64_t h, int64_t nchunks, int64_t n, int64_t G, uint64_t gmag)
{
    const int lane = threadIdx.x & 31;
    const int64_t warp = ((int64_t)blockIdx.x * DQ_THREADS + threadIdx.x) >> 5;
    const int64_t step = (int64_t)gridDim.x * (DQ_THREADS / 32) * U;
    const int64_t off0 = LAYOUT == 0 ? 16 * lane : 8 * lane;
    const int64_t off1 = LAYOUT == 0 ? 16 * lane + 8 : 256 + 8 * lane;
    for (int64_t c0 = warp * U; c0 < nchunks; c0 += step) {
        uint32_t w[U][4], e[U][2];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t c = c0 + u;
            if (c < nchunks) {
                const int64_t base = h + c * 512;
                if (LAYOUT == 0) {
                    const uint4 r = dq_ld16<HINT>(m + base + off0);
                    w[u][0] = r.x, w[u][1] = r.y, w[u][2] = r.z, w[u][3] = r.w;
                } else {
                    const uint2 a = dq_ld8<HINT>(m + base + off0), b = dq_ld8<HINT>(m + base + off1);
                    w[u][0] = a.x, w[u][1] = a.y, w[u][2] = b.x, w[u][3] = b.y;
                }
                e[u][0] = __ldg(s + dq_div(base + off0, gmag));
                e[u][1] = __ldg(s + dq_div(base + off1, gmag));
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t c = c0 + u;
            if (c < nchunks) {
                const int64_t base = h + c * 512;
                uint32_t o[8];
                dq_decode8<P>(w[u][0], w[u][1], e[u][0], o);
                dq_decode8<P>(w[u][2], w[u][3], e[u][1], o + 4);
                dq_st16<HINT>(out + base + off0, make_uint4(o[0], o[1], o[2], o[3]));
                dq_st16<HINT>(out + base + off1, make_uint4(o[4], o[5], o[6], o[7]));
            }
        }
        if (!PERSIST) break;
    }
    if (blockIdx.x == gridDim.x - 1) dq_edges<P>(m, s, out, h, h + nchunks * 512, n, G);
}

/* General path: any G; m + h and out + h 16-byte aligned; nvec vectors of 16 from element h. */
template <int P>
__global__ void __launch_bounds__(DQ_THREADS)
    dq_general(const int8_t *__restrict__ m, const uint8_t *__restrict__ s, uint16_t *__restrict__ out,
               int64_t h, int64_t nvec, int64_t n, int64_t G)
{
    for (int64_t v = (int64_t)blockIdx.x * DQ_THREADS + threadIdx.x; v < nvec;
         v += (int64_t)gridDim.x * DQ_THREADS) {
        const int64_t base = h + 16 * v;
        const uint4 r = __ldg((const uint4 *)(m + base));
        const uint32_t w[4] = {r.x, r.y, r.z, r.w};
        int64_t g = base / G, rem = base - g * G;
        uint32_t o[8];
#pragma unroll
        for (int j = 0; j < 16; j++) {
            const uint32_t d = dq_elem<P>(__ldg(s + g), w[j >> 2] >> (8 * (j & 3)));
            if (j & 1) o[j >> 1] |= d << 16;
            else o[j >> 1] = d;
            if (++rem == G) rem = 0, g++;
        }
        *(uint4 *)(out + base) = make_uint4(o[0], o[1], o[2], o[3]);
        *(uint4 *)(out + base + 8) = make_uint4(o[4], o[5], o[6], o[7]);
    }
    if (blockIdx.x == gridDim.x - 1) dq_edges<P>(m, s, out, h, h + 16 * nvec, n, G);
}

template <int P>
__global__ void dq_scalar(const int8_t *m, const uint8_t *s, int64_t n, int64_t G, uint16_t *out)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x)
        out[i] = (uint16_t)dq_elem<P>(s[i / G], (uint8_t)m[i]);
}

/* ---- the run-5 kernel (cfg 1), kept as the benchmark's "before" --------------------------- */
template <int P>
__device__ __forceinline__ uint16_t legacy_decode1(uint32_t e, int m)
{
    if (P == MXK_PROFILE_OCP) {
        if (e == 255u) return 0x7FC0u;
        return mxk_f32_to_bf16(__fmul_rn((float)m, mxk_pow2f((int)e - 133)));
    } else {
        const int a = m < 0 ? -m : m;
        const uint32_t s = m < 0 ? 0x8000u : 0u;
        const uint32_t out = s | (e << 7) | (uint32_t)((a & 0x3F) << 1);
        if (a & 0x40) return (uint16_t)out;
        const uint32_t bias = s | (e << 7);
        return mxk_f32_to_bf16(__fsub_rn(mxk_bf16_to_f32((uint16_t)out), mxk_bf16_to_f32((uint16_t)bias)));
    }
}

#define LEGACY_UNROLL 4
template <int P, bool SAME_SCALE>
__global__ void __launch_bounds__(256) legacy_vec16(const int4 *__restrict__ mant, const uint8_t *__restrict__ scale,
                                                    int64_t n_vec, int64_t G, uint4 *__restrict__ out)
{
    const int64_t v0 = (int64_t)blockIdx.x * (256 * LEGACY_UNROLL) + threadIdx.x;
    int4 raw[LEGACY_UNROLL];
    uint32_t es[LEGACY_UNROLL];
#pragma unroll
    for (int u = 0; u < LEGACY_UNROLL; u++) {
        const int64_t v = v0 + u * 256;
        raw[u] = v < n_vec ? __ldg(mant + v) : make_int4(0, 0, 0, 0);
        es[u] = (SAME_SCALE && v < n_vec) ? __ldg(scale + v * 16 / G) : 0;
    }
#pragma unroll
    for (int u = 0; u < LEGACY_UNROLL; u++) {
        const int64_t v = v0 + u * 256;
        if (v >= n_vec) break;
        const uint32_t w[4] = {(uint32_t)raw[u].x, (uint32_t)raw[u].y, (uint32_t)raw[u].z, (uint32_t)raw[u].w};
        const int64_t i0 = v * 16;
        uint32_t o[8];
#pragma unroll
        for (int j = 0; j < 16; j += 2) {
            const int m0 = (int)(int8_t)(w[j >> 2] >> ((j & 3) * 8));
            const int m1 = (int)(int8_t)(w[(j + 1) >> 2] >> (((j + 1) & 3) * 8));
            uint32_t ea = es[u], eb = es[u];
            if (!SAME_SCALE) {
                ea = __ldg(scale + (i0 + j) / G);
                eb = __ldg(scale + (i0 + j + 1) / G);
            }
            o[j >> 1] = (uint32_t)legacy_decode1<P>(ea, m0) | ((uint32_t)legacy_decode1<P>(eb, m1) << 16);
        }
        out[2 * v] = make_uint4(o[0], o[1], o[2], o[3]);
        out[2 * v + 1] = make_uint4(o[4], o[5], o[6], o[7]);
    }
}

template <int P>
__global__ void legacy_scalar(const int8_t *mant, const uint8_t *scale, int64_t lo, int64_t n, int64_t G, uint16_t *out)
{
    int64_t i = lo + (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    for (; i < n; i += stride) out[i] = legacy_decode1<P>(scale[i / G], (int)mant[i]);
}

template <int P>
static int launch_legacy(const int8_t *m, const uint8_t *s, int64_t n, int64_t G, uint16_t *out, cudaStream_t st)
{
    const bool aligned = ((uintptr_t)m % 16 == 0) && ((uintptr_t)out % 16 == 0);
    int64_t n_vec = aligned ? n / 16 : 0;
    if (n_vec > 0) {
        const int64_t blocks = (n_vec + 256 * LEGACY_UNROLL - 1) / (256 * LEGACY_UNROLL);
        if (blocks > 0x7FFFFFFF) return (int)cudaErrorInvalidValue;
        if (G % 16 == 0)
            legacy_vec16<P, true><<<(unsigned)blocks, 256, 0, st>>>((const int4 *)m, s, n_vec, G, (uint4 *)out);
        else
            legacy_vec16<P, false><<<(unsigned)blocks, 256, 0, st>>>((const int4 *)m, s, n_vec, G, (uint4 *)out);
    }
    const int64_t lo = n_vec * 16;
    if (lo < n) {
        int64_t blocks = (n - lo + 255) / 256;
        if (blocks > 65536) blocks = 65536;
        legacy_scalar<P><<<(unsigned)blocks, 256, 0, st>>>(m, s, lo, n, G, out);
    }
    return mxk_err(cudaGetLastError());
}

/* ---- host side ---------------------------------------------------------------------------- */

static int dq_num_sms()
{
    static int sms = 0; /* the first device's; only used to size grid-stride grids */
    if (!sms) {
        int dev = 0;
        if (cudaGetDevice(&dev) != cudaSuccess ||
            cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess || sms < 1)
            sms = 132;
    }
    return sms;
}

template <class K> static int64_t dq_resident_blocks(K kernel)
{
    int per_sm = 0;
    if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, DQ_THREADS, 0) != cudaSuccess || per_sm < 1)
        per_sm = 4;
    return (int64_t)per_sm * dq_num_sms();
}

template <int P, int LAYOUT, int U, bool PERSIST, int HINT>
static void launch_fast(const int8_t *m, const uint8_t *s, uint16_t *out, int64_t h, int64_t n, int64_t G,
                        cudaStream_t st)
{
    const int64_t nchunks = (n - h) / 512;
    const int64_t per_block = (DQ_THREADS / 32) * U;
    int64_t blocks = (nchunks + per_block - 1) / per_block;
    if (PERSIST) blocks = std::min<int64_t>(blocks, dq_resident_blocks(dq_fast<P, LAYOUT, U, PERSIST, HINT>));
    blocks = std::max<int64_t>(blocks, 1);
    const uint64_t gmag = ~0ull / (uint64_t)G + 1; /* ceil(2^64 / G) for G > 1 */
    dq_fast<P, LAYOUT, U, PERSIST, HINT><<<(unsigned)blocks, DQ_THREADS, 0, st>>>(m, s, out, h, nchunks, n, G, gmag);
}

#define DQ_DEFAULT_CFG 9

template <int P>
static int launch(const int8_t *m, const uint8_t *s, int64_t n, int64_t G, uint16_t *out, int cfg, cudaStream_t st)
{
    if (cfg == 1) return launch_legacy<P>(m, s, n, G, out, st);
    if (cfg == 0) cfg = DQ_DEFAULT_CFG;
    /* A head of h elements makes the mantissa pointer 16-byte aligned; the output must then be too. */
    const int64_t h = std::min<int64_t>(n, (int64_t)((16 - (uintptr_t)m % 16) % 16));
    const bool vec_ok = ((uintptr_t)out + 2 * (uintptr_t)h) % 16 == 0 && n - h >= 16;
    if (!vec_ok) {
        const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((n + 255) / 256, 4 * dq_num_sms()));
        dq_scalar<P><<<(unsigned)blocks, 256, 0, st>>>(m, s, n, G, out);
        return mxk_err(cudaGetLastError());
    }
    const bool fast = G % 8 == 0 && h % 8 == 0 && (n - h) >= 512 && n < (1ll << 47);
    if (!fast || cfg == 12) {
        const int64_t nvec = (n - h) / 16;
        const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((nvec + DQ_THREADS - 1) / DQ_THREADS,
                                                                      dq_resident_blocks(dq_general<P>)));
        dq_general<P><<<(unsigned)blocks, DQ_THREADS, 0, st>>>(m, s, out, h, nvec, n, G);
        return mxk_err(cudaGetLastError());
    }
    if ((n - h) / 512 / 8 > 0x7FFFFFFFll) return (int)cudaErrorInvalidValue;
    switch (cfg) {
    case 2: launch_fast<P, 0, 2, false, 0>(m, s, out, h, n, G, st); break;
    case 3: launch_fast<P, 0, 2, false, 1>(m, s, out, h, n, G, st); break;
    case 4: launch_fast<P, 1, 2, false, 0>(m, s, out, h, n, G, st); break;
    case 5: launch_fast<P, 1, 2, false, 1>(m, s, out, h, n, G, st); break;
    case 6: launch_fast<P, 1, 4, false, 1>(m, s, out, h, n, G, st); break;
    case 7: launch_fast<P, 1, 2, true, 1>(m, s, out, h, n, G, st); break;
    case 8: launch_fast<P, 1, 4, true, 0>(m, s, out, h, n, G, st); break;
    case 9: launch_fast<P, 1, 1, false, 1>(m, s, out, h, n, G, st); break;
    case 10: launch_fast<P, 0, 4, true, 1>(m, s, out, h, n, G, st); break;
    case 11: launch_fast<P, 1, 2, false, 2>(m, s, out, h, n, G, st); break;
    default: return (int)cudaErrorInvalidValue;
    }
    return mxk_err(cudaGetLastError());
}

extern "C" int mxk_dequantize_bf16_cfg(int profile, const int8_t *mantissa, const uint8_t *scale, int64_t n,
                                       int64_t G, uint16_t *out, int cfg, mxk_stream stream)
{
    if (!mantissa || !scale || !out || n < 1 || G < 1 || G > 65536 || n % G != 0 || cfg < 0 ||
        cfg > MXK_DEQUANT_CFG_MAX || (uintptr_t)out % 2 != 0)
        return (int)cudaErrorInvalidValue;
    cudaStream_t st = (cudaStream_t)stream;
    if (profile == MXK_PROFILE_OCP) return launch<MXK_PROFILE_OCP>(mantissa, scale, n, G, out, cfg, st);
    if (profile == MXK_PROFILE_MASE_CUDA) return launch<MXK_PROFILE_MASE_CUDA>(mantissa, scale, n, G, out, cfg, st);
    return (int)cudaErrorInvalidValue;
}

extern "C" int mxk_dequantize_bf16(int profile, const int8_t *mantissa, const uint8_t *scale, int64_t n,
                                   int64_t G, uint16_t *out, mxk_stream stream)
{
    return mxk_dequantize_bf16_cfg(profile, mantissa, scale, n, G, out, 0, stream);
}

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
** cfg (mxk_dequantize_bf16_cfg): 0 = the dispatcher above (fast path: layout B, one chunk per warp,
** one-shot grid, ld.global.nc.L1::no_allocate loads and st.global.cs stores); 1 = the general path
** even where the fast path applies (kept for the tests: verify and test_gpu_kernels cover it on
** aligned data, which the dispatcher never sends there).
** Issue 16 item 7 removed the variants that served no shape (old cfg 1 = the run-5 kernel, 2..8,
** 10, 11 = other layouts, unrolls, grid-stride grids and cache hints).  Their last measurement:
** reports/gpu/NVIDIA-H200-2026-11-26/bench_dequant.csv (n = 235 M, H200): the kept fast path (old
** cfg 9) 0.96x of cudaMemcpy's bytes per second, old cfg 4-6 and 11 0.93-0.94x, grid-stride 7-8
** 0.88-0.90x, layout A 0.77-0.86x (cfg 10: 0.56-0.70x), the run-5 kernel 0.67-0.79x. */
#include <algorithm>

#include "dequant_bits.cuh"
#include "mxk_common.cuh"

/* ---- loads and stores: ld.global.nc.L1::no_allocate, st.global.cs (streaming data) ---------- */
__device__ __forceinline__ uint2 dq_ld8(const int8_t *p)
{
    uint2 r;
    asm("ld.global.nc.L1::no_allocate.v2.u32 {%0, %1}, [%2];" : "=r"(r.x), "=r"(r.y) : "l"(p));
    return r;
}
__device__ __forceinline__ void dq_st16(uint16_t *p, uint4 v) { __stcs((uint4 *)p, v); }

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
** elements from element h, one per warp: lane l loads 8 mantissas at 8l and 8 at 256 + 8l. */
template <int P>
__global__ void __launch_bounds__(DQ_THREADS)
    dq_fast(const int8_t *__restrict__ m, const uint8_t *__restrict__ s, uint16_t *__restrict__ out,
            int64_t h, int64_t nchunks, int64_t n, int64_t G, uint64_t gmag)
{
    const int lane = threadIdx.x & 31;
    const int64_t c = ((int64_t)blockIdx.x * DQ_THREADS + threadIdx.x) >> 5;
    const int64_t off0 = 8 * lane, off1 = 256 + 8 * lane;
    if (c < nchunks) {
        const int64_t base = h + c * 512;
        const uint2 a = dq_ld8(m + base + off0), b = dq_ld8(m + base + off1);
        const uint32_t e0 = __ldg(s + dq_div(base + off0, gmag)), e1 = __ldg(s + dq_div(base + off1, gmag));
        uint32_t o[8];
        dq_decode8<P>(a.x, a.y, e0, o);
        dq_decode8<P>(b.x, b.y, e1, o + 4);
        dq_st16(out + base + off0, make_uint4(o[0], o[1], o[2], o[3]));
        dq_st16(out + base + off1, make_uint4(o[4], o[5], o[6], o[7]));
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

template <int P>
static int launch(const int8_t *m, const uint8_t *s, int64_t n, int64_t G, uint16_t *out, int cfg, cudaStream_t st)
{
    /* A head of h elements makes the mantissa pointer 16-byte aligned; the output must then be too. */
    const int64_t h = std::min<int64_t>(n, (int64_t)((16 - (uintptr_t)m % 16) % 16));
    const bool vec_ok = ((uintptr_t)out + 2 * (uintptr_t)h) % 16 == 0 && n - h >= 16;
    if (!vec_ok) {
        const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((n + 255) / 256, 4 * dq_num_sms()));
        dq_scalar<P><<<(unsigned)blocks, 256, 0, st>>>(m, s, n, G, out);
        return mxk_err(cudaGetLastError());
    }
    const bool fast = G % 8 == 0 && h % 8 == 0 && (n - h) >= 512 && n < (1ll << 47);
    if (!fast || cfg == 1) {
        const int64_t nvec = (n - h) / 16;
        const int64_t blocks = std::max<int64_t>(1, std::min<int64_t>((nvec + DQ_THREADS - 1) / DQ_THREADS,
                                                                      dq_resident_blocks(dq_general<P>)));
        dq_general<P><<<(unsigned)blocks, DQ_THREADS, 0, st>>>(m, s, out, h, nvec, n, G);
        return mxk_err(cudaGetLastError());
    }
    const int64_t nchunks = (n - h) / 512;
    const int64_t blocks = std::max<int64_t>((nchunks + DQ_THREADS / 32 - 1) / (DQ_THREADS / 32), 1);
    if (blocks > 0x7FFFFFFFll) return (int)cudaErrorInvalidValue;
    const uint64_t gmag = ~0ull / (uint64_t)G + 1; /* ceil(2^64 / G) for G > 1 */
    dq_fast<P><<<(unsigned)blocks, DQ_THREADS, 0, st>>>(m, s, out, h, nchunks, n, G, gmag);
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

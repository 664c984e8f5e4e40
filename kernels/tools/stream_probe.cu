/* stream_probe.cu - how fast can one kernel read B bytes from DRAM on this card, at decode sizes?
** A development probe for the decode kernel (cfg 9): it times, on rotating buffers (cold L2), the
** same way mxsim-gpu bench does (events around each launch, median of 30), and also 30 launches
** back to back (the per-launch gap amortised):
**   ldg  : every thread reads 16-byte words, U loads in flight, grid = BPS blocks per SM
**   bulk : one thread per block streams its contiguous range with 1-D bulk copies of C bytes into
**          a ring of S slots (mbarrier complete_tx), one consumer warp releases the slots
**   memcpy: cudaMemcpyAsync device to device (reads B, writes B)
** Not part of the library; built by CMake (target stream_probe), run by kernels/tools/probe_session.sh.
** usage: stream_probe BYTES [BYTES ...]   (prints CSV: card,bytes,method,params,median_us,batched_us,GBps) */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <stdint.h>
#include <vector>

#include "cuda_check.h"
#include "event_time.h"
#include "../src/mxk_mbar.cuh"


template <int U>
__global__ void __launch_bounds__(256) ldg_kernel(const uint4 *__restrict__ p, size_t n16, unsigned *out)
{
    uint32_t x = 0;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i + (U - 1) * stride < n16; i += U * stride) {
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = __ldcs(p + i + u * stride);
#pragma unroll
        for (int u = 0; u < U; u++) x ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
    }
    for (; i < n16; i += stride) {
        const uint4 v = __ldcs(p + i);
        x ^= v.x ^ v.y ^ v.z ^ v.w;
    }
    if (x == 0x9E3779B9u) *out = x; /* keeps the loads */
}

__global__ void bulk_kernel(const uint8_t *__restrict__ p, size_t bytes, int chunk, int S)
{
    extern __shared__ __align__(128) uint8_t sm[];
    const uint32_t sb = (uint32_t)__cvta_generic_to_shared(sm);
    const size_t b0 = bytes * blockIdx.x / gridDim.x / 16 * 16, b1 = bytes * (blockIdx.x + 1) / gridDim.x / 16 * 16;
    const int n = (int)((b1 - b0 + chunk - 1) / chunk);
    const uint32_t full0 = sb, empty0 = sb + 8 * S, data = sb + 2048; /* 2 S barriers below 2048 */
    if (threadIdx.x == 0) {
        for (int s = 0; s < S; s++) mxk_mbar_init(full0 + 8 * s, 1), mxk_mbar_init(empty0 + 8 * s, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int i = 0; i < n; i++) {
            const int s = i % S;
            if (i >= S) mxk_mbar_wait(empty0 + 8 * s, (uint32_t)((i / S) + 1) & 1u);
            const size_t o = b0 + (size_t)i * chunk;
            const uint32_t len = (uint32_t)((size_t)chunk < b1 - o ? (size_t)chunk : b1 - o);
            mxk_mbar_arrive_tx(full0 + 8 * s, len);
            mxk_bulk_g2s(data + s * chunk, p + o, len, full0 + 8 * s);
        }
    } else if (threadIdx.x == 32) {
        for (int i = 0; i < n; i++) {
            const int s = i % S;
            mxk_mbar_wait(full0 + 8 * s, (uint32_t)(i / S) & 1u);
            mxk_mbar_arrive(empty0 + 8 * s);
        }
    }
}

/* the per-launch median (event_time.h), then the same launches back to back between two events */
template <class F> static void timeit(F &&fn, int nsets, double *med, double *batched)
{
    const int reps = 30;
    *med = median_event_us(fn, nsets, reps);
    cudaEvent_t ev[2];
    for (auto &e : ev) CK(cudaEventCreate(&e));
    CK(cudaEventRecord(ev[0]));
    for (int i = 0; i < reps; i++) fn((7 + i) % nsets);
    CK(cudaEventRecord(ev[1]));
    CK(cudaDeviceSynchronize());
    float tb = 0;
    CK(cudaEventElapsedTime(&tb, ev[0], ev[1]));
    *batched = tb * 1000.0 / reps;
    for (auto &e : ev) cudaEventDestroy(e);
    CK(cudaGetLastError());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: stream_probe BYTES [BYTES ...]\n");
        return 2;
    }
    std::vector<size_t> sizes; /* checked before any device work */
    for (int a = 1; a < argc; a++) {
        char *end = nullptr;
        const unsigned long long req = strtoull(argv[a], &end, 10);
        if (!end || *end || argv[a][0] == '-' || req < 16 || req > (1ull << 36)) {
            fprintf(stderr, "stream_probe: argument %d ('%s'): expected a byte count in [16, 2^36]\n", a, argv[a]);
            return 2;
        }
        sizes.push_back((size_t)req / 16 * 16);
    }
    cudaDeviceProp pr;
    CK(cudaGetDeviceProperties(&pr, 0));
    const int nsm = pr.multiProcessorCount;
    int smax = 0;
    CK(cudaDeviceGetAttribute(&smax, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0));
    CK(cudaFuncSetAttribute(bulk_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smax));
    unsigned *out;
    CK(cudaMalloc(&out, 4));
    printf("card,bytes,method,params,median_us,batched_us,GBps_median\n");
    for (int a = 1; a < argc; a++) {
        const size_t bytes = sizes[a - 1];
        const int nsets = (int)std::max<size_t>(4, (size_t)(400u << 20) / bytes + 1); /* >> L2 */
        std::vector<uint8_t *> buf(nsets), dst(2);
        for (auto &b : buf) {
            CK(cudaMalloc(&b, bytes));
            CK(cudaMemset(b, 1, bytes));
        }
        for (auto &b : dst) CK(cudaMalloc(&b, bytes));
        auto row = [&](const char *m, const char *par, double med, double bat) {
            printf("%s,%zu,%s,%s,%.3f,%.3f,%.1f\n", pr.name, bytes, m, par, med, bat, bytes / med / 1e3);
            fflush(stdout);
        };
        double med, bat;
        char par[96];
        timeit([&](int i) { CK(cudaMemcpyAsync(dst[i & 1], buf[i], bytes, cudaMemcpyDeviceToDevice)); }, nsets, &med, &bat);
        row("memcpy", "-", med, bat);
        for (int bps : {1, 2, 4, 8}) {
            timeit([&](int i) { ldg_kernel<4><<<bps * nsm, 256>>>((const uint4 *)buf[i], bytes / 16, out); }, nsets, &med, &bat);
            snprintf(par, sizeof par, "bps=%d U=4", bps);
            row("ldg", par, med, bat);
            timeit([&](int i) { ldg_kernel<8><<<bps * nsm, 256>>>((const uint4 *)buf[i], bytes / 16, out); }, nsets, &med, &bat);
            snprintf(par, sizeof par, "bps=%d U=8", bps);
            row("ldg", par, med, bat);
        }
        for (int bps : {1, 2, 3, 4})
            for (int chunk : {2048, 4096, 8192, 16384, 32768})
                for (int ring : {32768, 65536, 131072, 196608}) {
                    const int per = ring / bps;
                    if (per < chunk * 2 || (size_t)per + 2048 > (size_t)smax / bps - 1024) continue;
                    const int S = per / chunk;
                    const int grid = bps * nsm;
                    timeit([&](int i) { bulk_kernel<<<grid, 64, 2048 + S * chunk>>>(buf[i], bytes, chunk, S); }, nsets, &med, &bat);
                    snprintf(par, sizeof par, "bps=%d chunk=%d S=%d ring_per_sm=%d", bps, chunk, S, bps * S * chunk);
                    row("bulk", par, med, bat);
                }
        for (auto &b : buf) cudaFree(b);
        for (auto &b : dst) cudaFree(b);
    }
    return 0;
}

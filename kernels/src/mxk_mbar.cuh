/* mxk_mbar.cuh - sm_90 shared-memory mbarriers and the 1-D bulk copy (cp.async.bulk), shared by the
** Hopper GEMM (gemm_wgmma.cu) and the streaming decode kernel (gemm_decode.cu).  Addresses are
** shared-window offsets (__cvta_generic_to_shared). */
#ifndef MXK_MBAR_CUH
#define MXK_MBAR_CUH

#include <stdint.h>

__device__ __forceinline__ void mxk_mbar_init(uint32_t bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count));
}
__device__ __forceinline__ void mxk_mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}
/* arrive and expect `bytes` of asynchronous copies on this phase */
__device__ __forceinline__ void mxk_mbar_arrive_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes) : "memory");
}
/* wait for the phase of the given parity to complete (try_wait: the thread may be suspended) */
__device__ __forceinline__ void mxk_mbar_wait(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred p;\nMBWAIT_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n"
                 "@!p bra MBWAIT_%=;\n}\n" ::"r"(bar), "r"(parity) : "memory");
}
/* 1-D bulk copy global -> shared, completion counted in bytes on the mbarrier */
__device__ __forceinline__ void mxk_bulk_g2s(uint32_t dst, const void *src, uint32_t bytes, uint32_t bar)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];\n"
                 ::"r"(dst), "l"(src), "r"(bytes), "r"(bar) : "memory");
}

#endif

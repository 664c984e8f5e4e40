/* mxk_tma.cuh - the tensor-copy (TMA) pieces of the two Hopper GEMMs, gemm_wgmma.cu (int8 operands,
** cfg 8) and gemm_bf16.cu (bf16 operands, cfg 11): the host-side tensor map of a row-major rows x K
** operand (128-byte swizzle, the K-major layout of mxk_wgmma.cuh's descriptors, zero fill outside
** the tensor) and the device-side 2-D tile copy into shared memory, counted in bytes on an
** mbarrier.  Compile for sm_90a only. */
#ifndef MXK_TMA_CUH
#define MXK_TMA_CUH

#include <cuda.h>
#include <cudaTypedefs.h>
#include <stdint.h>

/* the driver's cuTensorMapEncodeTiled through the runtime (no link against libcuda); NULL if the
** driver has none */
static inline PFN_cuTensorMapEncodeTiled_v12000 mxk_tma_encode()
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

/* rows x K elements of `type` (elem_bytes each, rows K elem_bytes bytes apart), boxes of box_k
** elements (128 bytes) x box_rows rows; false if the map cannot be made */
static inline bool mxk_tma_map_2d(CUtensorMap *m, CUtensorMapDataType type, const void *p, int rows, int K, int elem_bytes,
                                  int box_k, int box_rows)
{
    auto enc = mxk_tma_encode();
    if (!enc) return false;
    cuuint64_t dims[2] = {(cuuint64_t)K, (cuuint64_t)rows};
    cuuint64_t strides[1] = {(cuuint64_t)K * (cuuint64_t)elem_bytes};
    cuuint32_t box[2] = {(cuuint32_t)box_k, (cuuint32_t)box_rows};
    cuuint32_t es[2] = {1, 1};
    return enc(m, type, 2, const_cast<void *>(p), dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* the box at element coordinates (c0 along K, c1 along rows) into shared memory at dst, its bytes
** completing on the mbarrier bar */
__device__ __forceinline__ void mxk_tma_load_2d(uint32_t dst, const CUtensorMap *map, int c0, int c1, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(dst), "l"((uint64_t)map), "r"(c0), "r"(c1), "r"(bar) : "memory");
}

#endif

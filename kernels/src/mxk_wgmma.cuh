/* mxk_wgmma.cuh - the sm_90a warpgroup MMA pieces of the Hopper GEMM (gemm_wgmma.cu), also used by
** kernels/tools/wgmma_probe.cu: the shared-memory matrix descriptor of a K-major operand with the
** 128-byte swizzle, wgmma.m64n128k32.s32.s8.s8 (accumulate, or overwrite for a group's first
** k-step), fence, commit and wait, and the store of a warpgroup's 64 x 128 fp32 accumulator tile
** (both Hopper GEMMs).  Compile for sm_90a only. */
#ifndef MXK_WGMMA_CUH
#define MXK_WGMMA_CUH

#include <stdint.h>

/* K-major operand, 128-byte swizzle: rows of 128 bytes, 8-row groups 1024 bytes apart. */
__device__ __forceinline__ uint64_t make_desc(uint32_t addr)
{
    return (uint64_t)((addr & 0x3FFFF) >> 4) | ((uint64_t)1 << 16) | ((uint64_t)(1024 >> 4) << 32) |
           ((uint64_t)1 << 62);
}

/* the instruction with its operands: %0-%63 the accumulators, %64 / %65 the A / B descriptors, the
** predicate p (scale-d) set by the caller's asm */
#define WG_MMA_S8_64                                                                                  \
    "wgmma.mma_async.sync.aligned.m64n128k32.s32.s8.s8 "                                              \
    "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,"                                        \
    "%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27,%28,%29,%30,%31,"                               \
    "%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,"                               \
    "%48,%49,%50,%51,%52,%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63},"                              \
    " %64, %65, p;\n}\n"
#define WG_R8(i) "+r"(d[i]), "+r"(d[i + 1]), "+r"(d[i + 2]), "+r"(d[i + 3]), "+r"(d[i + 4]), "+r"(d[i + 5]), "+r"(d[i + 6]), "+r"(d[i + 7])
__device__ __forceinline__ void wgmma_s8(int (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 WG_MMA_S8_64 /* D, descriptors, scale-d predicate */
                 : WG_R8(0), WG_R8(8), WG_R8(16), WG_R8(24), WG_R8(32), WG_R8(40), WG_R8(48), WG_R8(56)
                 : "l"(da), "l"(db), "r"(scale_d));
}
/* the first k-step of a group: D = A*B (scale-d false), the old register values are dead ("=r"),
** so that an accumulator set holds no live value between groups */
#define WG_W8(i) "=r"(d[i]), "=r"(d[i + 1]), "=r"(d[i + 2]), "=r"(d[i + 3]), "=r"(d[i + 4]), "=r"(d[i + 5]), "=r"(d[i + 6]), "=r"(d[i + 7])
__device__ __forceinline__ void wgmma_s8_first(int (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 0, 0;\n"
                 WG_MMA_S8_64 /* D, descriptors, scale-d predicate */
                 : WG_W8(0), WG_W8(8), WG_W8(16), WG_W8(24), WG_W8(32), WG_W8(40), WG_W8(48), WG_W8(56)
                 : "l"(da), "l"(db));
}
__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory"); }
__device__ __forceinline__ void wgmma_wait0(int (&d)[64])
{
    asm volatile("wgmma.wait_group.sync.aligned 0;\n"
                 : WG_R8(0), WG_R8(8), WG_R8(16), WG_R8(24), WG_R8(32), WG_R8(40), WG_R8(48), WG_R8(56)
                 :: "memory");
}
__device__ __forceinline__ void wgmma_wait1(int (&d)[64])
{
    asm volatile("wgmma.wait_group.sync.aligned 1;\n"
                 : WG_R8(0), WG_R8(8), WG_R8(16), WG_R8(24), WG_R8(32), WG_R8(40), WG_R8(48), WG_R8(56)
                 :: "memory");
}

/* Store one warpgroup's 64 x 128 fp32 accumulator tile (the m64n128 accumulator layout: this
** thread's acc[4 b + 2 h + e] is row r0 + 8 h, column c0 + 8 b + 2 q4 + e, r0 its first row, q4 =
** lane & 3) into the row-major M x N matrix c; rows >= M and columns >= N are skipped (tiles past
** the matrix's edge), pairs go out as one 8-byte store where N is even. */
__device__ __forceinline__ void mxk_wg_store_tile(const float (&acc)[64], float *c, int M, int N, int r0, int c0, int q4)
{
#pragma unroll
    for (int h = 0; h < 2; h++) {
        const int r = r0 + 8 * h;
        if (r >= M) continue;
        float *crow = c + (size_t)r * N;
#pragma unroll
        for (int b = 0; b < 16; b++) {
            const int cc = c0 + b * 8 + q4 * 2;
            const float v0 = acc[b * 4 + h * 2], v1 = acc[b * 4 + h * 2 + 1];
            if (cc + 1 < N && (N & 1) == 0) {
                *reinterpret_cast<float2 *>(crow + cc) = make_float2(v0, v1);
            } else {
                if (cc < N) crow[cc] = v0;
                if (cc + 1 < N) crow[cc + 1] = v1;
            }
        }
    }
}

#endif

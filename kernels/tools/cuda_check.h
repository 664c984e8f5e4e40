/* cuda_check.h - CK(x): a CUDA runtime call in the host tools (mxsim-gpu, the probes) that exits
** with file, line, the call and the runtime's message when it fails.  Tools only: the library
** returns status codes and never exits. */
#ifndef MXK_TOOLS_CUDA_CHECK_H
#define MXK_TOOLS_CUDA_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CK(x)                                                                              \
    do {                                                                                   \
        cudaError_t e_ = (cudaError_t)(x);                                                 \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                       \
        }                                                                                  \
    } while (0)

#endif

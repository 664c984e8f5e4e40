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

/* The tools' first device step: 0 with *prop filled for device 0, else 1 after "<tool>: no CUDA
** device" (or "<tool>: needs an sm_<major>x device" when need_major > 0 and the device differs). */
static inline int tool_device(const char *tool, int need_major, cudaDeviceProp *prop)
{
    int ndev = 0;
    if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
        fprintf(stderr, "%s: no CUDA device\n", tool);
        return 1;
    }
    CK(cudaGetDeviceProperties(prop, 0));
    if (need_major > 0 && prop->major != need_major) {
        fprintf(stderr, "%s: needs an sm_%d0 device\n", tool, need_major);
        return 1;
    }
    return 0;
}

#endif

/* event_time.h - the probes' per-launch timing: fn(i) launches one operation on operand set i of
** nsets (rotating sets keep the data out of L2 where the caller sizes them so); 5 warm-up launches,
** then `reps` launches each between two CUDA events, as mxsim-gpu bench times; the median in
** microseconds.  Tools only (CK exits on a CUDA error). */
#ifndef MXK_TOOLS_EVENT_TIME_H
#define MXK_TOOLS_EVENT_TIME_H

#include <algorithm>
#include <vector>

#include "cuda_check.h"

template <class F> static double median_event_us(F &&fn, int nsets, int reps = 30)
{
    for (int i = 0; i < 5; i++) fn(i % nsets);
    CK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> ev(2 * reps);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int i = 0; i < reps; i++) {
        CK(cudaEventRecord(ev[2 * i]));
        fn((5 + i) % nsets);
        CK(cudaEventRecord(ev[2 * i + 1]));
    }
    CK(cudaDeviceSynchronize());
    std::vector<float> t(reps);
    for (int i = 0; i < reps; i++) CK(cudaEventElapsedTime(&t[i], ev[2 * i], ev[2 * i + 1]));
    for (auto &e : ev) cudaEventDestroy(e);
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])) * 1000.0;
}

#endif

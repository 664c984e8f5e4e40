/* race_probe.cu - what compute-sanitizer's racecheck reports for the shared-memory hand-off the
** decode kernel cfg 9 uses (kernels/src/gemm_decode.cu: dot warps write their terms, arrive on an
** mbarrier; folder threads wait on its phase, read them, arrive on a second one that the writers
** wait on before reusing the slot), next to two controls of known answer:
**   sync   the hand-off through __syncthreads (a barrier racecheck models: 0 hazards expected);
**   none   no synchronisation at all (a real race: hazards expected, so the tool is looking);
**   mbar   the cfg 9 protocol: mbarrier.arrive (release, every writer lane) and
**          mbarrier.try_wait.parity (acquire) on two barriers, two slots, 8 rounds; correct under the
**          PTX memory model (arrive defaults to .release, try_wait to .acquire, scope .cta).
**   mbar1  the same with one arrive per writer warp after __syncwarp (what cfg 9 does).
** One block: warps 0-3 write, warps 4-7 read and check every value (a wrong value is counted and
** printed: the protocols must also be right, not only quiet).  Run it under
** `compute-sanitizer --tool racecheck race_probe MODE` (kernels/tools/sanitize_session.sh does,
** each mode apart).  Exit 0 if the values were right; 2 for a bad mode.  sm_90 (try_wait). */
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "cuda_check.h"
#include "../src/mxk_mbar.cuh" /* the library's own mbarrier primitives, as the kernels use them */

namespace {

constexpr int kSlots = 2, kRounds = 8, kWords = 128; /* 128 floats a slot, one per writer thread */

/* mode 0 sync, 1 none, 2 mbar, 3 mbar1 */
__global__ void probe(int mode, int *wrong)
{
    __shared__ float slot[kSlots][kWords];
    __shared__ alignas(8) unsigned long long bars[2 * kSlots]; /* ready[2], free[2] */
    const int tid = threadIdx.x, writer = tid < kWords, lane = tid & 31;
    const uint32_t b0 = (uint32_t)__cvta_generic_to_shared(bars);
    const uint32_t ready = b0, freed = b0 + 8 * kSlots;
    if (tid == 0)
        for (int s = 0; s < kSlots; s++) {
            mxk_mbar_init(ready + 8 * s, mode == 3 ? kWords / 32 : kWords);
            mxk_mbar_init(freed + 8 * s, kWords);
        }
    __syncthreads();
    for (int r = 0; r < kRounds; r++) {
        const int s = r % kSlots;
        if (writer) {
            if (mode >= 2 && r >= kSlots) mxk_mbar_wait(freed + 8 * s, (uint32_t)((r / kSlots) - 1) & 1u);
            slot[s][tid] = (float)(r * 1000 + tid);
            if (mode == 2) mxk_mbar_arrive(ready + 8 * s);
            if (mode == 3) {
                __syncwarp();
                if (lane == 0) mxk_mbar_arrive(ready + 8 * s);
            }
        }
        if (mode == 0) __syncthreads();
        if (!writer) {
            if (mode >= 2) mxk_mbar_wait(ready + 8 * s, (uint32_t)(r / kSlots) & 1u);
            const int i = tid - kWords;
            const float v = slot[s][i];
            if (mode != 1 && v != (float)(r * 1000 + i)) atomicAdd(wrong, 1);
            if (mode >= 2) mxk_mbar_arrive(freed + 8 * s);
        }
        if (mode == 0) __syncthreads();
    }
}

} // namespace

int main(int argc, char **argv)
{
    static const char *const names[] = {"sync", "none", "mbar", "mbar1"};
    int mode = -1;
    for (int i = 0; argc == 2 && i < 4; i++)
        if (!strcmp(argv[1], names[i])) mode = i;
    if (mode < 0) {
        fprintf(stderr, "usage: race_probe sync|none|mbar|mbar1\n");
        return 2;
    }
    int *wrong = nullptr, h = 0;
    CK(cudaMalloc(&wrong, sizeof(int)));
    CK(cudaMemset(wrong, 0, sizeof(int)));
    probe<<<1, 2 * kWords>>>(mode, wrong);
    CK(cudaGetLastError());
    CK(cudaMemcpy(&h, wrong, sizeof(int), cudaMemcpyDeviceToHost));
    printf("race_probe %s: %d wrong values%s\n", names[mode], h, mode == 1 ? " (not checked: unsynchronised)" : "");
    return h ? 1 : 0;
}

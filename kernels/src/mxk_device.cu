/* mxk_device.cu - the current device's limits that the GEMM launchers decide by: compute
** capability, SM count and the dynamic shared memory one block may opt in to.  Each launcher asks
** before it launches and hands the call to its fallback when the card lacks what it needs (the
** chain in mxk.h), so that no card gets a launch error where a slower kernel would run.
**
** MXK_EMULATE (diagnostics, unset in normal use) lowers the limits to another card's, so that the
** fallbacks of that card run, and are checked, on a Hopper: a100 (compute capability 8.0, 163 KB
** per block: NVIDIA A100 datasheet / CUDA C Programming Guide, "Technical Specifications per
** Compute Capability"), l40s (8.9, 99 KB), t4 (7.5, 64 KB, no int8 mma.sync m16n8k32: the SIMT
** kernel only).  The SM count stays the card's own. */
#include "mxk_common.cuh"

#include <stdlib.h>
#include <string.h>

namespace {
struct Emulated {
    const char *name;
    int cc, smem_optin;
};
const Emulated emulated[] = {{"a100", 80, 166912}, {"l40s", 89, 101376}, {"t4", 75, 65536}};
/* the MXK_EMULATE entry, NULL when unset or empty; *known = false for a name not in the table */
const Emulated *emulated_card(bool *known)
{
    const char *em = getenv("MXK_EMULATE");
    *known = true;
    if (!em || !*em) return nullptr;
    for (const Emulated &e : emulated)
        if (!strcmp(em, e.name)) return &e;
    *known = false;
    return nullptr;
}
constexpr int MAX_DEVICES = 64;
MxkCaps cache[MAX_DEVICES];
bool cached[MAX_DEVICES];
} // namespace

MxkCaps mxk_caps()
{
    MxkCaps c = {0, 0, 0};
    int dev = 0;
    if (cudaGetDevice(&dev) != cudaSuccess || dev < 0) return c;
    if (dev < MAX_DEVICES && cached[dev]) return cache[dev]; /* benign race: idempotent */
    int major = 0, minor = 0;
    if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&c.sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&c.smem_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev) != cudaSuccess)
        return MxkCaps{0, 0, 0};
    c.cc = 10 * major + minor;
    bool known = true;
    if (const Emulated *e = emulated_card(&known)) {
        c.cc = c.cc < e->cc ? c.cc : e->cc;
        c.smem_optin = c.smem_optin < e->smem_optin ? c.smem_optin : e->smem_optin;
    }
    if (dev < MAX_DEVICES) cache[dev] = c, cached[dev] = true;
    return c;
}

extern "C" int mxk_device_caps(int *cc, int *sms, int *smem_optin)
{
    if (!cc || !sms || !smem_optin) return (int)cudaErrorInvalidValue;
    bool known = true;
    emulated_card(&known);
    if (!known) return (int)cudaErrorInvalidValue; /* before any device work: a tool can refuse it early */
    int dev = 0;
    const cudaError_t e = cudaGetDevice(&dev);
    if (e != cudaSuccess) return (int)e;
    const MxkCaps c = mxk_caps();
    if (c.cc == 0) return (int)cudaErrorInvalidDevice;
    *cc = c.cc, *sms = c.sms, *smem_optin = c.smem_optin;
    return 0;
}

/* fuzz_gpu_bench.c - the GPU bench CSV reader (sim/src/gpumodel) through mxsim_gpu_bench_load.
** Invariants: a refusal names the file; an accepted bench has a card name and every point a
** known kernel, dims >= 1, a finite measured time > 0 and a split of 0, 1 or 2, its strings
** NUL-terminated inside their arrays. */
#include <math.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_gpu_bench *b = NULL;
    const char *path = fz_write("in.csv", data, size);
    mxsim_status st = mxsim_gpu_bench_load(ctx, path, &b);
    if (st != MXSIM_OK) {
        fz_check_failure(ctx, st);
        fz_check(b == NULL);
        fz_check(strstr(mxsim_errmsg(ctx), "in.csv") != NULL);
        return 0;
    }
    fz_check(b != NULL && mxsim_gpu_bench_card(b) != NULL);
    int64_t n = mxsim_gpu_bench_count(b);
    fz_check(n >= 0);
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(b, i);
        fz_check(p != NULL);
        fz_check(p->op.kernel >= MXSIM_GK_COPY && p->op.kernel <= MXSIM_GK_DEQUANT_CUBLAS);
        fz_check(p->op.m >= 1 && p->op.n >= 1 && p->op.k >= 1 && p->op.g >= 0);
        fz_check(isfinite(p->measured_us) && p->measured_us > 0);
        fz_check(p->split >= 0 && p->split <= 2);
        fz_check(memchr(p->shape, 0, sizeof p->shape) != NULL && memchr(p->method, 0, sizeof p->method) != NULL);
    }
    fz_check(mxsim_gpu_bench_point(b, n) == NULL);
    mxsim_gpu_bench_free(b);
    return 0;
}

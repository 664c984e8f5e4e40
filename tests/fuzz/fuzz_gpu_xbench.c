/* fuzz_gpu_xbench.c - the cross-card model's readers (sim/src/gpumodel/xcard.c): the input as a
** bench.csv (mxsim_gpu_xbench_load) and as a bench_ext.csv (mxsim_gpu_xpower_load).  Invariants: a
** refusal names the file and leaves *out NULL; an accepted bench starts with the copy row, has only
** modelled classes and finite dims, calibrates, and predicts finite positive times; an accepted
** power file gives finite watts >= 0. */
#include <math.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    const char *path = fz_write("in.csv", data, size);
    mxsim_gpu_xbench *b = NULL;
    mxsim_status st = mxsim_gpu_xbench_load(ctx, path, &b);
    if (st != MXSIM_OK) {
        fz_check_failure(ctx, st);
        fz_check(b == NULL);
        fz_check(strstr(mxsim_errmsg(ctx), "in.csv") != NULL);
    } else {
        const mxsim_gpu_xsheet d = {132, 1830, 1979, 989.5, 3350, 52.4288};
        mxsim_gpu_xparams p;
        fz_check(mxsim_gpu_xbench_count(b) >= 1);
        {   /* the median of a bench with itself is the bench */
            const mxsim_gpu_xbench *two[2] = {b, b};
            mxsim_gpu_xbench *m = NULL;
            fz_check(mxsim_gpu_xbench_median(ctx, two, NULL, 2, &m) == MXSIM_OK);
            fz_check(mxsim_gpu_xbench_count(m) == mxsim_gpu_xbench_count(b));
            mxsim_gpu_xbench_free(m);
        }
        if (mxsim_gpu_xcalibrate(ctx, b, &d, &p) == MXSIM_OK) {
            for (int i = 0; i < mxsim_gpu_xbench_count(b); i++) {
                mxsim_gpu_xrow r;
                fz_check(mxsim_gpu_xbench_row(b, i, &d, &p, &r) == MXSIM_OK);
                fz_check(r.cls >= 0 && r.cls < MXSIM_GX_NCLASS);
                fz_check(i > 0 || r.cls == MXSIM_GX_COPY);
                fz_check(r.M >= 1 && r.N >= 1 && r.K >= 1 && r.G >= 0);
                fz_check(isfinite(r.measured_us) && r.measured_us > 0);
                fz_check(!isnan(r.model_us) && r.model_us >= 0);
            }
        }
        mxsim_gpu_xbench_free(b);
    }
    mxsim_gpu_xpower *pw = NULL;
    st = mxsim_gpu_xpower_load(ctx, path, &pw);
    if (st != MXSIM_OK) {
        fz_check_failure(ctx, st);
        fz_check(pw == NULL);
        return 0;
    }
    const double w = mxsim_gpu_xpower_watts(pw, "cublas-bf16", 16, 4096, 4096, 0);
    fz_check(isfinite(w) && w >= 0);
    fz_check(mxsim_gpu_xpower_card(pw) != NULL);
    mxsim_gpu_xpower_free(pw);
    return 0;
}

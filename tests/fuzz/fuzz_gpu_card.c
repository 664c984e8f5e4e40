/* fuzz_gpu_card.c - the GPU card INI reader (sim/src/gpumodel) through mxsim_gpu_card_load.
** Invariants: a refusal names the file; an accepted card has every field finite and > 0 (the
** reader's promise), and predicts a GEMM, a dequant and a copy with finite, non-negative times
** or refuses with a message. */
#include <math.h>

#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_gpu_card card;
    const char *path = fz_write("in.ini", data, size);
    mxsim_status st = mxsim_gpu_card_load(ctx, path, &card);
    if (st != MXSIM_OK) {
        fz_check_failure(ctx, st);
        fz_check(strstr(mxsim_errmsg(ctx), "in.ini") != NULL);
        return 0;
    }
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        double v = mxsim_gpu_card_get(&card, i);
        fz_check(isfinite(v) && v > 0);
    }
    static const mxsim_gpu_op ops[] = {
        {MXSIM_GK_MXK_GEMM, 0, 256, 512, 1024, 32},
        {MXSIM_GK_DEQUANT_OCP, 0, 1 << 20, 1, 1, 32},
        {MXSIM_GK_COPY, 0, 1 << 20, 1, 1, 0},
        {MXSIM_GK_CUBLAS_BF16, 0, 64, 64, 64, 0},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        mxsim_gpu_pred p;
        st = mxsim_gpu_predict(ctx, &card, &ops[i], &p);
        if (st != MXSIM_OK) {
            fz_check_failure(ctx, st);
            continue;
        }
        fz_check(!isnan(p.time_us) && p.time_us >= 0);
    }
    return 0;
}

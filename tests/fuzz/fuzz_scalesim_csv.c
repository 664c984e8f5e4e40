/* fuzz_scalesim_csv.c - SCALE-Sim topology CSV import (trace.c) through
** mxsim_trace_import_scalesim, in both its modes: trailing comma required (1) and optional (0).
** What the strict mode accepts, the lenient one must accept identically. */
#include "fuzz_trace_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    const char *path = fz_write("in.csv", data, size);
    mxsim_trace *lenient = NULL, *strict = NULL;
    mxsim_status sl = mxsim_trace_import_scalesim(ctx, path, 0, &lenient);
    if (sl != MXSIM_OK) {
        fz_check(lenient == NULL);
        fz_check_failure(ctx, sl);
    }
    mxsim_status ss = mxsim_trace_import_scalesim(ctx, path, 1, &strict);
    if (ss != MXSIM_OK) {
        fz_check(strict == NULL);
        fz_check_failure(ctx, ss);
    } else {
        fz_check(sl == MXSIM_OK);
        fz_check(mxsim_trace_count(strict) == mxsim_trace_count(lenient));
        for (int64_t i = 0; i < mxsim_trace_count(strict); i++)
            fz_check(fz_same_op(mxsim_trace_op(strict, i), mxsim_trace_op(lenient, i)));
        mxsim_trace_free(strict);
    }
    if (lenient != NULL) fz_check_trace(ctx, lenient, 0);
    return 0;
}

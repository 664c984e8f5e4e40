/* fuzz_scalesim_csv.c - SCALE-Sim topology CSV import (trace.c) through
** mxsim_trace_import_scalesim, in both its comma modes: trailing comma required
** (MXSIM_IMPORT_REQUIRE_COMMA) and optional (0).  What the strict mode accepts, the lenient one
** must accept identically.  SCALE-Sim's model (MXSIM_IMPORT_SCALESIM_MODEL: conv output size,
** depthwise layers) accepts exactly what the lenient mode accepts, with as many ops. */
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
    mxsim_status ss = mxsim_trace_import_scalesim(ctx, path, MXSIM_IMPORT_REQUIRE_COMMA, &strict);
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
    mxsim_trace *model = NULL;
    mxsim_status sm = mxsim_trace_import_scalesim(ctx, path, MXSIM_IMPORT_SCALESIM_MODEL, &model);
    fz_check((sm == MXSIM_OK) == (sl == MXSIM_OK));
    if (sm != MXSIM_OK) {
        fz_check(model == NULL);
        fz_check_failure(ctx, sm);
    } else {
        fz_check(mxsim_trace_count(model) == mxsim_trace_count(lenient));
        fz_check_trace(ctx, model, 0); /* frees it */
    }
    /* SCALE-Sim 3.0.0's reading (a 9th conv value is a sparsity ratio): any outcome, but a clean one */
    mxsim_trace *v3 = NULL;
    mxsim_status s3 = mxsim_trace_import_scalesim(ctx, path, MXSIM_IMPORT_SCALESIM_MODEL | MXSIM_IMPORT_SCALESIM_V3, &v3);
    if (s3 != MXSIM_OK) {
        fz_check(v3 == NULL);
        fz_check_failure(ctx, s3);
    } else {
        fz_check_trace(ctx, v3, 0); /* frees it */
    }
    if (lenient != NULL) fz_check_trace(ctx, lenient, 0);
    return 0;
}

/* fuzz_trace.c - the mxsim text trace reader (trace.c) through mxsim_trace_load on a plain file. */
#include "fuzz_trace_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_trace *t = NULL;
    mxsim_status st = mxsim_trace_load(ctx, fz_write("in.trace", data, size), &t);
    fz_check_loaded(ctx, st, t, 0);
    return 0;
}

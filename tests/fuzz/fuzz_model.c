/* fuzz_model.c - model definitions (tgen.c, workloads/models/NAME.model) through mxsim_trace_gen:
** transformer keys and explicit gemm/conv layers become a trace. */
#include "fuzz_trace_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_trace *t = NULL;
    mxsim_status st = mxsim_trace_gen(ctx, fz_write("in.model", data, size), &t);
    fz_check_loaded(ctx, st, t, 0);
    return 0;
}

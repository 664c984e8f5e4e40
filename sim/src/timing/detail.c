/* detail.c - placeholder replaced below */
#include "tinternal.h"
mxsim_status mx_tdetail_run(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mx_tarch *a,
                            const mx_top_resolved *op, const mx_ttiling *t, const char *trace_path,
                            mxsim_tstats *st)
{
    (void)cfg; (void)a; (void)op; (void)t; (void)trace_path; (void)st;
    return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "detail: not built");
}

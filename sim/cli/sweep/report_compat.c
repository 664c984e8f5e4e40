/* report_compat.c - the two message helpers sim/cli/sweep/cmd_report.c calls, on the CLI's one
** exit map (cli_util.c). */
#include <stdio.h>

#include "sweep/cmd_sweep.h"

int mxs_usage(const char *cmd, const char *msg, const char *arg)
{
    (void)cmd; /* cli_cmd already names the command */
    return cli_usage("%s%s%s", msg, arg ? " " : "", arg ? arg : ""); /* escapes control bytes of arg */
}

int mxs_fail(const char *cmd, mxsim_ctx *ctx, mxsim_status st)
{
    (void)cmd; /* cli_cmd already names the command */
    return cli_fail(ctx, st);
}

/* cmd_sweep.h - the sweep commands of the mxsim CLI: sweep, cost, report. */
#ifndef MXSIM_CMD_SWEEP_H
#define MXSIM_CMD_SWEEP_H
#include "cli_util.h"

extern const cli_command mxsim_cmd_sweep, mxsim_cmd_cost, mxsim_cmd_report, mxsim_cmd_merge;

/* `mxsim report` (cmd_report.c) parses its own arguments and reports with these two. */
int mxsim_cli_report(int argc, char **argv, mxsim_ctx *ctx);
int mxs_usage(const char *cmd, const char *msg, const char *arg);
int mxs_fail(const char *cmd, mxsim_ctx *ctx, mxsim_status st);
#endif

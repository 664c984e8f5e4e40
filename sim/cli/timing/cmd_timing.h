/* cmd_timing.h - the timing commands of the mxsim CLI: run, trace, config, memory. */
#ifndef MXSIM_CMD_TIMING_H
#define MXSIM_CMD_TIMING_H
#include "cli_util.h"
extern const cli_command mxsim_cmd_run, mxsim_cmd_trace, mxsim_cmd_config, mxsim_cmd_memory;
/* The configuration of --config, --set (and run's shorthands): shared with sweep and cost. */
int mxsim_cli_build_config(const cli_command *c, const cli_args *a, mxsim_ctx *ctx, mxsim_tconfig *cfg);
#endif

/* cmd_sweep.h - the sweep commands of the mxsim CLI: sweep, cost, report. */
#ifndef MXSIM_CMD_SWEEP_H
#define MXSIM_CMD_SWEEP_H
#include <stddef.h>

#include "cli_util.h"
#include "mxsim.h"

extern const cli_command mxsim_cmd_sweep, mxsim_cmd_cost, mxsim_cmd_report;

/* ---- used by cmd_report.c only (report_compat.c); they leave with it ---- */
int mxsim_cli_report(int argc, char **argv, mxsim_ctx *ctx);
int mxs_usage(const char *cmd, const char *msg, const char *arg);
/* `mxsim report`, built in memory: the charts, README.md and index.html of a sweep CSV.  Returns
** the exit code (0, 1 runtime failure, 2 bad input with file:line and field in err); nothing is
** printed or written, so the CLI writes the files only when every one of them is whole. */
#define MXS_REPORT_FILES 8
typedef struct {
    const char *name; /* file name inside the report directory */
    cli_buf buf;
} mxs_report_file;
int mxs_report_build(const char *csv_path, mxsim_ctx *ctx, mxs_report_file out[MXS_REPORT_FILES], char *err, size_t elen);
void mxs_report_free(mxs_report_file out[MXS_REPORT_FILES]);
/* Appends the constants table (and node scaling) in Markdown / HTML. */
void mxs_constants_md(cli_buf *b, const mxsim_node_scale *sc);
void mxs_constants_html(cli_buf *b, const mxsim_node_scale *sc);
#endif

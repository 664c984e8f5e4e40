/* report.h - the sweep report built in memory (mxsim_report_build writes it; tests and the fuzz
** target read it here, with the layout of every chart). */
#ifndef MX_REPORT_H
#define MX_REPORT_H

#include "report/chart.h"

#define MX_REPORT_CHARTS 7
#define MX_REPORT_FILES (2 * MX_REPORT_CHARTS + 2)

typedef struct {
    const char *name; /* file name inside the report directory (static storage) */
    mx_buf buf;
} mx_report_file;

typedef struct {
    mx_report_file file[MX_REPORT_FILES]; /* per chart NAME.svg, NAME.csv; then README.md, index.html */
    mx_chart_layout layout[MX_REPORT_CHARTS];
    int n_ok, n_failed; /* design points */
} mx_report_out;

/* Reads and checks both inputs, builds every file.  meta_path NULL: derived from csv_path. */
MX_INTERNAL mxsim_status mx_report_render(mxsim_ctx *ctx, const char *csv_path, const char *meta_path,
                                          mx_report_out *out);
MX_INTERNAL void mx_report_out_free(mx_report_out *o);

#endif

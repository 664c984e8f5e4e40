/* cmd_report.c - `mxsim report RESULTS.csv -o DIR [--meta FILE]`: the report of a sweep.
**
** Parses the options and calls mxsim_report_build (mxsim.h "Report"), which reads the CSV and its
** typed sidecar (RESULTS.meta.json unless --meta names another), and writes DIR/index.html,
** DIR/README.md and each chart as SVG + CSV, all or nothing.  Exit 0, 2 on bad input or usage,
** 1 on a runtime failure (cli_exit_code).
*/
#include <stdio.h>
#include <string.h>

#include "sweep/cmd_sweep.h"

int mxsim_cli_report(int argc, char **argv, mxsim_ctx *ctx)
{
    static const char *C = "report";
    const char *in = NULL, *dir = NULL;
    mxsim_report_opts opts = {NULL};
    for (int i = 0; i < argc; i++) {
        const char **slot = !strcmp(argv[i], "-o") ? &dir : !strcmp(argv[i], "--meta") ? &opts.meta_path : NULL;
        if (slot) {
            if (i + 1 >= argc) return mxs_usage(C, "option needs a value:", argv[i]);
            if (*slot) return mxs_usage(C, "given twice (it takes one value):", argv[i]); /* one used to win silently */
            *slot = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            return mxs_usage(C, "unknown option", argv[i]);
        } else if (!in) {
            in = argv[i];
        } else {
            return mxs_usage(C, "unexpected argument", argv[i]);
        }
    }
    if (!in || !dir) return mxs_usage(C, "expected RESULTS.csv -o DIR", NULL);
    if (!strcmp(dir, "-")) return mxs_usage(C, "-o -: the report is a directory (DIR/index.html, ...); give its name:", dir);
    mxsim_status st = mxsim_report_build(ctx, in, dir, &opts);
    if (st != MXSIM_OK) return mxs_fail(C, ctx, st);
    int n = (int)strlen(dir);
    while (n > 1 && dir[n - 1] == '/') n--; /* -o reports/mine/ printed reports/mine//index.html */
    fprintf(stderr, "mxsim report: wrote %.*s/index.html, %.*s/README.md and 7 charts (SVG + CSV)\n", n, dir, n, dir);
    return 0;
}

/* fuzz_report.c - the sweep-results CSV reader and report builder of `mxsim report`
** (sim/cli/sweep/cmd_report.c) through mxs_report_build, which builds every output in memory
** and prints nothing.  The report is the one CLI-side parser: users hand-edit and merge these
** CSVs, and the charts turn their numbers into SVG coordinates.
**
** Invariants: a refusal is a bad-input status (2) whose message names the file; an accepted
** file yields the 8 outputs whole (each SVG one <svg>...</svg>, index.html embedding exactly
** the 6 charts, so no user text escaped the HTML escaping), and no coordinate, size or
** transform in any chart is NaN or infinite. */
#include "fuzz_common.h"
#include "sweep/cmd_sweep.h"

/* Linear scans (strstr from the start of a long buffer per match is quadratic under ASan), kept
** out of the coverage feedback: the checks are not the code under test. */
#if defined(__clang__)
#define FZ_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FZ_NO_COVERAGE
#endif

FZ_NO_COVERAGE static int starts(const char *p, const char *prefix) /* no libc: its hooks cost more */
{
    while (*prefix && *p == *prefix) p++, prefix++;
    return *prefix == '\0';
}

FZ_NO_COVERAGE static size_t count(const char *s, const char *needle)
{
    size_t n = 0;
    for (const char *p = s; *p; p++) n += starts(p, needle);
    return n;
}

/* Geometry attributes hold numbers only; user text goes between tags, never in these. */
FZ_NO_COVERAGE static void check_geometry(const char *svg)
{
    static const char *const attrs[] = {" x=\"", " y=\"", " cx=\"", " cy=\"", " r=\"", " width=\"",
                                        " height=\"", " points=\"", " transform=\"", " viewBox=\""};
    for (const char *p = svg; *p; p++) {
        if (*p != ' ') continue;
        for (size_t a = 0; a < sizeof attrs / sizeof attrs[0]; a++) {
            if (!starts(p, attrs[a])) continue;
            const char *q = p + 1;
            while (*q != '"') q++; /* the attribute's opening quote */
            for (q++; *q && *q != '"'; q++)
                fz_check(!starts(q, "nan") && !starts(q, "inf") && *q != '<' && *q != '>');
            fz_check(*q == '"');
            p = q;
            break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fz_write("in.csv", data, size);
    mxs_report_file out[MXS_REPORT_FILES];
    char err[512] = "";
    int rc = mxs_report_build(path, fz_ctx(), out, err, sizeof err);
    if (rc != 0) {
        fz_check(rc == 2);
        fz_check(strstr(err, path) == err); /* "PATH[:LINE]: field '...': ..." */
        fz_check(strstr(err, "field '") != NULL);
    } else {
        for (int i = 0; i < MXS_REPORT_FILES; i++) {
            const cli_buf *b = &out[i].buf;
            fz_check(!b->oom && b->p != NULL && b->n == strlen(b->p));
            fz_touch(b->p, b->n);
            size_t L = strlen(out[i].name);
            if (L > 4 && !strcmp(out[i].name + L - 4, ".svg")) {
                fz_check(!strncmp(b->p, "<svg ", 5));
                fz_check(count(b->p, "<svg ") == 1 && count(b->p, "</svg>") == 1);
                fz_check(b->n >= 7 && !strcmp(b->p + b->n - 7, "</svg>\n"));
                check_geometry(b->p);
            } else if (!strcmp(out[i].name, "index.html")) {
                fz_check(!strncmp(b->p, "<!DOCTYPE html>", 15));
                fz_check(b->n >= 15 && !strcmp(b->p + b->n - 15, "</body></html>\n"));
                fz_check(count(b->p, "<svg ") == 6 && count(b->p, "</svg>") == 6);
                fz_check(count(b->p, "<script") == 0);
                check_geometry(b->p);
            }
        }
    }
    mxs_report_free(out);
    return 0;
}

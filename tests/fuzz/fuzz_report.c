/* fuzz_report.c - the sweep report's readers (sim/src/report: the RFC 4180 CSV reader, the strict
** JSON reader of the sidecar, their cross-checks) and the chart kit, through mx_report_render,
** which builds every output in memory and writes nothing.
**
** Input: the sidecar (NAME.meta.json), a line "----", then the CSV.  The separator cannot occur
** in valid JSON; without it the whole input is the CSV and the sidecar is missing.
** Invariants: a refusal is MXSIM_E_INPUT or MXSIM_E_LIMIT whose message starts with one of the
** two paths and names a field; an accepted pair yields every file whole (each SVG one
** <svg>...</svg>, index.html embedding exactly the 7 charts, so no user text escaped the HTML
** escaping), no coordinate, size or transform is NaN or infinite, and every text box of every
** chart's layout lies inside its canvas. */
#include "fuzz_common.h"
#include "report/report.h"

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
    static const char *const attrs[] = {" x=\"", " y=\"", " cx=\"", " cy=\"", " r=\"", " width=\"", " height=\"",
                                        " d=\"", " x1=\"", " y1=\"", " transform=\"", " viewBox=\""};
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

FZ_NO_COVERAGE static const uint8_t *find_sep(const uint8_t *d, size_t n)
{
    for (size_t i = 0; i + 6 <= n; i++)
        if (d[i] == '\n' && !memcmp(d + i, "\n----\n", 6)) return d + i;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *sep = find_sep(data, size);
    char meta[400]; /* fz_write's path is a static buffer: copied before the next call */
    snprintf(meta, sizeof meta, "%s", sep ? fz_write("in.meta.json", data, (size_t)(sep - data)) : fz_path("absent.meta.json"));
    const uint8_t *csv_data = sep ? sep + 6 : data;
    const char *csv = fz_write("in.csv", csv_data, size - (size_t)(csv_data - data));
    mx_report_out out;
    mxsim_ctx *ctx = fz_ctx();
    mxsim_status st = mx_report_render(ctx, csv, meta, &out);
    if (st != MXSIM_OK) {
        const char *m = mxsim_errmsg(ctx);
        fz_check(st == MXSIM_E_INPUT || st == MXSIM_E_LIMIT);
        fz_check(strstr(m, csv) == m || strstr(m, meta) == m); /* "PATH[:LINE]: field '...': ..." */
        fz_check(strstr(m, "field '") != NULL);
        return 0;
    }
    for (int i = 0; i < MX_REPORT_FILES; i++) {
        const mx_buf *b = &out.file[i].buf;
        fz_check(!b->oom && b->p != NULL && b->n == strlen(b->p));
        fz_touch(b->p, b->n);
        size_t L = strlen(out.file[i].name);
        if (L > 4 && !strcmp(out.file[i].name + L - 4, ".svg")) {
            fz_check(!strncmp(b->p, "<svg ", 5));
            fz_check(count(b->p, "<svg ") == 1 && count(b->p, "</svg>") == 1);
            fz_check(b->n >= 7 && !strcmp(b->p + b->n - 7, "</svg>\n"));
            check_geometry(b->p);
        } else if (!strcmp(out.file[i].name, "index.html")) {
            fz_check(!strncmp(b->p, "<!DOCTYPE html>", 15));
            fz_check(b->n >= 15 && !strcmp(b->p + b->n - 15, "</body></html>\n"));
            fz_check(count(b->p, "<svg ") == MX_REPORT_CHARTS && count(b->p, "</svg>") == MX_REPORT_CHARTS);
            fz_check(count(b->p, "<script") == 0);
        }
    }
    for (int k = 0; k < MX_REPORT_CHARTS; k++) {
        const mx_chart_layout *L = &out.layout[k];
        for (int i = 0; i < L->n_box; i++) {
            const mx_box *b = &L->box[i];
            fz_check(b->x >= 0 && b->y >= 0 && b->x + b->w <= L->w && b->y + b->h <= L->h);
        }
    }
    mx_report_out_free(&out);
    return 0;
}

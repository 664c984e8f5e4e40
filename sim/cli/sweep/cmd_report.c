/* cmd_report.c - `mxsim report RESULTS.csv -o DIR`: Markdown + HTML report of a sweep.
**
** Reads the CSV that `mxsim sweep` writes (its `#` header lines carry the version, trace, config
** and model settings), and writes DIR/README.md, DIR/index.html (self-contained: inline SVG,
** inline CSS, no scripts, nothing fetched) and the charts as DIR/NAME.svg: cycles, energy and SQNR
** against group size (one series per value of the other axes), stacked area and energy
** breakdowns per point, and the latency/energy Pareto front annotated with SQNR.  The plotting
** is ours (a few lines of SVG).  Ignored: interactive features; charts use a log scale when a
** series spans more than 30x.
*/
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "sweep/cmd_sweep.h"

#define MAX_COLS 128

typedef struct {
    char **hdr;   /* the '#' lines, without "# " */
    int n_hdr, cap_hdr;
    char *col[MAX_COLS];
    int n_cols;
    char ***rows; /* rows[r][c] */
    int *line;    /* line[r]: 1-based line number of row r in the file, for messages */
    int n_rows, cap_rows;
    int n_axes;   /* columns 1..n_axes */
} table;

static void table_free(table *t)
{
    for (int i = 0; i < t->n_hdr; i++) free(t->hdr[i]);
    free(t->hdr);
    for (int i = 0; i < t->n_cols; i++) free(t->col[i]);
    for (int r = 0; r < t->n_rows; r++) {
        for (int c = 0; c < t->n_cols; c++) free(t->rows[r][c]);
        free(t->rows[r]);
    }
    free(t->rows);
    free(t->line);
}

static void free_fields(char **f, int n)
{
    for (int i = 0; i < n; i++) free(f[i]);
}

/* Splits one CSV line (RFC 4180 quoting, no embedded newlines) into fields; -1 (nothing left
** allocated) when there are more than max fields or memory runs out. */
static int split_csv(const char *line, char **out, int max)
{
    int n = 0;
    const char *p = line;
    for (;;) {
        size_t cap = strlen(p) + 1, k = 0;
        char *f = n < max ? malloc(cap) : NULL;
        if (!f) {
            free_fields(out, n);
            return -1;
        }
        if (*p == '"') {
            p++;
            while (*p && !(*p == '"' && p[1] != '"')) {
                if (*p == '"') p++;
                f[k++] = *p++;
            }
            if (*p == '"') p++;
        } else {
            while (*p && *p != ',') f[k++] = *p++;
        }
        f[k] = '\0';
        out[n++] = f;
        if (*p != ',') break;
        p++;
    }
    return n;
}

static int load_csv(const char *path, table *t, char *err, size_t elen)
{
    memset(t, 0, sizeof *t);
    struct stat sb;
    if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) { /* a directory or FIFO would read as empty or block */
        snprintf(err, elen, "%s: %s, expected a regular file", path, S_ISDIR(sb.st_mode) ? "is a directory" : "not a regular file");
        return 2;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, elen, "%s: %s", path, strerror(errno));
        return 1;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    int lineno = 0, rc = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (line[0] == '#') {
            if (t->n_hdr == t->cap_hdr) {
                int nc = t->cap_hdr ? 2 * t->cap_hdr : 32;
                char **nh = realloc(t->hdr, (size_t)nc * sizeof *nh);
                if (!nh) { rc = 1; snprintf(err, elen, "out of memory"); break; }
                t->hdr = nh;
                t->cap_hdr = nc;
            }
            if (!(t->hdr[t->n_hdr] = strdup(line[1] == ' ' ? line + 2 : line + 1))) {
                rc = 1;
                snprintf(err, elen, "out of memory");
                break;
            }
            t->n_hdr++;
            continue;
        }
        if (len == 0) continue;
        if (t->n_cols == 0) {
            static const char *const fixed[] = {"profile", "status", "op", "kind"};
            t->n_cols = split_csv(line, t->col, MAX_COLS);
            if (t->n_cols < 0) {
                t->n_cols = 0;
                snprintf(err, elen, "%s:%d: field 'header': more than %d columns", path, lineno, MAX_COLS);
                rc = 2;
                break;
            }
            while (t->n_axes + 1 < t->n_cols && strcmp(t->col[t->n_axes + 1], "profile")) t->n_axes++;
            int ok = !strcmp(t->col[0], "point") && t->n_axes + 5 <= t->n_cols;
            for (int i = 0; ok && i < 4; i++) ok = !strcmp(t->col[t->n_axes + 1 + i], fixed[i]);
            if (!ok) {
                snprintf(err, elen, "%s:%d: field 'header': not an mxsim sweep CSV (expected "
                                    "'point,AXES...,profile,status,op,kind,...')", path, lineno);
                rc = 2;
                break;
            }
            for (int i = 0; i < t->n_cols && !rc; i++)
                for (int j = 0; j < i && !rc; j++)
                    if (!strcmp(t->col[i], t->col[j])) {
                        snprintf(err, elen, "%s:%d: field 'header': column '%.64s' appears twice", path, lineno, t->col[i]);
                        rc = 2;
                    }
            if (rc) break;
            continue;
        }
        if (t->n_rows == t->cap_rows) {
            int nc = t->cap_rows ? 2 * t->cap_rows : 256;
            char ***nr = realloc(t->rows, (size_t)nc * sizeof *nr);
            if (nr) t->rows = nr;
            int *nl = nr ? realloc(t->line, (size_t)nc * sizeof *nl) : NULL;
            if (!nl) { rc = 1; snprintf(err, elen, "out of memory"); break; }
            t->line = nl;
            t->cap_rows = nc;
        }
        char **row = calloc((size_t)t->n_cols, sizeof *row);
        char *tmp[MAX_COLS];
        int n = row ? split_csv(line, tmp, MAX_COLS) : -1;
        if (n != t->n_cols) {
            free_fields(tmp, n);
            free(row);
            if (n < 0) snprintf(err, elen, "%s:%d: field 'row': more than %d values (or out of memory)", path, lineno, MAX_COLS);
            else snprintf(err, elen, "%s:%d: field 'row': %d values, header has %d", path, lineno, n, t->n_cols);
            rc = 2;
            break;
        }
        memcpy(row, tmp, (size_t)n * sizeof *row);
        t->line[t->n_rows] = lineno;
        t->rows[t->n_rows++] = row;
    }
    free(line);
    fclose(f);
    if (rc == 0 && t->n_cols == 0) {
        snprintf(err, elen, "%s: field 'header': no header row", path);
        rc = 2;
    }
    return rc;
}

/* A fixed or metric column (profile onwards): an axis may carry any name, "time_us" included. */
static int col(const table *t, const char *name)
{
    for (int i = t->n_axes + 1; i < t->n_cols; i++)
        if (!strcmp(t->col[i], name)) return i;
    return -1;
}

static double num(const char *s) { return strtod(s, NULL); }

static const char *hdr_value(const table *t, const char *key)
{
    size_t L = strlen(key);
    for (int i = 0; i < t->n_hdr; i++)
        if (!strncmp(t->hdr[i], key, L) && t->hdr[i][L] == ':') return t->hdr[i] + L + (t->hdr[i][L + 1] == ' ' ? 2 : 1);
    return "";
}

/* ---- SVG charts ------------------------------------------------------------------------- */

static const char *const k_pal[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                                    "#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"};
#define NPAL 12
#define LEGEND_MAX 16 /* legend rows that fit beside the plot */
#define W 640
#define H 360
#define ML 80
#define MR 170
#define MT 36
#define MB 50

typedef struct {
    double lo, hi;
    int log;
} scale_t;

static scale_t mk_scale(double lo, double hi, int allow_log)
{
    scale_t s = {lo, hi, 0};
    if (allow_log && lo > 0 && hi / lo > 30) {
        s.log = 1;
        s.lo = pow(10, floor(log10(lo)));
        s.hi = pow(10, ceil(log10(hi)));
    } else {
        if (!(hi > lo)) { /* one value: a band around it, relative so that it survives rounding at any magnitude */
            double d = fmax(fabs(lo) * 0.05, 1e-300);
            hi = lo + d;
            lo = lo - d;
        }
        double pad = 0.05 * (hi - lo);
        s.lo = lo - pad;
        s.hi = hi + pad;
    }
    return s;
}

static double map(const scale_t *s, double v, double a, double b)
{
    double t = s->log ? (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo)) : (v - s->lo) / (s->hi - s->lo);
    return a + t * (b - a);
}

static void svg_open(cli_buf *b, const char *title)
{
    cli_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
                  "font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
                  "<text x=\"%d\" y=\"20\" font-size=\"14\" font-weight=\"bold\">", W, H, W, H, W, H, ML);
    cli_puts_html(b, title);
    cli_printf(b, "</text>\n");
}

/* x_log2: 1 ticks at powers of two, 0 linear ticks, -1 none. */
static void axes_draw(cli_buf *b, const scale_t *xs, const scale_t *ys, const char *xl, const char *yl, int x_log2)
{
    int x0 = ML, x1 = W - MR, y0 = H - MB, y1 = MT;
    cli_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>\n", x0, y1, x1 - x0, y0 - y1);
    for (int i = 0; i <= 4; i++) { /* y ticks */
        double v = ys->log ? pow(10, log10(ys->lo) + i * (log10(ys->hi) - log10(ys->lo)) / 4) : ys->lo + i * (ys->hi - ys->lo) / 4;
        double y = map(ys, v, y0, y1);
        cli_printf(b, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
                      "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.3g</text>\n", x0, x1, y, y, x0 - 4, y + 4, v);
    }
    if (x_log2 < 0) {
        /* no x ticks (bar charts label their bars) */
    } else if (x_log2) {
        double octaves = log2(xs->hi) - log2(xs->lo), step = pow(2, octaves > 16 ? ceil(octaves / 16) : 1);
        for (double v = pow(2, ceil(log2(xs->lo))); v <= xs->hi * 1.0001; v *= step) {
            double x = map(xs, v, x0, x1);
            cli_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%g</text>\n", x, y0 + 14, v);
        }
    } else {
        for (int i = 0; i <= 4; i++) {
            double v = xs->log ? pow(10, log10(xs->lo) + i * (log10(xs->hi) - log10(xs->lo)) / 4) : xs->lo + i * (xs->hi - xs->lo) / 4;
            cli_printf(b, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%.3g</text>\n", map(xs, v, x0, x1), y0 + 14, v);
        }
    }
    cli_printf(b, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">", (x0 + x1) / 2, H - 12);
    cli_puts_html(b, xl);
    cli_printf(b, "</text>\n<text transform=\"translate(16,%d) rotate(-90)\" text-anchor=\"middle\">", (y0 + y1) / 2);
    cli_puts_html(b, yl);
    cli_printf(b, "%s</text>\n", ys->log ? " (log)" : "");
}

/* Point selection helpers: TOTAL rows with status ok. */
typedef struct {
    int *r; /* row indices of TOTAL rows */
    int n;
} totals;

static int series_key(const table *t, int row, int xcol, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (int a = 1; a <= t->n_axes; a++) {
        if (a == xcol) continue;
        k += (size_t)snprintf(out + k, k < len ? len - k : 0, "%s%s=%s", k ? " " : "", t->col[a], t->rows[row][a]);
        if (k >= len) break;
    }
    if (!out[0]) snprintf(out, len, "all");
    return 0;
}

/* The series of a line chart: points with equal values of the other axes, numbered in order of
** first appearance.  Built by sorting the keys, so sweeps of many points stay O(n log n). */
typedef struct {
    char (*key)[160]; /* key[i]: the series key of point i */
    int *pts;         /* the points grouped by series, each series in point order */
    int *start;       /* series s is pts[start[s] .. start[s + 1]) */
    int n;
} series_set;

typedef struct {
    const char *key;
    int i;
} key_ref;

static int key_ref_cmp(const void *pa, const void *pb)
{
    const key_ref *a = pa, *b = pb;
    int c = strcmp(a->key, b->key);
    return c ? c : a->i - b->i;
}

static void series_free(series_set *ss)
{
    free(ss->key);
    free(ss->pts);
    free(ss->start);
}

static int series_build(const table *t, const totals *tt, int xcol, series_set *ss)
{
    int n = tt->n;
    memset(ss, 0, sizeof *ss);
    ss->key = malloc((size_t)n * sizeof *ss->key);
    ss->pts = malloc((size_t)n * sizeof *ss->pts);
    ss->start = calloc((size_t)n + 1, sizeof *ss->start);
    key_ref *refs = malloc((size_t)n * sizeof *refs);
    int *gid = malloc((size_t)n * sizeof *gid), *rank = malloc((size_t)n * sizeof *rank);
    int *group_of_first = malloc((size_t)n * sizeof *group_of_first);
    int rc = -1;
    if (!ss->key || !ss->pts || !ss->start || !refs || !gid || !rank || !group_of_first) goto out;
    for (int i = 0; i < n; i++) {
        series_key(t, tt->r[i], xcol, ss->key[i], sizeof ss->key[i]);
        refs[i] = (key_ref){ss->key[i], i};
        group_of_first[i] = -1;
    }
    qsort(refs, (size_t)n, sizeof *refs, key_ref_cmp);
    int ng = 0;
    for (int q = 0; q < n; q++) {
        if (q == 0 || strcmp(refs[q].key, refs[q - 1].key)) group_of_first[refs[q].i] = ng++; /* lowest i of its key */
        gid[refs[q].i] = ng - 1;
    }
    for (int i = 0, r = 0; i < n; i++)
        if (group_of_first[i] >= 0) rank[group_of_first[i]] = r++;
    for (int i = 0; i < n; i++) ss->start[rank[gid[i]] + 1]++;
    for (int s = 0; s < ng; s++) ss->start[s + 1] += ss->start[s];
    int *fill = group_of_first; /* done with: now the next free slot of each series */
    for (int s = 0; s < ng; s++) fill[s] = ss->start[s];
    for (int i = 0; i < n; i++) ss->pts[fill[rank[gid[i]]]++] = i;
    ss->n = ng;
    rc = 0;
out:
    free(refs);
    free(gid);
    free(rank);
    free(group_of_first);
    if (rc) series_free(ss);
    return rc;
}

/* Line chart of metric against the x axis column, one series per value of the other axes. */
static void chart_lines(cli_buf *b, const table *t, const totals *tt, int xcol, const char *metric, const char *title, const char *ylabel)
{
    int mc = col(t, metric);
    svg_open(b, title);
    if (mc < 0 || tt->n == 0) {
        cli_printf(b, "<text x=\"%d\" y=\"%d\">no data</text>\n</svg>\n", ML, H / 2);
        return;
    }
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int i = 0; i < tt->n; i++) {
        double x = xcol > 0 ? num(t->rows[tt->r[i]][xcol]) : i, y = num(t->rows[tt->r[i]][mc]);
        if (!isfinite(y)) continue;
        xlo = fmin(xlo, x); xhi = fmax(xhi, x); ylo = fmin(ylo, y); yhi = fmax(yhi, y);
    }
    if (!isfinite(ylo)) {
        cli_printf(b, "<text x=\"%d\" y=\"%d\">no finite values</text>\n</svg>\n", ML, H / 2);
        return;
    }
    int xlog2 = xcol > 0 && xlo > 0 && xhi / xlo >= 4;
    scale_t xs = xlog2 ? (scale_t){xlo / 1.2, xhi * 1.2, 1} : mk_scale(xlo, xhi, 0);
    scale_t ys = mk_scale(ylo, yhi, 1);
    axes_draw(b, &xs, &ys, xcol > 0 ? t->col[xcol] : "point", ylabel, xlog2);
    /* every series is drawn; the legend lists the first LEGEND_MAX (colours repeat after NPAL) */
    series_set ss;
    if (series_build(t, tt, xcol, &ss) != 0) {
        b->oom = 1;
        return;
    }
    for (int s = 0; s < ss.n; s++) {
        const char *c = k_pal[s % NPAL];
        for (int pass = 0; pass < 2; pass++) { /* the line, then its markers */
            if (pass == 0) cli_printf(b, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", c);
            for (int q = ss.start[s]; q < ss.start[s + 1]; q++) {
                int i = ss.pts[q];
                double y = num(t->rows[tt->r[i]][mc]);
                if (!isfinite(y)) continue;
                double x = xcol > 0 ? num(t->rows[tt->r[i]][xcol]) : i;
                if (pass == 0) cli_printf(b, "%.1f,%.1f ", map(&xs, x, ML, W - MR), map(&ys, y, H - MB, MT));
                else cli_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n", map(&xs, x, ML, W - MR), map(&ys, y, H - MB, MT), c);
            }
            if (pass == 0) cli_printf(b, "\"/>\n");
        }
        if (s < LEGEND_MAX) {
            cli_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                       W - MR + 10, MT + 4 + 16 * s, c, W - MR + 24, MT + 13 + 16 * s);
            cli_puts_html(b, ss.key[ss.pts[ss.start[s]]]);
            cli_printf(b, "</text>\n");
        }
    }
    if (ss.n > LEGEND_MAX)
        cli_printf(b, "<text x=\"%d\" y=\"%d\">(+%d more series)</text>\n", W - MR + 10, MT + 13 + 16 * LEGEND_MAX, ss.n - LEGEND_MAX);
    series_free(&ss);
    cli_printf(b, "</svg>\n");
}

static void point_label(const table *t, int row, char *out, size_t len)
{
    size_t k = 0;
    out[0] = '\0';
    for (int a = 1; a <= t->n_axes && k < len; a++)
        k += (size_t)snprintf(out + k, len - k, "%s%s", k ? "/" : "", t->rows[row][a]);
    if (!out[0]) snprintf(out, len, "%s", t->rows[row][0]);
}

/* Stacked bars of the columns starting with prefix (e_*_mj or a_*_mm2), one bar per point. */
static void chart_stacked(cli_buf *b, const table *t, const totals *tt, const char *prefix, const char *suffix, const char *title, const char *ylabel)
{
    svg_open(b, title);
    int cs[MAX_COLS], nc = 0;
    size_t lp = strlen(prefix), ls = strlen(suffix);
    for (int c = 0; c < t->n_cols; c++) {
        size_t L = strlen(t->col[c]);
        if (L > lp + ls && !strncmp(t->col[c], prefix, lp) && !strcmp(t->col[c] + L - ls, suffix)) cs[nc++] = c;
    }
    double ymax = 0;
    for (int i = 0; i < tt->n; i++) {
        double s = 0;
        for (int j = 0; j < nc; j++) {
            double v = num(t->rows[tt->r[i]][cs[j]]);
            if (isfinite(v)) s += v;
        }
        ymax = fmax(ymax, s);
    }
    if (tt->n == 0 || nc == 0 || ymax <= 0) {
        cli_printf(b, "<text x=\"%d\" y=\"%d\">no data</text>\n</svg>\n", ML, H / 2);
        return;
    }
    scale_t ys = {0, ymax * 1.05, 0};
    scale_t xs = {0, 1, 0};
    axes_draw(b, &xs, &ys, "", ylabel, -1);
    double bw = (double)(W - MR - ML) / tt->n;
    for (int i = 0; i < tt->n; i++) {
        double acc = 0;
        for (int j = 0; j < nc; j++) {
            double v = num(t->rows[tt->r[i]][cs[j]]);
            if (!isfinite(v) || v <= 0) continue;
            double ya = map(&ys, acc, H - MB, MT), yb = map(&ys, acc + v, H - MB, MT);
            cli_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>\n", ML + i * bw + bw * 0.1,
                       yb, bw * 0.8, ya - yb, k_pal[j % NPAL]);
            acc += v;
        }
        if (tt->n <= 40) {
            char lab[96];
            point_label(t, tt->r[i], lab, sizeof lab);
            double x = ML + (i + 0.5) * bw;
            cli_printf(b, "<text transform=\"translate(%.1f,%d) rotate(-60)\" font-size=\"8\" text-anchor=\"end\">", x, H - MB + 24);
            cli_puts_html(b, lab);
            cli_printf(b, "</text>\n");
        }
    }
    /* legend */
    for (int j = 0; j < nc; j++) {
        char name[96];
        size_t L = strlen(t->col[cs[j]]);
        snprintf(name, sizeof name, "%.*s", (int)(L - lp - ls), t->col[cs[j]] + lp);
        cli_printf(b, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">",
                   W - MR + 10, MT + 4 + 16 * j, k_pal[j % NPAL], W - MR + 24, MT + 13 + 16 * j);
        cli_puts_html(b, name);
        cli_printf(b, "</text>\n");
    }
    cli_printf(b, "</svg>\n");
}

/* Pareto front of (time, energy): points no other point beats on both.  Sorting by (time,
** energy) makes it one pass: a point is on the front iff its energy is below every energy before
** it (equal pairs: all of them are on it), so large sweeps stay O(n log n). */
typedef struct {
    double t, e;
    int i;
} te_point;

static int te_cmp(const void *pa, const void *pb)
{
    const te_point *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->e != b->e) return a->e < b->e ? -1 : 1;
    return a->i - b->i;
}

static void chart_pareto(cli_buf *b, const table *t, const totals *tt)
{
    int ct = col(t, "time_us"), ce = col(t, "energy_mj"), cq = col(t, "sqnr_db");
    svg_open(b, "Latency vs energy: Pareto front (labels: axis values, SQNR dB)");
    if (ct < 0 || ce < 0 || tt->n == 0) {
        cli_printf(b, "<text x=\"%d\" y=\"%d\">no data</text>\n</svg>\n", ML, H / 2);
        return;
    }
    te_point *p = malloc((size_t)tt->n * sizeof *p);
    char *on = calloc((size_t)tt->n, 1);
    if (!p || !on) {
        free(p);
        free(on);
        b->oom = 1;
        return;
    }
    double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY;
    for (int i = 0; i < tt->n; i++) {
        /* finite and >= 0: check_values */
        p[i] = (te_point){num(t->rows[tt->r[i]][ct]), num(t->rows[tt->r[i]][ce]), i};
        xlo = fmin(xlo, p[i].t); xhi = fmax(xhi, p[i].t); ylo = fmin(ylo, p[i].e); yhi = fmax(yhi, p[i].e);
    }
    qsort(p, (size_t)tt->n, sizeof *p, te_cmp);
    double best_e = INFINITY; /* lowest energy among strictly faster points */
    for (int j = 0; j < tt->n;) {
        int k = j;
        while (k < tt->n && p[k].t == p[j].t) k++; /* points of equal time: only the lowest energy can be on it */
        if (k == j) k++;                             /* unreachable (times are finite), but never loop */
        for (int q = j; q < k && p[q].e == p[j].e; q++) on[p[q].i] = p[j].e < best_e;
        best_e = fmin(best_e, p[j].e);
        j = k;
    }
    scale_t xs = mk_scale(xlo, xhi, 1), ys = mk_scale(ylo, yhi, 1);
    axes_draw(b, &xs, &ys, "latency, us", "energy, mJ", 0);
    cli_printf(b, "<polyline fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\" points=\"");
    for (int j = 0; j < tt->n; j++)
        if (on[p[j].i]) cli_printf(b, "%.1f,%.1f ", map(&xs, p[j].t, ML, W - MR), map(&ys, p[j].e, H - MB, MT));
    cli_printf(b, "\"/>\n");
    for (int i = 0; i < tt->n; i++) {
        double x = map(&xs, num(t->rows[tt->r[i]][ct]), ML, W - MR), y = map(&ys, num(t->rows[tt->r[i]][ce]), H - MB, MT);
        cli_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%d\" fill=\"%s\"/>\n", x, y, on[i] ? 4 : 2, on[i] ? "#d62728" : "#888");
        if (on[i]) {
            char lab[96];
            point_label(t, tt->r[i], lab, sizeof lab);
            cli_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\">", x + 5, y - 4);
            cli_puts_html(b, lab);
            cli_printf(b, " (%s dB)</text>\n", cq >= 0 ? t->rows[tt->r[i]][cq] : "?");
        }
    }
    free(p);
    free(on);
    cli_printf(b, "<text x=\"%d\" y=\"%d\" fill=\"#d62728\">red: Pareto front</text>\n</svg>\n", W - MR + 10, MT + 10);
}

/* ---- tables ------------------------------------------------------------------------------ */

typedef struct {
    cli_buf *md, *html;
} out2;

static void cell_pair(out2 *o, const char *s, int last)
{
    cli_printf(o->md, " %s |%s", s, last ? "\n" : "");
    cli_printf(o->html, "<td>");
    cli_puts_html(o->html, s);
    cli_printf(o->html, "</td>%s", last ? "</tr>\n" : "");
}

static void table_head(out2 *o, const char *const *names, int n)
{
    cli_printf(o->md, "|");
    cli_printf(o->html, "<table><tr>");
    for (int i = 0; i < n; i++) {
        cli_printf(o->md, " %s |", names[i]);
        cli_printf(o->html, "<th>");
        cli_puts_html(o->html, names[i]);
        cli_printf(o->html, "</th>");
    }
    cli_printf(o->md, "\n|");
    for (int i = 0; i < n; i++) cli_printf(o->md, "---|");
    cli_printf(o->md, "\n");
    cli_printf(o->html, "</tr>\n");
}

static void rows_table(out2 *o, const table *t, const int *rows, int nr, const char *const *cols, int nc, int with_axes)
{
    const char **names = malloc((size_t)(t->n_axes + nc) * sizeof *names); /* axes + nc can pass MAX_COLS */
    if (!names) {
        o->md->oom = 1;
        return;
    }
    int n = 0;
    if (with_axes)
        for (int a = 1; a <= t->n_axes; a++) names[n++] = t->col[a];
    for (int i = 0; i < nc; i++) names[n++] = cols[i];
    table_head(o, names, n);
    free(names);
    for (int r = 0; r < nr; r++) {
        cli_printf(o->md, "|");
        cli_printf(o->html, "<tr>");
        int k = 0;
        if (with_axes)
            for (int a = 1; a <= t->n_axes; a++) cell_pair(o, t->rows[rows[r]][a], ++k == n);
        for (int i = 0; i < nc; i++) {
            int c = col(t, cols[i]);
            cell_pair(o, c >= 0 ? t->rows[rows[r]][c] : "-", ++k == n);
        }
    }
    cli_printf(o->html, "</table>\n");
}

static void heading(out2 *o, int level, const char *text)
{
    cli_printf(o->md, "\n%.*s %s\n\n", level, "####", text);
    cli_printf(o->html, "<h%d>", level);
    cli_puts_html(o->html, text);
    cli_printf(o->html, "</h%d>\n", level);
}

static void para(out2 *o, const char *text)
{
    cli_printf(o->md, "%s\n\n", text);
    cli_printf(o->html, "<p>");
    cli_puts_html(o->html, text);
    cli_printf(o->html, "</p>\n");
}

#define PATH_MAX_REPORT 4096

static int write_file(const char *dir, const char *name, const cli_buf *b)
{
    char path[PATH_MAX_REPORT];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (cli_write_atomic(path, b->p ? b->p : "", b->n) != 0) {
        fprintf(stderr, "mxsim report: error: %s: %s\n", path, strerror(errno));
        return 1;
    }
    return 0;
}

static int mkdir_p(const char *dir)
{
    char tmp[PATH_MAX_REPORT];
    snprintf(tmp, sizeof tmp, "%s", dir);
    for (char *p = tmp + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
            *p = '/';
        }
    if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* Every metric (the columns after 'kind') of an ok row must be a whole number ("nan" and "inf"
** included: the sweep writes them for what it did not measure); time and energy of an ok TOTAL
** row place it on the charts, so they must be finite and >= 0. */
#define MAX_MAGNITUDE 1e200 /* keeps every chart scale's range and padding finite */

static int check_values(const table *t, const char *path, char *err, size_t elen)
{
    int cst = t->n_axes + 2, cop = cst + 1;
    for (int r = 0; r < t->n_rows; r++) {
        if (strcmp(t->rows[r][cst], "ok")) continue;
        int total = !strcmp(t->rows[r][cop], "TOTAL");
        for (int c = cst + 3; c < t->n_cols; c++) {
            const char *v = t->rows[r][c];
            char *end;
            double x = strtod(v, &end);
            const char *why = end == v || *end != '\0' ? "not a number" : NULL;
            if (!why && isfinite(x) && fabs(x) > MAX_MAGNITUDE) why = "magnitude above 1e200 (no mxsim metric comes near)";
            if (!why && total && (!strcmp(t->col[c], "time_us") || !strcmp(t->col[c], "energy_mj")) && !(isfinite(x) && x >= 0))
                why = "expected a finite number >= 0";
            if (why) {
                snprintf(err, elen, "%s:%d: field '%s': %s, got '%.40s'", path, t->line[r], t->col[c], why, v);
                return 2;
            }
        }
    }
    return 0;
}

/* The x axis of the line charts: mx.group_size when swept, else the last axis whose values are
** all numbers, else none (0: points in order). */
static int pick_xcol(const table *t, const totals *tt)
{
    int best = 0;
    for (int a = 1; a <= t->n_axes; a++) {
        int numeric = 1;
        for (int i = 0; i < tt->n && numeric; i++) {
            const char *v = t->rows[tt->r[i]][a];
            char *end;
            double x = strtod(v, &end);
            numeric = end != v && *end == '\0' && isfinite(x) && fabs(x) <= MAX_MAGNITUDE;
        }
        if (!numeric) continue;
        if (!strcmp(t->col[a], "mx.group_size")) return a;
        best = a;
    }
    return best;
}

static const char *const k_report_names[MXS_REPORT_FILES] = {
    "cycles.svg", "energy.svg", "sqnr.svg", "area_breakdown.svg", "energy_breakdown.svg",
    "pareto.svg", "README.md", "index.html"};

void mxs_report_free(mxs_report_file out[MXS_REPORT_FILES])
{
    for (int i = 0; i < MXS_REPORT_FILES; i++) cli_buf_free(&out[i].buf);
}

int mxs_report_build(const char *in, mxsim_ctx *ctx, mxs_report_file out[MXS_REPORT_FILES], char *err, size_t elen)
{
    for (int i = 0; i < MXS_REPORT_FILES; i++) out[i] = (mxs_report_file){k_report_names[i], {0}};
    table t;
    int rc = load_csv(in, &t, err, elen);
    if (rc) {
        table_free(&t);
        return rc;
    }
    static const char *const need[] = {"time_us", "energy_mj", "sqnr_db", "area_mm2"};
    for (size_t i = 0; i < sizeof need / sizeof need[0]; i++)
        if (col(&t, need[i]) < 0) {
            snprintf(err, elen, "%s: field '%s': column missing", in, need[i]);
            table_free(&t);
            return 2;
        }
    if ((rc = check_values(&t, in, err, elen)) != 0) {
        table_free(&t);
        return rc;
    }
    int cop = col(&t, "op"), cst = col(&t, "status");
    totals tt = {calloc((size_t)t.n_rows + 1, sizeof(int)), 0};
    if (!tt.r) {
        table_free(&t);
        snprintf(err, elen, "out of memory");
        return 1;
    }
    int n_bad = 0;
    for (int r = 0; r < t.n_rows; r++)
        if (!strcmp(t.rows[r][cop], "TOTAL")) {
            if (!strcmp(t.rows[r][cst], "ok")) tt.r[tt.n++] = r;
            else n_bad++;
        }
    int xcol = pick_xcol(&t, &tt);

    cli_buf *md = &out[6].buf, *html = &out[7].buf;
    chart_lines(&out[0].buf, &t, &tt, xcol, "cycles_total", "Cycles (whole trace)", "cycles");
    chart_lines(&out[1].buf, &t, &tt, xcol, "energy_mj", "Energy (whole trace, nominal)", "energy, mJ");
    chart_lines(&out[2].buf, &t, &tt, xcol, "sqnr_db", "SQNR vs float64 (overall)", "SQNR, dB");
    chart_stacked(&out[3].buf, &t, &tt, "a_", "_mm2", "Area breakdown per point", "area, mm2");
    chart_stacked(&out[4].buf, &t, &tt, "e_", "_mj", "Energy breakdown per point (nominal)", "energy, mJ");
    chart_pareto(&out[5].buf, &t, &tt);

    out2 o = {md, html};
    cli_printf(md, "# mxsim sweep report\n\n");
    cli_printf(html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mxsim sweep report</title>\n"
                      "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                      "table{border-collapse:collapse;font-size:12px;margin:1em 0}td,th{border:1px solid #ccc;"
                      "padding:2px 6px;text-align:right}th{background:#f0f0f0}pre{background:#f6f6f6;padding:8px;"
                      "font-size:12px;overflow-x:auto}svg{margin:6px}</style></head><body>\n<h1>mxsim sweep report</h1>\n");
    char line[1024];
    snprintf(line, sizeof line, "Written by mxsim %s from %s. Trace: %s. Configuration: %s. Axes: %s. Points: %d ok, %d failed.",
             mxsim_version(), in, hdr_value(&t, "trace"), hdr_value(&t, "config"), hdr_value(&t, "axes"), tt.n, n_bad);
    para(&o, line);
    snprintf(line, sizeof line, "Results were produced by %s. Cost model: %s. Accuracy: %s. Group policy: %s.",
             hdr_value(&t, "version"), hdr_value(&t, "cost"), hdr_value(&t, "accuracy"), hdr_value(&t, "group policy"));
    para(&o, line);

    heading(&o, 2, "Totals per configuration");
    static const char *const tot_cols[] = {"cycles_total", "time_us", "util_compute_pct", "area_mm2", "energy_mj",
                                           "energy_mj_low", "energy_mj_high", "pj_per_mac", "tops_per_w",
                                           "tops_per_w_low", "tops_per_w_high", "tops_per_mm2", "sqnr_db", "max_rel_err"};
    rows_table(&o, &t, tt.r, tt.n, tot_cols, (int)(sizeof tot_cols / sizeof tot_cols[0]), 1);
    para(&o, "Units: cycles; time in us; utilisation in % of multiplier slots; area in mm2; energy in mJ with the "
             "low/high band of the sources; pJ per MAC; TOPS/W and TOPS/mm2 at the configured clock; SQNR in dB "
             "and max relative error against float64 (overall: equal-weight mean of the ops' noise-to-signal ratios).");

    heading(&o, 2, "Charts");
    static const int order[] = {0, 1, 2, 5, 3, 4}; /* lines, Pareto, breakdowns */
    for (int j = 0; j < 6; j++) {
        int i = order[j];
        cli_printf(md, "![%s](%s)\n%s", out[i].name, out[i].name, i == 5 ? "\n" : "");
        cli_printf(html, "%s", out[i].buf.p ? out[i].buf.p : "");
    }
    cli_printf(md, "\n");

    /* per-op table of the point with the smallest energy-delay product */
    int best = -1;
    double best_edp = INFINITY;
    int ct = col(&t, "time_us"), ce = col(&t, "energy_mj");
    for (int i = 0; i < tt.n; i++) {
        double edp = num(t.rows[tt.r[i]][ct]) * num(t.rows[tt.r[i]][ce]);
        if (edp < best_edp) { best_edp = edp; best = tt.r[i]; }
    }
    if (best >= 0) {
        char lab[256];
        point_label(&t, best, lab, sizeof lab);
        snprintf(line, sizeof line, "Per-op results of the point with the smallest energy-delay product (%s, point %s)",
                 lab, t.rows[best][0]);
        heading(&o, 2, line);
        int *rows = malloc((size_t)t.n_rows * sizeof *rows), nr = 0;
        if (!rows) md->oom = 1;
        for (int r = 0; rows && r < t.n_rows; r++)
            if (!strcmp(t.rows[r][0], t.rows[best][0])) rows[nr++] = r;
        static const char *const op_cols[] = {"op", "kind", "m", "n", "k", "repeat", "group_eff", "cycles_total",
                                              "time_us", "util_compute_pct", "energy_mj", "pj_per_mac", "tops_per_w",
                                              "sqnr_db", "max_rel_err", "acc_rows", "acc_cols"};
        rows_table(&o, &t, rows, nr, op_cols, (int)(sizeof op_cols / sizeof op_cols[0]), 0);
        free(rows);
        para(&o, "acc_rows x acc_cols: the outputs on which accuracy was measured (sampled when smaller than m x n).");
    }

    /* accuracy per op and group size (other axes at the first point's values) */
    if (xcol > 0 && tt.n > 0) {
        heading(&o, 2, "Accuracy per op (SQNR dB) against the swept axis");
        int first = tt.r[0];
        int gvals[64], ng = 0, n_more = 0; /* columns: the first 64 values of the axis */
        for (int i = 0; i < tt.n; i++) {
            int same = 1;
            for (int a = 1; a <= t.n_axes; a++)
                if (a != xcol && strcmp(t.rows[tt.r[i]][a], t.rows[first][a])) same = 0;
            if (same && ng < 64) gvals[ng++] = tt.r[i];
            else if (same) n_more++;
        }
        const char *names[66];
        char hn[64][48];
        names[0] = "op";
        for (int g = 0; g < ng; g++) {
            snprintf(hn[g], sizeof hn[g], "%s=%s", t.col[xcol], t.rows[gvals[g]][xcol]);
            names[g + 1] = hn[g];
        }
        table_head(&o, names, ng + 1);
        int csq = col(&t, "sqnr_db");
        for (int r = 0; r < t.n_rows; r++) {
            if (strcmp(t.rows[r][0], t.rows[gvals[0]][0])) continue;
            cli_printf(md, "|");
            cli_printf(html, "<tr>");
            cell_pair(&o, t.rows[r][cop], ng == 0);
            for (int g = 0; g < ng; g++) {
                /* the same op row in point gvals[g] */
                const char *v = "-";
                for (int q = 0; q < t.n_rows; q++)
                    if (!strcmp(t.rows[q][0], t.rows[gvals[g]][0]) && !strcmp(t.rows[q][cop], t.rows[r][cop])) v = t.rows[q][csq];
                cell_pair(&o, v, g == ng - 1);
            }
        }
        cli_printf(html, "</table>\n");
        snprintf(line, sizeof line, "Other axes at %s's values; accuracy depends only on the op, group size, profile "
                                    "and accumulator. %s", "the first point", hdr_value(&t, "accuracy"));
        para(&o, line);
        if (n_more) {
            snprintf(line, sizeof line, "%d further values of %s are in the CSV, not in this table.", n_more, t.col[xcol]);
            para(&o, line);
        }
    }

    heading(&o, 2, "Area and energy constants (sources)");
    mxsim_node_scale sc;
    int node = 45;
    double vdd = 0;
    const char *cs = hdr_value(&t, "cost");
    const char *pn = strstr(cs, "node_nm="), *pv = strstr(cs, "vdd_v=");
    if (pn) {
        long v = strtol(pn + 8, NULL, 10);
        node = v > 0 && v < 100000 ? (int)v : -1;
    }
    if (pv) vdd = strtod(pv + 6, NULL);
    mxsim_status st = mxsim_node_scaling(ctx, node, vdd, &sc);
    if (st != MXSIM_OK) {
        snprintf(line, sizeof line, "The CSV's cost line ('%.200s') names no node and Vdd that the scaling table knows (%s); "
                                    "the constants below are unscaled.", cs, mxsim_errmsg(ctx));
        para(&o, line);
    }
    mxs_constants_md(md, st == MXSIM_OK ? &sc : NULL);
    mxs_constants_html(html, st == MXSIM_OK ? &sc : NULL);
    para(&o, "Energy = sum over events of count x energy/event (event counts from the timing engine) + leakage power "
             "x time. Sources: HOR14 Horowitz ISSCC'14; ALADDIN40 Shao et al. ISCA'14 via Accelergy; CACTI7-ACCELERGY "
             "Balasubramonian et al. TACO'17 (Accelergy CACTI plug-in output); ACC-CACTI-DRAM Malladi ISCA'12 / "
             "Chatterjee MICRO'17; SB17 Stillmaker & Baas, Integration 2017. Full citations: sim/doc/energy-area.md.");

    heading(&o, 2, "Configuration and trace");
    cli_printf(md, "```\n");
    cli_printf(html, "<pre>");
    for (int i = 0; i < t.n_hdr; i++) {
        cli_printf(md, "%s\n", t.hdr[i]);
        cli_puts_html(html, t.hdr[i]);
        cli_printf(html, "\n");
    }
    cli_printf(md, "```\n");
    cli_printf(html, "</pre>\n</body></html>\n");

    free(tt.r);
    table_free(&t);
    for (int i = 0; i < MXS_REPORT_FILES; i++)
        if (out[i].buf.oom) {
            snprintf(err, elen, "out of memory");
            return 1;
        }
    return 0;
}

int mxsim_cli_report(int argc, char **argv, mxsim_ctx *ctx)
{
    static const char *C = "report";
    const char *in = NULL, *dir = NULL;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "-o")) {
            if (i + 1 >= argc) return mxs_usage(C, "option needs a value:", "-o");
            dir = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) return mxs_usage(C, "unknown option", argv[i]);
        else if (!in) in = argv[i];
        else return mxs_usage(C, "unexpected argument", argv[i]);
    }
    if (!in || !dir) return mxs_usage(C, "expected RESULTS.csv -o DIR", NULL);
    mxs_report_file out[MXS_REPORT_FILES];
    char err[512];
    int rc = mxs_report_build(in, ctx, out, err, sizeof err);
    if (rc) {
        fprintf(stderr, "mxsim report: error: %s\n", err);
        mxs_report_free(out);
        return rc;
    }
    if (strlen(dir) + 32 >= PATH_MAX_REPORT) {
        fprintf(stderr, "mxsim report: error: %.64s...: output directory path too long\n", dir);
        mxs_report_free(out);
        return 2;
    }
    if (mkdir_p(dir) != 0) {
        fprintf(stderr, "mxsim report: error: %s: %s\n", dir, strerror(errno));
        mxs_report_free(out);
        return 1;
    }
    for (int i = 0; i < MXS_REPORT_FILES && !rc; i++) rc = write_file(dir, out[i].name, &out[i].buf);
    if (!rc) fprintf(stderr, "mxsim report: wrote %s/index.html, %s/README.md and 6 SVG charts\n", dir, dir);
    mxs_report_free(out);
    return rc;
}

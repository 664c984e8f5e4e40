/* test_report.c - the report module (sim/src/report): CSV and JSON readers, the chart kit's
** layout rules, and mxsim_report_build end to end.
** Expectations are independent of the code: tick sets worked out by hand from the 1-2-5 rule,
** parser verdicts from RFC 4180 / RFC 8259, the Pareto front by an O(n^2) dominance check, and
** the layout rules (inside the canvas, no overlaps, ticks 1-2-5 and within range, titled axes)
** checked on the boxes the kit reports. */
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mxsim.h"
#include "mxtest.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/report.h"

static const char *tmpdir(void)
{
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d) d = "/tmp/mxsim_test_report";
    mkdir(d, 0777);
    return d;
}

/* TMP/name, created. */
static const char *subdir(const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", tmpdir(), name);
    mkdir(buf, 0777);
    return buf;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(1, fabs(b)); }

/* ---- nice ticks ---------------------------------------------------------------------------- */

static void expect_ticks(double lo, double hi, int log, const double *want, int n, int exp10)
{
    mx_axis a;
    mx_chart_nice_axis(lo, hi, log, &a);
    MXT_EQ_INT(a.n_ticks, n);
    for (int i = 0; i < n && i < a.n_ticks; i++)
        if (!near(a.tick[i], want[i])) MXT_FAILF("[%g, %g] log %d: tick %d is %g, expected %g", lo, hi, log, i, a.tick[i], want[i]);
    MXT_EQ_INT(a.exp10, exp10);
    MXT_TRUE(a.lo <= lo && a.hi >= hi);
}

MXTEST(nice_ticks_by_hand)
{
    expect_ticks(0.3, 9.7, 0, (const double[]){0, 2, 4, 6, 8, 10}, 6, 0);       /* range 9.4 / 5 -> step 2 */
    expect_ticks(2.6e6, 26.5e6, 0, (const double[]){0, 5e6, 10e6, 15e6, 20e6, 25e6, 30e6}, 7, 6);
    expect_ticks(28.2, 39.4, 0, (const double[]){28, 30, 32, 34, 36, 38, 40}, 7, 0);
    expect_ticks(-0.013, 0.0042, 0, (const double[]){-0.015, -0.01, -0.005, 0, 0.005}, 5, 0);
    expect_ticks(20, 700, 1, (const double[]){20, 50, 100, 200, 500, 1000}, 6, 0); /* 1.7 decades: 1-2-5 */
    expect_ticks(3, 4000, 1, (const double[]){1, 10, 100, 1000, 10000}, 5, 0);      /* > 3 decades: powers */
    expect_ticks(7, 7, 0, (const double[]){6.2, 6.4, 6.6, 6.8, 7, 7.2, 7.4, 7.6, 7.8}, 9, 0); /* one value: +-10% */
    expect_ticks(5, 5, 1, (const double[]){2, 5, 10}, 3, 0);
}

/* ---- CSV ----------------------------------------------------------------------------------- */

MXTEST(csv_rfc4180)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    const char *t = "a,b,c\r\n1,\"x,y\",\"say \"\"hi\"\"\"\n\n2,\"two\nlines\",\r\n3,,\"\"";
    mx_csv c;
    MXT_EQ_INT(mx_csv_parse(ctx, "t.csv", t, strlen(t), 8, 100, &c), MXSIM_OK);
    MXT_EQ_INT(c.n_cols, 3);
    MXT_EQ_INT(c.n_rows, 4);
    MXT_TRUE(!strcmp(mx_csv_at(&c, 1, 1), "x,y"));
    MXT_TRUE(!strcmp(mx_csv_at(&c, 1, 2), "say \"hi\""));
    MXT_TRUE(!strcmp(mx_csv_at(&c, 2, 1), "two\nlines"));
    MXT_TRUE(!strcmp(mx_csv_at(&c, 2, 2), ""));
    MXT_TRUE(!strcmp(mx_csv_at(&c, 3, 2), ""));
    MXT_EQ_INT(c.line[2], 4); /* after the blank line 3 */
    MXT_EQ_INT(c.line[3], 6); /* the quoted line break counts */
    MXT_EQ_INT(mx_csv_col(&c, "c"), 2);
    MXT_EQ_INT(mx_csv_col(&c, "d"), -1);
    mx_csv_free(&c);
    static const struct {
        const char *text, *msg;
        mxsim_status st;
    } bad[] = {
        {"a,b\n1,x\"y\n", "t.csv:2: field 'b': a quote inside an unquoted field", MXSIM_E_INPUT},
        {"a,b\n1,\"xy\"z\n", "t.csv:2: field 'b': a quote inside", MXSIM_E_INPUT},
        {"a,b\n1,\"open\n", "t.csv:2: field 'b': quoted field not closed", MXSIM_E_INPUT},
        {"a,b\n1,2,3\n", "t.csv:2: field 'row': 3 values, header has 2", MXSIM_E_INPUT},
        {"a,b\n1\r2\n", "t.csv:2: field 'a': a bare carriage return", MXSIM_E_INPUT},
        {"", "t.csv: field 'header': no header row", MXSIM_E_INPUT},
        {"a,b,c,d,e,f,g,h,i\n", "t.csv:1: field 'header': more than 8 columns", MXSIM_E_INPUT},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mxsim_status st = mx_csv_parse(ctx, "t.csv", bad[i].text, strlen(bad[i].text), 8, 100, &c);
        MXT_EQ_INT(st, bad[i].st);
        if (!strstr(mxsim_errmsg(ctx), bad[i].msg)) MXT_FAILF("case %zu: '%s' lacks '%s'", i, mxsim_errmsg(ctx), bad[i].msg);
    }
    char nul[] = "a\n1\0";
    MXT_EQ_INT(mx_csv_parse(ctx, "t.csv", nul, 4, 8, 100, &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "a NUL byte") != NULL);
    MXT_EQ_INT(mx_csv_parse(ctx, "t.csv", "a\n1\n2\n3\n", 8, 8, 3, &c), MXSIM_E_LIMIT);
    mxsim_ctx_destroy(ctx);
}

/* ---- JSON ---------------------------------------------------------------------------------- */

MXTEST(json_strict)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    const char *t = "{\"a\": [1, -2.5e3, true, null], \"s\": \"x\\u00e9\\ud83d\\ude00\\n\", \"o\": {}}";
    mx_json j;
    MXT_EQ_INT(mx_json_parse(ctx, "m.json", t, strlen(t), &j), MXSIM_OK);
    int a = mx_json_get(&j, 0, "a");
    MXT_EQ_INT(j.node[a].count, 4);
    MXT_TRUE(j.node[mx_json_at(&j, a, 1)].num == -2500);
    MXT_EQ_INT(j.node[mx_json_at(&j, a, 2)].type, MX_JSON_BOOL);
    MXT_EQ_INT(j.node[mx_json_at(&j, a, 3)].type, MX_JSON_NULL);
    MXT_EQ_INT(mx_json_at(&j, a, 4), -1);
    MXT_TRUE(!strcmp(j.node[mx_json_get(&j, 0, "s")].str, "x\xc3\xa9\xf0\x9f\x98\x80\n"));
    MXT_EQ_INT(j.node[mx_json_get(&j, 0, "o")].count, 0);
    MXT_EQ_INT(mx_json_get(&j, 0, "none"), -1);
    mx_json_free(&j);
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"{\"a\": 1, \"a\": 2}", "duplicate key"},
        {"[1, 2] x", "text after the value"},
        {"[01]", "expected ',' or ']'"},
        {"[1.]", "bad number"},
        {"[1e999]", "out of the range"},
        {"[\"\\u0000\"]", "\\u0000"},
        {"[\"\\ud800\"]", "unpaired surrogate"},
        {"[\"a\tb\"]", "control character"},
        {"{\"a\" 1}", "expected ':'"},
        {"[tru]", "expected a value"},
        {"\n\n[", "m.json:3: field 'json': expected a value"},
        {"", "expected a value"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        MXT_EQ_INT(mx_json_parse(ctx, "m.json", bad[i].text, strlen(bad[i].text), &j), MXSIM_E_INPUT);
        if (!strstr(mxsim_errmsg(ctx), bad[i].msg)) MXT_FAILF("case %zu: '%s' lacks '%s'", i, mxsim_errmsg(ctx), bad[i].msg);
    }
    char deep[80];
    memset(deep, '[', 33);
    memset(deep + 33, ']', 33);
    deep[66] = '\0';
    MXT_EQ_INT(mx_json_parse(ctx, "m.json", deep, 66, &j), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "nested deeper than 32") != NULL);
    MXT_EQ_INT(mx_json_parse(ctx, "m.json", deep + 1, 64, &j), MXSIM_OK); /* 32 levels: fine */
    mx_json_free(&j);
    mxsim_ctx_destroy(ctx);
}

/* ---- layout rules -------------------------------------------------------------------------- */

/* 1, 2 or 5 times a power of ten. */
static int is_125(double v)
{
    if (!(v > 0)) return 0;
    double e = floor(log10(v) + 1e-9), m = v / pow(10, e);
    return near(m, 1) || near(m, 2) || near(m, 5) || near(m, 10);
}

static void check_axis(const mx_axis *a, const char *chart, int which)
{
    if (a->discrete) return;
    if (a->n_ticks < 2) MXT_FAILF("%s axis %d: %d ticks", chart, which, a->n_ticks);
    for (int i = 0; i < a->n_ticks; i++) {
        double t = a->tick[i];
        if (t < a->lo * (1 - 1e-9) - 1e-12 || t > a->hi * (1 + 1e-9) + 1e-12)
            MXT_FAILF("%s axis %d: tick %g outside [%g, %g]", chart, which, t, a->lo, a->hi);
        if (a->log && !is_125(t)) MXT_FAILF("%s axis %d: log tick %g is not 1, 2 or 5 x 10^k", chart, which, t);
    }
    if (!a->log && a->n_ticks >= 2) {
        double step = a->tick[1] - a->tick[0];
        if (!is_125(step)) MXT_FAILF("%s axis %d: step %g is not 1, 2 or 5 x 10^k", chart, which, step);
        for (int i = 0; i < a->n_ticks; i++) {
            double k = a->tick[i] / step;
            if (!near(k, round(k))) MXT_FAILF("%s axis %d: tick %g is not a multiple of %g", chart, which, a->tick[i], step);
        }
    }
    MXT_TRUE(a->lo < a->hi);
}

static int overlap(const mx_box *a, const mx_box *b)
{
    const double eps = 0.5; /* touching edges are fine */
    return a->x + eps < b->x + b->w && b->x + eps < a->x + a->w && a->y + eps < b->y + b->h && b->y + eps < a->y + a->h;
}

static void check_layout(const mx_chart_layout *L, const char *chart, int expect_axes)
{
    MXT_TRUE(!L->oom);
    int n_title = 0, n_axis = 0;
    for (int i = 0; i < L->n_box; i++) {
        const mx_box *b = &L->box[i];
        if (b->x < 0 || b->y < 0 || b->x + b->w > L->w || b->y + b->h > L->h)
            MXT_FAILF("%s: box '%s' (%.1f,%.1f %.1fx%.1f) leaves the %gx%g canvas", chart, b->text, b->x, b->y, b->w, b->h, L->w, L->h);
        n_title += b->kind == MX_BOX_TITLE;
        if (b->kind == MX_BOX_AXIS_TITLE) {
            n_axis++;
            if (!strchr(b->text, '(')) MXT_FAILF("%s: axis title '%s' gives no unit", chart, b->text);
        }
        if (b->kind == MX_BOX_LABEL &&
            (b->x < L->px0 || b->x + b->w > L->px1 || b->y < L->py0 || b->y + b->h > L->py1))
            MXT_FAILF("%s: point label '%s' leaves the plot area", chart, b->text);
        for (int j = 0; j < i; j++)
            if (overlap(b, &L->box[j])) MXT_FAILF("%s: '%s' overlaps '%s'", chart, b->text, L->box[j].text);
    }
    MXT_EQ_INT(n_title, 1);
    if (expect_axes) {
        MXT_EQ_INT(n_axis, 2);
        check_axis(&L->ax[0], chart, 0);
        check_axis(&L->ax[1], chart, 1);
    }
}

static uint32_t lcg(uint32_t *s) { return *s = *s * 1664525u + 1013904223u; }
static double unif(uint32_t *s) { return (lcg(s) >> 8) / 16777216.0; }

MXTEST(layout_lines)
{
    /* 50 series with long labels (legend overflow), y over five decades (log axis) */
    enum { NX = 9, NS = 50 };
    double x[NX], y[NS][NX], lo[NS][NX], hi[NS][NX];
    char lab[NX][16], slab[NS][64];
    const char *xl[NX];
    mx_chart_series se[NS];
    uint32_t s = 7;
    for (int i = 0; i < NX; i++) {
        x[i] = 1 << (i + 2);
        snprintf(lab[i], sizeof lab[i], "%d", 1 << (i + 2));
        xl[i] = lab[i];
    }
    for (int k = 0; k < NS; k++) {
        for (int i = 0; i < NX; i++) {
            y[k][i] = pow(10, 5 * unif(&s)) * 3.7;
            lo[k][i] = y[k][i] * 0.6;
            hi[k][i] = y[k][i] * 1.7;
        }
        snprintf(slab[k], sizeof slab[k], "array.size=%d, numerics.profile=mase_cuda", k);
        se[k] = (mx_chart_series){slab[k], y[k], lo[k], hi[k]};
    }
    y[3][4] = NAN; /* a gap */
    for (int ns = 1; ns <= NS; ns += 49) {
        mx_line_chart c = {"A title", "mx.group_size (elements)", "energy (mJ)", "array.size, numerics.profile",
                           "A note under the chart.", NX, x, xl, ns, se, "x", "series", "y", "lo", "hi", 0};
        mx_buf svg = {0}, csv = {0};
        mx_chart_layout L;
        mx_chart_lines(&c, &svg, &csv, &L);
        check_layout(&L, ns == 1 ? "lines/1" : "lines/50", 1);
        MXT_EQ_INT(L.ax[1].log, 1);
        MXT_TRUE(L.ax[0].discrete && L.ax[0].log); /* 4..1024: log2-spaced positions */
        MXT_TRUE(strstr(svg.p, "<script") == NULL);
        if (ns == NS) MXT_TRUE(strstr(svg.p, "+11 more (see the CSV)") != NULL); /* 39 shown of 50 */
        /* the CSV: a header and one line per series and x */
        size_t lines = 0;
        for (const char *p = csv.p; *p; p++) lines += *p == '\n';
        MXT_EQ_INT(lines, 1 + (size_t)ns * NX);
        mx_buf_free(&svg);
        mx_buf_free(&csv);
        mx_chart_layout_free(&L);
    }
}

/* More x values than ticks: every point is drawn, every k-th value is a tick. */
MXTEST(layout_many_x)
{
    enum { NX = 150 };
    double x[NX], y[NX];
    char lab[NX][8];
    const char *xl[NX];
    for (int i = 0; i < NX; i++) {
        x[i] = i;
        y[i] = 100 + i;
        snprintf(lab[i], sizeof lab[i], "%d", i);
        xl[i] = lab[i];
    }
    mx_chart_series se = {"all points", y, NULL, NULL};
    mx_line_chart c = {"T", "design point (point number)", "cycles (whole trace)", NULL, NULL, NX, x, xl, 1, &se,
                       "point", "series", "cycles_total", NULL, NULL, 0};
    mx_buf svg = {0}, csv = {0};
    mx_chart_layout L;
    mx_chart_lines(&c, &svg, &csv, &L);
    check_layout(&L, "many x", 1);
    MXT_EQ_INT(L.ax[0].n_ticks, 50); /* every 3rd of 150 */
    /* swept values placed by value (0..149, linear): the x title says so, as a continuous axis does */
    MXT_TRUE(strstr(svg.p, "design point (point number), linear scale") != NULL);
    int circles = 0;
    for (const char *p = svg.p; (p = strstr(p, "<circle")) != NULL; p++) circles++;
    MXT_EQ_INT(circles, NX + 1); /* the markers and the legend's */
    mx_buf_free(&svg);
    mx_buf_free(&csv);
    mx_chart_layout_free(&L);
}

MXTEST(layout_bars_and_scatter)
{
    enum { NB = 80, NP = 4, NPT = 300 };
    double v[NB * NP];
    char lab[NB][32];
    const char *bl[NB];
    static const char *const parts[NP] = {"compute", "fill/drain", "exponent stall", "memory stall"};
    uint32_t s = 11;
    for (int i = 0; i < NB; i++) {
        snprintf(lab[i], sizeof lab[i], "%d / %d / mase_cuda", 8 << (i % 5), i);
        bl[i] = lab[i];
        for (int p = 0; p < NP; p++) v[i * NP + p] = unif(&s) * 1e7;
    }
    mx_bar_chart b = {"Bars", "cycles (whole trace)", "design point (a / b / c)", NULL, NULL, NB, NP, bl, parts, v, 0,
                      "point", "part", "cycles"};
    mx_buf svg = {0}, csv = {0};
    mx_chart_layout L;
    mx_chart_bars(&b, &svg, &csv, &L);
    check_layout(&L, "bars", 1);
    MXT_EQ_INT(L.ax[0].log, 0);
    MXT_TRUE(L.ax[0].lo == 0);
    MXT_EQ_INT(L.ax[1].n_ticks, 64 / 2 + 8); /* 80 bars, every 2nd labelled */
    mx_buf_free(&svg);
    mx_buf_free(&csv);
    mx_chart_layout_free(&L);

    double x[NPT], y[NPT], q[NPT];
    int front[NPT];
    char pl[NPT][24];
    const char *plp[NPT];
    for (int i = 0; i < NPT; i++) {
        x[i] = pow(10, 3 * unif(&s)) * 1e5;
        y[i] = 1e3 / x[i] * (1 + unif(&s)) * 1e5;
        q[i] = 20 + 20 * unif(&s);
        front[i] = i % 3 == 0; /* not a real front: only the label placement is under test */
        snprintf(pl[i], sizeof pl[i], "%d / %d", i, i * 7);
        plp[i] = pl[i];
    }
    mx_scatter_chart sc = {"Scatter", "cycles (whole trace)", "energy (mJ)", "SQNR (dB)", "Note.", NPT, x, y, q, front, plp,
                           "point", "x", "y", "c"};
    mx_chart_scatter(&sc, &svg, &csv, &L);
    check_layout(&L, "scatter", 1);
    MXT_EQ_INT(L.ax[0].log, 1);
    int placed = 0;
    for (int i = 0; i < L.n_box; i++) placed += L.box[i].kind == MX_BOX_LABEL;
    MXT_EQ_INT(placed + L.n_omitted, NPT / 3);
    MXT_TRUE(placed > 0);
    mx_buf_free(&svg);
    mx_buf_free(&csv);
    mx_chart_layout_free(&L);
}

/* ---- the report end to end ------------------------------------------------------------------ */

#define HDR "point,array.size,mx.group_size,profile,status,op,kind,cycles_total,cycles_compute,cycles_fill_drain," \
            "cycles_exp_stall,cycles_mem_stall,time_us,energy_mj,energy_mj_low,energy_mj_high,area_mm2,sqnr_db," \
            "e_mult_mj,e_sram_mj,a_mult_mm2,a_sram_mm2\n"

/* A 3 x 4 sweep (array.size 8, 16, 32 x group size 8..64); returns the CSV path. */
static const char *make_sweep(const char *dir, const char *meta_override)
{
    static char csv[512], meta[512];
    snprintf(csv, sizeof csv, "%s/s.csv", dir);
    snprintf(meta, sizeof meta, "%s/s.meta.json", dir);
    char text[16384];
    size_t k = (size_t)snprintf(text, sizeof text, "%s", HDR);
    int p = 0;
    for (int w = 8; w <= 32; w *= 2)
        for (int g = 8; g <= 64; g *= 2, p++) {
            double cyc = 1e6 * 64.0 / w + g, e = 10.0 * (1 + 8.0 / w) + 64.0 / g, q = 40 - 2.5 * log2(g);
            for (int op = 0; op < 2; op++)
                k += (size_t)snprintf(text + k, sizeof text - k,
                                      "%d,%d,%d,ocp,ok,%s,%s,%.0f,%.0f,%.0f,%.0f,%.0f,%g,%g,%g,%g,%g,%g,%g,%g,%g,%g\n", p, w, g,
                                      op ? "TOTAL" : "fc", op ? "total" : "gemm", cyc, cyc * 0.7, cyc * 0.2, cyc * 0.05,
                                      cyc * 0.05, cyc / 1000, e, e * 0.7, e * 1.8, 0.1 * w, q, e * 0.4, e * 0.6, 0.05 * w, 0.05 * w);
        }
    put_file(csv, text);
    put_file(meta, meta_override ? meta_override
             : "{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t.trace\", "
               "\"n_ops\": 1, \"config\": null, \"points\": 12, \"axes\": [{\"key\": \"array.size\", \"type\": \"int\", "
               "\"unit\": \"PE\", \"values\": [8, 16, 32]}, {\"key\": \"mx.group_size\", \"type\": \"int\", \"unit\": "
               "\"elements\", \"values\": [64, 32, 16, 8]}], \"base\": {\"array.dataflow\": \"ws\"}, \"cost\": "
               "{\"node_nm\": 45, \"vdd_v\": 0.9}, \"accuracy\": null, \"group_policy\": \"strict\", \"columns\": "
               "[{\"name\": \"cycles_total\", \"type\": \"int\"}]}");
    return csv;
}

static const char *file_text(const mx_report_out *o, const char *name)
{
    for (int i = 0; i < MX_REPORT_FILES; i++)
        if (!strcmp(o->file[i].name, name)) return o->file[i].buf.p;
    return NULL;
}

MXTEST(report_end_to_end)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    char dir[512], out[600];
    subdir("e2e", dir, sizeof dir);
    const char *csv = make_sweep(dir, NULL);
    mx_report_out o;
    MXT_EQ_INT(mx_report_render(ctx, csv, NULL, &o), MXSIM_OK);
    MXT_EQ_INT(o.n_ok, 12);
    static const char *const names[MX_REPORT_CHARTS] = {"cycles", "energy", "sqnr", "pareto", "cycle_breakdown",
                                                        "energy_breakdown", "area_breakdown"};
    for (int k = 0; k < MX_REPORT_CHARTS; k++) check_layout(&o.layout[k], names[k], 1);
    /* x axis: mx.group_size, its values sorted although the sidecar lists them 64..8 */
    MXT_EQ_INT(o.layout[0].ax[0].n_ticks, 4);
    MXT_TRUE(o.layout[0].ax[0].tick[0] == 8 && o.layout[0].ax[0].tick[3] == 64);
    /* cycles span 2e6..8e6: linear, labelled in units of 10^6 */
    MXT_EQ_INT(o.layout[0].ax[1].log, 0);
    MXT_EQ_INT(o.layout[0].ax[1].exp10, 6);
    /* the Pareto front against an O(n^2) dominance check on the same formulas */
    int want = 0;
    double cx[12], ey[12];
    for (int w = 8, p = 0; w <= 32; w *= 2)
        for (int g = 8; g <= 64; g *= 2, p++) cx[p] = 1e6 * 64.0 / w + g, ey[p] = 10.0 * (1 + 8.0 / w) + 64.0 / g;
    for (int i = 0; i < 12; i++) {
        int dom = 0;
        for (int j = 0; j < 12; j++) dom |= j != i && cx[j] <= cx[i] && ey[j] <= ey[i] && (cx[j] < cx[i] || ey[j] < ey[i]);
        want += !dom;
    }
    const char *pc = file_text(&o, "pareto.csv");
    int got = 0;
    for (const char *p = pc; (p = strstr(p, ",1\r\n")) != NULL; p++) got++;
    MXT_EQ_INT(got, want);
    MXT_TRUE(!strncmp(pc, "point,time_us,energy_mj,sqnr_db,pareto_front\r\n", 46));
    const char *html = file_text(&o, "index.html");
    int n_svg = 0;
    for (const char *p = html; (p = strstr(p, "<svg ")) != NULL; p++) n_svg++;
    MXT_EQ_INT(n_svg, MX_REPORT_CHARTS);
    MXT_TRUE(strstr(html, "<script") == NULL);
    MXT_TRUE(strstr(file_text(&o, "README.md"), "![pareto](pareto.svg)") != NULL);
    mx_report_out_free(&o);

    /* written all or nothing into a directory made with its parents */
    snprintf(out, sizeof out, "%s/deep/rep", dir);
    MXT_EQ_INT(mxsim_report_build(ctx, csv, out, NULL), MXSIM_OK);
    char path[700];
    snprintf(path, sizeof path, "%s/cycle_breakdown.csv", out);
    MXT_TRUE(access(path, R_OK) == 0);
    mxsim_ctx_destroy(ctx);
}

MXTEST(report_bad_input_writes_nothing)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    char dir[512], out[600], keep[700];
    subdir("bad", dir, sizeof dir);
    snprintf(out, sizeof out, "%s/out", dir);
    static const struct {
        const char *meta, *msg;
    } cases[] = {
        {"{\"format\": \"mxsim-sweep\", \"version\": 1}", "s.meta.json:1: field 'version': this mxsim reads version 2"},
        {"{\"format\": \"csv\"}", "field 'format': expected \"mxsim-sweep\""},
        {"[1]", "field 'json': expected an object"},
        {"{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t\", \"n_ops\": 1, "
         "\"config\": 3}", "field 'config': expected a string or null, got a number"},
        {"{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t\", \"n_ops\": 1, "
         "\"config\": null, \"points\": 12, \"axes\": [{\"key\": \"array.size\", \"type\": \"int\", \"unit\": \"PE\", "
         "\"values\": [8, 16]}, {\"key\": \"mx.group_size\", \"type\": \"int\", \"unit\": \"\", \"values\": [8, 16, 32, "
         "64]}], \"base\": {}, \"cost\": {}, \"accuracy\": null, \"group_policy\": \"\", \"columns\": []}",
         "s.csv:19: field 'array.size': '32' is not one of the axis' values in"},
        {"{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t\", \"n_ops\": 1, "
         "\"config\": null, \"points\": 13, \"axes\": [{\"key\": \"array.size\", \"type\": \"int\", \"unit\": \"PE\", "
         "\"values\": [8, 16, 32]}, {\"key\": \"mx.group_size\", \"type\": \"real\", \"unit\": \"\", \"values\": [8, 16, "
         "32, 64.0]}], \"base\": {}, \"cost\": {}, \"accuracy\": null, \"group_policy\": \"\", \"columns\": []}",
         "field 'points': 13 in"},
        {"{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t\", \"n_ops\": 1, "
         "\"config\": null, \"points\": 12, \"axes\": [{\"key\": \"array.size\", \"type\": \"int\", \"unit\": \"PE\", "
         "\"values\": [8, 16, 8]}], \"base\": {}, \"cost\": {}, \"accuracy\": null, \"group_policy\": \"\", "
         "\"columns\": []}", "field 'axes[0].values[2]': repeats an earlier value"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *csv = make_sweep(dir, cases[i].meta);
        MXT_EQ_INT(mxsim_report_build(ctx, csv, out, NULL), MXSIM_E_INPUT);
        if (!strstr(mxsim_errmsg(ctx), cases[i].msg)) MXT_FAILF("case %zu: '%s' lacks '%s'", i, mxsim_errmsg(ctx), cases[i].msg);
        MXT_TRUE(access(out, F_OK) != 0); /* not even the directory */
    }
    /* no sidecar */
    const char *csv = make_sweep(dir, NULL);
    char meta[600];
    snprintf(meta, sizeof meta, "%s/s.meta.json", dir);
    unlink(meta);
    MXT_EQ_INT(mxsim_report_build(ctx, csv, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "s.meta.json: field 'sidecar': missing") != NULL);
    /* a failed write leaves an earlier report untouched: the output "directory" is a file */
    csv = make_sweep(dir, NULL);
    snprintf(keep, sizeof keep, "%s/file", dir);
    put_file(keep, "keep");
    MXT_TRUE(mxsim_report_build(ctx, csv, keep, NULL) == MXSIM_E_IO);
    FILE *f = fopen(keep, "r");
    char b[8] = "";
    if (f) {
        MXT_TRUE(fgets(b, sizeof b, f) != NULL);
        fclose(f);
    }
    MXT_TRUE(!strcmp(b, "keep"));
    mxsim_ctx_destroy(ctx);
}

/* An enum axis only (no x axis: the points in order), one point failed; then every point failed. */
MXTEST(report_enum_axis_and_failed_points)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    char dir[512], csv[600], meta[600];
    subdir("enum", dir, sizeof dir);
    snprintf(csv, sizeof csv, "%s/e.csv", dir);
    snprintf(meta, sizeof meta, "%s/e.meta.json", dir);
    static const char *const meta_text =
        "{\"format\": \"mxsim-sweep\", \"version\": 2, \"mxsim_version\": \"0.1.0\", \"trace\": \"t\", \"n_ops\": 0, "
        "\"config\": \"c.ini\", \"points\": 3, \"axes\": [{\"key\": \"numerics.profile\", \"type\": \"enum\", \"unit\": \"\", "
        "\"values\": [\"ocp\", \"mase\", \"mase_cuda\"]}], \"base\": {}, \"cost\": {\"node_nm\": 7, \"vdd_v\": 0.7}, "
        "\"accuracy\": null, \"group_policy\": \"strict\", \"columns\": []}";
    put_file(meta, meta_text);
    char text[4096] = HDR;
    static const char *const rows[3] = {"0,ocp,ok", "1,mase,\"error: G does not divide K, \"\"fc\"\"\"", "2,mase_cuda,ok"};
    for (int p = 0; p < 3; p++) /* HDR's array.size and mx.group_size columns hold the profile twice */
        snprintf(text + strlen(text), sizeof text - strlen(text),
                 "%.*s,8,8,ocp,%s,TOTAL,total,1000,700,200,50,50,1,2,1,3,0.5,35,1,1,0.2,0.3\n",
                 (int)(strchr(rows[p], ',') - rows[p]), rows[p], strchr(strchr(rows[p], ',') + 1, ',') + 1);
    /* the axis column: rename the header's mx.group_size to numerics.profile, values per row */
    char *h = strstr(text, "mx.group_size");
    memcpy(h, "numerics.prof", 13); /* same length: "numerics.prof" + "ile" below */
    memmove(h + 16, h + 13, strlen(h + 13) + 1);
    memcpy(h + 13, "ile", 3);
    for (int p = 0; p < 3; p++) {
        char key[32], *r;
        snprintf(key, sizeof key, "\n%d,8,8,", p);
        if ((r = strstr(text, key)) != NULL) {
            const char *v = p == 0 ? "ocp" : p == 1 ? "mase" : "mase_cuda";
            size_t at = (size_t)(r - text) + strlen(key) - 2; /* the second "8" */
            memmove(text + at + strlen(v), text + at + 1, strlen(text + at + 1) + 1);
            memcpy(text + at, v, strlen(v));
        }
    }
    put_file(csv, text);
    mx_report_out o;
    mxsim_status st = mx_report_render(ctx, csv, NULL, &o);
    MXT_EQ_INT(st, MXSIM_OK);
    if (st != MXSIM_OK) {
        fprintf(stderr, "  %s\n%s", mxsim_errmsg(ctx), text);
        mxsim_ctx_destroy(ctx);
        return;
    }
    MXT_EQ_INT(o.n_ok, 2);
    MXT_EQ_INT(o.n_failed, 1);
    /* no numeric axis: the line charts run over the named axis' three values (the failed point's a
    ** gap), labelled by name, placed in order with no scale; one series */
    MXT_EQ_INT(o.layout[0].ax[0].n_ticks, 3);
    MXT_TRUE(o.layout[0].ax[0].categorical && !o.layout[0].ax[0].log);
    MXT_TRUE(strstr(file_text(&o, "cycles.svg"), "numerics.profile (named setting)") != NULL);
    MXT_TRUE(strstr(file_text(&o, "cycles.svg"), ">mase_cuda<") != NULL);
    MXT_TRUE(strstr(file_text(&o, "cycles.svg"), "linear scale") != NULL); /* the y axis */
    MXT_TRUE(strstr(file_text(&o, "cycles.csv"), "\"all points\"") != NULL || strstr(file_text(&o, "cycles.csv"), "all points,") != NULL);
    MXT_TRUE(strstr(file_text(&o, "README.md"), "node 7 nm") != NULL);
    for (int k = 0; k < MX_REPORT_CHARTS; k++) check_layout(&o.layout[k], "enum", 1);
    mx_report_out_free(&o);
    /* every point failed: charts say there is no data, the report is still written */
    for (char *q = text; (q = strstr(q, ",ok,")) != NULL;) memcpy(q, ",no,", 4);
    put_file(csv, text);
    MXT_EQ_INT(mx_report_render(ctx, csv, NULL, &o), MXSIM_OK);
    MXT_EQ_INT(o.n_ok, 0);
    MXT_EQ_INT(o.n_failed, 3);
    MXT_TRUE(strstr(file_text(&o, "cycles.svg"), "no finite values to plot") != NULL);
    for (int k = 0; k < MX_REPORT_CHARTS; k++) check_layout(&o.layout[k], "none", 0);
    mx_report_out_free(&o);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

/* cmd_compare_gpu.c - `mxsim compare-gpu`: the GPU model against measured times, and the
** accelerator next to the GPU on one trace (issue 7).
**
** Bench mode reads a card (workloads/gpus/NAME.ini) and a bench.csv, predicts every point
** (library: mxsim_gpu_compare, or mxsim_gpu_calibrate with --calibrate), prints the table and the
** summary, and with -o DIR writes comparison.csv, comparison.md and scatter.svg (hand-written
** SVG: log axes, y = x and +-10% lines; filled marks are training points, hollow ones held out,
** grey squares the reference rows that define measured card values).  Trace mode times each op
** of a trace on the accelerator (timing engine; energy and area with the sweep module) and on
** the GPU model, and adds the measured GPU time when the bench has the same op.
** Files are written atomically (temporary file + rename). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "gpumodel/cmd_gpumodel.h"

#define C "compare-gpu"

/* ---- small helpers ------------------------------------------------------------------------ */

/* The out-of-memory flag is sticky in cli_buf: report it as ENOMEM like a failed write. */
static int write_buf(const char *path, const cli_buf *b)
{
    if (b->oom) {
        errno = ENOMEM;
        return -1;
    }
    return cli_write_atomic(path, b->p ? b->p : "", b->n);
}

static int usage(const char *msg, const char *arg)
{
    fprintf(stderr, "mxsim " C ": ");
    fprintf(stderr, msg, arg);
    fprintf(stderr, " (see 'mxsim " C " --help')\n");
    return 2;
}

static int lib_fail(mxsim_ctx *ctx, mxsim_status st)
{
    const char *d = mxsim_errmsg(ctx);
    fprintf(stderr, "mxsim " C ": error: %s\n", d[0] ? d : mxsim_strerror(st));
    return st == MXSIM_E_IO || st == MXSIM_E_NOMEM || st == MXSIM_E_INTERNAL ? 1 : 2;
}

typedef struct {
    const char *card, *measured, *out, *trace, *config, *max_mape, *group_size;
    int calibrate, swap, quiet;
} opts;

static const char *card_path(const char *card, char *buf, size_t n)
{
    if (strchr(card, '/') || strstr(card, ".ini")) return card;
    snprintf(buf, n, "workloads/gpus/%s.ini", card);
    return buf;
}

static int make_dir(const char *d)
{
    if (mkdir(d, 0755) == 0 || errno == EEXIST) return 0;
    fprintf(stderr, "mxsim " C ": error: %s: %s\n", d, strerror(errno));
    return 1;
}

static const char *family(const mxsim_gpu_point *p)
{
    switch (p->op.kernel) {
    case MXSIM_GK_COPY: return "copy";
    case MXSIM_GK_DEQUANT_OCP:
    case MXSIM_GK_DEQUANT_MASE: return "dequant";
    case MXSIM_GK_QUANTIZE_F32:
    case MXSIM_GK_QUANTIZE_BF16: return "quantize";
    case MXSIM_GK_MXK_GEMM: return p->pred.cfg_used == 4 ? "mxk-small-M" : "mxk-tiles";
    case MXSIM_GK_CUBLAS_BF16: return "cublas-bf16";
    case MXSIM_GK_CUBLASLT_INT8: return "cublaslt-int8";
    default: return "dequant+cublas";
    }
}
static const char *family_color(const char *f)
{
    static const char *k[][2] = {{"copy", "#7f7f7f"},        {"dequant", "#1f77b4"},
                                 {"quantize", "#17becf"},    {"mxk-small-M", "#ff7f0e"},
                                 {"mxk-tiles", "#d62728"},   {"cublas-bf16", "#2ca02c"},
                                 {"cublaslt-int8", "#9467bd"}, {"dequant+cublas", "#8c564b"}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(f, k[i][0])) return k[i][1];
    return "#000000";
}
static const char *split_name(int s) { return s == 0 ? "train" : s == 1 ? "held-out" : "reference"; }

/* ---- outputs ------------------------------------------------------------------------------ */

static void put_csv(cli_buf *b, const mxsim_gpu_bench *bn)
{
    cli_printf(b, "kernel,shape,M,N,K,G,cfg_used,split,measured_us,predicted_us,err_pct,bound,waves,"
               "launch_us,mem_us,issue_us,scale_us,tc_us,dram_bytes,instr_per_warp\n");
    for (int64_t i = 0; i < mxsim_gpu_bench_count(bn); i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        cli_printf(b, "%s,%s,%lld,%lld,%lld,%lld,%d,%s,%.3f,%.3f,%.2f,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.0f,%.0f\n",
                p->method, p->shape, (long long)p->op.m, (long long)p->op.n, (long long)p->op.k,
                (long long)p->op.g, (int)p->pred.cfg_used, split_name(p->split), p->measured_us,
                p->predicted_us, p->err_pct, p->pred.bound, p->pred.waves, p->pred.launch_us,
                p->pred.mem_us, p->pred.issue_us, p->pred.scale_us, p->pred.tc_us, p->pred.dram_bytes,
                p->pred.instr_per_warp);
    }
}

static int cmp_err(const void *a, const void *b)
{
    const mxsim_gpu_point *x = *(const mxsim_gpu_point *const *)a, *y = *(const mxsim_gpu_point *const *)b;
    double ex = fabs(x->err_pct), ey = fabs(y->err_pct);
    return ex < ey ? 1 : ex > ey ? -1 : strcmp(x->method, y->method);
}

static void put_md(cli_buf *b, const mxsim_gpu_bench *bn, const mxsim_gpu_summary *s,
                   const mxsim_gpu_card *card, const char *card_file, const char *bench_file)
{
    cli_printf(b, "# GPU model vs measured: %s (card file `%s`)\n\n", mxsim_gpu_bench_card(bn), card_file);
    cli_printf(b, "Measured: `%s`. Model: sim/doc/gpu-model.md. Reproduce: `mxsim compare-gpu --card %s "
               "--measured %s -o DIR`.\n\n", bench_file, card->name, bench_file);
    cli_printf(b, "| half | points | MAPE | max abs error | Pearson r (log) |\n|---|---|---|---|---|\n");
    static const char *hn[] = {"training", "held-out", "all scored"};
    for (int h = 0; h < 3; h++)
        cli_printf(b, "| %s | %lld | %.2f%% | %.1f%% | %.4f |\n", hn[h], (long long)s->n[h], s->mape_pct[h],
                s->max_abs_err_pct[h], s->pearson_r[h]);
    cli_printf(b, "\nCalibrated card fields (fitted on the training half only):");
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
        if (!strcmp(f->kind, "calibrated")) cli_printf(b, " `%s` = %.4g %s;", f->key, mxsim_gpu_card_get(card, i), f->unit);
    }
    cli_printf(b, "\n\n![predicted vs measured](scatter.svg)\n\n## Worst outliers\n\n| kernel | M x N x K | G | split | measured us | predicted us | error |\n|---|---|---|---|---|---|---|\n");
    int64_t n = mxsim_gpu_bench_count(bn);
    const mxsim_gpu_point **v = malloc((size_t)(n ? n : 1) * sizeof *v);
    int64_t m = 0;
    if (v) {
        for (int64_t i = 0; i < n; i++)
            if (mxsim_gpu_bench_point(bn, i)->split != 2) v[m++] = mxsim_gpu_bench_point(bn, i);
        qsort(v, (size_t)m, sizeof *v, cmp_err);
        for (int64_t i = 0; i < m && i < 8; i++)
            cli_printf(b, "| %s | %lldx%lldx%lld | %lld | %s | %.2f | %.2f | %+.1f%% |\n", v[i]->method,
                    (long long)v[i]->op.m, (long long)v[i]->op.n, (long long)v[i]->op.k, (long long)v[i]->op.g,
                    split_name(v[i]->split), v[i]->measured_us, v[i]->predicted_us, v[i]->err_pct);
        free(v);
    } else b->oom = 1;
    cli_printf(b, "\n## Every point\n\n| kernel | shape | M x N x K | G | cfg | split | measured us | predicted us | error | bound | waves | mem us | issue us | scaling us | tensor us |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        cli_printf(b, "| %s | %s | %lldx%lldx%lld | %lld | %d | %s | %.2f | %.2f | %+.1f%% | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                p->method, p->shape, (long long)p->op.m, (long long)p->op.n, (long long)p->op.k,
                (long long)p->op.g, (int)p->pred.cfg_used, split_name(p->split), p->measured_us,
                p->predicted_us, p->err_pct, p->pred.bound, p->pred.waves, p->pred.mem_us,
                p->pred.issue_us, p->pred.scale_us, p->pred.tc_us);
    }
}

static void put_svg(cli_buf *b, const mxsim_gpu_bench *bn, const mxsim_gpu_summary *s)
{
    const double W = 720, H = 640, L = 80, R = 200, T = 40, B = 60;
    double lo = 1e300, hi = 0;
    int64_t n = mxsim_gpu_bench_count(bn);
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        double a = fmin(p->measured_us, p->predicted_us), c = fmax(p->measured_us, p->predicted_us);
        if (a > 0 && a < lo) lo = a;
        if (c > hi) hi = c;
    }
    double l0 = floor(log10(lo)), l1 = ceil(log10(hi));
    if (l1 <= l0) l1 = l0 + 1;
    const double pw = W - L - R, ph = H - T - B;
#define SX(v) (L + (log10(v) - l0) / (l1 - l0) * pw)
#define SY(v) (T + ph - (log10(v) - l0) / (l1 - l0) * ph)
    cli_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    cli_printf(b, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s: predicted vs measured kernel time "
               "(MAPE held-out %.1f%%, all %.1f%%, r %.3f)</text>\n", L, mxsim_gpu_bench_card(bn),
            s->mape_pct[1], s->mape_pct[2], s->pearson_r[2]);
    for (double e = l0; e <= l1 + 1e-9; e += 1) {
        for (int k = 1; k < 10; k++) {
            double v = pow(10, e) * k;
            if (log10(v) > l1 + 1e-9) break;
            const char *col = k == 1 ? "#bbbbbb" : "#eeeeee";
            cli_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", SX(v), T, SX(v), T + ph, col);
            cli_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", L, SY(v), L + pw, SY(v), col);
            if (k == 1) {
                cli_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", SX(v), T + ph + 16, v);
                cli_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, SY(v) + 4, v);
            }
        }
    }
    double a = pow(10, l0), z = pow(10, l1);
    cli_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", SX(a), SY(a), SX(z), SY(z));
    cli_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 4\"/>\n",
            SX(a), SY(a * 1.1), SX(z / 1.1), SY(z));
    cli_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 4\"/>\n",
            SX(a / 0.9), SY(a), SX(z), SY(z * 0.9));
    cli_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n", L, T, pw, ph);
    cli_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">measured time (us, log)</text>\n", L + pw / 2, H - 18);
    cli_printf(b, "<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\">predicted time (us, log)</text>\n",
            T + ph / 2);
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        const char *col = family_color(family(p));
        double x = SX(p->measured_us), y = SY(p->predicted_us);
        if (p->split == 2)
            cli_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#999999\"><title>%s %lldx%lldx%lld reference</title></rect>\n",
                    x - 4, y - 4, p->method, (long long)p->op.m, (long long)p->op.n, (long long)p->op.k);
        else
            cli_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\">"
                       "<title>%s %lldx%lldx%lld G=%lld: %.2f vs %.2f us (%+.1f%%)</title></circle>\n",
                    x, y, p->split == 0 ? col : "white", col, p->method, (long long)p->op.m,
                    (long long)p->op.n, (long long)p->op.k, (long long)p->op.g, p->predicted_us,
                    p->measured_us, p->err_pct);
    }
    static const char *fams[] = {"dequant", "mxk-tiles", "mxk-small-M", "cublas-bf16", "cublaslt-int8", "dequant+cublas"};
    double ly = T + 10;
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++, ly += 20)
        cli_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                L + pw + 20, ly, family_color(fams[i]), L + pw + 32, ly + 4, fams[i]);
    cli_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"#444\"/><text x=\"%.0f\" y=\"%.0f\">filled: training</text>\n",
            L + pw + 20, ly + 10, L + pw + 32, ly + 14);
    cli_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"white\" stroke=\"#444\"/><text x=\"%.0f\" y=\"%.0f\">hollow: held-out</text>\n",
            L + pw + 20, ly + 30, L + pw + 32, ly + 34);
    cli_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"8\" height=\"8\" fill=\"#999\"/><text x=\"%.0f\" y=\"%.0f\">reference</text>\n",
            L + pw + 16, ly + 46, L + pw + 32, ly + 54);
    cli_printf(b, "<text x=\"%.0f\" y=\"%.0f\">solid: y = x</text><text x=\"%.0f\" y=\"%.0f\">dashed: +-10%%</text>\n",
            L + pw + 16, ly + 80, L + pw + 16, ly + 98);
    cli_printf(b, "</svg>\n");
#undef SX
#undef SY
}

static void put_card(cli_buf *b, const mxsim_gpu_card *c)
{
    cli_printf(b, "# card fields after calibration on the training half (paste into workloads/gpus/%s.ini)\nname = %s\n",
            c->name, c->name);
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
        cli_printf(b, "%s = %.6g   # %s, %s\n", f->key, mxsim_gpu_card_get(c, i), f->kind, f->unit);
    }
}

static int write_file(const char *dir, const char *name, const cli_buf *b)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);
    if (!p) return 1;
    snprintf(p, n, "%s/%s", dir, name);
    int r = write_buf(p, b);
    if (r) fprintf(stderr, "mxsim " C ": error: %s: %s\n", p, strerror(errno));
    free(p);
    return r ? 1 : 0;
}

/* ---- bench mode --------------------------------------------------------------------------- */

static int run_bench(const opts *o, mxsim_ctx *ctx, mxsim_gpu_card *card, const char *cpath)
{
    mxsim_gpu_bench *bn = NULL;
    mxsim_status st = mxsim_gpu_bench_load(ctx, o->measured, &bn);
    if (st != MXSIM_OK) return lib_fail(ctx, st);
    if (o->swap) mxsim_gpu_bench_swap_split(bn);
    mxsim_gpu_summary s;
    st = o->calibrate ? mxsim_gpu_calibrate(ctx, card, bn, &s) : mxsim_gpu_compare(ctx, card, bn, &s);
    if (st != MXSIM_OK) {
        mxsim_gpu_bench_free(bn);
        return lib_fail(ctx, st);
    }
    if (!o->quiet) {
        printf("%-24s %-14s %17s %5s %3s %-9s %11s %11s %8s  %s\n", "kernel", "shape", "MxNxK", "G", "cfg",
               "split", "meas_us", "pred_us", "err", "bound");
        for (int64_t i = 0; i < mxsim_gpu_bench_count(bn); i++) {
            const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
            char dims[48];
            snprintf(dims, sizeof dims, "%lldx%lldx%lld", (long long)p->op.m, (long long)p->op.n, (long long)p->op.k);
            printf("%-24s %-14s %17s %5lld %3d %-9s %11.2f %11.2f %+7.1f%%  %s\n", p->method, p->shape, dims,
                   (long long)p->op.g, (int)p->pred.cfg_used, split_name(p->split), p->measured_us,
                   p->predicted_us, p->err_pct, p->pred.bound);
        }
    }
    static const char *hn[] = {"training", "held-out", "all"};
    for (int h = 0; h < 3; h++)
        printf("%s: %s %lld points, MAPE %.2f%%, max |err| %.1f%%, Pearson r (log) %.4f\n", card->name, hn[h],
               (long long)s.n[h], s.mape_pct[h], s.max_abs_err_pct[h], s.pearson_r[h]);
    int rc = 0;
    if (o->out) {
        cli_buf csv = {0}, md = {0}, svg = {0}, ini = {0};
        put_csv(&csv, bn);
        put_md(&md, bn, &s, card, cpath, o->measured);
        put_svg(&svg, bn, &s);
        rc = make_dir(o->out);
        if (!rc) rc = write_file(o->out, "comparison.csv", &csv) || write_file(o->out, "comparison.md", &md) ||
                      write_file(o->out, "scatter.svg", &svg);
        if (!rc && o->calibrate) {
            put_card(&ini, card);
            rc = write_file(o->out, "card.ini", &ini);
        }
        free(csv.p), free(md.p), free(svg.p), free(ini.p);
        if (!rc && !o->quiet) printf("wrote %s/comparison.csv, comparison.md, scatter.svg\n", o->out);
    }
    if (!rc && o->max_mape) {
        char *e;
        double lim = strtod(o->max_mape, &e);
        if (e == o->max_mape || *e || !(lim > 0)) {
            mxsim_gpu_bench_free(bn);
            return usage("--max-mape: '%s' is not a positive percentage", o->max_mape);
        }
        if (s.mape_pct[1] > lim || s.mape_pct[2] > lim) {
            fprintf(stderr, "mxsim " C ": MAPE above --max-mape %.2f%%: held-out %.2f%%, all %.2f%%\n", lim,
                    s.mape_pct[1], s.mape_pct[2]);
            rc = 1;
        }
    }
    mxsim_gpu_bench_free(bn);
    return rc;
}

/* ---- trace mode --------------------------------------------------------------------------- */

#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
/* Trace mode: the library's table; -o DIR also writes it as DIR/accel_vs_gpu.csv. */
static int run_trace(const opts *o, mxsim_ctx *ctx, const mxsim_gpu_card *card)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_status st = mxsim_tconfig_load(ctx, &cfg, o->config);
    if (st == MXSIM_OK && o->group_size) st = mxsim_tconfig_set(ctx, &cfg, "mx.group_size", o->group_size, "--group-size");
    if (st == MXSIM_OK) st = mxsim_tconfig_validate(ctx, &cfg);
    mxsim_trace *tr = NULL;
    mxsim_gpu_bench *bn = NULL;
    mxsim_table *t = NULL;
    if (st == MXSIM_OK) st = mxsim_trace_load(ctx, o->trace, &tr);
    if (st == MXSIM_OK && o->measured) st = mxsim_gpu_bench_load(ctx, o->measured, &bn);
    if (st == MXSIM_OK) st = mxsim_gpu_accel_table(ctx, card, &cfg, tr, bn, &t);
    int rc = st == MXSIM_OK ? 0 : lib_fail(ctx, st);
    if (!rc && o->out && !(rc = make_dir(o->out))) {
        char path[1024];
        snprintf(path, sizeof path, "%s/accel_vs_gpu.csv", o->out);
        if ((st = mxsim_table_save(ctx, t, MXSIM_OUTPUT_CSV, path)) != MXSIM_OK) rc = lib_fail(ctx, st);
    }
    if (!rc) rc = cli_emit_table(ctx, t, "csv", NULL);
    mxsim_table_free(t);
    mxsim_trace_free(tr);
    mxsim_gpu_bench_free(bn);
    return rc;
}
#endif

static int cmd_compare_gpu(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    opts o = {cli_get(c, a, "card"), cli_get(c, a, "measured"), cli_get(c, a, "out"), cli_get(c, a, "trace"),
              cli_get(c, a, "config"), cli_get(c, a, "max-mape"), cli_get(c, a, "group-size"),
              cli_get(c, a, "calibrate") != NULL, cli_get(c, a, "swap-split") != NULL, cli_get(c, a, "quiet") != NULL};
    if (!o.card) return usage("%s", "--card is required");
    if (!o.trace && !o.measured) return usage("%s", "--measured BENCH.csv (or --trace) is required");
    if (o.trace && !o.config) return usage("%s", "--trace needs --config CFG");
    char buf[512];
    const char *cpath = card_path(o.card, buf, sizeof buf);
    mxsim_gpu_card card;
    mxsim_status st = mxsim_gpu_card_load(ctx, cpath, &card);
    if (st != MXSIM_OK) return lib_fail(ctx, st);
    if (o.trace) {
#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
        return run_trace(&o, ctx, &card);
#else
        return usage("%s", "--trace needs the timing engine and the cost model (MXSIM_WITH_TIMING, MXSIM_WITH_SWEEP)");
#endif
    }
    return run_bench(&o, ctx, &card, cpath);
}

static const cli_opt k_opts[] = {
    {"card", 0, 1, 0, "h200|CARD.ini", "GPU card (workloads/gpus/NAME.ini)"},
    {"measured", 0, 1, 0, "BENCH.csv", "measured times"},
    {"out", 'o', 1, 0, "DIR", "write comparison.csv, comparison.md, scatter.svg (or accel_vs_gpu.csv)"},
    {"trace", 0, 1, 0, "TRACE", "compare the accelerator and the GPU model on every op of TRACE"},
    {"config", 0, 1, 0, "CFG", "accelerator configuration (with --trace)"},
    {"group-size", 0, 1, 0, "G", "group size of the trace's ops"},
    {"calibrate", 0, 0, 0, "", "fit the calibrated fields on the training half first"},
    {"swap-split", 0, 0, 0, "", "swap the training and held-out halves"},
    {"max-mape", 0, 1, 0, "PCT", "exit 1 if the held-out or overall MAPE is above PCT"},
    {"quiet", 0, 0, 0, "", "print the summary only"},
    {0}};

const cli_command mxsim_cmd_compare_gpu = {
    "compare-gpu", "",
    "Predicts the GPU time of mxsim's CUDA kernels and the cuBLAS baselines with the analytical\n"
    "model of sim/doc/gpu-model.md, against measured times: per (kernel, shape, G) predicted and\n"
    "measured time, error, bound, MAPE and Pearson r (log) on the training half, the held-out half\n"
    "and both, the worst outliers. --calibrate writes DIR/card.ini. With --trace: every op of\n"
    "TRACE on the accelerator (CFG; time, TOPS, energy, TOPS/W, TOPS/mm2) next to the GPU model\n"
    "and, where BENCH.csv has the same op, the measured GPU time.",
    k_opts, 0, 0, cmd_compare_gpu, NULL};

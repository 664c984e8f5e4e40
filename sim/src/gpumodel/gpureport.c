/* gpureport.c - the outputs of compare-gpu's bench mode, built in the library: the per-point table
** (comparison.csv is its CSV form), the Markdown summary, the predicted-vs-measured scatter (SVG:
** log axes, y = x and +-10% lines; filled marks training points, hollow ones held out, grey squares
** the reference rows) and the calibrated card, written all or nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "gpuinternal.h"
#include "output/textbuf.h"

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
/* The bench's M: the copy op's m is its bytes / 2 elements' worth (gpubench.c stores 2M), not the row's M */
static long long bench_m(const mxsim_gpu_point *p) { return (long long)(p->op.kernel == MXSIM_GK_COPY ? p->op.m / 2 : p->op.m); }
static const char *split_name(int s) { return s == 0 ? "train" : s == 1 ? "held-out" : "reference"; }

static int cmp_err(const void *a, const void *b)
{
    const mxsim_gpu_point *x = *(const mxsim_gpu_point *const *)a, *y = *(const mxsim_gpu_point *const *)b;
    double ex = fabs(x->err_pct), ey = fabs(y->err_pct);
    return ex < ey ? 1 : ex > ey ? -1 : strcmp(x->method, y->method);
}

static void put_md(mx_buf *b, const mxsim_gpu_bench *bn, const mxsim_gpu_summary *s,
                   const mxsim_gpu_card *card, const char *card_file, const char *bench_file, int calibrated)
{
    mx_buf_printf(b, "# GPU model vs measured: %s (card file `%s`)\n\n", mxsim_gpu_bench_card(bn), card_file);
    /* the command that gives these numbers: the card as the file it was read from (a bare NAME only
    ** where compare-gpu's lookup finds that file first, workloads/gpus/NAME.ini) and the options
    ** that change them */
    const char *dir = "workloads/gpus/", *stem = card_file;
    size_t sl = strlen(card_file);
    if (!strncmp(card_file, dir, strlen(dir)) && sl > strlen(dir) + 4 && !strcmp(card_file + sl - 4, ".ini") &&
        !strchr(card_file + strlen(dir), '/'))
        stem = card_file + strlen(dir), sl = strlen(stem) - 4;
    const int swapped = mx_gpu_bench_swapped(bn);
    mx_buf_printf(b, "Measured: `%s`. Model: sim/doc/gpu-model.md. Reproduce: `mxsim compare-gpu --card %.*s "
               "--measured %s%s%s -o DIR`.\n\n", bench_file, (int)sl, stem, bench_file, calibrated ? " --calibrate" : "",
               swapped ? " --swap-split" : "");
    mx_buf_printf(b, "| half | points | MAPE | max abs error | Pearson r (log) |\n|---|---|---|---|---|\n");
    static const char *hn[] = {"training", "held-out", "all scored"};
    for (int h = 0; h < 3; h++)
        mx_buf_printf(b, "| %s | %lld | %.2f%% | %.1f%% | %.4f |\n", hn[h], (long long)s->n[h], s->mape_pct[h],
                s->max_abs_err_pct[h], s->pearson_r[h]);
    if (calibrated)
        mx_buf_printf(b, "\nCalibrated card fields (fitted by this run on the training half only%s):",
                      swapped ? ", which --swap-split made the bench's usual held-out half" : "");
    else
        mx_buf_printf(b, "\nCalibrated card fields (as read from the card file; not refitted by this run):");
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
        if (!strcmp(f->kind, "calibrated")) mx_buf_printf(b, " `%s` = %.4g %s;", f->key, mxsim_gpu_card_get(card, i), f->unit);
    }
    mx_buf_printf(b, "\n\n![predicted vs measured](scatter.svg)\n\n## Worst outliers\n\n| kernel | M x N x K | G | split | measured us | predicted us | error |\n|---|---|---|---|---|---|---|\n");
    int64_t n = mxsim_gpu_bench_count(bn);
    const mxsim_gpu_point **v = malloc((size_t)(n ? n : 1) * sizeof *v);
    int64_t m = 0;
    if (v) {
        for (int64_t i = 0; i < n; i++)
            if (mxsim_gpu_bench_point(bn, i)->split != 2) v[m++] = mxsim_gpu_bench_point(bn, i);
        qsort(v, (size_t)m, sizeof *v, cmp_err);
        for (int64_t i = 0; i < m && i < 8; i++)
            mx_buf_printf(b, "| %s | %lldx%lldx%lld | %lld | %s | %.2f | %.2f | %+.1f%% |\n", v[i]->method,
                    bench_m(v[i]), (long long)v[i]->op.n, (long long)v[i]->op.k, (long long)v[i]->op.g,
                    split_name(v[i]->split), v[i]->measured_us, v[i]->predicted_us, v[i]->err_pct);
        free(v);
    } else {
        b->oom = 1;
    }
    mx_buf_printf(b, "\n## Every point\n\n| kernel | shape | M x N x K | G | cfg | split | measured us | predicted us | error | bound | waves | mem us | issue us | scaling us | tensor us |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        mx_buf_printf(b, "| %s | %s | %lldx%lldx%lld | %lld | %d | %s | %.2f | %.2f | %+.1f%% | %s | %.2f | %.2f | %.2f | %.2f | %.2f |\n",
                p->method, p->shape, bench_m(p), (long long)p->op.n, (long long)p->op.k,
                (long long)p->op.g, (int)p->pred.cfg_used, split_name(p->split), p->measured_us,
                p->predicted_us, p->err_pct, p->pred.bound, p->pred.waves, p->pred.mem_us,
                p->pred.issue_us, p->pred.scale_us, p->pred.tc_us);
    }
}

static void put_svg(mx_buf *b, const mxsim_gpu_bench *bn, const mxsim_gpu_summary *s)
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
    mx_buf_printf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
            W, H, W, H);
    mx_buf_printf(b, "<text x=\"%.0f\" y=\"22\" font-size=\"14\">%s: predicted vs measured kernel time "
               "(MAPE held-out %.1f%%, all %.1f%%, r %.3f)</text>\n", L, mxsim_gpu_bench_card(bn),
            s->mape_pct[1], s->mape_pct[2], s->pearson_r[2]);
    for (double e = l0; e <= l1 + 1e-9; e += 1) {
        for (int k = 1; k < 10; k++) {
            double v = pow(10, e) * k;
            if (log10(v) > l1 + 1e-9) break;
            const char *col = k == 1 ? "#bbbbbb" : "#eeeeee";
            mx_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", SX(v), T, SX(v), T + ph, col);
            mx_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", L, SY(v), L + pw, SY(v), col);
            if (k == 1) {
                mx_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n", SX(v), T + ph + 16, v);
                mx_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, SY(v) + 4, v);
            }
        }
    }
    double a = pow(10, l0), z = pow(10, l1);
    mx_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", SX(a), SY(a), SX(z), SY(z));
    mx_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 4\"/>\n",
            SX(a), SY(a * 1.1), SX(z / 1.1), SY(z));
    mx_buf_printf(b, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\" stroke-dasharray=\"4 4\"/>\n",
            SX(a / 0.9), SY(a), SX(z), SY(z * 0.9));
    mx_buf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" stroke=\"black\"/>\n", L, T, pw, ph);
    mx_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">measured time (us, log)</text>\n", L + pw / 2, H - 18);
    mx_buf_printf(b, "<text transform=\"translate(22 %.1f) rotate(-90)\" text-anchor=\"middle\">predicted time (us, log)</text>\n",
            T + ph / 2);
    for (int64_t i = 0; i < n; i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        const char *col = family_color(family(p));
        double x = SX(p->measured_us), y = SY(p->predicted_us);
        if (p->split == 2)
            mx_buf_printf(b, "<rect x=\"%.1f\" y=\"%.1f\" width=\"8\" height=\"8\" fill=\"#999999\"><title>%s %lldx%lldx%lld reference</title></rect>\n",
                    x - 4, y - 4, p->method, bench_m(p), (long long)p->op.n, (long long)p->op.k);
        else
            mx_buf_printf(b, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4.5\" fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\">"
                       "<title>%s %lldx%lldx%lld G=%lld: %.2f vs %.2f us (%+.1f%%)</title></circle>\n",
                    x, y, p->split == 0 ? col : "white", col, p->method, bench_m(p),
                    (long long)p->op.n, (long long)p->op.k, (long long)p->op.g, p->predicted_us,
                    p->measured_us, p->err_pct);
    }
    static const char *fams[] = {"dequant", "mxk-tiles", "mxk-small-M", "cublas-bf16", "cublaslt-int8", "dequant+cublas"};
    double ly = T + 10;
    for (size_t i = 0; i < sizeof fams / sizeof fams[0]; i++, ly += 20)
        mx_buf_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">%s</text>\n",
                L + pw + 20, ly, family_color(fams[i]), L + pw + 32, ly + 4, fams[i]);
    mx_buf_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"#444\"/><text x=\"%.0f\" y=\"%.0f\">filled: training</text>\n",
            L + pw + 20, ly + 10, L + pw + 32, ly + 14);
    mx_buf_printf(b, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"5\" fill=\"white\" stroke=\"#444\"/><text x=\"%.0f\" y=\"%.0f\">hollow: held-out</text>\n",
            L + pw + 20, ly + 30, L + pw + 32, ly + 34);
    mx_buf_printf(b, "<rect x=\"%.0f\" y=\"%.0f\" width=\"8\" height=\"8\" fill=\"#999\"/><text x=\"%.0f\" y=\"%.0f\">reference</text>\n",
            L + pw + 16, ly + 46, L + pw + 32, ly + 54);
    mx_buf_printf(b, "<text x=\"%.0f\" y=\"%.0f\">solid: y = x</text><text x=\"%.0f\" y=\"%.0f\">dashed: +-10%%</text>\n",
            L + pw + 16, ly + 80, L + pw + 16, ly + 98);
    mx_buf_printf(b, "</svg>\n");
#undef SX
#undef SY
}

static void put_card(mx_buf *b, const mxsim_gpu_card *c)
{
    mx_buf_printf(b, "# card fields after calibration on the training half (paste into workloads/gpus/%s.ini)\nname = %s\n",
            c->name, c->name);
    const char *kind = "";
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
        if (strcmp(f->kind, kind) != 0) mx_buf_printf(b, "\n[%s]\n", f->kind), kind = f->kind; /* the card's sections */
        const double v = mxsim_gpu_card_get(c, i);
        /* counts exactly (l2.bytes has 8 digits), the rest to 6 significant digits */
        if (v == floor(v) && fabs(v) < 1e15) mx_buf_printf(b, "%s = %.0f   # %s, %s\n", f->key, v, f->kind, f->unit);
        else mx_buf_printf(b, "%s = %.6g   # %s, %s\n", f->key, v, f->kind, f->unit);
    }
}


/* name, type (t/i/r), decimals: comparison.csv's columns, in its printf precision */
static const struct {
    const char *name;
    char type;
    int dec, brief;
    const char *unit;
} k_cols[] = {{"kernel", 't', -1, 1, ""},  {"shape", 't', -1, 1, ""},     {"M", 'i', -1, 1, ""},
              {"N", 'i', -1, 1, ""},       {"K", 'i', -1, 1, ""},         {"G", 'i', -1, 1, ""},
              {"cfg_used", 'i', -1, 1, ""}, {"split", 't', -1, 1, ""},    {"measured_us", 'r', 3, 1, "us"},
              {"predicted_us", 'r', 3, 1, "us"}, {"err_pct", 'r', 2, 1, "%"}, {"bound", 't', -1, 1, ""},
              {"waves", 'r', 3, 0, ""},    {"launch_us", 'r', 3, 0, "us"}, {"mem_us", 'r', 3, 0, "us"},
              {"issue_us", 'r', 3, 0, "us"}, {"scale_us", 'r', 3, 0, "us"}, {"tc_us", 'r', 3, 0, "us"},
              {"dram_bytes", 'r', 0, 0, "bytes"}, {"instr_per_warp", 'r', 0, 0, "instructions"}};
#define NC ((int)(sizeof k_cols / sizeof k_cols[0]))

MXSIM_API mxsim_status mxsim_gpu_bench_table(mxsim_ctx *ctx, const mxsim_gpu_bench *bn, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (bn == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "gpu_bench_table: NULL argument");
    *out = NULL;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    for (int c = 0; st == MXSIM_OK && c < NC; c++)
        st = mxsim_table_add_column(ctx, t, k_cols[c].name,
                                    k_cols[c].type == 't' ? MXSIM_CELL_TEXT : k_cols[c].type == 'i' ? MXSIM_CELL_INT : MXSIM_CELL_REAL,
                                    k_cols[c].unit, NULL, k_cols[c].brief ? MXSIM_COL_BRIEF : 0, k_cols[c].dec);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "card", mxsim_gpu_bench_card(bn), 0);
    for (int64_t i = 0; st == MXSIM_OK && i < mxsim_gpu_bench_count(bn); i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        const char *tv[NC] = {p->method, p->shape};
        tv[7] = split_name(p->split), tv[11] = p->pred.bound;
        const double v[NC] = {0, 0, (double)bench_m(p), (double)p->op.n, (double)p->op.k, (double)p->op.g, p->pred.cfg_used, 0,
                              p->measured_us, p->predicted_us, p->err_pct, 0, p->pred.waves, p->pred.launch_us,
                              p->pred.mem_us, p->pred.issue_us, p->pred.scale_us, p->pred.tc_us, p->pred.dram_bytes,
                              p->pred.instr_per_warp};
        const int64_t iv[NC] = {0, 0, bench_m(p), p->op.n, p->op.k, p->op.g, p->pred.cfg_used};
        int64_t r = 0;
        st = mxsim_table_add_row(ctx, t, &r);
        for (int c = 0; st == MXSIM_OK && c < NC; c++)
            st = k_cols[c].type == 't' ? mxsim_table_set_text(ctx, t, r, k_cols[c].name, tv[c])
                 : k_cols[c].type == 'i' ? mxsim_table_set_int(ctx, t, r, k_cols[c].name, iv[c])
                                         : mxsim_table_set_real(ctx, t, r, k_cols[c].name, v[c]);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_gpu_report_save(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_gpu_bench *bn,
                                             const mxsim_gpu_summary *s, const char *card_file, const char *bench_file,
                                             int with_card, const char *dir)
{
    mx_clear_err(ctx);
    if (card == NULL || bn == NULL || s == NULL || card_file == NULL || bench_file == NULL || dir == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "gpu_report_save: NULL argument");
    mxsim_table *t = NULL;
    char *csv = NULL, *path[4] = {NULL};
    size_t csv_len = 0;
    mx_buf md = {0}, svg = {0}, ini = {0};
    mxsim_status st = mxsim_gpu_bench_table(ctx, bn, &t);
    if (st == MXSIM_OK) st = mxsim_table_render(ctx, t, MXSIM_OUTPUT_CSV, &csv, &csv_len);
    put_md(&md, bn, s, card, card_file, bench_file, with_card);
    put_svg(&svg, bn, s);
    if (with_card) put_card(&ini, card);
    static const char *const names[4] = {"comparison.csv", "comparison.md", "scatter.svg", "card.ini"};
    for (int i = 0; st == MXSIM_OK && i < 4; i++) {
        size_t n = strlen(dir) + strlen(names[i]) + 2;
        if ((path[i] = malloc(n)) == NULL) break;
        mx_snprintf(path[i], n, "%s/%s", dir, names[i]);
    }
    if (st == MXSIM_OK && (md.oom || svg.oom || ini.oom || !path[3])) st = mx_fail(ctx, MXSIM_E_NOMEM, "gpu_report_save: out of memory");
    if (st == MXSIM_OK) {
        mx_file_part parts[4] = {{csv, csv_len}, {md.p ? md.p : "", md.n}, {svg.p ? svg.p : "", svg.n}, {ini.p ? ini.p : "", ini.n}};
        mx_file_set set[4];
        for (int i = 0; i < 4; i++) set[i] = (mx_file_set){path[i], &parts[i], 1};
        st = mx_file_write_set(ctx, set, with_card ? 4 : 3);
    }
    for (int i = 0; i < 4; i++) free(path[i]);
    free(csv);
    mx_buf_free(&md);
    mx_buf_free(&svg);
    mx_buf_free(&ini);
    mxsim_table_free(t);
    return st;
}

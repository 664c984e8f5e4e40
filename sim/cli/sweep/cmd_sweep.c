/* cmd_sweep.c - `mxsim sweep` and `mxsim cost`: a thin layer over the sweep and cost API.
**
** sweep builds the axes from the options, runs mxsim_sweep_run with a progress callback (a bar
** with ETA when stderr is a terminal, a plain line every 10 % otherwise, nothing with --quiet)
** and writes one row per (point, op) plus a TOTAL row per point, in point order, as CSV (units in
** the column names, `#` lines carrying version, trace, config and model settings), JSON or
** Markdown; the bytes depend only on the inputs, never on -j.  cost prints the area breakdown
** and the constants table.  Exit codes: 0 ok, 1 runtime failure, 2 usage or bad input (also
** when a point of the sweep failed; the results are still written, the status column says why).
*/
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sweep/cmd_sweep.h"

/* ---- shared helpers ------------------------------------------------------------------- */


int mxs_fail(const char *cmd, mxsim_ctx *ctx, mxsim_status st)
{
    const char *d = mxsim_errmsg(ctx);
    fprintf(stderr, "mxsim %s: error: %s\n", cmd, d[0] ? d : mxsim_strerror(st));
    return cli_exit_code(st);
}

int mxs_usage(const char *cmd, const char *msg, const char *arg)
{
    fprintf(stderr, "mxsim %s: %s%s%s (see 'mxsim %s --help')\n", cmd, msg, arg ? " " : "", arg ? arg : "", cmd);
    return 2;
}

/* ---- options ------------------------------------------------------------------------------ */

#define MAX_LIST 64
typedef struct {
    const char *config, *out, *format, *groups, *widths, *profile, *data, *node, *vdd, *overhead, *bank;
    const char *jobs, *rows, *cols, *seed;
    const char *sets[MAX_LIST];
    int n_sets;
    const char *sweeps[MAX_LIST];
    int n_sweeps;
    const char *pos[4];
    int n_pos;
    int quiet, no_acc, strict, constants, references;
} sopts;

static int parse(const char *cmd, int argc, char **argv, sopts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--config")) slot = &o->config;
        else if (!strcmp(a, "-o")) slot = &o->out;
        else if (!strcmp(a, "--format")) slot = &o->format;
        else if (!strcmp(a, "--group-size")) slot = &o->groups;
        else if (!strcmp(a, "--array-width")) slot = &o->widths;
        else if (!strcmp(a, "--profile")) slot = &o->profile;
        else if (!strcmp(a, "--data")) slot = &o->data;
        else if (!strcmp(a, "--node")) slot = &o->node;
        else if (!strcmp(a, "--vdd")) slot = &o->vdd;
        else if (!strcmp(a, "--overhead")) slot = &o->overhead;
        else if (!strcmp(a, "--sram-bank-kib")) slot = &o->bank;
        else if (!strcmp(a, "-j") || !strcmp(a, "--jobs")) slot = &o->jobs;
        else if (!strncmp(a, "-j", 2) && a[2]) { o->jobs = a + 2; continue; } /* -jN as make */
        else if (!strcmp(a, "--sample-rows")) slot = &o->rows;
        else if (!strcmp(a, "--sample-cols")) slot = &o->cols;
        else if (!strcmp(a, "--seed")) slot = &o->seed;
        else if (!strcmp(a, "--set") || !strcmp(a, "--sweep")) {
            int sw = a[2] == 's' && a[3] == 'w';
            if (i + 1 >= argc) return mxs_usage(cmd, "option needs a value:", a);
            if ((sw ? o->n_sweeps : o->n_sets) >= MAX_LIST) return mxs_usage(cmd, "too many", a);
            if (sw) o->sweeps[o->n_sweeps++] = argv[++i];
            else o->sets[o->n_sets++] = argv[++i];
            continue;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) { o->quiet = 1; continue; }
        else if (!strcmp(a, "--no-accuracy")) { o->no_acc = 1; continue; }
        else if (!strcmp(a, "--strict-group")) { o->strict = 1; continue; }
        else if (!strcmp(a, "--constants")) { o->constants = 1; continue; }
        else if (!strcmp(a, "--references")) { o->references = 1; continue; }
        else if (a[0] == '-' && a[1] != '\0') return mxs_usage(cmd, "unknown option", a);
        else {
            if (o->n_pos >= 4) return mxs_usage(cmd, "unexpected argument", a);
            o->pos[o->n_pos++] = a;
            continue;
        }
        if (i + 1 >= argc) return mxs_usage(cmd, "option needs a value:", a);
        *slot = argv[++i];
    }
    return 0;
}

static int parse_i64(const char *s, long long lo, long long hi, long long *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (errno || end == s || *end || x < lo || x > hi) return -1;
    *v = x;
    return 0;
}

static int parse_f64(const char *s, double lo, double hi, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(s, &end);
    if (errno || end == s || *end || !(x >= lo && x <= hi)) return -1;
    *v = x;
    return 0;
}

static int cost_params(const char *cmd, const sopts *o, mxsim_cost_params *p)
{
    mxsim_cost_params_default(p);
    long long v;
    double d;
    if (o->node) {
        if (parse_i64(o->node, 1, 1000, &v)) return mxs_usage(cmd, "--node: expected nm (45, 32, 22, 20, 16, 14, 7), got", o->node);
        p->node_nm = (int)v;
    }
    if (o->vdd) {
        if (parse_f64(o->vdd, 0.01, 10, &d)) return mxs_usage(cmd, "--vdd: expected volts, got", o->vdd);
        p->vdd_v = d;
    }
    if (o->overhead) {
        if (parse_f64(o->overhead, 1, 10, &d)) return mxs_usage(cmd, "--overhead: expected a factor in 1..10, got", o->overhead);
        p->overhead_factor = d;
    }
    if (o->bank) {
        if (parse_i64(o->bank, 1, 65536, &v)) return mxs_usage(cmd, "--sram-bank-kib: expected 1..65536, got", o->bank);
        p->sram_bank_kib = v;
    }
    return 0;
}

static mxsim_status base_config(mxsim_ctx *ctx, const sopts *o, mxsim_tconfig *cfg)
{
    mxsim_status st;
    mxsim_tconfig_default(cfg);
    if (o->config && (st = mxsim_tconfig_load(ctx, cfg, o->config)) != MXSIM_OK) return st;
    for (int i = 0; i < o->n_sets; i++)
        if ((st = mxsim_tconfig_set_kv(ctx, cfg, o->sets[i])) != MXSIM_OK) return st;
    return mxsim_tconfig_validate(ctx, cfg);
}

/* ---- progress ----------------------------------------------------------------------------- */

typedef struct {
    int tty, quiet;
    double t0;
    int64_t last_decile;
} progress;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void on_progress(void *user, int64_t done, int64_t total)
{
    progress *p = user;
    if (p->quiet || total <= 0) return;
    double el = now_s() - p->t0, eta = done > 0 ? el * (double)(total - done) / (double)done : 0;
    if (p->tty) {
        int w = 30, fill = (int)(w * done / total);
        char bar[32];
        for (int i = 0; i < w; i++) bar[i] = i < fill ? '#' : '.';
        bar[w] = '\0';
        fprintf(stderr, "\rsweep [%s] %lld/%lld jobs %3d%%  ETA %5.1fs ", bar, (long long)done, (long long)total,
                (int)(100 * done / total), eta);
        if (done == total) fprintf(stderr, "\n");
    } else {
        int64_t dec = 10 * done / total;
        if (dec > p->last_decile || done == total) {
            p->last_decile = dec;
            fprintf(stderr, "sweep: %lld/%lld jobs (%d%%), %.1f s elapsed, ETA %.1f s\n", (long long)done,
                    (long long)total, (int)(100 * done / total), el, eta);
        }
    }
}

/* ---- result rows -------------------------------------------------------------------------- */

/* Fixed columns after point, the axes and profile. */
static const char *const k_cols[] = {
    "status", "op", "kind", "m", "n", "k", "repeat", "group_eff", "cycles_total", "cycles_compute",
    "cycles_fill_drain", "cycles_exp_stall", "cycles_mem_stall", "time_us", "util_compute_pct", "tops",
    "sram_bytes", "dram_bytes", "n_macs", "area_mm2", "area_mm2_low", "area_mm2_high", "energy_mj",
    "energy_mj_low", "energy_mj_high", "leakage_mj", "pj_per_mac", "pj_per_mac_low", "pj_per_mac_high",
    "tops_per_w", "tops_per_w_low", "tops_per_w_high", "tops_per_mm2", "sqnr_db", "max_rel_err",
    "acc_rows", "acc_cols", "acc_sampled"};
#define NCOLS ((int)(sizeof k_cols / sizeof k_cols[0]))
#define NALL (NCOLS + 2 * MXSIM_COMP_COUNT_)
#define VLEN 320

static void fmt_g(char *v, double x)
{
    if (isnan(x)) snprintf(v, VLEN, "nan");
    else if (isinf(x)) snprintf(v, VLEN, x > 0 ? "inf" : "-inf");
    else snprintf(v, VLEN, "%.6g", x);
}

/* Values of one row: op = NULL for the TOTAL row. */
static void row_values(const mxsim_sweep_point *pt, int64_t k, const mxsim_top *op, int acc_on, char v[NALL][VLEN])
{
    static const char *kinds[] = {"gemm", "dequant", "quantize"};
    const mxsim_tstats *s = op ? &pt->op_stats[k] : &pt->total;
    const mxsim_energy *e = op ? &pt->op_energy[k] : &pt->energy;
    const mxsim_accuracy *a = op ? &pt->op_acc[k] : &pt->acc;
    int c = 0;
    int ok = pt->status == MXSIM_OK;
    if (ok) snprintf(v[c++], VLEN, "ok");
    else snprintf(v[c++], VLEN, "error: %s", pt->err);
    snprintf(v[c++], VLEN, "%s", op ? op->name : "TOTAL");
    snprintf(v[c++], VLEN, "%s", op ? kinds[op->kind] : "total");
    snprintf(v[c++], VLEN, "%lld", op ? (long long)op->m : 0LL);
    snprintf(v[c++], VLEN, "%lld", op ? (long long)op->n : 0LL);
    snprintf(v[c++], VLEN, "%lld", op ? (long long)op->k : 0LL);
    snprintf(v[c++], VLEN, "%lld", op ? (long long)op->repeat : 0LL);
    snprintf(v[c++], VLEN, "%lld", op ? (long long)pt->op_group[k] : (long long)pt->cfg.group_size);
    if (!ok) {
        for (; c < NALL; c++) snprintf(v[c], VLEN, "nan");
        return;
    }
    const long long iv[] = {s->cycles_total, s->cycles_compute, s->cycles_fill_drain, s->cycles_exp_stall,
                            s->cycles_mem_stall};
    for (int i = 0; i < 5; i++) snprintf(v[c++], VLEN, "%lld", iv[i]);
    fmt_g(v[c++], s->seconds * 1e6);
    fmt_g(v[c++], 100 * s->util_compute);
    fmt_g(v[c++], s->tops);
    snprintf(v[c++], VLEN, "%lld", (long long)(s->sram_a_rd_mant_bytes + s->sram_a_rd_scale_bytes + s->sram_b_rd_mant_bytes +
                                               s->sram_b_rd_scale_bytes + s->sram_c_rd_bytes + s->sram_c_wr_bytes));
    snprintf(v[c++], VLEN, "%lld", (long long)(s->dram_a_mant_bytes + s->dram_a_scale_bytes + s->dram_b_mant_bytes +
                                               s->dram_b_scale_bytes + s->dram_out_bytes));
    snprintf(v[c++], VLEN, "%lld", (long long)s->n_macs);
    for (int b = 0; b < 3; b++) fmt_g(v[c++], pt->area.total_mm2[b]);
    for (int b = 0; b < 3; b++) fmt_g(v[c++], e->total_pj[b] * 1e-9);
    double leak = 0;
    for (int i = 0; i < MXSIM_COMP_COUNT_; i++) leak += e->leak_pj[MXSIM_BAND_NOM][i];
    fmt_g(v[c++], leak * 1e-9);
    for (int b = 0; b < 3; b++) fmt_g(v[c++], e->pj_per_mac[b]);
    for (int b = 0; b < 3; b++) fmt_g(v[c++], e->tops_per_w[b]);
    fmt_g(v[c++], e->tops_per_mm2[MXSIM_BAND_NOM]);
    if (acc_on) {
        fmt_g(v[c++], a->sqnr_db);
        fmt_g(v[c++], a->max_rel_err);
        snprintf(v[c++], VLEN, "%lld", (long long)a->rows);
        snprintf(v[c++], VLEN, "%lld", (long long)a->cols);
        snprintf(v[c++], VLEN, "%d", a->sampled);
    } else {
        for (int i = 0; i < 5; i++) snprintf(v[c++], VLEN, "nan");
    }
    for (int i = 0; i < MXSIM_COMP_COUNT_; i++)
        fmt_g(v[c++], (e->dyn_pj[MXSIM_BAND_NOM][i] + e->leak_pj[MXSIM_BAND_NOM][i]) * 1e-9);
    for (int i = 0; i < MXSIM_COMP_COUNT_; i++) fmt_g(v[c++], pt->area.um2[MXSIM_BAND_NOM][i] * 1e-6);
}

static void csv_field(cli_buf *b, const char *s, int first)
{
    if (!first) cli_printf(b, ",");
    if (strpbrk(s, ",\"\n")) {
        cli_printf(b, "\"");
        for (; *s; s++) cli_printf(b, *s == '"' ? "\"\"" : "%c", *s == '\n' ? ' ' : *s);
        cli_printf(b, "\"");
    } else {
        cli_printf(b, "%s", s);
    }
}

static void json_str(cli_buf *b, const char *s)
{
    cli_printf(b, "\"");
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') cli_printf(b, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) cli_printf(b, "\\u%04x", (unsigned char)*s);
        else cli_printf(b, "%c", *s);
    }
    cli_printf(b, "\"");
}

static int is_number(const char *s)
{
    char *end;
    if (!*s) return 0;
    double x = strtod(s, &end);
    return *end == '\0' && isfinite(x);
}

/* Column names: point, axes..., profile, k_cols, e_<comp>_mj, a_<comp>_mm2. */
static void col_name(const mxsim_sweep *sw, int i, char *out, size_t len)
{
    int na = mxsim_sweep_axis_count(sw);
    if (i == 0) snprintf(out, len, "point");
    else if (i <= na) snprintf(out, len, "%s", mxsim_sweep_axis_key(sw, i - 1));
    else if (i == na + 1) snprintf(out, len, "profile");
    else if (i - na - 2 < NCOLS) snprintf(out, len, "%s", k_cols[i - na - 2]);
    else if (i - na - 2 < NCOLS + MXSIM_COMP_COUNT_)
        snprintf(out, len, "e_%s_mj", mxsim_component_name((mxsim_component)(i - na - 2 - NCOLS)));
    else snprintf(out, len, "a_%s_mm2", mxsim_component_name((mxsim_component)(i - na - 2 - NCOLS - MXSIM_COMP_COUNT_)));
}

typedef struct {
    const char *trace_path, *config_path, *fmt;
    const mxsim_tconfig *base;
    const mxsim_sweep_opts *so;
    int acc_on;
} out_ctx;

static void header_comments(cli_buf *b, const char *pfx, const mxsim_sweep *sw, const mxsim_trace *tr, const out_ctx *oc)
{
    const mxsim_sweep_opts *so = oc->so;
    mxsim_node_scale sc;
    mxsim_node_scaling(NULL, so->cost.node_nm, so->cost.vdd_v, &sc);
    cli_printf(b, "%smxsim-sweep 1\n%sversion: mxsim %s\n", pfx, pfx, mxsim_version());
    cli_printf(b, "%strace: %s (%lld ops)\n", pfx, oc->trace_path, (long long)mxsim_trace_count(tr));
    cli_printf(b, "%sconfig: %s\n", pfx, oc->config_path ? oc->config_path : "(defaults)");
    cli_printf(b, "%saxes:", pfx);
    for (int a = 0; a < mxsim_sweep_axis_count(sw); a++) cli_printf(b, " %s", mxsim_sweep_axis_key(sw, a));
    cli_printf(b, "\n%spoints: %lld\n", pfx, (long long)mxsim_sweep_point_count(sw));
    cli_printf(b, "%scost: node_nm=%d vdd_v=%g area_factor=%.4g energy_factor=%.4g sram_area_factor=%.4g "
               "overhead_factor=%g sram_bank_kib=%lld\n", pfx, sc.node_nm, sc.vdd_v, sc.area_factor,
               sc.energy_factor, sc.sram_area_factor, so->cost.overhead_factor, (long long)so->cost.sram_bank_kib);
    if (oc->acc_on)
        cli_printf(b, "%saccuracy: %s, seed %llu; per op at most %lld rows x %lld cols of outputs "
                   "(quantize/dequant: %lld rows x all n), full K; vs float64\n", pfx,
                   so->acc.data_dir ? "data from --data (synthetic where an op has no files)" : "synthetic data",
                   (unsigned long long)so->acc.seed, (long long)so->acc.sample_rows, (long long)so->acc.sample_cols,
                   (long long)so->acc.sample_rows);
    else cli_printf(b, "%saccuracy: off\n", pfx);
    cli_printf(b, "%sgroup policy: %s\n", pfx, so->strict_group ? "strict" :
               "an op whose K (n) G does not divide runs with the largest divisor below G (group_eff)");
    char buf[64];
    for (int i = 0; i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        cli_printf(b, "%sbase %s = %s%s%s\n", pfx, f->name, mxsim_tconfig_format(oc->base, i, buf, sizeof buf),
                   f->unit[0] ? " " : "", f->unit);
    }
}

static void emit(cli_buf *b, const mxsim_sweep *sw, const mxsim_trace *tr, const out_ctx *oc)
{
    int na = mxsim_sweep_axis_count(sw);
    int ncol = 1 + na + 1 + NALL;
    const char *fmt = oc->fmt;
    char (*v)[VLEN] = malloc(sizeof(char[NALL][VLEN]));
    if (!v) {
        b->oom = 1;
        return;
    }
    char name[128];
    int json = !strcmp(fmt, "json"), csv = !strcmp(fmt, "csv"), md = !strcmp(fmt, "md");
    if (csv) {
        header_comments(b, "# ", sw, tr, oc);
        for (int i = 0; i < ncol; i++) {
            col_name(sw, i, name, sizeof name);
            csv_field(b, name, i == 0);
        }
        cli_printf(b, "\n");
    } else if (json) {
        cli_buf h = {0};
        header_comments(&h, "", sw, tr, oc);
        cli_printf(b, "{\n  \"format\": \"mxsim-sweep 1\",\n  \"header\": ");
        json_str(b, h.p ? h.p : "");
        cli_buf_free(&h);
        cli_printf(b, ",\n  \"rows\": [\n");
    } else if (md) {
        cli_printf(b, "# mxsim sweep\n\n```\n");
        header_comments(b, "", sw, tr, oc);
        cli_printf(b, "```\n\n");
    }
    /* table / md: one line per point, the main totals */
    static const char *const brief[] = {"time_us", "cycles_total", "util_compute_pct", "area_mm2", "energy_mj",
                                        "pj_per_mac", "tops_per_w", "tops_per_mm2", "sqnr_db", "max_rel_err"};
    const int nb = (int)(sizeof brief / sizeof brief[0]);
    if (md || !strcmp(fmt, "table")) {
        const char *sep = md ? " | " : "  ";
        if (md) cli_printf(b, "| ");
        for (int a = 0; a < na; a++) cli_printf(b, md ? "%s%s" : "%14s%s", mxsim_sweep_axis_key(sw, a), sep);
        for (int i = 0; i < nb; i++) cli_printf(b, md ? "%s%s" : "%14s%s", brief[i], i + 1 < nb ? sep : "");
        cli_printf(b, md ? " |\n|" : "\n");
        if (md) for (int i = 0; i < na + nb; i++) cli_printf(b, "---|");
        if (md) cli_printf(b, "\n");
    }
    int first_json = 1;
    for (int64_t p = 0; p < mxsim_sweep_point_count(sw); p++) {
        const mxsim_sweep_point *pt = mxsim_sweep_point_at(sw, p);
        for (int64_t k = (csv || json) ? 0 : pt->n_ops; k <= pt->n_ops; k++) {
            const mxsim_top *op = k < pt->n_ops ? mxsim_trace_op(tr, k) : NULL;
            row_values(pt, k, op, oc->acc_on, v);
            if (csv || json) {
                if (json) cli_printf(b, "%s    {", first_json ? "" : ",\n");
                first_json = 0;
                for (int i = 0; i < ncol; i++) {
                    char pv[32];
                    const char *val;
                    if (i == 0) { snprintf(pv, sizeof pv, "%lld", (long long)p); val = pv; }
                    else if (i <= na) val = pt->values[i - 1];
                    else if (i == na + 1) val = mxsim_profile_name(pt->profile);
                    else val = v[i - na - 2];
                    if (csv) csv_field(b, val, i == 0);
                    else {
                        col_name(sw, i, name, sizeof name);
                        cli_printf(b, "%s\"%s\": ", i ? ", " : "", name);
                        if (is_number(val)) cli_printf(b, "%s", val);
                        else if (!strcmp(val, "nan") || !strcmp(val, "inf") || !strcmp(val, "-inf")) cli_printf(b, "null");
                        else json_str(b, val);
                    }
                }
                cli_printf(b, json ? "}" : "\n");
            } else {
                if (md) cli_printf(b, "| ");
                for (int a = 0; a < na; a++) cli_printf(b, md ? "%s | " : "%14s  ", pt->values[a]);
                if (pt->status != MXSIM_OK) {
                    cli_printf(b, "error: %s%s\n", pt->err, md ? " |" : "");
                    continue;
                }
                for (int i = 0; i < nb; i++) {
                    int ci = 0;
                    while (strcmp(k_cols[ci], brief[i])) ci++;
                    cli_printf(b, md ? "%s%s" : "%14s%s", v[ci], i + 1 < nb ? (md ? " | " : "  ") : "");
                }
                cli_printf(b, md ? " |\n" : "\n");
            }
        }
    }
    if (json) cli_printf(b, "\n  ]\n}\n");
    if (md) cli_printf(b, "\nEnergy in mJ (nominal constants; CSV/JSON carry the low/high band), area in mm2, "
                       "SQNR in dB against float64. Accuracy is measured on sampled outputs (header).\n");
    free(v);
}

static const char *ext_format(const char *path)
{
    const char *d = strrchr(path, '.');
    if (!d) return NULL;
    if (!strcmp(d, ".csv")) return "csv";
    if (!strcmp(d, ".json")) return "json";
    if (!strcmp(d, ".md")) return "md";
    return NULL;
}

int mxsim_cli_sweep(int argc, char **argv, mxsim_ctx *ctx)
{
    static const char *C = "sweep";
    sopts o;
    int rc;
    if ((rc = parse(C, argc, argv, &o)) != 0) return rc;
    if (o.n_pos != 1) return mxs_usage(C, "expected one TRACE", NULL);
    if (!o.config) return mxs_usage(C, "missing --config CFG", NULL);
    const char *fmt = o.format ? o.format : o.out ? ext_format(o.out) : "table";
    if (!fmt) return mxs_usage(C, "-o: cannot tell the format from the extension (.csv, .json, .md); use --format, got", o.out);
    if (strcmp(fmt, "table") && strcmp(fmt, "csv") && strcmp(fmt, "json") && strcmp(fmt, "md"))
        return mxs_usage(C, "--format: expected table, csv, json or md, got", fmt);
    mxsim_sweep_opts so;
    mxsim_sweep_opts_default(&so);
    if ((rc = cost_params(C, &o, &so.cost)) != 0) return rc;
    long long v;
    if (o.jobs) {
        if (parse_i64(o.jobs, 1, 256, &v)) return mxs_usage(C, "-j: expected 1..256, got", o.jobs);
        so.n_threads = (unsigned)v;
    }
    if (o.rows) {
        if (parse_i64(o.rows, 0, 1 << 20, &v)) return mxs_usage(C, "--sample-rows: expected 0..2^20, got", o.rows);
        so.acc.sample_rows = v;
    }
    if (o.cols) {
        if (parse_i64(o.cols, 0, 1 << 20, &v)) return mxs_usage(C, "--sample-cols: expected 0..2^20, got", o.cols);
        so.acc.sample_cols = v;
    }
    if (o.seed) {
        if (parse_i64(o.seed, 0, 0x7fffffffffffffffLL, &v)) return mxs_usage(C, "--seed: expected an integer >= 0, got", o.seed);
        so.acc.seed = (uint64_t)v;
    }
    so.acc.data_dir = o.data;
    so.accuracy = !o.no_acc;
    so.strict_group = o.strict;
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    if (o.profile && mxsim_profile_parse(o.profile, &prof) != MXSIM_OK)
        return mxs_usage(C, "--profile: expected ocp, mase, mase-cuda or microxcaling, got", o.profile);
    if (o.profile) so.profile = prof;
    mxsim_status st;
    mxsim_cost_params chk = so.cost;
    mxsim_node_scale sc;
    if ((st = mxsim_node_scaling(ctx, chk.node_nm, chk.vdd_v, &sc)) != MXSIM_OK) return mxs_fail(C, ctx, st);
    mxsim_tconfig base;
    if ((st = base_config(ctx, &o, &base)) != MXSIM_OK) return mxs_fail(C, ctx, st);
    mxsim_trace *tr = NULL;
    mxsim_sweep *sw = NULL;
    if ((st = mxsim_trace_load(ctx, o.pos[0], &tr)) != MXSIM_OK) return mxs_fail(C, ctx, st);
    if ((st = mxsim_sweep_create(ctx, &base, &sw)) != MXSIM_OK) goto fail;
    if (o.widths && (st = mxsim_sweep_add_axis(ctx, sw, "array.size", o.widths)) != MXSIM_OK) goto fail;
    if (o.groups && (st = mxsim_sweep_add_axis(ctx, sw, "mx.group_size", o.groups)) != MXSIM_OK) goto fail;
    for (int i = 0; i < o.n_sweeps; i++) {
        const char *eq = strchr(o.sweeps[i], '=');
        char key[64];
        if (!eq || eq == o.sweeps[i] || (size_t)(eq - o.sweeps[i]) >= sizeof key) {
            mxsim_sweep_free(sw);
            mxsim_trace_free(tr);
            return mxs_usage(C, "--sweep: expected key=v1,v2,..., got", o.sweeps[i]);
        }
        memcpy(key, o.sweeps[i], (size_t)(eq - o.sweeps[i]));
        key[eq - o.sweeps[i]] = '\0';
        if ((st = mxsim_sweep_add_axis(ctx, sw, key, eq + 1)) != MXSIM_OK) goto fail;
    }
    progress pr = {isatty(2), o.quiet, now_s(), -1};
    so.progress = on_progress;
    so.progress_user = &pr;
    if ((st = mxsim_sweep_run(ctx, sw, tr, &so)) != MXSIM_OK) goto fail;
    {
        out_ctx oc = {o.pos[0], o.config, fmt, &base, &so, so.accuracy};
        cli_buf b = {0};
        emit(&b, sw, tr, &oc);
        int64_t n_bad = 0;
        const char *first_err = NULL;
        for (int64_t p = 0; p < mxsim_sweep_point_count(sw); p++) {
            const mxsim_sweep_point *pt = mxsim_sweep_point_at(sw, p);
            if (pt->status != MXSIM_OK && !n_bad++) first_err = pt->err;
        }
        if (b.oom) {
            cli_buf_free(&b);
            mxsim_sweep_free(sw);
            mxsim_trace_free(tr);
            fprintf(stderr, "mxsim sweep: out of memory\n");
            return 1;
        }
        rc = 0;
        if (o.out) {
            if (cli_write_atomic(o.out, b.p, b.n) != 0) {
                fprintf(stderr, "mxsim sweep: error: %s: %s\n", o.out, strerror(errno));
                rc = 1;
            } else if (!o.quiet) {
                fprintf(stderr, "mxsim sweep: %lld points x %lld ops written to %s\n",
                        (long long)mxsim_sweep_point_count(sw), (long long)mxsim_trace_count(tr), o.out);
            }
        } else {
            fwrite(b.p, 1, b.n, stdout);
        }
        if (n_bad && rc == 0) {
            fprintf(stderr, "mxsim sweep: error: %lld of %lld points failed; first: %s\n", (long long)n_bad,
                    (long long)mxsim_sweep_point_count(sw), first_err);
            rc = 2;
        }
        cli_buf_free(&b);
        mxsim_sweep_free(sw);
        mxsim_trace_free(tr);
        return rc;
    }
fail:
    rc = mxs_fail(C, ctx, st);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    return rc;
}

/* ---- cost --------------------------------------------------------------------------------- */

static void md_cell(cli_buf *b, const char *s)
{
    for (; *s; s++) cli_printf(b, *s == '|' ? "\\|" : "%c", *s);
}

/* The full citation of every source key, as a Markdown or HTML list. */
static void constants_refs_list(cli_buf *b, int html)
{
    cli_printf(b, html ? "<p>References (source keys above):</p>\n<ul>\n" : "\nReferences (source keys above):\n\n");
    for (int i = 0; i < mxsim_cost_ref_count(); i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_at(i);
        cli_printf(b, html ? "<li><b>%s</b> " : "- **%s** ", r->key);
        (html ? cli_puts_html : md_cell)(b, r->citation);
        cli_printf(b, html ? " (<code>%s</code>)</li>\n" : " (`%s`)\n", r->anchor);
    }
    if (html) cli_printf(b, "</ul>\n");
}

void mxs_constants_md(cli_buf *b, const mxsim_node_scale *sc)
{
    cli_printf(b, "| key | component | what | value | low | high | unit | node (nm) | Vdd (V) | source | conf. | derivation |\n"
                  "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        cli_printf(b, "| `%s` | %s | ", c->key, c->component);
        md_cell(b, c->what);
        cli_printf(b, " | %.6g | %.6g | %.6g | %s | %d | %g | ", c->value, c->low, c->high, c->unit, c->node_nm, c->vdd_v);
        md_cell(b, c->source);
        cli_printf(b, " | %s | ", c->confidence);
        md_cell(b, c->derivation);
        cli_printf(b, " |\n");
    }
    constants_refs_list(b, 0);
    if (sc)
        cli_printf(b, "\nNode scaling (SB17 Stillmaker & Baas 2017, from 45 nm / 0.9 V): node %d nm, Vdd %g V: "
                      "logic area x%.4g, energy and leakage x%.4g, SRAM area x%.4g (6T bitcell ratio). "
                      "DRAM energy is not scaled.\n",
                   sc->node_nm, sc->vdd_v, sc->area_factor, sc->energy_factor, sc->sram_area_factor);
}

void mxs_constants_html(cli_buf *b, const mxsim_node_scale *sc)
{
    cli_printf(b, "<table><tr><th>key</th><th>component</th><th>what</th><th>value</th><th>low</th><th>high</th>"
                  "<th>unit</th><th>node (nm)</th><th>Vdd (V)</th><th>source</th><th>conf.</th></tr>\n");
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        cli_printf(b, "<tr><td><code>%s</code></td><td>%s</td><td>", c->key, c->component);
        cli_puts_html(b, c->what);
        cli_printf(b, "</td><td>%.6g</td><td>%.6g</td><td>%.6g</td><td>%s</td><td>%d</td><td>%g</td><td>", c->value,
                   c->low, c->high, c->unit, c->node_nm, c->vdd_v);
        cli_puts_html(b, c->source);
        cli_printf(b, "</td><td>%s</td></tr>\n", c->confidence);
    }
    cli_printf(b, "</table>\n");
    constants_refs_list(b, 1);
    if (sc)
        cli_printf(b, "<p>Node scaling (SB17, from 45 nm / 0.9 V): %d nm, %g V: logic area &times;%.4g, energy and "
                      "leakage &times;%.4g, SRAM area &times;%.4g. DRAM energy is not scaled.</p>\n",
                   sc->node_nm, sc->vdd_v, sc->area_factor, sc->energy_factor, sc->sram_area_factor);
}

/* One line per citation of the cost model: KEY, anchor and full citation, tab-separated for
** --references (machine-readable), aligned otherwise. */
static void constants_refs_text(cli_buf *b, int tsv)
{
    if (!tsv) cli_printf(b, "References (sim/doc/references.md):\n");
    for (int i = 0; i < mxsim_cost_ref_count(); i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_at(i);
        cli_printf(b, tsv ? "%s\t%s\t%s\n" : "  %-16s %s (%s)\n", r->key, tsv ? r->anchor : r->citation,
                   tsv ? r->citation : r->anchor);
    }
}

int mxsim_cli_cost(int argc, char **argv, mxsim_ctx *ctx)
{
    static const char *C = "cost";
    sopts o;
    int rc;
    if ((rc = parse(C, argc, argv, &o)) != 0) return rc;
    if (o.n_pos) return mxs_usage(C, "unexpected argument", o.pos[0]);
    const char *fmt = o.format ? o.format : "table";
    if (strcmp(fmt, "table") && strcmp(fmt, "md")) return mxs_usage(C, "--format: expected table or md, got", fmt);
    mxsim_cost_params cp;
    if ((rc = cost_params(C, &o, &cp)) != 0) return rc;
    mxsim_status st;
    mxsim_tconfig cfg;
    if ((st = base_config(ctx, &o, &cfg)) != MXSIM_OK) return mxs_fail(C, ctx, st);
    mxsim_area ar;
    if ((st = mxsim_cost_area(ctx, &cfg, &cp, &ar)) != MXSIM_OK) return mxs_fail(C, ctx, st);
    cli_buf b = {0};
    int md = !strcmp(fmt, "md");
    if (o.references) {
        constants_refs_text(&b, 1);
    } else if (!o.constants) {
        cli_printf(&b, md ? "## Area (%s, %d nm, %g V)\n\n" : "Area and leakage (%s, %d nm, %g V)\n\n",
                   o.config ? o.config : "defaults", ar.scale.node_nm, ar.scale.vdd_v);
        cli_printf(&b, md ? "| component | instances | area_mm2 | low_mm2 | high_mm2 | share_pct | leakage_mw |\n|---|---|---|---|---|---|---|\n"
                          : "%-20s %12s %12s %12s %12s %10s %12s\n",
                   "component", "instances", "area_mm2", "low_mm2", "high_mm2", "share_pct", "leakage_mw");
        for (int c = 0; c < MXSIM_COMP_COUNT_; c++) {
            double a = ar.um2[MXSIM_BAND_NOM][c] * 1e-6;
            cli_printf(&b, md ? "| %s | %.6g | %.6g | %.6g | %.6g | %.2f | %.6g |\n" : "%-20s %12.6g %12.6g %12.6g %12.6g %10.2f %12.6g\n",
                       mxsim_component_name((mxsim_component)c), ar.instances[c], a, ar.um2[MXSIM_BAND_LOW][c] * 1e-6,
                       ar.um2[MXSIM_BAND_HIGH][c] * 1e-6, 100 * a / ar.total_mm2[MXSIM_BAND_NOM],
                       ar.leak_uw[MXSIM_BAND_NOM][c] * 1e-3);
        }
        if (md)
            cli_printf(&b, "| **total** | | %.6g | %.6g | %.6g | 100 | %.6g |\n\n", ar.total_mm2[0], ar.total_mm2[1],
                       ar.total_mm2[2], ar.leak_total_mw[0]);
        else
            cli_printf(&b, "%-20s %12s %12.6g %12.6g %12.6g %10s %12.6g\n\n", "total", "", ar.total_mm2[0],
                       ar.total_mm2[1], ar.total_mm2[2], "100", ar.leak_total_mw[0]);
        cli_printf(&b, "SRAM instances are KiB; control_wiring is (overhead factor %g - 1) x the rest.\n\n",
                   cp.overhead_factor);
    }
    if (o.references) {
        /* printed above */
    } else if (md) {
        cli_printf(&b, "## Constants\n\n");
        mxs_constants_md(&b, &ar.scale);
    } else if (o.constants) {
        for (int i = 0; i < mxsim_cost_const_count(); i++) {
            const mxsim_cost_const *c = mxsim_cost_const_at(i);
            cli_printf(&b, "%-26s %-20s %10.6g [%g, %g] %-8s %2d nm %.2g V  %-4s %s [%s]\n", c->key, c->component,
                       c->value, c->low, c->high, c->unit, c->node_nm, c->vdd_v, c->confidence, c->source, c->refs);
        }
        constants_refs_text(&b, 0);
    } else {
        cli_printf(&b, "Constants (mxsim cost --constants):\n");
        for (int i = 0; i < mxsim_cost_const_count(); i++) {
            const mxsim_cost_const *c = mxsim_cost_const_at(i);
            cli_printf(&b, "  %-26s %10.6g %-8s [%g, %g]  %s (%s) [%s]\n", c->key, c->value, c->unit, c->low, c->high,
                       c->source, c->confidence, c->refs);
        }
        cli_printf(&b, "Node scaling (SB17): logic area x%.4g, energy x%.4g, SRAM area x%.4g\n", ar.scale.area_factor,
                   ar.scale.energy_factor, ar.scale.sram_area_factor);
        constants_refs_text(&b, 0);
    }
    if (b.oom) {
        cli_buf_free(&b);
        fprintf(stderr, "mxsim cost: out of memory\n");
        return 1;
    }
    fwrite(b.p, 1, b.n, stdout);
    cli_buf_free(&b);
    return 0;
}

/* cmd_compare_gpu.c - `mxsim compare-gpu`: options in, library calls out.  Bench mode: the GPU
** model against measured times (mxsim_gpu_compare / mxsim_gpu_calibrate), the per-point table and
** the summary on stdout, -o DIR: comparison.csv, comparison.md, scatter.svg (+ card.ini) written
** by the library all or nothing (mxsim_gpu_report_save).  Trace mode: the accelerator next to the
** GPU model (mxsim_gpu_accel_table). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"
#include "gpumodel/cmd_gpumodel.h"


/* ---- small helpers ------------------------------------------------------------------------ */

typedef struct {
    const char *card, *measured, *out, *trace, *config, *max_mape, *group_size, *xcard, *power;
    int calibrate, swap, quiet;
    mxsim_cost_params cost; /* --node, --vdd, --overhead, --sram-bank-kib (trace mode) */
} opts;

/* A card NAME (no '/', no .ini) is looked for in workloads/gpus/ under the working directory,
** then in the installed data directory (<prefix>/share/mxsim/gpus, MXSIM_INSTALL_DATADIR), then
** next to the executable (EXE_DIR/../share/mxsim/gpus for a moved install, EXE_DIR/workloads/gpus
** and EXE_DIR/../workloads/gpus for a build directory in or beside the source tree).  NULL if
** none exists; *tried lists the places, for the message. */
static const char *card_path(const char *card, char *buf, size_t n, char *tried, size_t tn)
{
    if (strchr(card, '/') || strstr(card, ".ini")) return card;
    char exe[4096] = "";
    ssize_t L = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (L > 0) {
        exe[L] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) *slash = '\0';
    } else {
        exe[0] = '\0';
    }
#ifdef MXSIM_INSTALL_DATADIR
    const char *inst = MXSIM_INSTALL_DATADIR;
#else
    const char *inst = NULL;
#endif
    const char *dirs[5][2] = {{"", "workloads/gpus"}, {inst, "/gpus"}, {exe[0] ? exe : NULL, "/../share/mxsim/gpus"},
                              {exe[0] ? exe : NULL, "/workloads/gpus"}, {exe[0] ? exe : NULL, "/../workloads/gpus"}};
    size_t used = 0;
    tried[0] = '\0';
    for (int i = 0; i < 5; i++) {
        if (dirs[i][0] == NULL) continue;
        snprintf(buf, n, "%s%s/%s.ini", dirs[i][0], dirs[i][1], card);
        struct stat sb;
        if (stat(buf, &sb) == 0 && S_ISREG(sb.st_mode)) return buf;
        if (used < tn) used += (size_t)snprintf(tried + used, tn - used, "%s%s", used ? ", " : "", buf);
    }
    return NULL;
}

/* -o DIR: 0 once DIR exists (*made: this call created it, so that a failed write can take it back
** and leave nothing behind), else 1 after a message */
static int make_dir(const char *d, int *made)
{
    *made = mkdir(d, 0755) == 0;
    if (*made || errno == EEXIST) return 0;
    fprintf(stderr, "mxsim compare-gpu: error: %s: %s\n", d, strerror(errno));
    return 1;
}

/* The bench is of the card file's card (bench card column vs the card's name); 0, or 2 after a message. */
static int check_bench_card(const mxsim_gpu_bench *bn, const char *bench_path, const mxsim_gpu_card *card, const char *cpath)
{
    const char *bc = mxsim_gpu_bench_card(bn);
    if (cli_gpu_card_is(card->name, bc)) return 0;
    fprintf(stderr,
            "mxsim compare-gpu: error: %s:%d: field 'card': the bench measured card '%s', but the card file %s is card '%s' "
            "(name = %s): compare a card with its own bench\n",
            bench_path, cli_gpu_first_row_line(bench_path), bc, cpath, card->name, card->name);
    return CLI_EXIT_USAGE;
}

/* -o DIR: every file the command would write there must not be one of its inputs (device and inode,
** as cli_check_output_not_input does for -o FILE); checked before any work.  0, or 2 after a message. */
static int check_outputs(const opts *o, const char *cpath)
{
    if (!o->out) return 0;
    /* -o is a directory: a file there (-o out.csv) printed the whole table, then failed */
    struct stat sb;
    if (stat(o->out, &sb) == 0 && !S_ISDIR(sb.st_mode))
        return cli_usage("-o %s: not a directory (compare-gpu writes its files into DIR)", o->out);
    const char *names[4];
    int n = 0;
    if (o->xcard) names[n++] = "accel_vs_best_gpu.csv";
    else if (o->trace) names[n++] = "accel_vs_gpu.csv";
    else {
        names[n++] = "comparison.csv", names[n++] = "comparison.md", names[n++] = "scatter.svg";
        if (o->calibrate) names[n++] = "card.ini";
    }
    const char *in[6] = {cpath, o->measured, o->trace, o->config, o->xcard, o->power};
    for (int i = 0; i < n; i++) {
        char path[4096];
        if ((size_t)snprintf(path, sizeof path, "%s/%s", o->out, names[i]) >= sizeof path)
            return cli_usage("-o %s: path too long", o->out);
        for (int j = 0; j < 6; j++)
            if (in[j] && cli_gpu_same_file(path, in[j]))
                return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", path, in[j]);
    }
    return 0;
}

/* ---- bench mode --------------------------------------------------------------------------- */

static int run_bench(const opts *o, mxsim_ctx *ctx, mxsim_gpu_card *card, const char *cpath)
{
    mxsim_gpu_bench *bn = NULL;
    mxsim_status st = mxsim_gpu_bench_load(ctx, o->measured, &bn);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    if (check_bench_card(bn, o->measured, card, cpath)) {
        mxsim_gpu_bench_free(bn);
        return CLI_EXIT_USAGE;
    }
    if (o->swap) mxsim_gpu_bench_swap_split(bn);
    mxsim_gpu_summary s;
    st = o->calibrate ? mxsim_gpu_calibrate(ctx, card, bn, &s) : mxsim_gpu_compare(ctx, card, bn, &s);
    if (st != MXSIM_OK) {
        mxsim_gpu_bench_free(bn);
        return cli_fail(ctx, st);
    }
    mxsim_table *t = NULL;
    int rc = 0, made = 0;
    /* the files first: a report that cannot be written leaves no results on stdout (and no
    ** directory this call made) */
    if (o->out && !(rc = make_dir(o->out, &made))) {
        st = mxsim_gpu_report_save(ctx, card, bn, &s, cpath, o->measured, o->calibrate, o->out);
        if (st != MXSIM_OK) {
            rc = cli_fail(ctx, st);
            if (made) rmdir(o->out);
        }
    }
    if (!rc && !o->quiet) {
        st = mxsim_gpu_bench_table(ctx, bn, &t);
        rc = st == MXSIM_OK ? cli_emit_table(ctx, t, "table", NULL) : cli_fail(ctx, st);
        mxsim_table_free(t);
    }
    static const char *hn[] = {"training", "held-out", "all"};
    for (int h = 0; !rc && h < 3; h++)
        printf("%s: %s %lld points, MAPE %.2f%%, max |err| %.1f%%, Pearson r (log) %.4f\n", card->name, hn[h],
               (long long)s.n[h], s.mape_pct[h], s.max_abs_err_pct[h], s.pearson_r[h]);
    if (!rc && o->out && !o->quiet) printf("wrote %s/comparison.csv, comparison.md, scatter.svg\n", o->out);
    if (!rc && o->max_mape) {
        const double lim = strtod(o->max_mape, NULL); /* checked by cmd_compare_gpu before any work */
        if (s.mape_pct[1] > lim || s.mape_pct[2] > lim) {
            fprintf(stderr, "mxsim compare-gpu: MAPE above --max-mape %s%%: held-out %.6g%%, all %.6g%%\n", o->max_mape,
                    s.mape_pct[1], s.mape_pct[2]);
            rc = 1;
        }
    }
    mxsim_gpu_bench_free(bn);
    return rc;
}

/* ---- trace mode --------------------------------------------------------------------------- */

#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
/* The accelerator's configuration: --config, then --group-size over it, validated. */
static mxsim_status load_config(const opts *o, mxsim_ctx *ctx, mxsim_tconfig *cfg)
{
    mxsim_tconfig_default(cfg);
    mxsim_status st = mxsim_tconfig_load(ctx, cfg, o->config);
    if (st == MXSIM_OK && o->group_size) st = mxsim_tconfig_set(ctx, cfg, "mx.group_size", o->group_size, "--group-size");
    if (st == MXSIM_OK) st = mxsim_tconfig_validate(ctx, cfg);
    return st;
}

/* -o DIR: the table as DIR/file (CSV); then the table on stdout. */
static int table_out(const opts *o, mxsim_ctx *ctx, const mxsim_table *t, const char *file)
{
    int rc = 0, made = 0;
    if (o->out && !(rc = make_dir(o->out, &made))) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", o->out, file);
        mxsim_status st = mxsim_table_save(ctx, t, MXSIM_OUTPUT_CSV, path);
        if (st != MXSIM_OK) {
            rc = cli_fail(ctx, st);
            if (made) rmdir(o->out);
        }
    }
    return rc ? rc : cli_emit_table(ctx, t, "csv", NULL);
}

/* Trace mode: the library's table; -o DIR also writes it as DIR/accel_vs_gpu.csv. */
static int run_trace(const opts *o, mxsim_ctx *ctx, const mxsim_gpu_card *card, const char *cpath)
{
    mxsim_tconfig cfg;
    mxsim_status st = load_config(o, ctx, &cfg);
    mxsim_trace *tr = NULL;
    mxsim_gpu_bench *bn = NULL;
    mxsim_table *t = NULL;
    if (st == MXSIM_OK) st = mxsim_trace_load(ctx, o->trace, &tr);
    if (st == MXSIM_OK && o->measured) st = mxsim_gpu_bench_load(ctx, o->measured, &bn);
    int rc = st == MXSIM_OK && bn ? check_bench_card(bn, o->measured, card, cpath) : 0;
    if (st == MXSIM_OK && !rc) st = mxsim_gpu_accel_table_cost(ctx, card, &cfg, &o->cost, tr, bn, &t);
    if (!rc) rc = st == MXSIM_OK ? table_out(o, ctx, t, "accel_vs_gpu.csv") : cli_fail(ctx, st);
    mxsim_table_free(t);
    mxsim_trace_free(tr);
    mxsim_gpu_bench_free(bn);
    return rc;
}

/* Trace mode against the best GPU implementation per op, at measured power: -o DIR writes
** DIR/accel_vs_best_gpu.csv. */
static int run_best(const opts *o, mxsim_ctx *ctx)
{
    mxsim_gpu_xsheet d;
    mxsim_gpu_xparams p;
    char name[128] = "?";
    int n_cal = 0, rc = cli_xcard_load(ctx, o->xcard, &d, &p, &n_cal, name, sizeof name);
    if (rc) return rc;
    if (n_cal == 0) return cli_usage("--xcard %s: no calibrated fields", o->xcard);
    mxsim_tconfig cfg;
    mxsim_status st = load_config(o, ctx, &cfg);
    mxsim_trace *tr = NULL;
    mxsim_gpu_xpower *pw = NULL;
    mxsim_table *t = NULL;
    if (st == MXSIM_OK) st = mxsim_trace_load(ctx, o->trace, &tr);
    if (st == MXSIM_OK) st = mxsim_gpu_xpower_load(ctx, o->power, &pw);
    /* the card file and the power file are one card: the table takes its label and measured rows
    ** from the power file and every modelled time from the card file */
    const char *pc = st == MXSIM_OK ? mxsim_gpu_xpower_card(pw) : "";
    if (st == MXSIM_OK && !cli_gpu_card_is(name, pc)) {
        fprintf(stderr,
                "mxsim compare-gpu: error: %s:%d: field 'card': the power file measured card '%s', but the card file %s is "
                "card '%s' (name = %s): --xcard and --power must be the same card\n",
                o->power, cli_gpu_first_row_line(o->power), pc, o->xcard, name, name);
        rc = CLI_EXIT_USAGE;
    } else {
        if (st == MXSIM_OK) st = mxsim_gpu_accel_best_table_cost(ctx, pc, &d, &p, pw, &cfg, &o->cost, tr, &t);
        rc = st == MXSIM_OK ? table_out(o, ctx, t, "accel_vs_best_gpu.csv") : cli_fail(ctx, st);
    }
    mxsim_table_free(t);
    mxsim_trace_free(tr);
    mxsim_gpu_xpower_free(pw);
    return rc;
}
#endif

static int cmd_compare_gpu(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    opts o = {cli_get(c, a, "card"), cli_get(c, a, "measured"), cli_get(c, a, "out"), cli_get(c, a, "trace"),
              cli_get(c, a, "config"), cli_get(c, a, "max-mape"), cli_get(c, a, "group-size"),
              cli_get(c, a, "xcard"), cli_get(c, a, "power"),
              cli_get(c, a, "calibrate") != NULL, cli_get(c, a, "swap-split") != NULL, cli_get(c, a, "quiet") != NULL};
    if (o.max_mape) { /* before any work: a bad limit must not leave the reports behind */
        char *e;
        const double lim = strtod(o.max_mape, &e);
        if (e == o.max_mape || *e || !(lim > 0) || !isfinite(lim) || strpbrk(o.max_mape, "xX"))
            return cli_usage("--max-mape: '%s' is not a positive percentage", o.max_mape);
    }
    if (o.out && !strcmp(o.out, "-"))
        return cli_usage("-o -: compare-gpu writes a directory (DIR/comparison.csv, ...); give its name");
    if (!o.trace && (o.config || o.group_size || cli_cost_opts_given(c, a)))
        return cli_usage("%s goes with --trace (the accelerator's side of the comparison)",
                         o.config ? "--config" : o.group_size ? "--group-size" : cli_cost_opts_given(c, a));
#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
    if (o.trace) {
        int crc = cli_cost_params(c, a, &o.cost);
        if (crc) return crc;
    }
#endif
    if (o.trace && (o.calibrate || o.swap || o.max_mape))
        return cli_usage("%s goes with --measured alone (bench mode), not with --trace",
                         o.calibrate ? "--calibrate" : o.swap ? "--swap-split" : "--max-mape");
    if ((o.xcard || o.power) && (o.card || o.measured))
        return cli_usage("%s: --xcard and --power take the card and its measurements from those files", o.card ? "--card" : "--measured");
    if (o.xcard || o.power) {
        if (!o.xcard || !o.power || !o.trace || !o.config)
            return cli_usage("--xcard and --power go together, with --trace and --config");
        int orc = check_outputs(&o, NULL);
        if (orc) return orc;
#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
        return run_best(&o, ctx);
#else
        return cli_usage("--trace needs the timing engine and the cost model (MXSIM_WITH_TIMING, MXSIM_WITH_SWEEP)");
#endif
    }
    if (!o.card) return cli_usage("--card is required");
    if (!o.trace && !o.measured) return cli_usage("--measured BENCH.csv (or --trace) is required");
    if (o.trace && !o.config) return cli_usage("--trace needs --config CFG");
    char buf[8192];
    char tried[2048];
    const char *cpath = card_path(o.card, buf, sizeof buf, tried, sizeof tried);
    if (cpath == NULL) {
        fprintf(stderr, "mxsim compare-gpu: error: --card %s: no card file found; looked in: %s\n", o.card, tried);
        return CLI_EXIT_USAGE;
    }
    int orc = check_outputs(&o, cpath);
    if (orc) return orc;
    mxsim_gpu_card card;
    mxsim_status st = mxsim_gpu_card_load(ctx, cpath, &card);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    if (o.trace) {
#if defined(MXSIM_WITH_TIMING) && defined(MXSIM_WITH_SWEEP)
        return run_trace(&o, ctx, &card, cpath);
#else
        return cli_usage("--trace needs the timing engine and the cost model (MXSIM_WITH_TIMING, MXSIM_WITH_SWEEP)");
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
    {"xcard", 0, 1, 0, "CARD-xcard.ini", "with --trace: the best GPU implementation per op (cross-card model)"},
    {"power", 0, 1, 0, "BENCH_EXT.csv", "with --xcard: the card's measured times and NVML power"},
    CLI_COST_OPTS,
    {0}};

const cli_command mxsim_cmd_compare_gpu = {
    "compare-gpu", "",
    "Predicts the GPU time of mxsim's CUDA kernels and the cuBLAS baselines with the analytical\n"
    "model of sim/doc/gpu-model.md, against measured times: per (kernel, shape, G) predicted and\n"
    "measured time, error, bound, MAPE and Pearson r (log) on the training half, the held-out half\n"
    "and both, the worst outliers. --calibrate writes DIR/card.ini. With --trace: every op of\n"
    "TRACE on the accelerator (CFG; time, TOPS, energy, TOPS/W, TOPS/mm2) next to the GPU model\n"
    "and, where BENCH.csv has the same op, the measured GPU time. With --trace --xcard --power: every\n"
    "op against the best GPU implementation the op's format allows (mxk, cuBLAS bf16, cuBLASLt int8),\n"
    "measured or from the cross-card model, at measured power, naming the card. The accelerator is\n"
    "costed at --node (default 45 nm; columns accel_node_nm, accel_vdd_v); the GPU is its own node.",
    k_opts, 0, 0, cmd_compare_gpu, NULL};

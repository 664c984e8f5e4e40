/* cmd_gpu_calibrate.c - `mxsim gpu-calibrate`: the cross-card GPU model (sim/doc/gpu-model.md
** section 6).  Calibrates on the bench.csv of one card, predicts the bench.csv of another from its
** datasheet values only, prints the held-out MAPE (overall and per kernel class), optionally writes
** the target's card file (its datasheet + the fields calibrated on the source) and checks a
** committed card file against the re-derivation. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "gpumodel/cmd_gpumodel.h"

/* the calibrated fields of a class: the library's one table of them */
#define NPAR MXSIM_GX_NPARAM

int cli_xcard_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xsheet *d, mxsim_gpu_xparams *p, int *n_cal, char *name,
                   size_t nn)
{
    int n = 0;
    const mxsim_status st = mxsim_gpu_xcard_load(ctx, path, d, p, p ? (n_cal ? n_cal : &n) : NULL, name, nn);
    return st == MXSIM_OK ? 0 : cli_fail(ctx, st);
}

/* Whether word [w, e) is one of the words of s (split at blanks and '-'), case ignored. */
static int card_has_word(const char *s, const char *w, size_t n)
{
    while (*s) {
        while (*s == ' ' || *s == '-') s++;
        const char *e = s;
        while (*e && *e != ' ' && *e != '-') e++;
        if ((size_t)(e - s) == n && n > 0 && strncasecmp(s, w, n) == 0) return 1;
        s = e;
    }
    return 0;
}

int cli_gpu_card_is(const char *name, const char *bench_card)
{
    if (name[0] == '\0') return 0;
    if (strcasecmp(name, bench_card) == 0) return 1;
    /* every word of the name is a word of the card ("h100-pcie" and "NVIDIA H100 PCIe") ... */
    for (const char *w = name; *w;) {
        while (*w == ' ' || *w == '-') w++;
        const char *e = w;
        while (*e && *e != ' ' && *e != '-') e++;
        if (e > w && !card_has_word(bench_card, w, (size_t)(e - w))) return 0;
        w = e;
    }
    /* ... and a form factor of the card is in the name: an H100 PCIe (114 SMs, 2 TB/s) is not the
    ** SXM card "h100" names, though its name has the word H100 */
    static const char *const k_form[] = {"PCIe", "NVL"};
    for (size_t i = 0; i < sizeof k_form / sizeof k_form[0]; i++)
        if (card_has_word(bench_card, k_form[i], strlen(k_form[i])) && !card_has_word(name, k_form[i], strlen(k_form[i])))
            return 0;
    return 1;
}

int cli_gpu_first_row_line(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int c, ln = 1, header = 0, blank = 1;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n') {
            if (!blank && header) break;
            if (!blank) header = 1;
            ln++, blank = 1;
        } else if (!isspace(c)) {
            blank = 0;
        }
    }
    fclose(f);
    return header && !blank ? ln : 0;
}

int cli_gpu_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The runs named by --from or --to: each value is a bench CSV, or a folder, which means its
** bench.csv and every bench_run*.csv in it (the other runs of the same build, by name order).
** A value "decode1:PATH" says that PATH ran the build before decode2 (MXSIM_GX_BUILD_DECODE1: its
** cfg 9 is the first decode kernel, class mxk-decode-cfg10), "prebf16:PATH" a build from decode2 to
** final4 (MXSIM_GX_BUILD_PREBF16: no cfg 11, cfg 0 took cfg 8 at G = 32), "prerow:PATH" one from final5 to
** final7 (MXSIM_GX_BUILD_PREROW: no cfg 12, cfg 0 took cfg 9 at M = 1); any other value is a path of the
** current build (workloads/gpus/xcard-runs.txt's third field, sim/doc/gpu-model.md section 6). */
static const char *const k_build_tag[MXSIM_GX_NBUILD] = {"", "decode1", "prebf16", "prerow"};
#define MAXRUN 96 /* runs per card (every listed folder's bench.csv and bench_run*.csv) */
typedef struct {
    int n;
    char path[MAXRUN][1024];
    int build[MAXRUN]; /* the --from / --to value it came from: one build of the kernels */
    int tag[MAXRUN];   /* its MXSIM_GX_BUILD_* */
    mxsim_gpu_xbench *b[MAXRUN];
} runs_t;

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* The files DIR/PREFIX*.csv (a name longer than PREFIX + ".csv"), as "DIR/NAME" in name order, at
** most MAXRUN; *n their count.  Free each name. */
static void dir_files(const char *dir, const char *prefix, char **names, int *n)
{
    const size_t lp = strlen(prefix);
    DIR *dp = opendir(dir);
    *n = 0;
    for (struct dirent *de; dp && (de = readdir(dp)) != NULL;) {
        const size_t l = strlen(de->d_name);
        if (!strncmp(de->d_name, prefix, lp) && l > lp + 4 && !strcmp(de->d_name + l - 4, ".csv") && *n < MAXRUN) {
            char buf[1100];
            snprintf(buf, sizeof buf, "%s/%s", dir, de->d_name);
            names[(*n)++] = strdup(buf);
        }
    }
    if (dp) closedir(dp);
    qsort(names, (size_t)*n, sizeof *names, cmp_str);
}

static int add_run(runs_t *r, const char *path, int build, int tag)
{
    if (r->n >= MAXRUN || strlen(path) >= sizeof r->path[0]) {
        fprintf(stderr, "mxsim %s: error: %s: more than %d runs or a path too long\n", cli_cmd, path, MAXRUN);
        return CLI_EXIT_USAGE;
    }
    r->build[r->n] = build;
    r->tag[r->n] = tag;
    memcpy(r->path[r->n++], path, strlen(path) + 1);
    return 0;
}

static int expand_runs(const cli_command *cmd, const cli_args *a, const char *opt, runs_t *r)
{
    const char *const *v;
    const int n = cli_get_list(cmd, a, opt, &v);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        struct stat sb;
        char buf[1100];
        int rc, tag = MXSIM_GX_BUILD_CURRENT;
        const char *path = v[i];
        for (int t = 1; t < MXSIM_GX_NBUILD; t++) {
            const size_t l = strlen(k_build_tag[t]);
            if (!strncmp(path, k_build_tag[t], l) && path[l] == ':') tag = t, path += l + 1;
        }
        const char *colon = strchr(path, ':');
        if (tag == MXSIM_GX_BUILD_CURRENT && colon && stat(path, &sb) != 0) {
            fprintf(stderr, "mxsim %s: error: --%s %s: unknown build '%.*s' (known: decode1, prebf16, prerow)\n", cli_cmd, opt, path,
                    (int)(colon - path), path);
            return CLI_EXIT_USAGE;
        }
        if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            if ((rc = add_run(r, path, i, tag))) return rc;
            continue;
        }
        snprintf(buf, sizeof buf, "%s/bench.csv", path);
        if ((rc = add_run(r, buf, i, tag))) return rc;
        char *names[MAXRUN];
        int nn = 0;
        dir_files(path, "bench_run", names, &nn);
        for (int k = 0; k < nn; k++) {
            if (!rc && names[k]) rc = add_run(r, names[k], i, tag);
            free(names[k]);
        }
        if (rc) return rc;
    }
    return 0;
}

static void free_runs(runs_t *r)
{
    for (int i = 0; i < r->n; i++) mxsim_gpu_xbench_free(r->b[i]);
}

static mxsim_status load_runs(mxsim_ctx *ctx, runs_t *r, mxsim_gpu_xbench **median)
{
    mxsim_status st = MXSIM_OK;
    for (int i = 0; i < r->n && st == MXSIM_OK; i++) st = mxsim_gpu_xbench_load_build(ctx, r->path[i], r->tag[i], &r->b[i]);
    if (st == MXSIM_OK) st = mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)r->b, r->build, r->n, median);
    return st;
}

/* The launch files named by --from-launch or --to-launch: each value is a CSV of
** kernels/tools/launch_probe.cu, or a folder, which means every launch_probe*.csv in it (name order). */
typedef struct {
    int n;
    char path[MAXRUN][1024];
} launch_t;

static int expand_launch(const cli_command *cmd, const cli_args *a, const char *opt, launch_t *r)
{
    const char *const *v;
    const int n = cli_get_list(cmd, a, opt, &v);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        struct stat sb;
        char *names[MAXRUN];
        int nn = 0;
        if (stat(v[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            names[nn++] = strdup(v[i]);
        } else {
            dir_files(v[i], "launch_probe", names, &nn);
            if (nn == 0) return cli_usage("--%s %s: the folder holds no launch_probe*.csv", opt, v[i]);
        }
        int rc = 0;
        for (int k = 0; k < nn; k++) {
            if (!rc && (!names[k] || r->n >= MAXRUN || strlen(names[k]) >= sizeof r->path[0]))
                rc = cli_usage("--%s: more than %d files or a path too long", opt, MAXRUN);
            if (!rc) memcpy(r->path[r->n++], names[k], strlen(names[k]) + 1);
            free(names[k]);
        }
        if (rc) return rc;
    }
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < i; j++)
            if (cli_gpu_same_file(r->path[i], r->path[j]))
                return cli_usage("--%s: the file '%s' is given twice (also as '%s'): each launch counts once", opt, r->path[i],
                                 r->path[j]);
    return 0;
}

/* The launch floor from launch files of the card of bench `bcard` and card file `cfile` (name cname). */
static int launch_floor(mxsim_ctx *ctx, const char *opt, const launch_t *r, const char *bcard, const char *cname,
                        const char *cfile, double *floor_us, int *n_launches)
{
    const char *paths[MAXRUN];
    char card[128];
    for (int i = 0; i < r->n; i++) paths[i] = r->path[i];
    const mxsim_status st = mxsim_gpu_xlaunch_floor(ctx, paths, r->n, floor_us, n_launches, card, sizeof card);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    if (strcmp(card, bcard) != 0 || !cli_gpu_card_is(cname, card)) {
        fprintf(stderr, "mxsim %s: error: %s:%d: field 'card': the launch runs are of card '%s', but the --%s runs are of '%s' "
                        "(%s: card '%s')\n",
                cli_cmd, r->path[0], cli_gpu_first_row_line(r->path[0]), card, strncmp(opt, "from", 4) ? "to" : "from", bcard,
                cfile, cname);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static void print_score(const char *what, const mxsim_gpu_xscore *s)
{
    printf("%s: %d rows, MAPE %.2f%%, max |error| %.1f%%\n", what, s->n, 100 * s->mape, 100 * s->max_abs);
    for (int c = 0; c < MXSIM_GX_NCLASS; c++)
        if (s->cls_n[c]) printf("  %-22s %3d rows  MAPE %6.2f%%\n", mxsim_gpu_xclass_name(c), s->cls_n[c], 100 * s->cls_mape[c]);
    /* mxsim's own kernels (copy, dequantize, mxk GEMMs) apart from the cuBLAS rows */
    double e = 0;
    int n = 0;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++)
        if (c != MXSIM_GX_CUBLAS_BF16 && c != MXSIM_GX_CUBLASLT_INT8 && c != MXSIM_GX_DEQUANT_CUBLAS)
            e += s->cls_mape[c] * s->cls_n[c], n += s->cls_n[c];
    if (n) printf("  %-22s %3d rows  MAPE %6.2f%%\n", "(mxk + copy + dequant)", n, 100 * e / n);
    if (s->uncalibrated)
        printf("  %-22s %3d rows  not predicted: their class has no row on the calibration card\n", "(uncalibrated)",
               s->uncalibrated);
}

/* cfg 0 (mxk-gemm-mxint8) runs one of the explicit kernels, and the bench times those on the same
** data: a cfg 0 row far (> 10%) from the explicit row of the class the routing gives it, but near
** (< 5%) another explicit row, means that the build routes differently from mxsim_gpu_xclass_of.
** A note, not an error: the model keeps the routing of kernels/src/gemm_mma.cu it was written for. */
static void routing_notes(const char *path, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p)
{
    const int n = mxsim_gpu_xbench_count(b);
    for (int i = 0; i < n; i++) {
        mxsim_gpu_xrow r;
        if (mxsim_gpu_xbench_row(b, i, d, p, &r) != MXSIM_OK || strcmp(r.method, "mxk-gemm-mxint8")) continue;
        double same = 0, other = 0;
        const char *other_m = NULL;
        for (int j = 0; j < n; j++) {
            mxsim_gpu_xrow e;
            if (mxsim_gpu_xbench_row(b, j, d, p, &e) != MXSIM_OK || strncmp(e.method, "mxk-gemm-mxint8-cfg", 19) ||
                e.M != r.M || e.N != r.N || e.K != r.K || e.G != r.G)
                continue;
            const double dev = fabs(r.measured_us / e.measured_us - 1);
            if (e.cls == r.cls) same = dev > same ? dev : same;
            else if (!other_m || dev < other) other = dev, other_m = e.method;
        }
        if (same > 0.10 && other_m && other < 0.05)
            printf("note: %s: cfg 0 at %lldx%lldx%lld G=%lld (%.3f us) is %.0f%% off its routed class %s but "
                   "within %.0f%% of %s: does this build route differently (mxsim_gpu_xclass_of)?\n",
                   path, (long long)r.M, (long long)r.N, (long long)r.K, (long long)r.G, r.measured_us, 100 * same,
                   mxsim_gpu_xclass_name(r.cls), 100 * other, other_m);
    }
}

static int cmd_gpu_calibrate(const cli_command *cmd, const cli_args *a, mxsim_ctx *ctx)
{
    const char *from = cli_get(cmd, a, "from"), *to = cli_get(cmd, a, "to");
    const char *from_card = cli_get(cmd, a, "from-card"), *to_card = cli_get(cmd, a, "to-card");
    const char *out = cli_get(cmd, a, "out"), *maxm = cli_get(cmd, a, "max-mape");
    const int check = cli_get(cmd, a, "check") != NULL, rows = cli_get(cmd, a, "rows") != NULL;
    if (!from || !to || !from_card || !to_card) return cli_usage("--from, --from-card, --to and --to-card are required");
    double max_mape = 0;
    if (maxm && cli_real("--max-mape", maxm, 0, 1000, &max_mape)) return CLI_EXIT_USAGE;
    if (out && strcmp(out, "-") != 0 && strrchr(out, '/')) { /* -o's folder exists: checked before results are printed */
        char dir[4096];
        const size_t n = (size_t)(strrchr(out, '/') - out);
        struct stat sd;
        snprintf(dir, sizeof dir, "%.*s", (int)n, out);
        if (n > 0 && n < sizeof dir && (stat(dir, &sd) != 0 || !S_ISDIR(sd.st_mode))) {
            fprintf(stderr, "mxsim %s: error: -o %s: '%s' %s\n", cli_cmd, out, dir,
                    stat(dir, &sd) != 0 ? "does not exist" : "is not a directory");
            return CLI_EXIT_RUNTIME;
        }
    }
    mxsim_gpu_xsheet ds, dt;
    mxsim_gpu_xparams committed;
    char sname[128] = "?", tname[128] = "?";
    int n_cal = 0, rc;
    if ((rc = cli_xcard_load(ctx, from_card, &ds, NULL, NULL, sname, sizeof sname))) return rc;
    if ((rc = cli_xcard_load(ctx, to_card, &dt, &committed, &n_cal, tname, sizeof tname))) return rc;
    static runs_t rs, rt;
    if ((rc = expand_runs(cmd, a, "from", &rs)) || (rc = expand_runs(cmd, a, "to", &rt))) return rc;
    static launch_t ls, lt;
    if ((rc = expand_launch(cmd, a, "from-launch", &ls)) || (rc = expand_launch(cmd, a, "to-launch", &lt))) return rc;
    /* one run given twice would count twice in the median */
    for (int w = 0; w < 2; w++) {
        const runs_t *r = w ? &rt : &rs;
        for (int i = 0; i < r->n; i++)
            for (int j = 0; j < i; j++)
                if (cli_gpu_same_file(r->path[i], r->path[j]))
                    return cli_usage("--%s: the run '%s' is given twice (also as '%s'): each run counts once", w ? "to" : "from",
                                     r->path[i], r->path[j]);
    }
    /* -o FILE must not be an input: the card files or any run (a --from DIR means DIR/bench.csv too) */
    if (out) {
        const char *cards[2] = {from_card, to_card};
        for (int i = 0; i < 2; i++)
            if (cli_gpu_same_file(out, cards[i]))
                return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out, cards[i]);
        for (int w = 0; w < 2; w++) {
            const runs_t *r = w ? &rt : &rs;
            for (int i = 0; i < r->n; i++)
                if (cli_gpu_same_file(out, r->path[i]))
                    return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out,
                                     r->path[i]);
            const launch_t *l = w ? &lt : &ls;
            for (int i = 0; i < l->n; i++)
                if (cli_gpu_same_file(out, l->path[i]))
                    return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out,
                                     l->path[i]);
        }
    }
    mxsim_gpu_xbench *bs = NULL, *bt = NULL;
    mxsim_status st = load_runs(ctx, &rs, &bs);
    if (st == MXSIM_OK) st = load_runs(ctx, &rt, &bt);
    /* each run is of its card file's card (--from-card / --to-card name = NAME) */
    for (int w = 0; w < 2 && st == MXSIM_OK && !rc; w++) {
        const runs_t *r = w ? &rt : &rs;
        const char *cname = w ? tname : sname, *cfile = w ? to_card : from_card;
        for (int i = 0; i < r->n && !rc; i++) {
            const char *bc = mxsim_gpu_xbench_card(r->b[i]);
            if (!cli_gpu_card_is(cname, bc)) {
                fprintf(stderr,
                        "mxsim %s: error: %s:%d: field 'card': the run is of card '%s', but --%s-card %s is card '%s'\n",
                        cli_cmd, r->path[i], cli_gpu_first_row_line(r->path[i]), bc, w ? "to" : "from", cfile, cname);
                rc = CLI_EXIT_USAGE;
            } else if (i > 0 && strcmp(bc, mxsim_gpu_xbench_card(r->b[0])) != 0) {
                fprintf(stderr, "mxsim %s: error: %s:%d: field 'card': '%s' differs from the first --%s run's '%s' (%s)\n", cli_cmd,
                        r->path[i], cli_gpu_first_row_line(r->path[i]), bc, w ? "to" : "from", mxsim_gpu_xbench_card(r->b[0]),
                        r->path[0]);
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    if (rc) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return rc;
    }
    /* the launch floor: measured on the calibration card (--from-launch), checked on the other one */
    double floor_s = 0, floor_t = 0;
    int nl_s = 0, nl_t = 0;
    if (st == MXSIM_OK && ls.n) rc = launch_floor(ctx, "from-launch", &ls, mxsim_gpu_xbench_card(bs), sname, from_card, &floor_s, &nl_s);
    if (st == MXSIM_OK && !rc && lt.n) rc = launch_floor(ctx, "to-launch", &lt, mxsim_gpu_xbench_card(bt), tname, to_card, &floor_t, &nl_t);
    if (rc) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return rc;
    }
    mxsim_gpu_xparams p;
    mxsim_gpu_xscore train, held, each[MAXRUN];
    if (st == MXSIM_OK) st = mxsim_gpu_xcalibrate(ctx, bs, &ds, &p);
    p.launch_floor_us = floor_s;
    if (st == MXSIM_OK) st = mxsim_gpu_xscore_bench(ctx, bs, &ds, &p, &train);
    if (st == MXSIM_OK) st = mxsim_gpu_xscore_bench(ctx, bt, &dt, &p, &held);
    for (int i = 0; i < rt.n && st == MXSIM_OK; i++) st = mxsim_gpu_xscore_bench(ctx, rt.b[i], &dt, &p, &each[i]);
    if (st != MXSIM_OK) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return cli_fail(ctx, st);
    }
    printf("calibrated on %s (card %s): the per-row median of %d run(s) (sim/doc/gpu-model.md section 6.4)\n",
           mxsim_gpu_xbench_card(bs), sname, rs.n);
    for (int i = 0; i < rs.n; i++)
        printf("  %s%s%s%s%s (%d modelled rows, %d of unmodelled methods skipped)\n", rs.path[i],
               rs.tag[i] ? " (build " : "", k_build_tag[rs.tag[i]], rs.tag[i] ? ")" : "",
               rs.build[i] ? " (library rows only: another build)" : "", mxsim_gpu_xbench_count(rs.b[i]),
               mxsim_gpu_xbench_skipped(rs.b[i]));
    printf("predicting %s (card %s) from its datasheet, %d run(s):\n", mxsim_gpu_xbench_card(bt), tname, rt.n);
    for (int i = 0; i < rt.n; i++)
        printf("  run %d: %s%s%s%s%s (%d modelled rows, %d of unmodelled methods skipped)\n", i + 1, rt.path[i],
               rt.tag[i] ? " (build " : "", k_build_tag[rt.tag[i]], rt.tag[i] ? ")" : "",
               rt.build[i] ? " (library rows only: another build)" : "", mxsim_gpu_xbench_count(rt.b[i]),
               mxsim_gpu_xbench_skipped(rt.b[i]));
    printf("mem_eff %.4f (copy / datasheet HBM on %s)\n", p.mem_eff, mxsim_gpu_xbench_card(bs));
    if (ls.n)
        printf("launch floor %.3f us (the median of %d empty-kernel launches in %d file(s) on %s)\n", floor_s, nl_s, ls.n,
               mxsim_gpu_xbench_card(bs));
    else
        printf("launch floor: none (no --from-launch): an op may be predicted below one empty launch\n");
    if (lt.n)
        printf("launch floor on the held-out card: measured %.3f us (the median of %d launches in %d file(s)), model %.3f us "
               "(%+.1f%%)\n", floor_t, nl_t, lt.n, floor_s, floor_s > 0 ? 100 * (floor_s / floor_t - 1) : -100.0);
    for (int i = 0; i < rs.n; i++)
        if (!rs.build[i]) routing_notes(rs.path[i], rs.b[i], &ds, &p);
    for (int i = 0; i < rt.n; i++)
        if (!rt.build[i]) routing_notes(rt.path[i], rt.b[i], &dt, &p);
    print_score("calibration card (fit, median of its runs)", &train);
    print_score("held-out card (median of its runs)", &held);
    for (int i = 0; i < rt.n && rt.n > 1; i++) {
        if (rt.build[i]) continue; /* its mxk rows ran other kernels: scored through the median only */
        char what[64];
        snprintf(what, sizeof what, "held-out card, run %d", i + 1);
        print_score(what, &each[i]);
    }
    if (rows) {
        printf("held-out rows (median of its runs)\nclass,method,M,N,K,G,measured_us,model_us,error_pct\n");
        for (int i = 0; i < mxsim_gpu_xbench_count(bt); i++) {
            mxsim_gpu_xrow r;
            if (mxsim_gpu_xbench_row(bt, i, &dt, &p, &r) == MXSIM_OK)
                printf("%s,%s,%lld,%lld,%lld,%lld,%.3f,%.3f,%.2f\n", mxsim_gpu_xclass_name(r.cls), r.method, (long long)r.M,
                       (long long)r.N, (long long)r.K, (long long)r.G, r.measured_us, r.model_us,
                       100 * (r.model_us / r.measured_us - 1));
        }
    }
    int fail = 0;
    /* text of the calibrated fields, for -o and --check */
    char text[16384];
    size_t u = 0;
    u += (size_t)snprintf(text + u, sizeof text - u, "mem_eff = %.6g\n", p.mem_eff);
    if (ls.n) u += (size_t)snprintf(text + u, sizeof text - u, "launch.floor_us = %.6g\n", p.launch_floor_us);
    for (int c = 1; c < MXSIM_GX_NCLASS; c++) /* the classes the calibration card has rows of */
        for (int k = 0; k < NPAR && train.cls_n[c]; k++)
            if (mxsim_gpu_xparam_used(c, k))
                u += (size_t)snprintf(text + u, sizeof text - u, "%s.%s = %.6g\n", mxsim_gpu_xclass_name(c), mxsim_gpu_xparam_name(k), *mxsim_gpu_xparam_field(&p, c, k));
    if (check) {
        int bad = 0;
        if (n_cal == 0) {
            fprintf(stderr, "check: %s has no calibrated fields\n", to_card);
            bad++;
        }
        for (int c = 0; c < MXSIM_GX_NCLASS && n_cal; c++)
            for (int k = 0; k < NPAR; k++) {
                if (c == 0 && k > 0) break;
                if (c > 0 && (!mxsim_gpu_xparam_used(c, k) || !train.cls_n[c])) continue;
                const double want = c == 0 ? p.mem_eff : *mxsim_gpu_xparam_field(&p, c, k), got = c == 0 ? committed.mem_eff : *mxsim_gpu_xparam_field(&committed, c, k);
                if (fabs(want - got) > 1e-4 * fabs(want) + 1e-9) {
                    fprintf(stderr, "check: %s: %s.%s = %.6g, re-derived %.6g\n", to_card, c ? mxsim_gpu_xclass_name(c) : "",
                            c ? mxsim_gpu_xparam_name(k) : "mem_eff", got, want);
                    bad++;
                }
            }
        if (n_cal && fabs(p.launch_floor_us - committed.launch_floor_us) > 1e-4 * p.launch_floor_us + 1e-9) {
            fprintf(stderr, "check: %s: launch.floor_us = %.6g, re-derived %.6g\n", to_card, committed.launch_floor_us,
                    p.launch_floor_us);
            bad++;
        }
        printf("check %s: %s\n", to_card, bad ? "FAIL (calibrated fields differ from the re-derivation)" : "calibrated fields re-derived");
        fail |= bad != 0;
    }
    if (maxm) { /* the median of the held-out runs (each run is printed above, not gated: noise) */
        const int over = 100 * held.mape > max_mape;
        printf("held-out MAPE %.2f%% (median of %d run(s)) %s target %.2f%%\n", 100 * held.mape, rt.n,
               over ? "ABOVE" : "within", max_mape);
        fail |= over;
    }
    if (out) {
        static char file[40000];
        size_t w = 0;
        w += (size_t)snprintf(file + w, sizeof file - w,
                              "# calibrated on %s by mxsim gpu-calibrate (per-row median of these runs):\n", mxsim_gpu_xbench_card(bs));
        for (int i = 0; i < rs.n && w < sizeof file; i++)
            w += (size_t)snprintf(file + w, sizeof file - w, "#   %s%s%s%s%s\n", rs.path[i], rs.tag[i] ? " (build " : "",
                                  k_build_tag[rs.tag[i]], rs.tag[i] ? ")" : "", rs.build[i] ? " (library rows only)" : "");
        for (int i = 0; i < ls.n && w < sizeof file; i++)
            w += (size_t)snprintf(file + w, sizeof file - w, "#   %s (launch floor)\n", ls.path[i]);
        if (w < sizeof file)
            w += (size_t)snprintf(file + w, sizeof file - w, "[calibrated on %s]\n%s", mxsim_gpu_xbench_card(bs), text);
        if (w >= sizeof file || cli_write(ctx, out, file, w)) fail = 1;
    }
    mxsim_gpu_xbench_free(bs);
    mxsim_gpu_xbench_free(bt);
    free_runs(&rs);
    free_runs(&rt);
    return fail ? CLI_EXIT_RUNTIME : 0;
}

static const cli_opt k_opts[] = {
    {"from", 0, 1, 1, "[decode1:|prebf16:|prerow:]DIR|BENCH.csv", "the calibration card's runs (DIR: bench.csv + bench_run*.csv; decode1: the build before decode2; prebf16: decode2 to final4, before cfg 11; prerow: final5 to final7, before cfg 12)"},
    {"from-card", 0, 1, 0, "CARD.ini", "its cross-card file (its [datasheet] is used; a calibrated block is checked, not used)"},
    {"to", 0, 1, 1, "[decode1:|prebf16:|prerow:]DIR|BENCH.csv", "the predicted card's runs (scored each and as their median)"},
    {"to-card", 0, 1, 0, "CARD.ini", "its cross-card file (datasheet; calibrated fields for --check)"},
    {"from-launch", 0, 1, 1, "DIR|LAUNCH.csv", "the calibration card's launch floor: kernels/tools/launch_probe.cu runs (DIR: every launch_probe*.csv in it)"},
    {"to-launch", 0, 1, 1, "DIR|LAUNCH.csv", "the predicted card's launch_probe runs: its measured floor against the model's"},
    {"out", 'o', 1, 0, "FILE", "write the calibrated fields (to paste into --to-card)"},
    {"check", 0, 0, 0, "", "exit 1 if --to-card's calibrated fields differ from the re-derivation"},
    {"max-mape", 0, 1, 0, "PCT", "exit 1 if the held-out MAPE is above PCT"},
    {"rows", 0, 0, 0, "", "print every held-out row"},
    {0}};

const cli_command mxsim_cmd_gpu_calibrate = {
    "gpu-calibrate", "",
    "The cross-card GPU model (sim/doc/gpu-model.md section 6): calibrates on the bench of one card\n"
    "(--from), predicts the bench of another (--to) from that card's datasheet values only, and prints\n"
    "the held-out MAPE overall and per kernel class.",
    k_opts, 0, 0, cmd_gpu_calibrate, NULL};

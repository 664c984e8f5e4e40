/* cmd_sweep.c - `mxsim sweep` and `mxsim cost`: options in, library calls, tables out.
**
** sweep builds the axes from the options, runs mxsim_sweep_run with a progress callback (a bar
** with ETA when stderr is a terminal, a line every 10 % otherwise, nothing with --quiet) and
** writes mxsim_sweep_table: -o NAME.csv is plain CSV plus the sidecar NAME.meta.json (both or
** neither); json and csv carry every row, table and md the totals.  The bytes depend only on
** the inputs, never on -j.  Exit 2 also when a point failed (the results are still written).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "sweep/cmd_sweep.h"
#include "timing/cmd_timing.h"

#define OPT(name) cli_get(c, a, name)

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
        char bar[31];
        for (int i = 0; i < 30; i++) bar[i] = i < (int)(30 * done / total) ? '#' : '.';
        bar[30] = '\0';
        fprintf(stderr, "\rsweep [%s] %lld/%lld jobs %3d%%  ETA %5.1fs %s", bar, (long long)done, (long long)total,
                (int)(100 * done / total), eta, done == total ? "\n" : "");
    } else if (10 * done / total > p->last_decile || done == total) {
        p->last_decile = 10 * done / total;
        fprintf(stderr, "sweep: %lld/%lld jobs (%d%%), %.1f s elapsed, ETA %.1f s\n", (long long)done, (long long)total,
                (int)(100 * done / total), el, eta);
    }
}

/* One axis as the user gave it: the key, its values and the option that gave it. */
typedef struct {
    char key[64], label[96];
    const char *values;
} axis_arg;

/* The axes in the documented order (--array-width, --group-size, then each --sweep); two that
** set the same field are refused naming both options.  Returns 0 or an exit code. */
static int collect_axes(const cli_command *c, const cli_args *a, axis_arg *ax, int *n_ax)
{
    const char *s;
    *n_ax = 0;
    if ((s = OPT("array-width"))) {
        snprintf(ax[*n_ax].key, sizeof ax[*n_ax].key, "array.size");
        snprintf(ax[*n_ax].label, sizeof ax[*n_ax].label, "--array-width %.60s", s);
        ax[(*n_ax)++].values = s;
    }
    if ((s = OPT("group-size"))) {
        snprintf(ax[*n_ax].key, sizeof ax[*n_ax].key, "mx.group_size");
        snprintf(ax[*n_ax].label, sizeof ax[*n_ax].label, "--group-size %.60s", s);
        ax[(*n_ax)++].values = s;
    }
    const char *const *sweeps;
    int n = cli_get_list(c, a, "sweep", &sweeps);
    for (int i = 0; i < n; i++) {
        const char *eq = strchr(sweeps[i], '=');
        if (!eq || eq == sweeps[i] || (size_t)(eq - sweeps[i]) >= sizeof ax[0].key)
            return cli_usage("--sweep: expected key=v1,v2,..., got '%s'", sweeps[i]);
        if (*n_ax >= MXSIM_SWEEP_MAX_AXES) return cli_usage("%.80s: at most %d axes", sweeps[i], MXSIM_SWEEP_MAX_AXES);
        snprintf(ax[*n_ax].key, sizeof ax[*n_ax].key, "%.*s", (int)(eq - sweeps[i]), sweeps[i]);
        snprintf(ax[*n_ax].label, sizeof ax[*n_ax].label, "--sweep %.80s", sweeps[i]);
        ax[(*n_ax)++].values = eq + 1;
    }
    /* the library refuses overlaps too (mxsim_sweep_add_axis); checked here by its rule so that the
    ** message names the two options */
    for (int i = 0; i < *n_ax; i++)
        for (int j = 0; j < i; j++) {
            const char *f = mxsim_sweep_axes_overlap(ax[i].key, ax[j].key);
            if (f) return cli_usage("%s and %s both set %s: give each configuration field one axis", ax[j].label, ax[i].label, f);
        }
    /* a --set of a field an axis sets: every point took the axis value, the --set was dropped */
    const char *const *sets;
    int n_sets = cli_get_list(c, a, "set", &sets);
    for (int k = 0; k < n_sets; k++) {
        char key[64];
        const char *eq = strchr(sets[k], '=');
        if (!eq || (size_t)(eq - sets[k]) >= sizeof key) continue; /* the configuration's reader names it */
        snprintf(key, sizeof key, "%.*s", (int)(eq - sets[k]), sets[k]);
        for (int i = 0; i < *n_ax; i++) {
            const char *f = mxsim_sweep_axes_overlap(ax[i].key, key);
            if (f) return cli_usage("%s and --set %s both set %s: give it as an axis or a --set, not both", ax[i].label, sets[k], f);
        }
    }
    if (OPT("scalesim-compat"))
        for (int i = 0; i < *n_ax; i++)
            if (!strcmp(ax[i].key, "report.scalesim_compat"))
                return cli_usage("--scalesim-compat and %s both set report.scalesim_compat: give one", ax[i].label);
    if (OPT("profile"))
        for (int i = 0; i < *n_ax; i++)
            if (!strcmp(ax[i].key, "numerics.profile"))
                return cli_usage("--profile %s and %s both set the numerics profile: give one", OPT("profile"), ax[i].label);
    return 0;
}

/* --shard I/N: two decimal numbers as written (no sign, space or leading zero), 0 <= I < N <= 65536
** (the most points a sweep has).  Returns 0 or an exit code. */
static int parse_shard(const char *s, long long *i, long long *n)
{
    long long v[2] = {0, 0};
    const char *p = s;
    for (int k = 0; k < 2; k++) {
        const char *d = p;
        while (*p >= '0' && *p <= '9') {
            if (v[k] <= 65536) v[k] = 10 * v[k] + (*p - '0'); /* past 65536 the value is out of range anyway */
            p++;
        }
        if (p == d || (*d == '0' && p - d > 1) || *p != (k ? '\0' : '/'))
            return cli_usage("--shard '%s': expected I/N, two decimal numbers with 0 <= I < N <= 65536 (0-based)", s);
        p++;
    }
    if (v[1] < 1 || v[1] > 65536 || v[0] >= v[1])
        return cli_usage("--shard '%s': expected I/N with 0 <= I < N <= 65536 (0-based)", s);
    *i = v[0];
    *n = v[1];
    return 0;
}

static int cmd_sweep(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    if (!OPT("config")) return cli_usage("missing --config CFG");
    mxsim_output_format f = MXSIM_OUTPUT_CSV;
    long long shard_i = 0, shard_n = 0;
    const char *shard = OPT("shard");
    int rc = 0;
    if (shard) { /* I/N: -o names the part file, NAME.part */
        if ((rc = parse_shard(shard, &shard_i, &shard_n))) return rc;
        const char *o = OPT("out");
        if (!o) return cli_usage("--shard writes a part file: give -o PART");
        if (OPT("format")) return cli_usage("--shard writes a part file: choose --format at 'mxsim merge'");
        size_t ol = strlen(o);
        if (ol < 6 || strcmp(o + ol - 5, ".part") != 0 || o[ol - 6] == '/')
            return cli_usage("-o '%s': --shard writes a binary part file: name it NAME.part (the CSV, JSON, ... is "
                             "what 'mxsim merge PART... -o OUT' writes)", o);
    } else {
        rc = cli_format(ctx, OPT("format"), OPT("out"), &f); /* a bad -o fails before any work */
    }
    mxsim_sweep_opts so;
    mxsim_sweep_opts_default(&so);
    long long v;
    const char *s;
    if (rc || (rc = cli_cost_params(c, a, &so.cost))) return rc;
    if ((s = OPT("jobs")) && !(rc = cli_int("-j", s, 1, 256, &v))) so.n_threads = (unsigned)v;
    if (!rc && (s = OPT("sample-rows")) && !(rc = cli_int("--sample-rows", s, 0, 1 << 20, &v))) so.acc.sample_rows = v;
    if (!rc && (s = OPT("sample-cols")) && !(rc = cli_int("--sample-cols", s, 0, 1 << 20, &v))) so.acc.sample_cols = v;
    if (!rc && (s = OPT("seed")) && !(rc = cli_int("--seed", s, 0, 0x7fffffffffffffffLL, &v))) so.acc.seed = (uint64_t)v;
    if (rc) return rc;
    so.acc.data_dir = OPT("data");
    so.accuracy = !OPT("no-accuracy");
    static const char *const acc_only[] = {"data", "sample-rows", "sample-cols", "seed"};
    for (size_t i = 0; !so.accuracy && i < sizeof acc_only / sizeof acc_only[0]; i++)
        if (OPT(acc_only[i])) return cli_usage("--%s has no effect with --no-accuracy: give one of them", acc_only[i]);
    axis_arg axes[MXSIM_SWEEP_MAX_AXES];
    int n_axes = 0;
    if ((rc = collect_axes(c, a, axes, &n_axes))) return rc;
    so.strict_group = OPT("strict-group") != NULL;
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    if ((s = OPT("profile")) && mxsim_profile_parse(s, &prof) != MXSIM_OK)
        return cli_usage("--profile '%s': expected ocp, mase, mase-cuda or microxcaling", s);
    if (s) so.profile = prof; /* the struct stores enums as int32_t */
    mxsim_node_scale sc;
    mxsim_status st = mxsim_node_scaling(ctx, so.cost.node_nm, so.cost.vdd_v, &sc);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    mxsim_tconfig base;
    if ((rc = mxsim_cli_build_config(c, a, ctx, &base))) return rc;
    /* a topology is read once, by the base configuration's rules: an axis that changes how its rows
    ** read (SCALE-Sim's model or native; 3.0.0 or 2.0.2, rule 4 of architecture.md section 8) is
    ** refused where the two readings of this file differ */
    for (int i = 0; i < n_axes; i++)
        if (mxsim_trace_axis_reading(ctx, &base, a->pos[0], axes[i].key) != MXSIM_OK)
            return cli_usage("%s: %s", axes[i].label, mxsim_errmsg(ctx));
    mxsim_trace *tr = NULL;
    mxsim_sweep *sw = NULL;
    mxsim_table *t = NULL;
    /* a SCALE-Sim topology is read as run reads it: SCALE-Sim's conv rules under its model (the
    ** base configuration's: a .cfg or --scalesim-compat) */
    if ((st = mxsim_trace_load_for(ctx, &base, a->pos[0], &tr)) == MXSIM_OK) st = mxsim_sweep_create(ctx, &base, &sw);
    for (int i = 0; st == MXSIM_OK && i < n_axes; i++) st = mxsim_sweep_add_axis(ctx, sw, axes[i].key, axes[i].values);
    if (st == MXSIM_OK && shard) st = mxsim_sweep_set_shard(ctx, sw, shard_i, shard_n);
    progress pr = {isatty(2), OPT("quiet") != NULL, now_s(), -1};
    so.progress = on_progress;
    so.progress_user = &pr;
    if (!rc && st == MXSIM_OK) st = mxsim_sweep_run(ctx, sw, tr, &so);
    mxsim_sweep_info info = {a->pos[0], OPT("config"), &so};
    const char *out = OPT("out");
    if (out && strcmp(out, "-") == 0 && !shard) out = NULL; /* -o - is standard output */
    if (!rc && st == MXSIM_OK && shard) {
        st = mxsim_sweep_save_part(ctx, sw, tr, &info, out);
        int64_t first = 0, end = 0;
        mxsim_sweep_shard(sw, NULL, NULL, &first, &end);
        if (st == MXSIM_OK && !pr.quiet)
            fprintf(stderr, "mxsim sweep: shard %lld/%lld: points %lld..%lld of %lld x %lld ops written to %s\n", shard_i,
                    shard_n, (long long)first, (long long)end - 1, (long long)mxsim_sweep_point_count(sw),
                    (long long)mxsim_trace_count(tr), out);
    } else if (!rc && st == MXSIM_OK && out) {
        st = mxsim_sweep_save(ctx, sw, tr, &info, f, out);
        if (st == MXSIM_OK && !pr.quiet)
            fprintf(stderr, "mxsim sweep: %lld points x %lld ops written to %s\n", (long long)mxsim_sweep_point_count(sw),
                    (long long)mxsim_trace_count(tr), out);
    } else if (!rc && st == MXSIM_OK) {
        st = mxsim_sweep_table(ctx, sw, tr, &info, f == MXSIM_OUTPUT_TABLE || f == MXSIM_OUTPUT_MD, &t);
        if (st == MXSIM_OK) rc = cli_emit_table(ctx, t, OPT("format"), NULL);
    }
    if (!rc && st != MXSIM_OK) rc = cli_fail(ctx, st);
    int64_t n_bad = 0, n_ran = 0, n_other_g = 0, n_file = -1;
    const char *first_err = NULL;
    for (int64_t p = 0; !rc && p < mxsim_sweep_point_count(sw); p++) {
        const mxsim_sweep_point *pt = mxsim_sweep_point_at(sw, p);
        if (pt == NULL) continue; /* another shard's point */
        if (pt->status != MXSIM_OK && !n_bad++) first_err = pt->err;
        if (pt->status != MXSIM_OK) continue;
        int other = 0;
        for (int64_t k = 0; k < pt->n_ops; k++) other |= pt->op_group[k] != pt->cfg.group_size;
        n_ran++;
        n_other_g += other;
        if (n_file < 0 && so.accuracy && so.acc.data_dir) /* the data source depends on the op only */
            for (int64_t k = n_file = 0; k < pt->n_ops; k++) n_file += pt->op_acc[k].from_file != 0;
    }
    /* what the outputs carry per row, said once where the user looks while it runs */
    if (!rc && !pr.quiet && n_other_g)
        fprintf(stderr, "mxsim sweep: note: in %lld of %lld points some ops ran at their own group= of the trace, "
                        "not mx.group_size (columns ops_other_group, group_note; sim/doc/sweeps.md)\n",
                (long long)n_other_g, (long long)n_ran);
    if (!rc && !pr.quiet && n_file >= 0)
        fprintf(stderr, "mxsim sweep: accuracy data: %lld of %lld ops read files from %s, the others synthetic "
                        "(column acc_from_file)\n",
                (long long)n_file, (long long)mxsim_trace_count(tr), so.acc.data_dir);
    if (n_bad) {
        fprintf(stderr, "mxsim sweep: error: %lld of %lld points failed; first: %s\n", (long long)n_bad,
                (long long)mxsim_sweep_point_count(sw), first_err);
        rc = CLI_EXIT_USAGE;
    }
    mxsim_table_free(t);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    return rc;
}

static int cmd_cost(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    mxsim_cost_params cp;
    mxsim_tconfig cfg;
    int rc = cli_cost_params(c, a, &cp);
    if (rc || (rc = mxsim_cli_build_config(c, a, ctx, &cfg))) return rc;
    if (OPT("constants") && OPT("references")) /* only the references were printed */
        return cli_usage("--constants and --references print different tables: give one");
    mxsim_table *t = NULL;
    mxsim_output_format f;
    if ((rc = cli_format(ctx, OPT("format"), OPT("out"), &f))) return rc;
    mxsim_status st;
    mxsim_node_scale sc0; /* a node or Vdd out of the model's range is refused in every form (csv took --node 3) */
    if ((st = mxsim_node_scaling(ctx, cp.node_nm, cp.vdd_v, &sc0)) != MXSIM_OK) return cli_fail(ctx, st);
    if (OPT("constants") && f == MXSIM_OUTPUT_MD) { /* the document sim/doc/energy-area.md embeds */
        mxsim_node_scale sc;
        char *text = NULL;
        size_t len = 0;
        if ((st = mxsim_node_scaling(ctx, cp.node_nm, cp.vdd_v, &sc)) == MXSIM_OK) st = mxsim_cost_constants_md(ctx, &sc, &text, &len);
        rc = st == MXSIM_OK ? cli_write(ctx, OPT("out"), text, len) : cli_fail(ctx, st);
        mxsim_free(text);
        return rc;
    }
    if (OPT("references")) st = mxsim_cost_ref_table(ctx, &t);
    else if (OPT("constants")) st = mxsim_cost_const_table(ctx, &t);
    else st = mxsim_cost_area_table(ctx, &cfg, &cp, &t);
    /* the human forms carry the full citations after the table (csv and json: --references) */
    mxsim_table *refs = NULL;
    int human = (f == MXSIM_OUTPUT_TABLE || f == MXSIM_OUTPUT_MD) && !OPT("references");
    if (st == MXSIM_OK && human) st = mxsim_cost_ref_table(ctx, &refs);
    char *text[2] = {NULL, NULL};
    size_t len[2] = {0, 0};
    if (st == MXSIM_OK) st = mxsim_table_render(ctx, t, f, &text[0], &len[0]);
    if (st == MXSIM_OK && refs) st = mxsim_table_render(ctx, refs, f, &text[1], &len[1]);
    char *all = st == MXSIM_OK ? malloc(len[0] + len[1] + 2) : NULL;
    if (st == MXSIM_OK && !all) st = MXSIM_E_NOMEM;
    if (all) {
        memcpy(all, text[0], len[0]);
        size_t n = len[0];
        if (refs) all[n++] = '\n', memcpy(all + n, text[1], len[1]), n += len[1];
        rc = cli_write(ctx, OPT("out"), all, n);
    } else {
        rc = cli_fail(ctx, st);
    }
    free(all);
    mxsim_free(text[0]);
    mxsim_free(text[1]);
    mxsim_table_free(refs);
    mxsim_table_free(t);
    return rc;
}

/* mxsim merge PART... -o OUT [--format F] [-q] [--check]: parses its own arguments (any number of
** parts).  --check: checks -o/--format only (no parts), writes nothing: submit-sweep.sh runs it
** before it submits anything. */
static int cmd_merge(int argc, char **argv, mxsim_ctx *ctx)
{
    const char **parts = calloc((size_t)argc + 1, sizeof *parts);
    const char *out = NULL, *format = NULL;
    int n = 0, quiet = 0, check = 0;
    if (parts == NULL) return cli_fail(ctx, MXSIM_E_NOMEM);
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        const char **dst = NULL;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            cli_help(&mxsim_cmd_merge, stdout); /* main answers --help first; kept for direct calls */
            free(parts);
            return 0;
        }
        if (strcmp(s, "-q") == 0 || strcmp(s, "--quiet") == 0) quiet = 1;
        else if (strcmp(s, "--check") == 0) check = 1;
        else if (strcmp(s, "-o") == 0 || strcmp(s, "--out") == 0) dst = &out;
        else if (strcmp(s, "--format") == 0) dst = &format;
        else if (strncmp(s, "--out=", 6) == 0) out = s + 6;
        else if (strncmp(s, "--format=", 9) == 0) format = s + 9;
        else if (s[0] == '-' && s[1] != '\0') {
            free(parts);
            return cli_usage("unknown option '%s'", s);
        } else parts[n++] = s;
        if (dst) {
            if (i + 1 >= argc) {
                free(parts);
                return cli_usage("option '%s' needs a value", s);
            }
            if (*dst) {
                free(parts);
                return cli_usage("option '%s' given twice ('%s', then '%s')", s, *dst, argv[i + 1]);
            }
            *dst = argv[++i];
        }
    }
    int rc = 0;
    mxsim_output_format f;
    if (check && n > 0) rc = cli_usage("--check checks -o and --format only: give no part files");
    else if (n == 0 && !check) rc = cli_usage("no part files (written by mxsim sweep --shard I/N -o PART)");
    else if (out == NULL) rc = cli_usage("missing -o OUT");
    else if (!strcmp(out, "-")) rc = cli_usage("-o -: merge writes a file (NAME.csv with NAME.meta.json, .json, .md, .txt)");
    else rc = cli_format(ctx, format, out, &f);
    if (check) {
        free(parts);
        return rc;
    }
    int64_t n_bad = 0;
    if (!rc) {
        mxsim_status st = mxsim_sweep_merge(ctx, parts, n, f, out, &n_bad);
        if (st != MXSIM_OK) rc = cli_fail(ctx, st);
        else if (!quiet) fprintf(stderr, "mxsim merge: %d parts written to %s\n", n, out);
    }
    if (!rc && n_bad) {
        fprintf(stderr, "mxsim merge: error: %lld points failed (their status column says why)\n", (long long)n_bad);
        rc = CLI_EXIT_USAGE;
    }
    free(parts);
    return rc;
}

static const cli_opt k_sweep_opts[] = {
    CLI_CONFIG_OPTS,
    {"group-size", 0, 1, 0, "G1,G2,...", "axis mx.group_size"},
    {"array-width", 0, 1, 0, "W1,W2,...", "axis array.size (a W x W array)"},
    {"sweep", 0, 1, 1, "KEY=V1,V2,...", "axis: any configuration key, array.size or numerics.profile"},
    {"jobs", 'j', 1, 0, "N", "threads (default: every CPU)"},
    {"profile", 0, 1, 0, "P", "numerics profile without a numerics.profile axis (default ocp)"},
    CLI_COST_OPTS,
    {"no-accuracy", 0, 0, 0, "", "skip the accuracy measurement"},
    {"sample-rows", 0, 1, 0, "N", "accuracy: rows of outputs measured per op (default 64; 0: all)"},
    {"sample-cols", 0, 1, 0, "N", "accuracy: columns of outputs measured per op (default 64; 0: all)"},
    {"seed", 0, 1, 0, "S", "accuracy: seed of the synthetic data (default 1)"},
    {"data", 0, 1, 0, "DIR", "accuracy: DIR/NAME.a.npy, NAME.b.npy instead of synthetic data"},
    {"strict-group", 0, 0, 0, "", "a point fails when G does not divide an op's K (default: K padded to whole groups)"},
    {"scalesim-compat", 0, 0, 0, "", "time with SCALE-Sim's model (report.scalesim_version: 2.0.2's or 3.0.0's), read a .csv by its rules (implied by a .cfg)"},
    {"quiet", 'q', 0, 0, "", "no progress on stderr"},
    {"shard", 0, 1, 0, "I/N", "run slice I of N (0-based, N <= 65536) and write it as the part file -o NAME.part (mxsim merge)"},
    CLI_TABLE_OPTS,
    {0}};
static const cli_opt k_cost_opts[] = {
    CLI_CONFIG_OPTS, CLI_COST_OPTS, {"constants", 0, 0, 0, "", "print the constants table instead of the area"},
    {"references", 0, 0, 0, "", "print the citations of the constants (key, anchor, citation)"}, CLI_TABLE_OPTS, {0}};

const cli_command mxsim_cmd_sweep = {
    "sweep", "TRACE",
    "Runs the cartesian product of the axes over TRACE on N threads. Per point and op: cycles,\n"
    "utilisation, traffic (every statistic of run), area (mm2), energy (mJ, pJ/MAC, TOPS/W,\n"
    "TOPS/mm2, with the low/high band of the sources) and accuracy (SQNR dB, max relative error\n"
    "of the bit-exact MXINT8 model against float64). -o NAME.csv writes plain CSV and the\n"
    "settings as NAME.meta.json (both or neither); json carries everything in one file; table\n"
    "and md show the totals. Output bytes do not depend on N. See sim/doc/sweeps.md.",
    k_sweep_opts, 1, 1, cmd_sweep, NULL};
const cli_command mxsim_cmd_merge = {
    "merge", "PART... -o OUT [--format F] [-q]",
    "Joins the part files of a sharded sweep (mxsim sweep --shard I/N -o PART, one per slice,\n"
    "in any order) into the output the unsharded sweep writes, byte for byte, in any format\n"
    "(-o NAME.csv: with NAME.meta.json). Refuses parts of different sweeps, parts written by\n"
    "another mxsim build (its build identifier differs: see below), a missing or repeated shard,\n"
    "naming the files. Exit 2 also when a point failed (the outputs are still written, as the\n"
    "unsharded sweep writes them). See sim/doc/sweeps.md.\n\n"
    "options:\n"
    "  -o, --out OUT                OUT.csv (also writes OUT.meta.json), .json, .md or .txt\n"
    "  --format F                   table, csv, json or md (default: from OUT's extension)\n"
    "  -q, --quiet                  no summary line on stderr\n"
    "  --check                      check -o and --format only (no parts), write nothing",
    NULL, 0, 0, NULL, cmd_merge};
const cli_command mxsim_cmd_cost = {
    "cost", "",
    "The area and leakage of the accelerator per component (nominal, low, high); --constants:\n"
    "the constants table with sources, node, Vdd, confidence and citation keys (--format md: the\n"
    "document sim/doc/energy-area.md embeds, with the citations and the node scaling);\n"
    "--references: the citations. See sim/doc/energy-area.md and sim/doc/references.md.",
    k_cost_opts, 0, 0, cmd_cost, NULL};
const cli_command mxsim_cmd_report = {
    "report", "RESULTS.csv -o DIR [--meta RESULTS.meta.json]",
    "Writes DIR/index.html (self-contained, inline SVG charts, no scripts) and DIR/README.md\n"
    "from a sweep's CSV and its JSON sidecar (RESULTS.meta.json, written beside the CSV by\n"
    "mxsim sweep -o; --meta names another): totals, cycles/energy (with its low-high band)/\n"
    "SQNR against the group size, cycle, energy and area breakdowns per design point, the\n"
    "cycles/energy Pareto front coloured by SQNR, per-op and accuracy tables, the constants.\n"
    "Each chart is also DIR/NAME.svg with DIR/NAME.csv, the values it plots. A malformed or\n"
    "missing input exits 2 naming file, line and field, and nothing is written.",
    NULL, 0, 0, NULL, mxsim_cli_report};

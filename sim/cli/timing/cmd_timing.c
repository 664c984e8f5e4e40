/* cmd_timing.c - `mxsim run`, `mxsim trace` and `mxsim config`: options in, library calls, one
** table out (mxsim_run_table), written by the CLI's one checked writer. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "timing/cmd_timing.h"

#define OPT(name) cli_get(c, a, name)

int mxsim_cli_build_config(const cli_command *c, const cli_args *a, mxsim_ctx *ctx, mxsim_tconfig *cfg)
{
    mxsim_status st = MXSIM_OK;
    const char *v;
    int run = c == &mxsim_cmd_run; /* run's shorthands; sweep's --group-size is an axis */
    mxsim_tconfig_default(cfg);
    if ((v = OPT("config"))) st = mxsim_tconfig_load(ctx, cfg, v);
    if (st == MXSIM_OK && run && (v = OPT("dataflow"))) st = mxsim_tconfig_set(ctx, cfg, "array.dataflow", v, "--dataflow");
    if (st == MXSIM_OK && run && (v = OPT("array"))) {
        char rows[32];
        const char *x = strchr(v, 'x');
        if (x == NULL || x == v || (size_t)(x - v) >= sizeof rows) return cli_usage("--array: expected RxC, got '%s'", v);
        snprintf(rows, sizeof rows, "%.*s", (int)(x - v), v);
        st = mxsim_tconfig_set(ctx, cfg, "array.rows", rows, "--array");
        if (st == MXSIM_OK) st = mxsim_tconfig_set(ctx, cfg, "array.cols", x + 1, "--array");
    }
    if (st == MXSIM_OK && run && (v = OPT("group-size"))) st = mxsim_tconfig_set(ctx, cfg, "mx.group_size", v, "--group-size");
    if (st == MXSIM_OK && OPT("scalesim-compat")) cfg->scalesim_compat = 1;
    const char *const *sets;
    int n = cli_get_list(c, a, "set", &sets);
    for (int i = 0; st == MXSIM_OK && i < n; i++) {
        char key[128];
        const char *eq = strchr(sets[i], '=');
        if (!eq || (size_t)(eq - sets[i]) >= sizeof key) return cli_usage("--set '%s': expected key=value", sets[i]);
        snprintf(key, sizeof key, "%.*s", (int)(eq - sets[i]), sets[i]);
        /* a shorthand and a --set of the same field: the --set won silently, whatever the order */
        static const struct { const char *opt, *key; } sh[] = {{"dataflow", "array.dataflow"}, {"array", "array.rows"},
                                                               {"array", "array.cols"}, {"group-size", "mx.group_size"}};
        for (size_t k = 0; run && k < sizeof sh / sizeof sh[0]; k++)
            if (!strcmp(key, sh[k].key) && OPT(sh[k].opt))
                return cli_usage("--%s %s and --set %s both set %s: give one", sh[k].opt, OPT(sh[k].opt), sets[i], key);
        st = mxsim_tconfig_set(ctx, cfg, key, eq + 1, "--set"); /* `where` names the flag: the CLI's word */
    }
    if (st == MXSIM_OK) st = mxsim_tconfig_validate(ctx, cfg);
    return st == MXSIM_OK ? 0 : cli_fail(ctx, st);
}

/* Access-trace path of op i: PATH itself for a one-op trace, else PATH with ".i" inserted before
** its ".gz" suffix (cmd_run refuses any other name).  NULL on allocation failure. */
static char *acc_path(const char *path, int64_t i, int64_t n_ops)
{
    size_t L = strlen(path), cap = L + 32;
    char *p = malloc(cap);
    if (p == NULL) return NULL;
    if (n_ops == 1) snprintf(p, cap, "%s", path);
    else snprintf(p, cap, "%.*s.%lld.gz", (int)(L - 3), path, (long long)i);
    return p;
}

/* The per-op access traces of one run, all or nothing: each op's trace goes to a private
** directory made next to the destination (mkdtemp); after the last op every trace is read back
** and committed with mxsim_files_write (targets checked before the first rename, rollback if
** one fails); whatever happens the private directory is removed. */
typedef struct {
    char *dir;     /* "<dir of PATH>/.mxsim-acc.XXXXXX", NULL until made */
    char **tmp, **dst;
    int64_t n;
    int reported;  /* the failure is already printed (the library's context holds no message for it) */
} acc_set;

static mxsim_status acc_begin(mxsim_ctx *ctx, acc_set *s, const char *path, int64_t n_ops)
{
    memset(s, 0, sizeof *s);
    const char *slash = strrchr(path, '/');
    size_t dl = slash ? (size_t)(slash - path) + 1 : 0;
    s->dir = malloc(dl + 32);
    s->tmp = calloc((size_t)n_ops + 1, sizeof *s->tmp);
    s->dst = calloc((size_t)n_ops + 1, sizeof *s->dst);
    if (!s->dir || !s->tmp || !s->dst) return MXSIM_E_NOMEM;
    snprintf(s->dir, dl + 32, "%.*s.mxsim-acc.XXXXXX", (int)dl, path);
    if (mkdtemp(s->dir) == NULL) {
        fprintf(stderr, "mxsim run: error: %s: cannot create a private directory next to it: %s\n", path, strerror(errno));
        free(s->dir);
        s->dir = NULL; /* acc_end frees tmp and dst */
        s->reported = 1;
        (void)ctx;
        return MXSIM_E_IO;
    }
    return MXSIM_OK;
}

/* Where op i writes: a file in the private directory; dst is where it goes at commit. */
static const char *acc_add(acc_set *s, char *dst)
{
    char *t = malloc(strlen(s->dir) + 32);
    if (t == NULL) {
        free(dst);
        return NULL;
    }
    sprintf(t, "%s/%lld.gz", s->dir, (long long)s->n);
    s->tmp[s->n] = t;
    s->dst[s->n++] = dst;
    return t;
}

static int read_all(const char *path, char **buf, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap);
    while (b) {
        size_t r = fread(b + n, 1, cap - n, f);
        n += r;
        if (n < cap) break;
        char *nb = realloc(b, cap *= 2);
        if (nb == NULL) free(b);
        b = nb;
    }
    int bad = b == NULL || ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return -1;
    }
    *buf = b;
    *len = n;
    return 0;
}

static mxsim_status acc_commit(mxsim_ctx *ctx, acc_set *s)
{
    char **data = calloc((size_t)s->n + 1, sizeof *data);
    size_t *lens = calloc((size_t)s->n + 1, sizeof *lens);
    mxsim_status st = data && lens ? MXSIM_OK : MXSIM_E_NOMEM;
    for (int64_t i = 0; i < s->n && st == MXSIM_OK; i++)
        if (read_all(s->tmp[i], &data[i], &lens[i]) != 0) {
            fprintf(stderr, "mxsim run: error: %s: cannot read the access trace back: %s\n", s->tmp[i], strerror(errno));
            st = MXSIM_E_IO;
            s->reported = 1;
        }
    if (st == MXSIM_OK)
        st = mxsim_files_write(ctx, (size_t)s->n, (const char *const *)s->dst, (const void *const *)data, lens);
    for (int64_t i = 0; data && i < s->n; i++) free(data[i]);
    free(data);
    free(lens);
    return st;
}

static void acc_end(acc_set *s)
{
    for (int64_t i = 0; i < s->n; i++) {
        if (s->tmp[i]) unlink(s->tmp[i]);
        free(s->tmp[i]);
        free(s->dst[i]);
    }
    if (s->dir) rmdir(s->dir);
    free(s->dir);
    free(s->tmp);
    free(s->dst);
}

/* A .csv (any case: SCALE-Sim's own files are lower case, a user's may not be) is a SCALE-Sim
** topology (flags: MXSIM_IMPORT_*), anything else an mxsim trace. */
/* `trace check/cat/convert`: the import flags come from the command's own options */
static mxsim_status load_any(mxsim_ctx *ctx, const char *path, int flags, mxsim_trace **t)
{
    size_t L = strlen(path);
    if (L > 4 && !strcasecmp(path + L - 4, ".csv")) return mxsim_trace_import_scalesim(ctx, path, flags, t);
    return mxsim_trace_load(ctx, path, t);
}

static int cmd_run(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *v;
    if (OPT("columns")) { /* the statistics, from the one field table */
        /* it reads no trace or configuration: anything that would configure a run was ignored */
        for (int i = 0; c->opts[i].name; i++)
            if (cli_get(c, a, c->opts[i].name) && strcmp(c->opts[i].name, "columns") && strcmp(c->opts[i].name, "format") &&
                strcmp(c->opts[i].name, "out"))
                return cli_usage("--columns lists the statistic columns: --%s has no meaning with it", c->opts[i].name);
        if (a->n_pos) return cli_usage("--columns lists the statistic columns: it reads no TRACE ('%s')", a->pos[0]);
        mxsim_table *t = NULL;
        mxsim_status st = mxsim_tstats_table(ctx, &t);
        int rc = st == MXSIM_OK ? cli_emit_table(ctx, t, OPT("format"), OPT("out")) : cli_fail(ctx, st);
        mxsim_table_free(t);
        return rc;
    }
    if (a->n_pos != 1) return cli_usage("expected one TRACE");
    if (!OPT("config")) return cli_usage("missing --config CFG");
    if (OPT("access-trace") && !OPT("detail")) return cli_usage("--access-trace needs --detail");
    if ((v = OPT("access-trace")) != NULL) {
        /* a gzip file per GEMM op: '-' would mix gzip bytes into the table on standard output (or,
        ** with several ops, make files named '-.<i>'), and any other name would hide gzip data */
        size_t L = strlen(v);
        if (strcmp(v, "-") == 0)
            return cli_usage("--access-trace: '-' (standard output) is refused: the access traces are gzip files, "
                             "one per GEMM op; give a file name ending in .gz");
        if (L <= 3 || strcmp(v + L - 3, ".gz") != 0)
            return cli_usage("--access-trace '%s': the access trace is gzip-compressed: its name must end in .gz", v);
    }
    mxsim_output_format f;
    int rc = cli_format(ctx, OPT("format"), OPT("out"), &f); /* a bad -o fails before any work */
    if (rc) return rc;
    mxsim_tconfig cfg;
    if ((rc = mxsim_cli_build_config(c, a, ctx, &cfg))) return rc;
    mxsim_trace *tr = NULL;
    /* a SCALE-Sim topology under SCALE-Sim's model (a .cfg or --scalesim-compat) takes its rules */
    mxsim_status st = mxsim_trace_load_for(ctx, &cfg, a->pos[0], &tr);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    int64_t n = mxsim_trace_count(tr);
    if (n < 1) { /* a table of zeros would read as a free workload; sweep refuses it the same way */
        fprintf(stderr, "mxsim run: error: %s: trace has no ops\n", a->pos[0]);
        mxsim_trace_free(tr);
        return CLI_EXIT_USAGE;
    }
    mxsim_tstats tot, *ops = calloc((size_t)n + 1, sizeof *ops);
    memset(&tot, 0, sizeof tot);
    mxsim_table *t = NULL;
    acc_set acc;
    memset(&acc, 0, sizeof acc);
    if (!ops) st = MXSIM_E_NOMEM;
    /* every access-trace target is checked before the first op is timed */
    for (int64_t i = 0; st == MXSIM_OK && OPT("access-trace") && i < n; i++) {
        if (mxsim_trace_op(tr, i)->kind != MXSIM_OP_GEMM) continue;
        char *dst = acc_path(OPT("access-trace"), i, n);
        st = dst ? mxsim_file_check(ctx, dst) : MXSIM_E_NOMEM;
        free(dst);
    }
    if (st == MXSIM_OK && OPT("access-trace")) st = acc_begin(ctx, &acc, OPT("access-trace"), n);
    for (int64_t i = 0; i < n && st == MXSIM_OK; i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        const char *ap = NULL;
        char *dst = NULL;
        if (OPT("access-trace") && op->kind == MXSIM_OP_GEMM &&
            ((dst = acc_path(OPT("access-trace"), i, n)) == NULL || (ap = acc_add(&acc, dst)) == NULL)) {
            st = MXSIM_E_NOMEM;
            break;
        }
        st = mxsim_time_op(ctx, &cfg, op, mxsim_trace_source(tr), OPT("detail") != NULL, ap, &ops[i]);
        if (st == MXSIM_OK) st = mxsim_tstats_add(ctx, &cfg, &tot, &ops[i], op->name);
        if (st == MXSIM_OK && cli_interrupted()) st = MXSIM_E_CANCELLED;
    }
    if (st == MXSIM_OK) st = mxsim_run_table(ctx, &cfg, tr, ops, &tot, &t);
    /* the traces are committed only when the table is ready; the table is written after them */
    if (st == MXSIM_OK && acc.dir && acc.n > 0) st = acc_commit(ctx, &acc);
    acc_end(&acc);
    rc = st == MXSIM_OK ? cli_emit_table(ctx, t, OPT("format"), OPT("out")) : acc.reported ? cli_exit_code(st) : cli_fail(ctx, st);
    mxsim_table_free(t);
    free(ops);
    mxsim_trace_free(tr);
    return rc;
}

static int cmd_config(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    /* --dump is what config does: without it, the help's "Prints the resolved configuration" held
    ** only with it (exit 2) */
    mxsim_tconfig cfg;
    int rc = mxsim_cli_build_config(c, a, ctx, &cfg);
    if (rc) return rc;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_tconfig_table(ctx, &cfg, &t);
    rc = st == MXSIM_OK ? cli_emit_table(ctx, t, OPT("format"), OPT("out")) : cli_fail(ctx, st);
    mxsim_table_free(t);
    return rc;
}

/* `mxsim memory`: a thin wrapper over mxsim_memory_table (sim/doc/memory.md). */
static int cmd_memory(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    if (a->n_pos != 1) return cli_usage("expected one TRACE");
    if (!OPT("config")) return cli_usage("missing --config CFG");
    mxsim_output_format f;
    int rc = cli_format(ctx, OPT("format"), OPT("out"), &f);
    if (rc) return rc;
    mxsim_tconfig cfg;
    if ((rc = mxsim_cli_build_config(c, a, ctx, &cfg))) return rc;
    const char *const *gs;
    int ng = cli_get_list(c, a, "group-size", &gs);
    int64_t groups[CLI_MAX_REPEAT];
    for (int i = 0; i < ng; i++) {
        long long g;
        if ((rc = cli_int("--group-size", gs[i], 1, MXSIM_MAX_GROUP, &g))) return rc;
        groups[i] = g;
    }
    mxsim_trace *tr = NULL;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_trace_load_for(ctx, &cfg, a->pos[0], &tr);
    if (st == MXSIM_OK) st = mxsim_memory_table(ctx, &cfg, tr, groups, ng, &t);
    rc = st == MXSIM_OK ? cli_emit_table(ctx, t, OPT("format"), OPT("out")) : cli_fail(ctx, st);
    mxsim_table_free(t);
    mxsim_trace_free(tr);
    return rc;
}

static int cmd_trace(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *sub = a->pos[0], *out = OPT("out");
    static const char *const subs[] = {"check", "cat", "convert", "gen"};
    int need = !strcmp(sub, "convert") ? 3 : 2;
    int known = 0;
    for (int i = 0; i < 4; i++) known |= !strcmp(sub, subs[i]);
    if (!known) {
        const char *s = mxsim_closest_name(sub, subs, 4);
        return cli_usage("unknown subcommand '%s'%s%s%s", sub, s ? "; did you mean '" : "", s ? s : "", s ? "'?" : "");
    }
    if (a->n_pos != need) return cli_usage("%s: expected %s", sub, need == 3 ? "IN OUT" : "one FILE");
    if (!strcmp(sub, "gen") && !out) return cli_usage("gen: expected MODEL.model -o OUT");
    /* convert names its output as OUT and check writes none: -o there was silently ignored */
    if (out && (!strcmp(sub, "convert") || !strcmp(sub, "check")))
        return cli_usage("%s: -o has no meaning here (%s)", sub,
                         !strcmp(sub, "convert") ? "the output is the second argument, OUT" : "check prints a verdict only");
    if (OPT("require-comma") && !strcmp(sub, "gen"))
        return cli_usage("gen: --require-comma applies to SCALE-Sim .csv topologies, not to a model file");
    const char *ver = OPT("scalesim-version");
    if (ver && strcmp(ver, "v2") && strcmp(ver, "v3"))
        return cli_usage("--scalesim-version '%s': expected v2 or v3", ver);
    if (ver && !OPT("scalesim-compat")) return cli_usage("--scalesim-version reads rows under --scalesim-compat: give both");
    mxsim_trace *t = NULL;
    mxsim_status st;
    int rc = 0;
    if (!strcmp(sub, "gen")) st = mxsim_trace_gen(ctx, a->pos[1], &t);
    else st = load_any(ctx, a->pos[1], (OPT("require-comma") ? MXSIM_IMPORT_REQUIRE_COMMA : 0) |
                                         (OPT("scalesim-compat") ? MXSIM_IMPORT_SCALESIM_MODEL : 0) |
                                         (ver && !strcmp(ver, "v3") ? MXSIM_IMPORT_SCALESIM_V3 : 0), &t);
    /* a text trace has no field for a SCALE-Sim conv layer's geometry, which compat timing uses
    ** (its output size rule, its ifmap traffic): converted, the layer would time differently */
    int convs = 0;
    for (int64_t i = 0; st == MXSIM_OK && i < mxsim_trace_count(t); i++) convs += mxsim_trace_op(t, i)->conv_h > 0;
    if (st == MXSIM_OK && convs && (!strcmp(sub, "convert") || (!strcmp(sub, "cat") && out))) {
        if (OPT("scalesim-compat")) {
            mxsim_trace_free(t);
            return cli_usage("%s: %d conv layers of %s would lose the geometry SCALE-Sim compat timing uses (a text "
                             "trace holds only m, n, k): run the .csv itself", sub, convs, a->pos[1]);
        }
        fprintf(stderr, "mxsim trace: note: %d conv layers written as GEMMs (m, n, k by mxsim's rule): under SCALE-Sim "
                        "compat (a .cfg) run the .csv itself, not this trace\n", convs);
    }
    if (st == MXSIM_OK && !strcmp(sub, "gen")) st = mxsim_trace_save(ctx, t, out);
    else if (st == MXSIM_OK && !strcmp(sub, "convert")) st = mxsim_trace_save(ctx, t, a->pos[2]);
    else if (st == MXSIM_OK && !strcmp(sub, "check")) {
        char line[4200];
        int k = snprintf(line, sizeof line, "%s: ok, %lld ops\n", a->pos[1], (long long)mxsim_trace_count(t));
        rc = cli_write(ctx, NULL, line, (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
    } else if (st == MXSIM_OK && out) { /* cat -o: the same bytes, to a file */
        st = mxsim_trace_save(ctx, t, out);
    } else if (st == MXSIM_OK) { /* cat: the text format, the bytes trace_save writes */
        char *text = NULL;
        size_t len = 0;
        st = mxsim_trace_format(ctx, t, &text, &len);
        if (st == MXSIM_OK) rc = cli_write(ctx, NULL, text, len);
        mxsim_free(text);
    }
    mxsim_trace_free(t);
    return st == MXSIM_OK ? rc : cli_fail(ctx, st);
}


static const cli_opt k_run_opts[] = {
    CLI_CONFIG_OPTS,
    {"dataflow", 0, 1, 0, "os|ws|is", "shorthand for --set array.dataflow=..."},
    {"array", 0, 1, 0, "RxC", "shorthand for array.rows and array.cols"},
    {"group-size", 0, 1, 0, "G", "shorthand for --set mx.group_size=G"},
    {"scalesim-compat", 0, 0, 0, "", "time with SCALE-Sim's model (2.0.2's; report.scalesim_version=v3: 3.0.0's; implied by a .cfg)"},
    {"detail", 0, 0, 0, "", "time GEMMs with the cycle-by-cycle engine"},
    {"access-trace", 0, 1, 0, "F.gz", "with --detail: write the SRAM access trace"},
    {"columns", 0, 0, 0, "", "list the statistic columns (name, unit, kinds, TOTAL rule, doc) instead"},
    CLI_TABLE_OPTS,
    {0}};
static const cli_opt k_trace_opts[] = {
    {"require-comma", 0, 0, 0, "", "SCALE-Sim .csv rows must end with a comma"},
    {"scalesim-compat", 0, 0, 0, "", "read a .csv with SCALE-Sim's conv output size (a DP row is depthwise in both modes)"},
    {"scalesim-version", 0, 1, 0, "v2|v3", "with --scalesim-compat: read rows as SCALE-Sim 2.0.2 (default) or 3.0.0 does "
                                           "(a 9th conv value is its sparsity ratio)"},
    {"out", 'o', 1, 0, "OUT", "gen: output trace; cat: write there instead of stdout"},
    {0}};
static const cli_opt k_memory_opts[] = {
    CLI_CONFIG_OPTS,
    {"group-size", 0, 1, 1, "G", "MXINT8 group size (default: the configuration's mx.group_size)"},
    {"scalesim-compat", 0, 0, 0, "", "read a .csv with SCALE-Sim's conv output size (a DP row is depthwise in both modes)"},
    CLI_TABLE_OPTS,
    {0}};
static const cli_opt k_config_opts[] = {CLI_CONFIG_OPTS, {"dump", 0, 0, 0, "", "print the resolved configuration (what config does; optional)"}, CLI_TABLE_OPTS, {0}};

const cli_command mxsim_cmd_run = {
    "run", "TRACE",
    "Times every op of TRACE (mxsim text trace, .gz, or SCALE-Sim .csv) on the accelerator of CFG\n"
    "and prints a per-op table and a TOTAL row; every column has its unit (sim/doc/architecture.md\n"
    "lists them). The terminal table shows the main columns; csv and json carry every column\n"
    "(json: {\"meta\": trace and configuration, \"columns\", \"rows\"}). --detail times GEMMs with the\n"
    "cycle-by-cycle engine (small problems: at most 2^26 PE-cycles and 2^26 cycles per op, else\n"
    "exit 2); --access-trace F.gz writes F.<i>.gz for op i of a trace of several ops, all of them\n"
    "or none (they are committed together after the last op); its name must end in .gz, and '-' is\n"
    "refused (gzip data).  -o - is standard output.  CFG may be\n"
    "a SCALE-Sim .cfg (v2 or v3), which, like --scalesim-compat, times with SCALE-Sim's model (2.0.2's;\n"
    "3.0.0's for a v3 file: report.scalesim_version) and reads a .csv TRACE by its rules\n"
    "(sim/doc/architecture.md section 8).",
    k_run_opts, 0, 1, cmd_run, NULL};
const cli_command mxsim_cmd_trace = {
    "trace", "check|cat FILE | convert IN OUT | gen MODEL.model -o OUT",
    "check validates a trace, cat prints it in the text format, convert rewrites it (text, or gzip\n"
    "for OUT.gz; a .csv input is a SCALE-Sim topology, a .csv output is refused: it would be read\n"
    "back as one), gen builds one from a model file.",
    k_trace_opts, 1, 3, cmd_trace, NULL};
const cli_command mxsim_cmd_memory = {
    "memory", "TRACE",
    "The memory footprint of TRACE's tensors in fp32, bf16 and MXINT8 (mantissas + scale bytes +\n"
    "group padding) at each --group-size G: per GEMM operand (weight, KV cache or activation, from\n"
    "the trace's b_role) and non-GEMM parameter (embeddings, norms, biases: kept bf16), TOTAL rows,\n"
    "the savings against fp32 and bf16 and the ideal formula (8 + 8/G bits per element).  Weights\n"
    "and KV count once per execution (repeat = layers) unless the op gives b_tensors (a weight its\n"
    "repeats share, a mixture-of-experts layer's idle experts); sim/doc/memory.md.",
    k_memory_opts, 1, 1, cmd_memory, NULL};
const cli_command mxsim_cmd_config = {
    "config", "", "Prints the resolved configuration: every field with its value, type, unit, bounds and doc.",
    k_config_opts, 0, 0, cmd_config, NULL};

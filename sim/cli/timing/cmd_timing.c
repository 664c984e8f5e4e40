/* cmd_timing.c - `mxsim run`, `mxsim trace` and `mxsim config`: a thin layer over the timing API.
**
** Exit codes as the rest of the CLI: 0 ok, 1 runtime failure, 2 usage error or bad input (every
** message names file:line and field via the library's error detail).  Reports are written
** atomically: a temporary file next to the destination, then rename.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "timing/cmd_timing.h"

#define T_EXIT_RUNTIME 1
#define T_EXIT_USAGE 2

static int t_exit(mxsim_status st)
{
    if (st == MXSIM_OK) return 0;
    return st == MXSIM_E_IO || st == MXSIM_E_NOMEM || st == MXSIM_E_INTERNAL ? T_EXIT_RUNTIME : T_EXIT_USAGE;
}

static int t_fail(const char *cmd, mxsim_ctx *ctx, mxsim_status st)
{
    const char *d = mxsim_errmsg(ctx);
    fprintf(stderr, "mxsim %s: error: %s\n", cmd, d[0] ? d : mxsim_strerror(st));
    return t_exit(st);
}

static int t_usage(const char *cmd, const char *msg, const char *arg)
{
    fprintf(stderr, "mxsim %s: %s%s%s (see 'mxsim %s --help')\n", cmd, msg, arg ? " " : "", arg ? arg : "", cmd);
    return T_EXIT_USAGE;
}

/* Common option state of run/config. */
typedef struct {
    const char *config, *format, *out, *access_trace;
    const char *sets[64];
    int n_sets, detail, compat;
    const char *pos[4];
    int n_pos;
    const char *dataflow, *array, *group;
    int dump, require_comma;
} topts;

static int parse(const char *cmd, int argc, char **argv, topts *o)
{
    memset(o, 0, sizeof *o);
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--config")) slot = &o->config;
        else if (!strcmp(a, "--format")) slot = &o->format;
        else if (!strcmp(a, "-o")) slot = &o->out;
        else if (!strcmp(a, "--access-trace")) slot = &o->access_trace;
        else if (!strcmp(a, "--dataflow")) slot = &o->dataflow;
        else if (!strcmp(a, "--array")) slot = &o->array;
        else if (!strcmp(a, "--group-size")) slot = &o->group;
        else if (!strcmp(a, "--set")) {
            if (i + 1 >= argc) return t_usage(cmd, "option needs a value:", a);
            if (o->n_sets >= 64) return t_usage(cmd, "too many --set options", NULL);
            o->sets[o->n_sets++] = argv[++i];
            continue;
        } else if (!strcmp(a, "--detail")) { o->detail = 1; continue; }
        else if (!strcmp(a, "--scalesim-compat")) { o->compat = 1; continue; }
        else if (!strcmp(a, "--dump")) { o->dump = 1; continue; }
        else if (!strcmp(a, "--require-comma")) { o->require_comma = 1; continue; }
        else if (a[0] == '-' && a[1] != '\0') return t_usage(cmd, "unknown option", a);
        else {
            if (o->n_pos >= 4) return t_usage(cmd, "unexpected argument", a);
            o->pos[o->n_pos++] = a;
            continue;
        }
        if (i + 1 >= argc) return t_usage(cmd, "option needs a value:", a);
        *slot = argv[++i];
    }
    return 0;
}

static mxsim_status build_config(mxsim_ctx *ctx, const topts *o, mxsim_tconfig *cfg)
{
    mxsim_status st;
    char buf[64];
    mxsim_tconfig_default(cfg);
    if (o->config && (st = mxsim_tconfig_load(ctx, cfg, o->config)) != MXSIM_OK) return st;
    if (o->dataflow && (st = mxsim_tconfig_set(ctx, cfg, "array.dataflow", o->dataflow, "--dataflow")) != MXSIM_OK) return st;
    if (o->array) {
        const char *x = strchr(o->array, 'x');
        if (x == NULL || x == o->array || (size_t)(x - o->array) >= sizeof buf)
            return MXSIM_E_ARG;
        memcpy(buf, o->array, (size_t)(x - o->array));
        buf[x - o->array] = '\0';
        if ((st = mxsim_tconfig_set(ctx, cfg, "array.rows", buf, "--array")) != MXSIM_OK) return st;
        if ((st = mxsim_tconfig_set(ctx, cfg, "array.cols", x + 1, "--array")) != MXSIM_OK) return st;
    }
    if (o->group && (st = mxsim_tconfig_set(ctx, cfg, "mx.group_size", o->group, "--group-size")) != MXSIM_OK) return st;
    if (o->compat) cfg->scalesim_compat = 1;
    for (int i = 0; i < o->n_sets; i++)
        if ((st = mxsim_tconfig_set_kv(ctx, cfg, o->sets[i])) != MXSIM_OK) return st;
    return mxsim_tconfig_validate(ctx, cfg);
}

/* ---- report ------------------------------------------------------------------------------- */

static const char *const k_cols[] = {
    "op", "kind", "m", "n", "k", "repeat", "cycles_total", "cycles_compute", "cycles_fill_drain",
    "cycles_exp_stall", "cycles_mem_stall", "util_mapping_pct", "util_compute_pct",
    "sram_a_rd_mant_bytes", "sram_a_rd_scale_bytes", "sram_b_rd_mant_bytes", "sram_b_rd_scale_bytes",
    "sram_c_rd_bytes", "sram_c_wr_bytes", "dram_a_mant_bytes", "dram_a_scale_bytes",
    "dram_b_mant_bytes", "dram_b_scale_bytes", "dram_out_bytes", "n_macs", "n_exp_ops",
    "n_acc_writes", "n_dequant_elems", "n_requant_elems", "n_dram_requests", "tile_mxnxk", "time_us", "tops"};
#define NCOLS ((int)(sizeof k_cols / sizeof k_cols[0]))

static void row_values(const mxsim_top *op, const mxsim_tstats *s, char v[NCOLS][64])
{
    static const char *kinds[] = {"gemm", "dequant", "quantize", "total"};
    int c = 0;
    snprintf(v[c++], 64, "%s", op ? op->name : "TOTAL");
    snprintf(v[c++], 64, "%s", kinds[op ? op->kind : 3]);
    snprintf(v[c++], 64, "%lld", op ? (long long)op->m : 0LL);
    snprintf(v[c++], 64, "%lld", op ? (long long)op->n : 0LL);
    snprintf(v[c++], 64, "%lld", op ? (long long)op->k : 0LL);
    snprintf(v[c++], 64, "%lld", op ? (long long)op->repeat : 0LL);
    const int64_t iv[] = {s->cycles_total, s->cycles_compute, s->cycles_fill_drain, s->cycles_exp_stall, s->cycles_mem_stall};
    for (int i = 0; i < 5; i++) snprintf(v[c++], 64, "%lld", (long long)iv[i]);
    snprintf(v[c++], 64, "%.2f", 100 * s->util_mapping);
    snprintf(v[c++], 64, "%.2f", 100 * s->util_compute);
    const int64_t bv[] = {s->sram_a_rd_mant_bytes, s->sram_a_rd_scale_bytes, s->sram_b_rd_mant_bytes,
                          s->sram_b_rd_scale_bytes, s->sram_c_rd_bytes, s->sram_c_wr_bytes,
                          s->dram_a_mant_bytes, s->dram_a_scale_bytes, s->dram_b_mant_bytes,
                          s->dram_b_scale_bytes, s->dram_out_bytes, s->n_macs, s->n_exp_ops,
                          s->n_acc_writes, s->n_dequant_elems, s->n_requant_elems, s->n_dram_requests};
    for (int i = 0; i < 17; i++) snprintf(v[c++], 64, "%lld", (long long)bv[i]);
    if (op) snprintf(v[c++], 64, "%lldx%lldx%lld", (long long)s->tile_m, (long long)s->tile_n, (long long)s->tile_k);
    else snprintf(v[c++], 64, "-");
    snprintf(v[c++], 64, "%.3f", s->seconds * 1e6);
    snprintf(v[c++], 64, "%.4f", s->tops);
}

/* table and md show a readable subset; csv and json carry every column */
static const int k_brief[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 19, 20, 21, 22, 23, 30, 31, 32};
#define NBRIEF ((int)(sizeof k_brief / sizeof k_brief[0]))

typedef char trow[NCOLS][64];

/* Table column widths: each column as wide as its header or its widest value, so that every
** name (with its unit) and every number is printed whole. */
static void table_widths(const trow *rows, int64_t n, int w[NBRIEF])
{
    for (int i = 0; i < NBRIEF; i++) {
        w[i] = (int)strlen(k_cols[k_brief[i]]);
        for (int64_t r = 0; r < n; r++) {
            int L = (int)strlen(rows[r][k_brief[i]]);
            if (L > w[i]) w[i] = L;
        }
    }
}

static void emit_row(cli_buf *b, const char *fmt, char v[NCOLS][64], int first, const int *w)
{
    if (!strcmp(fmt, "csv")) {
        for (int i = 0; i < NCOLS; i++) cli_printf(b, "%s%s", i ? "," : "", v[i]);
        cli_printf(b, "\n");
    } else if (!strcmp(fmt, "json")) {
        cli_printf(b, "%s    {", first ? "" : ",\n");
        for (int i = 0; i < NCOLS; i++) {
            int str = i < 2 || i == 30;
            cli_printf(b, "%s\"%s\": %s%s%s", i ? ", " : "", k_cols[i], str ? "\"" : "", v[i], str ? "\"" : "");
        }
        cli_printf(b, "}");
    } else if (!strcmp(fmt, "md")) {
        cli_printf(b, "|");
        for (int i = 0; i < NBRIEF; i++) cli_printf(b, " %s |", v[k_brief[i]]);
        cli_printf(b, "\n");
    } else { /* op and kind left-aligned, numbers right-aligned, two spaces apart */
        for (int i = 0; i < NBRIEF; i++)
            cli_printf(b, i < 2 ? "%s%-*s" : "%s%*s", i ? "  " : "", w[i], v[k_brief[i]]);
        cli_printf(b, "\n");
    }
}

static void emit_header(cli_buf *b, const char *fmt, const int *w)
{
    if (!strcmp(fmt, "csv")) {
        for (int i = 0; i < NCOLS; i++) cli_printf(b, "%s%s", i ? "," : "", k_cols[i]);
        cli_printf(b, "\n");
    } else if (!strcmp(fmt, "md")) {
        cli_printf(b, "|");
        for (int i = 0; i < NBRIEF; i++) cli_printf(b, " %s |", k_cols[k_brief[i]]);
        cli_printf(b, "\n|");
        for (int i = 0; i < NBRIEF; i++) cli_printf(b, "---|");
        cli_printf(b, "\n");
    } else if (!strcmp(fmt, "table")) {
        for (int i = 0; i < NBRIEF; i++)
            cli_printf(b, i < 2 ? "%s%-*s" : "%s%*s", i ? "  " : "", w[i], k_cols[k_brief[i]]);
        cli_printf(b, "\n");
    }
}

/* Access-trace path of op i: PATH itself for a one-op trace, else PATH with ".i" inserted before
** a ".gz" suffix (appended otherwise).  NULL on allocation failure. */
static char *acc_path(const char *path, int64_t i, int64_t n_ops)
{
    size_t L = strlen(path), cap = L + 32;
    char *p = malloc(cap);
    if (p == NULL) return NULL;
    if (n_ops == 1) snprintf(p, cap, "%s", path);
    else if (L > 3 && !strcmp(path + L - 3, ".gz")) snprintf(p, cap, "%.*s.%lld.gz", (int)(L - 3), path, (long long)i);
    else snprintf(p, cap, "%s.%lld", path, (long long)i);
    return p;
}

int mxsim_cli_run(int argc, char **argv, mxsim_ctx *ctx)
{
    topts o;
    int rc;
    if ((rc = parse("run", argc, argv, &o)) != 0) return rc;
    if (o.n_pos != 1) return t_usage("run", "expected one TRACE", NULL);
    if (!o.config) return t_usage("run", "missing --config CFG", NULL);
    const char *fmt = o.format ? o.format : "table";
    if (strcmp(fmt, "table") && strcmp(fmt, "csv") && strcmp(fmt, "json") && strcmp(fmt, "md"))
        return t_usage("run", "--format: expected table, csv, json or md, got", fmt);
    if (o.array && !strchr(o.array, 'x')) return t_usage("run", "--array: expected RxC, got", o.array);
    if (o.access_trace && !o.detail) return t_usage("run", "--access-trace needs --detail", NULL);
    mxsim_tconfig cfg;
    mxsim_status st = build_config(ctx, &o, &cfg);
    if (st != MXSIM_OK) return t_fail("run", ctx, st);
    mxsim_trace *tr = NULL;
    /* a SCALE-Sim topology under SCALE-Sim's model (a .cfg or --scalesim-compat) takes its rules */
    size_t plen = strlen(o.pos[0]);
    if (cfg.scalesim_compat && plen > 4 && !strcmp(o.pos[0] + plen - 4, ".csv"))
        st = mxsim_trace_import_scalesim(ctx, o.pos[0], o.require_comma | MXSIM_IMPORT_SCALESIM_MODEL, &tr);
    else st = mxsim_trace_load(ctx, o.pos[0], &tr);
    if (st != MXSIM_OK) return t_fail("run", ctx, st);
    cli_buf b = {0};
    mxsim_tstats tot;
    memset(&tot, 0, sizeof tot);
    int64_t n = mxsim_trace_count(tr);
    /* every row is formatted first, so that table columns can be sized to their contents */
    trow *rows = malloc((size_t)(n + 1) * sizeof *rows);
    if (rows == NULL) {
        mxsim_trace_free(tr);
        fprintf(stderr, "mxsim run: out of memory\n");
        return T_EXIT_RUNTIME;
    }
    for (int64_t i = 0; i < n && st == MXSIM_OK; i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        mxsim_tstats s;
        char *ap = NULL;
        if (o.access_trace && op->kind == MXSIM_OP_GEMM && (ap = acc_path(o.access_trace, i, n)) == NULL) {
            free(rows);
            mxsim_trace_free(tr);
            fprintf(stderr, "mxsim run: out of memory\n");
            return T_EXIT_RUNTIME;
        }
        st = mxsim_time_op(ctx, &cfg, op, mxsim_trace_source(tr), o.detail, ap, &s);
        free(ap);
        if (st != MXSIM_OK) break;
        mxsim_tstats_add(&cfg, &tot, &s);
        row_values(op, &s, rows[i]);
    }
    if (st != MXSIM_OK) {
        free(rows);
        mxsim_trace_free(tr);
        return t_fail("run", ctx, st);
    }
    row_values(NULL, &tot, rows[n]);
    int w[NBRIEF];
    table_widths((const trow *)rows, n + 1, w);
    if (!strcmp(fmt, "json")) {
        cli_printf(&b, "{\n  \"trace\": \"%s\",\n  \"config\": {", o.pos[0]);
        char val[64];
        for (int i = 0; i < mxsim_tconfig_field_count(); i++) {
            const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
            mxsim_tconfig_format(&cfg, i, val, sizeof val);
            int str = !strcmp(f->type, "enum");
            cli_printf(&b, "%s\"%s\": %s%s%s", i ? ", " : "", f->name, str ? "\"" : "", val, str ? "\"" : "");
        }
        cli_printf(&b, "},\n  \"ops\": [\n");
    } else {
        emit_header(&b, fmt, w);
    }
    for (int64_t i = 0; i < n; i++) emit_row(&b, fmt, rows[i], i == 0, w);
    mxsim_trace_free(tr);
    if (!strcmp(fmt, "json")) {
        cli_printf(&b, "\n  ],\n  \"total\": ");
        cli_buf t2 = {0};
        emit_row(&t2, "json", rows[n], 1, w);
        cli_printf(&b, "%s\n}\n", t2.p ? t2.p + 4 : "{}");
        free(t2.p);
    } else {
        emit_row(&b, fmt, rows[n], 0, w);
    }
    free(rows);
    if (b.oom) {
        free(b.p);
        fprintf(stderr, "mxsim run: out of memory\n");
        return T_EXIT_RUNTIME;
    }
    if (o.out) {
        if (cli_write_atomic(o.out, b.p, b.n) != 0) {
            free(b.p);
            fprintf(stderr, "mxsim run: error: %s: cannot write\n", o.out);
            return T_EXIT_RUNTIME;
        }
    } else {
        fwrite(b.p, 1, b.n, stdout);
    }
    free(b.p);
    return 0;
}

int mxsim_cli_config(int argc, char **argv, mxsim_ctx *ctx)
{
    topts o;
    int rc;
    if ((rc = parse("config", argc, argv, &o)) != 0) return rc;
    if (!o.dump || o.n_pos) return t_usage("config", "expected --dump", NULL);
    mxsim_tconfig cfg;
    mxsim_status st = build_config(ctx, &o, &cfg);
    if (st != MXSIM_OK) return t_fail("config", ctx, st);
    char val[64];
    printf("# mxsim %s resolved configuration%s%s\n", mxsim_version(), o.config ? " from " : "", o.config ? o.config : "");
    for (int i = 0; i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        mxsim_tconfig_format(&cfg, i, val, sizeof val);
        if (f->choices) printf("%-26s = %-10s # %s [%s]; %s\n", f->name, val, f->type, f->choices, f->doc);
        else if (!strcmp(f->type, "int")) /* whole bounds, never in exponent form */
            printf("%-26s = %-10s # %s %s [%.0f..%.0f]; %s\n", f->name, val, f->type, f->unit, f->lo, f->hi, f->doc);
        else printf("%-26s = %-10s # %s %s [%g..%g]; %s\n", f->name, val, f->type, f->unit, f->lo, f->hi, f->doc);
    }
    return 0;
}

/* Same text as mxsim_trace_save writes. */
static void print_trace(const mxsim_trace *t)
{
    static const char *kinds[] = {"gemm", "dequant", "quantize"}, *of[] = {"mxint8", "int8"},
                      *outf[] = {"fp32", "bf16", "mxint8"};
    printf("mxsim-trace 1\n");
    for (int64_t i = 0; i < mxsim_trace_count(t); i++) {
        const mxsim_top *o = mxsim_trace_op(t, i);
        printf("%s name=%s m=%lld n=%lld", kinds[o->kind], o->name, (long long)o->m, (long long)o->n);
        if (o->kind == MXSIM_OP_GEMM) printf(" k=%lld", (long long)o->k);
        if (o->group_size > 0) printf(" group=%lld", (long long)o->group_size);
        if (o->repeat != 1) printf(" repeat=%lld", (long long)o->repeat);
        if (o->a_fmt >= 0) printf(" a=%s", of[o->a_fmt]);
        if (o->b_fmt >= 0) printf(" b=%s", of[o->b_fmt]);
        if (o->out_fmt >= 0) printf(" out=%s", outf[o->out_fmt]);
        printf("\n");
    }
}

int mxsim_cli_trace(int argc, char **argv, mxsim_ctx *ctx)
{
    topts o;
    int rc;
    if ((rc = parse("trace", argc, argv, &o)) != 0) return rc;
    if (o.n_pos < 1) return t_usage("trace", "expected check, cat, convert or gen", NULL);
    const char *sub = o.pos[0];
    mxsim_trace *t = NULL;
    mxsim_status st;
    if (!strcmp(sub, "gen")) {
        if (o.n_pos != 2 || !o.out) return t_usage("trace", "gen: expected MODEL.model -o OUT", NULL);
        st = mxsim_trace_gen(ctx, o.pos[1], &t);
        if (st == MXSIM_OK) st = mxsim_trace_save(ctx, t, o.out);
    } else if (!strcmp(sub, "check") || !strcmp(sub, "cat")) {
        if (o.n_pos != 2) return t_usage("trace", "expected one FILE", NULL);
        size_t L = strlen(o.pos[1]);
        if (L > 4 && !strcmp(o.pos[1] + L - 4, ".csv")) st = mxsim_trace_import_scalesim(ctx, o.pos[1], o.require_comma | (o.compat ? MXSIM_IMPORT_SCALESIM_MODEL : 0), &t);
        else st = mxsim_trace_load(ctx, o.pos[1], &t);
        if (st == MXSIM_OK && !strcmp(sub, "check")) printf("%s: ok, %lld ops\n", o.pos[1], (long long)mxsim_trace_count(t));
        if (st == MXSIM_OK && !strcmp(sub, "cat")) print_trace(t);
    } else if (!strcmp(sub, "convert")) {
        if (o.n_pos != 3) return t_usage("trace", "convert: expected IN OUT", NULL);
        size_t L = strlen(o.pos[1]);
        if (L > 4 && !strcmp(o.pos[1] + L - 4, ".csv")) st = mxsim_trace_import_scalesim(ctx, o.pos[1], o.require_comma | (o.compat ? MXSIM_IMPORT_SCALESIM_MODEL : 0), &t);
        else st = mxsim_trace_load(ctx, o.pos[1], &t);
        if (st == MXSIM_OK) st = mxsim_trace_save(ctx, t, o.pos[2]);
    } else {
        return t_usage("trace", "unknown subcommand", sub);
    }
    mxsim_trace_free(t);
    return st == MXSIM_OK ? 0 : t_fail("trace", ctx, st);
}

/* report.c - the sweep report (mxsim.h "Report"): reads the sweep's CSV and its typed JSON
** sidecar, checks them against each other, and builds the charts (chart.c), README.md and
** index.html in memory; mxsim_report_build writes them all or nothing. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "report/csv.h"
#include "report/json.h"
#include "report/report.h"

#define MAX_AXES 16
#define MAX_AXIS_VALUES 100000
#define CSV_MAX_BYTES ((uint64_t)1 << 30)
#define CSV_MAX_COLS 1024
#define CSV_MAX_ROWS ((int64_t)20000000)
#define META_MAX_BYTES ((uint64_t)4 << 20)
#define MAX_MAGNITUDE 1e200 /* keeps every chart scale and its padding finite */
#define MAX_BARS 200        /* bar charts show the first 200 points; the CSV has them all */
#define MAX_PARTS 8         /* stacked parts shown: the largest 7, the rest as "other" */

static const char *const k_chart[MX_REPORT_CHARTS] = {"cycles", "energy", "sqnr", "pareto", "cycle_breakdown",
                                                      "energy_breakdown", "area_breakdown"};
static const char *const k_file[MX_REPORT_FILES] = {
    "cycles.svg", "cycles.csv", "energy.svg", "energy.csv", "sqnr.svg", "sqnr.csv", "pareto.svg", "pareto.csv",
    "cycle_breakdown.svg", "cycle_breakdown.csv", "energy_breakdown.svg", "energy_breakdown.csv",
    "area_breakdown.svg", "area_breakdown.csv", "README.md", "index.html"};

/* ---- the sidecar ------------------------------------------------------------------------ */

typedef struct {
    const char *key, *type, *unit;
    int numeric; /* int or real */
    int n;       /* values */
    double *num; /* numeric values (NaN for enum/text) */
    const char **text; /* each value as text */
    char *store; /* texts of numeric values */
    int col;     /* its CSV column */
} axis_t;

typedef struct {
    mx_json j;
    const char *path;
    const char *mxsim_version, *trace, *config, *group_policy;
    int64_t n_ops, points;
    axis_t ax[MAX_AXES];
    int n_axes;
    int base, cost, accuracy, columns; /* JSON nodes; accuracy -1 when null */
} meta_t;

static void meta_free(meta_t *m)
{
    for (int a = 0; a < m->n_axes; a++) {
        free(m->ax[a].num);
        free(m->ax[a].text);
        free(m->ax[a].store);
    }
    mx_json_free(&m->j);
}

static mxsim_status meta_bad(mxsim_ctx *ctx, const meta_t *m, int node, const char *field, const char *why)
{
    return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field '%s': %s", m->path, node >= 0 ? m->j.node[node].line : 1,
                   field, why);
}

static const char *type_name(mx_json_type t)
{
    static const char *const n[] = {"null", "a boolean", "a number", "a string", "an array", "an object"};
    return n[t];
}

/* Member key of obj (named objname in messages, "" at the root) of type t (or null when
** nullable: *out = -1). */
static mxsim_status member(mxsim_ctx *ctx, const meta_t *m, int obj, const char *objname, const char *key,
                           mx_json_type t, int nullable, int *out)
{
    char field[128];
    mx_snprintf(field, sizeof field, "%s%s%s", objname, objname[0] ? "." : "", key);
    int k = mx_json_get(&m->j, obj, key);
    if (k < 0) return meta_bad(ctx, m, obj, field, "missing");
    mx_json_type got = m->j.node[k].type;
    if (nullable && got == MX_JSON_NULL) {
        *out = -1;
        return MXSIM_OK;
    }
    if (got != t) {
        char why[96];
        mx_snprintf(why, sizeof why, "expected %s%s, got %s", type_name(t), nullable ? " or null" : "", type_name(got));
        return meta_bad(ctx, m, k, field, why);
    }
    *out = k;
    return MXSIM_OK;
}

static mxsim_status member_str(mxsim_ctx *ctx, const meta_t *m, int obj, const char *objname, const char *key,
                               int nullable, const char **out)
{
    int k = -1;
    mxsim_status st = member(ctx, m, obj, objname, key, MX_JSON_STR, nullable, &k);
    if (st == MXSIM_OK) *out = k < 0 ? NULL : m->j.node[k].str;
    return st;
}

static mxsim_status member_int(mxsim_ctx *ctx, const meta_t *m, int obj, const char *key, int64_t lo, int64_t hi,
                               int64_t *out)
{
    int k = -1;
    mxsim_status st = member(ctx, m, obj, "", key, MX_JSON_NUM, 0, &k);
    if (st != MXSIM_OK) return st;
    double v = m->j.node[k].num;
    if (v != floor(v) || v < (double)lo || v > (double)hi) {
        char why[96];
        mx_snprintf(why, sizeof why, "expected a whole number in %lld..%lld, got %g", (long long)lo, (long long)hi, v);
        return meta_bad(ctx, m, k, key, why);
    }
    *out = (int64_t)v;
    return MXSIM_OK;
}

static mxsim_status read_axis(mxsim_ctx *ctx, meta_t *m, int node, int a)
{
    axis_t *ax = &m->ax[a];
    char name[32];
    mx_snprintf(name, sizeof name, "axes[%d]", a);
    mxsim_status st;
    int vals;
    if ((st = member_str(ctx, m, node, name, "key", 0, &ax->key)) != MXSIM_OK ||
        (st = member_str(ctx, m, node, name, "type", 0, &ax->type)) != MXSIM_OK ||
        (st = member_str(ctx, m, node, name, "unit", 0, &ax->unit)) != MXSIM_OK ||
        (st = member(ctx, m, node, name, "values", MX_JSON_ARR, 0, &vals)) != MXSIM_OK)
        return st;
    char field[64];
    mx_snprintf(field, sizeof field, "%s.key", name);
    if (!ax->key[0]) return meta_bad(ctx, m, node, field, "empty");
    for (int b = 0; b < a; b++)
        if (!strcmp(m->ax[b].key, ax->key)) return meta_bad(ctx, m, node, field, "the same key as an earlier axis");
    mx_snprintf(field, sizeof field, "%s.type", name);
    int is_int = !strcmp(ax->type, "int"), is_real = !strcmp(ax->type, "real");
    if (!is_int && !is_real && strcmp(ax->type, "enum") && strcmp(ax->type, "text"))
        return meta_bad(ctx, m, node, field, "expected int, real, enum or text");
    ax->numeric = is_int || is_real;
    mx_snprintf(field, sizeof field, "%s.values", name);
    ax->n = m->j.node[vals].count;
    if (ax->n < 1 || ax->n > MAX_AXIS_VALUES) return meta_bad(ctx, m, vals, field, "expected 1 to 100000 values");
    ax->num = malloc((size_t)ax->n * sizeof *ax->num);
    ax->text = malloc((size_t)ax->n * sizeof *ax->text);
    ax->store = ax->numeric ? malloc((size_t)ax->n * 32) : NULL;
    if (!ax->num || !ax->text || (ax->numeric && !ax->store)) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", m->path);
    int i = 0;
    for (int k = m->j.node[vals].first; k >= 0; k = m->j.node[k].next, i++) {
        const mx_json_node *v = &m->j.node[k];
        mx_snprintf(field, sizeof field, "%s.values[%d]", name, i);
        if (ax->numeric) {
            if (v->type != MX_JSON_NUM) return meta_bad(ctx, m, k, field, "expected a number");
            if (is_int && (v->num != floor(v->num) || fabs(v->num) > 9e15))
                return meta_bad(ctx, m, k, field, "expected a whole number (the axis is int)");
            if (fabs(v->num) > MAX_MAGNITUDE) return meta_bad(ctx, m, k, field, "magnitude above 1e200");
            ax->num[i] = v->num;
            ax->text[i] = mx_fmt_real(v->num, ax->store + 32 * i, 32);
        } else {
            if (v->type != MX_JSON_STR) return meta_bad(ctx, m, k, field, "expected a string");
            ax->num[i] = NAN;
            ax->text[i] = v->str;
        }
        for (int q = 0; q < i; q++)
            if (ax->numeric ? ax->num[q] == ax->num[i] : !strcmp(ax->text[q], ax->text[i]))
                return meta_bad(ctx, m, k, field, "repeats an earlier value");
    }
    return MXSIM_OK;
}

static mxsim_status read_meta(mxsim_ctx *ctx, const char *path, meta_t *m)
{
    memset(m, 0, sizeof *m);
    m->path = path;
    uint8_t *data;
    size_t len;
    if (access(path, F_OK) != 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'sidecar': missing (mxsim sweep -o NAME.csv writes NAME.meta.json "
                                           "beside the CSV; the report needs both)", path);
    mxsim_status st = mx_file_read(ctx, path, META_MAX_BYTES, &data, &len);
    if (st != MXSIM_OK) return st;
    st = mx_json_parse(ctx, path, (const char *)data, len, &m->j);
    free(data);
    if (st != MXSIM_OK) return st;
    if (m->j.node[0].type != MX_JSON_OBJ) return meta_bad(ctx, m, 0, "json", "expected an object");
    const char *fmt;
    int64_t version;
    int axes;
    if ((st = member_str(ctx, m, 0, "", "format", 0, &fmt)) != MXSIM_OK) return st;
    if (strcmp(fmt, "mxsim-sweep"))
        return meta_bad(ctx, m, mx_json_get(&m->j, 0, "format"), "format", "expected \"mxsim-sweep\"");
    if ((st = member_int(ctx, m, 0, "version", 0, 1000000, &version)) != MXSIM_OK) return st;
    if (version != 2)
        return meta_bad(ctx, m, mx_json_get(&m->j, 0, "version"), "version", "this mxsim reads version 2");
    /* every key is one the sweep writes: a misspelt csv_fnv1a64 used to skip the digest check */
    static const char *const known[] = {"format", "version", "csv_fnv1a64", "mxsim_version", "trace", "n_ops", "config",
                                        "profile", "points", "axes", "base", "cost", "accuracy", "group_policy", "columns"};
    for (int k = m->j.node[0].first; k >= 0; k = m->j.node[k].next) {
        size_t i = 0;
        while (i < sizeof known / sizeof known[0] && strcmp(known[i], m->j.node[k].key)) i++;
        if (i == sizeof known / sizeof known[0]) return meta_bad(ctx, m, k, m->j.node[k].key, "unknown key");
    }
    if ((st = member_str(ctx, m, 0, "", "mxsim_version", 0, &m->mxsim_version)) != MXSIM_OK ||
        (st = member_str(ctx, m, 0, "", "trace", 0, &m->trace)) != MXSIM_OK ||
        (st = member_int(ctx, m, 0, "n_ops", 0, INT32_MAX, &m->n_ops)) != MXSIM_OK ||
        (st = member_str(ctx, m, 0, "", "config", 1, &m->config)) != MXSIM_OK ||
        (st = member_int(ctx, m, 0, "points", 0, INT32_MAX, &m->points)) != MXSIM_OK ||
        (st = member(ctx, m, 0, "", "axes", MX_JSON_ARR, 0, &axes)) != MXSIM_OK ||
        (st = member(ctx, m, 0, "", "base", MX_JSON_OBJ, 0, &m->base)) != MXSIM_OK ||
        (st = member(ctx, m, 0, "", "cost", MX_JSON_OBJ, 0, &m->cost)) != MXSIM_OK ||
        (st = member(ctx, m, 0, "", "accuracy", MX_JSON_OBJ, 1, &m->accuracy)) != MXSIM_OK ||
        (st = member_str(ctx, m, 0, "", "group_policy", 0, &m->group_policy)) != MXSIM_OK ||
        (st = member(ctx, m, 0, "", "columns", MX_JSON_ARR, 0, &m->columns)) != MXSIM_OK)
        return st;
    if (m->j.node[axes].count > MAX_AXES) return meta_bad(ctx, m, axes, "axes", "more than 16 axes");
    int a = 0;
    for (int k = m->j.node[axes].first; k >= 0; k = m->j.node[k].next, a++) {
        char name[32];
        mx_snprintf(name, sizeof name, "axes[%d]", a);
        if (m->j.node[k].type != MX_JSON_OBJ) return meta_bad(ctx, m, k, name, "expected an object");
        m->n_axes = a + 1; /* read_axis's allocations are freed by meta_free */
        if ((st = read_axis(ctx, m, k, a)) != MXSIM_OK) return st;
    }
    int i = 0;
    for (int k = m->j.node[m->columns].first; k >= 0; k = m->j.node[k].next, i++) {
        char name[32];
        const char *s;
        mx_snprintf(name, sizeof name, "columns[%d]", i);
        if (m->j.node[k].type != MX_JSON_OBJ) return meta_bad(ctx, m, k, name, "expected an object");
        if ((st = member_str(ctx, m, k, name, "name", 0, &s)) != MXSIM_OK ||
            (st = member_str(ctx, m, k, name, "type", 0, &s)) != MXSIM_OK)
            return st;
        if (strcmp(s, "text") && strcmp(s, "int") && strcmp(s, "real"))
            return meta_bad(ctx, m, mx_json_get(&m->j, k, "type"), name, "type: expected text, int or real");
    }
    return MXSIM_OK;
}

/* The sidecar's type of a CSV column: "int", "real", "text", or NULL when not described. */
static const char *column_type(const meta_t *m, const char *name)
{
    for (int k = m->j.node[m->columns].first; k >= 0; k = m->j.node[k].next) {
        int n = mx_json_get(&m->j, k, "name");
        if (!strcmp(m->j.node[n].str, name)) return m->j.node[mx_json_get(&m->j, k, "type")].str;
    }
    return NULL;
}

/* ---- the CSV, checked against the sidecar --------------------------------------------------- */

typedef struct {
    int64_t row;       /* CSV record of the TOTAL row */
    int64_t id;        /* its point number */
    int vi[MAX_AXES];  /* index of each axis' value */
    int key[MAX_AXES]; /* sort key: the other axes, then the x axis */
    int n_key;
} point_t;

typedef struct {
    mxsim_ctx *ctx;
    const char *path;
    mx_csv c;
    meta_t m;
    int col_point, col_status, col_op;
    point_t *pt; /* ok TOTAL rows, in CSV order */
    int n_pt, n_failed;
    int xa; /* x axis, -1: none */
} input_t;

static double num(const input_t *in, int64_t row, int col) { return mx_strtod(mx_csv_at(&in->c, row, col), NULL); }

static int col_of(const input_t *in, const char *name) { return mx_csv_col(&in->c, name); }

static const char *const k_required[] = {"point", "profile", "status", "op", "kind", "cycles_total", "cycles_compute",
                                          "cycles_fill_drain", "cycles_exp_stall", "cycles_mem_stall", "time_us",
                                          "energy_mj", "energy_mj_low", "energy_mj_high", "area_mm2", "sqnr_db"};
#define N_REQUIRED (int)(sizeof k_required / sizeof k_required[0])

static int has_affix(const char *s, const char *prefix, const char *suffix)
{
    size_t L = strlen(s), lp = strlen(prefix), ls = strlen(suffix);
    return L > lp + ls && !strncmp(s, prefix, lp) && !strcmp(s + L - ls, suffix);
}

/* s for a message: at most 40 bytes, control characters as '?' (a quoted CSV field may hold
** line breaks). */
static const char *shown(const char *s, char buf[48])
{
    size_t k = 0;
    for (; s[k] && k < 40; k++) buf[k] = (unsigned char)s[k] < 0x20 || s[k] == 0x7f ? '?' : s[k];
    mx_snprintf(buf + k, 48 - k, "%s", s[k] ? "..." : "");
    return buf;
}

/* A metric cell: a number ("nan", "inf" included), at most 1e200 in magnitude. */
static mxsim_status check_number(const input_t *in, int64_t r, int c, int finite_nonneg)
{
    const char *v = mx_csv_at(&in->c, r, c);
    char *end;
    errno = 0;
    double x = mx_strtod(v, &end);
    const char *why = end == v || *end != '\0' ? "not a number" : NULL;
    if (!why && isfinite(x) && fabs(x) > MAX_MAGNITUDE) why = "magnitude above 1e200 (no mxsim metric comes near)";
    if (!why && finite_nonneg && !(isfinite(x) && x >= 0)) why = "expected a finite number >= 0";
    char b1[48], b2[48];
    if (why)
        return mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field '%s': %s, got '%s'", in->path,
                       (long long)in->c.line[r], shown(mx_csv_at(&in->c, 0, c), b1), why, shown(v, b2));
    return MXSIM_OK;
}

static int point_cmp(const void *pa, const void *pb)
{
    const point_t *a = pa, *b = pb;
    for (int i = 0; i < a->n_key; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

typedef struct {
    long long id;
    const char *op;
    int64_t row;
    int total, ok;
} oprow_t;

static int oprow_cmp(const void *pa, const void *pb)
{
    const oprow_t *a = pa, *b = pb;
    if (a->id != b->id) return a->id < b->id ? -1 : 1;
    if (a->total != b->total) return b->total - a->total; /* the TOTAL row first */
    const int c = strcmp(a->op, b->op);
    return c ? c : (a->row > b->row) - (a->row < b->row);
}

/* Every op row belongs to a point with a TOTAL row; a point that ran (status ok) has the sidecar's
** n_ops op rows.  A deleted, duplicated or renumbered op row changed the report's per-op tables
** without a word (a duplicate with another SQNR was printed twice).  An op name may repeat: a trace
** or SCALE-Sim topology may give two layers one name, and the per-op tables match ops by their
** place in the point, not by name; a row replaced by a copy of another is the digest's to catch. */
static mxsim_status check_op_rows(const input_t *in)
{
    const mx_csv *c = &in->c;
    const int64_t n = c->n_rows - 1;
    oprow_t *v = malloc((size_t)(n > 0 ? n : 1) * sizeof *v);
    if (!v) return mx_fail(in->ctx, MXSIM_E_NOMEM, "%s: out of memory", in->path);
    for (int64_t r = 1; r < c->n_rows; r++) {
        oprow_t *o = &v[r - 1];
        o->id = strtoll(mx_csv_at(c, r, in->col_point), NULL, 10); /* checked by check_rows */
        o->op = mx_csv_at(c, r, in->col_op);
        o->row = r;
        o->total = !strcmp(o->op, "TOTAL");
        o->ok = !strcmp(mx_csv_at(c, r, in->col_status), "ok");
    }
    qsort(v, (size_t)n, sizeof *v, oprow_cmp);
    mxsim_status st = MXSIM_OK;
    /* first the rows of a point without a TOTAL row (a renumbered row also leaves its point short) */
    for (int64_t i = 0; i < n && st == MXSIM_OK; i++)
        if ((i == 0 || v[i].id != v[i - 1].id) && !v[i].total)
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': op '%s' of point %lld, which has no TOTAL row",
                         in->path, (long long)c->line[v[i].row], shown(v[i].op, (char[48]){0}), v[i].id);
    for (int64_t i = 0, j; i < n && st == MXSIM_OK; i = j) {
        for (j = i; j < n && v[j].id == v[i].id; j++) {}
        const oprow_t *t = &v[i];
        if (j - i > 1 && v[i + 1].total) {
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': point %lld has a second TOTAL row (first on line %lld)",
                         in->path, (long long)c->line[v[i + 1].row], t->id, (long long)c->line[t->row]);
            break;
        }
        if (st == MXSIM_OK && t->ok && j - i - 1 != in->m.n_ops)
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': point %lld has %lld op rows, %s says the trace has %lld ops",
                         in->path, (long long)c->line[t->row], t->id, (long long)(j - i - 1), in->m.path, (long long)in->m.n_ops);
    }
    free(v);
    return st;
}

static mxsim_status check_rows(input_t *in)
{
    mx_csv *c = &in->c;
    meta_t *m = &in->m;
    mxsim_status st;
    for (int i = 0; i < c->n_cols; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(mx_csv_at(c, 0, i), mx_csv_at(c, 0, j)))
                return mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'header': column '%s' appears twice", in->path,
                               (long long)c->line[0], shown(mx_csv_at(c, 0, i), (char[48]){0}));
    for (int i = 0; i < N_REQUIRED; i++)
        if (col_of(in, k_required[i]) < 0)
            return mx_fail(in->ctx, MXSIM_E_INPUT, "%s: field '%s': column missing", in->path, k_required[i]);
    /* every column the sidecar lists is in the CSV: without e_sram_mj the energy breakdown lost its
    ** SRAM bar (41% of the energy) and the shares paragraph vanished, without a word */
    for (int k = m->j.node[m->columns].first; k >= 0; k = m->j.node[k].next) {
        const int nk = mx_json_get(&m->j, k, "name"); /* read_meta checked it is a string */
        const char *want = nk >= 0 ? m->j.node[nk].str : "";
        if (col_of(in, want) < 0)
            return mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'header': column '%s' missing (%s lists it)", in->path,
                           (long long)c->line[0], shown(want, (char[48]){0}), m->path);
    }
    for (int a = 0; a < m->n_axes; a++)
        if ((m->ax[a].col = col_of(in, m->ax[a].key)) < 0)
            return mx_fail(in->ctx, MXSIM_E_INPUT, "%s: field '%s': column missing (an axis of %s)", in->path,
                           shown(m->ax[a].key, (char[48]){0}), m->path);
    in->col_point = col_of(in, "point");
    in->col_status = col_of(in, "status");
    in->col_op = col_of(in, "op");
    /* which columns hold numbers: the metrics the report reads, and those the sidecar types */
    char *numeric = calloc((size_t)c->n_cols, 1);
    in->pt = malloc((size_t)(c->n_rows > 1 ? c->n_rows : 1) * sizeof *in->pt);
    if (!numeric || !in->pt) {
        free(numeric);
        return mx_fail(in->ctx, MXSIM_E_NOMEM, "%s: out of memory", in->path);
    }
    for (int i = 0; i < c->n_cols; i++) {
        const char *name = mx_csv_at(c, 0, i), *t = column_type(m, name);
        numeric[i] = (t && strcmp(t, "text")) || has_affix(name, "e_", "_mj") || has_affix(name, "a_", "_mm2");
    }
    for (int i = 5; i < N_REQUIRED; i++) numeric[col_of(in, k_required[i])] = 1;
    numeric[in->col_point] = 0;
    const int fin[3] = {col_of(in, "time_us"), col_of(in, "energy_mj"), col_of(in, "cycles_total")};
    st = MXSIM_OK;
    for (int64_t r = 1; r < c->n_rows && st == MXSIM_OK; r++) {
        const char *pv = mx_csv_at(c, r, in->col_point);
        char *end;
        long long id = strtoll(pv, &end, 10);
        if (end == pv || *end || id < 0 || id > INT32_MAX) {
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': expected a point number, got '%s'",
                         in->path, (long long)c->line[r], shown(pv, (char[48]){0}));
            break;
        }
        int ok = !strcmp(mx_csv_at(c, r, in->col_status), "ok"), total = !strcmp(mx_csv_at(c, r, in->col_op), "TOTAL");
        for (int k = 0; ok && k < c->n_cols && st == MXSIM_OK; k++)
            if (numeric[k]) st = check_number(in, r, k, total && (k == fin[0] || k == fin[1] || k == fin[2]));
        if (!total || st != MXSIM_OK) continue;
        if (in->n_pt + in->n_failed >= m->points) {
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': more TOTAL rows than the %lld points of %s",
                         in->path, (long long)c->line[r], (long long)m->points, m->path);
            break;
        }
        if (!ok) {
            in->n_failed++;
            continue;
        }
        point_t *p = &in->pt[in->n_pt];
        p->row = r;
        p->id = id;
        for (int a = 0; a < m->n_axes && st == MXSIM_OK; a++) {
            const axis_t *ax = &m->ax[a];
            const char *v = mx_csv_at(c, r, ax->col);
            double x = ax->numeric ? mx_strtod(v, &end) : NAN;
            int found = -1;
            if (!ax->numeric || (end != v && *end == '\0'))
                for (int q = 0; q < ax->n && found < 0; q++)
                    if (ax->numeric ? ax->num[q] == x : !strcmp(ax->text[q], v)) found = q;
            if (found < 0)
                st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field '%s': '%s' is not one of the axis' values in %s",
                             in->path, (long long)c->line[r], shown(ax->key, (char[48]){0}), shown(v, (char[48]){0}), m->path);
            p->vi[a] = found;
        }
        in->n_pt++;
    }
    free(numeric);
    if (st != MXSIM_OK) return st;
    if (in->n_pt + in->n_failed != m->points)
        return mx_fail(in->ctx, MXSIM_E_INPUT, "%s: field 'points': %lld in %s, but the CSV has %d TOTAL rows", in->path,
                       (long long)m->points, m->path, in->n_pt + in->n_failed);
    if ((st = check_op_rows(in)) != MXSIM_OK) return st;
    /* the x axis: mx.group_size when numeric, else the first int axis, else the first real one,
    ** else (array.dataflow=os,ws,is) the first named axis, its values in the given order; an axis
    ** of one value only when no axis has more (array.rows=16 beside a dataflow axis is not x) */
    in->xa = -1;
    for (int min_n = 2; min_n >= 1 && in->xa < 0; min_n--) {
        for (int a = 0; a < m->n_axes && in->xa < 0; a++)
            if (!strcmp(m->ax[a].key, "mx.group_size") && m->ax[a].numeric && m->ax[a].n >= min_n) in->xa = a;
        for (int pass = 0; pass < 2 && in->xa < 0; pass++)
            for (int a = 0; a < m->n_axes && in->xa < 0; a++)
                if (!strcmp(m->ax[a].type, pass ? "real" : "int") && m->ax[a].n >= min_n) in->xa = a;
        for (int a = 0; a < m->n_axes && in->xa < 0; a++)
            if (m->ax[a].n >= min_n) in->xa = a;
    }
    /* two ok points with the same axis values would draw one over the other: refused */
    point_t *s = malloc((size_t)(in->n_pt ? in->n_pt : 1) * sizeof *s);
    if (!s) return mx_fail(in->ctx, MXSIM_E_NOMEM, "%s: out of memory", in->path);
    for (int i = 0; i < in->n_pt; i++) {
        point_t *p = &in->pt[i];
        p->n_key = 0;
        for (int a = 0; a < m->n_axes; a++)
            if (a != in->xa) p->key[p->n_key++] = p->vi[a];
        if (in->xa >= 0) p->key[p->n_key++] = p->vi[in->xa];
        s[i] = *p;
    }
    qsort(s, (size_t)in->n_pt, sizeof *s, point_cmp);
    for (int i = 1; i < in->n_pt && st == MXSIM_OK; i++)
        if (m->n_axes > 0 && !memcmp(s[i].key, s[i - 1].key, (size_t)s[i].n_key * sizeof s[i].key[0]))
            st = mx_fail(in->ctx, MXSIM_E_INPUT, "%s:%lld: field 'point': point %lld has the axis values of point %lld",
                         in->path, (long long)in->c.line[s[i].row], (long long)s[i].id, (long long)s[i - 1].id);
    free(s);
    return st;
}

static void input_free(input_t *in)
{
    free(in->pt);
    mx_csv_free(&in->c);
    meta_free(&in->m);
}

static mxsim_status read_input(mxsim_ctx *ctx, const char *csv_path, const char *meta_path, input_t *in)
{
    memset(in, 0, sizeof *in);
    in->ctx = ctx;
    in->path = csv_path;
    uint8_t *data;
    size_t len;
    mxsim_status st = mx_file_read(ctx, csv_path, CSV_MAX_BYTES, &data, &len);
    if (st != MXSIM_OK) return st;
    st = mx_csv_parse(ctx, csv_path, (const char *)data, len, CSV_MAX_COLS, CSV_MAX_ROWS, &in->c);
    char got[17]; /* the file's digest, against the sidecar's csv_fnv1a64 */
    mx_digest_hex(data, len, got);
    free(data);
    if (st == MXSIM_OK) st = read_meta(ctx, meta_path, &in->m);
    if (st == MXSIM_OK) st = check_rows(in);
    /* last, so that a malformed edit is named by its own rule first */
    const int kd = st == MXSIM_OK ? mx_json_get(&in->m.j, 0, "csv_fnv1a64") : -1;
    if (kd >= 0) {
        if (in->m.j.node[kd].type != MX_JSON_STR || strlen(in->m.j.node[kd].str) != 16)
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'csv_fnv1a64': expected 16 hex digits", in->m.path, in->m.j.node[kd].line);
        else if (strcmp(in->m.j.node[kd].str, got))
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: field 'csv_fnv1a64': the CSV is not the one %s was written with (digest %s, the sidecar's %s): "
                         "edited since, or from another sweep", csv_path, in->m.path, got, in->m.j.node[kd].str);
    }
    return st;
}

/* ---- the charts ------------------------------------------------------------------------------ */

/* "8 / 32": the axis values of a point (its number when there are no axes). */
static void point_label(const input_t *in, const point_t *p, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int a = 0; a < in->m.n_axes && k < n; a++)
        k += (size_t)mx_snprintf(out + k, n - k, "%s%s", a ? " / " : "", in->m.ax[a].text[p->vi[a]]);
    if (in->m.n_axes == 0) mx_snprintf(out, n, "point %lld", (long long)p->id);
}

/* "array.size / mx.group_size" (all axes) or the other axes than the x axis, ", "-joined. */
static void axis_keys(const input_t *in, int skip, const char *sep, char *out, size_t n)
{
    size_t k = 0;
    out[0] = '\0';
    for (int a = 0; a < in->m.n_axes && k < n; a++)
        if (a != skip) k += (size_t)mx_snprintf(out + k, n - k, "%s%s", k ? sep : "", in->m.ax[a].key);
}

typedef struct {
    int n_x;
    double *x;          /* the x values, increasing */
    const char **x_lab;
    int *x_of;          /* x_of[value index of the x axis] = position */
    int n_series;
    int *series_of;     /* series_of[i]: series of point i */
    char **label;       /* series labels */
    char *label_store;
} lines_t;

static void lines_free(lines_t *l)
{
    free(l->x);
    free(l->x_lab);
    free(l->x_of);
    free(l->series_of);
    free(l->label);
    free(l->label_store);
}

typedef struct {
    double v;
    int i;
} value_ref;

static int value_cmp(const void *pa, const void *pb)
{
    const value_ref *a = pa, *b = pb;
    return a->v < b->v ? -1 : a->v > b->v ? 1 : a->i - b->i;
}

#define SERIES_LABEL_LEN 96

static int lines_build(const input_t *in, lines_t *l)
{
    memset(l, 0, sizeof *l);
    int n = in->n_pt, xa = in->xa;
    const axis_t *ax = xa >= 0 ? &in->m.ax[xa] : NULL;
    l->n_x = ax ? ax->n : n;
    l->x = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *l->x);
    l->x_lab = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *l->x_lab);
    l->x_of = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *l->x_of);
    l->series_of = malloc((size_t)(n ? n : 1) * sizeof *l->series_of);
    int *order = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *order), *idx = malloc((size_t)(n ? n : 1) * sizeof *idx);
    if (!l->x || !l->x_lab || !l->x_of || !l->series_of || !order || !idx) goto fail;
    value_ref *vr = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *vr);
    if (!vr) goto fail;
    for (int i = 0; i < l->n_x; i++) vr[i] = (value_ref){ax && ax->numeric ? ax->num[i] : i, i};
    qsort(vr, (size_t)l->n_x, sizeof *vr, value_cmp); /* x in increasing order, as tick positions */
    for (int i = 0; i < l->n_x; i++) order[i] = vr[i].i;
    free(vr);
    for (int q = 0; q < l->n_x; q++) {
        l->x[q] = ax && ax->numeric ? ax->num[order[q]] : q;
        l->x_lab[q] = ax ? ax->text[order[q]] : NULL;
        l->x_of[order[q]] = q;
    }
    /* series: the points sorted by the other axes' values, a new series where they change; with
    ** no x axis, one series of the points in CSV order */
    point_t *s = malloc((size_t)(n ? n : 1) * sizeof *s);
    if (!s) goto fail;
    for (int i = 0; i < n; i++) {
        s[i] = in->pt[i];
        s[i].id = i; /* the sorted copies remember their index */
    }
    qsort(s, (size_t)n, sizeof *s, point_cmp);
    size_t other = ax ? (size_t)(in->m.n_axes - 1) * sizeof s[0].key[0] : 0;
    for (int q = 0; q < n; q++) {
        if (q == 0 || (ax && memcmp(s[q].key, s[q - 1].key, other))) l->n_series++;
        idx[l->n_series - 1] = (int)s[q].id; /* a member of each series, for its label */
        l->series_of[s[q].id] = ax ? l->n_series - 1 : 0;
    }
    free(s);
    l->label = malloc((size_t)(l->n_series ? l->n_series : 1) * sizeof *l->label);
    l->label_store = malloc((size_t)(l->n_series ? l->n_series : 1) * SERIES_LABEL_LEN);
    if (!l->label || !l->label_store) goto fail;
    for (int sr = 0; sr < l->n_series; sr++) {
        char *o = l->label_store + (size_t)sr * SERIES_LABEL_LEN;
        size_t k = 0;
        o[0] = '\0';
        for (int a = 0; ax && a < in->m.n_axes && k < SERIES_LABEL_LEN; a++)
            if (a != xa)
                k += (size_t)mx_snprintf(o + k, SERIES_LABEL_LEN - k, "%s%s", k ? ", " : "", in->m.ax[a].text[in->pt[idx[sr]].vi[a]]);
        if (!o[0]) mx_snprintf(o, SERIES_LABEL_LEN, "all points");
        l->label[sr] = o;
    }
    free(order);
    free(idx);
    return 0;
fail:
    free(order);
    free(idx);
    lines_free(l);
    return -1;
}

/* 1 when there are several series and every one has the same value of col at each x (so a
** chart shows only the last drawn: said in a note). */
static int series_coincide(const input_t *in, const lines_t *l, int col)
{
    if (l->n_series < 2 || in->xa < 0) return 0;
    const axis_t *ax = &in->m.ax[in->xa];
    for (int v = 0; v < ax->n; v++) {
        double first = NAN;
        int seen = 0;
        for (int i = 0; i < in->n_pt; i++) {
            if (in->pt[i].vi[in->xa] != v) continue;
            double y = num(in, in->pt[i].row, col);
            if (seen++ == 0) first = y;
            else if (!(y == first || (isnan(y) && isnan(first)))) return 0;
        }
        if (seen && seen != l->n_series) return 0; /* a series lacks this x */
    }
    return 1;
}

/* Line chart of metric col (with band columns lo/hi, or -1) over the x axis. */
static void chart_lines(const input_t *in, const lines_t *l, mx_report_out *o, int k, const char *title,
                        const char *y_title, const char *y_col, int col, int lo, int hi, const char *note,
                        int dodge, char (*xlab)[24])
{
    size_t cells = (size_t)(l->n_series ? l->n_series : 1) * (size_t)(l->n_x ? l->n_x : 1);
    double *v = malloc(3 * cells * sizeof *v);
    mx_chart_series *se = malloc((size_t)(l->n_series ? l->n_series : 1) * sizeof *se);
    const char **xl = malloc((size_t)(l->n_x ? l->n_x : 1) * sizeof *xl);
    if (!v || !se || !xl) {
        o->file[2 * k].buf.oom = 1;
        free(v), free(se), free(xl);
        return;
    }
    for (size_t i = 0; i < 3 * cells; i++) v[i] = NAN;
    for (int i = 0; i < in->n_pt; i++) {
        int s = l->series_of[i], x = in->xa >= 0 ? l->x_of[in->pt[i].vi[in->xa]] : i;
        size_t at = (size_t)s * (size_t)l->n_x + (size_t)x;
        v[at] = num(in, in->pt[i].row, col);
        if (lo >= 0) {
            v[cells + at] = num(in, in->pt[i].row, lo);
            v[2 * cells + at] = num(in, in->pt[i].row, hi);
        }
    }
    for (int s = 0; s < l->n_series; s++) {
        size_t at = (size_t)s * (size_t)l->n_x;
        se[s] = (mx_chart_series){l->label[s], v + at, lo >= 0 ? v + cells + at : NULL, lo >= 0 ? v + 2 * cells + at : NULL};
    }
    for (int q = 0; q < l->n_x; q++) xl[q] = l->x_lab[q] ? l->x_lab[q] : xlab[q];
    char x_title[160], legend_title[160], x_col[64];
    const axis_t *ax = in->xa >= 0 ? &in->m.ax[in->xa] : NULL;
    if (ax && ax->unit[0]) mx_snprintf(x_title, sizeof x_title, "%s (%s)", ax->key, ax->unit);
    else if (ax && !ax->numeric) mx_snprintf(x_title, sizeof x_title, "%s (named setting)", ax->key);
    else mx_snprintf(x_title, sizeof x_title, "%s", ax ? ax->key : "design point (point number)");
    mx_snprintf(x_col, sizeof x_col, "%s", ax ? ax->key : "point");
    if (ax) axis_keys(in, in->xa, ", ", legend_title, sizeof legend_title);
    else legend_title[0] = '\0'; /* one series, "all points" */
    mx_line_chart c = {title, x_title, y_title, legend_title[0] ? legend_title : NULL, note, l->n_x, l->x, xl,
                       l->n_series, se, x_col, legend_title[0] ? legend_title : "series", y_col,
                       lo >= 0 ? mx_csv_at(&in->c, 0, lo) : NULL, hi >= 0 ? mx_csv_at(&in->c, 0, hi) : NULL, dodge,
                       !ax || !ax->numeric};
    mx_chart_lines(&c, &o->file[2 * k].buf, &o->file[2 * k + 1].buf, &o->layout[k]);
    free(v);
    free(se);
    free(xl);
}

/* Horizontal stacked bars per point of the given columns; past MAX_PARTS - 1 parts the smallest
** (by their sum over the points) are merged as "other". */
static void chart_bars(const input_t *in, mx_report_out *o, int k, const char *title, const char *x_title,
                       const char *v_col, const int *cols, const char *const *names, int n_cols)
{
    int nb = in->n_pt < MAX_BARS ? in->n_pt : MAX_BARS;
    int np = n_cols <= MAX_PARTS ? n_cols : MAX_PARTS;
    double *sum = calloc((size_t)(n_cols ? n_cols : 1), sizeof *sum);
    int *rank = malloc((size_t)(n_cols ? n_cols : 1) * sizeof *rank);
    double *v = calloc((size_t)(nb ? nb : 1) * (size_t)(np ? np : 1), sizeof *v);
    char (*lab)[96] = malloc((size_t)(nb ? nb : 1) * sizeof *lab);
    const char **bl = malloc((size_t)(nb ? nb : 1) * sizeof *bl);
    const char *pl[MAX_PARTS];
    if (!sum || !rank || !v || !lab || !bl) {
        o->file[2 * k].buf.oom = 1;
        goto out;
    }
    for (int j = 0; j < n_cols; j++) {
        rank[j] = j;
        for (int i = 0; i < in->n_pt; i++) {
            double x = num(in, in->pt[i].row, cols[j]);
            if (isfinite(x) && x > 0) sum[j] += x;
        }
    }
    if (n_cols > MAX_PARTS) /* keep the largest MAX_PARTS - 1 in their column order */
        for (int j = 0; j < n_cols; j++) {
            int better = 0;
            for (int q = 0; q < n_cols; q++) better += sum[q] > sum[j] || (sum[q] == sum[j] && q < j);
            rank[j] = better < MAX_PARTS - 1 ? better : MAX_PARTS - 1;
        }
    int slot[MAX_PARTS], ns = 0; /* part p shows column slot[p] (or "other") */
    char zero[160] = "";         /* parts that are 0 at every point: named in the note, not drawn */
    for (int j = 0; j < n_cols; j++) {
        if (sum[j] == 0 && n_cols > 1) {
            size_t w = strlen(zero);
            mx_snprintf(zero + w, sizeof zero - w, "%s%s", w ? ", " : "", names[j]);
            continue;
        }
        if (n_cols <= MAX_PARTS || rank[j] < MAX_PARTS - 1) slot[ns++] = j;
    }
    np = n_cols <= MAX_PARTS ? (ns > 0 ? ns : 1) : ns + 1; /* + "other" */
    for (int p = 0; p < ns; p++) pl[p] = names[slot[p]];
    if (n_cols > MAX_PARTS) pl[ns] = "other";
    for (int i = 0; i < nb; i++) {
        point_label(in, &in->pt[i], lab[i], sizeof lab[i]);
        bl[i] = lab[i];
        for (int j = 0; j < n_cols; j++) {
            double x = num(in, in->pt[i].row, cols[j]);
            if (!(isfinite(x) && x > 0)) continue;
            int p = np - 1;
            for (int q = 0; q < ns; q++)
                if (slot[q] == j) p = q;
            v[(size_t)i * (size_t)np + (size_t)p] += x;
        }
    }
    char y_title[192], note[320] = "";
    char keys[160];
    axis_keys(in, -1, " / ", keys, sizeof keys);
    mx_snprintf(y_title, sizeof y_title, "design point%s%s%s", keys[0] ? " (" : "", keys, keys[0] ? ")" : "");
    if (nb < in->n_pt) mx_snprintf(note, sizeof note, "The first %d of %d points; the CSV has them all.", nb, in->n_pt);
    if (zero[0]) {
        size_t w = strlen(note);
        mx_snprintf(note + w, sizeof note - w, "%sZero at every point, not drawn: %s.", w ? " " : "", zero);
    }
    int hue[MAX_PARTS]; /* by column: energy and area list the components in one order */
    for (int p = 0; p < np; p++) hue[p] = p < ns ? slot[p] : 0;
    mx_bar_chart c = {title, x_title, y_title, NULL, note, nb, np, bl, pl, v, n_cols > MAX_PARTS, "point", "part", v_col, hue};
    mx_chart_bars(&c, &o->file[2 * k].buf, &o->file[2 * k + 1].buf, &o->layout[k]);
out:
    free(sum);
    free(rank);
    free(v);
    free(lab);
    free(bl);
}

/* Pareto front of (time, energy): points no other point beats on both (time, not cycles: a sweep
** of the clock changes one without the other).  Sorted by (time,
** energy), a point is on the front iff its energy is below every energy before it; equal pairs
** are all on it.  O(n log n). */
typedef struct {
    double x, y, c;
    int i;
} xy_t;

static int xy_cmp(const void *pa, const void *pb)
{
    const xy_t *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    if (a->y != b->y) return a->y < b->y ? -1 : 1;
    return a->i - b->i;
}

static void pareto_front(xy_t *p, int n, int *front)
{
    qsort(p, (size_t)n, sizeof *p, xy_cmp);
    double best = INFINITY; /* lowest y among strictly smaller x */
    for (int j = 0; j < n;) {
        int k = j;
        while (k < n && p[k].x == p[j].x) k++;
        for (int q = j; q < k; q++) front[q] = p[q].y == p[j].y && p[j].y < best;
        best = fmin(best, p[j].y);
        j = k;
    }
}

static void chart_pareto(const input_t *in, mx_report_out *o, int k, int **front_rows, int *n_front)
{
    int n = in->n_pt;
    xy_t *p = malloc((size_t)(n ? n : 1) * sizeof *p);
    int *front = malloc((size_t)(n ? n : 1) * sizeof *front);
    double *x = malloc((size_t)(n ? n : 1) * 3 * sizeof *x);
    char (*lab)[96] = malloc((size_t)(n ? n : 1) * sizeof *lab);
    const char **pl = malloc((size_t)(n ? n : 1) * sizeof *pl);
    *front_rows = malloc((size_t)(n ? n : 1) * sizeof **front_rows);
    *n_front = 0;
    if (!p || !front || !x || !lab || !pl || !*front_rows) {
        o->file[2 * k].buf.oom = 1;
        goto out;
    }
    int cc = col_of(in, "time_us"), ce = col_of(in, "energy_mj"), cq = col_of(in, "sqnr_db");
    for (int i = 0; i < n; i++)
        p[i] = (xy_t){num(in, in->pt[i].row, cc), num(in, in->pt[i].row, ce), num(in, in->pt[i].row, cq), i};
    pareto_front(p, n, front);
    for (int j = 0; j < n; j++) { /* sorted by x: the front's line is drawn in this order */
        x[j] = p[j].x;
        x[n + j] = p[j].y;
        x[2 * n + j] = p[j].c;
        point_label(in, &in->pt[p[j].i], lab[j], sizeof lab[j]);
        pl[j] = lab[j];
        if (front[j]) (*front_rows)[(*n_front)++] = p[j].i;
    }
    char keys[160], note[224];
    axis_keys(in, -1, " / ", keys, sizeof keys);
    mx_snprintf(note, sizeof note, "Labels: %s of the points on the front.", keys[0] ? keys : "point number");
    mx_scatter_chart c = {"Pareto front: time vs energy, coloured by SQNR", "time (us, whole trace)", "energy (mJ)",
                          "SQNR (dB)", note, n, x, x + n, x + 2 * n, front, pl,
                          "point", "time_us", "energy_mj", "sqnr_db"};
    mx_chart_scatter(&c, &o->file[2 * k].buf, &o->file[2 * k + 1].buf, &o->layout[k]);
out:
    free(p);
    free(front);
    free(x);
    free(lab);
    free(pl);
}

/* The front over (time, energy, SQNR): lower or equal time and energy and higher or equal SQNR,
** one of them strictly, dominates; an unmeasured SQNR (nan) is the worst.  In the order (time up,
** energy up, SQNR down) no point dominates one before it, and a point beaten by anything is beaten by
** a point of the front (dominance is transitive), so each point is checked against the front so far:
** O(n log n + n x front).  Writes the CSV rows of the front in point order to rows; *n 0 when no point
** has a measured SQNR (accuracy off).  -1: out of memory. */
typedef struct {
    double t, e, q;
    int i;
} teq_t;
static int teq_cmp(const void *pa, const void *pb)
{
    const teq_t *a = pa, *b = pb;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->e != b->e) return a->e < b->e ? -1 : 1;
    if (a->q != b->q) return a->q > b->q ? -1 : 1;
    return a->i - b->i;
}
static int pareto_front_sqnr(const input_t *in, int64_t *rows, int *n)
{
    const int np = in->n_pt, cc = col_of(in, "time_us"), ce = col_of(in, "energy_mj"), cq = col_of(in, "sqnr_db");
    *n = 0;
    if (np < 1 || cq < 0) return 0;
    teq_t *p = malloc((size_t)np * sizeof *p);
    int *fr = malloc((size_t)np * sizeof *fr), *on = calloc((size_t)np, sizeof *on);
    if (!p || !fr || !on) {
        free(p), free(fr), free(on);
        return -1;
    }
    int measured = 0;
    for (int i = 0; i < np; i++) {
        const int64_t r = in->pt[i].row;
        const double q = num(in, r, cq);
        measured += !isnan(q);
        p[i] = (teq_t){num(in, r, cc), num(in, r, ce), isnan(q) ? -INFINITY : q, i};
    }
    if (measured) {
        qsort(p, (size_t)np, sizeof *p, teq_cmp);
        int nf = 0;
        for (int k = 0; k < np; k++) {
            int beaten = 0;
            for (int f = 0; f < nf && !beaten; f++) {
                const teq_t *a = &p[fr[f]], *b = &p[k];
                beaten = a->t <= b->t && a->e <= b->e && a->q >= b->q && (a->t < b->t || a->e < b->e || a->q > b->q);
            }
            if (!beaten) fr[nf++] = k, on[p[k].i] = 1;
        }
        for (int i = 0; i < np; i++)
            if (on[i]) rows[(*n)++] = in->pt[i].row;
    }
    free(p), free(fr), free(on);
    return 0;
}

/* ---- README.md and index.html ----------------------------------------------------------------- */

typedef struct {
    mx_buf *md, *html;
} doc_t;

static void doc_h(doc_t *d, int level, const char *text)
{
    mx_buf_printf(d->md, "\n%.*s %s\n\n", level, "####", text);
    mx_buf_printf(d->html, "<h%d>", level);
    mx_buf_html(d->html, text);
    mx_buf_printf(d->html, "</h%d>\n", level);
}

static void doc_p(doc_t *d, const char *text)
{
    mx_buf_printf(d->md, "%s\n\n", text);
    mx_buf_puts(d->html, "<p>");
    mx_buf_html(d->html, text);
    mx_buf_puts(d->html, "</p>\n");
}

static void doc_head(doc_t *d, const char *const *names, int n)
{
    mx_buf_puts(d->md, "|");
    mx_buf_puts(d->html, "<div class=\"tw\"><table><tr>");
    for (int i = 0; i < n; i++) {
        mx_buf_puts(d->md, " ");
        mx_buf_md_cell(d->md, names[i]);
        mx_buf_puts(d->md, " |");
        mx_buf_puts(d->html, "<th>");
        mx_buf_html(d->html, names[i]);
        mx_buf_puts(d->html, "</th>");
    }
    mx_buf_puts(d->md, "\n|");
    for (int i = 0; i < n; i++) mx_buf_puts(d->md, "---|");
    mx_buf_puts(d->md, "\n");
    mx_buf_puts(d->html, "</tr>\n");
}

/* A Markdown cell of user text (op names, axis values): < > & as entities, so that an op named
** <script> is shown, not passed to a Markdown renderer as HTML (audit of the twenty-fifth session). */
static void md_user_cell(mx_buf *b, const char *s)
{
    char piece[2] = {0, 0};
    for (; *s; s++) {
        if (*s == '<') mx_buf_puts(b, "&lt;");
        else if (*s == '>') mx_buf_puts(b, "&gt;");
        else if (*s == '&') mx_buf_puts(b, "&amp;");
        else piece[0] = *s, mx_buf_md_cell(b, piece);
    }
}

/* One cell; first opens the row, last closes it. */
static void doc_cell(doc_t *d, const char *s, int first, int last)
{
    if (first) {
        mx_buf_puts(d->md, "|");
        mx_buf_puts(d->html, "<tr>");
    }
    mx_buf_puts(d->md, " ");
    md_user_cell(d->md, s);
    mx_buf_puts(d->md, " |");
    mx_buf_puts(d->html, "<td>");
    mx_buf_html(d->html, s);
    mx_buf_puts(d->html, "</td>");
    if (last) {
        mx_buf_puts(d->md, "\n");
        mx_buf_puts(d->html, "</tr>\n");
    }
}

static void doc_end_table(doc_t *d)
{
    mx_buf_puts(d->md, "\n");
    mx_buf_puts(d->html, "</table></div>\n");
}

/* A table of the given CSV rows: the axis values (with_axes) then the named columns. */
/* A cell for people: the CSV carries every digit, a table shows a real column to 6 significant digits */
static const char *human(const input_t *in, const char *col, const char *v, char *buf, size_t n)
{
    const char *t = column_type(&in->m, col);
    char *e;
    if (!t || strcmp(t, "real") || !v[0]) return v;
    const double x = mx_strtod(v, &e);
    if (e == v || *e) return v;
    mx_snprintf(buf, n, "%.6g", x);
    return buf;
}

static void rows_table(doc_t *d, const input_t *in, const int64_t *rows, int nr, const char *const *cols, int nc,
                       int with_axes)
{
    const char *names[MAX_AXES + 32];
    int n = 0, na = with_axes ? in->m.n_axes : 0;
    for (int a = 0; a < na; a++) names[n++] = in->m.ax[a].key;
    for (int i = 0; i < nc && n < MAX_AXES + 32; i++) names[n++] = cols[i];
    doc_head(d, names, n);
    for (int r = 0; r < nr; r++) {
        int k = 0;
        for (int a = 0; a < na; a++, k++) doc_cell(d, mx_csv_at(&in->c, rows[r], in->m.ax[a].col), k == 0, k == n - 1);
        for (int i = 0; i < nc; i++, k++) {
            int c = col_of(in, cols[i]);
            char buf[48];
            doc_cell(d, c >= 0 ? human(in, cols[i], mx_csv_at(&in->c, rows[r], c), buf, sizeof buf) : "-", k == 0, k == n - 1);
        }
    }
    doc_end_table(d);
}

static void json_text(const mx_json *j, int k, char *out, size_t n)
{
    const mx_json_node *v = &j->node[k];
    switch (v->type) {
    case MX_JSON_NULL: mx_snprintf(out, n, "null"); return;
    case MX_JSON_BOOL: mx_snprintf(out, n, "%s", v->num ? "true" : "false"); return;
    case MX_JSON_NUM: mx_fmt_real(v->num, out, n); return;
    case MX_JSON_STR: mx_snprintf(out, n, "%s", v->str); return;
    default: mx_snprintf(out, n, "(%d members)", v->count); return;
    }
}

/* Key/value table of a JSON object. */
static void object_table(doc_t *d, const mx_json *j, int obj, const char *what)
{
    const char *h[2] = {what, "value"};
    doc_head(d, h, 2);
    for (int k = obj >= 0 ? j->node[obj].first : -1; k >= 0; k = j->node[k].next) {
        char v[512];
        json_text(j, k, v, sizeof v);
        doc_cell(d, j->node[k].key, 1, 0);
        doc_cell(d, v, 0, 1);
    }
    doc_end_table(d);
}

static void constants(doc_t *d, mxsim_ctx *ctx, const meta_t *m)
{
    static const char *const h[] = {"key", "component", "what", "value", "low", "high", "unit", "node (nm)", "Vdd (V)",
                                    "source", "conf.", "derivation"};
    doc_head(d, h, 12);
    double sram8 = NAN;
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        char v[3][32], node[16], vdd[32];
        mx_fmt_real(c->value, v[0], sizeof v[0]);
        mx_fmt_real(c->low, v[1], sizeof v[1]);
        mx_fmt_real(c->high, v[2], sizeof v[2]);
        /* node 0: a constant that does not scale with the node (DRAM) */
        mx_snprintf(node, sizeof node, c->node_nm > 0 ? "%d" : "n/a", c->node_nm);
        if (c->node_nm > 0) mx_fmt_real(c->vdd_v, vdd, sizeof vdd);
        else mx_snprintf(vdd, sizeof vdd, "n/a");
        if (!strcmp(c->key, "sram.energy_per_bit_8kib")) sram8 = c->value;
        const char *cells[12] = {c->key, c->component, c->what, v[0], v[1], v[2], c->unit, node, vdd, c->source,
                                 c->confidence, c->derivation};
        for (int k = 0; k < 12; k++) doc_cell(d, cells[k], k == 0, k == 11);
    }
    doc_end_table(d);
    int kb = mx_json_get(&m->j, m->cost, "sram_bank_kib");
    if (kb >= 0 && m->j.node[kb].type == MX_JSON_NUM && m->j.node[kb].num > 0 && !isnan(sram8)) {
        /* the table quotes the 8 KiB macro; what the run applied is scaled to its bank size */
        char a[32], b[32], line[320];
        const double kib = m->j.node[kb].num;
        /* per buffer, as cost.c applies it: a buffer smaller than the bank is one smaller macro */
        mx_snprintf(line, sizeof line, "SRAM access energy as applied, per buffer: the table's 8 KiB value x sqrt(min(buffer, "
                                    "sram_bank_kib) / 8) = %s x sqrt(%s / 8) = %s pJ/bit for a buffer of at least %s KiB, "
                                    "less for a smaller one (nominal, before node scaling; the band scales alike).",
                 mx_fmt_real(sram8, a, sizeof a), mx_fmt_real(kib, b, sizeof b), mx_fmt_real(sram8 * sqrt(kib / 8.0), (char[32]){0}, 32), b);
        doc_p(d, line);
    }
    int kn = mx_json_get(&m->j, m->cost, "node_nm"), kv = mx_json_get(&m->j, m->cost, "vdd_v");
    char line[512];
    if (kn < 0 || kv < 0 || m->j.node[kn].type != MX_JSON_NUM || m->j.node[kv].type != MX_JSON_NUM) {
        doc_p(d, "The sidecar's cost object gives no numeric node_nm and vdd_v: the constants above are unscaled.");
        return;
    }
    double nn = m->j.node[kn].num;
    mxsim_node_scale sc;
    mxsim_status st = nn == floor(nn) && fabs(nn) < 1e6 ? mxsim_node_scaling(ctx, (int)nn, m->j.node[kv].num, &sc)
                                                        : MXSIM_E_INPUT;
    if (st != MXSIM_OK) {
        mx_snprintf(line, sizeof line, "The sidecar's node (%g nm, %g V) is not in the scaling table: the constants above "
                                    "are unscaled.", nn, m->j.node[kv].num);
        mx_clear_err(ctx);
    } else {
        mx_snprintf(line, sizeof line, "Node scaling (SB17 Stillmaker & Baas 2017, from 45 nm / 0.9 V): node %d nm, Vdd %g V: "
                                    "logic area x%.4g, energy and leakage x%.4g, SRAM area x%.4g (6T bitcell ratio). "
                                    "DRAM energy is not scaled.", sc.node_nm, sc.vdd_v, sc.area_factor,
                 sc.energy_factor, sc.sram_area_factor);
    }
    doc_p(d, line);
}

static const char *const k_chart_caption[MX_REPORT_CHARTS] = {
    "Total cycles of the trace against the x axis, one line per value of the other axes.",
    "Energy of the trace (nominal); the error bars span the low and high estimates of the cost sources (sim/doc/energy-area.md).",
    "Accuracy: SQNR of the MXINT8 results against float64 (higher is better).",
    "Time against energy per design point, coloured by SQNR; the dashed line joins the Pareto front.",
    "Where the cycles go: compute, array fill and drain, exponent-unit stalls, lane (load-path) limit, DRAM bandwidth and DRAM latency.",
    "Energy per component (nominal); components beyond the largest seven are summed as 'other'.",
    "Area per component; components beyond the largest seven are summed as 'other'."};

/* The distinct values of column col over the points (TOTAL rows), in order of first appearance, at
** most cap: their count. */
static int distinct_values(const input_t *in, int col, const char **seen, int cap)
{
    int n = 0;
    for (int i = 0; i < in->n_pt && n < cap; i++) {
        const char *v = mx_csv_at(&in->c, in->pt[i].row, col);
        int k = 0;
        while (k < n && strcmp(seen[k], v)) k++;
        if (k == n) seen[n++] = v;
    }
    return n;
}

/* The numerics profile(s) of the points, from the CSV's profile column. */
static void profiles_line(doc_t *d, const input_t *in)
{
    const int cp = col_of(in, "profile");
    if (cp < 0 || in->n_pt == 0) return;
    char line[512] = "Numerics profile: ";
    const char *seen[8];
    const int n = distinct_values(in, cp, seen, 8);
    for (int k = 0; k < n; k++) mx_snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s", k ? ", " : "", seen[k]);
    mx_snprintf(line + strlen(line), sizeof line - strlen(line), "%s (the MXINT8 rounding and scale rules: sim/doc/numerics.md).",
             n == 1 ? " at every point" : " (a numerics.profile axis)");
    doc_p(d, line);
}

/* What the TOTAL rows show: the points per bound (the largest cycle class) with the axis values
** that set them apart and their share of memory-stall cycles; then the energy shares. */

/* "a-b%" for a range of shares, "a%" when both ends print alike (not "56-56%") */
static const char *pct_range(char *buf, size_t n, double lo, double hi)
{
    char a[32], b[32];
    mx_snprintf(a, sizeof a, "%.0f", lo);
    mx_snprintf(b, sizeof b, "%.0f", hi);
    if (!strcmp(a, b)) mx_snprintf(buf, n, "%s%%", a);
    else mx_snprintf(buf, n, "%s-%s%%", a, b);
    return buf;
}
static void trends(doc_t *d, const input_t *in)
{
    const int cb = col_of(in, "bound"), cm = col_of(in, "cycles_mem_stall"), ct = col_of(in, "cycles_total"),
              ce = col_of(in, "energy_mj"), cd = col_of(in, "e_dram_mj"), cs = col_of(in, "e_sram_mj"),
              cl = col_of(in, "leakage_mj"), cf = col_of(in, "dram_floor_pct"); /* cf: -1 in older sweeps */
    if (cb < 0 || cm < 0 || ct < 0 || ce < 0 || cd < 0 || cs < 0 || cl < 0 || in->n_pt == 0) return;
    const meta_t *m = &in->m;
    char line[2048] = "Bounds (the bound column of the TOTAL rows: the largest class of cycles, not a roofline: a DRAM "
                      "transfer that overlaps the array's work counts as whatever the array does meanwhile (compute, "
                      "fill/drain, ...), only the array's waiting is memory stall):";
    const char *seen[8];
    const int nb = distinct_values(in, cb, seen, 8);
    for (int b = 0; b < nb; b++) {
        int cnt = 0;
        double lo = INFINITY, hi = -INFINITY, flo = INFINITY, fhi = -INFINITY;
        uint64_t used[MAX_AXES] = {0}; /* the axis values (first 64) among this bound's points */
        for (int i = 0; i < in->n_pt; i++) {
            const int64_t r = in->pt[i].row;
            if (strcmp(mx_csv_at(&in->c, r, cb), seen[b])) continue;
            cnt++;
            const double tot = num(in, r, ct), sh = tot > 0 ? 100.0 * num(in, r, cm) / tot : NAN;
            if (sh < lo) lo = sh;
            if (sh > hi) hi = sh;
            const double fl = cf >= 0 ? num(in, r, cf) : NAN;
            if (fl < flo) flo = fl;
            if (fl > fhi) fhi = fl;
            for (int a = 0; a < m->n_axes; a++)
                if (in->pt[i].vi[a] < 64) used[a] |= 1ull << in->pt[i].vi[a];
        }
        size_t w = strlen(line);
        mx_snprintf(line + w, sizeof line - w, "%s %s at %d point%s", b ? ";" : "", seen[b], cnt, cnt == 1 ? "" : "s");
        for (int a = 0; a < m->n_axes; a++) {
            const axis_t *ax = &m->ax[a];
            const int nv = ax->n < 64 ? ax->n : 64;
            if (used[a] == (nv == 64 ? ~0ull : (1ull << nv) - 1)) continue; /* every value: not what sets them apart */
            w = strlen(line);
            mx_snprintf(line + w, sizeof line - w, " (%s", ax->key);
            for (int v = 0, f = 1; v < nv; v++)
                if (used[a] >> v & 1) {
                    w = strlen(line);
                    mx_snprintf(line + w, sizeof line - w, "%s %s", f ? "" : ",", ax->text[v]);
                    f = 0;
                }
            w = strlen(line);
            mx_snprintf(line + w, sizeof line - w, ")");
        }
        w = strlen(line);
        char rg[64];
        mx_snprintf(line + w, sizeof line - w, ", memory stalls %s of the cycles", pct_range(rg, sizeof rg, lo, hi));
        if (flo <= fhi) { /* dram_floor_pct: what the bytes alone need, whatever class the cycles fell in */
            w = strlen(line);
            mx_snprintf(line + w, sizeof line - w, ", the DRAM traffic alone needs %s of them", pct_range(rg, sizeof rg, flo, fhi));
        }
    }
    size_t w = strlen(line);
    mx_snprintf(line + w, sizeof line - w, ". Where DRAM bandwidth is the bound, or the DRAM traffic alone "
                                        "(dram_floor_pct) needs most of the cycles whatever the bound, more bandwidth is "
                                        "what speeds a point up; where DRAM latency is, fewer requests (larger tiles) are; "
                                        "in both a larger array or more lanes add area and leakage but little speed; so they do where the bound is compute at a low "
                                        "util_compute_pct, since compute also counts the folds an op maps onto a part of "
                                        "the array and the (de)quantizers' cycles, which a larger array does not shorten.");
    doc_p(d, line);
    double r[3][2] = {{INFINITY, -INFINITY}, {INFINITY, -INFINITY}, {INFINITY, -INFINITY}};
    const int cols[3] = {cd, cs, cl};
    for (int i = 0; i < in->n_pt; i++) {
        const double e = num(in, in->pt[i].row, ce);
        for (int k = 0; k < 3 && e > 0; k++) {
            const double sh = 100.0 * num(in, in->pt[i].row, cols[k]) / e;
            if (sh < r[k][0]) r[k][0] = sh;
            if (sh > r[k][1]) r[k][1] = sh;
        }
    }
    if (!(r[0][0] <= r[0][1])) return;
    char rg[3][64];
    mx_snprintf(line, sizeof line, "Energy shares of the TOTAL over the points: DRAM %s, SRAM %s (its leakage included), "
                                "leakage of every component %s (a part of the components' energy, which grows with the "
                                "run's time and the silicon's area).",
                pct_range(rg[0], sizeof rg[0], r[0][0], r[0][1]), pct_range(rg[1], sizeof rg[1], r[1][0], r[1][1]),
                pct_range(rg[2], sizeof rg[2], r[2][0], r[2][1]));
    doc_p(d, line);
}

static void document(mxsim_ctx *ctx, const input_t *in, mx_report_out *o, const int *front, int n_front)
{
    doc_t d = {&o->file[MX_REPORT_FILES - 2].buf, &o->file[MX_REPORT_FILES - 1].buf};
    const meta_t *m = &in->m;
    char line[2048];
    mx_buf_puts(d.md, "# mxsim sweep report\n\n");
    mx_buf_puts(d.html, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>mxsim sweep report</title>\n"
                        "<style>body{font-family:Helvetica,Arial,sans-serif;max-width:1100px;margin:2em auto;color:#222}"
                        "table{border-collapse:collapse;font-size:12px;margin:1em 0}td,th{border:1px solid #ccc;"
                        "padding:2px 6px;text-align:right}th{background:#f0f0f0}figure{margin:1.5em 0}"
                        "figcaption{font-size:13px;color:#444;max-width:760px}svg{max-width:100%;height:auto}"
                        ".tw{overflow-x:auto}"
                        "</style></head><body>\n<h1>mxsim sweep report</h1>\n");
    mx_snprintf(line, sizeof line, "Sweep of %s (%lld ops) on %s, by mxsim %s; report by mxsim %s. %lld design points: %d ok, "
                                "%d failed. Inputs: %s and %s.", m->trace, (long long)m->n_ops,
             m->config ? m->config : "the built-in configuration", m->mxsim_version, mxsim_version(),
             (long long)m->points, in->n_pt, in->n_failed, in->path, m->path);
    doc_p(&d, line);
    profiles_line(&d, in);

    doc_h(&d, 2, "Axes");
    const char *ah[4] = {"key", "type", "unit", "values"};
    doc_head(&d, ah, 4);
    for (int a = 0; a < m->n_axes; a++) {
        size_t k = 0;
        line[0] = '\0';
        for (int q = 0; q < m->ax[a].n && k < sizeof line - 8; q++)
            k += (size_t)mx_snprintf(line + k, sizeof line - k, "%s%s", q ? ", " : "", m->ax[a].text[q]);
        const char *cells[4] = {m->ax[a].key, m->ax[a].type, m->ax[a].unit, line};
        for (int c = 0; c < 4; c++) doc_cell(&d, cells[c], c == 0, c == 3);
    }
    doc_end_table(&d);
    if (in->xa >= 0) mx_snprintf(line, sizeof line, "Line charts plot against %s (the axis mx.group_size when swept, else the "
                                                "first int axis, else the first real axis).", m->ax[in->xa].key);
    else mx_snprintf(line, sizeof line, "No numeric axis: line charts plot against the design point.");
    doc_p(&d, line);

    doc_h(&d, 2, "Totals per design point");
    static const char *const tot_cols[] = {"cycles_total", "time_us", "util_compute_pct", "area_mm2", "energy_mj",
                                           "energy_mj_low", "energy_mj_high", "pj_per_mac", "tops_per_w",
                                           "tops_per_mm2", "sqnr_db", "max_rel_err", "ops_other_group", "group_note"};
    int64_t *rows = malloc((size_t)(in->c.n_rows ? in->c.n_rows : 1) * sizeof *rows);
    if (!rows) {
        d.md->oom = 1;
        return;
    }
    for (int i = 0; i < in->n_pt; i++) rows[i] = in->pt[i].row;
    rows_table(&d, in, rows, in->n_pt, tot_cols, (int)(sizeof tot_cols / sizeof tot_cols[0]), 1);
    doc_p(&d, "Units are in the column names: time in us, utilisation in % of multiplier slots, area in mm2, energy in "
              "mJ (with the low/high band of the sources), pJ per MAC, TOPS/W and TOPS/mm2 at the configured clock, "
              "SQNR in dB and max relative error against float64. pJ/MAC and TOPS/W count useful MACs (the zero "
              "padding of K to whole groups costs energy but is not work; a quantize or dequantize op has no MAC, so its "
              "pJ/MAC and TOPS/W are nan while its energy counts in the total); the _low/_high columns are computed with the "
              "low/high energy constants, so tops_per_w_low is the higher TOPS/W.");
    trends(&d, in);
    doc_p(&d, "Reading the trends: each op's tiles are chosen by the tile.objective of the configuration (see "
              "Configuration below): 'cycles' minimises time and may re-read an operand from DRAM for every tile; "
              "'energy' minimises energy (--set tile.objective=energy). An op whose K (or n) a group size does not divide "
              "is padded with zeros to whole groups (the group_note column names it): it issues more MACs, and its SQNR "
              "is that of the G its K fills. "
              "SQNR is measured on synthetic data with outliers unless --data gave tensors (sim/doc/sweeps.md); the "
              "TOTAL SQNR is the mean noise-to-signal ratio over the ops, in dB, and max_rel_err, a maximum over outputs, is "
              "driven by the outputs nearest zero.");
    if (m->accuracy >= 0) {
        /* one draw of data: its digits are not all significant */
        int ks = mx_json_get(&m->j, m->accuracy, "seed"), kd = mx_json_get(&m->j, m->accuracy, "data");
        if (ks >= 0 && kd >= 0 && m->j.node[ks].type == MX_JSON_NUM && m->j.node[kd].type == MX_JSON_STR &&
            !strcmp(m->j.node[kd].str, "synthetic")) {
            mx_snprintf(line, sizeof line, "The SQNR figures come from one draw of synthetic data (seed %.0f, sampled outputs: "
                                        "the accuracy table under Configuration): another seed moves them, so their last "
                                        "digits are not significant (run two seeds, --seed, to see by how much; --data "
                                        "measures your own tensors).", m->j.node[ks].num);
            doc_p(&d, line);
        }
    }

    doc_h(&d, 2, "Charts");
    doc_p(&d, "Each chart is also a standalone SVG with the CSV of the values it plots.");
    for (int k = 0; k < MX_REPORT_CHARTS; k++) {
        const char *svg = k_file[2 * k], *csv = k_file[2 * k + 1];
        mx_buf_printf(d.md, "![%s](%s)\n\n%s Data: [%s](%s).\n\n", k_chart[k], svg, k_chart_caption[k], csv, csv);
        mx_buf_puts(d.html, "<figure>\n");
        const mx_buf *b = &o->file[2 * k].buf;
        mx_buf_put(d.html, b->p ? b->p : "", b->n);
        mx_buf_printf(d.html, "<figcaption>%s Files: <a href=\"%s\">%s</a>, <a href=\"%s\">%s</a>.</figcaption>\n</figure>\n",
                      k_chart_caption[k], svg, svg, csv, csv);
    }

    doc_h(&d, 2, "Points on the Pareto front (time, energy)");
    for (int i = 0; i < n_front; i++) rows[i] = in->pt[front[i]].row;
    static const char *const front_cols[] = {"time_us", "cycles_total", "energy_mj", "sqnr_db", "area_mm2"};
    rows_table(&d, in, rows, n_front, front_cols, 5, 1);

    /* The same when accuracy counts too: a design that saves cycles or energy by giving up SQNR is
    ** not "better" to a user who needs the accuracy (the front above is a subset of this one). */
    {
        int n3 = 0;
        if (pareto_front_sqnr(in, rows, &n3) < 0) d.md->oom = 1; /* reported as out of memory, nothing written */
        if (n3 > 0) {
            doc_h(&d, 2, "Points on the Pareto front with accuracy (time, energy, SQNR)");
            doc_p(&d, "A point is listed when no other point has at most its time and energy and at least its "
                      "SQNR, and is better in one of the three. These are the front above plus the points that only "
                      "points of lower SQNR beat there: what each step of accuracy costs in time and energy.");
            rows_table(&d, in, rows, n3, front_cols, 5, 1);
        }
    }

    /* per-op table of the point with the smallest energy-delay product */
    int best = -1;
    double best_edp = INFINITY;
    int ct = col_of(in, "time_us"), ce = col_of(in, "energy_mj");
    for (int i = 0; i < in->n_pt; i++) {
        double edp = num(in, in->pt[i].row, ct) * num(in, in->pt[i].row, ce);
        if (edp < best_edp) best_edp = edp, best = i;
    }
    const char *best_id = best >= 0 ? mx_csv_at(&in->c, in->pt[best].row, in->col_point) : "";
    if (best >= 0) {
        char lab[256];
        point_label(in, &in->pt[best], lab, sizeof lab);
        mx_snprintf(line, sizeof line, "Per-op results of the point with the smallest energy-delay product (%s, point %s)",
                 lab, best_id);
        doc_h(&d, 2, line);
        int nr = 0;
        for (int64_t r = 1; r < in->c.n_rows; r++)
            if (!strcmp(mx_csv_at(&in->c, r, in->col_point), best_id)) rows[nr++] = r;
        static const char *const op_cols[] = {"op", "kind", "m", "n", "k", "repeat", "group_eff", "cycles_total",
                                              "time_us", "util_compute_pct", "energy_mj", "pj_per_mac", "tops_per_w",
                                              "sqnr_db", "max_rel_err", "acc_rows", "acc_cols", "acc_from_file",
                                              "group_note"};
        rows_table(&d, in, rows, nr, op_cols, (int)(sizeof op_cols / sizeof op_cols[0]), 0);
        doc_p(&d, "acc_rows x acc_cols: the outputs on which accuracy was measured (sampled when smaller than m x n); "
                 "on TOTAL rows each is summed over the ops, so their product is not a count of outputs.");
    }

    /* accuracy per op against the x axis, the other axes at the first point's values */
    if (in->xa >= 0 && in->n_pt > 0) {
        const axis_t *ax = &m->ax[in->xa];
        mx_snprintf(line, sizeof line, "Accuracy per op (SQNR, dB) against %s", ax->key);
        doc_h(&d, 2, line);
        const point_t *first = &in->pt[0];
        int sel[64], ns = 0, more = 0;
        for (int i = 0; i < in->n_pt; i++) {
            int same = 1;
            for (int a = 0; a < m->n_axes; a++)
                if (a != in->xa && in->pt[i].vi[a] != first->vi[a]) same = 0;
            if (same && ns < 64) sel[ns++] = i;
            else if (same) more++;
        }
        const char *names[65];
        char hn[64][48];
        names[0] = "op";
        for (int g = 0; g < ns; g++) {
            mx_snprintf(hn[g], sizeof hn[g], "%s=%s", ax->key, ax->text[in->pt[sel[g]].vi[in->xa]]);
            names[g + 1] = hn[g];
        }
        doc_head(&d, names, ns + 1);
        int csq = col_of(in, "sqnr_db");
        const char *fid = mx_csv_at(&in->c, first->row, in->col_point);
        /* an op of the first point and of point g: the one at the same place among the point's rows
        ** (ops repeat the trace's order in every point; names may repeat) */
        for (int64_t r = 1, pos = 0; r < in->c.n_rows; r++) {
            if (strcmp(mx_csv_at(&in->c, r, in->col_point), fid)) continue;
            const char *op = mx_csv_at(&in->c, r, in->col_op);
            const int64_t at = pos++;
            doc_cell(&d, op, 1, ns == 0);
            for (int g = 0; g < ns; g++) {
                const char *v = "-", *gid = mx_csv_at(&in->c, in->pt[sel[g]].row, in->col_point);
                for (int64_t q = 1, k = 0; q < in->c.n_rows; q++)
                    if (!strcmp(mx_csv_at(&in->c, q, in->col_point), gid) && k++ == at) {
                        if (!strcmp(mx_csv_at(&in->c, q, in->col_op), op)) v = mx_csv_at(&in->c, q, csq);
                        break;
                    }
                char buf[48];
                doc_cell(&d, human(in, "sqnr_db", v, buf, sizeof buf), 0, g == ns - 1);
            }
        }
        doc_end_table(&d);
        doc_p(&d, "Other axes at the first point's values; accuracy depends only on the op, group size, profile and "
                  "accumulator.");
        if (more) {
            mx_snprintf(line, sizeof line, "%d further values of %s are in the CSV, not in this table.", more, ax->key);
            doc_p(&d, line);
        }
    }
    free(rows);

    doc_h(&d, 2, "Area and energy constants (sources)");
    constants(&d, ctx, m);
    doc_p(&d, "Energy = sum over events of count x energy/event (event counts from the timing engine) + leakage power "
              "x time. Sources: HOR14 Horowitz ISSCC'14; ALADDIN40 Shao et al. ISCA'14 via Accelergy; CACTI7-ACCELERGY "
              "Balasubramonian et al. TACO'17 (Accelergy CACTI plug-in output); ACC-CACTI-DRAM the DRAM pJ/bit "
              "table of Accelergy's CACTI wrapper (nominal LPDDR4 8 pJ/bit: 'public data' there, no primary source; "
              "low HBM2 3.9 pJ/bit: O'Connor, Chatterjee et al. MICRO'17); SB17 Stillmaker & Baas, Integration 2017. Full citations: sim/doc/energy-area.md.");
    {
        /* what the figures leave out, so that TOPS/mm2 and TOPS/W are not read as a chip's */
        const int ko = m->cost >= 0 ? mx_json_get(&m->j, m->cost, "overhead_factor") : -1;
        const double ov = ko >= 0 && m->j.node[ko].type == MX_JSON_NUM ? m->j.node[ko].num : NAN;
        mx_snprintf(line, sizeof line,
                    "Scope: area and energy are the array's, its SRAMs', its (de)quantizers' and the DRAM traffic's; "
                    "wiring, control, clock tree and I/O enter only through overhead_factor (%g here%s), so TOPS/mm2 and "
                    "TOPS/W are those of the datapath, above a whole chip's. The model has no maximum clock per node: "
                    "any clock.mhz is timed, and a faster clock shortens the time and the leakage energy alike, so a "
                    "clock axis favours its fastest value; check that the clock is reachable at the node.",
                    ov, ov == 1 ? ": left out" : "");
        doc_p(&d, line);
    }

    doc_h(&d, 2, "Configuration");
    object_table(&d, &m->j, m->base, "base configuration");
    doc_p(&d, "Each design point is this configuration with the swept axes' keys replaced by the point's values (the Axes "
              "table). dram.pj_per_bit = 0 means the cost model's cited DRAM constant (dram.energy_per_bit in the constants "
              "table); a value above 0 replaces it in every band.");
    object_table(&d, &m->j, m->cost, "cost model");
    if (m->accuracy >= 0) object_table(&d, &m->j, m->accuracy, "accuracy");
    mx_snprintf(line, sizeof line, "Group policy: %s", m->group_policy);
    doc_p(&d, line);
    mx_buf_puts(d.html, "</body></html>\n");
}

/* ---- entry points ------------------------------------------------------------------------------ */

void mx_report_out_free(mx_report_out *o)
{
    for (int i = 0; i < MX_REPORT_FILES; i++) mx_buf_free(&o->file[i].buf);
    for (int k = 0; k < MX_REPORT_CHARTS; k++) mx_chart_layout_free(&o->layout[k]);
}

/* NAME.csv -> NAME.meta.json (malloc'd). */
static char *meta_path_of(const char *csv)
{
    size_t L = strlen(csv), base = L >= 4 && !strcmp(csv + L - 4, ".csv") ? L - 4 : L;
    char *p = malloc(base + 11);
    if (p) {
        memcpy(p, csv, base);
        memcpy(p + base, ".meta.json", 11);
    }
    return p;
}

mxsim_status mx_report_render(mxsim_ctx *ctx, const char *csv_path, const char *meta_path, mx_report_out *out)
{
    memset(out, 0, sizeof *out);
    for (int i = 0; i < MX_REPORT_FILES; i++) out->file[i].name = k_file[i];
    if (!csv_path || !csv_path[0]) return mx_fail(ctx, MXSIM_E_ARG, "report: no results CSV given");
    char *derived = meta_path ? NULL : meta_path_of(csv_path);
    if (!meta_path && !derived) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", csv_path);
    input_t in;
    mxsim_status st = read_input(ctx, csv_path, meta_path ? meta_path : derived, &in);
    if (st != MXSIM_OK) {
        input_free(&in);
        free(derived);
        return st;
    }
    out->n_ok = in.n_pt;
    out->n_failed = in.n_failed;
    lines_t l;
    char (*xlab)[24] = malloc((size_t)(in.n_pt ? in.n_pt : 1) * sizeof *xlab);
    int *front = NULL, n_front = 0;
    if (!xlab || lines_build(&in, &l) != 0) {
        free(xlab);
        input_free(&in);
        free(derived);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", csv_path);
    }
    for (int i = 0; i < in.n_pt; i++) mx_snprintf(xlab[i], sizeof xlab[i], "%lld", (long long)in.pt[i].id);
    chart_lines(&in, &l, out, 0, "Cycles for the whole trace", "cycles (whole trace)", "cycles_total",
                col_of(&in, "cycles_total"), -1, -1, NULL, 0, xlab);
    chart_lines(&in, &l, out, 1, "Energy for the whole trace", "energy (mJ)", "energy_mj", col_of(&in, "energy_mj"),
                col_of(&in, "energy_mj_low"), col_of(&in, "energy_mj_high"),
                "Error bars: low-high band of the cost sources; series offset sideways for legibility.", 1, xlab);
    char note[256] = "";
    if (series_coincide(&in, &l, col_of(&in, "sqnr_db"))) {
        char keys[160];
        axis_keys(&in, in.xa, ", ", keys, sizeof keys);
        mx_snprintf(note, sizeof note, "All %d lines coincide: SQNR does not depend on %s.", l.n_series, keys);
    }
    chart_lines(&in, &l, out, 2, "Accuracy: SQNR against float64", "SQNR (dB)", "sqnr_db", col_of(&in, "sqnr_db"), -1, -1,
                note[0] ? note : NULL, 0, xlab);
    chart_pareto(&in, out, 3, &front, &n_front);
    /* the bound-attribution classes (they sum to cycles_total); a sweep written before they
    ** existed has memory stall as one class */
    static const char *const cyc_cols[7] = {"cycles_compute", "cycles_fill_drain", "cycles_exp_stall", "cycles_lane_limit",
                                            "cycles_dram_bw", "cycles_dram_latency", "cycles_mem_stall"};
    static const char *const cyc_names[7] = {"compute", "fill/drain", "exponent stall", "lane limit", "DRAM bandwidth",
                                             "DRAM latency", "memory stall"};
    static const char *const old_names[4] = {"compute", "fill/drain", "exponent stall", "memory stall"};
    int cols[CSV_MAX_COLS];
    for (int j = 0; j < 7; j++) cols[j] = col_of(&in, cyc_cols[j]);
    if (cols[3] >= 0 && cols[4] >= 0 && cols[5] >= 0) {
        chart_bars(&in, out, 4, "Cycle breakdown per design point", "cycles (whole trace)", "cycles", cols, cyc_names, 6);
    } else {
        cols[3] = cols[6];
        chart_bars(&in, out, 4, "Cycle breakdown per design point", "cycles (whole trace)", "cycles", cols, old_names, 4);
    }
    for (int pass = 0; pass < 2; pass++) { /* e_<component>_mj, a_<component>_mm2 */
        const char *pre = pass ? "a_" : "e_", *suf = pass ? "_mm2" : "_mj";
        int n = 0;
        char(*names)[64] = malloc((size_t)in.c.n_cols * sizeof *names);
        const char **np = malloc((size_t)in.c.n_cols * sizeof *np);
        if (!names || !np) {
            out->file[0].buf.oom = 1;
        } else {
            for (int c = 0; c < in.c.n_cols; c++) {
                const char *h = mx_csv_at(&in.c, 0, c);
                if (!has_affix(h, pre, suf)) continue;
                size_t L = strlen(h) - strlen(pre) - strlen(suf);
                mx_snprintf(names[n], sizeof names[n], "%.*s", (int)L, h + strlen(pre));
                for (char *q = names[n]; *q; q++)
                    if (*q == '_') *q = ' ';
                np[n] = names[n];
                cols[n++] = c;
            }
            if (pass) chart_bars(&in, out, 6, "Area breakdown per design point", "area (mm\u00b2)", "area_mm2", cols, np, n);
            else chart_bars(&in, out, 5, "Energy breakdown per design point (nominal)", "energy (mJ)", "energy_mj", cols, np, n);
        }
        free(names);
        free(np);
    }
    document(ctx, &in, out, front, n_front);
    free(front);
    free(xlab);
    lines_free(&l);
    input_free(&in);
    free(derived);
    for (int i = 0; i < MX_REPORT_FILES; i++)
        if (out->file[i].buf.oom || (i < MX_REPORT_CHARTS && out->layout[i].oom)) {
            mx_report_out_free(out);
            return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory building the report", csv_path);
        }
    return MXSIM_OK;
}

/* mkdir -p; the directories it made are appended to made[] (at most max) so a failure can
** remove them again. */
static mxsim_status make_dirs(mxsim_ctx *ctx, const char *dir, char **made, int max, int *n_made)
{
    size_t L = strlen(dir);
    char *tmp = malloc(L + 1);
    if (!tmp) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", dir);
    memcpy(tmp, dir, L + 1);
    mxsim_status st = MXSIM_OK;
    for (size_t i = 1; i <= L && st == MXSIM_OK; i++) {
        if (tmp[i] != '/' && tmp[i] != '\0') continue;
        char save = tmp[i];
        tmp[i] = '\0';
        if (mkdir(tmp, 0777) == 0) {
            if (*n_made < max && (made[*n_made] = strdup(tmp)) != NULL) (*n_made)++;
        } else if (errno != EEXIST) {
            st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot create the directory: %s", tmp, strerror(errno));
        } else {
            struct stat sb;
            if (stat(tmp, &sb) != 0 || !S_ISDIR(sb.st_mode))
                st = mx_fail(ctx, MXSIM_E_IO, "%s: exists and is not a directory", tmp);
        }
        tmp[i] = save;
    }
    free(tmp);
    return st;
}

mxsim_status mxsim_report_build(mxsim_ctx *ctx, const char *csv_path, const char *out_dir, const mxsim_report_opts *opts)
{
    if (!out_dir || !out_dir[0]) return mx_fail(ctx, MXSIM_E_ARG, "report: no output directory given");
    mx_report_out o;
    mxsim_status st = mx_report_render(ctx, csv_path, opts ? opts->meta_path : NULL, &o);
    if (st != MXSIM_OK) return st;
    char *made[64];
    int n_made = 0;
    char *paths[MX_REPORT_FILES] = {0};
    mx_file_part parts[MX_REPORT_FILES];
    mx_file_set set[MX_REPORT_FILES];
    st = make_dirs(ctx, out_dir, made, 64, &n_made);
    for (int i = 0; i < MX_REPORT_FILES && st == MXSIM_OK; i++) {
        size_t L = strlen(out_dir) + strlen(k_file[i]) + 2;
        if (!(paths[i] = malloc(L))) st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", out_dir);
        else mx_snprintf(paths[i], L, "%s/%s", out_dir, k_file[i]);
        parts[i] = (mx_file_part){o.file[i].buf.p ? o.file[i].buf.p : "", o.file[i].buf.n};
        set[i] = (mx_file_set){paths[i], &parts[i], 1};
    }
    if (st == MXSIM_OK) st = mx_file_write_set(ctx, set, MX_REPORT_FILES);
    if (st != MXSIM_OK) /* leave nothing of this call behind: the directories it made, newest first */
        for (int i = n_made - 1; i >= 0; i--) rmdir(made[i]);
    for (int i = 0; i < n_made; i++) free(made[i]);
    for (int i = 0; i < MX_REPORT_FILES; i++) free(paths[i]);
    mx_report_out_free(&o);
    return st;
}

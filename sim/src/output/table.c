/* table.c - the one tabular writer: text table, CSV, JSON and Markdown from one table
** (mxsim.h, "Output").  Commands build a table of typed cells; this module alone decides how a
** cell is spelled and escaped in each format. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/textbuf.h"

typedef struct {
    char *name, *unit, *doc;
    mxsim_cell_type type;
    int flags, decimals;
} col_t;

typedef struct {
    char *text; /* TEXT cells (NULL: empty) */
    int64_t i;
    double r;
    int null;   /* no value: empty in text forms, null in JSON */
} cell_t;

typedef struct {
    char *key, *value;
    int is_number; /* 1: a number; 2: a JSON value the library wrote (mx_table_set_meta_json) */
} meta_t;

struct mxsim_table {
    col_t *cols;
    int n_cols, cap_cols;
    cell_t *cells; /* rows x n_cols */
    int64_t n_rows, cap_rows;
    meta_t *meta;
    int n_meta, cap_meta;
};

static const char *const k_format_names[MXSIM_OUTPUT_COUNT_] = {"table", "csv", "json", "md"};

const char *mxsim_output_format_name(mxsim_output_format f)
{
    return (unsigned)f < MXSIM_OUTPUT_COUNT_ ? k_format_names[f] : NULL;
}

mxsim_status mxsim_output_format_parse(mxsim_ctx *ctx, const char *name, mxsim_output_format *out)
{
    mx_clear_err(ctx);
    for (int i = 0; name && i < MXSIM_OUTPUT_COUNT_; i++)
        if (strcmp(name, k_format_names[i]) == 0) {
            *out = (mxsim_output_format)i;
            return MXSIM_OK;
        }
    return mx_fail(ctx, MXSIM_E_ARG, "output format '%s': expected table, csv, json or md",
                   name ? name : "(null)");
}

mxsim_status mxsim_output_format_choose(mxsim_ctx *ctx, const char *format, const char *path,
                                        mxsim_output_format *out)
{
    mx_clear_err(ctx);
    if (format) return mxsim_output_format_parse(ctx, format, out);
    *out = MXSIM_OUTPUT_TABLE;
    if (path == NULL) return MXSIM_OK;
    static const struct {
        const char *ext;
        mxsim_output_format f;
    } k_ext[] = {{".csv", MXSIM_OUTPUT_CSV}, {".json", MXSIM_OUTPUT_JSON}, {".md", MXSIM_OUTPUT_MD},
                 {".txt", MXSIM_OUTPUT_TABLE}};
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    for (size_t i = 0; dot && i < sizeof k_ext / sizeof k_ext[0]; i++)
        if (strcmp(dot, k_ext[i].ext) == 0) {
            *out = k_ext[i].f;
            return MXSIM_OK;
        }
    return mx_fail(ctx, MXSIM_E_ARG,
                   "output '%s': cannot tell the format from the extension (known: .csv, .json, "
                   ".md, .txt); name the output format explicitly",
                   path);
}

static char *dup_or_null(const char *s)
{
    if (s == NULL) return NULL;
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, s, n);
    return p;
}

mxsim_status mxsim_table_create(mxsim_ctx *ctx, mxsim_table **out)
{
    mx_clear_err(ctx);
    *out = calloc(1, sizeof **out);
    return *out ? MXSIM_OK : mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
}

void mxsim_table_free(mxsim_table *t)
{
    if (t == NULL) return;
    for (int64_t i = 0; i < t->n_rows * t->n_cols; i++) free(t->cells[i].text);
    for (int c = 0; c < t->n_cols; c++) {
        free(t->cols[c].name);
        free(t->cols[c].unit);
        free(t->cols[c].doc);
    }
    for (int m = 0; m < t->n_meta; m++) {
        free(t->meta[m].key);
        free(t->meta[m].value);
    }
    free(t->cols);
    free(t->cells);
    free(t->meta);
    free(t);
}

static int find_col(const mxsim_table *t, const char *name)
{
    for (int c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c].name, name) == 0) return c;
    return -1;
}

mxsim_status mxsim_table_add_column(mxsim_ctx *ctx, mxsim_table *t, const char *name,
                                    mxsim_cell_type type, const char *unit, const char *doc,
                                    int flags, int decimals)
{
    mx_clear_err(ctx);
    if (t == NULL || name == NULL || name[0] == '\0')
        return mx_fail(ctx, MXSIM_E_ARG, "table column: empty name");
    if ((unsigned)type > MXSIM_CELL_REAL)
        return mx_fail(ctx, MXSIM_E_ARG, "table column '%s': bad cell type %d", name, (int)type);
    if (t->n_rows > 0)
        return mx_fail(ctx, MXSIM_E_ARG, "table column '%s': added after the first row", name);
    if (find_col(t, name) >= 0)
        return mx_fail(ctx, MXSIM_E_ARG, "table column '%s': duplicate name", name);
    if (decimals < -17 || decimals > 17)
        return mx_fail(ctx, MXSIM_E_ARG, "table column '%s': decimals %d not in -17..17", name, decimals);
    if (t->n_cols == t->cap_cols) {
        int nc = t->cap_cols ? 2 * t->cap_cols : 16;
        col_t *np = realloc(t->cols, (size_t)nc * sizeof *np);
        if (np == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
        t->cols = np;
        t->cap_cols = nc;
    }
    col_t c = {dup_or_null(name), dup_or_null(unit ? unit : ""), dup_or_null(doc ? doc : ""), type,
               flags, decimals};
    if (!c.name || !c.unit || !c.doc) {
        free(c.name);
        free(c.unit);
        free(c.doc);
        return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
    }
    t->cols[t->n_cols++] = c;
    return MXSIM_OK;
}

mxsim_status mxsim_table_set_meta(mxsim_ctx *ctx, mxsim_table *t, const char *key,
                                  const char *value, int is_number)
{
    mx_clear_err(ctx);
    if (t == NULL || key == NULL || key[0] == '\0' || value == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "table metadata: empty key or value");
    if (is_number) {
        char *end = NULL;
        double v = mx_strtod(value, &end);
        if (end == value || *end != '\0' || !isfinite(v))
            return mx_fail(ctx, MXSIM_E_ARG, "table metadata '%s': '%s' is not a finite number",
                           key, value);
    }
    for (int m = 0; m < t->n_meta; m++)
        if (strcmp(t->meta[m].key, key) == 0) {
            char *v = dup_or_null(value);
            if (v == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
            free(t->meta[m].value);
            t->meta[m].value = v;
            t->meta[m].is_number = is_number;
            return MXSIM_OK;
        }
    if (t->n_meta == t->cap_meta) {
        int nc = t->cap_meta ? 2 * t->cap_meta : 16;
        meta_t *np = realloc(t->meta, (size_t)nc * sizeof *np);
        if (np == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
        t->meta = np;
        t->cap_meta = nc;
    }
    meta_t m = {dup_or_null(key), dup_or_null(value), is_number};
    if (!m.key || !m.value) {
        free(m.key);
        free(m.value);
        return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
    }
    t->meta[t->n_meta++] = m;
    return MXSIM_OK;
}

mxsim_status mx_table_set_meta_json(mxsim_ctx *ctx, mxsim_table *t, const char *key, const char *json)
{
    mxsim_status st = mxsim_table_set_meta(ctx, t, key, json, 0);
    for (int m = 0; st == MXSIM_OK && m < t->n_meta; m++)
        if (strcmp(t->meta[m].key, key) == 0) t->meta[m].is_number = 2;
    return st;
}

mxsim_status mxsim_table_add_row(mxsim_ctx *ctx, mxsim_table *t, int64_t *row)
{
    mx_clear_err(ctx);
    if (t == NULL || t->n_cols == 0) return mx_fail(ctx, MXSIM_E_ARG, "table row: no columns");
    if (t->n_rows == t->cap_rows) {
        int64_t nr = t->cap_rows ? 2 * t->cap_rows : 16;
        cell_t *np = mx_malloc((size_t)nr * (size_t)t->n_cols, sizeof *np);
        if (np == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
        if (t->cells) memcpy(np, t->cells, (size_t)(t->n_rows * t->n_cols) * sizeof *np);
        free(t->cells);
        t->cells = np;
        t->cap_rows = nr;
    }
    cell_t *r = t->cells + t->n_rows * t->n_cols;
    for (int c = 0; c < t->n_cols; c++) r[c] = (cell_t){NULL, 0, NAN, 0};
    if (row) *row = t->n_rows;
    t->n_rows++;
    return MXSIM_OK;
}

static mxsim_status cell_at(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const char *col,
                            mxsim_cell_type want, cell_t **out)
{
    mx_clear_err(ctx);
    if (t == NULL || col == NULL) return mx_fail(ctx, MXSIM_E_ARG, "table cell: no table or column");
    int c = find_col(t, col);
    if (c < 0) return mx_fail(ctx, MXSIM_E_ARG, "table cell: no column '%s'", col);
    if (row < 0 || row >= t->n_rows)
        return mx_fail(ctx, MXSIM_E_ARG, "table cell '%s': row %lld out of range", col, (long long)row);
    if (t->cols[c].type != want)
        return mx_fail(ctx, MXSIM_E_ARG, "table cell '%s': wrong cell type", col);
    *out = t->cells + row * t->n_cols + c;
    return MXSIM_OK;
}

mxsim_status mxsim_table_set_text(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const char *col,
                                  const char *text)
{
    cell_t *cl;
    mxsim_status st = cell_at(ctx, t, row, col, MXSIM_CELL_TEXT, &cl);
    if (st != MXSIM_OK) return st;
    char *v = dup_or_null(text ? text : "");
    if (v == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
    free(cl->text);
    cl->text = v;
    cl->null = 0;
    return MXSIM_OK;
}

mxsim_status mxsim_table_set_int(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const char *col,
                                 int64_t v)
{
    cell_t *cl;
    mxsim_status st = cell_at(ctx, t, row, col, MXSIM_CELL_INT, &cl);
    if (st == MXSIM_OK) cl->i = v, cl->null = 0;
    return st;
}

mxsim_status mxsim_table_set_real(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const char *col,
                                  double v)
{
    cell_t *cl;
    mxsim_status st = cell_at(ctx, t, row, col, MXSIM_CELL_REAL, &cl);
    if (st == MXSIM_OK) cl->r = v, cl->null = 0;
    return st;
}

mxsim_status mxsim_table_set_null(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const char *col)
{
    int c = t ? find_col(t, col ? col : "") : -1;
    cell_t *cl;
    mxsim_status st = cell_at(ctx, t, row, col, c >= 0 ? t->cols[c].type : MXSIM_CELL_TEXT, &cl);
    if (st != MXSIM_OK) return st;
    free(cl->text);
    cl->text = NULL;
    cl->null = 1;
    return MXSIM_OK;
}

mxsim_status mxsim_table_column_info(const mxsim_table *t, int col, mxsim_cell_type *type,
                                     const char **unit, const char **doc)
{
    if (t == NULL || col < 0 || col >= t->n_cols) return MXSIM_E_ARG;
    if (type) *type = t->cols[col].type;
    if (unit) *unit = t->cols[col].unit;
    if (doc) *doc = t->cols[col].doc;
    return MXSIM_OK;
}

int mxsim_table_column_count(const mxsim_table *t) { return t ? t->n_cols : 0; }
int64_t mxsim_table_row_count(const mxsim_table *t) { return t ? t->n_rows : 0; }
const char *mxsim_table_column_name(const mxsim_table *t, int col)
{
    return t && col >= 0 && col < t->n_cols ? t->cols[col].name : NULL;
}

/* The spelling of a cell in text, CSV and Markdown. */
static const char *cell_text(const col_t *c, const cell_t *v, char *buf, size_t len)
{
    if (v->null) return "";
    switch (c->type) {
    case MXSIM_CELL_TEXT: return v->text ? v->text : "";
    case MXSIM_CELL_INT: mx_snprintf(buf, len, "%lld", (long long)v->i); return buf;
    default:
        if (c->decimals == -1 || !isfinite(v->r)) return mx_fmt_real(v->r, buf, len);
        if (c->decimals < -1) mx_snprintf(buf, len, "%.*g", -c->decimals, v->r); /* significant digits */
        else mx_snprintf(buf, len, "%.*f", c->decimals, v->r);
        return buf;
    }
}

/* CSV's spelling: every real exact (shortest round-trip), as in JSON: a column's decimals are for
** people (table, Markdown); a script reading the CSV got tops to 4 decimals (1.3% off at 0.0038) */
static const char *cell_text_csv(const col_t *c, const cell_t *v, char *buf, size_t len)
{
    if (!v->null && c->type == MXSIM_CELL_REAL) return mx_fmt_real(v->r, buf, len);
    return cell_text(c, v, buf, len);
}

/* The terminal table's spelling: an exact real to 10 significant digits (0.288768, not the
** round-trip 0.28876799999999997 of binary arithmetic); CSV and JSON keep every digit. */
static const char *cell_text_tty(const col_t *c, const cell_t *v, char *buf, size_t len)
{
    if (!v->null && c->type == MXSIM_CELL_REAL && c->decimals == -1 && isfinite(v->r)) {
        mx_snprintf(buf, len, "%.10g", v->r);
        return buf;
    }
    return cell_text(c, v, buf, len);
}

static int shown(const mxsim_table *t, int c, int any_brief)
{
    return !any_brief || (t->cols[c].flags & MXSIM_COL_BRIEF);
}

static void render_csv(const mxsim_table *t, mx_buf *b)
{
    char tmp[64];
    for (int c = 0; c < t->n_cols; c++) {
        if (c) mx_buf_put(b, ",", 1);
        mx_buf_csv_field(b, t->cols[c].name);
    }
    mx_buf_put(b, "\n", 1);
    for (int64_t r = 0; r < t->n_rows; r++) {
        for (int c = 0; c < t->n_cols; c++) {
            if (c) mx_buf_put(b, ",", 1);
            mx_buf_csv_field(b, cell_text_csv(&t->cols[c], &t->cells[r * t->n_cols + c], tmp, sizeof tmp));
        }
        mx_buf_put(b, "\n", 1);
    }
}

static void render_json(const mxsim_table *t, mx_buf *b)
{
    mx_buf_puts(b, "{\n  \"meta\": {");
    for (int m = 0; m < t->n_meta; m++) {
        mx_buf_puts(b, m ? ",\n    " : "\n    ");
        mx_buf_json_str(b, t->meta[m].key);
        mx_buf_puts(b, ": ");
        if (t->meta[m].is_number == 2) mx_buf_puts(b, t->meta[m].value); /* the library's own JSON */
        else if (t->meta[m].is_number) mx_buf_json_real(b, mx_strtod(t->meta[m].value, NULL));
        else mx_buf_json_str(b, t->meta[m].value);
    }
    mx_buf_puts(b, t->n_meta ? "\n  },\n  \"columns\": [" : "},\n  \"columns\": [");
    static const char *const k_types[] = {"text", "int", "real"};
    for (int c = 0; c < t->n_cols; c++) {
        mx_buf_puts(b, c ? ",\n    {\"name\": " : "\n    {\"name\": ");
        mx_buf_json_str(b, t->cols[c].name);
        mx_buf_printf(b, ", \"type\": \"%s\", \"unit\": ", k_types[t->cols[c].type]);
        mx_buf_json_str(b, t->cols[c].unit);
        mx_buf_puts(b, ", \"doc\": ");
        mx_buf_json_str(b, t->cols[c].doc);
        mx_buf_puts(b, "}");
    }
    mx_buf_puts(b, "\n  ],\n  \"rows\": [");
    for (int64_t r = 0; r < t->n_rows; r++) {
        mx_buf_puts(b, r ? ",\n    {" : "\n    {");
        for (int c = 0; c < t->n_cols; c++) {
            const cell_t *v = &t->cells[r * t->n_cols + c];
            if (c) mx_buf_puts(b, ", ");
            mx_buf_json_str(b, t->cols[c].name);
            mx_buf_puts(b, ": ");
            if (v->null) mx_buf_puts(b, "null");
            else if (t->cols[c].type == MXSIM_CELL_TEXT) mx_buf_json_str(b, v->text ? v->text : "");
            else if (t->cols[c].type == MXSIM_CELL_INT) mx_buf_printf(b, "%lld", (long long)v->i);
            else mx_buf_json_real(b, v->r);
        }
        mx_buf_puts(b, "}");
    }
    mx_buf_puts(b, t->n_rows ? "\n  ]\n}\n" : "]\n}\n");
}

static void render_md(const mxsim_table *t, mx_buf *b, int any_brief)
{
    char tmp[64];
    mx_buf_puts(b, "|");
    for (int c = 0; c < t->n_cols; c++)
        if (shown(t, c, any_brief)) {
            mx_buf_puts(b, " ");
            mx_buf_md_cell(b, t->cols[c].name);
            mx_buf_puts(b, " |");
        }
    mx_buf_puts(b, "\n|");
    for (int c = 0; c < t->n_cols; c++)
        if (shown(t, c, any_brief)) mx_buf_puts(b, t->cols[c].type == MXSIM_CELL_TEXT ? "---|" : "---:|");
    mx_buf_puts(b, "\n");
    for (int64_t r = 0; r < t->n_rows; r++) {
        mx_buf_puts(b, "|");
        for (int c = 0; c < t->n_cols; c++)
            if (shown(t, c, any_brief)) {
                mx_buf_puts(b, " ");
                mx_buf_md_cell(b, cell_text(&t->cols[c], &t->cells[r * t->n_cols + c], tmp, sizeof tmp));
                mx_buf_puts(b, " |");
            }
        mx_buf_puts(b, "\n");
    }
}

/* Display width of UTF-8 text: one per code point (continuation bytes do not count). */
static size_t text_width(const char *s)
{
    size_t w = 0;
    for (; *s; s++) w += ((unsigned char)*s & 0xC0) != 0x80;
    return w;
}

static void pad(mx_buf *b, size_t n)
{
    while (n--) mx_buf_put(b, " ", 1);
}

static mxsim_status render_table(mxsim_ctx *ctx, const mxsim_table *t, mx_buf *b, int any_brief)
{
    char tmp[64];
    size_t *w = calloc((size_t)t->n_cols + 1, sizeof *w);
    if (w == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory");
    for (int c = 0; c < t->n_cols; c++) {
        w[c] = text_width(t->cols[c].name);
        for (int64_t r = 0; r < t->n_rows; r++) {
            size_t L = text_width(cell_text_tty(&t->cols[c], &t->cells[r * t->n_cols + c], tmp, sizeof tmp));
            if (L > w[c]) w[c] = L;
        }
    }
    /* text left-aligned, numbers right-aligned, two spaces apart */
    for (int64_t r = -1; r < t->n_rows; r++) {
        int first = 1;
        for (int c = 0; c < t->n_cols; c++) {
            if (!shown(t, c, any_brief)) continue;
            const char *s = r < 0 ? t->cols[c].name
                                  : cell_text_tty(&t->cols[c], &t->cells[r * t->n_cols + c], tmp, sizeof tmp);
            size_t L = text_width(s);
            if (!first) mx_buf_puts(b, "  ");
            first = 0;
            if (t->cols[c].type == MXSIM_CELL_TEXT) {
                mx_buf_puts(b, s);
                /* no trailing blanks on the last column */
                int last = 1;
                for (int d = c + 1; d < t->n_cols; d++) last &= !shown(t, d, any_brief);
                if (!last) pad(b, w[c] - L);
            } else {
                pad(b, w[c] - L);
                mx_buf_puts(b, s);
            }
        }
        mx_buf_puts(b, "\n");
    }
    free(w);
    return MXSIM_OK;
}

mxsim_status mxsim_table_render(mxsim_ctx *ctx, const mxsim_table *t, mxsim_output_format f,
                                char **text, size_t *len)
{
    mx_clear_err(ctx);
    if (text) *text = NULL;
    if (len) *len = 0;
    if (t == NULL || text == NULL) return mx_fail(ctx, MXSIM_E_ARG, "table render: NULL argument");
    int any_brief = 0;
    for (int c = 0; c < t->n_cols; c++) any_brief |= (t->cols[c].flags & MXSIM_COL_BRIEF) != 0;
    mx_buf b = {0};
    mxsim_status st = MXSIM_OK;
    switch (f) {
    case MXSIM_OUTPUT_TABLE: st = render_table(ctx, t, &b, any_brief); break;
    case MXSIM_OUTPUT_CSV: render_csv(t, &b); break;
    case MXSIM_OUTPUT_JSON: render_json(t, &b); break;
    case MXSIM_OUTPUT_MD: render_md(t, &b, any_brief); break;
    default: st = mx_fail(ctx, MXSIM_E_ARG, "table render: bad output format %d", (int)f);
    }
    if (st != MXSIM_OK) {
        mx_buf_free(&b);
        return st;
    }
    *text = mx_buf_take(&b, len);
    return *text ? MXSIM_OK : mx_fail(ctx, MXSIM_E_NOMEM, "table: out of memory rendering");
}

mxsim_status mxsim_table_save(mxsim_ctx *ctx, const mxsim_table *t, mxsim_output_format f,
                              const char *path)
{
    char *text = NULL;
    size_t len = 0;
    mxsim_status st = mxsim_table_render(ctx, t, f, &text, &len);
    if (st == MXSIM_OK) st = mxsim_file_write(ctx, path, text, len);
    free(text);
    return st;
}

void mxsim_free(void *p) { free(p); }

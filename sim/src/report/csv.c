/* csv.c - RFC 4180 reader (csv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/csv.h"
#include "report/grow.h"

typedef struct {
    size_t *start; /* offsets into text of the current record's fields */
    int n, cap;
} fields;

static int fields_push(fields *f, size_t off)
{
    size_t *np = mx_grow(f->start, &f->cap, f->n, sizeof *np);
    if (np == NULL) return -1;
    f->start = np;
    f->start[f->n++] = off;
    return 0;
}

/* The name of column col for messages: the header's (record 0 at offs) when it is short printable
** ASCII, else "column N" in buf. */
static const char *colname(const mx_csv *c, const size_t *offs, int col, char *buf, size_t n)
{
    if (c->n_rows == 0) return "header";
    if (col >= c->n_cols) return "row";
    const char *s = c->text + offs[col];
    size_t L = 0;
    while (s[L] >= 0x20 && s[L] < 0x7f) L++;
    if (s[L] == '\0' && L > 0 && L <= 64) return s;
    mx_snprintf(buf, n, "column %d", col + 1);
    return buf;
}

void mx_csv_free(mx_csv *c)
{
    free(c->cell);
    free(c->line);
    free(c->text);
    memset(c, 0, sizeof *c);
}

int mx_csv_col(const mx_csv *c, const char *name)
{
    for (int i = 0; c->n_rows > 0 && i < c->n_cols; i++)
        if (strcmp(c->cell[i], name) == 0) return i;
    return -1;
}

/* Appends the record whose fields are f (offsets into c->text) to c. */
static mxsim_status add_record(mxsim_ctx *ctx, const char *path, mx_csv *c, const fields *f,
                               int64_t line, int64_t *cap, int64_t max_rows, size_t **offs)
{
    if (c->n_rows == 0) {
        c->n_cols = f->n;
    } else if (f->n != c->n_cols) {
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%lld: field 'row': %d values, header has %d", path,
                       (long long)line, f->n, c->n_cols);
    }
    if (c->n_rows >= max_rows)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s:%lld: field 'row': more than %lld records", path,
                       (long long)line, (long long)max_rows);
    if (c->n_rows == *cap) {
        int64_t nc = *cap ? 2 * *cap : 256;
        size_t *no = realloc(*offs, (size_t)(nc * c->n_cols) * sizeof *no);
        if (no) *offs = no;
        int64_t *nl = no ? realloc(c->line, (size_t)nc * sizeof *nl) : NULL;
        if (nl == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        c->line = nl;
        *cap = nc;
    }
    memcpy(*offs + c->n_rows * c->n_cols, f->start, (size_t)c->n_cols * sizeof **offs);
    c->line[c->n_rows++] = line;
    return MXSIM_OK;
}

mxsim_status mx_csv_parse(mxsim_ctx *ctx, const char *path, const char *data, size_t len,
                          int max_cols, int64_t max_rows, mx_csv *out)
{
    memset(out, 0, sizeof *out);
    mx_csv c = {0};
    fields f = {0};
    size_t *offs = NULL;
    int64_t cap = 0, line = 1, rec_line = 1;
    mxsim_status st = MXSIM_OK;
    c.text = malloc(len + 1); /* a field never outgrows its source text (+1 NUL per field) */
    if (c.text == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    size_t i = 0, w = 0;
    int in_record = 0;
    char cname[32];
    while (i < len && st == MXSIM_OK) {
        if (!in_record) { /* start of a record: skip blank lines */
            if (data[i] == '\n' || (data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')) {
                i += data[i] == '\r' ? 2 : 1;
                line++;
                continue;
            }
            in_record = 1;
            rec_line = line;
            f.n = 0;
        }
        /* one field */
        if (f.n >= max_cols) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%lld: field '%s': more than %d columns", path,
                         (long long)line, c.n_rows ? "row" : "header", max_cols);
            break;
        }
        if (fields_push(&f, w) != 0) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
            break;
        }
        if (data[i] == '"') {
            int64_t qline = line;
            i++;
            for (;;) {
                if (i >= len) {
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%lld: field '%s': quoted field not closed",
                                 path, (long long)qline, colname(&c, offs, f.n - 1, cname, sizeof cname));
                    break;
                }
                if (data[i] == '"') {
                    if (i + 1 < len && data[i + 1] == '"') {
                        c.text[w++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (data[i] == '\0') break; /* reported below */
                if (data[i] == '\n') line++;
                c.text[w++] = data[i++];
            }
            if (st != MXSIM_OK) break;
        } else {
            while (i < len && data[i] != ',' && data[i] != '\n' && data[i] != '"' && data[i] != '\0' && data[i] != '\r')
                c.text[w++] = data[i++];
        }
        c.text[w++] = '\0';
        if (i < len && data[i] != ',' && data[i] != '\n' && !(data[i] == '\r' && i + 1 < len && data[i + 1] == '\n')) {
            const char *why = data[i] == '\0' ? "a NUL byte" : data[i] == '\r' ? "a bare carriage return"
                            : "a quote inside an unquoted field, or text after a closing quote";
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%lld: field '%s': %s", path, (long long)line,
                         colname(&c, offs, f.n - 1, cname, sizeof cname), why);
            break;
        }
        if (i < len && data[i] == ',') {
            i++;
            if (i == len) { /* a trailing comma on the last line: one more, empty field */
                if (fields_push(&f, w) != 0) st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
                c.text[w++] = '\0';
            } else continue;
        }
        if (st != MXSIM_OK) break;
        /* end of record: LF, CRLF or end of data */
        if (i < len) {
            i += data[i] == '\r' ? 2 : 1;
            line++;
        }
        st = add_record(ctx, path, &c, &f, rec_line, &cap, max_rows, &offs);
        in_record = 0;
    }
    free(f.start);
    if (st == MXSIM_OK && c.n_rows == 0)
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'header': no header row", path);
    if (st == MXSIM_OK) {
        c.cell = malloc((size_t)(c.n_rows * c.n_cols) * sizeof *c.cell);
        if (c.cell == NULL) st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        for (int64_t k = 0; c.cell && k < c.n_rows * c.n_cols; k++) c.cell[k] = c.text + offs[k];
    }
    free(offs);
    if (st != MXSIM_OK) {
        mx_csv_free(&c);
        return st;
    }
    *out = c;
    return MXSIM_OK;
}

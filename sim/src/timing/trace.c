/* trace.c - workload traces: the versioned text format (plain or gzip), SCALE-Sim topology CSV
** import, and trace generation from model definitions (workloads/models).
**
** Format (traces/FORMAT.md): first non-comment line `mxsim-trace 1` (or 2: adds `b_role=`,
** `b_tensors=` and `param` lines, for the memory footprint), then one op per line,
** `KIND key=value ...` with KIND gemm, dequant or quantize.  Readers are strict: unknown kinds
** and keys, duplicate keys, missing dims, and bad or overflowing numbers are MXSIM_E_INPUT naming file:line and the field; a truncated .gz is E_FORMAT.
** Invariant: every op held by an mxsim_trace passed mxsim_trace_append's validation.
** Also here, so that zlib stays in this file: the gzip writer of detailed mode's access traces.
*/
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "fileio.h"
#include "output/textbuf.h"
#include "lines.h"
#include "tinternal.h"

/* Version 2 (traces/FORMAT.md): what each op's B operand is, parallel to ops (NULL while every op's
** is unset): its role, and how many distinct B tensors its executions read (0: one per execution);
** and the non-GEMM parameters (`param` lines). */
typedef struct {
    int8_t role;
    int64_t tensors;
} mx_tboperand;
typedef struct {
    char name[64], why[32];
    int64_t elems, count;
} mx_tparam;

struct mxsim_trace {
    mxsim_top *ops;
    int64_t n, cap;
    char source[512];
    mx_tboperand *bop;
    mx_tparam *params;
    int64_t n_params;
};

#define MAX_TRACE_BYTES ((int64_t)256 << 20)

MXSIM_API mxsim_status mxsim_trace_create(mxsim_ctx *ctx, const char *source, mxsim_trace **out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_create: NULL");
    *out = mx_calloc(1, sizeof **out);
    if (*out == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "trace: out of memory");
    mx_snprintf((*out)->source, sizeof (*out)->source, "%s", source ? source : "trace");
    return MXSIM_OK;
}

MXSIM_API void mxsim_trace_free(mxsim_trace *t)
{
    if (t == NULL) return;
    free(t->ops);
    free(t->bop);
    free(t->params);
    free(t);
}

MXSIM_API int64_t mxsim_trace_count(const mxsim_trace *t) { return t ? t->n : 0; }
MXSIM_API const mxsim_top *mxsim_trace_op(const mxsim_trace *t, int64_t i)
{
    return t && i >= 0 && i < t->n ? &t->ops[i] : NULL;
}
MXSIM_API const char *mxsim_trace_source(const mxsim_trace *t) { return t ? t->source : ""; }


MXSIM_API mxsim_status mxsim_trace_append(mxsim_ctx *ctx, mxsim_trace *t, const mxsim_top *op)
{
    mx_clear_err(ctx);
    if (t == NULL || op == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_append: NULL");
    if (memchr(op->name, '\0', sizeof op->name) == NULL)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'name': not NUL-terminated within 64 bytes", t->source, op->line);
    /* every format the name goes out in is UTF-8 text (JSON requires it): a name in another
    ** encoding (a topology saved as Windows-1252) is refused, not passed on as a stray byte */
    const long bad = mx_utf8_bad(op->name);
    if (bad >= 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'name': not UTF-8 text (byte 0x%02X at offset %ld; save the file as UTF-8)",
                       t->source, op->line, (unsigned)(unsigned char)op->name[bad], bad);
    char where[640];
    mx_snprintf(where, sizeof where, "%s:%d: op '%s'", t->source, op->line, op->name);
    /* the text format separates fields by blanks and starts comments with '#': a name holding
    ** one could be saved but not loaded back */
    for (const char *p = op->name; *p; p++)
        if (isspace((unsigned char)*p) || *p == '#' || iscntrl((unsigned char)*p))
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': a blank, control character or '#' cannot be saved "
                           "in the text format", where);
    if (op->kind < 0 || op->kind > MXSIM_OP_QUANTIZE) return mx_fail(ctx, MXSIM_E_INPUT, "%s: unknown op kind", where);
    if (op->name[0] == '\0') return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': missing", where);
    /* every output's summary row is op TOTAL: an op of that name made a second one (a script that
    ** picks op == "TOTAL" counted it twice, and mxsim report refused the sweep mxsim had written) */
    if (!strcmp(op->name, "TOTAL"))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': TOTAL is reserved for the summary row of every output", where);
    const char *dn[3] = {"m", "n", "k"};
    int64_t d[3] = {op->m, op->n, op->kind == MXSIM_OP_GEMM ? op->k : 1};
    for (int i = 0; i < 3; i++)
        if (d[i] < 1 || d[i] > MX_T_MAX_DIM)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': %lld must be in 1..2^31", where, dn[i], (long long)d[i]);
    if (op->repeat < 1 || op->repeat > ((int64_t)1 << 40))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'repeat': %lld must be in 1..2^40", where, (long long)op->repeat);
    if (op->group_size < 0 || op->group_size > MXSIM_MAX_GROUP)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'group': %lld must be in 1..%d", where, (long long)op->group_size, MXSIM_MAX_GROUP);
    /* G need not divide the grouped dim (k, or n of a dequant/quantize): the engine pads */
    if (op->a_fmt < -1 || op->a_fmt > 1 || op->b_fmt < -1 || op->b_fmt > 1 || op->out_fmt < -1 || op->out_fmt > 2)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: bad format code", where);
    if (op->kind != MXSIM_OP_GEMM && (op->a_fmt >= 0 || op->b_fmt >= 0)) /* the text reader refuses a=/b= on them too */
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': only gemm has operand formats", where, op->a_fmt >= 0 ? "a" : "b");
    if (t->n == t->cap) {
        int64_t nc = t->cap ? t->cap * 2 : 64;
        mxsim_top *p = realloc(t->ops, (size_t)nc * sizeof *p);
        if (p == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "trace: out of memory");
        t->ops = p;
        if (t->bop != NULL) {
            mx_tboperand *r = realloc(t->bop, (size_t)nc * sizeof *r);
            if (r == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "trace: out of memory");
            memset(r + t->cap, 0, (size_t)(nc - t->cap) * sizeof *r); /* MXSIM_ROLE_UNSET, 0 tensors */
            t->bop = r;
        }
        t->cap = nc;
    }
    t->ops[t->n++] = *op;
    return MXSIM_OK;
}

static const char *const k_role_names[] = {"unset", "act", "weight", "kv"};

MXSIM_API const char *mxsim_role_name(mxsim_tensor_role r)
{
    return r >= MXSIM_ROLE_UNSET && r <= MXSIM_ROLE_KV ? k_role_names[r] : NULL;
}

static mxsim_status bop_alloc(mxsim_ctx *ctx, mxsim_trace *t)
{
    if (t->bop == NULL && (t->bop = mx_calloc((size_t)t->cap, sizeof *t->bop)) == NULL)
        return mx_fail(ctx, MXSIM_E_NOMEM, "trace: out of memory");
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_trace_set_b_role(mxsim_ctx *ctx, mxsim_trace *t, int64_t i, mxsim_tensor_role r)
{
    mx_clear_err(ctx);
    if (t == NULL || i < 0 || i >= t->n || r < MXSIM_ROLE_UNSET || r > MXSIM_ROLE_KV)
        return mx_fail(ctx, MXSIM_E_ARG, "trace_set_b_role: bad op index or role");
    if (mxsim_trace_b_tensors(t, i) != 0 && r != MXSIM_ROLE_WEIGHT && r != MXSIM_ROLE_KV)
        return mx_fail(ctx, MXSIM_E_ARG, "trace_set_b_role: op %lld has b_tensors, which a %s B operand cannot have",
                       (long long)i, k_role_names[r]);
    mxsim_status st = bop_alloc(ctx, t);
    if (st == MXSIM_OK) t->bop[i].role = (int8_t)r;
    return st;
}

MXSIM_API mxsim_status mxsim_trace_set_b_tensors(mxsim_ctx *ctx, mxsim_trace *t, int64_t i, int64_t n)
{
    mx_clear_err(ctx);
    if (t == NULL || i < 0 || i >= t->n) return mx_fail(ctx, MXSIM_E_ARG, "trace_set_b_tensors: bad op index");
    const mxsim_tensor_role r = mxsim_trace_b_role(t, i);
    if (n != 0 && (t->ops[i].kind != MXSIM_OP_GEMM || (r != MXSIM_ROLE_WEIGHT && r != MXSIM_ROLE_KV)))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: op '%s': field 'b_tensors': only a gemm whose b_role is weight or kv "
                       "stores B tensors", t->source, t->ops[i].name);
    if (n < MXSIM_B_VIEW || n > ((int64_t)1 << 40))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: op '%s': field 'b_tensors': %lld must be in 1..2^40 (or MXSIM_B_VIEW)",
                       t->source, t->ops[i].name, (long long)n);
    mxsim_status st = bop_alloc(ctx, t);
    if (st == MXSIM_OK) t->bop[i].tensors = n;
    return st;
}

MXSIM_API int64_t mxsim_trace_b_tensors(const mxsim_trace *t, int64_t i)
{
    return t && t->bop && i >= 0 && i < t->n ? t->bop[i].tensors : 0;
}

MXSIM_API mxsim_tensor_role mxsim_trace_b_role(const mxsim_trace *t, int64_t i)
{
    return t && t->bop && i >= 0 && i < t->n ? (mxsim_tensor_role)t->bop[i].role : MXSIM_ROLE_UNSET;
}

/* A word the text format writes and reads back: no blank, control character or '#'. */
static int plain_word(const char *s) /* and UTF-8 text */
{
    if (mx_utf8_bad(s) >= 0) return 0;
    for (; *s; s++)
        if ((unsigned char)*s <= ' ' || *s == '#' || *s == 0x7f) return 0;
    return 1;
}

MXSIM_API mxsim_status mxsim_trace_add_param(mxsim_ctx *ctx, mxsim_trace *t, const char *name, int64_t elems,
                                             int64_t count, const char *why)
{
    mx_clear_err(ctx);
    if (t == NULL || name == NULL || why == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_add_param: NULL");
    if (name[0] == '\0' || strlen(name) >= sizeof t->params[0].name || !plain_word(name))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: param: field 'name': must be 1..63 characters of UTF-8 text, no blanks or '#'", t->source);
    if (why[0] == '\0' || strlen(why) >= sizeof t->params[0].why || !plain_word(why))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: param '%s': field 'why': must be 1..31 characters, no blanks or '#'", t->source, name);
    if (elems < 1 || elems > MX_T_MAX_DIM * MX_T_MAX_DIM / 4 || count < 1 || count > ((int64_t)1 << 40))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: param '%s': field '%s' out of range", t->source, name,
                       elems < 1 || elems > MX_T_MAX_DIM * MX_T_MAX_DIM / 4 ? "elems" : "count");
    /* the footprint (elems x count in fp32) must be a number: refused here, where the line is known,
    ** not later by `mxsim memory` */
    if (elems > INT64_MAX / 4 / count)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: param '%s': field 'count': %lld x %lld elements in fp32 pass 2^63 bytes",
                       t->source, name, (long long)elems, (long long)count);
    /* a second line of one name is a copy (counted twice in the memory footprint), not a second tensor */
    for (int64_t i = 0; i < t->n_params; i++)
        if (!strcmp(t->params[i].name, name))
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: param '%s': field 'name': given twice (use COUNT for copies)",
                           t->source, name);
    mx_tparam *p = realloc(t->params, (size_t)(t->n_params + 1) * sizeof *p);
    if (p == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "trace: out of memory");
    t->params = p;
    p += t->n_params++;
    mx_snprintf(p->name, sizeof p->name, "%s", name);
    mx_snprintf(p->why, sizeof p->why, "%s", why);
    p->elems = elems;
    p->count = count;
    return MXSIM_OK;
}

MXSIM_API int64_t mxsim_trace_param_count(const mxsim_trace *t) { return t ? t->n_params : 0; }

MXSIM_API mxsim_status mxsim_trace_param(const mxsim_trace *t, int64_t i, const char **name, int64_t *elems,
                                         int64_t *count, const char **why)
{
    if (t == NULL || i < 0 || i >= t->n_params) return MXSIM_E_ARG;
    if (name) *name = t->params[i].name;
    if (elems) *elems = t->params[i].elems;
    if (count) *count = t->params[i].count;
    if (why) *why = t->params[i].why;
    return MXSIM_OK;
}

/* ---- reading ------------------------------------------------------------------------------ */

/* gzread stops at the end of the last gzip member and ignores whatever follows it.  Walks the
** members of a .gz (concatenated members are legal: gzip reads them all) and returns the byte
** offset of data after the last one, or -1 if there is none (or the file cannot be walked:
** gzread has reported that already). */
static long long gz_trailing_offset(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return -1;
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 31) != Z_OK) {
        fclose(f);
        return -1;
    }
    static unsigned char in[1 << 16], out[1 << 16];
    long long pos = 0, res = -1; /* pos: file offset just after the bytes read so far */
    int eof = 0;
    for (;;) {
        if (zs.avail_in == 0 && !eof) {
            size_t r = fread(in, 1, sizeof in, f);
            if (r == 0) eof = 1;
            zs.next_in = in;
            zs.avail_in = (uInt)r;
            pos += (long long)r;
        }
        if (zs.avail_in == 0 && eof) break;
        zs.next_out = out;
        zs.avail_out = sizeof out;
        int r = inflate(&zs, Z_NO_FLUSH);
        if (r == Z_STREAM_END) {
            if (zs.avail_in == 0 && !eof) { /* is there anything after this member? */
                size_t k = fread(in, 1, sizeof in, f);
                if (k == 0) break;
                zs.next_in = in;
                zs.avail_in = (uInt)k;
                pos += (long long)k;
            }
            if (zs.avail_in == 0) break;
            if (zs.avail_in >= 2 && zs.next_in[0] == 0x1f && zs.next_in[1] == 0x8b) {
                inflateReset(&zs); /* another member */
                continue;
            }
            res = pos - (long long)zs.avail_in;
            break;
        }
        if (r != Z_OK && r != Z_BUF_ERROR) break;
        if (r == Z_BUF_ERROR && eof) break;
    }
    inflateEnd(&zs);
    fclose(f);
    return res;
}

/* Reads a whole file through zlib (plain files pass through gzread unchanged). */
static mxsim_status read_all(mxsim_ctx *ctx, const char *path, char **out, size_t *len)
{
    *out = NULL;
    /* Refuse what is not a regular file before opening it, as fileio.c does: a directory used
    ** to read as a "corrupt gzip stream", a FIFO blocked fopen forever, and a missing file
    ** was a runtime failure (exit 1) instead of bad input (exit 2). */
    struct stat sb;
    if (stat(path, &sb) != 0) {
        int e = errno;
        int user = e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP;
        return mx_fail(ctx, user ? MXSIM_E_INPUT : MXSIM_E_IO, "%s: cannot open: %s", path, strerror(e));
    }
    if (!S_ISREG(sb.st_mode))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: is %s, expected a regular file", path,
                       S_ISDIR(sb.st_mode) ? "a directory" : S_ISFIFO(sb.st_mode) ? "a FIFO" : "not a regular file");
    if (mx_note_input(ctx, path, (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino) != 0)
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    FILE *probe = fopen(path, "rb");
    if (probe == NULL) return mx_fail(ctx, MXSIM_E_IO, "%s: cannot open: %s", path, strerror(errno));
    unsigned char magic[2] = {0, 0};
    size_t nm = fread(magic, 1, 2, probe);
    fclose(probe);
    int is_gz = nm == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    gzFile gz = gzopen(path, "rb");
    if (gz == NULL) return mx_fail(ctx, MXSIM_E_IO, "%s: cannot open", path);
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap + 1);
    if (buf == NULL) {
        gzclose(gz);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    for (;;) {
        if (n == cap) {
            if ((int64_t)cap * 2 > MAX_TRACE_BYTES) {
                free(buf);
                gzclose(gz);
                return mx_fail(ctx, MXSIM_E_LIMIT, "%s: trace larger than 256 MiB", path);
            }
            char *nb = realloc(buf, cap * 2 + 1);
            if (nb == NULL) {
                free(buf);
                gzclose(gz);
                return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
            }
            buf = nb;
            cap *= 2;
        }
        int r = gzread(gz, buf + n, (unsigned)(cap - n));
        if (r < 0) break;
        if (r == 0) break;
        n += (size_t)r;
    }
    int err = Z_OK;
    const char *msg = gzerror(gz, &err);
    if (err != Z_OK && err != Z_STREAM_END) {
        mxsim_status st = mx_fail(ctx, MXSIM_E_FORMAT, "%s: %s gzip stream: %s", path,
                                  err == Z_BUF_ERROR ? "truncated" : "corrupt", msg);
        free(buf);
        gzclose(gz);
        return st;
    }
    gzclose(gz);
    long long trail = is_gz ? gz_trailing_offset(path) : -1;
    if (trail >= 0) {
        free(buf);
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: trailing data at byte %lld after the gzip stream", path, trail);
    }
    buf[n] = '\0';
    if (memchr(buf, '\0', n) != NULL) {
        free(buf);
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: binary data (NUL byte): not a trace", path);
    }
    *out = buf;
    *len = n;
    return MXSIM_OK;
}

static int find_name(const char *const *names, int n, const char *s)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], s) == 0) return i;
    return -1;
}

static mxsim_status parse_op_line(mxsim_ctx *ctx, const char *where, char *s, int version, mxsim_top *op,
                                  int *b_role, int64_t *b_tensors)
{
    *b_role = MXSIM_ROLE_UNSET;
    *b_tensors = 0;
    memset(op, 0, sizeof *op);
    op->repeat = 1;
    op->a_fmt = op->b_fmt = op->out_fmt = -1;
    char *tok = strtok(s, " \t");
    mxsim_op_kind kind;
    if (tok == NULL || mxsim_op_kind_parse(ctx, tok, &kind) != MXSIM_OK) return mx_fail(ctx, MXSIM_E_INPUT, "%s: unknown op '%s' (expected gemm, dequant or quantize)", where, tok);
    op->kind = kind;
    unsigned seen = 0;
    static const char *const keys[] = {"name", "m", "n", "k", "group", "repeat", "a", "b", "out"};
    while ((tok = strtok(NULL, " \t")) != NULL) {
        char *eq = strchr(tok, '=');
        if (eq == NULL) return mx_fail(ctx, MXSIM_E_INPUT, "%s: '%s': expected key=value", where, tok);
        *eq = '\0';
        const char *v = eq + 1;
        if (version >= 2 && strcmp(tok, "b_role") == 0) { /* version 2 */
            int r = find_name(k_role_names + 1, 3, v);
            if (r < 0) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_role': '%s' is not act, weight or kv", where, v);
            if (*b_role != MXSIM_ROLE_UNSET) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_role': given twice", where);
            *b_role = r + 1;
            continue;
        }
        if (version >= 2 && strcmp(tok, "b_tensors") == 0) { /* version 2 */
            int64_t x;
            if (*b_tensors != 0) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_tensors': given twice", where);
            if (mx_tparse_i64(v, &x) != 0 || x < 0 || x > ((int64_t)1 << 40))
                return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_tensors': '%s' is not an integer in 0..2^40", where, v);
            *b_tensors = x ? x : MXSIM_B_VIEW; /* 0: a view of a tensor another op counts */
            continue;
        }
        int ki = find_name(keys, 9, tok);
        if (ki < 0 && version < 2 && (!strcmp(tok, "b_role") || !strcmp(tok, "b_tensors")))
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown key in a version-1 trace (a version-2 key: "
                           "make the header 'mxsim-trace 2')", where, tok);
        if (ki < 0) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown key", where, tok);
        if (seen & (1u << ki)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': given twice", where, tok);
        seen |= 1u << ki;
        if (ki == 3 && kind != MXSIM_OP_GEMM) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'k': only gemm has k", where);
        if ((ki == 6 || ki == 7) && kind != MXSIM_OP_GEMM) /* the timing ignored it: a dequant reads MXINT8, a quantize bf16 */
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': only gemm has operand formats", where, tok);
        if (ki == 0) {
            if (strlen(v) == 0 || strlen(v) >= sizeof op->name)
                return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': must be 1..63 characters", where);
            mx_snprintf(op->name, sizeof op->name, "%s", v);
        } else if (ki >= 6) {
            mxsim_out_fmt of = MXSIM_OUT_FP32;
            mxsim_operand_fmt af = MXSIM_FMT_MXINT8;
            mxsim_status fs = ki == 8 ? mxsim_out_fmt_parse(ctx, v, &of) : mxsim_operand_fmt_parse(ctx, v, &af);
            int f = ki == 8 ? (int)of : (int)af;
            if (fs != MXSIM_OK) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown format '%s'", where, tok, v);
            if (ki == 6) op->a_fmt = f;
            else if (ki == 7) op->b_fmt = f;
            else op->out_fmt = f;
        } else {
            int64_t x;
            if (mx_tparse_i64(v, &x) != 0)
                return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not an integer (or overflows int64)", where, tok, v);
            /* the range of each field, said as the reader checks it (group: MXSIM_MAX_GROUP; repeat:
            ** 2^40, checked with the op in mxsim_trace_append) */
            const int64_t hi = ki <= 3 ? MX_T_MAX_DIM : ki == 4 ? MXSIM_MAX_GROUP : (int64_t)1 << 40;
            if (x < 1 || x > hi)
                return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': %lld must be in 1..%lld", where, tok, (long long)x,
                               (long long)hi);
            if (ki == 1) op->m = x;
            else if (ki == 2) op->n = x;
            else if (ki == 3) op->k = x;
            else if (ki == 4) op->group_size = x;
            else op->repeat = x;
        }
    }
    if (!(seen & 1)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': missing", where);
    if (!(seen & 2)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'm': missing", where);
    if (!(seen & 4)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'n': missing", where);
    if (kind == MXSIM_OP_GEMM && !(seen & 8)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'k': missing", where);
    /* keys the op would carry and nothing would read (audit of the twenty-fifth session) */
    if (*b_role != MXSIM_ROLE_UNSET && kind != MXSIM_OP_GEMM)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_role': only gemm has a B operand", where);
    if ((seen & 16) && op->a_fmt == MXSIM_FMT_INT8 && op->b_fmt == MXSIM_FMT_INT8 && (seen & 256) &&
        op->out_fmt != MXSIM_OUT_MXINT8)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'group': an int8 x int8 gemm with out=%s has no scale groups "
                       "(only an out=mxint8 output is grouped)", where, mxsim_out_fmt_name((mxsim_out_fmt)op->out_fmt));
    if (*b_tensors != 0 && (kind != MXSIM_OP_GEMM || (*b_role != MXSIM_ROLE_WEIGHT && *b_role != MXSIM_ROLE_KV)))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'b_tensors': only a gemm with b_role=weight or b_role=kv stores B "
                       "tensors", where);
    return MXSIM_OK;
}

/* `param name=NAME elems=N [count=C] why=WORD` (version 2): a non-GEMM parameter tensor. */
static mxsim_status parse_param_line(mxsim_ctx *ctx, const char *where, char *s, mxsim_trace *t)
{
    static const char *const keys[] = {"name", "elems", "count", "why"};
    const char *val[4] = {NULL, NULL, "1", NULL};
    unsigned seen = 0;
    for (char *tok = strtok(s, " \t"); tok != NULL; tok = strtok(NULL, " \t")) {
        char *eq = strchr(tok, '=');
        if (eq == NULL) return mx_fail(ctx, MXSIM_E_INPUT, "%s: '%s': expected key=value", where, tok);
        *eq = '\0';
        int ki = find_name(keys, 4, tok);
        if (ki < 0) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown key", where, tok);
        if (seen & (1u << ki)) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': given twice", where, tok);
        seen |= 1u << ki;
        val[ki] = eq + 1;
    }
    for (int i = 0; i < 4; i++)
        if (val[i] == NULL) return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': missing", where, keys[i]);
    int64_t e, c;
    if (mx_tparse_i64(val[1], &e) != 0 || mx_tparse_i64(val[2], &c) != 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': not an integer", where, mx_tparse_i64(val[1], &e) ? "elems" : "count");
    return mx_trace_add_param_at(ctx, t, where, val[0], e, c, val[3]);
}

mxsim_status mx_trace_add_param_at(mxsim_ctx *ctx, mxsim_trace *t, const char *where, const char *name, int64_t elems,
                                   int64_t count, const char *why)
{
    mxsim_status st = mxsim_trace_add_param(ctx, t, name, elems, count, why);
    if (st != MXSIM_OK) { /* the message names the trace; name the line instead */
        char msg[512];
        mx_snprintf(msg, sizeof msg, "%s", mxsim_errmsg(ctx));
        const char *colon = strstr(msg, ": param");
        st = mx_fail(ctx, st, "%s%s", where, colon ? colon : msg);
    }
    return st;
}

static int ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

/* A SCALE-Sim topology: .csv in any case (SCALE-Sim takes any file name: TEST.CSV). */
static int is_topology_path(const char *s)
{
    size_t a = strlen(s);
    return a >= 4 && strcasecmp(s + a - 4, ".csv") == 0;
}

/* Both text readers: the whole file in a buffer, and an empty trace named after it. */
static mxsim_status open_text_trace(mxsim_ctx *ctx, const char *path, char **buf, mxsim_trace **t)
{
    size_t len = 0;
    *buf = NULL;
    *t = NULL;
    mxsim_status st = read_all(ctx, path, buf, &len);
    if (st == MXSIM_OK && (st = mxsim_trace_create(ctx, path, t)) != MXSIM_OK) {
        free(*buf);
        *buf = NULL;
    }
    return st;
}

/* Hands the trace out on success, frees it otherwise; the buffer goes either way. */
static mxsim_status close_text_trace(mxsim_status st, char *buf, mxsim_trace *t, mxsim_trace **out)
{
    free(buf);
    if (st != MXSIM_OK) mxsim_trace_free(t);
    else *out = t;
    return st;
}

MXSIM_API int mxsim_tconfig_import_flags(const mxsim_tconfig *cfg)
{
    if (cfg == NULL || !cfg->scalesim_compat) return 0;
    return MXSIM_IMPORT_SCALESIM_MODEL | (cfg->scalesim_version == MXSIM_SCALESIM_V3 ? MXSIM_IMPORT_SCALESIM_V3 : 0);
}

MXSIM_API mxsim_status mxsim_trace_load_for(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const char *path, mxsim_trace **out)
{
    mx_clear_err(ctx);
    if (cfg == NULL || path == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_load_for: NULL");
    if (is_topology_path(path)) {
        *out = NULL;
        return mxsim_trace_import_scalesim(ctx, path, mxsim_tconfig_import_flags(cfg), out);
    }
    return mxsim_trace_load(ctx, path, out);
}

/* Whether the topology at path reads to the same ops under import flags fa and fb: a file that fa
** (the base configuration's reading) refuses counts as the same (the real read names its fault);
** one that only fb refuses, or that reads to other shapes, does not.  The two reads' notes and
** errors are dropped; the notes ctx held before are kept. */
static int same_reading(mxsim_ctx *ctx, const char *path, int fa, int fb)
{
    char kept[sizeof ctx->notes] = "";
    const unsigned lost = ctx ? ctx->n_notes_lost : 0;
    if (ctx) mx_snprintf(kept, sizeof kept, "%s", ctx->notes);
    mxsim_trace *ta = NULL, *tb = NULL;
    int same = mxsim_trace_import_scalesim(ctx, path, fa, &ta) != MXSIM_OK;
    if (!same) {
        same = mxsim_trace_import_scalesim(ctx, path, fb, &tb) == MXSIM_OK && mxsim_trace_count(ta) == mxsim_trace_count(tb);
        for (int64_t i = 0; same && i < mxsim_trace_count(ta); i++) {
            const mxsim_top *x = mxsim_trace_op(ta, i), *y = mxsim_trace_op(tb, i);
            same = x->kind == y->kind && x->m == y->m && x->n == y->n && x->k == y->k && x->repeat == y->repeat;
        }
    }
    mxsim_trace_free(ta);
    mxsim_trace_free(tb);
    if (ctx) {
        memcpy(ctx->notes, kept, sizeof kept);
        ctx->n_notes_lost = lost;
    }
    mx_clear_err(ctx);
    return same;
}

MXSIM_API mxsim_status mxsim_trace_axis_reading(mxsim_ctx *ctx, const mxsim_tconfig *base, const char *path, const char *key)
{
    mx_clear_err(ctx);
    if (base == NULL || path == NULL || key == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_axis_reading: NULL");
    const int ver = !strcmp(key, "report.scalesim_version"), compat = !strcmp(key, "report.scalesim_compat");
    if ((!ver && !compat) || !is_topology_path(path)) return MXSIM_OK;
    /* the base configuration's reading against every other one the axis reaches: a version axis
    ** changes the reading only under SCALE-Sim's model (native points read alike); a compat axis on a
    ** native base reaches SCALE-Sim's model under either version (a version axis may sit beside it) */
    const int base_flags = mxsim_tconfig_import_flags(base);
    const int model = MXSIM_IMPORT_SCALESIM_MODEL, v3 = MXSIM_IMPORT_SCALESIM_V3;
    int same;
    if (ver) same = !base_flags || same_reading(ctx, path, base_flags, base_flags ^ v3);
    else if (base_flags) same = same_reading(ctx, path, base_flags, 0);
    else same = same_reading(ctx, path, 0, model) && same_reading(ctx, path, 0, model | v3);
    if (same) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT,
                   "%s reads differently %s (%s), and a sweep reads it once, by the base configuration's rules: "
                   "sweep each value on its own", path, ver ? "as SCALE-Sim 3.0.0 and 2.0.2" : "under SCALE-Sim's model and natively",
                   ver ? "a conv row's 9th value, a Sparsity column" : "conv output sizes, depthwise rows");
}

MXSIM_API mxsim_status mxsim_trace_load(mxsim_ctx *ctx, const char *path, mxsim_trace **out)
{
    mx_clear_err(ctx);
    if (path == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_load: NULL");
    *out = NULL;
    if (is_topology_path(path)) return mxsim_trace_import_scalesim(ctx, path, 0, out);
    char *buf;
    mxsim_trace *t;
    mxsim_status st = open_text_trace(ctx, path, &buf, &t);
    if (st != MXSIM_OK) return st;
    int have_header = 0, version = 1;
    char where[600];
    mx_lines cur;
    mx_lines_init(&cur, buf); /* skips a UTF-8 BOM */
    for (char *ln; st == MXSIM_OK && (ln = mx_lines_next(&cur)) != NULL;) {
        mx_snprintf(where, sizeof where, "%s:%d", path, cur.line);
        char *hash = strchr(ln, '#');
        if (hash) *hash = '\0';
        char *s = mx_ttrim(ln);
        if (*s == '\0') continue;
        if (!have_header) {
            if (strncmp(s, "mxsim-trace", 11) != 0 || (s[11] != ' ' && s[11] != '\t')) {
                /* a SCALE-Sim topology under another name is read as a trace: say how to have it read as one */
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: expected header 'mxsim-trace 1'%s", where,
                             strchr(s, ',') ? " (a comma-separated line: a SCALE-Sim topology is read as one when its "
                                              "name ends in .csv)" : "");
                break;
            }
            char *v = mx_ttrim(s + 11);
            if (strcmp(v, "1") != 0 && strcmp(v, "2") != 0) {
                st = mx_fail(ctx, MXSIM_E_UNSUPPORTED, "%s: field 'version': '%s' unsupported (this reader knows 1 and 2)", where, v);
                break;
            }
            version = v[0] - '0';
            have_header = 1;
            continue;
        }
        if (version >= 2 && strncmp(s, "param", 5) == 0 && (s[5] == ' ' || s[5] == '\t')) {
            st = parse_param_line(ctx, where, s + 5, t);
            continue;
        }
        mxsim_top op;
        int role;
        int64_t tensors;
        if ((st = parse_op_line(ctx, where, s, version, &op, &role, &tensors)) != MXSIM_OK) break;
        op.line = cur.line;
        st = mxsim_trace_append(ctx, t, &op);
        if (st == MXSIM_OK && role != MXSIM_ROLE_UNSET) st = mxsim_trace_set_b_role(ctx, t, t->n - 1, (mxsim_tensor_role)role);
        if (st == MXSIM_OK && tensors != 0) st = mxsim_trace_set_b_tensors(ctx, t, t->n - 1, tensors);
    }
    if (st == MXSIM_OK && !have_header)
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: empty trace: header 'mxsim-trace 2' (or 1) missing", path,
                     cur.line > 0 ? cur.line : 1); /* a 0-byte file was "line 0" */
    return close_text_trace(st, buf, t, out);
}

/* ---- SCALE-Sim topology ------------------------------------------------------------------- */

/* A SCALE-Sim topology row (scalesim/topology_utils.py, v2 and v3) is its stripped line cut at
** every comma minus the last piece (row.split(',')[:-1]): whatever follows the last comma is
** dropped, the empty piece after the trailing comma or a note (mobilnet_paper.csv:
** "Conv2_dw, 112, 112, 3, 3, 1, 1, 1,#dw").  mxsim reads the same values, and also takes a row
** without its trailing comma (last piece a number) as a row whose last piece is a value, where only
** that reading gives a row; SCALE-Sim itself stops on such rows (too few values), never
** mis-reads them.  Values: 4 (GEMM: Layer, M, N, K), 8 (conv) or 9 (conv with the column stride,
** as SCALE-Sim v2 writes them); v3's Sparsity column (an N:M ratio) as a 5th GEMM or 9th conv
** value is recognised by its ':'. */
#define SS_MAX_VALUES 16

static int is_i64(const char *s)
{
    int64_t v;
    return mx_tparse_i64(s, &v) == 0;
}

static int row_shape_ok(char **f, int n)
{
    return n == 4 || n == 8 || n == 9 || (n == 5 && strchr(f[4], ':') != NULL);
}

/* Cuts row s into *nf trimmed values (f[0..*nf)).  *dropped: the text after the last comma that
** SCALE-Sim drops ("" if none); *no_comma: the row had no trailing comma and its last piece was
** taken as a value.  Refused: too many values; a row read two ways (9 pieces ending in a number
** without a trailing comma: SCALE-Sim reads 8 values, the other reading 9). */
static mxsim_status split_row(mxsim_ctx *ctx, const char *where, char *s, char **f, int *nf, const char **dropped,
                              int *no_comma)
{
    *nf = 0, *no_comma = 0, *dropped = "";
    int n = mx_csv_split(s, f, SS_MAX_VALUES + 1);
    if (n > SS_MAX_VALUES + 1) return mx_fail(ctx, MXSIM_E_INPUT, "%s: too many values (at most %d)", where, SS_MAX_VALUES);
    for (int i = 0; i < n; i++) f[i] = mx_ttrim(f[i]);
    int cut = n - 1;
    if (f[n - 1][0] != '\0' && is_i64(f[n - 1])) {
        int as_cut = cut > 0 && row_shape_ok(f, cut), as_all = row_shape_ok(f, n);
        if (as_cut && as_all)
            return mx_fail(ctx, MXSIM_E_INPUT,
                           "%s: no trailing comma after '%s': SCALE-Sim drops the text after the last comma, so it "
                           "reads the first %d values (stride height for both strides), while %d values would make "
                           "'%s' the stride width; end the row with ',' after the value it should end with",
                           where, f[n - 1], cut, n, f[n - 1]);
        if (!as_cut) cut = n, *no_comma = 1; /* a row without its trailing comma (or a bad one: its count is named) */
    }
    if (cut < n) *dropped = f[n - 1];
    if (cut > SS_MAX_VALUES) return mx_fail(ctx, MXSIM_E_INPUT, "%s: too many values (at most %d)", where, SS_MAX_VALUES);
    /* the empty value's column, as a header names it (a GEMM row has 4 values, a conv row 8 or 9,
    ** either one more with v3's sparsity column) */
    static const char *const gemm_col[] = {"Layer", "M", "N", "K", "Sparsity"};
    static const char *const conv_col[] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height", "Filter Width",
                                           "Channels", "Num Filter", "Strides", "Stride width", "Sparsity"};
    for (int i = 0; i < cut; i++)
        if (f[i][0] == '\0')
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': value %d is empty%s", where,
                           cut <= 5 ? gemm_col[i] : i < 10 ? conv_col[i] : "?", i + 1,
                           i == cut - 1 && (i == 4 || i == 9) ? " (a doubled comma at the end? SCALE-Sim 2.0.2 ignores it, "
                                                                "3.0.0 reads it as an empty Sparsity: remove it)" : "");
    *nf = cut;
    return MXSIM_OK;
}

/* Output size of a convolution along one dim.  SCALE-Sim (scalesim/topology_utils.py, v2 and v3)
** uses ceil((H - F + s) / s), which exceeds the usual floor((H - F) / s) + 1 by one when s does
** not divide H - F: SCALE-Sim then counts a last window that overhangs the input. */
static int64_t conv_out(int64_t h, int64_t f, int64_t s, int scalesim)
{
    return scalesim ? (h - f + s + s - 1) / s : (h - f) / s + 1;
}

/* Whether s is what Python's int() reads: blanks around, an optional sign, digits with single '_'
** between them (3.0.0 reads a sparsity ratio's fields so). */
static int py_int(const char *s)
{
    while (isspace((unsigned char)*s)) s++;
    if (*s == '+' || *s == '-') s++;
    if (!isdigit((unsigned char)*s)) return 0;
    for (; *s && !isspace((unsigned char)*s); s++)
        if (!isdigit((unsigned char)*s) && !(*s == '_' && isdigit((unsigned char)s[1]) && isdigit((unsigned char)s[-1])))
            return 0;
    while (isspace((unsigned char)*s)) s++;
    return *s == '\0';
}

/* v3's Sparsity value "N:M" (N of every M kept).  Reading as 3.0.0 (v3): it takes int() of the first
** two ':'-separated fields and, with SparsitySupport off (on is refused), times the layer dense
** whatever they are (0:4, 4:2, 2:4:8 alike): accepted, counted for the note unless N == M.  Reading
** as 2.0.2 (which has no such column): only a dense N:N is accepted, the rest refused (a sparse layer
** is not modelled). */
static mxsim_status sparsity_ratio(mxsim_ctx *ctx, const char *where, int col, const char *v, int v3, int *n_nm,
                                   int *first_nm, int line)
{
    char buf[64];
    mx_snprintf(buf, sizeof buf, "%s", v);
    char *colon = strchr(buf, ':');
    if (colon != NULL) *colon = '\0';
    if (v3) {
        char *second = colon ? colon + 1 : NULL, *next = second ? strchr(second, ':') : NULL;
        if (next) *next = '\0';
        if (!colon || !py_int(buf) || !py_int(second))
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Sparsity' (value %d): '%s' is not an N:M ratio SCALE-Sim v3 can "
                           "read (it takes int() of the first two ':'-separated fields and stops on anything else)",
                           where, col, v);
        int64_t n = 0, m = 0;
        const int dense = mx_tparse_i64(mx_ttrim(buf), &n) == 0 && mx_tparse_i64(mx_ttrim(second), &m) == 0 && n == m && n >= 1;
        if (!dense && (*n_nm)++ == 0) *first_nm = line;
        return MXSIM_OK;
    }
    int64_t n = 0, m = 0;
    int ok = colon != NULL && mx_tparse_i64(mx_ttrim(buf), &n) == 0 && mx_tparse_i64(mx_ttrim(colon + 1), &m) == 0;
    if (ok && n == m && n >= 1) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT,
                   "%s: field 'Sparsity' (value %d): '%s' is SCALE-Sim v3's N:M sparsity ratio; v3's sparse layers are "
                   "not modelled (mxsim times dense layers): use 1:1 or remove the column", where, col, v);
}

MXSIM_API mxsim_status mxsim_trace_import_scalesim(mxsim_ctx *ctx, const char *path, int flags,
                                                   mxsim_trace **out)
{
    int require_trailing_comma = (flags & MXSIM_IMPORT_REQUIRE_COMMA) != 0;
    int ss = (flags & MXSIM_IMPORT_SCALESIM_MODEL) != 0, v3 = (flags & MXSIM_IMPORT_SCALESIM_V3) != 0;
    mx_clear_err(ctx);
    if (path == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_import: NULL");
    *out = NULL;
    char *buf;
    mxsim_trace *t;
    mxsim_status st = open_text_trace(ctx, path, &buf, &t);
    if (st != MXSIM_OK) return st;
    int kind = 0, kind_line = 0; /* 4: GEMM rows, 8: conv rows (8 or 9 values), set by the first */
    unsigned char *names_changed = NULL;
    int n_no_comma = 0, first_no_comma = 0; /* rows without the trailing comma (the note) */
    int n_dp = 0, first_dp = 0;             /* rows read as depthwise (the note) */
    int n_nm = 0, first_nm = 0;             /* v3: N:M ratios it ignores (the note) */
    char where[600];
    mx_lines cur;
    mx_text_lone_cr_to_lf(buf); /* as SCALE-Sim's open() reads it */
    mx_lines_init(&cur, buf); /* skips a UTF-8 BOM */
    char *ln = mx_lines_next(&cur);
    /* SCALE-Sim skips the first line whatever it holds (`if first ...: continue`) and takes each
    ** data row's values as they come: the header names nothing and fixes no count.  A first line
    ** SCALE-Sim would mis-read is refused: an empty one (the header then becomes a layer) and a
    ** layer (a file without a header: SCALE-Sim silently drops that layer). */
    if (ln == NULL) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: empty: no header line", path);
    else if (*mx_ttrim(ln) == '\0')
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:1: empty line: SCALE-Sim takes the first line as the header whatever it "
                     "holds, so it would read the header below as a layer; remove the blank line", path);
    else {
        char *f[SS_MAX_VALUES + 1];
        int nf, nc;
        const char *dr;
        mx_snprintf(where, sizeof where, "%s:1", path);
        if (split_row(NULL, where, ln, f, &nf, &dr, &nc) == MXSIM_OK && row_shape_ok(f, nf)) {
            int numbers = 1;
            for (int i = 1; i < nf; i++) numbers &= is_i64(f[i]) || strchr(f[i], ':') != NULL;
            if (numbers)
                st = mx_fail(ctx, MXSIM_E_INPUT,
                             "%s: the first line is a layer ('%s', %d values), not a header: SCALE-Sim skips the first "
                             "line whatever it holds, so it would silently drop this layer; add a header line "
                             "(e.g. 'Layer, M, N, K,' or 'Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter "
                             "Width, Channels, Num Filter, Strides,')", where, f[0], nf);
        }
    }
    while (st == MXSIM_OK && (ln = mx_lines_next(&cur)) != NULL) {
        mx_snprintf(where, sizeof where, "%s:%d", path, cur.line);
        char *s = mx_ttrim(ln);
        if (*s == '\0') continue;
        char *f[SS_MAX_VALUES + 1];
        int nf, no_comma;
        const char *dropped;
        const int semicolons = strchr(s, ';') != NULL; /* a spreadsheet's export in a ';' locale */
        if ((st = split_row(ctx, where, s, f, &nf, &dropped, &no_comma)) != MXSIM_OK) break;
        if (no_comma && require_trailing_comma) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: missing trailing comma (SCALE-Sim rows end with ',')", where);
            break;
        }
        if (no_comma && n_no_comma++ == 0) first_no_comma = cur.line;
        if (!row_shape_ok(f, nf)) {
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: %d values%s%s%s: a row has 4 (Layer, M, N, K) or 8 (Layer name, IFMAP Height, IFMAP "
                         "Width, Filter Height, Filter Width, Channels, Num Filter, Strides), or 9 (Stride height, "
                         "Stride width)%s", where, nf, dropped[0] ? " (SCALE-Sim drops '" : "", dropped,
                         dropped[0] ? "', the text after the last comma)" : "",
                         nf > 9 || (nf > 4 && nf < 8) ? "; SCALE-Sim reads a row's values by position: 2.0.2 ignores "
                                                        "the ones after those its mode reads (4 for GEMM, 8 or 9 for "
                                                        "conv), 3.0.0 reads the next one as its Sparsity (and stops on a "
                                                        "plain number there); mxsim does not guess which release is "
                                                        "meant: remove the extra columns"
                         : nf < 4 && semicolons ? "; the line separates its values with ';': a topology's are separated "
                                                  "by ',' (export the sheet as comma-separated CSV)" : "");
            break;
        }
        int sparse = (nf == 5 || nf == 9) && strchr(f[nf - 1], ':') != NULL; /* v3's Sparsity column */
        if (v3 && nf == 9 && !sparse) {
            /* v3 (topology_utils.py) takes the 8th value as both strides and the 9th as the
            ** sparsity ratio: it stops on a number there */
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: field 'Sparsity' (value 9): '%s': SCALE-Sim v3 reads a conv row's 9th value as its N:M "
                         "sparsity ratio, not as v2's stride width (it uses the 8th value for both strides), and "
                         "stops on a number there; this run times SCALE-Sim v3 (report.scalesim_version, set by a v3 "
                         ".cfg): remove the 9th value, or --set report.scalesim_version=v2 for v2's reading",
                         where, f[8]);
            break;
        }
        if (sparse && (st = sparsity_ratio(ctx, where, nf, f[nf - 1], v3, &n_nm, &first_nm, cur.line)) != MXSIM_OK) break;
        int nv = sparse ? nf - 1 : nf, k = nv == 4 ? 4 : 8;
        if (kind == 0) kind = k, kind_line = cur.line;
        if (k != kind) {
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: a %s row (%d values) after %s rows (line %d): SCALE-Sim runs a topology as all GEMM "
                         "(-i gemm) or all conv layers", where, k == 4 ? "GEMM" : "conv", nv,
                         kind == 4 ? "GEMM" : "conv", kind_line);
            break;
        }
        int64_t v[9];
        static const char *const gname[] = {"Layer", "M", "N", "K"};
        static const char *const cname[] = {"Layer name", "IFMAP Height", "IFMAP Width", "Filter Height",
                                            "Filter Width", "Channels", "Num Filter", "Strides", "Stride width"};
        for (int i = 1; i < nv; i++)
            if (mx_tparse_i64(f[i], &v[i]) != 0 || v[i] < 1 || v[i] > MX_T_MAX_DIM) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not an integer in 1..2^31", where,
                             nv == 4 ? gname[i] : i == 7 && nv == 9 ? "Stride height" : cname[i], f[i]);
                break;
            }
        if (st != MXSIM_OK) break;
        mxsim_top op;
        memset(&op, 0, sizeof op);
        op.kind = MXSIM_OP_GEMM;
        op.repeat = 1;
        op.a_fmt = op.b_fmt = op.out_fmt = -1;
        op.line = cur.line;
        /* a trace's op name has no blank, '=' or '#' (they become '_') and at most 63 characters: a
        ** longer name was cut, and a replaced character could make two layers one name
        ** ('conv 1' and 'conv_1'), which --data and the per-op rows then confused */
        if (strlen(f[0]) > 63) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Layer name': '%.40s...' is longer than 63 characters", where, f[0]);
            break;
        }
        mx_snprintf(op.name, sizeof op.name, "%s", f[0]);
        int changed = 0;
        for (char *p = op.name; *p; p++)
            if (isspace((unsigned char)*p) || *p == '=' || *p == '#') *p = '_', changed = 1;
        /* names_changed: a bitmap of which earlier layers' names were rewritten (either side may be) */
        int64_t nops = mxsim_trace_count(t);
        if (nops % 4096 == 0) {
            unsigned char *nc = realloc(names_changed, (size_t)(nops / 8 + 512));
            if (nc == NULL) {
                st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", where);
                break;
            }
            memset(nc + nops / 8, 0, 512);
            names_changed = nc;
        }
        if (changed) names_changed[nops / 8] |= (unsigned char)(1u << (nops % 8));
        for (int64_t i = 0; i < nops; i++)
            if ((changed || (names_changed[i / 8] >> (i % 8) & 1)) && strcmp(mxsim_trace_op(t, i)->name, op.name) == 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Layer name': '%s' and the layer on line %d both read as '%s' "
                             "(blanks, '=' and '#' become '_'): rename one", where, f[0], mxsim_trace_op(t, i)->line, op.name);
                break;
            }
        if (st != MXSIM_OK) break;
        if (nv == 4) {
            op.m = v[1];
            op.n = v[2];
            op.k = v[3];
        } else {
            if (v[3] > v[1] || v[4] > v[2]) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': filter larger than the input", where,
                             v[3] > v[1] ? "Filter Height" : "Filter Width");
                break;
            }
            /* the 9th value is the column stride (v2's append_topo_arrays: `if i == 7 and len(elems) <
            ** 9`, the row stride is copied only when it is missing) */
            int64_t sh = v[7], sw = nv == 9 ? v[8] : v[7];
            int64_t ho = conv_out(v[1], v[3], sh, ss), wo = conv_out(v[2], v[4], sw, ss);
            op.m = ho * wo;            /* im2col: one row per output pixel (<= 2^62: no overflow) */
            /* SCALE-Sim's topology convention: depthwise, a layer per channel.  It says what the
            ** layer is, so the native mode reads it too (it read a dense K = Fh Fw C until session 20) */
            if (strstr(f[0], "DP") != NULL) {
                op.repeat = v[5];
                v[5] = 1;
                if (n_dp++ == 0) first_dp = cur.line;
            }
            /* Fh * Fw * C_in: each <= 2^31, so the product could overflow int64 (found in review,
            ** reproduced under UBSan: tests/fuzz/crashes/scalesim_csv): check Fh * Fw (<= 2^62)
            ** against the bound first. */
            op.k = v[3] * v[4] > MX_T_MAX_DIM / v[5] ? MX_T_MAX_DIM + 1 : v[3] * v[4] * v[5];
            op.conv_h = v[1], op.conv_w = v[2], op.conv_fh = v[3], op.conv_fw = v[4];
            op.conv_c = v[5], op.conv_s = mx_t_conv_pack_s(sh, sw);
            op.n = v[6];               /* filters */
            if (op.m > MX_T_MAX_DIM || op.k > MX_T_MAX_DIM) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: im2col dims overflow 2^31", where);
                break;
            }
        }
        st = mxsim_trace_append(ctx, t, &op);
        if (st == MXSIM_OK) st = mxsim_trace_set_b_role(ctx, t, t->n - 1, MXSIM_ROLE_WEIGHT); /* the filter */
    }
    free(names_changed);
    /* a topology of no layer (its header alone): `run` refused it, `trace check` said ok, convert
    ** wrote an empty trace; one rule for all */
    if (st == MXSIM_OK && t->n == 0) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: no layer rows after the header", path);
    /* SCALE-Sim keeps a row's values up to its last comma: without the trailing one it reads a
    ** value fewer and stops (IndexError), so such a file has no SCALE-Sim result to compare with */
    if (st == MXSIM_OK && n_dp)
        mx_note(ctx, "%s:%d: a conv row whose name contains DP is read as depthwise, SCALE-Sim's convention: one "
                "1-channel layer per input channel (%d such rows)", path, first_dp, n_dp);
    if (st == MXSIM_OK && n_nm)
        mx_note(ctx, "%s:%d: an N:M sparsity ratio (%d row%s): SCALE-Sim v3 with SparsitySupport off times such layers "
                "dense and so does mxsim (v3's sparse timing is not modelled: SparsitySupport true is refused)", path,
                first_nm, n_nm, n_nm == 1 ? "" : "s");
    if (st == MXSIM_OK && n_no_comma)
        mx_note(ctx, "%s:%d: a row without its trailing comma (%d such rows): SCALE-Sim drops a row's text after the "
                "last comma, reads a value fewer and stops on it; mxsim reads every value (--require-comma refuses such "
                "rows)", path, first_no_comma, n_no_comma);
    return close_text_trace(st, buf, t, out);
}

/* ---- writing ------------------------------------------------------------------------------ */

MXSIM_API mxsim_status mxsim_trace_format(mxsim_ctx *ctx, const mxsim_trace *t, char **text, size_t *len)
{
    mx_clear_err(ctx);
    if (t == NULL || text == NULL || len == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_format: NULL");
    size_t cap = 128 + (size_t)t->n * 260 + (size_t)t->n_params * 160, n = 0;
    char *buf = malloc(cap);
    if (buf == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "trace_save: out of memory");
    int v2 = t->n_params > 0;  /* version 1 unless a version-2 attribute is present */
    for (int64_t i = 0; !v2 && t->bop && i < t->n; i++) v2 = t->bop[i].role != MXSIM_ROLE_UNSET;
    n += (size_t)mx_snprintf(buf + n, cap - n, "mxsim-trace %d\n", v2 ? 2 : 1);
    for (int64_t i = 0; i < t->n_params; i++) {
        const mx_tparam *p = &t->params[i];
        n += (size_t)mx_snprintf(buf + n, cap - n, "param name=%s elems=%lld", p->name, (long long)p->elems);
        if (p->count != 1) n += (size_t)mx_snprintf(buf + n, cap - n, " count=%lld", (long long)p->count);
        n += (size_t)mx_snprintf(buf + n, cap - n, " why=%s\n", p->why);
    }
    for (int64_t i = 0; i < t->n; i++) {
        const mxsim_top *o = &t->ops[i];
        n += (size_t)mx_snprintf(buf + n, cap - n, "%s name=%s m=%lld n=%lld", mxsim_op_kind_name((mxsim_op_kind)o->kind), o->name,
                              (long long)o->m, (long long)o->n);
        if (o->kind == MXSIM_OP_GEMM) n += (size_t)mx_snprintf(buf + n, cap - n, " k=%lld", (long long)o->k);
        if (o->group_size > 0) n += (size_t)mx_snprintf(buf + n, cap - n, " group=%lld", (long long)o->group_size);
        if (o->repeat != 1) n += (size_t)mx_snprintf(buf + n, cap - n, " repeat=%lld", (long long)o->repeat);
        if (o->a_fmt >= 0) n += (size_t)mx_snprintf(buf + n, cap - n, " a=%s", mxsim_operand_fmt_name((mxsim_operand_fmt)o->a_fmt));
        if (o->b_fmt >= 0) n += (size_t)mx_snprintf(buf + n, cap - n, " b=%s", mxsim_operand_fmt_name((mxsim_operand_fmt)o->b_fmt));
        if (o->out_fmt >= 0) n += (size_t)mx_snprintf(buf + n, cap - n, " out=%s", mxsim_out_fmt_name((mxsim_out_fmt)o->out_fmt));
        if (mxsim_trace_b_role(t, i) != MXSIM_ROLE_UNSET)
            n += (size_t)mx_snprintf(buf + n, cap - n, " b_role=%s", k_role_names[t->bop[i].role]);
        if (mxsim_trace_b_tensors(t, i) != 0)
            n += (size_t)mx_snprintf(buf + n, cap - n, " b_tensors=%lld",
                                     (long long)(t->bop[i].tensors == MXSIM_B_VIEW ? 0 : t->bop[i].tensors));
        n += (size_t)mx_snprintf(buf + n, cap - n, "\n");
    }
    *text = buf;
    *len = n;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_trace_save(mxsim_ctx *ctx, const mxsim_trace *t, const char *path)
{
    if (t == NULL || path == NULL) return mx_fail(ctx, MXSIM_E_ARG, "trace_save: NULL");
    /* a .csv trace is read back as a SCALE-Sim topology: refuse rather than write what no
    ** reader accepts */
    if (is_topology_path(path))
        return mx_fail(ctx, MXSIM_E_ARG, "%s: a .csv trace is read as a SCALE-Sim topology, which the "
                       "text format is not; name the output .trace (or .gz)", path);
    char *buf = NULL;
    size_t n = 0;
    mxsim_status st = mxsim_trace_format(ctx, t, &buf, &n);
    if (st != MXSIM_OK) return st;
    if (ends_with(path, ".gz")) {
        uLongf zcap = (uLongf)compressBound((uLong)n) + 64;
        unsigned char *z = malloc(zcap);
        if (z == NULL) {
            free(buf);
            return mx_fail(ctx, MXSIM_E_NOMEM, "trace_save: out of memory");
        }
        /* gzip wrapper via deflateInit2 (windowBits 16 + 15) */
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        if (deflateInit2(&zs, 9, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(buf);
            free(z);
            return mx_fail(ctx, MXSIM_E_INTERNAL, "trace_save: deflateInit2 failed");
        }
        zs.next_in = (Bytef *)buf;
        zs.avail_in = (uInt)n;
        zs.next_out = z;
        zs.avail_out = (uInt)zcap;
        int r = deflate(&zs, Z_FINISH);
        size_t zn = zcap - zs.avail_out;
        deflateEnd(&zs);
        if (r != Z_STREAM_END) st = mx_fail(ctx, MXSIM_E_INTERNAL, "trace_save: deflate failed");
        else st = mx_file_write(ctx, path, z, zn);
        free(z);
    } else {
        st = mx_file_write(ctx, path, buf, n);
    }
    free(buf);
    return st;
}

/* ---- access traces of detailed mode -------------------------------------------------------- */

/* Streams text records through deflate (gzip wrapper) into a temporary file next to the
** destination; mx_tacc_close(commit = 1) fsyncs and renames it, so the destination is either
** untouched or complete.  Write errors are remembered and reported once, at close. */
struct mx_tacc {
    char *path, *tmp;
    FILE *f;
    z_stream zs;
    int z_ok, err;
    char text[1 << 16];
    size_t n;
    unsigned char out[1 << 16];
};

static void tacc_deflate(mx_tacc *w, int flush)
{
    w->zs.next_in = (Bytef *)w->text;
    w->zs.avail_in = (uInt)w->n;
    do {
        w->zs.next_out = w->out;
        w->zs.avail_out = (uInt)sizeof w->out;
        int r = deflate(&w->zs, flush);
        if (r == Z_STREAM_ERROR) {
            w->err = 1;
            break;
        }
        size_t have = sizeof w->out - w->zs.avail_out;
        if (have > 0 && fwrite(w->out, 1, have, w->f) != have) w->err = 1;
    } while (w->zs.avail_out == 0 || (flush == Z_FINISH && w->zs.avail_in > 0));
    w->n = 0;
}

mxsim_status mx_tacc_open(mxsim_ctx *ctx, const char *path, mx_tacc **out)
{
    *out = NULL;
    mx_tacc *w = mx_calloc(1, sizeof *w);
    size_t L = strlen(path);
    if (w == NULL || (w->path = malloc(L + 1)) == NULL || (w->tmp = malloc(L + 16)) == NULL) {
        if (w) free(w->path);
        free(w);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    memcpy(w->path, path, L + 1);
    mxsim_status ci = mx_check_not_input(ctx, path);
    if (ci != MXSIM_OK) {
        free(w->tmp);
        free(w->path);
        free(w);
        return ci;
    }
    mx_snprintf(w->tmp, L + 16, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(w->tmp);
    /* mkstemp makes the file 0600: give it ordinary permissions */
    if (fd < 0 || fchmod(fd, 0644) != 0 || (w->f = fdopen(fd, "wb")) == NULL) {
        if (fd >= 0) {
            close(fd);
            unlink(w->tmp);
        }
        free(w->tmp);
        free(w->path);
        free(w);
        return mx_fail(ctx, MXSIM_E_IO, "%s: cannot create the access trace: %s", path, strerror(errno));
    }
    /* windowBits 15 + 16: gzip wrapper, readable by gzip -d and gzread */
    if (deflateInit2(&w->zs, 6, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        mx_tacc_close(ctx, w, 0);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: deflateInit2 failed", path);
    }
    w->z_ok = 1;
    w->n = (size_t)mx_snprintf(w->text, sizeof w->text,
                            "mxsim-access 1\n# cycle operand rw address bytes\n");
    *out = w;
    return MXSIM_OK;
}

void mx_tacc_rec(mx_tacc *w, int64_t cyc, const char *operand, char rw, int64_t addr, int64_t bytes)
{
    if (w == NULL || bytes <= 0) return;
    if (w->n + 96 > sizeof w->text) tacc_deflate(w, Z_NO_FLUSH);
    w->n += (size_t)mx_snprintf(w->text + w->n, sizeof w->text - w->n, "%lld %s %c %lld %lld\n",
                             (long long)cyc, operand, rw, (long long)addr, (long long)bytes);
}

mxsim_status mx_tacc_close(mxsim_ctx *ctx, mx_tacc *w, int commit)
{
    if (w == NULL) return MXSIM_OK;
    mxsim_status st = MXSIM_OK;
    if (commit && w->z_ok) tacc_deflate(w, Z_FINISH);
    if (w->z_ok) deflateEnd(&w->zs);
    if (commit) {
        if (fflush(w->f) != 0 || fsync(fileno(w->f)) != 0) w->err = 1;
    }
    if (fclose(w->f) != 0) w->err = 1;
    if (commit && w->err) st = mx_fail(ctx, MXSIM_E_IO, "%s: write error in the access trace", w->path);
    if (commit && st == MXSIM_OK && rename(w->tmp, w->path) != 0)
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot write the access trace: %s", w->path, strerror(errno));
    if (!commit || st != MXSIM_OK) unlink(w->tmp);
    free(w->tmp);
    free(w->path);
    free(w);
    return st;
}

/* npy.c - parser and encoder for NumPy .npy images held in memory.
**
** Reading: the preamble (magic "\x93NUMPY", version 1.0 / 2.0 / 3.0, header length) is checked,
** then the header, a Python dict literal such as
**     {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
** is parsed by a small recursive-descent parser that accepts what NumPy's literal_eval accepts
** for these three keys: any key order, either quote style, free whitespace, an optional
** trailing comma, and Python 2's "3L" integers.  Every key must appear exactly once and no
** other key is allowed (as in NumPy).
**
** Invariants: nothing is allocated until the header is fully validated and the declared data
** size (numel * item size, computed with overflow checks) equals the number of bytes actually
** present after the header; decoded tensors are in host byte order.  Every error message starts
** with the caller's `what` (file and member) and names the header field at fault.
**
** Writing: version 1.0 headers (2.0 only if the header would not fit 65535 bytes), padded with
** spaces and a final '\n' so the data starts at a multiple of 64 bytes, always little-endian
** descr ('<f4', '|i1', '|u1', '<u2', '<i8', '<U<n>'), fortran_order False.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy.h"

#define NPY_MAGIC "\x93NUMPY"
#define NPY_MAGIC_LEN 6
#define NPY_ALIGN 64
/* Longest string element we read: the profile member needs a few characters. */
#define NPY_MAX_STRING_UNITS ((size_t)1 << 20)

int mx_npy_host_is_big_endian(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b == 0;
}

static void swap_bytes(void *data, size_t n_items, size_t item_size)
{
    unsigned char *p = data;
    if (item_size < 2) return;
    for (size_t i = 0; i < n_items; i++, p += item_size)
        for (size_t a = 0, b = item_size - 1; a < b; a++, b--) {
            unsigned char t = p[a];
            p[a] = p[b];
            p[b] = t;
        }
}

/* ---- header parser ---------------------------------------------------------------------- */

typedef struct {
    mxsim_ctx *ctx;
    const char *what;
    const char *s; /* header text (not NUL-terminated) */
    size_t n;
    size_t i;
} hparser;

static void skip_ws(hparser *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static int peek(hparser *p) { return p->i < p->n ? (unsigned char)p->s[p->i] : -1; }

/* A short printable rendering of the byte at the cursor, for messages. */
static const char *near(hparser *p, char *buf, size_t cap)
{
    int c = peek(p);
    if (c < 0) mx_snprintf(buf, cap, "end of header");
    else if (c >= 0x20 && c < 0x7F) mx_snprintf(buf, cap, "'%c' at offset %zu", c, p->i);
    else mx_snprintf(buf, cap, "byte 0x%02x at offset %zu", (unsigned)c, p->i);
    return buf;
}

static mxsim_status expect(hparser *p, char c, const char *ctxmsg)
{
    char nb[48];
    skip_ws(p);
    if (peek(p) != (unsigned char)c)
        return mx_fail(p->ctx, MXSIM_E_FORMAT, "%s: header: expected '%c' %s, found %s", p->what, c,
                       ctxmsg, near(p, nb, sizeof nb));
    p->i++;
    return MXSIM_OK;
}

/* Parses a quoted Python string; start and len span its contents inside the header. */
static mxsim_status parse_str(hparser *p, const char *field, size_t *start, size_t *len)
{
    char nb[48];
    skip_ws(p);
    int q = peek(p);
    if (q != '\'' && q != '"')
        return mx_fail(p->ctx, MXSIM_E_FORMAT, "%s: header: %s: expected a quoted string, found %s",
                       p->what, field, near(p, nb, sizeof nb));
    size_t s0 = ++p->i;
    while (p->i < p->n && p->s[p->i] != (char)q) {
        if (p->s[p->i] == '\n') break; /* Python strings cannot span lines */
        if (p->s[p->i] == '\\')
            return mx_fail(p->ctx, MXSIM_E_FORMAT,
                           "%s: header: %s: escapes in strings are not supported", p->what, field);
        p->i++;
    }
    if (p->i >= p->n || p->s[p->i] != (char)q)
        return mx_fail(p->ctx, MXSIM_E_FORMAT, "%s: header: %s: unterminated string", p->what,
                       field);
    *start = s0;
    *len = p->i - s0;
    p->i++;
    return MXSIM_OK;
}

static int span_is(hparser *p, size_t start, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(p->s + start, word, len) == 0;
}

static mxsim_status parse_bool(hparser *p, int *out)
{
    char nb[48];
    skip_ws(p);
    if (p->n - p->i >= 4 && memcmp(p->s + p->i, "True", 4) == 0) {
        p->i += 4;
        *out = 1;
    } else if (p->n - p->i >= 5 && memcmp(p->s + p->i, "False", 5) == 0) {
        p->i += 5;
        *out = 0;
    } else {
        return mx_fail(p->ctx, MXSIM_E_FORMAT,
                       "%s: header: 'fortran_order': expected True or False, found %s", p->what,
                       near(p, nb, sizeof nb));
    }
    /* "Falsey" is not False. */
    int c = peek(p);
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')
        return mx_fail(p->ctx, MXSIM_E_FORMAT,
                       "%s: header: 'fortran_order': expected True or False, found %s", p->what,
                       near(p, nb, sizeof nb));
    return MXSIM_OK;
}

static mxsim_status parse_shape(hparser *p, int *ndim, int64_t *shape)
{
    char nb[48];
    mxsim_status st = expect(p, '(', "to open the 'shape' tuple");
    if (st != MXSIM_OK) return st;
    int n = 0, trailing_comma = 0;
    for (;;) {
        skip_ws(p);
        if (peek(p) == ')') {
            p->i++;
            break;
        }
        if (n > 0 && !trailing_comma)
            return mx_fail(p->ctx, MXSIM_E_FORMAT,
                           "%s: header: 'shape': expected ',' or ')' after dimension %d, found %s",
                           p->what, n - 1, near(p, nb, sizeof nb));
        if (peek(p) == '-')
            return mx_fail(p->ctx, MXSIM_E_FORMAT, "%s: header: 'shape': negative dimension %d",
                           p->what, n);
        if (peek(p) < '0' || peek(p) > '9')
            return mx_fail(p->ctx, MXSIM_E_FORMAT,
                           "%s: header: 'shape': expected a non-negative integer, found %s",
                           p->what, near(p, nb, sizeof nb));
        uint64_t v = 0;
        int big = 0;
        while (peek(p) >= '0' && peek(p) <= '9') {
            unsigned d = (unsigned)(peek(p) - '0');
            if (v > ((uint64_t)INT64_MAX - d) / 10) big = 1;
            else v = v * 10 + d;
            p->i++;
        }
        if (peek(p) == 'L' || peek(p) == 'l') p->i++; /* Python 2 long literal */
        if (big)
            return mx_fail(p->ctx, MXSIM_E_LIMIT,
                           "%s: header: 'shape': dimension %d does not fit a 64-bit integer",
                           p->what, n);
        if (n == MXSIM_MAX_DIMS)
            return mx_fail(p->ctx, MXSIM_E_LIMIT,
                           "%s: header: 'shape': more than %d dimensions are not supported",
                           p->what, MXSIM_MAX_DIMS);
        shape[n++] = (int64_t)v;
        skip_ws(p);
        trailing_comma = 0;
        if (peek(p) == ',') {
            p->i++;
            trailing_comma = 1;
        }
    }
    /* "(3)" is the integer 3 in Python, not a tuple: NumPy refuses it too. */
    if (n == 1 && !trailing_comma)
        return mx_fail(p->ctx, MXSIM_E_FORMAT,
                       "%s: header: 'shape': (%lld) is not a tuple, a 1-d shape is written (%lld,)",
                       p->what, (long long)shape[0], (long long)shape[0]);
    *ndim = n;
    return MXSIM_OK;
}

/* Fills kind/dtype/item_size/big-endianness from the descr string; MXSIM_E_UNSUPPORTED for
** anything else. */
static mxsim_status map_descr(mxsim_ctx *ctx, const char *what, mx_npy_header *h, int *big)
{
    static const struct {
        const char *descr;
        mxsim_dtype dtype;
        int big;
    } k_map[] = {
        {"<f4", MXSIM_DTYPE_F32, 0}, {">f4", MXSIM_DTYPE_F32, 1}, {"|i1", MXSIM_DTYPE_I8, 0},
        {"<i1", MXSIM_DTYPE_I8, 0},  {">i1", MXSIM_DTYPE_I8, 0},  {"|u1", MXSIM_DTYPE_U8, 0},
        {"<u1", MXSIM_DTYPE_U8, 0},  {">u1", MXSIM_DTYPE_U8, 0},  {"<u2", MXSIM_DTYPE_U16, 0},
        {">u2", MXSIM_DTYPE_U16, 1}, {"<i8", MXSIM_DTYPE_I64, 0}, {">i8", MXSIM_DTYPE_I64, 1},
        {"<i4", MXSIM_DTYPE_I32, 0}, {">i4", MXSIM_DTYPE_I32, 1},
    };
    const char *d = h->descr;
    for (size_t i = 0; i < sizeof k_map / sizeof k_map[0]; i++)
        if (strcmp(d, k_map[i].descr) == 0) {
            h->kind = MX_NPY_NUMERIC;
            h->dtype = k_map[i].dtype;
            h->item_size = mxsim_dtype_size(h->dtype);
            *big = k_map[i].big;
            return MXSIM_OK;
        }
    /* Any other integer width or byte order: read as a metadata scalar only (MX_NPY_INT). */
    if ((d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=') && (d[1] == 'i' || d[1] == 'u') &&
        (d[2] == '1' || d[2] == '2' || d[2] == '4' || d[2] == '8') && d[3] == '\0') {
        h->kind = MX_NPY_INT;
        h->item_size = (size_t)(d[2] - '0');
        h->int_signed = d[1] == 'i';
        h->dtype = MXSIM_DTYPE_U8;
        *big = d[0] == '>' || (d[0] == '=' && mx_npy_host_is_big_endian());
        return MXSIM_OK;
    }
    /* Strings: [<>|=]U<n> (UCS-4 code units) and [|<>=]S<n> (bytes). */
    if ((d[0] == '<' || d[0] == '>' || d[0] == '|' || d[0] == '=') &&
        (d[1] == 'U' || d[1] == 'S') && d[2] >= '0' && d[2] <= '9') {
        size_t units = 0;
        const char *q = d + 2;
        for (; *q >= '0' && *q <= '9'; q++)
            if (units <= NPY_MAX_STRING_UNITS) units = units * 10 + (size_t)(*q - '0');
        if (*q == '\0') {
            if (units > NPY_MAX_STRING_UNITS)
                return mx_fail(ctx, MXSIM_E_LIMIT,
                               "%s: header: 'descr': string type '%s' longer than %zu characters",
                               what, d, NPY_MAX_STRING_UNITS);
            if (d[1] == 'U') {
                h->kind = MX_NPY_UNICODE;
                h->item_size = 4 * units;
                *big = d[0] == '>' || (d[0] == '=' && mx_npy_host_is_big_endian());
            } else {
                h->kind = MX_NPY_BYTES;
                h->item_size = units;
                *big = 0;
            }
            h->dtype = MXSIM_DTYPE_U8;
            return MXSIM_OK;
        }
    }
    return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                   "%s: header: 'descr': dtype '%s' is not supported (supported: '<f4', '|i1', "
                   "'|u1', '<u2', '<i4', '<i8' in either byte order)",
                   what, d);
}

mxsim_status mx_npy_parse(mxsim_ctx *ctx, const char *what, const uint8_t *img, size_t len,
                          mx_npy_header *h)
{
    char nb[48], sb[200];
    mxsim_status st;
    memset(h, 0, sizeof *h);
    if (len == 0)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: empty file (0 bytes), expected a .npy image",
                       what);
    if (memcmp(img, NPY_MAGIC, len < NPY_MAGIC_LEN ? len : NPY_MAGIC_LEN) != 0)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: bad magic: not a .npy file (expected \\x93NUMPY at offset 0)", what);
    if (len < NPY_MAGIC_LEN + 4)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: truncated: %zu bytes, file ends inside the .npy "
                       "preamble", what, len);
    unsigned major = img[6], minor = img[7];
    if (major < 1 || major > 3 || minor != 0)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                       "%s: .npy format version %u.%u is not supported (1.0, 2.0, 3.0 are)", what,
                       major, minor);
    size_t hstart, hlen;
    if (major == 1) {
        hstart = 10;
        hlen = (size_t)img[8] | (size_t)img[9] << 8;
    } else {
        if (len < 12)
            return mx_fail(ctx, MXSIM_E_FORMAT,
                           "%s: truncated: %zu bytes, file ends inside the .npy preamble", what,
                           len);
        hstart = 12;
        hlen = (size_t)img[8] | (size_t)img[9] << 8 | (size_t)img[10] << 16 |
               (size_t)img[11] << 24;
    }
    if (hlen > len - hstart)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: truncated: header length field says %zu bytes, file holds %zu after "
                       "the preamble",
                       what, hlen, len - hstart);

    hparser p = {ctx, what, (const char *)img + hstart, hlen, 0};
    int have_descr = 0, have_fortran = 0, have_shape = 0, fortran = 0;
    if ((st = expect(&p, '{', "to open the header dict")) != MXSIM_OK) return st;
    for (;;) {
        skip_ws(&p);
        if (peek(&p) == '}') {
            p.i++;
            break;
        }
        size_t ks, kl;
        if ((st = parse_str(&p, "key", &ks, &kl)) != MXSIM_OK) return st;
        if ((st = expect(&p, ':', "after a key")) != MXSIM_OK) return st;
        if (span_is(&p, ks, kl, "descr")) {
            if (have_descr++)
                return mx_fail(ctx, MXSIM_E_FORMAT, "%s: header: 'descr': key repeated", what);
            size_t vs, vl;
            skip_ws(&p);
            if (peek(&p) == '[')
                return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                               "%s: header: 'descr': structured dtypes are not supported", what);
            if ((st = parse_str(&p, "'descr'", &vs, &vl)) != MXSIM_OK) return st;
            if (vl >= sizeof h->descr)
                return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                               "%s: header: 'descr': dtype '%.*s...' is not supported", what, 16,
                               p.s + vs);
            memcpy(h->descr, p.s + vs, vl);
            h->descr[vl] = '\0';
        } else if (span_is(&p, ks, kl, "fortran_order")) {
            if (have_fortran++)
                return mx_fail(ctx, MXSIM_E_FORMAT, "%s: header: 'fortran_order': key repeated",
                               what);
            if ((st = parse_bool(&p, &fortran)) != MXSIM_OK) return st;
        } else if (span_is(&p, ks, kl, "shape")) {
            if (have_shape++)
                return mx_fail(ctx, MXSIM_E_FORMAT, "%s: header: 'shape': key repeated", what);
            if ((st = parse_shape(&p, &h->ndim, h->shape)) != MXSIM_OK) return st;
        } else {
            return mx_fail(ctx, MXSIM_E_FORMAT,
                           "%s: header: unexpected key '%.*s' (a .npy header holds exactly "
                           "'descr', 'fortran_order' and 'shape')",
                           what, kl > 40 ? 40 : (int)kl, p.s + ks);
        }
        skip_ws(&p);
        if (peek(&p) == ',') p.i++;
        else if (peek(&p) != '}')
            return mx_fail(ctx, MXSIM_E_FORMAT,
                           "%s: header: expected ',' or '}' after a dict entry, found %s", what,
                           near(&p, nb, sizeof nb));
    }
    skip_ws(&p);
    if (p.i != p.n)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: header: unexpected %s after the dict", what,
                       near(&p, nb, sizeof nb));
    if (!have_descr || !have_fortran || !have_shape)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: header: missing key '%s'", what,
                       !have_descr ? "descr" : !have_fortran ? "fortran_order" : "shape");

    int big = 0;
    if ((st = map_descr(ctx, what, h, &big)) != MXSIM_OK) return st;
    h->big_endian = big;
    h->swap = h->kind == MX_NPY_NUMERIC && h->item_size > 1 && big != mx_npy_host_is_big_endian();

    int64_t numel = mx_shape_numel(h->ndim, h->shape);
    if (numel < 0)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: header: 'shape': %s: element count overflows",
                       what, mx_shape_str(h->ndim, h->shape, sb, sizeof sb));
    if (h->item_size > 0 && numel > MX_MAX_TENSOR_BYTES / (int64_t)h->item_size)
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s: header: 'shape': %s of '%s' exceeds the 64 GiB tensor limit", what,
                       mx_shape_str(h->ndim, h->shape, sb, sizeof sb), h->descr);
    /* Fortran order only matters when two or more dimensions exceed 1. */
    int long_dims = 0;
    for (int d = 0; d < h->ndim; d++) long_dims += h->shape[d] > 1;
    if (fortran && long_dims > 1 && numel > 0)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                       "%s: header: 'fortran_order': True is not supported for shape %s (save a "
                       "C-ordered array, e.g. np.ascontiguousarray(a))",
                       what, mx_shape_str(h->ndim, h->shape, sb, sizeof sb));
    h->numel = numel;
    h->data_offset = hstart + hlen;
    h->data_len = (size_t)numel * h->item_size;
    size_t have = len - h->data_offset;
    if (have < h->data_len)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: truncated: header declares %zu bytes of data, file holds %zu", what,
                       h->data_len, have);
    if (have > h->data_len)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: trailing data: header declares %zu bytes of data, file holds %zu", what,
                       h->data_len, have);
    return MXSIM_OK;
}

mxsim_status mx_npy_decode(mxsim_ctx *ctx, const char *what, const uint8_t *img, size_t len,
                           mxsim_tensor **out)
{
    mx_npy_header h;
    *out = NULL;
    mxsim_status st = mx_npy_parse(ctx, what, img, len, &h);
    if (st != MXSIM_OK) return st;
    if (h.kind == MX_NPY_INT)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                       "%s: header: 'descr': dtype '%s' is not supported (supported: '<f4', '|i1', "
                       "'|u1', '<u2', '<i4', '<i8' in either byte order)", what, h.descr);
    if (h.kind != MX_NPY_NUMERIC)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                       "%s: header: 'descr': '%s' is a string array, expected a numeric one", what,
                       h.descr);
    mxsim_tensor *t;
    st = mx_tensor_new(ctx, h.dtype, h.ndim, h.shape, &t);
    if (st != MXSIM_OK) {
        /* mx_tensor_new does not know the file name: prefix it. */
        if (ctx != NULL) {
            char msg[MX_ERRMSG_LEN];
            memcpy(msg, ctx->err, sizeof msg);
            mx_fail(ctx, st, "%s: %s", what, msg);
        }
        return st;
    }
    memcpy(t->data, img + h.data_offset, h.data_len);
    if (h.swap) swap_bytes(t->data, (size_t)h.numel, h.item_size);
    *out = t;
    return MXSIM_OK;
}

static int utf8_put(uint32_t cp, char *o)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xC0 | cp >> 6);
        o[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xE0 | cp >> 12);
        o[1] = (char)(0x80 | (cp >> 6 & 0x3F));
        o[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | cp >> 18);
    o[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    o[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    o[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

mxsim_status mx_npy_decode_string(mxsim_ctx *ctx, const char *what, const uint8_t *img, size_t len,
                                  char **out)
{
    mx_npy_header h;
    char sb[200];
    *out = NULL;
    mxsim_status st = mx_npy_parse(ctx, what, img, len, &h);
    if (st != MXSIM_OK) return st;
    if (h.kind == MX_NPY_NUMERIC)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: dtype '%s', expected a string ('<U' or '|S')",
                       what, h.descr);
    if (h.numel != 1)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: shape %s, expected a single string (a 0-d array)",
                       what, mx_shape_str(h.ndim, h.shape, sb, sizeof sb));
    const uint8_t *d = img + h.data_offset;
    size_t units = h.kind == MX_NPY_UNICODE ? h.item_size / 4 : h.item_size;
    char *s = malloc(units * 4 + 1);
    if (s == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", what);
    size_t o = 0, end = units;
    if (h.kind == MX_NPY_UNICODE) {
        /* NumPy pads with NUL code units; they are not part of the value. */
        while (end > 0) {
            const uint8_t *u = d + 4 * (end - 1);
            if (u[0] | u[1] | u[2] | u[3]) break;
            end--;
        }
        for (size_t i = 0; i < end; i++) {
            const uint8_t *u = d + 4 * i;
            uint32_t cp =
                h.big_endian
                    ? (uint32_t)u[0] << 24 | (uint32_t)u[1] << 16 | (uint32_t)u[2] << 8 | u[3]
                    : (uint32_t)u[3] << 24 | (uint32_t)u[2] << 16 | (uint32_t)u[1] << 8 | u[0];
            if (cp == 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                free(s);
                if (cp == 0)
                    return mx_fail(ctx, MXSIM_E_FORMAT, "%s: string: embedded NUL at character %zu",
                                   what, i);
                return mx_fail(ctx, MXSIM_E_FORMAT,
                               "%s: string: invalid code point 0x%lx at character %zu", what,
                               (unsigned long)cp, i);
            }
            o += (size_t)utf8_put(cp, s + o);
        }
    } else {
        while (end > 0 && d[end - 1] == 0) end--;
        for (size_t i = 0; i < end; i++) {
            if (d[i] == 0) {
                free(s);
                return mx_fail(ctx, MXSIM_E_FORMAT, "%s: string: embedded NUL at byte %zu", what,
                               i);
            }
            s[o++] = (char)d[i];
        }
    }
    s[o] = '\0';
    *out = s;
    return MXSIM_OK;
}

/* ---- encoder ---------------------------------------------------------------------------- */

static mxsim_status build_header(mxsim_ctx *ctx, const char *what, const char *descr, int ndim,
                                 const int64_t *shape, uint8_t *hdr, size_t cap, size_t *hdr_len)
{
    char sb[256], dict[400];
    if (ndim < 0 || ndim > MXSIM_MAX_DIMS)
        return mx_fail(ctx, MXSIM_E_ARG, "%s: ndim=%d: must be 0..%d", what, ndim, MXSIM_MAX_DIMS);
    int dl = mx_snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                      descr, mx_shape_str(ndim, shape, sb, sizeof sb));
    if (dl < 0 || (size_t)dl >= sizeof dict)
        return mx_fail(ctx, MXSIM_E_INTERNAL, "%s: .npy header does not fit its buffer", what);
    /* Pad with spaces and end with '\n' so that the data is 64-byte aligned (as NumPy does). */
    size_t pre = 10;
    size_t total = pre + (size_t)dl + 1;
    total += (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    if (total - pre > 65535) {
        pre = 12; /* version 2.0: 4-byte header length */
        total = pre + (size_t)dl + 1;
        total += (NPY_ALIGN - total % NPY_ALIGN) % NPY_ALIGN;
    }
    if (total > cap)
        return mx_fail(ctx, MXSIM_E_INTERNAL, "%s: .npy header of %zu bytes exceeds its buffer",
                       what, total);
    size_t hl = total - pre;
    memcpy(hdr, NPY_MAGIC, NPY_MAGIC_LEN);
    hdr[6] = pre == 10 ? 1 : 2;
    hdr[7] = 0;
    for (size_t i = 0; i < pre - 8; i++) hdr[8 + i] = (uint8_t)(hl >> (8 * i));
    memcpy(hdr + pre, dict, (size_t)dl);
    memset(hdr + pre + dl, ' ', total - pre - (size_t)dl - 1);
    hdr[total - 1] = '\n';
    *hdr_len = total;
    return MXSIM_OK;
}

static const char *dtype_descr(mxsim_dtype t)
{
    switch (t) {
    case MXSIM_DTYPE_F32: return "<f4";
    case MXSIM_DTYPE_BF16: return "<u2"; /* NumPy has no bfloat16: bit patterns as uint16 */
    case MXSIM_DTYPE_I8: return "|i1";
    case MXSIM_DTYPE_U8: return "|u1";
    case MXSIM_DTYPE_U16: return "<u2";
    case MXSIM_DTYPE_I64: return "<i8";
    case MXSIM_DTYPE_I32: return "<i4";
    default: return NULL;
    }
}

mxsim_status mx_npy_encode_header(mxsim_ctx *ctx, const char *what, mxsim_dtype dtype, int ndim,
                                  const int64_t *shape, uint8_t *hdr, size_t cap, size_t *hdr_len)
{
    const char *descr = dtype_descr(dtype);
    if (descr == NULL) return mx_fail(ctx, MXSIM_E_ARG, "%s: dtype %d: unknown", what, (int)dtype);
    return build_header(ctx, what, descr, ndim, shape, hdr, cap, hdr_len);
}

mxsim_status mx_npy_encode(mxsim_ctx *ctx, const char *what, const mxsim_tensor *t, uint8_t **img,
                           size_t *len)
{
    uint8_t hdr[MX_NPY_HEADER_MAX];
    size_t hl;
    *img = NULL;
    *len = 0;
    mxsim_status st = mx_npy_encode_header(ctx, what, t->dtype, t->ndim, t->shape, hdr, sizeof hdr,
                                           &hl);
    if (st != MXSIM_OK) return st;
    size_t esz = mxsim_dtype_size(t->dtype);
    size_t dl = (size_t)t->numel * esz;
    uint8_t *buf = malloc(hl + dl);
    if (buf == NULL)
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory encoding %zu bytes", what, hl + dl);
    memcpy(buf, hdr, hl);
    memcpy(buf + hl, t->data, dl);
    if (mx_npy_host_is_big_endian()) swap_bytes(buf + hl, (size_t)t->numel, esz);
    *img = buf;
    *len = hl + dl;
    return MXSIM_OK;
}

mxsim_status mx_npy_encode_string(mxsim_ctx *ctx, const char *what, const char *s, uint8_t **img,
                                  size_t *len)
{
    uint8_t hdr[MX_NPY_HEADER_MAX];
    char descr[32];
    size_t hl, n = strlen(s);
    *img = NULL;
    *len = 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80)
            return mx_fail(ctx, MXSIM_E_ARG, "%s: string: only ASCII is supported", what);
    if (n > NPY_MAX_STRING_UNITS)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: string: longer than %zu characters", what,
                       NPY_MAX_STRING_UNITS);
    size_t units = n ? n : 1; /* NumPy's dtype for '' is '<U1' */
    mx_snprintf(descr, sizeof descr, "<U%zu", units);
    mxsim_status st = build_header(ctx, what, descr, 0, NULL, hdr, sizeof hdr, &hl);
    if (st != MXSIM_OK) return st;
    uint8_t *buf = calloc(hl + 4 * units, 1);
    if (buf == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", what);
    memcpy(buf, hdr, hl);
    for (size_t i = 0; i < n; i++) buf[hl + 4 * i] = (uint8_t)s[i]; /* UCS-4 little-endian */
    *img = buf;
    *len = hl + 4 * units;
    return MXSIM_OK;
}

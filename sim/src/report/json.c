/* json.c - strict JSON reader (json.h).  Grammar: RFC 8259 sections 2-7. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/grow.h"
#include "report/json.h"

typedef struct {
    mxsim_ctx *ctx;
    const char *path;
    const char *p, *end;
    int line;
    mx_json *j;
    char *w; /* write cursor in j->strs */
} parser;

static mxsim_status bad(parser *ps, const char *why)
{
    return mx_fail(ps->ctx, MXSIM_E_INPUT, "%s:%d: field 'json': %s", ps->path, ps->line, why);
}

static void skip_ws(parser *ps)
{
    while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r')) {
        if (*ps->p == '\n') ps->line++;
        ps->p++;
    }
}

static int new_node(parser *ps, mx_json_type t)
{
    mx_json *j = ps->j;
    if (j->n >= MX_JSON_MAX_NODES) return -1;
    mx_json_node *nn = mx_grow(j->node, &j->cap, j->n, sizeof *nn);
    if (nn == NULL) return -2;
    j->node = nn;
    j->node[j->n] = (mx_json_node){t, ps->line, 0, -1, -1, NULL, NULL, 0};
    return j->n++;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
        else return -1;
    }
    *out = v;
    return 0;
}

/* Decodes the string at ps->p (on its opening quote) into ps->w; *out: its start. */
static mxsim_status parse_string(parser *ps, const char **out)
{
    char *w = ps->w;
    *out = w;
    ps->p++;
    for (;;) {
        if (ps->p >= ps->end) return bad(ps, "string not closed");
        unsigned char c = (unsigned char)*ps->p++;
        if (c == '"') break;
        if (c < 0x20) return bad(ps, "control character in a string");
        if (c != '\\') {
            *w++ = (char)c;
            continue;
        }
        if (ps->p >= ps->end) return bad(ps, "string not closed");
        char e = *ps->p++;
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e != '\0' && simple != NULL && e != 'u') {
            static const char map[] = "\"\\/\b\f\n\r\t";
            *w++ = map[simple - "\"\\/bfnrt"];
            continue;
        }
        unsigned u, u2;
        if (e != 'u' || ps->end - ps->p < 4 || hex4(ps->p, &u) != 0) return bad(ps, "bad escape in a string");
        ps->p += 4;
        if (u >= 0xD800 && u <= 0xDBFF) { /* a surrogate pair */
            if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' || hex4(ps->p + 2, &u2) != 0 ||
                u2 < 0xDC00 || u2 > 0xDFFF)
                return bad(ps, "unpaired surrogate in a string");
            ps->p += 6;
            u = 0x10000 + ((u - 0xD800) << 10) + (u2 - 0xDC00);
        } else if (u >= 0xDC00 && u <= 0xDFFF) {
            return bad(ps, "unpaired surrogate in a string");
        }
        if (u == 0) return bad(ps, "\\u0000 in a string");
        if (u < 0x80) *w++ = (char)u;
        else if (u < 0x800) {
            *w++ = (char)(0xC0 | (u >> 6));
            *w++ = (char)(0x80 | (u & 0x3F));
        } else if (u < 0x10000) {
            *w++ = (char)(0xE0 | (u >> 12));
            *w++ = (char)(0x80 | ((u >> 6) & 0x3F));
            *w++ = (char)(0x80 | (u & 0x3F));
        } else {
            *w++ = (char)(0xF0 | (u >> 18));
            *w++ = (char)(0x80 | ((u >> 12) & 0x3F));
            *w++ = (char)(0x80 | ((u >> 6) & 0x3F));
            *w++ = (char)(0x80 | (u & 0x3F));
        }
    }
    *w++ = '\0';
    ps->w = w;
    return MXSIM_OK;
}

static mxsim_status parse_number(parser *ps, double *out)
{
    const char *s = ps->p, *q = s;
    if (q < ps->end && *q == '-') q++;
    if (q >= ps->end || !(*q >= '0' && *q <= '9')) return bad(ps, "expected a value");
    if (*q == '0') q++;
    else while (q < ps->end && *q >= '0' && *q <= '9') q++;
    if (q < ps->end && *q == '.') {
        q++;
        if (q >= ps->end || !(*q >= '0' && *q <= '9')) return bad(ps, "bad number");
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    if (q < ps->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < ps->end && (*q == '+' || *q == '-')) q++;
        if (q >= ps->end || !(*q >= '0' && *q <= '9')) return bad(ps, "bad number");
        while (q < ps->end && *q >= '0' && *q <= '9') q++;
    }
    char tmp[64];
    if (q - s >= (long)sizeof tmp) return bad(ps, "number longer than 63 characters");
    memcpy(tmp, s, (size_t)(q - s));
    tmp[q - s] = '\0';
    errno = 0;
    double v = mx_strtod(tmp, NULL);
    if (!isfinite(v)) return bad(ps, "number out of the range of a double");
    *out = v;
    ps->p = q;
    return MXSIM_OK;
}

static mxsim_status parse_value(parser *ps, int depth, int *out);

/* Members of an array or object at ps->p (on '[' or '{'), appended as children of node n. */
static mxsim_status parse_members(parser *ps, int depth, int n, int is_obj)
{
    char close = is_obj ? '}' : ']';
    ps->p++;
    skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return MXSIM_OK;
    }
    int last = -1;
    for (;;) {
        const char *key = NULL;
        mxsim_status st;
        if (is_obj) {
            if (ps->p >= ps->end || *ps->p != '"') return bad(ps, "expected a string key");
            if ((st = parse_string(ps, &key)) != MXSIM_OK) return st;
            if (ps->j->node[n].count >= MX_JSON_MAX_MEMBERS) return bad(ps, "object of more than 256 members");
            for (int k = ps->j->node[n].first; k >= 0; k = ps->j->node[k].next)
                if (strcmp(ps->j->node[k].key, key) == 0) return bad(ps, "duplicate key in an object");
            skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') return bad(ps, "expected ':'");
            ps->p++;
            skip_ws(ps);
        }
        int v;
        if ((st = parse_value(ps, depth + 1, &v)) != MXSIM_OK) return st;
        ps->j->node[v].key = key;
        if (last < 0) ps->j->node[n].first = v;
        else ps->j->node[last].next = v;
        last = v;
        ps->j->node[n].count++;
        skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            skip_ws(ps);
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return MXSIM_OK;
        }
        return bad(ps, is_obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int word(parser *ps, const char *w)
{
    size_t n = strlen(w);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, w, n) != 0) return 0;
    ps->p += n;
    return 1;
}

static mxsim_status parse_value(parser *ps, int depth, int *out)
{
    if (depth >= MX_JSON_MAX_DEPTH) return bad(ps, "nested deeper than 32 levels"); /* the root is level 1 */
    skip_ws(ps);
    if (ps->p >= ps->end) return bad(ps, "expected a value");
    char c = *ps->p;
    mx_json_type t = c == '{' ? MX_JSON_OBJ : c == '[' ? MX_JSON_ARR : c == '"' ? MX_JSON_STR
                   : c == 't' || c == 'f' ? MX_JSON_BOOL : c == 'n' ? MX_JSON_NULL : MX_JSON_NUM;
    int n = new_node(ps, t);
    if (n == -1) return bad(ps, "more than 200000 values");
    if (n < 0) return mx_fail(ps->ctx, MXSIM_E_NOMEM, "%s: out of memory", ps->path);
    *out = n;
    mxsim_status st = MXSIM_OK;
    switch (t) {
    case MX_JSON_OBJ:
    case MX_JSON_ARR: return parse_members(ps, depth, n, t == MX_JSON_OBJ);
    case MX_JSON_STR: {
        const char *s;
        if ((st = parse_string(ps, &s)) == MXSIM_OK) ps->j->node[n].str = s;
        return st;
    }
    case MX_JSON_BOOL:
        if (word(ps, "true")) ps->j->node[n].num = 1;
        else if (!word(ps, "false")) return bad(ps, "expected a value");
        return MXSIM_OK;
    case MX_JSON_NULL: return word(ps, "null") ? MXSIM_OK : bad(ps, "expected a value");
    case MX_JSON_NUM: return parse_number(ps, &ps->j->node[n].num);
    }
    return st;
}

mxsim_status mx_json_parse(mxsim_ctx *ctx, const char *path, const char *data, size_t len, mx_json *out)
{
    memset(out, 0, sizeof *out);
    parser ps = {ctx, path, data, data + len, 1, out, NULL};
    out->strs = malloc(len + 1); /* a decoded string is never longer than its source */
    if (out->strs == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    ps.w = out->strs;
    if (memchr(data, '\0', len) != NULL) {
        mx_json_free(out);
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'json': a NUL byte", path);
    }
    int root;
    mxsim_status st = parse_value(&ps, 0, &root);
    if (st == MXSIM_OK) {
        skip_ws(&ps);
        if (ps.p != ps.end) st = bad(&ps, "text after the value");
    }
    if (st != MXSIM_OK) mx_json_free(out);
    return st;
}

void mx_json_free(mx_json *j)
{
    free(j->node);
    free(j->strs);
    memset(j, 0, sizeof *j);
}

int mx_json_get(const mx_json *j, int obj, const char *key)
{
    if (obj < 0 || j->node[obj].type != MX_JSON_OBJ) return -1;
    for (int k = j->node[obj].first; k >= 0; k = j->node[k].next)
        if (strcmp(j->node[k].key, key) == 0) return k;
    return -1;
}

int mx_json_at(const mx_json *j, int arr, int i)
{
    if (arr < 0 || j->node[arr].type != MX_JSON_ARR) return -1;
    int k = j->node[arr].first;
    while (k >= 0 && i-- > 0) k = j->node[k].next;
    return k;
}

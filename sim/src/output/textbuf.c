/* textbuf.c - growable text buffer and the escaping rules (textbuf.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output/textbuf.h"

static int grow(mx_buf *b, size_t need)
{
    if (b->oom) return -1;
    if (b->n + need + 1 <= b->cap) return 0;
    size_t nc = b->cap ? b->cap : 256;
    while (nc < b->n + need + 1) {
        if (nc > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        nc *= 2;
    }
    char *np = realloc(b->p, nc);
    if (np == NULL) {
        b->oom = 1;
        return -1;
    }
    b->p = np;
    b->cap = nc;
    return 0;
}

void mx_buf_put(mx_buf *b, const char *s, size_t n)
{
    if (grow(b, n) != 0) return;
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

void mx_buf_puts(mx_buf *b, const char *s) { mx_buf_put(b, s, strlen(s)); }

void mx_buf_vprintf(mx_buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int k = mx_vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (k < 0) {
        b->oom = 1;
        return;
    }
    if (grow(b, (size_t)k) != 0) return;
    mx_vsnprintf(b->p + b->n, (size_t)k + 1, fmt, ap);
    b->n += (size_t)k;
}

void mx_buf_printf(mx_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    mx_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void mx_buf_free(mx_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

char *mx_buf_take(mx_buf *b, size_t *len)
{
    if (!b->oom && b->p == NULL) grow(b, 0);
    if (b->oom) {
        mx_buf_free(b);
        return NULL;
    }
    char *p = b->p;
    p[b->n] = '\0';
    if (len) *len = b->n;
    memset(b, 0, sizeof *b);
    return p;
}

void mx_buf_csv_field(mx_buf *b, const char *s)
{
    size_t n = strlen(s);
    int quote = n > 0 && (s[0] == ' ' || s[n - 1] == ' ');
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        mx_buf_put(b, s, n);
        return;
    }
    mx_buf_put(b, "\"", 1);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') mx_buf_put(b, "\"", 1);
        mx_buf_put(b, s + i, 1);
    }
    mx_buf_put(b, "\"", 1);
}

int mx_utf8_len(const unsigned char *s)
{
    const unsigned c = s[0];
    if (c < 0x80) return 1;
    int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (n == 0) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
    /* overlong 3- and 4-byte forms, UTF-16 surrogates, beyond U+10FFFF */
    if ((c == 0xE0 && s[1] < 0xA0) || (c == 0xED && s[1] > 0x9F) || (c == 0xF0 && s[1] < 0x90) || (c == 0xF4 && s[1] > 0x8F))
        return 0;
    return n;
}

long mx_utf8_bad(const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        const int n = mx_utf8_len(p);
        if (n == 0) return (long)(p - (const unsigned char *)s);
        p += n;
    }
    return -1;
}

void mx_buf_json_str(mx_buf *b, const char *s)
{
    mx_buf_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p >= 0x80) {
            const int n = mx_utf8_len(p);
            if (n == 0) {
                mx_buf_put(b, "\\ufffd", 6);
            } else {
                mx_buf_put(b, (const char *)p, (size_t)n);
                p += n - 1;
            }
            continue;
        }
        switch (*p) {
        case '"': mx_buf_put(b, "\\\"", 2); break;
        case '\\': mx_buf_put(b, "\\\\", 2); break;
        case '\n': mx_buf_put(b, "\\n", 2); break;
        case '\r': mx_buf_put(b, "\\r", 2); break;
        case '\t': mx_buf_put(b, "\\t", 2); break;
        default:
            if (*p < 0x20) mx_buf_printf(b, "\\u%04x", *p);
            else mx_buf_put(b, (const char *)p, 1);
        }
    }
    mx_buf_put(b, "\"", 1);
}

const char *mx_fmt_real(double v, char *buf, size_t len)
{
    if (buf == NULL || len == 0) return ""; /* also keeps gcc's -Wformat-truncation quiet under ASan */
    if (isnan(v)) mx_snprintf(buf, len, "nan");
    else if (isinf(v)) mx_snprintf(buf, len, v > 0 ? "inf" : "-inf");
    else if (v == floor(v) && fabs(v) < 1e15) {
        mx_snprintf(buf, len, "%.0f", v); /* a whole number as one: 26502960, not 2.650296e+07 */
    } else {
        /* shortest precision that round-trips, so outputs stay short and exact */
        for (int prec = 1; prec <= 17; prec++) {
            mx_snprintf(buf, len, "%.*g", prec, v);
            if (mx_strtod(buf, NULL) == v) break;
        }
    }
    return buf;
}

void mx_buf_json_real(mx_buf *b, double v)
{
    char t[40];
    if (!isfinite(v)) mx_buf_puts(b, "null");
    else mx_buf_puts(b, mx_fmt_real(v, t, sizeof t));
}

void mx_buf_md_cell(mx_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '|') mx_buf_put(b, "\\|", 2);
        else if (*s == '\\') mx_buf_put(b, "\\\\", 2);
        else if (*s == '\n' || *s == '\r') mx_buf_put(b, " ", 1);
        else mx_buf_put(b, s, 1);
    }
}

void mx_buf_html(mx_buf *b, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': mx_buf_puts(b, "&amp;"); break;
        case '<': mx_buf_puts(b, "&lt;"); break;
        case '>': mx_buf_puts(b, "&gt;"); break;
        case '"': mx_buf_puts(b, "&quot;"); break;
        case '\'': mx_buf_puts(b, "&#39;"); break;
        default: mx_buf_put(b, s, 1);
        }
    }
}

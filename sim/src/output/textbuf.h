/* textbuf.h - a growable text buffer and the escaping rules of every text format mxsim writes.
**
** One implementation of each rule: CSV fields (RFC 4180), JSON strings and numbers (RFC 8259),
** Markdown table cells and HTML/SVG text.  Allocation failure is sticky (`oom`), checked once
** by the caller when the text is complete.
*/
#ifndef MX_TEXTBUF_H
#define MX_TEXTBUF_H

#include <stdarg.h>
#include <stddef.h>

#include "internal.h"

typedef struct {
    char *p;    /* NUL-terminated when n > 0 */
    size_t n;   /* bytes used, without the NUL */
    size_t cap;
    int oom;
} mx_buf;

MX_INTERNAL void mx_buf_printf(mx_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
MX_INTERNAL void mx_buf_vprintf(mx_buf *b, const char *fmt, va_list ap);
MX_INTERNAL void mx_buf_put(mx_buf *b, const char *s, size_t n);
MX_INTERNAL void mx_buf_puts(mx_buf *b, const char *s);
MX_INTERNAL void mx_buf_free(mx_buf *b);
/* Takes the text out (malloc'd, NUL-terminated, never NULL unless oom); b is reset. */
MX_INTERNAL char *mx_buf_take(mx_buf *b, size_t *len);

/* RFC 4180: quoted when it holds a comma, quote, CR or LF (or leading/trailing space);
** inner quotes doubled. */
MX_INTERNAL void mx_buf_csv_field(mx_buf *b, const char *s);
/* RFC 8259 string with its quotes: ", \ and control characters escaped; UTF-8 kept as is, and a
** byte that is not part of a valid UTF-8 sequence (a file name in another encoding) written as
** U+FFFD, so that the document stays valid JSON. */
MX_INTERNAL void mx_buf_json_str(mx_buf *b, const char *s);
/* Length of the valid UTF-8 sequence at s (1..4), or 0 if s does not start one (overlong forms,
** surrogates and code points above U+10FFFF are not valid). */
MX_INTERNAL int mx_utf8_len(const unsigned char *s);
/* Offset of the first byte of s that is not valid UTF-8, or -1 when s is valid UTF-8 text. */
MX_INTERNAL long mx_utf8_bad(const char *s);
/* A JSON number, shortest round-trip form ("%.17g" trimmed); non-finite values become null. */
MX_INTERNAL void mx_buf_json_real(mx_buf *b, double v);
/* Markdown table cell: | escaped as \|, backslash as \\, newlines as spaces. */
MX_INTERNAL void mx_buf_md_cell(mx_buf *b, const char *s);
/* HTML/SVG text: & < > " ' escaped. */
MX_INTERNAL void mx_buf_html(mx_buf *b, const char *s);
/* Formats a real with the fewest digits that read back to the same double ("%.17g" at most);
** non-finite values as "nan", "inf", "-inf". */
MX_INTERNAL const char *mx_fmt_real(double v, char *buf, size_t len);

#endif

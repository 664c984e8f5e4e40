/* lines.c - the one line reader and the one CSV splitter (lines.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "lines.h"

void mx_lines_init(mx_lines *c, char *buf)
{
    /* a UTF-8 byte order mark (editors on Windows write one) is skipped */
    if (buf && (unsigned char)buf[0] == 0xEF && (unsigned char)buf[1] == 0xBB && (unsigned char)buf[2] == 0xBF) buf += 3;
    c->next = buf;
    c->line = 0;
}

mxsim_status mx_text_check(mxsim_ctx *ctx, const char *path, const char *buf, size_t len)
{
    const char *nul = memchr(buf, '\0', len);
    if (nul == NULL) return MXSIM_OK;
    int line = 1;
    for (const char *p = buf; p < nul; p++) line += *p == '\n';
    return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: contains a NUL byte (at byte %zu): not a text file", path, line,
                   (size_t)(nul - buf));
}

mxsim_status mx_text_read(mxsim_ctx *ctx, const char *path, uint64_t max_bytes, char **buf, size_t *n_lines)
{
    uint8_t *data = NULL;
    size_t len = 0;
    *buf = NULL;
    mxsim_status st = mx_file_read(ctx, path, max_bytes, &data, &len);
    if (st != MXSIM_OK) return st;
    if ((st = mx_text_check(ctx, path, (const char *)data, len)) != MXSIM_OK) { /* else lines after it vanish */
        free(data);
        return st;
    }
    if (n_lines) {
        *n_lines = 1;
        for (size_t i = 0; i < len; i++) *n_lines += data[i] == '\n';
    }
    *buf = (char *)data;
    return MXSIM_OK;
}

char *mx_lines_next(mx_lines *c)
{
    char *ln = c->next;
    if (ln == NULL) return NULL;
    char *nl = strchr(ln, '\n');
    c->next = nl ? nl + 1 : NULL;
    if (nl) {
        *nl = '\0';
        if (nl > ln && nl[-1] == '\r') nl[-1] = '\0';
    } else if (*ln == '\0') {
        return NULL;
    }
    c->line++;
    return ln;
}

void mx_ini_cut_comment(char *s)
{
    for (char *p = s; *p; p++)
        if ((*p == '#' || *p == ';') && (p == s || isspace((unsigned char)p[-1]))) {
            *p = '\0';
            return;
        }
}

int mx_csv_split(char *s, char **f, int max)
{
    int n = 0;
    if (max < 1) return max + 1;
    f[n++] = s;
    for (; *s; s++)
        if (*s == ',') {
            *s = '\0';
            if (n == max) return max + 1;
            f[n++] = s + 1;
        }
    return n;
}

void mx_text_lone_cr_to_lf(char *buf)
{
    for (char *p = buf; p && *p; p++)
        if (*p == '\r' && p[1] != '\n') *p = '\n';
}

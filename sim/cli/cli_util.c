/* cli_util.c - text buffer, atomic output and exit codes shared by the CLI's commands. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_util.h"

void cli_printf(cli_buf *b, const char *fmt, ...)
{
    if (b->oom) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = (b->cap + (size_t)k + 1) * 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

void cli_puts_html(cli_buf *b, const char *s)
{
    for (; *s; s++) {
        if (*s == '<') cli_printf(b, "&lt;");
        else if (*s == '>') cli_printf(b, "&gt;");
        else if (*s == '&') cli_printf(b, "&amp;");
        else if (*s == '"') cli_printf(b, "&quot;");
        else cli_printf(b, "%c", *s);
    }
}

void cli_buf_free(cli_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

int cli_write_atomic(const char *path, const char *data, size_t n)
{
    size_t L = strlen(path);
    char *tmp = malloc(L + 16);
    if (!tmp) return -1;
    snprintf(tmp, L + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    mode_t um = umask(0); /* mkstemp makes 0600; give the file the usual 0666 & ~umask */
    umask(um);
    fchmod(fd, 0666 & ~um);
    FILE *f = fdopen(fd, "wb");
    int ok = f && fwrite(data, 1, n, f) == n;
    if (f) ok = (fclose(f) == 0) && ok;
    else close(fd);
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) {
        int e = errno;
        remove(tmp);
        errno = e;
    }
    free(tmp);
    return ok ? 0 : -1;
}

int cli_exit_code(mxsim_status st)
{
    if (st == MXSIM_OK) return 0;
    return st == MXSIM_E_IO || st == MXSIM_E_NOMEM || st == MXSIM_E_INTERNAL ? 1 : 2;
}

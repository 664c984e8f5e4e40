/* cli_util.h - helpers shared by the mxsim CLI's command families (sim/cli/ and its folders):
** a growable text buffer, atomic file output, and the status -> exit code mapping.  CLI only:
** the library never prints. */
#ifndef MXSIM_CLI_UTIL_H
#define MXSIM_CLI_UTIL_H
#include <stddef.h>

#include "mxsim.h"

/* Growable text buffer; oom is sticky (checked once at the end).  Zero-initialise to start. */
typedef struct {
    char *p;
    size_t n, cap;
    int oom;
} cli_buf;
void cli_printf(cli_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_puts_html(cli_buf *b, const char *s); /* HTML-escaped */
void cli_buf_free(cli_buf *b);
/* Writes data atomically (temporary file in the same directory + rename, mode 0666 & ~umask);
** 0 on success, -1 with errno set and no file left behind. */
int cli_write_atomic(const char *path, const char *data, size_t n);
/* Exit code of a status: 0, 1 runtime failure (I/O, memory, internal), 2 usage or bad input. */
int cli_exit_code(mxsim_status st);

#endif

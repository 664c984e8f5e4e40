/* lines.h - the one line reader and the one CSV splitter of the library's text readers (traces,
** configurations, model files, GPU cards and bench files). */
#ifndef MX_LINES_H
#define MX_LINES_H

#include "internal.h"

/* Cuts a NUL-terminated buffer into lines in place: '\n' ends a line, a '\r' before it is
** dropped; a final line without '\n' counts, an empty remainder does not.  `line` is the 1-based
** number of the line last returned. */
typedef struct {
    char *next;
    int line;
} mx_lines;

/* A leading UTF-8 byte order mark is skipped. */
MX_INTERNAL void mx_lines_init(mx_lines *c, char *buf);
/* MXSIM_E_INPUT "PATH:LINE: contains a NUL byte" if buf[0..len) holds one (a text reader would
** otherwise stop there and drop the rest silently). */
MX_INTERNAL mxsim_status mx_text_check(mxsim_ctx *ctx, const char *path, const char *buf, size_t len);
/* Reads a text file of at most max_bytes whole (mx_file_read, NUL-terminated) and refuses a NUL
** byte in it (mx_text_check); *n_lines (may be NULL) = its '\n' count + 1, a bound on the lines
** mx_lines_next returns.  The caller frees *buf. */
MX_INTERNAL mxsim_status mx_text_read(mxsim_ctx *ctx, const char *path, uint64_t max_bytes, char **buf,
                                      size_t *n_lines);
/* The next line, or NULL after the last one. */
MX_INTERNAL char *mx_lines_next(mx_lines *c);
/* Python's universal newlines for the files SCALE-Sim reads (.cfg, topology .csv): a CR that ends
** no CRLF (classic Mac, Excel "CSV (Macintosh)") becomes an LF, in place. */
MX_INTERNAL void mx_text_lone_cr_to_lf(char *buf);

/* Ends an INI line (configurations, SCALE-Sim .cfg, GPU cards) at its comment, in place: a '#' or
** ';' that starts the line (after optional blanks) or follows a blank.  One inside a word is
** data ("rows = 16;32" keeps "16;32", which is then refused as a number, never read as 16). */
MX_INTERNAL void mx_ini_cut_comment(char *s);

/* Cuts s in place at every comma (fields are not quoted: SCALE-Sim topologies and bench files);
** f receives at most max field pointers.  Returns the field count, or max + 1 if there are more. */
MX_INTERNAL int mx_csv_split(char *s, char **f, int max);

#endif

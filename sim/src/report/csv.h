/* csv.h - the library's CSV reader (RFC 4180).
**
** Quoted fields may hold commas, doubled quotes and line breaks; records end with LF or CRLF; a
** blank line is skipped.  Every record must have the header's field count.  Errors are
** MXSIM_E_INPUT naming "PATH:LINE: field 'COLUMN': why" (mx_fail).
** The library's other CSV reader is the unquoted splitter mx_csv_split (lines.h) of the SCALE-Sim
** topology (rows of varying width, trailing-comma rule) and the GPU bench file; this one is built
** with the sweep module only.
*/
#ifndef MX_CSV_H
#define MX_CSV_H

#include <stdint.h>

#include "internal.h"

typedef struct {
    char **cell;   /* cell[r * n_cols + c]; record 0 is the header; NUL-terminated */
    int64_t *line; /* line[r]: 1-based line on which record r starts */
    int n_cols;
    int64_t n_rows; /* records, the header included */
    char *text;     /* storage of every cell */
} mx_csv;

/* Parses data[0..len) (NUL bytes refused) read from path (for messages).  At most max_cols
** columns and max_rows records; beyond is MXSIM_E_LIMIT. */
MX_INTERNAL mxsim_status mx_csv_parse(mxsim_ctx *ctx, const char *path, const char *data, size_t len,
                                      int max_cols, int64_t max_rows, mx_csv *out);
MX_INTERNAL void mx_csv_free(mx_csv *c);
/* Index of the header column named name, or -1. */
MX_INTERNAL int mx_csv_col(const mx_csv *c, const char *name);
static inline const char *mx_csv_at(const mx_csv *c, int64_t row, int col)
{
    return c->cell[row * c->n_cols + col];
}

#endif

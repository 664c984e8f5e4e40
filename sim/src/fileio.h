/* fileio.h - whole-file reads and atomic whole-file writes.
**
** Every error is reported through mx_fail with the path and strerror(errno) in the message.
*/
#ifndef MX_FILEIO_H
#define MX_FILEIO_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One piece of a file written by mx_file_write_parts (pieces are concatenated in order). */
typedef struct {
    const void *data;
    size_t len;
} mx_file_part;

/* Reads the whole regular file at `path` into a malloc'd buffer (*data, free with free();
** never NULL on success, even for an empty file) of *len bytes.  A missing path, a directory
** or another non-regular file is MXSIM_E_INPUT; read failures are MXSIM_E_IO; files larger than
** max_bytes give MXSIM_E_LIMIT before anything is allocated.  A NUL byte follows the data (not
** counted in *len), so a text can be read as a string. */
/* MXSIM_E_INPUT if path names a file ctx read as an input (mxsim_ctx_set_protect_inputs). */
MX_INTERNAL mxsim_status mx_check_not_input(mxsim_ctx *ctx, const char *path);
/* The FNV-1a 64 digest of n bytes as 16 lower-case hex digits (out: 17 bytes): the identity of a
** sweep CSV, written into its sidecar and checked by mxsim report. */
MX_INTERNAL void mx_digest_hex(const void *data, size_t n, char out[17]);
MX_INTERNAL mxsim_status mx_file_read(mxsim_ctx *ctx, const char *path, uint64_t max_bytes,
                                      uint8_t **data, size_t *len);

/* Writes the concatenation of parts[0..n-1] to `path` atomically: a temporary file made by
** mkstemp in the destination's directory is written, fsync'ed and renamed over `path`.  On any
** failure the temporary file is removed, so `path` is either untouched or complete.
** A new file gets mode 0666 & ~umask; an existing destination keeps its permission bits.
** Symbolic links are followed; devices and FIFOs are written in place (mxsim_file_write). */
MX_INTERNAL mxsim_status mx_file_write_parts(mxsim_ctx *ctx, const char *path,
                                             const mx_file_part *parts, size_t n);

/* One file of an all-or-nothing output (mx_file_write_set). */
typedef struct {
    const char *path;
    const mx_file_part *parts;
    size_t n_parts;
} mx_file_set;

/* Writes several files all or nothing: every target is checked and every temporary file is
** written before the first is renamed into place; if a rename fails the ones done are undone
** (the old files restored).  The target rules are mxsim_file_write's (mxsim.h). */
MX_INTERNAL mxsim_status mx_file_write_set(mxsim_ctx *ctx, const mx_file_set *files, size_t n);

/* Single-buffer convenience form of mx_file_write_parts. */
MX_INTERNAL mxsim_status mx_file_write(mxsim_ctx *ctx, const char *path, const void *data,
                                       size_t len);

#endif

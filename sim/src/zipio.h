/* zipio.h - a minimal ZIP reader and writer, enough for NumPy .npz archives.
**
** Reader: methods 0 (stored) and 8 (deflate), ZIP64 end records and extra fields, CRC-32 and
** size verification.  Writer: stored or deflated members, no ZIP64 (archives and members are
** limited to 4 GiB).  Errors name the archive path and the member.
*/
#ifndef MX_ZIPIO_H
#define MX_ZIPIO_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One member of an opened archive (offsets are into the archive image). */
typedef struct {
    char *name;            /* NUL-terminated, with a trailing ".npy" removed */
    uint16_t flags;
    uint16_t method;       /* 0 stored, 8 deflate */
    uint32_t crc;
    uint64_t csize;        /* compressed size */
    uint64_t usize;        /* uncompressed size */
    uint64_t local_offset; /* local file header */
    uint64_t data_offset;  /* first byte of the member's (compressed) data */
} mx_zip_entry;

/* An opened archive.  The image is borrowed, not owned: it must outlive the mx_zip. */
typedef struct {
    const char *path; /* for messages; borrowed */
    const uint8_t *img;
    size_t len;
    uint64_t cd_offset; /* start of the central directory: member data must lie before it */
    mx_zip_entry *entries;
    size_t n_entries;
} mx_zip;

/* Parses the end of central directory record(s) and the central directory of the archive
** image img[0..len).  Rejects multi-disk archives, encrypted members, methods other than 0 and
** 8, duplicate member names (after ".npy" removal) and offsets or sizes beyond the image.
** On failure *z is left empty (mx_zip_close is still safe). */
MX_INTERNAL mxsim_status mx_zip_open(mxsim_ctx *ctx, const char *path, const uint8_t *img,
                                     size_t len, mx_zip *z);
MX_INTERNAL void mx_zip_close(mx_zip *z);

/* Finds a member by name; "x" matches a stored "x.npy".  NULL if absent. */
MX_INTERNAL const mx_zip_entry *mx_zip_find(const mx_zip *z, const char *name);

/* Extracts a member, verifying its uncompressed size and CRC-32.  A member whose declared
** uncompressed size exceeds max_size is refused with MXSIM_E_LIMIT before any allocation.
** *data points into the archive image (stored members, *owned = NULL) or into a malloc'd
** buffer that the caller frees through *owned. */
MX_INTERNAL mxsim_status mx_zip_extract(mxsim_ctx *ctx, const mx_zip *z, const mx_zip_entry *e,
                                        uint64_t max_size, const uint8_t **data, size_t *len,
                                        uint8_t **owned);

/* A member to write. */
typedef struct {
    const char *name; /* stored as given (ASCII), e.g. "mantissa.npy" */
    const void *data;
    size_t len;
} mx_zip_member;

/* Writes a ZIP archive of the members atomically (via mx_file_write_parts); compress = 1
** deflates each member at level 6 (as numpy.savez_compressed), 0 stores it.  Archives or
** members that would need ZIP64 (>= 4 GiB, > 65535 members) give MXSIM_E_LIMIT and nothing is
** written.  Timestamps are fixed (1980-01-01) so equal inputs give identical files. */
MX_INTERNAL mxsim_status mx_zip_write(mxsim_ctx *ctx, const char *path, const mx_zip_member *m,
                                      size_t n, int compress);

#endif

/* npy.h - the NumPy .npy format (versions 1.0, 2.0, 3.0), in memory.
**
** `what` arguments prefix every error message; pass the file name, or "file.npz: member 'x'"
** for an archive member, so messages read "<what>: header: 'shape': ...".
*/
#ifndef MX_NPY_H
#define MX_NPY_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* What kind of element a .npy file holds. */
typedef enum {
    MX_NPY_NUMERIC = 0, /* one of the supported mxsim dtypes */
    MX_NPY_UNICODE = 1, /* '<U<n>' / '>U<n>': n UCS-4 code units per element */
    MX_NPY_BYTES = 2,   /* '|S<n>': n bytes per element */
    MX_NPY_INT = 3,     /* another integer type ('<i2', '>u4', '<u8', ...): metadata scalars only;
                        ** item_size bytes, int_signed, big_endian */
} mx_npy_kind;

/* A parsed and size-checked .npy header. */
typedef struct {
    mx_npy_kind kind;
    mxsim_dtype dtype;  /* MX_NPY_NUMERIC only */
    int big_endian;     /* multi-byte items (numbers, UCS-4 units) are stored big-endian */
    int swap;           /* numeric data must be byte-swapped into host order */
    size_t item_size;   /* bytes per element */
    int ndim;
    int64_t shape[MXSIM_MAX_DIMS];
    int64_t numel;
    size_t data_offset; /* where the data starts in the image */
    size_t data_len;    /* numel * item_size; equals the bytes present after data_offset */
    char descr[32];     /* the descr string as written, for messages */
    int int_signed;     /* MX_NPY_INT: 'i' (1) or 'u' (0) */
} mx_npy_header;

/* Parses the header of the .npy image img[0..len) and checks that exactly numel * item_size
** bytes of data follow it.  Unsupported descr, Fortran order (when it changes the layout) and
** non-ASCII headers give MXSIM_E_UNSUPPORTED; malformed or truncated images MXSIM_E_FORMAT;
** shapes that overflow or exceed MX_MAX_TENSOR_BYTES / MXSIM_MAX_DIMS MXSIM_E_LIMIT. */
MX_INTERNAL mxsim_status mx_npy_parse(mxsim_ctx *ctx, const char *what, const uint8_t *img,
                                      size_t len, mx_npy_header *h);

/* Decodes a numeric .npy image into a new tensor in host byte order ('<u2' becomes U16). */
MX_INTERNAL mxsim_status mx_npy_decode(mxsim_ctx *ctx, const char *what, const uint8_t *img,
                                       size_t len, mxsim_tensor **out);

/* Decodes a string .npy image holding a single element (0-d, as np.save('x', 'ocp') writes)
** into a malloc'd NUL-terminated UTF-8 string *out (free with free()).  Trailing NULs are
** dropped as NumPy does; an embedded NUL or invalid code point is MXSIM_E_FORMAT. */
MX_INTERNAL mxsim_status mx_npy_decode_string(mxsim_ctx *ctx, const char *what,
                                              const uint8_t *img, size_t len, char **out);

/* Builds the header (magic, version, padded dict) for a tensor of this dtype and shape, so that
** the data that follows starts at a multiple of 64 bytes.  Writes into hdr[0..cap) and sets
** *hdr_len.  cap >= MX_NPY_HEADER_MAX always suffices. */
#define MX_NPY_HEADER_MAX 512
MX_INTERNAL mxsim_status mx_npy_encode_header(mxsim_ctx *ctx, const char *what, mxsim_dtype dtype,
                                              int ndim, const int64_t *shape, uint8_t *hdr,
                                              size_t cap, size_t *hdr_len);

/* Encodes a tensor as a complete .npy image (header + little-endian data) in a malloc'd
** buffer *img of *len bytes.  BF16 is written as '<u2'. */
MX_INTERNAL mxsim_status mx_npy_encode(mxsim_ctx *ctx, const char *what, const mxsim_tensor *t,
                                       uint8_t **img, size_t *len);

/* Encodes an ASCII string as a 0-d '<U<n>' .npy image (malloc'd *img of *len bytes). */
MX_INTERNAL mxsim_status mx_npy_encode_string(mxsim_ctx *ctx, const char *what, const char *s,
                                              uint8_t **img, size_t *len);

/* Whether the data of a tensor must be byte-swapped to be written little-endian. */
MX_INTERNAL int mx_npy_host_is_big_endian(void);

#endif

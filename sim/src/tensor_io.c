/* tensor_io.c - the public file API: dense tensors as .npy, MXINT8 tensors as .npz.
**
** An MXINT8 .npz holds exactly five members (sim/doc/numerics.md section 1): mantissa (int8,
** the tensor's shape), scale (uint8, the shape with `axis` divided by G), group_size and axis
** (0-d integers, written as '<i8') and profile (a 0-d unicode string).  Loading refuses missing
** and unknown members (an unknown one most likely means a different file layout, and silently
** dropping data is worse than an error), then hands the tensors to mx_mx_wrap, which owns the
** shape/axis/group-size validation shared with mxsim_mx_create.
**
** Invariants: every file is read whole through mx_file_read (size-checked before allocation)
** and written through the atomic writers of fileio.c, so a failed save never leaves a partial
** file; every error message starts with the path and names the member at fault.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "npy.h"
#include "zipio.h"

/* A .npy file is one tensor plus a header; an .npz two tensors plus small members. */
#define NPY_FILE_MAX ((uint64_t)MX_MAX_TENSOR_BYTES + ((uint64_t)1 << 20))
#define NPZ_FILE_MAX (2 * (uint64_t)MX_MAX_TENSOR_BYTES + ((uint64_t)1 << 24))
#define NPZ_MEMBER_MAX NPY_FILE_MAX
#define NPZ_META_MAX ((uint64_t)1 << 20) /* group_size, axis, profile */

#define N_MEMBERS 5
static const char *const k_members[N_MEMBERS] = {"mantissa", "scale", "group_size", "axis",
                                                  "profile"};

MXSIM_API mxsim_status mxsim_tensor_load_npy(mxsim_ctx *ctx, const char *path, mxsim_tensor **out)
{
    mx_clear_err(ctx);
    uint8_t *buf;
    size_t len;
    if (out == NULL || path == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_tensor_load_npy: NULL argument");
    *out = NULL;
    mxsim_status st = mx_file_read(ctx, path, NPY_FILE_MAX, &buf, &len);
    if (st != MXSIM_OK) return st;
    st = mx_npy_decode(ctx, path, buf, len, out);
    free(buf);
    return st;
}

MXSIM_API mxsim_status mxsim_tensor_save_npy(mxsim_ctx *ctx, const mxsim_tensor *t,
                                             const char *path)
{
    mx_clear_err(ctx);
    uint8_t hdr[MX_NPY_HEADER_MAX];
    size_t hl;
    if (t == NULL || path == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_tensor_save_npy: NULL argument");
    size_t esz = mxsim_dtype_size(t->dtype);
    if (esz > 1 && mx_npy_host_is_big_endian()) {
        /* Files are little-endian: a big-endian host needs a swapped copy. */
        uint8_t *img;
        size_t len;
        mxsim_status st = mx_npy_encode(ctx, path, t, &img, &len);
        if (st != MXSIM_OK) return st;
        st = mx_file_write(ctx, path, img, len);
        free(img);
        return st;
    }
    mxsim_status st = mx_npy_encode_header(ctx, path, t->dtype, t->ndim, t->shape, hdr, sizeof hdr,
                                           &hl);
    if (st != MXSIM_OK) return st;
    /* Header and data written straight from the tensor: no copy of a possibly large buffer. */
    mx_file_part parts[2] = {{hdr, hl}, {t->data, (size_t)t->numel * esz}};
    return mx_file_write_parts(ctx, path, parts, 2);
}

/* ---- .npz ------------------------------------------------------------------------------- */

typedef struct {
    const uint8_t *data;
    size_t len;
    uint8_t *owned;
    char what[MX_ERRMSG_LEN];
} member_img;

/* Extracts member `name` (known to exist) and prepares its "path: member 'name'" prefix. */
static mxsim_status get_member(mxsim_ctx *ctx, const mx_zip *z, const char *name, uint64_t limit,
                               member_img *m)
{
    mx_snprintf(m->what, sizeof m->what, "%s: member '%s'", z->path, name);
    return mx_zip_extract(ctx, z, mx_zip_find(z, name), limit, &m->data, &m->len, &m->owned);
}

/* Reads a 0-d integer member (int64 as written by NumPy for a Python int; small integer types
** accepted too). */
static mxsim_status get_int_member(mxsim_ctx *ctx, const mx_zip *z, const char *name, int64_t *v)
{
    member_img m;
    mx_npy_header h;
    char sb[200];
    mxsim_status st = get_member(ctx, z, name, NPZ_META_MAX, &m);
    if (st != MXSIM_OK) return st;
    st = mx_npy_parse(ctx, m.what, m.data, m.len, &h);
    if (st != MXSIM_OK) goto done;
    if (h.kind == MX_NPY_INT && h.numel == 1) { /* any width and byte order */
        const uint8_t *b = m.data + h.data_offset;
        uint64_t u = 0;
        for (size_t i = 0; i < h.item_size; i++)
            u |= (uint64_t)b[h.big_endian ? i : h.item_size - 1 - i] << (8 * (h.item_size - 1 - i));
        if (h.int_signed && h.item_size < 8 && (u >> (8 * h.item_size - 1)) & 1) u |= ~(uint64_t)0 << (8 * h.item_size);
        if (!h.int_signed && u > (uint64_t)INT64_MAX) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: value %llu out of range", m.what, (unsigned long long)u);
            goto done;
        }
        *v = (int64_t)u;
        goto done;
    }
    if ((h.kind != MX_NPY_NUMERIC && h.kind != MX_NPY_INT) || h.dtype == MXSIM_DTYPE_F32) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: dtype '%s', expected a 0-d integer array", m.what,
                     h.descr);
        goto done;
    }
    if (h.numel != 1) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: shape %s, expected a 0-d integer array (one value)",
                     m.what, mx_shape_str(h.ndim, h.shape, sb, sizeof sb));
        goto done;
    }
    mxsim_tensor *t;
    st = mx_npy_decode(ctx, m.what, m.data, m.len, &t);
    if (st != MXSIM_OK) goto done;
    switch (t->dtype) {
    case MXSIM_DTYPE_I64: memcpy(v, t->data, sizeof *v); break;
    case MXSIM_DTYPE_I32: {
        int32_t i;
        memcpy(&i, t->data, sizeof i);
        *v = i;
        break;
    }
    case MXSIM_DTYPE_I8: *v = *(const int8_t *)t->data; break;
    case MXSIM_DTYPE_U8: *v = *(const uint8_t *)t->data; break;
    default: {
        uint16_t u;
        memcpy(&u, t->data, sizeof u);
        *v = u;
    }
    }
    mxsim_tensor_free(t);
done:
    free(m.owned);
    return st;
}

static mxsim_status get_tensor_member(mxsim_ctx *ctx, const mx_zip *z, const char *name,
                                      mxsim_tensor **t)
{
    member_img m;
    mxsim_status st = get_member(ctx, z, name, NPZ_MEMBER_MAX, &m);
    if (st != MXSIM_OK) return st;
    st = mx_npy_decode(ctx, m.what, m.data, m.len, t);
    free(m.owned);
    return st;
}

static mxsim_status get_profile_member(mxsim_ctx *ctx, const mx_zip *z, mxsim_profile *p)
{
    member_img m;
    char *s = NULL;
    mxsim_status st = get_member(ctx, z, "profile", NPZ_META_MAX, &m);
    if (st != MXSIM_OK) return st;
    st = mx_npy_decode_string(ctx, m.what, m.data, m.len, &s);
    if (st == MXSIM_OK && mxsim_profile_parse(s, p) != MXSIM_OK)
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "%s: unknown profile '%.64s' (expected ocp, mase, mase-cuda or microxcaling)",
                     m.what, s);
    free(s);
    free(m.owned);
    return st;
}

MXSIM_API mxsim_status mxsim_mx_load(mxsim_ctx *ctx, const char *path, mxsim_mx **out)
{
    mx_clear_err(ctx);
    uint8_t *buf = NULL;
    size_t len;
    mx_zip z;
    mxsim_tensor *mant = NULL, *scale = NULL;
    int64_t group_size = 0, axis = 0;
    mxsim_profile profile = MXSIM_PROFILE_OCP;
    if (out == NULL || path == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_load: NULL argument");
    *out = NULL;
    mxsim_status st = mx_file_read(ctx, path, NPZ_FILE_MAX, &buf, &len);
    if (st != MXSIM_OK) return st;
    st = mx_zip_open(ctx, path, buf, len, &z);
    if (st != MXSIM_OK) goto done;
    for (size_t i = 0; i < z.n_entries; i++) {
        int known = 0;
        for (int k = 0; k < N_MEMBERS; k++) known |= strcmp(z.entries[i].name, k_members[k]) == 0;
        if (!known) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: member '%.200s': unexpected member (an MXINT8 .npz holds exactly "
                         "mantissa, scale, group_size, axis and profile)",
                         path, z.entries[i].name);
            goto done;
        }
    }
    for (int k = 0; k < N_MEMBERS; k++)
        if (mx_zip_find(&z, k_members[k]) == NULL) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: member '%s' is missing (an MXINT8 .npz holds mantissa, scale, "
                         "group_size, axis and profile)",
                         path, k_members[k]);
            goto done;
        }
    if ((st = get_tensor_member(ctx, &z, "mantissa", &mant)) != MXSIM_OK) goto done;
    if ((st = get_tensor_member(ctx, &z, "scale", &scale)) != MXSIM_OK) goto done;
    if ((st = get_int_member(ctx, &z, "group_size", &group_size)) != MXSIM_OK) goto done;
    if ((st = get_int_member(ctx, &z, "axis", &axis)) != MXSIM_OK) goto done;
    if ((st = get_profile_member(ctx, &z, &profile)) != MXSIM_OK) goto done;
    /* mx_mx_wrap owns mant and scale from here on, success or not. */
    st = mx_mx_wrap(ctx, path, mant, scale, group_size, axis, profile, out);
    mant = scale = NULL;
done:
    mxsim_tensor_free(mant);
    mxsim_tensor_free(scale);
    mx_zip_close(&z);
    free(buf);
    return st;
}

/* A 0-d '<i8' image, as np.save writes a Python int. */
static mxsim_status encode_i64(mxsim_ctx *ctx, const char *what, int64_t v, uint8_t **img,
                               size_t *len)
{
    uint8_t hdr[MX_NPY_HEADER_MAX];
    size_t hl;
    mxsim_status st = mx_npy_encode_header(ctx, what, MXSIM_DTYPE_I64, 0, NULL, hdr, sizeof hdr,
                                           &hl);
    if (st != MXSIM_OK) return st;
    *img = malloc(hl + 8);
    if (*img == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", what);
    memcpy(*img, hdr, hl);
    for (int i = 0; i < 8; i++) (*img)[hl + (size_t)i] = (uint8_t)((uint64_t)v >> (8 * i));
    *len = hl + 8;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_mx_save(mxsim_ctx *ctx, const mxsim_mx *mx, const char *path,
                                     int compress)
{
    mx_clear_err(ctx);
    uint8_t *img[N_MEMBERS] = {NULL};
    size_t len[N_MEMBERS] = {0};
    char what[MX_ERRMSG_LEN];
    mxsim_status st = MXSIM_OK;
    if (mx == NULL || path == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_save: NULL argument");
    const char *pname = mxsim_profile_name(mx->profile);
    if (pname == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "%s: profile: unknown value %d", path, (int)mx->profile);
    for (int k = 0; k < N_MEMBERS && st == MXSIM_OK; k++) {
        mx_snprintf(what, sizeof what, "%s: member '%s'", path, k_members[k]);
        switch (k) {
        case 0: st = mx_npy_encode(ctx, what, mx->mant, &img[k], &len[k]); break;
        case 1: st = mx_npy_encode(ctx, what, mx->scale, &img[k], &len[k]); break;
        case 2: st = encode_i64(ctx, what, mx->group_size, &img[k], &len[k]); break;
        case 3: st = encode_i64(ctx, what, mx->axis, &img[k], &len[k]); break;
        default: st = mx_npy_encode_string(ctx, what, pname, &img[k], &len[k]); break;
        }
    }
    if (st == MXSIM_OK) {
        mx_zip_member m[N_MEMBERS];
        char names[N_MEMBERS][16];
        for (int k = 0; k < N_MEMBERS; k++) {
            mx_snprintf(names[k], sizeof names[k], "%s.npy", k_members[k]);
            m[k] = (mx_zip_member){names[k], img[k], len[k]};
        }
        st = mx_zip_write(ctx, path, m, N_MEMBERS, compress != 0);
    }
    for (int k = 0; k < N_MEMBERS; k++) free(img[k]);
    return st;
}

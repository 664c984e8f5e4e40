/* core.c - status texts, the context handle, allocation, dense tensors and MXINT8 tensor
** wrapping/validation.
**
** Invariants kept here: a tensor's numel equals the product of its shape and fits
** MX_MAX_TENSOR_BYTES; an mxsim_mx always has scale.shape == mant.shape with [axis] divided by
** group_size, and group_size divides mant.shape[axis].
*/
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const k_status_text[] = {
#define MX_TEXT_(name, text) text,
    MXSIM_STATUS_LIST(MX_TEXT_)
#undef MX_TEXT_
};

MXSIM_API const char *mxsim_strerror(mxsim_status s)
{
    if ((int)s < 0 || s >= MXSIM_STATUS_COUNT_) return "unknown status";
    return k_status_text[s];
}

MXSIM_API const char *mxsim_version(void) { return MXSIM_VERSION_STRING; }

/* Levenshtein distance of two short names (longer ones are "far"). */
static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64) return 1 << 20;
    int d[65][65];
    for (size_t i = 0; i <= la; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            int sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            int del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

MXSIM_API const char *mxsim_closest_name(const char *s, const char *const *names, int n)
{
    if (s == NULL || names == NULL) return NULL;
    const char *best = NULL;
    int bd = 1 << 20, lim = (int)strlen(s) / 3 > 2 ? (int)strlen(s) / 3 : 2;
    for (int i = 0; i < n; i++) {
        int d = names[i] ? edit_distance(s, names[i]) : bd;
        if (d < bd) bd = d, best = names[i];
    }
    return bd <= lim ? best : NULL;
}

MXSIM_API int mxsim_abi_version(void) { return MXSIM_ABI_VERSION; }

mxsim_status mx_check_size(mxsim_ctx *ctx, const char *fn, const char *type, size_t got, size_t want)
{
    if (got == want) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_ARG, "%s: %s.struct_size is %zu, this library expects %zu: fill the struct with "
                   "%s_default() (or rebuild against this mxsim.h)", fn, type, got, want, type);
}

mxsim_status mx_fail(mxsim_ctx *ctx, mxsim_status st, const char *fmt, ...)
{
    if (ctx != NULL) {
        va_list ap;
        va_start(ap, fmt);
        mx_vsnprintf(ctx->err, sizeof ctx->err, fmt, ap);
        va_end(ap);
    }
    return st;
}

void mx_note(mxsim_ctx *ctx, const char *fmt, ...)
{
    if (ctx == NULL) return;
    char line[MX_ERRMSG_LEN];
    va_list ap;
    va_start(ap, fmt);
    mx_vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t used = strlen(ctx->notes), len = strlen(line);
    /* once per input: a file read twice (a sweep's points) leaves its note once */
    for (const char *p = ctx->notes; (p = strstr(p, line)) != NULL; p += len)
        if ((p == ctx->notes || p[-1] == '\n') && p[len] == '\n') return;
    if (used + len + 2 > sizeof ctx->notes) {
        ctx->n_notes_lost++;
        return;
    }
    memcpy(ctx->notes + used, line, len);
    memcpy(ctx->notes + used + len, "\n", 2);
}

MXSIM_API const char *mxsim_ctx_notes(const mxsim_ctx *ctx) { return ctx ? ctx->notes : ""; }

MXSIM_API unsigned mxsim_ctx_notes_lost(const mxsim_ctx *ctx) { return ctx ? ctx->n_notes_lost : 0; }

MXSIM_API void mxsim_ctx_clear_notes(mxsim_ctx *ctx)
{
    if (ctx != NULL) ctx->notes[0] = '\0', ctx->n_notes_lost = 0;
}

void mx_clear_err(mxsim_ctx *ctx)
{
    if (ctx != NULL) ctx->err[0] = '\0';
}

void *mx_calloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    return calloc(n ? n : 1, size ? size : 1);
}

void *mx_malloc(size_t n, size_t size)
{
    if (size != 0 && n > SIZE_MAX / size) return NULL;
    size_t bytes = n * size;
    return malloc(bytes ? bytes : 1);
}

int64_t mx_shape_numel(int ndim, const int64_t *shape)
{
    /* the product of the non-zero dimensions must fit too, as NumPy requires: (0, 2^62, 2^62) holds
    ** no element but no NumPy could load it */
    int64_t n = 1, nz = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) return -1;
        if (shape[i] == 0) {
            n = 0;
            continue;
        }
        if (nz > INT64_MAX / shape[i]) return -1;
        nz *= shape[i];
        n = n ? nz : 0;
    }
    return n;
}

const char *mx_shape_str(int ndim, const int64_t *shape, char *buf, size_t len)
{
    size_t used = 0;
    if (len == 0) return buf;
    buf[0] = '\0';
    used += (size_t)mx_snprintf(buf, len, "(");
    for (int i = 0; i < ndim && used < len; i++)
        used += (size_t)mx_snprintf(buf + used, len - used, "%s%lld", i ? ", " : "",
                                 (long long)shape[i]);
    if (used < len) mx_snprintf(buf + used, len - used, ndim == 1 ? ",)" : ")");
    return buf;
}

/* ---- context ---------------------------------------------------------------------------- */

MXSIM_API mxsim_status mxsim_ctx_create(mxsim_ctx **out)
{
    if (out == NULL) return MXSIM_E_ARG;
    *out = mx_calloc(1, sizeof **out);
    if (*out) (*out)->dash_fd = -1;
    return *out ? MXSIM_OK : MXSIM_E_NOMEM;
}

MXSIM_API void mxsim_ctx_destroy(mxsim_ctx *ctx)
{
    if (ctx) {
        free(ctx->tile_memo), free(ctx->tile_heap);
        for (size_t i = 0; i < ctx->n_inputs; i++) free(ctx->inputs[i].path);
        free(ctx->inputs);
    }
    free(ctx);
}

MXSIM_API mxsim_status mxsim_ctx_set_protect_inputs(mxsim_ctx *ctx, int on)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    ctx->protect_inputs = on != 0;
    return MXSIM_OK;
}

int mx_note_input(mxsim_ctx *ctx, const char *path, unsigned long long dev, unsigned long long ino)
{
    if (ctx == NULL || !ctx->protect_inputs || mx_input_named(ctx, dev, ino)) return 0;
    if (ctx->n_inputs == ctx->cap_inputs) {
        size_t cap = ctx->cap_inputs ? 2 * ctx->cap_inputs : 16;
        struct mx_input *p = realloc(ctx->inputs, cap * sizeof *p);
        if (p == NULL) return -1;
        ctx->inputs = p;
        ctx->cap_inputs = cap;
    }
    size_t L = strlen(path);
    char *c = malloc(L + 1);
    if (c == NULL) return -1;
    memcpy(c, path, L + 1);
    ctx->inputs[ctx->n_inputs++] = (struct mx_input){dev, ino, c};
    return 0;
}

const char *mx_input_named(const mxsim_ctx *ctx, unsigned long long dev, unsigned long long ino)
{
    for (size_t i = 0; ctx && i < ctx->n_inputs; i++)
        if (ctx->inputs[i].dev == dev && ctx->inputs[i].ino == ino) return ctx->inputs[i].path;
    return NULL;
}

MXSIM_API const char *mxsim_errmsg(const mxsim_ctx *ctx) { return ctx ? ctx->err : ""; }

MXSIM_API mxsim_status mxsim_ctx_set_threads(mxsim_ctx *ctx, unsigned n_threads)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    if (n_threads > 1024)
        return mx_fail(ctx, MXSIM_E_ARG, "threads=%u: must be 0 (all CPUs) or 1..1024", n_threads);
    ctx->n_threads = n_threads;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_ctx_set_simd(mxsim_ctx *ctx, mxsim_simd simd)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    if (simd != MXSIM_SIMD_AUTO && simd != MXSIM_SIMD_SCALAR && simd != MXSIM_SIMD_AVX2)
        return mx_fail(ctx, MXSIM_E_ARG, "simd=%d: unknown SIMD selection", (int)simd);
    if (!mxsim_simd_available(simd))
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "simd: this CPU or build lacks the requested path");
    ctx->simd = simd;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_ctx_set_cancel(mxsim_ctx *ctx, mxsim_cancel_fn fn, void *user)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    ctx->cancel = fn;
    ctx->cancel_user = fn ? user : NULL;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_ctx_set_dash_fd(mxsim_ctx *ctx, int fd)
{
    mx_clear_err(ctx);
    if (ctx == NULL) return MXSIM_E_ARG;
    ctx->dash_fd = fd < 0 ? -1 : fd;
    return MXSIM_OK;
}

/* ---- enumerations ----------------------------------------------------------------------- */

static const char *const k_profile_names[MXSIM_PROFILE_COUNT_] = {"ocp", "mase", "mase-cuda",
                                                                   "microxcaling"};

MXSIM_API const char *mxsim_profile_name(mxsim_profile p)
{
    if ((int)p < 0 || p >= MXSIM_PROFILE_COUNT_) return NULL;
    return k_profile_names[p];
}

MXSIM_API mxsim_status mxsim_profile_parse(const char *name, mxsim_profile *out)
{
    if (name == NULL || out == NULL) return MXSIM_E_ARG;
    for (int i = 0; i < MXSIM_PROFILE_COUNT_; i++)
        if (strcmp(name, k_profile_names[i]) == 0) {
            *out = (mxsim_profile)i;
            return MXSIM_OK;
        }
    if (strcmp(name, "mase_cuda") == 0) *out = MXSIM_PROFILE_MASE_CUDA;
    else if (strcmp(name, "mx") == 0) *out = MXSIM_PROFILE_MICROXCALING;
    else return MXSIM_E_ARG;
    return MXSIM_OK;
}

static const struct {
    const char *name, *numpy;
    size_t size;
} k_dtypes[MXSIM_DTYPE_COUNT_] = {{"f32", "float32 '<f4'", 4}, {"bf16", "bf16 bits as uint16 '<u2'", 2},
                                  {"i8", "int8 '|i1'", 1},     {"u8", "uint8 '|u1'", 1},
                                  {"u16", "uint16 '<u2'", 2},  {"i64", "int64 '<i8'", 8},
                                  {"i32", "int32 '<i4'", 4}};

MXSIM_API size_t mxsim_dtype_size(mxsim_dtype t)
{
    if ((int)t < 0 || t >= MXSIM_DTYPE_COUNT_) return 0;
    return k_dtypes[t].size;
}

MXSIM_API const char *mxsim_dtype_name(mxsim_dtype t)
{
    if ((int)t < 0 || t >= MXSIM_DTYPE_COUNT_) return NULL;
    return k_dtypes[t].name;
}

MXSIM_API const char *mxsim_dtype_numpy(mxsim_dtype t)
{
    if ((int)t < 0 || t >= MXSIM_DTYPE_COUNT_) return NULL;
    return k_dtypes[t].numpy;
}

/* ---- dense tensors ---------------------------------------------------------------------- */

mxsim_status mx_tensor_new(mxsim_ctx *ctx, mxsim_dtype dtype, int ndim, const int64_t *shape,
                           mxsim_tensor **out)
{
    char sbuf[160];
    *out = NULL;
    size_t esz = mxsim_dtype_size(dtype);
    if (esz == 0) return mx_fail(ctx, MXSIM_E_ARG, "dtype %d: unknown", (int)dtype);
    if (ndim < 0 || ndim > MXSIM_MAX_DIMS)
        return mx_fail(ctx, MXSIM_E_LIMIT, "ndim=%d: must be 0..%d", ndim, MXSIM_MAX_DIMS);
    if (ndim > 0 && shape == NULL) return mx_fail(ctx, MXSIM_E_ARG, "shape: NULL with ndim=%d", ndim);
    int64_t n = mx_shape_numel(ndim, shape);
    if (n < 0 || n > MX_MAX_TENSOR_BYTES / (int64_t)esz)
        return mx_fail(ctx, MXSIM_E_LIMIT, "shape %s: %s",
                       mx_shape_str(ndim, shape, sbuf, sizeof sbuf),
                       n < 0 ? "negative or overflowing dimensions"
                             : "tensor larger than the 64 GiB limit");
    mxsim_tensor *t = mx_calloc(1, sizeof *t);
    if (t == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "out of memory allocating a tensor");
    t->data = mx_calloc((size_t)n, esz);
    if (t->data == NULL) {
        free(t);
        return mx_fail(ctx, MXSIM_E_NOMEM, "out of memory allocating %lld bytes",
                       (long long)(n * (int64_t)esz));
    }
    t->dtype = dtype;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) t->shape[i] = shape[i];
    t->numel = n;
    *out = t;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_tensor_create(mxsim_ctx *ctx, mxsim_dtype dtype, int ndim,
                                           const int64_t *shape, mxsim_tensor **out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "out: NULL");
    return mx_tensor_new(ctx, dtype, ndim, shape, out);
}

MXSIM_API void mxsim_tensor_free(mxsim_tensor *t)
{
    if (t == NULL) return;
    free(t->data);
    free(t);
}

/* NULL-safe accessors (mxsim.h lists what NULL gives) */
MXSIM_API mxsim_dtype mxsim_tensor_dtype(const mxsim_tensor *t) { return t ? t->dtype : MXSIM_DTYPE_COUNT_; }
MXSIM_API int mxsim_tensor_ndim(const mxsim_tensor *t) { return t ? t->ndim : 0; }
MXSIM_API const int64_t *mxsim_tensor_shape(const mxsim_tensor *t) { return t ? t->shape : NULL; }
MXSIM_API int64_t mxsim_tensor_numel(const mxsim_tensor *t) { return t ? t->numel : 0; }
MXSIM_API void *mxsim_tensor_data(mxsim_tensor *t) { return t ? t->data : NULL; }
MXSIM_API const void *mxsim_tensor_cdata(const mxsim_tensor *t) { return t ? t->data : NULL; }

MXSIM_API mxsim_status mxsim_tensor_set_dtype(mxsim_ctx *ctx, mxsim_tensor *t, mxsim_dtype dtype)
{
    mx_clear_err(ctx);
    if (t == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tensor: NULL");
    int ok = (t->dtype == dtype) ||
             ((t->dtype == MXSIM_DTYPE_U16 || t->dtype == MXSIM_DTYPE_BF16) &&
              (dtype == MXSIM_DTYPE_U16 || dtype == MXSIM_DTYPE_BF16));
    if (!ok)
        return mx_fail(ctx, MXSIM_E_INPUT, "dtype %s cannot be relabelled %s (only u16 <-> bf16)",
                       mxsim_dtype_name(t->dtype) ? mxsim_dtype_name(t->dtype) : "?",
                       mxsim_dtype_name(dtype) ? mxsim_dtype_name(dtype) : "?");
    t->dtype = dtype;
    return MXSIM_OK;
}

/* ---- MXINT8 tensors --------------------------------------------------------------------- */

mxsim_status mx_mx_wrap(mxsim_ctx *ctx, const char *what, mxsim_tensor *mant, mxsim_tensor *scale,
                        int64_t group_size, int64_t axis, mxsim_profile p, mxsim_mx **out)
{
    char s1[160], s2[160];
    mxsim_status st = MXSIM_OK;
    *out = NULL;
    if (what == NULL) what = "mxint8 tensor";
    if (mant->dtype != MXSIM_DTYPE_I8) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: mantissa: dtype %s, expected int8 '|i1'", what,
                     mxsim_dtype_numpy(mant->dtype));
        goto fail;
    }
    if (scale->dtype != MXSIM_DTYPE_U8) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: scale: dtype %s, expected uint8 '|u1'", what,
                     mxsim_dtype_numpy(scale->dtype));
        goto fail;
    }
    if ((int)p < 0 || p >= MXSIM_PROFILE_COUNT_) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: profile: unknown value %d", what, (int)p);
        goto fail;
    }
    if (mant->ndim < 1) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: mantissa: 0-d array, expected at least 1 dimension",
                     what);
        goto fail;
    }
    if (axis < -mant->ndim || axis >= mant->ndim) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: axis=%lld: out of range for %d-d mantissa", what,
                     (long long)axis, mant->ndim);
        goto fail;
    }
    if (axis < 0) axis += mant->ndim;
    if (group_size < 1 || group_size > MXSIM_MAX_GROUP) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: group_size=%lld: must be 1..%d", what,
                     (long long)group_size, MXSIM_MAX_GROUP);
        goto fail;
    }
    if (mant->shape[axis] % group_size != 0) {
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "%s: group_size=%lld does not divide axis %lld of length %lld (no padding)",
                     what, (long long)group_size, (long long)axis, (long long)mant->shape[axis]);
        goto fail;
    }
    int same = scale->ndim == mant->ndim;
    for (int i = 0; same && i < mant->ndim; i++)
        same = scale->shape[i] == (i == axis ? mant->shape[i] / group_size : mant->shape[i]);
    if (!same) {
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "%s: scale: shape %s does not match mantissa shape %s with group_size %lld "
                     "along axis %lld",
                     what, mx_shape_str(scale->ndim, scale->shape, s1, sizeof s1),
                     mx_shape_str(mant->ndim, mant->shape, s2, sizeof s2), (long long)group_size,
                     (long long)axis);
        goto fail;
    }
    mxsim_mx *mx = mx_calloc(1, sizeof *mx);
    if (mx == NULL) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "out of memory");
        goto fail;
    }
    mx->mant = mant;
    mx->scale = scale;
    mx->group_size = group_size;
    mx->axis = (int)axis;
    mx->profile = p;
    *out = mx;
    return MXSIM_OK;
fail:
    mxsim_tensor_free(mant);
    mxsim_tensor_free(scale);
    return st;
}

static mxsim_status tensor_clone(mxsim_ctx *ctx, const mxsim_tensor *src, mxsim_tensor **out)
{
    mxsim_status st = mx_tensor_new(ctx, src->dtype, src->ndim, src->shape, out);
    if (st == MXSIM_OK)
        memcpy((*out)->data, src->data, (size_t)src->numel * mxsim_dtype_size(src->dtype));
    return st;
}

MXSIM_API mxsim_status mxsim_mx_create(mxsim_ctx *ctx, const mxsim_tensor *mantissa,
                                       const mxsim_tensor *scale, int64_t group_size, int axis,
                                       mxsim_profile p, mxsim_mx **out)
{
    mx_clear_err(ctx);
    mxsim_tensor *m = NULL, *s = NULL;
    mxsim_status st;
    if (out == NULL || mantissa == NULL || scale == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_create: NULL argument");
    *out = NULL;
    if ((st = tensor_clone(ctx, mantissa, &m)) != MXSIM_OK) return st;
    if ((st = tensor_clone(ctx, scale, &s)) != MXSIM_OK) {
        mxsim_tensor_free(m);
        return st;
    }
    return mx_mx_wrap(ctx, "mxsim_mx_create", m, s, group_size, axis, p, out);
}

MXSIM_API void mxsim_mx_free(mxsim_mx *mx)
{
    if (mx == NULL) return;
    mxsim_tensor_free(mx->mant);
    mxsim_tensor_free(mx->scale);
    free(mx);
}

MXSIM_API const mxsim_tensor *mxsim_mx_mantissa(const mxsim_mx *mx) { return mx->mant; }
MXSIM_API const mxsim_tensor *mxsim_mx_scale(const mxsim_mx *mx) { return mx->scale; }
MXSIM_API int64_t mxsim_mx_group_size(const mxsim_mx *mx) { return mx->group_size; }
MXSIM_API int mxsim_mx_axis(const mxsim_mx *mx) { return mx->axis; }
MXSIM_API mxsim_profile mxsim_mx_profile(const mxsim_mx *mx) { return mx->profile; }

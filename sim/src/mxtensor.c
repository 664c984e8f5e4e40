/* mxtensor.c - whole-tensor quantize, dequantize and scale-convention conversion.
**
** A tensor of shape (..., L, ...) grouped along `axis` is viewed as [outer, L, inner] in C order.
** Group (o, g, i) holds elements (o, g*G .. g*G+G-1, i) and owns scale (o, g, i) of the
** [outer, L/G, inner] scale array.  Groups are gathered into a contiguous buffer (a no-op when
** inner == 1), quantized with the profile's block function, and scattered back.
*/
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "numerics.h"

typedef struct {
    int64_t outer, len, inner, g, n_groups_axis;
} group_view;

static group_view view_of(const mxsim_tensor *t, int axis, int64_t g)
{
    group_view v = {1, t->shape[axis], 1, g, t->shape[axis] / g};
    /* an empty tensor may have other dims up to 2^62 (numel is 0): their product would overflow
    ** (found by fuzz_api; tests/fuzz/crashes/api), and there is nothing to walk */
    if (t->numel == 0) {
        v.outer = v.inner = 0;
        return v;
    }
    for (int i = 0; i < axis; i++) v.outer *= t->shape[i];
    for (int i = axis + 1; i < t->ndim; i++) v.inner *= t->shape[i];
    return v;
}

static mxsim_status check_group(mxsim_ctx *ctx, const mxsim_tensor *in, int64_t g, int *axis)
{
    if (in->ndim < 1) return mx_fail(ctx, MXSIM_E_INPUT, "input: 0-d array cannot be grouped");
    if (*axis < -in->ndim || *axis >= in->ndim)
        return mx_fail(ctx, MXSIM_E_INPUT, "axis=%d: out of range for a %d-d input", *axis,
                       in->ndim);
    if (*axis < 0) *axis += in->ndim;
    if (g < 1 || g > MXSIM_MAX_GROUP)
        return mx_fail(ctx, MXSIM_E_INPUT, "group_size=%lld: must be 1..%d", (long long)g,
                       MXSIM_MAX_GROUP);
    if (in->shape[*axis] % g != 0)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "group_size=%lld does not divide axis %d of length %lld (mxsim never pads)",
                       (long long)g, *axis, (long long)in->shape[*axis]);
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_mx_quantize(mxsim_ctx *ctx, const mxsim_tensor *in, mxsim_profile p,
                                         int64_t group_size, int axis, mxsim_mx **out)
{
    mx_clear_err(ctx);
    mxsim_tensor *mant = NULL, *scale = NULL;
    float *buf = NULL;
    int8_t *mbuf = NULL;
    mxsim_status st;
    if (out == NULL || in == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_quantize: NULL argument");
    *out = NULL;
    if (in->dtype != MXSIM_DTYPE_F32 && in->dtype != MXSIM_DTYPE_BF16)
        return mx_fail(ctx, MXSIM_E_INPUT, "input: dtype %s, expected float32 or bf16",
                       mxsim_dtype_numpy(in->dtype));
    if ((int)p < 0 || p >= MXSIM_PROFILE_COUNT_)
        return mx_fail(ctx, MXSIM_E_ARG, "profile=%d: unknown", (int)p);
    if ((st = check_group(ctx, in, group_size, &axis)) != MXSIM_OK) return st;

    int64_t sshape[MXSIM_MAX_DIMS];
    memcpy(sshape, in->shape, sizeof sshape);
    sshape[axis] /= group_size;
    if ((st = mx_tensor_new(ctx, MXSIM_DTYPE_I8, in->ndim, in->shape, &mant)) != MXSIM_OK) goto fail;
    if ((st = mx_tensor_new(ctx, MXSIM_DTYPE_U8, in->ndim, sshape, &scale)) != MXSIM_OK) goto fail;
    group_view v = view_of(in, axis, group_size);
    buf = mx_malloc((size_t)group_size, sizeof *buf);
    mbuf = mx_malloc((size_t)group_size, 1);
    if (buf == NULL || mbuf == NULL) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "out of memory");
        goto fail;
    }
    const int is_bf16 = in->dtype == MXSIM_DTYPE_BF16;
    int8_t *m = mant->data;
    uint8_t *s = scale->data;
    for (int64_t o = 0; o < v.outer; o++)
        for (int64_t g = 0; g < v.n_groups_axis; g++)
            for (int64_t i = 0; i < v.inner; i++) {
                int64_t base = (o * v.len + g * v.g) * v.inner + i;
                for (int64_t k = 0; k < v.g; k++) {
                    int64_t idx = base + k * v.inner;
                    buf[k] = is_bf16 ? mxsim_bf16_to_f32(((const uint16_t *)in->data)[idx])
                                     : ((const float *)in->data)[idx];
                }
                uint8_t *sc = &s[(o * v.n_groups_axis + g) * v.inner + i];
                mx_quantize_f32(p, is_bf16, buf, (size_t)v.g, sc, mbuf, NULL);
                for (int64_t k = 0; k < v.g; k++) m[base + k * v.inner] = mbuf[k];
            }
    free(buf);
    free(mbuf);
    return mx_mx_wrap(ctx, "quantize", mant, scale, group_size, axis, p, out);
fail:
    free(buf);
    free(mbuf);
    mxsim_tensor_free(mant);
    mxsim_tensor_free(scale);
    return st;
}

MXSIM_API mxsim_status mxsim_mx_dequantize(mxsim_ctx *ctx, const mxsim_mx *mx, mxsim_dtype out_dtype,
                                           mxsim_tensor **out)
{
    mx_clear_err(ctx);
    mxsim_status st;
    if (out == NULL || mx == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_dequantize: NULL argument");
    *out = NULL;
    if (out_dtype != MXSIM_DTYPE_F32 && out_dtype != MXSIM_DTYPE_BF16)
        return mx_fail(ctx, MXSIM_E_ARG, "output dtype %s: expected f32 or bf16",
                       mxsim_dtype_name(out_dtype) ? mxsim_dtype_name(out_dtype) : "?");
    const mxsim_tensor *mt = mx->mant;
    if ((st = mx_tensor_new(ctx, out_dtype, mt->ndim, mt->shape, out)) != MXSIM_OK) return st;
    group_view v = view_of(mt, mx->axis, mx->group_size);
    const int8_t *m = mt->data;
    const uint8_t *s = mx->scale->data;
    for (int64_t o = 0; o < v.outer; o++)
        for (int64_t l = 0; l < v.len; l++) {
            const uint8_t *srow = &s[(o * v.n_groups_axis + l / v.g) * v.inner];
            int64_t base = (o * v.len + l) * v.inner;
            if (out_dtype == MXSIM_DTYPE_F32) {
                float *d = (float *)(*out)->data + base;
                for (int64_t i = 0; i < v.inner; i++)
                    d[i] = mxsim_decode_f32(mx->profile, srow[i], m[base + i]);
            } else {
                uint16_t *d = (uint16_t *)(*out)->data + base;
                for (int64_t i = 0; i < v.inner; i++)
                    d[i] = mxsim_decode_bf16(mx->profile, srow[i], m[base + i]);
            }
        }
    return MXSIM_OK;
}

static int is_mase(mxsim_profile p) { return p == MXSIM_PROFILE_MASE; }

MXSIM_API mxsim_status mxsim_mx_convert(mxsim_ctx *ctx, const mxsim_mx *mx, mxsim_profile to,
                                        mxsim_mx **out)
{
    mx_clear_err(ctx);
    if (out == NULL || mx == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_mx_convert: NULL argument");
    *out = NULL;
    if ((int)to < 0 || to >= MXSIM_PROFILE_COUNT_)
        return mx_fail(ctx, MXSIM_E_ARG, "profile=%d: unknown", (int)to);
    mxsim_status st = mxsim_mx_create(ctx, mx->mant, mx->scale, mx->group_size, mx->axis, to, out);
    if (st != MXSIM_OK || is_mase(mx->profile) == is_mase(to)) return st;
    /* OCP-family <-> MASE: the byte shifts by one; NaN blocks (0xFF, all-zero mantissas in both
    ** conventions) stay NaN blocks; anything else without a representation is refused. */
    uint8_t *s = (*out)->scale->data;
    const int8_t *m = mx->mant->data;
    group_view v = view_of(mx->mant, mx->axis, mx->group_size);
    for (int64_t gi = 0; gi < (*out)->scale->numel; gi++) {
        int64_t i = gi % v.inner, g = (gi / v.inner) % v.n_groups_axis, o = gi / v.inner / v.n_groups_axis;
        int all_zero = 1;
        for (int64_t k = 0; k < v.g && all_zero; k++)
            all_zero = m[(o * v.len + g * v.g + k) * v.inner + i] == 0;
        int byte = s[gi];
        const char *why = NULL;
        if (byte == 0xFF) {
            if (!all_zero) why = is_mase(mx->profile) ? "holds +-Inf values (MASE byte 255)" : NULL;
            if (!is_mase(mx->profile) && !all_zero)
                for (int64_t k = 0; k < v.g; k++) /* an OCP NaN block: decode NaN whatever m is */
                    ((int8_t *)(*out)->mant->data)[(o * v.len + g * v.g + k) * v.inner + i] = 0;
        } else if (is_mase(to)) {
            if (byte == 254) why = "has OCP scale 254, which MASE's byte (255 = NaN) cannot hold";
            else s[gi] = (uint8_t)(byte + 1);
        } else {
            if (byte == 0) why = "has MASE byte 0 (2^-127 in MASE terms), below OCP's range";
            else s[gi] = (uint8_t)(byte - 1);
        }
        if (why) {
            mxsim_mx_free(*out);
            *out = NULL;
            return mx_fail(ctx, MXSIM_E_INPUT, "convert %s -> %s: scale element %lld %s",
                           mxsim_profile_name(mx->profile), mxsim_profile_name(to), (long long)gi, why);
        }
    }
    return MXSIM_OK;
}

/* Whole-tensor quantize/dequantize along every axis of a 3-D tensor, checked against the block
** API applied to groups gathered here with independent index arithmetic; plus the error cases
** (G not dividing the axis, bad axis, wrong dtype) and scale-convention conversion. */
#include "mxsim.h"
#include "mxtest.h"

#define D0 4
#define D1 6
#define D2 8

static mxsim_tensor *make_input(mxsim_ctx *ctx, mxsim_dtype dt, uint64_t seed)
{
    int64_t shape[3] = {D0, D1, D2};
    mxsim_tensor *t = NULL;
    if (mxsim_tensor_create(ctx, dt, 3, shape, &t) != MXSIM_OK) return NULL;
    mxt_rng r = {seed};
    for (int i = 0; i < D0 * D1 * D2; i++) {
        float v = (float)(mxt_gauss(&r) * (i % 7 == 0 ? 40.0 : 1.0));
        if (dt == MXSIM_DTYPE_F32) ((float *)mxsim_tensor_data(t))[i] = v;
        else ((uint16_t *)mxsim_tensor_data(t))[i] = mxsim_f32_to_bf16(v);
    }
    return t;
}

/* Flat index of (i0, i1, i2). */
static int flat(int i0, int i1, int i2) { return (i0 * D1 + i1) * D2 + i2; }

static void check_axis(mxsim_ctx *ctx, mxsim_profile p, mxsim_dtype dt, int axis, int g)
{
    const int dims[3] = {D0, D1, D2};
    mxsim_tensor *in = make_input(ctx, dt, 1000u + (unsigned)axis * 7u + (unsigned)g);
    mxsim_mx *mx = NULL;
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, p, g, axis, &mx), MXSIM_OK);
    if (mx == NULL) {
        mxsim_tensor_free(in);
        return;
    }
    MXT_EQ_INT(mxsim_mx_axis(mx), axis < 0 ? axis + 3 : axis);
    int ax = axis < 0 ? axis + 3 : axis;
    const int8_t *m = mxsim_tensor_cdata(mxsim_mx_mantissa(mx));
    const uint8_t *s = mxsim_tensor_cdata(mxsim_mx_scale(mx));
    const int64_t *sshape = mxsim_tensor_shape(mxsim_mx_scale(mx));
    MXT_EQ_INT(sshape[ax], dims[ax] / g);
    size_t esz = mxsim_dtype_size(dt);
    /* Walk every group by its scale coordinates, gather its elements, quantize them alone. */
    for (int a = 0; a < (int)sshape[0]; a++)
        for (int b = 0; b < (int)sshape[1]; b++)
            for (int c = 0; c < (int)sshape[2]; c++) {
                unsigned char buf[64 * 4];
                int idx[64];
                for (int k = 0; k < g; k++) {
                    int i0 = a, i1 = b, i2 = c;
                    if (ax == 0) i0 = a * g + k;
                    if (ax == 1) i1 = b * g + k;
                    if (ax == 2) i2 = c * g + k;
                    idx[k] = flat(i0, i1, i2);
                    memcpy(buf + (size_t)k * esz, (const char *)mxsim_tensor_cdata(in) + (size_t)idx[k] * esz, esz);
                }
                uint8_t es;
                int8_t em[64];
                MXT_EQ_INT(mxsim_quantize_block(p, dt, buf, (size_t)g, &es, em), MXSIM_OK);
                MXT_EQ_INT(s[(a * sshape[1] + b) * sshape[2] + c], es);
                for (int k = 0; k < g; k++) MXT_EQ_INT(m[idx[k]], em[k]);
            }
    /* Dequantize: every element decodes with its own group's scale. */
    mxsim_tensor *out = NULL;
    MXT_EQ_INT(mxsim_mx_dequantize(ctx, mx, MXSIM_DTYPE_F32, &out), MXSIM_OK);
    if (out) {
        const float *o = mxsim_tensor_cdata(out);
        for (int i0 = 0; i0 < D0; i0++)
            for (int i1 = 0; i1 < D1; i1++)
                for (int i2 = 0; i2 < D2; i2++) {
                    int sc[3] = {i0, i1, i2};
                    sc[ax] /= g;
                    uint8_t e = s[(sc[0] * sshape[1] + sc[1]) * sshape[2] + sc[2]];
                    MXT_EQ_F32(o[flat(i0, i1, i2)], mxsim_decode_f32(p, e, m[flat(i0, i1, i2)]));
                }
    }
    mxsim_tensor_free(out);
    mxsim_mx_free(mx);
    mxsim_tensor_free(in);
}

MXTEST(quantize_every_axis_matches_block_api)
{
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    for (int p = 0; p < MXSIM_PROFILE_COUNT_; p++)
        for (int dt = 0; dt < 2; dt++) {
            mxsim_dtype d = dt ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32;
            check_axis(ctx, (mxsim_profile)p, d, 0, 2);
            check_axis(ctx, (mxsim_profile)p, d, 0, 4);
            check_axis(ctx, (mxsim_profile)p, d, 1, 3);
            check_axis(ctx, (mxsim_profile)p, d, 1, 6);
            check_axis(ctx, (mxsim_profile)p, d, 2, 8);
            check_axis(ctx, (mxsim_profile)p, d, -1, 2);
            check_axis(ctx, (mxsim_profile)p, d, -2, 1);
        }
    mxsim_ctx_destroy(ctx);
}

MXTEST(quantize_rejects_bad_group_axis_dtype)
{
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tensor *in = make_input(ctx, MXSIM_DTYPE_F32, 5);
    mxsim_mx *mx = NULL;
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, 5, 2, &mx), MXSIM_E_INPUT);
    MXT_TRUE(mx == NULL);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "does not divide") != NULL);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, 2, 3, &mx), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, 2, -4, &mx), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, 0, 2, &mx), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, MXSIM_MAX_GROUP + 1, 2, &mx), MXSIM_E_INPUT);
    int64_t shape[1] = {8};
    mxsim_tensor *i8 = NULL;
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, 1, shape, &i8), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, i8, MXSIM_PROFILE_OCP, 8, 0, &mx), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "int8 '|i1'") != NULL);
    mxsim_tensor_free(i8);
    mxsim_tensor_free(in);
    mxsim_ctx_destroy(ctx);
}

/* OCP -> MASE -> OCP keeps every decoded value (MASE byte = OCP byte + 1), and a scale MASE cannot
** hold (OCP 254) is refused naming the element. */
MXTEST(convert_ocp_mase_round_trip)
{
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    int64_t ms[1] = {8}, ss[1] = {2};
    mxsim_tensor *m = NULL, *s = NULL;
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, 1, ms, &m), MXSIM_OK);
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, 1, ss, &s), MXSIM_OK);
    int8_t *mm = mxsim_tensor_data(m);
    uint8_t *sb = mxsim_tensor_data(s);
    for (int i = 0; i < 8; i++) mm[i] = (int8_t)(i * 37 - 128);
    sb[0] = 0;
    sb[1] = 200;
    mxsim_mx *ocp = NULL, *mase = NULL, *back = NULL;
    MXT_EQ_INT(mxsim_mx_create(ctx, m, s, 4, 0, MXSIM_PROFILE_OCP, &ocp), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_convert(ctx, ocp, MXSIM_PROFILE_MASE, &mase), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_convert(ctx, mase, MXSIM_PROFILE_OCP, &back), MXSIM_OK);
    if (mase && back) {
        const uint8_t *s2 = mxsim_tensor_cdata(mxsim_mx_scale(mase));
        MXT_EQ_INT(s2[0], 1);
        MXT_EQ_INT(s2[1], 201);
        for (int i = 0; i < 8; i++) {
            float v = mxsim_decode_f32(MXSIM_PROFILE_OCP, sb[i / 4], mm[i]);
            MXT_EQ_F32(mxsim_decode_f32(MXSIM_PROFILE_MASE, s2[i / 4], mm[i]), v);
            MXT_EQ_INT(((const uint8_t *)mxsim_tensor_cdata(mxsim_mx_scale(back)))[i / 4], sb[i / 4]);
        }
    }
    mxsim_mx_free(mase);
    mxsim_mx_free(back);
    sb[1] = 254;
    mxsim_mx *bad = NULL, *out = NULL;
    MXT_EQ_INT(mxsim_mx_create(ctx, m, s, 4, 0, MXSIM_PROFILE_OCP, &bad), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_convert(ctx, bad, MXSIM_PROFILE_MASE, &out), MXSIM_E_INPUT);
    MXT_TRUE(out == NULL);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "scale element 1") != NULL);
    mxsim_mx_free(bad);
    mxsim_mx_free(ocp);
    mxsim_tensor_free(m);
    mxsim_tensor_free(s);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

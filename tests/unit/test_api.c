/* test_api.c - ABI hygiene of the public header: version and ABI numbers agree between the
** header, the library and the build (MXSIM_PROJECT_VERSION comes from CMake's project()), a
** success leaves mxsim_errmsg() empty after an earlier failure, and option structs not filled by
** their *_default() function are refused with a message. */
#include "mxsim.h"
#include "mxtest.h"

#define MSG_EMPTY(ctx) (mxsim_errmsg(ctx)[0] == '\0')

/* A context, a 1x32 zero tensor and its OCP quantization: the operands of the checks below. */
typedef struct {
    mxsim_ctx *ctx;
    mxsim_tensor *t;
    mxsim_mx *q;
} fixture;

static int fixture_open(fixture *f)
{
    int64_t shape[2] = {1, 32};
    memset(f, 0, sizeof *f);
    MXT_EQ_INT(mxsim_ctx_create(&f->ctx), MXSIM_OK);
    if (f->ctx == NULL) return 0;
    MXT_EQ_INT(mxsim_tensor_create(f->ctx, MXSIM_DTYPE_F32, 2, shape, &f->t), MXSIM_OK);
    if (f->t) MXT_EQ_INT(mxsim_mx_quantize(f->ctx, f->t, MXSIM_PROFILE_OCP, 32, 1, &f->q), MXSIM_OK);
    return f->q != NULL;
}

static void fixture_close(fixture *f)
{
    mxsim_mx_free(f->q);
    mxsim_tensor_free(f->t);
    mxsim_ctx_destroy(f->ctx);
}

MXTEST(abi_version_of_header_and_library_agree)
{
    MXT_EQ_INT(mxsim_abi_version(), MXSIM_ABI_VERSION);
    MXT_TRUE(MXSIM_ABI_VERSION >= 1);
}

MXTEST(version_of_header_library_and_build_agree)
{
    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", MXSIM_VERSION_MAJOR, MXSIM_VERSION_MINOR, MXSIM_VERSION_PATCH);
    MXT_TRUE(strcmp(MXSIM_VERSION_STRING, want) == 0);
    MXT_TRUE(strcmp(mxsim_version(), want) == 0);
#ifdef MXSIM_PROJECT_VERSION
    MXT_TRUE(strcmp(MXSIM_PROJECT_VERSION, want) == 0);
#else
    MXT_FAILF("MXSIM_PROJECT_VERSION not passed by the build");
#endif
}

/* Each pair: a call that fails with a message, then a call that succeeds on the same context. */
MXTEST(a_success_clears_the_previous_message)
{
    fixture f;
    if (!fixture_open(&f)) goto done;
    mxsim_ctx *ctx = f.ctx;
    MXT_TRUE(MSG_EMPTY(ctx));

    MXT_EQ_INT(mxsim_ctx_set_threads(ctx, 5000), MXSIM_E_ARG);
    MXT_TRUE(!MSG_EMPTY(ctx));
    MXT_EQ_INT(mxsim_ctx_set_threads(ctx, 1), MXSIM_OK);
    MXT_TRUE(MSG_EMPTY(ctx));

    mxsim_tensor *t = NULL;
    int64_t shape[2] = {2, -1};
    MXT_TRUE(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, &t) != MXSIM_OK);
    MXT_TRUE(!MSG_EMPTY(ctx));
    shape[1] = 32;
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, &t), MXSIM_OK);
    MXT_TRUE(MSG_EMPTY(ctx));

    /* a failure in another module (file input), then a success in a third (quantize) */
    mxsim_tensor *none = NULL;
    MXT_TRUE(mxsim_tensor_load_npy(ctx, "/nonexistent/dir/x.npy", &none) != MXSIM_OK);
    MXT_TRUE(!MSG_EMPTY(ctx));
    mxsim_mx *q = NULL;
    MXT_EQ_INT(mxsim_mx_quantize(ctx, t, MXSIM_PROFILE_OCP, 32, 1, &q), MXSIM_OK);
    MXT_TRUE(MSG_EMPTY(ctx));

    /* gemm: a missing operand fails, the pair succeeds */
    mxsim_tensor *c = NULL;
    MXT_TRUE(mxsim_gemm(ctx, q, NULL, NULL, &c) != MXSIM_OK);
    MXT_TRUE(!MSG_EMPTY(ctx));
    MXT_EQ_INT(mxsim_gemm(ctx, q, q, NULL, &c), MXSIM_OK);
    MXT_TRUE(MSG_EMPTY(ctx));

    mxsim_tensor_free(c);
    mxsim_mx_free(q);
    mxsim_tensor_free(t);
done:
    fixture_close(&f);
}

MXTEST(gemm_opts_need_their_default_function)
{
    fixture f;
    mxsim_tensor *c = NULL;
    if (!fixture_open(&f)) goto done;
    mxsim_gemm_opts o;
    memset(&o, 0, sizeof o); /* zeroed, not filled by mxsim_gemm_opts_default */
    MXT_EQ_INT(mxsim_gemm(f.ctx, f.q, f.q, &o, &c), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(f.ctx), "struct_size") != NULL);
    MXT_TRUE(strstr(mxsim_errmsg(f.ctx), "mxsim_gemm_opts_default") != NULL);
    MXT_TRUE(c == NULL);
    o.struct_size = sizeof o + 8; /* as if compiled against a longer struct */
    MXT_EQ_INT(mxsim_gemm(f.ctx, f.q, f.q, &o, &c), MXSIM_E_ARG);

    mxsim_gemm_opts_default(&o);
    MXT_EQ_INT(o.struct_size, sizeof o);
    MXT_EQ_INT(o.acc, MXSIM_ACC_FP32);
    MXT_EQ_INT(o.out_dtype, MXSIM_DTYPE_F32);
    o.out_dtype = MXSIM_DTYPE_BF16;
    MXT_EQ_INT(mxsim_gemm(f.ctx, f.q, f.q, &o, &c), MXSIM_OK);
    MXT_TRUE(MSG_EMPTY(f.ctx));
    MXT_EQ_INT(c ? (int)mxsim_tensor_dtype(c) : -1, MXSIM_DTYPE_BF16);
done:
    mxsim_tensor_free(c);
    fixture_close(&f);
}

MXTEST_MAIN()

/* test_npy_interop.c - NumPy interoperability of mxsim's .npy/.npz reader and writer.
**
** Runs on its own under CTest: finds a python3 that can import numpy ($MXSIM_PYTHON, then
** python3 on PATH, then /usr/bin/python3; exit 77 = skipped if none), then
**   1. npz_interop.py gen  - NumPy writes .npy files (every supported dtype, big-endian ones,
**      0-d arrays from np.save of a scalar, an empty array, a Fortran-ordered one) and .npz
**      files (np.savez and np.savez_compressed with the five MXINT8 members);
**   2. this program reads them and checks every value against the closed-form formulas that
**      npz_interop.py also uses, then writes its own files with mxsim_tensor_save_npy and
**      mxsim_mx_save;
**   3. npz_interop.py check - NumPy np.load()s our files and checks dtypes, shapes, values,
**      the 0-d group_size/axis int64 and profile string, and the ZIP CRCs and methods.
** Files live in $MXSIM_TEST_TMP (default ./tmp_test_npy_interop).  The script is found through
** $MXSIM_SOURCE_DIR, else next to this source file.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "mxsim.h"
#include "mxtest.h"

static char g_dir[1024];

static const char *tpath(const char *name)
{
    static char bufs[4][1200];
    static int k;
    char *b = bufs[k++ & 3];
    snprintf(b, sizeof bufs[0], "%s/%s", g_dir, name);
    return b;
}

/* Single-quotes s for /bin/sh; returns 0 if s holds a quote (not worth escaping here). */
static int shq(char *out, size_t cap, const char *s)
{
    if (strchr(s, '\'') != NULL) return 0;
    return snprintf(out, cap, "'%s'", s) < (int)cap;
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    if (rc == -1) return -1;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

static int find_python(char *py, size_t cap)
{
    const char *cands[] = {getenv("MXSIM_PYTHON"), "python3", "/usr/bin/python3"};
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        char q[1100], cmd[1200];
        if (cands[i] == NULL || cands[i][0] == '\0' || !shq(q, sizeof q, cands[i])) continue;
        snprintf(cmd, sizeof cmd, "%s -c 'import numpy' >/dev/null 2>&1", q);
        if (run(cmd) == 0) {
            snprintf(py, cap, "%s", q);
            return 1;
        }
    }
    return 0;
}

static void find_script(char *out, size_t cap)
{
    const char *src = getenv("MXSIM_SOURCE_DIR");
    if (src && *src) {
        snprintf(out, cap, "%s/tests/unit/npz_interop.py", src);
        return;
    }
    /* CMake compiles with absolute source paths. */
    snprintf(out, cap, "%s", __FILE__);
    char *slash = strrchr(out, '/');
    size_t at = slash ? (size_t)(slash - out) + 1 : 0;
    snprintf(out + at, cap - at, "npz_interop.py");
}

static void mkdir_p(const char *path)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
}

/* ---- the shared formulas (keep in step with npz_interop.py) ----------------------------- */

static float f32_at(int64_t i) { return (float)i * 0.5f - 3.0f; }
static int8_t i8_at(int64_t i) { return (int8_t)(i % 256 - 128); }
static uint8_t u8_at(int64_t i) { return (uint8_t)((i * 7) % 256); }
static uint16_t u16_at(int64_t i) { return (uint16_t)((i * 1657) % 65536); }
static const int64_t k_i64[3] = {-5, (int64_t)1 << 40, 7};
static int8_t mant_at(int64_t i) { return (int8_t)((i * 7 + 3) % 256 - 128); }
static uint8_t scale_at(int64_t i) { return (uint8_t)(100 + i % 50); }

static const struct {
    const char *stem;
    int64_t rows, cols, g;
    int axis;
    mxsim_profile prof;
    int compress;
} k_npz[] = {
    {"A_stored", 4, 64, 32, 1, MXSIM_PROFILE_MASE_CUDA, 0},
    {"A_deflate", 4, 64, 32, 1, MXSIM_PROFILE_MASE_CUDA, 1},
    {"B_axis0", 64, 3, 16, 0, MXSIM_PROFILE_MICROXCALING, 1},
    {"C_i4meta", 4, 64, 16, 1, MXSIM_PROFILE_OCP, 0},
};

#define CHECK_OK(ctx, expr)                                                                      \
    do {                                                                                         \
        mxsim_status st_ = (expr);                                                               \
        mxt_checks++;                                                                            \
        if (st_ != MXSIM_OK) MXT_FAILF("%s: %s", #expr, mxsim_errmsg(ctx));                      \
    } while (0)

/* Loads a NumPy-written .npy and checks dtype, shape and every element. */
static void check_npy(mxsim_ctx *ctx, const char *name, mxsim_dtype dt, int ndim,
                      const int64_t *shape)
{
    mxsim_tensor *t = NULL;
    CHECK_OK(ctx, mxsim_tensor_load_npy(ctx, tpath(name), &t));
    if (t == NULL) return;
    MXT_EQ_INT(mxsim_tensor_dtype(t), dt);
    MXT_EQ_INT(mxsim_tensor_ndim(t), ndim);
    for (int i = 0; i < ndim && i < mxsim_tensor_ndim(t); i++)
        MXT_EQ_INT(mxsim_tensor_shape(t)[i], shape[i]);
    int64_t n = mxsim_tensor_numel(t);
    const void *d = mxsim_tensor_cdata(t);
    long bad = 0;
    for (int64_t i = 0; i < n; i++) {
        switch (dt) {
        case MXSIM_DTYPE_F32: bad += !mxt_same_f32(((const float *)d)[i], f32_at(i)); break;
        case MXSIM_DTYPE_I8: bad += ((const int8_t *)d)[i] != i8_at(i); break;
        case MXSIM_DTYPE_U8: bad += ((const uint8_t *)d)[i] != u8_at(i); break;
        case MXSIM_DTYPE_U16: bad += ((const uint16_t *)d)[i] != u16_at(i); break;
        default: bad += ((const int64_t *)d)[i] != k_i64[i]; break;
        }
    }
    if (bad) MXT_FAILF("%s: %ld of %lld values differ", name, bad, (long long)n);
    mxsim_tensor_free(t);
}

/* Creates a tensor filled by the formula for dt, saves it as name. */
static void write_npy(mxsim_ctx *ctx, const char *name, mxsim_dtype dt, int ndim,
                      const int64_t *shape)
{
    mxsim_tensor *t = NULL;
    CHECK_OK(ctx, mxsim_tensor_create(ctx, dt, ndim, shape, &t));
    if (t == NULL) return;
    void *d = mxsim_tensor_data(t);
    for (int64_t i = 0; i < mxsim_tensor_numel(t); i++) switch (dt) {
        case MXSIM_DTYPE_F32: ((float *)d)[i] = f32_at(i); break;
        case MXSIM_DTYPE_I8: ((int8_t *)d)[i] = i8_at(i); break;
        case MXSIM_DTYPE_U8: ((uint8_t *)d)[i] = u8_at(i); break;
        case MXSIM_DTYPE_BF16:
        case MXSIM_DTYPE_U16: ((uint16_t *)d)[i] = u16_at(i); break;
        default: ((int64_t *)d)[i] = k_i64[i]; break;
        }
    CHECK_OK(ctx, mxsim_tensor_save_npy(ctx, t, tpath(name)));
    mxsim_tensor_free(t);
}

MXTEST(numpy_interop)
{
    char py[1100], script[1100], qs[1200], qd[1200], cmd[4000];
    if (!find_python(py, sizeof py)) {
        printf("skipped: python3-numpy not installed\n");
        MXT_SKIP("python3-numpy not installed");
    }
    const char *d = getenv("MXSIM_TEST_TMP");
    snprintf(g_dir, sizeof g_dir, "%s", d && *d ? d : "tmp_test_npy_interop");
    mkdir_p(g_dir);
    find_script(script, sizeof script);
    struct stat sb;
    if (stat(script, &sb) != 0) {
        MXT_FAILF("helper script %s not found (set MXSIM_SOURCE_DIR)", script);
        return;
    }
    if (!shq(qs, sizeof qs, script) || !shq(qd, sizeof qd, g_dir)) {
        MXT_FAILF("paths with single quotes are not supported: %s, %s", script, g_dir);
        return;
    }

    /* 1. NumPy writes. */
    snprintf(cmd, sizeof cmd, "%s %s gen %s", py, qs, qd);
    MXT_EQ_INT(run(cmd), 0);

    /* 2. We read NumPy's files. */
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    const int64_t s234[3] = {2, 3, 4}, s3_100[2] = {3, 100}, s50[1] = {50}, s58[2] = {5, 8},
                  s3[1] = {3}, s03[2] = {0, 3};
    check_npy(ctx, "np_f32.npy", MXSIM_DTYPE_F32, 3, s234);
    check_npy(ctx, "np_f32_be.npy", MXSIM_DTYPE_F32, 3, s234);
    check_npy(ctx, "np_i8.npy", MXSIM_DTYPE_I8, 2, s3_100);
    check_npy(ctx, "np_u8.npy", MXSIM_DTYPE_U8, 1, s50);
    check_npy(ctx, "np_u16.npy", MXSIM_DTYPE_U16, 2, s58);
    check_npy(ctx, "np_u16_be.npy", MXSIM_DTYPE_U16, 2, s58);
    check_npy(ctx, "np_i64_be.npy", MXSIM_DTYPE_I64, 1, s3);
    check_npy(ctx, "np_empty.npy", MXSIM_DTYPE_F32, 2, s03);
    mxsim_tensor *t = NULL;
    CHECK_OK(ctx, mxsim_tensor_load_npy(ctx, tpath("np_0d_i64.npy"), &t));
    if (t) {
        MXT_EQ_INT(mxsim_tensor_ndim(t), 0);
        MXT_EQ_INT(mxsim_tensor_dtype(t), MXSIM_DTYPE_I64);
        MXT_EQ_INT(*(const int64_t *)mxsim_tensor_cdata(t), -42);
        mxsim_tensor_free(t);
        t = NULL;
    }
    CHECK_OK(ctx, mxsim_tensor_load_npy(ctx, tpath("np_0d_f32.npy"), &t));
    if (t) {
        MXT_EQ_INT(mxsim_tensor_ndim(t), 0);
        MXT_EQ_F32(*(const float *)mxsim_tensor_cdata(t), 2.5f);
        mxsim_tensor_free(t);
        t = NULL;
    }
    MXT_EQ_INT(mxsim_tensor_load_npy(ctx, tpath("np_fortran.npy"), &t), MXSIM_E_UNSUPPORTED);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "fortran_order") != NULL);

    for (size_t c = 0; c < sizeof k_npz / sizeof k_npz[0]; c++) {
        char name[64];
        mxsim_mx *mx = NULL;
        snprintf(name, sizeof name, "%s.npz", k_npz[c].stem);
        CHECK_OK(ctx, mxsim_mx_load(ctx, tpath(name), &mx));
        if (mx == NULL) continue;
        const mxsim_tensor *m = mxsim_mx_mantissa(mx), *s = mxsim_mx_scale(mx);
        MXT_EQ_INT(mxsim_mx_group_size(mx), k_npz[c].g);
        MXT_EQ_INT(mxsim_mx_axis(mx), k_npz[c].axis);
        MXT_EQ_INT(mxsim_mx_profile(mx), k_npz[c].prof);
        MXT_EQ_INT(mxsim_tensor_shape(m)[0], k_npz[c].rows);
        MXT_EQ_INT(mxsim_tensor_shape(m)[1], k_npz[c].cols);
        long bad = 0;
        for (int64_t i = 0; i < mxsim_tensor_numel(m); i++)
            bad += ((const int8_t *)mxsim_tensor_cdata(m))[i] != mant_at(i);
        for (int64_t i = 0; i < mxsim_tensor_numel(s); i++)
            bad += ((const uint8_t *)mxsim_tensor_cdata(s))[i] != scale_at(i);
        MXT_EQ_INT(mxsim_tensor_numel(s), k_npz[c].rows * k_npz[c].cols / k_npz[c].g);
        MXT_EQ_INT(bad, 0);
        /* 3a. ... and write it back for NumPy. */
        snprintf(name, sizeof name, "c_%s.npz", k_npz[c].stem);
        CHECK_OK(ctx, mxsim_mx_save(ctx, mx, tpath(name), k_npz[c].compress));
        mxsim_mx_free(mx);
    }

    /* 3b. Our .npy files. */
    const int64_t none[1] = {0};
    write_npy(ctx, "c_f32.npy", MXSIM_DTYPE_F32, 3, s234);
    write_npy(ctx, "c_i8.npy", MXSIM_DTYPE_I8, 2, s3_100);
    write_npy(ctx, "c_u8.npy", MXSIM_DTYPE_U8, 1, s50);
    write_npy(ctx, "c_u16.npy", MXSIM_DTYPE_U16, 2, s58);
    write_npy(ctx, "c_bf16.npy", MXSIM_DTYPE_BF16, 2, s58);
    write_npy(ctx, "c_i64.npy", MXSIM_DTYPE_I64, 1, s3);
    write_npy(ctx, "c_empty.npy", MXSIM_DTYPE_F32, 2, s03);
    mxsim_tensor *z = NULL;
    CHECK_OK(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_I64, 0, none, &z));
    if (z) {
        *(int64_t *)mxsim_tensor_data(z) = -42;
        CHECK_OK(ctx, mxsim_tensor_save_npy(ctx, z, tpath("c_0d_i64.npy")));
        mxsim_tensor_free(z);
        z = NULL;
    }
    CHECK_OK(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 0, NULL, &z));
    if (z) {
        *(float *)mxsim_tensor_data(z) = 2.5f;
        CHECK_OK(ctx, mxsim_tensor_save_npy(ctx, z, tpath("c_0d_f32.npy")));
        mxsim_tensor_free(z);
    }
    mxsim_ctx_destroy(ctx);

    /* 4. NumPy checks ours. */
    snprintf(cmd, sizeof cmd, "%s %s check %s", py, qs, qd);
    MXT_EQ_INT(run(cmd), 0);
}

MXTEST_MAIN()

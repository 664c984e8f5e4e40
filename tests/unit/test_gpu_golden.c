/* test_gpu_golden.c - the GPU golden set (tests/golden/gpu/, written by `mxsim-gpu golden` on a
** real card; see reports/gpu/) re-derived with the C model on the CPU: every GPU output must be
** bit-identical (NaN by class).  Needs no CUDA.  MANIFEST lines: "dequant NAME", "quantize NAME G",
** "gemm NAME". */
#include "mxsim.h"
#include "mxtest.h"

static char g_dir[1024];

static void golden_dir(void)
{
    /* __FILE__ is .../tests/unit/test_gpu_golden.c; the set is .../tests/golden/gpu/ */
    snprintf(g_dir, sizeof g_dir, "%s", __FILE__);
    char *slash = strrchr(g_dir, '/');
    if (slash) *slash = '\0';
    else snprintf(g_dir, sizeof g_dir, ".");
    size_t n = strlen(g_dir);
    snprintf(g_dir + n, sizeof g_dir - n, "/../golden/gpu");
}

static const char *path_of(char *buf, size_t len, const char *name, const char *suffix)
{
    snprintf(buf, len, "%s/%s%s", g_dir, name, suffix);
    return buf;
}

static void check_dequant(mxsim_ctx *ctx, const char *name)
{
    char p1[1200], p2[1200];
    mxsim_mx *mx = NULL;
    mxsim_tensor *ref = NULL, *gpu = NULL;
    MXT_EQ_INT(mxsim_mx_load(ctx, path_of(p1, sizeof p1, name, ".in.npz"), &mx), MXSIM_OK);
    MXT_EQ_INT(mxsim_tensor_load_npy(ctx, path_of(p2, sizeof p2, name, ".gpu.npy"), &gpu), MXSIM_OK);
    if (!mx || !gpu) goto out;
    MXT_EQ_INT(mxsim_mx_dequantize(ctx, mx, MXSIM_DTYPE_BF16, &ref), MXSIM_OK);
    if (!ref) goto out;
    MXT_EQ_INT(mxsim_tensor_numel(ref), mxsim_tensor_numel(gpu));
    if (mxsim_tensor_numel(ref) != mxsim_tensor_numel(gpu)) goto out;
    const uint16_t *r = mxsim_tensor_cdata(ref), *g = mxsim_tensor_cdata(gpu);
    for (int64_t i = 0; i < mxsim_tensor_numel(ref); i++) MXT_EQ_BF16(g[i], r[i]);
out:
    mxsim_mx_free(mx);
    mxsim_tensor_free(ref);
    mxsim_tensor_free(gpu);
}

static void check_quantize(mxsim_ctx *ctx, const char *name, int64_t G)
{
    char p1[1200], p2[1200];
    mxsim_tensor *in = NULL;
    mxsim_mx *gpu = NULL, *ref = NULL;
    MXT_EQ_INT(mxsim_tensor_load_npy(ctx, path_of(p1, sizeof p1, name, ".in.npy"), &in), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_load(ctx, path_of(p2, sizeof p2, name, ".gpu.npz"), &gpu), MXSIM_OK);
    if (!in || !gpu) goto out;
    if (mxsim_tensor_dtype(in) == MXSIM_DTYPE_U16) mxsim_tensor_set_dtype(ctx, in, MXSIM_DTYPE_BF16);
    MXT_EQ_INT(mxsim_mx_quantize(ctx, in, MXSIM_PROFILE_OCP, G, -1, &ref), MXSIM_OK);
    if (!ref) goto out;
    const mxsim_tensor *rm = mxsim_mx_mantissa(ref), *gm = mxsim_mx_mantissa(gpu);
    const mxsim_tensor *rs = mxsim_mx_scale(ref), *gs = mxsim_mx_scale(gpu);
    MXT_EQ_INT(mxsim_tensor_numel(rm), mxsim_tensor_numel(gm));
    MXT_EQ_INT(mxsim_tensor_numel(rs), mxsim_tensor_numel(gs));
    if (mxsim_tensor_numel(rm) != mxsim_tensor_numel(gm) || mxsim_tensor_numel(rs) != mxsim_tensor_numel(gs))
        goto out;
    for (int64_t i = 0; i < mxsim_tensor_numel(rm); i++)
        MXT_EQ_INT(((const int8_t *)mxsim_tensor_cdata(gm))[i], ((const int8_t *)mxsim_tensor_cdata(rm))[i]);
    for (int64_t i = 0; i < mxsim_tensor_numel(rs); i++)
        MXT_EQ_HEX(((const uint8_t *)mxsim_tensor_cdata(gs))[i], ((const uint8_t *)mxsim_tensor_cdata(rs))[i]);
out:
    mxsim_tensor_free(in);
    mxsim_mx_free(gpu);
    mxsim_mx_free(ref);
}

static void check_gemm(mxsim_ctx *ctx, const char *name)
{
    char p1[1200], p2[1200], p3[1200];
    mxsim_mx *a = NULL, *b = NULL;
    mxsim_tensor *gpu = NULL, *ref = NULL;
    MXT_EQ_INT(mxsim_mx_load(ctx, path_of(p1, sizeof p1, name, ".a.npz"), &a), MXSIM_OK);
    MXT_EQ_INT(mxsim_mx_load(ctx, path_of(p2, sizeof p2, name, ".b.npz"), &b), MXSIM_OK);
    MXT_EQ_INT(mxsim_tensor_load_npy(ctx, path_of(p3, sizeof p3, name, ".gpu.npy"), &gpu), MXSIM_OK);
    if (!a || !b || !gpu) goto out;
    mxsim_gemm_opts o;
    mxsim_gemm_opts_default(&o);
    MXT_EQ_INT(mxsim_gemm(ctx, a, b, &o, &ref), MXSIM_OK);
    if (!ref) goto out;
    MXT_EQ_INT(mxsim_tensor_numel(ref), mxsim_tensor_numel(gpu));
    if (mxsim_tensor_numel(ref) != mxsim_tensor_numel(gpu)) goto out;
    const float *r = mxsim_tensor_cdata(ref), *g = mxsim_tensor_cdata(gpu);
    for (int64_t i = 0; i < mxsim_tensor_numel(ref); i++) MXT_EQ_F32(g[i], r[i]);
out:
    mxsim_mx_free(a);
    mxsim_mx_free(b);
    mxsim_tensor_free(gpu);
    mxsim_tensor_free(ref);
}

MXTEST(gpu_golden_set)
{
    golden_dir();
    char mpath[1200];
    FILE *f = fopen(path_of(mpath, sizeof mpath, "MANIFEST", ""), "r");
    MXT_TRUE(f != NULL);
    if (!f) return;
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    char line[512], kind[64], name[256];
    int n_cases = 0;
    while (fgets(line, sizeof line, f)) {
        long long G = 0;
        if (line[0] == '#' || sscanf(line, "%63s %255s %lld", kind, name, &G) < 2) continue;
        n_cases++;
        if (strcmp(kind, "dequant") == 0) check_dequant(ctx, name);
        else if (strcmp(kind, "quantize") == 0) check_quantize(ctx, name, (int64_t)G);
        else if (strcmp(kind, "gemm") == 0) check_gemm(ctx, name);
        else MXT_FAILF("MANIFEST: unknown kind '%s'", kind);
    }
    fclose(f);
    MXT_TRUE(n_cases >= 10);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

/* test_xcard.c - the cross-card GPU model's library API (sim/doc/gpu-model.md sections 6-7): the
** class routing, a prediction computed by hand, the calibration on a synthetic bench generated from
** known fields (it must find them back, and predict a second card whose datasheet differs), the
** measured-power lookup and interpolation (by hand), and the loaders' errors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mxsim.h"
#include "mxtest.h"

#define MXT_NEAR(a, b, tol) MXT_TRUE(fabs((double)(a) - (double)(b)) <= (tol))

static const char *tmp_file(const char *name)
{
    static char buf[4][1024];
    static int k;
    k = (k + 1) % 4;
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d || !d[0]) d = "/tmp";
    mkdir(d, 0755);
    snprintf(buf[k], sizeof buf[k], "%s/%s", d, name);
    return buf[k];
}

static const mxsim_gpu_xsheet k_h100 = {132, 1830, 1979, 989.5, 3350};

MXTEST(xcard_routing)
{
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 16, 4096, 32), MXSIM_GX_DECODE); /* M <= 16, G = 32 */
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 16, 4096, 128), MXSIM_GX_GEMV);  /* M <= 16, G = 128 */
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 1, 4096, 64), MXSIM_GX_DECODE);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 4, 4096, 64), MXSIM_GX_GEMV);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 12, 4096, 64), MXSIM_GX_DECODE);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8-cfg9", 16, 4096, 128), MXSIM_GX_DECODE);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8-cfg4", 1, 4096, 32), MXSIM_GX_GEMV);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 17, 16896, 32), MXSIM_GX_WGMMA); /* 1 x 132 tiles */
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8", 128, 16768, 32), MXSIM_GX_CFG3); /* 131 tiles */
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-gemm-mxint8-cfg5", 4096, 4096, 32), MXSIM_GX_CFG5);
    MXT_EQ_INT(mxsim_gpu_xclass_of("dequant+cublas-bf16", 1, 1, 32), MXSIM_GX_DEQUANT_CUBLAS);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-dequant-mase-cuda", 1, 1, 32), MXSIM_GX_DEQUANT);
    MXT_EQ_INT(mxsim_gpu_xclass_of("mxk-dequant-ocp-cfg1", 1, 1, 32), -1);
    MXT_EQ_INT(mxsim_gpu_xclass_of("warp-drive", 1, 1, 32), -1);
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_WGMMA), "mxk-wgmma-cfg8") == 0);
    MXT_TRUE(mxsim_gpu_xclass_name(MXSIM_GX_NCLASS) == NULL);
}

MXTEST(xcard_predict_by_hand)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_xparams p;
    memset(&p, 0, sizeof p);
    p.mem_eff = 0.9;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) p.cls[c].rho = 1, p.cls[c].a[0] = p.cls[c].a[1] = p.cls[c].a[2] = 1;
    p.cls[MXSIM_GX_CUBLAS_BF16].L = 5;
    double us = 0;
    /* 1024^3 bf16: T = 2 x 1024^3 / 989.5e12 s = 2.17023 us over 64 tiles of 128 x 128, one wave
    ** of 132 SMs: W = T x 1 / (64/132) = 4.47610 us; D = 6 x 1024^2 bytes / (3350e9 x 0.9) =
    ** 2.08670 us; time = 5 + max = 9.47610 us */
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 1024, 1024, 1024, 0, &us), MXSIM_OK);
    MXT_NEAR(us, 9.47610, 1e-4);
    /* the same with ov = 0.5: + 0.5 x 2.08670 */
    p.cls[MXSIM_GX_CUBLAS_BF16].ov = 0.5;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 1024, 1024, 1024, 0, &us), MXSIM_OK);
    MXT_NEAR(us, 10.51945, 1e-4);
    /* the copy of n = 1e8 elements: 4e8 bytes / (3350e9 x 0.9) = 132.6700 us */
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "d2d-copy", 100000000, 1, 1, 0, &us), MXSIM_OK);
    MXT_NEAR(us, 132.6700, 1e-3);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "warp-drive", 1, 1, 1, 0, &us), MXSIM_E_UNSUPPORTED);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8", 16, 64, 48, 32, &us), MXSIM_E_ARG); /* G does not divide K */
    mxsim_ctx_destroy(ctx);
}

/* A synthetic bench of card d from fields truth: the copy, dequant and Hopper-kernel rows. */
static int write_bench(mxsim_ctx *ctx, const char *path, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *truth)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\n");
    static const struct { int64_t M, N, K, G; const char *m; } rows[] = {
        {234881024, 1, 1, 0, "d2d-copy"},          {234881024, 1, 1, 16, "mxk-dequant-ocp"},
        {234881024, 1, 1, 128, "mxk-dequant-ocp"}, {2048, 4096, 4096, 32, "mxk-gemm-mxint8"},
        {2048, 11008, 4096, 32, "mxk-gemm-mxint8"}, {8192, 8192, 8192, 32, "mxk-gemm-mxint8"},
        {2048, 4096, 4096, 128, "mxk-gemm-mxint8"}, {2048, 11008, 4096, 128, "mxk-gemm-mxint8"},
        {8192, 8192, 8192, 128, "mxk-gemm-mxint8"}};
    int rc = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double us = 0;
        if (mxsim_gpu_xpredict(ctx, d, truth, rows[i].m, rows[i].M, rows[i].N, rows[i].K, rows[i].G, &us) != MXSIM_OK) rc = -1;
        fprintf(f, "Synthetic,s,%lld,%lld,%lld,%lld,%s,%.6f,1,u,1\n", (long long)rows[i].M, (long long)rows[i].N,
                (long long)rows[i].K, (long long)rows[i].G, rows[i].m, us);
    }
    fclose(f);
    return rc;
}

MXTEST(xcard_calibration_recovers_synthetic_fields)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_xparams truth;
    memset(&truth, 0, sizeof truth);
    truth.mem_eff = 0.9;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) truth.cls[c].rho = 1, truth.cls[c].a[0] = truth.cls[c].a[1] = truth.cls[c].a[2] = 1;
    truth.cls[MXSIM_GX_DEQUANT].L = 4, truth.cls[MXSIM_GX_DEQUANT].rho = 0.97;
    mxsim_gpu_xclass_params *w = &truth.cls[MXSIM_GX_WGMMA];
    w->L = 6, w->a[0] = 2.5, w->a[2] = 3.0, w->b[0] = 10, w->b[2] = 1;
    const mxsim_gpu_xsheet other = {132, 1830, 1979, 989.5, 4800}; /* a card with more bandwidth */
    const char *pa = tmp_file("xcard_a.csv"), *pb = tmp_file("xcard_b.csv");
    MXT_EQ_INT(write_bench(ctx, pa, &k_h100, &truth), 0);
    MXT_EQ_INT(write_bench(ctx, pb, &other, &truth), 0);
    mxsim_gpu_xbench *ba = NULL, *bb = NULL;
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, pa, &ba), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, pb, &bb), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_count(ba), 9);
    mxsim_gpu_xparams fit;
    MXT_EQ_INT(mxsim_gpu_xcalibrate(ctx, ba, &k_h100, &fit), MXSIM_OK);
    MXT_NEAR(fit.mem_eff, 0.9, 1e-6); /* from the copy row alone, exactly (printed to 6 decimals) */
    mxsim_gpu_xscore sa, sb;
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, ba, &k_h100, &fit, &sa), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bb, &other, &fit, &sb), MXSIM_OK);
    MXT_TRUE(sa.mape < 0.005); /* the structure can represent the truth: the fit finds it */
    MXT_TRUE(sb.mape < 0.005); /* and then predicts the other card */
    MXT_EQ_INT(sb.n, 9);
    MXT_EQ_INT(sb.cls_n[MXSIM_GX_WGMMA], 6);
    mxsim_gpu_xbench_free(ba);
    mxsim_gpu_xbench_free(bb);
    mxsim_ctx_destroy(ctx);
}

MXTEST(xcard_power_by_hand)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    const char *p = tmp_file("xcard_ext.csv");
    FILE *f = fopen(p, "w");
    MXT_TRUE(f != NULL);
    if (!f) return;
    fprintf(f, "card,shape,M,N,K,G,method,median_us,ratio_vs_bf16,bound,bound_us,tensor_us,epilogue_us,dram_us,"
               "frac_of_bound,power_w,joules_per_op,tops_per_w,power_calls\n"
               "Card X,s,1,1024,1024,0,cublas-bf16,10.0,1,t,1,1,0,1,1,400.0,0.004,0.5,100\n"
               "Card X,s,16,1024,1024,0,cublas-bf16,12.0,1,t,1,1,0,1,1,600.0,0.007,0.5,100\n");
    fclose(f);
    mxsim_gpu_xpower *pw = NULL;
    MXT_EQ_INT(mxsim_gpu_xpower_load(ctx, p, &pw), MXSIM_OK);
    MXT_TRUE(strcmp(mxsim_gpu_xpower_card(pw), "Card X") == 0);
    double us = 0, watts = 0;
    MXT_EQ_INT(mxsim_gpu_xpower_measured(pw, "cublas-bf16", 16, 1024, 1024, 0, &us, &watts), 1);
    MXT_NEAR(us, 12.0, 1e-9);
    MXT_NEAR(watts, 600.0, 1e-9);
    MXT_EQ_INT(mxsim_gpu_xpower_measured(pw, "cublas-bf16", 4, 1024, 1024, 0, &us, &watts), 0);
    /* M = 4 is the geometric midpoint of 1 and 16 in ops: (400 + 600) / 2 */
    MXT_NEAR(mxsim_gpu_xpower_watts(pw, "cublas-bf16", 4, 1024, 1024, 0), 500.0, 1e-9);
    MXT_NEAR(mxsim_gpu_xpower_watts(pw, "cublas-bf16", 64, 1024, 1024, 0), 600.0, 1e-9); /* clamped */
    MXT_NEAR(mxsim_gpu_xpower_watts(pw, "cublaslt-int8", 4, 1024, 1024, 0), 0.0, 0);      /* no row */
    mxsim_gpu_xpower_free(pw);
    /* a bench without the power columns is refused */
    f = fopen(p, "w");
    if (f) {
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,1,1,0,d2d-copy,1,1,u,1\n");
        fclose(f);
    }
    MXT_EQ_INT(mxsim_gpu_xpower_load(ctx, p, &pw), MXSIM_E_INPUT);
    mxsim_ctx_destroy(ctx);
}

MXTEST(xcard_bench_errors)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    const char *p = tmp_file("xcard_bad.csv");
    mxsim_gpu_xbench *b = NULL;
    FILE *f = fopen(p, "w");
    if (f) {
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,4096,4096,0,cublas-bf16,10,1,u,1\n");
        fclose(f);
    }
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, p, &b), MXSIM_E_INPUT); /* no copy row first */
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "d2d-copy") != NULL);
    f = fopen(p, "w");
    if (f) {
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,1,1,0,d2d-copy,nan,1,u,1\n");
        fclose(f);
    }
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, p, &b), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, tmp_file("no_such_file.csv"), &b), MXSIM_E_INPUT); /* a missing input is the user's */
    MXT_TRUE(b == NULL);
    mxsim_ctx_destroy(ctx);
}

int main(void) { return mxt_run_all(); }

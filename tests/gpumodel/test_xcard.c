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

static const mxsim_gpu_xsheet k_h100 = {132, 1830, 1979, 989.5, 3350, 52.4288};

MXTEST(xcard_routing)
{
    /* the current build (kernels/src/gemm_mma.cu cfg 0; cfg 9 / 10 and their fallback to cfg 4), each
    ** cfg and decode shape of the bench (M 1, 16; N 4096, 11008; K 4096; G 32, 64, 128) and the edges */
    enum { C = MXSIM_GX_BUILD_CURRENT, O = MXSIM_GX_BUILD_DECODE1, P = MXSIM_GX_BUILD_PREBF16, R = MXSIM_GX_BUILD_PREROW,
           D9 = MXSIM_GX_DECODE, D10 = MXSIM_GX_DECODE1, BF = MXSIM_GX_BF16, DR = MXSIM_GX_DECODE_ROW };
    static const struct { const char *m; int64_t M, N, K, G; int build, want; } t[] = {
        /* cfg 0, current: M = 1 -> cfg 12 at G >= 64 (where it applies: K % 512 == 0, K <= 32768), else
        ** M <= 8 -> cfg 9 at every G; 8 < M <= 16 -> cfg 10 at G = 32, else cfg 9 */
        {"mxk-gemm-mxint8", 1, 4096, 4096, 32, C, D9},      {"mxk-gemm-mxint8", 1, 4096, 4096, 64, C, DR},
        {"mxk-gemm-mxint8", 1, 11008, 4096, 128, C, DR},    {"mxk-gemm-mxint8", 8, 4096, 4096, 32, C, D9},
        {"mxk-gemm-mxint8", 4, 4096, 4096, 64, C, D9},      {"mxk-gemm-mxint8", 1, 4096, 4096, 256, C, DR},
        {"mxk-gemm-mxint8", 2, 4096, 4096, 128, C, D9},     {"mxk-gemm-mxint8", 1, 4096, 4160, 64, C, D9}, /* K % 512 */
        {"mxk-gemm-mxint8", 1, 4096, 32768, 128, C, DR},    {"mxk-gemm-mxint8", 1, 300, 65536, 256, C, D9}, /* K > 32768 */
        /* the builds final5 to final7: no cfg 12 (cfg 0 at M = 1 took cfg 9), cfg 11 as now */
        {"mxk-gemm-mxint8", 1, 4096, 4096, 128, R, D9},     {"mxk-gemm-mxint8", 1, 11008, 4096, 64, R, D9},
        {"mxk-gemm-mxint8", 2048, 4096, 4096, 32, R, BF},   {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 64, R, BF},
        /* explicit cfg 12 (current build only), with its fallback to cfg 9 and that one's to cfg 4 */
        {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 32, C, DR}, {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 128, C, DR},
        {"mxk-gemm-mxint8-cfg12", 16, 4096, 4096, 128, C, D9}, {"mxk-gemm-mxint8-cfg12", 1, 4096, 4160, 32, C, D9},
        {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 512, C, MXSIM_GX_GEMV}, {"mxk-gemm-mxint8-cfg12", 17, 4096, 4096, 32, C, MXSIM_GX_GEMV},
        {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 128, R, -1}, {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 128, P, -1},
        {"mxk-gemm-mxint8-cfg12", 1, 4096, 4096, 128, O, -1},
        {"mxk-gemm-mxint8", 9, 4096, 4096, 32, C, D10},     {"mxk-gemm-mxint8", 16, 4096, 4096, 32, C, D10},
        {"mxk-gemm-mxint8", 16, 11008, 4096, 32, C, D10},   {"mxk-gemm-mxint8", 16, 4096, 4096, 64, C, D9},
        {"mxk-gemm-mxint8", 16, 11008, 4096, 128, C, D9},   {"mxk-gemm-mxint8", 12, 4096, 4096, 64, C, D9},
        /* cfg 0 where the decode kernels do not apply: cfg 4 */
        {"mxk-gemm-mxint8", 1, 4096, 4096, 512, C, MXSIM_GX_GEMV},  /* G not 32..256 */
        {"mxk-gemm-mxint8", 1, 4096, 4128, 32, C, MXSIM_GX_GEMV},   /* K % 64 != 0 */
        {"mxk-gemm-mxint8", 1, 4096, 11008, 32, C, MXSIM_GX_GEMV},  /* K/G = 344 > 256 */
        {"mxk-gemm-mxint8", 1, 4096, 11008, 64, C, D9},             /* K/G = 172 */
        {"mxk-gemm-mxint8", 16, 4096, 16384, 128, C, MXSIM_GX_GEMV}, /* shared memory: 16 x 16448 bytes of activations */
        {"mxk-gemm-mxint8", 8, 4096, 16384, 128, C, D9},
        {"mxk-gemm-mxint8", 16, 4096, 8192, 32, C, D10},
        /* explicit cfg 9 / cfg 10 / cfg 4 */
        {"mxk-gemm-mxint8-cfg9", 16, 4096, 4096, 32, C, D9},  {"mxk-gemm-mxint8-cfg9", 1, 11008, 4096, 128, C, D9},
        {"mxk-gemm-mxint8-cfg10", 1, 4096, 4096, 32, C, D10}, {"mxk-gemm-mxint8-cfg10", 16, 11008, 4096, 128, C, D10},
        {"mxk-gemm-mxint8-cfg9", 17, 4096, 4096, 32, C, MXSIM_GX_GEMV}, {"mxk-gemm-mxint8-cfg10", 17, 4096, 4096, 32, C, MXSIM_GX_GEMV},
        {"mxk-gemm-mxint8-cfg9", 1, 4096, 11008, 32, C, MXSIM_GX_GEMV}, {"mxk-gemm-mxint8-cfg10", 1, 4096, 4096, 512, C, MXSIM_GX_GEMV},
        {"mxk-gemm-mxint8-cfg4", 1, 4096, 4096, 32, C, MXSIM_GX_GEMV},
        /* M > 16: >= 132 tiles of 128 x 128 -> cfg 8, at G = 32 cfg 11 (current build; it hands K % 64 != 0
        ** to cfg 8); the earlier builds had no cfg 11 */
        {"mxk-gemm-mxint8", 17, 16896, 4096, 32, C, BF}, /* 1 x 132 tiles */
        {"mxk-gemm-mxint8", 2048, 4096, 4096, 32, C, BF},   {"mxk-gemm-mxint8", 2048, 4096, 4096, 64, C, MXSIM_GX_WGMMA},
        {"mxk-gemm-mxint8", 2048, 4096, 4096, 128, C, MXSIM_GX_WGMMA}, {"mxk-gemm-mxint8", 2048, 4096, 4128, 32, C, MXSIM_GX_WGMMA},
        {"mxk-gemm-mxint8", 2048, 4096, 4096, 32, P, MXSIM_GX_WGMMA}, {"mxk-gemm-mxint8", 2048, 4096, 4096, 64, P, MXSIM_GX_WGMMA},
        {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 32, C, BF}, {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 64, C, BF},
        {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 128, C, MXSIM_GX_WGMMA}, {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 32, P, -1},
        {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 32, O, -1},
        {"mxk-gemm-mxint8", 16, 4096, 4096, 32, P, D10},  {"mxk-gemm-mxint8", 1, 4096, 4096, 64, P, D9},
        /* 131 tiles of 128 x 128 but 524 of 64 x 64: cfg 2 (gemm_mma.cu mxk_gemm_cfg0), not modelled;
        ** 99 of 64 x 64 (and 25 of 128 x 128): cfg 3 */
        {"mxk-gemm-mxint8", 128, 16768, 4096, 32, C, -1}, {"mxk-gemm-mxint8", 512, 4096, 4096, 128, C, -1},
        {"mxk-gemm-mxint8", 576, 704, 4096, 32, C, MXSIM_GX_CFG3},
        /* the Hopper kernel refuses G = 96, 160, 192 (groups across its stage edges) and K % 16:
        ** cfg 5 runs; a multiple of 128 it takes */
        {"mxk-gemm-mxint8", 2048, 11008, 4096, 96, C, MXSIM_GX_CFG5}, {"mxk-gemm-mxint8", 2048, 11008, 4160, 160, C, MXSIM_GX_CFG5},
        {"mxk-gemm-mxint8", 2048, 11008, 4096, 256, C, MXSIM_GX_WGMMA}, {"mxk-gemm-mxint8-cfg8", 2048, 4096, 4128, 96, C, MXSIM_GX_CFG5},
        {"mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 96, C, MXSIM_GX_CFG5},
        /* cfg 11 refuses 2^31 operand elements or more: cfg 8 */
        {"mxk-gemm-mxint8", 524288, 4096, 4096, 32, C, MXSIM_GX_WGMMA}, {"mxk-gemm-mxint8", 524287, 4096, 4096, 32, C, BF},
        {"mxk-gemm-mxint8", 17, 16896, 4096, 32, O, MXSIM_GX_WGMMA},
        {"mxk-gemm-mxint8-cfg5", 4096, 4096, 4096, 32, C, MXSIM_GX_CFG5},
        {"mxk-gemm-mxint8-cfg3", 16, 4096, 4096, 32, C, MXSIM_GX_CFG3},
        {"mxk-gemm-mxint8-cfg8", 4096, 4096, 4096, 32, O, MXSIM_GX_WGMMA},
        /* the build before decode2: its cfg 9 was the first decode kernel (class cfg 10), cfg 0 took it
        ** at G = 32 and at G = 64 for M = 1 or M > 8; it had no cfg 10 */
        {"mxk-gemm-mxint8", 16, 4096, 4096, 32, O, D10},    {"mxk-gemm-mxint8", 1, 4096, 4096, 32, O, D10},
        {"mxk-gemm-mxint8", 16, 4096, 4096, 128, O, MXSIM_GX_GEMV}, {"mxk-gemm-mxint8", 1, 4096, 4096, 64, O, D10},
        {"mxk-gemm-mxint8", 4, 4096, 4096, 64, O, MXSIM_GX_GEMV}, {"mxk-gemm-mxint8", 12, 4096, 4096, 64, O, D10},
        {"mxk-gemm-mxint8-cfg9", 16, 4096, 4096, 128, O, D10}, {"mxk-gemm-mxint8-cfg9", 17, 4096, 4096, 128, O, MXSIM_GX_GEMV},
        {"mxk-gemm-mxint8-cfg10", 1, 4096, 4096, 32, O, -1},
        /* removed kernels and other methods */
        {"mxk-gemm-mxint8-cfg1", 4096, 4096, 4096, 32, C, -1}, {"mxk-gemm-mxint8-cfg6", 4096, 4096, 4096, 32, O, -1},
        {"dequant+cublas-bf16", 1, 1, 32, 32, C, MXSIM_GX_DEQUANT_CUBLAS},
        {"mxk-dequant-mase-cuda", 1, 1, 1, 32, C, MXSIM_GX_DEQUANT}, {"d2d-copy", 1, 1, 1, 0, O, MXSIM_GX_COPY},
        {"mxk-dequant-ocp-cfg1", 1, 1, 32, 32, C, -1}, {"warp-drive", 1, 1, 32, 32, C, -1},
        {"mxk-gemm-mxint8", 1, 4096, 4096, 32, MXSIM_GX_NBUILD, -1}, {"mxk-gemm-mxint8", 1, 4096, 4096, 32, -1, -1}};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        const int got = mxsim_gpu_xclass_of(t[i].m, t[i].M, t[i].N, t[i].K, t[i].G, t[i].build);
        if (got != t[i].want)
            fprintf(stderr, "routing %s %lldx%lldx%lld G=%lld build %d: class %d, want %d\n", t[i].m, (long long)t[i].M,
                    (long long)t[i].N, (long long)t[i].K, (long long)t[i].G, t[i].build, got, t[i].want);
        MXT_EQ_INT(got, t[i].want);
    }
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_DECODE), "mxk-decode-cfg9") == 0);
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_DECODE1), "mxk-decode-cfg10") == 0);
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_WGMMA), "mxk-wgmma-cfg8") == 0);
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_BF16), "mxk-bf16-cfg11") == 0);
    MXT_TRUE(strcmp(mxsim_gpu_xclass_name(MXSIM_GX_DECODE_ROW), "mxk-decode-row-cfg12") == 0);
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
    /* the bf16-path kernel (cfg 0 at 2048x4096x4096 G = 32 routes to cfg 11), L 9, a 1.5, b 2, ov 0:
    ** T = 2 x 2048 x 4096 x 4096 / 989.5e12 = 69.44869 us (the bf16 peak) > E = 2048 x 4096 x 128 x 1
    ** / (128 x 132 x 1.83e9) = 34.72681 us, so W = T; S = 512 tiles / 132 = 3.87879; C = 1.5 W + 2 S
    ** = 111.93061 us; its pre-pass (serial): 25165824 x (1 + 1/32 + 2) bytes / (3350e9 x 0.9) =
    ** 25.30146 us; its reads D = (2 x 25165824 + 4 x 2048 x 4096) / 3.015e12 = 27.82291 us < C;
    ** time = 9 + 25.30146 + 111.93061 = 146.23207 us */
    p.cls[MXSIM_GX_BF16].L = 9, p.cls[MXSIM_GX_BF16].a[0] = 1.5, p.cls[MXSIM_GX_BF16].b[0] = 2;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8", 2048, 4096, 4096, 32, &us), MXSIM_OK);
    MXT_NEAR(us, 146.23207, 1e-3);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8-cfg11", 2048, 4096, 4096, 32, &us), MXSIM_OK);
    MXT_NEAR(us, 146.23207, 1e-3);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "warp-drive", 1, 1, 1, 0, &us), MXSIM_E_UNSUPPORTED);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8", 16, 64, 48, 32, &us), MXSIM_E_ARG); /* G does not divide K */
    mxsim_ctx_destroy(ctx);
}

/* A synthetic bench of card d from fields truth: the copy, dequant, cuBLAS, dequant+cuBLAS, the
** Hopper kernel and the decode kernel (cfg 0 and explicit cfg 9) rows of kernels/tools/mxsim_gpu.cu's
** bench.  scale != 1 multiplies every decode row (a card that breaks the model's structure). */
static int write_bench(mxsim_ctx *ctx, const char *path, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *truth,
                       double scale)
{
    FILE *f = fopen(path, "w");
    if (!f) return -1;
    fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\n");
    static const struct { int64_t M, N, K, G; const char *m; } rows[] = {
        {234881024, 1, 1, 0, "d2d-copy"},          {234881024, 1, 1, 16, "mxk-dequant-ocp"},
        {234881024, 1, 1, 128, "mxk-dequant-ocp"}, {2048, 4096, 4096, 32, "mxk-gemm-mxint8"},
        {2048, 11008, 4096, 32, "mxk-gemm-mxint8"}, {8192, 8192, 8192, 32, "mxk-gemm-mxint8"},
        {2048, 4096, 4096, 128, "mxk-gemm-mxint8"}, {2048, 11008, 4096, 128, "mxk-gemm-mxint8"},
        {8192, 8192, 8192, 128, "mxk-gemm-mxint8"},
        {2048, 4096, 4096, 0, "cublas-bf16"}, {8192, 8192, 8192, 0, "cublas-bf16"}, {1, 4096, 4096, 0, "cublas-bf16"},
        {1, 11008, 4096, 0, "cublas-bf16"}, {2048, 4096, 4096, 32, "dequant+cublas-bf16"},
        {1, 4096, 4096, 32, "dequant+cublas-bf16"}, {1, 11008, 4096, 32, "dequant+cublas-bf16"},
        {16, 11008, 4096, 32, "dequant+cublas-bf16"},
        {1, 4096, 4096, 32, "mxk-gemm-mxint8"}, {16, 4096, 4096, 32, "mxk-gemm-mxint8"},
        {1, 11008, 4096, 32, "mxk-gemm-mxint8"}, {16, 11008, 4096, 32, "mxk-gemm-mxint8"},
        {1, 4096, 4096, 128, "mxk-gemm-mxint8-cfg9"}, {16, 4096, 4096, 128, "mxk-gemm-mxint8-cfg9"},
        {1, 11008, 4096, 128, "mxk-gemm-mxint8-cfg9"}, {16, 11008, 4096, 128, "mxk-gemm-mxint8-cfg9"},
        {1, 4096, 4096, 128, "mxk-gemm-mxint8-cfg10"}, {16, 4096, 4096, 128, "mxk-gemm-mxint8-cfg10"},
        {1, 11008, 4096, 128, "mxk-gemm-mxint8-cfg10"}, {16, 11008, 4096, 128, "mxk-gemm-mxint8-cfg10"},
        {1, 4096, 4096, 32, "mxk-gemm-mxint8-cfg10"}, {1, 11008, 4096, 32, "mxk-gemm-mxint8-cfg10"},
        {16, 4096, 4096, 32, "mxk-gemm-mxint8-cfg9"}, {16, 11008, 4096, 32, "mxk-gemm-mxint8-cfg9"}};
    int rc = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        double us = 0;
        if (mxsim_gpu_xpredict(ctx, d, truth, rows[i].m, rows[i].M, rows[i].N, rows[i].K, rows[i].G, &us) != MXSIM_OK) rc = -1;
        { const int c = mxsim_gpu_xclass_of(rows[i].m, rows[i].M, rows[i].N, rows[i].K, rows[i].G, MXSIM_GX_BUILD_CURRENT);
          if (c == MXSIM_GX_DECODE || c == MXSIM_GX_DECODE1) us *= scale; }
        fprintf(f, "Synthetic,s,%lld,%lld,%lld,%lld,%s,%.6f,1,TOPS,1\n", (long long)rows[i].M, (long long)rows[i].N,
                (long long)rows[i].K, (long long)rows[i].G, rows[i].m, us);
    }
    fclose(f);
    return rc;
}

#define NSYN 33

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
    /* the bf16-path Hopper kernel (cfg 11: cfg 0's prefill rows at G = 32) */
    mxsim_gpu_xclass_params *bf = &truth.cls[MXSIM_GX_BF16];
    bf->L = 9, bf->a[0] = bf->a[1] = bf->a[2] = 1.6, bf->b[0] = bf->b[1] = bf->b[2] = 4;
    mxsim_gpu_xclass_params *cb = &truth.cls[MXSIM_GX_CUBLAS_BF16], *dc = &truth.cls[MXSIM_GX_DEQUANT_CUBLAS];
    cb->L = 7, cb->a[0] = cb->a[1] = cb->a[2] = 1.25;
    dc->L = 12, dc->a[0] = dc->a[1] = dc->a[2] = 1.2;
    /* the decode kernel: launch 4 us, 1 / 0.06 = 16.7 bytes per SM clock in flight per latency, the
    ** group sums at 16x / 10x of the issue bound (G = 32 / 128), overlapping the stream (ov 0: the
    ** decode class does not calibrate ov) */
    mxsim_gpu_xclass_params *de = &truth.cls[MXSIM_GX_DECODE];
    de->L = 4, de->b[0] = de->b[1] = de->b[2] = 0.06, de->ov = 0, de->a[0] = de->a[1] = 16, de->a[2] = 10;
    /* the first decode kernel (cfg 10): the same structure, other fields */
    mxsim_gpu_xclass_params *d1 = &truth.cls[MXSIM_GX_DECODE1];
    d1->L = 3, d1->b[0] = d1->b[1] = d1->b[2] = 0.09, d1->ov = 0, d1->a[0] = d1->a[1] = 20, d1->a[2] = 8;
    const mxsim_gpu_xsheet other = {132, 1830, 1979, 989.5, 4800, 62.9146}; /* a card with more bandwidth */
    const char *pa = tmp_file("xcard_a.csv"), *pb = tmp_file("xcard_b.csv"), *pc = tmp_file("xcard_c.csv");
    MXT_EQ_INT(write_bench(ctx, pa, &k_h100, &truth, 1), 0);
    MXT_EQ_INT(write_bench(ctx, pb, &other, &truth, 1), 0);
    MXT_EQ_INT(write_bench(ctx, pc, &other, &truth, 1.25), 0); /* decode 25% slower than the structure says */
    mxsim_gpu_xbench *ba = NULL, *bb = NULL, *bc = NULL;
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, pa, &ba), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, pb, &bb), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, pc, &bc), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_count(ba), NSYN);
    mxsim_gpu_xparams fit;
    MXT_EQ_INT(mxsim_gpu_xcalibrate(ctx, ba, &k_h100, &fit), MXSIM_OK);
    MXT_NEAR(fit.mem_eff, 0.9, 1e-6); /* from the copy row alone, exactly (printed to 6 decimals) */
    mxsim_gpu_xscore sa, sb, sc, sw;
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, ba, &k_h100, &fit, &sa), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bb, &other, &fit, &sb), MXSIM_OK);
    MXT_TRUE(sa.mape < 0.005); /* the structure can represent the truth: the fit finds it */
    MXT_TRUE(sb.mape < 0.005); /* and then predicts the other card */
    MXT_EQ_INT(sb.n, NSYN);
    MXT_EQ_INT(sb.cls_n[MXSIM_GX_WGMMA], 3);  /* cfg 0 at G = 128 */
    MXT_EQ_INT(sb.cls_n[MXSIM_GX_BF16], 3);   /* cfg 0 at G = 32 */
    /* its 3 rows (one G) do not pin its 4 fields (L, a, b, ov): the descent stops at a near fit,
    ** 2.5% on this truth (L 1.1, a 1.34, b 10.6 against 9, 1.6, 4); the real runs fit to 0.7-2.3% */
    MXT_TRUE(sa.cls_mape[MXSIM_GX_BF16] < 0.03);
    MXT_TRUE(sb.cls_mape[MXSIM_GX_BF16] < 0.03);
    MXT_EQ_INT(sb.cls_n[MXSIM_GX_DECODE], 8);  /* cfg 0 at M = 1 (G = 32), cfg 9 */
    MXT_EQ_INT(sb.cls_n[MXSIM_GX_DECODE1], 8); /* cfg 0 at M = 16, G = 32; cfg 10 */
    MXT_EQ_INT(sb.uncalibrated, 0);
    MXT_TRUE(sb.cls_mape[MXSIM_GX_DECODE] < 0.005);
    MXT_TRUE(sb.cls_mape[MXSIM_GX_DECODE1] < 0.005);
    MXT_TRUE(sb.cls_mape[MXSIM_GX_DEQUANT_CUBLAS] < 0.005); /* L2 reuse at 4096, none at 11008 */
    /* the decode fields that the rows determine are found back */
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE].L, 4, 0.2);
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE].b[0], 0.06, 0.003);
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE].a[0], 16, 0.8);
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE1].L, 3, 0.2);
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE1].b[0], 0.09, 0.0045);
    MXT_NEAR(fit.cls[MXSIM_GX_DECODE1].a[0], 20, 1.0);
    /* the same bench read as a run of the build before decode2: its cfg 9 rows and cfg 0 decode
    ** rows are the first decode kernel's (class cfg 10); it had no cfg 10 (those rows skipped) */
    mxsim_gpu_xbench *bo = NULL;
    MXT_EQ_INT(mxsim_gpu_xbench_load_build(ctx, pa, MXSIM_GX_BUILD_DECODE1, &bo), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_count(bo), NSYN - 6);
    MXT_EQ_INT(mxsim_gpu_xbench_skipped(bo), 6);
    mxsim_gpu_xparams fo;
    mxsim_gpu_xscore so;
    MXT_EQ_INT(mxsim_gpu_xcalibrate(ctx, bo, &k_h100, &fo), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bo, &k_h100, &fo, &so), MXSIM_OK);
    MXT_EQ_INT(so.cls_n[MXSIM_GX_DECODE], 0);
    MXT_EQ_INT(so.cls_n[MXSIM_GX_DECODE1], 10);
    MXT_EQ_INT(mxsim_gpu_xbench_load_build(ctx, pa, MXSIM_GX_NBUILD, &bo), MXSIM_E_ARG);
    /* a class without a row on the calibration card stays uncalibrated: not predicted, not scored */
    MXT_TRUE(fo.cls[MXSIM_GX_DECODE].a[0] == 0);
    double us = 0;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &other, &fo, "mxk-gemm-mxint8-cfg9", 1, 4096, 4096, 32, &us), MXSIM_E_UNSUPPORTED);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxk-decode-cfg9") != NULL);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &other, &fo, "mxk-gemm-mxint8-cfg10", 1, 4096, 4096, 32, &us), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bb, &other, &fo, &so), MXSIM_OK);
    MXT_EQ_INT(so.uncalibrated, 11); /* the current build's cfg 9 (8 rows) and cfg 11 (3) rows */
    MXT_EQ_INT(so.n, NSYN - 11);
    mxsim_gpu_xrow xr;
    int nan_rows = 0;
    for (int i = 0; i < mxsim_gpu_xbench_count(bb); i++)
        if (mxsim_gpu_xbench_row(bb, i, &other, &fo, &xr) == MXSIM_OK && isnan(xr.model_us)) nan_rows += xr.cls == MXSIM_GX_DECODE;
    MXT_EQ_INT(nan_rows, 8);
    mxsim_gpu_xbench_free(bo);
    /* negative controls, so that the held-out check can fail: (1) the other card predicted with
    ** the calibration card's datasheet (its bandwidth and L2 ignored); (2) a card whose decode rows
    ** do not follow the structure */
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bb, &k_h100, &fit, &sw), MXSIM_OK);
    MXT_TRUE(sw.mape > 0.05);
    MXT_EQ_INT(mxsim_gpu_xscore_bench(ctx, bc, &other, &fit, &sc), MXSIM_OK);
    MXT_TRUE(sc.cls_mape[MXSIM_GX_DECODE] > 0.15);
    mxsim_gpu_xbench_free(ba);
    mxsim_gpu_xbench_free(bb);
    mxsim_gpu_xbench_free(bc);
    mxsim_ctx_destroy(ctx);
}

/* The per-row median of several runs (the calibration's noise treatment). */
MXTEST(xcard_median_of_runs)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    static const double copy[4] = {300, 310, 305, 900}, cub[4] = {10, 30, 12, 11}, mxk[4] = {20, 22, 100, 100};
    mxsim_gpu_xbench *b[4] = {NULL, NULL, NULL, NULL}, *m = NULL;
    for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "xcard_run%d.csv", k);
        const char *p = tmp_file(name);
        FILE *f = fopen(p, "w");
        MXT_TRUE(f != NULL);
        if (!f) return;
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\n"
                   "X,s,1000000,1,1,0,d2d-copy,%g,1,TOPS,1\nX,s,16,4096,4096,0,cublas-bf16,%g,1,TOPS,1\n"
                   "X,s,16,4096,4096,32,mxk-gemm-mxint8,%g,1,TOPS,1\n", copy[k], cub[k], mxk[k]);
        if (k == 1) fprintf(f, "X,s,1,4096,4096,0,cublas-bf16,99,1,TOPS,1\n"); /* a row run 0 does not have: ignored */
        fclose(f);
        MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, p, &b[k]), MXSIM_OK);
    }
    const mxsim_gpu_xsheet d = k_h100;
    mxsim_gpu_xparams p;
    memset(&p, 0, sizeof p);
    mxsim_gpu_xrow r;
    /* one build: median of 4 = mean of the middle two */
    MXT_EQ_INT(mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)b, NULL, 4, &m), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_count(m), 3);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 0, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 307.5, 1e-9);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 1, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 11.5, 1e-9);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 2, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 61, 1e-9);
    MXT_TRUE(strcmp(r.method, "mxk-gemm-mxint8") == 0);
    mxsim_gpu_xbench_free(m);
    /* runs 2 and 3 of another build: their library rows count, their mxk rows do not */
    const int build[4] = {0, 0, 1, 1};
    MXT_EQ_INT(mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)b, build, 4, &m), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 1, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 11.5, 1e-9);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 2, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 21, 1e-9);
    mxsim_gpu_xbench_free(m);
    /* three runs: the middle value */
    MXT_EQ_INT(mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)b, NULL, 3, &m), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_xbench_row(m, 1, &d, &p, &r), MXSIM_OK);
    MXT_NEAR(r.measured_us, 12, 1e-9);
    mxsim_gpu_xbench_free(m);
    MXT_EQ_INT(mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)b, NULL, 0, &m), MXSIM_E_ARG);
    MXT_TRUE(m == NULL);
    for (int k = 0; k < 4; k++) mxsim_gpu_xbench_free(b[k]);
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
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,1,1,0,d2d-copy,1,1,TOPS,1\n");
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
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,4096,4096,0,cublas-bf16,10,1,TOPS,1\n");
        fclose(f);
    }
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, p, &b), MXSIM_E_INPUT); /* no copy row first */
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "d2d-copy") != NULL);
    f = fopen(p, "w");
    if (f) {
        fprintf(f, "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\nX,s,1,1,1,0,d2d-copy,nan,1,TOPS,1\n");
        fclose(f);
    }
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, p, &b), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_gpu_xbench_load(ctx, tmp_file("no_such_file.csv"), &b), MXSIM_E_INPUT); /* a missing input is the user's */
    MXT_TRUE(b == NULL);
    mxsim_ctx_destroy(ctx);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The launch floor: the median of the empty-kernel rows over the files (by hand), every class's
** time at least that, and the reader's refusals. */
MXTEST(xcard_launch_floor)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    const char *hdr = "card,kernel,bytes,smem_bytes,event_us,blocks_span_us,outside_us\n";
    char text[1024];
    const char *a = tmp_file("launch_a.csv"), *b = tmp_file("launch_b.csv");
    /* empty rows 7, 5, 9 in one file (the stream row does not count) and 6 in the other: the median of
    ** {5, 6, 7, 9} is (6 + 7) / 2 = 6.5 */
    snprintf(text, sizeof text, "%sC,empty,0,0,7,0.2,6.8\nC,empty,0,49152,5,0.2,4.8\nC,stream,45441024,0,1,0.5,0.5\n"
             "C,empty,0,114688,9,0.2,8.8\n", hdr);
    write_text(a, text);
    snprintf(text, sizeof text, "%sC,empty,0,0,6,0.2,5.8\n", hdr);
    write_text(b, text);
    const char *both[2] = {a, b};
    double fl = 0;
    int n = 0;
    char card[64];
    MXT_EQ_INT(mxsim_gpu_xlaunch_floor(ctx, both, 2, &fl, &n, card, sizeof card), MXSIM_OK);
    MXT_NEAR(fl, 6.5, 1e-12);
    MXT_EQ_INT(n, 4);
    MXT_TRUE(!strcmp(card, "C"));
    MXT_EQ_INT(mxsim_gpu_xlaunch_floor(ctx, both, 1, &fl, NULL, card, sizeof card), MXSIM_OK);
    MXT_NEAR(fl, 7, 1e-12); /* {5, 7, 9} */

    /* the floor in the model: a tiny decode GEMM whose fitted L (2 us) is below it */
    mxsim_gpu_xparams p;
    memset(&p, 0, sizeof p);
    p.mem_eff = 0.9;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) p.cls[c].rho = 1, p.cls[c].a[0] = p.cls[c].a[1] = p.cls[c].a[2] = 1;
    p.cls[MXSIM_GX_DECODE1].L = 2;
    double us0 = 0, us1 = 0, big0 = 0, big1 = 0;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8-cfg10", 9, 128, 128, 32, &us0), MXSIM_OK);
    MXT_TRUE(us0 > 2 && us0 < 2.1);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 4096, 4096, 4096, 0, &big0), MXSIM_OK);
    p.launch_floor_us = 6.5;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "mxk-gemm-mxint8-cfg10", 9, 128, 128, 32, &us1), MXSIM_OK);
    MXT_NEAR(us1, 6.5, 1e-12);
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 4096, 4096, 4096, 0, &big1), MXSIM_OK);
    MXT_NEAR(big1, big0, 1e-12); /* above the floor: unchanged */
    p.launch_floor_us = -1;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 64, 64, 64, 0, &us1), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "launch_floor_us") != NULL);
    p.launch_floor_us = NAN;
    MXT_EQ_INT(mxsim_gpu_xpredict(ctx, &k_h100, &p, "cublas-bf16", 64, 64, 64, 0, &us1), MXSIM_E_INPUT);

    /* refusals, each naming file:line and the field */
    static const struct { const char *text, *want; } bad[] = {
        {"card,kernel,bytes\nC,empty,0\n", ":1: header"},
        {"", ":1: header: missing"},
        {"HDR", "no 'empty' kernel row"},
        {"HDRC,empty,0,0,6,0.2\n", ":2: 6 fields"},
        {"HDRC,empty,0,0,6,0.2,5.8,1\n", ":2: more than 7 fields"},
        {"HDR,empty,0,0,6,0.2,5.8\n", "field 1 (card): empty"},
        {"HDRC,empty,0,0,6,0.2,5.8\nD,empty,0,1,6,0.2,5.8\n", ":3: field 1 (card)"},
        {"HDRC,idle,0,0,6,0.2,5.8\n", "field 2 (kernel)"},
        {"HDRC,empty,16,0,6,0.2,5.8\n", "field 3 (bytes)"},
        {"HDRC,empty,0,0.5,6,0.2,5.8\n", "field 4 (smem_bytes)"},
        {"HDRC,empty,0,0,0,0.2,5.8\n", "field 5 (event_us)"},
        {"HDRC,empty,0,0,nan,0.2,5.8\n", "field 5 (event_us)"},
        {"HDRC,empty,0,0,6,-1,5.8\n", "field 6 (blocks_span_us)"},
        {"HDRC,empty,0,0,6,0.2,x\n", "field 7 (outside_us)"},
        {"HDRC,empty,0,0,6,0.2,5.8\nC,empty,0,0,7,0.2,6.8\n", ":3: the row of kernel 'empty' at smem_bytes 0 is given twice (first on line 2)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *t = bad[i].text;
        if (!strncmp(t, "HDR", 3)) snprintf(text, sizeof text, "%s%s", hdr, t + 3);
        else snprintf(text, sizeof text, "%s", t);
        write_text(a, text);
        MXT_EQ_INT(mxsim_gpu_xlaunch_floor(ctx, both, 1, &fl, &n, card, sizeof card), MXSIM_E_INPUT);
        if (!strstr(mxsim_errmsg(ctx), bad[i].want)) fprintf(stderr, "case %zu: '%s' lacks '%s'\n", i, mxsim_errmsg(ctx), bad[i].want);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), bad[i].want) != NULL);
    }
    /* two files of different cards */
    snprintf(text, sizeof text, "%sD,empty,0,0,6,0.2,5.8\n", hdr);
    write_text(a, text);
    MXT_EQ_INT(mxsim_gpu_xlaunch_floor(ctx, both, 2, &fl, &n, card, sizeof card), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "launch files read before are of 'D'") != NULL);
    MXT_EQ_INT(mxsim_gpu_xlaunch_floor(ctx, both, 0, &fl, &n, card, sizeof card), MXSIM_E_ARG);
    remove(a);
    remove(b);
    mxsim_ctx_destroy(ctx);
}

/* The card-file reader of the library (mxsim_gpu_xcard_load): a file written here with values chosen
** by hand reads back to them; the field table (mxsim_gpu_xparam_*) names the fields the writer puts
** in a card file; and a bad line is refused with its file and line. */
MXTEST(xcard_card_file)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    /* the field names a card file uses (sim/doc/gpu-model.md section 6.3), in the table's order */
    const char *want[MXSIM_GX_NPARAM] = {"L_us", "rho", "b32_us", "b64_us", "b128_us", "ov", "a32", "a64", "a128"};
    for (int k = 0; k < MXSIM_GX_NPARAM; k++) MXT_TRUE(!strcmp(mxsim_gpu_xparam_name(k), want[k]));
    MXT_TRUE(mxsim_gpu_xparam_name(MXSIM_GX_NPARAM) == NULL && mxsim_gpu_xparam_name(-1) == NULL);
    /* copy has no launch term of its own, the dequant pass alone a rho; cuBLAS has L, ov and one work
    ** factor (no tile cost, no factor per G: section 6.2), the wgmma kernel a tile cost and factor per G */
    MXT_EQ_INT(mxsim_gpu_xparam_used(MXSIM_GX_COPY, 0), 0);
    MXT_EQ_INT(mxsim_gpu_xparam_used(MXSIM_GX_DEQUANT, 1), 1);
    const int cublas_used[MXSIM_GX_NPARAM] = {1, 0, 0, 0, 0, 1, 1, 0, 0};
    for (int k = 0; k < MXSIM_GX_NPARAM; k++) MXT_EQ_INT(mxsim_gpu_xparam_used(MXSIM_GX_CUBLAS_BF16, k), cublas_used[k]);
    for (int k = 0; k < MXSIM_GX_NPARAM; k++) MXT_EQ_INT(mxsim_gpu_xparam_used(MXSIM_GX_WGMMA, k), k != 1);
    MXT_EQ_INT(mxsim_gpu_xparam_used(MXSIM_GX_NCLASS, 0), 0);

    const char *f = tmp_file("card_file.ini");
    char text[2048];
    const char *sheet = "name = testcard   # a comment\n[datasheet]\nsm.count = 100\nsm.clock_mhz = 2000\n"
                        "tc.int8_dense_tops = 1638.4\ntc.bf16_dense_tflops = 819.2\nhbm.bw_gbs = 4000\nl2.mb = 40\n"
                        "sm.compute_capability = 9.0\n";
    /* 819.2e12 / (100 SMs x 4096 FLOP/clk) = 2000 MHz: the clock check holds */
    snprintf(text, sizeof text, "%s[calibrated on other]\nmem_eff = 0.9\ncublas-bf16.L_us = 4.5\ncublas-bf16.ov = 0.25\n"
             "cublas-bf16.a32 = 1.5\n", sheet);
    write_text(f, text);
    mxsim_gpu_xsheet d;
    mxsim_gpu_xparams p;
    int n = -1;
    char name[32];
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, &p, &n, name, sizeof name), MXSIM_OK);
    MXT_TRUE(!strcmp(name, "testcard"));
    MXT_NEAR(d.n_sm, 100, 0);
    MXT_NEAR(d.clock_mhz, 2000, 0);
    MXT_NEAR(d.bf16_tflops, 819.2, 0);
    MXT_NEAR(d.hbm_gbs, 4000, 0);
    MXT_EQ_INT(n, 4);
    MXT_NEAR(p.mem_eff, 0.9, 0);
    MXT_NEAR(*mxsim_gpu_xparam_field(&p, MXSIM_GX_CUBLAS_BF16, 0), 4.5, 0);
    MXT_NEAR(p.cls[MXSIM_GX_CUBLAS_BF16].ov, 0.25, 0);
    MXT_NEAR(p.cls[MXSIM_GX_CUBLAS_BF16].a[1], 1.5, 0); /* unused per-G factor: the G = 32 one */
    MXT_NEAR(p.cls[MXSIM_GX_CUBLAS_BF16].rho, 1, 0);    /* unused field: neutral */
    MXT_NEAR(p.cls[MXSIM_GX_WGMMA].a[0], 0, 0);      /* not in the file: uncalibrated */
    /* only the datasheet: cal may be NULL */
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, NULL, NULL, name, sizeof name), MXSIM_OK);
    /* a class with some of its fields: refused, naming the first missing one */
    snprintf(text, sizeof text, "%s[calibrated on other]\nmem_eff = 0.9\ncublas-bf16.L_us = 4.5\n", sheet);
    write_text(f, text);
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, &p, &n, name, sizeof name), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), ":10: [calibrated on ...]: field 'cublas-bf16.ov' missing") != NULL);
    /* a value in the wrong unit (TB/s), with its line */
    snprintf(text, sizeof text, "%s", sheet);
    char *bw = strstr(text, "4000");
    memcpy(bw, "4.00", 4);
    write_text(f, text);
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, NULL, NULL, name, sizeof name), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "card_file.ini:7: field 'hbm.bw_gbs'") != NULL);
    /* an unknown key; a name too long for the caller's buffer */
    write_text(f, "name = testcard\n[datasheet]\nsm.cores = 100\n");
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, NULL, NULL, name, sizeof name), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "card_file.ini:3: unknown key 'sm.cores'") != NULL);
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, f, &d, NULL, NULL, name, 4), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), ":1: name: too long") != NULL);
    /* NULL arguments; a NULL context too */
    MXT_EQ_INT(mxsim_gpu_xcard_load(ctx, NULL, &d, NULL, NULL, name, sizeof name), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_gpu_xcard_load(NULL, f, NULL, NULL, NULL, name, sizeof name), MXSIM_E_ARG);
    mxsim_ctx_destroy(ctx);
}

int main(void) { return mxt_run_all(); }

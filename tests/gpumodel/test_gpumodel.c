/* test_gpumodel.c - the GPU model's library API: card loading and its errors, the kernel models'
** invariants (bounds, routing, monotonicity, no shape-fitted parameters), the split of a bench and
** the calibration's blindness to held-out points. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#include "mxsim.h"
#include "mxtest.h"

#define MXT_NEAR(a, b, tol) MXT_TRUE(fabs((double)(a) - (double)(b)) <= (tol))

static char g_src[1024];
static const char *src_path(const char *rel)
{
    static char buf[4][1200];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", g_src, rel);
    return buf[k];
}
static void find_src(void)
{
    /* CMake compiles this file by its absolute path: the source root is three levels up */
    snprintf(g_src, sizeof g_src, "%s", __FILE__);
    char *p = strstr(g_src, "/tests/gpumodel/");
    if (p) *p = '\0';
    else snprintf(g_src, sizeof g_src, ".");
    char card[1100];
    snprintf(card, sizeof card, "%s/workloads/gpus/h200.ini", g_src);
    FILE *f = fopen(card, "r");
    if (f) fclose(f);
    else g_src[0] = '\0';
}

static int load_card(mxsim_ctx *ctx, mxsim_gpu_card *c)
{
    if (!g_src[0]) return 0;
    return mxsim_gpu_card_load(ctx, src_path("workloads/gpus/h200.ini"), c) == MXSIM_OK;
}

static const char *write_tmp(const char *name, const char *text)
{
    static char p[4][512];
    static int k;
    k = (k + 1) % 4;
    const char *d = getenv("MXSIM_TEST_TMP");
    snprintf(p[k], sizeof p[k], "%s/%s", d ? d : "/tmp", name);
    char cmd[700];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", d ? d : "/tmp");
    if (system(cmd) != 0) return NULL;
    FILE *f = fopen(p[k], "w");
    if (!f) return NULL;
    fputs(text, f);
    fclose(f);
    return p[k];
}

MXTEST(card_errors_name_the_field)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_card c;
    const char *p = write_tmp("c1.ini", "name = x\n[datasheet]\nwarp.speed = 3\n");
    MXT_EQ_INT(mxsim_gpu_card_load(ctx, p, &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "warp.speed") != NULL);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), ":3:") != NULL);
    p = write_tmp("c2.ini", "name = x\n[datasheet]\nsm.count = 132\n");
    MXT_EQ_INT(mxsim_gpu_card_load(ctx, p, &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "missing") != NULL);
    p = write_tmp("c3.ini", "name = x\n[datasheet]\nsm.count = 132\nsm.count = 1\n");
    MXT_EQ_INT(mxsim_gpu_card_load(ctx, p, &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "twice") != NULL);
    p = write_tmp("c4.ini", "name = x\n[datasheet]\nsm.count = lots\n");
    MXT_EQ_INT(mxsim_gpu_card_load(ctx, p, &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "sm.count") != NULL);
    /* every field has a kind among the three */
    for (int i = 0; i < mxsim_gpu_field_count(); i++) {
        const mxsim_gpu_field *f = mxsim_gpu_field_at(i);
        MXT_TRUE(!strcmp(f->kind, "datasheet") || !strcmp(f->kind, "measured") || !strcmp(f->kind, "calibrated"));
    }
    MXT_TRUE(mxsim_gpu_field_at(-1) == NULL && mxsim_gpu_field_at(mxsim_gpu_field_count()) == NULL);
    mxsim_ctx_destroy(ctx);
}

MXTEST(model_invariants)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_card c;
    if (!load_card(ctx, &c)) {
        mxsim_ctx_destroy(ctx);
        MXT_SKIP("workloads/gpus/h200.ini not found from the test's directory");
        return;
    }
    mxsim_gpu_pred p, q;
    /* routing: M <= 16 -> small-M kernel; large -> tiles (cfg 1 at G 32, cfg 5 at G >= 64) */
    mxsim_gpu_op op = {MXSIM_GK_MXK_GEMM, 0, 1, 4096, 4096, 32};
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_OK);
    MXT_EQ_INT(p.cfg_used, 4);
    op.m = 2048, op.g = 32;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_OK);
    MXT_EQ_INT(p.cfg_used, 1);
    op.g = 128;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &q), MXSIM_OK);
    MXT_EQ_INT(q.cfg_used, 5);
    /* larger groups mean less scaling work on the CUDA cores */
    op.cfg = 5, op.g = 32;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_OK);
    op.g = 128;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &q), MXSIM_OK);
    MXT_TRUE(q.time_us < p.time_us && q.scale_us < p.scale_us);
    MXT_TRUE(p.scale_us > 0.3 * (p.time_us - p.launch_us)); /* the contract's FP32 work matters */
    MXT_TRUE(!strcmp(p.bound, "issue"));
    MXT_TRUE(p.tc_us < 0.2 * p.time_us); /* tensor cores are far from the bound */
    /* doubling K doubles the body of a tile GEMM (waves x K) */
    op.k = 8192;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_OK);
    MXT_TRUE(p.time_us - p.launch_us > 1.9 * (q.time_us - q.launch_us));
    /* streaming kernels: a big dequant is memory-bound; copy time = bytes / copy bandwidth */
    mxsim_gpu_op dq = {MXSIM_GK_DEQUANT_OCP, 0, 1 << 28, 1, 1, 32};
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &dq, &p), MXSIM_OK);
    MXT_TRUE(!strcmp(p.bound, "memory"));
    mxsim_gpu_op cp = {MXSIM_GK_COPY, 0, 1000000, 1, 1, 0};
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &cp, &p), MXSIM_OK);
    MXT_NEAR(p.time_us, 2e6 / (c.copy_bw_gbs * 1e3), 1e-9);
    /* cuBLAS at the reference shape reproduces its measured peak (+ call overhead) */
    mxsim_gpu_op cb = {MXSIM_GK_CUBLAS_BF16, 0, 8192, 8192, 8192, 0};
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &cb, &p), MXSIM_OK);
    MXT_NEAR(p.time_us - p.launch_us, 2.0 * 8192.0 * 8192 * 8192 / (c.cublas_bf16_tflops * 1e6), 1e-6);
    /* bad ops name the field */
    op.g = 48;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "g:") != NULL);
    op.g = 32, op.cfg = 9;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "cfg") != NULL);
    mxsim_gpu_op mp;
    MXT_EQ_INT(mxsim_gpu_method_parse(ctx, "mxk-gemm-mxint8-cfg6", &mp), MXSIM_OK);
    MXT_EQ_INT(mp.cfg, 6);
    MXT_EQ_INT(mxsim_gpu_method_parse(ctx, "mxk-gemm-mxint8-cfg7", &mp), MXSIM_E_INPUT);
    mxsim_ctx_destroy(ctx);
}

MXTEST(calibration_ignores_held_out_points)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_card c;
    if (!load_card(ctx, &c)) {
        mxsim_ctx_destroy(ctx);
        MXT_SKIP("workloads/gpus/h200.ini not found");
        return;
    }
    /* a small bench: training rows (shape 0, ocp dequant), held-out rows (shape 1) with absurd
    ** times; calibration must give the same card as without the held-out rows */
    const char *hdr = "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\n";
    const char *train_a = "T,a,2048,4096,4096,32,mxk-gemm-mxint8,503.5,1,TOPS,1\n"
                          "T,a,2048,4096,4096,128,mxk-gemm-mxint8,344.9,1,TOPS,1\n";
    const char *train_d = "T,d,1000000,1,1,32,mxk-dequant-ocp,9,1,GB/s,1\n";
    const char *held_b = "T,b,16,4096,4096,32,mxk-gemm-mxint8,9999,1,TOPS,1\n"; /* shape 1: odd */
    const char *held_d = "T,d,1000000,1,1,32,mxk-dequant-mase-cuda,9999,1,GB/s,1\n";
    char t1[2048], t2[2048];
    snprintf(t1, sizeof t1, "%s%s%s", hdr, train_a, train_d);
    snprintf(t2, sizeof t2, "%s%s%s%s%s", hdr, train_a, held_b, train_d, held_d);
    mxsim_gpu_bench *b1, *b2;
    MXT_EQ_INT(mxsim_gpu_bench_load(ctx, write_tmp("b1.csv", t1), &b1), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_bench_load(ctx, write_tmp("b2.csv", t2), &b2), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_bench_count(b2), 5);
    MXT_EQ_INT(mxsim_gpu_bench_point(b2, 2)->split, 1);
    MXT_EQ_INT(mxsim_gpu_bench_point(b2, 3)->split, 0);
    MXT_EQ_INT(mxsim_gpu_bench_point(b2, 4)->split, 1);
    mxsim_gpu_card c1 = c, c2 = c;
    mxsim_gpu_summary s1, s2;
    MXT_EQ_INT(mxsim_gpu_calibrate(ctx, &c1, b1, &s1), MXSIM_OK);
    MXT_EQ_INT(mxsim_gpu_calibrate(ctx, &c2, b2, &s2), MXSIM_OK);
    for (int i = 0; i < mxsim_gpu_field_count(); i++)
        MXT_NEAR(mxsim_gpu_card_get(&c1, i), mxsim_gpu_card_get(&c2, i), 0.0);
    MXT_NEAR(s1.mape_pct[0], s2.mape_pct[0], 1e-12);
    MXT_TRUE(s2.mape_pct[1] > 50.0); /* the absurd held-out rows are scored, not fitted */
    mxsim_gpu_bench_swap_split(b2);
    MXT_EQ_INT(mxsim_gpu_bench_point(b2, 2)->split, 0);
    mxsim_gpu_bench_free(b1);
    mxsim_gpu_bench_free(b2);
    mxsim_ctx_destroy(ctx);
}

/* A failure, then a success on the same context: the message is gone. */
MXTEST(gpu_calls_clear_the_message)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_op op;
    MXT_EQ_INT(mxsim_gpu_method_parse(ctx, "no-such-kernel", &op), MXSIM_E_INPUT);
    MXT_TRUE(mxsim_errmsg(ctx)[0] != '\0');
    MXT_EQ_INT(mxsim_gpu_method_parse(ctx, "mxk-gemm-mxint8-cfg5", &op), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');
    mxsim_ctx_destroy(ctx);
}

/* A card built through the API with values no card file may hold (sm.count 0.5 or 1e19, NaN, a
** negative clock, overlap loss 2, an unterminated name): every entry point returns an error naming
** the field instead of dividing by zero or converting out of range (it used to die of SIGFPE). */
MXTEST(bad_api_card_is_an_error_not_a_crash)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_card good;
    if (!load_card(ctx, &good)) {
        mxsim_ctx_destroy(ctx);
        MXT_SKIP("workloads/gpus/h200.ini not found");
        return;
    }
    mxsim_gpu_op op = {MXSIM_GK_MXK_GEMM, 0, 2048, 4096, 4096, 32};
    mxsim_gpu_pred p;
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &good, &op, &p), MXSIM_OK);
    struct {
        size_t off;
        double v;
        const char *field;
    } bad[] = {{offsetof(mxsim_gpu_card, n_sm), 0.5, "sm.count"},
               {offsetof(mxsim_gpu_card, n_sm), 1e19, "sm.count"},
               {offsetof(mxsim_gpu_card, n_sm), 0.0, "sm.count"},
               {offsetof(mxsim_gpu_card, issue_per_sm_clk), NAN, "sm.issue_per_clk"},
               {offsetof(mxsim_gpu_card, sm_clock_mhz), -1750, "sm.clock_mhz"},
               {offsetof(mxsim_gpu_card, copy_bw_gbs), INFINITY, "mem.copy_bw_gbs"},
               {offsetof(mxsim_gpu_card, stream_overlap_loss), 2.0, "stream.overlap_loss"},
               {offsetof(mxsim_gpu_card, smem_per_sm_bytes), 1099511627776.0, "sm.smem_bytes"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mxsim_gpu_card c = good;
        *(double *)((char *)&c + bad[i].off) = bad[i].v;
        MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_E_INPUT);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), bad[i].field) != NULL);
        mxsim_gpu_op cp = {MXSIM_GK_COPY, 0, 1000, 1, 1, 0};
        MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &cp, &p), MXSIM_E_INPUT);
    }
    mxsim_gpu_card c = good;
    memset(c.name, 'x', sizeof c.name); /* no terminating NUL */
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &c, &op, &p), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "name") != NULL);
    /* compare and calibrate refuse it too, before any prediction */
    const char *bench = write_tmp("api_b.csv", "card,shape,M,N,K,G,method,median_us,rate,unit,ratio\n"
                                              "T,a,2048,4096,4096,32,mxk-gemm-mxint8,503.5,1,TOPS,1\n");
    mxsim_gpu_bench *b = NULL;
    MXT_EQ_INT(mxsim_gpu_bench_load(ctx, bench, &b), MXSIM_OK);
    c = good;
    c.n_sm = 0.5;
    mxsim_gpu_summary s;
    MXT_EQ_INT(mxsim_gpu_compare(ctx, &c, b, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "sm.count") != NULL);
    MXT_EQ_INT(mxsim_gpu_calibrate(ctx, &c, b, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "sm.count") != NULL);
    MXT_NEAR(c.n_sm, 0.5, 0.0); /* not "fixed" behind the caller's back */
    mxsim_gpu_bench_free(b);
    /* ops beyond the models' int64 range are refused too (2^62 x 2^62 tiles used to overflow) */
    mxsim_gpu_op huge = {MXSIM_GK_MXK_GEMM, 0, (int64_t)1 << 62, (int64_t)1 << 62, 4096, 32};
    MXT_EQ_INT(mxsim_gpu_predict(ctx, &good, &huge, &p), MXSIM_E_INPUT);
    mxsim_ctx_destroy(ctx);
}

/* The card file's rules: sections, counts whole and in range, every error with file:line: field. */
MXTEST(card_file_sections_and_ranges)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_gpu_card c;
    /* file, content, the message it must give */
    static const char *const cases[][3] = {
        {"s1.ini", "name = x\n[extra]\nsm.count = 132\n", "s1.ini:2: unknown section '[extra]'"},
        {"s2.ini", "name = x\n[measured]\nsm.count = 132\n", "s2.ini:3: sm.count: in section [measured], but it belongs in [datasheet]"},
        {"s3.ini", "name = x\nsm.count = 132\n", "s3.ini:2: sm.count: outside any section"},
        {"s4.ini", "name = x\n[datasheet]\nsm.count = 0.5\n", "s4.ini:3: sm.count: '0.5' is not a whole number in 1..1024"},
        {"s5.ini", "name = x\n[datasheet]\n\nl2.bytes = 1e13\n", "s5.ini:4: l2.bytes: '1e13' is not a whole number"},
        {"s6.ini", "name = x\n[calibrated]\nstream.overlap_loss = 1.5\n", "s6.ini:3: stream.overlap_loss: '1.5' is not a number in [0, 1]"},
        {"s7.ini", "[datasheet]\nname = x\n", "s7.ini:2: name: belongs before the first section"},
        {"s8.ini", "name = x\n[datasheet]\n[datasheet]\n", "s8.ini:3: section [datasheet] given twice (first on line 2)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        MXT_EQ_INT(mxsim_gpu_card_load(ctx, write_tmp(cases[i][0], cases[i][1]), &c), MXSIM_E_INPUT);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), cases[i][2]) != NULL);
    }
    mxsim_ctx_destroy(ctx);
}

int main(void)
{
    find_src();
    return mxt_run_all();
}

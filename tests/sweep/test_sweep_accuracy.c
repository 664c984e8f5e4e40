/* test_accuracy.c - per-op accuracy: a known case against a float64 computation written here
** (decoding with the scalar API, the contract's single-group rounding), the outlier property
** (SQNR rises as G shrinks), sampling, seeding and error paths. */
#include <sys/stat.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_top gemm_op(const char *name, int64_t m, int64_t n, int64_t k) { return mxt_gemm_op(name, m, n, k); }

static const char *tmpdir(void)
{
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d) d = "/tmp/mxsim_test_accuracy";
    mkdir(d, 0777);
    return d;
}

static void save(mxsim_ctx *ctx, const char *path, const float *v, int64_t r, int64_t c)
{
    int64_t sh[2] = {r, c};
    mxsim_tensor *t;
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, sh, &t), MXSIM_OK);
    memcpy(mxsim_tensor_data(t), v, (size_t)(r * c) * sizeof(float));
    MXT_EQ_INT(mxsim_tensor_save_npy(ctx, t, path), MXSIM_OK);
    mxsim_tensor_free(t);
}

/* G = 32 and K <= 32: one group (K = 32), or one group padded with 32 - K zeros (K < 32, as mxsim
** run pads it).  The contract's output is then RN_f32 of the exact dot product of the decoded
** values, and the zeros change neither the group's scale nor the dot: SQNR can be recomputed here
** with the scalar API only, quantizing the K real elements as one block. */
static void one_group_case(const char *name, int K)
{
    enum { R = 3, C = 4, KMAX = 32 };
    float a[R * KMAX], b[C * KMAX];
    mxt_rng rng = {42};
    for (int i = 0; i < R * K; i++) a[i] = (float)(mxt_gauss(&rng) * (i % 7 == 0 ? 30 : 1));
    for (int i = 0; i < C * K; i++) b[i] = (float)(0.02 * mxt_gauss(&rng));
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/%s.a.npy", tmpdir(), name);
    snprintf(pb, sizeof pb, "%s/%s.b.npy", tmpdir(), name);
    save(ctx, pa, a, R, K);
    save(ctx, pb, b, C, K);
    mxsim_top op = gemm_op(name, R, C, K);
    mxsim_accuracy_opts o;
    mxsim_accuracy_opts_default(&o);
    o.group_size = 32;
    o.data_dir = tmpdir();
    mxsim_accuracy res;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &res), MXSIM_OK);
    MXT_EQ_INT(res.from_file, 1);
    MXT_EQ_INT(res.rows, R);
    MXT_EQ_INT(res.cols, C);
    MXT_EQ_INT(res.sampled, 0);
    /* independent: quantize each row (one block of its K elements), decode, exact dot, one rounding */
    double qa[R * KMAX], qb[C * KMAX];
    for (int r = 0; r < R; r++) {
        uint8_t s;
        int8_t m[KMAX];
        MXT_EQ_INT(mxsim_quantize_block(MXSIM_PROFILE_OCP, MXSIM_DTYPE_F32, a + r * K, K, &s, m), MXSIM_OK);
        for (int k = 0; k < K; k++) qa[r * K + k] = mxsim_decode_f32(MXSIM_PROFILE_OCP, s, m[k]);
    }
    for (int c = 0; c < C; c++) {
        uint8_t s;
        int8_t m[KMAX];
        MXT_EQ_INT(mxsim_quantize_block(MXSIM_PROFILE_OCP, MXSIM_DTYPE_F32, b + c * K, K, &s, m), MXSIM_OK);
        for (int k = 0; k < K; k++) qb[c * K + k] = mxsim_decode_f32(MXSIM_PROFILE_OCP, s, m[k]);
    }
    double sig = 0, err = 0, maxrel = 0;
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) {
            double ref = 0, q = 0;
            for (int k = 0; k < K; k++) {
                ref += (double)a[r * K + k] * (double)b[c * K + k];
                q += qa[r * K + k] * qb[c * K + k]; /* exact: products of 8-bit codes times powers of 2 */
            }
            double y = (double)(float)q;
            sig += ref * ref;
            err += (y - ref) * (y - ref);
            if (fabs(y - ref) / fabs(ref) > maxrel) maxrel = fabs(y - ref) / fabs(ref);
        }
    double sqnr = 10 * log10(sig / err);
    mxt_checks++;
    if (fabs(res.sqnr_db - sqnr) > 1e-9 * fabs(sqnr)) MXT_FAILF("K=%d: sqnr %.17g != %.17g", K, res.sqnr_db, sqnr);
    mxt_checks++;
    if (fabs(res.max_rel_err - maxrel) > 1e-12 * maxrel) MXT_FAILF("K=%d: max rel %.17g != %.17g", K, res.max_rel_err, maxrel);
    MXT_TRUE(sqnr > 10 && sqnr < 60);
    mxsim_ctx_destroy(ctx);
}

MXTEST(known_case_matches_an_independent_float64_computation) { one_group_case("known", 32); }

/* K = 20 at G = 32: measured as one group padded with 12 zeros (it used to be refused) */
MXTEST(a_k_that_g_does_not_divide_is_measured_zero_padded) { one_group_case("padded", 20); }

/* On the synthetic outlier-heavy activations, smaller groups isolate the outlier channels. */
MXTEST(sqnr_rises_as_group_size_shrinks_on_outlier_data)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_top op = gemm_op("ffn_up", 256, 512, 1024);
    mxsim_accuracy_opts o;
    mxsim_accuracy_opts_default(&o);
    o.sample_rows = 32;
    o.sample_cols = 32;
    double prev = -INFINITY;
    for (int64_t g = 256; g >= 8; g /= 2) {
        mxsim_accuracy r;
        o.group_size = g;
        MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &r), MXSIM_OK);
        mxt_checks++;
        if (!(r.sqnr_db > prev)) MXT_FAILF("G=%lld: SQNR %.3f dB not above %.3f dB", (long long)g, r.sqnr_db, prev);
        prev = r.sqnr_db;
        MXT_EQ_INT(r.sampled, 1);
        MXT_EQ_INT(r.rows, 32);
        MXT_EQ_INT(r.cols, 32);
    }
    /* and the exact accumulator is never worse than fp32 on the same data */
    mxsim_accuracy f, e;
    o.group_size = 32;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &f), MXSIM_OK);
    o.acc = MXSIM_ACC_EXACT;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &e), MXSIM_OK);
    MXT_TRUE(e.sqnr_db >= f.sqnr_db - 1e-9);
    mxsim_ctx_destroy(ctx);
}

MXTEST(synthetic_data_is_seeded_and_sampling_is_reported)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_top op = gemm_op("qkv", 100, 20, 64);
    mxsim_accuracy_opts o;
    mxsim_accuracy_opts_default(&o);
    mxsim_accuracy a1, a2, a3;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &a1), MXSIM_OK);
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &a2), MXSIM_OK);
    MXT_TRUE(a1.sqnr_db == a2.sqnr_db && a1.max_rel_err == a2.max_rel_err);
    MXT_EQ_INT(a1.rows, 64);
    MXT_EQ_INT(a1.cols, 20);
    MXT_EQ_INT(a1.sampled, 1);
    o.seed = 2;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &a3), MXSIM_OK);
    MXT_TRUE(a3.sqnr_db != a1.sqnr_db);
    o.sample_rows = 0; /* all rows */
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &a3), MXSIM_OK);
    MXT_EQ_INT(a3.rows, 100);
    MXT_EQ_INT(a3.sampled, 0);
    /* overall = -10 log10(mean noise-to-signal) over ops */
    mxsim_accuracy tot;
    memset(&tot, 0, sizeof tot);
    mxsim_accuracy_add(&tot, &a1);
    mxsim_accuracy_add(&tot, &a3);
    double nsr = (pow(10, -a1.sqnr_db / 10) + pow(10, -a3.sqnr_db / 10)) / 2;
    mxt_checks++;
    if (fabs(tot.sqnr_db + 10 * log10(nsr)) > 1e-9) MXT_FAILF("overall %.12g", tot.sqnr_db);
    MXT_EQ_INT(tot.n_ops, 2);
    mxsim_ctx_destroy(ctx);
}

MXTEST(quantize_and_dequant_ops_measure_the_round_trip)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_top op = gemm_op("probs_q", 128, 128, 1);
    op.kind = MXSIM_OP_QUANTIZE;
    op.k = 0;
    mxsim_accuracy_opts o;
    mxsim_accuracy_opts_default(&o);
    mxsim_accuracy q, d;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &q), MXSIM_OK);
    op.kind = MXSIM_OP_DEQUANT;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &d), MXSIM_OK);
    MXT_TRUE(isfinite(q.sqnr_db) && q.sqnr_db > 20);
    MXT_TRUE(isfinite(d.sqnr_db) && d.sqnr_db > 20);
    MXT_EQ_INT(q.cols, 128);
    mxsim_ctx_destroy(ctx);
}

MXTEST(bad_group_and_bad_files_are_input_errors)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_top op = gemm_op("attn", 16, 16, 64);
    mxsim_accuracy_opts o;
    mxsim_accuracy_opts_default(&o);
    mxsim_accuracy r;
    o.group_size = 0;
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &op, &o, &r), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "'group'") != NULL);
    /* a file with the wrong K names the file and the field */
    float v[2 * 8] = {0};
    char p[512];
    snprintf(p, sizeof p, "%s/wrongk.a.npy", tmpdir());
    save(ctx, p, v, 2, 8);
    snprintf(p, sizeof p, "%s/wrongk.b.npy", tmpdir());
    save(ctx, p, v, 2, 8);
    mxsim_top w = gemm_op("wrongk", 2, 2, 64);
    o.group_size = 32;
    o.data_dir = tmpdir();
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &w, &o, &r), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "wrongk.a.npy") != NULL && strstr(mxsim_errmsg(ctx), "'shape'") != NULL);
    /* only one of the two files: an error, not a silent fallback */
    snprintf(p, sizeof p, "%s/half.a.npy", tmpdir());
    float v64[64] = {0};
    save(ctx, p, v64, 1, 64);
    mxsim_top h = gemm_op("half", 1, 1, 64);
    MXT_EQ_INT(mxsim_accuracy_op(ctx, &h, &o, &r), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "half.b.npy") != NULL);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

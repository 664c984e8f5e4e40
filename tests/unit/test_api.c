/* test_api.c - ABI hygiene of the public header: version and ABI numbers agree between the
** header, the library and the build (MXSIM_PROJECT_VERSION comes from CMake's project()), a
** success leaves mxsim_errmsg() empty after an earlier failure, and option structs not filled by
** their *_default() function are refused with a message; the defaults are the documented ones. */
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

/* The defaults, written out by hand from where they are documented (the field table's help text,
** which `mxsim config --dump` and `mxsim help` print, and the comments of mxsim.h), so that a
** changed default fails here and not only in a snapshot (mutation audit C2).  The bundled machine:
** a 32 x 32 output-stationary array of one-lane PEs, G = 32 MXINT8 operands with one exponent unit
** per PE (II 1, latency 2, fp32 accumulator), 256 KiB per SRAM, 32 bytes/cycle DRAM at 100 cycles,
** 1 GHz, fp32 outputs, 32-lane dequant (depth 4) and re-quantizer (depth 6), the tile searched for
** cycles, SCALE-Sim compatibility off. */
MXTEST(documented_defaults)
{
    static const struct {
        const char *key, *value;
    } want[] = {
        {"array.rows", "32"}, {"array.cols", "32"}, {"array.dataflow", "os"}, {"pe.lanes", "1"},
        {"pe.load_lanes", "1"}, {"mx.group_size", "32"}, {"mx.operand_format", "mxint8"}, {"exp.share", "pe"},
        {"exp.ii_cycles", "1"}, {"exp.latency_cycles", "2"}, {"exp.acc_mode", "fp32"}, {"sram.a_kib", "256"},
        {"sram.b_kib", "256"}, {"sram.c_kib", "256"}, {"dram.bw_bytes_per_cycle", "32"},
        {"dram.latency_cycles", "100"}, {"dram.pj_per_bit", "0"}, {"clock.mhz", "1000"}, {"out.format", "fp32"},
        {"dequant.lanes", "32"}, {"dequant.depth_cycles", "4"}, {"requant.lanes", "32"},
        {"requant.depth_cycles", "6"}, {"report.scalesim_compat", "0"}, {"report.scalesim_bw", "user"},
        {"report.scalesim_version", "v2"}, {"tile.m", "0"}, {"tile.n", "0"}, {"tile.k", "0"},
        {"tile.objective", "cycles"},
    };
    const int n_want = (int)(sizeof want / sizeof want[0]);
    MXT_EQ_INT(mxsim_tconfig_field_count(), n_want); /* a new field needs its default stated here */
    mxsim_tconfig c;
    memset(&c, 0x5a, sizeof c);
    mxsim_tconfig_default(&c);
    for (int w = 0; w < n_want; w++) {
        int fi = -1;
        for (int i = 0; i < mxsim_tconfig_field_count(); i++)
            if (!strcmp(mxsim_tconfig_field_at(i)->name, want[w].key)) fi = i;
        char buf[64] = "";
        const char *got = fi >= 0 ? mxsim_tconfig_format(&c, fi, buf, sizeof buf) : "(no such field)";
        if (got == NULL || strcmp(got, want[w].value) != 0) fprintf(stderr, "  %s: %s, expected %s\n", want[w].key, got ? got : "(null)", want[w].value);
        MXT_TRUE(got != NULL && !strcmp(got, want[w].value));
    }
    /* the struct itself, where a field's text could hide its value */
    MXT_EQ_INT(c.array_rows * c.array_cols, 1024);
    MXT_EQ_INT(c.dataflow, MXSIM_DF_OS);
    MXT_EQ_INT(c.operand_format, MXSIM_FMT_MXINT8);
    MXT_EQ_INT(c.exp_share, MXSIM_EXP_PER_PE);
    MXT_EQ_INT(c.acc_mode, MXSIM_ACC_FP32);
    MXT_EQ_INT(c.out_format, MXSIM_OUT_FP32);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 32 && c.clock_mhz == 1000 && c.dram_pj_per_bit == 0);

    /* mxsim.h: node 45 nm, Vdd 0 (the node's own), overhead 1.0, 32 KiB SRAM banks */
    mxsim_cost_params p;
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(p.struct_size, sizeof p);
    MXT_EQ_INT(p.node_nm, 45);
    MXT_TRUE(p.vdd_v == 0 && p.overhead_factor == 1.0);
    MXT_EQ_INT(p.sram_bank_kib, 32);
    /* mxsim.h: OCP, fp32, G = 32, 64 x 64 samples, seed 1, synthetic data */
    mxsim_accuracy_opts a;
    mxsim_accuracy_opts_default(&a);
    MXT_EQ_INT(a.struct_size, sizeof a);
    MXT_EQ_INT(a.profile, MXSIM_PROFILE_OCP);
    MXT_EQ_INT(a.acc, MXSIM_ACC_FP32);
    MXT_EQ_INT(a.group_size, 32);
    MXT_EQ_INT(a.sample_rows, 64);
    MXT_EQ_INT(a.sample_cols, 64);
    MXT_EQ_INT(a.seed, 1);
    MXT_TRUE(a.data_dir == NULL);
}

MXTEST_MAIN()

/* test_timing_peer.c - the timing engine against independently derived expectations: SCALE-Sim
** v2's closed forms (sim/doc/references.md#scalesim) on a grid, SCALE-Sim v2 outputs for six
** layers (quoted in issue 3, the engine's specification), hand-computed MX cases,
** and the acceptance properties (bandwidth, SRAM, G, L = G, repeat). */
#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_ctx *g_ctx;

static void peer_cfg(mxsim_tconfig *c, int R, int C, int df)
{
    mxsim_tconfig_default(c);
    c->array_rows = R;
    c->array_cols = C;
    c->dataflow = df;
    c->pe_lanes = c->load_lanes = 1;
    c->sram_a_kib = c->sram_b_kib = c->sram_c_kib = 1 << 20;
    c->dram_bw_bytes_per_cycle = 65536;
    c->dram_latency_cycles = 0;
}

static mxsim_top gemm(int64_t m, int64_t n, int64_t k) { return mxt_gemm_op("g", m, n, k); }

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* SCALE-Sim v2 (references.md#scalesim): OS ceil(M/R)ceil(N/C)(K+R+C-2), WS ceil(K/R)ceil(N/C)(2R+C+M-2),
** IS ceil(K/R)ceil(M/C)(2R+C+N-2). */
static int64_t scalesim(int df, int64_t R, int64_t C, int64_t M, int64_t N, int64_t K)
{
    if (df == 0) return cdiv(M, R) * cdiv(N, C) * (K + R + C - 2);
    if (df == 1) return cdiv(K, R) * cdiv(N, C) * (2 * R + C + M - 2);
    return cdiv(K, R) * cdiv(M, C) * (2 * R + C + N - 2);
}

static int64_t array_cycles(mxsim_tconfig *c, mxsim_top *o)
{
    mxsim_tstats s;
    mxsim_status st = mxsim_time_op(g_ctx, c, o, "test", 0, NULL, &s);
    if (st != MXSIM_OK) {
        fprintf(stderr, "  time_op: %s\n", mxsim_errmsg(g_ctx));
        return -1;
    }
    return s.cycles_array;
}

MXTEST(issue_examples_scalesim_compat)
{
    static const struct { int R, C, M, N, K, df; int64_t want; } ex[] = {
        {8, 8, 64, 32, 100, 0, 3647}, {8, 8, 64, 32, 100, 1, 4471}, {8, 8, 64, 32, 100, 2, 5615},
        {4, 8, 100, 7, 33, 0, 1074},  {4, 8, 100, 7, 33, 1, 1025},  {4, 8, 100, 7, 33, 2, 2456}};
    for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++) {
        mxsim_tconfig c;
        peer_cfg(&c, ex[i].R, ex[i].C, ex[i].df);
        c.operand_format = MXSIM_FMT_INT8;
        c.scalesim_compat = 1;
        mxsim_top o = gemm(ex[i].M, ex[i].N, ex[i].K);
        MXT_EQ_INT(array_cycles(&c, &o), ex[i].want);
        c.scalesim_compat = 0;
        MXT_EQ_INT(array_cycles(&c, &o), ex[i].want + 1);
    }
}

/* Grid: int8, and MXINT8 with G | K, L = 1, II <= G, latency 0 (the exponent unit never stalls). */
MXTEST(peer_formulas_grid)
{
    static const int dims[] = {1, 3, 8, 17, 64};
    static const int arr[][2] = {{1, 1}, {4, 8}, {8, 4}, {8, 8}, {16, 16}};
    for (int df = 0; df < 3; df++)
        for (size_t a = 0; a < 5; a++)
            for (int mi = 0; mi < 5; mi++)
                for (int ni = 0; ni < 5; ni++)
                    for (int ki = 0; ki < 5; ki++) {
                        int64_t M = dims[mi], N = dims[ni], K = dims[ki] * 4;
                        mxsim_tconfig c;
                        peer_cfg(&c, arr[a][0], arr[a][1], df);
                        mxsim_top o = gemm(M, N, K);
                        int64_t want = scalesim(df, arr[a][0], arr[a][1], M, N, K);
                        c.operand_format = MXSIM_FMT_INT8;
                        MXT_EQ_INT(array_cycles(&c, &o), want);
                        c.scalesim_compat = 1;
                        MXT_EQ_INT(array_cycles(&c, &o), want - 1);
                        c.scalesim_compat = 0;
                        c.operand_format = MXSIM_FMT_MXINT8;
                        c.group_size = 4;
                        c.exp_latency_cycles = 0;
                        c.exp_ii_cycles = 1;
                        /* units that never stall: per PE; in OS also a unit shared by n PEs
                        ** when n * II <= G (one group every G cycles per PE) */
                        for (int sh = 0; sh < 3; sh++) {
                            int64_t n = sh == 0 ? 1 : sh == 1 ? arr[a][1] : arr[a][0];
                            if (sh != 0 && (df != 0 || n > 4)) continue;
                            c.exp_share = sh;
                            MXT_EQ_INT(array_cycles(&c, &o), want);
                        }
                    }
}

/* Hand-computed MX case: OS 2x2 array, K = 8, G = 4, L = 1: groups of 4 beats; exponent unit per
** PE with II = 6 > 4 -> group interval 6; latency 3.  Fold = (2-1)*6 + 4 + (2+2-2) + 3 = 15. */
MXTEST(hand_exp_stall_os)
{
    mxsim_tconfig c;
    peer_cfg(&c, 2, 2, 0);
    c.group_size = 4;
    c.exp_ii_cycles = 6;
    c.exp_latency_cycles = 3;
    mxsim_top o = gemm(2, 2, 8);
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_array, 15);
    MXT_EQ_INT(s.cycles_compute, 8);
    MXT_EQ_INT(s.cycles_fill_drain, 2);
    MXT_EQ_INT(s.cycles_exp_stall, 5);
    /* per-row sharing: 2 PEs per unit: interval max(4, 1*6+6) = 12; tail from row 1's first op:
    ** 12 + 4 + 1 + (2-1)*6 + 3 = 26 */
    c.exp_share = MXSIM_EXP_PER_ROW;
    MXT_EQ_INT(array_cycles(&c, &o), 26);
    /* scale bytes: K/G per row: A 2x8 -> 4 scale bytes, B 8x2 -> 4 */
    MXT_EQ_INT(s.dram_a_scale_bytes, 4);
    MXT_EQ_INT(s.dram_b_scale_bytes, 4);
    MXT_EQ_INT(s.dram_a_mant_bytes, 16);
    MXT_EQ_INT(s.n_exp_ops, 2 * 2 * 2);
    MXT_EQ_INT(s.n_macs, 32);
}

static mxsim_tstats run(mxsim_tconfig *c, mxsim_top *o)
{
    mxsim_tstats s;
    memset(&s, 0, sizeof s);
    if (mxsim_time_op(g_ctx, c, o, "t", 0, NULL, &s) != MXSIM_OK) {
        fprintf(stderr, "  %s\n", mxsim_errmsg(g_ctx));
        s.cycles_total = -1;
    }
    return s;
}

static void random_cfg(mxt_rng *r, mxsim_tconfig *c)
{
    mxsim_tconfig_default(c);
    c->array_rows = 1 + (int64_t)(mxt_next(r) % 16);
    c->array_cols = 1 + (int64_t)(mxt_next(r) % 16);
    c->dataflow = (int64_t)(mxt_next(r) % 3);
    c->pe_lanes = 1 + (int64_t)(mxt_next(r) % 8);
    c->load_lanes = 1 + (int64_t)(mxt_next(r) % 8);
    c->exp_share = (int64_t)(mxt_next(r) % 3);
    c->exp_ii_cycles = 1 + (int64_t)(mxt_next(r) % 4);
    c->exp_latency_cycles = (int64_t)(mxt_next(r) % 4);
    c->sram_a_kib = c->sram_b_kib = c->sram_c_kib = 4 + (int64_t)(mxt_next(r) % 64);
    c->dram_bw_bytes_per_cycle = 1 + (double)(mxt_next(r) % 64);
    c->dram_latency_cycles = (int64_t)(mxt_next(r) % 200);
    c->out_format = (int64_t)(mxt_next(r) % 3);
}

/* As run(), without printing the reason of a failure (a tiling that does not fit is expected). */
static mxsim_tstats run_quiet(mxsim_tconfig *c, mxsim_top *o)
{
    mxsim_tstats s;
    memset(&s, 0, sizeof s);
    if (mxsim_time_op(g_ctx, c, o, "t", 0, NULL, &s) != MXSIM_OK) s.cycles_total = -1;
    return s;
}

MXTEST(properties_random)
{
    mxt_rng r = {42};
    int n_g_compared = 0;
    for (int it = 0; it < 300; it++) {
        mxsim_tconfig c;
        random_cfg(&r, &c);
        int64_t G = (int64_t[]){4, 8, 16, 32}[mxt_next(&r) % 4];
        c.group_size = G;
        mxsim_top o = gemm(1 + (int64_t)(mxt_next(&r) % 300), 1 + (int64_t)(mxt_next(&r) % 300),
                           G * (1 + (int64_t)(mxt_next(&r) % 24)));
        mxsim_tstats base = run(&c, &o);
        if (base.cycles_total < 0) continue; /* SRAM too small: reported as an error */
        MXT_EQ_INT(base.cycles_total, base.cycles_compute + base.cycles_fill_drain + base.cycles_exp_stall +
                                          base.cycles_lane_limit + base.cycles_mem_stall);
        MXT_EQ_INT(base.cycles_mem_stall, base.cycles_dram_bw + base.cycles_dram_latency);
        MXT_TRUE(base.cycles_mem_stall >= 0 && base.cycles_exp_stall >= 0);
        /* more DRAM bandwidth never increases cycles */
        mxsim_tconfig c2 = c;
        c2.dram_bw_bytes_per_cycle *= 2;
        MXT_TRUE(run(&c2, &o).cycles_total <= base.cycles_total);
        /* more SRAM never increases cycles */
        c2 = c;
        c2.sram_a_kib *= 2;
        c2.sram_b_kib *= 2;
        c2.sram_c_kib *= 2;
        MXT_TRUE(run(&c2, &o).cycles_total <= base.cycles_total);
        /* larger G never increases scale bytes, the tiling held fixed: the tiling chosen for 2G
        ** (its k chunk a multiple of 2G, so of G) is forced on both runs, and the same tiling must
        ** then load the same mantissas with exactly half the scale bytes */
        if (o.k % (2 * G) == 0) {
            mxsim_tconfig f1 = c, f2 = c;
            f2.group_size = 2 * G;
            mxsim_tstats t2 = run_quiet(&f2, &o);
            f1.tile_m = f2.tile_m = t2.tile_m;
            f1.tile_n = f2.tile_n = t2.tile_n;
            f1.tile_k = f2.tile_k = t2.tile_k;
            mxsim_tstats s1 = run_quiet(&f1, &o), s2 = run_quiet(&f2, &o);
            if (t2.cycles_total >= 0 && s1.cycles_total >= 0) { /* else G's scales overflow the SRAM */
                n_g_compared++;
                MXT_EQ_INT(s2.cycles_total, t2.cycles_total);
                MXT_TRUE(s1.tile_m == s2.tile_m && s1.tile_n == s2.tile_n && s1.tile_k == s2.tile_k);
                MXT_EQ_INT(s1.dram_a_mant_bytes, s2.dram_a_mant_bytes);
                MXT_EQ_INT(s1.dram_b_mant_bytes, s2.dram_b_mant_bytes);
                MXT_TRUE(s2.dram_a_scale_bytes + s2.dram_b_scale_bytes <= s1.dram_a_scale_bytes + s1.dram_b_scale_bytes);
                MXT_TRUE(s2.sram_a_rd_scale_bytes + s2.sram_b_rd_scale_bytes <=
                         s1.sram_a_rd_scale_bytes + s1.sram_b_rd_scale_bytes);
                MXT_EQ_INT(s1.dram_a_scale_bytes, 2 * s2.dram_a_scale_bytes);
                MXT_EQ_INT(s1.dram_b_scale_bytes, 2 * s2.dram_b_scale_bytes);
                MXT_EQ_INT(s1.sram_a_rd_scale_bytes, 2 * s2.sram_a_rd_scale_bytes);
                MXT_EQ_INT(s1.sram_b_rd_scale_bytes, 2 * s2.sram_b_rd_scale_bytes);
            }
        }
        /* repeat scales linearly */
        mxsim_top o3 = o;
        o3.repeat = 3;
        mxsim_tstats s3 = run(&c, &o3);
        MXT_EQ_INT(s3.cycles_total, 3 * base.cycles_total);
        MXT_EQ_INT(s3.dram_a_mant_bytes, 3 * base.dram_a_mant_bytes);
        MXT_EQ_INT(s3.n_macs, 3 * base.n_macs);
    }
    printf("  larger G compared on a fixed tiling in %d cases\n", n_g_compared);
    MXT_TRUE(n_g_compared >= 100);
}

/* tile.m/n/k force the tiling; a forced k chunk must be a multiple of G. */
MXTEST(forced_tiling)
{
    mxsim_tconfig c;
    peer_cfg(&c, 8, 8, MXSIM_DF_OS);
    mxsim_top o = gemm(100, 70, 256);
    c.tile_m = 32, c.tile_n = 1000, c.tile_k = 64;
    mxsim_tstats s = run(&c, &o);
    MXT_EQ_INT(s.tile_m, 32);
    MXT_EQ_INT(s.tile_n, 70); /* above the dim: the whole dim */
    MXT_EQ_INT(s.tile_k, 64);
    MXT_EQ_INT(s.n_tiles, 4 * 1 * 4);
    c.tile_k = 48; /* not a multiple of G = 32 */
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "tile.k") != NULL);
    c.tile_k = 0;
    c.sram_a_kib = 1; /* 32 x 256 A tile does not fit half of 1 KiB */
    c.tile_m = 32;
    c.tile_k = 256;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "no tiling fits") != NULL);
}

/* L = load_lanes = G: every group is one beat, so compute cycles equal the int8 peer's with K/G
** in place of K (no lane-bound cycles). */
MXTEST(lanes_equal_group_removes_lane_bound)
{
    for (int G = 2; G <= 32; G *= 2) {
        mxsim_tconfig c;
        peer_cfg(&c, 8, 8, 0);
        c.group_size = G;
        c.pe_lanes = c.load_lanes = G;
        c.exp_latency_cycles = 0;
        mxsim_top o = gemm(64, 32, 8 * G);
        MXT_EQ_INT(array_cycles(&c, &o), scalesim(0, 8, 8, 64, 32, 8));
        c.pe_lanes = G / 2; /* half the lanes: two beats per group */
        MXT_EQ_INT(array_cycles(&c, &o), scalesim(0, 8, 8, 64, 32, 16));
    }
}

MXTEST(bad_inputs_api)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "array.rows", "0", "x.ini:3"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "x.ini:3") && strstr(mxsim_errmsg(g_ctx), "array.rows"));
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "array.rowz", "4", "x.ini:4"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "fast", "x"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "array.dataflow", "rs", "x"), MXSIM_E_INPUT);
    mxsim_top o = gemm(4, 4, 30);
    mxsim_tstats s;
    o.group_size = 70000; /* above MXSIM_MAX_GROUP */
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t.trace", 0, NULL, &s), MXSIM_E_INPUT);
    /* quantize 4 x 30 with G = 32: the MXINT8 output is one padded group per row, 4 x 32
    ** mantissas and 4 scale bytes; the bf16 input is the useful 4 x 30 x 2 bytes */
    o = gemm(4, 30, 1);
    o.kind = MXSIM_OP_QUANTIZE;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t.trace", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.dram_a_mant_bytes, 4 * 30 * 2);
    MXT_EQ_INT(s.dram_out_bytes, 4 * 32 + 4);
    /* a GEMM's K is padded: 4 x 4 x 30 issues 4*4*32 MACs, 4*4*30 useful */
    o = gemm(4, 4, 30);
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t.trace", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.n_macs, 480);
    MXT_EQ_INT(s.n_macs_issued, 512);
}

/* Worked examples of sim/doc/architecture.md (issue 14), derived by hand there; both engines. */
MXTEST(issue14_worked_examples)
{
    for (int detail = 0; detail < 2; detail++) {
        mxsim_tconfig c;
        mxsim_tstats s;
        /* 2.1 arbiter: 4x1 WS, per-column unit, G = 2 at one lane (t_g = 2), II = 1, latency 0;
        ** m = 3, n = 1, k = 8: two folds of 4 beats, group ends on rows 1 and 3, so n = 2
        ** operations per step and I = max(1, 2 * 1) = 2; fold = max(B + R + C - 1, tail) with
        ** B = R + (S-1) I = 8: 12 = max(12, 11 + 1): 24 array cycles (6 compute, 14 fill/drain) */
        peer_cfg(&c, 4, 1, MXSIM_DF_WS);
        c.exp_share = MXSIM_EXP_PER_COL, c.group_size = 2, c.exp_ii_cycles = 1, c.exp_latency_cycles = 0;
        mxsim_top o = gemm(3, 1, 8);
        MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", detail, NULL, &s), MXSIM_OK);
        MXT_EQ_INT(s.cycles_array, 24);
        MXT_EQ_INT(s.cycles_compute, 6);
        MXT_EQ_INT(s.cycles_fill_drain, 14);
        MXT_EQ_INT(s.cycles_exp_stall, 4);
        /* 2.2 beat choice: 12x4 WS, per-PE units, 7 lanes, G = 40, II = 1, latency 15; m = 7,
        ** n = 1, k = 107 (120 padded, 3 groups).  I = 1, B = 12 + 6 = 18, array drain
        ** B + R + C - 1 = 33; a fold ends at max(33, B + last group-end row + 1 + 15).  Full
        ** beat (t_g = 6, 18 beats): rows 11 | 5 -> 45 + 39 = 84.  t_g = 7 (6 elements a beat,
        ** 21 beats): rows 6 | 8 -> 40 + 42 = 82.  t_g = 8: 41 + 45 = 86; t_g >= 10 needs 3 folds
        ** (>= 99).  The controller picks t_g = 7: 82 cycles, 7 x 3 x 7 = 147 accumulator writes */
        peer_cfg(&c, 12, 4, MXSIM_DF_WS);
        c.exp_share = MXSIM_EXP_PER_PE, c.pe_lanes = c.load_lanes = 7, c.group_size = 40;
        c.exp_ii_cycles = 1, c.exp_latency_cycles = 15;
        o = gemm(7, 1, 107);
        MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", detail, NULL, &s), MXSIM_OK);
        MXT_EQ_INT(s.cycles_array, 82);
        MXT_EQ_INT(s.n_acc_writes, 147);
        /* 3.1 padding: 4 x 4 x 30 at G = 32 moves whole groups: A and B 4 x 32 mantissas and
        ** 4 scale bytes each; 480 useful MACs, 512 issued, 16 exponent operations */
        peer_cfg(&c, 4, 4, MXSIM_DF_OS);
        o = gemm(4, 4, 30);
        MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", detail, NULL, &s), MXSIM_OK);
        MXT_EQ_INT(s.dram_a_mant_bytes, 128);
        MXT_EQ_INT(s.dram_a_scale_bytes, 4);
        MXT_EQ_INT(s.dram_b_mant_bytes, 128);
        MXT_EQ_INT(s.dram_b_scale_bytes, 4);
        MXT_EQ_INT(s.n_macs, 480);
        MXT_EQ_INT(s.n_macs_issued, 512);
        MXT_EQ_INT(s.n_exp_ops, 16);
        /* 3.2 output scales: 2 x 64 MXINT8 outputs at G = 32 in n tiles of 16: 128 mantissa
        ** bytes and one scale per row per group, 2 x 2 = 4 (not one per tile: 8) */
        c.out_format = MXSIM_OUT_MXINT8, c.tile_n = 16;
        o = gemm(2, 64, 32);
        MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", detail, NULL, &s), MXSIM_OK);
        MXT_EQ_INT(s.dram_out_bytes, 128 + 4);
    }
}

/* A failure, then a success on the same context: the message is gone. */
MXTEST(timing_calls_clear_the_message)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    MXT_EQ_INT(mxsim_tconfig_set(ctx, &cfg, "array.rows", "-3", "--set"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "array.rows") != NULL);
    MXT_EQ_INT(mxsim_tconfig_set(ctx, &cfg, "array.rows", "8", "--set"), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');
    mxsim_ctx_destroy(ctx);
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

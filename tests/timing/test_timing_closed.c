/* test_timing_closed.c - the closed form of the analytic pipeline over tile classes (pipeline.c,
** what mxsim_time_op uses) against the walk over every tile (the oracle): every counter equal on
** 2,400 seeded random cases (tiny SRAMs and bandwidths, DRAM latency, padded K, every dataflow and
** output format, MXINT8 and int8, edge tiles, forced tilings); and the overflow checks (E_LIMIT
** naming the op and the field, not a negative count). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"
#include "tinternal.h"

static mxsim_ctx *g_ctx;

static int64_t pick(mxt_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(mxt_next(r) % (uint64_t)(hi - lo + 1)); }

MXTEST(closed_equals_walk_random)
{
    mxt_rng r = {777};
    int n = 0, n_many = 0, bad = 0;
    int64_t tiles = 0;
    for (int it = 0; it < 2400; it++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 1, 16), c.array_cols = pick(&r, 1, 16), c.dataflow = pick(&r, 0, 2);
        c.pe_lanes = pick(&r, 1, 8), c.load_lanes = pick(&r, 1, 8), c.exp_share = pick(&r, 0, 2);
        c.exp_ii_cycles = pick(&r, 1, 4), c.exp_latency_cycles = pick(&r, 0, 6);
        c.sram_a_kib = pick(&r, 1, 8), c.sram_b_kib = pick(&r, 1, 8), c.sram_c_kib = pick(&r, 1, 8);
        c.dram_bw_bytes_per_cycle = round((double)pick(&r, 1, 256) / (double)pick(&r, 1, 8) * 1024) / 1024; /* 1/1024 steps */
        c.dram_latency_cycles = pick(&r, 0, 300);
        c.out_format = pick(&r, 0, 2);
        c.operand_format = pick(&r, 0, 4) == 0 ? MXSIM_FMT_INT8 : MXSIM_FMT_MXINT8;
        c.group_size = (int64_t[]){4, 8, 16, 32}[pick(&r, 0, 3)];
        c.requant_lanes = pick(&r, 1, 64), c.requant_depth_cycles = pick(&r, 0, 8);
        /* small dims too: 1..4 tiles per dim exercise the rows and blocks timed on their own */
        int small = pick(&r, 0, 3) == 0;
        mxsim_top o = mxt_gemm_op("g", pick(&r, 1, small ? 60 : 1500), pick(&r, 1, small ? 60 : 1500),
                                  pick(&r, 1, small ? 200 : 3000));
        if (pick(&r, 0, 2) == 0) { /* any tiling (n tiles not a multiple of G: MXINT8 output scale phases) */
            c.tile_m = pick(&r, 1, 64), c.tile_n = pick(&r, 1, 64);
            c.tile_k = c.operand_format == MXSIM_FMT_INT8 ? pick(&r, 1, 256) : c.group_size * pick(&r, 1, 8);
            c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 64;
        }
        mx_top_resolved op;
        mx_tarch a;
        mx_ttiling t;
        if (mx_top_resolve(g_ctx, &c, &o, "t", &op) != MXSIM_OK) continue;
        mx_tarch_derive(&c, &a);
        if (mx_tengine_choose(g_ctx, &a, &op, "t", NULL, &t, NULL) != MXSIM_OK) continue;
        mxsim_tstats w, s;
        memset(&w, 0, sizeof w);
        memset(&s, 0, sizeof s);
        int64_t cw = mx_tengine_pipeline(&c, &a, &op, &t, &w, 1);
        int64_t cs = mx_tengine_pipeline(&c, &a, &op, &t, &s, 0);
        n++;
        n_many += t.nm * t.nn * t.nk >= 100;
        tiles += t.nm * t.nn * t.nk;
        int b = cw != cs || memcmp(&w, &s, sizeof w) != 0;
        if (b && bad++ < 5)
            MXT_FAILF("case %d: %lldx%lldx%lld tiles %lldx%lldx%lld: walk %lld, closed %lld (compute %lld/%lld, "
                      "dram_bw %lld/%lld, dram_lat %lld/%lld, acc %lld/%lld)", it, (long long)o.m, (long long)o.n,
                      (long long)o.k, (long long)t.nm, (long long)t.nn, (long long)t.nk, (long long)cw, (long long)cs,
                      (long long)w.cycles_compute, (long long)s.cycles_compute, (long long)w.cycles_dram_bw,
                      (long long)s.cycles_dram_bw, (long long)w.cycles_dram_latency, (long long)s.cycles_dram_latency,
                      (long long)w.n_acc_writes, (long long)s.n_acc_writes);
        mxt_checks++;
    }
    printf("  %d cases (%d with >= 100 tiles, %lld tiles in all), %d differ\n", n, n_many, (long long)tiles, bad);
    MXT_EQ_INT(bad, 0);
    MXT_TRUE(n >= 2000 && n_many >= 500);
}

/* The case: a legal 4096^3 op repeated 2,000,000 times on tiny SRAMs and bandwidth
** printed cycles_total = -4,770,722,788,685,551,616; now MXSIM_E_LIMIT naming op and field. */
MXTEST(overflow_is_e_limit)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.array_rows = c.array_cols = 8;
    c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 1;
    c.dram_bw_bytes_per_cycle = 1.0 / 1024;
    mxsim_top o = mxt_gemm_op("big", 4096, 4096, 4096);
    o.repeat = 2000000;
    mxsim_tstats s;
    mxsim_status st = mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s);
    MXT_EQ_INT(st, MXSIM_E_LIMIT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "op 'big'") != NULL && strstr(mxsim_errmsg(g_ctx), "field '") != NULL);
    printf("  %s\n", mxsim_errmsg(g_ctx));
}

/* Issue 14: the TOTAL is checked too.  A legal two-op trace whose ops each take about 0.6 * 2^63
** cycles (each op's counts fit) passes 2^63 only when summed: mxsim_tstats_add refuses the second
** op with MXSIM_E_LIMIT naming the op and the field and leaves the total as it was (the CLI's
** `run`: tests/timing/timing_cli.sh). */
MXTEST(total_overflow_is_e_limit)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.array_rows = c.array_cols = 8;
    c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 1;
    c.dram_bw_bytes_per_cycle = 1.0 / 1024;
    mxsim_top o = mxt_gemm_op("one", 1024, 1024, 1024);
    mxsim_tstats s1, s2, tot;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s1), MXSIM_OK);
    /* repeats so that one op takes 0.6 * 2^63 cycles: independent of the engine's figure */
    int64_t r = (int64_t)(0.6 * 9223372036854775807.0 / (double)s1.cycles_total);
    char path[] = "/tmp/mxsim_totovf_XXXXXX";
    int fd = mkstemp(path);
    MXT_TRUE(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fprintf(f, "mxsim-trace 1\ngemm name=first m=1024 n=1024 k=1024 repeat=%lld\n"
               "gemm name=second m=1024 n=1024 k=1024 repeat=%lld\n", (long long)r, (long long)r);
    fclose(f);
    mxsim_trace *tr = NULL;
    MXT_EQ_INT(mxsim_trace_load(g_ctx, path, &tr), MXSIM_OK);
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, mxsim_trace_op(tr, 0), path, 0, NULL, &s1), MXSIM_OK);
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, mxsim_trace_op(tr, 1), path, 0, NULL, &s2), MXSIM_OK);
    MXT_TRUE(s1.cycles_total > (int64_t)1 << 62 && s1.cycles_total < INT64_MAX / 3 * 2); /* each fits */
    memset(&tot, 0, sizeof tot);
    MXT_EQ_INT(mxsim_tstats_add(g_ctx, &c, &tot, &s1, "first"), MXSIM_OK);
    mxsim_tstats before = tot;
    MXT_EQ_INT(mxsim_tstats_add(g_ctx, &c, &tot, &s2, "second"), MXSIM_E_LIMIT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "op 'second'") != NULL && strstr(mxsim_errmsg(g_ctx), "field '") != NULL);
    MXT_TRUE(memcmp(&before, &tot, sizeof tot) == 0);
    printf("  %s\n", mxsim_errmsg(g_ctx));
    mxsim_trace_free(tr);
    remove(path);
}

/* The worked example of the closed form (sim/doc/architecture.md section 13), hand-derived: 4x4 OS,
** int8, one lane, DRAM 4 B/cycle and 10 cycles latency, fp32 output, tiles 4x4x8 forced; GEMM
** 4 x 4nn x 16: tiles of P = 8 + 4 + 4 - 2 = 14 cycles, loads of 64 bytes (L = 10 + 16 = 26), a
** 64-byte store per block (S = 26).  Waits: 26 (first load), 12 before each first chunk
** (26 - 14), 38 before each second chunk after the first block (26 + 26 - 14: the previous store
** is ahead of the load), tail 26: cycles = 28 nn + (26 + 12 + 50 (nn - 1)) + 26 = 78 nn + 14, of
** which DRAM latency 10 nn + 10. */
MXTEST(closed_form_worked_example)
{
    const int64_t nns[] = {3, 1000, (int64_t)1 << 20};
    for (int i = 0; i < 3; i++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = c.array_cols = 4, c.dataflow = MXSIM_DF_OS, c.operand_format = MXSIM_FMT_INT8;
        c.pe_lanes = c.load_lanes = 1, c.dram_bw_bytes_per_cycle = 4, c.dram_latency_cycles = 10;
        c.out_format = MXSIM_OUT_FP32, c.tile_m = 4, c.tile_n = 4, c.tile_k = 8;
        c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 64;
        int64_t nn = nns[i];
        mxsim_top o = mxt_gemm_op("w", 4, 4 * nn, 16);
        mx_top_resolved op;
        mx_tarch a;
        mx_ttiling t;
        MXT_EQ_INT(mx_top_resolve(g_ctx, &c, &o, "t", &op), MXSIM_OK);
        mx_tarch_derive(&c, &a);
        MXT_EQ_INT(mx_tengine_choose(g_ctx, &a, &op, "t", NULL, &t, NULL), MXSIM_OK);
        MXT_EQ_INT(t.nm * t.nn * t.nk, 2 * nn);
        for (int walk = 0; walk < 2; walk++) {
            mxsim_tstats st;
            memset(&st, 0, sizeof st);
            MXT_EQ_INT(mx_tengine_pipeline(&c, &a, &op, &t, &st, walk), 78 * nn + 14);
            MXT_EQ_INT(st.cycles_compute + st.cycles_fill_drain, 28 * nn);
            MXT_EQ_INT(st.cycles_dram_latency, 10 * nn + 10);
            MXT_EQ_INT(st.cycles_dram_bw, 78 * nn + 14 - 28 * nn - (10 * nn + 10));
            MXT_EQ_INT(st.n_dram_requests, 3 * nn);
        }
    }
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

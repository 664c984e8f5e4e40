/* test_timing_detail.c - detailed mode (a cycle-by-cycle simulation, sim/src/timing/detail.c)
** against the analytic engine (closed forms, pe_array.c/pipeline.c): every counter equal, field by
** field, on random small problems over all dataflows, exponent-unit sharings, G > 1, L > 1,
** partial beats, multi-tile memory pipelines, forced (arbitrary) tilings and every output format.  Also: detailed mode on
** independently derived values (SCALE-Sim v2's closed forms, references.md#scalesim, and hand-worked MX
** cases), its access trace summed record by record against its own counters, and its refusal of
** large problems.  The two engines share only the configuration and the chosen tiling. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_ctx *g_ctx;

static mxsim_top gemm(int64_t m, int64_t n, int64_t k) { return mxt_gemm_op("g", m, n, k); }

/* Runs one engine; returns the status and leaves *s zeroed on failure. */
static mxsim_status run(const mxsim_tconfig *c, const mxsim_top *o, int detail, const char *acc,
                        mxsim_tstats *s)
{
    mxsim_status st = mxsim_time_op(g_ctx, c, o, "t", detail, acc, s);
    if (st != MXSIM_OK) memset(s, 0, sizeof *s);
    return st;
}

/* Every integer statistic of the field table (MXSIM_TSTATS_FIELDS), by index: a counter added
** there is compared here too. */
#define N_FIELDS ((size_t)mxsim_tstats_field_count())
static int is_counter(size_t i) { return mxsim_tstats_field_at((int)i)->type[0] == 'i'; }
static int64_t field(const mxsim_tstats *s, size_t i) { return mxsim_tstats_int(s, (int)i); }

static void describe(const mxsim_tconfig *c, const mxsim_top *o)
{
    fprintf(stderr, "  case: %lldx%lld %s L=%lld load=%lld G=%lld %s exp=%s II=%lld lat=%lld sram=%lld/%lld/%lld KiB "
            "bw=%g lat=%lld out=%lld | m=%lld n=%lld k=%lld repeat=%lld\n",
            (long long)c->array_rows, (long long)c->array_cols, (const char *[]){"os", "ws", "is"}[c->dataflow],
            (long long)c->pe_lanes, (long long)c->load_lanes, (long long)c->group_size,
            c->operand_format ? "int8" : "mxint8", (const char *[]){"pe", "row", "col"}[c->exp_share],
            (long long)c->exp_ii_cycles, (long long)c->exp_latency_cycles, (long long)c->sram_a_kib,
            (long long)c->sram_b_kib, (long long)c->sram_c_kib, c->dram_bw_bytes_per_cycle,
            (long long)c->dram_latency_cycles, (long long)c->out_format, (long long)o->m, (long long)o->n,
            (long long)o->k, (long long)o->repeat);
}

/* Both engines on one case; every field equal.  Returns 1 if both ran. */
static int compare(const mxsim_tconfig *c, const mxsim_top *o, mxsim_tstats *an)
{
    mxsim_tstats de;
    if (run(c, o, 0, NULL, an) != MXSIM_OK) return 0; /* e.g. no tiling fits: not a timing case */
    mxsim_status st = run(c, o, 1, NULL, &de);
    MXT_EQ_INT(st, MXSIM_OK);
    if (st != MXSIM_OK) {
        describe(c, o);
        fprintf(stderr, "  detail: %s\n", mxsim_errmsg(g_ctx));
        return 0;
    }
    int bad = 0;
    for (size_t i = 0; i < N_FIELDS; i++) {
        if (!is_counter(i)) continue;
        mxt_checks++;
        if (field(an, i) != field(&de, i)) {
            if (!bad++) describe(c, o);
            MXT_FAILF("field %s: analytic %lld, detailed %lld", mxsim_tstats_field_at((int)i)->member, (long long)field(an, i),
                      (long long)field(&de, i));
        }
    }
    const double da[] = {an->util_mapping, an->util_compute, an->time_us, an->tops};
    const double dd[] = {de.util_mapping, de.util_compute, de.time_us, de.tops};
    for (int i = 0; i < 4; i++) {
        mxt_checks++;
        if (da[i] != dd[i]) {
            if (!bad++) describe(c, o);
            MXT_FAILF("%s: analytic %.17g, detailed %.17g",
                      (const char *[]){"util_mapping", "util_compute", "time_us", "tops"}[i], da[i], dd[i]);
        }
    }
    return 1;
}

static int64_t pick(mxt_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(mxt_next(r) % (uint64_t)(hi - lo + 1)); }

/* >= 200 random small cases.  Coverage is counted and required, so that a generator change
** cannot quietly stop exercising a feature. */
MXTEST(detail_equals_analytic_random)
{
    mxt_rng r = {20240603};
    static const int64_t groups[] = {1, 2, 3, 4, 5, 8, 12, 16, 32};
    int n_run = 0, by_df_share[3][3] = {{0}}, n_g_l = 0, n_partial_beat = 0, n_exp_stall = 0, n_mem_stall = 0;
    int n_lane = 0, n_lane_ws = 0, n_lat = 0, n_bw = 0, n_bad_sum = 0;
    int n_tiles = 0, n_kchunks = 0, n_int8 = 0, n_mxout = 0, n_partial_fold = 0, n_forced = 0, n_padded = 0, n_narrow = 0;
    for (int it = 0; it < 420; it++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 1, 8);
        c.array_cols = pick(&r, 1, 8);
        c.dataflow = pick(&r, 0, 2);
        c.pe_lanes = pick(&r, 1, 8);
        c.load_lanes = pick(&r, 1, 8);
        c.exp_share = pick(&r, 0, 2);
        c.exp_ii_cycles = pick(&r, 1, 6);
        c.exp_latency_cycles = pick(&r, 0, 6);
        c.operand_format = pick(&r, 0, 5) == 0 ? MXSIM_FMT_INT8 : MXSIM_FMT_MXINT8;
        c.out_format = pick(&r, 0, 2);
        c.group_size = groups[pick(&r, 0, 8)];
        /* small SRAMs make several tiles and reduction chunks; large ones a single tile */
        int64_t kib = pick(&r, 0, 3) == 0 ? 64 : pick(&r, 1, 3);
        c.sram_a_kib = kib, c.sram_b_kib = pick(&r, 1, 3), c.sram_c_kib = pick(&r, 1, 4);
        c.dram_bw_bytes_per_cycle = round((double)pick(&r, 1, 64) / (double)pick(&r, 1, 4) * 1024) / 1024; /* 1/1024 steps */
        c.dram_latency_cycles = pick(&r, 0, 60);
        c.scalesim_compat = pick(&r, 0, 9) == 0;
        /* SCALE-Sim's model takes whole bytes per cycle (a fraction is refused) */
        if (c.scalesim_compat) c.dram_bw_bytes_per_cycle = ceil(c.dram_bw_bytes_per_cycle);
        mxsim_top o = gemm(pick(&r, 1, 40), pick(&r, 1, 40), c.group_size * pick(&r, 1, 96 / c.group_size + 1));
        int padded = pick(&r, 0, 3) == 0 && c.group_size > 1; /* K not a multiple of G */
        if (padded) o.k -= pick(&r, 1, c.group_size - 1);
        if (pick(&r, 0, 9) == 0) o.repeat = pick(&r, 2, 4);
        int forced = pick(&r, 0, 3) == 0;
        if (forced) { /* any tiling, not only the search's powers of two (int8: any k chunk) */
            c.tile_m = pick(&r, 1, o.m);
            c.tile_n = pick(&r, 1, o.n);
            c.tile_k = c.operand_format == MXSIM_FMT_INT8 ? pick(&r, 1, o.k)
                                                          : c.group_size * pick(&r, 1, (o.k + c.group_size - 1) / c.group_size);
            c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 64;
        }
        mxsim_tstats s;
        if (!compare(&c, &o, &s)) continue;
        n_run++;
        n_forced += forced;
        int mx = c.operand_format == MXSIM_FMT_MXINT8;
        int64_t w = c.pe_lanes < c.load_lanes ? c.pe_lanes : c.load_lanes;
        n_padded += mx && padded;
        /* useful MACs are the trace's m*n*k; issued ones cover K rounded up to whole groups */
        int64_t kp = mx ? (o.k + c.group_size - 1) / c.group_size * c.group_size : o.k;
        MXT_EQ_INT(s.n_macs, o.m * o.n * o.k * o.repeat);
        MXT_EQ_INT(s.n_macs_issued, o.m * o.n * kp * o.repeat);
        /* more accumulator writes than ceil(G / w) beats per group: a tile ran at a narrower beat */
        n_narrow += mx && s.n_acc_writes > o.m * o.n * (kp / c.group_size) * ((c.group_size + w - 1) / w) * o.repeat;
        by_df_share[c.dataflow][c.exp_share] += mx;
        n_g_l += mx && c.group_size > 1 && c.pe_lanes > 1;
        n_partial_beat += mx && c.group_size % w != 0;
        n_exp_stall += s.cycles_exp_stall > 0;
        n_mem_stall += s.cycles_mem_stall > 0;
        /* bound attribution: the six classes partition the cycles (both engines, compared above) */
        n_lane += s.cycles_lane_limit > 0;
        n_lane_ws += s.cycles_lane_limit > 0 && c.dataflow != MXSIM_DF_OS;
        n_lat += s.cycles_dram_latency > 0;
        n_bw += s.cycles_dram_bw > 0;
        n_bad_sum += s.cycles_total != s.cycles_compute + s.cycles_fill_drain + s.cycles_exp_stall + s.cycles_lane_limit +
                                         s.cycles_dram_bw + s.cycles_dram_latency ||
                     s.cycles_mem_stall != s.cycles_dram_bw + s.cycles_dram_latency;
        n_tiles += s.n_tiles > 1;
        n_kchunks += s.tile_k < o.k;
        n_int8 += !mx;
        n_mxout += c.out_format == MXSIM_OUT_MXINT8;
        n_partial_fold += s.util_mapping < 1.0;
    }
    printf("  %d cases compared; exp stall in %d, memory stall in %d, several tiles in %d, k split in %d, "
           "partial folds in %d, G>1 and L>1 in %d, partial beats in %d, int8 %d, mxint8 out %d, forced tiling %d, "
           "padded K %d, narrower beat %d\n",
           n_run, n_exp_stall, n_mem_stall, n_tiles, n_kchunks, n_partial_fold, n_g_l, n_partial_beat, n_int8, n_mxout,
           n_forced, n_padded, n_narrow);
    printf("  bound classes: lane limit in %d (WS/IS %d), DRAM latency in %d, DRAM bandwidth in %d\n", n_lane,
           n_lane_ws, n_lat, n_bw);
    MXT_EQ_INT(n_bad_sum, 0);
    MXT_TRUE(n_lane >= 40 && n_lane_ws >= 20 && n_lat >= 40 && n_bw >= 40);
    MXT_TRUE(n_run >= 200);
    for (int df = 0; df < 3; df++)
        for (int sh = 0; sh < 3; sh++) MXT_TRUE(by_df_share[df][sh] >= 12);
    MXT_TRUE(n_exp_stall >= 60 && n_mem_stall >= 60 && n_tiles >= 60 && n_kchunks >= 30);
    MXT_TRUE(n_partial_fold >= 60 && n_g_l >= 60 && n_partial_beat >= 30 && n_int8 >= 20 && n_mxout >= 40);
    MXT_TRUE(n_forced >= 60 && n_padded >= 40);
}

/* WS/IS tiles that the controller runs at a narrower beat than the lanes allow (pe_array.c: the
** fold cut then ends groups on better rows): found by their extra accumulator writes. */
MXTEST(detail_equals_analytic_narrow_beats)
{
    mxt_rng r = {914};
    int n_narrow = 0, n_run = 0;
    for (int it = 0; it < 12000 && n_narrow < 40; it++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 2, 12);
        c.array_cols = pick(&r, 1, 8);
        c.dataflow = pick(&r, 1, 2);
        c.pe_lanes = c.load_lanes = pick(&r, 2, 12);
        c.exp_share = pick(&r, 0, 2);
        c.exp_ii_cycles = pick(&r, 1, 3);
        c.exp_latency_cycles = pick(&r, 4, 30);
        c.group_size = (int64_t[]){5, 6, 7, 12, 24, 40}[pick(&r, 0, 5)];
        c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 64;
        mxsim_top o = gemm(pick(&r, 1, 12), pick(&r, 1, 12), pick(&r, 1, 160));
        mxsim_tstats s;
        if (!compare(&c, &o, &s)) continue;
        n_run++;
        int64_t w = c.pe_lanes, kp = (o.k + c.group_size - 1) / c.group_size * c.group_size;
        n_narrow += s.n_acc_writes > o.m * o.n * (kp / c.group_size) * ((c.group_size + w - 1) / w);
    }
    printf("  %d cases compared, %d with a narrower beat\n", n_run, n_narrow);
    MXT_TRUE(n_narrow >= 20);
}

/* Larger arrays and deep exponent pipelines, fewer cases (each costs more PE-cycles). */
MXTEST(detail_equals_analytic_wide_arrays)
{
    mxt_rng r = {77};
    int n_run = 0;
    for (int it = 0; it < 40; it++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 4, 24);
        c.array_cols = pick(&r, 4, 24);
        c.dataflow = it % 3;
        c.pe_lanes = pick(&r, 1, 16);
        c.load_lanes = pick(&r, 1, 16);
        c.exp_share = (it / 3) % 3;
        c.exp_ii_cycles = pick(&r, 1, 12);
        c.exp_latency_cycles = pick(&r, 0, 24);
        c.group_size = (int64_t[]){7, 16, 24, 64}[pick(&r, 0, 3)];
        c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = pick(&r, 2, 16);
        c.dram_bw_bytes_per_cycle = (double)pick(&r, 4, 128);
        c.dram_latency_cycles = pick(&r, 0, 200);
        c.out_format = pick(&r, 0, 2);
        mxsim_top o = gemm(pick(&r, 1, 64), pick(&r, 1, 64), c.group_size * pick(&r, 1, 6));
        mxsim_tstats s;
        n_run += compare(&c, &o, &s);
    }
    MXT_TRUE(n_run >= 35);
}

/* SCALE-Sim v2's closed forms (references.md#scalesim), in detailed mode: int8 operands, L = 1, ample memory.
** OS ceil(M/R)ceil(N/C)(K+R+C-2), WS ceil(K/R)ceil(N/C)(2R+C+M-2), IS ceil(K/R)ceil(M/C)(2R+C+N-2). */
MXTEST(detail_matches_scalesim_closed_forms)
{
    static const int dims[] = {1, 5, 9, 20};
    static const int arr[][2] = {{1, 1}, {3, 5}, {8, 4}};
    for (int df = 0; df < 3; df++)
        for (int a = 0; a < 3; a++)
            for (int mi = 0; mi < 4; mi++)
                for (int ni = 0; ni < 4; ni++)
                    for (int ki = 0; ki < 4; ki++) {
                        int64_t R = arr[a][0], C = arr[a][1], M = dims[mi], N = dims[ni], K = dims[ki] * 2;
                        mxsim_tconfig c;
                        mxsim_tconfig_default(&c);
                        c.array_rows = R, c.array_cols = C, c.dataflow = df;
                        c.operand_format = MXSIM_FMT_INT8;
                        c.pe_lanes = c.load_lanes = 1;
                        c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 1024;
                        c.dram_bw_bytes_per_cycle = 65536;
                        c.dram_latency_cycles = 0;
                        c.scalesim_compat = 1;
                        mxsim_top o = gemm(M, N, K);
                        int64_t want = df == 0   ? ((M + R - 1) / R) * ((N + C - 1) / C) * (K + R + C - 2)
                                       : df == 1 ? ((K + R - 1) / R) * ((N + C - 1) / C) * (2 * R + C + M - 2)
                                                 : ((K + R - 1) / R) * ((M + C - 1) / C) * (2 * R + C + N - 2);
                        mxsim_tstats s;
                        MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
                        MXT_EQ_INT(s.cycles_array, want - 1);
                        MXT_EQ_INT(s.cycles_compute, df == 0 ? ((M + R - 1) / R) * ((N + C - 1) / C) * K
                                                             : (df == 1 ? (K + R - 1) / R * ((N + C - 1) / C) * M
                                                                        : (K + R - 1) / R * ((M + C - 1) / C) * N));
                    }
}

static mxsim_tconfig hand_cfg(int R, int C, int df)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.array_rows = R, c.array_cols = C, c.dataflow = df;
    c.pe_lanes = c.load_lanes = 1;
    c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 1024;
    c.dram_bw_bytes_per_cycle = 65536;
    c.dram_latency_cycles = 0;
    return c;
}

/* Hand-worked MX cases, in detailed mode. */
MXTEST(detail_hand_cases)
{
    mxsim_tstats s;
    /* OS 2x2, K = 8, G = 4, L = 1: groups of 4 beats; a unit per PE with II = 6 > 4, latency 3.
    ** Group 1 starts 6 cycles after group 0; PE (1,1) ends it in cycle 6+3+2 = 11; its exponent op
    ** issues then and finishes 3 cycles later: 15 cycles, of which 8 release beats and 2 drain. */
    mxsim_tconfig c = hand_cfg(2, 2, MXSIM_DF_OS);
    c.group_size = 4, c.exp_ii_cycles = 6, c.exp_latency_cycles = 3;
    mxsim_top o = gemm(2, 2, 8);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_array, 15);
    MXT_EQ_INT(s.cycles_compute, 8);
    MXT_EQ_INT(s.cycles_fill_drain, 2);
    MXT_EQ_INT(s.cycles_exp_stall, 5);
    MXT_EQ_INT(s.n_exp_ops, 8);
    /* Partial fold: OS 4x4 array, m = 4, n = 2: only columns 0-1 are mapped.  A unit per row,
    ** II = 3, G = 4 (4 beats), K = 8, latency 2.  Each row's unit gets 2 ops per group, one cycle
    ** apart: it issues them at t and t+3, free at t+6, so groups start 6 cycles apart (not 4*3 =
    ** 12, which would hold if the 2 unmapped columns issued too).  Row 3 ends group 1 in cycle
    ** 6+3+3 = 12 (column 0) and 13 (column 1, issued at 15), done at 15+2: 18 cycles.  The array
    ** drain alone ends at 6+4+3+3 = 16. */
    c = hand_cfg(4, 4, MXSIM_DF_OS);
    c.group_size = 4, c.exp_share = MXSIM_EXP_PER_ROW, c.exp_ii_cycles = 3, c.exp_latency_cycles = 2;
    o = gemm(4, 2, 8);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_array, 18);
    MXT_EQ_INT(s.cycles_compute, 8);
    MXT_EQ_INT(s.cycles_fill_drain, 6);
    MXT_EQ_INT(run(&c, &o, 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_array, 18);
    /* WS 2x2, per-column units, G = 2, L = 1: beats 0,1 on rows 0,1; the group ends on row 1.
    ** One op per column per streamed row, so the interval is II = 4: rows enter at 2, 6, 10
    ** (m = 3) after a 2-cycle preload; the last reaches PE (1,1) in cycle 10+1+1 = 12 and its op
    ** finishes at 12 + latency 1: 14 cycles (the bare array would take 2R+C+M-2 = 7). */
    c = hand_cfg(2, 2, MXSIM_DF_WS);
    c.group_size = 2, c.exp_share = MXSIM_EXP_PER_COL, c.exp_ii_cycles = 4, c.exp_latency_cycles = 1;
    o = gemm(3, 2, 2);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_array, 14);
    MXT_EQ_INT(s.cycles_compute, 3);
    MXT_EQ_INT(s.cycles_fill_drain, 2 * 2 + 2 - 2);
    /* Memory: one tile, 1 byte/cycle, latency 10, int8, fp32 out, OS 1x1, m = n = 1, k = 4:
    ** load 4 + 4 bytes: 10 + 8 = 18 cycles; compute 4 beats; store 4 bytes: 10 + 4.  Total 36. */
    c = hand_cfg(1, 1, MXSIM_DF_OS);
    c.operand_format = MXSIM_FMT_INT8, c.dram_bw_bytes_per_cycle = 1, c.dram_latency_cycles = 10;
    o = gemm(1, 1, 4);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 36);
    MXT_EQ_INT(s.cycles_mem_stall, 32);
    MXT_EQ_INT(s.n_dram_requests, 2);
}

/* The access trace, read back: header, cycle order, and per-operand byte sums equal to the
** counters of the same run (reads by the array and the store path, writes by DMA and psums). */
MXTEST(detail_access_trace_sums_to_counters)
{
    const char *tmp = getenv("MXSIM_TEST_TMP");
    char path[512];
    if (tmp == NULL) tmp = ".";
    mkdir(tmp, 0755);
    snprintf(path, sizeof path, "%s/acc.trace.gz", tmp);
    for (int df = 0; df < 3; df++)
        for (int out = 0; out < 3; out++) {
            mxsim_tconfig c;
            mxsim_tconfig_default(&c);
            c.array_rows = 4, c.array_cols = 3, c.dataflow = df, c.out_format = out;
            c.pe_lanes = 4, c.load_lanes = 2, c.group_size = 8, c.exp_share = MXSIM_EXP_PER_ROW;
            c.exp_latency_cycles = 3, c.exp_ii_cycles = 2;
            c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 1;
            c.dram_bw_bytes_per_cycle = 6.5, c.dram_latency_cycles = 7;
            mxsim_top o = gemm(13, 10, 48);
            mxsim_tstats s;
            unlink(path);
            MXT_EQ_INT(run(&c, &o, 1, path, &s), MXSIM_OK);
            MXT_TRUE(s.n_tiles > 1);
            gzFile gz = gzopen(path, "rb");
            MXT_TRUE(gz != NULL);
            if (gz == NULL) return;
            char line[256], opnd[8], rw;
            long long cyc, addr, bytes, last = -1, n_rec = 0, bad_order = 0, bad_addr = 0;
            long long sum[5][2] = {{0}}; /* A As B Bs C x r w */
            static const char *names[5] = {"A", "As", "B", "Bs", "C"};
            int64_t cap[5] = {c.sram_a_kib, c.sram_a_kib, c.sram_b_kib, c.sram_b_kib, c.sram_c_kib};
            MXT_TRUE(gzgets(gz, line, sizeof line) && strcmp(line, "mxsim-access 1\n") == 0);
            while (gzgets(gz, line, sizeof line)) {
                if (line[0] == '#') continue;
                MXT_TRUE(sscanf(line, "%lld %7s %c %lld %lld", &cyc, opnd, &rw, &addr, &bytes) == 5);
                int k = 0;
                while (k < 5 && strcmp(opnd, names[k])) k++;
                MXT_TRUE(k < 5 && (rw == 'r' || rw == 'w') && bytes > 0);
                if (k == 5) continue;
                sum[k][rw == 'w'] += bytes;
                bad_order += cyc < last || cyc >= s.cycles_total;
                bad_addr += addr < 0 || addr + bytes > cap[k] * 1024;
                last = cyc;
                n_rec++;
            }
            int err = 0;
            gzerror(gz, &err);
            MXT_TRUE(err == Z_OK || err == Z_STREAM_END);
            gzclose(gz);
            MXT_TRUE(n_rec > 0);
            MXT_EQ_INT(bad_order, 0);
            MXT_EQ_INT(bad_addr, 0);
            MXT_EQ_INT(sum[0][0], s.sram_a_rd_mant_bytes);
            MXT_EQ_INT(sum[1][0], s.sram_a_rd_scale_bytes);
            MXT_EQ_INT(sum[2][0], s.sram_b_rd_mant_bytes);
            MXT_EQ_INT(sum[3][0], s.sram_b_rd_scale_bytes);
            MXT_EQ_INT(sum[4][0], s.sram_c_rd_bytes);
            MXT_EQ_INT(sum[4][1], s.sram_c_wr_bytes);
            MXT_EQ_INT(sum[0][1], s.dram_a_mant_bytes);
            MXT_EQ_INT(sum[1][1], s.dram_a_scale_bytes);
            MXT_EQ_INT(sum[2][1], s.dram_b_mant_bytes);
            MXT_EQ_INT(sum[3][1], s.dram_b_scale_bytes);
            /* scale bytes: one per G mantissas, wherever they are read or loaded */
            MXT_EQ_INT(sum[0][0], 8 * sum[1][0]);
            MXT_EQ_INT(sum[2][1], 8 * sum[3][1]);
        }
    unlink(path);
}

/* Large problems are refused up front with MXSIM_E_LIMIT, and no trace file is left. */
MXTEST(detail_refuses_large_problems)
{
    const char *tmp = getenv("MXSIM_TEST_TMP");
    char path[512];
    if (tmp == NULL) tmp = ".";
    mkdir(tmp, 0755);
    snprintf(path, sizeof path, "%s/big.trace.gz", tmp);
    unlink(path);
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    mxsim_top o = gemm(512, 512, 512);
    mxsim_tstats s;
    MXT_EQ_INT(run(&c, &o, 1, path, &s), MXSIM_E_LIMIT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "2^26 PE-cycles") != NULL);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "op 'g'") != NULL);
    MXT_TRUE(access(path, F_OK) != 0);
    /* the analytic engine still times it */
    MXT_EQ_INT(run(&c, &o, 0, NULL, &s), MXSIM_OK);
    /* memory-bound beyond the 2^26-cycle limit: 80 KiB (A, B, fp32 C) at 1/1024 byte per cycle */
    c.dram_bw_bytes_per_cycle = 1.0 / 1024;
    o = gemm(128, 128, 64);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_E_LIMIT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "2^26 cycles") != NULL);
    /* well below it runs: 3 KiB at 1/1024 byte per cycle is 3M cycles */
    o = gemm(16, 16, 64);
    MXT_EQ_INT(run(&c, &o, 1, NULL, &s), MXSIM_OK);
    MXT_TRUE(s.cycles_total > (16 * 64 * 2 + 16 * 16 * 4) * 1024);
}

/* The worked example of bound attribution (sim/doc/architecture.md section 10.1), in both engines:
** OS 2x2, L = 4 but load_lanes = 2, G = 8, a unit per PE (II 1, latency 3), DRAM 4 B/cycle with
** 10 cycles of latency, fp32 output, m = n = 2, k = 8.  One tile: the load of A and B (16 + 16
** mantissa bytes, 2 + 2 scale bytes) takes 10 + 36/4 = 19 cycles.  The fold: 4 beats per group
** (2 at L lanes): 2 compute, 2 lane limit, fill/drain R+C-2 = 2; PE (1,1) ends the group at
** beat 4 + skew 2 = cycle 6, its exponent op finishes 3 later: 9 cycles, 3 of them exponent
** stall.  The store of 2*2*4 = 16 bytes: 10 + 4 = 14.  Total 19 + 9 + 14 = 42; the waits
** [0,19) and [28,42) hold 10 + 10 latency cycles and 9 + 4 transfer cycles: bound dram_latency. */
MXTEST(bound_attribution_worked_example)
{
    mxsim_tconfig c = hand_cfg(2, 2, MXSIM_DF_OS);
    c.pe_lanes = 4, c.load_lanes = 2, c.group_size = 8;
    c.exp_share = MXSIM_EXP_PER_PE, c.exp_ii_cycles = 1, c.exp_latency_cycles = 3;
    c.dram_bw_bytes_per_cycle = 4, c.dram_latency_cycles = 10;
    c.out_format = MXSIM_OUT_FP32;
    mxsim_top o = gemm(2, 2, 8);
    for (int detail = 0; detail < 2; detail++) {
        mxsim_tstats s;
        MXT_EQ_INT(run(&c, &o, detail, NULL, &s), MXSIM_OK);
        MXT_EQ_INT(s.cycles_total, 42);
        MXT_EQ_INT(s.cycles_compute, 2);
        MXT_EQ_INT(s.cycles_lane_limit, 2);
        MXT_EQ_INT(s.cycles_fill_drain, 2);
        MXT_EQ_INT(s.cycles_exp_stall, 3);
        MXT_EQ_INT(s.cycles_dram_bw, 13);
        MXT_EQ_INT(s.cycles_dram_latency, 20);
        MXT_EQ_INT(s.cycles_mem_stall, 33);
        MXT_EQ_INT(s.bound, MXSIM_BOUND_DRAM_LATENCY);
        MXT_TRUE(strcmp(mxsim_bound_name(s.bound), "dram_latency") == 0);
    }
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

/* test_timing_exact.c - the timing library refuses what it cannot represent instead of wrapping,
** rounding or cutting it (audit of the CLI):
**   - n_lane_slots = R*C*L*cycles_array is checked (it printed -2^63 with exit 0), per op and in
**     the TOTAL; a dequant op's whole-tensor DRAM request no longer overflows bytes * 1024;
**   - the DRAM bandwidth is a multiple of 1/1024 byte/cycle (was rounded), whole bytes in
**     SCALE-Sim compat mode with USER bandwidth (was floored), and a .cfg Bandwidth above 65536
**     is refused (was clamped);
**   - an INI comment starts at '#' or ';' only at the start of a line or after a blank ("rows =
**     16;32" read 16).
** Every expectation is derived by hand in the comment beside it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_ctx *g_ctx;

static const char *path(const char *name) { return mxt_tmp_path("/tmp/mxsim_test_timing_exact", name); }

static const char *write_file(const char *name, const char *text)
{
    const char *p = path(name);
    FILE *f = fopen(p, "w");
    if (f == NULL) abort();
    fputs(text, f);
    fclose(f);
    return p;
}

static int msg_has(const char *frag)
{
    const char *m = mxsim_errmsg(g_ctx);
    int ok = m != NULL && strstr(m, frag) != NULL;
    if (!ok) fprintf(stderr, "  message '%s' lacks '%s'\n", m ? m : "(null)", frag);
    return ok;
}

static int all_zero(const mxsim_tstats *s)
{
    static const mxsim_tstats z;
    return memcmp(s, &z, sizeof z) == 0;
}

/* ---- 1. checked products ---------------------------------------------------------------- */

/* 16x16 PEs of 1024 lanes fed one element per beat (load_lanes 1): a PE does at most one MAC per
** cycle, so a 2^19-cube GEMM (2^57 MACs) keeps the array at least 2^57 / 2^8 = 2^49 cycles, and
** n_lane_slots >= 2^8 * 2^10 * 2^49 = 2^67 > 2^63.  It was printed wrapped (-2^63 in the audit's
** run, exit 0); now MXSIM_E_LIMIT naming the op and the field, and nothing is returned. */
MXTEST(lane_slots_overflow_is_e_limit)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.array_rows = c.array_cols = 16, c.pe_lanes = 1024, c.load_lanes = 1;
    mxsim_top o = mxt_gemm_op("big", 1 << 19, 1 << 19, 1 << 19);
    o.line = 7;
    mxsim_tstats s;
    memset(&s, 0xff, sizeof s);
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "big.trace", 0, NULL, &s), MXSIM_E_LIMIT);
    MXT_TRUE(msg_has("big.trace:7: op 'big': field 'n_lane_slots'") && msg_has("passes 2^63"));
    MXT_TRUE(all_zero(&s));
    /* one lane: R*C*L = 256 slots; the count is exactly 256 x cycles_array (the definition) */
    c.pe_lanes = 1;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "big.trace", 0, NULL, &s), MXSIM_OK);
    MXT_TRUE(s.cycles_array >= (int64_t)1 << 49);
    MXT_TRUE((__int128)s.n_lane_slots == (__int128)256 * s.cycles_array);
}

/* The TOTAL recomputes n_lane_slots from the summed array cycles: with the default 32x32x1 array
** (1024 = 2^10 slots), 2^52 cycles are 2^62 slots, and 2^52 + 2^52 cycles would be 2^63 slots:
** refused naming the op being added, the total left as it was; 2^52 + (2^52 - 1) fits, giving
** 1024 * (2^53 - 1). */
MXTEST(total_lane_slots_overflow_is_e_limit)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    mxsim_tstats acc, s;
    memset(&acc, 0, sizeof acc);
    memset(&s, 0, sizeof s);
    s.cycles_compute = s.cycles_total = (int64_t)1 << 52;
    MXT_EQ_INT(mxsim_tstats_add(g_ctx, &c, &acc, &s, "first"), MXSIM_OK);
    MXT_EQ_INT(acc.n_lane_slots, (int64_t)1 << 62);
    mxsim_tstats before = acc;
    MXT_EQ_INT(mxsim_tstats_add(g_ctx, &c, &acc, &s, "second"), MXSIM_E_LIMIT);
    MXT_TRUE(msg_has("TOTAL: field 'n_lane_slots': adding op 'second' passes 2^63"));
    MXT_TRUE(memcmp(&before, &acc, sizeof acc) == 0);
    s.cycles_compute = s.cycles_total = ((int64_t)1 << 52) - 1;
    MXT_EQ_INT(mxsim_tstats_add(g_ctx, &c, &acc, &s, "third"), MXSIM_OK);
    MXT_EQ_INT(acc.cycles_array, ((int64_t)1 << 53) - 1);
    MXT_EQ_INT(acc.n_lane_slots, 1024 * (((int64_t)1 << 53) - 1));
}

/* A dequant op moves its whole tensor in one request each way.  m = 2^31, n = 2^26, G = 32:
** in = 2^57 mantissas + 2^52 scales, out = 2^57 bf16 = 2^58 bytes; at 8 bytes/cycle and latency
** 100 the requests take 100 + 2^54 + 2^49 and 100 + 2^55 cycles; the unit (16 lanes) needs 2^53 + 4.
** Memory wins: cycles_total = 200 + 2^55 + 2^54 + 2^49.  (bytes * 1024 passed 2^63 and the stall
** came out 0.)  At 1/1024 byte/cycle the request itself passes 2^63 cycles: MXSIM_E_LIMIT. */
MXTEST(dequant_whole_tensor_request)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.array_rows = c.array_cols = 16; /* 256 slots x (2^53 + 4) array cycles: n_lane_slots fits */
    c.group_size = 32, c.dequant_lanes = 16, c.dequant_depth_cycles = 4;
    c.dram_bw_bytes_per_cycle = 8, c.dram_latency_cycles = 100;
    mxsim_top o = mxt_gemm_op("dq", (int64_t)1 << 31, (int64_t)1 << 26, 1);
    o.kind = MXSIM_OP_DEQUANT;
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    const int64_t want = 200 + ((int64_t)1 << 55) + ((int64_t)1 << 54) + ((int64_t)1 << 49);
    MXT_EQ_INT(s.cycles_total, want);
    MXT_EQ_INT(s.cycles_compute, (int64_t)1 << 53);
    MXT_EQ_INT(s.cycles_mem_stall, want - ((int64_t)1 << 53) - 4);
    c.dram_bw_bytes_per_cycle = 1.0 / 1024;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_E_LIMIT);
    MXT_TRUE(msg_has("op 'dq': field 'cycles_total'"));
    MXT_TRUE(all_zero(&s));
}

/* A compute-bound dequant / quantize exposes the load's latency before its first element and the
** store's after its last (as a GEMM exposes its first load and last store); it used to take
** max(compute + depth, transfers with both latencies), hiding them (audit of the sweep, fifteenth
** session).  64 x 64 elements, G = 32, one lane, depth 4, 32 bytes/cycle, latency 1000:
**   dequant: in 4096 mantissa + 128 scale bytes = 132 cycles, out 2 x 4096 bf16 bytes = 256;
**            total = 2 x 1000 + max(4096 + 4, 132 + 256) = 6100, stall 2000 (all latency);
**   quantize (depth 2): in 8192 bytes = 256 cycles, out 4224 = 132: 2000 + max(4098, 388) = 6098;
**   latency 0: 4100 and 4098 (unchanged);
**   bandwidth 1 byte/cycle (transfer-bound): dequant 2000 + 4224 + 8192 = 14416, of which
**   14416 - 4100 - 2000 = 8316 bandwidth stall and 2000 latency. */
MXTEST(elementwise_ops_expose_dram_latency)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.group_size = 32, c.dequant_lanes = 1, c.dequant_depth_cycles = 4, c.requant_lanes = 1, c.requant_depth_cycles = 2;
    c.dram_bw_bytes_per_cycle = 32, c.dram_latency_cycles = 1000;
    mxsim_top o = mxt_gemm_op("dq", 64, 64, 1);
    o.kind = MXSIM_OP_DEQUANT;
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 6100);
    MXT_EQ_INT(s.cycles_mem_stall, 2000);
    MXT_EQ_INT(s.cycles_dram_latency, 2000);
    MXT_EQ_INT(s.cycles_dram_bw, 0);
    o.kind = MXSIM_OP_QUANTIZE;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 6098);
    c.dram_latency_cycles = 0;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 4098);
    o.kind = MXSIM_OP_DEQUANT;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 4100);
    c.dram_latency_cycles = 1000, c.dram_bw_bytes_per_cycle = 1;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_total, 14416);
    MXT_EQ_INT(s.cycles_dram_bw, 8316);
    MXT_EQ_INT(s.cycles_dram_latency, 2000);
}

/* A group that n does not fill is stored whole (zero-padded mantissas, one scale), so the MXINT8
** side of a dequant / quantize is whole groups while the bf16 side is the useful elements
** (mutation audit T10: no test pinned this).  m = 3, n = 40, G = 32: ceil(40 / 32) = 2 groups a
** row, so 3 x 64 = 192 mantissa bytes and 3 x 2 = 6 scale bytes; 3 x 40 = 120 bf16 = 240 bytes.
**   dequant: reads 192 + 6, writes 240; 192 elements pass the unit (16 lanes: 12 cycles);
**   quantize: reads 240, writes 192 + 6 = 198; 192 elements re-quantized, 192 max-abs compares.
** Latency 0, 1 byte/cycle: dequant 198 + 240 = 438 cycles of transfer > 12 + 4 (depth), so
** cycles_total = 438; quantize 240 + 198 = 438 too.  n = 64 (whole groups) gives 192 + 6 in and
** 384 out (582 cycles): padding is what separates the two cases.  G = 7, n = 40: 6 groups of 7 =
** 42 mantissas a row (126 bytes, 18 scales; 126 + 18 + 240 = 384 cycles). */
/* op kind on m x n at group g (0: the config's): its bytes {mantissa in, scale in, out}, elements
** through its unit and total cycles, each as expected */
static void expect_elementwise(const mxsim_tconfig *c, mxsim_op_kind kind, int64_t m, int64_t n, int64_t g,
                               const int64_t want[5])
{
    mxsim_top o = mxt_gemm_op("ew", m, n, 1);
    o.kind = kind, o.group_size = g;
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, c, &o, "t", 0, NULL, &s), MXSIM_OK);
    const int64_t units = kind == MXSIM_OP_DEQUANT ? s.n_dequant_elems : s.n_requant_elems;
    const int64_t got[5] = {s.dram_a_mant_bytes, s.dram_a_scale_bytes, s.dram_out_bytes, units, s.cycles_total};
    for (int i = 0; i < 5; i++) MXT_EQ_INT(got[i], want[i]);
    if (kind == MXSIM_OP_QUANTIZE) MXT_EQ_INT(s.n_maxabs_compares, want[3]);
}

MXTEST(elementwise_ops_pad_partial_groups)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.group_size = 32, c.dequant_lanes = 16, c.dequant_depth_cycles = 4, c.requant_lanes = 16, c.requant_depth_cycles = 4;
    c.dram_bw_bytes_per_cycle = 1, c.dram_latency_cycles = 0;
    expect_elementwise(&c, MXSIM_OP_DEQUANT, 3, 40, 0, (const int64_t[5]){192, 6, 240, 192, 438});
    expect_elementwise(&c, MXSIM_OP_QUANTIZE, 3, 40, 0, (const int64_t[5]){240, 0, 198, 192, 438});
    expect_elementwise(&c, MXSIM_OP_DEQUANT, 3, 64, 0, (const int64_t[5]){192, 6, 384, 192, 582});
    expect_elementwise(&c, MXSIM_OP_DEQUANT, 3, 40, 7, (const int64_t[5]){126, 18, 240, 126, 384});
    /* the unit's own time when it is the slower side: 12 cycles + depth 4 at 64 bytes/cycle is
    ** above ceil(198 / 64) + ceil(240 / 64) = 4 + 4 = 8 */
    c.dram_bw_bytes_per_cycle = 64;
    mxsim_top o = mxt_gemm_op("ew", 3, 40, 1);
    o.kind = MXSIM_OP_DEQUANT;
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_OK);
    MXT_EQ_INT(s.cycles_compute, 12);
    MXT_EQ_INT(s.cycles_total, 16);
}

/* ---- 2. the bandwidth is taken as given or refused ------------------------------------------ */

MXTEST(bandwidth_step_outside_compat)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    /* 0.0014 * 1024 = 1.43 steps: it used to run as 1/1024 = 0.0009765625 */
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "0.0014", "--set"), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("--set: field 'dram.bw_bytes_per_cycle': 0.0014 is not within 0.1% of a multiple of the model's step of 1/1024"));
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 32); /* unchanged (the default) */
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "0.0005", "--set"), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("step is 1/1024"));
    /* multiples of 1/1024 are kept exactly: 1/1024, 12.5 = 12800/1024, 1.9990234375 = 2047/1024 */
    const char *ok[] = {"0.0009765625", "12.5", "1.9990234375", "65536"};
    const double val[] = {1.0 / 1024, 12.5, 2047.0 / 1024, 65536};
    for (int i = 0; i < 4; i++) {
        MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", ok[i], "--set"), MXSIM_OK);
        MXT_TRUE(c.dram_bw_bytes_per_cycle == val[i]);
        MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_OK);
    }
    /* within 0.1% of a step: held as that step (12.8 = 13107.2 steps -> 13107/1024, 1.5e-5 off;
    ** 1.9 = 1945.6 steps -> 1946/1024, 2.1e-4 off), as config --dump shows it */
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "12.8", "--set"), MXSIM_OK);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 13107.0 / 1024);
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "1.9", "--set"), MXSIM_OK);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 1946.0 / 1024);
    /* config --dump prints the held value exactly: 1946/1024 = 1.900390625 (mxsim_tconfig_format) */
    {
        char buf[64];
        int fi = -1;
        for (int i = 0; i < mxsim_tconfig_field_count(); i++)
            if (!strcmp(mxsim_tconfig_field_at(i)->name, "dram.bw_bytes_per_cycle")) fi = i;
        MXT_TRUE(fi >= 0 && !strcmp(mxsim_tconfig_format(&c, fi, buf, sizeof buf), "1.900390625"));
        c.clock_mhz = 1000 / 0.7; /* 17 digits: 1428.5714285714287 */
        for (int i = 0; i < mxsim_tconfig_field_count(); i++)
            if (!strcmp(mxsim_tconfig_field_at(i)->name, "clock.mhz")) fi = i;
        MXT_TRUE(strtod(mxsim_tconfig_format(&c, fi, buf, sizeof buf), NULL) == 1000 / 0.7);
        c.clock_mhz = 1000;
    }
    /* a value set through the struct is checked by validate, so the engine never rounds it by more
    ** than 0.1%: 0.0014 (1.43 steps) is refused */
    c.dram_bw_bytes_per_cycle = 0.0014;
    MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("config: field 'dram.bw_bytes_per_cycle': 0.0014 is not within 0.1%"));
    mxsim_top o = mxt_gemm_op("g", 64, 64, 64);
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_E_INPUT);
}

/* SCALE-Sim v2 reads Bandwidth with int(): compat mode with USER bandwidth takes whole bytes per
** cycle.  1.9 ran as 1 and 0.5 as 1 (floored, then raised to 1); now both are refused.  CALC
** never reads the bandwidth, so a fraction there is kept (and harmless). */
MXTEST(bandwidth_whole_in_compat)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    c.scalesim_compat = 1;
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "1.9", "--set"), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("--set: field 'dram.bw_bytes_per_cycle': 1.9 is not a whole number") && msg_has("int()"));
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "0.5", "--set"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_tconfig_set(g_ctx, &c, "dram.bw_bytes_per_cycle", "2", "--set"), MXSIM_OK);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 2);
    /* compat turned on after a fractional bandwidth: validate refuses (mxsim_time_op too) */
    mxsim_tconfig_default(&c);
    c.dram_bw_bytes_per_cycle = 1.5;
    MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_OK);
    c.scalesim_compat = 1;
    MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("1.5 is not a whole number"));
    mxsim_top o = mxt_gemm_op("g", 64, 64, 64);
    mxsim_tstats s;
    MXT_EQ_INT(mxsim_time_op(g_ctx, &c, &o, "t", 0, NULL, &s), MXSIM_E_INPUT);
    c.scalesim_bw = MXSIM_SCALESIM_BW_CALC;
    MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_OK);
    /* an .ini that turns compat on after its fractional bandwidth: the bandwidth's line */
    const char *p = write_file("compat.ini", "[dram]\nbw_bytes_per_cycle = 1.5\n[report]\nscalesim_compat = 1\n");
    mxsim_tconfig_default(&c);
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, p), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("compat.ini:2: field 'dram.bw_bytes_per_cycle': 1.5 is not a whole number"));
}

/* The [architecture_presets] keys SCALE-Sim v2 requires besides ArrayHeight and Bandwidth. */
#define SS_ARCH_REST "ArrayWidth: 8\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\n" \
                     "FilterOffset: 10000000\nOfmapOffset: 20000000\nDataflow: os\n"

/* .cfg Bandwidth under USER: whole words 1..65536, else refused at its line (1e9 became 65536,
** 1.9 ran as 1). */
MXTEST(cfg_bandwidth)
{
    static const struct {
        const char *bw, *frag;
        double want; /* 0: refused */
    } k[] = {
        {"1e9", "bw.cfg:3: field 'Bandwidth': '1e9' words/cycle out of range 1..65536", 0},
        {"65537", "'65537' words/cycle out of range 1..65536", 0},
        {"1.9", "bw.cfg:3: field 'Bandwidth': '1.9' is not a whole number", 0},
        {"0.5", "'0.5' is not a whole number", 0},
        {"65536", NULL, 65536},
        {"7", NULL, 7},
        {"10, 20", NULL, 10}, /* a list: the first, as SCALE-Sim uses */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        char text[300];
        /* Bandwidth on line 3; the rest are the keys SCALE-Sim v2 requires */
        snprintf(text, sizeof text, "[architecture_presets]\nArrayHeight: 8\nBandwidth: %s\n%s[run_presets]\n"
                 "InterfaceBandwidth: USER\n[general]\nrun_name = t\n", k[i].bw, SS_ARCH_REST);
        const char *p = write_file("bw.cfg", text);
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        mxsim_status st = mxsim_tconfig_load(g_ctx, &c, p);
        if (k[i].frag) {
            MXT_EQ_INT(st, MXSIM_E_INPUT);
            MXT_TRUE(msg_has(k[i].frag));
        } else {
            MXT_EQ_INT(st, MXSIM_OK);
            MXT_TRUE(c.dram_bw_bytes_per_cycle == k[i].want);
            MXT_EQ_INT(mxsim_tconfig_validate(g_ctx, &c), MXSIM_OK);
        }
    }
    /* CALC does not read Bandwidth (SCALE-Sim neither): the interface never stalls (65536) */
    const char *p = write_file("calc.cfg", "[architecture_presets]\nArrayHeight: 8\nBandwidth: 1.5\n" SS_ARCH_REST
                                           "[run_presets]\nInterfaceBandwidth: CALC\n[general]\nrun_name = t\n");
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, p), MXSIM_OK);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 65536);
}

/* ---- 3. INI comments -------------------------------------------------------------------- */

MXTEST(ini_comment_needs_a_blank)
{
    const char *p;
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    /* a ';' or '#' inside a value is data: the value is then not a number / not a choice */
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, write_file("semi.ini", "[array]\nrows = 16;32\n")), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("semi.ini:2: field 'array.rows': '16;32' is not an integer"));
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, write_file("hash.ini", "[array]\ncols = 8\ndataflow = os#ws\n")),
               MXSIM_E_INPUT);
    MXT_TRUE(msg_has("hash.ini:3: field 'array.dataflow': 'os#ws' is not one of os|ws|is"));
    /* comments: a whole line (indented or not), after a blank, after a tab, after a header */
    mxsim_tconfig_default(&c);
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, write_file("ok.ini",
                   "# top\n  ; indented\n[array] # the array\nrows = 12 ; twelve\ncols = 24\t# tab\n"
                   "dataflow = ws   #;both\n[dram]\nbw_bytes_per_cycle = 4.5 ;\n")), MXSIM_OK);
    MXT_EQ_INT(c.array_rows, 12);
    MXT_EQ_INT(c.array_cols, 24);
    MXT_EQ_INT(c.dataflow, MXSIM_DF_WS);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 4.5);
    /* a SCALE-Sim .cfg: '8;9' is no integer either */
    mxsim_tconfig_default(&c);
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, write_file("semi.cfg", "[architecture_presets]\nArrayHeight: 8;9\n")),
               MXSIM_E_INPUT);
    MXT_TRUE(msg_has("semi.cfg:2: field 'array.rows': '8;9' is not an integer"));
    /* but not an inline comment: SCALE-Sim's configparser (no inline_comment_prefixes) reads
    ** 'ArrayHeight: 8 # rows' as the value '8 # rows' and stops (int()), and 'Dataflow : ws # ...'
    ** as an invalid dataflow it runs as os (peer run, SCALE-Sim 2.0.2); whole-line comments, also
    ** indented, are comments */
    mxsim_tconfig_default(&c);
    p = write_file("inline.cfg", "; v2\n[architecture_presets]\nArrayHeight: 8 # rows\n" SS_ARCH_REST
                                 "[run_presets]\nInterfaceBandwidth: CALC\n[general]\nrun_name = t\n");
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, p), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("inline.cfg:3: field 'array.rows': '8 # rows' is not an integer"));
    mxsim_tconfig_default(&c);
    p = write_file("ok.cfg", "; v2\n[architecture_presets]\n  # the array\nArrayHeight: 8\n" SS_ARCH_REST
                             "[run_presets]\nInterfaceBandwidth: CALC\n[general]\nrun_name = t\n");
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, p), MXSIM_OK);
    MXT_EQ_INT(c.array_rows, 8);
    /* a negative offset: SCALE-Sim skips address -1 (its no-request marker), which changes its
    ** timing (peer audit: OfmapOffset -1, 2235 cycles against 2231); refused at its line */
    mxsim_tconfig_default(&c);
    p = write_file("neg.cfg", "; v2\n[architecture_presets]\nArrayHeight: 8\nArrayWidth: 8\nIfmapSramSzkB: 64\n"
                              "FilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\nFilterOffset: 10000000\n"
                              "OfmapOffset: -1\nDataflow: os\n[run_presets]\nInterfaceBandwidth: CALC\n");
    MXT_EQ_INT(mxsim_tconfig_load(g_ctx, &c, p), MXSIM_E_INPUT);
    MXT_TRUE(msg_has("neg.cfg:10: field 'OfmapOffset': -1 is negative"));
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

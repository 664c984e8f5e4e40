/* test_timing_scalesim.c - the SCALE-Sim compatibility mode (sim/doc/architecture.md section 8)
** through the library API: SRAM-independent compute cycles and CALC totals against SCALE-Sim v2's
** closed forms, the .cfg reader (v3 keys, case, bandwidth lists, compat switched on), the
** topology import flags, and properties of the USER-bandwidth model.  Real SCALE-Sim outputs
** are checked by timing_scalesim.sh. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"
#include "tinternal.h"

static mxsim_ctx *g_ctx;

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/* SCALE-Sim v2's cycle count of one layer (its reported total is one less). */
static int64_t closed_form(int df, int64_t R, int64_t C, int64_t M, int64_t N, int64_t K)
{
    if (df == 0) return cdiv(M, R) * cdiv(N, C) * (K + R + C - 2);
    if (df == 1) return cdiv(K, R) * cdiv(N, C) * (2 * R + C + M - 2);
    return cdiv(K, R) * cdiv(M, C) * (2 * R + C + N - 2);
}

static void compat_cfg(mxsim_tconfig *c, int R, int C, int df, int64_t kib, int calc)
{
    mxsim_tconfig_default(c);
    c->array_rows = R, c->array_cols = C, c->dataflow = df;
    c->operand_format = MXSIM_FMT_INT8, c->pe_lanes = c->load_lanes = 1;
    c->sram_a_kib = c->sram_b_kib = c->sram_c_kib = kib;
    c->scalesim_compat = 1;
    c->scalesim_bw = calc ? MXSIM_SCALESIM_BW_CALC : MXSIM_SCALESIM_BW_USER;
}

static mxsim_tstats run(mxsim_tconfig *c, int64_t m, int64_t n, int64_t k)
{
    mxsim_top o = mxt_gemm_op("g", m, n, k);
    mxsim_tstats s;
    memset(&s, 0, sizeof s);
    if (mxsim_time_op(g_ctx, c, &o, "t", 0, NULL, &s) != MXSIM_OK) {
        fprintf(stderr, "  %s\n", mxsim_errmsg(g_ctx));
        s.cycles_total = -1;
    }
    return s;
}

/* Rules 1-3: with CALC the total is the closed form minus one, for 1 KiB and 1 GiB SRAMs alike. */
MXTEST(calc_total_ignores_sram)
{
    mxt_rng r = {14};
    for (int it = 0; it < 300; it++) {
        int R = 1 + (int)(mxt_next(&r) % 40), C = 1 + (int)(mxt_next(&r) % 40), df = (int)(mxt_next(&r) % 3);
        int64_t M = 1 + (int64_t)(mxt_next(&r) % 700), N = 1 + (int64_t)(mxt_next(&r) % 700);
        int64_t K = 1 + (int64_t)(mxt_next(&r) % 700);
        int64_t want = closed_form(df, R, C, M, N, K) - 1;
        mxsim_tconfig c;
        compat_cfg(&c, R, C, df, 1, 1);
        mxsim_tstats small = run(&c, M, N, K);
        compat_cfg(&c, R, C, df, 1 << 20, 1);
        mxsim_tstats big = run(&c, M, N, K);
        MXT_EQ_INT(small.cycles_total, want);
        MXT_EQ_INT(big.cycles_total, want);
        MXT_EQ_INT(small.cycles_mem_stall, 0);
        MXT_EQ_INT(small.cycles_total, small.cycles_compute + small.cycles_fill_drain +
                                           small.cycles_exp_stall + small.cycles_mem_stall);
    }
}

/* Rule 6 (SCALE-Sim's values: timing_scalesim.sh): on these cases the USER total does not grow
** with bandwidth and equals CALC when the SRAMs hold everything.  It may end below CALC: SCALE-Sim's
** stall can be negative (grid.csv's audit/neg*.cfg rows: -3 and -1), so `>= calc` is no property. */
MXTEST(user_model_properties)
{
    mxt_rng r = {6};
    for (int it = 0; it < 80; it++) {
        int R = 1 + (int)(mxt_next(&r) % 32), C = 1 + (int)(mxt_next(&r) % 32), df = (int)(mxt_next(&r) % 3);
        int64_t M = 1 + (int64_t)(mxt_next(&r) % 200), N = 1 + (int64_t)(mxt_next(&r) % 200);
        int64_t K = 1 + (int64_t)(mxt_next(&r) % 200), kib = 1 + (int64_t)(mxt_next(&r) % 16);
        mxsim_tconfig c;
        compat_cfg(&c, R, C, df, kib, 1);
        int64_t calc = run(&c, M, N, K).cycles_total;
        compat_cfg(&c, R, C, df, kib, 0);
        int64_t prev = -1;
        for (int bw = 64; bw >= 1; bw /= 2) {
            c.dram_bw_bytes_per_cycle = bw;
            mxsim_tstats s = run(&c, M, N, K);
            MXT_TRUE(prev < 0 || s.cycles_total >= prev);
            prev = s.cycles_total;
        }
        compat_cfg(&c, R, C, df, 1 << 20, 0);
        c.dram_bw_bytes_per_cycle = 1;
        MXT_EQ_INT(run(&c, M, N, K).cycles_total, calc);
    }
}

/* Rule 6's limits: ops up to 2^32 buffer-column visits are stepped (the USER stall mxsim_time_op
** gives equals the prepared one); beyond, mx_tscalesim_prepare refuses with MXSIM_E_LIMIT and
** points to CALC.  4096^3 on 8x8 OS: 512 * 512 row x column folds of 4096 + 14 rows of 8 + 16
** columns = 2.6e10 visits. */
MXTEST(user_stepping_limit)
{
    mxsim_tconfig c;
    compat_cfg(&c, 8, 8, MXSIM_DF_OS, 1, 0);
    c.dram_bw_bytes_per_cycle = 4;
    mxsim_top o = mxt_gemm_op("big", 4096, 4096, 4096);
    mx_top_resolved r;
    mx_tarch a;
    MXT_EQ_INT(mx_top_resolve(g_ctx, &c, &o, "t", &r), MXSIM_OK);
    mx_tarch_derive(&c, &a);
    MXT_EQ_INT(mx_tscalesim_prepare(g_ctx, &c, &a, &r, "t:1: op 'big'"), MXSIM_E_LIMIT);
    MXT_TRUE(strstr(mxsim_errmsg(g_ctx), "t:1: op 'big'") && strstr(mxsim_errmsg(g_ctx), "2^32") &&
             strstr(mxsim_errmsg(g_ctx), "CALC"));
    MXT_EQ_INT(r.ss_ready, 0);
    /* CALC: nothing to step, nothing refused */
    compat_cfg(&c, 8, 8, MXSIM_DF_OS, 1, 1);
    MXT_EQ_INT(mx_tscalesim_prepare(g_ctx, &c, &a, &r, "t"), MXSIM_OK);
    /* 200 x 150 x 300 on 8x8 OS, 1 KiB, 2 words/cycle (3.6 M visits): prepared = timed */
    compat_cfg(&c, 8, 8, MXSIM_DF_OS, 1, 0);
    c.dram_bw_bytes_per_cycle = 2;
    o = mxt_gemm_op("g", 200, 150, 300);
    MXT_EQ_INT(mx_top_resolve(g_ctx, &c, &o, "t", &r), MXSIM_OK);
    mx_tarch_derive(&c, &a);
    MXT_EQ_INT(mx_tscalesim_prepare(g_ctx, &c, &a, &r, "t"), MXSIM_OK);
    MXT_EQ_INT(r.ss_ready, 1);
    mxsim_tstats s = run(&c, 200, 150, 300);
    MXT_TRUE(r.ss_stall > 0);
    MXT_EQ_INT(s.cycles_mem_stall, r.ss_stall);
}

static const char *tmp_path(const char *name, char *buf, size_t len)
{
    const char *tmp = getenv("MXSIM_TEST_TMP");
    if (tmp == NULL) tmp = ".";
    mkdir(tmp, 0755);
    snprintf(buf, len, "%s/%s", tmp, name);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f == NULL) return;
    fputs(text, f);
    fclose(f);
}

/* A complete SCALE-Sim v2 .cfg (every key its scale_config.py reads without a default), one key
** per line; `extra` is appended (v3 sections). */
static const char *const k_v2_lines[] = {
    "[general]",            "run_name = x",        "[architecture_presets]", "ArrayHeight: 12",
    "ArrayWidth: 14",       "IfmapSramSzkB: 36",   "FilterSramSzkB: 2",      "OfmapSramSzkB: 4",
    "IfmapOffset: 0",       "FilterOffset: 10000000", "OfmapOffset: 20000000", "Dataflow : is",
    "Bandwidth : 7,8,9",    "[run_presets]",       "InterfaceBandwidth: USER",
};
#define N_V2_LINES ((int)(sizeof k_v2_lines / sizeof k_v2_lines[0]))

/* Writes k_v2_lines without line `skip` (-1: none), line `repl` replaced by `with`, then extra. */
static const char *write_v2(const char *name, int skip, int repl, const char *with, const char *extra)
{
    static char path[512];
    char text[2048] = "";
    for (int i = 0; i < N_V2_LINES; i++) {
        if (i == skip) continue;
        strcat(text, i == repl ? with : k_v2_lines[i]);
        strcat(text, "\n");
    }
    strcat(text, extra);
    tmp_path(name, path, sizeof path);
    write_file(path, text);
    return path;
}

static mxsim_status load(const char *path, mxsim_tconfig *c)
{
    mxsim_tconfig_default(c);
    return mxsim_tconfig_load(g_ctx, c, path);
}

static int err_has(const char *a, const char *b)
{
    const char *m = mxsim_errmsg(g_ctx);
    int ok = strstr(m, a) != NULL && (b == NULL || strstr(m, b) != NULL);
    if (!ok) fprintf(stderr, "  message: %s\n", m);
    return ok;
}

/* Rule 7: v3 sections and keys (at their off values), configparser's case-insensitive keys, a
** bandwidth list, an upper-case extension. */
MXTEST(cfg_reader)
{
    const char *v3 = "OnChipMemoryBanks: 1\nReadRequestBuffer: 128\n"
                     "[layout]\nIfmapCustomLayout: False\nIfmapSRAMBankBandwidth: 7\nIfmapSRAMBankNum: 7\n"
                     "FilterCustomLayout: 0\n[sparsity]\nSparsitySupport : false\nBlockSize : 8\n"
                     "[run_presets_v3]\nUseRamulatorTrace: False\n";
    mxsim_tconfig c;
    /* keys in any case (arrayheight), the v3 keys in sections of their own */
    MXT_EQ_INT(load(write_v2("v3.cfg", -1, 3, "arrayheight: 12", v3), &c), MXSIM_OK);
    MXT_EQ_INT(c.array_rows, 12);
    MXT_EQ_INT(c.array_cols, 14);
    MXT_EQ_INT(c.sram_a_kib, 36);
    MXT_EQ_INT(c.sram_b_kib, 2);
    MXT_EQ_INT(c.dataflow, MXSIM_DF_IS);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 7);
    MXT_EQ_INT(c.scalesim_compat, 1);
    MXT_EQ_INT(c.scalesim_bw, MXSIM_SCALESIM_BW_USER);
    MXT_EQ_INT(c.operand_format, MXSIM_FMT_INT8);
    MXT_EQ_INT(c.scalesim_version, MXSIM_SCALESIM_V3); /* a v3 file is timed as SCALE-Sim 3.0.0 */
    /* v3 stops on a bank count that does not divide the bank bandwidth under USER (an assert in its
    ** read buffer), and on an integer key int() refuses, under CALC too */
    MXT_EQ_INT(load(write_v2("v3bank.cfg", -1, 3, "arrayheight: 12",
                             "[layout]\nIfmapSRAMBankBandwidth: 7\nIfmapSRAMBankNum: 3\n"), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("v3bank.cfg:", "'IfmapSRAMBankNum': 3"));
    MXT_EQ_INT(load(write_v2("v3int.cfg", -1, 3, "arrayheight: 12", "ReadRequestBuffer: 3.5\n[layout]\n"), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("v3int.cfg:", "'ReadRequestBuffer': '3.5' is not an integer: SCALE-Sim v3, whose file this is"));
    /* 2.0.2 never reads the key: in a file without a v3 section or key it is no error */
    MXT_EQ_INT(load(write_v2("v2int.cfg", -1, 3, "arrayheight: 12", "ReadRequestBuffer: 3.5\n"), &c), MXSIM_OK);
    MXT_EQ_INT(c.scalesim_version, MXSIM_SCALESIM_V2);
    /* the extension in any case: SCALE.CFG is a SCALE-Sim file (it was read as an INI:
    ** "unknown key general.run_name") */
    MXT_EQ_INT(load(write_v2("UP.CFG", -1, -1, NULL, ""), &c), MXSIM_OK);
    MXT_EQ_INT(c.scalesim_compat, 1);
    MXT_EQ_INT(c.scalesim_version, MXSIM_SCALESIM_V2); /* no v3 section or key: 2.0.2 */
    MXT_EQ_INT(load(write_v2("bad.cfg", -1, 4, "OnChipMemoryBankz: 2", ""), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("bad.cfg:5", "OnChipMemoryBankz"));
    /* the v3 switches, read as v3's scale_config.py reads them: UseRamulatorTrace is on only for
    ** the exact text True, SparsitySupport for true in any case, the layouts by getboolean */
    static const struct {
        const char *line;
        int ok;
        const char *msg;
    } sw[] = {
        {"[run_presets_v3]\nUseRamulatorTrace: true\n", 1, NULL},
        {"[run_presets_v3]\nUseRamulatorTrace: 1\n", 1, NULL},
        {"[run_presets_v3]\nUseRamulatorTrace: Fasle\n", 1, NULL},
        {"[run_presets_v3]\nUseRamulatorTrace: True\n", 0, "Ramulator DRAM timing is not modelled"},
        {"[sparsity]\nSparsitySupport : yes\n", 1, NULL},
        {"[sparsity]\nSparsitySupport : 1\n", 1, NULL},
        {"[sparsity]\nSparsitySupport : TRUE\n", 0, "sparsity is not modelled"},
        {"[layout]\nIfmapCustomLayout: off\n", 1, NULL},
        {"[layout]\nIfmapCustomLayout: yes\n", 0, "custom SRAM layout (bank conflicts) is not modelled"},
        {"[layout]\nFilterCustomLayout: maybe\n", 0, "'maybe' is not a boolean"},
    };
    for (size_t i = 0; i < sizeof sw / sizeof sw[0]; i++) {
        const mxsim_status st = load(write_v2("v3sw.cfg", -1, -1, NULL, sw[i].line), &c);
        MXT_EQ_INT(st, sw[i].ok ? MXSIM_OK : MXSIM_E_INPUT);
        if (!sw[i].ok) MXT_TRUE(err_has("v3sw.cfg:", sw[i].msg));
        else MXT_EQ_INT(c.scalesim_compat, 1);
    }
}

/* SCALE-Sim v2 reads these keys with config.get and no default (scale_config.py,
** read_conf_file): without one it stops (NoSectionError / NoOptionError); mxsim refuses, naming
** the section and key, where it used to default silently (no [run_presets]: USER at 32
** bytes/cycle). */
MXTEST(cfg_required_keys)
{
    static const struct {
        int line;
        const char *frag;
    } req[] = {
        {1, "[general] run_name: missing"},
        {3, "[architecture_presets] ArrayHeight: missing"},
        {4, "[architecture_presets] ArrayWidth: missing"},
        {5, "[architecture_presets] IfmapSramSzkB: missing"},
        {6, "[architecture_presets] FilterSramSzkB: missing"},
        {7, "[architecture_presets] OfmapSramSzkB: missing"},
        {8, "[architecture_presets] IfmapOffset: missing"},
        {9, "[architecture_presets] FilterOffset: missing"},
        {10, "[architecture_presets] OfmapOffset: missing"},
        {11, "[architecture_presets] Dataflow: missing"},
        {12, "[architecture_presets] Bandwidth: missing"}, /* under USER */
        {14, "[run_presets] InterfaceBandwidth: missing"},
    };
    mxsim_tconfig c;
    for (size_t i = 0; i < sizeof req / sizeof req[0]; i++) {
        MXT_EQ_INT(load(write_v2("req.cfg", req[i].line, -1, NULL, ""), &c), MXSIM_E_INPUT);
        MXT_TRUE(err_has("req.cfg: ", req[i].frag));
        MXT_TRUE(err_has("NoOptionError", NULL));
    }
    /* a whole section missing: NoSectionError */
    MXT_EQ_INT(load(write_v2("nosec.cfg", 13, 14, "", ""), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("[run_presets] InterfaceBandwidth: missing (no such section)", "NoSectionError"));
    /* CALC does not read Bandwidth */
    MXT_EQ_INT(load(write_v2("calc.cfg", 12, 14, "InterfaceBandwidth: CALC", ""), &c), MXSIM_OK);
    MXT_TRUE(c.dram_bw_bytes_per_cycle == 65536);
    /* a key outside the section SCALE-Sim reads it from (section names are case-sensitive) */
    MXT_EQ_INT(load(write_v2("sec.cfg", -1, -1, NULL, "[other]\nArrayHeight: 8\n"), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("sec.cfg:17: field 'ArrayHeight' in [other]", "only from [architecture_presets]"));
    MXT_EQ_INT(load(write_v2("case.cfg", -1, 2, "[Architecture_Presets]", ""), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("case.cfg:4: field 'ArrayHeight' in [Architecture_Presets]", NULL));
    /* the offsets are not timed, but SCALE-Sim reads them with int() */
    MXT_EQ_INT(load(write_v2("off.cfg", -1, 8, "IfmapOffset: zero", ""), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("off.cfg:9: field 'IfmapOffset': 'zero' is not an integer", NULL));
}

/* SCALE-Sim v2 takes the dataflow as written: os, ws or is; anything else ("WS") gets a warning
** and runs os, so mxsim refuses it rather than run ws. */
MXTEST(cfg_dataflow_case)
{
    mxsim_tconfig c;
    static const char *const bad[] = {"Dataflow : WS", "Dataflow : Os", "Dataflow : rs"};
    for (int i = 0; i < 3; i++) {
        MXT_EQ_INT(load(write_v2("df.cfg", -1, 11, bad[i], ""), &c), MXSIM_E_INPUT);
        MXT_TRUE(err_has("df.cfg:12: field 'Dataflow'", "only os, ws or is, in lower case"));
        MXT_TRUE(err_has("Invalid dataflow", "runs os"));
    }
    MXT_EQ_INT(load(write_v2("df.cfg", -1, 11, "Dataflow : ws", ""), &c), MXSIM_OK);
    MXT_EQ_INT(c.dataflow, MXSIM_DF_WS);
}

/* v3's switches of models mxsim lacks are accepted off and refused on (each changes v3's
** cycles: scale_config.py reads them, single_layer_sim.py and the compute/memory classes act on
** them); under USER, v3 refills the ifmap / filter buffers at [layout] *SRAMBankBandwidth. */
MXTEST(cfg_v3_models)
{
    static const struct {
        const char *text, *frag;
    } on[] = {
        {"[sparsity]\nSparsitySupport : true\n", "SCALE-Sim v3's sparsity is not modelled"},
        {"[sparsity]\nSparsitySupport : TRUE\n", "SCALE-Sim v3's sparsity is not modelled"},
        {"[layout]\nIfmapCustomLayout: True\n", "custom SRAM layout (bank conflicts) is not modelled"},
        {"[layout]\nFilterCustomLayout: yes\n", "custom SRAM layout (bank conflicts) is not modelled"},
        {"[run_presets_v3]\nUseRamulatorTrace: True\n", "Ramulator DRAM timing is not modelled"},
    };
    mxsim_tconfig c;
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        MXT_EQ_INT(load(write_v2("v3on.cfg", -1, -1, NULL, on[i].text), &c), MXSIM_E_INPUT);
        MXT_TRUE(err_has("v3on.cfg:17: field '", on[i].frag));
    }
    static const char *const off[] = {"[sparsity]\nSparsitySupport : False\n", "[layout]\nIfmapCustomLayout: off\n",
                                      "[layout]\nFilterCustomLayout: 0\n", "[x]\nUseRamulatorTrace: no\n"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++)
        MXT_EQ_INT(load(write_v2("v3off.cfg", -1, -1, NULL, off[i]), &c), MXSIM_OK);
    /* Bandwidth 7 (line 13): a bank bandwidth of 7 is v2's timing, 10 is not (under USER only) */
    MXT_EQ_INT(load(write_v2("bank.cfg", -1, -1, NULL, "[layout]\nIfmapSRAMBankBandwidth: 7\nFilterSRAMBankBandwidth: 7\n"), &c),
               MXSIM_OK);
    MXT_EQ_INT(load(write_v2("bank.cfg", -1, -1, NULL, "[layout]\nFilterSRAMBankBandwidth: 10\n"), &c), MXSIM_E_INPUT);
    MXT_TRUE(err_has("bank.cfg:17: field 'FilterSRAMBankBandwidth': '10' differs from Bandwidth '7' (line 13)", NULL));
    MXT_EQ_INT(load(write_v2("bank.cfg", 12, 14, "InterfaceBandwidth: CALC", "[layout]\nFilterSRAMBankBandwidth: 10\n"), &c),
               MXSIM_OK);
}

/* Rules 4 and 5: conv output size and depthwise layers under MXSIM_IMPORT_SCALESIM_MODEL. */
MXTEST(topology_import_model)
{
    char path[512];
    tmp_path("conv.csv", path, sizeof path);
    write_file(path, "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, Strides,\n"
                     "a, 224, 224, 11, 11, 3, 96, 4,\nb, 28, 28, 3, 3, 16, 32, 1,\nc_DP, 9, 7, 3, 3, 5, 2, 2,\n");
    mxsim_trace *nat = NULL, *ss = NULL;
    MXT_EQ_INT(mxsim_trace_import_scalesim(g_ctx, path, 0, &nat), MXSIM_OK);
    MXT_EQ_INT(mxsim_trace_import_scalesim(g_ctx, path, MXSIM_IMPORT_SCALESIM_MODEL, &ss), MXSIM_OK);
    if (nat == NULL || ss == NULL) return;
    MXT_EQ_INT(mxsim_trace_op(nat, 0)->m, 54 * 54);
    MXT_EQ_INT(mxsim_trace_op(ss, 0)->m, 55 * 55);
    MXT_EQ_INT(mxsim_trace_op(nat, 1)->m, 26 * 26);
    MXT_EQ_INT(mxsim_trace_op(ss, 1)->m, 26 * 26);
    /* 9x7 input, 3x3, stride 2: 4x3 both ways; depthwise: 5 one-channel layers */
    const mxsim_top *dp = mxsim_trace_op(ss, 2);
    MXT_EQ_INT(dp->m, 4 * 3);
    MXT_EQ_INT(dp->k, 9);
    MXT_EQ_INT(dp->n, 2);
    MXT_EQ_INT(dp->repeat, 5);
    /* the native mode reads the depthwise convention too (it describes the layer, not the timing) */
    MXT_EQ_INT(mxsim_trace_op(nat, 2)->k, 9);
    MXT_EQ_INT(mxsim_trace_op(nat, 2)->repeat, 5);
    MXT_EQ_INT(mxsim_trace_op(nat, 2)->n, 2);
    mxsim_trace_free(nat);
    mxsim_trace_free(ss);
}

/* A topology's rows as SCALE-Sim v2 reads them (scalesim/topology_utils.py): the first line is
** skipped whatever it holds, each row is row.split(',')[:-1], a 9th conv value is the column
** stride.  Expected values by hand from its output-size rule ceil((H - F + s) / s) per dim. */
static mxsim_status import(const char *name, const char *text, int flags, mxsim_trace **t)
{
    char path[512];
    tmp_path(name, path, sizeof path);
    write_file(path, text);
    *t = NULL;
    return mxsim_trace_import_scalesim(g_ctx, path, flags, t);
}

MXTEST(topology_rows)
{
    mxsim_trace *t = NULL;
    const int SS = MXSIM_IMPORT_SCALESIM_MODEL;
    /* 9 values (SCALE-Sim's write_topo_file header): ConvA 32x32, 3x3, strides 2 and 1:
    ** ceil(31/2) = 16 by ceil(30/1) = 30 = 480 rows (native floor(29/2)+1 = 15 by 30 = 450); ConvB
    ** 20x30, 3x5, strides 1 and 3: 18 by ceil(28/3) = 10 = 180 (native 18 by floor(25/3)+1 = 9) */
    const char *s9 = "Layer name, IFMAP Height, IFMAP Width, Filter Height, Filter Width, Channels, Num Filter, "
                     "Stride height, Stride width,\nConvA, 32, 32, 3, 3, 8, 16, 2, 1,\nConvB, 20, 30, 3, 5, 4, 8, 1, 3,\n";
    MXT_EQ_INT(import("s9.csv", s9, SS, &t), MXSIM_OK);
    if (t) {
        MXT_EQ_INT(mxsim_trace_op(t, 0)->m, 480);
        MXT_EQ_INT(mxsim_trace_op(t, 0)->k, 72);
        MXT_EQ_INT(mx_t_conv_sh(mxsim_trace_op(t, 0)), 2);
        MXT_EQ_INT(mx_t_conv_sw(mxsim_trace_op(t, 0)), 1);
        MXT_EQ_INT(mxsim_trace_op(t, 1)->m, 180);
        MXT_EQ_INT(mx_t_conv_sh(mxsim_trace_op(t, 1)), 1);
        MXT_EQ_INT(mx_t_conv_sw(mxsim_trace_op(t, 1)), 3);
        mxsim_trace_free(t);
    }
    MXT_EQ_INT(import("s9.csv", s9, 0, &t), MXSIM_OK);
    if (t) {
        MXT_EQ_INT(mxsim_trace_op(t, 0)->m, 450);
        MXT_EQ_INT(mxsim_trace_op(t, 1)->m, 162);
        mxsim_trace_free(t);
    }
    /* the largest column stride, 2^31, reaches bit 63 of the packed conv_s: 4 by ceil(2^32 / 2^31) */
    MXT_EQ_INT(import("s9.csv", "L,\nc, 4, 2147483647, 1, 1, 1, 1, 1, 2147483648,\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->m : -1, 8);
    MXT_EQ_INT(t ? mx_t_conv_sh(mxsim_trace_op(t, 0)) : -1, 1);
    MXT_EQ_INT(t ? mx_t_conv_sw(mxsim_trace_op(t, 0)) : -1, (int64_t)1 << 31);
    mxsim_trace_free(t);
    /* the header fixes nothing: 9 header columns (transformer_fwd.csv's "batch size") over 8-value
    ** rows, 8 over 9, 5 over 4 */
    MXT_EQ_INT(import("h.csv", "Layer name,H,W,Fh,Fw,C,N,S,batch size,\nc, 28, 28, 3, 3, 3, 16, 1,\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->m : -1, 26 * 26);
    mxsim_trace_free(t);
    MXT_EQ_INT(import("h.csv", "Layer,H,W,Fh,Fw,C,N,S,\nc, 32, 32, 3, 3, 8, 16, 2, 1,\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->m : -1, 480);
    mxsim_trace_free(t);
    MXT_EQ_INT(import("h.csv", "Layer, M, N, K, X,\ng, 3, 5, 7,\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->k : -1, 7);
    mxsim_trace_free(t);
    /* text after the last comma is dropped, as SCALE-Sim does: mobilnet_paper.csv's ",#dw", a
    ** GEMM's 5th piece (SCALE-Sim reads M, N, K = 64, 48, 100) */
    MXT_EQ_INT(import("n.csv", "L,\nConv2_dw, 112, 112, 3, 3, 1, 1, 1,#dw\ng2, 5, 5, 1, 1, 2, 3, 2,  note\n", SS, &t),
               MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->m : -1, 110 * 110);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 1)->m : -1, 9);
    mxsim_trace_free(t);
    MXT_EQ_INT(import("n.csv", "L,\nfc, 64, 48, 100, 7\n", 0, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->k : -1, 100);
    mxsim_trace_free(t);
    /* rows without their trailing comma stay accepted (4 and 8 values), not under REQUIRE_COMMA */
    MXT_EQ_INT(import("nc.csv", "L,\nc, 32, 32, 3, 3, 3, 16, 2\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->m : -1, 256);
    mxsim_trace_free(t);
    MXT_EQ_INT(import("nc.csv", "L,\nc, 32, 32, 3, 3, 3, 16, 2\n", MXSIM_IMPORT_REQUIRE_COMMA, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("nc.csv:2: missing trailing comma", NULL));
    /* 9 pieces ending in a number, no trailing comma: SCALE-Sim reads 8 (stride 2 both ways),
    ** the other reading 9 (column stride 1): refused */
    MXT_EQ_INT(import("amb.csv", "L,\nc, 32, 32, 3, 3, 8, 16, 2, 1\n", SS, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("amb.csv:2: no trailing comma after '1'", "reads the first 8 values"));
    /* a first line that is a layer: SCALE-Sim would drop it */
    MXT_EQ_INT(import("hl.csv", "Conv1, 32, 32, 3, 3, 3, 16, 2,\nConv2, 16, 16, 3, 3, 16, 16, 1,\n", SS, &t),
               MXSIM_E_INPUT);
    MXT_TRUE(err_has("hl.csv:1: the first line is a layer ('Conv1', 8 values)", "add a header line"));
    MXT_EQ_INT(import("hl.csv", "fc1, 64, 48, 100,\nfc2, 32, 32, 32,\n", 0, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("hl.csv:1: the first line is a layer ('fc1', 4 values)", "silently drop"));
    MXT_EQ_INT(import("bl.csv", "\nLayer, M, N, K,\ng, 1, 2, 3,\n", 0, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("bl.csv:1: empty line", "first line as the header"));
    /* v3's Sparsity column: N:M refused naming it, 1:1 (dense) accepted */
    MXT_EQ_INT(import("sp.csv", "L,\nCONV_1, 5, 5, 3, 3, 2, 6, 1, 2:4,\n", SS, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("sp.csv:2: field 'Sparsity' (value 9): '2:4'", "not modelled"));
    MXT_EQ_INT(import("sp.csv", "L,\nGEMM_1, 3, 5, 16, 3:4,\n", SS, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("sp.csv:2: field 'Sparsity' (value 5): '3:4'", NULL));
    MXT_EQ_INT(import("sp.csv", "L,\nGEMM_1, 3, 5, 16, 1:1,\nc2, 5, 5, 3, 3, 2, 6, 1, 4:4,\n", SS, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("sp.csv:3: a conv row (8 values) after GEMM rows (line 2)", NULL));
    MXT_EQ_INT(import("sp.csv", "L,\nGEMM_1, 3, 5, 16, 1:1,\n", SS, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_op(t, 0)->k : -1, 16);
    mxsim_trace_free(t);
    /* a count that is no row */
    MXT_EQ_INT(import("cnt.csv", "L,\ng, 1, 2, 3, 4, 5,\n", 0, &t), MXSIM_E_INPUT);
    MXT_TRUE(err_has("cnt.csv:2: 6 values", NULL));
    /* the extension in any case (TEST.CSV), through mxsim_trace_load */
    char path[512];
    tmp_path("UP.CSV", path, sizeof path);
    write_file(path, "Layer, M, N, K,\ng, 1, 2, 3,\n");
    MXT_EQ_INT(mxsim_trace_load(g_ctx, path, &t), MXSIM_OK);
    MXT_EQ_INT(t ? mxsim_trace_count(t) : -1, 1);
    mxsim_trace_free(t);
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

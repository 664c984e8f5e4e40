/* test_cost.c - the area/energy model: node scaling against the reference table, a hand-computed
** tiny configuration and GEMM, error paths.  Expected values are written out from the sources
** (sim/doc/references.md, energy-area.md section 3), not read back from the library's table. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"

static int close_rel(double a, double b, double tol)
{
    double d = fabs(a - b), m = fmax(fabs(a), fabs(b));
    return d <= tol * (m > 0 ? m : 1);
}
#define MXT_CLOSE(a, b, tol)                                                         \
    do {                                                                             \
        double x_ = (a), y_ = (b);                                                   \
        mxt_checks++;                                                                \
        if (!close_rel(x_, y_, tol)) MXT_FAILF("%s ~ %s: %.17g != %.17g", #a, #b, x_, y_); \
    } while (0)

/* SB17 HP45 polynomial, written out here independently of the library */
static double e_hp45(double v) { return 1.018 * v * v - 0.3107 * v + 0.1539; }

MXTEST(node_scaling_is_identity_at_the_anchor)
{
    mxsim_node_scale s;
    MXT_EQ_INT(mxsim_node_scaling(NULL, 45, 0, &s), MXSIM_OK);
    MXT_CLOSE(s.vdd_v, 0.9, 0);
    MXT_CLOSE(s.area_factor, 1.0, 0);
    MXT_CLOSE(s.energy_factor, 1.0, 1e-15);
    MXT_CLOSE(s.sram_area_factor, 1.0, 0);
}

/* energy-area.md section 3: the "energy vs HP45 @1.0 V" column, 2 significant digits,
** and the area factors from 45 nm. */
MXTEST(node_scaling_matches_the_reference_table)
{
    static const struct {
        int nm;
        double v, e_vs_hp45_1v, area;
    } rows[] = {{32, 0.9, 0.53, 0.46}, {20, 0.9, 0.23, 0.21}, {16, 0.8, 0.14, 0.19},
                {14, 0.8, 0.11, 0.17},  {7, 0.7, 0.056, 0.059}};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mxsim_node_scale s;
        MXT_EQ_INT(mxsim_node_scaling(NULL, rows[i].nm, rows[i].v, &s), MXSIM_OK);
        double vs_1v = s.energy_factor * e_hp45(0.9) / e_hp45(1.0);
        double digits = pow(10, floor(log10(rows[i].e_vs_hp45_1v)) - 1); /* 2 significant */
        MXT_CLOSE(round(vs_1v / digits) * digits, rows[i].e_vs_hp45_1v, 1e-9);
        MXT_CLOSE(s.area_factor, rows[i].area, 0);
    }
    /* 45 nm at 0.9 V vs 1.0 V: 0.81 in the table */
    MXT_CLOSE(round(100 * e_hp45(0.9) / e_hp45(1.0)) / 100, 0.81, 1e-12);
    /* the node's default Vdd is the table's: 7 nm -> 0.7 V */
    mxsim_node_scale d;
    MXT_EQ_INT(mxsim_node_scaling(NULL, 7, 0, &d), MXSIM_OK);
    MXT_CLOSE(d.vdd_v, 0.7, 0);
    /* SRAM area: 6T bitcell ratio 7 nm 0.027 / Intel 45 nm 0.346 */
    MXT_CLOSE(d.sram_area_factor, 0.027 / 0.346, 1e-12);
}

MXTEST(node_scaling_rejects_unknown_nodes_and_vdd)
{
    mxsim_ctx *ctx;
    mxsim_node_scale s;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 28, 0, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "28 nm") != NULL);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 45, 2.0, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "vdd_v") != NULL && strstr(mxsim_errmsg(ctx), "--") == NULL);
    /* NaN and negative voltages are errors, not "use the default" */
    MXT_EQ_INT(mxsim_node_scaling(ctx, 45, NAN, &s), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 45, -0.9, &s), MXSIM_E_INPUT);
    /* 22 nm is interpolated between 32 and 20: strictly between them */
    mxsim_node_scale a, b, c;
    MXT_EQ_INT(mxsim_node_scaling(ctx, 22, 0.9, &b), MXSIM_OK);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 32, 0.9, &a), MXSIM_OK);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 20, 0.9, &c), MXSIM_OK);
    MXT_TRUE(b.area_factor < a.area_factor && b.area_factor > c.area_factor);
    MXT_TRUE(b.energy_factor < a.energy_factor && b.energy_factor > c.energy_factor);
    mxsim_ctx_destroy(ctx);
}

MXTEST(unknown_constant_is_an_error_not_zero)
{
    mxsim_ctx *ctx;
    const mxsim_cost_const *c = (const mxsim_cost_const *)1;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_const_find(ctx, "flux_capacitor.energy", &c), MXSIM_E_INPUT);
    MXT_TRUE(c == NULL);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "flux_capacitor.energy") != NULL);
    MXT_EQ_INT(mxsim_cost_const_find(ctx, "mult8.energy", &c), MXSIM_OK);
    mxsim_ctx_destroy(ctx);
}

MXTEST(every_constant_has_a_source_and_an_ordered_band)
{
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        MXT_TRUE(c->source && strlen(c->source) > 8);
        MXT_TRUE(c->confidence && (c->confidence[0] == 'A' || c->confidence[0] == 'B' || c->confidence[0] == 'C'));
        MXT_TRUE(c->unit && c->unit[0]);
        MXT_TRUE(c->low <= c->value && c->value <= c->high);
        MXT_TRUE(c->value > 0);
        int known = 0; /* its component is one of the model's */
        for (int k = 0; k < MXSIM_COMP_COUNT_; k++) known |= !strcmp(c->component, mxsim_component_name((mxsim_component)k));
        MXT_TRUE(known);
    }
    /* constants quoted in the reference: Horowitz mult8 0.2 pJ / 282 um2, Aladdin register */
    const mxsim_cost_const *c;
    MXT_EQ_INT(mxsim_cost_const_find(NULL, "mult8.energy", &c), MXSIM_OK);
    MXT_CLOSE(c->value, 0.2, 0);
    MXT_EQ_INT(mxsim_cost_const_find(NULL, "mult8.area", &c), MXSIM_OK);
    MXT_CLOSE(c->value, 282, 0);
    MXT_EQ_INT(mxsim_cost_const_find(NULL, "reg.energy_per_bit", &c), MXSIM_OK);
    MXT_CLOSE(c->value, 0.009, 0);
}

/* A 2x2 array, one lane, one exponent unit per PE, fp32 accumulation, 1 KiB SRAMs, one
** dequant and one re-quantizer lane, 45 nm, 0.9 V. */
static void tiny_config(mxsim_tconfig *cfg)
{
    mxsim_tconfig_default(cfg);
    cfg->array_rows = cfg->array_cols = 2;
    cfg->pe_lanes = 1;
    cfg->load_lanes = 1;
    cfg->exp_share = MXSIM_EXP_PER_PE;
    cfg->acc_mode = MXSIM_ACC_FP32;
    cfg->operand_format = MXSIM_FMT_MXINT8;
    cfg->sram_a_kib = cfg->sram_b_kib = cfg->sram_c_kib = 1;
    cfg->dequant_lanes = cfg->requant_lanes = 1;
    cfg->clock_mhz = 1000;
}

MXTEST(area_of_a_tiny_configuration_by_hand)
{
    mxsim_tconfig cfg;
    mxsim_cost_params p;
    mxsim_area a;
    tiny_config(&cfg);
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    const double *u = a.um2[MXSIM_BAND_NOM];
    MXT_CLOSE(u[MXSIM_COMP_MULT], 4 * 282.0, 1e-15);           /* HOR14 8b mult */
    MXT_CLOSE(u[MXSIM_COMP_ADDER_TREE], 0.0, 0);               /* one lane: no tree */
    MXT_CLOSE(u[MXSIM_COMP_EXP_ADD], 4 * 36.0, 1e-15);         /* HOR14 8b add */
    MXT_CLOSE(u[MXSIM_COMP_ALIGN], 4 * 250.0, 1e-15);          /* Aladdin shifter */
    /* per PE: 32b add (137 um2) + 2 x 32b registers (5.98 um2/bit); per unit: fp32 add 4184 */
    MXT_CLOSE(u[MXSIM_COMP_ACCUM], 4 * (137.0 + 64 * 5.98) + 4 * 4184.0, 1e-14);
    MXT_CLOSE(u[MXSIM_COMP_PIPE_REG], 4 * 32 * 5.98, 1e-14);   /* 16 operand + 16 scale bits */
    MXT_CLOSE(u[MXSIM_COMP_SRAM], 3 * 8192 * 0.65, 1e-14);     /* CACTI 0.65 um2/bit */
    MXT_CLOSE(u[MXSIM_COMP_DEQUANT], 610.313 * 0.798, 1e-14);  /* rtl/ 610.313 GE x NanGate45 */
    MXT_CLOSE(u[MXSIM_COMP_REQUANT], 250 * 0.4 + 36 + 71 * 8 / 32.0, 1e-14);
    MXT_CLOSE(u[MXSIM_COMP_DRAM], 0, 0);
    MXT_CLOSE(u[MXSIM_COMP_OVERHEAD], 0, 0);
    MXT_CLOSE(a.total_mm2[MXSIM_BAND_NOM], 38467.499774e-6, 1e-12); /* summed by hand */
    /* high band: Aladdin multiplier (6350 x 1/16) and adder areas */
    MXT_CLOSE(a.um2[MXSIM_BAND_HIGH][MXSIM_COMP_MULT], 4 * 6350 / 16.0, 1e-15);
    MXT_TRUE(a.total_mm2[MXSIM_BAND_LOW] <= a.total_mm2[MXSIM_BAND_NOM]);
    MXT_TRUE(a.total_mm2[MXSIM_BAND_NOM] <= a.total_mm2[MXSIM_BAND_HIGH]);
    /* leakage: mult 4x80/16, exp adders 4x8x2.4/32, shifters 4x1.7, accumulators
    ** 4x(32x2.4/32 + 64x0.07) + 4x4184x2.4/278, pipeline 4x32x0.07, SRAM 3x3.9/8 mW,
    ** dequant 610.313x0.798x2.4/278, requant 136x2.4/278 + 0.025/4 */
    double leak_uw = 4 * 5.0 + 4 * 8 * 0.075 + 4 * 1.7 + 4 * (2.4 + 64 * 0.07) + 4 * 4184 * 0.0086331 +
                     4 * 32 * 0.07 + 3 * 487.5 + 487.029774 * 0.0086331 + 136 * 0.0086331 + 0.00625;
    MXT_CLOSE(a.leak_total_mw[MXSIM_BAND_NOM], leak_uw * 1e-3, 1e-12);
    /* a node change scales logic by SB17 and SRAM by the bitcell ratio */
    p.node_nm = 7;
    mxsim_area a7;
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a7), MXSIM_OK);
    MXT_CLOSE(a7.um2[0][MXSIM_COMP_MULT], 4 * 282.0 * 0.059, 1e-14);
    MXT_CLOSE(a7.um2[0][MXSIM_COMP_SRAM], 3 * 8192 * 0.65 * 0.027 / 0.346, 1e-14);
}

MXTEST(energy_of_a_tiny_gemm_by_hand)
{
    mxsim_tconfig cfg;
    mxsim_cost_params p;
    mxsim_area a;
    tiny_config(&cfg);
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    /* a 2x2x32 GEMM, G = 32: 128 MACs, 4 groups, 128 beats; traffic chosen by hand */
    mxsim_tstats st;
    memset(&st, 0, sizeof st);
    st.n_macs = 128;
    st.n_acc_writes = 128;
    st.n_exp_ops = 4;
    st.sram_a_rd_mant_bytes = 64;
    st.sram_a_rd_scale_bytes = 2;
    st.sram_b_rd_mant_bytes = 64;
    st.sram_b_rd_scale_bytes = 2;
    st.sram_c_wr_bytes = 16;
    st.dram_a_mant_bytes = 64;
    st.dram_a_scale_bytes = 2;
    st.dram_b_mant_bytes = 64;
    st.dram_b_scale_bytes = 2;
    st.dram_out_bytes = 16;
    st.cycles_total = 100;
    st.seconds = 100e-9;
    st.tops = 2.0 * 128 / 100e-9 / 1e12;
    mxsim_energy e;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e), MXSIM_OK);
    const double *d = e.dyn_pj[MXSIM_BAND_NOM];
    MXT_CLOSE(d[MXSIM_COMP_MULT], 25.6, 1e-15);                         /* 128 x 0.2 */
    MXT_CLOSE(d[MXSIM_COMP_ADDER_TREE], 0, 0);
    MXT_CLOSE(d[MXSIM_COMP_EXP_ADD], 0.12, 1e-15);                      /* 4 x 0.03 */
    MXT_CLOSE(d[MXSIM_COMP_ALIGN], 1.668, 1e-15);                       /* 4 x 0.417 */
    MXT_CLOSE(d[MXSIM_COMP_ACCUM], 49.664 + 4.752, 1e-14);              /* 128x32x(0.1/32+0.009) + 4x(0.9+32x0.009) */
    MXT_CLOSE(d[MXSIM_COMP_PIPE_REG], 19.008, 1e-14);                   /* (128+4) x 16 bits x 0.009 */
    MXT_CLOSE(d[MXSIM_COMP_SRAM], 350 / sqrt(8.0), 1e-14);              /* 2240 bits x 10/64 x sqrt(1/8) */
    MXT_CLOSE(d[MXSIM_COMP_DRAM], 9472.0, 1e-15);                       /* 1184 bits x 8 pJ */
    MXT_CLOSE(d[MXSIM_COMP_DEQUANT], 0, 0);
    double leak_pj = a.leak_total_mw[0] * 1e3 * 100e-9 * 1e6;
    double total = 25.6 + 0.12 + 1.668 + 54.416 + 19.008 + 350 / sqrt(8.0) + 9472 + leak_pj;
    MXT_CLOSE(e.total_pj[MXSIM_BAND_NOM], total, 1e-13);
    MXT_CLOSE(e.pj_per_mac[MXSIM_BAND_NOM], total / 128, 1e-13);
    MXT_CLOSE(e.tops_per_w[MXSIM_BAND_NOM], 256 / (total * 1e-12) / 1e12, 1e-13);
    MXT_CLOSE(e.tops_per_mm2[MXSIM_BAND_NOM], st.tops / a.total_mm2[0], 1e-13);
    /* the band: low uses HBM2 3.9 pJ/b and CACTI SRAM; high Aladdin mult and 20 pJ/b DRAM */
    MXT_CLOSE(e.dyn_pj[MXSIM_BAND_LOW][MXSIM_COMP_DRAM], 1184 * 3.9, 1e-14);
    MXT_CLOSE(e.dyn_pj[MXSIM_BAND_HIGH][MXSIM_COMP_MULT], 128 * 8.63 / 16, 1e-14);
    MXT_TRUE(e.total_pj[MXSIM_BAND_LOW] < e.total_pj[MXSIM_BAND_NOM]);
    MXT_TRUE(e.total_pj[MXSIM_BAND_NOM] < e.total_pj[MXSIM_BAND_HIGH]);
    /* an overhead factor of 1.5 adds half of the on-chip energy, not DRAM */
    p.overhead_factor = 1.5;
    mxsim_energy e2;
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e2), MXSIM_OK);
    MXT_CLOSE(e2.dyn_pj[0][MXSIM_COMP_OVERHEAD], 0.5 * (25.6 + 0.12 + 1.668 + 54.416 + 19.008 + 350 / sqrt(8.0)), 1e-13);
}

/* The timing engine's event counts for the same tiny GEMM (the energy above uses them). */
MXTEST(tiny_gemm_event_counts_from_the_timing_engine)
{
    mxsim_tconfig cfg;
    tiny_config(&cfg);
    cfg.sram_a_kib = cfg.sram_b_kib = cfg.sram_c_kib = 4;
    mxsim_top op;
    memset(&op, 0, sizeof op);
    op.kind = MXSIM_OP_GEMM;
    snprintf(op.name, sizeof op.name, "tiny");
    op.m = op.n = 2;
    op.k = 32;
    op.group_size = 32;
    op.repeat = 1;
    op.a_fmt = op.b_fmt = op.out_fmt = -1;
    mxsim_tstats st;
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_EQ_INT(mxsim_time_op(ctx, &cfg, &op, "test", 0, NULL, &st), MXSIM_OK);
    MXT_EQ_INT(st.n_macs, 128);
    MXT_EQ_INT(st.n_exp_ops, 4);
    MXT_EQ_INT(st.n_acc_writes, 128); /* one lane: 32 beats per output */
    mxsim_ctx_destroy(ctx);
}

MXTEST(energy_grows_with_sram_capacity_and_exact_accumulation)
{
    mxsim_tconfig cfg;
    mxsim_cost_params p;
    mxsim_area a;
    mxsim_energy e1, e2, e3;
    mxsim_tstats st;
    memset(&st, 0, sizeof st);
    st.n_macs = 1000;
    st.n_acc_writes = 1000;
    st.n_exp_ops = 100;
    st.sram_a_rd_mant_bytes = 1000;
    st.seconds = 1e-6;
    tiny_config(&cfg);
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e1), MXSIM_OK);
    cfg.sram_a_kib = 16;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e2), MXSIM_OK);
    MXT_TRUE(e2.dyn_pj[0][MXSIM_COMP_SRAM] > e1.dyn_pj[0][MXSIM_COMP_SRAM]);
    cfg.acc_mode = MXSIM_ACC_EXACT;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e3), MXSIM_OK);
    MXT_TRUE(e3.dyn_pj[0][MXSIM_COMP_ACCUM] > e2.dyn_pj[0][MXSIM_COMP_ACCUM]);
    p.overhead_factor = 0.5;
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_area(ctx, &cfg, &p, &a), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "overhead_factor") != NULL);
    mxsim_ctx_destroy(ctx);
}

/* Every constant names at least one citation, every key it names is in the citation table with an
** anchor in the references document, and every citation is used by a constant or by the node
** scaling (SB17 and the two bitcell sources). */
MXTEST(every_constant_cites_known_references)
{
    static const char *const scaling_refs[] = {"SB17", "WIKICHIP-SRAM", "INTEL-SRAM"};
    int used[64] = {0};
    MXT_TRUE(mxsim_cost_ref_count() > 0 && mxsim_cost_ref_count() <= 64);
    MXT_TRUE(mxsim_cost_ref_at(-1) == NULL && mxsim_cost_ref_at(mxsim_cost_ref_count()) == NULL);
    MXT_TRUE(mxsim_cost_ref_find("NOPE99") == NULL && mxsim_cost_ref_find(NULL) == NULL);
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        char keys[256];
        MXT_TRUE(c->refs != NULL && c->refs[0] != '\0' && strlen(c->refs) < sizeof keys);
        snprintf(keys, sizeof keys, "%s", c->refs);
        for (char *k = strtok(keys, " "); k; k = strtok(NULL, " ")) {
            const mxsim_cost_ref *r = mxsim_cost_ref_find(k);
            if (r == NULL) {
                MXT_FAILF("%s cites unknown key %s", c->key, k);
                continue;
            }
            used[r - mxsim_cost_ref_at(0)] = 1;
        }
    }
    for (size_t i = 0; i < sizeof scaling_refs / sizeof scaling_refs[0]; i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_find(scaling_refs[i]);
        MXT_TRUE(r != NULL);
        if (r) used[r - mxsim_cost_ref_at(0)] = 1;
    }
    for (int i = 0; i < mxsim_cost_ref_count(); i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_at(i);
        char want[64];
        int n = snprintf(want, sizeof want, "sim/doc/references.md#");
        for (size_t j = 0; r->key[j] && n + 1 < (int)sizeof want; j++) want[n++] = (char)tolower((unsigned char)r->key[j]);
        want[n] = '\0';
        if (strcmp(r->anchor, want) != 0) MXT_FAILF("%s: anchor %s, expected %s", r->key, r->anchor, want);
        if (!used[i]) MXT_FAILF("%s is cited by nothing", r->key);
        MXT_TRUE(strlen(r->citation) > 20);
    }
}

/* A failure, then a success on the same context: the message is gone.  Cost parameters not
** filled by mxsim_cost_params_default are refused with a message naming the function. */
MXTEST(cost_calls_clear_the_message_and_check_struct_size)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    const mxsim_cost_const *c = NULL;
    MXT_EQ_INT(mxsim_cost_const_find(ctx, "no.such.key", &c), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "no.such.key") != NULL);
    MXT_EQ_INT(mxsim_cost_const_find(ctx, "mult8.energy", &c), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');

    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_cost_params p;
    memset(&p, 0, sizeof p); /* every value sensible, but not from the default function */
    p.node_nm = 45;
    p.overhead_factor = 1.0;
    p.sram_bank_kib = 32;
    mxsim_area a;
    MXT_EQ_INT(mxsim_cost_area(ctx, &cfg, &p, &a), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxsim_cost_area: mxsim_cost_params.struct_size") != NULL);
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(mxsim_cost_area(ctx, &cfg, &p, &a), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');
    mxsim_tstats st;
    memset(&st, 0, sizeof st);
    p.struct_size = 0;
    MXT_EQ_INT(mxsim_cost_energy(ctx, &cfg, &p, &a, &st, &(mxsim_energy){0}), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxsim_cost_energy") != NULL);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()
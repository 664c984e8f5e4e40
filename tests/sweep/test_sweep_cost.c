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
    /* every accepted Vdd is where the node's fit rises with the supply: 65 nm's minimum is at
    ** 4.398 / (2 x 3.755) = 0.586 V (SB17's polynomial), so 0.58 V is refused there, 0.59 V taken */
    MXT_EQ_INT(mxsim_node_scaling(ctx, 65, 0.58, &s), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "65 nm") != NULL && strstr(mxsim_errmsg(ctx), "0.586") != NULL);
    MXT_EQ_INT(mxsim_node_scaling(ctx, 65, 0.59, &s), MXSIM_OK);
    static const int nodes[] = {7, 14, 16, 20, 22, 32, 45, 65};
    int n_steps = 0;
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        double prev = 0;
        for (int mv = 500; mv <= 1200; mv += 5) {
            if (mxsim_node_scaling(ctx, nodes[i], mv / 1000.0, &s) != MXSIM_OK) {
                MXT_TRUE(nodes[i] == 65 && mv < 586);
                continue;
            }
            MXT_TRUE(s.energy_factor > prev);
            prev = s.energy_factor;
            n_steps++;
        }
    }
    MXT_EQ_INT(n_steps, 8 * 141 - 18);
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
    /* The blocks of energy-area.md section 1.1, by hand for L = 1, G = 32 (DW = 17 + 5 = 22 bits),
    ** one unit per PE (no port index), latency 2.  Primitives: HOR14 adder 137/32 um2 a bit, Aladdin
    ** register 5.98 um2 a bit and comparator 71/32 um2 a bit, Aladdin 32-bit shifter 250 um2 scaled
    ** by w log2(w) / (32 x 5), 2:1 mux 2 GE x 0.798 um2 (OSU018 MUX2X1 / NAND2X1, NanGate45). */
    const double add = 137.0 / 32, reg = 5.98, cmp = 71.0 / 32, mux = 2 * 0.798;
    const double sh22 = 250.0 * 22 * 5 / 160, sh27 = 250.0 * 27 * 5 / 160, sh28 = 250.0 * 28 * 5 / 160;
    /* rounder: shifter + 5 exponent adds and 2 compares of 13 bits + a 13-bit select + 25-bit increment */
    const double rnd22 = sh22 + (5 * 13 + 25) * add + 2 * 13 * cmp + 13 * mux;
    const double rnd28 = sh28 + (5 * 13 + 25) * add + 2 * 13 * cmp + 13 * mux;
    /* the adder's front: 31-bit compare, 2 x 32 swap + 2 x 8 exponent selects, 8-bit exponent
    ** difference, 27-bit align, 28-bit add, 12-bit LSB exponent */
    const double add_front = 31 * cmp + (64 + 16) * mux + (8 + 28 + 12) * add + sh27;
    MXT_CLOSE(u[MXSIM_COMP_MULT], 4 * 282.0, 1e-15);           /* HOR14 8b mult */
    MXT_CLOSE(u[MXSIM_COMP_ADDER_TREE], 0.0, 0);               /* one lane: no tree */
    MXT_CLOSE(u[MXSIM_COMP_EXP_ADD], 4 * 36.0, 1e-15);         /* HOR14 8b add */
    MXT_CLOSE(u[MXSIM_COMP_ALIGN], 4 * (22 * add + rnd22), 1e-12); /* |d| + the term's rounder */
    /* per PE: 22-bit group-sum adder, its first-beat select and register; per unit: the fp32 add
    ** and the 32-bit accumulator */
    double accum = 4 * (22 * add + 22 * mux + 22 * reg) + 4 * (add_front + rnd28 + 32 * reg);
    MXT_CLOSE(u[MXSIM_COMP_ACCUM], accum, 1e-12);
    /* per PE: 16 operand + 16 scale + 5 valid/token bits; per unit: 2 latency stages of 33 bits,
    ** one FIFO entry of 22 + 16 bits and its 38-bit bypass select */
    double pipe = 4 * (37 * reg) + 4 * ((66 + 38) * reg + 38 * mux);
    MXT_CLOSE(u[MXSIM_COMP_PIPE_REG], pipe, 1e-12);
    MXT_CLOSE(u[MXSIM_COMP_SRAM], 3 * 8192 * 0.65, 1e-14);     /* CACTI 0.65 um2/bit */
    MXT_CLOSE(u[MXSIM_COMP_DEQUANT], 610.313 * 0.798, 1e-14);  /* rtl/ 610.313 GE x NanGate45 */
    MXT_CLOSE(u[MXSIM_COMP_REQUANT], 250 * 0.4 + 36 + 71 * 8 / 32.0, 1e-14);
    MXT_CLOSE(u[MXSIM_COMP_DRAM], 0, 0);
    MXT_CLOSE(u[MXSIM_COMP_OVERHEAD], 0, 0);
    double total = 4 * 282.0 + 4 * 36.0 + 4 * (22 * add + rnd22) + accum + pipe + 3 * 8192 * 0.65 + 610.313 * 0.798 +
                   250 * 0.4 + 36 + 71 * 8 / 32.0;
    MXT_CLOSE(a.total_mm2[MXSIM_BAND_NOM], total * 1e-6, 1e-12);
    /* high band: Aladdin multiplier (6350 x 1/16) and adder areas; the unit's add at least the
    ** published fp32 adders' 4360 um2 (Aladdin) */
    MXT_CLOSE(a.um2[MXSIM_BAND_HIGH][MXSIM_COMP_MULT], 4 * 6350 / 16.0, 1e-15);
    MXT_TRUE(a.um2[MXSIM_BAND_HIGH][MXSIM_COMP_ACCUM] >= 4 * 4360.0);
    MXT_TRUE(a.total_mm2[MXSIM_BAND_LOW] <= a.total_mm2[MXSIM_BAND_NOM]);
    MXT_TRUE(a.total_mm2[MXSIM_BAND_NOM] <= a.total_mm2[MXSIM_BAND_HIGH]);
    /* leakage: Aladdin adder 2.4/32 uW a bit, register 0.07, comparator 0.025/32, shifter 1.7 x the
    ** width factor; muxes at the density 2.4 uW / 278 um2; mult 80/16; SRAM 3.9/8 mW a KiB */
    const double dens = 0.0086331 /* 2.4 / 278, as tabled */, addl = 2.4 / 32, cmpl = 0.025 / 32;
    const double rnd22_l = 1.7 * 22 * 5 / 160 + 90 * addl + 26 * cmpl + 13 * mux * dens;
    const double rnd28_l = 1.7 * 28 * 5 / 160 + 90 * addl + 26 * cmpl + 13 * mux * dens;
    const double front_l = 31 * cmpl + 80 * mux * dens + 48 * addl + 1.7 * 27 * 5 / 160;
    double leak_uw = 4 * 5.0 + 4 * 8 * addl + 4 * (22 * addl + rnd22_l) +
                     4 * (22 * addl + 22 * mux * dens + 22 * 0.07) + 4 * (front_l + rnd28_l + 32 * 0.07) +
                     4 * 37 * 0.07 + 4 * (104 * 0.07 + 38 * mux * dens) + 3 * 487.5 + 610.313 * 0.798 * dens +
                     136 * dens + 0.025 / 4;
    MXT_CLOSE(a.leak_total_mw[MXSIM_BAND_NOM], leak_uw * 1e-3, 1e-9);
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
    st.time_us = 0.1;
    st.tops = 2.0 * 128 / 100e-9 / 1e12;
    mxsim_energy e;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e), MXSIM_OK);
    const double *d = e.dyn_pj[MXSIM_BAND_NOM];
    MXT_CLOSE(d[MXSIM_COMP_MULT], 25.6, 1e-15);                         /* 128 x 0.2 */
    MXT_CLOSE(d[MXSIM_COMP_ADDER_TREE], 0, 0);
    MXT_CLOSE(d[MXSIM_COMP_EXP_ADD], 0.12, 1e-15);                      /* 4 x 0.03 */
    MXT_CLOSE(d[MXSIM_COMP_ALIGN], 1.668, 1e-15);                       /* 4 x 0.417 */
    MXT_CLOSE(d[MXSIM_COMP_ACCUM], 34.144 + 4.752, 1e-14);              /* 128x22x(0.1/32+0.009) + 4x(0.9+32x0.009): DW = 17 + log2 32 */
    MXT_CLOSE(d[MXSIM_COMP_PIPE_REG], 19.008, 1e-14);                   /* (128+4) x 16 bits x 0.009 */
    MXT_CLOSE(d[MXSIM_COMP_SRAM], 350 / sqrt(8.0), 1e-14);              /* 2240 bits x 10/64 x sqrt(1/8) */
    MXT_CLOSE(d[MXSIM_COMP_DRAM], 9472.0, 1e-15);                       /* 1184 bits x 8 pJ */
    MXT_CLOSE(d[MXSIM_COMP_DEQUANT], 0, 0);
    double leak_pj = a.leak_total_mw[0] * 1e3 * 100e-9 * 1e6;
    double total = 25.6 + 0.12 + 1.668 + 38.896 + 19.008 + 350 / sqrt(8.0) + 9472 + leak_pj;
    MXT_CLOSE(e.total_pj[MXSIM_BAND_NOM], total, 1e-13);
    MXT_CLOSE(e.pj_per_mac[MXSIM_BAND_NOM], total / 128, 1e-13);
    MXT_CLOSE(e.tops_per_w[MXSIM_BAND_NOM], 256 / (total * 1e-12) / 1e12, 1e-13);
    MXT_CLOSE(e.tops_per_mm2[MXSIM_BAND_NOM], st.tops / a.total_mm2[0], 1e-13);
    /* the band: low uses HBM2 3.9 pJ/b and CACTI SRAM; high Aladdin mult (1 ns row) and 20 pJ/b DRAM */
    MXT_CLOSE(e.dyn_pj[MXSIM_BAND_LOW][MXSIM_COMP_DRAM], 1184 * 3.9, 1e-14);
    MXT_CLOSE(e.dyn_pj[MXSIM_BAND_HIGH][MXSIM_COMP_MULT], 128 * 12.68 / 16, 1e-14);
    MXT_TRUE(e.total_pj[MXSIM_BAND_LOW] < e.total_pj[MXSIM_BAND_NOM]);
    MXT_TRUE(e.total_pj[MXSIM_BAND_NOM] < e.total_pj[MXSIM_BAND_HIGH]);
    /* an overhead factor of 1.5 adds half of the on-chip energy, not DRAM */
    p.overhead_factor = 1.5;
    mxsim_energy e2;
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e2), MXSIM_OK);
    MXT_CLOSE(e2.dyn_pj[0][MXSIM_COMP_OVERHEAD], 0.5 * (25.6 + 0.12 + 1.668 + 38.896 + 19.008 + 350 / sqrt(8.0)), 1e-13);
    /* the configuration's DRAM (dram.pj_per_bit > 0) replaces the cited band in every band */
    cfg.dram_pj_per_bit = 3.9;
    mxsim_energy e4;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e4), MXSIM_OK);
    for (int b = 0; b < MXSIM_N_BANDS; b++) MXT_CLOSE(e4.dyn_pj[b][MXSIM_COMP_DRAM], 1184 * 3.9, 1e-12);
    cfg.dram_pj_per_bit = 0;
    /* K padded to twice its length (K = 16 at G = 32): the multipliers issue 256 MACs and spend
    ** their energy, but the work done is 128 MACs: pJ/MAC and TOPS/W count the useful ones */
    p.overhead_factor = 1.0;
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    st.n_macs_issued = 256;
    mxsim_energy e3;
    MXT_EQ_INT(mxsim_cost_energy(NULL, &cfg, &p, &a, &st, &e3), MXSIM_OK);
    MXT_CLOSE(e3.dyn_pj[MXSIM_BAND_NOM][MXSIM_COMP_MULT], 51.2, 1e-15); /* 256 x 0.2 */
    /* + 128 multiplies x 0.2, 128 tree adds x 16 bits x 0.1/32, 128 x 16 operand-register bits x 0.009 */
    const double total3 = total + 25.6 + 6.4 + 18.432;
    MXT_CLOSE(e3.total_pj[MXSIM_BAND_NOM], total3, 1e-13);
    MXT_CLOSE(e3.pj_per_mac[MXSIM_BAND_NOM], total3 / 128, 1e-13);
    MXT_CLOSE(e3.tops_per_w[MXSIM_BAND_NOM], 256 / (total3 * 1e-12) / 1e12, 1e-13);
}

/* The block split (energy-area.md section 1.1): a unit shared by the 2 PEs of a row (port index
** 1 bit), register bits and port selects counted by hand; the array's components are the blocks
** times their instances. */
MXTEST(blocks_of_a_shared_unit_by_hand)
{
    mxsim_tconfig cfg;
    mxsim_cost_params p;
    mxsim_blocks b;
    mxsim_area a;
    tiny_config(&cfg);
    cfg.exp_share = MXSIM_EXP_PER_ROW; /* 2 units of 2 PEs */
    mxsim_cost_params_default(&p);
    MXT_EQ_INT(mxsim_cost_blocks(NULL, &cfg, &p, &b), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_area(NULL, &cfg, &p, &a), MXSIM_OK);
    MXT_CLOSE(b.n_pe, 4, 0);
    MXT_CLOSE(b.n_eu, 2, 0);
    /* PE, L 1, G 32: 16 operand + 16 scale + 5 valid/token + 22 group-sum bits */
    MXT_CLOSE(b.pe_reg_bits, 59, 0);
    /* unit: 2 x 32 accumulator bits + 2 stages x (1 + 1 + 32) + 2 FIFO entries x (1 + 22 + 16) */
    MXT_CLOSE(b.eu_reg_bits, 64 + 68 + 78, 0);
    MXT_CLOSE(b.eu_um2[MXSIM_BAND_NOM][MXSIM_EU_REGS], 210 * 5.98, 1e-14);
    /* bypass select 39 bits + one extra 2:1 level on {d, E_A, E_B} (38), the FIFO read (39) and the
    ** accumulator read (32) */
    MXT_CLOSE(b.eu_um2[MXSIM_BAND_NOM][MXSIM_EU_PORT_MUX], (39 + 38 + 39 + 32) * 2 * 0.798, 1e-14);
    MXT_CLOSE(b.pe_um2[MXSIM_BAND_NOM][MXSIM_PE_MULT], 282, 0);
    MXT_CLOSE(a.um2[MXSIM_BAND_NOM][MXSIM_COMP_MULT], b.n_pe * b.pe_um2[MXSIM_BAND_NOM][MXSIM_PE_MULT], 1e-15);
    double blocks = b.n_pe * b.pe_total_um2[MXSIM_BAND_NOM] + b.n_eu * b.eu_total_um2[MXSIM_BAND_NOM];
    double comps = 0;
    for (int c = MXSIM_COMP_MULT; c <= MXSIM_COMP_PIPE_REG; c++) comps += a.um2[MXSIM_BAND_NOM][c];
    MXT_CLOSE(comps, blocks, 1e-13);
    /* the high band's unit add is at least the published three-stage fp32 adder */
    MXT_TRUE(b.eu_um2[MXSIM_BAND_HIGH][MXSIM_EU_ADD_FRONT] + b.eu_um2[MXSIM_BAND_HIGH][MXSIM_EU_ADD_ROUND] >= 4360);
    MXT_TRUE(!strcmp(mxsim_pe_part_name(MXSIM_PE_TREE), "adder_tree") && mxsim_pe_part_name(-1) == NULL);
    MXT_TRUE(!strcmp(mxsim_eu_part_name(MXSIM_EU_PORT_MUX), "port_muxes") && mxsim_eu_part_name(99) == NULL);
    /* the exact accumulator has no split */
    cfg.acc_mode = MXSIM_ACC_EXACT;
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_blocks(ctx, &cfg, &p, &b), MXSIM_E_INPUT);
    mxsim_ctx_destroy(ctx);
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
    st.time_us = 1.0;
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
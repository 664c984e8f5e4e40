/* cost.c - area and energy model of the accelerator (sim/doc/energy-area.md).
**
** Modelled: per component (multipliers, adder trees, exponent adders, alignment shifters,
** accumulators, pipeline registers, SRAM, DRAM, dequant unit, re-quantizer, control/wiring) the
** area and leakage of the instances a configuration implies, and the dynamic energy of the events
** the timing engine counts (mxsim_tstats): E = sum events x energy/event + leakage x time.
** Every constant sits in k_consts[] with its source, node, Vdd, confidence and the keys of its
** citations (k_refs[], sim/doc/references.md); the code holds no other numbers than width rules
** (operand bits, adder-tree widths).  Each cost is computed for three bands: nominal, low and
** high, where the sources disagree (e.g. Horowitz vs Aladdin multiplier energy).
** Scaling from the 45 nm / 0.9 V anchor follows Stillmaker & Baas 2017 (logic area factor,
** energy polynomial; also applied to leakage power) and a 6T bitcell table for SRAM area.
** The processing element and the shared-exponent unit are built as sums of parts from cited
** primitives (mxsim_cost_blocks, energy-area.md section 1.1); rtl_pe_area_check compares them with
** a synthesis of rtl/src.  Energy counts, per beat, an add and a register write of the group sum at
** the width the area sizes it (DW = 17 + ceil(log2 G) bits; plain int8: PSUM_BITS), and one fp32 add
** per group (fpadd32.energy).
** Ignored: data-dependent switching (zero gating, operand reuse discounts), clock tree and wires
** beyond the explicit overhead factor, DRAM background power, SRAM bank conflicts.
*/
#include <math.h>
#include <string.h>

#include "internal.h"

/* Width rules (not sourced numbers): an int8 x int8 product is 16 bits; a PE's adder tree over
** L products grows by ceil(log2 L) bits; partial sums and fp32 accumulators are 32 bits; the
** exact accumulator is the contract's 640-bit register (sim/doc/numerics.md section 4). */
#define PRODUCT_BITS 16
#define PSUM_BITS 32 /* a plain int8 PE's partial sum (MXINT8: the DW-bit group sum below) */
#define EXACT_ACC_BITS 640
#define OPERAND_REG_BITS 16 /* one mantissa of A and one of B per lane */
#define SCALE_REG_BITS 16   /* the two scale bytes of the group in flight */
/* The PE and exponent-unit blocks (energy-area.md section 1.1; the RTL in rtl/src implements the
** same structure).  Width rules of the arithmetic contract (numerics.md section 4), not sourced
** numbers: a product is in [-16256, 16384], so a group of G products needs DW = 17 + ceil(log2 G)
** bits (GSUM_BASE_BITS + ceil_log2 G); binary32 has 32 bits, a 24-bit significand (+1 for the
** rounding carry), 8 exponent bits, 31 magnitude bits; the adder keeps 3 bits below the
** significand (27 aligned bits, a 28-bit sum); the rounder's exponent arithmetic is 13 bits signed
** (E_A + E_B - 266 in [-266, 244] plus a leading-one position below 2^6). */
#define GSUM_BASE_BITS 17
#define PE_CTRL_BITS 5      /* beat token, A valid, first beat, last beat, B valid */
#define FP32_BITS 32
#define FP_MAG_BITS 31
#define FP_EXP_BITS 8
#define FP_SIG_ROUND_BITS 25
#define FP_ALIGN_BITS 27
#define FP_SUM_BITS 28
#define FP_LSB_EXP_BITS 12  /* the adder's exponent of A's LSB, e_A - 153 */
#define RND_EXP_BITS 13
#define RND_EXP_ADDS 5      /* leading-one + LSB exponent, - 23, shift amount, + 149, + rounding carry */
#define RND_EXP_CMPS 2      /* subnormal floor (max with -149), overflow (field >= 255) */
#define SHIFTER_REF_BITS 32 /* shift32.area: 32 bits, 5-bit amount */
#define SHIFTER_REF_AMOUNT_BITS 5

/* The constants table.  value/low/high at node_nm (40 nm Aladdin and CACTI data are used as
** 45 nm without interpolation; node_nm keeps 40 so the choice stays visible).  REFS() marks the
** citation keys so tests/docs/self_contained.sh can find them in the source as well. */
#define REFS(keys) keys
static const mxsim_cost_const k_consts[] = {
    /* ---- energy per event ---- */
    {"mult8.energy", "multipliers", "int8 x int8 multiply, per MAC", "pJ", 0.2, 0.2, 0.7925, 45, 0.9,
     "HOR14 ISSCC'14 energy table, 8b mult; high ALADDIN40 32x32 mult 12.68 pJ @1ns (the 1 GHz row, as the "
     "adder's high and every leakage; the old plug-in's 5 ns default row is 8.63 pJ)", "A/B",
     "nominal HOR14; high = 12.68 x (8/32)^2, Accelergy's quadratic width rule", REFS("HOR14 HAN16 ALADDIN40 ACCELERGY")},
    {"add.energy_per_bit", "adder_trees", "integer add, per result bit", "pJ/bit", 0.003125, 0.002678125,
     0.0065625, 45, 0.9,
     "HOR14 32b add 0.1 pJ; low ALADDIN40 32b adder 0.0857 pJ @>=2ns; high ALADDIN40 0.21 pJ @1ns", "A",
     "each / 32 bits (adders linear in width, energy-area.md section 1)", REFS("HOR14 HAN16 ALADDIN40")},
    {"exp_add8.energy", "exponent_adders", "8b shared-exponent add, per group", "pJ", 0.03, 0.021425, 0.0525,
     45, 0.9, "HOR14 8b add 0.03 pJ; band ALADDIN40 32b adder x 8/32 (0.0857, 0.21 pJ)", "A/B",
     "band linear in width", REFS("HOR14 ALADDIN40")},
    {"shift32.energy", "alignment_shifters", "32b alignment shift, per group", "pJ", 0.417, 0.417, 0.417, 40,
     0.9, "ALADDIN40 shifter 32b 1 stage @1ns (hwcomponents-library)", "A", "as published", REFS("ALADDIN40")},
    {"fpadd32.energy", "accumulators", "fp32 accumulate, per group", "pJ", 0.9, 0.9, 0.9, 45, 0.9,
     "HOR14 32b FP add", "A/B", "as published", REFS("HOR14")},
    {"reg.energy_per_bit", "pipeline_registers", "register write, per bit", "pJ/bit", 0.009, 0.009, 0.009, 40,
     0.9, "ALADDIN40 register per bit", "A", "as published", REFS("ALADDIN40")},
    {"sram.energy_per_bit_8kib", "sram", "SRAM access of an 8 KiB macro, per bit", "pJ/bit", 0.15625,
     0.0821875, 0.15625, 45, 0.9,
     "HOR14 SRAM read 64b 8KB 10 pJ; low CACTI7-ACCELERGY 40nm 8KB read 5.26 pJ/64b", "A",
     "per bit = /64; x sqrt(C / 8 KiB) for a macro of C (HOR14 fit, energy-area.md section 1, C)", REFS("HOR14 CACTI7-ACCELERGY")},
    {"dram.energy_per_bit", "dram", "DRAM transfer, per bit", "pJ/bit", 8.0, 3.9, 20.0, 0, 0,
     "ACC-CACTI-DRAM LPDDR4 8 pJ/b (Accelergy's value, no primary source); low HBM2 3.9 pJ/b (O'Connor, Chatterjee "
     "et al. MICRO'17, not re-read); high HOR14 DRAM 20 pJ/b",
     "C", "off chip: not node-scaled; high = low end of HOR14's 20-40 pJ/bit", REFS("ACC-CACTI-DRAM HOR14")},
    {"dequant.energy", "dequant_unit", "MXINT8 -> bf16 dequant, per element", "pJ", 0.2677, 0.2572, 0.3469, 45, 0.9,
     "derived: GE ratio x HOR14 add32 0.1 pJ; rtl/ mase-cuda lane 610.3 GE (reports/rtl/area.csv) / add32 228 GE "
     "(4 x YOSYS 8b adder 57 GE, linear in width); low ocp lane 586.3 GE; high YOSYS 791-GE int32->bf16 block "
     "(references.md#yosys)",
     "C", "gate-count ratio times the adder energy", REFS("HOR14 MXSIM-RTL YOSYS")},
    {"requant.energy", "requantizer", "bf16/fp32 -> MXINT8 re-quantize, per element", "pJ", 0.19680, 0.19680,
     0.19680, 45, 0.9, "derived: ALADDIN40 shifter 0.417 x (16*4)/(32*5) + HOR14 add8 0.03", "C",
     "16b shift by 4 bits (shifters ~ w log2 range) + 8b rounding add", REFS("ALADDIN40 HOR14")},
    {"cmp8.energy", "requantizer", "8b exponent compare (max-abs), per element", "pJ", 0.007375, 0.007375,
     0.007375, 40, 0.9, "ALADDIN40 32b comparator 0.0295 pJ x 8/32", "C", "linear in width", REFS("ALADDIN40")},
    /* ---- area per instance ---- */
    {"mult8.area", "multipliers", "int8 x int8 multiplier", "um2", 282, 282, 396.875, 45, 0.9,
     "area column of HOR14's table as printed by DALLY15 and HP6 Fig. 1.13 (Design Compiler, TSMC 45 nm): 8b mult "
     "282 um2; high ALADDIN40 32x32 mult 6350 um2 x (8/32)^2", "B", "high: quadratic width rule",
     REFS("DALLY15 HP6 ALADDIN40")},
    {"add.area_per_bit", "adder_trees", "integer adder, per bit", "um2/bit", 4.28125, 4.28125, 8.6875, 45, 0.9,
     "DALLY15/HP6 area column: 32b add 137 um2; high ALADDIN40 32b adder 278 um2", "B", "each / 32 bits",
     REFS("DALLY15 HP6 ALADDIN40")},
    {"exp_add8.area", "exponent_adders", "8b exponent adder", "um2", 36, 36, 69.5, 45, 0.9,
     "DALLY15/HP6 area column: 8b add 36 um2; high ALADDIN40 32b adder 278 um2 x 8/32", "B", "high linear in width",
     REFS("DALLY15 HP6 ALADDIN40")},
    {"shift32.area", "alignment_shifters", "32b alignment shifter", "um2", 250, 249.774, 250, 40, 0.9,
     "ALADDIN40 shifter (pm-tech-lib copy); low YOSYS ashr32 313 GE x 0.798 um2 = 249.8 um2 (references.md#yosys)", "A",
     "as published", REFS("ALADDIN40 YOSYS NANGATE45")},
    {"fpadd32.area", "accumulators", "fp32 adder, published (high band of the exponent unit's add)", "um2", 4184,
     4184, 4360, 45, 0.9, "DALLY15/HP6 area column: 32b FP add 4184 um2 (DesignWare); high ALADDIN40 fp_sp_add 4360 um2 (pm-tech-lib "
     "copy; a 3-stage pipelined unit: 16.7 pJ = 3 x 5.56 pJ a cycle)", "B",
     "the unit's own add is a single-cycle datapath built from the primitives (energy-area.md section 1.1); "
     "these published units bound it from above", REFS("DALLY15 HP6 ALADDIN40")},
    {"mux2.area_per_bit", "accumulators", "2:1 multiplexer, per bit", "um2/bit", 1.596, 1.596, 1.596, 45, 0.9,
     "OSU018 MUX2X1 48 um2 / NAND2X1 24 um2 = 2 GE (qflow-tech-osu018 liberty) x NANGATE45 NAND2_X1 0.798 um2",
     "C", "cell-area ratio to NAND2 times the 45 nm NAND2 (references.md#osu018, #nangate45)",
     REFS("OSU018 NANGATE45")},
    {"reg.area_per_bit", "pipeline_registers", "register, per bit", "um2/bit", 5.98, 5.98, 5.98, 40, 0.9,
     "ALADDIN40 register per bit", "A", "as published", REFS("ALADDIN40")},
    {"sram.area_per_bit", "sram", "SRAM macro, per bit", "um2/bit", 0.65, 0.62, 0.73, 40, 0.9,
     "CACTI7-ACCELERGY 40nm: 8KB 0.65, 100KB 0.62, 448B 0.73 um2/bit", "A", "macro area incl. periphery", REFS("CACTI7-ACCELERGY")},
    /* the unit's own RTL (rtl/src/mx_dequant.v) synthesized */
    {"dequant.area", "dequant_unit", "MXINT8 -> bf16 dequantizer lane (rtl/, 4-stage pipeline)", "um2",
     487.029774, 467.868198, 567.964031, 45, 0.9,
     "yosys 0.23 + ge.lib, rtl/src/mx_dequant.v 32 lanes, depth 4, G 32 (reports/rtl/area.csv): mase-cuda "
     "610.313 GE/lane; low ocp 586.301; high transistors/4 711.734 GE x NANGATE45 0.798 um2/GE", "C",
     "GE x 0.798 um2 (references.md#nangate45); rtl_area_check keeps 1..32 lanes within +-25%", REFS("MXSIM-RTL YOSYS OSU018 NANGATE45")},
    {"requant.area", "requantizer", "re-quantizer lane (16b shifter + 8b add)", "um2", 136, 136, 136, 45, 0.9,
     "derived: ALADDIN40 shifter 250 um2 x 0.4 + DALLY15/HP6 8b add 36 um2", "C", "shifters ~ w log2 range",
     REFS("ALADDIN40 DALLY15 HP6")},
    {"cmp8.area", "requantizer", "8b comparator", "um2", 17.75, 17.75, 17.75, 40, 0.9,
     "ALADDIN40 32b comparator 71 um2 x 8/32", "C", "linear in width", REFS("ALADDIN40")},
    /* ---- leakage ---- */
    {"mult8.leak", "multipliers", "int8 multiplier leakage", "uW", 5.0, 5.0, 5.0, 40, 0.9,
     "ALADDIN40 32x32 mult 80 uW x (8/32)^2", "C", "quadratic width rule", REFS("ALADDIN40")},
    {"add.leak_per_bit", "adder_trees", "adder leakage, per bit", "uW/bit", 0.075, 0.075, 0.075, 40, 0.9,
     "ALADDIN40 32b adder 2.4 uW / 32", "A", "linear in width", REFS("ALADDIN40")},
    {"reg.leak_per_bit", "pipeline_registers", "register leakage, per bit", "uW/bit", 0.07, 0.07, 0.07, 40, 0.9,
     "ALADDIN40 register per bit", "A", "as published", REFS("ALADDIN40")},
    {"shift32.leak", "alignment_shifters", "32b shifter leakage", "uW", 1.7, 1.7, 1.7, 40, 0.9,
     "ALADDIN40 shifter", "A", "as published", REFS("ALADDIN40")},
    {"cmp8.leak", "requantizer", "8b comparator leakage", "uW", 0.00625, 0.00625, 0.00625, 40, 0.9,
     "ALADDIN40 32b comparator 0.025 uW x 8/32", "C", "linear in width", REFS("ALADDIN40")},
    {"logic.leak_per_um2", "accumulators", "leakage density of unsourced blocks", "uW/um2", 0.0086331,
     0.0086331, 0.0086331, 40, 0.9, "ALADDIN40 32b adder 2.4 uW / 278 um2", "C",
     "area x density for blocks without a published leakage: the dequantizer and re-quantizer lanes, every "
     "multiplexer bit, the exponent unit's fp add floor (high band)", REFS("ALADDIN40")},
    {"sram.leak_per_kib", "sram", "SRAM leakage, per KiB", "mW/KiB", 0.4875, 0.4875, 0.4875, 40, 0.9,
     "CACTI7-ACCELERGY 40nm 8KB macro 3.9 mW standby (ITRS-HP cells)", "A",
     "3.9 mW / 8; pessimistic (HP cells), references.md#cacti7-accelergy", REFS("CACTI7-ACCELERGY")},
};
#define N_CONSTS ((int)(sizeof k_consts / sizeof k_consts[0]))

/* The citations the constants and the node scaling rest on: key, anchor in the references
** document, full citation (sim/doc/references.md gives the rows each constant uses). */
#define REF_DOC "sim/doc/references.md#"
static const mxsim_cost_ref k_refs[] = {
    {"HOR14", REF_DOC "hor14",
     "M. Horowitz, \"1.1 Computing's energy problem (and what we can do about it)\", ISSCC 2014, pp. 10-14, "
     "doi:10.1109/ISSCC.2014.6757323; energy-per-operation table, 45 nm, 0.9 V"},
    {"DALLY15", REF_DOC "dally15",
     "W. J. Dally, \"High-Performance Hardware for Machine Learning\", NIPS 2015 tutorial; reproduces HOR14 "
     "with an area column (45 nm), the source of the areas labelled DALLY15/HP6"},
    {"HP6", REF_DOC "hp6",
     "J. L. Hennessy, D. A. Patterson, \"Computer Architecture: A Quantitative Approach\", 6th ed., Morgan "
     "Kaufmann, 2019, ISBN 978-0-12-811905-1, Fig. 1.13: energy and area per operation, synthesized with "
     "Design Compiler in TSMC 45 nm (FP units from DesignWare)"},
    {"HAN16", REF_DOC "han16",
     "S. Han et al., \"EIE: Efficient Inference Engine on Compressed Deep Neural Network\", ISCA 2016, "
     "arXiv:1602.01528; energy/area table attributed to HOR14, 45 nm"},
    {"ALADDIN40", REF_DOC "aladdin40",
     "Y. S. Shao, B. Reagen, G.-Y. Wei, D. Brooks, \"Aladdin: A Pre-RTL, Power-Performance Accelerator "
     "Simulator...\", ISCA 2014, doi:10.1109/ISCA.2014.6853196; TSMC 40 nm primitives as shipped in "
     "accelergy-aladdin-plug-in data/*.csv and hwcomponents-library aladdin.py"},
    {"ACCELERGY", REF_DOC "accelergy",
     "Y. N. Wu, J. S. Emer, V. Sze, \"Accelergy: An Architecture-Level Energy Estimation Methodology for "
     "Accelerator Designs\", ICCAD 2019; width-scaling rules of its plug-ins"},
    {"CACTI7-ACCELERGY", REF_DOC "cacti7-accelergy",
     "R. Balasubramonian et al., \"CACTI 7: New Tools for Interconnect Exploration in Innovative Off-Chip "
     "Memories\", ACM TACO 14(2), 2017; 40 nm ITRS-HP output stored in accelergy-cacti-plug-in "
     "cacti/out.csv"},
    {"ACC-CACTI-DRAM", REF_DOC "acc-cacti-dram",
     "DRAM pJ/bit of accelergy-cacti-plug-in cacti_wrapper.py (DRAM_estimate_energy, commit 9cf48b12): LPDDR4 8 (the wrapper's only source for it: "
     "\"public data\"; no primary source); LPDDR 40 and DDR3 70 (K. T. Malladi et al., ISCA 2012, as the wrapper "
     "cites it); HBM2 3.9 and GDDR5 14 (\"Chatterjee et al., MICRO 2017\" in the wrapper, i.e. M. O'Connor, "
     "N. Chatterjee et al., \"Fine-Grained DRAM\", MICRO 2017; not re-read here)"},
    {"SB17", REF_DOC "sb17",
     "A. Stillmaker, B. Baas, \"Scaling equations for the accurate prediction of CMOS device performance "
     "from 180 nm to 7 nm\", Integration 58:74-81, 2017, doi:10.1016/j.vlsi.2017.02.002; area factors and "
     "energy polynomials (Table 5)"},
    {"WIKICHIP-SRAM", REF_DOC "wikichip-sram",
     "WikiChip Fuse, \"TSMC details 5 nm\": 6T bitcell areas 22..5 nm (secondary copy; 22 nm Intel, Auth et al. "
     "VLSI 2012; 14 nm Samsung, Song et al. ISSCC 2014; 7 nm TSMC, Wu et al. IEDM 2016)"},
    {"INTEL-SRAM", REF_DOC "intel-sram", "Intel 45 nm and 32 nm 6T bitcells, 0.346 and 0.171 um2: Mistry et al. IEDM 2007; Natarajan et al. "
     "IEDM 2008 (recalled, matched to the papers' titles)"},
    {"NANGATE45", REF_DOC "nangate45", "NanGate FreePDK45 Open Cell Library: NAND2_X1 0.798 um2 = 1 gate equivalent"},
    {"OSU018", REF_DOC "osu018",
     "OSU 0.18 um standard cells, Debian qflow-tech-osu018 1.3.17: areas behind rtl/scripts/ge.lib (NAND2 24 um2)"},
    {"YOSYS", REF_DOC "yosys", "Yosys Open SYnthesis Suite 0.23 with ABC (Debian 12); gate counts of small blocks"},
    {"MXSIM-RTL", REF_DOC "mxsim-rtl",
     "mxsim's rtl/src/mx_dequant.v synthesized with yosys and ge.lib: reports/rtl/area.csv, sim/doc/rtl.md"},
};
#define N_REFS ((int)(sizeof k_refs / sizeof k_refs[0]))

MXSIM_API int mxsim_cost_ref_count(void) { return N_REFS; }

MXSIM_API const mxsim_cost_ref *mxsim_cost_ref_at(int i) { return i >= 0 && i < N_REFS ? &k_refs[i] : NULL; }

MXSIM_API const mxsim_cost_ref *mxsim_cost_ref_find(const char *key)
{
    for (int i = 0; key != NULL && i < N_REFS; i++)
        if (strcmp(k_refs[i].key, key) == 0) return &k_refs[i];
    return NULL;
}

static const char *const k_comp_names[] = {
#define MX_COMP_NAME_(sym, name) name,
    MXSIM_COMPONENT_LIST(MX_COMP_NAME_)
#undef MX_COMP_NAME_
};

MXSIM_API const char *mxsim_component_name(mxsim_component c)
{
    return (int)c >= 0 && c < MXSIM_COMP_COUNT_ ? k_comp_names[c] : NULL;
}

MXSIM_API int mxsim_cost_const_count(void) { return N_CONSTS; }

MXSIM_API const mxsim_cost_const *mxsim_cost_const_at(int i)
{
    return i >= 0 && i < N_CONSTS ? &k_consts[i] : NULL;
}

MXSIM_API mxsim_status mxsim_cost_const_find(mxsim_ctx *ctx, const char *key,
                                             const mxsim_cost_const **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (key == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_cost_const_find: NULL argument");
    for (int i = 0; i < N_CONSTS; i++)
        if (strcmp(k_consts[i].key, key) == 0) {
            *out = &k_consts[i];
            return MXSIM_OK;
        }
    return mx_fail(ctx, MXSIM_E_INPUT, "cost model: unknown constant '%s' (no silent zero)", key);
}

/* Band value of a constant; an unknown key is an error, never 0. */
static mxsim_status kv(mxsim_ctx *ctx, const char *key, int band, double *v)
{
    const mxsim_cost_const *c;
    mxsim_status st = mxsim_cost_const_find(ctx, key, &c);
    if (st != MXSIM_OK) return st;
    *v = band == MXSIM_BAND_LOW ? c->low : band == MXSIM_BAND_HIGH ? c->high : c->value;
    return MXSIM_OK;
}

/* ---- node scaling ----------------------------------------------------------------------------
** SB17 (references.md#sb17): A. Stillmaker, B. Baas, Integration 58, 2017, tabulated in
** energy-area.md section 3.  Energy E(V) = a V^2 + b V + c
** (HP rows), area factors relative to 45 nm.  Bitcells: WikiChip "TSMC details 5 nm" (22..7 nm,
** B, references.md#wikichip-sram) and Intel 45/32 nm (C, references.md#intel-sram). */
typedef struct {
    int node_nm;
    double a, b, c;        /* SB17 energy polynomial */
    double area_vs_45;     /* SB17 area factor */
    double bitcell_um2;    /* 6T bitcell */
    double vdd_default_v;  /* the default Vdd column of energy-area.md section 3 */
} node_row;

static const node_row k_nodes[] = {
    {65, 3.755, -4.398, 1.975, 1.5, 0.0, 1.1},   /* SB17 65 nm; no bitcell data: logic factor */
    {45, 1.018, -0.3107, 0.1539, 1.0, 0.346, 0.9}, /* SB17 HP45; Intel 45 nm bitcell (C) */
    {32, 0.8367, -0.4341, 0.1701, 0.46, 0.171, 0.9}, /* SB17 HP32; Intel 32 nm bitcell (C) */
    {20, 0.373, -0.1582, 0.04104, 0.21, 0.0, 0.9}, /* SB17 HP20; bitcell interpolated 22..16 */
    {16, 0.2958, -0.1241, 0.03024, 0.19, 0.074, 0.8}, /* SB17 HP16; WikiChip 16 nm (no primary report) */
    {14, 0.2363, -0.09675, 0.02239, 0.17, 0.064, 0.8}, /* SB17 HP14; Samsung 14 nm (WikiChip) */
    {7, 0.1776, -0.09097, 0.02447, 0.059, 0.027, 0.7}, /* SB17 HP7; TSMC 7 nm (WikiChip) */
};
#define N_NODES ((int)(sizeof k_nodes / sizeof k_nodes[0]))
#define BITCELL_22NM_UM2 0.092 /* Intel 22 nm HD cell, via WikiChip (B; references.md#wikichip-sram) */
#define ANCHOR_NODE_NM 45
#define ANCHOR_VDD_V 0.9 /* HOR14's supply */

static const node_row *find_node(int nm)
{
    for (int i = 0; i < N_NODES; i++)
        if (k_nodes[i].node_nm == nm) return &k_nodes[i];
    return NULL;
}

static double poly_e(const node_row *r, double v) { return r->a * v * v + r->b * v + r->c; }

/* Geometric interpolation in log(node) between two rows' values (used for 22 nm, C). */
static double interp_log(double x, double x0, double y0, double x1, double y1)
{
    double t = log(x / x0) / log(x1 / x0);
    return y0 * pow(y1 / y0, t);
}

MXSIM_API mxsim_status mxsim_node_scaling(mxsim_ctx *ctx, int node_nm, double vdd_v,
                                          mxsim_node_scale *out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_node_scaling: NULL out");
    memset(out, 0, sizeof *out);
    const node_row *anchor = find_node(ANCHOR_NODE_NM);
    const node_row *r = find_node(node_nm);
    double e_anchor = poly_e(anchor, ANCHOR_VDD_V);
    if (r == NULL && node_nm != 22)
        return mx_fail(ctx, MXSIM_E_INPUT, "node_nm: %d nm is not in the Stillmaker & Baas table "
                       "(supported: 65, 45, 32, 22, 20, 16, 14, 7)", node_nm);
    /* 0 selects the node's default; NaN or a negative voltage is an error, never a default */
    if (!(vdd_v >= 0))
        return mx_fail(ctx, MXSIM_E_INPUT, "vdd_v: %g V is not a voltage (0 = the node's default)", vdd_v);
    double v = vdd_v > 0 ? vdd_v : (r ? r->vdd_default_v : 0.9);
    if (!(v >= 0.5 && v <= 1.2))
        return mx_fail(ctx, MXSIM_E_INPUT, "vdd_v: %g V is outside 0.5..1.2 V", v);
    /* a fit is used only where its energy rises with the supply: SB17's 65 nm polynomial has its
    ** minimum at 0.586 V, inside the range above (every other node's lies below 0.3 V) */
    const node_row *fits[2] = {r ? r : find_node(32), r ? NULL : find_node(20)};
    for (int i = 0; i < 2 && fits[i] != NULL; i++) {
        double v_min = -fits[i]->b / (2.0 * fits[i]->a);
        if (v < v_min)
            return mx_fail(ctx, MXSIM_E_INPUT, "vdd_v: %g V is below %.3g V, where the Stillmaker & Baas %d nm energy "
                           "fit has its minimum: below it the fit's energy would rise as the supply falls, outside "
                           "the range it describes", v, v_min, fits[i]->node_nm);
    }
    out->node_nm = node_nm;
    out->vdd_v = v;
    if (r) {
        out->area_factor = r->area_vs_45;
        out->energy_factor = poly_e(r, v) / e_anchor;
        double cell = r->bitcell_um2;
        if (node_nm == 20) cell = interp_log(20, 22, BITCELL_22NM_UM2, 16, find_node(16)->bitcell_um2);
        out->sram_area_factor = cell > 0 ? cell / anchor->bitcell_um2 : r->area_vs_45;
    } else { /* 22 nm: not an SB17 row; interpolated between 32 and 20 (confidence C) */
        const node_row *lo = find_node(32), *hi = find_node(20);
        out->area_factor = interp_log(22, 32, lo->area_vs_45, 20, hi->area_vs_45);
        out->energy_factor = interp_log(22, 32, poly_e(lo, v), 20, poly_e(hi, v)) / e_anchor;
        out->sram_area_factor = BITCELL_22NM_UM2 / anchor->bitcell_um2;
    }
    return MXSIM_OK;
}

MX_INTERNAL const char *mx_node_sram_basis(int node_nm)
{
    const node_row *r = find_node(node_nm);
    if (node_nm == 22) return "6T bitcell ratio: Intel 22 nm cell";
    if (node_nm == 20) return "6T bitcell ratio: interpolated between the 22 and 16 nm cells";
    return r && r->bitcell_um2 > 0 ? "6T bitcell ratio" : "no bitcell data: the logic area factor";
}

MXSIM_API void mxsim_cost_params_default(mxsim_cost_params *p)
{
    if (p == NULL) return;
    memset(p, 0, sizeof *p);
    p->struct_size = sizeof *p;
    p->node_nm = ANCHOR_NODE_NM;
    p->vdd_v = 0;
    p->overhead_factor = 1.0;
    p->sram_bank_kib = 32; /* buffers as 32 KiB macros (HOR14's 32 KB point; the fit spans 8 KB..1 MB) */
}

MX_INTERNAL mxsim_status mx_cost_params_check(mxsim_ctx *ctx, const char *fn, const mxsim_cost_params *p)
{
    mxsim_status st = mx_check_size(ctx, fn, "mxsim_cost_params", p->struct_size, sizeof *p);
    if (st != MXSIM_OK) return st;
    if (!(p->overhead_factor >= 1.0 && p->overhead_factor <= 10.0))
        return mx_fail(ctx, MXSIM_E_INPUT, "cost: overhead_factor %g must be in 1..10", p->overhead_factor);
    if (p->sram_bank_kib < 1 || p->sram_bank_kib > 65536)
        return mx_fail(ctx, MXSIM_E_INPUT, "cost: sram_bank_kib %lld must be in 1..65536",
                       (long long)p->sram_bank_kib);
    return MXSIM_OK;
}

static int64_t ceil_log2(int64_t x)
{
    int64_t b = 0;
    while (((int64_t)1 << b) < x) b++;
    return b;
}

static int64_t n_exp_units(const mxsim_tconfig *cfg)
{
    if (cfg->operand_format == MXSIM_FMT_INT8) return 0; /* plain int8: no shared exponents */
    if (cfg->exp_share == MXSIM_EXP_PER_ROW) return cfg->array_rows;
    if (cfg->exp_share == MXSIM_EXP_PER_COL) return cfg->array_cols;
    return cfg->array_rows * cfg->array_cols;
}

#define TRY(x)                                   \
    do {                                         \
        mxsim_status t_ = (x);                   \
        if (t_ != MXSIM_OK) return t_;           \
    } while (0)

/* ---- the PE and exponent-unit blocks (energy-area.md section 1.1) ---------------------------
** Each block is a sum of primitives; each primitive's area (and leakage) comes from one row of the
** constants table with the width rule of energy-area.md section 1: adders, registers,
** comparators and multiplexers linear in bits, shifters in w log2(range), multipliers as the
** int8 x int8 figure.  Accumulated at 45 nm; the node factor is applied by the callers. */
typedef struct {
    double mul_a, mul_l, add_a, add_l, cmp_a, cmp_l, sh_a, sh_l, mux_a, reg_a, reg_l, exp_a, fp_pub_a,
        dens_l;
} prims;

typedef struct {
    double a, l;
} al;

static mxsim_status load_prims(mxsim_ctx *ctx, int b, prims *q)
{
    double cmp8_a, cmp8_l;
    TRY(kv(ctx, "mult8.area", b, &q->mul_a));
    TRY(kv(ctx, "mult8.leak", b, &q->mul_l));
    TRY(kv(ctx, "add.area_per_bit", b, &q->add_a));
    TRY(kv(ctx, "add.leak_per_bit", b, &q->add_l));
    TRY(kv(ctx, "cmp8.area", b, &cmp8_a));
    TRY(kv(ctx, "cmp8.leak", b, &cmp8_l));
    TRY(kv(ctx, "shift32.area", b, &q->sh_a));
    TRY(kv(ctx, "shift32.leak", b, &q->sh_l));
    TRY(kv(ctx, "mux2.area_per_bit", b, &q->mux_a));
    TRY(kv(ctx, "reg.area_per_bit", b, &q->reg_a));
    TRY(kv(ctx, "reg.leak_per_bit", b, &q->reg_l));
    TRY(kv(ctx, "exp_add8.area", b, &q->exp_a));
    TRY(kv(ctx, "fpadd32.area", b, &q->fp_pub_a));
    TRY(kv(ctx, "logic.leak_per_um2", b, &q->dens_l));
    q->cmp_a = cmp8_a / 8.0;
    q->cmp_l = cmp8_l / 8.0;
    return MXSIM_OK;
}

static void p_add(al *x, const prims *q, double bits) { x->a += bits * q->add_a, x->l += bits * q->add_l; }
static void p_cmp(al *x, const prims *q, double bits) { x->a += bits * q->cmp_a, x->l += bits * q->cmp_l; }
static void p_mux(al *x, const prims *q, double bits) { x->a += bits * q->mux_a, x->l += bits * q->mux_a * q->dens_l; }
static void p_reg(al *x, const prims *q, double bits) { x->a += bits * q->reg_a, x->l += bits * q->reg_l; }
/* a barrel shifter of w bits over a w-place range, scaled from the 32-bit, 5-bit-amount figure */
static void p_shift(al *x, const prims *q, double w)
{
    double f = w * (double)ceil_log2((int64_t)w) / (SHIFTER_REF_BITS * SHIFTER_REF_AMOUNT_BITS);
    x->a += f * q->sh_a, x->l += f * q->sh_l;
}
/* normalise a W-bit magnitude and round it to binary32 (rtl/src/mx_fp32_round.v): the shifter,
** the exponent arithmetic (adds, the subnormal floor's compare and select, the overflow compare)
** and the 25-bit rounding increment.  The leading-one detector has no cited figure: not counted. */
static void p_rounder(al *x, const prims *q, double w)
{
    p_shift(x, q, w);
    p_add(x, q, RND_EXP_ADDS * RND_EXP_BITS);
    p_cmp(x, q, RND_EXP_CMPS * RND_EXP_BITS);
    p_mux(x, q, RND_EXP_BITS);
    p_add(x, q, FP_SIG_ROUND_BITS);
}

typedef struct {
    al pe[MXSIM_PE_PART_COUNT_], eu[MXSIM_EU_PART_COUNT_];
    al pe_gsum_reg;               /* the group-sum register (part of pe[REGS]) */
    al eu_acc_reg, eu_exp_add;    /* the accumulators and the scale-exponent adder (in eu[]) */
    double pe_reg_bits, eu_reg_bits;
} blocks45;

/* n_sh: PEs a unit serves; exact: the 640-bit accumulator (no RTL; the unit is the scale adder,
** a 32-bit shifter and a 640-bit adder, as before this split). */
static void build_blocks(const mxsim_tconfig *cfg, const prims *q, double n_sh, int exact, blocks45 *o)
{
    memset(o, 0, sizeof *o);
    const double L = (double)cfg->pe_lanes;
    /* MXINT8: a group-sum register of DW = 17 + ceil(log2 G) bits, emptied every group; plain int8:
    ** the PE accumulates the whole reduction in a 32-bit partial sum, whatever G is */
    const int int8 = cfg->operand_format == MXSIM_FMT_INT8;
    const double dw = int8 ? PSUM_BITS : GSUM_BASE_BITS + (double)ceil_log2(cfg->group_size);
    const double iw = (double)ceil_log2((int64_t)n_sh); /* port index */
    const double lat = (double)cfg->exp_latency_cycles;
    /* ---- PE ---- */
    o->pe[MXSIM_PE_MULT].a = L * q->mul_a, o->pe[MXSIM_PE_MULT].l = L * q->mul_l;
    p_add(&o->pe[MXSIM_PE_TREE], q, (L - 1) * (PRODUCT_BITS + (double)ceil_log2(cfg->pe_lanes)));
    p_add(&o->pe[MXSIM_PE_GSUM], q, dw);
    p_mux(&o->pe[MXSIM_PE_GSUM], q, dw);
    o->pe_reg_bits = L * OPERAND_REG_BITS + (int8 ? 0 : SCALE_REG_BITS) + PE_CTRL_BITS + dw; /* int8: no scale bytes */
    p_reg(&o->pe[MXSIM_PE_REGS], q, o->pe_reg_bits);
    p_reg(&o->pe_gsum_reg, q, dw);
    /* ---- exponent unit ---- */
    o->eu_exp_add.a = q->exp_a, o->eu_exp_add.l = FP_EXP_BITS * q->add_l;
    o->eu[MXSIM_EU_TERM_FRONT] = o->eu_exp_add;
    if (exact) {
        al *t = &o->eu[MXSIM_EU_TERM_ROUND], *a = &o->eu[MXSIM_EU_ADD_FRONT];
        t->a = q->sh_a, t->l = q->sh_l;
        p_add(a, q, EXACT_ACC_BITS);
        p_reg(&o->eu_acc_reg, q, EXACT_ACC_BITS * n_sh);
        o->eu_reg_bits = EXACT_ACC_BITS * n_sh;
        o->eu[MXSIM_EU_REGS] = o->eu_acc_reg;
        return;
    }
    p_add(&o->eu[MXSIM_EU_TERM_FRONT], q, dw);  /* |d| */
    p_rounder(&o->eu[MXSIM_EU_TERM_ROUND], q, dw);
    al *f = &o->eu[MXSIM_EU_ADD_FRONT];
    p_cmp(f, q, FP_MAG_BITS);                   /* which operand is larger */
    p_mux(f, q, 2 * FP32_BITS);                 /* swap */
    p_mux(f, q, 2 * FP_EXP_BITS);               /* subnormal exponents read as 1 */
    p_add(f, q, FP_EXP_BITS);                   /* exponent difference */
    p_shift(f, q, FP_ALIGN_BITS);               /* align the smaller operand */
    p_add(f, q, FP_SUM_BITS);                   /* add or subtract */
    p_add(f, q, FP_LSB_EXP_BITS);               /* exponent of the sum's LSB */
    p_rounder(&o->eu[MXSIM_EU_ADD_ROUND], q, FP_SUM_BITS);
    /* registers: the accumulators of the PEs served, lambda stages of {valid, port, t}, and the
    ** arbiter FIFO's entries {port, d, E_A, E_B} */
    double acc_bits = FP32_BITS * n_sh, lat_bits = lat * (1 + iw + FP32_BITS);
    double fifo_bits = n_sh * (iw + dw + 2 * FP_EXP_BITS);
    p_reg(&o->eu_acc_reg, q, acc_bits);
    o->eu_reg_bits = acc_bits + lat_bits + fifo_bits;
    p_reg(&o->eu[MXSIM_EU_REGS], q, o->eu_reg_bits);
    /* FIFO bypass select; with n_sh ports: the arriving port's {d, E_A, E_B}, the FIFO's read
    ** port and the accumulator the add reads, each an n_sh:1 select ((n_sh - 1) 2:1 per bit) */
    p_mux(&o->eu[MXSIM_EU_PORT_MUX], q, iw + dw + 2 * FP_EXP_BITS);
    p_mux(&o->eu[MXSIM_EU_PORT_MUX], q, (n_sh - 1) * ((dw + 2 * FP_EXP_BITS) + (iw + dw + 2 * FP_EXP_BITS) + FP32_BITS));
}

static double n_served(const mxsim_tconfig *cfg)
{
    if (cfg->exp_share == MXSIM_EXP_PER_ROW) return (double)cfg->array_cols;
    if (cfg->exp_share == MXSIM_EXP_PER_COL) return (double)cfg->array_rows;
    return 1;
}

static const char *const k_pe_part_names[] = {
#define MX_PE_NAME_(sym, name) name,
    MXSIM_PE_PART_LIST(MX_PE_NAME_)
#undef MX_PE_NAME_
};
static const char *const k_eu_part_names[] = {
#define MX_EU_NAME_(sym, name) name,
    MXSIM_EU_PART_LIST(MX_EU_NAME_)
#undef MX_EU_NAME_
};

MXSIM_API const char *mxsim_pe_part_name(int part)
{
    return part >= 0 && part < MXSIM_PE_PART_COUNT_ ? k_pe_part_names[part] : NULL;
}

MXSIM_API const char *mxsim_eu_part_name(int part)
{
    return part >= 0 && part < MXSIM_EU_PART_COUNT_ ? k_eu_part_names[part] : NULL;
}

/* The high band of the unit's fp32 add is at least the published adders (fpadd32.area high). */
static double add_high_floor(const prims *q, const blocks45 *k)
{
    double own = k->eu[MXSIM_EU_ADD_FRONT].a + k->eu[MXSIM_EU_ADD_ROUND].a;
    return own < q->fp_pub_a ? q->fp_pub_a - own : 0;
}

MXSIM_API mxsim_status mxsim_cost_blocks(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_cost_params *p,
                                         mxsim_blocks *out)
{
    mx_clear_err(ctx);
    if (cfg == NULL || p == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_cost_blocks: NULL argument");
    memset(out, 0, sizeof *out);
    TRY(mx_cost_params_check(ctx, "mxsim_cost_blocks", p));
    if (cfg->acc_mode == MXSIM_ACC_EXACT)
        return mx_fail(ctx, MXSIM_E_INPUT, "mxsim_cost_blocks: the exact accumulator has no block split (fp32 only)");
    TRY(mxsim_node_scaling(ctx, p->node_nm, p->vdd_v, &out->scale));
    const double sa = out->scale.area_factor;
    out->n_pe = (double)cfg->array_rows * (double)cfg->array_cols;
    out->n_eu = (double)n_exp_units(cfg);
    for (int b = 0; b < MXSIM_N_BANDS; b++) {
        prims q;
        blocks45 k;
        TRY(load_prims(ctx, b, &q));
        build_blocks(cfg, &q, n_served(cfg), 0, &k);
        if (b == MXSIM_BAND_HIGH) k.eu[MXSIM_EU_ADD_FRONT].a += add_high_floor(&q, &k);
        out->pe_reg_bits = k.pe_reg_bits;
        out->eu_reg_bits = out->n_eu > 0 ? k.eu_reg_bits : 0;
        for (int i = 0; i < MXSIM_PE_PART_COUNT_; i++) {
            out->pe_um2[b][i] = k.pe[i].a * sa;
            out->pe_total_um2[b] += out->pe_um2[b][i];
        }
        for (int i = 0; i < MXSIM_EU_PART_COUNT_ && out->n_eu > 0; i++) {
            out->eu_um2[b][i] = k.eu[i].a * sa;
            out->eu_total_um2[b] += out->eu_um2[b][i];
        }
    }
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_cost_area(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                       const mxsim_cost_params *p, mxsim_area *out)
{
    mx_clear_err(ctx);
    if (cfg == NULL || p == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_cost_area: NULL argument");
    memset(out, 0, sizeof *out);
    TRY(mx_cost_params_check(ctx, "mxsim_cost_area", p));
    TRY(mxsim_node_scaling(ctx, p->node_nm, p->vdd_v, &out->scale));
    const double sa = out->scale.area_factor, se = out->scale.energy_factor;
    const double n_pe = (double)cfg->array_rows * (double)cfg->array_cols;
    const double L = (double)cfg->pe_lanes;
    const double n_exp = (double)n_exp_units(cfg);
    const int exact = cfg->acc_mode == MXSIM_ACC_EXACT;
    const double kib = (double)(cfg->sram_a_kib + cfg->sram_b_kib + cfg->sram_c_kib);
    double *inst = out->instances;
    inst[MXSIM_COMP_MULT] = n_pe * L;
    inst[MXSIM_COMP_ADDER_TREE] = n_pe * (L - 1);
    inst[MXSIM_COMP_EXP_ADD] = n_exp;
    inst[MXSIM_COMP_ALIGN] = n_exp;
    inst[MXSIM_COMP_ACCUM] = n_pe;
    inst[MXSIM_COMP_PIPE_REG] = n_pe;
    inst[MXSIM_COMP_SRAM] = kib;
    inst[MXSIM_COMP_DEQUANT] = (double)cfg->dequant_lanes;
    inst[MXSIM_COMP_REQUANT] = (double)cfg->requant_lanes;
    for (int b = 0; b < MXSIM_N_BANDS; b++) {
        double sram_a, deq_a, rq_a, cmp_a, cmp_l, dens_l, sram_l;
        prims q;
        blocks45 k;
        TRY(load_prims(ctx, b, &q));
        TRY(kv(ctx, "sram.area_per_bit", b, &sram_a));
        TRY(kv(ctx, "dequant.area", b, &deq_a));
        TRY(kv(ctx, "requant.area", b, &rq_a));
        TRY(kv(ctx, "cmp8.area", b, &cmp_a));
        TRY(kv(ctx, "cmp8.leak", b, &cmp_l));
        TRY(kv(ctx, "logic.leak_per_um2", b, &dens_l));
        TRY(kv(ctx, "sram.leak_per_kib", b, &sram_l));
        build_blocks(cfg, &q, n_served(cfg), exact, &k);
        if (b == MXSIM_BAND_HIGH && !exact) {
            double extra = add_high_floor(&q, &k);
            k.eu[MXSIM_EU_ADD_FRONT].a += extra, k.eu[MXSIM_EU_ADD_FRONT].l += extra * q.dens_l;
        }
        double *a = out->um2[b], *l = out->leak_uw[b];
        /* areas at 45 nm first; node factors applied below.  Components from the blocks:
        ** multipliers and adder trees (PE); exponent adders (unit); alignment_shifters = the
        ** unit's term converter (|d|, normalise, round); accumulators = the PE's group-sum adder,
        ** select and register + the unit's fp32 add and accumulator registers; pipeline_registers
        ** = the PE's operand, scale and valid bits + the unit's latency stages, FIFO and port
        ** multiplexers. */
        const al *pe = k.pe, *eu = k.eu;
        double term_a = eu[MXSIM_EU_TERM_FRONT].a - k.eu_exp_add.a + eu[MXSIM_EU_TERM_ROUND].a;
        double term_l = eu[MXSIM_EU_TERM_FRONT].l - k.eu_exp_add.l + eu[MXSIM_EU_TERM_ROUND].l;
        a[MXSIM_COMP_MULT] = n_pe * pe[MXSIM_PE_MULT].a;
        l[MXSIM_COMP_MULT] = n_pe * pe[MXSIM_PE_MULT].l;
        a[MXSIM_COMP_ADDER_TREE] = n_pe * pe[MXSIM_PE_TREE].a;
        l[MXSIM_COMP_ADDER_TREE] = n_pe * pe[MXSIM_PE_TREE].l;
        a[MXSIM_COMP_EXP_ADD] = n_exp * k.eu_exp_add.a;
        l[MXSIM_COMP_EXP_ADD] = n_exp * k.eu_exp_add.l;
        a[MXSIM_COMP_ALIGN] = n_exp * term_a;
        l[MXSIM_COMP_ALIGN] = n_exp * term_l;
        a[MXSIM_COMP_ACCUM] = n_pe * (pe[MXSIM_PE_GSUM].a + k.pe_gsum_reg.a) +
                              n_exp * (eu[MXSIM_EU_ADD_FRONT].a + eu[MXSIM_EU_ADD_ROUND].a + k.eu_acc_reg.a);
        l[MXSIM_COMP_ACCUM] = n_pe * (pe[MXSIM_PE_GSUM].l + k.pe_gsum_reg.l) +
                              n_exp * (eu[MXSIM_EU_ADD_FRONT].l + eu[MXSIM_EU_ADD_ROUND].l + k.eu_acc_reg.l);
        a[MXSIM_COMP_PIPE_REG] = n_pe * (pe[MXSIM_PE_REGS].a - k.pe_gsum_reg.a) +
                                 n_exp * (eu[MXSIM_EU_REGS].a - k.eu_acc_reg.a + eu[MXSIM_EU_PORT_MUX].a);
        l[MXSIM_COMP_PIPE_REG] = n_pe * (pe[MXSIM_PE_REGS].l - k.pe_gsum_reg.l) +
                                 n_exp * (eu[MXSIM_EU_REGS].l - k.eu_acc_reg.l + eu[MXSIM_EU_PORT_MUX].l);
        a[MXSIM_COMP_DEQUANT] = inst[MXSIM_COMP_DEQUANT] * deq_a;
        l[MXSIM_COMP_DEQUANT] = a[MXSIM_COMP_DEQUANT] * dens_l;
        a[MXSIM_COMP_REQUANT] = inst[MXSIM_COMP_REQUANT] * (rq_a + cmp_a);
        l[MXSIM_COMP_REQUANT] = inst[MXSIM_COMP_REQUANT] * (rq_a * dens_l + cmp_l);
        double logic_a = 0, logic_l = 0;
        for (int c = 0; c < MXSIM_COMP_COUNT_; c++) {
            if (c == MXSIM_COMP_SRAM || c == MXSIM_COMP_DRAM || c == MXSIM_COMP_OVERHEAD) continue;
            a[c] *= sa;
            l[c] *= se;
            logic_a += a[c];
            logic_l += l[c];
        }
        a[MXSIM_COMP_SRAM] = kib * 8192.0 * sram_a * out->scale.sram_area_factor;
        l[MXSIM_COMP_SRAM] = kib * sram_l * 1000.0 * se; /* mW -> uW */
        a[MXSIM_COMP_OVERHEAD] = (p->overhead_factor - 1.0) * (logic_a + a[MXSIM_COMP_SRAM]);
        l[MXSIM_COMP_OVERHEAD] = (p->overhead_factor - 1.0) * (logic_l + l[MXSIM_COMP_SRAM]);
        double ta = 0, tl = 0;
        for (int c = 0; c < MXSIM_COMP_COUNT_; c++) {
            ta += a[c];
            tl += l[c];
        }
        out->total_mm2[b] = ta * 1e-6;
        out->leak_total_mw[b] = tl * 1e-3;
    }
    return MXSIM_OK;
}

/* SRAM energy per bit for a buffer of buf_kib: the macro is min(bank, buffer) KiB. */
static double sram_pj_per_bit(double e8k, int64_t buf_kib, int64_t bank_kib)
{
    double c_kib = (double)(buf_kib < bank_kib ? buf_kib : bank_kib);
    return e8k * sqrt(c_kib / 8.0);
}

MXSIM_API mxsim_status mxsim_cost_energy(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                         const mxsim_cost_params *p, const mxsim_area *area,
                                         const mxsim_tstats *st, mxsim_energy *out)
{
    mx_clear_err(ctx);
    if (cfg == NULL || p == NULL || area == NULL || st == NULL || out == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_cost_energy: NULL argument");
    memset(out, 0, sizeof *out);
    TRY(mx_cost_params_check(ctx, "mxsim_cost_energy", p));
    mxsim_node_scale sc;
    TRY(mxsim_node_scaling(ctx, p->node_nm, p->vdd_v, &sc));
    const double se = sc.energy_factor;
    /* multipliers see the zero padding of K too (issued MACs; stats built without the field: useful) */
    const double macs = (double)(st->n_macs_issued > st->n_macs ? st->n_macs_issued : st->n_macs);
    const double beats = (double)st->n_acc_writes;
    const double exps = (double)st->n_exp_ops;
    const double tree_bits = PRODUCT_BITS + (double)ceil_log2(cfg->pe_lanes);
    const int exact = cfg->acc_mode == MXSIM_ACC_EXACT;
    /* the group-sum register the area sizes (mxsim_cost_area): DW bits, a plain int8 PE's 32 */
    const double gsum_bits = cfg->operand_format == MXSIM_FMT_INT8 ? PSUM_BITS
                                                                   : GSUM_BASE_BITS + (double)ceil_log2(cfg->group_size);
    /* SRAM bits per buffer: reads by the array plus the fills from DRAM (A, B); C reads+writes */
    const double bits_a = 8.0 * (double)(st->sram_a_rd_mant_bytes + st->sram_a_rd_scale_bytes +
                                         st->dram_a_mant_bytes + st->dram_a_scale_bytes);
    const double bits_b = 8.0 * (double)(st->sram_b_rd_mant_bytes + st->sram_b_rd_scale_bytes +
                                         st->dram_b_mant_bytes + st->dram_b_scale_bytes);
    const double bits_c = 8.0 * (double)(st->sram_c_rd_bytes + st->sram_c_wr_bytes);
    const double dram_bits = 8.0 * (double)(st->dram_a_mant_bytes + st->dram_a_scale_bytes +
                                            st->dram_b_mant_bytes + st->dram_b_scale_bytes +
                                            st->dram_out_bytes);
    double *ev = out->events;
    ev[MXSIM_COMP_MULT] = macs;
    ev[MXSIM_COMP_ADDER_TREE] = macs - beats; /* a beat of w products needs w-1 adds */
    ev[MXSIM_COMP_EXP_ADD] = exps;
    ev[MXSIM_COMP_ALIGN] = exps;
    ev[MXSIM_COMP_ACCUM] = beats + exps;
    ev[MXSIM_COMP_PIPE_REG] = macs * OPERAND_REG_BITS + exps * SCALE_REG_BITS; /* bits written */
    ev[MXSIM_COMP_SRAM] = bits_a + bits_b + bits_c;
    ev[MXSIM_COMP_DRAM] = dram_bits;
    ev[MXSIM_COMP_DEQUANT] = (double)st->n_dequant_elems;
    ev[MXSIM_COMP_REQUANT] = (double)st->n_requant_elems;
    for (int b = 0; b < MXSIM_N_BANDS; b++) {
        double mul_e, add_e, exp_e, sh_e, fp_e, reg_e, sram_e, dram_e, deq_e, rq_e, cmp_e;
        TRY(kv(ctx, "mult8.energy", b, &mul_e));
        TRY(kv(ctx, "add.energy_per_bit", b, &add_e));
        TRY(kv(ctx, "exp_add8.energy", b, &exp_e));
        TRY(kv(ctx, "shift32.energy", b, &sh_e));
        TRY(kv(ctx, "fpadd32.energy", b, &fp_e));
        TRY(kv(ctx, "reg.energy_per_bit", b, &reg_e));
        TRY(kv(ctx, "sram.energy_per_bit_8kib", b, &sram_e));
        TRY(kv(ctx, "dram.energy_per_bit", b, &dram_e));
        if (cfg->dram_pj_per_bit > 0) dram_e = cfg->dram_pj_per_bit; /* the configuration's memory, not the band */
        TRY(kv(ctx, "dequant.energy", b, &deq_e));
        TRY(kv(ctx, "requant.energy", b, &rq_e));
        TRY(kv(ctx, "cmp8.energy", b, &cmp_e));
        double *d = out->dyn_pj[b];
        d[MXSIM_COMP_MULT] = macs * mul_e;
        d[MXSIM_COMP_ADDER_TREE] = (macs - beats) * tree_bits * add_e;
        d[MXSIM_COMP_EXP_ADD] = exps * exp_e;
        d[MXSIM_COMP_ALIGN] = exps * sh_e;
        /* per beat: group-sum add + register write (DW bits); per group: fp32 (or exact) accumulate
        ** + the 32-bit (640-bit) accumulator register write */
        double acc_e = exact ? EXACT_ACC_BITS * (add_e + reg_e) : fp_e + PSUM_BITS * reg_e;
        d[MXSIM_COMP_ACCUM] = beats * gsum_bits * (add_e + reg_e) + exps * acc_e;
        d[MXSIM_COMP_PIPE_REG] = ev[MXSIM_COMP_PIPE_REG] * reg_e;
        d[MXSIM_COMP_SRAM] = bits_a * sram_pj_per_bit(sram_e, cfg->sram_a_kib, p->sram_bank_kib) +
                             bits_b * sram_pj_per_bit(sram_e, cfg->sram_b_kib, p->sram_bank_kib) +
                             bits_c * sram_pj_per_bit(sram_e, cfg->sram_c_kib, p->sram_bank_kib);
        d[MXSIM_COMP_DEQUANT] = (double)st->n_dequant_elems * deq_e;
        d[MXSIM_COMP_REQUANT] = (double)st->n_requant_elems * rq_e + (double)st->n_maxabs_compares * cmp_e;
        double onchip = 0;
        for (int c = 0; c < MXSIM_COMP_COUNT_; c++) {
            if (c == MXSIM_COMP_DRAM || c == MXSIM_COMP_OVERHEAD) continue;
            d[c] *= se;
            onchip += d[c];
        }
        d[MXSIM_COMP_DRAM] = dram_bits * dram_e; /* off chip: not node-scaled */
        d[MXSIM_COMP_OVERHEAD] = (p->overhead_factor - 1.0) * onchip;
        double total = 0;
        for (int c = 0; c < MXSIM_COMP_COUNT_; c++) {
            /* uW x s = 1e-6 J = 1e6 pJ */
            out->leak_pj[b][c] = area->leak_uw[b][c] * st->time_us; /* uW x us = pJ */
            total += d[c] + out->leak_pj[b][c];
        }
        out->total_pj[b] = total;
        /* per USEFUL MAC: the padding's issued MACs cost energy (above) but are not work done; per
        ** issued MAC a padded op looked cheaper (G = 128 on K = 64 attention: half the pJ/MAC) */
        const double useful = (double)st->n_macs;
        out->pj_per_mac[b] = useful > 0 ? total / useful : 0;
        out->tops_per_w[b] = total > 0 ? 2.0 * useful / (total * 1e-12) / 1e12 : 0;
        out->tops_per_mm2[b] = area->total_mm2[b] > 0 ? st->tops / area->total_mm2[b] : 0;
    }
    return MXSIM_OK;
}

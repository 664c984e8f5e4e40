/* pe_area_check.c - the simulator's area model of a processing element and a shared-exponent unit
** against the synthesized RTL (sim/doc/rtl.md section 8).
**
** usage: rtl_pe_area_check PE_AREA_CSV
**
** Reads reports/rtl/pe_area.csv (rtl/scripts/synth_pe_area.sh: `ge_nand2` from yosys + ge.lib per
** block, L and G) and asks mxsim_cost_area (nominal band, 45 nm) for a 1 x 1 array with L lanes
** and a per-PE unit.  The model's components split as the RTL's blocks do:
**   PE   = multipliers + adder tree + pipeline registers + accumulators
**          - fpadd32.area (the unit's adder) - 32 x reg.area_per_bit (the fp32 accumulator
**          register, which the RTL keeps in the exponent unit);
**   unit = exponent adder + alignment shifter + fpadd32.area + 32 x reg.area_per_bit.
** Every constant is the cost table's own (sources in sim/src/sweep/cost.c); none comes from this
** synthesis.  Synthesized um2 = GE x 0.798 um2, NanGate45's NAND2_X1 (references.md#nangate45).
** Every row is printed with model / synthesis.  The CHECK (exit status) is on the per-PE cell:
** for every pe row with a per-PE exp row (NSH = 1) of the same G, |model (PE + unit) / synthesis
** (PE + unit) - 1| <= 25 %.  The blocks apart are outside that band with this flow (the PE's
** multipliers synthesize larger than the cost table's, the unit smaller than its fp32 adder
** figure): a finding reported in sim/doc/rtl.md section 8 and reports/rtl/README.md, printed
** here as "outside", not a failure.
** Exit 0 every checked cell passes, 1 a cell fails, 2 unreadable input or no cell to check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"

#define NAND2_UM2 0.798 /* NanGate45 NAND2_X1, references.md#nangate45 */
#define TOLERANCE 0.25

static int constant(mxsim_ctx *ctx, const char *key, double *v)
{
    const mxsim_cost_const *c = NULL;
    if (mxsim_cost_const_find(ctx, key, &c) != MXSIM_OK) {
        fprintf(stderr, "rtl_pe_area_check: %s\n", mxsim_errmsg(ctx));
        return 1;
    }
    *v = c->value;
    return 0;
}

/* The model's PE and unit areas (um2, 45 nm, nominal) for L lanes. */
static int model(mxsim_ctx *ctx, int lanes, int share, int rows, int cols, double *pe, double *unit,
                 double *total)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    cfg.array_rows = rows;
    cfg.array_cols = cols;
    cfg.pe_lanes = lanes;
    cfg.exp_share = share;
    cfg.acc_mode = MXSIM_ACC_FP32;
    mxsim_cost_params cp;
    mxsim_cost_params_default(&cp);
    mxsim_area a;
    double fp, reg;
    if (mxsim_cost_area(ctx, &cfg, &cp, &a) != MXSIM_OK || constant(ctx, "fpadd32.area", &fp) ||
        constant(ctx, "reg.area_per_bit", &reg))
        return 1;
    const double *u = a.um2[MXSIM_BAND_NOM], s = a.scale.area_factor;
    double n_pe = (double)rows * cols, n_u = share == MXSIM_EXP_PER_PE ? n_pe : share == MXSIM_EXP_PER_ROW ? rows : cols;
    *pe = (u[MXSIM_COMP_MULT] + u[MXSIM_COMP_ADDER_TREE] + u[MXSIM_COMP_PIPE_REG] + u[MXSIM_COMP_ACCUM]) / n_pe -
          (n_u * fp * s) / n_pe - 32 * reg * s;
    *unit = (u[MXSIM_COMP_EXP_ADD] + u[MXSIM_COMP_ALIGN]) / n_u + fp * s + 32 * reg * s * n_pe / n_u;
    *total = u[MXSIM_COMP_MULT] + u[MXSIM_COMP_ADDER_TREE] + u[MXSIM_COMP_PIPE_REG] + u[MXSIM_COMP_ACCUM] +
             u[MXSIM_COMP_EXP_ADD] + u[MXSIM_COMP_ALIGN];
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s PE_AREA_CSV\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (f == NULL) {
        fprintf(stderr, "rtl_pe_area_check: %s: cannot open (run the rtl_pe_synth test first)\n", argv[1]);
        return 2;
    }
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) {
        fclose(f);
        return 2;
    }
    char line[1024];
    int lineno = 0, n_checked = 0, n_fail = 0, bad = 0, n_pe = 0, n_exp = 0;
    struct { int l, g; double syn, model; } pes[64], exps[64];
    printf("%-6s %3s %3s %4s %5s %10s %10s %10s %9s  %s\n", "block", "L", "G", "NSH", "share", "GE", "synth um2",
           "model um2", "model/syn", "verdict");
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "block,lanes,group,", 18) != 0) {
                fprintf(stderr, "rtl_pe_area_check: %s: unexpected header\n", argv[1]);
                bad = 1;
                break;
            }
            continue;
        }
        char blk[16];
        int l, g, nsh, share;
        double ge;
        if (sscanf(line, "%15[^,],%d,%d,%*d,%d,%d,%lf", blk, &l, &g, &nsh, &share, &ge) != 6 || l < 1 || ge <= 0) {
            fprintf(stderr, "rtl_pe_area_check: %s:%d: unreadable row\n", argv[1], lineno);
            bad = 1;
            break;
        }
        double pe, unit, total, m, syn = ge * NAND2_UM2;
        int check = 0;
        if (!strcmp(blk, "pe")) {
            if (model(ctx, l, MXSIM_EXP_PER_PE, 1, 1, &pe, &unit, &total)) { bad = 1; break; }
            m = pe;
            check = 1;
        } else if (!strcmp(blk, "exp")) {
            /* a unit serving nsh PEs: a row of nsh PEs with a per-row unit */
            if (model(ctx, l, nsh == 1 ? MXSIM_EXP_PER_PE : MXSIM_EXP_PER_ROW, 1, nsh, &pe, &unit, &total)) {
                bad = 1;
                break;
            }
            m = unit;
            check = nsh == 1;
        } else { /* a 4 x 4 array */
            if (model(ctx, l, share, 4, 4, &pe, &unit, &total)) { bad = 1; break; }
            m = total;
        }
        double r = m / syn;
        int ok = r >= 1.0 - TOLERANCE && r <= 1.0 + TOLERANCE;
        if (check && !strcmp(blk, "pe") && n_pe < 64) pes[n_pe].l = l, pes[n_pe].g = g, pes[n_pe].syn = syn, pes[n_pe++].model = m;
        if (check && !strcmp(blk, "exp") && n_exp < 64) exps[n_exp].l = l, exps[n_exp].g = g, exps[n_exp].syn = syn, exps[n_exp++].model = m;
        printf("%-6s %3d %3d %4d %5d %10.1f %10.1f %10.1f %9.3f  %s\n", blk, l, g, nsh, share, ge, syn, m, r,
               check ? (ok ? "within +-25%" : "outside +-25% (block; not the check)") : "");
    }
    fclose(f);
    printf("\nper-PE cell = PE + its own exponent unit (the check):\n%-3s %3s %10s %10s %9s  %s\n", "L", "G",
           "synth um2", "model um2", "model/syn", "verdict");
    for (int i = 0; i < n_pe && !bad; i++)
        for (int j = 0; j < n_exp; j++) {
            if (exps[j].g != pes[i].g) continue;
            double syn = pes[i].syn + exps[j].syn, m = pes[i].model + exps[j].model, r = m / syn;
            int ok = r >= 1.0 - TOLERANCE && r <= 1.0 + TOLERANCE;
            n_checked++;
            n_fail += !ok;
            printf("%-3d %3d %10.1f %10.1f %9.3f  %s\n", pes[i].l, pes[i].g, syn, m, r, ok ? "ok" : "OUTSIDE +-25%");
        }
    mxsim_ctx_destroy(ctx);
    if (bad || n_checked == 0) return 2;
    printf("rtl_pe_area_check: %d per-PE cells checked, %d outside +-25%%\n", n_checked, n_fail);
    return n_fail ? 1 : 0;
}

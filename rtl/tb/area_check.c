/* area_check.c - the simulator's area model of the dequant unit against the synthesized RTL.
**
** usage: rtl_area_check AREA_CSV
**
** Reads reports/rtl/area.csv (rtl/scripts/synth_area.sh: one row per profile, LANES and pipeline
** depth, with the NAND2-equivalent count `ge_nand2` from yosys + ge.lib) and, for every row at the
** simulator's default dequant depth (dequant.depth_cycles, 4), sets dequant.lanes = LANES and
** dequant.depth_cycles = depth on the default configuration and asks mxsim_cost_area for the
** dequant unit's area (nominal band, 45 nm).  The check: |model / (GE x 0.798 um2) - 1| <= 25 %,
** 0.798 um2 being NanGate45's NAND2_X1 (sim/doc/references.md#nangate45).  Rows at other
** depths are printed, not checked: the model's dequant area has no depth term.
** Exit 0 all checked rows pass, 1 a row fails, 2 unreadable input or no row to check. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"

#define NAND2_UM2 0.798 /* NanGate45 NAND2_X1, references.md#nangate45 */
#define TOLERANCE 0.25

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s AREA_CSV\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (f == NULL) {
        fprintf(stderr, "rtl_area_check: %s: cannot open (run the rtl_synth test first)\n", argv[1]);
        return 2;
    }
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) {
        fclose(f);
        return 2;
    }
    mxsim_tconfig def;
    mxsim_tconfig_default(&def);
    mxsim_cost_params cp;
    mxsim_cost_params_default(&cp);
    char line[1024];
    int n_checked = 0, n_fail = 0, lineno = 0, bad = 0;
    printf("%-10s %5s %5s %10s %10s %12s %12s %9s  %s\n", "profile", "lanes", "depth", "GE", "GE/lane",
           "synth um2", "model um2", "model/syn", "verdict");
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        if (lineno == 1) {
            if (strncmp(line, "profile,lanes,depth,", 20) != 0) {
                fprintf(stderr, "rtl_area_check: %s: unexpected header\n", argv[1]);
                bad = 1;
                break;
            }
            continue;
        }
        char prof[32];
        int lanes, depth;
        double ge;
        if (sscanf(line, "%31[^,],%d,%d,%*d,%*d,%lf", prof, &lanes, &depth, &ge) != 4 || lanes < 1 || ge <= 0) {
            fprintf(stderr, "rtl_area_check: %s:%d: malformed row\n", argv[1], lineno);
            bad = 1;
            break;
        }
        mxsim_tconfig cfg = def;
        char kv[64];
        snprintf(kv, sizeof kv, "dequant.lanes=%d", lanes);
        mxsim_status s = mxsim_tconfig_set_kv(ctx, &cfg, kv);
        snprintf(kv, sizeof kv, "dequant.depth_cycles=%d", depth);
        if (s == MXSIM_OK) s = mxsim_tconfig_set_kv(ctx, &cfg, kv);
        mxsim_area a;
        if (s == MXSIM_OK) s = mxsim_cost_area(ctx, &cfg, &cp, &a);
        if (s != MXSIM_OK) {
            fprintf(stderr, "rtl_area_check: %s:%d: %s\n", argv[1], lineno, mxsim_errmsg(ctx));
            bad = 1;
            break;
        }
        double synth = ge * NAND2_UM2, model = a.um2[MXSIM_BAND_NOM][MXSIM_COMP_DEQUANT];
        double ratio = model / synth;
        const char *verdict = "not checked (model has no depth term)";
        if (depth == def.dequant_depth_cycles) {
            n_checked++;
            int ok = fabs(ratio - 1.0) <= TOLERANCE;
            if (!ok) n_fail++;
            verdict = ok ? "within +-25%" : "OUTSIDE +-25%";
        }
        printf("%-10s %5d %5d %10.1f %10.1f %12.1f %12.1f %+8.1f%%  %s\n", prof, lanes, depth, ge, ge / lanes,
               synth, model, 100.0 * (ratio - 1.0), verdict);
    }
    fclose(f);
    mxsim_ctx_destroy(ctx);
    if (bad) return 2;
    if (n_checked == 0) {
        fprintf(stderr, "rtl_area_check: no row at the default depth %lld to check\n",
                (long long)def.dequant_depth_cycles);
        return 2;
    }
    printf("rtl_area_check: %d rows checked at dequant.depth_cycles = %lld, %d outside +-25%%\n", n_checked,
           (long long)def.dequant_depth_cycles, n_fail);
    if (n_fail == 0) printf("*-* MXSIM PASS *-*\n");
    return n_fail ? 1 : 0;
}

/* pe_area_check.c - the simulator's area model of a processing element and a shared-exponent unit
** against a fresh synthesis of the RTL (sim/doc/rtl.md section 10).
**
** usage: rtl_pe_area_check [--nominal pe,exp] PE_AREA_CSV [DECOMP_CSV]
**
** PE_AREA_CSV: rtl/scripts/synth_pe_area.sh's output (`ge_nand2` = yosys + ge.lib NAND2
** equivalents per block, L, G, PEs per unit).  The model is mxsim_cost_blocks (45 nm; the PE and
** the unit as sums of parts, every constant from the cost table with its source, none from a
** synthesis) for the configuration the RTL block was synthesized with: L lanes, G, II 1,
** latency 2, and a unit serving NSH PEs (a 1 x NSH array sharing per row).  Synthesized um2 =
** GE x 0.798 um2, NanGate45's NAND2_X1 (references.md#nangate45).
** CHECKS (exit status), on every pe and exp row:
**   band     the synthesis inside the model's low..high band widened by 25 % on each side
**            (low / synthesis <= 1.25 and high / synthesis >= 0.75);
**   nominal  for the blocks named by --nominal (default: pe,exp), nominal model / synthesis
**            within 1 +- 25 %.  A block left out of --nominal still has its ratio printed,
**            marked "outside (not held)".  CTest holds both (--nominal pe,exp).  The PE is
**            held since its multipliers and adder tree are one radix-4 Booth / Wallace dot product
**            (rtl/src/mx_dot_booth.v); with yosys's own array multipliers it was 0.70-0.73 x at
**            L >= 4 (tb/pe_area_prebooth.csv, CTest rtl_pe_area_check_prebooth, must fail):
**            sim/doc/rtl.md section 10 and reports/rtl/README.md give the decomposition.
** Printed besides: the low and high bands, the per-PE cell (PE + its own unit) and the 4 x 4 arrays
** (model = R C PEs + their units; the arrays' controller, skew and drain logic is not modelled).
** DECOMP_CSV (rtl/scripts/pe_decompose.sh), when given: each block's synthesized components next to
** the model's parts (printed, not checked: the probes are synthesized apart).  The PE's dot product
** is compared with the model's multipliers + adder tree together (its Booth lanes have no adder of
** their own, its tree ends in the one adder: they do not map 1:1 onto the model's parts, and are
** printed with that note); the lone 8 x 8 multipliers (block mul8) against the model's one.
** Exit 0 every checked block passes, 1 a block fails, 2 unreadable input or nothing to check. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"

#define NAND2_UM2 0.798 /* NanGate45 NAND2_X1, references.md#nangate45 */
#define TOLERANCE 0.25
#define MAXROWS 64

static int blocks(mxsim_ctx *ctx, int lanes, int group, int share, int rows, int cols, mxsim_blocks *b)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    cfg.array_rows = rows;
    cfg.array_cols = cols;
    cfg.pe_lanes = lanes;
    cfg.load_lanes = lanes;
    cfg.group_size = group;
    cfg.exp_share = share;
    cfg.exp_ii_cycles = 1;
    cfg.exp_latency_cycles = 2;
    cfg.acc_mode = MXSIM_ACC_FP32;
    mxsim_cost_params cp;
    mxsim_cost_params_default(&cp);
    if (mxsim_cost_blocks(ctx, &cfg, &cp, b) != MXSIM_OK) {
        fprintf(stderr, "rtl_pe_area_check: %s\n", mxsim_errmsg(ctx));
        return 1;
    }
    return 0;
}

/* The synthesized components of one block (pe_decompose.sh) printed against the model's parts. */
static void decomposition(const char *path, const char *blk, int l, int g, int nsh, const mxsim_blocks *b)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) return;
    char line[512], cb[16], comp[64];
    int cl, cg, cn;
    double ge;
    /* synthesized component -> the model's parts it corresponds to (sim/doc/rtl.md section 10) */
    static const struct { const char *blk, *comp; int pe_parts[4], eu_parts[4]; } map[] = {
        /* the fused Booth / Wallace unit: compared as a whole with multipliers + adder tree; its
        ** lanes (no adder) and its merging tree (with the one final adder) printed against the
        ** model's multipliers (each with its own adder) and tree, which they do not map 1:1 */
        {"pe", "dot_product", {MXSIM_PE_MULT, MXSIM_PE_TREE, -1}, {-1}},
        {"pe", "booth_lanes", {MXSIM_PE_MULT, -1}, {-1}},
        {"pe", "lane_tree_and_adder", {MXSIM_PE_TREE, -1}, {-1}},
        {"pe", "group_sum_adder_select", {MXSIM_PE_GSUM, -1}, {-1}},
        {"pe", "registers_dff", {MXSIM_PE_REGS, -1}, {-1}},
        {"pe", "rest", {-1}, {-1}},
        {"exp", "term_front", {-1}, {MXSIM_EU_TERM_FRONT, -1}},
        {"exp", "term_rounder", {-1}, {MXSIM_EU_TERM_ROUND, -1}},
        {"exp", "fp32_add_front", {-1}, {MXSIM_EU_ADD_FRONT, -1}},
        {"exp", "fp32_add_rounder", {-1}, {MXSIM_EU_ADD_ROUND, -1}},
        {"exp", "registers_dff", {-1}, {MXSIM_EU_REGS, -1}},
        {"exp", "rest", {-1}, {MXSIM_EU_PORT_MUX, -1}},
    };
    while (fgets(line, sizeof line, f) != NULL) {
        if (sscanf(line, "%15[^,],%d,%d,%*d,%d,%63[^,],%lf", cb, &cl, &cg, &cn, comp, &ge) != 6) continue;
        if (strcmp(cb, blk) || cg != g || cn != nsh || (!strcmp(blk, "pe") && cl != l)) continue;
        for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
            if (strcmp(map[i].blk, blk) || strcmp(map[i].comp, comp)) continue;
            double m = 0;
            for (int k = 0; k < 4 && map[i].pe_parts[k] >= 0; k++) m += b->pe_um2[MXSIM_BAND_NOM][map[i].pe_parts[k]];
            for (int k = 0; k < 4 && map[i].eu_parts[k] >= 0; k++) m += b->eu_um2[MXSIM_BAND_NOM][map[i].eu_parts[k]];
            double s = ge * NAND2_UM2;
            const char *note = !strcmp(comp, "dot_product")           ? "  (= multipliers + adder tree)"
                               : !strcmp(comp, "booth_lanes")         ? "  (vs multipliers: not 1:1)"
                               : !strcmp(comp, "lane_tree_and_adder") ? "  (vs adder tree: not 1:1)"
                                                                      : "";
            if (s > 0)
                printf("    %-24s synth %8.1f GE %9.1f um2   model %9.1f um2   %6.3f%s\n", comp, ge, s, m, m / s, note);
            else
                printf("    %-24s synth %8.1f GE %9.1f um2   model %9.1f um2\n", comp, ge, s, m);
        }
    }
    fclose(f);
}

/* The lone 8 x 8 multipliers of the decomposition (block mul8) against the model's one multiplier
** (printed, not checked). */
static void lone_multipliers(mxsim_ctx *ctx, const char *path)
{
    mxsim_blocks b;
    FILE *f = fopen(path, "r");
    if (f == NULL || blocks(ctx, 1, 32, MXSIM_EXP_PER_PE, 1, 1, &b)) {
        if (f != NULL) fclose(f);
        return;
    }
    const double *lo = b.pe_um2[MXSIM_BAND_LOW], *nom = b.pe_um2[MXSIM_BAND_NOM], *hi = b.pe_um2[MXSIM_BAND_HIGH];
    char line[512], comp[64];
    double ge;
    int first = 1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (strncmp(line, "mul8,", 5) || sscanf(line, "mul8,%*d,%*d,%*d,%*d,%63[^,],%lf", comp, &ge) != 2) continue;
        if (first)
            printf("\none int8 x int8 multiplier (printed): model %.1f um2 (low %.1f, high %.1f)\n", nom[MXSIM_PE_MULT],
                   lo[MXSIM_PE_MULT], hi[MXSIM_PE_MULT]);
        first = 0;
        printf("    %-24s synth %8.1f GE %9.1f um2   model/syn %6.3f (low %.3f, high %.3f)\n", comp, ge,
               ge * NAND2_UM2, nom[MXSIM_PE_MULT] / (ge * NAND2_UM2), lo[MXSIM_PE_MULT] / (ge * NAND2_UM2),
               hi[MXSIM_PE_MULT] / (ge * NAND2_UM2));
    }
    fclose(f);
}

int main(int argc, char **argv)
{
    int hold_pe = 1, hold_exp = 1;
    if (argc >= 3 && !strcmp(argv[1], "--nominal")) {
        hold_pe = strstr(argv[2], "pe") != NULL;
        hold_exp = strstr(argv[2], "exp") != NULL;
        argv += 2;
        argc -= 2;
    }
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: rtl_pe_area_check [--nominal pe,exp] PE_AREA_CSV [DECOMP_CSV]\n");
        return 2;
    }
    const char *decomp = argc == 3 ? argv[2] : NULL;
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
    int lineno = 0, n_checked = 0, n_fail = 0, n_band_fail = 0, n_outside = 0, bad = 0, n_pe = 0, n_exp = 0;
    struct { int l, g; double syn, model; } pes[MAXROWS], exps[MAXROWS];
    printf("%-6s %3s %3s %4s %5s %10s %10s %10s %9s %9s %9s  %s\n", "block", "L", "G", "NSH", "share", "GE",
           "synth um2", "model um2", "model/syn", "low/syn", "high/syn", "verdict");
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
        if (sscanf(line, "%15[^,],%d,%d,%*d,%d,%d,%lf", blk, &l, &g, &nsh, &share, &ge) != 6 || l < 1 || g < 1 ||
            nsh < 1 || ge <= 0) {
            fprintf(stderr, "rtl_pe_area_check: %s:%d: unreadable row\n", argv[1], lineno);
            bad = 1;
            break;
        }
        mxsim_blocks b;
        double m[MXSIM_N_BANDS], syn = ge * NAND2_UM2;
        int is_pe = !strcmp(blk, "pe"), is_exp = !strcmp(blk, "exp");
        if (is_pe || is_exp) {
            /* a unit serving nsh PEs: a row of nsh PEs with a per-row unit */
            if (blocks(ctx, l, g, nsh == 1 ? MXSIM_EXP_PER_PE : MXSIM_EXP_PER_ROW, 1, nsh, &b)) { bad = 1; break; }
            for (int k = 0; k < MXSIM_N_BANDS; k++) m[k] = is_pe ? b.pe_total_um2[k] : b.eu_total_um2[k];
        } else { /* a 4 x 4 array */
            if (blocks(ctx, l, g, share, 4, 4, &b)) { bad = 1; break; }
            for (int k = 0; k < MXSIM_N_BANDS; k++) m[k] = b.n_pe * b.pe_total_um2[k] + b.n_eu * b.eu_total_um2[k];
        }
        double r = m[MXSIM_BAND_NOM] / syn;
        int ok = r >= 1.0 - TOLERANCE && r <= 1.0 + TOLERANCE, check = is_pe || is_exp;
        int band_ok = m[MXSIM_BAND_LOW] / syn <= 1.0 + TOLERANCE && m[MXSIM_BAND_HIGH] / syn >= 1.0 - TOLERANCE;
        int held = (is_pe && hold_pe) || (is_exp && hold_exp);
        const char *verdict = "(array: printed, not checked)";
        if (check) {
            n_checked++;
            n_band_fail += !band_ok;
            n_fail += held && !ok;
            n_outside += !ok;
            verdict = !band_ok ? "OUTSIDE THE BAND" : ok ? "ok" : held ? "OUTSIDE +-25%" : "outside +-25% (not held)";
        }
        if (is_pe && nsh == 1 && n_pe < MAXROWS)
            pes[n_pe].l = l, pes[n_pe].g = g, pes[n_pe].syn = syn, pes[n_pe++].model = m[MXSIM_BAND_NOM];
        if (is_exp && nsh == 1 && n_exp < MAXROWS)
            exps[n_exp].l = l, exps[n_exp].g = g, exps[n_exp].syn = syn, exps[n_exp++].model = m[MXSIM_BAND_NOM];
        printf("%-6s %3d %3d %4d %5d %10.1f %10.1f %10.1f %9.3f %9.3f %9.3f  %s\n", blk, l, g, nsh, share, ge, syn,
               m[MXSIM_BAND_NOM], r, m[MXSIM_BAND_LOW] / syn, m[MXSIM_BAND_HIGH] / syn,
               verdict);
        if (decomp != NULL && check) decomposition(decomp, blk, l, g, nsh, &b);
    }
    fclose(f);
    if (!bad) {
        printf("\nper-PE cell = PE + its own exponent unit (printed):\n%-3s %3s %10s %10s %9s\n", "L", "G",
               "synth um2", "model um2", "model/syn");
        for (int i = 0; i < n_pe; i++)
            for (int j = 0; j < n_exp; j++) {
                if (exps[j].g != pes[i].g) continue;
                double syn = pes[i].syn + exps[j].syn, mm = pes[i].model + exps[j].model;
                printf("%-3d %3d %10.1f %10.1f %9.3f\n", pes[i].l, pes[i].g, syn, mm, mm / syn);
            }
    }
    if (!bad && decomp != NULL) lone_multipliers(ctx, decomp);
    mxsim_ctx_destroy(ctx);
    if (bad || n_checked == 0) return 2;
    printf("rtl_pe_area_check: %d blocks; nominal outside +-25%%: %d (%d of them held: %s%s); outside the "
           "band +-25%%: %d\n", n_checked, n_outside, n_fail, hold_pe ? "pe " : "", hold_exp ? "exp" : "", n_band_fail);
    return n_fail || n_band_fail ? 1 : 0;
}

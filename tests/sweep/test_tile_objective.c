/* test_tile_objective.c - tile.objective (sim/doc/architecture.md section 11): with energy, more
** DRAM bandwidth never increases energy; each objective's choice is no worse in its own measure
** than the cycles objective's, at every technology (node, Vdd, overhead, SRAM bank) the search is
** given; and the section's worked example.  Energy is measured here with the public cost model
** (mxsim_cost_energy, nominal band) on the op's statistics, independently of the search. */
#include <stdio.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_ctx *g_ctx;

/* cycles and nominal energy (pJ) at technology p of op o on c, its tiling searched at technology
** search (NULL: mxsim_time_op, the defaults); 0 if the op does not fit */
static int measure_at(const mxsim_tconfig *c, const mxsim_top *o, const mxsim_cost_params *search,
                      const mxsim_cost_params *p, int64_t *cycles, double *pj, mxsim_tstats *out)
{
    mxsim_tstats s;
    if ((search ? mxsim_time_op_cost(g_ctx, c, search, o, "t", 0, NULL, &s) : mxsim_time_op(g_ctx, c, o, "t", 0, NULL, &s))
        != MXSIM_OK)
        return 0;
    mxsim_area a;
    mxsim_energy e;
    if (mxsim_cost_area(g_ctx, c, p, &a) != MXSIM_OK || mxsim_cost_energy(g_ctx, c, p, &a, &s, &e) != MXSIM_OK) {
        MXT_FAILF("cost: %s", mxsim_errmsg(g_ctx));
        return 0;
    }
    *cycles = s.cycles_total;
    *pj = e.total_pj[MXSIM_BAND_NOM];
    if (out) *out = s;
    return 1;
}

static int measure(const mxsim_tconfig *c, const mxsim_top *o, int64_t *cycles, double *pj, mxsim_tstats *out)
{
    mxsim_cost_params p;
    mxsim_cost_params_default(&p);
    return measure_at(c, o, NULL, &p, cycles, pj, out);
}

static int64_t pick(mxt_rng *r, int64_t lo, int64_t hi) { return lo + (int64_t)(mxt_next(r) % (uint64_t)(hi - lo + 1)); }

MXTEST(energy_objective_more_bandwidth_never_more_energy)
{
    mxt_rng r = {1414};
    int n = 0, n_viol = 0, n_cyc_viol = 0, n_differ = 0, n_worse_e = 0, n_worse_edp = 0;
    for (int it = 0; it < 400; it++) {
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 1, 16), c.array_cols = pick(&r, 1, 16), c.dataflow = pick(&r, 0, 2);
        c.pe_lanes = pick(&r, 1, 8), c.load_lanes = pick(&r, 1, 8), c.exp_share = pick(&r, 0, 2);
        c.exp_ii_cycles = pick(&r, 1, 4), c.exp_latency_cycles = pick(&r, 0, 4);
        c.sram_a_kib = pick(&r, 2, 32), c.sram_b_kib = pick(&r, 2, 32), c.sram_c_kib = pick(&r, 2, 32);
        c.dram_bw_bytes_per_cycle = (double)pick(&r, 1, 64) / 4.0;
        c.dram_latency_cycles = pick(&r, 0, 200);
        c.out_format = pick(&r, 0, 2);
        c.operand_format = pick(&r, 0, 4) == 0 ? MXSIM_FMT_INT8 : MXSIM_FMT_MXINT8;
        c.group_size = (int64_t[]){8, 16, 32}[pick(&r, 0, 2)];
        mxsim_top o = mxt_gemm_op("g", pick(&r, 1, 400), pick(&r, 1, 400), pick(&r, 1, 1024));
        mxsim_tconfig hi = c;
        hi.dram_bw_bytes_per_cycle = c.dram_bw_bytes_per_cycle * (double)pick(&r, 2, 8);
        int64_t cyc[3][2];
        double pj[3][2];
        int ok = 1;
        for (int obj = 0; obj < 3 && ok; obj++) {
            c.tile_objective = hi.tile_objective = obj;
            ok = measure(&c, &o, &cyc[obj][0], &pj[obj][0], NULL) && measure(&hi, &o, &cyc[obj][1], &pj[obj][1], NULL);
        }
        if (!ok) continue;
        n++;
        n_viol += pj[MXSIM_OBJ_ENERGY][1] > pj[MXSIM_OBJ_ENERGY][0];
        n_cyc_viol += pj[MXSIM_OBJ_CYCLES][1] > pj[MXSIM_OBJ_CYCLES][0];
        n_differ += pj[MXSIM_OBJ_ENERGY][0] != pj[MXSIM_OBJ_CYCLES][0];
        for (int b = 0; b < 2; b++) {
            n_worse_e += pj[MXSIM_OBJ_ENERGY][b] > pj[MXSIM_OBJ_CYCLES][b];
            n_worse_edp += pj[MXSIM_OBJ_EDP][b] * (double)cyc[MXSIM_OBJ_EDP][b] >
                           pj[MXSIM_OBJ_CYCLES][b] * (double)cyc[MXSIM_OBJ_CYCLES][b];
        }
    }
    printf("  %d cases; energy objective: %d violations (cycles objective: %d cases where more bandwidth "
           "costs energy); energy choice differs from the cycles choice in %d\n", n, n_viol, n_cyc_viol, n_differ);
    MXT_TRUE(n >= 250);
    MXT_EQ_INT(n_viol, 0);
    MXT_EQ_INT(n_worse_e, 0);
    MXT_EQ_INT(n_worse_edp, 0);
    MXT_TRUE(n_differ >= 10);
}

/* The worked example of architecture.md section 11.1: small.ini, one GEMM 512 x 512 x 1024.  With
** the cycles objective, raising DRAM bandwidth from 8 to 64 B/cycle moves the tiling from 128 x 64
** x 128 to 16 x 16 x 1024 (the whole K per tile, tiny m and n tiles): 6,291,456 -> 17,301,504
** operand bytes from DRAM, and more energy.  With the energy objective it keeps 128 x 64 x 128,
** and its energy falls with the shorter run (less leakage). */
/* The same at other technologies: the search costs candidates at the node, Vdd, overhead and SRAM
** bank the energy is reported at (mxsim_time_op_cost, as the sweep calls it).  Searched at the
** defaults instead (45 nm, 0.9 V), a 7 nm or 65 nm report could rise with bandwidth (an audit: 0.141
** -> 0.170 mJ at 7 nm for a GEMM 256 x 512 x 512): counted here to show the check can fail. */
MXTEST(energy_objective_at_the_reported_technology)
{
    mxt_rng r = {2718};
    int n = 0, n_viol = 0, n_viol_default = 0;
    static const int nodes[] = {7, 14, 16, 20, 22, 32, 45, 65};
    for (int it = 0; it < 300; it++) {
        mxsim_cost_params p;
        mxsim_cost_params_default(&p);
        p.node_nm = nodes[pick(&r, 0, 7)];
        p.vdd_v = pick(&r, 0, 1) ? 0.0 : (double)pick(&r, 60, 120) / 100.0;
        p.overhead_factor = (double)pick(&r, 10, 30) / 10.0;
        p.sram_bank_kib = (int64_t[]){1, 8, 32, 1024}[pick(&r, 0, 3)];
        mxsim_tconfig c;
        mxsim_tconfig_default(&c);
        c.array_rows = pick(&r, 1, 16), c.array_cols = pick(&r, 1, 16), c.dataflow = pick(&r, 0, 2);
        c.pe_lanes = pick(&r, 1, 8), c.sram_a_kib = pick(&r, 2, 32), c.sram_b_kib = pick(&r, 2, 32);
        c.sram_c_kib = pick(&r, 2, 32), c.clock_mhz = (double)pick(&r, 1, 20) * 50.0;
        c.dram_bw_bytes_per_cycle = (double)pick(&r, 1, 64) / 4.0;
        c.tile_objective = MXSIM_OBJ_ENERGY;
        mxsim_top o = mxt_gemm_op("g", pick(&r, 1, 400), pick(&r, 1, 600), pick(&r, 1, 1024));
        mxsim_tconfig hi = c;
        hi.dram_bw_bytes_per_cycle = c.dram_bw_bytes_per_cycle * (double)pick(&r, 2, 8);
        int64_t cyc[4];
        double pj[4];
        if (!measure_at(&c, &o, &p, &p, &cyc[0], &pj[0], NULL) || !measure_at(&hi, &o, &p, &p, &cyc[1], &pj[1], NULL) ||
            !measure_at(&c, &o, NULL, &p, &cyc[2], &pj[2], NULL) || !measure_at(&hi, &o, NULL, &p, &cyc[3], &pj[3], NULL))
            continue;
        n++;
        n_viol += pj[1] > pj[0];
        n_viol_default += pj[3] > pj[2];
    }
    printf("  %d cases; searched at the reported technology: %d violations; searched at the defaults: %d\n", n,
           n_viol, n_viol_default);
    MXT_TRUE(n >= 200);
    MXT_EQ_INT(n_viol, 0);
    MXT_TRUE(n_viol_default > 0);
}

MXTEST(objective_worked_example)
{
    mxsim_tconfig c;
    mxsim_tconfig_default(&c);
    if (mxsim_tconfig_load(g_ctx, &c, MXSIM_SOURCE_DIR "/workloads/configs/small.ini") != MXSIM_OK) {
        MXT_FAILF("small.ini: %s", mxsim_errmsg(g_ctx));
        return;
    }
    mxsim_top o = mxt_gemm_op("g", 512, 512, 1024);
    struct {
        int obj;
        double bw;
        int64_t cycles, tm, tn, tk, dram_ab;
    } want[] = {{MXSIM_OBJ_CYCLES, 8, 908160, 128, 64, 128, 6291456},
                {MXSIM_OBJ_CYCLES, 64, 555800, 16, 16, 1024, 17301504},
                {MXSIM_OBJ_ENERGY, 8, 908160, 128, 64, 128, 6291456},
                {MXSIM_OBJ_ENERGY, 64, 721748, 128, 64, 128, 6291456}};
    double pj[4];
    for (int i = 0; i < 4; i++) {
        c.tile_objective = want[i].obj;
        c.dram_bw_bytes_per_cycle = want[i].bw;
        int64_t cyc;
        mxsim_tstats s;
        if (!measure(&c, &o, &cyc, &pj[i], &s)) {
            MXT_FAILF("case %d: %s", i, mxsim_errmsg(g_ctx));
            return;
        }
        MXT_EQ_INT(cyc, want[i].cycles);
        MXT_EQ_INT(s.tile_m, want[i].tm);
        MXT_EQ_INT(s.tile_n, want[i].tn);
        MXT_EQ_INT(s.tile_k, want[i].tk);
        MXT_EQ_INT(s.dram_a_mant_bytes + s.dram_b_mant_bytes, want[i].dram_ab);
        MXT_EQ_INT(s.tile_objective, want[i].obj);
    }
    printf("  energy (nominal, mJ): cycles objective %.4f -> %.4f, energy objective %.4f -> %.4f\n", pj[0] * 1e-9,
           pj[1] * 1e-9, pj[2] * 1e-9, pj[3] * 1e-9);
    MXT_TRUE(pj[1] > pj[0] * 1.3); /* the cycles objective pays for the bandwidth in energy */
    MXT_TRUE(pj[3] <= pj[2] && pj[3] < pj[1]);
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

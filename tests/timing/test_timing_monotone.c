/* test_timing_monotone.c - physical monotonicity of the timing model (issue 14, item 2).
**
** Over >= 5,000 seeded random configurations x 3 random GEMMs (K often not a multiple of G, so
** padded), each "more hardware" axis is perturbed alone and cycles_total must not grow: more
** pe.lanes, pe.load_lanes, DRAM bandwidth, lower DRAM latency, more SRAM (A, B, C), per-PE
** exponent units instead of shared ones, lower exponent II and latency, more re-quantizer lanes,
** and plain int8 operands instead of MXINT8 on the same machine.  The same checks run in the
** detailed engine (cycle by cycle) on small cases, which must also equal the analytic engine.
** The expectation is a physical fact (a machine with more of a resource can always leave it
** idle), not a number derived from the engine. */
#include <math.h>
#include <stddef.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_ctx *g_ctx;

#define pick mxt_pick

/* cycles_total, or -1 if the engine refused the case (its message kept for the report). */
static int64_t cycles(const mxsim_tconfig *c, const mxsim_top *o, int detail)
{
    mxsim_tstats s;
    if (mxsim_time_op(g_ctx, c, o, "t", detail, NULL, &s) != MXSIM_OK) return -1;
    return s.cycles_total;
}

/* One "more hardware" perturbation; returns 0 when it does not apply to c. */
typedef int (*more_fn)(mxt_rng *r, mxsim_tconfig *c);

static int64_t grow(mxt_rng *r, int64_t x, int64_t hi) { return x + pick(r, 1, x) > hi ? hi : x + pick(r, 1, x); }

static int more_lanes(mxt_rng *r, mxsim_tconfig *c) { return c->pe_lanes < 1024 && (c->pe_lanes = grow(r, c->pe_lanes, 1024)); }
static int more_load(mxt_rng *r, mxsim_tconfig *c) { return c->load_lanes < 1024 && (c->load_lanes = grow(r, c->load_lanes, 1024)); }
static int more_both(mxt_rng *r, mxsim_tconfig *c)
{
    (void)r;
    if (c->pe_lanes > 512 || c->load_lanes > 512) return 0;
    c->pe_lanes *= 2, c->load_lanes *= 2;
    return 1;
}
static int more_bw(mxt_rng *r, mxsim_tconfig *c)
{
    /* rounded up to the model's 1/1024 step (any other value is refused): still more bandwidth */
    c->dram_bw_bytes_per_cycle = ceil(c->dram_bw_bytes_per_cycle * (1.0 + (double)pick(r, 1, 16) / 8.0) * 1024) / 1024;
    return c->dram_bw_bytes_per_cycle <= 65536;
}
static int less_dram_lat(mxt_rng *r, mxsim_tconfig *c) { return c->dram_latency_cycles > 0 && (c->dram_latency_cycles -= pick(r, 1, c->dram_latency_cycles), 1); }
static int more_sram_a(mxt_rng *r, mxsim_tconfig *c) { return (c->sram_a_kib = grow(r, c->sram_a_kib, 1 << 20)), 1; }
static int more_sram_b(mxt_rng *r, mxsim_tconfig *c) { return (c->sram_b_kib = grow(r, c->sram_b_kib, 1 << 20)), 1; }
static int more_sram_c(mxt_rng *r, mxsim_tconfig *c) { return (c->sram_c_kib = grow(r, c->sram_c_kib, 1 << 20)), 1; }
static int per_pe_units(mxt_rng *r, mxsim_tconfig *c)
{
    (void)r;
    if (c->exp_share == MXSIM_EXP_PER_PE) return 0;
    c->exp_share = MXSIM_EXP_PER_PE;
    return 1;
}
static int less_ii(mxt_rng *r, mxsim_tconfig *c) { return c->exp_ii_cycles > 1 && (c->exp_ii_cycles -= pick(r, 1, c->exp_ii_cycles - 1), 1); }
static int less_exp_lat(mxt_rng *r, mxsim_tconfig *c) { return c->exp_latency_cycles > 0 && (c->exp_latency_cycles -= pick(r, 1, c->exp_latency_cycles), 1); }
static int more_requant(mxt_rng *r, mxsim_tconfig *c) { return c->requant_lanes < 65536 && (c->requant_lanes = grow(r, c->requant_lanes, 65536)); }
static int plain_int8(mxt_rng *r, mxsim_tconfig *c)
{
    (void)r;
    if (c->operand_format == MXSIM_FMT_INT8) return 0;
    c->operand_format = MXSIM_FMT_INT8;
    return 1;
}

static const struct {
    const char *name;
    more_fn fn;
} k_axes[] = {{"pe.lanes", more_lanes},         {"pe.load_lanes", more_load},      {"both lanes x2", more_both},
              {"dram.bw", more_bw},             {"dram.latency", less_dram_lat},   {"sram.a", more_sram_a},
              {"sram.b", more_sram_b},          {"sram.c", more_sram_c},           {"exp.share=pe", per_pe_units},
              {"exp.ii", less_ii},              {"exp.latency", less_exp_lat},     {"requant.lanes", more_requant},
              {"int8 vs mxint8", plain_int8}};
#define N_AXES (sizeof k_axes / sizeof k_axes[0])

static void describe(const char *axis, const mxsim_tconfig *c, const mxsim_tconfig *m, const mxsim_top *o,
                     int64_t base, int64_t more)
{
    fprintf(stderr,
            "  %s: %lld -> %lld cycles | %lldx%lld %s L=%lld->%lld load=%lld->%lld G=%lld %s->%s exp=%s->%s II=%lld->%lld "
            "lat=%lld->%lld sram=%lld/%lld/%lld->%lld/%lld/%lld bw=%g->%g dlat=%lld->%lld out=%lld tile=%lld/%lld/%lld "
            "| m=%lld n=%lld k=%lld\n",
            axis, (long long)base, (long long)more, (long long)c->array_rows, (long long)c->array_cols,
            (const char *[]){"os", "ws", "is"}[c->dataflow], (long long)c->pe_lanes, (long long)m->pe_lanes,
            (long long)c->load_lanes, (long long)m->load_lanes, (long long)c->group_size,
            c->operand_format ? "int8" : "mxint8", m->operand_format ? "int8" : "mxint8",
            (const char *[]){"pe", "row", "col"}[c->exp_share], (const char *[]){"pe", "row", "col"}[m->exp_share],
            (long long)c->exp_ii_cycles, (long long)m->exp_ii_cycles, (long long)c->exp_latency_cycles,
            (long long)m->exp_latency_cycles, (long long)c->sram_a_kib, (long long)c->sram_b_kib,
            (long long)c->sram_c_kib, (long long)m->sram_a_kib, (long long)m->sram_b_kib, (long long)m->sram_c_kib,
            c->dram_bw_bytes_per_cycle, m->dram_bw_bytes_per_cycle, (long long)c->dram_latency_cycles,
            (long long)m->dram_latency_cycles, (long long)c->out_format, (long long)c->tile_m, (long long)c->tile_n,
            (long long)c->tile_k, (long long)o->m, (long long)o->n, (long long)o->k);
}

/* A random machine; `small` keeps it within the detailed engine's reach. */
static void random_cfg(mxt_rng *r, mxsim_tconfig *c, int small)
{
    mxsim_tconfig_default(c);
    int64_t amax = small ? 8 : 32;
    c->array_rows = pick(r, 0, 2) ? (int64_t)1 << pick(r, 0, small ? 3 : 5) : pick(r, 1, amax);
    c->array_cols = pick(r, 0, 2) ? (int64_t)1 << pick(r, 0, small ? 3 : 5) : pick(r, 1, amax);
    mxt_random_machine(r, c, small ? 4 : 64);
    c->scalesim_compat = pick(r, 0, 15) == 0;
    /* Compat mode with USER bandwidth reproduces SCALE-Sim's buffer stalls, which are SCALE-Sim's
    ** behaviour, not a physical machine's: checked against SCALE-Sim's own outputs
    ** (tests/timing/scalesim), not for monotonicity.  CALC compat is checked here. */
    c->scalesim_bw = MXSIM_SCALESIM_BW_CALC;
}

static mxsim_top random_gemm(mxt_rng *r, int small)
{
    int64_t hi = small ? 40 : 300;
    return mxt_gemm_op("g", pick(r, 1, hi), pick(r, 1, hi), pick(r, 1, small ? 96 : 600));
}

/* Counts of one property run. */
typedef struct {
    int n_cfg, n_checked, bad, n_padded, n_unequal, by_axis[N_AXES];
} tally;

/* Every axis on (c, o) in one engine (detail: also each perturbed machine against the analytic
** engine); base is c's cycles in that engine. */
static void check_axes(mxt_rng *r, const mxsim_tconfig *c, const mxsim_top *o, int detail, int64_t base, tally *t)
{
    int bad = 0;
    for (size_t a = 0; a < N_AXES; a++) {
        mxsim_tconfig m = *c;
        if (!k_axes[a].fn(r, &m)) continue;
        int64_t more = cycles(&m, o, detail);
        t->n_checked++;
        t->by_axis[a]++;
        mxt_checks++;
        if (more < 0 || more > base) {
            static int shown;
            if (bad++ == 0 && shown++ < 30) {
                describe(k_axes[a].name, c, &m, o, base, more);
                if (more < 0) fprintf(stderr, "    refused: %s\n", mxsim_errmsg(g_ctx));
            }
        }
        if (detail && more >= 0 && more != cycles(&m, o, 0)) {
            if (t->n_unequal++ < 5) describe("detailed vs analytic (perturbed)", &m, &m, o, cycles(&m, o, 0), more);
        }
    }
    t->bad += bad;
}

/* n_cfg random machines (small: within the detailed engine's reach) x n_gemm random GEMMs. */
static tally run_property(uint64_t seed, int n_cfg, int n_gemm, int detail)
{
    mxt_rng r = {seed};
    tally t = {0};
    for (int it = 0; t.n_cfg < n_cfg && it < 10 * n_cfg; it++) {
        mxsim_tconfig c;
        random_cfg(&r, &c, detail);
        if (!detail && pick(&r, 0, 9) == 0) { /* a forced tiling: every decision but the tiling */
            c.tile_m = pick(&r, 1, 256), c.tile_n = pick(&r, 1, 256), c.tile_k = c.group_size * pick(&r, 1, 16);
            c.sram_a_kib = c.sram_b_kib = c.sram_c_kib = 4096;
        }
        int ran = 0;
        for (int g = 0; g < n_gemm; g++) {
            mxsim_top o = random_gemm(&r, detail);
            int64_t an = cycles(&c, &o, 0), base = detail ? cycles(&c, &o, 1) : an;
            if (an < 0) continue; /* e.g. no tiling fits this SRAM: not a timing case */
            ran = 1;
            t.n_padded += c.operand_format == MXSIM_FMT_MXINT8 && o.k % c.group_size != 0;
            if (base != an) {
                if (t.n_unequal++ < 5) describe("detailed vs analytic", &c, &c, &o, an, base);
                continue;
            }
            check_axes(&r, &c, &o, detail, base, &t);
        }
        t.n_cfg += ran;
    }
    printf("  %d configurations, %d comparisons, %d violations, %d unequal to the analytic engine; padded K "
           "in %d GEMMs; per axis:", t.n_cfg, t.n_checked, t.bad, t.n_unequal, t.n_padded);
    for (size_t a = 0; a < N_AXES; a++) printf(" %s %d", k_axes[a].name, t.by_axis[a]);
    printf("\n");
    MXT_EQ_INT(t.bad, 0);
    MXT_EQ_INT(t.n_unequal, 0);
    MXT_TRUE(t.n_cfg >= n_cfg);
    return t;
}

MXTEST(more_hardware_never_adds_cycles_analytic)
{
    tally t = run_property(0x14a2b, 5000, 3, 0);
    MXT_TRUE(t.n_padded >= 3000);
    for (size_t a = 0; a < N_AXES; a++) MXT_TRUE(t.by_axis[a] >= 1000);
}

/* The same properties in the detailed engine (small cases), which must also equal the analytic
** engine cycle for cycle on every machine, perturbed or not. */
MXTEST(more_hardware_never_adds_cycles_detailed)
{
    tally t = run_property(0xde7a11, 300, 1, 1);
    MXT_TRUE(t.n_padded >= 100);
}

int main(void)
{
    if (mxsim_ctx_create(&g_ctx) != MXSIM_OK) return 1;
    int rc = mxt_run_all();
    mxsim_ctx_destroy(g_ctx);
    return rc;
}

/* test_ops.h - trace ops and machines for the timing and sweep tests: a GEMM with the defaults a
** trace line without optional keys gets (repeat 1, group size and formats from the configuration),
** and the random machine of the property tests. */
#ifndef MXSIM_TEST_OPS_H
#define MXSIM_TEST_OPS_H
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"

/* uniform in lo..hi */
static inline int64_t mxt_pick(mxt_rng *r, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(mxt_next(r) % (uint64_t)(hi - lo + 1));
}

/* A random machine's fields besides the array size and the SCALE-Sim mode (the caller sets those
** and starts from mxsim_tconfig_default): lanes, G (1..64, not only powers of two), operand format,
** exponent units, SRAMs of 1..sram_max KiB, DRAM bandwidth on the model's 1/1024 step. */
static inline void mxt_random_machine(mxt_rng *r, mxsim_tconfig *c, int64_t sram_max)
{
    static const int64_t groups[] = {1, 2, 3, 4, 8, 12, 16, 24, 32, 64};
    c->dataflow = mxt_pick(r, 0, 2);
    c->pe_lanes = mxt_pick(r, 0, 1) ? (int64_t)1 << mxt_pick(r, 0, 5) : mxt_pick(r, 1, 40);
    c->load_lanes = mxt_pick(r, 0, 1) ? (int64_t)1 << mxt_pick(r, 0, 5) : mxt_pick(r, 1, 40);
    c->group_size = groups[mxt_pick(r, 0, 9)];
    c->operand_format = mxt_pick(r, 0, 7) == 0 ? MXSIM_FMT_INT8 : MXSIM_FMT_MXINT8;
    c->exp_share = mxt_pick(r, 0, 2);
    c->exp_ii_cycles = mxt_pick(r, 0, 2) ? 1 : mxt_pick(r, 1, 8);
    c->exp_latency_cycles = mxt_pick(r, 0, 12);
    c->sram_a_kib = mxt_pick(r, 1, sram_max);
    c->sram_b_kib = mxt_pick(r, 1, sram_max);
    c->sram_c_kib = mxt_pick(r, 1, sram_max);
    c->dram_bw_bytes_per_cycle = round((double)mxt_pick(r, 1, 128) / (double)mxt_pick(r, 1, 8) * 1024) / 1024;
    c->dram_latency_cycles = mxt_pick(r, 0, 200);
    c->out_format = mxt_pick(r, 0, 2);
    c->requant_lanes = mxt_pick(r, 1, 64);
}

static inline mxsim_top mxt_gemm_op(const char *name, int64_t m, int64_t n, int64_t k)
{
    mxsim_top o;
    memset(&o, 0, sizeof o);
    o.kind = MXSIM_OP_GEMM;
    snprintf(o.name, sizeof o.name, "%s", name);
    o.m = m, o.n = n, o.k = k, o.repeat = 1;
    o.a_fmt = o.b_fmt = o.out_fmt = -1;
    return o;
}

#endif

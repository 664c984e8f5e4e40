/* test_ops.h - trace ops for the timing and sweep tests: a GEMM with the defaults a trace line
** without optional keys gets (repeat 1, group size and formats from the configuration). */
#ifndef MXSIM_TEST_OPS_H
#define MXSIM_TEST_OPS_H
#include <stdio.h>
#include <string.h>

#include "mxsim.h"

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

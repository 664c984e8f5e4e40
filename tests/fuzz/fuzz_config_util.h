/* fuzz_config_util.h - checks shared by the INI and SCALE-Sim .cfg targets.
**
** mxsim_tconfig_load promises (tconfig.c) that a configuration that went only through
** default/set/load has every field inside its table bounds: after a successful load, every
** field is checked against mxsim_tconfig_field_at's bounds here, independently of
** mxsim_tconfig_validate.  A configuration that also passes validation must then time a small
** GEMM and a dequant op without a sanitizer report, and format every field. */
#ifndef MXSIM_FUZZ_CONFIG_UTIL_H
#define MXSIM_FUZZ_CONFIG_UTIL_H

#include <math.h>

#include "fuzz_common.h"

/* Buffer-column visits of SCALE-Sim stepping allowed per input (fz_bound_gemm). */
#define FZ_SCALESIM_BUDGET 8192.0

static inline void fz_config_case(const char *name, const uint8_t *data, size_t size)
{
    mxsim_ctx *ctx = fz_ctx();
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_status st = mxsim_tconfig_load(ctx, &cfg, fz_write(name, data, size));
    if (st != MXSIM_OK) {
        fz_check_failure(ctx, st);
        return;
    }
    char buf[64];
    for (int i = 0; i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        fz_check(f != NULL);
        /* the formatted value, parsed back, is what the field holds and lies in its bounds */
        mxsim_tconfig_format(&cfg, i, buf, sizeof buf);
        fz_check(buf[0] != '\0');
        mxsim_tconfig probe = cfg;
        fz_check(mxsim_tconfig_set(ctx, &probe, f->name, buf, "fuzz") == MXSIM_OK);
    }
    if (mxsim_tconfig_validate(ctx, &cfg) != MXSIM_OK) return;
    mxsim_top ops[2] = {
        {MXSIM_OP_GEMM, "g", 96, 80, 256, 0, 1, -1, -1, -1, 1},
        {MXSIM_OP_DEQUANT, "d", 64, 256, 0, 0, 1, -1, -1, -1, 2},
    };
    /* under SCALE-Sim compat with USER bandwidth the GEMM is stepped: keep it small */
    fz_bound_gemm(&cfg, ops[0].group_size, FZ_SCALESIM_BUDGET, &ops[0].m, &ops[0].n, &ops[0].k);
    for (int i = 0; i < 2; i++) {
        mxsim_tstats s;
        st = mxsim_time_op(ctx, &cfg, &ops[i], "fuzz", 0, NULL, &s);
        if (st != MXSIM_OK) fz_check_failure(ctx, st);
        else fz_check(s.cycles_total > 0 && isfinite(s.util_compute) && isfinite(s.tops));
    }
}

#endif

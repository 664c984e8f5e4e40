/* sweep_internal.h - the sweep object, shared by sweep.c (axes, runs, shards) and sweep_part.c
** (part files of sharded sweeps and their merge). */
#ifndef MX_SWEEP_INTERNAL_H
#define MX_SWEEP_INTERNAL_H

#include "internal.h"

#define MAX_POINTS ((int64_t)1 << 16)

enum { AX_FIELD = 0, AX_ARRAY_SIZE = 1, AX_PROFILE = 2 };

typedef struct {
    char key[64];
    int kind;
    int n;
    char *vals[MXSIM_SWEEP_MAX_VALUES];
} axis;

typedef struct { /* one distinct accuracy measurement */
    int64_t op;
    int64_t g;
    mxsim_profile profile;
    mxsim_acc acc;
    mxsim_accuracy res;
    mxsim_status st;
    char err[256];
} acc_job;

struct mxsim_sweep {
    mxsim_tconfig base;
    int n_axes;
    axis axes[MXSIM_SWEEP_MAX_AXES];
    int64_t n_points, n_ops;
    mxsim_sweep_point *pts;
    mxsim_tstats *op_stats;
    mxsim_energy *op_energy;
    mxsim_accuracy *op_acc;
    int64_t *op_group;
    int64_t *op_job; /* [point * n_ops + op] index into acc jobs, -1 none */
    int ran;
    int64_t shard_index, shard_count; /* run only slice shard_index of shard_count (count 0: all) */
};

/* The points [*first, *end) of slice index of count over n points: balanced (sizes differ by at
** most one) and deterministic. */
MX_INTERNAL void mx_sweep_slice(int64_t n, int64_t index, int64_t count, int64_t *first, int64_t *end);

/* Point i's configuration and profile as mxsim_sweep_run builds them (base, then each axis value
** in axis order, stopping at the first that fails), from the sweep's default profile. */
MX_INTERNAL void mx_sweep_point_config(mxsim_ctx *ctx, const mxsim_sweep *sw, int64_t i, int32_t profile,
                                       mxsim_tconfig *cfg, int32_t *prof);

#endif

/* gpuinternal.h - private helpers shared by gpumodel.c and gpubench.c. */
#ifndef MX_GPUINTERNAL_H
#define MX_GPUINTERNAL_H
#include <string.h>

#include "internal.h"
#include "lines.h"
/* Sets card field i (mxsim_gpu_field_at order); out-of-range i is ignored. */
MX_INTERNAL void mx_gpu_card_set(mxsim_gpu_card *c, int i, double v);
/* Whether v is in field i's accepted range (a whole number for a count; sim/doc/gpu-model.md). */
MX_INTERNAL int mx_gpu_field_ok(int i, double v);
/* MXSIM_OK, or MXSIM_E_INPUT naming the first field of c out of its range (or an unterminated name). */
MX_INTERNAL mxsim_status mx_gpu_card_check(mxsim_ctx *ctx, const mxsim_gpu_card *c);
/* The checks of mxsim_gpu_predict on op alone: MXSIM_OK, or the error (message "gpu op: FIELD: ...")
** with *field (field may be NULL) the op member at fault: "kernel", "m", "n", "k", "g" or "cfg". */
MX_INTERNAL mxsim_status mx_gpu_op_check(mxsim_ctx *ctx, const mxsim_gpu_op *op, const char **field);

/* Bench files (bench.csv of kernels/gpu_check.sh): the checks shared by mxsim_gpu_bench_load and
** mxsim_gpu_xbench_load_build (sim/doc/gpu-model.md section 5). */
typedef struct {
    char method[48];
    int64_t M, N, K, G;
    int line;
} mx_gpu_rowkey;
/* Sorts k[0..n) and returns the line of the first row (in file order) that repeats an earlier
** row's (method, M, N, K, G), with *first the earlier row's line; 0 if none. */
MX_INTERNAL int mx_gpu_rowkey_dup(mx_gpu_rowkey *k, int64_t n, int *first);
/* The same as a status: MXSIM_E_INPUT naming path, the repeating row's line and the first's. */
MX_INTERNAL mxsim_status mx_gpu_rowkey_check(mxsim_ctx *ctx, const char *path, mx_gpu_rowkey *k, int64_t n);
/* Columns rate, unit, ratio of a bench row (col_* < 0: the file has no such column): rate and
** ratio finite and in (0, 1e9], unit one of TOPS, TFLOPS, GB/s.  MXSIM_E_INPUT naming path:line
** and the field. */
MX_INTERNAL mxsim_status mx_gpu_bench_extra(mxsim_ctx *ctx, const char *path, int line, char *const *f, int col_rate,
                                            int col_unit, int col_ratio);
/* The card column: not empty, and the same on every row (*card: the first row's; "" before it). */
MX_INTERNAL mxsim_status mx_gpu_bench_card(mxsim_ctx *ctx, const char *path, int line, const char *v, char *card,
                                           size_t cap, int *card_line);
/* Whether the bench's training and held-out halves are swapped (mxsim_gpu_bench_swap_split). */
MX_INTERNAL int mx_gpu_bench_swapped(const mxsim_gpu_bench *b);
/* The median of v[0..n), n >= 1 (sorts v; the mean of the middle two for an even n): the per-row
** median of runs (xcard.c) and the launch floor (xlaunch.c). */
MX_INTERNAL double mx_gpu_median(double *v, int n);
/* The largest median_us a bench row may give (1e9 us: 1000 s). */
#define MX_GPU_MAX_US 1e9

#endif

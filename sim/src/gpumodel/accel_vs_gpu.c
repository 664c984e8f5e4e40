/* accel_vs_gpu.c - the accelerator next to the GPU model on one trace (compare-gpu --trace): per op
** the accelerator's time, TOPS and energy (timing engine, cost model) and the GPU model's mxk
** kernel and cuBLAS bf16 times, with the measured GPU time where a bench has the same op.
** Needs the timing engine and the cost model (CMakeLists.txt drops this file without them). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "gpuinternal.h"
#include "internal.h"

/* A GPU model error on a trace op, named by the trace's file:line and the op. */
static mxsim_status op_fail(mxsim_ctx *ctx, mxsim_status st, const mxsim_trace *tr, const mxsim_top *op)
{
    char why[512];
    mx_snprintf(why, sizeof why, "%s", ctx ? mxsim_errmsg(ctx) : "");
    return mx_fail(ctx, st, "%s:%d: op '%s': %s", mxsim_trace_source(tr), (int)op->line, op->name, why);
}

static double lookup_measured(const mxsim_gpu_bench *bn, int kernel, int64_t m, int64_t n, int64_t k, int64_t g)
{
    for (int64_t i = 0; bn && i < mxsim_gpu_bench_count(bn); i++) {
        const mxsim_gpu_point *p = mxsim_gpu_bench_point(bn, i);
        if (p->op.kernel == kernel && p->op.cfg == 0 && p->op.m == m && p->op.n == n && p->op.k == k &&
            (kernel == MXSIM_GK_CUBLAS_BF16 || p->op.g == g))
            return p->measured_us;
    }
    return 0.0;
}

/* The node the accelerator side is costed at, on every row of both tables (the GPU is its own
** node: sim/doc/gpu-model.md section 7). */
#define ACCEL_NODE_COLS                                                                                    \
    {"accel_node_nm", 'i', "nm", -1, "technology node the accelerator is costed at (--node; default 45)"}, \
    {"accel_vdd_v", 'r', "V", 2, "its supply (--vdd, else the node's default)"}

/* A column of the comparison tables: name, type (t/i/r), unit, decimals, doc. */
typedef struct {
    const char *name;
    char type;
    const char *unit;
    int dec;
    const char *doc;
} gcol;

static const gcol k_cols[] = {
    {"op", 't', "", -1, "op name (TOTAL: the sum)"},
    {"kind", 't', "", -1, "gemm, dequant or quantize"},
    {"m", 'i', "elements", -1, "rows"},
    {"n", 'i', "elements", -1, "columns"},
    {"k", 'i', "elements", -1, "reduction depth (GEMM)"},
    {"group_size", 'i', "elements", -1, "G the op runs with"},
    {"repeat", 'i', "", -1, "back-to-back executions"},
    {"accel_us", 'r', "us", 3, "accelerator time"},
    {"accel_tops", 'r', "TOPS", 3, "accelerator throughput"},
    {"accel_energy_uj", 'r', "uJ", 3, "accelerator energy, nominal constants"},
    {"accel_tops_per_w", 'r', "TOPS/W", 3, "accelerator efficiency"},
    {"accel_tops_per_mm2", 'r', "TOPS/mm2", 4, "accelerator throughput per area"},
    {"gpu_kernel", 't', "", -1, "mxk kernel modelled"},
    {"gpu_cfg", 'i', "", -1, "mxk GEMM config modelled"},
    {"gpu_model_us", 'r', "us", 3, "GPU model time"},
    {"gpu_model_tops", 'r', "TOPS", 3, "GPU model throughput"},
    {"gpu_bound", 't', "", -1, "what bounds the GPU model"},
    {"gpu_measured_us", 'r', "us", 3, "measured mxk time (bench), empty if not measured"},
    {"cublas_bf16_model_us", 'r', "us", 3, "GPU model of cuBLAS bf16 (GEMM)"},
    {"cublas_bf16_measured_us", 'r', "us", 3, "measured cuBLAS bf16 time, empty if not measured"},
    {"gpu_tops_per_w_at_tdp", 'r', "TOPS/W", 4, "GPU model throughput / TDP"},
    {"gpu_tops_per_mm2", 'r', "TOPS/mm2", 5, "GPU model throughput / die area"},
    {"speedup_accel_vs_gpu_model", 'r', "", 3, "gpu_model_us / accel_us"},
    ACCEL_NODE_COLS,
};
#define NC ((int)(sizeof k_cols / sizeof k_cols[0]))

/* Sets the cells of row r from v (reals and ints) and s (texts); NaN / NULL: empty. */
static mxsim_status set_cells(mxsim_ctx *ctx, mxsim_table *t, int64_t r, const gcol *cols, int nc, const double *v,
                              const char *const *s)
{
    mxsim_status st = MXSIM_OK;
    for (int c = 0; st == MXSIM_OK && c < nc; c++) {
        if (cols[c].type == 't') st = s[c] ? mxsim_table_set_text(ctx, t, r, cols[c].name, s[c])
                                           : mxsim_table_set_null(ctx, t, r, cols[c].name);
        else if (isnan(v[c])) st = mxsim_table_set_null(ctx, t, r, cols[c].name);
        else if (cols[c].type == 'i') st = mxsim_table_set_int(ctx, t, r, cols[c].name, (int64_t)v[c]);
        else st = mxsim_table_set_real(ctx, t, r, cols[c].name, v[c]);
    }
    return st;
}
static mxsim_status set_row(mxsim_ctx *ctx, mxsim_table *t, int64_t r, const double *v, const char *const *s)
{
    return set_cells(ctx, t, r, k_cols, NC, v, s);
}

/* The cost parameters (cost NULL: the defaults, 45 nm) and the supply they resolve to. */
static mxsim_status cost_resolve(mxsim_ctx *ctx, const char *fn, const mxsim_cost_params *cost, mxsim_cost_params *cp,
                                 double *vdd_v)
{
    mxsim_cost_params_default(cp);
    if (cost) {
        mxsim_status st = mx_cost_params_check(ctx, fn, cost);
        if (st != MXSIM_OK) return st;
        *cp = *cost;
    }
    mxsim_node_scale sc;
    mxsim_status st = mxsim_node_scaling(ctx, cp->node_nm, cp->vdd_v, &sc);
    *vdd_v = sc.vdd_v;
    return st;
}

/* The accelerator's area, a new table with the columns and the card / trace metadata. */
static mxsim_status table_start(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_cost_params *cp, const gcol *cols,
                                int nc, const char *card, const mxsim_trace *tr, mxsim_area *area, mxsim_table **t)
{
    *t = NULL;
    mxsim_status st = mxsim_cost_area(ctx, cfg, cp, area);
    if (st == MXSIM_OK) st = mxsim_table_create(ctx, t);
    for (int c = 0; st == MXSIM_OK && c < nc; c++)
        st = mxsim_table_add_column(ctx, *t, cols[c].name,
                                    cols[c].type == 't' ? MXSIM_CELL_TEXT : cols[c].type == 'i' ? MXSIM_CELL_INT : MXSIM_CELL_REAL,
                                    cols[c].unit, cols[c].doc, 0, cols[c].dec);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, *t, "card", card, 0);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, *t, "trace", mxsim_trace_source(tr), 0);
    return st;
}

MXSIM_API mxsim_status mxsim_gpu_accel_table(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_tconfig *cfg,
                                             const mxsim_trace *tr, const mxsim_gpu_bench *bn, mxsim_table **out)
{
    return mxsim_gpu_accel_table_cost(ctx, card, cfg, NULL, tr, bn, out);
}

MXSIM_API mxsim_status mxsim_gpu_accel_table_cost(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_tconfig *cfg,
                                                  const mxsim_cost_params *cost, const mxsim_trace *tr,
                                                  const mxsim_gpu_bench *bn, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (card == NULL || cfg == NULL || tr == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "gpu_accel_table: NULL argument");
    mxsim_status cst = mx_gpu_card_check(ctx, card);
    if (cst != MXSIM_OK) return cst;
    mxsim_cost_params cp;
    double vdd = 0;
    if ((cst = cost_resolve(ctx, "mxsim_gpu_accel_table_cost", cost, &cp, &vdd)) != MXSIM_OK) return cst;
    mxsim_area area;
    mxsim_table *t = NULL;
    mxsim_status st = table_start(ctx, cfg, &cp, k_cols, NC, card->name, tr, &area, &t);
    double tot_acc = 0, tot_gpu = 0, tot_cub = 0, tot_e = 0, tot_ops = 0;
    for (int64_t i = 0; st == MXSIM_OK && i < mxsim_trace_count(tr); i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        mxsim_tstats ts;
        mxsim_energy en;
        if ((st = mxsim_time_op(ctx, cfg, op, mxsim_trace_source(tr), 0, NULL, &ts)) != MXSIM_OK) break;
        if ((st = mxsim_cost_energy(ctx, cfg, &cp, &area, &ts, &en)) != MXSIM_OK) break;
        int64_t g = op->group_size ? op->group_size : cfg->group_size, rep = op->repeat;
        /* the GPU's MXINT8 tensors are whole groups too: its kernels see K (or n) padded to a
        ** multiple of G, as the accelerator does (sim/doc/architecture.md 3.1); cuBLAS bf16 the real K */
        int64_t kp = (op->k + g - 1) / g * g, np = (op->n + g - 1) / g * g;
        mxsim_gpu_op go = {0, 0, op->m, op->n, kp, g};
        const char *kname = "mxk-gemm-mxint8";
        if (op->kind == MXSIM_OP_GEMM) go.kernel = MXSIM_GK_MXK_GEMM;
        else if (op->kind == MXSIM_OP_DEQUANT) go.kernel = MXSIM_GK_DEQUANT_OCP, go.m = op->m * np, kname = "mxk-dequant-ocp";
        else go.kernel = MXSIM_GK_QUANTIZE_BF16, go.m = op->m * np, kname = "mxk-quantize-ocp-bf16";
        mxsim_gpu_pred gp, cb;
        memset(&cb, 0, sizeof cb);
        if ((st = mxsim_gpu_predict(ctx, card, &go, &gp)) != MXSIM_OK) {
            st = op_fail(ctx, st, tr, op);
            break;
        }
        int gemm = op->kind == MXSIM_OP_GEMM;
        double meas = 0, cmeas = 0, ops = gemm ? 2.0 * (double)op->m * (double)op->n * (double)op->k * (double)rep : 0;
        if (gemm) {
            mxsim_gpu_op co = go;
            co.kernel = MXSIM_GK_CUBLAS_BF16;
            co.k = op->k;
            if ((st = mxsim_gpu_predict(ctx, card, &co, &cb)) != MXSIM_OK) {
                st = op_fail(ctx, st, tr, op);
                break;
            }
            meas = lookup_measured(bn, MXSIM_GK_MXK_GEMM, go.m, go.n, go.k, g);
            cmeas = lookup_measured(bn, MXSIM_GK_CUBLAS_BF16, co.m, co.n, co.k, 0);
        }
        double acc_us = ts.time_us, gpu_us = gp.time_us * (double)rep, cub_us = cb.time_us * (double)rep;
        double e_uj = en.total_pj[MXSIM_BAND_NOM] * 1e-6, gpu_tops = ops > 0 ? ops / (gpu_us * 1e-6) / 1e12 : 0;
        tot_acc += acc_us, tot_gpu += gpu_us, tot_cub += cub_us, tot_e += e_uj, tot_ops += ops;
        const double v[NC] = {0, 0, (double)op->m, (double)op->n, gemm ? (double)op->k : NAN, (double)g, (double)rep, acc_us, ts.tops,
                              e_uj, en.tops_per_w[MXSIM_BAND_NOM], en.tops_per_mm2[MXSIM_BAND_NOM], 0, gp.cfg_used, gpu_us,
                              gpu_tops, 0, meas > 0 ? meas * (double)rep : NAN, gemm ? cub_us : NAN,
                              cmeas > 0 ? cmeas * (double)rep : NAN, gpu_tops / card->tdp_w, gpu_tops / card->die_mm2,
                              acc_us > 0 ? gpu_us / acc_us : NAN, (double)cp.node_nm, vdd};
        const char *s[NC] = {op->name, mxsim_op_kind_name((mxsim_op_kind)op->kind)};
        s[12] = kname, s[16] = gp.bound;
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) == MXSIM_OK) st = set_row(ctx, t, r, v, s);
    }
    if (st == MXSIM_OK) {
        double at = tot_acc > 0 ? tot_ops / (tot_acc * 1e-6) / 1e12 : 0, gt = tot_gpu > 0 ? tot_ops / (tot_gpu * 1e-6) / 1e12 : 0;
        double v[NC];
        for (int c = 0; c < NC; c++) v[c] = NAN;
        v[7] = tot_acc, v[8] = at, v[9] = tot_e, v[10] = tot_e > 0 ? tot_ops / (tot_e * 1e-6) / 1e12 : 0;
        v[11] = area.total_mm2[MXSIM_BAND_NOM] > 0 ? at / area.total_mm2[MXSIM_BAND_NOM] : NAN; /* was left empty */
        v[14] = tot_gpu, v[15] = gt, v[18] = tot_cub, v[20] = gt / card->tdp_w, v[21] = gt / card->die_mm2;
        v[22] = tot_acc > 0 ? tot_gpu / tot_acc : NAN; /* an empty trace: no ratio */
        v[23] = (double)cp.node_nm, v[24] = vdd;
        const char *s[NC] = {"TOTAL"};
        s[12] = "mxk";
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) == MXSIM_OK) st = set_row(ctx, t, r, v, s);
    }
    return mx_table_handover(t, st, out);
}

/* ---- the accelerator against the best GPU implementation per op (issue 16) ---------------- */

static const gcol k_bcols[] = {
    {"op", 't', "", -1, "op name (TOTAL: the sum)"},
    {"kind", 't', "", -1, "gemm, dequant or quantize"},
    {"m", 'i', "elements", -1, "rows"},
    {"n", 'i', "elements", -1, "columns"},
    {"k", 'i', "elements", -1, "reduction depth (GEMM)"},
    {"group_size", 'i', "elements", -1, "G the op runs with"},
    {"repeat", 'i', "", -1, "back-to-back executions"},
    {"accel_us", 'r', "us", 3, "accelerator time"},
    {"accel_energy_uj", 'r', "uJ", 3, "accelerator energy, nominal constants"},
    {"accel_tops_per_w", 'r', "TOPS/W", 4, "accelerator efficiency"},
    {"gpu_card", 't', "", -1, "the GPU (its bench_ext.csv card name)"},
    {"mxk_us", 'r', "us", 3, "mxk (cfg 0) time, empty if the format does not allow it"},
    {"cublas_bf16_us", 'r', "us", 3, "cuBLAS bf16 time (operands converted exactly to bf16)"},
    {"cublaslt_int8_us", 'r', "us", 3, "cuBLASLt int8 time, empty unless int8 operands or G >= K"},
    {"batched_bf16_us", 'r', "us", 3,
     "an ideal batched bf16 kernel: one launch for every repeat, the longer of the tensor time at the bf16 peak and "
     "the bytes at the measured copy bandwidth (a bound, not a measured kernel); empty unless B is kv or act and repeat > 1"},
    {"gpu_best", 't', "", -1, "the fastest allowed implementation"},
    {"gpu_best_us", 'r', "us", 3, "its time"},
    {"gpu_best_source", 't', "", -1, "measured (bench row of the same op), model (cross-card model) or bound (batched)"},
    {"gpu_power_w", 'r', "W", 1, "board power (NVML mean) measured for the op, else interpolated"},
    {"gpu_energy_uj", 'r', "uJ", 3, "GPU energy at that power"},
    {"gpu_tops_per_w", 'r', "TOPS/W", 4, "GPU efficiency, measured power"},
    {"speedup_accel_vs_gpu", 'r', "", 3, "gpu_best_us / accel_us"},
    {"energy_gpu_over_accel", 'r', "", 3, "gpu_energy_uj / accel_energy_uj"},
    {"note", 't', "", -1, "ops left out of the TOTAL (no GPU time or no GPU power) and why; a GPU time at the model's "
                          "launch floor (then at the card's lowest measured power); a batched bound's power; why an "
                          "MXINT8 op has no mxk time (a class the card file does not calibrate, a kernel with no class)"},
    ACCEL_NODE_COLS,
};
#define NB ((int)(sizeof k_bcols / sizeof k_bcols[0]))
/* the positions of k_bcols, by name */
enum {
    B_OP, B_KIND, B_M, B_N, B_K, B_G, B_REP, B_ACC_US, B_ACC_UJ, B_ACC_TPW, B_CARD, B_MXK, B_CUBLAS, B_CUBLASLT, B_BATCHED,
    B_BEST, B_BEST_US, B_SRC, B_POWER, B_GPU_UJ, B_GPU_TPW, B_SPEEDUP, B_ERATIO, B_NOTE, B_NODE, B_VDD, B_N_
};
_Static_assert(B_N_ == NB, "k_bcols and its positions");

/* a modelled (not measured) time that is the model's launch floor: one empty launch per call */
static int at_launch_floor(const mxsim_gpu_xparams *p, int measured, double us)
{
    return !measured && p->launch_floor_us > 0 && us == p->launch_floor_us;
}

static mxsim_status set_brow(mxsim_ctx *ctx, mxsim_table *t, int64_t r, const double *v, const char *const *s)
{
    return set_cells(ctx, t, r, k_bcols, NB, v, s);
}

/* One implementation's time and energy per execution: the measured median time when the bench has
** the op, else the cross-card model; energy = the op's measured power (else the power interpolated
** between the measured rows of the implementation) x that time.  Not bench_ext.csv's joules_per_op:
** that is the power times the power loop's own time per call (back-to-back calls at the power
** limit), which differs from the cold-L2 median by -15% to +17% (sim/doc/gpu-model.md section 7). */
static int impl_time(mxsim_ctx *ctx, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p, const mxsim_gpu_xpower *pw,
                     const char *method, int64_t m, int64_t n, int64_t k, int64_t g, double *us, double *uj, int *measured,
                     char *why, size_t why_cap)
{
    double mus = 0, w = 0;
    if (mxsim_gpu_xpower_measured(pw, method, m, n, k, g, &mus, &w)) {
        *us = mus, *uj = w * mus, *measured = 1;
        return 1;
    }
    if (mxsim_gpu_xpredict(ctx, d, p, method, m, n, k, g, us) != MXSIM_OK) {
        /* why the cell is empty, for the op's note (the model's own message, its prefix dropped) */
        const char *e = mxsim_errmsg(ctx), *colon = strstr(e, ": ");
        if (why) mx_snprintf(why, why_cap, "%s", colon ? colon + 2 : e);
        mx_clear_err(ctx);
        return 0;
    }
    w = mxsim_gpu_xpower_watts(pw, method, m, n, k, g);
    *uj = w > 0 ? w * *us : NAN, *measured = 0;
    return 1;
}

/* Appends an op name to a list (", " between), ending it with "..." when the buffer is full. */
static void name_add(char *buf, size_t cap, const char *name)
{
    const size_t u = strlen(buf);
    if (u + 4 >= cap || (u >= 3 && !strcmp(buf + u - 3, "..."))) return;
    const int w = mx_snprintf(buf + u, cap - u, "%s%s", u ? ", " : "", name);
    if (w < 0 || (size_t)w >= cap - u) mx_snprintf(buf + (cap - 4 > u ? cap - 4 : u), 4, "...");
}

MXSIM_API mxsim_status mxsim_gpu_accel_best_table(mxsim_ctx *ctx, const char *card, const mxsim_gpu_xsheet *d,
                                                  const mxsim_gpu_xparams *p, const mxsim_gpu_xpower *pw,
                                                  const mxsim_tconfig *cfg, const mxsim_trace *tr, mxsim_table **out)
{
    return mxsim_gpu_accel_best_table_cost(ctx, card, d, p, pw, cfg, NULL, tr, out);
}

MXSIM_API mxsim_status mxsim_gpu_accel_best_table_cost(mxsim_ctx *ctx, const char *card, const mxsim_gpu_xsheet *d,
                                                       const mxsim_gpu_xparams *p, const mxsim_gpu_xpower *pw,
                                                       const mxsim_tconfig *cfg, const mxsim_cost_params *cost,
                                                       const mxsim_trace *tr, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (!card || !d || !p || !cfg || !tr || !out) return mx_fail(ctx, MXSIM_E_ARG, "gpu_accel_best_table: NULL argument");
    /* every modelled time divides by the bandwidth: a missing one gave NaN times, read as "not the best" */
    if (!(d->n_sm > 0 && d->clock_mhz > 0 && d->int8_tops > 0 && d->bf16_tflops > 0 && d->hbm_gbs > 0 && d->l2_mb > 0) ||
        !isfinite(d->n_sm + d->clock_mhz + d->int8_tops + d->bf16_tflops + d->hbm_gbs + d->l2_mb))
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu_accel_best_table: every datasheet value must be a positive number");
    if (!(p->mem_eff > 0 && p->mem_eff <= 10))
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu_accel_best_table: mem_eff: %g is not in (0, 10]", p->mem_eff);
    if (!(p->launch_floor_us >= 0 && p->launch_floor_us <= 1e6))
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu_accel_best_table: launch_floor_us: %g is not in [0, 1e6] us", p->launch_floor_us);
    mxsim_cost_params cp;
    double vdd = 0;
    mxsim_status cst = cost_resolve(ctx, "mxsim_gpu_accel_best_table_cost", cost, &cp, &vdd);
    if (cst != MXSIM_OK) return cst;
    mxsim_area area;
    mxsim_table *t = NULL;
    mxsim_status st = table_start(ctx, cfg, &cp, k_bcols, NB, card, tr, &area, &t);
    /* the TOTAL compares the same ops on both sides: time over the ops with a GPU time, energy over
    ** those with a GPU energy; the others are named in its note */
    double tot_acc = 0, tot_ae = 0, tot_gpu = 0, tot_ge = 0, tot_ops = 0, tot_ops_e = 0, tot_ae_e = 0;
    int ge_all = 1, n_ops = 0, n_t = 0, n_e = 0;
    char no_t[384] = "", no_e[384] = "";
    for (int64_t i = 0; st == MXSIM_OK && i < mxsim_trace_count(tr); i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        mxsim_tstats ts;
        mxsim_energy en;
        if ((st = mxsim_time_op(ctx, cfg, op, mxsim_trace_source(tr), 0, NULL, &ts)) != MXSIM_OK) break;
        if ((st = mxsim_cost_energy(ctx, cfg, &cp, &area, &ts, &en)) != MXSIM_OK) break;
        const int64_t g = op->group_size ? op->group_size : cfg->group_size, rep = op->repeat;
        const int64_t kp = (op->k + g - 1) / g * g, np = (op->n + g - 1) / g * g;
        const int64_t af = op->a_fmt >= 0 ? op->a_fmt : cfg->operand_format, bf = op->b_fmt >= 0 ? op->b_fmt : cfg->operand_format;
        const int gemm = op->kind == MXSIM_OP_GEMM;
        double tm[4] = {NAN, NAN, NAN, NAN}, em[4] = {NAN, NAN, NAN, NAN};
        int meas[3] = {0, 0, 0};
        static const char *const impl[3] = {"mxk-gemm-mxint8", "cublas-bf16", "cublaslt-int8"};
        const char *best = NULL, *src = NULL;
        double bus = NAN, buj = NAN;
        int at_floor = 0; /* the best time is the model's launch floor (one empty launch per call) */
        char why_mxk[200] = ""; /* why an MXINT8 op has no mxk time */
        if (gemm) {
            /* mxk: MXINT8 operands with G a multiple of 32 (the modelled kernels); cuBLAS bf16: always
            ** (MXINT8 and int8 values are exact in bf16); cuBLASLt int8: int8 operands, or one group
            ** per row (G >= K: one power of two per output, applied exactly after the int32 dot) */
            const int allow[3] = {af == MXSIM_FMT_MXINT8 && bf == MXSIM_FMT_MXINT8 && g % 32 == 0, 1,
                                  (af == MXSIM_FMT_INT8 && bf == MXSIM_FMT_INT8) || g >= op->k};
            for (int c = 0; c < 3; c++) {
                if (!allow[c]) continue;
                const int64_t kk = c == 0 ? kp : op->k, gg = c == 0 ? g : 0;
                double us, uj;
                if (!impl_time(ctx, d, p, pw, impl[c], op->m, op->n, kk, gg, &us, &uj, &meas[c], c == 0 ? why_mxk : NULL,
                               sizeof why_mxk))
                    continue;
                tm[c] = us * (double)rep, em[c] = uj * (double)rep;
                if (!best || tm[c] < bus)
                    best = impl[c], bus = tm[c], buj = em[c], src = meas[c] ? "measured" : "model",
                    at_floor = at_launch_floor(p, meas[c], us);
            }
            /* independent problems (attention per head, sequence and layer: B a KV cache or an
            ** activation) as one batched launch, the way attention kernels run them: a roofline bound
            ** of bf16 operands, the tensor time at the datasheet bf16 peak or the bytes at the measured
            ** copy bandwidth; power: cuBLAS bf16's, interpolated at the batch's whole work */
            const mxsim_tensor_role role = mxsim_trace_b_role(tr, i);
            if (rep > 1 && (role == MXSIM_ROLE_KV || role == MXSIM_ROLE_ACT)) {
                const double m = (double)op->m, n = (double)op->n, k = (double)op->k, r = (double)rep;
                const double t_tc = 2 * m * n * k * r / (d->bf16_tflops * 1e12) * 1e6;
                const double t_mem = 2 * (m * k + n * k + m * n) * r / (d->hbm_gbs * 1e9 * p->mem_eff) * 1e6;
                tm[3] = p->launch_floor_us + (t_tc > t_mem ? t_tc : t_mem);
                const double w = mxsim_gpu_xpower_watts(pw, "cublas-bf16", op->m * rep, op->n, op->k, 0);
                em[3] = w > 0 ? w * tm[3] : NAN;
                if (!best || tm[3] < bus) best = "batched-bf16", bus = tm[3], buj = em[3], src = "bound", at_floor = 0;
            }
        } else if (op->kind == MXSIM_OP_DEQUANT) {
            double us, uj;
            int ms = 0;
            if (impl_time(ctx, d, p, pw, "mxk-dequant-ocp", op->m * np, 1, 1, g, &us, &uj, &ms, NULL, 0))
                best = "mxk-dequant-ocp", bus = us * (double)rep, buj = uj * (double)rep, src = ms ? "measured" : "model",
                at_floor = at_launch_floor(p, ms, us);
        }
        /* an op at the launch floor runs an almost empty kernel, which draws far less than the
        ** streaming kernel of the implementation's smallest measured row: the card's lowest measured
        ** power (its smallest kernels), an upper estimate still */
        if (at_floor && gemm && !isnan(bus)) { /* dequantize rows have no measured power: none */
            const double w = mxsim_gpu_xpower_min_watts(pw);
            buj = w > 0 ? w * bus : NAN;
        }
        const double ops = gemm ? 2.0 * (double)op->m * (double)op->n * (double)op->k * (double)rep : 0;
        const double acc_us = ts.time_us, e_uj = en.total_pj[MXSIM_BAND_NOM] * 1e-6;
        const char *note = NULL;
        n_ops++;
        if (!isnan(bus)) tot_gpu += bus, tot_acc += acc_us, tot_ae += e_uj, tot_ops += ops, n_t++;
        else name_add(no_t, sizeof no_t, op->name), note = "no GPU time: left out of the TOTAL";
        if (!isnan(buj) && ops > 0) tot_ge += buj, tot_ops_e += ops, tot_ae_e += e_uj, n_e++;
        else if (!note) name_add(no_e, sizeof no_e, op->name), note = "no GPU power: left out of the TOTAL energy";
        if (ops > 0 && isnan(buj)) ge_all = 0;
        char floor_note[160];
        if (!note && at_floor) {
            mx_snprintf(floor_note, sizeof floor_note, "GPU time at the launch floor: %.3f us per call (one empty launch); "
                        "power: the card's lowest measured", p->launch_floor_us);
            note = floor_note;
        } else if (!note && best && !strcmp(best, "batched-bf16")) {
            note = "GPU time: a bound (one batched launch at the bf16 peak or the measured copy bandwidth, not a measured "
                   "kernel); power: cuBLAS bf16's at the batch's work";
        }
        char mxk_note[512];
        if (why_mxk[0]) { /* an empty mxk cell says why (an uncalibrated class, a kernel with no class) */
            mx_snprintf(mxk_note, sizeof mxk_note, "%s%sno mxk time: %s", note ? note : "", note ? "; " : "", why_mxk);
            note = mxk_note;
        }
        const double gpw = !isnan(buj) && !isnan(bus) && bus > 0 ? buj / bus : NAN;
        const double v[NB] = {[B_M] = (double)op->m, [B_N] = (double)op->n, [B_K] = gemm ? (double)op->k : NAN,
                              [B_G] = (double)g, [B_REP] = (double)rep, [B_ACC_US] = acc_us, [B_ACC_UJ] = e_uj,
                              [B_ACC_TPW] = en.tops_per_w[MXSIM_BAND_NOM], [B_MXK] = tm[0], [B_CUBLAS] = tm[1],
                              [B_CUBLASLT] = tm[2], [B_BATCHED] = tm[3], [B_BEST_US] = bus, [B_POWER] = gpw,
                              [B_GPU_UJ] = buj, [B_GPU_TPW] = ops > 0 && buj > 0 ? ops / (buj * 1e-6) / 1e12 : NAN,
                              [B_SPEEDUP] = acc_us > 0 && !isnan(bus) ? bus / acc_us : NAN,
                              [B_ERATIO] = e_uj > 0 && !isnan(buj) ? buj / e_uj : NAN, [B_NODE] = (double)cp.node_nm,
                              [B_VDD] = vdd};
        const char *s[NB] = {[B_OP] = op->name, [B_KIND] = mxsim_op_kind_name((mxsim_op_kind)op->kind), [B_CARD] = card,
                             [B_BEST] = best ? best : "none", [B_SRC] = src, [B_NOTE] = note};
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) == MXSIM_OK) st = set_brow(ctx, t, r, v, s);
    }
    if (st == MXSIM_OK) {
        double v[NB];
        for (int c = 0; c < NB; c++) v[c] = NAN;
        v[B_ACC_US] = tot_acc, v[B_ACC_UJ] = tot_ae;
        v[B_ACC_TPW] = tot_ae > 0 && tot_ops > 0 ? tot_ops / (tot_ae * 1e-6) / 1e12 : NAN;
        v[B_BEST_US] = tot_gpu, v[B_SPEEDUP] = tot_acc > 0 ? tot_gpu / tot_acc : NAN;
        v[B_NODE] = (double)cp.node_nm, v[B_VDD] = vdd;
        if (n_t == 0) v[B_ACC_US] = v[B_ACC_UJ] = v[B_BEST_US] = NAN; /* no op on both sides: nothing summed, not zero */
        /* GPU energy: the GEMM ops (the only ones with measured power), all of them or none */
        if (ge_all && tot_ge > 0) {
            v[B_GPU_UJ] = tot_ge, v[B_GPU_TPW] = tot_ops_e / (tot_ge * 1e-6) / 1e12;
            v[B_ERATIO] = tot_ae_e > 0 ? tot_ge / tot_ae_e : NAN;
        }
        char note[1024];
        if (n_t == n_ops) mx_snprintf(note, sizeof note, "time over all %d ops", n_ops);
        else mx_snprintf(note, sizeof note, "time over the %d of %d ops with a GPU time (left out: %s)", n_t, n_ops, no_t);
        if (ge_all && tot_ge > 0 && n_e != n_t) {
            const size_t u = strlen(note);
            mx_snprintf(note + u, sizeof note - u, "; energy over the %d GEMM ops with a GPU power (also left out: %s)", n_e, no_e);
        }
        const char *s[NB] = {[B_OP] = "TOTAL", [B_CARD] = card, [B_BEST] = "best per op", [B_NOTE] = note};
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) == MXSIM_OK) st = set_brow(ctx, t, r, v, s);
    }
    return mx_table_handover(t, st, out);
}

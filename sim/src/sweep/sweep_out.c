/* sweep_out.c - the results of a sweep as one table (per point: one row per op and a TOTAL row)
** and the settings as a JSON sidecar: plain RFC 4180 CSV for data, typed JSON for what produced
** it (sim/doc/sweeps.md).  Statistic columns come from MXSIM_TSTATS_FIELDS. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "output/textbuf.h"
#include "timing/tinternal.h"

/* Cost and accuracy columns after the statistics: name, unit, doc. */
static const char *const k_cost_cols[][3] = {
    {"area_mm2", "mm2", "accelerator area, nominal constants"},
    {"area_mm2_low", "mm2", "area, low end of the constants' band"},
    {"area_mm2_high", "mm2", "area, high end of the constants' band"},
    {"energy_mj", "mJ", "energy (dynamic + leakage), nominal"},
    {"energy_mj_low", "mJ", "energy, low band"},
    {"energy_mj_high", "mJ", "energy, high band"},
    {"leakage_mj", "mJ", "leakage part of energy_mj"},
    {"pj_per_mac", "pJ", "energy per useful MAC, nominal"},
    {"pj_per_mac_low", "pJ", "energy per useful MAC, low-energy constants"},
    {"pj_per_mac_high", "pJ", "energy per useful MAC, high-energy constants"},
    {"tops_per_w", "TOPS/W", "2 useful MACs / energy, nominal"},
    {"tops_per_w_low", "TOPS/W", "TOPS/W at the low-energy constants (the higher TOPS/W)"},
    {"tops_per_w_high", "TOPS/W", "TOPS/W at the high-energy constants (the lower TOPS/W)"},
    {"tops_per_mm2", "TOPS/mm2", "tops / area_mm2"},
    {"sqnr_db", "dB", "accuracy: SQNR of the MXINT8 result against float64"},
    {"max_rel_err", "", "accuracy: max |y - ref| / |ref|"}};
#define N_COST ((int)(sizeof k_cost_cols / sizeof k_cost_cols[0]))
static const char *const k_acc_int_cols[][3] = {
    {"acc_rows", "rows", "outputs measured: rows (TOTAL: summed over ops)"},
    {"acc_cols", "columns", "outputs measured: columns (TOTAL: summed over ops; not a product)"},
    {"acc_sampled", "", "1: fewer rows or columns than the op has"},
    {"acc_from_file", "ops", "1: the op's data came from --data files, 0: synthetic; TOTAL: how many ops read files"}};
#define N_ACC_INT ((int)(sizeof k_acc_int_cols / sizeof k_acc_int_cols[0]))
/* The op's identity and the group it ran with, after the kind: name, unit, doc. */
static const char *const k_dim_cols[][3] = {
    {"m", "elements", "rows"},
    {"n", "elements", "columns"},
    {"k", "elements", "reduction depth (GEMM)"},
    {"repeat", "", "back-to-back executions"},
    {"group_eff", "elements", "group size the op ran with (TOTAL: the point's mx.group_size)"},
    {"ops_other_group", "ops",
     "1: the op ran at its own group= of the trace instead of the point's mx.group_size; TOTAL: how many of the "
     "point's ops did"},
    {"ops_padded", "ops",
     "1: the op's K (n for quantize/dequant) is not a multiple of its group size and was padded with zeros to whole "
     "groups (timed and measured so, as mxsim run does); TOTAL: how many of the point's ops were"}};
#define N_DIM ((int)(sizeof k_dim_cols / sizeof k_dim_cols[0]))
/* The last column: in words, why ops ran at another G (empty when none did). */
static const char *const k_note_col[3] = {"group_note", "",
                                          ("in words: the op's own group= or its padding to whole groups (TOTAL: how many "
                                           "ops of each, and lanes that idle in every beat or tiles that a large G shrinks); "
                                           "empty when none")};
/* brief (terminal and Markdown) columns besides the axes */
static const char *const k_brief[] = {"status", "time_us", "cycles_total", "util_compute_pct", "bound", "area_mm2", "energy_mj",
                                      "pj_per_mac", "tops_per_w", "tops_per_mm2", "sqnr_db", "max_rel_err",
                                      "ops_other_group", "ops_padded", "group_note"};

/* Reals in CSV and the text forms: 6 significant digits (the JSON form keeps every digit). */
#define SIG (-6)

static int is_brief(const char *name)
{
    for (size_t i = 0; i < sizeof k_brief / sizeof k_brief[0]; i++)
        if (!strcmp(name, k_brief[i])) return 1;
    return 0;
}

static mxsim_cell_type axis_cell(const mxsim_sweep *sw, int a)
{
    const char *t = mxsim_sweep_axis_type(sw, a);
    return !strcmp(t, "int") ? MXSIM_CELL_INT : !strcmp(t, "real") ? MXSIM_CELL_REAL : MXSIM_CELL_TEXT;
}

static mxsim_status set_axis(mxsim_ctx *ctx, mxsim_table *t, int64_t r, const mxsim_sweep *sw, int a, const char *v)
{
    const char *key = mxsim_sweep_axis_key(sw, a);
    switch (axis_cell(sw, a)) {
    case MXSIM_CELL_INT: return mxsim_table_set_int(ctx, t, r, key, strtoll(v, NULL, 10));
    case MXSIM_CELL_REAL: return mxsim_table_set_real(ctx, t, r, key, mx_strtod(v, NULL));
    default: return mxsim_table_set_text(ctx, t, r, key, v);
    }
}

static mxsim_status add_columns(mxsim_ctx *ctx, mxsim_table *t, const mxsim_sweep *sw)
{
    char name[96], doc[160];
    mxsim_status st = mxsim_table_add_column(ctx, t, "point", MXSIM_CELL_INT, "", "point index (first axis slowest)", 0, -1);
    for (int a = 0; st == MXSIM_OK && a < mxsim_sweep_axis_count(sw); a++) {
        mx_snprintf(doc, sizeof doc, "sweep axis %s", mxsim_sweep_axis_key(sw, a));
        st = mxsim_table_add_column(ctx, t, mxsim_sweep_axis_key(sw, a), axis_cell(sw, a), mxsim_sweep_axis_unit(sw, a), doc,
                                    MXSIM_COL_BRIEF, -1);
    }
    static const char *const text[][2] = {{"profile", "numerics profile"}, {"status", "ok, or error: why the point failed"},
                                          {"op", "op name (TOTAL: the point's sum)"}, {"kind", "gemm, dequant, quantize or total"}};
    for (int i = 0; st == MXSIM_OK && i < 4; i++)
        st = mxsim_table_add_column(ctx, t, text[i][0], MXSIM_CELL_TEXT, "", text[i][1], is_brief(text[i][0]) ? MXSIM_COL_BRIEF : 0, -1);
    for (int i = 0; st == MXSIM_OK && i < N_DIM; i++)
        st = mxsim_table_add_column(ctx, t, k_dim_cols[i][0], MXSIM_CELL_INT, k_dim_cols[i][1], k_dim_cols[i][2],
                                    is_brief(k_dim_cols[i][0]) ? MXSIM_COL_BRIEF : 0, -1);
    for (int i = 0; st == MXSIM_OK && i < mxsim_tstats_field_count(); i++) {
        const mxsim_tstats_field *f = mxsim_tstats_field_at(i);
        mxsim_cell_type ct = mx_tstats_cell_type(f);
        st = mxsim_table_add_column(ctx, t, f->name, ct, ct == MXSIM_CELL_TEXT ? "" : f->unit, f->doc,
                                    is_brief(f->name) ? MXSIM_COL_BRIEF : 0, SIG);
    }
    for (int i = 0; st == MXSIM_OK && i < N_COST; i++)
        st = mxsim_table_add_column(ctx, t, k_cost_cols[i][0], MXSIM_CELL_REAL, k_cost_cols[i][1], k_cost_cols[i][2],
                                    is_brief(k_cost_cols[i][0]) ? MXSIM_COL_BRIEF : 0, SIG);
    for (int i = 0; st == MXSIM_OK && i < N_ACC_INT; i++)
        st = mxsim_table_add_column(ctx, t, k_acc_int_cols[i][0], MXSIM_CELL_INT, k_acc_int_cols[i][1], k_acc_int_cols[i][2], 0, -1);
    for (int c = 0; st == MXSIM_OK && c < MXSIM_COMP_COUNT_; c++) {
        mx_snprintf(name, sizeof name, "e_%s_mj", mxsim_component_name((mxsim_component)c));
        mx_snprintf(doc, sizeof doc, "energy of %s (dynamic + leakage), nominal", mxsim_component_name((mxsim_component)c));
        st = mxsim_table_add_column(ctx, t, name, MXSIM_CELL_REAL, "mJ", doc, 0, SIG);
    }
    for (int c = 0; st == MXSIM_OK && c < MXSIM_COMP_COUNT_; c++) {
        mx_snprintf(name, sizeof name, "a_%s_mm2", mxsim_component_name((mxsim_component)c));
        mx_snprintf(doc, sizeof doc, "area of %s, nominal", mxsim_component_name((mxsim_component)c));
        st = mxsim_table_add_column(ctx, t, name, MXSIM_CELL_REAL, "mm2", doc, 0, SIG);
    }
    if (st == MXSIM_OK)
        st = mxsim_table_add_column(ctx, t, "weight_bytes", MXSIM_CELL_INT, "bytes",
                                    "stored weights of the op (B operand marked weight) in the point's operand format at "
                                    "group_eff, as mxsim memory counts them; TOTAL: all ops + non-GEMM parameters (bf16)",
                                    0, -1);
    if (st == MXSIM_OK)
        st = mxsim_table_add_column(ctx, t, k_note_col[0], MXSIM_CELL_TEXT, k_note_col[1], k_note_col[2], MXSIM_COL_BRIEF, -1);
    return st;
}

/* Op k of point pt: 1 if it ran at its own group= of the trace instead of mx.group_size. */
static int own_group(const mxsim_sweep_point *pt, int64_t k) { return pt->op_group[k] != pt->cfg.group_size; }

/* Op k of point pt: its padded length (K, or n of an elementwise op, rounded up to whole groups of
** the G it ran with) if that G does not divide it, else 0.  Int8 GEMM operands have no groups:
** the engine pads neither (architecture.md section 3.1). */
static int64_t padded_len(const mxsim_sweep_point *pt, const mxsim_top *op, int64_t k)
{
    const int gemm = op->kind == MXSIM_OP_GEMM;
    const int64_t L = gemm ? op->k : op->n, g = pt->op_group[k];
    const int fa = op->a_fmt < 0 ? (int)pt->cfg.operand_format : op->a_fmt;
    if (g < 1 || L % g == 0 || (gemm && fa != MXSIM_FMT_MXINT8)) return 0;
    return (L + g - 1) / g * g;
}

/* group_note of op k (op non-NULL) or of the TOTAL: empty when every op ran at mx.group_size unpadded. */
static void group_note(const mxsim_sweep_point *pt, const mxsim_trace *tr, int64_t k, const mxsim_top *op, char *buf,
                       size_t len)
{
    const long long G = (long long)pt->cfg.group_size;
    buf[0] = '\0';
    if (op) {
        const int gemm = op->kind == MXSIM_OP_GEMM;
        const long long L = (long long)(gemm ? op->k : op->n), g = (long long)pt->op_group[k];
        const long long Lp = (long long)padded_len(pt, op, k);
        char at[32] = ""; /* an op built in memory has no line */
        if (op->line > 0) mx_snprintf(at, sizeof at, " (trace line %d)", (int)op->line);
        int w = 0;
        if (own_group(pt, k)) w = mx_snprintf(buf, len, "op's own group=%lld%s instead of G=%lld", g, at, G);
        if (Lp && w >= 0 && (size_t)w < len)
            mx_snprintf(buf + w, len - (size_t)w, "%s%s=%lld padded to %lld (%lld whole group%s of %lld)", w ? "; " : "",
                     gemm ? "k" : "n", L, Lp, Lp / g, Lp / g == 1 ? "" : "s", g);
        return;
    }
    int64_t n_own = 0, n_pad = 0;
    for (int64_t i = 0; i < pt->n_ops; i++) {
        n_own += own_group(pt, i);
        n_pad += padded_len(pt, mxsim_trace_op(tr, i), i) != 0;
    }
    int w = 0;
    if (n_own)
        w = mx_snprintf(buf, len, "%lld of %lld ops at their own group= instead of G=%lld", (long long)n_own,
                     (long long)pt->n_ops, G);
    if (n_pad && w >= 0 && (size_t)w < len) {
        /* and which: the first three, by name, with the length they were padded from and to */
        w += mx_snprintf(buf + w, len - (size_t)w, "%s%lld of %lld ops padded to whole groups (K, or n, not a multiple of G):",
                      w ? "; " : "", (long long)n_pad, (long long)pt->n_ops);
        int shown = 0;
        for (int64_t i = 0; i < pt->n_ops && w >= 0 && (size_t)w < len; i++) {
            const mxsim_top *o = mxsim_trace_op(tr, i);
            const int64_t Lp = padded_len(pt, o, i);
            if (!Lp) continue;
            if (shown == 3) {
                w += mx_snprintf(buf + w, len - (size_t)w, ", ...");
                break;
            }
            const int gemm = o->kind == MXSIM_OP_GEMM;
            w += mx_snprintf(buf + w, len - (size_t)w, "%s %s (%s=%lld to %lld)", shown ? "," : "", o->name, gemm ? "k" : "n",
                          (long long)(gemm ? o->k : o->n), (long long)Lp);
            shown++;
        }
    }
    /* a beat holds one group: lanes past G idle in every beat, which the cycle classes do not show
    ** (no cycle would go with more lanes; utilisation drops) */
    const long long wb = pt->cfg.pe_lanes < pt->cfg.load_lanes ? pt->cfg.pe_lanes : pt->cfg.load_lanes;
    if (pt->cfg.operand_format == MXSIM_FMT_MXINT8 && G < wb && w >= 0 && (size_t)w < len)
        w += mx_snprintf(buf + w, len - (size_t)w, "%sbeats of %lld lanes hold one group of G=%lld: %lld lanes idle in each beat",
                 w ? "; " : "", wb, G, wb - G);
    /* the load path feeds load_lanes mantissas per cycle: multipliers past it never work */
    if (pt->cfg.pe_lanes > pt->cfg.load_lanes && w >= 0 && (size_t)w < len)
        w += mx_snprintf(buf + w, len - (size_t)w, "%spe.lanes=%lld but the load path brings %lld mantissas per operand per "
                         "cycle (pe.load_lanes): %lld lanes idle in each beat", w ? "; " : "", (long long)pt->cfg.pe_lanes,
                         (long long)pt->cfg.load_lanes, (long long)(pt->cfg.pe_lanes - pt->cfg.load_lanes));
    /* a tile holds whole groups (architecture.md section 3): a row of one group takes G + 1 bytes
    ** with its scale, so a large G leaves half an SRAM fewer rows than the array has PEs */
    const long long fit_a = (long long)(pt->cfg.sram_a_kib * 512 / (G + 1)), fit_b = (long long)(pt->cfg.sram_b_kib * 512 / (G + 1));
    const long long side = (long long)(pt->cfg.array_rows > pt->cfg.array_cols ? pt->cfg.array_rows : pt->cfg.array_cols);
    if (pt->cfg.operand_format == MXSIM_FMT_MXINT8 && (fit_a < side || fit_b < side) && w >= 0 && (size_t)w < len)
        mx_snprintf(buf + w, len - (size_t)w, "%sG=%lld: a tile holds whole groups, and half of SRAM A holds %lld rows of one "
                    "group, half of SRAM B %lld (G + 1 bytes each), fewer than the array's %lld: tiles shrink and PEs "
                    "idle (a smaller G or larger SRAMs avoid it)", w ? "; " : "", G, fit_a, fit_b, side);
}

/* One row: op k of point pt, or its TOTAL (op NULL). */
static mxsim_status add_row(mxsim_ctx *ctx, mxsim_table *t, const mxsim_sweep *sw, const mxsim_trace *tr, int64_t p,
                            const mxsim_sweep_point *pt, int64_t k, const mxsim_top *op, int acc_on)
{
    int64_t r = 0;
    char buf[512];
    mxsim_status st = mxsim_table_add_row(ctx, t, &r);
    if (st == MXSIM_OK) st = mxsim_table_set_int(ctx, t, r, "point", p);
    for (int a = 0; st == MXSIM_OK && a < mxsim_sweep_axis_count(sw); a++) st = set_axis(ctx, t, r, sw, a, pt->values[a]);
    int ok = pt->status == MXSIM_OK;
    mx_snprintf(buf, sizeof buf, "error: %s", pt->err);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, "profile", mxsim_profile_name(pt->profile));
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, "status", ok ? "ok" : buf);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, "op", op ? op->name : "TOTAL");
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, "kind", op ? mxsim_op_kind_name((mxsim_op_kind)op->kind) : "total");
    int64_t n_own = 0, n_pad = 0;
    for (int64_t i = op ? k : 0; ok && i < (op ? k + 1 : pt->n_ops); i++) {
        n_own += own_group(pt, i);
        n_pad += padded_len(pt, mxsim_trace_op(tr, i), i) != 0;
    }
    const int64_t dv[N_DIM] = {op ? op->m : 0, op ? op->n : 0, op ? op->k : 0, op ? op->repeat : 0,
                               op ? (ok ? pt->op_group[k] : 0) : pt->cfg.group_size, n_own, n_pad};
    /* every number of an ok row is a number (0 where a dimension does not apply); a failed
    ** point ran no op, so it has no counts of ops */
    for (int i = 0; st == MXSIM_OK && i < N_DIM; i++)
        st = !ok && i >= N_DIM - 2 ? mxsim_table_set_null(ctx, t, r, k_dim_cols[i][0])
                                   : mxsim_table_set_int(ctx, t, r, k_dim_cols[i][0], dv[i]);
    int first_stat = 0;
    while (strcmp(mxsim_table_column_name(t, first_stat), mxsim_tstats_field_at(0)->name)) first_stat++;
    if (!ok) { /* a failed point has no numbers */
        for (int c = first_stat; st == MXSIM_OK && c < mxsim_table_column_count(t); c++)
            st = mxsim_table_set_null(ctx, t, r, mxsim_table_column_name(t, c));
        return st;
    }
    const mxsim_tstats *s = op ? &pt->op_stats[k] : &pt->total;
    const mxsim_energy *e = op ? &pt->op_energy[k] : &pt->energy;
    const mxsim_accuracy *ac = op ? &pt->op_acc[k] : &pt->acc;
    if (st == MXSIM_OK) st = mx_tstats_set_row(ctx, t, r, s, 0); /* TOTAL: per-op fields are 0 */
    double leak = 0;
    for (int i = 0; i < MXSIM_COMP_COUNT_; i++) leak += e->leak_pj[MXSIM_BAND_NOM][i];
    const double cv[N_COST] = {pt->area.total_mm2[0], pt->area.total_mm2[1], pt->area.total_mm2[2], e->total_pj[0] * 1e-9,
                               e->total_pj[1] * 1e-9, e->total_pj[2] * 1e-9, leak * 1e-9, e->pj_per_mac[0], e->pj_per_mac[1],
                               e->pj_per_mac[2], e->tops_per_w[0], e->tops_per_w[1], e->tops_per_w[2],
                               e->tops_per_mm2[MXSIM_BAND_NOM], ac->sqnr_db, ac->max_rel_err};
    /* accuracy off: nothing measured (NaN, 0 outputs); an op without MACs (quantize, dequantize): no
    ** energy per MAC (NaN, not 0: it does cost energy) */
    for (int i = 0; st == MXSIM_OK && i < N_COST; i++) {
        const int per_mac = !strncmp(k_cost_cols[i][0], "pj_per_mac", 10) || !strncmp(k_cost_cols[i][0], "tops_per_w", 10);
        st = mxsim_table_set_real(ctx, t, r, k_cost_cols[i][0],
                                  (i >= N_COST - 2 && !acc_on) || (per_mac && s->n_macs == 0) ? NAN : cv[i]);
    }
    int64_t from_file = 0; /* TOTAL: ops whose data came from files (the overall flag is only an OR) */
    for (int64_t i = op ? k : 0; acc_on && i < (op ? k + 1 : pt->n_ops); i++) from_file += pt->op_acc[i].from_file != 0;
    const int64_t av[N_ACC_INT] = {acc_on ? ac->rows : 0, acc_on ? ac->cols : 0, acc_on ? ac->sampled : 0, from_file};
    for (int i = 0; st == MXSIM_OK && i < N_ACC_INT; i++) st = mxsim_table_set_int(ctx, t, r, k_acc_int_cols[i][0], av[i]);
    for (int c = 0; st == MXSIM_OK && c < MXSIM_COMP_COUNT_; c++) {
        mx_snprintf(buf, sizeof buf, "e_%s_mj", mxsim_component_name((mxsim_component)c));
        st = mxsim_table_set_real(ctx, t, r, buf, (e->dyn_pj[MXSIM_BAND_NOM][c] + e->leak_pj[MXSIM_BAND_NOM][c]) * 1e-9);
        mx_snprintf(buf, sizeof buf, "a_%s_mm2", mxsim_component_name((mxsim_component)c));
        if (st == MXSIM_OK) st = mxsim_table_set_real(ctx, t, r, buf, pt->area.um2[MXSIM_BAND_NOM][c] * 1e-6);
    }
    int64_t wb = op ? 0 : mx_mem_param_bytes(tr);
    for (int64_t i = op ? k : 0; i < (op ? k + 1 : pt->n_ops); i++) {
        const mxsim_top *o = mxsim_trace_op(tr, i);
        int64_t w = mx_mem_weight_bytes(tr, i, o->b_fmt >= 0 ? o->b_fmt : (int)pt->cfg.operand_format, pt->op_group[i]);
        wb = wb > INT64_MAX - w ? INT64_MAX : wb + w;
    }
    if (st == MXSIM_OK) st = mxsim_table_set_int(ctx, t, r, "weight_bytes", wb);
    group_note(pt, tr, k, op, buf, sizeof buf);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, k_note_col[0], buf);
    return st;
}

/* the sidecar's JSON object (below); csv_digest: the FNV-1a 64 of the CSV it describes, or NULL */
static mxsim_status meta_json(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr, const mxsim_sweep_info *info,
                              const mxsim_table *t, const char *csv_digest, char **text, size_t *len);

MXSIM_API mxsim_status mxsim_sweep_table(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                         const mxsim_sweep_info *info, int totals_only, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (sw == NULL || tr == NULL || info == NULL || info->opts == NULL || out == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "sweep_table: NULL argument");
    int64_t shards = 0;
    mxsim_sweep_shard(sw, NULL, &shards, NULL, NULL);
    if (shards > 0)
        return mx_fail(ctx, MXSIM_E_ARG, "sweep_table: a sharded sweep is written as a part file "
                                         "(mxsim_sweep_save_part); mxsim_sweep_merge joins the parts");
    if (mxsim_sweep_point_at(sw, 0) == NULL) return mx_fail(ctx, MXSIM_E_ARG, "sweep_table: the sweep has not run");
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    if (st == MXSIM_OK) st = add_columns(ctx, t, sw);
    char num[32];
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "format", "mxsim-sweep", 0);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "version", "2", 1);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "mxsim_version", mxsim_version(), 0);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "trace", info->trace_path ? info->trace_path : mxsim_trace_source(tr), 0);
    mx_snprintf(num, sizeof num, "%lld", (long long)mxsim_trace_count(tr));
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "n_ops", num, 1);
    if (st == MXSIM_OK && info->config_path) st = mxsim_table_set_meta(ctx, t, "config", info->config_path, 0);
    mx_snprintf(num, sizeof num, "%lld", (long long)mxsim_sweep_point_count(sw));
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "points", num, 1);
    /* what produced the numbers (axes, base configuration, cost and accuracy settings): the JSON
    ** form carries it whole, as the sidecar of a CSV does (the same object) */
    char *settings = NULL;
    size_t settings_len = 0;
    if (st == MXSIM_OK) st = meta_json(ctx, sw, tr, info, t, NULL, &settings, &settings_len);
    if (st == MXSIM_OK) st = mx_table_set_meta_json(ctx, t, "settings", settings);
    free(settings);
    for (int64_t p = 0; st == MXSIM_OK && p < mxsim_sweep_point_count(sw); p++) {
        const mxsim_sweep_point *pt = mxsim_sweep_point_at(sw, p);
        for (int64_t k = totals_only ? pt->n_ops : 0; st == MXSIM_OK && k <= pt->n_ops; k++)
            st = add_row(ctx, t, sw, tr, p, pt, k, k < pt->n_ops ? mxsim_trace_op(tr, k) : NULL, info->opts->accuracy);
    }
    return mx_table_handover(t, st, out);
}

/* A typed JSON value of text v: a number for int/real, else a string. */
static void json_typed(mx_buf *b, const char *type, const char *v)
{
    if (!strcmp(type, "int") || !strcmp(type, "bool")) mx_buf_printf(b, "%lld", strtoll(v, NULL, 10));
    else if (!strcmp(type, "real")) mx_buf_json_real(b, mx_strtod(v, NULL));
    else mx_buf_json_str(b, v);
}

MXSIM_API mxsim_status mxsim_sweep_meta_json(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                             const mxsim_sweep_info *info, const mxsim_table *t, char **text, size_t *len)
{
    return meta_json(ctx, sw, tr, info, t, NULL, text, len);
}

static mxsim_status meta_json(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr, const mxsim_sweep_info *info,
                              const mxsim_table *t, const char *csv_digest, char **text, size_t *len)
{
    mx_clear_err(ctx);
    if (sw == NULL || tr == NULL || info == NULL || info->opts == NULL || t == NULL || text == NULL || len == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "sweep_meta_json: NULL argument");
    const mxsim_sweep_opts *so = info->opts;
    mxsim_node_scale sc;
    mxsim_status st = mxsim_node_scaling(ctx, so->cost.node_nm, so->cost.vdd_v, &sc);
    if (st != MXSIM_OK) return st;
    mx_buf b = {0};
    mx_buf_puts(&b, "{\n  \"format\": \"mxsim-sweep\",\n  \"version\": 2,\n  ");
    /* which CSV this is: mxsim report refuses a CSV edited after, or from another sweep than, its
    ** sidecar (a 7 nm sidecar beside a 45 nm CSV gave a README saying 7 nm over 45 nm numbers) */
    if (csv_digest) mx_buf_printf(&b, "\"csv_fnv1a64\": \"%s\",\n  ", csv_digest);
    mx_buf_puts(&b, "\"mxsim_version\": ");
    mx_buf_json_str(&b, mxsim_version());
    mx_buf_puts(&b, ",\n  \"trace\": ");
    mx_buf_json_str(&b, info->trace_path ? info->trace_path : mxsim_trace_source(tr));
    mx_buf_printf(&b, ",\n  \"n_ops\": %lld,\n  \"config\": ", (long long)mxsim_trace_count(tr));
    if (info->config_path) mx_buf_json_str(&b, info->config_path);
    else mx_buf_puts(&b, "null");
    /* the numerics profile of every point (null: a numerics.profile axis sets it per point) */
    int prof_axis = 0;
    for (int a = 0; a < mxsim_sweep_axis_count(sw); a++) prof_axis |= !strcmp(mxsim_sweep_axis_key(sw, a), "numerics.profile");
    mx_buf_puts(&b, ",\n  \"profile\": ");
    if (prof_axis) mx_buf_puts(&b, "null");
    else mx_buf_json_str(&b, mxsim_profile_name((mxsim_profile)so->profile));
    mx_buf_printf(&b, ",\n  \"points\": %lld,\n  \"axes\": [", (long long)mxsim_sweep_point_count(sw));
    for (int a = 0; a < mxsim_sweep_axis_count(sw); a++) {
        const char *type = mxsim_sweep_axis_type(sw, a);
        mx_buf_puts(&b, a ? ",\n    {\"key\": " : "\n    {\"key\": ");
        mx_buf_json_str(&b, mxsim_sweep_axis_key(sw, a));
        mx_buf_printf(&b, ", \"type\": \"%s\", \"unit\": ", type);
        mx_buf_json_str(&b, mxsim_sweep_axis_unit(sw, a));
        mx_buf_puts(&b, ", \"values\": [");
        for (int v = 0; v < mxsim_sweep_axis_value_count(sw, a); v++) {
            if (v) mx_buf_puts(&b, ", ");
            json_typed(&b, type, mxsim_sweep_axis_value(sw, a, v));
        }
        mx_buf_puts(&b, "]}");
    }
    mx_buf_puts(&b, mxsim_sweep_axis_count(sw) ? "\n  ],\n  \"base\": {" : "],\n  \"base\": {");
    char val[64];
    for (int i = 0; i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        mx_buf_puts(&b, i ? ",\n    " : "\n    ");
        mx_buf_json_str(&b, f->name);
        mx_buf_puts(&b, ": ");
        json_typed(&b, f->type, mxsim_tconfig_format(mxsim_sweep_base(sw), i, val, sizeof val));
    }
    mx_buf_printf(&b, "\n  },\n  \"cost\": {\"node_nm\": %d, \"vdd_v\": ", sc.node_nm);
    mx_buf_json_real(&b, sc.vdd_v);
    const double cf[] = {sc.area_factor, sc.energy_factor, sc.sram_area_factor, so->cost.overhead_factor};
    static const char *const cn[] = {"area_factor", "energy_factor", "sram_area_factor", "overhead_factor"};
    for (int i = 0; i < 4; i++) {
        mx_buf_printf(&b, ", \"%s\": ", cn[i]);
        mx_buf_json_real(&b, cf[i]);
    }
    mx_buf_printf(&b, ", \"sram_bank_kib\": %lld},\n  \"accuracy\": ", (long long)so->cost.sram_bank_kib);
    if (so->accuracy) { /* null: accuracy was not measured */
        mx_buf_puts(&b, "{\"data\": ");
        mx_buf_json_str(&b, so->acc.data_dir ? so->acc.data_dir : "synthetic");
        mx_buf_printf(&b, ", \"seed\": %llu, \"sample_rows\": %lld, \"sample_cols\": %lld, \"reference\": \"float64\"}",
                      (unsigned long long)so->acc.seed, (long long)so->acc.sample_rows, (long long)so->acc.sample_cols);
    } else {
        mx_buf_puts(&b, "null");
    }
    mx_buf_puts(&b, ",\n  \"group_policy\": ");
    mx_buf_json_str(&b, so->strict_group ? "strict: a point fails when G does not divide an op's K (n)"
                                         : "an op whose K (n) G does not divide is padded with zeros to whole groups, "
                                           "timed and measured so, as mxsim run does (ops_padded, group_note)");
    mx_buf_puts(&b, ",\n  \"columns\": [");
    static const char *const k_types[] = {"text", "int", "real"};
    for (int c = 0; c < mxsim_table_column_count(t); c++) {
        mxsim_cell_type ct;
        const char *unit, *doc;
        mxsim_table_column_info(t, c, &ct, &unit, &doc);
        mx_buf_puts(&b, c ? ",\n    {\"name\": " : "\n    {\"name\": ");
        mx_buf_json_str(&b, mxsim_table_column_name(t, c));
        mx_buf_printf(&b, ", \"type\": \"%s\", \"unit\": ", k_types[ct]);
        mx_buf_json_str(&b, unit);
        mx_buf_puts(&b, ", \"doc\": ");
        mx_buf_json_str(&b, doc);
        mx_buf_puts(&b, "}");
    }
    mx_buf_puts(&b, "\n  ]\n}\n");
    *text = mx_buf_take(&b, len);
    return *text ? MXSIM_OK : mx_fail(ctx, MXSIM_E_NOMEM, "sweep_meta_json: out of memory");
}

MXSIM_API mxsim_status mxsim_sweep_save(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                        const mxsim_sweep_info *info, mxsim_output_format f, const char *path)
{
    mx_clear_err(ctx);
    if (path == NULL) return mx_fail(ctx, MXSIM_E_ARG, "sweep_save: NULL path");
    mxsim_table *t = NULL;
    char *csv = NULL, *meta = NULL, *meta_path = NULL;
    size_t csv_len = 0, meta_len = 0;
    mxsim_status st = mxsim_sweep_table(ctx, sw, tr, info, f == MXSIM_OUTPUT_TABLE || f == MXSIM_OUTPUT_MD, &t);
    if (st == MXSIM_OK) st = mxsim_table_render(ctx, t, f, &csv, &csv_len);
    /* CSV to a file gets the sidecar NAME.meta.json next to it; a device or FIFO (stdout) does not */
    struct stat sb;
    int sidecar = f == MXSIM_OUTPUT_CSV && !(stat(path, &sb) == 0 && !S_ISREG(sb.st_mode));
    if (st == MXSIM_OK && sidecar) {
        size_t L = strlen(path);
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        const char *dot = strrchr(base, '.');
        size_t stem = dot && dot != base ? (size_t)(dot - path) : L;
        meta_path = malloc(stem + 16);
        if (meta_path == NULL) st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep_save: out of memory");
        else mx_snprintf(meta_path, stem + 16, "%.*s.meta.json", (int)stem, path);
        char digest[17];
        mx_digest_hex(csv, csv_len, digest);
        if (st == MXSIM_OK) st = meta_json(ctx, sw, tr, info, t, digest, &meta, &meta_len);
    }
    if (st == MXSIM_OK) {
        mx_file_part pc = {csv, csv_len}, pm = {meta, meta_len};
        mx_file_set set[2] = {{path, &pc, 1}, {meta_path, &pm, 1}};
        st = mx_file_write_set(ctx, set, sidecar ? 2 : 1);
    }
    free(meta_path);
    free(meta);
    free(csv);
    mxsim_table_free(t);
    return st;
}

MXSIM_API mxsim_status mxsim_cost_area_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_cost_params *p,
                                             mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (cfg == NULL || p == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "cost_area_table: NULL argument");
    mxsim_area ar;
    mxsim_status st = mxsim_cost_area(ctx, cfg, p, &ar);
    if (st != MXSIM_OK) return st;
    mxsim_table *t = NULL;
    st = mxsim_table_create(ctx, &t);
    static const char *const cols[][3] = {{"instances", "", "units (SRAM: KiB; DRAM: 0)"},
                                          {"area_mm2", "mm2", "nominal constants"},
                                          {"area_mm2_low", "mm2", "low end of the constants' band"},
                                          {"area_mm2_high", "mm2", "high end of the constants' band"},
                                          {"share_pct", "%", "share of the nominal total"},
                                          {"leakage_mw", "mW", "leakage power, nominal"}};
    if (st == MXSIM_OK)
        st = mxsim_table_add_column(ctx, t, "component", MXSIM_CELL_TEXT, "",
                                    "control_wiring is (overhead factor - 1) x the rest", MXSIM_COL_BRIEF, -1);
    for (int i = 0; st == MXSIM_OK && i < 6; i++)
        st = mxsim_table_add_column(ctx, t, cols[i][0], MXSIM_CELL_REAL, cols[i][1], cols[i][2], MXSIM_COL_BRIEF, i == 4 ? 2 : -1);
    char num[64];
    mx_snprintf(num, sizeof num, "%d", ar.scale.node_nm);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "node_nm", num, 1);
    mx_snprintf(num, sizeof num, "%.17g", ar.scale.vdd_v);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "vdd_v", num, 1);
    mx_snprintf(num, sizeof num, "%.17g", p->overhead_factor);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "overhead_factor", num, 1);
    for (int c = 0; st == MXSIM_OK && c <= MXSIM_COMP_COUNT_; c++) {
        int tot = c == MXSIM_COMP_COUNT_;
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) != MXSIM_OK) break;
        st = mxsim_table_set_text(ctx, t, r, "component", tot ? "total" : mxsim_component_name((mxsim_component)c));
        const double v[] = {tot ? NAN : ar.instances[c],
                            tot ? ar.total_mm2[0] : ar.um2[MXSIM_BAND_NOM][c] * 1e-6,
                            tot ? ar.total_mm2[1] : ar.um2[MXSIM_BAND_LOW][c] * 1e-6,
                            tot ? ar.total_mm2[2] : ar.um2[MXSIM_BAND_HIGH][c] * 1e-6,
                            tot ? 100 : 100 * ar.um2[MXSIM_BAND_NOM][c] * 1e-6 / ar.total_mm2[MXSIM_BAND_NOM],
                            tot ? ar.leak_total_mw[0] : ar.leak_uw[MXSIM_BAND_NOM][c] * 1e-3};
        for (int i = 0; st == MXSIM_OK && i < 6; i++)
            st = tot && i == 0 ? mxsim_table_set_null(ctx, t, r, cols[i][0]) : mxsim_table_set_real(ctx, t, r, cols[i][0], v[i]);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_cost_const_table(mxsim_ctx *ctx, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "cost_const_table: NULL argument");
    *out = NULL;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const tc[] = {"key", "component", "what", "unit"};
    static const char *const rc[] = {"value", "low", "high", "vdd_v"};
    static const char *const tc2[] = {"source", "confidence", "refs", "derivation"};
    for (int i = 0; st == MXSIM_OK && i < 4; i++)
        st = mxsim_table_add_column(ctx, t, tc[i], MXSIM_CELL_TEXT, "", NULL, i != 2 ? MXSIM_COL_BRIEF : 0, -1);
    for (int i = 0; st == MXSIM_OK && i < 4; i++)
        st = mxsim_table_add_column(ctx, t, rc[i], MXSIM_CELL_REAL, i == 3 ? "V" : "", i == 3 ? "supply of the source (0: not stated)" : "in unit",
                                    MXSIM_COL_BRIEF, -1);
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, t, "node_nm", MXSIM_CELL_INT, "nm", "node of the source data", MXSIM_COL_BRIEF, -1);
    for (int i = 0; st == MXSIM_OK && i < 4; i++)
        st = mxsim_table_add_column(ctx, t, tc2[i], MXSIM_CELL_TEXT, "", i == 2 ? "citation keys (sim/doc/references.md)" : NULL,
                                    i < 3 ? MXSIM_COL_BRIEF : 0, -1);
    for (int k = 0; st == MXSIM_OK && k < mxsim_cost_const_count(); k++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(k);
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) != MXSIM_OK) break;
        const char *tv[] = {c->key, c->component, c->what, c->unit}, *tv2[] = {c->source, c->confidence, c->refs, c->derivation};
        const double rv[] = {c->value, c->low, c->high, c->vdd_v};
        for (int i = 0; st == MXSIM_OK && i < 4; i++) st = mxsim_table_set_text(ctx, t, r, tc[i], tv[i]);
        for (int i = 0; st == MXSIM_OK && i < 4; i++) st = mxsim_table_set_real(ctx, t, r, rc[i], rv[i]);
        if (st == MXSIM_OK) st = mxsim_table_set_int(ctx, t, r, "node_nm", c->node_nm);
        for (int i = 0; st == MXSIM_OK && i < 4; i++) st = mxsim_table_set_text(ctx, t, r, tc2[i], tv2[i]);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_cost_ref_table(mxsim_ctx *ctx, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "cost_ref_table: NULL argument");
    *out = NULL;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const cols[] = {"key", "anchor", "citation"};
    for (int c = 0; st == MXSIM_OK && c < 3; c++) st = mxsim_table_add_column(ctx, t, cols[c], MXSIM_CELL_TEXT, "", NULL, 0, -1);
    for (int i = 0; st == MXSIM_OK && i < mxsim_cost_ref_count(); i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_at(i);
        const char *v[] = {r->key, r->anchor, r->citation};
        int64_t row = 0;
        st = mxsim_table_add_row(ctx, t, &row);
        for (int c = 0; st == MXSIM_OK && c < 3; c++) st = mxsim_table_set_text(ctx, t, row, cols[c], v[c]);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_cost_constants_md(mxsim_ctx *ctx, const mxsim_node_scale *sc, char **text, size_t *len)
{
    mx_clear_err(ctx);
    if (text == NULL || len == NULL) return mx_fail(ctx, MXSIM_E_ARG, "cost_constants_md: NULL argument");
    mx_buf b = {0};
    mx_buf_puts(&b, "| key | component | what | value | low | high | unit | node (nm) | Vdd (V) | source | conf. | derivation |\n"
                    "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (int i = 0; i < mxsim_cost_const_count(); i++) {
        const mxsim_cost_const *c = mxsim_cost_const_at(i);
        mx_buf_printf(&b, "| `%s` | %s | ", c->key, c->component);
        mx_buf_md_cell(&b, c->what);
        mx_buf_printf(&b, " | %.6g | %.6g | %.6g | %s | %d | %g | ", c->value, c->low, c->high, c->unit, c->node_nm, c->vdd_v);
        mx_buf_md_cell(&b, c->source);
        mx_buf_printf(&b, " | %s | ", c->confidence);
        mx_buf_md_cell(&b, c->derivation);
        mx_buf_puts(&b, " |\n");
    }
    mx_buf_puts(&b, "\nReferences (source keys above):\n\n");
    for (int i = 0; i < mxsim_cost_ref_count(); i++) {
        const mxsim_cost_ref *r = mxsim_cost_ref_at(i);
        mx_buf_printf(&b, "- **%s** ", r->key);
        mx_buf_md_cell(&b, r->citation);
        mx_buf_printf(&b, " (`%s`)\n", r->anchor);
    }
    if (sc)
        mx_buf_printf(&b, "\nNode scaling (SB17 Stillmaker & Baas 2017, from 45 nm / 0.9 V): node %d nm, Vdd %g V: "
                          "logic area x%.4g, energy and leakage x%.4g, SRAM area x%.4g (%s). "
                          "DRAM energy is not scaled.\n",
                      sc->node_nm, sc->vdd_v, sc->area_factor, sc->energy_factor, sc->sram_area_factor,
                      mx_node_sram_basis(sc->node_nm));
    *text = mx_buf_take(&b, len);
    return *text ? MXSIM_OK : mx_fail(ctx, MXSIM_E_NOMEM, "cost_constants_md: out of memory");
}

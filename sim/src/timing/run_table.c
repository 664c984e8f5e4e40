/* run_table.c - the table of `mxsim run`: one row per op and a TOTAL row, every statistic
** column from MXSIM_TSTATS_FIELDS, the configuration and trace as JSON metadata. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tinternal.h"

mxsim_cell_type mx_tstats_cell_type(const mxsim_tstats_field *f)
{
    return strcmp(f->unit, "class") == 0 || strcmp(f->unit, "objective") == 0 ? MXSIM_CELL_TEXT
           : f->type[0] == 'r'                                                 ? MXSIM_CELL_REAL
                                                                               : MXSIM_CELL_INT;
}

/* Adds every statistic of the field table as a column; decimals < -1: the field's own. */
mxsim_status mx_tstats_add_columns(mxsim_ctx *ctx, mxsim_table *t, int use_brief, int decimals)
{
    mxsim_status st = MXSIM_OK;
    for (int i = 0; st == MXSIM_OK && i < mxsim_tstats_field_count(); i++) {
        const mxsim_tstats_field *f = mxsim_tstats_field_at(i);
        mxsim_cell_type ct = mx_tstats_cell_type(f);
        int real = ct == MXSIM_CELL_REAL;
        st = mxsim_table_add_column(ctx, t, f->name, ct, ct == MXSIM_CELL_TEXT ? "" : f->unit, f->doc,
                                    use_brief && f->brief ? MXSIM_COL_BRIEF : 0,
                                    decimals < -1 ? (real ? f->decimals : -1) : decimals);
    }
    return st;
}

/* Sets the statistic cells of row; total = 1 leaves per-op fields empty. */
mxsim_status mx_tstats_set_row(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const mxsim_tstats *s, int total)
{
    mxsim_status st = MXSIM_OK;
    for (int i = 0; st == MXSIM_OK && i < mxsim_tstats_field_count(); i++) {
        const mxsim_tstats_field *f = mxsim_tstats_field_at(i);
        if (total && f->agg == MXSIM_AGG_PER_OP) st = mxsim_table_set_null(ctx, t, row, f->name);
        else if (mx_tstats_cell_type(f) == MXSIM_CELL_TEXT)
            st = mxsim_table_set_text(ctx, t, row, f->name,
                                      f->unit[0] == 'c' ? mxsim_bound_name(mxsim_tstats_int(s, i))
                                                        : mxsim_tile_objective_name(mxsim_tstats_int(s, i)));
        else if (f->type[0] == 'r') st = mxsim_table_set_real(ctx, t, row, f->name, mxsim_tstats_value(s, i));
        else st = mxsim_table_set_int(ctx, t, row, f->name, mxsim_tstats_int(s, i) * (int64_t)f->scale);
    }
    return st;
}

/* Every configuration field as typed metadata (enumerations as their names). */
mxsim_status mx_tconfig_meta(mxsim_ctx *ctx, mxsim_table *t, const mxsim_tconfig *cfg)
{
    char val[64];
    mxsim_status st = MXSIM_OK;
    for (int i = 0; st == MXSIM_OK && i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        mxsim_tconfig_format(cfg, i, val, sizeof val);
        st = mxsim_table_set_meta(ctx, t, f->name, val, strcmp(f->type, "enum") != 0);
    }
    return st;
}

MXSIM_API mxsim_status mxsim_run_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_trace *tr,
                                       const mxsim_tstats *op_stats, const mxsim_tstats *total,
                                       mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (cfg == NULL || tr == NULL || out == NULL || total == NULL || (op_stats == NULL && mxsim_trace_count(tr) > 0))
        return mx_fail(ctx, MXSIM_E_ARG, "run_table: NULL argument");
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const dims[] = {"m", "n", "k", "repeat"};
    static const char *const dim_docs[] = {"rows of A and C (elementwise: rows)", "columns of C (elementwise: columns)",
                                           "reduction depth (GEMM only)", "back-to-back executions"};
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, t, "op", MXSIM_CELL_TEXT, "", "op name (TOTAL: the sum)", MXSIM_COL_BRIEF, -1);
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, t, "kind", MXSIM_CELL_TEXT, "", "gemm, dequant, quantize or total", MXSIM_COL_BRIEF, -1);
    for (int d = 0; st == MXSIM_OK && d < 4; d++)
        st = mxsim_table_add_column(ctx, t, dims[d], MXSIM_CELL_INT, d < 3 ? "elements" : "", dim_docs[d], MXSIM_COL_BRIEF, -1);
    if (st == MXSIM_OK) st = mx_tstats_add_columns(ctx, t, 1, -2);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "mxsim_version", mxsim_version(), 0);
    if (st == MXSIM_OK) st = mxsim_table_set_meta(ctx, t, "trace", mxsim_trace_source(tr), 0);
    if (st == MXSIM_OK) st = mx_tconfig_meta(ctx, t, cfg);
    int64_t n = mxsim_trace_count(tr), row = 0;
    for (int64_t i = 0; st == MXSIM_OK && i <= n; i++) {
        const mxsim_top *op = i < n ? mxsim_trace_op(tr, i) : NULL;
        if ((st = mxsim_table_add_row(ctx, t, &row)) != MXSIM_OK) break;
        st = mxsim_table_set_text(ctx, t, row, "op", op ? op->name : "TOTAL");
        if (st == MXSIM_OK)
            st = mxsim_table_set_text(ctx, t, row, "kind", op ? mxsim_op_kind_name((mxsim_op_kind)op->kind) : "total");
        const int64_t dv[] = {op ? op->m : 0, op ? op->n : 0, op && op->kind == MXSIM_OP_GEMM ? op->k : 0, op ? op->repeat : 0};
        for (int d = 0; st == MXSIM_OK && d < 4; d++)
            st = op && (d != 2 || op->kind == MXSIM_OP_GEMM) ? mxsim_table_set_int(ctx, t, row, dims[d], dv[d])
                                                               : mxsim_table_set_null(ctx, t, row, dims[d]);
        if (st == MXSIM_OK) st = mx_tstats_set_row(ctx, t, row, op ? &op_stats[i] : total, op == NULL);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_tconfig_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (cfg == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tconfig_table: NULL argument");
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const tcols[] = {"key", "value", "type", "unit"};
    static const char *const rcols[] = {"min", "max", "default"};
    for (int i = 0; st == MXSIM_OK && i < 4; i++) st = mxsim_table_add_column(ctx, t, tcols[i], MXSIM_CELL_TEXT, "", NULL, MXSIM_COL_BRIEF, -1);
    for (int i = 0; st == MXSIM_OK && i < 3; i++)
        st = mxsim_table_add_column(ctx, t, rcols[i], MXSIM_CELL_REAL, "", "bound or default in the field's unit (enum: index)", MXSIM_COL_BRIEF, -1);
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, t, "doc", MXSIM_CELL_TEXT, "", "choices of an enum, then the doc", MXSIM_COL_BRIEF, -1);
    char val[64], doc[512];
    for (int i = 0; st == MXSIM_OK && i < mxsim_tconfig_field_count(); i++) {
        const mxsim_tconfig_field *f = mxsim_tconfig_field_at(i);
        int64_t r = 0;
        if ((st = mxsim_table_add_row(ctx, t, &r)) != MXSIM_OK) break;
        const char *tv[] = {f->name, mxsim_tconfig_format(cfg, i, val, sizeof val), f->type, f->unit};
        for (int k = 0; st == MXSIM_OK && k < 4; k++) st = mxsim_table_set_text(ctx, t, r, tcols[k], tv[k]);
        const double rv[] = {f->lo, f->hi, f->def};
        for (int k = 0; st == MXSIM_OK && k < 3; k++) st = mxsim_table_set_real(ctx, t, r, rcols[k], rv[k]);
        mx_snprintf(doc, sizeof doc, "%s%s%s%s", f->choices ? "[" : "", f->choices ? f->choices : "", f->choices ? "] " : "", f->doc);
        if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, t, r, "doc", doc);
    }
    return mx_table_handover(t, st, out);
}

MXSIM_API mxsim_status mxsim_tstats_table(mxsim_ctx *ctx, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tstats_table: NULL argument");
    *out = NULL;
    mxsim_table *t = NULL;
    mxsim_status st = mxsim_table_create(ctx, &t);
    static const char *const cols[] = {"column", "unit", "type", "kinds", "total", "doc"};
    for (int c = 0; st == MXSIM_OK && c < 6; c++) st = mxsim_table_add_column(ctx, t, cols[c], MXSIM_CELL_TEXT, "", NULL, 0, -1);
    for (int i = 0; st == MXSIM_OK && i < mxsim_tstats_field_count(); i++) {
        const mxsim_tstats_field *f = mxsim_tstats_field_at(i);
        char kinds[32] = "";
        for (int k = 0; k < 3; k++)
            if (f->kinds & (1 << k)) mx_snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", kinds[0] ? " " : "",
                                              mxsim_op_kind_name((mxsim_op_kind)k));
        const char *v[] = {f->name, f->unit, f->type, f->kinds == MXSIM_KINDS_ALL ? "all" : kinds, mxsim_agg_name(f->agg), f->doc};
        int64_t r = 0;
        st = mxsim_table_add_row(ctx, t, &r);
        for (int c = 0; st == MXSIM_OK && c < 6; c++) st = mxsim_table_set_text(ctx, t, r, cols[c], v[c]);
    }
    return mx_table_handover(t, st, out);
}

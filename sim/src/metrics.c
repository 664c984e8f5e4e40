/* metrics.c - numerical error of a result against a reference (SQNR, max abs/rel error, bit
** mismatches).  Sums run in double in element order, so the figures are deterministic. */
#include <math.h>
#include <string.h>

#include "internal.h"

static double elem(const mxsim_tensor *t, int64_t i)
{
    if (t->dtype == MXSIM_DTYPE_F32) return ((const float *)t->data)[i];
    return mxsim_bf16_to_f32(((const uint16_t *)t->data)[i]);
}

MXSIM_API mxsim_status mxsim_compare(mxsim_ctx *ctx, const mxsim_tensor *ref,
                                     const mxsim_tensor *test, mxsim_error_stats *out)
{
    mx_clear_err(ctx);
    char s1[160], s2[160];
    if (ref == NULL || test == NULL || out == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_compare: NULL argument");
    for (int k = 0; k < 2; k++) {
        const mxsim_tensor *t = k ? test : ref;
        if (t->dtype != MXSIM_DTYPE_F32 && t->dtype != MXSIM_DTYPE_BF16)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: dtype %s, expected float32 or bf16",
                           k ? "test" : "reference", mxsim_dtype_numpy(t->dtype));
    }
    int same = ref->ndim == test->ndim;
    for (int i = 0; same && i < ref->ndim; i++) same = ref->shape[i] == test->shape[i];
    if (!same)
        return mx_fail(ctx, MXSIM_E_INPUT, "shape mismatch: reference %s, test %s",
                       mx_shape_str(ref->ndim, ref->shape, s1, sizeof s1),
                       mx_shape_str(test->ndim, test->shape, s2, sizeof s2));
    if (ref->numel == 0) /* an SQNR of +Inf for no data would read as a perfect match */
        return mx_fail(ctx, MXSIM_E_INPUT, "nothing to compare: shape %s has no elements",
                       mx_shape_str(ref->ndim, ref->shape, s1, sizeof s1));
    memset(out, 0, sizeof *out);
    double sig = 0, noise = 0, sum_abs = 0;
    int64_t n_finite = 0, n_inf_err = 0;
    for (int64_t i = 0; i < ref->numel; i++) {
        double r = elem(ref, i), t = elem(test, i);
        out->n++;
        if (isnan(r) && isnan(t)) continue; /* NaN against NaN: the same class, no error */
        out->n_nan_mismatch += isnan(r) != isnan(t);
        const int differ = memcmp(&r, &t, sizeof r) != 0;
        out->n_bit_mismatch += differ;
        if (!isfinite(r) || !isfinite(t)) {
            /* a NaN or an infinity where the other side differs has no finite error: counting it as
            ** none would report a test that is all NaN as identical (SQNR +Inf) */
            n_inf_err += differ;
            continue;
        }
        double e = fabs(t - r);
        sig += r * r;
        noise += e * e;
        sum_abs += e;
        n_finite++;
        if (e > out->max_abs_err) out->max_abs_err = e;
        const double rel = r != 0 ? e / fabs(r) : e != 0 ? INFINITY : 0.0;
        if (rel > out->max_rel_err) out->max_rel_err = rel;
    }
    if (n_inf_err) {
        out->sqnr_db = -INFINITY;
        out->max_abs_err = out->max_rel_err = out->mean_abs_err = INFINITY;
        return MXSIM_OK;
    }
    out->sqnr_db = noise == 0 ? INFINITY : sig == 0 ? -INFINITY : 10.0 * log10(sig / noise);
    out->mean_abs_err = n_finite ? sum_abs / (double)n_finite : 0.0;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_compare_table(mxsim_ctx *ctx, const mxsim_error_stats *es, const char *ref_name,
                                           const char *test_name, mxsim_table **out)
{
    mx_clear_err(ctx);
    if (es == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_compare_table: NULL argument");
    *out = NULL;
    static const char *const icols[] = {"elements", "bit_mismatches", "nan_mismatches"};
    static const char *const idoc[] = {"elements compared", "elements whose bits differ (NaN against NaN counts as equal)",
                                       "elements that are NaN in exactly one of the two"};
    static const char *const rcols[] = {"sqnr_db", "max_abs_err", "max_rel_err", "mean_abs_err"};
    /* the pairs an error sums over: finite ones (a NaN against a NaN, or equal infinities, is no
    ** error and left out of the sums, though counted in elements) */
    static const char *const rdoc[] = {"10 log10(ref energy / error energy) over finite pairs; inf when every pair is equal, "
                                       "-inf when a NaN or inf meets a different value or the reference is all zero; "
                                       "JSON writes a non-finite value as null",
                                       "max |test - ref| over finite pairs; inf when a NaN or inf meets a different value",
                                       "max |test - ref| / |ref| over finite pairs (inf where ref = 0 != test); inf when a NaN or inf "
                                       "meets a different value",
                                       "mean |test - ref| over finite pairs (NaN/NaN and equal-inf pairs left out); inf when a NaN "
                                       "or inf meets a different value"};
    const int64_t iv[] = {es->n, es->n_bit_mismatch, es->n_nan_mismatch};
    const double rv[] = {es->sqnr_db, es->max_abs_err, es->max_rel_err, es->mean_abs_err};
    mxsim_table *tb = NULL;
    mxsim_status st = mxsim_table_create(ctx, &tb);
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, tb, "ref", MXSIM_CELL_TEXT, "", "reference file", 0, -1);
    if (st == MXSIM_OK) st = mxsim_table_add_column(ctx, tb, "test", MXSIM_CELL_TEXT, "", "compared file", 0, -1);
    for (int i = 0; st == MXSIM_OK && i < 3; i++)
        st = mxsim_table_add_column(ctx, tb, icols[i], MXSIM_CELL_INT, "elements", idoc[i], MXSIM_COL_BRIEF, -1);
    for (int i = 0; st == MXSIM_OK && i < 4; i++)
        /* errors in 6 significant digits: 6 decimals printed a real 1.19e-07 as 0.000000 beside 3 mismatches */
        st = mxsim_table_add_column(ctx, tb, rcols[i], MXSIM_CELL_REAL, i ? "" : "dB", rdoc[i], MXSIM_COL_BRIEF, i ? -6 : 3);
    int64_t row = 0;
    if (st == MXSIM_OK) st = mxsim_table_add_row(ctx, tb, &row);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, row, "ref", ref_name ? ref_name : "");
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, row, "test", test_name ? test_name : "");
    for (int i = 0; st == MXSIM_OK && i < 3; i++) st = mxsim_table_set_int(ctx, tb, row, icols[i], iv[i]);
    for (int i = 0; st == MXSIM_OK && i < 4; i++) st = mxsim_table_set_real(ctx, tb, row, rcols[i], rv[i]);
    if (st != MXSIM_OK) {
        mxsim_table_free(tb);
        return st;
    }
    *out = tb;
    return MXSIM_OK;
}

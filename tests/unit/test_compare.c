/* test_compare.c - mxsim_compare (the `mxsim compare` command) against hand-computed figures:
** finite errors, and what a NaN or an infinity on either side does to them.  A test that is all
** NaN, or holds an infinity where the reference is finite, must not read as identical. */
#include <math.h>

#include "mxsim.h"
#include "mxtest.h"

/* ref and test as 1-D float32 tensors of n elements, compared into *s; 1 on success */
static int cmp(const float *ref, const float *test, int n, mxsim_error_stats *s)
{
    mxsim_ctx *ctx = NULL;
    mxsim_tensor *r = NULL, *t = NULL;
    int64_t shape[1] = {n};
    int ok = mxsim_ctx_create(&ctx) == MXSIM_OK && mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 1, shape, &r) == MXSIM_OK &&
             mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 1, shape, &t) == MXSIM_OK;
    if (ok) {
        memcpy(mxsim_tensor_data(r), ref, sizeof(float) * (size_t)n);
        memcpy(mxsim_tensor_data(t), test, sizeof(float) * (size_t)n);
        ok = mxsim_compare(ctx, r, t, s) == MXSIM_OK;
    }
    MXT_TRUE(ok);
    mxsim_tensor_free(r);
    mxsim_tensor_free(t);
    mxsim_ctx_destroy(ctx);
    return ok;
}

#define NEAR(a, b) MXT_TRUE(fabs((a) - (b)) <= 1e-12 * fabs(b))

MXTEST(finite_errors_by_hand)
{
    /* errors 0, 0, 0, 1: signal 1 + 4 + 9 + 16 = 30, noise 1 -> 10 log10(30) dB; rel 1/4 */
    const float r[4] = {1, 2, 3, 4}, t[4] = {1, 2, 3, 5};
    mxsim_error_stats s;
    if (!cmp(r, t, 4, &s)) return;
    MXT_EQ_INT(s.n, 4);
    MXT_EQ_INT(s.n_bit_mismatch, 1);
    MXT_EQ_INT(s.n_nan_mismatch, 0);
    NEAR(s.sqnr_db, 10.0 * log10(30.0));
    NEAR(s.max_abs_err, 1.0);
    NEAR(s.max_rel_err, 0.25);
    NEAR(s.mean_abs_err, 0.25);
}

MXTEST(identical_including_nan_and_equal_infinities_is_no_error)
{
    const float r[4] = {NAN, INFINITY, -INFINITY, 2}, t[4] = {NAN, INFINITY, -INFINITY, 2};
    mxsim_error_stats s;
    if (!cmp(r, t, 4, &s)) return;
    MXT_EQ_INT(s.n_bit_mismatch, 0);
    MXT_EQ_INT(s.n_nan_mismatch, 0);
    MXT_TRUE(isinf(s.sqnr_db) && s.sqnr_db > 0);
    MXT_TRUE(s.max_abs_err == 0 && s.max_rel_err == 0 && s.mean_abs_err == 0);
}

MXTEST(an_infinity_against_a_finite_reference_is_an_infinite_error)
{
    const float r[4] = {1, 2, 3, 4}, t[4] = {1, INFINITY, 3, 4};
    mxsim_error_stats s;
    if (!cmp(r, t, 4, &s)) return;
    MXT_EQ_INT(s.n_bit_mismatch, 1);
    MXT_EQ_INT(s.n_nan_mismatch, 0);
    MXT_TRUE(isinf(s.sqnr_db) && s.sqnr_db < 0);
    MXT_TRUE(isinf(s.max_abs_err) && isinf(s.max_rel_err) && isinf(s.mean_abs_err));
}

MXTEST(a_test_that_is_mostly_nan_is_not_identical)
{
    const float r[4] = {1, 2, 3, 4}, t[4] = {NAN, NAN, NAN, 4};
    mxsim_error_stats s;
    if (!cmp(r, t, 4, &s)) return;
    MXT_EQ_INT(s.n_bit_mismatch, 3);
    MXT_EQ_INT(s.n_nan_mismatch, 3);
    MXT_TRUE(isinf(s.sqnr_db) && s.sqnr_db < 0);
    MXT_TRUE(isinf(s.max_abs_err));
}

MXTEST(opposite_infinities_differ)
{
    const float r[2] = {INFINITY, 1}, t[2] = {-INFINITY, 1};
    mxsim_error_stats s;
    if (!cmp(r, t, 2, &s)) return;
    MXT_EQ_INT(s.n_bit_mismatch, 1);
    MXT_TRUE(isinf(s.sqnr_db) && s.sqnr_db < 0);
}

MXTEST(a_zero_reference_gives_an_infinite_relative_error_where_test_differs)
{
    /* signal 0, noise 1e-6 (in float: 0.001f squared): SQNR -Inf; max abs 0.001f; rel +Inf */
    const float r[3] = {0, 0, 0}, t[3] = {0, 0.001f, 0};
    mxsim_error_stats s;
    if (!cmp(r, t, 3, &s)) return;
    MXT_EQ_INT(s.n_bit_mismatch, 1);
    MXT_TRUE(isinf(s.sqnr_db) && s.sqnr_db < 0);
    NEAR(s.max_abs_err, (double)0.001f);
    MXT_TRUE(isinf(s.max_rel_err));
    NEAR(s.mean_abs_err, (double)0.001f / 3);
}

MXTEST_MAIN()

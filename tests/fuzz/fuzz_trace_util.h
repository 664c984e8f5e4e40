/* fuzz_trace_util.h - checks shared by the trace targets (text, .gz, SCALE-Sim CSV, model).
**
** After a successful load: every op holds the bounds mxsim_trace_append documents; the trace,
** saved with mxsim_trace_save (plain or .gz) and read back, gives the same ops (the writer and
** the reader agree).  The ops are not timed here: the analytic engine's cost grows with the
** op's size, which would make the fuzzer measure the engine instead of the parser (absurd
** dimensions through `mxsim run` are in the bad-input catalogue, tests/badinput/).
*/
#ifndef MXSIM_FUZZ_TRACE_UTIL_H
#define MXSIM_FUZZ_TRACE_UTIL_H

#include "fuzz_common.h"

#define FZ_MAX_DIM ((int64_t)1 << 31)

static inline void fz_check_op(const mxsim_top *o)
{
    fz_check(o->kind >= MXSIM_OP_GEMM && o->kind <= MXSIM_OP_QUANTIZE);
    fz_check(o->name[0] != '\0' && memchr(o->name, '\0', sizeof o->name) != NULL);
    fz_check(o->m >= 1 && o->m <= FZ_MAX_DIM && o->n >= 1 && o->n <= FZ_MAX_DIM);
    fz_check(o->kind != MXSIM_OP_GEMM || (o->k >= 1 && o->k <= FZ_MAX_DIM));
    fz_check(o->repeat >= 1);
    fz_check(o->group_size >= 0 && o->group_size <= MXSIM_MAX_GROUP);
    fz_check(o->a_fmt >= -1 && o->a_fmt <= 1 && o->b_fmt >= -1 && o->b_fmt <= 1);
    fz_check(o->out_fmt >= -1 && o->out_fmt <= 2);
}

static inline int fz_same_op(const mxsim_top *a, const mxsim_top *b)
{
    return a->kind == b->kind && strcmp(a->name, b->name) == 0 && a->m == b->m && a->n == b->n &&
           (a->kind != MXSIM_OP_GEMM || a->k == b->k) && a->group_size == b->group_size &&
           a->repeat == b->repeat && a->a_fmt == b->a_fmt && a->b_fmt == b->b_fmt &&
           a->out_fmt == b->out_fmt;
}

/* Runs every check above on a loaded trace; frees it. */
static inline void fz_check_trace(mxsim_ctx *ctx, mxsim_trace *t, int gz)
{
    int64_t n = mxsim_trace_count(t);
    fz_check(n >= 0);
    for (int64_t i = 0; i < n; i++) fz_check_op(mxsim_trace_op(t, i));

    /* writer and reader agree */
    const char *rt = fz_path(gz ? "rt.trace.gz" : "rt.trace");
    char rtpath[320];
    snprintf(rtpath, sizeof rtpath, "%s", rt);
    fz_check(mxsim_trace_save(ctx, t, rtpath) == MXSIM_OK);
    mxsim_trace *back = NULL;
    mxsim_status st = mxsim_trace_load(ctx, rtpath, &back);
    if (st != MXSIM_OK) fprintf(stderr, "round trip: %s\n", mxsim_errmsg(ctx));
    fz_check(st == MXSIM_OK);
    fz_check(mxsim_trace_count(back) == n);
    for (int64_t i = 0; i < n; i++) fz_check(fz_same_op(mxsim_trace_op(t, i), mxsim_trace_op(back, i)));
    for (int64_t i = 0; i < n; i++) fz_check(mxsim_trace_b_role(t, i) == mxsim_trace_b_role(back, i));
    fz_check(mxsim_trace_param_count(back) == mxsim_trace_param_count(t));
    for (int64_t i = 0; i < mxsim_trace_param_count(t); i++) {
        const char *n1, *n2, *w1, *w2;
        int64_t e1, e2, c1, c2;
        fz_check(mxsim_trace_param(t, i, &n1, &e1, &c1, &w1) == MXSIM_OK);
        fz_check(mxsim_trace_param(back, i, &n2, &e2, &c2, &w2) == MXSIM_OK);
        fz_check(strcmp(n1, n2) == 0 && strcmp(w1, w2) == 0 && e1 == e2 && c1 == c2 && e1 >= 1 && c1 >= 1);
    }
    mxsim_trace_free(back);

    /* the memory table (linear in the ops, no engine): a table, or a refusal with a message */
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_table *mt = NULL;
    const int64_t gs[] = {1, 32, MXSIM_MAX_GROUP};
    st = mxsim_memory_table(ctx, &cfg, t, gs, 3, &mt);
    if (st != MXSIM_OK) {
        fz_check(mt == NULL);
        fz_check_failure(ctx, st);
    }
    mxsim_table_free(mt);

    mxsim_trace_free(t);
}

/* The end of every trace-producing target: a refusal leaves no trace and a message; a trace
** passes fz_check_trace (and is freed). */
static inline void fz_check_loaded(mxsim_ctx *ctx, mxsim_status st, mxsim_trace *t, int gz)
{
    if (st != MXSIM_OK) {
        fz_check(t == NULL);
        fz_check_failure(ctx, st);
        return;
    }
    fz_check_trace(ctx, t, gz);
}

#endif

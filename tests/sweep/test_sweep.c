/* test_sweep.c - sweep enumeration order, thread-count independence, group fitting, per-point
** failures and axis validation. */
#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_trace *small_trace(mxsim_ctx *ctx)
{
    mxsim_trace *tr;
    if (mxsim_trace_create(ctx, "mem", &tr) != MXSIM_OK) return NULL;
    mxsim_top op = mxt_gemm_op("proj", 64, 96, 256);
    op.repeat = 2;
    mxsim_trace_append(ctx, tr, &op);
    snprintf(op.name, sizeof op.name, "scores"); /* K = 64: G = 128 does not divide it */
    op.m = 32;
    op.n = 32;
    op.k = 64;
    mxsim_trace_append(ctx, tr, &op);
    op.kind = MXSIM_OP_QUANTIZE;
    snprintf(op.name, sizeof op.name, "probs_q");
    op.k = 0;
    op.n = 128;
    mxsim_trace_append(ctx, tr, &op);
    return tr;
}

static mxsim_sweep *make(mxsim_ctx *ctx)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw = NULL;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.size", "8,16"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "mx.group_size", "16,32,128"), MXSIM_OK);
    return sw;
}

MXTEST(points_enumerate_first_axis_slowest)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep *sw = make(ctx);
    MXT_EQ_INT(mxsim_sweep_point_count(sw), 6);
    MXT_TRUE(mxsim_sweep_point_at(sw, 0) == NULL); /* not run yet */
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    const mxsim_sweep_point *p4 = mxsim_sweep_point_at(sw, 4);
    MXT_TRUE(p4 != NULL);
    MXT_TRUE(!strcmp(p4->values[0], "16") && !strcmp(p4->values[1], "32"));
    MXT_EQ_INT(p4->cfg.array_rows, 16);
    MXT_EQ_INT(p4->cfg.array_cols, 16);
    MXT_EQ_INT(p4->cfg.group_size, 32);
    MXT_EQ_INT(p4->status, MXSIM_OK);
    /* totals are the sum of the ops */
    int64_t cyc = 0, macs = 0;
    for (int64_t k = 0; k < p4->n_ops; k++) {
        cyc += p4->op_stats[k].cycles_total;
        macs += p4->op_stats[k].n_macs;
    }
    MXT_EQ_INT(p4->total.cycles_total, cyc);
    MXT_EQ_INT(p4->total.n_macs, macs);
    MXT_EQ_INT(macs, 2 * (64 * 96 * 256 + 32 * 32 * 64));
    /* the same op timed directly gives the same stats */
    mxsim_tstats st;
    MXT_EQ_INT(mxsim_time_op(ctx, &p4->cfg, mxsim_trace_op(tr, 0), "mem", 0, NULL, &st), MXSIM_OK);
    MXT_EQ_INT(st.cycles_total, p4->op_stats[0].cycles_total);
    MXT_TRUE(p4->energy.total_pj[0] > 0 && p4->area.total_mm2[0] > 0);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST(results_do_not_depend_on_the_thread_count)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep *s1 = make(ctx), *s3 = make(ctx);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, s1, tr, &o), MXSIM_OK);
    o.n_threads = 3;
    MXT_EQ_INT(mxsim_sweep_run(ctx, s3, tr, &o), MXSIM_OK);
    for (int64_t i = 0; i < mxsim_sweep_point_count(s1); i++) {
        const mxsim_sweep_point *a = mxsim_sweep_point_at(s1, i), *b = mxsim_sweep_point_at(s3, i);
        MXT_TRUE(memcmp(&a->total, &b->total, sizeof a->total) == 0);
        MXT_TRUE(memcmp(&a->energy, &b->energy, sizeof a->energy) == 0);
        MXT_TRUE(memcmp(&a->acc, &b->acc, sizeof a->acc) == 0);
        for (int64_t k = 0; k < a->n_ops; k++) {
            MXT_TRUE(memcmp(&a->op_stats[k], &b->op_stats[k], sizeof a->op_stats[k]) == 0);
            MXT_TRUE(memcmp(&a->op_acc[k], &b->op_acc[k], sizeof a->op_acc[k]) == 0);
        }
    }
    mxsim_sweep_free(s1);
    mxsim_sweep_free(s3);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST(group_that_does_not_divide_k_is_padded_or_fails_when_strict)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep *sw = make(ctx);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 2;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    const mxsim_sweep_point *p = mxsim_sweep_point_at(sw, 2); /* 8x8, G = 128 */
    MXT_EQ_INT(p->status, MXSIM_OK);
    MXT_EQ_INT(p->op_group[0], 128);
    MXT_EQ_INT(p->op_group[1], 128); /* K = 64: padded to one group of 128, as mxsim run does */
    MXT_EQ_INT(p->op_group[2], 128);
    /* accuracy of the same (op, G) is shared across array sizes */
    const mxsim_sweep_point *q = mxsim_sweep_point_at(sw, 5);
    MXT_TRUE(memcmp(&p->acc, &q->acc, sizeof p->acc) == 0);
    o.strict_group = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    p = mxsim_sweep_point_at(sw, 2);
    MXT_EQ_INT(p->status, MXSIM_E_INPUT);
    MXT_TRUE(strstr(p->err, "scores") != NULL && strstr(p->err, "'group'") != NULL);
    MXT_EQ_INT(mxsim_sweep_point_at(sw, 1)->status, MXSIM_OK);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST(axes_are_validated_up_front)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.colz", "8,16"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "array.colz") != NULL);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "8,0"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "8,,16"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "8,8"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "numerics.profile", "ocp,bogus"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "numerics.profile", "ocp,mase"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "numerics.profile", "ocp"), MXSIM_E_INPUT); /* twice */
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "exp.acc_mode", "fp32,exact"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_point_count(sw), 4);
    MXT_EQ_INT(mxsim_sweep_axis_count(sw), 2);
    MXT_TRUE(!strcmp(mxsim_sweep_axis_key(sw, 1), "exp.acc_mode"));
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 2;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_point_at(sw, 2)->profile, MXSIM_PROFILE_MASE);
    MXT_EQ_INT(mxsim_sweep_point_at(sw, 3)->cfg.acc_mode, MXSIM_ACC_EXACT);
    /* exact accumulation costs more energy than fp32 on the same work */
    MXT_TRUE(mxsim_sweep_point_at(sw, 1)->energy.total_pj[0] > mxsim_sweep_point_at(sw, 0)->energy.total_pj[0]);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

/* Options not filled by mxsim_sweep_opts_default (or holding a hand-zeroed nested struct) are
** refused with a message; then a good run leaves the context's message empty. */
/* The caller's cancellation hook is polled before each point (from the worker threads): a hook
** that says stop on its k-th poll leaves MXSIM_E_CANCELLED, a message, and no results; with
** one thread exactly k polls were made (one per point run, plus the one that stopped it). */
static int g_polls, g_stop_at;
static int stop_hook(void *user)
{
    (void)user;
    return ++g_polls >= g_stop_at;
}

MXTEST(cancellation_stops_between_points)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep *sw = make(ctx);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    MXT_EQ_INT(mxsim_ctx_set_cancel(ctx, stop_hook, NULL), MXSIM_OK);
    for (unsigned threads = 1; threads <= 4; threads += 3)
        for (g_stop_at = 1; g_stop_at <= 6; g_stop_at++) {
            g_polls = 0;
            o.n_threads = threads;
            MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_E_CANCELLED);
            MXT_TRUE(strstr(mxsim_errmsg(ctx), "sweep: cancelled after") != NULL);
            MXT_TRUE(mxsim_sweep_point_at(sw, 0) == NULL);
            if (threads == 1) MXT_EQ_INT(g_polls, g_stop_at);
        }
    /* never asked to stop, accuracy off: 6 points run, one poll each and one that finds no
    ** work left (with accuracy, each distinct accuracy job is polled for too) */
    g_stop_at = 1000;
    g_polls = 0;
    o.n_threads = 1;
    o.accuracy = 0;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    MXT_EQ_INT(g_polls, 7);
    MXT_TRUE(mxsim_sweep_point_at(sw, 5) != NULL);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST(sweep_opts_need_their_default_function)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = small_trace(ctx);
    mxsim_sweep *sw = make(ctx);
    mxsim_sweep_opts o;
    memset(&o, 0, sizeof o);
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxsim_sweep_opts.struct_size") != NULL);
    mxsim_sweep_opts_default(&o);
    memset(&o.cost, 0, sizeof o.cost);
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxsim_cost_params.struct_size") != NULL);
    mxsim_sweep_opts_default(&o);
    o.acc.struct_size = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "mxsim_accuracy_opts.struct_size") != NULL);
    mxsim_sweep_opts_default(&o);
    o.accuracy = 0;
    o.n_threads = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()
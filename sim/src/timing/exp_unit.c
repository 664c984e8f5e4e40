/* exp_unit.c - the shared-exponent units: each takes the int32 partial sum a PE hands over at the
** end of a group, applies the group's two scale exponents and accumulates; one unit per PE, per
** array row or per array column (exp.share), initiation interval II, latency exp.latency_cycles.
**
** Timing rule: a unit is a work-conserving arbiter, a FIFO that issues its oldest waiting
** operation every II cycles while any waits (mx_texp_issue, stepped by the detailed engine; in
** closed form mx_texp_fifo_last_issue).  The array controller releases steps at the throughput of
** the busiest unit, I = max(base, n * II) for n operations per step on one unit
** (mx_texp_step_interval, mx_texp_per_unit: the sharing rule).  Events for the energy model: one
** operation per output per group (mx_texp_events).
*/
#include <stdlib.h>

#include "tinternal.h"

int64_t mx_texp_per_unit(const mx_tarch *a, int64_t rows, int64_t cols)
{
    return a->share == MXSIM_EXP_PER_PE ? 1 : a->share == MXSIM_EXP_PER_ROW ? cols : rows;
}

int64_t mx_texp_unit_of(const mx_tarch *a, int64_t i, int64_t j)
{
    return a->share == MXSIM_EXP_PER_PE ? i * a->C + j : a->share == MXSIM_EXP_PER_ROW ? i : j;
}

int64_t mx_texp_step_interval(const mx_tarch *a, int64_t base, int64_t n_share)
{
    return mx_t_max(base, n_share * a->ii);
}

/* Last issue cycle of one unit fed, in each of S steps I cycles apart, by n operations at offsets
** first + q * sp (q < n) from the step's start, with n * II <= I.  For a FIFO that issues one op
** every II cycles, the last issue is max over arrivals t of t + (c(t) - 1) * II, c(t) the number
** of operations arriving at or after t.
** A window of I cycles holds at most n arrivals, so moving t one step later never lowers that
** term: the maximum is at an arrival of the last step, and counting the earlier steps' arrivals at
** or after it suffices (at most (n - q) * sp / I + 1 earlier steps reach it). */
int64_t mx_texp_fifo_last_issue(const mx_tarch *a, int64_t S, int64_t I, int64_t n, int64_t first,
                                int64_t sp)
{
    int64_t best = 0;
    for (int64_t q = 0; q < n; q++) {
        int64_t cnt = 0;
        /* step S-1-d contributes its ops q' with q' * sp >= q * sp + d * I */
        for (int64_t d = 0; d < S; d++) {
            int64_t c = n - q - mx_t_ceil_div(d * I, sp);
            if (c <= 0) break;
            cnt += c;
        }
        best = mx_t_max(best, (S - 1) * I + first + q * sp + (cnt - 1) * a->ii);
    }
    return best;
}

void mx_texp_events(const mx_top_resolved *op, mxsim_tstats *st)
{
    st->n_exp_ops = op->mx ? op->m * op->n * (op->k / op->g) : 0;
}

int mx_texp_push(mx_texp_unit *x, mx_texp_op o)
{
    if (x->n == x->cap) {
        int64_t nc = x->cap ? x->cap * 2 : 8;
        mx_texp_op *p = mx_malloc((size_t)nc, sizeof *p);
        if (p == NULL) return -1;
        for (int64_t i = 0; i < x->n; i++) p[i] = x->q[(x->head + i) % x->cap];
        free(x->q);
        x->q = p;
        x->head = 0;
        x->cap = nc;
    }
    x->q[(x->head + x->n) % x->cap] = o;
    x->n++;
    return 0;
}

int mx_texp_issue(const mx_tarch *a, mx_texp_unit *x, int64_t cyc, mx_texp_op *o)
{
    if (x->n == 0 || x->q[x->head].ready > cyc || cyc < x->next_ok) return 0;
    *o = x->q[x->head];
    x->head = (x->head + 1) % x->cap;
    x->n--;
    x->next_ok = cyc + a->ii;
    return 1;
}

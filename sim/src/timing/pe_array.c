/* pe_array.c - the PE array and its dataflows: closed-form timing per fold, with the exponent
** units it feeds (their rule: exp_unit.c) and the beats of the load path (load_path.c).
**
** Modelled (sim/doc/architecture.md section 2): an R x C array in lockstep; each PE consumes one
** "beat" per cycle, i.e. w = min(L, load_lanes) elements of one group, so a group of G takes
** t_g = ceil(G / w) beats.  Systolic skew i + j, preload of R cycles in WS/IS, fill and drain over
** the full array (partial folds cost as much as full ones, as in SCALE-Sim).  Each mapped PE hands
** each group's int32 partial sum to an exponent unit (per PE, per row or per column) with
** initiation interval II and latency; PEs outside a partial fold's mapped region hold no data and
** issue nothing, so a partial fold shares its units among fewer PEs.  Each unit is a
** work-conserving arbiter: a FIFO of waiting operations that issues the oldest one every II cycles
** while any waits.  The controller releases steps (groups in OS, input rows in WS/IS) at the
** throughput of the busiest unit, I = max(base, n * II) for n operations per step on one unit; the
** queue absorbs the arrival spread, so latency appears once, in the fold's tail, and the excess of
** I over `base` is exponent stall.  No unit's backlog grows: n * II <= I.  In WS/IS an MXINT8
** tile runs at the beat width (t_g) with the fewest cycles among w and every narrower width.
** Monotone by construction (architecture.md section 6): every term grows with t_g, II, latency
** and sharing, except the WS/IS fold cut, which the beat choice covers.
** Ignored: bank conflicts inside the array, clock gating, operand-dependent timing.
** Invariant: with int8 operands (or L = load_lanes = 1, II <= t_g, latency 0), a fold costs
** exactly SCALE-Sim v2's K+R+C-2 (OS) or 2R+C+M-2 / 2R+C+N-2 (WS / IS).
*/
#include "tinternal.h"

/* The machine's derived parameters, each from its block. */
void mx_tarch_derive(const mxsim_tconfig *cfg, mx_tarch *a)
{
    a->R = cfg->array_rows;
    a->C = cfg->array_cols;
    a->L = cfg->pe_lanes;
    a->df = (int)cfg->dataflow;
    mx_tload_derive(cfg, a);
    a->share = (int)cfg->exp_share;
    a->ii = cfg->exp_ii_cycles;
    a->lat = cfg->exp_latency_cycles;
    mx_tdram_derive(cfg, a);
    mx_tsram_derive(cfg, a);
    a->cfg = cfg;
}

void mx_tpe_macs(const mx_top_resolved *op, mxsim_tstats *st)
{
    st->n_macs = op->m * op->n * op->k_useful;
    st->n_macs_issued = op->m * op->n * op->k;
}

/* OS fold: K streams through time, one group every I cycles.  Only the mr x mc mapped PEs
** issue exponent operations; the skew and drain span the whole array. */
static void fold_os(const mx_tarch *a, int mx, int64_t g, int64_t tg, int64_t tk, int64_t mr, int64_t mc,
                    mx_tfold *f)
{
    const int64_t R = a->R, C = a->C;
    int64_t kb = mx_tload_chunk_beats(a, mx, g, tg, tk);
    /* a released beat past the ones L lanes would need (per group; int8: per chunk) is a
    ** lane-limit cycle; the others are compute */
    f->lane = kb - mx_tload_full_lane_beats(a, mx, g, tk);
    f->compute = kb - f->lane;
    f->fill_drain = R + C - 2;
    if (!mx) {
        f->exp_stall = 0;
        f->cycles = kb + R + C - 2;
        return;
    }
    int64_t ng = tk / g;
    /* n PEs share the busiest unit; o = skew of its first operation of the last group */
    int64_t n = mx_texp_per_unit(a, mr, mc);
    int64_t o = a->share == MXSIM_EXP_PER_PE ? mr + mc - 2 : a->share == MXSIM_EXP_PER_ROW ? mr - 1 : mc - 1;
    int64_t I = mx_texp_step_interval(a, tg, n);
    int64_t last = (ng - 1) * I;
    int64_t exp_end = last + tg + o + (n - 1) * mx_t_max(1, a->ii) + a->lat;
    int64_t comp_end = last + tg + R + C - 2;
    f->cycles = mx_t_max(exp_end, comp_end);
    f->exp_stall = f->cycles - f->compute - f->fill_drain - f->lane;
}

/* WS/IS fold: the reduction is spatial (beats on rows), `steps` rows of the other operand stream
** through time; mc of the C columns are mapped.  fr = first beat of this fold. */
static void fold_stream(const mx_tarch *a, int mx, int64_t tg, int64_t kb, int64_t fr, int64_t steps,
                        int64_t mc, mx_tfold *f)
{
    const int64_t R = a->R, C = a->C;
    f->lane = 0;
    f->compute = steps;
    f->fill_drain = 2 * R + C - 2;
    int64_t n_e = 0, r0 = -1, rl = -1;
    if (mx) {
        int64_t hi = mx_t_min(fr + R, kb);
        /* first beat b >= fr with (b + 1) % tg == 0 */
        int64_t b0 = fr + ((tg - 1 - fr % tg) % tg + tg) % tg;
        if (b0 < hi) {
            n_e = (hi - 1 - b0) / tg + 1;
            r0 = b0 - fr;
            rl = r0 + (n_e - 1) * tg;
        }
    }
    int64_t I = 1, n = 0;
    if (n_e > 0) {
        n = mx_texp_per_unit(a, n_e, mc);
        I = mx_texp_step_interval(a, 1, n);
    }
    int64_t B = R + (steps - 1) * I;
    int64_t comp_end = B + R + C - 1;
    int64_t end = comp_end;
    if (n_e > 0) {
        int64_t e;
        if (a->share == MXSIM_EXP_PER_PE) e = B + rl + mc - 1 + 1 + a->lat;
        else if (a->share == MXSIM_EXP_PER_ROW) e = B + rl + 1 + (mc - 1) * a->ii + a->lat;
        else /* column mc-1 (the latest): the fold's group-end rows, tg apart, queue across steps */
            e = mx_texp_fifo_last_issue(a, steps, I, n_e, R + r0 + mc - 1, tg) + 1 + a->lat;
        end = mx_t_max(end, e);
    }
    f->cycles = end;
    f->exp_stall = end - f->compute - f->fill_drain;
}

/* f += k * one (cycle fields only). */
static void fold_add(mx_tfold *f, const mx_tfold *one, int64_t k)
{
    f->cycles += k * one->cycles;
    f->compute += k * one->compute;
    f->fill_drain += k * one->fill_drain;
    f->exp_stall += k * one->exp_stall;
    f->lane += k * one->lane;
}

/* f += k * one, every cycle of it lane limit (a WS/IS fold that L-wide beats would not need). */
static void fold_add_lane(mx_tfold *f, const mx_tfold *one, int64_t k)
{
    f->cycles += k * one->cycles;
    f->lane += k * one->cycles;
}

/* The tile with tg beats per group (MXINT8; int8 uses the full beat w). */
static void tile_at(const mx_tarch *a, int mx, int64_t g, int64_t tg, int64_t tm, int64_t tn, int64_t tk,
                    mx_tfold *f)
{
    const int64_t R = a->R, C = a->C;
    mx_tfold one = {0};
    *f = (mx_tfold){0};
    f->tg = tg;
    if (a->df == MXSIM_DF_OS) {
        /* folds differ only in mapped rows (R or the edge tm % R) and columns (C or tn % C) */
        int64_t rows[2] = {R, tm % R}, n_r[2] = {tm / R, tm % R ? 1 : 0};
        int64_t cols[2] = {C, tn % C}, n_c[2] = {tn / C, tn % C ? 1 : 0};
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                if (n_r[i] * n_c[j] == 0) continue;
                fold_os(a, mx, g, tg, tk, rows[i], cols[j], &one);
                fold_add(f, &one, n_r[i] * n_c[j]);
            }
        f->n_folds = mx_t_ceil_div(tm, R) * mx_t_ceil_div(tn, C);
        f->pe_used_sum = tm * tn;
        f->kfolds = 1;
        return;
    }
    /* WS: N on columns, M streams; IS: M on columns, N streams. */
    int64_t cols = a->df == MXSIM_DF_WS ? tn : tm, steps = a->df == MXSIM_DF_WS ? tm : tn;
    int64_t kb = mx_tload_chunk_beats(a, mx, g, tg, tk);
    int64_t nk = mx_t_ceil_div(kb, R), nc = mx_t_ceil_div(cols, C);
    int64_t mcs[2] = {C, cols % C}, n_mc[2] = {cols / C, cols % C ? 1 : 0};
    /* A full reduction fold's cost depends on its first beat only through fr mod t_g, and
    ** fr = fk * R, so the costs of folds 0..nk-2 repeat with period p = t_g / gcd(R, t_g);
    ** the last fold (possibly partial) is timed on its own. */
    int64_t x = R, y = mx ? tg : 1;
    while (y) {
        int64_t r = x % y;
        x = y;
        y = r;
    }
    int64_t p = (mx ? tg : 1) / x, n_full = nk - 1;
    /* folds from nk_l on exist only because beats are narrower than L lanes: lane limit */
    int64_t nk_l = mx_t_ceil_div(mx_tload_full_lane_beats(a, mx, g, tk), R);
    for (int j = 0; j < 2; j++) {
        if (n_mc[j] == 0) continue;
        for (int64_t fk = 0; fk < mx_t_min(p, n_full); fk++) {
            fold_stream(a, mx, tg, kb, fk * R, steps, mcs[j], &one);
            /* folds fk, fk + p, fk + 2p, ... below n_full; those at or past nk_l are lane limit */
            int64_t cnt = (n_full - 1 - fk) / p + 1;
            int64_t lane = fk >= nk_l ? cnt : mx_t_max(0, cnt - mx_t_ceil_div(nk_l - fk, p));
            fold_add(f, &one, n_mc[j] * (cnt - lane));
            fold_add_lane(f, &one, n_mc[j] * lane);
        }
        fold_stream(a, mx, tg, kb, n_full * R, steps, mcs[j], &one);
        if (n_full >= nk_l) fold_add_lane(f, &one, n_mc[j]);
        else fold_add(f, &one, n_mc[j]);
    }
    f->n_folds = nk * nc;
    f->pe_used_sum = kb * cols;
    f->kfolds = nk;
}

/* A lower bound of tile_at's WS/IS MXINT8 cycles at t_g beats per group: each fold costs at least
** its array drain 2R + C - 1 + (S - 1) I_f.  Per column, the groups' ends spread over the folds
** (sum of n_f = groups), so the sum of I_f = max(1, n_f II) is at least max(folds, groups * II);
** per row or PE, a fold with a group end has I_f = max(1, mc II) or max(1, II), and exactly
** min(folds, groups) folds have one (t_g <= R: every fold; else one group end per fold). */
static int64_t stream_lb(const mx_tarch *a, int64_t g, int64_t tg, int64_t tm, int64_t tn, int64_t tk)
{
    const int64_t R = a->R, C = a->C;
    int64_t cols = a->df == MXSIM_DF_WS ? tn : tm, S = a->df == MXSIM_DF_WS ? tm : tn;
    int64_t ng = tk / g, N = mx_t_ceil_div(ng * tg, R), E = mx_t_min(N, ng), lb = 0;
    int64_t mcs[2] = {C, cols % C}, n_mc[2] = {cols / C, cols % C ? 1 : 0};
    for (int j = 0; j < 2; j++) {
        int64_t sum_i = a->share == MXSIM_EXP_PER_COL ? mx_t_max(N, ng * a->ii)
                        : E * mx_t_max(1, (a->share == MXSIM_EXP_PER_ROW ? mcs[j] : 1) * a->ii) + (N - E);
        lb += n_mc[j] * (N * (2 * R + C - 1) + (S - 1) * sum_i);
    }
    return lb;
}

int64_t mx_tpe_tile_lb(const mx_tarch *a, int mx, int64_t g, int64_t tm, int64_t tn, int64_t tk)
{
    if (!mx || a->df == MXSIM_DF_OS) return -1;
    return stream_lb(a, g, mx_tload_beats_per_group(a, g), tm, tn, tk);
}

void mx_tpe_tile(const mx_tarch *a, int mx, int64_t g, int64_t tm, int64_t tn, int64_t tk, mx_tfold *f)
{
    int64_t tg = mx ? mx_tload_beats_per_group(a, g) : 1;
    tile_at(a, mx, g, tg, tm, tn, tk, f);
    if (!mx || a->df == MXSIM_DF_OS) return; /* OS: every cost term grows with t_g */
    /* WS/IS: the reduction folds cut the beats every R rows, so which rows end groups (and the
    ** exponent tail of each fold) depends on t_g.  The controller may run the tile at any
    ** narrower beat, i.e. any t_g' = ceil(G / x) for x < w: it takes the fastest, and more lanes
    ** only add choices.  Ascending t_g' in turn, each timed only if its lower bound can win; the
    ** bound grows with t_g' (more folds), so the walk stops at the first that cannot. */
    int64_t w = mx_tload_group_width(g, tg);
    mx_tfold alt;
    while (w > 1) {
        tg = mx_tload_group_beats(g, w - 1); /* the next larger t_g' and the narrowest beat giving it */
        w = mx_tload_group_width(g, tg);
        if (stream_lb(a, g, tg, tm, tn, tk) >= f->cycles) break;
        tile_at(a, mx, g, tg, tm, tn, tk, &alt);
        if (alt.cycles < f->cycles) *f = alt;
    }
}

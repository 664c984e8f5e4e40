/* load_path.c - the operand load path: each PE's feeders deliver w = min(pe.lanes, load_lanes)
** elements of one group per cycle (a "beat"); a group of G elements takes t_g = ceil(G / w) beats
** (an int8 chunk of tk elements, ceil(tk / w)).
**
** Timing rule: beats per group and per reduction chunk, the beats the full L lanes would need
** (the reference of lane-limit attribution, architecture.md section 10), and the geometry of beat
** b (first element, element count, group, whether it ends the group: mx_tload_beat), used by both
** engines.  Events for the energy model: none of its own (the SRAM reads it causes are counted
** by sram.c and the detailed engine).
*/
#include "tinternal.h"

void mx_tload_derive(const mxsim_tconfig *cfg, mx_tarch *a) { a->w = mx_t_min(cfg->pe_lanes, cfg->load_lanes); }

int64_t mx_tload_group_beats(int64_t g, int64_t w) { return mx_t_ceil_div(g, w); }

int64_t mx_tload_group_width(int64_t g, int64_t tg) { return mx_t_ceil_div(g, tg); }

int64_t mx_tload_beats_per_group(const mx_tarch *a, int64_t g) { return mx_tload_group_beats(g, a->w); }

/* Beats of a reduction chunk of tk elements (MXINT8: tg beats per group). */
int64_t mx_tload_chunk_beats(const mx_tarch *a, int mx, int64_t g, int64_t tg, int64_t tk)
{
    return mx ? (tk / g) * tg : mx_t_ceil_div(tk, a->w);
}

int64_t mx_tload_full_lane_beats(const mx_tarch *a, int mx, int64_t g, int64_t tk)
{
    return mx ? (tk / g) * mx_t_ceil_div(g, a->L) : mx_t_ceil_div(tk, a->L);
}

void mx_tload_beat(int64_t glen, int64_t w, int64_t tg, int mx, int64_t b, int64_t *k0, int64_t *elems, int64_t *grp,
                   int *gend)
{
    int64_t q = b / tg, t = b % tg;
    *grp = q;
    *k0 = q * glen + t * w;
    *elems = mx_t_min(w, glen - t * w);
    *gend = mx && t == tg - 1;
}

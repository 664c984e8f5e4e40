/* tinternal.h - private declarations shared by the timing engine's modules (sim/src/timing).
**
** One module per hardware block, each holding the block's timing rule and the events it produces
** for the energy model, called by both engines (the analytic closed forms and the cycle-by-cycle
** detailed mode) instead of re-deriving them:
**   pe_array.c   the PE array and its dataflows (OS, WS, IS): fold timing, beat-width choice, MACs
**   exp_unit.c   the shared-exponent units: the sharing rule, the FIFO arbiter (closed form and
**                the stepped unit), the step interval, exponent operations
**   load_path.c  the operand load path: beat width, beats per group and chunk, beat geometry
**   sram.c       the double-buffered A, B, C SRAMs: the fit of a tile, edge reads
**   dram.c       the DRAM channel: request duration, the stepped transfer, bandwidth units
**   requant.c    the re-quantizer: MXINT8 output stores, quantize ops, its events
**   dequant.c    the dequant unit: dequant ops, its events
** The controllers that sequence them: pipeline.c (the double-buffered memory pipeline of a tiled
** GEMM in closed form over tile classes, and the tile walk that is its oracle), engine.c (the
** tile search, mxsim_time_op), detail.c (detailed mode: steps the same blocks cycle by cycle).
** Around them: tconfig.c (field table), trace.c/tgen.c (traces, access traces), scalesim.c
** (SCALE-Sim compatibility), tstats.c and run_table.c (statistics and tables).  All cross-file
** functions are mx_t<module>_<verb>.
*/
#ifndef MX_TINTERNAL_H
#define MX_TINTERNAL_H

#include "internal.h"

/* Largest dimension accepted in a trace (keeps every product of three dims in int64). */
#define MX_T_MAX_DIM ((int64_t)1 << 31)

/* DRAM bandwidth is kept as an integer in 1/1024 byte per cycle so that the analytic and the
** detailed engines agree exactly on transfer times. */
#define MX_T_BW_FRAC 1024

static inline int64_t mx_t_ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
static inline int64_t mx_t_max(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t mx_t_min(int64_t a, int64_t b) { return a < b ? a : b; }
/* a + b and a * b of counts >= 0, saturating at INT64_MAX: for lower bounds and durations whose
** true value may pass 2^63, where "past 2^63" is all a caller needs to know */
static inline int64_t mx_t_sat_add(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? INT64_MAX : r;
}
static inline int64_t mx_t_sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? INT64_MAX : r;
}

/* The operation as the engines see it: config defaults resolved, validated. */
typedef struct {
    int kind;
    int64_t m, n, k, g;         /* g: group size; for int8 operands g = k (one pseudo-group);
                                ** k: issued reduction, K padded to a multiple of G (MXINT8) */
    int64_t k_useful;           /* the trace's K (useful work) */
    int mx;                     /* 1: MXINT8 operands (scale bytes, exponent unit) */
    int out_fmt;
    int64_t out_g;              /* group of an MXINT8 output along n (the op's or config's G) */
    int64_t repeat;
    const mxsim_top *src;       /* the op as given (SCALE-Sim conv geometry for compat mode) */
    int ss_ready;               /* compat USER: ss_stall and ss_last set by mx_tscalesim_prepare */
    int64_t ss_stall;           /* SCALE-Sim's "Stall Cycles" */
    int64_t ss_last;            /* its total less array cycles - 1 and that stall: the last row's write */
} mx_top_resolved;

/* A SCALE-Sim conv layer's strides in mxsim_top.conv_s (the public struct has one stride field):
** the row stride, or, when a 9-value topology row gives a different column stride, row | column
** << 32 (strides are 1..2^31; unsigned, as a column stride of 2^31 reaches bit 63). */
static inline int64_t mx_t_conv_pack_s(int64_t sh, int64_t sw)
{
    return sh == sw ? sh : (int64_t)((uint64_t)sh | (uint64_t)sw << 32);
}
static inline int64_t mx_t_conv_sh(const mxsim_top *o) { return (int64_t)((uint64_t)o->conv_s & 0xffffffffu); }
static inline int64_t mx_t_conv_sw(const mxsim_top *o)
{
    uint64_t hi = (uint64_t)o->conv_s >> 32;
    return hi ? (int64_t)hi : mx_t_conv_sh(o);
}

/* Derived array parameters of one configuration. */
typedef struct {
    int64_t R, C, L, w;          /* w = min(L, load_lanes): elements per beat */
    int df, share;
    int64_t ii, lat;
    int64_t bw_q;                /* bytes per cycle * MX_T_BW_FRAC */
    int64_t dram_lat;
    int64_t half_a_bytes, half_b_bytes, half_c_bytes;
    const mxsim_tconfig *cfg;
} mx_tarch;

/* Fold timing of one tile of (tm x tn x tk) on the array.  Outputs are per tile. */
typedef struct {
    int64_t cycles, compute, fill_drain, exp_stall;
    int64_t lane;                /* lane-limit cycles (cycles = compute + fill_drain + exp_stall + lane) */
    int64_t n_folds;
    int64_t pe_used_sum;         /* sum over folds of mapped PEs (mapping utilisation) */
    int64_t kfolds;              /* folds along the reduction (psum passes) */
    int64_t tg;                  /* beats per group the tile runs at (MXINT8; 1 for int8) */
} mx_tfold;

MX_INTERNAL void mx_tarch_derive(const mxsim_tconfig *cfg, mx_tarch *a);
MX_INTERNAL mxsim_status mx_top_resolve(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                        const mxsim_top *op, const char *source,
                                        mx_top_resolved *r);
/* Closed-form time of one tile (tm, tn, tk) of an op with group g (mx: exponent unit used), at
** the beat width (f->tg beats per group) the controller picks for it (pe_array.c). */
MX_INTERNAL void mx_tpe_tile(const mx_tarch *a, int mx, int64_t g, int64_t tm, int64_t tn,
                             int64_t tk, mx_tfold *f);
/* A lower bound of mx_tpe_tile's cycles in O(1) for a WS/IS MXINT8 tile (whose time tries
** several beat widths); -1 for the others (their exact time is cheap). */
MX_INTERNAL int64_t mx_tpe_tile_lb(const mx_tarch *a, int mx, int64_t g, int64_t tm, int64_t tn, int64_t tk);
/* PE array (pe_array.c): the MACs of a GEMM (useful and issued, padded K). */
MX_INTERNAL void mx_tpe_macs(const mx_top_resolved *op, mxsim_tstats *st);

/* Operand load path (load_path.c): w = min(L, load_lanes) elements per beat; beats per group
** ceil(G / w); beats of a chunk of tk elements at tg beats per group (MXINT8) or ceil(tk / w)
** (int8); beats the full L lanes would need (the reference of lane-limit attribution,
** architecture.md section 10); geometry of beat b of a chunk (groups of glen elements, glen = tk
** for int8): first element, element count, group, whether it ends the group. */
MX_INTERNAL void mx_tload_derive(const mxsim_tconfig *cfg, mx_tarch *a);
MX_INTERNAL int64_t mx_tload_beats_per_group(const mx_tarch *a, int64_t g);
/* beats of a group of g at width w, ceil(g / w); the narrowest width giving tg beats, ceil(g / tg) */
MX_INTERNAL int64_t mx_tload_group_beats(int64_t g, int64_t w);
MX_INTERNAL int64_t mx_tload_group_width(int64_t g, int64_t tg);
MX_INTERNAL int64_t mx_tload_chunk_beats(const mx_tarch *a, int mx, int64_t g, int64_t tg, int64_t tk);
MX_INTERNAL int64_t mx_tload_full_lane_beats(const mx_tarch *a, int mx, int64_t g, int64_t tk);
MX_INTERNAL void mx_tload_beat(int64_t glen, int64_t w, int64_t tg, int mx, int64_t b, int64_t *k0, int64_t *elems,
                               int64_t *grp, int *gend);

/* Shared-exponent units (exp_unit.c): operations per step on the busiest unit when each PE of a
** rows x cols region issues one (the sharing rule); the unit of PE (i, j); the step interval
** max(base, n_share * II); the last issue of a FIFO fed S steps of n operations (closed form);
** the event count; and the cycle-level unit the detailed engine steps (a FIFO issuing its oldest
** ready operation every II cycles: push returns -1 when out of memory, issue 1 when it issued). */
MX_INTERNAL int64_t mx_texp_per_unit(const mx_tarch *a, int64_t rows, int64_t cols);
MX_INTERNAL int64_t mx_texp_unit_of(const mx_tarch *a, int64_t i, int64_t j);
MX_INTERNAL int64_t mx_texp_step_interval(const mx_tarch *a, int64_t base, int64_t n_share);
MX_INTERNAL int64_t mx_texp_fifo_last_issue(const mx_tarch *a, int64_t S, int64_t I, int64_t n, int64_t first,
                                            int64_t sp);
MX_INTERNAL void mx_texp_events(const mx_top_resolved *op, mxsim_tstats *st);
typedef struct {
    int64_t ready; /* cycle of the group's last beat: the earliest issue cycle */
    int64_t out;   /* output index within the fold */
    int64_t step;  /* controller step that produced it */
} mx_texp_op;
typedef struct {
    mx_texp_op *q;
    int64_t head, n, cap;
    int64_t next_ok; /* first cycle at which the unit may issue again (II) */
} mx_texp_unit;
MX_INTERNAL int mx_texp_push(mx_texp_unit *u, mx_texp_op o);
MX_INTERNAL int mx_texp_issue(const mx_tarch *a, mx_texp_unit *u, int64_t cyc, mx_texp_op *o);

/* DRAM channel (dram.c): bandwidth (1/1024 B/cycle) and latency; duration of one request of
** `bytes` (0 bytes: no request, 0 cycles; INT64_MAX: it passes 2^63); one transfer cycle of the
** detailed channel (adds the cycle's credits, returns the bytes moved so far, at most `bytes`). */
MX_INTERNAL void mx_tdram_derive(const mxsim_tconfig *cfg, mx_tarch *a);
MX_INTERNAL int64_t mx_tdram_dur(const mx_tarch *a, int64_t bytes);
MX_INTERNAL int64_t mx_tdram_xfer_cycle(const mx_tarch *a, int64_t *credit, int64_t bytes);

/* SRAMs (sram.c): half-buffer sizes; bytes per row of a k chunk (mantissas and scales); the fit
** of a tile; operand reads at the array edges. */
MX_INTERNAL void mx_tsram_derive(const mxsim_tconfig *cfg, mx_tarch *a);
MX_INTERNAL int64_t mx_tsram_row_bytes(const mx_top_resolved *op, int64_t tk);
/* How many of k sizes with ascending row_bytes[0..n-1] fit with tm x tn (they fit as a prefix). */
MX_INTERNAL int mx_tsram_fit_prefix(const mx_tarch *a, int64_t tm, int64_t tn, const int64_t *row_bytes, int n);

/* Re-quantizer (requant.c): cycles a store of `elems` outputs spends in it (0 unless the output
** is MXINT8); elements it takes in one cycle; a GEMM's events; a quantize op. */
MX_INTERNAL int64_t mx_trequant_cycles(const mxsim_tconfig *cfg, const mx_top_resolved *op, int64_t elems);
MX_INTERNAL int64_t mx_trequant_intake(const mxsim_tconfig *cfg, int64_t left);
MX_INTERNAL void mx_trequant_gemm_events(const mx_top_resolved *op, mxsim_tstats *st);
MX_INTERNAL const char *mx_trequant_time(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                                         mxsim_tstats *st);
/* Dequant unit (dequant.c): a dequant op. */
MX_INTERNAL const char *mx_tdequant_time(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                                         mxsim_tstats *st);
/* An op through a streaming unit of `lanes` elements/cycle and `depth` cycles, one load of in_b
** bytes and one store of out_b overlapping it (pipeline.c): cycles, their classes, DRAM requests,
** output bytes.  Returns NULL, or the column of a count that passes 2^63 (the op and the two
** above return what this one does). */
MX_INTERNAL const char *mx_tpipe_unit_op(const mx_tarch *a, int64_t lanes, int64_t depth, int64_t elems,
                                         int64_t in_b, int64_t out_b, mxsim_tstats *st);

/* The tiling chosen for an op, and its per-tile transfer plan. */
typedef struct {
    int64_t tm, tn, tk;
    int64_t nm, nn, nk;
    /* beats per group of each tile shape class (tm, tn, tk full or edge: bit 0 m edge, bit 1 n
    ** edge, bit 2 k edge), the controller's choice (mx_tpe_tile); filled by mx_tengine_choose */
    int64_t tg[8];
} mx_ttiling;

/* The tiling of op (engine.c); best_st non-NULL: also every statistic of it (candidate_stats);
** cost: the technology the energy and edp objectives cost candidates in (NULL: the defaults). */
MX_INTERNAL mxsim_status mx_tengine_choose(mxsim_ctx *ctx, const mx_tarch *a,
                                           const mx_top_resolved *op, const char *where,
                                           const mxsim_cost_params *cost, mx_ttiling *t, mxsim_tstats *best_st);
/* Per-tile sizes and loads of tile index t (m outer, n, k inner). */
typedef struct {
    int64_t tm, tn, tk;
    int64_t load_bytes;   /* A and/or B bytes loaded for this tile */
    int64_t store_bytes;  /* output bytes written after this tile (0 unless last k) */
    int64_t store_elems;
    int load_a, load_b;
} mx_ttile;
MX_INTERNAL void mx_tengine_tile(const mx_top_resolved *op, const mx_ttiling *t, int64_t idx,
                                 mx_ttile *out);
MX_INTERNAL int64_t mx_tengine_store_dur(const mxsim_tconfig *cfg, const mx_tarch *a,
                                         const mx_top_resolved *op, const mx_ttile *tl);

/* Detailed engine (detail.c): steps the DMA channel, the tile controller, the PE array and the
** exponent units cycle by cycle, independently of the closed forms above.  Fills every counter
** of *st that the analytic engine fills for a GEMM (cycles, SRAM/DRAM bytes, events, folds and
** the unnormalised mapping sum); `where` ("file:line: op 'x'") prefixes errors.  Refuses ops
** above MX_TDETAIL_MAX_PE_CYC PE-cycles (R*C*array cycles) or MX_TDETAIL_MAX_CYC cycles with
** MXSIM_E_LIMIT, up front when a lower bound already exceeds them.  trace_path non-NULL: writes the gzip access trace there (traces/FORMAT.md). */
#define MX_TDETAIL_MAX_PE_CYC ((int64_t)1 << 26)
#define MX_TDETAIL_MAX_CYC ((int64_t)1 << 26)
MX_INTERNAL mxsim_status mx_tdetail_run(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                        const mx_tarch *a, const mx_top_resolved *op,
                                        const mx_ttiling *t, const char *where,
                                        const char *trace_path, mxsim_tstats *st);

/* Gzip writer of access-trace records "cycle operand rw address bytes" (trace.c, the one file
** that uses zlib).  close(commit = 0) discards the file; commit = 1 renames it into place. */
typedef struct mx_tacc mx_tacc;
MX_INTERNAL mxsim_status mx_tacc_open(mxsim_ctx *ctx, const char *path, mx_tacc **out);
MX_INTERNAL void mx_tacc_rec(mx_tacc *w, int64_t cyc, const char *operand, char rw, int64_t addr,
                             int64_t bytes);
MX_INTERNAL mxsim_status mx_tacc_close(mxsim_ctx *ctx, mx_tacc *w, int commit);
/* SCALE-Sim compatibility mode (scalesim.c): the one tile of a GEMM (SRAM size never changes
** SCALE-Sim's compute cycles); prepare: under USER bandwidth, steps SCALE-Sim's buffers and keeps
** the stall in *op (MXSIM_E_LIMIT beyond the stepping limits, naming `where` and suggesting
** CALC; nothing to do under CALC); finish: the compat totals of a timed GEMM (the stall added,
** the last-cycle index reported). */
MX_INTERNAL void mx_tscalesim_tiling(const mx_tarch *a, const mx_top_resolved *op, mx_ttiling *t);
MX_INTERNAL mxsim_status mx_tscalesim_prepare(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mx_tarch *a,
                                              mx_top_resolved *op, const char *where);
MX_INTERNAL void mx_tscalesim_finish(const mxsim_tconfig *cfg, const mx_tarch *a,
                                     const mx_top_resolved *op, mxsim_tstats *st);
/* The analytic memory pipeline of tiling t (pipeline.c): walk = 1 steps every tile (the oracle of
** the tests), walk = 0 is its closed form over tile classes (what mxsim_time_op uses).  Adds to
** *st (may be NULL); returns cycles_total, -1 if a count would pass 2^63. */
/* The closed form, checked: -1 with *ovf naming the count that would pass 2^63. */
MX_INTERNAL int64_t mx_tpipe_run(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                                 const mx_ttiling *t, mxsim_tstats *st, const char **ovf);
MX_INTERNAL int64_t mx_tengine_pipeline(const mxsim_tconfig *cfg, const mx_tarch *a, const mx_top_resolved *op,
                                        const mx_ttiling *t, mxsim_tstats *st, int walk);
/* Operand reads at the array edges of tiling t (sram.c). */
MX_INTERNAL void mx_tsram_reads(const mx_tarch *a, const mx_top_resolved *op, const mx_ttiling *t, mxsim_tstats *st);
/* Fills the data-volume counters (SRAM, DRAM, events) that both engines share. */
MX_INTERNAL void mx_tengine_volumes(const mxsim_tconfig *cfg, const mx_tarch *a,
                                    const mx_top_resolved *op, const mx_ttiling *t,
                                    mxsim_tstats *st);
/* Recomputes the derived statistics (MXSIM_AGG_RECOMPUTE) from the counts.  Returns NULL, or the
** column of one that passes 2^63 (n_lane_slots = R*C*L*cycles_array; it is then left 0). */
MX_INTERNAL const char *mx_tstats_finish(const mxsim_tconfig *cfg, mxsim_tstats *st);
/* Multiplies every summed statistic (MXSIM_AGG_SUM) by r: an op repeated r times. */
MX_INTERNAL void mx_tstats_scale(mxsim_tstats *st, int64_t r);
/* The column of the first summed count that r times would pass 2^63 (NULL: none does). */
MX_INTERNAL const char *mx_tstats_scale_overflow(const mxsim_tstats *st, int64_t r);
/* Table helpers shared by the run and sweep tables (run_table.c): the statistic columns (decimals
** < -1: each field's own), one row's statistic cells (total: per-op fields empty), and every
** configuration field as typed metadata. */
/* Cell type of a statistic's column: text for a class or an objective (shown by name), else int or
** real. */
MX_INTERNAL mxsim_cell_type mx_tstats_cell_type(const mxsim_tstats_field *f);
MX_INTERNAL mxsim_status mx_tstats_add_columns(mxsim_ctx *ctx, mxsim_table *t, int use_brief, int decimals);
MX_INTERNAL mxsim_status mx_tstats_set_row(mxsim_ctx *ctx, mxsim_table *t, int64_t row, const mxsim_tstats *s,
                                           int total);
MX_INTERNAL mxsim_status mx_tconfig_meta(mxsim_ctx *ctx, mxsim_table *t, const mxsim_tconfig *cfg);
/* memory.c: bytes of op i's B operand when the trace marks it a weight (0 otherwise), in operand
** format fmt (mxsim_operand_fmt) at group g, counted as mxsim_memory_table counts it (saturating
** at INT64_MAX); and the bytes of the trace's non-GEMM parameters (bf16). */
MX_INTERNAL int64_t mx_mem_weight_bytes(const mxsim_trace *tr, int64_t i, int fmt, int64_t g);
MX_INTERNAL int64_t mx_mem_param_bytes(const mxsim_trace *tr);

/* Number parsing shared by the config and trace readers: whole string, base 10. */
MX_INTERNAL int mx_tparse_i64(const char *s, int64_t *out);
/* mxsim_trace_add_param, its error message naming `where` (file:line) instead of the trace */
MX_INTERNAL mxsim_status mx_trace_add_param_at(mxsim_ctx *ctx, mxsim_trace *t, const char *where, const char *name,
                                               int64_t elems, int64_t count, const char *why);
MX_INTERNAL int mx_tparse_f64(const char *s, double *out);
/* Trims leading/trailing blanks in place; returns the start. */
MX_INTERNAL char *mx_ttrim(char *s);

#endif

/* gpumodel.c - analytical model of an NVIDIA Hopper GPU running mxsim's CUDA kernels and the
** cuBLAS baselines (full derivation in sim/doc/gpu-model.md).
**
** What is modelled, per kernel (all times in seconds internally, microseconds at the API):
**   - streaming kernels (dequantize, quantize, D2D copy): DRAM bytes at the card's measured copy
**     bandwidth, and instruction issue (instructions per element counted from the .cu source,
**     4 warp-instructions per SM per clock); the two overlap imperfectly:
**     t = max(mem, issue) + loss * min(mem, issue).
**   - mxk tile GEMM (cfg 1, 2, 3, 5, 6 of gemm_mma.cu): tiles of BM x BN outputs, waves over
**     SMs x resident blocks, and per warp an instruction count: per 32-byte k-step the ldmatrix
**     and mma.sync instructions plus a calibrated address/loop overhead, per 128-byte stage the
**     cp.async and scale-byte work, per group the contract's 3 FP32 instructions per output
**     (FFMA, FMUL, FADD) plus the scale loads.  Issue rate per scheduler = w / (w + Z), w warps
**     per scheduler, Z the mean stall cycles between a warp's instructions (from Nsight Compute).
**     Tensor cores are never the bound here (the mma.sync rate is checked and reported).
**   - mxk small-M kernel (cfg 4, gemm_gemv.cu): rounds of 8 warps x 4 k-steps; per round the
**     term formation (calibrated instructions per term set), loads and the ordered adds; blocks
**     over SMs x 2; DRAM time of the weights as a lower bound.
**   - cuBLAS bf16 / cuBLASLt int8: call overhead + max(flops at the measured peak, one CTA's
**     tile at the per-SM peak, bytes at copy bandwidth).  dequant+cuBLAS = two dequantize
**     launches + the cuBLAS call.
** What is ignored: L2 reuse beyond what the measured rates include, clock changes, the exact
** (double) term path for NaN/large scales, the SIMT kernel (G not a multiple of 32).
** Invariants: parameters come only from the card (never from the shape); the calibration sees
** only training points (split fixed by mxsim_gpu_bench_load). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "gpuinternal.h"
#include "internal.h"

/* ---- card fields -------------------------------------------------------------------------- */

/* lo, hi: the accepted range (datasheet sanity, not the model's); whole: a count (a whole number). */
typedef struct {
    mxsim_gpu_field f;
    size_t off;
    double lo, hi;
    int lo_open, whole;
} gfield;

#define TB 1099511627776.0 /* 2^40 */
#define GF(key, kind, unit, doc, member, lo, lo_open, hi, whole) \
    {{key, kind, unit, doc}, offsetof(mxsim_gpu_card, member), lo, hi, lo_open, whole}
#define GFR(key, kind, unit, doc, member, hi) GF(key, kind, unit, doc, member, 0.0, 1, hi, 0) /* a real in (0, hi] */
static const gfield k_fields[] = {
    GF("sm.count", "datasheet", "SM", "streaming multiprocessors", n_sm, 1, 0, 1024, 1),
    GF("sm.issue_per_clk", "datasheet", "warp-instr/clk/SM", "4 schedulers x 1 instruction", issue_per_sm_clk, 1, 0, 64, 1),
    GFR("tc.int8_dense_tops", "datasheet", "TOPS", "INT8 tensor-core peak, dense", tc_int8_dense_tops, 1e6),
    GFR("tc.bf16_dense_tflops", "datasheet", "TFLOPS", "BF16 tensor-core peak, dense", tc_bf16_dense_tflops, 1e6),
    GFR("hbm.bw_gbs", "datasheet", "GB/s", "HBM bandwidth", hbm_bw_gbs, 1e6),
    GF("l2.bytes", "datasheet", "bytes", "L2 cache size", l2_bytes, 1, 0, TB - 1, 1),
    GF("sm.smem_bytes", "datasheet", "bytes", "shared memory per SM usable by blocks", smem_per_sm_bytes, 1, 0, TB - 1, 1),
    GF("sm.regs", "datasheet", "registers", "32-bit registers per SM", regs_per_sm, 1, 0, 16777216, 1),
    GF("sm.cvt_per_clk", "datasheet", "results/clk/SM", "int<->float conversions", cvt_per_sm_clk, 1, 0, 4096, 1),
    GFR("board.tdp_w", "datasheet", "W", "board power (max TDP)", tdp_w, 1e5),
    GFR("die.mm2", "datasheet", "mm2", "GPU die area", die_mm2, 1e5),
    GFR("sm.clock_mhz", "measured", "MHz", "SM clock under load", sm_clock_mhz, 1e5),
    GFR("mem.copy_bw_gbs", "measured", "GB/s", "D2D copy, read + write bytes / time", copy_bw_gbs, 1e6),
    GFR("cublas.bf16_tflops", "measured", "TFLOPS", "cuBLAS bf16 on the largest shape", cublas_bf16_tflops, 1e6),
    GFR("cublaslt.int8_tops", "measured", "TOPS", "cuBLASLt int8 on the largest shape", cublaslt_int8_tops, 1e6),
    GFR("sm.warp_stall_cyc", "measured", "cycles", "Z: mean stall between a warp's instructions", warp_stall_cyc, 1e6),
    GFR("launch.us", "calibrated", "us", "kernel launch + event overhead of one mxk kernel", launch_us, 1e6),
    GFR("cublas.call_us", "calibrated", "us", "cuBLAS bf16 call overhead (host + launch)", cublas_call_us, 1e6),
    GFR("cublaslt.call_us", "calibrated", "us", "cuBLASLt call overhead (host + launch)", cublaslt_call_us, 1e6),
    GFR("launch.gap_us", "calibrated", "us", "gap between back-to-back kernels in one stream", launch_gap_us, 1e6),
    GF("stream.overlap_loss", "calibrated", "", "fraction of min(mem, issue) not overlapped", stream_overlap_loss, 0, 0, 1, 0),
    GFR("tile.kstep_ovh_instr", "calibrated", "instr/warp/k-step", "address + loop instructions per k-step", tile_kstep_ovh_instr, 1e6),
    GFR("gemv.term_instr", "calibrated", "instr/warp", "forming and storing the 4 terms of one group and row slice", gemv_term_instr, 1e6),
    GFR("gemv.round_ovh_instr", "calibrated", "instr/warp/round", "loads, barrier, adds per round", gemv_round_ovh_instr, 1e6),
};
#define N_FIELDS ((int)(sizeof k_fields / sizeof k_fields[0]))

int mxsim_gpu_field_count(void) { return N_FIELDS; }
const mxsim_gpu_field *mxsim_gpu_field_at(int i)
{
    return i >= 0 && i < N_FIELDS ? &k_fields[i].f : NULL;
}
static double *fptr(mxsim_gpu_card *c, int i) { return (double *)((char *)c + k_fields[i].off); }
double mxsim_gpu_card_get(const mxsim_gpu_card *c, int i)
{
    if (!c || i < 0 || i >= N_FIELDS) return 0.0;
    return *(const double *)((const char *)c + k_fields[i].off);
}

void mx_gpu_card_set(mxsim_gpu_card *c, int i, double v)
{
    if (c && i >= 0 && i < N_FIELDS) *fptr(c, i) = v;
}

int mx_gpu_field_ok(int i, double v)
{
    if (i < 0 || i >= N_FIELDS || !isfinite(v)) return 0;
    const gfield *g = &k_fields[i];
    if (g->lo_open ? !(v > g->lo) : !(v >= g->lo)) return 0;
    if (!(v <= g->hi)) return 0;
    return !g->whole || floor(v) == v;
}

/* "a whole number in 1..1024", "in (0, 1e+06]": the accepted range of field i, for messages. */
static void field_range(int i, char *buf, size_t n)
{
    const gfield *g = &k_fields[i];
    if (g->whole) mx_snprintf(buf, n, "a whole number in %.0f..%.0f", g->lo, g->hi);
    else mx_snprintf(buf, n, "a number in %s%g, %g]", g->lo_open ? "(" : "[", g->lo, g->hi);
}

/* The first field of c out of its range (-1: none). */
static int card_bad_field(const mxsim_gpu_card *c)
{
    for (int i = 0; i < N_FIELDS; i++)
        if (!mx_gpu_field_ok(i, *(const double *)((const char *)c + k_fields[i].off))) return i;
    return -1;
}

mxsim_status mx_gpu_card_check(mxsim_ctx *ctx, const mxsim_gpu_card *c)
{
    if (!memchr(c->name, '\0', sizeof c->name))
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu card: name: not a terminated string");
    const int i = card_bad_field(c);
    if (i < 0) return MXSIM_OK;
    char r[64];
    field_range(i, r, sizeof r);
    return mx_fail(ctx, MXSIM_E_INPUT, "gpu card '%s': %s: %g is not %s", c->name, k_fields[i].f.key,
                   mxsim_gpu_card_get(c, i), r);
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* The card's sections: every field lives in the section named by its kind; `name` comes first,
** before any section. */
static const char *const k_sections[] = {"datasheet", "measured", "calibrated"};
#define N_SECTIONS 3

mxsim_status mxsim_gpu_card_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_card *c)
{
    mx_clear_err(ctx);
    if (!path || !c) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_card_load: NULL argument");
    char *data;
    mxsim_status st = mx_text_read(ctx, path, 1u << 20, &data, NULL);
    if (st != MXSIM_OK) return st;
    mxsim_gpu_card tmp; /* *c is written only on success */
    memset(&tmp, 0, sizeof tmp);
    int seen[N_FIELDS] = {0}, sec_line[N_SECTIONS] = {0};
    int have_name = 0, line = 0, sec = -1;
    mx_lines cur;
    mx_lines_init(&cur, data);
    st = MXSIM_OK;
    for (char *buf; st == MXSIM_OK && (buf = mx_lines_next(&cur)) != NULL;) {
        line = cur.line;
        if (strlen(buf) >= 512) { /* card lines are short: a long one is refused, not split */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: line too long", path, line);
            break;
        }
        mx_ini_cut_comment(buf); /* the configurations' rule: lines.h */
        char *s = trim(buf);
        if (!*s) continue;
        if (*s == '[') {
            size_t n = strlen(s);
            char *name = s + 1;
            if (n < 3 || s[n - 1] != ']') {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected '[section]', got '%s'", path, line, s);
                break;
            }
            s[n - 1] = '\0';
            name = trim(name);
            sec = -1;
            for (int k = 0; k < N_SECTIONS; k++)
                if (strcmp(name, k_sections[k]) == 0) sec = k;
            if (sec < 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: unknown section '[%s]' (known: [datasheet], [measured], [calibrated])",
                             path, line, name);
                break;
            }
            if (sec_line[sec]) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: section [%s] given twice (first on line %d)", path, line, name,
                             sec_line[sec]);
                break;
            }
            sec_line[sec] = line;
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected 'key = value'", path, line);
            break;
        }
        *eq = '\0';
        char *key = trim(s), *val = trim(eq + 1);
        if (strcmp(key, "name") == 0) {
            if (have_name || !*val || strlen(val) >= sizeof tmp.name) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: name: missing, repeated or too long", path, line);
                break;
            }
            if (sec >= 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: name: belongs before the first section, not in [%s]", path,
                             line, k_sections[sec]);
                break;
            }
            strcpy(tmp.name, val);
            have_name = 1;
            continue;
        }
        int fi = -1;
        for (int i = 0; i < N_FIELDS; i++)
            if (strcmp(key, k_fields[i].f.key) == 0) fi = i;
        if (fi < 0) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: unknown field '%s'", path, line, key);
            break;
        }
        if (sec < 0 || strcmp(k_sections[sec], k_fields[fi].f.kind) != 0) {
            if (sec < 0)
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: outside any section (it belongs in [%s])", path, line, key,
                             k_fields[fi].f.kind);
            else
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: in section [%s], but it belongs in [%s]", path, line, key,
                             k_sections[sec], k_fields[fi].f.kind);
            break;
        }
        if (seen[fi]) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: given twice (first on line %d)", path, line, key, seen[fi]);
            break;
        }
        char *ep;
        errno = 0;
        double v = mx_strtod(val, &ep);
        char r[64];
        field_range(fi, r, sizeof r);
        if (ep == val || *ep || errno) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: '%s' is not a number (expected %s)", path, line, key, val, r);
            break;
        }
        if (!mx_gpu_field_ok(fi, v)) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: '%s' is not %s", path, line, key, val, r);
            break;
        }
        *fptr(&tmp, fi) = v;
        seen[fi] = line;
    }
    free(data);
    if (st != MXSIM_OK) return st;
    if (!have_name) return mx_fail(ctx, MXSIM_E_INPUT, "%s: name: missing", path);
    for (int i = 0; i < N_FIELDS; i++)
        if (!seen[i])
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: %s: missing (in section [%s])", path, k_fields[i].f.key,
                           k_fields[i].f.kind);
    *c = tmp;
    return MXSIM_OK;
}

/* ---- kernel models ------------------------------------------------------------------------ */

static int64_t cdiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
static double clk_hz(const mxsim_gpu_card *c) { return c->sm_clock_mhz * 1e6; }
static double bw_bps(const mxsim_gpu_card *c) { return c->copy_bw_gbs * 1e9; }
/* Warp-instructions per second the whole GPU issues at full rate. */
static double issue_rate(const mxsim_gpu_card *c) { return c->n_sm * c->issue_per_sm_clk * clk_hz(c); }
/* Fraction of a scheduler's cycles that issue, with w resident warps each stalling Z cycles
** between instructions on average (a closed queue with one server). */
static double issue_eff(const mxsim_gpu_card *c, double w) { return w / (w + c->warp_stall_cyc); }

static void set_bound(mxsim_gpu_pred *o, const char *b) { mx_snprintf(o->bound, sizeof o->bound, "%s", b); }

/* Streaming kernel: bytes moved, instructions per element counted from the source. */
static void model_stream(const mxsim_gpu_card *c, double n_elem, double bytes, double instr_per_elem,
                         double cvt_per_elem, mxsim_gpu_pred *o)
{
    double t_mem = bytes / bw_bps(c);
    double t_iss = n_elem * instr_per_elem / 32.0 / issue_rate(c);
    double t_cvt = n_elem * cvt_per_elem / (c->cvt_per_sm_clk * c->n_sm * clk_hz(c));
    if (t_cvt > t_iss) t_iss = t_cvt;
    double hi = t_mem > t_iss ? t_mem : t_iss, lo = t_mem > t_iss ? t_iss : t_mem;
    o->mem_us = t_mem * 1e6;
    o->issue_us = t_iss * 1e6;
    o->dram_bytes = bytes;
    o->time_us = (hi + c->stream_overlap_loss * lo) * 1e6;
    set_bound(o, t_mem >= t_iss ? "memory" : "issue");
}

/* Instructions per element, counted from kernels/src (sim/doc/gpu-model.md section 3).
** The default dequantize kernel (kernels/src/dequant_bits.cuh): per 4 elements one XOR, 4 PRMT,
** 4 FADD, 4 FMUL and 2 packing PRMT (3.75/element), plus ~1.5/element for the scale lookup,
** loads, stores and addressing; mase-cuda adds the SWAR -128 fix (5 per word) and the E = 0/255
** test.  The original kernel (cfg 1, which the dequant+cuBLAS rows of the bench still used): */
#define DQ_OCP_INSTR 5.25
#define DQ_MASE_INSTR 6.5
#define DQ_V1_OCP_INSTR 8.0   /* byte extract, I2F, FMUL, RNE-to-bf16 (4), NaN select */
#define Q_INSTR 14.0       /* 2 loads, |x| and max, 2 FMUL, FRND, FMNMX x2, F2I, store, per-group share */

/* cvt_per_elem: int->float conversions per element (the cfg-1 ocp decode used one I2F each;
** the default kernel builds the float with PRMT + FADD and converts nothing). */
static void model_dequant_instr(const mxsim_gpu_card *c, const mxsim_gpu_op *op,
                                double instr_per_elem, double cvt_per_elem, mxsim_gpu_pred *o)
{
    double n = (double)op->m;
    model_stream(c, n, n + n / (double)op->g + 2.0 * n, instr_per_elem, cvt_per_elem, o);
}

static void model_dequant(const mxsim_gpu_card *c, const mxsim_gpu_op *op, int mase, mxsim_gpu_pred *o)
{
    model_dequant_instr(c, op, mase ? DQ_MASE_INSTR : DQ_OCP_INSTR, 0.0, o);
}

static void model_quantize(const mxsim_gpu_card *c, const mxsim_gpu_op *op, int bf16, mxsim_gpu_pred *o)
{
    double n = (double)op->m, g = (double)op->g;
    /* one warp per group: G < 32 leaves lanes idle, so instructions scale with max(G, 32) */
    double lanes_eff = g < 32.0 ? g / 32.0 : 1.0;
    double instr = Q_INSTR / lanes_eff + 25.0 / g; /* + shuffle reduction, vote, scale store */
    model_stream(c, n, n * (bf16 ? 2.0 : 4.0) + n + n / g, instr, 1.0 / lanes_eff, o);
}

/* Tile configs of gemm_mma.cu: BM, BN, warps M x N, stages, blocks per SM by the launch
** bounds / registers (cfg 1: 254 regs x 256 threads; cfg 5: 128 x 512; cfg 6: MINB = 2). */
typedef struct {
    int bm, bn, wm, wn, stages, max_blocks;
} tile_cfg;
static const tile_cfg k_tiles[7] = {
    {0, 0, 0, 0, 0, 0},         {128, 128, 2, 4, 3, 1}, {64, 64, 2, 2, 4, 0},
    {16, 32, 1, 4, 6, 0},       {0, 0, 0, 0, 0, 0},     {128, 128, 4, 4, 3, 1},
    {128, 64, 4, 2, 3, 2},
};

/* cfg 0 routing of mxk_gemm (kernels/src/gemm_mma.cu). */
static int route_cfg(const mxsim_gpu_op *op)
{
    int64_t tl = cdiv(op->m, 128) * cdiv(op->n, 128), ts = cdiv(op->m, 64) * cdiv(op->n, 64);
    if (op->m <= 16) return 4;
    if (tl >= 132) return op->g >= 64 ? 5 : 1;
    return ts >= 100 ? 2 : 3;
}

static void model_tile(const mxsim_gpu_card *c, const mxsim_gpu_op *op, int cfg, mxsim_gpu_pred *o)
{
    const tile_cfg *t = &k_tiles[cfg];
    const int warps = t->wm * t->wn, nthr = warps * 32;
    const int mt = t->bm / t->wm / 16, nt = t->bn / t->wn / 8;
    const int64_t K = op->k, G = op->g;
    const double n_ldsm = mt + (nt % 2 == 0 ? nt / 2 : nt);
    /* per 32-byte k-step: ldmatrix, their addresses (2 each), mma.sync, calibrated overhead */
    const double i_kstep = 3.0 * n_ldsm + mt * nt + c->tile_kstep_ovh_instr;
    /* per group: 3 FP32 per output (4 per thread per m16n8 tile), scale loads (2 MT + NT),
    ** the NaN/large-scale test (2 per row pair) and the vote */
    const double i_group = 3.0 * 4 * mt * nt + 2.0 * mt + nt + 4.0 * mt + 3.0;
    /* per 128-byte stage: cp.async (12 each), scale bytes (42 each: runtime divide, 64-bit
    ** address, load, power-of-two pair, shared store), barrier and waits (10) */
    const double n_cp = (double)cdiv((t->bm + t->bn) * 8, nthr), n_sc = (double)cdiv((t->bm + t->bn) * 4, nthr);
    const double i_stage = 12.0 * n_cp + 42.0 * n_sc + 10.0;
    const double n_kt = (double)cdiv(K, 128), n_ks = (double)(K / 32), n_g = (double)(K / G);
    const double i_warp = n_kt * i_stage + n_ks * i_kstep + n_g * i_group;

    /* resident blocks per SM: launch bounds, else shared memory (stages x (tile + scales)) */
    int bps = t->max_blocks;
    if (bps == 0) {
        double smem = (double)t->stages * ((t->bm + t->bn) * 128.0 + (t->bm + t->bn) * 4.0 * 8.0) + 1024.0;
        bps = (int)(c->smem_per_sm_bytes / smem);
        int by_thr = 2048 / nthr;
        if (bps > by_thr) bps = by_thr;
        if (bps < 1) bps = 1;
    }
    const int64_t tiles = cdiv(op->m, t->bm) * cdiv(op->n, t->bn);
    const int64_t slots = (int64_t)c->n_sm * bps;
    const int64_t waves = cdiv(tiles, slots);
    int64_t res = cdiv(tiles, (int64_t)c->n_sm); /* blocks on the fullest SM in one wave */
    if (res > bps) res = bps;
    const double w = (double)res * warps / c->issue_per_sm_clk;
    const double per_sched_clk = clk_hz(c) * issue_eff(c, w);
    const double t_wave = (double)res * warps * i_warp / c->issue_per_sm_clk / per_sched_clk;
    const double t_scale = (double)res * warps * n_g * i_group / c->issue_per_sm_clk / per_sched_clk;
    const double bytes = (double)(op->m + op->n) * K * (1.0 + 1.0 / G) + 4.0 * op->m * op->n;
    const double t_mem = bytes / bw_bps(c);
    /* mma.sync m16n8k32: 4096 int8 MACs; the dense int8 peak per SM per second */
    const double tc_per_sm = c->tc_int8_dense_tops * 1e12 / 2.0 / c->n_sm;
    const double t_tc = (double)waves * res * warps * n_ks * mt * nt * 4096.0 / tc_per_sm;
    double t_body = (double)waves * t_wave;
    o->issue_us = t_body * 1e6;
    o->scale_us = (double)waves * t_scale * 1e6;
    o->mem_us = t_mem * 1e6;
    o->tc_us = t_tc * 1e6;
    o->waves = (double)waves;
    o->instr_per_warp = i_warp;
    o->dram_bytes = bytes;
    const char *b = w < 2.0 ? "latency" : "issue";
    if (t_mem > t_body) t_body = t_mem, b = "memory";
    if (t_tc > t_body) t_body = t_tc, b = "tensor";
    o->time_us = t_body * 1e6;
    set_bound(o, b);
}

static void model_gemv(const mxsim_gpu_card *c, const mxsim_gpu_op *op, mxsim_gpu_pred *o)
{
    const int ms = op->m <= 8 ? 1 : 2;
    const int64_t G = op->g, K = op->k, kpg = G / 32;
    const int gpw = (G == 32 || G == 64 || G == 128) ? (int)(4 / kpg) : 1; /* groups per warp */
    const int64_t gr = 8 * gpw, ng = K / G, rounds = cdiv(ng, gr);
    const int64_t blocks = cdiv(op->n, 16) * cdiv(op->m, 8 * ms);
    /* per warp per round: 8 weight loads (4 instr each), MS activation loads + mma per k-step,
    ** scale loads (3 each), term formation (calibrated), loads/barrier/adds (calibrated) */
    const double i_round = 4.0 * 8 + 2.0 * 4 * ms * 2 + (double)gpw * ms * c->gemv_term_instr +
                           (2.0 + 2.0 * ms) * gpw * 3.0 + c->gemv_round_ovh_instr;
    int64_t bps = cdiv(blocks, (int64_t)c->n_sm);
    if (bps > 2) bps = 2; /* launch bounds (256, 2); ncu: block limit 2 */
    const double w = (double)bps * 8 / c->issue_per_sm_clk;
    const double t_round = (double)bps * 8 * i_round / c->issue_per_sm_clk / (clk_hz(c) * issue_eff(c, w));
    const double per_sm = (double)blocks / c->n_sm / (double)bps; /* rounds of co-resident blocks */
    const double t_iss = per_sm * (double)rounds * t_round;
    const double t_scale = per_sm * rounds * (double)bps * 8 * gpw * ms * c->gemv_term_instr /
                           c->issue_per_sm_clk / (clk_hz(c) * issue_eff(c, w));
    const double bytes = (double)op->n * K * (1.0 + 1.0 / G) + (double)op->m * K * (1.0 + 1.0 / G) +
                         4.0 * op->m * op->n;
    const double t_mem = bytes / bw_bps(c);
    o->issue_us = t_iss * 1e6;
    o->scale_us = t_scale * 1e6;
    o->mem_us = t_mem * 1e6;
    o->waves = per_sm;
    o->instr_per_warp = (double)rounds * i_round;
    o->dram_bytes = bytes;
    o->time_us = (t_iss > t_mem ? t_iss : t_mem) * 1e6;
    set_bound(o, t_iss > t_mem ? "issue" : "memory");
}

/* cuBLAS: flops at the measured peak, but never below one CTA tile (min(M,128) x 64 x K) at the
** per-SM peak; bytes at the copy bandwidth. */
static void model_cublas(const mxsim_gpu_card *c, const mxsim_gpu_op *op, int int8, mxsim_gpu_pred *o)
{
    const double peak = int8 ? c->cublaslt_int8_tops * 1e12 : c->cublas_bf16_tflops * 1e12;
    const double eb = int8 ? 1.0 : 2.0, ob = int8 ? 4.0 : 2.0;
    const double m = (double)op->m, n = (double)op->n, k = (double)op->k;
    double t_tc = 2.0 * m * n * k / peak;
    const double t_cta = 2.0 * (m < 128 ? m : 128) * 64.0 * k / (peak / c->n_sm);
    if (t_cta > t_tc) t_tc = t_cta;
    const double bytes = eb * (m * k + n * k) + ob * m * n;
    const double t_mem = bytes / bw_bps(c);
    const double call = int8 ? c->cublaslt_call_us : c->cublas_call_us;
    o->tc_us = t_tc * 1e6;
    o->mem_us = t_mem * 1e6;
    o->dram_bytes = bytes;
    o->launch_us = call;
    o->time_us = (t_tc > t_mem ? t_tc : t_mem) * 1e6 + call;
    set_bound(o, t_tc > t_mem ? "tensor" : "memory");
}

mxsim_status mx_gpu_op_check(mxsim_ctx *ctx, const mxsim_gpu_op *op, const char **field)
{
    static const char *const f_m = "m", *const f_n = "n", *const f_k = "k", *const f_g = "g", *const f_cfg = "cfg",
                             *const f_kernel = "kernel";
    const char *dummy;
    if (!field) field = &dummy;
    *field = f_kernel;
    const int gemm = op->kernel >= MXSIM_GK_MXK_GEMM && op->kernel <= MXSIM_GK_DEQUANT_CUBLAS;
    if (op->kernel < 0 || op->kernel > MXSIM_GK_DEQUANT_CUBLAS)
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: kernel: %d is not a mxsim_gpu_kernel", (int)op->kernel);
    const int64_t lim = (int64_t)1 << 40; /* bounds every product of the models well inside int64 / double */
    *field = f_m;
    if (op->m < 1 || op->m > 2 * lim)
        return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: m: %lld must be in 1..2^41", (long long)op->m);
    if (gemm) {
        *field = op->n < 1 || op->n > lim ? f_n : f_k;
        if (op->n < 1 || op->n > lim || op->k < 1 || op->k > lim)
            return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: %s: %lld must be in 1..2^40 for a GEMM", *field,
                           (long long)(*field == f_n ? op->n : op->k));
        *field = f_m;
        if (op->m > lim) return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: m: %lld must be in 1..2^40 for a GEMM", (long long)op->m);
        /* the tile counts (int64) and element counts of the models stay far inside int64 */
        const double big = (double)((int64_t)1 << 50);
        if ((double)op->m * (double)op->k > big || (double)op->n * (double)op->k > big || (double)op->m * (double)op->n > big) {
            *field = f_k;
            return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: m, n, k: %lld x %lld x %lld is too large (m n, m k and n k must be <= 2^50)",
                           (long long)op->m, (long long)op->n, (long long)op->k);
        }
    }
    const int needs_g = op->kernel != MXSIM_GK_COPY && op->kernel != MXSIM_GK_CUBLAS_BF16 &&
                        op->kernel != MXSIM_GK_CUBLASLT_INT8;
    *field = f_g;
    if (needs_g) {
        int64_t axis = gemm ? op->k : op->m;
        if (op->g < 1 || axis % op->g != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: g: %lld must be >= 1 and divide %s = %lld",
                           (long long)op->g, gemm ? "k" : "m", (long long)axis);
    }
    if (op->kernel == MXSIM_GK_MXK_GEMM) {
        *field = f_cfg;
        if (op->cfg < 0 || op->cfg > 6)
            return mx_fail(ctx, MXSIM_E_INPUT, "gpu op: cfg: %d must be 0..6", (int)op->cfg);
        *field = f_g;
        if (op->g % 32 != 0)
            return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                           "gpu op: g: %lld is not a multiple of 32 (the SIMT path is not modelled)", (long long)op->g);
    }
    *field = NULL;
    return MXSIM_OK;
}

mxsim_status mxsim_gpu_predict(mxsim_ctx *ctx, const mxsim_gpu_card *c, const mxsim_gpu_op *op,
                               mxsim_gpu_pred *o)
{
    mx_clear_err(ctx);
    if (!c || !op || !o) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_predict: NULL argument");
    memset(o, 0, sizeof *o);
    mxsim_status st = mx_gpu_card_check(ctx, c); /* a card built through the API: no division by 0, no UB */
    if (st == MXSIM_OK) st = mx_gpu_op_check(ctx, op, NULL);
    if (st != MXSIM_OK) return st;
    const double launch = c->launch_us;
    switch (op->kernel) {
    case MXSIM_GK_COPY:
        model_stream(c, (double)op->m, 2.0 * (double)op->m, 0.0, 0.0, o);
        o->time_us = o->mem_us; /* the copy defines copy_bw: no launch term */
        return MXSIM_OK;
    case MXSIM_GK_DEQUANT_OCP:
    case MXSIM_GK_DEQUANT_MASE: model_dequant(c, op, op->kernel == MXSIM_GK_DEQUANT_MASE, o); break;
    case MXSIM_GK_QUANTIZE_F32:
    case MXSIM_GK_QUANTIZE_BF16: model_quantize(c, op, op->kernel == MXSIM_GK_QUANTIZE_BF16, o); break;
    case MXSIM_GK_MXK_GEMM: {
        int cfg = op->cfg ? op->cfg : route_cfg(op);
        if (cfg == 4) model_gemv(c, op, o);
        else model_tile(c, op, cfg, o);
        o->cfg_used = cfg;
        break;
    }
    case MXSIM_GK_CUBLAS_BF16:
    case MXSIM_GK_CUBLASLT_INT8: model_cublas(c, op, op->kernel == MXSIM_GK_CUBLASLT_INT8, o); return MXSIM_OK;
    case MXSIM_GK_DEQUANT_CUBLAS: {
        mxsim_gpu_op a = {MXSIM_GK_DEQUANT_OCP, 0, op->m * op->k, 1, 1, op->g};
        mxsim_gpu_op b = {MXSIM_GK_DEQUANT_OCP, 0, op->n * op->k, 1, 1, op->g};
        mxsim_gpu_op g = *op;
        g.kernel = MXSIM_GK_CUBLAS_BF16;
        mxsim_gpu_pred pa, pb, pg;
        memset(&pa, 0, sizeof pa);
        memset(&pb, 0, sizeof pb);
        memset(&pg, 0, sizeof pg);
        model_dequant_instr(c, &a, DQ_V1_OCP_INSTR, 1.0, &pa); /* measured with the cfg-1 kernel */
        model_dequant_instr(c, &b, DQ_V1_OCP_INSTR, 1.0, &pb);
        model_cublas(c, &g, 0, &pg);
        o->mem_us = pa.mem_us + pb.mem_us + pg.mem_us;
        o->issue_us = pa.issue_us + pb.issue_us;
        o->tc_us = pg.tc_us;
        o->dram_bytes = pa.dram_bytes + pb.dram_bytes + pg.dram_bytes;
        o->launch_us = launch + 2.0 * c->launch_gap_us + pg.launch_us;
        o->time_us = launch + pa.time_us + pb.time_us + 2.0 * c->launch_gap_us + pg.time_us;
        double body = pa.time_us + pb.time_us + pg.time_us - pg.launch_us;
        set_bound(o, o->launch_us > body ? "launch" : pa.time_us + pb.time_us > pg.time_us - pg.launch_us
                                                          ? "memory" : pg.bound);
        return MXSIM_OK;
    }
    default: break;
    }
    o->launch_us = launch;
    if (launch > o->time_us) set_bound(o, "launch");
    o->time_us += launch;
    return MXSIM_OK;
}

mxsim_status mxsim_gpu_method_parse(mxsim_ctx *ctx, const char *m, mxsim_gpu_op *op)
{
    mx_clear_err(ctx);
    if (!m || !op) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_method_parse: NULL argument");
    memset(op, 0, sizeof *op);
    static const struct {
        const char *name;
        int kernel;
    } k[] = {{"d2d-copy", MXSIM_GK_COPY},
             {"mxk-dequant-ocp", MXSIM_GK_DEQUANT_OCP},
             {"mxk-dequant-mase-cuda", MXSIM_GK_DEQUANT_MASE},
             {"mxk-quantize-ocp-f32", MXSIM_GK_QUANTIZE_F32},
             {"mxk-quantize-ocp-bf16", MXSIM_GK_QUANTIZE_BF16},
             {"mxk-gemm-mxint8", MXSIM_GK_MXK_GEMM},
             {"cublas-bf16", MXSIM_GK_CUBLAS_BF16},
             {"cublaslt-int8", MXSIM_GK_CUBLASLT_INT8},
             {"dequant+cublas-bf16", MXSIM_GK_DEQUANT_CUBLAS}};
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (strcmp(m, k[i].name) == 0) {
            op->kernel = k[i].kernel;
            return MXSIM_OK;
        }
    if (strncmp(m, "mxk-gemm-mxint8-cfg", 19) == 0 && m[19] >= '1' && m[19] <= '6' && !m[20]) {
        op->kernel = MXSIM_GK_MXK_GEMM;
        op->cfg = m[19] - '0';
        return MXSIM_OK;
    }
    return mx_fail(ctx, MXSIM_E_INPUT, "method: unknown kernel '%s'", m);
}

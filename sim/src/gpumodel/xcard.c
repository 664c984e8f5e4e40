/* xcard.c - the cross-card GPU model (issue 16 item 5; sim/doc/gpu-model.md section 6): one
** structure per kernel class, card fields that are datasheet values or calibrated on ANOTHER card,
** the calibration itself (deterministic coordinate descent on one card's bench.csv, or on the
** per-row median of several runs of it: mxsim_gpu_xbench_median).
**
** Per bench row of class c (mxsim_gpu_xclass_of), with the card's datasheet values:
**   tensor  T = 2MNK / peak (int8 or bf16 dense)            epilogue E = M N (K/G) 3 / (128 n_sm f)
**           (the bf16-path kernel, cfg 11: the bf16 peak, 1 instruction per output and group)
**   work    W = max(T, E) (mxk tile kernels, decode kernel), T ceil(tiles/n_sm) / (tiles/n_sm)
**           (cuBLAS), blocks/(2 n_sm) x rounds x 0.1 us (small-M cfg 4: rounds of its K-split
**           warps; S = the same for its second row slice), 0 (copy, dequant)
**   steps   S = tiles per SM (128 x 128 tiles: wgmma, cfg 5; cfg 3: 16 x 32 tiles x groups per SM);
**           decode: its bytes / (n_sm f); cuBLAS has no S: its T is wave-quantised
**   DRAM    D = bytes / (hbm_bw x e_mem x rho_c), e_mem calibrated on the copy row
**   time    L_c + Dser + max(C, D) + ov_c min(C, D),  C = a_{c,G} W + b_c S (us)
**   decode  L + max(a_G W, b S + D): the weight stream's latency-bound issue and its transfer in
**           series, the group sums overlapping it (no ov)
**   floor   every time is at least one empty-kernel launch (launch_floor_us, xlaunch.c)
** Dser is the dequantize pass of dequant+cuBLAS and the pre-pass of cfg 11 (serial, before the
** GEMM: int8 operands and scales read, bf16 written); dequant+cuBLAS's GEMM reads the bf16
** operands from L2 when they fit (l2_mb), else from DRAM.  Calibrated per class:
** L (launch/tail, us), a per G (work factor: 1 / efficiency, >= 1 except for the small-M kernel,
** whose W is in arbitrary units), b (per-tile cost, us; per G for the tile kernels wgmma and cfg 5,
** and for the small-M kernel, where it is the second row slice's cost; decode: SM-clocks per byte
** in flight), ov (overlap loss), rho (dequant only: its bytes per second relative to the copy). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "gpuinternal.h"
#include "internal.h"

static const char *const k_cls[MXSIM_GX_NCLASS] = {"copy",      "dequant",       "cublas-bf16",
                                                   "cublaslt-int8", "dequant+cublas-bf16", "mxk-cfg5",
                                                   "mxk-cfg3",  "mxk-gemv-cfg4", "mxk-wgmma-cfg8",
                                                   "mxk-decode-cfg9", "mxk-decode-cfg10", "mxk-bf16-cfg11",
                                                   "mxk-decode-row-cfg12"};

const char *mxsim_gpu_xclass_name(int c) { return c >= 0 && c < MXSIM_GX_NCLASS ? k_cls[c] : NULL; }

/* The three decode classes share one structure (features, predict_us, calibration). */
static int is_decode(int c) { return c == MXSIM_GX_DECODE || c == MXSIM_GX_DECODE1 || c == MXSIM_GX_DECODE_ROW; }

/* Whether the M = 1 row kernel (cfg 12) applies, as mxk_gemm_decode_row_internal decides. */
static int row_applies(int64_t M, int64_t K, int64_t G)
{
    return M == 1 && (G == 32 || G == 64 || G == 128 || G == 256) && K % 512 == 0 && K <= 32768;
}

/* Whether a decode kernel (cfg 9 or cfg 10 of the current build) applies, as
** mxk_gemm_decode_internal / mxk_gemm_decode_v1_internal decide: M <= 16, G in {32, 64, 128, 256},
** K % 64 == 0, K/G <= 256, K <= 65536, and the kernel's shared memory fits.  The last condition is
** approximated from the shape alone (the kernels read the card's opt-in limit, 227 KB on H100 and
** H200, and add terms/scale buffers of a few KB): the M activation rows of K + 64 bytes plus two
** ring stages of 16 x 2112 bytes within 200 KiB (cfg 10's own limit is 200 KiB of about M K
** bytes).  Every decode shape of the bench (K = 4096) applies; the rule only matters for K above
** about 8192 at M = 16. */
static int decode_applies(int64_t M, int64_t K, int64_t G)
{
    if (M < 1 || M > 16 || (G != 32 && G != 64 && G != 128 && G != 256) || K % 64 || K / G > 256 || K > 65536) return 0;
    return M * (K + 64) + 2 * 16 * 2112 <= 200 * 1024;
}

/* The Hopper kernel's own refusals (kernels/src/gemm_wgmma.cu): K a multiple of 16, and groups that
** end on its 128-byte stage edges: G in {32, 64, 128} or a multiple of 128 (not 96, 160, ...); where
** it refuses, mxk_gemm runs cfg 5. */
static int wgmma_applies(int64_t K, int64_t G) { return G % 32 == 0 && K % 16 == 0 && (G > 128 ? G % 128 == 0 : G != 96); }

/* Routing (kernels/src/gemm_mma.cu, mxk_gemm), current build: cfg 0 at M <= 16 takes cfg 9, except
** cfg 10 for 8 < M <= 16 at G = 32; cfg 9 and cfg 10 fall back to cfg 4 where they do not apply
** (decode_applies); M > 16: at least 132 tiles of 128 x 128: the Hopper kernel (cfg 8, falling back
** to cfg 5: wgmma_applies); else at least 100 tiles of 64 x 64: cfg 2, which no bench row measures
** and the model does not describe (-1: no prediction); else cfg 3.
** At G = 32 the current build's cfg 0 takes cfg 11 instead of cfg 8 (the bf16-path twin; it
** applies where K % 64 == 0, else it hands the call to cfg 8).  MXSIM_GX_BUILD_PREBF16 (decode2 up to
** final4): the same routing without cfg 11.  MXSIM_GX_BUILD_DECODE1 (the runs before decode2): also
** no cfg 11; cfg 9 was the first decode kernel (class mxk-decode-cfg10) at M <= 16, else cfg 4; cfg 0
** at M <= 16 took it at G = 32, and at G = 64 when M = 1 or M > 8, else cfg 4; there was no cfg 10.
** The current build's cfg 0 takes the row kernel (cfg 12, falling back to cfg 9) at M = 1 with G >= 64;
** MXSIM_GX_BUILD_PREROW (final5 up to final7): the same routing without cfg 12.
** "mxk-gemm-mxint8-cfgN" is kernel N itself. */
int mxsim_gpu_xclass_of(const char *method, int64_t M, int64_t N, int64_t K, int64_t G, int build)
{
    if (!method || build < 0 || build >= MXSIM_GX_NBUILD) return -1;
    const int old = build == MXSIM_GX_BUILD_DECODE1;
    if (!strcmp(method, "d2d-copy")) return MXSIM_GX_COPY;
    if (!strcmp(method, "mxk-dequant-ocp") || !strcmp(method, "mxk-dequant-mase-cuda")) return MXSIM_GX_DEQUANT;
    if (!strcmp(method, "cublas-bf16")) return MXSIM_GX_CUBLAS_BF16;
    if (!strcmp(method, "cublaslt-int8")) return MXSIM_GX_CUBLASLT_INT8;
    if (!strcmp(method, "dequant+cublas-bf16")) return MXSIM_GX_DEQUANT_CUBLAS;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg3")) return MXSIM_GX_CFG3;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg4")) return MXSIM_GX_GEMV;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg5")) return MXSIM_GX_CFG5;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg8")) return wgmma_applies(K, G) ? MXSIM_GX_WGMMA : MXSIM_GX_CFG5;
    const int has_bf16 = build == MXSIM_GX_BUILD_CURRENT || build == MXSIM_GX_BUILD_PREROW;
    /* gemm_bf16.cu's refusals: G 32 or 64, K % 64, 32-bit operand offsets */
    const int bf16_applies = has_bf16 && (G == 32 || G == 64) && K % 64 == 0 && M * K < ((int64_t)1 << 31) &&
                             N * K < ((int64_t)1 << 31);
    const int hopper = wgmma_applies(K, G) ? MXSIM_GX_WGMMA : MXSIM_GX_CFG5;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg11")) return !has_bf16 ? -1 : bf16_applies ? MXSIM_GX_BF16 : hopper;
    const int has_row = build == MXSIM_GX_BUILD_CURRENT;
    if (!strcmp(method, "mxk-gemm-mxint8-cfg12"))
        return !has_row ? -1 : row_applies(M, K, G) ? MXSIM_GX_DECODE_ROW : decode_applies(M, K, G) ? MXSIM_GX_DECODE : MXSIM_GX_GEMV;
    if (old) {
        if (!strcmp(method, "mxk-gemm-mxint8-cfg9")) return M <= 16 ? MXSIM_GX_DECODE1 : MXSIM_GX_GEMV;
        if (!strcmp(method, "mxk-gemm-mxint8-cfg10")) return -1;
    } else {
        if (!strcmp(method, "mxk-gemm-mxint8-cfg9")) return decode_applies(M, K, G) ? MXSIM_GX_DECODE : MXSIM_GX_GEMV;
        if (!strcmp(method, "mxk-gemm-mxint8-cfg10")) return decode_applies(M, K, G) ? MXSIM_GX_DECODE1 : MXSIM_GX_GEMV;
    }
    if (!strcmp(method, "mxk-gemm-mxint8")) {
        const int64_t tiles = ((M + 127) / 128) * ((N + 127) / 128);
        if (M <= 16 && old) return G == 32 || (G == 64 && (M == 1 || M > 8)) ? MXSIM_GX_DECODE1 : MXSIM_GX_GEMV;
        if (M <= 16) {
            if (has_row && M == 1 && G >= 64 && row_applies(M, K, G)) return MXSIM_GX_DECODE_ROW;
            if (!decode_applies(M, K, G)) return MXSIM_GX_GEMV;
            return M > 8 && G == 32 ? MXSIM_GX_DECODE1 : MXSIM_GX_DECODE;
        }
        if (tiles >= 132) return G == 32 && bf16_applies ? MXSIM_GX_BF16 : hopper;
        if (((M + 63) / 64) * ((N + 63) / 64) >= 100) return -1; /* cfg 2 */
        return MXSIM_GX_CFG3;
    }
    return -1;
}

static int gidx(int64_t G) { return G >= 128 ? 2 : G >= 64 ? 1 : 0; }

typedef struct {
    double W, S, Dser, Dpar; /* s, tiles, bytes, bytes */
} feat;

/* cuBLAS's tensor work as the SMs see it: rounds of tiles, each round as long as its largest tile,
** min(M, 128) x min(N, 128) x K (2 ops per MAC) on every SM.  Equal to the problem's work spread
** over its tiles when the tiles are full (every bench row: M <= 128 or a multiple, N a multiple of
** 128); never less for a partial tile, so a larger problem is never cheaper (130 x 130 was 2.25x
** cheaper than 128 x 128 with the average). */
static double tile_work(double M, double N, double K, double rounds, double nsm)
{
    return 2 * (M < 128 ? M : 128) * (N < 128 ? N : 128) * K * rounds * nsm;
}

static feat features(const mxsim_gpu_xsheet *d, int c, double M, double N, double K, double G)
{
    feat f = {0, 0, 0, 0};
    const double nsm = d->n_sm, clk = d->clock_mhz * 1e6, i8 = d->int8_tops * 1e12, bf = d->bf16_tflops * 1e12;
    const double tiles = ceil(M / 128) * ceil(N / 128), rounds = ceil(tiles / nsm);
    const double gg = G > 0 ? G : 32;
    switch (c) {
    case MXSIM_GX_COPY: f.Dpar = 4 * M; break; /* bench: M elements of bf16 read + written */
    case MXSIM_GX_DEQUANT: f.Dpar = M * (3 + 1 / gg); break;
    case MXSIM_GX_CUBLAS_BF16:
    case MXSIM_GX_DEQUANT_CUBLAS:
        f.W = tile_work(M, N, K, rounds, nsm) / bf; /* wave-quantised tensor time */
        f.S = 0;
        f.Dpar = 2 * (M * K + N * K) + 2 * M * N;
        if (c == MXSIM_GX_DEQUANT_CUBLAS) {
            /* the dequantize pass writes the bf16 operands just before the GEMM reads them: when
            ** they fit in L2 the GEMM reads them from there; when not, the write stream has
            ** evicted its own beginning by the time the GEMM starts (LRU under a sequential
            ** stream larger than the cache): all from DRAM */
            const double op = 2 * (M * K + N * K), l2 = d->l2_mb * 1e6;
            f.Dser = (M * K + N * K) * (3 + 1 / gg);
            f.Dpar = (op > l2 ? op : 0) + 2 * M * N;
        }
        break;
    case MXSIM_GX_CUBLASLT_INT8:
        f.W = tile_work(M, N, K, rounds, nsm) / i8;
        f.S = 0;
        f.Dpar = M * K + N * K + 4 * M * N;
        break;
    case MXSIM_GX_BF16: {
        /* kernels/src/gemm_bf16.cu: a pre-pass (reads the int8 operands and scales, writes them as
        ** bf16; serial, before the GEMM), then 128 x 128 tiles at the bf16 tensor peak with one fp32
        ** add per output and group, reading the bf16 operands */
        const double T = 2 * M * N * K / bf, E = M * N * (K / gg) * 1.0 / (128 * nsm * clk);
        f.W = T > E ? T : E;
        f.S = tiles / nsm;
        f.Dser = (M * K + N * K) * (1 + 1 / gg + 2);
        f.Dpar = 2 * (M * K + N * K) + 4 * M * N;
        break;
    }
    default: {
        const double T = 2 * M * N * K / i8, E = M * N * (K / gg) * 3.0 / (128 * nsm * clk);
        f.Dpar = (M * K + N * K) * (1 + 1 / gg) + 4 * M * N;
        if (c == MXSIM_GX_GEMV) {
            /* kernels/src/gemm_gemv.cu: blocks of 16 columns x 8 MS rows (MS = 1 for M <= 8, else 2),
            ** 2 per SM, each warp of 8 takes GPW = 4, 2, 1 groups (G = 32, 64, 128) per round */
            const double gpw = gg >= 128 ? 1 : gg >= 64 ? 2 : 4, ms = M > 8 ? 2 : 1;
            const double base = ceil(N / 16) * ceil(M / (8 * ms)) / (2 * nsm) * ceil(K / gg / (8 * gpw));
            f.W = base * 1e-7;       /* rounds per SM slot x 0.1 us: the first row slice */
            f.S = base * (ms - 1);   /* the same for the second row slice (b: its cost, us) */
        } else if (is_decode(c)) {
            /* kernels/src/gemm_decode.cu: every weight byte (N K mantissas + N K / G scales) in
            ** flight once, M <= 16 activation rows; memory-bound unless M K / G per-output group
            ** sums (E) outrun the bytes */
            f.W = T > E ? T : E;
            f.S = f.Dpar / (nsm * clk) * 1e6; /* us at 1 byte per SM clock: b = 1 / (bytes in flight per SM / latency) */
        } else if (c == MXSIM_GX_CFG3) {
            f.W = T > E ? T : E;
            f.S = ceil(M / 16) * ceil(N / 32) / nsm * (K / gg);
        } else {
            f.W = T > E ? T : E;
            f.S = tiles / nsm;
        }
    }
    }
    return f;
}

static double predict_us(const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p, int c, double M, double N, double K,
                         double G)
{
    const feat f = features(d, c, M, N, K, G);
    const mxsim_gpu_xclass_params *q = &p->cls[c];
    const double bw = d->hbm_gbs * 1e9 * p->mem_eff * q->rho;
    const int g = gidx((int64_t)G);
    const double bb = c == MXSIM_GX_WGMMA || c == MXSIM_GX_CFG5 || c == MXSIM_GX_GEMV ? q->b[g] : q->b[0];
    double C = q->a[g] * f.W * 1e6 + bb * f.S, D = f.Dpar / bw * 1e6;
    if (is_decode(c)) /* the weight stream: latency-bound issue (b S) then transfer (D), in series */
        C = q->a[g] * f.W * 1e6, D += bb * f.S;
    const double t = q->L + f.Dser / bw * 1e6 + (C > D ? C : D) + q->ov * (C < D ? C : D);
    return t > p->launch_floor_us ? t : p->launch_floor_us; /* xlaunch.c: no op beats an empty launch */
}

/* The floor is the one field of p not fitted here: a caller's value out of range is refused */
static mxsim_status floor_check(mxsim_ctx *ctx, const char *fn, const mxsim_gpu_xparams *p)
{
    if (p->launch_floor_us >= 0 && p->launch_floor_us <= 1e6) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT, "%s: launch_floor_us: %g is not in [0, 1e6] us", fn, p->launch_floor_us);
}

/* a[0] == 0: the class had no row on the calibration card (mxsim_gpu_xcalibrate) */
static int calibrated(const mxsim_gpu_xparams *p, int c) { return p->cls[c].a[0] > 0 && (c != MXSIM_GX_COPY || p->mem_eff > 0); }

mxsim_status mxsim_gpu_xpredict(mxsim_ctx *ctx, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p,
                                const char *method, int64_t M, int64_t N, int64_t K, int64_t G, double *us)
{
    mx_clear_err(ctx);
    if (!d || !p || !method || !us) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xpredict: NULL argument");
    const int c = mxsim_gpu_xclass_of(method, M, N, K, G, MXSIM_GX_BUILD_CURRENT);
    if (c < 0)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "mxsim_gpu_xpredict: method '%s' at %lld x %lld x %lld, G = %lld is not "
                       "modelled (an unknown method, or a kernel it routes to that has no class: cfg 2, 64 x 64 tiles)",
                       method, (long long)M, (long long)N, (long long)K, (long long)G);
    if (!calibrated(p, c))
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "mxsim_gpu_xpredict: class %s (of '%s') is not calibrated", k_cls[c], method);
    if (M < 1 || N < 1 || K < 1 || G < 0 || (G > 0 && K % G && c != MXSIM_GX_COPY && c != MXSIM_GX_DEQUANT))
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xpredict: bad shape");
    if (floor_check(ctx, "mxsim_gpu_xpredict", p) != MXSIM_OK) return MXSIM_E_INPUT;
    *us = predict_us(d, p, c, (double)M, (double)N, (double)K, (double)G);
    return MXSIM_OK;
}

/* ---- bench rows --------------------------------------------------------------------------- */

typedef struct {
    int c;
    double M, N, K, G, us;
    char method[48];
} xrow;

struct mxsim_gpu_xbench {
    int n, skipped;
    xrow *r;
    char card[64];
};

void mxsim_gpu_xbench_free(mxsim_gpu_xbench *b)
{
    if (!b) return;
    free(b->r);
    free(b);
}

mxsim_status mxsim_gpu_xbench_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xbench **out)
{
    return mxsim_gpu_xbench_load_build(ctx, path, MXSIM_GX_BUILD_CURRENT, out);
}

/* The bench CSVs' first eight columns, by name: a file with N and K (or any two) swapped used to be
** read by position (audit of the twenty-fifth session). */
static int bench_header_ok(char **f, int nf)
{
    static const char *const want[8] = {"card", "shape", "M", "N", "K", "G", "method", "median_us"};
    for (int i = 0; i < 8; i++)
        if (i >= nf || strcmp(f[i], want[i])) return 0;
    return 1;
}

mxsim_status mxsim_gpu_xbench_load_build(mxsim_ctx *ctx, const char *path, int build, mxsim_gpu_xbench **out)
{
    mx_clear_err(ctx);
    if (!path || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xbench_load: NULL argument");
    if (build < 0 || build >= MXSIM_GX_NBUILD) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xbench_load: build %d unknown", build);
    *out = NULL;
    char *data;
    size_t cap;
    mxsim_status st = mx_text_read(ctx, path, 16u << 20, &data, &cap);
    if (st != MXSIM_OK) return st;
    mxsim_gpu_xbench *b = mx_calloc(1, sizeof *b);
    if (b) b->r = mx_calloc(cap, sizeof *b->r);
    if (!b || !b->r) {
        free(data);
        mxsim_gpu_xbench_free(b);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    mx_gpu_rowkey *keys = mx_calloc(cap, sizeof *keys);
    int64_t n_keys = 0;
    if (!keys) {
        free(data);
        mxsim_gpu_xbench_free(b);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    mx_lines cur;
    mx_lines_init(&cur, data);
    int header_seen = 0, card_line = 0, col_rate = -1, col_unit = -1, col_ratio = -1, nf_hdr = 0;
    for (char *buf; (buf = mx_lines_next(&cur)) != NULL;) {
        if (!buf[0]) continue;
        char *f[33];
        const int nf = mx_csv_split(buf, f, 32);
        if (nf > 32) { /* the splitter's "too many" answer: f[32] is not set */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: more than 32 fields", path, cur.line);
            goto fail;
        }
        if (!header_seen) { /* the first non-blank line is the header */
            if (!bench_header_ok(f, nf)) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: header: expected card,shape,M,N,K,G,method,median_us,...", path, cur.line);
                goto fail;
            }
            for (int j = 8; j < nf && j < 11; j++) {
                if (!strcmp(f[j], "rate")) col_rate = j;
                if (!strcmp(f[j], "unit")) col_unit = j;
                if (!strcmp(f[j], "ratio")) col_ratio = j;
            }
            nf_hdr = nf;
            header_seen = 1;
            continue;
        }
        if (nf != nf_hdr) { /* a short row was checked through fields it never set (a stale pointer) */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected %d fields (as the header), found %d", path, cur.line, nf_hdr, nf);
            goto fail;
        }
        double v[5];
        for (int j = 0; j < 5; j++) {
            char *e;
            errno = 0;
            v[j] = mx_strtod(f[j == 4 ? 7 : 2 + j], &e);
            /* M, N, K, G whole numbers (G may be 0) up to 2^40; median_us in (0, 1e9] */
            const double hi = j == 4 ? MX_GPU_MAX_US : 1099511627776.0;
            if (e == f[j == 4 ? 7 : 2 + j] || *e || errno || !isfinite(v[j]) || v[j] > hi ||
                (j == 4 ? !(v[j] > 0) : v[j] < (j == 3 ? 0 : 1) || floor(v[j]) != v[j])) {
                static const char *const nm[5] = {"M", "N", "K", "G", "median_us"};
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field %d (%s): '%s' is not %s", path, cur.line, j == 4 ? 8 : 3 + j,
                             nm[j], f[j == 4 ? 7 : 2 + j],
                             j == 4 ? "a time in (0, 1e9] us" : j == 3 ? "a whole number in 0..2^40" : "a whole number in 1..2^40");
                goto fail;
            }
        }
        if ((st = mx_gpu_bench_card(ctx, path, cur.line, f[0], b->card, sizeof b->card, &card_line)) != MXSIM_OK) goto fail;
        if (strlen(f[6]) >= sizeof keys->method) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 7 (method): longer than %zu bytes", path, cur.line, sizeof keys->method - 1);
            goto fail;
        }
        mx_gpu_rowkey *key = &keys[n_keys++];
        memcpy(key->method, f[6], strlen(f[6]) + 1);
        key->M = (int64_t)v[0], key->N = (int64_t)v[1], key->K = (int64_t)v[2], key->G = (int64_t)v[3], key->line = cur.line;
        if ((st = mx_gpu_bench_extra(ctx, path, cur.line, f, col_rate, col_unit, col_ratio)) != MXSIM_OK) goto fail;
        const int c = mxsim_gpu_xclass_of(f[6], (int64_t)v[0], (int64_t)v[1], (int64_t)v[2], (int64_t)v[3], build);
        if (c < 0) { /* a variant the model does not cover */
            b->skipped++;
            continue;
        }
        xrow *r = &b->r[b->n++];
        *r = (xrow){c, v[0], v[1], v[2], v[3], v[4], ""};
        memcpy(r->method, f[6], strlen(f[6]) + 1);
    }
    if ((st = mx_gpu_rowkey_check(ctx, path, keys, n_keys)) != MXSIM_OK) goto fail;
    free(keys);
    keys = NULL;
    free(data);
    /* the copy row calibrates every class's DRAM time: it goes first, the other rows keep their order */
    int copy = 0;
    while (copy < b->n && b->r[copy].c != MXSIM_GX_COPY) copy++;
    if (copy == b->n) {
        const int n = b->n;
        mxsim_gpu_xbench_free(b);
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: no d2d-copy row (%d rows of modelled methods): the copy's bandwidth calibrates every "
                       "class's DRAM time; the bench mxsim-gpu bench writes (bench.csv) has it%s", path, n,
                       n == 0 ? " (an empty or header-only file?)" : " (a bench_ext.csv, the power file, given as a bench?)");
    }
    if (copy > 0) {
        const xrow r = b->r[copy];
        memmove(b->r + 1, b->r, (size_t)copy * sizeof *b->r);
        b->r[0] = r;
    }
    *out = b;
    return MXSIM_OK;
fail:
    free(data);
    free(keys);
    mxsim_gpu_xbench_free(b);
    return st;
}

const char *mxsim_gpu_xbench_card(const mxsim_gpu_xbench *b) { return b ? b->card : ""; }

static int cmp_dbl(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double mx_gpu_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_dbl);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Library kernels (not built from this repository): the same code in every build of the bench. */
static int library_method(const char *m)
{
    return !strcmp(m, "d2d-copy") || !strcmp(m, "cublas-bf16") || !strcmp(m, "cublaslt-int8");
}

mxsim_status mxsim_gpu_xbench_median(mxsim_ctx *ctx, const mxsim_gpu_xbench *const *runs, const int *build, int n,
                                     mxsim_gpu_xbench **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (!runs || !out || n < 1) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xbench_median: NULL argument or no run");
    for (int k = 0; k < n; k++)
        if (!runs[k]) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xbench_median: NULL run");
    mxsim_gpu_xbench *b = mx_calloc(1, sizeof *b);
    double *v = mx_calloc((size_t)n, sizeof *v);
    if (b) b->r = mx_calloc((size_t)runs[0]->n + 1, sizeof *b->r);
    if (!b || !v || !b->r) {
        free(v);
        mxsim_gpu_xbench_free(b);
        return mx_fail(ctx, MXSIM_E_NOMEM, "mxsim_gpu_xbench_median: out of memory");
    }
    memcpy(b->card, runs[0]->card, sizeof b->card);
    for (int i = 0; i < runs[0]->n; i++) {
        const xrow *r = &runs[0]->r[i];
        int m = 0;
        for (int k = 0; k < n; k++)
            for (int j = 0; j < runs[k]->n && (!build || build[k] == build[0] || library_method(r->method)); j++) {
                const xrow *q = &runs[k]->r[j];
                if (q->M == r->M && q->N == r->N && q->K == r->K && q->G == r->G && !strcmp(q->method, r->method)) {
                    v[m++] = q->us;
                    break;
                }
            }
        b->r[b->n] = *r;
        b->r[b->n++].us = mx_gpu_median(v, m);
    }
    free(v);
    *out = b;
    return MXSIM_OK;
}
int mxsim_gpu_xbench_count(const mxsim_gpu_xbench *b) { return b ? b->n : 0; }
int mxsim_gpu_xbench_skipped(const mxsim_gpu_xbench *b) { return b ? b->skipped : 0; }

mxsim_status mxsim_gpu_xbench_row(const mxsim_gpu_xbench *b, int i, const mxsim_gpu_xsheet *d,
                                  const mxsim_gpu_xparams *p, mxsim_gpu_xrow *out)
{
    if (!b || !d || !p || !out || i < 0 || i >= b->n) return MXSIM_E_ARG;
    if (!(p->launch_floor_us >= 0 && p->launch_floor_us <= 1e6)) return MXSIM_E_INPUT;
    const xrow *r = &b->r[i];
    out->cls = r->c;
    out->M = (int64_t)r->M, out->N = (int64_t)r->N, out->K = (int64_t)r->K, out->G = (int64_t)r->G;
    out->measured_us = r->us;
    out->method = r->method;
    out->model_us = calibrated(p, r->c) ? predict_us(d, p, r->c, r->M, r->N, r->K, r->G) : NAN;
    return MXSIM_OK;
}

static void score(const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p, int only_c,
                  mxsim_gpu_xscore *s)
{
    memset(s, 0, sizeof *s);
    double tot = 0;
    for (int i = 0; i < b->n; i++) {
        const xrow *r = &b->r[i];
        if (only_c >= 0 && r->c != only_c) continue;
        if (!calibrated(p, r->c)) {
            s->uncalibrated++;
            continue;
        }
        const double e = fabs(predict_us(d, p, r->c, r->M, r->N, r->K, r->G) / r->us - 1);
        tot += e;
        s->n++;
        s->cls_n[r->c]++;
        s->cls_mape[r->c] += e;
        if (e > s->max_abs) s->max_abs = e;
    }
    s->mape = s->n ? tot / s->n : 0;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++)
        if (s->cls_n[c]) s->cls_mape[c] /= s->cls_n[c];
}

mxsim_status mxsim_gpu_xscore_bench(mxsim_ctx *ctx, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d,
                                    const mxsim_gpu_xparams *p, mxsim_gpu_xscore *out)
{
    mx_clear_err(ctx);
    if (!b || !d || !p || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xscore_bench: NULL argument");
    if (floor_check(ctx, "mxsim_gpu_xscore_bench", p) != MXSIM_OK) return MXSIM_E_INPUT;
    score(b, d, p, -1, out);
    return MXSIM_OK;
}

/* ---- calibration -------------------------------------------------------------------------- */

static double cls_mape(const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p, int c)
{
    mxsim_gpu_xscore s;
    score(b, d, p, c, &s);
    return s.mape;
}

/* Coordinate descent on the class MAPE: each used parameter in turn tries a fixed set of steps
** (multiplicative for rho, a, and the decode class's b; additive otherwise) and keeps the best; a
** sweep that moves no parameter is a fixed point (every later sweep would repeat it). */
enum { NP = 9 };
static void descend(const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d, mxsim_gpu_xparams *out, int c, const int *use,
                    double *const *par)
{
    static const double F[] = {0.5, 0.8, 0.9, 0.97, 0.99, 0.998, 0.9998, 1.0002, 1.002, 1.01, 1.03, 1.1, 1.25, 2.0};
    static const double A[] = {-2, -0.5, -0.1, -0.02, -0.002, 0.002, 0.02, 0.1, 0.5, 2};
    for (int it = 0, moved = 1; it < 600 && moved; it++) {
        moved = 0;
        for (int k = 0; k < NP; k++) {
            if (!use[k]) continue;
            const double v = *par[k];
            double best = cls_mape(b, d, out, c), bv = v;
            const int mult = k == 1 || k >= 6 || (is_decode(c) && k == 2);
            const int nc = mult ? (int)(sizeof F / sizeof F[0]) : (int)(sizeof A / sizeof A[0]);
            for (int j = 0; j < nc; j++) {
                double nv = mult ? v * F[j] : v + A[j] * (k == 5 ? 0.1 : 1);
                if (!mult && nv < 0) nv = 0;
                if (k >= 6 && c != MXSIM_GX_GEMV && nv < 1) nv = 1; /* no faster than the datasheet peak */
                if (k == 5 && nv > 1) nv = 1;
                *par[k] = nv;
                const double m = cls_mape(b, d, out, c);
                if (m < best - 1e-12) best = m, bv = nv;
            }
            moved |= bv != v;
            *par[k] = bv;
        }
    }
}

mxsim_status mxsim_gpu_xcalibrate(mxsim_ctx *ctx, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d,
                                  mxsim_gpu_xparams *out)
{
    mx_clear_err(ctx);
    if (!b || !d || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xcalibrate: NULL argument");
    if (!(d->n_sm > 0 && d->clock_mhz > 0 && d->int8_tops > 0 && d->bf16_tflops > 0 && d->hbm_gbs > 0 && d->l2_mb >= 0))
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xcalibrate: datasheet values must be positive");
    memset(out, 0, sizeof *out);
    const xrow *cp = &b->r[0];
    out->mem_eff = 4 * cp->M / (cp->us * 1e-6) / (d->hbm_gbs * 1e9);
    if (out->mem_eff > 1) /* a card file holds mem_eff in (0, 1]: the fit would write one its reader refuses */
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "the bench of '%s': its d2d-copy row moved %.1f GB/s, more than the card file's field "
                       "'hbm.bw_gbs' (%g): that value is too low (the field is GB/s)", b->card,
                       4 * cp->M / (cp->us * 1e-6) * 1e-9, d->hbm_gbs);
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) {
        mxsim_gpu_xclass_params *q = &out->cls[c];
        q->rho = 1, q->a[0] = q->a[1] = q->a[2] = 1;
        q->L = c == MXSIM_GX_COPY ? 0 : 5;
    }
    /* parameters per class: L; rho (dequant only); b per G (one b for the classes
    ** whose b is not per G); ov; a per G */
    for (int c = 1; c < MXSIM_GX_NCLASS; c++) {
        mxsim_gpu_xclass_params *q = &out->cls[c];
        int has = 0, gs[3] = {0, 0, 0};
        for (int i = 0; i < b->n; i++)
            if (b->r[i].c == c) has = 1, gs[gidx((int64_t)b->r[i].G)] = 1;
        if (!has) { /* not calibrated: a[0] == 0 marks it */
            memset(q, 0, sizeof *q);
            q->rho = 1;
            continue;
        }
        double *par[NP] = {&q->L, &q->rho, &q->b[0], &q->b[1], &q->b[2], &q->ov, &q->a[0], &q->a[1], &q->a[2]};
        const int gemm = c != MXSIM_GX_DEQUANT, mxk = c >= MXSIM_GX_CFG5, pergb = c == MXSIM_GX_WGMMA || c == MXSIM_GX_CFG5 || c == MXSIM_GX_GEMV;
        const int use[NP] = {1, c == MXSIM_GX_DEQUANT, mxk && gs[0], pergb && gs[1], pergb && gs[2],
                             gemm && !is_decode(c), gemm && gs[0], gemm && gs[1], gemm && gs[2]};
        /* start a and b from the least-squares fit of the relative error of L + a W + b S (the
        ** compute-bound form) per G: the descent alone stalls on their correlation */
        for (int g = 0; g < 3 && gemm; g++) {
            double sww = 0, sws = 0, sss = 0, swy = 0, ssy = 0;
            for (int i = 0; i < b->n; i++) {
                const xrow *r = &b->r[i];
                if (r->c != c || gidx((int64_t)r->G) != g) continue;
                const feat f = features(d, c, r->M, r->N, r->K, r->G);
                const double w = f.W * 1e6 / r->us, sv = (pergb || 1) ? f.S / r->us : 0, y = 1 - q->L / r->us;
                sww += w * w, sws += w * sv, sss += sv * sv, swy += w * y, ssy += sv * y;
            }
            const double det = sww * sss - sws * sws;
            double a = sww > 0 ? swy / sww : 1, bb = 0;
            if (det > 1e-12 * (sww * sss + 1e-300) && (pergb || g == 0)) {
                a = (swy * sss - ssy * sws) / det, bb = (sww * ssy - sws * swy) / det;
                if (bb < 0) bb = 0, a = swy / sww;
                if (a <= 0) a = 1e-3, bb = sss > 0 ? ssy / sss : 0;
            }
            if (sww > 0) q->a[g] = a > 1 || (c == MXSIM_GX_GEMV && a > 0) ? a : 1;
            if (sww > 0 && (pergb || g == 0)) q->b[g] = bb;
        }
        /* the decode class has no compute-bound start (its time is the weight stream's): the
        ** descent from a grid of starts (L, b, a), keeping the best; one start for the others */
        static const double SL[] = {2, 5}, SB[] = {0.02, 0.05, 0.1, 0.2}, SA[] = {1, 4, 16};
        const int nstart = is_decode(c) ? 24 : 1;
        mxsim_gpu_xclass_params best_q = *q;
        double best_m = INFINITY;
        for (int st = 0; st < nstart; st++) {
            if (is_decode(c)) {
                q->L = SL[st % 2], q->b[0] = SB[(st / 2) % 4];
                q->a[0] = q->a[1] = q->a[2] = SA[st / 8];
            }
            descend(b, d, out, c, use, par);
            const double m = cls_mape(b, d, out, c);
            if (m < best_m - 1e-12) best_m = m, best_q = *q;
        }
        *q = best_q;
        if (!pergb) q->b[1] = q->b[2] = q->b[0];
        /* classes without a G-specific row keep the a of the nearest G that has one */
        for (int g = 0; g < 3; g++)
            if (!gs[g]) q->a[g] = gs[0] ? q->a[0] : gs[1] ? q->a[1] : q->a[2];
    }
    return MXSIM_OK;
}

/* ---- measured power (bench_ext.csv) ------------------------------------------------------- */

typedef struct {
    char method[48];
    double M, N, K, G, us, w, j;
} prow;

struct mxsim_gpu_xpower {
    int n;
    prow *r;
    char card[64];
};

void mxsim_gpu_xpower_free(mxsim_gpu_xpower *p)
{
    if (!p) return;
    free(p->r);
    free(p);
}
const char *mxsim_gpu_xpower_card(const mxsim_gpu_xpower *p) { return p ? p->card : ""; }

mxsim_status mxsim_gpu_xpower_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xpower **out)
{
    mx_clear_err(ctx);
    if (!path || !out) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xpower_load: NULL argument");
    *out = NULL;
    char *data;
    size_t cap;
    mxsim_status st = mx_text_read(ctx, path, 16u << 20, &data, &cap);
    if (st != MXSIM_OK) return st;
    mxsim_gpu_xpower *p = mx_calloc(1, sizeof *p);
    if (p) p->r = mx_calloc(cap, sizeof *p->r);
    if (!p || !p->r) {
        free(data);
        mxsim_gpu_xpower_free(p);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    /* the bench reader's rules (sim/doc/gpu-model.md section 2.1): a header, one card, no row
    ** twice, M N K G whole numbers, times and powers positive: a 0 power or time used to drop the
    ** row silently and a repeated row to let the first copy win */
    mx_gpu_rowkey *keys = mx_calloc(cap, sizeof *keys);
    int64_t n_keys = 0;
    if (!keys) {
        free(data);
        mxsim_gpu_xpower_free(p);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    int col_w = -1, col_j = -1, card_line = 0, nf_hdr = 0;
    mx_lines cur;
    mx_lines_init(&cur, data);
    for (char *buf; (buf = mx_lines_next(&cur)) != NULL;) {
        if (!buf[0]) continue;
        char *f[24];
        const int nf = mx_csv_split(buf, f, 23);
        if (nf > 23) { /* the splitter's "too many" answer: f[23] is not set */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: more than 23 fields", path, cur.line);
            goto fail;
        }
        if (col_w < 0) { /* the first non-blank line is the header */
            for (int i = 0; i < nf; i++) {
                if (!strcmp(f[i], "power_w")) col_w = i;
                if (!strcmp(f[i], "joules_per_op")) col_j = i;
            }
            nf_hdr = nf;
            if (!bench_header_ok(f, nf) || col_w < 0 || col_j < 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: header: expected card,shape,M,N,K,G,method,median_us,... with power_w and joules_per_op", path, cur.line);
                goto fail;
            }
            continue;
        }
        if (nf != nf_hdr) { /* a row with extra fields was read shifted (power_w from dram_us) */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected %d fields (as the header), found %d", path, cur.line, nf_hdr, nf);
            goto fail;
        }
        prow *r = &p->r[p->n];
        double *dst[7] = {&r->M, &r->N, &r->K, &r->G, &r->us, &r->w, &r->j};
        const int col[7] = {2, 3, 4, 5, 7, col_w, col_j};
        static const char *const name[7] = {"M", "N", "K", "G", "median_us", "power_w", "joules_per_op"};
        static const char *const want[7] = {"a whole number in 1..2^40", "a whole number in 1..2^40", "a whole number in 1..2^40",
                                            "a whole number in 0..2^40", "a time in (0, 1e9] us",
                                            "a board power in [20, 1500] W (an H100 or H200 SXM board idles near 70 W and is capped at 700 W)",
                                            "a number >= 0"};
        for (int j = 0; j < 7; j++) {
            char *e;
            errno = 0;
            const double v = *dst[j] = mx_strtod(f[col[j]], &e);
            int ok = e != f[col[j]] && !*e && !errno && isfinite(v);
            if (ok && j < 4) ok = v >= (j == 3 ? 0 : 1) && v <= 1099511627776.0 && floor(v) == v;
            else if (ok && j == 4) ok = v > 0 && v <= MX_GPU_MAX_US;
            else if (ok && j == 5) ok = v >= 20 && v <= 1500; /* 46,890 W or 0.469 (kW) were accepted */
            else if (ok) ok = v >= 0;
            if (!ok) {
                if (e == f[col[j]] || *e || errno || !isfinite(v) || v < 0) /* not a number at all */
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field %d (%s): not a number >= 0 ('%s'; want %s)", path, cur.line,
                                 col[j] + 1, name[j], f[col[j]], want[j]);
                else
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field %d (%s): '%s' is not %s", path, cur.line, col[j] + 1, name[j],
                                 f[col[j]], want[j]);
                goto fail;
            }
        }
        if ((st = mx_gpu_bench_card(ctx, path, cur.line, f[0], p->card, sizeof p->card, &card_line)) != MXSIM_OK) goto fail;
        if (strlen(f[6]) >= sizeof r->method) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 7 (method): longer than %zu bytes", path, cur.line, sizeof r->method - 1);
            goto fail;
        }
        mx_snprintf(r->method, sizeof r->method, "%s", f[6]);
        mx_gpu_rowkey *key = &keys[n_keys++];
        memcpy(key->method, f[6], strlen(f[6]) + 1);
        key->M = (int64_t)r->M, key->N = (int64_t)r->N, key->K = (int64_t)r->K, key->G = (int64_t)r->G, key->line = cur.line;
        p->n++;
    }
    if (col_w < 0) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:1: header: missing (the file is empty)", path);
        goto fail;
    }
    if (p->n == 0) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: no rows after the header", path);
        goto fail;
    }
    if ((st = mx_gpu_rowkey_check(ctx, path, keys, n_keys)) != MXSIM_OK) goto fail;
    free(keys);
    free(data);
    *out = p;
    return MXSIM_OK;
fail:
    free(keys);
    free(data);
    mxsim_gpu_xpower_free(p);
    return st;
}

int mxsim_gpu_xpower_measured(const mxsim_gpu_xpower *p, const char *method, int64_t M, int64_t N, int64_t K,
                              int64_t G, double *us, double *watts)
{
    for (int i = 0; p && i < p->n; i++) {
        const prow *r = &p->r[i];
        if (!strcmp(r->method, method) && r->M == (double)M && r->N == (double)N && r->K == (double)K &&
            (G < 0 || r->G == (double)G)) {
            if (us) *us = r->us;
            if (watts) *watts = r->w;
            return 1;
        }
    }
    return 0;
}

double mxsim_gpu_xpower_min_watts(const mxsim_gpu_xpower *p)
{
    double w = 0;
    for (int i = 0; p && i < p->n; i++)
        if (w == 0 || p->r[i].w < w) w = p->r[i].w;
    return w;
}

double mxsim_gpu_xpower_watts(const mxsim_gpu_xpower *p, const char *method, int64_t M, int64_t N, int64_t K, int64_t G)
{
    if (!p || !method) return 0;
    const double x = log(2.0 * (double)M * (double)N * (double)K);
    int same_g = 0;
    for (int i = 0; i < p->n; i++) same_g |= !strcmp(p->r[i].method, method) && p->r[i].G == (double)G;
    /* the measured rows of this method (of the same G when there are some) nearest below and above
    ** in log(ops), interpolated linearly; clamped at the ends */
    int lo = -1, hi = -1;
    double xlo = -INFINITY, xhi = INFINITY;
    for (int i = 0; i < p->n; i++) {
        const prow *r = &p->r[i];
        if (strcmp(r->method, method) || (same_g && r->G != (double)G)) continue;
        const double xi = log(2.0 * r->M * r->N * r->K);
        if (xi <= x && xi > xlo) xlo = xi, lo = i;
        if (xi >= x && xi < xhi) xhi = xi, hi = i;
    }
    if (lo < 0 && hi < 0) return 0;
    if (lo < 0) return p->r[hi].w;
    if (hi < 0 || xhi == xlo) return p->r[lo].w;
    return p->r[lo].w + (p->r[hi].w - p->r[lo].w) * (x - xlo) / (xhi - xlo);
}

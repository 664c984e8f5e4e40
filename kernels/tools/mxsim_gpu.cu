/* mxsim_gpu.cu - mxsim-gpu, the GPU runner: runs the mxk kernels on .npy/.npz files, checks them
** bit for bit against libmxsim's C model, benchmarks them against cuBLAS, and writes the golden
** set that CI re-derives on the CPU (tests/unit/test_gpu_golden.c).
**
**   mxsim-gpu info
**   mxsim-gpu dequant IN.npz OUT.npy          (ocp or mase-cuda profile, as IN says; bf16 out)
**   mxsim-gpu quantize IN.npy G OUT.npz       (ocp; f32 or bf16 in, grouped along the last axis)
**   mxsim-gpu gemm A.npz B.npz OUT.npy        (A [M,K], B [N,K], grouped along K; f32 out)
**   mxsim-gpu verify OUTDIR                   (writes OUTDIR/verify.csv; exit 1 on any mismatch)
**   mxsim-gpu bench OUTDIR                    (writes OUTDIR/bench.csv)
**   mxsim-gpu bench-dequant OUTDIR            (dequant only, every kernel variant and traffic
**                                              ceilings: OUTDIR/bench_dequant.csv)
**   mxsim-gpu bench-prefill OUTDIR            (prefill shapes, cuBLAS bf16 and cfg 8 with the
**                                              MXK_PREFILL_VARIANTS timing switches: bench_prefill.csv)
**   (verify with MXK_VERIFY_DEQUANT_ONLY set stops after the dequant checks; with MXK_VERIFY_CFG=N
**   it runs only the GEMM cases of cfg N)
**   mxsim-gpu golden OUTDIR                   (writes the golden set and its MANIFEST)
**   mxsim-gpu perf M N K G [cfg]              (times one GEMM size; for ncu and tile choices;
**                                              MXK_PERF_COLD=1: B rotates over copies so that each
**                                              launch finds it out of L2; MXK_DS_TRACE=1 with cfg 9:
**                                              prints the decode kernel's per-block timeline;
**                                              MXK_DR_TRACE=1 with cfg 12: the row kernel's per-row
**                                              start / weights-in / end quantiles)
**   mxsim-gpu memory OUT.csv TRACE...         (weight memory of each trace's model on the card,
**                                              bf16 and MXINT8 at G = 8..128, cudaMemGetInfo
**                                              before/after; sim/doc/memory.md)
** File modes print the kernel time (CUDA events).  Exit codes: 0 ok, 1 failure, 2 usage. */
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.h"
#include "mxk.h"
#include "mxsim.h"

#define CKB(x)                                                                     \
    do {                                                                           \
        int s_ = (int)(x);                                                         \
        if (s_ != 0) {                                                             \
            fprintf(stderr, "%s:%d: %s: cuBLAS status %d\n", __FILE__, __LINE__, #x, s_); \
            exit(1);                                                               \
        }                                                                          \
    } while (0)
#define CKM(ctx, x)                                                                       \
    do {                                                                                  \
        mxsim_status s_ = (x);                                                            \
        if (s_ != MXSIM_OK) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, mxsim_strerror(s_),    \
                    mxsim_errmsg(ctx));                                                   \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)

/* ---- small utilities ------------------------------------------------------------------------ */

struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t u32() { return (uint32_t)(next() >> 32); }
    int range(int lo, int hi) { return lo + (int)(next() % (uint64_t)(hi - lo + 1)); }
    double uni() { return (double)(next() >> 11) * 0x1p-53; }
};

static float f32_from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static bool same_f32(float a, float b)
{
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return bits_of(a) == bits_of(b);
}
static bool is_nan_bf16(uint16_t b) { return (b & 0x7F80) == 0x7F80 && (b & 0x7F); }
static bool same_bf16(uint16_t a, uint16_t b)
{
    if (is_nan_bf16(a) || is_nan_bf16(b)) return is_nan_bf16(a) && is_nan_bf16(b);
    return a == b;
}

template <class T> struct DBuf {
    T *p = nullptr;
    size_t n = 0;
    DBuf() = default;
    explicit DBuf(size_t n_) : n(n_) { CK(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T))); }
    DBuf(const DBuf &) = delete;
    DBuf &operator=(const DBuf &) = delete;
    DBuf(DBuf &&o) noexcept : p(o.p), n(o.n) { o.p = nullptr; }
    ~DBuf()
    {
        if (p) cudaFree(p);
    }
    void up(const T *h) { CK(cudaMemcpy(p, h, n * sizeof(T), cudaMemcpyHostToDevice)); }
    void down(T *h) const { CK(cudaMemcpy(h, p, n * sizeof(T), cudaMemcpyDeviceToHost)); }
};

static std::string g_card = "unknown";

static mxsim_ctx *new_ctx()
{
    mxsim_ctx *ctx = nullptr;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) {
        fprintf(stderr, "mxsim_ctx_create failed\n");
        exit(1);
    }
    return ctx;
}

/* ---- verify -------------------------------------------------------------------------------- */

struct VerifyLog {
    FILE *f;
    long total_mismatch = 0, n_checks = 0;
    void row(const char *check, const std::string &params, long n, long mism)
    {
        fprintf(f, "%s,%s,%s,%ld,%ld\n", g_card.c_str(), check, params.c_str(), n, mism);
        fflush(f);
        printf("%-10s %-60s n=%-10ld mismatches=%ld\n", check, params.c_str(), n, mism);
        total_mismatch += mism;
        n_checks++;
    }
};

/* Exhaustive (E, m) coverage with group size G: for each E, ceil(256/G) groups whose elements
** run through m = -128..127 (mod 256). */
static void exhaustive_pairs(int64_t G, std::vector<int8_t> &m, std::vector<uint8_t> &s)
{
    const int64_t gpe = (256 + G - 1) / G;
    m.resize((size_t)(256 * gpe * G));
    s.resize((size_t)(256 * gpe));
    for (int64_t e = 0; e < 256; e++)
        for (int64_t q = 0; q < gpe; q++) {
            s[(size_t)(e * gpe + q)] = (uint8_t)e;
            for (int64_t k = 0; k < G; k++)
                m[(size_t)((e * gpe + q) * G + k)] = (int8_t)(uint8_t)((q * G + k) & 255);
        }
}

/* misalign: elements added to both device pointers (out_misalign >= 0: to the output's alone);
** cfg: the kernel variant (mxk_dequantize_bf16_cfg). */
static long check_dequant(int profile, const std::vector<int8_t> &m, const std::vector<uint8_t> &s,
                          int64_t G, int misalign, int cfg = 0, int out_misalign = -1)
{
    const int64_t n = (int64_t)m.size();
    const int omis = out_misalign >= 0 ? out_misalign : misalign;
    DBuf<int8_t> dm(n + 16);
    DBuf<uint8_t> ds(s.size());
    DBuf<uint16_t> dout(n + 16);
    CK(cudaMemcpy(dm.p + misalign, m.data(), n, cudaMemcpyHostToDevice));
    ds.up(s.data());
    CK(cudaMemset(dout.p, 0xA5, (n + 16) * 2)); /* poison */
    CK(mxk_dequantize_bf16_cfg(profile, dm.p + misalign, ds.p, n, G, dout.p + omis, cfg, 0));
    CK(cudaDeviceSynchronize());
    std::vector<uint16_t> out(n);
    CK(cudaMemcpy(out.data(), dout.p + omis, n * 2, cudaMemcpyDeviceToHost));
    long mism = 0;
    for (int64_t i = 0; i < n; i++) {
        uint16_t ref = mxsim_decode_bf16((mxsim_profile)profile, s[(size_t)(i / G)], m[(size_t)i]);
        if (!same_bf16(ref, out[(size_t)i])) {
            if (mism < 5)
                fprintf(stderr, "  dequant p%d G%lld i=%lld E=%u m=%d: gpu %04x ref %04x\n", profile,
                        (long long)G, (long long)i, s[(size_t)(i / G)], m[(size_t)i], out[(size_t)i], ref);
            mism++;
        }
    }
    return mism;
}

/* Adversarial and random float32 blocks for the quantizer (kind chosen per group). */
static void gen_quant_input(Rng &r, int64_t n, int64_t G, std::vector<float> &x)
{
    x.resize((size_t)n);
    for (int64_t g = 0; g < n / G; g++) {
        float *b = x.data() + g * G;
        const int kind = r.range(0, 11);
        const int e = r.range(-130, 127);
        for (int64_t k = 0; k < G; k++) {
            float v = 0.0f;
            switch (kind) {
            case 0: v = 0.0f; break;                                   /* zero block */
            case 1: v = (r.u32() & 1) ? -0.0f : 0.0f; break;           /* signed zeros */
            case 2: v = f32_from_bits((r.u32() & 0x807FFFFFu)); break; /* subnormals */
            case 3: v = f32_from_bits(r.u32()); break;                 /* any bits, NaN/Inf too */
            case 4: /* ties on the 2^(e-6) grid below 2^(e+1) */
                v = (float)std::ldexp((double)r.range(-128, 127) + 0.5, std::max(e, -120) - 6);
                break;
            case 5: /* a negative max that rounds to -128, a positive one to 128 (clamped) */
                v = (float)std::ldexp(k == 0 ? -127.5 : (k == 1 ? 127.5 : r.range(-127, 127) + 0.25),
                                      std::max(e, -120) - 6);
                break;
            case 6: v = (float)((r.uni() * 2 - 1) * 3.4e38); break; /* huge */
            case 7: v = (float)std::ldexp(r.uni() * 2 - 1, -126); break; /* around the subnormal edge */
            case 8: /* wide exponent spread */
                v = (float)std::ldexp((1 + r.uni()) * ((r.u32() & 1) ? -1 : 1), r.range(-149, 127));
                break;
            case 9: /* one NaN or Inf somewhere */
                v = (float)(r.uni() - 0.5);
                if (k == (int64_t)(r.next() % (uint64_t)G))
                    v = (r.u32() & 1) ? INFINITY : ((r.u32() & 1) ? -INFINITY : NAN);
                break;
            default: v = (float)std::ldexp(r.uni() * 2 - 1, e); break; /* plain random */
            }
            b[k] = v;
        }
    }
}

static long check_quantize(int dtype, const std::vector<float> &x, int64_t G)
{
    const int64_t n = (int64_t)x.size(), ng = n / G;
    std::vector<uint16_t> xb(dtype == MXK_DTYPE_BF16 ? n : 0);
    for (int64_t i = 0; i < (int64_t)xb.size(); i++) xb[(size_t)i] = mxsim_f32_to_bf16(x[(size_t)i]);
    const void *hin = dtype == MXK_DTYPE_F32 ? (const void *)x.data() : (const void *)xb.data();
    const size_t esz = dtype == MXK_DTYPE_F32 ? 4 : 2;
    DBuf<uint8_t> din(n * esz);
    din.up((const uint8_t *)hin);
    DBuf<int8_t> dm(n);
    DBuf<uint8_t> ds(ng);
    CK(cudaMemset(dm.p, 0x5A, n));
    CK(cudaMemset(ds.p, 0x5A, ng));
    CK(mxk_quantize_ocp(dtype, din.p, n, G, dm.p, ds.p, 0));
    CK(cudaDeviceSynchronize());
    std::vector<int8_t> m(n), mr(G);
    std::vector<uint8_t> s(ng);
    dm.down(m.data());
    ds.down(s.data());
    long mism = 0;
    for (int64_t g = 0; g < ng; g++) {
        uint8_t sr = 0;
        const uint8_t *blk = (const uint8_t *)hin + g * G * esz;
        mxsim_quantize_block(MXSIM_PROFILE_OCP, dtype == MXK_DTYPE_F32 ? MXSIM_DTYPE_F32 : MXSIM_DTYPE_BF16,
                             blk, (size_t)G, &sr, mr.data());
        long bad = sr != s[(size_t)g];
        for (int64_t k = 0; k < G; k++) bad += mr[(size_t)k] != m[(size_t)(g * G + k)];
        if (bad && mism < 5)
            fprintf(stderr, "  quantize G%lld group %lld: gpu scale %u ref %u\n", (long long)G,
                    (long long)g, s[(size_t)g], sr);
        mism += bad;
    }
    return mism;
}

enum ScaleMode { SC_NARROW, SC_WIDE, SC_EXTREME, SC_OVERFLOW, SC_NAN, SC_RARE, SC_EDGE, SC_ZEROLOW };
static const char *scale_mode_name[] = {"narrow", "wide", "extreme", "overflow", "nan", "rare", "edge", "zerolow"};

static void gen_scales(Rng &r, ScaleMode mode, size_t n, std::vector<uint8_t> &e)
{
    e.resize(n);
    for (size_t i = 0; i < n; i++) {
        int v = 127;
        switch (mode) {
        case SC_NARROW: v = r.range(120, 134); break;
        case SC_WIDE: v = r.range(0, 254); break;
        case SC_EXTREME: v = (r.u32() & 1) ? r.range(0, 12) : r.range(225, 254); break;
        case SC_OVERFLOW: v = r.range(245, 254); break;
        case SC_NAN: v = (r.u32() % 97 == 0) ? 255 : r.range(100, 254); break;
        /* narrow with a rare extreme byte: a 128-row block's group is outside the Hopper kernel's
        ** fast-path window about half the time, so fast and exact slots mix within a tile */
        case SC_RARE: v = (r.u32() % 211 == 0) ? r.range(225, 254) : r.range(120, 134); break;
        /* the edges of the bf16 kernel's window [70, 186] (cfg 11): products down to 2^-126, sums
        ** up to 2^126 */
        case SC_EDGE: {
            static const int edge[4] = {70, 71, 185, 186};
            v = (r.u32() & 1) ? edge[r.u32() & 3] : r.range(120, 134);
            break;
        }
        /* narrow, and one group in 8 with a tiny scale whose mantissas check_gemm zeroes (the
        ** shared exponent quantizers give an all-zero block): inside cfg 11's fast path */
        case SC_ZEROLOW: v = (r.u32() % 8 == 0) ? r.range(0, 12) : r.range(120, 134); break;
        }
        e[i] = (uint8_t)v;
    }
}

static void gen_mant(Rng &r, size_t n, std::vector<int8_t> &m, bool allmin)
{
    m.resize(n);
    for (size_t i = 0; i < n; i++) m[i] = allmin ? (int8_t)-128 : (int8_t)(uint8_t)r.u32();
}

struct GemmCase {
    int64_t M, N, K, G;
    ScaleMode sa, sb;
    int cfg;
    bool allmin;
};

static long check_gemm(mxsim_ctx *ctx, Rng &r, const GemmCase &c, bool simt, std::vector<float> *keep_c = nullptr,
                       std::vector<int8_t> *am_o = nullptr, std::vector<uint8_t> *ae_o = nullptr,
                       std::vector<int8_t> *bm_o = nullptr, std::vector<uint8_t> *be_o = nullptr, int *ran = nullptr)
{
    const int64_t ng = c.K / c.G;
    std::vector<int8_t> am, bm;
    std::vector<uint8_t> ae, be;
    gen_mant(r, (size_t)(c.M * c.K), am, c.allmin);
    gen_mant(r, (size_t)(c.N * c.K), bm, c.allmin);
    gen_scales(r, c.sa, (size_t)(c.M * ng), ae);
    gen_scales(r, c.sb, (size_t)(c.N * ng), be);
    auto zero_low = [&](ScaleMode md, std::vector<int8_t> &m, const std::vector<uint8_t> &e) {
        if (md != SC_ZEROLOW) return;
        for (size_t g = 0; g < e.size(); g++)
            if (e[g] < 70)
                for (int64_t k = 0; k < c.G; k++) m[g * (size_t)c.G + (size_t)k] = 0;
    };
    zero_low(c.sa, am, ae);
    zero_low(c.sb, bm, be);
    DBuf<int8_t> dam(am.size()), dbm(bm.size());
    DBuf<uint8_t> dae(ae.size()), dbe(be.size());
    DBuf<float> dc((size_t)(c.M * c.N));
    dam.up(am.data());
    dbm.up(bm.data());
    dae.up(ae.data());
    dbe.up(be.data());
    CK(cudaMemset(dc.p, 0xFF, dc.n * 4)); /* poison: NaN everywhere */
    if (simt)
        CK(mxk_gemm_simt(c.M, c.N, c.K, c.G, dam.p, dae.p, dbm.p, dbe.p, dc.p, 0));
    else
        CK(mxk_gemm_ex(c.M, c.N, c.K, c.G, dam.p, dae.p, dbm.p, dbe.p, dc.p, c.cfg, ran, 0));
    CK(cudaDeviceSynchronize());
    std::vector<float> got(dc.n), ref(dc.n);
    dc.down(got.data());
    CKM(ctx, mxsim_gemm_raw(ctx, c.M, c.N, c.K, c.G, am.data(), ae.data(), bm.data(), be.data(),
                            MXSIM_ACC_FP32, ref.data()));
    long mism = 0;
    for (size_t i = 0; i < ref.size(); i++)
        if (!same_f32(ref[i], got[i])) {
            if (mism < 5)
                fprintf(stderr, "  gemm %lldx%lldx%lld G%lld: C[%zu] gpu %a ref %a\n", (long long)c.M,
                        (long long)c.N, (long long)c.K, (long long)c.G, i, (double)got[i], (double)ref[i]);
            mism++;
        }
    if (keep_c) *keep_c = got;
    if (am_o) *am_o = am, *ae_o = ae, *bm_o = bm, *be_o = be;
    return mism;
}

/* ran: the kernel mxk_gemm_ex launched (-1 = SIMT), named in the row so that a card where a
** kernel hands its call on (mxk.h) says which one was checked */
static std::string gemm_params(const GemmCase &c, bool simt, int ran = -3)
{
    char b[220], rb[24] = "";
    if (ran >= 0) snprintf(rb, sizeof rb, " ran=%d", ran);
    else if (ran == -1) snprintf(rb, sizeof rb, " ran=simt");
    snprintf(b, sizeof b, "M=%lld N=%lld K=%lld G=%lld scales=%s/%s cfg=%d%s%s%s", (long long)c.M,
             (long long)c.N, (long long)c.K, (long long)c.G, scale_mode_name[c.sa], scale_mode_name[c.sb],
             c.cfg, c.allmin ? " mant=-128" : "", simt ? " path=simt" : "", rb);
    return b;
}

/* the GEMM cases of verify (all, or those of one cfg) */
static void verify_gemm(VerifyLog &log, mxsim_ctx *ctx, Rng &r, int only_cfg)
{
    /* GEMM: >= 10 shapes, ragged, M = 1, extreme scales, every tile config and path */
    static const GemmCase cases[] = {
        {1, 4096, 4096, 32, SC_NARROW, SC_NARROW, 0, false},
        {16, 4096, 4096, 32, SC_WIDE, SC_WIDE, 0, false},
        {128, 768, 768, 32, SC_NARROW, SC_WIDE, 0, false},
        {128, 3072, 768, 64, SC_NARROW, SC_NARROW, 0, false},
        {1024, 1024, 2048, 32, SC_NARROW, SC_NARROW, 0, false},
        {1024, 1024, 2048, 128, SC_WIDE, SC_NARROW, 5, false},
        {257, 131, 512, 64, SC_WIDE, SC_WIDE, 0, false},
        {257, 131, 512, 32, SC_EXTREME, SC_WIDE, 2, false},
        {257, 131, 512, 128, SC_WIDE, SC_EXTREME, 3, false},
        {1, 1, 32, 32, SC_WIDE, SC_WIDE, 0, false},
        {1, 77, 96, 32, SC_EXTREME, SC_EXTREME, 0, false},
        {33, 77, 384, 128, SC_OVERFLOW, SC_OVERFLOW, 0, false},
        {200, 300, 1024, 32, SC_NAN, SC_NAN, 5, false},
        {200, 300, 1024, 32, SC_NARROW, SC_NARROW, 2, true},
        {200, 300, 1024, 128, SC_EXTREME, SC_EXTREME, 3, true},
        {64, 64, 96, 32, SC_WIDE, SC_WIDE, 2, false},
        {100, 100, 512, 256, SC_WIDE, SC_WIDE, 0, true},
        {9, 40, 4096, 1024, SC_NARROW, SC_WIDE, 0, false},
        {50, 60, 160, 16, SC_WIDE, SC_EXTREME, 0, false},
        {31, 17, 96, 48, SC_EXTREME, SC_WIDE, 0, false},
        {7, 5, 12, 1, SC_WIDE, SC_WIDE, 0, false},
        /* the small-M kernel (cfg 4; cfg 0 picks it for M <= 16 where cfg 9 does not apply): ragged N and M, M > 16 (several
        ** row slices), every G branch (32/64/128 specialised, 256 and 2048 generic, > 1024 exact) */
        {1, 4096, 4096, 32, SC_EXTREME, SC_EXTREME, 4, false},
        {16, 4096, 4096, 128, SC_NAN, SC_WIDE, 4, false},
        {3, 131, 512, 64, SC_OVERFLOW, SC_OVERFLOW, 4, false},
        {13, 77, 4096, 32, SC_WIDE, SC_EXTREME, 4, true},
        {8, 33, 2048, 256, SC_EXTREME, SC_WIDE, 4, false},
        {9, 50, 1536, 32, SC_NARROW, SC_NARROW, 4, true},
        {33, 250, 1024, 32, SC_WIDE, SC_WIDE, 4, false},
        {1, 17, 65536, 2048, SC_EXTREME, SC_EXTREME, 4, true},
        {16, 1, 96, 32, SC_NARROW, SC_NARROW, 4, false},
        {1, 11008, 4096, 128, SC_NARROW, SC_NARROW, 0, false},
        {16, 11008, 4096, 64, SC_WIDE, SC_NARROW, 0, false},
        {2, 300, 4160, 64, SC_NAN, SC_NAN, 0, false},
        /* the 16-warp tile kernel (cfg 5, also the fallback of cfg 8) */
        {257, 131, 512, 64, SC_EXTREME, SC_EXTREME, 5, false},
        {1024, 1024, 2048, 32, SC_NARROW, SC_NARROW, 5, false},
        {1024, 1024, 2048, 128, SC_WIDE, SC_WIDE, 5, true},
        {129, 67, 160, 32, SC_OVERFLOW, SC_EXTREME, 5, false},
        {129, 67, 160, 32, SC_WIDE, SC_OVERFLOW, 2, false},
        /* the Hopper kernel (cfg 8): fast path
        ** (narrow scales), exact path (extreme/overflow/NaN, G > 128), K tails (K % 128 != 0, K < 128),
        ** ragged M and N, more tiles than SMs (persistent loop), all -128 mantissas (|d| = 2^21) */
        {257, 131, 512, 64, SC_EXTREME, SC_EXTREME, 8, false},
        {200, 300, 1024, 32, SC_NAN, SC_NAN, 8, false},
        {1024, 1024, 2048, 32, SC_NARROW, SC_NARROW, 8, false},
        {1024, 1024, 2048, 128, SC_WIDE, SC_WIDE, 8, true},
        {256, 256, 1024, 128, SC_NARROW, SC_NARROW, 8, true},
        {129, 67, 160, 32, SC_OVERFLOW, SC_EXTREME, 8, false},
        {1664, 1408, 512, 32, SC_NARROW, SC_NARROW, 8, false},
        {1664, 1408, 512, 128, SC_NARROW, SC_WIDE, 8, false},
        {1664, 1408, 512, 64, SC_WIDE, SC_NARROW, 8, false},
        {300, 520, 4160, 64, SC_NARROW, SC_NARROW, 8, false},
        {100, 100, 512, 256, SC_WIDE, SC_WIDE, 8, true},
        {64, 200, 2048, 1024, SC_NARROW, SC_WIDE, 8, false},
        {17, 4096, 4096, 32, SC_NARROW, SC_NARROW, 8, false},
        {1024, 1024, 2048, 64, SC_NARROW, SC_EXTREME, 8, false},
        {33, 77, 96, 32, SC_EXTREME, SC_EXTREME, 8, false},
        {33, 77, 96, 32, SC_NARROW, SC_NARROW, 8, false},
        {2048, 4096, 512, 32, SC_NARROW, SC_NARROW, 0, false},
        /* clusters of tiles: odd tile counts in M and N (a cluster's tile past the edge), more
        ** tile groups than clusters, several bands of the rasterisation */
        {1920, 2176, 640, 64, SC_NARROW, SC_WIDE, 8, false},
        {2304, 1152, 384, 128, SC_NARROW, SC_NARROW, 8, false},
        {4224, 1152, 256, 32, SC_NARROW, SC_NARROW, 8, false},
        {1152, 4224, 256, 32, SC_WIDE, SC_NARROW, 8, false},
        {8192, 640, 128, 128, SC_NARROW, SC_NARROW, 8, false},
        /* stage pairs (G = 64, 128): fast and exact slots mixed within a pair and across pairs, an
        ** odd stage count (a single stage after the pairs: K = 640, 4224), a K tail after the pairs (G = 64,
        ** K = 4160) */
        {640, 520, 640, 128, SC_RARE, SC_NARROW, 8, false},
        {512, 384, 1408, 64, SC_NARROW, SC_RARE, 8, false},
        {1024, 896, 4096, 128, SC_RARE, SC_RARE, 8, true},
        {300, 520, 4224, 128, SC_RARE, SC_NARROW, 8, false},
        {384, 640, 4160, 64, SC_RARE, SC_RARE, 8, false},
        /* G = 96 and 320 end groups across stage edges: cfg 8 hands them to cfg 5; G = 256, 512 (the
        ** generic kernel: groups over several stages) */
        {257, 300, 960, 96, SC_WIDE, SC_NARROW, 8, false},
        {300, 520, 4160, 320, SC_NARROW, SC_NARROW, 8, false},
        {640, 384, 1536, 256, SC_NARROW, SC_EXTREME, 8, false},
        {1024, 1152, 4096, 512, SC_WIDE, SC_NARROW, 8, false},
        /* the decode kernel (cfg 9; cfg 0 takes it for M <= 16 with G in {32, 64, 128, 256},
        ** K % 64 == 0, K/G <= 256): M = 1..16 (one and two slabs of 8), ragged N (not a multiple
        ** of 16, N = 1), every G, several rounds (K > 4096 at M <= 8, K > 2048 at M > 8, a partial
        ** last round at K = 4160), wide scales (EA in [235, 254]: the swapped factor order), extreme
        ** (underflow, overflow), NaN scales, all -128 mantissas, and the cases that fall back to
        ** cfg 4 (K % 64 != 0, K/G > 256, G = 512) */
        {1, 4096, 4096, 32, SC_NARROW, SC_NARROW, 9, false},
        {1, 4096, 4096, 32, SC_EXTREME, SC_EXTREME, 9, false},
        {1, 11008, 4096, 128, SC_WIDE, SC_WIDE, 9, false},
        {16, 4096, 4096, 128, SC_NAN, SC_WIDE, 9, false},
        {16, 4096, 4096, 32, SC_WIDE, SC_EXTREME, 9, false},
        {16, 11008, 4096, 64, SC_EXTREME, SC_OVERFLOW, 9, false},
        {2, 300, 4160, 64, SC_NAN, SC_NAN, 9, false},
        {3, 131, 512, 64, SC_OVERFLOW, SC_OVERFLOW, 9, false},
        {13, 77, 4096, 32, SC_WIDE, SC_EXTREME, 9, true},
        {8, 33, 2048, 256, SC_EXTREME, SC_WIDE, 9, false},
        {9, 50, 1536, 32, SC_NARROW, SC_NARROW, 9, true},
        {16, 1, 128, 32, SC_NARROW, SC_NARROW, 9, false},
        {5, 1000, 8192, 32, SC_WIDE, SC_WIDE, 9, false},
        {12, 200, 8192, 64, SC_EXTREME, SC_NARROW, 9, false},
        {16, 300, 16384, 64, SC_WIDE, SC_EXTREME, 9, false},
        {11, 250, 2048, 128, SC_WIDE, SC_EXTREME, 9, true},
        {7, 4096, 4096, 256, SC_NARROW, SC_WIDE, 9, false},
        {4, 129, 1024, 32, SC_NAN, SC_EXTREME, 9, true},
        {1, 77, 96, 32, SC_WIDE, SC_WIDE, 9, false},
        {1, 64, 16384, 32, SC_EXTREME, SC_WIDE, 9, false},
        {6, 70, 4096, 512, SC_WIDE, SC_WIDE, 9, false},
        /* the streaming decode kernel (cfg 9 since decode2): several 16-row tiles per block (N = 11008),
        ** M = 8 (3 ring stages), K/G = 1 and 3 (byte-wise scale loads, one partial stage), a grid
        ** above the SM count (K/G = 256 at N = 11008: the B scale bytes bound the rows per block),
        ** G = 256 at M = 1, fewer rows than a tile; and the first decode kernel (cfg 10) */
        {1, 11008, 4096, 32, SC_NARROW, SC_WIDE, 9, false},
        {16, 11008, 4096, 128, SC_WIDE, SC_WIDE, 9, false},
        {8, 4096, 4096, 32, SC_WIDE, SC_EXTREME, 9, false},
        {1, 50, 64, 64, SC_EXTREME, SC_NARROW, 9, false},
        {3, 700, 192, 64, SC_WIDE, SC_NAN, 9, false},
        {1, 11008, 8192, 32, SC_NARROW, SC_NARROW, 9, false},
        {1, 4096, 4096, 256, SC_WIDE, SC_EXTREME, 9, true},
        {10, 13, 2048, 128, SC_EXTREME, SC_OVERFLOW, 9, false},
        {1, 4096, 4096, 32, SC_EXTREME, SC_EXTREME, 10, false},
        {16, 4096, 4096, 128, SC_NAN, SC_WIDE, 10, false},
        {13, 77, 4096, 32, SC_WIDE, SC_EXTREME, 10, true},
        /* the M = 1 row kernel (cfg 12): every G (G = 256: two lanes share a group's sum), one chunk
        ** (K = 4096) and several (K = 8192, 4608: a partial last chunk of one load per lane, 16384),
        ** ragged N (not a multiple of the 8 rows of a block; N = 1), wide scales (EA in [235, 254]:
        ** the swapped factor order), extreme (underflow, overflow), NaN, all -128 mantissas (|d| =
        ** G 2^14), and where it does not apply (M > 1, K % 512 != 0, K > 32768: cfg 9 or 4) */
        {1, 4096, 4096, 32, SC_NARROW, SC_NARROW, 12, false},
        {1, 4096, 4096, 128, SC_WIDE, SC_EXTREME, 12, false},
        {1, 11008, 4096, 32, SC_EXTREME, SC_WIDE, 12, false},
        {1, 11008, 4096, 128, SC_NARROW, SC_WIDE, 12, true},
        {1, 4096, 4096, 64, SC_NAN, SC_EXTREME, 12, false},
        {1, 1000, 4096, 256, SC_WIDE, SC_WIDE, 12, true},
        {1, 77, 8192, 32, SC_EXTREME, SC_EXTREME, 12, true},
        {1, 300, 4608, 64, SC_WIDE, SC_NAN, 12, false},
        {1, 1, 4608, 256, SC_EXTREME, SC_WIDE, 12, false},
        {1, 13, 512, 32, SC_OVERFLOW, SC_OVERFLOW, 12, false},
        {1, 4099, 16384, 128, SC_WIDE, SC_EXTREME, 12, false},
        {1, 129, 512, 256, SC_NAN, SC_WIDE, 12, false},
        {1, 50, 4160, 64, SC_EXTREME, SC_NARROW, 12, false},
        {1, 20, 65536, 32, SC_WIDE, SC_WIDE, 12, false},
        {4, 300, 4096, 128, SC_WIDE, SC_EXTREME, 12, false},
        /* the bf16 Hopper kernel (cfg 11, G = 32 and 64): fast path (narrow, the window's edges,
        ** all -128 mantissas: |d| = 2^19 / 2^20, zero blocks with tiny scales), the whole call on
        ** the exact path (extreme, NaN, rare, wide scales), ragged M and N, more tiles than SMs, an
        ** odd stage count (K = 4160: a trailing single stage), and where it does not apply (K % 64,
        ** G = 128: cfg 8) */
        {1024, 1024, 2048, 32, SC_NARROW, SC_NARROW, 11, false},
        {1024, 1024, 2048, 64, SC_NARROW, SC_NARROW, 11, false},
        {1024, 1024, 2048, 32, SC_NARROW, SC_NARROW, 11, true},
        {1024, 1024, 2048, 64, SC_EDGE, SC_EDGE, 11, true},
        {1664, 1408, 512, 32, SC_EDGE, SC_NARROW, 11, false},
        {1664, 1408, 512, 64, SC_ZEROLOW, SC_ZEROLOW, 11, false},
        {2048, 4096, 512, 32, SC_ZEROLOW, SC_EDGE, 11, false},
        {300, 520, 4160, 64, SC_NARROW, SC_NARROW, 11, false},
        {300, 520, 4160, 32, SC_EDGE, SC_EDGE, 11, false},
        {17, 4096, 4096, 32, SC_NARROW, SC_NARROW, 11, false},
        {257, 131, 512, 64, SC_EXTREME, SC_EXTREME, 11, false},
        {200, 300, 1024, 32, SC_NAN, SC_NAN, 11, false},
        {640, 520, 640, 64, SC_RARE, SC_NARROW, 11, false},
        {129, 67, 192, 32, SC_WIDE, SC_NARROW, 11, false},
        {33, 77, 96, 32, SC_NARROW, SC_NARROW, 11, false},
        {256, 256, 1024, 128, SC_NARROW, SC_NARROW, 11, true},
    };
    for (const GemmCase &c : cases)
        if (only_cfg < 0 || c.cfg == only_cfg) {
            int ran = -3;
            const long mism = check_gemm(ctx, r, c, false, nullptr, nullptr, nullptr, nullptr, nullptr, &ran);
            log.row("gemm", gemm_params(c, false, ran), (long)(c.M * c.N), mism);
        }
    if (only_cfg >= 0) return;
    const GemmCase simt_cases[] = {{257, 131, 512, 64, SC_EXTREME, SC_EXTREME, 0, false},
                                   {33, 77, 384, 128, SC_NAN, SC_OVERFLOW, 0, true}};
    for (const GemmCase &c : simt_cases) log.row("gemm", gemm_params(c, true), (long)(c.M * c.N), check_gemm(ctx, r, c, true));
}

static int cmd_verify(const char *outdir)
{
    std::string path = std::string(outdir) + "/verify.csv";
    VerifyLog log;
    log.f = fopen(path.c_str(), "w");
    if (!log.f) {
        perror(path.c_str());
        return 1;
    }
    fprintf(log.f, "card,check,params,n,mismatches\n");
    mxsim_ctx *ctx = new_ctx();
    Rng r(20261126);
    /* MXK_VERIFY_CFG=8: only the GEMM cases of that cfg (a quick check of one kernel's variants) */
    if (getenv("MXK_VERIFY_CFG")) {
        verify_gemm(log, ctx, r, atoi(getenv("MXK_VERIFY_CFG")));
        fclose(log.f);
        mxsim_ctx_destroy(ctx);
        printf("verify (cfg %s only): %ld checks, %ld mismatches in total -> %s\n", getenv("MXK_VERIFY_CFG"), log.n_checks,
               log.total_mismatch, path.c_str());
        return log.total_mismatch ? 1 : 0;
    }

    /* dequant: all 65,536 (E, m) pairs per profile and group size */
    const int profiles[2] = {MXK_PROFILE_OCP, MXK_PROFILE_MASE_CUDA};
    const int64_t gs[] = {1, 2, 3, 8, 16, 32, 64, 128, 512};
    for (int p : profiles)
        for (int64_t G : gs) {
            std::vector<int8_t> m;
            std::vector<uint8_t> s;
            exhaustive_pairs(G, m, s);
            char b[120];
            snprintf(b, sizeof b, "profile=%s G=%lld exhaustive", mxsim_profile_name((mxsim_profile)p), (long long)G);
            log.row("dequant", b, (long)m.size(), check_dequant(p, m, s, G, 0));
            if (G == 32 || G == 3) {
                snprintf(b, sizeof b, "profile=%s G=%lld exhaustive misaligned+1", mxsim_profile_name((mxsim_profile)p), (long long)G);
                log.row("dequant", b, (long)m.size(), check_dequant(p, m, s, G, 1));
            }
        }
    /* dequant: large random with a tail (n mod 16 != 0) */
    for (int p : profiles) {
        const int64_t G = 8, n = (int64_t)(1 << 24) + 40;
        std::vector<int8_t> m((size_t)n);
        std::vector<uint8_t> s((size_t)(n / G));
        for (auto &v : m) v = (int8_t)(uint8_t)r.u32();
        for (auto &v : s) v = (uint8_t)r.u32();
        char b[120];
        snprintf(b, sizeof b, "profile=%s G=%lld random n=%lld", mxsim_profile_name((mxsim_profile)p), (long long)G, (long long)n);
        log.row("dequant", b, (long)n, check_dequant(p, m, s, G, 0));
    }

    /* dequant: the fast path's edges (G = 24 and 48 not powers of two, tails), heads of 8 (fast
    ** path) and of 1 (general path), pointers no head can align (scalar kernel) */
    for (int p : profiles) {
        const char *pn = mxsim_profile_name((mxsim_profile)p);
        struct {
            int64_t G;
            int mis, omis;
        } ex[] = {{24, 0, -1}, {48, 0, -1}, {32, 8, -1}, {16, 1, -1}, {8, 3, 0}};
        for (auto &c : ex) {
            std::vector<int8_t> m;
            std::vector<uint8_t> s;
            exhaustive_pairs(c.G, m, s);
            char b[120];
            if (c.omis < 0)
                snprintf(b, sizeof b, "profile=%s G=%lld exhaustive%s", pn, (long long)c.G,
                         c.mis ? (c.mis == 8 ? " misaligned+8" : " misaligned+1") : "");
            else
                snprintf(b, sizeof b, "profile=%s G=%lld exhaustive mantissa+%d out+%d", pn, (long long)c.G, c.mis, c.omis);
            log.row("dequant", b, (long)m.size(), check_dequant(p, m, s, c.G, c.mis, 0, c.omis));
        }
    }
    /* dequant: every kernel variant (cfg 1..MAX; since issue 16 item 7 only cfg 1, the general path
    ** forced on aligned data): exhaustive at G = 16 and 48 and with a head of 8; random data with a tail */
    for (int cfg = 1; cfg <= MXK_DEQUANT_CFG_MAX; cfg++)
        for (int p : profiles) {
            const char *pn = mxsim_profile_name((mxsim_profile)p);
            for (int64_t G : {16, 48}) {
                std::vector<int8_t> m;
                std::vector<uint8_t> s;
                exhaustive_pairs(G, m, s);
                char b[120];
                snprintf(b, sizeof b, "profile=%s G=%lld exhaustive cfg=%d", pn, (long long)G, cfg);
                log.row("dequant", b, (long)m.size(), check_dequant(p, m, s, G, 0, cfg));
                if (G == 16) {
                    snprintf(b, sizeof b, "profile=%s G=%lld exhaustive misaligned+8 cfg=%d", pn, (long long)G, cfg);
                    log.row("dequant", b, (long)m.size(), check_dequant(p, m, s, G, 8, cfg));
                }
            }
            const bool persist = cfg == 1; /* the general path: a grid-stride loop over the resident blocks */
            const int64_t G = 32, n = (persist ? (1ll << 26) : (1ll << 21)) + 96;
            std::vector<int8_t> m((size_t)n);
            std::vector<uint8_t> s((size_t)(n / G));
            for (auto &v : m) v = (int8_t)(uint8_t)r.u32();
            for (auto &v : s) v = (uint8_t)r.u32();
            char b[120];
            snprintf(b, sizeof b, "profile=%s G=%lld random n=%lld cfg=%d", pn, (long long)G, (long long)n, cfg);
            log.row("dequant", b, (long)n, check_dequant(p, m, s, G, 0, cfg));
        }
    if (getenv("MXK_VERIFY_DEQUANT_ONLY")) {
        fclose(log.f);
        mxsim_ctx_destroy(ctx);
        printf("verify (dequant only): %ld checks, %ld mismatches in total -> %s\n", log.n_checks, log.total_mismatch, path.c_str());
        return log.total_mismatch ? 1 : 0;
    }

    /* quantize: random + adversarial, f32 and bf16 inputs */
    const int64_t qg[] = {1, 7, 32, 64, 128, 1024};
    for (int dt = 0; dt < 2; dt++)
        for (int64_t G : qg) {
            std::vector<float> x;
            const int64_t n = G * std::max<int64_t>(1, (1 << 20) / G);
            gen_quant_input(r, n, G, x);
            char b[120];
            snprintf(b, sizeof b, "profile=ocp in=%s G=%lld random+adversarial", dt ? "bf16" : "f32", (long long)G);
            log.row("quantize", b, (long)n, check_quantize(dt, x, G));
        }

    verify_gemm(log, ctx, r, -1);


    fclose(log.f);
    mxsim_ctx_destroy(ctx);
    printf("verify: %ld checks, %ld mismatches in total -> %s\n", log.n_checks, log.total_mismatch, path.c_str());
    return log.total_mismatch ? 1 : 0;
}

/* ---- bench --------------------------------------------------------------------------------- */

static size_t g_l2 = 50u << 20;

template <class F> static double median_us(F &&fn, int nsets, int warm = 5, int reps = 30)
{
    for (int i = 0; i < warm; i++) fn(i % nsets);
    CK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> ev(2 * reps);
    for (auto &e : ev) CK(cudaEventCreate(&e));
    for (int i = 0; i < reps; i++) {
        CK(cudaEventRecord(ev[2 * i]));
        fn((warm + i) % nsets);
        CK(cudaEventRecord(ev[2 * i + 1]));
    }
    CK(cudaDeviceSynchronize());
    CK(cudaGetLastError());
    std::vector<float> t(reps);
    for (int i = 0; i < reps; i++) CK(cudaEventElapsedTime(&t[i], ev[2 * i], ev[2 * i + 1]));
    for (auto &e : ev) cudaEventDestroy(e);
    std::sort(t.begin(), t.end());
    return (reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2])) * 1000.0;
}

/* ---- measured board power: NVML, opened at run time (no header or link dependency; skipped
** when libnvidia-ml is absent).  During a sustained loop of >= 600 ms of the timed operation (after
** 100 ms of the same calls), a thread samples the board's INSTANTANEOUS power every 5 ms (NVML field
** NVML_FI_DEV_POWER_INSTANT, 186, through nvmlDeviceGetFieldValues); the row's power is their mean
** and its joules per call that power x the loop's own time per call.  Not used, measured as wrong
** for loops this short (final6 runs, reports/gpu/*-2026-11-27-final6/README.md):
** nvmlDeviceGetPowerUsage, a trailing one-second average on these boards, so that each sample mixed
** in the previous row's loop and the host's work; and the total-energy counter, whose steps are too
** coarse for 0.6 s (it gave 0.6-2.1x the sampled power; 980 W for cuBLAS bf16 on a 700 W board).
** Where the field is not supported, the average reading is used after 1.1 s of warm-up calls. */
struct NvmlField { /* nvmlFieldValue_t (nvml.h) */
    unsigned field_id, scope_id;
    long long timestamp, latency_us;
    int value_type, ret;
    union {
        double d;
        unsigned ui;
        unsigned long long ull;
        long long sll;
        int si;
    } value;
};
static_assert(sizeof(NvmlField) == 40, "the layout of nvmlFieldValue_t");
struct Nvml {
    bool ok = false, instant = false;
    void *dev = nullptr;
    int (*power)(void *, unsigned *) = nullptr;
    int (*fields)(void *, int, NvmlField *) = nullptr;
};
static Nvml g_nvml;
/* a 0/1 switch of k_env_knobs (checked by env_knobs_ok before any command runs): set to 1 or not */
static bool env_on(const char *name)
{
    const char *v = getenv(name);
    return v && atoi(v) == 1; /* as env_knobs_ok read it ("01", "+1" are 1 too) */
}
static bool g_no_power = false; /* MXK_BENCH_DECODE=1: decode rows only, no power loops */
/* the board's power now, in W (instantaneous where the field works, else the trailing average); 0 if none */
static double nvml_watts()
{
    if (g_nvml.instant) {
        NvmlField f{};
        f.field_id = 186; /* NVML_FI_DEV_POWER_INSTANT, mW */
        if (g_nvml.fields(g_nvml.dev, 1, &f) == 0 && f.ret == 0) return f.value.ui * 1e-3;
        return 0;
    }
    unsigned mw = 0;
    return g_nvml.power(g_nvml.dev, &mw) == 0 ? mw * 1e-3 : 0;
}
static void nvml_open()
{
    void *h = dlopen("libnvidia-ml.so.1", RTLD_NOW);
    if (!h) return;
    auto init = (int (*)())dlsym(h, "nvmlInit_v2");
    /* by PCI bus id: NVML numbers every GPU of the host, CUDA only those CUDA_VISIBLE_DEVICES names
    ** (CUDA device 0 may be NVML's GPU 3: its index would read another board's power) */
    auto bybus = (int (*)(const char *, void **))dlsym(h, "nvmlDeviceGetHandleByPciBusId_v2");
    g_nvml.power = (int (*)(void *, unsigned *))dlsym(h, "nvmlDeviceGetPowerUsage");
    g_nvml.fields = (int (*)(void *, int, NvmlField *))dlsym(h, "nvmlDeviceGetFieldValues");
    int dev = 0;
    char bus[32] = "";
    const bool have_bus = cudaGetDevice(&dev) == cudaSuccess && cudaDeviceGetPCIBusId(bus, (int)sizeof bus, dev) == cudaSuccess;
    g_nvml.ok = init && bybus && g_nvml.power && have_bus && init() == 0 && bybus(bus, &g_nvml.dev) == 0;
    if (g_nvml.ok && g_nvml.fields) { /* the instantaneous field where it answers with a board-like value */
        g_nvml.instant = true;
        const double w = nvml_watts();
        g_nvml.instant = w > 1.0 && w < 5000.0;
    }
}
struct PowerResult {
    double watts = 0, joules_per_call = 0, us_per_call = 0;
    int calls = 0;
};
template <class F> static PowerResult measure_power(F &&fn, int nsets, double us_hint)
{
    if (g_no_power) return PowerResult();
    PowerResult r;
    if (!g_nvml.ok || us_hint <= 0) return r;
    /* warm-up: the board reaches its steady power (and, without the instantaneous field, the
    ** trailing average forgets what ran before) */
    const double warm_us = g_nvml.instant ? 100000.0 : 1100000.0;
    for (int i = 0, warm = std::max(5, (int)(warm_us / us_hint)); i < warm; i++) fn(i % nsets);
    const int calls = std::max(20, (int)(600000.0 / us_hint));
    std::atomic<bool> stop(false);
    std::vector<double> samples;
    CK(cudaDeviceSynchronize());
    std::thread th([&] {
        while (!stop.load()) {
            const double w = nvml_watts();
            if (w > 0) samples.push_back(w);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    });
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    for (int i = 0; i < calls; i++) fn(i % nsets);
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    stop = true;
    th.join();
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    /* the first samples may fall before the loop's first call runs: keep the later 80% */
    double sum = 0;
    int n = 0;
    for (size_t i = samples.size() / 5; i < samples.size(); i++) sum += samples[i], n++;
    r.watts = n ? sum / n : 0;
    r.calls = calls;
    r.us_per_call = ms * 1000.0 / calls;
    r.joules_per_call = r.watts * r.us_per_call * 1e-6;
    return r;
}

/* ---- roofline: the bound of each row.  Datasheet dense peaks of the GH100 (SXM): INT8 1979 TOPS,
** BF16 989.5 TFLOPS at 132 SMs (implied clock 1.83 GHz: 4096 int8 MACs / clk / SM), scaled by the
** SM count; the CUDA cores issue 4 warp-instructions (128 lanes) / clk / SM at the same clock; DRAM
** at the device-to-device copy bandwidth measured in the same run (bytes read + written). */
static double g_copy_gbs = 0;
static int g_sms = 132;
struct Roof {
    double tensor_us, epi_us, dram_us, bound_us;
    const char *bound;
};
/* kind: 0 mxk (instr = FP32-pipe instructions per output per group, from the SASS), 1 cuBLAS bf16,
** 2 cuBLASLt int8 (int32 out), 3 mxk on the bf16 path (cfg 11: bf16 tensor peak; its bytes are the
** pre-pass's reads and bf16 writes, then the GEMM's bf16 reads) */
static Roof roofline(int kind, int64_t M, int64_t N, int64_t K, int64_t G, double instr)
{
    Roof r;
    const double f = 1.83e9, sm = g_sms / 132.0;
    const double macs = (double)M * N * K;
    r.tensor_us = 2 * macs / ((kind == 1 || kind == 3 ? 989.5e12 : 1979e12) * sm) * 1e6;
    r.epi_us = kind == 0 || kind == 3 ? (double)M * N * (K / G) * instr / (128.0 * g_sms * f) * 1e6 : 0;
    double bytes = kind == 3 ? (double)(M * K + N * K) * (1.0 + 1.0 / G + 4.0) + 4.0 * M * N
                 : kind == 0 ? (double)(M * K + N * K) * (1.0 + 1.0 / G) + 4.0 * M * N
                 : kind == 1 ? 2.0 * (M * K + N * K) + 2.0 * M * N
                             : (double)(M * K + N * K) + 4.0 * M * N;
    r.dram_us = g_copy_gbs > 0 ? bytes / (g_copy_gbs * 1e3) : 0;
    r.bound_us = std::max(r.tensor_us, std::max(r.epi_us, r.dram_us));
    r.bound = r.bound_us == r.dram_us ? "dram" : r.bound_us == r.epi_us ? "epilogue-issue" : "tensor";
    return r;
}
/* the kernel that an mxk_gemm call with cfg launches for this shape on this device (mxk_gemm_ex
** on the bench's own operands), and the method-name suffix "-ranN" ("-ransimt") where it is not
** the one asked for (cfg 0: the one mxk_gemm_cfg0 picks): a card without what a kernel needs runs
** its fallback (mxk.h), and the row must say so */
static int ran_cfg(int cfg, int64_t M, int64_t N, int64_t K, int64_t G, const int8_t *am, const uint8_t *ae,
                   const int8_t *bm, const uint8_t *be, float *c)
{
    int ran = -2;
    CK(mxk_gemm_ex(M, N, K, G, am, ae, bm, be, c, cfg, &ran, 0));
    CK(cudaDeviceSynchronize());
    return ran;
}
static std::string ran_suffix(int asked, int ran)
{
    if (ran == asked) return "";
    return ran == -1 ? "-ransimt" : "-ran" + std::to_string(ran);
}
/* the kernel cfg 0 picks first: the library's own rule (mxk_gemm_cfg0) */
static int routed_cfg(int cfg, int64_t M, int64_t N, int64_t G) { return cfg == 0 ? mxk_gemm_cfg0(M, N, G) : cfg; }
/* SASS-counted issue slots per output per group of the promotion (common case) */
static double epi_instr(int cfg, int64_t M, int64_t N, int64_t G)
{
    cfg = routed_cfg(cfg, M, N, G);
    /* decode kernel (cfg 9): I2F + 2 FMUL per term and the FADD of the ordered sum (memory-bound) */
    /* Hopper kernel (cfg 8): 64 IADD + 128 FFMA + 10 LDS + flag test per 64 outputs (SASS) */
    /* its bf16-path twin (cfg 11): 64 FADD per 64 outputs */
    return cfg == 11 ? 1.0 : cfg == 8 ? 3.2 : 3.0;
}
static int roof_kind(int cfg, int64_t M, int64_t N, int64_t G) { return routed_cfg(cfg, M, N, G) == 11 ? 3 : 0; }
static FILE *g_ext = nullptr;
static void write_ext(const std::string &shape, const std::string &method, int64_t M, int64_t N, int64_t K, int64_t G,
                      double us, double ratio, const Roof &rf, const PowerResult &pw)
{
    if (!g_ext) return;
    const double ops = 2.0 * M * N * K;
    fprintf(g_ext, "%s,%s,%lld,%lld,%lld,%lld,%s,%.3f,%.3f,%s,%.3f,%.3f,%.3f,%.3f,%.3f,%.1f,%.4g,%.3f,%d\n",
            g_card.c_str(), shape.c_str(), (long long)M, (long long)N, (long long)K, (long long)G, method.c_str(), us,
            ratio, rf.bound, rf.bound_us, rf.tensor_us, rf.epi_us, rf.dram_us, rf.bound_us / us, pw.watts,
            pw.joules_per_call, pw.joules_per_call > 0 ? ops / pw.joules_per_call * 1e-12 : 0.0, pw.calls);
    fflush(g_ext);
    printf("   roof %-14s %8.2f us (%.0f%% of it)  %6.1f W  %.3g J/op  %.2f TOPS/W\n", rf.bound, rf.bound_us,
           100.0 * rf.bound_us / us, pw.watts, pw.joules_per_call,
           pw.joules_per_call > 0 ? ops / pw.joules_per_call * 1e-12 : 0.0);
}

__global__ void fill_mant(int8_t *p, size_t n, uint64_t seed)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ull ^ seed;
        z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
        z ^= z >> 29;
        int8_t v = (int8_t)(z & 0xFF);
        p[i] = v == 0 ? (int8_t)1 : v; /* never zero */
    }
}
__global__ void fill_scale(uint8_t *p, size_t n, uint64_t seed)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + 7) * 0xD6E8FEB86659FD93ull ^ seed;
        z ^= z >> 32;
        p[i] = (uint8_t)(120 + z % 15);
    }
}
__global__ void fill_bf16(uint16_t *p, size_t n, uint64_t seed)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x) {
        uint64_t z = (i + 3) * 0x9E3779B97F4A7C15ull ^ seed;
        z = (z ^ (z >> 31)) * 0xBF58476D1CE4E5B9ull;
        /* +-[1, 2) * 2^[-4, 3]: bf16 with exponent 123..130, never zero */
        p[i] = (uint16_t)(((z >> 63) << 15) | ((123 + ((z >> 8) & 7)) << 7) | (z & 0x7F));
    }
}
static uint64_t g_seed = 0x1234567ull;
static void rnd_mant(int8_t *p, size_t n) { fill_mant<<<1024, 256>>>(p, n, g_seed++ * 0x51ED27ull); }
static void rnd_scale(uint8_t *p, size_t n) { fill_scale<<<256, 256>>>(p, n, g_seed++ * 0x3C6EF372ull); }
static void rnd_bf16(uint16_t *p, size_t n) { fill_bf16<<<1024, 256>>>(p, n, g_seed++ * 0x9E37ull); }

struct BenchRow {
    std::string shape, method;
    int64_t M, N, K, G;
    double us, rate, ratio;
    const char *unit;
};

static void write_bench(FILE *f, const BenchRow &b)
{
    fprintf(f, "%s,%s,%lld,%lld,%lld,%lld,%s,%.3f,%.2f,%s,%.3f\n", g_card.c_str(), b.shape.c_str(),
            (long long)b.M, (long long)b.N, (long long)b.K, (long long)b.G, b.method.c_str(), b.us,
            b.rate, b.unit, b.ratio);
    fflush(f);
    printf("%-14s %-26s G=%-4lld %10.2f us %9.2f %-6s x%.3f\n", b.shape.c_str(), b.method.c_str(),
           (long long)b.G, b.us, b.rate, b.unit, b.ratio);
}

static int sets_for(size_t bytes_per_set)
{
    size_t want = 3 * g_l2;
    int n = (int)((want + bytes_per_set - 1) / bytes_per_set);
    return std::max(2, std::min(n, 512));
}

/* Rotating operand sets (cold L2: together they span 3x the L2) of one GEMM shape: bf16 for cuBLAS,
** MXINT8 mantissas + scale bytes for mxk. */
struct Bf16Sets {
    std::vector<DBuf<uint16_t>> A, B;
    int ns;
    Bf16Sets(int64_t M, int64_t N, int64_t K) : ns(sets_for((size_t)(M * K + N * K) * 2))
    {
        for (int i = 0; i < ns; i++) {
            A.emplace_back(M * K);
            B.emplace_back(N * K);
            rnd_bf16(A.back().p, M * K);
            rnd_bf16(B.back().p, N * K);
        }
    }
};
struct MxSets {
    std::vector<DBuf<int8_t>> Am, Bm;
    std::vector<DBuf<uint8_t>> Ae, Be;
    int ns;
    MxSets(int64_t M, int64_t N, int64_t K, int64_t G)
        : ns(sets_for((size_t)(M * K + N * K) + (size_t)(M * K + N * K) / G))
    {
        for (int i = 0; i < ns; i++) {
            Am.emplace_back(M * K);
            Bm.emplace_back(N * K);
            Ae.emplace_back(M * K / G);
            Be.emplace_back(N * K / G);
            rnd_mant(Am.back().p, M * K);
            rnd_mant(Bm.back().p, N * K);
            rnd_scale(Ae.back().p, M * K / G);
            rnd_scale(Be.back().p, N * K / G);
        }
    }
};
/* cuBLAS bf16 on set i: C[M,N] row-major = col-major C'[N,M] = B[N,K] . A^T (TN) */
static void cublas_bf16(cublasHandle_t cb, const Bf16Sets &S, int i, int64_t M, int64_t N, int64_t K, uint16_t *C)
{
    const float one = 1.0f, zero = 0.0f;
    CKB(cublasGemmEx(cb, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K, &one, S.B[i].p, CUDA_R_16BF, (int)K,
                     S.A[i].p, CUDA_R_16BF, (int)K, &zero, C, CUDA_R_16BF, (int)N, CUBLAS_COMPUTE_32F,
                     CUBLAS_GEMM_DEFAULT));
}

/* Traffic ceilings for the dequant bench, in the runner so that they stay out of the library:
** a 16-byte copy kernel (the same bytes as cudaMemcpy), and a kernel that reads n bytes and writes
** 2n (each byte zero-extended to 16 bits, the dequant's store pattern without its arithmetic). */
__global__ void __launch_bounds__(256) ceil_copy16(const uint4 *__restrict__ in, uint4 *__restrict__ out, int64_t nv)
{
    const int64_t i0 = (int64_t)blockIdx.x * 512 + threadIdx.x;
    uint4 a = make_uint4(0, 0, 0, 0), b = a;
    if (i0 < nv) a = __ldcs(in + i0);
    if (i0 + 256 < nv) b = __ldcs(in + i0 + 256);
    if (i0 < nv) __stcs(out + i0, a);
    if (i0 + 256 < nv) __stcs(out + i0 + 256, b);
}
__global__ void __launch_bounds__(256) ceil_expand(const uint2 *__restrict__ in, uint4 *__restrict__ out, int64_t nchunks)
{
    const int lane = threadIdx.x & 31;
    const int64_t c0 = (((int64_t)blockIdx.x * 256 + threadIdx.x) >> 5) * 2;
    uint2 r[2][2];
#pragma unroll
    for (int u = 0; u < 2; u++)
        if (c0 + u < nchunks) {
            r[u][0] = __ldcs(in + (c0 + u) * 64 + lane);
            r[u][1] = __ldcs(in + (c0 + u) * 64 + 32 + lane);
        }
#pragma unroll
    for (int u = 0; u < 2; u++)
        if (c0 + u < nchunks)
#pragma unroll
            for (int k = 0; k < 2; k++) {
                const uint2 v = r[u][k];
                __stcs(out + (c0 + u) * 64 + 32 * k + lane,
                       make_uint4(__byte_perm(v.x, 0, 0x5150), __byte_perm(v.x, 0, 0x5352),
                                  __byte_perm(v.y, 0, 0x5150), __byte_perm(v.y, 0, 0x5352)));
            }
}

/* dequant bandwidth against a device-to-device copy of the same run; with variants: every cfg of
** mxk_dequantize_bf16_cfg and the traffic ceilings, and the copy again at the end. */
static void bench_dequant(FILE *f, bool variants)
{
    const int64_t n = 8192ll * 28672; /* the mase lab's size */
    const int nsets = 2;              /* a set is 3n + n/16 bytes, ~720 MB: far above the L2 */
    std::vector<DBuf<int8_t>> m;
    std::vector<DBuf<uint16_t>> o;
    std::vector<DBuf<uint8_t>> s;
    for (int i = 0; i < nsets; i++) {
        m.emplace_back(n);
        o.emplace_back(n);
        s.emplace_back(n / 16);
        rnd_mant(m.back().p, n);
        rnd_scale(s.back().p, n / 16);
        rnd_bf16(o.back().p, n);
    }
    /* bytes read + bytes written, for the copy as for the kernels */
    double copy_us = median_us([&](int i) { CK(cudaMemcpyAsync(o[i].p, o[(i + 1) % nsets].p, n * 2, cudaMemcpyDeviceToDevice)); }, nsets);
    double copy_gbs = 2.0 * n * 2 / copy_us * 1e-3;
    g_copy_gbs = copy_gbs;
    write_bench(f, {"dequant", "d2d-copy", n, 1, 1, 0, copy_us, copy_gbs, 1.0, "GB/s"});
    const int cfg_hi = variants ? MXK_DEQUANT_CFG_MAX : 0; /* cfg 0 = mxk_dequantize_bf16's default */
    for (int cfg = 0; cfg <= cfg_hi; cfg++)
        for (int p : {MXK_PROFILE_OCP, MXK_PROFILE_MASE_CUDA})
            for (int64_t G : {16, 32, 128}) {
                if (variants && cfg > 1 && G == 32) continue; /* G = 16 and 128 bracket it */
                double us = median_us([&](int i) { CK(mxk_dequantize_bf16_cfg(p, m[i].p, s[i].p, n, G, o[i].p, cfg, 0)); }, nsets);
                double gbs = (double)(n + n / G + 2 * n) / us * 1e-3;
                std::string meth = std::string("mxk-dequant-") + mxsim_profile_name((mxsim_profile)p);
                if (cfg > 0) meth += "-cfg" + std::to_string(cfg);
                write_bench(f, {"dequant", meth, n, 1, 1, G, us, gbs, gbs / copy_gbs, "GB/s"});
            }
    if (variants) {
        const int64_t nv = n * 2 / 16;
        double us = median_us([&](int i) { ceil_copy16<<<(unsigned)((nv + 511) / 512), 256>>>((const uint4 *)o[(i + 1) % nsets].p, (uint4 *)o[i].p, nv); }, nsets);
        write_bench(f, {"dequant", "ceiling-copy-kernel-r1w1", n, 1, 1, 0, us, 2.0 * n * 2 / us * 1e-3, 2.0 * n * 2 / us * 1e-3 / copy_gbs, "GB/s"});
        const int64_t nch = n / 512;
        us = median_us([&](int i) { ceil_expand<<<(unsigned)((nch + 15) / 16), 256>>>((const uint2 *)m[i].p, (uint4 *)o[i].p, nch); }, nsets);
        write_bench(f, {"dequant", "ceiling-expand-r1w2", n, 1, 1, 0, us, 3.0 * n / us * 1e-3, 3.0 * n / us * 1e-3 / copy_gbs, "GB/s"});
        CK(cudaGetLastError());
        double copy2 = median_us([&](int i) { CK(cudaMemcpyAsync(o[i].p, o[(i + 1) % nsets].p, n * 2, cudaMemcpyDeviceToDevice)); }, nsets);
        write_bench(f, {"dequant", "d2d-copy-again", n, 1, 1, 0, copy2, 2.0 * n * 2 / copy2 * 1e-3, copy_us / copy2, "GB/s"});
    }
}

/* OUTDIR/NAME opened for writing with its CSV header line, or NULL (perror'd) */
static FILE *open_csv(const char *outdir, const char *name, const char *header)
{
    const std::string path = std::string(outdir) + "/" + name;
    FILE *f = fopen(path.c_str(), "w");
    if (!f) perror(path.c_str());
    else fprintf(f, "%s\n", header);
    return f;
}

static int cmd_bench_dequant(const char *outdir)
{
    FILE *f = open_csv(outdir, "bench_dequant.csv", "card,shape,M,N,K,G,method,median_us,rate,unit,ratio");
    if (!f) return 1;
    bench_dequant(f, true);
    fclose(f);
    return 0;
}

static int cmd_bench(const char *outdir)
{
    FILE *f = open_csv(outdir, "bench.csv", "card,shape,M,N,K,G,method,median_us,rate,unit,ratio");
    if (!f) return 1;
    std::string pext = std::string(outdir) + "/bench_ext.csv";
    g_ext = fopen(pext.c_str(), "w");
    if (g_ext)
        fprintf(g_ext, "card,shape,M,N,K,G,method,median_us,ratio_vs_bf16,bound,bound_us,tensor_us,epilogue_us,"
                       "dram_us,frac_of_bound,power_w,joules_per_op,tops_per_w,power_calls\n");
    /* MXK_BENCH_DECODE=1: only the decode shapes (M <= 16), the decode kernels and no power loops:
    ** a short run for decode-kernel iterations (cuBLAS bf16 is still measured in the same run) */
    const bool decode_only = env_on("MXK_BENCH_DECODE");
    g_no_power = decode_only;
    nvml_open();
    printf("NVML power: %s\n", !g_nvml.ok ? "not available (power columns 0)"
                                 : g_nvml.instant ? "instantaneous (field 186)" : "trailing average (no instantaneous field)");
    cublasHandle_t cb;
    CKB(cublasCreate(&cb));
    cublasLtHandle_t lt;
    CKB(cublasLtCreate(&lt));
    size_t ws_bytes = 64u << 20;
    DBuf<uint8_t> ws(ws_bytes);
    CKB(cublasSetWorkspace(cb, ws.p, ws_bytes));

    bench_dequant(f, false);

    /* ---- GEMM ---- */
    struct Shape {
        const char *name;
        int64_t M, N, K;
    };
    const Shape shapes[] = {{"llama-prefill", 2048, 4096, 4096}, {"llama-prefill", 2048, 11008, 4096},
                            {"llama-decode", 1, 4096, 4096},     {"llama-decode", 16, 4096, 4096},
                            {"llama-decode", 1, 11008, 4096},    {"llama-decode", 16, 11008, 4096},
                            {"bert-base", 128, 768, 768},        {"bert-base", 128, 3072, 768},
                            {"cube", 8192, 8192, 8192}};
    for (const Shape &sh : shapes) {
        const int64_t M = sh.M, N = sh.N, K = sh.K;
        if (decode_only && M > 16) continue;
        const double ops = 2.0 * M * N * K;
        /* cuBLAS bf16: C[M,N] row-major = col-major C'[N,M] = B[N,K] . A^T (TN) */
        double bf16_us;
        {
            const Bf16Sets S(M, N, K);
            const int ns = S.ns;
            DBuf<uint16_t> C(M * N);
            auto run = [&](int i) { cublas_bf16(cb, S, i, M, N, K, C.p); };
            bf16_us = median_us(run, ns);
            write_bench(f, {sh.name, "cublas-bf16", M, N, K, 0, bf16_us, ops / bf16_us * 1e-6, 1.0, "TOPS"});
            write_ext(sh.name, "cublas-bf16", M, N, K, 0, bf16_us, 1.0, roofline(1, M, N, K, 1, 0), measure_power(run, ns, bf16_us));
        }
        /* cuBLASLt int8 (no scaling), int32 out */
        {
            const size_t per = (size_t)(M * K + N * K);
            const int ns = sets_for(per);
            std::vector<DBuf<int8_t>> A, B;
            for (int i = 0; i < ns; i++) {
                A.emplace_back(M * K);
                B.emplace_back(N * K);
                rnd_mant(A.back().p, M * K);
                rnd_mant(B.back().p, N * K);
            }
            DBuf<int32_t> C(M * N);
            cublasLtMatmulDesc_t op;
            CKB(cublasLtMatmulDescCreate(&op, CUBLAS_COMPUTE_32I, CUDA_R_32I));
            cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
            CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
            CKB(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
            cublasLtMatrixLayout_t la, lb, lc;
            CKB(cublasLtMatrixLayoutCreate(&la, CUDA_R_8I, K, N, K));
            CKB(cublasLtMatrixLayoutCreate(&lb, CUDA_R_8I, K, M, K));
            CKB(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32I, N, M, N));
            cublasLtMatmulPreference_t pref;
            CKB(cublasLtMatmulPreferenceCreate(&pref));
            CKB(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws_bytes, sizeof ws_bytes));
            cublasLtMatmulHeuristicResult_t heur;
            int nres = 0;
            cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, lc, pref, 1, &heur, &nres);
            if (hs == CUBLAS_STATUS_SUCCESS && nres > 0) {
                const int32_t one = 1, zero = 0;
                auto run = [&](int i) {
                    CKB(cublasLtMatmul(lt, op, &one, B[i].p, la, A[i].p, lb, &zero, C.p, lc, C.p, lc, &heur.algo,
                                       ws.p, ws_bytes, 0));
                };
                double us = median_us(run, ns);
                write_bench(f, {sh.name, "cublaslt-int8", M, N, K, 0, us, ops / us * 1e-6, bf16_us / us, "TOPS"});
                write_ext(sh.name, "cublaslt-int8", M, N, K, 0, us, bf16_us / us, roofline(2, M, N, K, 1, 0), measure_power(run, ns, us));
            } else {
                write_bench(f, {sh.name, "cublaslt-int8-unsupported", M, N, K, 0, 0, 0, 0, "TOPS"});
            }
            cublasLtMatmulPreferenceDestroy(pref);
            cublasLtMatrixLayoutDestroy(la);
            cublasLtMatrixLayoutDestroy(lb);
            cublasLtMatrixLayoutDestroy(lc);
            cublasLtMatmulDescDestroy(op);
        }
        /* MXINT8: this kernel, and the seeds' path (dequantize both, then cuBLAS bf16) */
        for (int64_t G : {32, 64, 128}) {
            const MxSets S(M, N, K, G);
            const int ns = S.ns;
            const auto &Am = S.Am, &Bm = S.Bm;
            const auto &Ae = S.Ae, &Be = S.Be;
            DBuf<float> C(M * N);
            auto run0 = [&](int i) { CK(mxk_gemm(M, N, K, G, Am[i].p, Ae[i].p, Bm[i].p, Be[i].p, C.p, 0, 0)); };
            double us = median_us(run0, ns);
            const int ran0 = ran_cfg(0, M, N, K, G, Am[0].p, Ae[0].p, Bm[0].p, Be[0].p, C.p);
            const int want0 = mxk_gemm_cfg0(M, N, G), roof0 = ran0 == want0 ? 0 : ran0;
            const std::string meth0 = "mxk-gemm-mxint8" + ran_suffix(want0, ran0);
            write_bench(f, {sh.name, meth0, M, N, K, G, us, ops / us * 1e-6, bf16_us / us, "TOPS"});
            write_ext(sh.name, meth0, M, N, K, G, us, bf16_us / us, roofline(roof_kind(roof0, M, N, G), M, N, K, G, epi_instr(roof0, M, N, G)),
                      measure_power(run0, ns, us));
            /* the other kernels on the same data: the old 16x32 tiles (cfg 3) and the small-M
            ** kernel (cfg 4) on decode shapes,
            ** the 16-warp and 2-blocks-per-SM tiles (cfg 5, 6) on large ones */
            /* cfg 0 is cfg 9 (the decode kernel) at M <= 16 and cfg 8 (the Hopper kernel) on the
            ** large shapes, cfg 11 (its bf16-path twin) there at G = 32: the alternatives are the
            ** previous kernels (cfg 4, cfg 5; cfg 8 at G = 32), same data */
            std::vector<int> alt;
            if (M >= 1024) alt = {5};
            if (M >= 1024 && G == 32) alt = {5, 8}; /* cfg 0 is cfg 11 there: the int8 Hopper kernel too */
            if (M <= 16) alt = {4, 9, 10}; /* the small-M kernel, the decode kernel and the first decode kernel, same data */
            if (M == 1) alt = {4, 9, 10, 12}; /* and the row kernel */
            for (int a : alt) {
                auto runa = [&](int i) { CK(mxk_gemm(M, N, K, G, Am[i].p, Ae[i].p, Bm[i].p, Be[i].p, C.p, a, 0)); };
                double ua = median_us(runa, ns);
                const int rana = ran_cfg(a, M, N, K, G, Am[0].p, Ae[0].p, Bm[0].p, Be[0].p, C.p);
                std::string meth = "mxk-gemm-mxint8-cfg" + std::to_string(a) + ran_suffix(a, rana);
                write_bench(f, {sh.name, meth, M, N, K, G, ua, ops / ua * 1e-6, bf16_us / ua, "TOPS"});
                write_ext(sh.name, meth, M, N, K, G, ua, bf16_us / ua, roofline(roof_kind(rana, M, N, G), M, N, K, G, epi_instr(rana, M, N, G)),
                          measure_power(runa, ns, ua));
            }
            if (G == 32 && !decode_only) {
                DBuf<uint16_t> Ab(M * K), Bb(N * K), Cb(M * N);
                const float one = 1.0f, zero = 0.0f;
                double us2 = median_us([&](int i) {
                    CK(mxk_dequantize_bf16(MXK_PROFILE_OCP, Am[i].p, Ae[i].p, M * K, G, Ab.p, 0));
                    CK(mxk_dequantize_bf16(MXK_PROFILE_OCP, Bm[i].p, Be[i].p, N * K, G, Bb.p, 0));
                    CKB(cublasGemmEx(cb, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K, &one, Bb.p, CUDA_R_16BF,
                                     (int)K, Ab.p, CUDA_R_16BF, (int)K, &zero, Cb.p, CUDA_R_16BF, (int)N,
                                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
                }, ns);
                write_bench(f, {sh.name, "dequant+cublas-bf16", M, N, K, G, us2, ops / us2 * 1e-6, bf16_us / us2, "TOPS"});
            }
        }
    }
    cublasLtDestroy(lt);
    cublasDestroy(cb);
    if (g_ext) fclose(g_ext);
    g_ext = nullptr;
    fclose(f);
    printf("bench -> %s/bench.csv\n", outdir);
    return 0;
}

/* ---- file modes and the golden set ----------------------------------------------------------- */

static int run_dequant_file(mxsim_ctx *ctx, const char *in, const char *out)
{
    mxsim_mx *mx = nullptr;
    CKM(ctx, mxsim_mx_load(ctx, in, &mx));
    const mxsim_profile p = mxsim_mx_profile(mx);
    if (p != MXSIM_PROFILE_OCP && p != MXSIM_PROFILE_MASE_CUDA) {
        fprintf(stderr, "%s: profile %s has no GPU decoder (ocp, mase-cuda)\n", in, mxsim_profile_name(p));
        return 2;
    }
    if (mxsim_mx_axis(mx) != mxsim_tensor_ndim(mxsim_mx_mantissa(mx)) - 1) {
        fprintf(stderr, "%s: the GPU decoder needs groups along the last axis\n", in);
        return 2;
    }
    const mxsim_tensor *mt = mxsim_mx_mantissa(mx), *st = mxsim_mx_scale(mx);
    const int64_t n = mxsim_tensor_numel(mt), G = mxsim_mx_group_size(mx);
    DBuf<int8_t> dm(n);
    DBuf<uint8_t> ds(n / G);
    DBuf<uint16_t> dout(n);
    dm.up((const int8_t *)mxsim_tensor_cdata(mt));
    ds.up((const uint8_t *)mxsim_tensor_cdata(st));
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    CK(mxk_dequantize_bf16((int)p, dm.p, ds.p, n, G, dout.p, 0));
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    mxsim_tensor *t = nullptr;
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_BF16, mxsim_tensor_ndim(mt), mxsim_tensor_shape(mt), &t));
    dout.down((uint16_t *)mxsim_tensor_data(t));
    CKM(ctx, mxsim_tensor_save_npy(ctx, t, out));
    printf("dequant %s n=%lld G=%lld: %.3f us\n", mxsim_profile_name(p), (long long)n, (long long)G, ms * 1e3);
    mxsim_tensor_free(t);
    mxsim_mx_free(mx);
    return 0;
}

static int run_quantize_file(mxsim_ctx *ctx, const char *in, int64_t G, const char *out)
{
    mxsim_tensor *x = nullptr;
    CKM(ctx, mxsim_tensor_load_npy(ctx, in, &x));
    mxsim_dtype dt = mxsim_tensor_dtype(x);
    if (dt == MXSIM_DTYPE_U16) dt = MXSIM_DTYPE_BF16;
    const int nd = mxsim_tensor_ndim(x);
    if ((dt != MXSIM_DTYPE_F32 && dt != MXSIM_DTYPE_BF16) || nd < 1 || G < 1 ||
        mxsim_tensor_shape(x)[nd - 1] % G != 0) {
        fprintf(stderr, "%s: need f32 or bf16 (u2) data whose last axis G divides\n", in);
        return 2;
    }
    const int64_t n = mxsim_tensor_numel(x);
    const size_t esz = dt == MXSIM_DTYPE_F32 ? 4 : 2;
    DBuf<uint8_t> din(n * esz);
    din.up((const uint8_t *)mxsim_tensor_cdata(x));
    DBuf<int8_t> dm(n);
    DBuf<uint8_t> ds(n / G);
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    CK(cudaEventRecord(a));
    CK(mxk_quantize_ocp(dt == MXSIM_DTYPE_F32 ? MXK_DTYPE_F32 : MXK_DTYPE_BF16, din.p, n, G, dm.p, ds.p, 0));
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    std::vector<int64_t> sshape(mxsim_tensor_shape(x), mxsim_tensor_shape(x) + nd);
    sshape[nd - 1] /= G;
    mxsim_tensor *tm = nullptr, *ts = nullptr;
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, nd, mxsim_tensor_shape(x), &tm));
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, nd, sshape.data(), &ts));
    dm.down((int8_t *)mxsim_tensor_data(tm));
    ds.down((uint8_t *)mxsim_tensor_data(ts));
    mxsim_mx *mx = nullptr;
    CKM(ctx, mxsim_mx_create(ctx, tm, ts, G, nd - 1, MXSIM_PROFILE_OCP, &mx));
    CKM(ctx, mxsim_mx_save(ctx, mx, out, 1));
    printf("quantize ocp n=%lld G=%lld: %.3f us\n", (long long)n, (long long)G, ms * 1e3);
    mxsim_mx_free(mx);
    mxsim_tensor_free(tm);
    mxsim_tensor_free(ts);
    mxsim_tensor_free(x);
    return 0;
}

static int run_gemm_file(mxsim_ctx *ctx, const char *fa, const char *fb, const char *out)
{
    mxsim_mx *a = nullptr, *b = nullptr;
    CKM(ctx, mxsim_mx_load(ctx, fa, &a));
    CKM(ctx, mxsim_mx_load(ctx, fb, &b));
    const mxsim_tensor *am = mxsim_mx_mantissa(a), *bm = mxsim_mx_mantissa(b);
    if (mxsim_tensor_ndim(am) != 2 || mxsim_tensor_ndim(bm) != 2 || mxsim_mx_axis(a) != 1 ||
        mxsim_mx_axis(b) != 1 || mxsim_tensor_shape(am)[1] != mxsim_tensor_shape(bm)[1] ||
        mxsim_mx_group_size(a) != mxsim_mx_group_size(b) || mxsim_mx_profile(a) == MXSIM_PROFILE_MASE ||
        mxsim_mx_profile(b) == MXSIM_PROFILE_MASE) {
        fprintf(stderr, "gemm: need A [M,K], B [N,K], grouped along K with one G, OCP-convention scales\n");
        return 2;
    }
    const int64_t M = mxsim_tensor_shape(am)[0], N = mxsim_tensor_shape(bm)[0], K = mxsim_tensor_shape(am)[1];
    const int64_t G = mxsim_mx_group_size(a);
    DBuf<int8_t> dam(M * K), dbm(N * K);
    DBuf<uint8_t> dae(M * K / G), dbe(N * K / G);
    DBuf<float> dc(M * N);
    dam.up((const int8_t *)mxsim_tensor_cdata(am));
    dbm.up((const int8_t *)mxsim_tensor_cdata(bm));
    dae.up((const uint8_t *)mxsim_tensor_cdata(mxsim_mx_scale(a)));
    dbe.up((const uint8_t *)mxsim_tensor_cdata(mxsim_mx_scale(b)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    CK(mxk_gemm(M, N, K, G, dam.p, dae.p, dbm.p, dbe.p, dc.p, 0, 0));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    int64_t shape[2] = {M, N};
    mxsim_tensor *t = nullptr;
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, &t));
    dc.down((float *)mxsim_tensor_data(t));
    CKM(ctx, mxsim_tensor_save_npy(ctx, t, out));
    printf("gemm %lldx%lldx%lld G=%lld: %.3f us\n", (long long)M, (long long)N, (long long)K, (long long)G, ms * 1e3);
    mxsim_tensor_free(t);
    mxsim_mx_free(a);
    mxsim_mx_free(b);
    return 0;
}

static void save_mx(mxsim_ctx *ctx, const std::string &path, const int8_t *m, const uint8_t *s, int nd,
                    const int64_t *shape, int64_t G, mxsim_profile p)
{
    std::vector<int64_t> ss(shape, shape + nd);
    ss[nd - 1] /= G;
    mxsim_tensor *tm = nullptr, *ts = nullptr;
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, nd, shape, &tm));
    CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, nd, ss.data(), &ts));
    memcpy(mxsim_tensor_data(tm), m, (size_t)mxsim_tensor_numel(tm));
    memcpy(mxsim_tensor_data(ts), s, (size_t)mxsim_tensor_numel(ts));
    mxsim_mx *mx = nullptr;
    CKM(ctx, mxsim_mx_create(ctx, tm, ts, G, nd - 1, p, &mx));
    CKM(ctx, mxsim_mx_save(ctx, mx, path.c_str(), 1));
    mxsim_mx_free(mx);
    mxsim_tensor_free(tm);
    mxsim_tensor_free(ts);
}

static int cmd_golden(const char *outdir)
{
    mxsim_ctx *ctx = new_ctx();
    const std::string d = outdir;
    FILE *man = fopen((d + "/MANIFEST").c_str(), "w");
    if (!man) {
        perror("MANIFEST");
        return 1;
    }
    fprintf(man, "# GPU golden set: kind name [G]; written by mxsim-gpu golden on %s\n", g_card.c_str());
    int rc = 0;
    /* dequant: the exhaustive (E, m) sets */
    struct {
        int p;
        int64_t G;
        const char *name;
    } dq[] = {{MXK_PROFILE_OCP, 32, "dq_ocp_g32"}, {MXK_PROFILE_MASE_CUDA, 16, "dq_masecuda_g16"}, {MXK_PROFILE_OCP, 3, "dq_ocp_g3"}};
    for (auto &c : dq) {
        std::vector<int8_t> m;
        std::vector<uint8_t> s;
        exhaustive_pairs(c.G, m, s);
        int64_t shape[1] = {(int64_t)m.size()};
        save_mx(ctx, d + "/" + c.name + ".in.npz", m.data(), s.data(), 1, shape, c.G, (mxsim_profile)c.p);
        rc |= run_dequant_file(ctx, (d + "/" + c.name + ".in.npz").c_str(), (d + "/" + c.name + ".gpu.npy").c_str());
        fprintf(man, "dequant %s\n", c.name);
    }
    /* quantize: random + adversarial f32, and the same as bf16 */
    {
        Rng r(777);
        std::vector<float> x;
        const int64_t G = 32, rows = 64, cols = 256;
        gen_quant_input(r, rows * cols, G, x);
        int64_t shape[2] = {rows, cols};
        mxsim_tensor *t = nullptr, *tb = nullptr;
        CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, &t));
        memcpy(mxsim_tensor_data(t), x.data(), x.size() * 4);
        CKM(ctx, mxsim_tensor_save_npy(ctx, t, (d + "/q_f32_g32.in.npy").c_str()));
        CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_BF16, 2, shape, &tb));
        for (size_t i = 0; i < x.size(); i++) ((uint16_t *)mxsim_tensor_data(tb))[i] = mxsim_f32_to_bf16(x[i]);
        CKM(ctx, mxsim_tensor_save_npy(ctx, tb, (d + "/q_bf16_g64.in.npy").c_str()));
        mxsim_tensor_free(t);
        mxsim_tensor_free(tb);
        rc |= run_quantize_file(ctx, (d + "/q_f32_g32.in.npy").c_str(), 32, (d + "/q_f32_g32.gpu.npz").c_str());
        rc |= run_quantize_file(ctx, (d + "/q_bf16_g64.in.npy").c_str(), 64, (d + "/q_bf16_g64.gpu.npz").c_str());
        fprintf(man, "quantize q_f32_g32 32\nquantize q_bf16_g64 64\n");
    }
    /* gemm: ragged, M = 1, extreme and NaN scales, each G of the fast path and a SIMT one */
    Rng r(4242);
    const GemmCase gc[] = {{33, 77, 384, 128, SC_EXTREME, SC_WIDE, 0, false},
                           {1, 256, 1024, 32, SC_NAN, SC_WIDE, 0, false},
                           {64, 48, 256, 64, SC_OVERFLOW, SC_OVERFLOW, 0, true},
                           {130, 70, 512, 32, SC_WIDE, SC_WIDE, 5, false},
                           {20, 30, 96, 16, SC_EXTREME, SC_EXTREME, 0, false},
                           /* the Hopper kernel (cfg 8): exact path (extreme B scales), fast path */
                           {130, 200, 512, 32, SC_NARROW, SC_EXTREME, 8, false},
                           {200, 136, 256, 64, SC_NARROW, SC_NARROW, 8, true}};
    int idx = 0;
    for (const GemmCase &c : gc) {
        std::vector<float> got;
        std::vector<int8_t> am, bm;
        std::vector<uint8_t> ae, be;
        long mism = check_gemm(ctx, r, c, false, &got, &am, &ae, &bm, &be);
        if (mism) rc = 1;
        char name[64];
        snprintf(name, sizeof name, "gemm%d_%lldx%lldx%lld_g%lld", idx++, (long long)c.M, (long long)c.N,
                 (long long)c.K, (long long)c.G);
        int64_t sa[2] = {c.M, c.K}, sb[2] = {c.N, c.K}, sc[2] = {c.M, c.N};
        save_mx(ctx, d + "/" + name + ".a.npz", am.data(), ae.data(), 2, sa, c.G, MXSIM_PROFILE_OCP);
        save_mx(ctx, d + "/" + name + ".b.npz", bm.data(), be.data(), 2, sb, c.G, MXSIM_PROFILE_OCP);
        mxsim_tensor *t = nullptr;
        CKM(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, sc, &t));
        memcpy(mxsim_tensor_data(t), got.data(), got.size() * 4);
        CKM(ctx, mxsim_tensor_save_npy(ctx, t, (d + "/" + name + ".gpu.npy").c_str()));
        mxsim_tensor_free(t);
        fprintf(man, "gemm %s\n", name);
    }
    fclose(man);
    mxsim_ctx_destroy(ctx);
    printf("golden -> %s (rc %d)\n", outdir, rc);
    return rc;
}

/* MXK_DS_TRACE=1 (cfg 9 diagnostics): the last launch's clock64 stamps per block, relative to the
** block's start (slot 3: its %globaltimer start in ns): 57 barriers initialised, 58 activation
** copies issued, 1 first stage issued, 2 activations in,
** 4 + i stage i arrived (consumer warp 0), 32 + i stage i released, 62 folder end, 63 consumer end;
** 60 / 61 the consumers' / folders' end in %globaltimer ns (the blocks' span, against the launch's time) */
extern "C" const unsigned long long *mxk_ds_trace(int *nblocks);
static void ds_trace_print()
{
    CK(cudaDeviceSynchronize());
    int nb = 0;
    const unsigned long long *t = mxk_ds_trace(&nb);
    if (!t || nb < 1) return;
    unsigned long long g0 = ~0ull, g1 = 0;
    for (int b = 0; b < nb; b++) g0 = std::min(g0, t[b * 64 + 3]), g1 = std::max(g1, t[b * 64 + 3]);
    unsigned long long e1 = 0; /* the last block end (a stale stamp of an earlier launch is below g0) */
    for (int b = 0; b < nb; b++)
        for (int k : {60, 61})
            if (t[b * 64 + k] > g0) e1 = std::max(e1, t[b * 64 + k]);
    printf("trace: %d blocks, starts spread over %.2f us, first start to last end %.2f us (globaltimer)\n", nb,
           (g1 - g0) * 1e-3, e1 > g0 ? (e1 - g0) * 1e-3 : 0.0);
    const int show[4] = {0, 1, nb / 2, nb - 1};
    for (int sb : show) {
        const unsigned long long *r = t + sb * 64;
        printf("  block %d (start +%.2f us): init %lld  x issued %lld  stage 0 issued %lld  x in %lld  arrive/release:", sb,
               (r[3] - g0) * 1e-3, (long long)(r[57] - r[0]), (long long)(r[58] - r[0]), (long long)(r[1] - r[0]),
               (long long)(r[2] - r[0]));
        for (int i = 0; i < 28; i++)
            if (r[4 + i] > r[0] && r[4 + i] - r[0] < 100000000ull)
                printf(" %lld/%lld", (long long)(r[4 + i] - r[0]), (long long)(r[32 + i] - r[0]));
        printf("  fold_end %lld end %lld clk\n", (long long)(r[62] - r[0]), (long long)(r[63] - r[0]));
    }
    std::vector<double> first, last, end;
    for (int b = 0; b < nb; b++) {
        const unsigned long long *r = t + b * 64;
        int n = 0;
        while (n < 28 && r[4 + n] > r[0] && r[4 + n] - r[0] < 100000000ull) n++;
        if (!n) continue;
        first.push_back((double)(r[4] - r[0]));
        last.push_back((double)(r[4 + n - 1] - r[0]));
        end.push_back((double)(std::max(r[63], r[62] < r[0] + 100000000ull ? r[62] : 0ull) - r[0]));
    }
    auto med = [](std::vector<double> v) { std::sort(v.begin(), v.end()); return v.empty() ? 0.0 : v[v.size() / 2]; };
    auto mx = [](const std::vector<double> &v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); };
    printf("  median/max clk: first arrival %.0f/%.0f  last arrival %.0f/%.0f  end %.0f/%.0f\n", med(first),
           mx(first), med(last), mx(last), med(end), mx(end));
}

/* MXK_DR_TRACE=1 (cfg 12 diagnostics): per weight row %globaltimer ns at the warp's start, when its
** first chunk's weights are in (after the dots), at its end; printed relative to the first start:
** the rows' starts, arrivals and ends (quantiles), and the tail from arrival to end */
extern "C" const unsigned long long *mxk_dr_trace(int *nrows);
static void dr_trace_print()
{
    CK(cudaDeviceSynchronize());
    int nr = 0;
    const unsigned long long *t = mxk_dr_trace(&nr);
    if (!t || nr < 1) return;
    unsigned long long g0 = ~0ull;
    for (int r = 0; r < nr; r++) g0 = std::min(g0, t[4 * r]);
    std::vector<double> st, in, en, tail;
    for (int r = 0; r < nr; r++) {
        st.push_back((t[4 * r] - g0) * 1e-3), in.push_back((t[4 * r + 1] - g0) * 1e-3), en.push_back((t[4 * r + 2] - g0) * 1e-3);
        tail.push_back((t[4 * r + 2] - t[4 * r + 1]) * 1e-3);
    }
    auto q = [](std::vector<double> v, double f) { std::sort(v.begin(), v.end()); return v[(size_t)(f * (double)(v.size() - 1))]; };
    printf("trace (us from the first row's start, quantiles 0/10/50/90/100%%), %d rows:\n", nr);
    const char *nm[4] = {"start", "weights in", "end", "tail (end - in)"};
    const std::vector<double> *vs[4] = {&st, &in, &en, &tail};
    for (int k = 0; k < 4; k++)
        printf("  %-16s %.2f %.2f %.2f %.2f %.2f\n", nm[k], q(*vs[k], 0), q(*vs[k], 0.1), q(*vs[k], 0.5), q(*vs[k], 0.9),
               q(*vs[k], 1));
}

/* The environment switches that mxsim-gpu and the kernels it drives read (timing experiments and
** diagnostics; each is read where it acts, the library's with a plain atoi/getenv because the
** library never prints).  One table: every set switch is checked here before any device work, so
** that a typo is refused with its name instead of silently meaning 0 (or, for a presence switch,
** "on").  lo/hi: the accepted integers; list: a comma-separated list of them; presence: the only
** accepted value is 1. */
struct EnvKnob {
    const char *name;
    long lo, hi;
    bool list, presence;
    const char *what;
};
static const EnvKnob k_env_knobs[] = {
    {"MXK_WG_DEBUG", 0, 4095, false, false, "Hopper GEMM (cfg 8) timing-experiment bits; results are wrong when set"},
    {"MXK_PREFILL_VARIANTS", 0, 4095, true, false, "bench-prefill: the MXK_WG_DEBUG values to time"},
    {"MXK_NO_WGMMA", 1, 1, false, true, "force the Hopper GEMM's fallback (cfg 5)"},
    {"MXK_DS_NS", 0, 8, false, false, "decode kernel (cfg 9): cap on ring stages (0 or 1: as planned)"},
    {"MXK_DS_BPS", 0, 4, false, false, "decode kernel: blocks per SM (0: as planned)"},
    {"MXK_DS_CPW", 0, 2, false, false, "decode kernel: 2 = 1 KB stages (0 or 1: as planned)"},
    {"MXK_DS_NOCOMP", 0, 3, false, false, "decode kernel timing modes; results are wrong when set"},
    {"MXK_DS_V2", 0, 1, false, false, "decode kernel: force the per-stage-barrier (0) or V2 (1) consumers"},
    {"MXK_DS_TRACE", 0, 1, false, false, "perf with cfg 9: the decode kernel's per-block timeline"},
    {"MXK_DR_TRACE", 0, 1, false, false, "perf with cfg 12: per-row start / weights-in / end stamps"},
    {"MXK_PERF_COLD", 0, 1, false, false, "perf: B rotates over copies, out of L2"},
    {"MXK_BENCH_DECODE", 0, 1, false, false, "bench: decode shapes only, no power loops"},
    {"MXK_VERIFY_CFG", 0, 12, false, false, "verify: only the GEMM cases of this cfg"},
    {"MXK_VERIFY_DEQUANT_ONLY", 1, 1, false, true, "verify: stop after the dequant checks"},
};

/* every set switch of k_env_knobs within its range: 0, else 2 with a message naming it */
static int env_knobs_ok()
{
    int cc = 0, sms = 0, smem = 0;
    if (mxk_device_caps(&cc, &sms, &smem) == (int)cudaErrorInvalidValue) {
        fprintf(stderr, "mxsim-gpu: environment MXK_EMULATE='%s': expected a100, l40s, t4 or unset (another card's limits)\n",
                getenv("MXK_EMULATE"));
        return 2;
    }
    for (const EnvKnob &k : k_env_knobs) {
        const char *v = getenv(k.name);
        if (!v) continue;
        bool ok = *v != 0;
        for (const char *p = v; ok && *p;) {
            char *end = nullptr;
            const long x = strtol(p, &end, 10);
            ok = end != p && x >= k.lo && x <= k.hi && (*end == 0 || (k.list && *end == ',' && end[1]));
            p = *end ? end + 1 : end;
            if (!k.list && *end) ok = false;
        }
        if (!ok) {
            if (k.presence)
                fprintf(stderr, "mxsim-gpu: environment %s='%s': expected 1 or unset (%s)\n", k.name, v, k.what);
            else
                fprintf(stderr, "mxsim-gpu: environment %s='%s': expected %s in [%ld, %ld] (%s)\n", k.name, v,
                        k.list ? "a comma-separated list of integers" : "an integer", k.lo, k.hi, k.what);
            return 2;
        }
    }
    return 0;
}

/* perf's arguments, checked before any device work (its switches: env_knobs_ok): 0 ok, 2 (message) otherwise */
static int perf_args_ok(int argc, char **argv)
{
    for (int i = 2; i < argc; i++) {
        char *end = nullptr;
        const long long v = strtoll(argv[i], &end, 10);
        if (!end || *end || (i < 6 ? v < 1 : (v < 0 || v > 12))) {
            fprintf(stderr, "mxsim-gpu perf: argument %d ('%s'): expected %s\n", i - 1, argv[i],
                    i < 6 ? "a positive integer (M N K G)" : "a cfg in [0, 12]");
            return 2;
        }
    }
    if (atoll(argv[4]) % atoll(argv[5])) {
        fprintf(stderr, "mxsim-gpu perf: K (%s) is not a multiple of G (%s)\n", argv[4], argv[5]);
        return 2;
    }
    return 0;
}

/* perf M N K G [cfg]: one GEMM size on random data, median of 20 (for ncu and tile choices) */
static int cmd_perf(int64_t M, int64_t N, int64_t K, int64_t G, int cfg)
{
    const bool cold = env_on("MXK_PERF_COLD"), trace_flag = env_on("MXK_DS_TRACE");
    DBuf<int8_t> am(M * K), bm(N * K);
    DBuf<uint8_t> ae(M * K / G), be(N * K / G);
    DBuf<float> c(M * N);
    rnd_mant(am.p, am.n);
    rnd_mant(bm.p, bm.n);
    rnd_scale(ae.p, ae.n);
    rnd_scale(be.p, be.n);
    /* MXK_PERF_COLD=1: B rotates over enough copies that each launch finds it out of L2 */
    const int nsets = cold ? (int)std::max<int64_t>(2, (int64_t)(3 * g_l2) / (N * K) + 1) : 1;
    std::vector<DBuf<int8_t>> bms;
    for (int i = 1; i < nsets; i++) {
        bms.emplace_back(N * K);
        CK(cudaMemcpy(bms.back().p, bm.p, N * K, cudaMemcpyDeviceToDevice));
    }
    double us = median_us([&](int i) { CK(mxk_gemm(M, N, K, G, am.p, ae.p, i ? bms[i - 1].p : bm.p, be.p, c.p, cfg, 0)); },
                          nsets, 2, 20);
    printf("perf %lldx%lldx%lld G=%lld cfg=%d: %.2f us, %.1f TOPS (%s)\n", (long long)M, (long long)N, (long long)K,
           (long long)G, cfg, us, 2.0 * M * N * K / us * 1e-6, cold ? "B out of L2" : "operands L2-resident when small");
    if (trace_flag) ds_trace_print();
    if (env_on("MXK_DR_TRACE")) dr_trace_print();
    return 0;
}

/* ---- memory: a model's weights on the card (issue 19, sim/doc/memory.md) ------------------- */

/* One device buffer a model's weights need: bytes, and whether it is a small non-GEMM parameter. */
struct MemBuf {
    size_t bytes;
};

/* The buffers of tr's weights in one format: fmt 0 bf16 (2 bytes per element), 1 MXINT8 at G in
** the kernels' layout (mxk.h: B of an [N, K] GEMM is b_m[N*K] int8 mantissas + b_e[N*(K/G)] scale
** bytes, with K zero-padded to a multiple of G: two allocations per weight tensor).  Non-GEMM
** parameters (embeddings, norms, biases) stay bf16 in both.  One tensor per execution of a
** weight op (repeat = layers), as mxsim memory counts them. */
static std::vector<MemBuf> mem_buffers(const mxsim_trace *tr, int fmt, int64_t G)
{
    std::vector<MemBuf> v;
    for (int64_t i = 0; i < mxsim_trace_count(tr); i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        if (op->kind != MXSIM_OP_GEMM || mxsim_trace_b_role(tr, i) != MXSIM_ROLE_WEIGHT) continue;
        int64_t N = op->n, K = op->k, Kp = (K + G - 1) / G * G;
        for (int64_t r = 0; r < op->repeat; r++) {
            if (fmt == 0) {
                v.push_back({(size_t)(N * K * 2)});
            } else {
                v.push_back({(size_t)(N * Kp)});     /* b_m */
                v.push_back({(size_t)(N * Kp / G)}); /* b_e */
            }
        }
    }
    for (int64_t i = 0; i < mxsim_trace_param_count(tr); i++) {
        int64_t e = 0, c = 0;
        mxsim_trace_param(tr, i, NULL, &e, &c, NULL);
        for (int64_t r = 0; r < c; r++) v.push_back({(size_t)(e * 2)});
    }
    return v;
}

static size_t mem_used()
{
    size_t fr = 0, tot = 0;
    CK(cudaDeviceSynchronize());
    CK(cudaMemGetInfo(&fr, &tot));
    return tot - fr;
}

/* Allocates the buffers (mode 0: one cudaMalloc each, as the kernels' callers do; mode 1: one
** arena, each buffer at a 256-byte boundary, as a framework's caching allocator packs them),
** writes zeros into them, and returns the device memory cudaMemGetInfo saw them take. */
static long long mem_measure(const std::vector<MemBuf> &v, int mode, size_t *n_alloc)
{
    size_t before = mem_used();
    std::vector<void *> ptrs;
    if (mode == 0) {
        for (const MemBuf &b : v) {
            void *p = NULL;
            CK(cudaMalloc(&p, b.bytes));
            CK(cudaMemset(p, 0, b.bytes));
            ptrs.push_back(p);
        }
    } else {
        size_t total = 0;
        for (const MemBuf &b : v) total += (b.bytes + 255) / 256 * 256;
        void *p = NULL;
        CK(cudaMalloc(&p, total));
        CK(cudaMemset(p, 0, total));
        ptrs.push_back(p);
    }
    size_t after = mem_used();
    for (void *p : ptrs) CK(cudaFree(p));
    *n_alloc = ptrs.size();
    return (long long)after - (long long)before;
}

static int cmd_memory(const char *out, int ntr, char **traces)
{
    FILE *f = fopen(out, "w");
    if (f == NULL) {
        fprintf(stderr, "mxsim-gpu memory: cannot write %s\n", out);
        return 1;
    }
    size_t fr = 0, tot = 0;
    CK(cudaFree(0)); /* the context first: its own memory is not the model's */
    CK(cudaMemGetInfo(&fr, &tot));
    fprintf(f, "card,trace,format,group_size,alloc,allocations,predicted_bytes,predicted_2mib_bytes,"
               "measured_bytes,diff_pct,diff_2mib_pct\n");
    printf("%s: %.1f GiB total, %.1f GiB free\n", g_card.c_str(), tot / 1073741824.0, fr / 1073741824.0);
    mxsim_ctx *ctx = new_ctx();
    int rc = 0;
    for (int t = 0; t < ntr; t++) {
        mxsim_trace *tr = NULL;
        if (mxsim_trace_load(ctx, traces[t], &tr) != MXSIM_OK) {
            fprintf(stderr, "mxsim-gpu memory: %s\n", mxsim_errmsg(ctx));
            rc = 1;
            continue;
        }
        const char *base = strrchr(traces[t], '/');
        base = base ? base + 1 : traces[t];
        static const int64_t groups[] = {0, 8, 16, 32, 64, 128};
        for (int64_t G : groups) {
            std::vector<MemBuf> v = mem_buffers(tr, G ? 1 : 0, G ? G : 1);
            size_t pred = 0, pred2 = 0;
            for (const MemBuf &b : v) {
                pred += b.bytes;
                pred2 += (b.bytes + (2u << 20) - 1) / (2u << 20) * (2u << 20);
            }
            if (pred + (64u << 20) > fr) {
                printf("%s %s G=%lld: %zu bytes do not fit; skipped\n", base, G ? "mxint8" : "bf16", (long long)G, pred);
                continue;
            }
            for (int mode = 0; mode < 2; mode++) {
                size_t na = 0;
                long long meas = mem_measure(v, mode, &na);
                size_t p2 = mode == 0 ? pred2 : ((pred + 255) / 256 * 256 + (2u << 20) - 1) / (2u << 20) * (2u << 20);
                double d = 100.0 * ((double)meas - (double)pred) / (double)pred;
                double d2 = 100.0 * ((double)meas - (double)p2) / (double)p2;
                fprintf(f, "%s,%s,%s,%lld,%s,%zu,%zu,%zu,%lld,%.4f,%.4f\n", g_card.c_str(), base, G ? "mxint8" : "bf16",
                        (long long)G, mode ? "arena" : "per_tensor", na, pred, p2, meas, d, d2);
                printf("%-24s %-6s G=%-3lld %-10s %6zu allocs  predicted %13zu  measured %13lld  (%+.3f%%; 2 MiB pages %+.3f%%)\n",
                       base, G ? "mxint8" : "bf16", (long long)G, mode ? "arena" : "per_tensor", na, pred, meas, d, d2);
            }
        }
        mxsim_trace_free(tr);
    }
    mxsim_ctx_destroy(ctx);
    if (fclose(f) != 0) rc = 1;
    return rc;
}

/* bench-prefill OUTDIR: the prefill shapes only, cuBLAS bf16 and the Hopper kernels (cfg 8; cfg 11 at
** G <= 64) in the same run, cold L2 as in bench; MXK_PREFILL_VARIANTS = "V[,V...]" with V a value of the kernel's
** MXK_WG_DEBUG timing switches (0: the kernel as it is; 1: no promotion, ...), each timed on the
** same data.  Writes OUTDIR/bench_prefill.csv. */
static int cmd_bench_prefill(const char *outdir)
{
    FILE *f = open_csv(outdir, "bench_prefill.csv", "card,M,N,K,G,method,variant,median_us,ratio_vs_bf16");
    if (!f) return 1;
    std::vector<std::string> vars;
    {
        const char *e = getenv("MXK_PREFILL_VARIANTS");
        std::string v = e ? e : "0";
        size_t p0 = 0;
        while (p0 <= v.size()) {
            size_t p1 = v.find(',', p0);
            if (p1 == std::string::npos) p1 = v.size();
            if (p1 > p0) vars.push_back(v.substr(p0, p1 - p0));
            p0 = p1 + 1;
        }
    }
    cublasHandle_t cb;
    CKB(cublasCreate(&cb));
    size_t ws_bytes = 64u << 20;
    DBuf<uint8_t> ws(ws_bytes);
    CKB(cublasSetWorkspace(cb, ws.p, ws_bytes));
    const int64_t shapes[][3] = {{2048, 4096, 4096}, {2048, 11008, 4096}, {8192, 8192, 8192}};
    for (const auto &sh : shapes) {
        const int64_t M = sh[0], N = sh[1], K = sh[2];
        double bf16_us;
        {
            const Bf16Sets S(M, N, K);
            DBuf<uint16_t> C(M * N);
            bf16_us = median_us([&](int i) { cublas_bf16(cb, S, i, M, N, K, C.p); }, S.ns);
            fprintf(f, "%s,%lld,%lld,%lld,0,cublas-bf16,-,%.3f,1.000\n", g_card.c_str(), (long long)M, (long long)N,
                    (long long)K, bf16_us);
            printf("%lldx%lldx%lld cublas-bf16 %.2f us\n", (long long)M, (long long)N, (long long)K, bf16_us);
        }
        for (int64_t G : {32, 64, 128}) {
            const MxSets S(M, N, K, G);
            DBuf<float> C(M * N);
            for (const std::string &v : vars) {
                setenv("MXK_WG_DEBUG", v.c_str(), 1);
                const double us = median_us(
                    [&](int i) { CK(mxk_gemm(M, N, K, G, S.Am[i].p, S.Ae[i].p, S.Bm[i].p, S.Be[i].p, C.p, 8, 0)); }, S.ns);
                fprintf(f, "%s,%lld,%lld,%lld,%lld,mxk-cfg8,%s,%.3f,%.3f\n", g_card.c_str(), (long long)M, (long long)N,
                        (long long)K, (long long)G, v.c_str(), us, bf16_us / us);
                fflush(f);
                printf("%lldx%lldx%lld G=%-4lld %-10s %9.2f us  x%.3f\n", (long long)M, (long long)N, (long long)K,
                       (long long)G, v.c_str(), us, bf16_us / us);
            }
            unsetenv("MXK_WG_DEBUG");
            if (G <= 64) { /* the bf16 Hopper kernel (cfg 11) on the same data */
                const double us = median_us(
                    [&](int i) { CK(mxk_gemm(M, N, K, G, S.Am[i].p, S.Ae[i].p, S.Bm[i].p, S.Be[i].p, C.p, 11, 0)); }, S.ns);
                fprintf(f, "%s,%lld,%lld,%lld,%lld,mxk-cfg11,-,%.3f,%.3f\n", g_card.c_str(), (long long)M, (long long)N,
                        (long long)K, (long long)G, us, bf16_us / us);
                fflush(f);
                printf("%lldx%lldx%lld G=%-4lld cfg11      %9.2f us  x%.3f\n", (long long)M, (long long)N, (long long)K,
                       (long long)G, us, bf16_us / us);
            }
        }
    }
    cublasDestroy(cb);
    fclose(f);
    return 0;
}

static void usage()
{
    fprintf(stderr,
            "usage: mxsim-gpu info | dequant IN.npz OUT.npy | quantize IN.npy G OUT.npz |\n"
            "                 gemm A.npz B.npz OUT.npy | verify OUTDIR | bench OUTDIR | golden OUTDIR |\n"
            "                 bench-dequant OUTDIR | bench-prefill OUTDIR |\n"
            "                 perf M N K G [cfg]   (env MXK_PERF_COLD=1: B out of L2; MXK_DS_TRACE=1: cfg 9 timeline;\n"
            "                                       MXK_DR_TRACE=1: cfg 12 per-row stamps) |\n"
            "                 memory OUT.csv TRACE...\n"
            "environment switches (timing experiments and diagnostics; checked before any device work):\n");
    for (const EnvKnob &k : k_env_knobs)
        if (k.presence) fprintf(stderr, "  %-24s 1 or unset: %s\n", k.name, k.what);
        else fprintf(stderr, "  %-24s %s[%ld, %ld]: %s\n", k.name, k.list ? "list of " : "", k.lo, k.hi, k.what);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    if (env_knobs_ok()) return 2;
    if (std::string(argv[1]) == "perf" && (argc == 6 || argc == 7) && perf_args_ok(argc, argv)) return 2;
    cudaDeviceProp prop;
    if (tool_device("mxsim-gpu", 0, &prop)) return 1;
    g_card = prop.name;
    for (char &ch : g_card)
        if (ch == ',') ch = ' ';
    g_l2 = (size_t)prop.l2CacheSize;
    g_sms = prop.multiProcessorCount;
    const std::string cmd = argv[1];
    int cap_cc = 0, cap_sms = 0, cap_smem = 0;
    if (mxk_device_caps(&cap_cc, &cap_sms, &cap_smem) != 0) {
        fprintf(stderr, "mxsim-gpu: the device's limits could not be read\n");
        return 1;
    }
    /* rows measured under another card's limits must not pass for this card's */
    if (getenv("MXK_EMULATE") && *getenv("MXK_EMULATE")) g_card += std::string(" emulating ") + getenv("MXK_EMULATE");
    if (cmd == "info") {
        printf("%s: cc %d.%d, %d SMs, L2 %d bytes, %.1f GiB\n", prop.name, prop.major, prop.minor,
               prop.multiProcessorCount, prop.l2CacheSize, prop.totalGlobalMem / 1073741824.0);
        if (getenv("MXK_EMULATE") && *getenv("MXK_EMULATE"))
            printf("kernels limited as on an emulated %s (MXK_EMULATE): cc %d.%d, %d bytes of shared memory per block\n",
                   getenv("MXK_EMULATE"), cap_cc / 10, cap_cc % 10, cap_smem);
        return 0;
    }
    if (cmd == "verify" && argc == 3) return cmd_verify(argv[2]);
    if (cmd == "bench" && argc == 3) return cmd_bench(argv[2]);
    if (cmd == "bench-dequant" && argc == 3) return cmd_bench_dequant(argv[2]);
    if (cmd == "bench-prefill" && argc == 3) return cmd_bench_prefill(argv[2]);
    if (cmd == "golden" && argc == 3) return cmd_golden(argv[2]);
    if (cmd == "memory" && argc >= 4) return cmd_memory(argv[2], argc - 3, argv + 3);
    if (cmd == "perf" && (argc == 6 || argc == 7))
        return cmd_perf(atoll(argv[2]), atoll(argv[3]), atoll(argv[4]), atoll(argv[5]), argc == 7 ? atoi(argv[6]) : 0);
    mxsim_ctx *ctx = new_ctx();
    int rc = 2;
    if (cmd == "dequant" && argc == 4) rc = run_dequant_file(ctx, argv[2], argv[3]);
    else if (cmd == "quantize" && argc == 5) rc = run_quantize_file(ctx, argv[2], atoll(argv[3]), argv[4]);
    else if (cmd == "gemm" && argc == 5) rc = run_gemm_file(ctx, argv[2], argv[3], argv[4]);
    else usage();
    mxsim_ctx_destroy(ctx);
    return rc;
}

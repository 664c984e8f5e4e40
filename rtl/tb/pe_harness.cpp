// pe_harness.cpp - Verilator harness of the MX processing-element array (rtl/src/mx_array.v) and its
// shared-exponent unit (rtl/src/mx_exp_unit.v) against libmxsim through its C ABI (sim/doc/rtl.md
// section 7).
//
//   rtl_pe_tb --exp N --model EXPMODEL [--seed S] [--expect-fail bits]
//       N random and edge (d, E_A, E_B, acc) tuples through the exponent unit alone.  Each tuple is
//       two operations on one accumulator: (d0, E_A0, E_B0) from +0, which makes acc, then
//       (d1, E_A1, E_B1); both results must equal mxsim_gemm_raw (fp32 mode, G = 1024) on one and
//       on two groups, bit for bit (NaN by class).  d is built from 1024 int8 products, so
//       |d| <= 16,760,832 (all of int32's d for G <= 1023).
//   rtl_pe_tb --array N --model ARRAYMODEL [--seed S] [--csv FILE] [--expect-fail bits|timing]
//       N random configurations (R, C in {2,4,8}; L, load_lanes in {1,2,4,8}; G in {8,16,32,64};
//       II, latency; the model's sharing), each an OS GEMM of M <= R, N <= C (one fold), K = groups
//       x G, with random and edge operands.  Every output must equal mxsim_gemm_raw (fp32) bit for
//       bit; the fold's cycles must EQUAL mxsim_time_op's (detail = 0 and 1, which must agree):
//       RTL total = cycles_compute + cycles_lane_limit + cycles_fill_drain + cycles_exp_stall, and
//       each term apart (RTL beats = compute + lane limit), and
//       the exponent operations = n_exp_ops.  --csv appends one row per configuration.
//       --any-shape draws L, load_lanes in 1..8 and G in {8, 12, 16, 24, 32, 40, 48, 64} instead
//       (beat widths that do not divide G: a group's last beat is partial).
//   rtl_pe_tb --array N --config FILE --model ARRAYMODEL [--seed S] [--csv FILE]
//       the same with the array, L, load_lanes, G, II and latency of a configuration file (e.g. the
//       bundled workloads/configs/small.ini on model arr_small): it must be OS, MXINT8, fp32
//       accumulation, the model's sharing and fit the model; M, N, the groups and operands are drawn.
//   rtl_pe_tb --list
// Exit: 0 pass ("*-* MXSIM PASS *-*"), 1 a mismatch or a cycle difference, 2 usage or setup error.
// --expect-fail: exit 0 only if the run failed with the named kind (injected-bug models).
#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter" // Verilator's headers, not ours
#include "verilated.h"
#include "pe_models.h" // the verilated models and PE_EXP_MODELS(X), PE_ARRAY_MODELS(X)
#pragma GCC diagnostic pop
#include "mxsim.h"

namespace {

template <std::size_t N> void put_bits(VlWide<N> &p, const std::vector<uint32_t> &w)
{
    for (std::size_t i = 0; i < N; i++) p[i] = i < w.size() ? w[i] : 0;
}
[[maybe_unused]] void put_bits(QData &p, const std::vector<uint32_t> &w)
{
    p = w[0] | (w.size() > 1 ? static_cast<QData>(w[1]) << 32 : 0);
}
[[maybe_unused]] void put_bits(IData &p, const std::vector<uint32_t> &w) { p = w[0]; }
[[maybe_unused]] void put_bits(SData &p, const std::vector<uint32_t> &w) { p = static_cast<SData>(w[0]); }
[[maybe_unused]] void put_bits(CData &p, const std::vector<uint32_t> &w) { p = static_cast<CData>(w[0]); }
template <std::size_t N> uint32_t word(const VlWide<N> &p, int i) { return p[i]; }
[[maybe_unused]] uint32_t word(const QData &p, int i) { return static_cast<uint32_t>(p >> (32 * i)); }
[[maybe_unused]] uint32_t word(const IData &p, int) { return p; }

void set_byte(std::vector<uint32_t> &w, int i, uint8_t v)
{
    w[i / 4] = (w[i / 4] & ~(0xFFu << (8 * (i % 4)))) | (static_cast<uint32_t>(v) << (8 * (i % 4)));
}

bool f32_nan(uint32_t b) { return (b & 0x7F800000u) == 0x7F800000u && (b & 0x7FFFFFu) != 0; }
bool f32_same(uint32_t a, uint32_t b) { return a == b || (f32_nan(a) && f32_nan(b)); }
bool bf16_nan(uint32_t b) { return (b & 0x7F80u) == 0x7F80u && (b & 0x7Fu) != 0; }
uint32_t f32_bits(float f)
{
    uint32_t b;
    std::memcpy(&b, &f, 4);
    return b;
}

struct Verdict {
    int64_t checked = 0, bits = 0, timing = 0, printed = 0;
};

// ================================ the exponent unit alone ================================
constexpr int kG = 1024;

// Mantissas of one group with sum_k a_k * b_k = d against the fixed B row b = (-128 x 1023, 1):
// d = -128 * S + l, S = sum of a_0..a_1022, l = a_1023 in [-128, 127].
void build_d(int64_t d, int8_t *a)
{
    int64_t S = -static_cast<int64_t>(std::floor((static_cast<double>(d) + 128.0) / 128.0));
    int64_t l = d + 128 * S;
    for (int k = 0; k < kG - 1; k++) {
        int64_t v = S > 127 ? 127 : S < -128 ? -128 : S;
        a[k] = static_cast<int8_t>(v);
        S -= v;
    }
    a[kG - 1] = static_cast<int8_t>(l);
}
constexpr int64_t kDMax = 128LL * 1023 * 127; // both signs reachable up to this

struct ExpTuple {
    int32_t d0, d1;
    uint8_t ea0, ea1;
};

template <class M> int run_exp(const char *name, int64_t n, uint64_t seed, Verdict &v)
{
    std::mt19937_64 rng(seed);
    auto ctx = std::make_unique<VerilatedContext>();
    auto m = std::make_unique<M>(ctx.get());
    mxsim_ctx *mx = nullptr;
    if (mxsim_ctx_create(&mx) != MXSIM_OK) return 2;
    mxsim_ctx_set_threads(mx, 1);
    auto u = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    static const uint8_t edge_e[] = {0, 1, 2, 3, 100, 126, 127, 128, 133, 134, 140, 200, 253, 254, 255};
    auto rand_e = [&]() -> uint8_t {
        int64_t r = u(0, 9); // uniform; the band where terms are normal numbers; edges
        return r < 4 ? static_cast<uint8_t>(u(0, 255)) : r < 7 ? static_cast<uint8_t>(u(100, 160))
                                                               : edge_e[u(0, sizeof edge_e - 1)];
    };
    auto rand_d = [&]() -> int64_t {
        switch (u(0, 9)) {
        case 0: case 1: case 2: case 3: return u(-kDMax, kDMax);
        case 4: case 5: return u(-300, 300);
        case 6: { int64_t p = int64_t(1) << u(0, 23); return (u(0, 1) ? 1 : -1) * (p + u(-1, 1)); }
        case 7: return static_cast<int64_t>((u(0, 1) ? 1 : -1) * std::ldexp(1.0, static_cast<int>(u(0, 23))) *
                                            std::uniform_real_distribution<double>(1, 2)(rng));
        case 8: return u(0, 1) ? kDMax : -kDMax;
        default: return u(0, 4) ? u(-16777, 16777) * 1000 + u(-1, 1) : 0;
        }
    };
    const int batch = 256;
    std::vector<int8_t> a1(static_cast<size_t>(batch) * kG), a2(static_cast<size_t>(batch) * 2 * kG);
    std::vector<int8_t> b1(kG, -128), b2(2 * kG, -128);
    b1[kG - 1] = 1;
    b2[kG - 1] = 1;
    b2[2 * kG - 1] = 1;
    std::vector<uint8_t> ae1(batch), ae2(2 * batch);
    std::vector<float> c1(batch), c2(batch);
    std::vector<ExpTuple> tu(batch);
    m->clk = 0;
    m->clr = 1;
    m->cfg_ii = 1;
    m->cfg_lat = 0;
    m->in_v = 0;
    m->eval();
    auto tick = [&]() {
        m->clk = 1;
        m->eval();
        m->clk = 0;
        m->eval();
    };
    tick();
    m->clr = 0;
    int64_t nan_n = 0, inf_n = 0, sub_n = 0, zero_n = 0;
    for (int64_t done = 0; done < n; done += batch) {
        uint8_t eb0 = rand_e(), eb1 = rand_e();
        for (int i = 0; i < batch; i++) {
            ExpTuple &t = tu[i];
            int64_t d0 = rand_d(), d1 = rand_d();
            t.ea0 = rand_e();
            t.ea1 = rand_e();
            int64_t kind = u(0, 9);
            if (kind <= 1) { // the same scale: exact cancellation and near-cancellation
                int s = t.ea0 + eb0 - eb1;
                if (s >= 0 && s <= 254) {
                    t.ea1 = static_cast<uint8_t>(s);
                    d1 = kind == 0 ? -d0 : -d0 + u(-3, 3);
                }
            } else if (kind == 2) { // exponents a few apart: the adder's alignment
                int s = t.ea0 + eb0 - eb1 + static_cast<int>(u(-30, 30));
                if (s >= 0 && s <= 254) t.ea1 = static_cast<uint8_t>(s);
                d1 = -d0 / (1 + u(0, 3)) + u(-2, 2);
            }
            d0 = d0 > kDMax ? kDMax : d0 < -kDMax ? -kDMax : d0;
            d1 = d1 > kDMax ? kDMax : d1 < -kDMax ? -kDMax : d1;
            t.d0 = static_cast<int32_t>(d0);
            t.d1 = static_cast<int32_t>(d1);
            build_d(d0, &a1[static_cast<size_t>(i) * kG]);
            std::memcpy(&a2[static_cast<size_t>(i) * 2 * kG], &a1[static_cast<size_t>(i) * kG], kG);
            build_d(d1, &a2[static_cast<size_t>(i) * 2 * kG + kG]);
            ae1[i] = t.ea0;
            ae2[2 * i] = t.ea0;
            ae2[2 * i + 1] = t.ea1;
        }
        uint8_t be1[1] = {eb0}, be2[2] = {eb0, eb1};
        if (mxsim_gemm_raw(mx, batch, 1, kG, kG, a1.data(), ae1.data(), b1.data(), be1, MXSIM_ACC_FP32, c1.data()) !=
                MXSIM_OK ||
            mxsim_gemm_raw(mx, batch, 1, 2 * kG, kG, a2.data(), ae2.data(), b2.data(), be2, MXSIM_ACC_FP32,
                           c2.data()) != MXSIM_OK) {
            std::printf("mxsim_gemm_raw: %s\n", mxsim_errmsg(mx));
            mxsim_ctx_destroy(mx);
            return 2;
        }
        for (int i = 0; i < batch && done + i < n; i++) {
            const ExpTuple &t = tu[i];
            uint32_t r[2];
            m->clr = 1;
            m->in_v = 0;
            tick();
            m->clr = 0;
            for (int k = 0; k < 2; k++) {
                m->in_v = 1;
                m->in_d = static_cast<uint32_t>(k ? t.d1 : t.d0);
                m->in_ea = k ? t.ea1 : t.ea0;
                m->in_eb = k ? eb1 : eb0;
                tick();
                m->in_v = 0;
                r[k] = m->acc;
            }
            uint32_t ref[2] = {f32_bits(c1[i]), f32_bits(c2[i])};
            for (int k = 0; k < 2; k++) {
                v.checked++;
                uint32_t e = (ref[k] >> 23) & 0xFF;
                if (f32_nan(ref[k])) nan_n++;
                else if (e == 0xFF) inf_n++;
                else if (e == 0 && (ref[k] & 0x7FFFFF)) sub_n++;
                else if ((ref[k] & 0x7FFFFFFF) == 0) zero_n++;
                if (!f32_same(r[k], ref[k])) {
                    v.bits++;
                    if (v.printed++ < 10)
                        std::printf("  MISMATCH op %d: d0=%d E=(%u,%u) d1=%d E=(%u,%u): rtl %08x, mxsim %08x\n", k,
                                    t.d0, t.ea0, eb0, t.d1, t.ea1, eb1, r[k], ref[k]);
                }
            }
        }
    }
    if (m->err) {
        v.timing++;
        std::printf("  the unit flagged an arbitration error\n");
    }
    std::printf("%s: %" PRId64 " tuples, %" PRId64 " results compared (%" PRId64 " NaN, %" PRId64 " Inf, %" PRId64
                " subnormal, %" PRId64 " zero): %" PRId64 " mismatches\n",
                name, n, v.checked, nan_n, inf_n, sub_n, zero_n, v.bits);
    m->final();
    mxsim_ctx_destroy(mx);
    return 0;
}

// ================================ the array ================================
bool g_any_shape = false; // --any-shape: L, load_lanes in 1..8 and G in {8, 12, ..., 64}
// --config FILE: the array, lanes, load lanes, G, II and latency of a configuration file; M, N
// (full tile or smaller), the group count and the operands are still drawn.
const mxsim_tconfig *g_fixed = nullptr;

struct ArrayCfg {
    int R, C, L, LL, G, II, lat, share, M, N, ng;
};

struct ModelCycles {
    int64_t compute, fd, stall, total, exp_ops, tiles, folds;
};

int time_model(mxsim_ctx *mx, const ArrayCfg &c, int detail, ModelCycles &o)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    cfg.array_rows = c.R;
    cfg.array_cols = c.C;
    cfg.pe_lanes = c.L;
    cfg.load_lanes = c.LL;
    cfg.group_size = c.G;
    cfg.operand_format = MXSIM_FMT_MXINT8;
    cfg.dataflow = MXSIM_DF_OS;
    cfg.exp_share = c.share;
    cfg.exp_ii_cycles = c.II;
    cfg.exp_latency_cycles = c.lat;
    cfg.acc_mode = MXSIM_ACC_FP32;
    cfg.sram_a_kib = cfg.sram_b_kib = cfg.sram_c_kib = 1024;
    cfg.dram_bw_bytes_per_cycle = 65536;
    cfg.dram_latency_cycles = 0;
    cfg.out_format = MXSIM_OUT_FP32;
    cfg.tile_m = c.M;
    cfg.tile_n = c.N;
    cfg.tile_k = static_cast<int64_t>(c.ng) * c.G;
    if (mxsim_tconfig_validate(mx, &cfg) != MXSIM_OK) return 2;
    mxsim_top op;
    std::memset(&op, 0, sizeof op);
    op.kind = MXSIM_OP_GEMM;
    std::snprintf(op.name, sizeof op.name, "rtl");
    op.m = c.M;
    op.n = c.N;
    op.k = static_cast<int64_t>(c.ng) * c.G;
    op.group_size = c.G;
    op.repeat = 1;
    op.a_fmt = op.b_fmt = MXSIM_FMT_MXINT8;
    op.out_fmt = MXSIM_OUT_FP32;
    mxsim_tstats st;
    if (mxsim_time_op(mx, &cfg, &op, "rtl_pe_tb", detail, nullptr, &st) != MXSIM_OK) return 2;
    // The RTL's beat cycles are the model's compute plus lane-limit cycles (beats narrower than L,
    // the load path's limit): the model attributes them apart, the datapath runs them alike.
    const int64_t beats = st.cycles_compute + st.cycles_lane_limit;
    o = {beats, st.cycles_fill_drain, st.cycles_exp_stall, beats + st.cycles_fill_drain + st.cycles_exp_stall,
         st.n_exp_ops, st.n_tiles, st.n_folds};
    return 0;
}

struct ArrayModelInfo {
    const char *name;
    int R, C, L, share, lat_max;
    const char *bug;
};

template <class M> int run_array(const ArrayModelInfo &mi, int64_t n, uint64_t seed, const char *csv, Verdict &v)
{
    std::mt19937_64 rng(seed);
    auto u = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    auto ctx = std::make_unique<VerilatedContext>();
    auto m = std::make_unique<M>(ctx.get());
    mxsim_ctx *mx = nullptr;
    if (mxsim_ctx_create(&mx) != MXSIM_OK) return 2;
    mxsim_ctx_set_threads(mx, 1);
    FILE *fc = nullptr;
    if (csv) {
        fc = std::fopen(csv, "a");
        if (!fc) {
            std::printf("cannot open %s\n", csv);
            return 2;
        }
    }
    if (g_fixed) {
        const mxsim_tconfig &f = *g_fixed;
        const char *why = f.dataflow != MXSIM_DF_OS             ? "dataflow is not os"
                          : f.operand_format != MXSIM_FMT_MXINT8 ? "mx.operand_format is not mxint8"
                          : f.acc_mode != MXSIM_ACC_FP32         ? "exp.acc_mode is not fp32"
                          : f.exp_share != mi.share              ? "exp.share differs from the model's"
                          : f.array_rows > mi.R || f.array_cols > mi.C || f.pe_lanes > mi.L
                              ? "the array or pe.lanes exceed the model's"
                          : f.exp_latency_cycles > mi.lat_max ? "exp.latency_cycles exceeds the model's LAT_MAX"
                          : f.group_size > 65535 || f.load_lanes > 255 || f.exp_ii_cycles > 255
                              ? "a field exceeds the RTL's configuration ports"
                              : nullptr;
        if (why) {
            std::printf("--config: %s (model %s: %dx%d, L=%d, share %d, LAT_MAX %d; the RTL covers OS, "
                        "MXINT8 operands and fp32 accumulation)\n",
                        why, mi.name, mi.R, mi.C, mi.L, mi.share, mi.lat_max);
            return 2;
        }
    }
    static const int dims[] = {2, 4, 8}, lanes[] = {1, 2, 4, 8}, gs[] = {8, 16, 32, 64};
    static const int iis[] = {1, 1, 2, 3, 4, 8}, lats[] = {0, 0, 1, 2, 3, 5, 8, 15};
    const int words_a = (mi.R * 8 * mi.L + 31) / 32, words_b = (mi.C * 8 * mi.L + 31) / 32;
    std::vector<uint32_t> wa(words_a), wb(words_b), wae((mi.R * 8 + 31) / 32), wbe((mi.C * 8 + 31) / 32);
    int64_t tot_out = 0, tot_cyc = 0, cyc_diff_cfgs = 0;
    for (int64_t ci = 0; ci < n; ci++) {
        ArrayCfg c;
        c.R = std::min(dims[u(0, 2)], mi.R); // a smaller built array (the bug models) caps the draw
        c.C = std::min(dims[u(0, 2)], mi.C);
        c.L = std::min(lanes[u(0, 3)], mi.L);
        c.LL = lanes[u(0, 3)];
        c.G = gs[u(0, 3)];
        if (g_any_shape) { // widths that do not divide G: partial last beats
            static const int gx[] = {8, 12, 16, 24, 32, 40, 48, 64};
            c.L = static_cast<int>(u(1, mi.L));
            c.LL = static_cast<int>(u(1, 8));
            c.G = gx[u(0, 7)];
        }
        c.II = iis[u(0, 5)];
        c.lat = lats[u(0, 7)];
        if (c.lat > mi.lat_max) c.lat = mi.lat_max;
        c.share = mi.share;
        if (g_fixed) { // the draws above still run, so a seed's operand stream does not depend on it
            c.R = static_cast<int>(g_fixed->array_rows);
            c.C = static_cast<int>(g_fixed->array_cols);
            c.L = static_cast<int>(g_fixed->pe_lanes);
            c.LL = static_cast<int>(g_fixed->load_lanes);
            c.G = static_cast<int>(g_fixed->group_size);
            c.II = static_cast<int>(g_fixed->exp_ii_cycles);
            c.lat = static_cast<int>(g_fixed->exp_latency_cycles);
        }
        c.M = u(0, 1) ? c.R : static_cast<int>(u(1, c.R));
        c.N = u(0, 1) ? c.C : static_cast<int>(u(1, c.C));
        c.ng = static_cast<int>(u(1, 6));
        const int K = c.ng * c.G, w = std::min(c.L, c.LL), nG = c.ng;
        // operands: mantissas random / all -128 / small; scales random or edge; some rows cancel
        std::vector<int8_t> am(static_cast<size_t>(c.M) * K), bm(static_cast<size_t>(c.N) * K);
        std::vector<uint8_t> ae(static_cast<size_t>(c.M) * nG), be(static_cast<size_t>(c.N) * nG);
        static const uint8_t edge_e[] = {0, 1, 127, 133, 254, 255};
        int mode = static_cast<int>(u(0, 5));
        auto mant = [&]() -> int8_t {
            if (mode == 1) return -128;
            if (mode == 2) return static_cast<int8_t>(u(-2, 2));
            if (mode == 3) return u(0, 1) ? -128 : 127;
            return static_cast<int8_t>(u(-128, 127));
        };
        for (auto &x : am) x = mant();
        for (auto &x : bm) x = mant();
        auto scale = [&]() -> uint8_t {
            if (mode == 4) return static_cast<uint8_t>(u(0, 4) ? u(0, 20) : u(0, 255)); // subnormal terms
            if (mode == 5) return static_cast<uint8_t>(u(0, 4) ? u(240, 254) : u(0, 255)); // overflow
            int64_t r = u(0, 15);
            if (r == 0) return edge_e[u(0, 5)];
            if (r == 1) return 255;
            return static_cast<uint8_t>(u(110, 150));
        };
        for (auto &x : ae) x = scale();
        for (auto &x : be) x = scale();
        if (nG >= 2 && u(0, 2) == 0) { // cancellation: group 1 of every A row is -group 0, same scale
            for (int i = 0; i < c.M; i++)
                for (int k = 0; k < c.G; k++) {
                    int8_t x = am[static_cast<size_t>(i) * K + k];
                    am[static_cast<size_t>(i) * K + c.G + k] = static_cast<int8_t>(x == -128 ? 127 : -x);
                }
            for (int j = 0; j < c.N; j++)
                for (int k = 0; k < c.G; k++) bm[static_cast<size_t>(j) * K + c.G + k] = bm[static_cast<size_t>(j) * K + k];
            for (int i = 0; i < c.M; i++) ae[static_cast<size_t>(i) * nG + 1] = ae[static_cast<size_t>(i) * nG];
            for (int j = 0; j < c.N; j++) be[static_cast<size_t>(j) * nG + 1] = be[static_cast<size_t>(j) * nG];
        }
        std::vector<float> ref(static_cast<size_t>(c.M) * c.N);
        if (mxsim_gemm_raw(mx, c.M, c.N, K, c.G, am.data(), ae.data(), bm.data(), be.data(), MXSIM_ACC_FP32,
                           ref.data()) != MXSIM_OK) {
            std::printf("mxsim_gemm_raw: %s\n", mxsim_errmsg(mx));
            return 2;
        }
        ModelCycles mc0, mc1;
        if (time_model(mx, c, 0, mc0) || time_model(mx, c, 1, mc1)) {
            std::printf("mxsim_time_op: %s\n", mxsim_errmsg(mx));
            return 2;
        }
        // ---- the RTL ----
        m->clk = 0;
        m->cfg_rows = static_cast<uint8_t>(c.R);
        m->cfg_cols = static_cast<uint8_t>(c.C);
        m->cfg_mr = static_cast<uint8_t>(c.M);
        m->cfg_mc = static_cast<uint8_t>(c.N);
        m->cfg_w = static_cast<uint8_t>(w);
        m->cfg_g = static_cast<uint16_t>(c.G);
        m->cfg_ng = static_cast<uint16_t>(nG);
        m->cfg_ii = static_cast<uint8_t>(c.II);
        m->cfg_lat = static_cast<uint8_t>(c.lat);
        m->start = 1;
        m->eval();
        m->clk = 1;
        m->eval();
        m->start = 0;
        int64_t cyc = 0, rel = 0, mis = 0;
        const int64_t cap = 100000;
        for (;;) {
            m->clk = 0;
            m->eval();
            if (m->done) break;
            // the load path: lanes of the beat, junk above ld_n
            for (auto &x : wa) x = static_cast<uint32_t>(rng());
            for (auto &x : wb) x = static_cast<uint32_t>(rng());
            for (auto &x : wae) x = static_cast<uint32_t>(rng());
            for (auto &x : wbe) x = static_cast<uint32_t>(rng());
            if (m->ld_v) {
                rel++;
                int64_t k0 = m->ld_k, nl = m->ld_n, g = k0 / c.G;
                for (int i = 0; i < c.M; i++) {
                    for (int l = 0; l < nl; l++)
                        set_byte(wa, i * mi.L + l, static_cast<uint8_t>(am[static_cast<size_t>(i) * K + k0 + l]));
                    set_byte(wae, i, ae[static_cast<size_t>(i) * nG + g]);
                }
                for (int j = 0; j < c.N; j++) {
                    for (int l = 0; l < nl; l++)
                        set_byte(wb, j * mi.L + l, static_cast<uint8_t>(bm[static_cast<size_t>(j) * K + k0 + l]));
                    set_byte(wbe, j, be[static_cast<size_t>(j) * nG + g]);
                }
            }
            put_bits(m->ld_a, wa);
            put_bits(m->ld_b, wb);
            put_bits(m->ld_ae, wae);
            put_bits(m->ld_be, wbe);
            m->eval();
            m->clk = 1;
            m->eval();
            if (++cyc > cap) break;
        }
        for (int i = 0; i < c.M; i++) {
            m->rd_row = static_cast<uint8_t>(i);
            m->eval();
            for (int j = 0; j < c.N; j++) {
                uint32_t got = word(m->rd_data, j), want = f32_bits(ref[static_cast<size_t>(i) * c.N + j]);
                v.checked++;
                if (!f32_same(got, want)) {
                    mis++;
                    if (v.printed++ < 10)
                        std::printf("  MISMATCH cfg %" PRId64 " C[%d,%d]: rtl %08x, mxsim %08x\n", ci, i, j, got, want);
                }
                // the bf16 port against the library's output rounding of the same reference
                const uint32_t gb = (word(m->rd_bf16, j / 2) >> (16 * (j % 2))) & 0xFFFFu;
                const uint32_t wb16 = mxsim_f32_to_bf16(ref[static_cast<size_t>(i) * c.N + j]);
                v.checked++;
                if (!(gb == wb16 || (bf16_nan(gb) && bf16_nan(wb16)))) {
                    mis++;
                    if (v.printed++ < 10)
                        std::printf("  MISMATCH cfg %" PRId64 " C[%d,%d] bf16: rtl %04x, mxsim %04x\n", ci, i, j, gb, wb16);
                }
            }
        }
        v.bits += mis;
        tot_out += static_cast<int64_t>(c.M) * c.N;
        const int64_t rt = m->cnt_total, rc = m->cnt_compute, rf = m->cnt_fd, rs = m->cnt_stall, ro = m->cnt_exp_ops;
        bool tbad = m->err || cyc > cap || rt != mc0.total || rc != mc0.compute || rf != mc0.fd || rs != mc0.stall ||
                    ro != mc0.exp_ops || rt != cyc || rc != rel;
        bool engines = mc0.total != mc1.total || mc0.compute != mc1.compute || mc0.fd != mc1.fd ||
                       mc0.stall != mc1.stall || mc0.exp_ops != mc1.exp_ops || mc0.tiles != 1 || mc0.folds != 1;
        if (tbad) {
            v.timing++;
            cyc_diff_cfgs++;
        }
        tot_cyc += rt;
        static const char *shn[] = {"pe", "row", "col"};
        if (tbad || engines || mis || ci < 3)
            std::printf("  cfg %" PRId64 ": %dx%d L=%d load=%d G=%d II=%d lat=%d %s M=%d N=%d K=%d: rtl %" PRId64
                        " = %" PRId64 "+%" PRId64 "+%" PRId64 " (%" PRId64 " ops%s), mxsim %" PRId64 " = %" PRId64
                        "+%" PRId64 "+%" PRId64 " (%" PRId64 " ops) detail %" PRId64 "%s%s\n",
                        ci, c.R, c.C, c.L, c.LL, c.G, c.II, c.lat, shn[c.share], c.M, c.N, K, rt, rc, rf, rs, ro,
                        m->err ? ", ERR" : "", mc0.total, mc0.compute, mc0.fd, mc0.stall, mc0.exp_ops, mc1.total,
                        tbad ? "  CYCLE DIFFERENCE" : "", mis ? "  OUTPUT MISMATCH" : "");
        if (engines) {
            std::printf("  setup: the two engines disagree or the op is not one tile and fold\n");
            return 2;
        }
        if (fc)
            std::fprintf(fc, "%s,%" PRId64 ",%d,%d,%d,%d,%d,%d,%d,%s,%d,%d,%d,%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64
                             ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 ",%" PRId64 "\n",
                         mi.name, ci, c.R, c.C, c.L, c.LL, c.G, c.II, c.lat, shn[c.share], c.M, c.N, K, rt, rc, rf, rs,
                         ro, mc0.total, mc0.compute, mc0.fd, mc0.stall, mc0.exp_ops, mis);
    }
    if (fc) std::fclose(fc);
    std::printf("%s: %" PRId64 " configurations, %" PRId64 " outputs, %" PRId64 " RTL cycles: %" PRId64
                " output mismatches, %" PRId64" configurations with a cycle difference\n",
                mi.name, n, tot_out, tot_cyc, v.bits, cyc_diff_cfgs);
    m->final();
    mxsim_ctx_destroy(mx);
    return 0;
}

int usage(const char *a0)
{
    std::fprintf(stderr,
                 "usage: %s (--exp N | --array N [--any-shape | --config FILE]) --model NAME [--seed S] [--csv FILE] [--expect-fail bits|timing]"
                 " | --list\n",
                 a0);
    return 2;
}

// A whole option value (strtoll read "abc" as 0: --array abc ran 0 configurations and passed)
bool whole_arg(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *e = nullptr;
    errno = 0;
    const unsigned long long x = std::strtoull(v, &e, 10);
    if (e == v || *e || errno || v[0] == '-' || v[0] == '+' || x < lo || x > hi) {
        std::fprintf(stderr, "%s: '%s' is not a whole number in %llu..%llu\n", opt, v, (unsigned long long)lo,
                     (unsigned long long)hi);
        return false;
    }
    *out = x;
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    const char *name = nullptr, *expect = nullptr, *csv = nullptr, *config = nullptr;
    int64_t n_exp = -1, n_arr = -1;
    uint64_t seed = 1;
    for (int i = 1; i < argc; i++) {
        if (!std::strcmp(argv[i], "--model") && i + 1 < argc) name = argv[++i];
        else if (!std::strcmp(argv[i], "--seed") && i + 1 < argc) {
            if (!whole_arg("--seed", argv[++i], 0, UINT64_MAX, &seed)) return 2;
        } else if ((!std::strcmp(argv[i], "--exp") || !std::strcmp(argv[i], "--array")) && i + 1 < argc) {
            uint64_t x = 0; // at least one: a pass over no case checks nothing
            if (!whole_arg(argv[i], argv[i + 1], 1, 1ull << 40, &x)) return 2;
            (!std::strcmp(argv[i], "--exp") ? n_exp : n_arr) = static_cast<int64_t>(x);
            i++;
        }
        else if (!std::strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
        else if (!std::strcmp(argv[i], "--any-shape")) g_any_shape = true;
        else if (!std::strcmp(argv[i], "--config") && i + 1 < argc) config = argv[++i];
        else if (!std::strcmp(argv[i], "--expect-fail") && i + 1 < argc) expect = argv[++i];
        else if (!std::strcmp(argv[i], "--list")) {
#define PE_LIST_(cls, nm, ...) std::printf("%s\n", nm);
            PE_EXP_MODELS(PE_LIST_)
            PE_ARRAY_MODELS(PE_LIST_)
            return 0;
        } else return usage(argv[0]);
    }
    if (!name || (n_exp < 0) == (n_arr < 0) || (expect && std::strcmp(expect, "bits") && std::strcmp(expect, "timing")))
        return usage(argv[0]);
    mxsim_tconfig fixed;
    if (config) {
        if (n_arr < 0 || g_any_shape) return usage(argv[0]);
        mxsim_ctx *cx = nullptr;
        if (mxsim_ctx_create(&cx) != MXSIM_OK) return 2;
        mxsim_tconfig_default(&fixed);
        const bool ok = mxsim_tconfig_load(cx, &fixed, config) == MXSIM_OK && mxsim_tconfig_validate(cx, &fixed) == MXSIM_OK;
        if (!ok) std::fprintf(stderr, "%s\n", mxsim_errmsg(cx));
        mxsim_ctx_destroy(cx);
        if (!ok) return 2;
        g_fixed = &fixed;
        // out.format is not the RTL's: the array ends at its fp32 accumulators (rtl.md section 0)
        std::printf("%s: %lldx%lld, L=%lld, load_lanes=%lld, G=%lld, II=%lld, latency=%lld; outputs compared at the fp32 and bf16 drain ports\n",
                    config, (long long)fixed.array_rows, (long long)fixed.array_cols, (long long)fixed.pe_lanes,
                    (long long)fixed.load_lanes, (long long)fixed.group_size, (long long)fixed.exp_ii_cycles,
                    (long long)fixed.exp_latency_cycles);
    }
    Verdict v;
    int rc = -1;
#define PE_EXP_(cls, nm, bug)                                                                                      \
    if (rc < 0 && n_exp >= 0 && !std::strcmp(name, nm)) rc = run_exp<cls>(nm, n_exp, seed, v);
    PE_EXP_MODELS(PE_EXP_)
#define PE_ARR_(cls, nm, R, C, L, share, latmax, bug)                                                              \
    if (rc < 0 && n_arr >= 0 && !std::strcmp(name, nm))                                                           \
        rc = run_array<cls>(ArrayModelInfo{nm, R, C, L, share, latmax, bug}, n_arr, seed, csv, v);
    PE_ARRAY_MODELS(PE_ARR_)
    if (rc < 0) {
        std::fprintf(stderr, "unknown model %s for this mode (--list)\n", name);
        return 2;
    }
    if (rc != 0) return rc;
    bool failed = v.bits || v.timing;
    if (expect) {
        bool caught = !std::strcmp(expect, "bits") ? v.bits > 0 : v.timing > 0;
        std::printf("  expected failure (%s): %s\n", expect, caught ? "caught by the harness" : "NOT caught");
        if (caught) std::printf("*-* MXSIM PASS *-* (injected bug caught)\n");
        return caught ? 0 : 1;
    }
    if (!failed) std::printf("*-* MXSIM PASS *-*\n");
    return failed ? 1 : 0;
}

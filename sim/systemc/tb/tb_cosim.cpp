// tb_cosim.cpp - co-simulation of the RTL dequantization unit (rtl/src/mx_dequant.v, Verilated with
// `verilator --sc`) with the C model, inside one SystemC simulation that also holds MxsimAccel.
//
// 1. The driver writes >= 100,000 MXINT8 groups (G = 32) into memory: first every scale byte x
//    every mantissa code (2,048 groups), then groups of edge mantissas (-128, -127, -65, -64, -63,
//    -1, 0, 1, 63, 64, 65, 126, 127, ...) and random ones, the scale cycling through all 256 bytes
//    (0 and 255 included) with extra weight on the edges.
// 2. MxsimAccel dequantizes them (a DEQUANT op per profile, ocp and mase-cuda, over TLM), and the
//    driver checks its STATUS and elapsed time (cycles x period from mxsim_time_op).
// 3. Two RTL instances (cosim.cmake: A = ocp, 16 lanes; B = mase-cuda, 4 lanes) are fed the same
//    groups cycle by cycle through valid/ready, first at full rate, then with random valid bubbles
//    and out_ready backpressure; scale bytes on non-first beats of a group are random (the unit
//    must ignore them).  Every cycle, each output beat that transfers is compared lane by lane with
//    the C model (mxsim_decode_bf16 of that profile; unit A also with microxcaling's decode) and
//    with MxsimAccel's result in memory.  NaNs compare by class.
// 4. At full rate, the unit's cycles from the first input to the last output transfer must equal
//    the timing model's cycles_compute + cycles_fill_drain for that dequant op (same lanes, depth).
// Exit status 0 only with 0 mismatches and every check passed.
//
// Usage: mxsim_sc_cosim --config CFG.ini [--groups N] [--bp-groups N] [--seed S]
#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "Vdq_a.h"
#include "Vdq_b.h"
#include "mxsim_sc.h"
#include "sc_memory.h"

using namespace mxsim_sc;

namespace {

constexpr int64_t kG = 32;
constexpr int64_t kRowLen = 1024;  // elements per row of the dequant op's [rows, 1024] tensor
constexpr uint64_t kMemBase = 0x80000000ull;
constexpr uint64_t kMemSize = 48ull << 20;

struct Rng {
    uint64_t s;
    uint64_t next()
    {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    uint32_t below(uint32_t n) { return static_cast<uint32_t>(next() % n); }
};

bool same_bf16(uint16_t a, uint16_t b)
{
    const bool na = (a & 0x7FFF) > 0x7F80, nb = (b & 0x7FFF) > 0x7F80;
    return na || nb ? na && nb : a == b;
}

// Lane access on the port types Verilator generates: uint32_t, uint64_t or sc_bv<W>.
inline void put8(uint32_t &w, int i, uint32_t v) { w = (w & ~(0xFFu << (8 * i))) | (v & 0xFFu) << (8 * i); }
inline void put8(uint64_t &w, int i, uint32_t v) { w = (w & ~(uint64_t(0xFF) << (8 * i))) | uint64_t(v & 0xFF) << (8 * i); }
template <int W> void put8(sc_dt::sc_bv<W> &w, int i, uint32_t v) { w.range(8 * i + 7, 8 * i) = v & 0xFFu; }
inline uint16_t get16(const uint32_t &w, int i) { return static_cast<uint16_t>(w >> (16 * i)); }
inline uint16_t get16(const uint64_t &w, int i) { return static_cast<uint16_t>(w >> (16 * i)); }
template <int W> uint16_t get16(const sc_dt::sc_bv<W> &w, int i) { return static_cast<uint16_t>(w.range(16 * i + 15, 16 * i).to_uint()); }

template <class P> using port_data_t = typename std::remove_reference_t<P>::data_type;

// The data every unit streams: mantissas, scales, and MxsimAccel's results for each profile.
struct Stream {
    const int8_t *mant = nullptr;
    const uint8_t *scale = nullptr;
    int64_t n_elems = 0;
};

// One Verilated unit, its signals, its stimulus and its checks.
template <class V> class Unit {
public:
    using MantT = port_data_t<decltype(std::declval<V &>().in_mant)>;
    using OutT = port_data_t<decltype(std::declval<V &>().out_bf16)>;
    using ScaleT = port_data_t<decltype(std::declval<V &>().in_scale)>;

    const char *label;
    const int lanes, group_beats, depth;
    const mxsim_profile profile;
    V dut;
    sc_core::sc_signal<bool> rst_n, in_valid, in_ready, out_valid, out_ready;
    sc_core::sc_signal<MantT> in_mant;
    sc_core::sc_signal<ScaleT> in_scale;
    sc_core::sc_signal<OutT> out_bf16;

    // counters
    int64_t beats_in = 0, beats_out = 0, elems_checked = 0;
    int64_t mism_c = 0, mism_mx = 0, mism_accel = 0;
    int64_t first_in_cycle = -1, last_out_cycle = -1, stall_cycles = 0;

    Unit(const char *name, sc_core::sc_clock &clk, int lanes_, int group_beats_, int depth_, mxsim_profile p)
        : label(name), lanes(lanes_), group_beats(group_beats_), depth(depth_), profile(p), dut(name)
    {
        dut.clk(clk);
        dut.rst_n(rst_n);
        dut.in_valid(in_valid);
        dut.in_ready(in_ready);
        dut.in_mant(in_mant);
        dut.in_scale(in_scale);
        dut.out_valid(out_valid);
        dut.out_ready(out_ready);
        dut.out_bf16(out_bf16);
    }

    // Starts streaming elements [first, first + n) of s; accel_out is MxsimAccel's result.
    void start(const Stream &s, int64_t first, int64_t n, const uint16_t *accel_out, bool backpressure)
    {
        s_ = s;
        first_ = first;
        n_beats_ = n / lanes;
        accel_ = accel_out;
        bp_ = backpressure;
        beats_in = beats_out = elems_checked = 0;
        mism_c = mism_mx = mism_accel = 0;
        first_in_cycle = last_out_cycle = -1;
        stall_cycles = 0;
        fired_in_ = true;  // nothing is being offered yet
    }
    bool done() const { return beats_out == n_beats_; }

    void reset(bool on) { rst_n.write(!on); }

    // After a falling edge: the inputs for the next rising edge.
    void drive(Rng &rng)
    {
        if (fired_in_ || !in_valid.read()) {  // a new beat may be offered (valid held until taken)
            const bool offer = beats_in < n_beats_ && (!bp_ || rng.below(4) != 0);
            in_valid.write(offer);
            if (offer) {
                MantT w = MantT();
                const int64_t e0 = first_ + beats_in * lanes;
                for (int l = 0; l < lanes; l++) put8(w, l, static_cast<uint8_t>(s_.mant[e0 + l]));
                in_mant.write(w);
                // the scale counts only on a group's first beat; the others carry noise
                in_scale.write(beats_in % group_beats == 0 ? s_.scale[e0 / kG] : static_cast<ScaleT>(rng.below(256)));
            }
        }
        out_ready.write(!bp_ || rng.below(3) != 0);
    }

    // Before the rising edge (signals settled): the transfers of that edge, checked.
    void sample(int64_t cycle)
    {
        fired_in_ = in_valid.read() && in_ready.read();
        if (fired_in_) {
            if (first_in_cycle < 0) first_in_cycle = cycle;
            beats_in++;
        } else if (in_valid.read()) {
            stall_cycles++;
        }
        if (out_valid.read() && out_ready.read()) {
            const OutT w = out_bf16.read();
            const int64_t e0 = first_ + beats_out * lanes;
            for (int l = 0; l < lanes; l++) {
                const int64_t e = e0 + l;
                const uint16_t got = get16(w, l);
                const uint8_t sc = s_.scale[e / kG];
                const int8_t m = s_.mant[e];
                const uint16_t c = mxsim_decode_bf16(profile, sc, m);
                if (!same_bf16(got, c) && mism_c++ < 10)
                    std::printf("MISMATCH %s cycle %lld element %lld: scale 0x%02x mantissa %d: RTL 0x%04x, C model 0x%04x\n", label,
                                static_cast<long long>(cycle), static_cast<long long>(e), sc, m, got, c);
                if (profile == MXSIM_PROFILE_OCP && !same_bf16(got, mxsim_decode_bf16(MXSIM_PROFILE_MICROXCALING, sc, m)))
                    mism_mx++;
                if (!same_bf16(got, accel_[e]) && mism_accel++ < 10)
                    std::printf("MISMATCH %s element %lld: RTL 0x%04x, MxsimAccel 0x%04x\n", label, static_cast<long long>(e), got,
                                accel_[e]);
                elems_checked++;
            }
            beats_out++;
            last_out_cycle = cycle;
        }
    }

private:
    Stream s_;
    int64_t first_ = 0, n_beats_ = 0;
    const uint16_t *accel_ = nullptr;
    bool bp_ = false, fired_in_ = true;
};

struct Args {
    std::string config;
    int64_t groups = 131072, bp_groups = 8192;
    uint64_t seed = 1;
};

class Driver : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Driver> bus;
    sc_core::sc_in<bool> irq;
    int failures = 0, checks = 0;

    Driver(sc_core::sc_module_name nm, Memory &mem, MxsimAccel &acc, sc_core::sc_clock &clk, Unit<Vdq_a> &a, Unit<Vdq_b> &b,
           const Args &args)
        : sc_module(nm), bus("bus"), irq("irq"), mem_(mem), acc_(acc), clk_(clk), a_(a), b_(b), args_(args), rng_{args.seed}
    {
        SC_HAS_PROCESS(Driver);
        SC_THREAD(run);
    }

private:
    bool expect(bool ok, const std::string &what)
    {
        checks++;
        if (!ok) {
            failures++;
            std::printf("FAIL: %s\n", what.c_str());
        }
        return ok;
    }
    uint32_t reg(tlm::tlm_command cmd, uint64_t off, uint32_t v = 0)
    {
        unsigned char b[4];
        for (int i = 0; i < 4; i++) b[i] = static_cast<unsigned char>(v >> (8 * i));
        tlm::tlm_generic_payload tr;
        tr.set_command(cmd);
        tr.set_address(off);
        tr.set_data_ptr(b);
        tr.set_data_length(4);
        tr.set_streaming_width(4);
        tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        bus->b_transport(tr, d);
        expect(tr.is_response_ok(), "register access at " + std::to_string(off));
        return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    }
    void wr(uint64_t off, uint32_t v) { reg(tlm::TLM_WRITE_COMMAND, off, v); }
    uint32_t rd(uint64_t off) { return reg(tlm::TLM_READ_COMMAND, off); }
    void wr64(uint64_t off, uint64_t v)
    {
        wr(off, static_cast<uint32_t>(v));
        wr(off + 4, static_cast<uint32_t>(v >> 32));
    }

    // The groups: exhaustive (scale, mantissa) pairs first, then edge and random groups.
    void make_groups(int8_t *m, uint8_t *s, int64_t n_groups)
    {
        static const int8_t edge_m[] = {-128, -127, -126, -65, -64, -63, -33, -32, -2, -1, 0, 1, 2, 31, 32, 33, 63, 64, 65, 126, 127};
        static const uint8_t edge_s[] = {0, 1, 2, 3, 6, 7, 8, 126, 127, 128, 132, 133, 134, 251, 252, 253, 254, 255};
        for (int64_t g = 0; g < n_groups; g++) {
            int8_t *gm = m + g * kG;
            if (g < 2048) {  // scale g / 8, mantissas (g % 8) * 32 - 128 ... + 31: all 65,536 pairs
                s[g] = static_cast<uint8_t>(g / 8);
                for (int64_t i = 0; i < kG; i++) gm[i] = static_cast<int8_t>((g % 8) * 32 + i - 128);
                continue;
            }
            const uint32_t r = rng_.below(4);
            s[g] = r == 0 ? edge_s[rng_.below(sizeof edge_s)] : static_cast<uint8_t>(g % 256);
            const uint32_t kind = rng_.below(3);  // edge codes only, random codes, or a mix
            for (int64_t i = 0; i < kG; i++) {
                const bool edge = kind == 0 || (kind == 2 && rng_.below(2));
                gm[i] = edge ? edge_m[rng_.below(sizeof edge_m)] : static_cast<int8_t>(rng_.next());
            }
        }
    }

    // One DEQUANT op on MxsimAccel; returns its result in memory.
    const uint16_t *accel_dequant(mxsim_profile p, uint64_t mant, uint64_t scale, uint64_t dst, int64_t rows)
    {
        wr(reg::OP_KIND, MXSIM_OP_DEQUANT);
        wr(reg::PROFILE, p);
        wr(reg::GROUP_SIZE, kG);
        wr(reg::REPEAT, 1);
        wr(reg::DIM_M, static_cast<uint32_t>(rows));
        wr(reg::DIM_N, kRowLen);
        wr(reg::DIM_K, 0);
        wr(reg::DTYPE, 1);
        wr64(reg::SRC0_LO, mant);
        wr64(reg::SRC0S_LO, scale);
        wr64(reg::DST_LO, dst);
        mxsim_top op;
        std::memset(&op, 0, sizeof op);
        op.kind = MXSIM_OP_DEQUANT;
        std::snprintf(op.name, sizeof op.name, "cosim_dq");
        op.m = rows;
        op.n = kRowLen;
        op.group_size = kG;
        op.repeat = 1;
        op.a_fmt = op.b_fmt = op.out_fmt = -1;
        mxsim_ctx *ctx = nullptr;
        mxsim_ctx_create(&ctx);
        mxsim_tstats st;
        expect(mxsim_time_op(ctx, &acc_.config(), &op, "cosim", 0, nullptr, &st) == MXSIM_OK, "mxsim_time_op");
        mxsim_ctx_destroy(ctx);
        const sc_core::sc_time t0 = sc_core::sc_time_stamp();
        wr(reg::DOORBELL, 1);
        if (!irq.read()) sc_core::wait(irq.posedge_event());
        const sc_core::sc_time el = sc_core::sc_time_stamp() - t0;
        expect(rd(reg::STATUS) == status::DONE, "MxsimAccel dequant op DONE");
        expect(el == sc_core::sc_time::from_value(acc_.clock_period().value() * static_cast<uint64_t>(st.cycles_total)),
               "MxsimAccel dequant: elapsed = cycles x period");
        wr(reg::IRQ_STATUS, irq::DONE);
        sc_core::wait(sc_core::SC_ZERO_TIME);  // the line falls two deltas later
        sc_core::wait(sc_core::SC_ZERO_TIME);
        expect(!irq.read(), "interrupt cleared");
        std::printf("MxsimAccel dequant %-9s %lld x %lld: %lld cycles, %s\n", mxsim_profile_name(p), static_cast<long long>(rows),
                    static_cast<long long>(kRowLen), static_cast<long long>(st.cycles_total), el.to_string().c_str());
        return reinterpret_cast<const uint16_t *>(mem_.backdoor(dst, rows * kRowLen * 2));
    }

    // Cycles the timing model gives a dequant unit of (lanes, depth) for n elements.
    int64_t model_unit_cycles(int lanes, int depth, int64_t n_elems)
    {
        mxsim_tconfig cfg = acc_.config();
        cfg.dequant_lanes = lanes;
        cfg.dequant_depth_cycles = depth;
        mxsim_top op;
        std::memset(&op, 0, sizeof op);
        op.kind = MXSIM_OP_DEQUANT;
        std::snprintf(op.name, sizeof op.name, "cosim_dq");
        op.m = n_elems / kRowLen;
        op.n = kRowLen;
        op.group_size = kG;
        op.repeat = 1;
        op.a_fmt = op.b_fmt = op.out_fmt = -1;
        mxsim_ctx *ctx = nullptr;
        mxsim_ctx_create(&ctx);
        mxsim_tstats st;
        std::memset(&st, 0, sizeof st);
        expect(mxsim_time_op(ctx, &cfg, &op, "cosim", 0, nullptr, &st) == MXSIM_OK, "mxsim_time_op (unit)");
        mxsim_ctx_destroy(ctx);
        return st.cycles_compute + st.cycles_fill_drain;
    }

    // Runs both units over their streams, one cycle per loop, until both are done.
    int64_t clock_units(int64_t max_cycles)
    {
        int64_t c = 0;
        const sc_core::sc_time settle = clk_.period() / 4;
        while (!(a_.done() && b_.done()) && c < max_cycles) {
            sc_core::wait(clk_.negedge_event());
            a_.drive(rng_);
            b_.drive(rng_);
            sc_core::wait(settle);
            a_.sample(c);
            b_.sample(c);
            c++;
        }
        sc_core::wait(clk_.negedge_event());
        a_.in_valid.write(false);
        b_.in_valid.write(false);
        return c;
    }

    template <class U> void report(U &u, const char *phase, int64_t cycles, int64_t n_elems, bool full_rate)
    {
        std::printf("RTL %s (%s, %d lanes, depth %d) %s: %lld groups, %lld beats in %lld cycles (%lld stalled); %lld elements "
                    "checked; mismatches: C model %lld%s, MxsimAccel %lld\n",
                    u.label, mxsim_profile_name(u.profile), u.lanes, u.depth, phase, static_cast<long long>(n_elems / kG),
                    static_cast<long long>(u.beats_out), static_cast<long long>(cycles), static_cast<long long>(u.stall_cycles),
                    static_cast<long long>(u.elems_checked), static_cast<long long>(u.mism_c),
                    u.profile == MXSIM_PROFILE_OCP ? (", microxcaling " + std::to_string(u.mism_mx)).c_str() : "",
                    static_cast<long long>(u.mism_accel));
        expect(u.done(), std::string(u.label) + " " + phase + ": every beat came out");
        expect(u.mism_c == 0 && u.mism_mx == 0 && u.mism_accel == 0, std::string(u.label) + " " + phase + ": 0 mismatches");
        groups_ += u.elems_checked / kG;
        mismatches_ += u.mism_c + u.mism_mx + u.mism_accel;
        if (full_rate) {
            const int64_t rtl = u.last_out_cycle - u.first_in_cycle + 1;
            const int64_t model = model_unit_cycles(u.lanes, u.depth, n_elems);
            std::printf("RTL %s full rate: first input to last output %lld cycles; timing model (dequant.lanes=%d, "
                        "depth_cycles=%d) compute + fill/drain = %lld\n",
                        u.label, static_cast<long long>(rtl), u.lanes, u.depth, static_cast<long long>(model));
            expect(rtl == model, std::string(u.label) + ": RTL cycles = timing model's compute + fill/drain");
        }
    }

    void run()
    {
        const int64_t n_groups = (args_.groups + kRowLen / kG - 1) / (kRowLen / kG) * (kRowLen / kG);
        const int64_t rows = n_groups * kG / kRowLen, n = n_groups * kG;
        const uint64_t mant = kMemBase, scale = mant + n, out_a = (scale + n_groups + 63) & ~63ull, out_b = out_a + 2 * n;
        if (!expect(mem_.backdoor(out_b, 2 * n) != nullptr, "memory large enough")) return sc_core::sc_stop();
        int8_t *m = reinterpret_cast<int8_t *>(mem_.backdoor(mant, n));
        uint8_t *s = mem_.backdoor(scale, n_groups);
        make_groups(m, s, n_groups);

        // the SystemC model of the accelerator, on the same groups
        const uint16_t *acc_a = accel_dequant(MXSIM_PROFILE_OCP, mant, scale, out_a, rows);
        const uint16_t *acc_b = accel_dequant(MXSIM_PROFILE_MASE_CUDA, mant, scale, out_b, rows);

        // reset the units (synchronous, two cycles)
        for (int i = 0; i < 2; i++) {
            sc_core::wait(clk_.negedge_event());
            a_.reset(true);
            b_.reset(true);
        }
        sc_core::wait(clk_.negedge_event());
        a_.reset(false);
        b_.reset(false);

        const Stream st{m, s, n};
        const auto w0 = std::chrono::steady_clock::now();
        a_.start(st, 0, n, acc_a, false);
        b_.start(st, 0, n, acc_b, false);
        const int64_t c1 = clock_units(4 * n);
        report(a_, "full rate", c1, n, true);
        report(b_, "full rate", c1, n, true);

        const int64_t nb = std::min(n_groups, args_.bp_groups) * kG;
        a_.start(st, n - nb, nb, acc_a, true);  // the last groups: edge and random codes
        b_.start(st, n - nb, nb, acc_b, true);
        const int64_t c2 = clock_units(64 * nb);
        report(a_, "backpressure", c2, nb, false);
        report(b_, "backpressure", c2, nb, false);
        const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();

        std::printf("co-simulation: %lld groups (%lld elements) through 2 RTL units, %lld mismatches; %lld RTL cycles in %.1f s wall\n",
                    static_cast<long long>(groups_), static_cast<long long>(groups_ * kG), static_cast<long long>(mismatches_),
                    static_cast<long long>(c1 + c2), wall);
        expect(n_groups >= 100000 || args_.groups < 100000, "at least 100,000 groups");
        sc_core::sc_stop();
    }

    Memory &mem_;
    MxsimAccel &acc_;
    sc_core::sc_clock &clk_;
    Unit<Vdq_a> &a_;
    Unit<Vdq_b> &b_;
    const Args &args_;
    Rng rng_;
    int64_t groups_ = 0, mismatches_ = 0;
};

}  // namespace

int sc_main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    Args a;
    // options in pairs, each value whole (atoll read "64abc" as 64; an odd last argument was dropped)
    auto whole = [](const char *v, unsigned long long *out) {
        char *e = nullptr;
        errno = 0;
        *out = std::strtoull(v, &e, 10);
        return e != v && !*e && !errno && v[0] != '-' && v[0] != '+';
    };
    for (int i = 1; i < argc; i += 2) {
        const std::string k = argv[i];
        unsigned long long x = 0;
        if (i + 1 >= argc) {
            std::fprintf(stderr, "mxsim_sc_cosim: %s: missing value\n", argv[i]);
            return 2;
        }
        if (k == "--config") a.config = argv[i + 1];
        else if ((k == "--groups" || k == "--bp-groups" || k == "--seed") && !whole(argv[i + 1], &x)) {
            std::fprintf(stderr, "mxsim_sc_cosim: %s: '%s' is not a whole number\n", k.c_str(), argv[i + 1]);
            return 2;
        } else if (k == "--groups" || k == "--bp-groups") {
            if (x > (1ull << 40)) {
                std::fprintf(stderr, "mxsim_sc_cosim: %s: %llu is above 2^40\n", k.c_str(), x);
                return 2;
            }
            (k == "--groups" ? a.groups : a.bp_groups) = static_cast<long long>(x);
        } else if (k == "--seed") a.seed = x;
        else {
            std::fprintf(stderr, "usage: mxsim_sc_cosim --config CFG [--groups N] [--bp-groups N] [--seed S]\n");
            return 2;
        }
    }
    if (a.config.empty() || a.groups < 1 || a.bp_groups < 0) {
        std::fprintf(stderr, "usage: mxsim_sc_cosim --config CFG [--groups N] [--bp-groups N] [--seed S]\n");
        return 2;
    }
    // the parameters the RTL was built with (cosim.cmake) must give G = 32
    static_assert(DQ_A_LANES * DQ_A_GROUP_BEATS == kG && DQ_B_LANES * DQ_B_GROUP_BEATS == kG, "G = LANES x GROUP_BEATS");

    Memory memory("memory", kMemBase, kMemSize);
    MxsimAccel accel("accel", MxsimAccel::load_config(a.config));
    sc_core::sc_clock clk("clk", accel.clock_period());
    Unit<Vdq_a> ua("dq_a", clk, DQ_A_LANES, DQ_A_GROUP_BEATS, DQ_A_DEPTH, static_cast<mxsim_profile>(DQ_A_PROFILE));
    Unit<Vdq_b> ub("dq_b", clk, DQ_B_LANES, DQ_B_GROUP_BEATS, DQ_B_DEPTH, static_cast<mxsim_profile>(DQ_B_PROFILE));
    Driver driver("driver", memory, accel, clk, ua, ub, a);
    sc_core::sc_signal<bool> irq("irq");
    driver.bus.bind(accel.regs);
    accel.mem.bind(memory.socket);
    accel.irq(irq);
    driver.irq(irq);
    sc_core::sc_start();
    std::printf("%d checks, %d failed\n", driver.checks, driver.failures);
    std::printf(driver.failures == 0 ? "*-* MXSIM SYSTEMC COSIM PASS *-*\n" : "*-* MXSIM SYSTEMC COSIM FAIL *-*\n");
    return driver.failures == 0 ? 0 : 1;
}

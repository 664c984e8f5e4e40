// tb_accel.cpp - testbench of the SystemC accelerator model (sim/systemc/mxsim_sc.h).
//
// A platform of three parts: a driver thread (the "CPU"), MxsimAccel, and a memory model.  The
// driver programs every op of a trace (e.g. traces/bert-base.trace, real shapes) through the
// register socket, rings the doorbell, waits for the interrupt, and checks
//   - the outputs in memory bit for bit against reference results computed here through other
//     entry points of the C ABI (mxsim_gemm_raw, mxsim_f32_to_bf16, mxsim_decode_bf16/_f32,
//     mxsim_quantize_block) on the same operands (NaN compared by class);
//   - the simulated time from the doorbell to the interrupt: exactly cycles x clock period, with
//     cycles from mxsim_time_op on the trace's op, the call `mxsim run` makes (tests/run_cycles.sh also
//     compares the CSV written with --csv against `mxsim run --format csv`);
//   - STATUS, IRQ_STATUS, CYCLES and the interrupt line (raised, then cleared by W1C).
// --errors adds the error paths: bad descriptors, a bus error, a doorbell while busy, register
// access errors, interrupt masking, and recovery.  Exit status 0 only if every check passed.
//
// Usage: mxsim_sc_tb --config CFG.ini --trace T.trace [--set key=value]... [--profile P]
//                    [--quantum-ns Q] [--period-ps P] [--seed S] [--threads N] [--detail]
//                    [--csv OUT.csv] [--errors]
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "mxsim_sc.h"
#include "sc_memory.h"

using namespace mxsim_sc;
using sc_core::sc_time;

namespace {

struct Args {
    std::string config, trace, csv;
    mxsim_profile profile = MXSIM_PROFILE_OCP;
    std::vector<std::string> sets;  // --set key=value on top of the configuration file
    double quantum_ns = 1000.0, period_ps = 0.0;
    uint64_t seed = 1;
    unsigned threads = 0;
    bool detail = false, errors = false;
};

constexpr uint64_t kMemBase = 0x100000000ull;  // above 4 GiB: exercises the HI address words
constexpr uint64_t kMemSize = 64ull << 20;

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
    double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
    double normal() { return std::sqrt(-2.0 * std::log(1.0 - uniform())) * std::cos(6.283185307179586 * uniform()); }
};

// Element kinds of a compared buffer: floats compare NaN by class, bytes exactly.
enum class Elem { F32, BF16, BYTE };

class Driver : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<Driver> bus;
    sc_core::sc_in<bool> irq;
    int failures = 0, checks = 0;

    Driver(sc_core::sc_module_name nm, Memory &mem, MxsimAccel &acc, const Args &args, const mxsim_trace *tr)
        : sc_module(nm), bus("bus"), irq("irq"), mem_(mem), acc_(acc), args_(args), tr_(tr), rng_{args.seed}
    {
        SC_HAS_PROCESS(Driver);
        SC_THREAD(run);
        if (mxsim_ctx_create(&ctx_) != MXSIM_OK) SC_REPORT_FATAL("tb", "mxsim_ctx_create failed");
        mxsim_ctx_set_threads(ctx_, args.threads);
    }
    ~Driver() override { mxsim_ctx_destroy(ctx_); }

private:
    // ---- register access ----
    tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t off, uint32_t &v, unsigned len = 4)
    {
        unsigned char b[8] = {0};
        for (int i = 0; i < 4; i++) b[i] = static_cast<unsigned char>(v >> (8 * i));
        tlm::tlm_generic_payload tr;
        tr.set_command(cmd);
        tr.set_address(off);
        tr.set_data_ptr(b);
        tr.set_data_length(len);
        tr.set_streaming_width(len);
        tr.set_byte_enable_ptr(nullptr);
        tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        sc_time delay = sc_core::SC_ZERO_TIME;
        bus->b_transport(tr, delay);
        if (delay != sc_core::SC_ZERO_TIME) sc_core::wait(delay);  // the driver keeps no local time
        if (cmd == tlm::TLM_READ_COMMAND) v = uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
        return tr.get_response_status();
    }
    uint32_t rd(uint64_t off)
    {
        uint32_t v = 0;
        expect(access(tlm::TLM_READ_COMMAND, off, v) == tlm::TLM_OK_RESPONSE, "read of register " + hex(off) + " answered OK");
        return v;
    }
    void wr(uint64_t off, uint32_t v, tlm::tlm_response_status want = tlm::TLM_OK_RESPONSE)
    {
        tlm::tlm_response_status r = access(tlm::TLM_WRITE_COMMAND, off, v);
        expect(r == want, "write of register " + hex(off) + " answered " + std::to_string(int(want)) + " (got " +
                              std::to_string(int(r)) + ")");
    }
    void wr64(uint64_t lo, uint64_t v)
    {
        wr(lo, static_cast<uint32_t>(v));
        wr(lo + 4, static_cast<uint32_t>(v >> 32));
    }
    uint64_t rd64(uint64_t lo) { return rd(lo) | uint64_t(rd(lo + 4)) << 32; }

    static std::string hex(uint64_t v)
    {
        char b[32];
        std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
        return b;
    }
    bool expect(bool ok, const std::string &what)
    {
        checks++;
        if (!ok) {
            failures++;
            std::printf("FAIL: %s\n", what.c_str());
        }
        return ok;
    }

    // ---- memory ----
    uint64_t at_ = kMemBase;
    uint64_t alloc(uint64_t bytes)
    {
        uint64_t a = at_;
        at_ += (bytes + 63) & ~uint64_t(63);
        if (at_ > kMemBase + kMemSize) SC_REPORT_FATAL("tb", "testbench memory too small for this trace");
        return a;
    }
    uint8_t *mem(uint64_t addr, uint64_t len) { return mem_.backdoor(addr, len); }

    // Random scale bytes of profile p: mostly moderate exponents, some edge codes (never MASE 0,
    // whose OCP exponent -1 has no byte for mxsim_gemm_raw).
    uint8_t gemm_scale()
    {
        const uint32_t r = rng_.below(4096);
        if (r < 4) {
            static const uint8_t edge[] = {0, 1, 254, 255};
            uint8_t e = edge[r];
            if (args_.profile == MXSIM_PROFILE_MASE && e == 0) e = 1;
            return e;
        }
        return static_cast<uint8_t>(112 + rng_.below(29));
    }

    // Compares n elements at device address `addr` with `want`; prints the first mismatches.
    void compare(const char *what, uint64_t addr, const void *want, int64_t n, Elem e)
    {
        const size_t esz = e == Elem::F32 ? 4 : e == Elem::BF16 ? 2 : 1;
        const uint8_t *got = mem(addr, n * esz);
        const uint8_t *ref = static_cast<const uint8_t *>(want);
        int64_t bad = 0;
        for (int64_t i = 0; i < n; i++) {
            bool same;
            if (e == Elem::F32) {
                uint32_t a, b;
                std::memcpy(&a, got + 4 * i, 4);
                std::memcpy(&b, ref + 4 * i, 4);
                const bool na = (a & 0x7FFFFFFFu) > 0x7F800000u, nb = (b & 0x7FFFFFFFu) > 0x7F800000u;
                same = na || nb ? na && nb : a == b;
            } else if (e == Elem::BF16) {
                uint16_t a, b;
                std::memcpy(&a, got + 2 * i, 2);
                std::memcpy(&b, ref + 2 * i, 2);
                const bool na = (a & 0x7FFF) > 0x7F80, nb = (b & 0x7FFF) > 0x7F80;
                same = na || nb ? na && nb : a == b;
            } else {
                same = got[i] == ref[i];
            }
            if (!same && bad++ < 5) std::printf("  %s[%lld] differs\n", what, static_cast<long long>(i));
        }
        expect(bad == 0, std::string(what) + ": " + std::to_string(bad) + " of " + std::to_string(n) + " elements differ");
    }

    // Rings the doorbell, waits for the interrupt; returns the simulated time it took.
    sc_time ring_and_wait(const sc_time &timeout)
    {
        const sc_time t0 = sc_core::sc_time_stamp();
        wr(reg::DOORBELL, 1);
        expect(rd(reg::STATUS) & status::BUSY, "STATUS.BUSY right after the doorbell");
        if (!irq.read()) sc_core::wait(timeout, irq.posedge_event());
        expect(irq.read(), "interrupt raised before the timeout");
        return sc_core::sc_time_stamp() - t0;
    }
    void clear_irq(uint32_t bits)
    {
        wr(reg::IRQ_STATUS, bits);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        expect(!irq.read(), "interrupt line low after IRQ_STATUS write-1-to-clear");
    }

    // ---- one trace op ----
    void trace_op(const mxsim_top *op)
    {
        const mxsim_tconfig &cfg = acc_.config();
        const int64_t G = op->group_size ? op->group_size : cfg.group_size;
        const int64_t M = op->m, N = op->n, K = op->k;
        const mxsim_profile p = args_.profile;
        const int out_fmt = op->kind == MXSIM_OP_GEMM ? (op->out_fmt >= 0 ? op->out_fmt : static_cast<int>(cfg.out_format)) : -1;
        const mxsim_acc accm = static_cast<mxsim_acc>(cfg.acc_mode);
        const std::string nm = op->name;
        if ((op->a_fmt >= 0 && op->a_fmt != MXSIM_FMT_MXINT8) || (op->b_fmt >= 0 && op->b_fmt != MXSIM_FMT_MXINT8)) {
            expect(false, nm + ": int8 operands are not supported by the functional model");
            return;
        }
        // the expected cycles: the call `mxsim run` makes for this trace line
        mxsim_tstats st;
        // the call first, then its message: as one expression the message could be read before the
        // call (unspecified argument order; GCC did), naming the previous op's failure
        const mxsim_status ts = mxsim_time_op(ctx_, &cfg, op, mxsim_trace_source(tr_), args_.detail, nullptr, &st);
        if (!expect(ts == MXSIM_OK, nm + ": mxsim_time_op: " + mxsim_errmsg(ctx_))) return;
        const uint64_t cycles = static_cast<uint64_t>(st.cycles_total);

        at_ = kMemBase;
        uint64_t src0 = 0, src0s = 0, src1 = 0, src1s = 0, dst = 0, dsts = 0;
        std::vector<uint8_t> want, want_s;  // expected output (bytes) and scale bytes
        Elem out_elem = Elem::BYTE;
        int64_t n_out = M * N;
        auto rand_mant = [&](uint64_t addr, int64_t n) {
            int8_t *m = reinterpret_cast<int8_t *>(mem(addr, n));
            for (int64_t i = 0; i < n; i++) m[i] = static_cast<int8_t>(rng_.next());
            return m;
        };
        if (op->kind == MXSIM_OP_GEMM) {
            const int64_t kg = K / G;
            src0 = alloc(M * K), src0s = alloc(M * kg), src1 = alloc(N * K), src1s = alloc(N * kg);
            const int8_t *am = rand_mant(src0, M * K), *bm = rand_mant(src1, N * K);
            uint8_t *as = mem(src0s, M * kg), *bs = mem(src1s, N * kg);
            for (int64_t i = 0; i < M * kg; i++) as[i] = gemm_scale();
            for (int64_t i = 0; i < N * kg; i++) bs[i] = gemm_scale();
            // reference: mxsim_gemm_raw on OCP exponent bytes (mxsim_scale_to_ocp)
            std::vector<uint8_t> ae(M * kg), be(N * kg);
            auto to_ocp = [&](const uint8_t *s, std::vector<uint8_t> &e) {
                for (size_t i = 0; i < e.size(); i++) {
                    int x = 0, nan = 0;
                    mxsim_scale_to_ocp(p, s[i], &x, &nan);
                    e[i] = nan ? 0xFF : static_cast<uint8_t>(x);
                }
            };
            to_ocp(as, ae);
            to_ocp(bs, be);
            std::vector<float> c(M * N);
            expect(mxsim_gemm_raw(ctx_, M, N, K, G, am, ae.data(), bm, be.data(), accm, c.data()) == MXSIM_OK,
                   nm + ": mxsim_gemm_raw");
            if (out_fmt == MXSIM_OUT_FP32) {
                out_elem = Elem::F32;
                want.resize(M * N * 4);
                std::memcpy(want.data(), c.data(), want.size());
            } else if (out_fmt == MXSIM_OUT_BF16) {
                out_elem = Elem::BF16;
                want.resize(M * N * 2);
                for (int64_t i = 0; i < M * N; i++) {
                    const uint16_t b = mxsim_f32_to_bf16(c[i]);
                    std::memcpy(&want[2 * i], &b, 2);
                }
            } else {  // MXINT8: quantize each group of G outputs along n
                want.resize(M * N);
                want_s.resize(M * N / G);
                for (int64_t i = 0; i < M * N / G; i++)
                    mxsim_quantize_block(p, MXSIM_DTYPE_F32, &c[i * G], G, &want_s[i], reinterpret_cast<int8_t *>(&want[i * G]));
            }
        } else if (op->kind == MXSIM_OP_DEQUANT) {
            src0 = alloc(M * N), src0s = alloc(M * N / G);
            const int8_t *m = rand_mant(src0, M * N);
            uint8_t *s = mem(src0s, M * N / G);
            for (int64_t i = 0; i < M * N / G; i++) s[i] = static_cast<uint8_t>(rng_.next());  // every byte, edges too
            out_elem = Elem::BF16;
            want.resize(M * N * 2);
            for (int64_t i = 0; i < M * N; i++) {
                const uint16_t b = mxsim_decode_bf16(p, s[i / G], m[i]);
                std::memcpy(&want[2 * i], &b, 2);
            }
        } else {  // QUANTIZE, bf16 input
            src0 = alloc(M * N * 2);
            uint16_t *x = reinterpret_cast<uint16_t *>(mem(src0, M * N * 2));
            for (int64_t g = 0; g < M * N / G; g++) {
                const uint32_t kind = rng_.below(256);
                const int e = static_cast<int>(rng_.below(61)) - 30;
                for (int64_t i = 0; i < G; i++) {
                    float v = static_cast<float>(std::ldexp(rng_.normal(), e));
                    if (kind == 0) v = 0.0f;                                               // zero block
                    else if (kind == 1) v = static_cast<float>(std::ldexp(rng_.normal(), -135)); // subnormal
                    else if (kind == 2 && i == G / 2) v = rng_.below(2) ? INFINITY : NAN;   // NaN block
                    x[g * G + i] = mxsim_f32_to_bf16(v);
                }
            }
            want.resize(M * N);
            want_s.resize(M * N / G);
            for (int64_t g = 0; g < M * N / G; g++)
                mxsim_quantize_block(p, MXSIM_DTYPE_BF16, &x[g * G], G, &want_s[g], reinterpret_cast<int8_t *>(&want[g * G]));
        }
        const size_t esz = out_elem == Elem::F32 ? 4 : out_elem == Elem::BF16 ? 2 : 1;
        dst = alloc(n_out * esz);
        std::memset(mem(dst, n_out * esz), 0xA5, n_out * esz);  // poison: unwritten output is caught
        if (!want_s.empty()) {
            dsts = alloc(want_s.size());
            std::memset(mem(dsts, want_s.size()), 0xA5, want_s.size());
        }

        // program the descriptor exactly as the trace line says
        wr(reg::OP_KIND, static_cast<uint32_t>(op->kind));
        wr(reg::PROFILE, static_cast<uint32_t>(p));
        wr(reg::GROUP_SIZE, static_cast<uint32_t>(op->group_size));
        wr(reg::REPEAT, static_cast<uint32_t>(op->repeat));
        wr(reg::DIM_M, static_cast<uint32_t>(M));
        wr(reg::DIM_N, static_cast<uint32_t>(N));
        wr(reg::DIM_K, static_cast<uint32_t>(K));
        wr(reg::ACC, kUseConfig);
        wr(reg::OUT_FMT, op->out_fmt >= 0 ? static_cast<uint32_t>(op->out_fmt) : kUseConfig);
        wr(reg::DTYPE, 1);  // bf16 on the dense side of dequant / quantize, as the trace format says
        wr64(reg::SRC0_LO, src0);
        wr64(reg::SRC0S_LO, src0s);
        wr64(reg::SRC1_LO, src1);
        wr64(reg::SRC1S_LO, src1s);
        wr64(reg::DST_LO, dst);
        wr64(reg::DSTS_LO, dsts);
        expect(rd64(reg::DST_LO) == dst, nm + ": DST reads back");

        const sc_time want_t = sc_time::from_value(acc_.clock_period().value() * cycles);
        const auto w0 = std::chrono::steady_clock::now();
        const sc_time elapsed = ring_and_wait(want_t + sc_time(1, sc_core::SC_MS));
        const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
        const uint32_t sts = rd(reg::STATUS);
        expect(sts == status::DONE, nm + ": STATUS = DONE (got " + hex(sts) + ", ERR_CODE " + std::to_string(rd(reg::ERR_CODE)) + ")");
        expect(rd(reg::IRQ_STATUS) == irq::DONE, nm + ": IRQ_STATUS = DONE");
        const uint64_t reg_cycles = rd64(reg::CYCLES_LO);
        expect(reg_cycles == cycles, nm + ": CYCLES register " + std::to_string(reg_cycles) + " = mxsim_time_op " + std::to_string(cycles));
        expect(elapsed == want_t, nm + ": elapsed " + elapsed.to_string() + " = cycles x period " + want_t.to_string());
        clear_irq(irq::DONE);

        if (out_elem != Elem::BYTE || want_s.empty()) {
            compare((nm + ".out").c_str(), dst, want.data(), n_out, out_elem);
        } else {
            compare((nm + ".mantissa").c_str(), dst, want.data(), n_out, Elem::BYTE);
            compare((nm + ".scale").c_str(), dsts, want_s.data(), static_cast<int64_t>(want_s.size()), Elem::BYTE);
        }
        std::printf("%-14s %-8s %5lldx%-5lldx%-5lld G=%-3lld x%-4lld %12llu cycles  elapsed %-14s  %9lld outputs  (%.2f s wall)\n",
                    op->name, mxsim_op_kind_name(static_cast<mxsim_op_kind>(op->kind)),
                    static_cast<long long>(M), static_cast<long long>(N), static_cast<long long>(K), static_cast<long long>(G),
                    static_cast<long long>(op->repeat), static_cast<unsigned long long>(cycles), elapsed.to_string().c_str(),
                    static_cast<long long>(n_out), wall_s);
        csv_ += nm + "," + (op->kind == MXSIM_OP_GEMM ? "gemm" : op->kind == MXSIM_OP_DEQUANT ? "dequant" : "quantize") + "," +
                std::to_string(cycles) + "," + std::to_string(elapsed.value()) + "\n";
        total_cycles_ += cycles;
    }

    // ---- error paths (--errors) ----
    void program_small_gemm(uint64_t a, uint64_t s, uint64_t c, uint32_t g)
    {
        wr(reg::OP_KIND, MXSIM_OP_GEMM);
        wr(reg::PROFILE, MXSIM_PROFILE_OCP);
        wr(reg::GROUP_SIZE, g);
        wr(reg::REPEAT, 1);
        wr(reg::DIM_M, 4);
        wr(reg::DIM_N, 4);
        wr(reg::DIM_K, 64);
        wr(reg::ACC, MXSIM_ACC_FP32);
        wr(reg::OUT_FMT, MXSIM_OUT_FP32);
        wr64(reg::SRC0_LO, a);
        wr64(reg::SRC0S_LO, s);
        wr64(reg::SRC1_LO, a);
        wr64(reg::SRC1S_LO, s);
        wr64(reg::DST_LO, c);
    }
    void expect_failure(const std::string &what, uint32_t code)
    {
        const int before = sc_core::sc_report_handler::get_count(MxsimAccel::kMsgType);
        ring_and_wait(sc_time(1, sc_core::SC_MS));
        const uint32_t sts = rd(reg::STATUS);
        expect((sts & 0xFFFF) == status::ERROR && (sts >> 16) == (code & 0xFFFF),
               what + ": STATUS = ERROR with code " + hex(code) + " (got " + hex(sts) + ")");
        expect(rd(reg::ERR_CODE) == code, what + ": ERR_CODE = " + hex(code));
        expect(rd(reg::IRQ_STATUS) == irq::ERROR, what + ": IRQ_STATUS = ERROR");
        expect(sc_core::sc_report_handler::get_count(MxsimAccel::kMsgType) == before + 1, what + ": one SC_REPORT_ERROR");
        clear_irq(irq::ERROR);
    }
    void error_tests()
    {
        std::printf("-- error paths\n");
        sc_core::sc_report_handler::set_actions(MxsimAccel::kMsgType, sc_core::SC_ERROR,
                                                sc_core::SC_DISPLAY | sc_core::SC_CACHE_REPORT);
        at_ = kMemBase;
        const uint64_t a = alloc(4 * 64), s = alloc(4 * 2), c = alloc(4 * 4 * 4);
        std::memset(mem(a, 256), 1, 256);
        std::memset(mem(s, 8), 133, 8);
        const uint64_t ok_before = rd(reg::OPS_DONE);

        program_small_gemm(a, s, c, 48);  // G = 48 does not divide K = 64
        expect_failure("G not dividing K", MXSIM_E_INPUT);
        program_small_gemm(a, s, c, 0);
        wr(reg::REPEAT, 0);
        expect_failure("REPEAT = 0", MXSIM_E_INPUT);
        program_small_gemm(a, s, c, 32);
        wr(reg::OP_KIND, 7);
        expect_failure("OP_KIND = 7", err::DESCRIPTOR);
        program_small_gemm(a, s, c, 32);
        wr(reg::PROFILE, 9);
        expect_failure("PROFILE = 9", err::DESCRIPTOR);
        program_small_gemm(a, s, c, 32);
        wr(reg::OUT_FMT, 3);
        expect_failure("OUT_FMT = 3", err::DESCRIPTOR);
        program_small_gemm(a, s, kMemBase + kMemSize - 8, 32);  // C runs past the end of memory
        expect_failure("output beyond memory", err::BUS);
        program_small_gemm(0x10, s, c, 32);  // A below the memory
        expect_failure("operand outside memory", err::BUS);
        expect(rd(reg::OPS_DONE) == ok_before, "failed ops are not counted in OPS_DONE");

        // register access errors
        uint32_t v = 0;
        expect(access(tlm::TLM_READ_COMMAND, 0x0F0, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE, "unmapped register: address error");
        expect(access(tlm::TLM_READ_COMMAND, reg::SIZE, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE, "beyond the map: address error");
        expect(access(tlm::TLM_READ_COMMAND, reg::STATUS + 2, v) == tlm::TLM_ADDRESS_ERROR_RESPONSE, "unaligned: address error");
        expect(access(tlm::TLM_READ_COMMAND, reg::STATUS, v, 2) == tlm::TLM_BURST_ERROR_RESPONSE, "2-byte access: burst error");
        v = 5;
        expect(access(tlm::TLM_WRITE_COMMAND, reg::ID, v) == tlm::TLM_COMMAND_ERROR_RESPONSE, "write to ID: command error");

        // a doorbell while busy is refused; the running op completes normally
        program_small_gemm(a, s, c, 32);
        wr(reg::DOORBELL, 1);
        wr(reg::DOORBELL, 1, tlm::TLM_COMMAND_ERROR_RESPONSE);
        if (!irq.read()) sc_core::wait(sc_time(1, sc_core::SC_MS), irq.posedge_event());
        expect(rd(reg::STATUS) == status::DONE, "op after a refused doorbell: DONE");
        clear_irq(irq::DONE);
        // 4x4 outputs of 64 ones x ones at scale 2^0 x 2^0 = 64.0
        std::vector<float> c64(16, 64.0f);
        compare("recovered gemm", c, c64.data(), 16, Elem::F32);

        // masking: IRQ_ENABLE = 0 keeps the line low; enabling raises it for the pending bit
        wr(reg::IRQ_ENABLE, 0);
        wr(reg::DOORBELL, 1);
        sc_core::wait(sc_time(1, sc_core::SC_MS));
        expect(!irq.read() && rd(reg::IRQ_STATUS) == irq::DONE, "masked interrupt: line low, IRQ_STATUS.DONE set");
        wr(reg::IRQ_ENABLE, irq::DONE | irq::ERROR);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        sc_core::wait(sc_core::SC_ZERO_TIME);
        expect(irq.read(), "unmasking raises the pending interrupt");
        clear_irq(irq::DONE);
        expect(rd(reg::OPS_DONE) == ok_before + 2, "OPS_DONE counts the two good ops");
        sc_core::sc_report_handler::set_actions(MxsimAccel::kMsgType, sc_core::SC_ERROR, sc_core::SC_DEFAULT_ERROR_ACTIONS);
    }

    void run()
    {
        expect(rd(reg::ID) == kIdValue, "ID register");
        expect(rd(reg::VERSION) == kVersionValue, "VERSION register");
        expect(rd(reg::STATUS) == 0, "STATUS = 0 after reset");
        std::printf("clock period %s; global quantum %s; profile %s; trace %s (%lld ops)\n",
                    acc_.clock_period().to_string().c_str(), tlm::tlm_global_quantum::instance().get().to_string().c_str(),
                    mxsim_profile_name(args_.profile), mxsim_trace_source(tr_), static_cast<long long>(mxsim_trace_count(tr_)));
        for (int64_t i = 0; i < mxsim_trace_count(tr_); i++) trace_op(mxsim_trace_op(tr_, i));
        const uint64_t total = rd64(reg::TOTAL_LO);
        expect(total == total_cycles_, "TOTAL register = sum of the ops' cycles");
        std::printf("TOTAL %llu cycles, simulated time %s\n", static_cast<unsigned long long>(total),
                    sc_core::sc_time_stamp().to_string().c_str());
        if (args_.errors) error_tests();
        if (!args_.csv.empty()) {
            FILE *f = std::fopen(args_.csv.c_str(), "w");
            if (!expect(f != nullptr, "open " + args_.csv)) return sc_core::sc_stop();
            std::fprintf(f, "op,kind,cycles_total,elapsed_ps\n%s", csv_.c_str());
            std::fclose(f);
        }
        sc_core::sc_stop();
    }

    Memory &mem_;
    MxsimAccel &acc_;
    const Args &args_;
    const mxsim_trace *tr_;
    mxsim_ctx *ctx_ = nullptr;
    Rng rng_;
    uint64_t total_cycles_ = 0;
    std::string csv_;
};

int usage(const char *msg)
{
    std::fprintf(stderr, "mxsim_sc_tb: %s\nusage: mxsim_sc_tb --config CFG --trace TRACE [--set k=v]... [--profile P] "
                         "[--quantum-ns Q] [--period-ps P] [--seed S] [--threads N] [--detail] [--csv OUT] [--errors]\n", msg);
    return 2;
}

// A whole option value in [lo, hi] (atof and strtoull read "abc" as 0 and "-5" as a huge count)
bool parse_real(const char *v, double lo, double hi, double *out)
{
    char *e = nullptr;
    errno = 0;
    const double x = std::strtod(v, &e);
    if (e == v || *e || errno || !std::isfinite(x) || x < lo || x > hi) return false;
    *out = x;
    return true;
}

}  // namespace

int sc_main(int argc, char **argv)
{
    Args a;
    for (int i = 1; i < argc; i++) {
        const std::string k = argv[i];
        auto val = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
        const char *v = nullptr;
        if (k == "--detail") a.detail = true;
        else if (k == "--errors") a.errors = true;
        else if ((v = val()) == nullptr) return usage(("missing value or unknown option: " + k).c_str());
        else if (k == "--config") a.config = v;
        else if (k == "--trace") a.trace = v;
        else if (k == "--csv") a.csv = v;
        else if (k == "--set") a.sets.push_back(v);
        else if (k == "--seed") {
            char *e = nullptr;
            errno = 0;
            const unsigned long long x = std::strtoull(v, &e, 10);
            if (e == v || *e || errno || v[0] == '-' || v[0] == '+')
                return usage(("--seed: '" + std::string(v) + "' is not a whole number in [0, 2^64)").c_str());
            a.seed = x;
        } else if (k == "--quantum-ns" || k == "--period-ps" || k == "--threads") {
            double x = 0;
            const bool whole = k == "--threads";
            if (!parse_real(v, k == "--period-ps" ? 1e-3 : 0, whole ? 1024 : 1e12, &x) || (whole && std::floor(x) != x))
                return usage((k + ": '" + v + "' is not " +
                              (whole ? "a whole number in [0, 1024]" : k == "--period-ps" ? "a number in [0.001, 1e12]" : "a number in [0, 1e12]"))
                                 .c_str());
            if (k == "--quantum-ns") a.quantum_ns = x;
            else if (k == "--period-ps") a.period_ps = x;
            else a.threads = static_cast<unsigned>(x);
        }
        else if (k == "--profile") {
            if (mxsim_profile_parse(v, &a.profile) != MXSIM_OK) return usage(("unknown profile " + std::string(v)).c_str());
        } else return usage(("unknown option " + k).c_str());
    }
    if (a.config.empty() || a.trace.empty()) return usage("--config and --trace are required");

    mxsim_ctx *ctx = nullptr;
    mxsim_trace *tr = nullptr;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) return 1;
    if (mxsim_trace_load(ctx, a.trace.c_str(), &tr) != MXSIM_OK) {
        std::fprintf(stderr, "mxsim_sc_tb: %s\n", mxsim_errmsg(ctx));
        mxsim_ctx_destroy(ctx);
        return 2;
    }
    if (mxsim_trace_count(tr) == 0) { // as mxsim run: a pass over no op checks nothing
        std::fprintf(stderr, "mxsim_sc_tb: %s: the trace has no ops\n", a.trace.c_str());
        mxsim_trace_free(tr);
        mxsim_ctx_destroy(ctx);
        return 2;
    }

    tlm::tlm_global_quantum::instance().set(sc_time(a.quantum_ns, sc_core::SC_NS));
    Memory memory("memory", kMemBase, kMemSize);
    mxsim_tconfig cfg = MxsimAccel::load_config(a.config);
    for (const std::string &kv : a.sets)
        if (mxsim_tconfig_set_kv(ctx, &cfg, kv.c_str()) != MXSIM_OK) {
            std::fprintf(stderr, "mxsim_sc_tb: %s\n", mxsim_errmsg(ctx));
            mxsim_ctx_destroy(ctx);
            return 2;
        }
    mxsim_ctx_destroy(ctx);
    MxsimAccel accel("accel", cfg, a.period_ps > 0 ? sc_time(a.period_ps, sc_core::SC_PS) : sc_core::SC_ZERO_TIME);
    accel.set_threads(a.threads);
    accel.set_detail(a.detail);
    Driver driver("driver", memory, accel, a, tr);
    sc_core::sc_signal<bool> irq("irq");
    driver.bus.bind(accel.regs);
    accel.mem.bind(memory.socket);
    accel.irq(irq);
    driver.irq(irq);

    const auto w0 = std::chrono::steady_clock::now();
    sc_core::sc_start();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
    mxsim_trace_free(tr);
    std::printf("memory: %llu reads (%llu bytes), %llu writes (%llu bytes); %d checks, %d failed; %.1f s wall\n",
                static_cast<unsigned long long>(memory.n_reads), static_cast<unsigned long long>(memory.bytes_read),
                static_cast<unsigned long long>(memory.n_writes), static_cast<unsigned long long>(memory.bytes_written),
                driver.checks, driver.failures, wall);
    std::printf(driver.failures == 0 ? "*-* MXSIM SYSTEMC PASS *-*\n" : "*-* MXSIM SYSTEMC FAIL *-*\n");
    return driver.failures == 0 ? 0 : 1;
}

// mxsim_sc.h - SystemC / TLM-2.0 face of the mxsim accelerator model (loosely timed).
//
// MxsimAccel is a thin C++17 shell over the C ABI in mxsim.h: it owns one mxsim_ctx and one
// resolved mxsim_tconfig and holds no simulation logic of its own.  A CPU model programs an op
// descriptor through the register target socket `regs` and rings the doorbell; the module then
//   1. times the op with mxsim_time_op() (the same call `mxsim run` makes, so the same cycles),
//   2. reads the operands over the initiator socket `mem` (TLM-2.0 b_transport, bursts),
//   3. computes the result with the functional model (mxsim_gemm, mxsim_mx_dequantize,
//      mxsim_mx_quantize: bit-exact by construction),
//   4. writes the result back over `mem`, spreading the write bursts over the op's duration with a
//      tlm_quantumkeeper, synchronises, so that exactly cycles x clock period has elapsed since
//      the doorbell, and
//   5. sets STATUS / IRQ_STATUS and raises the interrupt line `irq` (level, while
//      IRQ_STATUS & IRQ_ENABLE is non-zero; write-1-to-clear).
// A non-OK mxsim_status (or a bus error on `mem`) sets STATUS.ERROR and ERR_CODE, raises the
// interrupt (IRQ_STATUS.ERROR) and is reported with SC_REPORT_ERROR (message type kMsgType),
// which by SystemC's default actions throws; a platform that wants to keep running sets
// sc_report_handler::set_actions(MxsimAccel::kMsgType, SC_ERROR, SC_DISPLAY) and reads ERR_CODE.
//
// Register map, operand layouts and an integration example: sim/systemc/README.md.
#ifndef MXSIM_SC_H
#define MXSIM_SC_H

#include <cstdint>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <tlm_utils/tlm_quantumkeeper.h>

#include "mxsim.h"

namespace mxsim_sc {

// ---- register map: byte offsets of 32-bit little-endian registers (README.md, "Register map") --
namespace reg {
constexpr uint64_t ID = 0x000;          // RO  kIdValue ("MXSC")
constexpr uint64_t VERSION = 0x004;     // RO  kVersionValue
constexpr uint64_t DOORBELL = 0x008;    // WO  write bit 0 = 1: start the programmed op (reads 0)
constexpr uint64_t STATUS = 0x00C;      // RO  status:: bits; bits 31:16 = ERR_CODE & 0xFFFF
constexpr uint64_t IRQ_STATUS = 0x010;  // R/W1C irq:: bits
constexpr uint64_t IRQ_ENABLE = 0x014;  // RW  irq:: bits (reset: DONE | ERROR)
constexpr uint64_t ERR_CODE = 0x018;    // RO  0, an mxsim_status, or err:: codes
constexpr uint64_t OPS_DONE = 0x01C;    // RO  ops completed without error since reset
constexpr uint64_t CYCLES_LO = 0x020;   // RO  cycles of the last successful op (all repeats)
constexpr uint64_t CYCLES_HI = 0x024;
constexpr uint64_t TOTAL_LO = 0x028;    // RO  sum of CYCLES over every successful op
constexpr uint64_t TOTAL_HI = 0x02C;
constexpr uint64_t CLOCK_PS = 0x030;    // RO  clock period in picoseconds (rounded)
// op descriptor: read/write, latched by the doorbell (may be reprogrammed while BUSY)
constexpr uint64_t OP_KIND = 0x040;     // mxsim_op_kind: 0 GEMM, 1 DEQUANT, 2 QUANTIZE
constexpr uint64_t PROFILE = 0x044;     // mxsim_profile: 0 ocp, 1 mase, 2 mase-cuda, 3 microxcaling
constexpr uint64_t GROUP_SIZE = 0x048;  // G; 0 = the configuration's mx.group_size
constexpr uint64_t REPEAT = 0x04C;      // identical back-to-back executions (>= 1), as in traces
constexpr uint64_t DIM_M = 0x050;
constexpr uint64_t DIM_N = 0x054;
constexpr uint64_t DIM_K = 0x058;       // GEMM only
constexpr uint64_t ACC = 0x05C;         // GEMM: 0 fp32, 1 exact, kUseConfig: exp.acc_mode
constexpr uint64_t OUT_FMT = 0x060;     // GEMM: 0 fp32, 1 bf16, 2 mxint8, kUseConfig: out.format
constexpr uint64_t DTYPE = 0x064;       // DEQUANT output / QUANTIZE input: 0 f32, 1 bf16
constexpr uint64_t SRC0_LO = 0x080;     // 64-bit addresses: LO word, HI word at +4
constexpr uint64_t SRC0S_LO = 0x088;
constexpr uint64_t SRC1_LO = 0x090;
constexpr uint64_t SRC1S_LO = 0x098;
constexpr uint64_t DST_LO = 0x0A0;
constexpr uint64_t DSTS_LO = 0x0A8;
constexpr uint64_t SIZE = 0x100;        // the target socket decodes offsets 0 .. SIZE-1
}  // namespace reg

constexpr uint32_t kIdValue = 0x4D585343u;  // "MXSC"
constexpr uint32_t kVersionValue = 0x00010000u;  // 1.0
constexpr uint32_t kUseConfig = 0xFFFFFFFFu;

namespace status {
constexpr uint32_t BUSY = 1u << 0;
constexpr uint32_t DONE = 1u << 1;   // the last op finished without error
constexpr uint32_t ERROR = 1u << 2;  // the last op failed: see ERR_CODE
}  // namespace status
namespace irq {
constexpr uint32_t DONE = 1u << 0;
constexpr uint32_t ERROR = 1u << 1;
}  // namespace irq
namespace err {  // ERR_CODE values beyond mxsim_status (whose codes are < 0x100)
constexpr uint32_t BUS = 0x100;         // a b_transport on `mem` returned an error response
constexpr uint32_t DESCRIPTOR = 0x101;  // unknown OP_KIND / PROFILE / ACC / OUT_FMT / DTYPE code
}  // namespace err

// The descriptor registers, as latched by the doorbell.
struct OpDesc {
    uint32_t kind = 0, profile = 0, group_size = 0, repeat = 1;
    uint32_t m = 0, n = 0, k = 0;
    uint32_t acc = kUseConfig, out_fmt = kUseConfig, dtype = 1;
    uint64_t src0 = 0, src0s = 0, src1 = 0, src1s = 0, dst = 0, dsts = 0;
};

class MxsimAccel : public sc_core::sc_module {
public:
    static constexpr const char *kMsgType = "mxsim/accel";

    tlm_utils::simple_target_socket<MxsimAccel> regs;    // register file (CPU side)
    tlm_utils::simple_initiator_socket<MxsimAccel> mem;  // operands and results (memory side)
    sc_core::sc_out<bool> irq;                           // level interrupt

    // cfg is copied and validated (mxsim_tconfig_validate).  clock_period zero: 1 / clock.mhz,
    // rounded to the kernel's time resolution (exact for 500 and 1000 MHz at 1 ps; 1500 MHz
    // rounds to 667 ps: give the period explicitly, or a finer resolution, if that matters).
    MxsimAccel(sc_core::sc_module_name name, const mxsim_tconfig &cfg,
               const sc_core::sc_time &clock_period = sc_core::SC_ZERO_TIME);
    ~MxsimAccel() override;
    MxsimAccel(const MxsimAccel &) = delete;
    MxsimAccel &operator=(const MxsimAccel &) = delete;

    // Reads an INI (or SCALE-Sim .cfg) file on top of the defaults; SC_REPORT_ERROR on failure.
    static mxsim_tconfig load_config(const std::string &path);

    // Options, set before simulation starts.
    void set_threads(unsigned n);          // functional-model worker threads (0 = all CPUs)
    void set_detail(bool on);              // time GEMMs with the cycle-stepping engine
    void set_burst_bytes(uint32_t n);      // largest b_transport on `mem` (default 4096)
    void set_max_tensor_bytes(uint64_t n); // larger operands fail with MXSIM_E_LIMIT (1 GiB)

    const mxsim_tconfig &config() const { return cfg_; }
    const sc_core::sc_time &clock_period() const { return period_; }
    const mxsim_tstats &last_stats() const { return last_; }  // of the last successful op
    sc_core::sc_time bus_delay() const { return bus_delay_; } // delay `mem` targets annotated
    uint64_t ops_done() const { return ops_done_; }

private:
    struct Failure { uint32_t code; };  // thrown inside run_op, caught there

    void b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay);
    unsigned transport_dbg(tlm::tlm_generic_payload &tr);
    bool reg_read(uint64_t off, uint32_t &v) const;
    bool reg_write(uint64_t off, uint32_t v, const sc_core::sc_time &delay,
                   tlm::tlm_response_status &resp);
    void worker();        // SC_THREAD: one op per doorbell
    void irq_update();    // SC_METHOD: the only writer of `irq`
    void run_op(const OpDesc &d);
    void check(mxsim_status s);                         // non-OK: Failure{s}
    void fail(uint32_t code, const std::string &msg);   // Failure{code} with a message
    void dma(tlm::tlm_command cmd, uint64_t addr, void *data, uint64_t len);
    struct Out { uint64_t addr; const void *data; uint64_t len; };
    void write_results(const Out *outs, int n_outs, uint64_t cycles);
    sc_core::sc_time cycles_to_time(uint64_t cycles) const;

    mxsim_ctx *ctx_ = nullptr;
    mxsim_tconfig cfg_{};
    sc_core::sc_time period_;
    bool detail_ = false;
    uint32_t burst_bytes_ = 4096;
    uint64_t max_tensor_bytes_ = uint64_t(1) << 30;

    OpDesc desc_;             // the descriptor registers
    OpDesc pending_;          // latched at the doorbell
    bool busy_ = false;
    uint32_t status_ = 0, irq_status_ = 0, irq_enable_ = irq::DONE | irq::ERROR, err_code_ = 0;
    uint64_t ops_done_ = 0, last_cycles_ = 0, total_cycles_ = 0;
    mxsim_tstats last_{};
    std::string err_msg_;
    sc_core::sc_time bus_delay_;
    tlm_utils::tlm_quantumkeeper qk_;
    sc_core::sc_event start_ev_, irq_ev_;
};

}  // namespace mxsim_sc

#endif  // MXSIM_SC_H

// mxsim_sc.cpp - MxsimAccel: the register file, the doorbell, DMA over TLM-2.0 and the op sequence.
//
// Everything numeric or temporal is one C ABI call: mxsim_time_op (cycles), mxsim_mx_create +
// mxsim_gemm / mxsim_mx_dequantize / mxsim_mx_quantize (results).  This file only moves bytes
// between the platform's memory and mxsim tensors, and turns cycles into simulated time:
//   - operands are read at the op's start (local time offset 0) in bursts of burst_bytes;
//   - results are written in bursts whose local time offsets grow linearly with the bytes written,
//     the last one ending at cycles x period; the quantum keeper syncs whenever the global quantum
//     is exceeded and once at the end, so the interrupt rises exactly cycles x period after the
//     doorbell.  Delays that memory targets annotate are summed (bus_delay()) but not added: the
//     DRAM channel is part of mxsim's timing model (dram.* fields), counting it twice would be wrong.
// Invariant: `irq` is written only by irq_update(), so any sc_signal writer policy works.
#include "mxsim_sc.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <memory>

namespace mxsim_sc {

using sc_core::sc_time;

namespace {

struct TensorFree {
    void operator()(mxsim_tensor *t) const { mxsim_tensor_free(t); }
};
struct MxFree {
    void operator()(mxsim_mx *m) const { mxsim_mx_free(m); }
};
// 128-bit products (cycles x bytes, rows x cols x size): a GCC/Clang extension, marked as such.
__extension__ typedef unsigned __int128 u128;
using Tensor = std::unique_ptr<mxsim_tensor, TensorFree>;
using Mx = std::unique_ptr<mxsim_mx, MxFree>;

const char *kind_name(uint32_t k)
{
    // the library's one spelling; a register value outside the enumeration is never cast to it
    return k <= MXSIM_OP_QUANTIZE ? mxsim_op_kind_name(static_cast<mxsim_op_kind>(k)) : "?";
}

std::string hex(uint64_t v)
{
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

uint32_t get_le32(const unsigned char *p)
{
    return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}

void put_le32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = static_cast<unsigned char>(v >> (8 * i));
}

void set_lo(uint64_t &r, uint32_t v) { r = (r & 0xFFFFFFFF00000000ull) | v; }
void set_hi(uint64_t &r, uint32_t v) { r = (r & 0xFFFFFFFFull) | uint64_t(v) << 32; }

}  // namespace

MxsimAccel::MxsimAccel(sc_core::sc_module_name nm, const mxsim_tconfig &cfg, const sc_time &clock_period)
    : sc_module(nm), regs("regs"), mem("mem"), irq("irq"), cfg_(cfg)
{
    SC_HAS_PROCESS(MxsimAccel);
    if (mxsim_ctx_create(&ctx_) != MXSIM_OK) SC_REPORT_ERROR(kMsgType, "mxsim_ctx_create: out of memory");
    if (mxsim_tconfig_validate(ctx_, &cfg_) != MXSIM_OK) {
        std::string msg = std::string(name()) + ": configuration: " + mxsim_errmsg(ctx_);
        SC_REPORT_ERROR(kMsgType, msg.c_str());
    }
    period_ = clock_period != sc_core::SC_ZERO_TIME ? clock_period : sc_time(1000.0 / cfg_.clock_mhz, sc_core::SC_NS);
    if (period_ == sc_core::SC_ZERO_TIME)
        SC_REPORT_ERROR(kMsgType, (std::string(name()) + ": clock period rounds to 0 at this time resolution").c_str());
    regs.register_b_transport(this, &MxsimAccel::b_transport);
    regs.register_transport_dbg(this, &MxsimAccel::transport_dbg);
    SC_THREAD(worker);
    SC_METHOD(irq_update);
    sensitive << irq_ev_;
}

MxsimAccel::~MxsimAccel() { mxsim_ctx_destroy(ctx_); }

mxsim_tconfig MxsimAccel::load_config(const std::string &path)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_ctx *ctx = nullptr;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) SC_REPORT_ERROR(kMsgType, "mxsim_ctx_create: out of memory");
    mxsim_status s = mxsim_tconfig_load(ctx, &cfg, path.c_str());
    if (s == MXSIM_OK) s = mxsim_tconfig_validate(ctx, &cfg);
    std::string msg = s == MXSIM_OK ? "" : std::string(mxsim_strerror(s)) + ": " + mxsim_errmsg(ctx);
    mxsim_ctx_destroy(ctx);
    if (s != MXSIM_OK) SC_REPORT_ERROR(kMsgType, msg.c_str());
    return cfg;
}

void MxsimAccel::set_threads(unsigned n)
{
    if (mxsim_ctx_set_threads(ctx_, n) != MXSIM_OK) SC_REPORT_ERROR(kMsgType, mxsim_errmsg(ctx_));
}
void MxsimAccel::set_detail(bool on) { detail_ = on; }
void MxsimAccel::set_burst_bytes(uint32_t n) { burst_bytes_ = n ? n : 1; }
void MxsimAccel::set_max_tensor_bytes(uint64_t n) { max_tensor_bytes_ = n; }

// ---- register file ----------------------------------------------------------------------------

bool MxsimAccel::reg_read(uint64_t off, uint32_t &v) const
{
    const OpDesc &d = desc_;
    switch (off) {
    case reg::ID: v = kIdValue; return true;
    case reg::VERSION: v = kVersionValue; return true;
    case reg::DOORBELL: v = 0; return true;
    case reg::STATUS: v = status_ | (busy_ ? status::BUSY : 0u) | (err_code_ & 0xFFFFu) << 16; return true;
    case reg::IRQ_STATUS: v = irq_status_; return true;
    case reg::IRQ_ENABLE: v = irq_enable_; return true;
    case reg::ERR_CODE: v = err_code_; return true;
    case reg::OPS_DONE: v = static_cast<uint32_t>(ops_done_); return true;
    case reg::CYCLES_LO: v = static_cast<uint32_t>(last_cycles_); return true;
    case reg::CYCLES_HI: v = static_cast<uint32_t>(last_cycles_ >> 32); return true;
    case reg::TOTAL_LO: v = static_cast<uint32_t>(total_cycles_); return true;
    case reg::TOTAL_HI: v = static_cast<uint32_t>(total_cycles_ >> 32); return true;
    case reg::CLOCK_PS: v = static_cast<uint32_t>(period_.to_seconds() * 1e12 + 0.5); return true;
    case reg::OP_KIND: v = d.kind; return true;
    case reg::PROFILE: v = d.profile; return true;
    case reg::GROUP_SIZE: v = d.group_size; return true;
    case reg::REPEAT: v = d.repeat; return true;
    case reg::DIM_M: v = d.m; return true;
    case reg::DIM_N: v = d.n; return true;
    case reg::DIM_K: v = d.k; return true;
    case reg::ACC: v = d.acc; return true;
    case reg::OUT_FMT: v = d.out_fmt; return true;
    case reg::DTYPE: v = d.dtype; return true;
    default: break;
    }
    const uint64_t *addr[] = {&d.src0, &d.src0s, &d.src1, &d.src1s, &d.dst, &d.dsts};
    if (off >= reg::SRC0_LO && off < reg::SRC0_LO + 8 * 6) {
        uint64_t a = *addr[(off - reg::SRC0_LO) / 8];
        v = (off & 4) ? static_cast<uint32_t>(a >> 32) : static_cast<uint32_t>(a);
        return true;
    }
    return false;
}

bool MxsimAccel::reg_write(uint64_t off, uint32_t v, const sc_time &delay, tlm::tlm_response_status &resp)
{
    OpDesc &d = desc_;
    resp = tlm::TLM_OK_RESPONSE;
    switch (off) {
    case reg::DOORBELL:
        if (v & 1u) {
            if (busy_) {  // one op at a time: the write is refused, nothing changes
                resp = tlm::TLM_COMMAND_ERROR_RESPONSE;
                return true;
            }
            pending_ = d;
            busy_ = true;
            status_ = 0;
            start_ev_.notify(delay);
        }
        return true;
    case reg::IRQ_STATUS: irq_status_ &= ~v; irq_ev_.notify(delay); return true;
    case reg::IRQ_ENABLE: irq_enable_ = v & (irq::DONE | irq::ERROR); irq_ev_.notify(delay); return true;
    case reg::OP_KIND: d.kind = v; return true;
    case reg::PROFILE: d.profile = v; return true;
    case reg::GROUP_SIZE: d.group_size = v; return true;
    case reg::REPEAT: d.repeat = v; return true;
    case reg::DIM_M: d.m = v; return true;
    case reg::DIM_N: d.n = v; return true;
    case reg::DIM_K: d.k = v; return true;
    case reg::ACC: d.acc = v; return true;
    case reg::OUT_FMT: d.out_fmt = v; return true;
    case reg::DTYPE: d.dtype = v; return true;
    default: break;
    }
    uint64_t *addr[] = {&d.src0, &d.src0s, &d.src1, &d.src1s, &d.dst, &d.dsts};
    if (off >= reg::SRC0_LO && off < reg::SRC0_LO + 8 * 6) {
        uint64_t &a = *addr[(off - reg::SRC0_LO) / 8];
        if (off & 4) set_hi(a, v);
        else set_lo(a, v);
        return true;
    }
    uint32_t dummy;
    if (reg_read(off, dummy)) {  // a read-only register
        resp = tlm::TLM_COMMAND_ERROR_RESPONSE;
        return true;
    }
    return false;
}

void MxsimAccel::b_transport(tlm::tlm_generic_payload &tr, sc_time &delay)
{
    const uint64_t off = tr.get_address();
    const unsigned len = tr.get_data_length();
    const unsigned sw = tr.get_streaming_width() ? tr.get_streaming_width() : len;
    unsigned char *p = tr.get_data_ptr();
    if (tr.get_command() == tlm::TLM_IGNORE_COMMAND) {
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
        return;
    }
    if (tr.get_byte_enable_ptr() != nullptr) {
        tr.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
        return;
    }
    if (len != 4 || sw < len || p == nullptr) {
        tr.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
        return;
    }
    if ((off & 3) != 0 || off >= reg::SIZE) {
        tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
        return;
    }
    if (tr.is_read()) {
        uint32_t v = 0;
        if (!reg_read(off, v)) {
            tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        put_le32(p, v);
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
    } else {
        tlm::tlm_response_status resp = tlm::TLM_OK_RESPONSE;
        if (!reg_write(off, get_le32(p), delay, resp)) resp = tlm::TLM_ADDRESS_ERROR_RESPONSE;
        tr.set_response_status(resp);
    }
}

unsigned MxsimAccel::transport_dbg(tlm::tlm_generic_payload &tr)
{
    // Debug reads of whole registers, without side effects; debug writes are not supported.
    const uint64_t off = tr.get_address();
    const unsigned len = tr.get_data_length();
    if (!tr.is_read() || (off & 3) || (len & 3) || tr.get_data_ptr() == nullptr) return 0;
    unsigned done = 0;
    for (; done < len; done += 4) {
        uint32_t v = 0;
        if (!reg_read(off + done, v)) break;
        put_le32(tr.get_data_ptr() + done, v);
    }
    return done;
}

void MxsimAccel::irq_update() { irq.write((irq_status_ & irq_enable_) != 0); }

// ---- the op -----------------------------------------------------------------------------------

void MxsimAccel::worker()
{
    for (;;) {
        sc_core::wait(start_ev_);
        run_op(pending_);
    }
}

void MxsimAccel::fail(uint32_t code, const std::string &msg)
{
    err_msg_ = msg;
    throw Failure{code};
}

void MxsimAccel::check(mxsim_status s)
{
    if (s != MXSIM_OK) fail(static_cast<uint32_t>(s), std::string(mxsim_strerror(s)) + ": " + mxsim_errmsg(ctx_));
}

sc_time MxsimAccel::cycles_to_time(uint64_t cycles) const
{
    return sc_time::from_value(period_.value() * cycles);  // range checked by run_op
}

void MxsimAccel::dma(tlm::tlm_command cmd, uint64_t addr, void *data, uint64_t len)
{
    unsigned char *p = static_cast<unsigned char *>(data);
    tlm::tlm_generic_payload tr;
    for (uint64_t off = 0; off < len;) {
        const unsigned n = static_cast<unsigned>(std::min<uint64_t>(burst_bytes_, len - off));
        if (addr + off < addr) fail(err::BUS, "address " + hex(addr) + " + " + std::to_string(off) + " wraps around");
        tr.set_command(cmd);
        tr.set_address(addr + off);
        tr.set_data_ptr(p + off);
        tr.set_data_length(n);
        tr.set_streaming_width(n);
        tr.set_byte_enable_ptr(nullptr);
        tr.set_dmi_allowed(false);
        tr.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
        const sc_time local = qk_.get_local_time();
        sc_time delay = local;
        mem->b_transport(tr, delay);
        if (delay > local) bus_delay_ += delay - local;
        if (tr.is_response_error())
            fail(err::BUS, std::string(cmd == tlm::TLM_READ_COMMAND ? "read" : "write") + " of " + std::to_string(n) +
                               " bytes at " + hex(addr + off) + ": " + tr.get_response_string());
        off += n;
    }
}

void MxsimAccel::write_results(const Out *outs, int n_outs, uint64_t cycles)
{
    uint64_t total = 0, written = 0, at_cyc = 0;
    for (int i = 0; i < n_outs; i++) total += outs[i].len;
    for (int i = 0; i < n_outs; i++) {
        const unsigned char *p = static_cast<const unsigned char *>(outs[i].data);
        for (uint64_t off = 0; off < outs[i].len;) {
            const uint64_t n = std::min<uint64_t>(burst_bytes_, outs[i].len - off);
            dma(tlm::TLM_WRITE_COMMAND, outs[i].addr + off, const_cast<unsigned char *>(p + off), n);
            off += n;
            written += n;
            // this burst completes at cycles * written / total (exact integer arithmetic)
            const uint64_t cyc = static_cast<uint64_t>(static_cast<u128>(cycles) * written / total);
            qk_.inc(cycles_to_time(cyc) - cycles_to_time(at_cyc));
            at_cyc = cyc;
            if (qk_.need_sync()) qk_.sync();
        }
    }
    qk_.inc(cycles_to_time(cycles) - cycles_to_time(at_cyc));
    qk_.sync();
}

void MxsimAccel::run_op(const OpDesc &d)
{
    qk_.reset();
    uint32_t code = 0;
    uint64_t cycles = 0;
    mxsim_tstats st;
    std::memset(&st, 0, sizeof st);
    try {
        // -- the descriptor
        if (d.kind > MXSIM_OP_QUANTIZE)
            fail(err::DESCRIPTOR, "OP_KIND=" + std::to_string(d.kind) + ": expected 0 (gemm), 1 (dequant) or 2 (quantize)");
        if (d.profile >= MXSIM_PROFILE_COUNT_)
            fail(err::DESCRIPTOR, "PROFILE=" + std::to_string(d.profile) + ": expected 0..3 (ocp, mase, mase-cuda, microxcaling)");
        const bool gemm = d.kind == MXSIM_OP_GEMM;
        const mxsim_profile prof = static_cast<mxsim_profile>(d.profile);
        const uint32_t out_fmt = d.out_fmt == kUseConfig ? static_cast<uint32_t>(cfg_.out_format) : d.out_fmt;
        const uint32_t acc = d.acc == kUseConfig ? static_cast<uint32_t>(cfg_.acc_mode) : d.acc;
        if (gemm && out_fmt > MXSIM_OUT_MXINT8)
            fail(err::DESCRIPTOR, "OUT_FMT=" + std::to_string(d.out_fmt) + ": expected 0 (fp32), 1 (bf16), 2 (mxint8) or 0xFFFFFFFF");
        if (gemm && acc > MXSIM_ACC_EXACT)
            fail(err::DESCRIPTOR, "ACC=" + std::to_string(d.acc) + ": expected 0 (fp32), 1 (exact) or 0xFFFFFFFF");
        if (!gemm && d.dtype > 1) fail(err::DESCRIPTOR, "DTYPE=" + std::to_string(d.dtype) + ": expected 0 (f32) or 1 (bf16)");

        // -- timing: the op exactly as a trace line describes it (what `mxsim run` times)
        mxsim_top top;
        std::memset(&top, 0, sizeof top);
        top.kind = static_cast<int32_t>(d.kind);
        std::snprintf(top.name, sizeof top.name, "%s", kind_name(d.kind));
        top.m = d.m;
        top.n = d.n;
        top.k = gemm ? d.k : 0;
        top.group_size = d.group_size;
        top.repeat = d.repeat;
        top.a_fmt = top.b_fmt = -1;
        top.out_fmt = gemm && d.out_fmt != kUseConfig ? static_cast<int32_t>(d.out_fmt) : -1;
        top.line = 0;
        check(mxsim_time_op(ctx_, &cfg_, &top, name(), detail_ ? 1 : 0, nullptr, &st));
        if (st.cycles_total < 0 || (period_.value() != 0 &&
                                    static_cast<uint64_t>(st.cycles_total) > UINT64_MAX / period_.value()))
            fail(MXSIM_E_LIMIT, "cycles x period exceeds the simulation time range");
        cycles = static_cast<uint64_t>(st.cycles_total);
        if (gemm && cfg_.operand_format != MXSIM_FMT_MXINT8)
            fail(MXSIM_E_UNSUPPORTED, "operand_format int8: the functional model computes MXINT8 operands only");

        // -- operands (time_op checked dims 1..2^31; it pads a K, or n, that G does not divide,
        // but the functional model computes whole groups only)
        const int64_t G = d.group_size ? d.group_size : cfg_.group_size;
        const int64_t M = d.m, N = d.n, K = d.k;
        if ((gemm ? K : N) % G != 0)
            fail(MXSIM_E_INPUT, std::string("field 'group': G=") + std::to_string(G) + " does not divide " +
                                    (gemm ? "k=" : "n=") + std::to_string(gemm ? K : N) +
                                    " (the functional model does not pad)");
        auto tensor = [&](mxsim_dtype t, int64_t rows, int64_t cols) {
            const u128 bytes = static_cast<u128>(rows) * cols * mxsim_dtype_size(t);
            if (bytes > max_tensor_bytes_)
                fail(MXSIM_E_LIMIT, "a " + std::to_string(rows) + " x " + std::to_string(cols) + " " + mxsim_dtype_name(t) +
                                        " tensor exceeds the " + std::to_string(max_tensor_bytes_) + "-byte limit");
            const int64_t shape[2] = {rows, cols};
            mxsim_tensor *p = nullptr;
            check(mxsim_tensor_create(ctx_, t, 2, shape, &p));
            return Tensor(p);
        };
        auto load = [&](mxsim_dtype t, int64_t rows, int64_t cols, uint64_t addr) {
            Tensor x = tensor(t, rows, cols);
            dma(tlm::TLM_READ_COMMAND, addr, mxsim_tensor_data(x.get()),
                static_cast<uint64_t>(mxsim_tensor_numel(x.get())) * mxsim_dtype_size(t));
            return x;
        };
        auto bytes_of = [](const mxsim_tensor *t) {
            return static_cast<uint64_t>(mxsim_tensor_numel(t)) * mxsim_dtype_size(mxsim_tensor_dtype(t));
        };
        auto make_mx = [&](const Tensor &m, const Tensor &s) {
            mxsim_mx *p = nullptr;
            check(mxsim_mx_create(ctx_, m.get(), s.get(), G, 1, prof, &p));
            return Mx(p);
        };
        const int64_t kg = gemm ? K / G : 0, ng = gemm ? 0 : N / G;
        Tensor res;  // dense result
        Mx resq;     // MXINT8 result
        if (gemm) {
            Tensor am = load(MXSIM_DTYPE_I8, M, K, d.src0), as = load(MXSIM_DTYPE_U8, M, kg, d.src0s);
            Tensor bm = load(MXSIM_DTYPE_I8, N, K, d.src1), bs = load(MXSIM_DTYPE_U8, N, kg, d.src1s);
            Mx a = make_mx(am, as), b = make_mx(bm, bs);
            mxsim_gemm_opts o;
            mxsim_gemm_opts_default(&o);
            o.acc = static_cast<mxsim_acc>(acc);
            o.out_dtype = out_fmt == MXSIM_OUT_BF16 ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32;
            mxsim_tensor *c = nullptr;
            check(mxsim_gemm(ctx_, a.get(), b.get(), &o, &c));
            res.reset(c);
            if (out_fmt == MXSIM_OUT_MXINT8) {  // the re-quantizer, grouped along n
                mxsim_mx *q = nullptr;
                check(mxsim_mx_quantize(ctx_, res.get(), prof, G, 1, &q));
                resq.reset(q);
            }
        } else if (d.kind == MXSIM_OP_DEQUANT) {
            Tensor mm = load(MXSIM_DTYPE_I8, M, N, d.src0), ms = load(MXSIM_DTYPE_U8, M, ng, d.src0s);
            Mx x = make_mx(mm, ms);
            mxsim_tensor *y = nullptr;
            check(mxsim_mx_dequantize(ctx_, x.get(), d.dtype ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32, &y));
            res.reset(y);
        } else {
            Tensor x = load(d.dtype ? MXSIM_DTYPE_BF16 : MXSIM_DTYPE_F32, M, N, d.src0);
            mxsim_mx *q = nullptr;
            check(mxsim_mx_quantize(ctx_, x.get(), prof, G, 1, &q));
            resq.reset(q);
        }

        // -- results, spread over the op's cycles; then the interrupt
        Out outs[2];
        int n_outs = 0;
        if (resq) {
            const mxsim_tensor *qm = mxsim_mx_mantissa(resq.get()), *qs = mxsim_mx_scale(resq.get());
            outs[n_outs++] = Out{d.dst, mxsim_tensor_cdata(qm), bytes_of(qm)};
            outs[n_outs++] = Out{d.dsts, mxsim_tensor_cdata(qs), bytes_of(qs)};
        } else {
            outs[n_outs++] = Out{d.dst, mxsim_tensor_cdata(res.get()), bytes_of(res.get())};
        }
        write_results(outs, n_outs, cycles);
    } catch (const Failure &f) {
        code = f.code;
        qk_.sync();  // the op ends where it failed
    }
    busy_ = false;
    if (code == 0) {
        status_ = status::DONE;
        err_code_ = 0;
        ops_done_++;
        last_cycles_ = cycles;
        last_ = st;
        total_cycles_ += cycles;
        irq_status_ |= irq::DONE;
    } else {
        status_ = status::ERROR;
        err_code_ = code;
        irq_status_ |= irq::ERROR;
    }
    irq_ev_.notify(sc_core::SC_ZERO_TIME);
    if (code != 0) {
        const std::string msg = std::string(name()) + ": " + kind_name(d.kind) + " op: " + err_msg_;
        SC_REPORT_ERROR(kMsgType, msg.c_str());
    }
}

}  // namespace mxsim_sc

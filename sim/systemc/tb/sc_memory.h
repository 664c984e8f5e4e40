// sc_memory.h - the testbenches' memory: a flat, little-endian byte array behind a TLM-2.0 target
// socket (b_transport and transport_dbg), at [base, base + size).  Out-of-range accesses answer
// TLM_ADDRESS_ERROR_RESPONSE, byte enables TLM_BYTE_ENABLE_ERROR_RESPONSE, streaming
// (streaming width < length) TLM_BURST_ERROR_RESPONSE.  Each b_transport adds `latency` to the
// annotated delay (default 0).  backdoor() gives the testbench direct access for loading and
// checking data; it is not part of the modelled system.
#ifndef MXSIM_SC_MEMORY_H
#define MXSIM_SC_MEMORY_H

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace mxsim_sc {

class Memory : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<Memory> socket;
    sc_core::sc_time latency;  // added to the annotated delay of every b_transport
    uint64_t n_reads = 0, n_writes = 0, bytes_read = 0, bytes_written = 0;

    Memory(sc_core::sc_module_name nm, uint64_t base, uint64_t size)
        : sc_module(nm), socket("socket"), base_(base), bytes_(size, 0)
    {
        socket.register_b_transport(this, &Memory::b_transport);
        socket.register_transport_dbg(this, &Memory::transport_dbg);
    }

    uint64_t base() const { return base_; }
    uint64_t size() const { return bytes_.size(); }
    // Pointer to [addr, addr + len), or nullptr when that is not inside the memory.
    uint8_t *backdoor(uint64_t addr, uint64_t len)
    {
        if (addr < base_ || len > bytes_.size() || addr - base_ > bytes_.size() - len) return nullptr;
        return bytes_.data() + (addr - base_);
    }

private:
    void b_transport(tlm::tlm_generic_payload &tr, sc_core::sc_time &delay)
    {
        const unsigned len = tr.get_data_length();
        const unsigned sw = tr.get_streaming_width() ? tr.get_streaming_width() : len;
        if (tr.get_command() == tlm::TLM_IGNORE_COMMAND) {
            tr.set_response_status(tlm::TLM_OK_RESPONSE);
            return;
        }
        if (tr.get_byte_enable_ptr() != nullptr) {
            tr.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
            return;
        }
        if (sw < len) {
            tr.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
            return;
        }
        uint8_t *p = backdoor(tr.get_address(), len);
        if (p == nullptr || tr.get_data_ptr() == nullptr) {
            tr.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            return;
        }
        if (tr.is_read()) {
            std::memcpy(tr.get_data_ptr(), p, len);
            n_reads++;
            bytes_read += len;
        } else {
            std::memcpy(p, tr.get_data_ptr(), len);
            n_writes++;
            bytes_written += len;
        }
        delay += latency;
        tr.set_response_status(tlm::TLM_OK_RESPONSE);
    }

    unsigned transport_dbg(tlm::tlm_generic_payload &tr)
    {
        const uint64_t addr = tr.get_address();
        if (addr < base_ || addr - base_ >= bytes_.size() || tr.get_data_ptr() == nullptr) return 0;
        const uint64_t avail = bytes_.size() - (addr - base_);
        const unsigned len = static_cast<unsigned>(std::min<uint64_t>(tr.get_data_length(), avail));
        uint8_t *p = bytes_.data() + (addr - base_);
        if (tr.is_read()) std::memcpy(tr.get_data_ptr(), p, len);
        else if (tr.is_write()) std::memcpy(p, tr.get_data_ptr(), len);
        return len;
    }

    uint64_t base_;
    std::vector<uint8_t> bytes_;
};

}  // namespace mxsim_sc

#endif  // MXSIM_SC_MEMORY_H

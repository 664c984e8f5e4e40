// mx_bf16_out.v - the drain port's bf16 output (out.format = bf16): a float32 rounded to bfloat16,
// round to nearest, ties to even (IEEE 754-2019 clause 4.3.1), as the simulator's output stage
// (sim/doc/numerics.md section 4, "Output dtype").  Combinational.
//
// The upper 16 bits of a binary32 are a bfloat16 with the same sign and exponent field; the low 16
// bits are the part rounded off: guard = bit 15, sticky = OR of bits 14..0, and the kept LSB = bit 16.
// Rounding up adds one to the 16-bit pattern, so a carry out of the fraction lands in the exponent
// field by itself (the largest finite values round to +-Inf, subnormals stay subnormal or become
// the smallest normal).  Inf passes through (its low bits are zero).  NaN stays NaN: the upper bits
// with the quiet bit (bit 6) set, so that a NaN whose payload sits only in the low bits cannot turn
// into Inf.
// Injected bug (harness self-test): MXSIM_RTL_BUG_BF16_TRUNC truncates (never rounds up).
`default_nettype none

module mx_bf16_out (
    input  wire [31:0] f,
    output wire [15:0] b
);
    wire is_nan = (f[30:23] == 8'hFF) && (f[22:0] != 23'd0);
    wire guard  = f[15];
    wire sticky = |f[14:0];
`ifdef MXSIM_RTL_BUG_BF16_TRUNC
    wire up     = 1'b0 && guard && sticky;
`else
    wire up     = guard && (sticky || f[16]);
`endif
    assign b = is_nan ? (f[31:16] | 16'h0040) : (f[31:16] + {15'd0, up});
endmodule

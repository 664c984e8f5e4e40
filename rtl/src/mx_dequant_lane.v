// mx_dequant_lane.v - one lane of the MXINT8 -> bf16 dequantization unit (combinational).
//
// The bit-exact C model is mxsim_decode_bf16() (sim/include/mxsim.h); the rules are
// sim/doc/numerics.md sections 2 and 5.1 (sources: sim/doc/references.md section 3).
//
// PROFILE 0 (ocp; also microxcaling's decode): value = m * 2^(E-133), exact in bf16 except
//   (E=254, m=-128), which overflows to -Inf; E = 255 is NaN (0x7FC0 here; NaNs compare by class).
// PROFILE 2 (mase-cuda): the CUDA kernel's recipe, built as it is written:
//   s = sign, a = |m| (128 for -128), out = s | E<<7 | (a&63)<<1, bias = s | E<<7;
//   dont_need_bias = a & 64: the result is `out` as it stands, else the bf16 difference out - bias.
//   The subtraction is a same-exponent floating-point subtractor (the "near path" of an FP adder:
//   the operands share sign and exponent, so no alignment shift): significands {hidden, frac} are
//   subtracted, the difference is normalised (leading-one detect + left shift) with gradual
//   underflow, an exact zero difference gives +0 (RNE), and Inf/NaN operands (E = 255) give NaN.
//   It is exact (Sterbenz), so no rounding logic is needed.  This reproduces -128 -> +0,
//   E = 0 -> s * (a mod 64) * 2^-132, E = 255 -> +-Inf for a = 64 and NaN otherwise.
//
// Injected bugs for the harness's self-test (never define them in a real build):
//   MXSIM_RTL_BUG_BIAS_ADD   the bias is added instead of subtracted (out + bias)
//   MXSIM_RTL_BUG_ZERO_SIGN  an exact-zero difference keeps the operands' sign (-0 instead of +0)
`default_nettype none

module mx_dequant_lane #(
    parameter integer PROFILE = 0   // 0: ocp, 2: mase-cuda (mxsim_profile numbering)
) (
    input  wire [7:0]  mant,        // int8 mantissa code, two's complement
    input  wire [7:0]  scale,       // the group's scale byte E
    output reg  [15:0] bf16         // bfloat16 bit pattern
);
    // sign and magnitude (a = 128 for m = -128, which fits 8 unsigned bits)
    wire       s = mant[7];
    wire [7:0] a = s ? (~mant + 8'd1) : mant;
    wire [7:0] n_expo;
    wire [6:0] n_frac;

    generate
        if (PROFILE == 0) begin : g_ocp
            // m * 2^(E-133) = a * 2^((E+1) - 134)
            mx_bf16_norm u_norm (.sig({1'b0, a}), .eeff({1'b0, scale} + 9'd1),
                                 .expo(n_expo), .frac(n_frac));
            always @* begin
                if (scale == 8'hFF)      bf16 = 16'h7FC0;      // NaN scale
                else if (a == 8'd0)      bf16 = 16'h0000;      // m = 0
                else                     bf16 = {s, n_expo, n_frac};
            end
        end else if (PROFILE == 2) begin : g_mase_cuda
            wire [5:0]  f              = a[5:0];
            wire        unused_a7      = a[7];   // a = 128 has f = 0 and bit 6 clear: no case
            wire        dont_need_bias = a[6];
            wire [15:0] out_w          = {s, scale, f, 1'b0};
            wire        hidden         = scale != 8'd0;
            wire [8:0]  sig_out        = {1'b0, hidden, f, 1'b0}; // significand of out (x 2^7)
            wire [8:0]  sig_bias       = {1'b0, hidden, 7'd0};    // significand of bias
`ifdef MXSIM_RTL_BUG_BIAS_ADD
            wire [8:0]  sig_res        = sig_out + sig_bias;
`else
            wire [8:0]  sig_res        = sig_out - sig_bias;      // never negative
`endif
            // both operands have exponent max(E, 1) (E = 0: subnormal operands)
            mx_bf16_norm u_norm (.sig(sig_res), .eeff(hidden ? {1'b0, scale} : 9'd1),
                                 .expo(n_expo), .frac(n_frac));
            always @* begin
                if (dont_need_bias)
                    bf16 = out_w;
                else if (scale == 8'hFF)                          // Inf - Inf, NaN - Inf
`ifdef MXSIM_RTL_BUG_BIAS_ADD
                    bf16 = (f == 6'd0) ? {s, 15'h7F80} : 16'h7FC0;
`else
                    bf16 = 16'h7FC0;
`endif
                else if (sig_res == 9'd0)                         // x - x = +0 (RNE)
`ifdef MXSIM_RTL_BUG_ZERO_SIGN
                    bf16 = {s, 15'd0};
`else
                    bf16 = 16'h0000;
`endif
                else
                    bf16 = {s, n_expo, n_frac};
            end
        end else begin : g_bad_profile
            // Only 0 (ocp) and 2 (mase-cuda) are implemented: fail elaboration on anything else.
            mx_dequant_lane_PROFILE_must_be_0_or_2 u_bad ();
        end
    endgenerate
endmodule

`default_nettype wire

// mx_fp32_round.v - rounds an exact value (-1)^sign * x * 2^elsb to binary32, round to nearest,
// ties to even (IEEE 754-2019 clause 4.3.1), with gradual underflow and overflow to +-Inf
// (clause 7.4).  Combinational.  x = 0 gives +0.  The one rounding step of the processing-element
// array's FP32 path (sim/doc/rtl.md section 6): the group term t = RN(d * 2^s) rounds an exact
// integer, the accumulator's add rounds a sum whose aligned smaller operand carries a sticky bit.
//
// Method: p = position of x's leading one, E = p + elsb the unbiased exponent of the exact value;
// the result's LSB weight is q = max(E - 23, -149) (the subnormal floor); x is shifted right by
// sh = q - elsb (left when sh < 0, which is exact), the bits shifted out give guard and sticky,
// and the kept integer m (< 2^24) is rounded up when guard && (sticky || m odd).  The encoding is
// then ((q + 149) << 23) + m': the hidden bit of m' adds one to the exponent field, so a rounding
// carry (m' = 2^24, or 2^23 out of the subnormal range) lands in the exponent by itself; a field of
// 255 or more is +-Inf.
// Injected bugs (harness self-test): MXSIM_RTL_BUG_RTZ rounds toward zero (no increment);
// MXSIM_RTL_BUG_FTZ flushes subnormal results to zero.
`default_nettype none

module mx_fp32_round #(
    parameter integer W = 32 // width of x
) (
    input  wire               sign,
    input  wire [W-1:0]       x,
    input  wire signed [11:0] elsb, // exponent of x's LSB
    output reg  [31:0]        f
);
    // position of the leading one (0 when x == 0, which is handled apart)
    function automatic [5:0] lead1(input [W-1:0] v);
        integer k;
        begin
            lead1 = 6'd0;
            for (k = 0; k < W; k = k + 1)
                if (v[k]) lead1 = k[5:0];
        end
    endfunction

    reg signed [12:0] e_top, q, sh;
    reg [2*W-1:0]     wide;
    localparam integer WI = W;
    localparam signed [12:0] WS = WI[12:0];
    /* verilator lint_off UNUSEDSIGNAL */
    reg [W+23:0]      left; // the kept bits are below 2^24 by the choice of q
    reg [W+24:0]      mw;
    /* verilator lint_on UNUSEDSIGNAL */
    reg [24:0]        m, m_r;
    reg               g, st;
    reg [35:0]        val;
    always @* begin
        e_top = $signed({7'd0, lead1(x)}) + {elsb[11], elsb};
        q     = (e_top - 13'sd23 > -13'sd149) ? e_top - 13'sd23 : -13'sd149;
        sh    = q - {elsb[11], elsb};
        wide  = {2*W{1'b0}};
        left  = {(W+24){1'b0}};
        mw = {(W+25){1'b0}};
        m = 25'd0; g = 1'b0; st = 1'b0;
        if (sh <= 0) begin
            left = {24'd0, x} << (-sh);
            m    = left[24:0];
        end else if (sh > WS) begin
            st = |x;
        end else begin
            wide = {x, {W{1'b0}}} >> sh;
            mw   = {25'd0, wide[2*W-1:W]};
            m    = mw[24:0];
            g    = wide[W-1];
            st   = |wide[W-2:0];
        end
`ifdef MXSIM_RTL_BUG_RTZ
        m_r = m + {24'd0, g & st & 1'b0};
`else
        m_r = m + {24'd0, g & (st | m[0])};
`endif
        val = {q + 13'sd149, 23'd0} + {11'd0, m_r};
`ifdef MXSIM_RTL_BUG_FTZ
        if (q == -13'sd149 && !m_r[23]) val = 36'd0;
`endif
        if (x == {W{1'b0}})
            f = 32'd0;
        else if (val >= 36'h0_7F80_0000)
            f = {sign, 31'h7F80_0000};
        else
            f = {sign, val[30:0]};
    end
endmodule

// mx_exp_term.v - the group term of the shared-exponent unit (sim/doc/numerics.md section 4,
// step 2): t = RN_f32(d * 2^(E_A + E_B - 266)), one rounding of the exact product, gradual
// underflow, overflow to +-Inf; a scale byte 0xFF on either side gives NaN (0x7FC00000), which
// the accumulator's add keeps.  Combinational.  d = 0 gives +0.
`default_nettype none

module mx_exp_term #(
    parameter integer DW = 32 // width of the int32 group sum d (two's complement)
) (
    input  wire [DW-1:0] d,
    input  wire [7:0]    ea,
    input  wire [7:0]    eb,
    output wire [31:0]   t
);
    wire          s   = d[DW-1];
    wire [DW-1:0] mag = s ? (~d + {{(DW-1){1'b0}}, 1'b1}) : d; // |d|; -2^(DW-1) fits unsigned
    // E_A + E_B - 266 in [-266, 244]
    wire signed [11:0] elsb = $signed({4'd0, ea}) + $signed({4'd0, eb}) - 12'sd266;
    wire [31:0] r;
    mx_fp32_round #(.W(DW)) u_round (.sign(s), .x(mag), .elsb(elsb), .f(r));
    assign t = (ea == 8'hFF || eb == 8'hFF) ? 32'h7FC0_0000 : r;
endmodule

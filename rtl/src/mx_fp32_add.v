// mx_fp32_add.v - acc + t in binary32, round to nearest even (IEEE 754-2019 clauses 6.1, 6.2,
// 6.3, 4.3.1): the accumulate step of the shared-exponent unit (sim/doc/numerics.md section 4,
// step 3).  Combinational.  NaN in, or Inf - Inf, gives 0x7FC00000; Inf + finite keeps the Inf;
// an exact zero sum is +0 unless both operands are -0 (clause 6.3).
// Finite operands: the larger magnitude A keeps its significand, shifted left by 3; the smaller B
// is aligned to it and every bit shifted below A's 2^-3 position is ORed into the lowest bit
// (sticky).  The sum or difference (28 bits) goes to mx_fp32_round.  When the exponents differ by
// 2 or more the result has at most one leading bit less than A, so the rounding point stays at
// least 2 bits above the sticky bit and the jammed value rounds as the exact one; when they differ
// by 0 or 1 nothing is shifted out and the sum is exact (proof sketch: sim/doc/rtl.md section 6).
`default_nettype none

module mx_fp32_add (
    input  wire [31:0] a,
    input  wire [31:0] b,
    output reg  [31:0] s
);
    wire a_inf = a[30:23] == 8'hFF && a[22:0] == 23'd0;
    wire b_inf = b[30:23] == 8'hFF && b[22:0] == 23'd0;
    wire a_nan = a[30:23] == 8'hFF && a[22:0] != 23'd0;
    wire b_nan = b[30:23] == 8'hFF && b[22:0] != 23'd0;
    wire swap  = b[30:0] > a[30:0];
    wire [31:0] hi = swap ? b : a; // larger magnitude
    wire [31:0] lo = swap ? a : b;
    wire [7:0]  ehi = (hi[30:23] == 8'd0) ? 8'd1 : hi[30:23]; // subnormals: exponent of 1
    wire [7:0]  elo = (lo[30:23] == 8'd0) ? 8'd1 : lo[30:23];
    wire [23:0] shi = {hi[30:23] != 8'd0, hi[22:0]};
    wire [23:0] slo = {lo[30:23] != 8'd0, lo[22:0]};
    wire [7:0]  diff = ehi - elo;
    wire [26:0] xa  = {shi, 3'b000};
    wire [26:0] xlo = {slo, 3'b000};
    wire [53:0] al  = {xlo, 27'd0} >> diff; // aligned: [53:27] kept, [26:0] shifted out
    wire [26:0] xb  = (diff >= 8'd27) ? {26'd0, |slo} : (al[53:27] | {26'd0, |al[26:0]});
    wire        sub = hi[31] ^ lo[31];
    wire [27:0] x   = sub ? ({1'b0, xa} - {1'b0, xb}) : ({1'b0, xa} + {1'b0, xb});
    wire signed [11:0] elsb = $signed({4'd0, ehi}) - 12'sd153; // LSB of xa: 2^(ehi - 127 - 23 - 3)
    wire [31:0] r;
    mx_fp32_round #(.W(28)) u_round (.sign(hi[31]), .x(x), .elsb(elsb), .f(r));
    always @* begin
        if (a_nan || b_nan || (a_inf && b_inf && (a[31] ^ b[31])))
            s = 32'h7FC0_0000;
        else if (a_inf)
            s = a;
        else if (b_inf)
            s = b;
        else if (x == 28'd0)
            s = {a[31] & b[31], 31'd0};
        else
            s = r;
    end
endmodule

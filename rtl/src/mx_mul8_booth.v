// mx_mul8_booth.v - one int8 x int8 multiplier (-128 legal) built from a Booth lane
// (mx_booth_lane: s + c = a b + 2^16) and its own carry-propagate adder: p = a b as 16-bit two's
// complement (-128 * -128 = 16384 fits).  The PE does not use it (mx_dot_booth shares one adder
// among its lanes); it is the lone multiplier of the exhaustive test (CTest rtl_booth_mul8) and of
// the area decomposition (sim/doc/rtl.md sections 6.1 and 10).
`default_nettype none

module mx_mul8_booth (
    input  wire [7:0]  a,
    input  wire [7:0]  b,
    output wire [15:0] p
);
    wire [15:0] s, c;
    mx_booth_lane u_lane (.a(a), .b(b), .s(s), .c(c));
    assign p = s + c; // mod 2^16: the lane's bias 2^16 drops out
endmodule

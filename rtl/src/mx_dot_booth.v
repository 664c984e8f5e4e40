// mx_dot_booth.v - the PE's L-lane int8 dot product (sim/doc/rtl.md section 6.1): sum over l of
// a_l * b_l (signed, -128 legal) as a TW = 17 + clog2(L) bit two's-complement number.
// Each lane is a radix-4 Booth multiplier reduced to two rows in carry-save form
// (mx_booth_lane: s_l + c_l = a_l b_l + 2^16); the 2L rows of all lanes and one constant row
// K = -L 2^16 (mod 2^TW, which removes the lanes' biases) are merged by a Wallace tree of 3:2
// carry-save adders (Wallace 1964), row by row, into two rows, and one carry-propagate adder
// gives the sum.  So the L multipliers and the adder tree of the plain description
// (sum of $signed(a) * $signed(b)) share one carry-save tree and one final adder.
// Arithmetic is mod 2^TW throughout; |sum| <= L 2^14 fits TW signed bits, so the result is exact.
`default_nettype none

module mx_dot_booth #(
    parameter integer L  = 4,
    parameter integer TW = 17 + $clog2(L)
) (
    input  wire [8*L-1:0] a,
    input  wire [8*L-1:0] b,
    output wire [TW-1:0]  dot
);
    // the rows of the tree, level by level: level v holds rows_at(v) rows of TW bits
    localparam integer NR = 2 * L + 1;
    function integer rows_at(input integer lev);
        integer i, r;
        begin
            r = NR;
            for (i = 0; i < lev; i = i + 1) r = (r / 3) * 2 + r % 3;
            rows_at = r;
        end
    endfunction
    function integer levels(input integer dummy);
        integer i, k;
        begin
            k = dummy; // 0
            for (i = 0; i < 64; i = i + 1) if (rows_at(i) > 2) k = i + 1;
            levels = k;
        end
    endfunction
    function integer off(input integer lev); // first row of level lev in hv
        integer i, o;
        begin
            o = 0;
            for (i = 0; i < lev; i = i + 1) o = o + rows_at(i);
            off = o;
        end
    endfunction
    localparam integer NLEV = levels(0);
    localparam integer TOT = off(NLEV + 1);
    localparam integer OF = off(NLEV);     // the last level: two rows
    localparam integer KI = (1 << TW) - (L << 16); // -L 2^16 mod 2^TW (L 2^16 < 2^TW)
    generate
        if (TW < 17 + $clog2(L)) begin : g_bad
            mx_dot_booth_TW_must_hold_the_sum u_bad (); // elaboration error
        end
    endgenerate
    wire [TW*TOT-1:0] hv /*verilator split_var*/;
    genvar l, v, t;
    generate
        for (l = 0; l < L; l = l + 1) begin : g_lane
            wire [15:0] s, c;
            mx_booth_lane u_lane (.a(a[8*l +: 8]), .b(b[8*l +: 8]), .s(s), .c(c));
            assign hv[(2*l)*TW +: TW]   = {{(TW-16){1'b0}}, s};
            assign hv[(2*l+1)*TW +: TW] = {{(TW-16){1'b0}}, c};
        end
        assign hv[(2*L)*TW +: TW] = KI[TW-1:0];
        for (v = 0; v < NLEV; v = v + 1) begin : g_lev
            localparam integer N = rows_at(v), O = off(v), O2 = off(v + 1), N3 = N / 3;
            for (t = 0; t < N3; t = t + 1) begin : g_csa // 3 rows -> sum row and carry row
                wire [TW-1:0] x = hv[(O+3*t)*TW +: TW];
                wire [TW-1:0] y = hv[(O+3*t+1)*TW +: TW];
                wire [TW-1:0] z = hv[(O+3*t+2)*TW +: TW];
                wire [TW-2:0] m = (x[TW-2:0] & y[TW-2:0]) | (x[TW-2:0] & z[TW-2:0]) | (y[TW-2:0] & z[TW-2:0]);
                assign hv[(O2+2*t)*TW +: TW]   = x ^ y ^ z;
                assign hv[(O2+2*t+1)*TW +: TW] = {m, 1'b0};
            end
            for (t = 3 * N3; t < N; t = t + 1) begin : g_pass // the rows left over go down a level
                assign hv[(O2+2*N3+t-3*N3)*TW +: TW] = hv[(O+t)*TW +: TW];
            end
        end
    endgenerate
    // the one carry-propagate adder
    assign dot = hv[OF*TW +: TW] + hv[(OF+1)*TW +: TW];
endmodule

// area_probes.v - the PE's arithmetic as separate modules, for the area decomposition only
// (rtl/scripts/pe_decompose.sh, sim/doc/rtl.md section 10): each probe is the same expression
// mx_pe.v uses, so that yosys can report its area on its own.  Not part of the array and not
// simulated: mx_pe.v stays the one description of the PE.
`default_nettype none

module p_mul8 (input wire [7:0] a, input wire [7:0] b, output wire [15:0] p);
    assign p = $signed(a) * $signed(b);
endmodule
module p_tree #(parameter integer L = 4) (input wire [16*L-1:0] x, output reg [17+$clog2(L)-1:0] s);
    localparam integer TW = 17 + $clog2(L);
    integer l;
    always @* begin
        s = {TW{1'b0}};
        for (l = 0; l < L; l = l + 1) s = s + {{(TW-16){x[16*l+15]}}, x[16*l +: 16]};
    end
endmodule
module p_psum #(parameter integer DW = 22, parameter integer TW = 19) (input wire first, input wire [TW-1:0] t, input wire [DW-1:0] p, output wire [DW-1:0] n);
    wire [DW-1:0] tx = {{(DW-TW){t[TW-1]}}, t};
    assign n = first ? tx : p + tx;
endmodule

// area_probes.v - parts of the PE as separate modules, for the area decomposition only
// (rtl/scripts/pe_decompose.sh, sim/doc/rtl.md section 10), so that yosys can report their area
// on their own.  Not part of the array and not simulated: mx_pe.v stays the one description of the
// PE.  p_psum is the group-sum expression of mx_pe.v; p_mul8 is the plain signed product the PE
// used before its Booth dot-product unit (mx_dot_booth.v), kept as the reference of yosys's own
// array multiplier.
`default_nettype none

module p_mul8 (input wire [7:0] a, input wire [7:0] b, output wire [15:0] p);
    assign p = $signed(a) * $signed(b);
endmodule
module p_psum #(parameter integer DW = 22, parameter integer TW = 19) (input wire first, input wire [TW-1:0] t, input wire [DW-1:0] p, output wire [DW-1:0] n);
    wire [DW-1:0] tx = {{(DW-TW){t[TW-1]}}, t};
    assign n = first ? tx : p + tx;
endmodule

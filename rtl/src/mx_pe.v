// mx_pe.v - one processing element of the output-stationary MXINT8 array (sim/doc/rtl.md
// section 5): L int8 x int8 multipliers (-128 legal, products in [-16256, 16384]) and an adder
// tree into the int32 group partial sum; the multipliers and the tree are one radix-4 Booth /
// Wallace dot-product unit (mx_dot_booth.v).  A beat (w <= L mantissas of one group from each operand;
// lanes the load path left empty are zero) is consumed in the cycle it is present on both
// inputs; the group's last beat presents d = partial sum + this beat's tree sum, with the beat's
// scale bytes, to the exponent unit in that same cycle (op_v).  Operands, scales and the token
// move on registered to the right (A) and down (B): one PE per cycle, the systolic skew.
// a_tok marks a beat slot of the array's schedule (present in every PE of the active array, also
// where no data is mapped: a partial fold's operands cross the whole array); a_v/b_v mark data.
`default_nettype none

module mx_pe #(
    parameter integer L  = 4,
    parameter integer DW = 32 // d's width: >= 17 + clog2(G) holds any group sum (|d| <= G * 2^14)
) (
    input  wire           clk,
    input  wire           en,        // this PE is inside the active array
    input  wire           a_tok,
    input  wire           a_v,
    input  wire           a_first,
    input  wire           a_last,
    input  wire [8*L-1:0] a_m,
    input  wire [7:0]     a_e,
    input  wire           b_v,
    input  wire [8*L-1:0] b_m,
    input  wire [7:0]     b_e,
    output reg            a_tok_o,
    output reg            a_v_o,
    output reg            a_first_o,
    output reg            a_last_o,
    output reg  [8*L-1:0] a_m_o,
    output reg  [7:0]     a_e_o,
    output reg            b_v_o,
    output reg  [8*L-1:0] b_m_o,
    output reg  [7:0]     b_e_o,
    output wire           tok,       // a beat slot is in this PE this cycle
    output wire           op_v,
    output wire [DW-1:0]  op_d,
    output wire [7:0]     op_ea,
    output wire [7:0]     op_eb
);
    localparam integer TW = 17 + $clog2(L); // tree sum width: L products of 17 bits signed
    // the L multipliers and the adder tree: radix-4 Booth lanes in carry-save form, one Wallace
    // tree over all lanes' rows and one carry-propagate adder (mx_dot_booth.v, rtl.md section 6.1)
    wire [TW-1:0] tree;
    mx_dot_booth #(.L(L), .TW(TW)) u_dot (.a(a_m), .b(b_m), .dot(tree));
    generate
        if (DW < TW) begin : g_bad
            mx_pe_DW_must_hold_the_tree_sum u_bad (); // elaboration error: DW >= 17 + clog2(L)
        end
    endgenerate
    reg  [DW-1:0] psum;
    wire          beat = en && a_tok && a_v && b_v;
    wire [DW-1:0] tree_x = {{(DW-TW){tree[TW-1]}}, tree};
    wire [DW-1:0] nsum = a_first ? tree_x : psum + tree_x;
    assign tok   = en && a_tok;
    assign op_v  = beat && a_last;
    assign op_d  = nsum;
    assign op_ea = a_e;
    assign op_eb = b_e;
    always @(posedge clk) begin
        if (beat) psum <= nsum;
        a_tok_o <= en && a_tok; a_v_o <= a_v; a_first_o <= a_first; a_last_o <= a_last;
        a_m_o <= a_m; a_e_o <= a_e;
        b_v_o <= en && b_v; b_m_o <= b_m; b_e_o <= b_e;
    end
endmodule

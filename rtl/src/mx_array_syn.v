// mx_array_syn.v - synthesis top of the PE array's blocks (rtl/scripts/synth_pe_area.sh): the
// run-time configuration inputs of mx_exp_unit and mx_array tied to the parameters, so that
// synthesis keeps only the logic a fixed configuration needs (II and latency as constants).
// Not used by the Verilator harness, which drives the configuration inputs.
`default_nettype none

module mx_array_syn #(
    parameter integer R = 4, C = 4, L = 4, G = 32, SHARE = 1, II = 1, LAT = 2,
    parameter integer DW = 17 + $clog2(G)
) (
    input  wire             clk,
    input  wire             start,
    input  wire [15:0]      cfg_ng,
    output wire             ld_v,
    output wire [31:0]      ld_k,
    output wire [7:0]       ld_n,
    input  wire [R*8*L-1:0] ld_a,
    input  wire [R*8-1:0]   ld_ae,
    input  wire [C*8*L-1:0] ld_b,
    input  wire [C*8-1:0]   ld_be,
    input  wire [7:0]       rd_row,
    output wire [C*32-1:0]  rd_data,
    output wire             done,
    output wire             err
);
    localparam [7:0] RB = R[7:0], CB = C[7:0], LB = L[7:0], IIB = II[7:0], LATB = LAT[7:0];
    localparam [15:0] GB = G[15:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire [31:0] c0, c1, c2, c3, c4; // the cycle counters are a verification aid: left unconnected
    /* verilator lint_on UNUSEDSIGNAL */
    mx_array #(.R(R), .C(C), .L(L), .DW(DW), .SHARE(SHARE), .LAT_MAX(LAT)) u_array (
        .clk(clk), .start(start), .cfg_rows(RB), .cfg_cols(CB), .cfg_mr(RB), .cfg_mc(CB), .cfg_w(LB),
        .cfg_g(GB), .cfg_ng(cfg_ng), .cfg_ii(IIB), .cfg_lat(LATB), .ld_v(ld_v), .ld_k(ld_k), .ld_n(ld_n),
        .ld_a(ld_a), .ld_ae(ld_ae), .ld_b(ld_b), .ld_be(ld_be), .rd_row(rd_row), .rd_data(rd_data),
        .done(done), .err(err), .cnt_total(c0), .cnt_compute(c1), .cnt_fd(c2), .cnt_stall(c3),
        .cnt_exp_ops(c4));
endmodule

// mx_exp_unit_syn.v - synthesis top of the shared-exponent unit (rtl/scripts/synth_pe_area.sh): the
// run-time configuration inputs of mx_exp_unit and mx_array tied to the parameters, so that
// synthesis keeps only the logic a fixed configuration needs (II and latency as constants).
// Not used by the Verilator harness, which drives the configuration inputs.
`default_nettype none

module mx_exp_unit_syn #(
    parameter integer NSH = 1,
    parameter integer DW  = 22, // 17 + clog2(G)
    parameter integer II  = 1,
    parameter integer LAT = 2
) (
    input  wire              clk,
    input  wire              clr,
    input  wire [NSH-1:0]    in_v,
    input  wire [NSH*DW-1:0] in_d,
    input  wire [NSH*8-1:0]  in_ea,
    input  wire [NSH*8-1:0]  in_eb,
    output wire [NSH*32-1:0] acc,
    output wire              busy,
    output wire              issue,
    output wire              err
);
    localparam [7:0] IIB = II[7:0], LATB = LAT[7:0];
    mx_exp_unit #(.NSH(NSH), .DW(DW), .LAT_MAX(LAT), .IIW(8)) u_unit (
        .clk(clk), .clr(clr), .cfg_ii(IIB), .cfg_lat(LATB), .in_v(in_v), .in_d(in_d), .in_ea(in_ea),
        .in_eb(in_eb), .acc(acc), .busy(busy), .issue(issue), .err(err));
endmodule

// mx_delay.v - a delay line of D registers (D = 0: a wire); the skew registers of the array's
// load path (mx_array.v).
`default_nettype none

module mx_delay #(
    parameter integer W = 1,
    parameter integer D = 0
) (
    /* verilator lint_off UNUSEDSIGNAL */
    input  wire         clk, // unused when D = 0
    /* verilator lint_on UNUSEDSIGNAL */
    input  wire [W-1:0] i,
    output wire [W-1:0] o
);
    generate
        if (D == 0) begin : g_wire
            assign o = i;
        end else begin : g_regs
            reg [W-1:0] sr [0:D-1];
            integer k;
            always @(posedge clk) begin
                sr[0] <= i;
                for (k = 1; k < D; k = k + 1) sr[k] <= sr[k-1];
            end
            assign o = sr[D-1];
        end
    endgenerate
endmodule

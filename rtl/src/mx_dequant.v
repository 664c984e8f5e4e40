// mx_dequant.v - the MXINT8 -> bf16 dequantization unit (sim/doc/rtl.md).
//
// Streams beats of LANES int8 mantissas; GROUP_BEATS consecutive beats form one group and share
// one scale byte, which is taken from in_scale on the group's first beat (ignored on the others)
// and held in a register for the rest of the group.  Every lane decodes (mant, scale) to bf16
// (mx_dequant_lane.v, PROFILE selects the numerics); the results pass through DEPTH register
// stages.  Both sides use a valid/ready handshake (a beat moves on a cycle where valid and ready
// are both high; a source keeps valid and data steady until then).
//
// Timing contract (the simulator's dequant-unit model, sim/src/timing/engine.c time_elementwise:
// compute = ceil(elements / dequant.lanes), fill/drain = dequant.depth_cycles):
//   - a beat accepted in cycle t is offered at the output in cycle t + DEPTH (DEPTH = 0: in the
//     same cycle, combinationally);
//   - with out_ready held high the unit accepts a beat every cycle, so B beats take B + DEPTH
//     cycles from the first input handshake to the last output handshake inclusive;
//   - the stages form a stall chain: stage i takes a new beat when it is empty or when stage i+1
//     takes its beat, so in_ready depends combinationally on out_ready (through DEPTH AND/OR
//     levels); bubbles are squeezed out under backpressure.
//
// Reset (rst_n low, synchronous) empties the pipeline and restarts the group count.
// Injected bug for the harness's self-test: MXSIM_RTL_BUG_BUBBLE makes every stage take a new
// beat only when it is empty (no pass-through of ready), halving the throughput.
`default_nettype none

module mx_dequant #(
    parameter integer LANES       = 4, // elements per beat (dequant.lanes)
    parameter integer PROFILE     = 0, // 0: ocp (and microxcaling), 2: mase-cuda
    parameter integer DEPTH       = 4, // pipeline registers (dequant.depth_cycles), >= 0
    parameter integer GROUP_BEATS = 8  // beats per scale: G = GROUP_BEATS * LANES, >= 1
) (
    input  wire                  clk,
    input  wire                  rst_n,
    input  wire                  in_valid,
    output wire                  in_ready,
    input  wire [8*LANES-1:0]    in_mant,  // lane i in bits [8i+7 : 8i]
    input  wire [7:0]            in_scale, // sampled on the first beat of each group
    output wire                  out_valid,
    input  wire                  out_ready,
    output wire [16*LANES-1:0]   out_bf16  // lane i in bits [16i+15 : 16i]
);
    // ---- the group's scale ----
    wire [7:0] scale;
    generate
        if (GROUP_BEATS == 1) begin : g_scale_direct
            assign scale = in_scale;
        end else begin : g_scale_held
            localparam integer CW = $clog2(GROUP_BEATS);
            localparam integer LASTI = GROUP_BEATS - 1;
            localparam [CW-1:0] LAST = LASTI[CW-1:0];
            wire         in_fire = in_valid && in_ready;
            reg [CW-1:0] beat;
            reg [7:0]    scale_q;
            always @(posedge clk) begin
                if (!rst_n) begin
                    beat <= {CW{1'b0}};
                end else if (in_fire) begin
                    beat <= (beat == LAST) ? {CW{1'b0}} : beat + 1'b1;
                    if (beat == {CW{1'b0}}) scale_q <= in_scale;
                end
            end
            assign scale = (beat == {CW{1'b0}}) ? in_scale : scale_q;
        end
    endgenerate

    // ---- the lanes ----
    wire [16*LANES-1:0] dec;
    genvar l;
    generate
        for (l = 0; l < LANES; l = l + 1) begin : g_lane
            mx_dequant_lane #(.PROFILE(PROFILE)) u_lane (
                .mant(in_mant[8*l +: 8]), .scale(scale), .bf16(dec[16*l +: 16]));
        end
    endgenerate

    // ---- DEPTH pipeline stages with a stall chain ----
    generate
        if (DEPTH == 0) begin : g_comb
            wire unused_clk_rst = clk ^ rst_n;  // a combinational unit with one-beat groups
            assign in_ready  = out_ready;
            assign out_valid = in_valid;
            assign out_bf16  = dec;
        end else begin : g_pipe
            reg  [DEPTH-1:0]    v;
            reg  [16*LANES-1:0] d [0:DEPTH-1];
            wire [DEPTH-1:0]    rdy;               // rdy[i]: stage i takes a beat this cycle
            genvar k;
            for (k = 0; k < DEPTH; k = k + 1) begin : g_stage
`ifdef MXSIM_RTL_BUG_BUBBLE
                // takes a beat only when empty; its beat leaves when the next stage takes it
                wire leaves = v[k] && ((k == DEPTH - 1) ? out_ready : rdy[(k + 1) % DEPTH]);
                assign rdy[k] = !v[k];
                always @(posedge clk) begin
                    if (!rst_n) v[k] <= 1'b0;
                    else if (rdy[k]) v[k] <= (k == 0) ? in_valid : v[(k + DEPTH - 1) % DEPTH];
                    else if (leaves) v[k] <= 1'b0;
                    if (rdy[k]) d[k] <= (k == 0) ? dec : d[(k + DEPTH - 1) % DEPTH];
                end
`else
                // = !v[k] || rdy[k+1] with rdy[DEPTH] = out_ready, unrolled (no loop in rdy)
                assign rdy[k] = out_ready || !(&v[DEPTH-1:k]);
                always @(posedge clk) begin
                    if (!rst_n) v[k] <= 1'b0;
                    else if (rdy[k]) v[k] <= (k == 0) ? in_valid : v[(k + DEPTH - 1) % DEPTH];
                    if (rdy[k]) d[k] <= (k == 0) ? dec : d[(k + DEPTH - 1) % DEPTH];
                end
`endif
            end
            assign in_ready  = rdy[0];
            assign out_valid = v[DEPTH-1];
            assign out_bf16  = d[DEPTH-1];
        end
    endgenerate
endmodule

`default_nettype wire

// mx_exp_unit.v - a shared-exponent unit: the arbiter of the timing model (sim/doc/architecture.md
// sections 1-2) in front of the FP32 group path of the arithmetic contract (sim/doc/numerics.md
// section 4), with the fp32 accumulators of the NSH processing elements it serves.
//
// Port k (0..NSH-1) belongs to one PE (per PE: NSH = 1; per row: its C PEs; per column: its R
// PEs).  A PE raises in_v[k] for one cycle, in the cycle of a group's last beat, with the group's
// int32 sum d and its scale bytes E_A, E_B.  Arbiter: a FIFO in arrival order (NSH entries); the
// oldest waiting operation issues whenever the initiation interval allows (one issue, then
// cfg_ii - 1 cycles without); an operation that arrives to an empty FIFO while the unit may
// issue issues in its arrival cycle (bypass).  At issue the term t = RN(d * 2^(E_A+E_B-266)) is
// formed (mx_exp_term) and travels cfg_lat register stages (0..LAT_MAX; 0 = none); in the cycle
// it leaves the last stage, acc[k] = RN(acc[k] + t) (mx_fp32_add) is written.  So an operation
// issued in cycle i has its result in acc[k] at the end of cycle i + cfg_lat, and dependent
// accumulates of one PE need no interlock: they reach the adder in issue order, one per cycle at
// most.  The model's arrivals are at most one per cycle per unit (OS: the PEs of a row or a
// column end a group in consecutive cycles); two in one cycle, or an arrival to a full FIFO, set
// the sticky err flag (the harness fails on it) and the later port is dropped.
// clr (synchronous) sets every accumulator to +0 and empties FIFO and pipeline.
// busy: an operation waits, or one is in the pipeline up to and including its add cycle.
`default_nettype none

module mx_exp_unit #(
    parameter integer NSH     = 1,  // PEs sharing this unit
    parameter integer DW      = 32, // width of d
    parameter integer LAT_MAX = 4,  // most pipeline stages
    parameter integer IIW     = 8   // width of cfg_ii
) (
    input  wire                 clk,
    input  wire                 clr,
    input  wire [IIW-1:0]       cfg_ii,  // initiation interval, >= 1
    input  wire [7:0]           cfg_lat, // latency, 0..LAT_MAX
    input  wire [NSH-1:0]       in_v,
    input  wire [NSH*DW-1:0]    in_d,
    input  wire [NSH*8-1:0]     in_ea,
    input  wire [NSH*8-1:0]     in_eb,
    output wire [NSH*32-1:0]    acc,
    output wire                 busy,
    output wire                 issue,   // an operation issues this cycle
    output reg                  err
);
    localparam integer IW = (NSH > 1) ? $clog2(NSH) : 1;       // port index
    localparam integer QW = $clog2(NSH + 1);                   // FIFO count
    localparam integer EW = IW + DW + 16;                      // {idx, d, ea, eb}
    localparam integer LM = (LAT_MAX > 0) ? LAT_MAX : 1;

    // ---- arrival: the (single) port raising in_v ----
    reg [IW-1:0] a_idx;
    reg          a_v, a_two;
    integer kk;
    always @* begin
        a_idx = {IW{1'b0}}; a_v = 1'b0; a_two = 1'b0;
        for (kk = 0; kk < NSH; kk = kk + 1)
            if (in_v[kk]) begin
                if (a_v) a_two = 1'b1;
                else begin a_v = 1'b1; a_idx = kk[IW-1:0]; end
            end
    end
    wire [EW-1:0] a_ent = {a_idx, in_d[a_idx*DW +: DW], in_ea[a_idx*8 +: 8], in_eb[a_idx*8 +: 8]};

    // ---- FIFO (circular, NSH entries) ----
    reg [EW-1:0] q_mem [0:NSH-1];
    reg [IW-1:0] q_rd, q_wr;
    reg [QW-1:0] q_n;
    reg [IIW-1:0] cool;                       // cycles until the next issue is allowed
    wire         q_empty = q_n == {QW{1'b0}};
    wire         can     = cool == {IIW{1'b0}};
    wire         byp     = q_empty && a_v && can;
    wire         pop     = !q_empty && can;
    wire         push    = a_v && !byp;
    assign issue = byp || pop;
    wire [EW-1:0] i_ent = pop ? q_mem[q_rd] : a_ent;
    wire [IW-1:0] i_idx = i_ent[EW-1 -: IW];
    wire [DW-1:0] i_d   = i_ent[16 +: DW];
    wire [7:0]    i_ea  = i_ent[15:8];
    wire [7:0]    i_eb  = i_ent[7:0];
    function automatic [IW-1:0] inc(input [IW-1:0] p);
        inc = (p == NSH[IW-1:0] - 1'b1 || NSH == 1) ? {IW{1'b0}} : p + 1'b1;
    endfunction

    wire [31:0] i_t;
    mx_exp_term #(.DW(DW)) u_term (.d(i_d), .ea(i_ea), .eb(i_eb), .t(i_t));

    // ---- latency stages 1..LAT_MAX: {valid, idx, t}; stage cfg_lat is the add stage ----
    reg          p_v   [1:LM];
    reg [IW-1:0] p_idx [1:LM];
    reg [31:0]   p_t   [1:LM];
    reg          w_v;
    reg [IW-1:0] w_idx;
    reg [31:0]   w_t;
    reg          pipe_busy;
    integer j;
    always @* begin
        w_v = issue; w_idx = i_idx; w_t = i_t; pipe_busy = 1'b0;
        for (j = 1; j <= LM; j = j + 1) begin
            if (j <= LAT_MAX && cfg_lat == j[7:0]) begin
                w_v = p_v[j]; w_idx = p_idx[j]; w_t = p_t[j];
            end
            if (j <= LAT_MAX && j[7:0] <= cfg_lat && p_v[j]) pipe_busy = 1'b1;
        end
    end

    // ---- accumulators ----
    reg  [31:0] acc_q [0:NSH-1];
    wire [31:0] sum;
    mx_fp32_add u_add (.a(acc_q[w_idx]), .b(w_t), .s(sum));
    genvar gk;
    generate
        for (gk = 0; gk < NSH; gk = gk + 1) begin : g_acc
            assign acc[gk*32 +: 32] = acc_q[gk];
        end
    endgenerate
    assign busy = !q_empty || pipe_busy;

    always @(posedge clk) begin
        if (clr) begin
            q_rd <= {IW{1'b0}}; q_wr <= {IW{1'b0}}; q_n <= {QW{1'b0}};
            cool <= {IIW{1'b0}}; err <= 1'b0;
            for (j = 1; j <= LM; j = j + 1) p_v[j] <= 1'b0;
            for (j = 0; j < NSH; j = j + 1) acc_q[j] <= 32'd0;
        end else begin
            if (push) begin
                q_mem[q_wr] <= a_ent;
                q_wr <= inc(q_wr);
            end
            if (pop) q_rd <= inc(q_rd);
            if (push && !pop) q_n <= q_n + 1'b1;
            else if (pop && !push) q_n <= q_n - 1'b1;
            if (a_two || (push && !pop && q_n == NSH[QW-1:0])) err <= 1'b1;
            cool <= issue ? cfg_ii - 1'b1 : (can ? cool : cool - 1'b1);
            p_v[1] <= issue && cfg_lat >= 8'd1 && LAT_MAX > 0; p_idx[1] <= i_idx; p_t[1] <= i_t;
            for (j = 2; j <= LM; j = j + 1) begin
                p_v[j]   <= p_v[j-1] && cfg_lat >= j[7:0];
                p_idx[j] <= p_idx[j-1];
                p_t[j]   <= p_t[j-1];
            end
            if (w_v) acc_q[w_idx] <= sum;
        end
    end
endmodule

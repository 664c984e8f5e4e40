// mx_array.v - the R x C output-stationary MXINT8 processing-element array (sim/doc/rtl.md
// section 5): the array controller, the operand load path with its systolic skew, R x C mx_pe,
// the shared-exponent units (mx_exp_unit: per PE, row or column, SHARE) and the drain port of the
// fp32 results.  It runs one fold: C[i, j] for i < cfg_mr, j < cfg_mc over cfg_ng groups of
// cfg_g elements, on an active cfg_rows x cfg_cols corner of the built R x C array.
//
// Schedule (the timing model's machine, sim/doc/architecture.md section 2, OS): the controller
// releases one step per group; a step is the group's t_g = ceil(cfg_g / cfg_w) beats, released in
// consecutive cycles, and the next step starts I = max(t_g, n * cfg_ii) cycles after it, n the
// mapped PEs that share the busiest unit (1 per PE, cfg_mc per row, cfg_mr per column); the last
// step's beats end the releases.  cfg_w is the beat width min(L, load_lanes) (the configuration's
// L may be below the built L: lanes cfg_w..L-1 stay zero).  Each released beat is one load-path
// read: ld_v, the element index ld_k = g * cfg_g + off of its lane 0 and ld_n = min(cfg_w,
// cfg_g - off) valid lanes; the source answers in the same cycle with ld_a (row i's lanes in
// [8Li + 8l +: 8]) and ld_ae (row i's scale byte), ld_b and ld_be for the columns; lanes at or
// above ld_n are zeroed here, whatever the source drives.  Row i's operands enter PE (i, 0) i cycles
// later, column j's enter PE (0, j) j cycles later, and both move one PE a cycle, so PE (i, j)
// consumes release c's beat in cycle c + i + j.
//
// Cycle counters (cleared by start; cycle 0 is the first release): cnt_total counts the fold's
// cycles (the last one is the last with a beat slot in the array or work in an exponent unit);
// cnt_compute the release cycles, cnt_fd the cycles after the last release while a beat slot is
// still in the skew registers or the PEs (the fill/drain of the model), cnt_stall the others
// (cycles between steps where no beat is released, and the exponent units' tail), cnt_exp_ops
// the operations issued.  done is high once the fold has ended (until the next start).
// Drain: rd_data holds the fp32 results of row rd_row, column j in [32j +: 32], and rd_bf16 the
// same rounded to bf16 (out.format = bf16; mx_bf16_out) in [16j +: 16] (read one row a cycle
// after done; the model counts no output drain for OS, see sim/doc/rtl.md).
// Injected bugs (harness self-test): MXSIM_RTL_BUG_NO_STALL releases steps every t_g cycles (drops
// the exponent stall); MXSIM_RTL_BUG_LANE drops the last valid lane of a beat of 2+ lanes.
`default_nettype none


module mx_array #(
    parameter integer R       = 4,
    parameter integer C       = 4,
    parameter integer L       = 4,
    parameter integer DW      = 32,
    parameter integer SHARE   = 0, // 0 per PE, 1 per row, 2 per column (exp.share)
    parameter integer LAT_MAX = 4
) (
    input  wire               clk,
    input  wire               start,
    input  wire [7:0]         cfg_rows,
    input  wire [7:0]         cfg_cols,
    input  wire [7:0]         cfg_mr,
    input  wire [7:0]         cfg_mc,
    input  wire [7:0]         cfg_w,
    input  wire [15:0]        cfg_g,
    input  wire [15:0]        cfg_ng,
    input  wire [7:0]         cfg_ii,
    input  wire [7:0]         cfg_lat,
    output wire               ld_v,
    output wire [31:0]        ld_k,
    output wire [7:0]         ld_n,
    input  wire [R*8*L-1:0]   ld_a,
    input  wire [R*8-1:0]     ld_ae,
    input  wire [C*8*L-1:0]   ld_b,
    input  wire [C*8-1:0]     ld_be,
    input  wire [7:0]         rd_row,
    output wire [C*32-1:0]    rd_data,
    output wire [C*16-1:0]    rd_bf16,
    output wire               done,
    output wire               err,
    output reg  [31:0]        cnt_total,
    output reg  [31:0]        cnt_compute,
    output reg  [31:0]        cnt_fd,
    output reg  [31:0]        cnt_stall,
    output reg  [31:0]        cnt_exp_ops
);
    localparam integer AW = 4 + 8 * L + 8; // {tok, v, first, last, mantissas, scale}
    localparam integer BW = 1 + 8 * L + 8; // {v, mantissas, scale}
    localparam integer NU = SHARE == 0 ? R * C : SHARE == 1 ? R : C;   // exponent units
    localparam integer NS = SHARE == 0 ? 1 : SHARE == 1 ? C : R;       // PEs per unit

    // ---- controller ----
    reg         run, started;
    reg [15:0]  g, off, scnt;
    wire [16:0] off_w  = {1'b0, off} + {9'd0, cfg_w};
    wire        beat_now = run && off < cfg_g;
    wire        last   = off_w >= {1'b0, cfg_g};
    wire [15:0] left   = cfg_g - off;
    assign ld_n = (left < {8'd0, cfg_w}) ? left[7:0] : cfg_w;
    assign ld_v = beat_now;
    assign ld_k = g * cfg_g + {16'd0, off};
    wire [7:0]  n_sh = SHARE == 0 ? 8'd1 : SHARE == 1 ? cfg_mc : cfg_mr;
    wire [15:0] n_ii = n_sh * cfg_ii;
    wire        final_step = g == cfg_ng - 16'd1;
`ifdef MXSIM_RTL_BUG_NO_STALL
    wire        step_end = !(beat_now && !last) && (n_ii == n_ii);
`else
    wire        step_end = !(beat_now && !last) && ({1'b0, scnt} + 17'd1 >= {1'b0, n_ii} || final_step);
`endif
    always @(posedge clk) begin
        if (start) begin
            run <= cfg_ng != 16'd0; started <= 1'b1;
            g <= 16'd0; off <= 16'd0; scnt <= 16'd0;
        end else if (run) begin
            if (step_end) begin
                g <= g + 16'd1; off <= 16'd0; scnt <= 16'd0;
                if (final_step) run <= 1'b0;
            end else begin
                if (beat_now) off <= off_w[15:0];
                scnt <= scnt + 16'd1;
            end
        end
    end

    // ---- load path: lane mask, then the skew (row i: i registers; column j: j registers) ----
    reg [8*L-1:0] mask;
    integer l;
    always @* begin
        for (l = 0; l < L; l = l + 1)
`ifdef MXSIM_RTL_BUG_LANE
            mask[8*l +: 8] = ({24'd0, ld_n} > l + 1 || (ld_n == 8'd1 && l == 0)) ? 8'hFF : 8'h00;
`else
            mask[8*l +: 8] = ({24'd0, ld_n} > l) ? 8'hFF : 8'h00;
`endif
    end

    wire [R*C-1:0]    tok, op_v;
    wire [R*C*DW-1:0] op_d;
    wire [R*C*8-1:0]  op_ea, op_eb;
    wire [R*C*AW-1:0] a_in;          // PE (i, j)'s A inputs and registered outputs
    wire [R*C*BW-1:0] b_in;
    /* verilator lint_off UNUSEDSIGNAL */
    wire [R*C*AW-1:0] a_out;         // the last column's and row's outputs leave the array
    wire [R*C*BW-1:0] b_out;
    /* verilator lint_on UNUSEDSIGNAL */
    wire [R-1:0]      dl_tok;        // a beat slot in row i's skew registers
    genvar gi, gj;
    generate
        for (gi = 0; gi < R; gi = gi + 1) begin : g_row
            wire [AW-1:0] f_in = {beat_now && cfg_rows > gi, cfg_mr > gi, off == 16'd0, last,
                                  ld_a[gi*8*L +: 8*L] & mask, ld_ae[gi*8 +: 8]};
            mx_delay #(.W(AW), .D(gi)) u_skew (.clk(clk), .i(f_in), .o(a_in[gi*C*AW +: AW]));
            if (gi == 0) begin : g_t0
                assign dl_tok[gi] = 1'b0;
            end else begin : g_t
                // a slot is in row gi's skew registers while one of the last gi inputs had one
                reg [gi-1:0] tk;
                integer k;
                always @(posedge clk) begin
                    tk[0] <= f_in[AW-1];
                    for (k = 1; k < gi; k = k + 1) tk[k] <= tk[k-1];
                end
                assign dl_tok[gi] = |tk;
            end
        end
        for (gj = 0; gj < C; gj = gj + 1) begin : g_col
            wire [BW-1:0] f_in = {beat_now && cfg_mc > gj && cfg_cols > gj,
                                  ld_b[gj*8*L +: 8*L] & mask, ld_be[gj*8 +: 8]};
            mx_delay #(.W(BW), .D(gj)) u_skew (.clk(clk), .i(f_in), .o(b_in[gj*BW +: BW]));
        end
        for (gi = 0; gi < R; gi = gi + 1) begin : g_pr
            for (gj = 0; gj < C; gj = gj + 1) begin : g_pc
                localparam integer P = gi * C + gj;
                if (gj > 0) begin : g_ain
                    assign a_in[P*AW +: AW] = a_out[(P-1)*AW +: AW];
                end
                if (gi > 0) begin : g_bin
                    assign b_in[P*BW +: BW] = b_out[(P-C)*BW +: BW];
                end
                wire [AW-1:0] ai = a_in[P*AW +: AW];
                wire [BW-1:0] bi = b_in[P*BW +: BW];
                mx_pe #(.L(L), .DW(DW)) u_pe (
                    .clk(clk), .en(cfg_rows > gi && cfg_cols > gj),
                    .a_tok(ai[AW-1]), .a_v(ai[AW-2]), .a_first(ai[AW-3]), .a_last(ai[AW-4]),
                    .a_m(ai[8 +: 8*L]), .a_e(ai[7:0]),
                    .b_v(bi[BW-1]), .b_m(bi[8 +: 8*L]), .b_e(bi[7:0]),
                    .a_tok_o(a_out[P*AW+AW-1]), .a_v_o(a_out[P*AW+AW-2]),
                    .a_first_o(a_out[P*AW+AW-3]), .a_last_o(a_out[P*AW+AW-4]),
                    .a_m_o(a_out[P*AW+8 +: 8*L]), .a_e_o(a_out[P*AW +: 8]),
                    .b_v_o(b_out[P*BW+BW-1]), .b_m_o(b_out[P*BW+8 +: 8*L]), .b_e_o(b_out[P*BW +: 8]),
                    .tok(tok[P]), .op_v(op_v[P]), .op_d(op_d[P*DW +: DW]),
                    .op_ea(op_ea[P*8 +: 8]), .op_eb(op_eb[P*8 +: 8]));
            end
        end
    endgenerate

    // ---- exponent units: unit u serves ports k = PE pe_of(u, k) ----
    wire [NU-1:0]        u_busy, u_issue, u_err;
    wire [R*C*32-1:0]    acc_pe;  // PE (i, j)'s accumulator at [(iC+j)*32 +: 32]
    genvar gu, gk;
    generate
        for (gu = 0; gu < NU; gu = gu + 1) begin : g_unit
            wire [NS-1:0]    v;
            wire [NS*DW-1:0] d;
            wire [NS*8-1:0]  ea, eb;
            wire [NS*32-1:0] acc;
            for (gk = 0; gk < NS; gk = gk + 1) begin : g_port
                localparam integer P = SHARE == 0 ? gu : SHARE == 1 ? gu * C + gk : gk * C + gu;
                assign v[gk] = op_v[P];
                assign d[gk*DW +: DW] = op_d[P*DW +: DW];
                assign ea[gk*8 +: 8] = op_ea[P*8 +: 8];
                assign eb[gk*8 +: 8] = op_eb[P*8 +: 8];
                assign acc_pe[P*32 +: 32] = acc[gk*32 +: 32];
            end
            mx_exp_unit #(.NSH(NS), .DW(DW), .LAT_MAX(LAT_MAX), .IIW(8)) u_exp (
                .clk(clk), .clr(start), .cfg_ii(cfg_ii), .cfg_lat(cfg_lat),
                .in_v(v), .in_d(d), .in_ea(ea), .in_eb(eb), .acc(acc),
                .busy(u_busy[gu]), .issue(u_issue[gu]), .err(u_err[gu]));
        end
    endgenerate
    assign err = |u_err;

    // ---- drain port ----
    generate
        for (gj = 0; gj < C; gj = gj + 1) begin : g_rd
            assign rd_data[gj*32 +: 32] = acc_pe[({24'd0, rd_row} * C + gj) * 32 +: 32];
            mx_bf16_out u_bf16 (.f(rd_data[gj*32 +: 32]), .b(rd_bf16[gj*16 +: 16]));
        end
    endgenerate

    // ---- activity and the cycle counters ----
    wire slots  = |tok || |dl_tok; // B's skew registers hold data only with A's slots
    wire active = run || slots || |u_busy || |u_issue;
    assign done = started && !active;
    reg [31:0] n_iss;
    integer u;
    always @* begin
        n_iss = 32'd0;
        for (u = 0; u < NU; u = u + 1) n_iss = n_iss + {31'd0, u_issue[u]};
    end
    always @(posedge clk) begin
        if (start) begin
            cnt_total <= 32'd0; cnt_compute <= 32'd0; cnt_fd <= 32'd0; cnt_stall <= 32'd0;
            cnt_exp_ops <= 32'd0;
        end else if (active) begin
            cnt_total <= cnt_total + 32'd1;
            if (beat_now) cnt_compute <= cnt_compute + 32'd1;
            else if (!run && slots) cnt_fd <= cnt_fd + 32'd1;
            else cnt_stall <= cnt_stall + 32'd1;
            cnt_exp_ops <= cnt_exp_ops + n_iss;
        end
    end
endmodule

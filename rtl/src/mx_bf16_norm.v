// mx_bf16_norm.v - exact bf16 normaliser of the dequantization lane (mx_dequant_lane.v).
//
`default_nettype none

// value = sig * 2^(eeff - 134) as bf16 exponent and fraction fields, for
// sig != 0 and 1 <= eeff <= 255.  With the leading one at bit q the biased exponent is
// eeff + q - 7: if >= 1 the number is normal (shift the leading one to bit 8 and drop it), else it
// is subnormal with fraction sig << (eeff - 1) (< 2^7 then).  An exponent >= 255 overflows to Inf.
// sig has at most 8 significant bits below the leading one's bit 8, and bit 0 is 0 when q = 8,
// so no rounding is ever needed for the inputs this unit produces.
module mx_bf16_norm (
    input  wire [8:0] sig,
    input  wire [8:0] eeff,
    output reg  [7:0] expo,
    output reg  [6:0] frac
);
    reg [3:0] q;
    reg [9:0] e_norm;
    reg [8:0] shl;        // normal: the leading one lands in bit 8 and is dropped
    integer   i;
    wire      unused_lead = shl[8];
    always @* begin
        q = 4'd0;
        for (i = 0; i < 9; i = i + 1)
            if (sig[i]) q = i[3:0];
        e_norm = {1'b0, eeff} + {6'd0, q} - 10'd7;
        if (!e_norm[9] && e_norm != 10'd0) begin             // normal
            shl = sig << (4'd8 - q);
            if (e_norm >= 10'd255) begin                     // overflow: Inf
                expo = 8'hFF;
                frac = 7'd0;
            end else begin
                expo = e_norm[7:0];
                frac = shl[7:1];
            end
        end else begin                                       // subnormal: eeff <= 7 here
            shl  = sig << eeff[2:0] >> 1;
            expo = 8'd0;
            frac = shl[6:0];
        end
    end
endmodule

`default_nettype wire

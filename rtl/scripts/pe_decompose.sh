#!/usr/bin/env bash
# pe_decompose.sh - the synthesized area of the PE and of the shared-exponent unit, split into the
# components the cost model counts (sim/doc/rtl.md section 10, reports/rtl/README.md).
#
# usage: pe_decompose.sh YOSYS RTL_SRC_DIR WORK_DIR PE_AREA_CSV OUT_CSV
#
# PE_AREA_CSV is synth_pe_area.sh's output (its pe and exp rows give the flattened totals and the
# flip-flop counts).  Per pe row (L, G), each part synthesized alone: the dot product (mx_dot_booth:
# the L radix-4 Booth lanes, the Wallace tree over their carry-save rows and the one carry-propagate
# adder; rtl/src), split into its L lanes (mx_booth_lane, L x one lane: Booth select + Dadda to two
# rows, no adder) and the rest of it (lane-merging tree + final adder = dot - L lanes); the group-sum
# adder with its first-beat select (rtl/scripts/area_probes.v: the expression of mx_pe.v);
# registers = DFF x 4 GE; "rest" = flattened total - those (register enable muxes, valid/token
# logic, and whatever flattening saves or adds across the probes' boundaries).  The cost model
# counts L multipliers (each with its own adder) and an adder tree of L - 1 adders: the fused unit
# maps onto their sum (dot_product = multipliers + adder tree), not part by part.
# Lone 8 x 8 multipliers (block mul8, printed for reference): mx_mul8_booth (one Booth lane and its
# own 16-bit adder) and the plain $signed(a) * $signed(b) (yosys's array multiplier, the PE's
# multiplier before the Booth unit).
# Per exp row (G, NSH): mx_exp_unit_syn synthesized with mx_exp_term, mx_fp32_add and both
# mx_fp32_round instances kept as separate modules (keep_hierarchy), so yosys's stat gives each
# module's own cells: the term front (scale-exponent add, |d|, NaN select), the term's rounder
# (W = DW), the adder front (compare, swap, exponent difference, alignment shift with sticky,
# 28-bit add/sub, special cases), the adder's rounder (W = 28), and the unit's own level:
# registers (DFF x 4) and the rest (FIFO and port multiplexers, register enables, arbiter).
# The kept hierarchy costs some area against the flattened unit (no optimisation across the
# module boundaries); both totals are written.  Library: ge.lib (NAND2 equivalents).
# Columns: block,lanes,group,dw,nsh,component,ge.  Exit 0 ok, 1 a synthesis failed, 77 no yosys.
set -u
YOSYS=$1 SRC=$2 WORK=$3 AREA=$4 OUT=$5
command -v "$YOSYS" >/dev/null 2>&1 || { echo "pe_decompose: yosys not found ($YOSYS): skipped"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$HERE/ge.lib PROBES=$HERE/area_probes.v
mkdir -p "$WORK"
BOOTH="$SRC/mx_booth_lane.v $SRC/mx_mul8_booth.v $SRC/mx_dot_booth.v"
FILES="$SRC/mx_fp32_round.v $SRC/mx_exp_term.v $SRC/mx_fp32_add.v $SRC/mx_exp_unit.v $SRC/mx_exp_unit_syn.v"
clog2() { local v=1 n=0; while [ $v -lt "$1" ]; do v=$((v * 2)); n=$((n + 1)); done; echo $n; }
chip() { awk '/Chip area for module/ {print $NF}' "$1"; }

probe() { # top chparam-args -> GE
    local tag=$1 top=$2 setp=$3
    "$YOSYS" -q -l "$WORK/$tag.log" -p "read_verilog $PROBES $BOOTH; ${setp:+chparam $setp $top;} synth -flatten -top $top; \
        abc -liberty $LIB; opt_clean; \
        setattr -mod -unset keep_hierarchy *; flatten; opt_clean; tee -q -o $WORK/$tag.stat stat -liberty $LIB" >/dev/null 2>&1 || { echo "FAILED $tag" >&2; return 1; }
    local a; a=$(chip "$WORK/$tag.stat"); echo "${a:-0}"
}

TMP="$OUT.tmp.$$"
echo "block,lanes,group,dw,nsh,component,ge" > "$TMP"
rc=0
mul=$(probe mul8 p_mul8 "") || rc=1
mulb=$(probe mul8_booth mx_mul8_booth "") || rc=1
lane=$(probe booth_lane mx_booth_lane "") || rc=1
printf "mul8,1,0,16,1,booth_radix4_dadda_cpa,%.1f\nmul8,1,0,16,1,yosys_array_signed_mul,%.1f\n" "$mulb" "$mul" >> "$TMP"
while IFS=, read -r blk l g dw nsh share ge dff rest; do
    case $blk in
    pe)
        tw=$((17 + $(clog2 "$l")))
        dot=$(probe "dot_L$l" mx_dot_booth "-set L $l") || rc=1
        ps=$(probe "psum_L${l}_DW$dw" p_psum "-set DW $dw -set TW $tw") || rc=1
        awk -v l="$l" -v g="$g" -v dw="$dw" -v ln="$lane" -v t="$dot" -v p="$ps" -v d="$dff" -v tot="$ge" 'BEGIN {
            r = tot - t - p - 4 * d
            printf "pe,%d,%d,%d,1,dot_product,%.1f\n", l, g, dw, t
            printf "pe,%d,%d,%d,1,booth_lanes,%.1f\npe,%d,%d,%d,1,lane_tree_and_adder,%.1f\n", l, g, dw, l * ln, l, g, dw, t - l * ln
            printf "pe,%d,%d,%d,1,group_sum_adder_select,%.1f\npe,%d,%d,%d,1,registers_dff,%.1f\n", l, g, dw, p, l, g, dw, 4 * d
            printf "pe,%d,%d,%d,1,rest,%.1f\npe,%d,%d,%d,1,total_flat,%.1f\n", l, g, dw, r, l, g, dw, tot }' >> "$TMP"
        ;;
    exp)
        tag="exph_G${g}_N$nsh"
        "$YOSYS" -q -l "$WORK/$tag.log" -p "read_verilog $FILES; \
            chparam -set NSH $nsh -set DW $dw -set II 1 -set LAT 2 mx_exp_unit_syn; hierarchy -top mx_exp_unit_syn; \
            setattr -mod -set keep_hierarchy 1 *mx_exp_term* *mx_fp32_add* *mx_fp32_round*; \
            synth -flatten -top mx_exp_unit_syn; dfflegalize -cell \$_DFF_P_ 01; dfflibmap -liberty $LIB; \
            abc -liberty $LIB; opt_clean; tee -q -o $WORK/$tag.stat stat -liberty $LIB" >/dev/null 2>&1 \
            || { echo "FAILED $tag" >&2; rc=1; continue; }
        awk -v g="$g" -v dw="$dw" -v n="$nsh" -v tot="$ge" '
            /^=== / { mod = $2 }
            /Chip area for module/ {
                a = $NF
                if (mod ~ /mx_fp32_round/ && mod ~ /W=s32.00000000000000000000000000011100/) radd = a
                else if (mod ~ /mx_fp32_round/) rterm = a
                else if (mod ~ /mx_exp_term/) term = a
                else if (mod ~ /mx_fp32_add/) add = a
                else if (mod ~ /mx_exp_unit_syn/) top = a
            }
            /^=== design hierarchy ===/ { inh = 1 }
            !inh && mod ~ /mx_exp_unit_syn/ && $1 == "DFF" { dff = $2 }
            /Chip area for top module/ { hier = $NF }
            END {
                printf "exp,1,%d,%d,%d,term_front,%.1f\n", g, dw, n, term
                printf "exp,1,%d,%d,%d,term_rounder,%.1f\n", g, dw, n, rterm
                printf "exp,1,%d,%d,%d,fp32_add_front,%.1f\n", g, dw, n, add
                printf "exp,1,%d,%d,%d,fp32_add_rounder,%.1f\n", g, dw, n, radd
                printf "exp,1,%d,%d,%d,registers_dff,%.1f\n", g, dw, n, 4 * dff
                printf "exp,1,%d,%d,%d,rest,%.1f\n", g, dw, n, top - 4 * dff
                printf "exp,1,%d,%d,%d,total_hier,%.1f\n", g, dw, n, hier
                printf "exp,1,%d,%d,%d,total_flat,%.1f\n", g, dw, n, tot
            }' "$WORK/$tag.stat" >> "$TMP"
        ;;
    esac
done < <(tail -n +2 "$AREA")
[ $rc -eq 0 ] || { rm -f "$TMP"; exit 1; }
mv -f "$TMP" "$OUT"
echo "pe_decompose: wrote $OUT"

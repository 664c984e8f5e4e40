#!/usr/bin/env bash
# synth_pe_area.sh - synthesizes the PE array's blocks with yosys and writes their areas.
#
# usage: synth_pe_area.sh YOSYS RTL_SRC_DIR WORK_DIR OUT_CSV [JOBS] [quick|osu|share|full] [OSU_LIB]
#
# Blocks (rtl/src, flattened):
#   pe    mx_pe: L multipliers, the adder tree, the group-sum register, the operand and scale
#         registers of the systolic path; DW = 17 + clog2(G) (holds any group sum)
#   exp   mx_exp_unit_syn: one shared-exponent unit, II = 1, latency 2, serving NSH PEs (their
#         fp32 accumulators and its FIFO included)
#   array mx_array_syn (full only): a 4 x 4 array, L = 4, G = 32, per PE / row / column
# quick (CTest): pe L in {1, 4, 8} at G = 32; exp G in {8, 32, 64}, NSH = 1, and G 32, NSH 4.
# osu (CTest rtl_pe_osu018_sta; needs OSU_LIB and OpenSTA): pe L 4, G 32 and exp G 32, NSH 1, each
#         mapped to OSU018 and timed; fails when a block has no OSU area or worst path, or when
#         its OSU018 GE and ge.lib GE differ by more than 25 %.
# full (rtl/scripts/pe_sweep.sh): pe L in {1, 2, 4, 8, 16, 32} at G = 32 and L = 8 at G in
#         {8, 16, 64}; exp G in {8, 16, 32, 64} at NSH = 1, G = 32 at NSH = 4, 8, and G in
#         {8, 16, 64} at NSH = 8 (the units' share of an 8 x 8 per-row array vs G); the arrays.
# share: only those three NSH = 8 rows.
# Flows as synth_area.sh: `ge` (ge.lib NAND2 equivalents, the checked figure) and `gen` (generic
# gates, transistors / 4).  With OSU_LIB (osu018_stdcells.lib of Debian's qflow-tech-osu018) each
# block is also mapped to OSU 0.18 um (chip area in um2, / 24 = NAND2 equivalents) and, when
# OpenSTA (sta) is installed, its worst path is reported (ns; input and output delays 0, no wire
# load): a relative figure, OSU018 being a 1.8 V lambda-rule library.  The netlist for OpenSTA is
# written after `opt_clean -purge; splitnets` (after the area is taken): without it, the named
# wires of the flattened sub-modules (mx_dot_booth's lanes) can come out as assigns to
# concatenations, which OpenSTA's Verilog reader refuses.
# OUT_CSV is replaced atomically.  Exit 0 ok, 1 a synthesis failed, 77 no yosys.
set -u
YOSYS=$1 SRC=$2 WORK=$3 OUT=$4 JOBS=${5:-2} MODE=${6:-quick} OSU=${7:-}
command -v "$YOSYS" >/dev/null 2>&1 || { echo "synth_pe_area: yosys not found ($YOSYS): skipped"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$HERE/ge.lib
mkdir -p "$WORK" "$(dirname "$OUT")"
FILES="$SRC/mx_fp32_round.v $SRC/mx_exp_term.v $SRC/mx_fp32_add.v $SRC/mx_exp_unit.v $SRC/mx_booth_lane.v $SRC/mx_dot_booth.v $SRC/mx_pe.v $SRC/mx_delay.v $SRC/mx_bf16_out.v $SRC/mx_array.v $SRC/mx_exp_unit_syn.v $SRC/mx_array_syn.v"
[ -n "$OSU" ] && [ ! -f "$OSU" ] && { echo "synth_pe_area: $OSU not found: OSU flow skipped"; OSU=; }

clog2() { local v=1 n=0; while [ $v -lt "$1" ]; do v=$((v * 2)); n=$((n + 1)); done; echo $n; }

run_one() { # block L G NSH SHARE
    local blk=$1 l=$2 g=$3 nsh=$4 sh=$5 dw=$((17 + $(clog2 $3))) top setp tag
    case $blk in
    pe) top=mx_pe; setp="chparam -set L $l -set DW $dw mx_pe" ;;
    exp) top=mx_exp_unit_syn; setp="chparam -set NSH $nsh -set DW $dw -set II 1 -set LAT 2 mx_exp_unit_syn" ;;
    array) top=mx_array_syn; setp="chparam -set R 4 -set C 4 -set L $l -set G $g -set SHARE $sh -set II 1 -set LAT 2 mx_array_syn" ;;
    esac
    tag="${blk}_L${l}_G${g}_N${nsh}_S${sh}"
    local pre="read_verilog $FILES; $setp; synth -flatten -top $top; dfflegalize -cell \$_DFF_P_ 01"
    # mx_booth_lane is (* keep_hierarchy *): each lane is mapped as its own module, then the mapped
    # netlist is flattened so that stat counts one module (rtl.md section 10)
    local post="setattr -mod -unset keep_hierarchy *; flatten; opt_clean"
    "$YOSYS" -q -l "$WORK/$tag.ge.log" -p "$pre; dfflibmap -liberty $LIB; abc -liberty $LIB; opt_clean; $post; \
        tee -q -o $WORK/$tag.ge.stat stat -liberty $LIB" >/dev/null 2>&1 || { echo "FAILED $tag (ge)"; return 1; }
    "$YOSYS" -q -l "$WORK/$tag.gen.log" -p "$pre; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; opt_clean; $post; \
        tee -q -o $WORK/$tag.gen.stat stat -tech cmos" >/dev/null 2>&1 || { echo "FAILED $tag (gen)"; return 1; }
    local ge dff tr osu="" sta=""
    ge=$(awk '/Chip area for module/ {print $NF}' "$WORK/$tag.ge.stat")
    dff=$(awk '$1 == "DFF" {print $2}' "$WORK/$tag.ge.stat")
    tr=$(awk '/Estimated number of transistors:/ {print $NF}' "$WORK/$tag.gen.stat")
    [ -n "$ge" ] && [ -n "$tr" ] || { echo "FAILED $tag: no figures in the stat output"; return 1; }
    if [ -n "$OSU" ]; then
        "$YOSYS" -q -l "$WORK/$tag.osu.log" -p "$pre; dfflibmap -liberty $OSU; abc -liberty $OSU; opt_clean; $post; \
            tee -q -o $WORK/$tag.osu.stat stat -liberty $OSU; opt_clean -purge; splitnets; opt_clean -purge; write_verilog -noattr $WORK/$tag.osu.v" >/dev/null 2>&1 \
            || { echo "FAILED $tag (osu)"; return 1; }
        osu=$(awk '/Chip area for module/ {print $NF}' "$WORK/$tag.osu.stat")
        if command -v sta >/dev/null 2>&1; then
            (cd "$WORK" && sta -no_splash -exit) > "$WORK/$tag.sta.log" 2>&1 <<EOS
read_liberty $OSU
read_verilog $WORK/$tag.osu.v
link_design $top
create_clock -name clk -period 100 [get_ports clk]
set_input_delay 0 -clock clk [delete_from_list [all_inputs] [get_ports clk]]
set_output_delay 0 -clock clk [all_outputs]
report_checks -path_delay max -digits 3
EOS
            sta=$(awk '/data arrival time/ {print $1; exit}' "$WORK/$tag.sta.log")
        fi
    fi
    echo "$blk,$l,$g,$dw,$nsh,$sh,$ge,${dff:-0},${tr%+},$(awk -v t="${tr%+}" 'BEGIN{printf "%.1f", t/4}'),${osu},$( [ -n "$osu" ] && awk -v a="$osu" 'BEGIN{printf "%.1f", a/24}'),${sta}" > "$WORK/$tag.row"
    echo "$WORK/$tag.row"
}

jobs_list=()
if [ "$MODE" = quick ]; then
    for l in 1 4 8; do jobs_list+=("pe $l 32 1 0"); done
    for g in 8 32 64; do jobs_list+=("exp 1 $g 1 0"); done
    jobs_list+=("exp 1 32 4 0")
elif [ "$MODE" = osu ]; then
    [ -n "$OSU" ] || { echo "synth_pe_area: osu mode needs OSU_LIB (qflow-tech-osu018): skipped"; exit 77; }
    command -v sta >/dev/null 2>&1 || { echo "synth_pe_area: OpenSTA (sta) not found: skipped"; exit 77; }
    jobs_list+=("pe 4 32 1 0" "exp 1 32 1 0")
else
    for l in 1 2 4 8 16 32; do jobs_list+=("pe $l 32 1 0"); done
    for g in 8 16 64; do jobs_list+=("pe 8 $g 1 0"); done
    for g in 8 16 32 64; do jobs_list+=("exp 1 $g 1 0"); done
    for n in 4 8; do jobs_list+=("exp 1 32 $n 0"); done
    for g in 8 16 64; do jobs_list+=("exp 1 $g 8 0"); done
    for s in 0 1 2; do jobs_list+=("array 4 32 1 $s"); done
fi
if [ "$MODE" = share ]; then # the rows `full` added for the units' share vs G (a unit of 8 PEs)
    jobs_list=()
    for g in 8 16 64; do jobs_list+=("exp 1 $g 8 0"); done
fi
rows=() pids=() rc=0
for j in "${jobs_list[@]}"; do
    set -- $j
    run_one "$@" > "$WORK/job.$$.${#pids[@]}" &
    pids+=($!)
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || rc=1; done
[ $rc -eq 0 ] || { cat "$WORK"/job.$$.*; exit 1; }
TMP="$OUT.tmp.$$"
{
    echo "block,lanes,group,dw,nsh,share,ge_nand2,dff,transistors,ge_from_transistors,osu018_um2,osu018_ge,sta_ns"
    for i in "${!pids[@]}"; do cat "$(cat "$WORK/job.$$.$i")"; done
} > "$TMP" && mv -f "$TMP" "$OUT"
rm -f "$WORK"/job.$$.*
echo "synth_pe_area: wrote $OUT ($MODE, $("$YOSYS" -V | head -1))"
cat "$OUT"
if [ "$MODE" = osu ]; then
    # every block mapped to OSU018 and timed: an area, a worst path, and the two NAND2-equivalent
    # counts (OSU chip area / 24 um2 and ge.lib) within 25 % of each other (they differ by the
    # library's cells: OSU018 has full adders and AOI/OAI gates, ge.lib only simple gates)
    awk -F, 'NR > 1 {
        n++
        if ($11 == "" || $11 <= 0) { printf "FAIL %s L%s G%s: no OSU018 area\n", $1, $2, $3; bad++; next }
        if ($13 == "" || $13 <= 0) { printf "FAIL %s L%s G%s: no OpenSTA worst path\n", $1, $2, $3; bad++; next }
        r = $12 / $7
        printf "%s L%s G%s NSH%s: OSU018 %.0f um2 = %.1f GE, ge.lib %.1f GE (OSU/ge %.3f), worst path %.3f ns\n", $1, $2, $3, $5, $11, $12, $7, r, $13
        if (r < 0.75 || r > 1.25) { print "FAIL: OSU018 and ge.lib GE differ by more than 25 %"; bad++ }
    } END { if (n == 0) { print "FAIL: no rows"; exit 1 } exit bad ? 1 : 0 }' "$OUT" || exit 1
fi

#!/usr/bin/env bash
# synth_area.sh - synthesizes the dequantization unit with yosys and writes NAND2-equivalent counts.
#
# usage: synth_area.sh YOSYS RTL_SRC_DIR WORK_DIR OUT_CSV [JOBS]
#
# For each profile (ocp, mase-cuda) and LANES in {1, 4, 32}, with G = 32 elements per scale
# (GROUP_BEATS = 32 / LANES), at the simulator's default pipeline depth (4), and for LANES = 32 also
# with no pipeline (depth 0: the decode logic alone, per lane), two flows run on the flattened unit:
#   ge:  synth; dfflegalize to plain DFFs; map to rtl/scripts/ge.lib (NAND2-equivalent areas,
#        sim/doc/references.md#osu018) -> "Chip area" = GE.  This is the figure the area check uses.
#   gen: synth; dfflegalize; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; stat -tech cmos -> generic gate
#        count and transistors (NOT 2, NAND/NOR 4, AND/OR 6, XOR/XNOR/MUX 12, DFF 16); transistors
#        / 4 is a second NAND2-equivalent estimate, reported beside the first.
# OUT_CSV is replaced atomically (written next to it, then renamed).  Exit 0 on success, 1 when a
# synthesis fails (its log is printed), 77 when yosys is missing.
set -u
YOSYS=$1 SRC=$2 WORK=$3 OUT=$4 JOBS=${5:-2}
command -v "$YOSYS" >/dev/null 2>&1 || { echo "synth_area: yosys not found ($YOSYS): skipped"; exit 77; }
HERE=$(cd "$(dirname "$0")" && pwd)
LIB=$HERE/ge.lib
mkdir -p "$WORK" "$(dirname "$OUT")"
FILES="$SRC/mx_dequant.v $SRC/mx_dequant_lane.v $SRC/mx_bf16_norm.v"
NM2=0.798   # NanGate45 NAND2_X1 area, um2 (sim/doc/references.md#nangate45)

run_one() { # profile_name profile_id lanes depth
    local pn=$1 pid=$2 l=$3 d=$4 gb=$((32 / $3)) tag="$1_L$3_D$4"
    local setp="chparam -set LANES $l -set PROFILE $pid -set DEPTH $d -set GROUP_BEATS $gb mx_dequant"
    "$YOSYS" -q -l "$WORK/$tag.ge.log" -p "read_verilog $FILES; $setp; synth -flatten -top mx_dequant; \
        dfflegalize -cell \$_DFF_P_ 01; dfflibmap -liberty $LIB; abc -liberty $LIB; opt_clean; \
        tee -q -o $WORK/$tag.ge.stat stat -liberty $LIB" >/dev/null 2>&1 || { echo "FAILED $tag (ge)"; return 1; }
    "$YOSYS" -q -l "$WORK/$tag.gen.log" -p "read_verilog $FILES; $setp; synth -flatten -top mx_dequant; \
        dfflegalize -cell \$_DFF_P_ 01; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX; opt_clean; \
        tee -q -o $WORK/$tag.gen.stat stat -tech cmos" >/dev/null 2>&1 || { echo "FAILED $tag (gen)"; return 1; }
    local ge dff cells gcells tr
    ge=$(awk '/Chip area for module/ {print $NF}' "$WORK/$tag.ge.stat")
    dff=$(awk '$1 == "DFF" {print $2}' "$WORK/$tag.ge.stat")
    cells=$(awk '/Number of cells:/ {print $NF; exit}' "$WORK/$tag.ge.stat")
    gcells=$(awk '/Number of cells:/ {print $NF; exit}' "$WORK/$tag.gen.stat")
    tr=$(awk '/Estimated number of transistors:/ {print $NF}' "$WORK/$tag.gen.stat")
    [ -n "$ge" ] && [ -n "$tr" ] || { echo "FAILED $tag: no figures in the stat output"; return 1; }
    awk -v pn="$pn" -v l="$l" -v d="$d" -v gb="$gb" -v ge="$ge" -v dff="${dff:-0}" -v c="$cells" \
        -v gc="$gcells" -v tr="${tr%+}" -v nm="$NM2" 'BEGIN {
        printf "%s,%d,%d,%d,%d,%.3f,%.3f,%d,%d,%d,%d,%.1f,%.2f\n", pn, l, d, gb, 32, ge, ge / l, dff, c,
               gc, tr, tr / 4.0, ge * nm }' > "$WORK/$tag.row"
}

pids=() tags=() rc=0
for cfg in "ocp 0" "mase-cuda 2"; do
    set -- $cfg
    for l in 1 4 32; do
        for d in 4 0; do
            [ "$d" -eq 0 ] && [ "$l" -ne 32 ] && continue
            run_one "$1" "$2" "$l" "$d" &
            pids+=($!) tags+=("$1_L${l}_D$d")
            while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n; done
        done
    done
done
for i in "${!pids[@]}"; do wait "${pids[$i]}" || rc=1; done
[ $rc -eq 0 ] || { for t in "${tags[@]}"; do [ -f "$WORK/$t.row" ] || tail -20 "$WORK/$t.ge.log" 2>/dev/null; done; exit 1; }

TMP="$OUT.tmp.$$"
{
    echo "profile,lanes,depth,group_beats,group_size,ge_nand2,ge_per_lane,dff,cells_ge_lib,cells_abc_g,transistors,ge_from_transistors,um2_45nm"
    for t in "${tags[@]}"; do cat "$WORK/$t.row"; done
} > "$TMP" && mv -f "$TMP" "$OUT"
echo "synth_area: wrote $OUT ($("$YOSYS" -V | head -1))"
cat "$OUT"

#!/usr/bin/env bash
# pe_sweep.sh - the full verification and synthesis sweep of the MX processing-element array
# (sim/doc/rtl.md section 7); CTest runs a reduced form of each part.  Writes reports/rtl/:
#   pe_run.txt      the log: exponent unit on N_EXP tuples, the array on N_CFG configurations per
#                   sharing mode, the mxsim CLI cross-check, the area check
#   pe_cycles.csv   one row per configuration: RTL cycles (total, compute, fill/drain, exponent
#                   stall, exponent operations) and the simulator's, and the output mismatches
#   pe_area.csv     synth_pe_area.sh full (ge.lib, generic gates, OSU 0.18 um + OpenSTA when found)
# usage: pe_sweep.sh BUILD_DIR [N_EXP] [N_CFG] [SEED]
#   BUILD_DIR: a build configured with -DMXSIM_WITH_RTL=ON (targets rtl_pe_tb, rtl_pe_area_check and
#   mxsim_cli are built here).  Defaults: N_EXP = 10,000,000, N_CFG = 70 (x 3 sharing modes = 210).
# Exit 0 when every part passed, 1 otherwise.
set -u
B=$(cd "$1" && pwd) NEXP=${2:-10000000} NCFG=${3:-70} SEED=${4:-2026}
HERE=$(cd "$(dirname "$0")" && pwd) ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/reports/rtl
mkdir -p "$OUT"
LOG=$OUT/pe_run.txt
cmake --build "$B" -j2 --target rtl_pe_tb rtl_pe_area_check mxsim_cli >/dev/null || { echo "build failed"; exit 1; }
TB=$B/rtl/rtl_pe_tb CLI=$(find "$B" -maxdepth 2 -name mxsim -type f -perm -u+x | head -1)
rc=0
{
echo "# pe_sweep.sh $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD), $(verilator --version), seed $SEED"
echo
echo "## exponent unit: $NEXP tuples"
"$TB" --exp "$NEXP" --model exp --seed "$SEED" || rc=1
echo
echo "## array: $NCFG configurations per sharing mode"
CSV=$OUT/pe_cycles.csv
echo "model,cfg,R,C,L,load_lanes,G,II,lat,share,M,N,K,rtl_total,rtl_compute,rtl_fill_drain,rtl_exp_stall,rtl_exp_ops,sim_total,sim_compute,sim_fill_drain,sim_exp_stall,sim_exp_ops,output_mismatches" > "$CSV.tmp"
for m in arr_pe arr_row arr_col; do
    "$TB" --array "$NCFG" --model $m --seed "$SEED" --csv "$CSV.tmp" || rc=1
done
mv -f "$CSV.tmp" "$CSV"
awk -F, 'NR > 1 { n++; if ($14 != $19 || $15 != $20 || $16 != $21 || $17 != $22 || $18 != $23) d++; mis += $24; out += $11 * $12 }
    END { printf "total: %d configurations, %d outputs, %d output mismatches, %d configurations with a cycle difference\n", n, out, mis, d }' "$CSV"
echo
echo "## the mxsim CLI on the first 8 configurations of each mode (mxsim run --format csv, analytic and --detail)"
if [ -z "$CLI" ]; then echo "mxsim CLI not found: skipped"; else
    T=$(mktemp -d)
    awk -F, 'NR > 1 && $2 < 8' "$CSV" | while IFS=, read -r model ci R C L LL G II LAT SH M N K rt rc_ rf rs ro st sc sf ss so mis; do
        printf 'mxsim-trace 1\ngemm name=g m=%s n=%s k=%s group=%s a=mxint8 b=mxint8 out=fp32\n' "$M" "$N" "$K" "$G" > "$T/t.trace"
        printf '[array]\nrows = %s\ncols = %s\ndataflow = os\n[pe]\nlanes = %s\nload_lanes = %s\n[mx]\ngroup_size = %s\noperand_format = mxint8\n[exp]\nshare = %s\nii_cycles = %s\nlatency_cycles = %s\nacc_mode = fp32\n[sram]\na_kib = 1024\nb_kib = 1024\nc_kib = 1024\n[dram]\nbw_bytes_per_cycle = 65536\nlatency_cycles = 0\n[out]\nformat = fp32\n[tile]\nm = %s\nn = %s\nk = %s\n' \
            "$R" "$C" "$L" "$LL" "$G" "$SH" "$II" "$LAT" "$M" "$N" "$K" > "$T/c.ini"
        for det in "" --detail; do
            line=$("$CLI" run "$T/t.trace" --config "$T/c.ini" --format csv $det 2>&1)
            got=$(printf '%s\n' "$line" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
                $1 != "" && ("cycles_compute" in h) { print $h["cycles_compute"] + $h["cycles_fill_drain"] + $h["cycles_exp_stall"]; exit }')
            if [ "$got" = "$rt" ]; then echo "ok   $model cfg $ci $det: mxsim run $got = RTL $rt"
            else echo "DIFF $model cfg $ci $det: mxsim run '${got}' vs RTL $rt"; printf '%s\n' "$line" | head -3; rc=1; fi
        done
    done
    rm -rf "$T"
fi
echo
echo "## synthesis (full)"
OSU=/usr/share/qflow/tech/osu018/osu018_stdcells.lib
bash "$HERE/synth_pe_area.sh" yosys "$ROOT/rtl/src" "$B/rtl/synth_pe_full" "$OUT/pe_area.csv" 2 full "$OSU" || rc=1
echo
echo "## area check"
"$B/rtl/rtl_pe_area_check" "$OUT/pe_area.csv" || rc=1
echo
echo "pe_sweep: $([ $rc -eq 0 ] && echo PASS || echo FAIL)"
} 2>&1 | tee "$LOG"
grep -q "^pe_sweep: PASS" "$LOG"

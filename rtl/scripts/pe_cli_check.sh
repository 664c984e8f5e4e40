#!/usr/bin/env bash
# pe_cli_check.sh - runs the mxsim CLI (`mxsim run --format csv`, analytic and --detail) on every
# configuration of a pe_cycles.csv (rtl/scripts/pe_sweep.sh) and requires the RTL's beat cycles to
# equal cycles_compute + cycles_lane_limit (the model attributes narrow beats apart), and those,
# cycles_fill_drain, cycles_exp_stall and their sum to equal the RTL's.
# usage: pe_cli_check.sh MXSIM_CLI PE_CYCLES_CSV     exit 0 all equal, 1 a difference or an error
set -u
CLI=$1 CSV=$2
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
n=0 bad=0
while IFS=, read -r model ci R C L LL G II LAT SH M N K rt rc_ rf rs ro st sc sf ss so mis; do
    [ "$model" = model ] && continue
    printf 'mxsim-trace 1\ngemm name=g m=%s n=%s k=%s group=%s a=mxint8 b=mxint8 out=fp32\n' "$M" "$N" "$K" "$G" > "$T/t.trace"
    printf '[array]\nrows = %s\ncols = %s\ndataflow = os\n[pe]\nlanes = %s\nload_lanes = %s\n[mx]\ngroup_size = %s\noperand_format = mxint8\n[exp]\nshare = %s\nii_cycles = %s\nlatency_cycles = %s\nacc_mode = fp32\n[sram]\na_kib = 1024\nb_kib = 1024\nc_kib = 1024\n[dram]\nbw_bytes_per_cycle = 65536\nlatency_cycles = 0\n[out]\nformat = fp32\n[tile]\nm = %s\nn = %s\nk = %s\n' \
        "$R" "$C" "$L" "$LL" "$G" "$SH" "$II" "$LAT" "$M" "$N" "$K" > "$T/c.ini"
    for det in "" --detail; do
        n=$((n + 1))
        got=$("$CLI" run "$T/t.trace" --config "$T/c.ini" --format csv $det 2>&1 | awk -F, '
            NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
            $1 != "" && ("cycles_compute" in h) { c = $h["cycles_compute"] + $h["cycles_lane_limit"]; f = $h["cycles_fill_drain"]; s = $h["cycles_exp_stall"];
                print c + f + s, c, f, s; exit }')
        if [ "$got" != "$rt $rc_ $rf $rs" ]; then
            echo "DIFF $model cfg $ci ${det:-analytic}: mxsim run '$got' vs RTL '$rt $rc_ $rf $rs'"; bad=$((bad + 1))
        fi
    done
done < "$CSV"
echo "pe_cli_check: $n mxsim run invocations ($((n / 2)) configurations, analytic and --detail): $bad differ from the RTL (total, compute, fill/drain, exponent stall)"
[ $bad -eq 0 ] && [ $n -gt 0 ]

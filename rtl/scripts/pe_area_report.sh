#!/usr/bin/env bash
# pe_area_report.sh - the area part of reports/rtl from reports/rtl/pe_area.csv (synth_pe_area.sh
# full): the components of each synthesized block (pe_decompose.sh -> pe_decomp.csv), the cost
# model against them (rtl_pe_area_check -> pe_area_check.txt) and the curves (pe_area_svg.py ->
# pe_area.svg).  Run by pe_sweep.sh; run it alone after a change of the cost model (no synthesis
# of the full blocks again; the decomposition's probes take about 30 s).
# usage: pe_area_report.sh BUILD_DIR   (a build with -DMXSIM_WITH_RTL=ON; rtl_pe_area_check is built)
# Exit status: rtl_pe_area_check's (CTest's policy: --nominal pe,exp), or 1 when a step fails.
set -u
B=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd) ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$ROOT/reports/rtl
cmake --build "$B" -j2 --target rtl_pe_area_check >/dev/null || { echo "build failed"; exit 1; }
bash "$HERE/pe_decompose.sh" yosys "$ROOT/rtl/src" "$B/rtl/synth_pe_dec_full" "$OUT/pe_area.csv" "$OUT/pe_decomp.csv" || exit 1
{
    echo "# rtl_pe_area_check --nominal pe,exp reports/rtl/pe_area.csv reports/rtl/pe_decomp.csv"
    echo "# $(date -u +%Y-%m-%dT%H:%MZ), commit $(git -C "$ROOT" rev-parse --short HEAD)"
    "$B/rtl/rtl_pe_area_check" --nominal pe,exp "$OUT/pe_area.csv" "$OUT/pe_decomp.csv"
} > "$OUT/pe_area_check.txt"
rc=$?
tail -1 "$OUT/pe_area_check.txt"
python3 "$HERE/pe_area_svg.py" "$OUT/pe_area.csv" "$OUT/pe_area_check.txt" "$OUT/pe_area.svg" || echo "pe_area_report: no chart (python3)"
exit $rc

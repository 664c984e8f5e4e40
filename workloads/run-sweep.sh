#!/usr/bin/env bash
# The main job: the default design-space sweep.  BERT-base (traces/bert-base.trace) on the medium
# accelerator (workloads/configs/medium.ini), group sizes 8..128 x array widths 8..128 (W x W
# arrays): cycles, utilisation, area, energy (with the low/high band of the sources) and the
# MXINT8 error against float64 for each of the 25 points.  Prints the table of totals and writes
# OUT_DIR/results.csv with its sidecar results.meta.json, and the report OUT_DIR/index.html +
# OUT_DIR/README.md (+ each chart as SVG and CSV).
# usage: workloads/run-sweep.sh [BUILD_DIR] [OUT_DIR]      (defaults: build, reports/example)
# The output is deterministic, so rerunning it over the committed reports/example/ changes nothing
# unless the model changed.
# Extra sweep options can be passed in MXSIM_SWEEP_ARGS, e.g. MXSIM_SWEEP_ARGS="--node 7 -j 2".
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build=$(cd "${1:-build}" 2>/dev/null && pwd) || { echo "run-sweep.sh: build directory '${1:-build}' not found" >&2; exit 2; }
out=${2:-$root/reports/example}
mkdir -p "$out" && out=$(cd "$out" && pwd)
out=${out#"$root"/} # inside the repository: relative, so the report carries no machine path
mxsim=$build/mxsim
if [ ! -x "$mxsim" ]; then
  echo "run-sweep.sh: $mxsim not found (build first: cmake -S . -B build -DMXSIM_WITH_SWEEP=ON && cmake --build build)" >&2
  exit 2
fi
# Relative paths (from the repository root) keep the results free of machine-specific paths.
cd "$root"
trace=traces/bert-base.trace
config=workloads/configs/medium.ini
# shellcheck disable=SC2086
"$mxsim" sweep --config "$config" "$trace" \
  --group-size 8,16,32,64,128 --array-width 8,16,32,64,128 \
  ${MXSIM_SWEEP_ARGS:-} -o "$out/results.csv"
# The report reads results.csv with the typed sidecar results.meta.json the sweep wrote beside it.
"$mxsim" report "$out/results.csv" -o "$out"
echo
echo "BERT-base on $config, W x W arrays (array.size) x group sizes (mx.group_size); energy in mJ,"
echo "area in mm2, SQNR in dB vs float64 (accuracy sampled: see $out/results.meta.json)."
echo
# The same totals as a table on stdout (re-read from the CSV: no second simulation).
awk -F, '
  /^#/ { next }
  !hdr { for (i = 1; i <= NF; i++) c[$i] = i; hdr = 1
         printf "%8s %6s %12s %10s %9s %10s %10s %9s %9s %9s\n", "W", "G", "cycles", "util_%", "area_mm2",
                "energy_mJ", "pJ/MAC", "TOPS/W", "SQNR_dB", "status"; next }
  $c["op"] == "TOTAL" {
         printf "%8s %6s %12s %10.2f %9.3f %10.3f %10.3f %9.3f %9.2f %9s\n", $c["array.size"], $c["mx.group_size"],
                $c["cycles_total"], $c["util_compute_pct"], $c["area_mm2"], $c["energy_mj"], $c["pj_per_mac"],
                $c["tops_per_w"], $c["sqnr_db"], $c["status"] }' "$out/results.csv"
echo
echo "report written to $out/index.html and $out/README.md"

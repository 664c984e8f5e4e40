#!/usr/bin/env bash
# tests/cli/readers.sh - inputs the readers must ACCEPT (the bad-input catalogue has the refusals):
# a UTF-8 byte order mark in every text format, a .trace.gz of several concatenated gzip members
# (gzip reads them all), and .npz metadata scalars of every NumPy integer width and byte order.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP
rm -rf "$t" && mkdir -p "$t"
src=$MXSIM_SOURCE_DIR
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fails=$((fails + 1)); }
bom=$'\xef\xbb\xbf'
if "$MXSIM" trace --help > /dev/null 2>&1; then
  { printf '%s' "$bom"; cat "$src/traces/bert-base.trace"; } > "$t/bom.trace"
  "$MXSIM" trace check "$t/bom.trace" > /dev/null 2> "$t/err" && ok "trace with a BOM" || bad "trace with a BOM: $(cat "$t/err")"
  { printf '%s' "$bom"; cat "$src/workloads/configs/small.ini"; } > "$t/bom.ini"
  "$MXSIM" config --config "$t/bom.ini" --dump > /dev/null 2> "$t/err" && ok "INI with a BOM" || bad "INI with a BOM: $(cat "$t/err")"
  { printf '%s' "$bom"; cat "$src/workloads/models/bert-base.model"; } > "$t/bom.model"
  "$MXSIM" trace gen "$t/bom.model" -o "$t/gen.trace" 2> "$t/err" && ok "model with a BOM" || bad "model with a BOM: $(cat "$t/err")"
  printf '%s[general]\nrun_name = x\n[architecture_presets]\nArrayHeight: 16\nArrayWidth: 16\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\nOfmapSramSzkB: 64\nIfmapOffset: 0\nFilterOffset: 0\nOfmapOffset: 0\nDataflow : os\n[run_presets]\nInterfaceBandwidth: CALC\n' "$bom" > "$t/bom.cfg"
  "$MXSIM" config --config "$t/bom.cfg" --dump > /dev/null 2> "$t/err" && ok "SCALE-Sim .cfg with a BOM" || bad ".cfg with a BOM: $(cat "$t/err")"
  printf '%sLayer, M, N, K,\nl0, 16, 16, 32,\n' "$bom" > "$t/bom.csv"
  "$MXSIM" trace check "$t/bom.csv" > /dev/null 2> "$t/err" && ok "SCALE-Sim topology with a BOM" || bad "topology with a BOM: $(cat "$t/err")"
  # two gzip members: the header and first ops in one, the rest in another
  head -3 "$src/traces/bert-base.trace" | gzip -n > "$t/two.trace.gz"
  tail -n +4 "$src/traces/bert-base.trace" | gzip -n >> "$t/two.trace.gz"
  "$MXSIM" trace cat "$t/two.trace.gz" > "$t/two.txt" 2> "$t/err" && "$MXSIM" trace cat "$src/traces/bert-base.trace" > "$t/one.txt" \
    && cmp -s "$t/one.txt" "$t/two.txt" && ok "concatenated gzip members read whole" || bad "concatenated gzip members: $(cat "$t/err")"
fi
if "$MXSIM" compare-gpu --help > /dev/null 2>&1 && [ -f "$src/workloads/gpus/h200.ini" ]; then
  { printf '%s' "$bom"; cat "$src/workloads/gpus/h200.ini"; } > "$t/bom-card.ini"
  "$MXSIM" compare-gpu --card "$t/bom-card.ini" --measured "$src/reports/gpu/NVIDIA-H200-2026-11-26/bench.csv" --quiet > /dev/null 2> "$t/err" \
    && ok "GPU card with a BOM" || bad "GPU card with a BOM: $(cat "$t/err")"
fi
if command -v python3 > /dev/null && python3 -c 'import numpy' 2> /dev/null; then
  python3 - "$src/tests/badinput/files/ok.npz" "$t" <<'PY'
import sys, numpy as np
z = np.load(sys.argv[1]); d = {k: z[k] for k in z.files}
for dt in ['|i1', '|u1', '<i2', '>i2', '<u2', '>u2', '<i4', '>i4', '<u4', '>u4', '<i8', '>i8', '<u8', '>u8']:
    e = dict(d)
    e['group_size'] = np.array(int(d['group_size']), dtype=dt)
    e['axis'] = np.array(int(d['axis']), dtype=dt)
    np.savez('%s/w%s.npz' % (sys.argv[2], dt.replace('<', 'le').replace('>', 'be').replace('|', 'na')), **e)
PY
  # info's own exit status counts (a pipe into cut kept only cut's), and the reference must hold
  # ok.npz's profile, group size and axis (ocp, 32, 1), not be an empty file two failures share
  "$MXSIM" info "$src/tests/badinput/files/ok.npz" --format csv > "$t/ref.csv" || bad "info ok.npz"
  cut -d, -f2- "$t/ref.csv" > "$t/ref.txt"
  # (the shape column holds a quoted comma: match the row's tail, profile,group_size,axis,scale_bytes)
  tail -1 "$t/ref.csv" | grep -q ',ocp,32,1,2$' || bad "info ok.npz: not profile ocp, G 32, axis 1: $(cat "$t/ref.csv")"
  for f in "$t"/w*.npz; do
    "$MXSIM" info "$f" --format csv > "$t/w.csv" 2> "$t/err" && cut -d, -f2- "$t/w.csv" > "$t/w.txt" && cmp -s "$t/ref.txt" "$t/w.txt" \
      && ok "npz scalars $(basename "$f")" || bad "npz scalars $(basename "$f"): $(cat "$t/err")"
  done
else
  echo "skip npz widths (no numpy)"
fi
echo "readers: $fails failed"
[ "$fails" -eq 0 ]

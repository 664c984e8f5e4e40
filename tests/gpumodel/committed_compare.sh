#!/usr/bin/env bash
# Every committed compare output (reports/gpu/compare-h100/, reports/gpu/compare-h200/) equals, byte
# for byte, what its documented command writes now, regenerated into a temp dir:
#   compare-h200/comparison.{csv,md,svg}  mxsim compare-gpu --card h200 --measured B -o DIR (gpu-model.md, first line)
#   compare-h200/accel_vs_gpu.csv         mxsim compare-gpu --card h200 --trace T --config CFG --measured B -o DIR (section 5)
#   compare-h*/xcard_from_*.txt, compare-h*/accel_vs_best_gpu.csv   tests/gpumodel/xcard.sh --reports DIR (what --write writes)
# A file in those folders that no command here writes (other than README.md) fails too, so that a
# new committed output cannot go stale unchecked (accel_vs_gpu.csv did: large.ini changed after it).
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
t=$MXSIM_TEST_TMP; rm -rf "$t" && mkdir -p "$t"; cd "$MXSIM_SOURCE_DIR" || exit 1
"$MXSIM" help run >/dev/null 2>&1 || { echo "skipped: needs the timing engine (trace mode)"; exit 77; }
B=reports/gpu/NVIDIA-H200-2026-11-26/bench.csv
[ -f "$B" ] || { echo "skipped: no committed bench"; exit 77; }
fails=0; ok() { echo "ok   $*"; }; bad() { echo "FAIL: $*"; fails=$((fails+1)); }
g=$t/gen; mkdir -p "$g/compare-h200"
"$MXSIM" compare-gpu --card h200 --measured $B -o "$g/compare-h200" > /dev/null 2> "$t/err1" || bad "bench mode: $(cat "$t/err1")"
"$MXSIM" compare-gpu --card h200 --trace traces/llama2-7b-decode-b16.trace --config workloads/configs/large.ini \
  --measured $B -o "$g/compare-h200" > /dev/null 2> "$t/err2" || bad "trace mode: $(cat "$t/err2")"
MXSIM_TEST_TMP=$t/xcard bash tests/gpumodel/xcard.sh --reports "$g" > "$t/xcard.log" 2>&1 || { bad "xcard.sh --reports"; cat "$t/xcard.log"; }
for c in compare-h100 compare-h200; do
  for f in reports/gpu/$c/*; do
    n=$(basename "$f"); [ "$n" = README.md ] && continue
    if [ ! -f "$g/$c/$n" ]; then bad "reports/gpu/$c/$n: no command of this test writes it (add it here)"
    elif cmp -s "$f" "$g/$c/$n"; then ok "reports/gpu/$c/$n is current"
    else bad "reports/gpu/$c/$n differs from a fresh run ($(cmp "$f" "$g/$c/$n" 2>&1 | head -1))"; fi
  done
done
[ $fails -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all ok"

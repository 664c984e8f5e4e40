#!/usr/bin/env bash
# The sizes of the bad-input catalogues that README.md and sim/doc/robustness.md quote equal the
# catalogues themselves (they had drifted to 121 / 225 / 227 against one catalogue): the `bad` cases of
# tests/badinput/run.sh, counted in its source, and the checks tests/gpumodel/gpu_badinput.sh prints.
set -u
: "${MXSIM:?}" "${MXSIM_SOURCE_DIR:?}" "${MXSIM_TEST_TMP:?}"
src=$MXSIM_SOURCE_DIR; fails=0
n=$(grep -cE '^\s*bad [a-zA-Z0-9_-]+ [0-9]' "$src/tests/badinput/run.sh")
[ "$n" -gt 100 ] || { echo "FAIL: counted only $n cases in tests/badinput/run.sh"; exit 1; }
for f in README.md sim/doc/robustness.md; do
  q=$(grep -oE '(holds |runs |catalogue \()[0-9]+ (malformed|cases)' "$src/$f" | grep -oE '[0-9]+' | sort -u)
  [ -n "$q" ] || { echo "FAIL: $f quotes no catalogue size"; fails=$((fails + 1)); continue; }
  for v in $q; do
    [ "$v" = "$n" ] && echo "ok   $f: $v cases" || { echo "FAIL: $f says $v cases, tests/badinput/run.sh has $n"; fails=$((fails + 1)); }
  done
done
if [ -f "$src/tests/gpumodel/gpu_badinput.sh" ] && "$MXSIM" compare-gpu --help > /dev/null 2>&1; then
  g=$(MXSIM_TEST_TMP=$MXSIM_TEST_TMP/gpu bash "$src/tests/gpumodel/gpu_badinput.sh" 2>&1 | grep -oE '^[0-9]+ checks' | grep -oE '[0-9]+')
  for v in $(grep -oE 'gpu_badinput.sh` \([0-9]+ checks|inputs \([0-9]+ checks' "$src/sim/doc/robustness.md" | grep -oE '[0-9]+'); do
    [ "$v" = "$g" ] && echo "ok   robustness.md: $v GPU-input checks" || { echo "FAIL: robustness.md says $v GPU-input checks, gpu_badinput.sh runs '$g'"; fails=$((fails + 1)); }
  done
fi
exit $((fails > 0))

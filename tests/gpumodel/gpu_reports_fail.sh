#!/usr/bin/env bash
# gpu_reports.sh can fail: on copies of one committed card folder, each broken in one way a real run
# could break it, the check must fail and name the fault.  The folder itself passes first.
#   - verify.csv cut short (a crash or a timeout mid-verify): fewer rows than the log's finished count
#   - a verify row with a mismatch
#   - a bench_ext row whose ratio is not cuBLAS bf16 / its median
#   - the folder's log giving another SM count than the card the rows were derived for
#   - a power row whose loop time per call is 3x the row's median
set -u
: "${MXSIM_SOURCE_DIR:?}"
src="$MXSIM_SOURCE_DIR/reports/gpu/NVIDIA-H200-2026-11-28-check"
[ -d "$src" ] || { echo "skipped: $src not committed"; exit 77; }
tmp=${MXSIM_TEST_TMP:-/tmp/gpu_reports_fail}
check=$MXSIM_SOURCE_DIR/tests/gpumodel/gpu_reports.sh
fails=0
fresh() { rm -rf "$tmp" && mkdir -p "$tmp/reports/gpu" && cp -r "$src" "$tmp/reports/gpu/" && d="$tmp/reports/gpu/$(basename "$src")"; }
expect_fail() { # NAME PATTERN: the check exits non-zero and prints PATTERN on a FAIL line
  local out rc
  out=$(MXSIM_SOURCE_DIR="$tmp" bash "$check" 2>&1); rc=$?
  if [ $rc -ne 0 ] && echo "$out" | grep '^FAIL' | grep -q -- "$2"; then echo "ok   $1: caught ($(echo "$out" | grep -c '^FAIL') FAIL lines)"
  else echo "FAIL $1: exit $rc, no FAIL line matching '$2'"; echo "$out" | grep -v '^ok' | head -5; fails=$((fails+1)); fi
}
fresh
if MXSIM_SOURCE_DIR="$tmp" bash "$check" > /dev/null 2>&1; then echo "ok   the untouched copy passes"
else echo "FAIL the untouched copy fails"; fails=$((fails+1)); fi
fresh; head -100 "$src/verify.csv" > "$d/verify.csv"
expect_fail "verify.csv cut short" "99 rows, and no log"
fresh; awk -F, -v OFS=, 'NR==5{$NF=1} {print}' "$src/verify.csv" > "$d/verify.csv"
expect_fail "a verify mismatch" "1 mismatches"
fresh; awk -F, -v OFS=, '$7=="mxk-gemm-mxint8" && !done {$9=$9*1.2; done=1} {print}' "$src/bench_ext.csv" > "$d/bench_ext.csv"
expect_fail "a wrong ratio" "ratio"
fresh; sed -i 's/cc 9.0, 132 SMs/cc 9.0, 114 SMs/' "$d/session.log"
expect_fail "another SM count" "tensor_us"
fresh; awk -F, -v OFS=, 'NR>1 && $16>0 && !done {$17=$17*3; done=1} {print}' "$src/bench_ext.csv" > "$d/bench_ext.csv"
expect_fail "a power loop 3x its median" "loop"
rm -rf "$tmp"
[ $fails = 0 ] && echo "gpu_reports_fail: all caught" || { echo "gpu_reports_fail: $fails not caught"; exit 1; }

#!/usr/bin/env bash
# session 14: the measured runs of the final8 build (cfg 0 takes the row kernel, cfg 12, at M = 1 with
# G >= 64) on one card: gpu_session.sh (run 1: build, SASS, smoke, GPU test, verify, golden, bench,
# ncu) + two bench-only runs (2-3), one call
F=/tmp/final; rm -rf $F; mkdir -p $F
export MXK_BUILD=/tmp/mxsim_gpu_build
timeout -k 5 330 kernels/tools/gpu_session.sh $F > /dev/null 2>&1; echo "gpu_session rc=$?"
grep -E "verify|session rc|NVML|\[.* s\] ==|ok|FAIL" $F/session.log | head -30
for r in 2 3; do
  mkdir -p /tmp/bench$r && timeout -k 5 120 $MXK_BUILD/mxsim-gpu bench /tmp/bench$r > /tmp/bench$r/log 2>&1; echo "bench $r rc=$?"
  cp /tmp/bench$r/bench.csv $F/bench_run$r.csv; cp /tmp/bench$r/bench_ext.csv $F/bench_ext_run$r.csv; cp /tmp/bench$r/log $F/bench_run$r.log
done
for f in $F/bench.csv $F/bench_run2.csv $F/bench_run3.csv; do
  echo "== $f"; awk -F, '($7 == "cublas-bf16" || $7 ~ /^mxk-gemm-mxint8/) && ($2 ~ /decode|prefill/) {printf "  %-3s %-6s %-6s G=%-4s %-24s %9.2f us x%.3f\n", $3, $4, $5, $6, $7, $8, $11}' $f
done
tar -C /tmp -czf $OUT/final.tar.gz final
ls $F

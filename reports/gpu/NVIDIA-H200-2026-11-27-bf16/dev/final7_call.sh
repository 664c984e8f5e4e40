#!/usr/bin/env bash
# session 12: the measured runs of the final7 build (decode cfg 9: V2 consumers at M = 1 G = 32 too) on
# one card: gpu_session.sh (run 1) + four bench-only runs (2-5), one call; every run samples NVML's
# instantaneous power (the bench's own log kept per run)
F=/tmp/final; rm -rf $F; mkdir -p $F
export MXK_BUILD=/tmp/mxsim_gpu_build
timeout -k 5 300 kernels/tools/gpu_session.sh $F > /dev/null 2>&1; echo "gpu_session rc=$?"
grep -E "verify:|session rc|NVML|\[.* s\] ==" $F/session.log | head -30
for r in 2 3 4 5; do
  mkdir -p /tmp/bench$r && timeout -k 5 120 $MXK_BUILD/mxsim-gpu bench /tmp/bench$r > /tmp/bench$r/log 2>&1; echo "bench $r rc=$?"
  cp /tmp/bench$r/bench.csv $F/bench_run$r.csv; cp /tmp/bench$r/bench_ext.csv $F/bench_ext_run$r.csv; cp /tmp/bench$r/log $F/bench_run$r.log
done
for f in $F/bench_ext.csv $F/bench_ext_run2.csv $F/bench_ext_run5.csv; do
  echo "== $f"; awk -F, 'NR>1 && ($7 == "cublas-bf16" || $7 == "mxk-gemm-mxint8") && ($2 ~ /decode|prefill/) {printf "  %-3s %-6s %-6s G=%-4s %-18s %9.2f us x%.3f %6.1f W\n", $3, $4, $5, $6, $7, $8, $9, $16}' $f
done
tar -C /tmp -czf $OUT/final.tar.gz final
ls $F

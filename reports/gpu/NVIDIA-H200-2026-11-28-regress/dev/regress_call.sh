#!/usr/bin/env bash
# regress_call.sh - one device call that re-measures the committed tree as it stands (no kernel change
# since final8; the CMake default architectures now add the machine's own cards): gpu_session.sh
# (run 1: build with the default architectures, SASS, smoke, GPU test, verify, golden, bench, ncu),
# then two bench-only runs (2-3).  Everything lands in $OUT/final.tar.gz.
#   usage (device machine, from the repository root): bash reports/gpu/NVIDIA-H200-2026-11-28-regress/dev/regress_call.sh
set -u
F=/tmp/final; rm -rf "$F"; mkdir -p "$F"
export MXK_BUILD=/tmp/mxsim_gpu_build
nvidia-smi --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv > "$F/card.txt"
timeout -k 5 360 kernels/tools/gpu_session.sh "$F" > /dev/null 2>&1; echo "gpu_session rc=$?"
grep -E "CMAKE_CUDA_ARCHITECTURES:" "$MXK_BUILD/CMakeCache.txt" >> "$F/card.txt"
cat "$F/card.txt"
grep -E "verify|session rc|NVML|\[.* s\] ==|FAIL|skip" "$F/session.log" | head -30
for r in 2 3; do
  mkdir -p /tmp/bench$r && timeout -k 5 150 "$MXK_BUILD/mxsim-gpu" bench /tmp/bench$r > /tmp/bench$r/log 2>&1; echo "bench $r rc=$?"
  cp /tmp/bench$r/bench.csv "$F/bench_run$r.csv"; cp /tmp/bench$r/bench_ext.csv "$F/bench_ext_run$r.csv"; cp /tmp/bench$r/log "$F/bench_run$r.log"
done
for f in "$F/bench.csv" "$F/bench_run2.csv" "$F/bench_run3.csv"; do
  echo "== $f"; awk -F, '($7 == "cublas-bf16" || $7 == "mxk-gemm-mxint8") && ($2 ~ /decode|prefill/) {printf "  %-5s %-6s %-5s G=%-4s %-17s %9.2f us x%.3f\n", $3, $4, $5, $6, $7, $8, $11}' "$f"
done
tar -C /tmp -czf "$OUT/final.tar.gz" final
ls "$F"

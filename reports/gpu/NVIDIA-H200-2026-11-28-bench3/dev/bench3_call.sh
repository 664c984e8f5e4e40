#!/usr/bin/env bash
# bench3_call.sh - one device call: build mxsim-gpu (gpu_session.sh's build) and run the bench three
# times (cold L2, cuBLAS bf16 and cuBLASLt int8 in each run, NVML power), for the cross-card model's
# unseen-run gate, which scores the median of a folder's runs.  Results in $OUT/b3/.
#   usage (device machine, from the repository root): bash reports/gpu/NVIDIA-H200-2026-11-28-bench3/dev/bench3_call.sh
set -u
. kernels/tools/session_lib.sh
F=$OUT/b3; mkdir -p "$F"
export MXK_BUILD=/tmp/mxsim_gpu_build
nvidia-smi -i "$(gpu_sel)" --query-gpu=name,compute_cap,driver_version,clocks.max.sm,power.limit --format=csv > "$F/card.txt"
build_gpu "$PWD" "$MXK_BUILD" "$F/build.log" mxsim-gpu; echo "build rc=$?"
"$MXK_BUILD/mxsim-gpu" info | tee -a "$F/card.txt"
for r in 1 2 3; do
  mkdir -p /tmp/bench$r && timeout -k 5 150 "$MXK_BUILD/mxsim-gpu" bench /tmp/bench$r > /tmp/bench$r/log 2>&1; echo "bench $r rc=$?"
  s=; [ $r -gt 1 ] && s=_run$r
  cp /tmp/bench$r/bench.csv "$F/bench$s.csv"; cp /tmp/bench$r/bench_ext.csv "$F/bench_ext$s.csv"; cp /tmp/bench$r/log "$F/bench$s.log"
done
ls "$F"

#!/usr/bin/env bash
# gpu_check.sh - on a GPU machine: configure and build libmxsim + the CUDA kernels + mxsim-gpu,
# run the GPU test, the bit-exactness checks against the C model (verify.csv), write the golden
# set (golden.tar.gz) and run the benchmark (bench.csv).
#   usage: kernels/gpu_check.sh [OUTDIR]      (default: $OUT if set, else reports/gpu/<card>-<date>)
# Exit status: 0 when every check passed with 0 mismatches.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_gpu_build}
if [ -n "${OUT:-}" ]; then DEST=${1:-$OUT}; else
  card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-' )
  DEST=${1:-$ROOT/reports/gpu/${card:-gpu}-$(date +%Y-%m-%d)}
fi
mkdir -p "$DEST"
exec > >(tee "$DEST/gpu_check.log") 2>&1
echo "== machine"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
nvcc --version | tail -1; cmake --version | head -1; nproc

# zlib headers may be missing on a bare CUDA image: fall back to a carried copy (build-zlibfb/).
ZOPT=()
if ! echo '#include <zlib.h>' | gcc -E - >/dev/null 2>&1 && [ -f "$ROOT/build-zlibfb/zlib.h" ]; then
  echo "zlib.h not found: using build-zlibfb/"
  ZOPT=(-DZLIB_INCLUDE_DIR="$ROOT/build-zlibfb" -DZLIB_LIBRARY="$ROOT/build-zlibfb/libz.a")
fi
echo "== build"
t0=$(date +%s)
cmake -S "$ROOT" -B "$BUILD" -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Release \
  "${ZOPT[@]}" > "$DEST/build.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target mxsim-gpu test_gpu_kernels >> "$DEST/build.log" 2>&1
brc=$?
echo "build rc=$brc in $(( $(date +%s) - t0 )) s"
if [ $brc -ne 0 ]; then tail -40 "$DEST/build.log"; exit 1; fi

rc=0
echo "== test_gpu_kernels"; timeout 120 "$BUILD/kernels/test_gpu_kernels" || rc=1
"$BUILD/mxsim-gpu" info
echo "== verify"; timeout 300 "$BUILD/mxsim-gpu" verify "$DEST" 2>"$DEST/verify_detail.log" || rc=1
tail -5 "$DEST/verify_detail.log"
echo "== golden"
mkdir -p "$DEST/golden"
timeout 120 "$BUILD/mxsim-gpu" golden "$DEST/golden" || rc=1
(cd "$DEST" && tar czf golden.tar.gz golden && rm -rf golden)
if [ "${MXK_SKIP_BENCH:-0}" != 1 ]; then
  echo "== bench"; timeout 400 "$BUILD/mxsim-gpu" bench "$DEST" || rc=1
  echo "== bench-dequant (every dequant kernel variant, traffic ceilings)"
  timeout 120 "$BUILD/mxsim-gpu" bench-dequant "$DEST" || rc=1
fi
if [ "${MXK_SKIP_PERF:-0}" != 1 ]; then
  echo "== tile variants (L2-warm, informative only)"
  for a in "2048 4096 4096 32 1" "2048 4096 4096 32 5" "2048 4096 4096 32 6" "2048 4096 4096 128 1" \
           "2048 4096 4096 128 5" "2048 4096 4096 128 6" "16 4096 4096 32 3" "16 4096 4096 32 4" \
           "1 4096 4096 32 4" "16 4096 4096 128 4" "128 768 768 32 3" "128 768 768 32 4" "128 768 768 32 6"; do
    timeout 60 "$BUILD/mxsim-gpu" perf $a
  done
  if command -v ncu >/dev/null; then
    echo "== ncu: GEMM 2048x4096x4096 G=32 (cfg ${MXK_NCU_CFG:-1}) and decode 16x4096x4096 G=32 (small-M kernel)"
    timeout 120 ncu --clock-control none -k regex:gemm_mma --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section ComputeWorkloadAnalysis --section Occupancy \
      "$BUILD/mxsim-gpu" perf 2048 4096 4096 32 "${MXK_NCU_CFG:-1}" > "$DEST/ncu_gemm.txt" 2>&1
    timeout 60 ncu --clock-control none -k regex:gemm_gemv --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section MemoryWorkloadAnalysis --section Occupancy \
      "$BUILD/mxsim-gpu" perf 16 4096 4096 32 4 >> "$DEST/ncu_gemm.txt" 2>&1
    grep -E 'Duration|Throughput|Issue Slots|Executed Ipc|Achieved Occupancy|Registers|Stall|One or More|No Eligible|Warp Cycles' "$DEST/ncu_gemm.txt" | head -60
  fi
fi
echo "== summary"
awk -F, 'NR>1 {n++; m+=$5} END {printf "verify: %d checks, %d mismatches\n", n, m}' "$DEST/verify.csv"
echo "gpu_check rc=$rc"
exit $rc

#!/usr/bin/env bash
# memory_check.sh - on a GPU machine (issue 19, sim/doc/memory.md): build libmxsim, the kernels and
# mxsim-gpu, then allocate the weights of the bundled models on the card as bf16 and as MXINT8
# (the kernels' mantissa + scale buffers) and measure them with cudaMemGetInfo: memory.csv.
#   usage: kernels/memory_check.sh [OUTDIR]   (default: $OUT if set, else reports/gpu/<card>-<date>)
# Exit status 0 when the measurement ran; tests/timing/memory_gpu.sh checks the committed CSV.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_gpu_build}
card=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr ' ' '-')
if [ -n "${OUT:-}" ]; then DEST=${1:-$OUT}; else DEST=${1:-$ROOT/reports/gpu/${card:-gpu}-$(date +%Y-%m-%d)}; fi
mkdir -p "$DEST"
exec > >(tee "$DEST/memory_check.log") 2>&1
echo "== card: ${card:-unknown}"
nvidia-smi --query-gpu=name,driver_version,memory.total,memory.used --format=csv
ZOPT=()
if ! echo '#include <zlib.h>' | gcc -E - >/dev/null 2>&1 && [ -f "$ROOT/build-zlibfb/zlib.h" ]; then
  ZOPT=(-DZLIB_INCLUDE_DIR="$ROOT/build-zlibfb" -DZLIB_LIBRARY="$ROOT/build-zlibfb/libz.a")
fi
echo "== build"
t0=$(date +%s)
cmake -S "$ROOT" -B "$BUILD" -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release "${ZOPT[@]}" > "$DEST/memory_build.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target mxsim-gpu >> "$DEST/memory_build.log" 2>&1 ||
  { echo "build failed"; tail -40 "$DEST/memory_build.log"; exit 1; }
echo "build in $(( $(date +%s) - t0 )) s"
paths=()
for m in bert-base vit-b16 resnet18 resnet50 llama2-7b-prefill; do paths+=("$ROOT/traces/$m.trace"); done
echo "== measure"
rc=0
timeout 300 "$BUILD/mxsim-gpu" memory "$DEST/memory.csv" "${paths[@]}" || rc=1
echo "memory_check rc=$rc"
exit $rc

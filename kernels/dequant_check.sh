#!/usr/bin/env bash
# dequant_check.sh - on a GPU machine: build mxsim-gpu, run test_gpu_kernels, the dequant benchmark
# with every kernel variant and the traffic ceilings (bench_dequant.csv), and the bit-exactness
# checks (verify.csv; MXK_VERIFY_DEQUANT_ONLY=1 stops after the dequant rows).
#   usage: kernels/dequant_check.sh OUTDIR      (a shorter loop than gpu_check.sh for dequant work)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_gpu_build}
DEST=${1:?usage: dequant_check.sh OUTDIR}
mkdir -p "$DEST"
exec > >(tee "$DEST/dequant_check.log") 2>&1
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
ZOPT=()
if ! echo '#include <zlib.h>' | gcc -E - >/dev/null 2>&1 && [ -f "$ROOT/build-zlibfb/zlib.h" ]; then
  echo "zlib.h not found: using build-zlibfb/"
  ZOPT=(-DZLIB_INCLUDE_DIR="$ROOT/build-zlibfb" -DZLIB_LIBRARY="$ROOT/build-zlibfb/libz.a")
fi
t0=$(date +%s)
cmake -S "$ROOT" -B "$BUILD" -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DCMAKE_BUILD_TYPE=Release \
  "${ZOPT[@]}" > "$DEST/build.log" 2>&1 &&
  cmake --build "$BUILD" -j"$(nproc)" --target mxsim-gpu test_gpu_kernels >> "$DEST/build.log" 2>&1
brc=$?
echo "build rc=$brc in $(( $(date +%s) - t0 )) s"
if [ $brc -ne 0 ]; then tail -40 "$DEST/build.log"; exit 1; fi
rc=0
t0=$(date +%s); timeout 120 "$BUILD/kernels/test_gpu_kernels" || rc=1; echo "test_gpu_kernels: $(( $(date +%s) - t0 )) s"
t0=$(date +%s); timeout 120 "$BUILD/mxsim-gpu" bench-dequant "$DEST" || rc=1; echo "bench-dequant: $(( $(date +%s) - t0 )) s"
t0=$(date +%s); timeout "${MXK_VERIFY_TIMEOUT:-300}" "$BUILD/mxsim-gpu" verify "$DEST" > "$DEST/verify_stdout.log" 2> "$DEST/verify_detail.log" || rc=1
echo "verify: $(( $(date +%s) - t0 )) s"; tail -3 "$DEST/verify_stdout.log"; head -20 "$DEST/verify_detail.log"
awk -F, 'NR>1 {n++; m+=$5} END {printf "verify: %d checks, %d mismatches\n", n, m}' "$DEST/verify.csv"
echo "== dequant bench (median us, GB/s, ratio to the copy of this run)"
cut -d, -f6-11 "$DEST/bench_dequant.csv"
echo "dequant_check rc=$rc"
exit $rc

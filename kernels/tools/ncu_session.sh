#!/usr/bin/env bash
# ncu_session.sh - Nsight Compute of the kernels that cfg 0 dispatches on the bench's target shapes
# (called by gpu_session.sh; also on its own): what bounds each, in DEST/ncu.txt (appended).
#   usage: kernels/tools/ncu_session.sh MXSIM_GPU DEST
#   cfg 11 (bf16 path, G = 32 prefill): the pre-pass and the GEMM of one 2048x4096x4096 call
#   cfg 8 (int8 Hopper kernel, G = 64 and 128 prefill) at 2048x4096x4096
#   cfg 9 (decode): 1x4096x4096 G = 32, 16x4096x4096 and 16x11008x4096 G = 128
#   cfg 12 (decode, M = 1 at G >= 64): 1x4096x4096 and 1x11008x4096 G = 128
# ncu flushes the caches before each profiled launch (cold L2, as the bench); clocks are not locked
# (--clock-control none), so the SM frequency line says what the board ran at.
set -u
[ $# -eq 2 ] || { echo "usage: ncu_session.sh MXSIM_GPU DEST" >&2; exit 2; }
G=$1 DEST=$2
command -v ncu > /dev/null || { echo "ncu_session: no ncu on this machine"; exit 0; }
sections=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
          --section WarpStateStats --section Occupancy)
prof() { # REGEX COUNT PERF-ARGS...
  local re=$1 n=$2; shift 2
  echo "==== ncu: perf $* (kernels /$re/)" >> "$DEST/ncu.txt"
  timeout -k 5 90 ncu --clock-control none -k regex:"$re" --launch-skip 2 --launch-count "$n" "${sections[@]}" \
    "$G" perf "$@" >> "$DEST/ncu.txt" 2>&1
}
prof "bf_prescale|gemm_bf16" 2 2048 4096 4096 32 11
for g in 64 128; do prof wgmma 1 2048 4096 4096 $g 8; done
for a in "1 4096 4096 32" "16 4096 4096 128" "16 11008 4096 128"; do prof gemm_decode_kernel 1 $a 9; done
for a in "1 4096 4096 128" "1 11008 4096 128"; do prof gemm_decode_row 1 $a 12; done
grep -E '^==== ncu|^  [a-z].*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|L2 Cache Throughput|SM Frequency|Issue Slots Busy|No Eligible|Achieved Occupancy' \
  "$DEST/ncu.txt" | cut -c1-160

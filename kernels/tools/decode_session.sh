#!/usr/bin/env bash
# decode_session.sh - one short device call for decode-kernel work (issue 16): build mxsim-gpu, SASS
# facts of the decode kernels, a hang-guarded smoke run, the full verify set, the decode-only bench
# (MXK_BENCH_DECODE=1: M <= 16 shapes, cuBLAS bf16 and cuBLASLt int8 in the same run, cold L2, cfg 0 /
# 4 / 9 / 10, no power loops) and ncu of cfg 9 on three shapes (MXK_NCU=0 skips it).
#   usage: kernels/tools/decode_session.sh [OUTDIR]   (default $OUT)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_decode_build}
DEST=${1:-${OUT:-/tmp/decode_out}}
. "$ROOT/kernels/tools/session_lib.sh"
session_start "$DEST" session.log
card_line
stamp "== build"
build_gpu "$ROOT" "$BUILD" "$DEST/build.log" mxsim-gpu || { tail -30 "$DEST/build.log"; exit 1; }
G=$BUILD/mxsim-gpu
stamp "== SASS (gemm_decode_kernel: cfg 9, gemm_decode_v1_kernel: cfg 10)"
lib=$(find "$BUILD" -name 'libmxk.a' | head -1)
cuobjdump -sass "$lib" > /tmp/dec.sass 2>&1
cuobjdump -res-usage "$lib" 2>&1 | grep -A1 'gemm_decode_kernel' | grep -o 'REG:[0-9]* STACK:[0-9]* SHARED:[0-9]* LOCAL:[0-9]*' | sort | uniq -c > "$DEST/sass.txt"
awk '/Function :/{f=$3; d=(f ~ /gemm_decode_kernel/)} d && /IMMA/{n[f]++} d && /UBLKCP/{b[f]++} d && /LDS.128/{l[f]++} d && /LDL|STL/{x[f]++} d && /FMUL/{m[f]++} d && /FMUL.*FTZ/{z[f]++} END{for (k in n) printf "%s: IMMA %d, UBLKCP %d, LDS.128 %d, FMUL %d (FTZ %d), local %d\n", k, n[k], b[k]+0, l[k], m[k], z[k]+0, x[k]+0}' /tmp/dec.sass >> "$DEST/sass.txt"
cat "$DEST/sass.txt"
stamp "== smoke (cfg 9, timeout 20 s each)"
for a in "1 4096 4096 32" "16 4096 4096 128" "1 11008 4096 128" "5 1000 8192 32"; do
  timeout -k 5 20 "$G" perf $a 9 || { stamp "smoke FAILED: $a"; exit 1; }
done
rc=0
stamp "== verify"; timeout -k 5 150 "$G" verify "$DEST" 2>"$DEST/verify_detail.log" || rc=1
tail -3 "$DEST/verify_detail.log"; grep -v 'mismatches=0' "$DEST/verify_detail.log" | grep gemm | head -20
awk -F, 'NR>1 {n++; m+=$5} END {printf "verify: %d checks, %d mismatches\n", n, m}' "$DEST/verify.csv"
if [ "${MXK_SKIP_BENCH:-0}" != 1 ]; then
  stamp "== bench (decode only)"; MXK_BENCH_DECODE=1 timeout -k 5 150 "$G" bench "$DEST" > "$DEST/bench.log" 2>&1 || rc=1
  awk -F, 'NR>1 && $2 ~ /decode/ {printf "%-3s %-6s G=%-4s %-24s %8s us  x%-6s %4.0f%% of DRAM bound\n", $3, $4, $6, $7, $8, $9, 100*$15}' "$DEST/bench_ext.csv"
  grep d2d-copy "$DEST/bench.csv"
fi
if [ "${MXK_NCU:-1}" = 1 ] && command -v ncu > /dev/null; then
  stamp "== ncu cfg 9"
  for a in "1 4096 4096 32" "1 11008 4096 128" "16 4096 4096 128"; do
    timeout -k 5 40 ncu --clock-control none -k regex:gemm_decode --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
      "$G" perf $a 9 >> "$DEST/ncu.txt" 2>&1
  done
  grep -E 'gemm_decode|Duration|DRAM Throughput|Memory Throughput|Achieved Occupancy|Warp Cycles Per Issued' "$DEST/ncu.txt" | head -30
fi
stamp "session rc=$rc"
exit $rc

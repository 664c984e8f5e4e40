#!/usr/bin/env bash
# gpu_session.sh - one device call that does everything issue 16 needs on a card: build, SASS facts,
# a hang-guarded smoke run of the Hopper kernel, the GPU test, the full verify set (0 mismatches
# expected, new kernels included), the golden set, and the benchmark (cold L2 by rotating operand
# sets; cuBLAS bf16 and cuBLASLt int8 re-measured in the same run; roofline and NVML power per row).
#   usage: kernels/tools/gpu_session.sh [OUTDIR]     (default $OUT, else reports/gpu/<card>-<date>)
# The files in OUTDIR: session.log, build.log, sass.txt, verify.csv, bench.csv, bench_ext.csv,
# golden.tar.gz, ncu.txt, and from the other cards' limits (MXK_EMULATE; MXK_SKIP_EMULATE=1 skips
# them) verify_as_{a100,l40s,t4}.csv, bench_as_l40s.{csv,log}, bench_ext_as_l40s.csv.  Every step has a timeout; a failed smoke run disables
# the Hopper kernel (MXK_NO_WGMMA=1) so that the rest still measures.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_gpu_build}
. "$ROOT/kernels/tools/session_lib.sh"
card=$(card_dir_name)
DEST=${1:-${OUT:-$ROOT/reports/gpu/${card:-gpu}-$(date +%Y-%m-%d)}}
session_start "$DEST" session.log
DEST=$(CDPATH= cd "$DEST" && pwd)  # absolute: the golden step writes it from another directory
stamp "== machine"
nvidia-smi -i "$(gpu_sel)" --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,power.limit --format=csv
nvcc --version | tail -1; nproc
stamp "== build"
build_gpu "$ROOT" "$BUILD" "$DEST/build.log" mxsim-gpu test_gpu_kernels
brc=$?
stamp "build rc=$brc"
if [ $brc -ne 0 ]; then tail -40 "$DEST/build.log"; exit 1; fi
G=$BUILD/mxsim-gpu
"$G" info  # the card as CUDA sees it: its SM count scales the roofline (tests/gpumodel/gpu_reports.sh reads it here)
stamp "== SASS of the Hopper kernel (libmxk_sm90a.a)"
{
  lib=$(find "$BUILD" -name 'libmxk_sm90a.a' | head -1)
  cuobjdump -sass "$lib" > /tmp/wg.sass 2>&1
  echo "functions: $(grep -c 'Function :' /tmp/wg.sass)"
  awk '/Function :/{f=$3} /IGMMA|HGMMA/{n[f]++} /LDL|STL/{l[f]++} END{for (k in n) printf "%s: GMMA %d, local-memory ops %d\n", k, n[k], l[k]+0}' /tmp/wg.sass
  grep -o 'IGMMA[^ ]*' /tmp/wg.sass | sort | uniq -c
  echo "LDL/STL in the library: $(grep -c 'LDL\|STL' /tmp/wg.sass)"
  echo "== decode kernel (gemm_decode_kernel<MS, G>, libmxk.a, sm_90)"
  lib2=$(find "$BUILD" -name 'libmxk.a' | head -1)
  cuobjdump -sass "$lib2" 2>/dev/null | awk '/Function :/{f=$3; d=(f ~ /gemm_decode/)} d && /IMMA/{n[f]++} d && /LDG.*128/{l[f]++} d && /UBLKCP/{b[f]++} d && /LDL|STL/{x[f]++} d && /FMUL/{m[f]++} END{for (k in n) printf "%s: IMMA %d, LDG.128 %d, UBLKCP %d, FMUL %d, local-memory ops %d\n", k, n[k], l[k]+0, b[k]+0, m[k], x[k]+0}'
} > "$DEST/sass.txt" 2>&1
cat "$DEST/sass.txt"
stamp "== smoke: Hopper kernel, 2048x4096x4096, G = 32, 64 and 128"
smoke=0
for a in "32 8" "64 8" "128 8"; do
  timeout -k 5 30 "$G" perf 2048 4096 4096 $a || smoke=1
done
if [ $smoke -ne 0 ]; then export MXK_NO_WGMMA=1; stamp "smoke FAILED: Hopper kernel disabled for the rest"; fi
rc=0
stamp "== test_gpu_kernels"; timeout -k 5 120 "$BUILD/kernels/test_gpu_kernels" || rc=1
stamp "== verify"; timeout -k 5 300 "$G" verify "$DEST" 2>/tmp/verify_detail.log || rc=1
tail -8 /tmp/verify_detail.log
grep -v 'mismatches=0' /tmp/verify_detail.log | grep gemm | head -20
if [ "${MXK_SKIP_EMULATE:-0}" != 1 ]; then
  # Other cards' limits on this one (MXK_EMULATE, mxk.h): the kernels that need what those cards
  # lack hand their calls on, and the fallbacks must give the same bits.  verify_as_<card>.csv
  # names the kernel that ran in every GEMM row (ran=N); bench_as_l40s.csv times them.
  for em in a100 l40s t4; do
    stamp "== as on an $em (MXK_EMULATE=$em): test_gpu_kernels, verify"
    MXK_EMULATE=$em timeout -k 5 120 "$BUILD/kernels/test_gpu_kernels" || rc=1
    rm -rf "/tmp/em_$em" && mkdir -p "/tmp/em_$em"
    MXK_EMULATE=$em timeout -k 5 600 "$G" verify "/tmp/em_$em" 2>/tmp/verify_em.log || rc=1
    tail -3 /tmp/verify_em.log
    cp "/tmp/em_$em/verify.csv" "$DEST/verify_as_$em.csv" || rc=1
    grep -o 'ran=[a-z0-9]*' "$DEST/verify_as_$em.csv" | sort | uniq -c | tr '\n' ' '; echo
  done
  if [ "${MXK_SKIP_BENCH:-0}" != 1 ]; then
    stamp "== bench as on an l40s (MXK_EMULATE=l40s)"
    rm -rf /tmp/em_bench && mkdir -p /tmp/em_bench
    MXK_EMULATE=l40s timeout -k 5 330 "$G" bench /tmp/em_bench > "$DEST/bench_as_l40s.log" 2>&1 || rc=1
    tail -3 "$DEST/bench_as_l40s.log"
    cp /tmp/em_bench/bench.csv "$DEST/bench_as_l40s.csv" && cp /tmp/em_bench/bench_ext.csv "$DEST/bench_ext_as_l40s.csv" || rc=1
  fi
fi
stamp "== golden"
rm -rf /tmp/golden && mkdir -p /tmp/golden/golden && timeout -k 5 120 "$G" golden /tmp/golden/golden > /dev/null || rc=1
(cd /tmp/golden && tar czf "$DEST/golden.tar.gz" golden) || rc=1
if [ "${MXK_SKIP_BENCH:-0}" != 1 ]; then
  stamp "== bench"; timeout -k 5 330 "$G" bench "$DEST" || rc=1
fi
if [ "${MXK_NCU:-1}" = 1 ]; then
  stamp "== ncu: the dispatched kernels of the target shapes (kernels/tools/ncu_session.sh)"
  "$ROOT/kernels/tools/ncu_session.sh" "$G" "$DEST"
fi
stamp "== summary"
awk -F, 'NR>1 {n++; m+=$5} END {printf "verify: %d checks, %d mismatches\n", n, m}' "$DEST/verify.csv"
[ -f "$DEST/bench_ext.csv" ] && awk -F, 'NR>1 {printf "%-14s %-24s %6s %6s %6s G=%-4s %10s us  x%-6s %-15s %5.0f%% of bound  %6s W  %s TOPS/W\n", $2, $7, $3, $4, $5, $6, $8, $9, $10, 100*$15, $16, $18}' "$DEST/bench_ext.csv"
stamp "session rc=$rc"
exit $rc

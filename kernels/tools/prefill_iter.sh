#!/usr/bin/env bash
# prefill_iter.sh - one device call for an iteration on the Hopper kernel (cfg 8): build this tree
# (and, when BASE_SRC names another tree, that one as the baseline), a hang-guarded smoke run, the
# cfg-8 verify cases and the full verify (0 mismatches expected), L2-warm perf of the baseline and
# this tree, and bench-prefill (cuBLAS bf16 and each MXK_WG_DEBUG timing variant, same run, cold L2).
#   usage: [VARIANTS=0,1,9] [BASE_SRC=..] [NCU="32 128"] [KERNELS="orig=FILE ..."] \
#          kernels/tools/prefill_iter.sh OUTDIR
# KERNELS: other versions of gemm_wgmma.cu (same launcher interface), each built into a copy of this
# tree and timed by the same bench-prefill (cold L2, cuBLAS bf16 again), results in OUTDIR/NAME/.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEST=${1:-${OUT:-/tmp/prefill_out}}
. "$ROOT/kernels/tools/session_lib.sh"
session_start "$DEST" iter.log
card_line
build() { build_gpu "$1" "$2" "$2.log" mxsim-gpu; } # src dir, build dir (log: build dir + .log)
stamp "== build"
build "$ROOT" /tmp/b_new & p1=$!
if [ -n "${BASE_SRC:-}" ]; then build "$BASE_SRC" /tmp/b_old & p2=$!; wait $p2 || echo "baseline build failed"; fi
kb=""
for kv in ${KERNELS:-}; do
  n=${kv%%=*} f=${kv#*=}
  rm -rf /tmp/t_$n && mkdir -p /tmp/t_$n && tar -C "$ROOT" --exclude='./build*' -cf - . | tar -C /tmp/t_$n -xf - &&
    cp "$f" /tmp/t_$n/kernels/src/gemm_wgmma.cu && { build /tmp/t_$n /tmp/b_$n & kb="$kb $!"; }
done
wait $p1 || { tail -30 /tmp/b_new.log; exit 1; }
for p in $kb; do wait $p; done
cmake --build /tmp/b_new -j8 --target test_gpu_kernels >> /tmp/b_new.log 2>&1
lib=$(find /tmp/b_new -name 'libmxk_sm90a.a' | head -1)
if command -v cuobjdump > /dev/null && [ -n "$lib" ]; then
  cuobjdump -sass "$lib" > /tmp/wg.sass 2>&1
  awk '/Function :/{f=$3} /IGMMA|HGMMA/{n[f]++} /LDL|STL/{l[f]++} END{for (k in n) printf "%s: GMMA %d, local-memory ops %d\n", k, n[k], l[k]+0}' /tmp/wg.sass | tee "$DEST/sass.txt"
  grep -o 'IGMMA[^ ]*' /tmp/wg.sass | sort | uniq -c | tee -a "$DEST/sass.txt"
fi
grep -E "C75(14|18|20)" /tmp/b_new.log | sort -u | tee -a "$DEST/sass.txt" | head -5
grep -E "C75(14|18|20)|spill" /tmp/b_new.log | grep -v " 0 bytes spill" | sort | uniq -c | head
NEW=/tmp/b_new/mxsim-gpu OLD=/tmp/b_old/mxsim-gpu
stamp "== smoke (20 s limit per call)"
for g in 32 64 128 256; do timeout -k 2 20 "$NEW" perf 2048 4096 4096 $g 8 || { echo "smoke FAILED at G=$g"; exit 1; }; done
stamp "== test_gpu_kernels"; timeout -k 2 120 /tmp/b_new/kernels/test_gpu_kernels > /tmp/t.log 2>&1; echo "test_gpu_kernels rc=$?: $(tail -1 /tmp/t.log)"
stamp "== verify: cfg 8 cases, then everything"
MXK_VERIFY_CFG=8 timeout -k 2 120 "$NEW" verify "$DEST" > /tmp/ver.log 2>&1; echo "cfg 8 rc=$?: $(tail -1 /tmp/ver.log)"
grep -v "mismatches=0" /tmp/ver.log | grep gemm | head -5
cp "$DEST/verify.csv" "$DEST/verify_cfg8.csv"
for d in ${VERIFY_DBG:-}; do # experimental paths selected by MXK_WG_DEBUG bits must be exact too
  MXK_WG_DEBUG=$d MXK_VERIFY_CFG=8 timeout -k 2 120 "$NEW" verify "$DEST" > /tmp/ver.log 2>&1; echo "cfg 8, MXK_WG_DEBUG=$d rc=$?: $(tail -1 /tmp/ver.log)"
  cp "$DEST/verify.csv" "$DEST/verify_cfg8_dbg$d.csv"
done
timeout -k 2 200 "$NEW" verify "$DEST" > /tmp/ver.log 2>&1; echo "full verify rc=$?: $(tail -1 /tmp/ver.log)"
grep -v "mismatches=0" /tmp/ver.log | grep -E "^(gemm|dequant|quantize)" | head -5
stamp "== L2-warm perf, baseline vs this tree"
for g in 32 64 128; do
  [ -x "$OLD" ] && timeout -k 2 20 "$OLD" perf 2048 4096 4096 $g 8 | sed 's/^/old /'
  timeout -k 2 20 "$NEW" perf 2048 4096 4096 $g 8 | sed 's/^/new /'
done
stamp "== bench-prefill: MXK_WG_DEBUG in ${VARIANTS:-0}"
MXK_PREFILL_VARIANTS=${VARIANTS:-0} timeout -k 5 200 "$NEW" bench-prefill "$DEST"
for kv in ${KERNELS:-}; do
  n=${kv%%=*}
  [ -x /tmp/b_$n/mxsim-gpu ] || { echo "$n: build failed"; continue; }
  stamp "== kernel $n: cfg 8 verify, bench-prefill"
  mkdir -p "$DEST/$n"
  MXK_VERIFY_CFG=8 timeout -k 2 120 /tmp/b_$n/mxsim-gpu verify "$DEST/$n" > /tmp/ver.log 2>&1; echo "$n cfg 8 rc=$?: $(tail -1 /tmp/ver.log)"
  timeout -k 5 100 /tmp/b_$n/mxsim-gpu bench-prefill "$DEST/$n" | sed "s/^/$n /"
done
if [ -n "${NCU:-}" ] && command -v ncu > /dev/null; then
  for g in $NCU; do
    stamp "== ncu 2048x4096x4096 G=$g"
    timeout -k 5 60 ncu --clock-control none -k regex:gemm_wgmma --launch-skip 2 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SchedulerStats \
      --metrics "regex:smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio" \
      "$NEW" perf 2048 4096 4096 $g 8 > "$DEST/ncu_g$g.txt" 2>&1
    grep -E "Duration|Throughput|Issue|Warp Cycles|SM Frequency|Eligible|stalled" "$DEST/ncu_g$g.txt" | awk '$NF+0 > 0.05 || !/stalled/' | head -40
  done
fi
stamp "done"

#!/bin/bash
# session 14: the M = 1 row kernel (cfg 12) against cfg 9: verify, A/B (cold), decode bench
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for a in "1 4096 4096 32" "1 4096 4096 128" "1 11008 4096 256" "1 77 8192 64" "1 20 65536 32" "1 1 512 32"; do
  timeout -k 5 20 $G perf $a 12 || { stamp "smoke FAILED $a"; exit 1; }
done
stamp smoke-ok
MXK_VERIFY_CFG=12 timeout -k 5 120 $G verify /tmp/v12 > $D/verify12.txt 2>&1; echo "verify12 rc=$?"; tail -25 $D/verify12.txt
stamp verified
for r in 1 2 3; do
  for a in "1 4096 4096 128" "1 4096 4096 32" "1 11008 4096 128" "1 11008 4096 32" "1 4096 4096 64" "1 4096 4096 256" "1 11008 4096 64"; do
    for c in 9 12; do MXK_PERF_COLD=1 $G perf $a $c; done
  done
done > $D/ab.txt 2>&1
grep perf $D/ab.txt
stamp ab
MXK_BENCH_DECODE=1 timeout -k 5 200 $G bench $D > $D/bench.log 2>&1; echo "bench rc=$?"
grep -E "llama-decode|decode" $D/bench.csv | grep -v dequant | head -60
stamp done

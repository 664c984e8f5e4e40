#!/bin/bash
# session 15, call 2 (the persistent version: activations staged once per block): the 2 <= M <= 16 decode kernel (cfg 13): smoke, verify, A/B against cfg 9 / 10 (cold L2)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for a in "16 4096 4096 128" "16 4096 4096 32" "2 1 4096 32" "16 33 64 64" "9 77 11008 128"; do
  timeout -k 5 20 $G perf $a 13 || { stamp "smoke FAILED $a"; exit 1; }
done
stamp smoke-ok
mkdir -p /tmp/v13 /tmp/v13_1 /tmp/v13_2 /tmp/v13_3 /tmp/v13_4; MXK_VERIFY_CFG=13 timeout -k 5 150 $G verify /tmp/v13 > $D/verify13.txt 2>&1; echo "verify13 rc=$?"; tail -22 $D/verify13.txt
for v in 2 3; do MXK_DM_VAR=$v MXK_VERIFY_CFG=13 timeout -k 5 150 $G verify /tmp/v13_$v > /tmp/v13_$v.txt 2>&1; echo "verify13 var $v rc=$?: $(tail -1 /tmp/v13_$v.txt)"; done | tee $D/verify13_vars.txt
stamp verified
for r in 1 2; do
  for a in "16 4096 4096 128" "16 11008 4096 128" "16 4096 4096 64" "16 11008 4096 64" "16 4096 4096 32" "16 11008 4096 32" "8 4096 4096 128" "4 11008 4096 128"; do
    for c in 9 10 13; do MXK_PERF_COLD=1 $G perf $a $c; done
    for v in 1 2 3 4; do MXK_DM_VAR=$v MXK_PERF_COLD=1 $G perf $a 13 | sed "s/^/var$v /"; done
  done
  for a in "1 4096 4096 128" "1 11008 4096 128"; do MXK_PERF_COLD=1 $G perf $a 12; done
done > $D/ab.txt 2>&1
grep -E "perf|us" $D/ab.txt | head -200
stamp ab
MXK_BENCH_DECODE=1 timeout -k 5 200 $G bench $D > $D/bench.log 2>&1; echo "bench rc=$?"
grep -E "llama-decode" $D/bench_ext.csv | grep -E ",(0|128|32)," | cut -d, -f3-9
stamp done

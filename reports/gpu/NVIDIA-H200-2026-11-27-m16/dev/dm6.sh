#!/bin/bash
# session 15, call 6: cfg 13 v5 (steps of 128 bytes double-buffered in registers, halves): verify, A/B
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for a in "16 4096 4096 128" "16 4096 4096 64" "2 1 4096 128" "16 33 128 64" "9 77 11008 128"; do
  timeout -k 5 20 $G perf $a 13 || { stamp "smoke FAILED $a"; exit 1; }
done
stamp smoke-ok
for v in 0 2; do mkdir -p /tmp/v13_$v; MXK_DM_VAR=$v MXK_VERIFY_CFG=13 timeout -k 5 150 $G verify /tmp/v13_$v > /tmp/v13_$v.txt 2>&1; echo "verify13 var $v rc=$?: $(tail -1 /tmp/v13_$v.txt)"; grep -v "mismatches=0" /tmp/v13_$v.txt | head -5; done | tee $D/verify13_vars.txt
stamp verified
for r in 1 2; do
  for a in "16 4096 4096 128" "16 11008 4096 128" "8 4096 4096 128" "4 11008 4096 128" "16 4096 4096 64" "16 11008 4096 64"; do
    for c in 9 10 13; do MXK_PERF_COLD=1 $G perf $a $c; done
    for v in 1 2 3; do MXK_DM_VAR=$v MXK_PERF_COLD=1 $G perf $a 13 | sed "s/^/var$v /"; done
  done
  for a in "1 4096 4096 128" "1 11008 4096 128"; do MXK_PERF_COLD=1 $G perf $a 12; done
done > $D/ab.txt 2>&1
grep -E "perf|us" $D/ab.txt | sed 's/ TOPS (B out of L2)//'
stamp ab

#!/bin/bash
# session 15, call 7: cfg 13 v5 diagnostics: H = 2 with .cs loads (var 4); without terms (5); stream only (6, 7: H = 2, 1)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
mkdir -p /tmp/v13_4; MXK_DM_VAR=4 MXK_VERIFY_CFG=13 timeout -k 5 150 $G verify /tmp/v13_4 > /tmp/v13_4.txt 2>&1; echo "verify13 var 4 rc=$?: $(tail -1 /tmp/v13_4.txt)" | tee $D/verify13_vars.txt
for r in 1 2; do
  for a in "16 4096 4096 128" "16 11008 4096 128"; do
    MXK_PERF_COLD=1 $G perf $a 9
    for v in 2 4 5 6 7; do MXK_DM_VAR=$v MXK_PERF_COLD=1 $G perf $a 13 | sed "s/^/var$v /"; done
  done
  for a in "1 4096 4096 128" "1 11008 4096 128"; do MXK_PERF_COLD=1 $G perf $a 12; done
done > $D/ab.txt 2>&1
grep -E "perf|us" $D/ab.txt | sed 's/ TOPS (B out of L2)//'
stamp ab

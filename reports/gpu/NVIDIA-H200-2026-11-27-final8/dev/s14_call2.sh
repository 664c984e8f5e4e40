#!/bin/bash
# session 14, call 2: cfg 12 variants (MXK_DR_VAR 1/2/3) verified and timed against cfg 9 (cold L2)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for v in 1 2 3; do for a in "1 4096 4096 32" "1 4096 4096 128" "1 11008 4096 256" "1 77 8192 64" "1 20 65536 32" "1 1 512 32" "1 13 4608 64"; do
  MXK_DR_VAR=$v timeout -k 5 20 $G perf $a 12 > /dev/null || { stamp "smoke FAILED var $v $a"; exit 1; }
done; done
stamp smoke-ok
for v in 1 2 3; do
  mkdir -p /tmp/v12_$v; MXK_DR_VAR=$v MXK_VERIFY_CFG=12 timeout -k 5 120 $G verify /tmp/v12_$v > /tmp/v12_$v/log 2>&1
  echo "verify cfg 12 var $v rc=$?: $(tail -1 /tmp/v12_$v/log)" | tee -a $D/verify12.txt
  grep -v "mismatches=0" /tmp/v12_$v/log | head -5 >> $D/verify12.txt
done
cp /tmp/v12_1/verify.csv $D/verify12_var1.csv 2>/dev/null
stamp verified
for r in 1 2; do
  for a in "1 4096 4096 128" "1 4096 4096 32" "1 11008 4096 128" "1 11008 4096 32" "1 4096 4096 64" "1 11008 4096 64" "1 4096 4096 256"; do
    MXK_PERF_COLD=1 $G perf $a 9
    for v in 1 2 3; do echo -n "var$v "; MXK_DR_VAR=$v MXK_PERF_COLD=1 $G perf $a 12; done
  done
done > $D/ab.txt 2>&1
cat $D/ab.txt | sed 's/ TOPS.*//'
stamp done

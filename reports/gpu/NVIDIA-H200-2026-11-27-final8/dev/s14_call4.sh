#!/bin/bash
# session 14, call 4: cfg 12 after the instruction trims; the block fold (var 7) and nc loads (var 5)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for v in 0 5 7; do for a in "1 4096 4096 32" "1 4096 4096 128" "1 11008 4096 256" "1 77 8192 64" "1 20 65536 32" "1 1 512 32" "1 13 4608 64"; do
  MXK_DR_VAR=$v timeout -k 5 20 $G perf $a 12 > /dev/null || { stamp "smoke FAILED var $v $a"; exit 1; }
done; done
stamp smoke-ok
for v in 0 5 7; do
  mkdir -p /tmp/v12_$v; MXK_DR_VAR=$v MXK_VERIFY_CFG=12 timeout -k 5 120 $G verify /tmp/v12_$v > /tmp/v12_$v/log 2>&1
  echo "verify cfg 12 var $v rc=$?: $(tail -1 /tmp/v12_$v/log)" | tee -a $D/verify12.txt
done
stamp verified
for r in 1 2; do
  for a in "1 4096 4096 128" "1 4096 4096 32" "1 11008 4096 128" "1 4096 4096 64" "1 11008 4096 32" "1 11008 4096 64"; do
    MXK_PERF_COLD=1 $G perf $a 9
    for v in 0 5 7; do echo -n "var$v "; MXK_DR_VAR=$v MXK_PERF_COLD=1 $G perf $a 12; done
  done
done > $D/ab.txt 2>&1
sed 's/ TOPS.*//' $D/ab.txt
stamp ab
for a in "1 4096 4096 128" "1 4096 4096 32"; do for v in 0 7; do echo "var $v"; MXK_DR_VAR=$v MXK_DR_TRACE=1 MXK_PERF_COLD=1 $G perf $a 12; done; done > $D/trace.txt 2>&1
cat $D/trace.txt
stamp done

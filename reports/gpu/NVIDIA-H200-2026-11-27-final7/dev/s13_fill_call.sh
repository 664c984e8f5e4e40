#!/bin/bash
# session 13: the decode kernel's first ring fill issued by the consumer warps (MXK_DS_FILL=1), A/B
D=$OUT; . kernels/tools/session_lib.sh
card_line
B=/tmp/bd; build_gpu . $B $D/build_d.log mxsim-gpu || { tail -20 $D/build_d.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for f in 0 1; do for a in "1 4096 4096 32" "1 4096 4096 128" "16 4096 4096 128" "1 11008 4096 128" "5 1000 8192 32" "16 11008 4096 128" "3 100 64 32"; do
  MXK_DS_FILL=$f timeout -k 5 20 $G perf $a 9 > /dev/null || { stamp "smoke FAILED fill=$f $a"; exit 1; }
done; done
stamp smoke-ok
rc=0
for e in "MXK_DS_FILL=1" "MXK_DS_FILL=1 MXK_DS_V2=0" "MXK_DS_FILL=1 MXK_DS_BPS=1" "MXK_DS_FILL=1 MXK_DS_NS=2"; do
  d=/tmp/vf_$(echo $e | tr ' =' '__'); mkdir -p $d
  env $e MXK_VERIFY_CFG=9 timeout -k 5 60 $G verify $d > $d/log 2>&1 || rc=1
  echo "verify cfg 9 [$e]: $(tail -1 $d/log)" | tee -a $D/verify.txt
done
for a in "1 4096 4096 128" "1 4096 4096 32" "1 11008 4096 128" "16 4096 4096 128" "16 11008 4096 128"; do
  for f in 0 1; do echo "== fill=$f $a"; MXK_DS_FILL=$f MXK_DS_TRACE=1 MXK_PERF_COLD=1 $G perf $a 9; done
done > $D/trace.txt 2>&1
stamp traces
MXK_BUILD=$B kernels/tools/decode_sweep.sh /tmp/ds "def:MXK_DS_FILL=0" "fill:MXK_DS_FILL=1" "def2:MXK_DS_FILL=0" "fill2:MXK_DS_FILL=1" \
  "def3:MXK_DS_FILL=0" "fill3:MXK_DS_FILL=1" > $D/ab.txt 2>&1
grep -E "==|cfg9" $D/ab.txt | head -80
stamp "done rc=$rc"

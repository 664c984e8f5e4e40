#!/bin/bash
# session 9, call 6: with the early ring release, does a deeper ring (1 KB stages, MXK_DS_CPW=2, more of
# them) now help at M = 16?  decode-only benches, cuBLAS in each; two rounds
D=$OUT/c6; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b6
build_gpu . $B $D/build.log mxsim-gpu || { tail -30 $D/build.log; exit 1; }
stamp built
for e in MXK_DS_CPW=2 MXK_DS_CPW=2,MXK_DS_NS=4 MXK_DS_CPW=2,MXK_DS_V2=1; do
  d=$D/vf_$(echo $e | tr ',=' '__'); mkdir -p $d
  env $(echo $e | tr ',' ' ') MXK_VERIFY_CFG=9 timeout -k 5 60 $B/mxsim-gpu verify $d > $d/log 2>&1; echo "verify cfg9 [$e] rc=$? $(tail -1 $d/log)"
done
for r in 1 2; do
  MXK_BUILD=$B kernels/tools/decode_sweep.sh $D/r$r "base:MXK_DS_NS=0" "cpw2:MXK_DS_CPW=2" "cpw2ns4:MXK_DS_CPW=2,MXK_DS_NS=4" "ns2:MXK_DS_NS=2"
done 2>&1 | grep -E "==|G=128 |G=0 "
for a in "16 11008 4096 128" "16 4096 4096 128"; do for e in MXK_DS_NS=0 MXK_DS_CPW=2; do
  echo "== trace [$e] $a"; env $e MXK_DS_TRACE=1 MXK_PERF_COLD=1 timeout -k 5 20 $B/mxsim-gpu perf $a 9 2>&1 | grep -E "perf|trace:|median"
done; done | tee $D/trace.txt
stamp done
tar -C $OUT -czf $OUT/c6.tgz c6 && rm -rf $D

#!/bin/bash
# session 11: decode knobs at M = 1 and 16 on the final build (no code change): the V2 consumers at
# M = 1 G = 32 (off by default there), 3 blocks per SM, ring stages, two rounds of the default
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/bd; build_gpu . $B $D/build_d.log mxsim-gpu || { tail -20 $D/build_d.log; exit 1; }
stamp built
MXK_BUILD=$B kernels/tools/decode_sweep.sh /tmp/ds "def:MXK_DS_CPW=0" "v2:MXK_DS_V2=1" "bps3:MXK_DS_BPS=3" \
  "ns3:MXK_DS_NS=3" "def2:MXK_DS_CPW=0" "v2b:MXK_DS_V2=1" 2>&1 | tee $D/dsweep_m1.txt | grep -E "==|  1  |  16 .*G=128"
stamp done

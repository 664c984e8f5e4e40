#!/bin/bash
# session 12: the V2 consumers at M = 1 G = 32 on an H200 (off by default there): three alternating rounds
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/bd; build_gpu . $B $D/build_d.log mxsim-gpu || { tail -20 $D/build_d.log; exit 1; }
stamp built
MXK_BUILD=$B kernels/tools/decode_sweep.sh /tmp/ds "def:MXK_DS_CPW=0" "v2:MXK_DS_V2=1" "def2:MXK_DS_CPW=0" "v2b:MXK_DS_V2=1" \
  "def3:MXK_DS_CPW=0" "v2c:MXK_DS_V2=1" 2>&1 | tee $D/s12_h200_v2ab.txt | grep -E "==|  1  .*G=(0|32) "
stamp done

#!/bin/bash
# session 14: the fixed GPU test and the full verify on the committed tree
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bt; build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels || { tail -20 $D/build.log; exit 1; }
stamp built
timeout -k 5 120 $B/kernels/test_gpu_kernels; echo "test_gpu_kernels rc=$?"
mkdir -p /tmp/v; timeout -k 5 200 $B/mxsim-gpu verify /tmp/v > /tmp/v/log 2>&1; echo "verify rc=$?"; tail -1 /tmp/v/log; cp /tmp/v/verify.csv $D/
stamp done

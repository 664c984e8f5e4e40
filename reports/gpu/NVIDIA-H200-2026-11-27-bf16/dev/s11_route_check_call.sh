#!/bin/bash
# session 11: after moving cfg 0's routing into mxk_gemm_cfg0 (host code, behaviour unchanged):
# GPU test and full verify on one card
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/br; build_gpu . $B $D/build_r.log mxsim-gpu test_gpu_kernels || { tail -20 $D/build_r.log; exit 1; }
stamp built
timeout -k 5 60 $B/kernels/test_gpu_kernels > $D/test.log 2>&1; echo "test_gpu_kernels rc=$?"; head -1 $D/test.log; tail -1 $D/test.log
mkdir -p $D/v; timeout -k 5 200 $B/mxsim-gpu verify $D/v > $D/verify.log 2>&1; echo "verify rc=$? $(tail -1 $D/verify.log)"
stamp done

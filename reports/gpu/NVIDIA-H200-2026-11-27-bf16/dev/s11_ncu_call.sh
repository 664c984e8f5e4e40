#!/bin/bash
# session 11: Nsight Compute of the dispatched kernels (kernels/tools/ncu_session.sh) of the final6
# build on one card (the final6 runs' gpu_session profiled cfg 8 at G = 32 and 128 and two decode shapes)
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/bn; build_gpu . $B $D/build_ncu.log mxsim-gpu || { tail -20 $D/build_ncu.log; exit 1; }
stamp built
kernels/tools/ncu_session.sh $B/mxsim-gpu $D
stamp done

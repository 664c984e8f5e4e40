#!/bin/bash
# session 10, call 10: after the TMA / tile-store refactor (mxk_tma.cuh, mxk_wg_store_tile): full verify,
# bench-prefill (cfg 8 and cfg 11 beside cuBLAS bf16), and the GPU test
D=$OUT/c10; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b10
build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels || { tail -30 $D/build.log; exit 1; }
stamp built
timeout -k 5 60 $B/kernels/test_gpu_kernels; echo "test_gpu_kernels rc=$?"
timeout -k 5 200 $B/mxsim-gpu verify $D > $D/verify.log 2>&1; echo "verify rc=$? $(tail -1 $D/verify.log)"
timeout -k 5 200 $B/mxsim-gpu bench-prefill $D > $D/bench_prefill.log 2>&1; echo "bench-prefill rc=$?"; cat $D/bench_prefill.log
stamp done

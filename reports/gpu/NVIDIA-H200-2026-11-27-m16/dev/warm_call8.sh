#!/bin/bash
# session 15, call 8: does a time-based warm-up (MXK_BENCH_WARM_MS) change the decode rows?  Decode
# bench (cuBLAS bf16, cuBLASLt int8, every mxk kernel; no power loops), alternating 0 / 50 ms, 3 rounds
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for r in 1 2 3; do
  for w in 0 50; do
    mkdir -p $D/r${r}_w$w
    MXK_BENCH_WARM_MS=$w MXK_BENCH_DECODE=1 timeout -k 5 200 $G bench $D/r${r}_w$w > $D/r${r}_w$w/log 2>&1; echo "round $r warm $w rc=$?"
    stamp "r$r w$w"
  done
done
for f in $D/r*_w*/bench_ext.csv; do echo "== $f"; grep -E "llama-decode" $f | grep -E ",(0|128|32),(cublas-bf16|cublaslt-int8|mxk-gemm-mxint8|mxk-gemm-mxint8-cfg9|mxk-gemm-mxint8-cfg12)," | cut -d, -f3-9 | tr '\n' ' ' | sed 's/llama//g'; echo; done

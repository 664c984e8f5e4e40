#!/bin/bash
# session 10, call 6: cfg 11 with 2-CTA clusters (B multicast) vs without (B2), verify + bench-prefill
D=$OUT/c6; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B1=/tmp/b1; B2=/tmp/b2
build_gpu . $B1 $D/build1.log mxsim-gpu || { tail -30 $D/build1.log; exit 1; }
cp .dev-probe/s10/bf_nocluster.cu kernels/src/gemm_bf16.cu
build_gpu . $B2 $D/build2.log mxsim-gpu || { tail -30 $D/build2.log; exit 1; }
git checkout kernels/src/gemm_bf16.cu 2>/dev/null
stamp built
for b in 1 2; do
  B=/tmp/b$b
  timeout -k 5 20 $B/mxsim-gpu perf 2048 4096 4096 32 11 || { stamp "smoke FAILED b$b"; exit 1; }
  timeout -k 5 20 $B/mxsim-gpu perf 2176 1152 640 64 11 || { stamp "smoke2 FAILED b$b"; exit 1; }
done
mkdir -p $D/vf1; MXK_VERIFY_CFG=11 timeout -k 5 300 $B1/mxsim-gpu verify $D/vf1 > $D/vf1/log 2>&1; echo "verify cfg11 b1 rc=$? $(tail -1 $D/vf1/log)"
grep -v ",0$" $D/vf1/verify.csv | head -20
stamp verified
for b in 1 2; do
  mkdir -p $D/bp$b; timeout -k 5 200 /tmp/b$b/mxsim-gpu bench-prefill $D/bp$b > $D/bp$b/log 2>&1; echo "bench-prefill b$b rc=$?"; grep -v "G=128" $D/bp$b/log
done
stamp done

#!/bin/bash
# session 10, call 7: cfg 11 block variants, same call: B1 (G=32: 2 stages / 4 groups per block, "+f" first
# k-step; G=64: 2 stages), B2 (B1 with G=64: 4 stages per block, 7 ring stages), B0 (committed: G=32 one stage)
D=$OUT/c7; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
build_gpu . /tmp/b1 $D/build1.log mxsim-gpu || { tail -30 $D/build1.log; exit 1; }
cmake -S . -B /tmp/b2 -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
  -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS=-DBF_NSB64=4 -DBF_STAGES=7" > $D/build2.log 2>&1 &&
  cmake --build /tmp/b2 -j$(nproc) --target mxsim-gpu >> $D/build2.log 2>&1 || { tail -30 $D/build2.log; exit 1; }
cp .dev-probe/s10/bf_onestage.cu kernels/src/gemm_bf16.cu
build_gpu . /tmp/b0 $D/build0.log mxsim-gpu || { tail -30 $D/build0.log; exit 1; }
stamp built
for b in 1 2 0; do
  timeout -k 5 20 /tmp/b$b/mxsim-gpu perf 2048 4096 4096 32 11 || { stamp "smoke FAILED b$b"; exit 1; }
done
for b in 1 2; do
  mkdir -p $D/vf$b; MXK_VERIFY_CFG=11 timeout -k 5 300 /tmp/b$b/mxsim-gpu verify $D/vf$b > $D/vf$b/log 2>&1; echo "verify cfg11 b$b rc=$? $(tail -1 $D/vf$b/log)"
  grep -v ",0$" $D/vf$b/verify.csv | head -5
done
stamp verified
for b in 1 2 0; do
  mkdir -p $D/bp$b; timeout -k 5 200 /tmp/b$b/mxsim-gpu bench-prefill $D/bp$b > $D/bp$b/log 2>&1; echo "bench-prefill b$b rc=$?"; grep -v "G=128" $D/bp$b/log
done
stamp done

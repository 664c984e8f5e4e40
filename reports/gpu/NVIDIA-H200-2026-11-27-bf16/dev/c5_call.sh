#!/bin/bash
# session 10, call 5: the bf16 Hopper kernel (cfg 11): verify (cfg 11 cases) and bench-prefill, two builds
# (B1: two stages per straight-line block at G = 32; B2: -DBF_G32_ONESTAGE)
D=$OUT/c5; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B1=/tmp/b1; B2=/tmp/b2
build_gpu . $B1 $D/build1.log mxsim-gpu || { tail -30 $D/build1.log; exit 1; }
cmake -S . -B $B2 -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-DBF_G32_ONESTAGE > $D/build2.log 2>&1 &&
  cmake --build $B2 -j$(nproc) --target mxsim-gpu >> $D/build2.log 2>&1 || { tail -30 $D/build2.log; exit 1; }
stamp built
for b in 1 2; do
  B=/tmp/b$b
  timeout -k 5 20 $B/mxsim-gpu perf 2048 4096 4096 32 11 || { stamp "smoke FAILED b$b"; exit 1; }
  mkdir -p $D/vf$b; MXK_VERIFY_CFG=11 timeout -k 5 300 $B/mxsim-gpu verify $D/vf$b > $D/vf$b/log 2>&1; echo "verify cfg11 b$b rc=$? $(tail -1 $D/vf$b/log)"
  grep -v ",0$" $D/vf$b/verify.csv | head -20
done
stamp verified
for b in 1 2; do
  mkdir -p $D/bp$b; timeout -k 5 200 /tmp/b$b/mxsim-gpu bench-prefill $D/bp$b > $D/bp$b/log 2>&1; echo "bench-prefill b$b rc=$?"; cat $D/bp$b/log
done
stamp done

#!/bin/bash
# session 9, call 3: where a consumer warp's stage time goes at M = 16 (stamps moved by -DMXK_DS_DIAG:
# 0 release, 1 after the dots, 2 after the tfree wait, 3 after the terms, 4 folder done)
D=$OUT/c3; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
for d in 0 1 2 3 4; do
  fl=""; [ $d != 0 ] && fl="-DMXK_DS_DIAG=$d"
  ( cmake -S . -B /tmp/bd$d -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS="$fl" > $D/build$d.log 2>&1 && cmake --build /tmp/bd$d -j4 --target mxsim-gpu >> $D/build$d.log 2>&1 || echo "build $d failed" ) &
done
wait
stamp built
for a in "16 11008 4096 128" "16 4096 4096 128" "1 11008 4096 128"; do
  for d in 0 1 2 3 4; do
    echo "== diag $d $a"; MXK_DS_TRACE=1 MXK_PERF_COLD=1 timeout -k 5 20 /tmp/bd$d/mxsim-gpu perf $a 9 2>&1 | grep -E "perf|block 0 |median" | cut -c1-700
  done
done | tee $D/trace.txt
stamp done
tar -C $OUT -czf $OUT/c3.tgz c3 && rm -rf $D

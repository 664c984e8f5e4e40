#!/bin/bash
# session 9, call 7: stage 0 by the consumers' own 16-byte loads (new) vs by the producer's bulk copies (-DMXK_DS_NO_LDG0)
D=$OUT/c7; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B1=/tmp/b_new; B0=/tmp/b_old
build_gpu . $B1 $D/build_new.log mxsim-gpu || { tail -30 $D/build_new.log; exit 1; }
cmake -S . -B $B0 -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_FLAGS=-DMXK_DS_NO_LDG0 > $D/build_old.log 2>&1 &&
  cmake --build $B0 -j$(nproc) --target mxsim-gpu >> $D/build_old.log 2>&1 || { tail -30 $D/build_old.log; exit 1; }
stamp built
for a in "1 4096 4096 32" "1 4096 4096 128" "16 4096 4096 128" "1 11008 4096 128" "5 1000 8192 32" "16 11008 4096 128" "3 333 4096 64"; do
  for v in 0 1; do MXK_DS_V2=$v timeout -k 5 20 $B1/mxsim-gpu perf $a 9 > /dev/null || { stamp "smoke FAILED V2=$v $a"; exit 1; }; done
done
stamp smoke ok
mkdir -p $D/vf; timeout -k 5 120 $B1/mxsim-gpu verify $D/vf > $D/verify.log 2>&1; echo "verify rc=$?"; tail -2 $D/verify.log
for e in MXK_DS_V2=0 MXK_DS_V2=1,MXK_DS_BPS=1 MXK_DS_V2=1,MXK_DS_CPW=2 MXK_DS_V2=1,MXK_DS_NS=2 MXK_DS_TRACE=1 MXK_DS_BPS=3; do
  d=$D/vf_$(echo $e | tr ',=' '__'); mkdir -p $d
  env $(echo $e | tr ',' ' ') MXK_VERIFY_CFG=9 timeout -k 5 60 $B1/mxsim-gpu verify $d > $d/log 2>&1; echo "verify cfg9 [$e] rc=$? $(tail -1 $d/log)"
done
stamp verified
for b in old new; do
  B=$B0; [ $b = new ] && B=$B1
  for a in "1 4096 4096 128" "16 4096 4096 128" "16 11008 4096 128"; do
    echo "== trace $b $a"; MXK_DS_TRACE=1 MXK_PERF_COLD=1 timeout -k 5 20 $B/mxsim-gpu perf $a 9 2>&1 | grep -E "perf|trace:|median|block 0 " 
  done
done > $D/trace.txt 2>&1
cat $D/trace.txt
for r in 1 2; do for b in old new; do
  B=$B0; [ $b = new ] && B=$B1
  mkdir -p $D/${b}_r$r
  MXK_BENCH_DECODE=1 timeout -k 5 90 $B/mxsim-gpu bench $D/${b}_r$r > $D/${b}_r$r/log 2>&1; echo "== $b r$r rc=$?"
  awk -F, 'NR>1 && ($7 == "cublas-bf16" || $7 == "mxk-gemm-mxint8") {printf "  %-3s %-6s G=%-4s %-16s %8.2f us x%.3f\n", $3, $4, $6, $7, $8, $9}' $D/${b}_r$r/bench_ext.csv
done; done
for b in old new; do
  B=$B0; [ $b = new ] && B=$B1
  for a in "1 1000 8192 128" "5 4224 4096 64" "8 4096 4096 128" "12 14336 4096 128" "1 4096 8192 32" "2 28672 8192 128"; do
    for r in 1 2; do echo "cold $b $a: $(MXK_PERF_COLD=1 timeout -k 5 20 $B/mxsim-gpu perf $a 9 2>&1 | head -1)"; done
  done
done
stamp done
tar -C $OUT -czf $OUT/c7.tgz c7 && rm -rf $D

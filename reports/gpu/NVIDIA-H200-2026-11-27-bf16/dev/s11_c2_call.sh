#!/bin/bash
# session 11, call 2: the pre-pass in 8-element units (warp stores of 512 contiguous bytes), 8 in
# flight per thread (new) against HEAD's (old): cfg 11 verify, perf alternated, ncu of both pre-passes
D=$OUT/c2; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b2; B0=/tmp/b0
if [ ! -x $B0/mxsim-gpu ]; then
  rm -rf /tmp/oldsrc; mkdir -p /tmp/oldsrc; tar --exclude=./.dev-probe -cf - . | tar -C /tmp/oldsrc -xf -
  cp .dev-probe/s11/gemm_bf16_head.cu /tmp/oldsrc/kernels/src/gemm_bf16.cu
  build_gpu /tmp/oldsrc $B0 $D/build0.log mxsim-gpu & p0=$!
fi
build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels || { tail -30 $D/build.log; exit 1; }
[ -n "$p0" ] && wait $p0
stamp built
mkdir -p $D/v11; MXK_VERIFY_CFG=11 timeout -k 5 100 $B/mxsim-gpu verify $D/v11 > $D/v11.log 2>&1; echo "verify cfg 11 rc=$? $(tail -1 $D/v11.log)"
for r in 1 2; do for v in new old; do
  G=$B; [ $v = old ] && G=$B0
  for s in "2048 4096 4096" "2048 11008 4096" "8192 8192 8192"; do
    echo "$v r$r $(MXK_PERF_COLD=1 timeout -k 5 60 $G/mxsim-gpu perf $s 32 11)"
  done
done; done | tee $D/perf_ab.txt
stamp perf
for v in new old; do
  G=$B; [ $v = old ] && G=$B0
  timeout -k 5 120 ncu --clock-control none -k regex:"bf_prescale" --launch-skip 2 --launch-count 1 \
    --section SpeedOfLight --section MemoryWorkloadAnalysis $G/mxsim-gpu perf 2048 4096 4096 32 11 > $D/ncu_pre_$v.txt 2>&1; echo "ncu $v rc=$?"
  grep -E "Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Mem Busy|Max Bandwidth|L2 Hit" $D/ncu_pre_$v.txt | head -12
done
stamp done

#!/bin/bash
# session 11, call 1: the pre-pass with 4 chunks in flight per thread and no I2F (new) against the
# committed one (old, HEAD's gemm_bf16.cu) on the same card: GPU test, cfg 11 verify + full verify
# (new), perf of cfg 11 at the G = 32 prefill shapes alternated, ncu of the new pre-pass,
# bench-prefill (new); decode: MXK_DS_CPW=2 against the default at M = 16 (V2)
D=$OUT/c1; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b1; B0=/tmp/b0
rm -rf /tmp/oldsrc; mkdir -p /tmp/oldsrc; tar --exclude=./.dev-probe -cf - . | tar -C /tmp/oldsrc -xf -
cp .dev-probe/s11/gemm_bf16_head.cu /tmp/oldsrc/kernels/src/gemm_bf16.cu
build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels & p1=$!
build_gpu /tmp/oldsrc $B0 $D/build0.log mxsim-gpu & p0=$!
wait $p1 || { tail -30 $D/build.log; exit 1; }
wait $p0 || { tail -30 $D/build0.log; exit 1; }
stamp built
timeout -k 5 60 $B/kernels/test_gpu_kernels > $D/test.log 2>&1; echo "test_gpu_kernels rc=$? $(tail -1 $D/test.log)"
mkdir -p $D/v11; MXK_VERIFY_CFG=11 timeout -k 5 100 $B/mxsim-gpu verify $D/v11 > $D/v11/log 2>&1; echo "verify cfg 11 rc=$? $(tail -1 $D/v11/log)"
timeout -k 5 200 $B/mxsim-gpu verify $D > $D/verify.log 2>&1; echo "verify rc=$? $(tail -1 $D/verify.log)"
stamp verified
for r in 1 2; do for v in new old; do
  G=$B; [ $v = old ] && G=$B0
  for s in "2048 4096 4096" "2048 11008 4096" "8192 8192 8192"; do
    echo "$v r$r $(MXK_PERF_COLD=1 timeout -k 5 60 $G/mxsim-gpu perf $s 32 11)"
  done
done; done | tee $D/perf_ab.txt
stamp perf
timeout -k 5 120 ncu --clock-control none -k regex:"bf_prescale|gemm_bf16" --launch-skip 4 --launch-count 2 \
  --section SpeedOfLight $B/mxsim-gpu perf 2048 4096 4096 32 11 > $D/ncu_cfg11_new.txt 2>&1; echo "ncu rc=$?"
grep -E "bf_prescale|gemm_bf16|Duration|SM Frequency|DRAM Throughput|Compute \(SM\)" $D/ncu_cfg11_new.txt | head -20
stamp ncu
timeout -k 5 200 $B/mxsim-gpu bench-prefill $D > $D/bench_prefill.log 2>&1; echo "bench-prefill rc=$?"; cat $D/bench_prefill.csv
stamp prefill
MXK_BUILD=$B kernels/tools/decode_sweep.sh $D/dsweep "def:MXK_DS_CPW=0" "cpw2:MXK_DS_CPW=2" "def2:MXK_DS_CPW=0" "cpw2b:MXK_DS_CPW=2" 2>&1 | grep -E "==|  16 " 
stamp done

#!/bin/bash
# session 9, call 8: the multi-arch fix (decode kernel body guarded below sm_90, launcher checks the
# compute capability): default build verify + decode bench; an "80;90" build verify on this card
D=$OUT/c8; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b8
build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels || { tail -30 $D/build.log; exit 1; }
cmake -S . -B /tmp/b8m -DMXSIM_WITH_CUDA=ON -DMXSIM_BUILD_BENCH=OFF -DMXSIM_WITH_RTL=OFF -DMXSIM_WITH_SYSTEMC=OFF \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES="80;90" > $D/build_multi.log 2>&1 &&
  cmake --build /tmp/b8m -j$(nproc) --target mxsim-gpu >> $D/build_multi.log 2>&1 || { tail -30 $D/build_multi.log; exit 1; }
stamp built
timeout -k 5 120 $B/kernels/test_gpu_kernels > $D/test_gpu_kernels.log 2>&1; echo "test_gpu_kernels rc=$?"; tail -1 $D/test_gpu_kernels.log
mkdir -p $D/vf $D/vfm
timeout -k 5 120 $B/mxsim-gpu verify $D/vf > $D/verify.log 2>&1; echo "verify rc=$? $(tail -1 $D/verify.log)"
timeout -k 5 120 /tmp/b8m/mxsim-gpu verify $D/vfm > $D/verify_multi.log 2>&1; echo "verify (80;90 build) rc=$? $(tail -1 $D/verify_multi.log)"
mkdir -p $D/bench; MXK_BENCH_DECODE=1 timeout -k 5 90 $B/mxsim-gpu bench $D/bench > $D/bench/log 2>&1; echo "bench rc=$?"
awk -F, 'NR>1 && ($7 == "cublas-bf16" || $7 == "mxk-gemm-mxint8") {printf "  %-3s %-6s G=%-4s %-16s %8.2f us x%.3f\n", $3, $4, $6, $7, $8, $9}' $D/bench/bench_ext.csv
stamp done
tar -C $OUT -czf $OUT/c8.tgz c8 && rm -rf $D

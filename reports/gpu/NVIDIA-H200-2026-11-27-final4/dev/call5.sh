#!/bin/bash
# session 9, call 5: the committed code (final4 + the trace's globaltimer end stamps): verify, cfg 9
# under the knob sets, a decode-only bench, the trace
D=$OUT/c5; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b5
build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels launch_probe || { tail -30 $D/build.log; exit 1; }
stamp built
timeout -k 5 120 $B/kernels/test_gpu_kernels > $D/test_gpu_kernels.log 2>&1; echo "test_gpu_kernels rc=$?"; tail -2 $D/test_gpu_kernels.log
mkdir -p $D/vf; timeout -k 5 120 $B/mxsim-gpu verify $D/vf > $D/verify.log 2>&1; echo "verify rc=$?"; tail -1 $D/verify.log
for e in MXK_DS_V2=0 MXK_DS_V2=1,MXK_DS_BPS=1 MXK_DS_V2=1,MXK_DS_CPW=2 MXK_DS_V2=1,MXK_DS_NS=2 MXK_DS_TRACE=1; do
  d=$D/vf_$(echo $e | tr ',=' '__'); mkdir -p $d
  env $(echo $e | tr ',' ' ') MXK_VERIFY_CFG=9 timeout -k 5 60 $B/mxsim-gpu verify $d > $d/log 2>&1; echo "verify cfg9 [$e] rc=$? $(tail -1 $d/log)"
done
mkdir -p $D/bench; MXK_BENCH_DECODE=1 timeout -k 5 90 $B/mxsim-gpu bench $D/bench > $D/bench/log 2>&1; echo "bench rc=$?"
awk -F, 'NR>1 && ($7 == "cublas-bf16" || $7 == "mxk-gemm-mxint8") {printf "  %-3s %-6s G=%-4s %-16s %8.2f us x%.3f\n", $3, $4, $6, $7, $8, $9}' $D/bench/bench_ext.csv
stamp done
tar -C $OUT -czf $OUT/c5.tgz c5 && rm -rf $D

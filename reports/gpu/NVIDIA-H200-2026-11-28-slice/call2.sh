#!/bin/bash
# session 18, call 2: the slice kernel (cfg 13) persistent with a rolling prefetch: smoke, GPU test, verify, A/B, decode bench
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu test_gpu_kernels || { tail -30 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for a in "16 4096 4096 128" "16 11008 4096 64" "9 4096 4096 256" "2 4096 4096 128" "5 9 2048 128" "16 1 1024 64" "13 77 16384 256" "8 1000 8192 128"; do
  timeout -k 5 20 $G perf $a 13 > /dev/null || { stamp "smoke FAILED $a"; exit 1; }
done
stamp smoke-ok
timeout -k 5 120 $B/kernels/test_gpu_kernels 2>&1 | tail -5
mkdir -p $D/v13; MXK_VERIFY_CFG=13 timeout -k 5 300 $G verify $D/v13 > $D/v13/log 2>&1
echo "verify cfg 13 rc=$?: $(tail -1 $D/v13/log)"
grep -c ",0$" $D/v13/verify.csv; grep -v ",0$" $D/v13/verify.csv | head -20
stamp verified
for r in 1 2; do
  for a in "16 4096 4096 128" "16 11008 4096 128" "16 4096 4096 64" "16 11008 4096 64" "8 11008 4096 128" "4 4096 4096 128" "2 11008 4096 128" "16 11008 4096 256"; do
    for c in 9 13; do echo -n "cfg$c "; MXK_PERF_COLD=1 timeout -k 5 30 $G perf $a $c; done; echo -n "cfg13 bps1 "; MXK_DT_BPS=1 MXK_PERF_COLD=1 timeout -k 5 30 $G perf $a 13
  done
done > $D/ab.txt 2>&1
cat $D/ab.txt
stamp ab
mkdir -p $D/bench; MXK_BENCH_DECODE=1 timeout -k 5 400 $G bench $D/bench > $D/bench.log 2>&1; echo "bench rc=$?"
grep -E ",(16|8),(4096|11008),4096,(0|64|128)," $D/bench/bench.csv | grep -E "cublas|mxint8,|cfg9|cfg13"
stamp done

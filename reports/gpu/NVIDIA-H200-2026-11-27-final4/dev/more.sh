#!/usr/bin/env bash
# session 9: three more bench runs of the final4 build on one card (for the per-row medians)
F=/tmp/more; rm -rf $F; mkdir -p $F
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line | tee $F/card.txt
B=/tmp/mxsim_gpu_build
build_gpu . $B $F/build.log mxsim-gpu || { tail -30 $F/build.log; exit 1; }
stamp built
for r in 4 5 6; do
  mkdir -p /tmp/bench$r && timeout -k 5 200 $B/mxsim-gpu bench /tmp/bench$r > /tmp/bench$r/log 2>&1; echo "bench $r rc=$?"
  cp /tmp/bench$r/bench.csv $F/bench_run$r.csv; cp /tmp/bench$r/bench_ext.csv $F/bench_ext_run$r.csv
done
stamp done
tar -C /tmp -czf $OUT/more.tar.gz more

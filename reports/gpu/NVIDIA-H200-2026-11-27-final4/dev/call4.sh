#!/bin/bash
# session 9, call 4: launch cost beyond the blocks' lives (launch_probe), and the decode kernel's
# blocks' span (MXK_DS_TRACE, globaltimer) against its per-launch time
D=$OUT/c4; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b4
build_gpu . $B $D/build.log mxsim-gpu launch_probe || { tail -30 $D/build.log; exit 1; }
stamp built
for n in 45441024 16908288; do timeout -k 5 120 $B/launch_probe $n; done | tee $D/launch_probe.csv
for a in "1 4096 4096 128" "16 4096 4096 128" "1 11008 4096 128" "16 11008 4096 128" "1 4096 4096 32"; do
  echo "== $a"; MXK_DS_TRACE=1 MXK_PERF_COLD=1 timeout -k 5 20 $B/mxsim-gpu perf $a 9 2>&1 | grep -E "perf|trace:|median"
done | tee $D/trace.txt
stamp done
tar -C $OUT -czf $OUT/c4.tgz c4 && rm -rf $D

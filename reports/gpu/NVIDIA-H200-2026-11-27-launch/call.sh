#!/bin/bash
# session 17: the empty-kernel launch floor as mxsim-gpu bench times a launch (events around one
# launch, median of 31), three runs of kernels/tools/launch_probe on one card
. kernels/tools/session_lib.sh
session_start $OUT session.log
card_line
B=/tmp/b17
build_gpu . $B $OUT/build.log launch_probe || { tail -30 $OUT/build.log; exit 1; }
stamp built
for r in 1 2 3; do timeout -k 5 120 $B/launch_probe > $OUT/launch_probe_run$r.csv; echo "run $r rc $?"; cat $OUT/launch_probe_run$r.csv; done
stamp done

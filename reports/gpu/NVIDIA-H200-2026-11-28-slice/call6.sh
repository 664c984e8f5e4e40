#!/bin/bash
# session 18, call 6: the slice kernel's phases (MXK_DT_DBG bits, timing only: 1 no mma/terms, 2 no fold/barriers, 4 no activation copy)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -30 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for r in 1 2; do
  for a in "16 11008 4096 128" "16 4096 4096 128"; do
    echo -n "cfg9 "; MXK_PERF_COLD=1 $G perf $a 9
    for dbg in 0 1 2 4 3 7; do echo -n "cfg13 pf2 dbg$dbg "; MXK_DT_DBG=$dbg MXK_DT_PF=2 MXK_PERF_COLD=1 $G perf $a 13; done
  done
  echo -n "cfg12 "; MXK_PERF_COLD=1 $G perf 1 11008 4096 128 12
  echo -n "cfg12 "; MXK_PERF_COLD=1 $G perf 1 4096 4096 128 12
done 2>&1 | sed 's/ TOPS.*//' | tee $D/ab.txt
stamp done

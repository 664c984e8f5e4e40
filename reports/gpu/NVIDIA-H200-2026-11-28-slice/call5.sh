#!/bin/bash
# session 18, call 5: the slice kernel: is the load pattern (8 rows x 64 B per instruction) the bound?  MXK_DT_PF=3: one row's 512 B per instruction (timing only)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -30 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for r in 1 2; do
  for a in "16 11008 4096 128" "16 4096 4096 128"; do
    echo -n "cfg9 "; MXK_PERF_COLD=1 $G perf $a 9
    for pf in 0 2 3; do echo -n "cfg13 pf$pf "; MXK_DT_PF=$pf MXK_PERF_COLD=1 $G perf $a 13; done
  done
  echo -n "cfg12 "; MXK_PERF_COLD=1 $G perf 1 11008 4096 128 12
done 2>&1 | sed 's/ TOPS.*//' | tee $D/ab.txt
stamp done

#!/bin/bash
# session 18, call 7: the slice kernel with balanced row ranges (N / grid rows per block)
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -30 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for pf in 0 2; do mkdir -p $D/v13_$pf; MXK_DT_PF=$pf MXK_VERIFY_CFG=13 timeout -k 5 300 $G verify $D/v13_$pf > $D/v13_$pf/log 2>&1; echo "verify pf $pf rc=$?: $(tail -1 $D/v13_$pf/log)"; done
stamp verified
for r in 1 2; do
  for a in "16 11008 4096 128" "16 4096 4096 128" "8 11008 4096 128" "16 11008 4096 64" "16 4096 4096 64"; do
    echo -n "cfg9 "; MXK_PERF_COLD=1 $G perf $a 9
    for pf in 0 2; do echo -n "cfg13 pf$pf "; MXK_DT_PF=$pf MXK_PERF_COLD=1 $G perf $a 13; done
    echo -n "cfg13 pf2 dbg7 "; MXK_DT_DBG=7 MXK_DT_PF=2 MXK_PERF_COLD=1 $G perf $a 13
  done
  echo -n "cfg12 "; MXK_PERF_COLD=1 $G perf 1 11008 4096 128 12
done 2>&1 | sed 's/ TOPS.*//' | tee $D/ab.txt
stamp done

#!/bin/bash
# session 15, call 4: cfg 13 diagnostics: launch-overhead baseline (tiny shapes), Nsight Compute of cfg 13 / 9 / 12
D=$OUT; . kernels/tools/session_lib.sh
session_start $D session.log
card_line
B=/tmp/bd; build_gpu . $B $D/build.log mxsim-gpu || { tail -20 $D/build.log; exit 1; }
stamp built
G=$B/mxsim-gpu
for r in 1 2; do
for a in "16 33 64 64 9" "16 33 64 64 13" "1 33 512 64 12" "1 33 512 64 9" "2 1 4096 128 13" "2 1 4096 128 9"; do $G perf $a; MXK_DM_VAR=3 $G perf $a | sed 's/^/var3 /'; done
for a in "16 4096 4096 128" "16 11008 4096 128"; do for v in 0 3 4; do MXK_DM_VAR=$v MXK_PERF_COLD=1 $G perf $a 13 | sed "s/^/var$v /"; done; MXK_PERF_COLD=1 $G perf $a 9; done
done 2>&1 | sed 's/ TOPS.*//' | tee $D/small.txt
stamp small
sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy --section LaunchStats --section SchedulerStats)
prof() { local re=$1; shift; echo "==== ncu: $*" >> $D/ncu.txt; timeout -k 5 90 ncu --clock-control none -k regex:"$re" --launch-skip 2 --launch-count 1 "${sections[@]}" $G perf "$@" >> $D/ncu.txt 2>&1; }
MXK_DM_VAR=3 prof gemm_decode_mma 16 11008 4096 128 13
MXK_DM_VAR=3 prof gemm_decode_mma 16 4096 4096 128 13
MXK_DM_VAR=4 prof gemm_decode_mma 16 11008 4096 128 13
prof gemm_decode_kernel 16 11008 4096 128 9
prof gemm_decode_row 1 11008 4096 128 12
grep -E '^==== ncu|Duration|DRAM Throughput|Compute \(SM\) Throughput|L2 Cache Throughput|SM Frequency|Issue Slots Busy|No Eligible|Achieved Occupancy|Stall|Warp Cycles Per Issued|Theoretical Occ|Registers|Block Limit' $D/ncu.txt | cut -c1-150
stamp done

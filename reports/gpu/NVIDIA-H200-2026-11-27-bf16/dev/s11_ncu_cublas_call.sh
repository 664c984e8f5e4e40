#!/bin/bash
# session 11: which kernel cuBLAS bf16 runs at 2048x4096x4096 (the prefill baseline), its clock and
# throughput (Nsight Compute, first shape of bench-prefill), beside cfg 11's numbers in ncu_dispatched.txt
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/bc; build_gpu . $B $D/build_c.log mxsim-gpu || { tail -20 $D/build_c.log; exit 1; }
stamp built
timeout -k 5 200 ncu --clock-control none -k regex:"nvjet|xmma|cutlass|sm90" --launch-skip 8 --launch-count 1 --kill on \
  --section SpeedOfLight --section LaunchStats --section MemoryWorkloadAnalysis \
  $B/mxsim-gpu bench-prefill /tmp/bp > $D/ncu_cublas.txt 2>&1; echo "ncu rc=$?"
grep -E "^  [a-zA-Z_].*\(|Duration|SM Frequency|DRAM Throughput|L2 Cache Throughput|Compute \(SM\)|Cluster|Grid Size|Block Size|Shared Memory Config|Registers" $D/ncu_cublas.txt | cut -c1-200
stamp done

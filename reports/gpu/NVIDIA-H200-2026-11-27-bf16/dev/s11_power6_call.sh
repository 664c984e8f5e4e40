#!/bin/bash
# session 11: run 6 of the final6 build on one card, one bench run with the instantaneous-power
# sampling of mxsim-gpu (kernels unchanged since final6: only the bench's power loop changed)
D=$OUT; . kernels/tools/session_lib.sh; T0=$(date +%s)
card_line
B=/tmp/b6; build_gpu . $B $D/build6.log mxsim-gpu || { tail -20 $D/build6.log; exit 1; }
stamp built
mkdir -p /tmp/r6 && timeout -k 5 300 $B/mxsim-gpu bench /tmp/r6 > $D/bench6.log 2>&1; echo "bench rc=$?"
grep -m1 "NVML power" $D/bench6.log
cp /tmp/r6/bench.csv $D/bench_run6.csv; cp /tmp/r6/bench_ext.csv $D/bench_ext_run6.csv
awk -F, '$2 ~ /prefill|decode/ && ($7 ~ /cublas|^mxk-gemm-mxint8$/) {printf "%-26s %5sx%-6s G%-3s %8.1f us %6.1f W %.4g J %6.3f TOPS/W  loop %.1f us/call\n", $7, $3, $4, $6, $8, $16, $17, $18, $16>0 ? 1e6*$17/$16 : 0}' $D/bench_ext_run6.csv
stamp done

#!/bin/bash
# session 10, call 4: wgmma_probe with the bf16 two-set probe and the bf16 exactness check
D=$OUT/c4; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b_probe
build_gpu . $B $D/build.log wgmma_probe || { tail -30 $D/build.log; exit 1; }
stamp built
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader -lms 100 > $D/clk.txt & smi=$!
for r in 1 2; do timeout -k 5 200 $B/wgmma_probe > $D/wgmma_probe_$r.csv; echo "probe rc=$?"; done
kill $smi
grep -h "bf16\|2set\|promo\|,4$\|^card" $D/wgmma_probe_1.csv | head -40
grep -h "bf16\|2set" $D/wgmma_probe_2.csv
sort -t, -k2 -g $D/clk.txt | tail -3
stamp done

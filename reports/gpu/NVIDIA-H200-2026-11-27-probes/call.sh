#!/bin/bash
# session 10, call 3: wgmma_probe, the two-set probe at G = 64 and 128
D=$OUT/c3; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b_probe
build_gpu . $B $D/build.log wgmma_probe || { tail -30 $D/build.log; exit 1; }
stamp built
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader -lms 100 > $D/clk.txt & smi=$!
for r in 1 2; do timeout -k 5 200 $B/wgmma_probe > $D/wgmma_probe_$r.csv; echo "probe rc=$?"; done
kill $smi
grep -h "n64\|2set\|promo\|,4$\|^card" $D/wgmma_probe_1.csv | head -40
grep -h "n64\|2set" $D/wgmma_probe_2.csv
sort -t, -k2 -g $D/clk.txt | tail -3
stamp done

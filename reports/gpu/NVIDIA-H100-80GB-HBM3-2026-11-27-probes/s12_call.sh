#!/bin/bash
# session 12, call 1: wgmma_probe -g (two-set structure, bias wgmma at G = 32 / 64 / 128)
D=$OUT/p1; mkdir -p $D
. kernels/tools/session_lib.sh
card_line
B=/tmp/b_probe
build_gpu . $B $D/build.log wgmma_probe || { tail -30 $D/build.log; exit 1; }
stamp built
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader -lms 100 > $D/clk.txt & smi=$!
for r in 1 2; do timeout -k 5 200 $B/wgmma_probe -g > $D/wgmma_probe_g_$r.csv; echo "probe rc=$?"; done
kill $smi
cat $D/wgmma_probe_g_*.csv
sort -t, -k2 -g $D/clk.txt | tail -3
stamp done

#!/bin/bash
# session 10, call 8: the bf16 exactness probe at G = 32 and 64 (exact_bf16<2>, <4>) with the whole wgmma_probe
D=$OUT/c8; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b_probe
build_gpu . $B $D/build.log wgmma_probe || { tail -30 $D/build.log; exit 1; }
stamp built
timeout -k 5 200 $B/wgmma_probe > $D/wgmma_probe.csv 2> $D/wgmma_probe.err; echo "probe rc=$?"
cat $D/wgmma_probe.err
grep -h "bf16\|2set" $D/wgmma_probe.csv
stamp done

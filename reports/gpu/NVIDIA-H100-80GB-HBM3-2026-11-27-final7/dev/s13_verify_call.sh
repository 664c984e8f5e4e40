#!/bin/bash
# session 13: the final tree's kernels (unchanged since final7 but for a header comment) rebuilt with
# this session's library: smoke, GPU test, full verify, golden set compared with final7's
MXK_SKIP_BENCH=1 MXK_NCU=0 kernels/tools/gpu_session.sh $OUT > $OUT/gpu_session_stdout.txt 2>&1
rc=$?
tail -25 $OUT/gpu_session_stdout.txt
card=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | tr ' ' '-')
ref=$(ls -d reports/gpu/${card}-2026-11-27-final7 2>/dev/null | head -1)
mkdir -p /tmp/g13 /tmp/g7 && tar xzf $OUT/golden.tar.gz -C /tmp/g13 && tar xzf $ref/golden.tar.gz -C /tmp/g7
n=0; d=0
for f in /tmp/g13/golden/*.npy; do n=$((n+1)); cmp -s "$f" "/tmp/g7/golden/$(basename $f)" || { d=$((d+1)); echo "DIFFERS: $(basename $f)"; }; done
echo "golden vs $ref: $n files, $d differ" | tee $OUT/golden_vs_final7.txt
echo "session rc=$rc"

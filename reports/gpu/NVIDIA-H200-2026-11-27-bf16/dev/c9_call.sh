#!/bin/bash
# session 10, call 9: cfg 11's SM clock and power under load (nvidia-smi, 50 ms) against cfg 8, and
# Nsight Compute durations of its pre-pass and GEMM at 2048x4096x4096 G = 32
D=$OUT/c9; mkdir -p $D
. kernels/tools/session_lib.sh
T0=$(date +%s)
card_line
B=/tmp/b9
build_gpu . $B $D/build.log mxsim-gpu || { tail -30 $D/build.log; exit 1; }
stamp built
for cfg in 11 8; do
  nvidia-smi --query-gpu=clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,noheader -lms 50 > $D/smi_cfg$cfg.txt & smi=$!
  end=$(( $(date +%s) + 6 ))
  while [ $(date +%s) -lt $end ]; do timeout -k 5 30 $B/mxsim-gpu perf 8192 8192 8192 32 $cfg > /dev/null; done
  kill $smi; sleep 0.3
  echo "cfg $cfg: samples $(wc -l < $D/smi_cfg$cfg.txt); highest-power samples (MHz, W, reasons):"
  sort -t, -k2 -g $D/smi_cfg$cfg.txt | tail -5
  awk -F, '$2+0 > 600 {n++; c+=$1+0} END {if (n) printf "  mean SM clock over %d samples above 600 W: %.0f MHz\n", n, c/n}' $D/smi_cfg$cfg.txt
done
stamp sampled
timeout -k 5 120 ncu --clock-control none -k regex:"bf_prescale|gemm_bf16" --launch-skip 4 --launch-count 2 \
  --section SpeedOfLight $B/mxsim-gpu perf 2048 4096 4096 32 11 > $D/ncu_cfg11.txt 2>&1; echo "ncu rc=$?"
grep -E "bf_prescale|gemm_bf16|Duration|SM Frequency|DRAM Throughput|Compute \(SM\)" $D/ncu_cfg11.txt | head -20
stamp done

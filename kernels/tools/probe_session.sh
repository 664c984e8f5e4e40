#!/usr/bin/env bash
# probe_session.sh - one device call for the two development probes (kernels/README "Probes"): the
# DRAM read floor at decode sizes (stream_probe: plain loads, 1-D bulk copies, cudaMemcpy; events
# around each launch as mxsim-gpu bench times, cold L2) and the int8 wgmma rate with the Hopper
# GEMM's per-stage work added piece by piece (wgmma_probe).  Writes stream_probe.csv,
# wgmma_probe.csv and probe.log to OUTDIR (default $OUT).
#   usage: kernels/tools/probe_session.sh [OUTDIR]     (MXK_BUILD: a CUDA build dir to reuse)
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${MXK_BUILD:-/tmp/mxsim_gpu_build}
DEST=${1:-${OUT:?OUTDIR or OUT}}
. "$ROOT/kernels/tools/session_lib.sh"
session_start "$DEST" probe.log
card_line
build_gpu "$ROOT" "$BUILD" /tmp/probe_build.log stream_probe wgmma_probe || { tail -30 /tmp/probe_build.log; exit 1; }
# decode weight bytes N K (1 + 1/128) of 1x4096x4096 and 1x11008x4096 at G = 128
timeout -k 5 200 "$BUILD/stream_probe" 16908288 45441024 > "$DEST/stream_probe.csv" || exit 1
echo "stream_probe: fastest 5 per size"
for b in 16908288 45441024; do grep ",$b," "$DEST/stream_probe.csv" | sort -t, -k5 -g | head -5; done
nvidia-smi --query-gpu=clocks.sm,power.draw --format=csv,noheader -lms 100 > /tmp/probe_clk.txt & smi=$!
timeout -k 5 200 "$BUILD/wgmma_probe" > "$DEST/wgmma_probe.csv"; prc=$?
kill $smi
cat "$DEST/wgmma_probe.csv"
echo "SM clock while the wgmma probe ran (MHz, W; the samples of highest power):"
sort -t, -k2 -g /tmp/probe_clk.txt | tail -3
exit $prc

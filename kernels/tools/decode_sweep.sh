#!/usr/bin/env bash
# decode_sweep.sh - timing sweep of the decode kernel's knobs (MXK_DS_NS, MXK_DS_BPS, MXK_DS_CPW,
# MXK_DS_NOCOMP; see src/gemm_decode.cu) on the decode bench (cold L2, cuBLAS bf16 in each run).
#   usage: MXK_BUILD=... kernels/tools/decode_sweep.sh OUTDIR "NAME:ENV=V,ENV=V" ...
set -u
G=${MXK_BUILD:-/tmp/mxsim_decode_build}/mxsim-gpu
DEST=$1; shift
for v in "$@"; do
  name=${v%%:*}; envs=${v#*:}
  mkdir -p "$DEST/v_$name"
  env $(echo "$envs" | tr ',' ' ') MXK_BENCH_DECODE=1 timeout -k 5 60 "$G" bench "$DEST/v_$name" > "$DEST/v_$name/log" 2>&1
  echo "== $name ($envs) rc=$?"
  awk -F, 'NR>1 && ($7 == "cublas-bf16" || $7 ~ /cfg9$/) {printf "  %-3s %-6s G=%-4s %-22s %8.2f us x%.3f %3.0f%%\n", $3, $4, $6, $7, $8, $9, 100*$15}' "$DEST/v_$name/bench_ext.csv"
done

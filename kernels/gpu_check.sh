#!/usr/bin/env bash
# gpu_check.sh - on a GPU machine: build libmxsim + the CUDA kernels + mxsim-gpu, run the GPU test,
# the bit-exactness checks against the C model (verify.csv), write the golden set (golden.tar.gz)
# and run the benchmark (bench.csv, bench_ext.csv with the roofline and NVML power per row), with
# Nsight Compute where it is installed: kernels/tools/gpu_session.sh, the script every committed
# run since issue 16 used (its header lists the files it writes).
#   usage: kernels/gpu_check.sh [OUTDIR]      (default: $OUT if set, else reports/gpu/<card>-<date>)
#   The card is CUDA's device 0: the first GPU of CUDA_VISIBLE_DEVICES, else GPU 0.
# Exit status: 0 when every check passed with 0 mismatches.
exec "$(dirname "$(readlink -f "$0")")/tools/gpu_session.sh" "$@"

/* cmd_gpumodel.h - the GPU-model subcommand of the mxsim CLI: compare-gpu. */
#ifndef MXSIM_CMD_GPUMODEL_H
#define MXSIM_CMD_GPUMODEL_H
#include "mxsim.h"
int mxsim_cli_compare_gpu(int argc, char **argv, mxsim_ctx *ctx);

#define MXSIM_GPUMODEL_COMMANDS                                                                   \
    {"compare-gpu",                                                                               \
     "mxsim compare-gpu --card h200|CARD.ini --measured BENCH.csv [-o DIR] [--calibrate]\n"       \
     "                  [--swap-split] [--max-mape PCT] [--quiet]\n"                              \
     "  mxsim compare-gpu --card h200|CARD.ini --trace TRACE --config CFG [--group-size G]\n"        \
     "                  [--measured BENCH.csv] [-o DIR]",                                          \
     "Predicts the GPU time of mxsim's CUDA kernels and the cuBLAS baselines with the analytical\n" \
     "model of sim/doc/gpu-model.md, against measured times: per (kernel, shape, G) predicted and\n" \
     "measured time, error, bound (memory, issue, latency, tensor, launch), MAPE and Pearson r\n"  \
     "(log) on the training half, the held-out half and both, the worst outliers. -o DIR writes\n" \
     "comparison.csv, comparison.md and scatter.svg (log axes, y = x). --calibrate first fits the\n" \
     "card's calibrated fields on the training half only and writes DIR/card.ini. --max-mape PCT\n" \
     "exits 1 if the held-out or overall MAPE is above PCT. With --trace: every op of TRACE on the\n" \
     "accelerator (CFG; time, TOPS, energy, TOPS/W, TOPS/mm2) next to the GPU model (mxk kernel and\n" \
     "cuBLAS bf16) and, where BENCH.csv has the same op, the measured GPU time. --card NAME reads\n" \
     "workloads/gpus/NAME.ini from the current directory.",                                       \
     mxsim_cli_compare_gpu},
#endif

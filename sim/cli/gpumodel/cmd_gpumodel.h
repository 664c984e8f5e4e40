/* cmd_gpumodel.h - the GPU-model commands of the mxsim CLI: compare-gpu, gpu-calibrate. */
#ifndef MXSIM_CMD_GPUMODEL_H
#define MXSIM_CMD_GPUMODEL_H
#include "cli_util.h"
extern const cli_command mxsim_cmd_compare_gpu;
extern const cli_command mxsim_cmd_gpu_calibrate;
#endif

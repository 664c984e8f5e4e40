/* cmd_gpumodel.h - the GPU-model commands of the mxsim CLI: compare-gpu, gpu-calibrate. */
#ifndef MXSIM_CMD_GPUMODEL_H
#define MXSIM_CMD_GPUMODEL_H
#include "cli_util.h"
extern const cli_command mxsim_cmd_compare_gpu;
extern const cli_command mxsim_cmd_gpu_calibrate;
/* Reads a cross-card file (workloads/gpus/<card>-xcard.ini): datasheet into d, calibrated fields into
** p when p != NULL (*n_cal counts them), name.  0, or the exit code after a message. */
int cli_xcard_load(const char *path, mxsim_gpu_xsheet *d, mxsim_gpu_xparams *p, int *n_cal, char *name, size_t nn);
#endif

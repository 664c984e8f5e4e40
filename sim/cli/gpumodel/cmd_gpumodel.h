/* cmd_gpumodel.h - the GPU-model commands of the mxsim CLI: compare-gpu, gpu-calibrate. */
#ifndef MXSIM_CMD_GPUMODEL_H
#define MXSIM_CMD_GPUMODEL_H
#include "cli_util.h"
extern const cli_command mxsim_cmd_compare_gpu;
extern const cli_command mxsim_cmd_gpu_calibrate;
/* Reads a cross-card file (workloads/gpus/<card>-xcard.ini) by mxsim_gpu_xcard_load: datasheet into
** d, calibrated fields into p when p != NULL (*n_cal counts them), name.  0, or the exit code after
** the library's message. */
int cli_xcard_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xsheet *d, mxsim_gpu_xparams *p, int *n_cal, char *name,
                   size_t nn);
/* Whether a card file's name (`name = h100`) names the card of a bench (its card column, "NVIDIA H100
** 80GB HBM3"): equal, or each word of the name one of the card's words (split at blanks and '-'),
** case ignored, and the card's form factor (PCIe, NVL) among them: "h100" is not "NVIDIA H100 PCIe",
** "h100-pcie" is. */
int cli_gpu_card_is(const char *name, const char *bench_card);
/* The line of a bench's first row (the first non-blank line after the header); 0 if none. */
int cli_gpu_first_row_line(const char *path);
/* Whether a and b both exist and are the same file (device and inode). */
int cli_gpu_same_file(const char *a, const char *b);
#endif

/* gpuinternal.h - private helpers shared by gpumodel.c and gpubench.c. */
#ifndef MX_GPUINTERNAL_H
#define MX_GPUINTERNAL_H
#include <string.h>

#include "internal.h"
#include "lines.h"
/* Sets card field i (mxsim_gpu_field_at order); out-of-range i is ignored. */
MX_INTERNAL void mx_gpu_card_set(mxsim_gpu_card *c, int i, double v);

#endif

/* numerics.h - block-level MXINT8 quantization shared by the tensor and GEMM modules.
** The public scalar/block entry points are in mxsim.h; these take float32 blocks (bf16 inputs
** already widened, flagged by is_bf16 because MASE and microxcaling round intermediates in the
** input dtype). */
#ifndef MX_NUMERICS_H
#define MX_NUMERICS_H

#include "internal.h"

/* Quantizes n floats with profile p.  zero_neg (optional, n ints) receives 1 where the
** profile's fake-quant output is -0.0 although the code is 0. */
MX_INTERNAL mxsim_status mx_quantize_f32(mxsim_profile p, int is_bf16, const float *x, size_t n,
                                         uint8_t *scale, int8_t *m, int *zero_neg);
/* Quantize then dequantize n floats into out (values in the dtype: bf16 results are exact
** floats); m_tmp and neg_tmp are caller scratch of n entries. */
MX_INTERNAL mxsim_status mx_fake_quant_f32(mxsim_profile p, int is_bf16, const float *x, size_t n,
                                           float *out, int8_t *m_tmp, int *neg_tmp);

#endif

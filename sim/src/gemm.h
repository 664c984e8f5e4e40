/* gemm.h - internal interface of the functional MXINT8 GEMM (the arithmetic contract of
** sim/doc/numerics.md section 4) and of its SIMD back ends. */
#ifndef MX_GEMM_H
#define MX_GEMM_H

#include "internal.h"

/* Exponent of a NaN scale in the int16 exponent arrays: larger than any real exponent, so range
** checks that look at the maximum send NaN groups down the exact slow path. */
#define MX_E_NAN 0x4000

/* One GEMM problem: C[M,N] = A[M,K] . B[N,K]^T, row-major, G | K, exponents per group as OCP
** exponents (E_ocp, possibly -1 for MASE byte 0) or MX_E_NAN. */
typedef struct {
    int64_t M, N, K, G, ng; /* ng = K / G */
    const int8_t *am, *bm;  /* [M][K], [N][K] */
    const int16_t *ae, *be; /* [M][ng], [N][ng] */
    float *c;               /* [M][N], written completely */
} mx_gemm_prob;

/* t = RN_f32(d * 2^s): exact in double, then one rounding (gradual underflow, overflow to Inf). */
static inline float mx_gemm_term(int32_t d, int s)
{
    return (float)__builtin_ldexp((double)d, s);
}

/* Runs fn(arg, lo, hi) over [0, n) split into at most n_threads contiguous chunks (each a
** multiple of `align` except the last).  Falls back to the calling thread if threads cannot be
** created, so it cannot fail. */
MX_INTERNAL void mx_parallel_for(unsigned n_threads, int64_t n, int64_t align,
                                 void (*fn)(void *arg, int64_t lo, int64_t hi), void *arg);
MX_INTERNAL unsigned mx_online_cpus(void);

/* The scalar back end (portable C): fp32 and exact accumulators. */
MX_INTERNAL mxsim_status mx_gemm_scalar(mxsim_ctx *ctx, const mx_gemm_prob *p, mxsim_acc acc,
                                        unsigned n_threads);
/* The AVX2 back end, fp32 accumulator only; requires even G <= 1024.  Defined only on x86-64. */
MX_INTERNAL mxsim_status mx_gemm_avx2(mxsim_ctx *ctx, const mx_gemm_prob *p, unsigned n_threads);
MX_INTERNAL int mx_cpu_has_avx2(void);

#endif

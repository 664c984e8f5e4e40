/* mxsim.h - public C interface of mxsim, a simulator of an MXINT8 matrix-multiply accelerator.
**
** This is the only public header.  It is a plain C ABI (usable from C, C++, CUDA host code,
** SystemC and Verilator harnesses): opaque handles, status codes with messages, no globals.
** The library never prints, never exits, never aborts on user input and never reads the
** environment.  Every fallible call returns an mxsim_status; the detail of the last failure
** ("A.npz: member 'scale': shape (4,3) does not match ...") is kept in the context handle and
** read with mxsim_errmsg().
**
** Number formats (see sim/doc/numerics.md for the full contract):
**   - MXINT8 element: int8 two's complement mantissa m.
**   - Scale: one uint8 byte per group of G consecutive elements along one axis.  How the byte
**     is read depends on the numerics profile (OCP: value = m * 2^(E-133), E = 0xFF is NaN;
**     MASE: value = m * 2^(byte-134)).
**   - bf16 values travel as uint16 bit patterns.
**
** Thread safety: a context may be used by one thread at a time; different contexts are
** independent.  Tensors are plain data and may be read concurrently.
*/
#ifndef MXSIM_H
#define MXSIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define MXSIM_API
#else
#define MXSIM_API __attribute__((visibility("default")))
#endif

#define MXSIM_VERSION_MAJOR 0
#define MXSIM_VERSION_MINOR 1
#define MXSIM_VERSION_PATCH 0
#define MXSIM_VERSION_STRING "0.1.0"

/* ---------------------------------------------------------------------------------------------
** Status codes.  (symbol, text); the order is ABI: append only.
** E_INPUT is a fault in the user's data or arguments (the CLI exits 2); E_IO and E_NOMEM are
** runtime failures (exit 1); E_INTERNAL is a simulator bug. */
#define MXSIM_STATUS_LIST(X)                                             \
    X(OK, "success")                                                     \
    X(E_ARG, "invalid argument")                                         \
    X(E_INPUT, "invalid input data")                                     \
    X(E_FORMAT, "malformed or truncated file")                           \
    X(E_IO, "input/output error")                                        \
    X(E_NOMEM, "out of memory")                                          \
    X(E_LIMIT, "input exceeds a resource limit")                         \
    X(E_UNSUPPORTED, "unsupported feature")                              \
    X(E_INTERNAL, "internal invariant violated (simulator bug)")

typedef enum {
#define MXSIM_ENUM_(name, text) MXSIM_##name,
    MXSIM_STATUS_LIST(MXSIM_ENUM_)
#undef MXSIM_ENUM_
    MXSIM_STATUS_COUNT_
} mxsim_status;

/* Static text for a status; never NULL (unknown codes give "unknown status"). */
MXSIM_API const char *mxsim_strerror(mxsim_status s);

/* Library version string, e.g. "0.1.0". */
MXSIM_API const char *mxsim_version(void);

/* ---------------------------------------------------------------------------------------------
** Enumerations. */

/* Numerics profiles: which reference implementation's MXINT8 semantics to reproduce. */
typedef enum {
    MXSIM_PROFILE_OCP = 0,          /* OCP MX v1.0 (gfloat): floor exponent, RNE, -128 legal */
    MXSIM_PROFILE_MASE = 1,         /* MASE software quantizer: ceil(log2) in dtype, byte+1 */
    MXSIM_PROFILE_MASE_CUDA = 2,    /* mase-cuda: torch quantizer + CUDA dequant quirks */
    MXSIM_PROFILE_MICROXCALING = 3, /* microxcaling Python path: round half away, +-127 */
    MXSIM_PROFILE_COUNT_
} mxsim_profile;

/* Canonical lower-case name ("ocp", "mase", "mase-cuda", "microxcaling"); NULL if invalid. */
MXSIM_API const char *mxsim_profile_name(mxsim_profile p);
/* Parses a profile name (also accepts "mase_cuda", "mx"); returns MXSIM_E_ARG if unknown. */
MXSIM_API mxsim_status mxsim_profile_parse(const char *name, mxsim_profile *out);

/* Element types of dense tensors. */
typedef enum {
    MXSIM_DTYPE_F32 = 0,  /* IEEE binary32, NumPy '<f4' */
    MXSIM_DTYPE_BF16 = 1, /* bfloat16 bit patterns, stored as NumPy '<u2' */
    MXSIM_DTYPE_I8 = 2,   /* NumPy '|i1' */
    MXSIM_DTYPE_U8 = 3,   /* NumPy '|u1' */
    MXSIM_DTYPE_U16 = 4,  /* NumPy '<u2' that is not declared bf16 */
    MXSIM_DTYPE_I64 = 5,  /* NumPy '<i8' (0-d metadata) */
    MXSIM_DTYPE_COUNT_
} mxsim_dtype;

/* Bytes per element of a dtype (0 if invalid). */
MXSIM_API size_t mxsim_dtype_size(mxsim_dtype t);
/* Short name: "f32", "bf16", "i8", "u8", "u16", "i64"; NULL if invalid. */
MXSIM_API const char *mxsim_dtype_name(mxsim_dtype t);

/* GEMM accumulator modes (the arithmetic contract, sim/doc/numerics.md). */
typedef enum {
    MXSIM_ACC_FP32 = 0,  /* per-group float32 terms, added in ascending group order, RNE */
    MXSIM_ACC_EXACT = 1, /* every term aligned into a wide fixed-point sum, one final rounding */
} mxsim_acc;

/* SIMD selection for the functional GEMM (tests use it to compare paths). */
typedef enum {
    MXSIM_SIMD_AUTO = 0,   /* best available on this CPU (detected at run time) */
    MXSIM_SIMD_SCALAR = 1, /* portable C */
    MXSIM_SIMD_AVX2 = 2,   /* x86-64 AVX2; MXSIM_E_UNSUPPORTED if the CPU lacks it */
} mxsim_simd;

#define MXSIM_MAX_DIMS 8
/* Largest supported group size: keeps a group's int32 dot product exact
** (|sum m_a*m_b| <= G * 2^14 < 2^31). */
#define MXSIM_MAX_GROUP 65536

/* ---------------------------------------------------------------------------------------------
** Context: error buffer and execution settings.  No other state. */
typedef struct mxsim_ctx mxsim_ctx;

/* Creates a context.  *out is NULL on failure (MXSIM_E_NOMEM). */
MXSIM_API mxsim_status mxsim_ctx_create(mxsim_ctx **out);
/* Destroys a context; NULL is a no-op. */
MXSIM_API void mxsim_ctx_destroy(mxsim_ctx *ctx);
/* Detail of the last failure on this context ("" if none).  Valid until the next call. */
MXSIM_API const char *mxsim_errmsg(const mxsim_ctx *ctx);
/* Worker threads for compute kernels: 0 = all online CPUs (default), else 1..1024. */
MXSIM_API mxsim_status mxsim_ctx_set_threads(mxsim_ctx *ctx, unsigned n_threads);
/* SIMD path selection (default AUTO). */
MXSIM_API mxsim_status mxsim_ctx_set_simd(mxsim_ctx *ctx, mxsim_simd simd);
/* Whether this build and CPU can run a SIMD path. */
MXSIM_API int mxsim_simd_available(mxsim_simd simd);

/* ---------------------------------------------------------------------------------------------
** Scalar numerics: stateless, usable from any harness (RTL, CUDA checks). */

/* IEEE binary32 -> bfloat16, round to nearest even, subnormals kept (no FTZ).
** NaN -> quiet NaN with the same sign (payload top bits kept, quiet bit set). */
MXSIM_API uint16_t mxsim_f32_to_bf16(float x);
/* bfloat16 -> binary32 (exact). */
MXSIM_API float mxsim_bf16_to_f32(uint16_t b);

/* Decodes one element (scale byte as the profile stores it, mantissa code) to bf16 bits,
** exactly as the profile's dequantizer does (mase-cuda: its CUDA kernel's quirks).
** NaN results are some NaN: compare them by class, not by bits. */
MXSIM_API uint16_t mxsim_decode_bf16(mxsim_profile p, uint8_t scale, int8_t m);
/* Same, to float32.  mase-cuda's kernel has no f32 output: this is its bf16 result widened. */
MXSIM_API float mxsim_decode_f32(mxsim_profile p, uint8_t scale, int8_t m);

/* Quantizes one block of n elements (1 <= n <= MXSIM_MAX_GROUP) of float32 or bf16 input
** (`in` points to float or uint16_t as `in_dtype` says) into a scale byte and n mantissas,
** exactly as the profile's quantizer does.  Returns MXSIM_E_ARG on bad arguments only. */
MXSIM_API mxsim_status mxsim_quantize_block(mxsim_profile p, mxsim_dtype in_dtype, const void *in,
                                            size_t n, uint8_t *scale, int8_t *mantissa);

/* Fake-quantizes one block: the profile's quantize-then-dequantize output in the input dtype
** (float or bf16 bits), as the upstream fake-quant path produces it.  Unlike decoding the stored
** codes, it keeps what codes cannot hold: MASE and microxcaling give -0.0 for a negative input
** that rounds to zero, and NaN for every element of a block that contains NaN or Inf. */
MXSIM_API mxsim_status mxsim_fake_quant_block(mxsim_profile p, mxsim_dtype dtype, const void *in,
                                              size_t n, void *out);

/* Maps a scale byte of profile p to the exponent e of the OCP form value = m * 2^(e - 133):
** *is_nan = 1 for a NaN scale (OCP 0xFF; MASE 255), else *e_ocp = byte (OCP, mase-cuda,
** microxcaling) or byte - 1 (MASE; may be -1).  This is the mapping the GEMM contract uses. */
MXSIM_API void mxsim_scale_to_ocp(mxsim_profile p, uint8_t scale, int *e_ocp, int *is_nan);

/* ---------------------------------------------------------------------------------------------
** Dense tensors (C order).  Owned by the caller; free with mxsim_tensor_free. */
typedef struct mxsim_tensor mxsim_tensor;

/* Creates a zero-filled tensor.  ndim 0..MXSIM_MAX_DIMS; shape may be NULL when ndim is 0. */
MXSIM_API mxsim_status mxsim_tensor_create(mxsim_ctx *ctx, mxsim_dtype dtype, int ndim,
                                           const int64_t *shape, mxsim_tensor **out);
MXSIM_API void mxsim_tensor_free(mxsim_tensor *t); /* NULL ok */
MXSIM_API mxsim_dtype mxsim_tensor_dtype(const mxsim_tensor *t);
MXSIM_API int mxsim_tensor_ndim(const mxsim_tensor *t);
MXSIM_API const int64_t *mxsim_tensor_shape(const mxsim_tensor *t);
MXSIM_API int64_t mxsim_tensor_numel(const mxsim_tensor *t);
MXSIM_API void *mxsim_tensor_data(mxsim_tensor *t);
MXSIM_API const void *mxsim_tensor_cdata(const mxsim_tensor *t);

/* Reads a NumPy .npy file (version 1-3; dtypes f4, i1, u1, u2, i8 in either byte order; C
** order).  A '<u2' file is read as MXSIM_DTYPE_U16; mxsim_tensor_set_dtype may relabel it bf16. */
MXSIM_API mxsim_status mxsim_tensor_load_npy(mxsim_ctx *ctx, const char *path, mxsim_tensor **out);
/* Writes a .npy file atomically (temporary file in the same directory, then rename).
** bf16 is written as '<u2'. */
MXSIM_API mxsim_status mxsim_tensor_save_npy(mxsim_ctx *ctx, const mxsim_tensor *t,
                                             const char *path);
/* Relabels between U16 and BF16 (same bits); any other change is MXSIM_E_ARG. */
MXSIM_API mxsim_status mxsim_tensor_set_dtype(mxsim_ctx *ctx, mxsim_tensor *t, mxsim_dtype dtype);

/* ---------------------------------------------------------------------------------------------
** MXINT8 tensors: int8 mantissas in the tensor's shape, one scale byte per group of G
** consecutive elements along `axis`.  The scale array has the tensor's shape with that axis
** divided by G (C order).  Bytes are stored as the profile defines them. */
typedef struct mxsim_mx mxsim_mx;

/* Quantizes a dense F32 or BF16 tensor.  axis may be negative (Python style).  G must be in
** 1..MXSIM_MAX_GROUP and divide shape[axis] (no padding): otherwise MXSIM_E_INPUT. */
MXSIM_API mxsim_status mxsim_mx_quantize(mxsim_ctx *ctx, const mxsim_tensor *in, mxsim_profile p,
                                         int64_t group_size, int axis, mxsim_mx **out);
/* Dequantizes with the tensor's own profile to F32 or BF16. */
MXSIM_API mxsim_status mxsim_mx_dequantize(mxsim_ctx *ctx, const mxsim_mx *mx, mxsim_dtype out_dtype,
                                           mxsim_tensor **out);
/* Creates an MXINT8 tensor from mantissas (I8, any shape) and scales (U8, matching shape);
** copies both.  Validates shapes, axis and group size. */
MXSIM_API mxsim_status mxsim_mx_create(mxsim_ctx *ctx, const mxsim_tensor *mantissa,
                                       const mxsim_tensor *scale, int64_t group_size, int axis,
                                       mxsim_profile p, mxsim_mx **out);
/* Re-expresses the tensor's scale bytes in another profile's convention (OCP <-> MASE shift
** the byte by one; the others share OCP's).  MXSIM_E_INPUT names the first group whose scale
** has no representation in the target convention. */
MXSIM_API mxsim_status mxsim_mx_convert(mxsim_ctx *ctx, const mxsim_mx *mx, mxsim_profile to,
                                        mxsim_mx **out);
MXSIM_API void mxsim_mx_free(mxsim_mx *mx); /* NULL ok */
MXSIM_API const mxsim_tensor *mxsim_mx_mantissa(const mxsim_mx *mx);
MXSIM_API const mxsim_tensor *mxsim_mx_scale(const mxsim_mx *mx);
MXSIM_API int64_t mxsim_mx_group_size(const mxsim_mx *mx);
MXSIM_API int mxsim_mx_axis(const mxsim_mx *mx); /* normalised, 0..ndim-1 */
MXSIM_API mxsim_profile mxsim_mx_profile(const mxsim_mx *mx);

/* Reads an MXINT8 .npz (members mantissa, scale, group_size, axis, profile; stored or
** deflated).  Every inconsistency is MXSIM_E_FORMAT or MXSIM_E_INPUT naming file and member. */
MXSIM_API mxsim_status mxsim_mx_load(mxsim_ctx *ctx, const char *path, mxsim_mx **out);
/* Writes an MXINT8 .npz atomically; compress = 1 deflates members (like numpy.savez_compressed). */
MXSIM_API mxsim_status mxsim_mx_save(mxsim_ctx *ctx, const mxsim_mx *mx, const char *path,
                                     int compress);

/* ---------------------------------------------------------------------------------------------
** Functional GEMM, the arithmetic contract (sim/doc/numerics.md):
**   C[M,N] = A[M,K] . B[N,K]^T, A and B MXINT8 grouped along K with the same G.
**   For each output and each group g ascending: d = sum m_a*m_b (exact int32);
**   t = RN_f32(d * 2^(E_A + E_B - 266)) (one rounding, gradual underflow, overflow to Inf);
**   acc = RN_f32(acc + t), acc starting at +0.0.  A NaN scale on either side gives NaN.
**   E are OCP exponents (mxsim_scale_to_ocp).  EXACT mode sums every d * 2^(...) exactly and
**   rounds once to float32 at the end.  Output F32, or BF16 by RNE from the float32. */
typedef struct {
    mxsim_acc acc;         /* MXSIM_ACC_FP32 (default) or MXSIM_ACC_EXACT */
    mxsim_dtype out_dtype; /* MXSIM_DTYPE_F32 (default) or MXSIM_DTYPE_BF16 */
} mxsim_gemm_opts;

/* A: 2-D [M,K] grouped along axis 1; B: 2-D [N,K] grouped along axis 1; same K and G. */
MXSIM_API mxsim_status mxsim_gemm(mxsim_ctx *ctx, const mxsim_mx *a, const mxsim_mx *b,
                                  const mxsim_gemm_opts *opts, mxsim_tensor **out);

/* Raw-pointer form for harnesses: row-major a_m[M*K], b_m[N*K]; scales a_e[M*(K/G)],
** b_e[N*(K/G)] as OCP bytes (0xFF = NaN); c[M*N] float32 output (bf16 rounding is the caller's). */
MXSIM_API mxsim_status mxsim_gemm_raw(mxsim_ctx *ctx, int64_t M, int64_t N, int64_t K, int64_t G,
                                      const int8_t *a_m, const uint8_t *a_e, const int8_t *b_m,
                                      const uint8_t *b_e, mxsim_acc acc, float *c);

/* ---------------------------------------------------------------------------------------------
** Error metrics of a result against a reference (both F32 or BF16, same shape). */
typedef struct {
    int64_t n;              /* elements compared */
    int64_t n_bit_mismatch; /* elements whose bits differ (NaN vs NaN counts as equal) */
    int64_t n_nan_mismatch; /* elements NaN in exactly one of the two */
    double sqnr_db;         /* 10 log10(sum ref^2 / sum (test-ref)^2) over finite pairs; +Inf if equal */
    double max_abs_err;     /* max |test - ref| over finite pairs */
    double max_rel_err;     /* max |test - ref| / |ref| over finite pairs with ref != 0 */
    double mean_abs_err;
} mxsim_error_stats;

MXSIM_API mxsim_status mxsim_compare(mxsim_ctx *ctx, const mxsim_tensor *ref,
                                     const mxsim_tensor *test, mxsim_error_stats *out);

#ifdef __cplusplus
}
#endif
#endif /* MXSIM_H */

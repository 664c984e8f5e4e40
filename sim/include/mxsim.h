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
**
** Conventions of this header:
**   - Errors: every function taking a non-const context empties its message on entry, so after
**     a success mxsim_errmsg() is "" and after a failure it describes that failure only.
**   - Returned pointers: static strings and table rows (mxsim_strerror, mxsim_version, the
**     *_name functions, mxsim_tconfig_field_at, mxsim_cost_const_at, mxsim_cost_ref_at,
**     mxsim_gpu_field_at) live as long as the program.  Every other returned pointer points into
**     the object it was read from and dies with it; the declarations say when else it dies.
**   - Struct growth: structs only grow by appending fields, and a change that alters the size or
**     layout of a struct the caller allocates bumps MXSIM_ABI_VERSION.  Option structs passed in
**     (mxsim_gemm_opts, mxsim_cost_params, mxsim_accuracy_opts, mxsim_sweep_opts) start with
**     `struct_size`: fill them with their *_default() function, then set fields; the library
**     refuses (MXSIM_E_ARG) a struct_size other than the sizeof it was built with, so a struct
**     filled by hand or by an older header fails loudly instead of being misread.  Configuration
**     (mxsim_tconfig) is filled by mxsim_tconfig_default() and its field table.  Rows of the
**     library's static tables (mxsim_tconfig_field, mxsim_cost_const, mxsim_cost_ref,
**     mxsim_gpu_field) may gain fields at the end without an ABI change: read them only through
**     the returned pointers, never copy them into caller storage.
**   - Enumerations: function parameters and return values use the enum types; struct fields
**     never do (an enum's size is the compiler's choice).  A struct stores an enumeration in an
**     int32_t field whose comment names the enum, except mxsim_tconfig, whose integer fields are
**     all int64_t so that one field table addresses every field the same way.
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

/* The project version; CMake refuses to configure when project(VERSION) differs from it. */
#define MXSIM_VERSION_MAJOR 0
#define MXSIM_VERSION_MINOR 1
#define MXSIM_VERSION_PATCH 0
#define MXSIM_VERSION_STRING "0.1.0"

/* ABI version: incremented by every change that breaks programs compiled against an earlier
** header (a caller-allocated struct changes size or layout, a signature or an enumerator value
** changes).  Appending functions, or fields to the library's static table rows, does not, unless
** the bundled Python bindings need the new functions (then a library without them must not load).
** 3: the cross-card model's class MXSIM_GX_DECODE1 (mxsim_gpu_xparams / _xscore grow),
** mxsim_gpu_xscore.uncalibrated, mxsim_gpu_xclass_of(method, M, N, K, G, build).
** 4: mxsim_gpu_xparams.launch_floor_us (the struct grows).
** 5: mxsim_tstats holds time_us (microseconds, one division), where it held seconds.
** 6: mxsim_tconfig.scalesim_version and mxsim_tstats.dram_floor (both structs grow).
** 7: no layout change; functions the Python bindings need were added (mxsim_trace_load_for,
** mxsim_trace_axis_reading), so a library without them must not load under the same number. */
#define MXSIM_ABI_VERSION 7

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
    X(E_INTERNAL, "internal invariant violated (simulator bug)")        \
    X(E_CANCELLED, "cancelled by the caller")

typedef enum {
#define MXSIM_ENUM_(name, text) MXSIM_##name,
    MXSIM_STATUS_LIST(MXSIM_ENUM_)
#undef MXSIM_ENUM_
    MXSIM_STATUS_COUNT_
} mxsim_status;

/* Static text for a status; never NULL (unknown codes give "unknown status"). */
MXSIM_API const char *mxsim_strerror(mxsim_status s);

/* Library version string, e.g. "0.1.0" (static storage). */
MXSIM_API const char *mxsim_version(void);
/* The MXSIM_ABI_VERSION the library was built with: a program compiled with another value
** should not use this library. */
MXSIM_API int mxsim_abi_version(void);

/* The closest of names[0..n-1] to s (edit distance at most 2, or a third of s's length), or NULL:
** the "did you mean" of every unknown name (configuration keys, commands, options). */
MXSIM_API const char *mxsim_closest_name(const char *s, const char *const *names, int n);

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
    MXSIM_DTYPE_I32 = 6,  /* NumPy '<i4' (0-d metadata as NumPy on Windows writes a Python int) */
    MXSIM_DTYPE_COUNT_
} mxsim_dtype;

/* Bytes per element of a dtype (0 if invalid). */
MXSIM_API size_t mxsim_dtype_size(mxsim_dtype t);
/* Short name: "f32", "bf16", "i8", "u8", "u16", "i64", "i32"; NULL if invalid. */
MXSIM_API const char *mxsim_dtype_name(mxsim_dtype t);
/* The NumPy type of a dtype, for messages: "int8 '|i1'", "float32 '<f4'", ...; NULL if invalid
** ("i8" reads as NumPy's int64 code to a NumPy user). */
MXSIM_API const char *mxsim_dtype_numpy(mxsim_dtype t);

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
** Context: error buffer, notes and execution settings.  No other state. */
typedef struct mxsim_ctx mxsim_ctx;

/* Creates a context.  *out is NULL on failure (MXSIM_E_NOMEM). */
MXSIM_API mxsim_status mxsim_ctx_create(mxsim_ctx **out);
/* Destroys a context; NULL is a no-op. */
MXSIM_API void mxsim_ctx_destroy(mxsim_ctx *ctx);
/* Detail of the last failure on this context ("" after a successful call).  The string belongs
** to ctx: it is overwritten by the next call taking ctx and freed by mxsim_ctx_destroy. */
MXSIM_API const char *mxsim_errmsg(const mxsim_ctx *ctx);
/* Notes: facts about an input that are not errors but change how its numbers compare with
** another tool (a SCALE-Sim file that SCALE-Sim itself would stop on, a SCALE-Sim v3 file timed
** by v2's rules, ...), one line each ending in '\n', left by successful calls and kept until
** mxsim_ctx_clear_notes ("" if none; the string belongs to ctx; a note given twice is kept once).
** notes_lost counts those that did not fit (4 KiB in all).  The CLI prints them on stderr when
** the command ends (also after an error); Python issues each as a warning, mxsim.MxsimNote. */
MXSIM_API const char *mxsim_ctx_notes(const mxsim_ctx *ctx);
MXSIM_API unsigned mxsim_ctx_notes_lost(const mxsim_ctx *ctx);
MXSIM_API void mxsim_ctx_clear_notes(mxsim_ctx *ctx);
/* Worker threads for compute kernels: 0 = all online CPUs (default), else 1..1024. */
MXSIM_API mxsim_status mxsim_ctx_set_threads(mxsim_ctx *ctx, unsigned n_threads);
/* SIMD path selection (default AUTO). */
MXSIM_API mxsim_status mxsim_ctx_set_simd(mxsim_ctx *ctx, mxsim_simd simd);
/* Cancellation hook: long operations poll fn(user) (the file writer before it creates anything
** and between chunks of at most 1 MiB; mxsim_time_op's detailed engine every 2^14 cycles;
** mxsim_sweep_run before each point or accuracy job, from its worker threads, so fn must be
** callable from any thread); a non-zero return stops the operation with
** MXSIM_E_CANCELLED after the normal cleanup (no temporary file is left, no target is touched
** unless it is written in place).  fn must be async-signal-safe to read a flag that a signal
** handler sets.  fn NULL removes the hook.  ctx NULL is MXSIM_E_ARG. */
typedef int (*mxsim_cancel_fn)(void *user);
MXSIM_API mxsim_status mxsim_ctx_set_cancel(mxsim_ctx *ctx, mxsim_cancel_fn fn, void *user);
/* Output path "-": with fd >= 0, every writer of this ctx writes a path that is exactly "-" to
** descriptor fd (in place, not atomically; fd is not closed).  fd < 0 (the default): "-" is an
** ordinary file name.  ctx NULL is MXSIM_E_ARG. */
MXSIM_API mxsim_status mxsim_ctx_set_dash_fd(mxsim_ctx *ctx, int fd);
/* Protect inputs: with on != 0, every file this ctx reads from then on (traces, configs, tensors,
** CSVs, card files, ...) is remembered by device and inode, and every writer of this ctx refuses
** (MXSIM_E_INPUT, before writing anything) to replace one of them, whatever name reaches it
** (a directory output's derived file names, a link).  Off by default: a program that reads a
** file and later rewrites it on purpose keeps doing so; the CLI turns it on for each command. */
MXSIM_API mxsim_status mxsim_ctx_set_protect_inputs(mxsim_ctx *ctx, int on);
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
** Dense tensors (C order).  Owned by the caller; free with mxsim_tensor_free.  The shape and
** data pointers a tensor returns stay valid, and at the same address, until it is freed: no call
** reallocates a tensor's storage. */
typedef struct mxsim_tensor mxsim_tensor;

/* Creates a zero-filled tensor.  ndim 0..MXSIM_MAX_DIMS; shape may be NULL when ndim is 0. */
MXSIM_API mxsim_status mxsim_tensor_create(mxsim_ctx *ctx, mxsim_dtype dtype, int ndim,
                                           const int64_t *shape, mxsim_tensor **out);
MXSIM_API void mxsim_tensor_free(mxsim_tensor *t); /* NULL ok */
/* Accessors.  NULL is accepted by every accessor of this header that returns a count, a name or
** a pointer (tensor, trace, table, bench): a NULL tensor has dtype MXSIM_DTYPE_COUNT_, ndim 0,
** numel 0, shape and data NULL; a NULL trace has count 0, no op, source ""; functions taking a
** ctx accept ctx NULL (no message is kept).  Every other NULL argument is MXSIM_E_ARG. */
MXSIM_API mxsim_dtype mxsim_tensor_dtype(const mxsim_tensor *t);
MXSIM_API int mxsim_tensor_ndim(const mxsim_tensor *t);
MXSIM_API const int64_t *mxsim_tensor_shape(const mxsim_tensor *t);
MXSIM_API int64_t mxsim_tensor_numel(const mxsim_tensor *t);
MXSIM_API void *mxsim_tensor_data(mxsim_tensor *t);
MXSIM_API const void *mxsim_tensor_cdata(const mxsim_tensor *t);

/* Reads a NumPy .npy file (version 1-3; dtypes f4, i1, u1, u2, i4, i8 in either byte order; C
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
/* The mantissa and scale tensors belong to mx: valid until mxsim_mx_free(mx), never freed by the
** caller. */
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
    size_t struct_size;    /* sizeof(mxsim_gemm_opts), set by mxsim_gemm_opts_default */
    int32_t acc;           /* mxsim_acc: MXSIM_ACC_FP32 (default) or MXSIM_ACC_EXACT */
    int32_t out_dtype;     /* mxsim_dtype: MXSIM_DTYPE_F32 (default) or MXSIM_DTYPE_BF16 */
} mxsim_gemm_opts;

MXSIM_API void mxsim_gemm_opts_default(mxsim_gemm_opts *o);

/* A: 2-D [M,K] grouped along axis 1; B: 2-D [N,K] grouped along axis 1; same K and G.
** opts NULL means the defaults. */
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
    double max_rel_err;     /* max |test - ref| / |ref| over finite pairs; +Inf where ref = 0 != test */
    double mean_abs_err;    /* mean |test - ref| over finite pairs */
    /* A pair in which a NaN or an infinity meets a different value (NaN against NaN and equal
    ** infinities are no error) has an infinite error: then sqnr_db = -Inf and the three errors +Inf. */
} mxsim_error_stats;

/* Tensors of no elements are MXSIM_E_INPUT (an SQNR of +Inf would read as a perfect match). */
MXSIM_API mxsim_status mxsim_compare(mxsim_ctx *ctx, const mxsim_tensor *ref,
                                     const mxsim_tensor *test, mxsim_error_stats *out);

/* ---------------------------------------------------------------------------------------------
** Output: tables in four formats, and files written atomically.  Every command's tabular output
** goes through one table: the same column names (units in the names), the same escaping, the
** same format rule.  Formats:
**   table  aligned text for a terminal: the columns marked MXSIM_COL_BRIEF (all if none are);
**   csv    RFC 4180: every column, one header line, fields quoted where needed, no comments;
**   json   RFC 8259: {"meta": {...}, "columns": [{"name", "unit", "doc"}...], "rows": [{...}...]},
**          every column; a non-finite real is null;
**   md     a GitHub Markdown table of the brief columns, '|' and '\' escaped. */
typedef enum {
    MXSIM_OUTPUT_TABLE = 0,
    MXSIM_OUTPUT_CSV = 1,
    MXSIM_OUTPUT_JSON = 2,
    MXSIM_OUTPUT_MD = 3,
    MXSIM_OUTPUT_COUNT_
} mxsim_output_format;

/* "table", "csv", "json", "md"; NULL if invalid. */
MXSIM_API const char *mxsim_output_format_name(mxsim_output_format f);
/* Parses a format name; unknown names are MXSIM_E_ARG listing the choices. */
MXSIM_API mxsim_status mxsim_output_format_parse(mxsim_ctx *ctx, const char *name,
                                                 mxsim_output_format *out);
/* The one rule for every writer: an explicit format name (non-NULL) wins; else the extension of
** path (.csv, .json, .md; .txt = table); else (path NULL) a table.  A path with another
** extension and no format is MXSIM_E_ARG naming the path and the known extensions. */
MXSIM_API mxsim_status mxsim_output_format_choose(mxsim_ctx *ctx, const char *format,
                                                  const char *path, mxsim_output_format *out);

typedef enum { MXSIM_CELL_TEXT = 0, MXSIM_CELL_INT = 1, MXSIM_CELL_REAL = 2 } mxsim_cell_type;
#define MXSIM_COL_BRIEF 1 /* column flag: shown in the text table and Markdown forms */

typedef struct mxsim_table mxsim_table;

MXSIM_API mxsim_status mxsim_table_create(mxsim_ctx *ctx, mxsim_table **out);
MXSIM_API void mxsim_table_free(mxsim_table *t); /* NULL ok */
/* Adds a column before the first row.  name: unique, non-empty, unit in the name
** ("cycles_total", "time_us"); unit and doc may be NULL.  decimals: digits after the point for a
** REAL in table and md form (-1: shortest exact form; -2..-17: that many significant digits, as
** printf's %.Ng); CSV and JSON always carry the exact value (shortest round-trip form). */
MXSIM_API mxsim_status mxsim_table_add_column(mxsim_ctx *ctx, mxsim_table *t, const char *name,
                                              mxsim_cell_type type, const char *unit,
                                              const char *doc, int flags, int decimals);
/* Metadata: key -> text, or key -> JSON-typed value (number, true/false: give the text and
** is_number = 1 for a number).  Carried by the JSON form only (CSV stays plain data). */
MXSIM_API mxsim_status mxsim_table_set_meta(mxsim_ctx *ctx, mxsim_table *t, const char *key,
                                            const char *value, int is_number);
/* Appends an empty row (every cell "" / 0 / NaN until set); its index is *row. */
MXSIM_API mxsim_status mxsim_table_add_row(mxsim_ctx *ctx, mxsim_table *t, int64_t *row);
/* Sets a cell of row; the column is named.  A type mismatch or unknown name is MXSIM_E_ARG. */
MXSIM_API mxsim_status mxsim_table_set_text(mxsim_ctx *ctx, mxsim_table *t, int64_t row,
                                            const char *col, const char *text);
MXSIM_API mxsim_status mxsim_table_set_int(mxsim_ctx *ctx, mxsim_table *t, int64_t row,
                                           const char *col, int64_t v);
MXSIM_API mxsim_status mxsim_table_set_real(mxsim_ctx *ctx, mxsim_table *t, int64_t row,
                                            const char *col, double v);
/* Marks a cell as having no value: empty in text, CSV and Markdown, null in JSON. */
MXSIM_API mxsim_status mxsim_table_set_null(mxsim_ctx *ctx, mxsim_table *t, int64_t row,
                                            const char *col);
/* Type, unit and doc of column col (pointers valid while t lives); MXSIM_E_ARG if out of range. */
MXSIM_API mxsim_status mxsim_table_column_info(const mxsim_table *t, int col, mxsim_cell_type *type,
                                               const char **unit, const char **doc);
MXSIM_API int mxsim_table_column_count(const mxsim_table *t);
MXSIM_API int64_t mxsim_table_row_count(const mxsim_table *t);
MXSIM_API const char *mxsim_table_column_name(const mxsim_table *t, int col); /* NULL if none */
/* Renders the table; *text is malloc'd and NUL-terminated (free with mxsim_free), *len its
** length without the NUL. */
MXSIM_API mxsim_status mxsim_table_render(mxsim_ctx *ctx, const mxsim_table *t,
                                          mxsim_output_format f, char **text, size_t *len);
/* Renders and writes atomically (mxsim_file_write). */
MXSIM_API mxsim_status mxsim_table_save(mxsim_ctx *ctx, const mxsim_table *t,
                                        mxsim_output_format f, const char *path);
/* Frees memory the library returned (rendered text). */
MXSIM_API void mxsim_free(void *p);

/* The one table of mxsim_compare's result (what `mxsim compare` prints and the Python compare()
** returns): columns ref, test (the names given; NULL is ""), elements, bit_mismatches,
** nan_mismatches, sqnr_db, max_abs_err, max_rel_err, mean_abs_err, one row. */
MXSIM_API mxsim_status mxsim_compare_table(mxsim_ctx *ctx, const mxsim_error_stats *es, const char *ref_name,
                                           const char *test_name, mxsim_table **out);

/* Writes len bytes to path, the one file writer of the library:
**  - a regular file (or a new one) is replaced atomically: a temporary file in the target's
**    directory, written, fsync'ed, renamed over the path; on any failure nothing is left behind
**    and the old file is untouched; an existing file keeps its permission bits;
**  - a symbolic link is followed (the file it names is replaced, the link stays);
**  - a character device (/dev/null, a terminal) is written in place;
**  - "-" is the ctx's dash descriptor if mxsim_ctx_set_dash_fd set one (written in place);
**  - a FIFO, a socket, a block device, a directory, a file without write permission, or a
**    dangling link is MXSIM_E_IO and nothing is touched;
**  - the ctx's cancellation hook is polled before anything is created and between chunks of at
**    most 1 MiB: MXSIM_E_CANCELLED, nothing left behind.
** ctx may be NULL (no message, no hook); data may be NULL only with len 0. */
MXSIM_API mxsim_status mxsim_file_write(mxsim_ctx *ctx, const char *path, const void *data,
                                        size_t len);
/* Whether mxsim_file_write would accept path as a target (the rules above), without creating
** or changing anything: for outputs that are produced over a long run and written at its end. */
MXSIM_API mxsim_status mxsim_file_check(mxsim_ctx *ctx, const char *path);
/* All or nothing over n files (paths[i] gets lens[i] bytes of datas[i]), under mxsim_file_write's
** rules: every target is checked and every temporary file written before the first rename; if
** a rename fails, the files replaced so far are restored.  A path named twice is MXSIM_E_ARG. */
MXSIM_API mxsim_status mxsim_files_write(mxsim_ctx *ctx, size_t n, const char *const *paths,
                                         const void *const *datas, const size_t *lens);

/* ---------------------------------------------------------------------------------------------
** Report: the Markdown + HTML report of a sweep, with its charts.
** Input: the two files `mxsim sweep -o DIR/NAME.csv` writes (sim/doc/sweeps.md):
**   NAME.csv        RFC 4180, one header line, no comments; columns looked up by name: point, one
**                   column per axis (named by its key), profile, status, op, kind, the metrics
**                   (cycles_total ... sqnr_db, e_<component>_mj, a_<component>_mm2);
**   NAME.meta.json  {"format": "mxsim-sweep", "version": 2, "mxsim_version", "trace", "n_ops",
**                   "config" (string or null), "points", "axes": [{"key", "type" (int, real,
**                   enum, text), "unit", "values"}...], "base", "cost", "accuracy",
**                   "group_policy", "columns": [{"name", "type", "unit", "doc"}...]}.
** Every value is checked: a CSV axis value must be one of its axis' values, metrics must be
** numbers, time and energy of an ok TOTAL row finite and >= 0.  A bad input is MXSIM_E_INPUT
** naming "FILE[:LINE]: field 'NAME': why"; nothing is written then.
** Output, in out_dir (created with its parents when missing), all or nothing: index.html
** (self-contained: inline SVG and CSS, no scripts, nothing fetched), README.md, and per chart
** NAME.svg with NAME.csv, the values it plots: cycles, energy (with the low/high band of the
** cost sources), sqnr (lines against the x axis, one series per value of the other axes),
** cycle_breakdown, energy_breakdown, area_breakdown (stacked bars per design point) and pareto
** (cycles vs energy, coloured by SQNR).  The x axis is the axis whose key is mx.group_size when
** it is numeric, else the first int axis, else the first real axis, else the point number.
** A failure leaves nothing behind: no temporary file, earlier files untouched, a directory the
** call created removed again. */
typedef struct {
    const char *meta_path; /* the sidecar; NULL: csv_path with ".csv" replaced by ".meta.json" */
} mxsim_report_opts;

/* opts may be NULL (defaults). */
MXSIM_API mxsim_status mxsim_report_build(mxsim_ctx *ctx, const char *csv_path, const char *out_dir,
                                          const mxsim_report_opts *opts);

/* ==== timing engine (issue 3) ==== */
/* ---------------------------------------------------------------------------------------------
** Timing engine: a cycle-approximate model of the accelerator (sim/doc/architecture.md).
** A configuration (mxsim_tconfig, plain data) is filled from one field table; a trace
** (mxsim_trace, opaque) lists operations; mxsim_time_op() times one operation analytically or,
** with detail = 1, by stepping the array cycle by cycle.  Units are in the field names. */

typedef enum { MXSIM_DF_OS = 0, MXSIM_DF_WS = 1, MXSIM_DF_IS = 2 } mxsim_dataflow;
typedef enum { MXSIM_EXP_PER_PE = 0, MXSIM_EXP_PER_ROW = 1, MXSIM_EXP_PER_COL = 2 } mxsim_exp_share;
typedef enum { MXSIM_FMT_MXINT8 = 0, MXSIM_FMT_INT8 = 1 } mxsim_operand_fmt;
typedef enum { MXSIM_OUT_FP32 = 0, MXSIM_OUT_BF16 = 1, MXSIM_OUT_MXINT8 = 2 } mxsim_out_fmt;

/* The one spelling of each enumeration (traces, configuration, tables, SystemC): canonical
** lower-case name, NULL if invalid; parse is the inverse (MXSIM_E_ARG listing the choices). */
MXSIM_API const char *mxsim_dataflow_name(mxsim_dataflow d);        /* "os", "ws", "is" */
MXSIM_API const char *mxsim_operand_fmt_name(mxsim_operand_fmt f);  /* "mxint8", "int8" */
MXSIM_API const char *mxsim_out_fmt_name(mxsim_out_fmt f);          /* "fp32", "bf16", "mxint8" */
MXSIM_API mxsim_status mxsim_dataflow_parse(mxsim_ctx *ctx, const char *name, mxsim_dataflow *out);
MXSIM_API mxsim_status mxsim_operand_fmt_parse(mxsim_ctx *ctx, const char *name,
                                               mxsim_operand_fmt *out);
MXSIM_API mxsim_status mxsim_out_fmt_parse(mxsim_ctx *ctx, const char *name, mxsim_out_fmt *out);

/* The resolved accelerator configuration.  Every field is in the field table (mxsim_tconfig_
** field); enumerations are stored as their integer values. */
typedef struct {
    int64_t array_rows, array_cols;         /* PEs */
    int64_t pe_lanes;                       /* L: int8 multipliers per PE */
    int64_t load_lanes;                     /* mantissas per operand per cycle on the load path */
    int64_t group_size;                     /* G: elements per scale byte (ops may override) */
    int64_t operand_format;                 /* mxsim_operand_fmt */
    int64_t dataflow;                       /* mxsim_dataflow */
    int64_t exp_share;                      /* mxsim_exp_share */
    int64_t exp_ii_cycles;                  /* exponent unit initiation interval */
    int64_t exp_latency_cycles;             /* exponent unit pipeline latency */
    int64_t acc_mode;                       /* mxsim_acc: accumulator register width for events */
    int64_t sram_a_kib, sram_b_kib, sram_c_kib; /* per buffer, total of both halves */
    double dram_bw_bytes_per_cycle;         /* resolution 1/1024 byte per cycle */
    int64_t dram_latency_cycles;            /* per request */
    double dram_pj_per_bit;                 /* DRAM energy per bit; 0: the cited band (cost model) */
    double clock_mhz;
    int64_t out_format;                     /* mxsim_out_fmt */
    int64_t dequant_lanes, dequant_depth_cycles;
    int64_t requant_lanes, requant_depth_cycles;
    int64_t scalesim_compat;                /* 1: SCALE-Sim v2's model (architecture.md section 8) */
    int64_t tile_m, tile_n, tile_k;         /* GEMM tile, elements; 0: the engine chooses (a value
                                            ** above the op's dim means the whole dim) */
    int64_t scalesim_bw;                    /* mxsim_scalesim_bw: compat-mode interface bandwidth */
    int64_t tile_objective;                 /* mxsim_tile_objective: what the tile search minimises */
    int64_t scalesim_version;               /* mxsim_scalesim_version: compat mode's SCALE-Sim release */
} mxsim_tconfig;

/* What the tile search minimises (tile.objective; architecture.md section 11): cycles, energy
** (mxsim_cost_energy, nominal band, default cost parameters) or their product.  energy and edp
** need the cost model (built with MXSIM_WITH_SWEEP); without it they are MXSIM_E_UNSUPPORTED. */
typedef enum { MXSIM_OBJ_CYCLES = 0, MXSIM_OBJ_ENERGY = 1, MXSIM_OBJ_EDP = 2 } mxsim_tile_objective;

/* SCALE-Sim's InterfaceBandwidth in compat mode: USER stalls at dram.bw_bytes_per_cycle, CALC
** sizes the interface so that it never stalls. */
typedef enum { MXSIM_SCALESIM_BW_USER = 0, MXSIM_SCALESIM_BW_CALC = 1 } mxsim_scalesim_bw;

/* The SCALE-Sim release compat mode reproduces under USER bandwidth (architecture.md section 8):
** the PyPI release 2.0.2, or 3.0.0, whose read buffer counts each positive refill stall twice.  A
** .cfg with a v3-only section or key sets v3. */
typedef enum { MXSIM_SCALESIM_V2 = 0, MXSIM_SCALESIM_V3 = 1 } mxsim_scalesim_version;

/* Description of one configuration field (static storage; never freed). */
typedef struct {
    const char *name;    /* "array.rows" */
    const char *type;    /* "int", "real", "enum" or "bool" */
    const char *unit;    /* "PE", "cycles", "KiB", "bytes/cycle", "MHz", "" */
    const char *doc;     /* one line */
    const char *choices; /* enum: "os|ws|is"; else NULL */
    double lo, hi;       /* bounds (enum: 0..n-1) */
    double def;          /* default */
} mxsim_tconfig_field;

/* Number of fields and the i-th field (NULL if out of range). */
MXSIM_API int mxsim_tconfig_field_count(void);
MXSIM_API const mxsim_tconfig_field *mxsim_tconfig_field_at(int i);
/* Fills *cfg with every field's default. */
MXSIM_API void mxsim_tconfig_default(mxsim_tconfig *cfg);
/* Sets one field from text.  `where` prefixes the error ("small.ini:12" or "--set"); unknown
** keys, bad numbers and out-of-range values are MXSIM_E_INPUT naming where and the field. */
MXSIM_API mxsim_status mxsim_tconfig_set(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *key,
                                         const char *value, const char *where);
/* Applies "key=value" (the CLI's --set). */
MXSIM_API mxsim_status mxsim_tconfig_set_kv(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *kv);
/* Reads an INI file (`key = value`, `[section]` prefixes keys, `#`/`;` comments) or, for a
** path ending in .cfg (in any case), a SCALE-Sim v2 or v3 configuration (which also turns on
** report.scalesim_compat), on top of *cfg.  Errors name file:line. */
MXSIM_API mxsim_status mxsim_tconfig_load(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *path);
/* Cross-field checks (e.g. exp_ii_cycles vs sharing).  MXSIM_E_INPUT names the field. */
MXSIM_API mxsim_status mxsim_tconfig_validate(mxsim_ctx *ctx, const mxsim_tconfig *cfg);
/* The resolved configuration as a table: key, value, type, unit, min, max, default, doc. */
MXSIM_API mxsim_status mxsim_tconfig_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, mxsim_table **out);
/* Formats field i's value of *cfg into buf ("32", "os", "12.5"); a real in the fewest digits
** (15 to 17) that read back as the same double.  Returns buf. */
MXSIM_API const char *mxsim_tconfig_format(const mxsim_tconfig *cfg, int i, char *buf, size_t len);

/* ---- traces (format: traces/FORMAT.md) ---- */
typedef enum { MXSIM_OP_GEMM = 0, MXSIM_OP_DEQUANT = 1, MXSIM_OP_QUANTIZE = 2 } mxsim_op_kind;
/* "gemm", "dequant", "quantize"; NULL if invalid.  Parse: MXSIM_E_ARG if unknown. */
MXSIM_API const char *mxsim_op_kind_name(mxsim_op_kind k);
MXSIM_API mxsim_status mxsim_op_kind_parse(mxsim_ctx *ctx, const char *name, mxsim_op_kind *out);

typedef struct {
    int32_t kind;          /* mxsim_op_kind */
    char name[64];
    int64_t m, n, k;       /* GEMM: C[m,n] = A[m,k] . B[k,n]; dequant/quantize: m x n elements */
    int64_t group_size;    /* 0: the configuration's group_size */
    int64_t repeat;        /* >= 1: identical back-to-back executions */
    int32_t a_fmt, b_fmt;  /* mxsim_operand_fmt, or -1: the configuration's */
    int32_t out_fmt;       /* mxsim_out_fmt, or -1: the configuration's */
    int32_t line;          /* source line in the trace file (0 if built in memory) */
    int64_t conv_h, conv_w, conv_fh, conv_fw, conv_c, conv_s; /* a SCALE-Sim topology's conv layer
                           ** (input H, W, filter H, W, channels, stride: the row stride; row |
                           ** column << 32 when a 9-value row gives a different column stride), set
                           ** by its import for the compat USER model's addresses; 0: none (not in
                           ** the text format) */
} mxsim_top;

typedef struct mxsim_trace mxsim_trace;

MXSIM_API mxsim_status mxsim_trace_create(mxsim_ctx *ctx, const char *source, mxsim_trace **out);
MXSIM_API void mxsim_trace_free(mxsim_trace *t); /* NULL ok */
/* Validates *op (dims 1..2^31, repeat >= 1, G in range) and appends a copy.  G need not divide
** the grouped dim (k, or n of a dequant/quantize): MXINT8 tensors are padded to whole groups. */
MXSIM_API mxsim_status mxsim_trace_append(mxsim_ctx *ctx, mxsim_trace *t, const mxsim_top *op);
MXSIM_API int64_t mxsim_trace_count(const mxsim_trace *t);
/* Op i (NULL if out of range).  The pointer dies at the next mxsim_trace_append on t (the op
** array may move) and at mxsim_trace_free(t); copy the op to keep it. */
MXSIM_API const mxsim_top *mxsim_trace_op(const mxsim_trace *t, int64_t i);
/* File name for messages; valid until mxsim_trace_free(t). */
MXSIM_API const char *mxsim_trace_source(const mxsim_trace *t);
/* Reads a trace: mxsim text format (plain or .gz, detected by the gzip magic; a truncated .gz is
** MXSIM_E_FORMAT) or, for a path ending in .csv (in any case), a SCALE-Sim topology (see below). */
MXSIM_API mxsim_status mxsim_trace_load(mxsim_ctx *ctx, const char *path, mxsim_trace **out);
/* SCALE-Sim topology CSV: GEMM rows `Layer,M,N,K,` or conv rows `Layer,IFMAP H,IFMAP W,Filter H,
** Filter W,Channels,Num Filter,Strides,`, or with a 9th value, the column stride (im2col).  flags:
** MXSIM_IMPORT_REQUIRE_COMMA rejects rows without the trailing comma (else both forms are
** accepted); MXSIM_IMPORT_SCALESIM_MODEL applies SCALE-Sim's rules (output size ceil((H-Fh+s)/s)
** instead of floor((H-Fh)/s)+1, per dimension with its stride; a layer whose name contains "DP" is
** depthwise: one 1-channel layer per channel, as `repeat`); MXSIM_IMPORT_SCALESIM_V3 reads rows as
** SCALE-Sim 3.0.0 does: a conv row's 9th value is the N:M sparsity ratio (a number there is refused,
** where v2 reads the stride width) and an N:M ratio is timed dense, as v3 does with SparsitySupport
** off (without the flag only a dense N:N is accepted).  The first line is a header whatever
** it holds; text after a row's last comma is dropped (SCALE-Sim's row.split(',')[:-1]); a row of
** another count is an error. */
/* Version 2 of the trace format (traces/FORMAT.md): the role of an op's B operand, for the
** memory footprint (mxsim_memory_table).  UNSET: not said (version 1 traces; counted as an
** activation); WEIGHT: a stored parameter tensor, one distinct k x n tensor per execution (repeat =
** layers); KV: a KV-cache tensor (keys of attention scores, values of attention x V), one per
** execution; ACT: a transient activation.  A SCALE-Sim import marks the filter as WEIGHT. */
typedef enum { MXSIM_ROLE_UNSET = 0, MXSIM_ROLE_ACT = 1, MXSIM_ROLE_WEIGHT = 2, MXSIM_ROLE_KV = 3 } mxsim_tensor_role;
/* "unset", "act", "weight", "kv"; NULL if invalid. */
MXSIM_API const char *mxsim_role_name(mxsim_tensor_role r);
MXSIM_API mxsim_status mxsim_trace_set_b_role(mxsim_ctx *ctx, mxsim_trace *t, int64_t i, mxsim_tensor_role r);
MXSIM_API mxsim_tensor_role mxsim_trace_b_role(const mxsim_trace *t, int64_t i);
/* How many distinct B tensors a GEMM's executions read (version 2 key `b_tensors`; its b_role must
** be WEIGHT or KV, set first): 0 (the default) means one per execution, i.e. its repeat; fewer when
** executions share a weight (ALBERT's shared layers; one weight of two different ops, a tied
** embedding and LM head, is not expressible), more when some stored tensors
** are not read by this run (the idle experts of a mixture-of-experts layer); MXSIM_B_VIEW (the
** text's b_tensors=0) when B is a view of a tensor another op's B counts (multi-head latent
** attention's attention x V reads the latent cache its scores read): no tensor of its own.  Only
** the memory footprint reads it; the timing loads B for every execution. */
#define MXSIM_B_VIEW (-1)
MXSIM_API mxsim_status mxsim_trace_set_b_tensors(mxsim_ctx *ctx, mxsim_trace *t, int64_t i, int64_t n);
MXSIM_API int64_t mxsim_trace_b_tensors(const mxsim_trace *t, int64_t i);
/* Non-GEMM parameter tensors (embeddings, norms, biases, ...; `param` lines of version 2): count
** tensors of elems elements each; why is one word naming the kind (embedding, norm, bias, ...).
** They stay unquantized in an MXINT8 model (bf16). */
MXSIM_API mxsim_status mxsim_trace_add_param(mxsim_ctx *ctx, mxsim_trace *t, const char *name, int64_t elems,
                                             int64_t count, const char *why);
MXSIM_API int64_t mxsim_trace_param_count(const mxsim_trace *t);
/* Param i's fields (pointers valid until mxsim_trace_free); MXSIM_E_ARG if out of range. */
MXSIM_API mxsim_status mxsim_trace_param(const mxsim_trace *t, int64_t i, const char **name, int64_t *elems,
                                         int64_t *count, const char **why);
#define MXSIM_IMPORT_REQUIRE_COMMA 1
#define MXSIM_IMPORT_SCALESIM_MODEL 2
#define MXSIM_IMPORT_SCALESIM_V3 4
MXSIM_API mxsim_status mxsim_trace_import_scalesim(mxsim_ctx *ctx, const char *path, int flags,
                                                   mxsim_trace **out);
/* The import flags a run on cfg reads a SCALE-Sim topology with: SCALE-Sim's rules under its model
** (report.scalesim_compat: a .cfg or --scalesim-compat), with v3's reading of rows where cfg times
** SCALE-Sim 3.0.0 (report.scalesim_version); 0 otherwise. */
MXSIM_API int mxsim_tconfig_import_flags(const mxsim_tconfig *cfg);
/* Reads a trace as a run on cfg reads it: mxsim_trace_load, except that a topology (.csv) is read
** with mxsim_tconfig_import_flags(cfg) (`mxsim run`, `sweep` and `memory` read it so). */
MXSIM_API mxsim_status mxsim_trace_load_for(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const char *path,
                                            mxsim_trace **out);
/* A sweep reads its trace once, by the base configuration's rules: MXSIM_E_INPUT when an axis of key
** (report.scalesim_version or report.scalesim_compat) would read the topology at path differently
** (conv output sizes, depthwise rows, a 9th value, a Sparsity column); MXSIM_OK for any other key
** or a path that is not a topology. */
MXSIM_API mxsim_status mxsim_trace_axis_reading(mxsim_ctx *ctx, const mxsim_tconfig *base, const char *path,
                                                const char *key);
/* The text format of t (what mxsim_trace_save writes uncompressed); *text is malloc'd, free it
** with mxsim_free. */
MXSIM_API mxsim_status mxsim_trace_format(mxsim_ctx *ctx, const mxsim_trace *t, char **text,
                                          size_t *len);
/* Writes the text format atomically; gzip-compressed when the path ends in .gz.  A path ending in
** .csv is MXSIM_E_ARG (a .csv trace is read as a SCALE-Sim topology). */
MXSIM_API mxsim_status mxsim_trace_save(mxsim_ctx *ctx, const mxsim_trace *t, const char *path);
/* Builds a trace from a model definition (workloads/models/NAME.model). */
MXSIM_API mxsim_status mxsim_trace_gen(mxsim_ctx *ctx, const char *model_path, mxsim_trace **out);

/* ---- timing ---- */
/* Kinds of op that produce a statistic (bit mask over mxsim_op_kind). */
#define MXSIM_KINDS_GEMM 1
#define MXSIM_KINDS_DEQUANT 2
#define MXSIM_KINDS_QUANTIZE 4
#define MXSIM_KINDS_ALL 7
/* How the TOTAL of several ops (mxsim_tstats_add) aggregates a statistic. */
typedef enum {
    MXSIM_AGG_SUM = 0,       /* summed (and multiplied by an op's repeat count) */
    MXSIM_AGG_FOLD_MEAN = 1, /* mean weighted by n_folds */
    MXSIM_AGG_RECOMPUTE = 2, /* derived again from the summed counts and the configuration */
    MXSIM_AGG_PER_OP = 3     /* a property of one op; a TOTAL row: null in run tables, 0 in sweeps */
} mxsim_agg;

/* The one list of timing statistics.  X(ctype, member, column, unit, scale, kinds, agg, brief,
** decimals, doc): the struct member (C type int64_t or double), its column name in every table
** (unit in the name; the value shown is member x scale), the op kinds that produce it, how a
** TOTAL aggregates it, whether the terminal table shows it, digits after the point (-1: exact)
** and a one-line doc.  The struct, mxsim_tstats_add, every table/CSV/JSON/MD column of `run`
** and `sweep`, and the docs' column list come from it: appending a line here (at the end, the
** struct layout is ABI) is the only change a new statistic needs. */
#define MXSIM_TSTATS_FIELDS(X)                                                                     \
    X(int64_t, cycles_total, "cycles_total", "cycles", 1, MXSIM_KINDS_ALL, SUM, 1, -1,             \
      "all cycles: compute + fill_drain + exp_stall + lane_limit + mem_stall")                     \
    X(int64_t, cycles_array, "cycles_array", "cycles", 1, MXSIM_KINDS_ALL, RECOMPUTE, 0, -1,       \
      "cycles the array is busy: total - mem_stall")                                               \
    X(int64_t, cycles_compute, "cycles_compute", "cycles", 1, MXSIM_KINDS_ALL, SUM, 1, -1,         \
      "cycles issuing MACs (GEMM) or elements (dequant/quantize)")                                 \
    X(int64_t, cycles_fill_drain, "cycles_fill_drain", "cycles", 1, MXSIM_KINDS_ALL, SUM, 1, -1,   \
      "pipeline fill and drain cycles")                                                            \
    X(int64_t, cycles_exp_stall, "cycles_exp_stall", "cycles", 1, MXSIM_KINDS_GEMM, SUM, 1, -1,    \
      "exponent cycles: a fold's tail waiting on its exponent units (latency, sharing)")          \
    X(int64_t, cycles_mem_stall, "cycles_mem_stall", "cycles", 1, MXSIM_KINDS_ALL, SUM, 1, -1,     \
      "cycles waiting for DRAM")                                                                   \
    X(double, util_mapping, "util_mapping_pct", "%", 100, MXSIM_KINDS_GEMM, FOLD_MEAN, 1, 2,       \
      "mean share of PEs mapped over folds")                                                       \
    X(double, util_compute, "util_compute_pct", "%", 100, MXSIM_KINDS_ALL, RECOMPUTE, 1, 2,        \
      "MACs / (R*C*L*cycles_total)")                                                               \
    X(int64_t, sram_a_rd_mant_bytes, "sram_a_rd_mant_bytes", "bytes", 1, MXSIM_KINDS_ALL, SUM, 0,  \
      -1, "SRAM A mantissa reads")                                                                 \
    X(int64_t, sram_a_rd_scale_bytes, "sram_a_rd_scale_bytes", "bytes", 1,                         \
      MXSIM_KINDS_GEMM | MXSIM_KINDS_DEQUANT, SUM, 0, -1, "SRAM A scale reads")                    \
    X(int64_t, sram_b_rd_mant_bytes, "sram_b_rd_mant_bytes", "bytes", 1, MXSIM_KINDS_GEMM, SUM, 0, \
      -1, "SRAM B mantissa reads")                                                                 \
    X(int64_t, sram_b_rd_scale_bytes, "sram_b_rd_scale_bytes", "bytes", 1, MXSIM_KINDS_GEMM, SUM,  \
      0, -1, "SRAM B scale reads")                                                                 \
    X(int64_t, sram_c_rd_bytes, "sram_c_rd_bytes", "bytes", 1, MXSIM_KINDS_ALL, SUM, 0, -1,        \
      "SRAM C (output buffer) reads")                                                              \
    X(int64_t, sram_c_wr_bytes, "sram_c_wr_bytes", "bytes", 1, MXSIM_KINDS_ALL, SUM, 0, -1,        \
      "SRAM C (output buffer) writes")                                                             \
    X(int64_t, dram_a_mant_bytes, "dram_a_mant_bytes", "bytes", 1, MXSIM_KINDS_ALL, SUM, 1, -1,    \
      "DRAM reads of A mantissas (elementwise ops: their input)")                                  \
    X(int64_t, dram_a_scale_bytes, "dram_a_scale_bytes", "bytes", 1,                               \
      MXSIM_KINDS_GEMM | MXSIM_KINDS_DEQUANT, SUM, 1, -1, "DRAM reads of A scales")                \
    X(int64_t, dram_b_mant_bytes, "dram_b_mant_bytes", "bytes", 1, MXSIM_KINDS_GEMM, SUM, 1, -1,   \
      "DRAM reads of B mantissas")                                                                 \
    X(int64_t, dram_b_scale_bytes, "dram_b_scale_bytes", "bytes", 1, MXSIM_KINDS_GEMM, SUM, 1, -1, \
      "DRAM reads of B scales")                                                                    \
    X(int64_t, dram_out_bytes, "dram_out_bytes", "bytes", 1, MXSIM_KINDS_ALL, SUM, 1, -1,          \
      "DRAM writes of the output")                                                                 \
    X(int64_t, n_macs, "n_macs", "MACs", 1, MXSIM_KINDS_GEMM, SUM, 1, -1,                          \
      "useful int8 x int8 multiply-adds")                                                          \
    X(int64_t, n_lane_slots, "n_lane_slots", "slots", 1, MXSIM_KINDS_ALL, RECOMPUTE, 0, -1,        \
      "multiplier slots offered: R*C*L*cycles_array")                                              \
    X(int64_t, n_exp_ops, "n_exp_ops", "ops", 1, MXSIM_KINDS_GEMM, SUM, 0, -1,                     \
      "group accumulates: exponent add + align shift + accumulate")                                \
    X(int64_t, n_acc_writes, "n_acc_writes", "writes", 1, MXSIM_KINDS_GEMM, SUM, 0, -1,            \
      "accumulator register writes (int32 or fp32/wide, acc_mode)")                                \
    X(int64_t, n_dequant_elems, "n_dequant_elems", "elements", 1, MXSIM_KINDS_DEQUANT, SUM, 0, -1, \
      "elements through the dequant unit")                                                         \
    X(int64_t, n_requant_elems, "n_requant_elems", "elements", 1,                                  \
      MXSIM_KINDS_GEMM | MXSIM_KINDS_QUANTIZE, SUM, 0, -1, "elements through the requantizer")    \
    X(int64_t, n_maxabs_compares, "n_maxabs_compares", "compares", 1,                              \
      MXSIM_KINDS_GEMM | MXSIM_KINDS_QUANTIZE, SUM, 0, -1, "max-abs comparisons for group scales") \
    X(int64_t, n_dram_requests, "n_dram_requests", "requests", 1, MXSIM_KINDS_ALL, SUM, 0, -1,     \
      "DRAM requests (each pays dram.latency_cycles)")                                             \
    X(int64_t, tile_m, "tile_m", "elements", 1, MXSIM_KINDS_ALL, PER_OP, 0, -1,                    \
      "tile rows of the op (a TOTAL: empty in run, 0 in sweep)")                                                        \
    X(int64_t, tile_n, "tile_n", "elements", 1, MXSIM_KINDS_ALL, PER_OP, 0, -1,                    \
      "tile columns of the op (a TOTAL: empty in run, 0 in sweep)")                                                     \
    X(int64_t, tile_k, "tile_k", "elements", 1, MXSIM_KINDS_ALL, PER_OP, 0, -1,                    \
      "tile depth of the op (a TOTAL: empty in run, 0 in sweep)")                                                       \
    X(int64_t, n_tiles, "n_tiles", "tiles", 1, MXSIM_KINDS_ALL, SUM, 0, -1, "tiles executed")      \
    X(int64_t, n_folds, "n_folds", "folds", 1, MXSIM_KINDS_GEMM, SUM, 0, -1,                       \
      "array folds (mappings of a tile onto the PEs)")                                             \
    X(double, time_us, "time_us", "us", 1, MXSIM_KINDS_ALL, RECOMPUTE, 1, 3,                       \
      "time at the configured clock: cycles_total / clock.mhz")                                    \
    X(double, tops, "tops", "TOPS", 1, MXSIM_KINDS_ALL, RECOMPUTE, 1, 4,                           \
      "2 * MACs / time / 1e12")                                                                    \
    X(int64_t, n_macs_issued, "n_macs_issued", "MACs", 1, MXSIM_KINDS_GEMM, SUM, 0, -1,            \
      "multiply-adds issued: n_macs plus the zeros of K padded to a multiple of G (MXINT8 GEMMs)") \
    X(int64_t, cycles_lane_limit, "cycles_lane_limit", "cycles", 1, MXSIM_KINDS_GEMM, SUM, 0, -1,  \
      "array cycles owed to beats narrower than L lanes (load path, or a narrower beat chosen)")  \
    X(int64_t, cycles_dram_bw, "cycles_dram_bw", "cycles", 1, MXSIM_KINDS_ALL, SUM, 0, -1,         \
      "mem_stall cycles while the DRAM channel transfers (or re-quantizes a store)")              \
    X(int64_t, cycles_dram_latency, "cycles_dram_latency", "cycles", 1, MXSIM_KINDS_ALL, SUM, 0,   \
      -1, "mem_stall cycles while the DRAM channel waits out a request's latency")                 \
    X(int64_t, bound, "bound", "class", 1, MXSIM_KINDS_ALL, RECOMPUTE, 1, -1,                      \
      "largest cycle class (TOTAL: of the summed classes); a name, see mxsim_bound_name")           \
    X(int64_t, tile_objective, "tile_objective", "objective", 1, MXSIM_KINDS_ALL, RECOMPUTE, 0, -1,\
      "what the tile search minimised (tile.objective): cycles, energy or edp")                   \
    X(double, dram_floor, "dram_floor_pct", "%", 100, MXSIM_KINDS_ALL, RECOMPUTE, 0, 2,           \
      "DRAM bytes / dram.bw_bytes_per_cycle / cycles_total: the share of the cycles the traffic "   \
      "alone needs (a roofline's memory term; near 100, more bandwidth is what speeds it up); nan under "  \
      "SCALE-Sim compat, whose bandwidth is in its words and whose model sets the cycles")

/* The cycle classes of bound attribution (sim/doc/architecture.md section 10), in the order that
** breaks ties; mxsim_tstats.bound holds one of them.  Invariants, per op and in a TOTAL, in both
** engines: cycles_total = compute + fill_drain + exp_stall + lane_limit + dram_bw + dram_latency,
** and cycles_mem_stall = dram_bw + dram_latency. */
#define MXSIM_BOUNDS(X)                \
    X(COMPUTE, "compute")              \
    X(FILL_DRAIN, "fill_drain")        \
    X(EXP_STALL, "exp_stall")          \
    X(LANE_LIMIT, "lane_limit")        \
    X(DRAM_BW, "dram_bw")              \
    X(DRAM_LATENCY, "dram_latency")
typedef enum {
#define MXSIM_BOUND_ENUM_(id, name) MXSIM_BOUND_##id,
    MXSIM_BOUNDS(MXSIM_BOUND_ENUM_)
#undef MXSIM_BOUND_ENUM_
    MXSIM_BOUND_COUNT_
} mxsim_bound;
/* "compute", "fill_drain", ...; NULL if out of range.  A statistic whose unit is "class" is shown
** as this name in every table. */
MXSIM_API const char *mxsim_bound_name(int64_t b);
/* "cycles", "energy", "edp"; NULL if out of range (a statistic of unit "objective" is shown so). */
MXSIM_API const char *mxsim_tile_objective_name(int64_t o);

/* Timing statistics of one op or a TOTAL; every member is described by MXSIM_TSTATS_FIELDS
** (invariants: see MXSIM_BOUNDS). */
typedef struct {
#define MXSIM_TSTATS_MEMBER_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) ctype mem;
    MXSIM_TSTATS_FIELDS(MXSIM_TSTATS_MEMBER_)
#undef MXSIM_TSTATS_MEMBER_
} mxsim_tstats;

/* Description of statistic i (static storage). */
typedef struct {
    const char *name;   /* column name, unit in it: "cycles_total", "time_us" */
    const char *member; /* struct member: "time_us" */
    const char *type;   /* "int" or "real" */
    const char *unit;   /* "cycles", "bytes", "us", "%" */
    double scale;       /* column value = member x scale */
    int kinds;          /* MXSIM_KINDS_* mask of the op kinds that produce it */
    mxsim_agg agg;
    int brief;          /* 1: in the terminal table */
    int decimals;       /* digits after the point in text forms (-1: exact) */
    const char *doc;
} mxsim_tstats_field;

MXSIM_API int mxsim_tstats_field_count(void);
MXSIM_API const mxsim_tstats_field *mxsim_tstats_field_at(int i); /* NULL if out of range */
/* Column value of statistic i (member x scale); an int field is exact below 2^53. */
MXSIM_API double mxsim_tstats_value(const mxsim_tstats *s, int i);
/* Integer statistic i exactly (a real one: 0). */
MXSIM_API int64_t mxsim_tstats_int(const mxsim_tstats *s, int i);
/* The statistics themselves as a table (column, unit, type, kinds, total, doc): the list the docs
** carry (`mxsim run --columns --format md`). */
MXSIM_API mxsim_status mxsim_tstats_table(mxsim_ctx *ctx, mxsim_table **out);
/* "sum", "fold_mean", "recompute", "per_op"; NULL if invalid. */
MXSIM_API const char *mxsim_agg_name(mxsim_agg a);

/* Times op (times its repeat count) on cfg.  detail = 0: the analytic engine (closed forms).
** detail = 1: a GEMM is simulated cycle by cycle by an independent engine that gives the same
** counters (sim/doc/architecture.md section 5); small problems only: an op above 2^26 PE-cycles
** (R*C*array cycles) or 2^26 cycles is refused with MXSIM_E_LIMIT before any stepping.  Dequant
** and quantize ops are timed analytically in both modes.  With detail = 1 and a GEMM,
** access_trace_path non-NULL writes a gzip per-cycle SRAM access trace there (traces/FORMAT.md),
** atomically: on failure no file is left; it is ignored otherwise.  MXSIM_E_INPUT names op's
** source line and the field. */
MXSIM_API mxsim_status mxsim_time_op(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_top *op,
                                     const char *source, int detail, const char *access_trace_path,
                                     mxsim_tstats *out);
/* mxsim_time_op whose tile search, under tile.objective energy or edp, costs its candidates in the
** technology cost describes (node, Vdd, overhead, SRAM bank: mxsim_cost_params, declared below;
** NULL: mxsim_cost_params_default, what mxsim_time_op uses).  A sweep passes its own, so that the
** tiling it reports minimises the energy it reports.  cycles ignores cost. */
struct mxsim_cost_params_s;
MXSIM_API mxsim_status mxsim_time_op_cost(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                          const struct mxsim_cost_params_s *cost, const mxsim_top *op,
                                          const char *source, int detail, const char *access_trace_path,
                                          mxsim_tstats *out);
/* The table of a run: one row per op of tr (op, kind, m, n, k, repeat, then every statistic of
** MXSIM_TSTATS_FIELDS, its brief flag kept) and a TOTAL row (per-op fields empty); JSON metadata:
** mxsim_version, trace (its source) and every configuration field, typed.  op_stats[i] belongs to
** op i.  Free with mxsim_table_free. */
MXSIM_API mxsim_status mxsim_run_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_trace *tr,
                                       const mxsim_tstats *op_stats, const mxsim_tstats *total,
                                       mxsim_table **out);
/* The memory footprint of tr's tensors (sim/doc/memory.md), one block of rows per group size in
** groups[0..n_groups-1] (none: the configuration's mx.group_size): every GEMM's B and A operand,
** every non-GEMM parameter, then TOTAL rows (gemm weights, params, weights, kv, weights+kv, act):
** elements and bytes in fp32, bf16 and the MXINT8 model (mantissas + scale bytes + group padding;
** params stay bf16), savings against fp32 and bf16, and the ideal per-element formula.  Weight
** and KV tensors count once per execution (repeat = layers); activations are one execution's.
** Free with mxsim_table_free. */
MXSIM_API mxsim_status mxsim_memory_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const mxsim_trace *tr,
                                          const int64_t *groups, int n_groups, mxsim_table **out);
/* acc += s (sums every count; recomputes utilisations, time_us and TOPS for cfg).  A sum that would
** pass 2^63 is refused with MXSIM_E_LIMIT naming the field and op_name (the op being added; may
** be NULL), and acc is left unchanged. */
MXSIM_API mxsim_status mxsim_tstats_add(mxsim_ctx *ctx, const mxsim_tconfig *cfg, mxsim_tstats *acc,
                                        const mxsim_tstats *s, const char *op_name);

/* ---------------------------------------------------------------------------------------------
** Area and energy model (sim/doc/energy-area.md).  Every constant lives in one table (value,
** band, unit, node, Vdd, source, confidence); costs are computed three times: with the nominal
** constants and with the low and high ends of the band where sources disagree.
** Energy = sum over events of count x energy/event (counts from mxsim_tstats) + leakage x time.
** Constants are anchored at 45 nm and scaled with Stillmaker & Baas 2017. */

enum { MXSIM_BAND_NOM = 0, MXSIM_BAND_LOW = 1, MXSIM_BAND_HIGH = 2, MXSIM_N_BANDS = 3 };

/* Hardware components of the cost model: (symbol, name).  The order is ABI: append only. */
#define MXSIM_COMPONENT_LIST(X)                  \
    X(MULT, "multipliers")                       \
    X(ADDER_TREE, "adder_trees")                 \
    X(EXP_ADD, "exponent_adders")                \
    X(ALIGN, "alignment_shifters")               \
    X(ACCUM, "accumulators")                     \
    X(PIPE_REG, "pipeline_registers")            \
    X(SRAM, "sram")                              \
    X(DRAM, "dram")                              \
    X(DEQUANT, "dequant_unit")                   \
    X(REQUANT, "requantizer")                    \
    X(OVERHEAD, "control_wiring")

typedef enum {
#define MXSIM_COMP_ENUM_(sym, name) MXSIM_COMP_##sym,
    MXSIM_COMPONENT_LIST(MXSIM_COMP_ENUM_)
#undef MXSIM_COMP_ENUM_
    MXSIM_COMP_COUNT_
} mxsim_component;

/* "multipliers", ...; NULL if out of range. */
MXSIM_API const char *mxsim_component_name(mxsim_component c);

/* One row of the constants table (static storage). */
typedef struct {
    const char *key;        /* "mult8.energy" */
    const char *component;  /* a mxsim_component_name() */
    const char *what;       /* "int8 x int8 multiply" */
    const char *unit;       /* "pJ", "pJ/bit", "um2", "um2/bit", "uW", "mW/KiB", ... */
    double value, low, high; /* nominal and band (low <= value <= high) */
    int node_nm;            /* node of the source data (40 nm Aladdin/CACTI are used as 45 nm) */
    double vdd_v;           /* supply of the source data, 0 if not stated */
    const char *source;     /* key + locator: "HOR14 ISSCC'14 Fig. 1.1.9 (45 nm)" */
    const char *confidence; /* "A" primary/tool data, "B" secondary copies, "C" derived/rule */
    const char *derivation; /* how value and band were obtained */
    const char *refs;       /* space-separated mxsim_cost_ref keys: "HOR14 ALADDIN40" */
} mxsim_cost_const;

/* One citation of the cost model (static storage): key ("HOR14"), where the references document
** describes it ("sim/doc/references.md#hor14") and the full citation (authors, title, venue,
** year, DOI where there is one). */
typedef struct {
    const char *key, *anchor, *citation;
} mxsim_cost_ref;

MXSIM_API int mxsim_cost_ref_count(void);
MXSIM_API const mxsim_cost_ref *mxsim_cost_ref_at(int i);         /* NULL if out of range */
MXSIM_API const mxsim_cost_ref *mxsim_cost_ref_find(const char *key); /* NULL if unknown */

MXSIM_API int mxsim_cost_const_count(void);
MXSIM_API const mxsim_cost_const *mxsim_cost_const_at(int i); /* NULL if out of range */
/* Looks a constant up by key; an unknown key is MXSIM_E_INPUT naming it (never a silent 0). */
MXSIM_API mxsim_status mxsim_cost_const_find(mxsim_ctx *ctx, const char *key,
                                             const mxsim_cost_const **out);

/* Cost-model parameters (not accelerator configuration: they describe the technology). */
typedef struct mxsim_cost_params_s {
    size_t struct_size;     /* sizeof(mxsim_cost_params), set by mxsim_cost_params_default */
    int node_nm;            /* 65, 45 (default), 32, 22 (interpolated), 20, 16, 14, 7 */
    double vdd_v;           /* 0: the node's default (65: 1.1 V, 45/32/22/20: 0.9 V, 16/14: 0.8 V, 7: 0.7 V) */
    double overhead_factor; /* control, wiring, clock: on-chip area and energy x factor; 1.0
                               (default) adds nothing.  An assumption, not a sourced number. */
    int64_t sram_bank_kib;  /* SRAM macro size for energy per access (default 32 KiB; a buffer
                               smaller than that is one macro).  Assumption, stated in reports. */
} mxsim_cost_params;

MXSIM_API void mxsim_cost_params_default(mxsim_cost_params *p);

/* Stillmaker & Baas 2017 factors from the 45 nm / 0.9 V anchor to (node, Vdd). */
typedef struct {
    int node_nm;
    double vdd_v;
    double area_factor;      /* logic area */
    double energy_factor;    /* dynamic energy; also used for leakage power */
    double sram_area_factor; /* 6T bitcell area ratio (WikiChip/Intel table) */
} mxsim_node_scale;

/* Unknown nodes, a Vdd outside 0.5..1.2 V, or one below the node fit's minimum (where its energy
** would rise as the supply falls: 65 nm below 0.586 V) are MXSIM_E_INPUT. */
MXSIM_API mxsim_status mxsim_node_scaling(mxsim_ctx *ctx, int node_nm, double vdd_v,
                                          mxsim_node_scale *out);

typedef struct {
    double instances[MXSIM_COMP_COUNT_];              /* units (SRAM: KiB; DRAM: 0) */
    double um2[MXSIM_N_BANDS][MXSIM_COMP_COUNT_];     /* area per component at the node */
    double leak_uw[MXSIM_N_BANDS][MXSIM_COMP_COUNT_]; /* leakage power per component */
    double total_mm2[MXSIM_N_BANDS];
    double leak_total_mw[MXSIM_N_BANDS];
    mxsim_node_scale scale;
} mxsim_area;

/* Area and leakage of the accelerator described by cfg. */
MXSIM_API mxsim_status mxsim_cost_area(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                       const mxsim_cost_params *p, mxsim_area *out);

/* The two MX datapath blocks the area model builds the array from, as sums of parts
** (sim/doc/energy-area.md section 1.1; the parts follow rtl/src and rtl/scripts/pe_decompose.sh):
** one processing element and one shared-exponent unit (serving cfg's PEs per unit, with its
** accumulators, latency stages and arbiter FIFO).  um2 per block at the configured node, before
** overhead_factor; mxsim_cost_area's components are these blocks times their instance counts. */
#define MXSIM_PE_PART_LIST(X)                                                            \
    X(MULT, "multipliers")              /* L int8 x int8 multipliers */                   \
    X(TREE, "adder_tree")               /* L - 1 adders of 16 + ceil(log2 L) bits */       \
    X(GSUM, "group_sum_adder_select")   /* DW-bit group-sum adder + first-beat select */  \
    X(REGS, "registers")                /* operands, scales, group sum, valid/token bits */
#define MXSIM_EU_PART_LIST(X)                                                            \
    X(TERM_FRONT, "term_front")         /* scale-exponent adder, |d| */                   \
    X(TERM_ROUND, "term_rounder")       /* normalise d and round to binary32 */           \
    X(ADD_FRONT, "fp32_add_front")      /* compare, swap, exponent difference, align, add */ \
    X(ADD_ROUND, "fp32_add_rounder")    /* normalise the sum and round to binary32 */     \
    X(REGS, "registers")                /* accumulators, latency stages, FIFO entries */  \
    X(PORT_MUX, "port_muxes")           /* FIFO bypass, port select, accumulator select */
typedef enum {
#define MXSIM_PE_ENUM_(sym, name) MXSIM_PE_##sym,
    MXSIM_PE_PART_LIST(MXSIM_PE_ENUM_)
#undef MXSIM_PE_ENUM_
    MXSIM_PE_PART_COUNT_
} mxsim_pe_part;
typedef enum {
#define MXSIM_EU_ENUM_(sym, name) MXSIM_EU_##sym,
    MXSIM_EU_PART_LIST(MXSIM_EU_ENUM_)
#undef MXSIM_EU_ENUM_
    MXSIM_EU_PART_COUNT_
} mxsim_eu_part;
typedef struct {
    double pe_um2[MXSIM_N_BANDS][MXSIM_PE_PART_COUNT_]; /* one PE */
    double eu_um2[MXSIM_N_BANDS][MXSIM_EU_PART_COUNT_]; /* one exponent unit (0 for int8 operands) */
    double pe_total_um2[MXSIM_N_BANDS];
    double eu_total_um2[MXSIM_N_BANDS];
    double n_pe, n_eu;                 /* instances in the array */
    double pe_reg_bits, eu_reg_bits;   /* register bits per block */
    mxsim_node_scale scale;
} mxsim_blocks;

/* The PE and exponent-unit blocks of cfg (fp32 accumulation; the exact mode's 640-bit path has no
** RTL and is not split: MXSIM_E_INPUT).  Part names: mxsim_pe_part_name, mxsim_eu_part_name. */
MXSIM_API mxsim_status mxsim_cost_blocks(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                         const mxsim_cost_params *p, mxsim_blocks *out);
MXSIM_API const char *mxsim_pe_part_name(int part);
MXSIM_API const char *mxsim_eu_part_name(int part);

typedef struct {
    double events[MXSIM_COMP_COUNT_];             /* main event count per component */
    double dyn_pj[MXSIM_N_BANDS][MXSIM_COMP_COUNT_];
    double leak_pj[MXSIM_N_BANDS][MXSIM_COMP_COUNT_];
    double total_pj[MXSIM_N_BANDS];
    double pj_per_mac[MXSIM_N_BANDS];             /* total / n_macs (0 if no MACs) */
    double tops_per_w[MXSIM_N_BANDS];             /* 2 n_macs / total energy / 1e12 */
    double tops_per_mm2[MXSIM_N_BANDS];           /* st->tops / area (same band) */
} mxsim_energy;

/* The area breakdown as a table: one row per component and a total (instances, area_mm2 with its
** low/high band, share_pct, leakage_mw); JSON metadata node_nm, vdd_v, overhead_factor. */
MXSIM_API mxsim_status mxsim_cost_area_table(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                             const mxsim_cost_params *p, mxsim_table **out);
/* The constants table (key, component, what, unit, value, low, high, vdd_v, node_nm, source,
** confidence, refs, derivation). */
MXSIM_API mxsim_status mxsim_cost_const_table(mxsim_ctx *ctx, mxsim_table **out);
/* The citations of the cost model (key, anchor, citation). */
MXSIM_API mxsim_status mxsim_cost_ref_table(mxsim_ctx *ctx, mxsim_table **out);
/* The constants as the Markdown document sim/doc/energy-area.md embeds: the table, the citation
** list and, sc non-NULL, the node-scaling line.  *text is malloc'd (mxsim_free). */
MXSIM_API mxsim_status mxsim_cost_constants_md(mxsim_ctx *ctx, const mxsim_node_scale *sc, char **text, size_t *len);

/* Energy of the work counted in *st on cfg (area from mxsim_cost_area, for leakage and
** TOPS/mm2).  Counts may be an op's or a sum (mxsim_tstats_add). */
MXSIM_API mxsim_status mxsim_cost_energy(mxsim_ctx *ctx, const mxsim_tconfig *cfg,
                                         const mxsim_cost_params *p, const mxsim_area *area,
                                         const mxsim_tstats *st, mxsim_energy *out);

/* ---------------------------------------------------------------------------------------------
** Accuracy: the error an MXINT8 format causes on one op, measured with the bit-exact functional
** model (mxsim_mx_quantize + mxsim_gemm) against a float64 computation on the same float32
** data (sim/doc/sweeps.md).  Synthetic data by default: weights N(0, 0.02^2); activations N(0,1)
** with 1 channel in 32 an outlier channel scaled by 10^U(1,2) (10x..100x), all seeded by
** (seed, op name, row).  A GEMM measures at most sample_rows x sample_cols outputs (rows of A and
** of B picked evenly, full K); quantize/dequant ops measure sample_rows rows of all n. */
typedef struct {
    size_t struct_size;     /* sizeof(mxsim_accuracy_opts), set by mxsim_accuracy_opts_default */
    int32_t profile;        /* mxsim_profile, default OCP */
    int32_t acc;            /* mxsim_acc, default FP32 */
    int64_t group_size;     /* G (default 32), 1..MXSIM_MAX_GROUP; a K (GEMM) or n it does not
                               divide is padded with zeros to whole groups, as mxsim run times it */
    int64_t sample_rows;    /* default 64; 0 = all */
    int64_t sample_cols;    /* default 64; 0 = all */
    uint64_t seed;          /* default 1 */
    const char *data_dir;   /* NULL: synthetic.  Else DIR/NAME.a.npy [*,K] and DIR/NAME.b.npy
                               [*,K] (float32, B as a linear layer's weight) for a GEMM, DIR/NAME.npy
                               [*,n] for quantize/dequant; an op without files is synthetic. */
} mxsim_accuracy_opts;

typedef struct {
    double sqnr_db;     /* 10 log10(sum ref^2 / sum err^2); +Inf if no error.  Overall (sum of
                           ops): -10 log10(mean over ops of err/ref energy), ops weighted equally */
    double max_rel_err; /* max |y - ref| / |ref| over ref != 0 (overall: max over ops) */
    double nsr_sum;     /* sum over ops of err/ref energy (for the overall figure) */
    int64_t n_ops;
    int64_t rows, cols; /* outputs measured (rows x cols) */
    int sampled;        /* 1: fewer rows or cols than the op has */
    int from_file;      /* 1: data read from data_dir */
} mxsim_accuracy;

MXSIM_API void mxsim_accuracy_opts_default(mxsim_accuracy_opts *o);
MXSIM_API mxsim_status mxsim_accuracy_op(mxsim_ctx *ctx, const mxsim_top *op,
                                         const mxsim_accuracy_opts *o, mxsim_accuracy *out);
/* Adds op result s into the overall figure *acc (start from a zeroed struct). */
MXSIM_API void mxsim_accuracy_add(mxsim_accuracy *acc, const mxsim_accuracy *s);

/* ---------------------------------------------------------------------------------------------
** Sweeps: the cartesian product of configuration axes over one trace, run over threads; the
** results do not depend on the thread count.  Point i enumerates axes in the order they were
** added, the first varying slowest. */
#define MXSIM_SWEEP_MAX_AXES 16
#define MXSIM_SWEEP_MAX_VALUES 256

typedef struct mxsim_sweep mxsim_sweep;

typedef struct {
    size_t struct_size;        /* sizeof(mxsim_sweep_opts), set by mxsim_sweep_opts_default */
    unsigned n_threads;        /* 0 = all online CPUs */
    int accuracy;              /* 1 (default): measure accuracy per distinct numerics */
    mxsim_accuracy_opts acc;   /* sampling, seed, data_dir (profile, G, acc come per point) */
    mxsim_cost_params cost;
    int strict_group;          /* 0 (default): an op whose K (or n) G does not divide is padded with
                                  zeros to whole groups, as mxsim run does, reported per op (ops_padded);
                                  1: the point fails */
    int32_t profile;           /* mxsim_profile when no "numerics.profile" axis (default OCP) */
    /* Called after each finished job, from worker threads, serialised by the sweep's lock. */
    void (*progress)(void *user, int64_t done, int64_t total);
    void *progress_user;
} mxsim_sweep_opts;

typedef struct {
    int32_t status;        /* mxsim_status: MXSIM_OK, or why this point failed (err) */
    char err[256];
    const char *values[MXSIM_SWEEP_MAX_AXES]; /* this point's value on each axis (owned by the
                                                 sweep: valid until mxsim_sweep_free) */
    mxsim_tconfig cfg;
    int32_t profile;       /* mxsim_profile */
    int64_t n_ops;
    const mxsim_tstats *op_stats;    /* [n_ops], in trace order */
    const mxsim_energy *op_energy;   /* [n_ops] */
    const mxsim_accuracy *op_acc;    /* [n_ops] (zeroed when accuracy is off) */
    const int64_t *op_group;         /* [n_ops] group size each op ran with */
    mxsim_tstats total;
    mxsim_area area;
    mxsim_energy energy;
    mxsim_accuracy acc;              /* overall */
} mxsim_sweep_point;

/* Also fills o->acc and o->cost with their defaults. */
MXSIM_API void mxsim_sweep_opts_default(mxsim_sweep_opts *o);
/* Copies *base (the configuration every point starts from). */
MXSIM_API mxsim_status mxsim_sweep_create(mxsim_ctx *ctx, const mxsim_tconfig *base,
                                          mxsim_sweep **out);
MXSIM_API void mxsim_sweep_free(mxsim_sweep *sw); /* NULL ok */
/* Adds an axis: key is a configuration field ("mx.group_size"), "array.size" (rows = cols) or
** "numerics.profile"; values a comma list, each checked against the field.  Duplicate keys,
** axes that set the same field ("array.size" sets array.rows and array.cols), empty or repeated
** values, more than MXSIM_SWEEP_MAX_VALUES and a point whose configuration is invalid (every
** point is validated as the axis is added, e.g. the 2^22-PE limit) are MXSIM_E_INPUT. */
/* The configuration field that axes key_a and key_b both set ("array.size" sets array.rows and
** array.cols), or NULL when none: the rule mxsim_sweep_add_axis refuses overlaps by.  The returned
** string is static or key_a. */
MXSIM_API const char *mxsim_sweep_axes_overlap(const char *key_a, const char *key_b);
MXSIM_API mxsim_status mxsim_sweep_add_axis(mxsim_ctx *ctx, mxsim_sweep *sw, const char *key,
                                            const char *values);
MXSIM_API int mxsim_sweep_axis_count(const mxsim_sweep *sw);
/* Key of an axis (NULL if out of range); valid until mxsim_sweep_free(sw). */
MXSIM_API const char *mxsim_sweep_axis_key(const mxsim_sweep *sw, int axis);
/* Axis a's value type ("int", "real", "enum" or "text"; a bool field is "int"), its unit ("" if
** none), and its values in canonical spelling (as mxsim_tconfig_format writes them); NULL or 0
** if out of range. */
MXSIM_API const char *mxsim_sweep_axis_type(const mxsim_sweep *sw, int axis);
MXSIM_API const char *mxsim_sweep_axis_unit(const mxsim_sweep *sw, int axis);
MXSIM_API int mxsim_sweep_axis_value_count(const mxsim_sweep *sw, int axis);
MXSIM_API const char *mxsim_sweep_axis_value(const mxsim_sweep *sw, int axis, int v);
MXSIM_API int64_t mxsim_sweep_point_count(const mxsim_sweep *sw);
/* The configuration every point starts from (NULL if sw is NULL). */
MXSIM_API const mxsim_tconfig *mxsim_sweep_base(const mxsim_sweep *sw);
/* Runs every point on trace tr.  Fails only on a global fault (memory, bad arguments) or on
** cancellation (ctx's hook, polled before each point and accuracy job: MXSIM_E_CANCELLED, no
** results kept); a point whose configuration is invalid records its own status and message. */
MXSIM_API mxsim_status mxsim_sweep_run(mxsim_ctx *ctx, mxsim_sweep *sw, const mxsim_trace *tr,
                                       const mxsim_sweep_opts *o);
/* Point i after a run (NULL if out of range or not run).  The point and the op_* arrays it
** points to are valid until the next mxsim_sweep_run on sw or mxsim_sweep_free(sw). */
MXSIM_API const mxsim_sweep_point *mxsim_sweep_point_at(const mxsim_sweep *sw, int64_t i);

/* What produced a sweep's results, for its outputs. */
typedef struct {
    const char *trace_path;        /* as the user named it (NULL: the trace's source) */
    const char *config_path;       /* NULL: the defaults */
    const mxsim_sweep_opts *opts;  /* the options the sweep ran with */
} mxsim_sweep_info;

/* The results as one table: per point (in order) one row per op and a TOTAL row, or only the
** TOTAL rows (totals_only = 1, the terminal form).  Columns: point, one per axis named by its key
** (typed: int, real or text), profile, status, op, kind, m, n, k, repeat, group_eff,
** ops_other_group and group_note (ops that ran at another G than the point's, and why), every
** statistic of MXSIM_TSTATS_FIELDS, area/energy/accuracy, then e_<component>_mj and
** a_<component>_mm2.  A failed point's numbers are empty (status says why); an ok row has a number
** in every numeric column (0 where a dimension does not apply, NaN for accuracy when it is off).
** JSON metadata: format, version, mxsim_version, trace, n_ops, config, points and settings (the
** object mxsim_sweep_meta_json gives: axes, base configuration, cost and accuracy settings). */
MXSIM_API mxsim_status mxsim_sweep_table(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                         const mxsim_sweep_info *info, int totals_only, mxsim_table **out);
/* The sidecar of a sweep CSV (sim/doc/sweeps.md): {"format": "mxsim-sweep", "version": 2,
** "mxsim_version", "trace", "n_ops", "config", "points", "axes": [{"key", "type", "unit",
** "values"}], "base": {every configuration field, typed}, "cost": {...}, "accuracy": {...},
** "group_policy", "columns": [{"name", "type", "unit", "doc"}]} describing table t.  *text is
** malloc'd (mxsim_free). */
MXSIM_API mxsim_status mxsim_sweep_meta_json(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                             const mxsim_sweep_info *info, const mxsim_table *t,
                                             char **text, size_t *len);
/* Writes the results to path in format f (table and md: the totals).  CSV to a file also writes
** the sidecar DIR/NAME.meta.json for DIR/NAME.csv; both or neither (all or nothing). */
MXSIM_API mxsim_status mxsim_sweep_save(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                        const mxsim_sweep_info *info, mxsim_output_format f, const char *path);

/* Sharded sweeps (sim/doc/sweeps.md, "Sharded sweeps").  Slice index of count (0 <= index <
** count) is the points [floor(index*P/count), floor((index+1)*P/count)): deterministic and
** balanced.  After mxsim_sweep_set_shard, mxsim_sweep_run runs only that slice,
** mxsim_sweep_point_at returns NULL outside it and mxsim_sweep_table/save refuse (MXSIM_E_ARG):
** the slice is written with mxsim_sweep_save_part, and mxsim_sweep_merge joins the parts of all
** count slices into exactly the bytes mxsim_sweep_save writes for the unsharded sweep.  count 0
** (the default) is the whole sweep.  Setting a shard discards earlier results. */
MXSIM_API mxsim_status mxsim_sweep_set_shard(mxsim_ctx *ctx, mxsim_sweep *sw, int64_t index, int64_t count);
/* The shard settings and its slice [*first, *end); any pointer may be NULL. */
MXSIM_API void mxsim_sweep_shard(const mxsim_sweep *sw, int64_t *index, int64_t *count, int64_t *first,
                                 int64_t *end);
/* Writes the results of a sharded run as a part file (binary; atomically): the sweep's identity
** (library version, trace ops, base configuration, axes, options except threads, paths) and
** the slice's points, exactly.  Parts are read only by the same mxsim version. */
MXSIM_API mxsim_status mxsim_sweep_save_part(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                             const mxsim_sweep_info *info, const char *path);
/* Joins parts[0..n-1] (any order) and writes the sweep to path in format f as mxsim_sweep_save
** does (CSV: with its sidecar).  MXSIM_E_INPUT naming the file: a part of another sweep (or
** another mxsim version), two parts of the same slice, a missing slice, a truncated part.
** *n_failed (may be NULL) receives the number of points whose status is not MXSIM_OK. */
MXSIM_API mxsim_status mxsim_sweep_merge(mxsim_ctx *ctx, const char *const *parts, int n,
                                         mxsim_output_format f, const char *path, int64_t *n_failed);

/* ---------------------------------------------------------------------------------------------
** An analytical model of an NVIDIA Hopper GPU running mxsim's CUDA kernels (kernels/src) and
** the cuBLAS baselines, checked against measured times (reports/gpu/<card>/bench.csv); built
** with -DMXSIM_WITH_GPUMODEL=ON.  sim/doc/gpu-model.md gives every term.  A card is plain
** data (workloads/gpus/<card>.ini): datasheet values, values measured on the card (marked,
** with their file) and the few calibrated on the training half of the measured points. */

/* Card parameters: one set per card, never per shape. */
typedef struct {
    char name[32];
    /* datasheet / whitepaper */
    double n_sm, issue_per_sm_clk, tc_int8_dense_tops, tc_bf16_dense_tflops, hbm_bw_gbs;
    double l2_bytes, smem_per_sm_bytes, regs_per_sm, cvt_per_sm_clk, tdp_w, die_mm2;
    /* measured on the card (reports/gpu/...) */
    double sm_clock_mhz, copy_bw_gbs, cublas_bf16_tflops, cublaslt_int8_tops, warp_stall_cyc;
    /* calibrated on the training half (mxsim_gpu_calibrate) */
    double launch_us, cublas_call_us, cublaslt_call_us, launch_gap_us, stream_overlap_loss;
    double tile_kstep_ovh_instr, gemv_term_instr, gemv_round_ovh_instr;
} mxsim_gpu_card;

/* One card field's description (static storage): kind is "datasheet", "measured" or
** "calibrated"; unit like "us", "GB/s". */
typedef struct {
    const char *key, *kind, *unit, *doc;
} mxsim_gpu_field;
MXSIM_API int mxsim_gpu_field_count(void);
MXSIM_API const mxsim_gpu_field *mxsim_gpu_field_at(int i); /* NULL if out of range */
MXSIM_API double mxsim_gpu_card_get(const mxsim_gpu_card *c, int i);
/* Reads an INI card (`key = value`, `#`/`;` comments, each key in its section: [datasheet],
** [measured], [calibrated]; sim/doc/gpu-model.md section 2.1).  Every field is required; unknown
** keys or sections, duplicates, a key outside its section, counts that are not whole numbers in
** range and reals that are not finite and in range are MXSIM_E_INPUT (file:line, field). */
MXSIM_API mxsim_status mxsim_gpu_card_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_card *c);

typedef enum {
    MXSIM_GK_COPY = 0,          /* cudaMemcpy D2D of m bytes */
    MXSIM_GK_DEQUANT_OCP = 1,   /* mxk_dequantize_bf16 ocp, m elements */
    MXSIM_GK_DEQUANT_MASE = 2,  /* mxk_dequantize_bf16 mase-cuda */
    MXSIM_GK_QUANTIZE_F32 = 3,  /* mxk_quantize_ocp, float32 in, m elements */
    MXSIM_GK_QUANTIZE_BF16 = 4, /* bf16 in */
    MXSIM_GK_MXK_GEMM = 5,      /* mxk_gemm, cfg 0..6 (0: the routing of kernels/src/gemm_mma.cu) */
    MXSIM_GK_CUBLAS_BF16 = 6,   /* cublasGemmEx bf16 in/out, fp32 compute */
    MXSIM_GK_CUBLASLT_INT8 = 7, /* cublasLtMatmul int8 in, int32 out */
    MXSIM_GK_DEQUANT_CUBLAS = 8 /* dequantize A and B (ocp), then cuBLAS bf16 */
} mxsim_gpu_kernel;

typedef struct {
    int32_t kernel;     /* mxsim_gpu_kernel */
    int32_t cfg;        /* MXSIM_GK_MXK_GEMM: 0..6 */
    int64_t m, n, k, g; /* GEMM C[m,n] = A[m,k] B[n,k]^T; element ops: m elements, group g */
} mxsim_gpu_op;

typedef struct {
    double time_us;             /* predicted, launch included */
    double launch_us;           /* launch / call overhead part */
    double mem_us;              /* DRAM traffic at the card's copy bandwidth */
    double issue_us;            /* instruction issue (CUDA cores), incl. the per-group scaling */
    double scale_us;            /* the per-group scaling part of issue_us */
    double tc_us;               /* tensor-core time (cuBLAS at its measured peak) */
    double dram_bytes, waves, instr_per_warp;
    int32_t cfg_used;           /* mxk GEMM: the kernel config actually modelled (1..6) */
    char bound[16];             /* "memory", "issue", "latency", "tensor", "launch" */
} mxsim_gpu_pred;

/* Kernel name of bench.csv (e.g. "mxk-gemm-mxint8-cfg5", "dequant+cublas-bf16") -> op kernel
** and cfg; unknown names are MXSIM_E_INPUT. */
MXSIM_API mxsim_status mxsim_gpu_method_parse(mxsim_ctx *ctx, const char *method, mxsim_gpu_op *op);
/* Predicts op on card.  Bad dims (< 1, g not dividing k) are MXSIM_E_INPUT naming the field. */
MXSIM_API mxsim_status mxsim_gpu_predict(mxsim_ctx *ctx, const mxsim_gpu_card *card,
                                         const mxsim_gpu_op *op, mxsim_gpu_pred *out);

/* Measured points (a bench.csv) and their comparison with the model. */
typedef struct {
    char shape[32], method[48];
    mxsim_gpu_op op;
    double measured_us, predicted_us, err_pct; /* err = (pred - meas) / meas */
    int32_t split;     /* 0 training, 1 held-out, 2 reference (defines a measured card value;
                       ** not scored).  The rule is in sim/doc/gpu-model.md */
    mxsim_gpu_pred pred;
} mxsim_gpu_point;
typedef struct mxsim_gpu_bench mxsim_gpu_bench;
/* Loads bench.csv (header card,shape,M,N,K,G,method,median_us,...) and assigns each point its
** split (training, held-out or reference) by the rule documented in sim/doc/gpu-model.md. */
MXSIM_API mxsim_status mxsim_gpu_bench_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_bench **out);
MXSIM_API void mxsim_gpu_bench_free(mxsim_gpu_bench *b); /* NULL ok */
MXSIM_API int64_t mxsim_gpu_bench_count(const mxsim_gpu_bench *b);
/* Point i (NULL if out of range) and the card name ("NVIDIA H200"): both valid until
** mxsim_gpu_bench_free(b); mxsim_gpu_compare/calibrate/swap_split update points in place. */
MXSIM_API const mxsim_gpu_point *mxsim_gpu_bench_point(const mxsim_gpu_bench *b, int64_t i);
MXSIM_API const char *mxsim_gpu_bench_card(const mxsim_gpu_bench *b);
/* Swaps the training and held-out halves (to check the model the other way round). */
MXSIM_API void mxsim_gpu_bench_swap_split(mxsim_gpu_bench *b);

typedef struct {
    int64_t n[3];       /* scored points: [0] training, [1] held-out, [2] both */
    double mape_pct[3]; /* mean |err| */
    double max_abs_err_pct[3];
    double pearson_r[3]; /* of log(predicted) vs log(measured) */
} mxsim_gpu_summary;
/* Predicts every point of b on card (filling predicted_us, err_pct, pred) and summarises. */
MXSIM_API mxsim_status mxsim_gpu_compare(mxsim_ctx *ctx, const mxsim_gpu_card *card,
                                         mxsim_gpu_bench *b, mxsim_gpu_summary *out);
/* Fits the card's "calibrated" fields to minimise the MAPE of the TRAINING points only
** (deterministic coordinate descent from the current values), then calls mxsim_gpu_compare. */
MXSIM_API mxsim_status mxsim_gpu_calibrate(mxsim_ctx *ctx, mxsim_gpu_card *card, mxsim_gpu_bench *b,
                                           mxsim_gpu_summary *out);

/* The points of b after mxsim_gpu_compare as a table: kernel, shape, M, N, K, G, cfg_used, split,
** measured_us, predicted_us, err_pct, bound, waves, launch_us, mem_us, issue_us, scale_us, tc_us,
** dram_bytes, instr_per_warp (its CSV form is compare-gpu's comparison.csv). */
MXSIM_API mxsim_status mxsim_gpu_bench_table(mxsim_ctx *ctx, const mxsim_gpu_bench *b, mxsim_table **out);
/* Writes DIR/comparison.csv, comparison.md (summary, worst outliers, every point), scatter.svg
** (predicted vs measured, log axes) and, with_card = 1, card.ini (the card's fields, e.g. after
** mxsim_gpu_calibrate) all or nothing; DIR must exist.  card_file and bench_file are named in the
** Markdown. */
MXSIM_API mxsim_status mxsim_gpu_report_save(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_gpu_bench *b,
                                             const mxsim_gpu_summary *s, const char *card_file,
                                             const char *bench_file, int with_card, const char *dir);

/* The accelerator of cfg next to the GPU model on every op of tr (needs the timing engine and the
** cost model): op, kind, m, n, k, group_size, repeat, accel_us, accel_tops, accel_energy_uj,
** accel_tops_per_w, accel_tops_per_mm2, gpu_kernel, gpu_cfg, gpu_model_us, gpu_model_tops,
** gpu_bound, gpu_measured_us (from bench b when it has the same op; b may be NULL),
** cublas_bf16_model_us, cublas_bf16_measured_us, gpu_tops_per_w_at_tdp, gpu_tops_per_mm2,
** speedup_accel_vs_gpu_model, accel_node_nm, accel_vdd_v; a TOTAL row. */
MXSIM_API mxsim_status mxsim_gpu_accel_table(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_tconfig *cfg,
                                             const mxsim_trace *tr, const mxsim_gpu_bench *b, mxsim_table **out);
/* The same, costing the accelerator with cost (NULL: mxsim_cost_params_default, 45 nm / 0.9 V);
** every row carries accel_node_nm and accel_vdd_v (the supply the node resolves to).  A node or
** supply the cost model has no data for is MXSIM_E_INPUT (mxsim_node_scaling). */
MXSIM_API mxsim_status mxsim_gpu_accel_table_cost(mxsim_ctx *ctx, const mxsim_gpu_card *card, const mxsim_tconfig *cfg,
                                                  const mxsim_cost_params *cost, const mxsim_trace *tr,
                                                  const mxsim_gpu_bench *b, mxsim_table **out);


/* ---- The cross-card GPU model (issue 16; sim/doc/gpu-model.md section 6) -----------------------
** Calibrated on ONE card's bench.csv (or the per-row median of several runs of it), it predicts
** another card from that card's datasheet values only.  A kernel class per bench method
** (mxsim_gpu_xclass_of); time = L + Dser + max(C, D) + ov min(C, D), C = a[G] W + b[G] S,
** D = bytes / (hbm x mem_eff x rho). */
enum {
    MXSIM_GX_COPY = 0, MXSIM_GX_DEQUANT, MXSIM_GX_CUBLAS_BF16, MXSIM_GX_CUBLASLT_INT8, MXSIM_GX_DEQUANT_CUBLAS,
    MXSIM_GX_CFG5, MXSIM_GX_CFG3, MXSIM_GX_GEMV, MXSIM_GX_WGMMA, MXSIM_GX_DECODE, MXSIM_GX_DECODE1, MXSIM_GX_BF16,
    MXSIM_GX_DECODE_ROW,
    MXSIM_GX_NCLASS
};
/* MXSIM_GX_DECODE is the streaming decode kernel (mxk_gemm cfg 9 since decode2), MXSIM_GX_DECODE1
** the first decode kernel (cfg 10 now; cfg 9 in builds before decode2): the same model structure,
** each its own calibrated fields.  MXSIM_GX_BF16 is the Hopper kernel on the bf16 path (cfg 11,
** since final5; cfg 0 takes it at G = 32 on the Hopper kernel's shapes).  MXSIM_GX_DECODE_ROW is the
** M = 1 row kernel (cfg 12, since final8; cfg 0 takes it at M = 1 with G >= 64), modelled with the
** decode structure.  The build of the kernels a bench ran (which kernel a method name means there): */
enum {
    MXSIM_GX_BUILD_CURRENT = 0, /* kernels/src/gemm_mma.cu as it is now (cfg 9 streaming, cfg 10 first decode, cfg 12 row) */
    MXSIM_GX_BUILD_DECODE1 = 1, /* before decode2: cfg 9 = the first decode kernel, no cfg 10, the old cfg 0 rule */
    MXSIM_GX_BUILD_PREBF16 = 2, /* decode2 up to final4: as final5-7, but no cfg 11 (cfg 0 took cfg 8 at G = 32) */
    MXSIM_GX_BUILD_PREROW = 3,  /* final5 up to final7: as now, but no cfg 12 (cfg 0 took cfg 9 at M = 1, G >= 64) */
    MXSIM_GX_NBUILD
};
/* Datasheet values of a card (workloads/gpus/<card>-xcard.ini [datasheet]). */
typedef struct {
    double n_sm, clock_mhz, int8_tops, bf16_tflops, hbm_gbs;
    double l2_mb; /* L2 cache, MB (1e6 bytes); 0: no L2 reuse modelled */
} mxsim_gpu_xsheet;
typedef struct {
    double L, rho;              /* us; DRAM bytes per second relative to the copy */
    double b[3], ov, a[3];      /* us per tile per SM, overlap loss, work factor; [G = 32, 64, 128] */
} mxsim_gpu_xclass_params;
typedef struct {
    double mem_eff; /* copy bytes per second / datasheet HBM bandwidth */
    mxsim_gpu_xclass_params cls[MXSIM_GX_NCLASS];
    /* us: no op takes less than one launch of an empty kernel timed as the bench times (every
    ** class's time is max(model, this)); 0: no floor.  mxsim_gpu_xcalibrate leaves it 0: it comes
    ** from the calibration card's launch_probe runs (mxsim_gpu_xlaunch_floor) */
    double launch_floor_us;
} mxsim_gpu_xparams;
typedef struct {
    int n, cls_n[MXSIM_GX_NCLASS];
    double mape, max_abs, cls_mape[MXSIM_GX_NCLASS]; /* fractions */
    int uncalibrated; /* rows of a class p was not calibrated on (no row of it on that card): not scored */
} mxsim_gpu_xscore;
typedef struct {
    int cls;
    int64_t M, N, K, G;
    double measured_us, model_us;
    const char *method; /* the bench's method name; valid while the bench lives */
} mxsim_gpu_xrow;
typedef struct mxsim_gpu_xbench mxsim_gpu_xbench;
MXSIM_API const char *mxsim_gpu_xclass_name(int cls); /* static storage; NULL out of range */
/* The calibrated fields of a class (the one table of them: the card-file reader and writer use it):
** MXSIM_GX_NPARAM per class, named CLASS.NAME in a card file; a class has only those it uses
** (mxsim_gpu_xparam_used), all of them calibrated or none. */
#define MXSIM_GX_NPARAM 9
MXSIM_API const char *mxsim_gpu_xparam_name(int k);         /* "L_us", "rho", ..., "a128"; NULL out of range */
MXSIM_API int mxsim_gpu_xparam_used(int cls, int k);         /* 1 if class cls has field k */
MXSIM_API double *mxsim_gpu_xparam_field(mxsim_gpu_xparams *p, int cls, int k); /* its storage in p; NULL out of range */
/* Reads a card file (workloads/gpus/<card>-xcard.ini, sim/doc/gpu-model.md section 6.1): its name
** (name_size bytes at most, with the NUL), the [datasheet] values into sheet, and when cal is not
** NULL the [calibrated on CARD] fields into cal (*n_cal = how many; the fields a class does not use
** get its neutral values, an uncalibrated class a[0] = 0).  MXSIM_E_INPUT "PATH:LINE: ..." for a
** malformed file: unknown or duplicate key, a key in the wrong section, a value out of range or not
** decimal, a missing datasheet value or name, a datasheet whose values disagree (the clock the bf16
** peak implies, int8 twice bf16, GB/s), compute capability other than 9.0, a class with only some
** of its fields. */
MXSIM_API mxsim_status mxsim_gpu_xcard_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xsheet *sheet,
                                           mxsim_gpu_xparams *cal, int *n_cal, char *name, size_t name_size);
/* The class of a bench method in build `build` (MXSIM_GX_BUILD_*): "mxk-gemm-mxint8" routes by
** M, N, K, G as that build's mxk_gemm cfg 0 does, "mxk-gemm-mxint8-cfgN" is kernel N (with its
** fallback where it does not apply: cfg 9 / 10 -> cfg 4); -1 if none (or build unknown). */
MXSIM_API int mxsim_gpu_xclass_of(const char *method, int64_t M, int64_t N, int64_t K, int64_t G, int build);
/* Reads a bench.csv (card,shape,M,N,K,G,method,median_us,...); keeps the modelled rows; the
** first kept row must be the d2d-copy.  _load: a run of the current build; _load_build: of
** build `build` (the classes of its mxk rows follow that build's kernels). */
MXSIM_API mxsim_status mxsim_gpu_xbench_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xbench **out);
MXSIM_API mxsim_status mxsim_gpu_xbench_load_build(mxsim_ctx *ctx, const char *path, int build, mxsim_gpu_xbench **out);
MXSIM_API void mxsim_gpu_xbench_free(mxsim_gpu_xbench *b); /* NULL ok */
MXSIM_API const char *mxsim_gpu_xbench_card(const mxsim_gpu_xbench *b);
MXSIM_API int mxsim_gpu_xbench_count(const mxsim_gpu_xbench *b);
/* Rows of methods the model has no class for (skipped by the loader: ceiling-*, *-unsupported, ...). */
MXSIM_API int mxsim_gpu_xbench_skipped(const mxsim_gpu_xbench *b);
/* The per-row median of n >= 1 runs of one card: a row is identified by (method, M, N, K, G); the
** rows of runs[0] in its order, each the median over the runs that ran the same code (the mean of
** the middle two for an even count): every run of the same build (build[k] == build[0]; build
** NULL: all one build) and, for the library kernels (d2d-copy, cublas-bf16, cublaslt-int8), every
** run.  The calibration's noise treatment (sim/doc/gpu-model.md section 6). */
MXSIM_API mxsim_status mxsim_gpu_xbench_median(mxsim_ctx *ctx, const mxsim_gpu_xbench *const *runs, const int *build,
                                               int n, mxsim_gpu_xbench **out);
/* Row i of a loaded bench (its modelled rows: the d2d-copy row first, wherever the file had it, then the
** others in file order) with the model's prediction on card d with fields p. */
MXSIM_API mxsim_status mxsim_gpu_xbench_row(const mxsim_gpu_xbench *b, int i, const mxsim_gpu_xsheet *d,
                                            const mxsim_gpu_xparams *p, mxsim_gpu_xrow *out);
/* Fits p on bench b of the card with datasheet d (deterministic coordinate descent per class).  A
** class without a row in b is left uncalibrated: all its fields 0 except rho 1 (a[0] == 0 marks
** it; a calibrated class has a[0] > 0: copy and dequant, which have no work factor, keep a = 1); mxsim_gpu_xpredict refuses it (MXSIM_E_UNSUPPORTED), mxsim_gpu_xscore_bench counts its
** rows in `uncalibrated` instead of scoring them, mxsim_gpu_xbench_row gives model_us NaN. */
MXSIM_API mxsim_status mxsim_gpu_xcalibrate(mxsim_ctx *ctx, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d,
                                            mxsim_gpu_xparams *out);
MXSIM_API mxsim_status mxsim_gpu_xscore_bench(mxsim_ctx *ctx, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d,
                                              const mxsim_gpu_xparams *p, mxsim_gpu_xscore *out);
MXSIM_API mxsim_status mxsim_gpu_xpredict(mxsim_ctx *ctx, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p,
                                          const char *method, int64_t M, int64_t N, int64_t K, int64_t G, double *us);
/* The launch floor of a card: the median event_us of the `empty` rows of n >= 1 CSVs of
** kernels/tools/launch_probe.cu (header card,kernel,bytes,smem_bytes,event_us,blocks_span_us,
** outside_us; an empty kernel, one block per SM, timed per launch between two events as mxsim-gpu
** bench times every op); *n_launches (may be NULL): the rows it is the median of; card (card_cap
** bytes): the card column, which must be the same in every row of every file.  MXSIM_E_INPUT
** naming file:line and field for a bad header, row, card or repeated row, or no empty row. */
MXSIM_API mxsim_status mxsim_gpu_xlaunch_floor(mxsim_ctx *ctx, const char *const *paths, int n, double *floor_us,
                                               int *n_launches, char *card, size_t card_cap);

/* Measured board power (a bench_ext.csv of kernels/tools/mxsim_gpu.cu: power_w per row, the mean of
** NVML's instantaneous power over a sustained loop of the op; files before commit debb5a6 hold a
** trailing one-second average instead, sim/doc/gpu-model.md section 7).  _measured: 1 and the row's median time and power when
** (method, M, N, K, G) was measured (G < 0: any G), else 0.  _watts: the power of method at M x N x K (G), linear in
** log(2MNK) between the measured rows of that method (of that G when there are some), clamped at
** the ends; 0 when the method has no row.  _load refuses (file:line, field) what the bench reader
** refuses: no header, an empty or header-only file, two cards, a duplicate row, M N K G not whole
** numbers, a median_us or power_w that is not a positive number. */
typedef struct mxsim_gpu_xpower mxsim_gpu_xpower;
MXSIM_API mxsim_status mxsim_gpu_xpower_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xpower **out);
MXSIM_API void mxsim_gpu_xpower_free(mxsim_gpu_xpower *p); /* NULL ok */
MXSIM_API const char *mxsim_gpu_xpower_card(const mxsim_gpu_xpower *p);
MXSIM_API int mxsim_gpu_xpower_measured(const mxsim_gpu_xpower *p, const char *method, int64_t M, int64_t N, int64_t K,
                                        int64_t G, double *us, double *watts);
MXSIM_API double mxsim_gpu_xpower_watts(const mxsim_gpu_xpower *p, const char *method, int64_t M, int64_t N, int64_t K,
                                        int64_t G);
/* The lowest power_w of any row of p (0 when p is NULL or empty): what an op at the launch floor is
** charged (an almost empty kernel draws less than any measured one; this is an upper estimate). */
MXSIM_API double mxsim_gpu_xpower_min_watts(const mxsim_gpu_xpower *p);
/* The accelerator next to the best GPU implementation per op (compare-gpu --trace --xcard):
** per op the fastest of mxk (cfg 0), cuBLAS bf16 and cuBLASLt int8 among those the op's format
** allows (sim/doc/gpu-model.md section 7), its time (measured when power has the op, else the
** cross-card model of card d/p) and energy at measured power, and for repeated independent problems
** (B a KV cache or an activation) a bound of one batched bf16 launch; a GEMM at the model's launch
** floor is charged the card's lowest measured power; card names the GPU in every row.
** The TOTAL compares the same ops on both sides: time over the ops with a GPU time, energy over the
** GEMMs with a GPU power; its `note` names the ops left out (an op row's note says why it is).  Every
** datasheet value of d must be a positive number and p->mem_eff in (0, 10], else MXSIM_E_INPUT. */
MXSIM_API mxsim_status mxsim_gpu_accel_best_table(mxsim_ctx *ctx, const char *card, const mxsim_gpu_xsheet *d,
                                                  const mxsim_gpu_xparams *p, const mxsim_gpu_xpower *power,
                                                  const mxsim_tconfig *cfg, const mxsim_trace *tr, mxsim_table **out);
/* The same, costing the accelerator with cost (NULL: the defaults), as mxsim_gpu_accel_table_cost. */
MXSIM_API mxsim_status mxsim_gpu_accel_best_table_cost(mxsim_ctx *ctx, const char *card, const mxsim_gpu_xsheet *d,
                                                       const mxsim_gpu_xparams *p, const mxsim_gpu_xpower *power,
                                                       const mxsim_tconfig *cfg, const mxsim_cost_params *cost,
                                                       const mxsim_trace *tr, mxsim_table **out);

#ifdef __cplusplus
}
#endif
#endif /* MXSIM_H */

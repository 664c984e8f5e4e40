/* internal.h - private definitions shared by the library's modules.
**
** Holds the layouts behind the public opaque handles, the error-reporting helper and the
** allocation wrappers.  Nothing here is exported: every cross-file function is MX_INTERNAL
** (hidden visibility) and named mx_<module>_<verb>.
*/
#ifndef MX_INTERNAL_H
#define MX_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "mxsim.h"

#define MX_INTERNAL __attribute__((visibility("hidden")))

/* snprintf, vsnprintf and strtod in the C locale (cnum.c): the library's text never depends on
** the embedder's LC_NUMERIC */
MX_INTERNAL int mx_snprintf(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
MX_INTERNAL int mx_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) __attribute__((format(printf, 3, 0)));
MX_INTERNAL double mx_strtod(const char *s, char **end);

#define MX_ERRMSG_LEN 1024

struct mxsim_ctx {
    char err[MX_ERRMSG_LEN]; /* detail of the last failure */
    char notes[4 * MX_ERRMSG_LEN]; /* mxsim_ctx_notes: lines left by calls, until cleared */
    unsigned n_notes_lost;     /* notes that did not fit */
    unsigned n_threads;      /* 0 = all online CPUs */
    mxsim_simd simd;
    mxsim_cancel_fn cancel; /* polled by long operations; NULL: none */
    void *cancel_user;
    int dash_fd; /* output path "-" writes here; < 0: "-" is a file name */
    /* the tile search's memo of tile times (timing/engine.c), kept between ops: allocating and
    ** freeing ~100 KB per op cost brk calls and page faults; freed with the context */
    void *tile_memo;
    void *tile_heap; /* and its candidate heap (grows only) */
    size_t tile_heap_cap;
    /* mxsim_ctx_set_protect_inputs: the files read so far (device, inode, name); NULL cap 0 = off */
    int protect_inputs;
    struct mx_input { unsigned long long dev, ino; char *path; } *inputs;
    size_t n_inputs, cap_inputs;
};
/* Remember a file just read (fstat/stat result), when ctx protects its inputs; returns 0, or -1 on
** out of memory (the caller fails). */
MX_INTERNAL int mx_note_input(mxsim_ctx *ctx, const char *path, unsigned long long dev, unsigned long long ino);
/* The input path of ctx with this (dev, ino), or NULL. */
MX_INTERNAL const char *mx_input_named(const mxsim_ctx *ctx, unsigned long long dev, unsigned long long ino);
/* Non-zero if ctx's cancellation hook asks to stop (ctx may be NULL). */
static inline int mx_cancelled(const mxsim_ctx *ctx) { return ctx && ctx->cancel && ctx->cancel(ctx->cancel_user); }

struct mxsim_tensor {
    mxsim_dtype dtype;
    int ndim;
    int64_t shape[MXSIM_MAX_DIMS];
    int64_t numel;
    void *data; /* numel * dtype size bytes, C order; never NULL (1-byte minimum allocation) */
};

struct mxsim_mx {
    mxsim_tensor *mant;  /* I8, the tensor's shape */
    mxsim_tensor *scale; /* U8, shape with [axis] divided by group_size */
    int64_t group_size;
    int axis; /* 0..ndim-1 */
    mxsim_profile profile;
};

/* Records a formatted message on ctx (when non-NULL) and returns st.  Always use it as
** `return mx_fail(ctx, MXSIM_E_INPUT, "%s: ...", path)`. */
MX_INTERNAL mxsim_status mx_fail(mxsim_ctx *ctx, mxsim_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Appends one line to ctx's notes (a fact about the input a user should know that is not an
** error: mxsim_ctx_notes); a note that does not fit is counted, not written. */
MX_INTERNAL void mx_note(mxsim_ctx *ctx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A metadata entry whose value is a JSON value the library wrote itself, emitted as is in the
** table's JSON form (a sweep's settings, the sidecar's object); the text forms do not show meta. */
MX_INTERNAL mxsim_status mx_table_set_meta_json(mxsim_ctx *ctx, mxsim_table *t, const char *key, const char *json);

/* The end of a table builder: on success hands t over as *out, else frees it; returns st. */
static inline mxsim_status mx_table_handover(mxsim_table *t, mxsim_status st, mxsim_table **out)
{
    if (st != MXSIM_OK) {
        mxsim_table_free(t);
        return st;
    }
    *out = t;
    return MXSIM_OK;
}

/* Empties ctx's message: the first statement of every public function taking a context, so
** that mxsim_errmsg() never reports a failure of an earlier call. */
MX_INTERNAL void mx_clear_err(mxsim_ctx *ctx);
/* Checks an option struct's struct_size (`got`) against the sizeof this library was built with
** (`want`): MXSIM_E_ARG naming fn and type when they differ (a struct not filled by its
** *_default() function, or compiled against another header). */
MX_INTERNAL mxsim_status mx_check_size(mxsim_ctx *ctx, const char *fn, const char *type, size_t got,
                                       size_t want);

/* Checked allocation: n * size with overflow check; NULL on failure or overflow. */
MX_INTERNAL void *mx_calloc(size_t n, size_t size);
MX_INTERNAL void *mx_malloc(size_t n, size_t size);

/* Element count of a shape, with overflow and negative checks.  Returns -1 on overflow or a
** negative dimension; the product of an empty shape is 1. */
MX_INTERNAL int64_t mx_shape_numel(int ndim, const int64_t *shape);

/* Largest tensor the library will allocate, in bytes (refused up front with MXSIM_E_LIMIT). */
#define MX_MAX_TENSOR_BYTES ((int64_t)1 << 36) /* 64 GiB */

/* Creates a tensor without touching ctx's error on success; shared by all modules. */
MX_INTERNAL mxsim_status mx_tensor_new(mxsim_ctx *ctx, mxsim_dtype dtype, int ndim,
                                       const int64_t *shape, mxsim_tensor **out);

/* Validates and wraps mantissa/scale tensors (takes ownership of both on success AND on
** failure).  `what` prefixes error messages (e.g. the file name). */
MX_INTERNAL mxsim_status mx_mx_wrap(mxsim_ctx *ctx, const char *what, mxsim_tensor *mant,
                                    mxsim_tensor *scale, int64_t group_size, int64_t axis,
                                    mxsim_profile p, mxsim_mx **out);

/* Accuracy data directory given by the user: must exist and be a directory (MXSIM_E_INPUT). */
MX_INTERNAL mxsim_status mx_acc_check_data_dir(mxsim_ctx *ctx, const char *dir);
/* The ranges of a mxsim_cost_params (overhead factor, SRAM bank size) and its struct_size; fn names the caller. */
MX_INTERNAL mxsim_status mx_cost_params_check(mxsim_ctx *ctx, const char *fn, const mxsim_cost_params *p);
/* Every configuration field within its own range (an enumeration names a choice), without the
** cross-field checks of mxsim_tconfig_validate: a sweep's base may be an invalid point that no
** point of the sweep is (its axes set the fields that make it so). */
MX_INTERNAL mxsim_status mx_tconfig_check_ranges(mxsim_ctx *ctx, const mxsim_tconfig *cfg);
/* What the node's SRAM area factor rests on (for the constants table's footer). */
MX_INTERNAL const char *mx_node_sram_basis(int node_nm);

/* Formats a shape as "(4, 96)" into buf. */
MX_INTERNAL const char *mx_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

#endif

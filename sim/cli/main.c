/* main.c - the mxsim command-line tool: a thin layer over the public C API (mxsim.h).
**
** It parses arguments, calls the library, and maps statuses to exit codes: 0 success, 1 runtime
** failure (I/O, memory, internal), 2 usage error or bad input.  Every message names the
** subcommand and, via the library's error detail, the file and field at fault.  Output files are
** written atomically by the library, so a failed run never leaves a partial file.
*/
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mxsim.h"
#ifdef MXSIM_WITH_TIMING
#include "timing/cmd_timing.h"
#endif
#ifdef MXSIM_WITH_SWEEP
#include "sweep/cmd_sweep.h"
#endif
#ifdef MXSIM_WITH_GPUMODEL
#include "gpumodel/cmd_gpumodel.h"
#endif

#define EXIT_RUNTIME 1
#define EXIT_USAGE 2

typedef struct {
    const char *name;
    const char *usage;
    const char *help;
    int (*run)(int argc, char **argv, mxsim_ctx *ctx);
} command;

static const char *g_cmd = "mxsim"; /* subcommand name for messages (CLI only, not library) */

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "mxsim %s: ", g_cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see 'mxsim %s --help')\n", g_cmd);
    return EXIT_USAGE;
}

static int exit_code(mxsim_status st)
{
    switch (st) {
    case MXSIM_OK: return 0;
    case MXSIM_E_IO:
    case MXSIM_E_NOMEM:
    case MXSIM_E_INTERNAL: return EXIT_RUNTIME;
    default: return EXIT_USAGE;
    }
}

static int fail(mxsim_ctx *ctx, mxsim_status st)
{
    const char *detail = mxsim_errmsg(ctx);
    fprintf(stderr, "mxsim %s: error: %s\n", g_cmd, detail[0] ? detail : mxsim_strerror(st));
    return exit_code(st);
}

/* ---- argument parsing ------------------------------------------------------------------- */

/* Options are "--name value", "--name=value" or flags; everything else is positional. */
typedef struct {
    const char *name; /* without dashes; "o" also matches "-o" */
    int takes_value;
    const char *value; /* NULL if absent; "1" for a present flag */
} opt_spec;

#define MAX_POS 4

static int parse_args(int argc, char **argv, opt_spec *opts, int n_opts, const char **pos,
                      int *n_pos, int max_pos)
{
    *n_pos = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] == '-' && a[1] != '\0' && strcmp(a, "-") != 0) {
            const char *name = a + (a[1] == '-' ? 2 : 1);
            const char *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            int found = 0;
            for (int k = 0; k < n_opts; k++) {
                if (strlen(opts[k].name) != len || strncmp(opts[k].name, name, len) != 0) continue;
                found = 1;
                if (!opts[k].takes_value) {
                    if (eq) return usage_error("option '%s' takes no value", a);
                    opts[k].value = "1";
                } else if (eq) {
                    opts[k].value = eq + 1;
                } else {
                    if (i + 1 >= argc) return usage_error("option '%s' needs a value", a);
                    opts[k].value = argv[++i];
                }
                break;
            }
            if (!found) return usage_error("unknown option '%s'", a);
        } else {
            if (*n_pos >= max_pos) return usage_error("unexpected argument '%s'", a);
            pos[(*n_pos)++] = a;
        }
    }
    return 0;
}

static const char *opt_get(const opt_spec *opts, int n, const char *name)
{
    for (int k = 0; k < n; k++)
        if (strcmp(opts[k].name, name) == 0) return opts[k].value;
    return NULL;
}

/* Strict integer parse: the whole string, base 10, within [lo, hi]. */
static int parse_int(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "mxsim %s: %s '%s': not an integer (see 'mxsim %s --help')\n", g_cmd, opt,
                s, g_cmd);
        return EXIT_USAGE;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "mxsim %s: %s %lld: must be in %lld..%lld\n", g_cmd, opt, v, lo, hi);
        return EXIT_USAGE;
    }
    *out = v;
    return 0;
}

static int parse_profile(const char *s, mxsim_profile *p)
{
    if (mxsim_profile_parse(s, p) != MXSIM_OK)
        return usage_error("--profile '%s': expected ocp, mase, mase-cuda or microxcaling", s);
    return 0;
}

static int parse_float_dtype(const char *opt, const char *s, mxsim_dtype *dt)
{
    if (strcmp(s, "f32") == 0 || strcmp(s, "float32") == 0) *dt = MXSIM_DTYPE_F32;
    else if (strcmp(s, "bf16") == 0 || strcmp(s, "bfloat16") == 0) *dt = MXSIM_DTYPE_BF16;
    else {
        fprintf(stderr, "mxsim %s: %s '%s': expected f32 or bf16\n", g_cmd, opt, s);
        return EXIT_USAGE;
    }
    return 0;
}

static int want_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ---- subcommands ------------------------------------------------------------------------ */

static int cmd_quantize(int argc, char **argv, mxsim_ctx *ctx)
{
    opt_spec o[] = {{"profile", 1, NULL}, {"group-size", 1, NULL}, {"axis", 1, NULL},
                    {"in-dtype", 1, NULL}, {"compress", 0, NULL}, {"o", 1, NULL}};
    const char *pos[MAX_POS] = {NULL};
    int np, rc;
    if ((rc = parse_args(argc, argv, o, N_OF(o), pos, &np, 1)) != 0) return rc;
    if (np != 1) return usage_error("expected one input .npy file%s", "");
    const char *out = opt_get(o, N_OF(o), "o");
    if (out == NULL) return usage_error("missing -o OUT.npz%s", "");
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    long long g = 32, axis = -1;
    const char *v;
    if ((v = opt_get(o, N_OF(o), "profile")) && (rc = parse_profile(v, &prof))) return rc;
    if ((v = opt_get(o, N_OF(o), "group-size")) &&
        (rc = parse_int("--group-size", v, 1, MXSIM_MAX_GROUP, &g)))
        return rc;
    if ((v = opt_get(o, N_OF(o), "axis")) &&
        (rc = parse_int("--axis", v, -MXSIM_MAX_DIMS, MXSIM_MAX_DIMS - 1, &axis)))
        return rc;
    const char *in_dt = opt_get(o, N_OF(o), "in-dtype");
    if (in_dt && strcmp(in_dt, "auto") && strcmp(in_dt, "f32") && strcmp(in_dt, "bf16"))
        return usage_error("--in-dtype '%s': expected auto, f32 or bf16", in_dt);

    mxsim_tensor *t = NULL;
    mxsim_mx *mx = NULL;
    mxsim_status st = mxsim_tensor_load_npy(ctx, pos[0], &t);
    if (st == MXSIM_OK) {
        mxsim_dtype dt = mxsim_tensor_dtype(t);
        int want_bf16 = in_dt && strcmp(in_dt, "bf16") == 0, want_f32 = in_dt && strcmp(in_dt, "f32") == 0;
        if (dt == MXSIM_DTYPE_U16 && !want_f32) {
            st = mxsim_tensor_set_dtype(ctx, t, MXSIM_DTYPE_BF16); /* uint16 carries bf16 bits */
        } else if (!(dt == MXSIM_DTYPE_F32 && !want_bf16)) {
            fprintf(stderr,
                    "mxsim quantize: error: %s: dtype %s, expected %s (float32 '<f4', or uint16 "
                    "'<u2' holding bf16 bits)\n",
                    pos[0], mxsim_dtype_name(dt), want_bf16 ? "uint16 bf16 bits" : want_f32 ? "float32" : "float32 or bf16");
            mxsim_tensor_free(t);
            return EXIT_USAGE;
        }
    }
    if (st == MXSIM_OK) st = mxsim_mx_quantize(ctx, t, prof, g, (int)axis, &mx);
    if (st == MXSIM_OK) st = mxsim_mx_save(ctx, mx, out, opt_get(o, N_OF(o), "compress") != NULL);
    mxsim_tensor_free(t);
    mxsim_mx_free(mx);
    return st == MXSIM_OK ? 0 : fail(ctx, st);
}

static int cmd_dequantize(int argc, char **argv, mxsim_ctx *ctx)
{
    opt_spec o[] = {{"profile", 1, NULL}, {"dtype", 1, NULL}, {"o", 1, NULL}};
    const char *pos[MAX_POS] = {NULL};
    int np, rc;
    if ((rc = parse_args(argc, argv, o, N_OF(o), pos, &np, 1)) != 0) return rc;
    if (np != 1) return usage_error("expected one input .npz file%s", "");
    const char *out = opt_get(o, N_OF(o), "o");
    if (out == NULL) return usage_error("missing -o OUT.npy%s", "");
    mxsim_dtype dt = MXSIM_DTYPE_F32;
    const char *v;
    if ((v = opt_get(o, N_OF(o), "dtype")) && (rc = parse_float_dtype("--dtype", v, &dt))) return rc;
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    const char *pv = opt_get(o, N_OF(o), "profile");
    if (pv && (rc = parse_profile(pv, &prof))) return rc;

    mxsim_mx *mx = NULL, *conv = NULL;
    mxsim_tensor *t = NULL;
    mxsim_status st = mxsim_mx_load(ctx, pos[0], &mx);
    /* --profile decodes with another profile's dequantizer, the scale re-expressed first. */
    if (st == MXSIM_OK && pv && prof != mxsim_mx_profile(mx)) st = mxsim_mx_convert(ctx, mx, prof, &conv);
    if (st == MXSIM_OK) st = mxsim_mx_dequantize(ctx, conv ? conv : mx, dt, &t);
    if (st == MXSIM_OK) st = mxsim_tensor_save_npy(ctx, t, out);
    mxsim_mx_free(mx);
    mxsim_mx_free(conv);
    mxsim_tensor_free(t);
    return st == MXSIM_OK ? 0 : fail(ctx, st);
}

static int cmd_gemm(int argc, char **argv, mxsim_ctx *ctx)
{
    opt_spec o[] = {{"acc", 1, NULL},     {"out-dtype", 1, NULL}, {"threads", 1, NULL},
                    {"simd", 1, NULL},    {"o", 1, NULL}};
    const char *pos[MAX_POS] = {NULL};
    int np, rc;
    if ((rc = parse_args(argc, argv, o, N_OF(o), pos, &np, 2)) != 0) return rc;
    if (np != 2) return usage_error("expected two inputs A.npz B.npz%s", "");
    const char *out = opt_get(o, N_OF(o), "o");
    if (out == NULL) return usage_error("missing -o C.npy%s", "");
    mxsim_gemm_opts go;
    mxsim_gemm_opts_default(&go);
    const char *v;
    if ((v = opt_get(o, N_OF(o), "acc"))) {
        if (strcmp(v, "fp32") == 0) go.acc = MXSIM_ACC_FP32;
        else if (strcmp(v, "exact") == 0) go.acc = MXSIM_ACC_EXACT;
        else return usage_error("--acc '%s': expected fp32 or exact", v);
    }
    if ((v = opt_get(o, N_OF(o), "out-dtype"))) {
        mxsim_dtype od;
        if ((rc = parse_float_dtype("--out-dtype", v, &od))) return rc;
        go.out_dtype = od;
    }
    long long nt = 0;
    if ((v = opt_get(o, N_OF(o), "threads")) && (rc = parse_int("--threads", v, 0, 1024, &nt))) return rc;
    mxsim_ctx_set_threads(ctx, (unsigned)nt);
    if ((v = opt_get(o, N_OF(o), "simd"))) {
        mxsim_simd s;
        if (strcmp(v, "auto") == 0) s = MXSIM_SIMD_AUTO;
        else if (strcmp(v, "scalar") == 0) s = MXSIM_SIMD_SCALAR;
        else if (strcmp(v, "avx2") == 0) s = MXSIM_SIMD_AVX2;
        else return usage_error("--simd '%s': expected auto, scalar or avx2", v);
        mxsim_status st = mxsim_ctx_set_simd(ctx, s);
        if (st != MXSIM_OK) return fail(ctx, st);
    }
    mxsim_mx *a = NULL, *b = NULL;
    mxsim_tensor *c = NULL;
    mxsim_status st = mxsim_mx_load(ctx, pos[0], &a);
    if (st == MXSIM_OK) st = mxsim_mx_load(ctx, pos[1], &b);
    if (st == MXSIM_OK) st = mxsim_gemm(ctx, a, b, &go, &c);
    if (st == MXSIM_OK) st = mxsim_tensor_save_npy(ctx, c, out);
    mxsim_mx_free(a);
    mxsim_mx_free(b);
    mxsim_tensor_free(c);
    return st == MXSIM_OK ? 0 : fail(ctx, st);
}

static void print_shape(const mxsim_tensor *t)
{
    printf("(");
    for (int i = 0; i < mxsim_tensor_ndim(t); i++)
        printf("%s%lld", i ? ", " : "", (long long)mxsim_tensor_shape(t)[i]);
    printf(mxsim_tensor_ndim(t) == 1 ? ",)" : ")");
}

static int cmd_info(int argc, char **argv, mxsim_ctx *ctx)
{
    const char *pos[MAX_POS] = {NULL};
    int np, rc;
    if ((rc = parse_args(argc, argv, NULL, 0, pos, &np, 1)) != 0) return rc;
    if (np != 1) return usage_error("expected one .npy or .npz file%s", "");
    size_t len = strlen(pos[0]);
    mxsim_status st;
    if (len >= 4 && strcmp(pos[0] + len - 4, ".npz") == 0) {
        mxsim_mx *mx = NULL;
        if ((st = mxsim_mx_load(ctx, pos[0], &mx)) != MXSIM_OK) return fail(ctx, st);
        printf("%s: MXINT8 tensor, shape ", pos[0]);
        print_shape(mxsim_mx_mantissa(mx));
        printf(", group_size %lld along axis %d, profile %s, %lld scale bytes\n",
               (long long)mxsim_mx_group_size(mx), mxsim_mx_axis(mx),
               mxsim_profile_name(mxsim_mx_profile(mx)),
               (long long)mxsim_tensor_numel(mxsim_mx_scale(mx)));
        mxsim_mx_free(mx);
    } else {
        mxsim_tensor *t = NULL;
        if ((st = mxsim_tensor_load_npy(ctx, pos[0], &t)) != MXSIM_OK) return fail(ctx, st);
        printf("%s: %s array, shape ", pos[0], mxsim_dtype_name(mxsim_tensor_dtype(t)));
        print_shape(t);
        printf("\n");
        mxsim_tensor_free(t);
    }
    return 0;
}

static int cmd_compare(int argc, char **argv, mxsim_ctx *ctx)
{
    const char *pos[MAX_POS] = {NULL};
    int np, rc;
    if ((rc = parse_args(argc, argv, NULL, 0, pos, &np, 2)) != 0) return rc;
    if (np != 2) return usage_error("expected REF.npy TEST.npy%s", "");
    mxsim_tensor *r = NULL, *t = NULL;
    mxsim_error_stats es;
    mxsim_status st = mxsim_tensor_load_npy(ctx, pos[0], &r);
    if (st == MXSIM_OK) st = mxsim_tensor_load_npy(ctx, pos[1], &t);
    if (st == MXSIM_OK) st = mxsim_compare(ctx, r, t, &es);
    mxsim_tensor_free(r);
    mxsim_tensor_free(t);
    if (st != MXSIM_OK) return fail(ctx, st);
    printf("elements            %lld\n", (long long)es.n);
    printf("bitwise mismatches  %lld\n", (long long)es.n_bit_mismatch);
    printf("NaN mismatches      %lld\n", (long long)es.n_nan_mismatch);
    printf("SQNR_dB             %.3f\n", es.sqnr_db);
    printf("max_abs_err         %.6g\n", es.max_abs_err);
    printf("max_rel_err         %.6g\n", es.max_rel_err);
    printf("mean_abs_err        %.6g\n", es.mean_abs_err);
    return 0;
}

static int cmd_help(int argc, char **argv, mxsim_ctx *ctx);

static const command k_commands[] = {
    {"quantize",
     "mxsim quantize [--profile P] [--group-size G] [--axis A] [--in-dtype auto|f32|bf16]\n"
     "               [--compress] IN.npy -o OUT.npz",
     "Quantizes a float32 (or bf16 bits as uint16) array to MXINT8 with one scale byte per group\n"
     "of G consecutive elements along axis A (default: G 32, the last axis, profile ocp).\n"
     "Profiles: ocp, mase, mase-cuda, microxcaling (sim/doc/numerics.md). G must divide the\n"
     "axis: mxsim never pads. --compress deflates the .npz members.",
     cmd_quantize},
    {"dequantize",
     "mxsim dequantize [--profile P] [--dtype f32|bf16] IN.npz -o OUT.npy",
     "Decodes an MXINT8 .npz to float32 (default) or bf16 bits (uint16), with the file's own\n"
     "profile, or with --profile P's decoder after re-expressing the scale bytes in P's\n"
     "convention (e.g. --profile mase-cuda reproduces that CUDA kernel's quirks).",
     cmd_dequantize},
    {"gemm",
     "mxsim gemm [--acc fp32|exact] [--out-dtype f32|bf16] [--threads N] [--simd auto|scalar|avx2]\n"
     "           A.npz B.npz -o C.npy",
     "C[M,N] = A[M,K] . B[N,K]^T under the arithmetic contract (sim/doc/numerics.md section 4):\n"
     "per group an exact int32 dot product, one rounding to float32 of d * 2^(E_A+E_B-266), and\n"
     "float32 accumulation in ascending group order (--acc fp32, default), or one exact sum\n"
     "rounded once (--acc exact). A and B must both be grouped along K (axis 1) with the same G.\n"
     "--threads 0 (default) uses every CPU; the result is bit-identical for any N and --simd.",
     cmd_gemm},
    {"compare", "mxsim compare REF.npy TEST.npy",
     "Numerical error of TEST against REF (float32 or bf16 bits, same shape): SQNR in dB,\n"
     "max absolute and relative error, bitwise and NaN mismatches.",
     cmd_compare},
    {"info", "mxsim info FILE.npy|FILE.npz", "Prints the dtype and shape of a .npy, or the layout of an MXINT8 .npz.",
     cmd_info},
#ifdef MXSIM_WITH_TIMING
    MXSIM_TIMING_COMMANDS
#endif
#ifdef MXSIM_WITH_SWEEP
    MXSIM_SWEEP_COMMANDS
#endif
#ifdef MXSIM_WITH_GPUMODEL
    MXSIM_GPUMODEL_COMMANDS
#endif
    {"help", "mxsim help [COMMAND]", "Shows the commands, or one command's help.", cmd_help},
};

static void print_overview(FILE *f)
{
    fprintf(f,
            "mxsim %s - simulator of an MXINT8 matrix-multiply accelerator\n\n"
            "usage: mxsim COMMAND [OPTIONS]   (mxsim COMMAND --help for details)\n\ncommands:\n",
            mxsim_version());
    for (int i = 0; i < N_OF(k_commands); i++) fprintf(f, "  %s\n", k_commands[i].usage);
    fprintf(f, "\n  mxsim --version\n\nExit status: 0 success, 1 runtime failure, 2 usage error or bad input.\n");
}

static int cmd_help(int argc, char **argv, mxsim_ctx *ctx)
{
    (void)ctx;
    if (argc == 0) {
        print_overview(stdout);
        return 0;
    }
    for (int i = 0; i < N_OF(k_commands); i++)
        if (strcmp(argv[0], k_commands[i].name) == 0) {
            printf("usage: %s\n\n%s\n", k_commands[i].usage, k_commands[i].help);
            return 0;
        }
    return usage_error("unknown command '%s'", argv[0]);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("mxsim %s\n", mxsim_version());
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_overview(stdout);
        return 0;
    }
    for (int i = 0; i < N_OF(k_commands); i++) {
        if (strcmp(argv[1], k_commands[i].name) != 0) continue;
        g_cmd = k_commands[i].name;
        if (want_help(argc - 2, argv + 2)) {
            printf("usage: %s\n\n%s\n", k_commands[i].usage, k_commands[i].help);
            return 0;
        }
        mxsim_ctx *ctx = NULL;
        if (mxsim_ctx_create(&ctx) != MXSIM_OK) {
            fprintf(stderr, "mxsim: out of memory\n");
            return EXIT_RUNTIME;
        }
        int rc = k_commands[i].run(argc - 2, argv + 2, ctx);
        mxsim_ctx_destroy(ctx);
        return rc;
    }
    fprintf(stderr, "mxsim: unknown command '%s' (see 'mxsim --help')\n", argv[1]);
    return EXIT_USAGE;
}

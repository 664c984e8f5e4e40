/* main.c - the mxsim command-line tool: a thin layer over the public C API (mxsim.h).
**
** Every command is a cli_command (name, positional synopsis, help, option table): main finds it
** (suggesting the closest name for a typo), parses its options with the one parser
** (cli_util.c), runs it and maps statuses to exit codes: 0 success, 1 runtime failure (I/O,
** memory, internal; also a failed write to stdout), 2 usage error or bad input.  Tables go
** through the library's one table writer and files through its one atomic file writer.
*/
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_util.h"
#ifdef MXSIM_WITH_TIMING
#include "timing/cmd_timing.h"
#endif
#ifdef MXSIM_WITH_SWEEP
#include "sweep/cmd_sweep.h"
#endif
#ifdef MXSIM_WITH_GPUMODEL
#include "gpumodel/cmd_gpumodel.h"
#endif

#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define OPT(name) cli_get(c, a, #name)

static int parse_profile(const char *s, mxsim_profile *p)
{
    if (mxsim_profile_parse(s, p) != MXSIM_OK)
        return cli_usage("--profile '%s': expected ocp, mase, mase-cuda or microxcaling", s);
    return 0;
}

static int parse_float_dtype(const char *opt, const char *s, mxsim_dtype *dt)
{
    if (strcmp(s, "f32") == 0 || strcmp(s, "float32") == 0) *dt = MXSIM_DTYPE_F32;
    else if (strcmp(s, "bf16") == 0 || strcmp(s, "bfloat16") == 0) *dt = MXSIM_DTYPE_BF16;
    else return cli_usage("%s '%s': expected f32 or bf16", opt, s);
    return 0;
}

/* The file a command writes must be what its extension says, so the reading command accepts it. */
static int need_ext(const char *path, const char *ext, const char *what)
{
    size_t L = strlen(path), E = strlen(ext);
    if (L > E && strcmp(path + L - E, ext) == 0) return 0;
    /* "-" (standard output) and an existing device or FIFO have no extension to check: the file
    ** writer writes a character device in place and refuses the rest with its own message */
    struct stat sb;
    if (strcmp(path, "-") == 0 || (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode))) return 0;
    return cli_usage("-o %s: this command writes %s; name the file *%s", path, what, ext);
}

/* A '<u2' .npy holds bf16 bit patterns (NumPy has no bf16; dequantize --dtype bf16 and
** mxsim_tensor_save_npy write bf16 as '<u2'): relabel it so the float commands accept it. */
static mxsim_status load_float(mxsim_ctx *ctx, const char *path, mxsim_tensor **t)
{
    mxsim_status st = mxsim_tensor_load_npy(ctx, path, t);
    if (st == MXSIM_OK && mxsim_tensor_dtype(*t) == MXSIM_DTYPE_U16) st = mxsim_tensor_set_dtype(ctx, *t, MXSIM_DTYPE_BF16);
    return st;
}

/* ---- subcommands ------------------------------------------------------------------------ */

static int cmd_quantize(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *out = OPT(out), *v, *in_dt = cli_get(c, a, "in-dtype");
    int rc;
    if (out == NULL) return cli_usage("missing -o OUT.npz");
    if ((rc = need_ext(out, ".npz", "an MXINT8 .npz"))) return rc;
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    long long g = 32, axis = -1;
    if ((v = OPT(profile)) && (rc = parse_profile(v, &prof))) return rc;
    if ((v = cli_get(c, a, "group-size")) && (rc = cli_int("--group-size", v, 1, MXSIM_MAX_GROUP, &g))) return rc;
    if ((v = OPT(axis)) && (rc = cli_int("--axis", v, -MXSIM_MAX_DIMS, MXSIM_MAX_DIMS - 1, &axis))) return rc;
    if (in_dt && strcmp(in_dt, "auto") && strcmp(in_dt, "f32") && strcmp(in_dt, "bf16"))
        return cli_usage("--in-dtype '%s': expected auto, f32 or bf16", in_dt);
    mxsim_tensor *t = NULL;
    mxsim_mx *mx = NULL;
    mxsim_status st = mxsim_tensor_load_npy(ctx, a->pos[0], &t);
    if (st == MXSIM_OK) {
        mxsim_dtype dt = mxsim_tensor_dtype(t);
        int want_bf16 = in_dt && !strcmp(in_dt, "bf16"), want_f32 = in_dt && !strcmp(in_dt, "f32");
        if (dt == MXSIM_DTYPE_U16 && !want_f32) {
            st = mxsim_tensor_set_dtype(ctx, t, MXSIM_DTYPE_BF16); /* uint16 carries bf16 bits */
        } else if (!(dt == MXSIM_DTYPE_F32 && !want_bf16)) {
            fprintf(stderr, "mxsim quantize: error: %s: dtype %s, expected %s (float32 '<f4', or uint16 '<u2' holding bf16 bits)\n",
                    a->pos[0], mxsim_dtype_numpy(dt), want_bf16 ? "uint16 bf16 bits" : want_f32 ? "float32" : "float32 or bf16");
            mxsim_tensor_free(t);
            return CLI_EXIT_USAGE;
        }
    }
    const char *step = NULL; /* the input a failed step worked on, when its message cannot name it */
    if (st == MXSIM_OK && (st = mxsim_mx_quantize(ctx, t, prof, g, (int)axis, &mx)) != MXSIM_OK) step = a->pos[0];
    if (st == MXSIM_OK) st = mxsim_mx_save(ctx, mx, out, OPT(compress) != NULL);
    mxsim_tensor_free(t);
    mxsim_mx_free(mx);
    return st == MXSIM_OK ? 0 : cli_fail_in(ctx, st, step);
}

static int cmd_dequantize(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *out = OPT(out), *v, *pv = OPT(profile);
    int rc;
    if (out == NULL) return cli_usage("missing -o OUT.npy");
    if ((rc = need_ext(out, ".npy", "a .npy array"))) return rc;
    mxsim_dtype dt = MXSIM_DTYPE_F32;
    if ((v = OPT(dtype)) && (rc = parse_float_dtype("--dtype", v, &dt))) return rc;
    mxsim_profile prof = MXSIM_PROFILE_OCP;
    if (pv && (rc = parse_profile(pv, &prof))) return rc;
    mxsim_mx *mx = NULL, *conv = NULL;
    mxsim_tensor *t = NULL;
    mxsim_status st = mxsim_mx_load(ctx, a->pos[0], &mx);
    /* --profile decodes with another profile's dequantizer, the scale re-expressed first. */
    if (st == MXSIM_OK && pv && prof != mxsim_mx_profile(mx)) st = mxsim_mx_convert(ctx, mx, prof, &conv);
    if (st == MXSIM_OK) st = mxsim_mx_dequantize(ctx, conv ? conv : mx, dt, &t);
    if (st == MXSIM_OK) st = mxsim_tensor_save_npy(ctx, t, out);
    mxsim_mx_free(mx);
    mxsim_mx_free(conv);
    mxsim_tensor_free(t);
    return st == MXSIM_OK ? 0 : cli_fail(ctx, st);
}

static int cmd_gemm(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *out = OPT(out), *v;
    int rc;
    if (out == NULL) return cli_usage("missing -o C.npy");
    if ((rc = need_ext(out, ".npy", "a .npy array"))) return rc;
    mxsim_gemm_opts go;
    mxsim_gemm_opts_default(&go);
    if ((v = OPT(acc))) {
        if (strcmp(v, "fp32") == 0) go.acc = MXSIM_ACC_FP32;
        else if (strcmp(v, "exact") == 0) go.acc = MXSIM_ACC_EXACT;
        else return cli_usage("--acc '%s': expected fp32 or exact", v);
    }
    if ((v = cli_get(c, a, "out-dtype"))) {
        mxsim_dtype od = MXSIM_DTYPE_F32;
        if ((rc = parse_float_dtype("--out-dtype", v, &od))) return rc;
        go.out_dtype = od; /* the struct stores enums as int32_t */
    }
    long long nt = 0;
    if ((v = OPT(threads)) && (rc = cli_int("--threads", v, 0, 1024, &nt))) return rc;
    mxsim_ctx_set_threads(ctx, (unsigned)nt);
    if ((v = OPT(simd))) {
        mxsim_simd s;
        if (strcmp(v, "auto") == 0) s = MXSIM_SIMD_AUTO;
        else if (strcmp(v, "scalar") == 0) s = MXSIM_SIMD_SCALAR;
        else if (strcmp(v, "avx2") == 0) s = MXSIM_SIMD_AVX2;
        else return cli_usage("--simd '%s': expected auto, scalar or avx2", v);
        mxsim_status st = mxsim_ctx_set_simd(ctx, s);
        if (st != MXSIM_OK) return cli_fail(ctx, st);
    }
    mxsim_mx *ma = NULL, *mb = NULL;
    mxsim_tensor *mc = NULL;
    mxsim_status st = mxsim_mx_load(ctx, a->pos[0], &ma);
    if (st == MXSIM_OK) st = mxsim_mx_load(ctx, a->pos[1], &mb);
    char pair[2 * 512 + 8] = "";
    if (st == MXSIM_OK && (st = mxsim_gemm(ctx, ma, mb, &go, &mc)) != MXSIM_OK)
        snprintf(pair, sizeof pair, "A %.512s, B %.512s", a->pos[0], a->pos[1]);
    if (st == MXSIM_OK) st = mxsim_tensor_save_npy(ctx, mc, out);
    mxsim_mx_free(ma);
    mxsim_mx_free(mb);
    mxsim_tensor_free(mc);
    return st == MXSIM_OK ? 0 : cli_fail_in(ctx, st, pair[0] ? pair : NULL);
}

static void shape_text(const mxsim_tensor *t, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "(");
    for (int i = 0; i < mxsim_tensor_ndim(t) && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%lld", i ? ", " : "", (long long)mxsim_tensor_shape(t)[i]);
    if (k < len) snprintf(buf + k, len - k, mxsim_tensor_ndim(t) == 1 ? ",)" : ")");
}

static int cmd_info(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    const char *path = a->pos[0];
    size_t len = strlen(path);
    mxsim_mx *mx = NULL;
    mxsim_tensor *t = NULL;
    mxsim_table *tb = NULL;
    mxsim_status st;
    int npz = len >= 4 && strcmp(path + len - 4, ".npz") == 0;
    if (npz) st = mxsim_mx_load(ctx, path, &mx);
    else st = mxsim_tensor_load_npy(ctx, path, &t);
    const mxsim_tensor *shape_of = npz ? (mx ? mxsim_mx_mantissa(mx) : NULL) : t;
    char shape[256] = "";
    if (shape_of) shape_text(shape_of, shape, sizeof shape);
    static const char *const tcols[] = {"file", "kind", "dtype", "shape", "profile"};
    static const char *const icols[] = {"group_size", "axis", "scale_bytes"};
    if (st == MXSIM_OK) st = mxsim_table_create(ctx, &tb);
    for (int i = 0; st == MXSIM_OK && i < 5; i++) st = mxsim_table_add_column(ctx, tb, tcols[i], MXSIM_CELL_TEXT, "", NULL, 0, -1);
    for (int i = 0; st == MXSIM_OK && i < 3; i++)
        st = mxsim_table_add_column(ctx, tb, icols[i], MXSIM_CELL_INT, i == 1 ? "" : i ? "bytes" : "elements", NULL, 0, -1);
    int64_t r = 0;
    if (st == MXSIM_OK) st = mxsim_table_add_row(ctx, tb, &r);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, r, "file", path);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, r, "kind", npz ? "mxint8" : "dense");
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, r, "dtype", npz ? "mxint8" : mxsim_dtype_name(mxsim_tensor_dtype(t)));
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, r, "shape", shape);
    if (st == MXSIM_OK) st = mxsim_table_set_text(ctx, tb, r, "profile", mx ? mxsim_profile_name(mxsim_mx_profile(mx)) : "");
    const int64_t iv[] = {mx ? mxsim_mx_group_size(mx) : 0, mx ? mxsim_mx_axis(mx) : 0,
                          mx ? mxsim_tensor_numel(mxsim_mx_scale(mx)) : 0};
    for (int i = 0; st == MXSIM_OK && i < 3; i++)
        st = npz ? mxsim_table_set_int(ctx, tb, r, icols[i], iv[i]) : mxsim_table_set_null(ctx, tb, r, icols[i]);
    int rc = st == MXSIM_OK ? cli_emit_table(ctx, tb, OPT(format), OPT(out)) : cli_fail(ctx, st);
    mxsim_table_free(tb);
    mxsim_mx_free(mx);
    mxsim_tensor_free(t);
    return rc;
}

static int cmd_compare(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    mxsim_output_format f;
    int rc = cli_format(ctx, OPT(format), OPT(out), &f);
    if (rc) return rc;
    mxsim_tensor *r = NULL, *t = NULL;
    mxsim_table *tb = NULL;
    mxsim_error_stats es = {0};
    mxsim_status st = load_float(ctx, a->pos[0], &r);
    if (st == MXSIM_OK) st = load_float(ctx, a->pos[1], &t);
    char pair[2 * 512 + 16] = "";
    if (st == MXSIM_OK && (st = mxsim_compare(ctx, r, t, &es)) != MXSIM_OK)
        snprintf(pair, sizeof pair, "REF %.512s, TEST %.512s", a->pos[0], a->pos[1]);
    mxsim_tensor_free(r);
    mxsim_tensor_free(t);
    if (st == MXSIM_OK) st = mxsim_compare_table(ctx, &es, a->pos[0], a->pos[1], &tb);
    rc = st == MXSIM_OK ? cli_emit_table(ctx, tb, OPT(format), OPT(out)) : cli_fail_in(ctx, st, pair[0] ? pair : NULL);
    mxsim_table_free(tb);
    return rc;
}

static const cli_opt k_quantize_opts[] = {
    {"profile", 0, 1, 0, "P", "numerics profile: ocp (default), mase, mase-cuda, microxcaling"},
    {"group-size", 0, 1, 0, "G", "elements per scale byte (default 32)"},
    {"axis", 0, 1, 0, "A", "grouped axis (default -1, the last)"},
    {"in-dtype", 0, 1, 0, "auto|f32|bf16", "input dtype ('<u2' is bf16 bits)"},
    {"compress", 0, 0, 0, "", "deflate the .npz members"},
    {"out", 'o', 1, 0, "OUT.npz", "output file (required)"},
    {0}};
static const cli_opt k_dequantize_opts[] = {
    {"profile", 0, 1, 0, "P", "decode with profile P's dequantizer (default: the file's own profile)"},
    {"dtype", 0, 1, 0, "f32|bf16", "output dtype (bf16 is written as '<u2' bits)"},
    {"out", 'o', 1, 0, "OUT.npy", "output file (required)"},
    {0}};
static const cli_opt k_gemm_opts[] = {
    {"acc", 0, 1, 0, "fp32|exact", "accumulator mode (default fp32)"},
    {"out-dtype", 0, 1, 0, "f32|bf16", "output dtype (default f32)"},
    {"threads", 0, 1, 0, "N", "worker threads (default 0: every CPU)"},
    {"simd", 0, 1, 0, "auto|scalar|avx2", "SIMD path (default auto: AVX2 where the CPU has it)"},
    {"out", 'o', 1, 0, "C.npy", "output file (required)"},
    {0}};
static const cli_opt k_table_opts[] = {CLI_TABLE_OPTS, {0}};
static const cli_opt k_no_opts[] = {{0}};

static int cmd_help(const cli_command *c, const cli_args *a, mxsim_ctx *ctx);

static const cli_command k_quantize = {
    "quantize", "IN.npy", "Quantizes a float32 (or bf16 bits as uint16) array to MXINT8 with one scale byte per group\n"
    "of G consecutive elements along axis A. G must divide the axis: mxsim never pads.",
    k_quantize_opts, 1, 1, cmd_quantize, NULL};
static const cli_command k_dequantize = {
    "dequantize", "IN.npz", "Decodes an MXINT8 .npz to float32 (default) or bf16 bits (uint16 '<u2'), with the file's\n"
    "own profile, or with --profile P's decoder after re-expressing the scale bytes.",
    k_dequantize_opts, 1, 1, cmd_dequantize, NULL};
static const cli_command k_gemm = {
    "gemm", "A.npz B.npz", "C[M,N] = A[M,K] . B[N,K]^T under the arithmetic contract (sim/doc/numerics.md section 4).\n"
    "The result is bit-identical for any --threads and --simd.",
    k_gemm_opts, 2, 2, cmd_gemm, NULL};
static const cli_command k_compare = {
    "compare", "REF.npy TEST.npy", "Numerical error of TEST against REF (float32, or bf16 bits: a '<u2' .npy as\n"
    "dequantize --dtype bf16 writes it), same shape: SQNR in dB, max absolute and relative error,\n"
    "bitwise and NaN mismatches.",
    k_table_opts, 2, 2, cmd_compare, NULL};
static const cli_command k_info = {
    "info", "FILE.npy|FILE.npz", "The dtype and shape of a .npy, or the layout of an MXINT8 .npz.", k_table_opts, 1, 1, cmd_info, NULL};
static const cli_command k_help = {"help", "[COMMAND]", "Shows the commands, or one command's help.", k_no_opts, 0, 1, cmd_help, NULL};

static const cli_command *const k_commands[] = {
    &k_quantize, &k_dequantize, &k_gemm, &k_compare, &k_info,
#ifdef MXSIM_WITH_TIMING
    &mxsim_cmd_run, &mxsim_cmd_trace, &mxsim_cmd_config, &mxsim_cmd_memory,
#endif
#ifdef MXSIM_WITH_SWEEP
    &mxsim_cmd_sweep, &mxsim_cmd_merge, &mxsim_cmd_cost, &mxsim_cmd_report,
#endif
#ifdef MXSIM_WITH_GPUMODEL
    &mxsim_cmd_compare_gpu, &mxsim_cmd_gpu_calibrate,
#endif
    &k_help,
};

static void print_overview(FILE *f)
{
    fprintf(f, "mxsim %s - simulator of an MXINT8 matrix-multiply accelerator\n\n"
               "usage: mxsim COMMAND [OPTIONS]   (mxsim COMMAND --help for details)\n\ncommands:\n", mxsim_version());
    for (int i = 0; i < N_OF(k_commands); i++) {
        const cli_command *c = k_commands[i];
        fprintf(f, "  mxsim %s%s%s%s\n", c->name, c->opts && c->opts[0].name ? " [OPTIONS]" : "", c->args[0] ? " " : "", c->args);
    }
    fprintf(f, "\n  mxsim --version\n\nExit status: 0 success, 1 runtime failure, 2 usage error or bad input.\n");
}

static const cli_command *find_command(const char *name)
{
    for (int i = 0; i < N_OF(k_commands); i++)
        if (strcmp(name, k_commands[i]->name) == 0) return k_commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *names[N_OF(k_commands)];
    for (int i = 0; i < N_OF(k_commands); i++) names[i] = k_commands[i]->name;
    const char *s = mxsim_closest_name(name, names, N_OF(k_commands));
    fprintf(stderr, "mxsim: unknown command '%s'%s%s%s (see 'mxsim --help')\n", name, s ? "; did you mean '" : "",
            s ? s : "", s ? "'?" : "");
    return CLI_EXIT_USAGE;
}

static int cmd_help(const cli_command *c, const cli_args *a, mxsim_ctx *ctx)
{
    (void)c, (void)ctx;
    if (a->n_pos == 0) {
        print_overview(stdout);
        return 0;
    }
    const cli_command *k = find_command(a->pos[0]);
    if (!k) return unknown_command(a->pos[0]);
    cli_help(k, stdout);
    return 0;
}

static int want_help(int argc, char **argv)
{
    for (int i = 0; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) return 1;
    return 0;
}

/* ---- signals: SIGINT/SIGTERM/SIGHUP only set a flag; the library polls it through the ctx's
** cancellation hook (mxsim_ctx_set_cancel), cleans up on its normal error path (no temporary
** file survives) and main exits 128 + the signal's number. */
static volatile sig_atomic_t g_signal;

static void on_signal(int sig)
{
    if (g_signal == 0) g_signal = sig;
}

static int cancel_requested(void *user)
{
    (void)user;
    return g_signal != 0;
}

int cli_interrupted(void) { return g_signal; }

static void install_signal_handlers(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART; /* reads and writes continue; the flag is polled between chunks */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

static int run(int argc, char **argv)
{
    if (argc < 2) {
        print_overview(stderr);
        return CLI_EXIT_USAGE;
    }
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "version") == 0) {
        printf("mxsim %s\n", mxsim_version());
        return 0;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_overview(stdout);
        return 0;
    }
    const cli_command *c = find_command(argv[1]);
    if (!c) return unknown_command(argv[1]);
    cli_cmd = c->name;
    if (want_help(argc - 2, argv + 2)) {
        cli_help(c, stdout);
        return 0;
    }
    int rc = cli_check_output_not_input(argc - 2, argv + 2);
    if (rc) return rc;
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) {
        fprintf(stderr, "mxsim: out of memory\n");
        return CLI_EXIT_RUNTIME;
    }
    mxsim_ctx_set_cancel(ctx, cancel_requested, NULL);
    mxsim_ctx_set_dash_fd(ctx, 1); /* -o - is standard output for every writing command */
    mxsim_ctx_set_protect_inputs(ctx, 1); /* no output replaces a file the command read */
    if (c->run_raw) {
        rc = c->run_raw(argc - 2, argv + 2, ctx);
    } else {
        cli_args *a = malloc(sizeof *a);
        if (!a) rc = cli_fail(NULL, MXSIM_E_NOMEM);
        else if ((rc = cli_parse(c, argc - 2, argv + 2, a)) == 0) rc = c->run(c, a, ctx);
        free(a);
    }
    /* facts about the inputs that are not errors (a SCALE-Sim file SCALE-Sim itself stops on, ...) */
    for (const char *n = mxsim_ctx_notes(ctx), *e; *n; n = e + 1) {
        e = strchr(n, '\n');
        fprintf(stderr, "mxsim %s: note: %.*s\n", cli_cmd, (int)(e - n), n);
    }
    if (mxsim_ctx_notes_lost(ctx))
        fprintf(stderr, "mxsim %s: note: %u more notes\n", cli_cmd, mxsim_ctx_notes_lost(ctx));
    mxsim_ctx_destroy(ctx);
    return rc;
}

int main(int argc, char **argv)
{
    install_signal_handlers();
    int rc = run(argc, argv);
    if (g_signal) { /* everything is cleaned up: report the signal the shell's way */
        fflush(stdout);
        return 128 + g_signal;
    }
    /* anything printed must have reached its destination: a full disk or a closed pipe on
    ** stdout is a runtime failure, never a silent success */
    if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
        if (rc == 0) fprintf(stderr, "mxsim: error: writing standard output: %s\n", strerror(errno));
        if (rc == 0) rc = CLI_EXIT_RUNTIME;
    }
    return rc;
}

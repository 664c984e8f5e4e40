/* fuzz_common.h - shared plumbing of the fuzz targets (tests/fuzz/fuzz_*.c).
**
** Every target is a libFuzzer entry point, LLVMFuzzerTestOneInput, that drives one parser through
** the PUBLIC API (mxsim.h), exactly as a user's file reaches it: the input bytes are written to a
** file in a private temporary directory (on /dev/shm when it exists, so no disk I/O) and the
** path is handed to mxsim_tensor_load_npy, mxsim_mx_load, mxsim_trace_load, ... .  The same
** sources are linked either with libFuzzer (clang, -DMXSIM_FUZZ=ON) or with replay.c, a plain
** main() that runs saved files (seed corpora, crash reproducers) through the same entry point
** under CTest with any compiler.
**
** A target reports a bug by crashing: a sanitizer finding, or fz_check() failing on an invariant
** that a successful parse must establish (loaded values inside their documented bounds, a saved
** trace reading back identically).  An error status is never a bug: refusing bad input is the
** point.
*/
#ifndef MXSIM_FUZZ_COMMON_H
#define MXSIM_FUZZ_COMMON_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mxsim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Aborts with a message when an invariant fails (abort is what libFuzzer records as a crash). */
#define fz_check(cond)                                                                       \
    do {                                                                                     \
        if (!(cond)) {                                                                       \
            fprintf(stderr, "fuzz invariant failed: %s (%s:%d)\n", #cond, __FILE__, __LINE__); \
            abort();                                                                         \
        }                                                                                    \
    } while (0)

static char fz_dir[256];

static inline void fz_cleanup(void)
{
    static const char *const k_names[] = {"in.npy", "in.npz", "in.trace", "in.trace.gz", "in.ini",
                                          "in.cfg", "in.csv", "in.model", "rt.trace", "rt.trace.gz"};
    if (fz_dir[0] == '\0') return;
    for (size_t i = 0; i < sizeof k_names / sizeof k_names[0]; i++) {
        char p[320];
        snprintf(p, sizeof p, "%s/%s", fz_dir, k_names[i]);
        unlink(p);
    }
    rmdir(fz_dir);
}

/* Path of file `name` inside this process's private directory (created on first use). */
static inline const char *fz_path(const char *name)
{
    static char path[320];
    if (fz_dir[0] == '\0') {
        struct stat sb;
        const char *base = getenv("MXSIM_FUZZ_TMP");
        if (base == NULL && stat("/dev/shm", &sb) == 0 && S_ISDIR(sb.st_mode) &&
            access("/dev/shm", W_OK) == 0)
            base = "/dev/shm";
        if (base == NULL) base = getenv("TMPDIR");
        if (base == NULL) base = "/tmp";
        snprintf(fz_dir, sizeof fz_dir, "%s/mxsim-fuzz.XXXXXX", base);
        if (mkdtemp(fz_dir) == NULL) {
            perror("mxsim fuzz: mkdtemp");
            abort();
        }
        atexit(fz_cleanup);
    }
    snprintf(path, sizeof path, "%s/%s", fz_dir, name);
    return path;
}

/* Writes data[0..size) to the file `name` in the private directory; returns its path.  Each
** name keeps one descriptor open for the whole run and is rewritten in place (pwrite, then
** ftruncate to the new length): opening with O_TRUNC per input costs more than most parses. */
static inline const char *fz_write(const char *name, const uint8_t *data, size_t size)
{
    static struct {
        const char *name;
        int fd;
    } open_files[4];
    const char *path = fz_path(name);
    int fd = -1;
    for (int i = 0; i < 4 && fd < 0; i++) {
        if (open_files[i].name != NULL && strcmp(open_files[i].name, name) == 0) fd = open_files[i].fd;
        else if (open_files[i].name == NULL) {
            fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
            if (fd < 0) {
                perror("mxsim fuzz: open");
                abort();
            }
            open_files[i].name = name;
            open_files[i].fd = fd;
        }
    }
    fz_check(fd >= 0);
    size_t off = 0;
    while (off < size) {
        ssize_t w = pwrite(fd, data + off, size - off, (off_t)off);
        if (w <= 0) {
            perror("mxsim fuzz: write");
            abort();
        }
        off += (size_t)w;
    }
    if (ftruncate(fd, (off_t)size) != 0) {
        perror("mxsim fuzz: ftruncate");
        abort();
    }
    return path;
}

/* One context per process: creating it per input would only measure malloc. */
static inline mxsim_ctx *fz_ctx(void)
{
    static mxsim_ctx *ctx;
    if (ctx == NULL) {
        fz_check(mxsim_ctx_create(&ctx) == MXSIM_OK);
        fz_check(mxsim_ctx_set_threads(ctx, 1) == MXSIM_OK); /* deterministic, no thread churn */
    }
    return ctx;
}

/* A failed call must leave a message, and a status the CLI maps to an exit code. */
static inline void fz_check_failure(mxsim_ctx *ctx, mxsim_status st)
{
    fz_check(st > MXSIM_OK && st < MXSIM_STATUS_COUNT_);
    fz_check(st != MXSIM_E_INTERNAL);
    fz_check(mxsim_errmsg(ctx)[0] != '\0');
}

/* Reads every byte of a buffer so that ASan checks its whole extent; returns a checksum. */
static inline unsigned fz_touch(const void *p, size_t n)
{
    const unsigned char *b = p;
    unsigned s = 0;
    for (size_t i = 0; i < n; i++) s = s * 31u + b[i];
    return s;
}

/* Work the library does to time a GEMM m x n x k of group size g (0: the configuration's) under
** SCALE-Sim compatibility with USER bandwidth (scalesim.c, ss_user_sim): it steps SCALE-Sim's
** buffers over every demand row of every fold, rf * cf * fl rows of R + 2C buffer columns each (up
** to 2^32 per op and 2^26 operand elements; mxsim_time_op refuses a larger op with MXSIM_E_LIMIT,
** mx_tscalesim_prepare).  The K it steps is padded to whole groups (engine.c, mx_top_resolve:
** K = 8 with G = 64830 is 64830), so k is padded here too.  An upper bound over the three
** dataflows; 0 in every other mode (the analytic engine's cost does not grow with the op). */
static inline double fz_scalesim_steps(const mxsim_tconfig *cfg, int64_t g, int64_t m, int64_t n, int64_t k)
{
    if (!cfg->scalesim_compat || cfg->scalesim_bw != MXSIM_SCALESIM_BW_USER) return 0;
    if (g <= 0) g = cfg->group_size;
    double R = (double)cfg->array_rows, C = (double)cfg->array_cols;
    double kp = g > 1 ? (double)((k + g - 1) / g) * (double)g : (double)k;
    double mn = (double)(m > n ? m : n), all = mn > kp ? mn : kp;
    double rf = (double)(int64_t)((all + R - 1) / R), cf = (double)(int64_t)((mn + C - 1) / C);
    return rf * cf * (all + 2 * R + C) * (R + 2 * C);
}

/* A GEMM to time under cfg: m x n x k with its largest dimension halved until the SCALE-Sim
** stepping above visits at most `budget` buffer columns.  Where even 1 x 1 x 1 would visit more
** (arrays beyond about 20 x 20, or group sizes above about 50: K is padded to G), a 2^14-cube
** GEMM instead: the library refuses that one with MXSIM_E_LIMIT (more than 2^26 operand
** elements), so both the stepped path and the refusal stay covered.
** Why: a fixed 96 x 80 x 256 GEMM on an 8 x 8 array is about 0.8 M visits, 34 ms per input
** under ASan + coverage (the ini and scalesim_cfg targets fell from 9,000-20,000 to 500-2,600
** executions per second when the stepping model came in). */
static inline void fz_bound_gemm(const mxsim_tconfig *cfg, int64_t g, double budget, int64_t *m, int64_t *n,
                                 int64_t *k)
{
    while (fz_scalesim_steps(cfg, g, *m, *n, *k) > budget) {
        if (*m <= 1 && *n <= 1 && *k <= 1) {
            *m = *n = *k = (int64_t)1 << 14;
            return;
        }
        int64_t *big = *m >= *n && *m >= *k ? m : *n >= *k ? n : k;
        *big = (*big + 1) / 2;
    }
}

#endif

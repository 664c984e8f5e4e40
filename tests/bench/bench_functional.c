/* bench_functional.c - mxsim's bit-exact MXINT8 GEMM against OpenBLAS sgemm.
**
** For each shape (M x N x K), one set of fresh random MXINT8 operands (uniform int8 mantissas,
** OCP scale bytes in 128..136, group size G = 32 along K) is
**   - multiplied by mxsim_gemm_raw (fp32 accumulator mode, SIMD auto, T threads), and
**   - dequantized to float32 (exactly: m * 2^(E-133)) and multiplied by
**     cblas_sgemm(RowMajor, NoTrans, Trans): C[M,N] = A[M,K] . B[N,K]^T, T OpenBLAS threads
**     (openblas_set_num_threads(T)).
** T = 2 by default (--threads).  Per shape: one warm-up call of each; then mxsim is timed reps
** times in a row, then (after a 0.3 s pause, and another before the next shape, so that
** neither library's idle worker threads spin on the CPUs while the other is timed) sgemm reps
** times in a row; reps defaults to 5 (--reps), raised to up to 101 for a shape whose warm-up
** calls say that takes under ~1 s, lowered to at least 3 for one whose mxsim warm-up says the
** runs would take over ~60 s).  The median wall time (CLOCK_MONOTONIC) is reported.  The
** 1-minute load average is printed and written to the CSV: on a shared machine, compare runs
** only at low load.
** Throughput counts 2*M*N*K operations for both (an int8 multiply-add = 2 ops, like a float
** fused multiply-add).
**
** Correctness guard: before and after timing, a sample of mxsim's outputs (corners plus random
** positions) is recomputed by an independent scalar reading of the contract (int32 group dot,
** one rounding per group term, float32 accumulation in ascending group order) and must match
** bit for bit; sgemm's outputs must agree with mxsim's within a loose float tolerance (a sanity
** check of the baseline call).  Any mismatch aborts the benchmark with exit status 1.
**
** Usage: bench_functional [--quick] [--csv PATH] [--threads T] [--reps R]
**   default CSV: reports/bench/functional.csv (relative to the working directory).
*/
#define _GNU_SOURCE /* before any system header: OpenBLAS's cblas.h needs cpu_set_t */
#include <cblas.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mxsim.h"

typedef struct {
    int64_t m, n, k;
} shape_t;

static const shape_t full_shapes[] = {
    {512, 512, 512}, {16, 4096, 4096}, {128, 4096, 4096}, {2048, 4096, 4096}, {4096, 4096, 1024},
};
static const shape_t quick_shapes[] = {
    {128, 128, 128}, {256, 256, 256}, {512, 512, 512}, {16, 1024, 1024},
};

#define GROUP 32

/* ---- small utilities --------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void pause_s(double s)
{
    struct timespec ts;
    ts.tv_sec = (time_t)s;
    ts.tv_nsec = (long)((s - (double)ts.tv_sec) * 1e9);
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static double loadavg1(void)
{
    double l = -1.0;
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (fscanf(f, "%lf", &l) != 1) l = -1.0;
        fclose(f);
    }
    return l;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bench_functional: out of memory (%zu bytes)\n", n);
        exit(1);
    }
    return p;
}

static uint64_t rng_state;
static uint64_t rng_next(void) /* splitmix64 */
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static void fill_random(int8_t *m, size_t nm, uint8_t *e, size_t ne)
{
    size_t k = 0;
    for (; k + 8 <= nm; k += 8) {
        uint64_t r = rng_next();
        memcpy(m + k, &r, 8); /* 8 uniform int8 codes */
    }
    for (; k < nm; k++) m[k] = (int8_t)((int)(rng_next() & 0xFF) - 128);
    for (size_t j = 0; j < ne; j++) e[j] = (uint8_t)(128 + rng_next() % 9);
}

/* value = m * 2^(E-133), exact in float32 for the bytes used here */
static void dequantize(const int8_t *m, const uint8_t *e, int64_t rows, int64_t K, float *out)
{
    const int64_t ng = K / GROUP;
    for (int64_t r = 0; r < rows; r++)
        for (int64_t g = 0; g < ng; g++) {
            float sc = ldexpf(1.0f, (int)e[r * ng + g] - 133);
            for (int64_t k = 0; k < GROUP; k++) {
                int64_t idx = r * K + g * GROUP + k;
                out[idx] = (float)m[idx] * sc;
            }
        }
}

static void cpu_model(char *buf, size_t n)
{
    snprintf(buf, n, "unknown CPU");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *p = strchr(line, ':');
            if (p) {
                p++;
                while (*p == ' ' || *p == '\t') p++;
                snprintf(buf, n, "%s", p);
                size_t l = strlen(buf);
                while (l && (buf[l - 1] == '\n' || buf[l - 1] == ' ')) buf[--l] = '\0';
            }
            break;
        }
    }
    fclose(f);
}

static int mkdirs_for(const char *path) /* mkdir -p of the file's directory */
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    char *slash = strrchr(tmp, '/');
    if (!slash) return 0;
    *slash = '\0';
    for (char *p = tmp + 1; *p; p++) {
        if (*p != '/') continue;
        *p = '\0';
        if (mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
        *p = '/';
    }
    if (tmp[0] && mkdir(tmp, 0777) != 0 && errno != EEXIST) return -1;
    return 0;
}

/* ---- the correctness guard ------------------------------------------------------------ */

static float contract_one(int64_t K, const int8_t *a, const uint8_t *ae, const int8_t *b,
                          const uint8_t *be)
{
    float acc = 0.0f;
    int nan = 0;
    for (int64_t g = 0; g < K / GROUP; g++) {
        if (ae[g] == 0xFF || be[g] == 0xFF) {
            nan = 1;
            continue;
        }
        int32_t d = 0;
        for (int64_t k = 0; k < GROUP; k++) d += (int32_t)a[g * GROUP + k] * (int32_t)b[g * GROUP + k];
        /* d * 2^s is exact in double; the conversion to float is the one rounding */
        acc = acc + (float)ldexp((double)d, (int)ae[g] + (int)be[g] - 266);
    }
    return nan ? NAN : acc;
}

static int same_f32(float x, float y)
{
    if (isnan(x) || isnan(y)) return isnan(x) && isnan(y);
    uint32_t ux, uy;
    memcpy(&ux, &x, 4);
    memcpy(&uy, &y, 4);
    return ux == uy;
}

/* Checks mxsim's c (and, loosely, sgemm's cs if non-NULL) at corners + nsamp random outputs. */
static int spot_check(const shape_t *s, const int8_t *am, const uint8_t *ae, const int8_t *bm,
                      const uint8_t *be, const float *c, const float *cs, int nsamp)
{
    const int64_t M = s->m, N = s->n, K = s->k, ng = K / GROUP;
    int bad = 0;
    for (int t = 0; t < nsamp + 4; t++) {
        int64_t i, j;
        switch (t) {
        case 0: i = 0, j = 0; break;
        case 1: i = M - 1, j = N - 1; break;
        case 2: i = 0, j = N - 1; break;
        case 3: i = M - 1, j = 0; break;
        default: i = (int64_t)(rng_next() % (uint64_t)M), j = (int64_t)(rng_next() % (uint64_t)N);
        }
        float want = contract_one(K, am + i * K, ae + i * ng, bm + j * K, be + j * ng);
        float got = c[i * N + j];
        if (!same_f32(got, want)) {
            if (bad < 5)
                fprintf(stderr, "bench_functional: WRONG RESULT %lldx%lldx%lld C[%lld,%lld]: mxsim %a, "
                        "contract %a\n", (long long)M, (long long)N, (long long)K, (long long)i,
                        (long long)j, (double)got, (double)want);
            bad++;
        }
        if (cs) {
            double absum = 0.0;
            for (int64_t k = 0; k < K; k++)
                absum += fabs((double)am[i * K + k] * ldexp(1.0, ae[i * ng + k / GROUP] - 133) *
                              (double)bm[j * K + k] * ldexp(1.0, be[j * ng + k / GROUP] - 133));
            if (!(fabs((double)cs[i * N + j] - (double)want) <= 1e-4 * absum + 1e-30)) {
                if (bad < 5)
                    fprintf(stderr, "bench_functional: sgemm baseline disagrees at C[%lld,%lld]: "
                            "%g vs %g (sum|ab| %g)\n", (long long)i, (long long)j,
                            (double)cs[i * N + j], (double)want, absum);
                bad++;
            }
        }
    }
    return bad;
}

/* ---- main ------------------------------------------------------------------------------- */

typedef struct {
    shape_t s;
    int reps;
    double mx_ms, sg_ms, mx_gops, sg_gflops, ratio;
} result_t;

static void usage(FILE *f)
{
    fprintf(f, "usage: bench_functional [--quick] [--csv PATH] [--threads T] [--reps R]\n"
               "  --quick      small shapes only\n"
               "  --csv PATH   CSV output (default reports/bench/functional.csv)\n"
               "  --threads T  threads for both mxsim and OpenBLAS (default 2)\n"
               "  --reps R     timed runs per shape (default 5, >= 1)\n");
}

int main(int argc, char **argv)
{
    int quick = 0, threads = 2, reps_req = 5;
    const char *csv = "reports/bench/functional.csv";
    for (int a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--quick")) {
            quick = 1;
        } else if (!strcmp(argv[a], "--csv") && a + 1 < argc) {
            csv = argv[++a];
        } else if (!strcmp(argv[a], "--threads") && a + 1 < argc) {
            threads = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "--reps") && a + 1 < argc) {
            reps_req = atoi(argv[++a]);
        } else if (!strcmp(argv[a], "-h") || !strcmp(argv[a], "--help")) {
            usage(stdout);
            return 0;
        } else {
            usage(stderr);
            return 2;
        }
    }
    if (threads < 1 || threads > 1024 || reps_req < 1) {
        usage(stderr);
        return 2;
    }
    const shape_t *shapes = quick ? quick_shapes : full_shapes;
    const int n_shapes = quick ? (int)(sizeof quick_shapes / sizeof quick_shapes[0])
                               : (int)(sizeof full_shapes / sizeof full_shapes[0]);

    /* thread settings: OpenBLAS via openblas_set_num_threads, mxsim via its context */
    openblas_set_num_threads(threads);
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK || mxsim_ctx_set_threads(ctx, (unsigned)threads) != MXSIM_OK ||
        mxsim_ctx_set_simd(ctx, MXSIM_SIMD_AUTO) != MXSIM_OK) {
        fprintf(stderr, "bench_functional: mxsim context setup failed: %s\n", ctx ? mxsim_errmsg(ctx) : "");
        return 1;
    }
    const char *simd = mxsim_simd_available(MXSIM_SIMD_AVX2) ? "avx2" : "scalar";

    char cpu[256], date[64];
    cpu_model(cpu, sizeof cpu);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    time_t now = time(NULL);
    struct tm tmv;
    gmtime_r(&now, &tmv);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tmv);
    const char *blas_cfg = openblas_get_config();

    const double load_start = loadavg1();
    printf("machine: %s, %ld online CPUs; %s; load average %.2f\n", cpu, ncpu, date, load_start);
    printf("mxsim %s: mxsim_gemm_raw, fp32 accumulator, G=%d, simd auto (%s), %d threads\n",
           mxsim_version(), GROUP, simd, threads);
    printf("baseline: cblas_sgemm on the dequantized float32 matrices, %s, "
           "openblas_set_num_threads(%d) -> %d threads\n",
           blas_cfg ? blas_cfg : "OpenBLAS", threads, openblas_get_num_threads());
    printf("%-20s %5s %12s %12s %12s %14s %8s\n", "shape MxNxK", "reps", "mxsim ms", "sgemm ms",
           "mxsim GOP/s", "sgemm GFLOP/s", "ratio");
    fflush(stdout);

    result_t *res = xmalloc(sizeof(result_t) * (size_t)n_shapes);
    int failed = 0;
    rng_state = 0x6D78696E74386Dull ^ (uint64_t)now; /* fresh data every run */

    for (int si = 0; si < n_shapes && !failed; si++) {
        const shape_t s = shapes[si];
        const int64_t M = s.m, N = s.n, K = s.k, ng = K / GROUP;
        int8_t *am = xmalloc((size_t)(M * K)), *bm = xmalloc((size_t)(N * K));
        uint8_t *ae = xmalloc((size_t)(M * ng)), *be = xmalloc((size_t)(N * ng));
        float *af = xmalloc(sizeof(float) * (size_t)(M * K)), *bf = xmalloc(sizeof(float) * (size_t)(N * K));
        float *c = xmalloc(sizeof(float) * (size_t)(M * N)), *cs = xmalloc(sizeof(float) * (size_t)(M * N));
        fill_random(am, (size_t)(M * K), ae, (size_t)(M * ng));
        fill_random(bm, (size_t)(N * K), be, (size_t)(N * ng));
        dequantize(am, ae, M, K, af);
        dequantize(bm, be, N, K, bf);

        /* warm-up + correctness guard */
        double t0 = now_s();
        mxsim_status st = mxsim_gemm_raw(ctx, M, N, K, GROUP, am, ae, bm, be, MXSIM_ACC_FP32, c);
        double warm_mx = now_s() - t0;
        t0 = now_s();
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0f, af, (int)K,
                    bf, (int)K, 0.0f, cs, (int)N);
        double warm_sg = now_s() - t0;
        if (st != MXSIM_OK) {
            fprintf(stderr, "bench_functional: mxsim_gemm_raw: %s: %s\n", mxsim_strerror(st),
                    mxsim_errmsg(ctx));
            failed = 1;
        } else if (spot_check(&s, am, ae, bm, be, c, cs, 60)) {
            failed = 1;
        }

        int reps = reps_req;
        /* short shapes: more runs (up to 101, about 1 s of each library) for a stable median */
        double warm = warm_mx > warm_sg ? warm_mx : warm_sg;
        if (warm > 0.0 && warm * reps < 1.0) {
            double want = 1.0 / warm;
            reps = want > 101.0 ? 101 : (int)want;
            if (reps < reps_req) reps = reps_req;
        }
        if (warm_mx * reps > 60.0) {
            reps = (int)(60.0 / warm_mx);
            if (reps < 3) reps = 3;
            if (reps > reps_req) reps = reps_req;
        }
        double *tm = xmalloc(sizeof(double) * (size_t)reps), *ts = xmalloc(sizeof(double) * (size_t)reps);
        pause_s(0.3);
        for (int r = 0; r < reps && !failed; r++) {
            memset(c, 0, sizeof(float) * (size_t)(M * N));
            t0 = now_s();
            st = mxsim_gemm_raw(ctx, M, N, K, GROUP, am, ae, bm, be, MXSIM_ACC_FP32, c);
            tm[r] = now_s() - t0;
            if (st != MXSIM_OK) failed = 1;
        }
        pause_s(0.3);
        for (int r = 0; r < reps && !failed; r++) {
            t0 = now_s();
            cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, (int)M, (int)N, (int)K, 1.0f, af,
                        (int)K, bf, (int)K, 0.0f, cs, (int)N);
            ts[r] = now_s() - t0;
        }
        pause_s(0.3);
        if (!failed && spot_check(&s, am, ae, bm, be, c, cs, 60)) failed = 1;
        if (!failed) {
            result_t *rs = &res[si];
            rs->s = s;
            rs->reps = reps;
            double ops = 2.0 * (double)M * (double)N * (double)K;
            double mt = median(tm, reps), stt = median(ts, reps);
            rs->mx_ms = mt * 1e3;
            rs->sg_ms = stt * 1e3;
            rs->mx_gops = ops / mt * 1e-9;
            rs->sg_gflops = ops / stt * 1e-9;
            rs->ratio = rs->mx_gops / rs->sg_gflops;
            char sh[64];
            snprintf(sh, sizeof sh, "%lldx%lldx%lld", (long long)M, (long long)N, (long long)K);
            printf("%-20s %5d %12.2f %12.2f %12.2f %14.2f %8.3f\n", sh, reps, rs->mx_ms, rs->sg_ms,
                   rs->mx_gops, rs->sg_gflops, rs->ratio);
            fflush(stdout);
        }
        free(tm), free(ts);
        free(am), free(bm), free(ae), free(be), free(af), free(bf), free(c), free(cs);
    }
    mxsim_ctx_destroy(ctx);
    if (failed) {
        fprintf(stderr, "bench_functional: aborted: mxsim produced a wrong result (no CSV written)\n");
        free(res);
        return 1;
    }

    if (mkdirs_for(csv) != 0) {
        fprintf(stderr, "bench_functional: cannot create the directory of %s: %s\n", csv, strerror(errno));
        free(res);
        return 1;
    }
    FILE *f = fopen(csv, "w");
    if (!f) {
        fprintf(stderr, "bench_functional: cannot write %s: %s\n", csv, strerror(errno));
        free(res);
        return 1;
    }
    fprintf(f, "# mxsim functional GEMM (bit-exact MXINT8, fp32 accumulator) vs OpenBLAS cblas_sgemm\n");
    fprintf(f, "# machine: %s; %ld online CPUs\n", cpu, ncpu);
    fprintf(f, "# date: %s; 1-min load average %.2f at start, %.2f at end\n", date, load_start,
            loadavg1());
    fprintf(f, "# mxsim %s: mxsim_gemm_raw, G=%d, simd auto (%s), mxsim_ctx_set_threads(%d)\n",
            mxsim_version(), GROUP, simd, threads);
    fprintf(f, "# baseline: %s; openblas_set_num_threads(%d); sgemm on the dequantized float32 "
               "operands, C[M,N] = A[M,K] B[N,K]^T\n", blas_cfg ? blas_cfg : "OpenBLAS", threads);
    fprintf(f, "# times: median wall-clock ms (CLOCK_MONOTONIC) of `reps` runs after one warm-up; "
               "throughput counts 2*m*n*k ops (GOP/s for mxsim int8, GFLOP/s for sgemm); "
               "ratio = mxsim_gops / sgemm_gflops\n");
    fprintf(f, "m,n,k,group_size,threads,reps,mxsim_ms,sgemm_ms,mxsim_gops,sgemm_gflops,ratio\n");
    for (int si = 0; si < n_shapes; si++) {
        const result_t *rs = &res[si];
        fprintf(f, "%lld,%lld,%lld,%d,%d,%d,%.3f,%.3f,%.3f,%.3f,%.4f\n", (long long)rs->s.m,
                (long long)rs->s.n, (long long)rs->s.k, GROUP, threads, rs->reps, rs->mx_ms, rs->sg_ms,
                rs->mx_gops, rs->sg_gflops, rs->ratio);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "bench_functional: error writing %s\n", csv);
        free(res);
        return 1;
    }
    printf("wrote %s\n", csv);
    free(res);
    return 0;
}

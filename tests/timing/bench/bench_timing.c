/* bench_timing.c - speed of the timing engine.  A benchmark, not a test.
**
** Cases, each the median of repeated in-process runs (mxsim_time_op over every op, tiling search
** included; traces are parsed once outside the timer, except in the *_with_parse case):
**   gemm512_os32_int8   512x512x512 GEMM, 32x32 OS array, int8 scalar-MAC peer configuration
**                       (target < 5 ms)
**   op_*                one GEMM op of any size (up to 65536^3) on a bundled config: the analytic
**                       engine's time per op (target <= 5 us = 0.005 ms, issue 14)
**   detail_peer_256     --detail on a 256^3 GEMM with SCALE-Sim v2's own scale.cfg-like 32x32 OS
**                       config (compat mode: the same machine); SCALE-Sim v2 itself runs the same
**                       GEMM in the same benchmark run when --scalesim-python PY (or the environment
**                       variable MXSIM_SCALESIM_PYTHON) names a Python with scalesim installed;
**                       otherwise the peer column is skipped with a note (no quoted peer times).
**   gemm512_os32_mx     the same GEMM with MXINT8 operands (G = 32, 8 lanes, per-row exponent units)
**   llama2_7b_prefill_* traces/llama2-7b-prefill.trace on a 128x128 array (workloads/configs/
**                       large.ini, and its WS/IS variants) (target < 50 ms)
** Baselines measured in the same run, on the same machine:
**   ref_analytic_64     the analytic engine on a 64x64x64 GEMM, 8x8 OS array, MXINT8: the unit of
**                       analytic work every case is divided by ("ratio" column)
**   ref_detail_64       detailed mode (cycle by cycle) on the same op: how much the analytic engine
**                       saves over stepping the array
** Output: a table on stdout and reports/bench/timing.csv (or --csv PATH), written atomically,
** naming the CPU model and core count.
** Usage: bench_timing [--quick] [--csv PATH] [--source DIR] [--scalesim-python PY]
*/
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen, clock_gettime, sysconf (the build defines it too) */
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mxsim.h"

static double now_s(void);

/* Runs SCALE-Sim v2 (python -m scalesim.scale) on one GEMM with cfg_text; returns its wall time in
** ms (a single run, process start included: how a user runs it) and its Total Cycles, or -1. */
static double run_scalesim(const char *py, const char *cfg_text, int64_t M, int64_t N, int64_t K, int64_t *cycles)
{
    char dir[] = "/tmp/mxbench_ssXXXXXX";
    if (mkdtemp(dir) == NULL) return -1;
    char p[512], cmd[2048];
    snprintf(p, sizeof p, "%s/bench.cfg", dir);
    FILE *f = fopen(p, "w");
    if (f == NULL) return -1;
    fputs(cfg_text, f);
    fclose(f);
    snprintf(p, sizeof p, "%s/gemm.csv", dir);
    if ((f = fopen(p, "w")) == NULL) return -1;
    fprintf(f, "Layer, M, N, K,\ng, %lld, %lld, %lld,\n", (long long)M, (long long)N, (long long)K);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' -m scalesim.scale -c bench.cfg -t gemm.csv -p '%s/out' -i gemm "
             ">/dev/null 2>&1", dir, py, dir);
    double t0 = now_s();
    int rc = system(cmd);
    double ms = (now_s() - t0) * 1e3;
    *cycles = -1;
    snprintf(p, sizeof p, "%s/out/bench/COMPUTE_REPORT.csv", dir);
    if (rc == 0 && (f = fopen(p, "r")) != NULL) {
        char line[1024];
        long long a, b;
        if (fgets(line, sizeof line, f) && fgets(line, sizeof line, f) && sscanf(line, "%lld, %lld", &a, &b) == 2)
            *cycles = b;
        fclose(f);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "bench_timing: could not remove %s\n", dir);
    return rc == 0 && *cycles >= 0 ? ms : -1;
}

#define MAX_CASES 24

typedef struct {
    const char *name, *what;
    double target_ms;          /* 0: none */
    const char *baseline;      /* case the ratio is taken against */
    double med_ms, min_ms, max_ms;
    int runs;
    int64_t sim_cycles;        /* what was computed: simulated cycles of the whole case */
} bcase;

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* One unit of work for a case: time every op of `tr` (or the single op) on cfg. */
typedef struct {
    mxsim_ctx *ctx;
    const mxsim_tconfig *cfg;
    const mxsim_trace *tr;     /* or NULL: use op */
    const mxsim_top *op;
    const char *parse_path;    /* non-NULL: parse this trace inside the timed region */
    int detail;
} work;

static int run_once(const work *w, int64_t *cycles)
{
    mxsim_tstats tot, s;
    memset(&tot, 0, sizeof tot);
    mxsim_trace *parsed = NULL;
    const mxsim_trace *tr = w->tr;
    if (w->parse_path) {
        if (mxsim_trace_load(w->ctx, w->parse_path, &parsed) != MXSIM_OK) return -1;
        tr = parsed;
    }
    int64_t n = tr ? mxsim_trace_count(tr) : 1;
    for (int64_t i = 0; i < n; i++) {
        const mxsim_top *op = tr ? mxsim_trace_op(tr, i) : w->op;
        if (mxsim_time_op(w->ctx, w->cfg, op, "bench", w->detail, NULL, &s) != MXSIM_OK) {
            mxsim_trace_free(parsed);
            return -1;
        }
        if (mxsim_tstats_add(w->ctx, w->cfg, &tot, &s, op->name) != MXSIM_OK) {
            mxsim_trace_free(parsed);
            return -1;
        }
    }
    mxsim_trace_free(parsed);
    *cycles = tot.cycles_total;
    return 0;
}

static int measure(bcase *c, const work *w, int runs)
{
    double *t = malloc((size_t)runs * sizeof *t);
    if (t == NULL) return -1;
    int64_t cyc = 0;
    if (run_once(w, &cyc) != 0) { /* warm-up, and the error check */
        fprintf(stderr, "bench_timing: %s: %s\n", c->name, mxsim_errmsg(w->ctx));
        free(t);
        return -1;
    }
    for (int i = 0; i < runs; i++) {
        double t0 = now_s();
        run_once(w, &cyc);
        t[i] = (now_s() - t0) * 1e3;
    }
    qsort(t, (size_t)runs, sizeof *t, cmp_dbl);
    c->med_ms = runs % 2 ? t[runs / 2] : 0.5 * (t[runs / 2 - 1] + t[runs / 2]);
    c->min_ms = t[0];
    c->max_ms = t[runs - 1];
    c->runs = runs;
    c->sim_cycles = cyc;
    free(t);
    return 0;
}

/* CPU model from /proc/cpuinfo ("unknown" elsewhere); commas become ';' for the CSV. */
static void cpu_model(char *buf, size_t len)
{
    snprintf(buf, len, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f == NULL) return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) != 0) continue;
        char *p = strchr(line, ':');
        if (p == NULL) break;
        for (p++; *p == ' ' || *p == '\t'; p++) {}
        p[strcspn(p, "\n")] = '\0';
        snprintf(buf, len, "%s", p);
        break;
    }
    fclose(f);
    for (char *p = buf; *p; p++)
        if (*p == ',') *p = ';';
}

static const bcase *find(const bcase *cs, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(cs[i].name, name)) return &cs[i];
    return NULL;
}

static int write_csv(const char *path, const bcase *cs, int n, const char *cpu, long cores)
{
    size_t L = strlen(path);
    char *tmp = malloc(L + 16);
    if (tmp == NULL) return -1;
    snprintf(tmp, L + 16, "%s.tmpXXXXXX", path);
    int fd = mkstemp(tmp);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (f == NULL) {
        if (fd >= 0) close(fd);
        free(tmp);
        return -1;
    }
    fchmod(fd, 0644);
    fprintf(f, "case,description,median_ms,min_ms,max_ms,runs,target_ms,meets_target,baseline,ratio_to_baseline,"
               "simulated_cycles,cpu_model,cores,mxsim_version\n");
    for (int i = 0; i < n; i++) {
        const bcase *c = &cs[i], *b = c->baseline ? find(cs, n, c->baseline) : NULL;
        fprintf(f, "%s,%s,%.4f,%.4f,%.4f,%d,", c->name, c->what, c->med_ms, c->min_ms, c->max_ms, c->runs);
        if (c->target_ms > 0) fprintf(f, "%g,%s,", c->target_ms, c->med_ms < c->target_ms ? "yes" : "no");
        else fprintf(f, ",,");
        if (b && b->med_ms > 0) fprintf(f, "%s,%.2f,", b->name, c->med_ms / b->med_ms);
        else fprintf(f, ",,");
        fprintf(f, "%lld,%s,%ld,%s\n", (long long)c->sim_cycles, cpu, cores, mxsim_version());
    }
    int ok = fclose(f) == 0;
    if (ok) ok = rename(tmp, path) == 0;
    if (!ok) remove(tmp);
    free(tmp);
    return ok ? 0 : -1;
}

int main(int argc, char **argv)
{
    const char *csv = "reports/bench/timing.csv", *src = ".", *sspy = getenv("MXSIM_SCALESIM_PYTHON");
    int quick = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) quick = 1;
        else if (!strcmp(argv[i], "--csv") && i + 1 < argc) csv = argv[++i];
        else if (!strcmp(argv[i], "--source") && i + 1 < argc) src = argv[++i];
        else if (!strcmp(argv[i], "--scalesim-python") && i + 1 < argc) sspy = argv[++i];
        else {
            fprintf(stderr, "usage: bench_timing [--quick] [--csv PATH] [--source DIR] [--scalesim-python PY]\n");
            return 2;
        }
    }
    mxsim_ctx *ctx = NULL;
    if (mxsim_ctx_create(&ctx) != MXSIM_OK) return 1;
    char path[1024];
    int rc = 1;
    mxsim_trace *llama = NULL;
    bcase cs[MAX_CASES];
    int n = 0;
    memset(cs, 0, sizeof cs);

    /* configurations */
    mxsim_tconfig peer, mx32, large, large_os, large_ws, large_is, ref, small, medium, sspeer;
    mxsim_tconfig_default(&peer); /* SCALE-Sim-like: int8 scalar MACs, its default SRAMs */
    peer.array_rows = peer.array_cols = 32;
    peer.dataflow = MXSIM_DF_OS;
    peer.operand_format = MXSIM_FMT_INT8;
    peer.pe_lanes = peer.load_lanes = 1;
    peer.sram_a_kib = peer.sram_b_kib = 6144;
    peer.sram_c_kib = 2048;
    peer.dram_bw_bytes_per_cycle = 10;
    peer.dram_latency_cycles = 0;
    mx32 = peer;
    mx32.operand_format = MXSIM_FMT_MXINT8;
    mx32.group_size = 32;
    mx32.pe_lanes = mx32.load_lanes = 8;
    mx32.exp_share = MXSIM_EXP_PER_ROW;
    mx32.dram_latency_cycles = 100;
    mxsim_tconfig_default(&large);
    snprintf(path, sizeof path, "%s/workloads/configs/large.ini", src);
    if (mxsim_tconfig_load(ctx, &large, path) != MXSIM_OK) goto fail;
    mxsim_tconfig_default(&small);
    snprintf(path, sizeof path, "%s/workloads/configs/small.ini", src);
    if (mxsim_tconfig_load(ctx, &small, path) != MXSIM_OK) goto fail;
    mxsim_tconfig_default(&medium);
    snprintf(path, sizeof path, "%s/workloads/configs/medium.ini", src);
    if (mxsim_tconfig_load(ctx, &medium, path) != MXSIM_OK) goto fail;
    /* SCALE-Sim v2's scale.cfg geometry (32x32 OS, 64 KiB SRAMs), CALC bandwidth: the file both
    ** simulators read */
    static const char ss_cfg[] = "[general]\nrun_name = bench\n\n[architecture_presets]\nArrayHeight: 32\n"
                                 "ArrayWidth: 32\nIfmapSramSzkB: 64\nFilterSramSzkB: 64\nOfmapSramSzkB: 64\n"
                                 "IfmapOffset: 0\nFilterOffset: 10000000\nOfmapOffset: 20000000\nDataflow : os\n"
                                 "Bandwidth : 10\nMemoryBanks: 1\n\n[run_presets]\nInterfaceBandwidth: CALC\n";
    {
        char cp[] = "/tmp/mxbench_cfgXXXXXX";
        int fd = mkstemp(cp);
        FILE *cf = fd >= 0 ? fdopen(fd, "w") : NULL;
        if (cf == NULL) goto fail;
        fputs(ss_cfg, cf);
        fclose(cf);
        char cfgp[64];
        snprintf(cfgp, sizeof cfgp, "%s.cfg", cp);
        int ok = rename(cp, cfgp) == 0;
        mxsim_tconfig_default(&sspeer);
        ok = ok && mxsim_tconfig_load(ctx, &sspeer, cfgp) == MXSIM_OK;
        remove(cfgp);
        if (!ok) goto fail;
    }
    large_os = large, large_os.dataflow = MXSIM_DF_OS;
    large_ws = large, large_ws.dataflow = MXSIM_DF_WS;
    large_is = large, large_is.dataflow = MXSIM_DF_IS;
    mxsim_tconfig_default(&ref);
    ref.array_rows = ref.array_cols = 8;
    ref.dataflow = MXSIM_DF_OS;
    ref.exp_share = MXSIM_EXP_PER_ROW;
    ref.sram_a_kib = ref.sram_b_kib = ref.sram_c_kib = 16;
    snprintf(path, sizeof path, "%s/traces/llama2-7b-prefill.trace", src);
    if (mxsim_trace_load(ctx, path, &llama) != MXSIM_OK) goto fail;

    mxsim_top g512, g64;
    memset(&g512, 0, sizeof g512);
    g512.kind = MXSIM_OP_GEMM;
    snprintf(g512.name, sizeof g512.name, "gemm512");
    g512.m = g512.n = g512.k = 512;
    g512.repeat = 1;
    g512.a_fmt = g512.b_fmt = g512.out_fmt = -1;
    g64 = g512;
    snprintf(g64.name, sizeof g64.name, "gemm64");
    g64.m = g64.n = g64.k = 64;
    mxsim_top g256 = g512, h32k = g512, h64k = g512;
    g256.m = g256.n = g256.k = 256;
    h32k.m = h32k.n = h32k.k = 32768;
    h64k.m = h64k.n = h64k.k = 65536;

    int r_fast = quick ? 21 : 201, r_trace = quick ? 5 : 51, r_detail = quick ? 3 : 9;
    struct {
        bcase c;
        work w;
        int runs;
    } plan[] = {
        {{"ref_analytic_64", "analytic; 64x64x64 GEMM; 8x8 OS; MXINT8 G=32", 0, NULL, 0, 0, 0, 0, 0},
         {ctx, &ref, NULL, &g64, NULL, 0}, r_fast},
        {{"ref_detail_64", "detailed mode (cycle by cycle); same op and array", 0, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &ref, NULL, &g64, NULL, 1}, r_detail},
        {{"op_512_small", "one 512^3 GEMM op; small.ini (analytic; per op)", 0.005, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &small, NULL, &g512, NULL, 0}, r_fast},
        {{"op_32768_small", "one 32768^3 GEMM op; small.ini (was refused: > 2^26 tiles)", 0.005, "ref_analytic_64",
          0, 0, 0, 0, 0},
         {ctx, &small, NULL, &h32k, NULL, 0}, r_fast},
        {{"op_65536_medium", "one 65536^3 GEMM op; medium.ini (was 0.9 s)", 0.005, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &medium, NULL, &h64k, NULL, 0}, r_fast},
        {{"op_65536_large", "one 65536^3 GEMM op; large.ini", 0.005, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &large, NULL, &h64k, NULL, 0}, r_fast},
        {{"detail_peer_256", "--detail; 256^3 GEMM; SCALE-Sim scale.cfg-like 32x32 OS (compat)", 0, "ref_analytic_64",
          0, 0, 0, 0, 0},
         {ctx, &sspeer, NULL, &g256, NULL, 1}, r_detail},
        {{"gemm512_os32_int8", "512x512x512 GEMM; 32x32 OS; int8 L=1", 5, "ref_analytic_64",
          0, 0, 0, 0, 0},
         {ctx, &peer, NULL, &g512, NULL, 0}, r_fast},
        {{"gemm512_os32_mx", "512x512x512 GEMM; 32x32 OS; MXINT8 G=32 L=8 per-row exp", 5, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &mx32, NULL, &g512, NULL, 0}, r_fast},
        {{"llama2_7b_prefill_os128", "llama2-7b-prefill.trace (9 ops); large.ini 128x128 with OS", 50, "ref_analytic_64",
          0, 0, 0, 0, 0},
         {ctx, &large_os, llama, NULL, NULL, 0}, r_trace},
        {{"llama2_7b_prefill_ws128", "same trace; 128x128 WS (large.ini as bundled)", 50, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &large_ws, llama, NULL, NULL, 0}, r_trace},
        {{"llama2_7b_prefill_is128", "same trace; 128x128 IS", 50, "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &large_is, llama, NULL, NULL, 0}, r_trace},
        {{"llama2_7b_prefill_with_parse", "same as ws128 with the trace file parsed inside the timer", 50,
          "ref_analytic_64", 0, 0, 0, 0, 0},
         {ctx, &large, NULL, NULL, path, 0}, r_trace},
    };
    for (size_t i = 0; i < sizeof plan / sizeof plan[0]; i++) {
        cs[n] = plan[i].c;
        if (measure(&cs[n], &plan[i].w, plan[i].runs) != 0) goto fail;
        n++;
    }

    char cpu[256];
    cpu_model(cpu, sizeof cpu);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    printf("mxsim %s timing-engine benchmark on %s, %ld cores (median of in-process runs)\n\n", mxsim_version(),
           cpu, cores);
    printf("%-29s %10s %10s %6s %10s %7s %13s %16s\n", "case", "median_ms", "min_ms", "runs", "target_ms",
           "meets", "x_ref_64", "simulated_cyc");
    for (int i = 0; i < n; i++) {
        const bcase *c = &cs[i], *b = c->baseline ? find(cs, n, c->baseline) : NULL;
        char tgt[32] = "-", ratio[32] = "-";
        if (c->target_ms > 0) snprintf(tgt, sizeof tgt, "%g", c->target_ms);
        if (b && b->med_ms > 0) snprintf(ratio, sizeof ratio, "%.1f", c->med_ms / b->med_ms);
        printf("%-29s %10.4f %10.4f %6d %10s %7s %13s %16lld\n", c->name, c->med_ms, c->min_ms, c->runs, tgt,
               c->target_ms > 0 ? (c->med_ms < c->target_ms ? "yes" : "NO") : "-", ratio, (long long)c->sim_cycles);
    }
    printf("\nx_ref_64: median / median of ref_analytic_64 (the analytic engine on a 64^3 GEMM, same run).\n"
           "ref_detail_64 / ref_analytic_64 = %.0f: detailed mode's cost over the analytic engine.\n",
           find(cs, n, "ref_detail_64")->med_ms / find(cs, n, "ref_analytic_64")->med_ms);
    /* the peer, measured now or not at all */
    const bcase *dp = find(cs, n, "detail_peer_256");
    if (sspy != NULL && sspy[0] != '\0') {
        int64_t ss_cyc = -1;
        double ss_ms = run_scalesim(sspy, ss_cfg, 256, 256, 256, &ss_cyc);
        if (ss_ms > 0) {
            cs[n] = (bcase){"scalesim_v2_peer_256", "SCALE-Sim v2 (python -m scalesim.scale) on the same GEMM and cfg; 1 run",
                            0, "detail_peer_256", ss_ms, ss_ms, ss_ms, 1, ss_cyc};
            n++;
            printf("SCALE-Sim v2 (%s), measured in this run: %.0f ms, %lld cycles; mxsim --detail on the same GEMM and "
                   "cfg: %.2f ms, %lld cycles: %.0fx faster (target >= 100x: %s).\n", sspy, ss_ms, (long long)ss_cyc,
                   dp->med_ms, (long long)dp->sim_cycles, ss_ms / dp->med_ms, ss_ms / dp->med_ms >= 100 ? "yes" : "NO");
        } else {
            printf("SCALE-Sim v2: '%s -m scalesim.scale' failed; peer column skipped.\n", sspy);
        }
    } else {
        printf("SCALE-Sim v2: not configured (--scalesim-python PY or MXSIM_SCALESIM_PYTHON); peer column skipped, "
               "no ratio printed.\n");
    }
    /* reports/bench may not exist in a fresh checkout of the default path */
    if (!strcmp(csv, "reports/bench/timing.csv")) {
        mkdir("reports", 0755);
        mkdir("reports/bench", 0755);
    }
    if (write_csv(csv, cs, n, cpu, cores) != 0) {
        fprintf(stderr, "bench_timing: cannot write %s\n", csv);
        goto fail;
    }
    printf("wrote %s\n", csv);
    rc = 0;
fail:
    if (rc != 0 && n == 0) fprintf(stderr, "bench_timing: %s\n", mxsim_errmsg(ctx));
    mxsim_trace_free(llama);
    mxsim_ctx_destroy(ctx);
    return rc;
}

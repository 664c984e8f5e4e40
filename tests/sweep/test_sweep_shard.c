/* test_sweep_shard.c - shard slices (balanced, contiguous, covering every point once for every
** N up to and beyond the point count), a sharded run returns only its slice with the same
** results as the unsharded run, and the shard API refuses bad arguments.  Merge refuses parts
** of another mxsim build (build identifier, struct sizes, part format version), a part whose
** shard index is out of range (no overflow computing its slice), and parts whose --data files
** differ in content under the same names. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

static mxsim_trace *one_op_trace(mxsim_ctx *ctx)
{
    mxsim_trace *tr;
    if (mxsim_trace_create(ctx, "mem", &tr) != MXSIM_OK) return NULL;
    mxsim_top op = mxt_gemm_op("fc", 32, 48, 128);
    mxsim_trace_append(ctx, tr, &op);
    return tr;
}

static mxsim_sweep *make(mxsim_ctx *ctx)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw = NULL;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.size", "4,8,16"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "mx.group_size", "16,32,64,128"), MXSIM_OK);
    return sw; /* 12 points */
}

MXTEST(slices_are_balanced_contiguous_and_cover_every_point_once)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_sweep *sw = make(ctx);
    for (int64_t n = 1; n <= 15; n++) {
        int64_t next = 0, lo = 1 << 30, hi = 0;
        for (int64_t i = 0; i < n; i++) {
            int64_t idx, cnt, first, end;
            MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, i, n), MXSIM_OK);
            mxsim_sweep_shard(sw, &idx, &cnt, &first, &end);
            MXT_EQ_INT(idx, i);
            MXT_EQ_INT(cnt, n);
            MXT_EQ_INT(first, next); /* contiguous, in order */
            next = end;
            if (end - first < lo) lo = end - first;
            if (end - first > hi) hi = end - first;
        }
        MXT_EQ_INT(next, 12);   /* every point once */
        MXT_TRUE(hi - lo <= 1); /* balanced */
    }
    mxsim_sweep_free(sw);
    mxsim_ctx_destroy(ctx);
}

MXTEST(sharded_run_returns_its_slice_with_the_unsharded_results)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = one_op_trace(ctx);
    mxsim_sweep *full = make(ctx), *part = make(ctx);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 2;
    o.acc.sample_rows = o.acc.sample_cols = 8;
    MXT_EQ_INT(mxsim_sweep_run(ctx, full, tr, &o), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, part, 2, 5), MXSIM_OK); /* points 4..6 */
    MXT_EQ_INT(mxsim_sweep_run(ctx, part, tr, &o), MXSIM_OK);
    for (int64_t i = 0; i < 12; i++) {
        const mxsim_sweep_point *p = mxsim_sweep_point_at(part, i), *f = mxsim_sweep_point_at(full, i);
        MXT_TRUE(f != NULL);
        if (i < 4 || i > 6) {
            MXT_TRUE(p == NULL);
            continue;
        }
        MXT_TRUE(p != NULL);
        MXT_EQ_INT(p->status, MXSIM_OK);
        MXT_EQ_INT(p->total.cycles_total, f->total.cycles_total);
        MXT_TRUE(p->acc.sqnr_db == f->acc.sqnr_db);
        MXT_TRUE(p->energy.total_pj[0] == f->energy.total_pj[0]);
        MXT_TRUE(!strcmp(p->values[0], f->values[0]) && !strcmp(p->values[1], f->values[1]));
    }
    /* a sharded sweep is written as a part file, never as a table */
    mxsim_sweep_info info = {NULL, NULL, &o};
    mxsim_table *t = NULL;
    MXT_EQ_INT(mxsim_sweep_table(ctx, part, tr, &info, 0, &t), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "part file") != NULL);
    MXT_EQ_INT(mxsim_sweep_save_part(ctx, full, tr, &info, "/dev/null"), MXSIM_E_ARG); /* not sharded */
    mxsim_sweep_free(full);
    mxsim_sweep_free(part);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

/* Writes the two parts of a 2-shard run to dir/p0.part, dir/p1.part. */
static void write_parts(mxsim_ctx *ctx, const mxsim_trace *tr, const char *dir)
{
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.accuracy = 0;
    mxsim_sweep_info info = {"mem.trace", NULL, &o};
    for (int i = 0; i < 2; i++) {
        mxsim_sweep *sw = make(ctx);
        char path[512];
        snprintf(path, sizeof path, "%s/p%d.part", dir, i);
        MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, i, 2), MXSIM_OK);
        MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
        MXT_EQ_INT(mxsim_sweep_save_part(ctx, sw, tr, &info, path), MXSIM_OK);
        mxsim_sweep_free(sw);
    }
}

/* Overwrites 4 bytes at offset `at` of the first point record of path (6 points of 1 op), then
** rewrites the trailing CRC-32 when fix_crc (so the record check, not the checksum, is tested). */
static void poke_first_record(const char *path, size_t at, int32_t v, int fix_crc)
{
    FILE *f = fopen(path, "rb");
    MXT_TRUE(f != NULL);
    if (f == NULL) return;
    static unsigned char buf[1 << 20];
    size_t len = fread(buf, 1, sizeof buf, f);
    fclose(f);
    size_t rec = sizeof(mxsim_sweep_point) + sizeof(mxsim_tstats) + sizeof(mxsim_energy) + sizeof(mxsim_accuracy) +
                 sizeof(int64_t);
    size_t body = len - sizeof(uint32_t);
    memcpy(buf + body - 6 * rec + at, &v, sizeof v);
    if (fix_crc) {
        uint32_t crc = (uint32_t)crc32(0L, buf, (uInt)body);
        memcpy(buf + body, &crc, sizeof crc);
    }
    f = fopen(path, "wb");
    MXT_TRUE(f != NULL && fwrite(buf, 1, len, f) == len);
    if (f) fclose(f);
}

/* A context, the one-op trace, and a scratch directory with the paths of two parts and an output. */
typedef struct {
    mxsim_ctx *ctx;
    mxsim_trace *tr;
    char dir[32], p0[600], p1[600], out[600];
} shard_fx;

static void fx_open(shard_fx *f)
{
    MXT_EQ_INT(mxsim_ctx_create(&f->ctx), MXSIM_OK);
    f->tr = one_op_trace(f->ctx);
    snprintf(f->dir, sizeof f->dir, "/tmp/mxsim_shard_XXXXXX");
    MXT_TRUE(mkdtemp(f->dir) != NULL);
    snprintf(f->p0, sizeof f->p0, "%s/p0.part", f->dir);
    snprintf(f->p1, sizeof f->p1, "%s/p1.part", f->dir);
    snprintf(f->out, sizeof f->out, "%s/out.json", f->dir);
}

static void fx_close(shard_fx *f)
{
    remove(f->p0);
    remove(f->p1);
    remove(f->out);
    rmdir(f->dir);
    mxsim_trace_free(f->tr);
    mxsim_ctx_destroy(f->ctx);
}

MXTEST(merge_checks_every_record_against_its_index)
{
    shard_fx f;
    fx_open(&f);
    mxsim_ctx *ctx = f.ctx;
    mxsim_trace *tr = f.tr;
    const char *dir = f.dir, *p0 = f.p0, *p1 = f.p1, *out = f.out;
    const char *parts[2] = {p1, p0};
    int64_t failed = -1;
    write_parts(ctx, tr, dir);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, &failed), MXSIM_OK);
    MXT_EQ_INT(failed, 0);
    /* another point's configuration in the record (array.rows is the first field) */
    poke_first_record(p1, offsetof(mxsim_sweep_point, cfg), 64, 0); /* the checksum sees it */
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "p1.part: corrupt part file (CRC-32 mismatch") != NULL);
    write_parts(ctx, tr, dir);
    poke_first_record(p1, offsetof(mxsim_sweep_point, cfg), 64, 1);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "p1.part: corrupt part file (the record of point 6)") != NULL);
    write_parts(ctx, tr, dir);
    poke_first_record(p0, offsetof(mxsim_sweep_point, status), 999, 1); /* no such status */
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "p0.part: corrupt part file (the record of point 0)") != NULL);
    fx_close(&f);
}

MXTEST(bad_shards_are_refused)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_sweep *sw = make(ctx);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, 3, 3), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, -1, 3), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, 0, -2), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, 1, 0), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, 0, 0), MXSIM_OK); /* back to the whole sweep */
    MXT_EQ_INT(mxsim_sweep_set_shard(ctx, NULL, 0, 1), MXSIM_E_ARG);
    const char *none[1] = {NULL};
    MXT_EQ_INT(mxsim_sweep_merge(ctx, none, 0, MXSIM_OUTPUT_CSV, "x.csv", NULL), MXSIM_E_ARG);
    mxsim_sweep_free(sw);
    mxsim_ctx_destroy(ctx);
}

/* ---- parts edited as another build would write them (layout: sweep_part.c) ------------------ */

static unsigned char g_buf[1 << 20];

static size_t load(const char *path)
{
    FILE *f = fopen(path, "rb");
    MXT_TRUE(f != NULL);
    if (f == NULL) return 0;
    size_t len = fread(g_buf, 1, sizeof g_buf, f);
    fclose(f);
    return len;
}

/* Rewrites the trailing CRC-32 and saves. */
static void save_fixed(const char *path, size_t len)
{
    uint32_t crc = (uint32_t)crc32(0L, g_buf, (uInt)(len - 4));
    memcpy(g_buf + len - 4, &crc, sizeof crc);
    FILE *f = fopen(path, "wb");
    MXT_TRUE(f != NULL && fwrite(g_buf, 1, len, f) == len);
    if (f) fclose(f);
}

static int64_t i64_at(size_t at)
{
    int64_t v;
    memcpy(&v, g_buf + at, sizeof v);
    return v;
}

/* "MXSIM-SWEEP-PART\n" (17 bytes), u32 format version, then section "version": i64 7, "version",
** i64 body length, body = (i64 len, mxsim version)(i64 len, build id)(i64 len, commit) 6 x i64. */
#define AT_FORMAT 17
#define AT_VERSION_BODY (17 + 4 + 8 + 7 + 8)

/* Offset of the build id string's first byte; *len its length. */
static size_t build_id_at(size_t *len)
{
    size_t at = AT_VERSION_BODY;
    at += 8 + (size_t)i64_at(at); /* mxsim version */
    *len = (size_t)i64_at(at);
    return at + 8;
}

/* Offset of the shard index: after the seven sections (name, length, body each). */
static size_t shard_index_at(void)
{
    size_t at = AT_FORMAT + 4;
    for (int s = 0; s < 7; s++) {
        at += 8 + (size_t)i64_at(at); /* name */
        at += 8 + (size_t)i64_at(at); /* body */
    }
    return at;
}

MXTEST(merge_refuses_parts_of_another_build)
{
    shard_fx f;
    fx_open(&f);
    mxsim_ctx *ctx = f.ctx;
    mxsim_trace *tr = f.tr;
    const char *dir = f.dir, *p0 = f.p0, *p1 = f.p1, *out = f.out;
    char msg[700];
    const char *parts[2] = {p0, p1};

    /* another build identifier: refused, naming the part and both identifiers */
    write_parts(ctx, tr, dir);
    size_t len = load(p1), idlen = 0, id = build_id_at(&idlen);
    MXT_TRUE(idlen >= 8 && idlen < 100 && !memcmp(g_buf + id, "src-", 4));
    char mine[128], theirs[128];
    memcpy(mine, g_buf + id, idlen);
    mine[idlen] = '\0';
    g_buf[id + idlen - 1] = g_buf[id + idlen - 1] == 'f' ? 'e' : 'f'; /* another hash */
    memcpy(theirs, g_buf + id, idlen);
    theirs[idlen] = '\0';
    save_fixed(p1, len);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    snprintf(msg, sizeof msg, "p1.part: written by another mxsim build: mxsim %s, build %s (git ", MXSIM_PROJECT_VERSION,
             theirs);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), msg) != NULL);
    snprintf(msg, sizeof msg, "this mxsim is mxsim %s, build %s (git ", MXSIM_PROJECT_VERSION, mine);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), msg) != NULL);
    MXT_TRUE(access(out, F_OK) != 0); /* nothing written */
    /* the same identifier but the parts' first (p0) of another build: refused too (not only pairwise) */
    parts[0] = p1, parts[1] = p0;
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "p1.part: written by another mxsim build") != NULL);
    parts[0] = p0, parts[1] = p1;

    /* another commit with the same sources: the same build (the commit is only shown) */
    write_parts(ctx, tr, dir);
    len = load(p1);
    id = build_id_at(&idlen);
    size_t commit = id + idlen, clen = (size_t)i64_at(commit);
    MXT_TRUE(clen >= 1);
    g_buf[commit + 8] = g_buf[commit + 8] == 'a' ? 'b' : 'a';
    save_fixed(p1, len);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_OK);
    remove(out);

    /* other result struct sizes (a build for another ABI): said plainly, not 'corrupt' */
    write_parts(ctx, tr, dir);
    len = load(p1);
    id = build_id_at(&idlen);
    size_t sizes = commit + 8 + (size_t)i64_at(id + idlen); /* after the commit string */
    MXT_EQ_INT(i64_at(sizes + 5 * 8), (int64_t)sizeof(mxsim_tconfig));
    int64_t bigger = (int64_t)sizeof(mxsim_tconfig) + 8;
    memcpy(g_buf + sizes + 5 * 8, &bigger, sizeof bigger);
    save_fixed(p1, len);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    snprintf(msg, sizeof msg, "p1.part: written by another mxsim build: its struct mxsim_tconfig is %lld bytes, this mxsim's %lld",
             (long long)bigger, (long long)sizeof(mxsim_tconfig));
    MXT_TRUE(strstr(mxsim_errmsg(ctx), msg) != NULL);

    /* a part of an older format (version 2, before the build identifier) */
    write_parts(ctx, tr, dir);
    len = load(p0);
    uint32_t v2 = 2;
    memcpy(g_buf + AT_FORMAT, &v2, sizeof v2);
    save_fixed(p0, len);
    MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "p0.part: written by another mxsim build: part format version 2") != NULL);
    MXT_TRUE(access(out, F_OK) != 0);
    fx_close(&f);
}

MXTEST(merge_range_checks_the_shard_index_before_its_slice)
{
    shard_fx f;
    fx_open(&f);
    mxsim_ctx *ctx = f.ctx;
    mxsim_trace *tr = f.tr;
    const char *dir = f.dir, *p0 = f.p0, *p1 = f.p1, *out = f.out;
    const char *parts[2] = {p0, p1};
    const int64_t bad[] = {(int64_t)1 << 62, INT64_MAX, -1, 2, INT64_MIN};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        write_parts(ctx, tr, dir);
        size_t len = load(p1), at = shard_index_at();
        MXT_EQ_INT(i64_at(at), 1);     /* shard index of p1 */
        MXT_EQ_INT(i64_at(at + 8), 2); /* shard count */
        memcpy(g_buf + at, &bad[k], sizeof bad[k]);
        save_fixed(p1, len);
        MXT_EQ_INT(mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL), MXSIM_E_INPUT);
        char msg[200];
        snprintf(msg, sizeof msg, "p1.part: truncated or corrupt part file (shard %lld/2)", (long long)bad[k]);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), msg) != NULL);
        MXT_TRUE(access(out, F_OK) != 0);
    }
    fx_close(&f);
}

/* dir/fc.a.npy [32, 128] and dir/fc.b.npy [48, 128] (op fc: m 32, n 48, k 128), every value v. */
static void write_data(mxsim_ctx *ctx, const char *dir, float v)
{
    const int64_t shape_a[2] = {32, 128}, shape_b[2] = {48, 128};
    const int64_t *shapes[2] = {shape_a, shape_b};
    for (int s = 0; s < 2; s++) {
        mxsim_tensor *t = NULL;
        MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shapes[s], &t), MXSIM_OK);
        float *d = mxsim_tensor_data(t);
        for (int64_t i = 0; i < shapes[s][0] * 128; i++) d[i] = v * (float)(1 + i % 7);
        char path[700];
        snprintf(path, sizeof path, "%s/fc.%c.npy", dir, s ? 'b' : 'a');
        MXT_EQ_INT(mxsim_tensor_save_npy(ctx, t, path), MXSIM_OK);
        mxsim_tensor_free(t);
    }
}

MXTEST(merge_refuses_parts_whose_data_files_differ)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = one_op_trace(ctx);
    char dir[] = "/tmp/mxsim_shard_XXXXXX";
    MXT_TRUE(mkdtemp(dir) != NULL);
    char data[600], p[2][600], out[600];
    snprintf(data, sizeof data, "%s/data", dir);
    MXT_EQ_INT(mkdir(data, 0700), 0);
    snprintf(out, sizeof out, "%s/out.json", dir);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.acc.sample_rows = o.acc.sample_cols = 4;
    o.acc.data_dir = data;
    mxsim_sweep_info info = {"mem.trace", NULL, &o};
    for (int round = 0; round < 2; round++) { /* round 1: the B operand's file changes between the shards */
        write_data(ctx, data, 0.5f);
        for (int i = 0; i < 2; i++) {
            if (round == 1 && i == 1) { /* same name, same size, other contents */
                const int64_t shape_b[2] = {48, 128};
                mxsim_tensor *t = NULL;
                MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape_b, &t), MXSIM_OK);
                float *d = mxsim_tensor_data(t);
                for (int64_t k = 0; k < 48 * 128; k++) d[k] = -0.25f * (float)(1 + k % 5);
                char path[700];
                snprintf(path, sizeof path, "%s/fc.b.npy", data);
                MXT_EQ_INT(mxsim_tensor_save_npy(ctx, t, path), MXSIM_OK);
                mxsim_tensor_free(t);
            }
            mxsim_sweep *sw = make(ctx);
            snprintf(p[i], sizeof p[i], "%s/p%d.part", dir, i);
            MXT_EQ_INT(mxsim_sweep_set_shard(ctx, sw, i, 2), MXSIM_OK);
            MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
            MXT_EQ_INT(mxsim_sweep_save_part(ctx, sw, tr, &info, p[i]), MXSIM_OK);
            mxsim_sweep_free(sw);
        }
        const char *parts[2] = {p[0], p[1]};
        mxsim_status st = mxsim_sweep_merge(ctx, parts, 2, MXSIM_OUTPUT_JSON, out, NULL);
        if (round == 0) {
            MXT_EQ_INT(st, MXSIM_OK); /* the same files: one sweep */
            remove(out);
        } else {
            MXT_EQ_INT(st, MXSIM_E_INPUT);
            MXT_TRUE(strstr(mxsim_errmsg(ctx), "p1.part: not a part of the same sweep as ") != NULL);
            MXT_TRUE(strstr(mxsim_errmsg(ctx), "the --data file fc.b.npy (its contents) differ") != NULL);
            MXT_TRUE(access(out, F_OK) != 0);
        }
    }
    char path[700];
    for (int s = 0; s < 2; s++) {
        snprintf(path, sizeof path, "%s/fc.%c.npy", data, s ? 'b' : 'a');
        remove(path);
        remove(p[s]);
    }
    rmdir(data);
    rmdir(dir);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

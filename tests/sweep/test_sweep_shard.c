/* test_sweep_shard.c - shard slices (balanced, contiguous, covering every point once for every
** N up to and beyond the point count), a sharded run returns only its slice with the same
** results as the unsharded run, and the shard API refuses bad arguments. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

MXTEST(merge_checks_every_record_against_its_index)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr = one_op_trace(ctx);
    char dir[] = "/tmp/mxsim_shard_XXXXXX";
    MXT_TRUE(mkdtemp(dir) != NULL);
    char p0[600], p1[600], out[600];
    snprintf(p0, sizeof p0, "%s/p0.part", dir);
    snprintf(p1, sizeof p1, "%s/p1.part", dir);
    snprintf(out, sizeof out, "%s/out.json", dir);
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
    remove(p0);
    remove(p1);
    remove(out);
    rmdir(dir);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
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

MXTEST_MAIN()

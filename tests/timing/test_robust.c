/* test_robust.c - issue 15 through the API: the cancellation hook (nothing left behind, the old
** file untouched), all-or-nothing mxsim_files_write, the "-" descriptor, FIFOs refused, trace
** names that the text format cannot carry refused at append, size products that overflow, and
** the accessors documented to accept NULL. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mxsim.h"
#include "mxtest.h"

#define TMP_FALLBACK "/tmp/mxsim_test_robust"
static const char *dir(void) { return mxt_tmp_dir(TMP_FALLBACK); }
static const char *path(const char *name) { return mxt_tmp_path(TMP_FALLBACK, name); }

static int n_entries(void) /* files in the test directory, hidden ones included */
{
    DIR *d = opendir(dir());
    int n = 0;
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    if (d) closedir(d);
    return n;
}

static void clean(void)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'/* '%s'/.[!.]* 2>/dev/null", dir(), dir());
    (void)system(cmd);
}

static int cancel_after; /* the hook says stop on its cancel_after-th call (0: at once) */
static int cancel_calls;
static int cancel_fn(void *user)
{
    (void)user;
    return cancel_calls++ >= cancel_after;
}

MXTEST(cancel_leaves_nothing)
{
    clean();
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    size_t n = 5u << 20; /* five 1 MiB chunks */
    char *data = calloc(n, 1);
    MXT_EQ_INT(mxsim_file_write(ctx, path("old.bin"), "old", 3), MXSIM_OK);
    for (int after = 0; after < 5; after++) {
        cancel_after = after;
        cancel_calls = 0;
        MXT_EQ_INT(mxsim_ctx_set_cancel(ctx, cancel_fn, NULL), MXSIM_OK);
        MXT_EQ_INT(mxsim_file_write(ctx, path("new.bin"), data, n), MXSIM_E_CANCELLED);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), "cancelled") != NULL);
        MXT_EQ_INT(mxsim_file_write(ctx, path("old.bin"), data, n), MXSIM_E_CANCELLED);
        MXT_EQ_INT(n_entries(), 1); /* old.bin only: no temporary, no new.bin */
        struct stat sb;
        MXT_TRUE(stat(path("old.bin"), &sb) == 0 && sb.st_size == 3);
    }
    MXT_EQ_INT(mxsim_ctx_set_cancel(ctx, NULL, NULL), MXSIM_OK);
    MXT_EQ_INT(mxsim_file_write(ctx, path("new.bin"), data, n), MXSIM_OK);
    MXT_EQ_INT(mxsim_ctx_set_cancel(NULL, cancel_fn, NULL), MXSIM_E_ARG);
    free(data);
    mxsim_ctx_destroy(ctx);
}

/* The detailed engine polls the hook every 2^14 cycles (detail.c, run): a long op whose hook
** says stop on its third poll returns MXSIM_E_CANCELLED after exactly three polls (within 2^15
** cycles of the first), with its access trace removed (no file, no temporary). */
MXTEST(cancel_detail)
{
    clean();
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    MXT_EQ_INT(mxsim_tconfig_set(ctx, &cfg, "array.rows", "4", "test"), MXSIM_OK);
    MXT_EQ_INT(mxsim_tconfig_set(ctx, &cfg, "array.cols", "4", "test"), MXSIM_OK);
    mxsim_top op;
    memset(&op, 0, sizeof op);
    op.kind = MXSIM_OP_GEMM;
    snprintf(op.name, sizeof op.name, "long");
    op.m = 64, op.n = 64, op.k = 4096, op.repeat = 1;
    op.a_fmt = op.b_fmt = op.out_fmt = -1;
    mxsim_tstats s;
    /* uncancelled, the hook counts the polls: the op is long (many polls) */
    cancel_after = 1 << 30;
    cancel_calls = 0;
    MXT_EQ_INT(mxsim_ctx_set_cancel(ctx, cancel_fn, NULL), MXSIM_OK);
    MXT_EQ_INT(mxsim_time_op(ctx, &cfg, &op, "t", 1, NULL, &s), MXSIM_OK);
    int full = cancel_calls;
    MXT_TRUE(full >= 8);
    MXT_TRUE(s.cycles_total > (int64_t)(full - 1) * 16384 && s.cycles_total <= (int64_t)full * 16384);
    for (int with_trace = 0; with_trace < 2; with_trace++) {
        cancel_after = 2;
        cancel_calls = 0;
        MXT_EQ_INT(mxsim_time_op(ctx, &cfg, &op, "t", 1, with_trace ? path("acc.gz") : NULL, &s), MXSIM_E_CANCELLED);
        MXT_EQ_INT(cancel_calls, 3);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), "cancelled at cycle 32768") != NULL);
        MXT_EQ_INT(n_entries(), 0);
    }
    /* the analytic engine is closed form and does not poll */
    cancel_after = 0;
    cancel_calls = 0;
    MXT_EQ_INT(mxsim_time_op(ctx, &cfg, &op, "t", 0, NULL, &s), MXSIM_OK);
    mxsim_ctx_destroy(ctx);
}

MXTEST(files_write_all_or_nothing)
{
    clean();
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    MXT_TRUE(mkdir(path("c.txt"), 0755) == 0);
    const char *paths[3] = {path("a.txt"), path("b.txt"), path("c.txt")};
    const void *datas[3] = {"a", "b", "c"};
    size_t lens[3] = {1, 1, 1};
    MXT_EQ_INT(mxsim_files_write(ctx, 3, paths, datas, lens), MXSIM_E_IO);
    MXT_EQ_INT(n_entries(), 1); /* the directory c.txt only */
    rmdir(path("c.txt"));
    MXT_EQ_INT(mxsim_files_write(ctx, 3, paths, datas, lens), MXSIM_OK);
    MXT_EQ_INT(n_entries(), 3);
    const char *twice[2] = {path("a.txt"), path("a.txt")};
    MXT_EQ_INT(mxsim_files_write(ctx, 2, twice, datas, lens), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_files_write(ctx, 1, NULL, datas, lens), MXSIM_E_ARG);
    mxsim_ctx_destroy(ctx);
}

MXTEST(dash_and_fifo)
{
    clean();
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    int fd = open(path("sink"), O_RDWR | O_CREAT | O_TRUNC, 0644);
    MXT_TRUE(fd >= 0);
    MXT_EQ_INT(mxsim_ctx_set_dash_fd(ctx, fd), MXSIM_OK);
    MXT_EQ_INT(mxsim_file_write(ctx, "-", "hello", 5), MXSIM_OK);
    struct stat sb;
    MXT_TRUE(fstat(fd, &sb) == 0 && sb.st_size == 5);
    close(fd);
    MXT_EQ_INT(n_entries(), 1);
    MXT_TRUE(mkfifo(path("fifo"), 0644) == 0);
    MXT_EQ_INT(mxsim_file_write(ctx, path("fifo"), "x", 1), MXSIM_E_IO);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "FIFO") != NULL);
    MXT_TRUE(lstat(path("fifo"), &sb) == 0 && S_ISFIFO(sb.st_mode));
    mxsim_ctx_destroy(ctx);
}

MXTEST(trace_names_round_trip)
{
    clean();
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *t = NULL;
    MXT_EQ_INT(mxsim_trace_create(ctx, "api", &t), MXSIM_OK);
    mxsim_top op;
    memset(&op, 0, sizeof op);
    op.kind = MXSIM_OP_GEMM;
    op.m = op.n = op.k = 32;
    op.repeat = 1;
    op.a_fmt = op.b_fmt = op.out_fmt = -1;
    static const char *const badnames[] = {"a b", "a#b", "tab\there", "nl\nx", "\x01"};
    for (int i = 0; i < 5; i++) {
        snprintf(op.name, sizeof op.name, "%s", badnames[i]);
        MXT_EQ_INT(mxsim_trace_append(ctx, t, &op), MXSIM_E_INPUT);
        MXT_TRUE(strstr(mxsim_errmsg(ctx), "field 'name'") != NULL);
    }
    memset(op.name, 'x', sizeof op.name); /* not NUL-terminated */
    MXT_EQ_INT(mxsim_trace_append(ctx, t, &op), MXSIM_E_INPUT);
    snprintf(op.name, sizeof op.name, "%s", "odd=name,ok");
    MXT_EQ_INT(mxsim_trace_append(ctx, t, &op), MXSIM_OK);
    MXT_EQ_INT(mxsim_trace_save(ctx, t, path("t.trace")), MXSIM_OK);
    mxsim_trace *back = NULL;
    MXT_EQ_INT(mxsim_trace_load(ctx, path("t.trace"), &back), MXSIM_OK);
    MXT_EQ_INT(mxsim_trace_count(back), 1);
    if (mxsim_trace_count(back) == 1) MXT_TRUE(strcmp(mxsim_trace_op(back, 0)->name, "odd=name,ok") == 0);
    mxsim_trace_free(back);
    mxsim_trace_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(size_products_and_null)
{
    mxsim_ctx *ctx = NULL;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    int8_t m[4] = {0};
    uint8_t e[4] = {0};
    float c[4];
    int64_t big = (int64_t)1 << 40;
    MXT_EQ_INT(mxsim_gemm_raw(ctx, big, big, big, 32, m, e, m, e, MXSIM_ACC_FP32, c), MXSIM_E_LIMIT);
    int64_t shape[3] = {big, big, big};
    mxsim_tensor *t = NULL;
    mxsim_status st = mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 3, shape, &t);
    MXT_TRUE(st == MXSIM_E_LIMIT || st == MXSIM_E_INPUT);
    MXT_TRUE(t == NULL && mxsim_errmsg(ctx)[0] != '\0');
    MXT_EQ_INT(mxsim_tensor_ndim(NULL), 0);
    MXT_EQ_INT(mxsim_tensor_numel(NULL), 0);
    MXT_TRUE(mxsim_tensor_shape(NULL) == NULL && mxsim_tensor_data(NULL) == NULL && mxsim_tensor_cdata(NULL) == NULL);
    MXT_EQ_INT(mxsim_tensor_dtype(NULL), MXSIM_DTYPE_COUNT_);
    MXT_EQ_INT(mxsim_trace_count(NULL), 0);
    MXT_TRUE(mxsim_trace_op(NULL, 0) == NULL && strcmp(mxsim_trace_source(NULL), "") == 0);
    MXT_EQ_INT(mxsim_table_row_count(NULL), 0);
    MXT_TRUE(strcmp(mxsim_errmsg(NULL), "") == 0);
    MXT_TRUE(strcmp(mxsim_strerror(MXSIM_E_CANCELLED), "cancelled by the caller") == 0);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

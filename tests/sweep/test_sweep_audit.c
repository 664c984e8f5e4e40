/* test_sweep_audit.c - regressions of the CLI audit: the group size an op ran with and its
** padding to whole groups are visible per op and per point (ops_other_group, ops_padded,
** group_note), axes that set one configuration
** field twice are refused, a point beyond a configuration limit is refused when its axis is
** added (before anything runs), and a --data directory with a file no op reads, or with no file
** for any op, is refused.  Expected values are worked out here by hand (ceil(97 / 8) * 8 = 104,
** ceil(97 / 32) * 32 = 128). */
#include <sys/stat.h>

#include "mxsim.h"
#include "mxtest.h"
#include "test_ops.h"

/* ---- a small RFC 4180 reader for the rendered CSV (quoted fields, no line breaks in them) -- */

#define MAXC 256
typedef struct {
    int n_rows, n_cols;
    char *cell[64][MAXC];
} csv_t;

static void csv_parse(const char *text, csv_t *c)
{
    memset(c, 0, sizeof *c);
    const char *p = text;
    while (*p && c->n_rows < 64) {
        int col = 0;
        for (;;) {
            char buf[1024];
            size_t k = 0;
            if (*p == '"') {
                for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                    if (*p == '"') p++; /* "" inside quotes */
                    if (k < sizeof buf - 1) buf[k++] = *p;
                }
                if (*p == '"') p++;
            } else {
                while (*p && *p != ',' && *p != '\n' && *p != '\r') {
                    if (k < sizeof buf - 1) buf[k++] = *p;
                    p++;
                }
            }
            buf[k] = '\0';
            if (col < MAXC) c->cell[c->n_rows][col++] = strdup(buf);
            if (*p == ',') {
                p++;
                continue;
            }
            if (*p == '\r') p++;
            if (*p == '\n') p++;
            break;
        }
        if (c->n_rows == 0) c->n_cols = col;
        c->n_rows++;
    }
}

static void csv_free(csv_t *c)
{
    for (int r = 0; r < c->n_rows; r++)
        for (int k = 0; k < MAXC; k++) free(c->cell[r][k]);
}

static const char *at(const csv_t *c, int row, const char *col)
{
    for (int k = 0; k < c->n_cols; k++)
        if (!strcmp(c->cell[0][k], col)) return c->cell[row][k] ? c->cell[row][k] : "";
    return "(no such column)";
}

/* The row (1-based in c) of op `op` at point `point`. */
static int row_of(const csv_t *c, int point, const char *op)
{
    char pt[24];
    snprintf(pt, sizeof pt, "%d", point);
    for (int r = 1; r < c->n_rows; r++)
        if (!strcmp(at(c, r, "point"), pt) && !strcmp(at(c, r, "op"), op)) return r;
    return 0;
}

static const char *tmpdir(const char *leaf, char *buf, size_t len)
{
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d) d = "/tmp/mxsim_test_sweep_audit";
    mkdir(d, 0777);
    snprintf(buf, len, "%s/%s", d, leaf);
    mkdir(buf, 0777);
    return buf;
}

/* ---- 1: the group size an op ran with ------------------------------------------------------ */

MXTEST(ops_at_their_own_group_and_padded_ops_are_counted_and_explained)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_trace *tr;
    MXT_EQ_INT(mxsim_trace_create(ctx, "mem", &tr), MXSIM_OK);
    mxsim_top p97 = mxt_gemm_op("p97", 64, 64, 97), own = mxt_gemm_op("own", 64, 64, 96),
              fine = mxt_gemm_op("fine", 64, 64, 64);
    own.group_size = 8; /* the op's own group= */
    MXT_EQ_INT(mxsim_trace_append(ctx, tr, &p97), MXSIM_OK);
    MXT_EQ_INT(mxsim_trace_append(ctx, tr, &own), MXSIM_OK);
    MXT_EQ_INT(mxsim_trace_append(ctx, tr, &fine), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "mx.group_size", "8,32"), MXSIM_OK);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.accuracy = 0;
    o.n_threads = 1;
    MXT_EQ_INT(mxsim_sweep_run(ctx, sw, tr, &o), MXSIM_OK);
    mxsim_sweep_info info = {NULL, NULL, &o};
    mxsim_table *t = NULL;
    char *text = NULL;
    size_t len = 0;
    MXT_EQ_INT(mxsim_sweep_table(ctx, sw, tr, &info, 0, &t), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_CSV, &text, &len), MXSIM_OK);
    static csv_t c;
    csv_parse(text, &c);
    /* G = 8: 97 = 12 * 8 + 1 is padded to 13 groups (104), the op's own group 8 is G, 64 divides */
    int r = row_of(&c, 0, "p97");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "8") && !strcmp(at(&c, r, "ops_other_group"), "0"));
    MXT_TRUE(!strcmp(at(&c, r, "ops_padded"), "1"));
    MXT_TRUE(strstr(at(&c, r, "group_note"), "k=97 padded to 104 (13 whole groups of 8)") != NULL);
    r = row_of(&c, 0, "own");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "8") && !strcmp(at(&c, r, "ops_other_group"), "0"));
    MXT_TRUE(!strcmp(at(&c, r, "ops_padded"), "0") && !strcmp(at(&c, r, "group_note"), ""));
    r = row_of(&c, 0, "TOTAL");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "ops_other_group"), "0") && !strcmp(at(&c, r, "ops_padded"), "1"));
    MXT_TRUE(!strcmp(at(&c, r, "group_note"), "1 of 3 ops padded to whole groups (K, or n, not a multiple of G): p97 (k=97 to 104)"));
    /* G = 32: p97 padded to 4 groups (128), as mxsim run pads it; own at its 8 (96 = 12 * 8); fine at 32 */
    r = row_of(&c, 1, "p97");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "32") && !strcmp(at(&c, r, "ops_padded"), "1"));
    MXT_TRUE(strstr(at(&c, r, "group_note"), "k=97 padded to 128 (4 whole groups of 32)") != NULL);
    r = row_of(&c, 1, "own");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "8") && !strcmp(at(&c, r, "ops_other_group"), "1"));
    MXT_TRUE(!strcmp(at(&c, r, "ops_padded"), "0"));
    MXT_TRUE(strstr(at(&c, r, "group_note"), "op's own group=8 instead of G=32") != NULL);
    r = row_of(&c, 1, "fine");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "32") && !strcmp(at(&c, r, "ops_other_group"), "0"));
    r = row_of(&c, 1, "TOTAL");
    MXT_TRUE(r > 0 && !strcmp(at(&c, r, "group_eff"), "32") && !strcmp(at(&c, r, "ops_other_group"), "1"));
    MXT_TRUE(!strcmp(at(&c, r, "ops_padded"), "1"));
    MXT_TRUE(!strcmp(at(&c, r, "group_note"), "1 of 3 ops at their own group= instead of G=32; 1 of 3 ops padded to "
                                              "whole groups (K, or n, not a multiple of G): p97 (k=97 to 128)"));
    /* the terminal and Markdown forms (totals) show the counts and the note */
    mxsim_table *tt = NULL;
    char *md = NULL;
    MXT_EQ_INT(mxsim_sweep_table(ctx, sw, tr, &info, 1, &tt), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_render(ctx, tt, MXSIM_OUTPUT_MD, &md, &len), MXSIM_OK);
    MXT_TRUE(strstr(md, "ops_padded") != NULL && strstr(md, "1 of 3 ops padded to whole groups") != NULL);
    mxsim_free(md);
    mxsim_table_free(tt);
    csv_free(&c);
    mxsim_free(text);
    mxsim_table_free(t);
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    mxsim_ctx_destroy(ctx);
}

/* ---- 2: overlapping axes ------------------------------------------------------------------- */

MXTEST(axes_that_set_one_field_twice_are_refused)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.size", "8,16"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "32"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "'array.rows'") != NULL && strstr(mxsim_errmsg(ctx), "'array.size'") != NULL);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.cols", "32"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_axis_count(sw), 1);
    MXT_EQ_INT(mxsim_sweep_point_count(sw), 2);
    mxsim_sweep_free(sw);
    /* the other order */
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.cols", "8"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "8"), MXSIM_OK); /* another field: fine */
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.size", "16"), MXSIM_E_INPUT);
    MXT_EQ_INT(mxsim_sweep_axis_count(sw), 2);
    mxsim_sweep_free(sw);
    mxsim_ctx_destroy(ctx);
    /* the rule itself, by hand: array.size sets array.rows and array.cols, nothing else overlaps */
    const char *f = mxsim_sweep_axes_overlap("array.cols", "array.size");
    MXT_TRUE(f != NULL && !strcmp(f, "array.cols"));
    f = mxsim_sweep_axes_overlap("array.size", "array.size");
    MXT_TRUE(f != NULL && !strcmp(f, "array.rows"));
    MXT_TRUE(mxsim_sweep_axes_overlap("array.rows", "array.cols") == NULL);
    MXT_TRUE(mxsim_sweep_axes_overlap("mx.group_size", "array.size") == NULL);
}

/* ---- 3: a point beyond the 2^22-PE limit is refused when its axis is added ---------------- */

MXTEST(a_point_over_a_config_limit_is_refused_up_front)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw;
    MXT_EQ_INT(mxsim_sweep_create(ctx, &cfg, &sw), MXSIM_OK);
    /* 4096 x 4096 = 2^24 PEs */
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.size", "8,4096"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "array.size=4096") != NULL && strstr(mxsim_errmsg(ctx), "2^22") != NULL);
    MXT_EQ_INT(mxsim_sweep_axis_count(sw), 0);
    MXT_EQ_INT(mxsim_sweep_point_count(sw), 1);
    /* a combination of two axes: 4096 x 2048 = 2^23 is refused, 4096 x 1024 = 2^22 allowed */
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.rows", "16,4096"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.cols", "16,2048"), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "array.rows=4096, array.cols=2048") != NULL);
    MXT_EQ_INT(mxsim_sweep_add_axis(ctx, sw, "array.cols", "16,1024"), MXSIM_OK);
    MXT_EQ_INT(mxsim_sweep_point_count(sw), 4);
    mxsim_sweep_free(sw);
    mxsim_ctx_destroy(ctx);
}

/* ---- 4: --data DIR ---------------------------------------------------------------------------- */

static void save_npy(mxsim_ctx *ctx, const char *dir, const char *file, int64_t rows, int64_t cols)
{
    char p[600];
    snprintf(p, sizeof p, "%s/%s", dir, file);
    int64_t sh[2] = {rows, cols};
    mxsim_tensor *t;
    MXT_EQ_INT(mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, sh, &t), MXSIM_OK);
    float *d = mxsim_tensor_data(t);
    for (int64_t i = 0; i < rows * cols; i++) d[i] = (float)((i * 7919) % 13) - 6.0f;
    MXT_EQ_INT(mxsim_tensor_save_npy(ctx, t, p), MXSIM_OK);
    mxsim_tensor_free(t);
}

static mxsim_status run_with_data(mxsim_ctx *ctx, const char *dir, int *from_file)
{
    mxsim_trace *tr;
    mxsim_trace_create(ctx, "mem", &tr);
    mxsim_top a = mxt_gemm_op("a", 4, 4, 96);
    mxsim_trace_append(ctx, tr, &a);
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    mxsim_sweep *sw;
    mxsim_sweep_create(ctx, &cfg, &sw);
    mxsim_sweep_opts o;
    mxsim_sweep_opts_default(&o);
    o.n_threads = 1;
    o.acc.data_dir = dir;
    mxsim_status st = mxsim_sweep_run(ctx, sw, tr, &o);
    const mxsim_sweep_point *p = mxsim_sweep_point_at(sw, 0);
    *from_file = p ? p->op_acc[0].from_file : -1;
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    return st;
}

MXTEST(a_data_directory_must_feed_the_ops)
{
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    char d1[512], d2[512], d3[512];
    int ff = -1;
    /* A.a.npy and A.b.npy for op "a": names are exact, so no op reads them */
    tmpdir("misnamed", d1, sizeof d1);
    save_npy(ctx, d1, "A.a.npy", 4, 96);
    save_npy(ctx, d1, "A.b.npy", 4, 96);
    MXT_EQ_INT(run_with_data(ctx, d1, &ff), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "A.a.npy") != NULL && strstr(mxsim_errmsg(ctx), "'a.a.npy'") != NULL);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "and 1 more") != NULL);
    MXT_EQ_INT(ff, -1); /* no results */
    /* no file for any op: refused too (other files are not the data's business) */
    tmpdir("nothing", d2, sizeof d2);
    char p[600];
    snprintf(p, sizeof p, "%s/README.txt", d2);
    FILE *f = fopen(p, "w");
    MXT_TRUE(f != NULL);
    if (f) fclose(f);
    MXT_EQ_INT(run_with_data(ctx, d2, &ff), MXSIM_E_INPUT);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "no op of mem has a file there") != NULL);
    /* the right names: read, and said per op */
    tmpdir("right", d3, sizeof d3);
    save_npy(ctx, d3, "a.a.npy", 4, 96);
    save_npy(ctx, d3, "a.b.npy", 4, 96);
    MXT_EQ_INT(run_with_data(ctx, d3, &ff), MXSIM_OK);
    MXT_EQ_INT(ff, 1);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

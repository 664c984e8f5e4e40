/* test_output.c - the one tabular writer and the one file writer (mxsim.h, "Output").
** Expected texts are written by hand from RFC 4180 (CSV), RFC 8259 (JSON) and GitHub's table
** syntax, not captured from the code. */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mxsim.h"
#include "mxtest.h"

static const char *tmpdir(void)
{
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d) d = "/tmp/mxsim_test_output";
    mkdir(d, 0777);
    return d;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static mxsim_table *hostile(mxsim_ctx *ctx)
{
    mxsim_table *t = NULL;
    MXT_EQ_INT(mxsim_table_create(ctx, &t), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "op", MXSIM_CELL_TEXT, "", "op name", MXSIM_COL_BRIEF, 0), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "cycles", MXSIM_CELL_INT, "cycles", "", MXSIM_COL_BRIEF, 0), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "util_pct", MXSIM_CELL_REAL, "%", "", 0, 2), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_meta(ctx, t, "trace", "a\"b\\c", 0), MXSIM_OK);
    int64_t r;
    MXT_EQ_INT(mxsim_table_add_row(ctx, t, &r), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_text(ctx, t, r, "op", "a,b\"c\\|d#\xc3\xa9"), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_int(ctx, t, r, "cycles", -5), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_real(ctx, t, r, "util_pct", 12.345), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_row(ctx, t, &r), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_text(ctx, t, r, "op", "x"), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_real(ctx, t, r, "util_pct", NAN), MXSIM_OK);
    return t;
}

static void expect_render(mxsim_ctx *ctx, const mxsim_table *t, mxsim_output_format f, const char *want)
{
    char *s = NULL;
    size_t n = 0;
    MXT_EQ_INT(mxsim_table_render(ctx, t, f, &s, &n), MXSIM_OK);
    MXT_TRUE(s != NULL && strcmp(s, want) == 0);
    if (s && strcmp(s, want) != 0) fprintf(stderr, "got:\n%s\nwant:\n%s\n", s, want);
    MXT_EQ_INT(n, strlen(want));
    mxsim_free(s);
}

MXTEST(csv_quotes_per_rfc4180)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = hostile(ctx);
    expect_render(ctx, t, MXSIM_OUTPUT_CSV,
                  "op,cycles,util_pct\n\"a,b\"\"c\\|d#\xc3\xa9\",-5,12.345\nx,0,nan\n"); /* CSV: exact, not the 2 decimals */
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(json_escapes_per_rfc8259)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = hostile(ctx);
    expect_render(ctx, t, MXSIM_OUTPUT_JSON,
                  "{\n  \"meta\": {\n    \"trace\": \"a\\\"b\\\\c\"\n  },\n  \"columns\": [\n"
                  "    {\"name\": \"op\", \"type\": \"text\", \"unit\": \"\", \"doc\": \"op name\"},\n"
                  "    {\"name\": \"cycles\", \"type\": \"int\", \"unit\": \"cycles\", \"doc\": \"\"},\n"
                  "    {\"name\": \"util_pct\", \"type\": \"real\", \"unit\": \"%\", \"doc\": \"\"}\n  ],\n"
                  "  \"rows\": [\n"
                  "    {\"op\": \"a,b\\\"c\\\\|d#\xc3\xa9\", \"cycles\": -5, \"util_pct\": 12.345},\n"
                  "    {\"op\": \"x\", \"cycles\": 0, \"util_pct\": null}\n  ]\n}\n");
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(markdown_and_text_show_brief_columns)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = hostile(ctx);
    expect_render(ctx, t, MXSIM_OUTPUT_MD,
                  "| op | cycles |\n|---|---:|\n| a,b\"c\\\\\\|d#\xc3\xa9 | -5 |\n| x | 0 |\n");
    /* widths count code points: the name is 10 characters wide (12 bytes) */
    expect_render(ctx, t, MXSIM_OUTPUT_TABLE,
                  "op          cycles\na,b\"c\\|d#\xc3\xa9      -5\nx                0\n");
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(format_rule)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_output_format f;
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, NULL, &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_TABLE);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "d.x/t.csv", &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_CSV);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "t.json", &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_JSON);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "t.md", &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_MD);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "t.txt", &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_TABLE);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, "json", "t.csv", &f), MXSIM_OK);
    MXT_EQ_INT(f, MXSIM_OUTPUT_JSON);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "t.xlsx", &f), MXSIM_E_ARG);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "t.xlsx") != NULL);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, "dir.csv/noext", &f), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, "xml", NULL, &f), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_output_format_choose(ctx, NULL, NULL, &f), MXSIM_OK);
    MXT_TRUE(mxsim_errmsg(ctx)[0] == '\0');
    mxsim_ctx_destroy(ctx);
}

MXTEST(table_misuse_is_an_error)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = hostile(ctx);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "late", MXSIM_CELL_INT, NULL, NULL, 0, 0), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_table_set_int(ctx, t, 0, "op", 1), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_table_set_int(ctx, t, 7, "cycles", 1), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_table_set_int(ctx, t, 0, "nope", 1), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_table_set_meta(ctx, t, "n", "1e999", 1), MXSIM_E_ARG);
    mxsim_table_free(t);
    MXT_EQ_INT(mxsim_table_create(ctx, &t), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "a", MXSIM_CELL_INT, NULL, NULL, 0, 0), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "a", MXSIM_CELL_INT, NULL, NULL, 0, 0), MXSIM_E_ARG);
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

/* Significant digits, a null cell, and decimals out of range, written out by hand. */
MXTEST(table_significant_digits_and_null)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = NULL;
    int64_t r = 0;
    MXT_EQ_INT(mxsim_table_create(ctx, &t), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "x", MXSIM_CELL_REAL, NULL, NULL, 0, -3), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "n", MXSIM_CELL_INT, NULL, NULL, 0, -1), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "bad", MXSIM_CELL_REAL, NULL, NULL, 0, -18), MXSIM_E_ARG);
    MXT_EQ_INT(mxsim_table_add_row(ctx, t, &r), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_real(ctx, t, r, "x", 1234.5678), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_null(ctx, t, r, "n"), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_row(ctx, t, &r), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_real(ctx, t, r, "x", 0.000123456), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_set_int(ctx, t, r, "n", -7), MXSIM_OK);
    char *text = NULL;
    size_t len = 0;
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_CSV, &text, &len), MXSIM_OK);
    MXT_TRUE(text && strcmp(text, "x,n\n1234.5678,\n0.000123456,-7\n") == 0); /* CSV: exact, as JSON */
    mxsim_free(text);
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_MD, &text, &len), MXSIM_OK); /* Markdown: 3 significant digits */
    MXT_TRUE(text && strstr(text, "| 1.23e+03 |") && strstr(text, "| 0.000123 | -7 |"));
    mxsim_free(text);
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_JSON, &text, &len), MXSIM_OK);
    MXT_TRUE(text && strstr(text, "{\"x\": 1234.5678, \"n\": null}") && strstr(text, "{\"x\": 0.000123456, \"n\": -7}"));
    mxsim_free(text);
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

/* Shortest round-trip reals (decimals -1, CSV and JSON): a whole number is written whole (chart CSVs
** showed cycles as 2.650296e+07 next to 26509776, a sweep sidecar "clock.mhz": 1e+03); the others keep
** the shortest exact form, large and tiny magnitudes their exponent. */
MXTEST(output_whole_reals)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_table *t = NULL;
    int64_t r = 0;
    MXT_EQ_INT(mxsim_table_create(ctx, &t), MXSIM_OK);
    MXT_EQ_INT(mxsim_table_add_column(ctx, t, "x", MXSIM_CELL_REAL, NULL, NULL, 0, -1), MXSIM_OK);
    static const double v[] = {26502960.0, 1000.0, 0.5, -0.0, -3.0, 1e20, 999999999999999.0, 1e-7, 2.5e6};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        MXT_EQ_INT(mxsim_table_add_row(ctx, t, &r), MXSIM_OK);
        MXT_EQ_INT(mxsim_table_set_real(ctx, t, r, "x", v[i]), MXSIM_OK);
    }
    char *text = NULL;
    size_t len = 0;
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_CSV, &text, &len), MXSIM_OK);
    MXT_TRUE(text && strcmp(text, "x\n26502960\n1000\n0.5\n-0\n-3\n1e+20\n999999999999999\n1e-07\n2500000\n") == 0);
    if (text && strcmp(text, "x\n26502960\n1000\n0.5\n-0\n-3\n1e+20\n999999999999999\n1e-07\n2500000\n"))
        fprintf(stderr, "got:\n%s", text);
    mxsim_free(text);
    MXT_EQ_INT(mxsim_table_render(ctx, t, MXSIM_OUTPUT_JSON, &text, &len), MXSIM_OK);
    MXT_TRUE(text && strstr(text, "{\"x\": 26502960}") && strstr(text, "{\"x\": 1000}") && strstr(text, "{\"x\": 1e+20}"));
    mxsim_free(text);
    mxsim_table_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(file_write_targets)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    char p[512], q[512];
    const char *d = tmpdir();
    /* a symbolic link is followed: the link stays, the file it names changes */
    snprintf(p, sizeof p, "%s/real.txt", d);
    snprintf(q, sizeof q, "%s/link.txt", d);
    unlink(p);
    unlink(q);
    MXT_EQ_INT(mxsim_file_write(ctx, p, "old", 3), MXSIM_OK);
    MXT_EQ_INT(symlink("real.txt", q), 0);
    MXT_EQ_INT(mxsim_file_write(ctx, q, "new", 3), MXSIM_OK);
    struct stat sb;
    MXT_EQ_INT(lstat(q, &sb), 0);
    MXT_TRUE(S_ISLNK(sb.st_mode));
    MXT_TRUE(strcmp(slurp(p), "new") == 0);
    /* a read-only file is refused, not replaced */
    chmod(p, 0444);
    if (geteuid() != 0) { /* root may write anything */
        MXT_EQ_INT(mxsim_file_write(ctx, p, "x", 1), MXSIM_E_IO);
        MXT_TRUE(strcmp(slurp(p), "new") == 0);
    }
    chmod(p, 0644);
    /* a directory is refused; a character device is written in place */
    MXT_EQ_INT(mxsim_file_write(ctx, d, "x", 1), MXSIM_E_IO);
    MXT_EQ_INT(mxsim_file_write(ctx, "/dev/null", "x", 1), MXSIM_OK);
    MXT_EQ_INT(lstat("/dev/null", &sb), 0);
    MXT_TRUE(S_ISCHR(sb.st_mode));
    /* names of 244..255 bytes are valid: the temporary name must not pass NAME_MAX */
    for (int len = 244; len <= 255; len++) {
        char name[300];
        memset(name, 'n', (size_t)len);
        name[len] = '\0';
        snprintf(p, sizeof p, "%s/%s", d, name);
        MXT_EQ_INT(mxsim_file_write(ctx, p, "long", 4), MXSIM_OK);
        MXT_TRUE(slurp(p) && strcmp(slurp(p), "long") == 0);
        unlink(p);
    }
    /* a full device fails the write */
    if (access("/dev/full", W_OK) == 0) MXT_EQ_INT(mxsim_file_write(ctx, "/dev/full", "x", 1), MXSIM_E_IO);
    mxsim_ctx_destroy(ctx);
}
MXTEST_MAIN()

/* test_locale.c - the library's text does not depend on the embedder's LC_NUMERIC.  Under a
** decimal-comma locale (de_DE.UTF-8, as Python's locale.setlocale(LC_ALL, '') gives a German
** user), the library wrote "0,9" into its JSON and CSV and refused "3.9" in a configuration file.
** Here a configuration with reals is loaded and three tables (configuration, cost constants, cost
** area) rendered as CSV, JSON, Markdown and text under de_DE and again under C: every byte must be
** the same.  The locale comes from the system, or is built with localedef into the test's temp dir
** (Debian package `locales`); without either the test is skipped. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mxsim.h"
#include "mxtest.h"

static const char *tmp_dir(void)
{
    const char *d = getenv("MXSIM_TEST_TMP");
    if (!d || !d[0]) d = "/tmp";
    mkdir(d, 0755);
    return d;
}

/* A locale whose decimal point is a comma, or 0 */
static int comma_locale(void)
{
    static const char *const names[] = {"de_DE.UTF-8", "de_DE.utf8", "fr_FR.UTF-8", "fr_FR.utf8"};
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
            if (setlocale(LC_ALL, names[i]) && !strcmp(localeconv()->decimal_point, ",")) return 1;
        if (pass == 0) { /* not installed: build one where glibc's LOCPATH finds it */
            char cmd[2048], dir[1024];
            snprintf(dir, sizeof dir, "%s/locales", tmp_dir());
            mkdir(dir, 0755);
            snprintf(cmd, sizeof cmd, "localedef -i de_DE -f UTF-8 '%s/de_DE.UTF-8' > /dev/null 2>&1", dir);
            if (system(cmd) != 0) return 0;
            setenv("LOCPATH", dir, 1);
        }
    }
    return 0;
}

typedef struct {
    char *text[3][MXSIM_OUTPUT_COUNT_];
} renders;

static void render_all(mxsim_ctx *ctx, const char *ini, renders *r)
{
    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    MXT_EQ_INT(mxsim_tconfig_load(ctx, &cfg, ini), MXSIM_OK);
    MXT_EQ_INT(mxsim_tconfig_set(ctx, &cfg, "clock.mhz", "333.5", "--set"), MXSIM_OK);
    mxsim_cost_params cp;
    mxsim_cost_params_default(&cp);
    mxsim_table *t[3] = {NULL, NULL, NULL};
    MXT_EQ_INT(mxsim_tconfig_table(ctx, &cfg, &t[0]), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_const_table(ctx, &t[1]), MXSIM_OK);
    MXT_EQ_INT(mxsim_cost_area_table(ctx, &cfg, &cp, &t[2]), MXSIM_OK);
    for (int i = 0; i < 3; i++)
        for (int f = 0; f < MXSIM_OUTPUT_COUNT_; f++) {
            size_t len = 0;
            r->text[i][f] = NULL;
            if (t[i]) MXT_EQ_INT(mxsim_table_render(ctx, t[i], (mxsim_output_format)f, &r->text[i][f], &len), MXSIM_OK);
        }
    for (int i = 0; i < 3; i++) mxsim_table_free(t[i]);
}

MXTEST(locale_decimal_comma_changes_no_byte)
{
    if (!comma_locale()) {
        MXT_SKIP("no locale with a decimal comma (de_DE / fr_FR) is installed and localedef could not build one");
        return;
    }
    char probe[16];
    snprintf(probe, sizeof probe, "%.1f", 0.5);
    MXT_TRUE(!strcmp(probe, "0,5")); /* the process really formats with a comma now */
    char ini[1024];
    snprintf(ini, sizeof ini, "%s/locale.ini", tmp_dir());
    FILE *f = fopen(ini, "w");
    MXT_TRUE(f != NULL);
    if (!f) return;
    fputs("[dram]\npj_per_bit = 3.9\n[clock]\nmhz = 1234.5\n", f);
    fclose(f);
    mxsim_ctx *ctx;
    MXT_EQ_INT(mxsim_ctx_create(&ctx), MXSIM_OK);
    renders de, c;
    render_all(ctx, ini, &de);
    MXT_TRUE(strstr(mxsim_errmsg(ctx), "not a number") == NULL);
    setlocale(LC_ALL, "C");
    render_all(ctx, ini, &c);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < MXSIM_OUTPUT_COUNT_; k++) {
            MXT_TRUE(de.text[i][k] && c.text[i][k]);
            if (de.text[i][k] && c.text[i][k] && strcmp(de.text[i][k], c.text[i][k]))
                fprintf(stderr, "table %d, format %s: differs under de_DE\n", i, mxsim_output_format_name((mxsim_output_format)k));
            MXT_TRUE(de.text[i][k] && c.text[i][k] && !strcmp(de.text[i][k], c.text[i][k]));
            mxsim_free(de.text[i][k]);
            mxsim_free(c.text[i][k]);
        }
    mxsim_ctx_destroy(ctx);
}

int main(void) { return mxt_run_all(); }

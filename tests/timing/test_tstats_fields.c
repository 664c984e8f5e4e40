/* test_tstats_fields.c - the statistics table (MXSIM_TSTATS_FIELDS) describes every byte of
** mxsim_tstats, and mxsim_tstats_add aggregates as the table says (hand-computed values). */
#include <math.h>
#include <string.h>

#include "mxsim.h"
#include "mxtest.h"

static const char *df_name(int v) { return mxsim_dataflow_name((mxsim_dataflow)v); }
static const char *ofmt_name(int v) { return mxsim_operand_fmt_name((mxsim_operand_fmt)v); }
static const char *outfmt_name(int v) { return mxsim_out_fmt_name((mxsim_out_fmt)v); }

MXTEST(tstats_table)
{
    int n = mxsim_tstats_field_count();
    MXT_EQ_INT(sizeof(mxsim_tstats), (size_t)n * 8); /* every member is 8 bytes: none missing */
    MXT_TRUE(mxsim_tstats_field_at(n) == NULL && mxsim_tstats_field_at(-1) == NULL);
    /* names are unique; the names carry units where they are not counts */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) MXT_TRUE(strcmp(mxsim_tstats_field_at(i)->name, mxsim_tstats_field_at(j)->name) != 0);
    int time_us = -1;
    for (int i = 0; i < n; i++)
        if (!strcmp(mxsim_tstats_field_at(i)->member, "time_us")) time_us = i;
    MXT_TRUE(time_us >= 0 && strcmp(mxsim_tstats_field_at(time_us)->name, "time_us") == 0); /* unit in the name */
    MXT_TRUE(strcmp(mxsim_op_kind_name(MXSIM_OP_DEQUANT), "dequant") == 0 && mxsim_op_kind_name((mxsim_op_kind)3) == NULL);
    MXT_TRUE(strcmp(mxsim_dataflow_name(MXSIM_DF_IS), "is") == 0);
    MXT_TRUE(strcmp(mxsim_out_fmt_name(MXSIM_OUT_BF16), "bf16") == 0);
    /* the configuration's enum choices are spelled as the name functions spell them */
    static const struct {
        const char *key;
        const char *(*name)(int);
        int n;
    } k_enums[] = {{"array.dataflow", df_name, 3}, {"mx.operand_format", ofmt_name, 2}, {"out.format", outfmt_name, 3}};
    for (size_t e = 0; e < sizeof k_enums / sizeof k_enums[0]; e++) {
        char want[64] = "";
        for (int v = 0; v < k_enums[e].n; v++) {
            strcat(want, v ? "|" : "");
            strcat(want, k_enums[e].name(v));
        }
        for (int i = 0; i < mxsim_tconfig_field_count(); i++)
            if (!strcmp(mxsim_tconfig_field_at(i)->name, k_enums[e].key)) MXT_TRUE(!strcmp(mxsim_tconfig_field_at(i)->choices, want));
    }
    mxsim_out_fmt of;
    MXT_TRUE(mxsim_out_fmt_parse(NULL, "mxint8", &of) == MXSIM_OK && of == MXSIM_OUT_MXINT8);
    MXT_TRUE(mxsim_out_fmt_parse(NULL, "int4", &of) == MXSIM_E_ARG);

    mxsim_tconfig cfg;
    mxsim_tconfig_default(&cfg);
    cfg.clock_mhz = 1000;
    mxsim_tstats a, b, tot;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    memset(&tot, 0, sizeof tot);
    a.cycles_total = 100, a.cycles_compute = 100, a.n_folds = 1, a.util_mapping = 1.0, a.tile_m = 7;
    b.cycles_total = 300, b.cycles_compute = 200, b.cycles_mem_stall = 100, b.n_folds = 3, b.util_mapping = 0.5;
    MXT_EQ_INT(mxsim_tstats_add(NULL, &cfg, &tot, &a, "a"), MXSIM_OK);
    MXT_EQ_INT(mxsim_tstats_add(NULL, &cfg, &tot, &b, "b"), MXSIM_OK);
    MXT_EQ_INT(tot.cycles_total, 400);
    MXT_EQ_INT(tot.cycles_array, 300); /* recomputed: total - mem_stall */
    MXT_EQ_INT(tot.tile_m, 0);         /* per op only */
    MXT_TRUE(fabs(tot.util_mapping - (1.0 + 1.5) / 4) < 1e-12);
    MXT_TRUE(tot.time_us == 0.4); /* 400 cycles at 1000 MHz, exactly the double nearest 0.4 */
    for (int i = 0; i < n; i++)
        if (!strcmp(mxsim_tstats_field_at(i)->name, "time_us")) MXT_TRUE(mxsim_tstats_value(&tot, i) == 0.4);
        else if (!strcmp(mxsim_tstats_field_at(i)->name, "cycles_total")) MXT_EQ_INT(mxsim_tstats_int(&tot, i), 400);
    /* time_us is the correctly rounded cycles / MHz, as a reader of the table computes it: 61200
    ** cycles at 1000 MHz are 61.2 us (the double nearest 61.2), not 61.199999999999996, which
    ** seconds x 1e6 gave; likewise for a spread of cycle counts and clocks (a quarter of these
    ** were an ulp off before) */
    static const double clocks[] = {1000, 940, 700, 1234.5, 2000};
    long off = 0;
    for (size_t c = 0; c < sizeof clocks / sizeof clocks[0]; c++)
        for (int64_t cyc = 1; cyc < 70000; cyc += 37) {
            mxsim_tconfig k = cfg;
            k.clock_mhz = clocks[c];
            mxsim_tstats one, sum;
            memset(&one, 0, sizeof one);
            memset(&sum, 0, sizeof sum);
            one.cycles_total = cyc, one.cycles_compute = cyc;
            if (mxsim_tstats_add(NULL, &k, &sum, &one, "x") != MXSIM_OK) off++;
            else off += mxsim_tstats_value(&sum, time_us) != (double)cyc / clocks[c];
        }
    MXT_EQ_INT(off, 0);
    mxsim_tstats one, sum;
    memset(&one, 0, sizeof one);
    memset(&sum, 0, sizeof sum);
    one.cycles_total = 61200, one.cycles_compute = 61200;
    MXT_EQ_INT(mxsim_tstats_add(NULL, &cfg, &sum, &one, "x"), MXSIM_OK);
    MXT_TRUE(sum.time_us == 61.2);
}

int main(void) { return mxt_run_all(); }

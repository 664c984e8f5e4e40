/* tstats.c - the timing statistics' table (MXSIM_TSTATS_FIELDS) and the one spelling of the
** timing enumerations.  Everything that walks the statistics (TOTAL, repeat scaling, tables) is
** generated from the X-macro, so a new field needs no change here. */
#include <stddef.h>
#include <string.h>

#include "tinternal.h"

/* ---- enumeration names -------------------------------------------------------------------- */

static const char *const k_kind_names[] = {"gemm", "dequant", "quantize"};
static const char *const k_df_names[] = {"os", "ws", "is"};
static const char *const k_ofmt_names[] = {"mxint8", "int8"};
static const char *const k_outfmt_names[] = {"fp32", "bf16", "mxint8"};
#define N_OF(a) ((int)(sizeof(a) / sizeof((a)[0])))

MXSIM_API const char *mxsim_op_kind_name(mxsim_op_kind k)
{
    return (unsigned)k < (unsigned)N_OF(k_kind_names) ? k_kind_names[k] : NULL;
}
MXSIM_API const char *mxsim_dataflow_name(mxsim_dataflow d)
{
    return (unsigned)d < (unsigned)N_OF(k_df_names) ? k_df_names[d] : NULL;
}
MXSIM_API const char *mxsim_operand_fmt_name(mxsim_operand_fmt f)
{
    return (unsigned)f < (unsigned)N_OF(k_ofmt_names) ? k_ofmt_names[f] : NULL;
}
MXSIM_API const char *mxsim_out_fmt_name(mxsim_out_fmt f)
{
    return (unsigned)f < (unsigned)N_OF(k_outfmt_names) ? k_outfmt_names[f] : NULL;
}

static mxsim_status parse_name(mxsim_ctx *ctx, const char *what, const char *const *names, int n,
                               const char *name, int *out)
{
    mx_clear_err(ctx);
    for (int i = 0; name && i < n; i++)
        if (strcmp(name, names[i]) == 0) {
            *out = i;
            return MXSIM_OK;
        }
    char list[64] = "";
    for (int i = 0; i < n; i++) {
        strcat(list, i ? "|" : "");
        strcat(list, names[i]);
    }
    return mx_fail(ctx, MXSIM_E_ARG, "%s '%s': expected %s", what, name ? name : "(null)", list);
}

#define PARSE_FN_(fn, type, what, names)                                              \
    MXSIM_API mxsim_status fn(mxsim_ctx *ctx, const char *name, type *out)             \
    {                                                                                  \
        int v = 0;                                                                     \
        mxsim_status st = parse_name(ctx, what, names, N_OF(names), name, &v);         \
        if (st == MXSIM_OK) *out = (type)v;                                            \
        return st;                                                                     \
    }
PARSE_FN_(mxsim_op_kind_parse, mxsim_op_kind, "op kind", k_kind_names)
PARSE_FN_(mxsim_dataflow_parse, mxsim_dataflow, "dataflow", k_df_names)
PARSE_FN_(mxsim_operand_fmt_parse, mxsim_operand_fmt, "operand format", k_ofmt_names)
PARSE_FN_(mxsim_out_fmt_parse, mxsim_out_fmt, "output format", k_outfmt_names)

/* ---- statistics table --------------------------------------------------------------------- */

#define IS_INT_int64_t 1
#define IS_INT_double 0
#define TYPE_NAME_(ctype) (IS_INT_##ctype ? "int" : "real")

static const mxsim_tstats_field k_fields[] = {
#define F_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) \
    {col, #mem, TYPE_NAME_(ctype), unit, scale, kinds, MXSIM_AGG_##agg, brief, dec, doc},
    MXSIM_TSTATS_FIELDS(F_)
#undef F_
};
static const size_t k_offsets[] = {
#define O_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) offsetof(mxsim_tstats, mem),
    MXSIM_TSTATS_FIELDS(O_)
#undef O_
};

MXSIM_API int mxsim_tstats_field_count(void) { return N_OF(k_fields); }
MXSIM_API const mxsim_tstats_field *mxsim_tstats_field_at(int i)
{
    return i >= 0 && i < N_OF(k_fields) ? &k_fields[i] : NULL;
}

MXSIM_API int64_t mxsim_tstats_int(const mxsim_tstats *s, int i)
{
    if (s == NULL || i < 0 || i >= N_OF(k_fields) || k_fields[i].type[0] != 'i') return 0;
    int64_t v;
    memcpy(&v, (const char *)s + k_offsets[i], sizeof v);
    return v;
}

MXSIM_API double mxsim_tstats_value(const mxsim_tstats *s, int i)
{
    if (s == NULL || i < 0 || i >= N_OF(k_fields)) return 0;
    if (k_fields[i].type[0] == 'i') return (double)mxsim_tstats_int(s, i) * k_fields[i].scale;
    double v;
    memcpy(&v, (const char *)s + k_offsets[i], sizeof v);
    return v * k_fields[i].scale;
}

MXSIM_API const char *mxsim_bound_name(int64_t b)
{
    static const char *const k[] = {
#define BN_(id, name) name,
        MXSIM_BOUNDS(BN_)
#undef BN_
    };
    return b >= 0 && b < (int64_t)N_OF(k) ? k[b] : NULL;
}

MXSIM_API const char *mxsim_tile_objective_name(int64_t o)
{
    static const char *const k[] = {"cycles", "energy", "edp"};
    return o >= 0 && o < (int64_t)N_OF(k) ? k[o] : NULL;
}

MXSIM_API const char *mxsim_agg_name(mxsim_agg a)
{
    static const char *const k[] = {"sum", "fold_mean", "recompute", "per_op"};
    return (unsigned)a < 4u ? k[a] : NULL;
}

const char *mx_tstats_scale_overflow(const mxsim_tstats *st, int64_t r)
{
    int64_t p;
#define OVF_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) \
    if (MXSIM_AGG_##agg == MXSIM_AGG_SUM && IS_INT_##ctype && __builtin_mul_overflow((int64_t)st->mem, r, &p)) return col;
    MXSIM_TSTATS_FIELDS(OVF_)
#undef OVF_
    return NULL;
}

void mx_tstats_scale(mxsim_tstats *st, int64_t r)
{
#define SCALE_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) \
    if (MXSIM_AGG_##agg == MXSIM_AGG_SUM) st->mem = (ctype)(st->mem * r);
    MXSIM_TSTATS_FIELDS(SCALE_)
#undef SCALE_
}

MXSIM_API mxsim_status mxsim_tstats_add(mxsim_ctx *ctx, const mxsim_tconfig *cfg, mxsim_tstats *acc,
                                        const mxsim_tstats *s, const char *op_name)
{
    mx_clear_err(ctx);
    if (cfg == NULL || acc == NULL || s == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tstats_add: NULL argument");
    /* every summed count checked before any is changed: a refused op leaves the total as it was */
    int64_t p;
#define CHK_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc)                                         \
    if (MXSIM_AGG_##agg == MXSIM_AGG_SUM && IS_INT_##ctype && __builtin_add_overflow((int64_t)acc->mem, (int64_t)s->mem, &p)) \
        return mx_fail(ctx, MXSIM_E_LIMIT, "TOTAL: field '%s': adding op '%s' passes 2^63", col, op_name ? op_name : "?");
    MXSIM_TSTATS_FIELDS(CHK_)
#undef CHK_
    (void)p;
    /* the sum is made in a copy: a recomputed count (n_lane_slots) can still pass 2^63 */
    mxsim_tstats sum = *acc;
    /* mapping utilisation: weighted by folds (read before n_folds is summed) */
    double um = acc->util_mapping * (double)acc->n_folds + s->util_mapping * (double)s->n_folds;
#define ADD_(ctype, mem, col, unit, scale, kinds, agg, brief, dec, doc) \
    if (MXSIM_AGG_##agg == MXSIM_AGG_SUM) sum.mem += s->mem;
    MXSIM_TSTATS_FIELDS(ADD_)
#undef ADD_
    sum.util_mapping = sum.n_folds > 0 ? um / (double)sum.n_folds : 0;
    const char *ovf = mx_tstats_finish(cfg, &sum);
    if (ovf != NULL)
        return mx_fail(ctx, MXSIM_E_LIMIT, "TOTAL: field '%s': adding op '%s' passes 2^63", ovf, op_name ? op_name : "?");
    *acc = sum;
    return MXSIM_OK;
}

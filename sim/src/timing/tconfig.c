/* tconfig.c - the accelerator configuration: one field table drives defaults, INI files,
** `--set key=value`, SCALE-Sim .cfg import and the dump.
**
** Modelled: every knob of the timing engine, with bounds, default, unit and a one-line doc.
** Ignored: nothing is silently fixed up; an unknown key, a bad number or an out-of-range value is
** MXSIM_E_INPUT naming the file, line and field.  Invariant: a configuration that went only
** through mxsim_tconfig_default/set/load has every field inside its table bounds.
*/
#include <ctype.h>
#include <float.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fileio.h"
#include "lines.h"
#include "tinternal.h"

typedef enum { F_INT, F_REAL, F_ENUM, F_BOOL } ftype;

typedef struct {
    mxsim_tconfig_field pub;
    ftype type;
    size_t off;
} field;

#define FI(key, mem, lo, hi, def, unit, doc) \
    {{key, "int", unit, doc, NULL, lo, hi, def}, F_INT, offsetof(mxsim_tconfig, mem)}
#define FR(key, mem, lo, hi, def, unit, doc) \
    {{key, "real", unit, doc, NULL, lo, hi, def}, F_REAL, offsetof(mxsim_tconfig, mem)}
#define FE(key, mem, choices, n, def, doc) \
    {{key, "enum", "", doc, choices, 0, (n) - 1, def}, F_ENUM, offsetof(mxsim_tconfig, mem)}
#define FB(key, mem, def, doc) {{key, "bool", "", doc, NULL, 0, 1, def}, F_BOOL, offsetof(mxsim_tconfig, mem)}

/* The single source of truth for names, bounds, defaults, units and help text. */
static const field k_fields[] = {
    FI("array.rows", array_rows, 1, 4096, 32, "PE", "R: PE array rows"),
    FI("array.cols", array_cols, 1, 4096, 32, "PE", "C: PE array columns"),
    FE("array.dataflow", dataflow, "os|ws|is", 3, 0, "output, weight or input stationary"),
    FI("pe.lanes", pe_lanes, 1, 1024, 1, "lanes", "L: int8 multipliers per PE feeding one adder tree"),
    FI("pe.load_lanes", load_lanes, 1, 1024, 1, "elements/cycle",
       "mantissas delivered per operand per cycle (plus the group's scale byte)"),
    FI("mx.group_size", group_size, 1, 65536, 32, "elements", "G: elements sharing one scale byte"),
    FE("mx.operand_format", operand_format, "mxint8|int8", 2, 0,
       "mxint8 (scale bytes, exponent unit) or plain int8 (the SCALE-Sim peer)"),
    FE("exp.share", exp_share, "pe|row|col", 3, 0, "one shared-exponent unit per PE, row or column"),
    FI("exp.ii_cycles", exp_ii_cycles, 1, 1024, 1, "cycles", "exponent unit initiation interval"),
    FI("exp.latency_cycles", exp_latency_cycles, 0, 1024, 2, "cycles", "exponent unit pipeline latency"),
    FE("exp.acc_mode", acc_mode, "fp32|exact", 2, 0, "accumulator: fp32 or exact wide register"),
    FI("sram.a_kib", sram_a_kib, 1, 1048576, 256, "KiB", "operand A SRAM (both halves of the double buffer)"),
    FI("sram.b_kib", sram_b_kib, 1, 1048576, 256, "KiB", "operand B SRAM (both halves)"),
    FI("sram.c_kib", sram_c_kib, 1, 1048576, 256, "KiB", "output SRAM, fp32 partial sums (both halves)"),
    FR("dram.bw_bytes_per_cycle", dram_bw_bytes_per_cycle, 1.0 / 1024, 65536, 32, "bytes/cycle",
       "DRAM bandwidth, held as the nearest multiple of 1/1024 byte/cycle (a value farther than 0.1% is refused; "
       "whole bytes under report.scalesim_compat)"),
    FI("dram.latency_cycles", dram_latency_cycles, 0, 1000000, 100, "cycles", "DRAM latency per request"),
    FR("dram.pj_per_bit", dram_pj_per_bit, 0, 1000, 0, "pJ/bit",
       "DRAM transfer energy (0: the cost model's cited band, nominal LPDDR4 8, low HBM2 3.9, high 20; "
       "> 0: this value in every band, e.g. 3.9 for HBM2)"),
    FR("clock.mhz", clock_mhz, 1, 100000, 1000, "MHz", "clock frequency"),
    FE("out.format", out_format, "fp32|bf16|mxint8", 3, 0,
       "GEMM output format (mxint8 goes through the re-quantizer)"),
    FI("dequant.lanes", dequant_lanes, 1, 65536, 32, "elements/cycle", "dequant unit throughput"),
    FI("dequant.depth_cycles", dequant_depth_cycles, 0, 1024, 4, "cycles", "dequant unit pipeline depth"),
    FI("requant.lanes", requant_lanes, 1, 65536, 32, "elements/cycle", "output re-quantizer throughput"),
    FI("requant.depth_cycles", requant_depth_cycles, 0, 1024, 6, "cycles",
       "re-quantizer depth (max-abs tree, exponent, rounding)"),
    FB("report.scalesim_compat", scalesim_compat, 0,
       "SCALE-Sim v2's model: SRAM-independent compute, its stall rule, last-cycle index (1 less)"),
    FE("report.scalesim_bw", scalesim_bw, "user|calc", 2, 0,
       "compat mode interface: user (stalls at dram.bw_bytes_per_cycle) or calc (never stalls)"),
    FE("report.scalesim_version", scalesim_version, "v2|v3", 2, 0,
       "compat mode's SCALE-Sim release under user bandwidth: v2 (2.0.2) or v3 (3.0.0: each positive refill stall "
       "counted twice); a .cfg with a v3 section or key sets v3"),
    FI("tile.m", tile_m, 0, 2147483648.0, 0, "elements", "GEMM tile rows of A (0: chosen by tile.objective)"),
    FI("tile.n", tile_n, 0, 2147483648.0, 0, "elements", "GEMM tile columns of B (0: chosen by tile.objective)"),
    FI("tile.k", tile_k, 0, 2147483648.0, 0, "elements",
       "GEMM tile reduction depth, a multiple of G (0: chosen by tile.objective)"),
    FE("tile.objective", tile_objective, "cycles|energy|edp", 3, 0,
       "what the tile search minimises: cycles, energy (nominal) or energy x cycles"),
};
#define N_FIELDS ((int)(sizeof k_fields / sizeof k_fields[0]))

MXSIM_API int mxsim_tconfig_field_count(void) { return N_FIELDS; }

MXSIM_API const mxsim_tconfig_field *mxsim_tconfig_field_at(int i)
{
    return i >= 0 && i < N_FIELDS ? &k_fields[i].pub : NULL;
}

static int64_t *ifield(mxsim_tconfig *c, const field *f) { return (int64_t *)((char *)c + f->off); }
static double *rfield(mxsim_tconfig *c, const field *f) { return (double *)((char *)c + f->off); }

MXSIM_API void mxsim_tconfig_default(mxsim_tconfig *cfg)
{
    if (cfg == NULL) return;
    memset(cfg, 0, sizeof *cfg);
    for (int i = 0; i < N_FIELDS; i++) {
        if (k_fields[i].type == F_REAL) *rfield(cfg, &k_fields[i]) = k_fields[i].pub.def;
        else *ifield(cfg, &k_fields[i]) = (int64_t)k_fields[i].pub.def;
    }
}

int mx_tparse_i64(const char *s, int64_t *out)
{
    char *end = NULL;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || isspace((unsigned char)s[0]) || *end != '\0' || errno == ERANGE) return -1;
    *out = v;
    return 0;
}

int mx_tparse_f64(const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = mx_strtod(s, &end);
    /* decimal only, as the integers (0x10 is refused there; 0x1p9 read as 512 here); an underflow
    ** (1e-320, a subnormal) is a number, the range check judges it; an overflow (1e309) is not */
    if (s[0] == '\0' || isspace((unsigned char)s[0]) || *end != '\0' || !isfinite(v) || strpbrk(s, "xX") ||
        (errno == ERANGE && fabs(v) >= DBL_MIN))
        return -1;
    *out = v;
    return 0;
}

char *mx_ttrim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

/* Index of `name` in a "a|b|c" choice list, or -1. */
static int choice_index(const char *choices, const char *name)
{
    int idx = 0;
    size_t len = strlen(name);
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t n = bar ? (size_t)(bar - p) : strlen(p);
        if (n == len && strncmp(p, name, n) == 0) return idx;
        if (!bar) return -1;
        p = bar + 1;
    }
}

static const field *find_field(const char *key)
{
    for (int i = 0; i < N_FIELDS; i++)
        if (strcmp(k_fields[i].pub.name, key) == 0) return &k_fields[i];
    return NULL;
}

/* The bandwidth the engines time is an integer number of 1/1024 byte/cycle steps (dram.c), and
** SCALE-Sim's (compat mode with USER bandwidth) a whole number of words (bytes) per cycle, as
** SCALE-Sim v2 reads its Bandwidth with int().  A value within MX_T_BW_TOL (relative) of a step
** is held as that step (12.8 -> 12.7998046875: a GB/s-over-GHz figure rarely is a multiple of
** 1/1024, and 0.1% of bandwidth is far inside the model's accuracy); the held value is what
** config --dump prints.  Anything farther (0.0014 would be held as 0.0009765625, -30%) is
** refused, never rounded.  where: the file:line, flag or "config" the value came from. */
#define MX_T_BW_TOL 1e-3
static double bw_held(double v) { return nearbyint(v * MX_T_BW_FRAC) / MX_T_BW_FRAC; }
static mxsim_status bw_step_check(mxsim_ctx *ctx, double v, const char *where)
{
    double q = v * MX_T_BW_FRAC; /* exact: a power-of-two scaling */
    if (nearbyint(q) < 1 || fabs(nearbyint(q) - q) > MX_T_BW_TOL * q)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: field 'dram.bw_bytes_per_cycle': %.10g is not within 0.1%% of a multiple of the model's step "
                       "of 1/1024 byte/cycle (nearest: %.10g or %.10g)", where, v, floor(q) / MX_T_BW_FRAC,
                       ceil(q) / MX_T_BW_FRAC);
    return MXSIM_OK;
}

static int compat_user_bw(const mxsim_tconfig *cfg)
{
    return cfg->scalesim_compat && cfg->scalesim_bw == MXSIM_SCALESIM_BW_USER;
}

static mxsim_status bw_compat_check(mxsim_ctx *ctx, const mxsim_tconfig *cfg, const char *where)
{
    double v = cfg->dram_bw_bytes_per_cycle;
    if (compat_user_bw(cfg) && v != floor(v))
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: field 'dram.bw_bytes_per_cycle': %.10g is not a whole number: SCALE-Sim's model "
                       "(report.scalesim_compat: a .cfg or --scalesim-compat) moves whole words (bytes) per cycle, "
                       "as SCALE-Sim v2 reads its Bandwidth with int()", where, v);
    return MXSIM_OK;
}

/* compat_now: refuse a fractional bandwidth at once when compat mode is already on; the file
** reader passes 0 and checks once the whole file is read (a later key may turn compat on or off). */
static mxsim_status tconfig_set(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *key, const char *value,
                                const char *where, int compat_now)
{
    mx_clear_err(ctx);
    if (cfg == NULL || key == NULL || value == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tconfig_set: NULL argument");
    if (where == NULL) where = "config";
    const field *f = find_field(key);
    if (f == NULL) {
        const char *names[128];
        int n = 0;
        for (int i = 0; i < mxsim_tconfig_field_count() && n < 128; i++) names[n++] = mxsim_tconfig_field_at(i)->name;
        const char *s = mxsim_closest_name(key, names, n);
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown key%s%s%s", where, key,
                       s ? "; did you mean '" : " (not in the configuration field table)", s ? s : "", s ? "'?" : "");
    }
    const mxsim_tconfig_field *p = &f->pub;
    if (f->type == F_ENUM) {
        int idx = choice_index(p->choices, value);
        if (idx < 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not one of %s", where, key,
                           value, p->choices);
        *ifield(cfg, f) = idx;
        return MXSIM_OK;
    }
    if (f->type == F_BOOL) {
        if (!strcmp(value, "1") || !strcmp(value, "true") || !strcmp(value, "yes")) *ifield(cfg, f) = 1;
        else if (!strcmp(value, "0") || !strcmp(value, "false") || !strcmp(value, "no")) *ifield(cfg, f) = 0;
        else
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not a boolean (0/1, true/false, yes/no)",
                           where, key, value);
        return MXSIM_OK;
    }
    if (f->type == F_INT) {
        int64_t v;
        if (mx_tparse_i64(value, &v) != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not an integer", where, key, value);
        if ((double)v < p->lo || (double)v > p->hi)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': %lld out of range %.0f..%.0f %s", where,
                           key, (long long)v, p->lo, p->hi, p->unit);
        *ifield(cfg, f) = v;
        return MXSIM_OK;
    }
    double v;
    if (mx_tparse_f64(value, &v) != 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not a number", where, key, value);
    int is_bw = f->off == offsetof(mxsim_tconfig, dram_bw_bytes_per_cycle);
    if (v < p->lo || v > p->hi)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': %s out of range %g..%g %s%s", where, key, value,
                       p->lo, p->hi, p->unit, is_bw ? " (the model's step is 1/1024 byte/cycle)" : "");
    if (is_bw) {
        /* compat mode already on (a .cfg, --scalesim-compat or an earlier --set): refused here,
        ** naming where the value came from; compat turned on later is caught by
        ** mxsim_tconfig_validate.  Its rule (whole bytes) first: it implies the step's. */
        mxsim_tconfig t = *cfg;
        t.dram_bw_bytes_per_cycle = v;
        mxsim_status st = compat_now ? bw_compat_check(ctx, &t, where) : MXSIM_OK;
        if (st == MXSIM_OK) st = bw_step_check(ctx, v, where);
        if (st != MXSIM_OK) return st;
        v = bw_held(v);
    }
    *rfield(cfg, f) = v;
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_tconfig_set(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *key,
                                         const char *value, const char *where)
{
    return tconfig_set(ctx, cfg, key, value, where, 1);
}

MXSIM_API mxsim_status mxsim_tconfig_set_kv(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *kv)
{
    mx_clear_err(ctx);
    char buf[256];
    if (kv == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tconfig_set_kv: NULL");
    const char *eq = strchr(kv, '=');
    if (eq == NULL || strlen(kv) >= sizeof buf)
        return mx_fail(ctx, MXSIM_E_INPUT, "setting '%s': expected key=value", kv);
    memcpy(buf, kv, strlen(kv) + 1);
    buf[eq - kv] = '\0';
    return mxsim_tconfig_set(ctx, cfg, mx_ttrim(buf), mx_ttrim(buf + (eq - kv) + 1), "setting");
}

MXSIM_API const char *mxsim_tconfig_format(const mxsim_tconfig *cfg, int i, char *buf, size_t len)
{
    if (buf == NULL || len == 0) return buf;
    buf[0] = '\0';
    if (cfg == NULL || i < 0 || i >= N_FIELDS) return buf;
    const field *f = &k_fields[i];
    mxsim_tconfig *c = (mxsim_tconfig *)cfg; /* read only */
    if (f->type == F_REAL) {
        /* the shortest of 15..17 significant digits that reads back as the same double: the value
        ** the engines use (a held bandwidth such as 12.7998046875), and exact round trips through
        ** text (the Python package's pickling; sweep sidecars) */
        const double v = *rfield(c, f);
        for (int prec = 15; prec <= 17; prec++) {
            mx_snprintf(buf, len, "%.*g", prec, v);
            if (mx_strtod(buf, NULL) == v) break;
        }
    } else if (f->type == F_ENUM) {
        int64_t idx = *ifield(c, f);
        const char *p = f->pub.choices;
        for (int64_t k = 0; k < idx && p; k++) {
            p = strchr(p, '|');
            if (p) p++;
        }
        size_t n = p ? (strchr(p, '|') ? (size_t)(strchr(p, '|') - p) : strlen(p)) : 0;
        if (n >= len) n = len - 1;
        if (p) memcpy(buf, p, n);
        buf[n] = '\0';
    } else {
        mx_snprintf(buf, len, "%lld", (long long)*ifield(c, f));
    }
    return buf;
}

MX_INTERNAL mxsim_status mx_tconfig_check_ranges(mxsim_ctx *ctx, const mxsim_tconfig *cfg)
{
    for (int i = 0; i < N_FIELDS; i++) {
        const field *f = &k_fields[i];
        double v = f->type == F_REAL ? *rfield((mxsim_tconfig *)cfg, f) : (double)*ifield((mxsim_tconfig *)cfg, f);
        if (!(v >= f->pub.lo && v <= f->pub.hi))
            return mx_fail(ctx, MXSIM_E_INPUT, "config: field '%s': %g out of range %g..%g", f->pub.name,
                           v, f->pub.lo, f->pub.hi);
    }
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_tconfig_validate(mxsim_ctx *ctx, const mxsim_tconfig *cfg)
{
    mx_clear_err(ctx);
    if (cfg == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tconfig_validate: NULL");
    mxsim_status rst = mx_tconfig_check_ranges(ctx, cfg);
    if (rst != MXSIM_OK) return rst;
    /* the engines would otherwise round the bandwidth (dram.c) or floor it (scalesim.c) */
    mxsim_status bst = bw_compat_check(ctx, cfg, "config");
    if (bst == MXSIM_OK) bst = bw_step_check(ctx, cfg->dram_bw_bytes_per_cycle, "config");
    if (bst != MXSIM_OK) return bst;
    /* A PE array larger than 2^22 PEs would overflow the per-cycle counters of detailed mode
    ** and is far beyond any real design. */
    if (cfg->array_rows * cfg->array_cols > ((int64_t)1 << 22))
        return mx_fail(ctx, MXSIM_E_INPUT, "config: field 'array.rows' x 'array.cols' = %lld PEs: at most 2^22",
                       (long long)(cfg->array_rows * cfg->array_cols));
#ifndef MXSIM_HAVE_COST
    if (cfg->tile_objective != MXSIM_OBJ_CYCLES)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED, "config: field 'tile.objective': energy and edp need the cost "
                       "model (built with MXSIM_WITH_SWEEP=ON)");
#endif
    return MXSIM_OK;
}

/* ---- files ------------------------------------------------------------------------------ */

/* SCALE-Sim .cfg keys (Python configparser: ':' or '=', keys case-insensitive, section names
** case-sensitive), v2 and v3.  Mapped: the array, the three SRAM sizes, the dataflow and the
** interface bandwidth, each only from the section SCALE-Sim reads it from.  Required: every key
** SCALE-Sim v2's scale_config.py reads without a default (k_ss_required; it stops with
** NoSectionError / NoOptionError without one).  Accepted and ignored, each for the reason given
** (sim/doc/architecture.md section 8 lists them too); v3 settings that would change v3's timing
** are accepted only at their off values (k_ss_v3_off).  Any other key is an error naming file,
** line and key. */
static const struct {
    const char *key, *why;
} k_scalesim_ignored[] = {
    {"run_name", "names SCALE-Sim's output folder"},
    {"IfmapOffset", "DRAM base address of the trace: no timing effect"},
    {"FilterOffset", "DRAM base address of the trace: no timing effect"},
    {"OfmapOffset", "DRAM base address of the trace: no timing effect"},
    {"MemoryBanks", "v2: read by no SCALE-Sim v2 code"},
    {"OnChipMemoryBanks", "v3: read by no SCALE-Sim v3 code"},
    {"OnChipMemoryBankPorts", "v3: read by no SCALE-Sim v3 code"},
    {"ReadRequestBuffer", "v3: Ramulator request queue, only with UseRamulatorTrace (refused when on)"},
    {"WriteRequestBuffer", "v3: Ramulator request queue, only with UseRamulatorTrace (refused when on)"},
    {"SparseRep", "v3: sparse format, only with SparsitySupport (refused when on)"},
    {"OptimizedMapping", "v3: sparse mapping, only with SparsitySupport (refused when on)"},
    {"BlockSize", "v3: sparse block, only with SparsitySupport (refused when on)"},
    {"RandomNumberGeneratorSeed", "v3: sparse pattern seed, only with SparsitySupport (refused when on)"},
    {"IfmapSRAMBankNum", "v3 [layout]: SRAM banks, only with IfmapCustomLayout (refused when on)"},
    {"IfmapSRAMBankPort", "v3 [layout]: SRAM bank ports, only with IfmapCustomLayout (refused when on)"},
    {"FilterSRAMBankNum", "v3 [layout]: SRAM banks, only with FilterCustomLayout (refused when on)"},
    {"FilterSRAMBankPort", "v3 [layout]: SRAM bank ports, only with FilterCustomLayout (refused when on)"},
    {"SRAM_row_size", "v3 Accelergy: energy action counts only"},
    {"SRAM_bank_size", "v3 Accelergy: energy action counts only"},
    {"DRAM_row_size", "v3 Accelergy: energy action counts only"},
    {"DRAM_bank_size", "v3 Accelergy: energy action counts only"},
    {"TopologyCsvLoc", "[network_presets]: the topology is given on the command line"},
    {"NonZeroElems", "[sparsity] of early v2 configs: read by no SCALE-Sim code"},
    {"SparseAcc", "v2 sparsesim/system.cfg: read by no SCALE-Sim code"},
    {"save_disk_space", "SCALE-Sim trace-file option"},
};

/* v3 switches of models mxsim does not have (sparse operands, custom SRAM layouts with bank
** conflicts, Ramulator DRAM timing: each changes v3's cycles): accepted where v3 reads them as off,
** refused where it reads them as on, each as v3's scale_config.py reads it: UseRamulatorTrace is
** on only for the exact text True; SparsitySupport for true in any case; the layouts through
** configparser's getboolean (1/yes/true/on, 0/no/false/off in any case, anything else an error). */
enum { SS_ON_EXACT_TRUE, SS_ON_TRUE_ANY_CASE, SS_ON_GETBOOLEAN };
static const struct {
    const char *key, *what;
    int rule;
} k_ss_v3_off[] = {
    {"SparsitySupport", "SCALE-Sim v3's sparsity is not modelled (mxsim gives SCALE-Sim v2's dense timing)",
     SS_ON_TRUE_ANY_CASE},
    {"IfmapCustomLayout", "SCALE-Sim v3's custom SRAM layout (bank conflicts) is not modelled (mxsim gives SCALE-Sim "
                          "v2's timing)", SS_ON_GETBOOLEAN},
    {"FilterCustomLayout", "SCALE-Sim v3's custom SRAM layout (bank conflicts) is not modelled (mxsim gives SCALE-Sim "
                           "v2's timing)", SS_ON_GETBOOLEAN},
    {"UseRamulatorTrace", "SCALE-Sim v3's Ramulator DRAM timing is not modelled (mxsim gives SCALE-Sim v2's timing)",
     SS_ON_EXACT_TRUE},
};

/* v3's integer keys (scale_config.py reads each with int()) */
static const char *const k_ss_v3_int[] = {"ReadRequestBuffer",      "WriteRequestBuffer",     "IfmapSRAMBankBandwidth",
                                          "IfmapSRAMBankNum",       "IfmapSRAMBankPort",      "FilterSRAMBankBandwidth",
                                          "FilterSRAMBankNum",      "FilterSRAMBankPort"};

/* The keys SCALE-Sim v2 reads with config.get and no fallback (scalesim/scale_config.py,
** read_conf_file), in their sections; `Bandwidth` only under InterfaceBandwidth USER. */
enum { SS_REQ_BW = 11 };
static const struct {
    const char *section, *key;
} k_ss_required[] = {
    {"general", "run_name"},
    {"run_presets", "InterfaceBandwidth"},
    {"architecture_presets", "ArrayHeight"},
    {"architecture_presets", "ArrayWidth"},
    {"architecture_presets", "IfmapSramSzkB"},
    {"architecture_presets", "FilterSramSzkB"},
    {"architecture_presets", "OfmapSramSzkB"},
    {"architecture_presets", "IfmapOffset"},
    {"architecture_presets", "FilterOffset"},
    {"architecture_presets", "OfmapOffset"},
    {"architecture_presets", "Dataflow"},
    {"architecture_presets", "Bandwidth"}, /* SS_REQ_BW */
};
#define N_SS_REQ ((int)(sizeof k_ss_required / sizeof k_ss_required[0]))

static int key_is(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
    return *a == *b;
}

/* What the .cfg reader has seen, for the checks made once the file is read. */
typedef struct {
    int user_bw;                 /* InterfaceBandwidth: USER (the default until it is read) */
    double bw;                   /* Bandwidth's first value */
    int bw_line;
    char bw_text[256];           /* Bandwidth as written: parsed once InterfaceBandwidth is known */
    int have[N_SS_REQ];          /* line of each required key, 0: not seen */
    char bank_bw[2][64];         /* v3 [layout] Ifmap/FilterSRAMBankBandwidth, "" if absent */
    int bank_line[2];
    int64_t bank_num[2];         /* v3 [layout] Ifmap/FilterSRAMBankNum */
    int bank_num_line[2];
    int bad_int_line;            /* the first v3 integer key int() would refuse, 0: none */
    char bad_int[160];
    int v3_line;                 /* first line of a v3-only section or key (the notes), 0: none */
    char v3_what[80];
    int csvloc_line;             /* the [network_presets] header, a section SCALE-Sim stops on, 0: none */
} ss_seen;

static int ss_off_value(const char *v)
{
    return key_is(v, "false") || key_is(v, "0") || key_is(v, "no") || key_is(v, "off");
}
static int ss_on_value(const char *v)
{
    return key_is(v, "true") || key_is(v, "1") || key_is(v, "yes") || key_is(v, "on");
}

/* A section header of a .cfg, for the notes: v3's own sections ([sparsity] is in early v2 files
** too), and [network_presets], on which SCALE-Sim 2.0.2 and v3 stop (their reader looks for its
** TopologyCsvLoc in [architecture_presets]) */
static void ss_section(const char *section, int line, ss_seen *ss)
{
    static const char *const v3_sections[] = {"layout", "run_presets_v3", "memory"};
    for (size_t i = 0; !ss->v3_line && i < sizeof v3_sections / sizeof v3_sections[0]; i++)
        if (!strcmp(section, v3_sections[i])) ss->v3_line = line, mx_snprintf(ss->v3_what, sizeof ss->v3_what, "section [%s]", section);
    if (!strcmp(section, "network_presets") && !ss->csvloc_line) ss->csvloc_line = line;
}

static mxsim_status scalesim_key(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *section, const char *key,
                                 char *val, const char *where, int line, ss_seen *ss)
{
    static const struct {
        const char *ss, *ours;
    } map[] = {{"ArrayHeight", "array.rows"},  {"ArrayWidth", "array.cols"},
               {"IfmapSramSzkB", "sram.a_kib"}, {"FilterSramSzkB", "sram.b_kib"},
               {"OfmapSramSzkB", "sram.c_kib"}};
    if (!strcmp(section, "DEFAULT"))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s' in [DEFAULT]: configparser gives [DEFAULT]'s keys to every "
                       "section, which mxsim does not model: write the key in the section SCALE-Sim reads it from", where,
                       key);
    if (strstr(val, "%(") != NULL)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s': configparser's %%(name)s interpolation is not expanded "
                       "by mxsim: write the value itself", where, key, val);
    /* a file written for SCALE-Sim v3 (the notes of scalesim_file_checks; its sections: ss_section) */
    for (size_t i = 0; !ss->v3_line && i < sizeof k_ss_v3_off / sizeof k_ss_v3_off[0]; i++)
        if (key_is(key, k_ss_v3_off[i].key)) ss->v3_line = line, mx_snprintf(ss->v3_what, sizeof ss->v3_what, "key %s", key);
    int req = -1;
    for (int i = 0; i < N_SS_REQ; i++)
        if (key_is(key, k_ss_required[i].key)) req = i;
    if (req >= 0 && strcmp(section, k_ss_required[req].section) != 0) {
        /* SCALE-Sim reads it only from its section: elsewhere it would be ignored there, and a
        ** mapped key here could silently override the one SCALE-Sim uses */
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s' in [%s]: SCALE-Sim reads it only from [%s] (section names "
                       "are case-sensitive)", where, key, section, k_ss_required[req].section);
    }
    if (req >= 0) ss->have[req] = line;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (key_is(key, map[i].ss)) return tconfig_set(ctx, cfg, map[i].ours, val, where, 0);
    if (key_is(key, "Dataflow")) {
        /* SCALE-Sim v2 takes os, ws and is as written: any other value (WS, Os) gets "WARNING:
        ** Invalid dataflow" and its layer runs output stationary */
        if (strcmp(val, "os") != 0 && strcmp(val, "ws") != 0 && strcmp(val, "is") != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Dataflow': '%s': SCALE-Sim v2 accepts only os, ws or is, in "
                           "lower case (for any other value it prints 'WARNING: Invalid dataflow' and runs os)",
                           where, val);
        return tconfig_set(ctx, cfg, "array.dataflow", val, where, 0);
    }
    if (key_is(key, "Bandwidth")) {
        /* kept as written: SCALE-Sim reads it only under InterfaceBandwidth USER (a CALC file may
        ** hold 0, a note or nothing there), so it is parsed once the whole file is read
        ** (scalesim_file_checks) */
        if (strlen(val) >= sizeof ss->bw_text)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Bandwidth': value longer than %d characters", where,
                           (int)sizeof ss->bw_text - 1);
        mx_snprintf(ss->bw_text, sizeof ss->bw_text, "%s", val);
        ss->bw_line = line;
        return MXSIM_OK;
    }
    if (key_is(key, "InterfaceBandwidth")) {
        if (strcmp(val, "USER") == 0) ss->user_bw = 1;
        else if (strcmp(val, "CALC") == 0) ss->user_bw = 0;
        else return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'InterfaceBandwidth': '%s' is not CALC or USER", where, val);
        return MXSIM_OK;
    }
    if (key_is(key, "IfmapOffset") || key_is(key, "FilterOffset") || key_is(key, "OfmapOffset")) {
        int64_t x; /* no timing effect, but SCALE-Sim stops on a value int() refuses */
        if (mx_tparse_i64(val, &x) != 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not an integer (SCALE-Sim reads it with int())",
                           where, key, val);
        /* SCALE-Sim marks "no request" with address -1 and its buffers skip any element at -1: a
        ** negative offset puts an operand's first elements there and changes its timing (peer
        ** audit, twenty-fifth session: OfmapOffset -1 on a 2x2 IS array, 2235 cycles against 2231),
        ** which mxsim does not model */
        if (x < 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': %lld is negative (SCALE-Sim's buffers skip address -1, its "
                           "no-request marker, so a negative offset changes its timing; mxsim does not model that)",
                           where, key, (long long)x);
        return MXSIM_OK;
    }
    for (size_t i = 0; i < sizeof k_ss_v3_off / sizeof k_ss_v3_off[0]; i++)
        if (key_is(key, k_ss_v3_off[i].key)) {
            const int rule = k_ss_v3_off[i].rule;
            const int on = rule == SS_ON_EXACT_TRUE      ? !strcmp(val, "True")
                           : rule == SS_ON_TRUE_ANY_CASE ? key_is(val, "true")
                                                         : ss_on_value(val);
            if (rule == SS_ON_GETBOOLEAN && !on && !ss_off_value(val))
                return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s' is not a boolean (SCALE-Sim v3 reads it with "
                               "getboolean: 1, yes, true, on or 0, no, false, off)", where, key, val);
            if (!on) return MXSIM_OK; /* what v3 reads as off */
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': '%s': %s; only a value that SCALE-Sim v3 reads as off "
                           "(False) is accepted", where, key, val, k_ss_v3_off[i].what);
        }
    for (size_t i = 0; i < sizeof k_ss_v3_int / sizeof k_ss_v3_int[0]; i++)
        if (key_is(key, k_ss_v3_int[i])) {
            /* v3 reads each with int() and stops on anything else, under CALC too; 2.0.2 never reads
            ** them: judged once the file is known to be a v3 file (scalesim_file_checks) */
            int64_t x = 0;
            if (mx_tparse_i64(val, &x) != 0 && !ss->bad_int_line) {
                ss->bad_int_line = line;
                mx_snprintf(ss->bad_int, sizeof ss->bad_int, "field '%s': '%.60s'", key, val);
            }
            for (int k = 0; k < 2; k++)
                if (key_is(key, k ? "FilterSRAMBankNum" : "IfmapSRAMBankNum")) ss->bank_num[k] = x, ss->bank_num_line[k] = line;
            break;
        }
    for (int i = 0; i < 2; i++)
        if (key_is(key, i ? "FilterSRAMBankBandwidth" : "IfmapSRAMBankBandwidth")) {
            /* v3 under USER refills the ifmap / filter buffer at this bandwidth, not Bandwidth's
            ** (single_layer_sim.py): checked against Bandwidth once the file is read */
            mx_snprintf(ss->bank_bw[i], sizeof ss->bank_bw[i], "%s", val);
            ss->bank_line[i] = line;
            return MXSIM_OK;
        }
    for (size_t i = 0; i < sizeof k_scalesim_ignored / sizeof k_scalesim_ignored[0]; i++)
        if (key_is(key, k_scalesim_ignored[i].key)) return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': unknown SCALE-Sim key (configparser takes any key and SCALE-Sim "
                   "ignores those it does not read; mxsim refuses one it does not know rather than drop a setting "
                   "unread: check its spelling)", where, key);
}

/* The checks of a whole .cfg: the bandwidth under USER, v3's bank bandwidths, the required
** keys.  where: "path" (messages add the line where there is one). */
static mxsim_status scalesim_file_checks(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *path, ss_seen *ss,
                                         int have_section_general, int have_section_run, int have_section_arch)
{
    char where[560];
    if (ss->bw_line > 0) mx_snprintf(where, sizeof where, "%s:%d", path, ss->bw_line);
    else mx_snprintf(where, sizeof where, "%s", path);
    cfg->scalesim_bw = ss->user_bw ? MXSIM_SCALESIM_BW_USER : MXSIM_SCALESIM_BW_CALC;
    if (ss->user_bw && ss->bw_line > 0) {
        /* SCALE-Sim words are one byte: words/cycle = bytes/cycle.  A comma list gives one
        ** bandwidth per operand; SCALE-Sim v2 and v3 time every buffer with the first (each
        ** entry must still be a number). */
        char text[sizeof ss->bw_text];
        mx_snprintf(text, sizeof text, "%s", ss->bw_text);
        char *val = text, *comma = strchr(text, ',');
        if (comma) {
            *comma = '\0';
            for (char *q, *e = comma + 1; e != NULL; e = q) {
                q = strchr(e, ',');
                if (q) *q++ = '\0';
                double x;
                if (mx_tparse_f64(mx_ttrim(e), &x) != 0)
                    return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Bandwidth': list entry '%s' is not a number", where,
                                   mx_ttrim(e));
            }
        }
        val = mx_ttrim(val);
        /* Below the 1/1024 byte/cycle resolution the value would leave dram.bw_bytes_per_cycle
        ** outside its bounds after loading (found by the fuzz target's bounds check;
        ** tests/fuzz/crashes/scalesim_cfg). */
        double bw = 0;
        if (*val == '\0' || mx_tparse_f64(val, &bw) != 0 || bw < 1.0 / MX_T_BW_FRAC)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Bandwidth': '%s' is not a whole number of words per cycle "
                           "in 1..65536 (read because InterfaceBandwidth is USER)", where, val);
        ss->bw = bw;
        memmove(ss->bw_text, val, strlen(val) + 1); /* the messages below quote the value used */
    }
    /* USER: SCALE-Sim v2 reads Bandwidth with int(), so a fraction is an error there too; a
    ** value the model cannot hold (dram.bw_bytes_per_cycle's range) is refused, not clamped
    ** (tests/fuzz/crashes/scalesim_cfg: below 1/1024 it once left the field out of bounds) */
    if (ss->user_bw && ss->bw_line > 0 && ss->bw != floor(ss->bw))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Bandwidth': '%s' is not a whole number: SCALE-Sim's "
                       "bandwidth is whole words per cycle (SCALE-Sim v2 reads it with int())", where, ss->bw_text);
    if (ss->user_bw && ss->bw_line > 0 && (ss->bw < 1 || ss->bw > 65536))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'Bandwidth': '%s' words/cycle out of range 1..65536 "
                       "(the range of dram.bw_bytes_per_cycle)", where, ss->bw_text);
    if (ss->user_bw && ss->bw_line > 0) cfg->dram_bw_bytes_per_cycle = ss->bw;
    else if (!ss->user_bw) {
        /* CALC: SCALE-Sim sizes the interface so that it never stalls. */
        cfg->dram_bw_bytes_per_cycle = 65536;
        cfg->dram_latency_cycles = 0;
    }
    for (int i = 0; ss->user_bw && ss->bw_line > 0 && i < 2; i++) {
        double x;
        if (ss->bank_line[i] > 0 && (mx_tparse_f64(ss->bank_bw[i], &x) != 0 || x != ss->bw))
            return mx_fail(ctx, MXSIM_E_INPUT,
                           "%s:%d: field '%sSRAMBankBandwidth': '%s' differs from Bandwidth '%s' (line %d): under "
                           "InterfaceBandwidth USER SCALE-Sim v3 refills the %s buffer at this bandwidth, v2 at "
                           "Bandwidth's; mxsim models v2's one bandwidth: make them equal", path, ss->bank_line[i],
                           i ? "Filter" : "Ifmap", ss->bank_bw[i], ss->bw_text, ss->bw_line, i ? "filter" : "ifmap");
    }
    for (int i = 0; i < N_SS_REQ; i++) {
        if (ss->have[i] || (i == SS_REQ_BW && !ss->user_bw)) continue;
        const char *sec = k_ss_required[i].section;
        int have_sec = !strcmp(sec, "general") ? have_section_general
                       : !strcmp(sec, "run_presets") ? have_section_run : have_section_arch;
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: [%s] %s: missing%s: SCALE-Sim v2 reads it with no default (it stops with %s); mxsim "
                       "does not guess it", path, sec, k_ss_required[i].key,
                       have_sec ? "" : " (no such section)", have_sec ? "NoOptionError" : "NoSectionError");
    }
    if (ss->v3_line && ss->bad_int_line)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s is not an integer: SCALE-Sim v3, whose file this is (%s, line %d), "
                       "reads it with int() and stops", path, ss->bad_int_line, ss->bad_int, ss->v3_what, ss->v3_line);
    for (int i = 0; ss->user_bw && i < 2; i++) {
        /* v3's read buffer splits its refill bandwidth over the banks (memory/read_buffer.py) */
        const int64_t bw = ss->bank_line[i] > 0 ? (int64_t)strtoll(ss->bank_bw[i], NULL, 10) : (int64_t)ss->bw;
        if (ss->bank_num_line[i] > 0 && (ss->bank_num[i] < 1 || bw % ss->bank_num[i] != 0))
            return mx_fail(ctx, MXSIM_E_INPUT,
                           "%s:%d: field '%sSRAMBankNum': %lld: under InterfaceBandwidth USER SCALE-Sim v3 splits the "
                           "%s buffer's bandwidth (%lld words/cycle) over its banks and stops unless the bank count is a "
                           "positive divisor of it (AssertionError in memory/read_buffer.py)", path, ss->bank_num_line[i],
                           i ? "Filter" : "Ifmap", (long long)ss->bank_num[i], i ? "filter" : "ifmap", (long long)bw);
    }
    if (ss->v3_line) {
        cfg->scalesim_version = MXSIM_SCALESIM_V3;
        if (ss->user_bw)
            mx_note(ctx, "%s:%d: a SCALE-Sim v3 file (%s) with InterfaceBandwidth USER: it sets report.scalesim_version "
                    "to v3, which times the stalls as SCALE-Sim 3.0.0 counts them (each positive refill stall twice, "
                    "memory/read_buffer.py: up to twice 2.0.2's); --set report.scalesim_version=v2 times them as 2.0.2 "
                    "(sim/doc/architecture.md section 8)", path, ss->v3_line, ss->v3_what);
    }
    if (ss->csvloc_line)
        mx_note(ctx, "%s:%d: SCALE-Sim 2.0.2 and v3 stop on a [network_presets] section (their reader looks for its "
                "TopologyCsvLoc in [architecture_presets]); mxsim ignores it: the topology is the one on the command line",
                path, ss->csvloc_line);
    return MXSIM_OK;
}

MXSIM_API mxsim_status mxsim_tconfig_load(mxsim_ctx *ctx, mxsim_tconfig *cfg, const char *path)
{
    mx_clear_err(ctx);
    if (cfg == NULL || path == NULL) return mx_fail(ctx, MXSIM_E_ARG, "tconfig_load: NULL argument");
    uint8_t *data = NULL;
    size_t len = 0;
    mxsim_status st = mx_file_read(ctx, path, 1u << 20, &data, &len);
    if (st != MXSIM_OK) return st;
    size_t plen = strlen(path);
    /* .cfg in any case: SCALE-Sim takes any file name (SCALE.CFG) */
    int scalesim = plen > 4 && strcasecmp(path + plen - 4, ".cfg") == 0;
    ss_seen ss;
    memset(&ss, 0, sizeof ss);
    /* .cfg: Python's configparser (SCALE-Sim's reader) joins a line indented deeper than the key
    ** line above it to that key's value; the key and its indentation, until a section header */
    char cont_key[64] = "";
    int cont_line = 0, cont_indent = 0;
    ss.user_bw = 1;
    int bw_line = 0; /* line of .ini dram.bw_bytes_per_cycle */
    int sec_general = 0, sec_run = 0, sec_arch = 0;
    char section[64] = "";
    char where[512];
    char *buf = (char *)data; /* mx_file_read NUL-terminates */
    if (memchr(buf, '\0', len) != NULL) {
        free(buf);
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: contains a NUL byte: not a text configuration", path);
    }
    if (scalesim) {
        /* A SCALE-Sim configuration describes a plain int8 scalar-MAC array, timed by
        ** SCALE-Sim's model. */
        cfg->operand_format = MXSIM_FMT_INT8;
        cfg->pe_lanes = cfg->load_lanes = 1;
        cfg->scalesim_compat = 1;
    }
    /* keys seen so far ("section.key", lower-cased for SCALE-Sim, whose configparser ignores
    ** case) and their lines: a key given twice is refused, naming both lines.  Every accepted
    ** key is known, so their number is bounded by the field and SCALE-Sim tables. */
    enum { MAX_SEEN = 512 };
    struct seen_key {
        char key[160];
        int line;
    } *seen = NULL;
    int n_seen = 0, cap_seen = 0;
    mx_lines cur;
    if (scalesim) mx_text_lone_cr_to_lf(buf); /* as SCALE-Sim's configparser reads it */
    mx_lines_init(&cur, buf);
    st = MXSIM_OK;
    for (char *ln; st == MXSIM_OK && (ln = mx_lines_next(&cur)) != NULL;) {
        mx_snprintf(where, sizeof where, "%s:%d", path, cur.line);
        /* .ini: a comment after a blank too; .cfg: configparser's default, whole-line comments only
        ** (SCALE-Sim reads `Dataflow : ws # weight stationary` as an invalid dataflow and runs os) */
        if (!scalesim) mx_ini_cut_comment(ln);
        else if (*mx_ttrim(ln) == '#' || *mx_ttrim(ln) == ';') continue;
        const int indent = (int)strspn(ln, " \t\f\v");
        char *s = mx_ttrim(ln);
        if (*s == '\0') continue;
        if (scalesim && cont_key[0] && indent > cont_indent) {
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: '%s' is indented deeper than the key on line %d: Python's configparser, which SCALE-Sim "
                         "reads the file with, makes it a second line of the value of '%s' (which SCALE-Sim would then "
                         "not read as written); remove the indentation", where, s, cont_line, cont_key);
            break;
        }
        if (*s == '[') {
            /* .cfg: configparser's header pattern \[(.+)\] at the line's start: the name runs to the
            ** last ']' and anything after it is ignored ("[architecture_presets]  # 32x32") */
            char *close = scalesim ? strrchr(s, ']') : strchr(s, ']');
            if (close == NULL || (!scalesim && close[1] != '\0') || close - s - 1 >= (long)sizeof section ||
                (scalesim && close == s + 1)) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: malformed section header '%s'", where, s);
                break;
            }
            *close = '\0';
            cont_key[0] = '\0';
            /* configparser keeps the name as written: "[ general ]" is not [general] to SCALE-Sim */
            mx_snprintf(section, sizeof section, "%s", scalesim ? s + 1 : mx_ttrim(s + 1));
            if (scalesim) ss_section(section, cur.line, &ss);
            sec_general |= !strcmp(section, "general");
            sec_run |= !strcmp(section, "run_presets");
            sec_arch |= !strcmp(section, "architecture_presets");
            continue;
        }
        char *eq = strchr(s, '=');
        if (scalesim) {
            char *colon = strchr(s, ':');
            if (colon && (!eq || colon < eq)) eq = colon;
        }
        if (eq == NULL) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: expected 'key = value', got '%s'", where, s);
            break;
        }
        *eq = '\0';
        char *key = mx_ttrim(s), *val = mx_ttrim(eq + 1);
        if (scalesim) {
            mx_snprintf(cont_key, sizeof cont_key, "%s", key);
            cont_line = cur.line;
            cont_indent = indent;
        }
        /* .cfg: an empty value is refused only where SCALE-Sim reads the key as a number (it
        ** never reads run_name as one, Bandwidth only under USER: checked later, and never the
        ** ignored keys) */
        int may_be_empty = 0;
        for (size_t i = 0; scalesim && i < sizeof k_scalesim_ignored / sizeof k_scalesim_ignored[0]; i++)
            may_be_empty |= key_is(key, k_scalesim_ignored[i].key) && !key_is(key, "IfmapOffset") &&
                            !key_is(key, "FilterOffset") && !key_is(key, "OfmapOffset");
        may_be_empty |= scalesim && key_is(key, "Bandwidth");
        if (*val == '\0' && !may_be_empty) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': empty value", where, key);
            break;
        }
        char canon[160];
        mx_snprintf(canon, sizeof canon, "%s%s%s", section, section[0] ? "." : "", key);
        if (scalesim)
            for (char *p = canon; *p; p++) *p = (char)tolower((unsigned char)*p);
        for (int i = 0; i < n_seen && st == MXSIM_OK; i++)
            if (strcmp(seen[i].key, canon) == 0)
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field '%s': duplicate key (first on line %d)", where, canon,
                             seen[i].line);
        if (st != MXSIM_OK) break;
        if (n_seen == cap_seen && cap_seen < MAX_SEEN) { /* grown as keys come: most files have a few */
            struct seen_key *ns = realloc(seen, (size_t)(cap_seen ? 2 * cap_seen : 16) * sizeof *seen);
            if (ns == NULL) {
                st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
                break;
            }
            seen = ns;
            cap_seen = cap_seen ? 2 * cap_seen : 16;
        }
        if (n_seen < cap_seen) {
            mx_snprintf(seen[n_seen].key, sizeof seen[n_seen].key, "%s", canon);
            seen[n_seen++].line = cur.line;
        }
        if (scalesim) {
            st = scalesim_key(ctx, cfg, section, key, val, where, cur.line, &ss);
        } else {
            char full[160];
            if (section[0]) mx_snprintf(full, sizeof full, "%s.%s", section, key);
            else mx_snprintf(full, sizeof full, "%s", key);
            st = tconfig_set(ctx, cfg, full, val, where, 0);
            if (strcmp(full, "dram.bw_bytes_per_cycle") == 0) bw_line = cur.line;
            /* a SCALE-Sim file under another name is read as an INI: say how to have it read as one */
            static const char *const ss_sections[] = {"general", "architecture_presets", "run_presets", "network_presets",
                                                      "layout", "sparsity", "run_presets_v3", "memory"};
            for (size_t i = 0; st == MXSIM_E_INPUT && i < sizeof ss_sections / sizeof ss_sections[0]; i++)
                if (key_is(section, ss_sections[i])) {
                    char msg[512];
                    mx_snprintf(msg, sizeof msg, "%s", mxsim_errmsg(ctx)); /* mx_fail rewrites that buffer */
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s (section [%s] is SCALE-Sim's: a SCALE-Sim configuration is "
                                 "read as one when its name ends in .cfg)", msg, section);
                    break;
                }
        }
    }
    free(seen);
    free(buf);
    if (st != MXSIM_OK) return st;
    if (scalesim && (st = scalesim_file_checks(ctx, cfg, path, &ss, sec_general, sec_run, sec_arch)) != MXSIM_OK)
        return st;
    if (scalesim) bw_line = ss.bw_line;
    if (bw_line > 0) mx_snprintf(where, sizeof where, "%s:%d", path, bw_line);
    else mx_snprintf(where, sizeof where, "%s", path);
    /* compat mode and the bandwidth as the whole file left them, at the bandwidth's line */
    return bw_compat_check(ctx, cfg, where);
}

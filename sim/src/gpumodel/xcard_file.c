/* xcard_file.c - the cross-card model's card file (workloads/gpus/<card>-xcard.ini; sim/doc/gpu-model.md
** section 6.1): `name = CARD`, a [datasheet] section (SM count, clock, dense int8 / bf16 peaks, HBM
** bandwidth, L2, compute capability) and a [calibrated on CARD] section (mem_eff, launch.floor_us
** and the fields CLASS.PAR of each kernel class, all or none per class).  The one table of those
** fields (k_par, par_used) serves the reader here and the writer of `mxsim gpu-calibrate -o`
** (mxsim_gpu_xparam_*). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuinternal.h"
#include "lines.h"

#define NPAR MXSIM_GX_NPARAM
static const char *const k_par[NPAR] = {"L_us", "rho", "b32_us", "b64_us", "b128_us", "ov", "a32", "a64", "a128"};

/* Whether class c uses field k (the others keep their neutral values: rho 1, the G = 32 value). */
static int par_used(int c, int k)
{
    const int gemm = c >= MXSIM_GX_CUBLAS_BF16;
    const int per_g = c == MXSIM_GX_WGMMA || c == MXSIM_GX_CFG5 || c == MXSIM_GX_GEMV;
    switch (k) {
    case 0: return c != MXSIM_GX_COPY;
    case 1: return c == MXSIM_GX_DEQUANT;
    case 2: return c >= MXSIM_GX_CFG5;
    case 5: return gemm && c != MXSIM_GX_DECODE && c != MXSIM_GX_DECODE1; /* decode: the group sums overlap the stream (ov 0) */
    case 6: return gemm;
    case 3: case 4: return per_g;
    default: return per_g || c == MXSIM_GX_CFG3 || c == MXSIM_GX_DECODE || c == MXSIM_GX_DECODE1;
    }
}

static double *par_ptr(mxsim_gpu_xparams *p, int c, int k)
{
    mxsim_gpu_xclass_params *q = &p->cls[c];
    double *v[NPAR] = {&q->L, &q->rho, &q->b[0], &q->b[1], &q->b[2], &q->ov, &q->a[0], &q->a[1], &q->a[2]};
    return v[k];
}

const char *mxsim_gpu_xparam_name(int k) { return k >= 0 && k < NPAR ? k_par[k] : NULL; }

int mxsim_gpu_xparam_used(int cls, int k) { return cls >= 0 && cls < MXSIM_GX_NCLASS && k >= 0 && k < NPAR && par_used(cls, k); }

double *mxsim_gpu_xparam_field(mxsim_gpu_xparams *p, int cls, int k)
{
    return p && cls >= 0 && cls < MXSIM_GX_NCLASS && k >= 0 && k < NPAR ? par_ptr(p, cls, k) : NULL;
}

mxsim_status mxsim_gpu_xcard_load(mxsim_ctx *ctx, const char *path, mxsim_gpu_xsheet *d, mxsim_gpu_xparams *p,
                                  int *n_cal, char *name, size_t nn)
{
    if (!path || !d || !name || nn == 0 || (p && !n_cal))
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xcard_load: NULL argument");
    char *text = NULL;
    /* a regular text file of at most 1 MiB, no NUL byte (mx_text_read: a FIFO or a device would
    ** block or never end, a NUL would drop the rest of its line) */
    mxsim_status st = mx_text_read(ctx, path, 1u << 20, &text, NULL);
    if (st != MXSIM_OK) return st;
    memset(d, 0, sizeof *d);
    name[0] = '\0';
    if (p) {
        memset(p, 0, sizeof *p);
        for (int c = 0; c < MXSIM_GX_NCLASS; c++) p->cls[c].rho = 1;
    }
    if (n_cal) *n_cal = 0;
    mx_lines lines;
    mx_lines_init(&lines, text);
    char *line;
    int ln = 0, rc = 0, seen[MXSIM_GX_NCLASS] = {0}, sec = 0, sec_ln[3] = {0, 0, 0}, name_ln = 0, eff_ln = 0, floor_ln = 0, clk_ln = 0, i8_ln = 0, bw_ln = 0, cc_ln = 0;
    double cc = 0;
    int got[MXSIM_GX_NCLASS][NPAR]; /* which calibrated fields the file has: a class has all or none */
    memset(got, 0, sizeof got);
    enum { MAX_KEYS = 512 };
    char(*keys)[128] = malloc(sizeof(char[MAX_KEYS][128])); /* the keys read so far: a second one is refused */
    int key_ln[MAX_KEYS], n_keys = 0;
    if (!keys) {
        free(text);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    }
    while ((line = mx_lines_next(&lines)) != NULL) {
        ln = lines.line;
        /* a comment starts at '#' or ';' that begins the line or follows a blank, as in the
        ** configuration reader (architecture.md): `16;32` is a bad value, not 16 */
        mx_ini_cut_comment(line);
        char *b = line, *end = line + strlen(line);
        while (*b == ' ' || *b == '\t') b++;
        while (end > b && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) *--end = '\0';
        if (*b == '\0') continue; /* blank, comment */
        if (*b == '[') { /* [datasheet], then [calibrated on CARD] (sim/doc/gpu-model.md section 6) */
            const size_t n = strlen(b);
            if (n >= 2 && b[n - 1] == ']' && !strcmp(b, "[datasheet]")) sec = 1;
            else if (n >= 2 && b[n - 1] == ']' && !strncmp(b, "[calibrated on ", 15) && n > 16) sec = 2;
            else {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: unknown section '%s' (known: [datasheet], [calibrated on CARD])",
                        path, ln, b);
                rc = 1;
                break;
            }
            if (sec_ln[sec]) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: section %s: a second one (first on line %d)", path, ln,
                        sec == 1 ? "[datasheet]" : "[calibrated on ...]", sec_ln[sec]);
                rc = 1;
                break;
            }
            sec_ln[sec] = ln;
            continue;
        }
        char *eq = strchr(b, '=');
        if (!eq) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected 'key = value', got '%s'", path, ln, b);
            rc = 1;
            break;
        }
        *eq = '\0';
        char key[128], val[128], extra[8];
        if (sscanf(b, " %127s %7s", key, extra) != 1 || sscanf(eq + 1, " %127s %7s", val, extra) != 1) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: expected one key and one value", path, ln);
            rc = 1;
            break;
        }
        int dup = -1;
        for (int i = 0; i < n_keys; i++)
            if (!strcmp(keys[i], key)) dup = i;
        if (dup >= 0) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: duplicate key (first on line %d)", path, ln, key,
                    key_ln[dup]);
            rc = 1;
            break;
        }
        if (n_keys == MAX_KEYS) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: more than 512 keys", path, ln);
            rc = 1;
            break;
        }
        snprintf(keys[n_keys], sizeof keys[0], "%s", key), key_ln[n_keys++] = ln;
        if (!strcmp(key, "name")) {
            if (sec != 0 || strlen(val) >= nn) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: name: %s", path, ln,
                        sec ? "belongs before the first section" : "too long");
                rc = 1;
                break;
            }
            memcpy(name, val, strlen(val) + 1);
            name_ln = ln;
            continue;
        }
        char *e;
        const double v = strtod(val, &e);
        if (*e || !isfinite(v) || strpbrk(val, "xX")) { /* decimal only, as every other reader: 0x84 was 132 */
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: not a number (decimal)", path, ln, key);
            rc = 1;
            break;
        }
        /* the key's section and range (datasheet sanity; calibrated: the ranges the fit can reach) */
        int want_sec = 2, whole = 0, lo_open = 0;
        double lo = 0, hi = 1e6;
        if (!strcmp(key, "sm.count")) want_sec = 1, whole = 1, lo = 1, hi = 1024;
        else if (!strcmp(key, "sm.clock_mhz")) want_sec = 1, lo_open = 1, hi = 1e5;
        else if (!strcmp(key, "tc.int8_dense_tops") || !strcmp(key, "tc.bf16_dense_tflops") || !strcmp(key, "hbm.bw_gbs"))
            want_sec = 1, lo_open = 1;
        else if (!strcmp(key, "l2.mb")) want_sec = 1, lo_open = 1, hi = 1099511.627776; /* 2^40 bytes */
        else if (!strcmp(key, "sm.compute_capability")) want_sec = 1, lo_open = 1, hi = 100;
        else if (!strcmp(key, "mem_eff")) lo_open = 1, hi = 1; /* the copy's share of the datasheet bandwidth */
        else if (!strcmp(key, "launch.floor_us")) lo_open = 1;
        else {
            const char *dot = strrchr(key, '.');
            const char *par = dot ? dot + 1 : "";
            if (!strcmp(par, "ov")) hi = 1;
            else if (!strcmp(par, "rho")) lo_open = 1, hi = 1000;
            /* a work factor is 1 / efficiency: below 1 a kernel would beat the datasheet peak (cfg 4's
            ** work is in arbitrary units); a hand-edited cublas-bf16.a32 = 0.001 gave 2,836 TFLOPS */
            else if (par[0] == 'a') {
                if (strncmp(key, "mxk-gemv-cfg4.", 14) != 0) lo = 1;
                else lo_open = 1;
            }
        }
        int known = want_sec == 1 || !strcmp(key, "mem_eff") || !strcmp(key, "launch.floor_us");
        for (int c = 0; c < MXSIM_GX_NCLASS && !known; c++)
            for (int k = 0; k < NPAR && !known; k++) {
                char want[96];
                snprintf(want, sizeof want, "%s.%s", mxsim_gpu_xclass_name(c), k_par[k]);
                known = par_used(c, k) && !strcmp(key, want);
            }
        if (!known) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: unknown key '%s'", path, ln, key);
            rc = 1;
            break;
        }
        if (sec != want_sec) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: %s, but it belongs in %s", path, ln, key,
                    sec == 0 ? "outside any section" : sec == 1 ? "in [datasheet]" : "in [calibrated on ...]",
                    want_sec == 1 ? "[datasheet]" : "[calibrated on CARD]");
            rc = 1;
            break;
        }
        if ((lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi) || (whole && floor(v) != v)) {
            if (whole)
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: '%s' is not a whole number in %.0f..%.0f", path, ln,
                        key, val, lo, hi);
            else
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %s: '%s' is not in %s%g, %g]", path, ln, key, val,
                        lo_open ? "(" : "[", lo, hi);
            rc = 1;
            break;
        }
        if (!strcmp(key, "sm.count")) d->n_sm = v;
        else if (!strcmp(key, "sm.clock_mhz")) d->clock_mhz = v, clk_ln = ln;
        else if (!strcmp(key, "tc.int8_dense_tops")) d->int8_tops = v, i8_ln = ln;
        else if (!strcmp(key, "tc.bf16_dense_tflops")) d->bf16_tflops = v;
        else if (!strcmp(key, "hbm.bw_gbs")) d->hbm_gbs = v, bw_ln = ln;
        else if (!strcmp(key, "l2.mb")) d->l2_mb = v;
        else if (!strcmp(key, "sm.compute_capability")) cc = v, cc_ln = ln;
        else if (!strcmp(key, "mem_eff")) {
            eff_ln = ln;
            if (p) p->mem_eff = v, (*n_cal)++;
        } else if (!strcmp(key, "launch.floor_us")) {
            floor_ln = ln;
            if (p) p->launch_floor_us = v, (*n_cal)++;
        }
        else {
            int found = 0;
            for (int c = 0; c < MXSIM_GX_NCLASS && !found; c++)
                for (int k = 0; k < NPAR && !found; k++) {
                    char want[96];
                    snprintf(want, sizeof want, "%s.%s", mxsim_gpu_xclass_name(c), k_par[k]);
                    if (par_used(c, k) && !strcmp(key, want)) {
                        found = 1, got[c][k] = 1, seen[c] = 1;
                        if (p) *par_ptr(p, c, k) = v, (*n_cal)++;
                    }
                }
            if (!found) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: unknown key '%s'", path, ln, key);
                rc = 1;
                break;
            }
        }
    }
    free(keys);
    free(text);
    for (int c = 0; p && c < MXSIM_GX_NCLASS; c++)
        for (int k = 3; k < NPAR; k++)
            if (k != 5 && k != 6 && !par_used(c, k)) *par_ptr(p, c, k) = *par_ptr(p, c, k < 5 ? 2 : 6);
    /* a[0] > 0 marks a calibrated class (mxsim_gpu_xcalibrate): the classes without a work factor
    ** (copy, dequant) have a = 1 when the file has their fields (copy: mem_eff), else 0 */
    for (int c = 0; p && c < MXSIM_GX_NCLASS; c++)
        if (!par_used(c, 6) && (c == MXSIM_GX_COPY ? p->mem_eff > 0 : seen[c])) p->cls[c].a[0] = p->cls[c].a[1] = p->cls[c].a[2] = 1;
    /* missing fields: every field starts at 0, and a 0 bandwidth or launch term made NaN or
    ** 64x-too-fast times without a word (sim/doc/gpu-model.md section 6.3) */
    if (!rc && !name_ln) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'name': missing (name = CARD comes before the first section)", path);
        rc = 1;
    }
    static const char *const k_sheet[6] = {"sm.count", "sm.clock_mhz", "tc.int8_dense_tops", "tc.bf16_dense_tflops", "hbm.bw_gbs", "l2.mb"};
    const double sheet[6] = {d->n_sm, d->clock_mhz, d->int8_tops, d->bf16_tflops, d->hbm_gbs, d->l2_mb};
    for (int i = 0; !rc && i < 6; i++)
        if (!(sheet[i] > 0)) {
            if (sec_ln[1])
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: every [datasheet] value is required: field '%s' missing (section on line %d)",
                        path, k_sheet[i], sec_ln[1]);
            else
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: every [datasheet] value is required: field '%s' missing (no [datasheet] section)",
                        path, k_sheet[i]);
            rc = 1;
        }
    /* The model's kernel classes are Hopper's: the wgmma, bf16-path and decode kernels refuse other
    ** architectures at run time (which then run the fallbacks), so a card file says its compute
    ** capability and only 9.0 is modelled (an A100's datasheet was routed to the wgmma kernels at exit
    ** 0).  The datasheet's own relations catch the unit slips that gave predictions off by up to 200x:
    ** sm.clock_mhz is the clock the bf16 peak implies (SMs x 4096 dense FLOP per clock, a Hopper SM),
    ** int8 is twice bf16, the bandwidth is GB/s. */
    if (!rc && !cc_ln) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: field 'sm.compute_capability' missing (9.0 for the Hopper cards the model "
                "covers; section on line %d)", path, sec_ln[1]);
        rc = 1;
    } else if (!rc && cc != 9.0) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'sm.compute_capability': %g: the model's kernel classes are "
                "Hopper's (9.0): on another architecture the Hopper kernels step aside for others the model has no "
                "class for (sim/doc/gpu-model.md section 6.1)", path, cc_ln, cc);
        rc = 1;
    }
    if (!rc) {
        const double clk_mhz = d->bf16_tflops * 1e6 / (d->n_sm * 4096.0);
        if (fabs(d->clock_mhz / clk_mhz - 1) > 0.02) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'sm.clock_mhz': %g, but the clock tc.bf16_dense_tflops implies "
                    "over sm.count SMs (4096 dense bf16 FLOP per clock) is %.0f MHz: the field is that implied clock, not "
                    "the boost clock (1830 for an H100 SXM, whose boost is 1980), in MHz; a sparse peak doubles it",
                    path, clk_ln, d->clock_mhz, clk_mhz);
            rc = 1;
        } else if (fabs(d->int8_tops / (2 * d->bf16_tflops) - 1) > 0.02) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'tc.int8_dense_tops': %g is not twice tc.bf16_dense_tflops (%g), "
                    "as on every Hopper card: one of the two is a sparse figure", path, i8_ln, d->int8_tops,
                    d->bf16_tflops);
            rc = 1;
        } else if (d->hbm_gbs < 100) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 'hbm.bw_gbs': %g GB/s is below any Hopper card's (2000-4800): a "
                    "value in TB/s? (the field is GB/s)", path, bw_ln, d->hbm_gbs);
            rc = 1;
        }
    }
    /* the calibrated block (what gpu-calibrate -o writes): mem_eff, and each class it names complete */
    int any_cal = eff_ln != 0 || floor_ln != 0;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) any_cal |= seen[c];
    if (!rc && any_cal && !eff_ln) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: [calibrated on ...]: field 'mem_eff' missing (every class's DRAM time needs it)",
                path, sec_ln[2]);
        rc = 1;
    }
    for (int c = 0; !rc && c < MXSIM_GX_NCLASS; c++)
        for (int k = 0; !rc && k < NPAR && seen[c]; k++)
            if (par_used(c, k) && !got[c][k]) {
                st = mx_fail(ctx, MXSIM_E_INPUT,
                        "%s:%d: [calibrated on ...]: field '%s.%s' missing (the file has other fields of "
                        "class %s: a class has all its fields or none)",
                        path, sec_ln[2], mxsim_gpu_xclass_name(c), k_par[k], mxsim_gpu_xclass_name(c));
                rc = 1;
            }
    return rc ? st : MXSIM_OK;
}


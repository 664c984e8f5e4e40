/* cmd_gpu_calibrate.c - `mxsim gpu-calibrate`: the cross-card GPU model (sim/doc/gpu-model.md
** section 6).  Calibrates on the bench.csv of one card, predicts the bench.csv of another from its
** datasheet values only, prints the held-out MAPE (overall and per kernel class), optionally writes
** the target's card file (its datasheet + the fields calibrated on the source) and checks a
** committed card file against the re-derivation. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <dirent.h>
#include <sys/stat.h>

#include "cli_util.h"
#include "gpumodel/cmd_gpumodel.h"

#define NPAR 9
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

/* Reads an xcard INI: [datasheet] keys into d; calibrated keys (mem_eff, CLASS.PAR) into p when
** p != NULL (*n_cal counts them).  Returns 0, or 2 after a message. */
/* The card file as the library's text readers take a file: a regular file (a FIFO or /dev/zero
** would block or never end), at most 1 MiB, no NUL byte (the rest of its line would be dropped), a
** UTF-8 byte-order mark skipped.  Returns a stream over the text (fclose frees it), or NULL after
** printing why. */
static FILE *xcard_open(const char *path, char **buf)
{
    struct stat st;
    const char *why = NULL;
    FILE *f = NULL;
    *buf = NULL;
    if (stat(path, &st) != 0) why = "cannot open";
    else if (S_ISDIR(st.st_mode)) why = "is a directory, expected a card file";
    else if (!S_ISREG(st.st_mode)) why = "is not a regular file (a FIFO or device), expected a card file";
    else if (st.st_size > (1 << 20)) why = "larger than 1 MiB: not a card file";
    else if ((*buf = malloc((size_t)st.st_size + 1)) == NULL) why = "out of memory";
    else if ((f = fopen(path, "rb")) == NULL) why = "cannot open";
    size_t n = 0;
    if (!why) {
        n = fread(*buf, 1, (size_t)st.st_size + 1, f);
        if (ferror(f) || n != (size_t)st.st_size) why = "changed or unreadable while read (its size disagrees)";
        fclose(f);
        f = NULL;
    }
    const char *nul = why ? NULL : memchr(*buf, '\0', n);
    if (nul) {
        int ln = 1;
        for (const char *c = *buf; c < nul; c++) ln += *c == '\n';
        fprintf(stderr, "mxsim %s: error: %s:%d: contains a NUL byte\n", cli_cmd, path, ln);
    } else if (why) {
        fprintf(stderr, "mxsim %s: error: %s: %s\n", cli_cmd, path, why);
    } else {
        const size_t bom = n >= 3 && !memcmp(*buf, "\xEF\xBB\xBF", 3) ? 3 : 0;
        /* fmemopen of 0 bytes fails on some libcs: an empty file reads as one empty line */
        if (n == bom) (*buf)[n++] = '\n';
        f = fmemopen(*buf + bom, n - bom, "r");
        if (!f) fprintf(stderr, "mxsim %s: error: %s: out of memory\n", cli_cmd, path);
    }
    if (!f) {
        free(*buf);
        *buf = NULL;
    }
    return f;
}

int cli_xcard_load(const char *path, mxsim_gpu_xsheet *d, mxsim_gpu_xparams *p, int *n_cal, char *name, size_t nn)
{
    char *text;
    FILE *f = xcard_open(path, &text);
    if (!f) return CLI_EXIT_USAGE;
    memset(d, 0, sizeof *d);
    if (p) {
        memset(p, 0, sizeof *p);
        for (int c = 0; c < MXSIM_GX_NCLASS; c++) p->cls[c].rho = 1;
    }
    if (n_cal) *n_cal = 0;
    char line[512];
    int ln = 0, rc = 0, seen[MXSIM_GX_NCLASS] = {0}, sec = 0, sec_ln[3] = {0, 0, 0}, name_ln = 0, eff_ln = 0, floor_ln = 0, clk_ln = 0, i8_ln = 0, bw_ln = 0, cc_ln = 0;
    double cc = 0;
    int got[MXSIM_GX_NCLASS][NPAR]; /* which calibrated fields the file has: a class has all or none */
    memset(got, 0, sizeof got);
    static char keys[512][128]; /* the keys read so far, with their lines: a second one is refused */
    int key_ln[512], n_keys = 0;
    while (fgets(line, sizeof line, f)) {
        ln++;
        size_t L = strlen(line);
        if (L == sizeof line - 1 && line[L - 1] != '\n') {
            fprintf(stderr, "mxsim %s: error: %s:%d: line longer than %zu bytes\n", cli_cmd, path, ln, sizeof line - 2);
            rc = CLI_EXIT_USAGE;
            break;
        }
        /* a comment starts at '#' or ';' that begins the line or follows a blank, as in the
        ** configuration reader (architecture.md): `16;32` is a bad value, not 16 */
        for (char *c = line; *c; c++)
            if ((*c == '#' || *c == ';') && (c == line || c[-1] == ' ' || c[-1] == '\t')) {
                *c = '\0';
                break;
            }
        char *b = line, *end = line + strlen(line);
        while (*b == ' ' || *b == '\t') b++;
        while (end > b && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r')) *--end = '\0';
        if (*b == '\0') continue; /* blank, comment */
        if (*b == '[') { /* [datasheet], then [calibrated on CARD] (sim/doc/gpu-model.md section 6) */
            const size_t n = strlen(b);
            if (n >= 2 && b[n - 1] == ']' && !strcmp(b, "[datasheet]")) sec = 1;
            else if (n >= 2 && b[n - 1] == ']' && !strncmp(b, "[calibrated on ", 15) && n > 16) sec = 2;
            else {
                fprintf(stderr, "mxsim %s: error: %s:%d: unknown section '%s' (known: [datasheet], [calibrated on CARD])\n",
                        cli_cmd, path, ln, b);
                rc = CLI_EXIT_USAGE;
                break;
            }
            if (sec_ln[sec]) {
                fprintf(stderr, "mxsim %s: error: %s:%d: section %s: a second one (first on line %d)\n", cli_cmd, path, ln,
                        sec == 1 ? "[datasheet]" : "[calibrated on ...]", sec_ln[sec]);
                rc = CLI_EXIT_USAGE;
                break;
            }
            sec_ln[sec] = ln;
            continue;
        }
        char *eq = strchr(b, '=');
        if (!eq) {
            fprintf(stderr, "mxsim %s: error: %s:%d: expected 'key = value', got '%s'\n", cli_cmd, path, ln, b);
            rc = CLI_EXIT_USAGE;
            break;
        }
        *eq = '\0';
        char key[128], val[128], extra[8];
        if (sscanf(b, " %127s %7s", key, extra) != 1 || sscanf(eq + 1, " %127s %7s", val, extra) != 1) {
            fprintf(stderr, "mxsim %s: error: %s:%d: expected one key and one value\n", cli_cmd, path, ln);
            rc = CLI_EXIT_USAGE;
            break;
        }
        int dup = -1;
        for (int i = 0; i < n_keys; i++)
            if (!strcmp(keys[i], key)) dup = i;
        if (dup >= 0) {
            fprintf(stderr, "mxsim %s: error: %s:%d: %s: duplicate key (first on line %d)\n", cli_cmd, path, ln, key,
                    key_ln[dup]);
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (n_keys == 512) {
            fprintf(stderr, "mxsim %s: error: %s:%d: more than 512 keys\n", cli_cmd, path, ln);
            rc = CLI_EXIT_USAGE;
            break;
        }
        snprintf(keys[n_keys], sizeof keys[0], "%s", key), key_ln[n_keys++] = ln;
        if (!strcmp(key, "name")) {
            if (sec != 0 || strlen(val) >= nn) {
                fprintf(stderr, "mxsim %s: error: %s:%d: name: %s\n", cli_cmd, path, ln,
                        sec ? "belongs before the first section" : "too long");
                rc = CLI_EXIT_USAGE;
                break;
            }
            memcpy(name, val, strlen(val) + 1);
            name_ln = ln;
            continue;
        }
        char *e;
        const double v = strtod(val, &e);
        if (*e || !isfinite(v) || strpbrk(val, "xX")) { /* decimal only, as every other reader: 0x84 was 132 */
            fprintf(stderr, "mxsim %s: error: %s:%d: %s: not a number (decimal)\n", cli_cmd, path, ln, key);
            rc = CLI_EXIT_USAGE;
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
            fprintf(stderr, "mxsim %s: error: %s:%d: unknown key '%s'\n", cli_cmd, path, ln, key);
            rc = CLI_EXIT_USAGE;
            break;
        }
        if (sec != want_sec) {
            fprintf(stderr, "mxsim %s: error: %s:%d: %s: %s, but it belongs in %s\n", cli_cmd, path, ln, key,
                    sec == 0 ? "outside any section" : sec == 1 ? "in [datasheet]" : "in [calibrated on ...]",
                    want_sec == 1 ? "[datasheet]" : "[calibrated on CARD]");
            rc = CLI_EXIT_USAGE;
            break;
        }
        if ((lo_open ? !(v > lo) : !(v >= lo)) || !(v <= hi) || (whole && floor(v) != v)) {
            if (whole)
                fprintf(stderr, "mxsim %s: error: %s:%d: %s: '%s' is not a whole number in %.0f..%.0f\n", cli_cmd, path, ln,
                        key, val, lo, hi);
            else
                fprintf(stderr, "mxsim %s: error: %s:%d: %s: '%s' is not in %s%g, %g]\n", cli_cmd, path, ln, key, val,
                        lo_open ? "(" : "[", lo, hi);
            rc = CLI_EXIT_USAGE;
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
                fprintf(stderr, "mxsim %s: error: %s:%d: unknown key '%s'\n", cli_cmd, path, ln, key);
                rc = CLI_EXIT_USAGE;
                break;
            }
        }
    }
    fclose(f);
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
        fprintf(stderr, "mxsim %s: error: %s: field 'name': missing (name = CARD comes before the first section)\n", cli_cmd, path);
        rc = CLI_EXIT_USAGE;
    }
    static const char *const k_sheet[6] = {"sm.count", "sm.clock_mhz", "tc.int8_dense_tops", "tc.bf16_dense_tflops", "hbm.bw_gbs", "l2.mb"};
    const double sheet[6] = {d->n_sm, d->clock_mhz, d->int8_tops, d->bf16_tflops, d->hbm_gbs, d->l2_mb};
    for (int i = 0; !rc && i < 6; i++)
        if (!(sheet[i] > 0)) {
            if (sec_ln[1])
                fprintf(stderr, "mxsim %s: error: %s: every [datasheet] value is required: field '%s' missing (section on line %d)\n",
                        cli_cmd, path, k_sheet[i], sec_ln[1]);
            else
                fprintf(stderr, "mxsim %s: error: %s: every [datasheet] value is required: field '%s' missing (no [datasheet] section)\n",
                        cli_cmd, path, k_sheet[i]);
            rc = CLI_EXIT_USAGE;
        }
    /* The model's kernel classes are Hopper's: the wgmma, bf16-path and decode kernels refuse other
    ** architectures at run time (which then run the fallbacks), so a card file says its compute
    ** capability and only 9.0 is modelled (an A100's datasheet was routed to the wgmma kernels at exit
    ** 0).  The datasheet's own relations catch the unit slips that gave predictions off by up to 200x:
    ** sm.clock_mhz is the clock the bf16 peak implies (SMs x 4096 dense FLOP per clock, a Hopper SM),
    ** int8 is twice bf16, the bandwidth is GB/s. */
    if (!rc && !cc_ln) {
        fprintf(stderr, "mxsim %s: error: %s: field 'sm.compute_capability' missing (9.0 for the Hopper cards the model "
                "covers; section on line %d)\n", cli_cmd, path, sec_ln[1]);
        rc = CLI_EXIT_USAGE;
    } else if (!rc && cc != 9.0) {
        fprintf(stderr, "mxsim %s: error: %s:%d: field 'sm.compute_capability': %g: the model's kernel classes are "
                "Hopper's (9.0): on another architecture the Hopper kernels step aside for others the model has no "
                "class for (sim/doc/gpu-model.md section 6.1)\n", cli_cmd, path, cc_ln, cc);
        rc = CLI_EXIT_USAGE;
    }
    if (!rc) {
        const double clk_mhz = d->bf16_tflops * 1e6 / (d->n_sm * 4096.0);
        if (fabs(d->clock_mhz / clk_mhz - 1) > 0.02) {
            fprintf(stderr, "mxsim %s: error: %s:%d: field 'sm.clock_mhz': %g, but the clock tc.bf16_dense_tflops implies "
                    "over sm.count SMs (4096 dense bf16 FLOP per clock) is %.0f MHz: the field is that implied clock, not "
                    "the boost clock (1830 for an H100 SXM, whose boost is 1980), in MHz; a sparse peak doubles it\n",
                    cli_cmd, path, clk_ln, d->clock_mhz, clk_mhz);
            rc = CLI_EXIT_USAGE;
        } else if (fabs(d->int8_tops / (2 * d->bf16_tflops) - 1) > 0.02) {
            fprintf(stderr, "mxsim %s: error: %s:%d: field 'tc.int8_dense_tops': %g is not twice tc.bf16_dense_tflops (%g), "
                    "as on every Hopper card: one of the two is a sparse figure\n", cli_cmd, path, i8_ln, d->int8_tops,
                    d->bf16_tflops);
            rc = CLI_EXIT_USAGE;
        } else if (d->hbm_gbs < 100) {
            fprintf(stderr, "mxsim %s: error: %s:%d: field 'hbm.bw_gbs': %g GB/s is below any Hopper card's (2000-4800): a "
                    "value in TB/s? (the field is GB/s)\n", cli_cmd, path, bw_ln, d->hbm_gbs);
            rc = CLI_EXIT_USAGE;
        }
    }
    /* the calibrated block (what gpu-calibrate -o writes): mem_eff, and each class it names complete */
    int any_cal = eff_ln != 0 || floor_ln != 0;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++) any_cal |= seen[c];
    if (!rc && any_cal && !eff_ln) {
        fprintf(stderr, "mxsim %s: error: %s:%d: [calibrated on ...]: field 'mem_eff' missing (every class's DRAM time needs it)\n",
                cli_cmd, path, sec_ln[2]);
        rc = CLI_EXIT_USAGE;
    }
    for (int c = 0; !rc && c < MXSIM_GX_NCLASS; c++)
        for (int k = 0; !rc && k < NPAR && seen[c]; k++)
            if (par_used(c, k) && !got[c][k]) {
                fprintf(stderr,
                        "mxsim %s: error: %s:%d: [calibrated on ...]: field '%s.%s' missing (the file has other fields of "
                        "class %s: a class has all its fields or none)\n",
                        cli_cmd, path, sec_ln[2], mxsim_gpu_xclass_name(c), k_par[k], mxsim_gpu_xclass_name(c));
                rc = CLI_EXIT_USAGE;
            }
    return rc;
}

/* Whether word [w, e) is one of the words of s (split at blanks and '-'), case ignored. */
static int card_has_word(const char *s, const char *w, size_t n)
{
    while (*s) {
        while (*s == ' ' || *s == '-') s++;
        const char *e = s;
        while (*e && *e != ' ' && *e != '-') e++;
        if ((size_t)(e - s) == n && n > 0 && strncasecmp(s, w, n) == 0) return 1;
        s = e;
    }
    return 0;
}

int cli_gpu_card_is(const char *name, const char *bench_card)
{
    if (name[0] == '\0') return 0;
    if (strcasecmp(name, bench_card) == 0) return 1;
    /* every word of the name is a word of the card ("h100-pcie" and "NVIDIA H100 PCIe") ... */
    for (const char *w = name; *w;) {
        while (*w == ' ' || *w == '-') w++;
        const char *e = w;
        while (*e && *e != ' ' && *e != '-') e++;
        if (e > w && !card_has_word(bench_card, w, (size_t)(e - w))) return 0;
        w = e;
    }
    /* ... and a form factor of the card is in the name: an H100 PCIe (114 SMs, 2 TB/s) is not the
    ** SXM card "h100" names, though its name has the word H100 */
    static const char *const k_form[] = {"PCIe", "NVL"};
    for (size_t i = 0; i < sizeof k_form / sizeof k_form[0]; i++)
        if (card_has_word(bench_card, k_form[i], strlen(k_form[i])) && !card_has_word(name, k_form[i], strlen(k_form[i])))
            return 0;
    return 1;
}

int cli_gpu_first_row_line(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    int c, ln = 1, header = 0, blank = 1;
    while ((c = fgetc(f)) != EOF) {
        if (c == '\n') {
            if (!blank && header) break;
            if (!blank) header = 1;
            ln++, blank = 1;
        } else if (!isspace(c)) {
            blank = 0;
        }
    }
    fclose(f);
    return header && !blank ? ln : 0;
}

int cli_gpu_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The runs named by --from or --to: each value is a bench CSV, or a folder, which means its
** bench.csv and every bench_run*.csv in it (the other runs of the same build, by name order).
** A value "decode1:PATH" says that PATH ran the build before decode2 (MXSIM_GX_BUILD_DECODE1: its
** cfg 9 is the first decode kernel, class mxk-decode-cfg10), "prebf16:PATH" a build from decode2 to
** final4 (MXSIM_GX_BUILD_PREBF16: no cfg 11, cfg 0 took cfg 8 at G = 32), "prerow:PATH" one from final5 to
** final7 (MXSIM_GX_BUILD_PREROW: no cfg 12, cfg 0 took cfg 9 at M = 1); any other value is a path of the
** current build (workloads/gpus/xcard-runs.txt's third field, sim/doc/gpu-model.md section 6). */
static const char *const k_build_tag[MXSIM_GX_NBUILD] = {"", "decode1", "prebf16", "prerow"};
#define MAXRUN 96 /* runs per card (every listed folder's bench.csv and bench_run*.csv) */
typedef struct {
    int n;
    char path[MAXRUN][1024];
    int build[MAXRUN]; /* the --from / --to value it came from: one build of the kernels */
    int tag[MAXRUN];   /* its MXSIM_GX_BUILD_* */
    mxsim_gpu_xbench *b[MAXRUN];
} runs_t;

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* The files DIR/PREFIX*.csv (a name longer than PREFIX + ".csv"), as "DIR/NAME" in name order, at
** most MAXRUN; *n their count.  Free each name. */
static void dir_files(const char *dir, const char *prefix, char **names, int *n)
{
    const size_t lp = strlen(prefix);
    DIR *dp = opendir(dir);
    *n = 0;
    for (struct dirent *de; dp && (de = readdir(dp)) != NULL;) {
        const size_t l = strlen(de->d_name);
        if (!strncmp(de->d_name, prefix, lp) && l > lp + 4 && !strcmp(de->d_name + l - 4, ".csv") && *n < MAXRUN) {
            char buf[1100];
            snprintf(buf, sizeof buf, "%s/%s", dir, de->d_name);
            names[(*n)++] = strdup(buf);
        }
    }
    if (dp) closedir(dp);
    qsort(names, (size_t)*n, sizeof *names, cmp_str);
}

static int add_run(runs_t *r, const char *path, int build, int tag)
{
    if (r->n >= MAXRUN || strlen(path) >= sizeof r->path[0]) {
        fprintf(stderr, "mxsim %s: error: %s: more than %d runs or a path too long\n", cli_cmd, path, MAXRUN);
        return CLI_EXIT_USAGE;
    }
    r->build[r->n] = build;
    r->tag[r->n] = tag;
    memcpy(r->path[r->n++], path, strlen(path) + 1);
    return 0;
}

static int expand_runs(const cli_command *cmd, const cli_args *a, const char *opt, runs_t *r)
{
    const char *const *v;
    const int n = cli_get_list(cmd, a, opt, &v);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        struct stat sb;
        char buf[1100];
        int rc, tag = MXSIM_GX_BUILD_CURRENT;
        const char *path = v[i];
        for (int t = 1; t < MXSIM_GX_NBUILD; t++) {
            const size_t l = strlen(k_build_tag[t]);
            if (!strncmp(path, k_build_tag[t], l) && path[l] == ':') tag = t, path += l + 1;
        }
        const char *colon = strchr(path, ':');
        if (tag == MXSIM_GX_BUILD_CURRENT && colon && stat(path, &sb) != 0) {
            fprintf(stderr, "mxsim %s: error: --%s %s: unknown build '%.*s' (known: decode1, prebf16, prerow)\n", cli_cmd, opt, path,
                    (int)(colon - path), path);
            return CLI_EXIT_USAGE;
        }
        if (stat(path, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            if ((rc = add_run(r, path, i, tag))) return rc;
            continue;
        }
        snprintf(buf, sizeof buf, "%s/bench.csv", path);
        if ((rc = add_run(r, buf, i, tag))) return rc;
        char *names[MAXRUN];
        int nn = 0;
        dir_files(path, "bench_run", names, &nn);
        for (int k = 0; k < nn; k++) {
            if (!rc && names[k]) rc = add_run(r, names[k], i, tag);
            free(names[k]);
        }
        if (rc) return rc;
    }
    return 0;
}

static void free_runs(runs_t *r)
{
    for (int i = 0; i < r->n; i++) mxsim_gpu_xbench_free(r->b[i]);
}

static mxsim_status load_runs(mxsim_ctx *ctx, runs_t *r, mxsim_gpu_xbench **median)
{
    mxsim_status st = MXSIM_OK;
    for (int i = 0; i < r->n && st == MXSIM_OK; i++) st = mxsim_gpu_xbench_load_build(ctx, r->path[i], r->tag[i], &r->b[i]);
    if (st == MXSIM_OK) st = mxsim_gpu_xbench_median(ctx, (const mxsim_gpu_xbench *const *)r->b, r->build, r->n, median);
    return st;
}

/* The launch files named by --from-launch or --to-launch: each value is a CSV of
** kernels/tools/launch_probe.cu, or a folder, which means every launch_probe*.csv in it (name order). */
typedef struct {
    int n;
    char path[MAXRUN][1024];
} launch_t;

static int expand_launch(const cli_command *cmd, const cli_args *a, const char *opt, launch_t *r)
{
    const char *const *v;
    const int n = cli_get_list(cmd, a, opt, &v);
    memset(r, 0, sizeof *r);
    for (int i = 0; i < n; i++) {
        struct stat sb;
        char *names[MAXRUN];
        int nn = 0;
        if (stat(v[i], &sb) != 0 || !S_ISDIR(sb.st_mode)) {
            names[nn++] = strdup(v[i]);
        } else {
            dir_files(v[i], "launch_probe", names, &nn);
            if (nn == 0) return cli_usage("--%s %s: the folder holds no launch_probe*.csv", opt, v[i]);
        }
        int rc = 0;
        for (int k = 0; k < nn; k++) {
            if (!rc && (!names[k] || r->n >= MAXRUN || strlen(names[k]) >= sizeof r->path[0]))
                rc = cli_usage("--%s: more than %d files or a path too long", opt, MAXRUN);
            if (!rc) memcpy(r->path[r->n++], names[k], strlen(names[k]) + 1);
            free(names[k]);
        }
        if (rc) return rc;
    }
    for (int i = 0; i < r->n; i++)
        for (int j = 0; j < i; j++)
            if (cli_gpu_same_file(r->path[i], r->path[j]))
                return cli_usage("--%s: the file '%s' is given twice (also as '%s'): each launch counts once", opt, r->path[i],
                                 r->path[j]);
    return 0;
}

/* The launch floor from launch files of the card of bench `bcard` and card file `cfile` (name cname). */
static int launch_floor(mxsim_ctx *ctx, const char *opt, const launch_t *r, const char *bcard, const char *cname,
                        const char *cfile, double *floor_us, int *n_launches)
{
    const char *paths[MAXRUN];
    char card[128];
    for (int i = 0; i < r->n; i++) paths[i] = r->path[i];
    const mxsim_status st = mxsim_gpu_xlaunch_floor(ctx, paths, r->n, floor_us, n_launches, card, sizeof card);
    if (st != MXSIM_OK) return cli_fail(ctx, st);
    if (strcmp(card, bcard) != 0 || !cli_gpu_card_is(cname, card)) {
        fprintf(stderr, "mxsim %s: error: %s:%d: field 'card': the launch runs are of card '%s', but the --%s runs are of '%s' "
                        "(%s: card '%s')\n",
                cli_cmd, r->path[0], cli_gpu_first_row_line(r->path[0]), card, strncmp(opt, "from", 4) ? "to" : "from", bcard,
                cfile, cname);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

static void print_score(const char *what, const mxsim_gpu_xscore *s)
{
    printf("%s: %d rows, MAPE %.2f%%, max |error| %.1f%%\n", what, s->n, 100 * s->mape, 100 * s->max_abs);
    for (int c = 0; c < MXSIM_GX_NCLASS; c++)
        if (s->cls_n[c]) printf("  %-22s %3d rows  MAPE %6.2f%%\n", mxsim_gpu_xclass_name(c), s->cls_n[c], 100 * s->cls_mape[c]);
    /* mxsim's own kernels (copy, dequantize, mxk GEMMs) apart from the cuBLAS rows */
    double e = 0;
    int n = 0;
    for (int c = 0; c < MXSIM_GX_NCLASS; c++)
        if (c != MXSIM_GX_CUBLAS_BF16 && c != MXSIM_GX_CUBLASLT_INT8 && c != MXSIM_GX_DEQUANT_CUBLAS)
            e += s->cls_mape[c] * s->cls_n[c], n += s->cls_n[c];
    if (n) printf("  %-22s %3d rows  MAPE %6.2f%%\n", "(mxk + copy + dequant)", n, 100 * e / n);
    if (s->uncalibrated)
        printf("  %-22s %3d rows  not predicted: their class has no row on the calibration card\n", "(uncalibrated)",
               s->uncalibrated);
}

/* cfg 0 (mxk-gemm-mxint8) runs one of the explicit kernels, and the bench times those on the same
** data: a cfg 0 row far (> 10%) from the explicit row of the class the routing gives it, but near
** (< 5%) another explicit row, means that the build routes differently from mxsim_gpu_xclass_of.
** A note, not an error: the model keeps the routing of kernels/src/gemm_mma.cu it was written for. */
static void routing_notes(const char *path, const mxsim_gpu_xbench *b, const mxsim_gpu_xsheet *d, const mxsim_gpu_xparams *p)
{
    const int n = mxsim_gpu_xbench_count(b);
    for (int i = 0; i < n; i++) {
        mxsim_gpu_xrow r;
        if (mxsim_gpu_xbench_row(b, i, d, p, &r) != MXSIM_OK || strcmp(r.method, "mxk-gemm-mxint8")) continue;
        double same = 0, other = 0;
        const char *other_m = NULL;
        for (int j = 0; j < n; j++) {
            mxsim_gpu_xrow e;
            if (mxsim_gpu_xbench_row(b, j, d, p, &e) != MXSIM_OK || strncmp(e.method, "mxk-gemm-mxint8-cfg", 19) ||
                e.M != r.M || e.N != r.N || e.K != r.K || e.G != r.G)
                continue;
            const double dev = fabs(r.measured_us / e.measured_us - 1);
            if (e.cls == r.cls) same = dev > same ? dev : same;
            else if (!other_m || dev < other) other = dev, other_m = e.method;
        }
        if (same > 0.10 && other_m && other < 0.05)
            printf("note: %s: cfg 0 at %lldx%lldx%lld G=%lld (%.3f us) is %.0f%% off its routed class %s but "
                   "within %.0f%% of %s: does this build route differently (mxsim_gpu_xclass_of)?\n",
                   path, (long long)r.M, (long long)r.N, (long long)r.K, (long long)r.G, r.measured_us, 100 * same,
                   mxsim_gpu_xclass_name(r.cls), 100 * other, other_m);
    }
}

static int cmd_gpu_calibrate(const cli_command *cmd, const cli_args *a, mxsim_ctx *ctx)
{
    const char *from = cli_get(cmd, a, "from"), *to = cli_get(cmd, a, "to");
    const char *from_card = cli_get(cmd, a, "from-card"), *to_card = cli_get(cmd, a, "to-card");
    const char *out = cli_get(cmd, a, "out"), *maxm = cli_get(cmd, a, "max-mape");
    const int check = cli_get(cmd, a, "check") != NULL, rows = cli_get(cmd, a, "rows") != NULL;
    if (!from || !to || !from_card || !to_card) return cli_usage("--from, --from-card, --to and --to-card are required");
    double max_mape = 0;
    if (maxm && cli_real("--max-mape", maxm, 0, 1000, &max_mape)) return CLI_EXIT_USAGE;
    mxsim_gpu_xsheet ds, dt;
    mxsim_gpu_xparams committed;
    char sname[128] = "?", tname[128] = "?";
    int n_cal = 0, rc;
    if ((rc = cli_xcard_load(from_card, &ds, NULL, NULL, sname, sizeof sname))) return rc;
    if ((rc = cli_xcard_load(to_card, &dt, &committed, &n_cal, tname, sizeof tname))) return rc;
    static runs_t rs, rt;
    if ((rc = expand_runs(cmd, a, "from", &rs)) || (rc = expand_runs(cmd, a, "to", &rt))) return rc;
    static launch_t ls, lt;
    if ((rc = expand_launch(cmd, a, "from-launch", &ls)) || (rc = expand_launch(cmd, a, "to-launch", &lt))) return rc;
    /* one run given twice would count twice in the median */
    for (int w = 0; w < 2; w++) {
        const runs_t *r = w ? &rt : &rs;
        for (int i = 0; i < r->n; i++)
            for (int j = 0; j < i; j++)
                if (cli_gpu_same_file(r->path[i], r->path[j]))
                    return cli_usage("--%s: the run '%s' is given twice (also as '%s'): each run counts once", w ? "to" : "from",
                                     r->path[i], r->path[j]);
    }
    /* -o FILE must not be an input: the card files or any run (a --from DIR means DIR/bench.csv too) */
    if (out) {
        const char *cards[2] = {from_card, to_card};
        for (int i = 0; i < 2; i++)
            if (cli_gpu_same_file(out, cards[i]))
                return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out, cards[i]);
        for (int w = 0; w < 2; w++) {
            const runs_t *r = w ? &rt : &rs;
            for (int i = 0; i < r->n; i++)
                if (cli_gpu_same_file(out, r->path[i]))
                    return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out,
                                     r->path[i]);
            const launch_t *l = w ? &lt : &ls;
            for (int i = 0; i < l->n; i++)
                if (cli_gpu_same_file(out, l->path[i]))
                    return cli_usage("output '%s' is the same file as the input '%s': refusing to overwrite an input", out,
                                     l->path[i]);
        }
    }
    mxsim_gpu_xbench *bs = NULL, *bt = NULL;
    mxsim_status st = load_runs(ctx, &rs, &bs);
    if (st == MXSIM_OK) st = load_runs(ctx, &rt, &bt);
    /* each run is of its card file's card (--from-card / --to-card name = NAME) */
    for (int w = 0; w < 2 && st == MXSIM_OK && !rc; w++) {
        const runs_t *r = w ? &rt : &rs;
        const char *cname = w ? tname : sname, *cfile = w ? to_card : from_card;
        for (int i = 0; i < r->n && !rc; i++) {
            const char *bc = mxsim_gpu_xbench_card(r->b[i]);
            if (!cli_gpu_card_is(cname, bc)) {
                fprintf(stderr,
                        "mxsim %s: error: %s:%d: field 'card': the run is of card '%s', but --%s-card %s is card '%s'\n",
                        cli_cmd, r->path[i], cli_gpu_first_row_line(r->path[i]), bc, w ? "to" : "from", cfile, cname);
                rc = CLI_EXIT_USAGE;
            } else if (i > 0 && strcmp(bc, mxsim_gpu_xbench_card(r->b[0])) != 0) {
                fprintf(stderr, "mxsim %s: error: %s:%d: field 'card': '%s' differs from the first --%s run's '%s' (%s)\n", cli_cmd,
                        r->path[i], cli_gpu_first_row_line(r->path[i]), bc, w ? "to" : "from", mxsim_gpu_xbench_card(r->b[0]),
                        r->path[0]);
                rc = CLI_EXIT_USAGE;
            }
        }
    }
    if (rc) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return rc;
    }
    /* the launch floor: measured on the calibration card (--from-launch), checked on the other one */
    double floor_s = 0, floor_t = 0;
    int nl_s = 0, nl_t = 0;
    if (st == MXSIM_OK && ls.n) rc = launch_floor(ctx, "from-launch", &ls, mxsim_gpu_xbench_card(bs), sname, from_card, &floor_s, &nl_s);
    if (st == MXSIM_OK && !rc && lt.n) rc = launch_floor(ctx, "to-launch", &lt, mxsim_gpu_xbench_card(bt), tname, to_card, &floor_t, &nl_t);
    if (rc) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return rc;
    }
    mxsim_gpu_xparams p;
    mxsim_gpu_xscore train, held, each[MAXRUN];
    if (st == MXSIM_OK) st = mxsim_gpu_xcalibrate(ctx, bs, &ds, &p);
    p.launch_floor_us = floor_s;
    if (st == MXSIM_OK) st = mxsim_gpu_xscore_bench(ctx, bs, &ds, &p, &train);
    if (st == MXSIM_OK) st = mxsim_gpu_xscore_bench(ctx, bt, &dt, &p, &held);
    for (int i = 0; i < rt.n && st == MXSIM_OK; i++) st = mxsim_gpu_xscore_bench(ctx, rt.b[i], &dt, &p, &each[i]);
    if (st != MXSIM_OK) {
        mxsim_gpu_xbench_free(bs);
        mxsim_gpu_xbench_free(bt);
        free_runs(&rs);
        free_runs(&rt);
        return cli_fail(ctx, st);
    }
    printf("calibrated on %s (card %s): the per-row median of %d run(s) (sim/doc/gpu-model.md section 6.4)\n",
           mxsim_gpu_xbench_card(bs), sname, rs.n);
    for (int i = 0; i < rs.n; i++)
        printf("  %s%s%s%s%s (%d modelled rows, %d of unmodelled methods skipped)\n", rs.path[i],
               rs.tag[i] ? " (build " : "", k_build_tag[rs.tag[i]], rs.tag[i] ? ")" : "",
               rs.build[i] ? " (library rows only: another build)" : "", mxsim_gpu_xbench_count(rs.b[i]),
               mxsim_gpu_xbench_skipped(rs.b[i]));
    printf("predicting %s (card %s) from its datasheet, %d run(s):\n", mxsim_gpu_xbench_card(bt), tname, rt.n);
    for (int i = 0; i < rt.n; i++)
        printf("  run %d: %s%s%s%s%s (%d modelled rows, %d of unmodelled methods skipped)\n", i + 1, rt.path[i],
               rt.tag[i] ? " (build " : "", k_build_tag[rt.tag[i]], rt.tag[i] ? ")" : "",
               rt.build[i] ? " (library rows only: another build)" : "", mxsim_gpu_xbench_count(rt.b[i]),
               mxsim_gpu_xbench_skipped(rt.b[i]));
    printf("mem_eff %.4f (copy / datasheet HBM on %s)\n", p.mem_eff, mxsim_gpu_xbench_card(bs));
    if (ls.n)
        printf("launch floor %.3f us (the median of %d empty-kernel launches in %d file(s) on %s)\n", floor_s, nl_s, ls.n,
               mxsim_gpu_xbench_card(bs));
    else
        printf("launch floor: none (no --from-launch): an op may be predicted below one empty launch\n");
    if (lt.n)
        printf("launch floor on the held-out card: measured %.3f us (the median of %d launches in %d file(s)), model %.3f us "
               "(%+.1f%%)\n", floor_t, nl_t, lt.n, floor_s, floor_s > 0 ? 100 * (floor_s / floor_t - 1) : -100.0);
    for (int i = 0; i < rs.n; i++)
        if (!rs.build[i]) routing_notes(rs.path[i], rs.b[i], &ds, &p);
    for (int i = 0; i < rt.n; i++)
        if (!rt.build[i]) routing_notes(rt.path[i], rt.b[i], &dt, &p);
    print_score("calibration card (fit, median of its runs)", &train);
    print_score("held-out card (median of its runs)", &held);
    for (int i = 0; i < rt.n && rt.n > 1; i++) {
        if (rt.build[i]) continue; /* its mxk rows ran other kernels: scored through the median only */
        char what[64];
        snprintf(what, sizeof what, "held-out card, run %d", i + 1);
        print_score(what, &each[i]);
    }
    if (rows) {
        printf("held-out rows (median of its runs)\nclass,method,M,N,K,G,measured_us,model_us,error_pct\n");
        for (int i = 0; i < mxsim_gpu_xbench_count(bt); i++) {
            mxsim_gpu_xrow r;
            if (mxsim_gpu_xbench_row(bt, i, &dt, &p, &r) == MXSIM_OK)
                printf("%s,%s,%lld,%lld,%lld,%lld,%.3f,%.3f,%.2f\n", mxsim_gpu_xclass_name(r.cls), r.method, (long long)r.M,
                       (long long)r.N, (long long)r.K, (long long)r.G, r.measured_us, r.model_us,
                       100 * (r.model_us / r.measured_us - 1));
        }
    }
    int fail = 0;
    /* text of the calibrated fields, for -o and --check */
    char text[16384];
    size_t u = 0;
    u += (size_t)snprintf(text + u, sizeof text - u, "mem_eff = %.6g\n", p.mem_eff);
    if (ls.n) u += (size_t)snprintf(text + u, sizeof text - u, "launch.floor_us = %.6g\n", p.launch_floor_us);
    for (int c = 1; c < MXSIM_GX_NCLASS; c++) /* the classes the calibration card has rows of */
        for (int k = 0; k < NPAR && train.cls_n[c]; k++)
            if (par_used(c, k))
                u += (size_t)snprintf(text + u, sizeof text - u, "%s.%s = %.6g\n", mxsim_gpu_xclass_name(c), k_par[k], *par_ptr(&p, c, k));
    if (check) {
        int bad = 0;
        if (n_cal == 0) {
            fprintf(stderr, "check: %s has no calibrated fields\n", to_card);
            bad++;
        }
        for (int c = 0; c < MXSIM_GX_NCLASS && n_cal; c++)
            for (int k = 0; k < NPAR; k++) {
                if (c == 0 && k > 0) break;
                if (c > 0 && (!par_used(c, k) || !train.cls_n[c])) continue;
                const double want = c == 0 ? p.mem_eff : *par_ptr(&p, c, k), got = c == 0 ? committed.mem_eff : *par_ptr(&committed, c, k);
                if (fabs(want - got) > 1e-4 * fabs(want) + 1e-9) {
                    fprintf(stderr, "check: %s: %s.%s = %.6g, re-derived %.6g\n", to_card, c ? mxsim_gpu_xclass_name(c) : "",
                            c ? k_par[k] : "mem_eff", got, want);
                    bad++;
                }
            }
        if (n_cal && fabs(p.launch_floor_us - committed.launch_floor_us) > 1e-4 * p.launch_floor_us + 1e-9) {
            fprintf(stderr, "check: %s: launch.floor_us = %.6g, re-derived %.6g\n", to_card, committed.launch_floor_us,
                    p.launch_floor_us);
            bad++;
        }
        printf("check %s: %s\n", to_card, bad ? "FAIL (calibrated fields differ from the re-derivation)" : "calibrated fields re-derived");
        fail |= bad != 0;
    }
    if (maxm) { /* the median of the held-out runs (each run is printed above, not gated: noise) */
        const int over = 100 * held.mape > max_mape;
        printf("held-out MAPE %.2f%% (median of %d run(s)) %s target %.2f%%\n", 100 * held.mape, rt.n,
               over ? "ABOVE" : "within", max_mape);
        fail |= over;
    }
    if (out) {
        static char file[40000];
        size_t w = 0;
        w += (size_t)snprintf(file + w, sizeof file - w,
                              "# calibrated on %s by mxsim gpu-calibrate (per-row median of these runs):\n", mxsim_gpu_xbench_card(bs));
        for (int i = 0; i < rs.n && w < sizeof file; i++)
            w += (size_t)snprintf(file + w, sizeof file - w, "#   %s%s%s%s%s\n", rs.path[i], rs.tag[i] ? " (build " : "",
                                  k_build_tag[rs.tag[i]], rs.tag[i] ? ")" : "", rs.build[i] ? " (library rows only)" : "");
        for (int i = 0; i < ls.n && w < sizeof file; i++)
            w += (size_t)snprintf(file + w, sizeof file - w, "#   %s (launch floor)\n", ls.path[i]);
        if (w < sizeof file)
            w += (size_t)snprintf(file + w, sizeof file - w, "[calibrated on %s]\n%s", mxsim_gpu_xbench_card(bs), text);
        if (w >= sizeof file || cli_write(ctx, out, file, w)) fail = 1;
    }
    mxsim_gpu_xbench_free(bs);
    mxsim_gpu_xbench_free(bt);
    free_runs(&rs);
    free_runs(&rt);
    return fail ? CLI_EXIT_RUNTIME : 0;
}

static const cli_opt k_opts[] = {
    {"from", 0, 1, 1, "[decode1:|prebf16:|prerow:]DIR|BENCH.csv", "the calibration card's runs (DIR: bench.csv + bench_run*.csv; decode1: the build before decode2; prebf16: decode2 to final4, before cfg 11; prerow: final5 to final7, before cfg 12)"},
    {"from-card", 0, 1, 0, "CARD.ini", "its cross-card file (its [datasheet] is used; a calibrated block is checked, not used)"},
    {"to", 0, 1, 1, "[decode1:|prebf16:|prerow:]DIR|BENCH.csv", "the predicted card's runs (scored each and as their median)"},
    {"to-card", 0, 1, 0, "CARD.ini", "its cross-card file (datasheet; calibrated fields for --check)"},
    {"from-launch", 0, 1, 1, "DIR|LAUNCH.csv", "the calibration card's launch floor: kernels/tools/launch_probe.cu runs (DIR: every launch_probe*.csv in it)"},
    {"to-launch", 0, 1, 1, "DIR|LAUNCH.csv", "the predicted card's launch_probe runs: its measured floor against the model's"},
    {"out", 'o', 1, 0, "FILE", "write the calibrated fields (to paste into --to-card)"},
    {"check", 0, 0, 0, "", "exit 1 if --to-card's calibrated fields differ from the re-derivation"},
    {"max-mape", 0, 1, 0, "PCT", "exit 1 if the held-out MAPE is above PCT"},
    {"rows", 0, 0, 0, "", "print every held-out row"},
    {0}};

const cli_command mxsim_cmd_gpu_calibrate = {
    "gpu-calibrate", "",
    "The cross-card GPU model (sim/doc/gpu-model.md section 6): calibrates on the bench of one card\n"
    "(--from), predicts the bench of another (--to) from that card's datasheet values only, and prints\n"
    "the held-out MAPE overall and per kernel class.",
    k_opts, 0, 0, cmd_gpu_calibrate, NULL};

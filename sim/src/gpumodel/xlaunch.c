/* xlaunch.c - the launch floor of the cross-card GPU model (sim/doc/gpu-model.md section 6.2): no
** op the bench times can take less than one launch of an empty kernel timed the same way (events
** around one launch).  Without it a class whose launch term L was fitted on large shapes only
** predicted tiny GEMMs below it (cfg 10 at 9 x 128 x 128: 2.9 us, where an empty launch takes
** 5.8-7.5 us).  The value comes from kernels/tools/launch_probe.cu's CSV, measured on the card the
** model is calibrated on. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuinternal.h"

/* Reads one launch_probe CSV; appends its `empty` rows' event_us to v (*n of cap).  card: the
** card of the files read so far ("" before the first). */
static mxsim_status read_one(mxsim_ctx *ctx, const char *path, double *v, int *n, int cap, char *card, size_t card_cap)
{
    static const char *const hdr[7] = {"card", "kernel", "bytes", "smem_bytes", "event_us", "blocks_span_us", "outside_us"};
    char *data;
    size_t lines;
    mxsim_status st = mx_text_read(ctx, path, 1u << 20, &data, &lines);
    if (st != MXSIM_OK) return st;
    int header = 0, rows = 0;
    /* a probe prints each (kernel, smem) once: a repeated row would count twice in the median */
    struct { char kernel[8]; double smem; int line; } seen[64];
    mx_lines cur;
    mx_lines_init(&cur, data);
    for (char *buf; st == MXSIM_OK && (buf = mx_lines_next(&cur)) != NULL;) {
        if (!buf[0]) continue;
        char *f[8];
        const int nf = mx_csv_split(buf, f, 7);
        if (!header) {
            int ok = nf == 7;
            for (int i = 0; ok && i < 7; i++) ok = !strcmp(f[i], hdr[i]);
            if (!ok)
                st = mx_fail(ctx, MXSIM_E_INPUT,
                             "%s:%d: header: expected card,kernel,bytes,smem_bytes,event_us,blocks_span_us,outside_us "
                             "(kernels/tools/launch_probe.cu)", path, cur.line);
            header = 1;
            continue;
        }
        if (nf != 7) {
            if (nf > 7) st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: more than 7 fields", path, cur.line);
            else st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: %d fields, expected 7", path, cur.line, nf);
            break;
        }
        if (!f[0][0]) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 1 (card): empty", path, cur.line);
            break;
        }
        if (card[0] && strcmp(card, f[0])) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 1 (card): '%s', but the launch files read before are of '%s'",
                         path, cur.line, f[0], card);
            break;
        }
        if (strlen(f[0]) >= card_cap) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 1 (card): longer than %zu bytes", path, cur.line, card_cap - 1);
            break;
        }
        memcpy(card, f[0], strlen(f[0]) + 1);
        const int empty = !strcmp(f[1], "empty");
        if (!empty && strcmp(f[1], "stream")) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 2 (kernel): '%s' is not empty or stream", path, cur.line, f[1]);
            break;
        }
        double x[5];
        static const char *const name[5] = {"bytes", "smem_bytes", "event_us", "blocks_span_us", "outside_us"};
        for (int j = 0; j < 5 && st == MXSIM_OK; j++) {
            char *e;
            errno = 0;
            x[j] = mx_strtod(f[2 + j], &e);
            int ok = e != f[2 + j] && !*e && !errno && isfinite(x[j]);
            if (ok && j < 2) ok = x[j] >= 0 && x[j] <= 1099511627776.0 && floor(x[j]) == x[j];
            else if (ok && j < 4) ok = x[j] > 0 && x[j] <= MX_GPU_MAX_US;
            else if (ok) ok = fabs(x[j]) <= MX_GPU_MAX_US;
            if (!ok)
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field %d (%s): '%s' is not %s", path, cur.line, 3 + j, name[j],
                             f[2 + j], j < 2 ? "a whole number in 0..2^40" : j < 4 ? "a time in (0, 1e9] us" : "a time in us");
        }
        if (st != MXSIM_OK) break;
        if (empty && x[0] != 0) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: field 3 (bytes): '%s': an empty kernel reads no bytes", path, cur.line, f[2]);
            break;
        }
        for (int i = 0; i < rows; i++)
            if (!strcmp(seen[i].kernel, f[1]) && seen[i].smem == x[1]) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: the row of kernel '%s' at smem_bytes %s is given twice (first on line %d)",
                             path, cur.line, f[1], f[3], seen[i].line);
                break;
            }
        if (st != MXSIM_OK) break;
        if (rows == 64) {
            st = mx_fail(ctx, MXSIM_E_LIMIT, "%s:%d: more than 64 rows (a probe run prints 8)", path, cur.line);
            break;
        }
        {
            mx_snprintf(seen[rows].kernel, sizeof seen[rows].kernel, "%s", f[1]);
            seen[rows].smem = x[1], seen[rows].line = cur.line;
        }
        rows++;
        if (empty) {
            if (*n >= cap) {
                st = mx_fail(ctx, MXSIM_E_LIMIT, "%s:%d: more than %d empty-kernel rows in all", path, cur.line, cap);
                break;
            }
            v[(*n)++] = x[2];
        }
    }
    if (st == MXSIM_OK && !header) st = mx_fail(ctx, MXSIM_E_INPUT, "%s:1: header: missing (the file is empty)", path);
    free(data);
    return st;
}

mxsim_status mxsim_gpu_xlaunch_floor(mxsim_ctx *ctx, const char *const *paths, int n, double *floor_us, int *n_launches,
                                     char *card, size_t card_cap)
{
    mx_clear_err(ctx);
    if (!paths || n < 1 || !floor_us || !card || card_cap < 2)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xlaunch_floor: NULL argument or no file");
    enum { CAP = 4096 };
    double *v = malloc(CAP * sizeof *v);
    if (!v) return mx_fail(ctx, MXSIM_E_NOMEM, "mxsim_gpu_xlaunch_floor: out of memory");
    int m = 0;
    mxsim_status st = MXSIM_OK;
    card[0] = '\0';
    for (int i = 0; i < n && st == MXSIM_OK; i++) {
        if (!paths[i]) st = mx_fail(ctx, MXSIM_E_ARG, "mxsim_gpu_xlaunch_floor: NULL path");
        else st = read_one(ctx, paths[i], v, &m, CAP, card, card_cap);
    }
    if (st == MXSIM_OK && m == 0)
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: no 'empty' kernel row in %d launch file(s): no launch floor", paths[0], n);
    if (st == MXSIM_OK) {
        *floor_us = mx_gpu_median(v, m);
        if (n_launches) *n_launches = m;
    }
    free(v);
    return st;
}

/* sweep.c - cartesian sweeps over configuration axes, run over threads.
**
** Modelled: point i of the product of the axes (first axis slowest) is the base configuration
** with each axis's value applied in axis order, then validated; every op of the trace is timed
** (mxsim_time_op_cost: an energy tile objective at the sweep's technology), costed (mxsim_cost_area / mxsim_cost_energy) and, when asked, measured for
** accuracy (mxsim_accuracy_op).  Accuracy depends only on (op, group size, profile, accumulator),
** so each distinct combination is measured once and shared by the points that use it.
** Determinism: every job writes only its own slot and uses its own context; results are
** assembled in index order after all threads join, so they do not depend on the thread count.
** An op whose reduction length (K, or n of an elementwise op) the group size does not divide is
** padded with zeros to whole groups, as mxsim run and the hardware do (architecture.md section
** 3.1): timed padded, and measured padded (accuracy.c); sweep_out.c counts and explains such ops.
** strict_group makes them fail the point instead.
** What can be checked before a point runs is refused up front, so that no results are written
** for a sweep known to be wrong: two axes setting one field and every point's configuration
** (mxsim_sweep_add_axis), a --data directory whose files no op reads (mxsim_sweep_run).
** Ignored: cross-op state (each op is timed on an idle accelerator, as mxsim run does).
*/
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gemm.h"
#include "internal.h"
#include "sweep/sweep_internal.h"

MXSIM_API void mxsim_sweep_opts_default(mxsim_sweep_opts *o)
{
    if (o == NULL) return;
    memset(o, 0, sizeof *o);
    o->struct_size = sizeof *o;
    o->n_threads = 0;
    o->accuracy = 1;
    mxsim_accuracy_opts_default(&o->acc);
    mxsim_cost_params_default(&o->cost);
    o->strict_group = 0;
    o->profile = MXSIM_PROFILE_OCP;
}

MXSIM_API mxsim_status mxsim_sweep_create(mxsim_ctx *ctx, const mxsim_tconfig *base, mxsim_sweep **out)
{
    mx_clear_err(ctx);
    if (out) *out = NULL;
    if (base == NULL || out == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_create: NULL argument");
    mxsim_sweep *sw = mx_calloc(1, sizeof *sw);
    if (sw == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
    sw->base = *base;
    sw->n_points = 1;
    *out = sw;
    return MXSIM_OK;
}

static void free_results(mxsim_sweep *sw)
{
    free(sw->pts);
    free(sw->op_stats);
    free(sw->op_energy);
    free(sw->op_acc);
    free(sw->op_group);
    free(sw->op_job);
    sw->pts = NULL;
    sw->op_stats = NULL;
    sw->op_energy = NULL;
    sw->op_acc = NULL;
    sw->op_group = NULL;
    sw->op_job = NULL;
    sw->ran = 0;
}

MXSIM_API void mxsim_sweep_free(mxsim_sweep *sw)
{
    if (sw == NULL) return;
    free_results(sw);
    for (int a = 0; a < sw->n_axes; a++)
        for (int v = 0; v < sw->axes[a].n; v++) free(sw->axes[a].vals[v]);
    free(sw);
}

/* Applies one axis value to a configuration (and profile). */
static mxsim_status apply(mxsim_ctx *ctx, const axis *ax, const char *val, mxsim_tconfig *cfg,
                          int32_t *prof)
{
    char where[96];
    mx_snprintf(where, sizeof where, "sweep axis '%s'", ax->key);
    if (ax->kind == AX_PROFILE) {
        mxsim_profile p = MXSIM_PROFILE_OCP;
        mxsim_status st = mxsim_profile_parse(val, &p);
        *prof = (int32_t)p;
        if (st != MXSIM_OK)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: unknown profile '%s' (ocp, mase, mase-cuda, microxcaling)",
                           where, val);
        return MXSIM_OK;
    }
    if (ax->kind == AX_ARRAY_SIZE) {
        mxsim_status st = mxsim_tconfig_set(ctx, cfg, "array.rows", val, where);
        return st != MXSIM_OK ? st : mxsim_tconfig_set(ctx, cfg, "array.cols", val, where);
    }
    return mxsim_tconfig_set(ctx, cfg, ax->key, val, where);
}

MX_INTERNAL void mx_sweep_point_config(mxsim_ctx *ctx, const mxsim_sweep *sw, int64_t i, int32_t profile,
                                       mxsim_tconfig *cfg, int32_t *prof)
{
    const char *vals[MXSIM_SWEEP_MAX_AXES];
    int64_t rem = i;
    for (int a = sw->n_axes - 1; a >= 0; a--) { /* as mxsim_sweep_run enumerates */
        vals[a] = sw->axes[a].vals[rem % sw->axes[a].n];
        rem /= sw->axes[a].n;
    }
    *cfg = sw->base;
    *prof = profile;
    mxsim_status st = MXSIM_OK;
    for (int a = 0; a < sw->n_axes && st == MXSIM_OK; a++) st = apply(ctx, &sw->axes[a], vals[a], cfg, prof);
}

static int field_index(const char *key)
{
    for (int i = 0; i < mxsim_tconfig_field_count(); i++)
        if (strcmp(mxsim_tconfig_field_at(i)->name, key) == 0) return i;
    return -1;
}

MXSIM_API const char *mxsim_sweep_axis_type(const mxsim_sweep *sw, int a)
{
    if (sw == NULL || a < 0 || a >= sw->n_axes) return NULL;
    if (sw->axes[a].kind == AX_PROFILE) return "enum";
    int fi = field_index(sw->axes[a].kind == AX_ARRAY_SIZE ? "array.rows" : sw->axes[a].key);
    const char *t = fi >= 0 ? mxsim_tconfig_field_at(fi)->type : "text";
    return !strcmp(t, "bool") ? "int" : t;
}

MXSIM_API const char *mxsim_sweep_axis_unit(const mxsim_sweep *sw, int a)
{
    if (sw == NULL || a < 0 || a >= sw->n_axes) return NULL;
    if (sw->axes[a].kind == AX_ARRAY_SIZE) return "PE per side (W x W array)"; /* W = 8 is 64 PEs */
    int fi = sw->axes[a].kind == AX_PROFILE ? -1 : field_index(sw->axes[a].key);
    return fi >= 0 ? mxsim_tconfig_field_at(fi)->unit : "";
}

MXSIM_API int mxsim_sweep_axis_value_count(const mxsim_sweep *sw, int a)
{
    return sw && a >= 0 && a < sw->n_axes ? sw->axes[a].n : 0;
}

MXSIM_API const char *mxsim_sweep_axis_value(const mxsim_sweep *sw, int a, int v)
{
    return sw && a >= 0 && a < sw->n_axes && v >= 0 && v < sw->axes[a].n ? sw->axes[a].vals[v] : NULL;
}

/* The configuration fields an axis sets: array.size sets two, so it overlaps array.rows and
** array.cols; numerics.profile is not a configuration field but is set once all the same. */
static int axis_fields(const char *key, const char *out[2])
{
    if (!strcmp(key, "array.size")) {
        out[0] = "array.rows";
        out[1] = "array.cols";
        return 2;
    }
    out[0] = key;
    return 1;
}

MXSIM_API const char *mxsim_sweep_axes_overlap(const char *key_a, const char *key_b)
{
    const char *fa[2], *fb[2];
    if (key_a == NULL || key_b == NULL) return NULL;
    int na = axis_fields(key_a, fa), nb = axis_fields(key_b, fb);
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++)
            if (!strcmp(fa[i], fb[j])) return fa[i];
    return NULL;
}

/* Every point of the axes sw->axes[0..n_axes-1] plus *extra, validated as mxsim_sweep_run
** builds it: a limit across fields (the 2^22-PE array) is refused here, before any point runs,
** so that a sweep never writes results of which some points were known to be invalid.
** Depth-first over the axes, each level's configuration kept, so each point costs about one
** apply and one validation. */
static mxsim_status check_points(mxsim_ctx *ctx, const mxsim_sweep *sw, const axis *extra)
{
    const axis *ax[MXSIM_SWEEP_MAX_AXES];
    int n = 0, idx[MXSIM_SWEEP_MAX_AXES] = {0};
    for (int a = 0; a < sw->n_axes; a++) ax[n++] = &sw->axes[a];
    ax[n++] = extra;
    mxsim_tconfig lv[MXSIM_SWEEP_MAX_AXES + 1];
    lv[0] = sw->base;
    int from = 0;
    for (;;) {
        mxsim_status st = MXSIM_OK;
        for (int a = from; a < n && st == MXSIM_OK; a++) {
            int32_t prof = MXSIM_PROFILE_OCP;
            lv[a + 1] = lv[a];
            st = apply(ctx, ax[a], ax[a]->vals[idx[a]], &lv[a + 1], &prof);
        }
        if (st == MXSIM_OK) st = mxsim_tconfig_validate(ctx, &lv[n]);
        if (st != MXSIM_OK) {
            char why[MX_ERRMSG_LEN], at[512];
            size_t k = 0;
            mx_snprintf(why, sizeof why, "%s", mxsim_errmsg(ctx));
            at[0] = '\0';
            for (int a = 0; a < n && k < sizeof at; a++)
                k += (size_t)mx_snprintf(at + k, sizeof at - k, "%s%s=%s", a ? ", " : "", ax[a]->key, ax[a]->vals[idx[a]]);
            return mx_fail(ctx, st, "sweep axis '%s': the point %s is invalid: %s", extra->key, at, why);
        }
        int a = n - 1;
        while (a >= 0 && ++idx[a] == ax[a]->n) idx[a--] = 0;
        if (a < 0) return MXSIM_OK;
        from = a;
    }
}

MXSIM_API mxsim_status mxsim_sweep_add_axis(mxsim_ctx *ctx, mxsim_sweep *sw, const char *key,
                                            const char *values)
{
    mx_clear_err(ctx);
    if (sw == NULL || key == NULL || values == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_add_axis: NULL argument");
    if (sw->n_axes >= MXSIM_SWEEP_MAX_AXES)
        return mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s': at most %d axes", key, MXSIM_SWEEP_MAX_AXES);
    if (strlen(key) >= sizeof sw->axes[0].key) return mx_fail(ctx, MXSIM_E_INPUT, "sweep axis: key too long");
    for (int a = 0; a < sw->n_axes; a++) {
        if (strcmp(sw->axes[a].key, key) == 0)
            return mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s': given twice", key);
        /* two axes setting one field: the later would silently win over the earlier's label */
        const char *f = mxsim_sweep_axes_overlap(key, sw->axes[a].key);
        if (f) return mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s' overlaps axis '%s': both set field '%s'", key,
                              sw->axes[a].key, f);
    }
    axis ax;
    memset(&ax, 0, sizeof ax);
    mx_snprintf(ax.key, sizeof ax.key, "%s", key);
    ax.kind = !strcmp(key, "array.size") ? AX_ARRAY_SIZE : !strcmp(key, "numerics.profile") ? AX_PROFILE : AX_FIELD;
    mxsim_status st = MXSIM_OK;
    const char *p = values;
    for (;;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 0 || len > 63) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s': empty or overlong value in '%s'", key, values);
            goto fail;
        }
        if (ax.n >= MXSIM_SWEEP_MAX_VALUES) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s': more than %d values", key, MXSIM_SWEEP_MAX_VALUES);
            goto fail;
        }
        char *v = mx_malloc(len + 1, 1);
        if (v == NULL) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
            goto fail;
        }
        memcpy(v, p, len);
        v[len] = '\0';
        ax.vals[ax.n++] = v;
        /* check the value against the field now, so typos fail before any work */
        mxsim_tconfig tmp = sw->base;
        int32_t prof = MXSIM_PROFILE_OCP;
        if ((st = apply(ctx, &ax, v, &tmp, &prof)) != MXSIM_OK) goto fail;
        /* keep the canonical spelling ("0x20" -> "32"), so that outputs carry typed values */
        int fi = field_index(ax.kind == AX_ARRAY_SIZE ? "array.rows" : ax.key);
        if (ax.kind == AX_PROFILE) mx_snprintf(v, len + 1, "%s", mxsim_profile_name(prof));
        else if (fi >= 0) {
            char canon[64];
            mxsim_tconfig_format(&tmp, fi, canon, sizeof canon);
            if (strlen(canon) > len) {
                char *nv = realloc(v, strlen(canon) + 1);
                if (nv == NULL) {
                    st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
                    goto fail;
                }
                ax.vals[ax.n - 1] = v = nv;
            }
            strcpy(v, canon);
        }
        for (int i = 0; i < ax.n - 1; i++)
            if (strcmp(ax.vals[i], v) == 0) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "sweep axis '%s': value '%s' repeated", key, v);
                goto fail;
            }
        if (!e) break;
        p = e + 1;
    }
    if (sw->n_points * ax.n > MAX_POINTS) {
        st = mx_fail(ctx, MXSIM_E_LIMIT, "sweep axis '%s': more than %lld points", key, (long long)MAX_POINTS);
        goto fail;
    }
    if ((st = check_points(ctx, sw, &ax)) != MXSIM_OK) goto fail;
    free_results(sw);
    sw->axes[sw->n_axes++] = ax;
    sw->n_points *= ax.n;
    return MXSIM_OK;
fail:
    for (int i = 0; i < ax.n; i++) free(ax.vals[i]);
    return st;
}

MXSIM_API int mxsim_sweep_axis_count(const mxsim_sweep *sw) { return sw ? sw->n_axes : 0; }
MXSIM_API const mxsim_tconfig *mxsim_sweep_base(const mxsim_sweep *sw) { return sw ? &sw->base : NULL; }
MXSIM_API const char *mxsim_sweep_axis_key(const mxsim_sweep *sw, int a)
{
    return sw && a >= 0 && a < sw->n_axes ? sw->axes[a].key : NULL;
}
MXSIM_API int64_t mxsim_sweep_point_count(const mxsim_sweep *sw) { return sw ? sw->n_points : 0; }
MXSIM_API const mxsim_sweep_point *mxsim_sweep_point_at(const mxsim_sweep *sw, int64_t i)
{
    if (sw == NULL || !sw->ran || i < 0 || i >= sw->n_points) return NULL;
    int64_t first, end;
    mx_sweep_slice(sw->n_points, sw->shard_index, sw->shard_count, &first, &end);
    return i >= first && i < end ? &sw->pts[i] : NULL;
}

MX_INTERNAL void mx_sweep_slice(int64_t n, int64_t index, int64_t count, int64_t *first, int64_t *end)
{
    if (count < 1) {
        *first = 0;
        *end = n;
        return;
    }
    if (index < 0 || index >= count || n < 0 || n > MAX_POINTS || count > MAX_POINTS) { /* no such slice */
        *first = *end = 0;
        return;
    }
    /* floor(i * n / count) without overflow: n, count <= 2^16 and 0 <= i < count */
    *first = index * n / count;
    *end = (index + 1) * n / count;
}

MXSIM_API mxsim_status mxsim_sweep_set_shard(mxsim_ctx *ctx, mxsim_sweep *sw, int64_t index, int64_t count)
{
    mx_clear_err(ctx);
    if (sw == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_set_shard: NULL argument");
    if (count < 0 || count > MAX_POINTS || (count > 0 && (index < 0 || index >= count)) || (count == 0 && index != 0))
        return mx_fail(ctx, MXSIM_E_INPUT, "shard %lld/%lld: expected I/N with 0 <= I < N <= %lld", (long long)index,
                       (long long)count, (long long)MAX_POINTS);
    free_results(sw);
    sw->shard_index = index;
    sw->shard_count = count;
    return MXSIM_OK;
}

MXSIM_API void mxsim_sweep_shard(const mxsim_sweep *sw, int64_t *index, int64_t *count, int64_t *first, int64_t *end)
{
    int64_t i = sw ? sw->shard_index : 0, c = sw ? sw->shard_count : 0, f = 0, e = 0;
    if (sw) mx_sweep_slice(sw->n_points, i, c, &f, &e);
    if (index) *index = i;
    if (count) *count = c;
    if (first) *first = f;
    if (end) *end = e;
}

/* --data DIR: every .npy file in DIR must be one an op of the trace reads (GEMM NAME:
** NAME.a.npy and NAME.b.npy; quantize/dequant NAME: NAME.npy), and at least one op must find
** its files.  Otherwise a misnamed file ("A.a.npy" for op "a") would leave every op on
** synthetic data while the outputs say the data came from DIR. */
static int is_npy(const char *name)
{
    size_t L = strlen(name);
    return L > 4 && !strcasecmp(name + L - 4, ".npy");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

static mxsim_status check_data_files(mxsim_ctx *ctx, const char *dir, const mxsim_trace *tr)
{
    const int64_t O = mxsim_trace_count(tr);
    /* the file names the ops read, as accuracy.c builds them */
    char (*want)[80] = mx_calloc((size_t)(2 * O), sizeof *want);
    const char **names = mx_calloc((size_t)(2 * O), sizeof *names);
    char **bad = NULL;
    int64_t n_want = 0, n_bad = 0, cap_bad = 0, n_found = 0;
    mxsim_status st = MXSIM_OK;
    if (!want || !names) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
        goto done;
    }
    for (int64_t k = 0; k < O; k++) {
        const mxsim_top *op = mxsim_trace_op(tr, k);
        int gemm = op->kind == MXSIM_OP_GEMM, found = 0;
        for (int s = 0; s < (gemm ? 2 : 1); s++) {
            mx_snprintf(want[n_want], sizeof want[n_want], "%s%s.npy", op->name, gemm ? (s ? ".b" : ".a") : "");
            char path[1200];
            struct stat sb;
            mx_snprintf(path, sizeof path, "%s/%s", dir, want[n_want]);
            found |= stat(path, &sb) == 0;
            names[n_want] = want[n_want];
            n_want++;
        }
        n_found += found;
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "accuracy data directory '%s': %s", dir, strerror(errno));
        goto done;
    }
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!is_npy(e->d_name)) continue;
        int64_t k = 0;
        while (k < n_want && strcmp(want[k], e->d_name)) k++;
        if (k < n_want) continue;
        if (n_bad == cap_bad) {
            char **nb = realloc(bad, (size_t)(cap_bad ? 2 * cap_bad : 8) * sizeof *nb);
            if (nb == NULL) {
                st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
                break;
            }
            bad = nb;
            cap_bad = cap_bad ? 2 * cap_bad : 8;
        }
        if ((bad[n_bad] = strdup(e->d_name)) == NULL) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory");
            break;
        }
        n_bad++;
    }
    closedir(d);
    if (st == MXSIM_OK && n_bad > 0) { /* the first by name, so the message does not depend on readdir's order */
        qsort(bad, (size_t)n_bad, sizeof *bad, cmp_str);
        const char *near = mxsim_closest_name(bad[0], names, (int)(n_want < 4096 ? n_want : 4096));
        char more[64] = "";
        if (n_bad > 1) mx_snprintf(more, sizeof more, " (and %lld more)", (long long)(n_bad - 1));
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "%s/%s: field 'name': no op of %s reads this file%s (GEMM op NAME reads NAME.a.npy and "
                     "NAME.b.npy, quantize/dequant op NAME reads NAME.npy, names exact)%s%s%s",
                     dir, bad[0], mxsim_trace_source(tr), more, near ? "; did you mean '" : "", near ? near : "",
                     near ? "'?" : "");
    } else if (st == MXSIM_OK && n_found == 0) {
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "accuracy data directory '%s': no op of %s has a file there (GEMM op NAME reads NAME.a.npy and "
                     "NAME.b.npy, quantize/dequant op NAME reads NAME.npy); without --data the data are synthetic",
                     dir, mxsim_trace_source(tr));
    }
done:
    for (int64_t i = 0; i < n_bad; i++) free(bad[i]);
    free(bad);
    free(names);
    free(want);
    return st;
}

/* ---- the job runner -------------------------------------------------------------------- */

typedef struct {
    mxsim_sweep *sw;
    const mxsim_trace *tr;
    const mxsim_sweep_opts *o;
    acc_job *jobs;
    int64_t n_jobs;   /* accuracy jobs first, then one job per point of the slice */
    int64_t first;    /* the slice's first point (0 unless sharded) */
    int64_t next, done, total;
    mxsim_ctx *caller; /* its cancellation hook is polled before each job */
    int cancelled;
    pthread_mutex_t lock;
} runner;

static void run_point(runner *r, mxsim_ctx *ctx, int64_t i)
{
    mxsim_sweep *sw = r->sw;
    mxsim_sweep_point *pt = &sw->pts[i];
    if (pt->status != MXSIM_OK) return;
    mxsim_status st = mxsim_cost_area(ctx, &pt->cfg, &r->o->cost, &pt->area);
    for (int64_t k = 0; st == MXSIM_OK && k < sw->n_ops; k++) {
        mxsim_top op = *mxsim_trace_op(r->tr, k);
        op.group_size = sw->op_group[i * sw->n_ops + k];
        mxsim_tstats *s = &sw->op_stats[i * sw->n_ops + k];
        st = mxsim_time_op_cost(ctx, &pt->cfg, &r->o->cost, &op, mxsim_trace_source(r->tr), 0, NULL, s);
        if (st == MXSIM_OK) st = mxsim_cost_energy(ctx, &pt->cfg, &r->o->cost, &pt->area, s, &sw->op_energy[i * sw->n_ops + k]);
        if (st == MXSIM_OK) st = mxsim_tstats_add(ctx, &pt->cfg, &pt->total, s, op.name);
    }
    if (st == MXSIM_OK) st = mxsim_cost_energy(ctx, &pt->cfg, &r->o->cost, &pt->area, &pt->total, &pt->energy);
    if (st != MXSIM_OK) {
        pt->status = st;
        mx_snprintf(pt->err, sizeof pt->err, "%s", mxsim_errmsg(ctx));
    }
}

static void run_acc(runner *r, mxsim_ctx *ctx, acc_job *j)
{
    mxsim_accuracy_opts ao = r->o->acc;
    ao.profile = j->profile;
    ao.acc = j->acc;
    ao.group_size = j->g;
    j->st = mxsim_accuracy_op(ctx, mxsim_trace_op(r->tr, j->op), &ao, &j->res);
    if (j->st != MXSIM_OK) mx_snprintf(j->err, sizeof j->err, "%s", mxsim_errmsg(ctx));
}

static void *worker(void *arg)
{
    runner *r = arg;
    mxsim_ctx *ctx = NULL;
    int have_ctx = mxsim_ctx_create(&ctx) == MXSIM_OK;
    if (have_ctx) mxsim_ctx_set_threads(ctx, 1); /* parallelism is across jobs */
    for (;;) {
        pthread_mutex_lock(&r->lock);
        if (!r->cancelled && mx_cancelled(r->caller)) r->cancelled = 1;
        int64_t i = !r->cancelled && r->next < r->total ? r->next++ : -1;
        pthread_mutex_unlock(&r->lock);
        if (i < 0) break;
        if (!have_ctx) { /* cannot happen unless out of memory: mark the job failed */
            if (i < r->n_jobs) r->jobs[i].st = MXSIM_E_NOMEM;
            else r->sw->pts[r->first + i - r->n_jobs].status = MXSIM_E_NOMEM;
        } else if (i < r->n_jobs) run_acc(r, ctx, &r->jobs[i]);
        else run_point(r, ctx, r->first + i - r->n_jobs);
        pthread_mutex_lock(&r->lock);
        r->done++;
        if (r->o->progress) r->o->progress(r->o->progress_user, r->done, r->total);
        pthread_mutex_unlock(&r->lock);
    }
    mxsim_ctx_destroy(ctx);
    return NULL;
}

static int64_t find_or_add_job(acc_job *jobs, int64_t *n, int64_t op, int64_t g, mxsim_profile p, mxsim_acc a)
{
    for (int64_t j = 0; j < *n; j++)
        if (jobs[j].op == op && jobs[j].g == g && jobs[j].profile == p && jobs[j].acc == a) return j;
    memset(&jobs[*n], 0, sizeof jobs[*n]);
    jobs[*n].op = op;
    jobs[*n].g = g;
    jobs[*n].profile = p;
    jobs[*n].acc = a;
    return (*n)++;
}

MXSIM_API mxsim_status mxsim_sweep_run(mxsim_ctx *ctx, mxsim_sweep *sw, const mxsim_trace *tr,
                                       const mxsim_sweep_opts *o)
{
    mx_clear_err(ctx);
    if (sw == NULL || tr == NULL || o == NULL) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_run: NULL argument");
    mxsim_status cs = mx_check_size(ctx, "mxsim_sweep_run", "mxsim_sweep_opts", o->struct_size, sizeof *o);
    if (cs == MXSIM_OK)
        cs = mx_check_size(ctx, "mxsim_sweep_run", "mxsim_accuracy_opts", o->acc.struct_size, sizeof o->acc);
    if (cs == MXSIM_OK) cs = mx_check_size(ctx, "mxsim_sweep_run", "mxsim_cost_params", o->cost.struct_size, sizeof o->cost);
    if (cs != MXSIM_OK) return cs;
    free_results(sw);
    const int64_t P = sw->n_points, O = mxsim_trace_count(tr);
    if (O < 1) return mx_fail(ctx, MXSIM_E_INPUT, "%s: trace has no ops", mxsim_trace_source(tr));
    if (o->accuracy) {
        mxsim_status dst = mx_acc_check_data_dir(ctx, o->acc.data_dir);
        if (dst == MXSIM_OK && o->acc.data_dir) dst = check_data_files(ctx, o->acc.data_dir, tr);
        if (dst != MXSIM_OK) return dst;
    }
    sw->n_ops = O;
    sw->pts = mx_calloc((size_t)P, sizeof *sw->pts);
    sw->op_stats = mx_calloc((size_t)(P * O), sizeof *sw->op_stats);
    sw->op_energy = mx_calloc((size_t)(P * O), sizeof *sw->op_energy);
    sw->op_acc = mx_calloc((size_t)(P * O), sizeof *sw->op_acc);
    sw->op_group = mx_calloc((size_t)(P * O), sizeof *sw->op_group);
    sw->op_job = mx_calloc((size_t)(P * O), sizeof *sw->op_job);
    acc_job *jobs = mx_calloc((size_t)(P * O), sizeof *jobs);
    if (!sw->pts || !sw->op_stats || !sw->op_energy || !sw->op_acc || !sw->op_group || !sw->op_job || !jobs) {
        free(jobs);
        free_results(sw);
        return mx_fail(ctx, MXSIM_E_NOMEM, "sweep: out of memory for %lld points x %lld ops", (long long)P,
                       (long long)O);
    }
    /* configurations, effective group sizes and the distinct accuracy jobs (sequential) */
    int64_t n_jobs = 0, first, end;
    mx_sweep_slice(P, sw->shard_index, sw->shard_count, &first, &end);
    for (int64_t i = 0; i < P; i++) {
        mxsim_sweep_point *pt = &sw->pts[i];
        if (i < first || i >= end) { /* another shard's point: not run, never returned */
            pt->status = MXSIM_E_ARG;
            continue;
        }
        pt->cfg = sw->base;
        pt->profile = o->profile;
        pt->n_ops = O;
        pt->op_stats = &sw->op_stats[i * O];
        pt->op_energy = &sw->op_energy[i * O];
        pt->op_acc = &sw->op_acc[i * O];
        pt->op_group = &sw->op_group[i * O];
        int64_t rem = i;
        for (int a = sw->n_axes - 1; a >= 0; a--) { /* last axis varies fastest */
            pt->values[a] = sw->axes[a].vals[rem % sw->axes[a].n];
            rem /= sw->axes[a].n;
        }
        mxsim_status st = MXSIM_OK;
        for (int a = 0; a < sw->n_axes && st == MXSIM_OK; a++)
            st = apply(ctx, &sw->axes[a], pt->values[a], &pt->cfg, &pt->profile);
        if (st == MXSIM_OK) st = mxsim_tconfig_validate(ctx, &pt->cfg);
        for (int64_t k = 0; st == MXSIM_OK && k < O; k++) {
            const mxsim_top *op = mxsim_trace_op(tr, k);
            int64_t g = op->group_size > 0 ? op->group_size : pt->cfg.group_size;
            int64_t len = op->kind == MXSIM_OP_GEMM ? op->k : op->n;
            if (len % g != 0 && o->strict_group) /* else padded to whole groups, as mxsim run does */
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s:%d: op '%s': field 'group': G=%lld does not divide %s=%lld",
                             mxsim_trace_source(tr), (int)op->line, op->name, (long long)g,
                             op->kind == MXSIM_OP_GEMM ? "k" : "n", (long long)len);
            sw->op_group[i * O + k] = g;
            sw->op_job[i * O + k] = -1;
            /* the accuracy model is MXINT8's (grouped scales): a plain int8 machine, or a GEMM with a
            ** plain int8 operand, has none here and is not measured (NaN), rather than given
            ** MXINT8's error */
            const int fa = op->a_fmt >= 0 ? op->a_fmt : (int)pt->cfg.operand_format;
            const int fb = op->b_fmt >= 0 ? op->b_fmt : (int)pt->cfg.operand_format;
            const int int8 = pt->cfg.operand_format == MXSIM_FMT_INT8 ||
                             (op->kind == MXSIM_OP_GEMM && (fa == MXSIM_FMT_INT8 || fb == MXSIM_FMT_INT8));
            if (st == MXSIM_OK && o->accuracy && !int8)
                sw->op_job[i * O + k] = find_or_add_job(jobs, &n_jobs, k, g, pt->profile, (mxsim_acc)pt->cfg.acc_mode);
        }
        if (st != MXSIM_OK) {
            pt->status = st;
            mx_snprintf(pt->err, sizeof pt->err, "%s", mxsim_errmsg(ctx));
        }
    }
    /* run every job over the threads */
    runner r;
    memset(&r, 0, sizeof r);
    r.sw = sw;
    r.tr = tr;
    r.o = o;
    r.jobs = jobs;
    r.n_jobs = n_jobs;
    r.first = first;
    r.total = n_jobs + (end - first);
    r.caller = ctx;
    pthread_mutex_init(&r.lock, NULL);
    unsigned nt = o->n_threads ? o->n_threads : mx_online_cpus();
    if (nt < 1) nt = 1;
    if ((int64_t)nt > r.total) nt = (unsigned)r.total;
    pthread_t th[256];
    unsigned started = 0;
    if (nt > 256) nt = 256;
    for (unsigned t = 1; t < nt; t++)
        if (pthread_create(&th[started], NULL, worker, &r) == 0) started++;
    worker(&r); /* the calling thread works too */
    for (unsigned t = 0; t < started; t++) pthread_join(th[t], NULL);
    pthread_mutex_destroy(&r.lock);
    if (r.cancelled) {
        free(jobs);
        free_results(sw);
        return mx_fail(ctx, MXSIM_E_CANCELLED, "sweep: cancelled after %lld of %lld jobs", (long long)r.done,
                       (long long)r.total);
    }
    /* a failed accuracy job is the user's data (or memory): fail the sweep */
    for (int64_t j = 0; j < n_jobs; j++)
        if (jobs[j].st != MXSIM_OK) {
            /* name the op and its line, and what limits the measurement's memory and time */
            const mxsim_top *op = mxsim_trace_op(tr, jobs[j].op);
            char at[32] = "";
            if (op->line > 0) mx_snprintf(at, sizeof at, " (trace line %d)", (int)op->line);
            /* (not its G: a distributed sweep meets the op's first failing G in another order, and
            ** reports the same message as a local one) */
            mxsim_status st = mx_fail(ctx, jobs[j].st,
                                      "accuracy of op '%s'%s: %s (--sample-rows / --sample-cols bound the outputs "
                                      "measured, --no-accuracy skips the measurement)",
                                      op->name, at, jobs[j].err[0] ? jobs[j].err : mxsim_strerror(jobs[j].st));
            free(jobs);
            free_results(sw);
            return st;
        }
    for (int64_t i = 0; i < P; i++) {
        mxsim_sweep_point *pt = &sw->pts[i];
        if (pt->status != MXSIM_OK || !o->accuracy) continue;
        for (int64_t k = 0; k < O; k++) {
            mxsim_accuracy *oa = &sw->op_acc[i * O + k];
            if (sw->op_job[i * O + k] < 0) { /* an int8 GEMM: not measured, not in the overall figure */
                memset(oa, 0, sizeof *oa);
                oa->sqnr_db = oa->max_rel_err = NAN;
                continue;
            }
            *oa = jobs[sw->op_job[i * O + k]].res;
            mxsim_accuracy_add(&pt->acc, oa);
        }
        if (pt->acc.n_ops == 0) pt->acc.sqnr_db = pt->acc.max_rel_err = NAN; /* nothing measured */
    }
    free(jobs);
    sw->ran = 1;
    return MXSIM_OK;
}

/* sweep_part.c - part files of sharded sweeps, and their merge.
**
** A part file holds what merge needs to write the unsharded sweep's outputs, byte for byte:
**   "MXSIM-SWEEP-PART\n", u32 format version (1),
**   seven identity sections, each (name, u64 length, bytes): "version" (mxsim version, the
**   build identifier, the git commit for messages, and the sizes of the result structs),
**   "trace" (source and every op, field by field), "base" (the base configuration), "axes"
**   (keys and canonical values), "options" (every sweep option that changes the results or the
**   sidecar; not the thread count), "paths" (trace and config paths as the outputs name them)
**   and "data" (each --data file an op reads: name, size, CRC-32 and Adler-32 of its bytes),
**   i64 shard index, shard count, first point, end point,
**   per point of the slice: the point record, then its per-op statistics, energies, accuracies
**   and group sizes, as the library holds them in memory (exact: no text round trip),
**   u32 CRC-32 (zlib) of everything before it: a truncated or modified part is refused.
** Integers are in the machine's byte order: a part is read back by the same mxsim build only.
** The build identifier (MXSIM_BUILD_ID, generated at build time by sweep_part_build_id.cmake) is
** a SHA-256 of the library's and the CLI's sources, so it changes with any change of the code,
** committed or not; merge compares every part's "version" section (less the commit, which is
** only shown) with its own and refuses any other build, naming both.  Two parts belong to the
** same sweep exactly when their sections are equal.
** Merge rebuilds the sweep object with every point filled from its part and writes it with
** mxsim_sweep_save, so merged outputs are the unsharded ones in every format.  Each point record
** is checked against the configuration its index gives (rebuilt from base and axes).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fileio.h"
#include "internal.h"
#include "output/textbuf.h"
#include "sweep/sweep_internal.h"
#include "mxsim_build_id.h" /* generated: MXSIM_BUILD_ID, MXSIM_BUILD_COMMIT */

#define PART_MAGIC "MXSIM-SWEEP-PART\n"
#define PART_VERSION 4u
#define N_SECTIONS 7
static const char *const k_sections[N_SECTIONS] = {"version", "trace", "base", "axes", "options", "paths", "data"};
#define N_SIZES 6
static const char *const k_size_names[N_SIZES] = {"mxsim_sweep_point", "mxsim_tstats", "mxsim_energy",
                                                  "mxsim_accuracy", "mxsim_area", "mxsim_tconfig"};

/* ---- writing ---------------------------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
    int oom;
} wbuf;

static void put(wbuf *b, const void *data, size_t len)
{
    if (b->oom) return;
    if (b->n + len > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + len) cap *= 2;
        uint8_t *np = realloc(b->p, cap);
        if (np == NULL) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    if (len) memcpy(b->p + b->n, data, len);
    b->n += len;
}
static void put_i64(wbuf *b, int64_t v) { put(b, &v, sizeof v); }
static void put_f64(wbuf *b, double v) { put(b, &v, sizeof v); }
static void put_str(wbuf *b, const char *s) /* NULL is length -1 */
{
    put_i64(b, s ? (int64_t)strlen(s) : -1);
    if (s) put(b, s, strlen(s));
}
static void put_section(wbuf *b, const char *name, const wbuf *body)
{
    put_str(b, name);
    put_i64(b, (int64_t)body->n);
    put(b, body->p, body->n);
    if (body->oom) b->oom = 1;
}

static const int64_t k_sizes[N_SIZES] = {(int64_t)sizeof(mxsim_sweep_point), (int64_t)sizeof(mxsim_tstats),
                                         (int64_t)sizeof(mxsim_energy), (int64_t)sizeof(mxsim_accuracy),
                                         (int64_t)sizeof(mxsim_area), (int64_t)sizeof(mxsim_tconfig)};

/* One --data file an op reads: its name, then its size, CRC-32 and Adler-32 (-1, 0, 0 if absent
** or unreadable), so that a file changed between two shards under the same path is seen. */
static void put_data_file(wbuf *b, const char *dir, const char *name)
{
    char path[1200];
    mx_snprintf(path, sizeof path, "%s/%s", dir, name);
    int64_t size = -1;
    uLong crc = crc32(0L, Z_NULL, 0), adl = adler32(0L, Z_NULL, 0);
    FILE *f = fopen(path, "rb");
    if (f) {
        static const size_t chunk = 1 << 16;
        unsigned char *buf = malloc(chunk);
        size_t got;
        size = buf ? 0 : -1;
        while (buf && (got = fread(buf, 1, chunk, f)) > 0) {
            crc = crc32(crc, buf, (uInt)got);
            adl = adler32(adl, buf, (uInt)got);
            size += (int64_t)got;
        }
        if (ferror(f)) size = -1;
        free(buf);
        fclose(f);
    }
    put_str(b, name);
    put_i64(b, size);
    put_i64(b, size < 0 ? 0 : (int64_t)crc);
    put_i64(b, size < 0 ? 0 : (int64_t)adl);
}

/* This build's "version" section. */
static void version_section(wbuf *b)
{
    put_str(b, mxsim_version());
    put_str(b, MXSIM_BUILD_ID);
    put_str(b, MXSIM_BUILD_COMMIT);
    for (int i = 0; i < N_SIZES; i++) put_i64(b, k_sizes[i]);
}

/* An op in a part's trace section: its name, then these numbers in this order.  The writer
** (identity), the reader (rebuild) and the field-naming comparison (describe_diff) all walk this
** one list. */
static const char *const k_op_field[] = {"kind",    "m",       "n",      "k",           "group_size", "repeat",
                                         "a_fmt",   "b_fmt",   "out_fmt", "line",       "conv H",     "conv W",
                                         "conv FH", "conv FW", "conv C", "conv stride", "b_role",     "b_tensors"};
#define N_OP_FIELDS 18
_Static_assert(sizeof k_op_field / sizeof k_op_field[0] == N_OP_FIELDS, "one name per op field");

static void op_fields(const mxsim_trace *tr, int64_t i, int64_t v[N_OP_FIELDS])
{
    const mxsim_top *op = mxsim_trace_op(tr, i);
    const int64_t x[N_OP_FIELDS] = {op->kind,    op->m,       op->n,      op->k,      op->group_size, op->repeat,
                                    op->a_fmt,   op->b_fmt,   op->out_fmt, op->line,  op->conv_h,     op->conv_w,
                                    op->conv_fh, op->conv_fw, op->conv_c, op->conv_s, mxsim_trace_b_role(tr, i),
                                    mxsim_trace_b_tensors(tr, i)};
    memcpy(v, x, sizeof x);
}

/* appends the op that op_fields described (validated as any op) */
static mxsim_status op_append_fields(mxsim_ctx *ctx, mxsim_trace *tr, const char *name, const int64_t v[N_OP_FIELDS])
{
    mxsim_top op;
    memset(&op, 0, sizeof op);
    if (name) mx_snprintf(op.name, sizeof op.name, "%s", name);
    op.kind = (int32_t)v[0];
    op.m = v[1], op.n = v[2], op.k = v[3], op.group_size = v[4], op.repeat = v[5];
    op.a_fmt = (int32_t)v[6], op.b_fmt = (int32_t)v[7], op.out_fmt = (int32_t)v[8], op.line = (int32_t)v[9];
    op.conv_h = v[10], op.conv_w = v[11], op.conv_fh = v[12], op.conv_fw = v[13], op.conv_c = v[14], op.conv_s = v[15];
    mxsim_status st = mxsim_trace_append(ctx, tr, &op);
    const int64_t i = mxsim_trace_count(tr) - 1;
    if (st == MXSIM_OK && v[16] != MXSIM_ROLE_UNSET) st = mxsim_trace_set_b_role(ctx, tr, i, (mxsim_tensor_role)v[16]);
    if (st == MXSIM_OK && v[17] != 0) st = mxsim_trace_set_b_tensors(ctx, tr, i, v[17]);
    return st;
}

static void identity(wbuf sec[N_SECTIONS], const mxsim_sweep *sw, const mxsim_trace *tr, const mxsim_sweep_info *info)
{
    const mxsim_sweep_opts *o = info->opts;
    version_section(&sec[0]);
    put_str(&sec[1], mxsim_trace_source(tr));
    put_i64(&sec[1], mxsim_trace_count(tr));
    for (int64_t i = 0; i < mxsim_trace_count(tr); i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        char name[sizeof op->name + 1];
        memcpy(name, op->name, sizeof op->name);
        name[sizeof op->name] = '\0';
        put_str(&sec[1], name);
        int64_t v[N_OP_FIELDS];
        op_fields(tr, i, v);
        for (int j = 0; j < N_OP_FIELDS; j++) put_i64(&sec[1], v[j]);
    }
    /* the non-GEMM parameters: the memory footprint columns need them back */
    put_i64(&sec[1], mxsim_trace_param_count(tr));
    for (int64_t i = 0; i < mxsim_trace_param_count(tr); i++) {
        const char *pname = NULL, *why = NULL;
        int64_t elems = 0, count = 0;
        mxsim_trace_param(tr, i, &pname, &elems, &count, &why);
        put_str(&sec[1], pname);
        put_i64(&sec[1], elems);
        put_i64(&sec[1], count);
        put_str(&sec[1], why);
    }
    put(&sec[2], &sw->base, sizeof sw->base); /* int64_t and double members only: no padding */
    put_i64(&sec[3], sw->n_axes);
    for (int a = 0; a < sw->n_axes; a++) {
        put_str(&sec[3], sw->axes[a].key);
        put_i64(&sec[3], sw->axes[a].n);
        for (int v = 0; v < sw->axes[a].n; v++) put_str(&sec[3], sw->axes[a].vals[v]);
    }
    put_i64(&sec[4], o->accuracy);
    put_i64(&sec[4], o->acc.profile);
    put_i64(&sec[4], o->acc.acc);
    put_i64(&sec[4], o->acc.group_size);
    put_i64(&sec[4], o->acc.sample_rows);
    put_i64(&sec[4], o->acc.sample_cols);
    put_i64(&sec[4], (int64_t)o->acc.seed);
    put_str(&sec[4], o->acc.data_dir);
    put_i64(&sec[4], o->cost.node_nm);
    put_f64(&sec[4], o->cost.vdd_v);
    put_f64(&sec[4], o->cost.overhead_factor);
    put_i64(&sec[4], o->cost.sram_bank_kib);
    put_i64(&sec[4], o->strict_group);
    put_i64(&sec[4], o->profile);
    put_str(&sec[5], info->trace_path);
    put_str(&sec[5], info->config_path);
    /* the files the ops read, as accuracy.c names them (GEMM: NAME.a.npy, NAME.b.npy; else NAME.npy) */
    const int data = o->accuracy && o->acc.data_dir != NULL;
    int64_t n_files = 0;
    for (int64_t i = 0; data && i < mxsim_trace_count(tr); i++) n_files += mxsim_trace_op(tr, i)->kind == MXSIM_OP_GEMM ? 2 : 1;
    put_i64(&sec[6], n_files);
    for (int64_t i = 0; data && i < mxsim_trace_count(tr); i++) {
        const mxsim_top *op = mxsim_trace_op(tr, i);
        char name[sizeof op->name + 16];
        const int gemm = op->kind == MXSIM_OP_GEMM;
        for (int k = 0; k < (gemm ? 2 : 1); k++) {
            mx_snprintf(name, sizeof name, "%.*s%s.npy", (int)sizeof op->name, op->name, gemm ? (k ? ".b" : ".a") : "");
            put_data_file(&sec[6], o->acc.data_dir, name);
        }
    }
}

MXSIM_API mxsim_status mxsim_sweep_save_part(mxsim_ctx *ctx, const mxsim_sweep *sw, const mxsim_trace *tr,
                                             const mxsim_sweep_info *info, const char *path)
{
    mx_clear_err(ctx);
    if (sw == NULL || tr == NULL || info == NULL || info->opts == NULL || path == NULL)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_save_part: NULL argument");
    if (sw->shard_count < 1) return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_save_part: the sweep is not sharded");
    if (!sw->ran || sw->n_ops != mxsim_trace_count(tr))
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_save_part: the sweep has not run on this trace");
    wbuf sec[N_SECTIONS], b;
    memset(sec, 0, sizeof sec);
    memset(&b, 0, sizeof b);
    identity(sec, sw, tr, info);
    put(&b, PART_MAGIC, strlen(PART_MAGIC));
    uint32_t ver = PART_VERSION;
    put(&b, &ver, sizeof ver);
    for (int i = 0; i < N_SECTIONS; i++) put_section(&b, k_sections[i], &sec[i]);
    int64_t first, end, O = sw->n_ops;
    mx_sweep_slice(sw->n_points, sw->shard_index, sw->shard_count, &first, &end);
    put_i64(&b, sw->shard_index);
    put_i64(&b, sw->shard_count);
    put_i64(&b, first);
    put_i64(&b, end);
    for (int64_t i = first; i < end; i++) {
        mxsim_sweep_point pt = sw->pts[i];
        memset((void *)pt.values, 0, sizeof pt.values); /* pointers are rebuilt by merge */
        pt.op_stats = NULL;
        pt.op_energy = NULL;
        pt.op_acc = NULL;
        pt.op_group = NULL;
        put(&b, &pt, sizeof pt);
        put(&b, &sw->op_stats[i * O], (size_t)O * sizeof *sw->op_stats);
        put(&b, &sw->op_energy[i * O], (size_t)O * sizeof *sw->op_energy);
        put(&b, &sw->op_acc[i * O], (size_t)O * sizeof *sw->op_acc);
        put(&b, &sw->op_group[i * O], (size_t)O * sizeof *sw->op_group);
    }
    uint32_t crc = (uint32_t)crc32(0L, b.p, (uInt)0);
    for (size_t at = 0; !b.oom && at < b.n; at += 1u << 30) /* zlib's length is 32-bit */
        crc = (uint32_t)crc32(crc, b.p + at, (uInt)(b.n - at < (1u << 30) ? b.n - at : (1u << 30)));
    put(&b, &crc, sizeof crc);
    mxsim_status st = b.oom ? mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path) : mx_file_write(ctx, path, b.p, b.n);
    for (int i = 0; i < N_SECTIONS; i++) free(sec[i].p);
    free(b.p);
    return st;
}

/* ---- reading ---------------------------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t n, at;
    int bad;
} rbuf;

static const void *take(rbuf *r, size_t len)
{
    if (r->bad || len > r->n - r->at) {
        r->bad = 1;
        return NULL;
    }
    const void *q = r->p + r->at;
    r->at += len;
    return q;
}
static int64_t get_i64(rbuf *r)
{
    int64_t v = 0;
    const void *q = take(r, sizeof v);
    if (q) memcpy(&v, q, sizeof v);
    return v;
}
static double get_f64(rbuf *r)
{
    double v = 0;
    const void *q = take(r, sizeof v);
    if (q) memcpy(&v, q, sizeof v);
    return v;
}
/* A string as a malloc'd copy (NULL for a NULL string or on error; *err set on error). */
static char *get_str(rbuf *r, int *err)
{
    int64_t len = get_i64(r);
    if (r->bad || len < -1 || len > (int64_t)(r->n - r->at)) {
        r->bad = *err = 1;
        return NULL;
    }
    if (len < 0) return NULL;
    const char *q = take(r, (size_t)len);
    char *s = malloc((size_t)len + 1);
    if (s == NULL || q == NULL) {
        free(s);
        *err = 1;
        return NULL;
    }
    memcpy(s, q, (size_t)len);
    s[len] = '\0';
    return s;
}

typedef struct {
    const char *path;
    uint8_t *data;
    size_t len;
    rbuf sec[N_SECTIONS];
    int64_t index, count, first, end;
    size_t points_at; /* offset of the first point */
} part;

static mxsim_status parse_header(mxsim_ctx *ctx, part *pt)
{
    if (pt->len >= strlen(PART_MAGIC) + sizeof(uint32_t) && memcmp(pt->data, PART_MAGIC, strlen(PART_MAGIC)) == 0) {
        uint32_t want, crc = (uint32_t)crc32(0L, pt->data, (uInt)0);
        size_t n = pt->len - sizeof want;
        memcpy(&want, pt->data + n, sizeof want);
        for (size_t at = 0; at < n; at += 1u << 30)
            crc = (uint32_t)crc32(crc, pt->data + at, (uInt)(n - at < (1u << 30) ? n - at : (1u << 30)));
        if (crc != want)
            return mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (CRC-32 mismatch: truncated or modified)",
                           pt->path);
        pt->len = n; /* the checksum is not part of the records */
    }
    rbuf r = {pt->data, pt->len, 0, 0};
    const char *m = take(&r, strlen(PART_MAGIC));
    if (m == NULL || memcmp(m, PART_MAGIC, strlen(PART_MAGIC)) != 0)
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: not an mxsim sweep part file (written by mxsim sweep --shard I/N)",
                       pt->path);
    uint32_t ver = 0;
    const void *q = take(&r, sizeof ver);
    if (q) memcpy(&ver, q, sizeof ver);
    if (q && ver != PART_VERSION)
        return mx_fail(ctx, MXSIM_E_INPUT,
                       "%s: written by another mxsim build: part format version %u, this mxsim (build %s, git %s) "
                       "reads version %u",
                       pt->path, ver, MXSIM_BUILD_ID, MXSIM_BUILD_COMMIT, PART_VERSION);
    for (int i = 0; i < N_SECTIONS && !r.bad; i++) {
        int err = 0;
        char *name = get_str(&r, &err);
        int ok = name && strcmp(name, k_sections[i]) == 0;
        free(name);
        int64_t len = get_i64(&r);
        if (!ok || err || len < 0 || (uint64_t)len > r.n - r.at) {
            r.bad = 1;
            break;
        }
        pt->sec[i].p = take(&r, (size_t)len);
        pt->sec[i].n = (size_t)len;
    }
    pt->index = get_i64(&r);
    pt->count = get_i64(&r);
    pt->first = get_i64(&r);
    pt->end = get_i64(&r);
    pt->points_at = r.at;
    if (r.bad) return mx_fail(ctx, MXSIM_E_INPUT, "%s: truncated or corrupt part file", pt->path);
    return MXSIM_OK;
}

/* A "version" section: mxsim version, build identifier, commit (malloc'd) and struct sizes. */
typedef struct {
    char *ver, *id, *commit;
    int64_t sizes[N_SIZES];
} build_ident;

static int parse_build(rbuf r, build_ident *b) /* 0 if well formed */
{
    int err = 0;
    b->ver = get_str(&r, &err);
    b->id = get_str(&r, &err);
    b->commit = get_str(&r, &err);
    for (int i = 0; i < N_SIZES; i++) b->sizes[i] = get_i64(&r);
    return err || r.bad || r.at != r.n || b->ver == NULL || b->id == NULL || b->commit == NULL;
}

static void free_build(build_ident *b)
{
    free(b->ver);
    free(b->id);
    free(b->commit);
}

/* Refuses a part written by another mxsim build than this one, naming both.  The commit is shown,
** not compared: two commits with the same sources are one build. */
static mxsim_status check_build(mxsim_ctx *ctx, const part *p)
{
    wbuf own;
    memset(&own, 0, sizeof own);
    version_section(&own);
    build_ident t, m;
    memset(&t, 0, sizeof t);
    memset(&m, 0, sizeof m);
    const int own_bad = own.oom || parse_build((rbuf){own.p, own.n, 0, 0}, &m);
    const int bad = parse_build(p->sec[0], &t);
    mxsim_status st = MXSIM_OK;
    char theirs[256] = "", mine[256] = "";
    if (!bad && !own_bad) {
        mx_snprintf(theirs, sizeof theirs, "mxsim %.40s, build %.80s (git %.60s)", t.ver, t.id, t.commit);
        mx_snprintf(mine, sizeof mine, "mxsim %.40s, build %.80s (git %.60s)", m.ver, m.id, m.commit);
    }
    if (own_bad) st = mx_fail(ctx, MXSIM_E_NOMEM, "merge: out of memory");
    else if (bad) st = mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (section 'version')", p->path);
    else if (strcmp(t.ver, m.ver) != 0 || strcmp(t.id, m.id) != 0)
        st = mx_fail(ctx, MXSIM_E_INPUT,
                     "%s: written by another mxsim build: %s; this mxsim is %s (merge the parts with the mxsim "
                     "that wrote them, or rerun every shard with this one)",
                     p->path, theirs, mine);
    for (int i = 0; st == MXSIM_OK && i < N_SIZES; i++)
        if (t.sizes[i] != m.sizes[i])
            st = mx_fail(ctx, MXSIM_E_INPUT,
                         "%s: written by another mxsim build: its struct %s is %lld bytes, this mxsim's %lld (%s; "
                         "this mxsim is %s)",
                         p->path, k_size_names[i], (long long)t.sizes[i], (long long)m.sizes[i], theirs, mine);
    free_build(&t);
    free_build(&m);
    free(own.p);
    return st;
}

/* The "data" sections of parts a and b differ: names the first --data file that does. */
static mxsim_status data_differs(mxsim_ctx *ctx, const part *a, const part *b)
{
    rbuf ra = a->sec[6], rb = b->sec[6];
    int err = 0;
    int64_t na = get_i64(&ra), nb = get_i64(&rb);
    char what[200] = "the --data files";
    for (int64_t i = 0; i < na && i < nb && !err && !ra.bad && !rb.bad; i++) {
        char *fa = get_str(&ra, &err), *fb = get_str(&rb, &err);
        int64_t va[3], vb[3];
        for (int k = 0; k < 3; k++) va[k] = get_i64(&ra), vb[k] = get_i64(&rb);
        int same = fa && fb && !strcmp(fa, fb) && !memcmp(va, vb, sizeof va);
        if (!same && fa) {
            mx_snprintf(what, sizeof what, "the --data file %.120s (%s)", fa,
                     va[0] < 0 || vb[0] < 0 ? "present for one, absent for the other" : "its contents");
            free(fa);
            free(fb);
            break;
        }
        free(fa);
        free(fb);
    }
    return mx_fail(ctx, MXSIM_E_INPUT,
                   "%s: not a part of the same sweep as %s: %s differ between them (changed while the shards ran?)",
                   b->path, a->path, what);
}

static size_t point_bytes(int64_t n_ops)
{
    return sizeof(mxsim_sweep_point) + (size_t)n_ops * (sizeof(mxsim_tstats) + sizeof(mxsim_energy) +
                                                         sizeof(mxsim_accuracy) + sizeof(int64_t));
}

/* The first difference between the same section of two parts, named as a user names it: the
** walk reads both sections in step, item by item, and records the first item whose values differ. */
typedef struct {
    rbuf a, b;
    char name[200], va[120], vb[120]; /* the first differing item and its values in a and b */
    int found, err;
} diffwalk;

static int dw_go(const diffwalk *w) { return !w->found && !w->err && !w->a.bad && !w->b.bad; }
static void dw_set(diffwalk *w, const char *name, const char *va, const char *vb)
{
    mx_snprintf(w->name, sizeof w->name, "%s", name);
    mx_snprintf(w->va, sizeof w->va, "%s", va);
    mx_snprintf(w->vb, sizeof w->vb, "%s", vb);
    w->found = 1;
}
/* an integer item; returns part a's value (a count: the walk goes on over that many items) */
static int64_t dw_i64(diffwalk *w, const char *name)
{
    const int64_t x = get_i64(&w->a), y = get_i64(&w->b);
    if (dw_go(w) && x != y) {
        char va[32], vb[32];
        mx_snprintf(va, sizeof va, "%lld", (long long)x);
        mx_snprintf(vb, sizeof vb, "%lld", (long long)y);
        dw_set(w, name, va, vb);
    }
    return x;
}
/* a real option (0: the default, which the node gives) */
static void dw_f64(diffwalk *w, const char *name)
{
    const double x = get_f64(&w->a), y = get_f64(&w->b);
    if (dw_go(w) && memcmp(&x, &y, sizeof x) != 0) {
        char va[40], vb[40];
        dw_set(w, name, x == 0 ? "the default" : mx_fmt_real(x, va, sizeof va),
               y == 0 ? "the default" : mx_fmt_real(y, vb, sizeof vb));
    }
}
/* a string item; *out (if not NULL) gets part a's copy, else it is freed */
static void dw_str(diffwalk *w, const char *name, char **out)
{
    char *x = get_str(&w->a, &w->err), *y = get_str(&w->b, &w->err);
    if (dw_go(w) && ((x == NULL) != (y == NULL) || (x && y && strcmp(x, y) != 0))) {
        char va[120], vb[120];
        mx_snprintf(va, sizeof va, x ? "'%.100s'" : "none", x);
        mx_snprintf(vb, sizeof vb, y ? "'%.100s'" : "none", y);
        dw_set(w, name, va, vb);
    }
    if (out) *out = x;
    else free(x);
    free(y);
}

/* what differs in section s of parts a and b, first item first ("their axes differ" when no item
** does: a byte that no field shows) */
static void describe_diff(const part *a, const part *b, int s, char *out, size_t len)
{
    static const char *const opt_name[] = {"--no-accuracy", "the accuracy profile", "the accumulator",
                                           "the accuracy group size", "--sample-rows", "--sample-cols", "--seed",
                                           "--data", "--node", "--vdd", "--overhead", "--sram-bank-kib",
                                           "--strict-group", "--profile"};
    static const char *const sec_name[] = {"", "traces", "base configurations", "axes", "sweep options",
                                           "trace or config paths"};
    diffwalk w;
    memset(&w, 0, sizeof w);
    w.a = a->sec[s], w.b = b->sec[s];
    char name[160];
    if (s == 1) {
        dw_str(&w, "the trace source", NULL);
        const int64_t n = dw_i64(&w, "the op count");
        for (int64_t i = 0; i < n && dw_go(&w); i++) {
            char *op = NULL;
            mx_snprintf(name, sizeof name, "op %lld's name", (long long)i + 1);
            dw_str(&w, name, &op);
            for (size_t f = 0; f < N_OP_FIELDS && dw_go(&w); f++) {
                mx_snprintf(name, sizeof name, "op %lld ('%.63s') field %s", (long long)i + 1, op ? op : "", k_op_field[f]);
                dw_i64(&w, name);
            }
            free(op);
        }
        if (dw_go(&w)) dw_i64(&w, "the parameter count");
    } else if (s == 2 && a->sec[2].n == sizeof(mxsim_tconfig) && b->sec[2].n == sizeof(mxsim_tconfig)) {
        mxsim_tconfig ca, cb;
        memcpy(&ca, a->sec[2].p, sizeof ca);
        memcpy(&cb, b->sec[2].p, sizeof cb);
        for (int i = 0; i < mxsim_tconfig_field_count() && !w.found; i++) {
            char va[64], vb[64];
            mxsim_tconfig_format(&ca, i, va, sizeof va);
            mxsim_tconfig_format(&cb, i, vb, sizeof vb);
            if (strcmp(va, vb) != 0) {
                mx_snprintf(name, sizeof name, "the base configuration's %s", mxsim_tconfig_field_at(i)->name);
                dw_set(&w, name, va, vb);
            }
        }
    } else if (s == 3) {
        const int64_t n = dw_i64(&w, "the axis count");
        for (int64_t i = 0; i < n && dw_go(&w); i++) {
            char *key = NULL;
            mx_snprintf(name, sizeof name, "axis %lld's field", (long long)i + 1);
            dw_str(&w, name, &key);
            mx_snprintf(name, sizeof name, "the value count of axis %.63s", key ? key : "");
            const int64_t nv = dw_i64(&w, name);
            for (int64_t v = 0; v < nv && dw_go(&w); v++) {
                mx_snprintf(name, sizeof name, "value %lld of axis %.63s", (long long)v + 1, key ? key : "");
                dw_str(&w, name, NULL);
            }
            free(key);
        }
    } else if (s == 4) {
        for (size_t i = 0; i < sizeof opt_name / sizeof opt_name[0] && dw_go(&w); i++) {
            if (i == 7) {
                dw_str(&w, opt_name[i], NULL);
            } else if (i == 9 || i == 10) {
                dw_f64(&w, opt_name[i]);
            } else if (i == 0 || i == 12) { /* flags: accuracy is on without --no-accuracy */
                const int64_t x = get_i64(&w.a), y = get_i64(&w.b);
                if (dw_go(&w) && x != y) dw_set(&w, opt_name[i], (x != 0) == (i == 12) ? "given" : "not given",
                                                (y != 0) == (i == 12) ? "given" : "not given");
            } else if (i == 1 || i == 13) { /* profiles */
                const int64_t x = get_i64(&w.a), y = get_i64(&w.b);
                const char *nx = mxsim_profile_name((mxsim_profile)x), *ny = mxsim_profile_name((mxsim_profile)y);
                if (dw_go(&w) && x != y) dw_set(&w, opt_name[i], nx ? nx : "?", ny ? ny : "?");
            } else {
                dw_i64(&w, opt_name[i]);
            }
        }
    } else if (s == 5) {
        dw_str(&w, "the trace path", NULL);
        if (dw_go(&w)) dw_str(&w, "the configuration path", NULL);
    }
    if (w.found) mx_snprintf(out, len, "%s differs: %s in %s, %s here", w.name, w.va, a->path, w.vb);
    else mx_snprintf(out, len, "their %s differ", s >= 1 && s <= 5 ? sec_name[s] : "identities");
}

/* Rebuilds trace, sweep, options and paths from part p's identity.  Strings the options and info
** point to are malloc'd into keep[] (freed by the caller). */
static mxsim_status rebuild(mxsim_ctx *ctx, const part *p, mxsim_trace **tr, mxsim_sweep **sw, mxsim_sweep_opts *o,
                            mxsim_sweep_info *info, char *keep[3])
{
    const char *bad = NULL;
    int err = 0;
    rbuf r = p->sec[1];
    char *src = get_str(&r, &err);
    int64_t n_ops = get_i64(&r);
    mxsim_status st = err || r.bad ? MXSIM_E_INPUT : mxsim_trace_create(ctx, src ? src : p->path, tr);
    free(src);
    if (err || r.bad) bad = "trace";
    for (int64_t i = 0; st == MXSIM_OK && i < n_ops; i++) {
        char *name = get_str(&r, &err);
        int64_t v[N_OP_FIELDS];
        for (int j = 0; j < N_OP_FIELDS; j++) v[j] = get_i64(&r);
        if (err || r.bad) bad = "trace", st = MXSIM_E_INPUT;
        else st = op_append_fields(ctx, *tr, name, v);
        free(name);
    }
    int64_t n_params = st == MXSIM_OK ? get_i64(&r) : 0;
    if (st == MXSIM_OK && (err || r.bad || n_params < 0)) bad = "trace", st = MXSIM_E_INPUT;
    for (int64_t i = 0; st == MXSIM_OK && i < n_params; i++) {
        char *pname = get_str(&r, &err);
        int64_t elems = get_i64(&r), count = get_i64(&r);
        char *why = get_str(&r, &err);
        if (err || r.bad || pname == NULL || why == NULL) bad = "trace", st = MXSIM_E_INPUT;
        else st = mxsim_trace_add_param(ctx, *tr, pname, elems, count, why);
        free(pname);
        free(why);
    }
    mxsim_tconfig base;
    if (st == MXSIM_OK && p->sec[2].n != sizeof base) bad = "base", st = MXSIM_E_INPUT;
    if (st == MXSIM_OK) {
        memcpy(&base, p->sec[2].p, sizeof base);
        if (mx_tconfig_check_ranges(ctx, &base) != MXSIM_OK) bad = "base", st = MXSIM_E_INPUT;
        else st = mxsim_sweep_create(ctx, &base, sw);
    }
    r = p->sec[3];
    int64_t n_axes = st == MXSIM_OK ? get_i64(&r) : 0;
    for (int64_t a = 0; st == MXSIM_OK && a < n_axes; a++) {
        char *key = get_str(&r, &err);
        int64_t n = get_i64(&r);
        wbuf vals;
        memset(&vals, 0, sizeof vals);
        for (int64_t v = 0; v < n && !err && !r.bad; v++) {
            char *s = get_str(&r, &err);
            if (v) put(&vals, ",", 1);
            if (s) put(&vals, s, strlen(s));
            free(s);
        }
        put(&vals, "", 1);
        if (err || r.bad || key == NULL || vals.oom) bad = "axes", st = MXSIM_E_INPUT;
        else st = mxsim_sweep_add_axis(ctx, *sw, key, (const char *)vals.p);
        free(key);
        free(vals.p);
    }
    r = p->sec[4];
    mxsim_sweep_opts_default(o);
    if (st == MXSIM_OK) {
        o->accuracy = (int)get_i64(&r);
        o->acc.profile = (int32_t)get_i64(&r);
        o->acc.acc = (int32_t)get_i64(&r);
        o->acc.group_size = get_i64(&r);
        o->acc.sample_rows = get_i64(&r);
        o->acc.sample_cols = get_i64(&r);
        o->acc.seed = (uint64_t)get_i64(&r);
        o->acc.data_dir = keep[0] = get_str(&r, &err);
        o->cost.node_nm = (int)get_i64(&r);
        o->cost.vdd_v = get_f64(&r);
        o->cost.overhead_factor = get_f64(&r);
        o->cost.sram_bank_kib = get_i64(&r);
        o->strict_group = (int)get_i64(&r);
        o->profile = (int32_t)get_i64(&r);
        if (err || r.bad) bad = "options", st = MXSIM_E_INPUT;
    }
    /* The CRC finds damage, not an edited part with its CRC redone: every option within the range
    ** the sweep command accepts, as the per-point checks below rely on them. */
    mxsim_node_scale scale;
    if (st == MXSIM_OK &&
        ((o->accuracy != 0 && o->accuracy != 1) || (o->strict_group != 0 && o->strict_group != 1) ||
         mxsim_profile_name((mxsim_profile)o->profile) == NULL ||
         mxsim_profile_name((mxsim_profile)o->acc.profile) == NULL ||
         (o->acc.acc != MXSIM_ACC_FP32 && o->acc.acc != MXSIM_ACC_EXACT) || o->acc.group_size < 1 ||
         o->acc.group_size > MXSIM_MAX_GROUP || o->acc.sample_rows < 0 || o->acc.sample_cols < 0 ||
         mx_cost_params_check(ctx, "merge", &o->cost) != MXSIM_OK ||
         mxsim_node_scaling(ctx, o->cost.node_nm, o->cost.vdd_v, &scale) != MXSIM_OK))
        bad = "options", st = MXSIM_E_INPUT;
    r = p->sec[5];
    if (st == MXSIM_OK) {
        info->trace_path = keep[1] = get_str(&r, &err);
        info->config_path = keep[2] = get_str(&r, &err);
        info->opts = o;
        if (err || r.bad) bad = "paths", st = MXSIM_E_INPUT;
    }
    if (bad) return mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (section '%s')", p->path, bad);
    return st;
}

MXSIM_API mxsim_status mxsim_sweep_merge(mxsim_ctx *ctx, const char *const *paths, int n, mxsim_output_format f,
                                         const char *path, int64_t *n_failed)
{
    mx_clear_err(ctx);
    if (n_failed) *n_failed = 0;
    if (paths == NULL || path == NULL || n < 1)
        return mx_fail(ctx, MXSIM_E_ARG, "mxsim_sweep_merge: no part files");
    part *ps = mx_calloc((size_t)n, sizeof *ps);
    if (ps == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "merge: out of memory");
    mxsim_status st = MXSIM_OK;
    int *by_index = NULL;
    for (int i = 0; i < n && st == MXSIM_OK; i++) {
        ps[i].path = paths[i];
        st = mx_file_read(ctx, paths[i], (uint64_t)1 << 40, &ps[i].data, &ps[i].len);
        if (st == MXSIM_OK) st = parse_header(ctx, &ps[i]);
        if (st == MXSIM_OK) st = check_build(ctx, &ps[i]); /* every part against this build */
        for (int s = 1; st == MXSIM_OK && i > 0 && s < N_SECTIONS; s++)
            if (ps[i].sec[s].n != ps[0].sec[s].n || memcmp(ps[i].sec[s].p, ps[0].sec[s].p, ps[i].sec[s].n) != 0)
            {
                char what[400];
                if (s != 6) describe_diff(&ps[0], &ps[i], s, what, sizeof what);
                st = s == 6 ? data_differs(ctx, &ps[0], &ps[i])
                            : mx_fail(ctx, MXSIM_E_INPUT, "%s: not a part of the same sweep as %s: %s", paths[i],
                                      paths[0], what);
            }
        if (st == MXSIM_OK && i > 0 && ps[i].count != ps[0].count)
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: shard %lld/%lld, but %s is shard %lld/%lld: different shard counts",
                         paths[i], (long long)ps[i].index, (long long)ps[i].count, paths[0], (long long)ps[0].index,
                         (long long)ps[0].count);
    }
    mxsim_trace *tr = NULL;
    mxsim_sweep *sw = NULL;
    mxsim_sweep_opts o;
    mxsim_sweep_info info = {NULL, NULL, NULL};
    char *keep[3] = {NULL, NULL, NULL};
    if (st == MXSIM_OK) st = rebuild(ctx, &ps[0], &tr, &sw, &o, &info, keep);
    const int64_t count = ps[0].count, P = sw ? sw->n_points : 0, O = tr ? mxsim_trace_count(tr) : 0;
    if (st == MXSIM_OK && (count < 1 || count > MAX_POINTS))
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (shard count %lld)", paths[0], (long long)count);
    if (st == MXSIM_OK && (by_index = malloc((size_t)count * sizeof *by_index)) == NULL)
        st = mx_fail(ctx, MXSIM_E_NOMEM, "merge: out of memory");
    for (int64_t i = 0; st == MXSIM_OK && i < count; i++) by_index[i] = -1;
    for (int i = 0; st == MXSIM_OK && i < n; i++) {
        int64_t first = 0, end = 0;
        const int in_range = ps[i].index >= 0 && ps[i].index < count; /* before the slice: index * P */
        if (in_range) mx_sweep_slice(P, ps[i].index, count, &first, &end);
        if (!in_range || ps[i].first != first || ps[i].end != end ||
            ps[i].len - ps[i].points_at != (size_t)(end - first) * point_bytes(O))
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: truncated or corrupt part file (shard %lld/%lld)", paths[i],
                         (long long)ps[i].index, (long long)count);
        else if (by_index[ps[i].index] >= 0)
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s and %s are both shard %lld/%lld: give each shard once",
                         paths[by_index[ps[i].index]], paths[i], (long long)ps[i].index, (long long)count);
        else by_index[ps[i].index] = i;
    }
    if (st == MXSIM_OK) {
        int64_t missing = 0;
        char list[256] = "";
        for (int64_t i = 0; i < count; i++)
            if (by_index[i] < 0 && missing++ < 16) {
                size_t l = strlen(list);
                mx_snprintf(list + l, sizeof list - l, "%s%lld", l ? ", " : "", (long long)i);
            }
        if (missing)
            st = mx_fail(ctx, MXSIM_E_INPUT, "merge: %lld of %lld shards missing (index %s%s): every shard 0..%lld is needed",
                         (long long)missing, (long long)count, list, missing > 16 ? ", ..." : "", (long long)count - 1);
    }
    if (st == MXSIM_OK) {
        sw->n_ops = O;
        sw->pts = mx_calloc((size_t)P, sizeof *sw->pts);
        sw->op_stats = mx_calloc((size_t)(P * O), sizeof *sw->op_stats);
        sw->op_energy = mx_calloc((size_t)(P * O), sizeof *sw->op_energy);
        sw->op_acc = mx_calloc((size_t)(P * O), sizeof *sw->op_acc);
        sw->op_group = mx_calloc((size_t)(P * O), sizeof *sw->op_group);
        if (!sw->pts || !sw->op_stats || !sw->op_energy || !sw->op_acc || !sw->op_group)
            st = mx_fail(ctx, MXSIM_E_NOMEM, "merge: out of memory for %lld points x %lld ops", (long long)P,
                         (long long)O);
    }
    for (int64_t s = 0; st == MXSIM_OK && s < count; s++) {
        const part *p = &ps[by_index[s]];
        const uint8_t *q = p->data + p->points_at;
        for (int64_t i = p->first; i < p->end; i++) {
            mxsim_sweep_point *pt = &sw->pts[i];
            memcpy(pt, q, sizeof *pt);
            q += sizeof *pt;
            memcpy(&sw->op_stats[i * O], q, (size_t)O * sizeof *sw->op_stats);
            q += (size_t)O * sizeof *sw->op_stats;
            memcpy(&sw->op_energy[i * O], q, (size_t)O * sizeof *sw->op_energy);
            q += (size_t)O * sizeof *sw->op_energy;
            memcpy(&sw->op_acc[i * O], q, (size_t)O * sizeof *sw->op_acc);
            q += (size_t)O * sizeof *sw->op_acc;
            memcpy(&sw->op_group[i * O], q, (size_t)O * sizeof *sw->op_group);
            q += (size_t)O * sizeof *sw->op_group;
            pt->op_stats = &sw->op_stats[i * O];
            pt->op_energy = &sw->op_energy[i * O];
            pt->op_acc = &sw->op_acc[i * O];
            pt->op_group = &sw->op_group[i * O];
            int64_t rem = i;
            for (int a = sw->n_axes - 1; a >= 0; a--) {
                pt->values[a] = sw->axes[a].vals[rem % sw->axes[a].n];
                rem /= sw->axes[a].n;
            }
            /* a record must be the point its index names: same configuration and profile as a
            ** run builds (so enum values index their tables), a known status, a terminated text */
            mxsim_tconfig want;
            int32_t want_prof;
            mx_sweep_point_config(ctx, sw, i, o.profile, &want, &want_prof);
            pt->err[sizeof pt->err - 1] = '\0';
            if (memcmp(&want, &pt->cfg, sizeof want) != 0 || want_prof != pt->profile || pt->n_ops != O ||
                pt->status < 0 || pt->status >= MXSIM_STATUS_COUNT_) {
                st = mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (the record of point %lld)", p->path,
                             (long long)i);
                break;
            }
            /* each op's G is the trace's group= or the point's mx.group_size, as the run set it */
            for (int64_t k = 0; st == MXSIM_OK && k < O; k++) {
                const mxsim_top *op = mxsim_trace_op(tr, k);
                const int64_t g = op->group_size > 0 ? op->group_size : want.group_size;
                if (pt->op_group[k] != g && !(pt->op_group[k] == 0 && pt->status != MXSIM_OK)) /* a failed point stops early */
                    st = mx_fail(ctx, MXSIM_E_INPUT, "%s: corrupt part file (point %lld, op '%s': group %lld, expected %lld)",
                                 p->path, (long long)i, op->name, (long long)pt->op_group[k], (long long)g);
            }
            if (st != MXSIM_OK) break;
            if (pt->status != MXSIM_OK && n_failed) (*n_failed)++;
        }
    }
    if (st == MXSIM_OK) {
        sw->ran = 1;
        st = mxsim_sweep_save(ctx, sw, tr, &info, f, path);
    }
    mxsim_sweep_free(sw);
    mxsim_trace_free(tr);
    for (int i = 0; i < 3; i++) free(keep[i]);
    for (int i = 0; i < n; i++) free(ps[i].data);
    free(ps);
    free(by_index);
    return st;
}

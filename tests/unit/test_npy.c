/* test_npy.c - unit tests of the NumPy file I/O: .npy parsing and encoding, the .npz (ZIP)
** reader and writer, the MXINT8 .npz layout and the atomic file writer.
**
** Malformed inputs are hand-built here, byte by byte (a small independent .npy and ZIP builder
** below), rather than produced by the library's own writer, so that the reader is checked
** against a second implementation of the formats.  Every malformed case asserts both the
** status and a fragment of the message, because the message is what a user sees.
** Files go to $MXSIM_TEST_TMP (default ./tmp_test_npy), created if needed.
*/
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "mxsim.h"
#include "mxtest.h"
#include "npy.h"
#include "zipio.h"

/* ---- helpers ---------------------------------------------------------------------------- */

static char g_dir[1024];

static const char *tmp_dir(void)
{
    if (g_dir[0]) return g_dir;
    const char *d = getenv("MXSIM_TEST_TMP");
    snprintf(g_dir, sizeof g_dir, "%s", d && *d ? d : "tmp_test_npy");
    /* mkdir -p */
    char p[1024];
    snprintf(p, sizeof p, "%s", g_dir);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
    mkdir(p, 0755);
    return g_dir;
}

/* Returns "<tmp>/<name>" in one of a few rotating buffers. */
static const char *tpath(const char *name)
{
    static char bufs[8][1200];
    static int k;
    char *b = bufs[k++ & 7];
    snprintf(b, sizeof bufs[0], "%s/%s", tmp_dir(), name);
    return b;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
        exit(1);
    }
    if (len) fwrite(data, 1, len, f);
    fclose(f);
}

static uint8_t *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    *len = 0;
    if (f == NULL) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n + 1);
    *len = fread(b, 1, (size_t)n, f);
    fclose(f);
    return b;
}

static int exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static int contains(const uint8_t *hay, size_t n, const char *needle)
{
    size_t k = strlen(needle);
    for (size_t i = 0; i + k <= n; i++)
        if (memcmp(hay + i, needle, k) == 0) return 1;
    return 0;
}

/* Counts directory entries whose name contains `frag` (leftover temporaries). */
static int count_entries(const char *dir, const char *frag)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (d == NULL) return -1;
    for (struct dirent *e; (e = readdir(d)) != NULL;)
        if (strstr(e->d_name, frag)) n++;
    closedir(d);
    return n;
}

#define EXPECT_ERR(ctx, expr, want, frag)                                                        \
    do {                                                                                         \
        mxsim_status st_ = (expr);                                                               \
        const char *msg_ = mxsim_errmsg(ctx);                                                    \
        mxt_checks++;                                                                            \
        if (st_ != (want))                                                                       \
            MXT_FAILF("%s: status %s, expected %s (message: %s)", #expr, mxsim_strerror(st_),    \
                      mxsim_strerror(want), msg_);                                               \
        else if (strstr(msg_, frag) == NULL)                                                     \
            MXT_FAILF("%s: message '%s' lacks '%s'", #expr, msg_, frag);                         \
        else if (getenv("MXSIM_TEST_VERBOSE"))                                                   \
            printf("    [%s] %s\n", mxsim_strerror(st_), msg_);                                  \
    } while (0)

#define EXPECT_OK(ctx, expr)                                                                       \
    do {                                                                                           \
        mxsim_status st_ = (expr);                                                                 \
        mxt_checks++;                                                                              \
        if (st_ != MXSIM_OK)                                                                       \
            MXT_FAILF("%s: %s: %s", #expr, mxsim_strerror(st_), mxsim_errmsg(ctx));                \
    } while (0)

/* A .npy image: preamble of version `major`.0, the header text exactly as given plus '\n'
** (no padding: readers must not depend on it), then dlen data bytes. */
static uint8_t *npy_img(int major, const char *dict, const void *data, size_t dlen, size_t *len)
{
    size_t hl = strlen(dict) + 1, pre = major == 1 ? 10 : 12;
    uint8_t *b = malloc(pre + hl + dlen + 1);
    memcpy(b, "\x93NUMPY", 6);
    b[6] = (uint8_t)major;
    b[7] = 0;
    for (size_t i = 0; i < pre - 8; i++) b[8 + i] = (uint8_t)(hl >> (8 * i));
    memcpy(b + pre, dict, hl - 1);
    b[pre + hl - 1] = '\n';
    if (dlen) {
        if (data) memcpy(b + pre + hl, data, dlen);
        else memset(b + pre + hl, 0, dlen);
    }
    *len = pre + hl + dlen;
    return b;
}

/* ---- an independent ZIP builder -------------------------------------------------------- */

typedef struct {
    uint8_t *p;
    size_t n, cap;
} buf_t;

static void put(buf_t *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        b->cap = (b->n + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
    }
    if (n) memcpy(b->p + b->n, d, n);
    b->n += n;
}
static void put16(buf_t *b, uint32_t v)
{
    uint8_t x[2] = {(uint8_t)v, (uint8_t)(v >> 8)};
    put(b, x, 2);
}
static void put32(buf_t *b, uint32_t v)
{
    put16(b, v & 0xFFFF);
    put16(b, v >> 16);
}
static void put64(buf_t *b, uint64_t v)
{
    put32(b, (uint32_t)v);
    put32(b, (uint32_t)(v >> 32));
}

typedef struct {
    const char *name;
    const uint8_t *data;
    size_t len;
    int deflate;       /* method 8, raw deflate */
    int zip64_local;   /* local sizes 0xFFFFFFFF + ZIP64 extra, as numpy's force_zip64 */
    int zip64_central; /* central sizes/offset 0xFFFFFFFF + ZIP64 extra */
    uint32_t crc_xor;  /* corrupts the recorded CRC */
    int64_t usize;     /* declared uncompressed size; 0 = actual (use -2 to declare 0) */
    int64_t csize;     /* declared compressed size; 0 = actual */
    int64_t offset;    /* declared local header offset; 0 = actual */
    uint16_t flags;
    int method;        /* declared method; 0 = actual */
    int first_byte;    /* nonzero: overwrites the first byte of the (compressed) data */
} tz_member;

static uint8_t *raw_deflate(const uint8_t *d, size_t n, size_t *out)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    deflateInit2(&s, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    size_t cap = deflateBound(&s, n) + 16;
    uint8_t *o = malloc(cap);
    s.next_in = (Bytef *)(uintptr_t)d;
    s.avail_in = (uInt)n;
    s.next_out = o;
    s.avail_out = (uInt)cap;
    deflate(&s, Z_FINISH);
    *out = cap - s.avail_out;
    deflateEnd(&s);
    return o;
}

static uint8_t *tz_build(const tz_member *m, int n, int zip64_eocd, size_t *len)
{
    buf_t b = {0}, cd = {0};
    for (int i = 0; i < n; i++) {
        size_t clen;
        uint8_t *comp = NULL;
        const uint8_t *data = m[i].data;
        if (m[i].deflate) data = comp = raw_deflate(m[i].data, m[i].len, &clen);
        else clen = m[i].len;
        uint32_t crc = (uint32_t)crc32(0, m[i].data, (uInt)m[i].len) ^ m[i].crc_xor;
        uint64_t us = m[i].usize == -2 ? 0 : m[i].usize ? (uint64_t)m[i].usize : m[i].len;
        uint64_t cs = m[i].csize ? (uint64_t)m[i].csize : clen;
        uint64_t off = m[i].offset ? (uint64_t)m[i].offset : b.n;
        uint32_t method = m[i].method ? (uint32_t)m[i].method : m[i].deflate ? 8 : 0;
        uint32_t nl = (uint32_t)strlen(m[i].name);
        put32(&b, 0x04034b50);
        put16(&b, m[i].zip64_local ? 45 : 20);
        put16(&b, m[i].flags);
        put16(&b, method);
        put16(&b, 0);
        put16(&b, 0x21);
        put32(&b, crc);
        put32(&b, m[i].zip64_local ? 0xFFFFFFFFu : (uint32_t)cs);
        put32(&b, m[i].zip64_local ? 0xFFFFFFFFu : (uint32_t)us);
        put16(&b, nl);
        put16(&b, m[i].zip64_local ? 20 : 0);
        put(&b, m[i].name, nl);
        if (m[i].zip64_local) {
            put16(&b, 1);
            put16(&b, 16);
            put64(&b, us);
            put64(&b, cs);
        }
        size_t at = b.n;
        put(&b, data, clen);
        if (m[i].first_byte && clen) b.p[at] = (uint8_t)m[i].first_byte;
        free(comp);

        put32(&cd, 0x02014b50);
        put16(&cd, 0x031e);
        put16(&cd, 45);
        put16(&cd, m[i].flags);
        put16(&cd, method);
        put16(&cd, 0);
        put16(&cd, 0x21);
        put32(&cd, crc);
        put32(&cd, m[i].zip64_central ? 0xFFFFFFFFu : (uint32_t)cs);
        put32(&cd, m[i].zip64_central ? 0xFFFFFFFFu : (uint32_t)us);
        put16(&cd, nl);
        put16(&cd, m[i].zip64_central ? 28 : 0);
        put16(&cd, 0);
        put16(&cd, 0);
        put16(&cd, 0);
        put32(&cd, 0);
        put32(&cd, m[i].zip64_central ? 0xFFFFFFFFu : (uint32_t)off);
        put(&cd, m[i].name, nl);
        if (m[i].zip64_central) {
            put16(&cd, 1);
            put16(&cd, 24);
            put64(&cd, us);
            put64(&cd, cs);
            put64(&cd, off);
        }
    }
    uint64_t cd_off = b.n, cd_size = cd.n;
    put(&b, cd.p, cd.n);
    free(cd.p);
    if (zip64_eocd) {
        uint64_t rec = b.n;
        put32(&b, 0x06064b50);
        put64(&b, 44);
        put16(&b, 45);
        put16(&b, 45);
        put32(&b, 0);
        put32(&b, 0);
        put64(&b, (uint64_t)n);
        put64(&b, (uint64_t)n);
        put64(&b, cd_size);
        put64(&b, cd_off);
        put32(&b, 0x07064b50);
        put32(&b, 0);
        put64(&b, rec);
        put32(&b, 1);
    }
    put32(&b, 0x06054b50);
    put16(&b, 0);
    put16(&b, 0);
    put16(&b, zip64_eocd ? 0xFFFF : (uint32_t)n);
    put16(&b, zip64_eocd ? 0xFFFF : (uint32_t)n);
    put32(&b, zip64_eocd ? 0xFFFFFFFFu : (uint32_t)cd_size);
    put32(&b, zip64_eocd ? 0xFFFFFFFFu : (uint32_t)cd_off);
    put16(&b, 0);
    *len = b.n;
    return b.p;
}

/* The five members of a small valid MXINT8 .npz: mantissa (2, 8), scale (2, 2), G = 4,
** axis = 1, profile 'ocp'.  Images are malloc'd in img[] (freed by std_free). */
typedef struct {
    uint8_t *img[6];
    size_t len[6];
    tz_member m[6];
    int8_t mant[16];
    uint8_t scale[4];
} std_npz;

static const char *const k_std_names[5] = {"mantissa.npy", "scale.npy", "group_size.npy",
                                           "axis.npy", "profile.npy"};

static void std_init(std_npz *s)
{
    memset(s, 0, sizeof *s);
    for (int i = 0; i < 16; i++) s->mant[i] = (int8_t)(i * 17 - 128);
    for (int i = 0; i < 4; i++) s->scale[i] = (uint8_t)(120 + i);
    int64_t g = 4, ax = 1;
    uint8_t prof[12] = {'o', 0, 0, 0, 'c', 0, 0, 0, 'p', 0, 0, 0};
    s->img[0] = npy_img(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 8), }", s->mant,
                        16, &s->len[0]);
    s->img[1] = npy_img(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 2), }", s->scale,
                        4, &s->len[1]);
    s->img[2] = npy_img(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }", &g, 8,
                        &s->len[2]);
    s->img[3] = npy_img(1, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }", &ax, 8,
                        &s->len[3]);
    s->img[4] = npy_img(1, "{'descr': '<U3', 'fortran_order': False, 'shape': (), }", prof, 12,
                        &s->len[4]);
    for (int i = 0; i < 5; i++) {
        s->m[i].name = k_std_names[i];
        s->m[i].data = s->img[i];
        s->m[i].len = s->len[i];
    }
}

/* Replaces member i's image with a hand-built one (takes ownership). */
static void std_set(std_npz *s, int i, uint8_t *img, size_t len)
{
    free(s->img[i]);
    s->img[i] = img;
    s->len[i] = len;
    s->m[i].data = img;
    s->m[i].len = len;
}

/* Replaces member i with a hand-built .npy image. */
static void std_set_npy(std_npz *s, int i, const char *dict, const void *data, size_t dlen)
{
    size_t len;
    uint8_t *img = npy_img(1, dict, data, dlen, &len);
    std_set(s, i, img, len);
}

static void std_free(std_npz *s)
{
    for (int i = 0; i < 6; i++) free(s->img[i]);
}

/* Builds the archive from s (first n members), writes it to name, returns the path. */
static const char *std_write(std_npz *s, int n, int zip64_eocd, const char *name)
{
    size_t len;
    uint8_t *z = tz_build(s->m, n, zip64_eocd, &len);
    const char *p = tpath(name);
    write_file(p, z, len);
    free(z);
    return p;
}

/* ---- .npy round trips ------------------------------------------------------------------- */

MXTEST(npy_roundtrip_every_dtype_and_rank)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    static const int64_t shapes[3][3] = {{0}, {5}, {2, 3, 4}};
    static const int ndims[3] = {0, 1, 3};
    static const char *const descr[MXSIM_DTYPE_COUNT_] = {"'<f4'", "'<u2'", "'|i1'",
                                                          "'|u1'", "'<u2'", "'<i8'", "'<i4'"};
    for (int dt = 0; dt < MXSIM_DTYPE_COUNT_; dt++)
        for (int s = 0; s < 3; s++) {
            mxsim_tensor *t = NULL, *back = NULL;
            EXPECT_OK(ctx, mxsim_tensor_create(ctx, (mxsim_dtype)dt, ndims[s], shapes[s], &t));
            if (t == NULL) continue;
            size_t nb = (size_t)mxsim_tensor_numel(t) * mxsim_dtype_size((mxsim_dtype)dt);
            uint8_t *d = mxsim_tensor_data(t);
            for (size_t i = 0; i < nb; i++) d[i] = (uint8_t)(i * 37 + (size_t)dt * 11 + 1);
            char name[64];
            snprintf(name, sizeof name, "rt_%d_%d.npy", dt, s);
            const char *p = tpath(name);
            EXPECT_OK(ctx, mxsim_tensor_save_npy(ctx, t, p));
            EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, p, &back));
            if (back != NULL) {
                mxsim_dtype want = dt == MXSIM_DTYPE_BF16 ? MXSIM_DTYPE_U16 : (mxsim_dtype)dt;
                MXT_EQ_INT(mxsim_tensor_dtype(back), want);
                MXT_EQ_INT(mxsim_tensor_ndim(back), ndims[s]);
                for (int k = 0; k < ndims[s]; k++)
                    MXT_EQ_INT(mxsim_tensor_shape(back)[k], shapes[s][k]);
                MXT_TRUE(memcmp(mxsim_tensor_cdata(back), d, nb) == 0);
            }
            /* Layout as NumPy writes it: v1.0, 64-byte aligned data, '\n' ends the header. */
            size_t flen;
            uint8_t *f = read_whole(p, &flen);
            MXT_TRUE(f != NULL && flen >= 10);
            if (f != NULL && flen >= 10) {
                size_t hl = (size_t)f[8] | (size_t)f[9] << 8;
                MXT_EQ_INT(f[6], 1);
                MXT_EQ_INT((10 + hl) % 64, 0);
                MXT_EQ_INT(flen, 10 + hl + nb);
                MXT_EQ_INT(f[10 + hl - 1], '\n');
                char *h = malloc(hl + 1);
                memcpy(h, f + 10, hl);
                h[hl] = '\0';
                MXT_TRUE(strstr(h, descr[dt]) != NULL);
                MXT_TRUE(strstr(h, "'fortran_order': False") != NULL);
                MXT_TRUE(strstr(h, ndims[s] == 0   ? "'shape': ()"
                                   : ndims[s] == 1 ? "'shape': (5,)"
                                                   : "'shape': (2, 3, 4)"));
                free(h);
            }
            free(f);
            mxsim_tensor_free(t);
            mxsim_tensor_free(back);
        }
    mxsim_ctx_destroy(ctx);
}

MXTEST(npy_zero_size_and_overwrite)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    int64_t shape[2] = {0, 7};
    mxsim_tensor *t = NULL, *back = NULL;
    EXPECT_OK(ctx, mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 2, shape, &t));
    const char *p = tpath("zero.npy");
    write_file(p, "old contents", 12);
    chmod(p, 0600);
    EXPECT_OK(ctx, mxsim_tensor_save_npy(ctx, t, p));
    EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, p, &back));
    MXT_TRUE(back != NULL && mxsim_tensor_numel(back) == 0 && mxsim_tensor_shape(back)[1] == 7);
    struct stat sb;
    MXT_TRUE(stat(p, &sb) == 0 && (sb.st_mode & 0777) == 0600); /* replacing keeps the mode */
    mxsim_tensor_free(t);
    mxsim_tensor_free(back);
    mxsim_ctx_destroy(ctx);
}

MXTEST(npy_reads_versions_2_and_3)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    int16_t v[3] = {1, -2, 300};
    uint16_t u[3];
    memcpy(u, v, sizeof u);
    for (int major = 2; major <= 3; major++) {
        size_t len;
        uint8_t *img = npy_img(major, "{'descr': '<u2', 'fortran_order': False, 'shape': (3,), }",
                               u, 6, &len);
        const char *p = tpath("v23.npy");
        write_file(p, img, len);
        mxsim_tensor *t = NULL;
        EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, p, &t));
        if (t) {
            MXT_EQ_INT(mxsim_tensor_dtype(t), MXSIM_DTYPE_U16);
            MXT_TRUE(memcmp(mxsim_tensor_cdata(t), u, 6) == 0);
        }
        mxsim_tensor_free(t);
        free(img);
    }
    mxsim_ctx_destroy(ctx);
}

MXTEST(npy_reads_big_endian)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    size_t len;
    mxsim_tensor *t = NULL;
    const uint8_t f4[8] = {0x3f, 0x80, 0x00, 0x00, 0xc0, 0x49, 0x0f, 0xdb}; /* 1, -pi */
    uint8_t *img = npy_img(1, "{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", f4, 8,
                           &len);
    write_file(tpath("be_f4.npy"), img, len);
    free(img);
    EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, tpath("be_f4.npy"), &t));
    if (t) {
        const float *x = mxsim_tensor_cdata(t);
        MXT_EQ_F32(x[0], 1.0f);
        MXT_EQ_F32(x[1], -3.14159274f);
    }
    mxsim_tensor_free(t);

    const uint8_t u2[4] = {0x12, 0x34, 0xff, 0x00};
    img = npy_img(1, "{'descr': '>u2', 'fortran_order': False, 'shape': (2,), }", u2, 4, &len);
    write_file(tpath("be_u2.npy"), img, len);
    free(img);
    EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, tpath("be_u2.npy"), &t));
    if (t) {
        const uint16_t *x = mxsim_tensor_cdata(t);
        MXT_EQ_HEX(x[0], 0x1234);
        MXT_EQ_HEX(x[1], 0xff00);
    }
    mxsim_tensor_free(t);

    const uint8_t i8[8] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe}; /* -2, 0-d */
    img = npy_img(1, "{'descr': '>i8', 'fortran_order': False, 'shape': (), }", i8, 8, &len);
    write_file(tpath("be_i8.npy"), img, len);
    free(img);
    EXPECT_OK(ctx, mxsim_tensor_load_npy(ctx, tpath("be_i8.npy"), &t));
    if (t) {
        MXT_EQ_INT(mxsim_tensor_ndim(t), 0);
        MXT_EQ_INT(*(const int64_t *)mxsim_tensor_cdata(t), -2);
    }
    mxsim_tensor_free(t);
    mxsim_ctx_destroy(ctx);
}

MXTEST(npy_header_variants)
{
    static const struct {
        const char *dict;
        mxsim_dtype dtype;
        int ndim;
        int64_t d0, d1;
    } cases[] = {
        {"{\"shape\": (2, 3), \"descr\": \"<f4\", \"fortran_order\": False}", MXSIM_DTYPE_F32, 2, 2,
         3},
        {"{ 'descr' : '<f4' ,'fortran_order':False,'shape':( 2 , 3 , ) , }   ", MXSIM_DTYPE_F32, 2,
         2, 3},
        {"{'descr': '<i1', 'fortran_order': False, 'shape': (6L,), }", MXSIM_DTYPE_I8, 1, 6, 0},
        {"{'fortran_order': True, 'shape': (1, 6), 'descr': '|u1'}", MXSIM_DTYPE_U8, 2, 1, 6},
        {"{'descr': '|i1',\n 'fortran_order': False,\n 'shape': (3, 2),\n}\t\t", MXSIM_DTYPE_I8, 2,
         3, 2},
    };
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len, dl = 6 * mxsim_dtype_size(cases[i].dtype);
        uint8_t *img = npy_img(1, cases[i].dict, NULL, dl, &len);
        mxsim_tensor *t = NULL;
        EXPECT_OK(ctx, mx_npy_decode(ctx, "variant", img, len, &t));
        if (t) {
            MXT_EQ_INT(mxsim_tensor_dtype(t), cases[i].dtype);
            MXT_EQ_INT(mxsim_tensor_ndim(t), cases[i].ndim);
            MXT_EQ_INT(mxsim_tensor_shape(t)[0], cases[i].d0);
            if (cases[i].ndim > 1) MXT_EQ_INT(mxsim_tensor_shape(t)[1], cases[i].d1);
        }
        mxsim_tensor_free(t);
        free(img);
    }
    mxsim_ctx_destroy(ctx);
}

/* ---- malformed .npy --------------------------------------------------------------------- */

MXTEST(npy_malformed_catalogue)
{
    static const struct {
        const char *dict; /* NULL: use raw[] */
        int major;
        size_t dlen;
        mxsim_status st;
        const char *frag;
    } cases[] = {
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 1, 20, MXSIM_E_FORMAT,
         "truncated: header declares 24 bytes of data, file holds 20"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", 1, 28, MXSIM_E_FORMAT,
         "trailing data: header declares 24 bytes of data, file holds 28"},
        {"'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)", 1, 24, MXSIM_E_FORMAT,
         "expected '{' to open the header dict"},
        {"{'descr': '<f4', 'fortran_order': False}", 1, 4, MXSIM_E_FORMAT, "missing key 'shape'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'foo': 1}", 1, 4,
         MXSIM_E_FORMAT, "unexpected key 'foo'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}", 1, 4,
         MXSIM_E_FORMAT, "'descr': key repeated"},
        {"{'descr': '<f4', 'fortran_order': 0, 'shape': (1,)}", 1, 4, MXSIM_E_FORMAT,
         "'fortran_order': expected True or False"},
        {"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (1,)}", 1, 4, MXSIM_E_FORMAT,
         "'fortran_order': expected True or False"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}", 1, 24, MXSIM_E_FORMAT,
         "expected '(' to open the 'shape' tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", 1, 12, MXSIM_E_FORMAT,
         "is not a tuple"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3 4)}", 1, 48, MXSIM_E_FORMAT,
         "expected ',' or ')' after dimension 0"},
        {"{'descr' '<f4', 'fortran_order': False, 'shape': (3,)}", 1, 12, MXSIM_E_FORMAT,
         "expected ':' after a key, found '''"},
        {"{'descr': '<f4, 'fortran_order': False, 'shape': (3,)}", 1, 12, MXSIM_E_FORMAT,
         "expected ',' or '}' after a dict entry, found 'f'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x}", 1, 12, MXSIM_E_FORMAT,
         "key: unterminated string"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)", 1, 12, MXSIM_E_FORMAT,
         "expected ',' or '}' after a dict entry"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}", 1, 12, MXSIM_E_FORMAT,
         "expected ',' or '}' after a dict entry"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x", 1, 12, MXSIM_E_FORMAT,
         "unexpected 'x' at offset"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'd\xc3\xa9': 1}", 1, 12,
         MXSIM_E_FORMAT, "unexpected key"},
        {"{'descr': '<f8', 'fortran_order': False, 'shape': (3,)}", 1, 24, MXSIM_E_UNSUPPORTED,
         "'descr': dtype '<f8' is not supported"},
        {"{'descr': 'zz', 'fortran_order': False, 'shape': (3,)}", 1, 24, MXSIM_E_UNSUPPORTED,
         "dtype 'zz' is not supported"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}", 1, 12,
         MXSIM_E_UNSUPPORTED, "structured dtypes"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3)}", 1, 24, MXSIM_E_UNSUPPORTED,
         "'fortran_order': True is not supported for shape (2, 3)"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 3)}", 1, 0, MXSIM_E_FORMAT,
         "'shape': negative dimension 0"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", 1, 0,
         MXSIM_E_LIMIT, "dimension 0 does not fit a 64-bit integer"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", 1, 0,
         MXSIM_E_LIMIT, "element count overflows"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (100000, 100000, 10)}", 1, 0,
         MXSIM_E_LIMIT, "exceeds the 64 GiB tensor limit"},
        {"{'descr': '|u1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1)}", 1, 1,
         MXSIM_E_LIMIT, "more than 8 dimensions"},
        {"{'descr': '<U3', 'fortran_order': False, 'shape': ()}", 1, 12, MXSIM_E_UNSUPPORTED,
         "is a string array"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 4, 12, MXSIM_E_UNSUPPORTED,
         "version 4.0 is not supported"},
    };
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        size_t len;
        uint8_t *img = npy_img(cases[i].major, cases[i].dict, NULL, cases[i].dlen, &len);
        char name[64];
        snprintf(name, sizeof name, "bad_%zu.npy", i);
        const char *p = tpath(name);
        write_file(p, img, len);
        free(img);
        mxsim_tensor *t = (mxsim_tensor *)&t; /* must come back NULL */
        EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, p, &t), cases[i].st, cases[i].frag);
        MXT_TRUE(t == NULL);
        /* The message names the file. */
        MXT_TRUE(strstr(mxsim_errmsg(ctx), p) == mxsim_errmsg(ctx));
    }

    /* Byte-level damage to the preamble. */
    static const struct {
        const char *bytes;
        size_t len;
        mxsim_status st;
        const char *frag;
    } raw[] = {
        {"", 0, MXSIM_E_FORMAT, "empty file (0 bytes)"},
        {"\x93NUMPZ\x01\x00\x10\x00", 10, MXSIM_E_FORMAT, "bad magic"},
        {"PK\x03\x04", 4, MXSIM_E_FORMAT, "bad magic"},
        {"\x93NUM", 4, MXSIM_E_FORMAT, "ends inside the .npy preamble"},
        {"\x93NUMPY\x02\x00\x10", 9, MXSIM_E_FORMAT, "ends inside the .npy preamble"},
        {"\x93NUMPY\x01\x00\x40\x00{'descr'", 17, MXSIM_E_FORMAT,
         "header length field says 64 bytes, file holds 7"},
        {"\x93NUMPY\x01\x01\x00\x00", 10, MXSIM_E_UNSUPPORTED, "version 1.1"},
    };
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++) {
        const char *p = tpath("raw.npy");
        write_file(p, raw[i].bytes, raw[i].len);
        mxsim_tensor *t = NULL;
        EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, p, &t), raw[i].st, raw[i].frag);
        MXT_TRUE(t == NULL);
    }
    mxsim_ctx_destroy(ctx);
}

MXTEST(input_path_errors)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_tensor *t = NULL;
    mxsim_mx *mx = NULL;
    /* Paths that name no regular file are the user's mistake (CLI exit 2), not I/O failures. */
    EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, tmp_dir(), &t), MXSIM_E_INPUT,
               "is a directory, expected a regular file");
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, tmp_dir(), &mx), MXSIM_E_INPUT, "is a directory");
    EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, "/dev/null", &t), MXSIM_E_INPUT,
               "/dev/null: is a character device");
    EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, tpath("no_such_file.npy"), &t), MXSIM_E_INPUT,
               "no_such_file.npy: cannot open: No such file or directory");
    write_file(tpath("plain_file"), "x", 1);
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, tpath("plain_file/x.npz"), &mx), MXSIM_E_INPUT,
               "Not a directory");
    EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, "", &t), MXSIM_E_ARG, "empty");
    EXPECT_ERR(ctx, mxsim_tensor_load_npy(ctx, NULL, &t), MXSIM_E_ARG, "NULL");
    EXPECT_ERR(ctx, mxsim_tensor_save_npy(ctx, NULL, "x.npy"), MXSIM_E_ARG, "NULL");
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, "x", NULL), MXSIM_E_ARG, "NULL");
    EXPECT_ERR(ctx, mxsim_mx_save(ctx, NULL, "x", 0), MXSIM_E_ARG, "NULL");
    MXT_TRUE(t == NULL && mx == NULL);
    mxsim_ctx_destroy(ctx);
}

/* ---- strings ---------------------------------------------------------------------------- */

MXTEST(npy_strings)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    uint8_t *img;
    size_t len;
    char *s = NULL;
    EXPECT_OK(ctx, mx_npy_encode_string(ctx, "enc", "mase-cuda", &img, &len));
    MXT_EQ_INT(len % 64, 36 % 64); /* 64-byte header + 9 UCS-4 units */
    MXT_TRUE(contains(img, len, "'descr': '<U9'"));
    MXT_TRUE(contains(img, len, "'shape': ()"));
    EXPECT_OK(ctx, mx_npy_decode_string(ctx, "dec", img, len, &s));
    MXT_TRUE(s && strcmp(s, "mase-cuda") == 0);
    free(s);
    free(img);

    /* '|S', big-endian '>U', NUL padding, non-ASCII code points. */
    img = npy_img(1, "{'descr': '|S6', 'fortran_order': False, 'shape': ()}", "mase\0\0", 6, &len);
    EXPECT_OK(ctx, mx_npy_decode_string(ctx, "S", img, len, &s));
    MXT_TRUE(s && strcmp(s, "mase") == 0);
    free(s);
    free(img);
    const uint8_t be[12] = {0, 0, 0, 'o', 0, 0, 0, 0xE9, 0, 1, 0xF6, 0x00};
    img = npy_img(1, "{'descr': '>U3', 'fortran_order': False, 'shape': ()}", be, 12, &len);
    EXPECT_OK(ctx, mx_npy_decode_string(ctx, "BE", img, len, &s));
    MXT_TRUE(s && strcmp(s, "o\xc3\xa9\xf0\x9f\x98\x80") == 0);
    free(s);
    free(img);

    const uint8_t nul[12] = {'a', 0, 0, 0, 0, 0, 0, 0, 'b', 0, 0, 0};
    img = npy_img(1, "{'descr': '<U3', 'fortran_order': False, 'shape': ()}", nul, 12, &len);
    EXPECT_ERR(ctx, mx_npy_decode_string(ctx, "f.npz: member 'profile'", img, len, &s),
               MXSIM_E_FORMAT, "f.npz: member 'profile': string: embedded NUL");
    free(img);
    const uint8_t bad[4] = {0, 0xD8, 0, 0};
    img = npy_img(1, "{'descr': '<U1', 'fortran_order': False, 'shape': ()}", bad, 4, &len);
    EXPECT_ERR(ctx, mx_npy_decode_string(ctx, "x", img, len, &s), MXSIM_E_FORMAT,
               "invalid code point 0xd800");
    free(img);
    img = npy_img(1, "{'descr': '<U1', 'fortran_order': False, 'shape': (2,)}", "a\0\0\0b\0\0\0",
                  8, &len);
    EXPECT_ERR(ctx, mx_npy_decode_string(ctx, "x", img, len, &s), MXSIM_E_INPUT,
               "shape (2,), expected a single string");
    free(img);
    img = npy_img(1, "{'descr': '<U99999999999999', 'fortran_order': False, 'shape': ()}", NULL, 0,
                  &len);
    EXPECT_ERR(ctx, mx_npy_decode_string(ctx, "x", img, len, &s), MXSIM_E_LIMIT,
               "longer than");
    free(img);
    MXT_TRUE(s == NULL);
    mxsim_ctx_destroy(ctx);
}

/* ---- .npz ------------------------------------------------------------------------------- */

static mxsim_mx *make_mx(mxsim_ctx *ctx, mxsim_profile p, int64_t rows, int64_t cols, int64_t g,
                         int zeros)
{
    int64_t ms[2] = {rows, cols}, ss[2] = {rows, cols / g};
    mxsim_tensor *m, *s;
    mxsim_mx *mx = NULL;
    mxsim_tensor_create(ctx, MXSIM_DTYPE_I8, 2, ms, &m);
    mxsim_tensor_create(ctx, MXSIM_DTYPE_U8, 2, ss, &s);
    int8_t *md = mxsim_tensor_data(m);
    uint8_t *sd = mxsim_tensor_data(s);
    for (int64_t i = 0; i < rows * cols; i++) md[i] = zeros ? 0 : (int8_t)(i * 7 + 3);
    for (int64_t i = 0; i < rows * cols / g; i++) sd[i] = (uint8_t)(100 + i % 50);
    mxsim_mx_create(ctx, m, s, g, 1, p, &mx);
    mxsim_tensor_free(m);
    mxsim_tensor_free(s);
    return mx;
}

static int same_mx(const mxsim_mx *a, const mxsim_mx *b)
{
    const mxsim_tensor *ma = mxsim_mx_mantissa(a), *mb = mxsim_mx_mantissa(b);
    const mxsim_tensor *sa = mxsim_mx_scale(a), *sb = mxsim_mx_scale(b);
    if (mxsim_mx_group_size(a) != mxsim_mx_group_size(b) || mxsim_mx_axis(a) != mxsim_mx_axis(b) ||
        mxsim_mx_profile(a) != mxsim_mx_profile(b))
        return 0;
    if (mxsim_tensor_ndim(ma) != mxsim_tensor_ndim(mb) ||
        mxsim_tensor_ndim(sa) != mxsim_tensor_ndim(sb))
        return 0;
    for (int i = 0; i < mxsim_tensor_ndim(ma); i++)
        if (mxsim_tensor_shape(ma)[i] != mxsim_tensor_shape(mb)[i] ||
            mxsim_tensor_shape(sa)[i] != mxsim_tensor_shape(sb)[i])
            return 0;
    return memcmp(mxsim_tensor_cdata(ma), mxsim_tensor_cdata(mb), (size_t)mxsim_tensor_numel(ma)) ==
               0 &&
           memcmp(mxsim_tensor_cdata(sa), mxsim_tensor_cdata(sb), (size_t)mxsim_tensor_numel(sa)) ==
               0;
}

MXTEST(npz_roundtrip_stored_and_deflated)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    for (int p = 0; p < MXSIM_PROFILE_COUNT_; p++)
        for (int compress = 0; compress <= 1; compress++) {
            mxsim_mx *mx = make_mx(ctx, (mxsim_profile)p, 6, 64, 32, 0), *back = NULL;
            MXT_TRUE(mx != NULL);
            if (mx == NULL) continue;
            const char *path = tpath(compress ? "rt_deflate.npz" : "rt_stored.npz");
            EXPECT_OK(ctx, mxsim_mx_save(ctx, mx, path, compress));
            EXPECT_OK(ctx, mxsim_mx_load(ctx, path, &back));
            MXT_TRUE(back != NULL && same_mx(mx, back));
            /* Identical inputs give identical bytes (fixed timestamps). */
            size_t l1, l2;
            uint8_t *f1 = read_whole(path, &l1);
            EXPECT_OK(ctx, mxsim_mx_save(ctx, back, path, compress));
            uint8_t *f2 = read_whole(path, &l2);
            MXT_TRUE(f1 && f2 && l1 == l2 && memcmp(f1, f2, l1) == 0);
            MXT_TRUE(f1 && memcmp(f1, "PK\x03\x04", 4) == 0);
            /* Our writer's output is readable through the plain zip interface too. */
            mx_zip z;
            EXPECT_OK(ctx, mx_zip_open(ctx, path, f1, l1, &z));
            MXT_EQ_INT(z.n_entries, 5);
            for (size_t i = 0; i < z.n_entries && i < 5; i++) {
                MXT_EQ_INT(z.entries[i].method, compress ? 8 : 0);
                MXT_TRUE(mx_zip_find(&z, k_std_names[i]) == &z.entries[i]);
            }
            mx_zip_close(&z);
            free(f1);
            free(f2);
            mxsim_mx_free(mx);
            mxsim_mx_free(back);
        }
    /* Deflate pays off on compressible data. */
    mxsim_mx *zeros = make_mx(ctx, MXSIM_PROFILE_OCP, 64, 256, 32, 1);
    size_t ls, ld;
    EXPECT_OK(ctx, mxsim_mx_save(ctx, zeros, tpath("z_stored.npz"), 0));
    EXPECT_OK(ctx, mxsim_mx_save(ctx, zeros, tpath("z_deflate.npz"), 1));
    free(read_whole(tpath("z_stored.npz"), &ls));
    free(read_whole(tpath("z_deflate.npz"), &ld));
    MXT_TRUE(ld * 4 < ls);
    mxsim_mx_free(zeros);
    mxsim_ctx_destroy(ctx);
}

MXTEST(npz_reads_numpy_style_archives)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    for (int variant = 0; variant < 4; variant++) {
        std_npz s;
        std_init(&s);
        for (int i = 0; i < 5; i++) {
            s.m[i].zip64_local = variant != 0;   /* numpy: force_zip64 local headers */
            s.m[i].zip64_central = variant >= 2; /* huge archives: ZIP64 central fields */
            s.m[i].deflate = variant & 1;        /* savez_compressed */
        }
        if (variant == 3) {
            /* names without ".npy", profile as bytes, group_size as a 0-d uint8 */
            static const char *const plain[5] = {"mantissa", "scale", "group_size", "axis",
                                                 "profile"};
            for (int i = 0; i < 5; i++) s.m[i].name = plain[i];
            uint8_t g = 4;
            std_set_npy(&s, 2, "{'descr': '|u1', 'fortran_order': False, 'shape': ()}", &g, 1);
            std_set_npy(&s, 4, "{'descr': '|S4', 'fortran_order': False, 'shape': ()}", "mase", 4);
        }
        const char *p = std_write(&s, 5, variant >= 2, "numpy_style.npz");
        mxsim_mx *mx = NULL;
        EXPECT_OK(ctx, mxsim_mx_load(ctx, p, &mx));
        if (mx) {
            MXT_EQ_INT(mxsim_mx_group_size(mx), 4);
            MXT_EQ_INT(mxsim_mx_axis(mx), 1);
            MXT_EQ_INT(mxsim_mx_profile(mx), variant == 3 ? MXSIM_PROFILE_MASE : MXSIM_PROFILE_OCP);
            MXT_TRUE(memcmp(mxsim_tensor_cdata(mxsim_mx_mantissa(mx)), s.mant, 16) == 0);
            MXT_TRUE(memcmp(mxsim_tensor_cdata(mxsim_mx_scale(mx)), s.scale, 4) == 0);
            MXT_EQ_INT(mxsim_tensor_shape(mxsim_mx_scale(mx))[1], 2);
        }
        mxsim_mx_free(mx);
        std_free(&s);
    }
    mxsim_ctx_destroy(ctx);
}

/* Each case damages one thing in the standard archive. */
MXTEST(npz_malformed_catalogue)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    mxsim_mx *mx = NULL;
    std_npz s;
    const char *p;

#define NPZ_CASE(setup, n, z64, want, frag)                                 \
    do {                                                                    \
        std_init(&s);                                                       \
        setup;                                                              \
        p = std_write(&s, n, z64, "bad.npz");                               \
        mx = (mxsim_mx *)&mx;                                               \
        EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), want, frag);            \
        MXT_TRUE(mx == NULL);                                               \
        MXT_TRUE(strstr(mxsim_errmsg(ctx), p) == mxsim_errmsg(ctx));        \
        std_free(&s);                                                       \
    } while (0)

    /* container damage */
    NPZ_CASE(s.m[1].crc_xor = 1, 5, 0, MXSIM_E_FORMAT, "member 'scale': CRC-32 mismatch");
    NPZ_CASE((s.m[0].crc_xor = 0x100, s.m[0].deflate = 1), 5, 0, MXSIM_E_FORMAT,
             "member 'mantissa': CRC-32 mismatch");
    NPZ_CASE((s.m[0].usize = 5000, s.m[0].csize = 5000), 5, 0, MXSIM_E_FORMAT,
             "member 'mantissa': data (5000 bytes at offset");
    NPZ_CASE((s.m[0].usize = 5000, s.m[0].csize = 5000, s.m[0].zip64_central = 1), 5, 1,
             MXSIM_E_FORMAT, "extends beyond the member data area");
    NPZ_CASE(s.m[2].offset = 1000000, 5, 0, MXSIM_E_FORMAT,
             "member 'group_size': local header offset 1000000 lies outside");
    NPZ_CASE(s.m[2].offset = 3, 5, 0, MXSIM_E_FORMAT, "bad local header signature");
    NPZ_CASE(s.m[1].flags = 1, 5, 0, MXSIM_E_UNSUPPORTED, "member 'scale': encrypted");
    NPZ_CASE(s.m[1].method = 12, 5, 0, MXSIM_E_UNSUPPORTED, "compression method 12");
    NPZ_CASE(s.m[1].usize = 3, 5, 0, MXSIM_E_FORMAT,
             "stored, but compressed size 74 differs from size 3");
    NPZ_CASE((s.m[4].name = "mantissa"), 5, 0, MXSIM_E_FORMAT,
             "member 'mantissa': appears more than once");
    NPZ_CASE((s.m[0].deflate = 1, s.m[0].zip64_central = 1, s.m[0].usize = (int64_t)1 << 50), 5, 0,
             MXSIM_E_LIMIT, "member 'mantissa': uncompressed size 1125899906842624 bytes exceeds");
    NPZ_CASE((s.m[0].deflate = 1, s.m[0].usize = 50), 5, 0, MXSIM_E_FORMAT,
             "inflates to more than the declared 50 bytes");
    NPZ_CASE((s.m[0].deflate = 1, s.m[0].usize = 500), 5, 0, MXSIM_E_FORMAT,
             "bytes, the directory declares 500");
    NPZ_CASE((s.m[0].deflate = 1, s.m[0].csize = 10), 5, 0, MXSIM_E_FORMAT,
             "compressed data ends before the deflate stream does");
    NPZ_CASE((s.m[0].deflate = 1, s.m[0].first_byte = 0xFF), 5, 0, MXSIM_E_FORMAT,
             "member 'mantissa': corrupt deflate data (invalid block type)");

    /* MXINT8 layout errors */
    NPZ_CASE((void)0, 4, 0, MXSIM_E_FORMAT, "member 'profile' is missing");
    NPZ_CASE((s.m[5].name = "extra.npy", s.m[5].data = s.img[2], s.m[5].len = s.len[2]), 6, 0,
             MXSIM_E_FORMAT, "member 'extra': unexpected member");
    NPZ_CASE(
        std_set_npy(&s, 0, "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 8)}", NULL, 16),
        5, 0, MXSIM_E_INPUT, "mantissa: dtype uint8 '|u1', expected int8 '|i1'");
    NPZ_CASE(
        std_set_npy(&s, 1, "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3)}", NULL, 6), 5,
        0, MXSIM_E_INPUT, "scale: shape (2, 3) does not match mantissa shape (2, 8)");
    int64_t three = 3, nine = 9, big = (int64_t)1 << 40;
    NPZ_CASE(std_set_npy(&s, 2, "{'descr': '<i8', 'fortran_order': False, 'shape': ()}", &three, 8),
             5, 0, MXSIM_E_INPUT, "group_size=3 does not divide axis 1 of length 8");
    NPZ_CASE(std_set_npy(&s, 2, "{'descr': '<i8', 'fortran_order': False, 'shape': ()}", &big, 8),
             5, 0, MXSIM_E_INPUT, "group_size=1099511627776: must be 1..65536");
    NPZ_CASE(std_set_npy(&s, 3, "{'descr': '<i8', 'fortran_order': False, 'shape': ()}", &nine, 8),
             5, 0, MXSIM_E_INPUT, "axis=9: out of range");
    NPZ_CASE(std_set_npy(&s, 2, "{'descr': '<f4', 'fortran_order': False, 'shape': ()}", NULL, 4),
             5, 0, MXSIM_E_INPUT, "member 'group_size': dtype '<f4', expected a 0-d integer array");
    NPZ_CASE(std_set_npy(&s, 2, "{'descr': '<f8', 'fortran_order': False, 'shape': ()}", NULL, 8),
             5, 0, MXSIM_E_UNSUPPORTED,
             "member 'group_size': header: 'descr': dtype '<f8' is not supported");
    NPZ_CASE(
        std_set_npy(&s, 3, "{'descr': '<U1', 'fortran_order': False, 'shape': ()}", "1\0\0\0", 4),
        5, 0, MXSIM_E_INPUT, "member 'axis': dtype '<U1', expected a 0-d integer array");
    NPZ_CASE(
        std_set_npy(&s, 2, "{'descr': '<i8', 'fortran_order': False, 'shape': (2,)}", NULL, 16), 5,
        0, MXSIM_E_INPUT, "member 'group_size': shape (2,), expected a 0-d integer array");
    NPZ_CASE(std_set_npy(&s, 4, "{'descr': '<U3', 'fortran_order': False, 'shape': ()}",
                         "f\0\0\0o\0\0\0o\0\0\0", 12),
             5, 0, MXSIM_E_INPUT, "member 'profile': unknown profile 'foo'");
    NPZ_CASE(std_set_npy(&s, 4, "{'descr': '<i8', 'fortran_order': False, 'shape': ()}", NULL, 8),
             5, 0, MXSIM_E_INPUT, "member 'profile': dtype '<i8', expected a string");
    NPZ_CASE(
        std_set_npy(&s, 0, "{'descr': '|i1', 'fortran_order': False, 'shape': (2, 8)}", NULL, 15),
        5, 0, MXSIM_E_FORMAT,
        "member 'mantissa': truncated: header declares 16 bytes of data, file holds 15");
    NPZ_CASE(
        std_set_npy(&s, 1, "{'descr': '|u1', 'fortran_order': True, 'shape': (2, 2)}", NULL, 4), 5,
        0, MXSIM_E_UNSUPPORTED, "member 'scale': header: 'fortran_order': True");
#undef NPZ_CASE

    /* Whole-file damage: truncation, no EOCD, empty, not a zip. */
    std_init(&s);
    size_t zl;
    uint8_t *z = tz_build(s.m, 5, 0, &zl);
    p = tpath("cut.npz");
    static const size_t cuts[] = {10, 21, 100};
    for (size_t i = 0; i < 3; i++) {
        write_file(p, z, zl - cuts[i]);
        EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT,
                   "end of central directory record not found");
    }
    /* Member data cut out of the middle: the directory now points past the data. */
    uint8_t *holed = malloc(zl);
    memcpy(holed, z, 40);
    memcpy(holed + 40, z + 50, zl - 50);
    write_file(p, holed, zl - 10);
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT, "truncated or corrupt");
    /* One flipped byte in the mantissa data. */
    memcpy(holed, z, zl);
    holed[s.len[0] - 1 + 30 + strlen("mantissa.npy")] ^= 0x40;
    write_file(p, holed, zl);
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT,
               "member 'mantissa': CRC-32 mismatch");
    free(holed);
    free(z);
    std_free(&s);
    write_file(p, "", 0);
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT, "empty file");
    size_t nl;
    uint8_t *npy = npy_img(1, "{'descr': '|u1', 'fortran_order': False, 'shape': (40,)}", NULL,
                           40, &nl);
    write_file(p, npy, nl);
    free(npy);
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT,
               "end of central directory record not found");
    MXT_TRUE(mx == NULL);
    mxsim_ctx_destroy(ctx);
}

MXTEST(npz_empty_archive)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    const char *p = tpath("empty.zip");
    EXPECT_OK(ctx, mx_zip_write(ctx, p, NULL, 0, 1));
    size_t len;
    uint8_t *img = read_whole(p, &len);
    MXT_EQ_INT(len, 22);
    mx_zip z;
    EXPECT_OK(ctx, mx_zip_open(ctx, p, img, len, &z));
    MXT_EQ_INT(z.n_entries, 0);
    MXT_TRUE(mx_zip_find(&z, "x") == NULL);
    mx_zip_close(&z);
    free(img);
    mxsim_mx *mx = NULL;
    EXPECT_ERR(ctx, mxsim_mx_load(ctx, p, &mx), MXSIM_E_FORMAT, "member 'mantissa' is missing");
    mxsim_ctx_destroy(ctx);
}

/* ---- atomic writes ---------------------------------------------------------------------- */

MXTEST(failed_saves_leave_nothing_behind)
{
    mxsim_ctx *ctx;
    mxsim_ctx_create(&ctx);
    int64_t shape[1] = {4};
    mxsim_tensor *t = NULL;
    mxsim_tensor_create(ctx, MXSIM_DTYPE_F32, 1, shape, &t);
    mxsim_mx *mx = make_mx(ctx, MXSIM_PROFILE_MASE, 2, 32, 32, 0);

    const char *nodir = tpath("no_such_dir/out.npy");
    EXPECT_ERR(ctx, mxsim_tensor_save_npy(ctx, t, nodir), MXSIM_E_IO,
               "cannot create a temporary file in its directory: No such file or directory");
    MXT_TRUE(!exists(nodir));
    EXPECT_ERR(ctx, mxsim_mx_save(ctx, mx, tpath("no_such_dir/out.npz"), 1), MXSIM_E_IO,
               "no_such_dir/out.npz: cannot create a temporary file");

    /* The destination is a directory: refused before any temporary file is made, and none is
    ** left afterwards. */
    char sub[1200];
    snprintf(sub, sizeof sub, "%s", tpath("a_dir"));
    mkdir(sub, 0755);
    char inner[1300];
    snprintf(inner, sizeof inner, "%s/keep", sub);
    mkdir(inner, 0755); /* non-empty, so rename cannot replace it */
    int before = count_entries(tmp_dir(), ".tmp.");
    EXPECT_ERR(ctx, mxsim_tensor_save_npy(ctx, t, sub), MXSIM_E_IO, "is a directory");
    EXPECT_ERR(ctx, mxsim_mx_save(ctx, mx, sub, 0), MXSIM_E_IO, "a_dir: is a directory");
    MXT_EQ_INT(count_entries(tmp_dir(), ".tmp."), before);
    MXT_EQ_INT(before, 0);
    EXPECT_ERR(ctx, mxsim_tensor_save_npy(ctx, t, tpath("trailing/")), MXSIM_E_IO,
               "names a directory");

    /* Permission-denied directories only bind non-root users. */
    if (geteuid() != 0) {
        char ro[1200];
        snprintf(ro, sizeof ro, "%s", tpath("ro_dir"));
        mkdir(ro, 0755);
        chmod(ro, 0555);
        char out[1300];
        snprintf(out, sizeof out, "%s/x.npy", ro);
        EXPECT_ERR(ctx, mxsim_tensor_save_npy(ctx, t, out), MXSIM_E_IO, "Permission denied");
        MXT_EQ_INT(count_entries(ro, ""), 2); /* . and .. */
        chmod(ro, 0755);
    }
    mxsim_tensor_free(t);
    mxsim_mx_free(mx);
    mxsim_ctx_destroy(ctx);
}

MXTEST_MAIN()

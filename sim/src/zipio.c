/* zipio.c - a minimal ZIP reader and writer for NumPy .npz archives, on zlib.
**
** Reader: the End Of Central Directory record is searched backwards over the last 64 KiB + 22
** bytes (the longest possible comment) and must end exactly at the end of the file; a ZIP64
** locator just before it switches to the ZIP64 end record (NumPy writes members with
** force_zip64, and large archives need it).  The central directory is the authority for names,
** methods, sizes and CRCs; ZIP64 extra fields supply the 64-bit values of any field that reads
** 0xFFFFFFFF.  Local headers are only used to find where each member's data starts (their size
** fields may be 0xFFFFFFFF or zero when a data descriptor follows, so they are not trusted).
**
** Invariants established by mx_zip_open, before anything is extracted: every member's data
** range [data_offset, data_offset + csize) lies inside the image and before the central
** directory; stored members have csize == usize; no two members share a name; no member is
** encrypted or uses a method other than stored/deflate.  mx_zip_extract compares the declared
** uncompressed size with the caller's limit before allocating, never writes past it while
** inflating, and verifies both the produced size and the CRC-32.
**
** Writer: plain (non-ZIP64) archives, local header + data per member, then the central
** directory and the EOCD record, all handed to mx_file_write_parts for an atomic write.
*/
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "fileio.h"
#include "zipio.h"

#define SIG_LOCAL 0x04034b50u
#define SIG_CENTRAL 0x02014b50u
#define SIG_EOCD 0x06054b50u
#define SIG_EOCD64 0x06064b50u
#define SIG_EOCD64_LOC 0x07064b50u
#define EOCD_LEN 22
#define EOCD64_LEN 56
#define EOCD64_LOC_LEN 20
#define CENTRAL_LEN 46
#define LOCAL_LEN 30
/* Duplicate detection is quadratic; an .npz for mxsim holds five members. */
#define MAX_MEMBERS 4096
/* Largest expansion of a deflate stream: 258 output bytes per 2 input bits. */
#define DEFLATE_MAX_RATIO 1032
/* zlib counts in uInt: feed it at most this much per call. */
#define ZCHUNK ((uint64_t)1 << 30)

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t rd64(const uint8_t *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }
static void wr16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void wr32(uint8_t *p, uint32_t v)
{
    wr16(p, v & 0xFFFF);
    wr16(p + 2, v >> 16);
}

static uint32_t crc32_of(const uint8_t *p, uint64_t n)
{
    uLong c = crc32(0L, Z_NULL, 0);
    while (n > 0) {
        uInt k = (uInt)(n < ZCHUNK ? n : ZCHUNK);
        c = crc32(c, p, k);
        p += k;
        n -= k;
    }
    return (uint32_t)c;
}

void mx_zip_close(mx_zip *z)
{
    if (z == NULL) return;
    for (size_t i = 0; i < z->n_entries; i++) free(z->entries[i].name);
    free(z->entries);
    z->entries = NULL;
    z->n_entries = 0;
}

/* Reads the ZIP64 extra field (id 0x0001) of a central header: it holds, in this order, only
** those of usize, csize and the local offset whose 32-bit field is 0xFFFFFFFF. */
static mxsim_status read_zip64_extra(mxsim_ctx *ctx, const char *path, const char *name,
                                     const uint8_t *x, size_t xlen, mx_zip_entry *e, int need_u,
                                     int need_c, int need_o)
{
    size_t i = 0;
    while (i + 4 <= xlen) {
        uint16_t id = rd16(x + i), sz = rd16(x + i + 2);
        if (i + 4 + sz > xlen) break;
        if (id == 0x0001) {
            const uint8_t *f = x + i + 4;
            size_t need = 8u * (size_t)(need_u + need_c + need_o), k = 0;
            if (sz < need)
                return mx_fail(ctx, MXSIM_E_FORMAT,
                               "%s: member '%s': ZIP64 extra field has %u bytes, needs %zu", path,
                               name, (unsigned)sz, need);
            if (need_u) e->usize = rd64(f + 8 * k++);
            if (need_c) e->csize = rd64(f + 8 * k++);
            if (need_o) e->local_offset = rd64(f + 8 * k++);
            return MXSIM_OK;
        }
        i += 4 + (size_t)sz;
    }
    if (need_u || need_c || need_o)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': sizes are 0xFFFFFFFF but the ZIP64 extra field is missing",
                       path, name);
    return MXSIM_OK;
}

/* Locates the EOCD and returns the central directory's offset, size and entry count. */
static mxsim_status find_directory(mxsim_ctx *ctx, const char *path, const uint8_t *img, size_t len,
                                   uint64_t *cd_off, uint64_t *cd_size, uint64_t *count,
                                   uint64_t *cd_limit)
{
    if (len == 0) return mx_fail(ctx, MXSIM_E_FORMAT, "%s: empty file (0 bytes), expected a .npz "
                                 "(ZIP) archive", path);
    size_t pos = SIZE_MAX;
    if (len >= EOCD_LEN) {
        size_t lo = len - EOCD_LEN > 65535 ? len - EOCD_LEN - 65535 : 0;
        for (size_t p = len - EOCD_LEN + 1; p-- > lo;)
            if (rd32(img + p) == SIG_EOCD && p + EOCD_LEN + rd16(img + p + 20) == len) {
                pos = p;
                break;
            }
    }
    if (pos == SIZE_MAX)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: end of central directory record not found: not a ZIP/.npz archive, or "
                       "truncated",
                       path);
    const uint8_t *e = img + pos;
    uint32_t disk = rd16(e + 4), cd_disk = rd16(e + 6);
    uint64_t n_disk = rd16(e + 8), n_total = rd16(e + 10);
    *cd_size = rd32(e + 12);
    *cd_off = rd32(e + 16);
    *cd_limit = pos;
    if (pos >= EOCD64_LOC_LEN && rd32(img + pos - EOCD64_LOC_LEN) == SIG_EOCD64_LOC) {
        const uint8_t *l = img + pos - EOCD64_LOC_LEN;
        uint64_t off = rd64(l + 8);
        if (rd32(l + 4) != 0 || rd32(l + 16) != 1)
            return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                           "%s: multi-disk (split) ZIP archives are not supported", path);
        if (off > pos - EOCD64_LOC_LEN || pos - EOCD64_LOC_LEN - off < EOCD64_LEN ||
            rd32(img + off) != SIG_EOCD64)
            return mx_fail(ctx, MXSIM_E_FORMAT,
                           "%s: ZIP64 end of central directory record not found at offset %llu",
                           path, (unsigned long long)off);
        const uint8_t *r = img + off;
        disk = rd32(r + 16);
        cd_disk = rd32(r + 20);
        n_disk = rd64(r + 24);
        n_total = rd64(r + 32);
        *cd_size = rd64(r + 40);
        *cd_off = rd64(r + 48);
        *cd_limit = off;
    }
    if (disk != 0 || cd_disk != 0 || n_disk != n_total)
        return mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                       "%s: multi-disk (split) ZIP archives are not supported", path);
    if (*cd_off > *cd_limit || *cd_size > *cd_limit - *cd_off)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: central directory (%llu bytes at offset %llu) runs past offset %llu "
                       "where the end record starts: truncated or corrupt",
                       path, (unsigned long long)*cd_size, (unsigned long long)*cd_off,
                       (unsigned long long)*cd_limit);
    if (n_total > *cd_size / CENTRAL_LEN)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: central directory of %llu bytes cannot hold %llu members", path,
                       (unsigned long long)*cd_size, (unsigned long long)n_total);
    if (n_total > MAX_MEMBERS)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: %llu members, at most %d are supported", path,
                       (unsigned long long)n_total, MAX_MEMBERS);
    *count = n_total;
    return MXSIM_OK;
}

/* Validates one member's local header and data range; sets e->data_offset. */
static mxsim_status check_local(mxsim_ctx *ctx, const char *path, const uint8_t *img,
                                uint64_t cd_off, const uint8_t *cname, size_t cname_len,
                                mx_zip_entry *e)
{
    if (e->local_offset > cd_off || cd_off - e->local_offset < LOCAL_LEN)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': local header offset %llu lies outside the archive data",
                       path, e->name, (unsigned long long)e->local_offset);
    const uint8_t *l = img + e->local_offset;
    if (rd32(l) != SIG_LOCAL)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: member '%s': bad local header signature at offset "
                       "%llu", path, e->name, (unsigned long long)e->local_offset);
    uint64_t nlen = rd16(l + 26), xlen = rd16(l + 28);
    uint64_t start = e->local_offset + LOCAL_LEN + nlen + xlen;
    if (start > cd_off)
        return mx_fail(ctx, MXSIM_E_FORMAT, "%s: member '%s': local header runs past the member "
                       "data area: truncated or corrupt", path, e->name);
    if (nlen != cname_len || memcmp(l + LOCAL_LEN, cname, cname_len) != 0)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': local header name differs from the central directory",
                       path, e->name);
    if (e->csize > cd_off - start)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': data (%llu bytes at offset %llu) extends beyond the "
                       "member data area (%llu bytes): truncated or corrupt",
                       path, e->name, (unsigned long long)e->csize, (unsigned long long)start,
                       (unsigned long long)cd_off);
    e->data_offset = start;
    return MXSIM_OK;
}

mxsim_status mx_zip_open(mxsim_ctx *ctx, const char *path, const uint8_t *img, size_t len,
                         mx_zip *z)
{
    uint64_t cd_off = 0, cd_size = 0, count = 0, cd_limit = 0;
    memset(z, 0, sizeof *z);
    z->path = path;
    z->img = img;
    z->len = len;
    mxsim_status st = find_directory(ctx, path, img, len, &cd_off, &cd_size, &count, &cd_limit);
    if (st != MXSIM_OK) return st;
    z->cd_offset = cd_off;
    z->entries = calloc(count ? count : 1, sizeof *z->entries);
    if (z->entries == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);

    uint64_t cur = cd_off, cd_end = cd_off + cd_size;
    for (uint64_t i = 0; i < count; i++) {
        if (cd_end - cur < CENTRAL_LEN || rd32(img + cur) != SIG_CENTRAL) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: central directory entry %llu: bad signature or truncated", path,
                         (unsigned long long)i);
            goto fail;
        }
        const uint8_t *c = img + cur;
        uint64_t nlen = rd16(c + 28), xlen = rd16(c + 30), clen = rd16(c + 32);
        if (cd_end - cur - CENTRAL_LEN < nlen + xlen + clen) {
            st = mx_fail(ctx, MXSIM_E_FORMAT, "%s: central directory entry %llu: truncated", path,
                         (unsigned long long)i);
            goto fail;
        }
        const uint8_t *cname = c + CENTRAL_LEN;
        if (nlen == 0 || memchr(cname, 0, nlen) != NULL) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: central directory entry %llu: empty name or NUL in name", path,
                         (unsigned long long)i);
            goto fail;
        }
        mx_zip_entry *e = &z->entries[z->n_entries];
        size_t keep = (size_t)nlen;
        if (keep > 4 && memcmp(cname + keep - 4, ".npy", 4) == 0) keep -= 4;
        e->name = malloc(keep + 1);
        if (e->name == NULL) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
            goto fail;
        }
        memcpy(e->name, cname, keep);
        e->name[keep] = '\0';
        z->n_entries++;
        e->flags = rd16(c + 8);
        e->method = rd16(c + 10);
        e->crc = rd32(c + 16);
        e->csize = rd32(c + 20);
        e->usize = rd32(c + 24);
        e->local_offset = rd32(c + 42);
        if (rd16(c + 34) != 0 && rd16(c + 34) != 0xFFFF) {
            st =
                mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                        "%s: member '%s': lives on another disk of a split archive", path, e->name);
            goto fail;
        }
        st = read_zip64_extra(ctx, path, e->name, cname + nlen, (size_t)xlen, e,
                              e->usize == 0xFFFFFFFFu, e->csize == 0xFFFFFFFFu,
                              e->local_offset == 0xFFFFFFFFu);
        if (st != MXSIM_OK) goto fail;
        if (e->flags & (1u | 1u << 6)) {
            st = mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                         "%s: member '%s': encrypted members are not supported", path, e->name);
            goto fail;
        }
        if (e->method != 0 && e->method != 8) {
            st = mx_fail(ctx, MXSIM_E_UNSUPPORTED,
                         "%s: member '%s': compression method %u is not supported (only stored "
                         "and deflate)",
                         path, e->name, (unsigned)e->method);
            goto fail;
        }
        if (e->method == 0 && e->csize != e->usize) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: member '%s': stored, but compressed size %llu differs from size %llu",
                         path, e->name, (unsigned long long)e->csize,
                         (unsigned long long)e->usize);
            goto fail;
        }
        for (size_t j = 0; j + 1 < z->n_entries; j++)
            if (strcmp(z->entries[j].name, e->name) == 0) {
                st = mx_fail(ctx, MXSIM_E_FORMAT, "%s: member '%s': appears more than once", path,
                             e->name);
                goto fail;
            }
        st = check_local(ctx, path, img, cd_off, cname, (size_t)nlen, e);
        if (st != MXSIM_OK) goto fail;
        cur += CENTRAL_LEN + nlen + xlen + clen;
    }
    return MXSIM_OK;
fail:
    mx_zip_close(z);
    return st;
}

const mx_zip_entry *mx_zip_find(const mx_zip *z, const char *name)
{
    size_t n = strlen(name);
    if (n > 4 && strcmp(name + n - 4, ".npy") == 0) n -= 4;
    for (size_t i = 0; i < z->n_entries; i++)
        if (strncmp(z->entries[i].name, name, n) == 0 && z->entries[i].name[n] == '\0')
            return &z->entries[i];
    return NULL;
}

static mxsim_status inflate_member(mxsim_ctx *ctx, const mx_zip *z, const mx_zip_entry *e,
                                   uint8_t *out)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    if (inflateInit2(&s, -MAX_WBITS) != Z_OK) /* raw deflate: no zlib header in ZIP */
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: member '%s': cannot initialise zlib", z->path,
                       e->name);
    const uint8_t *in = z->img + e->data_offset;
    uint64_t in_left = e->csize, out_left = e->usize;
    mxsim_status st = MXSIM_OK;
    s.next_out = out;
    for (;;) {
        if (s.avail_in == 0 && in_left > 0) {
            uInt k = (uInt)(in_left < ZCHUNK ? in_left : ZCHUNK);
            s.next_in = (Bytef *)(uintptr_t)in; /* zlib's API is not const-correct */
            s.avail_in = k;
            in += k;
            in_left -= k;
        }
        if (s.avail_out == 0 && out_left > 0) {
            uInt k = (uInt)(out_left < ZCHUNK ? out_left : ZCHUNK);
            s.avail_out = k;
            out_left -= k;
        }
        int r = inflate(&s, Z_NO_FLUSH);
        if (r == Z_STREAM_END) break;
        if (r == Z_OK) continue;
        /* No progress possible: either the output is full (the stream is longer than the
        ** directory says) or the input ran out before the end-of-stream code. */
        if (r == Z_BUF_ERROR && s.avail_out == 0 && out_left == 0) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: member '%s': inflates to more than the declared %llu bytes", z->path,
                         e->name, (unsigned long long)e->usize);
        } else if (r == Z_BUF_ERROR) {
            st = mx_fail(ctx, MXSIM_E_FORMAT,
                         "%s: member '%s': compressed data ends before the deflate stream does: "
                         "truncated or corrupt",
                         z->path, e->name);
        } else if (r == Z_MEM_ERROR) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: member '%s': out of memory inflating", z->path,
                         e->name);
        } else {
            st = mx_fail(ctx, MXSIM_E_FORMAT, "%s: member '%s': corrupt deflate data (%s)", z->path,
                         e->name, s.msg ? s.msg : "zlib error");
        }
        break;
    }
    uint64_t produced = e->usize - out_left - s.avail_out;
    if (st == MXSIM_OK && produced != e->usize)
        st = mx_fail(ctx, MXSIM_E_FORMAT,
                     "%s: member '%s': inflates to %llu bytes, the directory declares %llu",
                     z->path, e->name, (unsigned long long)produced, (unsigned long long)e->usize);
    inflateEnd(&s);
    return st;
}

mxsim_status mx_zip_extract(mxsim_ctx *ctx, const mx_zip *z, const mx_zip_entry *e,
                            uint64_t max_size, const uint8_t **data, size_t *len, uint8_t **owned)
{
    *data = NULL;
    *len = 0;
    *owned = NULL;
    if (e->usize > max_size || e->usize > SIZE_MAX - 1)
        return mx_fail(ctx, MXSIM_E_LIMIT,
                       "%s: member '%s': uncompressed size %llu bytes exceeds the %llu-byte limit",
                       z->path, e->name, (unsigned long long)e->usize,
                       (unsigned long long)max_size);
    /* Deflate cannot expand more than 1032:1 (a 258-byte match costs at least 2 bits), so a
    ** larger declared size is corrupt or a decompression bomb: refuse it before allocating it.
    ** Without this, a 1 KiB archive declaring 2 GiB made mxsim allocate 2 GiB (fuzz finding,
    ** tests/fuzz/crashes/npz). */
    if (e->method == 8 && e->usize / DEFLATE_MAX_RATIO > e->csize)
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': declares %llu bytes, more than deflate can produce from its "
                       "%llu compressed bytes (at most %d:1): corrupt archive",
                       z->path, e->name, (unsigned long long)e->usize, (unsigned long long)e->csize,
                       DEFLATE_MAX_RATIO);
    const uint8_t *d;
    uint8_t *buf = NULL;
    if (e->method == 0) {
        d = z->img + e->data_offset;
    } else {
        buf = malloc(e->usize ? (size_t)e->usize : 1);
        if (buf == NULL)
            return mx_fail(ctx, MXSIM_E_NOMEM, "%s: member '%s': out of memory for %llu bytes",
                           z->path, e->name, (unsigned long long)e->usize);
        mxsim_status st = inflate_member(ctx, z, e, buf);
        if (st != MXSIM_OK) {
            free(buf);
            return st;
        }
        d = buf;
    }
    uint32_t crc = crc32_of(d, e->usize);
    if (crc != e->crc) {
        free(buf);
        return mx_fail(ctx, MXSIM_E_FORMAT,
                       "%s: member '%s': CRC-32 mismatch (directory 0x%08lx, data 0x%08lx): the "
                       "archive is corrupt",
                       z->path, e->name, (unsigned long)e->crc, (unsigned long)crc);
    }
    *data = d;
    *len = (size_t)e->usize;
    *owned = buf;
    return MXSIM_OK;
}

/* ---- writer ----------------------------------------------------------------------------- */

/* Raw-deflates src at level 6 into a malloc'd *out of *out_len bytes. */
static mxsim_status deflate_member(mxsim_ctx *ctx, const char *path, const char *name,
                                   const uint8_t *src, size_t len, uint8_t **out, size_t *out_len)
{
    z_stream s;
    memset(&s, 0, sizeof s);
    *out = NULL;
    if (deflateInit2(&s, 6, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: member '%s': cannot initialise zlib", path, name);
    uint64_t cap = deflateBound(&s, (uLong)len);
    uint8_t *buf = malloc(cap ? (size_t)cap : 1);
    if (buf == NULL) {
        deflateEnd(&s);
        return mx_fail(ctx, MXSIM_E_NOMEM, "%s: member '%s': out of memory compressing", path,
                       name);
    }
    uint64_t in_left = len, out_left = cap;
    s.next_out = buf;
    int r;
    do {
        if (s.avail_in == 0 && in_left > 0) {
            uInt k = (uInt)(in_left < ZCHUNK ? in_left : ZCHUNK);
            s.next_in = (Bytef *)(uintptr_t)src;
            s.avail_in = k;
            src += k;
            in_left -= k;
        }
        if (s.avail_out == 0 && out_left > 0) {
            uInt k = (uInt)(out_left < ZCHUNK ? out_left : ZCHUNK);
            s.avail_out = k;
            out_left -= k;
        }
        r = deflate(&s, in_left == 0 ? Z_FINISH : Z_NO_FLUSH);
    } while (r == Z_OK);
    uint64_t produced = cap - out_left - s.avail_out;
    deflateEnd(&s);
    if (r != Z_STREAM_END) {
        free(buf);
        return mx_fail(ctx, MXSIM_E_INTERNAL, "%s: member '%s': deflate failed (%d)", path, name,
                       r);
    }
    *out = buf;
    *out_len = (size_t)produced;
    return MXSIM_OK;
}

mxsim_status mx_zip_write(mxsim_ctx *ctx, const char *path, const mx_zip_member *m, size_t n,
                          int compress)
{
    const uint32_t DOS_DATE_1980 = (1u << 5) | 1u; /* 1980-01-01: reproducible output */
    mxsim_status st = MXSIM_OK;
    if (n > 0xFFFF)
        return mx_fail(ctx, MXSIM_E_LIMIT, "%s: %zu members: at most 65535 are supported", path, n);
    uint8_t **packed = calloc(n ? n : 1, sizeof *packed); /* deflated data, per member */
    size_t *plen = calloc(n ? n : 1, sizeof *plen);
    uint32_t *crcs = calloc(n ? n : 1, sizeof *crcs);
    uint32_t *offs = calloc(n ? n : 1, sizeof *offs);
    mx_file_part *parts = calloc(2 * n + 1, sizeof *parts);
    uint8_t *locals = NULL, *central = NULL;
    if (!packed || !plen || !crcs || !offs || !parts) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        goto done;
    }
    size_t names = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nl = strlen(m[i].name);
        if (nl == 0 || nl > 0xFFFF) {
            st = mx_fail(ctx, MXSIM_E_ARG, "%s: member %zu: name length %zu out of range", path, i,
                         nl);
            goto done;
        }
        if (m[i].len >= 0xFFFFFFFFu) {
            st = mx_fail(ctx, MXSIM_E_LIMIT,
                         "%s: member '%s': %zu bytes; members of 4 GiB or more are not supported",
                         path, m[i].name, m[i].len);
            goto done;
        }
        names += nl;
    }
    locals = malloc(n * LOCAL_LEN + names + 1);
    central = malloc(n * CENTRAL_LEN + names + EOCD_LEN);
    if (!locals || !central) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        goto done;
    }
    uint64_t off = 0;
    size_t lpos = 0, cpos = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nl = strlen(m[i].name);
        const uint8_t *data = m[i].data;
        size_t dlen = m[i].len;
        crcs[i] = crc32_of(data, dlen);
        if (compress) {
            st = deflate_member(ctx, path, m[i].name, data, dlen, &packed[i], &plen[i]);
            if (st != MXSIM_OK) goto done;
            data = packed[i];
            dlen = plen[i];
            if (dlen >= 0xFFFFFFFFu) {
                st = mx_fail(ctx, MXSIM_E_LIMIT,
                             "%s: member '%s': compressed size reaches 4 GiB (not supported)", path,
                             m[i].name);
                goto done;
            }
        }
        if (off > 0xFFFFFFFEu) {
            st =
                mx_fail(ctx, MXSIM_E_LIMIT, "%s: archive would exceed 4 GiB (not supported)", path);
            goto done;
        }
        offs[i] = (uint32_t)off;
        uint8_t *l = locals + lpos;
        memset(l, 0, LOCAL_LEN);
        wr32(l, SIG_LOCAL);
        wr16(l + 4, compress ? 20 : 10); /* version needed: 2.0 deflate, 1.0 stored */
        wr16(l + 8, compress ? 8 : 0);
        wr16(l + 12, DOS_DATE_1980); /* time (offset 10) stays 00:00:00 */
        wr32(l + 14, crcs[i]);
        wr32(l + 18, (uint32_t)dlen);
        wr32(l + 22, (uint32_t)m[i].len);
        wr16(l + 26, (uint32_t)nl);
        memcpy(l + LOCAL_LEN, m[i].name, nl);
        parts[2 * i].data = l;
        parts[2 * i].len = LOCAL_LEN + nl;
        parts[2 * i + 1].data = data;
        parts[2 * i + 1].len = dlen;
        lpos += LOCAL_LEN + nl;
        off += LOCAL_LEN + nl + dlen;

        uint8_t *c = central + cpos;
        memset(c, 0, CENTRAL_LEN);
        wr32(c, SIG_CENTRAL);
        wr16(c + 4, 3u << 8 | 20u); /* made by: Unix, spec 2.0 */
        memcpy(c + 6, l + 4, 26);   /* needed .. name length: same as the local header */
        wr32(c + 38, 0100644u << 16); /* regular file, rw-r--r-- */
        wr32(c + 42, offs[i]);
        memcpy(c + CENTRAL_LEN, m[i].name, nl);
        cpos += CENTRAL_LEN + nl;
    }
    if (off > 0xFFFFFFFEu || off + cpos > 0xFFFFFFFEu) {
        st = mx_fail(ctx, MXSIM_E_LIMIT, "%s: archive would exceed 4 GiB (not supported)", path);
        goto done;
    }
    uint8_t *e = central + cpos;
    memset(e, 0, EOCD_LEN);
    wr32(e, SIG_EOCD);
    wr16(e + 8, (uint32_t)n);
    wr16(e + 10, (uint32_t)n);
    wr32(e + 12, (uint32_t)cpos);
    wr32(e + 16, (uint32_t)off);
    parts[2 * n].data = central;
    parts[2 * n].len = cpos + EOCD_LEN;
    st = mx_file_write_parts(ctx, path, parts, 2 * n + 1);
done:
    for (size_t i = 0; packed && i < n; i++) free(packed[i]);
    free(packed);
    free(plen);
    free(crcs);
    free(offs);
    free(parts);
    free(locals);
    free(central);
    return st;
}

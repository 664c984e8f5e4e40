/* fuzz_trace_gz.c - the gzip path of mxsim_trace_load (trace.c over zlib's gzread).
**
** The first input byte picks how the rest becomes a .gz file, so that one corpus reaches both
** zlib's framing checks and the text parser behind them:
**   mode 0: the rest is written as is (raw gzip bytes: headers, flags, trailers, truncation);
**   mode 1: the rest is gzip-compressed (the text parser, reached through the .gz path);
**   mode 2: the rest is compressed, then cut at a length taken from the last two bytes
**           (truncated streams: must be MXSIM_E_FORMAT, never a silently short trace);
**   mode 3: the rest is compressed, then one byte is flipped at a position and with a mask
**           taken from the last bytes (corrupt data, header or CRC/size trailer).
** The mode is the first byte modulo 4. */
#include <zlib.h>

#include "fuzz_trace_util.h"

/* gzip-compresses in[0..n) into a malloc'd buffer; *out_len its size. */
static uint8_t *gz_compress(const uint8_t *in, size_t n, size_t *out_len)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    /* small window and memLevel: cheap to set up per input, still a valid gzip stream */
    fz_check(deflateInit2(&zs, 1, Z_DEFLATED, 16 + 9, 1, Z_DEFAULT_STRATEGY) == Z_OK);
    size_t cap = deflateBound(&zs, (uLong)n) + 32;
    uint8_t *out = malloc(cap);
    fz_check(out != NULL);
    zs.next_in = (Bytef *)(uintptr_t)in;
    zs.avail_in = (uInt)n;
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    fz_check(deflate(&zs, Z_FINISH) == Z_STREAM_END);
    *out_len = cap - zs.avail_out;
    deflateEnd(&zs);
    return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    mxsim_ctx *ctx = fz_ctx();
    int mode = data[0] % 4;
    const uint8_t *p = data + 1;
    size_t n = size - 1;
    const char *path;
    size_t zlen = 0, full = 0;
    uint8_t *z = NULL;
    if (mode == 0) {
        path = fz_write("in.trace.gz", p, n);
    } else {
        size_t tail = mode == 2 ? 2 : mode == 3 ? 3 : 0;
        if (n < tail) return 0;
        z = gz_compress(p, n - tail, &zlen);
        full = zlen;
        const uint8_t *t = p + n - tail;
        if (mode == 2) {
            zlen = ((size_t)t[0] | (size_t)t[1] << 8) % (zlen + 1);
        } else if (mode == 3) {
            size_t pos = ((size_t)t[0] | (size_t)t[1] << 8) % zlen;
            z[pos] ^= t[2] ? t[2] : 0x01;
        }
        path = fz_write("in.trace.gz", z, zlen);
    }
    mxsim_trace *tr = NULL;
    mxsim_status st = mxsim_trace_load(ctx, path, &tr);
    if (mode == 2 && zlen < full && zlen >= 2) {
        /* A cut stream (still starting with the gzip magic) must never load. */
        fz_check(st != MXSIM_OK);
    }
    free(z);
    fz_check_loaded(ctx, st, tr, 1);
    return 0;
}

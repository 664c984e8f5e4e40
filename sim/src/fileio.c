/* fileio.c - whole-file reads with size checks, and atomic whole-file writes.
**
** Reading: the path is stat'ed before it is opened so that a directory, FIFO or device is
** refused with a clear message (and opening a FIFO can never block); the opened descriptor is
** fstat'ed again so a file swapped in between is still checked.  A path that names no file or
** no regular file is MXSIM_E_INPUT (the user's fault); failures to read an existing file are
** MXSIM_E_IO.  The size is compared with the
** caller's limit before the buffer is allocated.
**
** Writing: data goes to a temporary file created by mkstemp next to the destination (same
** directory, hence same file system, so rename is atomic), is fsync'ed, and is renamed over
** the destination.  Invariant: whatever fails, the temporary file is unlinked before
** returning, so a reader of `path` sees either the old file or the complete new one and no
** partial output is ever left behind.
*/
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "fileio.h"

/* Per read()/write() call cap: some systems fail on counts above INT_MAX. */
#define MX_IO_CHUNK ((size_t)1 << 30)

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

mxsim_status mx_file_read(mxsim_ctx *ctx, const char *path, uint64_t max_bytes, uint8_t **data,
                          size_t *len)
{
    struct stat sb;
    *data = NULL;
    *len = 0;
    if (path == NULL || path[0] == '\0') return mx_fail(ctx, MXSIM_E_ARG, "input path: empty");
    if (stat(path, &sb) != 0) {
        /* A path that names nothing is the user's mistake (E_INPUT, CLI exit 2); anything else
        ** (permissions, I/O errors) is a runtime failure. */
        int e = errno;
        int user = e == ENOENT || e == ENOTDIR || e == ENAMETOOLONG || e == ELOOP;
        return mx_fail(ctx, user ? MXSIM_E_INPUT : MXSIM_E_IO, "%s: cannot open: %s", path,
                       strerror(e));
    }
    if (!S_ISREG(sb.st_mode))
        return mx_fail(ctx, MXSIM_E_INPUT, "%s: is %s, expected a regular file", path,
                       file_kind(sb.st_mode));
    /* O_NONBLOCK: if a FIFO replaced the file since stat, open must not hang. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return mx_fail(ctx, MXSIM_E_IO, "%s: cannot open: %s", path, strerror(errno));
    mxsim_status st = MXSIM_OK;
    uint8_t *buf = NULL;
    if (fstat(fd, &sb) != 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot stat: %s", path, strerror(errno));
        goto done;
    }
    if (!S_ISREG(sb.st_mode)) {
        st = mx_fail(ctx, MXSIM_E_INPUT, "%s: is %s, expected a regular file", path,
                     file_kind(sb.st_mode));
        goto done;
    }
    if (sb.st_size < 0 || (uint64_t)sb.st_size > max_bytes || (uint64_t)sb.st_size > SIZE_MAX - 1) {
        st = mx_fail(ctx, MXSIM_E_LIMIT, "%s: file size %lld bytes exceeds the %llu-byte limit",
                     path, (long long)sb.st_size, (unsigned long long)max_bytes);
        goto done;
    }
    size_t size = (size_t)sb.st_size;
    buf = malloc(size ? size : 1);
    if (buf == NULL) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory reading %zu bytes", path, size);
        goto done;
    }
    size_t got = 0;
    while (got < size) {
        size_t want = size - got < MX_IO_CHUNK ? size - got : MX_IO_CHUNK;
        ssize_t r = read(fd, buf + got, want);
        if (r < 0) {
            if (errno == EINTR) continue;
            st = mx_fail(ctx, MXSIM_E_IO, "%s: read error: %s", path, strerror(errno));
            goto done;
        }
        if (r == 0) {
            st = mx_fail(ctx, MXSIM_E_IO, "%s: file shrank while being read (%zu of %zu bytes)",
                         path, got, size);
            goto done;
        }
        got += (size_t)r;
    }
    *data = buf;
    *len = size;
    buf = NULL;
done:
    free(buf);
    close(fd);
    return st;
}

static int write_all(int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        size_t want = len < MX_IO_CHUNK ? len : MX_IO_CHUNK;
        ssize_t w = write(fd, p, want);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (w == 0) {
            errno = EIO;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

/* Best effort: makes the rename itself durable.  Failure here cannot undo the rename, and
** some file systems refuse fsync on directories, so it is not reported. */
static void sync_dir(const char *tmpl, size_t dir_len)
{
    char *dir = malloc(dir_len + 2);
    if (dir == NULL) return;
    if (dir_len == 0) {
        dir[0] = '.';
        dir[1] = '\0';
    } else {
        memcpy(dir, tmpl, dir_len);
        dir[dir_len] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

mxsim_status mx_file_write_parts(mxsim_ctx *ctx, const char *path, const mx_file_part *parts,
                                 size_t n)
{
    if (path == NULL || path[0] == '\0') return mx_fail(ctx, MXSIM_E_ARG, "output path: empty");
    size_t plen = strlen(path);
    if (path[plen - 1] == '/')
        return mx_fail(ctx, MXSIM_E_IO, "%s: output path names a directory", path);
    /* Template "<dir>/.<base>.tmp.XXXXXX": hidden, and in the destination's directory. */
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    const char *base = path + dir_len;
    size_t tlen = dir_len + 1 + strlen(base) + sizeof ".tmp.XXXXXX";
    char *tmpl = malloc(tlen);
    if (tmpl == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    memcpy(tmpl, path, dir_len);
    snprintf(tmpl + dir_len, tlen - dir_len, ".%s.tmp.XXXXXX", base);

    mxsim_status st = MXSIM_OK;
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot create a temporary file in its directory: %s",
                     path, strerror(errno));
        free(tmpl);
        return st;
    }
    /* mkstemp makes the file 0600; give it ordinary permissions (or keep the old file's). */
    struct stat old;
    mode_t mode = 0644;
    if (stat(path, &old) == 0 && S_ISREG(old.st_mode)) mode = old.st_mode & 07777;
    if (fchmod(fd, mode) != 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot set permissions of %s: %s", path, tmpl,
                     strerror(errno));
        goto fail;
    }
    for (size_t i = 0; i < n; i++) {
        if (parts[i].len == 0) continue;
        if (write_all(fd, parts[i].data, parts[i].len) != 0) {
            st = mx_fail(ctx, MXSIM_E_IO, "%s: write error: %s", path, strerror(errno));
            goto fail;
        }
    }
    if (fsync(fd) != 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: fsync failed: %s", path, strerror(errno));
        goto fail;
    }
    /* close can report delayed write errors (NFS): they must fail the save. */
    int rc = close(fd);
    fd = -1;
    if (rc != 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: close failed: %s", path, strerror(errno));
        goto fail;
    }
    if (rename(tmpl, path) != 0) {
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot replace the file: %s", path, strerror(errno));
        goto fail;
    }
    sync_dir(tmpl, dir_len);
    free(tmpl);
    return MXSIM_OK;
fail:
    if (fd >= 0) close(fd);
    unlink(tmpl);
    free(tmpl);
    return st;
}

mxsim_status mx_file_write(mxsim_ctx *ctx, const char *path, const void *data, size_t len)
{
    mx_file_part part = {data, len};
    return mx_file_write_parts(ctx, path, &part, 1);
}

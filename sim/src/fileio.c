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
#define _XOPEN_SOURCE 700 /* realpath */
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
    if (mx_note_input(ctx, path, (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino) != 0) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        goto done;
    }
    if (sb.st_size < 0 || (uint64_t)sb.st_size > max_bytes || (uint64_t)sb.st_size > SIZE_MAX - 1) {
        st = mx_fail(ctx, MXSIM_E_LIMIT, "%s: file size %lld bytes exceeds the %llu-byte limit",
                     path, (long long)sb.st_size, (unsigned long long)max_bytes);
        goto done;
    }
    size_t size = (size_t)sb.st_size;
    buf = malloc(size + 1); /* a NUL after the data: text readers cut it into lines in place */
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
    /* the size stat gave must be all there is: a file that grew since, or a special file that
    ** reports 0 bytes (/proc/self/status read as empty, a config of defaults), is refused */
    for (;;) {
        char extra;
        ssize_t r = read(fd, &extra, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r > 0) {
            st = mx_fail(ctx, MXSIM_E_INPUT, "%s: holds more than the %zu bytes its size says (a file growing while "
                         "read, or a special file): copy it to a regular file first", path, size);
            goto done;
        }
        break;
    }
    buf[size] = 0;
    *data = buf;
    *len = size;
    buf = NULL;
done:
    free(buf);
    close(fd);
    return st;
}

/* Writes in chunks of at most 1 MiB, polling ctx's cancellation hook before each: returns -2
** when cancelled. */
#define MX_WRITE_CHUNK ((size_t)1 << 20)
static int write_all(const mxsim_ctx *ctx, int fd, const void *data, size_t len)
{
    const unsigned char *p = data;
    while (len > 0) {
        if (mx_cancelled(ctx)) return -2;
        size_t want = len < MX_WRITE_CHUNK ? len : MX_WRITE_CHUNK;
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
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) + 1 : 0;
    char *dir = malloc(dir_len + 2);
    if (dir == NULL) return;
    if (dir_len == 0) {
        dir[0] = '.';
        dir[1] = '\0';
    } else {
        memcpy(dir, path, dir_len);
        dir[dir_len] = '\0';
    }
    int fd = open(dir, O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)fsync(fd);
        close(fd);
    }
    free(dir);
}

enum { TARGET_NEW, TARGET_REGULAR, TARGET_IN_PLACE, TARGET_DASH };

/* What writing to `path` means: a new or regular file is replaced by rename (through any
** symbolic link: *real is the file it names), a character device is written in place, and "-"
** is the ctx's dash descriptor when one is set.  A FIFO (which would block until a reader
** comes, and cannot be replaced atomically), a directory, a socket, a block device and a file
** without write permission are refused here, before any file is created. */
static mxsim_status resolve_target(mxsim_ctx *ctx, const char *path, char **real, int *kind)
{
    *real = NULL;
    if (path == NULL || path[0] == '\0') return mx_fail(ctx, MXSIM_E_ARG, "output path: empty");
    if (path[strlen(path) - 1] == '/')
        return mx_fail(ctx, MXSIM_E_IO, "%s: output path names a directory", path);
    if (ctx && ctx->dash_fd >= 0 && strcmp(path, "-") == 0) {
        *kind = TARGET_DASH;
        *real = malloc(2);
        if (*real == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        strcpy(*real, "-");
        return MXSIM_OK;
    }
    struct stat lsb, sb;
    const char *target = path;
    if (lstat(path, &lsb) != 0) {
        if (errno != ENOENT)
            return mx_fail(ctx, MXSIM_E_IO, "%s: cannot write: %s", path, strerror(errno));
        *kind = TARGET_NEW;
    } else {
        if (S_ISLNK(lsb.st_mode)) {
            if (stat(path, &sb) != 0)
                return mx_fail(ctx, MXSIM_E_IO, "%s: is a symbolic link to nothing (%s)", path,
                               strerror(errno));
            *real = realpath(path, NULL);
            if (*real == NULL)
                return mx_fail(ctx, MXSIM_E_IO, "%s: cannot resolve the link: %s", path, strerror(errno));
            target = *real;
        } else {
            sb = lsb;
        }
        if (S_ISDIR(sb.st_mode)) {
            free(*real);
            *real = NULL;
            return mx_fail(ctx, MXSIM_E_IO, "%s: is a directory", path);
        }
        *kind = S_ISREG(sb.st_mode) ? TARGET_REGULAR
                : S_ISCHR(sb.st_mode) ? TARGET_IN_PLACE : -1;
        /* no write permission bit at all is read-only even for root (whom access() lets write) */
        int ro = *kind == TARGET_REGULAR && (sb.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0;
        if (*kind < 0 || ro || access(target, W_OK) != 0) {
            int e = ro ? EACCES : errno;
            free(*real);
            *real = NULL;
            if (*kind < 0)
                return mx_fail(ctx, MXSIM_E_IO, "%s: is %s, refused as an output (use -o - for a pipe)", path,
                               file_kind(sb.st_mode));
            return mx_fail(ctx, MXSIM_E_IO, "%s: not writable (%s): left untouched", path,
                           ro ? "read-only file" : strerror(e));
        }
    }
    if (*real == NULL) {
        *real = malloc(strlen(path) + 1);
        if (*real == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
        strcpy(*real, path);
    }
    return MXSIM_OK;
}

static mxsim_status write_parts_fd(mxsim_ctx *ctx, int fd, const char *path,
                                   const mx_file_part *parts, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (parts[i].len == 0) continue;
        int r = write_all(ctx, fd, parts[i].data, parts[i].len);
        if (r == -2) return mx_fail(ctx, MXSIM_E_CANCELLED, "%s: cancelled while writing", path);
        if (r != 0) return mx_fail(ctx, MXSIM_E_IO, "%s: write error: %s", path, strerror(errno));
    }
    return MXSIM_OK;
}

/* Writes parts into a new hidden temporary file next to `real` ("<dir>/.<base>.tmp.XXXXXX"),
** fsync'ed and closed; *tmp is its malloc'd name.  On failure nothing is left. */
static mxsim_status write_temp(mxsim_ctx *ctx, const char *path, const char *real,
                               const mx_file_part *parts, size_t n, char **tmp)
{
    const char *slash = strrchr(real, '/');
    size_t dir_len = slash ? (size_t)(slash - real) + 1 : 0;
    const char *base = real + dir_len;
    /* A valid name of up to NAME_MAX (255) bytes must still get a valid temporary name: the
    ** base is cut so that "." + base + ".tmp.XXXXXX" stays within 255 bytes. */
    int base_len = (int)(strlen(base) < 200 ? strlen(base) : 200);
    size_t tlen = dir_len + 1 + (size_t)base_len + sizeof ".tmp.XXXXXX";
    char *tmpl = malloc(tlen);
    *tmp = NULL;
    if (tmpl == NULL) return mx_fail(ctx, MXSIM_E_NOMEM, "%s: out of memory", path);
    memcpy(tmpl, real, dir_len);
    mx_snprintf(tmpl + dir_len, tlen - dir_len, ".%.*s.tmp.XXXXXX", base_len, base);
    int fd = mkstemp(tmpl);
    if (fd < 0) {
        mxsim_status st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot create a temporary file in its directory: %s",
                                  path, strerror(errno));
        free(tmpl);
        return st;
    }
    /* mkstemp makes the file 0600: give it 0666 & ~umask, or keep the old file's bits */
    struct stat old;
    mode_t um = umask(0);
    umask(um);
    mode_t mode = 0666 & ~um;
    if (stat(real, &old) == 0 && S_ISREG(old.st_mode)) mode = old.st_mode & 07777;
    mxsim_status st = MXSIM_OK;
    if (fchmod(fd, mode) != 0)
        st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot set permissions of %s: %s", path, tmpl, strerror(errno));
    if (st == MXSIM_OK) st = write_parts_fd(ctx, fd, path, parts, n);
    if (st == MXSIM_OK && fsync(fd) != 0)
        st = mx_fail(ctx, MXSIM_E_IO, "%s: fsync failed: %s", path, strerror(errno));
    /* close can report delayed write errors (NFS): they must fail the save */
    if (close(fd) != 0 && st == MXSIM_OK)
        st = mx_fail(ctx, MXSIM_E_IO, "%s: close failed: %s", path, strerror(errno));
    if (st != MXSIM_OK) {
        unlink(tmpl);
        free(tmpl);
        return st;
    }
    *tmp = tmpl;
    return MXSIM_OK;
}

static mxsim_status write_in_place(mxsim_ctx *ctx, const char *path, const char *real,
                                   const mx_file_part *parts, size_t n, int kind)
{
    if (kind == TARGET_DASH) return write_parts_fd(ctx, ctx->dash_fd, path, parts, n);
    int fd = open(real, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return mx_fail(ctx, MXSIM_E_IO, "%s: cannot open: %s", path, strerror(errno));
    mxsim_status st = write_parts_fd(ctx, fd, path, parts, n);
    if (close(fd) != 0 && st == MXSIM_OK)
        st = mx_fail(ctx, MXSIM_E_IO, "%s: close failed: %s", path, strerror(errno));
    return st;
}

mxsim_status mx_file_write_parts(mxsim_ctx *ctx, const char *path, const mx_file_part *parts,
                                 size_t n)
{
    mx_file_set f = {path, parts, n};
    return mx_file_write_set(ctx, &f, 1);
}

mxsim_status mx_file_write(mxsim_ctx *ctx, const char *path, const void *data, size_t len)
{
    mx_file_part part = {data, len};
    return mx_file_write_parts(ctx, path, &part, 1);
}

mxsim_status mxsim_file_write(mxsim_ctx *ctx, const char *path, const void *data, size_t len)
{
    mx_clear_err(ctx);
    if (data == NULL && len > 0) return mx_fail(ctx, MXSIM_E_ARG, "%s: no data", path ? path : "output");
    return mx_file_write(ctx, path, data, len);
}

mxsim_status mxsim_file_check(mxsim_ctx *ctx, const char *path)
{
    mx_clear_err(ctx);
    char *real = NULL;
    int kind = 0;
    mxsim_status st = resolve_target(ctx, path, &real, &kind);
    free(real);
    return st;
}

mxsim_status mxsim_files_write(mxsim_ctx *ctx, size_t n, const char *const *paths,
                               const void *const *datas, const size_t *lens)
{
    mx_clear_err(ctx);
    if (n == 0) return MXSIM_OK;
    if (paths == NULL || datas == NULL || lens == NULL) return mx_fail(ctx, MXSIM_E_ARG, "files_write: NULL argument");
    if (n > ((size_t)1 << 20)) return mx_fail(ctx, MXSIM_E_LIMIT, "files_write: n = %zu files exceeds 2^20", n);
    mx_file_part *parts = calloc(n, sizeof *parts);
    mx_file_set *set = calloc(n, sizeof *set);
    mxsim_status st = MXSIM_OK;
    if (parts == NULL || set == NULL) st = mx_fail(ctx, MXSIM_E_NOMEM, "files_write: out of memory");
    for (size_t i = 0; i < n && st == MXSIM_OK; i++) {
        if (paths[i] == NULL || (datas[i] == NULL && lens[i] > 0))
            st = mx_fail(ctx, MXSIM_E_ARG, "files_write: file %zu: NULL path or data", i);
        parts[i].data = datas[i];
        parts[i].len = lens[i];
        set[i].path = paths[i];
        set[i].parts = &parts[i];
        set[i].n_parts = 1;
    }
    if (st == MXSIM_OK) st = mx_file_write_set(ctx, set, n);
    free(parts);
    free(set);
    return st;
}

mxsim_status mx_check_not_input(mxsim_ctx *ctx, const char *path)
{
    struct stat sb;
    const char *in;
    if (ctx == NULL || ctx->n_inputs == 0 || path == NULL || strcmp(path, "-") == 0 || stat(path, &sb) != 0 ||
        (in = mx_input_named(ctx, (unsigned long long)sb.st_dev, (unsigned long long)sb.st_ino)) == NULL)
        return MXSIM_OK;
    return mx_fail(ctx, MXSIM_E_INPUT, "output '%s' is the same file as the input '%s': refusing to overwrite an input",
                   path, in);
}

/* All or nothing over several files: every target is checked and every temporary file written
** before the first rename; existing targets are kept as hard-linked backups until every rename
** has succeeded, and restored if one fails. */
mxsim_status mx_file_write_set(mxsim_ctx *ctx, const mx_file_set *files, size_t n)
{
    mxsim_status st = MXSIM_OK;
    char **real = calloc(n ? n : 1, sizeof *real), **tmp = calloc(n ? n : 1, sizeof *tmp),
         **bak = calloc(n ? n : 1, sizeof *bak);
    int *kind = calloc(n ? n : 1, sizeof *kind);
    size_t renamed = 0;
    if (!real || !tmp || !bak || !kind) {
        st = mx_fail(ctx, MXSIM_E_NOMEM, "output: out of memory");
        goto done;
    }
    for (size_t i = 0; i < n && st == MXSIM_OK; i++) {
        st = resolve_target(ctx, files[i].path, &real[i], &kind[i]);
        st = st == MXSIM_OK ? mx_check_not_input(ctx, files[i].path) : st;
        for (size_t j = 0; j < i && st == MXSIM_OK; j++)
            if (strcmp(real[i], real[j]) == 0)
                st = mx_fail(ctx, MXSIM_E_ARG, "%s: named twice in one output", files[i].path);
    }
    if (st == MXSIM_OK && mx_cancelled(ctx)) st = mx_fail(ctx, MXSIM_E_CANCELLED, "output: cancelled; nothing written");
    for (size_t i = 0; i < n && st == MXSIM_OK; i++)
        if (kind[i] == TARGET_NEW || kind[i] == TARGET_REGULAR)
            st = write_temp(ctx, files[i].path, real[i], files[i].parts, files[i].n_parts, &tmp[i]);
    for (size_t i = 0; i < n && st == MXSIM_OK; i++) {
        if (kind[i] != TARGET_REGULAR) continue;
        size_t L = strlen(tmp[i]);
        bak[i] = malloc(L + 5);
        if (bak[i] == NULL) {
            st = mx_fail(ctx, MXSIM_E_NOMEM, "output: out of memory");
            break;
        }
        memcpy(bak[i], tmp[i], L);
        memcpy(bak[i] + L, ".bak", 5);
        if (link(real[i], bak[i]) != 0) { /* no hard links here: no rollback for this file */
            free(bak[i]);
            bak[i] = NULL;
        }
    }
    for (; renamed < n && st == MXSIM_OK; renamed++) {
        if (kind[renamed] != TARGET_NEW && kind[renamed] != TARGET_REGULAR) continue;
        if (rename(tmp[renamed], real[renamed]) != 0) {
            st = mx_fail(ctx, MXSIM_E_IO, "%s: cannot replace the file: %s", files[renamed].path,
                         strerror(errno));
            break;
        }
        free(tmp[renamed]);
        tmp[renamed] = NULL;
    }
    if (st != MXSIM_OK) { /* undo the renames done so far */
        for (size_t i = 0; i < renamed && i < n; i++) {
            if (kind[i] == TARGET_NEW) unlink(real[i]);
            else if (bak[i]) rename(bak[i], real[i]);
        }
    } else {
        for (size_t i = 0; i < n && st == MXSIM_OK; i++)
            if (kind[i] == TARGET_IN_PLACE || kind[i] == TARGET_DASH)
                st = write_in_place(ctx, files[i].path, real[i], files[i].parts, files[i].n_parts, kind[i]);
        for (size_t i = 0; i < n; i++)
            if (kind[i] == TARGET_NEW || kind[i] == TARGET_REGULAR) sync_dir(real[i]);
    }
done:
    for (size_t i = 0; i < n; i++) {
        if (tmp && tmp[i]) unlink(tmp[i]);
        if (bak && bak[i]) unlink(bak[i]);
        if (tmp) free(tmp[i]);
        if (bak) free(bak[i]);
        if (real) free(real[i]);
    }
    free(real);
    free(tmp);
    free(bak);
    free(kind);
    return st;
}

void mx_digest_hex(const void *data, size_t n, char out[17])
{
    const unsigned char *p = data;
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 1099511628211ull;
    mx_snprintf(out, 17, "%016llx", (unsigned long long)h);
}

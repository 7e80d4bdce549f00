/* Reading a small input file into memory, bounded: one byte more than the limit is read,
 * which tells a too-large file from one exactly at the limit.
 *
 * Only a regular file is read. A FIFO would block fopen (and then fread) until a writer
 * comes, forever; a device such as /dev/zero never ends. The file is opened without
 * blocking and checked with fstat on the same descriptor (no race between a check of the
 * name and the open), so no read waits on anything but the disk, and at most limit + 1
 * bytes are read. POSIX calls (open, fstat, read): C11's stdio cannot tell a FIFO. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "file_read.h"

#ifndef O_CLOEXEC
#define O_CLOEXEC 0
#endif

/* What a path that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "not a regular file";
}

static int not_regular(const char *path, const char *field, mode_t mode, trainsize_error *err)
{
    return ts_fail(err, TRAINSIZE_E_IO, field, "%s: \"%.150s\" is %s; only a regular file is read", field,
                   path, file_kind(mode));
}

long ts_read_upto(int fd, void *dest, size_t cap)
{
    char *buf = (char *)dest;
    size_t n = 0;
    while (n < cap) {
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) return -1;
        if (r == 0) break;
        n += (size_t)r;
    }
    return (long)n;
}

int ts_open_regular(const char *path, const char *field, uint64_t *size, trainsize_error *err)
{
    struct stat st;
    int fd;
    /* Not even opened when it is not a regular file (opening a device can have effects of
     * its own); the fstat below checks again what was opened. */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) return not_regular(path, field, st.st_mode, err);
    fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return ts_fail(err, TRAINSIZE_E_IO, field, "%s: cannot open \"%.150s\"", field, path);
    if (fstat(fd, &st) != 0 || st.st_size < 0) {
        close(fd);
        return ts_fail(err, TRAINSIZE_E_IO, field, "%s: cannot read \"%.150s\"", field, path);
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return not_regular(path, field, st.st_mode, err);
    }
    *size = (uint64_t)st.st_size;
    return fd;
}

int ts_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ts_read_file(const char *path, size_t limit, const char *field, char **out, size_t *len,
                 trainsize_error *err)
{
    uint64_t size;
    char *buf;
    long n;
    int fd = ts_open_regular(path, field, &size, err);
    if (fd < 0) return fd;
    if (size > limit) {
        close(fd);
        return ts_fail(err, TRAINSIZE_E_LIMIT, field, "%s: \"%.150s\" is over %lu bytes", field, path,
                       (unsigned long)limit);
    }
    buf = malloc(limit + 1);
    if (!buf) {
        close(fd);
        return ts_fail(err, TRAINSIZE_E_NOMEM, field, "%s: out of memory", field);
    }
    n = ts_read_upto(fd, buf, limit + 1); /* a file that grew since fstat is caught here */
    close(fd);
    if (n < 0 || (size_t)n > limit) {
        free(buf);
        return n < 0 ? ts_fail(err, TRAINSIZE_E_IO, field, "%s: cannot read \"%.150s\"", field, path)
                     : ts_fail(err, TRAINSIZE_E_LIMIT, field, "%s: \"%.150s\" is over %lu bytes", field,
                               path, (unsigned long)limit);
    }
    *out = buf;
    *len = (size_t)n;
    return TRAINSIZE_OK;
}

void ts_error_name_file(trainsize_error *err, const char *path)
{
    char message[sizeof err->message];
    const char *text;
    size_t used;
    if (!err) return;
    text = err->message;
    if (strncmp(text, "config.json: ", 13) == 0) text += 13;
    /* a file named as the message's own first word ("calibration: ..." from a file
     * called calibration, as the WebAssembly module names them): said once */
    if (strncmp(text, path, strlen(path)) == 0 && text[strlen(path)] == ':') return;
    used = (size_t)snprintf(message, sizeof message, "%.120s: ", path);
    while (*text && used + 1 < sizeof message) message[used++] = *text++;
    message[used] = '\0';
    memcpy(err->message, message, sizeof message);
    ts_error_tidy(err); /* the path is the caller's bytes */
}

int ts_load_file(trainsize_job *job, const char *path, const char *field, ts_text_loader load,
                 trainsize_error *err)
{
    char *buf;
    size_t len;
    int rc;
    if (!job || !path) return ts_fail(err, TRAINSIZE_E_ARGUMENT, field, "%s: NULL job or path", field);
    if ((rc = ts_read_file(path, TRAINSIZE_HF_CONFIG_MAX_BYTES, field, &buf, &len, err))) return rc;
    rc = load(job, buf, len, err);
    if (rc != TRAINSIZE_OK) ts_error_name_file(err, path); /* the file the caller gave */
    free(buf);
    return rc;
}

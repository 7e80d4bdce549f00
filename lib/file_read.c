/* Reading a small input file into memory, bounded: one byte more than the limit is read,
 * which tells a too-large file from one exactly at the limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "file_read.h"

int ts_read_file(const char *path, size_t limit, const char *field, char **out, size_t *len,
                 trainsize_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    size_t n;
    if (!f) return ts_fail(err, TRAINSIZE_E_IO, field, "%s: cannot open \"%.150s\"", field, path);
    buf = malloc(limit + 1);
    if (!buf) {
        fclose(f);
        return ts_fail(err, TRAINSIZE_E_NOMEM, field, "%s: out of memory", field);
    }
    n = fread(buf, 1, limit + 1, f);
    if (ferror(f) || n > limit) {
        int code = ferror(f) ? TRAINSIZE_E_IO : TRAINSIZE_E_LIMIT;
        fclose(f);
        free(buf);
        return code == TRAINSIZE_E_IO
                   ? ts_fail(err, code, field, "%s: cannot read \"%.150s\"", field, path)
                   : ts_fail(err, code, field, "%s: \"%.150s\" is over %lu bytes", field, path,
                             (unsigned long)limit);
    }
    fclose(f);
    *out = buf;
    *len = n;
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
    used = (size_t)snprintf(message, sizeof message, "%.120s: ", path);
    while (*text && used + 1 < sizeof message) message[used++] = *text++;
    message[used] = '\0';
    memcpy(err->message, message, sizeof message);
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

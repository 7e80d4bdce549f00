/* Loading a Hugging Face config.json into a job: from memory, or from a file read into a
 * bounded buffer. The parsing itself is hf_config.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "job.h"

int trainsize_job_load_hf_config(trainsize_job *job, const char *json, size_t len,
                                 trainsize_error *err)
{
    ts_model parsed;
    int rc;
    if (!job || (!json && len))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "hf-config", "hf-config: NULL job or text");
    if (len > TRAINSIZE_HF_CONFIG_MAX_BYTES)
        return ts_fail(err, TRAINSIZE_E_LIMIT, "hf-config",
                       "hf-config: %lu bytes is over the %u-byte limit", (unsigned long)len,
                       (unsigned)TRAINSIZE_HF_CONFIG_MAX_BYTES);
    if ((rc = ts_hf_config_parse(json ? json : "", len, &parsed, err))) return rc;
    job->model = parsed;
    return ts_ok(err);
}

int trainsize_job_load_hf_config_file(trainsize_job *job, const char *path, trainsize_error *err)
{
    FILE *f;
    char *buf;
    size_t len;
    int rc;
    if (!job || !path)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "hf-config", "hf-config: NULL job or path");
    f = fopen(path, "rb");
    if (!f)
        return ts_fail(err, TRAINSIZE_E_IO, "hf-config", "hf-config: cannot open \"%.150s\"", path);
    /* One byte more than the limit tells a too-large file from one exactly at it. */
    buf = malloc((size_t)TRAINSIZE_HF_CONFIG_MAX_BYTES + 1);
    if (!buf) {
        fclose(f);
        return ts_fail(err, TRAINSIZE_E_NOMEM, "hf-config", "hf-config: out of memory");
    }
    len = fread(buf, 1, (size_t)TRAINSIZE_HF_CONFIG_MAX_BYTES + 1, f);
    if (ferror(f)) {
        rc = ts_fail(err, TRAINSIZE_E_IO, "hf-config", "hf-config: cannot read \"%.150s\"", path);
    } else if (len > TRAINSIZE_HF_CONFIG_MAX_BYTES) {
        rc = ts_fail(err, TRAINSIZE_E_LIMIT, "hf-config", "hf-config: \"%.150s\" is over %u bytes",
                     path, (unsigned)TRAINSIZE_HF_CONFIG_MAX_BYTES);
    } else {
        rc = trainsize_job_load_hf_config(job, buf, len, err);
        if (rc != TRAINSIZE_OK && err) {
            /* Name the file the caller gave rather than the generic "config.json". */
            char message[sizeof err->message];
            const char *text = err->message;
            size_t used;
            if (strncmp(text, "config.json: ", 13) == 0) text += 13;
            used = (size_t)snprintf(message, sizeof message, "%.120s: ", path);
            while (*text && used + 1 < sizeof message) message[used++] = *text++;
            message[used] = '\0';
            memcpy(err->message, message, sizeof message);
        }
    }
    free(buf);
    fclose(f);
    return rc;
}

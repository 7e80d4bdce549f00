/* Loading a Hugging Face config.json into a job: from memory, or from a file read into a
 * bounded buffer. The parsing itself is hf_config.c's. */

#include <stdio.h>
#include <string.h>

#include "error.h"
#include "file_read.h"
#include "job.h"
#include "text.h"

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
    if ((rc = ts_hf_config_parse(json ? json : "", len, &parsed, err)) ||
        (rc = ts_job_model_in_range(&parsed, err)))
        return rc;
    job->s.model = parsed;
    ts_job_fit_seq(job);
    return ts_ok(err);
}

/* The model's name in a config file's path: a "config.json" is named by its folder
 * (.../Qwen3-8B/config.json), another NAME.json by NAME (gemma-2-9b.json). Its length, 0
 * when the path names none (config.json in the working folder, a file not ending in .json):
 * the model type stays the name. */
static size_t name_in_path(const char *path, const char **name)
{
    const char *base = strrchr(path, '/');
    size_t len, end, start;
    base = base ? base + 1 : path;
    len = strlen(base);
    if (strcmp(base, "config.json") == 0) {
        end = (size_t)(base - path);
        while (end > 0 && path[end - 1] == '/') end--;
        for (start = end; start > 0 && path[start - 1] != '/'; start--) {}
        *name = path + start;
        len = end - start;
        return (len == 1 && path[start] == '.') || (len == 2 && strncmp(*name, "..", 2) == 0) ? 0 : len;
    }
    *name = base;
    return len > 5 && strcmp(base + len - 5, ".json") == 0 ? len - 5 : 0;
}

int trainsize_job_load_hf_config_file(trainsize_job *job, const char *path, trainsize_error *err)
{
    ts_model *m = job ? &job->s.model : NULL;
    const char *name = NULL;
    size_t len;
    int rc = ts_load_file(job, path, "hf-config", trainsize_job_load_hf_config, err);
    /* A config without _name_or_path is named by its model type (the parser's fallback,
     * which is also its family): a file's path names the model better. */
    if (rc != TRAINSIZE_OK || strcmp(m->name, m->family) != 0 || (len = name_in_path(path, &name)) == 0)
        return rc;
    len = ts_utf8_prefix(name, len < sizeof m->name ? len : sizeof m->name - 1);
    snprintf(m->name, sizeof m->name, "%.*s", (int)len, name);
    ts_text_tidy(m->name, sizeof m->name); /* the path is the caller's bytes */
    return rc;
}

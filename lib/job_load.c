/* What a file or a caller describes, given to a job: a config.json's model, a device's
 * description, a site's calibration. The readers (hf_config.c, custom_gpu.c,
 * calibration.c) fill structs and never see a job; only here does the job change, and
 * only once the whole input was read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibration.h"
#include "custom_gpu.h"
#include "error.h"
#include "file_read.h"
#include "job.h"
#include "text.h"
#include "text_values.h"

/* ---- a model's config.json ---- */

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
    ts_job_count_model(job);
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
    ts_job_count_model(job);               /* its name is part of the model counted */
    return rc;
}

/* ---- a device of the caller's own ---- */

/* The job keeps a copy, so the catalogue's entries and the caller's stay interchangeable. */
static int use_gpu(trainsize_job *job, const ts_gpu_description *d, trainsize_error *err)
{
    job->custom = *d;
    ts_job_rebind_custom_gpu(job, 1);
    ts_job_fit_device(job);
    return ts_ok(err);
}

int trainsize_job_set_gpu(trainsize_job *job, const trainsize_gpu_info *info, trainsize_error *err)
{
    ts_gpu_description d;
    int rc;
    if (!job || !info) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "gpu", "gpu: NULL job or description");
    if ((rc = ts_gpu_description_make(info, &d, err))) return rc;
    return use_gpu(job, &d, err);
}

int trainsize_job_load_gpu_json(trainsize_job *job, const char *json, size_t len, trainsize_error *err)
{
    ts_gpu_description d;
    int rc;
    if (!job || (!json && len)) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "gpu-file", "gpu-file: NULL job or text");
    if ((rc = ts_gpu_description_read(json, len, &d, err))) return rc;
    return use_gpu(job, &d, err);
}

int trainsize_job_load_gpu_file(trainsize_job *job, const char *path, trainsize_error *err)
{
    return ts_load_file(job, path, "gpu-file", trainsize_job_load_gpu_json, err);
}

/* ---- a site's calibration ---- */

int trainsize_job_load_calibration_json(trainsize_job *job, const char *json, size_t len, trainsize_error *err)
{
    ts_calibration_file f;
    trainsize_job *copy;
    size_t i, gpus_shown;
    int rc;
    if (!job || (!json && len))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "calibration", "calibration: NULL job or text");
    if ((rc = ts_calibration_read(json, len, &f, err))) return rc;
    /* each setting through the catalogue, on a copy: the caller's job changes only when
     * every one is taken */
    copy = trainsize_job_clone(job);
    if (!copy) return ts_fail(err, TRAINSIZE_E_NOMEM, "calibration", "calibration: out of memory");
    for (i = 0; i < f.settings; i++) {
        char text[40];
        trainsize_error inner;
        ts_format_shortest(text, sizeof text, f.values[i]); /* the C locale's form, whatever LC_NUMERIC says */
        if ((rc = trainsize_job_set(copy, f.names[i], text, &inner)) != TRAINSIZE_OK) {
            free(copy);
            return ts_fail(err, rc, "calibration", "calibration: settings: %s", inner.message);
        }
    }
    copy->s.calibration_runs = f.runs;
    memcpy(copy->s.calibration_gpus, f.gpus, sizeof f.gpus);
    memcpy(copy->s.calibration_date, f.date, sizeof f.date);
    copy->s.calibration_loo_error = f.loo_error;
    /* the GPU list cut to 60 bytes on a whole character: the report and the JSON show it */
    gpus_shown = strlen(f.gpus) < 60 ? strlen(f.gpus) : ts_utf8_prefix(f.gpus, 60);
    snprintf(copy->s.calibration_text, sizeof copy->s.calibration_text, "%llu run%s on %.*s%s%s%.15s",
             (unsigned long long)f.runs, f.runs == 1 ? "" : "s", (int)gpus_shown, f.gpus,
             gpus_shown < strlen(f.gpus) ? "..." : "", f.date[0] ? ", " : "", f.date);
    *job = *copy;
    ts_job_rebind_custom_gpu(job, copy->s.gpu == &copy->custom.info);
    free(copy);
    return ts_ok(err);
}

int trainsize_job_load_calibration(trainsize_job *job, const char *path, trainsize_error *err)
{
    return ts_load_file(job, path, "calibration", trainsize_job_load_calibration_json, err);
}

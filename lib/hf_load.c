/* Loading a Hugging Face config.json into a job: from memory, or from a file read into a
 * bounded buffer. The parsing itself is hf_config.c's. */

#include "error.h"
#include "file_read.h"
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
    if ((rc = ts_hf_config_parse(json ? json : "", len, &parsed, err)) ||
        (rc = ts_job_model_in_range(&parsed, err)))
        return rc;
    job->s.model = parsed;
    ts_job_fit_seq(job);
    return ts_ok(err);
}

int trainsize_job_load_hf_config_file(trainsize_job *job, const char *path, trainsize_error *err)
{
    return ts_load_file(job, path, "hf-config", trainsize_job_load_hf_config, err);
}

/* A checkpoint's headers against the job's model shape (trainsize_job_set_checkpoint):
 * where the headers hold more parameters than the shape describes (a vision tower, a value
 * head or an MTP module the config reader does not know), the difference becomes the job's
 * extra-params, trained and held like the embedding, and the tensor groups that make it up
 * (checkpoint_groups.c) are named in the job's report. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "checked.h"
#include "checkpoint_groups.h"
#include "error.h"
#include "job.h"
#include "model.h"
#include "text.h"

int trainsize_job_set_checkpoint(trainsize_job *job, trainsize_checkpoint *ck, trainsize_error *err)
{
    ts_model m;
    ts_param_counts pc;
    uint64_t described;
    int rc;
    if (!job || !ck) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "safetensors", "safetensors: NULL job or checkpoint");
    m = job->s.model;
    m.extra_params = 0;
    if ((rc = ts_model_validate(&m, err)) != TRAINSIZE_OK ||
        (rc = ts_model_count(&m, &pc, err)) != TRAINSIZE_OK)
        return rc == TRAINSIZE_E_OVERFLOW ? rc
                                          : ts_fail(err, TRAINSIZE_E_INVALID, "model",
                                                    "model: the checkpoint needs a model shape to compare with "
                                                    "(a preset or a config.json)");
    /* the checkpoint holds the multi-token-prediction modules the count keeps apart */
    if (ts_add_u64(pc.total, pc.mtp, &described) != 0)
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "model", "model: parameter count does not fit in 64 bits");
    ck->config_parameters = described;
    ck->extra_parameters = ck->parameters > described ? ck->parameters - described : 0;
    ts_checkpoint_explain(ck, &pc, described);
    job->s.model.extra_params = ck->extra_parameters;
    ts_job_count_model(job); /* which clears the note of an earlier checkpoint */
    ts_checkpoint_describe_extra(ck, job->extra_tensors, sizeof job->extra_tensors);
    return ts_ok(err);
}

#define CONFIG_PATH_MAX 4096

int trainsize_job_load_checkpoint(trainsize_job *job, const char *dir, const char *name, trainsize_checkpoint *ck,
                                  trainsize_error *err)
{
    char config[CONFIG_PATH_MAX];
    trainsize_job *trial;
    int n, rc;
    if (!job || !dir || !ck)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "safetensors", "safetensors: NULL job, folder or checkpoint");
    n = snprintf(config, sizeof config, "%s/config.json", dir);
    if (n < 0 || (size_t)n >= sizeof config)
        return ts_fail(err, TRAINSIZE_E_LIMIT, "hf-config", "hf-config: the folder's path is too long");
    if ((rc = trainsize_checkpoint_read(dir, ck, err)) != TRAINSIZE_OK) return rc;
    /* the shape and the comparison on a copy: the job changes only when all succeed */
    if (!(trial = trainsize_job_clone(job))) {
        memset(ck, 0, sizeof *ck);
        return ts_fail(err, TRAINSIZE_E_NOMEM, "safetensors", "safetensors: out of memory");
    }
    rc = trainsize_job_load_hf_config_file(trial, config, err);
    if (rc == TRAINSIZE_OK && name && *name) {
        ts_model *m = &trial->s.model;
        snprintf(m->name, sizeof m->name, "%.*s", (int)ts_utf8_prefix(name, strnlen(name, sizeof m->name - 1)), name);
        ts_text_tidy(m->name, sizeof m->name); /* the caller's bytes */
    }
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_checkpoint(trial, ck, err);
    if (rc == TRAINSIZE_OK) {
        *job = *trial;
        ts_job_rebind_custom_gpu(job, trial->s.gpu == &trial->custom.info);
    } else {
        memset(ck, 0, sizeof *ck);
    }
    trainsize_job_free(trial);
    return rc;
}

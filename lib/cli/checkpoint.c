/* --hf-model and --safetensors: a model's checkpoint found and counted from its
 * safetensors headers (the library's trainsize_hf_snapshot, trainsize_job_load_checkpoint,
 * trainsize_checkpoint_read and trainsize_job_set_checkpoint). */
#include "cli.h"

#include <string.h>

#define PATH_CAP 4096

int ts_cli_load_checkpoint(const ts_cli *cx, trainsize_job *job, const ts_cli_options *opts)
{
    trainsize_checkpoint ck;
    trainsize_error err;
    char dir[PATH_CAP];
    int rc;
    if (opts->hf_model) {
        char cache[PATH_CAP];
        int n = trainsize_hf_hub_cache(cache, sizeof cache);
        if (n < 0 || (size_t)n >= sizeof cache) {
            ts_cli_error(cx, "hf-model: no Hugging Face cache to search: set HF_HUB_CACHE, HF_HOME or HOME");
            return TS_CLI_EXIT_USAGE;
        }
        rc = trainsize_hf_snapshot(cache, opts->hf_model, opts->revision, dir, sizeof dir, &err);
        if (rc == TRAINSIZE_OK) rc = trainsize_job_load_checkpoint(job, dir, opts->hf_model, &ck, &err);
    } else if (!opts->model && !opts->hf_config) {
        /* a folder: its config.json is the model; a file says nothing of its model */
        size_t n = strlen(opts->safetensors);
        if ((n >= 12 && strcmp(opts->safetensors + n - 12, ".safetensors") == 0) ||
            (n >= 5 && strcmp(opts->safetensors + n - 5, ".json") == 0)) {
            ts_cli_error(cx, "safetensors: %.200s is a file: give its model with --model or --hf-config, or give the "
                      "folder that holds its config.json",
                      opts->safetensors);
            return TS_CLI_EXIT_USAGE;
        }
        rc = trainsize_job_load_checkpoint(job, opts->safetensors, NULL, &ck, &err);
    } else {
        rc = trainsize_checkpoint_read(opts->safetensors, &ck, &err);
        if (rc == TRAINSIZE_OK) rc = trainsize_job_set_checkpoint(job, &ck, &err);
    }
    if (rc != TRAINSIZE_OK) return ts_cli_library_error(cx, rc, &err);
    /* more than the shape: the report says it (extra-params); fewer is said here, once the
     * command has its answer */
    if (ck.parameters < ck.config_parameters)
        ts_cli_hold_note(cx, "the checkpoint's headers hold %llu parameters, %llu fewer than its shape "
                  "describes (%llu; packed or quantized tensors?): the shape's count is used",
                  (unsigned long long)ck.parameters, (unsigned long long)(ck.config_parameters - ck.parameters),
                  (unsigned long long)ck.config_parameters);
    return TS_CLI_EXIT_OK;
}

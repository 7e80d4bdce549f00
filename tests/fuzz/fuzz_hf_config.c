/* Fuzz target: the JSON readers — a Hugging Face config.json, then an estimate of what it
 * read, and a device description file. Any input must give a result or a clean error:
 * never a crash, a hang or a leak. */
#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    trainsize_result r;
    if (!job) return 0;
    if (trainsize_job_load_hf_config(job, (const char *)data, size, &err) == TRAINSIZE_OK)
        (void)trainsize_estimate(job, &r, sizeof r, &err);
    (void)trainsize_job_set(job, "model", "gpt2", &err);
    if (trainsize_job_load_gpu_json(job, (const char *)data, size, &err) == TRAINSIZE_OK)
        (void)trainsize_estimate(job, &r, sizeof r, &err);
    trainsize_job_free(job);
    return 0;
}

/* Fuzz target: a JSON device file (trainsize_job_load_gpu_json), then an estimate and a
 * plan-apply round trip on that GPU. */
#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    trainsize_advice advice[2];
    size_t n;
    if (!job) return 0;
    (void)trainsize_job_set(job, "model", "gpt2", &err);
    if (trainsize_job_load_gpu_json(job, (const char *)data, size, &err) == TRAINSIZE_OK &&
        trainsize_estimate(job, &r, sizeof r, &err) == TRAINSIZE_OK && !r.memory.fits)
        (void)trainsize_advise(job, advice, 2, &n, &err);
    trainsize_job_free(job);
    return 0;
}

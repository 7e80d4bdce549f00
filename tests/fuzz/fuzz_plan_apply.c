/* Fuzz target: trainsize_plan_apply with an arbitrary candidate (the input's bytes laid over
 * the struct, as a binding caller could build it), then an estimate of the job. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trainsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_plan_candidate c;
    trainsize_result r;
    trainsize_error err;
    size_t keep = size < sizeof c ? size : sizeof c;
    if (!job) return 0;
    memset(&c, 0, sizeof c);
    /* A readable GPU name most of the time, so the rest of the candidate is reached. */
    if (size > 0 && data[0] < 128) memcpy(c.gpu, "a100-80gb", 10);
    if (keep > sizeof c.gpu) memcpy((char *)&c + sizeof c.gpu, data + sizeof c.gpu, keep - sizeof c.gpu);
    else if (size > 0 && data[0] >= 128) memcpy(c.gpu, data, keep);
    (void)trainsize_job_set(job, "model", "gpt2", &err);
    (void)trainsize_job_set(job, "tokens", "1e9", &err);
    if (trainsize_plan_apply(job, &c, &err) == TRAINSIZE_OK)
        (void)trainsize_estimate(job, &r, sizeof r, &err);
    trainsize_job_free(job);
    return 0;
}

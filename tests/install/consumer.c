/* A program outside the project that uses the installed library: it must build through
 * pkg-config and through find_package(trainsize), link, and estimate. */
#include <stdio.h>
#include <string.h>

#include <trainsize.h>

int main(void)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    if (!job) return 1;
    if (trainsize_abi_version() != TRAINSIZE_ABI_VERSION ||
        strcmp(trainsize_version_string(), TRAINSIZE_VERSION_STRING) != 0) {
        fprintf(stderr, "consumer: header and library versions differ\n");
        return 1;
    }
    if (trainsize_job_set(job, "model", "llama-2-7b", &err) != TRAINSIZE_OK ||
        trainsize_job_set(job, "gpus", "8", &err) != TRAINSIZE_OK ||
        trainsize_job_set(job, "zero", "3", &err) != TRAINSIZE_OK ||
        trainsize_estimate(job, &r, sizeof r, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "consumer: %s\n", err.message);
        return 1;
    }
    printf("consumer: %s on 8 GPUs: %llu bytes per GPU\n", r.model.name,
           (unsigned long long)r.memory.peak_total);
    trainsize_job_free(job);
    return r.model.parameters == 6738415616ull ? 0 : 1;
}

/* Fuzz target: the job API on arbitrary parameter settings. Each input line is
 * "<byte>value": the first byte picks a catalogue parameter, the rest is its text. Then
 * the job is estimated and every parameter and result field read back; when the input's
 * first byte is 1 modulo 8 the job is also planned (eight of its own GPU: a plan is
 * slow under instrumentation, so only some inputs plan) and its best candidate applied and
 * estimated. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "trainsize.h"

#define MAX_VALUE 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    size_t pos = 0, i, count = trainsize_param_count();
    char value[MAX_VALUE + 1], text[64];
    static char json[65536]; /* the estimate's JSON is about 9 kB */
    if (!job) return 0;
    while (pos < size) {
        const trainsize_param_info *p = trainsize_param_at(data[pos++] % count);
        size_t len = 0;
        while (pos < size && data[pos] != '\n' && len < MAX_VALUE) value[len++] = (char)data[pos++];
        while (pos < size && data[pos] != '\n') pos++;
        pos++; /* the newline */
        value[len] = '\0';
        (void)trainsize_job_set(job, p->name, value, &err);
    }
    if (trainsize_estimate(job, &r, sizeof r, &err) == TRAINSIZE_OK) {
        for (i = 0; i < trainsize_result_field_count(); i++) {
            trainsize_field_value v;
            (void)trainsize_result_field_get(&r, i, &v);
        }
        /* the JSON every consumer prints, whole and cut short */
        (void)trainsize_result_json(&r, NULL, 0, json, sizeof json, &err);
        (void)trainsize_result_json(&r, NULL, 0, json, (size_t)(size % 64), &err);
    }
    if (size > 0 && (data[0] & 7u) == 1u) {
        trainsize_plan_candidate best[4];
        trainsize_plan_stats stats;
        size_t found = 0;
        char gpu[64];
        /* One GPU, eight of it: a plan under the fuzz instrumentation is slow. */
        if (trainsize_job_get(job, "gpu", gpu, sizeof gpu, &err) == TRAINSIZE_OK)
            (void)trainsize_job_set(job, "plan-gpus", gpu, &err);
        (void)trainsize_job_set(job, "plan-gpu-count", "8", &err);
        if (trainsize_plan(job, best, 4, &found, &stats, &err) == TRAINSIZE_OK &&
            trainsize_plan_json(job, best, found, &stats, json, sizeof json, &err) >= 0 && found > 0 &&
            trainsize_plan_apply(job, &best[0], &err) == TRAINSIZE_OK)
            (void)trainsize_estimate(job, &r, sizeof r, &err);
    }
    for (i = 0; i < count; i++) (void)trainsize_job_get(job, trainsize_param_at(i)->name, text, sizeof text, &err);
    trainsize_job_free(job);
    return 0;
}

/* Fuzz target: a site calibration. The first byte chooses: even, the input is a
 * calibration file (trainsize_job_load_calibration_json, then an estimate of the job it
 * changed); odd, the rest is a RUNS.json (trainsize_calibrate: runs read, fitted, the file
 * written, and that file loaded back, which must succeed). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "trainsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RUNS 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    trainsize_job *job;
    trainsize_error err;
    if (size < 1) return 0;
    job = trainsize_job_new();
    if (!job) return 0;
    (void)trainsize_job_set(job, "model", "gpt2", &err);
    if (data[0] % 2 == 0) {
        trainsize_result r;
        if (trainsize_job_load_calibration_json(job, (const char *)data + 1, size - 1, &err) == TRAINSIZE_OK)
            (void)trainsize_estimate(job, &r, sizeof r, &err);
    } else {
        trainsize_calibration_run runs[RUNS];
        trainsize_calibration_summary summary;
        static char text[1 << 16];
        size_t count, len;
        if (trainsize_calibrate((const char *)data + 1, size - 1, "2026-12-01", runs, RUNS, &count, &summary, text,
                                sizeof text, &len, &err) == TRAINSIZE_OK &&
            len < sizeof text && trainsize_job_load_calibration_json(job, text, len, &err) != TRAINSIZE_OK)
            abort(); /* what calibrate writes, load takes */
    }
    trainsize_job_free(job);
    return 0;
}

/* Fuzz target: the command's option parser and everything after it. Each input line is
 * one argument of `trainsize estimate`; the report and the JSON are built in memory
 * (nothing is written to standard output). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    char *argv[MAX_ARGS + 1];
    int argc = 0;
    size_t i, start = 0;
    cli_options opts;
    trainsize_job *job = NULL;
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    for (i = 0; i <= size && argc < MAX_ARGS; i++) {
        if (i == size || copy[i] == '\n' || copy[i] == '\0') {
            copy[i] = '\0';
            argv[argc++] = copy + start;
            start = i + 1;
        }
    }
    argv[argc] = NULL;
    if (cli_parse_options(argc, argv, &opts) == CLI_EXIT_OK) {
        if (!opts.help && cli_build_job(&opts, &job) == CLI_EXIT_OK) {
            trainsize_result r;
            trainsize_error err;
            if (trainsize_estimate(job, &r, sizeof r, &err) == TRAINSIZE_OK) {
                ts_out out;
                trainsize_advice advice[2];
                size_t advised = 0;
                if (!r.memory.fits && trainsize_advise(job, advice, 2, &advised, &err) != TRAINSIZE_OK)
                    advised = 0;
                ts_out_init(&out);
                cli_report(&out, job, &r, advice, advised);
                (void)cli_result_json(&out, &r, advice, advised);
                ts_out_free(&out);
            }
            trainsize_job_free(job);
        }
        cli_options_free(&opts);
    }
    free(copy);
    return 0;
}

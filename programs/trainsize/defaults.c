/* The built-in example job: what `trainsize` with no arguments sizes.
 *
 * A 7B-class model on one server of built-in GPUs. It needs no file and no network; every
 * setting goes through trainsize_job_set, like the command-line options. */
#include "cli.h"

const cli_setting cli_example_job[] = {
    {"model", "llama-2-7b"},
    {"gpu", "a100-80gb"},
    {"gpus", "8"},
    {"zero", "3"},
    {"micro-batch", "1"},
    {"seq", "4096"},
    {"precision", "bf16-mixed"},
};

const size_t cli_example_job_count = sizeof cli_example_job / sizeof cli_example_job[0];

int cli_apply_example_job(trainsize_job *job)
{
    size_t i;

    for (i = 0; i < cli_example_job_count; i++) {
        trainsize_error err;
        int rc = trainsize_job_set(job, cli_example_job[i].name, cli_example_job[i].value, &err);
        if (rc != TRAINSIZE_OK) {
            /* Not the user's input: a failure of the command, not exit status 2. */
            cli_library_error(rc, &err);
            return CLI_EXIT_FAILURE;
        }
    }
    return CLI_EXIT_OK;
}

/* The built-in example job: what `trainsize` with no arguments sizes.
 *
 * A 7B-class model on one server of built-in GPUs. It needs no file and no network; every
 * setting goes through trainsize_job_set, like the command-line options. */
#include "cli.h"

const ts_cli_setting ts_cli_example_job[] = {
    {"model", "llama-2-7b"},
    {"gpu", "a100-80gb"},
    {"gpus", "8"},
    {"zero", "3"},
    {"micro-batch", "1"},
    {"seq", "4096"},
    {"precision", "bf16-mixed"},
};

const size_t ts_cli_example_job_count = sizeof ts_cli_example_job / sizeof ts_cli_example_job[0];

int ts_cli_apply_example_job(const ts_cli *cx, trainsize_job *job)
{
    size_t i;

    for (i = 0; i < ts_cli_example_job_count; i++) {
        trainsize_error err;
        int rc = trainsize_job_set(job, ts_cli_example_job[i].name, ts_cli_example_job[i].value, &err);
        if (rc != TRAINSIZE_OK) {
            /* Not the user's input: a failure of the command, not exit status 2. */
            ts_cli_library_error(cx, rc, &err);
            return TS_CLI_EXIT_FAILURE;
        }
    }
    return TS_CLI_EXIT_OK;
}

int trainsize_example_setting(size_t index, const char **name, const char **value)
{
    if (index >= ts_cli_example_job_count)
        return 0;
    if (name) *name = ts_cli_example_job[index].name;
    if (value) *value = ts_cli_example_job[index].value;
    return 1;
}

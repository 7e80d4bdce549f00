/* The `estimate` command: options -> job -> estimate -> report or JSON.
 *
 * The output is built only after the estimate succeeded and written in one go, so an
 * error leaves standard output empty. */
#include "cli.h"

int cli_cmd_estimate(int argc, char **argv)
{
    cli_options opts;
    trainsize_job *job = NULL;
    trainsize_result result;
    trainsize_advice advice[CLI_ADVICE_MAX];
    size_t advised = 0;
    trainsize_error err;
    ts_out out;
    int status, rc;

    status = cli_parse_options(argc, argv, &opts);
    if (status != CLI_EXIT_OK)
        return status;
    if (opts.help) {
        cli_options_free(&opts);
        return cli_print_help(CLI_HELP_ESTIMATE);
    }
    status = cli_build_job(&opts, &job);
    if (status != CLI_EXIT_OK) {
        cli_options_free(&opts);
        return status;
    }
    rc = trainsize_estimate(job, &result, sizeof result, &err);
    if (rc != TRAINSIZE_OK) {
        status = cli_library_error(rc, &err);
        goto done;
    }
    /* A job that does not fit gets the changes that make it fit (none when nothing does). */
    if (!result.memory.fits && trainsize_advise(job, advice, CLI_ADVICE_MAX, &advised, NULL) != TRAINSIZE_OK)
        advised = 0;
    ts_out_init(&out);
    if (opts.json) {
        if (cli_json_result(&out, &result, advice, advised) != 0) {
            ts_out_free(&out);
            status = CLI_EXIT_FAILURE;
            goto done;
        }
    } else {
        cli_report(&out, job, &result, advice, advised);
    }
    status = cli_out_flush_stdout(&out);

done:
    trainsize_job_free(job);
    cli_options_free(&opts);
    return status;
}

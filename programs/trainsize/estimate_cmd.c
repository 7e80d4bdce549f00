/* The `estimate` command: options -> job -> estimate -> report or JSON.
 *
 * The output is built only after the estimate succeeded and written in one go, so an
 * error leaves standard output empty. cli_estimate_options is the part before the output,
 * which the WebAssembly module also calls to hand the result over without any JSON. */
#include "cli.h"

int cli_estimate_options(int argc, char **argv, const trainsize_job *base, cli_options *opts,
                         trainsize_job **job, cli_estimate *e)
{
    trainsize_error err;
    int status, rc;

    *job = NULL;
    e->advised = 0;
    status = cli_parse_options(argc, argv, opts);
    if (status != CLI_EXIT_OK)
        return status;
    if (opts->help)
        return CLI_EXIT_OK;
    status = cli_build_job_from(opts, base, job);
    if (status != CLI_EXIT_OK)
        return status;
    rc = trainsize_estimate(*job, &e->result, sizeof e->result, &err);
    if (rc != TRAINSIZE_OK)
        return cli_library_error(rc, &err);
    /* A job that does not fit gets the changes that make it fit (none when nothing does). */
    if (!e->result.memory.fits &&
        trainsize_advise(*job, e->advice, CLI_ADVICE_MAX, &e->advised, NULL) != TRAINSIZE_OK)
        e->advised = 0;
    return CLI_EXIT_OK;
}

int cli_cmd_estimate(int argc, char **argv)
{
    cli_options opts;
    trainsize_job *job = NULL;
    cli_estimate e;
    ts_out out;
    int status;

    status = cli_estimate_options(argc, argv, NULL, &opts, &job, &e);
    if (status != CLI_EXIT_OK)
        goto done;
    if (opts.help) {
        status = cli_print_help(CLI_HELP_ESTIMATE);
        goto done;
    }
    ts_out_init(&out);
    status = cli_out_finish(&out, opts.json ? cli_result_json(&out, &e.result, e.advice, e.advised)
                                            : cli_report(&out, job, &e.result, e.advice, e.advised));

done:
    trainsize_job_free(job);
    cli_options_free(&opts);
    return status;
}

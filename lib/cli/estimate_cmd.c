/* The `estimate` command: options -> job -> estimate -> report or JSON.
 *
 * The output is built only after the estimate succeeded and written in one go, so an
 * error leaves the output empty. ts_cli_estimate_options is the part before the output. */
#include "cli.h"

int ts_cli_estimate_options(const ts_cli *cx, int argc, char *const *argv, const trainsize_job *base, ts_cli_options *opts,
                         trainsize_job **job, ts_cli_estimate *e)
{
    trainsize_error err;
    int status, rc;

    *job = NULL;
    e->advised = 0;
    status = ts_cli_parse_options(cx, argc, argv, opts);
    if (status != TS_CLI_EXIT_OK)
        return status;
    if (opts->help)
        return TS_CLI_EXIT_OK;
    status = ts_cli_build_job_from(cx, opts, base, job);
    if (status != TS_CLI_EXIT_OK)
        return status;
    rc = trainsize_estimate(*job, &e->result, sizeof e->result, &err);
    if (rc != TRAINSIZE_OK)
        return ts_cli_library_error(cx, rc, &err);
    /* A job that does not fit gets the changes that make it fit (none when nothing does). */
    if (!e->result.memory.fits &&
        trainsize_advise(*job, e->advice, TS_CLI_ADVICE_MAX, &e->advised, NULL) != TRAINSIZE_OK)
        e->advised = 0;
    return TS_CLI_EXIT_OK;
}

int ts_cli_cmd_estimate(const ts_cli *cx, int argc, char *const *argv)
{
    ts_cli_options opts;
    trainsize_job *job = NULL;
    ts_cli_estimate e;
    ts_out out;
    int status;

    status = ts_cli_estimate_options(cx, argc, argv, NULL, &opts, &job, &e);
    if (status != TS_CLI_EXIT_OK)
        goto done;
    if (opts.help) {
        status = ts_cli_print_help(cx, TS_CLI_HELP_ESTIMATE);
        goto done;
    }
    ts_out_init(&out);
    status = ts_cli_out_finish(cx, &out, opts.json ? ts_cli_result_json(cx, &out, &e.result, e.advice, e.advised)
                                            : ts_cli_report(cx, &out, job, &e.result, e.advice, e.advised));

done:
    trainsize_job_free(job);
    ts_cli_options_free(&opts);
    return status;
}

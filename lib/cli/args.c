/* Option parsing: the command line of `estimate` (and of `plan`) into a trainsize_job.
 *
 * The mapping is generic: `--NAME VALUE` and `--NAME=VALUE` become
 * trainsize_job_set(job, "NAME", "VALUE") for every parameter of the library's catalogue,
 * so a parameter added to the library is an option of the command without a change here.
 * BOOL parameters may be given bare (`--sp` means true). Only the options that are not job
 * parameters are named here: --json, --help, --model (applied first), --hf-config,
 * --hf-model (with --revision) and --safetensors (checkpoint.c loads those two).
 *
 * For `plan`, three things differ: `--gpu NAME[,NAME...]` is the planner's catalogue
 * restriction (the parameter "plan-gpus"), `--top N` belongs to the command, and the
 * options of a fixed layout are refused, since the planner chooses the layout. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* How much of a user's option name an error message repeats. */
#define NAME_SHOWN 64

const trainsize_param_info *ts_cli_find_param(const char *name, size_t len)
{
    char whole[64]; /* longer than any parameter's name */
    /* an option's name is the part of "--name=value" before '=': the library looks it up */
    if (len == 0 || len >= sizeof whole) return NULL;
    memcpy(whole, name, len);
    whole[len] = '\0';
    return trainsize_param_by_id(trainsize_param_find(whole));
}

static int name_is(const char *name, size_t len, const char *want)
{
    return strlen(want) == len && memcmp(name, want, len) == 0;
}

/* Why `plan` refuses an option (the library's planner policy), or NULL. */
static const char *plan_refusal(const char *name, size_t len)
{
    const trainsize_param_info *p = ts_cli_find_param(name, len);
    return p ? trainsize_param_plan_refusal(trainsize_param_find(p->name)) : NULL;
}

void ts_cli_options_free(ts_cli_options *opts)
{
    free(opts->sets);
    opts->sets = NULL;
    opts->set_count = 0;
}

/* The options that name a job or a file rather than set a parameter (and plan's --top). */
static int not_a_parameter(const char *name, size_t len, int plan)
{
    return name_is(name, len, "model") || name_is(name, len, "hf-config") || name_is(name, len, "hf-model") ||
           name_is(name, len, "revision") || name_is(name, len, "safetensors") || name_is(name, len, "gpu-file") ||
           name_is(name, len, "calibration") || (plan && name_is(name, len, "top"));
}

/* An option's value where it belongs: a catalogue parameter's in order, the others by name. */
static void keep_value(ts_cli_options *out, const trainsize_param_info *p, const char *name, size_t len,
                       const char *value)
{
    if (!p && name_is(name, len, "model")) {
        out->model = value;
    } else if (!p && name_is(name, len, "top")) {
        out->top = value;
    } else if (!p && name_is(name, len, "gpu-file")) {
        out->gpu_file = value;
    } else if (!p && name_is(name, len, "calibration")) {
        out->calibration = value;
    } else if (!p && name_is(name, len, "hf-model")) {
        out->hf_model = value;
    } else if (!p && name_is(name, len, "revision")) {
        out->revision = value;
    } else if (!p && name_is(name, len, "safetensors")) {
        out->safetensors = value;
    } else if (!p) {
        out->hf_config = value;
    } else {
        out->sets[out->set_count].name = p->name;
        out->sets[out->set_count].value = value;
        out->set_count++;
    }
}

static int parse(const ts_cli *cx, int argc, char *const *argv, int plan, ts_cli_options *out)
{
    const char *cmd = plan ? "plan" : "estimate";
    int i;

    memset(out, 0, sizeof *out);
    out->plan = plan;
    /* --help wins wherever it is, even after a mistake. */
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            out->help = 1;
            return TS_CLI_EXIT_OK;
        }
    }
    if (argc > 0) {
        out->sets = calloc((size_t)argc, sizeof *out->sets);
        if (!out->sets) {
            ts_cli_error(cx, "out of memory");
            return TS_CLI_EXIT_FAILURE;
        }
    }
    for (i = 0; i < argc; i++) {
        const char *arg = argv[i];
        const char *name, *eq, *value = NULL;
        size_t len;
        const trainsize_param_info *p;
        int special;

        if (arg[0] != '-') {
            ts_cli_error(cx, "unexpected argument '%.*s' (options start with --; see trainsize "
                      "%s --help)", NAME_SHOWN, arg, cmd);
            goto usage;
        }
        if (arg[1] != '-' || arg[2] == '\0') {
            ts_cli_error(cx, "unknown option '%.*s' (see trainsize %s --help)", NAME_SHOWN, arg, cmd);
            goto usage;
        }
        name = arg + 2;
        eq = strchr(name, '=');
        len = eq ? (size_t)(eq - name) : strlen(name);
        if (eq)
            value = eq + 1;

        if (name_is(name, len, "json")) {
            if (value) {
                ts_cli_error(cx, "option --json takes no value");
                goto usage;
            }
            out->json = 1;
            continue;
        }
        if (plan && plan_refusal(name, len)) {
            ts_cli_error(cx, "option --%.*s is not an option of plan: %s (see trainsize plan --help)",
                      (int)len, name, plan_refusal(name, len));
            goto usage;
        }
        /* The options that are not job parameters, then the catalogue's. */
        special = not_a_parameter(name, len, plan);
        if (plan && name_is(name, len, "gpu"))
            p = ts_cli_find_param("plan-gpus", 9);
        else
            p = special ? NULL : ts_cli_find_param(name, len);
        if (!p && !special) {
            ts_cli_error(cx, "unknown option '--%.*s' (see trainsize %s --help)",
                      (int)(len < NAME_SHOWN ? len : NAME_SHOWN), name, cmd);
            goto usage;
        }
        if (!value && p && p->kind == TRAINSIZE_PARAM_BOOL) {
            /* Bare `--sp` is true; `--sp false` and `--sp=false` are accepted as well (the
             * command takes no positional argument, so a word after it is its value). */
            if (i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0)
                value = argv[++i];
            else
                value = "true";
        }
        if (!value) {
            if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) {
                ts_cli_error(cx, "option --%.*s needs a value", (int)(len < NAME_SHOWN ? len : NAME_SHOWN),
                          name);
                goto usage;
            }
            value = argv[++i];
        }
        if (p && plan && value[0] == '\0' && strcmp(p->name, "plan-gpus") == 0) {
            ts_cli_error(cx, "option --%.*s: expected catalogue GPU names, got an empty list",
                      (int)len, name);
            goto usage;
        }
        keep_value(out, p, name, len, value);
    }
    return TS_CLI_EXIT_OK;

usage:
    ts_cli_options_free(out);
    return TS_CLI_EXIT_USAGE;
}

int ts_cli_parse_options(const ts_cli *cx, int argc, char *const *argv, ts_cli_options *out)
{
    return parse(cx, argc, argv, 0, out);
}

int ts_cli_parse_plan_options(const ts_cli *cx, int argc, char *const *argv, ts_cli_options *out)
{
    return parse(cx, argc, argv, 1, out);
}

static int load_hf_config(const ts_cli *cx, trainsize_job *job, const char *path)
{
    trainsize_error err;
    int rc = trainsize_job_load_hf_config_file(job, path, &err);

    if (rc == TRAINSIZE_OK)
        return TS_CLI_EXIT_OK;
    if (err.message[0] != '\0' && memchr(err.message, '\0', sizeof err.message) &&
        !strstr(err.message, path)) {
        /* Say which file, when the library's message does not (in place of the generic
         * "config.json: " it starts with). */
        const char *msg = err.message;
        if (strncmp(msg, "config.json: ", 13) == 0)
            msg += 13;
        ts_cli_error(cx, "--hf-config %.200s: %s", path, msg);
        return (rc == TRAINSIZE_E_NOMEM || rc == TRAINSIZE_E_ARGUMENT) ? TS_CLI_EXIT_FAILURE
                                                                        : TS_CLI_EXIT_USAGE;
    }
    return ts_cli_library_error(cx, rc, &err);
}

int ts_cli_build_job(const ts_cli *cx, const ts_cli_options *opts, trainsize_job **out)
{
    return ts_cli_build_job_from(cx, opts, NULL, out);
}

int ts_cli_build_job_from(const ts_cli *cx, const ts_cli_options *opts, const trainsize_job *base, trainsize_job **out)
{
    trainsize_job *job;
    trainsize_error err;
    int status = TS_CLI_EXIT_OK;
    size_t i;

    *out = NULL;
    if (!!opts->model + !!opts->hf_config + !!opts->hf_model > 1) {
        ts_cli_error(cx, "options --model, --hf-config and --hf-model exclude each other: give one model");
        return TS_CLI_EXIT_USAGE;
    }
    if ((opts->hf_model && opts->safetensors) || (opts->revision && !opts->hf_model)) {
        ts_cli_error(cx, opts->revision && !opts->hf_model ? "option --revision goes with --hf-model"
                                                    : "options --hf-model and --safetensors exclude each other: "
                                                      "give one checkpoint");
        return TS_CLI_EXIT_USAGE;
    }
    for (i = 0; opts->gpu_file && i < opts->set_count; i++) {
        if (strcmp(opts->sets[i].name, "gpu") == 0) {
            ts_cli_error(cx, "options --gpu and --gpu-file exclude each other: give one GPU");
            return TS_CLI_EXIT_USAGE;
        }
    }
    job = base ? trainsize_job_clone(base) : trainsize_job_new();
    if (!job) {
        ts_cli_error(cx, "out of memory");
        return TS_CLI_EXIT_FAILURE;
    }
    if (!opts->plan && !opts->model && !opts->hf_config && !opts->hf_model && !opts->safetensors &&
        opts->set_count == 0) {
        status = ts_cli_apply_example_job(cx, job);
    } else if (opts->model) {
        /* The model first, so that shape options override single fields of it
         * wherever they stand on the command line. */
        int rc = trainsize_job_set(job, "model", opts->model, &err);
        if (rc != TRAINSIZE_OK)
            status = ts_cli_library_error(cx, rc, &err);
    } else if (opts->hf_config) {
        status = load_hf_config(cx, job, opts->hf_config);
    }
    /* a checkpoint: its own model (a cached snapshot, a folder), else the one above counted */
    if (status == TS_CLI_EXIT_OK && (opts->hf_model || opts->safetensors))
        status = ts_cli_load_checkpoint(cx, job, opts);
    /* The site's calibration next (of the example job too): the options after it win over
     * its shares. */
    if (status == TS_CLI_EXIT_OK && opts->calibration) {
        int rc = trainsize_job_load_calibration(job, opts->calibration, &err);
        if (rc != TRAINSIZE_OK)
            status = ts_cli_library_error(cx, rc, &err);
    }
    for (i = 0; status == TS_CLI_EXIT_OK && i < opts->set_count; i++) {
        int rc = trainsize_job_set(job, opts->sets[i].name, opts->sets[i].value, &err);
        if (rc != TRAINSIZE_OK && opts->plan && strcmp(opts->sets[i].name, "plan-gpus") == 0 &&
            strncmp(err.message, "plan-gpus: ", 11) == 0 &&
            memchr(err.message, '\0', sizeof err.message)) {
            /* plan's --gpu is the library's "plan-gpus": name the option the user gave. */
            ts_cli_error(cx, "gpu: %s", err.message + 11);
            status = TS_CLI_EXIT_USAGE;
        } else if (rc != TRAINSIZE_OK) {
            status = ts_cli_library_error(cx, rc, &err);
        }
    }
    /* A device file replaces the GPU, of the example job too. */
    if (status == TS_CLI_EXIT_OK && opts->gpu_file) {
        int rc = trainsize_job_load_gpu_file(job, opts->gpu_file, &err);
        if (rc != TRAINSIZE_OK)
            status = ts_cli_library_error(cx, rc, &err);
    }
    if (status != TS_CLI_EXIT_OK) {
        trainsize_job_free(job);
        return status;
    }
    *out = job;
    return TS_CLI_EXIT_OK;
}

/* trainsize_command: the `trainsize` command on a command line, writing to the caller's
 * writers; trainsize_command_job: the job its estimate would size.
 *
 * Dispatch only: the first argument names the command (estimate, plan, models, gpus,
 * help), or is an option of `estimate`; no argument at all sizes the built-in example
 * job. See cli.h for where each part lives. */
#include "cli.h"

#include <string.h>

typedef int (*ts_cli_command_fn)(const ts_cli *cx, int argc, char *const *argv);

static const struct {
    const char *name;
    ts_cli_command_fn run;
    enum ts_cli_help_topic help;
} commands[] = {
    {"estimate", ts_cli_cmd_estimate, TS_CLI_HELP_ESTIMATE},
    {"plan", ts_cli_cmd_plan, TS_CLI_HELP_PLAN},
    {"models", ts_cli_cmd_models, TS_CLI_HELP_MODELS},
    {"gpus", ts_cli_cmd_gpus, TS_CLI_HELP_GPUS},
    {"calibrate", ts_cli_cmd_calibrate, TS_CLI_HELP_CALIBRATE},
    {"capacity", ts_cli_cmd_capacity, TS_CLI_HELP_CAPACITY},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* For the unknown-command messages: the table's commands and `help`. */
#define COMMAND_NAMES "estimate, plan, models, gpus, calibrate, capacity, help"

static int print_version(const ts_cli *cx)
{
    ts_out out;

    ts_out_init(&out);
    ts_out_printf(&out, "trainsize %s\n", trainsize_version_string());
    return ts_cli_flush(cx, &out);
}

/* `trainsize help [COMMAND]`, `trainsize help --man`, `trainsize help --bash-completion` */
static int help_command(const ts_cli *cx, int argc, char *const *argv)
{
    size_t i;

    if (argc == 0)
        return ts_cli_print_help(cx, TS_CLI_HELP_MAIN);
    /* what the build writes and installs beside the command */
    if (argc == 1 && strcmp(argv[0], "--man") == 0)
        return ts_cli_print_man(cx);
    if (argc == 1 && strcmp(argv[0], "--bash-completion") == 0)
        return ts_cli_print_bash_completion(cx);
    for (i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[0], commands[i].name) == 0)
            return ts_cli_print_help(cx, commands[i].help);
    }
    ts_cli_error(cx, "help: unknown command '%.64s' (commands: " COMMAND_NAMES ")", argv[0]);
    return TS_CLI_EXIT_USAGE;
}

/* The command on a command line that passed the entry's checks. */
static int dispatch(const ts_cli *cx, int argc, char *const *argv)
{
    size_t i;

    if (argc == 1)
        return ts_cli_cmd_estimate(cx, 0, argv + 1); /* the built-in example job */

    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        if (argc > 2) {
            ts_cli_error(cx, "--version takes no arguments");
            return TS_CLI_EXIT_USAGE;
        }
        return print_version(cx);
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return ts_cli_print_help(cx, TS_CLI_HELP_MAIN);
    if (strcmp(argv[1], "help") == 0)
        return help_command(cx, argc - 2, argv + 2);
    if (argv[1][0] == '-')
        return ts_cli_cmd_estimate(cx, argc - 1, argv + 1);
    for (i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(cx, argc - 2, argv + 2);
    }
    ts_cli_error(cx, "unknown command '%.64s' (commands: " COMMAND_NAMES "; see trainsize --help)",
                 argv[1]);
    return TS_CLI_EXIT_USAGE;
}

/* A NULL among the first argc arguments: the caller's mistake, refused before anything runs. */
static int has_null(int argc, char *const *argv)
{
    int i;
    for (i = 0; i < argc; i++)
        if (!argv[i]) return 1;
    return 0;
}

int trainsize_command(int argc, char *const *argv, const trainsize_command_io *io)
{
    ts_cli cx;
    char note[600] = "";

    memset(&cx, 0, sizeof cx); /* NULL io: every writer discards */
    if (io)
        cx.io = *io;
    cx.note = note;
    cx.note_cap = sizeof note;
    if (argc < 1 || !argv || has_null(argc, argv)) {
        ts_cli_error(&cx, "argv: expected argc >= 1 arguments, none of them NULL");
        return TS_CLI_EXIT_FAILURE;
    }
    return dispatch(&cx, argc, argv);
}

int trainsize_command_job(int argc, char *const *argv, const trainsize_job *base, trainsize_job **job,
                          const trainsize_command_io *io)
{
    ts_cli cx;
    ts_cli_options opts;
    char note[600] = "";
    int status;

    memset(&cx, 0, sizeof cx); /* its messages only: a job has no output */
    if (io) {
        cx.io.message = io->message;
        cx.io.message_context = io->message_context;
    }
    cx.note = note;
    cx.note_cap = sizeof note;
    if (job)
        *job = NULL;
    if (!job || argc < 0 || (argc > 0 && (!argv || has_null(argc, argv)))) {
        ts_cli_error(&cx, "job, argv: expected somewhere to put the job and argc >= 0 arguments, none NULL");
        return TS_CLI_EXIT_FAILURE;
    }
    status = ts_cli_parse_options(&cx, argc, argv, &opts);
    if (status == TS_CLI_EXIT_OK && opts.help) {
        ts_cli_error(&cx, "--help: not an option of a job");
        status = TS_CLI_EXIT_USAGE;
    }
    if (status == TS_CLI_EXIT_OK)
        status = ts_cli_build_job_from(&cx, &opts, base, job);
    if (status == TS_CLI_EXIT_OK)
        ts_cli_say_note(&cx); /* the job is the answer */
    ts_cli_options_free(&opts);
    return status;
}

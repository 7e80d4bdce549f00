/* trainsize: what it takes to train a transformer model.
 *
 * Dispatch only: the first argument names the command (estimate, plan, models, gpus,
 * help), or is an option of `estimate`; no argument at all sizes the built-in example
 * job. See cli.h for where each part lives. */
#define _POSIX_C_SOURCE 200809L /* SIGPIPE */

#include "cli.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

typedef int (*cli_command_fn)(int argc, char **argv);

static const struct {
    const char *name;
    cli_command_fn run;
    enum cli_help_topic help;
} commands[] = {
    {"estimate", cli_cmd_estimate, CLI_HELP_ESTIMATE},
    {"plan", cli_cmd_plan, CLI_HELP_PLAN},
    {"models", cli_cmd_models, CLI_HELP_MODELS},
    {"gpus", cli_cmd_gpus, CLI_HELP_GPUS},
    {"calibrate", cli_cmd_calibrate, CLI_HELP_CALIBRATE},
    {"capacity", cli_cmd_capacity, CLI_HELP_CAPACITY},
};

#define COMMAND_COUNT (sizeof commands / sizeof commands[0])

/* For the unknown-command messages: the table's commands and `help`. */
#define COMMAND_NAMES "estimate, plan, models, gpus, calibrate, capacity, help"

static int print_version(void)
{
    ts_out out;

    ts_out_init(&out);
    ts_out_printf(&out, "trainsize %s\n", trainsize_version_string());
    return cli_out_flush_stdout(&out);
}

/* `trainsize help [COMMAND]`, `trainsize help --man`, `trainsize help --bash-completion` */
static int help_command(int argc, char **argv)
{
    size_t i;

    if (argc == 0)
        return cli_print_help(CLI_HELP_MAIN);
    /* what the build writes and installs beside the command */
    if (argc == 1 && strcmp(argv[0], "--man") == 0)
        return cli_print_man();
    if (argc == 1 && strcmp(argv[0], "--bash-completion") == 0)
        return cli_print_bash_completion();
    for (i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[0], commands[i].name) == 0)
            return cli_print_help(commands[i].help);
    }
    cli_error("help: unknown command '%.64s' (commands: " COMMAND_NAMES ")", argv[0]);
    return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
    size_t i;

#ifdef SIGPIPE
    /* A closed pipe is a write error that the command reports (exit status 1), not a
     * silent death by signal. */
    signal(SIGPIPE, SIG_IGN);
#endif
    if (argc < 1 || !argv)
        return CLI_EXIT_FAILURE;
    if (argc == 1)
        return cli_cmd_estimate(0, argv + 1); /* the built-in example job */

    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        if (argc > 2) {
            cli_error("--version takes no arguments");
            return CLI_EXIT_USAGE;
        }
        return print_version();
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_print_help(CLI_HELP_MAIN);
    if (strcmp(argv[1], "help") == 0)
        return help_command(argc - 2, argv + 2);
    if (argv[1][0] == '-')
        return cli_cmd_estimate(argc - 1, argv + 1);
    for (i = 0; i < COMMAND_COUNT; i++) {
        if (strcmp(argv[1], commands[i].name) == 0)
            return commands[i].run(argc - 2, argv + 2);
    }
    cli_error("unknown command '%.64s' (commands: " COMMAND_NAMES "; see trainsize --help)",
              argv[1]);
    return CLI_EXIT_USAGE;
}

/* The `plan` command. The planner is not in the library yet: the command says so and
 * exits with status 1 (a failure of this version, not invalid input), printing nothing on
 * standard output. `plan --help` describes what it will take. */
#include "cli.h"

#include <string.h>

int cli_cmd_plan(int argc, char **argv)
{
    int i;

    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return cli_print_help(CLI_HELP_PLAN);
    }
    cli_error("plan: not available in this version");
    return CLI_EXIT_FAILURE;
}

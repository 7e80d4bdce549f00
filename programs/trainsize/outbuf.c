/* The checked write to stdout and one-line error messages. Nothing reaches stdout before
 * a command has its whole answer: the text is built in a ts_out (lib/text_out.c) and
 * written at the end, so a failure never leaves half a report or half a JSON object
 * behind. */
#include "cli.h"
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cli_out_finish(ts_out *o, int written)
{
    if (written != 0) { /* the writer said why on stderr */
        ts_out_free(o);
        return CLI_EXIT_FAILURE;
    }
    return cli_out_flush_stdout(o);
}

int cli_out_flush_stdout(ts_out *o)
{
    int status = CLI_EXIT_OK;

    if (o->failed) {
        cli_error("out of memory while formatting the output");
        ts_out_free(o);
        return CLI_EXIT_FAILURE;
    }
#ifdef CLI_OUTPUT_TO_MODULE
    (void)status;
    return cli_module_output(o);
#else
    errno = 0;
    if (o->len > 0 && fwrite(o->data, 1, o->len, stdout) != o->len)
        status = CLI_EXIT_FAILURE;
    if (fflush(stdout) != 0 || ferror(stdout))
        status = CLI_EXIT_FAILURE;
    if (status != CLI_EXIT_OK)
        cli_error("cannot write to standard output: %s",
                  errno ? strerror(errno) : "write error");
    ts_out_free(o);
    return status;
#endif
}

void cli_error(const char *fmt, ...)
{
    char msg[1024];
    char line[1100];
    va_list ap;
    size_t i;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One printable line of valid UTF-8, whatever the user or a file put into the message
     * (an argument cut by "%.64s" included): the library's rule for its own messages
     * (lib/text.c), within the 511 bytes it tidies. */
    i = strlen(msg);
    msg[ts_utf8_prefix(msg, i < 511 ? i : 511)] = '\0';
    ts_text_tidy(msg, 512);
    snprintf(line, sizeof line, "trainsize: %s\n", msg);
    fputs(line, stderr);
    fflush(stderr);
}

int cli_library_error(int code, const trainsize_error *err)
{
    if (err && err->message[0] != '\0') {
        if (memchr(err->message, '\0', sizeof err->message) != NULL)
            cli_error("%s", err->message);
        else
            cli_error("%.*s", (int)sizeof err->message, err->message);
    } else if (err && err->field[0] != '\0' &&
               memchr(err->field, '\0', sizeof err->field) != NULL) {
        cli_error("%s: %s", err->field, trainsize_strerror(code));
    } else {
        cli_error("%s", trainsize_strerror(code));
    }
    /* Out of memory and misuse of the API are failures of the command, not of the input. */
    if (code == TRAINSIZE_E_NOMEM || code == TRAINSIZE_E_ARGUMENT)
        return CLI_EXIT_FAILURE;
    return CLI_EXIT_USAGE;
}


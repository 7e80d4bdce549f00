/* The answer to the output writer in one go, and one-line messages. Nothing reaches the
 * output before a command has its whole answer: the text is built in a ts_out
 * (text_out.c) and handed over at the end, so a failure never leaves half a report or half
 * a JSON object behind. */
#define _POSIX_C_SOURCE 200809L /* strerror_r, the XSI one */

#include "cli.h"
#include "text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Hand `len` bytes to a writer (a NULL one discards them): 0, or -1 when it took fewer
 * (errno then as the writer left it, 0 when it said nothing). */
static int hand_over(trainsize_write_fn write, void *context, const char *data, size_t len)
{
    if (!write || len == 0)
        return 0;
    errno = 0;
    return write(data, len, context) == len ? 0 : -1;
}

int ts_cli_out_finish(const ts_cli *cx, ts_out *o, int written)
{
    if (written != 0) { /* the writer said why */
        ts_out_free(o);
        return TS_CLI_EXIT_FAILURE;
    }
    return ts_cli_flush(cx, o);
}

int ts_cli_flush(const ts_cli *cx, ts_out *o)
{
    int status = TS_CLI_EXIT_OK;

    if (o->failed) {
        ts_cli_error(cx, "out of memory while formatting the output");
        status = TS_CLI_EXIT_FAILURE;
    } else if (hand_over(cx->output, cx->output_context, o->data, o->len) != 0) {
        /* the command's output, whoever takes it; errno as a writer on a file left it */
        char why[128] = "write error";
        int e = errno;
        if (e == 0 || strerror_r(e, why, sizeof why) != 0)
            snprintf(why, sizeof why, "write error");
        ts_cli_error(cx, "cannot write to standard output: %s", why);
        status = TS_CLI_EXIT_FAILURE;
    }
    ts_out_free(o);
    return status;
}

int ts_cli_note(const ts_cli *cx, const char *text, size_t len)
{
    return hand_over(cx->message, cx->message_context, text, len);
}

void ts_cli_error(const ts_cli *cx, const char *fmt, ...)
{
    char msg[1024];
    char line[1100];
    va_list ap;
    size_t i;
    int n;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* One printable line of valid UTF-8, whatever the user or a file put into the message
     * (an argument cut by "%.64s" included): the library's rule for its own messages
     * (text.c), within the 511 bytes it tidies. */
    i = strlen(msg);
    msg[ts_utf8_prefix(msg, i < 511 ? i : 511)] = '\0';
    ts_text_tidy(msg, 512);
    n = snprintf(line, sizeof line, "trainsize: %s\n", msg);
    if (n > 0)
        (void)hand_over(cx->message, cx->message_context, line,
                        (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

int ts_cli_library_error(const ts_cli *cx, int code, const trainsize_error *err)
{
    if (err && err->message[0] != '\0') {
        if (memchr(err->message, '\0', sizeof err->message) != NULL)
            ts_cli_error(cx, "%s", err->message);
        else
            ts_cli_error(cx, "%.*s", (int)sizeof err->message, err->message);
    } else if (err && err->field[0] != '\0' &&
               memchr(err->field, '\0', sizeof err->field) != NULL) {
        ts_cli_error(cx, "%s: %s", err->field, trainsize_strerror(code));
    } else {
        ts_cli_error(cx, "%s", trainsize_strerror(code));
    }
    /* Out of memory, misuse of the API and a caller's cancel are failures of the command,
     * not of the input. */
    if (code == TRAINSIZE_E_NOMEM || code == TRAINSIZE_E_ARGUMENT || code == TRAINSIZE_E_CANCELLED)
        return TS_CLI_EXIT_FAILURE;
    return TS_CLI_EXIT_USAGE;
}

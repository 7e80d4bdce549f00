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
    } else if (hand_over(cx->io.output, cx->io.output_context, o->data, o->len) != 0) {
        /* the command's output, whoever takes it; errno as a writer on a file left it */
        char why[128] = "write error";
        int e = errno;
        if (e == 0 || strerror_r(e, why, sizeof why) != 0)
            snprintf(why, sizeof why, "write error");
        ts_cli_error(cx, "cannot write to standard output: %s", why);
        status = TS_CLI_EXIT_FAILURE;
    }
    if (status == TS_CLI_EXIT_OK)
        ts_cli_say_note(cx);
    ts_out_free(o);
    return status;
}

int ts_cli_note(const ts_cli *cx, const char *text, size_t len)
{
    return hand_over(cx->io.message, cx->io.message_context, text, len);
}

/* "trainsize: <prefix><message>\n" into line[cap], one printable line of valid UTF-8
 * whatever the user or a file put into the message (an argument cut by "%.64s" included):
 * the library's rule for its own messages (text.c), within the 511 bytes it tidies. Its
 * length. */
static size_t message_line(char *line, size_t cap, const char *prefix, const char *fmt, va_list ap)
    TS_CLI_PRINTF(4, 0);
static size_t message_line(char *line, size_t cap, const char *prefix, const char *fmt, va_list ap)
{
    char msg[1024];
    size_t i;
    int n;

    vsnprintf(msg, sizeof msg, fmt, ap);
    i = strlen(msg);
    msg[ts_utf8_prefix(msg, i < 511 ? i : 511)] = '\0';
    ts_text_tidy(msg, 512);
    n = snprintf(line, cap, "trainsize: %s%s\n", prefix, msg);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap - 1;
}

void ts_cli_error(const ts_cli *cx, const char *fmt, ...)
{
    char line[1100];
    va_list ap;
    size_t n;

    va_start(ap, fmt);
    n = message_line(line, sizeof line, "", fmt, ap);
    va_end(ap);
    (void)hand_over(cx->io.message, cx->io.message_context, line, n);
}

void ts_cli_hold_note(const ts_cli *cx, const char *fmt, ...)
{
    va_list ap;

    if (!cx->note || cx->note_cap == 0)
        return;
    va_start(ap, fmt);
    (void)message_line(cx->note, cx->note_cap, "note: ", fmt, ap);
    va_end(ap);
}

void ts_cli_say_note(const ts_cli *cx)
{
    if (!cx->note || !cx->note[0])
        return;
    (void)hand_over(cx->io.message, cx->io.message_context, cx->note, strlen(cx->note));
    cx->note[0] = '\0';
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

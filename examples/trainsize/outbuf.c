/* Output buffering, the checked write to stdout, and one-line error messages.
 *
 * Nothing reaches stdout before a command has its whole answer: the text is built in a
 * cli_out and written at the end, so a failure never leaves half a report or half a JSON
 * object behind. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_out_init(cli_out *o)
{
    o->data = NULL;
    o->len = 0;
    o->cap = 0;
    o->failed = 0;
}

void cli_out_free(cli_out *o)
{
    free(o->data);
    cli_out_init(o);
}

static int reserve(cli_out *o, size_t extra)
{
    size_t need, cap;
    char *p;

    if (o->failed)
        return -1;
    if (extra > (size_t)-1 - o->len - 1) {
        o->failed = 1;
        return -1;
    }
    need = o->len + extra + 1;
    if (need <= o->cap)
        return 0;
    cap = o->cap ? o->cap : 1024;
    while (cap < need)
        cap = cap > (size_t)-1 / 2 ? need : cap * 2;
    p = realloc(o->data, cap);
    if (!p) {
        o->failed = 1;
        return -1;
    }
    o->data = p;
    o->cap = cap;
    return 0;
}

void cli_out_write(cli_out *o, const char *s, size_t n)
{
    if (n == 0 || reserve(o, n) != 0)
        return;
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = '\0';
}

void cli_out_puts(cli_out *o, const char *s)
{
    cli_out_write(o, s, strlen(s));
}

void cli_out_putc(cli_out *o, char c)
{
    cli_out_write(o, &c, 1);
}

void cli_out_repeat(cli_out *o, char c, size_t n)
{
    if (n == 0 || reserve(o, n) != 0)
        return;
    memset(o->data + o->len, c, n);
    o->len += n;
    o->data[o->len] = '\0';
}

void cli_out_printf(cli_out *o, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (o->failed)
        return;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        o->failed = 1;
        return;
    }
    if (reserve(o, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(o->data + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

size_t cli_out_column(const cli_out *o)
{
    size_t i = o->len;

    while (i > 0 && o->data[i - 1] != '\n')
        i--;
    return o->len - i;
}

void cli_out_pad_to(cli_out *o, size_t col, size_t min_gap)
{
    size_t now = cli_out_column(o);
    size_t gap = now < col ? col - now : 0;

    cli_out_repeat(o, ' ', gap < min_gap ? min_gap : gap);
}

void cli_out_clipped(cli_out *o, const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    size_t i, keep = n;

    if (n > max)
        keep = max > 3 ? max - 3 : 0;
    for (i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)s[i];
        /* Terminal output: control and non-ASCII bytes become '?', so that a name
         * read from a config file cannot move the cursor or break the columns. */
        cli_out_putc(o, (c < 0x20 || c >= 0x7f) ? '?' : (char)c);
    }
    if (n > max)
        cli_out_repeat(o, '.', max < 3 ? max : 3);
}

int cli_out_flush_stdout(cli_out *o)
{
    int status = CLI_EXIT_OK;

    if (o->failed) {
        cli_error("out of memory while formatting the output");
        cli_out_free(o);
        return CLI_EXIT_FAILURE;
    }
    errno = 0;
    if (o->len > 0 && fwrite(o->data, 1, o->len, stdout) != o->len)
        status = CLI_EXIT_FAILURE;
    if (fflush(stdout) != 0 || ferror(stdout))
        status = CLI_EXIT_FAILURE;
    if (status != CLI_EXIT_OK)
        cli_error("cannot write to standard output: %s",
                  errno ? strerror(errno) : "write error");
    cli_out_free(o);
    return status;
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
    /* One line, whatever the user or a config file put into the message. */
    for (i = 0; msg[i] != '\0'; i++) {
        if ((unsigned char)msg[i] < 0x20 || msg[i] == 0x7f)
            msg[i] = '?';
    }
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

/* Append `text` word by word from the current column, breaking lines at CLI_COLUMNS and
 * continuing at `indent`; the first word follows what is already on the line. CLI_NB
 * joins a figure to its unit: it is written as a space, never broken at. */
void cli_out_wrapped(cli_out *o, const char *text, size_t indent)
{
    const char *s = text;
    int first = 1;

    while (*s) {
        size_t len = 0;
        while (*s == ' ')
            s++;
        while (s[len] && s[len] != ' ')
            len++;
        if (len == 0)
            break;
        if (!first && cli_out_column(o) + 1 + len > CLI_COLUMNS) {
            cli_out_putc(o, '\n');
            cli_out_repeat(o, ' ', indent);
        } else if (!first) {
            cli_out_putc(o, ' ');
        }
        first = 0;
        if (len > CLI_COLUMNS - indent) {
            /* A very long word: clipped, with "..." (one byte more than fits is enough). */
            char word[CLI_COLUMNS + 2];
            size_t keep = len < CLI_COLUMNS + 1 ? len : CLI_COLUMNS + 1;
            size_t i;
            for (i = 0; i < keep; i++) word[i] = s[i] == CLI_NB ? ' ' : s[i];
            word[keep] = '\0';
            cli_out_clipped(o, word, CLI_COLUMNS - indent);
        } else {
            size_t i;
            for (i = 0; i < len; i++) cli_out_putc(o, s[i] == CLI_NB ? ' ' : s[i]);
        }
        s += len;
    }
}

/* A growable text buffer for human-readable output (the report, the command's tables):
 * written to in pieces, measured in columns, wrapped at TS_COLUMNS. Nothing is written
 * anywhere else: the caller takes the text. An allocation that fails sets `failed`, and
 * every later write is dropped, so a caller checks once at the end. */
#include "text_out.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ts_out_init(ts_out *o)
{
    o->data = NULL;
    o->len = 0;
    o->cap = 0;
    o->failed = 0;
    o->fixed = 0;
}

void ts_out_fixed(ts_out *o, char *buf, size_t cap)
{
    o->data = buf;
    o->len = 0;
    o->cap = cap;
    o->failed = 0;
    o->fixed = 1;
    if (cap) buf[0] = '\0';
}

/* A fixed buffer takes what still fits of n bytes, keeps its NUL and counts them all. */
static void fixed_take(ts_out *o, const char *s, char c, size_t n)
{
    size_t room = o->len + 1 < o->cap ? o->cap - 1 - o->len : 0;
    size_t take = n < room ? n : room;
    if (take) {
        if (s) memcpy(o->data + o->len, s, take);
        else memset(o->data + o->len, c, take);
        o->data[o->len + take] = '\0';
    }
    o->len = n > (size_t)-1 - o->len ? (size_t)-1 : o->len + n;
}

void ts_out_free(ts_out *o)
{
    if (!o->fixed) free(o->data);
    ts_out_init(o);
}

static int reserve(ts_out *o, size_t extra)
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

void ts_out_write(ts_out *o, const char *s, size_t n)
{
    if (o->fixed) {
        fixed_take(o, s, 0, n);
        return;
    }
    if (n == 0 || reserve(o, n) != 0)
        return;
    memcpy(o->data + o->len, s, n);
    o->len += n;
    o->data[o->len] = '\0';
}

void ts_out_puts(ts_out *o, const char *s)
{
    ts_out_write(o, s, strlen(s));
}

void ts_out_putc(ts_out *o, char c)
{
    ts_out_write(o, &c, 1);
}

void ts_out_repeat(ts_out *o, char c, size_t n)
{
    if (o->fixed) {
        fixed_take(o, NULL, c, n);
        return;
    }
    if (n == 0 || reserve(o, n) != 0)
        return;
    memset(o->data + o->len, c, n);
    o->len += n;
    o->data[o->len] = '\0';
}

void ts_out_printf(ts_out *o, const char *fmt, ...)
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
    if (o->fixed) {
        size_t room = o->len < o->cap ? o->cap - o->len : 0;
        if (room) {
            va_start(ap, fmt);
            vsnprintf(o->data + o->len, room, fmt, ap);
            va_end(ap);
        }
        o->len = (size_t)n > (size_t)-1 - o->len ? (size_t)-1 : o->len + (size_t)n;
        return;
    }
    if (reserve(o, (size_t)n) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(o->data + o->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    o->len += (size_t)n;
}

size_t ts_out_column(const ts_out *o)
{
    /* a fixed buffer past its end holds only cap - 1 bytes to look back through */
    size_t stored = o->fixed && o->len >= o->cap ? (o->cap ? o->cap - 1 : 0) : o->len;
    size_t i = stored;

    while (i > 0 && o->data[i - 1] != '\n')
        i--;
    return o->len - i;
}

void ts_out_pad_to(ts_out *o, size_t col, size_t min_gap)
{
    size_t now = ts_out_column(o);
    size_t gap = now < col ? col - now : 0;

    ts_out_repeat(o, ' ', gap < min_gap ? min_gap : gap);
}

void ts_out_clipped(ts_out *o, const char *s, size_t max)
{
    size_t n = s ? strlen(s) : 0;
    size_t i, keep = n;

    if (n > max)
        keep = max > 3 ? max - 3 : 0;
    for (i = 0; i < keep; i++) {
        unsigned char c = (unsigned char)s[i];
        /* Terminal output: control and non-ASCII bytes become '?', so that a name
         * read from a config file cannot move the cursor or break the columns. */
        ts_out_putc(o, (c < 0x20 || c >= 0x7f) ? '?' : (char)c);
    }
    if (n > max)
        ts_out_repeat(o, '.', max < 3 ? max : 3);
}

/* Append `text` word by word from the current column, breaking lines at TS_COLUMNS and
 * continuing at `indent`; the first word follows what is already on the line. TS_NB
 * joins a figure to its unit: it is written as a space, never broken at. */
void ts_out_wrapped(ts_out *o, const char *text, size_t indent)
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
        if (!first && ts_out_column(o) + 1 + len > TS_COLUMNS) {
            ts_out_putc(o, '\n');
            ts_out_repeat(o, ' ', indent);
        } else if (!first) {
            ts_out_putc(o, ' ');
        }
        first = 0;
        if (len > TS_COLUMNS - indent) {
            /* A very long word: clipped, with "..." (one byte more than fits is enough). */
            char word[TS_COLUMNS + 2];
            size_t keep = len < TS_COLUMNS + 1 ? len : TS_COLUMNS + 1;
            size_t i;
            for (i = 0; i < keep; i++) word[i] = s[i] == TS_NB ? ' ' : s[i];
            word[keep] = '\0';
            ts_out_clipped(o, word, TS_COLUMNS - indent);
        } else {
            size_t i;
            for (i = 0; i < len; i++) ts_out_putc(o, s[i] == TS_NB ? ' ' : s[i]);
        }
        s += len;
    }
}

/* A growable text buffer for human-readable output, shared by the library's report
 * (report.c) and the trainsize command's tables: pieces appended, columns counted, text
 * wrapped at TS_COLUMNS (internal; the command compiles this file too). */
#ifndef TS_TEXT_OUT_H
#define TS_TEXT_OUT_H

#include <stddef.h>

#if defined(__GNUC__) || defined(__clang__)
#define TS_OUT_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TS_OUT_PRINTF(a, b)
#endif

/** Width human output keeps to. */
#define TS_COLUMNS 100

/** A growable text buffer. `failed` is set once an allocation fails. A fixed one
 * (ts_out_fixed) writes into a caller's array instead and never allocates: what does not
 * fit is dropped but counted in `len`, as snprintf counts. A fixed buffer is for text that
 * needs no columns (the JSON writers): once it is cut short, ts_out_column cannot see the
 * newlines it dropped, so the column and wrapping functions want a growable one. */
typedef struct ts_out {
    char *data;
    size_t len;
    size_t cap;
    int failed;
    int fixed;
} ts_out;

void ts_out_init(ts_out *o);
/** Write into buf (cap bytes, NUL-terminated when cap > 0; buf may be NULL when cap is 0). */
void ts_out_fixed(ts_out *o, char *buf, size_t cap);
void ts_out_free(ts_out *o);
void ts_out_write(ts_out *o, const char *s, size_t n);
void ts_out_puts(ts_out *o, const char *s);
void ts_out_putc(ts_out *o, char c);
void ts_out_repeat(ts_out *o, char c, size_t n);
void ts_out_printf(ts_out *o, const char *fmt, ...) TS_OUT_PRINTF(2, 3);
/** Columns since the last newline (bytes; the command writes ASCII). */
size_t ts_out_column(const ts_out *o);
/** Pad with spaces up to column `col` (at least `min_gap` spaces). */
void ts_out_pad_to(ts_out *o, size_t col, size_t min_gap);
/** Write `s` with control characters replaced, clipped to `max` columns ("..." marks a cut). */
void ts_out_clipped(ts_out *o, const char *s, size_t max);
/** In text for ts_out_wrapped: a space that does not break ("1.50\x1fTiB"). */
#define TS_NB '\x1f'
/* Append text word by word, breaking lines at TS_COLUMNS and continuing at indent. */
void ts_out_wrapped(ts_out *o, const char *text, size_t indent);

#endif

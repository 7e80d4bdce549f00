/* Settings given as text (internal): numbers, booleans, catalogue names and lists, read
 * the same in every locale. */
#ifndef TS_TEXT_VALUES_H
#define TS_TEXT_VALUES_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "text.h"

/* Parse a non-negative integer: decimal digits, or a decimal number with an exponent
 * whose value is integral ("2e12", "1.5e3"). Returns 0 on success, -1 when malformed,
 * negative, fractional or above max. */
int ts_parse_u64(const char *text, uint64_t max, uint64_t *out);

/* Parse a finite decimal number ("0.1", "-3", "2.5e-2"). Returns 0 or -1. */
int ts_parse_double(const char *text, double *out);

/* Write v as printf's "%.*g" would in the C locale (a '.' whatever LC_NUMERIC says), into
 * buf of cap bytes. Returns what snprintf returns. */
int ts_format_double(char *buf, size_t cap, int precision, double v);
/* The shortest of %.15g, %.16g and %.17g that reads back as the same double, in the C
 * locale's form whatever LC_NUMERIC the program set (get-then-set, JSON). */
int ts_format_shortest(char *buf, size_t cap, double v);

/* A number for a message, as "%g" writes it in the C locale: ts_number_text(&n, v) gives
 * n.text, so that several numbers can stand in one ts_fail call. */
typedef struct ts_number { char text[32]; } ts_number;
const char *ts_number_text(ts_number *n, double v);

/* Parse "true"/"false"/"1"/"0"/"yes"/"no". Returns 0 or -1. */
int ts_parse_bool(const char *text, int *out);

/* 1 when text is a calendar date written YYYY-MM-DD (year 1000 to 9999, the month's own
 * days, February's 29th in leap years): what a calibration records; 0 otherwise. */
int ts_date_valid(const char *text);

/* ASCII case-insensitive equality, independent of the locale. */
int ts_streq_nocase(const char *a, const char *b);

/* Catalogue names: equal ignoring ASCII case and the separators '-', '_' and ' ', so that
 * "A100_80GB" and "a100-80gb" are one name. */
int ts_name_equal(const char *a, const char *b);

/* The catalogue name nearest to `query` under the name rule, for "did you mean": one the
 * query starts (h100 -> h100-80gb), else the closest by edits if within a third of the
 * query's length (lama-3-8b -> llama-3-8b); NULL when none is near. `name_at(i)` gives
 * the i-th of `count` names. */
const char *ts_name_nearest(const char *query, const char *(*name_at)(size_t), size_t count);

/* 1 when a name is empty or made of separators only (it matches nothing). */
int ts_name_blank(const char *name);

/* The next item of a list separated by sep, copied into item (cap bytes), *cursor moved
 * past it. Returns 1 for an item, 0 at the end of the list, -1 for an empty item (",,",
 * a leading or trailing separator) or one of cap bytes or more. */
int ts_list_next(const char **cursor, char sep, char *item, size_t cap);

/* Copy a NUL-terminated name into dst of cap > 0 bytes, truncating to whole UTF-8
 * characters. An estimate copies a dozen names: inline, strlen + memcpy, no byte loop and
 * no call of its own (its prologue and epilogue were half of each copy's cost). */
static inline void ts_copy_name(char *dst, size_t cap, const char *src)
{
    size_t n = 0;
    if (src && src[0]) { /* many are empty ("" when a setting does not apply): no calls */
        n = strlen(src);
        if (n > cap - 1) n = ts_utf8_prefix(src, cap - 1);
        memcpy(dst, src, n);
    }
    dst[n] = '\0';
}

#endif

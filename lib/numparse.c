/* Locale-independent number parsing: strtod and friends follow the C locale that an
 * embedding program may have changed, and accept hex, inf and nan, which we refuse. */
#include "numparse.h"
#include "text.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* Digits of precision kept in the mantissa; beyond this they cannot change a double. */
#define TS_MANTISSA_DIGITS 19
/* Exponents beyond this magnitude are refused rather than computed. */
#define TS_MAX_EXPONENT 400

typedef struct decimal {
    int negative;
    uint64_t mantissa; /* first TS_MANTISSA_DIGITS significant digits */
    long exponent;     /* value = mantissa * 10^exponent */
    int fraction_nonzero_dropped; /* digits dropped beyond the mantissa were not all 0 */
} decimal;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Split text into sign, mantissa and exponent. Returns 0 or -1. */
static int parse_decimal(const char *s, decimal *d)
{
    int digits = 0, kept = 0;
    long exp_adjust = 0;
    d->negative = 0;
    d->mantissa = 0;
    d->exponent = 0;
    d->fraction_nonzero_dropped = 0;
    if (!s) return -1;
    if (*s == '-' || *s == '+') d->negative = (*s++ == '-');
    for (; is_digit(*s); s++, digits++) {
        if (kept < TS_MANTISSA_DIGITS) {
            if (kept > 0 || *s != '0') { d->mantissa = d->mantissa * 10 + (uint64_t)(*s - '0'); kept++; }
        } else {
            exp_adjust++;
            if (*s != '0') d->fraction_nonzero_dropped = 1;
        }
    }
    if (*s == '.') {
        s++;
        for (; is_digit(*s); s++, digits++) {
            if (kept < TS_MANTISSA_DIGITS) {
                if (kept > 0 || *s != '0') { d->mantissa = d->mantissa * 10 + (uint64_t)(*s - '0'); kept++; }
                exp_adjust--;
            } else if (*s != '0') {
                d->fraction_nonzero_dropped = 1;
            }
        }
    }
    if (digits == 0) return -1;
    if (*s == 'e' || *s == 'E') {
        int eneg = 0;
        long e = 0;
        s++;
        if (*s == '-' || *s == '+') eneg = (*s++ == '-');
        if (!is_digit(*s)) return -1;
        for (; is_digit(*s); s++) {
            if (e < TS_MAX_EXPONENT * 10) e = e * 10 + (*s - '0');
        }
        d->exponent = eneg ? -e : e;
    }
    if (*s != '\0') return -1;
    d->exponent += exp_adjust;
    if (d->exponent > TS_MAX_EXPONENT || d->exponent < -TS_MAX_EXPONENT) {
        if (d->mantissa == 0) { d->exponent = 0; return 0; }
        return -1;
    }
    return 0;
}

int ts_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    decimal d;
    uint64_t v;
    long e;
    if (parse_decimal(text, &d) != 0) return -1;
    if (d.mantissa == 0) {
        if (d.fraction_nonzero_dropped) return -1;
        *out = 0;
        return 0;
    }
    if (d.negative || d.fraction_nonzero_dropped) return -1;
    v = d.mantissa;
    for (e = d.exponent; e < 0; e++) {
        if (v % 10 != 0) return -1; /* not integral */
        v /= 10;
    }
    for (e = d.exponent; e > 0; e--) {
        if (v > UINT64_MAX / 10) return -1;
        v *= 10;
    }
    if (v > max) return -1;
    *out = v;
    return 0;
}

int ts_parse_double(const char *text, double *out)
{
    decimal d;
    double v;
    if (parse_decimal(text, &d) != 0) return -1;
    /* Dividing by an exact power of ten rounds correctly where multiplying by its
     * inexact reciprocal would not (0.05 must read as the double nearest 0.05). */
    if (d.exponent < 0)
        v = (double)d.mantissa / pow(10.0, (double)-d.exponent);
    else
        v = (double)d.mantissa * pow(10.0, (double)d.exponent);
    if (!isfinite(v)) return -1;
    *out = d.negative ? -v : v;
    return 0;
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

int ts_streq_nocase(const char *a, const char *b)
{
    if (!a || !b) return 0;
    while (*a && lower(*a) == lower(*b)) { a++; b++; }
    return *a == '\0' && *b == '\0';
}

int ts_parse_bool(const char *text, int *out)
{
    if (ts_streq_nocase(text, "true") || ts_streq_nocase(text, "1") || ts_streq_nocase(text, "yes") ||
        ts_streq_nocase(text, "on")) {
        *out = 1;
        return 0;
    }
    if (ts_streq_nocase(text, "false") || ts_streq_nocase(text, "0") || ts_streq_nocase(text, "no") ||
        ts_streq_nocase(text, "off")) {
        *out = 0;
        return 0;
    }
    return -1;
}

static int is_separator(char c) { return c == '-' || c == '_' || c == ' '; }

int ts_name_equal(const char *a, const char *b)
{
    for (;;) {
        while (is_separator(*a)) a++;
        while (is_separator(*b)) b++;
        if (*a == '\0' || *b == '\0') return *a == *b;
        if (lower(*a) != lower(*b)) return 0;
        a++;
        b++;
    }
}

int ts_name_blank(const char *name)
{
    while (is_separator(*name)) name++;
    return *name == '\0';
}

int ts_list_next(const char **cursor, char sep, char *item, size_t cap)
{
    const char *p = *cursor, *end;
    size_t len;
    if (!p || *p == '\0') return 0;
    end = strchr(p, sep);
    len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0 || len >= cap) return -1;
    memcpy(item, p, len);
    item[len] = '\0';
    /* A separator that ends the text is an empty last item: stop on it, so the next call
     * reports it. */
    *cursor = !end ? p + len : end[1] ? end + 1 : end;
    return 1;
}

void ts_copy_name(char *dst, size_t cap, const char *src)
{
    /* strlen + memcpy (sources are NUL-terminated names): names are copied on every
     * estimate, and a byte loop costs tens of nanoseconds. */
    size_t n = 0;
    if (src) {
        n = strlen(src);
        if (n > cap - 1) n = ts_utf8_prefix(src, cap - 1); /* whole characters only */
        memcpy(dst, src, n);
    }
    dst[n] = '\0';
}

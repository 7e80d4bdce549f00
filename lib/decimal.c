/* Decimal numbers: one reader for settings given as text (text_values.c) and for JSON
 * (json.c). strtod and friends follow the C locale an embedding program may have changed
 * and accept hex, inf and nan, which no setting allows: the syntax is read here, and strtod
 * only rounds what this reader built, digits and an exponent, which no locale changes. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "decimal.h"

#define EXP_SATURATE 100000000LL /* exponent magnitude past which the value is 0 or huge */
#define DOUBLE_EXACT_POW10 22    /* 10^22 is the largest power of ten a double holds exactly */
#define DOUBLE_EXP_CLAMP 800     /* beyond 10^+-800 a 20-digit mantissa is inf or 0 */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int mul10_add(uint64_t *m, unsigned digit)
{
    if (*m > (UINT64_MAX - digit) / 10) return 0;
    *m = *m * 10 + digit;
    return 1;
}

static void add_exponent(ts_decimal *d, long long e)
{
    d->exponent += e;
    if (d->exponent > EXP_SATURATE) d->exponent = EXP_SATURATE;
    if (d->exponent < -EXP_SATURATE) d->exponent = -EXP_SATURATE;
}

/* Reading state: zeros after the first non-zero digit wait (`zeros`, of which `frac_zeros`
 * after the point) until a non-zero digit proves they are not trailing. */
typedef struct reader {
    long long zeros, frac_zeros;
    int full; /* the mantissa holds no more digits */
} reader;

/* One digit. In the mantissa a fractional digit lowers the exponent; once the mantissa is
 * full, a digit of the integer part raises it instead and a fractional one is dropped. */
static void feed(ts_decimal *d, reader *r, unsigned digit, int fraction)
{
    uint64_t m = d->mantissa;
    long long i;
    if (r->full) {
        if (!fraction) add_exponent(d, 1);
        if (digit) d->inexact = 1;
        return;
    }
    if (digit == 0) {
        if (d->mantissa != 0) {
            r->zeros++;
            r->frac_zeros += fraction;
        } else if (fraction) {
            add_exponent(d, -1); /* a leading zero after the point */
        }
        return;
    }
    for (i = 0; i < r->zeros && mul10_add(&m, 0); i++) {}
    if (i == r->zeros && mul10_add(&m, digit)) {
        d->mantissa = m;
        add_exponent(d, -(r->frac_zeros + fraction));
    } else { /* full: the waiting zeros and this digit shift the exponent or are dropped */
        r->full = 1;
        d->inexact = 1;
        add_exponent(d, (r->zeros - r->frac_zeros) + !fraction);
    }
    r->zeros = r->frac_zeros = 0;
}

size_t ts_decimal_read(const char *s, size_t len, ts_decimal *d)
{
    size_t pos = 0, digits = 0;
    reader r = {0, 0, 0};
    d->negative = 0;
    d->mantissa = 0;
    d->exponent = 0;
    d->inexact = 0;
    if (pos < len && (s[pos] == '-' || s[pos] == '+')) d->negative = s[pos++] == '-';
    for (; pos < len && is_digit(s[pos]); pos++, digits++) feed(d, &r, (unsigned)(s[pos] - '0'), 0);
    if (pos < len && s[pos] == '.')
        for (pos++; pos < len && is_digit(s[pos]); pos++, digits++)
            feed(d, &r, (unsigned)(s[pos] - '0'), 1);
    if (digits == 0) return 0;
    add_exponent(d, r.zeros - r.frac_zeros); /* the integer part's trailing zeros */
    if (pos < len && (s[pos] == 'e' || s[pos] == 'E')) {
        long long e = 0;
        int negative = 0;
        pos++;
        if (pos < len && (s[pos] == '+' || s[pos] == '-')) negative = s[pos++] == '-';
        if (pos >= len || !is_digit(s[pos])) return 0;
        for (; pos < len && is_digit(s[pos]); pos++)
            if (e < EXP_SATURATE) e = e * 10 + (s[pos] - '0');
        add_exponent(d, negative ? -e : e);
    }
    return pos;
}

ts_decimal_status ts_decimal_to_u64(const ts_decimal *d, uint64_t max, uint64_t *out)
{
    uint64_t v = d->mantissa;
    long long e;
    if (v == 0 && !d->inexact) {
        *out = 0;
        return TS_DECIMAL_OK;
    }
    if (d->negative) return TS_DECIMAL_NEGATIVE;
    if (d->inexact) return TS_DECIMAL_TOO_BIG;
    /* The mantissa ends in a non-zero digit: a negative exponent leaves a fraction. */
    if (d->exponent < 0) return TS_DECIMAL_FRACTION;
    for (e = 0; e < d->exponent; e++)
        if (!mul10_add(&v, 0)) return TS_DECIMAL_TOO_BIG;
    if (v > max) return TS_DECIMAL_ABOVE_MAX;
    *out = v;
    return TS_DECIMAL_OK;
}

double ts_decimal_to_double(const ts_decimal *d)
{
    static const double pow10[DOUBLE_EXACT_POW10 + 1] = {
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    long long e = d->exponent;
    double m = (double)d->mantissa, v;
    if (d->mantissa == 0) return d->negative ? -0.0 : 0.0;
    /* Dividing by an exact power of ten rounds correctly where multiplying by its inexact
     * reciprocal would not (0.05 must read as the double nearest 0.05): exact when the
     * mantissa holds at most 53 bits. */
    if (e >= -DOUBLE_EXACT_POW10 && e <= DOUBLE_EXACT_POW10 && d->mantissa <= (UINT64_C(1) << 53)) {
        v = e >= 0 ? m * pow10[e] : m / pow10[-e];
    } else {
        /* A longer mantissa (a shortest round-trip figure has up to 17 digits) or a larger
         * exponent: the C library's strtod rounds correctly, and the text given it has no
         * radix character for a locale to change, only digits and an exponent. */
        char text[48];
        if (e > DOUBLE_EXP_CLAMP) e = DOUBLE_EXP_CLAMP;
        if (e < -DOUBLE_EXP_CLAMP) e = -DOUBLE_EXP_CLAMP;
        snprintf(text, sizeof text, "%" PRIu64 "e%lld", d->mantissa, e);
        v = strtod(text, NULL);
    }
    return d->negative ? -v : v;
}

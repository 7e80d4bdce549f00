/* The one reader of decimal numbers (internal), for settings given as text and for JSON:
 * a number's text split into sign, significant digits and exponent, read the same in
 * every locale, then turned into an integer or a double. */
#ifndef TS_DECIMAL_H
#define TS_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

/* value = mantissa x 10^exponent. Significant digits go into the mantissa while it fits
 * 64 bits, with trailing zeros moved into the exponent (so an integer's mantissa ends in a
 * non-zero digit); digits past that only shift the exponent and set `inexact` when
 * non-zero. */
typedef struct ts_decimal {
    int negative;
    uint64_t mantissa;
    long long exponent; /* saturated at +-1e8: the value is then 0 or out of any range */
    int inexact;        /* non-zero digits were dropped: not exact in 64 bits */
} ts_decimal;

/* Read [-+]digits[.digits][(e|E)[-+]digits] at s (len bytes, not NUL-terminated), with at
 * least one digit before the exponent and one in it. Returns the bytes read, or 0 when s
 * does not start with such a number. */
size_t ts_decimal_read(const char *s, size_t len, ts_decimal *d);

/* Why a decimal is not a whole number in [0, max]. */
typedef enum ts_decimal_status {
    TS_DECIMAL_OK = 0,
    TS_DECIMAL_NEGATIVE,
    TS_DECIMAL_FRACTION,  /* it has a fractional part */
    TS_DECIMAL_TOO_BIG,   /* it does not fit 64 bits */
    TS_DECIMAL_ABOVE_MAX
} ts_decimal_status;

/* The decimal as a whole number no larger than max ("2e12" and "1.5e3" are whole). */
ts_decimal_status ts_decimal_to_u64(const ts_decimal *d, uint64_t max, uint64_t *out);

/* The decimal as the nearest double (exactly rounded when the mantissa holds at most 53
 * bits and |exponent| <= 22, the common case); +-inf past the range, 0 below it. */
double ts_decimal_to_double(const ts_decimal *d);

#endif

/* Overflow-checked unsigned arithmetic (internal). Each returns 0, or -1 on overflow
 * (leaving *out unspecified). Values are kept below 2^63 so they also fit int64_t. Also the
 * rounding up of a range-checked figure to a whole count (ts_ceil_u64). */
#ifndef TS_CHECKED_H
#define TS_CHECKED_H

#include <stdint.h>

#define TS_U64_LIMIT (UINT64_C(1) << 63)

static inline int ts_add_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a >= TS_U64_LIMIT || b >= TS_U64_LIMIT - a) return -1;
    *out = a + b;
    return 0;
}

static inline int ts_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
    if (a != 0 && b > (TS_U64_LIMIT - 1) / a) return -1;
    *out = a * b;
    return 0;
}

/* Can a figure computed in double be rounded up to a byte count the result holds: not NaN,
 * not negative, below 9.2e18 (just under 2^63)? */
static inline int ts_fits_u64(double v) { return v >= 0 && v < 9.2e18; }

/* ceil(v) as an integer, for v that ts_fits_u64 (the caller checks): the signed conversion
 * truncates in one instruction (the unsigned one branches), and a double of 2^53 or more is
 * whole already, so no call to libm's ceil. */
static inline uint64_t ts_ceil_u64(double v)
{
    int64_t i = (int64_t)v;
    return (uint64_t)((double)i < v ? i + 1 : i);
}

static inline int ts_mul3_u64(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    uint64_t ab;
    return ts_mul_u64(a, b, &ab) != 0 ? -1 : ts_mul_u64(ab, c, out);
}

#endif

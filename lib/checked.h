/* Overflow-checked unsigned arithmetic (internal). Each returns 0, or -1 on overflow
 * (leaving *out unspecified). Values are kept below 2^63 so they also fit int64_t. */
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

static inline int ts_mul3_u64(uint64_t a, uint64_t b, uint64_t c, uint64_t *out)
{
    uint64_t ab;
    return ts_mul_u64(a, b, &ab) != 0 ? -1 : ts_mul_u64(ab, c, out);
}

#endif

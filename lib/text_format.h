/* Number formatting for human-readable output, shared by the library's report and the
 * trainsize command's tables (internal; the command compiles this file too). Every
 * function writes into a caller buffer and returns it. */
#ifndef TS_TEXT_FORMAT_H
#define TS_TEXT_FORMAT_H

#include <stddef.h>
#include <stdint.h>


#define TS_FMT_MAX 64

/** 6738415616 -> "6,738,415,616". */
char *ts_fmt_thousands(char *buf, size_t cap, uint64_t v);
/* A non-negative double the same way, rounded; scientific notation beyond 9e15 (no cast). */
char *ts_fmt_thousands_d(char *buf, size_t cap, double v);
/* US dollars: "$0.0042" below a cent, "$0.42" below $100, "$1,234" above. */
char *ts_fmt_usd(char *buf, size_t cap, double usd);
/** Bytes with a binary unit: "12.55 GiB", "512 B". */
char *ts_fmt_iec(char *buf, size_t cap, double bytes);
/** A number with a decimal prefix and a unit: "1.23 TB/s", "312 TFLOP", "42 W". */
char *ts_fmt_si(char *buf, size_t cap, double v, const char *unit);
/** A count with a short suffix: "6.74B", "125M", "1.00T", "512". */
char *ts_fmt_count(char *buf, size_t cap, uint64_t v);
/** A duration: "42.0 s", "3.2 min", "12.5 h", "4.3 days", "2.1 years". */
char *ts_fmt_duration(char *buf, size_t cap, double seconds);
/** GiB with two decimals, right-aligned in `width` (switches to an exponent when huge). */
char *ts_fmt_gib_col(char *buf, size_t cap, uint64_t bytes, int width);
/** A name in a left-aligned column of `width` characters: cut to that many whole UTF-8
 *  characters (never half of one, as "%-14.14s" cuts bytes) and padded with spaces to
 *  them; invalid bytes count one each. */
char *ts_fmt_column(char *buf, size_t cap, const char *s, size_t width);

#endif

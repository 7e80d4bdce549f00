/* Number formatting for human-readable output: the report and the command's tables. */
#include "text_format.h"
#include "text.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static double absval(double v)
{
    return v < 0 ? -v : v;
}

char *ts_fmt_thousands(char *buf, size_t cap, uint64_t v)
{
    char digits[24];
    size_t n, i, j = 0;

    snprintf(digits, sizeof digits, "%" PRIu64, v);
    n = strlen(digits);
    for (i = 0; i < n && j + 1 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0) {
            buf[j++] = ',';
            if (j + 1 >= cap)
                break;
        }
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

char *ts_fmt_thousands_d(char *buf, size_t cap, double v)
{
    /* Whole numbers with separators while they are exact in 64 bits; beyond that (or not a
     * number at all) scientific notation, never a narrowing cast. */
    if (isfinite(v) && v >= 0 && v < 9.0e15)
        return ts_fmt_thousands(buf, cap, (uint64_t)(v + 0.5));
    if (isfinite(v))
        snprintf(buf, cap, "%.3e", v);
    else
        snprintf(buf, cap, "?");
    return buf;
}

char *ts_fmt_usd(char *buf, size_t cap, double usd)
{
    /* Cents below $100 and two significant digits below a cent, so that one optimizer
     * step does not read "$0". */
    if (isfinite(usd) && usd > 0 && usd < 0.01)
        snprintf(buf, cap, "$%.2g", usd);
    else if (isfinite(usd) && usd > 0 && usd < 99.995)
        snprintf(buf, cap, "$%.2f", usd);
    else {
        char num[TS_FMT_MAX];
        snprintf(buf, cap, "$%s", ts_fmt_thousands_d(num, sizeof num, usd));
    }
    return buf;
}

char *ts_fmt_iec(char *buf, size_t cap, double bytes)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    size_t u = 0;

    if (!isfinite(bytes)) {
        snprintf(buf, cap, "?");
        return buf;
    }
    while (absval(bytes) >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        bytes /= 1024.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, cap, "%.0f B", bytes);
    else
        snprintf(buf, cap, "%.2f %s", bytes, units[u]);
    return buf;
}

/* Decimals shown for a value in [0, 1000) of a 1000-step scale: 3 significant digits. */
static int scale_decimals(double v) { return absval(v) < 10.0 ? 2 : absval(v) < 100.0 ? 1 : 0; }

/* Divide v by 1000 while it is 1000 or more, or rounds to 1000 at the decimals it would be
 * shown with (999.9 M is "1.00B", not "1000M"); returns the steps taken, at most `steps`. */
static size_t to_scale(double *v, size_t steps)
{
    size_t p = 0;
    static const double tenths[] = {1.0, 10.0, 100.0}; /* 10^decimals */
    while (p < steps && absval(*v) * tenths[scale_decimals(*v)] >=
                            1000.0 * tenths[scale_decimals(*v)] - 0.5) {
        *v /= 1000.0;
        p++;
    }
    return p;
}

char *ts_fmt_si(char *buf, size_t cap, double v, const char *unit)
{
    static const char *const prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
    size_t p;
    int dec;

    if (!isfinite(v)) {
        snprintf(buf, cap, "?");
        return buf;
    }
    p = to_scale(&v, sizeof prefixes / sizeof prefixes[0] - 1);
    if (absval(v) >= 1000.0) {
        snprintf(buf, cap, "%.3e %s%s", v, prefixes[p], unit);
        return buf;
    }
    dec = (p == 0 && v == (double)(long)v) ? 0 : scale_decimals(v);
    snprintf(buf, cap, "%.*f%s%s%s", dec, v, (p > 0 || unit[0]) ? " " : "", prefixes[p], unit);
    return buf;
}

char *ts_fmt_count(char *buf, size_t cap, uint64_t v)
{
    static const char *const suffixes[] = {"", "K", "M", "B", "T", "Q"};
    double d = (double)v;
    size_t p;

    p = to_scale(&d, sizeof suffixes / sizeof suffixes[0] - 1);
    if (p == 0)
        snprintf(buf, cap, "%" PRIu64, v);
    else
        snprintf(buf, cap, "%.*f%s", scale_decimals(d), d, suffixes[p]);
    return buf;
}

char *ts_fmt_duration(char *buf, size_t cap, double s)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, cap, "?");
    else if (s < 120.0)
        snprintf(buf, cap, "%.2f s", s);
    else if (s < 2.0 * 3600.0)
        snprintf(buf, cap, "%.1f min", s / 60.0);
    else if (s < 2.0 * 86400.0)
        snprintf(buf, cap, "%.1f hours", s / 3600.0);
    else if (s < 2.0 * 365.25 * 86400.0)
        snprintf(buf, cap, "%.1f days", s / 86400.0);
    else if (s < 1e6 * 365.25 * 86400.0)
        snprintf(buf, cap, "%.1f years", s / (365.25 * 86400.0));
    else
        snprintf(buf, cap, "%.3g years", s / (365.25 * 86400.0));
    return buf;
}

char *ts_fmt_gib_col(char *buf, size_t cap, uint64_t bytes, int width)
{
    double gib = (double)bytes / 1073741824.0;

    if (gib < 1e6)
        snprintf(buf, cap, "%*.2f", width, gib);
    else
        snprintf(buf, cap, "%*.3e", width, gib);
    return buf;
}

char *ts_fmt_column(char *buf, size_t cap, const char *s, size_t width)
{
    size_t len = strlen(s), in = 0, out = 0, chars = 0;
    if (cap == 0) return buf;
    while (in < len && chars < width) {
        size_t n = ts_utf8_sequence(s, len, in);
        if (n == 0) n = 1; /* a stray byte: one column */
        if (out + n + 1 > cap) break;
        memcpy(buf + out, s + in, n);
        out += n;
        in += n;
        chars++;
    }
    for (; chars < width && out + 1 < cap; chars++) buf[out++] = ' ';
    buf[out] = '\0';
    return buf;
}

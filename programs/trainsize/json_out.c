/* JSON scalars for the listings and the plan the command still writes itself (the
 * estimate's JSON is the library's, trainsize_result_json). */
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scalars ---- */

/* Length of the valid UTF-8 sequence at s (at most `left` bytes), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n, i;
    uint32_t cp;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        cp = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        cp = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void cli_json_string(ts_out *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left;

    if (!s) {
        ts_out_puts(o, "null");
        return;
    }
    left = strlen(s);
    ts_out_putc(o, '"');
    while (left > 0) {
        size_t n;
        if (*p == '"' || *p == '\\') {
            ts_out_putc(o, '\\');
            ts_out_putc(o, (char)*p);
            n = 1;
        } else if (*p < 0x20 || *p == 0x7f) {
            ts_out_printf(o, "\\u%04x", (unsigned)*p);
            n = 1;
        } else {
            n = utf8_len(p, left);
            if (n == 0) {
                ts_out_puts(o, "\\ufffd"); /* an invalid byte: the replacement character */
                n = 1;
            } else {
                ts_out_write(o, (const char *)p, n);
            }
        }
        p += n;
        left -= n;
    }
    ts_out_putc(o, '"');
}

void cli_json_number(ts_out *o, double d)
{
    char buf[40];
    int prec;

    if (!isfinite(d)) {
        ts_out_puts(o, "null"); /* JSON has no infinities; the library never gives them */
        return;
    }
    /* The shortest of %.15g..%.17g that reads back as the same double. */
    for (prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    ts_out_puts(o, buf);
}

void cli_json_u64(ts_out *o, uint64_t v)
{
    ts_out_printf(o, "%" PRIu64, v);
}

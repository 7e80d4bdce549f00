/* Names and messages are cut to fixed buffers; a cut in the middle of a multi-byte UTF-8
 * character would hand the caller (and the command's JSON) invalid text. */
#include "text.h"

#include <string.h>

size_t ts_utf8_sequence(const char *s, size_t len, size_t pos)
{
    const unsigned char *u = (const unsigned char *)s + pos;
    size_t avail = len - pos, n, i;
    unsigned char lo = 0x80, hi = 0xBF;

    if (u[0] < 0x80) return 1;
    if (u[0] >= 0xC2 && u[0] <= 0xDF) n = 2;
    else if (u[0] >= 0xE0 && u[0] <= 0xEF) n = 3;
    else if (u[0] >= 0xF0 && u[0] <= 0xF4) n = 4;
    else return 0;
    /* The second byte's range narrows for the lead bytes that could go overlong,
     * reach surrogates or pass U+10FFFF. */
    if (u[0] == 0xE0) lo = 0xA0;
    if (u[0] == 0xED) hi = 0x9F;
    if (u[0] == 0xF0) lo = 0x90;
    if (u[0] == 0xF4) hi = 0x8F;
    if (avail < n) return 0;
    if (u[1] < lo || u[1] > hi) return 0;
    for (i = 2; i < n; i++)
        if (u[i] < 0x80 || u[i] > 0xBF) return 0;
    return n;
}

void ts_utf8_repair(char *s)
{
    size_t len, pos = 0;
    if (!s) return;
    len = strlen(s);
    while (pos < len) {
        size_t n = ts_utf8_sequence(s, len, pos);
        if (n == 0) {
            s[pos] = '?';
            n = 1;
        }
        pos += n;
    }
}

size_t ts_utf8_prefix(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = len, need;
    unsigned char lead;
    /* Step back over continuation bytes (10xxxxxx) to the last character's first byte. */
    while (i > 0 && len - i < 4 && (u[i - 1] & 0xC0) == 0x80) i--;
    if (i == 0) return len;
    lead = u[i - 1];
    if (lead < 0xC0) return len; /* ends on ASCII (or on bytes that were never UTF-8) */
    need = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2;
    return len - (i - 1) >= need ? len : i - 1;
}

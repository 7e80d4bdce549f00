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

/* The escape of one control character, or 0 when s[pos] starts none: C0 and DEL as \xNN,
 * C1 (U+0080-U+009F, which terminals read as CSI and the like), the Unicode line and
 * paragraph separators and the bidirectional controls as \uNNNN. `bytes` gets the length
 * of what it replaces. */
static int control_escape(const unsigned char *u, size_t avail, char out[8], size_t *bytes)
{
    static const char hex[] = "0123456789abcdef";
    if (u[0] < 0x20 || u[0] == 0x7F) {
        out[0] = '\\', out[1] = 'x', out[2] = hex[u[0] >> 4], out[3] = hex[u[0] & 15], out[4] = '\0';
        *bytes = 1;
        return 4;
    }
    if (avail >= 2 && u[0] == 0xC2 && u[1] >= 0x80 && u[1] <= 0x9F) {
        memcpy(out, "\\u00", 4);
        out[4] = hex[u[1] >> 4], out[5] = hex[u[1] & 15], out[6] = '\0';
        *bytes = 2;
        return 6;
    }
    /* U+2028, U+2029 (line and paragraph separators), and the bidirectional embeddings,
     * overrides and isolates U+202A-U+202E, U+2066-U+2069, which reorder what a terminal
     * or a page shows ("Trojan Source", CVE-2021-42574) */
    if (avail >= 3 && u[0] == 0xE2 &&
        ((u[1] == 0x80 && u[2] >= 0xA8 && u[2] <= 0xAE) || (u[1] == 0x81 && u[2] >= 0xA6 && u[2] <= 0xA9))) {
        unsigned cp = 0x2000u | ((unsigned)(u[1] & 0x3F) << 6) | (unsigned)(u[2] & 0x3F);
        memcpy(out, "\\u", 2);
        out[2] = hex[(cp >> 12) & 15], out[3] = hex[(cp >> 8) & 15], out[4] = hex[(cp >> 4) & 15];
        out[5] = hex[cp & 15], out[6] = '\0';
        *bytes = 3;
        return 6;
    }
    return 0;
}

void ts_text_one_line(char *s, size_t cap)
{
    char copy[512];
    size_t len, in = 0, out = 0;
    if (!s || cap == 0) return;
    len = strlen(s);
    if (len >= sizeof copy) len = sizeof copy - 1;
    memcpy(copy, s, len);
    copy[len] = '\0';
    while (in < len) {
        char esc[8];
        size_t bytes = 1, n = ts_utf8_sequence(copy, len, in);
        int e = control_escape((const unsigned char *)copy + in, len - in, esc, &bytes);
        const char *unit = e ? esc : copy + in;
        size_t unit_len = e ? (size_t)e : n ? n : 1;
        if (out + unit_len + 1 > cap) break; /* never half an escape or a character */
        memcpy(s + out, unit, unit_len);
        out += unit_len;
        in += e ? bytes : unit_len;
    }
    s[out] = '\0';
}

/* Text cut to a buffer (a message, or a name cut by a "%.40s") ends on whole characters,
 * a caller's bytes that were never UTF-8 become '?', and a newline or ESC among them is
 * escaped: what the library hands back is one printable line (a scheduler's prompt, a
 * log line, the command's JSON). */
void ts_text_tidy(char *s, size_t cap)
{
    if (!s || cap == 0) return;
    s[ts_utf8_prefix(s, strlen(s))] = '\0';
    ts_utf8_repair(s);
    ts_text_one_line(s, cap);
}

int ts_text_printable(const char *s)
{
    size_t len = strlen(s), pos = 0;
    while (pos < len) {
        char esc[8];
        size_t bytes, n = ts_utf8_sequence(s, len, pos);
        if (n == 0 || control_escape((const unsigned char *)s + pos, len - pos, esc, &bytes)) return 0;
        pos += n;
    }
    return 1;
}

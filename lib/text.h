/* UTF-8 for text cut to fixed buffers: never half a character, never invalid bytes
 * handed back to a caller (internal). */
#ifndef TS_TEXT_H
#define TS_TEXT_H

#include <stddef.h>

/** Length of the well-formed UTF-8 sequence at s[pos] (pos < len), or 0 when it is not
 *  one (Unicode Table 3-7: no overlong forms, surrogates or code points past U+10FFFF). */
size_t ts_utf8_sequence(const char *s, size_t len, size_t pos);

/** Replace, in place, every byte of s that is not part of a well-formed UTF-8 sequence
 *  with '?'. */
void ts_utf8_repair(char *s);

/** The longest prefix of s[0..len) that ends on a UTF-8 character boundary. */
size_t ts_utf8_prefix(const char *s, size_t len);

/** Make s (a NUL-terminated text in a buffer of cap bytes, at most 511 bytes long) one line
 *  of printable text, in place: control characters (C0, DEL, C1, U+2028, U+2029, the
 *  bidirectional controls U+202A-U+202E and U+2066-U+2069) become \xNN or \uNNNN
 *  escapes, and the text is cut on a whole character or escape where the escapes make it
 *  longer than the buffer. Run after ts_utf8_repair. */
void ts_text_one_line(char *s, size_t cap);

/** ts_utf8_prefix, ts_utf8_repair and ts_text_one_line in turn: s (in a buffer of cap
 *  bytes) becomes one printable line of valid UTF-8, for names and messages handed back. */
void ts_text_tidy(char *s, size_t cap);

/** 1 when s is valid UTF-8 with no control character (those ts_text_one_line escapes): text
 *  a file may hand to the report and the JSON as it is; 0 otherwise, for a reader to
 *  refuse. */
int ts_text_printable(const char *s);

#endif

/* A small, bounded JSON reader (internal). RFC 8259, no heap, no global state.
 *
 * Use: ts_json_parse() validates the whole text once and hands back the root value;
 * lookups then walk the validated text directly (no tree is built). A ts_json_value is
 * a cursor into the caller's text, so the text must outlive every value taken from it.
 *
 * Decisions:
 * - Duplicate object keys: the last one wins (as Python's json module, which writes and
 *   reads Hugging Face configs, does). Lookups scan the whole object.
 * - A leading UTF-8 byte order mark is skipped (RFC 8259 §8.1 allows ignoring it).
 * - Strings must be valid UTF-8 (no overlong forms, no encoded surrogates, nothing above
 *   U+10FFFF); \u escapes must pair surrogates correctly. Raw NUL bytes are rejected
 *   everywhere; the escape \u0000 is valid JSON but refused when a string is read into a
 *   C string.
 * - Numbers follow the RFC grammar exactly (no leading zeros, no '+', no NaN/Infinity).
 * - Validation is iterative; its nesting stack is a fixed array of TS_JSON_DEPTH_CAP.
 */
#ifndef TS_JSON_H
#define TS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

/** The deepest nesting any caller may ask for (size of the validator's stack). */
#define TS_JSON_DEPTH_CAP 256

/** What ts_json_string_copy returns for a value that is not a readable string. */
#define TS_JSON_BAD_STRING ((size_t)-1)

/** The kind of a JSON value. NONE marks a missing value (a key that is absent). */
typedef enum ts_json_type {
    TS_JSON_NONE = 0,
    TS_JSON_NULL,
    TS_JSON_BOOL,
    TS_JSON_NUMBER,
    TS_JSON_STRING,
    TS_JSON_ARRAY,
    TS_JSON_OBJECT
} ts_json_type;

/** A value inside a validated document. Plain data: copy it freely. */
typedef struct ts_json_value {
    const char *text;  /* the whole document */
    size_t len;        /* its length in bytes */
    size_t start;      /* offset of the value's first byte */
    ts_json_type type; /* TS_JSON_NONE for a missing value */
} ts_json_value;

/** Validate a whole JSON text and return its root value.
 *  len > max_bytes, or nesting deeper than max_depth (clamped to TS_JSON_DEPTH_CAP),
 *  gives TRAINSIZE_E_LIMIT; malformed text gives TRAINSIZE_E_PARSE with the line,
 *  column and byte offset in the message. On failure *root is set to NONE. */
int ts_json_parse(const char *text, size_t len, size_t max_bytes, unsigned max_depth,
                  ts_json_value *root, trainsize_error *err);

/** Look up key in an object (last duplicate wins). Returns 1 and fills *out when found;
 *  returns 0 and sets out->type to NONE when absent or when obj is not an object. */
int ts_json_object_get(const ts_json_value *obj, const char *key, ts_json_value *out);

/** Iterate an object's members in order. Start with *cursor = 0; returns 1 and fills
 *  *key (a string value) and *value while members remain, then 0. */
int ts_json_object_next(const ts_json_value *obj, size_t *cursor, ts_json_value *key,
                        ts_json_value *value);

/** Iterate an array's elements in order, as ts_json_object_next. */
int ts_json_array_next(const ts_json_value *arr, size_t *cursor, ts_json_value *elem);

/** 1 when a string value, decoded, equals the NUL-terminated key; else 0. */
int ts_json_string_equals(const ts_json_value *str, const char *key);

/** Copy a string value, decoded to UTF-8, into buf (snprintf convention): writes whole
 *  characters only and always NUL-terminates when cap > 0. Returns the full decoded
 *  length (>= cap means truncated), or TS_JSON_BAD_STRING when v is not a string or
 *  holds U+0000. */
size_t ts_json_string_copy(const ts_json_value *v, char *buf, size_t cap);

/** 1 when v is JSON null. */
int ts_json_is_null(const ts_json_value *v);

/* Typed readers. `field` names the value in errors (err->field and the message). All
 * fail with TRAINSIZE_E_INVALID: for a missing value ("missing key"), a wrong type, or a
 * value out of range; on failure *out is unchanged. */

/** A string that fits in cap bytes with its NUL and holds no U+0000. */
int ts_json_get_string(const ts_json_value *v, const char *field, char *buf, size_t cap,
                       trainsize_error *err);

/** A non-negative integer <= max. Fractions and exponents are accepted only when the
 *  value is exactly integral (2.0, 1e3, 1.5e1); -0 reads as 0. */
int ts_json_get_u64(const ts_json_value *v, const char *field, uint64_t max, uint64_t *out,
                    trainsize_error *err);

/** A finite number (within a few units in the last place of the nearest double). */
int ts_json_get_double(const ts_json_value *v, const char *field, double *out,
                       trainsize_error *err);

/** true or false, as 1 or 0. */
int ts_json_get_bool(const ts_json_value *v, const char *field, int *out,
                     trainsize_error *err);

#endif

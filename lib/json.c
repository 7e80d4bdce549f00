/* A small, bounded JSON reader: validate once, then walk the text. See json.h. */
#include "json.h"
#include "decimal.h"
#include "text.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"

/* ---- characters and UTF-8 ---------------------------------------------------------- */

#define UTF8_BOM "\xEF\xBB\xBF"
#define UTF8_BOM_LEN 3
#define JSON_HEX_DIGITS 4        /* the XXXX of \uXXXX */
#define JSON_ESCAPE_U_LEN 6      /* "\uXXXX" */
#define SURROGATE_HIGH_MIN 0xD800u
#define SURROGATE_LOW_MIN 0xDC00u
#define SURROGATE_LOW_MAX 0xDFFFu
#define SURROGATE_BASE 0x10000u
#define SURROGATE_BITS 10
#define FIRST_PRINTABLE 0x20     /* control characters must be escaped in strings */
#define MAX_UTF8_LEN 4

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Read the 4 hex digits at s[pos..]; -1 when they are not all hex or run past len. */
static long read_hex4(const char *s, size_t len, size_t pos)
{
    long v = 0;
    if (pos > len || len - pos < JSON_HEX_DIGITS) return -1;
    for (size_t i = 0; i < JSON_HEX_DIGITS; i++) {
        int h = hex_value(s[pos + i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

static int is_high_surrogate(unsigned long cp)
{
    return cp >= SURROGATE_HIGH_MIN && cp < SURROGATE_LOW_MIN;
}

static int is_low_surrogate(unsigned long cp)
{
    return cp >= SURROGATE_LOW_MIN && cp <= SURROGATE_LOW_MAX;
}

/* Encode a code point (<= U+10FFFF, not a surrogate) as UTF-8; returns the length. */
static size_t utf8_encode(unsigned long cp, unsigned char out[MAX_UTF8_LEN])
{
    if (cp < 0x80) {
        out[0] = (unsigned char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (unsigned char)(0xC0 | (cp >> 6));
        out[1] = (unsigned char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (unsigned char)(0xE0 | (cp >> 12));
        out[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (unsigned char)(0xF0 | (cp >> 18));
    out[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* ---- validation ------------------------------------------------------------------- */

typedef struct parser {
    const char *s;
    size_t len;
    size_t pos;
    trainsize_error *err;
} parser;

/* Fill err with code, the line, column and offset of `at`, and the reason. */
static int fail_at(const parser *p, int code, size_t at, const char *reason)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i < at && i < p->len; i++) {
        if (p->s[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    return ts_fail(p->err, code, "", "invalid JSON at line %zu, column %zu (byte offset %zu): %s",
                   line, column, at, reason);
}

static int fail(const parser *p, const char *reason)
{
    return fail_at(p, TRAINSIZE_E_PARSE, p->pos, reason);
}

/* "expected X, found Y" where Y names the byte at the current position. */
static int fail_expected(const parser *p, const char *what)
{
    char reason[96];
    if (p->pos >= p->len) {
        snprintf(reason, sizeof reason, "expected %s, found the end of the text", what);
    } else {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c > ' ' && c < 0x7F)
            snprintf(reason, sizeof reason, "expected %s, found '%c'", what, c);
        else
            snprintf(reason, sizeof reason, "expected %s, found byte 0x%02X", what, c);
    }
    return fail(p, reason);
}

static void skip_ws(parser *p)
{
    while (p->pos < p->len && is_ws(p->s[p->pos])) p->pos++;
}

/* One \uXXXX escape, or a surrogate pair of them, at p->pos (the backslash). */
static int scan_unicode_escape(parser *p)
{
    long cp = read_hex4(p->s, p->len, p->pos + 2);
    if (cp < 0) return fail(p, "\\u must be followed by four hex digits");
    if (is_low_surrogate((unsigned long)cp))
        return fail(p, "lone low surrogate in \\u escape");
    if (is_high_surrogate((unsigned long)cp)) {
        size_t next = p->pos + JSON_ESCAPE_U_LEN;
        long low = -1;
        if (p->len - next >= 2 && p->s[next] == '\\' && p->s[next + 1] == 'u')
            low = read_hex4(p->s, p->len, next + 2);
        if (low < 0 || !is_low_surrogate((unsigned long)low))
            return fail(p, "lone high surrogate in \\u escape");
        p->pos = next;
    }
    p->pos += JSON_ESCAPE_U_LEN;
    return TRAINSIZE_OK;
}

static int scan_escape(parser *p)
{
    if (p->pos + 1 >= p->len) {
        p->pos++;
        return fail(p, "unterminated string");
    }
    switch (p->s[p->pos + 1]) {
    case '"': case '\\': case '/': case 'b': case 'f': case 'n': case 'r': case 't':
        p->pos += 2;
        return TRAINSIZE_OK;
    case 'u':
        return scan_unicode_escape(p);
    default:
        p->pos++;
        return fail(p, "invalid escape sequence");
    }
}

/* A string at p->pos (the opening quote). */
static int scan_string(parser *p)
{
    size_t open = p->pos++;
    while (p->pos < p->len) {
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            return TRAINSIZE_OK;
        }
        if (c == '\\') {
            int rc = scan_escape(p);
            if (rc) return rc;
        } else if (c == '\0') {
            return fail(p, "NUL byte in string");
        } else if (c < FIRST_PRINTABLE) {
            return fail(p, "unescaped control character in string");
        } else {
            size_t n = ts_utf8_sequence(p->s, p->len, p->pos);
            if (n == 0) return fail(p, "invalid UTF-8 in string");
            p->pos += n;
        }
    }
    return fail_at(p, TRAINSIZE_E_PARSE, open, "unterminated string");
}

static int scan_digits(parser *p)
{
    if (p->pos >= p->len || !is_digit(p->s[p->pos])) return fail_expected(p, "a digit");
    while (p->pos < p->len && is_digit(p->s[p->pos])) p->pos++;
    return TRAINSIZE_OK;
}

/* A number, by RFC 8259's grammar: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)? */
static int scan_number(parser *p)
{
    int rc;
    if (p->s[p->pos] == '-') p->pos++;
    if (p->pos < p->len && p->s[p->pos] == '0') {
        p->pos++;
        if (p->pos < p->len && is_digit(p->s[p->pos]))
            return fail(p, "leading zeros are not allowed in numbers");
    } else if ((rc = scan_digits(p)) != TRAINSIZE_OK) {
        return rc;
    }
    if (p->pos < p->len && p->s[p->pos] == '.') {
        p->pos++;
        if ((rc = scan_digits(p)) != TRAINSIZE_OK) return rc;
    }
    if (p->pos < p->len && (p->s[p->pos] == 'e' || p->s[p->pos] == 'E')) {
        p->pos++;
        if (p->pos < p->len && (p->s[p->pos] == '+' || p->s[p->pos] == '-')) p->pos++;
        if ((rc = scan_digits(p)) != TRAINSIZE_OK) return rc;
    }
    return TRAINSIZE_OK;
}

static int scan_literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
        return fail_expected(p, "a value");
    p->pos += n;
    return TRAINSIZE_OK;
}

/* A scalar value at p->pos (containers are handled by the caller's loop). */
static int scan_scalar(parser *p)
{
    char c = p->s[p->pos];
    if (c == '"') return scan_string(p);
    if (c == '-' || is_digit(c)) return scan_number(p);
    if (c == 't') return scan_literal(p, "true");
    if (c == 'f') return scan_literal(p, "false");
    if (c == 'n') return scan_literal(p, "null");
    return fail_expected(p, "a value");
}

/* An object member's key and colon; leaves p->pos at the value. */
static int scan_key(parser *p)
{
    int rc;
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != '"') return fail_expected(p, "a string key");
    if ((rc = scan_string(p)) != TRAINSIZE_OK) return rc;
    skip_ws(p);
    if (p->pos >= p->len || p->s[p->pos] != ':') return fail_expected(p, "':'");
    p->pos++;
    return TRAINSIZE_OK;
}

/* Validation without recursion: `stack` holds the open containers' closing brackets. */
typedef struct scanner {
    parser p;
    char stack[TS_JSON_DEPTH_CAP];
    unsigned depth;
    unsigned max_depth;
} scanner;

/* Open a container at p->pos. Returns 1 when it is empty (already closed), 0 when a
 * first member or element follows, or a negative status. */
static int open_container(scanner *sc)
{
    parser *p = &sc->p;
    char close = p->s[p->pos] == '{' ? '}' : ']';
    char reason[64];
    if (sc->depth >= sc->max_depth) {
        snprintf(reason, sizeof reason, "nesting deeper than %u levels", sc->max_depth);
        return fail_at(p, TRAINSIZE_E_LIMIT, p->pos, reason);
    }
    p->pos++;
    skip_ws(p);
    if (p->pos < p->len && p->s[p->pos] == close) {
        p->pos++;
        return 1;
    }
    sc->stack[sc->depth++] = close;
    return close == '}' ? scan_key(p) : 0;
}

/* After a value: a comma and the next member, or closing brackets. Returns 1 when the
 * next value is due, 0 when the whole document is done, or a negative status. */
static int after_value(scanner *sc)
{
    parser *p = &sc->p;
    for (;;) {
        char close;
        skip_ws(p);
        if (sc->depth == 0) return 0;
        close = sc->stack[sc->depth - 1];
        if (p->pos < p->len && p->s[p->pos] == ',') {
            p->pos++;
            if (close == '}') {
                int rc = scan_key(p);
                if (rc) return rc;
            }
            return 1;
        }
        if (p->pos < p->len && p->s[p->pos] == close) {
            p->pos++;
            sc->depth--;
            continue;
        }
        return fail_expected(p, close == '}' ? "',' or '}'" : "',' or ']'");
    }
}

static int scan_document(scanner *sc)
{
    parser *p = &sc->p;
    for (;;) {
        int rc;
        skip_ws(p);
        if (p->pos >= p->len) return fail_expected(p, "a value");
        if (p->s[p->pos] == '{' || p->s[p->pos] == '[') {
            rc = open_container(sc);
            if (rc < 0) return rc;
            if (rc == 0) continue; /* a first member or element follows */
        } else if ((rc = scan_scalar(p)) != TRAINSIZE_OK) {
            return rc;
        }
        rc = after_value(sc);
        if (rc <= 0) return rc;
    }
}

static ts_json_type type_at(const char *s, size_t len, size_t pos)
{
    if (pos >= len) return TS_JSON_NONE;
    switch (s[pos]) {
    case '{': return TS_JSON_OBJECT;
    case '[': return TS_JSON_ARRAY;
    case '"': return TS_JSON_STRING;
    case 't': case 'f': return TS_JSON_BOOL;
    case 'n': return TS_JSON_NULL;
    default: return TS_JSON_NUMBER;
    }
}

static void set_none(ts_json_value *v)
{
    v->text = NULL;
    v->len = 0;
    v->start = 0;
    v->type = TS_JSON_NONE;
}

int ts_json_parse(const char *text, size_t len, size_t max_bytes, unsigned max_depth,
                  ts_json_value *root, trainsize_error *err)
{
    scanner sc;
    size_t start;
    int rc;

    if (root) set_none(root);
    if (!text || !root) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "JSON text or result is NULL");
    if (len > max_bytes)
        return ts_fail(err, TRAINSIZE_E_LIMIT, "",
                       "JSON text of %zu bytes is over the limit of %zu bytes", len, max_bytes);
    sc.p.s = text;
    sc.p.len = len;
    sc.p.pos = 0;
    sc.p.err = err;
    sc.depth = 0;
    sc.max_depth = max_depth < TS_JSON_DEPTH_CAP ? max_depth : TS_JSON_DEPTH_CAP;
    if (len >= UTF8_BOM_LEN && memcmp(text, UTF8_BOM, UTF8_BOM_LEN) == 0) sc.p.pos = UTF8_BOM_LEN;
    skip_ws(&sc.p);
    start = sc.p.pos;
    if ((rc = scan_document(&sc)) != TRAINSIZE_OK) return rc;
    skip_ws(&sc.p);
    if (sc.p.pos < len) {
        if (text[sc.p.pos] == '\0') return fail(&sc.p, "NUL byte after the JSON value");
        return fail(&sc.p, "unexpected characters after the JSON value");
    }
    root->text = text;
    root->len = len;
    root->start = start;
    root->type = type_at(text, len, start);
    return ts_ok(err);
}

/* ---- walking validated text ---------------------------------------------------------
 * These run only on text that ts_json_parse accepted, but still bound every index by
 * len so that a misused value cannot read out of range. */

static size_t ws_from(const char *s, size_t len, size_t pos)
{
    while (pos < len && is_ws(s[pos])) pos++;
    return pos;
}

/* The position after the string whose opening quote is at pos. */
static size_t skip_string(const char *s, size_t len, size_t pos)
{
    for (pos++; pos < len; pos++) {
        if (s[pos] == '\\') pos++;
        else if (s[pos] == '"') return pos + 1;
    }
    return len;
}

/* The position after the value starting at pos (iterative, strings aware). */
static size_t skip_value(const char *s, size_t len, size_t pos)
{
    size_t depth = 0;
    if (pos >= len) return len;
    if (s[pos] == '"') return skip_string(s, len, pos);
    if (s[pos] != '{' && s[pos] != '[') {
        while (pos < len && !is_ws(s[pos]) && s[pos] != ',' && s[pos] != ']' && s[pos] != '}')
            pos++;
        return pos;
    }
    while (pos < len) {
        char c = s[pos];
        if (c == '"') {
            pos = skip_string(s, len, pos);
            continue;
        }
        if (c == '{' || c == '[') depth++;
        else if ((c == '}' || c == ']') && --depth == 0) return pos + 1;
        pos++;
    }
    return len;
}

static void value_at(const ts_json_value *doc, size_t pos, ts_json_value *out)
{
    out->text = doc->text;
    out->len = doc->len;
    out->start = pos;
    out->type = type_at(doc->text, doc->len, pos);
}

/* Step a container cursor to its next item: returns the item's position, or len at the
 * closing bracket. */
static size_t next_item(const ts_json_value *c, size_t *cursor, char close)
{
    const char *s = c->text;
    size_t pos = *cursor == 0 ? c->start + 1 : *cursor;
    pos = ws_from(s, c->len, pos);
    if (pos < c->len && s[pos] == ',') pos = ws_from(s, c->len, pos + 1);
    if (pos >= c->len || s[pos] == close) {
        *cursor = pos;
        return c->len;
    }
    return pos;
}

int ts_json_object_next(const ts_json_value *obj, size_t *cursor, ts_json_value *key,
                        ts_json_value *value)
{
    const char *s;
    size_t pos;
    if (!obj || !cursor || !key || !value || obj->type != TS_JSON_OBJECT || !obj->text) return 0;
    s = obj->text;
    pos = next_item(obj, cursor, '}');
    if (pos >= obj->len || s[pos] != '"') return 0;
    value_at(obj, pos, key);
    pos = ws_from(s, obj->len, skip_string(s, obj->len, pos));
    if (pos >= obj->len || s[pos] != ':') return 0;
    pos = ws_from(s, obj->len, pos + 1);
    value_at(obj, pos, value);
    *cursor = skip_value(s, obj->len, pos);
    return 1;
}

int ts_json_array_next(const ts_json_value *arr, size_t *cursor, ts_json_value *elem)
{
    size_t pos;
    if (!arr || !cursor || !elem || arr->type != TS_JSON_ARRAY || !arr->text) return 0;
    pos = next_item(arr, cursor, ']');
    if (pos >= arr->len) return 0;
    value_at(arr, pos, elem);
    *cursor = skip_value(arr->text, arr->len, pos);
    return 1;
}

/* Decode the string character at *pos (inside a validated string) into out, advancing
 * *pos. Returns the number of bytes, or 0 at the closing quote. */
static size_t decode_char(const char *s, size_t len, size_t *pos, unsigned char out[MAX_UTF8_LEN])
{
    static const char simple_in[] = "\"\\/bfnrt";
    static const char simple_out[] = "\"\\/\b\f\n\r\t";
    size_t at = *pos;
    const char *hit;

    if (at >= len || s[at] == '"') return 0;
    if (s[at] != '\\') {
        size_t n = ts_utf8_sequence(s, len, at);
        if (n == 0) n = 1; /* not reached on validated text */
        memcpy(out, s + at, n);
        *pos = at + n;
        return n;
    }
    if (at + 1 >= len) return 0;
    if (s[at + 1] != 'u') {
        hit = strchr(simple_in, s[at + 1]);
        out[0] = (unsigned char)(hit ? simple_out[hit - simple_in] : s[at + 1]);
        *pos = at + 2;
        return 1;
    }
    {
        long cp = read_hex4(s, len, at + 2);
        size_t next = at + JSON_ESCAPE_U_LEN;
        if (cp < 0) return 0;
        if (is_high_surrogate((unsigned long)cp)) {
            long low = read_hex4(s, len, next + 2);
            if (low < 0) return 0;
            cp = (long)(SURROGATE_BASE + (((unsigned long)cp - SURROGATE_HIGH_MIN) << SURROGATE_BITS) +
                        ((unsigned long)low - SURROGATE_LOW_MIN));
            next += JSON_ESCAPE_U_LEN;
        }
        *pos = next;
        return utf8_encode((unsigned long)cp, out);
    }
}

int ts_json_string_equals(const ts_json_value *str, const char *key)
{
    unsigned char ch[MAX_UTF8_LEN];
    size_t pos, n, k = 0;
    if (!str || !key || str->type != TS_JSON_STRING || !str->text) return 0;
    pos = str->start + 1;
    while ((n = decode_char(str->text, str->len, &pos, ch)) > 0) {
        /* Stop at the key's NUL first, so that a decoded U+0000 never matches. */
        for (size_t i = 0; i < n; i++, k++)
            if (key[k] == '\0' || (unsigned char)key[k] != ch[i]) return 0;
    }
    return key[k] == '\0';
}

size_t ts_json_string_copy(const ts_json_value *v, char *buf, size_t cap)
{
    unsigned char ch[MAX_UTF8_LEN];
    size_t pos, n, total = 0, written = 0;
    int full = 0;
    if (!v || v->type != TS_JSON_STRING || !v->text) return TS_JSON_BAD_STRING;
    pos = v->start + 1;
    while ((n = decode_char(v->text, v->len, &pos, ch)) > 0) {
        if (n == 1 && ch[0] == '\0') return TS_JSON_BAD_STRING;
        /* Whole characters only, and none after the first that did not fit. */
        if (!full && buf && written + n < cap) {
            memcpy(buf + written, ch, n);
            written += n;
        } else {
            full = 1;
        }
        total += n;
    }
    if (buf && cap > 0) buf[written] = '\0';
    return total;
}

int ts_json_is_null(const ts_json_value *v)
{
    return v && v->type == TS_JSON_NULL;
}

int ts_json_object_get(const ts_json_value *obj, const char *key, ts_json_value *out)
{
    ts_json_value k, v;
    size_t cursor = 0;
    int found = 0;
    if (!out) return 0;
    set_none(out);
    if (!key) return 0;
    while (ts_json_object_next(obj, &cursor, &k, &v)) {
        if (ts_json_string_equals(&k, key)) {
            *out = v; /* keep scanning: the last duplicate wins */
            found = 1;
        }
    }
    return found;
}

/* ---- typed readers ------------------------------------------------------------------ */

#define SHOW_MAX 24            /* longest number quoted in a message */

static const char *type_name(ts_json_type t)
{
    switch (t) {
    case TS_JSON_NULL: return "null";
    case TS_JSON_BOOL: return "a boolean";
    case TS_JSON_NUMBER: return "a number";
    case TS_JSON_STRING: return "a string";
    case TS_JSON_ARRAY: return "an array";
    case TS_JSON_OBJECT: return "an object";
    default: return "nothing";
    }
}

static const char *safe_field(const char *field)
{
    return field ? field : "";
}

/* Missing value or wrong type: fail with a message naming the field. */
static int check_type(const ts_json_value *v, ts_json_type want, const char *want_name,
                      const char *field, trainsize_error *err)
{
    if (!v || v->type == TS_JSON_NONE || !v->text)
        return ts_fail(err, TRAINSIZE_E_INVALID, safe_field(field), "missing key \"%s\"",
                       safe_field(field));
    if (v->type != want)
        return ts_fail(err, TRAINSIZE_E_INVALID, safe_field(field), "\"%s\": expected %s, got %s",
                       safe_field(field), want_name, type_name(v->type));
    return TRAINSIZE_OK;
}

/* The number token's text, shortened for messages. */
static void show_number(const ts_json_value *v, char *buf, size_t cap)
{
    size_t end = skip_value(v->text, v->len, v->start);
    size_t n = end - v->start;
    if (n > SHOW_MAX)
        snprintf(buf, cap, "%.*s...", SHOW_MAX, v->text + v->start);
    else
        snprintf(buf, cap, "%.*s", (int)n, v->text + v->start);
}

int ts_json_get_u64(const ts_json_value *v, const char *field, uint64_t max, uint64_t *out,
                    trainsize_error *err)
{
    ts_decimal d;
    uint64_t value = 0;
    char shown[SHOW_MAX + 4];
    int rc = check_type(v, TS_JSON_NUMBER, "a non-negative integer", field, err);
    if (rc) return rc;
    /* The token was validated as a JSON number, which the decimal reader takes whole. */
    ts_decimal_read(v->text + v->start, v->len - v->start, &d);
    show_number(v, shown, sizeof shown);
    field = safe_field(field);
    switch (ts_decimal_to_u64(&d, max, &value)) {
    case TS_DECIMAL_OK: break;
    case TS_DECIMAL_NEGATIVE:
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": %s is negative", field, shown);
    case TS_DECIMAL_FRACTION:
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": %s is not an integer", field,
                       shown);
    case TS_DECIMAL_TOO_BIG:
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": %s does not fit in 64 bits",
                       field, shown);
    case TS_DECIMAL_ABOVE_MAX:
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": %s is more than %llu", field,
                       shown, (unsigned long long)max);
    }
    *out = value;
    return ts_ok(err);
}

int ts_json_get_double(const ts_json_value *v, const char *field, double *out,
                       trainsize_error *err)
{
    ts_decimal d;
    double value;
    char shown[SHOW_MAX + 4];
    int rc = check_type(v, TS_JSON_NUMBER, "a number", field, err);
    if (rc) return rc;
    ts_decimal_read(v->text + v->start, v->len - v->start, &d);
    value = ts_decimal_to_double(&d);
    if (!isfinite(value)) {
        show_number(v, shown, sizeof shown);
        field = safe_field(field);
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": %s is out of range", field,
                       shown);
    }
    *out = value;
    return ts_ok(err);
}

int ts_json_get_bool(const ts_json_value *v, const char *field, int *out, trainsize_error *err)
{
    int rc = check_type(v, TS_JSON_BOOL, "true or false", field, err);
    if (rc) return rc;
    *out = v->text[v->start] == 't';
    return ts_ok(err);
}

int ts_json_get_string(const ts_json_value *v, const char *field, char *buf, size_t cap,
                       trainsize_error *err)
{
    size_t n;
    int rc = check_type(v, TS_JSON_STRING, "a string", field, err);
    if (rc) return rc;
    field = safe_field(field);
    n = ts_json_string_copy(v, NULL, 0);
    if (n == TS_JSON_BAD_STRING)
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "\"%s\": string holds a NUL character",
                       field);
    if (!buf || n >= cap)
        return ts_fail(err, TRAINSIZE_E_INVALID, field,
                       "\"%s\": string of %zu bytes is longer than %zu", field, n,
                       cap > 0 ? cap - 1 : 0);
    ts_json_string_copy(v, buf, cap);
    return ts_ok(err);
}

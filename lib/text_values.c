/* Settings given as text: numbers (through the one decimal reader, decimal.c), booleans,
 * catalogue names and comma lists, read the same in every locale. */
#include "text_values.h"
#include "decimal.h"
#include "text.h"
#include "trainsize.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* The whole text is one number: the reader took every byte. */
static int read_all(const char *text, ts_decimal *d)
{
    size_t len;
    if (!text) return -1;
    len = strlen(text);
    return len > 0 && ts_decimal_read(text, len, d) == len ? 0 : -1;
}

int ts_parse_u64(const char *text, uint64_t max, uint64_t *out)
{
    ts_decimal d;
    if (read_all(text, &d) != 0) return -1;
    return ts_decimal_to_u64(&d, max, out) == TS_DECIMAL_OK ? 0 : -1;
}

int ts_parse_double(const char *text, double *out)
{
    ts_decimal d;
    double v;
    if (read_all(text, &d) != 0) return -1;
    v = ts_decimal_to_double(&d);
    /* Out of range either way: inf, or a non-zero value that reads as 0. */
    if (!isfinite(v) || (v == 0.0 && d.mantissa != 0)) return -1;
    *out = v;
    return 0;
}

/* printf writes LC_NUMERIC's decimal separator (a comma under de_DE, U+066B under ps_AF),
 * and an embedding program may have set it. Everything %g writes but the separator is an
 * ASCII digit, sign, 'e', or a letter of inf/nan, so any other run of bytes is it, and is
 * written back as the point every reader here expects. */
int ts_format_double(char *buf, size_t cap, int precision, double v)
{
    char raw[64], c_form[64];
    size_t in = 0, out = 0;
    snprintf(raw, sizeof raw, "%.*g", precision, v);
    while (raw[in] && out + 1 < sizeof c_form) {
        char c = raw[in];
        if ((c >= '0' && c <= '9') || c == '-' || c == '+' || (c >= 'a' && c <= 'z') ||
            (c >= 'A' && c <= 'Z')) {
            c_form[out++] = c;
            in++;
            continue;
        }
        c_form[out++] = '.';
        while (raw[in] && !(raw[in] >= '0' && raw[in] <= '9')) in++;
    }
    c_form[out] = '\0';
    return snprintf(buf, cap, "%s", c_form);
}

const char *ts_number_text(ts_number *n, double v)
{
    ts_format_double(n->text, sizeof n->text, 6, v); /* printf's %g */
    return n->text;
}

int ts_format_shortest(char *buf, size_t cap, double v)
{
    char tmp[64];
    int precision;
    for (precision = 15; precision <= 17; precision++) {
        double back;
        ts_format_double(tmp, sizeof tmp, precision, v);
        if (ts_parse_double(tmp, &back) == 0 && back == v) break;
    }
    return snprintf(buf, cap, "%s", tmp);
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

int ts_streq_nocase(const char *a, const char *b)
{
    if (!a || !b) return 0;
    while (*a && lower(*a) == lower(*b)) { a++; b++; }
    return *a == '\0' && *b == '\0';
}

int ts_parse_bool(const char *text, int *out)
{
    if (ts_streq_nocase(text, "true") || ts_streq_nocase(text, "1") || ts_streq_nocase(text, "yes") ||
        ts_streq_nocase(text, "on")) {
        *out = 1;
        return 0;
    }
    if (ts_streq_nocase(text, "false") || ts_streq_nocase(text, "0") || ts_streq_nocase(text, "no") ||
        ts_streq_nocase(text, "off")) {
        *out = 0;
        return 0;
    }
    return -1;
}

static int is_separator(char c) { return c == '-' || c == '_' || c == ' '; }

int ts_name_equal(const char *a, const char *b)
{
    for (;;) {
        while (is_separator(*a)) a++;
        while (is_separator(*b)) b++;
        if (*a == '\0' || *b == '\0') return *a == *b;
        if (lower(*a) != lower(*b)) return 0;
        a++;
        b++;
    }
}

/* A name as the rule compares it: lower case, separators dropped, at most cap - 1 bytes. */
static size_t fold_name(const char *name, char *out, size_t cap)
{
    size_t n = 0;
    for (; *name && n + 1 < cap; name++)
        if (!is_separator(*name)) out[n++] = lower(*name);
    out[n] = '\0';
    return n;
}

/* Edits (insert, delete, replace) between two folded names; one row of the table. */
static size_t edits(const char *a, size_t na, const char *b, size_t nb)
{
    size_t row[TRAINSIZE_NAME_MAX], i, j;
    for (j = 0; j <= nb; j++) row[j] = j;
    for (i = 1; i <= na; i++) {
        size_t diag = row[0], up;
        row[0] = i;
        for (j = 1; j <= nb; j++) {
            up = row[j];
            row[j] = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < row[j]) row[j] = up + 1;
            if (row[j - 1] + 1 < row[j]) row[j] = row[j - 1] + 1;
            diag = up;
        }
    }
    return row[nb];
}

const char *ts_name_nearest(const char *query, const char *(*name_at)(size_t), size_t count)
{
    char q[TRAINSIZE_NAME_MAX], n[TRAINSIZE_NAME_MAX];
    size_t nq, i, best_edits = (size_t)-1;
    const char *best = NULL;
    if (!query) return NULL;
    nq = fold_name(query, q, sizeof q);
    if (nq == 0) return NULL;
    for (i = 0; i < count; i++) {
        const char *name = name_at(i);
        size_t nn = name ? fold_name(name, n, sizeof n) : 0, d;
        if (nn == 0) continue;
        if (nn > nq && strncmp(n, q, nq) == 0) return name; /* the query is its start */
        d = edits(q, nq, n, nn);
        if (d < best_edits) {
            best_edits = d;
            best = name;
        }
    }
    return best && best_edits * 3 <= nq ? best : NULL;
}

int ts_date_valid(const char *text)
{
    static const unsigned char days[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    unsigned year = 0, month, day;
    size_t i;
    for (i = 0; i < 10; i++) {
        int dash = i == 4 || i == 7;
        if (dash ? text[i] != '-' : text[i] < '0' || text[i] > '9') return 0;
    }
    if (text[10] != '\0') return 0;
    for (i = 0; i < 4; i++) year = year * 10 + (unsigned)(text[i] - '0');
    month = (unsigned)(text[5] - '0') * 10 + (unsigned)(text[6] - '0');
    day = (unsigned)(text[8] - '0') * 10 + (unsigned)(text[9] - '0');
    if (year < 1000 || month < 1 || month > 12 || day < 1 || day > days[month - 1]) return 0;
    /* the Gregorian leap years: every fourth, but not the centuries not divisible by 400 */
    return !(month == 2 && day == 29 && (year % 4 != 0 || (year % 100 == 0 && year % 400 != 0)));
}

int ts_name_blank(const char *name)
{
    while (is_separator(*name)) name++;
    return *name == '\0';
}

int ts_list_next(const char **cursor, char sep, char *item, size_t cap)
{
    const char *p = *cursor, *end;
    size_t len;
    if (!p || *p == '\0') return 0;
    end = strchr(p, sep);
    len = end ? (size_t)(end - p) : strlen(p);
    if (len == 0 || len >= cap) return -1;
    memcpy(item, p, len);
    item[len] = '\0';
    /* A separator that ends the text is an empty last item: stop on it, so the next call
     * reports it. */
    *cursor = !end ? p + len : end[1] ? end + 1 : end;
    return 1;
}

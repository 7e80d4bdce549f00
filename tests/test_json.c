/* The bounded JSON reader: validation (every error class), lookups and typed reads. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

#define TEST_MAX_BYTES (1u << 20)
#define TEST_MAX_DEPTH 32
#define NO_LEN ((size_t)-1) /* table entries: use strlen */

static int parse_len(const char *text, size_t len, ts_json_value *root, trainsize_error *err)
{
    return ts_json_parse(text, len, TEST_MAX_BYTES, TEST_MAX_DEPTH, root, err);
}

static int parse(const char *text, ts_json_value *root, trainsize_error *err)
{
    return parse_len(text, strlen(text), root, err);
}

/* ---- validation ----------------------------------------------------------------------- */

typedef struct doc_case {
    const char *text;
    size_t len; /* NO_LEN: strlen(text); else explicit (texts holding NUL bytes) */
    int code;
} doc_case;

static void run_doc_cases(const doc_case *cases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        trainsize_error err;
        ts_json_value root;
        size_t len = cases[i].len == NO_LEN ? strlen(cases[i].text) : cases[i].len;
        int rc = parse_len(cases[i].text, len, &root, &err);
        if (rc != cases[i].code)
            print_error("case %zu: %s: got %d (%s), want %d\n", i, cases[i].text, rc, err.message,
                        cases[i].code);
        assert_int_equal(rc, cases[i].code);
        assert_int_equal(err.code, cases[i].code);
        if (rc != TRAINSIZE_OK) {
            assert_non_null(strstr(err.message, "byte offset"));
            assert_int_equal(root.type, TS_JSON_NONE);
        } else {
            assert_string_equal(err.message, "");
        }
    }
}

#define RUN_CASES(table) run_doc_cases(table, sizeof table / sizeof table[0])

static void test_valid_documents(void **state)
{
    static const doc_case cases[] = {
        {"{}", NO_LEN, TRAINSIZE_OK},
        {"[]", NO_LEN, TRAINSIZE_OK},
        {" \t\r\n{ } \n", NO_LEN, TRAINSIZE_OK},
        {"0", NO_LEN, TRAINSIZE_OK},
        {"-0", NO_LEN, TRAINSIZE_OK},
        {"-0.0e-0", NO_LEN, TRAINSIZE_OK},
        {"1.5E+10", NO_LEN, TRAINSIZE_OK},
        {"\"\"", NO_LEN, TRAINSIZE_OK},
        {"true", NO_LEN, TRAINSIZE_OK},
        {"null", NO_LEN, TRAINSIZE_OK},
        {"{\"a\":[1,2,{\"b\":null}],\"c\":{\"d\":[]}}", NO_LEN, TRAINSIZE_OK},
        {"[\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD834\\uDD1E\"]", NO_LEN, TRAINSIZE_OK},
        {"\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E \xF4\x8F\xBF\xBF\"", NO_LEN, TRAINSIZE_OK},
        {"\xEF\xBB\xBF{\"bom\": true}", NO_LEN, TRAINSIZE_OK},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_truncated(void **state)
{
    static const doc_case cases[] = {
        {"", NO_LEN, TRAINSIZE_E_PARSE},
        {"   ", NO_LEN, TRAINSIZE_E_PARSE},
        {"\xEF\xBB\xBF", NO_LEN, TRAINSIZE_E_PARSE},
        {"{", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\":", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\": 1", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\": 1,", NO_LEN, TRAINSIZE_E_PARSE},
        {"[1, 2", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"abc", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"abc\\", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\u12", NO_LEN, TRAINSIZE_E_PARSE},
        {"tru", NO_LEN, TRAINSIZE_E_PARSE},
        {"nul", NO_LEN, TRAINSIZE_E_PARSE},
        {"-", NO_LEN, TRAINSIZE_E_PARSE},
        {"1.", NO_LEN, TRAINSIZE_E_PARSE},
        {"1e", NO_LEN, TRAINSIZE_E_PARSE},
        {"1e+", NO_LEN, TRAINSIZE_E_PARSE},
        /* The length cuts a valid text short: nothing past len is read. */
        {"{\"a\": 1}", 7, TRAINSIZE_E_PARSE},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_trailing_garbage(void **state)
{
    static const doc_case cases[] = {
        {"{} x", NO_LEN, TRAINSIZE_E_PARSE},
        {"1 2", NO_LEN, TRAINSIZE_E_PARSE},
        {"{}}", NO_LEN, TRAINSIZE_E_PARSE},
        {"[]]", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\":1},", NO_LEN, TRAINSIZE_E_PARSE},
        {"truex", NO_LEN, TRAINSIZE_E_PARSE},
        {"{}\0", 3, TRAINSIZE_E_PARSE},
        {"{} \0 ", 5, TRAINSIZE_E_PARSE},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_bad_structure(void **state)
{
    static const doc_case cases[] = {
        {"{\"a\" 1}", NO_LEN, TRAINSIZE_E_PARSE},
        {"{a:1}", NO_LEN, TRAINSIZE_E_PARSE},
        {"{'a':1}", NO_LEN, TRAINSIZE_E_PARSE},
        {"{1:1}", NO_LEN, TRAINSIZE_E_PARSE},
        {"[1,]", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\":1,}", NO_LEN, TRAINSIZE_E_PARSE},
        {"[,1]", NO_LEN, TRAINSIZE_E_PARSE},
        {"{,}", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\":1 \"b\":2}", NO_LEN, TRAINSIZE_E_PARSE},
        {"[1 2]", NO_LEN, TRAINSIZE_E_PARSE},
        {"[1}", NO_LEN, TRAINSIZE_E_PARSE},
        {"{\"a\":1]", NO_LEN, TRAINSIZE_E_PARSE},
        {"True", NO_LEN, TRAINSIZE_E_PARSE},
        {"undefined", NO_LEN, TRAINSIZE_E_PARSE},
        {"/* comment */ {}", NO_LEN, TRAINSIZE_E_PARSE},
        {"\x0B{}", NO_LEN, TRAINSIZE_E_PARSE}, /* vertical tab is not JSON whitespace */
        {"\xEF\xBB\xBF\xEF\xBB\xBF{}", NO_LEN, TRAINSIZE_E_PARSE},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_bad_numbers(void **state)
{
    static const doc_case cases[] = {
        {"01", NO_LEN, TRAINSIZE_E_PARSE},
        {"-01", NO_LEN, TRAINSIZE_E_PARSE},
        {"00", NO_LEN, TRAINSIZE_E_PARSE},
        {"[007]", NO_LEN, TRAINSIZE_E_PARSE},
        {"+1", NO_LEN, TRAINSIZE_E_PARSE},
        {".5", NO_LEN, TRAINSIZE_E_PARSE},
        {"1.e5", NO_LEN, TRAINSIZE_E_PARSE},
        {"1.5.2", NO_LEN, TRAINSIZE_E_PARSE},
        {"--1", NO_LEN, TRAINSIZE_E_PARSE},
        {"- 1", NO_LEN, TRAINSIZE_E_PARSE},
        {"0x10", NO_LEN, TRAINSIZE_E_PARSE},
        {"NaN", NO_LEN, TRAINSIZE_E_PARSE},
        {"Infinity", NO_LEN, TRAINSIZE_E_PARSE},
        {"-Infinity", NO_LEN, TRAINSIZE_E_PARSE},
        {"[1e5e5]", NO_LEN, TRAINSIZE_E_PARSE},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_bad_escapes(void **state)
{
    static const doc_case cases[] = {
        {"\"\\x\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\a\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\0\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\'\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\U0041\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\u12\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\u12G4\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\u-123\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\\xC3\xA9\"", NO_LEN, TRAINSIZE_E_PARSE},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_lone_surrogates(void **state)
{
    static const doc_case cases[] = {
        {"\"\\uD800\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uDBFF\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uDC00\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uDFFF\\uD800\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800\\u0041\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800\\uD800\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800x\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800\\n\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800\\u", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\\uD800\\uDC00\"", NO_LEN, TRAINSIZE_OK},
        {"\"\\udbff\\udfff\"", NO_LEN, TRAINSIZE_OK},
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_invalid_utf8(void **state)
{
    static const doc_case cases[] = {
        {"\"\x80\"", NO_LEN, TRAINSIZE_E_PARSE},             /* lone continuation byte */
        {"\"\xC3\"", NO_LEN, TRAINSIZE_E_PARSE},             /* truncated sequence */
        {"\"\xE2\x82\"", NO_LEN, TRAINSIZE_E_PARSE},         /* truncated sequence */
        {"\"\xE2\x82", NO_LEN, TRAINSIZE_E_PARSE},           /* truncated at the end */
        {"\"\xC0\xAF\"", NO_LEN, TRAINSIZE_E_PARSE},         /* overlong '/' */
        {"\"\xC1\xBF\"", NO_LEN, TRAINSIZE_E_PARSE},         /* overlong */
        {"\"\xE0\x80\xAF\"", NO_LEN, TRAINSIZE_E_PARSE},     /* overlong */
        {"\"\xF0\x80\x80\xAF\"", NO_LEN, TRAINSIZE_E_PARSE}, /* overlong */
        {"\"\xED\xA0\x80\"", NO_LEN, TRAINSIZE_E_PARSE},     /* encoded surrogate U+D800 */
        {"\"\xED\xBF\xBF\"", NO_LEN, TRAINSIZE_E_PARSE},     /* encoded surrogate U+DFFF */
        {"\"\xF4\x90\x80\x80\"", NO_LEN, TRAINSIZE_E_PARSE}, /* above U+10FFFF */
        {"\"\xF5\x80\x80\x80\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\xFE\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\xFF\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\xC3\x28\"", NO_LEN, TRAINSIZE_E_PARSE},         /* bad continuation */
        {"\xC3\xA9", NO_LEN, TRAINSIZE_E_PARSE},             /* UTF-8 outside a string */
        {"\"\xED\x9F\xBF\"", NO_LEN, TRAINSIZE_OK},          /* U+D7FF, just below */
        {"\"\xEE\x80\x80\"", NO_LEN, TRAINSIZE_OK},          /* U+E000, just above */
    };
    (void)state;
    RUN_CASES(cases);
}

static void test_control_and_nul(void **state)
{
    static const doc_case cases[] = {
        {"\"a\tb\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"a\nb\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"\x1F\"", NO_LEN, TRAINSIZE_E_PARSE},
        {"\"a\0b\"", 5, TRAINSIZE_E_PARSE},
        {"{\"a\":\0 1}", 9, TRAINSIZE_E_PARSE},
        {"\0", 1, TRAINSIZE_E_PARSE},
        {"\"\x7F\"", NO_LEN, TRAINSIZE_OK}, /* DEL is allowed raw */
    };
    (void)state;
    RUN_CASES(cases);
}

/* `depth` nested arrays (or objects) around a 1. */
static size_t nested(char *buf, size_t cap, unsigned depth, int objects)
{
    size_t n = 0;
    for (unsigned i = 0; i < depth; i++) {
        const char *open = objects ? "{\"k\":" : "[";
        size_t k = strlen(open);
        assert_true(n + k < cap);
        memcpy(buf + n, open, k);
        n += k;
    }
    assert_true(n + 1 + depth < cap);
    buf[n++] = '1';
    for (unsigned i = 0; i < depth; i++) buf[n++] = objects ? '}' : ']';
    buf[n] = '\0';
    return n;
}

static void test_depth_limit(void **state)
{
    static char buf[8 * TS_JSON_DEPTH_CAP + 64];
    trainsize_error err;
    ts_json_value root;
    size_t n;
    (void)state;

    for (int objects = 0; objects <= 1; objects++) {
        n = nested(buf, sizeof buf, TEST_MAX_DEPTH, objects);
        assert_int_equal(parse_len(buf, n, &root, &err), TRAINSIZE_OK);
        n = nested(buf, sizeof buf, TEST_MAX_DEPTH + 1, objects);
        assert_int_equal(parse_len(buf, n, &root, &err), TRAINSIZE_E_LIMIT);
        assert_int_equal(err.code, TRAINSIZE_E_LIMIT);
        assert_non_null(strstr(err.message, "nesting deeper than 32"));
    }
    /* Depth 0 allows scalars only. */
    assert_int_equal(ts_json_parse("7", 1, TEST_MAX_BYTES, 0, &root, &err), TRAINSIZE_OK);
    assert_int_equal(ts_json_parse("[]", 2, TEST_MAX_BYTES, 0, &root, &err), TRAINSIZE_E_LIMIT);
    /* A limit above the stack's capacity is clamped to it. */
    n = nested(buf, sizeof buf, TS_JSON_DEPTH_CAP, 0);
    assert_int_equal(ts_json_parse(buf, n, TEST_MAX_BYTES, 100000, &root, &err), TRAINSIZE_OK);
    n = nested(buf, sizeof buf, TS_JSON_DEPTH_CAP + 1, 0);
    assert_int_equal(ts_json_parse(buf, n, TEST_MAX_BYTES, 100000, &root, &err),
                     TRAINSIZE_E_LIMIT);
    /* Unbalanced deep nesting: the limit is reported before the missing brackets. */
    memset(buf, '[', 1000);
    assert_int_equal(parse_len(buf, 1000, &root, &err), TRAINSIZE_E_LIMIT);
}

static void test_size_limit(void **state)
{
    static const char text[] = "{\"a\": [1, 2, 3]}";
    trainsize_error err;
    ts_json_value root;
    size_t n = sizeof text - 1;
    (void)state;
    assert_int_equal(ts_json_parse(text, n, n, TEST_MAX_DEPTH, &root, &err), TRAINSIZE_OK);
    assert_int_equal(ts_json_parse(text, n, n - 1, TEST_MAX_DEPTH, &root, &err),
                     TRAINSIZE_E_LIMIT);
    assert_int_equal(err.code, TRAINSIZE_E_LIMIT);
    assert_non_null(strstr(err.message, "16 bytes"));
    assert_int_equal(root.type, TS_JSON_NONE);
}

static void test_error_position(void **state)
{
    trainsize_error err;
    ts_json_value root;
    (void)state;
    assert_int_equal(parse("{\n  \"a\": 1,\n  \"b\": x\n}", &root, &err), TRAINSIZE_E_PARSE);
    assert_string_equal(err.field, "");
    assert_non_null(strstr(err.message, "line 3, column 8 (byte offset 19)"));
    assert_non_null(strstr(err.message, "found 'x'"));

    assert_int_equal(parse("[1,", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "end of the text"));
    assert_int_equal(parse("01", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "leading zero"));
    assert_int_equal(parse("\"\\uD800\"", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "surrogate"));
    assert_int_equal(parse("\"\xC0\xAF\"", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "UTF-8"));
    assert_int_equal(parse("{} x", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "after the JSON value"));
    /* An unterminated string is reported where it opens. */
    assert_int_equal(parse("[\"abc", &root, &err), TRAINSIZE_E_PARSE);
    assert_non_null(strstr(err.message, "byte offset 1)"));
}

static void test_arguments(void **state)
{
    trainsize_error err;
    ts_json_value root;
    (void)state;
    assert_int_equal(ts_json_parse(NULL, 0, TEST_MAX_BYTES, TEST_MAX_DEPTH, &root, &err),
                     TRAINSIZE_E_ARGUMENT);
    assert_int_equal(ts_json_parse("{}", 2, TEST_MAX_BYTES, TEST_MAX_DEPTH, NULL, &err),
                     TRAINSIZE_E_ARGUMENT);
    /* err may be NULL. */
    assert_int_equal(ts_json_parse("{", 1, TEST_MAX_BYTES, TEST_MAX_DEPTH, &root, NULL),
                     TRAINSIZE_E_PARSE);
    /* Success clears a stale error. */
    memset(&err, 'x', sizeof err);
    assert_int_equal(parse("{}", &root, &err), TRAINSIZE_OK);
    assert_int_equal(err.code, 0);
    assert_string_equal(err.field, "");
    assert_string_equal(err.message, "");
    assert_int_equal(root.type, TS_JSON_OBJECT);
}

/* ---- lookups ------------------------------------------------------------------------ */

static const char doc_text[] =
    "\xEF\xBB\xBF {\n"
    "  \"hidden_size\": 4096,\n"
    "  \"name\": \"first\",\n"
    "  \"text_config\": {\"hidden_size\": 2048, \"nested\": {\"x\": [1, {\"y\": \"}]\"}]}},\n"
    "  \"list\": [10, \"s\", null, true, {\"k\": 1}, [2]],\n"
    "  \"esc\\u005fkey\": 1,\n"
    "  \"nul\\u0000\": 2,\n"
    "  \"caf\\u00e9\": 3,\n"
    "  \"tricky\": \"a \\\" \\\\\",\n"
    "  \"name\": \"last\",\n"
    "  \"empty_obj\": {},\n"
    "  \"empty_arr\": []\n"
    "}\n";

static ts_json_value doc_root(void)
{
    ts_json_value root;
    trainsize_error err;
    assert_int_equal(parse(doc_text, &root, &err), TRAINSIZE_OK);
    assert_int_equal(root.type, TS_JSON_OBJECT);
    return root;
}

static void test_object_get(void **state)
{
    ts_json_value root = doc_root(), v, inner;
    trainsize_error err;
    char buf[32];
    uint64_t n = 0;
    (void)state;

    assert_int_equal(ts_json_object_get(&root, "hidden_size", &v), 1);
    assert_int_equal(v.type, TS_JSON_NUMBER);
    assert_int_equal(ts_json_get_u64(&v, "hidden_size", UINT64_MAX, &n, &err), TRAINSIZE_OK);
    assert_int_equal(n, 4096);

    /* Nested lookup, and the nested key does not leak into the outer object. */
    assert_int_equal(ts_json_object_get(&root, "text_config", &inner), 1);
    assert_int_equal(inner.type, TS_JSON_OBJECT);
    assert_int_equal(ts_json_object_get(&inner, "hidden_size", &v), 1);
    assert_int_equal(ts_json_get_u64(&v, "text_config.hidden_size", UINT64_MAX, &n, &err), 0);
    assert_int_equal(n, 2048);
    assert_int_equal(ts_json_object_get(&root, "nested", &v), 0);
    assert_int_equal(ts_json_object_get(&root, "y", &v), 0);

    /* Duplicate keys: the last one wins. */
    assert_int_equal(ts_json_object_get(&root, "name", &v), 1);
    assert_int_equal(ts_json_get_string(&v, "name", buf, sizeof buf, &err), TRAINSIZE_OK);
    assert_string_equal(buf, "last");

    /* Keys compare decoded. */
    assert_int_equal(ts_json_object_get(&root, "esc_key", &v), 1);
    assert_int_equal(ts_json_object_get(&root, "caf\xC3\xA9", &v), 1);
    assert_int_equal(ts_json_object_get(&root, "nul", &v), 0);
    assert_int_equal(ts_json_object_get(&root, "esc", &v), 0);
    assert_int_equal(ts_json_object_get(&root, "esc_keyX", &v), 0);

    /* Absent keys and non-objects give NONE. */
    assert_int_equal(ts_json_object_get(&root, "absent", &v), 0);
    assert_int_equal(v.type, TS_JSON_NONE);
    assert_int_equal(ts_json_object_get(&root, "empty_obj", &inner), 1);
    assert_int_equal(ts_json_object_get(&inner, "x", &v), 0);
    assert_int_equal(ts_json_object_get(&root, "list", &inner), 1);
    assert_int_equal(ts_json_object_get(&inner, "k", &v), 0);
    assert_int_equal(v.type, TS_JSON_NONE);
    assert_int_equal(ts_json_object_get(&root, NULL, &v), 0);

    /* A missing value reads as a "missing key" error naming the field. */
    assert_int_equal(ts_json_get_u64(&v, "vocab_size", UINT64_MAX, &n, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "vocab_size");
    assert_string_equal(err.message, "missing key \"vocab_size\"");
}

static void test_iteration(void **state)
{
    static const char *const keys[] = {"hidden_size", "name", "text_config", "list", "esc_key",
                                       NULL, "caf\xC3\xA9", "tricky", "name", "empty_obj",
                                       "empty_arr"};
    static const ts_json_type list_types[] = {TS_JSON_NUMBER, TS_JSON_STRING, TS_JSON_NULL,
                                              TS_JSON_BOOL, TS_JSON_OBJECT, TS_JSON_ARRAY};
    ts_json_value root = doc_root(), k, v, list, e;
    size_t cursor = 0, i = 0;
    (void)state;

    while (ts_json_object_next(&root, &cursor, &k, &v)) {
        assert_true(i < sizeof keys / sizeof keys[0]);
        assert_int_equal(k.type, TS_JSON_STRING);
        if (keys[i]) assert_true(ts_json_string_equals(&k, keys[i]));
        i++;
    }
    assert_int_equal(i, sizeof keys / sizeof keys[0]);
    assert_int_equal(ts_json_object_next(&root, &cursor, &k, &v), 0); /* stays done */

    assert_int_equal(ts_json_object_get(&root, "list", &list), 1);
    cursor = 0;
    i = 0;
    while (ts_json_array_next(&list, &cursor, &e)) {
        assert_true(i < sizeof list_types / sizeof list_types[0]);
        assert_int_equal(e.type, list_types[i]);
        i++;
    }
    assert_int_equal(i, 6);

    assert_int_equal(ts_json_object_get(&root, "empty_arr", &list), 1);
    cursor = 0;
    assert_int_equal(ts_json_array_next(&list, &cursor, &e), 0);
    /* Wrong container kinds iterate nothing. */
    cursor = 0;
    assert_int_equal(ts_json_array_next(&root, &cursor, &e), 0);
    cursor = 0;
    assert_int_equal(ts_json_object_next(&list, &cursor, &k, &v), 0);
}

static void test_top_level_scalars(void **state)
{
    ts_json_value root;
    trainsize_error err;
    uint64_t n = 0;
    (void)state;
    assert_int_equal(parse("  42  ", &root, &err), TRAINSIZE_OK);
    assert_int_equal(root.type, TS_JSON_NUMBER);
    assert_int_equal(ts_json_get_u64(&root, "n", 100, &n, &err), TRAINSIZE_OK);
    assert_int_equal(n, 42);
    assert_int_equal(parse("null", &root, &err), TRAINSIZE_OK);
    assert_true(ts_json_is_null(&root));
    assert_int_equal(parse("[1]", &root, &err), TRAINSIZE_OK);
    assert_false(ts_json_is_null(&root));
}

/* ---- typed reads -------------------------------------------------------------------- */

typedef struct u64_case {
    const char *text;
    uint64_t max;
    int code;
    uint64_t value;
} u64_case;

static void test_get_u64(void **state)
{
    static const u64_case cases[] = {
        {"0", UINT64_MAX, TRAINSIZE_OK, 0},
        {"-0", UINT64_MAX, TRAINSIZE_OK, 0},
        {"0.0", UINT64_MAX, TRAINSIZE_OK, 0},
        {"-0.0e5", UINT64_MAX, TRAINSIZE_OK, 0},
        {"0e999999999999", UINT64_MAX, TRAINSIZE_OK, 0},
        {"1", UINT64_MAX, TRAINSIZE_OK, 1},
        {"4096", UINT64_MAX, TRAINSIZE_OK, 4096},
        {"4096.0", UINT64_MAX, TRAINSIZE_OK, 4096},
        {"1e3", UINT64_MAX, TRAINSIZE_OK, 1000},
        {"1E+3", UINT64_MAX, TRAINSIZE_OK, 1000},
        {"1.5e1", UINT64_MAX, TRAINSIZE_OK, 15},
        {"1.50e1", UINT64_MAX, TRAINSIZE_OK, 15},
        {"100e-2", UINT64_MAX, TRAINSIZE_OK, 1},
        {"2e12", UINT64_MAX, TRAINSIZE_OK, UINT64_C(2000000000000)},
        {"0.001e3", UINT64_MAX, TRAINSIZE_OK, 1},
        {"1e19", UINT64_MAX, TRAINSIZE_OK, UINT64_C(10000000000000000000)},
        {"10000000000000000000000000e-10", UINT64_MAX, TRAINSIZE_OK, UINT64_C(1000000000000000)},
        {"18446744073709551615", UINT64_MAX, TRAINSIZE_OK, UINT64_MAX},
        {"1844674407370955161.5e1", UINT64_MAX, TRAINSIZE_OK, UINT64_MAX},
        /* Beyond 64 bits. */
        {"18446744073709551616", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"99999999999999999999999", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"1e20", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"2e19", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"1e999999999999", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        /* Negative. */
        {"-1", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"-4096", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"-1.5", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"-1e-400", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        /* Not integral. */
        {"1.5", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"4096.5", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"1e-1", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"0.1", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"1.0000000000000000000000001", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"123456789012345678901234567890e-25", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        {"1e-999999999999", UINT64_MAX, TRAINSIZE_E_INVALID, 0},
        /* The caller's limit. */
        {"100", 100, TRAINSIZE_OK, 100},
        {"101", 100, TRAINSIZE_E_INVALID, 0},
        {"1e2", 99, TRAINSIZE_E_INVALID, 0},
        {"0", 0, TRAINSIZE_OK, 0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_json_value root;
        trainsize_error err;
        uint64_t n = 12345;
        int rc;
        assert_int_equal(parse(cases[i].text, &root, &err), TRAINSIZE_OK);
        rc = ts_json_get_u64(&root, "key", cases[i].max, &n, &err);
        if (rc != cases[i].code)
            print_error("case %zu: %s: got %d (%s)\n", i, cases[i].text, rc, err.message);
        assert_int_equal(rc, cases[i].code);
        if (rc == TRAINSIZE_OK) {
            assert_int_equal(n, cases[i].value);
        } else {
            assert_int_equal(n, 12345); /* unchanged */
            assert_string_equal(err.field, "key");
            assert_non_null(strstr(err.message, "\"key\""));
        }
    }
}

static void test_get_u64_messages(void **state)
{
    ts_json_value root;
    trainsize_error err;
    uint64_t n;
    (void)state;
    parse("-3", &root, &err);
    ts_json_get_u64(&root, "n_layer", 10, &n, &err);
    assert_string_equal(err.message, "\"n_layer\": -3 is negative");
    parse("2.5", &root, &err);
    ts_json_get_u64(&root, "n_layer", 10, &n, &err);
    assert_string_equal(err.message, "\"n_layer\": 2.5 is not an integer");
    parse("11", &root, &err);
    ts_json_get_u64(&root, "n_layer", 10, &n, &err);
    assert_string_equal(err.message, "\"n_layer\": 11 is more than 10");
    parse("123456789012345678901234567890", &root, &err);
    ts_json_get_u64(&root, "n_layer", 10, &n, &err);
    assert_string_equal(err.message,
                        "\"n_layer\": 123456789012345678901234... does not fit in 64 bits");
    parse("\"12\"", &root, &err);
    ts_json_get_u64(&root, "n_layer", 10, &n, &err);
    assert_string_equal(err.message, "\"n_layer\": expected a non-negative integer, got a string");
    parse("null", &root, &err);
    assert_int_equal(ts_json_get_u64(&root, "n_layer", 10, &n, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.message, "\"n_layer\": expected a non-negative integer, got null");
    parse("true", &root, &err);
    assert_int_equal(ts_json_get_u64(&root, "n_layer", 10, &n, &err), TRAINSIZE_E_INVALID);
    parse("[1]", &root, &err);
    assert_int_equal(ts_json_get_u64(&root, "n_layer", 10, &n, &err), TRAINSIZE_E_INVALID);
}

typedef struct double_case {
    const char *text;
    int code;
    double value;
} double_case;

static void test_get_double(void **state)
{
    static const double_case cases[] = {
        {"0", TRAINSIZE_OK, 0.0},
        {"1e-05", TRAINSIZE_OK, 1e-05},
        {"1e-06", TRAINSIZE_OK, 1e-06},
        {"0.02", TRAINSIZE_OK, 0.02},
        {"500000.0", TRAINSIZE_OK, 500000.0},
        {"-2.5", TRAINSIZE_OK, -2.5},
        {"0.1", TRAINSIZE_OK, 0.1},
        {"3.141592653589793", TRAINSIZE_OK, 3.141592653589793},
        {"12345678901234567890123", TRAINSIZE_OK, 1.2345678901234568e22},
        {"0.000000000000000000000000000001234567890123456789012", TRAINSIZE_OK,
         1.234567890123456789e-30},
        {"1e308", TRAINSIZE_OK, 1e308},
        {"1.7976931348623157e308", TRAINSIZE_OK, 1.7976931348623157e308},
        {"2.2250738585072014e-308", TRAINSIZE_OK, 2.2250738585072014e-308},
        {"1e-400", TRAINSIZE_OK, 0.0},
        {"1e309", TRAINSIZE_E_INVALID, 0.0},
        {"-1e999999999", TRAINSIZE_E_INVALID, 0.0},
        {"\"1.0\"", TRAINSIZE_E_INVALID, 0.0},
        {"null", TRAINSIZE_E_INVALID, 0.0},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_json_value root;
        trainsize_error err;
        double d = 42.0;
        int rc;
        assert_int_equal(parse(cases[i].text, &root, &err), TRAINSIZE_OK);
        rc = ts_json_get_double(&root, "rope_theta", &d, &err);
        assert_int_equal(rc, cases[i].code);
        if (rc == TRAINSIZE_OK) {
            double tolerance = fabs(cases[i].value) * 4e-16;
            if (fabs(d - cases[i].value) > tolerance)
                print_error("case %zu: %s: got %.17g\n", i, cases[i].text, d);
            assert_true(fabs(d - cases[i].value) <= tolerance);
        } else {
            assert_true(d == 42.0);
            assert_string_equal(err.field, "rope_theta");
        }
    }
}

static void test_get_bool(void **state)
{
    ts_json_value root;
    trainsize_error err;
    int b = 7;
    (void)state;
    parse("true", &root, &err);
    assert_int_equal(ts_json_get_bool(&root, "tie", &b, &err), TRAINSIZE_OK);
    assert_int_equal(b, 1);
    parse("false", &root, &err);
    assert_int_equal(ts_json_get_bool(&root, "tie", &b, &err), TRAINSIZE_OK);
    assert_int_equal(b, 0);
    b = 7;
    parse("1", &root, &err);
    assert_int_equal(ts_json_get_bool(&root, "tie", &b, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.message, "\"tie\": expected true or false, got a number");
    parse("\"true\"", &root, &err);
    assert_int_equal(ts_json_get_bool(&root, "tie", &b, &err), TRAINSIZE_E_INVALID);
    parse("null", &root, &err);
    assert_int_equal(ts_json_get_bool(&root, "tie", &b, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(b, 7);
}

static void test_get_string(void **state)
{
    ts_json_value root;
    trainsize_error err;
    char buf[16];
    (void)state;

    parse("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_OK);
    assert_string_equal(buf, "\"\\/\b\f\n\r\t");

    parse("\"caf\\u00e9 \\u20AC \\uD834\\uDD1E\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_OK);
    assert_string_equal(buf, "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9D\x84\x9E");

    parse("\"\xE2\x82\xAC raw\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_OK);
    assert_string_equal(buf, "\xE2\x82\xAC raw");

    /* Exactly fits (15 bytes + NUL), then one byte too many. */
    parse("\"abcdefghijklmno\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_OK);
    assert_string_equal(buf, "abcdefghijklmno");
    strcpy(buf, "unchanged");
    parse("\"abcdefghijklmnop\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "s");
    assert_string_equal(buf, "unchanged");

    /* \u0000 cannot live in a C string. */
    parse("\"a\\u0000b\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_E_INVALID);
    assert_non_null(strstr(err.message, "NUL"));

    parse("5", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", buf, sizeof buf, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.message, "\"s\": expected a string, got a number");
    parse("\"x\"", &root, &err);
    assert_int_equal(ts_json_get_string(&root, "s", NULL, 0, &err), TRAINSIZE_E_INVALID);
}

static void test_string_copy(void **state)
{
    ts_json_value root;
    trainsize_error err;
    char buf[8];
    (void)state;

    /* Truncation keeps whole characters only. */
    parse("\"ab\\u00e9cd\"", &root, &err);
    assert_int_equal(ts_json_string_copy(&root, buf, 4), 6);
    assert_string_equal(buf, "ab");
    assert_int_equal(ts_json_string_copy(&root, buf, 5), 6);
    assert_string_equal(buf, "ab\xC3\xA9");
    assert_int_equal(ts_json_string_copy(&root, buf, sizeof buf), 6);
    assert_string_equal(buf, "ab\xC3\xA9" "cd");
    assert_int_equal(ts_json_string_copy(&root, NULL, 0), 6);
    assert_int_equal(ts_json_string_copy(&root, buf, 1), 6);
    assert_string_equal(buf, "");

    parse("\"\"", &root, &err);
    assert_int_equal(ts_json_string_copy(&root, buf, sizeof buf), 0);
    assert_string_equal(buf, "");

    parse("\"\\u0000\"", &root, &err);
    assert_true(ts_json_string_copy(&root, buf, sizeof buf) == TS_JSON_BAD_STRING);
    parse("1", &root, &err);
    assert_true(ts_json_string_copy(&root, buf, sizeof buf) == TS_JSON_BAD_STRING);
    assert_true(ts_json_string_copy(NULL, buf, sizeof buf) == TS_JSON_BAD_STRING);
}

/* A large, valid document near the size limit validates and looks up quickly. */
static void test_large_document(void **state)
{
    static char buf[TEST_MAX_BYTES];
    ts_json_value root, v;
    trainsize_error err;
    size_t n = 0;
    uint64_t x = 0;
    (void)state;
    buf[n++] = '{';
    for (unsigned i = 0; n + 64 < sizeof buf; i++)
        n += (size_t)snprintf(buf + n, sizeof buf - n, "\"k%u\": [%u, \"v\"], ", i, i);
    n += (size_t)snprintf(buf + n, sizeof buf - n, "\"last\": 7}");
    assert_int_equal(parse_len(buf, n, &root, &err), TRAINSIZE_OK);
    assert_int_equal(ts_json_object_get(&root, "last", &v), 1);
    assert_int_equal(ts_json_get_u64(&v, "last", 10, &x, &err), TRAINSIZE_OK);
    assert_int_equal(x, 7);
    assert_int_equal(ts_json_object_get(&root, "k1000", &v), 1);
    assert_int_equal(v.type, TS_JSON_ARRAY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid_documents),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_trailing_garbage),
        cmocka_unit_test(test_bad_structure),
        cmocka_unit_test(test_bad_numbers),
        cmocka_unit_test(test_bad_escapes),
        cmocka_unit_test(test_lone_surrogates),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_control_and_nul),
        cmocka_unit_test(test_depth_limit),
        cmocka_unit_test(test_size_limit),
        cmocka_unit_test(test_error_position),
        cmocka_unit_test(test_arguments),
        cmocka_unit_test(test_object_get),
        cmocka_unit_test(test_iteration),
        cmocka_unit_test(test_top_level_scalars),
        cmocka_unit_test(test_get_u64),
        cmocka_unit_test(test_get_u64_messages),
        cmocka_unit_test(test_get_double),
        cmocka_unit_test(test_get_bool),
        cmocka_unit_test(test_get_string),
        cmocka_unit_test(test_string_copy),
        cmocka_unit_test(test_large_document),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

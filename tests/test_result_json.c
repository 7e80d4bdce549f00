/* trainsize_result_json: the one writer of the estimate's JSON (the command, the
 * WebAssembly module and the Rust and Go bindings print what it writes). Its text parses,
 * holds every catalogue field at its dotted path with the field's value, escapes what
 * JSON must, truncates as snprintf does, and refuses bad arguments. */
#include "ts_test.h"

#define TEXT_CAP 65536

static void estimate(const char *const *pairs, trainsize_result *r)
{
    trainsize_job *job = ts_test_job(pairs);
    trainsize_error err;
    if (trainsize_estimate(job, r, sizeof *r, &err) != TRAINSIZE_OK) fail_msg("%s", err.message);
    trainsize_job_free(job);
}

/* The value at a dotted path, walking the objects. */
static ts_json_value at_path(const ts_json_value *root, const char *path)
{
    ts_json_value v = *root, next;
    char part[128];
    const char *s = path;
    for (;;) {
        const char *dot = strchr(s, '.');
        size_t len = dot ? (size_t)(dot - s) : strlen(s);
        assert_true(len < sizeof part);
        memcpy(part, s, len);
        part[len] = '\0';
        if (!ts_json_object_get(&v, part, &next)) fail_msg("%s: no \"%s\" in the JSON", path, part);
        v = next;
        if (!dot) return v;
        s = dot + 1;
    }
}

static void test_every_field_at_its_path(void **state)
{
    static const char *const pairs[] = {"model", "mixtral-8x7b", "gpus", "32", "ep", "8", "tp", "2", NULL};
    static char text[TEXT_CAP];
    trainsize_result r;
    trainsize_error err;
    ts_json_value root, v;
    size_t i, n = trainsize_result_field_count();
    int len;
    (void)state;
    estimate(pairs, &r);
    len = trainsize_result_json(&r, NULL, 0, text, sizeof text, &err);
    assert_true(len > 0 && (size_t)len < sizeof text);
    assert_int_equal(strlen(text), (size_t)len);
    assert_int_equal(ts_json_parse(text, (size_t)len, sizeof text, 8, &root, &err), TRAINSIZE_OK);
    assert_int_equal(strncmp(text, "{\n  \"trainsize_version\": \"", 26), 0);
    assert_string_equal(text + len - 4, "]\n}\n"); /* the empty advice closes the object */
    for (i = 0; i < n; i++) {
        const trainsize_field_info *f = trainsize_result_field_at(i);
        trainsize_field_value fv;
        /* the writer prints keys unescaped: they must need none */
        if (strspn(f->path, "abcdefghijklmnopqrstuvwxyz0123456789_.") != strlen(f->path))
            fail_msg("%s: a key the JSON writer would have to escape", f->path);
        assert_int_equal(trainsize_result_field_get(&r, i, &fv), TRAINSIZE_OK);
        v = at_path(&root, f->path);
        switch (fv.type) {
        case TRAINSIZE_FIELD_U64: {
            uint64_t got;
            assert_int_equal(ts_json_get_u64(&v, f->path, UINT64_MAX, &got, &err), TRAINSIZE_OK);
            assert_true(got == fv.u64);
            break;
        }
        case TRAINSIZE_FIELD_F64: {
            double got;
            assert_int_equal(ts_json_get_double(&v, f->path, &got, &err), TRAINSIZE_OK);
            if (got != fv.f64) fail_msg("%s: %.17g written as %.17g", f->path, fv.f64, got);
            break;
        }
        case TRAINSIZE_FIELD_BOOL: {
            int got;
            assert_int_equal(ts_json_get_bool(&v, f->path, &got, &err), TRAINSIZE_OK);
            assert_int_equal(got, fv.u64 != 0);
            break;
        }
        case TRAINSIZE_FIELD_FLAGS:
            assert_int_equal(v.type, TS_JSON_ARRAY);
            break;
        default:
            if (!ts_json_string_equals(&v, fv.text)) fail_msg("%s: not \"%s\"", f->path, fv.text);
        }
    }
    /* each object once: "memory" holds the fields appended at the catalogue's end too */
    assert_non_null(strstr(text, "\"memory\": {"));
    assert_null(strstr(strstr(text, "\"memory\": {") + 1, "\"memory\": {"));
}

static void test_advice_array(void **state)
{
    static const char *const pairs[] = {"model", "llama-2-7b", "gpu", "a100-80gb", NULL};
    static char text[TEXT_CAP];
    trainsize_job *job = ts_test_job(pairs);
    trainsize_advice adv[3];
    trainsize_result r;
    trainsize_error err;
    ts_json_value root, advice, first, set;
    size_t n = 0, cursor = 0;
    (void)state;
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_advise(job, adv, 3, &n, &err), TRAINSIZE_OK);
    assert_true(n > 0);
    assert_true(trainsize_result_json(&r, adv, n, text, sizeof text, &err) > 0);
    assert_int_equal(ts_json_parse(text, strlen(text), sizeof text, 8, &root, &err), TRAINSIZE_OK);
    advice = at_path(&root, "advice");
    assert_int_equal(ts_json_array_next(&advice, &cursor, &first), 1);
    assert_int_equal(ts_json_object_get(&first, "set", &set), 1);
    assert_int_equal(set.type, TS_JSON_OBJECT);
    {
        ts_json_value value;
        uint64_t peak;
        assert_int_equal(ts_json_object_get(&set, adv[0].names[0], &value), 1);
        assert_true(ts_json_string_equals(&value, adv[0].values[0]));
        assert_int_equal(ts_json_object_get(&first, "peak_total", &value), 1);
        assert_int_equal(ts_json_get_u64(&value, "peak_total", UINT64_MAX, &peak, &err), TRAINSIZE_OK);
        assert_true(peak == adv[0].peak_total);
    }
    trainsize_job_free(job);
}

/* A name read from a caller's config.json reaches the JSON: quotes, backslashes, control
 * bytes and invalid UTF-8 are escaped, valid UTF-8 kept. */
static void test_strings_escaped(void **state)
{
    static const char *const pairs[] = {"model", "gpt2", NULL};
    static char text[TEXT_CAP];
    trainsize_result r;
    trainsize_error err;
    (void)state;
    estimate(pairs, &r);
    snprintf(r.model.name, sizeof r.model.name, "a\"b\\c\x01\xff\xc3\xa9");
    assert_true(trainsize_result_json(&r, NULL, 0, text, sizeof text, &err) > 0);
    assert_non_null(strstr(text, "\"name\": \"a\\\"b\\\\c\\u0001\\ufffd\xc3\xa9\""));
}

static void test_truncates_like_snprintf(void **state)
{
    static const char *const pairs[] = {"model", "gpt2", NULL};
    static char full[TEXT_CAP];
    char small[100];
    trainsize_result r;
    trainsize_error err;
    int len;
    (void)state;
    estimate(pairs, &r);
    len = trainsize_result_json(&r, NULL, 0, NULL, 0, &err);
    assert_true(len > 1000);
    assert_int_equal(trainsize_result_json(&r, NULL, 0, full, sizeof full, &err), len);
    memset(small, 'x', sizeof small);
    assert_int_equal(trainsize_result_json(&r, NULL, 0, small, sizeof small, &err), len);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    assert_int_equal(trainsize_result_json(&r, NULL, 0, small, 1, &err), len);
    assert_int_equal(small[0], '\0');
}

static void test_bad_arguments(void **state)
{
    trainsize_result r;
    trainsize_advice adv;
    trainsize_error err;
    char buf[16];
    (void)state;
    memset(&r, 0, sizeof r);
    memset(&adv, 0, sizeof adv);
    strcpy(buf, "XYZ");
    assert_int_equal(trainsize_result_json(NULL, NULL, 0, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_string_equal(buf, ""); /* "" whatever fails */
    assert_non_null(strstr(err.message, "trainsize_result_json"));
    assert_int_equal(trainsize_result_json(&r, NULL, 0, NULL, 8, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_result_json(&r, NULL, 2, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    /* an advice whose count of settings is garbage is clamped, not read past */
    adv.settings = 1000;
    assert_true(trainsize_result_json(&r, &adv, 1, NULL, 0, &err) > 0);
    /* texts without their NUL (a struct the library did not fill) are refused, not read past */
    memset(adv.names[0], 'x', sizeof adv.names[0]);
    assert_int_equal(trainsize_result_json(&r, &adv, 1, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_string_equal(buf, "");
    memset(r.model.name, 'x', sizeof r.model.name);
    assert_int_equal(trainsize_result_json(&r, NULL, 0, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_non_null(strstr(err.message, "without its end"));
    assert_string_equal(buf, "");
}

/* Past TRAINSIZE_JSON_MAX_BYTES (10,000 advice entries): refused, and no partial text. */
static void test_too_long(void **state)
{
    static const char *const pairs[] = {"model", "gpt2", NULL};
    trainsize_result r;
    trainsize_error err;
    size_t n = 10000;
    trainsize_advice *adv = calloc(n, sizeof *adv);
    char *buf = malloc(4u << 20);
    (void)state;
    assert_non_null(adv);
    assert_non_null(buf);
    estimate(pairs, &r);
    assert_int_equal(trainsize_result_json(&r, adv, n, buf, 4u << 20, &err), TRAINSIZE_E_LIMIT);
    assert_string_equal(buf, "");
    assert_int_equal(trainsize_result_json(&r, adv, n, NULL, 0, &err), TRAINSIZE_E_LIMIT);
    free(adv);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_field_at_its_path),
        cmocka_unit_test(test_advice_array),
        cmocka_unit_test(test_strings_escaped),
        cmocka_unit_test(test_truncates_like_snprintf),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_too_long),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

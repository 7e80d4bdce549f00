/* The field tables of plan candidates, GPUs and model presets, and the JSON written from
 * them (trainsize_plan_json, trainsize_gpus_json, trainsize_models_json): every field
 * parses back with the value its table gives, names are unique, and the recompute names
 * are the "recompute" parameter's. */
#include "ts_test.h"

#define TEXT_CAP (1u << 20)

typedef struct table {
    const char *what;
    size_t (*count)(void);
    const trainsize_field_info *(*at)(size_t);
} table;

static const table TABLES[] = {
    {"plan", trainsize_plan_field_count, trainsize_plan_field_at},
    {"gpu", trainsize_gpu_field_count, trainsize_gpu_field_at},
    {"model", trainsize_model_field_count, trainsize_model_field_at},
};

static void test_names_unique_and_described(void **state)
{
    size_t t, i, k;
    (void)state;
    for (t = 0; t < sizeof TABLES / sizeof TABLES[0]; t++) {
        size_t n = TABLES[t].count();
        assert_true(n >= 5);
        assert_null(TABLES[t].at(n));
        for (i = 0; i < n; i++) {
            const trainsize_field_info *f = TABLES[t].at(i);
            assert_non_null(f);
            assert_true(f->doc[0] != '\0');
            assert_null(strchr(f->path, '.')); /* flat objects */
            for (k = 0; k < i; k++)
                if (strcmp(TABLES[t].at(k)->path, f->path) == 0) fail_msg("%s: \"%s\" twice", TABLES[t].what, f->path);
        }
    }
}

/* One JSON value against the field's value. */
static void check_value(const char *what, const trainsize_field_info *f, const trainsize_field_value *fv,
                        const ts_json_value *obj)
{
    ts_json_value v;
    trainsize_error err;
    if (!ts_json_object_get(obj, f->path, &v)) fail_msg("%s: no \"%s\"", what, f->path);
    switch (fv->type) {
    case TRAINSIZE_FIELD_U64: {
        uint64_t got;
        assert_int_equal(ts_json_get_u64(&v, f->path, UINT64_MAX, &got, &err), TRAINSIZE_OK);
        assert_true(got == fv->u64);
        break;
    }
    case TRAINSIZE_FIELD_F64: {
        double got;
        assert_int_equal(ts_json_get_double(&v, f->path, &got, &err), TRAINSIZE_OK);
        if (got != fv->f64) fail_msg("%s.%s: %.17g written as %.17g", what, f->path, fv->f64, got);
        break;
    }
    case TRAINSIZE_FIELD_BOOL: {
        int got;
        assert_int_equal(ts_json_get_bool(&v, f->path, &got, &err), TRAINSIZE_OK);
        assert_int_equal(got, fv->u64 != 0);
        break;
    }
    case TRAINSIZE_FIELD_FLAGS: assert_int_equal(v.type, TS_JSON_ARRAY); break;
    default:
        if (strcmp(f->unit, "list") == 0) {
            /* the array, joined with commas, is the field's text */
            char joined[256] = "", item[64];
            size_t cursor = 0;
            ts_json_value e;
            assert_int_equal(v.type, TS_JSON_ARRAY);
            while (ts_json_array_next(&v, &cursor, &e)) {
                ts_json_string_copy(&e, item, sizeof item);
                if (joined[0]) strcat(joined, ",");
                strcat(joined, item);
            }
            assert_string_equal(joined, fv->text);
        } else if (!ts_json_string_equals(&v, fv->text)) {
            fail_msg("%s.%s: not \"%s\"", what, f->path, fv->text);
        }
    }
}

/* Entry i of a catalogue checked field by field against element i of its JSON array. */
typedef void (*check_entry)(size_t i, const ts_json_value *elem);

static void check_gpu(size_t g, const ts_json_value *elem)
{
    const trainsize_gpu_info *gpu = trainsize_gpu_at(g);
    size_t i;
    assert_non_null(gpu);
    for (i = 0; i < trainsize_gpu_field_count(); i++) {
        trainsize_field_value v;
        assert_int_equal(trainsize_gpu_field_get(gpu, i, &v), TRAINSIZE_OK);
        check_value(gpu->name, trainsize_gpu_field_at(i), &v, elem);
    }
}

static void check_model(size_t m, const ts_json_value *elem)
{
    const trainsize_model_info *model = trainsize_model_at(m);
    size_t i;
    assert_non_null(model);
    for (i = 0; i < trainsize_model_field_count(); i++) {
        trainsize_field_value v;
        assert_int_equal(trainsize_model_field_get(model, i, &v), TRAINSIZE_OK);
        check_value(model->name, trainsize_model_field_at(i), &v, elem);
    }
}

/* A catalogue's JSON: every entry in order, truncation as snprintf, the arguments refused. */
static void check_catalogue(int (*write)(char *, size_t, trainsize_error *), size_t count, check_entry check)
{
    char *text = malloc(TEXT_CAP);
    trainsize_error err;
    ts_json_value root, elem;
    size_t cursor = 0, n = 0;
    int len;
    assert_non_null(text);
    len = write(text, TEXT_CAP, &err);
    assert_true(len > 0 && (size_t)len < TEXT_CAP);
    assert_int_equal(ts_json_parse(text, (size_t)len, TEXT_CAP, 4, &root, &err), TRAINSIZE_OK);
    while (ts_json_array_next(&root, &cursor, &elem)) check(n++, &elem);
    assert_int_equal(n, count);
    assert_int_equal(write(NULL, 0, &err), len);
    assert_int_equal(write(text, 10, &err), len);
    assert_int_equal(strlen(text), 9);
    assert_int_equal(write(NULL, 10, &err), TRAINSIZE_E_ARGUMENT);
    free(text);
}

static void test_gpus_json(void **state)
{
    (void)state;
    check_catalogue(trainsize_gpus_json, trainsize_gpu_count(), check_gpu);
}

/* The datatypes follow the part's rates: fp8 listed exactly when it has an FP8 rate. */
static void test_gpu_datatypes(void **state)
{
    size_t i, at = trainsize_gpu_field_count();
    (void)state;
    for (i = 0; i < trainsize_gpu_field_count(); i++)
        if (strcmp(trainsize_gpu_field_at(i)->path, "datatypes") == 0) at = i;
    assert_true(at < trainsize_gpu_field_count());
    for (i = 0; i < trainsize_gpu_count(); i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        trainsize_field_value v;
        char list[64];
        assert_int_equal(trainsize_gpu_field_get(g, at, &v), TRAINSIZE_OK);
        snprintf(list, sizeof list, ",%s,", v.text);
        assert_int_equal(strstr(list, ",fp8,") != NULL, g->flops_fp8 > 0);
        assert_int_equal(strstr(list, ",fp4,") != NULL, g->flops_fp4 > 0);
        assert_int_equal(strstr(list, ",bf16,") != NULL, !g->no_bf16);
    }
}

static void test_models_json(void **state)
{
    (void)state;
    check_catalogue(trainsize_models_json, trainsize_model_count(), check_model);
}

static void test_plan_json(void **state)
{
    static const char *const pairs[] = {"model", "llama-3-8b", "tokens", "1e11", "plan-gpus", "h100-80gb,a100-80gb",
                                        "max-gpus", "64", NULL};
    trainsize_job *job = ts_test_job(pairs);
    trainsize_plan_candidate c[4];
    trainsize_plan_stats st;
    trainsize_error err;
    char *text = malloc(TEXT_CAP);
    ts_json_value root, list, elem, v;
    size_t n = 0, cursor = 0, k = 0, i;
    uint64_t evaluated;
    (void)state;
    assert_non_null(text);
    assert_int_equal(trainsize_plan(job, c, 4, &n, &st, &err), TRAINSIZE_OK);
    assert_true(n > 0);
    assert_true(trainsize_plan_json(job, c, n, &st, text, TEXT_CAP, &err) > 0);
    assert_int_equal(ts_json_parse(text, strlen(text), TEXT_CAP, 4, &root, &err), TRAINSIZE_OK);
    assert_int_equal(ts_json_object_get(&root, "evaluated", &v), 1);
    assert_int_equal(ts_json_get_u64(&v, "evaluated", UINT64_MAX, &evaluated, &err), TRAINSIZE_OK);
    assert_true(evaluated == st.evaluated);
    assert_int_equal(ts_json_object_get(&root, "objective", &v), 1);
    assert_true(ts_json_string_equals(&v, "cost"));
    assert_int_equal(ts_json_object_get(&root, "candidates", &list), 1);
    while (ts_json_array_next(&list, &cursor, &elem)) {
        assert_true(k < n);
        for (i = 0; i < trainsize_plan_field_count(); i++) {
            trainsize_field_value fv;
            assert_int_equal(trainsize_plan_field_get(&c[k], i, &fv), TRAINSIZE_OK);
            check_value(c[k].gpu, trainsize_plan_field_at(i), &fv, &elem);
        }
        k++;
    }
    assert_int_equal(k, n);
    /* none found: an empty array, as the contract's scripts look for */
    assert_true(trainsize_plan_json(job, NULL, 0, &st, text, TEXT_CAP, &err) > 0);
    assert_non_null(strstr(text, "\"candidates\": []"));
    assert_int_equal(trainsize_plan_json(NULL, c, n, &st, text, TEXT_CAP, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_plan_json(job, NULL, 2, &st, text, TEXT_CAP, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_plan_json(job, c, n, NULL, text, TEXT_CAP, &err), TRAINSIZE_E_ARGUMENT);
    memset(c[0].gpu, 'x', sizeof c[0].gpu); /* not what the planner wrote: refused, not read past */
    assert_int_equal(trainsize_plan_json(job, c, n, &st, text, TEXT_CAP, &err), TRAINSIZE_E_ARGUMENT);
    assert_string_equal(text, "");
    trainsize_job_free(job);
    free(text);
}

/* The plan's (and the result's) recompute names are the parameter's choices, in order. */
static void test_recompute_names_are_the_parameters(void **state)
{
    const trainsize_param_info *p = trainsize_param_by_id(TRAINSIZE_ID_RECOMPUTE);
    trainsize_plan_candidate c;
    size_t at = 0, i;
    char joined[128] = "";
    int v;
    (void)state;
    assert_non_null(p);
    memset(&c, 0, sizeof c);
    while (at < trainsize_plan_field_count() && strcmp(trainsize_plan_field_at(at)->path, "recompute") != 0) at++;
    for (v = 0; v < 4; v++) {
        trainsize_field_value fv;
        c.layout.recompute = v;
        assert_int_equal(trainsize_plan_field_get(&c, at, &fv), TRAINSIZE_OK);
        if (v) strcat(joined, "|");
        strcat(joined, fv.text);
    }
    assert_string_equal(joined, p->choices);
    /* a choice past its names is a candidate the library did not fill: refused */
    for (v = 4; v < 300; v += 95) {
        trainsize_field_value fv;
        c.layout.recompute = v;
        assert_int_equal(trainsize_plan_field_get(&c, at, &fv), TRAINSIZE_E_ARGUMENT);
    }
    c.layout.recompute = -1;
    {
        trainsize_field_value fv;
        assert_int_equal(trainsize_plan_field_get(&c, at, &fv), TRAINSIZE_E_ARGUMENT);
    }
    for (i = 0; i < 3; i++) {
        trainsize_field_value fv;
        assert_int_equal(trainsize_plan_field_get(NULL, i, &fv), TRAINSIZE_E_ARGUMENT);
        assert_int_equal(trainsize_gpu_field_get(trainsize_gpu_at(0), 1000, &fv), TRAINSIZE_E_ARGUMENT);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_unique_and_described),
        cmocka_unit_test(test_gpus_json),
        cmocka_unit_test(test_gpu_datatypes),
        cmocka_unit_test(test_models_json),
        cmocka_unit_test(test_plan_json),
        cmocka_unit_test(test_recompute_names_are_the_parameters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The public API's contract: versions, errors with the offending field, the parameter and
 * result catalogues, caller-owned results, NULL handling. */
#include <stdio.h>

#include "ts_test.h"

static void test_versions(void **state)
{
    char expected[32];
    (void)state;
    snprintf(expected, sizeof expected, "%d.%d.%d", TRAINSIZE_VERSION_MAJOR, TRAINSIZE_VERSION_MINOR,
             TRAINSIZE_VERSION_PATCH);
    assert_string_equal(trainsize_version_string(), expected);
    assert_string_equal(TRAINSIZE_VERSION_STRING, expected);
    assert_int_equal(trainsize_version_number(), TRAINSIZE_VERSION_NUMBER);
    assert_int_equal(trainsize_abi_version(), TRAINSIZE_ABI_VERSION);
}

static void test_strerror_covers_every_code(void **state)
{
    int code;
    (void)state;
    for (code = TRAINSIZE_E_UNSUPPORTED; code <= TRAINSIZE_OK; code++)
        assert_string_not_equal(trainsize_strerror(code), "unknown error");
    assert_string_equal(trainsize_strerror(-1000), "unknown error");
}

/* Every catalogue default parses, and get returns what set was given. */
static void test_parameter_catalogue_round_trips(void **state)
{
    trainsize_job *job = trainsize_job_new();
    size_t i;
    (void)state;
    assert_non_null(job);
    assert_null(trainsize_param_at(trainsize_param_count()));
    for (i = 0; i < trainsize_param_count(); i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        char text[128];
        trainsize_error err;
        int n;
        assert_non_null(p->name);
        assert_non_null(p->doc);
        assert_true(p->doc[0] != '\0');
        n = trainsize_job_get(job, p->name, text, sizeof text, &err);
        assert_true(n >= 0);
        if (p->default_text[0] != '\0' && p->kind != TRAINSIZE_PARAM_NAME) {
            assert_int_equal(trainsize_job_set(job, p->name, p->default_text, &err), TRAINSIZE_OK);
            n = trainsize_job_get(job, p->name, text, sizeof text, &err);
            assert_string_equal(text, p->default_text);
        }
    }
    trainsize_job_free(job);
}

static void test_set_errors_name_the_field(void **state)
{
    static const char *const bad[][2] = {
        {"tp", "abc"}, {"tp", "0"}, {"tp", "-2"}, {"gpus", "99999999999999999999999"},
        {"micro-batch", "1.5"}, {"dropout", "nan"}, {"dropout", "inf"}, {"dropout", "1.5"},
        {"precision", "fp4"}, {"model", "gpt-5"}, {"gpu", "tpu-v9"}, {"sp", "maybe"},
        {"lora-targets", "q,,v"}, {"lora-targets", "q,x"}, {"seq", ""}, {"zero", "4"},
        {"hidden", "0x10"}, {"hfu", "-0.1"}, {"hfu", "1.5"},
    };
    trainsize_job *job = trainsize_job_new();
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trainsize_error err;
        int rc = trainsize_job_set(job, bad[i][0], bad[i][1], &err);
        assert_true(rc < 0);
        assert_int_equal(err.code, rc);
        assert_string_equal(err.field, bad[i][0]);
        assert_non_null(strstr(err.message, bad[i][0]));
    }
    {
        trainsize_error err;
        assert_int_equal(trainsize_job_set(job, "no-such-option", "1", &err), TRAINSIZE_E_UNKNOWN);
        assert_string_equal(err.field, "no-such-option");
    }
    /* A failed set leaves the job as it was. */
    {
        char text[32];
        assert_int_equal(trainsize_job_set(job, "tp", "4", NULL), TRAINSIZE_OK);
        assert_true(trainsize_job_set(job, "tp", "x", NULL) < 0);
        trainsize_job_get(job, "tp", text, sizeof text, NULL);
        assert_string_equal(text, "4");
    }
    trainsize_job_free(job);
}

static void test_estimate_errors(void **state)
{
    const struct { const char *const *pairs; int code; const char *field; } cases[] = {
        {PAIRS("seq", "1024"), TRAINSIZE_E_INVALID, "model"},
        {PAIRS("model", "llama-2-7b", "tp", "3", "gpus", "3"), TRAINSIZE_E_LAYOUT, "tp"},
        {PAIRS("model", "llama-2-7b", "gpus", "6", "tp", "4"), TRAINSIZE_E_LAYOUT, "gpus"},
        {PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "3", "tp", "1"), TRAINSIZE_E_LAYOUT, "gpus"},
        {PAIRS("model", "llama-2-7b", "layers", "4", "gpus", "3", "pp", "3", "pp-interleave", "4"),
         TRAINSIZE_E_LAYOUT, "pp-interleave"},
        {PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4", "pp-first-layers", "40"), TRAINSIZE_E_LAYOUT,
         "pp-first-layers"},
        {PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4", "pp-first-layers", "6"), TRAINSIZE_E_LAYOUT, "pp"},
        {PAIRS("model", "gpt2", "pp-last-layers", "2"), TRAINSIZE_E_LAYOUT, "pp-last-layers"},
        {PAIRS("model", "llama-2-7b", "ep", "2", "gpus", "2"), TRAINSIZE_E_LAYOUT, "ep"},
        {PAIRS("model", "mixtral-8x7b", "ep", "3", "gpus", "3"), TRAINSIZE_E_LAYOUT, "ep"},
        {PAIRS("model", "llama-2-7b", "gpus", "8", "global-batch", "12"), TRAINSIZE_E_LAYOUT,
         "global-batch"},
        {PAIRS("model", "llama-2-7b", "gpus", "8", "pp", "2", "zero", "3"),
         TRAINSIZE_E_UNSUPPORTED, "zero"},
        {PAIRS("model", "llama-2-7b", "offload", "optimizer+params", "zero", "2"),
         TRAINSIZE_E_UNSUPPORTED, "offload"},
        {PAIRS("model", "llama-2-7b", "quantize-base", "nf4"), TRAINSIZE_E_UNSUPPORTED,
         "quantize-base"},
        {PAIRS("model", "llama-2-7b", "cp", "2", "gpus", "2", "attention", "eager"),
         TRAINSIZE_E_UNSUPPORTED, "cp"},
        {PAIRS("model", "llama-2-7b", "precision", "fp8-mixed", "gpu", "a100-80gb"),
         TRAINSIZE_E_UNSUPPORTED, "precision"},
        {PAIRS("model", "llama-2-7b", "kv-heads", "5"), TRAINSIZE_E_INVALID, "kv-heads"},
        {PAIRS("model", "llama-2-7b", "heads", "7"), TRAINSIZE_E_INVALID, "heads"},
        {PAIRS("model", "llama-2-7b", "gpus-per-node", "3", "gpus", "8"), TRAINSIZE_E_LAYOUT,
         "gpus-per-node"},
        {PAIRS("layers", "100000", "hidden", "10000000", "heads", "1", "ffn", "10000000", "vocab",
               "100000000"), TRAINSIZE_E_OVERFLOW, "model"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trainsize_error err;
        int rc = ts_test_estimate_rc(cases[i].pairs, &err);
        if (rc != cases[i].code || strcmp(err.field, cases[i].field) != 0)
            fail_msg("case %zu: rc %d field \"%s\" (%s); expected %d \"%s\"", i, rc, err.field,
                     err.message, cases[i].code, cases[i].field);
    }
}

static void test_null_and_size_arguments(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_estimate(NULL, &r, sizeof r, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_estimate(job, NULL, sizeof r, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r - 1, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(NULL, "tp", "1", &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_set(job, NULL, "1", &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_set(job, "tp", NULL, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_get(job, "tp", NULL, 0, &err), 1); /* length query */
    assert_null(trainsize_job_clone(NULL));
    trainsize_job_free(NULL);
    assert_int_equal(trainsize_job_load_hf_config(NULL, "{}", 2, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_load_hf_config_file(job, "/nonexistent/config.json", &err),
                     TRAINSIZE_E_IO);
    assert_string_equal(err.field, "hf-config");
    trainsize_job_free(job);
}

/* A clone is independent and estimates the same. */
static void test_clone(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpus", "8", "zero", "2"));
    trainsize_job *copy = trainsize_job_clone(job);
    trainsize_result a, b;
    (void)state;
    assert_non_null(copy);
    assert_int_equal(trainsize_estimate(job, &a, sizeof a, NULL), 0);
    assert_int_equal(trainsize_estimate(copy, &b, sizeof b, NULL), 0);
    assert_memory_equal(&a, &b, sizeof a);
    assert_int_equal(trainsize_job_set(copy, "zero", "3", NULL), 0);
    assert_int_equal(trainsize_estimate(job, &b, sizeof b, NULL), 0);
    assert_memory_equal(&a, &b, sizeof a);
    trainsize_job_free(job);
    trainsize_job_free(copy);
}

/* The result-field view covers the contract's JSON keys, in order, with matching values. */
static void test_result_fields(void **state)
{
    static const char *const contract[] = {
        "model.name", "model.parameters", "model.trainable_parameters", "model.active_parameters",
        "memory.weights", "memory.gradients", "memory.optimizer", "memory.activations",
        "memory.peak_allocated", "memory.overhead", "memory.peak_total", "memory.gpu_capacity",
        "memory.fits", "system.nodes", "system.gpus_per_node", "system.host_ram_per_node",
        "system.cpu_cores_per_node", "system.interconnect_rate_per_node",
        "system.storage_capacity", "system.storage_read_rate", "system.power_watts",
        "time.flops", "time.seconds"};
    trainsize_result r;
    size_t i, j = 0, n = trainsize_result_field_count();
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt2"), &r);
    for (i = 0; i < n && j < sizeof contract / sizeof contract[0]; i++)
        if (strcmp(trainsize_result_field_at(i)->path, contract[j]) == 0) j++;
    assert_int_equal(j, sizeof contract / sizeof contract[0]); /* all present, in order */
    for (i = 0; i < n; i++) {
        trainsize_field_value v;
        const trainsize_field_info *f = trainsize_result_field_at(i);
        assert_int_equal(trainsize_result_field_get(&r, i, &v), TRAINSIZE_OK);
        assert_int_equal(v.type, f->type);
        if (strcmp(f->path, "memory.peak_total") == 0) assert_int_equal(v.u64, r.memory.peak_total);
        if (strcmp(f->path, "model.name") == 0) assert_string_equal(v.text, "gpt2");
        if (strcmp(f->path, "time.seconds") == 0) assert_true(v.f64 == r.time.seconds);
    }
    assert_null(trainsize_result_field_at(n));
    {
        trainsize_field_value v;
        assert_int_equal(trainsize_result_field_get(&r, n, &v), TRAINSIZE_E_ARGUMENT);
        assert_int_equal(trainsize_result_field_get(NULL, 0, &v), TRAINSIZE_E_ARGUMENT);
    }
    /* a struct the library did not fill (every byte 0xFF): every text and every choice
     * (past its names: layout.recompute, memory.peak_phase) is refused, never "unknown" */
    memset(&r, 0xFF, sizeof r);
    for (i = 0; i < n; i++) {
        trainsize_field_value v;
        const trainsize_field_info *f = trainsize_result_field_at(i);
        int rc = trainsize_result_field_get(&r, i, &v);
        if (f->type == TRAINSIZE_FIELD_CHOICE || f->type == TRAINSIZE_FIELD_STRING)
            if (rc != TRAINSIZE_E_ARGUMENT) fail_msg("%s: read from an unfilled struct", f->path);
    }
}

/* The result carries the layout it used, defaults and inference applied, and the field
 * table reads it (the command's JSON "layout" object). */
static void test_result_layout(void **state)
{
    trainsize_result r;
    size_t i;
    int seen = 0;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "2048", "tp", "8", "pp", "8", "cp", "2",
                           "sp", "true", "pp-interleave", "2", "zero", "1", "recompute", "selective",
                           "micro-batch", "2"),
                     &r);
    assert_int_equal(r.layout.tp, 8);
    assert_int_equal(r.layout.pp, 8);
    assert_int_equal(r.layout.pp_interleave, 2);
    assert_int_equal(r.layout.cp, 2);
    assert_int_equal(r.layout.ep, 1);
    assert_int_equal(r.layout.zero, 1);
    assert_int_equal(r.layout.micro_batch, 2);
    assert_int_equal(r.layout.sp, 1);
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_SELECTIVE);
    /* Global batch 0: micro-batch x data parallel (2048 / (8 x 8 x 2) = 16 ranks) x pp
     * (one micro-batch per stage). */
    assert_int_equal(r.data_parallel, 16);
    assert_int_equal(r.layout.global_batch, 2 * 16 * 8);
    assert_int_equal(r.gradient_accumulation, 8);
    for (i = 0; i < trainsize_result_field_count(); i++) {
        const trainsize_field_info *f = trainsize_result_field_at(i);
        trainsize_field_value v;
        assert_int_equal(trainsize_result_field_get(&r, i, &v), TRAINSIZE_OK);
        if (strcmp(f->path, "layout.recompute") == 0) {
            assert_string_equal(v.text, "selective");
            seen++;
        } else if (strcmp(f->path, "layout.pp_interleave") == 0) {
            assert_int_equal(v.u64, 2);
            seen++;
        } else if (strcmp(f->path, "layout.sp") == 0) {
            assert_int_equal(v.u64, 1);
            seen++;
        }
    }
    assert_int_equal(seen, 3);
    /* Sequence parallelism does not apply without tensor parallelism. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "sp", "true"), &r);
    assert_int_equal(r.layout.sp, 0);
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_strerror_covers_every_code),
        cmocka_unit_test(test_parameter_catalogue_round_trips),
        cmocka_unit_test(test_set_errors_name_the_field),
        cmocka_unit_test(test_estimate_errors),
        cmocka_unit_test(test_null_and_size_arguments),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_result_fields),
        cmocka_unit_test(test_result_layout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* GPUs of the caller's own description: through the API and through a JSON device file. */
#include <stdio.h>

#include "ts_test.h"

static void test_set_gpu_from_struct(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"));
    trainsize_job *copy;
    trainsize_result r, rc;
    trainsize_error err;
    char name[64] = "lab-card", text[64];
    trainsize_gpu_info g;
    (void)state;
    memset(&g, 0, sizeof g);
    g.name = name;
    g.memory_bytes = 48ull << 30;
    g.flops_bf16 = 200e12;
    g.tdp_watts = 300;
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_OK);
    strcpy(name, "changed"); /* the job keeps its own copy */
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(r.gpu, "lab-card");
    assert_int_equal(r.memory.gpu_capacity, 48ull << 30);
    assert_true(r.warnings & TRAINSIZE_WARN_NO_PRICE);
    trainsize_job_get(job, "gpu", text, sizeof text, NULL);
    assert_string_equal(text, "lab-card");
    /* A clone outlives its original and still names its GPU. */
    copy = trainsize_job_clone(job);
    trainsize_job_free(job);
    assert_int_equal(trainsize_estimate(copy, &rc, sizeof rc, &err), TRAINSIZE_OK);
    assert_string_equal(rc.gpu, "lab-card");
    assert_int_equal(rc.memory.peak_total, r.memory.peak_total);
    /* A catalogue name takes the catalogue's GPU again. */
    assert_int_equal(trainsize_job_set(copy, "gpu", "h100-80gb", NULL), 0);
    assert_int_equal(trainsize_estimate(copy, &rc, sizeof rc, &err), TRAINSIZE_OK);
    assert_string_equal(rc.gpu, "h100-80gb");
    trainsize_job_free(copy);
}

static void test_set_gpu_errors_name_the_field(void **state)
{
    static const struct { const char *json; const char *field; } bad[] = {
        {"{\"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 300}", "name"},
        {"{\"name\": \"x\", \"flops_bf16\": 1e14, \"tdp_watts\": 300}", "memory_bytes"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"tdp_watts\": 300}", "flops_bf16"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14}", "tdp_watts"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": \"fast\", \"tdp_watts\": 1}", "flops_bf16"},
        {"[1, 2]", "gpu-file"},
        {"{\"name\": \"x\"", "gpu-file"},
        /* stated figures below any part's: a rate of 0.5 FLOP/s sized a step at 1e22 s */
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 0.5, \"tdp_watts\": 300}", "flops_bf16"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 1e-320}", "tdp_watts"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 300, "
         "\"cloud_usd_per_hour\": 1e-320}", "cloud_usd_per_hour"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 300, \"memory_bandwidth\": 1}",
         "gpu"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 300, "
         "\"memory_bandwidth\": 0.5}", "gpu"},
        {"{\"name\": \"x\", \"memory_bytes\": 1000, \"flops_bf16\": 1e14, \"tdp_watts\": 300}", "gpu"},
        /* a boolean is no number, a number other than 0 or 1 no flag */
        {"{\"name\": \"x\", \"memory_gib\": true, \"flops_bf16\": 1e14, \"tdp_watts\": 300}", "memory_gib"},
        {"{\"name\": \"x\", \"memory_gib\": 80, \"flops_bf16\": 1e14, \"tdp_watts\": 300, \"ecc\": 5}", "ecc"},
        /* a bad memory_bytes is not hidden behind memory_gib */
        {"{\"name\": \"x\", \"memory_gib\": 96, \"memory_bytes\": -1, \"flops_bf16\": 1e14, \"tdp_watts\": 300}",
         "memory_bytes"},
        {"{\"name\": \"x\", \"memory_bytes\": 85899345920.5, \"flops_bf16\": 1e14, \"tdp_watts\": 300}",
         "gpu-file"},
    };
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        trainsize_error err;
        trainsize_result r;
        int rc = trainsize_job_load_gpu_json(job, bad[i].json, strlen(bad[i].json), &err);
        assert_true(rc < 0);
        if (strcmp(err.field, bad[i].field) != 0)
            fail_msg("case %zu: field \"%s\" (%s), expected \"%s\"", i, err.field, err.message,
                     bad[i].field);
        /* The job is unchanged: still the catalogue default. */
        assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), 0);
        assert_string_equal(r.gpu, "a100-80gb");
    }
    trainsize_job_free(job);
}

static void test_device_file(void **state)
{
    char path[512];
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3",
                                           "tokens", "1e9"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    snprintf(path, sizeof path, "%s/gpu/my-accelerator.json", TS_TEST_DATA_DIR);
    assert_int_equal(trainsize_job_load_gpu_file(job, path, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(r.gpu, "my-accelerator");
    assert_int_equal(r.memory.gpu_capacity, 96ull << 30);
    assert_true(r.system.power_watts >= 8 * 600.0);
    assert_true(r.system.cost_cloud_usd > 0 && r.system.cost_own_usd > 0);
    assert_int_equal(trainsize_job_load_gpu_file(job, "/nonexistent/device.json", &err), TRAINSIZE_E_IO);
    assert_string_equal(err.field, "gpu-file");
    trainsize_job_free(job);
}

/* A device file may say what the GPU lacks; silence means it has bf16 and FlashAttention. */
static void test_device_capabilities(void **state)
{
    static const char old[] = "{\"name\": \"old\", \"memory_gib\": 32, \"flops_bf16\": 1.25e14, "
                              "\"tdp_watts\": 300, \"bf16\": false, \"flash_attention\": false, "
                              "\"architecture\": \"Volta\"}";
    static const char plain[] = "{\"name\": \"new\", \"memory_gib\": 32, \"flops_bf16\": 1e15, "
                                "\"tdp_watts\": 300}";
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_job_load_gpu_json(job, old, strlen(old), &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.warnings & TRAINSIZE_WARN_NO_BF16);
    assert_true(r.warnings & TRAINSIZE_WARN_NO_FLASH_ATTENTION);
    assert_int_equal(trainsize_job_load_gpu_json(job, plain, strlen(plain), &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_false(r.warnings & (TRAINSIZE_WARN_NO_BF16 | TRAINSIZE_WARN_NO_FLASH_ATTENTION));
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_gpu_from_struct),
        cmocka_unit_test(test_set_gpu_errors_name_the_field),
        cmocka_unit_test(test_device_file),
        cmocka_unit_test(test_device_capabilities),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

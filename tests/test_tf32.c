/* TF32: fp32 data whose matmuls and convolutions run on the TF32 tensor cores. precision
 * tf32 puts them there; under fp32 the tf32 option decides, auto following PyTorch's defaults
 * (cuDNN convolutions in TF32, matmuls in FP32 since 1.12) and the NGC containers' override
 * under the Megatron stacks. The bytes are fp32's either way. */
#include <string.h>

#include "ts_test.h"

/* With hfu set, the compute step is the FLOPs at that share of the peak the precision runs
 * at (bubble 1, no element-wise work): the ratio of two steps is the ratio of their peaks. */
static double compute_seconds(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.time.step_seconds - r.time.comm_seconds;
}

#define BERT "model", "bert-large", "gpu", "a100-80gb", "seq", "384", "micro-batch", "32", "hfu", "0.5", \
             "step-overhead", "0"

static void test_tf32_peak(void **state)
{
    double fp32, tf32;
    (void)state;
    fp32 = compute_seconds(PAIRS(BERT, "precision", "fp32", "tf32", "no"));
    tf32 = compute_seconds(PAIRS(BERT, "precision", "tf32"));
    /* A100 datasheet: 19.5 TFLOP/s FP32, 156 TF32 (dense) */
    ts_assert_near(fp32 / tf32, 156.0 / 19.5, 1e-9);
    ts_assert_near(compute_seconds(PAIRS(BERT, "precision", "fp32", "tf32", "yes")), tf32, 1e-12);
}

static void test_tf32_auto(void **state)
{
    trainsize_result r;
    double plain, tf32;
    (void)state;
    plain = compute_seconds(PAIRS(BERT, "precision", "fp32", "tf32", "no"));
    tf32 = compute_seconds(PAIRS(BERT, "precision", "tf32"));
    /* a transformer under PyTorch's defaults: FP32 matmuls */
    ts_test_estimate(PAIRS(BERT, "precision", "fp32"), &r);
    ts_assert_near(r.time.step_seconds - r.time.comm_seconds, plain, 1e-12);
    assert_string_equal(r.tf32, "");
    assert_string_equal(r.tf32_reason, "PyTorch's default");
    /* under Megatron-Core (an NGC container): TF32 matmuls */
    ts_test_estimate(PAIRS(BERT, "precision", "fp32", "stack", "megatron-core"), &r);
    assert_string_equal(r.tf32, "matmuls");
    ts_assert_near(r.time.step_seconds - r.time.comm_seconds, tf32, 1e-9);
    /* a ResNet: cuDNN's convolutions in TF32 on Ampere, plain FP32 on Volta */
    ts_test_estimate(PAIRS("model", "resnet-50", "gpu", "a100-80gb", "precision", "fp32", "micro-batch", "256"), &r);
    assert_string_equal(r.tf32, "convolutions");
    ts_test_estimate(PAIRS("model", "resnet-50", "gpu", "v100-32gb", "precision", "fp32", "micro-batch", "256"), &r);
    assert_string_equal(r.tf32, "");
    assert_string_equal(r.tf32_reason, "no TF32 units on this GPU");
    /* nothing to say under 16-bit precisions */
    ts_test_estimate(PAIRS(BERT, "precision", "bf16-mixed"), &r);
    assert_string_equal(r.tf32, "");
    assert_string_equal(r.tf32_reason, "");
}

/* TF32 changes the rate, not the bytes; a GPU without TF32 refuses precision tf32. */
static void test_tf32_bytes_and_refusal(void **state)
{
    trainsize_result a, b;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS(BERT, "precision", "fp32"), &a);
    ts_test_estimate(PAIRS(BERT, "precision", "tf32"), &b);
    assert_int_equal(a.memory.peak_total, b.memory.peak_total);
    assert_int_equal(a.memory.weights, b.memory.weights);
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "bert-large", "gpu", "v100-32gb", "precision", "tf32"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "precision");
    assert_non_null(strstr(err.message, "TF32"));
}

/* The catalogue's TF32 peaks are half the dense 16-bit tensor rate on every part that has
 * them (NVIDIA's Ampere-to-Blackwell datasheets, AMD's MI300X), and none on Volta and TPUs. */
static void test_catalogue_tf32(void **state)
{
    size_t i, n = trainsize_gpu_count(), with = 0;
    (void)state;
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (g->flops_tf32 > 0) {
            double ratio = g->flops_tf32 / g->flops_bf16;
            with++;
            if (ratio < 0.49 || ratio > 0.51) fail_msg("%s: TF32 %g of BF16 %g", g->name, g->flops_tf32, g->flops_bf16);
        }
        if (strncmp(g->architecture, "Volta", 5) == 0 || g->kind == TRAINSIZE_ACCELERATOR_TPU)
            assert_true(g->flops_tf32 == 0);
    }
    assert_true(with >= 20);
    assert_true(trainsize_gpu_find("a100-80gb")->flops_tf32 == 156e12);
    assert_true(trainsize_gpu_find("h100-80gb")->flops_tf32 == 494.7e12);
}

/* A device file can give its TF32 rate; without one, precision tf32 is refused. */
static void test_custom_gpu_tf32(void **state)
{
    static const char WITH[] = "{\"name\": \"my-gpu\", \"memory_gib\": 48, \"flops_bf16\": 2e14, "
                               "\"flops_tf32\": 1e14, \"tdp_watts\": 300}";
    static const char WITHOUT[] = "{\"name\": \"my-gpu\", \"memory_gib\": 48, \"flops_bf16\": 2e14, "
                                  "\"tdp_watts\": 300}";
    trainsize_job *job = ts_test_job(PAIRS("model", "bert-large", "precision", "tf32"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_job_load_gpu_json(job, WITH, sizeof WITH - 1, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(r.tf32, "matmuls");
    assert_int_equal(trainsize_job_load_gpu_json(job, WITHOUT, sizeof WITHOUT - 1, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "precision");
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tf32_peak),
        cmocka_unit_test(test_tf32_auto),
        cmocka_unit_test(test_tf32_bytes_and_refusal),
        cmocka_unit_test(test_catalogue_tf32),
        cmocka_unit_test(test_custom_gpu_tf32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

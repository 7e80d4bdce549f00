/* Fit advice: every piece of advice, applied to the job, gives an estimate that fits with
 * the advice's figures; least disruptive first; none for a job that fits or that nothing
 * helps; errors as documented. */
#include "ts_test.h"

#define CAP 8

static size_t advise(const char *const *pairs, trainsize_advice *out)
{
    trainsize_job *job = ts_test_job(pairs);
    trainsize_error err;
    size_t n = 99;
    assert_int_equal(trainsize_advise(job, out, CAP, &n, &err), TRAINSIZE_OK);
    trainsize_job_free(job);
    return n;
}

/* Apply advice a to the job of pairs and estimate it. */
static void apply(const char *const *pairs, const trainsize_advice *a, trainsize_result *r)
{
    trainsize_job *job = ts_test_job(pairs);
    trainsize_error err;
    size_t k;
    for (k = 0; k < a->settings; k++)
        assert_int_equal(trainsize_job_set(job, a->names[k], a->values[k], &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, r, sizeof *r, &err), TRAINSIZE_OK);
    trainsize_job_free(job);
}

static void test_applied_advice_fits(void **state)
{
    const char *const *const jobs[] = {
        PAIRS("model", "llama-2-70b", "gpus", "8"),
        PAIRS("model", "llama-2-7b", "gpu", "a100-80gb"),
        PAIRS("model", "gpt2-xl", "gpu", "a100-40gb", "micro-batch", "4"),
        PAIRS("model", "llama-3.1-405b", "gpu", "h100-80gb", "gpus", "64", "tp", "8"),
    };
    trainsize_advice adv[CAP];
    trainsize_result before, r;
    size_t j, i, n;
    (void)state;
    for (j = 0; j < sizeof jobs / sizeof jobs[0]; j++) {
        ts_test_estimate(jobs[j], &before);
        assert_false(before.memory.fits);
        n = advise(jobs[j], adv);
        assert_true(n >= 1);
        for (i = 0; i < n; i++) {
            apply(jobs[j], &adv[i], &r);
            assert_true(r.memory.fits);
            assert_false(r.warnings & TRAINSIZE_WARN_LOW_HEADROOM);
            assert_int_equal(r.memory.peak_total, adv[i].peak_total);
            assert_int_equal(r.gpus, adv[i].gpus);
            assert_true(r.time.step_seconds == adv[i].step_seconds);
        }
    }
}

static int disruption(const trainsize_advice *a)
{
    size_t k;
    int d = 0;
    for (k = 0; k < a->settings; k++) {
        if (strcmp(a->names[k], "lora-rank") == 0 || strcmp(a->names[k], "quantize-base") == 0) return 2;
        if (strcmp(a->names[k], "gpus") == 0) d = 1;
    }
    return d;
}

/* Llama-2-7B on one A100 80GB: offload (time) before more GPUs (money) before LoRA and
 * QLoRA (another method); among equals the fastest first. GPT-2 XL at micro-batch 4 on an
 * A100 40GB needs only recomputation. */
static void test_least_disruptive_first(void **state)
{
    trainsize_advice adv[CAP];
    size_t n, i;
    int seen[3] = {0, 0, 0};
    (void)state;
    n = advise(PAIRS("model", "llama-2-7b", "gpu", "a100-80gb"), adv);
    assert_true(n >= 3);
    for (i = 0; i < n; i++) {
        seen[disruption(&adv[i])] = 1;
        if (i > 0) {
            assert_true(disruption(&adv[i - 1]) <= disruption(&adv[i]));
            if (disruption(&adv[i - 1]) == disruption(&adv[i]))
                assert_true(adv[i - 1].seconds <= adv[i].seconds);
        }
    }
    assert_true(seen[0] && seen[1] && seen[2]);
    n = advise(PAIRS("model", "gpt2-xl", "gpu", "a100-40gb", "micro-batch", "4"), adv);
    assert_true(n >= 1);
    assert_string_equal(adv[0].names[0], "recompute");
}

/* Smaller micro-batches keep the global batch: the same samples per optimizer step. */
static void test_micro_batch_keeps_the_batch(void **state)
{
    trainsize_advice adv[CAP];
    trainsize_result before, after;
    size_t n, i, k;
    const char *const *job = PAIRS("model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "8", "zero", "1",
                                   "micro-batch", "16");
    (void)state;
    ts_test_estimate(job, &before);
    n = advise(job, adv);
    for (i = 0; i < n; i++)
        for (k = 0; k < adv[i].settings; k++)
            if (strcmp(adv[i].names[k], "micro-batch") == 0) {
                apply(job, &adv[i], &after);
                assert_int_equal(after.gradient_accumulation * after.data_parallel * 1,
                                 before.gradient_accumulation * before.data_parallel * 16);
                return;
            }
    fail_msg("no micro-batch advice for a 7B ZeRO-1 job at micro-batch 16");
}

static void test_none_when_it_fits_or_nothing_helps(void **state)
{
    static const char tiny[] = "{\"name\": \"tiny\", \"memory_gib\": 0.25, \"flops_bf16\": 1e14, "
                               "\"tdp_watts\": 100}";
    trainsize_advice adv[CAP];
    trainsize_job *job;
    trainsize_error err;
    size_t n = 99;
    (void)state;
    assert_int_equal(advise(PAIRS("model", "gpt2", "gpu", "h100-80gb"), adv), 0);
    job = ts_test_job(PAIRS("model", "llama-2-70b"));
    assert_int_equal(trainsize_job_load_gpu_json(job, tiny, strlen(tiny), &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_advise(job, adv, CAP, &n, &err), TRAINSIZE_OK);
    assert_int_equal(n, 0);
    trainsize_job_free(job);
}

static void test_errors(void **state)
{
    trainsize_advice adv[CAP];
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    size_t n = 99;
    (void)state;
    assert_int_equal(trainsize_advise(NULL, adv, CAP, &n, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(n, 0);
    assert_int_equal(trainsize_advise(job, NULL, CAP, &n, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_advise(job, adv, CAP, NULL, &err), TRAINSIZE_E_ARGUMENT);
    /* No model: the estimate's own error, naming the field. */
    assert_int_equal(trainsize_advise(job, adv, CAP, &n, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "model");
    trainsize_job_free(job);
}

/* QLoRA recomputes by default (PEFT): the advice never offers less recomputation than the
 * job already does ("--recompute selective" would turn full recomputation off). */
static void test_qlora_advice_keeps_recomputation(void **state)
{
    trainsize_advice a[5];
    size_t n = 0, i, j;
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-70b", "gpu", "rtx-4090", "lora-rank", "16",
                                           "quantize-base", "nf4", "seq", "4096"));
    (void)state;
    assert_int_equal(trainsize_advise(job, a, 5, &n, NULL), TRAINSIZE_OK);
    for (i = 0; i < n; i++)
        for (j = 0; j < a[i].settings; j++)
            assert_string_not_equal(a[i].names[j], "recompute");
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qlora_advice_keeps_recomputation),
        cmocka_unit_test(test_applied_advice_fits),
        cmocka_unit_test(test_least_disruptive_first),
        cmocka_unit_test(test_micro_batch_keeps_the_batch),
        cmocka_unit_test(test_none_when_it_fits_or_nothing_helps),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The global batch when the job sets none: estimate and plan agree on a pretraining-sized
 * step for a run with --tokens, fine-tuning keeps the frameworks' default, and the result
 * says which (layout.global_batch_reason). Before, estimate stepped micro-batch x dp
 * samples: 72 B200s training Llama 3 70B on 1e12 tokens stepped 72 samples and took 541
 * days, most of it in the gradient all-reduce. */
#include "ts_test.h"

static void test_pretraining_run_steps_about_4m_tokens(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12"), &r);
    /* 4,194,304 / seq 2048 = 2048 samples, in whole steps of 72: 28 x 72 = 2016. */
    assert_int_equal(r.layout.global_batch, 2016);
    assert_int_equal(r.gradient_accumulation, 28);
    assert_non_null(strstr(r.global_batch_reason, "4M tokens"));
    assert_false(r.warnings & TRAINSIZE_WARN_SMALL_BATCH);
    /* The same job at the old default (72 samples) is communication-bound, and says so. */
    /* (on 100 GbE: with its 8 NICs a server's ranks reduce fast enough on a faster network) */
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12", "global-batch", "72", "network", "eth-100g"), &r);
    assert_string_equal(r.global_batch_reason, "global-batch as set");
    assert_true(r.warnings & TRAINSIZE_WARN_SMALL_BATCH);
}

static void test_default_batch_time_is_the_big_batchs(void **state)
{
    trainsize_result dflt, big;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12"), &dflt);
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12", "global-batch", "2016"), &big);
    assert_true(dflt.time.seconds == big.time.seconds);
    /* the 72-sample step spends most of its time in the all-reduce, on 100 GbE */
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12", "network", "eth-100g"), &dflt);
    ts_test_estimate(PAIRS("model", "llama-3-70b", "gpu", "b200", "gpus", "72", "zero", "1",
                           "tokens", "1e12", "global-batch", "72", "network", "eth-100g"), &big);
    assert_true(big.time.seconds > 3.0 * dflt.time.seconds); /* 295 days against 70 */
}

static void test_fine_tuning_and_single_steps(void **state)
{
    trainsize_result r;
    (void)state;
    /* LoRA, even with tokens: one micro-batch per rank (HF Trainer's default). */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "4", "micro-batch", "2", "lora-rank",
                           "16", "tokens", "1e8"), &r);
    assert_int_equal(r.layout.global_batch, 8);
    assert_non_null(strstr(r.global_batch_reason, "fine-tuning"));
    /* No tokens: one step of micro-batch x dp. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"), &r);
    assert_int_equal(r.layout.global_batch, 8);
    assert_non_null(strstr(r.global_batch_reason, "no --tokens"));
    /* A pipeline gets pp micro-batches, a multiple of pp when interleaved. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "pp", "4"), &r);
    assert_int_equal(r.gradient_accumulation, 4);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "pp", "4", "pp-interleave", "2",
                           "tokens", "1e11", "seq", "4096", "micro-batch", "3"), &r);
    /* 4M / 4096 = 1024 samples / (3 x 2) = 170.7 -> 171 -> 172, a multiple of 4 */
    assert_int_equal(r.gradient_accumulation, 172);
}

/* A run shorter than one 4M-token step trains what it asks, in one step. */
static void test_short_run(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt2", "gpus", "2", "seq", "1024", "tokens", "20480"), &r);
    assert_int_equal(r.layout.global_batch, 20);
    assert_int_equal(r.time.steps, 1);
    /* 5 samples' worth on 2 ranks: 4 (2 steps of 2), never 6 (more than the run) */
    ts_test_estimate(PAIRS("model", "gpt2", "gpus", "2", "seq", "1000", "tokens", "5000"), &r);
    assert_int_equal(r.layout.global_batch, 4);
    assert_non_null(strstr(r.global_batch_reason, "under 4M tokens"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pretraining_run_steps_about_4m_tokens),
        cmocka_unit_test(test_default_batch_time_is_the_big_batchs),
        cmocka_unit_test(test_fine_tuning_and_single_steps),
        cmocka_unit_test(test_short_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Pipeline stages: even splits, Megatron-LM's uneven first and last stages, and what the
 * fullest stage costs in memory and time. */
#include "ts_test.h"

/* Llama 3.1 405B (126 layers) on pp 16: Dubey et al. 2024 (arXiv 2407.21783, §3.3.2) took
 * one layer off the first and the last stage: 7 + 14 x 8 + 7. */
#define L405 "model", "llama-3.1-405b", "gpus", "128", "tp", "8", "pp", "16"

static void test_llama3_405b_split(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS(L405), &r);
    assert_int_equal(r.pipeline_first_layers, 7);
    assert_int_equal(r.pipeline_layers, 8);
    assert_int_equal(r.pipeline_last_layers, 7);
    ts_test_estimate(PAIRS(L405, "pp-first-layers", "7", "pp-last-layers", "7"), &r);
    assert_int_equal(r.pipeline_layers, 8);
}

static void test_even_and_explicit(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4"), &r);
    assert_int_equal(r.pipeline_first_layers, 8);
    assert_int_equal(r.pipeline_layers, 8);
    assert_int_equal(r.pipeline_last_layers, 8);
    /* The first stage lighter by two layers (it also runs the embedding). */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4", "pp-first-layers", "5"), &r);
    assert_int_equal(r.pipeline_first_layers, 5);
    assert_int_equal(r.pipeline_layers, 9);
    assert_int_equal(r.pipeline_last_layers, 9);
    /* Two stages and an odd count: the first gets the smaller half. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "layers", "33", "gpus", "2", "pp", "2"), &r);
    assert_int_equal(r.pipeline_first_layers, 16);
    assert_int_equal(r.pipeline_last_layers, 17);
    ts_test_estimate(PAIRS("model", "gpt2"), &r); /* no pipeline: one stage of all */
    assert_int_equal(r.pipeline_first_layers, 12);
    assert_int_equal(r.pipeline_last_layers, 12);
}

static void test_bad_splits_name_the_option(void **state)
{
    trainsize_error err;
    (void)state;
    /* 5 layers on 4 stages: middle stages of 2 leave one layer for the first and last. */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "layers", "5", "gpus", "4",
                                               "pp", "4"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "pp");
    assert_int_equal(ts_test_estimate_rc(PAIRS(L405, "pp-first-layers", "130"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "pp-first-layers");
    /* more virtual stages than the layers and the embedding's and the loss's slots */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "layers", "6", "gpus", "4", "pp", "4",
                                               "pp-interleave", "4"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "pp-interleave");
}

/* Interleaved stages that the layers do not divide, as Megatron-Core runs them from a
 * pipeline layout: DeepSeek-V3's 61 layers on pp 4 x pp-interleave 8. The 63 slots (the
 * embedding and the loss one each) over 32 chunks are 2 each but the first chunk's 1:
 * stage 0 holds 0 + 7 x 2 = 14 layers, stages 1 and 2 16, stage 3 7 x 2 + 1 = 15; the step
 * runs at the pace of 16 layers a stage. Uneven first and last stages interleave too. */
static void test_uneven_virtual_stages(void **state)
{
#define V61 "model", "deepseek-v3", "gpus", "1024", "pp", "4", "pp-interleave", "8", "ep", "32", \
            "global-batch", "4096", "precision", "fp8-mixed", "gpu", "h100-80gb"
    trainsize_result r, even;
    (void)state;
    ts_test_estimate(PAIRS(V61), &r);
    assert_int_equal(r.pipeline_first_layers, 14);
    assert_int_equal(r.pipeline_layers, 16);
    assert_int_equal(r.pipeline_last_layers, 15);
    assert_int_equal(r.layout.pp_interleave, 8);
    /* without the slots: 61 layers over 32 chunks, 2 each in chunks 1 to 29 and 1 in the
     * others (0, 30, 31): stage 0 holds 1 + 7 x 2 = 15, stage 1 16, stage 2 15 (chunk 30),
     * stage 3 15 (chunk 31); the fullest middle stage, 16, stands for the middle ones */
    ts_test_estimate(PAIRS(V61, "pp-account-embedding", "no"), &r);
    assert_int_equal(r.pipeline_first_layers, 15);
    assert_int_equal(r.pipeline_layers, 16);
    assert_int_equal(r.pipeline_last_layers, 15);
    /* the pace: a stage of 16 layers sets it, as 64 layers split evenly do (the hfu fixed,
     * so that only the split differs): the same compute for 61/64 of the FLOPs */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "layers", "61", "gpus", "4", "pp", "4", "pp-interleave", "8",
                           "global-batch", "32", "hfu", "0.4", "step-overhead", "0"), &r);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "layers", "64", "gpus", "4", "pp", "4", "pp-interleave", "8",
                           "global-batch", "32", "hfu", "0.4", "step-overhead", "0", "pp-account-embedding", "no"),
                     &even);
    assert_int_equal(r.pipeline_layers, 16);
    assert_int_equal(even.pipeline_layers, 16);
    ts_assert_near((r.time.step_seconds - r.time.comm_seconds) / (even.time.step_seconds - even.time.comm_seconds),
                   1.0, 0.01);
    /* uneven first and last stages with interleaving (Megatron-Core's
     * decoder-first/last-pipeline-num-layers with a virtual pipeline) */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4", "pp-interleave", "2", "pp-first-layers",
                           "5", "global-batch", "8"), &r);
    assert_int_equal(r.pipeline_first_layers, 5);
    assert_int_equal(r.pipeline_layers, 9);
    assert_int_equal(r.pipeline_last_layers, 9);
#undef V61
}

/* The fullest stage is the one the memory report shows when it is the most loaded: on
 * 405B the first middle stage (8 layers, 15 micro-batches in flight) beats the first
 * (7 layers, 16 in flight), and its layer activations are 8 x 15 layers' worth. */
static void test_fullest_stage_memory(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS(L405, "recompute", "none", "global-batch", "64"), &r);
    assert_int_equal(r.memory.pipeline_stage, 1);
    assert_int_equal(r.memory.in_flight_microbatches, 15);
    assert_true(llabs((long long)r.memory.activations_layers -
                      (long long)(r.memory.activations_per_layer * 8 * 15)) <= 1);
}

/* The step waits for the fullest stage: 7 + 14 x 8 + 7 computes at the pace of 8 layers a
 * stage, 14 + 14 x 7 + 14 at the pace of 14, so its compute time is 14 / 8 of the other. */
static void test_fullest_stage_time(void **state)
{
    trainsize_result split, heavy;
    double a, b;
    (void)state;
    /* hfu set: the FLOPs alone set the pace (no optimizer step on top) */
    ts_test_estimate(PAIRS(L405, "global-batch", "64", "hfu", "0.5", "step-overhead", "0"), &split);
    ts_test_estimate(PAIRS(L405, "global-batch", "64", "hfu", "0.5", "step-overhead", "0", "pp-first-layers", "14",
                           "pp-last-layers", "14"),
                     &heavy);
    assert_int_equal(heavy.pipeline_layers, 7);
    a = split.time.step_seconds - split.time.comm_seconds;
    b = heavy.time.step_seconds - heavy.time.comm_seconds;
    assert_true(fabs(b / a - 14.0 / 8.0) < 1e-9);
}

/* Interleaved stages with the embedding and the loss in the split (Megatron-Core's
 * account_for_embedding/loss_in_pipeline_split, as MLPerf's Llama 3.1 405B runs them):
 * 126 layers + 2 over pp 8 x 8 chunks of 2 leave the first and the last stage 15 layers,
 * the others 16; over pp 16 x 8 chunks of 1, 7 and 8. */
static void test_interleaved_with_the_embedding_in_the_split(void **state)
{
    trainsize_result r;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3.1-405b", "gpus", "512", "tp", "8", "pp", "8", "pp-interleave", "8",
                           "global-batch", "64"), &r);
    assert_int_equal(r.pipeline_first_layers, 15);
    assert_int_equal(r.pipeline_layers, 16);
    assert_int_equal(r.pipeline_last_layers, 15);
    ts_test_estimate(PAIRS("model", "llama-3.1-405b", "gpus", "1024", "tp", "8", "pp", "16", "pp-interleave", "8",
                           "global-batch", "128"), &r);
    assert_int_equal(r.pipeline_first_layers, 7);
    assert_int_equal(r.pipeline_layers, 8);
    assert_int_equal(r.pipeline_last_layers, 7);
    /* asked not to: the 126 layers alone over the 64 chunks, 2 each but the first and the
     * last chunk's 1, which gives the same stages */
    ts_test_estimate(PAIRS("model", "llama-3.1-405b", "gpus", "512", "tp", "8", "pp", "8", "pp-interleave", "8",
                           "global-batch", "64", "pp-account-embedding", "no"), &r);
    assert_int_equal(r.pipeline_first_layers, 15);
    assert_int_equal(r.pipeline_layers, 16);
    assert_int_equal(r.pipeline_last_layers, 15);
    /* refused when the slots do not divide and yes asks for them */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "gpus", "4", "pp", "4", "pp-interleave", "2",
                                               "pp-account-embedding", "yes"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "pp-account-embedding");
    /* asked for where the layers divide anyway: 30 + 2 over 2 x 2 chunks of 8 */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "layers", "30", "gpus", "2", "pp", "2", "pp-interleave", "2",
                           "pp-account-embedding", "yes", "global-batch", "4"), &r);
    assert_int_equal(r.pipeline_first_layers, 15);
    assert_int_equal(r.pipeline_last_layers, 15);
}

/* Pipeline schedules: with hfu set the compute is the FLOPs times the bubble, 1 + (p-1)/m
 * for 1F1B, a third of that for ZB-H1 (Qi et al. 2023), none for ZB-H2 and DualPipe; the
 * first stage holds p micro-batches under 1F1B and ZB-H1, 2p - 1 under ZB-H2, p + 1 under
 * DualPipe (DeepSeek-V3, Table 2), which also keeps two copies of its weights. */
static void test_pipeline_schedules(void **state)
{
#define P8 "model", "llama-2-7b", "gpus", "8", "pp", "8", "global-batch", "32", "hfu", "0.5", "step-overhead", "0", \
           "gpu-variation", "0"
    trainsize_result one, zb1, zb2, dual;
    trainsize_error err;
    double ideal;
    (void)state;
    ts_test_estimate(PAIRS(P8), &one);
    ts_test_estimate(PAIRS(P8, "pp-schedule", "zb-h1"), &zb1);
    ts_test_estimate(PAIRS(P8, "pp-schedule", "zb-h2"), &zb2);
    ts_test_estimate(PAIRS(P8, "pp-schedule", "dualpipe"), &dual);
    ideal = one.time.step_flops / (8.0 * 312e12 * 0.5);
    ts_assert_near((one.time.step_seconds - one.time.comm_seconds) / ideal, 1.0 + 7.0 / 32.0, 1e-9);
    ts_assert_near((zb1.time.step_seconds - zb1.time.comm_seconds) / ideal, 1.0 + 7.0 / 96.0, 1e-9);
    assert_string_equal(zb1.pp_schedule, "zb-h1"); /* the result says which, and its bubble */
    ts_assert_near(zb1.pipeline_bubble, 1.0 + 7.0 / 96.0, 1e-12);
    assert_string_equal(one.pp_schedule, "1f1b");
    ts_assert_near((zb2.time.step_seconds - zb2.time.comm_seconds) / ideal, 1.0, 1e-9);
    ts_assert_near((dual.time.step_seconds - dual.time.comm_seconds) / ideal, 1.0, 1e-9);
    ts_assert_near(one.memory.in_flight_microbatches, 8.0, 0.0);
    ts_assert_near(zb1.memory.in_flight_microbatches, 8.0, 0.0);
    ts_assert_near(zb2.memory.in_flight_microbatches, 15.0, 0.0);
    ts_assert_near(dual.memory.in_flight_microbatches, 9.0, 0.0);
    /* (the fullest stage may be the last, whose final norm adds 16 KiB) */
    ts_assert_near((double)dual.memory.weights / (double)one.memory.weights, 2.0, 1e-4);
    assert_int_equal(ts_test_estimate_rc(PAIRS(P8, "pp-schedule", "interleaved"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "pp-schedule");
    assert_int_equal(ts_test_estimate_rc(PAIRS(P8, "pp-schedule", "zb-h1", "pp-interleave", "2"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "gpus", "6", "pp", "3", "layers", "30",
                                               "global-batch", "6", "pp-schedule", "dualpipe"), &err),
                     TRAINSIZE_E_LAYOUT);
#undef P8
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama3_405b_split),
        cmocka_unit_test(test_even_and_explicit),
        cmocka_unit_test(test_bad_splits_name_the_option),
        cmocka_unit_test(test_uneven_virtual_stages),
        cmocka_unit_test(test_fullest_stage_memory),
        cmocka_unit_test(test_fullest_stage_time),
        cmocka_unit_test(test_interleaved_with_the_embedding_in_the_split),
        cmocka_unit_test(test_pipeline_schedules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Post-training methods: DPO's chosen and rejected sequences in one batch, its frozen
 * reference (a copy of the model, the policy with its adapters off, or log-probabilities
 * computed before training) and the reference's forward pass, each worked out by hand
 * against the SFT estimate of the same job. */
#include "ts_test.h"

#define JOB "model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "2048"

static void test_dpo_full_fine_tune(void **state)
{
    trainsize_result sft, dpo, pre;
    double per_token_sft, per_token_dpo;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &sft);
    ts_test_estimate(PAIRS(JOB, "method", "dpo"), &dpo);
    ts_test_estimate(PAIRS(JOB, "method", "dpo", "reference", "precomputed"), &pre);
    assert_string_equal(dpo.method, "dpo");
    assert_string_equal(dpo.reference, "model"); /* auto without LoRA, as TRL copies the model */
    assert_string_equal(sft.method, "sft");
    assert_string_equal(sft.reference, "");
    /* the reference: every parameter in bf16, sharded over the 8 ranks like the policy */
    assert_true(fabs((double)dpo.memory.reference_weights - (double)dpo.model.parameters * 2.0 / 8.0) <= 1.0);
    assert_int_equal(dpo.memory.weights, sft.memory.weights + dpo.memory.reference_weights);
    assert_int_equal(pre.memory.reference_weights, 0);
    assert_int_equal(pre.memory.weights, sft.memory.weights);
    /* chosen + rejected in one batch: twice the activations of a micro-batch */
    assert_int_equal(dpo.memory.activations, 2 * sft.memory.activations);
    /* twice the tokens a step, each with one more forward pass (the reference's): 4 passes
     * of 2 FLOPs per weight against training's 3 */
    per_token_sft = sft.time.step_flops / sft.time.tokens;
    per_token_dpo = dpo.time.step_flops / dpo.time.tokens;
    assert_true(fabs(dpo.time.tokens - 2.0 * sft.time.tokens) < 1e-9);
    assert_true(fabs(per_token_dpo / per_token_sft - 4.0 / 3.0) < 1e-9);
    assert_true(pre.time.step_flops == dpo.time.step_flops); /* the same passes, run before */
}

static void test_dpo_with_lora(void **state)
{
    trainsize_result off, copy;
    (void)state;
#define LORA JOB, "method", "dpo", "lora-rank", "16", "zero", "0", "gpus", "1"
    ts_test_estimate(PAIRS(LORA), &off);
    assert_string_equal(off.reference, "adapters-off"); /* TRL with PEFT */
    assert_int_equal(off.memory.reference_weights, 0);
    /* a separate reference copies the frozen base: 16-bit, the whole model on one GPU */
    ts_test_estimate(PAIRS(LORA, "reference", "model"), &copy);
    assert_true(copy.memory.reference_weights > 0.99 * 2.0 * (double)copy.model.parameters);
    assert_true(copy.memory.reference_weights < 1.001 * 2.0 * (double)copy.model.parameters);
#undef LORA
}

static void test_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "reference", "model"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reference"); /* sft has no reference */
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "method", "dpo", "reference", "adapters-off"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reference"); /* no adapters to turn off */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dpo_full_fine_tune),
        cmocka_unit_test(test_dpo_with_lora),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The kernel groups as their own options (docs/methodology.md, "Kernel groups"):
 * fused-norm, fused-activation and fused-rope each change what their kernels keep and how
 * often the element-wise work passes over memory, and nothing else; unset they follow
 * fused-kernels, which compile sets; nanotron's LLaMA runs its SwiGLU unfused; the result
 * says what ran fused. */
#include "ts_test.h"

/* Llama 3 8B in pure bf16 (no autocast copies): h = 4096, f = 14336, two RMSNorms a layer;
 * one micro-batch of 1,024 tokens. */
#define JOB "model", "llama-3-8b", "gpus", "1", "seq", "1024", "precision", "bf16", "stack", "hf"
#define TOKENS 1024.0
#define H 4096.0
#define F 14336.0

static double compute(const trainsize_result *r) { return r->time.step_seconds - r->time.comm_seconds; }

/* An eager RMSNorm (Hugging Face's) keeps its fp32 upcast and its 16-bit output, 4 + 2
 * bytes an element, where a fused one keeps the 2-byte input: 4h a norm, 8h a layer. */
static void test_fused_norm_keeps_its_input_only(void **state)
{
    trainsize_result eager, fused;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &eager);
    ts_test_estimate(PAIRS(JOB, "fused-norm", "yes"), &fused);
    ts_assert_near((double)eager.memory.activations_per_layer - (double)fused.memory.activations_per_layer,
                   2.0 * 4.0 * H * TOKENS, 1.0);
    assert_true(compute(&fused) < compute(&eager));
    assert_string_equal(fused.kernels, "eager but fused norm");
}

/* act(gate) * up run apart keep gate, act(gate) and up; fused, gate and up: one ffn-wide
 * tensor of 2 bytes fewer a token. */
static void test_fused_activation_drops_its_output(void **state)
{
    trainsize_result eager, fused;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &eager);
    ts_test_estimate(PAIRS(JOB, "fused-activation", "yes"), &fused);
    ts_assert_near((double)eager.memory.activations_per_layer - (double)fused.memory.activations_per_layer,
                   2.0 * F * TOKENS, 1.0);
    assert_true(compute(&fused) < compute(&eager));
}

/* The rotary embedding keeps nothing of its own either way (the attention keeps the
 * rotated q and k): only the time changes. */
static void test_fused_rope_is_time_only(void **state)
{
    trainsize_result eager, fused;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &eager);
    ts_test_estimate(PAIRS(JOB, "fused-rope", "yes"), &fused);
    assert_int_equal(fused.memory.activations_per_layer, eager.memory.activations_per_layer);
    assert_true(compute(&fused) < compute(&eager));
}

/* Unset, the groups follow fused-kernels; all three fused under eager modelling code is
 * Liger's patching, which leaves the attention's output copy and the residual adds eager:
 * between eager and fused-kernels yes, in both memory and time. Set against fused-kernels,
 * a group's own option wins. */
static void test_groups_follow_fused_kernels(void **state)
{
    trainsize_result eager, liger, fused, fused_eager_norm;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &eager);
    ts_test_estimate(PAIRS(JOB, "fused-norm", "yes", "fused-activation", "yes", "fused-rope", "yes"), &liger);
    ts_test_estimate(PAIRS(JOB, "fused-kernels", "yes"), &fused);
    ts_test_estimate(PAIRS(JOB, "fused-kernels", "yes", "fused-norm", "no"), &fused_eager_norm);
    assert_string_equal(eager.kernels, "eager");
    assert_string_equal(fused.kernels, "fused");
    assert_string_equal(liger.kernels, "eager but fused norm,activation,rope");
    assert_string_equal(fused_eager_norm.kernels, "fused but eager norm");
    assert_true(liger.memory.activations_per_layer > fused.memory.activations_per_layer);
    assert_true(liger.memory.activations_per_layer < eager.memory.activations_per_layer);
    assert_true(compute(&liger) > compute(&fused) && compute(&liger) < compute(&eager));
    ts_assert_near((double)fused_eager_norm.memory.activations_per_layer - (double)fused.memory.activations_per_layer,
                   2.0 * 4.0 * H * TOKENS, 1.0);
}

/* torch.compile fuses the element-wise work: fused-kernels auto becomes yes, the same
 * estimate; an explicit fused-kernels no still wins. */
static void test_compile_fuses(void **state)
{
    trainsize_result compiled, fused, refused;
    (void)state;
    ts_test_estimate(PAIRS(JOB, "compile", "true"), &compiled);
    ts_test_estimate(PAIRS(JOB, "fused-kernels", "yes"), &fused);
    ts_test_estimate(PAIRS(JOB, "compile", "true", "fused-kernels", "no"), &refused);
    assert_int_equal(compiled.memory.activations_per_layer, fused.memory.activations_per_layer);
    ts_assert_near(compiled.time.step_seconds, fused.time.step_seconds, 1e-12);
    assert_string_equal(compiled.kernels, "fused");
    assert_string_equal(refused.kernels, "eager");
}

/* nanotron's LLaMA: flash-attn's fused RMSNorm and rotary, silu(gate) * up as two
 * operations (huggingface/nanotron@0e0a27e, models/llama.py), unless compiled. */
static void test_nanotron_runs_its_activation_apart(void **state)
{
    trainsize_result nano, compiled;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-8b", "gpus", "8", "stack", "nanotron"), &nano);
    ts_test_estimate(PAIRS("model", "llama-3-8b", "gpus", "8", "stack", "nanotron", "compile", "true"), &compiled);
    assert_string_equal(nano.kernels, "fused but eager activation");
    assert_string_equal(compiled.kernels, "fused");
    assert_true(compute(&compiled) < compute(&nano));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fused_norm_keeps_its_input_only),
        cmocka_unit_test(test_fused_activation_drops_its_output),
        cmocka_unit_test(test_fused_rope_is_time_only),
        cmocka_unit_test(test_groups_follow_fused_kernels),
        cmocka_unit_test(test_compile_fuses),
        cmocka_unit_test(test_nanotron_runs_its_activation_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Megatron-Core's selective recomputation by module (recompute-modules, with recompute
 * selective) and the two fp8 stores (fp8-activation-store, fp8-attention): each against the
 * same job without it, term by term as methodology.md gives them ("Recomputation",
 * "fp8 training"), in the job's byte conventions (ts_conv). */
#include "job.h"
#include "stages.h"
#include "ts_test.h"
#include "ts_test_conv.h"

#define SEQ 2048.0

/* Llama-3-8B (h 4096, q 4096, kv 1024, f 14336, 32 heads, 32 layers), one GPU, flash. */
#define LLAMA(...) PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "framework", "megatron", "seq", "2048", __VA_ARGS__)
/* Mixtral-8x7B (h 4096, f 14336, 8 experts, top-2, 32 layers) on 8 GPUs under ZeRO-3. */
#define MIXTRAL(...)                                                                                              \
    PAIRS("model", "mixtral-8x7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "framework", "megatron", "seq",    \
          "2048", __VA_ARGS__)
/* DeepSeek-V2-Lite: MLA with no query latent (16 heads of 192, kv latent 512, rope 64,
 * values 128), 27 layers. */
#define LITE(...)                                                                                                 \
    PAIRS("model", "deepseek-v2-lite", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "framework", "megatron",       \
          "seq", "2048", __VA_ARGS__)

/* Whole bytes: the result rounds each figure up once. */
static void assert_bytes(double got, double want)
{
    if (fabs(got - want) > 2.0) fail_msg("%.0f bytes, expected %.0f", got, want);
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want))) fail_msg("%.17g, expected %.17g", got, want);
}

static double extra_flops(const trainsize_result *r) { return r->time.flops - r->time.model_flops; }

static double per_layer_drop(const trainsize_result *from, const trainsize_result *to)
{
    return (double)from->memory.activations_per_layer - (double)to->memory.activations_per_layer;
}

/* Unset, the modules are core_attn: Korthikanti's selective, as before. */
static void test_default_is_core_attention(void **state)
{
    trainsize_result sel, core;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "selective"), &sel);
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "core_attn"), &core);
    assert_int_equal(sel.memory.activations, core.memory.activations);
    assert_true(sel.time.flops == core.time.flops);
    assert_true(extra_flops(&sel) > 0.0); /* attention's core again */
}

/* layernorm drops the two norms' outputs, the inputs of the q/k/v and the gate/up
 * projections; it costs no matmul. Without core_attn the log-sum-exp stays and attention
 * is not computed again. */
static void test_layernorm(void **state)
{
    ts_conv c = ts_test_conventions(LLAMA("recompute", "selective"));
    trainsize_result core, both, norm_only;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "selective"), &core);
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "core_attn,layernorm"), &both);
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "layernorm"), &norm_only);
    assert_bytes(per_layer_drop(&core, &both), (c.qkv_in_copies + c.fc1_in_copies) * c.linear_in * SEQ * 4096.0);
    assert_true(both.time.flops == core.time.flops);
    assert_bytes(per_layer_drop(&norm_only, &both), 4.0 * 32.0 * SEQ); /* the fp32 log-sum-exp */
    assert_true(norm_only.time.flops == norm_only.time.model_flops);
}

/* mla_up_proj drops the up-projected queries, keys and values (the latents stay) and
 * computes the query projection and the key-value up-projection again. */
static void test_mla_up_projection(void **state)
{
    ts_conv c = ts_test_conventions(LITE("recompute", "selective"));
    trainsize_result norm, up, plain;
    (void)state;
    ts_test_estimate(LITE("recompute", "selective", "recompute-modules", "layernorm"), &norm);
    ts_test_estimate(LITE("recompute", "selective", "recompute-modules", "layernorm,mla_up_proj"), &up);
    assert_bytes(per_layer_drop(&norm, &up), c.act * SEQ * (16.0 * 192.0 + 16.0 * 192.0 + 16.0 * 128.0));
    assert_close(extra_flops(&up),
                 up.time.tokens * 2.0 * 27.0 * (2048.0 * 16.0 * 192.0 + 512.0 * 16.0 * (192.0 - 64.0 + 128.0)));
    /* a model without MLA has no up-projection to drop */
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "layernorm"), &norm);
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "layernorm,mla_up_proj"), &plain);
    assert_int_equal(norm.memory.activations, plain.memory.activations);
    assert_true(norm.time.flops == plain.time.flops);
}

/* moe_act drops each expert copy's activation output (the down projection's input) and
 * keeps its input; element-wise, no matmul again. */
static void test_moe_activation(void **state)
{
    ts_conv c = ts_test_conventions(MIXTRAL("recompute", "selective"));
    trainsize_result core, act;
    (void)state;
    ts_test_estimate(MIXTRAL("recompute", "selective"), &core);
    ts_test_estimate(MIXTRAL("recompute", "selective", "recompute-modules", "core_attn,moe_act"), &act);
    assert_bytes(per_layer_drop(&core, &act), c.linear_in * 2.0 * SEQ * 14336.0);
    assert_true(act.time.flops == core.time.flops);
}

/* mlp checkpoints a dense layer's MLP: it keeps its input and computes gate, up and down
 * again. */
static void test_dense_mlp(void **state)
{
    ts_conv c = ts_test_conventions(LLAMA("recompute", "selective"));
    trainsize_result none, mlp;
    double h = 4096.0, f = 14336.0;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "none"), &none);
    ts_test_estimate(LLAMA("recompute", "selective", "recompute-modules", "mlp"), &mlp);
    assert_bytes(per_layer_drop(&none, &mlp), c.fc1_in_copies * c.linear_in * SEQ * h + c.glu_saved * c.act * SEQ * f +
                                                  c.linear_in * SEQ * f - c.act * SEQ * h);
    assert_close(extra_flops(&mlp), mlp.time.tokens * 2.0 * 32.0 * 3.0 * h * f);
}

/* moe checkpoints an MoE layer: the router and each token's two experts again. */
static void test_moe_layer(void **state)
{
    trainsize_result moe;
    (void)state;
    ts_test_estimate(MIXTRAL("recompute", "selective", "recompute-modules", "moe"), &moe);
    assert_close(extra_flops(&moe), moe.time.tokens * 2.0 * 32.0 * (4096.0 * 8.0 + 2.0 * 3.0 * 4096.0 * 14336.0));
}

/* The modules apply only to selective: none and full ignore them. */
static void test_only_with_selective(void **state)
{
    static const char *const policies[] = {"none", "full"};
    size_t i;
    (void)state;
    for (i = 0; i < 2; i++) {
        trainsize_result plain, with;
        ts_test_estimate(LLAMA("recompute", policies[i]), &plain);
        ts_test_estimate(LLAMA("recompute", policies[i], "recompute-modules", "layernorm,mlp"), &with);
        assert_int_equal(plain.memory.peak_total, with.memory.peak_total);
        assert_true(plain.time.step_seconds == with.time.step_seconds);
    }
}

/* The list reads back in its choices' order; an unknown item is refused by name. */
static void test_list_parsing(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    char text[64];
    (void)state;
    assert_int_equal(trainsize_job_set(job, "recompute-modules", "mlp,core_attn", &err), TRAINSIZE_OK);
    assert_true(trainsize_job_get(job, "recompute-modules", text, sizeof text, &err) > 0);
    assert_string_equal(text, "core_attn,mlp");
    assert_int_equal(trainsize_job_set(job, "recompute-modules", "attention", &err), TRAINSIZE_E_UNKNOWN);
    assert_string_equal(err.field, "recompute-modules");
    assert_int_equal(trainsize_job_set(job, "recompute-modules", "core_attn,", &err), TRAINSIZE_E_INVALID);
    trainsize_job_free(job);
}

/* fp8-activation-store: the fused SwiGLU's two ffn-wide inputs in one byte each, in any
 * precision; the rest of the layer as before. */
static void test_fp8_activation_store(void **state)
{
    ts_conv c = ts_test_conventions(LLAMA("recompute", "none"));
    trainsize_result plain, stored;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "none"), &plain);
    ts_test_estimate(LLAMA("recompute", "none", "fp8-activation-store", "true"), &stored);
    assert_bytes(per_layer_drop(&plain, &stored), c.glu_saved * (c.act - 1.0) * SEQ * 14336.0);
    assert_true(plain.time.step_seconds == stored.time.step_seconds);
}

/* fp8-attention: under fp8-mixed the flash kernel keeps q, k, v and its output in one
 * byte, and attention runs faster; in bf16 it changes nothing. */
static void test_fp8_attention(void **state)
{
    trainsize_result fp8, fp8_attn, bf16, bf16_attn;
    (void)state;
    ts_test_estimate(LLAMA("precision", "fp8-mixed"), &fp8);
    ts_test_estimate(LLAMA("precision", "fp8-mixed", "fp8-attention", "true"), &fp8_attn);
    assert_bytes(per_layer_drop(&fp8, &fp8_attn), (2.0 - 1.0) * SEQ * (4096.0 + 1024.0 + 1024.0 + 4096.0));
    assert_true(fp8_attn.time.step_seconds < fp8.time.step_seconds);
    assert_true(fp8_attn.time.flops == fp8.time.flops);
    ts_test_estimate(LLAMA("precision", "bf16-mixed"), &bf16);
    ts_test_estimate(LLAMA("precision", "bf16-mixed", "fp8-attention", "true"), &bf16_attn);
    assert_int_equal(bf16.memory.peak_total, bf16_attn.memory.peak_total);
    assert_true(bf16.time.step_seconds == bf16_attn.time.step_seconds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_is_core_attention),
        cmocka_unit_test(test_layernorm),
        cmocka_unit_test(test_mla_up_projection),
        cmocka_unit_test(test_moe_activation),
        cmocka_unit_test(test_dense_mlp),
        cmocka_unit_test(test_moe_layer),
        cmocka_unit_test(test_only_with_selective),
        cmocka_unit_test(test_list_parsing),
        cmocka_unit_test(test_fp8_activation_store),
        cmocka_unit_test(test_fp8_attention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

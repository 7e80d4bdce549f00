/* What the 2024-2026 mechanisms add to the activations a layer keeps, term by term: each
 * estimate against the same job without the mechanism, the difference equal to the term
 * methodology.md gives ("Mechanisms in activations and FLOPs"), in the byte conventions
 * of the job (ts_conv). */
#include "job.h"
#include "stages.h"
#include "ts_test.h"
#include "ts_test_conv.h"

#define SEQ 2048.0


static double per_layer(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return (double)r.memory.activations_per_layer;
}

#define GEMMA2(...) PAIRS("model", "gemma-2-9b", "seq", "2048", "attention", "eager", __VA_ARGS__)

/* Soft-capped scores under eager attention: one more heads x s x s tensor of activations. */
static void test_softcap_scores(void **state)
{
    ts_conv c = ts_test_conventions(GEMMA2("attn-softcap", "true"));
    double with = per_layer(GEMMA2("attn-softcap", "true"));
    double without = per_layer(GEMMA2("attn-softcap", "false"));
    (void)state;
    /* whole bytes: the result rounds up once per figure */
    assert_true(with - without >= 16.0 * SEQ * SEQ * c.act - 1.0);
    assert_true(with - without <= 16.0 * SEQ * SEQ * c.act + 1.0);
}

/* Soft-capped logits: one more logits-sized tensor in the loss. */
static void test_softcap_logits(void **state)
{
    ts_conv c = ts_test_conventions(GEMMA2("logit-softcap", "true"));
    trainsize_result with, without;
    (void)state;
    ts_test_estimate(GEMMA2("logit-softcap", "true"), &with);
    ts_test_estimate(GEMMA2("logit-softcap", "false"), &without);
    assert_true(fabs((double)with.memory.activations_loss - (double)without.memory.activations_loss -
                     SEQ * 256000.0 * c.act) <= 1.0);
}

/* Four norms a layer keep two more norm inputs than two. */
static void test_norms_per_layer(void **state)
{
    ts_conv c = ts_test_conventions(PAIRS("model", "llama-3-8b", "seq", "2048"));
    double four = per_layer(PAIRS("model", "llama-3-8b", "seq", "2048", "norms-per-layer", "4"));
    double two = per_layer(PAIRS("model", "llama-3-8b", "seq", "2048"));
    (void)state;
    assert_true(fabs(four - two - 2.0 * c.norm_saved * SEQ * 4096.0) <= 1.0);
}

/* A parallel block: the MLP reads attention's normed input, so neither its norm input nor
 * its first projection's input is kept again. */
static void test_parallel_block(void **state)
{
    ts_conv c = ts_test_conventions(PAIRS("model", "falcon-7b", "seq", "2048"));
    double parallel = per_layer(PAIRS("model", "falcon-7b", "seq", "2048"));
    double sequential = per_layer(PAIRS("model", "falcon-7b", "seq", "2048", "parallel-block", "false"));
    (void)state;
    assert_true(fabs(sequential - parallel -
                     (c.norm_saved + c.fc1_in_copies * c.linear_in) * SEQ * 4544.0) <= 1.0);
}

/* MLA: keys as wide as the queries (every head its own, d = 192), values of d_v = 128,
 * and the latents' norm and up-projection inputs (1536 + 512 + 64 wide), against the same
 * model as plain attention with 128 key/value heads of 192. */
static void test_mla_terms(void **state)
{
#define V3(...) PAIRS("model", "deepseek-v3", "seq", "2048", "gpus", "64", "ep", "64", __VA_ARGS__)
    ts_conv c = ts_test_conventions(V3("recompute", "none"));
    double mla = per_layer(V3("recompute", "none"));
    double plain = per_layer(V3("recompute", "none", "kv-lora-rank", "0", "q-lora-rank", "0",
                                "v-head-dim", "0"));
    (void)state;
    /* plain: q, k, v and the output all 128 x 192; MLA: v and the output 128 x 128 */
    assert_true(fabs(plain - mla - (2.0 * c.act * SEQ * 128.0 * 64.0 -
                                    (c.norm_saved + c.linear_in) * SEQ * (1536.0 + 512.0 + 64.0))) <= 2.0);
#undef V3
}

/* The loss's kernel (cross-entropy): Llama 3 8B, 512 tokens, vocabulary 128,256. Eager with
 * loss-upcast keeps the 32-bit softmax of the logits, chunked (torchtune) the 16-bit logits,
 * fused (Liger's FusedLinearCrossEntropy) no logits but the output layer input's gradient;
 * each with the int64 targets. */
static void test_cross_entropy_kernels(void **state)
{
    trainsize_result r;
    double sb = 512.0, v = 128256.0, h = 4096.0;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-8b", "seq", "512", "cross-entropy", "eager"), &r);
    assert_int_equal(r.memory.activations_loss, (uint64_t)(4.0 * sb * v + 8.0 * sb));
    ts_test_estimate(PAIRS("model", "llama-3-8b", "seq", "512", "cross-entropy", "chunked"), &r);
    assert_int_equal(r.memory.activations_loss, (uint64_t)(2.0 * sb * v + 8.0 * sb));
    ts_test_estimate(PAIRS("model", "llama-3-8b", "seq", "512", "cross-entropy", "fused"), &r);
    assert_int_equal(r.memory.activations_loss, (uint64_t)(2.0 * sb * h + 8.0 * sb));
}

/* What an fp8 linear keeps for its weight gradient: Transformer Engine (the Megatron stacks)
 * the fp8 cast of its input, 1 byte; torchao's float8 (torchtitan, FSDP) the 16-bit input,
 * cast again in the backward (matmul_with_hp_or_float8_args). Both read 1-byte operands. */
static void test_fp8_saved_linear_inputs(void **state)
{
    ts_conv te = ts_test_conventions(PAIRS("model", "llama-3-8b", "seq", "2048", "gpu", "h100-80gb", "precision", "fp8-mixed",
                                           "stack", "megatron-core"));
    ts_conv ao = ts_test_conventions(PAIRS("model", "llama-3-8b", "seq", "2048", "gpu", "h100-80gb", "precision", "fp8-mixed",
                                           "stack", "torchtitan"));
    (void)state;
    assert_true(te.linear_in == 1.0 && te.gemm_in == 1.0);
    assert_true(ao.linear_in == 2.0 && ao.gemm_in == 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_softcap_scores),
        cmocka_unit_test(test_softcap_logits),
        cmocka_unit_test(test_norms_per_layer),
        cmocka_unit_test(test_parallel_block),
        cmocka_unit_test(test_mla_terms),
        cmocka_unit_test(test_cross_entropy_kernels),
        cmocka_unit_test(test_fp8_saved_linear_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Padding, packing and token budgets (lib/tokens.c), lengths as distributions in RL's
 * rollout and engines wider than a server (lib/rollout.c): each setting against what it
 * must change and what it must leave alone, worked where the arithmetic is short. */
#include <math.h>
#include <string.h>

#include "ts_test.h"

/* Llama-2-7B: 32 layers of 32 heads of 128, no sliding window: attention's counted forward
 * FLOPs a token are 2 x heads x (q.k + p.v widths) x layers x the keys it attends to. */
#define SFT "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "4096", \
            "micro-batch", "1", "global-batch", "64", "recompute", "none"
#define ATTENTION_PER_KEY (2.0 * 32 * (128 + 128) * 32)

/* Packing under FlashAttention: each sample attends to itself only, so attention works over
 * the samples' length; the rows are full, so nothing else changes: the matmuls, the memory
 * (a row is still seq tokens) and the tokens trained. */
static void test_packing_attends_per_sample(void **state)
{
    trainsize_result padded, packed, eager_padded, eager_packed, mean_only;
    double rows = 64.0, seq = 4096.0, sample = 512.0;
    (void)state;
    ts_test_estimate(PAIRS(SFT), &padded);
    ts_test_estimate(PAIRS(SFT, "packing", "true", "sample-tokens", "512"), &packed);
    /* forward, and backward twice: 3 x the attention of every token, over seq or the sample */
    assert_true(fabs((padded.time.step_flops - packed.time.step_flops) -
                     rows * seq * 3.0 * ATTENTION_PER_KEY * (seq - sample)) < 1e-9 * padded.time.step_flops);
    assert_true(packed.time.step_seconds < padded.time.step_seconds);
    assert_int_equal(packed.memory.peak_total, padded.memory.peak_total);
    assert_true(packed.time.tokens == padded.time.tokens);
    /* eager attention masks a seq-long square whatever the samples: nothing to save */
    ts_test_estimate(PAIRS(SFT, "attention", "eager"), &eager_padded);
    ts_test_estimate(PAIRS(SFT, "attention", "eager", "packing", "true", "sample-tokens", "512"), &eager_packed);
    assert_true(eager_packed.time.step_flops == eager_padded.time.step_flops);
    /* a mean length without packing: every sample padded to seq, computed as tokens */
    ts_test_estimate(PAIRS(SFT, "sample-tokens", "512"), &mean_only);
    assert_true(mean_only.time.step_flops == padded.time.step_flops);
}

/* A token budget: each micro-batch holds the budget's tokens whatever the samples' count
 * (memory as micro-batch 2 at seq 4096 for 8,192 tokens), and a step takes as many
 * micro-batches as its real tokens fill. */
static void test_token_budget_sizes_memory_and_micro_batches(void **state)
{
    trainsize_result budget, two, one;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS(SFT, "max-tokens-per-gpu", "8192", "sample-tokens", "1024"), &budget);
    ts_test_estimate(PAIRS(SFT, "micro-batch", "2"), &two);
    ts_test_estimate(PAIRS(SFT), &one);
    assert_int_equal(budget.memory.activations, two.memory.activations);
    assert_true(budget.memory.activations > one.memory.activations);
    /* 64 sequences of 1,024 real tokens over 8 ranks: 8,192 a rank, one micro-batch */
    assert_int_equal(budget.gradient_accumulation, 1);
    assert_true(fabs(budget.time.tokens - 64.0 * 1024.0) < 1e-6);
    /* the same sequences padded to seq: four times the tokens computed */
    assert_true(fabs(one.time.tokens - 64.0 * 4096.0) < 1e-6);
    /* every sequence must fit a micro-batch; the batch splits over the ranks */
    assert_int_equal(ts_test_estimate_rc(PAIRS(SFT, "max-tokens-per-gpu", "2048"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "max-tokens-per-gpu");
    assert_int_equal(ts_test_estimate_rc(PAIRS(SFT, "max-tokens-per-gpu", "8192", "global-batch", "60"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "global-batch");
    assert_int_equal(ts_test_estimate_rc(PAIRS(SFT, "sample-tokens", "5000"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "sample-tokens");
}

#define RL "model", "qwen2.5-7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "4096", \
           "response-tokens", "3072", "global-batch", "512", "micro-batch", "1", "method", "grpo"

/* Responses of a mean length: the decode work and the KV traffic follow the mean, the
 * longest still bounds the tail; a mean equal to the longest changes nothing. Without
 * padding the training passes follow the real tokens too. */
static void test_response_lengths_as_a_distribution(void **state)
{
    trainsize_result longest, same, mean, mean_budget;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS(RL), &longest);
    ts_test_estimate(PAIRS(RL, "response-tokens-mean", "3072"), &same);
    ts_test_estimate(PAIRS(RL, "response-tokens-mean", "600"), &mean);
    ts_test_estimate(PAIRS(RL, "response-tokens-mean", "600", "max-tokens-per-gpu", "16384"), &mean_budget);
    assert_true(same.time.rollout_seconds == longest.time.rollout_seconds);
    /* one wave of 64 sequences an engine: the decode runs until the longest ends, reading
     * the 16-bit weights (2 bytes x 7.6B) each of its 3,072 steps at 80 % of 3.35 TB/s;
     * shorter responses save their KV traffic and FLOPs, not those steps */
    assert_true(mean.time.rollout_seconds < 0.8 * longest.time.rollout_seconds);
    assert_true(mean.time.rollout_seconds > 3072.0 * 2.0 * (double)mean.model.parameters / (3350e9 * 0.8));
    /* padded, the training passes compute seq tokens a sequence; without padding, the
     * longest prompt (1,024) and the mean response (600) */
    assert_true(fabs(mean.time.tokens - 512.0 * 4096.0) < 1e-6);
    assert_true(fabs(mean_budget.time.tokens - 512.0 * (1024.0 + 600.0)) < 1e-6);
    assert_true(mean_budget.time.step_seconds < mean.time.step_seconds);
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "response-tokens-mean", "3073"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "response-tokens-mean");
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "response-tokens-mean", "600", "sample-tokens", "600"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "sample-tokens");
}

/* The log-probability passes' own budget (verl's log_prob_max_token_len_per_gpu): forward
 * only, their logits over Qwen2.5's 152,064-token vocabulary, 16-bit and an fp32 copy (6
 * bytes a token and a logit), beside the model state: with a large budget they set the peak,
 * and every token more adds exactly that. */
static void test_log_prob_budget(void **state)
{
    trainsize_result small, large, larger;
    (void)state;
    ts_test_estimate(PAIRS(RL, "max-tokens-per-gpu", "8192", "log-prob-max-tokens-per-gpu", "8192"), &small);
    ts_test_estimate(PAIRS(RL, "max-tokens-per-gpu", "8192", "log-prob-max-tokens-per-gpu", "98304"), &large);
    ts_test_estimate(PAIRS(RL, "max-tokens-per-gpu", "8192", "log-prob-max-tokens-per-gpu", "131072"), &larger);
    assert_int_equal(large.memory.peak_phase, TRAINSIZE_PHASE_LOG_PROB);
    assert_true(small.memory.peak_phase != TRAINSIZE_PHASE_LOG_PROB);
    assert_true(fabs((double)(larger.memory.peak_allocated - large.memory.peak_allocated) - 32768.0 * 152064.0 * 6.0) <=
                2.0);
}

/* The KV cache bounds how many sequences an engine runs at once: a larger share of the GPU
 * runs more of them, in fewer waves, each reading the weights once a decode step. */
static void test_kv_cache_bounds_the_engine(void **state)
{
    trainsize_result small, large;
    (void)state;
    ts_test_estimate(PAIRS(RL, "model", "llama-2-7b", "rollout-memory-share", "0.3"), &small);
    ts_test_estimate(PAIRS(RL, "model", "llama-2-7b", "rollout-memory-share", "0.9"), &large);
    assert_true(large.time.rollout_seconds < small.time.rollout_seconds);
}

/* verl's rollout tensor parallelism 16 across two servers for a 72B policy on 32 GPUs: the
 * engine's decode all-reduces cross the network, the weights are gathered every step, and
 * the job fits (verl's actor reduce-scatters every micro-batch: grad-sync auto). */
#define RL72 "model", "qwen2.5-72b", "gpu", "h100-80gb", "gpus", "32", "zero", "3", "seq", "2048", \
             "response-tokens", "1024", "global-batch", "512", "recompute", "full", "method", "grpo"

static void test_rollout_across_servers(void **state)
{
    trainsize_result wide, inside;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "16"), &wide);
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "8"), &inside);
    assert_true(wide.memory.fits);
    assert_true(wide.rollout_network_seconds > 0.0 && inside.rollout_network_seconds == 0.0);
    assert_true(wide.rollout_sync_seconds > 0.0);
    assert_true(wide.time.rollout_seconds >= wide.rollout_sync_seconds + wide.rollout_network_seconds);
    /* half the weights an engine GPU holds */
    assert_true(fabs((double)inside.memory.rollout_weights / (double)wide.memory.rollout_weights - 2.0) < 1e-6);
    /* an engine takes part of a server or whole servers, and the engines tile the GPUs */
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL72, "rollout-tp", "12"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-tp");
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL72, "gpus", "24", "global-batch", "480", "rollout-tp", "16"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-tp");
}

/* Pipeline stages in an engine (rollout-pp): a 72B engine of tp 8 x pp 2 holds half the
 * weights a GPU of tp 8 alone; where the KV cache does not bind, one such engine generates
 * exactly as fast as two of tp 8 (each GPU reads its stage's weights once for each of the
 * stages' batches in flight); where it binds, the room the stages free runs more sequences
 * at once, and the step is shorter. The engines tile the GPUs with their stages. */
static void test_rollout_pipeline_stages(void **state)
{
    trainsize_result tp8, staged, bound, bound_staged;
    trainsize_error err;
    (void)state;
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "8", "rollout-memory-share", "0.9"), &tp8);
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "8", "rollout-pp", "2", "rollout-memory-share", "0.9"), &staged);
    assert_true(fabs((double)tp8.memory.rollout_weights / (double)staged.memory.rollout_weights - 2.0) < 1e-6);
    assert_true(fabs(staged.time.rollout_seconds - staged.rollout_sync_seconds -
                     (tp8.time.rollout_seconds - tp8.rollout_sync_seconds)) < 1e-9 * tp8.time.rollout_seconds);
    /* a 0.3 share leaves 72B's tp-8 engines little KV cache: stages make room */
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "8", "rollout-memory-share", "0.3"), &bound);
    ts_test_estimate(PAIRS(RL72, "rollout-tp", "8", "rollout-pp", "2", "rollout-memory-share", "0.3"), &bound_staged);
    assert_true(bound_staged.time.rollout_seconds < bound.time.rollout_seconds);
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL72, "rollout-tp", "8", "rollout-pp", "3"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-pp");
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL72, "gpus", "24", "global-batch", "480", "rollout-tp", "8",
                                               "rollout-pp", "2"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-pp");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_packing_attends_per_sample),
        cmocka_unit_test(test_token_budget_sizes_memory_and_micro_batches),
        cmocka_unit_test(test_response_lengths_as_a_distribution),
        cmocka_unit_test(test_log_prob_budget),
        cmocka_unit_test(test_kv_cache_bounds_the_engine),
        cmocka_unit_test(test_rollout_across_servers),
        cmocka_unit_test(test_rollout_pipeline_stages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

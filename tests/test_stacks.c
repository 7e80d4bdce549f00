/* Training stacks (docs/methodology.md, "Which stack"): which one auto picks and why, the
 * framework a stack implies, and that a setting given explicitly wins over the stack's
 * default. */
#include "ts_test.h"
#include "stages.h"

static void expect_stack(const char *const *pairs, const char *stack, const char *framework, const char *why)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    assert_string_equal(r.stack, stack);
    assert_string_equal(r.framework, framework);
    if (why && !strstr(r.stack_reason, why)) fail_msg("stack_reason \"%s\" lacks \"%s\"", r.stack_reason, why);
}

static void test_auto_follows_the_job(void **state)
{
    (void)state;
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "2"), "megatron-core", "megatron", "NeMo");
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"), "fsdp", "pytorch", "FSDP");
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "1"), "deepspeed", "deepspeed", "DeepSpeed");
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8"), "hf", "pytorch", "Hugging Face");
    expect_stack(PAIRS("model", "llama-2-7b", "lora-rank", "16"), "hf", "pytorch", NULL);
    /* a framework given explicitly names the stack its published runs were calibrated on */
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "2", "framework", "megatron"), "megatron-lm",
                 "megatron", "published");
}

static void test_a_stack_sets_the_framework(void **state)
{
    (void)state;
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "2", "stack", "torchtitan"), "torchtitan",
                 "pytorch", "stack option");
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "stack", "nanotron"), "nanotron", "megatron", NULL);
    /* the framework option still wins for the bytes */
    expect_stack(PAIRS("model", "llama-2-7b", "gpus", "8", "stack", "megatron-core", "framework", "pytorch"),
                 "megatron-core", "pytorch", NULL);
}

static double comm(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.time.comm_seconds;
}

static double compute(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.time.step_seconds - r.time.comm_seconds;
}

/* Megatron-Core's overlaps and every NIC, given back one by one, are Megatron-LM's. */
static void test_explicit_settings_win(void **state)
{
#define PP "model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "32", "tp", "2", "pp", "2", "zero", "1", \
           "network", "ib-hdr", "global-batch", "64"
    (void)state;
    assert_true(comm(PAIRS(PP, "stack", "megatron-core")) < comm(PAIRS(PP, "stack", "megatron-lm")));
    ts_assert_near(comm(PAIRS(PP, "stack", "megatron-core", "dp-overlap", "no", "tp-overlap", "no", "dp-nics", "own")),
                   comm(PAIRS(PP, "stack", "megatron-lm")), 1e-12);
    /* fused kernels: the Hugging Face Trainer with Liger's (fused-kernels yes) computes faster */
    assert_true(compute(PAIRS("model", "llama-3-8b", "gpus", "1", "stack", "hf", "fused-kernels", "yes")) <
                compute(PAIRS("model", "llama-3-8b", "gpus", "1", "stack", "hf")));
    /* and keeps a fused stack's activations (Megatron-LM's counts), eager ones Hugging Face's */
    {
        trainsize_result fused, eager, megatron;
        ts_test_estimate(PAIRS("model", "llama-3-8b", "gpus", "1", "stack", "hf", "fused-kernels", "yes"), &fused);
        ts_test_estimate(PAIRS("model", "llama-3-8b", "gpus", "1", "stack", "hf"), &eager);
        ts_test_estimate(PAIRS("model", "llama-3-8b", "gpus", "1", "stack", "megatron-core", "fused-kernels", "no"),
                         &megatron);
        assert_true(fused.memory.activations_per_layer < eager.memory.activations_per_layer);
        assert_true(megatron.memory.activations_per_layer > fused.memory.activations_per_layer);
    }
#undef PP
}

/* FSDP with a pipeline runs under torchtitan (FSDP2: reshard_after_forward off with a
 * pipeline, resharding and the gradients' reduce-scatter deferred to the last micro-batch):
 * the stage's 16-bit weights stay gathered beside the fp32 shards, its gradients unsharded,
 * and the weights are gathered and the gradients reduced once a step, whatever the
 * micro-batches. Megatron-Core and DeepSpeed refuse the layout. */
static void test_fsdp_with_a_pipeline(void **state)
{
#define FP "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "16", "pp", "2", "zero", "3", "seq", "2048"
    trainsize_result r;
    trainsize_error err;
    double stage;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(FP), &err), TRAINSIZE_E_UNSUPPORTED);
    assert_non_null(strstr(err.message, "--stack torchtitan"));
    ts_test_estimate(PAIRS(FP, "stack", "torchtitan", "global-batch", "16"), &r);
    assert_int_equal(r.layout.zero, 3);
    /* the first stage: its 16 layers and the embedding (a stage of a 2-stage split) */
    stage = (double)r.model.layer_parameters * 16.0 + (double)r.model.embedding_parameters / 2.0;
    assert_true(r.memory.weights > stage * (4.0 / 8.0 + 2.0) * 0.95 && r.memory.weights < stage * (4.0 / 8.0 + 2.0) * 1.1);
    assert_true(r.memory.gradients > stage * 4.0 * 0.95);
    /* 4 times the micro-batches add only the pipeline's sends, as under ZeRO-1 */
    ts_assert_near(comm(PAIRS(FP, "stack", "torchtitan", "global-batch", "64", "dp-overlap", "no")) -
                       comm(PAIRS(FP, "stack", "torchtitan", "global-batch", "16", "dp-overlap", "no")),
                   comm(PAIRS(FP, "stack", "torchtitan", "global-batch", "64", "dp-overlap", "no", "zero", "1")) -
                       comm(PAIRS(FP, "stack", "torchtitan", "global-batch", "16", "dp-overlap", "no", "zero", "1")),
                   1e-12);
#undef FP
}

/* grad-sync micro-batch with a pipeline: the job reduce-scatters each micro-batch's
 * gradients itself (Llama 3's 4D parallelism, Dubey et al. 2024, arXiv 2407.21783, §3.3.2:
 * FSDP shards the gradients, the weights stay gathered), so the stage keeps a 1/D shard of
 * them, and the reduce-scatters, one per micro-batch, grow with the micro-batches where the
 * step's one reduction did not. */
static void test_fsdp_pipeline_sharding_its_gradients(void **state)
{
#define FP "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "16", "pp", "2", "zero", "3", "seq", "2048", \
           "stack", "torchtitan", "dp-overlap", "no"
    trainsize_result step, each;
    (void)state;
    ts_test_estimate(PAIRS(FP, "global-batch", "16"), &step);
    ts_test_estimate(PAIRS(FP, "global-batch", "16", "grad-sync", "micro-batch"), &each);
    /* dense_shard is the 8 data-parallel ranks: the gradients shrink 8-fold, nothing else */
    ts_assert_near((double)each.memory.gradients, (double)step.memory.gradients / 8.0,
                   (double)step.memory.gradients * 1e-3);
    assert_int_equal(each.memory.weights, step.memory.weights);
    /* 16 samples over 8 data-parallel ranks: 2 micro-batches, 2 reduce-scatters against 1 */
    assert_true(comm(PAIRS(FP, "global-batch", "16", "grad-sync", "micro-batch")) >
                comm(PAIRS(FP, "global-batch", "16")));
    /* with 4 times the micro-batches the difference grows: each adds one reduce-scatter */
    assert_true(comm(PAIRS(FP, "global-batch", "64", "grad-sync", "micro-batch")) - comm(PAIRS(FP, "global-batch", "64")) >
                2.0 * (comm(PAIRS(FP, "global-batch", "16", "grad-sync", "micro-batch")) -
                       comm(PAIRS(FP, "global-batch", "16"))));
#undef FP
}

/* nanotron's LLaMA (huggingface/nanotron@0e0a27e, models/llama.py) keeps (20h + 8f)/t bytes a
 * token a layer with multi-head attention (its unfused SwiGLU, the qkv output kept through
 * flash-attn's view), plus flash's fp32 log-sum-exp per head; its bf16 .grad sits beside the
 * fp32 buffer at the end of a backward, and without ZeRO DDP's bf16 bucket too. */
static void test_nanotron_keeps_what_its_code_keeps(void **state)
{
#define NT "model", "llama-2-7b", "kv-heads", "0", "gpus", "8", "seq", "4096", "stack"
    trainsize_result nano, core;
    double h = 4096.0, f = 11008.0;
    (void)state;
    ts_test_estimate(PAIRS(NT, "nanotron"), &nano);
    ts_test_estimate(PAIRS(NT, "megatron-core"), &core);
    ts_assert_near((double)nano.memory.activations_per_layer / 4096.0, 20.0 * h + 8.0 * f + 4.0 * 32.0, 1.0);
    assert_true(nano.memory.activations_per_layer > core.memory.activations_per_layer);
    /* the same model state; more at the peak (the bucket and the bf16 gradients) */
    assert_int_equal(nano.memory.gradients, core.memory.gradients);
    assert_true(nano.memory.transient >= core.memory.transient + (uint64_t)(6738415616.0 * 2.0 * 0.99));
#undef NT
}

/* nanotron's ZeRO-1 gathers the updated weights through flat buffers of the rank's slices
 * and the dp outputs, 2 (1 + 1/dp) bytes a parameter at the step (optim/zero.py,
 * distributed.py all_gather_coalesced @ 0e0a27e); they take segments of their own beside
 * the forward and backward's cached blocks, so they add to what is reserved when the
 * forward-backward is the peak, not to what is allocated. */
static void test_nanotron_zero1_gather_buffers(void **state)
{
#define NZ "model", "llama-2-7b", "gpus", "8", "seq", "4096", "micro-batch", "1", "zero", "1"
    trainsize_result nano, core;
    (void)state;
    ts_test_estimate(PAIRS(NZ, "stack", "nanotron"), &nano);
    ts_test_estimate(PAIRS(NZ, "stack", "megatron-core"), &core);
    assert_int_equal(nano.memory.peak_phase, TRAINSIZE_PHASE_FORWARD_BACKWARD);
    ts_assert_near((double)nano.memory.allocator_slack - 0.07 * (double)nano.memory.peak_allocated,
                   2.0 * (1.0 + 1.0 / 8.0) * (double)nano.model.parameters, 1e6);
    ts_assert_near((double)core.memory.allocator_slack, 0.07 * (double)core.memory.peak_allocated, 2.0);
#undef NZ
}

/* nanotron's ZeRO-1 keeps no DDP bucket and all-reduces its fp32 gradient buffer after the
 * backward (trainer.py sync_gradients_across_dp @ 0e0a27e): nothing overlaps it, as
 * dp-overlap no; without ZeRO its DDP buckets overlap the backward as dp-overlap auto. */
static void test_nanotron_zero1_reduces_after_the_backward(void **state)
{
#define NR "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "32", "network", "eth-400g", "stack", "nanotron"
    (void)state;
    ts_assert_near(comm(PAIRS(NR, "zero", "1")), comm(PAIRS(NR, "zero", "1", "dp-overlap", "no")), 1e-12);
    assert_true(comm(PAIRS(NR, "zero", "1")) > comm(PAIRS(NR, "zero", "1", "dp-overlap", "yes")));
    assert_true(comm(PAIRS(NR, "zero", "0")) < comm(PAIRS(NR, "zero", "0", "dp-overlap", "no")));
#undef NR
}

/* The name functions return entries as wide as the result's fields, which the estimate
 * copies whole (stages.h): each is its option's choice of that index (the choices are the
 * one spelling of the names), leaves room for its NUL, and a value out of range gives the
 * default. */
static void check_names(int id, const char *(*name)(int), size_t width, const char *out_of_range)
{
    const trainsize_param_info *info = trainsize_param_by_id(id);
    const char *p;
    int i = 0;
    assert_non_null(info);
    p = info->choices;
    while (*p) {
        size_t len = strcspn(p, "|");
        assert_true(len < width);
        assert_int_equal(strlen(name(i)), len);
        assert_memory_equal(name(i), p, len);
        p += len + (p[len] == '|');
        i++;
    }
    assert_true(i >= 3);
    assert_string_equal(name(i), out_of_range);
    assert_string_equal(name(-1), out_of_range);
}

static void test_names_fit_their_fields(void **state)
{
    (void)state;
    check_names(TRAINSIZE_ID_STACK, ts_stack_name, TS_NAME_WIDTH(stack), "auto");
    check_names(TRAINSIZE_ID_PP_SCHEDULE, ts_pp_schedule_name, TS_NAME_WIDTH(pp_schedule), "auto");
    check_names(TRAINSIZE_ID_FP8_RECIPE, ts_fp8_recipe_name, TS_NAME_WIDTH(fp8_recipe), "");
    check_names(TRAINSIZE_ID_FRAMEWORK, ts_framework_name, TS_NAME_WIDTH(framework), "auto");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_follows_the_job),
        cmocka_unit_test(test_names_fit_their_fields),
        cmocka_unit_test(test_a_stack_sets_the_framework),
        cmocka_unit_test(test_explicit_settings_win),
        cmocka_unit_test(test_fsdp_with_a_pipeline),
        cmocka_unit_test(test_fsdp_pipeline_sharding_its_gradients),
        cmocka_unit_test(test_nanotron_keeps_what_its_code_keeps),
        cmocka_unit_test(test_nanotron_zero1_gather_buffers),
        cmocka_unit_test(test_nanotron_zero1_reduces_after_the_backward),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Properties any memory model must have, checked over many configurations. */
#include <stdlib.h>

#include "ts_test.h"

static uint64_t state_bytes(const trainsize_result *r)
{
    return r->memory.weights + r->memory.gradients + r->memory.optimizer;
}

static void test_memory_grows_with_batch_and_sequence(void **state)
{
    static const char *models[] = {"gpt2", "llama-2-7b", "mixtral-8x7b", "gemma-2b"};
    static const char *attn[] = {"flash", "eager"};
    size_t m, a;
    (void)state;
    /* Sequences within every model's positions (GPT-2 has 1024 learned ones). */
    for (m = 0; m < 4; m++)
        for (a = 0; a < 2; a++) {
            trainsize_result small, batch, seq;
            ts_test_estimate(PAIRS("model", models[m], "framework", "megatron", "attention", attn[a],
                                   "micro-batch", "1", "seq", "512"), &small);
            ts_test_estimate(PAIRS("model", models[m], "framework", "megatron", "attention", attn[a],
                                   "micro-batch", "2", "seq", "512"), &batch);
            ts_test_estimate(PAIRS("model", models[m], "framework", "megatron", "attention", attn[a],
                                   "micro-batch", "1", "seq", "1024"), &seq);
            assert_true(batch.memory.activations > small.memory.activations);
            assert_true(seq.memory.activations > small.memory.activations);
            assert_true(batch.memory.peak_allocated > small.memory.peak_allocated);
            assert_true(seq.memory.peak_allocated > small.memory.peak_allocated);
            /* Activations are linear in the batch (under Megatron's conventions: autocast's
             * weight copies, counted with the activations, do not grow with it). */
            assert_true(llabs((long long)batch.memory.activations_layers -
                              2 * (long long)small.memory.activations_layers) <= 2);
        }
}

static void test_zero3_model_state_shrinks_as_one_over_dp(void **state)
{
    static const char *gpus[] = {"1", "2", "4", "8", "16", "64", "256"};
    size_t i;
    trainsize_result one;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-13b", "zero", "3", "gpus", "1"), &one);
    for (i = 1; i < 7; i++) {
        trainsize_result r;
        double n = atof(gpus[i]);
        ts_test_estimate(PAIRS("model", "llama-2-13b", "zero", "3", "gpus", gpus[i]), &r);
        assert_true(fabs((double)state_bytes(&r) * n - (double)state_bytes(&one)) <= 3.0 * n);
    }
}

static void test_recompute_never_adds_activation_memory(void **state)
{
    static const char *models[] = {"gpt2", "llama-3-8b", "mixtral-8x7b", "qwen2.5-7b"};
    static const char *fw[] = {"megatron", "deepspeed", "pytorch"};
    static const char *attn[] = {"flash", "eager"};
    size_t m, f, a;
    (void)state;
    for (m = 0; m < 4; m++)
        for (f = 0; f < 3; f++)
            for (a = 0; a < 2; a++) {
                trainsize_result none, sel, full, perop;
                ts_test_estimate(PAIRS("model", models[m], "framework", fw[f], "attention", attn[a],
                                       "recompute", "none"), &none);
                ts_test_estimate(PAIRS("model", models[m], "framework", fw[f], "attention", attn[a],
                                       "recompute", "selective"), &sel);
                ts_test_estimate(PAIRS("model", models[m], "framework", fw[f], "attention", attn[a],
                                       "recompute", "full"), &full);
                ts_test_estimate(PAIRS("model", models[m], "framework", fw[f], "attention", attn[a],
                                       "recompute", "per-op"), &perop);
                assert_true(sel.memory.activations <= none.memory.activations);
                assert_true(full.memory.activations <= sel.memory.activations);
                assert_true(full.memory.activations_per_layer < none.memory.activations_per_layer);
                /* per-op between full and none; the planner rules a layout out on full's
                 * peak, which must not exceed per-op's */
                assert_true(perop.memory.activations < none.memory.activations);
                assert_true(full.memory.activations < perop.memory.activations);
                assert_true(full.memory.peak_total <= perop.memory.peak_total);
            }
}

static void test_more_gpus_never_raise_model_state(void **state)
{
    static const char *zero[] = {"0", "1", "2", "3"};
    static const char *gpus[] = {"8", "16", "32", "64"};
    size_t z, g;
    (void)state;
    for (z = 0; z < 4; z++) {
        uint64_t prev = UINT64_MAX;
        for (g = 0; g < 4; g++) {
            trainsize_result r;
            ts_test_estimate(PAIRS("model", "llama-2-70b", "zero", zero[z], "gpus", gpus[g], "tp",
                                   "8"), &r);
            assert_true(state_bytes(&r) <= prev);
            prev = state_bytes(&r);
        }
    }
}

static void test_totals_add_up(void **state)
{
    static const char *models[] = {"gpt2", "llama-2-7b", "mixtral-8x22b"};
    size_t m;
    (void)state;
    for (m = 0; m < 3; m++) {
        trainsize_result r;
        ts_test_estimate(PAIRS("model", models[m], "gpus", "16", "tp", "2", "pp", "2", "zero", "1"),
                         &r);
        assert_int_equal(r.memory.overhead,
                         r.memory.cuda_context + r.memory.comm_buffers + r.memory.allocator_slack);
        assert_int_equal(r.memory.peak_total, r.memory.peak_allocated + r.memory.overhead);
        assert_true(r.memory.activations >= r.memory.activations_layers);
        assert_true(r.memory.optimizer >= r.memory.master_weights);
        assert_int_equal(r.memory.fits, r.memory.peak_total <= r.memory.gpu_capacity);
        assert_true(r.memory.peak_allocated >= r.memory.weights + r.memory.optimizer);
    }
}

/* The peak is exactly the parts the flags name: weights + optimizer + transient, plus
 * gradients and activations when included (each part rounded up once: within 4 bytes). */
static void test_peak_is_the_sum_of_its_parts(void **state)
{
    static const char *fw[] = {"megatron", "deepspeed", "pytorch"};
    static const char *zero[] = {"0", "1", "2", "3"};
    static const char *seq[] = {"16", "4096"};
    size_t f, z, s;
    (void)state;
    for (f = 0; f < 3; f++)
        for (z = 0; z < 4; z++)
            for (s = 0; s < 2; s++) {
                trainsize_result r;
                uint64_t sum;
                ts_test_estimate(PAIRS("model", "llama-2-7b", "framework", fw[f], "zero", zero[z],
                                       "gpus", "8", "seq", seq[s]), &r);
                sum = r.memory.weights + r.memory.optimizer + r.memory.transient +
                      (r.memory.peak_includes_gradients ? r.memory.gradients : 0) +
                      (r.memory.peak_includes_activations ? r.memory.activations : 0);
                assert_true(r.memory.peak_allocated + 4 >= sum && sum + 4 >= r.memory.peak_allocated);
    }
}

/* Tensor parallelism splits per-GPU model state; sequence parallelism and CPU offload
 * only ever lower the GPU's share. */
static void test_parallelism_and_offload_lower_gpu_memory(void **state)
{
    trainsize_result tp1, tp8, sp, off, off_p;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "8", "tp", "1", "zero", "1"), &tp1);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "8", "tp", "8", "zero", "1"), &tp8);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "8", "tp", "8", "zero", "1", "sp", "true"),
                     &sp);
    assert_true(state_bytes(&tp8) < state_bytes(&tp1));
    assert_true(sp.memory.activations < tp8.memory.activations);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "8", "zero", "3", "offload", "optimizer"),
                     &off);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpus", "8", "zero", "3", "offload",
                           "optimizer+params"), &off_p);
    assert_int_equal(off.memory.optimizer, 0);
    assert_true(off.memory.host_offload > 0);
    assert_int_equal(off_p.memory.weights, 0);
    assert_true(off_p.memory.host_offload > off.memory.host_offload);
}

/* LoRA trains a small share; QLoRA's nf4 base takes ~4.13 bits per layer weight. */
static void test_lora_and_qlora(void **state)
{
    trainsize_result full, lora, qlora;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b"), &full);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "lora-rank", "16"), &lora);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "lora-rank", "16", "quantize-base", "nf4"), &qlora);
    /* q and v adapters: 32 layers x 16 x ((4096 + 4096) x 2) = 8,388,608 (PEFT prints it). */
    assert_int_equal(lora.model.trainable_parameters, 8388608ull);
    assert_true(lora.memory.optimizer < full.memory.optimizer / 100);
    assert_true(lora.memory.activations < full.memory.activations);
    assert_true(qlora.memory.weights < lora.memory.weights / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_grows_with_batch_and_sequence),
        cmocka_unit_test(test_zero3_model_state_shrinks_as_one_over_dp),
        cmocka_unit_test(test_recompute_never_adds_activation_memory),
        cmocka_unit_test(test_more_gpus_never_raise_model_state),
        cmocka_unit_test(test_totals_add_up),
        cmocka_unit_test(test_peak_is_the_sum_of_its_parts),
        cmocka_unit_test(test_parallelism_and_offload_lower_gpu_memory),
        cmocka_unit_test(test_lora_and_qlora),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

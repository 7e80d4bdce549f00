/* The framework conventions: which ones --framework auto picks and why, and the mechanisms
 * of real runs that depend on them (docs/methodology.md, "Which framework" and "Mechanisms
 * of fine-tuning runs"). Expected bytes are worked out by hand from the model's shape. */
#include "ts_test.h"

/* Llama-2-7B: hidden 4096, ffn 11008, 32 layers, vocab 32000, untied. */
#define L2_EMBED (32000.0 * 4096.0)
#define L2_NORMS (65.0 * 4096.0) /* two per layer and the final one */

static void check_auto(const char *const *pairs, const char *framework, const char *reason_word)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    assert_string_equal(r.framework, framework);
    if (!strstr(r.framework_reason, reason_word))
        fail_msg("reason \"%s\" lacks \"%s\"", r.framework_reason, reason_word);
}

static void test_auto_rules(void **state)
{
    (void)state;
    check_auto(PAIRS("model", "llama-2-7b"), "pytorch", "one GPU");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8"), "pytorch", "data parallel");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "1"), "deepspeed", "ZeRO stage 1 or 2");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"), "pytorch", "FSDP");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "2", "offload", "optimizer"),
               "deepspeed", "offload");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "lora-rank", "8"), "pytorch", "PEFT");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "2"), "megatron", "Megatron-LM");
    check_auto(PAIRS("model", "llama-2-7b", "gpus", "8", "pp", "2", "lora-rank", "8"), "megatron",
               "Megatron-LM");
    check_auto(PAIRS("model", "llama-2-7b", "framework", "deepspeed"), "deepspeed", "option");
}

/* The auto choice gives exactly the figures of the framework it names. */
static void test_auto_equals_named(void **state)
{
    trainsize_result a, b;
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt2-xl", "micro-batch", "4"), &a);
    ts_test_estimate(PAIRS("model", "gpt2-xl", "micro-batch", "4", "framework", "pytorch"), &b);
    assert_int_equal(a.memory.peak_total, b.memory.peak_total);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "16", "tp", "8"), &a);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "16", "tp", "8", "framework", "megatron"), &b);
    assert_int_equal(a.memory.peak_total, b.memory.peak_total);
}

/* FSDP's no_sync keeps every rank's gradients unsharded until the last micro-batch. */
static void test_grad_sync(void **state)
{
    trainsize_result step, micro, one;
    (void)state;
#define Z3 "model", "llama-2-7b", "gpus", "8", "zero", "3", "framework", "pytorch"
    ts_test_estimate(PAIRS(Z3, "global-batch", "32"), &step); /* 4 micro-batches, auto: step */
    ts_test_estimate(PAIRS(Z3, "global-batch", "32", "grad-sync", "micro-batch"), &micro);
    ts_test_estimate(PAIRS(Z3), &one);                         /* no accumulation */
    assert_int_equal(step.memory.gradients, 8 * micro.memory.gradients);
    assert_int_equal(one.memory.gradients, micro.memory.gradients);
    ts_test_estimate(PAIRS(Z3, "global-batch", "32", "framework", "deepspeed"), &micro);
    assert_int_equal(micro.memory.gradients * 8, (uint64_t)(6738415616.0 * 2.0)); /* 16-bit, sharded */
#undef Z3
}

/* bitsandbytes' 4-bit linears keep their input even where no adapter needs it: with LoRA
 * on q and v only, the o, gate/up and down inputs of every layer (16-bit, one copy each;
 * flash attention's output copy feeds o). */
static void test_quantized_linears_keep_input(void **state)
{
    trainsize_result keep, drop;
    double sb = 512.0, per_layer = 2.0 * sb * (4096.0 + 4096.0 + 11008.0);
    (void)state;
#define QL "model", "llama-2-7b", "seq", "512", "lora-rank", "8", "quantize-base", "nf4", "kbit-upcast", \
           "no", "recompute", "none" /* every layer's inputs kept: no checkpointing */
    ts_test_estimate(PAIRS(QL), &keep);
    ts_test_estimate(PAIRS(QL, "quantize-keeps-input", "false"), &drop);
    assert_int_equal(keep.memory.activations - drop.memory.activations, (uint64_t)(32.0 * per_layer));
#undef QL
}

/* QLoRA recomputes unless told otherwise, as PEFT's prepare_model_for_kbit_training turns
 * gradient checkpointing on (use_gradient_checkpointing=True by default) and the usual
 * QLoRA recipes keep it: before, the typical job (Llama 2 13B in NF4 on one 24 GB card at
 * seq 4096) first showed DOES NOT FIT. LoRA alone and a recompute the caller set are kept. */
static void test_qlora_recomputes_by_default(void **state)
{
    trainsize_result r;
    (void)state;
#define QL13 "model", "llama-2-13b", "gpu", "rtx-4090", "seq", "4096", "lora-rank", "16", \
             "quantize-base", "nf4"
    ts_test_estimate(PAIRS(QL13), &r);
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_FULL);
    assert_true(r.memory.fits);
    assert_non_null(strstr(r.framework_reason, "recomputing"));
    assert_int_equal(r.framework_reason[strlen(r.framework_reason) - 1], ')'); /* not cut */
    ts_test_estimate(PAIRS(QL13, "recompute", "none"), &r);
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_NONE);
    assert_false(r.memory.fits);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "lora-rank", "16"), &r); /* LoRA alone */
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_NONE);
    ts_test_estimate(PAIRS(QL13, "framework", "deepspeed"), &r); /* another stack's default */
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_NONE);
#undef QL13
}

/* prepare_model_for_kbit_training: embeddings, output layer and norms go from 16 to 32 bits. */
static void test_kbit_upcast(void **state)
{
    trainsize_result up, no;
    (void)state;
#define QL "model", "llama-2-7b", "lora-rank", "8", "quantize-base", "nf4"
    ts_test_estimate(PAIRS(QL), &up); /* auto: yes under the pytorch framework */
    ts_test_estimate(PAIRS(QL, "kbit-upcast", "no"), &no);
    assert_int_equal(up.memory.weights - no.memory.weights, (uint64_t)(2.0 * (2.0 * L2_EMBED + L2_NORMS)));
    ts_test_estimate(PAIRS(QL, "framework", "deepspeed"), &up); /* auto: no elsewhere */
    ts_test_estimate(PAIRS(QL, "framework", "deepspeed", "kbit-upcast", "no"), &no);
    assert_int_equal(up.memory.weights, no.memory.weights);
#undef QL
}

/* A LoRA base loaded in fp32 doubles the frozen weights. */
static void test_base_dtype(void **state)
{
    trainsize_result fp32, half;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "lora-rank", "8", "base-dtype", "fp32"), &fp32);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "lora-rank", "8"), &half);
    assert_true(fp32.memory.weights > half.memory.weights);
    assert_int_equal(fp32.memory.weights - half.memory.weights,
                     (uint64_t)(2.0 * (6738415616.0)));
}

/* Loading the whole model onto every GPU in fp32 before FSDP shards it sets the peak. */
static void test_loading_phase(void **state)
{
    trainsize_result r, cpu;
    (void)state;
#define Z3 "model", "llama-2-7b", "gpus", "8", "zero", "3"
    ts_test_estimate(PAIRS(Z3, "loading", "gpu", "load-dtype", "fp32"), &r);
    ts_test_estimate(PAIRS(Z3), &cpu);
    assert_int_equal(r.memory.loading_peak, (uint64_t)(6738415616.0 * 4.0));
    assert_int_equal(r.memory.peak_phase, TRAINSIZE_PHASE_LOADING);
    assert_int_equal(r.memory.peak_allocated, r.memory.loading_peak);
    assert_int_equal(cpu.memory.loading_peak, 0);
    assert_true(cpu.memory.peak_allocated < r.memory.peak_allocated);
#undef Z3
}

/* FSDP's root unit (embedding, final norm, output layer) stays gathered: ZeRO-3 under
 * PyTorch holds it in 16 bits on top of DeepSpeed's gathers. */
static void test_fsdp_root_unit(void **state)
{
    trainsize_result fsdp;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "lora-rank", "8",
                           "attention", "flash"), &fsdp);
    assert_true(fsdp.memory.transient >= (uint64_t)(2.0 * 2.0 * L2_EMBED));
}

/* With whole layers as FSDP units, LoRA's gradient buffer covers the frozen weights too. */
static void test_fsdp_lora_wrap(void **state)
{
    trainsize_result layers, adapters;
    (void)state;
#define Z3 "model", "llama-2-7b", "gpus", "8", "zero", "3", "lora-rank", "8"
    ts_test_estimate(PAIRS(Z3, "fsdp-lora-wrap", "layers"), &layers);
    ts_test_estimate(PAIRS(Z3), &adapters);
    /* the layers' frozen weights (all but the norms), 16-bit, over 8 ranks */
    assert_int_equal(layers.memory.gradients - adapters.memory.gradients,
                     (uint64_t)((6738415616.0 - 2.0 * L2_EMBED - L2_NORMS) * 2.0 / 8.0));
#undef Z3
}

/* peak_reserved sits between peak_allocated and peak_total, with the sharded reserve
 * under ZeRO-3. */
static void test_peak_reserved(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "sharded-slack", "0.5"), &r);
    assert_int_equal(r.memory.peak_reserved, r.memory.peak_allocated + r.memory.allocator_slack);
    assert_true(llabs((long long)r.memory.allocator_slack - (long long)(r.memory.peak_allocated / 2)) <= 1);
    assert_true(r.memory.peak_reserved < r.memory.peak_total);
}

/* Quantizing on the GPU as the model loads: the largest matrix (Llama-2-7B's MLP,
 * 4096 x 11008) in 16 bits plus the quantizer's working memory; torchao 0.1 held a
 * 16-wide difference tensor (68 bytes per element), bitsandbytes 0.5. */
static void test_quantize_scratch(void **state)
{
    trainsize_result old, bnb, cpu;
    const double matrix = 4096.0 * 11008.0;
    (void)state;
#define QL "model", "llama-2-7b", "lora-rank", "8", "quantize-base", "nf4"
    ts_test_estimate(PAIRS(QL, "loading", "gpu", "quantize-scratch", "68"), &old);
    ts_test_estimate(PAIRS(QL, "loading", "gpu"), &bnb);
    ts_test_estimate(PAIRS(QL), &cpu);
    assert_true(llabs((long long)(old.memory.loading_peak - bnb.memory.loading_peak) -
                      (long long)(67.5 * matrix)) <= 1);
    assert_true(llabs((long long)(cpu.memory.loading_peak - cpu.memory.weights) -
                      (long long)(2.5 * matrix)) <= 1);
    assert_true(old.memory.peak_allocated >= old.memory.loading_peak);
#undef QL
}

/* The Hugging Face Trainer keeps 32-bit AdamW state for nn.Embedding under bitsandbytes'
 * 8-bit optimizers: 8 bytes instead of 2 x (1 + 4/256) per embedding parameter. */
static void test_embedding_state_fp32(void **state)
{
    trainsize_result hf, off, mg;
    (void)state;
#define FT "model", "llama-2-7b", "optimizer", "adamw-8bit"
    ts_test_estimate(PAIRS(FT), &hf);
    ts_test_estimate(PAIRS(FT, "embedding-state-fp32", "no"), &off);
    ts_test_estimate(PAIRS(FT, "framework", "megatron"), &mg);
    assert_int_equal(hf.memory.optimizer - off.memory.optimizer,
                     (uint64_t)(L2_EMBED * (8.0 - 2.0 * (1.0 + 4.0 / 256.0))));
    ts_test_estimate(PAIRS(FT, "framework", "megatron", "embedding-state-fp32", "no"), &off);
    assert_int_equal(mg.memory.optimizer, off.memory.optimizer);
#undef FT
}

/* bitsandbytes' scales (absmax, nested absmax) stay whole on every rank and on the GPU
 * under FSDP with parameter offload; torchao NF4 shards them with the data. */
static void test_quant_state_replicated(void **state)
{
    trainsize_result bnb, ao, off;
    const double frozen = 6738415616.0 - 2.0 * L2_EMBED - L2_NORMS;
    (void)state;
#define Z3 "model", "llama-2-7b", "gpus", "8", "zero", "3", "lora-rank", "8", "quantize-base", "nf4", \
           "offload", "optimizer+params"
    ts_test_estimate(PAIRS(Z3), &bnb);
    ts_test_estimate(PAIRS(Z3, "quantize-keeps-input", "false"), &ao);
    ts_test_estimate(PAIRS(Z3, "quant-state-replicated", "no"), &off);
    assert_true(llabs((long long)bnb.memory.weights -
                      (long long)(frozen * (1.0 / 64.0 + 4.0 / (64.0 * 256.0)))) <= 1);
    assert_int_equal(ao.memory.weights, 0);
    assert_int_equal(off.memory.weights, 0);
#undef Z3
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_auto_rules),          cmocka_unit_test(test_auto_equals_named),
        cmocka_unit_test(test_grad_sync),           cmocka_unit_test(test_quantized_linears_keep_input),
        cmocka_unit_test(test_qlora_recomputes_by_default),
        cmocka_unit_test(test_kbit_upcast),         cmocka_unit_test(test_base_dtype),
        cmocka_unit_test(test_loading_phase),       cmocka_unit_test(test_fsdp_root_unit),
        cmocka_unit_test(test_fsdp_lora_wrap),      cmocka_unit_test(test_peak_reserved),
        cmocka_unit_test(test_quantize_scratch),    cmocka_unit_test(test_embedding_state_fp32),
        cmocka_unit_test(test_quant_state_replicated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

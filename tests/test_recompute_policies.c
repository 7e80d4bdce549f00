/* Activation checkpointing policies, each against the same job without it: per-op
 * selective checkpointing (torchtitan's default selective AC), recomputation of only some
 * layers (recompute-layers, Megatron-LM's block method) and activation offload to host
 * memory. Each figure is checked against the term methodology.md gives ("Recomputation",
 * "Activation offload"), in the job's byte conventions (ts_conv). */
#include "catalog.h"
#include "job.h"
#include "stages.h"
#include "ts_test.h"
#include "ts_test_conv.h"

#define SEQ 2048.0


/* Whole bytes: the result rounds each figure up once. */
static void assert_bytes(double got, double want)
{
    if (fabs(got - want) > 2.0) fail_msg("%.0f bytes, expected %.0f", got, want);
}

static void assert_close(double got, double want)
{
    if (!(fabs(got - want) <= 1e-9 * fabs(want))) fail_msg("%.17g, expected %.17g", got, want);
}

/* The FLOPs recomputation adds: executed less the model's. */
static double extra_flops(const trainsize_result *r) { return r->time.flops - r->time.model_flops; }

/* torchtitan's own vector (tests/unit_tests/test_activation_checkpoint.py @ b5bcd76,
 * test_flops): a block of three bias-free linears, 512 -> 512 (moe.router.gate), 512 -> 512
 * (attention.wq) and 512 -> 1024 (output), on 512 tokens; backward FLOPs in units of
 * 2 x 512^3: 8 without AC, 9 per-op (the second recomputed), 10 forcing the router's
 * shape (which wq shares: both recomputed, output then counted first and kept), 11 forcing
 * the output's, 12 full. Backward is twice the forward here too, so the recomputed forward
 * is what each adds. */
static double toy_backward(const int *kinds)
{
    ts_layer_mm mm[3] = {{512, 512, 0, 0}, {512, 512, 0, 0}, {512, 1024, 0, 0}};
    int saved[3];
    double units = 0.0, unit = 2.0 * 512.0 * 512.0 * 512.0;
    size_t i;
    for (i = 0; i < 3; i++) {
        mm[i].kind = kinds[i];
        units += 2.0 * 2.0 * mm[i].in * mm[i].out * 512.0 / unit; /* backward: 2 x forward */
    }
    ts_per_op_policy(mm, 3, saved);
    for (i = 0; i < 3; i++)
        if (!saved[i]) units += 2.0 * mm[i].in * mm[i].out * 512.0 / unit;
    return units;
}

static void test_per_op_torchtitan_vector(void **state)
{
    static const int plain[3] = {TS_MM_COLUMN, TS_MM_COLUMN, TS_MM_COLUMN};
    static const int router[3] = {TS_MM_ROUTER, TS_MM_ROUTER, TS_MM_COLUMN};
    static const int output[3] = {TS_MM_COLUMN, TS_MM_COLUMN, TS_MM_ROUTER};
    static const int all[3] = {TS_MM_ROUTER, TS_MM_ROUTER, TS_MM_ROUTER};
    (void)state;
    assert_true(toy_backward(plain) == 9.0);
    assert_true(toy_backward(router) == 10.0);
    assert_true(toy_backward(output) == 11.0);
    assert_true(toy_backward(all) == 12.0); /* everything recomputed: full AC's 12 */
}

/* The matmuls per-op walks are the layer's matrices as counted (model.c): a dense layer's
 * weights less its norms (Llama, Phi-3's fused projections), and MLA's less its latents'
 * norms (DeepSeek-V3's dense first layers). */
static void test_layer_matmuls_are_the_counted_weights(void **state)
{
    static const char *const models[] = {"llama-3-8b", "phi-3-mini", "deepseek-v3"};
    size_t i, j;
    (void)state;
    for (i = 0; i < 3; i++) {
        trainsize_job *job = ts_test_job(PAIRS("model", models[i]));
        const ts_model *m = &job->s.model;
        ts_param_counts pc;
        ts_layer_mm mm[TS_LAYER_MMS_MAX];
        size_t n = ts_model_layer_mms(m, 0, 0, 0, mm);
        double sum = 0.0, latent_norms = (double)(m->q_lora_rank + m->kv_lora_rank);
        assert_int_equal(ts_model_count(m, &pc, NULL), TRAINSIZE_OK);
        for (j = 0; j < n; j++) sum += mm[j].in * mm[j].out;
        assert_true(sum == (double)(pc.layer_dense - pc.norms) - latent_norms);
        trainsize_job_free(job);
    }
}

/* Llama-3-8B (h 4096, q 4096, kv 1024, f 14336, 32 heads, 32 layers), one GPU, flash. */
#define LLAMA(...) PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "framework", "megatron", "seq", "2048", __VA_ARGS__)

/* Per-op keeps, per layer: its input (the checkpoint's), the outputs of q, v, gate and
 * down (the 1st, 3rd, 5th and 7th mm; k, o and up are recomputed), and the flash kernel's
 * output and fp32 log-sum-exp. Nothing of the norms, rope, SwiGLU or the casts. */
static void test_per_op_keeps_what_its_policy_saves(void **state)
{
    ts_conv c = ts_test_conventions(LLAMA("recompute", "per-op"));
    trainsize_result r;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "per-op"), &r);
    assert_bytes((double)r.memory.activations_per_layer,
                 c.residual * SEQ * 4096.0 + c.act * SEQ * (4096.0 + 1024.0 + 14336.0 + 4096.0) +
                     c.act * SEQ * 4096.0 + 4.0 * 32.0 * SEQ);
    assert_int_equal(r.layout.recompute, TRAINSIZE_RECOMPUTE_PER_OP);
    assert_int_equal(r.memory.recomputed_layers, 32);
}

/* With flash attention selective recomputation drops only the log-sum-exp (the kernel
 * keeps no scores); per-op drops most of a layer, and keeps more than full. */
static void test_per_op_saves_where_selective_cannot(void **state)
{
    trainsize_result none, sel, perop, full;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "none"), &none);
    ts_test_estimate(LLAMA("recompute", "selective"), &sel);
    ts_test_estimate(LLAMA("recompute", "per-op"), &perop);
    ts_test_estimate(LLAMA("recompute", "full"), &full);
    assert_bytes((double)none.memory.activations_layers - (double)sel.memory.activations_layers,
                 32.0 * 4.0 * 32.0 * SEQ);
    assert_true(perop.memory.activations_layers < none.memory.activations_layers / 2);
    assert_true(perop.memory.activations_layers > full.memory.activations_layers);
    assert_true(perop.memory.peak_total < sel.memory.peak_total);
}

/* Executed FLOPs exceed the model's by exactly the recomputed matmuls' forward: per token
 * 2 x (k + o + up) weights per layer; no attention product is repeated (the kernel's
 * output is kept). */
static void test_per_op_recomputes_every_other_matmul(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "per-op"), &r);
    assert_close(extra_flops(&r), r.time.tokens * 2.0 * 32.0 * (4096.0 * 1024.0 + 4096.0 * 4096.0 +
                                                                  4096.0 * 14336.0));
}

/* A linear with a bias runs as addmm, which the policy always saves and does not count:
 * Qwen2.5's q, k and v. Of o, gate, up and down the 2nd and 4th (gate, down) are
 * recomputed. */
static void test_per_op_biased_linears_are_always_saved(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "qwen2.5-7b", "gpu", "h100-80gb", "seq", "2048", "recompute", "per-op"), &r);
    assert_close(extra_flops(&r), r.time.tokens * 2.0 * 28.0 * (3584.0 * 18944.0 + 18944.0 * 3584.0));
}

/* torchao's fp8 linears call torch.mm on float8 tensor subclasses: the policy sees a plain
 * mm and keeps every other one, as under bf16, so fp8 recomputes the same matmuls and keeps
 * the same layer outputs (torchao's float8 README, 8 x H100, Llama 3 8B, per-op SAC: bf16
 * 47.65 GiB, tensorwise 47.77, rowwise 47.79). */
static void test_per_op_fp8_is_a_plain_mm_to_the_policy(void **state)
{
    trainsize_result fp8, bf16;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "per-op", "precision", "fp8-mixed", "fp8-recipe", "current"), &fp8);
    ts_test_estimate(LLAMA("recompute", "per-op"), &bf16);
    assert_true(extra_flops(&fp8) > 0.0);
    assert_close(extra_flops(&fp8), extra_flops(&bf16));
    assert_true(fp8.memory.activations_per_layer <= bf16.memory.activations_per_layer);
}

/* An MoE layer: the router's gate is always recomputed (torchtitan's
 * force_recompute_mm_shapes_by_fqns default) and the routed experts' grouped matmuls are
 * in no save list: each token's k = 2 copies through gate, up and down again. */
static void test_per_op_moe_recomputes_router_and_experts(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "mixtral-8x7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq",
                           "2048", "recompute", "per-op"), &r);
    assert_close(extra_flops(&r),
                 r.time.tokens * 2.0 * 32.0 *
                     (4096.0 * 1024.0 + 4096.0 * 4096.0 + 4096.0 * 8.0 + 2.0 * 3.0 * 4096.0 * 14336.0));
}

/* Eager attention's two products are bmm, which the policy saves: the s x s scores stay
 * (the softmax is recomputed from them), the log-sum-exp of the flash kernel goes. */
static void test_per_op_eager_keeps_the_scores(void **state)
{
    ts_conv c = ts_test_conventions(LLAMA("recompute", "per-op", "attention", "eager"));
    trainsize_result eager, flash;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "per-op", "attention", "eager"), &eager);
    ts_test_estimate(LLAMA("recompute", "per-op"), &flash);
    assert_bytes((double)eager.memory.activations_per_layer - (double)flash.memory.activations_per_layer,
                 c.act * 32.0 * SEQ * SEQ - 4.0 * 32.0 * SEQ);
}

/* recompute-layers N: N of the 32 layers checkpointed, the rest keep everything; memory
 * is the blend of none and the policy, and the recomputation's FLOPs scale by N / 32. */
static void test_recompute_layers_blend(void **state)
{
    static const char *const policies[] = {"full", "per-op", "selective"};
    size_t i;
    (void)state;
    for (i = 0; i < 3; i++) {
        trainsize_result none, all, part, beyond;
        ts_test_estimate(LLAMA("recompute", "none"), &none);
        ts_test_estimate(LLAMA("recompute", policies[i]), &all);
        ts_test_estimate(LLAMA("recompute", policies[i], "recompute-layers", "8"), &part);
        ts_test_estimate(LLAMA("recompute", policies[i], "recompute-layers", "40"), &beyond);
        assert_bytes((double)part.memory.activations_layers,
                     0.25 * (double)all.memory.activations_layers + 0.75 * (double)none.memory.activations_layers);
        assert_close(extra_flops(&part), 0.25 * extra_flops(&all));
        assert_int_equal(part.memory.recomputed_layers, 8);
        assert_int_equal(beyond.memory.activations_layers, all.memory.activations_layers);
        assert_true(beyond.time.flops == all.time.flops);
    }
    {
        trainsize_result none, set;
        ts_test_estimate(LLAMA("recompute", "none"), &none);
        ts_test_estimate(LLAMA("recompute", "none", "recompute-layers", "8"), &set);
        assert_int_equal(set.memory.activations, none.memory.activations);
        assert_int_equal(set.memory.recomputed_layers, 0);
    }
}

/* Per pipeline stage (per virtual stage when interleaved), the first N layers: on pp 2 x
 * interleave 2 each of a rank's two 8-layer chunks checkpoints 3, so 12 of the model's 32
 * layers in all. */
static void test_recompute_layers_per_stage(void **state)
{
    trainsize_result all, part;
    (void)state;
    ts_test_estimate(LLAMA("recompute", "full", "gpus", "2", "pp", "2", "pp-interleave", "2"), &all);
    ts_test_estimate(LLAMA("recompute", "full", "gpus", "2", "pp", "2", "pp-interleave", "2",
                           "recompute-layers", "3"), &part);
    assert_int_equal(part.memory.recomputed_layers, 6);
    assert_close(extra_flops(&part), 12.0 / 32.0 * extra_flops(&all));
}

/* Activation offload: the GPU keeps two layers of the micro-batch (the one computing, the
 * one in transfer), host memory the rest, which the server's RAM counts; each micro-batch
 * moves its layers' activations down and up over PCIe, and what its compute does not
 * cover is added to the step. */
static void test_activation_offload(void **state)
{
    const trainsize_gpu_info *gpu = trainsize_gpu_find("h100-80gb");
    trainsize_result kept, off, cheap, cheap_off;
    double compute, moved, m, expected;
    (void)state;
    /* hfu set and no step overhead: the step is its micro-batches' compute, the window the
     * transfers overlap */
    ts_test_estimate(LLAMA("seq", "8192", "global-batch", "4", "hfu", "0.5", "step-overhead", "0"), &kept);
    ts_test_estimate(LLAMA("seq", "8192", "global-batch", "4", "hfu", "0.5", "step-overhead", "0",
                           "activation-offload", "true"), &off);
    assert_bytes((double)off.memory.activations_layers, 2.0 * (double)kept.memory.activations_per_layer);
    assert_bytes((double)off.memory.activations_offloaded,
                 (double)kept.memory.activations_layers - (double)off.memory.activations_layers);
    assert_int_equal(off.memory.host_offload, kept.memory.host_offload + off.memory.activations_offloaded);
    assert_int_equal(off.system.host_ram_need_per_node,
                     kept.system.host_ram_need_per_node + off.memory.activations_offloaded);
    /* The time: 4 micro-batches, each moving its 32 layers down and up. */
    m = (double)off.gradient_accumulation;
    assert_true(m == 4.0);
    moved = (double)kept.memory.activations_layers;
    compute = kept.time.step_seconds - kept.time.comm_seconds - kept.time.offload_seconds;
    expected = m * fmax(0.0, 2.0 * moved / ts_host_link_rate(gpu) - compute / m);
    assert_true(expected > 0.0); /* PCIe is too slow for this job's compute */
    assert_close(off.time.offload_seconds - kept.time.offload_seconds, expected);
    assert_close(off.time.step_seconds, kept.time.step_seconds + expected);
    /* Under full recomputation the layer inputs alone go over, hidden by the compute. */
    ts_test_estimate(LLAMA("seq", "8192", "global-batch", "4", "recompute", "full"), &cheap);
    ts_test_estimate(LLAMA("seq", "8192", "global-batch", "4", "recompute", "full", "activation-offload", "true"),
                     &cheap_off);
    assert_true(cheap_off.memory.activations_offloaded > 0);
    assert_true(cheap_off.time.step_seconds == cheap.time.step_seconds);
}

/* TiledMLP (mlp-tiles; DeepSpeed's and Liger's TiledMLP, ALST arXiv 2506.13996): a dense
 * layer's MLP keeps its input only, one tile's activations live in the backward, and each
 * tile's forward runs once more; 0 picks their default, ceil(seqlen / hidden_size). */
static void test_tiled_mlp(void **state)
{
    trainsize_result plain, tiled, tiled4, auto_tiles;
    ts_conv c = ts_test_conventions(LLAMA("seq", "8192"));
    double tokens = 8192.0, h = 4096.0, f = 14336.0, layers = 32.0, inner, kept, one_tile;
    (void)state;
    ts_test_estimate(LLAMA("seq", "8192", "micro-batch", "1", "global-batch", "8"), &plain);
    ts_test_estimate(LLAMA("seq", "8192", "micro-batch", "1", "global-batch", "8", "mlp-tiles", "2"), &tiled);
    ts_test_estimate(LLAMA("seq", "8192", "micro-batch", "1", "global-batch", "8", "mlp-tiles", "4"), &tiled4);
    ts_test_estimate(LLAMA("seq", "8192", "micro-batch", "1", "global-batch", "8", "mlp-tiles", "0"), &auto_tiles);
    /* what the untiled MLP keeps beyond its input: the gated product's saved tensors, the
     * down projection's input and the further casts of the input (mlp_terms) */
    inner = c.glu_saved * c.glu_elem * tokens * f + c.linear_in * tokens * f +
            (c.fc1_in_copies - 1.0) * c.linear_in * tokens * h;
    kept = (double)plain.memory.activations_per_layer - (double)tiled.memory.activations_per_layer;
    assert_bytes(kept, inner);
    /* the tiles' count changes the transient only: one tile's share of all of it */
    assert_int_equal(tiled4.memory.activations_per_layer, tiled.memory.activations_per_layer);
    one_tile = (inner + c.linear_in * tokens * h) / 2.0;
    assert_true(tiled.memory.transient > tiled4.memory.transient);
    assert_bytes((double)tiled.memory.transient - (double)tiled4.memory.transient, one_tile / 2.0);
    /* the forward of every dense MLP once more: 3 matmuls of h x f, 2 FLOPs a multiply-add */
    assert_close(tiled.time.flops - plain.time.flops, layers * 2.0 * 3.0 * h * f * tokens * 8.0);
    assert_close(tiled4.time.flops, tiled.time.flops);
    /* auto: 8,192 tokens over a hidden size of 4,096, two tiles */
    assert_int_equal(auto_tiles.memory.transient, tiled.memory.transient);
    assert_true(tiled.memory.peak_allocated < plain.memory.peak_allocated);
}

/* The advice tries per-op between selective and full: with flash attention selective
 * cannot make this job fit, per-op can. */
static void test_advice_offers_per_op(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero",
                                           "3", "seq", "8192"));
    trainsize_advice advice[16];
    size_t n = 0, i, j;
    int per_op = 0;
    (void)state;
    assert_int_equal(trainsize_advise(job, advice, 16, &n, NULL), 0);
    for (i = 0; i < n; i++)
        for (j = 0; j < advice[i].settings; j++)
            if (strcmp(advice[i].names[j], "recompute") == 0) {
                assert_string_not_equal(advice[i].values[j], "selective");
                if (strcmp(advice[i].values[j], "per-op") == 0) per_op = 1;
            }
    assert_true(per_op);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_op_torchtitan_vector),
        cmocka_unit_test(test_layer_matmuls_are_the_counted_weights),
        cmocka_unit_test(test_per_op_keeps_what_its_policy_saves),
        cmocka_unit_test(test_per_op_saves_where_selective_cannot),
        cmocka_unit_test(test_per_op_recomputes_every_other_matmul),
        cmocka_unit_test(test_per_op_biased_linears_are_always_saved),
        cmocka_unit_test(test_per_op_fp8_is_a_plain_mm_to_the_policy),
        cmocka_unit_test(test_per_op_moe_recomputes_router_and_experts),
        cmocka_unit_test(test_per_op_eager_keeps_the_scores),
        cmocka_unit_test(test_recompute_layers_blend),
        cmocka_unit_test(test_recompute_layers_per_stage),
        cmocka_unit_test(test_activation_offload),
        cmocka_unit_test(test_tiled_mlp),
        cmocka_unit_test(test_advice_offers_per_op),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

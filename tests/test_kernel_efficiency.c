/* The kernel-efficiency model (lib/kernels.c, docs/methodology.md "Kernel efficiency"):
 * matmuls at the part's measured GEMM ceiling times the training share, element-wise work
 * and the optimizer step at memory bandwidth, eager kernels moving 4 times a fused stack's
 * bytes, and hfu as an override. H100 SXM and H200 have the same 989.4 TFLOP/s and differ
 * in bandwidth (3.35 against 4.8 TB/s), which isolates what memory costs. */
#include "job.h"
#include "stages.h"
#include "ts_test.h"

/* Llama 2 7B: 32 layers, hidden 4096, ffn 11008 (gated), 32 heads of 128 (MHA), rotary,
 * vocabulary 32000, 6,738,415,616 parameters. */
#define L7 "model", "llama-2-7b", "gpus", "1", "seq", "4096", "micro-batch", "1", "recompute", "none", \
           "attention", "flash", "step-overhead", "0"

/* Element-wise bytes of one token under a fused stack, forward once: per layer 2 norms and
 * 2 residual adds over h (2 x 2h + 6h), SwiGLU over 3 ffn, rotary over q and k (2 x 2 x
 * 4096), each element 2 bytes; the forward, a backward of twice its traffic, and the
 * 32-bit logits of the loss written, read and differentiated. */
static double fused_bytes_per_token(void)
{
    double h = 4096.0, f = 11008.0, per_layer = 2.0 * (2.0 * 2.0 * h + 6.0 * h + 3.0 * f + 2.0 * (h + h));
    return 3.0 * 32.0 * per_layer + 3.0 * 4.0 * 32000.0;
}

static double weights_per_param(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return (double)r.memory.weights / (double)r.model.parameters;
}

static double compute_seconds(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.time.step_seconds - r.time.comm_seconds - r.time.offload_seconds;
}

/* Megatron conventions (16-bit weights, fp32 gradients and master, AdamW state 8 bytes):
 * the step reads and writes state and master and reads the gradients and writes the
 * weights: 2 (8 + 4) + 4 + 2 = 30 bytes a parameter. Two global batches separate the
 * per-step term from the per-token one. */
static void test_optimizer_step_at_memory_bandwidth(void **state)
{
    double one, four, step, p = 6738415616.0;
    (void)state;
    one = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "global-batch", "1"));
    four = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "global-batch", "4"));
    step = (4.0 * one - four) / 3.0;
    ts_assert_near(step, 30.0 * p / (3350e9 * 0.8), 1e-9);
    /* pytorch conventions: fp32 weights are the master, read and written: 2 x 8 + 4 + 8 = 28 */
    one = compute_seconds(PAIRS(L7, "framework", "pytorch", "gpu", "h100-80gb", "global-batch", "1"));
    four = compute_seconds(PAIRS(L7, "framework", "pytorch", "gpu", "h100-80gb", "global-batch", "4"));
    ts_assert_near((4.0 * one - four) / 3.0, 28.0 * p / (3350e9 * 0.8), 1e-9);
}

/* The same FLOPs on H100 and H200: the difference is the element-wise bytes and the
 * optimizer step's, at the two bandwidths. */
static void test_elementwise_work_at_memory_bandwidth(void **state)
{
    double bytes = 4096.0 * fused_bytes_per_token() + 30.0 * 6738415616.0;
    double h100 = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb"));
    double h200 = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h200"));
    (void)state;
    ts_assert_near(h100 - h200, bytes / 0.8 * (1.0 / 3350e9 - 1.0 / 4800e9), 1e-9);
}

/* Eager modelling code: each element-wise operation its own kernel, 4 passes over memory
 * per fused one; the optimizer step is the same. */
static void test_eager_kernels_move_four_times_the_bytes(void **state)
{
    double fused = compute_seconds(PAIRS(L7, "framework", "pytorch", "fused-kernels", "yes", "gpu", "h100-80gb"));
    double eager = compute_seconds(PAIRS(L7, "framework", "pytorch", "fused-kernels", "no", "gpu", "h100-80gb"));
    (void)state;
    ts_assert_near(eager - fused, 3.0 * 4096.0 * fused_bytes_per_token() / (3350e9 * 0.8), 1e-9);
    /* auto: fused under megatron conventions, eager otherwise */
    ts_assert_near(compute_seconds(PAIRS(L7, "framework", "pytorch", "gpu", "h100-80gb")), eager, 1e-12);
}

/* Flash attention at its kernel's rate (attention_time.c): under the Megatron stacks on
 * Hopper FlashAttention-3's causal curve, 0.58 x s / (s + 838) of the peak for the half of
 * the counted (full) FLOPs a causal kernel computes. */
static double fa3_causal_share(double s) { return 0.58 * s / (s + 838.0) * 2.0; }

/* The matmuls: H100 SXM's measured GEMM ceiling (795 of 989 TFLOP/s) x 0.77; attention at
 * its kernel's rate. With hfu set, every FLOP at that share of the peak and nothing else
 * (the long-standing rule). */
static void test_matmuls_and_the_override(void **state)
{
    trainsize_result r;
    double peak = 989.4e12, mm, at, tokens = 4096.0, elementwise;
    (void)state;
    ts_test_estimate(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "hfu", "0.5"), &r);
    ts_assert_near(r.time.step_seconds, r.time.step_flops / (peak * 0.5), 1e-12);
    /* 6 x (parameters less the input embedding) per token, and 3 x attention's 4 s h per layer */
    mm = 6.0 * (6738415616.0 - 131072000.0) * tokens;
    at = 3.0 * 4.0 * 4096.0 * 4096.0 * 32.0 * tokens;
    ts_assert_near(r.time.step_flops, mm + at, 1.0);
    elementwise = (tokens * fused_bytes_per_token() + 30.0 * 6738415616.0) / (3350e9 * 0.8);
    ts_assert_near(compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb")),
                       mm / (peak * 0.803 * 0.77) + at / (peak * fa3_causal_share(4096.0)) + elementwise, 1e-9);
}

/* A power cap: matmuls and attention at (limit / TDP)^0.55 of their rate, element-wise
 * work and the optimizer step unchanged; each GPU draws the limit, the rest of its server
 * what it did (0.8 x TDP). */
static void test_power_cap(void **state)
{
    trainsize_result r;
    double peak = 989.4e12, tokens = 4096.0, clock = pow(350.0 / 700.0, 0.55);
    double mm = 6.0 * (6738415616.0 - 131072000.0) * tokens, at = 3.0 * 4.0 * 4096.0 * 4096.0 * 32.0 * tokens;
    double elementwise = (tokens * fused_bytes_per_token() + 30.0 * 6738415616.0) / (3350e9 * 0.8);
    (void)state;
    ts_test_estimate(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "gpu-power-limit", "350"), &r);
    ts_assert_near(r.time.step_seconds - r.time.comm_seconds,
                   mm / (peak * 0.803 * 0.77 * clock) + at / (peak * fa3_causal_share(4096.0) * clock) + elementwise,
                   1e-9);
    ts_assert_near(r.system.power_watts, 350.0 + 0.8 * 700.0, 1e-9);
    /* a limit at or above the TDP changes nothing */
    ts_assert_near(compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "gpu-power-limit", "700")),
                   compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb")), 1e-15);
}

/* fp8-mixed under Transformer Engine (megatron conventions): the 16-bit weights and the fp8
 * copies, row-wise and column-wise on Hopper (its fp8 GEMMs take one layout), one copy under
 * per-tensor scaling on Blackwell, two with MXFP8's directional 1x32 scales (and their
 * bytes); fp8-params drops the 16-bit copy; torchao's float8 (pytorch conventions) caches
 * none. */
static void test_fp8_weights(void **state)
{
#define W(...) weights_per_param(PAIRS("model", "llama-2-7b", "precision", "fp8-mixed", __VA_ARGS__))
    (void)state;
    ts_assert_near(W("gpu", "h100-80gb", "framework", "megatron"), 4.0, 1e-9);
    ts_assert_near(W("gpu", "h100-80gb", "framework", "megatron", "fp8-params", "true"), 2.0, 1e-9);
    ts_assert_near(W("gpu", "b200", "framework", "megatron", "fp8-recipe", "delayed"), 3.0, 1e-9);
    ts_assert_near(W("gpu", "b200", "framework", "megatron"), 2.0 + 2.0 * (1.0 + 1.0 / 32.0), 1e-9);
    ts_assert_near(W("gpu", "h100-80gb", "framework", "pytorch"), 4.0, 1e-9);
#undef W
}

/* Current scaling reads every cast tensor once more for its amax: each linear's input and
 * output gradient, (2h + q) + 2 ffn elements a layer, 2 bytes more in each of the three
 * passes. */
static void test_fp8_current_scaling_reads_again(void **state)
{
    double e = (2.0 * 4096.0 + 4096.0) + 2.0 * 11008.0, extra = 32.0 * 3.0 * 2.0 * e * 4096.0;
    double delayed = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "precision", "fp8-mixed"));
    double current = compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "precision", "fp8-mixed",
                                           "fp8-recipe", "current"));
    (void)state;
    ts_assert_near(current - delayed, extra / (3350e9 * 0.8), 1e-9);
}

/* A step-overhead given adds once a step, whatever its micro-batches, after them: it
 * overlaps none of their communication. */
static void test_step_overhead(void **state)
{
    (void)state;
    ts_assert_near(compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "step-overhead", "0.1")) -
                       compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb")),
                   0.1, 1e-12);
    ts_assert_near(compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "global-batch", "4",
                                         "step-overhead", "0.1")) -
                       compute_seconds(PAIRS(L7, "framework", "megatron", "gpu", "h100-80gb", "global-batch", "4")),
                   0.1, 1e-12);
}

static double achieved_hfu(const char *model, const char *gpu)
{
    trainsize_result r;
    const trainsize_gpu_info *g = trainsize_gpu_find(gpu);
    ts_test_estimate(PAIRS("model", model, "gpu", gpu, "gpus", "1", "seq", "4096", "framework", "megatron"), &r);
    return r.time.step_flops / (r.time.step_seconds * g->flops_bf16);
}

/* What follows from it: small models run further below the peak than large ones, and an
 * H100, with less bandwidth per FLOP, further than an A100. */
static void test_efficiency_by_size_and_part(void **state)
{
    (void)state;
    assert_true(achieved_hfu("llama-3.2-1b", "h100-80gb") < achieved_hfu("llama-2-7b", "h100-80gb"));
    assert_true(achieved_hfu("llama-2-7b", "h100-80gb") < achieved_hfu("llama-2-70b", "h100-80gb"));
    assert_true(achieved_hfu("llama-2-7b", "h100-80gb") < achieved_hfu("llama-2-7b", "a100-80gb"));
    assert_true(achieved_hfu("llama-2-70b", "a100-80gb") < 0.869 * 0.77);
}

/* The GEMMs' roofline: each GEMM at the longer of its FLOPs and its bytes. Llama 2 7B's
 * layer at 4,096 tokens is compute-bound (factor 1); LoRA rank 16 on q and v adds four
 * skinny GEMMs (4096 x 16 and 16 x 4096) whose bytes, about M x 4096 x 2 each, outlast
 * their FLOPs at H100's rates: the factor is what the sum of maxima gives by hand. */
static double roofline(const char *const *pairs, double rate, double bw)
{
    trainsize_job *job = ts_test_job(pairs);
    ts_layout lay;
    ts_conv c;
    trainsize_error err;
    double f;
    assert_int_equal(ts_layout_make(&job->s, &lay, &err), TRAINSIZE_OK);
    assert_int_equal(ts_conv_make(&job->s, &lay, &c, &err), TRAINSIZE_OK);
    f = ts_kernel_gemm_roofline(&job->s, &lay, &c, rate, bw);
    trainsize_job_free(job);
    return f;
}

static void test_skinny_gemms_at_memory_bandwidth(void **state)
{
    double rate = 989.4e12 * 0.803 * 0.76, bw = 3350e9 * 0.8, M = 4096.0, h = 4096.0, f = 11008.0, r = 16.0;
    double base = (4.0 * 2.0 * M * h * h + 3.0 * 2.0 * M * h * f) / rate;
    double adapter_c = 2.0 * M * h * r / rate;
    double a_bytes = 2.0 * (M * h + h * r) + 2.0 * M * r, b_bytes = 2.0 * (M * r + r * h) + 2.0 * M * h;
    double expected = (base + 2.0 * fmax(adapter_c, a_bytes / bw) + 2.0 * fmax(adapter_c, b_bytes / bw)) /
                      (base + 4.0 * adapter_c);
    (void)state;
    ts_assert_near(roofline(PAIRS(L7, "gpu", "h100-80gb", "precision", "bf16"), rate, bw), 1.0, 1e-12);
    ts_assert_near(roofline(PAIRS(L7, "gpu", "h100-80gb", "precision", "bf16", "lora-rank", "16", "lora-targets",
                                  "q,v"),
                            rate, bw),
                   expected, 1e-9);
    assert_true(expected > 1.01);
}

/* The result says which fp8 recipe ran: auto's choice for the GPU (delayed on Hopper,
 * mxfp8 on Blackwell), the option's when set, nothing outside fp8-mixed. */
static void test_fp8_recipe_reported(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS(L7, "gpu", "h100-80gb", "precision", "fp8-mixed"), &r);
    assert_string_equal(r.fp8_recipe, "delayed");
    ts_test_estimate(PAIRS(L7, "gpu", "b200", "precision", "fp8-mixed"), &r);
    assert_string_equal(r.fp8_recipe, "mxfp8");
    ts_test_estimate(PAIRS(L7, "gpu", "h100-80gb", "precision", "fp8-mixed", "fp8-recipe", "current"), &r);
    assert_string_equal(r.fp8_recipe, "current");
    ts_test_estimate(PAIRS(L7, "gpu", "h100-80gb", "precision", "bf16-mixed", "fp8-recipe", "current"), &r);
    assert_string_equal(r.fp8_recipe, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_optimizer_step_at_memory_bandwidth),
        cmocka_unit_test(test_elementwise_work_at_memory_bandwidth),
        cmocka_unit_test(test_eager_kernels_move_four_times_the_bytes),
        cmocka_unit_test(test_matmuls_and_the_override),
        cmocka_unit_test(test_efficiency_by_size_and_part),
        cmocka_unit_test(test_power_cap),
        cmocka_unit_test(test_step_overhead),
        cmocka_unit_test(test_fp8_weights),
        cmocka_unit_test(test_fp8_current_scaling_reads_again),
        cmocka_unit_test(test_skinny_gemms_at_memory_bandwidth),
        cmocka_unit_test(test_fp8_recipe_reported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

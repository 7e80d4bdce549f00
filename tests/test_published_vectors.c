/* Published numbers the memory model must reproduce, each with its source. */
#include <stdio.h>
#include <stdlib.h>

#include "ts_test.h"

/* Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
 * Models", Figure 1 (per-GPU GiB), as transcribed in calculon-ai/calculon
 * calculon/llm/validation.py::seqsel_fig1 (https://github.com/calculon-ai/calculon); model
 * configs from the paper's Table 3 (https://arxiv.org/abs/2205.05198, as in Calculon's
 * validation inputs). Setup: Megatron-LM, 16-bit activations, 1-byte dropout
 * masks (dropout on), eager attention, s = 2048, first pipeline stage (p micro-batches in
 * flight), interleaving 3 for 175B and 530B. */
typedef struct fig1_row {
    const char *layers, *hidden, *heads, *tp, *pp, *vpp, *gpus, *micro, *global;
    double params_opt, act_tp, act_seqsel; /* GiB */
} fig1_row;

static const fig1_row FIG1[] = {
    {"48", "6144", "64", "8", "1", "1", "8", "4", "4", 45.5625, 59.25, 9.5625},
    {"96", "12288", "96", "8", "8", "3", "64", "1", "64", 45.5625, 66.84375, 12.3515625},
    {"105", "20480", "128", "8", "35", "3", "280", "1", "280", 31.640625, 114.0234375, 23.076171875},
    {"128", "25600", "160", "8", "64", "1", "512", "1", "512", 32.958984375, 131.25, 26.5625},
};

static void set_ffn_4h(const fig1_row *r, char *buf, size_t cap)
{
    snprintf(buf, cap, "%llu", 4ull * (unsigned long long)atoll(r->hidden));
}

static void test_korthikanti_figure1_activations(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof FIG1 / sizeof FIG1[0]; i++) {
        fig1_row r = FIG1[i];
        char ffn[32];
        trainsize_result tp_only, seqsel;
        set_ffn_4h(&r, ffn, sizeof ffn); /* ffn = 4h, as in GPT-3 */
        {
            trainsize_job *job;
            trainsize_error err;
            const char *const base[] = {"layers", r.layers, "hidden", r.hidden, "heads", r.heads,
                "ffn", ffn, "vocab", "51200", "norm", "layernorm", "bias", "none", "gated-mlp",
                "false", "tie-embeddings", "true", "framework", "megatron", "precision",
                "bf16-mixed", "optimizer", "adamw", "attention", "eager", "dropout", "0.1", "seq",
                "2048", "tp", r.tp, "pp", r.pp, "pp-interleave", r.vpp, "gpus", r.gpus,
                "micro-batch", r.micro, "global-batch", r.global, NULL};
            job = ts_test_job(base);
            assert_int_equal(trainsize_job_set(job, "recompute", "none", &err), 0);
            assert_int_equal(trainsize_estimate(job, &tp_only, sizeof tp_only, &err), 0);
            assert_int_equal(trainsize_job_set(job, "recompute", "selective", &err), 0);
            assert_int_equal(trainsize_job_set(job, "sp", "true", &err), 0);
            assert_int_equal(trainsize_estimate(job, &seqsel, sizeof seqsel, &err), 0);
            trainsize_job_free(job);
        }
        /* The paper's figure covers the transformer layers; exact to the byte. */
        assert_true(fabs((double)tp_only.memory.activations_layers / GIB - r.act_tp) < 1e-9);
        assert_true(fabs((double)seqsel.memory.activations_layers / GIB - r.act_seqsel) < 1e-9);
        /* Parameters + optimizer: 18 bytes x 12 L h^2 / (t p) (fp16 weights, fp32 grads,
         * fp32 master + Adam). The paper's 12Lh^2 leaves out the LayerNorm weights (4h per
         * layer, 0.03 % here), so the layers' state is compared within that share. */
        {
            double L = atof(r.layers), h = atof(r.hidden), t = atof(r.tp), p = atof(r.pp);
            double expected = 18.0 * 12.0 * L * h * h / (t * p) / GIB;
            double norms = 18.0 * 4.0 * h * L / p / GIB;
            /* Stage 0 holds its layers plus the embedding (V h / t, 18 bytes each), and
             * with pp = 1 the final LayerNorm (2h) too. */
            {
                double embedding = 18.0 * (51200.0 * h / t + (p == 1 ? 2.0 * h : 0.0)) / GIB;
                double model_state = (double)(tp_only.memory.weights + tp_only.memory.gradients +
                                        tp_only.memory.optimizer) / GIB;
                assert_true(fabs(model_state - embedding - norms - expected) < 1e-6);
            }
            assert_true(fabs(expected - r.params_opt) < 1e-9);
        }
    }
}

/* Korthikanti et al. 2022, Figure 7: activation memory of each technique as a % of the
 * tensor-parallel baseline (Calculon seqsel_fig7; tolerance 0.2 percentage points, as the
 * per-layer formulas land within 0.1 of the plotted values). */
static void test_korthikanti_figure7_percentages(void **state)
{
    static const double fig7[][4] = {
        {66.84, 49.42, 16.18, 7.64}, {62.04, 56.53, 18.49, 8.71},
        {58.31, 62.04, 20.27, 9.42}, {58.31, 62.04, 20.27, 9.42},
    };
    static const char *const variants[][2] = {
        {"none", "true"}, {"selective", "false"}, {"selective", "true"}, {"full", "false"}};
    size_t i, v;
    (void)state;
    for (i = 0; i < 4; i++) {
        const fig1_row *r = &FIG1[i];
        char ffn[32];
        trainsize_result base;
        set_ffn_4h(r, ffn, sizeof ffn);
        for (v = 0; v < 5; v++) {
            trainsize_result x;
            const char *recompute = v == 0 ? "none" : variants[v - 1][0];
            const char *sp = v == 0 ? "false" : variants[v - 1][1];
            ts_test_estimate(PAIRS("layers", r->layers, "hidden", r->hidden, "heads", r->heads,
                                   "ffn", ffn, "vocab", "51200", "norm", "layernorm", "bias", "none",
                                   "gated-mlp", "false", "framework", "megatron", "attention",
                                   "eager", "dropout", "0.1", "seq", "2048", "tp", r->tp, "pp",
                                   r->pp, "pp-interleave", r->vpp, "gpus", r->gpus, "micro-batch",
                                   r->micro, "global-batch", r->global, "recompute", recompute,
                                   "sp", sp),
                             v == 0 ? &base : &x);
            if (v > 0) {
                double pct = 100.0 * (double)x.memory.activations_layers /
                             (double)base.memory.activations_layers;
                if (fabs(pct - fig7[i][v - 1]) > 0.2)
                    fail_msg("model %zu variant %zu: %.2f%% vs published %.2f%%", i, v, pct,
                             fig7[i][v - 1]);
            }
        }
    }
}

/* ZeRO paper (Rajbhandari et al. 2020) §5 and Figure 1: with mixed-precision Adam each
 * parameter costs 2 (fp16 weight) + 2 (fp16 gradient) + 12 (fp32 master, m, v) bytes;
 * P_os: 4Ψ + 12Ψ/N, P_os+g: 2Ψ + 14Ψ/N, P_os+g+p: 16Ψ/N. Figure 1: Ψ = 7.5e9, N = 64
 * gives 120 / 31.4 / 16.6 / 1.9 GB. Our DeepSpeed convention must give these per parameter. */
static void test_zero_paper_model_states(void **state)
{
    static const char *stages[] = {"0", "1", "2", "3"};
    const double n = 64.0, psi = 7.5e9;
    const double figure1_gb[] = {120.0, 31.4, 16.6, 1.9};
    size_t z;
    (void)state;
    for (z = 0; z < 4; z++) {
        trainsize_result r;
        double p, per_param, expected;
        ts_test_estimate(PAIRS("model", "llama-2-7b", "framework", "deepspeed", "precision",
                               "bf16-mixed", "optimizer", "adamw", "gpus", "64", "zero", stages[z]),
                         &r);
        p = (double)r.model.parameters;
        per_param = (double)(r.memory.weights + r.memory.gradients + r.memory.optimizer) / p;
        expected = z == 0 ? 16.0 : z == 1 ? 4.0 + 12.0 / n : z == 2 ? 2.0 + 14.0 / n : 16.0 / n;
        assert_true(fabs(per_param - expected) < 1e-8);
        /* The paper's figure, in decimal GB, rounded to one decimal as printed. */
        assert_true(fabs(per_param * psi / 1e9 - figure1_gb[z]) < 0.05);
    }
}

/* llm-analysis run at commit d841e40, llm_analysis/analysis.py:
 * https://github.com/cli99/llm-analysis/tree/d841e40aec8c84b9e76ba9cfbce67418adb172bd
 * Llama-2-7B-like ModelConfig (L32, h4096, a32, ffn 11008 gated, V32000, one shared embedding), dp = 8,
 * mbs 1, s = 4096, FULL recompute, a100-sxm-80gb, w16a16e16; Megatron-style 18 bytes per
 * parameter (2 weight + 4 fp32 grad + 12 optimizer). Exact bytes per ZeRO stage. */
static void test_llm_analysis_llama2_zero_table(void **state)
{
    static const struct { const char *zero; uint64_t w, g, o; } rows[] = {
        {"0", 13214687232ull, 26429374464ull, 79288123392ull},
        {"1", 13214687232ull, 26429374464ull, 9911015424ull},
        {"2", 13214687232ull, 3303671808ull, 9911015424ull},
        {"3", 1651835904ull, 3303671808ull, 9911015424ull},
    };
    size_t i;
    (void)state;
    for (i = 0; i < 4; i++) {
        trainsize_result r;
        ts_test_estimate(PAIRS("model", "llama-2-7b", "tie-embeddings", "true", "framework",
                               "megatron", "precision", "bf16-mixed", "optimizer", "adamw", "gpus",
                               "8", "zero", rows[i].zero, "micro-batch", "1", "seq", "4096",
                               "recompute", "full", "attention", "flash"),
                         &r);
        assert_int_equal(r.model.parameters, 6607343616ull); /* "Params counted" */
        assert_int_equal(r.memory.weights, rows[i].w);
        assert_int_equal(r.memory.gradients, rows[i].g);
        assert_int_equal(r.memory.optimizer, rows[i].o);
        /* Layer activations with full recomputation: 2sbh per layer, 1,073,741,824. */
        assert_int_equal(r.memory.activations_layers, 1073741824ull);
    }
}

/* DeepSpeed's ZeRO-2 estimator, estimate_zero2_model_states_mem_needs in
 * https://github.com/deepspeedai/DeepSpeed/blob/02aa38c3/deepspeed/runtime/zero/stage_1_and_2.py
 * Without offload a GPU needs 2P + 18P/G bytes (16-bit weights; per partition 2 fp16 grads
 * + 4 fp32 grads + 4 fp32 master + 8 Adam). P = 7e9 on 8 GPUs prints 27.71 GB (GiB). Our DeepSpeed
 * convention reaches that at the optimizer step; with a short sequence the step is the
 * peak, so peak_allocated per parameter must be 2 + 18/8. */
static void test_deepspeed_zero2_estimator(void **state)
{
    trainsize_result r;
    double per_param;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "framework", "deepspeed", "precision",
                           "bf16-mixed", "optimizer", "adamw", "gpus", "8", "zero", "2", "seq",
                           "16", "micro-batch", "1"),
                     &r);
    assert_int_equal(r.memory.peak_phase, TRAINSIZE_PHASE_OPTIMIZER_STEP);
    per_param = (double)r.memory.peak_allocated / (double)r.model.parameters;
    assert_true(fabs(per_param - (2.0 + 18.0 / 8.0)) < 1e-8);
    /* The estimator's printed figure for P = 7e9: 27.71 GiB (%.2f). */
    assert_true(fabs((2.0 + 18.0 / 8.0) * 7e9 / GIB - 27.71) < 0.005);
}

/* DeepSpeed's ZeRO-3 estimator on bigscience/T0_3B. The printed tables: Hugging Face
 * transformers' DeepSpeed docs, "Memory requirements",
 * https://huggingface.co/docs/transformers/deepspeed; the code:
 * https://github.com/deepspeedai/DeepSpeed/blob/007cca6a/deepspeed/runtime/zero/stage3.py
 * Every printed cell is 4·LL + (GPU bytes per parameter)·P on the GPU and (host bytes per
 * parameter)·P·gpus_per_node·1.5 on the CPU (zero_init=1), with P = 2,783,959,040 and
 * LL = 65,798,144. T0_3B is an encoder-decoder we do not model, so the test takes P and
 * LL from the estimator and our ZeRO-3 bytes per parameter from an estimate of another
 * model under DeepSpeed's accounting (16-bit weights, fp32 gradient partition, fp32 master
 * and Adam: 18 bytes); 4·LL and the 1.5 buffer factor are the estimator's own terms. The
 * CPU cells of the rows without offload (0.37 / 15.56 GB) are model-loading buffers at
 * initialisation, which we do not model, and are not compared. */
static void test_deepspeed_zero3_estimator_t0_3b(void **state)
{
    static const struct {
        const char *gpus, *offload;
        double gpu_gb, cpu_gb; /* printed, %.2f of bytes / 2^30 */
    } rows[] = {
        {"1", "optimizer+params", 0.25, 70.00}, {"1", "optimizer", 5.43, 62.23},
        {"1", "none", 46.91, -1},               {"2", "optimizer+params", 0.25, 70.00},
        {"2", "optimizer", 2.84, 62.23},        {"2", "none", 23.58, -1},
    };
    const double P = 2783959040.0, LL = 65798144.0;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        trainsize_result r;
        double n, gpu_per_param, host_per_param, gpu_gb, cpu_gb;
        ts_test_estimate(PAIRS("model", "llama-2-7b", "framework", "deepspeed", "grad-precision",
                               "fp32", "precision", "bf16-mixed", "optimizer", "adamw", "zero", "3",
                               "gpus", rows[i].gpus, "offload", rows[i].offload),
                         &r);
        n = (double)r.model.parameters;
        gpu_per_param = (double)(r.memory.weights + r.memory.gradients + r.memory.optimizer) / n;
        host_per_param = (double)r.memory.host_offload / n;
        gpu_gb = (4.0 * LL + gpu_per_param * P) / GIB;
        cpu_gb = host_per_param * P * (double)r.system.gpus_per_node * 1.5 / GIB;
        if (fabs(gpu_gb - rows[i].gpu_gb) > 0.005 ||
            (rows[i].cpu_gb >= 0 && fabs(cpu_gb - rows[i].cpu_gb) > 0.005))
            fail_msg("row %zu: GPU %.4f (printed %.2f), CPU %.4f (printed %.2f)", i, gpu_gb,
                     rows[i].gpu_gb, cpu_gb, rows[i].cpu_gb);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_korthikanti_figure1_activations),
        cmocka_unit_test(test_korthikanti_figure7_percentages),
        cmocka_unit_test(test_zero_paper_model_states),
        cmocka_unit_test(test_llm_analysis_llama2_zero_table),
        cmocka_unit_test(test_deepspeed_zero2_estimator),
        cmocka_unit_test(test_deepspeed_zero3_estimator_t0_3b),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

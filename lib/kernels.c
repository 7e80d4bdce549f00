/* The kernel-efficiency model: how long the GPUs compute one token of a job, work kind by
 * work kind, in place of one utilisation for every GPU and shape.
 *
 *   seconds per token = ( matmul FLOPs / (matmul peak x gemm efficiency)
 *                       + attention FLOPs / (16-bit peak x attention efficiency)
 *                       + element-wise bytes / (memory bandwidth x its share) ) / GPUs
 *
 * and once a step the optimizer's pass over its shard of the state at memory bandwidth.
 * The matmuls run at the share of the dense peak the part's best GEMMs reach (measured
 * "maximum achievable matmul FLOPS") times the share of that the shapes of a training step
 * keep (calibrated: docs/accuracy.md). The element-wise work between them (norms,
 * activation functions, residual adds, rotary embeddings, an eager softmax, the loss) is
 * bound by memory bandwidth, so small models, whose matmuls are short next to it, and
 * parts with less bandwidth per FLOP (H100 against A100) run further below the peak.
 * `--hfu` overrides the model: every FLOP at that share of the peak, no element-wise work or
 * optimizer step (the step's fixed overhead still counts).
 * docs/methodology.md ("Kernel efficiency") has each term and its source. */
#include <math.h>
#include <string.h>

#include "catalog.h"
#include "stages.h"

/* The share of the dense 16-bit peak the best-shaped BF16 GEMM reaches, by architecture
 * (MAMF, S. Bekman, https://github.com/stas00/ml-engineering/blob/744d01e/compute/accelerator/README.md):
 * A100 SXM 271 of 312 TFLOP/s, H100 SXM 795 of 989, B200 1745 of 2250, MI300X 668 of 1307,
 * Gaudi 2 419 of 432. Ada takes Ampere's; parts no measurement covers 0.8 (an assumption). */
#define TS_MAMF_AMPERE 0.869
#define TS_MAMF_HOPPER 0.803
#define TS_MAMF_BLACKWELL 0.776
#define TS_MAMF_CDNA 0.514
#define TS_MAMF_GAUDI 0.969
#define TS_MAMF_OTHER 0.8
#define TS_MAMF_MI325X 0.604 /* 785 of 1307 */
/* The same for FP8 GEMMs, of the FP8 peak: H100 SXM 1403 of 1979, H200 1453 of 1979, B200
 * 3433 of 4500, Gaudi 2 827 of 865 (the same source); parts it does not measure in FP8 take
 * their BF16 share (an assumption). */
#define TS_MAMF_FP8_HOPPER 0.709
#define TS_MAMF_FP8_BLACKWELL 0.763
#define TS_MAMF_FP8_GAUDI 0.955

/* The share of that ceiling a training step's GEMMs keep (their shapes, epilogues and
 * tails) is the setting gemm-share: 0.77, the value that best fits the published runs of
 * tests/accuracy/fixtures (docs/accuracy.md, left out one source at a time), until a site's calibration fits its
 * own. */

/* Flash attention's rate: its kernel's measured curves (attention_time.c). */

/* fp8 attention (fp8-attention) against 16-bit: FlashAttention-3's fp8 forward reaches
 * 1.1-1.17 PFLOP/s on H100 at head dimension 256 and 4k-16k tokens where its bf16 forward
 * reaches 0.74-0.76 (Shah et al. 2024, arXiv 2407.08608, Fig. 5 and 7): about 1.5x, not
 * the 2x of the peaks. */
#define TS_FP8_ATTENTION_GAIN 1.5

/* A ResNet's convolutions (forward, data and weight gradients) as a share of the part's
 * GEMM ceiling, by architecture and math, where the element-wise work between them runs at
 * memory bandwidth: fitted to Lambda's PyTorch ResNet-50 training runs (lambdal/
 * deeplearning-benchmark@aa5addb, NVIDIA's ConvNets scripts, NCHW, one GPU) and, for
 * Ampere's 16-bit share with the NCHW traffic below, timm's channels-last A100 runs
 * (huggingface/pytorch-image-models issue 1491: 2600 images/s in benchmark.py, 2500 in
 * train.py); the fit and its leave-one-source-out errors: docs/accuracy.md. Newer parts
 * keep less of their peak: the convolutions' small per-layer GEMMs and their data- and
 * weight-gradient kernels do not grow with the tensor cores. The GA10x Ampere parts (A10,
 * A40, RTX A6000, the RTX 30 series: twice the FP32 lanes of an A100's SM, a fifth of its
 * tensor rate per FP32 FLOP) and Ada run their ResNets nearer their memory's pace than their
 * tensor cores': shares above 1 say the convolutions hide under the element-wise work (the
 * fit held at 1.25); parts no run covers take the A100's (an assumption). FP32 convolutions
 * beat the direct-convolution FLOPs: cuDNN runs 3 x 3 ones as Winograd transforms (Volta's
 * runs). */
#define TS_CONV_16_VOLTA 1.0 /* the fit's 1.5, held at the GEMM ceiling */
#define TS_CONV_16_AMPERE 0.65
#define TS_CONV_16_HOPPER 0.63
#define TS_CONV_16_BLACKWELL 0.07
#define TS_CONV_16_GA10X 1.24
#define TS_CONV_16_ADA 1.25
#define TS_CONV_TF32_AMPERE 0.338
#define TS_CONV_TF32_GA10X 0.43
#define TS_CONV_TF32_ADA 0.66
#define TS_CONV_TF32_HOPPER 0.25
#define TS_CONV_TF32_BLACKWELL 0.122
#define TS_CONV_FP32 1.12
/* NCHW under 16-bit precisions: cuDNN's tensor-core kernels take channels-last, so each
 * convolution's tensors are converted on the way in and out, 1.22 times more element-wise
 * traffic (fitted with Ampere's share above: Lambda's NCHW A100 runs against timm's
 * channels-last ones). A part with less bandwidth for its compute pays more: timm's paired
 * RTX 3090 runs (results/benchmark-train-amp-{nchw,nhwc}-pt112-cu113-rtx3090.csv
 * @c865028c) are 1.26-1.47x apart, the A100's 1.6x. */
#define TS_NCHW_TRAFFIC 1.22

/* Element-wise kernels stream at about 0.8 of the memory bandwidth (an assumption of the
 * order STREAM-like copies reach on HBM). */
#define TS_MEMORY_SHARE 0.8

/* Eager modelling code runs each element-wise operation as its own kernel where fused
 * stacks run one per group: Hugging Face's RMSNorm is seven (an fp32 cast, pow, mean,
 * rsqrt, two multiplies and a cast back), rotary embedding five per tensor, SwiGLU two
 * against one; about 4 passes over memory per fused one (a count of the modelling code,
 * checked against the fixture's eager Hugging Face rows). PyTorch's own LayerNorm and GELU
 * are one kernel each, in eager code too (torch.nn.LayerNorm, nn.GELU: BERT, ViT), GPT-2's
 * tanh GELU a Python formula of eight. */
#define TS_EAGER_PASSES 4.0
/* An eager attention's passes over its scores: the scale, the mask and the softmax (3),
 * and the probabilities' dropout (4): 4/3 of them with dropout. */
#define TS_DROPOUT_SCORE_PASSES (4.0 / 3.0)

/* Under a power cap the tensor cores' clock falls: throughput ~ (limit / TDP)^0.55, fitted
 * to NVIDIA's MLPerf Inference v4.1 MaxQ against MaxP configurations (H100 SXM: BERT 0.76
 * of its throughput at 400 W of 700, DLRMv2 0.80 and Llama 2 70B 0.83 at 450 W; H200 BERT
 * 0.72 at 400 W; exponents 0.44-0.59) and within Zeus's V100 and A40 training traces
 * (Chung et al., NSDI 2023, ml-energy/zeus@75a8b93: 0.56-0.87). Memory-bound work keeps
 * its rate. */
#define TS_POWER_EXPONENT 0.55

static double mamf_share(const trainsize_gpu_info *gpu, int fp8)
{
    if (fp8) {
        if (ts_arch_is(gpu, "Hopper")) return TS_MAMF_FP8_HOPPER;
        if (ts_arch_is(gpu, "Blackwell")) return TS_MAMF_FP8_BLACKWELL;
        if (ts_arch_is(gpu, "Gaudi")) return TS_MAMF_FP8_GAUDI;
        return mamf_share(gpu, 0);
    }
    if (gpu->name && strcmp(gpu->name, "mi325x") == 0) return TS_MAMF_MI325X;
    if (ts_arch_is(gpu, "Ampere") || ts_arch_is(gpu, "Ada Lovelace")) return TS_MAMF_AMPERE;
    if (ts_arch_is(gpu, "Hopper")) return TS_MAMF_HOPPER;
    if (ts_arch_is(gpu, "Blackwell")) return TS_MAMF_BLACKWELL;
    if (ts_arch_is(gpu, "CDNA")) return TS_MAMF_CDNA;
    if (ts_arch_is(gpu, "Gaudi")) return TS_MAMF_GAUDI;
    return TS_MAMF_OTHER;
}

/* What a training step's fp8 matmuls keep of the fp8 GEMM ceiling against what its bf16
 * ones keep of theirs (fp8-gemm-share, else by stack and recipe): Transformer Engine's, which
 * the published fp8 runs gemm-share was fitted on ran (NVIDIA's MLPerf submissions), all of
 * it; torchao's float8 (torchtitan, FSDP and the Trainer) less, its scaling and casts in
 * kernels of their own; the fine-grained scales (blockwise, rowwise) less again. Fitted to
 * the published fp8 and bf16 runs of the same jobs (docs/accuracy.md). */
#define TS_FP8_TORCHAO_SHARE 0.62
#define TS_FP8_FINE_SHARE 0.89
static double fp8_share_with(const ts_settings *cfg, int te)
{
    int recipe = ts_fp8_recipe_resolve(cfg);
    if (cfg->fp8_gemm_share > 0.0) return cfg->fp8_gemm_share;
    return (te ? 1.0 : TS_FP8_TORCHAO_SHARE) *
           (recipe == TS_FP8_BLOCKWISE || recipe == TS_FP8_ROWWISE ? TS_FP8_FINE_SHARE : 1.0);
}

static double fp8_gemm_share(const ts_settings *cfg, const ts_conv *c) { return fp8_share_with(cfg, c->fp8_te); }

/* The tensor cores' clock under a power cap, as a share of the full one. */
static double power_clock(const ts_settings *cfg)
{
    if (cfg->gpu_power_limit > 0.0 && cfg->gpu->tdp_watts > 0.0 && cfg->gpu_power_limit < cfg->gpu->tdp_watts)
        return pow(cfg->gpu_power_limit / cfg->gpu->tdp_watts, TS_POWER_EXPONENT);
    return 1.0;
}

/* The fastest the matmuls of this job run on its GPU under any layout and stack: the rate of
 * ts_kernel_token_seconds with the stack's factors at their largest (gemm_stack 1,
 * Transformer Engine's fp8), for the planner's floors. */
double ts_kernel_matmul_ceiling(const ts_settings *cfg, double peak_mm)
{
    int fp8 = cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED;
    if (cfg->hfu > 0.0) return peak_mm * cfg->hfu;
    return peak_mm * (fp8 ? mamf_share(cfg->gpu, 1) * fp8_share_with(cfg, 1) : mamf_share(cfg->gpu, 0)) *
           cfg->gemm_share * power_clock(cfg);
}

/* A ResNet's convolutions' share of the GEMM ceiling for the math they run in (conv-share,
 * else by architecture). */
static double conv_share(const ts_settings *cfg, int tf32, int fp32)
{
    const trainsize_gpu_info *g = cfg->gpu;
    /* GA10x: an Ampere part with more than an eighth of its 16-bit tensor rate in FP32 */
    int ga10x = ts_arch_is(g, "Ampere") && 8.0 * g->flops_fp32 > g->flops_bf16;
    if (cfg->conv_share > 0.0) return cfg->conv_share;
    if (fp32) return TS_CONV_FP32;
    if (tf32) {
        if (ga10x) return TS_CONV_TF32_GA10X;
        if (ts_arch_is(g, "Ada")) return TS_CONV_TF32_ADA;
        if (ts_arch_is(g, "Hopper")) return TS_CONV_TF32_HOPPER;
        if (ts_arch_is(g, "Blackwell")) return TS_CONV_TF32_BLACKWELL;
        return TS_CONV_TF32_AMPERE;
    }
    if (ts_arch_is(g, "Volta")) return TS_CONV_16_VOLTA;
    if (ga10x) return TS_CONV_16_GA10X;
    if (ts_arch_is(g, "Ada")) return TS_CONV_16_ADA;
    if (ts_arch_is(g, "Hopper")) return TS_CONV_16_HOPPER;
    if (ts_arch_is(g, "Blackwell")) return TS_CONV_16_BLACKWELL;
    return TS_CONV_16_AMPERE;
}

/* Passes over memory of a kernel group: one when fused, TS_EAGER_PASSES as eager code. */
static double passes(int fused) { return fused ? 1.0 : TS_EAGER_PASSES; }

/* Bytes the element-wise work of one token moves in one layer's forward pass, summed over
 * the tensor-parallel ranks: what sequence parallelism does not split is done by each of
 * the t ranks. Each term is the read and write of the tensors it touches, at width `a`,
 * times its group's passes (fused-norm, fused-activation, fused-rope; the rest follows
 * fused-kernels); an eager softmax (attention's core, which selective recomputation
 * repeats) apart. */
static void layer_elementwise(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double a,
                              double *rest, double *softmax)
{
    const ts_model *m = &cfg->model;
    double h = (double)m->hidden, t = (double)lay->tp, s = (double)cfg->seq / (double)lay->cp;
    double norms = m->norms_per_layer ? (double)m->norms_per_layer : 2.0;
    double k = ts_model_is_moe(m) ? (double)m->experts_per_token : 1.0;
    double f = k * (double)m->ffn + (double)m->shared_experts * (double)m->shared_expert_ffn;
    double qk = (double)(ts_model_q_dim(m) + ts_model_kv_dim(m));
    double replicated = lay->sp ? 1.0 : t, other = passes(c->fused);
    /* a LayerNorm is one kernel in eager code too; a non-gated GELU one unless it is
     * GPT-2's Python formula */
    int native_norm = c->fused_norm || m->norm == TRAINSIZE_NORM_LAYERNORM;
    int native_act = c->fused_act || (!m->gated_mlp && !ts_model_gelu_formula(m));
    double hidden_work = norms * 2.0 * h * passes(native_norm) +
                         2.0 * 3.0 * h * other; /* norms; residual (bias-dropout-)adds */
    double split_work =
        (m->gated_mlp ? 3.0 : 2.0) * f * passes(native_act); /* the MLP's activation function */
    if (!m->positions) split_work += 2.0 * qk * passes(c->fused_rope);         /* rotary embedding of q and k */
    if (ts_model_is_moe(m)) split_work += 4.0 * k * h * other; /* tokens permuted to experts and back */
    *rest = a * (hidden_work * replicated + split_work);
    /* scale, mask and softmax over the s keys of every head, and the probabilities' dropout */
    *softmax = cfg->attention == TRAINSIZE_ATTENTION_EAGER
                   ? a * 2.0 * (double)m->heads * s * (cfg->dropout > 0 ? TS_DROPOUT_SCORE_PASSES : 1.0) * other
                   : 0.0;
    /* fp8-mixed: each linear's input is cast to fp8 before its GEMM (read at 2 bytes, written
     * at 1: Transformer Engine's and torchao's recipes), and in backward its output
     * gradient and the transposes the weight gradient needs, twice the forward's */
    if (cfg->precision ==
        TRAINSIZE_PRECISION_FP8_MIXED) /* current scaling reads each tensor once more for its amax */
        *rest += (ts_fp8_recipe_resolve(cfg) == TS_FP8_CURRENT ? 5.0 : 3.0) *
                 ((2.0 * h + (double)ts_model_q_dim(m)) * replicated + 2.0 * f) * other;
}

/* The smaller of two positive, finite figures: fmin without libm's call. */
static double lesser(double a, double b) { return a < b ? a : b; }

/* The GEMMs' roofline (Williams, Waterman and Patterson, CACM 2009): a matmul takes the
 * longer of its FLOPs at the compute rate and its bytes (read A and B, write C) at memory
 * bandwidth, so skinny ones (LoRA's rank-r adapters, small per-rank shards, fp8 where it
 * doubles the rate but not the bandwidth) run below the compute rate. The dense layer's
 * GEMMs stand for the model's (an MoE layer's routed experts, whose tokens per expert are
 * not modelled here, and the output layer are taken as alike). */
double ts_kernel_gemm_roofline(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double rate,
                               double bw)
{
    ts_layer_mm mm[TS_LAYER_MMS_MAX];
    double M = lay->tokens_mb, t = (double)lay->tp, bound = 0.0, compute = 0.0;
    size_t i, n;
    if (!(rate > 0.0) || !(bw > 0.0) || !(M > 0.0)) return 1.0;
    {
        /* A GEMM's FLOPs per byte are at least 2 min(M, K, N) / (3 x its widest element):
         * when even the narrowest dimension any of the layer's GEMMs can have clears the
         * ridge point, all of them are compute-bound and the listing is not needed. */
        const ts_model *m = &cfg->model;
        double width = c->gemm_in > c->act ? c->gemm_in : c->act, d = lesser(M, (double)m->hidden);
        double kv = (double)ts_model_kv_heads(m);
        d = lesser(d, (double)ts_model_q_dim(m) / t);
        d = lesser(d, (kv >= t ? kv / t : 1.0) * (double)ts_model_head_dim(m)); /* a rank's keys */
        d = lesser(d, (double)(ts_model_is_moe(m) && m->dense_ffn ? m->dense_ffn : m->ffn) / t);
        if (m->kv_lora_rank) /* MLA: the latents, and the value heads' width (the output's input) */
            d = lesser(lesser(d, (double)m->kv_lora_rank),
                       lesser(m->q_lora_rank ? (double)m->q_lora_rank : d,
                              (double)m->heads * (double)ts_model_v_head_dim(m) / t));
        if (cfg->lora_rank) d = lesser(d, (double)cfg->lora_rank);
        if (2.0 * d / (3.0 * width) >= rate / bw) return 1.0;
    }
    n = ts_model_layer_mms(&cfg->model, 0, cfg->lora_rank, cfg->lora_targets, mm);
    for (i = 0; i < n; i++) {
        double K, N, flops, bytes, e = c->gemm_in, at_rate, at_bw;
        ts_mm_rank_shape(&cfg->model, &mm[i], t, &K, &N);
        flops = 2.0 * M * K * N;
        bytes = e * (M * K + K * N) + c->act * M * N;
        at_rate = flops / rate; /* both finite: rate, bw and M are positive (checked above) */
        at_bw = bytes / bw;
        compute += at_rate;
        bound += at_rate > at_bw ? at_rate : at_bw; /* fmax, without the call per matmul */
    }
    return compute > 0.0 ? bound / compute : 1.0;
}

double ts_kernel_token_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv, double mm,
                               double at, double peak_mm, double peak_at)
{
    const ts_model *m = &cfg->model;
    double gpus = (double)lay->gpus, eff_mm, eff_at, rest, softmax, bytes, bw, again, again_softmax, shape;
    double a = ts_precision_fp32(cfg->precision) ? 4.0 : 2.0, share16, clock;
    int fp8 = cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED;
    if (cfg->hfu > 0.0) return (mm / peak_mm + at / peak_at) / (gpus * cfg->hfu);
    share16 = mamf_share(cfg->gpu, 0); /* the attention's, and the matmuls' but in fp8 */
    clock = power_clock(cfg);
    eff_mm = (fp8 ? mamf_share(cfg->gpu, 1) * fp8_gemm_share(cfg, conv) : share16) * cfg->gemm_share *
             conv->gemm_stack * clock;
    /* flash attention at its kernel's measured rate; eager attention's batched GEMMs as the
     * matmuls run */
    eff_at = (cfg->attention == TRAINSIZE_ATTENTION_FLASH ? ts_attention_share(cfg, lay, conv->stack, share16)
                                                          : share16 * cfg->gemm_share) *
             clock * (ts_fp8_attention(cfg) ? TS_FP8_ATTENTION_GAIN : 1.0);
    bw = (double)cfg->gpu->memory_bandwidth * TS_MEMORY_SHARE;
    if (ts_model_is_cnn(m)) {
        /* a ResNet, an image a token: its convolutions at their share of the GEMM ceiling,
         * and BatchNorm, ReLU, the adds and pooling at memory bandwidth, forward and
         * backward (about twice the forward's traffic); NCHW under 16-bit precisions moves
         * the layouts cuDNN converts too */
        int fp32 = ts_precision_fp32(cfg->precision);
        int tf32 = fp32 && conv->tf32 == TS_TF32_CONVOLUTIONS;
        double t;
        bytes = 3.0 * a * lay->cnn.elementwise * (!fp32 && !conv->channels_last ? 1.0 + TS_NCHW_TRAFFIC : 1.0);
        t = mm / (peak_mm * share16 * clock * conv_share(cfg, tf32, fp32 && !tf32)) + (bw > 0.0 ? bytes / bw : 0.0);
        return t / gpus;
    }
    layer_elementwise(cfg, lay, conv, a, &rest, &softmax);
    shape = ts_kernel_gemm_roofline(cfg, lay, conv, peak_mm * eff_mm, bw);
    /* forward, backward (about twice the forward's traffic), and what recomputation repeats
     * over the share of the layers it applies to: full and per-op every element-wise op,
     * selective the softmax */
    again = cfg->recompute == TRAINSIZE_RECOMPUTE_NONE ? 0.0 : lay->recompute_share;
    /* selective repeats the softmax only when it recomputes attention's core */
    again_softmax =
        cfg->recompute == TRAINSIZE_RECOMPUTE_SELECTIVE && !(cfg->recompute_modules & TS_RC_CORE_ATTN)
            ? 0.0
            : again;
    bytes = (double)m->layers * ((3.0 + (ts_recompute_repeats_matmuls(cfg) ? again : 0.0)) * rest +
                                 (3.0 + again_softmax) * softmax);
    /* the loss over the vocabulary: 32-bit logits written, read and their gradient written */
    bytes += 3.0 * 4.0 * (double)ts_model_logit_width(m) * passes(conv->fused);
    return (mm * shape / (peak_mm * eff_mm) + at / (peak_at * eff_at) + (bw > 0.0 ? bytes / bw : 0.0)) / gpus;
}

double ts_kernel_optimizer_seconds(const ts_settings *cfg, const ts_conv *conv, const trainsize_memory *mem)
{
    /* The GPU's shard of the trained parameters, from the state it keeps of them (the
     * optimizer's bytes hold the fp32 master copy too); the step reads and writes that,
     * reads the gradients and writes the weights (a 16-bit copy beside an fp32 master,
     * else the weights are the master: read and written). AdamW in mixed precision:
     * 2 (8 + 4) + 4 + 2 = 30 bytes a parameter. */
    double state = (double)mem->optimizer - (double)mem->master_weights;
    double shard = conv->state > 0.0    ? state / conv->state
                   : conv->master > 0.0 ? (double)mem->master_weights / conv->master
                                        : 0.0;
    double bytes = 2.0 * (double)mem->optimizer +
                   shard * (conv->grad + (conv->master > 0.0 ? conv->weight : 2.0 * conv->weight));
    double bw = (double)cfg->gpu->memory_bandwidth * TS_MEMORY_SHARE;
    if (cfg->hfu > 0.0 || !(bw > 0.0)) return 0.0;
    return bytes / bw;
}

/* Training compute and time.
 *
 * FLOPs per token of the forward pass: 2 per multiply-accumulate of every matrix a token
 * goes through (the active parameters less the embedding look-ups), plus the attention
 * scores and their product with the values, 4 * seq * heads * head_dim per layer (PaLM,
 * Chowdhery et al. 2022, App. B: 6N + 12 L H Q T for forward and backward). The backward
 * pass costs twice the forward (Kaplan et al. 2020; Narayanan et al. 2021). With a frozen
 * base (LoRA) the weight gradients of the base are skipped: its matmuls cost one forward
 * in backward (input gradients only), the attention products still two. Full
 * recomputation repeats the layers' forward (Narayanan et al.'s 96 B s l h^2 instead of
 * 72); selective repeats the attention scores (Korthikanti et al. 2022, §5); per-op
 * repeats the matmuls its policy does not save (recompute.c), not attention. With
 * recompute-layers only the checkpointed share of the layers repeats anything.
 *
 * `model_flops` leaves recomputation out (what MFU counts); `flops` is what the GPUs
 * execute (what HFU counts). Time comes from the kernel-efficiency model (kernels.c):
 * the executed matmul and attention FLOPs at their peaks' achievable shares, the
 * element-wise work and the optimizer step at memory bandwidth; under fp8-mixed the linear
 * layers run at the fp8 peak and attention at the 16-bit peak; the 16-bit peak is the
 * datatype's own (BF16 or FP16, see peak_16bit).
 * The run's time adds what the server stage found compute does not hide. */
#include <math.h>

#include "catalog.h"
#include "error.h"
#include "stages.h"

/* The 16-bit tensor peak a job runs at: fp16 precisions use the FP16 figure where the
 * datasheet gives one apart (V100 has FP16 only), bf16 the BF16 figure; bf16 on a part
 * without it runs as fp16 (warned: TRAINSIZE_WARN_NO_BF16). A 0 FP16 figure means "the
 * same as BF16", as on every part since Ampere. */
static double peak_16bit(const trainsize_gpu_info *gpu, int fp16)
{
    if (fp16 || gpu->no_bf16) return gpu->flops_fp16 > 0.0 ? gpu->flops_fp16 : gpu->flops_bf16;
    return gpu->flops_bf16;
}

/* What fp32 work runs on the TF32 tensor cores: precision tf32 and tf32 yes put the matmuls
 * (a ResNet's convolutions) there; auto follows PyTorch's defaults (the CUDA semantics notes,
 * docs.pytorch.org/docs/stable/notes/cuda.html, "TensorFloat-32 (TF32) on Ampere (and
 * later) devices"): cuDNN's convolutions in TF32 (torch.backends.cudnn.allow_tf32 true),
 * matmuls in FP32 (torch.backends.cuda.matmul.allow_tf32 false since 1.12), except under
 * the Megatron stacks, run in NVIDIA's NGC PyTorch containers, whose image sets
 * TORCH_ALLOW_TF32_CUBLAS_OVERRIDE=1 (Project-MONAI/MONAI docs/source/precision_accelerating.md
 * notes the layer) and so TF32 matmuls. Nothing runs in TF32 on a GPU without it. */
int ts_tf32_resolve(const ts_settings *cfg, int stack, const char **reason)
{
    int what = ts_model_is_cnn(&cfg->model) ? TS_TF32_CONVOLUTIONS : TS_TF32_MATMULS;
    *reason = "";
    if (!ts_precision_fp32(cfg->precision)) return 0;
    if (!(cfg->gpu->flops_tf32 > 0)) {
        *reason = "no TF32 units on this GPU";
        return 0;
    }
    if (cfg->precision == TRAINSIZE_PRECISION_TF32) {
        *reason = "precision tf32";
        return what;
    }
    if (cfg->tf32 != TRAINSIZE_TRISTATE_AUTO) {
        *reason = cfg->tf32 == TRAINSIZE_TRISTATE_YES ? "tf32 yes" : "tf32 no";
        return cfg->tf32 == TRAINSIZE_TRISTATE_YES ? what : 0;
    }
    if (what == TS_TF32_CONVOLUTIONS) {
        *reason = "cuDNN's default in PyTorch";
        return what;
    }
    if (stack == TS_STACK_MEGATRON_LM || stack == TS_STACK_MEGATRON_CORE) {
        *reason = "the NGC containers' default under Megatron";
        return what;
    }
    *reason = "PyTorch's default";
    return 0;
}

const char *ts_tf32_name(int what)
{
    return what == TS_TF32_MATMULS ? "matmuls" : what == TS_TF32_CONVOLUTIONS ? "convolutions" : "";
}

/* The expected largest of n standard normal deviates, by Blom's formula (Blom 1958:
 * Phi^-1((n - 0.375) / (n + 0.25)), within 1 % of the exact values for n >= 2), with the
 * inverse normal of Acklam's rational approximation (relative error below 1.2e-9): 0 for one
 * GPU, 1.42 for 8, 3.7 for 10,000. */
static TS_INLINE_ALWAYS double expected_max_normal(double n)
{
    static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                               1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00};
    static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                               6.680131188771972e+01, -1.328068155288572e+01};
    static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                               -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00};
    static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                               3.754408661907416e+00};
    double p = (n - 0.375) / (n + 0.25), q;
    if (!(n > 1.0)) return 0.0;
    if (p <= 0.97575) { /* the central region (n up to about 40) */
        double r;
        q = p - 0.5;
        r = q * q;
        return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
               (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1.0);
    }
    q = sqrt(-2.0 * log(1.0 - p));
    return -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1.0);
}

/* A routed expert's GEMMs at tokens_per_expert over them + this many keep half their rate:
 * DeepGEMM's grouped FP8 GEMMs on H800 run 932, 1040, 1233 and 1346 TFLOP/s at 256, 512,
 * 1024 and 4096-8192 tokens an expert (deepseek-ai/DeepGEMM README, M-grouped contiguous
 * layout), 0.69-0.92 of their large-group rate, which tokens / (tokens + 128) follows; a
 * 16-bit GEMM does each token's work in twice the time, so its fixed part is half as many
 * tokens' (an assumption). */
#define TS_GROUPED_HALF_FP8 128.0
#define TS_GROUPED_HALF_16 64.0

/* The routed experts' matmuls against a dense layer's, as the step's pace: every rank waits
 * for its most loaded expert (moe-imbalance), and an expert's grouped GEMM runs below a
 * dense GEMM's rate with few tokens. A factor on the matmul FLOPs' time (1 for a dense
 * model); `matmul` is a token's forward matmul FLOPs. */
/* The routed experts' share of a token's forward matmul FLOPs (0 for a dense model). */
static double routed_share(const ts_settings *cfg, const ts_param_counts *pc, double matmul)
{
    const ts_model *m = &cfg->model;
    double experts, share;
    if (!ts_model_is_moe(m) || !(matmul > 0.0)) return 0.0;
    experts = 2.0 * (double)m->experts_per_token * (double)pc->expert * (double)pc->moe_layers; /* a token's routed FLOPs */
    share = experts / matmul;
    return share > 1.0 ? 1.0 : share;
}

static double moe_pace(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc, double matmul)
{
    const ts_model *m = &cfg->model;
    double share = routed_share(cfg, pc, matmul), tokens, half, efficiency;
    if (!(share > 0.0)) return 1.0;
    /* tokens an expert gets in a micro-batch: the ep ranks' tokens, k copies each, over the
     * experts */
    tokens = lay->tokens_mb * (double)lay->ep * (double)m->experts_per_token / (double)m->experts;
    half = cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED ? TS_GROUPED_HALF_FP8 : TS_GROUPED_HALF_16;
    efficiency = tokens / (tokens + half);
    return 1.0 + share * (cfg->moe_imbalance / efficiency - 1.0);
}

static TS_INLINE_ALWAYS double straggler(const ts_settings *cfg, uint64_t gpus)
{
    return 1.0 + cfg->gpu_variation * expected_max_normal((double)gpus);
}

double ts_straggler_factor(const ts_settings *cfg, uint64_t gpus) { return straggler(cfg, gpus); }

/* The floor under ts_kernel_token_seconds times the GPUs, for every layout: the matmuls of a
 * token without recomputation at the ceiling of their rate (ts_kernel_matmul_ceiling), each
 * expert's GEMM at its full rate (efficiency 1 in moe_pace), no attention, element-wise
 * work or optimizer step, all of which only add. */
double ts_compute_token_floor(const ts_settings *cfg, const ts_param_counts *pc, const ts_compute *cmp)
{
    double pace = 1.0 + routed_share(cfg, pc, cmp->matmul_forward) * (cfg->moe_imbalance - 1.0);
    double rate = ts_kernel_matmul_ceiling(cfg, cmp->peak_matmul);
    if (ts_model_is_cnn(&cfg->model) || !(rate > 0.0) || !(pace > 0.0)) return 0.0;
    return cmp->matmul_model * pace / rate;
}

/* A token's work in FLOPs: the forward's matmuls and attention, and every pass the method
 * runs over them (backward, reference, RL, side models, a vision tower), with what
 * recomputation repeats. */
typedef struct token_work {
    double matmul;       /* the forward's matmuls (MTP's included) */
    double layer_at;     /* the layers' attention in one forward */
    double attention;    /* the forward's attention (MTP's included) */
    double lm_head;      /* the output head's matmuls */
    double reference;    /* 1 when a reference model runs a forward of every sequence */
    double rl;           /* RL's extra passes of the policy's shape */
    double mm, at;       /* every pass, recomputation included */
    double mm_model, at_model; /* without recomputation: the model FLOPs */
    double critic_flops, reward_flops; /* a critic's and a reward model's own work */
} token_work;

/* The forward's FLOPs per token and the passes of the method (no recomputation). */
static void forward_and_passes(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                               token_work *w)
{
    const ts_model *m = &cfg->model;
    double seq = lay->seq_step, layers = (double)m->layers;
    /* Embedding look-ups are not matmuls (an untied output layer is; a tied one is the
     * embedding's matrix again); an encoder's segment embeddings and class token are
     * look-ups too, and its pooler or classifier runs once a sequence. */
    double lookups = (double)pc->position_embedding + (double)pc->embedding_other +
                     (!m->tied_embeddings || m->head != TS_HEAD_LM ? (double)pc->token_embedding : 0.0);
    double matmul = 2.0 * ((double)pc->active - lookups - (double)pc->head + (double)pc->head / seq);
    /* FlashAttention skips the blocks outside a sliding window; eager attention computes
     * every score and masks them. */
    double layer_at = ts_model_attention_flops(m, (uint64_t)lay->attend, cfg->attention == TRAINSIZE_ATTENTION_FLASH);
    /* a ResNet: its convolutions and classifier, 2 FLOPs a multiply-accumulate, an image a
     * token; no attention */
    if (ts_model_is_cnn(m)) {
        matmul = 2.0 * lay->cnn.macs;
        layer_at = 0.0;
    }
    double attention = layer_at;
    /* Multi-token prediction: its modules' matmuls (active experts), the output head once
     * more and a layer's attention, per depth. */
    double mtp = (double)m->mtp_layers;
    matmul += 2.0 * ((double)pc->mtp_active + mtp * (double)pc->token_embedding);
    attention += mtp * attention / layers;
    /* Per token: forward + backward, then what recomputation repeats; the reference of dpo,
     * grpo and ppo runs one more forward of every sequence (before training when
     * precomputed). */
    double reference = lay->reference != TS_REF_AUTO && lay->reference != TS_REF_NONE ? 1.0 : 0.0;
    /* RL (verl): one more forward for the old policy's log-probabilities; ppo's critic a
     * forward for its values and its own update (forward and backward), of the policy's
     * shape unless critic-model gives its own (below) */
    double own_critic = lay->critic.params > 0.0, ppo = cfg->method == TS_METHOD_PPO;
    double rl = lay->rl ? 1.0 + (ppo && !own_critic && !lay->critic_gpus ? 4.0 : 0.0) : 0.0;
    double mm = matmul * ((cfg->lora_rank ? 2.0 : 3.0) + reference + rl),
           at = attention * (3.0 + reference + rl);
    /* a critic of its own shape: its values and its update (4 passes); a reward model: a
     * forward of every response; each on GPUs of its own when it has them (below) */
    double critic_mm = 2.0 * 4.0 * lay->critic.mm, critic_at = 4.0 * lay->critic.attention;
    double reward_mm = 2.0 * lay->reward.mm, reward_at = lay->reward.attention;
    w->critic_flops = !ppo ? 0.0 : own_critic ? critic_mm + critic_at : 4.0 * (matmul + attention);
    w->reward_flops = reward_mm + reward_at;
    /* distillation: the teacher's forward of every token (0 otherwise) */
    mm += 2.0 * lay->teacher.mm;
    at += lay->teacher.attention;
    if (!lay->critic_gpus) { mm += critic_mm; at += critic_at; }
    if (!lay->reward_gpus) { mm += reward_mm; at += reward_at; }
    /* A multimodal model's images, once per sequence of seq tokens: the tower's forward (and
     * backward when it trains; a frozen one's input needs no gradient), the projector's
     * forward and weight gradients (its input's too when the tower trains); every extra
     * forward above (reference, old policy) runs them again. */
    double extra = reference + rl, tower_runs = lay->vision_trained ? 3.0 : 1.0;
    double proj_runs = lay->vision_trained ? 3.0 : 2.0;
    mm += (lay->vision_flops * (tower_runs + extra) + lay->projector_flops * (proj_runs + extra)) / seq;
    w->matmul = matmul;
    w->layer_at = layer_at;
    w->attention = attention;
    w->lm_head = m->head != TS_HEAD_LM ? 0.0 : 2.0 * (double)pc->token_embedding * (1.0 + mtp);
    w->reference = reference;
    w->rl = rl;
    w->mm = w->mm_model = mm;
    w->at = w->at_model = at;
}

/* What recomputation computes again, added to the passes. */
static void recomputed(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc, token_work *w)
{
    const ts_model *m = &cfg->model;
    double seq = lay->seq_step, layers = (double)m->layers, mtp = (double)m->mtp_layers;
    double matmul = w->matmul, lm_head = w->lm_head, attention = w->attention, layer_at = w->layer_at;
    /* full recomputation repeats a trained tower's forward too */
    if (cfg->recompute == TRAINSIZE_RECOMPUTE_FULL && lay->vision_trained) w->mm += lay->vision_flops / seq;
    /* The layers' share that is checkpointed (recompute-layers); the MTP modules' layers
     * follow the policy whole, as their activations do (activations.c). */
    double share = lay->recompute_share, mtp_mm = 2.0 * (double)pc->mtp_active;
    double again_mm = share >= 1.0 ? matmul - lm_head : share * (matmul - lm_head - mtp_mm) + mtp_mm;
    double again_at = share >= 1.0 ? attention : share * layer_at + (attention - layer_at);
    if (cfg->recompute == TRAINSIZE_RECOMPUTE_FULL) { w->mm += again_mm; w->at += again_at; }
    if (cfg->recompute == TRAINSIZE_RECOMPUTE_SELECTIVE && (cfg->recompute_modules & TS_RC_CORE_ATTN))
        w->at += again_at;
    if (cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP || cfg->recompute == TRAINSIZE_RECOMPUTE_SELECTIVE) {
        /* the matmuls the policy (per-op) or the modules (selective) compute again */
        double (*again)(const ts_settings *, int) = cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP
                                                        ? ts_per_op_recompute_flops
                                                        : ts_recompute_module_flops;
        double moe = (double)pc->moe_layers, dense = layers - moe;
        double as_dense = dense > 0 ? again(cfg, 0) : 0.0;
        double as_moe = moe > 0 ? again(cfg, 1) : 0.0;
        w->mm += share * (moe * as_moe + dense * as_dense) + mtp * (moe > 0 ? as_moe : as_dense);
    }
    /* a tiled MLP's backward runs each tile's forward once more (dense layers only) */
    if (cfg->mlp_tiles != 1 && !ts_model_is_cnn(m)) w->mm += (layers - (double)pc->moe_layers) * ts_mlp_block_flops(cfg, 0);
}

/* The peak FLOP/s the matmuls and attention run at, by precision. */
static int peaks(const ts_settings *cfg, const ts_conv *conv, double *peak_mm, double *peak_at,
                 trainsize_error *err)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    switch (cfg->precision) {
    case TRAINSIZE_PRECISION_FP32:
    case TRAINSIZE_PRECISION_TF32:
        /* the TF32 rate for what runs there: a transformer's matmuls and attention, a
         * ResNet's convolutions (its only matmul-class work) */
        *peak_mm = *peak_at = conv->tf32 ? gpu->flops_tf32 : gpu->flops_fp32;
        break;
    case TRAINSIZE_PRECISION_FP8_MIXED: *peak_mm = gpu->flops_fp8; *peak_at = peak_16bit(gpu, 0); break;
    case TRAINSIZE_PRECISION_FP16:
    case TRAINSIZE_PRECISION_FP16_MIXED:
        *peak_mm = *peak_at = peak_16bit(gpu, 1);
        break;
    default: *peak_mm = *peak_at = peak_16bit(gpu, 0); break;
    }
    if (!(*peak_mm > 0) || !(*peak_at > 0))
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "precision",
                       "precision: %s has no published peak FLOP/s for %s (TPUs and H20 publish no FP32 "
                       "rate); use bf16-mixed, or a gpu-file with the rate", gpu->name,
                       ts_precision_fp32(cfg->precision) ? "fp32" : "this precision");
    return TRAINSIZE_OK;
}

int ts_compute_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                    const ts_conv *conv, const trainsize_memory *mem, ts_compute *out,
                    trainsize_error *err)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    double layers = (double)cfg->model.layers;
    /* the tokens computed: padded to seq, or real without padding (tokens.c) */
    double tokens_step = (double)lay->global_batch * lay->seq_step * (double)lay->seqs_per_sample;
    double peak_mm, peak_at, seconds_per_token, mm, at;
    token_work w;
    int rc;

    forward_and_passes(cfg, lay, pc, &w);
    recomputed(cfg, lay, pc, &w);
    if ((rc = peaks(cfg, conv, &peak_mm, &peak_at, err))) return rc;
    mm = w.mm;
    at = w.at;
    seconds_per_token = ts_kernel_token_seconds(cfg, lay, conv, mm * moe_pace(cfg, lay, pc, w.matmul), at, peak_mm,
                                                peak_at);
    out->step_flops = (mm + at) * tokens_step;
    /* what ts_compute_token_floor bounds by */
    out->matmul_model = w.mm_model;
    out->matmul_forward = w.matmul;
    /* the fastest any layout's stack runs them at: the Megatron stacks put fp32 matmuls on
     * the TF32 units (ts_tf32_resolve), the others not by default */
    out->peak_matmul = ts_precision_fp32(cfg->precision) && gpu->flops_tf32 > peak_mm ? gpu->flops_tf32 : peak_mm;
    /* The pipeline bubble: the schedule's idle share of the ideal step (layout.c). The
     * slowest stage sets the pace: with uneven stages the fullest has more than its share
     * of the layers. */
    out->step_seconds = seconds_per_token * tokens_step * lay->bubble *
                        ((double)lay->pp * (double)lay->layers_per_stage / layers);
    /* A synchronous step runs at the pace of its slowest GPU: the expected lag of the
     * slowest of n over the mean, gpu-variation x the expected largest of n normal
     * deviates (the stragglers of Wu et al. 2024, "FALCON", arXiv 2410.12588, and of
     * MegaScale, arXiv 2402.15627, as a spread of speeds). */
    out->step_seconds *= straggler(cfg, lay->gpus);
    /* The critic's and the reward model's work on GPUs of their own, at the policy's kernel
     * rate a GPU, beside the policy's passes of the same phase (side_models.c). */
    out->critic_seconds = out->reward_seconds = 0.0;
    if (lay->critic_gpus || lay->reward_gpus) {
        double passes = (cfg->lora_rank ? 2.0 : 3.0) + w.reference + w.rl;
        out->step_seconds =
            ts_side_step(lay, out->step_seconds, (w.reference + w.rl) / passes, w.critic_flops * tokens_step,
                         w.reward_flops * tokens_step,
                         seconds_per_token > 0.0 ? (mm + at) / (seconds_per_token * (double)lay->gpus) : 0.0,
                         &out->critic_seconds, &out->reward_seconds);
    }
    /* After the micro-batches, overlapping none of their compute or communication: the
     * optimizer's pass over its state and the step's fixed overhead. */
    out->rollout_seconds = ts_rollout_seconds(cfg, lay, pc);
    /* an engine on GPUs of its own must hold its weights in its share of them */
    if (lay->rollout_gpus &&
        ts_rollout_weight_bytes(cfg, pc) > cfg->rollout_memory_share * (double)lay->capacity)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "rollout-tp",
                       "rollout-tp: the engine's 16-bit weights, %.1f GiB a GPU, are more than "
                       "rollout-memory-share of an engine GPU (%.1f GiB): raise rollout-tp, rollout-pp or the share",
                       ts_rollout_weight_bytes(cfg, pc) / 1073741824.0,
                       cfg->rollout_memory_share * (double)lay->capacity / 1073741824.0);
    out->overhead_seconds = ts_step_overhead(cfg, lay, conv, out->step_seconds);
    out->serial_seconds =
        ts_kernel_optimizer_seconds(cfg, conv, mem) + out->overhead_seconds + out->rollout_seconds;
    /* reward-offload: the reward model's weights come over the host link once a step */
    if (cfg->reward_offload) out->serial_seconds += ts_reward_rank_bytes(lay, conv) / ts_host_link_rate(cfg->gpu);
    out->steps = cfg->tokens ? (uint64_t)ceil((double)cfg->tokens / tokens_step) : 1;
    out->tokens = tokens_step * (double)out->steps; /* whole steps, as trained */
    out->flops = out->step_flops * (double)out->steps;
    out->model_flops = (w.mm_model + w.at_model) * tokens_step * (double)out->steps;
    if (!isfinite(out->flops) || !isfinite(out->step_seconds * (double)out->steps))
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "tokens", "tokens: compute does not fit a double");
    return ts_ok(err);
}

/* Activation offload (activation-offload): a micro-batch's layer activations cross the
 * GPU's host link twice, to the host as each layer's forward ends and back before its
 * backward, on a side stream under that micro-batch's compute: only what exceeds it adds
 * time (the same rule as ZeRO-Infinity's parameter fetches, system.c). */
double ts_activation_offload_seconds(const ts_settings *cfg, const ts_layout *lay,
                                     double moved_per_micro, const ts_compute *cmp)
{
    double m = (double)lay->micro_batches, transfer;
    if (!cfg->activation_offload || !(moved_per_micro > 0)) return 0.0;
    transfer = 2.0 * moved_per_micro / ts_host_link_rate(cfg->gpu);
    return m * fmax(0.0, transfer - cmp->step_seconds / m);
}

void ts_time_make(const ts_compute *cmp, const ts_step_losses *losses, const ts_layout *lay,
                  trainsize_time *out)
{
    out->flops = cmp->flops;
    out->step_flops = cmp->step_flops;
    out->model_flops = cmp->model_flops;
    out->tokens = cmp->tokens;
    out->steps = cmp->steps;
    out->comm_seconds = losses->comm;
    out->offload_seconds = losses->offload;
    out->rollout_seconds = cmp->rollout_seconds + losses->rollout_sync + losses->rollout_network;
    out->overhead_seconds = cmp->overhead_seconds;
    out->step_seconds =
        cmp->step_seconds + cmp->serial_seconds + losses->comm + losses->offload + losses->rollout_sync +
        losses->rollout_network;
    out->seconds = out->step_seconds * (double)out->steps;
    out->gpu_hours = out->seconds * (double)lay->billed_gpus / 3600.0; /* the engines' GPUs too */
}

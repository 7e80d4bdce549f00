/* Parallel layout: validation (every degree must divide what it splits) and the derived
 * degrees. Data parallel = gpus / (tp * pp * cp), as Megatron-LM defines it; experts are
 * sharded over ep ranks carved from dp * cp (Megatron-Core's expert-data-parallel group). */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "catalog.h"
#include "error.h"
#include "stages.h"

#define U(x) ((unsigned long long)(x))

static int check_divides(uint64_t d, uint64_t n, const char *field, const char *what,
                         trainsize_error *err)
{
    if (d == 0 || n % d != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, field, "%s: %llu does not divide %s (%llu)", field,
                       U(d), what, U(n));
    return TRAINSIZE_OK;
}

/* Whether the embedding and the loss can each take a layer's slot: no first or last stage
 * set, and the n + 2 slots dividing over the p x v chunks into k of at least 1, the first
 * and the last chunk holding k - 1 layers (Megatron-Core's account_for_embedding_ and
 * account_for_loss_in_pipeline_split). */
static int embedding_split_fits(const ts_settings *cfg, const ts_layout *l)
{
    uint64_t n = cfg->model.layers, chunks = l->pp * l->vpp;
    if (cfg->pp_account_embedding == TRAINSIZE_TRISTATE_NO || cfg->pp_first_layers || cfg->pp_last_layers)
        return 0;
    return (n + 2) % chunks == 0 && (n + 2) / chunks >= 1 && (l->pp > 2 || l->vpp * ((n + 2) / chunks) >= 2);
}

/* Interleaved stages whose chunks the layers do not divide: the embedding and the loss take
 * a layer's slot each and the n + 2 slots spread over the p x v chunks as evenly as whole
 * slots go, one more in each of the chunks after the first until the remainder is used
 * (chunk i on stage i mod p, so the extra slots fall on the stages in turn); with
 * pp-account-embedding no, the n layers alone. A stage holds its v chunks' layers.
 * Megatron-Core runs such splits from a pipeline layout (its
 * --pipeline-model-parallel-layout, one layer count a virtual stage): 61 layers on pp 4 x
 * pp-interleave 8 are 14, 16, 16 and 15 layers. */
static int split_virtual(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    int account = cfg->pp_account_embedding != TRAINSIZE_TRISTATE_NO;
    uint64_t n = cfg->model.layers, p = l->pp, v = l->vpp, chunks = p * v, slots = n + (account ? 2 : 0);
    uint64_t q = slots / chunks, r = slots % chunks, stage, most = 0;
    if (q == 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-interleave",
                       "pp-interleave: pp x pp-interleave = %llu virtual stages are more than the %llu "
                       "layers%s", U(chunks), U(n), account ? " with the embedding and the loss" : "");
    for (stage = 0; stage < p; stage++) {
        uint64_t j, held = 0;
        for (j = 0; j < v; j++) {
            uint64_t i = j * p + stage; /* the chunk's place in the model */
            held += q + (i >= 1 && i <= r ? 1 : 0);
        }
        if (account) held -= (stage == 0) + (stage + 1 == p); /* the embedding's and the loss's slots */
        if (stage == 0) l->first_layers = held;
        else if (stage + 1 == p) l->last_layers = held;
        else if (held > most) most = held;
    }
    /* the fullest middle stage stands for them all (memory and pace) */
    l->mid_layers = p > 2 ? most : l->first_layers;
    l->embedding_slots = account;
    return TRAINSIZE_OK;
}

/* Layers per pipeline stage. Even when they divide; otherwise Megatron-LM's uneven split
 * (--decoder-first/last-pipeline-num-layers): the middle stages get the same count and the
 * first and last stages what is left, as Llama 3 405B ran 126 layers on 16 stages
 * (Dubey et al. 2024, §3.3.2: one layer fewer on the first and the last stage). */
static int split_stages(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    uint64_t n = cfg->model.layers, p = l->pp, f = cfg->pp_first_layers, e = cfg->pp_last_layers;
    uint64_t mids = p - (f > 0) - (e > 0), rest;
    if (p == 1) {
        if (f || e)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, f ? "pp-first-layers" : "pp-last-layers",
                           "%s: needs pipeline parallelism (pp > 1)",
                           f ? "pp-first-layers" : "pp-last-layers");
        l->first_layers = l->mid_layers = l->last_layers = n;
        return TRAINSIZE_OK;
    }
    if (cfg->pp_account_embedding != TRAINSIZE_TRISTATE_NO && !f && !e) {
        /* the embedding and the loss as a layer each: the first and the last stage a layer short */
        uint64_t chunks = p * l->vpp, k = (n + 2) / chunks;
        int fits = embedding_split_fits(cfg, l);
        if (cfg->pp_account_embedding == TRAINSIZE_TRISTATE_YES && !fits)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-account-embedding",
                           "pp-account-embedding: the %llu layers + the embedding and the loss do not "
                           "divide over pp x pp-interleave = %llu chunks", U(n), U(chunks));
        if (fits && (cfg->pp_account_embedding == TRAINSIZE_TRISTATE_YES || n % chunks != 0)) {
            l->first_layers = l->last_layers = l->vpp * k - 1;
            l->mid_layers = p > 2 ? l->vpp * k : l->first_layers;
            l->embedding_slots = 1;
            return TRAINSIZE_OK;
        }
    }
    if (!f && !e && l->vpp > 1 && n % (p * l->vpp) != 0) return split_virtual(cfg, l, err);
    if (!f && !e && n % p != 0 && l->vpp == 1) {
        /* The middle stages take ceil(n / p); the first and the last share the rest. */
        uint64_t m = (n + p - 1) / p, left = p == 2 ? n : n > m * (p - 2) ? n - m * (p - 2) : 0;
        f = left / 2;
        e = left - f;
        if (f == 0)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp",
                           "pp: %llu layers do not split over %llu stages (set pp-first-layers "
                           "and pp-last-layers)", U(n), U(p));
        mids = p - 2;
    }
    if (f >= n)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-first-layers",
                       "pp-first-layers: %llu leaves no layers for the other stages of %llu",
                       U(f), U(n));
    if (e >= n || f + e > n)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-last-layers",
                       "pp-last-layers: %llu with pp-first-layers %llu is more than the %llu layers",
                       U(e), U(f), U(n));
    rest = n - f - e;
    if (mids == 0) {
        if (rest != 0)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-last-layers",
                           "pp-first-layers + pp-last-layers must be the %llu layers when pp = 2", U(n));
    } else if (rest == 0 || rest % mids != 0) {
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp",
                       "pp: %llu layers do not divide over the %llu stages between the first and "
                       "the last (set pp-first-layers and pp-last-layers)", U(rest), U(mids));
    }
    l->mid_layers = mids ? rest / mids : 0;
    l->first_layers = f ? f : l->mid_layers;
    l->last_layers = e ? e : l->mid_layers;
    return TRAINSIZE_OK;
}

uint64_t ts_stage_layers(const ts_layout *lay, uint64_t stage)
{
    if (stage == 0) return lay->first_layers;
    return stage + 1 == lay->pp ? lay->last_layers : lay->mid_layers;
}

uint64_t ts_stage_moe_layers(const ts_layout *lay, const ts_model *m, uint64_t stage)
{
    uint64_t n = ts_stage_layers(lay, stage), first;
    /* Interleaved chunks spread a stage over the model: its share of the MoE layers. */
    if (lay->vpp > 1)
        return (uint64_t)((double)ts_model_moe_layers_in(m, 0, m->layers) * (double)n /
                          (double)m->layers + 0.5);
    first = stage == 0 ? 0 : stage + 1 == lay->pp ? m->layers - lay->last_layers
                                                  : lay->first_layers + (stage - 1) * lay->mid_layers;
    return ts_model_moe_layers_in(m, first, n);
}

uint64_t ts_stage_recomputed_layers(const ts_layout *lay, uint64_t stage)
{
    uint64_t n = ts_stage_layers(lay, stage), chunk = n / lay->vpp;
    if (!lay->recompute_on) return 0;
    if (lay->recompute_layers == 0 || lay->recompute_layers >= chunk) return n;
    /* Megatron-LM's block method: the first N layers of each model chunk (TransformerBlock,
     * one per virtual stage) are checkpointed, the rest run as usual. */
    return lay->recompute_layers * lay->vpp;
}

/* The share of the model's layers that the recomputation applies to, over the stages. */
static double recompute_share(const ts_layout *l, uint64_t layers)
{
    double n = (double)ts_stage_recomputed_layers(l, 0);
    if (l->pp > 1) {
        n += (double)ts_stage_recomputed_layers(l, l->pp - 1);
        if (l->pp > 2) n += (double)(l->pp - 2) * (double)ts_stage_recomputed_layers(l, 1);
    }
    return n / (double)layers;
}

/* A ResNet trains data-parallel (ZeRO and offload allowed): what splits a transformer's
 * layers, sequences or experts, adapters, post-training methods and recomputation are not
 * modelled for it, each refused by name. */
static int check_cnn(const ts_settings *cfg, const ts_layout *l, trainsize_error *err)
{
    const char *f = l->tp > 1 ? "tp" : l->pp > 1 ? "pp" : l->cp > 1 ? "cp" : l->ep > 1 ? "ep"
                    : cfg->lora_rank ? "lora-rank" : cfg->method != TS_METHOD_SFT ? "method"
                    : cfg->recompute != TRAINSIZE_RECOMPUTE_NONE ? "recompute"
                    : cfg->activation_offload ? "activation-offload"
                    : cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED ? "precision" : NULL;
    if (!f) return TRAINSIZE_OK;
    return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, f,
                   "%s: not modelled for a convolutional network (ResNets train data-parallel, "
                   "supervised, in 16- or 32-bit precision)", f);
}

/* The model's split over the ranks: heads, key/value heads and the MLP over tp, the experts
 * over ep (and etp), the sequence over cp and sequence parallelism. */
static int check_ranks_split_model(const ts_settings *cfg, const ts_layout *l, trainsize_error *err)
{
    const ts_model *m = &cfg->model;
    uint64_t kv = ts_model_kv_heads(m);
    int rc;
    if ((rc = check_divides(l->tp, m->heads, "tp", "the attention heads", err))) return rc;
    if (kv >= l->tp ? kv % l->tp != 0 : l->tp % kv != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "tp",
                       "tp: %llu and the key/value heads (%llu) must divide one another", U(l->tp),
                       U(kv));
    if ((rc = check_divides(l->tp, m->ffn, "tp", "the MLP size (ffn)", err))) return rc;
    if (l->vpp > 1 && l->pp == 1)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-interleave",
                       "pp-interleave: needs pipeline parallelism (pp > 1)");
    if (ts_model_is_moe(m)) {
        if ((rc = check_divides(l->ep, m->experts, "ep", "the experts", err))) return rc;
        if ((rc = check_divides(l->etp, m->ffn, "etp", "the experts' MLP size (ffn)", err))) return rc;
        /* MoE parallel folding (Megatron-Core): the experts' ep x etp ranks span the
         * attention's tp x cp x dp; unfolded (etp = tp) that is ep dividing dp x cp */
        if (l->etp == l->tp) {
            if ((rc = check_divides(l->ep, l->dp * l->cp, "ep", "dp x cp", err))) return rc;
        } else if ((rc = check_divides(l->ep * l->etp, l->tp * l->cp * l->dp, "ep",
                                       "tp x cp x dp with etp (ep x etp must)", err))) {
            return rc;
        }
    } else if (l->ep > 1) {
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "ep", "ep: expert parallelism needs an MoE model");
    }
    if (m->shared_experts && (rc = check_divides(l->tp, m->shared_expert_ffn, "tp",
                                                  "the shared-expert size", err)))
        return rc;
    /* Load-balanced context parallelism splits the sequence into 2 x cp chunks
     * (Transformer Engine's causal ring attention). */
    if (l->cp > 1 &&
        (rc = check_divides(2 * l->cp, cfg->seq, "cp", "the sequence length (2 x cp chunks)", err)))
        return rc;
    /* Sequence parallelism scatters the sequence over the tensor-parallel ranks, which
     * Megatron-LM's split along the sequence dimension requires to divide evenly. */
    if (l->sp && l->tp > 1 && cfg->seq % (l->tp * l->cp) != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "seq",
                       "seq: %llu tokens do not split evenly over tp x cp = %llu ranks, as sequence "
                       "parallelism needs", U(cfg->seq), U(l->tp * l->cp));
    return TRAINSIZE_OK;
}

/* The method and the models beside the one trained: a teacher, a critic, a reward model, a
 * reference, a rollout engine's GPUs, each only where its method has one. */
static int check_method_models(const ts_settings *cfg, trainsize_error *err)
{
    const ts_model *m = &cfg->model;
    if (cfg->method != TS_METHOD_SFT && m->head != TS_HEAD_LM)
        return ts_fail(err, TRAINSIZE_E_INVALID, "method",
                       "method: dpo, grpo, ppo and distill score sequences by their tokens' "
                       "log-probabilities: they need an output layer over the vocabulary (head lm)");
    if (cfg->method == TS_METHOD_DISTILL) {
        const ts_model *t = cfg->teacher;
        if (!t)
            return ts_fail(err, TRAINSIZE_E_INVALID, "teacher", "teacher: distill needs a teacher (a preset)");
        if (t->head != TS_HEAD_LM || t->vocab != m->vocab)
            return ts_fail(err, TRAINSIZE_E_INVALID, "teacher",
                           "teacher: %s's logits (vocabulary %llu) do not match the student's (%llu): "
                           "distillation compares them token by token", t->name, U(t->vocab), U(m->vocab));
        if (cfg->reference != TS_REF_AUTO)
            return ts_fail(err, TRAINSIZE_E_INVALID, "reference",
                           "reference: distill has a teacher, not a reference");
    } else if (cfg->teacher) {
        return ts_fail(err, TRAINSIZE_E_INVALID, "teacher", "teacher: a teacher belongs to method distill");
    }
    if (cfg->critic && cfg->method != TS_METHOD_PPO)
        return ts_fail(err, TRAINSIZE_E_INVALID, "critic-model", "critic-model: a critic belongs to method ppo");
    if (cfg->reward && !ts_is_rl(cfg->method))
        return ts_fail(err, TRAINSIZE_E_INVALID, "reward-model",
                       "reward-model: a reward model belongs to methods grpo and ppo");
    if (cfg->method == TS_METHOD_SFT && cfg->reference != TS_REF_AUTO)
        return ts_fail(err, TRAINSIZE_E_INVALID, "reference",
                       "reference: a reference model belongs to methods dpo, grpo and ppo, not to sft");
    if (cfg->method == TS_METHOD_DPO && cfg->reference == TS_REF_NONE)
        return ts_fail(err, TRAINSIZE_E_INVALID, "reference",
                       "reference: dpo needs the reference's log-probabilities (precomputed keeps none "
                       "on the GPU)");
    if (ts_is_rl(cfg->method) && cfg->reference == TS_REF_PRECOMPUTED)
        return ts_fail(err, TRAINSIZE_E_INVALID, "reference",
                       "reference: grpo and ppo score new responses every step: none can be precomputed");
    if (cfg->rollout_gpus && !(ts_is_rl(cfg->method) && cfg->rollout == TS_ROLLOUT_SEPARATE))
        return ts_fail(err, TRAINSIZE_E_INVALID, "rollout-gpus",
                       "rollout-gpus: GPUs of their own belong to rollout separate (grpo, ppo)");
    if (ts_is_rl(cfg->method) && cfg->rollout == TS_ROLLOUT_SEPARATE &&
        (cfg->rollout_gpus < ts_rollout_width(cfg) || cfg->rollout_gpus % ts_rollout_width(cfg) != 0))
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "rollout-gpus",
                       "rollout-gpus: %llu: rollout separate needs the engines' GPUs, a multiple of "
                       "%s (%llu)", U(cfg->rollout_gpus), cfg->rollout_pp > 1 ? "rollout-tp x rollout-pp" : "rollout-tp",
                       U(ts_rollout_width(cfg)));
    if (ts_is_rl(cfg->method) && cfg->response_tokens >= cfg->seq)
        return ts_fail(err, TRAINSIZE_E_INVALID, "response-tokens",
                       "response-tokens: %llu leaves no prompt in a sequence of %llu (seq)",
                       U(cfg->response_tokens), U(cfg->seq));
    if (cfg->reference == TS_REF_ADAPTERS_OFF && !cfg->lora_rank)
        return ts_fail(err, TRAINSIZE_E_INVALID, "reference",
                       "reference: adapters-off needs LoRA adapters to turn off (lora-rank)");
    return TRAINSIZE_OK;
}

/* What a sample holds against what the model takes: images against the sequence, a vision
 * tower LoRA cannot train, a sequence beyond learned positions (GPT-2's one row each). */
static int check_sample_fits(const ts_settings *cfg, trainsize_error *err)
{
    const ts_model *m = &cfg->model;
    if (m->vision_layers && cfg->images && m->image_tokens &&
        (double)cfg->images * (double)m->image_tokens > (double)cfg->seq)
        return ts_fail(err, TRAINSIZE_E_INVALID, "images",
                       "images: %llu of %llu tokens each (image-tokens) take more than the sequence "
                       "of %llu (seq counts the image tokens, as TRL's max_length does)",
                       U(cfg->images), U(m->image_tokens), U(cfg->seq));
    if (m->vision_layers && !cfg->freeze_vision && cfg->lora_rank)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "freeze-vision",
                       "freeze-vision: false trains the vision tower in full, which LoRA does not "
                       "model (its adapters go on the language model; the tower stays frozen)");
    if (m->positions && cfg->seq > m->positions)
        return ts_fail(err, TRAINSIZE_E_INVALID, "seq",
                       "seq: %llu tokens is beyond the model's %llu learned positions (set "
                       "positions to model a longer table)", U(cfg->seq), U(m->positions));
    return TRAINSIZE_OK;
}

static int check_model_split(const ts_settings *cfg, const ts_layout *l, trainsize_error *err)
{
    int rc;
    if (ts_model_is_cnn(&cfg->model)) return check_cnn(cfg, l, err);
    if ((rc = check_ranks_split_model(cfg, l, err)) || (rc = check_method_models(cfg, err)))
        return rc;
    return check_sample_fits(cfg, err);
}

static int check_setup(const ts_settings *cfg, const ts_layout *l, trainsize_error *err)
{
    int rc;
    if (cfg->cp > 1 && cfg->attention == TRAINSIZE_ATTENTION_EAGER)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "cp",
                       "cp: context parallelism needs flash (ring) attention");
    if (cfg->zero >= 2 && l->pp > 1) {
        const char *why;
        int stack = ts_stack_resolve(cfg, &why);
        if (stack != TS_STACK_TORCHTITAN && stack != TS_STACK_FSDP)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "zero",
                           "zero: stages 2 and 3 cannot be combined with pipeline parallelism under "
                           "the %s stack (DeepSpeed and Megatron-LM refuse it); FSDP2 with a "
                           "pipeline runs under torchtitan (--stack torchtitan)", ts_stack_name(stack));
    }
    if ((rc = ts_offload_check(cfg->zero, cfg->offload, "offload", "offload", "zero", err))) return rc;
    if (cfg->lora_rank && (cfg->lora_targets & TS_LORA_GATE) && !cfg->model.gated_mlp)
        return ts_fail(err, TRAINSIZE_E_INVALID, "lora-targets",
                       "lora-targets: gate needs a gated MLP (this model's MLP has up and down only)");
    if (cfg->lora_rank > cfg->model.hidden)
        return ts_fail(err, TRAINSIZE_E_INVALID, "lora-rank",
                       "lora-rank: %llu is larger than the hidden size (%llu)", U(cfg->lora_rank),
                       U(cfg->model.hidden));
    if (cfg->quantize_base != TRAINSIZE_QUANTIZE_NONE && cfg->lora_rank == 0)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "quantize-base",
                       "quantize-base: a quantized base is frozen; set lora-rank");
    if (cfg->precision == TRAINSIZE_PRECISION_TF32 && cfg->gpu && !(cfg->gpu->flops_tf32 > 0))
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "precision",
                       "precision: %s has no TF32 tensor cores (Ampere and later have them); use fp32",
                       cfg->gpu->name);
    if (cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED && cfg->gpu && cfg->gpu->flops_fp8 <= 0)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "precision",
                       "precision: %s has no FP8 tensor cores", cfg->gpu->name);
    if ((cfg->precision == TRAINSIZE_PRECISION_FP16_MIXED || cfg->precision == TRAINSIZE_PRECISION_FP16) &&
        cfg->gpu && cfg->gpu->no_fp16)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "precision",
                       "precision: %s has no fp16 matrix units (XLA trains TPUs in bf16); use "
                       "bf16-mixed", cfg->gpu->name);
    return TRAINSIZE_OK;
}

/* Servers hold up to 8 GPUs (HGX/DGX boards), or as many as the product puts in one host
 * (a GB200 tray 4, a TPU v5p host 4); unset, the largest count up to that which divides
 * the job's GPUs, so 12 GPUs are 2 x 6 rather than an error. */
static uint64_t default_gpus_per_node(uint64_t gpus, const trainsize_gpu_info *gpu)
{
    uint64_t n, most = ts_host_size(gpu);
    for (n = gpus < most ? gpus : most; n > 1; n--)
        if (gpus % n == 0) return n;
    return 1;
}

/* The global batch when the job sets none, and why (layout.global_batch_reason).
 * - A pretraining run (--tokens given, all weights trained) steps about
 *   TS_PRETRAIN_STEP_TOKENS tokens, as the planner does: LLaMA's 4M (Touvron et al. 2023,
 *   section 2.2; Llama 3 405B started at 4M, Dubey et al. 2024, section 3.4.1), in whole
 *   micro-batch x data-parallel steps, never more tokens than the run trains. A batch of
 *   micro-batch x dp alone would make a 72-GPU run step 72 samples and spend its time in
 *   the gradient all-reduce.
 * - Fine-tuning (LoRA, QLoRA) or a single step: what the Hugging Face Trainer and
 *   Accelerate do by default, one micro-batch per data-parallel rank and no gradient
 *   accumulation (gradient_accumulation_steps = 1).
 * Either way a pipeline gets at least pp micro-batches, the fewest for which 1F1B reaches
 * its steady state, and a multiple of pp when interleaved (Megatron-LM's rule). */
static void default_global_batch(const ts_settings *cfg, ts_layout *l, uint64_t per_step)
{
    uint64_t steps = 1;
    l->pretraining_batch = 0;
    if (cfg->global_batch) {
        l->global_batch = cfg->global_batch;
        l->global_batch_reason = "global-batch as set";
        return;
    }
    if (cfg->tokens && !cfg->lora_rank && cfg->method == TS_METHOD_SFT && !ts_model_is_cnn(&cfg->model)) {
        double target = fmin(TS_PRETRAIN_STEP_TOKENS, (double)cfg->tokens) / (double)cfg->seq;
        double whole = floor(target / (double)per_step + 0.5);
        /* never more tokens a step than the run trains (a short run: what it has) */
        if (whole * (double)per_step * (double)cfg->seq > (double)cfg->tokens)
            whole = floor((double)cfg->tokens / (double)cfg->seq / (double)per_step);
        steps = (uint64_t)fmax(1.0, whole);
        l->pretraining_batch = 1;
        l->global_batch_reason = (double)cfg->tokens < TS_PRETRAIN_STEP_TOKENS
                                     ? "a run under 4M tokens: the largest whole micro-batch x "
                                       "data-parallel batch its tokens fill"
                                     : "about 4M tokens per step, LLaMA's pretraining batch, as "
                                       "--tokens is given";
    } else {
        l->global_batch_reason = ts_model_is_cnn(&cfg->model)
                                     ? "micro-batch x data-parallel, no gradient accumulation: "
                                       "an image classifier's per-GPU batch"
                                 : cfg->lora_rank || cfg->method != TS_METHOD_SFT
                                     ? "micro-batch x data-parallel, no gradient "
                                       "accumulation: fine-tuning's default"
                                     : "micro-batch x data-parallel, no gradient "
                                       "accumulation: one step, no --tokens";
    }
    if (steps < l->pp) steps = l->pp;
    if (l->vpp > 1 && steps % l->pp != 0) steps += l->pp - steps % l->pp;
    l->global_batch = per_step * steps; /* steps <= 4.2e6 tokens: no overflow */
}

const char *ts_pp_schedule_name(int schedule)
{
    static const char NAMES[][TS_NAME_WIDTH(pp_schedule)] = {TS_PP_SCHEDULE_LIST(TS_NAME_ITEM)};
    return NAMES[schedule >= 0 && schedule < TS_PP_SCHEDULE_COUNT ? schedule : 0];
}

/* The pipeline schedule and its bubble, as a share of the ideal step: 1F1B's (p - 1)/m
 * idle slots (Narayanan et al. 2021, §2.2), interleaved over v chunks; ZB-H1 a third of
 * 1F1B's, splitting the backward into input (B) and weight (W) gradients with F = B = W
 * (Qi et al. 2023, arXiv 2401.10241, Table 1: (p-1)(F+B-W) against (p-1)(F+B+W)); ZB-H2
 * none; DualPipe (DeepSeek-V3, arXiv 2412.19437, Table 2) (p/2 - 1)(F&B + B - 3W), none
 * with F&B = F + B and F = B = W. */
static int set_schedule(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    double p = (double)l->pp, m = (double)l->micro_batches, b;
    int s = cfg->pp_schedule;
    if (s == TS_PP_AUTO) s = l->vpp > 1 ? TS_PP_INTERLEAVED : TS_PP_1F1B;
    if (l->pp == 1) s = TS_PP_1F1B;
    else if ((s == TS_PP_INTERLEAVED) != (l->vpp > 1))
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-schedule",
                       s == TS_PP_INTERLEAVED ? "pp-schedule: interleaved needs pp-interleave > 1"
                                              : "pp-schedule: %s runs one chunk per stage (pp-interleave 1)",
                       ts_pp_schedule_name(s));
    if (s == TS_PP_DUALPIPE && (l->pp % 2 != 0 || l->micro_batches % 2 != 0))
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "pp-schedule",
                       "pp-schedule: dualpipe needs an even pp and an even number of micro-batches per "
                       "step (%llu)", U(l->micro_batches));
    b = s == TS_PP_ZB_H1 ? (p - 1.0) / (3.0 * m)
        : s == TS_PP_ZB_H2 || s == TS_PP_DUALPIPE ? 0.0
                                                  : (p - 1.0) / ((double)l->vpp * m);
    l->schedule = s;
    l->bubble = 1.0 + b;
    return TRAINSIZE_OK;
}

/* A multimodal model's images, per sample: the tower's and the projector's forward FLOPs
 * (vision.c), whether the tower trains, and the patches a micro-batch sends through it
 * (every sequence of a sample carries its images: DPO's chosen and rejected both). */
static void vision_figures(const ts_settings *cfg, ts_layout *l)
{
    const ts_model *m = &cfg->model;
    double images = m->vision_layers ? (double)cfg->images : 0.0, projector = 0.0;
    double tower = ts_model_vision_flops(m, &projector);
    l->vision_trained = m->vision_layers && !cfg->freeze_vision && !cfg->lora_rank;
    l->vision_flops = images * (tower - projector);
    l->projector_flops = images * projector;
    l->vision_patches_mb = images * (double)m->vision_patches * (double)cfg->micro_batch *
                           (double)l->seqs_per_sample;
}

/* An engine takes part of a server, or whole servers (verl's rollout tensor parallelism 16
 * across two servers, 32 across four for DeepSeek-V3: its decode's all-reduces cross the
 * network, rollout.c), its tensor-parallel group too, and the engines tile the GPUs they run
 * on. With pipeline stages (rollout-pp) the refusal names it. */
static int check_engine_shape(const ts_settings *cfg, const ts_layout *l, trainsize_error *err)
{
    uint64_t g = l->gpus_per_node, w = ts_rollout_width(cfg), tp = cfg->rollout_tp;
    const char *field = cfg->rollout_pp > 1 ? "rollout-pp" : "rollout-tp";
    if (cfg->rollout_pp > cfg->model.layers)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "rollout-pp", "rollout-pp: %llu stages for the model's %llu layers",
                       U(cfg->rollout_pp), U(cfg->model.layers));
    if (tp > g ? tp % g != 0 : g % tp != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "rollout-tp",
                       "rollout-tp: %llu must divide the %llu GPUs of a server, or be a multiple of them", U(tp),
                       U(g));
    if (w > g ? w % g != 0 : g % w != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, field,
                       "%s: engines of rollout-tp x rollout-pp = %llu GPUs must divide the %llu GPUs of a server, "
                       "or be a multiple of them", field, U(w), U(g));
    if (!l->rollout_gpus && l->gpus % w != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, field, "%s: engines of %llu GPUs do not tile the %llu GPUs they run on",
                       field, U(w), U(l->gpus));
    return TRAINSIZE_OK;
}

int ts_offload_check(uint64_t zero, int offload, const char *field, const char *label, const char *stage,
                     trainsize_error *err)
{
    if (offload == TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS && zero != 3)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, field, "%s: optimizer+params needs %s 3 (ZeRO-Infinity)", label,
                       stage);
    if (offload == TRAINSIZE_OFFLOAD_OPTIMIZER && zero == 0)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, field, "%s: optimizer offload needs %s 1, 2 or 3 (ZeRO-Offload)",
                       label, stage);
    return TRAINSIZE_OK;
}

/* Another model of the job (NULL: none, all zero): its parameters, the matmul parameters a
 * token goes through, its attention's forward FLOPs a token over the job's sequences. A
 * scorer (a critic, a reward model: AutoModelForTokenClassification and
 * ...ForSequenceClassification) ends in a one-wide head instead of the output layer. */
static int other_model(const ts_model *o, const ts_settings *cfg, const ts_layout *l, int scorer,
                       ts_other_model *out, trainsize_error *err)
{
    ts_param_counts c;
    int rc;
    memset(out, 0, sizeof *out);
    if (!o) return TRAINSIZE_OK;
    if ((rc = ts_model_count(o, &c, err))) return rc;
    out->params = (double)c.total - (scorer ? (double)c.output_layer : 0.0);
    /* look-ups are not matmuls; a tied output layer is the embedding's matrix again */
    out->mm = (double)c.active - (double)c.position_embedding -
              (o->tied_embeddings && !scorer ? 0.0 : (double)c.token_embedding) -
              (scorer ? (double)c.output_layer : 0.0);
    out->attention = ts_model_attention_flops(o, (uint64_t)l->attend, cfg->attention == TRAINSIZE_ATTENTION_FLASH);
    out->hidden = (double)o->hidden;
    out->layers = (double)o->layers;
    return TRAINSIZE_OK;
}

/* Every divisor is checked here again, whatever way the job was filled. */
static int check_divisors(const ts_settings *cfg, trainsize_error *err)
{
    static const struct { size_t offset; const char *name; } divisors[] = {
        {offsetof(ts_settings, gpus), "gpus"}, {offsetof(ts_settings, tp), "tp"},
        {offsetof(ts_settings, pp), "pp"}, {offsetof(ts_settings, pp_interleave), "pp-interleave"},
        {offsetof(ts_settings, cp), "cp"}, {offsetof(ts_settings, ep), "ep"},
        {offsetof(ts_settings, micro_batch), "micro-batch"}, {offsetof(ts_settings, seq), "seq"}};
    size_t i;
    for (i = 0; i < sizeof divisors / sizeof divisors[0]; i++) {
        uint64_t v;
        memcpy(&v, (const char *)cfg + divisors[i].offset, sizeof v);
        if (v == 0)
            return ts_fail(err, TRAINSIZE_E_INVALID, divisors[i].name, "%s: must be at least 1",
                           divisors[i].name);
    }
    return TRAINSIZE_OK;
}

/* The parallel degrees (tp, pp, cp, ep, dp) and the groups the state is sharded over: dp x
 * cp ranks, or a shard-group of them (hybrid sharding); the experts' own groups. */
static int parallel_degrees(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    uint64_t model_parallel;
    int rc;
    l->gpus = cfg->gpus;
    l->tp = cfg->tp;
    l->pp = cfg->pp;
    l->vpp = cfg->pp_interleave;
    l->cp = cfg->cp;
    l->ep = cfg->ep;
    l->etp = cfg->etp ? cfg->etp : cfg->tp;
    l->sp = cfg->sp && cfg->tp > 1;
    model_parallel = l->tp * l->pp * l->cp; /* each <= 1e6 and gpus <= 1e7: no overflow */
    if (model_parallel > l->gpus || l->gpus % model_parallel != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "gpus",
                       "gpus: %llu is not a multiple of tp x pp x cp = %llu", U(l->gpus),
                       U(model_parallel));
    l->dp = l->gpus / model_parallel;
    if ((rc = check_model_split(cfg, l, err))) return rc;
    if ((rc = check_setup(cfg, l, err))) return rc;
    l->dense_shard = l->dp * l->cp;
    if (cfg->shard_group) {
        /* hybrid sharding: the state is sharded within each group, replicated across them */
        if (cfg->zero == 0 || cfg->shard_group == 1)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "shard-group",
                           "shard-group: hybrid sharding needs ZeRO 1-3 and groups of at least 2 ranks");
        if (l->ep > 1)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "shard-group",
                           "shard-group: hybrid sharding with expert parallelism is not modelled");
        if (l->dense_shard % cfg->shard_group != 0)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "shard-group",
                           "shard-group: %llu does not divide the data-parallel ranks (dp x cp = %llu)",
                           U(cfg->shard_group), U(l->dense_shard));
        l->dense_shard = cfg->shard_group;
    }
    l->shard_replicas = l->dp * l->cp / l->dense_shard;
    l->expert_shard = l->tp * l->dense_shard / (l->ep * l->etp);
    return TRAINSIZE_OK;
}

/* The batch: tokens of a micro-batch, the global batch, micro-batches per step (or a token
 * budget's), and the pipeline's schedule over them. */
static int batch_split(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    uint64_t per_step;
    int rc;
    if ((rc = ts_layout_tokens(cfg, l, err))) return rc;
    per_step = cfg->micro_batch * l->dp; /* <= 1e9 * 1e7 */
    default_global_batch(cfg, l, per_step);
    if (cfg->max_tokens_per_gpu) {
        /* a token budget forms the micro-batches: the batch only splits over the ranks */
        if (l->global_batch % l->dp != 0)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "global-batch",
                           "global-batch: %llu is not a multiple of the data-parallel degree (%llu)",
                           U(l->global_batch), U(l->dp));
        l->micro_batches = ts_budget_micro_batches(cfg, l);
    } else {
        if (l->global_batch % per_step != 0)
            return ts_fail(err, TRAINSIZE_E_LAYOUT, "global-batch",
                           "global-batch: %llu is not a multiple of micro-batch x data-parallel "
                           "degree (%llu)", U(l->global_batch), U(per_step));
        l->micro_batches = l->global_batch / per_step;
    }
    if ((rc = set_schedule(cfg, l, err))) return rc;
    if (l->vpp > 1 && l->micro_batches % l->pp != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "global-batch",
                       "global-batch: the interleaved schedule needs the micro-batches per step "
                       "(%llu) to be a multiple of pp (%llu), as Megatron-LM does", U(l->micro_batches),
                       U(l->pp));
    return TRAINSIZE_OK;
}

/* The servers: GPUs per server, servers, and the rollout engines' own (rollout separate:
 * in servers of the same kind beside the training ones; what the job buys, rents, powers
 * and sees fail is both). */
static int servers(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    l->gpus_per_node = cfg->gpus_per_node ? cfg->gpus_per_node : default_gpus_per_node(l->gpus, cfg->gpu);
    if (l->gpus_per_node > l->gpus) l->gpus_per_node = l->gpus;
    if (l->gpus % l->gpus_per_node != 0)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "gpus-per-node",
                       "gpus-per-node: %llu does not divide gpus (%llu)", U(l->gpus_per_node),
                       U(l->gpus));
    l->nodes = l->gpus / l->gpus_per_node;
    l->rollout_gpus = ts_is_rl(cfg->method) && cfg->rollout == TS_ROLLOUT_SEPARATE ? cfg->rollout_gpus : 0;
    l->rollout_nodes = (l->rollout_gpus + l->gpus_per_node - 1) / l->gpus_per_node;
    l->billed_gpus = l->gpus + l->rollout_gpus;
    return TRAINSIZE_OK;
}

/* The job's other models, counted once: distillation's teacher, ppo's critic of its own
 * shape, a reward model; and where each side role runs. */
static int other_models(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    int rc;
    l->reference = cfg->method == TS_METHOD_SFT || cfg->method == TS_METHOD_DISTILL ? TS_REF_AUTO
                   : cfg->reference != TS_REF_AUTO ? cfg->reference
                   : cfg->lora_rank ? TS_REF_ADAPTERS_OFF : TS_REF_MODEL;
    if ((rc = other_model(cfg->method == TS_METHOD_DISTILL ? cfg->teacher : NULL, cfg, l, 0, &l->teacher, err)) ||
        (rc = other_model(cfg->method == TS_METHOD_PPO ? cfg->critic : NULL, cfg, l, 1, &l->critic, err)) ||
        (rc = other_model(l->rl ? cfg->reward : NULL, cfg, l, 1, &l->reward, err)))
        return rc;
    return ts_side_layout(cfg, l, err);
}

int ts_layout_make(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    int rc;
    if (!cfg->gpu) return ts_fail(err, TRAINSIZE_E_INVALID, "gpu", "gpu: no GPU set");
    if ((rc = check_divisors(cfg, err)) || (rc = parallel_degrees(cfg, l, err)) ||
        (rc = batch_split(cfg, l, err)) || (rc = servers(cfg, l, err)))
        return rc;
    if (ts_is_rl(cfg->method) && (rc = check_engine_shape(cfg, l, err))) return rc;
    if ((rc = split_stages(cfg, l, err))) return rc;
    l->layers_per_stage = l->mid_layers;
    if (l->first_layers > l->layers_per_stage) l->layers_per_stage = l->first_layers;
    if (l->last_layers > l->layers_per_stage) l->layers_per_stage = l->last_layers;
    /* What the runtime lets a process allocate from, not the label. */
    l->capacity = cfg->gpu_memory     ? cfg->gpu_memory
                  : cfg->gpu->usable_bytes ? cfg->gpu->usable_bytes
                                           : cfg->gpu->memory_bytes;
    l->micro_batch = cfg->micro_batch;
    l->zero = cfg->zero;
    /* torchtitan's FSDP2 with a pipeline: reshard_after_forward is off and the schedule
     * defers resharding and the gradients' reduce-scatter to the last micro-batch */
    l->fsdp_pipeline = cfg->zero >= 2 && l->pp > 1;
    if ((rc = other_models(cfg, l, err))) return rc;
    vision_figures(cfg, l);
    /* a ResNet's figures per image, walked once for every later stage */
    memset(&l->cnn, 0, sizeof l->cnn);
    if (ts_model_is_cnn(&cfg->model)) ts_cnn_walk(&cfg->model, &l->cnn);
    l->lora_layer = ts_model_lora_layer_params(&cfg->model, cfg->lora_rank, cfg->lora_targets);
    l->recompute_on = cfg->recompute != TRAINSIZE_RECOMPUTE_NONE;
    l->recompute_layers = cfg->recompute_layers;
    l->recompute_share = recompute_share(l, cfg->model.layers);
    return ts_ok(err);
}

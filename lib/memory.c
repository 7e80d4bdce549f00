/* Per-GPU memory of one pipeline stage: model state (weights, gradients, optimizer state)
 * under tensor/pipeline/expert parallelism and ZeRO, activations, the transient buffers of
 * each phase of a step, and the overhead around the allocator.
 *
 * Model state follows the ZeRO paper (Rajbhandari et al. 2020, §5): per parameter
 * weight + gradient + K optimizer bytes, with stage 1 sharding the optimizer state (the
 * master copy included) over the data-parallel ranks, stage 2 the gradients too, stage 3
 * the weights too. The bytes per copy come from ts_conv (framework conventions). */
#include "stages.h"

typedef struct stage_params {
    double dense;        /* trainable, sharded over dp * cp */
    double expert;       /* trainable, sharded over dp * cp / ep */
    double frozen_layer; /* frozen linear weights of the layers (LoRA base) */
    double frozen_other; /* frozen embeddings and norms */
    double frozen_vision;/* a frozen vision tower beside trained weights (no LoRA) */
    double vision;       /* the vision tower on this rank, frozen or trained */
    double layer_unsharded; /* one layer on this rank, before ZeRO-3 sharding */
    double output_layer; /* the output layer on this rank (its gradient comes first) */
    double embedding;    /* the token embedding on this rank (first stage) */
    double embedding_rank; /* the token embedding's share of one rank (any stage) */
    int last;            /* the last stage (runs the output layer) */
    double mtp_expert;   /* the multi-token-prediction layers' experts on this rank */
    double layers;       /* transformer layers of this stage */
} stage_params;

/* Attention parameters on one tensor-parallel rank: k and v are replicated when there are
 * fewer key/value heads than ranks (Megatron-LM, llm-analysis). */
static double attention_rank(const ts_model *m, const ts_param_counts *pc, double t)
{
    double kv_heads = (double)ts_model_kv_heads(m), kv_dim = (double)ts_model_kv_dim(m);
    double kv_part = 2.0 * (double)m->hidden * kv_dim + (m->bias != TRAINSIZE_BIAS_NONE ? 2.0 * kv_dim : 0.0);
    double kv_share = kv_heads >= t ? 1.0 / t : 1.0 / kv_heads;
    return ((double)pc->attention - kv_part) / t + kv_part * kv_share;
}

/* A multimodal model's vision tower and projector, on the first stage (as Megatron-LM
 * places its vision encoder): the tower's layers split over tp as the language model's are,
 * the rest replicated. The projector trains; the tower trains with the model (with the
 * trainable parameters), or stays frozen in the type the weights are held in, or, under
 * LoRA, with the frozen embeddings. */
static void vision_params(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                          stage_params *sp)
{
    const ts_model *m = &cfg->model;
    double t = (double)lay->tp, layers = (double)pc->vision_layer * (double)m->vision_layers;
    double tower = layers / t + (double)m->vision_other;
    if (!m->vision_layers) return;
    sp->vision = tower;
    sp->dense += (double)pc->projector;
    if (cfg->lora_rank) sp->frozen_other += tower;
    else if (lay->vision_trained) sp->dense += tower;
    else sp->frozen_vision = tower;
}

static void stage_params_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                              uint64_t stage, stage_params *sp)
{
    const ts_model *m = &cfg->model;
    double t = (double)lay->tp, layers = (double)ts_stage_layers(lay, stage);
    double moe = (double)ts_stage_moe_layers(lay, m, stage), dense = layers - moe;
    double experts_rank = ts_model_is_moe(m) ? (double)m->experts / (double)lay->ep : 0.0;
    double attn_norms = attention_rank(m, pc, t) + (double)pc->norms;
    /* An MoE layer's replicated router and its shared experts (split like a dense MLP),
     * and its routed experts on this rank; a dense layer's MLP. */
    double moe_common = (double)pc->router + (double)pc->shared_expert * (double)m->shared_experts / t;
    double expert_layer = experts_rank * (double)pc->expert / (double)lay->etp;
    double dense_mlp = (double)pc->mlp_dense / t;
    double outside = 0.0, outside_norms = 0.0;
    *sp = (stage_params){0};
    sp->embedding_rank = (double)pc->token_embedding / t;
    sp->layers = layers;
    sp->last = stage == lay->pp - 1;
    if (stage == 0) {
        sp->embedding = (double)pc->token_embedding / t;
        /* an encoder's segment embeddings, class token and embedding norm, an image
         * transformer's patch projection: replicated, as the position embeddings are */
        outside += sp->embedding + (double)pc->position_embedding + (double)pc->embedding_other +
                   (double)pc->patch_embedding + (double)pc->conv + /* a ResNet's convolutions */
                   (double)pc->extra; /* a checkpoint's tensors the shape does not describe */
    }
    if (stage == lay->pp - 1) {
        /* Untied: the output layer; tied with pp > 1: Megatron keeps a copy of the
         * embedding on the last stage. An encoder ends in its pooler or classifier. */
        if (m->head != TS_HEAD_LM) sp->output_layer = (double)pc->head;
        else if (!m->tied_embeddings || lay->pp > 1) sp->output_layer = (double)pc->token_embedding / t;
        outside += sp->output_layer;
        outside_norms = (double)pc->final_norm;
    }
    if (stage == lay->pp - 1 && m->mtp_layers) {
        /* Multi-token prediction on the last stage (as DeepSeek-V3 places it): per depth a
         * layer like the model's last, its input projection (2h x h, split like a linear
         * layer) and three norms. */
        double depth = (double)m->mtp_layers, is_moe = ts_model_is_moe(m) && pc->moe_layers;
        double proj = 2.0 * (double)m->hidden * (double)m->hidden / t + 3.0 * (double)pc->final_norm;
        double layer_dense = attn_norms + (is_moe ? moe_common : dense_mlp);
        outside += depth * (proj + layer_dense);
        sp->mtp_expert = depth * (is_moe ? expert_layer : 0.0);
    }
    sp->layer_unsharded = attn_norms + (moe > 0 ? moe_common + expert_layer : dense_mlp);
    if (cfg->lora_rank == 0) {
        sp->dense = layers * attn_norms + moe * moe_common + dense * dense_mlp + outside + outside_norms;
        sp->expert = moe * expert_layer + sp->mtp_expert;
    } else {
        sp->dense = layers * lay->lora_layer / t;
        sp->frozen_layer = layers * (attn_norms - (double)pc->norms) +
                           moe * (moe_common + expert_layer) + dense * dense_mlp + sp->mtp_expert;
        sp->frozen_other = layers * (double)pc->norms + outside + outside_norms;
    }
    if (stage == 0) vision_params(cfg, lay, pc, sp);
}

static double max2(double a, double b) { return a > b ? a : b; }

/* A frozen vision tower beside trained weights is held as they are (fp32 when the weights
 * are the fp32 master, 16-bit when a 16-bit copy is kept). */
static double frozen_vision_bytes(const ts_conv *c) { return c->weight > 0.0 ? c->weight : c->weight_compute; }

/* The stage's trained state (weights, gradients, optimizer state, what offload moves to
 * the host) under ZeRO stage `zero` and CPU offload `offload`: the policy's under its own,
 * ppo's critic of the policy's conventions under the critic's (critic-zero, critic-offload). */
/* Inlined at both calls: the policy's, on every estimate, keeps its constants folded. */

static TS_INLINE_ALWAYS void trained_state(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                          const ts_param_counts *pc, const stage_params *sp, uint64_t zero, int offload,
                          ts_stage_memory *out)
{
    double D = (double)lay->dense_shard, De = (double)lay->expert_shard;
    double w3 = zero >= 3 ? D : 1.0, w3e = zero >= 3 ? De : 1.0;
    /* Accumulating under no_sync, every rank holds its gradients unsharded. */
    int g_shard = zero >= 2 && !c->grad_sync_step;
    double g2 = g_shard ? D : 1.0, g2e = g_shard ? De : 1.0;
    double o1 = zero >= 1 ? D : 1.0, o1e = zero >= 1 ? De : 1.0;
    int lora = cfg->lora_rank > 0;
    double wbytes = lora ? c->adapter_weight : c->weight, gbytes = lora ? c->adapter_grad : c->grad;
    double shard = sp->dense / o1 + sp->expert / o1e; /* trainable parameters whose state we keep */
    double scales = sp->frozen_layer * c->quant_state; /* whole on every rank, never offloaded */
    out->weights = sp->dense * wbytes / w3 + sp->expert * wbytes / w3e +
                   (sp->frozen_layer * c->frozen_layer - scales + sp->frozen_other * c->frozen_other) / w3;
    out->gradients = sp->dense * gbytes / g2 + sp->expert * gbytes / g2e;
    /* FSDP's flat parameter of a wrapped layer mixes frozen and adapter weights; its one
     * gradient buffer covers all of it (torch FSDP FlatParamHandle, use_orig_params). */
    if (c->lora_unit_grads) out->gradients += sp->frozen_layer * c->frozen_layer / g2;
    out->master = lora ? 0.0 : shard * c->master;
    if (c->adafactor)
        out->states = shard * c->state * ts_model_adafactor_elements(&cfg->model, pc) / (double)pc->total;
    else
        out->states = shard * (lora ? c->adapter_state : c->state);
    if (!lora) out->states += sp->embedding / o1 * (c->embedding_state - c->state);
    out->optimizer = out->master + out->states;
    out->host_offload = 0.0;
    if (offload != TRAINSIZE_OFFLOAD_NONE) {
        /* ZeRO-Offload (Ren et al. 2021, §4): gradients are reduced and moved to the host,
         * where the master copy, the optimizer states and an fp32 gradient copy live; the
         * GPU keeps only the reduction buckets (counted with ZeRO-3's gathers). */
        out->host_offload = out->optimizer + 4.0 * shard;
        out->optimizer = out->master = out->states = 0.0;
        out->gradients = 0.0;
    }
    if (offload == TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS) {
        out->host_offload += out->weights;
        out->weights = 0.0;
    }
    out->weights += scales;
    out->weights += sp->frozen_vision * frozen_vision_bytes(c) / w3;
}

static void model_state(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                        const ts_param_counts *pc, const stage_params *sp, ts_stage_memory *out)
{
    double D = (double)lay->dense_shard, De = (double)lay->expert_shard;
    double w3 = lay->zero >= 3 ? D : 1.0, w3e = lay->zero >= 3 ? De : 1.0;
    int lora = cfg->lora_rank > 0;
    double wbytes = lora ? c->adapter_weight : c->weight;
    trained_state(cfg, lay, c, pc, sp, lay->zero, cfg->offload, out);
    /* the tower's share of the weights, as it is held: frozen, under LoRA, or trained */
    out->vision_weights = sp->vision * (sp->frozen_vision > 0.0 ? frozen_vision_bytes(c)
                                        : lora ? c->frozen_other : wbytes) / w3;
    /* The reference of dpo, grpo and ppo (reference model): a frozen copy of the stage in
     * the type the matmuls read, sharded as the policy's weights are (TRL prepares it for ZeRO-3 and FSDP too);
     * with LoRA a copy of the base as held. Adapters turned off or log-probabilities
     * computed before training keep none. */
    if (lay->reference == TS_REF_MODEL)
        out->reference = lora ? (sp->frozen_layer * c->frozen_layer + sp->frozen_other * c->frozen_other) / w3
                              : (sp->dense + sp->frozen_vision) * c->weight_compute / w3 +
                                    sp->expert * c->weight_compute / w3e;
    /* ppo's critic: a second trainable model of the policy's conventions, its state beside
     * the policy's (verl places it on the same GPUs), of the policy's shape or its own
     * (critic-model: the policy's state a parameter, split and sharded as the policy's),
     * under its own ZeRO stage and offload; none here on GPUs of its own (side_models.c) */
    if (cfg->method == TS_METHOD_PPO && !lay->critic_gpus) {
        double f = lay->critic.params > 0.0 ? lay->critic.params / (double)pc->total : 1.0;
        ts_stage_memory cs = *out;
        if (lay->critic_zero != lay->zero || lay->critic_offload != cfg->offload)
            trained_state(cfg, lay, c, pc, sp, lay->critic_zero, lay->critic_offload, &cs);
        out->critic = (cs.weights + cs.gradients + cs.optimizer) * f;
        out->weights += cs.weights * f;
        out->gradients += cs.gradients * f;
        out->optimizer += cs.optimizer * f;
        out->master += cs.master * f;
        out->states += cs.states * f;
        out->host_offload += cs.host_offload * f;
    }
    out->weights += out->reference;
    /* distillation's teacher: frozen, in the type the matmuls read, split over tp and pp as
     * the student is and sharded by ZeRO-3 (TRL's GKD prepares it like a reference) */
    out->teacher = lay->teacher.params * c->weight_compute / ((double)lay->tp * (double)lay->pp) / w3;
    out->weights += out->teacher;
    /* a reward model: frozen like the teacher, scored once a response, under its own ZeRO
     * stage; on the host between its forwards with reward-offload (side_models.c) */
    out->reward = lay->reward.params > 0.0 ? ts_reward_rank_bytes(lay, c) : 0.0;
    if (cfg->reward_offload) {
        out->host_offload += out->reward;
        out->reward = 0.0;
    }
    out->weights += out->reward;
    /* DualPipe feeds the pipeline from both ends: each rank keeps two copies of its
     * parameters (DeepSeek-V3, §3.2.1) */
    if (lay->schedule == TS_PP_DUALPIPE) out->weights *= 2.0;
    /* FSDP with a pipeline keeps the stage's gathered weights from the step's first forward
     * to its last backward, beside the shards */
    if (lay->fsdp_pipeline && lay->zero >= 3)
        out->weights += (sp->dense + sp->expert) * (lora ? 0.0 : c->weight_compute) +
                        sp->frozen_layer * c->frozen_layer + sp->frozen_other * c->frozen_other +
                        sp->frozen_vision * c->weight_compute;
}

/* Autocast caches a 16-bit copy of every fp32 weight a matmul reads during the forward
 * pass, and the matmuls keep those copies for backward: this rank's layer matrices (its
 * experts only) and output layer. Checkpointed layers (full, or per-op, whose policy
 * recomputes the casts) keep none; the others (recompute-layers) and the output layer
 * outside them still do. */
static double autocast_copies(const ts_settings *cfg, const ts_conv *c, const ts_param_counts *pc,
                              const stage_params *sp, double checkpointed)
{
    double layers = sp->layers, output;
    if (!c->autocast_copies) return 0.0;
    if (cfg->recompute == TRAINSIZE_RECOMPUTE_FULL || cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP)
        layers -= checkpointed;
    layers *= sp->layer_unsharded - (double)pc->norms;
    output = sp->output_layer > 0 ? sp->output_layer : (sp->last ? sp->embedding_rank : 0.0);
    return c->layer_copy * layers + c->output_copy * output;
}

/* The largest weight matrix of one layer on this rank (an MLP matrix, or the query or
 * output projection): the size of a dequantized weight. */
static double largest_matrix(const ts_model *m, const ts_layout *lay)
{
    double h = (double)m->hidden, f = (double)m->ffn, q = (double)ts_model_q_dim(m);
    return h * (f > q ? f : q) / (double)lay->tp;
}

/* ZeRO-3/FSDP buffers alive through forward and backward: the gathered layers (the
 * current one and the prefetched), one module's full gradient before its reduce-scatter,
 * and, under FSDP, the root unit that is never resharded. */
static double zero3_buffers(const ts_settings *cfg, const ts_conv *c, const stage_params *sp)
{
    double bytes = cfg->lora_rank ? c->frozen_layer : c->weight_compute;
    double unit = sp->layer_unsharded, out = 0.0;
    if (c->root_unsharded) {
        double root_bytes = cfg->lora_rank ? c->frozen_other : c->weight_compute;
        out += (sp->embedding + sp->output_layer) * root_bytes;
    } else {
        /* DeepSpeed gathers the embedding and output layer whole as well, and they are
         * often the largest modules (its estimator sizes this by the largest layer). */
        if (sp->output_layer > unit) unit = sp->output_layer;
        if (sp->embedding > unit) unit = sp->embedding;
    }
    out += (double)cfg->zero3_gather_layers * unit * bytes;
    /* One module's full gradient before its reduce-scatter; when that module is the
     * output layer, it is the same buffer as the on-demand output gradient. */
    if (!cfg->lora_rank) out += unit * c->grad;
    else if (c->lora_unit_grads) out += sp->layer_unsharded * c->frozen_layer;
    return out;
}

/* A quantized base is quantized on the GPU one matrix at a time as it loads (bitsandbytes'
 * Params4bit.cuda(); torchtune builds its QLoRA model on the device): the weights kept so
 * far, the whole stage when it is built on the GPU before sharding, plus the largest matrix
 * in 16-bit and the quantizer's working memory for it. */
static double quantized_load(const ts_settings *cfg, const ts_conv *c, const stage_params *sp,
                             const ts_layout *lay, double rank_weights)
{
    double wbytes = cfg->lora_rank ? c->adapter_weight : c->weight;
    double stage = (sp->dense + sp->expert) * wbytes + sp->frozen_layer * c->frozen_layer +
                   sp->frozen_other * c->frozen_other + sp->frozen_vision * frozen_vision_bytes(c);
    double kept = cfg->loading == TS_LOAD_GPU ? stage : rank_weights;
    return kept + largest_matrix(&cfg->model, lay) * (c->dequant + cfg->quantize_scratch);
}

static double comm_groups(const ts_layout *lay)
{
    return (double)((lay->dense_shard > 1) + (lay->tp > 1) + (lay->pp > 1) + (lay->cp > 1) +
                    (lay->ep > 1));
}

/* What a stage's GPU holds in each phase of a step, and the buffers that come and go. */
typedef struct phases {
    double base;     /* weights and optimizer state: through every phase */
    double fb;       /* the start of the backward pass: every activation */
    double t_fb;     /* its transient buffers */
    double end;      /* the end of the backward pass: every gradient */
    double step;     /* the optimizer step */
    double load;     /* loading the weights, before sharding or casting */
    double rollout;  /* RL's rollout (0 without) */
    double logprob;  /* RL's log-probability passes (0 without) */
    double engine;   /* the rollout engine's share held on these GPUs */
    double buckets, zero3, opt_temp, flat; /* the step's buffers */
} phases;

/* The activations of the stage's micro-batches, into `out`. */
static void stage_activations(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                              const ts_param_counts *pc, uint64_t stage, const stage_params *sp,
                              ts_layer_memo *memo, ts_activations *act, ts_stage_memory *out)
{
    ts_activations_stage(cfg, lay, c, stage, memo, act);
    out->act_layers = act->layers + autocast_copies(cfg, c, pc, sp, act->recomputed_layers);
    out->act_offloaded = act->offloaded;
    out->act_offload_moved = act->offload_moved;
    out->recomputed_layers = act->recomputed_layers;
    out->host_offload += act->offloaded; /* pinned host memory, beside ZeRO-Offload's state */
    out->act_embedding = act->embedding;
    out->act_output = act->output;
    out->act_loss = act->loss;
    out->act_per_layer = act->per_layer;
    out->in_flight = act->in_flight;
    out->act_vision = act->vision;
    /* ppo's critic trains after the policy on the same GPUs: the larger of their layers'
     * activations (side_models.c scales the critic's from the policy's) */
    if (cfg->method == TS_METHOD_PPO && !lay->critic_gpus) {
        double scale = ts_critic_activation_scale(cfg, lay);
        if (scale > 1.0) out->act_layers *= scale;
    }
    out->stage_layers = sp->layers;
    out->activations = out->act_layers + out->act_embedding + out->act_output + out->act_vision;
}

/* The training phases: the backward's start and end, the optimizer step, loading. */
static void training_phases(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                            const stage_params *sp, const ts_activations *act,
                            const ts_stage_memory *out, phases *ph)
{
    double out_grad, dequant;
    if (lay->zero >= 3 && !lay->fsdp_pipeline) ph->zero3 = zero3_buffers(cfg, c, sp);
    /* A quantized layer's weight, dequantized for its matmul (forward and backward). */
    dequant = c->dequant * largest_matrix(&cfg->model, lay);
    if (cfg->offload == TRAINSIZE_OFFLOAD_NONE)
        ph->opt_temp = c->optimizer_temp * (sp->dense / (lay->zero >= 1 ? (double)lay->dense_shard : 1.0) +
                                            sp->expert / (lay->zero >= 1 ? (double)lay->expert_shard : 1.0));
    /* DDP's bucket copy of the gradients lives through every phase; it is reported with
     * the buffers (transient), so the gradients stay the gradients. */
    ph->buckets = !c->ddp_buckets         ? 0.0
                  : c->bucket_bytes > 0.0 ? (sp->dense + sp->expert) * c->bucket_bytes
                                          : out->gradients;
    ph->base = out->weights + out->optimizer;
    /* Start of backward: every activation, the loss gradient, a recomputed layer and
     * (when gradients are allocated on demand) the output layer's gradient. */
    out_grad = (c->grads_persistent || cfg->lora_rank || lay->zero >= 3) ? 0.0 : sp->output_layer * c->grad;
    ph->t_fb = ph->buckets + act->loss_backward + act->recompute + ph->zero3 + out_grad + dequant;
    /* distillation: the teacher's logits of the micro-batch, kept for the loss through the
     * student's backward (bf16, the vocabulary split over tp) */
    if (cfg->method == TS_METHOD_DISTILL && sp->last)
        ph->t_fb += lay->tokens_mb * (double)ts_model_logit_width(&cfg->model) / (double)lay->tp * c->act;
    ph->fb = ph->base + (c->grads_persistent ? out->gradients : 0.0) + out->activations + ph->t_fb;
    ph->end = ph->base + out->gradients + ph->buckets + ph->zero3 + (sp->dense + sp->expert) * c->grad_copy;
    ph->flat = c->step_flat * (sp->dense + sp->expert);
    ph->step = ph->base + out->gradients + ph->buckets + ph->opt_temp + ph->flat;
    /* Loading onto the GPU: the whole stage as loaded, before sharding or casting. */
    ph->load = c->load * (sp->dense + sp->expert + sp->frozen_layer + sp->frozen_other + sp->frozen_vision);
    if (c->dequant > 0.0) ph->load = quantized_load(cfg, c, sp, lay, out->weights);
}

/* RL's phases: the rollout engine beside the model state, and the log-probability passes. */
static void rl_phases(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                      const ts_param_counts *pc, const stage_params *sp, ts_stage_memory *out, phases *ph)
{
    double share = cfg->rollout_memory_share * (double)lay->capacity;
    double tokens = cfg->log_prob_max_tokens ? (double)cfg->log_prob_max_tokens : lay->tokens_mb;
    /* reward-offload: the reward model comes back to score in the log-probability phase */
    double scorer = cfg->reward_offload && lay->reward.params > 0.0 ? ts_reward_rank_bytes(lay, c) : 0.0;
    /* The rollout: the engine's share of the GPU beside the model state (the gradients
     * freed), or through every phase when it does not sleep */
    out->rollout_weights = ts_rollout_weight_bytes(cfg, pc);
    out->rollout_kv = share > out->rollout_weights ? share - out->rollout_weights : 0.0;
    ph->engine = out->rollout_weights + out->rollout_kv;
    if (lay->rollout_gpus) {
        /* separate: the engine's share is of its own GPUs (reported as theirs); the
         * training GPUs hold none of it */
        ph->engine = 0.0;
    } else if (cfg->rollout_sleep) {
        ph->rollout = ph->base + ph->engine;
    } else {
        ph->fb += ph->engine;
        ph->end += ph->engine;
        ph->step += ph->engine;
        ph->rollout = ph->base + ph->engine;
    }
    /* The log-probability passes (the old policy's, the reference's), forward only, before
     * the update: the model state with the gradients freed, and the last stage's logits of
     * a pass, 16-bit and the fp32 copy log-softmax reads (verl's logprobs_from_logits) */
    ph->logprob = ph->base + ph->zero3 + scorer + (lay->rollout_gpus || cfg->rollout_sleep ? 0.0 : ph->engine) +
                  (sp->last ? tokens * (double)ts_model_logit_width(&cfg->model) / (double)lay->tp * 6.0 : 0.0);
}

/* The peak: the largest phase, what is transient in it and what it holds. */
static void peak_phase(const ts_conv *c, const phases *ph, ts_stage_memory *out)
{
    out->peak_allocated = max2(max2(max2(ph->fb, ph->load), max2(ph->end, ph->step)), max2(ph->rollout, ph->logprob));
    out->peak_has_activations = 0;
    out->peak_has_gradients = 1;
    if (out->peak_allocated == ph->fb) {
        out->peak_phase = TRAINSIZE_PHASE_FORWARD_BACKWARD;
        out->transient = ph->t_fb;
        out->peak_has_activations = 1;
        out->peak_has_gradients = c->grads_persistent;
    } else if (out->peak_allocated == ph->end) {
        out->peak_phase = TRAINSIZE_PHASE_BACKWARD_END;
        out->transient = ph->buckets + ph->zero3;
    } else if (out->peak_allocated == ph->step) {
        out->peak_phase = TRAINSIZE_PHASE_OPTIMIZER_STEP;
        out->transient = ph->buckets + ph->opt_temp + ph->flat;
    } else if (out->peak_allocated == ph->logprob && ph->logprob > ph->rollout) {
        out->peak_phase = TRAINSIZE_PHASE_LOG_PROB;
        out->transient = ph->logprob - ph->base;
        out->peak_has_gradients = 0;
    } else if (out->peak_allocated == ph->rollout) {
        /* the engine's weights and KV cache are the rollout's transient */
        out->peak_phase = TRAINSIZE_PHASE_ROLLOUT;
        out->transient = ph->engine;
        out->peak_has_gradients = 0;
    } else {
        /* Loading: the weights as loaded are all there is; report them as the transient
         * (the model state is not allocated yet). */
        out->peak_phase = TRAINSIZE_PHASE_LOADING;
        out->transient = ph->load - ph->base;
        out->peak_has_gradients = 0;
    }
    out->load_peak = ph->load;
}

void ts_memory_stage(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                    const ts_param_counts *pc, uint64_t stage, ts_layer_memo *memo,
                    ts_stage_memory *out)
{
    stage_params sp;
    ts_activations act;
    phases ph = {0};
    double cached;
    *out = (ts_stage_memory){0};
    stage_params_make(cfg, lay, pc, stage, &sp);
    model_state(cfg, lay, c, pc, &sp, out);
    stage_activations(cfg, lay, c, pc, stage, &sp, memo, &act, out);
    training_phases(cfg, lay, c, &sp, &act, out, &ph);
    if (lay->rl) rl_phases(cfg, lay, c, pc, &sp, out, &ph);
    peak_phase(c, &ph, out);
    out->cuda_context = (double)cfg->cuda_context;
    out->comm_buffers = (double)cfg->comm_buffer * comm_groups(lay);
    out->allocator_slack = (lay->zero >= 3 ? cfg->sharded_slack : cfg->allocator_slack) * out->peak_allocated;
    /* The caching allocator serves a request only from a cached block at least as large and
     * never merges segments (Z. DeVito, "A guide to PyTorch's CUDA Caching Allocator",
     * 2022): the step's flat buffers, taken to be larger than the blocks the forward and
     * backward freed (an assumption), get segments of their own beside them, reserved but
     * free the rest of the step. */
    cached = max2(max2(ph.fb, ph.end), ph.step - ph.flat) + ph.flat;
    if (ph.flat > 0.0 && cached > out->peak_allocated) out->allocator_slack += cached - out->peak_allocated;
    out->overhead = out->cuda_context + out->comm_buffers + out->allocator_slack;
    out->peak_total = out->peak_allocated + out->overhead;
}

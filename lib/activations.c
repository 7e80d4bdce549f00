/* Activation memory: the bytes the forward pass keeps for the backward pass.
 *
 * Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer
 * Models", §4.1) give sbh(34 + 5as/h) per layer for GPT with 16-bit activations and
 * 1-byte dropout masks: attention 11sbh + 5as^2b, MLP 19sbh, two LayerNorms 4sbh. Here
 * each of those tensors is a term of its own, generalised to GQA (k, v are kv wide),
 * head_dim != hidden/heads, gated MLPs, MoE (each token's k experts), flash attention (no
 * s x s scores; an fp32 log-sum-exp per head and token), LoRA with a frozen base (inputs
 * of frozen linear layers are not kept) and the framework's kernels (ts_conv). Tensor
 * parallelism splits the head- and ffn-wide terms by t; sequence parallelism also splits
 * the hidden-wide ones; context parallelism splits the sequence.
 *
 * Recomputation: selective drops attention's core (Korthikanti §5) or the modules
 * recompute-modules names (Megatron-Core's: recompute.c), full keeps each
 * layer's input, per-op (torchtitan's selective AC, recompute.c) the input and the outputs
 * its policy saves; recompute-layers applies the policy to a share of the stage's layers
 * only (Megatron-LM's block method), the others keeping everything. Activation offload
 * moves the layers' activations to host memory, but for two layers in flight. */
#include "stages.h"

/* Does the linear layer with this LoRA target keep its input? Trainable weights need
 * it for their gradient; a frozen base layer needs it only for its adapter, unless its
 * quantized matmul keeps it anyway (bitsandbytes). */
static int keeps_input(const ts_settings *cfg, const ts_conv *c, unsigned targets)
{
    return cfg->lora_rank == 0 || (cfg->lora_targets & targets) != 0 || c->quant_keeps_input;
}

static double lora_targets_count(const ts_settings *cfg, unsigned targets)
{
    double n = 0;
    unsigned bit;
    if (cfg->lora_rank == 0) return 0;
    for (bit = 1; bit <= TS_LORA_DOWN; bit <<= 1)
        if (cfg->lora_targets & targets & bit) n += 1;
    return n;
}

/* One MLP of inner width f_rank per rank for `tokens` token-copies. `act_recomputed`: the
 * activation's output, the down projection's input, is computed again in the backward
 * (moe_act) instead of kept. */
static double mlp_terms(const ts_settings *cfg, const ts_conv *c, double tokens, double hidden_in,
                        double f_rank, int act_recomputed)
{
    const ts_model *m = &cfg->model;
    double inner = (m->gated_mlp ? c->glu_saved * c->glu_elem : c->gelu_bytes) * tokens * f_rank;
    double fc1_in = keeps_input(cfg, c, TS_LORA_GATE | TS_LORA_UP) ? c->fc1_in_copies * hidden_in : 0.0;
    double fc2_in = keeps_input(cfg, c, TS_LORA_DOWN) && !act_recomputed ? c->linear_in * tokens * f_rank : 0.0;
    return fc1_in + inner + fc2_in;
}

typedef struct layer_dims {
    double sb;       /* local tokens per micro-batch: (seq / cp) x micro-batch */
    double s_full;   /* keys each query attends to */
    double h, rep;   /* hidden; divisor of hidden-wide terms (t with SP, else 1) */
    double q_rank, kv_rank, heads_rank, f_rank, t;
    double v_rank;   /* values, and the context o reads: heads x value head per rank */
    double k_rank, latent; /* MLA: keys per rank (all heads), the q and kv latents */
    double dense_f_rank;   /* an MoE model's dense layers' MLP */
} layer_dims;

static void make_dims(const ts_settings *cfg, const ts_layout *lay, layer_dims *d)
{
    const ts_model *m = &cfg->model;
    double kv_heads = (double)ts_model_kv_heads(m), t = (double)lay->tp;
    double kv_heads_rank = kv_heads >= t ? kv_heads / t : 1.0; /* replicated when t > kv */
    d->t = t;
    d->sb = lay->tokens_mb;
    d->s_full = (double)cfg->seq;
    d->h = (double)m->hidden;
    d->rep = lay->sp ? t : 1.0;
    d->heads_rank = (double)m->heads / t;
    d->q_rank = (double)ts_model_q_dim(m) / t;
    d->kv_rank = kv_heads_rank * (double)ts_model_head_dim(m);
    d->f_rank = (double)m->ffn / t;
    d->dense_f_rank = (double)(ts_model_is_moe(m) && m->dense_ffn ? m->dense_ffn : m->ffn) / t;
    d->v_rank = d->heads_rank * (double)ts_model_v_head_dim(m);
    d->k_rank = d->kv_rank;
    d->latent = 0.0;
    if (m->kv_lora_rank) {
        /* MLA: every head gets its own key (no-rope part up-projected, rope part shared)
         * and value from the latent; the latents are replicated across tp ranks. */
        d->k_rank = d->q_rank;
        d->kv_rank = d->v_rank;
        d->latent = (double)(m->q_lora_rank + m->kv_lora_rank + m->qk_rope_head_dim);
    }
}

/* Attention block of one layer, one micro-batch. `drop`: the TS_RC_* modules selective
 * recomputation computes again instead of keeping: core_attn (scores, softmax, dropout,
 * log-sum-exp), layernorm (the norm's output, the projections' input), mla_up_proj (the
 * up-projected q, k and v). */
static double attention_terms(const ts_settings *cfg, const ts_conv *c, const layer_dims *d,
                              unsigned drop)
{
    int eager = cfg->attention == TRAINSIZE_ATTENTION_EAGER, dropout = cfg->dropout > 0;
    int core = !(drop & TS_RC_CORE_ATTN), up_proj = !(d->latent > 0 && (drop & TS_RC_MLA_UP_PROJ));
    double sb = d->sb, bytes = 0;
    /* eager kernels expand k and v to all heads */
    double k_width = eager ? d->q_rank : d->k_rank, v_width = eager ? d->v_rank : d->kv_rank;
    bytes += c->norm_saved * sb * d->h / d->rep;                                   /* norm input */
    if (keeps_input(cfg, c, TS_LORA_Q | TS_LORA_K | TS_LORA_V) && !(drop & TS_RC_LAYERNORM))
        bytes += c->qkv_in_copies * c->linear_in * sb * d->h / d->rep;
    /* MLA: the latents' norms and the up-projections keep their inputs */
    bytes += (c->norm_saved + c->linear_in) * sb * d->latent;
    if (up_proj) bytes += (eager ? c->act : c->attn_saved) * sb * (d->q_rank + k_width + v_width); /* q, k, v */
    /* nanotron keeps the fused qkv projection's output alive through the view flash-attn
     * saves, beside the rotated q and k (multi-head attention) */
    if (c->qkv_view_kept && d->q_rank == d->k_rank) bytes += c->act * sb * (d->q_rank + d->k_rank);
    if (eager) {
        double scores = d->heads_rank * sb * d->s_full;
        /* dropout on the probabilities: its mask and its output (the matmul's input) */
        if (core) bytes += scores * (c->softmax_saved + (dropout ? c->dropout_mask + c->act : 0.0));
        /* soft-capping's tanh keeps its output, one more score matrix (Gemma 2, eager) */
        if (core && cfg->model.attn_softcap) bytes += scores * c->act;
        if (keeps_input(cfg, c, TS_LORA_O)) bytes += c->linear_in * sb * d->v_rank; /* context */
    } else {
        bytes += c->attn_saved * sb * d->v_rank;           /* output, kept by the kernel */
        if (core) bytes += 4.0 * d->heads_rank * sb;       /* fp32 log-sum-exp */
        if (c->attn_out_copy && keeps_input(cfg, c, TS_LORA_O)) bytes += c->linear_in * sb * d->v_rank;
    }
    /* Gemma 2/3's extra norms after attention and after the MLP keep their inputs too */
    if (cfg->model.norms_per_layer > 2)
        bytes += (double)(cfg->model.norms_per_layer - 2) * c->norm_saved * sb * d->h / d->rep;
    if (dropout && c->residual_dropout) bytes += c->dropout_mask * sb * d->h / d->rep; /* after o */
    return bytes;
}

/* The MLP block of one layer, one micro-batch: an MoE layer's router and experts, or a
 * dense MLP. In a parallel block (Falcon) the MLP reads attention's normed input, which
 * attention already keeps. */
static double mlp_block_terms(const ts_settings *cfg, const ts_conv *c, const layer_dims *d, int moe,
                              unsigned drop)
{
    const ts_model *m = &cfg->model;
    double sb = d->sb, bytes = 0, hidden_in = c->linear_in * sb * d->h / d->rep;
    /* the norm's output, unless layernorm recomputes it */
    double normed = drop & TS_RC_LAYERNORM ? 0.0 : hidden_in;
    if (!m->parallel_block) bytes += c->norm_saved * sb * d->h / d->rep;           /* norm input */
    else hidden_in = normed = 0.0;
    if (drop & (moe ? TS_RC_MOE : TS_RC_MLP)) {
        /* the block checkpointed: its input, the norm's output, is all it keeps */
        if (!m->parallel_block) bytes += c->act * sb * d->h / d->rep;
    } else if (moe) {
        double k = (double)m->experts_per_token;
        int act_again = (drop & TS_RC_MOE_ACT) != 0;
        bytes += normed;                                    /* router input */
        bytes += 2.0 * 4.0 * sb * (double)m->experts;       /* fp32 router logits, probabilities */
        /* Each token's k copies go through an expert MLP (the permuted inputs are new
         * tensors); with balanced routing a rank sees k x its tokens whatever ep is. */
        bytes += mlp_terms(cfg, c, k * sb, k * hidden_in, d->f_rank, act_again);
        if (m->shared_experts)
            bytes += (double)m->shared_experts *
                     mlp_terms(cfg, c, sb, 0.0, (double)m->shared_expert_ffn / d->t, 0);
    } else if (cfg->mlp_tiles != 1) {
        bytes += normed; /* TiledMLP keeps its input; a tile's activations are a transient */
    } else {
        bytes += mlp_terms(cfg, c, sb, normed, d->dense_f_rank, 0);
    }
    if (cfg->dropout > 0 && c->residual_dropout)
        bytes += c->dropout_mask * sb * d->h / d->rep;     /* mask after the MLP */
    return bytes;
}

/* LoRA adapters keep their rank-wide intermediate (x A) for B's gradient. */
static double lora_terms(const ts_settings *cfg, const ts_conv *c, const layer_dims *d)
{
    double attn = lora_targets_count(cfg, TS_LORA_Q | TS_LORA_K | TS_LORA_V | TS_LORA_O);
    double mlp = lora_targets_count(cfg, TS_LORA_GATE | TS_LORA_UP | TS_LORA_DOWN);
    /* Each token passes k experts' adapters in an MoE layer. */
    double k = ts_model_is_moe(&cfg->model) ? (double)cfg->model.experts_per_token : 1.0;
    return (attn + k * mlp) * c->act * d->sb * (double)cfg->lora_rank;
}

/* Per-op selective checkpointing (recompute.c): a layer keeps its input (the checkpoint's),
 * the matmul outputs the policy saves, what the attention kernel returns, and nothing
 * else; the pointwise ops between them are recomputed from these. A row-parallel matmul
 * (o, down) holds the whole hidden width of partial sums on each tensor-parallel rank;
 * under sequence parallelism the reduce-scatter after it is a collective the policy saves
 * as well (once after attention, once after the MLP). */
static double per_op_terms(const ts_settings *cfg, const ts_conv *c, const layer_dims *d,
                           const ts_layout *lay, int moe)
{
    ts_layer_mm mm[TS_LAYER_MMS_MAX];
    int saved[TS_LAYER_MMS_MAX];
    size_t i, n = ts_per_op_layer(cfg, moe, mm, saved);
    double sb = d->sb, k = moe ? (double)cfg->model.experts_per_token : 1.0;
    double bytes = c->residual * sb * d->h / d->rep; /* the layer input */
    for (i = 0; i < n; i++) {
        double in, width; /* the output this rank holds */
        if (!saved[i]) continue;
        ts_mm_rank_shape(&cfg->model, &mm[i], d->t, &in, &width);
        bytes += c->act * sb * width;
    }
    if (lay->sp) bytes += 2.0 * c->act * sb * d->h / d->rep; /* the reduce-scatters' outputs */
    if (cfg->attention == TRAINSIZE_ATTENTION_EAGER)
        /* both products are bmm: the scores and the context (softmax, its dropout and a
         * soft-cap's tanh are recomputed from the scores) */
        bytes += c->act * sb * (d->heads_rank * d->s_full + d->v_rank);
    else
        bytes += c->act * sb * d->v_rank + 4.0 * d->heads_rank * sb; /* output, fp32 log-sum-exp */
    if (moe) {
        bytes += (4.0 + 8.0) * k * sb; /* topk: fp32 scores and int64 expert ids */
        /* expert parallelism: the dispatched tokens and the combined outputs (all-to-all) */
        if (lay->ep > 1) bytes += 2.0 * c->act * k * sb * d->h / d->rep;
    }
    return bytes;
}

static double layer_bytes(const ts_settings *cfg, const ts_conv *c, const layer_dims *d,
                          const ts_layout *lay, int recompute, int moe)
{
    if (recompute == TRAINSIZE_RECOMPUTE_FULL) return c->residual * d->sb * d->h / d->rep; /* layer input */
    if (recompute == TRAINSIZE_RECOMPUTE_PER_OP) return per_op_terms(cfg, c, d, lay, moe);
    unsigned drop = recompute == TRAINSIZE_RECOMPUTE_NONE ? 0u : ts_recompute_dropped(cfg, recompute);
    return attention_terms(cfg, c, d, drop) + mlp_block_terms(cfg, c, d, moe, drop) + lora_terms(cfg, c, d);
}

/* One layer's bytes with nothing recomputed (policy 0) or under the recompute policy
 * (policy 1), dense or MoE, from the memo when a stage before worked it out. */
static double layer_memo(const ts_settings *cfg, const ts_conv *c, const layer_dims *d,
                         const ts_layout *lay, ts_layer_memo *memo, int policy, int moe)
{
    int mode = policy ? cfg->recompute : TRAINSIZE_RECOMPUTE_NONE;
    int slot = mode != TRAINSIZE_RECOMPUTE_NONE, kind = moe != 0;
    if (!memo->known[slot][kind]) {
        memo->bytes[slot][kind] = layer_bytes(cfg, c, d, lay, mode, kind);
        memo->known[slot][kind] = 1;
    }
    return memo->bytes[slot][kind];
}

/* Checkpointed layers keep what their policy keeps; the others of the stage
 * (recompute-layers) everything. One layer of each kind, blended by that share; *largest
 * is the larger of the two a stage holds. */
static double blend(const ts_settings *cfg, const ts_conv *c, const layer_dims *d,
                    const ts_layout *lay, ts_layer_memo *memo, double share, int moe, double *largest)
{
    double policy = share > 0.0 ? layer_memo(cfg, c, d, lay, memo, 1, moe) : 0.0;
    double none = share < 1.0 ? layer_memo(cfg, c, d, lay, memo, 0, moe) : 0.0;
    if (share >= 1.0) return *largest = policy;
    if (share <= 0.0) return *largest = none;
    *largest = policy > none ? policy : none;
    return share * policy + (1.0 - share) * none;
}

static double max2(double a, double b) { return a > b ? a : b; }

/* A trained vision tower keeps its layers' activations like the language model's layers
 * (the same terms and the job's kernels, for the tower's shape and modules: pre-norm
 * LayerNorms, biases, full multi-head attention over an image's patches, separate q, k, v),
 * for the patches of a micro-batch's images, not split by context parallelism. A frozen
 * tower keeps none (nothing in it needs a gradient); the projector's input and hidden per
 * image token are left out (under 0.2% of LLaVA-1.5's activations at seq 2048). */
static double vision_bytes(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c)
{
    const ts_model *m = &cfg->model;
    ts_settings tower;
    ts_layout tl;
    ts_conv tc;
    layer_dims d;
    double bytes, copies = 0.0;
    if (!lay->vision_trained || !(lay->vision_patches_mb > 0)) return 0.0;
    tower = *cfg;
    ts_model_clear(&tower.model);
    tower.model.layers = m->vision_layers;
    tower.model.hidden = m->vision_hidden;
    tower.model.heads = m->vision_heads;
    tower.model.ffn = m->vision_ffn;
    tower.model.gated_mlp = m->vision_gated;
    tower.model.norm = TRAINSIZE_NORM_LAYERNORM;
    tower.model.bias = TRAINSIZE_BIAS_ALL;
    tower.model.positions = m->vision_patches; /* learned positions: no causal mask */
    tower.seq = m->vision_patches;
    tl = *lay;
    tl.cp = 1;
    tl.tokens_mb = lay->vision_patches_mb;
    tc = *c;
    ts_conv_set_kernels(&tower, &tc);
    make_dims(&tower, &tl, &d);
    bytes = (double)m->vision_layers * layer_bytes(&tower, &tc, &d, &tl, cfg->recompute, 0);
    /* autocast's 16-bit copies of the tower's fp32 weights, kept for backward unless the
     * layers are checkpointed (as for the language model's layers, memory.c) */
    if (c->autocast_copies && cfg->recompute != TRAINSIZE_RECOMPUTE_FULL &&
        cfg->recompute != TRAINSIZE_RECOMPUTE_PER_OP)
        copies = c->layer_copy * (double)ts_model_vision_layer(m) * (double)m->vision_layers / (double)lay->tp;
    return bytes + copies;
}

/* Activation offload (torchtune's OffloadActivations, Megatron-Core's cpu_offloading): each
 * layer's saved tensors are copied to pinned host memory on a side stream as its forward
 * ends and copied back ahead of its backward. The GPU keeps two layers of one micro-batch
 * (the one computing and the one in transfer); the host the rest. */
static void offload(const ts_settings *cfg, double largest_layer, ts_activations *out)
{
    double window;
    if (!cfg->activation_offload || !(out->layers > 0)) return;
    window = 2.0 * largest_layer < out->layers ? 2.0 * largest_layer : out->layers;
    out->offload_moved = out->layers / out->in_flight;
    out->offloaded = out->layers - window;
    out->layers = window;
}

/* Micro-batches whose activations a stage holds, in units of the stage's L/p layers for
 * one micro-batch. 1F1B: pp - r on stage r (Narayanan et al. 2021). Interleaved with v
 * chunks: Megatron-LM's warm-up of 2(p - r - 1) + (v - 1)p chunk-forwards plus the one in
 * progress, each L/(p v) layers, which on stage 0 is Korthikanti et al.'s
 * p (1 + (p - 1)/(p v)) (2022, §4.2.3). Never more than the step's micro-batches. */
static double in_flight(const ts_layout *lay, uint64_t stage)
{
    double p = (double)lay->pp, v = (double)lay->vpp, r = (double)stage;
    double m = (double)lay->micro_batches;
    double n = lay->vpp > 1 ? (2.0 * (p - r - 1.0) + (v - 1.0) * p + 1.0) / v : p - r;
    /* ZB-H2 holds up to twice 1F1B's (Qi et al. 2023: 2p - 1 on the first stage); DualPipe
     * p + 1 on every rank (DeepSeek-V3, Table 2) */
    if (lay->schedule == TS_PP_ZB_H2) n = 2.0 * (p - r) - 1.0;
    if (lay->schedule == TS_PP_DUALPIPE) n = p + 1.0;
    return n < m ? n : m;
}

/* A ResNet keeps, per image, what cnn.c's walk counts (each element in the activations'
 * type, max pooling's indices in int64), and autocast's 16-bit copies of its fp32
 * convolution weights; its largest block stands for "one layer". */
static void cnn_activations(const ts_layout *lay, const ts_conv *c, ts_activations *out)
{
    const ts_cnn *n = &lay->cnn;
    double images = (double)lay->micro_batch, copies = 0.0;
    *out = (ts_activations){0};
    if (c->autocast_copies) copies = c->layer_copy * n->conv_params;
    out->in_flight = 1.0;
    out->per_layer = out->per_layer_full = c->act * n->largest_block * images;
    out->layers = (c->act * n->kept + 8.0 * n->indices) * images + copies;
    /* the logits (fp32 under autocast's upcast loss) and int64 targets */
    out->loss = (c->loss_saved * n->classes + 8.0) * images;
    out->output = out->loss;
    out->loss_backward = c->loss_backward * n->classes * images;
}

void ts_activations_stage(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                          uint64_t stage, ts_layer_memo *memo, ts_activations *out)
{
    const ts_model *m = &cfg->model;
    layer_dims d;
    double vocab_rank;
    int first = stage == 0, last = stage == lay->pp - 1;
    if (ts_model_is_cnn(m)) {
        cnn_activations(lay, c, out);
        return;
    }
    make_dims(cfg, lay, &d);
    vocab_rank = (double)ts_model_logit_width(m) / d.t; /* 0: a pooler or classifier scores a sequence once */
    *out = (ts_activations){0};
    out->in_flight = in_flight(lay, stage);
    {
        /* An MoE model's dense layers keep less than its MoE layers: per layer, the
         * larger is reported; the stage holds each kind as many times as it has them.
         * With recompute-layers only that share of each kind is checkpointed. */
        double layers = (double)ts_stage_layers(lay, stage);
        double moe = (double)ts_stage_moe_layers(lay, m, stage), dense = layers - moe;
        double share, big_moe = 0.0, big_dense = 0.0, as_moe = 0.0, as_dense = 0.0;
        int moe_model = ts_model_is_moe(m);
        out->recomputed_layers = (double)ts_stage_recomputed_layers(lay, stage);
        share = out->recomputed_layers / layers;
        if (moe > 0) as_moe = blend(cfg, c, &d, lay, memo, share, 1, &big_moe);
        if (dense > 0) as_dense = blend(cfg, c, &d, lay, memo, share, 0, &big_dense);
        out->per_layer_full = layer_memo(cfg, c, &d, lay, memo, 0, moe_model);
        /* the largest layer the stage stores: one the policy applies to, or one it leaves */
        out->per_layer = max2(big_moe, big_dense);
        out->layers = (moe * as_moe + dense * as_dense) * out->in_flight;
        offload(cfg, out->per_layer, out);
    }
    if (first) out->vision = vision_bytes(cfg, lay, c) * out->in_flight;
    if (first) {
        /* int64 token ids for the embedding's backward, plus its dropout mask. */
        double e = 8.0 * d.sb +
                   (cfg->dropout > 0 && c->residual_dropout ? c->dropout_mask * d.sb * d.h / d.rep : 0.0);
        if (m->positions) e += 8.0 * d.sb;
        out->embedding = e * out->in_flight;
    }
    if (last) {
        /* Final norm input, output-layer input, and what the loss keeps of the logits
         * (the 32-bit softmax when the loss upcasts). Megatron-LM: 4sbh(1 + V/h)/t. */
        double o = c->norm_saved * d.sb * d.h / d.rep;
        if (cfg->lora_rank == 0) o += c->linear_in * d.sb * d.h / d.rep;
        /* the kept logits' softmax, and the int64 targets */
        out->loss = c->loss_saved * d.sb * vocab_rank + 8.0 * d.sb;
        /* a fused linear + loss computes the input's gradient in the forward and keeps it */
        if (c->loss_fused) out->loss += c->act * d.sb * d.h / d.rep;
        /* soft-capped logits: the tanh keeps its output (Gemma 2's final_logit_softcapping) */
        if (m->logit_softcap) out->loss += c->act * d.sb * vocab_rank;
        o += out->loss;
        if (m->mtp_layers) {
            /* each multi-token-prediction depth: its two input norms and their projection,
             * a layer (its activations, like the model's last), and another pass through
             * the final norm, the output head and the loss */
            double inputs = 2.0 * c->norm_saved * d.sb * d.h / d.rep + c->linear_in * d.sb * 2.0 * d.h / d.rep;
            double layer = layer_memo(cfg, c, &d, lay, memo, 1, ts_model_is_moe(m));
            o += (double)m->mtp_layers * (inputs + layer + o);
        }
        out->output = o;
        out->loss_backward = c->loss_backward * d.sb * vocab_rank;
    }
    if ((cfg->recompute == TRAINSIZE_RECOMPUTE_FULL || cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP) &&
        out->recomputed_layers > 0) {
        /* A checkpointed layer's backward first runs its forward again. */
        out->recompute = out->per_layer_full;
        /* The causal mask passed to every checkpointed layer: an s x s tensor expanded
         * (a view) over the batch, kept once. */
        if (c->mask_held) out->layers += d.s_full * d.s_full * c->residual;
    }
    if (out->recomputed_layers > 0 && (ts_recompute_dropped(cfg, cfg->recompute) &
                                       (ts_model_is_moe(m) ? TS_RC_MOE : TS_RC_MLP)))
        /* a checkpointed MLP block's backward first runs its forward again */
        out->recompute = mlp_block_terms(cfg, c, &d, ts_model_is_moe(m), 0u);
    if (cfg->mlp_tiles != 1 && ts_stage_moe_layers(lay, m, stage) < ts_stage_layers(lay, stage)) {
        /* a tiled MLP's backward runs one tile's forward again and holds its activations */
        double tile = d.sb / ts_mlp_tiles(cfg, lay);
        out->recompute += mlp_terms(cfg, c, tile, c->linear_in * tile * d.h / d.rep, d.dense_f_rank, 0);
    }
}

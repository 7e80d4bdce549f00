/* Model shapes and exact parameter counts.
 *
 * Counting follows the modules of the Hugging Face implementations, so that totals match
 * transformers' `model.num_parameters()` to the parameter (the published totals of the
 * checkpoints at https://huggingface.co/<repo>, each preset's repo named in presets.c):
 * per layer the attention projections q, k, v, o (GQA: k and v are kv_heads x head_dim
 * wide), the MLP (gated: gate, up, down; else up, down), two norms (LayerNorm: weight +
 * bias; RMSNorm: weight), the biases each family has, and for MoE the experts plus a router
 * of hidden x experts (Mixtral's `gate`, no bias). Outside the layers: token embedding,
 * learned position embedding, final norm and, when untied, the output layer. */
#include <string.h>

#include "checked.h"
#include "error.h"
#include "model.h"

void ts_model_clear(ts_model *m) { memset(m, 0, sizeof *m); }

uint64_t ts_model_kv_heads(const ts_model *m) { return m->kv_heads ? m->kv_heads : m->heads; }

uint64_t ts_model_head_dim(const ts_model *m)
{
    if (m->head_dim) return m->head_dim;
    return m->heads ? m->hidden / m->heads : 0;
}

uint64_t ts_model_q_dim(const ts_model *m) { return m->heads * ts_model_head_dim(m); }
uint64_t ts_model_kv_dim(const ts_model *m) { return ts_model_kv_heads(m) * ts_model_head_dim(m); }
int ts_model_is_moe(const ts_model *m) { return m->experts > 1; }

uint64_t ts_model_v_head_dim(const ts_model *m) { return m->v_head_dim ? m->v_head_dim : ts_model_head_dim(m); }

uint64_t ts_model_moe_layers_in(const ts_model *m, uint64_t first, uint64_t count)
{
    uint64_t step = m->moe_every > 1 ? m->moe_every : 1;
    uint64_t lo = first > m->first_dense_layers ? first : m->first_dense_layers, hi = first + count;
    if (!ts_model_is_moe(m) || hi <= lo) return 0;
    return hi / step - lo / step; /* layers i in [lo, hi) with (i + 1) % step == 0 */
}

double ts_model_attention_flops(const ts_model *m, uint64_t seq, int windowed)
{
    double s = (double)seq, layers = (double)m->layers, global = layers;
    double window = m->sliding_window && m->sliding_window < seq ? (double)m->sliding_window : s;
    double per_key = 2.0 * (double)m->heads *
                     ((double)ts_model_head_dim(m) + (double)ts_model_v_head_dim(m));
    if (m->sliding_window && windowed)
        global = m->global_every ? (double)(m->layers / m->global_every) : 0.0;
    return per_key * (global * s + (layers - global) * window);
}

/* A ResNet is described by its depth, width, image and classes (cnn.c). */
static int cnn_validate(const ts_model *m, trainsize_error *err)
{
    if (!ts_cnn_depth_known(m->resnet_depth))
        return ts_fail(err, TRAINSIZE_E_INVALID, "resnet-depth",
                       "resnet-depth: %llu is not one of torchvision's ResNets (18, 34, 50, 101, 152)",
                       (unsigned long long)m->resnet_depth);
    if (m->image_size && m->image_size < 32)
        return ts_fail(err, TRAINSIZE_E_INVALID, "image-size",
                       "image-size: a ResNet needs images of at least 32 x 32 pixels");
    if (m->vision_layers || m->patch_size || m->experts > 1 || m->mtp_layers)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "resnet-depth",
                       "resnet-depth: a convolutional network has no vision tower, patches, experts "
                       "or multi-token prediction");
    return TRAINSIZE_OK;
}

int ts_model_validate(const ts_model *m, trainsize_error *err)
{
    if (m->resnet_depth) return cnn_validate(m, err);
    if (m->layers == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "model",
                       "model: no model set (use --model, --hf-config or the shape options)");
    if (m->hidden == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "hidden", "hidden: must be set");
    if (m->heads == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "heads", "heads: must be set");
    if (m->ffn == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "ffn", "ffn: must be set");
    if (m->vocab == 0 && !m->patch_size)
        return ts_fail(err, TRAINSIZE_E_INVALID, "vocab", "vocab: must be set");
    if (m->patch_size && (m->positions == 0 || m->channels == 0))
        return ts_fail(err, TRAINSIZE_E_INVALID, m->positions ? "channels" : "positions",
                       "%s: an image transformer (patch-size) needs its positions (patches + 1) "
                       "and its input channels", m->positions ? "channels" : "positions");
    {
        int rc = ts_model_vision_validate(m, err);
        if (rc) return rc;
    }
    if (m->head == TS_HEAD_CLASSIFIER && m->classes == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "classes", "classes: a classifier head needs its classes");
    if (m->head != TS_HEAD_LM && (m->mtp_layers || ts_model_is_moe(m)))
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "head",
                       "head: an encoder's pooler or classifier is modelled for dense models "
                       "without multi-token prediction");
    if (m->head_dim == 0 && m->hidden % m->heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "heads",
                       "heads: %llu does not divide hidden %llu (set head-dim)",
                       (unsigned long long)m->heads, (unsigned long long)m->hidden);
    if (ts_model_kv_heads(m) > m->heads || m->heads % ts_model_kv_heads(m) != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "kv-heads",
                       "kv-heads: %llu must divide heads %llu",
                       (unsigned long long)ts_model_kv_heads(m), (unsigned long long)m->heads);
    if (ts_model_is_moe(m)) {
        if (m->experts_per_token == 0 || m->experts_per_token > m->experts)
            return ts_fail(err, TRAINSIZE_E_INVALID, "experts-per-token",
                           "experts-per-token: must be from 1 to experts (%llu)",
                           (unsigned long long)m->experts);
    }
    if (m->shared_experts && m->shared_expert_ffn == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "shared-expert-ffn",
                       "shared-expert-ffn: must be set when shared-experts > 0");
    if (m->first_dense_layers > m->layers)
        return ts_fail(err, TRAINSIZE_E_INVALID, "first-dense-layers",
                       "first-dense-layers: %llu is more than the %llu layers",
                       (unsigned long long)m->first_dense_layers, (unsigned long long)m->layers);
    if (m->kv_lora_rank) {
        if (m->head_dim == 0 || m->v_head_dim == 0)
            return ts_fail(err, TRAINSIZE_E_INVALID, m->head_dim ? "v-head-dim" : "head-dim",
                           "%s: multi-head latent attention (kv-lora-rank) needs head-dim (the "
                           "query/key head, rope part included) and v-head-dim",
                           m->head_dim ? "v-head-dim" : "head-dim");
        if (m->qk_rope_head_dim > m->head_dim)
            return ts_fail(err, TRAINSIZE_E_INVALID, "qk-rope-head-dim",
                           "qk-rope-head-dim: %llu is more than head-dim %llu",
                           (unsigned long long)m->qk_rope_head_dim, (unsigned long long)m->head_dim);
        if (m->bias != TRAINSIZE_BIAS_NONE || m->qk_norm != TRAINSIZE_QK_NORM_NONE)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, m->bias != TRAINSIZE_BIAS_NONE ? "bias" : "qk-norm",
                           "%s: not modelled with multi-head latent attention (no family has it)",
                           m->bias != TRAINSIZE_BIAS_NONE ? "bias" : "qk-norm");
    } else if (m->q_lora_rank) {
        return ts_fail(err, TRAINSIZE_E_INVALID, "q-lora-rank",
                       "q-lora-rank: a query down-projection is part of multi-head latent "
                       "attention: set kv-lora-rank too");
    }
    return ts_ok(err);
}

/* One MLP of inner size f: gated has gate, up and down; biases as the family has them. */
static int mlp_params(const ts_model *m, uint64_t f, uint64_t *out)
{
    uint64_t mats = m->gated_mlp ? 3 : 2, weights = 0, bias = 0;
    if (ts_mul3_u64(mats, m->hidden, f, &weights) != 0) return -1;
    if (m->bias == TRAINSIZE_BIAS_ALL) bias = (m->gated_mlp ? 2 * f : f) + m->hidden;
    return ts_add_u64(weights, bias, out);
}

static uint64_t norm_params(const ts_model *m)
{
    return m->norm == TRAINSIZE_NORM_LAYERNORM ? 2 * m->hidden : m->hidden;
}

/* Parameters of a norm over `width` elements, of the model's kind. */
static uint64_t norm_of(const ts_model *m, uint64_t width)
{
    return m->norm == TRAINSIZE_NORM_LAYERNORM ? 2 * width : width;
}

/* Multi-head latent attention (DeepSeek-V2 §2.1, arXiv 2405.04434; DeepSeek-V3): queries
 * through a rank-q_lora down-projection and its norm (or one full projection), keys and
 * values through one rank-kv_lora compression plus a shared rotary key, its norm, and the
 * up-projection to each head's no-rope key and value; o from the value heads. */
static int mla_params(const ts_model *m, uint64_t *out)
{
    uint64_t h = m->hidden, heads = m->heads, hd = m->head_dim, rope = m->qk_rope_head_dim;
    uint64_t v = m->v_head_dim, qr = m->q_lora_rank, kvr = m->kv_lora_rank, t = 0, x = 0;
    int bad = 0;
    if (qr) {
        bad |= ts_mul_u64(h, qr, &t);
        bad |= ts_add_u64(t, norm_of(m, qr), &t);
        bad |= ts_mul3_u64(qr, heads, hd, &x);
    } else {
        bad |= ts_mul3_u64(h, heads, hd, &x);
    }
    bad |= ts_add_u64(t, x, &t);
    bad |= ts_mul_u64(h, kvr + rope, &x);
    bad |= ts_add_u64(t, x, &t);
    bad |= ts_add_u64(t, norm_of(m, kvr), &t);
    bad |= ts_mul3_u64(kvr, heads, hd - rope + v, &x);
    bad |= ts_add_u64(t, x, &t);
    bad |= ts_mul3_u64(heads, v, h, &x);
    bad |= ts_add_u64(t, x, out);
    return bad ? -1 : 0;
}

static int attention_params(const ts_model *m, uint64_t *out)
{
    uint64_t q = ts_model_q_dim(m), kv = ts_model_kv_dim(m), h = m->hidden;
    uint64_t qkv_out = 0, proj = 0, weights = 0, bias = 0, extra = 0;
    if (m->kv_lora_rank) return mla_params(m, out);
    /* q, k, v: h -> q + 2 kv; o: q -> h */
    if (ts_add_u64(q, 2 * kv, &qkv_out) != 0) return -1;
    if (ts_mul_u64(h, qkv_out, &weights) != 0 || ts_mul_u64(q, h, &proj) != 0) return -1;
    if (ts_add_u64(weights, proj, &weights) != 0) return -1;
    if (m->bias == TRAINSIZE_BIAS_QKV) bias = qkv_out;
    if (m->bias == TRAINSIZE_BIAS_ALL || m->bias == TRAINSIZE_BIAS_ATTENTION) bias = qkv_out + h;
    if (m->qk_norm == TRAINSIZE_QK_NORM_HEAD) extra = 2 * norm_of(m, ts_model_head_dim(m));
    if (m->qk_norm == TRAINSIZE_QK_NORM_FULL) extra = norm_of(m, q) + norm_of(m, kv);
    if (m->attention_sinks) extra += m->heads;
    if (ts_add_u64(weights, bias, &weights) != 0) return -1;
    return ts_add_u64(weights, extra, out);
}

/* What an encoder or image transformer has around its layers (transformers' BertModel and
 * RobertaModel, torchvision's and transformers' ViT classifiers): segment embeddings, the
 * embeddings' LayerNorm after them (post-norm), a class token, the patch projection (a
 * convolution of kernel = stride = patch: channels x patch^2 x hidden weights and a bias),
 * the pooler (hidden x hidden and a bias) and a classifier (hidden x classes and a bias). */
static int encoder_params(const ts_model *m, ts_param_counts *c)
{
    uint64_t h = m->hidden, x = 0;
    int bad = 0;
    bad |= ts_mul_u64(m->token_types, h, &c->embedding_other);
    if (m->post_norm) bad |= ts_add_u64(c->embedding_other, norm_params(m), &c->embedding_other);
    if (m->patch_size) {
        bad |= ts_add_u64(c->embedding_other, h, &c->embedding_other); /* the class token */
        bad |= ts_mul3_u64(m->channels, m->patch_size * m->patch_size, h, &x);
        bad |= ts_add_u64(x, h, &c->patch_embedding);
    }
    if (m->head == TS_HEAD_POOLER) bad |= ts_add_u64(h * h, h, &c->head);
    if (m->head != TS_HEAD_LM && m->classes) {
        bad |= ts_mul_u64(h + 1, m->classes, &x);
        bad |= ts_add_u64(c->head, x, &c->head);
    }
    return bad ? -1 : 0;
}

uint64_t ts_model_logit_width(const ts_model *m) { return m->head == TS_HEAD_LM ? m->vocab : 0; }

int ts_model_count(const ts_model *m, ts_param_counts *c, trainsize_error *err)
{
    uint64_t t = 0, outside = 0, dense_all = 0, moe_all = 0, moe_active = 0;
    uint64_t npl = m->norms_per_layer ? m->norms_per_layer : 2, dense_layers;
    int bad = 0;
    memset(c, 0, sizeof *c);
    if (ts_model_is_cnn(m)) {
        /* a ResNet: its convolutions and BatchNorms, and the classifier (exact in double) */
        ts_cnn n;
        if (ts_cnn_walk(m, &n) != 0 || !(n.conv_params + n.fc_params < 9e15))
            return ts_fail(err, TRAINSIZE_E_OVERFLOW, "model",
                           "model: the network is beyond the sizes modelled");
        c->conv = (uint64_t)n.conv_params;
        c->head = (uint64_t)n.fc_params;
        c->total = c->active = c->conv + c->head;
        return ts_ok(err);
    }
    bad |= attention_params(m, &c->attention);
    c->norms = npl * norm_params(m);
    c->moe_layers = ts_model_moe_layers_in(m, 0, m->layers);
    dense_layers = m->layers - c->moe_layers;
    if (dense_layers) bad |= mlp_params(m, ts_model_is_moe(m) && m->dense_ffn ? m->dense_ffn : m->ffn,
                                        &c->mlp_dense);
    if (ts_model_is_moe(m)) {
        bad |= mlp_params(m, m->ffn, &c->expert);
        /* hidden x experts (Mixtral's `gate`), its bias, and Qwen2-MoE's shared-expert gate */
        c->router = m->hidden * m->experts + (m->router_bias ? m->experts : 0) +
                    (m->shared_expert_gate ? m->hidden : 0);
    }
    if (m->shared_experts) bad |= mlp_params(m, m->shared_expert_ffn, &c->shared_expert);
    /* dense layer = attention + norms + MLP; MoE layer = attention + norms + router +
     * shared experts + experts (all of them, or top-k for the active count) */
    c->layer_dense = c->attention + c->norms + c->mlp_dense;
    if (c->moe_layers) {
        uint64_t experts_all = 0, experts_active = 0, shared = 0;
        bad |= ts_mul_u64(c->expert, m->experts, &experts_all);
        bad |= ts_mul_u64(c->expert, m->experts_per_token, &experts_active);
        bad |= ts_mul_u64(c->shared_expert, m->shared_experts, &shared);
        t = c->attention + c->norms + c->router;
        bad |= ts_add_u64(t, shared, &t);
        bad |= ts_add_u64(t, experts_all, &c->layer);
        bad |= ts_add_u64(t, experts_active, &c->layer_active);
    } else {
        c->layer = c->layer_active = c->layer_dense;
    }
    bad |= ts_mul_u64(m->vocab, m->hidden, &c->token_embedding);
    bad |= ts_mul_u64(m->positions, m->hidden, &c->position_embedding);
    c->output_layer = m->tied_embeddings || m->head != TS_HEAD_LM
                          ? 0 : c->token_embedding + (m->output_bias ? m->vocab : 0);
    c->final_norm = m->post_norm ? 0 : norm_params(m);
    bad |= encoder_params(m, c);
    bad |= ts_model_vision_count(m, c);
    bad |= ts_mul_u64(c->layer_dense, dense_layers, &dense_all);
    bad |= ts_mul_u64(c->layer, c->moe_layers, &moe_all);
    bad |= ts_mul_u64(c->layer_active, c->moe_layers, &moe_active);
    /* Multi-token prediction (DeepSeek-V3 §2.2, arXiv 2412.19437): per depth the two norms
     * of its inputs, their projection from 2h to h, one layer like the model's last, and
     * the norm before the shared output head. */
    if (m->mtp_layers) {
        uint64_t proj = 0, module = 0, active = 0;
        bad |= ts_mul3_u64(2, m->hidden, m->hidden, &proj);
        bad |= ts_add_u64(proj, 3 * norm_of(m, m->hidden), &proj);
        bad |= ts_add_u64(proj, c->moe_layers ? c->layer : c->layer_dense, &module);
        bad |= ts_add_u64(proj, c->moe_layers ? c->layer_active : c->layer_dense, &active);
        c->mtp_module = module;
        bad |= ts_mul_u64(module, m->mtp_layers, &c->mtp);
        bad |= ts_mul_u64(active, m->mtp_layers, &c->mtp_active);
    }
    outside = c->token_embedding;
    bad |= ts_add_u64(outside, c->position_embedding, &outside);
    bad |= ts_add_u64(outside, c->embedding_other, &outside);
    bad |= ts_add_u64(outside, c->patch_embedding, &outside);
    bad |= ts_add_u64(outside, c->head, &outside);
    bad |= ts_add_u64(outside, c->output_layer, &outside);
    bad |= ts_add_u64(outside, c->final_norm, &outside);
    bad |= ts_add_u64(outside, c->cross_attention, &outside);
    /* the vision tower and projector run per image, not per token, and a checkpoint's
     * extra tensors do no work the library knows: in the total, not the active count */
    c->extra = m->extra_params;
    {
        uint64_t vision = 0;
        bad |= ts_add_u64(c->vision, c->projector, &vision);
        bad |= ts_add_u64(vision, c->extra, &vision);
        bad |= ts_add_u64(outside, dense_all, &t);
        bad |= ts_add_u64(t, moe_all, &t);
        bad |= ts_add_u64(t, vision, &c->total);
    }
    bad |= ts_add_u64(outside, dense_all, &t);
    bad |= ts_add_u64(t, moe_active, &c->active);
    if (bad)
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "model",
                       "model: parameter count does not fit in 64 bits");
    return ts_ok(err);
}

/* Appends a LoRA adapter of rank r on an (in x o) matrix: A, then B (PEFT's order). */
static size_t add_adapter(ts_layer_mm *out, size_t n, double in, double o, int kind, double r)
{
    if (r <= 0 || n + 2 > TS_LAYER_MMS_MAX) return n;
    out[n++] = (ts_layer_mm){in, r, kind == TS_MM_EXPERT ? TS_MM_EXPERT : TS_MM_WHOLE, 0};
    out[n++] = (ts_layer_mm){r, o, kind, 0};
    return n;
}

/* Appends one matmul and, when LoRA targets it, its adapter. */
static size_t add_mm(ts_layer_mm *out, size_t n, double in, double o, int kind, int bias,
                     double rank, int lora)
{
    if (n + 1 > TS_LAYER_MMS_MAX) return n;
    out[n++] = (ts_layer_mm){in, o, kind, bias};
    return lora ? add_adapter(out, n, in, o, kind, rank) : n;
}

/* One MLP of inner size f: gate and up (or one fused projection), then down. */
static size_t add_mlp(const ts_model *m, ts_layer_mm *out, size_t n, double f, int in_kind,
                      int out_kind, double r, unsigned t, int lora)
{
    double h = (double)m->hidden;
    int bias = m->bias == TRAINSIZE_BIAS_ALL;
    if (m->gated_mlp && m->fused_gate_up) {
        n = add_mm(out, n, h, 2.0 * f, in_kind, bias, 0.0, 0);
    } else {
        if (m->gated_mlp) n = add_mm(out, n, h, f, in_kind, bias, r, lora && (t & TS_LORA_GATE));
        n = add_mm(out, n, h, f, in_kind, bias, r, lora && (t & TS_LORA_UP));
    }
    return add_mm(out, n, f, h, out_kind, bias, r, lora && (t & TS_LORA_DOWN));
}

size_t ts_model_layer_mms(const ts_model *m, int moe, uint64_t lora_rank, unsigned t, ts_layer_mm *out)
{
    double h = (double)m->hidden, q = (double)ts_model_q_dim(m), kv = (double)ts_model_kv_dim(m);
    double r = (double)lora_rank, heads = (double)m->heads, hd = (double)ts_model_head_dim(m);
    int qkv_bias = m->bias != TRAINSIZE_BIAS_NONE,
        o_bias = m->bias == TRAINSIZE_BIAS_ALL || m->bias == TRAINSIZE_BIAS_ATTENTION;
    size_t n = 0;
    if (m->kv_lora_rank) {
        /* MLA (mla_params): q through its latent (or whole), then the kv latent and its
         * up-projection to each head's no-rope key and value. */
        double rope = (double)m->qk_rope_head_dim, v = (double)ts_model_v_head_dim(m);
        double qr = (double)m->q_lora_rank, kvr = (double)m->kv_lora_rank;
        if (m->q_lora_rank) {
            n = add_mm(out, n, h, qr, TS_MM_WHOLE, 0, 0.0, 0);
            n = add_mm(out, n, qr, heads * hd, TS_MM_COLUMN, 0, r, (t & TS_LORA_Q) != 0);
        } else {
            n = add_mm(out, n, h, heads * hd, TS_MM_COLUMN, 0, r, (t & TS_LORA_Q) != 0);
        }
        n = add_mm(out, n, h, kvr + rope, TS_MM_WHOLE, 0, 0.0, 0);
        n = add_mm(out, n, kvr, heads * (hd - rope + v), TS_MM_COLUMN, 0, r,
                   (t & (TS_LORA_K | TS_LORA_V)) != 0);
        n = add_mm(out, n, heads * v, h, TS_MM_ROW, 0, r, (t & TS_LORA_O) != 0);
    } else {
        if (m->fused_qkv) {
            n = add_mm(out, n, h, q + 2.0 * kv, TS_MM_QKV, qkv_bias, 0.0, 0);
            if (t & TS_LORA_Q) n = add_adapter(out, n, h, q, TS_MM_COLUMN, r);
            if (t & TS_LORA_K) n = add_adapter(out, n, h, kv, TS_MM_KV, r);
            if (t & TS_LORA_V) n = add_adapter(out, n, h, kv, TS_MM_KV, r);
        } else {
            n = add_mm(out, n, h, q, TS_MM_COLUMN, qkv_bias, r, (t & TS_LORA_Q) != 0);
            n = add_mm(out, n, h, kv, TS_MM_KV, qkv_bias, r, (t & TS_LORA_K) != 0);
            n = add_mm(out, n, h, kv, TS_MM_KV, qkv_bias, r, (t & TS_LORA_V) != 0);
        }
        n = add_mm(out, n, q, h, TS_MM_ROW, o_bias, r, (t & TS_LORA_O) != 0);
    }
    if (!moe) {
        double f = (double)(ts_model_is_moe(m) && m->dense_ffn ? m->dense_ffn : m->ffn);
        return add_mlp(m, out, n, f, TS_MM_COLUMN, TS_MM_ROW, r, t, 1);
    }
    n = add_mm(out, n, h, (double)m->experts, TS_MM_ROUTER, 0, 0.0, 0);
    n = add_mlp(m, out, n, (double)m->ffn, TS_MM_EXPERT, TS_MM_EXPERT, r, t, 1);
    if (m->shared_experts) {
        n = add_mlp(m, out, n, (double)m->shared_experts * (double)m->shared_expert_ffn, TS_MM_COLUMN,
                    TS_MM_ROW, 0.0, 0, 0);
        if (m->shared_expert_gate) n = add_mm(out, n, h, 1.0, TS_MM_WHOLE, 0, 0.0, 0);
    }
    return n;
}

void ts_mm_rank_shape(const ts_model *m, const ts_layer_mm *mm, double t, double *in, double *out)
{
    /* the heads looked up only for the matmuls they shape: a layer lists many others */
    double kv_heads = mm->kind == TS_MM_KV || mm->kind == TS_MM_QKV ? (double)ts_model_kv_heads(m) : 0.0;
    *in = mm->in;
    *out = mm->out;
    switch (mm->kind) {
    case TS_MM_COLUMN: *out = mm->out / t; break;
    case TS_MM_KV: *out = mm->out / (kv_heads >= t ? t : kv_heads); break;
    case TS_MM_QKV: {
        double kv_rank = (kv_heads >= t ? kv_heads / t : 1.0) * (double)ts_model_head_dim(m);
        *out = (double)ts_model_q_dim(m) / t + 2.0 * kv_rank;
        break;
    }
    case TS_MM_ROW: *in = mm->in / t; break;
    default: break; /* replicated */
    }
}

double ts_model_lora_layer_params(const ts_model *m, uint64_t rank, unsigned targets)
{
    double h, q, kv, f, r, n = 0, experts;
    unsigned t = targets;
    if (rank == 0) return 0; /* before the dimensions' lookups: most jobs have no adapters */
    h = (double)m->hidden;
    q = (double)ts_model_q_dim(m);
    kv = (double)ts_model_kv_dim(m);
    f = (double)m->ffn;
    r = (double)rank;
    experts = ts_model_is_moe(m) ? (double)m->experts : 1.0;
    if (t & TS_LORA_Q) n += r * (h + q);
    if (t & TS_LORA_K) n += r * (h + kv);
    if (t & TS_LORA_V) n += r * (h + kv);
    if (t & TS_LORA_O) n += r * (q + h);
    if ((t & TS_LORA_GATE) && m->gated_mlp) n += experts * r * (h + f);
    if (t & TS_LORA_UP) n += experts * r * (h + f);
    if (t & TS_LORA_DOWN) n += experts * r * (f + h);
    return n;
}

double ts_model_adafactor_elements(const ts_model *m, const ts_param_counts *pc)
{
    double h = (double)m->hidden, f = (double)m->ffn, q = (double)ts_model_q_dim(m);
    double kv = (double)ts_model_kv_dim(m), v = (double)m->vocab;
    double mlp = (m->gated_mlp ? 3.0 : 2.0) * (h + f);
    double vectors = (double)pc->norms;            /* norms and biases stay whole */
    double qkv_bias = m->bias != TRAINSIZE_BIAS_NONE ? q + 2.0 * kv : 0.0;
    double other_bias = m->bias == TRAINSIZE_BIAS_ALL ? h + (m->gated_mlp ? 2.0 : 1.0) * f + h : 0.0;
    double layer = (h + q) + 2.0 * (h + kv) + (q + h) + vectors + qkv_bias + other_bias;
    if (ts_model_is_moe(m))
        layer += (double)m->experts * mlp + (h + (double)m->experts);
    else
        layer += mlp;
    if (m->shared_experts)
        layer += (double)m->shared_experts * (m->gated_mlp ? 3.0 : 2.0) * (h + (double)m->shared_expert_ffn);
    return (double)m->layers * layer + (v + h) + (m->positions ? (double)m->positions + h : 0.0) +
           (m->tied_embeddings ? 0.0 : v + h) + (double)pc->final_norm;
}

int ts_model_gelu_formula(const ts_model *m)
{
    static const char *const native[] = {"bert", "roberta", "vit", "falcon", "starcoder2"};
    size_t i;
    if (m->gated_mlp) return 0;
    for (i = 0; i < sizeof native / sizeof native[0]; i++)
        if (strcmp(m->family, native[i]) == 0) return 0;
    return 1;
}

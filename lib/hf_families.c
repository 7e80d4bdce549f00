/* Each family's own config.json keys and traits, read after the shape keys the Llama-like
 * families share (hf_config.c). Every trait follows the family's modelling file in
 * transformers (https://github.com/huggingface/transformers/tree/main/src/transformers/
 * models/<model_type>/modeling_<model_type>.py) and its config class's defaults;
 * docs/methodology.md ("Model families") lists them, and tests/test_hf_families.c checks
 * each against the checkpoint's published parameter count. */
#include <inttypes.h>
#include <string.h>

#include "error.h"
#include "hf_families.h"
#include "hf_keys.h"

/* attention_bias: biases on q, k, v and o (Qwen3, OLMo 2, Phi-3.5-MoE). */
static int attention_bias(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int on = 0, rc = ts_hf_bool_or(root, "attention_bias", 0, &on, err);
    if (!rc && on) m->bias = TRAINSIZE_BIAS_ATTENTION;
    return rc;
}

/* A sliding window on every layer, or on all but every n-th (sliding_window_pattern or
 * layer_types); null or absent: none. */
static int sliding_window(const ts_json_value *root, uint64_t global_every, ts_model *m,
                          trainsize_error *err)
{
    int rc = ts_hf_count_or(root, "sliding_window", HF_MAX_POSITIONS, 0, &m->sliding_window, err);
    if (rc || m->sliding_window == 0) return rc;
    m->global_every = global_every;
    return ts_hf_layer_types(root, m, err);
}

/* Qwen3: a norm per head on queries and keys (q_norm, k_norm: head_dim each). */
int ts_hf_qwen3(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    (void)t;
    m->qk_norm = TRAINSIZE_QK_NORM_HEAD;
    return attention_bias(root, m, err);
}

/* Qwen2-MoE and Qwen3-MoE: num_experts of moe_intermediate_size; intermediate_size is the
 * dense layers' (mlp_only_layers, and those off decoder_sparse_step). */
static int qwen_moe_experts(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc;
    m->dense_ffn = m->ffn;
    if ((rc = ts_hf_size(root, "num_experts", HF_MAX_EXPERTS, &m->experts, err)) ||
        (rc = ts_hf_top_k(root, "num_experts_per_tok", m, err)) ||
        (rc = ts_hf_size(root, "moe_intermediate_size", HF_MAX_FFN, &m->ffn, err)) ||
        (rc = ts_hf_size_or(root, "decoder_sparse_step", HF_MAX_LAYERS, 1, &m->moe_every, err)))
        return rc;
    return ts_hf_dense_prefix(root, "mlp_only_layers", m, err);
}

/* Qwen3-MoE: the experts, q/k norms, attention_bias. */
int ts_hf_qwen3_moe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc;
    (void)t;
    if ((rc = qwen_moe_experts(root, m, err))) return rc;
    m->qk_norm = TRAINSIZE_QK_NORM_HEAD;
    return attention_bias(root, m, err);
}

/* Qwen2-MoE: the experts, q, k, v biases (qkv_bias) and a shared expert with a sigmoid gate. */
int ts_hf_qwen2_moe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc, qkv = 1;
    uint64_t shared = 0;
    (void)t;
    if ((rc = qwen_moe_experts(root, m, err)) ||
        (rc = ts_hf_bool_or(root, "qkv_bias", 1, &qkv, err)) ||
        (rc = ts_hf_count_or(root, "shared_expert_intermediate_size", HF_MAX_FFN, 0, &shared, err)))
        return rc;
    m->bias = qkv ? TRAINSIZE_BIAS_QKV : TRAINSIZE_BIAS_NONE;
    if (shared) {
        m->shared_experts = 1;
        m->shared_expert_ffn = shared;
        m->shared_expert_gate = 1;
    }
    return TRAINSIZE_OK;
}

/* Phi-3.5-MoE: LayerNorm (weight and bias) everywhere, attention_bias on q, k, v and o,
 * lm_head_bias on the output layer; experts of intermediate_size. */
int ts_hf_phimoe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc;
    (void)t;
    m->norm = TRAINSIZE_NORM_LAYERNORM;
    if ((rc = attention_bias(root, m, err))) return rc;
    return ts_hf_bool_or(root, "lm_head_bias", 0, &m->output_bias, err);
}

/* DeepSeek-V2/V3: multi-head latent attention (q_lora_rank, null for V2-Lite: a full q
 * projection; kv_lora_rank; query/key heads of qk_nope_head_dim + qk_rope_head_dim; values
 * of v_head_dim), the first first_k_dense_replace layers dense (intermediate_size), the
 * rest MoE: n_routed_experts of moe_intermediate_size, n_shared_experts of the same size,
 * and V3's score-correction bias (topk_method "noaux_tc"), kept in the checkpoint. */
int ts_hf_deepseek(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    uint64_t nope = 0, freq = 1;
    ts_json_value v;
    int rc, bias = 0;
    (void)t;
    m->dense_ffn = m->ffn;
    if ((rc = ts_hf_count_or(root, "q_lora_rank", HF_MAX_HIDDEN, 0, &m->q_lora_rank, err)) ||
        (rc = ts_hf_size(root, "kv_lora_rank", HF_MAX_HIDDEN, &m->kv_lora_rank, err)) ||
        (rc = ts_hf_size(root, "qk_nope_head_dim", HF_MAX_HEAD_DIM, &nope, err)) ||
        (rc = ts_hf_size(root, "qk_rope_head_dim", HF_MAX_HEAD_DIM, &m->qk_rope_head_dim, err)) ||
        (rc = ts_hf_size(root, "v_head_dim", HF_MAX_HEAD_DIM, &m->v_head_dim, err)) ||
        (rc = ts_hf_size(root, "n_routed_experts", HF_MAX_EXPERTS, &m->experts, err)) ||
        (rc = ts_hf_top_k(root, "num_experts_per_tok", m, err)) ||
        (rc = ts_hf_size(root, "moe_intermediate_size", HF_MAX_FFN, &m->ffn, err)) ||
        (rc = ts_hf_count_or(root, "n_shared_experts", HF_MAX_SHARED_EXPERTS, 0, &m->shared_experts, err)) ||
        (rc = ts_hf_count_or(root, "first_k_dense_replace", HF_MAX_LAYERS, 0, &m->first_dense_layers,
                          err)) ||
        (rc = ts_hf_size_or(root, "moe_layer_freq", HF_MAX_LAYERS, 1, &freq, err)) ||
        (rc = ts_hf_bool_or(root, "attention_bias", 0, &bias, err)))
        return rc;
    if (freq != 1 || bias)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, freq != 1 ? "moe_layer_freq" : "attention_bias",
                       HF_PREFIX "\"%s\": not modelled (no published DeepSeek model has it)",
                       freq != 1 ? "moe_layer_freq" : "attention_bias");
    m->head_dim = nope + m->qk_rope_head_dim;
    m->shared_expert_ffn = m->shared_experts ? m->ffn : 0;
    m->router_bias = ts_json_object_get(root, "topk_method", &v) &&
                     ts_json_string_equals(&v, "noaux_tc");
    return TRAINSIZE_OK;
}

/* Llama 4 (its text model): experts and one shared expert of intermediate_size, the dense
 * layers' MLP of intermediate_size_mlp, MoE every interleave_moe_layer_step-th layer; the
 * RoPE layers attend in chunks of attention_chunk_size and every no_rope_layer_interval-th
 * layer (NoPE) globally, counted here as a window; its q/k norm has no weights. */
int ts_hf_llama4(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc;
    (void)t;
    if ((rc = ts_hf_size(root, "num_local_experts", HF_MAX_EXPERTS, &m->experts, err)) ||
        (rc = ts_hf_top_k(root, "num_experts_per_tok", m, err)) ||
        (rc = ts_hf_size_or(root, "intermediate_size_mlp", HF_MAX_FFN, m->ffn, &m->dense_ffn, err)) ||
        (rc = ts_hf_size_or(root, "interleave_moe_layer_step", HF_MAX_LAYERS, 1, &m->moe_every, err)) ||
        (rc = ts_hf_count_or(root, "attention_chunk_size", HF_MAX_POSITIONS, 0, &m->sliding_window,
                          err)) ||
        (rc = ts_hf_size_or(root, "no_rope_layer_interval", HF_MAX_LAYERS, 4, &m->global_every, err)))
        return rc;
    if (m->sliding_window == 0) m->global_every = 0;
    m->shared_experts = 1;
    m->shared_expert_ffn = m->ffn;
    return TRAINSIZE_OK;
}

/* gpt-oss: biases on q, k, v, o and on the experts' projections, a router with a bias, a
 * sink logit per head, experts of intermediate_size, sliding-window layers by layer_types. */
int ts_hf_gpt_oss(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc, bias = 1;
    (void)t;
    if ((rc = ts_hf_size(root, "num_local_experts", HF_MAX_EXPERTS, &m->experts, err)) ||
        (rc = ts_hf_top_k(root, "num_experts_per_tok", m, err)) ||
        (rc = ts_hf_bool_or(root, "attention_bias", 1, &bias, err)) ||
        (rc = sliding_window(root, 0, m, err)))
        return rc;
    if (!bias)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "attention_bias",
                       HF_PREFIX "\"attention_bias\": false with the experts' biases is not modelled");
    m->bias = TRAINSIZE_BIAS_ALL;
    m->router_bias = 1;
    m->attention_sinks = 1;
    return TRAINSIZE_OK;
}

/* Gemma 2: four norms a layer (before and after attention and the MLP); even layers
 * attend within sliding_window, odd ones globally; attention scores and final logits
 * soft-capped (attn_logit_softcapping, final_logit_softcapping; null: not). */
int ts_hf_gemma2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    (void)t;
    m->norms_per_layer = 4;
    m->attn_softcap = ts_hf_has(root, "attn_logit_softcapping");
    m->logit_softcap = ts_hf_has(root, "final_logit_softcapping");
    return sliding_window(root, 2, m, err);
}

/* Gemma 3: Gemma 2's four norms plus a norm per head on queries and keys; every
 * sliding_window_pattern-th layer (default 6) global, the others local. */
int ts_hf_gemma3(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    uint64_t pattern = 6;
    int rc;
    (void)t;
    m->norms_per_layer = 4;
    m->qk_norm = TRAINSIZE_QK_NORM_HEAD;
    m->attn_softcap = ts_hf_has(root, "attn_logit_softcapping");
    m->logit_softcap = ts_hf_has(root, "final_logit_softcapping");
    if ((rc = ts_hf_size_or(root, "sliding_window_pattern", HF_MAX_LAYERS, 6, &pattern, err)) ||
        (rc = ts_hf_size_or(root, "sliding_window", HF_MAX_POSITIONS, 4096, &m->sliding_window, err)))
        return rc;
    m->global_every = pattern;
    return ts_hf_layer_types(root, m, err);
}

/* OLMo 2: norms after attention and after the MLP (two a layer), and norms over the
 * whole q and k projections. */
int ts_hf_olmo2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    (void)t;
    m->qk_norm = TRAINSIZE_QK_NORM_FULL;
    return attention_bias(root, m, err);
}

/* StarCoder2: LayerNorm, a plain (not gated) MLP c_fc/c_proj, use_bias on every linear
 * layer, a sliding window on every layer. */
int ts_hf_starcoder2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc, bias = 1;
    (void)t;
    if ((rc = ts_hf_bool_or(root, "use_bias", 1, &bias, err))) return rc;
    m->bias = bias ? TRAINSIZE_BIAS_ALL : TRAINSIZE_BIAS_NONE;
    m->norm = TRAINSIZE_NORM_LAYERNORM;
    m->gated_mlp = 0;
    return sliding_window(root, 0, m, err);
}

/* Falcon: one fused query_key_value projection; multi_query (one key/value head) unless
 * new_decoder_architecture (num_kv_heads of them); attention and MLP in parallel off one
 * LayerNorm (two, ln_attn and ln_mlp, in the new architecture); a plain MLP of
 * ffn_hidden_size (4 x hidden); `bias` on every linear layer; ALiBi or rotary positions,
 * neither with weights; lm_head tied. */
int ts_hf_falcon(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc, multi_query = 1, new_arch = 0, parallel = 1, bias = 0;
    uint64_t norms = 0;
    if ((rc = ts_hf_size(root, "num_hidden_layers", HF_MAX_LAYERS, &m->layers, err)) ||
        (rc = ts_hf_size(root, "hidden_size", HF_MAX_HIDDEN, &m->hidden, err)) ||
        (rc = ts_hf_size(root, "num_attention_heads", HF_MAX_HEADS, &m->heads, err)) ||
        (rc = ts_hf_derive_head_dim(m->hidden, m->heads, "hidden_size", "num_attention_heads",
                                 &m->head_dim, err)) ||
        (rc = ts_hf_size(root, "vocab_size", HF_MAX_VOCAB, &m->vocab, err)) ||
        (rc = ts_hf_size_or(root, "ffn_hidden_size", HF_MAX_FFN, 4 * m->hidden, &m->ffn, err)) ||
        (rc = ts_hf_bool_or(root, "multi_query", 1, &multi_query, err)) ||
        (rc = ts_hf_bool_or(root, "new_decoder_architecture", 0, &new_arch, err)) ||
        (rc = ts_hf_bool_or(root, "parallel_attn", 1, &parallel, err)) ||
        (rc = ts_hf_bool_or(root, "bias", 0, &bias, err)) ||
        (rc = ts_hf_bool_or(root, "tie_word_embeddings", t->tied_default, &m->tied_embeddings, err)) ||
        (rc = ts_hf_count_or(root, "num_ln_in_parallel_attn", 2, new_arch ? 2 : 1, &norms, err)))
        return rc;
    if (new_arch) rc = ts_hf_kv_heads(root, "num_kv_heads", m->heads, m, err);
    else m->kv_heads = multi_query ? 1 : m->heads;
    if (rc) return rc;
    m->norm = TRAINSIZE_NORM_LAYERNORM;
    m->bias = bias ? TRAINSIZE_BIAS_ALL : TRAINSIZE_BIAS_NONE;
    m->fused_qkv = 1;
    m->parallel_block = parallel || new_arch;
    m->norms_per_layer = m->parallel_block ? (norms ? norms : 1) : 2;
    return TRAINSIZE_OK;
}

/* Encoders and image transformers share a BERT-like layer: post- or pre-norm around
 * attention and a GELU MLP, LayerNorm and biases everywhere, dropout on the residuals. */
static int encoder_layers(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc;
    if ((rc = ts_hf_size(root, "num_hidden_layers", HF_MAX_LAYERS, &m->layers, err)) ||
        (rc = ts_hf_size(root, "hidden_size", HF_MAX_HIDDEN, &m->hidden, err)) ||
        (rc = ts_hf_size(root, "num_attention_heads", HF_MAX_HEADS, &m->heads, err)) ||
        (rc = ts_hf_derive_head_dim(m->hidden, m->heads, "hidden_size", "num_attention_heads",
                                 &m->head_dim, err)) ||
        (rc = ts_hf_size(root, "intermediate_size", HF_MAX_FFN, &m->ffn, err)))
        return rc;
    m->kv_heads = m->heads;
    m->norm = TRAINSIZE_NORM_LAYERNORM;
    m->bias = TRAINSIZE_BIAS_ALL;
    m->residual_dropout = 1;
    return TRAINSIZE_OK;
}

/* BERT and RoBERTa, counted as transformers' BertModel and RobertaModel quote them:
 * post-norm, the embeddings' LayerNorm and segment embeddings, the pooler. */
int ts_hf_text_encoder(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    ts_json_value kind;
    int rc;
    (void)t;
    if ((rc = encoder_layers(root, m, err))) return rc;
    if (ts_json_object_get(root, "position_embedding_type", &kind) && !ts_json_is_null(&kind) &&
        !ts_json_string_equals(&kind, "absolute"))
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "position_embedding_type",
                       HF_PREFIX "\"position_embedding_type\": only \"absolute\" positions are "
                       "modelled (relative ones add their own embeddings)");
    if ((rc = ts_hf_size(root, "vocab_size", HF_MAX_VOCAB, &m->vocab, err)) ||
        (rc = ts_hf_size(root, "max_position_embeddings", HF_MAX_POSITIONS, &m->positions, err)) ||
        (rc = ts_hf_count_or(root, "type_vocab_size", 1000000, 2, &m->token_types, err)))
        return rc;
    m->post_norm = 1;
    m->head = TS_HEAD_POOLER;
    return TRAINSIZE_OK;
}

/* ViT, as ViTForImageClassification when the config names its labels (id2label: the
 * classifier on the class token), else ViTModel with its pooler: pre-norm with a final
 * LayerNorm; its positions are the patches and the class token; qkv_bias (true by default)
 * puts biases on q, k and v. */
int ts_hf_vit(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc, qkv_bias = 1;
    uint64_t image = 0;
    ts_json_value labels;
    (void)t;
    if ((rc = encoder_layers(root, m, err)) ||
        (rc = ts_hf_size(root, "image_size", 1000000, &image, err)) ||
        (rc = ts_hf_size(root, "patch_size", 10000, &m->patch_size, err)) ||
        (rc = ts_hf_size_or(root, "num_channels", 10000, 3, &m->channels, err)) ||
        (rc = ts_hf_bool_or(root, "qkv_bias", 1, &qkv_bias, err)))
        return rc;
    if (image < m->patch_size)
        return ts_fail(err, TRAINSIZE_E_INVALID, "patch_size",
                       HF_PREFIX "\"patch_size\" %llu is larger than \"image_size\" %llu",
                       (unsigned long long)m->patch_size, (unsigned long long)image);
    if (!qkv_bias)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "qkv_bias",
                       HF_PREFIX "\"qkv_bias\": false is not modelled (biases on o and the MLP only)");
    m->positions = (image / m->patch_size) * (image / m->patch_size) + 1;
    m->fused_qkv = 0; /* ViTSelfAttention: query, key, value */
    m->head = TS_HEAD_POOLER;
    if (ts_json_object_get(root, "id2label", &labels) && labels.type == TS_JSON_OBJECT) {
        size_t cursor = 0, n = 0;
        ts_json_value key, value;
        while (ts_json_object_next(&labels, &cursor, &key, &value)) n++;
        if (n) {
            m->head = TS_HEAD_CLASSIFIER;
            m->classes = n;
        }
    }
    return TRAINSIZE_OK;
}

/* A multimodal model's vision tower and projector: their parameters and forward FLOPs.
 *
 * Every tower the config readers know (CLIP ViT-L/14 in LLaVA, SigLIP in Gemma 3, Llama 4's
 * and Llama 3.2 Vision's encoders, Qwen2.5-VL's) is a stack of pre-norm layers with full
 * multi-head attention (q, k, v and o: 4 h^2 weights; Qwen2.5-VL fuses q, k, v, the same
 * count) and an MLP of two matrices (three when gated: Qwen2.5-VL's SwiGLU). The rest of
 * the tower (patch projection, position and tile embeddings, class token, norms, biases,
 * gates) differs by family, so the reader counts it exactly into vision_other
 * (hf_vision.c). FLOPs follow the language model's rules (compute.c): 2 per
 * multiply-accumulate of the layers' matrices per patch, and 4 x patches x hidden per
 * patch per layer for attention's two products (PaLM's 12 L H Q T convention, forward). */
#include "checked.h"
#include "error.h"
#include "model.h"

uint64_t ts_model_vision_layer(const ts_model *m)
{
    uint64_t h = m->vision_hidden;
    return 4 * h * h + (m->vision_gated ? 3 : 2) * h * m->vision_ffn;
}

int ts_model_vision_validate(const ts_model *m, trainsize_error *err)
{
    if (!m->vision_layers) {
        if (m->vision_hidden || m->vision_heads || m->vision_ffn || m->vision_patches ||
            m->vision_other || m->projector || m->image_tokens || m->cross_attention_layers)
            return ts_fail(err, TRAINSIZE_E_INVALID, "vision-layers",
                           "vision-layers: the vision tower's shape, projector and image tokens "
                           "need its layers (vision-layers)");
        return TRAINSIZE_OK;
    }
    if (!m->vision_hidden || !m->vision_heads || !m->vision_ffn || !m->vision_patches) {
        const char *f = !m->vision_hidden ? "vision-hidden" : !m->vision_heads ? "vision-heads"
                        : !m->vision_ffn  ? "vision-ffn" : "vision-patches";
        return ts_fail(err, TRAINSIZE_E_INVALID, f, "%s: must be set with vision-layers", f);
    }
    if (m->vision_hidden % m->vision_heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "vision-heads",
                       "vision-heads: %llu does not divide vision-hidden %llu",
                       (unsigned long long)m->vision_heads, (unsigned long long)m->vision_hidden);
    if (m->head != TS_HEAD_LM || m->patch_size)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "vision-layers",
                       "vision-layers: a vision tower feeds a language model (head lm, no patch-size)");
    if (m->cross_attention_layers > m->layers)
        return ts_fail(err, TRAINSIZE_E_INVALID, "cross-attention-layers",
                       "cross-attention-layers: %llu is more than the %llu layers",
                       (unsigned long long)m->cross_attention_layers, (unsigned long long)m->layers);
    return TRAINSIZE_OK;
}

/* The shape options' limits keep these products far below 2^63 (model.h); the sums are
 * checked by the caller's total. */
int ts_model_vision_count(const ts_model *m, ts_param_counts *c)
{
    uint64_t layers = 0;
    int bad = 0;
    if (!m->vision_layers) return 0;
    c->vision_layer = ts_model_vision_layer(m);
    bad |= ts_mul_u64(c->vision_layer, m->vision_layers, &layers);
    bad |= ts_add_u64(layers, m->vision_other, &c->vision);
    c->projector = m->projector;
    /* Llama 3.2 Vision's cross-attention layer: a self-attention layer's weights, plus its
     * RMSNorms on q and k (head_dim each) and tanh gates on attention and MLP (one each) */
    c->cross_attention = m->cross_attention_layers * (2 * ts_model_head_dim(m) + 2);
    return bad ? -1 : 0;
}

double ts_model_vision_flops(const ts_model *m, double *projector)
{
    double patches = (double)m->vision_patches, h = (double)m->vision_hidden;
    double layers = (double)m->vision_layers, tower;
    double runs = m->image_tokens ? (double)m->image_tokens : patches;
    *projector = 0.0;
    if (!m->vision_layers) return 0.0;
    tower = layers * (2.0 * (double)ts_model_vision_layer(m) * patches + 4.0 * patches * patches * h);
    *projector = 2.0 * (double)m->projector * runs;
    return tower + *projector;
}

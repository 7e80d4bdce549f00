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

int ts_model_validate(const ts_model *m, trainsize_error *err)
{
    if (m->layers == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "model",
                       "model: no model set (use --model, --hf-config or the shape options)");
    if (m->hidden == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "hidden", "hidden: must be set");
    if (m->heads == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "heads", "heads: must be set");
    if (m->ffn == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "ffn", "ffn: must be set");
    if (m->vocab == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "vocab", "vocab: must be set");
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
    return ts_ok(err);
}

/* One MLP of inner size f: gated has gate, up and down; biases as the family has them. */
static int mlp_params(const ts_model *m, uint64_t f, uint64_t *out)
{
    uint64_t mats = m->gated_mlp ? 3 : 2, weights = 0, bias = 0;
    if (ts_mul3_u64(mats, m->hidden, f, &weights) != 0) return -1;
    if (m->bias == TS_BIAS_ALL) bias = (m->gated_mlp ? 2 * f : f) + m->hidden;
    return ts_add_u64(weights, bias, out);
}

static uint64_t norm_params(const ts_model *m)
{
    return m->norm == TS_NORM_LAYERNORM ? 2 * m->hidden : m->hidden;
}

static int attention_params(const ts_model *m, uint64_t *out)
{
    uint64_t q = ts_model_q_dim(m), kv = ts_model_kv_dim(m), h = m->hidden;
    uint64_t qkv_out = 0, proj = 0, weights = 0, bias = 0;
    /* q, k, v: h -> q + 2 kv; o: q -> h */
    if (ts_add_u64(q, 2 * kv, &qkv_out) != 0) return -1;
    if (ts_mul_u64(h, qkv_out, &weights) != 0 || ts_mul_u64(q, h, &proj) != 0) return -1;
    if (ts_add_u64(weights, proj, &weights) != 0) return -1;
    if (m->bias == TS_BIAS_QKV) bias = qkv_out;
    if (m->bias == TS_BIAS_ALL) bias = qkv_out + h;
    return ts_add_u64(weights, bias, out);
}

int ts_model_count(const ts_model *m, ts_param_counts *c, trainsize_error *err)
{
    uint64_t t = 0, layers_total = 0, layers_active = 0;
    int bad = 0;
    memset(c, 0, sizeof *c);
    bad |= attention_params(m, &c->attention);
    c->norms = 2 * norm_params(m);
    if (ts_model_is_moe(m)) {
        bad |= mlp_params(m, m->ffn, &c->expert);
        c->router = m->hidden * m->experts;
    } else {
        bad |= mlp_params(m, m->ffn, &c->mlp_dense);
    }
    if (m->shared_experts) bad |= mlp_params(m, m->shared_expert_ffn, &c->shared_expert);
    /* layer = attention + norms + dense MLP + experts + router + shared experts */
    {
        uint64_t experts_all = 0, experts_active = 0, shared = 0;
        bad |= ts_mul_u64(c->expert, ts_model_is_moe(m) ? m->experts : 0, &experts_all);
        bad |= ts_mul_u64(c->expert, ts_model_is_moe(m) ? m->experts_per_token : 0, &experts_active);
        bad |= ts_mul_u64(c->shared_expert, m->shared_experts, &shared);
        t = c->attention + c->norms + c->mlp_dense + c->router;
        bad |= ts_add_u64(t, shared, &t);
        bad |= ts_add_u64(t, experts_all, &c->layer);
        bad |= ts_add_u64(t, experts_active, &c->layer_active);
    }
    bad |= ts_mul_u64(m->vocab, m->hidden, &c->token_embedding);
    bad |= ts_mul_u64(m->positions, m->hidden, &c->position_embedding);
    c->output_layer = m->tied_embeddings ? 0 : c->token_embedding;
    c->final_norm = norm_params(m);
    bad |= ts_mul_u64(c->layer, m->layers, &layers_total);
    bad |= ts_mul_u64(c->layer_active, m->layers, &layers_active);
    t = c->token_embedding;
    bad |= ts_add_u64(t, c->position_embedding, &t);
    bad |= ts_add_u64(t, c->output_layer, &t);
    bad |= ts_add_u64(t, c->final_norm, &t);
    bad |= ts_add_u64(t, layers_total, &c->total);
    bad |= ts_add_u64(t, layers_active, &c->active);
    if (bad)
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "model",
                       "model: parameter count does not fit in 64 bits");
    return ts_ok(err);
}

double ts_model_lora_layer_params(const ts_model *m, uint64_t rank, unsigned targets)
{
    double h = (double)m->hidden, q = (double)ts_model_q_dim(m), kv = (double)ts_model_kv_dim(m);
    double f = (double)m->ffn, r = (double)rank, n = 0;
    double experts = ts_model_is_moe(m) ? (double)m->experts : 1.0;
    unsigned t = targets;
    if (rank == 0) return 0;
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
    double qkv_bias = m->bias != TS_BIAS_NONE ? q + 2.0 * kv : 0.0;
    double other_bias = m->bias == TS_BIAS_ALL ? h + (m->gated_mlp ? 2.0 : 1.0) * f + h : 0.0;
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

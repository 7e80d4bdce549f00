/* Hugging Face config.json to ts_model. Only model types whose parameters the ts_model
 * fields describe exactly are accepted; everything else is refused by name. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "json.h"
#include "hf_families.h"
#include "hf_vision.h"
#include "hf_keys.h"
#include "model.h"
#include "text.h"

/* GPT-2's MLP is 4 x n_embd wide when n_inner is null (GPT2MLP in transformers). */
#define GPT2_FFN_MULTIPLE 4
/* GemmaConfig's default head_dim. */
#define GEMMA_HEAD_DIM_DEFAULT 256

#define HF_MODEL_TYPE_MAX 64 /* enough to quote an unknown model_type in a message */

/* Llama's attention_bias (q, k, v and o) and mlp_bias (gate, up and down): both are
 * TRAINSIZE_BIAS_ALL, attention alone TRAINSIZE_BIAS_ATTENTION; the MLP's alone has no trainsize_bias value. */
static int read_bias_keys(const ts_json_value *root, int mlp_key, trainsize_bias *bias,
                          trainsize_error *err)
{
    int attention = 0, mlp = 0, rc;
    if ((rc = ts_hf_bool_or(root, "attention_bias", 0, &attention, err)) ||
        (mlp_key && (rc = ts_hf_bool_or(root, "mlp_bias", 0, &mlp, err))))
        return rc;
    if (mlp && !attention)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "mlp_bias",
                       HF_PREFIX "\"mlp_bias\": true without \"attention_bias\" is not supported");
    if (attention) *bias = mlp ? TRAINSIZE_BIAS_ALL : TRAINSIZE_BIAS_ATTENTION;
    return TRAINSIZE_OK;
}

static int parse_gpt2(const hf_type *t, const ts_json_value *root, ts_model *m,
                      trainsize_error *err)
{
    int rc;
    if ((rc = ts_hf_size(root, "n_layer", HF_MAX_LAYERS, &m->layers, err)) ||
        (rc = ts_hf_size(root, "n_embd", HF_MAX_HIDDEN, &m->hidden, err)) ||
        (rc = ts_hf_size(root, "n_head", HF_MAX_HEADS, &m->heads, err)) ||
        (rc = ts_hf_derive_head_dim(m->hidden, m->heads, "n_embd", "n_head", &m->head_dim, err)) ||
        (rc = ts_hf_size_or(root, "n_inner", HF_MAX_FFN, GPT2_FFN_MULTIPLE * m->hidden, &m->ffn,
                           err)) ||
        (rc = ts_hf_size(root, "vocab_size", HF_MAX_VOCAB, &m->vocab, err)) ||
        (rc = ts_hf_size(root, "n_positions", HF_MAX_POSITIONS, &m->positions, err)) ||
        (rc = ts_hf_bool_or(root, "tie_word_embeddings", t->tied_default, &m->tied_embeddings,
                           err)))
        return rc;
    m->kv_heads = m->heads;
    m->gated_mlp = 0;
    m->norm = TRAINSIZE_NORM_LAYERNORM;
    m->bias = TRAINSIZE_BIAS_ALL;
    m->fused_qkv = 1;        /* c_attn */
    m->residual_dropout = 1; /* embd_pdrop, resid_pdrop */
    return TRAINSIZE_OK;
}

/* Mixtral's experts: num_local_experts, top-k num_experts_per_tok. */
static int read_experts(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    int rc = ts_hf_size(root, "num_local_experts", HF_MAX_EXPERTS, &m->experts, err);
    return rc ? rc : ts_hf_top_k(root, "num_experts_per_tok", m, err);
}

/* A shape key: required, or the config class's default when the type has one (a
 * multimodal config's sparse text_config leaves out what equals the defaults). */
static int shape_key(const ts_json_value *root, const char *key, uint64_t max, uint64_t dflt,
                     uint64_t *out, trainsize_error *err)
{
    return dflt ? ts_hf_size_or(root, key, max, dflt, out, err) : ts_hf_size(root, key, max, out, err);
}

/* Llama and its descendants: RMSNorm, gated MLP, rotary positions; then the family's own
 * keys and traits (hf_families.c). */
static int parse_llama_like(const hf_type *t, const ts_json_value *root, ts_model *m,
                            trainsize_error *err)
{
    const hf_defaults *d = &t->defaults;
    int rc;
    if ((rc = shape_key(root, "num_hidden_layers", HF_MAX_LAYERS, d->layers, &m->layers, err)) ||
        (rc = shape_key(root, "hidden_size", HF_MAX_HIDDEN, d->hidden, &m->hidden, err)) ||
        (rc = shape_key(root, "num_attention_heads", HF_MAX_HEADS, d->heads, &m->heads, err)) ||
        (rc = ts_hf_kv_heads(root, "num_key_value_heads", d->kv_heads ? d->kv_heads : m->heads, m,
                          err)) ||
        (rc = ts_hf_size_or(root, "head_dim", HF_MAX_HEAD_DIM, t->head_dim_default, &m->head_dim, err)))
        return rc;
    if (m->head_dim == 0 &&
        (rc = ts_hf_derive_head_dim(m->hidden, m->heads, "hidden_size", "num_attention_heads",
                                 &m->head_dim, err)))
        return rc;
    if ((rc = shape_key(root, "intermediate_size", HF_MAX_FFN, d->ffn, &m->ffn, err)) ||
        (rc = shape_key(root, "vocab_size", HF_MAX_VOCAB, d->vocab, &m->vocab, err)) ||
        (rc = ts_hf_bool_or(root, "tie_word_embeddings", t->tied_default, &m->tied_embeddings, err)))
        return rc;
    m->bias = t->bias;
    if (t->bias_keys && (rc = read_bias_keys(root, t->mlp_bias_key, &m->bias, err))) return rc;
    if (t->moe && (rc = read_experts(root, m, err))) return rc;
    m->positions = 0;
    m->gated_mlp = 1;
    m->norm = TRAINSIZE_NORM_RMSNORM;
    m->fused_qkv = m->fused_gate_up = t->fused_projections;
    return t->family ? t->family(t, root, m, err) : TRAINSIZE_OK;
}

/* Defaults are those of each transformers config class (LlamaConfig, GemmaConfig, ...);
 * biases those of each modelling file (Qwen2: q, k, v only; Mistral: none, fixed). The
 * families' keys are read by their hf_families.c function. */
static const hf_type hf_types[] = {
    {"gpt2", parse_gpt2, NULL, 1, 0, TRAINSIZE_BIAS_ALL, 0, 0, 0, {0}, NULL, 0},
    {"llama", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 1, 1, 0, {0}, NULL, 0},
    {"mistral", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"mixtral", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 1, {0}, NULL, 0},
    {"qwen2", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_QKV, 0, 0, 0, {0}, NULL, 0},
    {"gemma", parse_llama_like, NULL, 1, GEMMA_HEAD_DIM_DEFAULT, TRAINSIZE_BIAS_NONE, 1, 0, 0, {0}, NULL, 0},
    /* Phi-3 projects q, k, v (qkv_proj) and gate, up (gate_up_proj) in one matrix each. */
    {"phi3", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 1},
    {"granite", parse_llama_like, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 1, 1, 0, {0}, NULL, 0},
    /* Qwen3Config's head_dim defaults to 128; Qwen3MoeConfig's to hidden / heads. */
    {"qwen3", parse_llama_like, ts_hf_qwen3, 0, 128, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"qwen3_moe", parse_llama_like, ts_hf_qwen3_moe, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"qwen2_moe", parse_llama_like, ts_hf_qwen2_moe, 0, 0, TRAINSIZE_BIAS_QKV, 0, 0, 0, {0}, NULL, 0},
    {"phimoe", parse_llama_like, ts_hf_phimoe, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 1, {0}, NULL, 0},
    {"deepseek_v2", parse_llama_like, ts_hf_deepseek, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"deepseek_v3", parse_llama_like, ts_hf_deepseek, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"llama4_text", parse_llama_like, ts_hf_llama4, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"llama4", NULL, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, "llama4_text", 0},
    {"gpt_oss", parse_llama_like, ts_hf_gpt_oss, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"gemma2",
     parse_llama_like,
     ts_hf_gemma2,
     1,
     GEMMA_HEAD_DIM_DEFAULT,
     TRAINSIZE_BIAS_NONE,
     0,
     0,
     0,
     {0},
     NULL,
     0},
    /* Gemma3TextConfig's defaults: a multimodal config's text_config leaves them out. */
    {"gemma3_text",
     parse_llama_like,
     ts_hf_gemma3,
     1,
     GEMMA_HEAD_DIM_DEFAULT,
     TRAINSIZE_BIAS_NONE,
     0,
     0,
     0,
     {26, 2304, 8, 4, 9216, 262208},
     NULL,
     0},
    {"gemma3", NULL, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, "gemma3_text", 0},
    /* Multimodal checkpoints (their towers: hf_vision.c). LLaVA's sparse text_config leaves
     * out what equals LlamaConfig's defaults; Qwen2.5-VL's text keys sit at the top level
     * (a text_config in later saves); Llama 3.2 Vision's text model adds cross-attention
     * layers, MllamaTextConfig's defaults. */
    {"llava", NULL, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, "llava_llama", 0},
    {"llava_llama",
     parse_llama_like,
     NULL,
     0,
     0,
     TRAINSIZE_BIAS_NONE,
     1,
     1,
     0,
     {32, 4096, 32, 32, 11008, 32000},
     NULL,
     0},
    {"qwen2_5_vl", NULL, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, "qwen2", 0},
    {"mllama", NULL, NULL, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, "mllama_text_model", 0},
    {"mllama_text_model",
     parse_llama_like,
     ts_hf_mllama_text,
     0,
     0,
     TRAINSIZE_BIAS_NONE,
     0,
     0,
     0,
     {40, 4096, 32, 8, 14336, 128256},
     NULL,
     0},
    {"olmo2", parse_llama_like, ts_hf_olmo2, 0, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"starcoder2", parse_llama_like, ts_hf_starcoder2, 1, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"falcon", ts_hf_falcon, NULL, 1, 0, TRAINSIZE_BIAS_NONE, 0, 0, 0, {0}, NULL, 0},
    {"bert", ts_hf_text_encoder, NULL, 0, 0, TRAINSIZE_BIAS_ALL, 0, 0, 0, {0}, NULL, 0},
    {"roberta", ts_hf_text_encoder, NULL, 0, 0, TRAINSIZE_BIAS_ALL, 0, 0, 0, {0}, NULL, 0},
    {"vit", ts_hf_vit, NULL, 0, 0, TRAINSIZE_BIAS_ALL, 0, 0, 0, {0}, NULL, 0},
};
#define HF_TYPE_COUNT (sizeof hf_types / sizeof hf_types[0])
/* For the message: every type, families grouped, no spaces (the error message has 255 bytes,
 * and a long unknown name must leave the whole list in it). */
#define HF_SUPPORTED                                                                           \
    "gpt2,llama(4),mistral,mixtral,qwen2(_moe),qwen3(_moe),gemma(2/3),phi3,phimoe,granite,"      \
    "deepseek_v2/_v3,gpt_oss,olmo2,starcoder2,falcon,bert,roberta,vit,llava,qwen2_5_vl,mllama"

/* An entry by name (NULL when none). */
static const hf_type *type_named(const char *name)
{
    size_t i;
    for (i = 0; i < HF_TYPE_COUNT; i++)
        if (strcmp(name, hf_types[i].name) == 0) return &hf_types[i];
    return NULL;
}

/* The model_type's entry; TRAINSIZE_E_UNKNOWN naming it when unsupported. */
static int find_type(const ts_json_value *root, const hf_type **out, trainsize_error *err)
{
    static const char key[] = "model_type";
    char name[HF_MODEL_TYPE_MAX];
    ts_json_value v;
    size_t n;
    ts_json_object_get(root, key, &v);
    if (v.type != TS_JSON_STRING) /* missing or not a string: the reader's message */
        return ts_hf_prefixed(err, ts_json_get_string(&v, key, name, sizeof name, err));
    n = ts_json_string_copy(&v, name, sizeof name);
    if (n < sizeof name && (*out = type_named(name)) != NULL) return TRAINSIZE_OK;
    if (n == TS_JSON_BAD_STRING) name[0] = '\0';
    if (n < sizeof name && strcmp(name, "t5") == 0)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, key,
                       HF_PREFIX "model_type \"t5\": encoder-decoder models are not modelled "
                                 "(trainsize sizes decoder-only and encoder-only transformers)");
    return ts_fail(err, TRAINSIZE_E_UNKNOWN, key,
                   HF_PREFIX "unsupported model_type \"%s%s\" (supported: " HF_SUPPORTED ")",
                   name, n != TS_JSON_BAD_STRING && n >= sizeof name ? "..." : "");
}

/* The name: a non-empty "_name_or_path" string (cut at a character boundary if long),
 * else the model type. It is only a label, so a bad value is ignored. */
static void read_name(const ts_json_value *root, const char *model_type, ts_model *m)
{
    ts_json_value v;
    size_t n = TS_JSON_BAD_STRING;
    if (ts_json_object_get(root, "_name_or_path", &v))
        n = ts_json_string_copy(&v, m->name, sizeof m->name);
    if (n == 0 || n == TS_JSON_BAD_STRING)
        snprintf(m->name, sizeof m->name, "%s", model_type);
    ts_text_tidy(m->name, sizeof m->name); /* a label the reports print */
}

/* A multimodal config's language model: its text_config (Qwen2.5-VL's first saves keep the
 * text keys at the top level), of the entry's text type, or, for LLaVA, of the type its
 * text_config names when that is not Llama (llava-v1.6-mistral). */
static int read_text_config(const ts_json_value *root, const hf_type *type, ts_json_value *text,
                            const hf_type **text_type, trainsize_error *err)
{
    int qwen_vl = strcmp(type->name, "qwen2_5_vl") == 0;
    ts_json_value named;
    *text_type = type_named(type->text_type);
    if (!ts_json_object_get(root, "text_config", text) || text->type != TS_JSON_OBJECT) {
        if (!qwen_vl)
            return ts_fail(err, TRAINSIZE_E_INVALID, "text_config",
                           HF_PREFIX "model_type \"%s\" needs a \"text_config\" object", type->name);
        *text = *root;
    }
    if (strcmp(type->name, "llava") == 0 && ts_json_object_get(text, "model_type", &named) &&
        named.type == TS_JSON_STRING && !ts_json_string_equals(&named, "llama")) {
        const hf_type *given = NULL;
        int rc = find_type(text, &given, err);
        if (rc) return rc;
        if (!given->parse)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "text_config",
                           HF_PREFIX "a text_config of model_type \"%s\" is itself multimodal", given->name);
        *text_type = given;
    }
    return TRAINSIZE_OK;
}

int ts_hf_config_parse(const char *json, size_t len, ts_model *out, trainsize_error *err)
{
    ts_json_value root;
    const hf_type *type = NULL;
    ts_model m;
    int rc;

    if (!json || !out)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", HF_PREFIX "text or model is NULL");
    rc = ts_json_parse(json, len, TRAINSIZE_HF_CONFIG_MAX_BYTES, TRAINSIZE_HF_CONFIG_MAX_DEPTH,
                       &root, err);
    if (rc) return ts_hf_prefixed(err, rc);
    if (root.type != TS_JSON_OBJECT)
        return ts_fail(err, TRAINSIZE_E_INVALID, "hf-config", HF_PREFIX "the top-level value is not an object");
    if ((rc = find_type(&root, &type, err)) != TRAINSIZE_OK) return rc;

    memset(&m, 0, sizeof m);
    snprintf(m.family, sizeof m.family, "%s", type->name);
    read_name(&root, type->name, &m);
    if (type->text_type) {
        /* A multimodal checkpoint: the language model is its text_config, of that type,
         * then its vision tower and projector (hf_vision.c). */
        const hf_type *text_type = NULL;
        ts_json_value text = root;
        if ((rc = read_text_config(&root, type, &text, &text_type, err))) return rc;
        if ((rc = text_type->parse(text_type, &text, &m, err)) != TRAINSIZE_OK) return rc;
        if ((rc = ts_hf_vision(type->name, &root, &m, err)) != TRAINSIZE_OK) return rc;
    } else if ((rc = type->parse(type, &root, &m, err)) != TRAINSIZE_OK) {
        return rc;
    }
    *out = m;
    return ts_ok(err);
}

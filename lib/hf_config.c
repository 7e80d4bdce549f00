/* Hugging Face config.json to ts_model. Only model types whose parameters the ts_model
 * fields describe exactly are accepted; everything else is refused by name. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "json.h"
#include "model.h"

#define HF_PREFIX "config.json: "

/* Sanity bounds: far above any published model, low enough that products of two of them
 * cannot overflow 64 bits before the model code checks them. */
#define HF_MAX_LAYERS UINT64_C(1000000)
#define HF_MAX_HIDDEN UINT64_C(10000000)
#define HF_MAX_HEADS UINT64_C(1000000)
#define HF_MAX_HEAD_DIM UINT64_C(1000000)
#define HF_MAX_FFN UINT64_C(100000000)
#define HF_MAX_VOCAB UINT64_C(100000000)
#define HF_MAX_POSITIONS UINT64_C(1000000000)
#define HF_MAX_EXPERTS UINT64_C(1000000)

/* GPT-2's MLP is 4 x n_embd wide when n_inner is null (GPT2MLP in transformers). */
#define GPT2_FFN_MULTIPLE 4
/* GemmaConfig's default head_dim. */
#define GEMMA_HEAD_DIM_DEFAULT 256

#define HF_MODEL_TYPE_MAX 64 /* enough to quote an unknown model_type in a message */

/* Prepend HF_PREFIX to err's message so that every failure says where it comes from. */
static int prefixed(trainsize_error *err, int rc)
{
    size_t plen = sizeof HF_PREFIX - 1, mlen, room;
    if (!err || rc == TRAINSIZE_OK) return rc;
    mlen = strlen(err->message);
    room = sizeof err->message - 1 - plen;
    if (mlen > room) mlen = room;
    memmove(err->message + plen, err->message, mlen);
    memcpy(err->message, HF_PREFIX, plen);
    err->message[plen + mlen] = '\0';
    /* A document-level error is the config's as a whole: name the option. */
    if (err->field[0] == '\0') snprintf(err->field, sizeof err->field, "hf-config");
    return rc;
}

/* A required positive integer no larger than max. */
static int read_size(const ts_json_value *root, const char *key, uint64_t max, uint64_t *out,
                     trainsize_error *err)
{
    ts_json_value v;
    uint64_t n = 0;
    int rc;
    ts_json_object_get(root, key, &v);
    rc = ts_json_get_u64(&v, key, max, &n, err);
    if (rc) return prefixed(err, rc);
    if (n == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, key, HF_PREFIX "\"%s\" must be at least 1", key);
    *out = n;
    return TRAINSIZE_OK;
}

/* As read_size, but an absent or null key gives `fallback`. */
static int read_size_or(const ts_json_value *root, const char *key, uint64_t max,
                        uint64_t fallback, uint64_t *out, trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(root, key, &v) || ts_json_is_null(&v)) {
        *out = fallback;
        return TRAINSIZE_OK;
    }
    return read_size(root, key, max, out, err);
}

/* An optional boolean; absent or null gives `fallback`. */
static int read_bool_or(const ts_json_value *root, const char *key, int fallback, int *out,
                        trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(root, key, &v) || ts_json_is_null(&v)) {
        *out = fallback;
        return TRAINSIZE_OK;
    }
    return prefixed(err, ts_json_get_bool(&v, key, out, err));
}

/* Llama's attention_bias (q, k, v and o) and mlp_bias (gate, up and down). Both together
 * are TS_BIAS_ALL exactly; one alone has no ts_bias value (QKV lacks o's bias). */
static int read_bias_keys(const ts_json_value *root, int mlp_key, ts_bias *bias,
                          trainsize_error *err)
{
    int attention = 0, mlp = 0, rc;
    if ((rc = read_bool_or(root, "attention_bias", 0, &attention, err)) ||
        (mlp_key && (rc = read_bool_or(root, "mlp_bias", 0, &mlp, err))))
        return rc;
    if (attention && mlp) {
        *bias = TS_BIAS_ALL;
    } else if (attention) {
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "attention_bias",
                       HF_PREFIX "\"attention_bias\": true (biases on q, k, v and o but not on "
                                 "the MLP) is not supported");
    } else if (mlp) {
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "mlp_bias",
                       HF_PREFIX "\"mlp_bias\": true without \"attention_bias\" is not supported");
    }
    return TRAINSIZE_OK;
}

/* head_dim when the config does not give it: hidden / heads, which must divide. */
static int derive_head_dim(uint64_t hidden, uint64_t heads, const char *hidden_key,
                           const char *heads_key, uint64_t *out, trainsize_error *err)
{
    if (hidden % heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, heads_key,
                       HF_PREFIX "\"%s\" %" PRIu64 " is not divisible by \"%s\" %" PRIu64,
                       hidden_key, hidden, heads_key, heads);
    *out = hidden / heads;
    return TRAINSIZE_OK;
}

/* ---- model types ----------------------------------------------------------------- */

typedef struct hf_type hf_type;
typedef int (*hf_parse_fn)(const hf_type *t, const ts_json_value *root, ts_model *m,
                           trainsize_error *err);

struct hf_type {
    const char *name;
    hf_parse_fn parse;
    int tied_default;          /* the config class's tie_word_embeddings default */
    uint64_t head_dim_default; /* 0: hidden / heads */
    ts_bias bias;              /* fixed by the architecture */
    int bias_keys;             /* honours attention_bias ... */
    int mlp_bias_key;          /* ... and mlp_bias */
    int moe;                   /* num_local_experts / num_experts_per_tok */
};

static int parse_gpt2(const hf_type *t, const ts_json_value *root, ts_model *m,
                      trainsize_error *err)
{
    int rc;
    if ((rc = read_size(root, "n_layer", HF_MAX_LAYERS, &m->layers, err)) ||
        (rc = read_size(root, "n_embd", HF_MAX_HIDDEN, &m->hidden, err)) ||
        (rc = read_size(root, "n_head", HF_MAX_HEADS, &m->heads, err)) ||
        (rc = derive_head_dim(m->hidden, m->heads, "n_embd", "n_head", &m->head_dim, err)) ||
        (rc = read_size_or(root, "n_inner", HF_MAX_FFN, GPT2_FFN_MULTIPLE * m->hidden, &m->ffn,
                           err)) ||
        (rc = read_size(root, "vocab_size", HF_MAX_VOCAB, &m->vocab, err)) ||
        (rc = read_size(root, "n_positions", HF_MAX_POSITIONS, &m->positions, err)) ||
        (rc = read_bool_or(root, "tie_word_embeddings", t->tied_default, &m->tied_embeddings,
                           err)))
        return rc;
    m->kv_heads = m->heads;
    m->gated_mlp = 0;
    m->norm = TS_NORM_LAYERNORM;
    m->bias = TS_BIAS_ALL;
    m->fused_qkv = 1;        /* c_attn */
    m->residual_dropout = 1; /* embd_pdrop, resid_pdrop */
    return TRAINSIZE_OK;
}

/* Key/value heads: absent or null means multi-head attention; must divide the heads. */
static int read_kv_heads(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    static const char key[] = "num_key_value_heads";
    int rc = read_size_or(root, key, HF_MAX_HEADS, m->heads, &m->kv_heads, err);
    if (rc) return rc;
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, key,
                       HF_PREFIX "\"num_attention_heads\" %" PRIu64
                                 " is not a multiple of \"%s\" %" PRIu64,
                       m->heads, key, m->kv_heads);
    return TRAINSIZE_OK;
}

static int read_experts(const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    static const char top_k[] = "num_experts_per_tok";
    int rc;
    if ((rc = read_size(root, "num_local_experts", HF_MAX_EXPERTS, &m->experts, err)) ||
        (rc = read_size(root, top_k, HF_MAX_EXPERTS, &m->experts_per_token, err)))
        return rc;
    if (m->experts_per_token > m->experts)
        return ts_fail(err, TRAINSIZE_E_INVALID, top_k,
                       HF_PREFIX "\"%s\" %" PRIu64 " is more than \"num_local_experts\" %" PRIu64,
                       top_k, m->experts_per_token, m->experts);
    return TRAINSIZE_OK;
}

/* Llama and its descendants: RMSNorm, gated MLP, rotary positions. */
static int parse_llama_like(const hf_type *t, const ts_json_value *root, ts_model *m,
                            trainsize_error *err)
{
    int rc;
    if ((rc = read_size(root, "num_hidden_layers", HF_MAX_LAYERS, &m->layers, err)) ||
        (rc = read_size(root, "hidden_size", HF_MAX_HIDDEN, &m->hidden, err)) ||
        (rc = read_size(root, "num_attention_heads", HF_MAX_HEADS, &m->heads, err)) ||
        (rc = read_kv_heads(root, m, err)) ||
        (rc = read_size_or(root, "head_dim", HF_MAX_HEAD_DIM, t->head_dim_default,
                           &m->head_dim, err)))
        return rc;
    if (m->head_dim == 0 &&
        (rc = derive_head_dim(m->hidden, m->heads, "hidden_size", "num_attention_heads",
                              &m->head_dim, err)))
        return rc;
    if ((rc = read_size(root, "intermediate_size", HF_MAX_FFN, &m->ffn, err)) ||
        (rc = read_size(root, "vocab_size", HF_MAX_VOCAB, &m->vocab, err)) ||
        (rc = read_bool_or(root, "tie_word_embeddings", t->tied_default, &m->tied_embeddings,
                           err)))
        return rc;
    m->bias = t->bias;
    if (t->bias_keys && (rc = read_bias_keys(root, t->mlp_bias_key, &m->bias, err))) return rc;
    if (t->moe && (rc = read_experts(root, m, err))) return rc;
    m->positions = 0;
    m->gated_mlp = 1;
    m->norm = TS_NORM_RMSNORM;
    /* Phi-3 projects q, k, v (qkv_proj) and gate, up (gate_up_proj) in one matrix each. */
    m->fused_qkv = m->fused_gate_up = strcmp(t->name, "phi3") == 0;
    return TRAINSIZE_OK;
}

/* Defaults are those of each transformers config class (LlamaConfig, GemmaConfig, ...);
 * biases those of each modelling file (Qwen2: q, k, v only; Mistral: none, fixed). */
static const hf_type hf_types[] = {
    {"gpt2", parse_gpt2, 1, 0, TS_BIAS_ALL, 0, 0, 0},
    {"llama", parse_llama_like, 0, 0, TS_BIAS_NONE, 1, 1, 0},
    {"mistral", parse_llama_like, 0, 0, TS_BIAS_NONE, 0, 0, 0},
    {"mixtral", parse_llama_like, 0, 0, TS_BIAS_NONE, 0, 0, 1},
    {"qwen2", parse_llama_like, 0, 0, TS_BIAS_QKV, 0, 0, 0},
    {"gemma", parse_llama_like, 1, GEMMA_HEAD_DIM_DEFAULT, TS_BIAS_NONE, 1, 0, 0},
    {"phi3", parse_llama_like, 0, 0, TS_BIAS_NONE, 0, 0, 0},
};
#define HF_TYPE_COUNT (sizeof hf_types / sizeof hf_types[0])
#define HF_SUPPORTED "gpt2, llama, mistral, mixtral, qwen2, gemma, phi3"

/* The model_type's entry; TRAINSIZE_E_UNKNOWN naming it when unsupported. */
static int find_type(const ts_json_value *root, const hf_type **out, trainsize_error *err)
{
    static const char key[] = "model_type";
    char name[HF_MODEL_TYPE_MAX];
    ts_json_value v;
    size_t n;
    ts_json_object_get(root, key, &v);
    if (v.type != TS_JSON_STRING) /* missing or not a string: the reader's message */
        return prefixed(err, ts_json_get_string(&v, key, name, sizeof name, err));
    n = ts_json_string_copy(&v, name, sizeof name);
    for (size_t i = 0; n < sizeof name && i < HF_TYPE_COUNT; i++) {
        if (strcmp(name, hf_types[i].name) == 0) {
            *out = &hf_types[i];
            return TRAINSIZE_OK;
        }
    }
    if (n == TS_JSON_BAD_STRING) name[0] = '\0';
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
    if (rc) return prefixed(err, rc);
    if (root.type != TS_JSON_OBJECT)
        return ts_fail(err, TRAINSIZE_E_INVALID, "hf-config", HF_PREFIX "the top-level value is not an object");
    if ((rc = find_type(&root, &type, err)) != TRAINSIZE_OK) return rc;

    memset(&m, 0, sizeof m);
    snprintf(m.family, sizeof m.family, "%s", type->name);
    read_name(&root, type->name, &m);
    if ((rc = type->parse(type, &root, &m, err)) != TRAINSIZE_OK) return rc;
    *out = m;
    return ts_ok(err);
}

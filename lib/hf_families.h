/* The model types of Hugging Face configs (internal): the table's entry type, and each
 * family's reader of its own keys and traits (hf_families.c), called after the shape keys
 * the Llama-like families share (hf_config.c). */
#ifndef TS_HF_FAMILIES_H
#define TS_HF_FAMILIES_H

#include "json.h"
#include "model.h"

typedef struct hf_type hf_type;
typedef int (*hf_parse_fn)(const hf_type *t, const ts_json_value *root, ts_model *m,
                           trainsize_error *err);

/* A config class's defaults for shape keys a sparse config may leave out (0: required). */
typedef struct hf_defaults {
    uint64_t layers, hidden, heads, kv_heads, ffn, vocab;
} hf_defaults;

struct hf_type {
    const char *name;
    hf_parse_fn parse;         /* the shape keys (NULL for a multimodal wrapper) */
    hf_parse_fn family;        /* then the family's own keys (NULL: none) */
    int tied_default;          /* the config class's tie_word_embeddings default */
    uint64_t head_dim_default; /* 0: hidden / heads */
    trainsize_bias bias;              /* fixed by the architecture */
    int bias_keys;             /* honours attention_bias ... */
    int mlp_bias_key;          /* ... and mlp_bias */
    int moe;                   /* num_local_experts / num_experts_per_tok */
    hf_defaults defaults;
    const char *text_type;     /* multimodal: the type of its text_config */
    int fused_projections;     /* q, k, v in one matrix (qkv_proj) and gate, up in one
                                  (gate_up_proj): Phi-3's modelling file */
};

int ts_hf_qwen3(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_qwen2_moe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_qwen3_moe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_phimoe(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_deepseek(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_llama4(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_gpt_oss(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_gemma2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_gemma3(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_olmo2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_starcoder2(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
/* Falcon reads its own shape keys (a fused, multi-query attention in a parallel block). */
int ts_hf_falcon(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_text_encoder(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);
int ts_hf_vit(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err);

#endif

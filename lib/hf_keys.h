/* Reading a Hugging Face config.json's keys (internal): sizes, flags and layer patterns,
 * each failure naming its key and saying it comes from the config. Shared by the
 * model-type table (hf_config.c) and the families' parsers (hf_families.c). */
#ifndef TS_HF_KEYS_H
#define TS_HF_KEYS_H

#include <stdint.h>

#include "json.h"
#include "model.h"

#define HF_PREFIX "config.json: "

/* The same bounds as the options each key maps to (model.h): a config cannot set what
 * the options refuse. */
#define HF_MAX_LAYERS TS_LIM_LAYERS
#define HF_MAX_HIDDEN TS_LIM_SHAPE
#define HF_MAX_HEADS TS_LIM_SHAPE
#define HF_MAX_HEAD_DIM TS_LIM_SHAPE
#define HF_MAX_FFN TS_LIM_SHAPE
#define HF_MAX_VOCAB TS_LIM_VOCAB
#define HF_MAX_POSITIONS TS_LIM_POSITIONS
#define HF_MAX_EXPERTS TS_LIM_EXPERTS
#define HF_MAX_SHARED_EXPERTS TS_LIM_SHARED_EXPERTS

/* Prepend HF_PREFIX to err's message (and name the option when no key is to blame). */
int ts_hf_prefixed(trainsize_error *err, int rc);

/* A required positive integer no larger than max. */
int ts_hf_size(const ts_json_value *obj, const char *key, uint64_t max, uint64_t *out,
            trainsize_error *err);
/* As ts_hf_size; an absent or null key gives `fallback`. */
int ts_hf_size_or(const ts_json_value *obj, const char *key, uint64_t max, uint64_t fallback,
               uint64_t *out, trainsize_error *err);
/* A non-negative integer (0 allowed) no larger than max; absent or null gives `fallback`. */
int ts_hf_count_or(const ts_json_value *obj, const char *key, uint64_t max, uint64_t fallback,
                uint64_t *out, trainsize_error *err);
/* An optional boolean; absent or null gives `fallback`. */
int ts_hf_bool_or(const ts_json_value *obj, const char *key, int fallback, int *out,
               trainsize_error *err);
/* 1 when the key holds a non-null value. */
int ts_hf_has(const ts_json_value *obj, const char *key);

/* head_dim when the config does not give it: hidden / heads, which must divide. */
int ts_hf_derive_head_dim(uint64_t hidden, uint64_t heads, const char *hidden_key,
                       const char *heads_key, uint64_t *out, trainsize_error *err);
/* The key/value heads (absent: `fallback`), which must divide the heads. */
int ts_hf_kv_heads(const ts_json_value *obj, const char *key, uint64_t fallback, ts_model *m,
                trainsize_error *err);
/* The top-k of an MoE config (key `key`), no more than the experts. */
int ts_hf_top_k(const ts_json_value *obj, const char *key, ts_model *m, trainsize_error *err);

/* A list of per-layer attention kinds (gpt-oss's and Gemma 3's "layer_types":
 * "sliding_attention" | "full_attention") as the model's global_every: every n-th layer
 * full, or none. A list no period describes is refused, naming the key. Absent: unchanged. */
int ts_hf_layer_types(const ts_json_value *obj, ts_model *m, trainsize_error *err);
/* Qwen-MoE's "mlp_only_layers": dense layers, which the model describes when they lead
 * (0, 1, ..., k - 1: first_dense_layers = k); other lists are refused. */
int ts_hf_dense_prefix(const ts_json_value *obj, const char *key, ts_model *m, trainsize_error *err);

#endif

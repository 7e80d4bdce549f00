/* Reading config.json keys with errors that name the key (see hf_keys.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "hf_keys.h"

int ts_hf_prefixed(trainsize_error *err, int rc)
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
    ts_error_tidy(err);
    return rc;
}

int ts_hf_has(const ts_json_value *obj, const char *key)
{
    ts_json_value v;
    return ts_json_object_get(obj, key, &v) && !ts_json_is_null(&v);
}

int ts_hf_count_or(const ts_json_value *obj, const char *key, uint64_t max, uint64_t fallback,
                uint64_t *out, trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(obj, key, &v) || ts_json_is_null(&v)) {
        *out = fallback;
        return TRAINSIZE_OK;
    }
    return ts_hf_prefixed(err, ts_json_get_u64(&v, key, max, out, err));
}

int ts_hf_size(const ts_json_value *obj, const char *key, uint64_t max, uint64_t *out,
            trainsize_error *err)
{
    ts_json_value v;
    uint64_t n = 0;
    int rc;
    ts_json_object_get(obj, key, &v);
    rc = ts_json_get_u64(&v, key, max, &n, err);
    if (rc) return ts_hf_prefixed(err, rc);
    if (n == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, key, HF_PREFIX "\"%s\" must be at least 1", key);
    *out = n;
    return TRAINSIZE_OK;
}

int ts_hf_size_or(const ts_json_value *obj, const char *key, uint64_t max, uint64_t fallback,
               uint64_t *out, trainsize_error *err)
{
    if (!ts_hf_has(obj, key)) {
        *out = fallback;
        return TRAINSIZE_OK;
    }
    return ts_hf_size(obj, key, max, out, err);
}

int ts_hf_bool_or(const ts_json_value *obj, const char *key, int fallback, int *out,
               trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(obj, key, &v) || ts_json_is_null(&v)) {
        *out = fallback;
        return TRAINSIZE_OK;
    }
    return ts_hf_prefixed(err, ts_json_get_bool(&v, key, out, err));
}

int ts_hf_derive_head_dim(uint64_t hidden, uint64_t heads, const char *hidden_key,
                       const char *heads_key, uint64_t *out, trainsize_error *err)
{
    if (hidden % heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, heads_key,
                       HF_PREFIX "\"%s\" %" PRIu64 " is not divisible by \"%s\" %" PRIu64,
                       hidden_key, hidden, heads_key, heads);
    *out = hidden / heads;
    return TRAINSIZE_OK;
}

int ts_hf_kv_heads(const ts_json_value *obj, const char *key, uint64_t fallback, ts_model *m,
                trainsize_error *err)
{
    int rc = ts_hf_size_or(obj, key, HF_MAX_HEADS, fallback, &m->kv_heads, err);
    if (rc) return rc;
    if (m->kv_heads > m->heads || m->heads % m->kv_heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, key,
                       HF_PREFIX "\"num_attention_heads\" %" PRIu64 " is not a multiple of \"%s\" %" PRIu64,
                       m->heads, key, m->kv_heads);
    return TRAINSIZE_OK;
}

int ts_hf_top_k(const ts_json_value *obj, const char *key, ts_model *m, trainsize_error *err)
{
    int rc = ts_hf_size(obj, key, HF_MAX_EXPERTS, &m->experts_per_token, err);
    if (rc) return rc;
    if (m->experts_per_token > m->experts)
        return ts_fail(err, TRAINSIZE_E_INVALID, key,
                       HF_PREFIX "\"%s\" %" PRIu64 " is more than the %" PRIu64 " experts", key,
                       m->experts_per_token, m->experts);
    return TRAINSIZE_OK;
}

/* An optional list: 1 with it in *list, 0 (TRAINSIZE_OK) when absent or null, or an error
 * naming the key. */
static int optional_list(const ts_json_value *obj, const char *key, ts_json_value *list,
                         trainsize_error *err)
{
    if (!ts_json_object_get(obj, key, list) || ts_json_is_null(list)) return TRAINSIZE_OK;
    if (list->type != TS_JSON_ARRAY)
        return ts_fail(err, TRAINSIZE_E_INVALID, key, HF_PREFIX "\"%s\": expected a list", key);
    return 1;
}

int ts_hf_layer_types(const ts_json_value *obj, ts_model *m, trainsize_error *err)
{
    static const char key[] = "layer_types";
    ts_json_value list, item;
    size_t cursor = 0;
    uint64_t i = 0, period = 0;
    int rc = optional_list(obj, key, &list, err);
    if (rc <= 0) return rc;
    /* The period is the position of the first full layer (or none); every entry must fit it. */
    while (ts_json_array_next(&list, &cursor, &item)) {
        int full = ts_json_string_equals(&item, "full_attention");
        if (!full && !ts_json_string_equals(&item, "sliding_attention"))
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, key,
                           HF_PREFIX "\"%s\"[%" PRIu64 "]: only \"sliding_attention\" and "
                                     "\"full_attention\" are modelled", key, i);
        if (full && period == 0) period = i + 1;
        if (full != (period != 0 && (i + 1) % period == 0))
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, key,
                           HF_PREFIX "\"%s\": full-attention layers that are not every n-th "
                                     "layer are not modelled (layer %" PRIu64 ")", key, i);
        i++;
    }
    m->global_every = period;
    return TRAINSIZE_OK;
}

int ts_hf_dense_prefix(const ts_json_value *obj, const char *key, ts_model *m, trainsize_error *err)
{
    ts_json_value list, item;
    size_t cursor = 0;
    uint64_t expected = 0, layer = 0;
    int rc = optional_list(obj, key, &list, err);
    if (rc <= 0) return rc;
    while (ts_json_array_next(&list, &cursor, &item)) {
        if ((rc = ts_hf_prefixed(err, ts_json_get_u64(&item, key, HF_MAX_LAYERS, &layer, err)))) return rc;
        if (layer != expected)
            return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, key,
                           HF_PREFIX "\"%s\": dense layers other than the first ones are not "
                                     "modelled (layer %" PRIu64 ")", key, layer);
        expected++;
    }
    m->first_dense_layers = expected;
    return TRAINSIZE_OK;
}

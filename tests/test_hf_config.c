/* Hugging Face config.json reading: real published configs of every supported
 * model_type, and the errors for missing, malformed and unsupported keys. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model.h"

#ifndef TS_TEST_DATA_DIR
#define TS_TEST_DATA_DIR "tests/data"
#endif

#define PATH_MAX_LEN 512

/* Read tests/data/hf/<name> into buf; returns its length. */
static size_t load(const char *name, char *buf, size_t cap)
{
    char path[PATH_MAX_LEN];
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/hf/%s", TS_TEST_DATA_DIR, name);
    f = fopen(path, "rb");
    if (!f) print_error("cannot open %s\n", path);
    assert_non_null(f);
    n = fread(buf, 1, cap, f);
    assert_true(n < cap);
    fclose(f);
    return n;
}

static int parse(const char *json, ts_model *m, trainsize_error *err)
{
    return ts_hf_config_parse(json, strlen(json), m, err);
}

/* ---- real configs ---------------------------------------------------------------------- */

typedef struct expected {
    const char *file;
    const char *name;
    const char *family;
    uint64_t layers, hidden, heads, kv_heads, head_dim, ffn, vocab, positions;
    int tied, gated;
    trainsize_norm norm;
    trainsize_bias bias;
    uint64_t experts, experts_per_token;
    uint64_t parameters; /* the published total */
} expected;

static const expected real_configs[] = {
    {"gpt2.json", "gpt2", "gpt2", 12, 768, 12, 12, 64, 3072, 50257, 1024, 1, 0,
     TRAINSIZE_NORM_LAYERNORM, TRAINSIZE_BIAS_ALL, 0, 0, UINT64_C(124439808)},
    {"gpt2-xl.json", "gpt2", "gpt2", 48, 1600, 25, 25, 64, 6400, 50257, 1024, 1, 0,
     TRAINSIZE_NORM_LAYERNORM, TRAINSIZE_BIAS_ALL, 0, 0, UINT64_C(1557611200)},
    {"Llama-2-7b-hf.json", "meta-llama/Llama-2-7b-hf", "llama", 32, 4096, 32, 32, 128, 11008,
     32000, 0, 0, 1, TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(6738415616)},
    {"Meta-Llama-3-8B.json", "llama", "llama", 32, 4096, 32, 8, 128, 14336, 128256, 0, 0, 1,
     TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(8030261248)},
    {"Mistral-7B-v0.1.json", "mistral", "mistral", 32, 4096, 32, 8, 128, 14336, 32000, 0, 0, 1,
     TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(7241732096)},
    {"Mixtral-8x7B-v0.1.json", "mixtral", "mixtral", 32, 4096, 32, 8, 128, 14336, 32000, 0, 0,
     1, TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 8, 2, UINT64_C(46702792704)},
    {"Qwen2.5-7B.json", "qwen2", "qwen2", 28, 3584, 28, 4, 128, 18944, 152064, 0, 0, 1,
     TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_QKV, 0, 0, UINT64_C(7615616512)},
    {"gemma-2b.json", "gemma", "gemma", 18, 2048, 8, 1, 256, 16384, 256000, 0, 1, 1,
     TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(2506172416)},
    {"gemma-7b.json", "gemma", "gemma", 28, 3072, 16, 16, 256, 24576, 256000, 0, 1, 1,
     TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(8537680896)},
    {"Phi-3-mini-4k-instruct.json", "Phi-3-mini-4k-instruct", "phi3", 32, 3072, 32, 32, 96,
     8192, 32064, 0, 0, 1, TRAINSIZE_NORM_RMSNORM, TRAINSIZE_BIAS_NONE, 0, 0, UINT64_C(3821079552)},
};

/* An independent count from the parsed shape, as the modelling files in transformers
 * build it; it checks that the shape read from each file gives the published total. */
static uint64_t reference_parameters(const ts_model *m)
{
    uint64_t q = m->heads * m->head_dim, kv = m->kv_heads * m->head_dim;
    uint64_t attention = 2 * m->hidden * q + 2 * m->hidden * kv;
    uint64_t mlp = (m->gated_mlp ? 3 : 2) * m->hidden * m->ffn;
    uint64_t norm = m->norm == TRAINSIZE_NORM_LAYERNORM ? 2 * m->hidden : m->hidden;
    uint64_t layer, total;
    if (m->bias == TRAINSIZE_BIAS_QKV) attention += q + 2 * kv;
    if (m->bias == TRAINSIZE_BIAS_ALL) {
        attention += q + 2 * kv + m->hidden;
        mlp += m->ffn + m->hidden;
    }
    if (m->experts > 1) mlp = m->experts * mlp + m->hidden * m->experts; /* + router */
    layer = attention + mlp + 2 * norm;
    total = m->layers * layer + m->vocab * m->hidden + m->positions * m->hidden + norm;
    if (!m->tied_embeddings) total += m->vocab * m->hidden;
    return total;
}

static void check_real(const expected *x)
{
    static char buf[TRAINSIZE_HF_CONFIG_MAX_BYTES + 1];
    trainsize_error err;
    ts_model m;
    ts_param_counts counts;
    size_t n = load(x->file, buf, sizeof buf);
    int rc;

    memset(&err, 'x', sizeof err);
    rc = ts_hf_config_parse(buf, n, &m, &err);
    if (rc) print_error("%s: %s\n", x->file, err.message);
    assert_int_equal(rc, TRAINSIZE_OK);
    assert_int_equal(err.code, TRAINSIZE_OK);
    assert_string_equal(err.message, "");
    assert_string_equal(m.name, x->name);
    assert_string_equal(m.family, x->family);
    assert_int_equal(m.layers, x->layers);
    assert_int_equal(m.hidden, x->hidden);
    assert_int_equal(m.heads, x->heads);
    assert_int_equal(m.kv_heads, x->kv_heads);
    assert_int_equal(m.head_dim, x->head_dim);
    assert_int_equal(m.ffn, x->ffn);
    assert_int_equal(m.vocab, x->vocab);
    assert_int_equal(m.positions, x->positions);
    assert_int_equal(m.tied_embeddings, x->tied);
    assert_int_equal(m.gated_mlp, x->gated);
    assert_int_equal(m.norm, x->norm);
    assert_int_equal(m.bias, x->bias);
    assert_int_equal(m.experts, x->experts);
    assert_int_equal(m.experts_per_token, x->experts_per_token);
    assert_int_equal(m.shared_experts, 0);
    assert_int_equal(m.shared_expert_ffn, 0);
    assert_int_equal(reference_parameters(&m), x->parameters);
    /* And the library's own count and validation agree. */
    assert_int_equal(ts_model_validate(&m, &err), TRAINSIZE_OK);
    assert_int_equal(ts_model_count(&m, &counts, &err), TRAINSIZE_OK);
    assert_int_equal(counts.total, x->parameters);
}

static void test_real_configs(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof real_configs / sizeof real_configs[0]; i++)
        check_real(&real_configs[i]);
}

/* ---- synthetic configs -------------------------------------------------------------------- */

/* A minimal llama config with `extra` spliced in before the closing brace. */
#define LLAMA_MIN                                                                          \
    "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "          \
    "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100"

static void test_defaults(void **state)
{
    trainsize_error err;
    ts_model m;
    (void)state;

    /* Llama: kv_heads = heads, head_dim = hidden / heads, untied; nulls mean defaults. */
    assert_int_equal(parse(LLAMA_MIN "}", &m, &err), TRAINSIZE_OK);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.head_dim, 16);
    assert_int_equal(m.tied_embeddings, 0);
    assert_int_equal(m.positions, 0);
    assert_int_equal(m.experts, 0);
    assert_string_equal(m.name, "llama");
    assert_int_equal(parse(LLAMA_MIN ", \"num_key_value_heads\": null, \"head_dim\": null, "
                                     "\"tie_word_embeddings\": null}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.head_dim, 16);
    assert_int_equal(m.tied_embeddings, 0);
    /* An explicit head_dim need not divide hidden. */
    assert_int_equal(parse(LLAMA_MIN ", \"head_dim\": 24, \"tie_word_embeddings\": true}", &m,
                           &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.head_dim, 24);
    assert_int_equal(m.tied_embeddings, 1);

    /* Gemma: tied and head_dim 256 unless told otherwise. */
    assert_int_equal(parse("{\"model_type\": \"gemma\", \"num_hidden_layers\": 2, "
                           "\"hidden_size\": 64, \"num_attention_heads\": 4, "
                           "\"intermediate_size\": 128, \"vocab_size\": 100}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.head_dim, 256);
    assert_int_equal(m.tied_embeddings, 1);
    assert_int_equal(m.gated_mlp, 1);

    /* GPT-2: n_inner null or absent is 4 * n_embd; an explicit one is kept. */
    assert_int_equal(parse("{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_embd\": 64, "
                           "\"n_head\": 4, \"n_inner\": null, \"vocab_size\": 100, "
                           "\"n_positions\": 32}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.ffn, 256);
    assert_int_equal(m.positions, 32);
    assert_int_equal(m.tied_embeddings, 1);
    assert_int_equal(parse("{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_embd\": 64, "
                           "\"n_head\": 4, \"n_inner\": 100, \"vocab_size\": 100, "
                           "\"n_positions\": 32, \"tie_word_embeddings\": false}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.ffn, 100);
    assert_int_equal(m.tied_embeddings, 0);

    /* Llama with attention_bias and mlp_bias both true: every linear layer has a bias. */
    assert_int_equal(parse(LLAMA_MIN ", \"attention_bias\": true, \"mlp_bias\": true}", &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.bias, TRAINSIZE_BIAS_ALL);
    assert_int_equal(parse(LLAMA_MIN ", \"attention_bias\": false, \"mlp_bias\": null}", &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.bias, TRAINSIZE_BIAS_NONE);
    /* Qwen2's q, k, v biases are fixed by the architecture; Mistral has none. */
    assert_int_equal(parse("{\"model_type\": \"qwen2\", \"num_hidden_layers\": 2, "
                           "\"hidden_size\": 64, \"num_attention_heads\": 4, "
                           "\"intermediate_size\": 128, \"vocab_size\": 100, "
                           "\"attention_bias\": false}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.bias, TRAINSIZE_BIAS_QKV);
    assert_int_equal(parse("{\"model_type\": \"mistral\", \"num_hidden_layers\": 2, "
                           "\"hidden_size\": 64, \"num_attention_heads\": 4, "
                           "\"intermediate_size\": 128, \"vocab_size\": 100}",
                           &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.bias, TRAINSIZE_BIAS_NONE);

    /* Integral numbers in other spellings are accepted; the last duplicate wins. */
    assert_int_equal(parse(LLAMA_MIN ", \"hidden_size\": 1.28e2, \"vocab_size\": 2e2}", &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(m.hidden, 128);
    assert_int_equal(m.vocab, 200);
}

static void test_name(void **state)
{
    static char json[1024];
    trainsize_error err;
    ts_model m;
    char long_name[300];
    (void)state;

    assert_int_equal(parse(LLAMA_MIN ", \"_name_or_path\": \"\"}", &m, &err), TRAINSIZE_OK);
    assert_string_equal(m.name, "llama");
    assert_int_equal(parse(LLAMA_MIN ", \"_name_or_path\": 5}", &m, &err), TRAINSIZE_OK);
    assert_string_equal(m.name, "llama");
    assert_int_equal(parse(LLAMA_MIN ", \"_name_or_path\": \"org/caf\\u00e9\"}", &m, &err),
                     TRAINSIZE_OK);
    assert_string_equal(m.name, "org/caf\xC3\xA9");
    assert_string_equal(m.family, "llama");

    /* A long local path is cut to the name's capacity. */
    memset(long_name, 'a', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    snprintf(json, sizeof json, LLAMA_MIN ", \"_name_or_path\": \"%s\"}", long_name);
    assert_int_equal(parse(json, &m, &err), TRAINSIZE_OK);
    assert_int_equal(strlen(m.name), TRAINSIZE_NAME_MAX - 1);
}

typedef struct bad_case {
    const char *json;
    int code;
    const char *field;
    const char *message; /* NULL: not checked */
} bad_case;

static void test_invalid_values(void **state)
{
    static const bad_case cases[] = {
        /* Missing required keys. */
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"num_attention_heads\": 4, "
         "\"intermediate_size\": 128, \"vocab_size\": 100}",
         TRAINSIZE_E_INVALID, "hidden_size", "config.json: missing key \"hidden_size\""},
        {"{\"model_type\": \"llama\", \"hidden_size\": 64, \"num_attention_heads\": 4, "
         "\"intermediate_size\": 128, \"vocab_size\": 100}",
         TRAINSIZE_E_INVALID, "num_hidden_layers", NULL},
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"vocab_size\": 100}",
         TRAINSIZE_E_INVALID, "intermediate_size", NULL},
        {"{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 128}",
         TRAINSIZE_E_INVALID, "vocab_size", NULL},
        {"{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_embd\": 64, \"n_head\": 4, "
         "\"vocab_size\": 100}",
         TRAINSIZE_E_INVALID, "n_positions", "config.json: missing key \"n_positions\""},
        {"{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
         "\"num_experts_per_tok\": 2}",
         TRAINSIZE_E_INVALID, "num_local_experts", NULL},
        {"{\"num_hidden_layers\": 2}", TRAINSIZE_E_INVALID, "model_type",
         "config.json: missing key \"model_type\""},
        /* Wrong types. */
        {LLAMA_MIN ", \"hidden_size\": \"64\"}", TRAINSIZE_E_INVALID, "hidden_size",
         "config.json: \"hidden_size\": expected a non-negative integer, got a string"},
        {LLAMA_MIN ", \"hidden_size\": null}", TRAINSIZE_E_INVALID, "hidden_size", NULL},
        {LLAMA_MIN ", \"num_hidden_layers\": [2]}", TRAINSIZE_E_INVALID, "num_hidden_layers",
         NULL},
        {LLAMA_MIN ", \"tie_word_embeddings\": 0}", TRAINSIZE_E_INVALID, "tie_word_embeddings",
         NULL},
        {LLAMA_MIN ", \"tie_word_embeddings\": \"false\"}", TRAINSIZE_E_INVALID,
         "tie_word_embeddings", NULL},
        {"{\"model_type\": 5}", TRAINSIZE_E_INVALID, "model_type", NULL},
        {"{\"model_type\": null}", TRAINSIZE_E_INVALID, "model_type", NULL},
        /* Negative, zero, fractional, absurd. */
        {LLAMA_MIN ", \"hidden_size\": -64}", TRAINSIZE_E_INVALID, "hidden_size",
         "config.json: \"hidden_size\": -64 is negative"},
        {LLAMA_MIN ", \"num_hidden_layers\": 0}", TRAINSIZE_E_INVALID, "num_hidden_layers",
         "config.json: \"num_hidden_layers\" must be at least 1"},
        {LLAMA_MIN ", \"vocab_size\": 100.5}", TRAINSIZE_E_INVALID, "vocab_size",
         "config.json: \"vocab_size\": 100.5 is not an integer"},
        {LLAMA_MIN ", \"hidden_size\": 1e12}", TRAINSIZE_E_INVALID, "hidden_size",
         "config.json: \"hidden_size\": 1e12 is more than 10000000"},
        {LLAMA_MIN ", \"num_hidden_layers\": 1000001}", TRAINSIZE_E_INVALID,
         "num_hidden_layers", NULL},
        {LLAMA_MIN ", \"vocab_size\": 100000001}", TRAINSIZE_E_INVALID, "vocab_size", NULL},
        {LLAMA_MIN ", \"vocab_size\": 18446744073709551616}", TRAINSIZE_E_INVALID, "vocab_size",
         NULL},
        {LLAMA_MIN ", \"head_dim\": 0}", TRAINSIZE_E_INVALID, "head_dim", NULL},
        {LLAMA_MIN ", \"num_key_value_heads\": 0}", TRAINSIZE_E_INVALID, "num_key_value_heads",
         NULL},
        /* Inconsistent shapes. */
        {LLAMA_MIN ", \"num_key_value_heads\": 3}", TRAINSIZE_E_INVALID, "num_key_value_heads",
         "config.json: \"num_attention_heads\" 4 is not a multiple of \"num_key_value_heads\" 3"},
        {LLAMA_MIN ", \"num_key_value_heads\": 8}", TRAINSIZE_E_INVALID, "num_key_value_heads",
         NULL},
        {LLAMA_MIN ", \"num_attention_heads\": 5}", TRAINSIZE_E_INVALID, "num_attention_heads",
         "config.json: \"hidden_size\" 64 is not divisible by \"num_attention_heads\" 5"},
        {"{\"model_type\": \"gpt2\", \"n_layer\": 2, \"n_embd\": 64, \"n_head\": 5, "
         "\"vocab_size\": 100, \"n_positions\": 32}",
         TRAINSIZE_E_INVALID, "n_head", NULL},
        {"{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
         "\"num_local_experts\": 2, \"num_experts_per_tok\": 3}",
         TRAINSIZE_E_INVALID, "num_experts_per_tok", NULL},
        /* Unsupported layouts and model types. */
        {LLAMA_MIN ", \"mlp_bias\": true}", TRAINSIZE_E_UNSUPPORTED, "mlp_bias", NULL},
        {LLAMA_MIN ", \"attention_bias\": 1}", TRAINSIZE_E_INVALID, "attention_bias", NULL},
        {"{\"model_type\": \"gemma\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
         "\"attention_bias\": \"yes\"}",
         TRAINSIZE_E_INVALID, "attention_bias", NULL},
        {"{\"model_type\": \"xlnet\", \"hidden_size\": 768}", TRAINSIZE_E_UNKNOWN, "model_type",
         "config.json: unsupported model_type \"xlnet\" (supported: gpt2,llama(4),mistral,mixtral,"
         "qwen2(_moe),qwen3(_moe),gemma(2/3),phi3,phimoe,granite,deepseek_v2/_v3,gpt_oss,olmo2,"
         "starcoder2,falcon,bert,roberta,vit,llava,qwen2_5_vl,mllama)"},
        {"{\"model_type\": \"t5\"}", TRAINSIZE_E_UNSUPPORTED, "model_type",
         "config.json: model_type \"t5\": encoder-decoder models are not modelled (trainsize "
         "sizes decoder-only and encoder-only transformers)"},
        {"{\"model_type\": \"LLAMA\"}", TRAINSIZE_E_UNKNOWN, "model_type", NULL},
        {"{\"model_type\": \"jamba\"}", TRAINSIZE_E_UNKNOWN, "model_type", NULL},
        {"{\"model_type\": \"llama\\u0000\"}", TRAINSIZE_E_UNKNOWN, "model_type", NULL},
        {"{\"model_type\": \"\"}", TRAINSIZE_E_UNKNOWN, "model_type", NULL},
        /* Not an object. */
        {"[{\"model_type\": \"llama\"}]", TRAINSIZE_E_INVALID, "hf-config",
         "config.json: the top-level value is not an object"},
        {"\"llama\"", TRAINSIZE_E_INVALID, "hf-config", NULL},
        /* Malformed JSON. */
        {LLAMA_MIN, TRAINSIZE_E_PARSE, "hf-config", NULL},
        {LLAMA_MIN ",}", TRAINSIZE_E_PARSE, "hf-config", NULL},
        {LLAMA_MIN ", \"hidden_size\": 064}", TRAINSIZE_E_PARSE, "hf-config", NULL},
        {LLAMA_MIN ", \"rope_theta\": NaN}", TRAINSIZE_E_PARSE, "hf-config", NULL},
        {LLAMA_MIN ", \"x\": \"\\uDC00\"}", TRAINSIZE_E_PARSE, "hf-config", NULL},
        {LLAMA_MIN "} trailing", TRAINSIZE_E_PARSE, "hf-config", NULL},
    };
    (void)state;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trainsize_error err;
        ts_model m;
        int rc = parse(cases[i].json, &m, &err);
        if (rc != cases[i].code || strcmp(err.field, cases[i].field) != 0)
            print_error("case %zu: got %d field \"%s\": %s\n", i, rc, err.field, err.message);
        assert_int_equal(rc, cases[i].code);
        assert_int_equal(err.code, cases[i].code);
        assert_string_equal(err.field, cases[i].field);
        assert_true(strncmp(err.message, "config.json: ", 13) == 0);
        if (cases[i].message) assert_string_equal(err.message, cases[i].message);
    }
}

static void test_parse_error_message(void **state)
{
    trainsize_error err;
    ts_model m;
    (void)state;
    assert_int_equal(parse("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": 01\n}", &m, &err),
                     TRAINSIZE_E_PARSE);
    assert_string_equal(err.message, "config.json: invalid JSON at line 3, column 19 (byte offset "
                                     "45): leading zeros are not allowed in numbers");
}

static void test_limits(void **state)
{
    static char big[TRAINSIZE_HF_CONFIG_MAX_BYTES + 2];
    char deep[4 * TRAINSIZE_HF_CONFIG_MAX_DEPTH + sizeof LLAMA_MIN + 16];
    trainsize_error err;
    ts_model m;
    size_t n;
    (void)state;

    /* One byte over the size limit, however well-formed. */
    n = strlen(LLAMA_MIN "}");
    memset(big, ' ', sizeof big);
    memcpy(big, LLAMA_MIN "}", n);
    assert_int_equal(ts_hf_config_parse(big, TRAINSIZE_HF_CONFIG_MAX_BYTES, &m, &err),
                     TRAINSIZE_OK);
    assert_int_equal(ts_hf_config_parse(big, TRAINSIZE_HF_CONFIG_MAX_BYTES + 1, &m, &err),
                     TRAINSIZE_E_LIMIT);
    assert_true(strncmp(err.message, "config.json: ", 13) == 0);

    /* Nesting: the root is level 1, so an ignored key may nest MAX_DEPTH - 1 more. */
    for (unsigned extra = TRAINSIZE_HF_CONFIG_MAX_DEPTH - 1;
         extra <= TRAINSIZE_HF_CONFIG_MAX_DEPTH; extra++) {
        n = (size_t)snprintf(deep, sizeof deep, "%s, \"x\": ", LLAMA_MIN);
        for (unsigned i = 0; i < extra; i++) deep[n++] = '[';
        for (unsigned i = 0; i < extra; i++) deep[n++] = ']';
        deep[n++] = '}';
        deep[n] = '\0';
        assert_int_equal(parse(deep, &m, &err), extra < TRAINSIZE_HF_CONFIG_MAX_DEPTH
                                                    ? TRAINSIZE_OK
                                                    : TRAINSIZE_E_LIMIT);
    }
}

static void test_failure_leaves_model(void **state)
{
    trainsize_error err;
    ts_model m, before;
    (void)state;
    memset(&m, 0xAB, sizeof m);
    before = m;
    /* Fails late: after every shape key has been read into the local copy. */
    assert_int_equal(parse(LLAMA_MIN ", \"mlp_bias\": true}", &m, &err), TRAINSIZE_E_UNSUPPORTED);
    assert_memory_equal(&m, &before, sizeof m);
    assert_int_equal(parse("{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, "
                           "\"hidden_size\": 64, \"num_attention_heads\": 4, "
                           "\"intermediate_size\": 128, \"vocab_size\": 100, "
                           "\"num_local_experts\": 2, \"num_experts_per_tok\": 3}",
                           &m, &err),
                     TRAINSIZE_E_INVALID);
    assert_memory_equal(&m, &before, sizeof m);
    assert_int_equal(parse("{", &m, &err), TRAINSIZE_E_PARSE);
    assert_memory_equal(&m, &before, sizeof m);
}

static void test_arguments(void **state)
{
    trainsize_error err;
    ts_model m;
    (void)state;
    assert_int_equal(ts_hf_config_parse(NULL, 0, &m, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(ts_hf_config_parse("{}", 2, NULL, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(ts_hf_config_parse("{}", 0, &m, &err), TRAINSIZE_E_PARSE);
    /* err may be NULL, on success and on failure. */
    assert_int_equal(parse(LLAMA_MIN "}", &m, NULL), TRAINSIZE_OK);
    assert_int_equal(parse(LLAMA_MIN ", \"hidden_size\": -1}", &m, NULL), TRAINSIZE_E_INVALID);
    assert_int_equal(parse("{\"model_type\": \"xlnet\"}", &m, NULL), TRAINSIZE_E_UNKNOWN);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_configs),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_name),
        cmocka_unit_test(test_invalid_values),
        cmocka_unit_test(test_parse_error_message),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_failure_leaves_model),
        cmocka_unit_test(test_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Built-in model presets. Each shape mirrors the model's Hugging Face config.json
 * (https://huggingface.co/<repo>, the repository each source string names); the parameter
 * counts beside it are the published totals (model cards, transformers' num_parameters()
 * printouts, GGUF general.parameter_count, safetensors totals), and tests/test_presets.c
 * checks that counting the shape gives exactly them. */
#include <stddef.h>

#include "model.h"
#include "text_values.h"

/* Shorthands for the families' fixed traits; fields not named are 0 (designated
 * initializers, so a field added to ts_model is 0 here until a preset sets it). */
#define GPT2(n, l, h, a, f)                                                                   \
    {.name = n, .family = "gpt2", .layers = l, .hidden = h, .heads = a, .ffn = f, .vocab = 50257, \
     .positions = 1024, .tied_embeddings = 1, .norm = TS_NORM_LAYERNORM, .bias = TS_BIAS_ALL,   \
     .fused_qkv = 1, .residual_dropout = 1}
#define LLAMA(n, fam, l, h, a, kv, f, v)                                                      \
    {.name = n, .family = fam, .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f,  \
     .vocab = v, .gated_mlp = 1, .norm = TS_NORM_RMSNORM, .bias = TS_BIAS_NONE}
#define MOE(n, fam, l, h, a, kv, f, v, e, k)                                                  \
    {.name = n, .family = fam, .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f,  \
     .vocab = v, .gated_mlp = 1, .norm = TS_NORM_RMSNORM, .bias = TS_BIAS_NONE, .experts = e,  \
     .experts_per_token = k}
#define QWEN2(n, l, h, a, kv, f, v)                                                           \
    {.name = n, .family = "qwen2", .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f, \
     .vocab = v, .gated_mlp = 1, .norm = TS_NORM_RMSNORM, .bias = TS_BIAS_QKV}
#define GEMMA(n, l, h, a, kv, hd, f)                                                          \
    {.name = n, .family = "gemma", .layers = l, .hidden = h, .heads = a, .kv_heads = kv,        \
     .head_dim = hd, .ffn = f, .vocab = 256000, .tied_embeddings = 1, .gated_mlp = 1,           \
     .norm = TS_NORM_RMSNORM, .bias = TS_BIAS_NONE}

static const ts_model PRESETS[] = {
    GPT2("gpt2", 12, 768, 12, 3072),
    GPT2("gpt2-medium", 24, 1024, 16, 4096),
    GPT2("gpt2-large", 36, 1280, 20, 5120),
    GPT2("gpt2-xl", 48, 1600, 25, 6400),
    LLAMA("llama-2-7b", "llama", 32, 4096, 32, 32, 11008, 32000),
    LLAMA("llama-2-13b", "llama", 40, 5120, 40, 40, 13824, 32000),
    LLAMA("llama-2-70b", "llama", 80, 8192, 64, 8, 28672, 32000),
    LLAMA("llama-3-8b", "llama", 32, 4096, 32, 8, 14336, 128256),
    LLAMA("llama-3-70b", "llama", 80, 8192, 64, 8, 28672, 128256),
    LLAMA("llama-3.1-8b", "llama", 32, 4096, 32, 8, 14336, 128256),
    LLAMA("llama-3.1-70b", "llama", 80, 8192, 64, 8, 28672, 128256),
    LLAMA("llama-3.1-405b", "llama", 126, 16384, 128, 8, 53248, 128256),
    LLAMA("mistral-7b", "mistral", 32, 4096, 32, 8, 14336, 32000),
    MOE("mixtral-8x7b", "mixtral", 32, 4096, 32, 8, 14336, 32000, 8, 2),
    MOE("mixtral-8x22b", "mixtral", 56, 6144, 48, 8, 16384, 32000, 8, 2),
    QWEN2("qwen2.5-7b", 28, 3584, 28, 4, 18944, 152064),
    QWEN2("qwen2.5-72b", 80, 8192, 64, 8, 29568, 152064),
    GEMMA("gemma-2b", 18, 2048, 8, 1, 256, 16384),
    GEMMA("gemma-7b", 28, 3072, 16, 16, 256, 24576),
    {.name = "phi-3-mini", .family = "phi3", .layers = 32, .hidden = 3072, .heads = 32,
     .kv_heads = 32, .ffn = 8192, .vocab = 32064, .gated_mlp = 1, .norm = TS_NORM_RMSNORM,
     .bias = TS_BIAS_NONE, .fused_qkv = 1, .fused_gate_up = 1},
};

#define PRESET_COUNT (sizeof PRESETS / sizeof PRESETS[0])

/* Public catalogue view: the published counts and where each shape comes from. */
static const trainsize_model_info INFOS[PRESET_COUNT] = {
    {"gpt2", "gpt2", 124439808, 124439808, "openai-community/gpt2 config.json"},
    {"gpt2-medium", "gpt2", 354823168, 354823168, "openai-community/gpt2-medium config.json"},
    {"gpt2-large", "gpt2", 774030080, 774030080, "openai-community/gpt2-large config.json"},
    {"gpt2-xl", "gpt2", 1557611200, 1557611200, "openai-community/gpt2-xl config.json"},
    {"llama-2-7b", "llama", 6738415616, 6738415616, "meta-llama/Llama-2-7b-hf config.json"},
    {"llama-2-13b", "llama", 13015864320, 13015864320, "meta-llama/Llama-2-13b-hf config.json"},
    {"llama-2-70b", "llama", 68976648192, 68976648192, "meta-llama/Llama-2-70b-hf config.json"},
    {"llama-3-8b", "llama", 8030261248, 8030261248, "meta-llama/Meta-Llama-3-8B config.json"},
    {"llama-3-70b", "llama", 70553706496, 70553706496, "meta-llama/Meta-Llama-3-70B config.json"},
    {"llama-3.1-8b", "llama", 8030261248, 8030261248, "meta-llama/Llama-3.1-8B config.json"},
    {"llama-3.1-70b", "llama", 70553706496, 70553706496, "meta-llama/Llama-3.1-70B config.json"},
    {"llama-3.1-405b", "llama", 405853388800, 405853388800, "meta-llama/Llama-3.1-405B config.json"},
    {"mistral-7b", "mistral", 7241732096, 7241732096, "mistralai/Mistral-7B-v0.1 config.json"},
    {"mixtral-8x7b", "mixtral", 46702792704, 12879925248, "mistralai/Mixtral-8x7B-v0.1 config.json"},
    {"mixtral-8x22b", "mixtral", 140620634112, 39152031744,
     "mistralai/Mixtral-8x22B-v0.1 config.json"},
    {"qwen2.5-7b", "qwen2", 7615616512, 7615616512, "Qwen/Qwen2.5-7B config.json"},
    {"qwen2.5-72b", "qwen2", 72706203648, 72706203648, "Qwen/Qwen2.5-72B config.json"},
    {"gemma-2b", "gemma", 2506172416, 2506172416, "google/gemma-2b config.json"},
    {"gemma-7b", "gemma", 8537680896, 8537680896, "google/gemma-7b config.json"},
    {"phi-3-mini", "phi3", 3821079552, 3821079552, "microsoft/Phi-3-mini-4k-instruct config.json"},
};

/* The catalogues' name rule: case, '-', '_' and spaces do not matter ("Llama_2_7B"). */
const ts_model *ts_preset_find(const char *name)
{
    size_t i;
    if (!name || ts_name_blank(name)) return NULL;
    for (i = 0; i < PRESET_COUNT; i++)
        if (ts_name_equal(PRESETS[i].name, name)) return &PRESETS[i];
    return NULL;
}

size_t trainsize_model_count(void) { return PRESET_COUNT; }

const trainsize_model_info *trainsize_model_at(size_t index)
{
    return index < PRESET_COUNT ? &INFOS[index] : NULL;
}

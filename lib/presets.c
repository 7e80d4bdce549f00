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
     .positions = 1024, .tied_embeddings = 1, .norm = TRAINSIZE_NORM_LAYERNORM, .bias = TRAINSIZE_BIAS_ALL,   \
     .fused_qkv = 1, .residual_dropout = 1}
#define LLAMA(n, fam, l, h, a, kv, f, v)                                                      \
    {.name = n, .family = fam, .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f,  \
     .vocab = v, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_NONE}
#define MOE(n, fam, l, h, a, kv, f, v, e, k)                                                  \
    {.name = n, .family = fam, .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f,  \
     .vocab = v, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_NONE, .experts = e,  \
     .experts_per_token = k}
#define QWEN2(n, l, h, a, kv, f, v)                                                           \
    {.name = n, .family = "qwen2", .layers = l, .hidden = h, .heads = a, .kv_heads = kv, .ffn = f, \
     .vocab = v, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_QKV}
#define GEMMA(n, l, h, a, kv, hd, f)                                                          \
    {.name = n, .family = "gemma", .layers = l, .hidden = h, .heads = a, .kv_heads = kv,        \
     .head_dim = hd, .ffn = f, .vocab = 256000, .tied_embeddings = 1, .gated_mlp = 1,           \
     .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_NONE}

/* Encoders and image transformers: post-norm BERT and RoBERTa (BertModel, RobertaModel:
 * segment embeddings, the embeddings' LayerNorm, the pooler), pre-norm ViT as the ImageNet-1k
 * classifier (class token, patch projection, final norm, a 1000-class head), GELU MLPs of
 * 4 x hidden, biases on every linear layer. */
#define ENCODER(n, fam, l, h, a, v, p, types)                                                 \
    {.name = n, .family = fam, .layers = l, .hidden = h, .heads = a, .ffn = 4 * h, .vocab = v,  \
     .positions = p, .norm = TRAINSIZE_NORM_LAYERNORM, .bias = TRAINSIZE_BIAS_ALL, .residual_dropout = 1,     \
     .head = TS_HEAD_POOLER, .token_types = types, .post_norm = 1}
#define VIT(n, l, h, a, patch, image)                                                         \
    {.name = n, .family = "vit", .layers = l, .hidden = h, .heads = a, .ffn = 4 * h,            \
     .positions = (image / patch) * (image / patch) + 1, .norm = TRAINSIZE_NORM_LAYERNORM,           \
     .bias = TRAINSIZE_BIAS_ALL, .residual_dropout = 1, .head = TS_HEAD_CLASSIFIER, .classes = 1000,  \
     .patch_size = patch, .channels = 3, .fused_qkv = 1}

/* torchvision's ResNets for ImageNet-1k at 224 x 224 (cnn.c); one position: a sample is an
 * image. */
#define RESNET(n, depth, width)                                                               \
    {.name = n, .family = "resnet", .resnet_depth = depth, .resnet_width = width, .channels = 3, \
     .classes = 1000, .head = TS_HEAD_CLASSIFIER, .positions = 1}

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
     .kv_heads = 32, .ffn = 8192, .vocab = 32064, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM,
     .bias = TRAINSIZE_BIAS_NONE, .fused_qkv = 1, .fused_gate_up = 1},
    /* 2024-2026 families; each shape is its config.json's as tests/data/hf holds it, and
     * tests/test_presets.c checks the two agree. Counts as transformers builds the model:
     * DeepSeek-V3's main model (its 14B multi-token-prediction module apart), Llama 4
     * Scout's text model (its vision tower apart), Falcon-7B's lm_head tied (the
     * checkpoint stores a copy, which the Hub's 7.22B counts). Llama 3.3 70B has Llama 3.1
     * 70B's shape. */
    LLAMA("llama-3.3-70b", "llama", 80, 8192, 64, 8, 28672, 128256),
    {.name = "qwen3-8b", .family = "qwen3", .layers = 36, .hidden = 4096, .heads = 32, .kv_heads = 8,
     .head_dim = 128, .ffn = 12288, .vocab = 151936, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM,
     .qk_norm = TRAINSIZE_QK_NORM_HEAD},
    {.name = "qwen3-30b-a3b", .family = "qwen3_moe", .layers = 48, .hidden = 2048, .heads = 32,
     .kv_heads = 4, .head_dim = 128, .ffn = 768, .dense_ffn = 6144, .vocab = 151936,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .qk_norm = TRAINSIZE_QK_NORM_HEAD, .experts = 128,
     .experts_per_token = 8, .moe_every = 1},
    {.name = "qwen1.5-moe-a2.7b", .family = "qwen2_moe", .layers = 24, .hidden = 2048, .heads = 16,
     .kv_heads = 16, .head_dim = 128, .ffn = 1408, .dense_ffn = 5632, .vocab = 151936,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_QKV, .experts = 60,
     .experts_per_token = 4, .moe_every = 1, .shared_experts = 1, .shared_expert_ffn = 5632,
     .shared_expert_gate = 1},
    {.name = "phi-3.5-moe", .family = "phimoe", .layers = 32, .hidden = 4096, .heads = 32,
     .kv_heads = 8, .head_dim = 128, .ffn = 6400, .vocab = 32064, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_LAYERNORM, .bias = TRAINSIZE_BIAS_ATTENTION, .experts = 16, .experts_per_token = 2,
     .output_bias = 1},
    {.name = "deepseek-v2-lite", .family = "deepseek_v2", .layers = 27, .hidden = 2048, .heads = 16,
     .kv_heads = 16, .head_dim = 192, .ffn = 1408, .dense_ffn = 10944, .vocab = 102400,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .kv_lora_rank = 512, .qk_rope_head_dim = 64,
     .v_head_dim = 128, .experts = 64, .experts_per_token = 6, .shared_experts = 2,
     .shared_expert_ffn = 1408, .first_dense_layers = 1},
    {.name = "deepseek-v3", .family = "deepseek_v3", .layers = 61, .hidden = 7168, .heads = 128,
     .kv_heads = 128, .head_dim = 192, .ffn = 2048, .dense_ffn = 18432, .vocab = 129280,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .q_lora_rank = 1536, .kv_lora_rank = 512,
     .qk_rope_head_dim = 64, .v_head_dim = 128, .experts = 256, .experts_per_token = 8,
     .shared_experts = 1, .shared_expert_ffn = 2048, .first_dense_layers = 3, .router_bias = 1},
    {.name = "llama-4-scout", .family = "llama4", .layers = 48, .hidden = 5120, .heads = 40,
     .kv_heads = 8, .head_dim = 128, .ffn = 8192, .dense_ffn = 16384, .vocab = 202048,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .experts = 16, .experts_per_token = 1,
     .moe_every = 1, .shared_experts = 1, .shared_expert_ffn = 8192, .sliding_window = 8192,
     .global_every = 4, .vision_layers = 34, .vision_hidden = 1408, .vision_heads = 16,
     .vision_ffn = 5632, .vision_patches = 577, .vision_other = 2269696, .projector = 60817408,
     .image_tokens = 144},
    {.name = "gpt-oss-20b", .family = "gpt_oss", .layers = 24, .hidden = 2880, .heads = 64,
     .kv_heads = 8, .head_dim = 64, .ffn = 2880, .vocab = 201088, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_ALL, .experts = 32, .experts_per_token = 4,
     .router_bias = 1, .attention_sinks = 1, .sliding_window = 128, .global_every = 2},
    {.name = "gemma-2-9b", .family = "gemma2", .layers = 42, .hidden = 3584, .heads = 16,
     .kv_heads = 8, .head_dim = 256, .ffn = 14336, .vocab = 256000, .tied_embeddings = 1,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .norms_per_layer = 4, .sliding_window = 4096,
     .global_every = 2, .attn_softcap = 1, .logit_softcap = 1},
    {.name = "gemma-3-1b", .family = "gemma3_text", .layers = 26, .hidden = 1152, .heads = 4,
     .kv_heads = 1, .head_dim = 256, .ffn = 6912, .vocab = 262144, .tied_embeddings = 1,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .norms_per_layer = 4, .qk_norm = TRAINSIZE_QK_NORM_HEAD,
     .sliding_window = 512, .global_every = 6},
    {.name = "olmo-2-7b", .family = "olmo2", .layers = 32, .hidden = 4096, .heads = 32,
     .kv_heads = 32, .head_dim = 128, .ffn = 11008, .vocab = 100352, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .qk_norm = TRAINSIZE_QK_NORM_FULL},
    {.name = "granite-3.3-8b", .family = "granite", .layers = 40, .hidden = 4096, .heads = 32,
     .kv_heads = 8, .head_dim = 128, .ffn = 12800, .vocab = 49159, .tied_embeddings = 1,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM},
    {.name = "starcoder2-3b", .family = "starcoder2", .layers = 30, .hidden = 3072, .heads = 24,
     .kv_heads = 2, .head_dim = 128, .ffn = 12288, .vocab = 49152, .tied_embeddings = 1,
     .norm = TRAINSIZE_NORM_LAYERNORM, .bias = TRAINSIZE_BIAS_ALL, .sliding_window = 4096},
    {.name = "llama-3.2-1b", .family = "llama", .layers = 16, .hidden = 2048, .heads = 32,
     .kv_heads = 8, .ffn = 8192, .vocab = 128256, .tied_embeddings = 1, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM},
    {.name = "llama-3.2-3b", .family = "llama", .layers = 28, .hidden = 3072, .heads = 24,
     .kv_heads = 8, .ffn = 8192, .vocab = 128256, .tied_embeddings = 1, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM},
    {.name = "mistral-nemo-12b", .family = "mistral", .layers = 40, .hidden = 5120, .heads = 32,
     .kv_heads = 8, .head_dim = 128, .ffn = 14336, .vocab = 131072, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM},
    {.name = "phi-4", .family = "phi3", .layers = 40, .hidden = 5120, .heads = 40, .kv_heads = 10,
     .ffn = 17920, .vocab = 100352, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .fused_qkv = 1,
     .fused_gate_up = 1},
    {.name = "qwen3-32b", .family = "qwen3", .layers = 64, .hidden = 5120, .heads = 64, .kv_heads = 8,
     .head_dim = 128, .ffn = 25600, .vocab = 151936, .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM,
     .qk_norm = TRAINSIZE_QK_NORM_HEAD},
    {.name = "qwen3-235b-a22b", .family = "qwen3_moe", .layers = 94, .hidden = 4096, .heads = 64,
     .kv_heads = 4, .head_dim = 128, .ffn = 1536, .dense_ffn = 12288, .vocab = 151936,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .qk_norm = TRAINSIZE_QK_NORM_HEAD, .experts = 128,
     .experts_per_token = 8, .moe_every = 1},
    {.name = "gpt-oss-120b", .family = "gpt_oss", .layers = 36, .hidden = 2880, .heads = 64,
     .kv_heads = 8, .head_dim = 64, .ffn = 2880, .vocab = 201088, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_ALL, .experts = 128, .experts_per_token = 4,
     .router_bias = 1, .attention_sinks = 1, .sliding_window = 128, .global_every = 2},
    {.name = "gemma-2-27b", .family = "gemma2", .layers = 46, .hidden = 4608, .heads = 32,
     .kv_heads = 16, .head_dim = 128, .ffn = 36864, .vocab = 256000, .tied_embeddings = 1,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .norms_per_layer = 4, .sliding_window = 4096,
     .global_every = 2, .attn_softcap = 1, .logit_softcap = 1},
    {.name = "falcon-7b", .family = "falcon", .layers = 32, .hidden = 4544, .heads = 71,
     .kv_heads = 1, .head_dim = 64, .ffn = 18176, .vocab = 65024, .tied_embeddings = 1,
     .norm = TRAINSIZE_NORM_LAYERNORM, .fused_qkv = 1, .parallel_block = 1, .norms_per_layer = 1},
    ENCODER("bert-base", "bert", 12, 768, 12, 30522, 512, 2),
    ENCODER("bert-large", "bert", 24, 1024, 16, 30522, 512, 2),
    ENCODER("roberta-base", "roberta", 12, 768, 12, 50265, 514, 1),
    ENCODER("roberta-large", "roberta", 24, 1024, 16, 50265, 514, 1),
    /* Multimodal: the language model, then its vision tower and projector as the config
     * readers count them (hf_vision.c). */
    {.name = "llava-1.5-7b", .family = "llava", .layers = 32, .hidden = 4096, .heads = 32,
     .kv_heads = 32, .head_dim = 128, .ffn = 11008, .vocab = 32064, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .vision_layers = 24, .vision_hidden = 1024, .vision_heads = 16,
     .vision_ffn = 4096, .vision_patches = 577, .vision_other = 1517568, .projector = 20979712,
     .image_tokens = 576},
    {.name = "gemma-3-4b", .family = "gemma3", .layers = 34, .hidden = 2560, .heads = 8,
     .kv_heads = 4, .head_dim = 256, .ffn = 10240, .vocab = 262208, .tied_embeddings = 1,
     .gated_mlp = 1, .norm = TRAINSIZE_NORM_RMSNORM, .norms_per_layer = 4, .qk_norm = TRAINSIZE_QK_NORM_HEAD,
     .sliding_window = 1024, .global_every = 6, .vision_layers = 27, .vision_hidden = 1152,
     .vision_heads = 16, .vision_ffn = 4304, .vision_patches = 4096, .vision_other = 5795568,
     .projector = 2950272, .image_tokens = 256},
    {.name = "qwen2.5-vl-7b", .family = "qwen2_5_vl", .layers = 28, .hidden = 3584, .heads = 28,
     .kv_heads = 4, .head_dim = 128, .ffn = 18944, .vocab = 152064, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .bias = TRAINSIZE_BIAS_QKV, .vision_layers = 32, .vision_hidden = 1280,
     .vision_heads = 16, .vision_ffn = 3420, .vision_gated = 1, .vision_patches = 1024,
     .vision_other = 2010880, .projector = 44574464, .image_tokens = 256},
    {.name = "llama-3.2-11b-vision", .family = "mllama", .layers = 40, .hidden = 4096, .heads = 32,
     .kv_heads = 8, .head_dim = 128, .ffn = 14336, .vocab = 128256, .gated_mlp = 1,
     .norm = TRAINSIZE_NORM_RMSNORM, .vision_layers = 40, .vision_hidden = 1280, .vision_heads = 16,
     .vision_ffn = 5120, .vision_patches = 6432, .vision_other = 77168147, .projector = 31461376,
     .cross_attention_layers = 8},
    VIT("vit-b-16", 12, 768, 12, 16, 224),
    VIT("vit-b-32", 12, 768, 12, 32, 224),
    VIT("vit-l-16", 24, 1024, 16, 16, 224),
    VIT("vit-l-32", 24, 1024, 16, 32, 224),
    RESNET("resnet-18", 18, 0),
    RESNET("resnet-34", 34, 0),
    RESNET("resnet-50", 50, 0),
    RESNET("resnet-101", 101, 0),
    RESNET("resnet-152", 152, 0),
    RESNET("wide-resnet-50-2", 50, 128),
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
    {"llama-3.3-70b", "llama", 70553706496, 70553706496, "meta-llama/Llama-3.3-70B config.json"},
    {"qwen3-8b", "qwen3", 8190735360, 8190735360, "Qwen/Qwen3-8B config.json"},
    {"qwen3-30b-a3b", "qwen3_moe", 30532122624, 3353032704, "Qwen/Qwen3-30B-A3B config.json"},
    {"qwen1.5-moe-a2.7b", "qwen2_moe", 14315784192, 2689173504,
     "Qwen/Qwen1.5-MoE-A2.7B config.json"},
    {"phi-3.5-moe", "phimoe", 41873153344, 6640999744, "microsoft/Phi-3.5-MoE-instruct config.json"},
    {"deepseek-v2-lite", "deepseek_v2", 15706484224, 2661150208,
     "deepseek-ai/DeepSeek-V2-Lite config.json"},
    {"deepseek-v3", "deepseek_v3", 671026419200, 37552297472,
     "deepseek-ai/DeepSeek-V3 config.json"},
    {"llama-4-scout", "llama4", 108641793536, 17172894720,
     "meta-llama/Llama-4-Scout-17B-16E config.json (vision tower included)"},
    {"gpt-oss-20b", "gpt_oss", 20914757184, 4187440704, "openai/gpt-oss-20b config.json"},
    {"gemma-2-9b", "gemma2", 9241705984, 9241705984, "google/gemma-2-9b config.json"},
    {"gemma-3-1b", "gemma3_text", 999885952, 999885952, "google/gemma-3-1b-pt config.json"},
    {"olmo-2-7b", "olmo2", 7298617344, 7298617344, "allenai/OLMo-2-1124-7B config.json"},
    {"granite-3.3-8b", "granite", 8170864640, 8170864640, "ibm-granite/granite-3.3-8b config.json"},
    {"starcoder2-3b", "starcoder2", 3030371328, 3030371328, "bigcode/starcoder2-3b config.json"},
    {"llama-3.2-1b", "llama", 1235814400, 1235814400, "meta-llama/Llama-3.2-1B config.json"},
    {"llama-3.2-3b", "llama", 3212749824, 3212749824, "meta-llama/Llama-3.2-3B config.json"},
    {"mistral-nemo-12b", "mistral", 12247782400, 12247782400,
     "mistralai/Mistral-Nemo-Base-2407 config.json"},
    {"phi-4", "phi3", 14659507200, 14659507200, "microsoft/phi-4 config.json"},
    {"qwen3-32b", "qwen3", 32762123264, 32762123264, "Qwen/Qwen3-32B config.json"},
    {"qwen3-235b-a22b", "qwen3_moe", 235093634560, 22190763520, "Qwen/Qwen3-235B-A22B config.json"},
    {"gpt-oss-120b", "gpt_oss", 116829156672, 5711982912, "openai/gpt-oss-120b config.json"},
    {"gemma-2-27b", "gemma2", 27227128320, 27227128320, "google/gemma-2-27b config.json"},
    {"falcon-7b", "falcon", 6921720704, 6921720704, "tiiuae/falcon-7b config.json"},
    /* Counted as users quote them: transformers' BertModel / RobertaModel with the pooler,
     * torchvision's ViT classifiers (their documentation's num_params). */
    {"bert-base", "bert", 109482240, 109482240, "google-bert/bert-base-uncased config.json (BertModel)"},
    {"bert-large", "bert", 335141888, 335141888, "google-bert/bert-large-uncased config.json (BertModel)"},
    {"roberta-base", "roberta", 124645632, 124645632, "FacebookAI/roberta-base config.json (RobertaModel)"},
    {"roberta-large", "roberta", 355359744, 355359744, "FacebookAI/roberta-large config.json (RobertaModel)"},
    {"llava-1.5-7b", "llava", 7063427072, 6738939904, "llava-hf/llava-1.5-7b-hf config.json"},
    {"gemma-3-4b", "gemma3", 4300079472, 3880263168, "google/gemma-3-4b-it config.json"},
    {"qwen2.5-vl-7b", "qwen2_5_vl", 8292166656, 7615616512, "Qwen/Qwen2.5-VL-7B-Instruct config.json"},
    {"llama-3.2-11b-vision", "mllama", 10670220835, 9775159312,
     "meta-llama/Llama-3.2-11B-Vision config.json"},
    {"vit-b-16", "vit", 86567656, 86567656, "torchvision vit_b_16, ImageNet-1k, 224 x 224 (num_params)"},
    {"vit-b-32", "vit", 88224232, 88224232, "torchvision vit_b_32, ImageNet-1k, 224 x 224 (num_params)"},
    {"vit-l-16", "vit", 304326632, 304326632, "torchvision vit_l_16, ImageNet-1k, 224 x 224 (num_params)"},
    {"vit-l-32", "vit", 306535400, 306535400, "torchvision vit_l_32, ImageNet-1k, 224 x 224 (num_params)"},
    {"resnet-18", "resnet", 11689512, 11689512, "torchvision resnet18, ImageNet-1k (num_params)"},
    {"resnet-34", "resnet", 21797672, 21797672, "torchvision resnet34, ImageNet-1k (num_params)"},
    {"resnet-50", "resnet", 25557032, 25557032, "torchvision resnet50, ImageNet-1k (num_params)"},
    {"resnet-101", "resnet", 44549160, 44549160, "torchvision resnet101, ImageNet-1k (num_params)"},
    {"resnet-152", "resnet", 60192808, 60192808, "torchvision resnet152, ImageNet-1k (num_params)"},
    {"wide-resnet-50-2", "resnet", 68883240, 68883240, "torchvision wide_resnet50_2, ImageNet-1k (num_params)"},
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

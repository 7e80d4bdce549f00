/* Model shape and parameter counting (internal). Knows architecture families, not GPUs
 * or parallelism. */
#ifndef TS_MODEL_H
#define TS_MODEL_H

#include <stdint.h>

#include "trainsize.h"

/* The largest shapes the library takes. The shape options' ranges (params.c) and a
 * config.json's keys (hf_keys.h) are bounded by these same numbers, so a config cannot
 * load what --layers or --ffn refuse (and trainsize_job_get never returns a value that
 * trainsize_job_set rejects). They keep every later product finite in double precision
 * and far from the 2^63 bound the results check; real models are orders of magnitude
 * below. */
#define TS_LIM_LAYERS UINT64_C(100000)
#define TS_LIM_SHAPE UINT64_C(10000000) /* hidden, ffn, heads, head dims, low ranks */
#define TS_LIM_VOCAB UINT64_C(100000000)
#define TS_LIM_POSITIONS UINT64_C(1000000000) /* tokens: positions, windows, seq */
#define TS_LIM_EXPERTS UINT64_C(1000000)
#define TS_LIM_SHARED_EXPERTS UINT64_C(10000)
#define TS_LIM_NORMS_PER_LAYER 8

/* The norm (LayerNorm: weight and bias; RMSNorm: weight), the biases (trainsize_bias: ALL
 * is GPT-2's, QKV Qwen2's, ATTENTION q, k, v and o) and the query/key norms
 * (trainsize_qk_norm: per head as in Qwen3 and Gemma 3, or over the whole projection as in
 * OLMo 2) are the public header's enums, used as they are. */

/* LoRA target modules, as bits. */
enum {
    TS_LORA_Q = 1u << 0,
    TS_LORA_K = 1u << 1,
    TS_LORA_V = 1u << 2,
    TS_LORA_O = 1u << 3,
    TS_LORA_GATE = 1u << 4,
    TS_LORA_UP = 1u << 5,
    TS_LORA_DOWN = 1u << 6
};


/** A decoder-only transformer as real model families describe it. */
typedef struct ts_model {
    char name[TRAINSIZE_NAME_MAX]; /* preset or config name; "" when unset */
    char family[32];               /* "gpt2", "llama", "mixtral", ... */
    uint64_t layers;
    uint64_t hidden;
    uint64_t heads;
    uint64_t kv_heads;          /* key/value heads (GQA/MQA); 0 = heads (MHA) */
    uint64_t head_dim;          /* 0 = hidden / heads; may differ (Gemma-7B) */
    uint64_t ffn;               /* MLP inner size; per expert for MoE */
    uint64_t vocab;
    uint64_t positions;         /* learned position embeddings; 0 for rotary */
    int tied_embeddings;        /* output layer shares the token embedding */
    int gated_mlp;              /* SwiGLU/GeGLU: gate, up and down projections */
    trainsize_norm norm;
    trainsize_bias bias;
    uint64_t experts;           /* routed experts; 0 or 1 for a dense model */
    uint64_t experts_per_token; /* top-k */
    uint64_t shared_experts;    /* always-active experts (DeepSeek/Qwen-MoE style) */
    uint64_t shared_expert_ffn; /* inner size of each shared expert */
    /* Module layout of the reference implementation, where it changes what is kept. */
    int fused_qkv;              /* one projection for q, k, v (GPT-2 c_attn, Phi-3 qkv_proj) */
    int fused_gate_up;          /* one projection for gate and up (Phi-3 gate_up_proj) */
    int residual_dropout;       /* dropout on the residual branches and embeddings (GPT-2);
                                   Hugging Face's rotary families drop attention probs only */
    /* Attention variants (docs/methodology.md, "Model families"). */
    uint64_t q_lora_rank;       /* MLA: rank of the query's down-projection; 0 = full q */
    uint64_t kv_lora_rank;      /* MLA (DeepSeek-V2/V3): rank of the joint key/value
                                   compression; 0 = no MLA. head_dim is then the query/key
                                   head (no-rope + rope part) */
    uint64_t qk_rope_head_dim;  /* MLA: the rotary part of each query/key head */
    uint64_t v_head_dim;        /* MLA: width of each value head */
    int qk_norm;                /* trainsize_qk_norm: norms on queries and keys (Qwen3, OLMo 2) */
    int attention_sinks;        /* a learned sink logit per head (gpt-oss) */
    uint64_t sliding_window;    /* local attention window, tokens; 0 = all layers global */
    uint64_t global_every;      /* with a window, every n-th layer is global; 0 = none */
    /* Layer structure. */
    uint64_t norms_per_layer;   /* norms in a layer: 2 (pre-norm), 1 (Falcon-7B's parallel
                                   block), 4 (Gemma 2/3: around attention and MLP); 0 = 2 */
    int parallel_block;         /* attention and MLP read one normed input (Falcon, GPT-J) */
    uint64_t first_dense_layers;/* MoE: leading layers with a dense MLP (DeepSeek) */
    uint64_t moe_every;         /* MoE: after those, layer i is MoE when (i + 1) % n == 0
                                   (Llama 4, Qwen2-MoE); 0 or 1 = every layer */
    uint64_t dense_ffn;         /* MoE: inner size of the dense layers' MLP; 0 = ffn */
    int router_bias;            /* MoE: a per-expert bias on the router (gpt-oss; DeepSeek-V3's
                                   score correction) */
    int shared_expert_gate;     /* MoE: a 1-wide sigmoid gate on the shared experts (Qwen2-MoE) */
    int output_bias;            /* the output layer has a bias (Phi-3.5-MoE's lm_head) */
    int attn_softcap;           /* attention scores soft-capped, cap * tanh(x / cap) (Gemma 2) */
    int logit_softcap;          /* the final logits soft-capped too (Gemma 2) */
    uint64_t mtp_layers;        /* multi-token-prediction modules trained with the model
                                   (DeepSeek-V3: 1); counted apart from its parameters */
    uint64_t extra_params;      /* parameters a checkpoint holds beyond what the shape
                                   describes (extra-params): trained, held on stage 0 */
    /* Encoders and image transformers (BERT, RoBERTa, ViT): what sits around the layers. */
    int head;                   /* ts_head: what the model ends in */
    uint64_t classes;           /* a classifier's outputs (ViT on ImageNet-1k: 1000); 0: none */
    uint64_t token_types;       /* segment embeddings (BERT: 2, RoBERTa: 1) */
    int post_norm;              /* norms after each sub-layer, one after the embeddings and
                                   none at the end (BERT, RoBERTa) */
    uint64_t patch_size;        /* an image transformer's patches, pixels a side; 0: text */
    uint64_t channels;          /* its input channels (3) */
    /* A multimodal model's vision tower and projector (LLaVA, Llama 4, Gemma 3, Qwen2.5-VL,
     * Llama 3.2 Vision; vision.c): a ViT-like stack of vision_layers, each with full
     * multi-head attention (4 x vision_hidden^2 weights) and an MLP of vision_ffn (gated:
     * three matrices), run over vision_patches per image; everything else the tower holds
     * (patch and position embeddings, class token, norms, biases, gates, and rows the text
     * embedding adds for image tokens) is vision_other, counted exactly by the config's
     * reader. The projector maps the tower's output to the language model's hidden. */
    uint64_t vision_layers;     /* 0: no vision tower */
    uint64_t vision_hidden, vision_heads, vision_ffn;
    int vision_gated;
    uint64_t vision_patches;    /* per image (a tile for tiled models), class token included */
    uint64_t vision_other;      /* parameters of the tower outside its layers' matrices */
    uint64_t projector;         /* parameters of the projector */
    uint64_t image_tokens;      /* tokens an image takes of the sequence; 0: it reaches the
                                   model through cross-attention layers instead */
    uint64_t cross_attention_layers; /* of `layers`, those attending to the image (Llama 3.2
                                   Vision): a layer's weights plus q and k norms (head_dim
                                   each) and two gates */
    /* A convolutional image classifier (cnn.c): torchvision's ResNet of this depth (18, 34,
     * 50, 101, 152; 0: a transformer), the bottleneck's width per group (64; Wide ResNet-50-2:
     * 128), trained on image_size x image_size images (0: 224) of `channels` (0: 3) into
     * `classes` (0: 1000). */
    uint64_t resnet_depth, resnet_width, image_size;
} ts_model;

/* What one walk over a ResNet gives (cnn.c), per image, elements unless named. */
typedef struct ts_cnn {
    double conv_params, fc_params; /* parameters: convolutions and BatchNorms, the classifier */
    double macs;                   /* forward multiply-accumulates */
    double kept;                   /* activation elements autograd keeps for backward */
    double indices;                /* max pooling's int64 indices */
    double elementwise;            /* elements BatchNorm, ReLU, the adds and pooling read and
                                      write in a forward */
    double largest_block;          /* the most one residual block keeps */
    double convolutions;           /* convolutions (each with its BatchNorm) */
    double features;               /* the classifier's input width */
    double classes;                /* its outputs */
} ts_cnn;

/* Walk the ResNet `m` describes; -1 when it is not one (unknown depth, no image). */
int ts_cnn_walk(const ts_model *m, ts_cnn *out);
/* 1 for the depths torchvision builds (18, 34, 50, 101, 152). */
int ts_cnn_depth_known(uint64_t depth);
/* Its residual blocks (0 for an unknown depth). */
uint64_t ts_cnn_blocks(uint64_t depth);
/* 1 when the model is a convolutional network. */
static inline int ts_model_is_cnn(const ts_model *m) { return m->resnet_depth != 0; }
/* 1 when a non-gated MLP's GELU is written out as a formula in unfused code, as Hugging
 * Face's GPT-2 runs it (activation_function gelu_new, NewGELUActivation: a pow, a tanh,
 * multiplies and adds, each its own kernel and saved tensor), and so a model described by
 * its shape alone. The families that call PyTorch's GELU (torch.nn.functional.gelu, one
 * kernel that saves its input: BERT's and RoBERTa's "gelu", ViT's, Falcon's, StarCoder2's
 * gelu_pytorch_tanh) do not. */
int ts_model_gelu_formula(const ts_model *m);
/* A ResNet's transformer-shaped fields as the pipeline reads them: its blocks as layers,
 * the classifier's input as hidden, one "position" (a sample is one image), the classifier
 * head; other shape fields cleared. */
void ts_cnn_shape(ts_model *m);

/* What a model ends in: the output layer over the vocabulary at every token (language
 * models), BERT's pooler (a dense layer on the first token) with a classifier of `classes`
 * when set, or a classifier of `classes` on the first token (ViT). */
typedef enum ts_head { TS_HEAD_LM = 0, TS_HEAD_POOLER, TS_HEAD_CLASSIFIER } ts_head;


/** Parameter counts of a model (exact integers). */
typedef struct ts_param_counts {
    uint64_t attention;      /* one layer: q, k, v, o (or MLA's projections), their biases,
                                q/k norms and sinks */
    uint64_t mlp_dense;      /* one dense layer's MLP (an MoE model's dense layers too) */
    uint64_t expert;         /* one routed expert's MLP */
    uint64_t shared_expert;  /* one shared expert's MLP */
    uint64_t router;         /* one layer's router */
    uint64_t norms;          /* one layer's norms */
    uint64_t layer;          /* one whole layer (an MoE layer in an MoE model) */
    uint64_t layer_active;   /* one layer, counting top-k routed experts */
    uint64_t layer_dense;    /* one dense layer (an MoE model's first layers); = layer when dense */
    uint64_t moe_layers;     /* layers with experts (0 for a dense model) */
    uint64_t mtp_module;     /* one multi-token-prediction module: its norms, projection and
                                layer (the embedding and output head are the model's) */
    uint64_t mtp;            /* all of them (mtp_layers x mtp_module); not in total */
    uint64_t mtp_active;     /* the same with the layer's active experts */
    uint64_t token_embedding;
    uint64_t position_embedding;
    uint64_t embedding_other;/* looked up or normed, not multiplied: segment embeddings, a class
                                token, the embeddings' norm (post-norm encoders) */
    uint64_t patch_embedding;/* an image transformer's patch projection (channels x patch^2
                                x hidden, and its bias): a matmul per patch */
    uint64_t head;           /* the pooler and/or classifier (once per sequence); 0 for LM */
    uint64_t output_layer;   /* 0 when tied, and without an LM head */
    uint64_t final_norm;
    uint64_t conv;           /* a convolutional network's convolutions and BatchNorms */
    uint64_t vision;         /* the vision tower: its layers and vision_other */
    uint64_t vision_layer;   /* one tower layer's matrices */
    uint64_t projector;      /* the projector */
    uint64_t cross_attention;/* what cross-attention layers add to a layer's count, all of them */
    uint64_t extra;          /* extra_params: in total, not in active (no FLOPs are known) */
    uint64_t total;
    uint64_t active;
} ts_param_counts;

/** Reset a model to "no model set" (all zero). */
void ts_model_clear(ts_model *m);

/** Check a model's shape: every required field set, sizes within limits, heads divisible
 *  by kv_heads, experts_per_token <= experts. Fills err (naming the field) on failure. */
int ts_model_validate(const ts_model *m, trainsize_error *err);

/** Forward FLOPs of one image through the vision tower and the projector: the layers'
 *  matmuls and attention over vision_patches, the projector once per image token (per
 *  patch when the image reaches the model by cross-attention); 0 without a tower. Sets
 *  *projector to the projector's share. */
double ts_model_vision_flops(const ts_model *m, double *projector);
/** One vision tower layer's matrices: 4 x vision_hidden^2 for attention and two (gated:
 *  three) vision_hidden x vision_ffn for the MLP. */
uint64_t ts_model_vision_layer(const ts_model *m);
/* The vision tower's part of ts_model_validate and ts_model_count (vision.c). */
int ts_model_vision_validate(const ts_model *m, trainsize_error *err);
int ts_model_vision_count(const ts_model *m, ts_param_counts *c);
/** Count parameters exactly; TRAINSIZE_E_OVERFLOW if a count would exceed 2^63. */
int ts_model_count(const ts_model *m, ts_param_counts *out, trainsize_error *err);

/** Effective values: kv_heads 0 means heads; head_dim 0 means hidden / heads. */
uint64_t ts_model_kv_heads(const ts_model *m);
uint64_t ts_model_head_dim(const ts_model *m);
/** Query width (heads * head_dim) and key/value width (kv_heads * head_dim). */
uint64_t ts_model_q_dim(const ts_model *m);
uint64_t ts_model_kv_dim(const ts_model *m);
/** Logits a token's loss runs over: the vocabulary with an LM head, else 0 (a pooler or
 *  a classifier scores a sequence once). */
uint64_t ts_model_logit_width(const ts_model *m);
/** 1 when the MLP is a mixture of experts. */
int ts_model_is_moe(const ts_model *m);
/** Layers with experts among layers [first, first + count): the first first_dense_layers
 *  are dense, then every moe_every-th (all when 0 or 1). */
uint64_t ts_model_moe_layers_in(const ts_model *m, uint64_t first, uint64_t count);
/** Width of one value head (MLA's v_head_dim, else head_dim). */
uint64_t ts_model_v_head_dim(const ts_model *m);
/** Forward FLOPs per token of attention's two products (scores and their product with the
 *  values), all layers: 2 x keys attended x heads x (q/k head + value head) per layer
 *  (PaLM's 6N + 12LHQT convention, keys not halved for causality); with `windowed`, a
 *  layer with a sliding window attends to min(seq, window) keys. */
double ts_model_attention_flops(const ts_model *m, uint64_t seq, int windowed);

/* One matrix multiply of a layer's forward pass, as ts_model_layer_mms lists them: how a
 * tensor-parallel rank holds its output. */
typedef enum ts_mm_kind {
    TS_MM_COLUMN = 0, /* output split over the ranks (q, gate, up, MLA's up-projections) */
    TS_MM_KV,         /* keys or values: split, replicated where kv heads are fewer than ranks */
    TS_MM_QKV,        /* q, k and v from one projection */
    TS_MM_ROW,        /* hidden-wide output, partial sums under tensor parallelism (o, down) */
    TS_MM_WHOLE,      /* replicated: MLA's down-projections, LoRA's A, a shared-expert gate */
    TS_MM_ROUTER,     /* the MoE router */
    TS_MM_EXPERT      /* a routed expert's matrix or its adapter: each token's k copies */
} ts_mm_kind;

typedef struct ts_layer_mm {
    double in, out; /* the weight's features, in x out (a LoRA B: rank x its base's out) */
    int kind;       /* ts_mm_kind */
    int bias;       /* it adds a bias (one addmm rather than an mm) */
} ts_layer_mm;

#define TS_LAYER_MMS_MAX 40

/* The matrix multiplies of one layer's forward pass (an MoE layer when `moe`), in the order
 * the reference modules run them (torchtitan's and Hugging Face's: q, k, v or the fused
 * projection, MLA's down- and up-projections, o; gate, up, down; an MoE layer's router, its
 * experts, its shared experts as one MLP of shared-experts x shared-expert-ffn and their
 * gate), each LoRA adapter's A and B after its base layer. Fills at most TS_LAYER_MMS_MAX
 * entries of `out`; returns how many. Their in x out sum to the layer's matrix parameters
 * (an MoE layer's with one routed expert, the one each token copy goes through). */
size_t ts_model_layer_mms(const ts_model *m, int moe, uint64_t lora_rank, unsigned lora_targets,
                          ts_layer_mm *out);

/* One tensor-parallel rank's share of a matmul of ts_model_layer_mms, as features in x out:
 * column-parallel outputs split over t, keys and values over min(t, kv heads) (a head
 * replicated where t exceeds them), a fused q/k/v projection as its parts, row-parallel
 * inputs over t; replicated kinds whole. */
void ts_mm_rank_shape(const ts_model *m, const ts_layer_mm *mm, double t, double *in, double *out);

/* Trainable LoRA parameters of one layer, unsharded: an adapter of rank r on an (in x out)
 * matrix adds A (in x r) and B (r x out); targets are TS_LORA_* bits. */
double ts_model_lora_layer_params(const ts_model *m, uint64_t rank, unsigned targets);

/* Adafactor's factored second moment: rows + columns per matrix, whole vectors. */
double ts_model_adafactor_elements(const ts_model *m, const ts_param_counts *pc);

/** Built-in presets. */
const ts_model *ts_preset_find(const char *name); /* ignoring case, -, _ and spaces; NULL if none */

/** Parse a Hugging Face config.json text into `out` (replacing all of it). Unknown keys
 *  are ignored; a missing or invalid key needed by the model type names that key in
 *  err. Bounded by TRAINSIZE_HF_CONFIG_MAX_BYTES and TRAINSIZE_HF_CONFIG_MAX_DEPTH. */
int ts_hf_config_parse(const char *json, size_t len, ts_model *out, trainsize_error *err);

#endif

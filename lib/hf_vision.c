/* The vision towers and projectors of multimodal config.json files, counted exactly.
 *
 * Each reader follows its family's modelling file in transformers (models/<type>/
 * modeling_<type>.py): the tower's layers are the model's vision_layers (their matrices
 * counted by vision.c), everything else it holds is summed here into vision_other, and the
 * projector into projector. tests/test_multimodal.c checks each against the checkpoint's
 * published total; docs/methodology.md ("Multimodal models") lists what each holds. */
#include <inttypes.h>
#include <string.h>

#include "checked.h"
#include "error.h"
#include "hf_keys.h"
#include "hf_vision.h"

#define HF_MAX_IMAGE UINT64_C(100000) /* pixels a side */
#define HF_MAX_TILES UINT64_C(1000)
#define HF_MAX_VISION_PARAMS UINT64_C(1000000000000) /* vision-other-params' and projector-params' range */

/* The tower's shape keys, named as the family names them. */
typedef struct tower_keys {
    const char *layers, *hidden, *heads, *ffn;
} tower_keys;

static const tower_keys VIT_KEYS = {"num_hidden_layers", "hidden_size", "num_attention_heads",
                                    "intermediate_size"};

static int read_tower(const ts_json_value *v, const tower_keys *k, ts_model *m, trainsize_error *err)
{
    int rc;
    if ((rc = ts_hf_size(v, k->layers, HF_MAX_LAYERS, &m->vision_layers, err)) ||
        (rc = ts_hf_size(v, k->hidden, HF_MAX_HIDDEN, &m->vision_hidden, err)) ||
        (rc = ts_hf_size(v, k->heads, HF_MAX_HEADS, &m->vision_heads, err)) ||
        (rc = ts_hf_size(v, k->ffn, HF_MAX_FFN, &m->vision_ffn, err)))
        return rc;
    if (m->vision_hidden % m->vision_heads != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, k->heads,
                       HF_PREFIX "vision_config \"%s\" %" PRIu64 " does not divide \"%s\" %" PRIu64,
                       k->heads, m->vision_heads, k->hidden, m->vision_hidden);
    return TRAINSIZE_OK;
}

/* Patches a side of a square image: image_size / patch_size, which must be at least 1. */
static int patches_side(const ts_json_value *v, uint64_t *side, uint64_t *patch, trainsize_error *err)
{
    uint64_t image = 0;
    int rc;
    if ((rc = ts_hf_size(v, "image_size", HF_MAX_IMAGE, &image, err)) ||
        (rc = ts_hf_size(v, "patch_size", HF_MAX_IMAGE, patch, err)))
        return rc;
    if (*patch > image)
        return ts_fail(err, TRAINSIZE_E_INVALID, "patch_size",
                       HF_PREFIX "vision_config \"patch_size\" %" PRIu64 " is larger than \"image_size\" %" PRIu64,
                       *patch, image);
    *side = image / *patch;
    return TRAINSIZE_OK;
}

/* Checked sums of products: each reader adds its terms, then fails once. */
typedef struct sum {
    uint64_t v;
    int bad;
} sum;

static void add(sum *s, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t x = 0;
    s->bad |= ts_mul3_u64(a, b, c, &x);
    s->bad |= ts_add_u64(s->v, x, &s->v);
}

/* A pre-norm ViT layer's vectors beside its matrices: LayerNorms (weight and bias) before
 * attention and the MLP, and, with `attn_bias`, biases on q, k, v and o; the MLP's two
 * biases (CLIP, SigLIP, Llama 4's and Llama 3.2 Vision's encoders). */
static void vit_layer_vectors(sum *s, const ts_model *m, int attn_bias)
{
    uint64_t h = m->vision_hidden;
    add(s, m->vision_layers, 4 + (attn_bias ? 4 : 0) + 1, h);
    add(s, m->vision_layers, m->vision_ffn, 1);
}

static int finish(const sum *other, const sum *projector, ts_model *m, trainsize_error *err)
{
    if (other->bad || projector->bad || other->v > HF_MAX_VISION_PARAMS ||
        projector->v > HF_MAX_VISION_PARAMS || m->vision_patches > TS_LIM_POSITIONS)
        return ts_fail(err, TRAINSIZE_E_INVALID, "vision_config",
                       HF_PREFIX "vision_config: the vision tower is beyond the sizes modelled");
    m->vision_other = other->v;
    m->projector = projector->v;
    return TRAINSIZE_OK;
}

/* LLaVA (LlavaForConditionalGeneration): a CLIP vision tower (class token, bias-free patch
 * convolution, a position per patch and the class token, LayerNorms before and after the
 * layers) and a two-layer MLP projector with biases (multimodal_projector_bias, true by
 * default) from the tower's features (several layers' when vision_feature_layer is a list)
 * to the text's hidden. The "default" feature strategy drops the class token: an image
 * takes patches tokens; "full" keeps it. */
static int llava(const ts_json_value *root, const ts_json_value *v, ts_model *m, trainsize_error *err)
{
    sum other = {0, 0}, proj = {0, 0};
    uint64_t side = 0, patch = 0, channels = 3, h, t = m->hidden, feature_layers = 1, in;
    int rc, bias = 1;
    ts_json_value layers, item, strategy;
    if ((rc = read_tower(v, &VIT_KEYS, m, err)) || (rc = patches_side(v, &side, &patch, err)) ||
        (rc = ts_hf_size_or(v, "num_channels", 10000, 3, &channels, err)) ||
        (rc = ts_hf_bool_or(root, "multimodal_projector_bias", 1, &bias, err)))
        return rc;
    if (ts_json_object_get(root, "vision_feature_layer", &layers) && layers.type == TS_JSON_ARRAY) {
        size_t cursor = 0;
        feature_layers = 0;
        while (ts_json_array_next(&layers, &cursor, &item)) feature_layers++;
        if (feature_layers == 0) feature_layers = 1;
    }
    h = m->vision_hidden;
    m->vision_patches = side * side + 1;
    m->image_tokens = side * side;
    if (ts_json_object_get(root, "vision_feature_select_strategy", &strategy) &&
        ts_json_string_equals(&strategy, "full"))
        m->image_tokens = m->vision_patches;
    add(&other, 1, h, 1);                      /* class token */
    add(&other, channels * patch, patch, h);   /* patch convolution, no bias */
    add(&other, m->vision_patches, h, 1);      /* positions */
    add(&other, 4, h, 1);                      /* pre_layrnorm, post_layernorm */
    vit_layer_vectors(&other, m, 1);
    in = feature_layers * h;
    add(&proj, in, t, 1);
    add(&proj, t, t, 1);
    if (bias) add(&proj, 2, t, 1);
    return finish(&other, &proj, m, err);
}

/* Llama 4 (Llama4VisionModel): the patch projection as a bias-free linear layer, a class
 * token and a position per patch and the class token, LayerNorms before and after the
 * layers; the pixel-shuffle adapter (fc1 intermediate_size x projector_input_dim, fc2
 * projector_input_dim x projector_output_dim, no biases) and the projector to the text
 * (vision_output_dim x hidden, bias multi_modal_projector_bias). Pixel shuffle merges
 * 1 / ratio^2 patches into each image token; an image is a 336 x 336 tile. */
static int llama4(const ts_json_value *root, const ts_json_value *v, ts_model *m, trainsize_error *err)
{
    sum other = {0, 0}, proj = {0, 0};
    uint64_t side = 0, patch = 0, channels = 3, h, pin = 0, pout = 0, vout = 0;
    double ratio = 0.5;
    int rc, bias = 0;
    ts_json_value r;
    (void)root;
    if ((rc = read_tower(v, &VIT_KEYS, m, err)) || (rc = patches_side(v, &side, &patch, err)) ||
        (rc = ts_hf_size_or(v, "num_channels", 10000, 3, &channels, err)) ||
        (rc = ts_hf_size(v, "projector_input_dim", HF_MAX_HIDDEN, &pin, err)) ||
        (rc = ts_hf_size(v, "projector_output_dim", HF_MAX_HIDDEN, &pout, err)) ||
        (rc = ts_hf_size(v, "vision_output_dim", HF_MAX_HIDDEN, &vout, err)) ||
        (rc = ts_hf_bool_or(v, "multi_modal_projector_bias", 0, &bias, err)))
        return rc;
    if (ts_json_object_get(v, "pixel_shuffle_ratio", &r) && !ts_json_is_null(&r) &&
        (rc = ts_hf_prefixed(err, ts_json_get_double(&r, "pixel_shuffle_ratio", &ratio, err))))
        return rc;
    if (!(ratio > 0.0 && ratio <= 1.0))
        return ts_fail(err, TRAINSIZE_E_INVALID, "pixel_shuffle_ratio",
                       HF_PREFIX "vision_config \"pixel_shuffle_ratio\" must be in (0, 1]");
    h = m->vision_hidden;
    m->vision_patches = side * side + 1;
    m->image_tokens = (uint64_t)((double)(side * side) * ratio * ratio);
    add(&other, channels * patch, patch, h);
    add(&other, 1, h, 1);
    add(&other, m->vision_patches, h, 1);
    add(&other, 4, h, 1);
    vit_layer_vectors(&other, m, 1);
    add(&proj, m->vision_ffn, pin, 1);
    add(&proj, pin, pout, 1);
    add(&proj, vout, m->hidden, 1);
    if (bias) add(&proj, m->hidden, 1, 1);
    return finish(&other, &proj, m, err);
}

/* Gemma 3 (SigLIP's vision model): a patch convolution with a bias, a position per patch
 * (no class token), a LayerNorm after the layers, and SigLIP's attention-pooling head when
 * vision_use_head; the projector an RMSNorm of the tower's width and a bias-free matrix to
 * the text (Gemma3MultiModalProjector), after pooling to mm_tokens_per_image tokens. */
static int gemma3(const ts_json_value *root, const ts_json_value *v, ts_model *m, trainsize_error *err)
{
    sum other = {0, 0}, proj = {0, 0};
    uint64_t side = 0, patch = 0, channels = 3, h, tokens = 256;
    int rc, head = 1;
    if ((rc = read_tower(v, &VIT_KEYS, m, err)) || (rc = patches_side(v, &side, &patch, err)) ||
        (rc = ts_hf_size_or(v, "num_channels", 10000, 3, &channels, err)) ||
        (rc = ts_hf_bool_or(v, "vision_use_head", 1, &head, err)) ||
        (rc = ts_hf_size_or(root, "mm_tokens_per_image", HF_MAX_POSITIONS, 256, &tokens, err)))
        return rc;
    h = m->vision_hidden;
    m->vision_patches = side * side;
    if (tokens > m->vision_patches)
        return ts_fail(err, TRAINSIZE_E_INVALID, "mm_tokens_per_image",
                       HF_PREFIX "\"mm_tokens_per_image\" %" PRIu64 " is more than the %" PRIu64 " patches",
                       tokens, m->vision_patches);
    m->image_tokens = tokens;
    add(&other, channels * patch, patch, h);
    add(&other, 1, h, 1);
    add(&other, m->vision_patches, h, 1);
    add(&other, 2, h, 1);
    vit_layer_vectors(&other, m, 1);
    if (head) {
        /* probe, nn.MultiheadAttention (in_proj 3h x h and bias, out_proj), LayerNorm, MLP */
        add(&other, 1, h, 1);
        add(&other, 4 * h + 4, h, 1);
        add(&other, 2, h, 1);
        add(&other, 2 * h, m->vision_ffn, 1);
        add(&other, 1, m->vision_ffn + h, 1);
    }
    add(&proj, h, m->hidden, 1);
    add(&proj, h, 1, 1);
    return finish(&other, &proj, m, err);
}

/* Qwen2.5-VL (Qwen2_5_VisionTransformerPretrainedModel): a bias-free 3-D patch convolution
 * over temporal_patch_size frames, rotary positions (no table), RMSNorms, a fused qkv and
 * an output projection with biases, a gated MLP with biases; the merger (the projector) an
 * RMSNorm and a two-layer MLP with biases over spatial_merge_size^2 patches at a time. The
 * image size is the processor's choice, not the config's: the reader takes 448 x 448
 * (1,024 patches, 256 tokens); set vision-patches and image-tokens for another. Its
 * windowed attention is counted as full (an upper bound on the tower's attention). */
static int qwen2_5_vl(const ts_json_value *root, const ts_json_value *v, ts_model *m,
                      trainsize_error *err)
{
    static const tower_keys KEYS = {"depth", "hidden_size", "num_heads", "intermediate_size"};
    sum other = {0, 0}, proj = {0, 0};
    uint64_t patch = 14, temporal = 2, merge = 2, channels = 3, out = m->hidden, h, wide;
    int rc;
    (void)root;
    if ((rc = read_tower(v, &KEYS, m, err)) ||
        (rc = ts_hf_size_or(v, "patch_size", HF_MAX_IMAGE, 14, &patch, err)) ||
        (rc = ts_hf_size_or(v, "temporal_patch_size", 100, 2, &temporal, err)) ||
        (rc = ts_hf_size_or(v, "spatial_merge_size", 100, 2, &merge, err)) ||
        (rc = ts_hf_size_or(v, "in_chans", 10000, 3, &channels, err)) ||
        (rc = ts_hf_size_or(v, "out_hidden_size", HF_MAX_HIDDEN, m->hidden, &out, err)))
        return rc;
    h = m->vision_hidden;
    m->vision_gated = 1;
    m->vision_patches = (448 / patch) * (448 / patch);
    m->image_tokens = m->vision_patches / (merge * merge);
    if (m->vision_patches == 0 || m->image_tokens == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "patch_size",
                       HF_PREFIX "vision_config \"patch_size\" and \"spatial_merge_size\" leave no "
                                 "tokens of a 448 x 448 image");
    add(&other, channels * temporal, patch * patch, h);
    /* a layer's vectors: qkv (3h) and proj (h) biases, gate/up (2f) and down (h) biases,
     * two RMSNorms (2h) */
    add(&other, m->vision_layers, 7 * h + 2 * m->vision_ffn, 1);
    wide = h * merge * merge;
    add(&proj, h, 1, 1);
    add(&proj, wide + 1, wide, 1);
    add(&proj, wide + 1, out, 1);
    return finish(&other, &proj, m, err);
}

/* The length of an optional list (0 when absent). */
static uint64_t list_length(const ts_json_value *obj, const char *key)
{
    ts_json_value list, item;
    size_t cursor = 0;
    uint64_t n = 0;
    if (!ts_json_object_get(obj, key, &list) || list.type != TS_JSON_ARRAY) return 0;
    while (ts_json_array_next(&list, &cursor, &item)) n++;
    return n;
}

/* Llama 3.2 Vision (MllamaVisionModel): num_hidden_layers local and num_global_layers
 * gated global layers (two tanh gates each), attention without biases; a class token, a
 * bias-free patch convolution, a gated position embedding per patch and the class token
 * with a gated tile embedding for each aspect ratio (max_num_tiles tiles), gated
 * pre- and post-tile embeddings, LayerNorms before and after; the text embedding's 8 rows
 * for image tokens (MllamaTextModel: vocab_size + 8). The projector is one matrix with a
 * bias from vision_output_dim (the last layer's and intermediate layers' features) to the
 * text. An image is max_num_tiles tiles, each of patches + 1 padded to a multiple of 8;
 * it reaches the text by the cross-attention layers. */
static int mllama(const ts_json_value *root, const ts_json_value *v, ts_model *m, trainsize_error *err)
{
    static const tower_keys KEYS = {"num_hidden_layers", "hidden_size", "attention_heads",
                                    "intermediate_size"};
    sum other = {0, 0}, proj = {0, 0};
    uint64_t side = 0, patch = 0, channels = 3, tiles = 4, global = 8, vout = 0, h, ratios, tile;
    int rc;
    (void)root;
    if ((rc = read_tower(v, &KEYS, m, err)) || (rc = patches_side(v, &side, &patch, err)) ||
        (rc = ts_hf_size_or(v, "num_channels", 10000, 3, &channels, err)) ||
        (rc = ts_hf_size_or(v, "max_num_tiles", HF_MAX_TILES, 4, &tiles, err)) ||
        (rc = ts_hf_count_or(v, "num_global_layers", HF_MAX_LAYERS, 8, &global, err)) ||
        (rc = ts_hf_size(v, "vision_output_dim", HF_MAX_HIDDEN, &vout, err)))
        return rc;
    if (m->vision_layers + global > HF_MAX_LAYERS)
        return ts_fail(err, TRAINSIZE_E_INVALID, "num_global_layers",
                       HF_PREFIX "vision_config \"num_global_layers\" is beyond the layers modelled");
    ratios = list_length(v, "supported_aspect_ratios");
    if (ratios == 0) ratios = 8; /* MllamaVisionConfig's default list */
    h = m->vision_hidden;
    m->vision_layers += global;
    tile = side * side + 1;
    m->vision_patches = tiles * ((tile + 7) / 8 * 8);
    m->image_tokens = 0;
    add(&other, channels * patch, patch, h);
    add(&other, 1, h, 1);
    add(&other, tile, h, 1);
    add(&other, 3, 1, 1); /* the three embedding gates */
    add(&other, (ratios + 1) * tiles, tile, h);
    add(&other, 2 * (ratios + 1), tiles, h);
    add(&other, 4, h, 1);
    vit_layer_vectors(&other, m, 0);
    add(&other, 2, global, 1);
    add(&other, 8, m->hidden, 1);
    add(&proj, vout + 1, m->hidden, 1);
    return finish(&other, &proj, m, err);
}

/* Llama 3.2 Vision's text model: cross_attention_layers lists the layers that attend to
 * the image (each with q and k norms and two gates, vision.c). */
int ts_hf_mllama_text(const hf_type *t, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    (void)t;
    m->cross_attention_layers = list_length(root, "cross_attention_layers");
    if (m->cross_attention_layers > m->layers)
        return ts_fail(err, TRAINSIZE_E_INVALID, "cross_attention_layers",
                       HF_PREFIX "\"cross_attention_layers\" lists more layers than \"num_hidden_layers\"");
    return TRAINSIZE_OK;
}

typedef int (*vision_fn)(const ts_json_value *root, const ts_json_value *v, ts_model *m,
                         trainsize_error *err);

static const struct {
    const char *type;
    vision_fn read;
} READERS[] = {
    {"llava", llava}, {"llama4", llama4}, {"gemma3", gemma3}, {"qwen2_5_vl", qwen2_5_vl},
    {"mllama", mllama},
};

int ts_hf_vision(const char *model_type, const ts_json_value *root, ts_model *m, trainsize_error *err)
{
    size_t i;
    ts_json_value v;
    for (i = 0; i < sizeof READERS / sizeof READERS[0]; i++) {
        if (strcmp(model_type, READERS[i].type) != 0) continue;
        if (!ts_json_object_get(root, "vision_config", &v) || v.type != TS_JSON_OBJECT)
            return ts_fail(err, TRAINSIZE_E_INVALID, "vision_config",
                           HF_PREFIX "model_type \"%s\" needs a \"vision_config\" object", model_type);
        return READERS[i].read(root, &v, m, err);
    }
    return TRAINSIZE_OK;
}

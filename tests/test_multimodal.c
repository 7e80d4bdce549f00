/* Multimodal models: vision towers and projectors counted against the checkpoints'
 * published totals, the tower's forward FLOPs against OpenCLIP's profile, what freezing the
 * tower changes (trainable parameters, gradients, activations, FLOPs), images in the
 * sequence, and the errors a bad job or config gets. */
#include "model.h"
#include "ts_test.h"


/* Totals as sum(p.numel() for p in model.parameters()) prints them for the transformers
 * class of each checkpoint (LlavaForConditionalGeneration, Gemma3ForConditionalGeneration,
 * Qwen2_5_VLForConditionalGeneration, MllamaForConditionalGeneration,
 * Llama4ForConditionalGeneration), the Hub's safetensors totals: llava-hf/llava-1.5-7b-hf
 * 7,063,427,072; google/gemma-3-4b-it 4,300,079,472; Qwen/Qwen2.5-VL-7B-Instruct
 * 8,292,166,656, of which its `visual` module (tower and merger) 676,550,144;
 * meta-llama/Llama-3.2-11B-Vision 10,670,220,835; meta-llama/Llama-4-Scout-17B-16E
 * 108,641,793,536 (the Hub page's figure). LLaVA's CLIP ViT-L/14-336 is 303,507,456 as
 * CLIPVisionModel (OpenCLIP's profile: 304.29 M image parameters, its projection head
 * included). */
static void test_published_totals(void **state)
{
    static const struct {
        const char *file;
        uint64_t total, vision_and_projector;
    } rows[] = {
        {"llava-1.5-7b-hf.json", UINT64_C(7063427072), UINT64_C(303507456) + UINT64_C(20979712)},
        {"gemma-3-4b-it.json", UINT64_C(4300079472), UINT64_C(416866032) + UINT64_C(2950272)},
        {"Qwen2.5-VL-7B-Instruct.json", UINT64_C(8292166656), UINT64_C(676550144)},
        {"Llama-3.2-11B-Vision.json", UINT64_C(10670220835), 0},
        {"Llama-4-Scout-17B-16E.json", UINT64_C(108641793536), UINT64_C(871932416)},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ts_model m;
        ts_param_counts c;
        ts_test_load_hf(rows[i].file, &m, &c);
        if (c.total != rows[i].total)
            fail_msg("%s: %llu, published %llu", rows[i].file, (unsigned long long)c.total,
                     (unsigned long long)rows[i].total);
        if (rows[i].vision_and_projector) assert_int_equal(c.vision + c.projector, rows[i].vision_and_projector);
    }
    {
        ts_model m;
        ts_param_counts c;
        ts_test_load_hf("llava-1.5-7b-hf.json", &m, &c);
        assert_int_equal(c.vision, UINT64_C(303507456));
        assert_int_equal(m.image_tokens, 576); /* 24 x 24 patches, the class token dropped */
        assert_int_equal(m.vision_patches, 577);
        ts_test_load_hf("Llama-3.2-11B-Vision.json", &m, &c);
        assert_int_equal(m.cross_attention_layers, 8);
        assert_int_equal(m.image_tokens, 0);
        ts_test_load_hf("Llama-4-Scout-17B-16E.json", &m, &c);
        assert_int_equal(m.image_tokens, 144); /* pixel shuffle 0.5: 576 patches / 4 */
    }
}

/* OpenCLIP's model profile (https://github.com/mlfoundations/open_clip/blob/main/docs/
 * model_profile.csv) gives ViT-L-14-336 381.92 image GFLOPs a forward; LLaVA-1.5's tower is
 * that network. Ours leaves out the patch projection (0.7 GFLOPs), so it reads a little
 * lower. */
static void test_tower_flops(void **state)
{
    ts_model m;
    ts_param_counts c;
    double projector = 0.0, tower;
    (void)state;
    ts_test_load_hf("llava-1.5-7b-hf.json", &m, &c);
    tower = ts_model_vision_flops(&m, &projector) - projector;
    print_message("CLIP ViT-L/14-336: %.2f GFLOPs a forward (OpenCLIP 381.92)\n", tower / 1e9);
    assert_true(tower < 381.92e9 && tower > 381.92e9 * 0.995);
    /* the projector runs once per image token */
    assert_true(projector == 2.0 * 20979712.0 * 576.0);
}

/* A frozen tower (the default) is held but not trained: no gradients, no optimizer state,
 * no activations, one forward an image; trained, it is part of every one. */
static void test_freeze(void **state)
{
    trainsize_result frozen, trained, none;
    double per_param_frozen, per_param_trained, step_frozen, step_trained, tower, projector = 0.0;
    ts_model m;
    ts_param_counts c;
    (void)state;
    ts_test_load_hf("llava-1.5-7b-hf.json", &m, &c);
    tower = ts_model_vision_flops(&m, &projector) - projector;
    ts_test_estimate(PAIRS("model", "llava-1.5-7b", "gpu", "h100-80gb", "micro-batch", "1", "seq", "2048"), &frozen);
    ts_test_estimate(PAIRS("model", "llava-1.5-7b", "gpu", "h100-80gb", "micro-batch", "1", "seq", "2048",
                           "freeze-vision", "false"), &trained);
    ts_test_estimate(PAIRS("model", "llava-1.5-7b", "gpu", "h100-80gb", "micro-batch", "1", "seq", "2048",
                           "images", "0"), &none);
    assert_int_equal(frozen.model.parameters, UINT64_C(7063427072));
    assert_int_equal(frozen.model.vision_parameters, UINT64_C(303507456));
    assert_int_equal(frozen.model.projector_parameters, UINT64_C(20979712));
    assert_int_equal(frozen.model.trainable_parameters, UINT64_C(7063427072) - UINT64_C(303507456));
    assert_int_equal(trained.model.trainable_parameters, UINT64_C(7063427072));
    /* the tower never adds to the active parameters a token goes through */
    assert_int_equal(frozen.model.active_parameters, UINT64_C(7063427072) - UINT64_C(303507456) - UINT64_C(20979712));
    /* gradients and optimizer state follow the trainable parameters, byte for byte a parameter */
    per_param_frozen = (double)frozen.memory.gradients / (double)frozen.model.trainable_parameters;
    per_param_trained = (double)trained.memory.gradients / (double)trained.model.trainable_parameters;
    assert_true(fabs(per_param_frozen - per_param_trained) < 1e-6);
    assert_true(trained.memory.optimizer > frozen.memory.optimizer);
    assert_true(frozen.memory.vision_weights > 0 && trained.memory.vision_weights > 0);
    assert_int_equal(frozen.memory.activations_vision, 0);
    assert_true(trained.memory.activations_vision > 0);
    /* a trained tower keeps what the same stack of layers keeps as a text model under the
     * same stack's kernels (CLIP ViT-L/14-336: 24 pre-LayerNorm layers of 1024, GELU MLP of
     * 4096, biases, 577 positions), its 8-token output layer aside */
    {
        trainsize_result stack;
        ts_test_estimate(PAIRS("layers", "24", "hidden", "1024", "heads", "16", "ffn", "4096", "vocab", "8",
                               "positions", "577", "gated-mlp", "false", "norm", "layernorm", "bias", "all",
                               "gpu", "h100-80gb", "micro-batch", "1", "seq", "577"), &stack);
        assert_true(fabs((double)trained.memory.activations_vision - (double)stack.memory.activations_layers) <
                    1e-3 * (double)stack.memory.activations_layers);
    }
    /* FLOPs: a frozen tower runs forward once an image, the projector forward and its weight
     * gradients; a trained one both three times (forward, backward) */
    step_frozen = frozen.time.step_flops - none.time.step_flops;
    step_trained = trained.time.step_flops - none.time.step_flops;
    assert_true(fabs(step_frozen - (tower + 2.0 * projector)) < 1e-9 * frozen.time.step_flops);
    assert_true(fabs(step_trained - 3.0 * (tower + projector)) < 1e-9 * trained.time.step_flops);
    /* with no images the tower is still loaded */
    assert_int_equal(none.memory.vision_weights, frozen.memory.vision_weights);
}

/* seq counts the image tokens (as TRL's max_length does): images must fit in it. */
static void test_images_in_sequence(void **state)
{
    trainsize_error err;
    trainsize_result one, two, three;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llava-1.5-7b", "seq", "512"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "images");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llava-1.5-7b", "seq", "2048", "images", "4"), &err),
                     TRAINSIZE_E_INVALID);
    ts_test_estimate(PAIRS("model", "gemma-3-4b", "seq", "2048", "images", "1", "freeze-vision", "false"), &one);
    ts_test_estimate(PAIRS("model", "gemma-3-4b", "seq", "2048", "images", "2", "freeze-vision", "false"), &two);
    ts_test_estimate(PAIRS("model", "gemma-3-4b", "seq", "2048", "images", "3", "freeze-vision", "false"), &three);
    /* every image adds its patches' activations (the weights' 16-bit copies once) */
    assert_true(two.memory.activations_vision > one.memory.activations_vision);
    assert_true(fabs((double)(three.memory.activations_vision - two.memory.activations_vision) -
                     (double)(two.memory.activations_vision - one.memory.activations_vision)) <= 2.0);
    /* cross-attention models put no image tokens in the sequence */
    ts_test_estimate(PAIRS("model", "llama-3.2-11b-vision", "seq", "512", "images", "2"), &one);
    assert_int_equal(one.model.parameters, UINT64_C(10670220835));
}

/* Jobs the model refuses, each naming its field. */
static void test_refusals(void **state)
{
    static const struct { const char *name, *value, *field; int code; } rows[] = {
        {"freeze-vision", "false", "freeze-vision", TRAINSIZE_E_UNSUPPORTED}, /* with LoRA below */
    };
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llava-1.5-7b", "lora-rank", "16", rows[0].name,
                                               rows[0].value), &err), rows[0].code);
    assert_string_equal(err.field, rows[0].field);
    /* LoRA keeps the tower frozen and trains the projector in full */
    {
        trainsize_result r;
        ts_test_estimate(PAIRS("model", "llava-1.5-7b", "lora-rank", "16"), &r);
        assert_true(r.model.trainable_parameters > UINT64_C(20979712));
        assert_true(r.model.trainable_parameters < UINT64_C(100000000));
    }
    /* a tower's shape without its layers */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "image-tokens", "576"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "vision-layers");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "vision-layers", "24"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "vision-hidden");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "vision-layers", "24", "vision-hidden", "1000",
                                               "vision-heads", "16", "vision-ffn", "4096", "vision-patches", "577"),
                                         &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "vision-heads");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-3.2-11b-vision", "cross-attention-layers", "41"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "cross-attention-layers");
}

/* Bad multimodal configs get an error naming the key, never a crash or a partial model. */
static void test_bad_configs(void **state)
{
    static const struct { const char *json, *field; } rows[] = {
        {"{\"model_type\": \"llava\", \"text_config\": {}}", "vision_config"},
        {"{\"model_type\": \"llava\", \"text_config\": {}, \"vision_config\": {\"hidden_size\": 1024}}",
         "num_hidden_layers"},
        {"{\"model_type\": \"llava\", \"text_config\": {}, \"vision_config\": {\"hidden_size\": 1024, "
         "\"num_hidden_layers\": 24, \"num_attention_heads\": 16, \"intermediate_size\": 4096, "
         "\"image_size\": 14, \"patch_size\": 336}}", "patch_size"},
        {"{\"model_type\": \"llava\", \"text_config\": {\"model_type\": \"llava\"}, \"vision_config\": {}}",
         "text_config"},
        {"{\"model_type\": \"mllama\", \"text_config\": {\"cross_attention_layers\": [1,2]}, \"vision_config\": "
         "{\"hidden_size\": 1280, \"num_hidden_layers\": 32, \"attention_heads\": 16, \"intermediate_size\": 5120, "
         "\"image_size\": 100000, \"patch_size\": 1, \"max_num_tiles\": 1000, \"vision_output_dim\": 7680}}",
         "vision_config"},
        {"{\"model_type\": \"llama4\", \"text_config\": {\"hidden_size\": 5120, \"num_hidden_layers\": 48, "
         "\"num_attention_heads\": 40, \"intermediate_size\": 8192, \"vocab_size\": 202048, "
         "\"num_local_experts\": 16, \"num_experts_per_tok\": 1}, \"vision_config\": {\"hidden_size\": 1408, "
         "\"num_hidden_layers\": 34, \"num_attention_heads\": 16, \"intermediate_size\": 5632, \"image_size\": 336, "
         "\"patch_size\": 14, \"projector_input_dim\": 4096, \"projector_output_dim\": 4096, "
         "\"vision_output_dim\": 4096, \"pixel_shuffle_ratio\": 2.5}}", "pixel_shuffle_ratio"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ts_model m;
        trainsize_error err;
        int rc = ts_hf_config_parse(rows[i].json, strlen(rows[i].json), &m, &err);
        if (rc == TRAINSIZE_OK) fail_msg("row %zu parsed", i);
        if (strcmp(err.field, rows[i].field) != 0) fail_msg("row %zu: field %s: %s", i, err.field, err.message);
        assert_true(strncmp(err.message, "config.json: ", 13) == 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_totals), cmocka_unit_test(test_tower_flops),
        cmocka_unit_test(test_freeze),           cmocka_unit_test(test_images_in_sequence),
        cmocka_unit_test(test_refusals),         cmocka_unit_test(test_bad_configs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

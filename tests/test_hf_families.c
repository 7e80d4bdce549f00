/* The 2024-2026 model families read from their real config.json files (tests/data/hf,
 * SOURCES.md there says where each copy comes from), counted exactly against each
 * checkpoint's published parameter count, with the mechanisms each family brings. The
 * counts follow transformers' modules; where a published figure counts differently (a
 * stored lm_head copy, an input embedding left out of "active") the test says how. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "ts_test.h"

#ifndef TS_TEST_DATA_DIR
#define TS_TEST_DATA_DIR "tests/data"
#endif



/* Published exactly (safetensors totals: the Hub's count of the checkpoint's tensors, or
 * its index's total_size over the bytes per element). */
static const struct { const char *file; uint64_t total; const char *source; } exact[] = {
    {"Qwen3-8B.json", UINT64_C(8190735360),
     "model.safetensors.index.json total_size 16,381,470,720 bytes, all bf16"},
    {"Qwen3-30B-A3B.json", UINT64_C(30532122624),
     "model.safetensors.index.json total_size 61,064,245,248 bytes, all bf16"},
    {"Qwen1.5-MoE-A2.7B-Chat.json", UINT64_C(14315784192),
     "model.safetensors.index.json total_size 28,631,568,384 bytes, all bf16"},
    {"gemma-2-9b.json", UINT64_C(9241705984),
     "Hub safetensors total; gemma-2-9b-it index total_size 18,483,411,968 bytes, bf16"},
    {"gemma-3-1b-it.json", UINT64_C(999885952), "Hub safetensors total"},
    {"OLMo-2-1124-7B-Instruct.json", UINT64_C(7298617344), "Hub safetensors total"},
    {"granite-3.3-8b-instruct.json", UINT64_C(8170864640), "Hub safetensors total"},
    {"DeepSeek-V2-Lite.json", UINT64_C(15706484224),
     "the Hub's total (model card: 15.7B total parameters)"},
    /* DeepSeek-V3's README: 671B main model weights (the 14B multi-token-prediction module
     * apart); exactly 671,026,419,200 tensor elements in layers 0-60, embedding, norm and
     * head, the routers' score-correction biases included. */
    {"DeepSeek-V3.json", UINT64_C(671026419200), "README: 671B main model weights"},
    {"Phi-3.5-MoE-instruct.json", UINT64_C(41873153344),
     "model page 41.9B; 41,873,153,344 in a published per-tensor breakdown"},
};

static void test_exact_totals(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof exact / sizeof exact[0]; i++) {
        ts_model m;
        ts_param_counts c;
        ts_test_load_hf(exact[i].file, &m, &c);
        if (c.total != exact[i].total)
            fail_msg("%s: counted %llu, published %llu (%s)", exact[i].file,
                     (unsigned long long)c.total, (unsigned long long)exact[i].total, exact[i].source);
    }
}

/* Encoders and image transformers, counted as their users quote them: BertModel and
 * RobertaModel with the pooler (transformers' num_parameters()), and ViT-B/16 as the
 * ImageNet-1k classifier, 86,567,656 (torchvision's vit_b_16 documentation, num_params;
 * the Hub's ViTForImageClassification has the same modules). The configs give the
 * presets' shapes. */
static void test_encoders(void **state)
{
    static const struct { const char *file, *preset; uint64_t total; } rows[] = {
        {"bert-base-uncased.json", "bert-base", UINT64_C(109482240)},
        {"roberta-base.json", "roberta-base", UINT64_C(124645632)},
        {"vit-base-patch16-224.json", "vit-b-16", UINT64_C(86567656)},
    };
    size_t i;
    ts_model m_vit;
    ts_param_counts c_vit;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        ts_model m;
        ts_param_counts c, p;
        ts_test_load_hf(rows[i].file, &m, &c);
        if (c.total != rows[i].total)
            fail_msg("%s: counted %llu, published %llu", rows[i].file, (unsigned long long)c.total,
                     (unsigned long long)rows[i].total);
        assert_int_equal(ts_model_count(ts_preset_find(rows[i].preset), &p, NULL), 0);
        assert_int_equal(p.total, c.total);
    }
    ts_test_load_hf("vit-base-patch16-224.json", &m_vit, &c_vit);
    assert_int_equal(m_vit.positions, 197); /* 14 x 14 patches and the class token */
    assert_int_equal(m_vit.classes, 1000);
}

/* Published to a few digits, or counting something else; each line says how. */
static void test_published_figures(void **state)
{
    ts_model m;
    ts_param_counts c;
    (void)state;
    /* gpt-oss model card (OpenAI 2025, arXiv 2508.10925), Table 1: gpt-oss-20b 20.91B
     * total, 3.61B active, the unembedding counted as active and the embedding not. */
    ts_test_load_hf("gpt-oss-20b.json", &m, &c);
    assert_true(fabs((double)c.total / 1e9 - 20.91) < 0.005);
    assert_true(fabs((double)(c.active - c.token_embedding) / 1e9 - 3.61) < 0.005);
    assert_int_equal(m.global_every, 2);
    assert_int_equal(m.sliding_window, 128);
    assert_true(m.attention_sinks && m.router_bias);

    /* falcon-7b: transformers ties lm_head to the embedding; the checkpoint stores it too,
     * and the Hub's total of the stored tensors, 7,217,189,760, counts it once more. */
    ts_test_load_hf("falcon-7b.json", &m, &c);
    assert_int_equal(c.total + m.vocab * m.hidden, UINT64_C(7217189760));
    assert_int_equal(m.kv_heads, 1);
    assert_true(m.parallel_block);
    assert_int_equal(m.norms_per_layer, 1);

    /* Llama 4 Scout: the Hub's 108,641,793,536 is the multimodal checkpoint; its vision
     * tower and projector (vision_config: 34 layers of 1408) are 871,932,416 of it
     * (hf_vision.c counts them), the text model the rest. Model card: 17B active
     * (embedding included; the tower runs per image, not per token). */
    ts_test_load_hf("Llama-4-Scout-17B-16E.json", &m, &c);
    assert_int_equal(c.total, UINT64_C(108641793536));
    assert_int_equal(c.vision + c.projector, UINT64_C(871932416));
    assert_true(fabs((double)c.active / 1e9 - 17.17) < 0.005);

    /* starcoder2-3b: published as 3.03B (tied embeddings; untied would read 3.18B). */
    ts_test_load_hf("starcoder2-3b.json", &m, &c);
    assert_true(fabs((double)c.total / 1e9 - 3.03) < 0.005);
    assert_int_equal(m.sliding_window, 4096);
    assert_int_equal(m.global_every, 0);
}

/* The active counts of the MoE families against their model cards. */
static void test_active_parameters(void **state)
{
    ts_model m;
    ts_param_counts c;
    (void)state;
    /* Qwen3-30B-A3B card: 3.3B activated (truncated, as its 30.5B total is: 30.53B). */
    ts_test_load_hf("Qwen3-30B-A3B.json", &m, &c);
    assert_int_equal((uint64_t)(c.active / UINT64_C(100000000)), 33);
    assert_int_equal((uint64_t)(c.total / UINT64_C(100000000)), 305);
    /* Qwen1.5-MoE-A2.7B: 2.7B activated. */
    ts_test_load_hf("Qwen1.5-MoE-A2.7B-Chat.json", &m, &c);
    assert_true(fabs((double)c.active / 1e9 - 2.7) < 0.05);
    /* Phi-3.5-MoE card: 6.6B active parameters. */
    ts_test_load_hf("Phi-3.5-MoE-instruct.json", &m, &c);
    assert_true(fabs((double)c.active / 1e9 - 6.6) < 0.05);
    /* DeepSeek-V3 README_WEIGHTS (as corrected on the Hub): 36.6B activated, the output
     * head included and the input embedding not. */
    ts_test_load_hf("DeepSeek-V3.json", &m, &c);
    assert_true(fabs((double)(c.active - c.token_embedding) / 1e9 - 36.6) < 0.05);
}

/* Each family's structure as its modelling file builds it. */
static void test_mechanisms(void **state)
{
    ts_model m;
    ts_param_counts c;
    (void)state;
    ts_test_load_hf("DeepSeek-V3.json", &m, &c);
    assert_int_equal(m.q_lora_rank, 1536);
    assert_int_equal(m.kv_lora_rank, 512);
    assert_int_equal(m.head_dim, 192);       /* 128 without rope + 64 with */
    assert_int_equal(m.v_head_dim, 128);
    assert_int_equal(m.first_dense_layers, 3);
    assert_int_equal(c.moe_layers, 58);
    assert_int_equal(m.dense_ffn, 18432);
    assert_int_equal(m.ffn, 2048);
    /* attention: q_a, its norm, q_b, kv_a, its norm, kv_b, o (modeling_deepseek_v3.py) */
    assert_int_equal(c.attention, UINT64_C(187107328));
    assert_int_equal(c.layer_dense, UINT64_C(583483392));
    assert_int_equal(c.layer, UINT64_C(11507286272));
    assert_true(m.router_bias);

    ts_test_load_hf("DeepSeek-V2-Lite.json", &m, &c);
    assert_int_equal(m.q_lora_rank, 0);       /* a full q projection */
    assert_int_equal(c.attention, UINT64_C(13763072));
    assert_int_equal(c.moe_layers, 26);
    assert_false(m.router_bias);

    ts_test_load_hf("Qwen3-8B.json", &m, &c);
    assert_int_equal(m.qk_norm, TRAINSIZE_QK_NORM_HEAD);
    ts_test_load_hf("OLMo-2-1124-7B-Instruct.json", &m, &c);
    assert_int_equal(m.qk_norm, TRAINSIZE_QK_NORM_FULL);
    ts_test_load_hf("gemma-2-9b.json", &m, &c);
    assert_int_equal(m.norms_per_layer, 4);
    assert_int_equal(m.global_every, 2);
    assert_int_equal(m.sliding_window, 4096);
    ts_test_load_hf("gemma-3-1b-it.json", &m, &c);
    assert_int_equal(m.global_every, 6);
    assert_int_equal(m.sliding_window, 512);
    ts_test_load_hf("Qwen1.5-MoE-A2.7B-Chat.json", &m, &c);
    assert_true(m.shared_expert_gate);
    assert_int_equal(m.shared_expert_ffn, 5632);
    ts_test_load_hf("Phi-3.5-MoE-instruct.json", &m, &c);
    assert_int_equal(m.norm, TRAINSIZE_NORM_LAYERNORM);
    assert_int_equal(m.bias, TRAINSIZE_BIAS_ATTENTION);
    assert_true(m.output_bias);
}

/* Attention FLOPs: MLA's query/key heads are wider than its value heads, and a sliding
 * window caps the keys of the local layers when the kernel skips masked blocks. */
static void test_attention_flops(void **state)
{
    ts_model m;
    ts_param_counts c;
    (void)state;
    ts_test_load_hf("DeepSeek-V3.json", &m, &c);
    /* 2 x s x heads x (192 + 128) per layer and token */
    assert_true(ts_model_attention_flops(&m, 4096, 1) == 2.0 * 4096 * 128 * (192 + 128) * 61);
    ts_test_load_hf("gemma-2-9b.json", &m, &c);
    {
        double per_key = 2.0 * 16 * (256 + 256);
        /* 42 layers, every 2nd global: 21 x 8192 keys + 21 x 4096 */
        assert_true(ts_model_attention_flops(&m, 8192, 1) == per_key * (21.0 * 8192 + 21.0 * 4096));
        assert_true(ts_model_attention_flops(&m, 8192, 0) == per_key * 42.0 * 8192);
        assert_true(ts_model_attention_flops(&m, 2048, 1) == per_key * 42.0 * 2048);
    }
}

/* A multimodal Gemma 3 config's text_config carries only what differs from
 * Gemma3TextConfig's defaults (transformers configuration_gemma3.py): vocab 262208, 8
 * heads, 4 key/value heads, head_dim 256. The shape below is the 4B model's text part. */
static void test_sparse_text_config(void **state)
{
    static const char json[] =
        "{\"model_type\": \"gemma3\", \"text_config\": {\"hidden_size\": 2560, "
        "\"intermediate_size\": 10240, \"model_type\": \"gemma3_text\", \"num_hidden_layers\": 34, "
        "\"rope_scaling\": {\"factor\": 8.0, \"rope_type\": \"linear\"}, \"sliding_window\": 1024}, "
        "\"vision_config\": {\"hidden_size\": 1152, \"image_size\": 896, \"intermediate_size\": 4304, "
        "\"model_type\": \"siglip_vision_model\", \"num_attention_heads\": 16, \"num_hidden_layers\": 27, "
        "\"patch_size\": 14, \"vision_use_head\": false}}";
    ts_model m;
    ts_param_counts c;
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_hf_config_parse(json, strlen(json), &m, &err), TRAINSIZE_OK);
    assert_int_equal(ts_model_count(&m, &c, &err), TRAINSIZE_OK);
    assert_int_equal(m.vocab, 262208);
    assert_int_equal(m.heads, 8);
    assert_int_equal(m.kv_heads, 4);
    assert_int_equal(m.head_dim, 256);
    assert_true(m.tied_embeddings);
    /* gemma-3-4b-it's Hub total, 4,300,079,472: its SigLIP tower (416,866,032), projector
     * (2,950,272) and the text model. */
    assert_int_equal(c.vision, UINT64_C(416866032));
    assert_int_equal(c.projector, UINT64_C(2950272));
    assert_int_equal(c.total, UINT64_C(4300079472));
}

/* DeepSeek-V3's multi-token-prediction module (the checkpoint's layer 61: enorm, hnorm,
 * eh_proj of 2h x h, an MoE layer and the shared head's norm; the embedding and head are
 * the model's): 11,610,068,224, counted apart. DeepSeek's README_WEIGHTS gives "11.5B
 * unique parameters", the module without eh_proj's 102,760,448. */
static void test_multi_token_prediction(void **state)
{
    ts_model m;
    ts_param_counts c, with;
    trainsize_error err;
    (void)state;
    ts_test_load_hf("DeepSeek-V3.json", &m, &c);
    assert_int_equal(c.mtp, 0);
    m.mtp_layers = 1;
    assert_int_equal(ts_model_count(&m, &with, &err), TRAINSIZE_OK);
    assert_int_equal(with.mtp, UINT64_C(11610068224));
    assert_int_equal(with.mtp - UINT64_C(102760448), UINT64_C(11507307776)); /* "11.5B" */
    assert_int_equal(with.total, c.total); /* apart from the model's total */
}

/* Layer patterns the model cannot describe are refused by name, not approximated. */
static void test_patterns_refused(void **state)
{
    static const struct { const char *json, *field; } cases[] = {
        {"{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 3, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 64, \"vocab_size\": 100, "
         "\"num_local_experts\": 4, \"num_experts_per_tok\": 2, \"sliding_window\": 8, "
         "\"layer_types\": [\"full_attention\", \"sliding_attention\", \"sliding_attention\"]}",
         "layer_types"},
        {"{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 4, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 64, \"vocab_size\": 100, "
         "\"num_experts\": 4, \"num_experts_per_tok\": 2, \"moe_intermediate_size\": 32, "
         "\"mlp_only_layers\": [2]}",
         "mlp_only_layers"},
        {"{\"model_type\": \"deepseek_v3\", \"num_hidden_layers\": 4, \"hidden_size\": 64, "
         "\"num_attention_heads\": 4, \"intermediate_size\": 64, \"vocab_size\": 100, "
         "\"kv_lora_rank\": 16, \"qk_nope_head_dim\": 8, \"qk_rope_head_dim\": 8, "
         "\"v_head_dim\": 8, \"n_routed_experts\": 4, \"num_experts_per_tok\": 2, "
         "\"moe_intermediate_size\": 32, \"moe_layer_freq\": 2}",
         "moe_layer_freq"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_model m;
        trainsize_error err;
        assert_int_equal(ts_hf_config_parse(cases[i].json, strlen(cases[i].json), &m, &err),
                         TRAINSIZE_E_UNSUPPORTED);
        assert_string_equal(err.field, cases[i].field);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exact_totals),
        cmocka_unit_test(test_encoders),
        cmocka_unit_test(test_published_figures),
        cmocka_unit_test(test_active_parameters),
        cmocka_unit_test(test_mechanisms),
        cmocka_unit_test(test_attention_flops),
        cmocka_unit_test(test_sparse_text_config),
        cmocka_unit_test(test_multi_token_prediction),
        cmocka_unit_test(test_patterns_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

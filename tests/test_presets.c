/* Exact parameter counts of real models (the Hugging Face checkpoints each preset's
 * catalogue entry names, https://huggingface.co/<repo>): counting the preset's shape must
 * give the published total. */
#include <stdio.h>
#include <string.h>

#include "text_values.h"
#include "ts_test.h"
#include "model.h"

static void test_every_preset_counts_its_published_total(void **state)
{
    size_t i;
    (void)state;
    assert_true(trainsize_model_count() >= 18);
    for (i = 0; i < trainsize_model_count(); i++) {
        const trainsize_model_info *info = trainsize_model_at(i);
        const ts_model *m = ts_preset_find(info->name);
        ts_param_counts c;
        trainsize_error err;
        assert_non_null(m);
        assert_int_equal(ts_model_count(m, &c, &err), TRAINSIZE_OK);
        if (c.total != info->parameters || c.active != info->active_parameters)
            fail_msg("%s: counted %llu / %llu active, published %llu / %llu", info->name,
                     (unsigned long long)c.total, (unsigned long long)c.active,
                     (unsigned long long)info->parameters, (unsigned long long)info->active_parameters);
    }
    assert_null(trainsize_model_at(trainsize_model_count()));
}

/* gpt-oss-120b: the model card (arXiv 2508.10925, Table 1) gives 116.83B total and 5.13B
 * active, the unembedding counted as active and the embedding not. */
static void test_gpt_oss_120b(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt-oss-120b"), &r);
    assert_int_equal((r.model.parameters + 5000000) / 10000000, 11683);
    assert_int_equal((r.model.active_parameters - 201088ull * 2880 + 5000000) / 10000000, 513);
}

/* The anchors, spelled out (the first six: the exact integer appears in >= 2
 * unrelated public sources, e.g. transformers' num_parameters() printouts, GGUF
 * general.parameter_count, safetensors totals). */
static void test_anchor_counts(void **state)
{
    static const struct { const char *name; uint64_t total, active, layer; } anchors[] = {
        {"gpt2", 124439808ull, 124439808ull, 7087872ull},
        {"gpt2-xl", 1557611200ull, 1557611200ull, 0},
        {"llama-2-7b", 6738415616ull, 6738415616ull, 202383360ull},
        {"llama-2-13b", 13015864320ull, 13015864320ull, 0},
        {"llama-3-8b", 8030261248ull, 8030261248ull, 218112000ull},
        {"mixtral-8x7b", 46702792704ull, 12879925248ull, 1451270144ull},
        /* helper research of model cards / GGUF metadata, see presets.c sources */
        {"llama-2-70b", 68976648192ull, 68976648192ull, 855654400ull},
        {"llama-3.1-405b", 405853388800ull, 405853388800ull, 3187703808ull},
        {"gemma-7b", 8537680896ull, 8537680896ull, 276830208ull},
        {"qwen2.5-7b", 7615616512ull, 7615616512ull, 233057792ull},
        /* 2024-2026 checkpoints, shapes from their config.json: the Hub's totals (safetensors
         * headers or index total_size over bf16 bytes): Llama-3.2-1B's single file is
         * 2,471,645,608 bytes, its header and 1,235,814,400 bf16 values; Llama-3.2-3B
         * 3,212,749,824; Mistral-Nemo (Instruct's index 24,495,564,800 bytes, Base's shape);
         * phi-4 (index 29,319,014,400 bytes); Qwen3-32B (index 65,524,246,528 bytes);
         * Qwen3-235B-A22B (index 470,187,269,120 bytes); gemma-2-27b (keras-hub preset
         * gemma2_27b_en; the Gemma 2 report's non-embedding 26,047,480,320 plus 256,000 x
         * 4,608). */
        {"llama-3.2-1b", 1235814400ull, 1235814400ull, 0},
        {"llama-3.2-3b", 3212749824ull, 3212749824ull, 0},
        {"mistral-nemo-12b", 12247782400ull, 12247782400ull, 0},
        {"phi-4", 14659507200ull, 14659507200ull, 0},
        {"qwen3-32b", 32762123264ull, 32762123264ull, 0},
        {"qwen3-235b-a22b", 235093634560ull, 22190763520ull, 0},
        {"gemma-2-27b", 27227128320ull, 27227128320ull, 0},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof anchors / sizeof anchors[0]; i++) {
        trainsize_result r;
        ts_test_estimate(PAIRS("model", anchors[i].name, "gpus", "8", "zero", "3"), &r);
        assert_string_equal(r.model.name, anchors[i].name);
        assert_int_equal(r.model.parameters, anchors[i].total);
        assert_int_equal(r.model.active_parameters, anchors[i].active);
        if (anchors[i].layer) assert_int_equal(r.model.layer_parameters, anchors[i].layer);
    }
}

/* Shape overrides apply on top of a preset. */
static void test_overrides_on_a_preset(void **state)
{
    trainsize_result r;
    (void)state;
    /* Llama-2-7B with 16 layers: 16 x 202,383,360 + 2 x 32000 x 4096 + 4096. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "layers", "16"), &r);
    assert_int_equal(r.model.parameters, 16ull * 202383360ull + 2ull * 32000 * 4096 + 4096);
    /* Tying the embeddings removes the output layer. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "tie-embeddings", "true"), &r);
    assert_int_equal(r.model.parameters, 6738415616ull - 32000ull * 4096);
}

/* One name rule for presets and catalogues: case, '-', '_' and spaces do not matter, so
 * no two names of one catalogue may be equal under it. */
static void test_one_name_rule(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    char name[64];
    size_t i, j;
    (void)state;
    assert_non_null(job);
    assert_int_equal(trainsize_job_set(job, "model", "Llama_2_7B", &err), TRAINSIZE_OK);
    trainsize_job_get(job, "model", name, sizeof name, NULL);
    assert_string_equal(name, "llama-2-7b"); /* the catalogue's spelling */
    assert_int_equal(trainsize_job_set(job, "model", "llama 2 7b", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "gpu", "A100_80GB", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "model", "llama27b", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "model", "llama-2-7", &err), TRAINSIZE_E_UNKNOWN);
    assert_int_equal(trainsize_job_set(job, "model", "--", &err), TRAINSIZE_E_UNKNOWN);
    trainsize_job_free(job);
    for (i = 0; i < trainsize_model_count(); i++)
        for (j = i + 1; j < trainsize_model_count(); j++)
            assert_false(ts_name_equal(trainsize_model_at(i)->name, trainsize_model_at(j)->name));
    for (i = 0; i < trainsize_gpu_count(); i++)
        for (j = i + 1; j < trainsize_gpu_count(); j++)
            assert_false(ts_name_equal(trainsize_gpu_at(i)->name, trainsize_gpu_at(j)->name));
}

/* The 2024-2026 presets are their checkpoints' config.json shapes (tests/data/hf, counted
 * against the published totals in test_hf_families.c): the preset and the parsed file
 * agree field for field. */
static void test_presets_equal_their_configs(void **state)
{
    static const struct { const char *preset, *file; } pairs[] = {
        {"qwen3-8b", "Qwen3-8B.json"},
        {"qwen3-30b-a3b", "Qwen3-30B-A3B.json"},
        {"qwen1.5-moe-a2.7b", "Qwen1.5-MoE-A2.7B-Chat.json"},
        {"phi-3.5-moe", "Phi-3.5-MoE-instruct.json"},
        {"deepseek-v2-lite", "DeepSeek-V2-Lite.json"},
        {"deepseek-v3", "DeepSeek-V3.json"},
        {"llama-4-scout", "Llama-4-Scout-17B-16E.json"},
        {"gpt-oss-20b", "gpt-oss-20b.json"},
        {"gemma-2-9b", "gemma-2-9b.json"},
        {"gemma-3-1b", "gemma-3-1b-it.json"},
        {"olmo-2-7b", "OLMo-2-1124-7B-Instruct.json"},
        {"granite-3.3-8b", "granite-3.3-8b-instruct.json"},
        {"starcoder2-3b", "starcoder2-3b.json"},
        {"falcon-7b", "falcon-7b.json"},
        {"llava-1.5-7b", "llava-1.5-7b-hf.json"},
        {"gemma-3-4b", "gemma-3-4b-it.json"},
        {"qwen2.5-vl-7b", "Qwen2.5-VL-7B-Instruct.json"},
        {"llama-3.2-11b-vision", "Llama-3.2-11B-Vision.json"},
    };
    static char text[TRAINSIZE_HF_CONFIG_MAX_BYTES + 1];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const ts_model *preset = ts_preset_find(pairs[i].preset);
        ts_model parsed, a, b;
        trainsize_error err;
        char path[512];
        FILE *f;
        size_t n;
        assert_non_null(preset);
        snprintf(path, sizeof path, "%s/hf/%s", TS_TEST_DATA_DIR, pairs[i].file);
        f = fopen(path, "rb");
        assert_non_null(f);
        n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        assert_int_equal(ts_hf_config_parse(text, n, &parsed, &err), TRAINSIZE_OK);
        /* Names aside (a preset's is its own), byte for byte. */
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        memcpy(&a, preset, sizeof a);
        memcpy(&b, &parsed, sizeof b);
        memset(a.name, 0, sizeof a.name);
        memset(b.name, 0, sizeof b.name);
        memset(a.family, 0, sizeof a.family);
        memset(b.family, 0, sizeof b.family);
        if (memcmp(&a, &b, sizeof a) != 0) fail_msg("%s differs from %s", pairs[i].preset, pairs[i].file);
    }
}

/* A near-miss name gets a suggestion; a far one none. */
static void test_did_you_mean(void **state)
{
    static const struct { const char *option, *value, *suggested; } cases[] = {
        {"gpu", "h100", "h100-80gb"},            /* the start of a catalogue name */
        {"model", "lama-3-8b", "llama-3-8b"},    /* one edit */
        {"model", "qwen3", "qwen3-8b"},
        {"model", "xyz", NULL},
        {"gpu", "llama-3-8b", NULL},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trainsize_job *job = trainsize_job_new();
        trainsize_error err;
        char want[128];
        assert_int_equal(trainsize_job_set(job, cases[i].option, cases[i].value, &err), TRAINSIZE_E_UNKNOWN);
        if (cases[i].suggested) {
            snprintf(want, sizeof want, "did you mean \"%s\"?", cases[i].suggested);
            if (!strstr(err.message, want)) fail_msg("%s: %s", cases[i].value, err.message);
        } else if (strstr(err.message, "did you mean")) {
            fail_msg("%s: %s", cases[i].value, err.message);
        }
        trainsize_job_free(job);
    }
    /* Under the name rule these are the names themselves, not near misses. */
    {
        trainsize_job *job = trainsize_job_new();
        assert_int_equal(trainsize_job_set(job, "model", "llama3-8b", NULL), TRAINSIZE_OK);
        assert_int_equal(trainsize_job_set(job, "model", "DeepSeek_V3", NULL), TRAINSIZE_OK);
        trainsize_job_free(job);
    }
}

/* Training with multi-token prediction puts its modules on the last pipeline stage: more
 * weights and activations there, more FLOPs; the model's total is unchanged. */
static void test_mtp_in_the_estimate(void **state)
{
    trainsize_result plain, mtp;
    (void)state;
    ts_test_estimate(PAIRS("model", "deepseek-v3", "gpu", "h100-80gb", "gpus", "1024", "pp", "16",
                           "ep", "64", "seq", "4096", "recompute", "full", "tokens", "1e12"), &plain);
    ts_test_estimate(PAIRS("model", "deepseek-v3", "gpu", "h100-80gb", "gpus", "1024", "pp", "16",
                           "ep", "64", "seq", "4096", "recompute", "full", "tokens", "1e12",
                           "mtp-layers", "1"), &mtp);
    assert_int_equal(mtp.model.parameters, plain.model.parameters);
    assert_int_equal(mtp.model.mtp_parameters, 11610068224ull);
    assert_true(mtp.time.flops > plain.time.flops * 1.01);
    /* the last stage: 45.2 GiB without, 56.9 GiB with one depth (its layer, experts and a
     * second pass through the 129,280-token head) */
    assert_int_equal(mtp.memory.pipeline_stage, 15);
    assert_true(mtp.memory.peak_total > plain.memory.peak_total + (5ull << 30));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_preset_counts_its_published_total),
        cmocka_unit_test(test_anchor_counts),
        cmocka_unit_test(test_overrides_on_a_preset),
        cmocka_unit_test(test_one_name_rule),
        cmocka_unit_test(test_presets_equal_their_configs),
        cmocka_unit_test(test_did_you_mean),
        cmocka_unit_test(test_gpt_oss_120b),
        cmocka_unit_test(test_mtp_in_the_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

#define _POSIX_C_SOURCE 200809L /* opendir */
/* A config.json passes the same ranges as the options its keys map to: before,
 * "num_hidden_layers": 1000000 and "intermediate_size": 1e8 loaded while --layers 1000000
 * and --ffn 1e8 were refused, and trainsize_job_get then returned values trainsize_job_set
 * rejected. */
#include "ts_test.h"

#include <dirent.h>

/* A small Llama config with one key's value replaced. */
static int load_llama(trainsize_job *job, const char *key, const char *value, trainsize_error *err)
{
    static const char *const keys[] = {"num_hidden_layers", "hidden_size", "num_attention_heads",
                                       "intermediate_size", "vocab_size", "num_key_value_heads"};
    static const char *const values[] = {"2", "64", "4", "128", "1000", "4"};
    char json[512];
    size_t i, used = (size_t)snprintf(json, sizeof json, "{\"model_type\": \"llama\"");
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
        used += (size_t)snprintf(json + used, sizeof json - used, ", \"%s\": %s", keys[i],
                                 strcmp(keys[i], key) == 0 ? value : values[i]);
    snprintf(json + used, sizeof json - used, "}");
    return trainsize_job_load_hf_config(job, json, strlen(json), err);
}

/* Every parameter's value reads back through trainsize_job_set unchanged (but "model",
 * which names a preset and here holds the config's own name). */
static void assert_get_set_round_trip(trainsize_job *job, const char *what)
{
    size_t i;
    for (i = 0; i < trainsize_param_count(); i++) {
        const char *name = trainsize_param_at(i)->name;
        char value[1024], again[1024];
        trainsize_error err;
        if (trainsize_job_get(job, name, value, sizeof value, &err) < 0) fail_msg("%s: get %s", what, name);
        if (value[0] == '\0' || strcmp(name, "model") == 0) continue; /* "": unset (auto) */
        if (trainsize_job_set(job, name, value, &err) != TRAINSIZE_OK)
            fail_msg("%s: %s = \"%s\" read back is refused: %s", what, name, value, err.message);
        trainsize_job_get(job, name, again, sizeof again, &err);
        if (strcmp(value, again) != 0) fail_msg("%s: %s: %s became %s", what, name, value, again);
    }
}

/* The option's bound is the key's: max loads, max + 1 is refused naming the key. */
static void test_keys_at_the_options_bounds(void **state)
{
    static const struct { const char *key, *option; } cases[] = {
        {"num_hidden_layers", "layers"},
        {"hidden_size", "hidden"},
        {"intermediate_size", "ffn"},
        {"vocab_size", "vocab"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        trainsize_job *job = trainsize_job_new();
        const trainsize_param_info *info = NULL;
        trainsize_error err;
        char max[32], over[32];
        size_t p;
        for (p = 0; p < trainsize_param_count(); p++)
            if (strcmp(trainsize_param_at(p)->name, cases[i].option) == 0) info = trainsize_param_at(p);
        assert_non_null(info);
        snprintf(max, sizeof max, "%.0f", info->max);
        snprintf(over, sizeof over, "%.0f", info->max + 1);
        if (load_llama(job, cases[i].key, max, &err) != TRAINSIZE_OK)
            fail_msg("%s = %s (the option's max): %s", cases[i].key, max, err.message);
        assert_get_set_round_trip(job, cases[i].key);
        assert_int_equal(load_llama(job, cases[i].key, over, &err), TRAINSIZE_E_INVALID);
        assert_string_equal(err.field, cases[i].key);
        assert_non_null(strstr(err.message, cases[i].key));
        trainsize_job_free(job);
    }
}

/* The cases the report found, and a derived value: GPT-2's MLP is 4 x n_embd when n_inner
 * is null, which the widest n_embd pushes past --ffn's range. */
static void test_reported_and_derived(void **state)
{
    static const char gpt2[] =
        "{\"model_type\": \"gpt2\", \"n_layer\": 1, \"n_embd\": 10000000, \"n_head\": 1,"
        " \"vocab_size\": 10, \"n_positions\": 8, \"n_inner\": null}";
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    (void)state;
    assert_int_equal(load_llama(job, "num_hidden_layers", "1000000", &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "num_hidden_layers");
    assert_int_equal(load_llama(job, "intermediate_size", "1e8", &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "intermediate_size");
    assert_int_equal(trainsize_job_load_hf_config(job, gpt2, sizeof gpt2 - 1, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "ffn");
    assert_non_null(strstr(err.message, "40000000"));
    trainsize_job_free(job);
}

/* Every real config in tests/data/hf round-trips through get and set. */
static void test_real_configs_round_trip(void **state)
{
    DIR *d = opendir(TS_TEST_DATA_DIR "/hf");
    struct dirent *e;
    size_t loaded = 0;
    (void)state;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL) {
        char path[512];
        trainsize_job *job;
        trainsize_error err;
        size_t n = strlen(e->d_name);
        if (n < 6 || strcmp(e->d_name + n - 5, ".json") != 0) continue;
        snprintf(path, sizeof path, "%s/hf/%s", TS_TEST_DATA_DIR, e->d_name);
        job = trainsize_job_new();
        if (trainsize_job_load_hf_config_file(job, path, &err) != TRAINSIZE_OK)
            fail_msg("%s: %s", e->d_name, err.message);
        assert_get_set_round_trip(job, e->d_name);
        trainsize_job_free(job);
        loaded++;
    }
    closedir(d);
    assert_true(loaded >= 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_at_the_options_bounds),
        cmocka_unit_test(test_reported_and_derived),
        cmocka_unit_test(test_real_configs_round_trip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Inputs at the edges that used to pass or to be reported wrongly: a GPU description under a
 * catalogue name, text cut in the middle of a UTF-8 character, sequences beyond a model's
 * learned positions or not divisible for sequence parallelism, overflow errors that named
 * a result instead of the input at fault, and units on sizes, rates and token counts. */
#include "text_values.h"
#include "params.h"
#include "text.h"
#include "ts_test.h"

/* Whether s is well-formed UTF-8 throughout. */
static int valid_utf8(const char *s)
{
    size_t len = strlen(s), pos = 0;
    while (pos < len) {
        size_t n = ts_utf8_sequence(s, len, pos);
        if (n == 0) return 0;
        pos += n;
    }
    return 1;
}

static void test_gpu_description_under_a_catalogue_name(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b"));
    static const char json[] =
        "{\"name\": \"a100-80gb\", \"memory_gib\": 96, \"flops_bf16\": 5e14, \"tdp_watts\": 600}";
    trainsize_gpu_info g;
    trainsize_error err;
    (void)state;
    memset(&g, 0, sizeof g);
    g.name = "H100-80GB"; /* the catalogue's name in another case */
    g.memory_bytes = 96ull << 30;
    g.flops_bf16 = 500e12;
    g.tdp_watts = 600;
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "name");
    assert_non_null(strstr(err.message, "catalogue"));
    assert_int_equal(trainsize_job_load_gpu_json(job, json, strlen(json), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "name");
    g.name = "h100-80gb-lab";
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_OK);
    trainsize_job_free(job);
}

static void test_names_cut_on_a_character(void **state)
{
    /* 120 two-byte characters: longer than TRAINSIZE_NAME_MAX (96). */
    char name[241], value[300], config[400];
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b"));
    trainsize_gpu_info g;
    trainsize_result r;
    trainsize_error err;
    size_t i;
    (void)state;
    for (i = 0; i < 120; i++) memcpy(name + 2 * i, "\xc3\xa9", 2); /* é */
    name[240] = '\0';
    memset(&g, 0, sizeof g);
    g.memory_bytes = 96ull << 30;
    g.flops_bf16 = 500e12;
    g.tdp_watts = 600;
    /* A GPU's name is refused whole rather than cut (a cut could land on a catalogue
     * name); its other texts are cut on a character. */
    g.name = name;
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "name");
    g.name = name + 240 - 94; /* 47 characters: fits */
    g.full_name = name;
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(r.gpu, name + 240 - 94);
    /* A config's long name with " (modified)" appended is cut on a character: "x" and 44
     * characters of 2 bytes, cut at an odd byte to make room. */
    snprintf(config, sizeof config,
             "{\"model_type\": \"llama\", \"_name_or_path\": \"x%s\", \"hidden_size\": 256, "
             "\"intermediate_size\": 512, \"num_attention_heads\": 4, \"num_hidden_layers\": 2, "
             "\"vocab_size\": 1000}", name + 240 - 88);
    assert_int_equal(trainsize_job_load_hf_config(job, config, strlen(config), &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "layers", "3", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_non_null(strstr(r.model.name, " (modified)"));
    assert_true(valid_utf8(r.model.name));
    /* A message quoting a long value ("%.40s") ends on a whole character too. */
    snprintf(value, sizeof value, "x%s", name); /* odd offset: 40 bytes end mid-character */
    assert_int_equal(trainsize_job_set(job, "model", value, &err), TRAINSIZE_E_UNKNOWN);
    assert_true(valid_utf8(err.message));
    /* Bytes that were never UTF-8 come back as '?'. */
    g.name = "lab\xff\xfe-card";
    assert_int_equal(trainsize_job_set_gpu(job, &g, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(r.gpu, "lab?" "?-card");
    trainsize_job_free(job);
}

static void test_utf8_prefix(void **state)
{
    (void)state;
    assert_int_equal(ts_utf8_prefix("ab", 2), 2);
    assert_int_equal(ts_utf8_prefix("a\xc3\xa9", 3), 3);  /* whole é */
    assert_int_equal(ts_utf8_prefix("a\xc3\xa9", 2), 1);  /* half é */
    assert_int_equal(ts_utf8_prefix("a\xe2\x82\xac", 3), 1); /* two of €'s three bytes */
    assert_int_equal(ts_utf8_prefix("a\xf0\x9f\x98\x80", 5), 5);
    assert_int_equal(ts_utf8_prefix("a\xf0\x9f\x98\x80", 4), 1);
}

static void test_seq_and_learned_positions(void **state)
{
    trainsize_result r;
    trainsize_error err;
    trainsize_job *job;
    char text[32];
    (void)state;
    /* Left unset, the sequence follows the model: GPT-2's 1024 positions, Llama's 2048. */
    ts_test_estimate(PAIRS("model", "gpt2"), &r);
    job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_job_get(job, "seq", text, sizeof text, NULL);
    assert_string_equal(text, "1024");
    assert_int_equal(trainsize_job_set(job, "model", "llama-2-7b", &err), TRAINSIZE_OK);
    trainsize_job_get(job, "seq", text, sizeof text, NULL);
    assert_string_equal(text, "2048");
    trainsize_job_free(job);
    /* Set beyond them, it is refused, naming seq. */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "gpt2", "seq", "2048"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "seq");
    assert_non_null(strstr(err.message, "1024 learned positions"));
    /* A longer table makes it valid; a caller's seq survives a later model change. */
    ts_test_estimate(PAIRS("model", "gpt2", "positions", "2048", "seq", "2048"), &r);
    job = ts_test_job(PAIRS("seq", "512", "model", "llama-2-7b"));
    trainsize_job_get(job, "seq", text, sizeof text, NULL);
    assert_string_equal(text, "512");
    trainsize_job_free(job);
}

static void test_sequence_parallel_split(void **state)
{
    trainsize_error err;
    trainsize_result r;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "8", "sp",
                                               "true", "seq", "4097"),
                                         &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "seq");
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "8", "sp", "true", "seq", "4096"),
                     &r);
    /* Without sequence parallelism the sequence need not split. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpus", "8", "tp", "8", "seq", "4097"), &r);
}

static void test_overflow_names_the_input(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "llama-2-7b", "micro-batch", "1e9"), &err),
                     TRAINSIZE_E_OVERFLOW);
    assert_string_equal(err.field, "micro-batch");
    /* The message starts with the input and names the figure that overflowed. */
    assert_int_equal(strncmp(err.message, "micro-batch: ", 13), 0);
    assert_non_null(strstr(err.message, "memory.activations"));
}

/* The text a parameter reads back after being set to `value`, or the error's field. */
static const char *set_and_get(const char *name, const char *value, char *buf, size_t cap)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    assert_non_null(job);
    if (trainsize_job_set(job, name, value, &err) != TRAINSIZE_OK)
        snprintf(buf, cap, "error %.40s", err.field);
    else
        trainsize_job_get(job, name, buf, cap, NULL);
    trainsize_job_free(job);
    return buf;
}

static void test_units(void **state)
{
    char b[64];
    (void)state;
    /* Sizes: SI and IEC prefixes, exactly spelled, optionally after one space. */
    assert_string_equal(set_and_get("gpu-memory", "24GiB", b, sizeof b), "25769803776");
    assert_string_equal(set_and_get("gpu-memory", "80GB", b, sizeof b), "80000000000");
    assert_string_equal(set_and_get("gpu-memory", "80 GB", b, sizeof b), "80000000000");
    assert_string_equal(set_and_get("host-ram", "1.5TiB", b, sizeof b), "1649267441664");
    assert_string_equal(set_and_get("gpu-memory", "0.1GiB", b, sizeof b), "107374182");
    assert_string_equal(set_and_get("gpu-memory", "2.4e1GB", b, sizeof b), "24000000000");
    assert_string_equal(set_and_get("cuda-context", "512MiB", b, sizeof b), "536870912");
    assert_string_equal(set_and_get("gpu-memory", "25769803776", b, sizeof b), "25769803776");
    assert_string_equal(set_and_get("gpu-memory", "0", b, sizeof b), "0");
    /* Bits, unknown prefixes, a unit on a plain count, and a bare size under 1 MiB. */
    assert_string_equal(set_and_get("gpu-memory", "24Gb", b, sizeof b), "error gpu-memory");
    assert_string_equal(set_and_get("gpu-memory", "24gib", b, sizeof b), "error gpu-memory");
    assert_string_equal(set_and_get("gpu-memory", "24", b, sizeof b), "error gpu-memory");
    assert_string_equal(set_and_get("gpu-memory", "2PiB", b, sizeof b), "error gpu-memory");
    assert_string_equal(set_and_get("seq", "8K", b, sizeof b), "error seq");
    assert_string_equal(set_and_get("gpus", "8GB", b, sizeof b), "error gpus");
    /* Rates take "/s"; the training tokens take K, M, B, T. */
    assert_string_equal(set_and_get("host-memory-bandwidth", "300GB/s", b, sizeof b), "300000000000");
    assert_string_equal(set_and_get("host-memory-bandwidth", "300GB", b, sizeof b),
                        "error host-memory-bandwidth");
    assert_string_equal(set_and_get("tokens", "1.5T", b, sizeof b), "1500000000000");
    assert_string_equal(set_and_get("tokens", "300B", b, sizeof b), "300000000000");
    assert_string_equal(set_and_get("tokens", "2M", b, sizeof b), "2000000");
    assert_string_equal(set_and_get("tokens", "1Tb", b, sizeof b), "error tokens");
    assert_string_equal(set_and_get("tokens", "1.5e3K", b, sizeof b), "1500000");
}

/* The one list iterator behind choices, LoRA targets, plan GPUs and prices. */
static void test_list_next(void **state)
{
    const char *p = "a,bb,ccc";
    char item[4];
    (void)state;
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 1);
    assert_string_equal(item, "a");
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 1);
    assert_string_equal(item, "bb");
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 1);
    assert_string_equal(item, "ccc");
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 0);
    p = "a,";  /* a trailing separator is an empty last item */
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 1);
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), -1);
    p = ",a";
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), -1);
    p = "a,,b";
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 1);
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), -1);
    p = "abcd"; /* one byte too long for the item */
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), -1);
    p = "";
    assert_int_equal(ts_list_next(&p, ',', item, sizeof item), 0);
    assert_int_equal(ts_choice_index("none|selective|full", "full"), 2);
    assert_int_equal(ts_choice_index("none|selective|full", "ful"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gpu_description_under_a_catalogue_name),
        cmocka_unit_test(test_names_cut_on_a_character),
        cmocka_unit_test(test_utf8_prefix),
        cmocka_unit_test(test_seq_and_learned_positions),
        cmocka_unit_test(test_sequence_parallel_split),
        cmocka_unit_test(test_overflow_names_the_input),
        cmocka_unit_test(test_units),
        cmocka_unit_test(test_list_next),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

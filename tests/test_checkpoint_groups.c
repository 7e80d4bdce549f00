/* Which of a checkpoint's tensors a model's shape does not explain (lib/checkpoint_groups.c):
 * tensor names grouped by prefix the way Hugging Face checkpoints name them, the shape's
 * count handed out to those groups, the line the report prints, and names a hostile header
 * may carry. The counts are the tensors' own, so every expectation is exact. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "checkpoint_groups.h"
#include "ts_test.h"

/* Tensors (name, elements) into a checkpoint's groups, as trainsize_checkpoint_read does. */
static void read_names(trainsize_checkpoint *ck, const char *const *names, const uint64_t *elements, size_t n)
{
    ts_groups *g = ts_groups_new();
    size_t i;
    assert_non_null(g);
    memset(ck, 0, sizeof *ck);
    for (i = 0; i < n; i++) {
        ts_groups_add(g, names[i], elements[i]);
        ck->parameters += elements[i];
        ck->tensors++;
    }
    ts_groups_finish(g, ck);
    ts_groups_free(g);
}

static const trainsize_checkpoint_group *find(const trainsize_checkpoint *ck, const char *name)
{
    uint32_t i;
    for (i = 0; i < ck->group_count; i++)
        if (strcmp(ck->groups[i].name, name) == 0) return &ck->groups[i];
    fail_msg("no group %s", name);
    return NULL;
}

/* Llama's names: the layers one group ("#" for the index, its count of layers), every
 * other tensor its name without the attribute; the largest first. */
static void test_llama_names_grouped(void **state)
{
    static const char *const NAMES[] = {"model.embed_tokens.weight",
                                        "model.layers.0.self_attn.q_proj.weight",
                                        "model.layers.0.input_layernorm.weight",
                                        "model.layers.31.mlp.down_proj.weight",
                                        "model.norm.weight",
                                        "lm_head.weight"};
    static const uint64_t E[] = {500, 400, 10, 300, 10, 500};
    trainsize_checkpoint ck;
    (void)state;
    read_names(&ck, NAMES, E, 6);
    assert_int_equal(ck.group_count, 4);
    assert_string_equal(ck.groups[0].name, "model.layers.#");
    assert_int_equal(ck.groups[0].parameters, 710);
    assert_int_equal(ck.groups[0].tensors, 3);
    assert_int_equal(ck.groups[0].layers, 32);
    /* ties by name: lm_head before model.embed_tokens */
    assert_string_equal(ck.groups[1].name, "lm_head");
    assert_string_equal(ck.groups[2].name, "model.embed_tokens");
    assert_int_equal(find(&ck, "model.norm")->layers, 0);
}

/* A LLaVA-style checkpoint against a shape that knows only the language model: the tower,
 * the projector and a value head are what it does not explain, to the element. */
static void test_multimodal_extras_named(void **state)
{
    static const char *const NAMES[] = {"language_model.model.embed_tokens.weight",
                                        "language_model.model.layers.0.mlp.up_proj.weight",
                                        "language_model.model.layers.1.mlp.up_proj.weight",
                                        "language_model.model.norm.weight",
                                        "language_model.lm_head.weight",
                                        "vision_tower.vision_model.encoder.layers.0.mlp.fc1.weight",
                                        "vision_tower.vision_model.encoder.layers.23.mlp.fc1.weight",
                                        "multi_modal_projector.linear_1.weight",
                                        "v_head.summary.weight"};
    static const uint64_t E[] = {16384, 8192, 8192, 64, 16384, 512, 512, 1024, 64};
    ts_param_counts pc;
    trainsize_checkpoint ck;
    char line[2 * TRAINSIZE_NAME_MAX];
    (void)state;
    read_names(&ck, NAMES, E, 9);
    memset(&pc, 0, sizeof pc);
    pc.token_embedding = 16384;
    pc.output_layer = 16384;
    pc.final_norm = 64;
    /* the shape: embedding, head, norm and two layers of 8192 */
    ts_checkpoint_explain(&ck, &pc, 16384 + 16384 + 64 + 2 * 8192);
    assert_int_equal(find(&ck, "language_model.model.layers.#")->unexplained, 0);
    assert_int_equal(find(&ck, "language_model.model.norm")->unexplained, 0);
    assert_int_equal(find(&ck, "language_model.lm_head")->unexplained, 0);
    /* the value head holds as many as the norm: the norm sits beside the layers */
    assert_int_equal(find(&ck, "v_head.summary")->unexplained, 64);
    assert_int_equal(find(&ck, "vision_tower.vision_model.encoder.layers.#")->unexplained, 1024);
    assert_int_equal(find(&ck, "multi_modal_projector.linear_1")->unexplained, 1024);
    ts_checkpoint_describe_extra(&ck, line, sizeof line);
    /* equal shares by name; the tower's index range as the reader sees it */
    assert_string_equal(line, "multi_modal_projector.linear_1 1.02K; vision_tower.vision_model.encoder.layers.0-23 "
                              "1.02K; v_head.summary 64");
}

/* A layer stack larger than the shape (a per-layer tensor the config reader does not know,
 * an MTP layer past the config's layers): the stack is named with what it holds. */
static void test_stack_larger_than_the_shape(void **state)
{
    static const char *const NAMES[] = {"model.embed_tokens.weight", "model.layers.0.mlp.weight",
                                        "model.layers.1.mlp.weight", "model.layers.2.mlp.weight",
                                        "model.norm.weight"};
    static const uint64_t E[] = {5000, 3000, 3000, 3000, 50};
    ts_param_counts pc;
    trainsize_checkpoint ck;
    char line[2 * TRAINSIZE_NAME_MAX];
    uint32_t i;
    uint64_t sum = 0;
    (void)state;
    read_names(&ck, NAMES, E, 5);
    memset(&pc, 0, sizeof pc);
    pc.token_embedding = 5000;
    pc.final_norm = 50;
    ts_checkpoint_explain(&ck, &pc, 5000 + 50 + 2 * 3000); /* two layers described */
    for (i = 0; i < ck.group_count; i++) sum += ck.groups[i].unexplained;
    assert_int_equal(sum, 3000);
    ts_checkpoint_describe_extra(&ck, line, sizeof line);
    assert_string_equal(line, "model.layers.0-2 3.00K of 9.00K");
    /* headers that hold fewer than the shape: nothing is unexplained */
    ts_checkpoint_explain(&ck, &pc, 1000000);
    for (i = 0; i < ck.group_count; i++) assert_int_equal(ck.groups[i].unexplained, 0);
    ts_checkpoint_describe_extra(&ck, line, sizeof line);
    assert_string_equal(line, "");
}

/* More prefixes than the table: the largest 15, then "(other)" with the rest; the groups
 * still add up to the checkpoint, and the report's line ends with how many it left out. */
static void test_many_groups_summed(void **state)
{
    char names[40][32];
    const char *ptr[40];
    uint64_t e[40], sum = 0;
    ts_param_counts pc;
    trainsize_checkpoint ck;
    char line[2 * TRAINSIZE_NAME_MAX];
    size_t i;
    (void)state;
    for (i = 0; i < 40; i++) {
        snprintf(names[i], sizeof names[i], "extra_%02zu.weight", i);
        ptr[i] = names[i];
        e[i] = 100 + i;
    }
    read_names(&ck, ptr, e, 40);
    assert_int_equal(ck.group_count, TRAINSIZE_CHECKPOINT_GROUPS);
    assert_string_equal(ck.groups[0].name, "extra_39");
    assert_string_equal(ck.groups[TRAINSIZE_CHECKPOINT_GROUPS - 1].name, "(other)");
    assert_int_equal(ck.groups[TRAINSIZE_CHECKPOINT_GROUPS - 1].tensors, 40 - 15);
    for (i = 0; i < ck.group_count; i++) sum += ck.groups[i].parameters;
    assert_int_equal(sum, ck.parameters);
    memset(&pc, 0, sizeof pc);
    ts_checkpoint_explain(&ck, &pc, 0); /* a shape that explains none of them */
    ts_checkpoint_describe_extra(&ck, line, sizeof line);
    assert_true(strlen(line) < sizeof line);
    assert_non_null(strstr(line, "(other) "));
    assert_non_null(strstr(line, " more ("));
}

/* Names a hostile header may hold: thousands of prefixes (past the table's slots: into
 * "(other)", no error), an index of 40 digits, a name of only dots or digits, control
 * characters and a cut UTF-8 character: each grouped, printable, in bounds. */
static void test_hostile_names(void **state)
{
    static char names[3000][40];
    static const char *ptr[3008];
    static uint64_t e[3008];
    const char *odd[] = {"model.layers.1234567890123456789012345678901234567890.w", "...", "7", "a\x01\nb.w",
                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
                         "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9.w",
                         "", "model.layers.-1.w", "model.layers.007.w"};
    trainsize_checkpoint ck;
    uint64_t sum = 0, tensors = 0;
    size_t i, n = 0;
    (void)state;
    for (i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        ptr[n] = odd[i];
        e[n++] = 1000 + i;
    }
    for (i = 0; i < 3000; i++) {
        snprintf(names[i], sizeof names[i], "p%zu.weight", i);
        ptr[n] = names[i];
        e[n++] = 1;
    }
    read_names(&ck, ptr, e, n);
    for (i = 0; i < ck.group_count; i++) {
        const char *c;
        sum += ck.groups[i].parameters;
        tensors += ck.groups[i].tensors;
        assert_true(strlen(ck.groups[i].name) < sizeof ck.groups[i].name);
        for (c = ck.groups[i].name; *c; c++) assert_true((unsigned char)*c >= 0x20);
    }
    assert_int_equal(sum, ck.parameters);
    assert_int_equal(tensors, ck.tensors);
    /* the 40-digit index held at 10^12 (+1 kept from overflowing); 007 in the same stack */
    assert_int_equal(find(&ck, "model.layers.#")->layers, 1000000000001ull);
    assert_int_equal(find(&ck, "model.layers.#")->tensors, 2);
    assert_int_equal(find(&ck, "#")->layers, 8);
    assert_int_equal(find(&ck, "model.layers.-1")->tensors, 1);
    assert_int_equal(find(&ck, "(unnamed)")->tensors, 1);
    assert_true(find(&ck, "(other)")->tensors > 2900);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_llama_names_grouped),
        cmocka_unit_test(test_multimodal_extras_named),
        cmocka_unit_test(test_stack_larger_than_the_shape),
        cmocka_unit_test(test_many_groups_summed),
        cmocka_unit_test(test_hostile_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

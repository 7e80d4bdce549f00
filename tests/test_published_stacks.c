/* Published runs on today's training stacks: tests/accuracy/fixtures/stacks.json holds
 * fully specified runs (NeMo/Megatron-Core in MLPerf Training v3.1-v5.1, IBM's fms-fsdp,
 * the Hugging Face Trainer with and without Liger kernels, Accelerate, DeepSpeed, nanotron's
 * Ultra-Scale Playbook sweep, Llama 3, DeepSeek-V3), each with its source, the quoted
 * figures and the settings that describe it. Compared as tests/accuracy/published_stacks.py
 * does: tokens/s per GPU against layout.global_batch x seq / step_seconds / gpus; memory by
 * its kind (allocated, reserved, nvidia-smi; unknown: exact between peak_allocated and
 * peak_total; a row's memory_settings, the longest batch of variable-length data, for
 * its memory figure); every run ran, so each should fit.
 *
 * The bounds are what the library reaches today (docs/accuracy.md lists every row), so a
 * change that makes it worse fails here. Of the targets (median 10 %, worst 25 % for
 * both, every run called fits) none is reached on the 149 runs since the fixture doubled
 * (2026-12: torchao's and torchtitan's FSDP2 runs, long-context and MoE runs); on its first
 * 74 the median is 9.0 %. */
#include "ts_test.h"

#define FIXTURE_MAX (1u << 21)
#define ROWS_MIN 140
#define STACKS_MIN 8
/* reached: 11.0 % (torchtitan's GEMMs, fp8 by stack and recipe and MoE's imbalance are
 * fitted on these rows: docs/accuracy.md has them left out one source at a time) */
#define TPS_MEDIAN_BOUND 0.111
#define TPS_WORST_BOUND 2.95   /* reached: Qwen3-30B-A3B on 8 B200, a user's dispatcher-bound run, +294 % */
#define MEM_MEDIAN_BOUND 0.105 /* reached: 10.4 % (9.6 % on the first 35 figures) */
/* reached: TRL's Qwen3-0.6B at 1M tokens with offloaded checkpoints, -58.1 % (what grows
 * with the sequence beyond the layers' activations is not found) */
#define MEM_WORST_BOUND 0.59
/* reached: 2 of 149, Qwen3-235B in MXFP8 on GB200 (its partial activation offload is not
 * expressed) and torchtitan's DeepSeek-V3-16B (+19.6 %); TRL's Qwen3-32B at 1M tokens fits
 * since its MLP tiling is expressed (mlp-tiles) */
#define NOT_FIT_MAX 2
#define ROWS_CAP 256

/* The memory error of a figure of the given kind (GiB). */
static double memory_error(const trainsize_result *r, double gib, const char *kind)
{
    double lo = (double)r->memory.peak_allocated / GIB, hi = (double)r->memory.peak_total / GIB;
    if (strcmp(kind, "allocated") == 0) return lo / gib - 1.0;
    if (strcmp(kind, "reserved") == 0) return (double)r->memory.peak_reserved / GIB / gib - 1.0;
    if (strcmp(kind, "nvidia-smi") == 0) return hi / gib - 1.0;
    return gib >= lo && gib <= hi ? 0.0 : lo > gib ? lo / gib - 1.0 : hi / gib - 1.0;
}

static void test_published_stacks(void **state)
{
    size_t cursor = 0, count = 0, mem_count = 0, not_fit = 0, stacks = 0, i;
    char *text, names[16][40];
    ts_json_value root, rows, row;
    double tps[ROWS_CAP], mem[ROWS_CAP], tps_worst = 0.0, mem_worst = 0.0;
    trainsize_error err;
    (void)state;
    text = ts_test_fixture("stacks.json", FIXTURE_MAX, &root);
    assert_int_equal(ts_json_object_get(&root, "rows", &rows), 1);
    while (ts_json_array_next(&rows, &cursor, &row)) {
        ts_json_value settings, v;
        trainsize_job *job;
        trainsize_result r;
        char id[96] = "", stack[40] = "";
        double figure, predicted, e;
        if (ts_json_object_get(&row, "excluded", &v)) continue;
        ts_json_object_get(&row, "id", &v);
        ts_json_string_copy(&v, id, sizeof id);
        ts_json_object_get(&row, "stack", &v);
        ts_json_string_copy(&v, stack, sizeof stack);
        stack[strcspn(stack, " ")] = '\0';
        for (i = 0; i < stacks && strcmp(names[i], stack) != 0; i++) {}
        if (i == stacks && stacks < 16) snprintf(names[stacks++], sizeof names[0], "%s", stack);
        assert_int_equal(ts_json_object_get(&row, "settings", &settings), 1);
        assert_int_equal(ts_json_object_get(&row, "tokens_per_s_per_gpu", &v), 1);
        assert_int_equal(ts_json_get_double(&v, "tokens_per_s_per_gpu", &figure, &err), 0);
        job = trainsize_job_new();
        assert_non_null(job);
        ts_test_set_json(job, &settings, "hfu", id); /* the model is under test */
        if (trainsize_estimate(job, &r, sizeof r, &err) != 0) fail_msg("%s: %s", id, err.message);
        trainsize_job_free(job);
        assert_true(count < ROWS_CAP);
        predicted = (double)r.layout.global_batch * ts_test_setting_number(&settings, "seq", 2048.0) / r.time.step_seconds /
                    ts_test_setting_number(&settings, "gpus", 1.0);
        e = predicted / figure - 1.0;
        tps[count++] = fabs(e);
        if (fabs(e) > tps_worst) tps_worst = fabs(e);
        if (!r.memory.fits) not_fit++;
        print_message("%-44s %-14s published %9.1f predicted %9.1f %+6.1f%%", id, stack, figure, predicted,
                      100.0 * e);
        if (ts_json_object_get(&row, "memory_gib", &v) && !ts_json_is_null(&v)) {
            double gib;
            char kind[24] = "unknown";
            ts_json_value mset;
            if (ts_json_object_get(&row, "memory_settings", &mset)) { /* the longest batch's job */
                job = trainsize_job_new();
                assert_non_null(job);
                ts_test_set_json(job, &settings, NULL, id);
                ts_test_set_json(job, &mset, NULL, id);
                if (trainsize_estimate(job, &r, sizeof r, &err) != 0) fail_msg("%s: %s", id, err.message);
                trainsize_job_free(job);
            }
            assert_int_equal(ts_json_get_double(&v, "memory_gib", &gib, &err), 0);
            if (ts_json_object_get(&row, "memory_kind", &v)) ts_json_string_copy(&v, kind, sizeof kind);
            e = memory_error(&r, gib, kind);
            mem[mem_count++] = fabs(e);
            if (fabs(e) > mem_worst) mem_worst = fabs(e);
            print_message("  memory %6.1f GiB (%s) %+6.1f%%", gib, kind, 100.0 * e);
        }
        print_message("%s\n", r.memory.fits ? "" : "  does not fit");
    }
    free(text);
    print_message("%zu runs on %zu stacks: tokens/s median %.1f%%, worst %.1f%%; memory %zu runs median %.1f%%, "
                  "worst %.1f%%; %zu called does not fit\n",
                  count, stacks, 100.0 * ts_test_median(tps, count), 100.0 * tps_worst, mem_count,
                  100.0 * ts_test_median(mem, mem_count), 100.0 * mem_worst, not_fit);
    assert_true(count >= ROWS_MIN);
    assert_true(stacks >= STACKS_MIN);
    assert_true(ts_test_median(tps, count) <= TPS_MEDIAN_BOUND);
    assert_true(tps_worst <= TPS_WORST_BOUND);
    assert_true(mem_count >= 30);
    assert_true(ts_test_median(mem, mem_count) <= MEM_MEDIAN_BOUND);
    assert_true(mem_worst <= MEM_WORST_BOUND);
    assert_true(not_fit <= NOT_FIT_MAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_stacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

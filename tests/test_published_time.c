/* Time against published runs: tests/accuracy/fixtures/time.json holds the end-to-end
 * throughput of large pre-training runs (Narayanan et al. 2021 Tables 1 and 2, MT-NLG,
 * BLOOM, Korthikanti et al. 2022, Nemotron-4, NVIDIA's DGX Cloud recipes), each row with
 * its source, the settings that describe it and what was assumed. hfu is never set: its
 * default (the kernels' efficiency; the bubble and the exposed communication are added on
 * top) is what is tested. Rows whose decisive settings are not published carry an
 * "excluded" reason.
 *
 * The bounds are what the library reaches today (docs/accuracy.md lists every row), so a
 * change that makes the time worse on published runs fails here. */
#include "ts_test.h"

#define FIXTURE_MAX (1u << 20)
/* Reached with the kernel-efficiency model (lib/kernels.c) on 105 runs since the fixture grew
 * (2026-12: MLPerf's other submitters, GPT-NeoX, LLaMA, OPT, Pythia, MegaScale, Nemotron-4
 * 15B, InternEvo, OLMo-core, SmolLM3): 7.9 % (9.7 % on the first 39, 4.8 % before the
 * constants were refitted on every source, the GPUs' spread and the attention kernels
 * measured); the worst is InternEvo's ZeRO-1 over 1024 A100s, whose hierarchical sharding
 * is not expressed. */
#define MEDIAN_BOUND 0.08
#define WORST_BOUND 0.68
#define ROWS_MIN 100

static double setting_number(const ts_json_value *settings, const char *key)
{
    ts_json_value v;
    char text[32];
    assert_int_equal(ts_json_object_get(settings, key, &v), 1);
    ts_json_string_copy(&v, text, sizeof text);
    return atof(text);
}

static void test_published_time(void **state)
{
    size_t cursor = 0, count = 0;
    char *text;
    ts_json_value root, rows, row, settings, value, id, fig;
    double errors[128], median, worst;
    trainsize_error err;
    (void)state;
    text = ts_test_fixture("time.json", FIXTURE_MAX, &root);
    assert_int_equal(ts_json_object_get(&root, "rows", &rows), 1);
    while (ts_json_array_next(&rows, &cursor, &row)) {
        trainsize_job *job;
        trainsize_result r;
        char name[96] = "";
        double figure, predicted;
        if (ts_json_object_get(&row, "excluded", &value)) continue;
        ts_json_object_get(&row, "id", &id);
        ts_json_string_copy(&id, name, sizeof name);
        assert_int_equal(ts_json_object_get(&row, "settings", &settings), 1);
        assert_int_equal(ts_json_object_get(&row, "tokens_per_s_per_gpu", &fig), 1);
        assert_int_equal(ts_json_get_double(&fig, "tokens_per_s_per_gpu", &figure, &err), 0);
        job = trainsize_job_new();
        assert_non_null(job);
        ts_test_set_json(job, &settings, "hfu", name);
        if (trainsize_estimate(job, &r, sizeof r, &err) != 0) fail_msg("%s: %s", name, err.message);
        trainsize_job_free(job);
        predicted = setting_number(&settings, "global-batch") * setting_number(&settings, "seq") /
                    r.time.step_seconds / setting_number(&settings, "gpus");
        assert_true(count < sizeof errors / sizeof errors[0]);
        errors[count++] = fabs(predicted / figure - 1.0);
        print_message("%-40s published %9.2f  predicted %9.2f tokens/s/GPU  %+6.1f%%\n", name, figure,
                      predicted, 100.0 * (predicted / figure - 1.0));
    }
    free(text);
    assert_true(count >= ROWS_MIN);
    median = ts_test_median(errors, count);
    worst = errors[count - 1];
    print_message("%zu published runs: median |error| %.1f%%, worst %.1f%%\n", count, 100.0 * median,
                  100.0 * worst);
    assert_true(median <= MEDIAN_BOUND);
    assert_true(worst <= WORST_BOUND);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_published_time),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

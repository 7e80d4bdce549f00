/* A site calibration applied to a job: its shares taken through the catalogue, what the
 * result says of it, the warning on another GPU, the options after it winning, and every
 * file it must refuse, naming what is wrong, with the job left as it was. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include "ts_test.h"

#include "text.h"

#include <unistd.h>

#define VALID                                                                                      \
    "{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", "      \
    "\"date\": \"2026-12-01\", \"runs\": 6, \"gpus\": [\"h100-80gb\", \"a100-80gb\"], "           \
    "\"settings\": {\"gemm-share\": 0.6, \"network-efficiency\": 0.8, \"step-overhead\": 0.25, "  \
    "\"sharded-slack\": 0.2}, \"fit\": {\"median_error_before\": 0.2}, \"sources\": [\"a\"]}"

static double get_double(trainsize_job *job, const char *name)
{
    char text[64];
    assert_true(trainsize_job_get(job, name, text, sizeof text, NULL) > 0);
    return strtod(text, NULL);
}

static int load(trainsize_job *job, const char *json, trainsize_error *err)
{
    return trainsize_job_load_calibration_json(job, json, strlen(json), err);
}

static void test_applies_and_says_so(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "16", "zero", "3",
                                           "tokens", "1e10"));
    trainsize_result before, after;
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_estimate(job, &before, sizeof before, NULL), TRAINSIZE_OK);
    assert_string_equal(before.calibration, "");
    assert_int_equal(before.calibration_runs, 0);
    assert_int_equal(load(job, VALID, &err), TRAINSIZE_OK);
    assert_true(fabs(get_double(job, "gemm-share") - 0.6) < 1e-12);
    assert_true(fabs(get_double(job, "network-efficiency") - 0.8) < 1e-12);
    assert_true(fabs(get_double(job, "step-overhead") - 0.25) < 1e-12);
    assert_int_equal(trainsize_estimate(job, &after, sizeof after, NULL), TRAINSIZE_OK);
    assert_string_equal(after.calibration, "6 runs on h100-80gb,a100-80gb, 2026-12-01");
    assert_int_equal(after.calibration_runs, 6);
    /* a lower GEMM share (0.6 for 0.76: matmuls 1.27 times as long), a larger overhead:
     * the step is slower, by less than the matmuls alone (element-wise work keeps its
     * rate); the sharded allocator's reserve larger */
    assert_true(after.time.step_seconds > before.time.step_seconds * 1.15);
    assert_true(after.time.step_seconds < before.time.step_seconds * (0.76 / 0.6) + 0.25);
    assert_true(after.memory.allocator_slack > before.memory.allocator_slack);
    assert_int_equal(after.warnings & TRAINSIZE_WARN_CALIBRATION_GPU, 0);
    /* an option set after it wins */
    assert_int_equal(trainsize_job_set(job, "step-overhead", "0.1", NULL), TRAINSIZE_OK);
    assert_true(fabs(get_double(job, "step-overhead") - 0.1) < 1e-12);
    /* another GPU: the warning, the calibration still applied */
    assert_int_equal(trainsize_job_set(job, "gpu", "b200", NULL), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &after, sizeof after, NULL), TRAINSIZE_OK);
    assert_true(after.warnings & TRAINSIZE_WARN_CALIBRATION_GPU);
    assert_string_equal(trainsize_warning_name(TRAINSIZE_WARN_CALIBRATION_GPU), "calibration-other-gpu");
    /* a copy keeps it */
    {
        trainsize_job *copy = trainsize_job_clone(job);
        trainsize_result r;
        assert_int_equal(trainsize_estimate(copy, &r, sizeof r, NULL), TRAINSIZE_OK);
        assert_string_equal(r.calibration, after.calibration);
        trainsize_job_free(copy);
    }
    trainsize_job_free(job);
}

static void test_the_settings_it_may_hold(void **state)
{
    size_t i;
    (void)state;
    assert_int_equal(trainsize_calibration_setting_count(), 6);
    for (i = 0; i < trainsize_calibration_setting_count(); i++)
        assert_true(trainsize_param_find(trainsize_calibration_setting_at(i)) >= 0);
    assert_null(trainsize_calibration_setting_at(6));
    /* the summary's arrays follow the first TRAINSIZE_CALIBRATION_SHARES of them */
    assert_string_equal(trainsize_calibration_setting_at(0), "gemm-share");
    assert_string_equal(trainsize_calibration_setting_at(1), "scale-up-efficiency");
    assert_string_equal(trainsize_calibration_setting_at(2), "network-efficiency");
    assert_string_equal(trainsize_calibration_setting_at(3), "step-overhead");
}

/* Each bad file: refused, naming what is wrong, the job unchanged. */
static void test_refusals(void **state)
{
    static const struct {
        const char *json, *message;
    } BAD[] = {
        {"[1]", "calibration: the top-level value is not an object"},
        {"{\"trainsize_calibration\": 1", "calibration"},
        {"{\"trainsize_calibration\": 2, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\"}",
         "calibration: trainsize_calibration: expected 1"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"9.9.0\", \"runs\": 1, \"gpus\": [\"x\"], "
         "\"settings\": {}}",
         "calibration: library_version: fitted with libtrainsize 9.9.0"},
        /* a version sscanf's %u would wrap onto this one's (2^32 + minor), and trailing text */
        {"{\"trainsize_calibration\": 1, \"library_version\": \"0.4294967297\", \"runs\": 1, \"gpus\": [\"x\"], "
         "\"settings\": {}}",
         "calibration: library_version: expected MAJOR.MINOR.PATCH"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING " x\", \"runs\": 1, "
         "\"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: library_version: expected MAJOR.MINOR.PATCH"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"00000000000000000000000000000.1\", \"runs\": 1, "
         "\"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: library_version: expected"},
        /* MAJOR.MINOR.PATCH as calibrate writes it; at most the runs calibrate fits on; no
         * blank GPU name */
        {"{\"trainsize_calibration\": 1, \"library_version\": \"0.1\", \"runs\": 1, \"gpus\": [\"x\"], "
         "\"settings\": {}}",
         "calibration: library_version: expected MAJOR.MINOR.PATCH"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 257, "
         "\"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: runs: expected the number of runs it was fitted on (1 to 256)"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
         "\"gpus\": [\"h100-80gb\", \" \"], \"settings\": {}}",
         "calibration: gpus: a name is blank"},
        /* what reaches the report and the JSON: a calendar date, printable GPU names */
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
         "\"date\": \"2026-13-45\", \"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: date: expected a date, YYYY-MM-DD"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
         "\"date\": \"26\\n\\u001b[31m\", \"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: date: expected a date, YYYY-MM-DD"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
         "\"gpus\": [\"h100-80gb\", \"ev\\nl\\u001b[2J\"], \"settings\": {}}",
         "calibration: gpus: a name holds a control character or invalid UTF-8"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
         "\"gpus\": [\"h100\\u0085\"], \"settings\": {}}",
         "calibration: gpus: a name holds a control character or invalid UTF-8"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 0, "
         "\"gpus\": [\"x\"], \"settings\": {}}",
         "calibration: runs:"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [], \"settings\": {}}",
         "calibration: gpus: the list is empty"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [\"h100-80gb\"], \"settings\": {\"hfu\": 0.5}}",
         "calibration: settings: \"hfu\" is not a calibration setting"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [\"h100-80gb\"], \"settings\": {\"gemm-share\": 0.7, \"step-overhead\": 1e9}}",
         "calibration: settings: step-overhead: expected a number from 0 to 10000"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [\"h100-80gb\"], \"settings\": {\"gemm-share\": \"fast\"}}",
         "calibration: settings: gemm-share: expected a number"},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [\"h100-80gb\"], \"settings\": {}, \"colour\": 1}",
         "calibration: unknown key \"colour\""},
        {"{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
         "\"gpus\": [\"h100-80gb\"]}",
         "calibration: settings: expected an object"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
        trainsize_error err;
        trainsize_result r;
        int rc = load(job, BAD[i].json, &err);
        if (rc == TRAINSIZE_OK || strstr(err.message, BAD[i].message) == NULL)
            fail_msg("%s: got %d \"%s\", want \"%s\"", BAD[i].json, rc, err.message, BAD[i].message);
        assert_string_equal(err.field, "calibration");
        /* nothing taken: not the good setting before the bad one either */
        assert_true(fabs(get_double(job, "gemm-share") - 0.77) < 1e-12);
        assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
        assert_string_equal(r.calibration, "");
        trainsize_job_free(job);
    }
}

static void test_file(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_error err;
    char path[] = "/tmp/trainsize-calibration.XXXXXX";
    FILE *f;
    int fd;
    (void)state;
    assert_int_equal(trainsize_job_load_calibration(job, "/nonexistent/calibration.json", &err), TRAINSIZE_E_IO);
    assert_string_equal(err.field, "calibration");
    assert_int_equal(trainsize_job_load_calibration(NULL, "x", &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_load_calibration_json(job, NULL, 3, &err), TRAINSIZE_E_ARGUMENT);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    f = fdopen(fd, "wb");
    assert_non_null(f);
    fputs(VALID, f);
    fclose(f);
    assert_int_equal(trainsize_job_load_calibration(job, path, &err), TRAINSIZE_OK);
    assert_true(fabs(get_double(job, "gemm-share") - 0.6) < 1e-12);
    unlink(path);
    trainsize_job_free(job);
}

/* The result's calibration text cuts a long GPU list on a whole character (the report and
 * the JSON show it): never half of a two-byte letter. */
static void test_the_gpu_list_cut_whole(void **state)
{
    char json[512], name[96];
    size_t i, len;
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    len = (size_t)snprintf(name, sizeof name, "x");
    for (i = 0; i < 40; i++) len += (size_t)snprintf(name + len, sizeof name - len, "\xc3\xa9"); /* U+00E9 */
    snprintf(json, sizeof json,
             "{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 1, "
             "\"gpus\": [\"%s\"], \"settings\": {}}", name);
    if (load(job, json, &err) != TRAINSIZE_OK) fail_msg("%s", err.message);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    len = strlen(r.calibration);
    assert_true(len > 60);
    assert_int_equal(ts_utf8_prefix(r.calibration, len), len);
    assert_true(ts_text_printable(r.calibration));
    assert_non_null(strstr(r.calibration, "1 run on x\xc3\xa9"));
    assert_non_null(strstr(r.calibration, "..."));
    trainsize_job_free(job);
}

/* A setting given twice: the last one wins, as for any JSON key the library reads; seven
 * entries of six names are not refused as too many. */
static void test_a_setting_given_twice(void **state)
{
    static const char twice[] =
        "{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 3, "
        "\"gpus\": [\"h100-80gb\"], \"settings\": {\"gemm-share\": 0.5, \"gemm-share\": 0.5, "
        "\"gemm-share\": 0.5, \"gemm-share\": 0.5, \"gemm-share\": 0.5, \"gemm-share\": 0.5, "
        "\"step-overhead\": 0.3, \"gemm-share\": 0.7}}";
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_error err;
    (void)state;
    if (load(job, twice, &err) != TRAINSIZE_OK) fail_msg("%s", err.message);
    assert_true(fabs(get_double(job, "gemm-share") - 0.7) < 1e-12);
    assert_true(fabs(get_double(job, "step-overhead") - 0.3) < 1e-12);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_applies_and_says_so),
        cmocka_unit_test(test_a_setting_given_twice),
        cmocka_unit_test(test_the_gpu_list_cut_whole),
        cmocka_unit_test(test_the_settings_it_may_hold),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

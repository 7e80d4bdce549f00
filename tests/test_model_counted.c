/* A job counts its model when the model is set (ts_job_count_model) and the estimate takes
 * those counts while the model is byte-identical to the one counted. Whatever way the model
 * got there, an estimate must equal the one that counts afresh (counted_ok cleared), and a
 * model changed behind the job's back must be counted again, not read from the cache. */
#include "job.h"
#include "ts_test.h"

/* The estimate of `job`, and of a copy that has to count its model itself: equal in full. */
static void assert_same_as_fresh(const trainsize_job *job, const char *what)
{
    trainsize_job fresh = *job;
    trainsize_result a, b;
    trainsize_error err;
    int rc_a, rc_b;
    fresh.counted_ok = 0;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    rc_a = trainsize_estimate(job, &a, sizeof a, &err);
    rc_b = trainsize_estimate(&fresh, &b, sizeof b, &err);
    if (rc_a != rc_b || memcmp(&a, &b, sizeof a) != 0) fail_msg("%s: the counted model's estimate differs", what);
}

static void test_set_models_match_fresh_counts(void **state)
{
    static const char *const jobs[][8] = {
        {"model", "llama-2-7b", NULL},
        {"model", "mixtral-8x7b", "gpus", "8", "ep", "8", NULL},
        {"model", "deepseek-v3", "gpus", "256", "pp", "8", NULL},
        {"model", "llama-2-7b", "layers", "40", "hidden", "5120", NULL},
        {"model", "resnet-50", "gpus", "8", NULL},
        {"model", "llama-3.2-11b-vision", NULL},
        {"model", "llama-2-13b", "lora-rank", "16", "quantize-base", "nf4", NULL},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof jobs / sizeof jobs[0]; i++) {
        trainsize_job *job = ts_test_job(jobs[i]);
        assert_true(job->counted_ok);
        assert_same_as_fresh(job, jobs[i][1]);
        trainsize_job_free(job);
    }
}

static void test_config_file_is_counted(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_job_load_hf_config_file(job, TS_TEST_DATA_DIR "/hf/Mixtral-8x7B-v0.1.json", &err),
                     TRAINSIZE_OK);
    assert_true(job->counted_ok);
    assert_memory_equal(&job->counted_model, &job->s.model, sizeof job->s.model);
    assert_same_as_fresh(job, "Mixtral-8x7B-v0.1.json");
    trainsize_job_free(job);
}

/* A shape written into the settings directly (as no caller can, but a future loader might)
 * is not the model counted: the estimate counts it. */
static void test_model_changed_behind_the_job_is_recounted(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b"));
    trainsize_result before, after;
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_estimate(job, &before, sizeof before, &err), TRAINSIZE_OK);
    job->s.model.layers = 40;
    assert_int_equal(trainsize_estimate(job, &after, sizeof after, &err), TRAINSIZE_OK);
    assert_true(after.model.parameters > before.model.parameters);
    assert_same_as_fresh(job, "layers written directly");
    /* and an invalid one is refused, as it is without the cache */
    job->s.model.heads = 3; /* 4096 is not a multiple of 3 */
    assert_int_not_equal(trainsize_estimate(job, &after, sizeof after, &err), TRAINSIZE_OK);
    trainsize_job_free(job);
}

/* The estimate reads the counts kept (a bogus total shows), after a preset, after typed
 * sets, on a clone and after a plan candidate is applied: each path leaves a model that
 * compares equal to the one counted. */
static void test_estimate_takes_the_counts(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpus", "8", "tokens", "1e9"));
    trainsize_job *copy;
    trainsize_plan_candidate cand[1];
    trainsize_plan_stats stats;
    trainsize_result r;
    trainsize_error err;
    size_t n = 0;
    (void)state;
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_LAYERS, 30, &err), TRAINSIZE_OK);
    assert_true(job->counted_ok);
    assert_same_as_fresh(job, "layers set by id");
    copy = trainsize_job_clone(job);
    assert_non_null(copy);
    copy->counted.total = 12345;
    assert_int_equal(trainsize_estimate(copy, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_int_equal(r.model.parameters, 12345); /* the clone's estimate took the kept counts */
    trainsize_job_free(copy);
    assert_int_equal(trainsize_plan(job, cand, 1, &n, &stats, &err), TRAINSIZE_OK);
    assert_int_equal(n, 1);
    assert_int_equal(trainsize_plan_apply(job, &cand[0], &err), TRAINSIZE_OK);
    assert_true(job->counted_ok);
    assert_memory_equal(&job->counted_model, &job->s.model, sizeof job->s.model);
    job->counted.total = 12345;
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_int_equal(r.model.parameters, 12345);
    trainsize_job_free(job);
}

/* A model that fails validation is not counted; its estimate names the error. */
static void test_invalid_model_is_not_counted(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b", "heads", "3"));
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_false(job->counted_ok);
    assert_int_not_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_string_equal(err.field, "heads");
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set_models_match_fresh_counts),
        cmocka_unit_test(test_config_file_is_counted),
        cmocka_unit_test(test_model_changed_behind_the_job_is_recounted),
        cmocka_unit_test(test_invalid_model_is_not_counted),
        cmocka_unit_test(test_estimate_takes_the_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Hostile input through the public API: every field of trainsize_plan_candidate and
 * trainsize_gpu_info driven through 0, the extremes, NaN and infinity. Nothing may crash
 * (the tests run under ASan/UBSan in CI), every refusal names its field, and whatever is
 * accepted estimates to finite figures. */
#include <float.h>
#include <limits.h>

#include "ts_test.h"

static void assert_finite_result(const trainsize_result *r)
{
    size_t i, n = trainsize_result_field_count();
    for (i = 0; i < n; i++) {
        trainsize_field_value v;
        assert_int_equal(trainsize_result_field_get(r, i, &v), TRAINSIZE_OK);
        if (v.type == TRAINSIZE_FIELD_F64 && !isfinite(v.f64))
            fail_msg("%s is not finite", trainsize_result_field_at(i)->path);
    }
}

/* Apply a candidate; when accepted, the estimate must succeed or fail cleanly, and be finite. */
static void try_candidate(const trainsize_plan_candidate *c)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2", "tokens", "1e9"));
    trainsize_error err;
    trainsize_result r;
    int rc = trainsize_plan_apply(job, c, &err);
    if (rc != TRAINSIZE_OK) {
        assert_true(rc < 0);
        assert_true(err.field[0] != '\0');
    } else if (trainsize_estimate(job, &r, sizeof r, &err) == TRAINSIZE_OK) {
        assert_finite_result(&r);
    } else {
        assert_true(err.field[0] != '\0');
    }
    trainsize_job_free(job);
}

static void test_every_candidate_field(void **state)
{
    static const uint64_t values[] = {0, 1, 3, 1000003, UINT32_MAX, UINT64_MAX};
    trainsize_plan_candidate base, c;
    size_t f, v;
    (void)state;
    memset(&base, 0, sizeof base);
    snprintf(base.gpu, sizeof base.gpu, "a100-80gb");
    base.gpus = 8;
    base.gpus_per_node = 8;
    base.layout.tp = base.layout.pp = base.layout.pp_interleave = base.layout.ep = base.layout.micro_batch = 1;
    base.layout.global_batch = 8;
    try_candidate(&base);
    for (f = 0; f < 9; f++)
        for (v = 0; v < sizeof values / sizeof values[0]; v++) {
            uint64_t *field[] = {&c.gpus, &c.gpus_per_node, &c.layout.tp, &c.layout.pp, &c.layout.pp_interleave,
                                 &c.layout.ep, &c.layout.zero, &c.layout.micro_batch, &c.layout.global_batch};
            c = base;
            *field[f] = values[v];
            try_candidate(&c);
        }
    /* recompute out of range, a name that is not a GPU or not terminated */
    c = base;
    c.layout.recompute = 7;
    try_candidate(&c);
    c.layout.recompute = -1;
    try_candidate(&c);
    c = base;
    snprintf(c.gpu, sizeof c.gpu, "no-such-gpu");
    try_candidate(&c);
    memset(c.gpu, 'x', sizeof c.gpu);
    try_candidate(&c);
    /* a plain candidate with only a GPU and a count (what a Go caller can build) */
    memset(&c, 0, sizeof c);
    snprintf(c.gpu, sizeof c.gpu, "a100-80gb");
    c.gpus = 8;
    try_candidate(&c);
}

static void try_gpu(const trainsize_gpu_info *g)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2", "tokens", "1e9", "gpus", "8"));
    trainsize_error err;
    trainsize_result r;
    int rc = trainsize_job_set_gpu(job, g, &err);
    if (rc != TRAINSIZE_OK) {
        assert_true(rc < 0);
        assert_true(err.field[0] != '\0');
    } else {
        rc = trainsize_estimate(job, &r, sizeof r, &err);
        if (rc == TRAINSIZE_OK) assert_finite_result(&r);
    }
    trainsize_job_free(job);
}

static void test_every_gpu_field(void **state)
{
    static const double doubles[] = {0.0, -1.0, 1e-300, 1e300, DBL_MAX, NAN, INFINITY, -INFINITY};
    static const uint64_t ints[] = {0, 1, UINT64_MAX};
    trainsize_gpu_info base = *trainsize_gpu_find("a100-80gb"), g;
    size_t f, v;
    (void)state;
    base.name = "mine";
    try_gpu(&base);
    for (f = 0; f < 6; f++)
        for (v = 0; v < sizeof doubles / sizeof doubles[0]; v++) {
            double *field[] = {&g.flops_fp32, &g.flops_bf16, &g.flops_fp8, &g.tdp_watts,
                               &g.cloud_usd_per_hour, &g.purchase_usd};
            g = base;
            *field[f] = doubles[v];
            try_gpu(&g);
        }
    for (f = 0; f < 4; f++)
        for (v = 0; v < sizeof ints / sizeof ints[0]; v++) {
            uint64_t *field[] = {&g.memory_bytes, &g.memory_bandwidth, &g.scale_up_bandwidth,
                                 &g.usable_bytes};
            g = base;
            *field[f] = ints[v];
            try_gpu(&g);
        }
    g = base;
    g.pcie_generation = INT_MAX;
    try_gpu(&g);
    g.pcie_generation = -5;
    try_gpu(&g);
    g = base;
    g.name = NULL;
    try_gpu(&g);
    g = base;
    g.full_name = NULL;
    g.source = NULL;
    g.architecture = NULL;
    g.price_source = NULL;
    try_gpu(&g);
}

/* Absurd settings refuse or stay finite: the largest run, price and slowest utilisation. */
static void test_extremes_stay_finite(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3.1-405b", "tokens", "1e18", "gpu-hour-usd", "1000000",
                           "hfu", "0.001"), &r);
    assert_finite_result(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_candidate_field),
        cmocka_unit_test(test_every_gpu_field),
        cmocka_unit_test(test_extremes_stay_finite),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The largest micro-batch and sequence that fit: each is a real estimate (it fits, the
 * next larger does not), the search honours the global batch's divisors and the layout's
 * sequence multiples, reports 0 when nothing fits, and trainsize_largest_fit() gives the
 * same as an estimate with largest-fit true. */
#include "ts_test.h"

static trainsize_result estimate_with(const char *const *base, const char *name, uint64_t v)
{
    trainsize_job *job = ts_test_job(base);
    trainsize_result r;
    trainsize_error err;
    char text[32];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    if (trainsize_job_set(job, name, text, &err)) fail_msg("%s=%s: %s", name, text, err.message);
    if (trainsize_estimate(job, &r, sizeof r, &err)) fail_msg("estimate: %s", err.message);
    trainsize_job_free(job);
    return r;
}

/* The answer fits; `next` (the next candidate) does not. */
static void edge(const char *const *base, const char *name, uint64_t best, uint64_t next)
{
    assert_true(best > 0);
    assert_true(estimate_with(base, name, best).memory.fits);
    assert_false(estimate_with(base, name, next).memory.fits);
}

static void test_edges(void **state)
{
    static const char *const base[] = {"model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "8", "zero", "3",
                                       "seq", "4096", "largest-fit", "true", NULL};
    static const char *const mixtral[] = {"model", "mixtral-8x7b", "gpu", "h100-80gb", "gpus", "32", "ep", "8",
                                          "tp", "2", "sp", "true", "cp", "2", "zero", "1", "seq", "8192",
                                          "largest-fit", "true", NULL};
    trainsize_result r;
    uint64_t mb, seq;
    trainsize_job *job;
    (void)state;
    ts_test_estimate(base, &r);
    print_message("llama-2-7b, 8 x A100, ZeRO-3: micro-batch %llu, sequence %llu\n",
                  (unsigned long long)r.memory.max_micro_batch, (unsigned long long)r.memory.max_seq);
    edge(base, "micro-batch", r.memory.max_micro_batch, r.memory.max_micro_batch + 1);
    edge(base, "seq", r.memory.max_seq, r.memory.max_seq + 128);
    assert_int_equal(r.memory.max_seq % 128, 0);
    /* the entry point gives the same without an estimate */
    job = ts_test_job(base);
    assert_int_equal(trainsize_largest_fit(job, &mb, &seq, NULL), 0);
    assert_int_equal(mb, r.memory.max_micro_batch);
    assert_int_equal(seq, r.memory.max_seq);
    trainsize_job_free(job);
    /* sequences in multiples of 128, 2 x cp and tp x cp: 128 here */
    ts_test_estimate(mixtral, &r);
    edge(mixtral, "seq", r.memory.max_seq, r.memory.max_seq + 128);
    edge(mixtral, "micro-batch", r.memory.max_micro_batch, r.memory.max_micro_batch + 1);
}

/* With global-batch set, a micro-batch divides each rank's share: 24 over 8 ranks is 3,
 * so 1 or 3. Left free this job takes 2 (test_edges); bound to the divisors, 1. */
static void test_divisors(void **state)
{
    static const char *const base[] = {"model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "8", "zero", "3",
                                       "seq", "4096", "global-batch", "24", "largest-fit", "true", NULL};
    trainsize_result r;
    (void)state;
    ts_test_estimate(base, &r);
    assert_int_equal(r.memory.max_micro_batch, 1);
    edge(base, "micro-batch", 1, 3);
}

/* Nothing fits: 0 for both. Learned positions bound the sequence (GPT-2: 1024). */
static void test_bounds(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "rtx-4090", "largest-fit", "true"), &r);
    assert_int_equal(r.memory.max_micro_batch, 0);
    assert_int_equal(r.memory.max_seq, 0);
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "a100-80gb", "largest-fit", "true"), &r);
    assert_int_equal(r.memory.max_seq, 1024);
    assert_true(r.memory.max_micro_batch > 8);
    /* off by default: the estimate path does no search */
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "a100-80gb"), &r);
    assert_int_equal(r.memory.max_micro_batch, 0);
    assert_int_equal(r.memory.max_seq, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_divisors),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

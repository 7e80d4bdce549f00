/* Storage from the dataset: its bytes as stored size the capacity, a sample's bytes the
 * read rate, and epochs the run's length; conflicting or missing inputs are refused by
 * name. */
#include "ts_test.h"

/* 100 TB of images at 110 kB each (about ImageNet's mean JPEG), 3 epochs. */
static void test_images(void **state)
{
    trainsize_result r, text;
    double samples_per_s, dataset = 1e14, sample = 110e3;
    (void)state;
#define JOB "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "64", "zero", "3", "seq", "1024"
    ts_test_estimate(PAIRS(JOB, "dataset-bytes", "100TB", "sample-bytes", "110kB", "epochs", "3"), &r);
    samples_per_s = (double)r.layout.global_batch / r.time.step_seconds;
    assert_int_equal(r.system.dataset_bytes, 100000000000000ull);
    assert_int_equal(r.system.storage_capacity,
                     (uint64_t)ceil(dataset + 2.0 * (double)r.system.checkpoint_bytes));
    /* samples a second x their bytes, at the compute's pace (the step without its exposed
     * communication: the rate storage must keep up with) */
    assert_true((double)r.system.storage_read_rate >= samples_per_s * sample);
    assert_true((double)r.system.storage_read_rate < 1.5 * samples_per_s * sample);
    /* three passes over 100e12 / 110e3 samples of 1024 tokens, in whole steps */
    assert_true(r.time.tokens >= 3.0 * floor(dataset / sample) * 1024.0);
    assert_true(r.time.tokens < 3.0 * floor(dataset / sample) * 1024.0 + (double)r.layout.global_batch * 1024.0);
    /* token ids instead: 4 bytes a token, far less to read */
    ts_test_estimate(PAIRS(JOB, "tokens", "1e10"), &text);
    assert_true(fabs((double)text.system.storage_read_rate / (double)r.system.storage_read_rate -
                     4.0 / (110e3 / 1024.0)) < 1e-6); /* the same step: bytes a token, 4 against 107 */
    assert_int_equal(text.system.dataset_bytes, (uint64_t)ceil(text.time.tokens * 4.0));
}

/* Several servers: a dataset that fits each one's NVMe cache (local-cache-bytes, 30.72 TB
 * as a DGX H100 or B200 ships) is staged there (every server reads it once over the run)
 * and read locally; a larger one, or none cached, is streamed from the shared file system.
 * One server reads its own drive. 32 servers reading 10 MB clips for 100 epochs: 26 GB/s
 * streamed is beyond one NFS filer (12.5 GB/s), the staging is not. */
static void test_cache_or_shared(void **state)
{
#define CLIPS JOB, "gpus", "256", "sample-bytes", "10MB", "epochs", "100"
    trainsize_result small, large, uncached, one;
    (void)state;
    ts_test_estimate(PAIRS(CLIPS, "dataset-bytes", "20TB"), &small);
    ts_test_estimate(PAIRS(CLIPS, "dataset-bytes", "100TB"), &large);
    ts_test_estimate(PAIRS(CLIPS, "dataset-bytes", "20TB", "local-cache-bytes", "0"), &uncached);
    ts_test_estimate(PAIRS(CLIPS, "dataset-bytes", "20TB", "gpus", "8"), &one);
    assert_string_equal(small.system.dataset_source, "local-cache");
    assert_string_equal(large.system.dataset_source, "shared");
    assert_string_equal(uncached.system.dataset_source, "shared");
    assert_string_equal(one.system.dataset_source, "local");
    /* the same feed either way; streaming it needs a faster shared file system */
    assert_int_equal(small.system.storage_read_rate, uncached.system.storage_read_rate);
    assert_string_equal(small.system.storage_class, "nfs");
    assert_string_not_equal(uncached.system.storage_class, "nfs");
#undef CLIPS
}

static void test_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "epochs", "2"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "epochs"); /* no dataset to count */
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "epochs", "2", "dataset-bytes", "1TB", "tokens", "1e9"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "epochs"); /* the run's length said twice */
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "epochs", "1", "dataset-bytes", "1kB", "sample-bytes", "1MB"),
                                         &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "dataset-bytes"); /* not one whole sample */
#undef JOB
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_images),
        cmocka_unit_test(test_cache_or_shared),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* trainsize_report: the command's human report from the library, into a caller's buffer
 * (snprintf-style), for Python's Estimate.report() and any other caller. The command
 * prints this same text (tests/cli_*.sh check its words). */
#include "ts_test.h"

static trainsize_job *job_and_result(const char *const *pairs, trainsize_result *r)
{
    trainsize_job *job = ts_test_job(pairs);
    trainsize_error err;
    if (trainsize_estimate(job, r, sizeof *r, &err) != TRAINSIZE_OK) fail_msg("%s", err.message);
    return job;
}

static void test_length_and_truncation(void **state)
{
    trainsize_result r;
    trainsize_job *job = job_and_result(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"), &r);
    trainsize_error err;
    char small[32], *full;
    int n, again;
    (void)state;
    n = trainsize_report(job, &r, NULL, 0, NULL, 0, &err);
    assert_true(n > 1000);
    full = malloc((size_t)n + 1);
    assert_non_null(full);
    again = trainsize_report(job, &r, NULL, 0, full, (size_t)n + 1, &err);
    assert_int_equal(again, n);
    assert_int_equal(strlen(full), (size_t)n);
    assert_true(strncmp(full, "trainsize ", 10) == 0);
    assert_non_null(strstr(full, "\nFITS: peak total "));
    assert_non_null(strstr(full, "\nMemory per GPU"));
    /* cut like snprintf: the first cap - 1 bytes, NUL-terminated, the full length returned */
    assert_int_equal(trainsize_report(job, &r, NULL, 0, small, sizeof small, &err), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, full, sizeof small - 1);
    free(full);
    trainsize_job_free(job);
}

/* ASCII, no line over 100 columns, the advice shown when given. */
static void test_lines_and_advice(void **state)
{
    static char text[65536];
    trainsize_result r;
    trainsize_job *job = job_and_result(PAIRS("model", "llama-2-70b", "gpu", "a100-80gb"), &r);
    trainsize_advice a[5];
    size_t count = 0, col = 0, i;
    (void)state;
    assert_false(r.memory.fits);
    assert_int_equal(trainsize_advise(job, a, 5, &count, NULL), TRAINSIZE_OK);
    assert_true(count > 0);
    assert_true(trainsize_report(job, &r, a, count, text, sizeof text, NULL) < (int)sizeof text);
    assert_non_null(strstr(text, "DOES NOT FIT"));
    assert_non_null(strstr(text, "To make it fit"));
    for (i = 0; text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        assert_true(c == '\n' || (c >= 0x20 && c < 0x7f));
        col = c == '\n' ? 0 : col + 1;
        assert_true(col <= 100);
    }
    /* without the advice, no advice section */
    trainsize_report(job, &r, NULL, 0, text, sizeof text, NULL);
    assert_null(strstr(text, "To make it fit"));
    trainsize_job_free(job);
}

static void test_errors(void **state)
{
    trainsize_result r;
    trainsize_job *job = job_and_result(PAIRS("model", "gpt2"), &r);
    trainsize_error err;
    char buf[8];
    (void)state;
    assert_int_equal(trainsize_report(NULL, &r, NULL, 0, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_report(job, NULL, NULL, 0, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_report(job, &r, NULL, 0, NULL, 8, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_report(job, &r, NULL, 3, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
    assert_non_null(strstr(err.message, "trainsize_report"));
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_length_and_truncation),
        cmocka_unit_test(test_lines_and_advice),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

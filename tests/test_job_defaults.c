/* A new job skips parsing the defaults that are zero (the zeroed job holds them): it must be
 * the job every default parsed gives, byte for byte, and be made of the catalogue's texts. */
#include "job.h"
#include "ts_test.h"

static void test_skipped_zeros_are_the_parsed_ones(void **state)
{
    trainsize_job *fast = malloc(sizeof *fast), *parsed = malloc(sizeof *parsed);
    (void)state;
    assert_non_null(fast);
    assert_non_null(parsed);
    ts_job_defaults(fast);
    ts_job_defaults_parsed(parsed);
    assert_memory_equal(fast, parsed, sizeof *fast);
    free(fast);
    free(parsed);
}

/* The zeros are there to skip (numbers, flags, choices that are their list's first), and the
 * job reads them back as the catalogue writes them. */
static void test_zero_defaults_read_back(void **state)
{
    trainsize_job *job = trainsize_job_new();
    size_t i, zeros = 0;
    (void)state;
    assert_non_null(job);
    for (i = 0; i < trainsize_param_count(); i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        char text[128];
        trainsize_error err;
        size_t len = strlen(p->default_text);
        int first_choice = p->kind == TRAINSIZE_PARAM_CHOICE && len && strncmp(p->choices, p->default_text, len) == 0 &&
                           (p->choices[len] == '|' || p->choices[len] == '\0');
        if (strcmp(p->default_text, "0") != 0 && strcmp(p->default_text, "false") != 0 && !first_choice)
            continue;
        zeros++;
        assert_true(trainsize_job_get(job, p->name, text, sizeof text, &err) >= 0);
        assert_string_equal(text, p->default_text);
    }
    assert_true(zeros > 50);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skipped_zeros_are_the_parsed_ones),
        cmocka_unit_test(test_zero_defaults_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

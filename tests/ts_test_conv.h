/* The byte conventions (ts_conv) a job resolves to, for tests of what the kernels keep:
 * the layout and the conventions stages run as the estimate runs them. */
#ifndef TS_TEST_CONV_H
#define TS_TEST_CONV_H

#include "job.h"
#include "stages.h"
#include "ts_test.h"

static inline ts_conv ts_test_conventions(const char *const *pairs)
{
    trainsize_job *job = ts_test_job(pairs);
    ts_layout lay;
    ts_conv c;
    trainsize_error err;
    assert_int_equal(ts_layout_make(&job->s, &lay, &err), TRAINSIZE_OK);
    assert_int_equal(ts_conv_make(&job->s, &lay, &c, &err), TRAINSIZE_OK);
    trainsize_job_free(job);
    return c;
}

#endif

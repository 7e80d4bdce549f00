/* Shared helpers for the cmocka tests: build a job from option pairs and estimate it. */
#ifndef TS_TEST_H
#define TS_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "json.h"
#include "trainsize.h"

#define GIB 1073741824.0

/* Read a whole fixture file (at most `cap` bytes) into a new buffer; NULL when it cannot
 * be opened. The caller frees it. */
static inline char *ts_test_read_file(const char *path, size_t cap, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    if (!f) return NULL;
    buf = (char *)malloc(cap);
    if (buf) *len = fread(buf, 1, cap, f);
    fclose(f);
    return buf;
}

/* Read and parse tests/accuracy/fixtures/<name> (at most `cap` bytes) into *root; fails the
 * test when it cannot. Returns the text, which *root points into: the caller frees it. */
static inline char *ts_test_fixture(const char *name, size_t cap, ts_json_value *root)
{
    char path[512];
    size_t len = 0;
    trainsize_error err;
    char *text;
    snprintf(path, sizeof path, "%s/../accuracy/fixtures/%s", TS_TEST_DATA_DIR, name);
    text = ts_test_read_file(path, cap, &len);
    if (!text) fail_msg("cannot read %s", path);
    if (ts_json_parse(text, len, cap, 16, root, &err) != 0) fail_msg("%s: %s", path, err.message);
    return text;
}

/* Set name/value pairs (NULL-terminated list) on a new job; fails the test on error. */
static inline trainsize_job *ts_test_job(const char *const *pairs)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    size_t i;
    assert_non_null(job);
    for (i = 0; pairs[i]; i += 2) {
        int rc = trainsize_job_set(job, pairs[i], pairs[i + 1], &err);
        if (rc != TRAINSIZE_OK) fail_msg("set %s=%s: %s", pairs[i], pairs[i + 1], err.message);
    }
    return job;
}

/* Estimate the job built from `pairs` into *out; fails the test on error. */
static inline void ts_test_estimate(const char *const *pairs, trainsize_result *out)
{
    trainsize_job *job = ts_test_job(pairs);
    trainsize_error err;
    int rc = trainsize_estimate(job, out, sizeof *out, &err);
    trainsize_job_free(job);
    if (rc != TRAINSIZE_OK) fail_msg("estimate: %s", err.message);
}

/* Estimate and return the error code (and message in err). */
static inline int ts_test_estimate_rc(const char *const *pairs, trainsize_error *err)
{
    trainsize_result r;
    trainsize_job *job = ts_test_job(pairs);
    int rc = trainsize_estimate(job, &r, sizeof r, err);
    trainsize_job_free(job);
    return rc;
}

#define PAIRS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* Sets every member of a fixture row's settings object (option names and values as text)
 * on the job; `forbidden` names an option the row must not set (the default under test),
 * or NULL; `id` names the row in a failure. */
static inline void ts_test_set_json(trainsize_job *job, const ts_json_value *settings, const char *forbidden,
                                    const char *id)
{
    ts_json_value key, value;
    size_t at = 0;
    trainsize_error err;
    while (ts_json_object_next(settings, &at, &key, &value)) {
        char k[64], v[64];
        ts_json_string_copy(&key, k, sizeof k);
        ts_json_string_copy(&value, v, sizeof v);
        if (forbidden && strcmp(k, forbidden) == 0) fail_msg("%s: sets %s, the default under test", id, k);
        if (trainsize_job_set(job, k, v, &err) != 0) fail_msg("%s: %s", id, err.message);
    }
}

/* A number of a fixture row's settings object (option values are text); `dflt` when the
 * row does not set it. */
static inline double ts_test_setting_number(const ts_json_value *settings, const char *key, double dflt)
{
    ts_json_value v;
    char text[32];
    if (!ts_json_object_get(settings, key, &v)) return dflt;
    ts_json_string_copy(&v, text, sizeof text);
    return atof(text);
}

static inline int ts_test_by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The median of n > 0 values, which it sorts in place (ascending: v[n - 1] is the largest). */
static inline double ts_test_median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], ts_test_by_value);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Doubles equal within an absolute tolerance. cmocka 1.1's assert_float_equal converts to
 * float (24-bit mantissa), which cannot tell apart figures closer than about 1e-7 of
 * their size. */
#define ts_assert_near(a, b, tol)                                                                  \
    do {                                                                                         \
        double ts_a_ = (a), ts_b_ = (b);                                                         \
        if (!(fabs(ts_a_ - ts_b_) <= (tol)))                                                     \
            fail_msg("%s = %.15g, %s = %.15g: differ by %.3g, more than %.3g", #a, ts_a_, #b, ts_b_, \
                     fabs(ts_a_ - ts_b_), (double)(tol));                                        \
    } while (0)

/* One image's forward pass of a preset, in billions of multiply-accumulates: a step's FLOPs
 * at micro-batch 1 over its three passes, halved (as torchvision's GFLOPS count them). */
static inline double ts_test_forward_gmacs(const char *model)
{
    trainsize_result r;
    ts_test_estimate(PAIRS("model", model, "gpu", "a100-80gb", "micro-batch", "1"), &r);
    return r.time.step_flops / 3.0 / 2.0 / 1e9;
}

#ifdef TS_MODEL_H
/* Parse tests/data/hf/<file>, validate and count it; fails the test when it cannot. */
static inline void ts_test_load_hf(const char *file, ts_model *m, ts_param_counts *c)
{
    static char text[TRAINSIZE_HF_CONFIG_MAX_BYTES + 1];
    char path[512];
    trainsize_error err;
    FILE *f;
    size_t n;
    snprintf(path, sizeof path, "%s/hf/%s", TS_TEST_DATA_DIR, file);
    f = fopen(path, "rb");
    if (!f) fail_msg("cannot open %s", path);
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    if (ts_hf_config_parse(text, n, m, &err) != TRAINSIZE_OK) fail_msg("%s: %s", file, err.message);
    if (ts_model_validate(m, &err) != TRAINSIZE_OK) fail_msg("%s: %s", file, err.message);
    if (ts_model_count(m, c, &err) != TRAINSIZE_OK) fail_msg("%s: %s", file, err.message);
}
#endif

#endif

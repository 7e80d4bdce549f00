/* Thread safety: many threads estimate at once — several sharing one read-only job, each
 * also building and changing jobs of its own — and every result must equal the result
 * computed first on one thread. Built with -fsanitize=thread in CI, where any data race in
 * the library fails the run. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>

#include "ts_test.h"

#define THREADS 8
#define ROUNDS 200

static const char *const *const JOBS[] = {
    PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3"),
    PAIRS("model", "mixtral-8x7b", "gpus", "32", "ep", "8", "tp", "2", "zero", "1"),
    PAIRS("model", "llama-3-70b", "gpus", "64", "tp", "8", "pp", "4", "pp-interleave", "2", "sp",
          "true", "recompute", "selective", "global-batch", "512"),
    PAIRS("model", "gemma-7b", "lora-rank", "16", "quantize-base", "nf4", "framework", "pytorch"),
    PAIRS("model", "gpt2", "precision", "fp32", "attention", "eager", "dropout", "0.1"),
};
#define JOB_COUNT (sizeof JOBS / sizeof JOBS[0])

typedef struct shared {
    trainsize_job *jobs[JOB_COUNT];      /* read by every thread at once */
    trainsize_result expected[JOB_COUNT];
} shared;

typedef struct worker {
    shared *s;
    int index;
    int mismatches;
} worker;

static trainsize_job *build(const char *const *pairs)
{
    trainsize_job *job = trainsize_job_new();
    size_t i;
    if (!job) return NULL;
    for (i = 0; pairs[i]; i += 2)
        if (trainsize_job_set(job, pairs[i], pairs[i + 1], NULL) != 0) {
            trainsize_job_free(job);
            return NULL;
        }
    return job;
}

static void *work(void *arg)
{
    worker *w = arg;
    int round;
    for (round = 0; round < ROUNDS; round++) {
        size_t j = (size_t)(round + w->index) % JOB_COUNT;
        trainsize_result r;
        trainsize_error err;
        /* The shared job, read concurrently ... */
        if (trainsize_estimate(w->s->jobs[j], &r, sizeof r, &err) != 0 ||
            memcmp(&r, &w->s->expected[j], sizeof r) != 0)
            w->mismatches++;
        /* ... and a private one, built, changed and freed while others run. */
        {
            trainsize_job *own = build(JOBS[j]);
            char text[64];
            if (!own || trainsize_estimate(own, &r, sizeof r, &err) != 0 ||
                memcmp(&r, &w->s->expected[j], sizeof r) != 0)
                w->mismatches++;
            if (own && (trainsize_job_set(own, "micro-batch", "2", &err) != 0 ||
                        trainsize_job_get(own, "micro-batch", text, sizeof text, &err) != 1))
                w->mismatches++;
            trainsize_job_free(own);
        }
    }
    return NULL;
}

static void test_concurrent_estimates_match_single_thread(void **state)
{
    shared s;
    worker workers[THREADS];
    pthread_t threads[THREADS];
    size_t j;
    int i;
    (void)state;
    memset(&s, 0, sizeof s);
    for (j = 0; j < JOB_COUNT; j++) {
        s.jobs[j] = build(JOBS[j]);
        assert_non_null(s.jobs[j]);
        assert_int_equal(trainsize_estimate(s.jobs[j], &s.expected[j], sizeof s.expected[j], NULL), 0);
    }
    for (i = 0; i < THREADS; i++) {
        workers[i] = (worker){&s, i, 0};
        assert_int_equal(pthread_create(&threads[i], NULL, work, &workers[i]), 0);
    }
    for (i = 0; i < THREADS; i++) {
        assert_int_equal(pthread_join(threads[i], NULL), 0);
        assert_int_equal(workers[i].mismatches, 0);
    }
    for (j = 0; j < JOB_COUNT; j++) trainsize_job_free(s.jobs[j]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_concurrent_estimates_match_single_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

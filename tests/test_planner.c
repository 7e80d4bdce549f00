/* The planner: nothing that fits is missed (against brute force over a small space), every
 * candidate is exactly the estimate of its layout, and constraints are honoured. */
#include <stdio.h>
#include <stdlib.h>

#include "ts_test.h"

#define TOP 8

/* The planner's search space, spelled out again (planner.c) for a 16-GPU limit. */
static const char *const GPUS[] = {"a100-40gb", "rtx-4090"};
static const unsigned COUNTS[][2] = {{1, 1}, {2, 2}, {4, 4}, {8, 8}, {16, 8}}; /* gpus, per node */
static const unsigned TP[] = {1, 2, 4, 8}, PP[] = {1, 2, 4, 8, 16, 32, 64}, VPP[] = {1, 2};
static const unsigned MB[] = {1, 2, 4, 8, 16};
static const char *const RECOMPUTE[] = {"none", "selective", "full"};

static const char *const BASE[] = {"model", "gpt2", "tokens", "1e9", "global-batch", "64",
                                   "plan-gpus", "a100-40gb,rtx-4090", "max-gpus", "16", NULL};

typedef struct found {
    trainsize_plan_candidate c;
} found;

/* The planner's ranking, spelled out again: costs in the same 1 % step of a logarithmic
 * scale tie, and then fewer GPUs win. */
static int better(const trainsize_plan_candidate *a, const trainsize_plan_candidate *b)
{
    double ca = a->cost > 0 ? a->cost : HUGE_VAL, cb = b->cost > 0 ? b->cost : HUGE_VAL;
    double sa = isinf(ca) ? ca : floor(log(ca) / log1p(0.01)), sb = isinf(cb) ? cb : floor(log(cb) / log1p(0.01));
    if (sa != sb) return sa < sb;
    if (a->gpus != b->gpus) return a->gpus < b->gpus;
    if (ca != cb) return ca < cb;
    if (a->seconds != b->seconds) return a->seconds < b->seconds;
    return a->peak_total < b->peak_total;
}

/* One row per GPU x count x tp x pp x ep: keep the best variant of each layout (all sorted). */
static size_t one_per_layout(trainsize_plan_candidate *all, size_t n)
{
    size_t i, j, kept = 0;
    for (i = 0; i < n; i++) {
        for (j = 0; j < kept; j++)
            if (all[j].gpus == all[i].gpus && all[j].layout.tp == all[i].layout.tp && all[j].layout.pp == all[i].layout.pp &&
                all[j].layout.ep == all[i].layout.ep && strcmp(all[j].gpu, all[i].gpu) == 0)
                break;
        if (j == kept) all[kept++] = all[i];
    }
    return kept;
}

static int compare(const void *x, const void *y)
{
    const trainsize_plan_candidate *a = x, *b = y;
    return better(a, b) ? -1 : better(b, a) ? 1 : 0;
}

static void set_u(trainsize_job *job, const char *name, unsigned v)
{
    char text[32];
    snprintf(text, sizeof text, "%u", v);
    assert_int_equal(trainsize_job_set(job, name, text, NULL), 0);
}

/* Every configuration of the space, estimated through the public API. */
static size_t brute_force(trainsize_plan_candidate *all, size_t cap)
{
    size_t n = 0, g, c, a, b, v, z, m, r;
    for (g = 0; g < 2; g++)
        for (c = 0; c < sizeof COUNTS / sizeof COUNTS[0]; c++)
            for (a = 0; a < 4; a++)
                for (b = 0; b < 7; b++)
                    for (v = 0; v < 2; v++)
                        for (z = 0; z < 4; z++)
                            for (r = 0; r < 3; r++)
                                for (m = 0; m < 5; m++) {
                                    trainsize_job *job = ts_test_job(BASE);
                                    trainsize_result res;
                                    trainsize_plan_candidate *x;
                                    assert_int_equal(trainsize_job_set(job, "gpu", GPUS[g], NULL), 0);
                                    set_u(job, "gpus", COUNTS[c][0]);
                                    set_u(job, "gpus-per-node", COUNTS[c][1]);
                                    set_u(job, "tp", TP[a]);
                                    set_u(job, "pp", PP[b]);
                                    set_u(job, "pp-interleave", VPP[v]);
                                    set_u(job, "zero", (unsigned)z);
                                    set_u(job, "micro-batch", MB[m]);
                                    assert_int_equal(trainsize_job_set(job, "recompute", RECOMPUTE[r], NULL), 0);
                                    if (TP[a] > COUNTS[c][1] ||
                                        trainsize_estimate(job, &res, sizeof res, NULL) != 0 ||
                                        !res.memory.fits) {
                                        trainsize_job_free(job);
                                        continue;
                                    }
                                    assert_true(n < cap);
                                    x = &all[n++];
                                    memset(x, 0, sizeof *x);
                                    snprintf(x->gpu, sizeof x->gpu, "%s", GPUS[g]);
                                    x->gpus = COUNTS[c][0];
                                    x->layout.tp = TP[a];
                                    x->layout.pp = PP[b];
                                    x->layout.pp_interleave = VPP[v];
                                    x->layout.zero = z;
                                    x->layout.micro_batch = MB[m];
                                    x->layout.recompute = (int)r;
                                    x->peak_total = res.memory.peak_total;
                                    x->seconds = res.time.seconds;
                                    x->cost = res.system.cost_cloud_usd;
                                    trainsize_job_free(job);
                                }
    return n;
}

static void test_planner_misses_nothing(void **state)
{
    static trainsize_plan_candidate all[20000];
    trainsize_plan_candidate best[TOP];
    trainsize_job *job = ts_test_job(BASE);
    trainsize_plan_stats stats;
    size_t n, count, i;
    (void)state;
    n = brute_force(all, sizeof all / sizeof all[0]);
    qsort(all, n, sizeof all[0], compare);
    assert_int_equal(trainsize_plan(job, best, TOP, &count, &stats, NULL), 0);
    assert_int_equal(stats.feasible, n);   /* every configuration that fits, found */
    assert_int_equal(stats.fit_memory, n); /* no constraint beyond memory here */
    n = one_per_layout(all, n);
    assert_int_equal(count, n < TOP ? n : TOP);
    for (i = 0; i < count; i++) {          /* and the same best ones, in the same order */
        assert_string_equal(best[i].gpu, all[i].gpu);
        assert_int_equal(best[i].gpus, all[i].gpus);
        assert_int_equal(best[i].peak_total, all[i].peak_total);
        assert_true(best[i].seconds == all[i].seconds);
        assert_true(best[i].cost == all[i].cost);
    }
    assert_true(stats.evaluated >= stats.estimated);
    trainsize_job_free(job);
}

/* A candidate given back to estimate gives exactly its figures, and the layout it reports
 * is the estimate's own (one struct in both). */
static void test_candidates_are_estimates(void **state)
{
    const char *const pairs[] = {"model", "llama-2-70b", "tokens", "2e12", "max-gpus", "512",
                                 "plan-gpus", "a100-80gb,h100-80gb,mi300x", NULL};
    trainsize_job *job = ts_test_job(pairs);
    trainsize_plan_candidate best[TOP];
    size_t count, i;
    (void)state;
    assert_int_equal(trainsize_plan(job, best, TOP, &count, NULL, NULL), 0);
    assert_true(count > 0);
    for (i = 0; i < count; i++) {
        trainsize_job *copy = trainsize_job_clone(job);
        trainsize_result r;
        assert_int_equal(trainsize_plan_apply(copy, &best[i], NULL), 0);
        assert_int_equal(trainsize_estimate(copy, &r, sizeof r, NULL), 0);
        assert_true(r.memory.fits);
        assert_int_equal(r.memory.peak_total, best[i].peak_total);
        assert_true(r.time.seconds == best[i].seconds);
        assert_true(r.system.cost_cloud_usd == best[i].cost);
        assert_int_equal(r.warnings, best[i].warnings);
        assert_memory_equal(&r.layout, &best[i].layout, sizeof r.layout);
        if (i > 0) assert_false(best[i].cost > 0 && best[i - 1].cost > 1.01 * best[i].cost);
        trainsize_job_free(copy);
    }
    trainsize_job_free(job);
}

static void test_constraints(void **state)
{
    const char *const pairs[] = {"model", "llama-2-7b", "tokens", "1e11", "max-gpus", "64",
                                 "plan-gpus", "a100-80gb,h100-80gb", NULL};
    trainsize_job *job = ts_test_job(pairs);
    trainsize_plan_candidate best[TOP];
    trainsize_error err;
    size_t count, i;
    (void)state;
    assert_int_equal(trainsize_job_set(job, "deadline-days", "2", NULL), 0);
    assert_int_equal(trainsize_plan(job, best, TOP, &count, NULL, NULL), 0);
    assert_true(count > 0);
    for (i = 0; i < count; i++) {
        assert_true(best[i].seconds <= 2 * 86400.0);
        assert_true(best[i].gpus <= 64);
    }
    assert_int_equal(trainsize_job_set(job, "objective", "time", NULL), 0);
    assert_int_equal(trainsize_plan(job, best, TOP, &count, NULL, NULL), 0);
    for (i = 1; i < count; i++) assert_true(best[i - 1].seconds <= best[i].seconds);
    assert_int_equal(trainsize_job_set(job, "budget", "1", NULL), 0); /* one dollar */
    assert_int_equal(trainsize_plan(job, best, TOP, &count, NULL, NULL), 0);
    assert_int_equal(count, 0);
    assert_int_equal(trainsize_job_set(job, "tokens", "0", NULL), 0);
    assert_int_equal(trainsize_plan(job, best, TOP, &count, NULL, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "tokens");
    assert_int_equal(trainsize_plan(NULL, best, TOP, &count, NULL, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_set(job, "plan-gpus", "a100-80gb,nope", &err), TRAINSIZE_E_UNKNOWN);
    trainsize_job_free(job);
}

/* Perfect scaling makes cost flat in the GPU count: the tie goes to fewer GPUs (a 7B model
 * on H100s: not 1024 GPUs for the same money as 64). A name given twice is searched once,
 * and each layout appears once. */
static void test_ties_names_and_layouts(void **state)
{
    const char *const once[] = {"model", "llama-2-7b", "tokens", "2e12", "plan-gpus", "h100-80gb", NULL};
    const char *const twice[] = {"model", "llama-2-7b", "tokens", "2e12", "plan-gpus", "h100-80gb,H100-80GB", NULL};
    trainsize_plan_candidate a[TOP], b[TOP];
    trainsize_plan_stats sa, sb;
    trainsize_job *j1 = ts_test_job(once), *j2 = ts_test_job(twice);
    size_t na, nb, i, k;
    (void)state;
    assert_int_equal(trainsize_plan(j1, a, TOP, &na, &sa, NULL), 0);
    assert_int_equal(trainsize_plan(j2, b, TOP, &nb, &sb, NULL), 0);
    assert_int_equal(sa.evaluated, sb.evaluated);
    assert_int_equal(na, nb);
    for (i = 0; i + 1 < na; i++) {
        assert_false(a[i].cost > 1.02 * a[i + 1].cost); /* cheapest first, up to the tie */
        for (k = i + 1; k < na; k++)
            assert_false(a[i].gpus == a[k].gpus && a[i].layout.tp == a[k].layout.tp && a[i].layout.pp == a[k].layout.pp &&
                         a[i].layout.ep == a[k].layout.ep);
    }
    assert_true(a[0].gpus <= 64);
    trainsize_job_free(j1);
    trainsize_job_free(j2);
}

/* The Pareto front: fastest first, each point faster than the next and dearer than it
 * (no point both faster and cheaper than another). */
static void test_pareto_front(void **state)
{
    const char *const pairs[] = {"model", "llama-2-7b", "tokens", "2e12", "plan-gpus", "h100-80gb,a100-80gb",
                                 "plan-ranking", "pareto", NULL};
    trainsize_plan_candidate c[TOP];
    trainsize_job *job = ts_test_job(pairs);
    size_t n, i;
    (void)state;
    assert_int_equal(trainsize_plan(job, c, TOP, &n, NULL, NULL), 0);
    assert_true(n >= 3);
    for (i = 0; i + 1 < n; i++) {
        assert_true(c[i].seconds < c[i + 1].seconds);
        assert_true(c[i].cost > c[i + 1].cost);
    }
    trainsize_job_free(job);
}

/* A fixed count ("I have 8 H100s"), the owned-cost objective, and a search where nothing
 * fits says what binds. */
static void test_fixed_count_owned_and_nothing(void **state)
{
    const char *const fixed[] = {"model", "llama-2-7b", "tokens", "1e11", "plan-gpus", "h100-80gb",
                                 "plan-gpu-count", "8", "objective", "owned", NULL};
    const char *const late[] = {"model", "llama-2-70b", "tokens", "2e12", "plan-gpus", "h100-80gb",
                                "max-gpus", "64", "deadline-days", "1", NULL};
    const char *const small[] = {"model", "llama-2-70b", "tokens", "2e12", "plan-gpus", "rtx-4090",
                                 "max-gpus", "1", NULL};
    trainsize_plan_candidate c[TOP];
    trainsize_plan_stats st;
    trainsize_job *job = ts_test_job(fixed);
    size_t n, i;
    (void)state;
    assert_int_equal(trainsize_plan(job, c, TOP, &n, &st, NULL), 0);
    assert_true(n > 0);
    for (i = 0; i < n; i++) {
        assert_int_equal(c[i].gpus, 8);
        assert_true(c[i].cost_own > 0);
        if (i > 0) assert_false(c[i - 1].cost_own > 1.02 * c[i].cost_own);
    }
    trainsize_job_free(job);
    job = ts_test_job(late);
    assert_int_equal(trainsize_plan(job, c, TOP, &n, &st, NULL), 0);
    assert_int_equal(n, 0);
    assert_true(st.fit_memory > 0);
    assert_true(st.fastest_fit_seconds > 86400.0); /* the deadline binds */
    assert_true(st.least_overshoot == 0.0);
    trainsize_job_free(job);
    job = ts_test_job(small);
    assert_int_equal(trainsize_plan(job, c, TOP, &n, &st, NULL), 0);
    assert_int_equal(n, 0);
    assert_int_equal(st.fit_memory, 0);
    assert_true(st.least_overshoot > 1.0); /* memory binds, by more than twice the GPU */
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_planner_misses_nothing),
        cmocka_unit_test(test_candidates_are_estimates),
        cmocka_unit_test(test_constraints),
        cmocka_unit_test(test_ties_names_and_layouts),
        cmocka_unit_test(test_pareto_front),
        cmocka_unit_test(test_fixed_count_owned_and_nothing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

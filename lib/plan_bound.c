/* The planner's floors: what a configuration, or every layout of a GPU count, cannot do
 * better than, and whether that already loses to the candidates kept (branch and bound).
 *
 * A configuration's floor is its estimate's compute stage alone (ts_estimate_floor, about
 * a quarter of an estimate): the step's kernels, pipeline bubble and stragglers, the
 * optimizer-free serial part and the rollout. Communication, offload, the rollout's
 * hand-over and the interruptions (goodput <= 1) only add to the time, and the costs grow
 * with it (ts_cost_floors). A GPU count's floor holds for every layout: a token's matmuls
 * without recomputation at the fastest rate the kernel model gives them
 * (ts_compute_token_floor), times the stragglers of that many GPUs.
 *
 * A floor prunes only by the ranking's own rule: its first figure in a higher 1 % step than
 * the last kept candidate's (the list full), or than the best feasible variant already seen
 * of the same layout (which any variant must beat to replace it); with plan-ranking pareto,
 * a kept point no slower and no dearer. So the bounded search keeps exactly what the
 * exhaustive one keeps (tests/test_plan_bounds.c compares them). */
#include <math.h>

#include "plan_search.h"

/* Does a kept point leave no room for f on the Pareto front? keep_pareto turns away a
 * point that one of its points dominates or equals. */
static int pareto_beaten(const ts_plan_search *s, const trainsize_job *job, const ts_plan_floor *f)
{
    double cost = ts_plan_cost_floor(job, f);
    size_t i;
    for (i = 0; i < s->count; i++)
        if (s->out[i].seconds <= f->seconds && ts_plan_cost_of(job, &s->out[i]) <= cost) return 1;
    return 0;
}

int ts_plan_beaten(const ts_plan_search *s, const trainsize_job *job, const ts_plan_floor *f, int use_incumbent)
{
    double step;
    if (!s->bounded || s->count == 0) return 0;
    /* a deadline or a budget the configuration cannot meet: no candidate (try_config) */
    if (job->plan.deadline_days > 0 && f->seconds > job->plan.deadline_days * 86400.0) return 1;
    if (job->plan.budget_usd > 0 && f->cloud > job->plan.budget_usd) return 1;
    if (job->plan.ranking == 1) return pareto_beaten(s, job, f);
    step = ts_plan_tie_step(ts_plan_first_floor(job, f));
    if (s->count == s->cap && step > ts_plan_tie_step(ts_plan_first_of(job, &s->out[s->cap - 1]))) return 1;
    return use_incumbent && step > s->incumbent[s->ep_index];
}

int ts_plan_config_floor(ts_plan_search *s, ts_plan_floor *f)
{
    ts_time_floor t;
    s->stats.bounds++;
    /* with plan-margin high the ranked time is x time_high, at least 1: the floor holds */
    if (ts_estimate_floor(&s->work, &t) != TRAINSIZE_OK) return 0;
    f->seconds = t.wall;
    f->cloud = ts_plan_priced(t.cloud);
    f->own = ts_plan_priced(t.own);
    return 1;
}

int ts_plan_gpu_floor(ts_plan_search *s, ts_time_floor *f)
{
    s->stats.bounds++;
    return ts_estimate_floor(&s->work, f) == TRAINSIZE_OK && f->gpu_seconds > 0.0;
}

void ts_plan_count_floor(const ts_plan_search *s, const ts_time_floor *g, uint64_t gpus, int exact_gpus,
                         ts_plan_floor *f)
{
    /* the step waits for the slowest of the GPUs (compute.c); with the engines' share of
     * the count searched, fewer may train: the least lag, none */
    double lag = exact_gpus ? ts_estimate_straggler(&s->work, gpus) : 1.0;
    /* the high margin's time_high is at least 1: the floor without it holds */
    f->seconds = g->gpu_seconds * lag / (double)gpus;
    f->cloud = ts_plan_priced(g->cloud_any * lag);
    f->own = ts_plan_priced(g->own_any * lag);
}

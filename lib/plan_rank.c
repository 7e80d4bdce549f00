/* How the planner ranks and keeps candidates: the best `cap` by the job's objective, one
 * per layout, or the Pareto front of cost against time. The order is total (ties are
 * broken down to the GPU's name and the layout), so the answer does not depend on the
 * order the search meets the candidates in, which the bounds change (plan_bound.c). */
#include <math.h>
#include <string.h>

#include "plan_search.h"

/* Values in the same 1 % step of a logarithmic scale are a tie: a run that scales
 * perfectly costs the same on 64 GPUs as on 1024, and then the smaller cluster is the
 * better answer. Steps, not a tolerance, so that the order is transitive. */
#define TS_PLAN_TIE 0.01

double ts_plan_tie_step(double x)
{
    return isinf(x) || !(x > 0) ? x : floor(log(x) / log1p(TS_PLAN_TIE));
}

/* -1, 0 or 1 as x is in a lower, the same or a higher step than y. */
static int compare_close(double x, double y)
{
    double a = ts_plan_tie_step(x), b = ts_plan_tie_step(y);
    return a == b ? 0 : a < b ? -1 : 1;
}

/* The warnings a candidate is ranked and shown with: no-price only when the price the
 * objective needs is missing (a purchase price for owned cost, an hourly one for cloud cost
 * and time's second key; none without tokens, which has no cost). The command shows the
 * same (plan_cmd.c). */
static uint64_t ranked_warnings(const ts_plan_search *s, const trainsize_job *job,
                                const trainsize_plan_candidate *c)
{
    double price = job->plan.objective == TRAINSIZE_OBJECTIVE_OWNED ? c->cost_own : c->cost;
    return s->batch_mode || price > 0 ? c->warnings & ~TRAINSIZE_WARN_NO_PRICE : c->warnings;
}

/* The last ties: the GPU's name, then the layout, field by field; 0 only for the same
 * configuration. */
static int compare_layouts(const trainsize_plan_candidate *a, const trainsize_plan_candidate *b)
{
    const trainsize_layout *x = &a->layout, *y = &b->layout;
    const uint64_t u[] = {a->gpus_per_node, x->tp, x->pp, x->cp, x->ep, x->pp_interleave, x->zero,
                          x->micro_batch, x->global_batch, (uint64_t)x->recompute, a->rollout_tp,
                          a->rollout_gpus, a->max_tokens_per_gpu};
    const uint64_t v[] = {b->gpus_per_node, y->tp, y->pp, y->cp, y->ep, y->pp_interleave, y->zero,
                          y->micro_batch, y->global_batch, (uint64_t)y->recompute, b->rollout_tp,
                          b->rollout_gpus, b->max_tokens_per_gpu};
    size_t i;
    int k = strcmp(a->gpu, b->gpu);
    if (k != 0) return k;
    for (i = 0; i < sizeof u / sizeof u[0]; i++)
        if (u[i] != v[i]) return u[i] < v[i] ? -1 : 1;
    return 0;
}

/* Without tokens: the larger batch first (the global batch, then the micro-batch), then a
 * clean candidate before one with a warning, then the less memory. */
static int better_batch(const ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *a,
                        const trainsize_plan_candidate *b)
{
    int wa = ranked_warnings(s, job, a) != 0, wb = ranked_warnings(s, job, b) != 0;
    if (a->layout.global_batch != b->layout.global_batch)
        return a->layout.global_batch > b->layout.global_batch;
    if (a->layout.micro_batch != b->layout.micro_batch) return a->layout.micro_batch > b->layout.micro_batch;
    if (wa != wb) return wb;
    if (a->peak_total != b->peak_total) return a->peak_total < b->peak_total;
    return compare_layouts(a, b) < 0;
}

/* The cost a candidate is ranked by: owned with the owned objective, else cloud; a GPU
 * without a price has none. */
double ts_plan_cost_of(const trainsize_job *job, const trainsize_plan_candidate *c)
{
    return ts_plan_priced(job->plan.objective == TRAINSIZE_OBJECTIVE_OWNED ? c->cost_own : c->cost);
}

/* The floor's figures are ts_plan_priced already (plan_bound.c). */
double ts_plan_cost_floor(const trainsize_job *job, const ts_plan_floor *f)
{
    return job->plan.objective == TRAINSIZE_OBJECTIVE_OWNED ? f->own : f->cloud;
}

double ts_plan_first_of(const trainsize_job *job, const trainsize_plan_candidate *c)
{
    return job->plan.objective == TRAINSIZE_OBJECTIVE_TIME ? c->seconds : ts_plan_cost_of(job, c);
}

double ts_plan_first_floor(const trainsize_job *job, const ts_plan_floor *f)
{
    return job->plan.objective == TRAINSIZE_OBJECTIVE_TIME ? f->seconds : ts_plan_cost_floor(job, f);
}

/* Is a better than b under the objective? GPUs without a price rank after those with one
 * when ranking by a cost. Ties go to a candidate without a warning (low-vram-headroom, ...),
 * then to fewer GPUs, then the exact figures, then headroom, then the GPU's name and the
 * layout. */
static int better(const ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *a,
                  const trainsize_plan_candidate *b)
{
    double first_a, first_b, second_a, second_b;
    int k, wa, wb, time = job->plan.objective == TRAINSIZE_OBJECTIVE_TIME;
    if (s->batch_mode) return better_batch(s, job, a, b);
    first_a = ts_plan_first_of(job, a);
    first_b = ts_plan_first_of(job, b);
    second_a = time ? ts_plan_cost_of(job, a) : a->seconds;
    second_b = time ? ts_plan_cost_of(job, b) : b->seconds;
    if ((k = compare_close(first_a, first_b)) != 0) return k < 0;
    wa = ranked_warnings(s, job, a) != 0;
    wb = ranked_warnings(s, job, b) != 0;
    if (wa != wb) return wb;
    if (a->gpus != b->gpus) return a->gpus < b->gpus;
    if (first_a != first_b) return first_a < first_b;
    if (second_a != second_b) return second_a < second_b;
    if (a->peak_total != b->peak_total) return a->peak_total < b->peak_total;
    return compare_layouts(a, b) < 0;
}

/* One row per GPU x count x tp x cp x pp x ep: the other settings are variants of it. */
static int same_layout(const trainsize_plan_candidate *a, const trainsize_plan_candidate *b)
{
    return a->gpus == b->gpus && a->layout.tp == b->layout.tp && a->layout.cp == b->layout.cp &&
           a->layout.pp == b->layout.pp && a->layout.ep == b->layout.ep && strcmp(a->gpu, b->gpu) == 0;
}

/* a is no slower and no dearer than b, and better in one of the two. */
static int dominates(const trainsize_job *job, const trainsize_plan_candidate *a,
                     const trainsize_plan_candidate *b)
{
    double ca = ts_plan_cost_of(job, a), cb = ts_plan_cost_of(job, b);
    return a->seconds <= b->seconds && ca <= cb && (a->seconds < b->seconds || ca < cb);
}

/* The Pareto front of cost against time, fastest first. When it is full, the point whose
 * neighbours in time are closest (in log time) gives way, so the front stays spread. */
static int keep_pareto(ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *c)
{
    size_t i, at;
    if (s->cap == 0 || isinf(ts_plan_cost_of(job, c))) return 0;
    for (i = 0; i < s->count; i++)
        if (dominates(job, &s->out[i], c) ||
            (s->out[i].seconds == c->seconds && ts_plan_cost_of(job, &s->out[i]) == ts_plan_cost_of(job, c)))
            return 0;
    for (i = 0; i < s->count;) {
        if (dominates(job, c, &s->out[i])) {
            memmove(&s->out[i], &s->out[i + 1], (s->count - i - 1) * sizeof *s->out);
            s->count--;
        } else {
            i++;
        }
    }
    if (s->count == s->cap) {
        size_t drop = 1;
        double gap = HUGE_VAL;
        if (s->cap < 3) return 0;
        for (i = 1; i + 1 < s->count; i++) {
            double g = log(s->out[i + 1].seconds / s->out[i - 1].seconds);
            if (g < gap) { gap = g; drop = i; }
        }
        memmove(&s->out[drop], &s->out[drop + 1], (s->count - drop - 1) * sizeof *s->out);
        s->count--;
    }
    for (at = s->count; at > 0 && s->out[at - 1].seconds > c->seconds; at--) s->out[at] = s->out[at - 1];
    s->out[at] = *c;
    s->count++;
    return 1;
}

/* Keep the best `cap` candidates, best first (insertion into a short sorted array), one
 * per layout. */
static int keep_best(ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *c)
{
    size_t at = s->count, i;
    if (s->cap == 0) return 0;
    for (i = 0; i < s->count; i++)
        if (same_layout(&s->out[i], c)) {
            if (!better(s, job, c, &s->out[i])) return 0; /* a better variant is kept */
            memmove(&s->out[i], &s->out[i + 1], (s->count - i - 1) * sizeof *s->out);
            s->count--;
            at = s->count;
            break;
        }
    if (s->count == s->cap) {
        if (!better(s, job, c, &s->out[s->cap - 1])) return 0;
        at = s->cap - 1;
    } else {
        s->count++;
    }
    while (at > 0 && better(s, job, c, &s->out[at - 1])) {
        s->out[at] = s->out[at - 1];
        at--;
    }
    s->out[at] = *c;
    return 1;
}

int ts_plan_keep(ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *c)
{
    return job->plan.ranking == 1 ? keep_pareto(s, job, c) : keep_best(s, job, c);
}

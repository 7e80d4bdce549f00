/* The planner's search, shared by its three files: planner.c (the loops over GPUs, counts
 * and layouts, and the API), plan_rank.c (how candidates are ranked and kept) and
 * plan_bound.c (the floors it prunes by). Internal. */
#ifndef TS_PLAN_SEARCH_H
#define TS_PLAN_SEARCH_H

#include <math.h>

#include "estimate_floor.h"
#include "job.h"
#include "params.h"
#include "trainsize.h"

/* Floors under a configuration's ranked figures, as the ranking reads them: seconds on the
 * wall clock; cloud and owned cost in US dollars, HUGE_VAL where the GPU has no such price
 * (it then ranks after every priced one). */
typedef struct ts_plan_floor {
    double seconds, cloud, own;
} ts_plan_floor;

typedef struct ts_plan_search {
    trainsize_job work;              /* the job with the layout under test */
    trainsize_plan_candidate *out;
    size_t cap, count;
    trainsize_plan_stats stats;
    uint64_t global_batch;           /* fixed across the search (0 in batch mode) */
    int batch_mode;                  /* no tokens: the largest batch that fits a fixed count */
    int bounded;                     /* prune by floors (plan_bound.c): not exhaustive, with tokens */
    uint64_t valid;                  /* configurations that estimated at all */
    int first_rc;                    /* the first refusal, kept for when none did */
    trainsize_error first_err;
    /* the parameters the search sets, looked up once (by id the table is searched) */
    struct {
        const ts_param_def *recompute, *micro_batch, *global_batch, *gpus, *gpus_per_node;
        const ts_param_def *tp, *pp, *cp, *pp_interleave, *ep, *zero;
        const ts_param_def *rollout_tp, *max_tokens, *rollout, *rollout_gpus;
    } def;
    /* The best feasible variant seen of the layout under test (GPU x count x tp x cp x pp x
     * ep), as the tie step of its first ranked figure (HUGE_VAL: none yet); one per ep
     * degree, reset as tp, pp or cp change (the loops set ep inside interleave). */
    double incumbent[8];
    size_t ep_index;
    /* progress: GPU counts done of the total, the caller's callback, and its verdict */
    uint64_t done, total;
    trainsize_plan_progress_fn progress;
    void *context;
    int cancelled;
} ts_plan_search;

/* ---- Ranking (plan_rank.c). ---- */

/* A price of 0 (none) ranks as no price at all: after every priced figure. */
static inline double ts_plan_priced(double usd) { return usd > 0 ? usd : HUGE_VAL; }
/* The cost ranked (owned with objective owned, else cloud) of a candidate, and its floor. */
double ts_plan_cost_of(const trainsize_job *job, const trainsize_plan_candidate *c);
double ts_plan_cost_floor(const trainsize_job *job, const ts_plan_floor *f);

/* The logarithmic 1 % step a figure falls in: figures in the same step are a tie. */
double ts_plan_tie_step(double x);
/* The figure ranked first under the job's objective (cost_of style: HUGE_VAL unpriced). */
double ts_plan_first_of(const trainsize_job *job, const trainsize_plan_candidate *c);
double ts_plan_first_floor(const trainsize_job *job, const ts_plan_floor *f);
/* Keep a feasible candidate (best-by-objective or Pareto front); 1 when the list changed. */
int ts_plan_keep(ts_plan_search *s, const trainsize_job *job, const trainsize_plan_candidate *c);

/* ---- Bounds (plan_bound.c). ---- */

/* 1 when a configuration whose figures are at least `f` cannot change the answer: it is
 * beaten by the candidates kept, or (use_incumbent) by its own layout's best variant so far
 * (the configuration is one of the layout now in s->work), or it
 * misses the deadline or the budget once something has met them. 0 while nothing is kept,
 * so that a search that finds nothing feasible looked at everything. */
int ts_plan_beaten(const ts_plan_search *s, const trainsize_job *job, const ts_plan_floor *f, int use_incumbent);
/* The floor of the configuration now in s->work; 0 when there is none (it would be
 * refused: the estimate decides). */
int ts_plan_config_floor(ts_plan_search *s, ts_plan_floor *f);
/* A floor for every layout of the GPU in s->work, as GPU-seconds and their prices on one
 * GPU (cloud_any, own_any of ts_time_floor); 0 when there is none. */
int ts_plan_gpu_floor(ts_plan_search *s, ts_time_floor *f);
/* That floor on `gpus` training GPUs (the straggler of that many included, or not when
 * the count's training GPUs vary with the placement). */
void ts_plan_count_floor(const ts_plan_search *s, const ts_time_floor *g, uint64_t gpus, int exact_gpus,
                         ts_plan_floor *f);

#endif

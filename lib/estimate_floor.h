/* Floors under an estimate's figures, for the planner's bounds: the compute stage alone,
 * which every other stage only adds to (estimate.c). The planner's side of the pipeline:
 * it includes this, never the stages. */
#ifndef TS_ESTIMATE_FLOOR_H
#define TS_ESTIMATE_FLOOR_H

#include <stdint.h>

#include "trainsize.h"

typedef struct ts_time_floor {
    double wall;            /* this configuration's time.wall_seconds at the least, seconds
                               (a floor under it x the uncertainty's time_high too, which is
                               at least 1) */
    double cloud, own;      /* its cost_cloud_usd and cost_own_usd at the least (0: no price) */
    double gpu_seconds;     /* any layout's time.seconds x its training GPUs at the least,
                               GPU-seconds (0: no bound, a ResNet's); cloud_any and own_any
                               price it as a run of that many seconds on one GPU */
    double cloud_any, own_any;
    uint64_t gpus, billed_gpus;
} ts_time_floor;

/* The floors of the job as set; fails (without a message) where the estimate would, or
 * before it. */
int ts_estimate_floor(const trainsize_job *job, ts_time_floor *out);

/* A synchronous step's pace on `gpus` GPUs against its mean GPU's, at least 1: what
 * gpu_seconds takes on that many GPUs besides their share of it. */
double ts_estimate_straggler(const trainsize_job *job, uint64_t gpus);

#endif

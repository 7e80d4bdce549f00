/* The training job (internal): the settings an estimate reads (settings.h), plus what only
 * the job needs: a caller's own GPU (custom_gpu.h), whether seq was set, and the planner's
 * options. */
#ifndef TS_JOB_H
#define TS_JOB_H

#include <stdint.h>

#include "custom_gpu.h"
#include "params.h"
#include "settings.h"
#include "trainsize.h"

/* What the planner reads of a job beside its settings: where and how far to search. */
typedef struct ts_plan_options {
    char gpus[512];               /* plan-gpus: comma-separated catalogue names; "" = the whole catalogue */
    uint64_t max_gpus;
    double deadline_days;         /* 0: none */
    double budget_usd;            /* 0: none */
    int objective;                /* 0 cloud cost, 1 time, 2 owned cost */
    uint64_t gpu_count;           /* plan-gpu-count; 0: search the counts */
    int ranking;                  /* 0 best by the objective, 1 the Pareto front */
    int margin;                   /* 0 the estimate, 1 its high bound (result.uncertainty) */
    int rollout;                  /* RL placements searched: 0 both, 1 colocated, 2 separate */
    int exhaustive;               /* 1: no pruning by floors (a check of the pruned search) */
} ts_plan_options;

struct trainsize_job {
    ts_settings s;                /* what the estimate reads */
    int seq_given;                /* the caller set seq: it no longer follows the model */
    ts_gpu_description custom;    /* a caller's device (job_load.c) */
    unsigned overheads_given;     /* bit i: overhead setting i of ts_job_fit_device was set */
    int overheads_kind;           /* the accelerator kind the unset overheads follow */
    char gpu_prices_text[512];    /* gpu-prices as set */
    ts_plan_options plan;         /* the planner's */
    /* The model as last validated and counted when it was set (ts_job_count_model), and
     * its counts: an estimate of a byte-identical model skips validating and counting it
     * again. A model written any other way differs from counted_model, and is counted. */
    /* A checkpoint's tensors the shape did not explain (trainsize_job_set_checkpoint), for
     * the result's extra_tensors; cleared whenever the model changes, extra-params too. */
    char extra_tensors[2 * TRAINSIZE_NAME_MAX];
    int counted_ok;               /* the model was valid, and counted */
    ts_model counted_model;
    ts_param_counts counted;
};

/* Fill a job with the defaults of the parameter catalogue (no model). */
void ts_job_defaults(trainsize_job *job);
/* The same with every default through its parser, zeros too: what ts_job_defaults must
 * equal byte for byte (test_job_defaults). */
void ts_job_defaults_parsed(trainsize_job *job);

/* The default sequence length, shortened to a model's learned positions (GPT-2: 1024)
 * unless the caller set seq. Called whenever the model changes. */
void ts_job_fit_seq(trainsize_job *job);

/* Validate and count the job's model once, where it changes (a shape set, a preset, a
 * config file), for the estimates that follow (see counted_model). */
void ts_job_count_model(trainsize_job *job);

/* The overheads the caller did not set follow the accelerator: a GPU's defaults, or 0 on
 * a TPU (XLA: no CUDA context, NCCL buffers or caching allocator). Called whenever the GPU
 * changes. */
void ts_job_fit_device(trainsize_job *job);

/* A shape that did not come through the options (a config.json) checked against the
 * options' ranges, so that what trainsize_job_get returns trainsize_job_set accepts: 0, or
 * TRAINSIZE_E_INVALID naming the option whose range a value (given or derived) leaves. */
int ts_job_model_in_range(const ts_model *model, trainsize_error *err);

/* trainsize_job_set_u64/_f64/_bool/_choice on a parameter already looked up (the planner
 * sets the same few in its innermost loop): `want` the setter it must have, `fn` the name
 * errors give, u, d or i the value. */
int ts_job_set_typed(trainsize_job *job, const ts_param_def *def, ts_setter want, const char *fn, uint64_t u,
                     double d, int i, trainsize_error *err);

/* Point the custom GPU's strings at this job's arrays; with in_use, select it. */
void ts_job_rebind_custom_gpu(trainsize_job *job, int in_use);

#endif

/* The training job (internal): the settings an estimate reads (settings.h), plus what only
 * the job needs: the storage behind a caller's own GPU, whether seq was set, and the
 * planner's options. */
#ifndef TS_JOB_H
#define TS_JOB_H

#include <stdint.h>

#include "settings.h"
#include "trainsize.h"

struct trainsize_job {
    ts_settings s;         /* what the estimate reads */
    int seq_given;         /* the caller set seq: it no longer follows the model */
    trainsize_gpu_info custom_gpu; /* a caller's device; its strings point into the arrays */
    char custom_name[TRAINSIZE_NAME_MAX], custom_full_name[TRAINSIZE_NAME_MAX];
    char custom_source[TRAINSIZE_NAME_MAX];
    char custom_architecture[TRAINSIZE_NAME_MAX];
    char custom_vendor[TRAINSIZE_NAME_MAX];
    char custom_host_network[32];
    unsigned overheads_given;     /* bit i: overhead setting i of ts_job_fit_device was set */
    int overheads_kind;           /* the accelerator kind the unset overheads follow */
    char plan_gpus[512];          /* comma-separated catalogue names; "" = the whole catalogue */
    char gpu_prices_text[512];    /* gpu-prices as set */
    uint64_t max_gpus;
    double deadline_days;         /* 0: none */
    double budget_usd;            /* 0: none */
    int objective;                /* 0 cloud cost, 1 time, 2 owned cost */
    uint64_t plan_gpu_count;      /* 0: search the counts */
    int plan_ranking;             /* 0 best by the objective, 1 the Pareto front */
};

/* Fill a job with the defaults of the parameter catalogue (no model). */
void ts_job_defaults(trainsize_job *job);

/* The default sequence length, shortened to a model's learned positions (GPT-2: 1024)
 * unless the caller set seq. Called whenever the model changes. */
void ts_job_fit_seq(trainsize_job *job);

/* The overheads the caller did not set follow the accelerator: a GPU's defaults, or 0 on
 * a TPU (XLA: no CUDA context, NCCL buffers or caching allocator). Called whenever the GPU
 * changes. */
void ts_job_fit_device(trainsize_job *job);

/* A shape that did not come through the options (a config.json) checked against the
 * options' ranges, so that what trainsize_job_get returns trainsize_job_set accepts: 0, or
 * TRAINSIZE_E_INVALID naming the option whose range a value (given or derived) leaves. */
int ts_job_model_in_range(const ts_model *model, trainsize_error *err);

/* Point the custom GPU's strings at this job's arrays; with in_use, select it. */
void ts_job_rebind_custom_gpu(trainsize_job *job, int in_use);

#endif

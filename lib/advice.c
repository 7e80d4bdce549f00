/* Fit advice: when a job does not fit its GPU, the smallest changes that make it fit, each
 * one a real estimate of the changed job, least disruptive first. Works on a copy of the
 * job on the stack (no heap), through trainsize_job_set, so every change is validated as a
 * caller's would be and reads back as name/value text. */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "error.h"
#include "job.h"
#include "text_values.h"

/* The changes, in the order a practitioner reaches for them: those that cost only time
 * first, then ZeRO and tensor parallelism (communication), offload (time and host RAM),
 * more GPUs (money), and last the ones that change what is trained (LoRA, QLoRA). The
 * advice found is then ordered by that disruption, and by run time among equals. */
typedef enum step_kind {
    STEP_SET,      /* one parameter to one value */
    STEP_TP,       /* tensor parallelism inside the server: 2, 4, 8 */
    STEP_MORE_GPUS /* double the GPUs, up to 64 times */
} step_kind;

typedef struct step {
    step_kind kind;
    const char *name, *value;
} step;

static const step STEPS[] = {
    {STEP_SET, "recompute", "selective"},
    {STEP_SET, "recompute", "per-op"},
    {STEP_SET, "recompute", "full"},
    {STEP_SET, "micro-batch", "1"},
    {STEP_SET, "attention", "flash"},
    {STEP_SET, "zero", "1"},
    {STEP_SET, "zero", "2"},
    {STEP_SET, "zero", "3"},
    {STEP_SET, "critic-zero", "3"}, /* ppo: a critic of its own sharding (refused otherwise) */
    {STEP_TP, "tp", NULL},
    {STEP_SET, "offload", "optimizer"},
    {STEP_SET, "offload", "optimizer+params"},
    {STEP_SET, "critic-offload", "optimizer"},
    {STEP_MORE_GPUS, "gpus", NULL},
    {STEP_SET, "lora-rank", "16"},
    {STEP_SET, "quantize-base", "nf4"},
};

#define STEP_COUNT (sizeof STEPS / sizeof STEPS[0])
#define MAX_GPU_DOUBLINGS 6

/* The job under change, and the advice found so far. */
typedef struct advisor {
    trainsize_job work;
    trainsize_advice *out;
    size_t cap, count;
    uint64_t global_batch; /* the original's, kept so that the training stays the same */
    int batch_set;         /* the caller set it (then it is left alone) */
    int recompute;         /* the original's recomputation as estimated (QLoRA's default: full) */
} advisor;

static void copy_job(trainsize_job *dst, const trainsize_job *src)
{
    *dst = *src;
    ts_job_rebind_custom_gpu(dst, src->s.gpu == &src->custom.info);
}

/* Set name=value on job and note it in a (replacing an earlier value of that name); 0 when
 * the job refuses the value or a holds no more settings. */
static int apply(trainsize_job *job, trainsize_advice *a, const char *name, const char *value)
{
    size_t i;
    if (trainsize_job_set(job, name, value, NULL) != TRAINSIZE_OK) return 0;
    for (i = 0; i < a->settings; i++)
        if (strcmp(a->names[i], name) == 0) break;
    if (i == TRAINSIZE_ADVICE_MAX_SETTINGS) return 0;
    ts_copy_name(a->names[i], sizeof a->names[i], name);
    snprintf(a->values[i], sizeof a->values[i], "%s", value);
    if (i == a->settings) a->settings++;
    return 1;
}

/* Keep the original global batch: its default follows the micro-batch and dp. */
static int keep_batch(const advisor *ad, trainsize_job *job, trainsize_advice *a)
{
    char v[32];
    if (ad->batch_set) return 1;
    snprintf(v, sizeof v, "%llu", (unsigned long long)ad->global_batch);
    return apply(job, a, "global-batch", v);
}

static int same_settings(const trainsize_advice *x, const trainsize_advice *y)
{
    size_t i;
    if (x->settings != y->settings) return 0;
    for (i = 0; i < x->settings; i++)
        if (strcmp(x->names[i], y->names[i]) != 0 || strcmp(x->values[i], y->values[i]) != 0) return 0;
    return 1;
}

/* Estimate job; when it fits, add a with its figures to the advice. 1 when it fits. */
static int try_fit(advisor *ad, const trainsize_job *job, const trainsize_advice *a)
{
    trainsize_result r;
    size_t i;
    /* Fits with the headroom the job asks for (an estimate is a few per cent off), and in
     * the host RAM the server has where that is known (set, or sold with the part). */
    if (trainsize_estimate(job, &r, sizeof r, NULL) != TRAINSIZE_OK ||
        (r.warnings & (TRAINSIZE_WARN_DOES_NOT_FIT | TRAINSIZE_WARN_LOW_HEADROOM | TRAINSIZE_WARN_HOST_RAM)))
        return 0;
    for (i = 0; i < ad->count; i++)
        if (same_settings(&ad->out[i], a)) return 1; /* found another way already */
    if (ad->count < ad->cap) {
        trainsize_advice *o = &ad->out[ad->count++];
        *o = *a;
        o->peak_total = r.memory.peak_total;
        o->gpu_capacity = r.memory.gpu_capacity;
        o->gpus = r.gpus;
        o->step_seconds = r.time.step_seconds;
        o->seconds = r.time.seconds;
    }
    return 1;
}

/* How much a recomputation recomputes: none < selective < per-op < full. */
static int recompute_rank(int recompute)
{
    switch (recompute) {
    case TRAINSIZE_RECOMPUTE_SELECTIVE: return 1;
    case TRAINSIZE_RECOMPUTE_PER_OP: return 2;
    case TRAINSIZE_RECOMPUTE_FULL: return 3;
    default: return 0;
    }
}

static unsigned step_levels(const step *st)
{
    return st->kind == STEP_SET ? 1 : st->kind == STEP_TP ? 3 : MAX_GPU_DOUBLINGS;
}

/* Apply one step to job, noting it in a; 0 when it does not apply to this job. For tp
 * and more GPUs, level picks the factor (1: x2, 2: x4, ...). */
static int apply_step(const advisor *ad, trainsize_job *job, trainsize_advice *a, const step *st,
                      unsigned level)
{
    char v[32];
    uint64_t gpn = job->s.gpus_per_node ? job->s.gpus_per_node : ts_host_size(job->s.gpu);
    switch (st->kind) {
    case STEP_SET:
        /* a critic's own sharding and offload: ppo only, and only where the critic's own
         * setting would change (critic-zero 3: below it; critic-offload: none so far) */
        if (strncmp(st->name, "critic-", 7) == 0 &&
            (job->s.method != TS_METHOD_PPO ||
             (strcmp(st->name, "critic-zero") == 0 &&
              (job->s.critic_zero == 4 || (job->s.critic_zero == 0 && job->s.zero == 3))) ||
             (strcmp(st->name, "critic-offload") == 0 &&
              (job->s.critic_offload > 1 || (job->s.critic_offload == 0 && job->s.offload != TRAINSIZE_OFFLOAD_NONE)))))
            return 0;
        if (strcmp(st->name, "zero") == 0) {
            if (job->s.zero >= (uint64_t)(st->value[0] - '0')) return 0;
        } else if (strcmp(st->name, "micro-batch") == 0) {
            if (job->s.micro_batch == 1) return 0;
        } else if (strcmp(st->name, "recompute") == 0) {
            /* what the job recomputes: as set, else as the estimate defaulted it; never
             * less (none < selective < per-op < full) */
            int now = job->s.recompute_given ? job->s.recompute : ad->recompute;
            int offered = strcmp(st->value, "full") == 0     ? TRAINSIZE_RECOMPUTE_FULL
                          : strcmp(st->value, "per-op") == 0 ? TRAINSIZE_RECOMPUTE_PER_OP
                                                             : TRAINSIZE_RECOMPUTE_SELECTIVE;
            if (recompute_rank(now) >= recompute_rank(offered)) return 0;
        } else if (strcmp(st->name, "attention") == 0) {
            if (job->s.attention == TRAINSIZE_ATTENTION_FLASH) return 0;
        } else if (strcmp(st->name, "lora-rank") == 0) {
            if (job->s.lora_rank) return 0;
        } else if (strcmp(st->name, "quantize-base") == 0) {
            if (job->s.quantize_base != TRAINSIZE_QUANTIZE_NONE) return 0;
            if (!job->s.lora_rank && !apply(job, a, "lora-rank", "16")) return 0;
        } else if (strcmp(st->name, "offload") == 0) {
            int params = strcmp(st->value, "optimizer+params") == 0;
            if (job->s.offload == (params ? TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS : TRAINSIZE_OFFLOAD_OPTIMIZER))
                return 0;
            if (job->s.zero < (params ? 3u : 1u) && !apply(job, a, "zero", params ? "3" : "1")) return 0;
        }
        if (!apply(job, a, st->name, st->value)) return 0;
        return strcmp(st->name, "micro-batch") != 0 || keep_batch(ad, job, a);
    case STEP_TP:
        /* tp stays on the scale-up fabric: a server's, or an NVL72 rack's. */
        if ((job->s.tp << level) > ts_fabric_span(job->s.gpu, gpn, job->s.gpus) ||
            job->s.gpus % (job->s.tp << level) != 0)
            return 0;
        snprintf(v, sizeof v, "%llu", (unsigned long long)(job->s.tp << level));
        return apply(job, a, "tp", v) && keep_batch(ad, job, a);
    case STEP_MORE_GPUS:
        /* More GPUs help only by sharding: with ZeRO-3 where the pipeline allows it. */
        if (job->s.zero < 3 && job->s.pp == 1 && !apply(job, a, "zero", "3")) return 0;
        /* The global batch is left as it was set; a default one grows with dp. */
        snprintf(v, sizeof v, "%llu", (unsigned long long)(job->s.gpus << level));
        return apply(job, a, "gpus", v);
    }
    return 0;
}

/* Each step alone on the original job (the smallest factor of tp or GPUs that fits). */
static void single_changes(advisor *ad, const trainsize_job *job)
{
    size_t i;
    unsigned level;
    for (i = 0; i < STEP_COUNT && ad->count < ad->cap; i++)
        for (level = 1; level <= step_levels(&STEPS[i]); level++) {
            trainsize_advice a;
            memset(&a, 0, sizeof a);
            copy_job(&ad->work, job);
            if (apply_step(ad, &ad->work, &a, &STEPS[i], level) && try_fit(ad, &ad->work, &a)) break;
        }
}

/* The steps on top of one another, in order, until the job fits: each kept at its
 * strongest form; more GPUs are tried on what is stacked so far, never kept. */
static void stacked_changes(advisor *ad, const trainsize_job *job)
{
    trainsize_job stack, trial;
    trainsize_advice a, t;
    size_t i;
    unsigned level;
    memset(&a, 0, sizeof a);
    copy_job(&stack, job);
    for (i = 0; i < STEP_COUNT && ad->count < ad->cap; i++) {
        int kept = 0;
        for (level = step_levels(&STEPS[i]); level >= 1; level--) {
            copy_job(&trial, &stack);
            t = a;
            if (!apply_step(ad, &trial, &t, &STEPS[i], level)) continue;
            if (STEPS[i].kind == STEP_MORE_GPUS) {
                /* the fewest GPUs that fit, on what is stacked */
                unsigned l;
                for (l = 1; l <= level; l++) {
                    copy_job(&trial, &stack);
                    t = a;
                    if (apply_step(ad, &trial, &t, &STEPS[i], l) && try_fit(ad, &trial, &t)) return;
                }
                break;
            }
            if (!kept) {
                copy_job(&stack, &trial);
                a = t;
                kept = 1;
            }
            break;
        }
        if (kept && try_fit(ad, &stack, &a)) return;
    }
}

/* How far an advice takes the user from the job: 0 settings that cost time only, 1 more
 * GPUs (money), 2 a different training method (LoRA, QLoRA). */
static int disruption(const trainsize_advice *a)
{
    size_t k;
    int d = 0;
    for (k = 0; k < a->settings; k++) {
        if (strcmp(a->names[k], "lora-rank") == 0 || strcmp(a->names[k], "quantize-base") == 0) return 2;
        if (strcmp(a->names[k], "gpus") == 0) d = 1;
    }
    return d;
}

/* Least disruptive first; among equals, the fastest. Stable (insertion sort, n is small). */
static void order(trainsize_advice *out, size_t n)
{
    size_t i, j;
    for (i = 1; i < n; i++) {
        trainsize_advice x = out[i];
        int dx = disruption(&x);
        for (j = i; j > 0; j--) {
            int dj = disruption(&out[j - 1]);
            if (dj < dx || (dj == dx && out[j - 1].seconds <= x.seconds)) break;
            out[j] = out[j - 1];
        }
        out[j] = x;
    }
}

int trainsize_advise(const trainsize_job *job, trainsize_advice *out, size_t cap, size_t *count,
                     trainsize_error *err)
{
    advisor ad;
    trainsize_result r;
    int rc;
    if (count) *count = 0;
    if (!job || !count || (!out && cap))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_advise: NULL job, count or advice array");
    if ((rc = trainsize_estimate(job, &r, sizeof r, err))) return rc;
    if (r.memory.fits || cap == 0) return ts_ok(err);
    memset(&ad, 0, sizeof ad);
    ad.out = out;
    ad.cap = cap;
    ad.global_batch = r.layout.global_batch;
    ad.batch_set = job->s.global_batch != 0;
    ad.recompute = r.layout.recompute;
    single_changes(&ad, job);
    if (ad.count < cap) stacked_changes(&ad, job);
    order(out, ad.count);
    *count = ad.count;
    return ts_ok(err);
}

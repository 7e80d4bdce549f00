/* What a server can train (trainsize_capacity): for each way of training, the largest
 * catalogue decoder that fits the GPUs, with the settings that make it fit.
 *
 * Models are tried from the largest down; each with a ladder of settings that save memory
 * in the order a practitioner reaches for them: shard the state (ZeRO-3), recompute the
 * activations, split the layers (tensor parallelism inside a server), then move the
 * optimizer state and the weights to the CPU. The first model with a rung that fits is the
 * answer, so no larger model fits on any rung. The entry's options are built from the same
 * settings the estimate read, so `trainsize estimate` given them sees the same job. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "job.h"
#include "model.h"
#include "host_ram.h"
#include "text.h"

/* One way of training: what it sets on the job. */
typedef struct way {
    const char *name;
    const char *method;   /* the "method" option */
    uint64_t lora_rank;   /* 0: every weight trained */
    int qlora;            /* an nf4 base */
    int may_offload;      /* CPU offload is a rung (not for pretraining: too slow for it) */
} way;

static const way WAYS[TRAINSIZE_CAPACITY_METHODS] = {
    {"pretraining", "sft", 0, 0, 0}, {"full-fine-tuning", "sft", 0, 0, 1}, {"lora", "sft", 16, 0, 1},
    {"qlora", "sft", 16, 1, 1},      {"dpo", "dpo", 0, 0, 1},              {"grpo", "grpo", 0, 0, 1},
};

/* One rung of the ladder. */
typedef struct rung {
    int recompute_full;
    uint64_t tp;
    const char *offload; /* NULL: none */
} rung;

static const rung LADDER[] = {
    {0, 1, NULL}, {1, 1, NULL}, {1, 2, NULL}, {1, 4, NULL}, {1, 8, NULL}, {1, 1, "optimizer"},
    {1, 1, "optimizer+params"},
};
#define RUNGS (sizeof LADDER / sizeof LADDER[0])

/* A decoder language model of the catalogue: an LM head, no vision tower, not a CNN. */
static int decoder(const trainsize_model_info *info, trainsize_job *probe)
{
    const ts_model *m = &probe->s.model;
    if (trainsize_job_set(probe, "model", info->name, NULL) != TRAINSIZE_OK) return 0;
    return m->head == TS_HEAD_LM && m->vision_layers == 0 && !ts_model_is_cnn(m);
}

/* Set a named option; 0 when the job took it. */
static int set(trainsize_job *job, const char *name, const char *value)
{
    return trainsize_job_set(job, name, value, NULL) != TRAINSIZE_OK;
}

static int set_u64(trainsize_job *job, const char *name, uint64_t v)
{
    char text[24];
    snprintf(text, sizeof text, "%llu", (unsigned long long)v);
    return set(job, name, text);
}

/* The job for one model, way and rung on top of the base (hardware and batch set). */
static int configure(trainsize_job *job, const trainsize_job *base, const char *model, const way *w,
                     const rung *r)
{
    int bad;
    *job = *base;
    ts_job_rebind_custom_gpu(job, 0);
    bad = set(job, "model", model) | set(job, "method", w->method) | set_u64(job, "lora-rank", w->lora_rank) |
          set(job, "quantize-base", w->qlora ? "nf4" : "none") |
          set(job, "zero", job->s.gpus > 1 ? "3" : "0") | set(job, "recompute", r->recompute_full ? "full" : "none") |
          set_u64(job, "tp", r->tp) | set(job, "offload", r->offload ? r->offload : "none");
    return bad;
}

/* The options that reproduce an entry: the base's, then the model's and the rung's. */
static void describe(trainsize_capacity_entry *e, const trainsize_job *base, const char *gpu, const char *model,
                     const way *w, const rung *r)
{
    char *b = e->args;
    size_t cap = sizeof e->args;
    int n = snprintf(b, cap, "--model %s --gpu %s --gpus %llu", model, gpu, (unsigned long long)base->s.gpus);
    if (base->s.gpus_per_node)
        n += snprintf(b + n, cap - (size_t)n, " --gpus-per-node %llu", (unsigned long long)base->s.gpus_per_node);
    n += snprintf(b + n, cap - (size_t)n, " --seq %llu --micro-batch %llu", (unsigned long long)base->s.seq,
                  (unsigned long long)base->s.micro_batch);
    if (base->s.host_ram)
        n += snprintf(b + n, cap - (size_t)n, " --host-ram %llu", (unsigned long long)base->s.host_ram);
    if (base->s.gpus > 1) n += snprintf(b + n, cap - (size_t)n, " --zero 3");
    if (r->recompute_full) n += snprintf(b + n, cap - (size_t)n, " --recompute full");
    if (r->tp > 1) n += snprintf(b + n, cap - (size_t)n, " --tp %llu", (unsigned long long)r->tp);
    if (r->offload) n += snprintf(b + n, cap - (size_t)n, " --offload %s", r->offload);
    if (w->lora_rank) n += snprintf(b + n, cap - (size_t)n, " --lora-rank %llu", (unsigned long long)w->lora_rank);
    if (w->qlora) n += snprintf(b + n, cap - (size_t)n, " --quantize-base nf4");
    if (strcmp(w->method, "sft") != 0) snprintf(b + n, cap - (size_t)n, " --method %s", w->method);
}

/* Fits with room to spare: the whole peak, the allocator's reserve included, on the GPU
 * (the estimate's "fits" lets the allocator shed its cache first: "FITS, TIGHT"), and the
 * host RAM the job needs within the server's: as given, else the product's as catalogued
 * (a host built around its GPUs), else what the library sizes a server at before any job's
 * own need (host-ram-factor x its GPU memory, in a size servers are sold with). */
static int fits(const trainsize_result *r, const trainsize_job *base, uint64_t host_ram)
{
    const trainsize_gpu_info *g = base->s.gpu;
    double server = (double)host_ram;
    if (!g) return 0;
    if (!server)
        server = g->host_ram_bytes && (int)r->system.gpus_per_node == g->per_host
                     ? (double)g->host_ram_bytes
                     : ts_round_up_ram(base->s.host_ram_factor * (double)r->system.gpus_per_node *
                                       (double)g->memory_bytes);
    return r->memory.fits && r->memory.peak_total <= r->memory.gpu_capacity &&
           (double)r->system.host_ram_need_per_node <= server;
}

/* The largest fitting model for one way: its entry filled, or left empty. */
static void largest(const trainsize_job *base, uint64_t host_ram, const size_t *order, size_t count, const way *w,
                    trainsize_job *job, trainsize_result *r, trainsize_capacity_entry *e)
{
    size_t i, k;
    snprintf(e->method, sizeof e->method, "%s", w->name);
    for (i = 0; i < count; i++) {
        const trainsize_model_info *info = trainsize_model_at(order[i]);
        for (k = 0; k < RUNGS; k++) {
            const rung *rg = &LADDER[k];
            if (rg->offload && !w->may_offload) continue;
            if (rg->tp > 1 && (rg->tp > base->s.gpus || (base->s.gpus_per_node && rg->tp > base->s.gpus_per_node)))
                continue;
            if (configure(job, base, info->name, w, rg)) continue;
            if (trainsize_estimate(job, r, sizeof *r, NULL) != TRAINSIZE_OK || !fits(r, base, host_ram)) continue;
            snprintf(e->model, sizeof e->model, "%s", info->name);
            e->parameters = r->model.parameters;
            e->tokens_per_s = r->time.seconds > 0.0 ? r->time.tokens / r->time.seconds : 0.0;
            e->peak_total = r->memory.peak_total;
            describe(e, base, r->gpu, info->name, w, rg);
            return;
        }
    }
}

int trainsize_capacity(const char *gpu, uint64_t gpus, uint64_t gpus_per_node, uint64_t seq, uint64_t micro_batch,
                       uint64_t host_ram, trainsize_capacity_entry *out, trainsize_error *err)
{
    size_t order[512], count = 0, i, j, m;
    trainsize_job *base, *job;
    trainsize_result *r;
    int rc;
    if (!gpu || !out) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_capacity: NULL gpu or out");
    memset(out, 0, TRAINSIZE_CAPACITY_METHODS * sizeof *out);
    base = trainsize_job_new();
    job = trainsize_job_new();
    r = base && job ? (trainsize_result *)malloc(sizeof *r) : NULL;
    rc = r ? TRAINSIZE_OK : ts_fail(err, TRAINSIZE_E_NOMEM, "", "trainsize_capacity: out of memory");
    /* the hardware and the batch, each checked by its option */
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set(base, "gpu", gpu, err);
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_u64(base, TRAINSIZE_ID_GPUS, gpus, err);
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_u64(base, TRAINSIZE_ID_GPUS_PER_NODE, gpus_per_node, err);
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_u64(base, TRAINSIZE_ID_SEQ, seq, err);
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_u64(base, TRAINSIZE_ID_MICRO_BATCH, micro_batch, err);
    if (rc == TRAINSIZE_OK) rc = trainsize_job_set_u64(base, TRAINSIZE_ID_HOST_RAM, host_ram, err);
    if (rc == TRAINSIZE_OK) {
        /* the decoders, largest first (insertion sort: a hundred presets) */
        m = trainsize_model_count();
        for (i = 0; i < m && count < sizeof order / sizeof order[0]; i++) {
            if (!decoder(trainsize_model_at(i), job)) continue;
            for (j = count; j > 0 && trainsize_model_at(order[j - 1])->parameters < trainsize_model_at(i)->parameters;
                 j--)
                order[j] = order[j - 1];
            order[j] = i;
            count++;
        }
        for (i = 0; i < TRAINSIZE_CAPACITY_METHODS; i++) {
            largest(base, host_ram, order, count, &WAYS[i], job, r, &out[i]);
            if (!out[i].model[0] && !WAYS[i].lora_rank && strcmp(WAYS[i].method, "sft") != 0) {
                /* post-training that fits no model with every weight trained: with LoRA, as
                 * TRL runs it on small GPUs (the reference is the model, adapters off) */
                way with_lora = WAYS[i];
                with_lora.lora_rank = 16;
                largest(base, host_ram, order, count, &with_lora, job, r, &out[i]);
            }
        }
        rc = ts_ok(err);
    }
    free(r);
    trainsize_job_free(job);
    trainsize_job_free(base);
    return rc;
}

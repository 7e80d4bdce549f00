/* The most loaded GPU's memory as the caller reads it: every pipeline stage that can be the
 * most loaded is sized (the first holds the embedding and the most in-flight micro-batches,
 * the last the output layer and the loss, and with uneven stages the first middle one its
 * extra layers), the largest is kept and its figures rounded to whole bytes. The estimate
 * and the largest-fit search both read memory through here, so they agree to the byte. */
#include <string.h>

#include "checked.h"
#include "error.h"
#include "stages.h"

/* Too large a figure is the caller's input at fault: the error names that input
 * (err->field) and the figure it would have overflowed. */
static int too_large(const char *result, const char *input, trainsize_error *err)
{
    return ts_fail(err, TRAINSIZE_E_OVERFLOW, input,
                   "%s: the job is too large to estimate (%s would pass 2^63 bytes); %s", input, result,
                   strcmp(input, "micro-batch") == 0 ? "lower micro-batch or seq" : "check the model's sizes");
}

/* Bytes are computed in double (exact below 2^53) and rounded up once, here. */
int ts_result_bytes(double v, uint64_t *out, const char *result, const char *input,
                    trainsize_error *err)
{
    if (!ts_fits_u64(v)) return too_large(result, input, err);
    *out = ts_ceil_u64(v);
    return TRAINSIZE_OK;
}

/* Each figure with the input that drives it: model state grows with the model, the rest
 * with the tokens of a micro-batch. A list expanded into straight-line code: the estimate
 * converts every figure every time, and a table walked by offsets cost twice as much. */
static const char MODEL[] = "model", BATCH[] = "micro-batch";
#define TS_MEMORY_FIGURES(X)                              \
    X(weights, weights, MODEL)                            \
    X(gradients, gradients, MODEL)                        \
    X(optimizer, optimizer, MODEL)                        \
    X(master, master_weights, MODEL)                      \
    X(activations, activations, BATCH)                    \
    X(act_layers, activations_layers, BATCH)              \
    X(act_embedding, activations_embedding, BATCH)        \
    X(act_output, activations_output, BATCH)              \
    X(act_loss, activations_loss, BATCH)                  \
    X(act_per_layer, activations_per_layer, BATCH)        \
    X(transient, transient, BATCH)                        \
    X(peak_allocated, peak_allocated, BATCH)              \
    X(cuda_context, cuda_context, MODEL)                  \
    X(comm_buffers, comm_buffers, MODEL)                  \
    X(allocator_slack, allocator_slack, BATCH)            \
    X(host_offload, host_offload, MODEL)                  \
    X(act_offloaded, activations_offloaded, BATCH)        \
    X(load_peak, loading_peak, MODEL)                     \
    X(reference, reference_weights, MODEL)                \
    X(critic, critic_state, MODEL)                        \
    X(rollout_weights, rollout_weights, MODEL)            \
    X(rollout_kv, rollout_kv_cache, MODEL)                \
    X(teacher, teacher_weights, MODEL)                    \
    X(vision_weights, vision_weights, MODEL)              \
    X(act_vision, activations_vision, BATCH)

static int fill_memory(const ts_stage_memory *s, uint64_t stage, const ts_layout *lay, double cfg_fragmentation,
                       trainsize_memory *m, trainsize_error *err)
{
    /* in the list's order, so the first figure too large is the one named */
#define TS_CONVERT(from, to, input)                                     \
    if (!ts_fits_u64(s->from)) return too_large("memory." #to, input, err); \
    m->to = ts_ceil_u64(s->from);
    TS_MEMORY_FIGURES(TS_CONVERT)
#undef TS_CONVERT
    /* Totals are sums of the rounded parts, so the report adds up to the byte. */
    m->overhead = m->cuda_context + m->comm_buffers + m->allocator_slack;
    if ((double)m->peak_allocated + (double)m->overhead >= 9.2e18)
        return too_large("memory.peak_total", BATCH, err);
    m->peak_total = m->peak_allocated + m->overhead;
    m->peak_reserved = m->peak_allocated + m->allocator_slack;
    /* What the job needs: under pressure the allocator releases its cache and retries, so the
     * fragmentation share, not the slack, stands beyond the allocated peak */
    {
        double needed = (double)m->peak_allocated * (1.0 + cfg_fragmentation) + (double)m->cuda_context +
                        (double)m->comm_buffers;
        if (!ts_fits_u64(needed)) return too_large("memory.peak_needed", BATCH, err);
        m->peak_needed = ts_ceil_u64(needed);
    }
    m->in_flight_microbatches = s->in_flight;
    m->gpu_capacity = lay->capacity;
    /* and the critic's or the reward model's own GPUs, where they have them */
    m->fits = m->peak_needed <= m->gpu_capacity && s->critic_gpu_needed <= (double)lay->capacity &&
              s->reward_gpu_needed <= (double)lay->capacity;
    m->peak_phase = s->peak_phase;
    m->peak_includes_activations = s->peak_has_activations;
    m->peak_includes_gradients = s->peak_has_gradients;
    m->pipeline_stage = (int)stage;
    m->recomputed_layers = (uint64_t)s->recomputed_layers;
    return TRAINSIZE_OK;
}

int ts_memory_result(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                     const ts_param_counts *pc, ts_stage_memory *worst, trainsize_memory *m,
                     trainsize_error *err)
{
    ts_stage_memory other;
    ts_layer_memo memo; /* the stages' layers are the same: each is worked out once */
    uint64_t stage = 0;
    memset(&memo, 0, sizeof memo);
    ts_memory_stage(cfg, lay, conv, pc, 0, &memo, worst);
    if (lay->pp > 1) {
        ts_memory_stage(cfg, lay, conv, pc, lay->pp - 1, &memo, &other);
        if (other.peak_total > worst->peak_total) { *worst = other; stage = lay->pp - 1; }
    }
    /* Uneven stages: the first middle stage has more layers than the first and nearly as
     * many micro-batches in flight. */
    if (lay->pp > 2 && lay->mid_layers > lay->first_layers) {
        ts_memory_stage(cfg, lay, conv, pc, 1, &memo, &other);
        if (other.peak_total > worst->peak_total) { *worst = other; stage = 1; }
    }
    /* zero from ts_memory_stage unless a critic or reward model has GPUs of its own */
    if (lay->critic_gpus || lay->reward_gpus) ts_side_memory(cfg, lay, conv, pc, worst);
    m->max_micro_batch = m->max_seq = 0; /* fill_memory sets every other field */
    return fill_memory(worst, stage, lay, cfg->fragmentation, m, err);
}

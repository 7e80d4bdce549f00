/* The most loaded GPU's memory as the caller reads it: every pipeline stage that can be the
 * most loaded is sized (the first holds the embedding and the most in-flight micro-batches,
 * the last the output layer and the loss, and with uneven stages the first middle one its
 * extra layers), the largest is kept and its figures rounded to whole bytes. The estimate
 * and the largest-fit search both read memory through here, so they agree to the byte. */
#include <math.h>
#include <string.h>

#include "error.h"
#include "stages.h"

/* Bytes are computed in double (exact below 2^53) and rounded up once, here. Too large a
 * figure is the caller's input at fault: the error names that input (err->field) and the
 * figure it would have overflowed. */
int ts_result_bytes(double v, uint64_t *out, const char *result, const char *input,
                    trainsize_error *err)
{
    if (!(v >= 0) || v >= 9.2e18)
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, input,
                       "%s: the job is too large to estimate (%s would pass 2^63 bytes); %s",
                       input, result,
                       strcmp(input, "micro-batch") == 0 ? "lower micro-batch or seq"
                                                          : "check the model's sizes");
    *out = (uint64_t)ceil(v);
    return TRAINSIZE_OK;
}

static int fill_memory(const ts_stage_memory *s, uint64_t stage, const ts_layout *lay,
                       trainsize_memory *m, trainsize_error *err)
{
    /* Each figure with the input that drives it: model state grows with the model, the
     * rest with the tokens of a micro-batch. */
    static const char model[] = "model", batch[] = "micro-batch";
    struct { double v; uint64_t *dst; const char *name, *input; } items[] = {
        {s->weights, &m->weights, "memory.weights", model},
        {s->gradients, &m->gradients, "memory.gradients", model},
        {s->optimizer, &m->optimizer, "memory.optimizer", model},
        {s->master, &m->master_weights, "memory.master_weights", model},
        {s->activations, &m->activations, "memory.activations", batch},
        {s->act_layers, &m->activations_layers, "memory.activations_layers", batch},
        {s->act_embedding, &m->activations_embedding, "memory.activations_embedding", batch},
        {s->act_output, &m->activations_output, "memory.activations_output", batch},
        {s->act_loss, &m->activations_loss, "memory.activations_loss", batch},
        {s->act_per_layer, &m->activations_per_layer, "memory.activations_per_layer", batch},
        {s->transient, &m->transient, "memory.transient", batch},
        {s->peak_allocated, &m->peak_allocated, "memory.peak_allocated", batch},
        {s->cuda_context, &m->cuda_context, "memory.cuda_context", model},
        {s->comm_buffers, &m->comm_buffers, "memory.comm_buffers", model},
        {s->allocator_slack, &m->allocator_slack, "memory.allocator_slack", batch},
        {s->host_offload, &m->host_offload, "memory.host_offload", model},
        {s->act_offloaded, &m->activations_offloaded, "memory.activations_offloaded", batch},
        {s->load_peak, &m->loading_peak, "memory.loading_peak", model},
        {s->reference, &m->reference_weights, "memory.reference_weights", model},
        {s->critic, &m->critic_state, "memory.critic_state", model},
        {s->rollout_weights, &m->rollout_weights, "memory.rollout_weights", model},
        {s->rollout_kv, &m->rollout_kv_cache, "memory.rollout_kv_cache", model},
        {s->teacher, &m->teacher_weights, "memory.teacher_weights", model},
        {s->vision_weights, &m->vision_weights, "memory.vision_weights", model},
        {s->act_vision, &m->activations_vision, "memory.activations_vision", batch},
    };
    size_t i;
    int rc;
    for (i = 0; i < sizeof items / sizeof items[0]; i++)
        if ((rc = ts_result_bytes(items[i].v, items[i].dst, items[i].name, items[i].input, err))) return rc;
    /* Totals are sums of the rounded parts, so the report adds up to the byte. */
    m->overhead = m->cuda_context + m->comm_buffers + m->allocator_slack;
    if ((rc = ts_result_bytes((double)m->peak_allocated + (double)m->overhead, &m->peak_total,
                       "memory.peak_total", batch, err)))
        return rc;
    m->peak_total = m->peak_allocated + m->overhead;
    m->peak_reserved = m->peak_allocated + m->allocator_slack;
    m->in_flight_microbatches = s->in_flight;
    m->gpu_capacity = lay->capacity;
    m->fits = m->peak_total <= m->gpu_capacity;
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
    uint64_t stage = 0;
    ts_memory_stage(cfg, lay, conv, pc, 0, worst);
    if (lay->pp > 1) {
        ts_memory_stage(cfg, lay, conv, pc, lay->pp - 1, &other);
        if (other.peak_total > worst->peak_total) { *worst = other; stage = lay->pp - 1; }
    }
    /* Uneven stages: the first middle stage has more layers than the first and nearly as
     * many micro-batches in flight. */
    if (lay->pp > 2 && lay->mid_layers > lay->first_layers) {
        ts_memory_stage(cfg, lay, conv, pc, 1, &other);
        if (other.peak_total > worst->peak_total) { *worst = other; stage = 1; }
    }
    m->max_micro_batch = m->max_seq = 0; /* fill_memory sets every other field */
    return fill_memory(worst, stage, lay, m, err);
}

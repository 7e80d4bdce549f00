/* trainsize_estimate: validate, count, size every pipeline stage that can be the most
 * loaded (the first holds the embedding and the most in-flight micro-batches, the last
 * the output layer and the loss, and with uneven stages the first middle one its extra
 * layers), keep the largest, then servers and time. No heap. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "job.h"
#include "stages.h"
#include "text_values.h"

/* Bytes are computed in double (exact below 2^53) and rounded up once, here. Too large a
 * figure is the caller's input at fault: the error names that input (err->field) and the
 * figure it would have overflowed. */
static int to_bytes(double v, uint64_t *out, const char *result, const char *input,
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
    };
    size_t i;
    int rc;
    for (i = 0; i < sizeof items / sizeof items[0]; i++)
        if ((rc = to_bytes(items[i].v, items[i].dst, items[i].name, items[i].input, err))) return rc;
    /* Totals are sums of the rounded parts, so the report adds up to the byte. */
    m->overhead = m->cuda_context + m->comm_buffers + m->allocator_slack;
    if ((rc = to_bytes((double)m->peak_allocated + (double)m->overhead, &m->peak_total,
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

static int fill_model(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                      trainsize_model_counts *mc, trainsize_error *err)
{
    memset(mc, 0, sizeof *mc);
    ts_copy_name(mc->name, sizeof mc->name, cfg->model.name[0] ? cfg->model.name : "custom");
    mc->parameters = pc->total;
    mc->active_parameters = pc->active;
    mc->trainable_parameters = pc->total;
    mc->embedding_parameters = pc->token_embedding + pc->position_embedding + pc->output_layer;
    mc->layer_parameters = pc->layer;
    mc->mtp_parameters = pc->mtp;
    if (cfg->lora_rank)
        return to_bytes(lay->lora_layer * (double)cfg->model.layers,
                        &mc->trainable_parameters, "model.trainable_parameters", "lora-rank", err);
    return TRAINSIZE_OK;
}

/* The layout the estimate used, as the caller reads it. */
static void fill_layout(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                        trainsize_result *out)
{
    ts_copy_name(out->gpu, sizeof out->gpu, cfg->gpu->name);
    ts_copy_name(out->framework, sizeof out->framework, ts_framework_name(conv->framework));
    ts_copy_name(out->framework_reason, sizeof out->framework_reason, conv->framework_reason);
    ts_copy_name(out->stack, sizeof out->stack, ts_stack_name(conv->stack));
    ts_copy_name(out->stack_reason, sizeof out->stack_reason, conv->stack_reason);
    ts_copy_name(out->pp_schedule, sizeof out->pp_schedule, ts_pp_schedule_name(lay->schedule));
    out->pipeline_bubble = lay->bubble;
    ts_conv_kernels_text(conv, out->kernels, sizeof out->kernels);
    ts_copy_name(out->fp8_recipe, sizeof out->fp8_recipe,
                 cfg->precision == TS_PREC_FP8_MIXED ? ts_fp8_recipe_name(ts_fp8_recipe_resolve(cfg)) : "");
    ts_copy_name(out->global_batch_reason, sizeof out->global_batch_reason, lay->global_batch_reason);
    out->gpus = lay->gpus;
    out->data_parallel = lay->dp;
    out->gradient_accumulation = lay->micro_batches;
    out->pipeline_first_layers = lay->first_layers;
    out->pipeline_layers = lay->mid_layers ? lay->mid_layers : lay->first_layers;
    out->pipeline_last_layers = lay->last_layers;
    out->layout.tp = lay->tp;
    out->layout.pp = lay->pp;
    out->layout.pp_interleave = lay->vpp;
    out->layout.cp = lay->cp;
    out->layout.ep = lay->ep;
    out->layout.zero = lay->zero;
    out->layout.micro_batch = lay->micro_batch;
    out->layout.global_batch = lay->global_batch;
    out->layout.sp = lay->sp;
    out->layout.recompute = cfg->recompute;
}

int trainsize_estimate(const trainsize_job *job, trainsize_result *out, size_t out_size,
                       trainsize_error *err)
{
    const ts_settings *cfg;
    ts_settings qlora; /* the job's settings with PEFT's recomputation, when that applies */
    ts_layout lay;
    ts_conv conv;
    ts_param_counts pc;
    ts_stage_memory first, last, middle;
    const ts_stage_memory *worst;
    uint64_t worst_stage;
    ts_compute cmp;
    ts_step_losses losses = {0.0, 0.0};
    ts_findings found = {0};
    int rc;
    if (!job || !out)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_estimate: NULL job or result");
    if (out_size < sizeof *out)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_estimate: result struct of %lu "
                       "bytes is smaller than the library's %lu (header/library mismatch)",
                       (unsigned long)out_size, (unsigned long)sizeof *out);
    cfg = &job->s;
    /* A default that follows the job (QLoRA recomputes as PEFT does): a copy, only then. */
    if (ts_framework_qlora_recomputes(cfg)) {
        qlora = *cfg;
        qlora.recompute = TS_RECOMPUTE_FULL;
        qlora.recompute_auto = 1;
        cfg = &qlora;
    }
    if ((rc = ts_model_validate(&cfg->model, err))) return rc;
    if ((rc = ts_model_count(&cfg->model, &pc, err))) return rc;
    if ((rc = ts_layout_make(cfg, &lay, err))) return rc;
    if ((rc = ts_conv_make(cfg, &lay, &conv, err))) return rc;
    ts_memory_stage(cfg, &lay, &conv, &pc, 0, &first);
    worst = &first;
    worst_stage = 0;
    if (lay.pp > 1) {
        ts_memory_stage(cfg, &lay, &conv, &pc, lay.pp - 1, &last);
        if (last.peak_total > first.peak_total) { worst = &last; worst_stage = lay.pp - 1; }
    }
    /* Uneven stages: the first middle stage has more layers than the first and nearly as
     * many micro-batches in flight. */
    if (lay.pp > 2 && lay.mid_layers > lay.first_layers) {
        ts_memory_stage(cfg, &lay, &conv, &pc, 1, &middle);
        if (middle.peak_total > worst->peak_total) { worst = &middle; worst_stage = 1; }
    }
    memset(out, 0, sizeof *out);
    if ((rc = fill_model(cfg, &lay, &pc, &out->model, err))) return rc;
    if ((rc = fill_memory(worst, worst_stage, &lay, &out->memory, err))) return rc;
    if ((rc = ts_compute_make(cfg, &lay, &pc, &conv, &out->memory, &cmp, err))) return rc;
    if ((rc = ts_system_make(cfg, &lay, &pc, &conv, &out->memory, &cmp, &out->system, &losses,
                             &found, err)))
        return rc;
    losses.offload += ts_activation_offload_seconds(cfg, &lay, worst->act_offload_moved, &cmp);
    ts_time_make(&cmp, &losses, &lay, &out->time);
    ts_power_cost(cfg, &lay, &out->time, &out->system, &found);
    fill_layout(cfg, &lay, &conv, out);
    ts_warnings_make(cfg, &lay, out, &found, &out->warnings);
    if (!isfinite(out->time.seconds) || !isfinite(out->system.energy_kwh))
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "tokens", "tokens: time or energy does not fit a double");
    return ts_ok(err);
}

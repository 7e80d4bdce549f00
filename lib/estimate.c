/* trainsize_estimate: validate, count, size the most loaded GPU's memory
 * (memory_result.c), then servers, time, goodput, power and cost, the facility, and the
 * largest batch and sequence that fit. No heap. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "estimate_floor.h"
#include "job.h"
#include "stages.h"
#include "text_values.h"

/* An image as stored, when sample-bytes is not given: ImageNet-1k's training set, 1,281,167
 * JPEGs in its 138 GB archive (ILSVRC2012_img_train.tar), about 108 kB each. */
#define TS_CNN_IMAGE_BYTES 108000

static int fill_model(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                      trainsize_model_counts *mc, trainsize_error *err)
{
    /* mc is in the result, which the estimate has zeroed */
    ts_copy_name(mc->name, sizeof mc->name, cfg->model.name[0] ? cfg->model.name : "custom");
    mc->parameters = pc->total;
    mc->active_parameters = pc->active;
    mc->trainable_parameters = pc->total;
    mc->embedding_parameters = pc->token_embedding + pc->position_embedding + pc->output_layer +
                               pc->embedding_other + pc->patch_embedding;
    mc->layer_parameters = pc->layer;
    mc->mtp_parameters = pc->mtp;
    mc->vision_parameters = pc->vision;
    mc->projector_parameters = pc->projector;
    /* a frozen vision tower is not trained; its projector always is */
    if (cfg->model.vision_layers && !lay->vision_trained) mc->trainable_parameters -= pc->vision;
    if (cfg->lora_rank)
        return ts_result_bytes(lay->lora_layer * (double)cfg->model.layers + (double)pc->projector,
                        &mc->trainable_parameters, "model.trainable_parameters", "lora-rank", err);
    return TRAINSIZE_OK;
}

/* The layout the estimate used, as the caller reads it. */
static void fill_layout(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                        trainsize_result *out)
{
    ts_copy_name(out->gpu, sizeof out->gpu, cfg->gpu->name);
    /* the option names come from tables as wide as their fields (stages.h): whole copies */
    memcpy(out->framework, ts_framework_name(conv->framework), sizeof out->framework);
    ts_copy_name(out->framework_reason, sizeof out->framework_reason, conv->framework_reason);
    memcpy(out->stack, ts_stack_name(conv->stack), sizeof out->stack);
    ts_copy_name(out->stack_reason, sizeof out->stack_reason, conv->stack_reason);
    memcpy(out->pp_schedule, ts_pp_schedule_name(lay->schedule), sizeof out->pp_schedule);
    out->pipeline_bubble = lay->bubble;
    ts_conv_kernels_text(conv, out->kernels, sizeof out->kernels);
    if (cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED)
        memcpy(out->fp8_recipe, ts_fp8_recipe_name(ts_fp8_recipe_resolve(cfg)), sizeof out->fp8_recipe);
    if (ts_precision_fp32(cfg->precision)) {
        ts_copy_name(out->tf32, sizeof out->tf32, ts_tf32_name(conv->tf32));
        ts_copy_name(out->tf32_reason, sizeof out->tf32_reason, conv->tf32_reason);
    }
    ts_copy_name(out->global_batch_reason, sizeof out->global_batch_reason, lay->global_batch_reason);
    {
        /* the method and reference options' choice names (settings.h); a reference left to
         * auto (sft, distill) reads "" */
        static const char *const METHODS[] = {TS_METHOD_LIST(TS_NAME_ITEM)};
        static const char *const REFERENCES[] = {TS_REFERENCE_LIST(TS_NAME_ITEM)};
        ts_copy_name(out->method, sizeof out->method,
                     cfg->method >= 0 && cfg->method < TS_METHOD_COUNT ? METHODS[cfg->method] : "");
        ts_copy_name(out->reference, sizeof out->reference,
                     lay->reference > TS_REF_AUTO && lay->reference < TS_REFERENCE_COUNT ? REFERENCES[lay->reference]
                                                                                        : "");
    }
    out->calibration_runs = cfg->calibration_runs;
    ts_copy_name(out->calibration, sizeof out->calibration, cfg->calibration_runs ? cfg->calibration_text : "");
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

/* The settings the estimate runs on (with the defaults that follow the job: QLoRA
 * recomputes as PEFT does, epochs set the run's tokens; a copy into `adjusted`, only then),
 * the model's counts, its layout and conventions. */
static int prepare(const trainsize_job *job, ts_settings *adjusted, const ts_settings **cfg_out,
                   ts_param_counts *pc, ts_layout *lay, ts_conv *conv, trainsize_error *err)
{
    const ts_settings *cfg = &job->s;
    int rc;
    if (ts_framework_qlora_recomputes(cfg) || cfg->epochs > 0.0 || ts_model_is_cnn(&cfg->model)) {
        *adjusted = *cfg;
        /* a ResNet in the shape the stages read, a sample one image */
        if (ts_model_is_cnn(&cfg->model) && ts_cnn_depth_known(cfg->model.resnet_depth)) {
            ts_cnn_shape(&adjusted->model);
            adjusted->seq = 1;
            if (!cfg->sample_bytes) adjusted->sample_bytes = TS_CNN_IMAGE_BYTES;
        }
        if (ts_framework_qlora_recomputes(cfg)) {
            adjusted->recompute = TRAINSIZE_RECOMPUTE_FULL;
            adjusted->recompute_auto = 1;
        }
        if ((rc = ts_dataset_run_tokens(adjusted, &adjusted->tokens, err))) return rc;
        cfg = adjusted;
    }
    *cfg_out = cfg;
    /* the model as counted when it was set (a ResNet's, reshaped above, is not) */
    if (job->counted_ok && memcmp(&cfg->model, &job->counted_model, sizeof cfg->model) == 0) {
        *pc = job->counted;
    } else {
        if ((rc = ts_model_validate(&cfg->model, err))) return rc;
        if ((rc = ts_model_count(&cfg->model, pc, err))) return rc;
    }
    if ((rc = ts_layout_make(cfg, lay, err))) return rc;
    return ts_conv_make(cfg, lay, conv, err);
}

int ts_estimate_floor(const trainsize_job *job, ts_time_floor *out)
{
    const ts_settings *cfg;
    ts_settings adjusted;
    ts_layout lay;
    ts_conv conv;
    ts_param_counts pc;
    trainsize_memory none; /* no state: the optimizer's pass, which only adds, is left out */
    ts_compute cmp;
    int rc;
    if ((rc = prepare(job, &adjusted, &cfg, &pc, &lay, &conv, NULL))) return rc;
    memset(&none, 0, sizeof none);
    if ((rc = ts_compute_make(cfg, &lay, &pc, &conv, &none, &cmp, NULL))) return rc;
    /* time.seconds adds communication, offload and the rollout's hand-over to these; the
     * wall time the interruptions to that (goodput.c: never less) */
    out->wall = (cmp.step_seconds + cmp.serial_seconds) * (double)cmp.steps;
    out->gpu_seconds = ts_compute_token_floor(cfg, &pc, &cmp) * cmp.tokens;
    out->gpus = lay.gpus;
    out->billed_gpus = lay.billed_gpus;
    ts_cost_floors(cfg, lay.billed_gpus, out->wall, &out->cloud, &out->own);
    ts_cost_floors(cfg, 1, out->gpu_seconds, &out->cloud_any, &out->own_any);
    return TRAINSIZE_OK;
}

double ts_estimate_straggler(const trainsize_job *job, uint64_t gpus) { return ts_straggler_factor(&job->s, gpus); }

int trainsize_largest_fit(const trainsize_job *job, uint64_t *max_micro_batch, uint64_t *max_seq,
                          trainsize_error *err)
{
    const ts_settings *cfg;
    ts_settings adjusted;
    ts_layout lay;
    ts_conv conv;
    ts_param_counts pc;
    trainsize_memory m;
    int rc;
    if (!job || !max_micro_batch || !max_seq)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_largest_fit: NULL job or output");
    if ((rc = prepare(job, &adjusted, &cfg, &pc, &lay, &conv, err))) return rc;
    memset(&m, 0, sizeof m);
    ts_largest_fit(cfg, &pc, &lay, &m);
    *max_micro_batch = m.max_micro_batch;
    *max_seq = m.max_seq;
    return ts_ok(err);
}

int trainsize_estimate(const trainsize_job *job, trainsize_result *out, size_t out_size,
                       trainsize_error *err)
{
    const ts_settings *cfg;
    ts_settings adjusted; /* see prepare() */
    ts_layout lay;
    ts_conv conv;
    ts_param_counts pc;
    ts_stage_memory worst;
    ts_compute cmp;
    ts_step_losses losses = {0.0, 0.0, 0.0, 0.0, 0.0};
    ts_findings found = {0};
    int rc;
    if (!job || !out)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_estimate: NULL job or result");
    if (out_size < sizeof *out)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_estimate: result struct of %lu "
                       "bytes is smaller than the library's %lu (header/library mismatch)",
                       (unsigned long)out_size, (unsigned long)sizeof *out);
    if ((rc = prepare(job, &adjusted, &cfg, &pc, &lay, &conv, err))) return rc;
    memset(out, 0, sizeof *out);
    if ((rc = fill_model(cfg, &lay, &pc, &out->model, err))) return rc;
    out->extra_parameters = pc.extra;
    if (pc.extra) memcpy(out->extra_tensors, job->extra_tensors, sizeof out->extra_tensors);
    if ((rc = ts_memory_result(cfg, &lay, &conv, &pc, &worst, &out->memory, err))) return rc;
    out->reward_weights = (uint64_t)ceil(worst.reward); /* at most memory.weights */
    if (lay.critic_gpus || lay.reward_gpus) {
        if ((rc = ts_result_bytes(worst.critic_gpu, &out->critic_gpu_peak, "memory.critic_gpu_peak", "critic-gpus",
                                  err)) ||
            (rc = ts_result_bytes(worst.reward_gpu, &out->reward_gpu_peak, "memory.reward_gpu_peak", "reward-gpus",
                                  err)))
            return rc;
    }
    if ((rc = ts_compute_make(cfg, &lay, &pc, &conv, &out->memory, &cmp, err))) return rc;
    if ((rc = ts_system_make(cfg, &lay, &pc, &conv, &out->memory, &cmp, &out->system, &losses,
                             &found, err)))
        return rc;
    losses.offload += ts_activation_offload_seconds(cfg, &lay, worst.act_offload_moved, &cmp);
    ts_time_make(&cmp, &losses, &lay, &out->time);
    out->rollout_sync_seconds = losses.rollout_sync;
    out->rollout_network_seconds = losses.rollout_network;
    out->critic_seconds = cmp.critic_seconds;
    out->reward_seconds = cmp.reward_seconds;
    out->critic_nodes = lay.critic_nodes;
    out->reward_nodes = lay.reward_nodes;
    if ((rc = ts_goodput_make(cfg, &lay, &out->system, &losses, &out->time, err))) return rc;
    ts_power_cost(cfg, &lay, &out->time, &out->system, &found);
    ts_facility_make(cfg, &lay, &out->system);
    if (cfg->largest_fit) ts_largest_fit(cfg, &pc, &lay, &out->memory);
    fill_layout(cfg, &lay, &conv, out);
    ts_warnings_make(cfg, &lay, out, &found, &out->warnings);
    ts_uncertainty_make(cfg, &lay, &conv, &out->uncertainty);
    if (!isfinite(out->time.seconds) || !isfinite(out->system.energy_kwh))
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "tokens", "tokens: time or energy does not fit a double");
    return ts_ok(err);
}

/* Training compute and time.
 *
 * FLOPs per token of the forward pass: 2 per multiply-accumulate of every matrix a token
 * goes through (the active parameters less the embedding look-ups), plus the attention
 * scores and their product with the values, 4 * seq * heads * head_dim per layer (PaLM,
 * Chowdhery et al. 2022, App. B: 6N + 12 L H Q T for forward and backward). The backward
 * pass costs twice the forward (Kaplan et al. 2020; Narayanan et al. 2021), or once when
 * the weights are frozen (LoRA: only input gradients). Full recomputation repeats the
 * layers' forward (Narayanan et al.'s 96 B s l h^2 instead of 72); selective recomputes
 * the attention scores. Time is FLOPs / (GPUs x dense peak x MFU). */
#include <math.h>

#include "error.h"
#include "estimate.h"

static double peak_flops(const trainsize_job *job)
{
    switch (job->precision) {
    case TS_PREC_FP32: return job->gpu->flops_fp32;
    case TS_PREC_FP8_MIXED: return job->gpu->flops_fp8;
    default: return job->gpu->flops_bf16;
    }
}

int ts_time_make(const trainsize_job *job, const ts_layout *lay, const ts_param_counts *pc,
                 trainsize_time *out, trainsize_error *err)
{
    const ts_model *m = &job->model;
    double seq = (double)job->seq, layers = (double)m->layers;
    double matmul = (double)pc->active - (double)pc->position_embedding -
                    (m->tied_embeddings ? 0.0 : (double)pc->token_embedding);
    double attention = 4.0 * layers * seq * (double)ts_model_q_dim(m);
    double per_token_fwd = 2.0 * matmul + attention;
    double lm_head = 2.0 * (double)pc->token_embedding;
    double tokens_step = (double)lay->global_batch * seq;
    double backward = job->lora_rank ? 1.0 : 2.0;
    double per_token = per_token_fwd * (1.0 + backward), peak;
    if (job->recompute == TS_RECOMPUTE_FULL) per_token += per_token_fwd - lm_head;
    if (job->recompute == TS_RECOMPUTE_SELECTIVE) per_token += attention;
    peak = peak_flops(job);
    if (!(peak > 0))
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "precision",
                       "precision: %s has no peak FLOP/s for this precision", job->gpu->name);
    out->step_flops = per_token * tokens_step;
    out->step_seconds = out->step_flops / ((double)lay->gpus * peak * job->mfu);
    out->tokens = job->tokens ? (double)job->tokens : tokens_step;
    out->steps = (uint64_t)ceil(out->tokens / tokens_step);
    out->flops = out->step_flops * (double)out->steps;
    out->seconds = out->step_seconds * (double)out->steps;
    if (!isfinite(out->flops) || !isfinite(out->seconds))
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, "tokens", "tokens: compute does not fit a double");
    return ts_ok(err);
}

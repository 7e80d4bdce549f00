/* The step's host-side cost: what a step spends outside the kernels and collectives the
 * estimate times, worked out from the job instead of one constant for every model.
 *
 *   overhead = slots x max(0, host_mb - gpu_mb) + step-sync
 *
 * The host launches a micro-batch's kernels (forward, backward, what recomputation
 * repeats) at launch-overhead seconds each, ahead of the GPU: only where it launches
 * slower than the GPU runs them (small layers, short sequences, fast GPUs) does the GPU
 * wait, for the difference, in each of the step's micro-batch slots. CUDA graphs replay a
 * captured step without the launches. step-sync is the once-a-step part: the host's
 * synchronisation with the GPU (the loss and gradient-norm reductions the logging and the
 * clipping read back, AMP's overflow check) and the next batch's fetch, after which the
 * GPU waits for the first kernels again.
 *
 * A layer's kernels are counted from what it runs: its matmuls, attention, norms, the
 * MLP's activation, rotary embeddings and the residual adds, one kernel per fused group,
 * eager modelling code a kernel per operation (Hugging Face's RMSNorm is seven: a cast,
 * pow, mean, rsqrt, two multiplies and a cast back; rotary embedding five per tensor; an
 * eager attention's scale, mask, softmax and dropout four); the backward about twice the
 * forward's; a routed MoE layer under eager code loops over its experts.
 * docs/methodology.md ("The step's host-side cost") has the figures and their sources. */
#include "stages.h"

/* The backward pass launches about twice the forward's kernels: a matmul's data and weight
 * gradients, an element-wise operation's gradient (and its reductions). */
#define TS_BACKWARD_KERNELS 2.0
/* Kernels outside the layers a micro-batch launches: the embedding, the final norm, the
 * output layer and the loss, forward and backward (a count of the modelling code). */
#define TS_OUTSIDE_KERNELS 30.0
/* A ResNet's kernels per image batch: each convolution, its BatchNorm and ReLU forward (3)
 * and backward (4: data and weight gradients, BatchNorm's, ReLU's). */
#define TS_CONV_KERNELS 7.0

/* Forward kernels of one transformer layer (an MoE layer's when `moe`). */
static double layer_forward_kernels(const ts_settings *cfg, const ts_conv *c, int moe)
{
    const ts_model *m = &cfg->model;
    ts_layer_mm mm[TS_LAYER_MMS_MAX];
    double n = (double)ts_model_layer_mms(m, moe, cfg->lora_rank, cfg->lora_targets, mm);
    double norms = m->norms_per_layer ? (double)m->norms_per_layer : 2.0;
    int eager_rms = !c->fused_norm && m->norm == TRAINSIZE_NORM_RMSNORM;
    if (moe && ts_model_is_moe(m)) {
        /* eager code loops over the experts (a matmul each, an index and a scatter); fused
         * stacks run them as grouped GEMMs with a permute and an unpermute */
        double e = (double)m->experts;
        n += c->fused ? 4.0 : 2.0 * e;
    }
    n += cfg->attention == TRAINSIZE_ATTENTION_FLASH ? 1.0 : 4.0 + (cfg->dropout > 0.0 ? 1.0 : 0.0);
    n += norms * (eager_rms ? 7.0 : 1.0);
    n += c->fused_act || !m->gated_mlp ? 1.0 : 2.0;
    if (!m->positions) n += c->fused_rope ? 1.0 : 10.0;
    n += c->fused ? 2.0 : 4.0; /* the residual adds (and their copies and casts) */
    return n;
}

double ts_step_overhead(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double compute_step)
{
    double slots = (double)lay->micro_batches * lay->bubble, kernels, host, gpu;
    if (cfg->step_overhead_given) return cfg->step_overhead;
    gpu = slots > 0.0 ? compute_step / slots : 0.0;
    /* CUDA graphs replay the captured step; XLA runs a TPU's step as one compiled program */
    if (cfg->cuda_graphs || cfg->gpu->kind == TRAINSIZE_ACCELERATOR_TPU) return cfg->step_sync;
    if (!ts_model_is_cnn(&cfg->model)) {
        /* at most about 70 kernels a layer forward (LoRA on every matmul) (2 an expert more under eager MoE), four
         * passes with recomputation: when even that launches faster than the GPU runs it,
         * nothing waits and the layer need not be counted */
        const ts_model *m = &cfg->model;
        double most = (double)lay->layers_per_stage * (70.0 + (ts_model_is_moe(m) ? 2.0 * (double)m->experts : 0.0)) *
                          4.0 + TS_OUTSIDE_KERNELS;
        if (most * cfg->launch_overhead <= gpu) return cfg->step_sync;
    }
    if (ts_model_is_cnn(&cfg->model)) {
        kernels = TS_CONV_KERNELS * (double)lay->cnn.convolutions + TS_OUTSIDE_KERNELS;
    } else {
        const ts_model *m = &cfg->model;
        double layers = (double)lay->layers_per_stage, share = (double)m->layers;
        double moe = share > 0.0 ? (double)ts_model_moe_layers_in(m, 0, m->layers) / share : 0.0;
        double forward = (1.0 - moe) * layer_forward_kernels(cfg, c, 0) +
                         (moe > 0.0 ? moe * layer_forward_kernels(cfg, c, 1) : 0.0);
        double again = ts_recompute_repeats_matmuls(cfg) ? lay->recompute_share : 0.0;
        kernels = layers * forward * (1.0 + TS_BACKWARD_KERNELS + again) + TS_OUTSIDE_KERNELS;
    }
    host = kernels * cfg->launch_overhead;
    return (host > gpu ? slots * (host - gpu) : 0.0) + cfg->step_sync;
}

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
/* Eager modelling code's kernels a layer's piece (fused stacks run each as one): Hugging
 * Face's RMSNorm (a cast, pow, mean, rsqrt, two multiplies, a cast back), rotary embedding
 * (five per tensor, query and key), an eager attention's scale, mask, softmax and matmul
 * glue (dropout one more), the residual adds with their copies and casts (fused: 2). */
#define TS_EAGER_RMSNORM_KERNELS 7.0
#define TS_EAGER_ROPE_KERNELS 10.0
#define TS_EAGER_ATTENTION_KERNELS 4.0
#define TS_EAGER_RESIDUAL_KERNELS 4.0
/* The most forward kernels layer_forward_kernels counts in a layer, the experts' loop
 * aside: every matmul (LoRA on all), eager attention with dropout, the most norms a layer
 * may have in eager code, an eager gated MLP, rotary embedding and residual adds. */
#define TS_LAYER_KERNELS_MAX                                                                      \
    ((double)TS_LAYER_MMS_MAX + TS_EAGER_ATTENTION_KERNELS + 1.0 +                                \
     (double)TS_LIM_NORMS_PER_LAYER * TS_EAGER_RMSNORM_KERNELS + 2.0 + TS_EAGER_ROPE_KERNELS +    \
     TS_EAGER_RESIDUAL_KERNELS)

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
    n += cfg->attention == TRAINSIZE_ATTENTION_FLASH ? 1.0
                                                     : TS_EAGER_ATTENTION_KERNELS + (cfg->dropout > 0.0 ? 1.0 : 0.0);
    n += norms * (eager_rms ? TS_EAGER_RMSNORM_KERNELS : 1.0);
    n += c->fused_act || !m->gated_mlp ? 1.0 : 2.0;
    if (!m->positions) n += c->fused_rope ? 1.0 : TS_EAGER_ROPE_KERNELS;
    n += c->fused ? 2.0 : TS_EAGER_RESIDUAL_KERNELS;
    return n;
}

double ts_step_overhead(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double compute_step)
{
    const ts_model *m = &cfg->model;
    double slots = (double)lay->micro_batches * lay->bubble, kernels, host, gpu;
    if (cfg->step_overhead_given) return cfg->step_overhead;
    gpu = slots > 0.0 ? compute_step / slots : 0.0;
    /* CUDA graphs replay the captured step; XLA runs a TPU's step as one compiled program */
    if (cfg->cuda_graphs || cfg->gpu->kind == TRAINSIZE_ACCELERATOR_TPU) return cfg->step_sync;
    if (ts_model_is_cnn(m)) {
        kernels = TS_CONV_KERNELS * (double)lay->cnn.convolutions + TS_OUTSIDE_KERNELS;
    } else {
        double layers = (double)lay->layers_per_stage, share = (double)m->layers, moe, forward, again;
        /* the most a micro-batch can launch (the forward, the backward, the forward once more
         * under recomputation): when even that keeps ahead of the GPU, nothing waits and the
         * layer need not be counted */
        double most = layers * (TS_LAYER_KERNELS_MAX + (ts_model_is_moe(m) ? 2.0 * (double)m->experts + 4.0 : 0.0)) *
                          (2.0 + TS_BACKWARD_KERNELS) + TS_OUTSIDE_KERNELS;
        if (most * cfg->launch_overhead <= gpu) return cfg->step_sync;
        moe = share > 0.0 ? (double)ts_model_moe_layers_in(m, 0, m->layers) / share : 0.0;
        forward = (1.0 - moe) * layer_forward_kernels(cfg, c, 0) +
                  (moe > 0.0 ? moe * layer_forward_kernels(cfg, c, 1) : 0.0);
        again = ts_recompute_repeats_matmuls(cfg) ? lay->recompute_share : 0.0;
        kernels = layers * forward * (1.0 + TS_BACKWARD_KERNELS + again) + TS_OUTSIDE_KERNELS;
    }
    host = kernels * cfg->launch_overhead;
    return (host > gpu ? slots * (host - gpu) : 0.0) + cfg->step_sync;
}

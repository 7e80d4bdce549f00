/* The rollout of RL post-training (method grpo, ppo): a vLLM-class engine on the training
 * GPUs (colocated, as verl's hybrid engine runs it) generates the step's responses before
 * the step trains on them.
 *
 * Time: the global batch's responses are spread over gpus / rollout-tp engines, in waves of
 * at most 256 sequences an engine (vLLM's max_num_seqs, verl's default). Each prompt is
 * prefilled once for its group (vLLM's prefix caching), compute-bound; each of the
 * response-tokens decode steps reads the engine's 16-bit weights and every sequence's KV
 * cache so far, bound by memory bandwidth unless its FLOPs take longer (a roofline:
 * Williams et al. 2009). KV bytes a token: 2 x layers x kv_heads x head_dim x 2 (vLLM's
 * AttentionSpec page size over its block). Uncalibrated: no published tokens/s of a batched
 * engine was found to fit the shares against; they are assumptions (docs/methodology.md).
 *
 * Memory: the engine takes rollout-memory-share of the GPU (vLLM's gpu_memory_utilization:
 * its weights, its activations and the rest as KV cache); with rollout-sleep it frees all of
 * it while the step trains (vLLM sleep level 2, verl's free_cache_engine), so it sits beside
 * the model state only, not the activations. */
#include <math.h>

#include "stages.h"

#define TS_ROLLOUT_MAX_SEQS 256.0 /* vLLM max_num_seqs (verl's rollout default) */
#define TS_DECODE_BW_SHARE 0.8    /* of the memory bandwidth a decode step reaches: assumption */
#define TS_PREFILL_FLOP_SHARE 0.5 /* of the dense 16-bit peak prefill reaches: assumption */

static double peak16(const trainsize_gpu_info *gpu)
{
    return gpu->flops_bf16 > 0.0 ? gpu->flops_bf16 : gpu->flops_fp16;
}

double ts_rollout_weight_bytes(const ts_settings *cfg, const ts_param_counts *pc)
{
    return (double)pc->total * 2.0 / (double)cfg->rollout_tp;
}

double ts_rollout_kv_bytes_per_token(const ts_settings *cfg)
{
    const ts_model *m = &cfg->model;
    double per_layer = m->kv_lora_rank ? (double)(m->kv_lora_rank + m->qk_rope_head_dim) /* MLA's latent */
                                       : 2.0 * (double)ts_model_kv_dim(m);
    return per_layer * 2.0 * (double)m->layers / (double)cfg->rollout_tp;
}

/* The rollout of an RL job's step on its engines (ts_rollout_seconds). */
static double engine_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    /* colocated: an engine on every rollout-tp training GPUs; separate: on its own GPUs */
    double tp = (double)cfg->rollout_tp;
    double engines = fmax(1.0, (double)(lay->rollout_gpus ? lay->rollout_gpus : lay->gpus) / tp);
    double per_engine = (double)lay->global_batch / engines;
    double waves = ceil(per_engine / TS_ROLLOUT_MAX_SEQS), batch = per_engine / waves;
    double r = (double)lay->response_tokens, prompt = (double)cfg->seq - r;
    double bw = (double)gpu->memory_bandwidth * TS_DECODE_BW_SHARE, rate = peak16(gpu) * TS_PREFILL_FLOP_SHARE;
    double active = 2.0 * (double)pc->active / tp; /* FLOPs a token on one GPU of the engine */
    double kv = ts_rollout_kv_bytes_per_token(cfg), weights = ts_rollout_weight_bytes(cfg, pc);
    double bytes, flops, decode, prefill;
    if (!(bw > 0.0) || !(rate > 0.0)) return 0.0;
    /* r steps: the weights each time, the KV of prompt + t tokens of every sequence at t */
    bytes = r * weights + batch * kv * (r * prompt + r * (r + 1.0) / 2.0);
    flops = r * batch * active;
    decode = fmax(bytes / bw, flops / rate);
    prefill = batch / (double)cfg->group_size * prompt * active / rate;
    return waves * (decode + prefill);
}

/* Checked first: every estimate asks, and only RL's jobs have a rollout. */
double ts_rollout_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc)
{
    return lay->rl ? engine_seconds(cfg, lay, pc) : 0.0;
}

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

uint64_t ts_rollout_width(const ts_settings *cfg) { return cfg->rollout_tp * cfg->rollout_pp; }

double ts_rollout_weight_bytes(const ts_settings *cfg, const ts_param_counts *pc)
{
    return (double)pc->total * 2.0 / (double)ts_rollout_width(cfg);
}

double ts_rollout_kv_bytes_per_token(const ts_settings *cfg)
{
    const ts_model *m = &cfg->model;
    double per_layer = m->kv_lora_rank ? (double)(m->kv_lora_rank + m->qk_rope_head_dim) /* MLA's latent */
                                       : 2.0 * (double)ts_model_kv_dim(m);
    return per_layer * 2.0 * (double)m->layers / (double)ts_rollout_width(cfg);
}

/* Sequences an engine runs at once: vLLM's max_num_seqs for each of its pipeline stages'
 * batches in flight (a scheduler each: vLLM's virtual engines), or fewer when its KV cache
 * (what rollout-memory-share leaves beside its weights) holds fewer sequences of the mean
 * length; paged, a sequence holds blocks only for the tokens it has (Kwon et al. 2023,
 * "Efficient Memory Management for Large Language Model Serving with PagedAttention"). At
 * least one: a sequence that does not fit is preempted, not refused. */
static double concurrent_sequences(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc)
{
    double room = cfg->rollout_memory_share * (double)lay->capacity - ts_rollout_weight_bytes(cfg, pc);
    double per_sequence = ts_rollout_kv_bytes_per_token(cfg) * (lay->prompt_mean + lay->response_mean);
    double fit = per_sequence > 0.0 ? floor(room / per_sequence) : TS_ROLLOUT_MAX_SEQS;
    return fmax(1.0, fmin(TS_ROLLOUT_MAX_SEQS * (double)cfg->rollout_pp, fit));
}

/* Engines and the sequences each generates in a step. */
static double engines_of(const ts_settings *cfg, const ts_layout *lay)
{
    /* colocated: an engine on every rollout-tp x rollout-pp training GPUs; separate: on its own GPUs */
    return fmax(1.0, (double)(lay->rollout_gpus ? lay->rollout_gpus : lay->gpus) / (double)ts_rollout_width(cfg));
}

/* The rollout of an RL job's step on its engines (ts_rollout_seconds). Lengths: the mean
 * response sets the decode work and the KV traffic (their sums), the longest sets the tail
 * (the last sequence of the last wave decodes alone past the mean). */
static double engine_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    double width = (double)ts_rollout_width(cfg), stages = (double)cfg->rollout_pp;
    double per_engine = (double)lay->global_batch / engines_of(cfg, lay);
    double waves = ceil(per_engine / concurrent_sequences(cfg, lay, pc));
    double r = lay->response_mean, longest = (double)lay->response_tokens, prompt = lay->prompt_mean;
    double bw = (double)gpu->memory_bandwidth * TS_DECODE_BW_SHARE, rate = peak16(gpu) * TS_PREFILL_FLOP_SHARE;
    double active = 2.0 * (double)pc->active / width; /* FLOPs a token on one GPU of the engine */
    double kv = ts_rollout_kv_bytes_per_token(cfg), weights = ts_rollout_weight_bytes(cfg, pc);
    double steps = waves * r + (longest - r), bytes, flops, decode, prefill;
    if (!(bw > 0.0) || !(rate > 0.0)) return 0.0;
    /* each decode step reads the weights, a stage's once for each of the stages' batches in
     * flight; each sequence reads its KV so far at each of its r steps: prompt + t tokens at
     * step t */
    bytes = steps * weights * stages + per_engine * kv * (r * prompt + r * (r + 1.0) / 2.0);
    flops = per_engine * r * active;
    decode = fmax(bytes / bw, flops / rate);
    prefill = per_engine / (double)cfg->group_size * prompt * active / rate;
    return decode + prefill;
}

/* Checked first: every estimate asks, and only RL's jobs have a rollout. */
double ts_rollout_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc)
{
    return lay->rl ? engine_seconds(cfg, lay, pc) : 0.0;
}

/* An engine's tensor-parallel group wider than a server: each decode step's two all-reduces
 * a layer (attention's and the MLP's output, a running sequence's hidden state each, 16-bit)
 * cross the network between its servers, a hierarchical ring over the servers on the NICs
 * of the engine's GPUs in each. Inside a server they are not timed (vLLM's custom
 * all-reduce: microseconds); nor are pipeline stages handing on a hidden state a sequence,
 * point to point under the next batch's compute. */
double ts_rollout_network_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                                  const ts_comm_links *k)
{
    double tp = (double)cfg->rollout_tp, g = k->gpus_per_node, servers = tp / g;
    double per_engine = (double)lay->global_batch / engines_of(cfg, lay);
    double waves = ceil(per_engine / concurrent_sequences(cfg, lay, pc)), batch = per_engine / waves;
    double steps = waves * lay->response_mean + ((double)lay->response_tokens - lay->response_mean);
    /* with pipeline stages each stage's batch in flight is 1/rollout-pp of the running sequences */
    double bytes = batch / (double)cfg->rollout_pp * (double)cfg->model.hidden * 2.0, per_reduce;
    if (!lay->rl || servers <= 1.0 || !(k->net_per_gpu > 0.0)) return 0.0;
    per_reduce = ts_allreduce_network_seconds(bytes, servers, g * k->net_per_gpu, cfg->collective_latency);
    return steps * 2.0 * (double)cfg->model.layers * per_reduce;
}

/* The weights the trainer hands the engines every step (a LoRA adapter merged first: the
 * whole 16-bit weights, verl's and OpenRLHF's default). Colocated (verl's sharding
 * manager): the trainer's shards gathered on the GPUs that hold them, over the links the
 * training uses; separate (OpenRLHF's NCCL broadcast): every engine GPU receives all of
 * them over its network share. */
double ts_rollout_sync_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                               const ts_comm_links *k)
{
    double weights = (double)pc->total * 2.0;
    if (!lay->rl) return 0.0;
    if (lay->rollout_gpus) {
        double rate = k->net_per_gpu > 0.0 ? k->net_per_gpu : k->intra;
        return weights / rate + cfg->collective_latency;
    }
    /* the ranks among which the trainer's weights are split */
    return ts_allgather_seconds(weights, (double)(lay->zero >= 3 ? lay->dense_shard : 1) * (double)lay->tp *
                                             (double)lay->pp, k, cfg->collective_latency);
}

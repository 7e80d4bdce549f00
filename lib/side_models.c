/* PPO's critic and a reward model beside the policy: on the policy's GPUs (verl places
 * every model on the same GPUs, one after the other), or on GPUs of their own (OpenRLHF's
 * critic_num_nodes x critic_num_gpus_per_node and reward_num_nodes x ...), each with its own
 * ZeRO stage (DeepSpeed-Chat's critic_zero_stage) and offload (verl's critic fsdp_config,
 * OpenRLHF's ref_reward_offload). On GPUs of their own they run data parallel, their ZeRO
 * sharding over those GPUs, their passes beside the policy's of the same phase (scoring,
 * then training), each phase waiting for its slowest. See docs/methodology.md, "GRPO and
 * PPO". */
#include <math.h>

#include "error.h"
#include "stages.h"

#define U(x) ((unsigned long long)(x))

static uint64_t servers(uint64_t gpus, uint64_t per_node) { return (gpus + per_node - 1) / per_node; }

int ts_side_layout(const ts_settings *cfg, ts_layout *l, trainsize_error *err)
{
    int ppo = cfg->method == TS_METHOD_PPO, reward = l->rl && cfg->reward, rc;
    l->critic_gpus = l->reward_gpus = l->critic_nodes = l->reward_nodes = 0;
    l->critic_zero = l->reward_zero = l->zero;
    l->critic_offload = cfg->offload;
    /* the common case, none of it set: the policy's */
    if (!ppo && !reward && !cfg->critic_gpus && !cfg->critic_zero && !cfg->critic_offload && !cfg->reward_gpus &&
        !cfg->reward_zero && !cfg->reward_offload)
        return ts_ok(err);
    if (!ppo && (cfg->critic_gpus || cfg->critic_zero || cfg->critic_offload))
        return ts_fail(err, TRAINSIZE_E_INVALID,
                       cfg->critic_gpus ? "critic-gpus" : cfg->critic_zero ? "critic-zero" : "critic-offload",
                       "%s: a critic belongs to method ppo",
                       cfg->critic_gpus ? "critic-gpus" : cfg->critic_zero ? "critic-zero" : "critic-offload");
    if (!reward && (cfg->reward_gpus || cfg->reward_zero || cfg->reward_offload))
        return ts_fail(err, TRAINSIZE_E_INVALID,
                       cfg->reward_gpus ? "reward-gpus" : cfg->reward_zero ? "reward-zero" : "reward-offload",
                       "%s: applies to a reward model (reward-model, methods grpo and ppo)",
                       cfg->reward_gpus ? "reward-gpus" : cfg->reward_zero ? "reward-zero" : "reward-offload");
    if (cfg->reward_offload && cfg->reward_gpus)
        return ts_fail(err, TRAINSIZE_E_INVALID, "reward-offload",
                       "reward-offload: moves the reward model off the policy's GPUs between its forwards; "
                       "with reward-gpus (%llu) it has GPUs of its own", U(cfg->reward_gpus));
    l->critic_zero = cfg->critic_zero ? (uint64_t)(cfg->critic_zero - 1) : l->zero;
    l->critic_offload = cfg->critic_offload ? cfg->critic_offload - 1 : cfg->offload;
    l->reward_zero = cfg->reward_zero ? (uint64_t)(cfg->reward_zero - 1) : l->zero;
    /* the critic's offload asks of its stage what the policy's asks of its own (auto: the
     * policy's offload, which the refusal says) */
    if ((rc = ts_offload_check(l->critic_zero, l->critic_offload, "critic-offload",
                               cfg->critic_offload ? "critic-offload" : "critic-offload (auto: the policy's offload)",
                               "critic-zero", err)))
        return rc;
    /* data parallel on their own GPUs: each of them takes a sequence of the step at least */
    if (ppo && cfg->critic_gpus > l->global_batch)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "critic-gpus",
                       "critic-gpus: %llu GPUs for a step of %llu sequences (global-batch) leave some without one",
                       U(cfg->critic_gpus), U(l->global_batch));
    if (reward && cfg->reward_gpus > l->global_batch)
        return ts_fail(err, TRAINSIZE_E_LAYOUT, "reward-gpus",
                       "reward-gpus: %llu GPUs for a step of %llu sequences (global-batch) leave some without one",
                       U(cfg->reward_gpus), U(l->global_batch));
    if (cfg->critic_gpus && cfg->lora_rank)
        return ts_fail(err, TRAINSIZE_E_UNSUPPORTED, "critic-gpus",
                       "critic-gpus: a critic on GPUs of its own is sized trained in full; with lora-rank "
                       "keep it on the policy's GPUs (critic-gpus 0)");
    l->critic_gpus = ppo ? cfg->critic_gpus : 0;
    l->reward_gpus = reward ? cfg->reward_gpus : 0;
    l->critic_nodes = servers(l->critic_gpus, l->gpus_per_node);
    l->reward_nodes = servers(l->reward_gpus, l->gpus_per_node);
    l->billed_gpus += l->critic_gpus + l->reward_gpus;
    return ts_ok(err);
}

/* Frozen, in the type the matmuls read, split over tp and pp as the policy is, its ZeRO 3
 * sharding over the policy's data-parallel ranks; on the host between forwards with
 * reward-offload, and none on the policy's GPUs when it has its own. */
double ts_reward_rank_bytes(const ts_layout *lay, const ts_conv *c)
{
    double shard = lay->reward_zero >= 3 ? (double)lay->dense_shard : 1.0;
    if (lay->reward_gpus) return 0.0;
    return lay->reward.params * c->weight_compute / ((double)lay->tp * (double)lay->pp) / shard;
}

/* A layer's activations grow with the model's width (Korthikanti et al. 2022, arXiv
 * 2205.05198: s b h (34 + 5 a s / h) a layer, the first term dominant under flash attention):
 * the critic's over the policy's are its layers x width over the policy's. 1 for a critic
 * of the policy's shape. */
double ts_critic_activation_scale(const ts_settings *cfg, const ts_layout *lay)
{
    const ts_model *m = &cfg->model;
    if (!(lay->critic.params > 0.0) || !m->hidden || !m->layers) return 1.0;
    return lay->critic.layers * lay->critic.hidden / ((double)m->layers * (double)m->hidden);
}

/* A GPU's overhead beside `allocated` bytes, as the policy's (memory.c): the CUDA context, a
 * data-parallel group's buffers, the allocator's slack; `needed` as peak_needed reads it. */
static double with_overhead(const ts_settings *cfg, double allocated, int sharded, double *needed)
{
    double fixed = (double)cfg->cuda_context + (double)cfg->comm_buffer;
    *needed = allocated * (1.0 + cfg->fragmentation) + fixed;
    return allocated * (1.0 + (sharded ? cfg->sharded_slack : cfg->allocator_slack)) + fixed;
}

/* The policy's activations a layer on a rank of `tp`, undone of tensor parallelism: with
 * sequence parallelism all of a layer's s b h (34 + ...) splits over tp; without, the
 * 10 s b h of its norms, dropouts and residuals stays whole and the 24 s b h inside
 * attention and the MLP splits (Korthikanti et al. 2022, arXiv 2205.05198, Table 2). */
static double untensor(const ts_layout *lay)
{
    double tp = (double)lay->tp;
    return lay->sp ? tp : 34.0 / (10.0 + 24.0 / tp);
}

/* The critic on `n` GPUs of its own: its state in the policy's bytes a parameter (trained in
 * full) under its ZeRO stage and offload, the layers ZeRO 3 gathers, and one micro-batch's
 * activations: the policy's a layer and a micro-batch on its most loaded stage, undone of
 * tensor and context parallelism (a critic rank holds the whole sequence), times the
 * critic's layers and width over the policy's. A critic of the policy's shape is the
 * policy without its output layer (a one-wide value head). Its offloaded state's host
 * memory and CPU step are not counted. */
static double critic_gpu(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, const ts_param_counts *pc,
                         const ts_stage_memory *worst, double *needed)
{
    double n = (double)lay->critic_gpus, z = (double)lay->critic_zero;
    double params = lay->critic.params > 0.0 ? lay->critic.params : (double)pc->total - (double)pc->output_layer;
    double layers = lay->critic.params > 0.0 ? lay->critic.layers : (double)cfg->model.layers;
    double w = params * c->weight / (z >= 3 ? n : 1.0), g = params * c->grad / (z >= 2 ? n : 1.0);
    double o = params * (c->master + c->state) / (z >= 1 ? n : 1.0), gathered = 0.0, act = 0.0;
    if (lay->critic_offload != TRAINSIZE_OFFLOAD_NONE) o = g = 0.0; /* on the host (ZeRO-Offload) */
    if (lay->critic_offload == TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS) w = 0.0;
    if (z >= 3 && layers > 0.0) gathered = (double)cfg->zero3_gather_layers * params / layers * c->weight_compute;
    if (worst->stage_layers > 0.0 && worst->in_flight > 0.0)
        act = worst->act_layers / worst->in_flight / worst->stage_layers * untensor(lay) * (double)lay->cp *
              (double)cfg->model.layers * ts_critic_activation_scale(cfg, lay);
    return with_overhead(cfg, w + g + o + gathered + act, z >= 3, needed);
}

/* The reward model on GPUs of its own: its frozen weights (ZeRO 3 shards them over those
 * GPUs, gathering a layer at a time) and a forward's working set, one layer's activations
 * at most, which is small beside them and not counted. */
static double reward_gpu(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double *needed)
{
    double n = (double)lay->reward_gpus, sharded = lay->reward_zero >= 3;
    double w = lay->reward.params * c->weight_compute / (sharded ? n : 1.0), gathered = 0.0;
    if (sharded && lay->reward.layers > 0.0)
        gathered = (double)cfg->zero3_gather_layers * lay->reward.params / lay->reward.layers * c->weight_compute;
    return with_overhead(cfg, w + gathered, sharded, needed);
}

void ts_side_memory(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, const ts_param_counts *pc,
                    ts_stage_memory *worst)
{
    worst->critic_gpu = worst->critic_gpu_needed = worst->reward_gpu = worst->reward_gpu_needed = 0.0;
    if (lay->critic_gpus) worst->critic_gpu = critic_gpu(cfg, lay, c, pc, worst, &worst->critic_gpu_needed);
    if (lay->reward_gpus) worst->reward_gpu = reward_gpu(cfg, lay, c, &worst->reward_gpu_needed);
}

/* Their work at the policy's kernel rate a GPU (the same GPUs and kernels, without the
 * policy's pipeline bubble or stragglers; an approximation: a smaller model's matmuls run
 * somewhat slower). A step scores before it trains: the experience phase (the policy's
 * forward passes for the log-probabilities, the critic's values, one of its four passes,
 * the reward model's scores) waits for the slowest of them, then the update phase (the
 * policy's update and the critic's, its other three passes) for the slower (OpenRLHF runs
 * each phase's models at once). */
double ts_side_step(const ts_layout *lay, double policy_step, double experience_share, double critic_flops,
                    double reward_flops, double rate, double *critic_seconds, double *reward_seconds)
{
    double experience = policy_step * experience_share, update = policy_step - experience;
    *critic_seconds = lay->critic_gpus && rate > 0.0 ? critic_flops / ((double)lay->critic_gpus * rate) : 0.0;
    *reward_seconds = lay->reward_gpus && rate > 0.0 ? reward_flops / ((double)lay->reward_gpus * rate) : 0.0;
    return fmax(experience, fmax(0.25 * *critic_seconds, *reward_seconds)) + fmax(update, 0.75 * *critic_seconds);
}

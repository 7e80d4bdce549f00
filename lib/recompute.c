/* Per-op selective activation checkpointing: which of a layer's matmul outputs the policy
 * keeps, and what it computes again in the backward pass.
 *
 * torchtitan's default selective AC (torchtitan/distributed/activation_checkpoint.py,
 * SelectiveAC, at commit b5bcd76 of pytorch/torchtitan) wraps each transformer block in
 * torch.utils.checkpoint with a per-op policy: the outputs of compute-intensive ops
 * (PyTorch's get_default_op_list: mm, addmm, bmm, _scaled_mm, the SDPA kernels) and of
 * flash/cuDNN/flex attention, topk and the reduce-scatter and all-to-all collectives are
 * saved; every other op (norms, activation functions, rope, casts, dropout, the residual
 * adds) is recomputed from them. Of the plain mm/linear ops, every second one of a layer
 * is recomputed too ("save every other mm"), counted in forward order from the block's
 * start; the router's gate ("moe.router.gate") is always recomputed and not counted. A
 * linear with a bias runs as addmm: always saved, not counted. An fp8 linear of torchao
 * (Float8Linear, MXLinear) is a plain mm to the policy: it calls torch.mm on float8 tensor
 * subclasses, and the policy, a dispatch mode, sees that mm before the subclass turns it
 * into _scaled_mm (torchao/float8/float8_linear.py); torchao's own runs agree (fp8 and bf16
 * peaks within 1 % under per-op SAC, docs/methodology.md). The routed experts' grouped matmuls (torch._grouped_mm) are in neither
 * list, so they are recomputed.
 *
 * Megatron-Core's selective recomputation (--recompute-granularity selective
 * --recompute-modules, megatron/core/transformer/transformer_config.py, NVIDIA/Megatron-LM
 * @ d98e8a6): core_attn, mlp and moe checkpoint their submodule (its input kept, its
 * forward run again); layernorm, mla_up_proj and moe_act discard their outputs after the
 * forward (CheckpointWithoutOutput) and compute them again from the inputs, which are
 * kept anyway. */
#include <math.h>
#include "stages.h"

void ts_per_op_policy(const ts_layer_mm *mm, size_t n, int *saved)
{
    size_t i;
    unsigned counted = 0;
    for (i = 0; i < n; i++) {
        if (mm[i].kind == TS_MM_ROUTER || mm[i].kind == TS_MM_EXPERT) saved[i] = 0;
        else if (mm[i].bias) saved[i] = 1;
        else saved[i] = ++counted % 2 == 1; /* the first, third, ... mm of the block */
    }
}

size_t ts_per_op_layer(const ts_settings *cfg, int moe, ts_layer_mm *mm, int *saved)
{
    size_t n = ts_model_layer_mms(&cfg->model, moe, cfg->lora_rank, cfg->lora_targets, mm);
    ts_per_op_policy(mm, n, saved);
    return n;
}

double ts_per_op_recompute_flops(const ts_settings *cfg, int moe)
{
    ts_layer_mm mm[TS_LAYER_MMS_MAX];
    int saved[TS_LAYER_MMS_MAX];
    size_t i, n = ts_per_op_layer(cfg, moe, mm, saved);
    double k = moe ? (double)cfg->model.experts_per_token : 1.0, flops = 0.0;
    for (i = 0; i < n; i++)
        if (!saved[i]) flops += 2.0 * mm[i].in * mm[i].out * (mm[i].kind == TS_MM_EXPERT ? k : 1.0);
    return flops;
}

int ts_recompute_repeats_matmuls(const ts_settings *cfg)
{
    return cfg->recompute == TRAINSIZE_RECOMPUTE_FULL || cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP;
}

unsigned ts_recompute_dropped(const ts_settings *cfg, int recompute)
{
    return recompute == TRAINSIZE_RECOMPUTE_SELECTIVE ? cfg->recompute_modules : 0u;
}

/* TiledMLP's tile count: as set, or (0) DeepSpeed's and Liger's default, one tile per
 * `hidden` tokens of a rank's sequence (ceil(seqlen / hidden_size) in both). */
double ts_mlp_tiles(const ts_settings *cfg, const ts_layout *lay)
{
    double local = (double)cfg->seq / (double)lay->cp, hidden = (double)cfg->model.hidden;
    if (cfg->mlp_tiles) return (double)cfg->mlp_tiles;
    return hidden > 0 && local > hidden ? ceil(local / hidden) : 1.0;
}

/* One layer's MLP block forward, FLOPs per token: every matmul after attention's output
 * projection and its adapter's two (model.c lists an adapter right after its matrix). */
double ts_mlp_block_flops(const ts_settings *cfg, int moe)
{
    const ts_model *m = &cfg->model;
    ts_layer_mm mm[TS_LAYER_MMS_MAX];
    size_t i, n, adapter;
    double k = (double)m->experts_per_token, flops = 0.0;
    int mlp = 0;
    n = ts_model_layer_mms(m, moe, cfg->lora_rank, cfg->lora_targets, mm);
    adapter = cfg->lora_rank && (cfg->lora_targets & TS_LORA_O) ? 2 : 0;
    for (i = 0; i < n; i++) {
        if (mlp) flops += 2.0 * mm[i].in * mm[i].out * (mm[i].kind == TS_MM_EXPERT ? k : 1.0);
        else if (mm[i].kind == TS_MM_ROW) { mlp = 1; i += adapter; }
    }
    return flops;
}

double ts_recompute_module_flops(const ts_settings *cfg, int moe)
{
    const ts_model *m = &cfg->model;
    unsigned drop = ts_recompute_dropped(cfg, cfg->recompute);
    double flops = 0.0;
    if (m->kv_lora_rank && (drop & TS_RC_MLA_UP_PROJ)) {
        /* the query's up-projection (or projection, without a query latent) and the
         * key-value up-projection, as mla_params lays them out (model.c) */
        double heads = (double)m->heads, hd = (double)ts_model_head_dim(m);
        double q_in = m->q_lora_rank ? (double)m->q_lora_rank : (double)m->hidden;
        flops += 2.0 * (q_in * heads * hd + (double)m->kv_lora_rank * heads *
                        (hd - (double)m->qk_rope_head_dim + (double)ts_model_v_head_dim(m)));
    }
    if (drop & (moe ? TS_RC_MOE : TS_RC_MLP)) flops += ts_mlp_block_flops(cfg, moe);
    return flops;
}

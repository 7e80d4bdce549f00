/* Communication of one optimizer step, collective by collective: where it happens (per
 * layer, per micro-batch, per step), what it overlaps with, and the time it adds to the
 * step on given links. docs/methodology.md ("Communication per step") has each term with
 * its source.
 *
 * Collective time follows the alpha-beta model (Thakur et al. 2005; NCCL's own tuning
 * model): latency + bytes / bus bandwidth, with the bus bandwidth of the slowest hop (the
 * GPU's NVLink-class link inside a server, its share of the server's NICs across servers)
 * and the ring's factor of the message: (n - 1)/n for all-gather and reduce-scatter,
 * 2 (n - 1)/n for all-reduce. */
#include <math.h>

#include "stages.h"

/* Ring traffic factors. */
static double ag_factor(double n) { return n > 1.0 ? (n - 1.0) / n : 0.0; }
static double ar_factor(double n) { return 2.0 * ag_factor(n); }

/* Latency of one collective over n ranks: NCCL's tree and PAT algorithms at scale take
 * about 2 log2(n) steps of the per-step latency. */
static double latency(double n, double alpha) { return n > 1.0 ? 2.0 * ceil(log2(n)) * alpha : 0.0; }

/* The rate inside a server for a group of `span` ranks: NVLink, or PCIe once the group is
 * wider than an NVLink bridge joins (bridged PCIe cards link pairs only). */
static double local_rate(double span, const ts_comm_links *l)
{
    return l->bridge > 0.0 && span > l->bridge ? fmin(l->intra, l->pcie) : l->intra;
}

/* Bus bandwidth of a group of `span` consecutive ranks: NVLink inside a server (PCIe past
 * a bridge), the GPU's share of the NICs once the group leaves it. */
static double group_rate(double span, const ts_comm_links *l)
{
    if (l->bridge > 0.0 && span > l->bridge) { /* bridged PCIe cards: rare, off the common path */
        double local = local_rate(span, l);
        return span <= l->gpus_per_node || l->net_per_gpu <= 0.0 ? local : fmin(local, l->net_per_gpu);
    }
    return span <= l->gpus_per_node || l->net_per_gpu <= 0.0 ? l->intra : fmin(l->intra, l->net_per_gpu);
}

/* Weight bytes one rank gathers per pass under ZeRO-3, per micro-batch: the whole stage as
 * the matmuls read it (LoRA: the frozen base, which the adapters' gradients do not shrink). */
static double zero3_weight_bytes(const ts_settings *cfg, const ts_conv *c, double stage_params)
{
    return stage_params * (cfg->lora_rank ? c->frozen_layer : c->weight_compute);
}

void ts_comm_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                  const ts_conv *c, double compute_step, const ts_comm_links *links, ts_comm *out)
{
    const ts_model *m = &cfg->model;
    double t = (double)lay->tp, p = (double)lay->pp, v = (double)lay->vpp, cp = (double)lay->cp;
    double ep = (double)lay->ep, mb = (double)lay->micro_batches, gpn = links->gpus_per_node;
    double D = (double)lay->dense_shard, alpha = cfg->collective_latency;
    double layers = (double)lay->layers_per_stage, all_layers = (double)m->layers;
    double bubble = 1.0 + (p - 1.0) / (v * mb);
    double slots = mb * bubble;                  /* micro-batch slots on the critical path */
    double c_mb = compute_step / slots;          /* one micro-batch on the fullest stage */
    double sbh = lay->tokens_mb * (double)m->hidden;
    double stage_params = (double)pc->total / (t * p);
    /* Of those, the routed experts: ep ranks split them, and each expert is replicated only
     * over the D / ep ranks of its expert-data-parallel group (Megatron-Core's
     * expert_data_parallel group; DeepSpeed-MoE's expert data parallelism), so its
     * gradients and ZeRO-3 gathers run there, on 1/ep of the bytes. */
    double experts_stage = ts_model_is_moe(m) ? (double)m->experts * (double)pc->expert *
                                                    (double)pc->moe_layers / (t * p)
                                              : 0.0;
    double experts_rank = experts_stage / ep, dense_stage = stage_params - experts_stage;
    double De = (double)lay->expert_shard;
    double grads = cfg->lora_rank ? lay->lora_layer * all_layers / (t * p) * c->adapter_grad
                                  : dense_stage * c->grad;
    double expert_grads = cfg->lora_rank ? 0.0 : experts_rank * c->grad;
    double bwd = 2.0 / 3.0 * c_mb;               /* backward: twice the forward */
    *out = (ts_comm){0};

    /* Tensor parallelism (Megatron-LM, Shoeybi et al. 2019 §3; Korthikanti et al. 2022 with
     * sequence parallelism, the same bytes): two all-reduces of s b h in each layer's forward,
     * two in its backward, and the forward's two again under full recomputation; they block
     * the layer, so every micro-batch slot pays them. */
    if (lay->tp > 1) {
        double n = cfg->recompute == TS_RECOMPUTE_FULL ? 6.0 : 4.0;
        double rate = group_rate(t, links);
        double per_mb = n * layers * (ar_factor(t) * sbh * c->act / rate + latency(t, alpha));
        out->tp_seconds = slots * per_mb;
        out->intra_bytes_per_gpu += t <= gpn ? slots * n * layers * ar_factor(t) * sbh * c->act : 0.0;
        out->inter_bytes_per_gpu += t > gpn ? mb * n * layers * ar_factor(t) * sbh * c->act : 0.0;
    }
    /* Pipeline parallelism: each micro-batch slot sends its activations forward and receives
     * their gradient backward across a stage boundary, on the critical path of 1F1B; Megatron
     * splits the tensor over the tp ranks (scatter-gather), so each GPU sends s b h / t. The
     * neighbouring stage is t x cp x dp ranks away: another server when that fills one. */
    if (lay->pp > 1) {
        double bytes = sbh * c->act / t;
        double span = t * cp * (double)lay->dp + 1.0;
        double rate = group_rate(span, links);
        out->pp_seconds = slots * 2.0 * (bytes / rate + alpha);
        /* by where the neighbour sits (past a bridge, PCIe is still inside the server) */
        out->inter_bytes_per_gpu += span > gpn && links->net_per_gpu > 0.0 ? mb * 2.0 * bytes : 0.0;
        out->intra_bytes_per_gpu += span > gpn && links->net_per_gpu > 0.0 ? 0.0 : mb * 2.0 * bytes;
    }
    /* Context parallelism (ring attention, as Transformer Engine runs it): each layer passes
     * the key/value blocks around the cp ring, (cp - 1) hops of s/cp b kv_dim x 2 in the
     * forward and twice that (keys, values and their gradients) in the backward, overlapped
     * with the attention blocks it feeds: only what exceeds the attention's time adds. */
    if (lay->cp > 1) {
        double kv = 2.0 * lay->tokens_mb * (double)ts_model_kv_dim(m) / t;
        double bytes = 3.0 * (cp - 1.0) * kv * c->act * layers;
        double rate = group_rate(t * cp, links);
        double layer_mm = 2.0 * (double)pc->layer;
        double attn = ts_model_attention_flops(m, cfg->seq, 1) / all_layers;
        double window = c_mb * attn / (attn + layer_mm);
        out->cp_seconds = slots * fmax(0.0, bytes / rate + (cp - 1.0) * layers * alpha - window);
        if (t * cp > gpn) out->inter_bytes_per_gpu += mb * bytes;
        else out->intra_bytes_per_gpu += mb * bytes;
    }
    /* Expert parallelism: dispatch and combine all-to-alls, forward and backward, of each
     * token's k expert copies, (e - 1)/e of them to other ranks. Across servers a token goes
     * to at most moe-max-nodes servers when routing is node-limited (DeepSeek-V3 §3.2.2: 4),
     * once per server, and is forwarded over NVLink inside it. ep-overlap hides the
     * all-to-all under the other micro-batch's compute (DeepSeek-V3's DualPipe). */
    if (ts_model_is_moe(m) && lay->ep > 1) {
        double k = (double)m->experts_per_token, per_token = (double)m->hidden * c->act;
        double tokens = lay->tokens_mb / t;
        /* the fullest stage is all MoE layers unless the model has fewer */
        double moe_layers = fmin(layers, (double)pc->moe_layers);
        double intra_bytes, inter_bytes = 0.0, a2a;
        if (ep <= gpn) {
            intra_bytes = 4.0 * k * tokens * per_token * (ep - 1.0) / ep * moe_layers;
        } else {
            double nodes = ep / gpn, copies = cfg->moe_max_nodes ? fmin(k, (double)cfg->moe_max_nodes) : k;
            inter_bytes = 4.0 * copies * tokens * per_token * (nodes - 1.0) / nodes * moe_layers;
            intra_bytes = 4.0 * k * tokens * per_token * moe_layers;
        }
        a2a = fmax(intra_bytes / local_rate(fmin(ep, gpn), links),
                   links->net_per_gpu > 0.0 ? inter_bytes / links->net_per_gpu : 0.0) +
              4.0 * moe_layers * latency(ep, alpha);
        out->ep_seconds = slots * (cfg->ep_overlap ? fmax(0.0, a2a - c_mb) : a2a);
        out->intra_bytes_per_gpu += mb * intra_bytes;
        out->inter_bytes_per_gpu += mb * inter_bytes;
    }
    /* Data parallelism over D = dp x cp ranks. */
    if (D > 1.0) {
        double rate = group_rate(t * D, links), traffic, exposed; /* within one stage */
        if (lay->zero >= 3) {
            /* ZeRO-3/FSDP: every forward, recomputed forward and backward pass of every
             * micro-batch all-gathers the stage's weights, layer by layer, prefetched under
             * that micro-batch's compute; the gradients are reduce-scattered after each
             * micro-batch, or once at the end when accumulating unsharded (no_sync). */
            double passes = cfg->recompute == TS_RECOMPUTE_FULL ? 3.0 : 2.0;
            double gather = passes * (ag_factor(D) * zero3_weight_bytes(cfg, c, dense_stage) +
                                      ag_factor(De) * zero3_weight_bytes(cfg, c, experts_rank));
            double rs = ag_factor(D) * grads + ag_factor(De) * expert_grads;
            double per_mb = (gather + (c->grad_sync_step ? 0.0 : rs)) / rate +
                            (passes + 1.0) * layers * latency(D, alpha);
            exposed = mb * fmax(0.0, per_mb - c_mb);
            if (c->grad_sync_step) exposed += fmax(0.0, rs / rate - bwd);
            traffic = mb * gather + (c->grad_sync_step ? 1.0 : mb) * rs;
        } else {
            /* DDP and ZeRO-1/2: one reduction of the gradients per step (ring all-reduce, or
             * reduce-scatter plus the all-gather of the updated weights: the same bytes). It
             * overlaps the backward pass of the last micro-batch only; with a pipeline it runs
             * after the flush (Megatron-LM's default), overlapping nothing. */
            double ar = ar_factor(D) * grads + ar_factor(De) * expert_grads;
            exposed = fmax(0.0, ar / rate + layers * latency(D, alpha) - (lay->pp > 1 ? 0.0 : bwd));
            traffic = ar;
        }
        out->dp_seconds = exposed;
        if (t * D > gpn && links->net_per_gpu > 0.0) out->inter_bytes_per_gpu += traffic;
        else out->intra_bytes_per_gpu += traffic;
    }
    out->exposed = out->tp_seconds + out->pp_seconds + out->cp_seconds + out->ep_seconds + out->dp_seconds;
}

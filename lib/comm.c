/* Communication of one optimizer step, collective by collective: where it happens (per
 * layer, per micro-batch, per step), what it overlaps with, and the time it adds to the
 * step on given links. docs/methodology.md ("Communication per step") has each term with
 * its source.
 *
 * Collective time follows the alpha-beta model (Thakur et al. 2005; NCCL's own tuning
 * model): latency + bytes / bus bandwidth, with the bus bandwidth of the slowest hop (the
 * GPU's NVLink-class link inside a server; across servers the NICs of the group's ranks in
 * each server: bus_rate) and the ring's factor of the message: (n - 1)/n for all-gather and
 * reduce-scatter, 2 (n - 1)/n for all-reduce. */
#include <math.h>
#include <stdint.h>

#include "catalog.h"
#include "stages.h"

/* Ring traffic factors. */
static double ag_factor(double n) { return n > 1.0 ? (n - 1.0) / n : 0.0; }
static double ar_factor(double n) { return 2.0 * ag_factor(n); }

/* ceil(log2(n)) of a rank count (a whole number >= 2) without libm: the bits of n - 1. */
static double ceil_log2(double n)
{
    uint64_t v = (uint64_t)n - 1;
    int bits = 0;
    while (v) {
        bits++;
        v >>= 1;
    }
    return (double)bits;
}

/* Latency of one collective over n ranks: NCCL's tree and PAT algorithms at scale take
 * about 2 log2(n) steps of the per-step latency. */
static double latency(double n, double alpha) { return n > 1.0 ? 2.0 * ceil_log2(n) * alpha : 0.0; }

/* The smaller and the larger of two rates or rank counts (never NaN): without the calls
 * to libm's fmin and fmax, which each link the search tries would make dozens of. */
static double lesser(double a, double b) { return a < b ? a : b; }
static double greater(double a, double b) { return a > b ? a : b; }
/* What exceeds the compute it overlaps, or 0: fmax(0, x) for any x, NaN included. */
static double positive(double x) { return x > 0.0 ? x : 0.0; }

/* The rate inside a server for a group of `span` ranks: NVLink, or PCIe once the group is
 * wider than an NVLink bridge joins (bridged PCIe cards link pairs only). */
static double local_rate(double span, const ts_comm_links *l)
{
    return l->bridge > 0.0 && span > l->bridge ? lesser(l->intra, l->pcie) : l->intra;
}

/* How many of a group's n ranks, `stride` ranks apart, share one server (one fabric). Both
 * counts are whole, so the floor of their quotient is integer division. */
static double ranks_per_server(double n, double stride, const ts_comm_links *l)
{
    double g = stride >= l->gpus_per_node ? 1.0
                                          : (double)((uint64_t)l->gpus_per_node / (uint64_t)stride);
    return lesser(n, greater(1.0, g));
}

/* Bus bandwidth of a collective over n ranks `stride` apart. Inside a server: the GPU's
 * link, or NVLink SHARP for an all-reduce of more than 4 ranks where the switches reduce
 * (l->nvls). Across servers NCCL runs one ring or tree channel per NIC of the group's ranks
 * in each server, so the g ranks a server holds move the group's traffic over g NICs
 * (nccl-tests all-reduce on 4 servers of 8 H200: 365 GB/s bus bandwidth on 400 GB/s of
 * NICs per server); SHARP's in-network reduction sends an all-reduce's bytes once each way,
 * half a ring's. */
static double bus_rate(double n, double stride, int all_reduce, const ts_comm_links *l)
{
    double span = n * stride, g = ranks_per_server(n, stride, l);
    double local = all_reduce && l->nvls > 0.0 && g > 4.0 ? l->nvls : local_rate(span, l);
    if (span <= l->gpus_per_node || l->net_per_gpu <= 0.0) return local;
    return lesser(local, g * l->net_per_gpu * (all_reduce && l->sharp ? 2.0 : 1.0));
}

double ts_allgather_seconds(double bytes, double n, const ts_comm_links *l, double alpha)
{
    return n > 1.0 ? latency(n, alpha) + ag_factor(n) * bytes / bus_rate(n, 1.0, 0, l) : 0.0;
}

double ts_allreduce_network_seconds(double bytes, double servers, double server_rate, double alpha)
{
    return servers > 1.0 ? latency(servers, alpha) + ar_factor(servers) * bytes / server_rate : 0.0;
}

/* Adds a group's bytes per GPU to the server's links or the network: across servers each
 * GPU's share of its server's NIC traffic is the ring's bytes over the g ranks the server
 * holds (one channel per NIC carries a 1/g slice). */
static void count_bytes(ts_comm *out, double bytes, double n, double stride, const ts_comm_links *l)
{
    if (n * stride > l->gpus_per_node && l->net_per_gpu > 0.0)
        out->inter_bytes_per_gpu += bytes / ranks_per_server(n, stride, l);
    else
        out->intra_bytes_per_gpu += bytes;
}

/* Weight bytes one rank gathers per pass under ZeRO-3, per micro-batch: the whole stage as
 * the matmuls read it (LoRA: the frozen base, which the adapters' gradients do not shrink). */
static double zero3_weight_bytes(const ts_settings *cfg, const ts_conv *c, double stage_params)
{
    return stage_params * (cfg->lora_rank ? c->frozen_layer : c->weight_compute);
}

/* Tensor parallelism (Megatron-LM, Shoeybi et al. 2019 §3; Korthikanti et al. 2022 with
 * sequence parallelism, the same bytes): two all-reduces of s b h in each layer's forward,
 * two in its backward, and the forward's two again under full recomputation; they block
 * the layer, so every micro-batch slot pays them. */
static void tp_terms(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double sbh,
                     double mm_share, ts_comm_terms *k)
{
    double t = k->t, layers = k->layers, alpha = k->alpha, c_mb = k->c_mb;
    /* recomputation repeats the forward's two (per-op with SP: the all-gathers only; its
     * reduce-scatter outputs are kept), over the share of the layers it applies to */
    double again = cfg->recompute == TRAINSIZE_RECOMPUTE_FULL     ? 2.0
                   : cfg->recompute == TRAINSIZE_RECOMPUTE_PER_OP ? (lay->sp ? 1.0 : 2.0)
                                                                  : 0.0;
    double n = 4.0 + again * lay->recompute_share;
    k->tp = 1;
    k->tp_all_reduce = !cfg->sp;
    k->tp_bytes = n * layers * ar_factor(t) * sbh * c->act;
    k->tp_latency = n * layers * latency(t, alpha);
    /* tp-overlap: the all-gathers and reduce-scatters run in chunks under the layer's
     * matmuls (Transformer Engine's userbuffers overlap, PyTorch's async TP); only what
     * exceeds the matmuls' time adds. A stack's default applies only on a GPU-to-GPU
     * fabric: userbuffers needs peer memory over NVLink (over PCIe Transformer Engine
     * runs the collectives in turn), so auto gives no overlap where the group crosses
     * PCIe or the network; yes is the caller's word. */
    k->tp_overlap = c->tp_overlap &&
                    (cfg->tp_overlap == TRAINSIZE_TRISTATE_YES ||
                     ts_tp_on_fabric(cfg->gpu, lay->tp, lay->gpus_per_node, lay->gpus));
    k->tp_window = c_mb * mm_share;
}

/* Pipeline parallelism: each micro-batch slot sends its activations forward and receives
 * their gradient backward across a stage boundary, on the critical path of 1F1B; Megatron
 * splits the tensor over the tp ranks (scatter-gather), so each GPU sends s b h / t. The
 * neighbouring stage is t x cp x dp ranks away: another server when that fills one. */
static void pp_terms(const ts_layout *lay, const ts_conv *c, double sbh, ts_comm_terms *k)
{
    double t = k->t, cp = (double)lay->cp;
    k->pp = 1;
    k->pp_bytes = sbh * c->act / t;
    k->pp_stride = t * cp * (double)lay->dp;
}

/* Context parallelism (ring attention, as Transformer Engine runs it): each layer passes
 * the key/value blocks around the cp ring, (cp - 1) hops of s/cp b kv_dim x 2 in the
 * forward and twice that (keys, values and their gradients) in the backward, overlapped
 * with the attention blocks it feeds: only what exceeds the attention's time adds. */
static void cp_terms(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double mm_share,
                     ts_comm_terms *k)
{
    const ts_model *m = &cfg->model;
    double t = k->t, cp = (double)lay->cp, layers = k->layers, alpha = k->alpha, c_mb = k->c_mb;
    double kv = 2.0 * lay->tokens_mb * (double)ts_model_kv_dim(m) / t;
    k->cp = cp;
    k->cp_bytes = 3.0 * (cp - 1.0) * kv * c->act * layers;
    k->cp_latency = (cp - 1.0) * layers * alpha;
    k->cp_window = c_mb * (1.0 - mm_share);
}

/* Expert parallelism: dispatch and combine all-to-alls, forward and backward, of each
 * token's k expert copies, (e - 1)/e of them to other ranks. Across servers a token goes
 * to at most moe-max-nodes servers when routing is node-limited (DeepSeek-V3 §3.2.2: 4),
 * once per server, and is forwarded over NVLink inside it. ep-overlap hides the
 * all-to-all under the other micro-batch's compute (DeepSeek-V3's DualPipe). */
static void ep_terms(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                     const ts_conv *c, ts_comm_terms *k)
{
    const ts_model *m = &cfg->model;
    double t = k->t, ep = (double)lay->ep, layers = k->layers, alpha = k->alpha;
    double tokens = lay->tokens_mb / t;
    /* the fullest stage is all MoE layers unless the model has fewer */
    double moe_layers = fmin(layers, (double)pc->moe_layers);
    double topk = (double)m->experts_per_token, per_token = (double)m->hidden * c->act;
    double copies = cfg->moe_max_nodes ? fmin(topk, (double)cfg->moe_max_nodes) : topk;
    k->ep = ep;
    k->ep_layers = moe_layers;
    k->ep_all = 4.0 * topk * tokens * per_token;     /* every copy of a layer's tokens */
    k->ep_across = 4.0 * copies * tokens * per_token; /* the copies that cross servers */
    k->ep_latency = 4.0 * moe_layers * latency(ep, alpha);
    k->ep_overlap = cfg->ep_overlap;
}

/* Data parallelism over D = dp x cp ranks, t apart; the routed experts over their De
 * ranks, t x ep apart (Megatron-Core's rank order: tp, then cp or ep, then dp). */
static void dp_terms(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double dense_stage,
                     double experts_rank, double grads, double expert_grads, ts_comm_terms *k)
{
    double D = (double)lay->dense_shard, De = (double)lay->expert_shard, mb = k->mb;
    double etp = (double)lay->etp, ep = (double)lay->ep, layers = k->layers, alpha = k->alpha;
    double R = (double)lay->shard_replicas;
    k->D = D;
    k->De = De;
    k->R = R;
    k->dp_all_reduce = lay->zero == 0; /* ZeRO-1/2 and FSDP: reduce-scatter, all-gather */
    /* dp-nics own: the group's bytes leave each rank on its own NIC share alone */
    k->dp_own = c->dp_nics_own;
    k->dp_stride_e = etp * ep;
    /* hybrid sharding (shard-group): each group's reduced gradient shard is all-reduced
     * across the R groups, t x D ranks apart, after its reduce-scatter (FSDP
     * HYBRID_SHARD, torch FSDP docs; torchtitan's HSDP) */
    k->dp_ar_r = R > 1.0 ? ar_factor(R) * (grads / D + expert_grads / De) : 0.0;
    k->dp_latency_r = R > 1.0 ? layers * latency(R, alpha) : 0.0;
    k->zero3 = lay->zero >= 3;
    k->dp_overlap = c->dp_overlap;
    k->pipelined = lay->pp > 1;
    if (k->zero3) {
        /* ZeRO-3/FSDP: every forward, recomputed forward and backward pass of every
         * micro-batch all-gathers the stage's weights, layer by layer, prefetched under
         * that micro-batch's compute (dp-overlap no: not prefetched); the gradients are
         * reduce-scattered after each micro-batch, or once at the end when accumulating
         * unsharded (no_sync, and a pipeline's default). */
        double passes = 2.0 + (ts_recompute_repeats_matmuls(cfg) ? lay->recompute_share : 0.0);
        /* FSDP with a pipeline gathers the stage's weights once, for the whole step */
        double per_gather = lay->fsdp_pipeline ? 1.0 : passes;
        k->dp_gathers = lay->fsdp_pipeline ? 1.0 : mb;
        k->dp_gather = per_gather * ag_factor(D) * zero3_weight_bytes(cfg, c, dense_stage);
        k->dp_gather_e = per_gather * ag_factor(De) * zero3_weight_bytes(cfg, c, experts_rank);
        k->dp_rs = ag_factor(D) * grads;
        k->dp_rs_e = ag_factor(De) * expert_grads;
        k->dp_once = c->grad_sync_step;
        /* reduce-scatters priced apart from the gathers: once a step under the last
         * backward, or, beside a pipeline's one gather a step, after each micro-batch
         * under the next micro-batch slot (1F1B's steady state) */
        k->dp_apart = k->dp_once || lay->fsdp_pipeline;
        k->dp_latency = (passes + 1.0) * layers * latency(D, alpha);
    } else {
        k->dp_rs = ar_factor(D) * grads; /* the all-reduce's bytes */
        k->dp_rs_e = ar_factor(De) * expert_grads;
        k->dp_latency = layers * latency(D, alpha);
    }
}

/* What does not depend on the links, worked out once per step (ts_comm_terms_make); the
 * links then only set the rates (ts_comm_time), so that timing a step on each candidate
 * network repeats no more than that. */
void ts_comm_terms_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                        const ts_conv *c, double compute_step, ts_comm_terms *k)
{
    const ts_model *m = &cfg->model;
    double t = (double)lay->tp, p = (double)lay->pp;
    double ep = (double)lay->ep, mb = (double)lay->micro_batches, alpha = cfg->collective_latency;
    double layers = (double)lay->layers_per_stage, all_layers = (double)m->layers;
    double slots = mb * lay->bubble;             /* micro-batch slots on the critical path */
    double c_mb = compute_step / slots;          /* one micro-batch on the fullest stage */
    double sbh = lay->tokens_mb * (double)m->hidden;
    double stage_params = (double)pc->total / (t * p);
    /* Of those, the routed experts: ep ranks split them, and each expert is replicated only
     * over the D / ep ranks of its expert-data-parallel group (Megatron-Core's
     * expert_data_parallel group; DeepSpeed-MoE's expert data parallelism), so its
     * gradients and ZeRO-3 gathers run there, on 1/ep of the bytes. */
    double etp = (double)lay->etp;
    int moe = ts_model_is_moe(m);
    double experts_all = moe ? (double)m->experts * (double)pc->expert * (double)pc->moe_layers : 0.0;
    double experts_stage = experts_all / (etp * p); /* split over etp, not tp, when folded */
    double experts_rank = experts_stage / ep, dense_stage = stage_params - experts_all / (t * p);
    double grads = cfg->lora_rank ? lay->lora_layer * all_layers / (t * p) * c->reduce
                                  : dense_stage * c->reduce;
    double expert_grads = cfg->lora_rank ? 0.0 : experts_rank * c->reduce;
    /* the layers' matmuls' share of a micro-batch's compute (the rest: attention) */
    double layer_mm = 2.0 * (double)pc->layer, attn = ts_model_attention_flops(m, (uint64_t)lay->attend, 1) / all_layers;
    double mm_share = layer_mm / (layer_mm + attn);
    *k = (ts_comm_terms){0};
    k->t = t;
    k->mb = mb;
    k->slots = slots;
    k->c_mb = c_mb;
    k->bwd = 2.0 / 3.0 * c_mb; /* backward: twice the forward */
    k->alpha = alpha;
    k->layers = layers;

    if (lay->tp > 1) tp_terms(cfg, lay, c, sbh, mm_share, k);
    if (lay->pp > 1) pp_terms(lay, c, sbh, k);
    if (lay->cp > 1) cp_terms(cfg, lay, c, mm_share, k);
    if (moe && lay->ep > 1) ep_terms(cfg, lay, pc, c, k);
    if (lay->dense_shard > 1) dp_terms(cfg, lay, c, dense_stage, experts_rank, grads, expert_grads, k);
}

void ts_comm_time(const ts_comm_terms *k, const ts_comm_links *links, ts_comm *out)
{
    double gpn = links->gpus_per_node, t = k->t, mb = k->mb, slots = k->slots, c_mb = k->c_mb;
    *out = (ts_comm){0};
    if (k->tp) {
        double rate = bus_rate(t, 1.0, k->tp_all_reduce, links);
        double per_mb = k->tp_bytes / rate + k->tp_latency;
        out->tp_seconds = slots * (k->tp_overlap ? positive(per_mb - k->tp_window) : per_mb);
        if (t <= gpn) out->intra_bytes_per_gpu += slots * k->tp_bytes;
        else count_bytes(out, mb * k->tp_bytes, t, 1.0, links);
    }
    if (k->pp) {
        double rate = bus_rate(2.0, k->pp_stride, 0, links); /* a pair, on the GPU's own NIC */
        out->pp_seconds = slots * 2.0 * (k->pp_bytes / rate + k->alpha);
        count_bytes(out, mb * 2.0 * k->pp_bytes, 2.0, k->pp_stride, links);
    }
    if (k->cp > 1.0) {
        double rate = bus_rate(k->cp, t, 0, links);
        out->cp_seconds = slots * positive(k->cp_bytes / rate + k->cp_latency - k->cp_window);
        count_bytes(out, mb * k->cp_bytes, k->cp, t, links);
    }
    if (k->ep > 1.0) {
        double ep = k->ep, intra_bytes, inter_bytes = 0.0, a2a;
        if (ep <= gpn) {
            intra_bytes = k->ep_all * (ep - 1.0) / ep * k->ep_layers;
        } else {
            double nodes = ep / gpn;
            inter_bytes = k->ep_across * (nodes - 1.0) / nodes * k->ep_layers;
            intra_bytes = k->ep_all * k->ep_layers;
        }
        a2a = greater(intra_bytes / local_rate(lesser(ep, gpn), links),
                   links->net_per_gpu > 0.0 ? inter_bytes / links->net_per_gpu : 0.0) +
              k->ep_latency;
        out->ep_seconds = slots * (k->ep_overlap ? positive(a2a - c_mb) : a2a);
        out->intra_bytes_per_gpu += mb * intra_bytes;
        out->inter_bytes_per_gpu += mb * inter_bytes;
    }
    if (k->D > 1.0) {
        double D = k->D, De = k->De, R = k->R, bwd = k->bwd;
        int all_reduce = k->dp_all_reduce;
        double stride = k->dp_own ? gpn : t, stride_e = k->dp_own ? gpn : k->dp_stride_e;
        double stride_r = k->dp_own ? gpn : t * D;
        double rate = bus_rate(D, stride, all_reduce, links),
               rate_e = bus_rate(De, stride_e, all_reduce, links);
        double t_ar = R > 1.0 ? k->dp_ar_r / bus_rate(R, stride_r, 1, links) + k->dp_latency_r : 0.0;
        double exposed;
        if (k->zero3) {
            double rs_time = k->dp_rs / rate + k->dp_rs_e / rate_e + t_ar;
            int overlap = k->dp_overlap != TRAINSIZE_TRISTATE_NO;
            double sync = k->dp_once ? 1.0 : mb, window = k->dp_once ? bwd : c_mb, per_mb;
            per_mb =
                k->dp_gather / rate + k->dp_gather_e / rate_e + (k->dp_apart ? 0.0 : rs_time) + k->dp_latency;
            exposed = k->dp_gathers * (overlap ? positive(per_mb - c_mb) : per_mb);
            if (k->dp_apart) exposed += sync * (overlap ? positive(rs_time - window) : rs_time);
            count_bytes(out, k->dp_gathers * k->dp_gather + sync * k->dp_rs, D, stride, links);
            count_bytes(out, k->dp_gathers * k->dp_gather_e + sync * k->dp_rs_e, De, stride_e, links);
            if (R > 1.0) count_bytes(out, sync * k->dp_ar_r, R, stride_r, links);
        } else {
            /* DDP and ZeRO-1/2: one reduction of the gradients per step (ring all-reduce, or
             * reduce-scatter plus the all-gather of the updated weights: the same bytes).
             * dp-overlap auto: it overlaps the backward pass of the last micro-batch; with a
             * pipeline it runs after the flush (Megatron-LM's default), overlapping nothing.
             * yes (Megatron-Core's overlap_grad_reduce and overlap_param_gather, DeepSpeed's
             * overlap_comm): the reduction overlaps the last backward and, under ZeRO-1/2, the
             * weights' all-gather the next step's first forward, pipeline or not. no: nothing. */
            double total = k->dp_rs / rate + k->dp_rs_e / rate_e + k->dp_latency + t_ar;
            if (k->dp_overlap == TRAINSIZE_TRISTATE_YES)
                exposed = all_reduce ? positive(total - bwd)
                                     : positive(0.5 * total - bwd) + positive(0.5 * total - 0.5 * bwd);
            else
                exposed =
                    positive(total - (k->dp_overlap == TRAINSIZE_TRISTATE_NO || k->pipelined ? 0.0 : bwd));
            count_bytes(out, k->dp_rs, D, stride, links);
            count_bytes(out, k->dp_rs_e, De, stride_e, links);
            if (R > 1.0) count_bytes(out, k->dp_ar_r, R, stride_r, links);
        }
        out->dp_seconds = exposed;
    }
    out->exposed = out->tp_seconds + out->pp_seconds + out->cp_seconds + out->ep_seconds + out->dp_seconds;
}

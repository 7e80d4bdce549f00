/* Server sizing from the same job: host RAM, CPU cores, storage, the links between GPUs
 * and between servers, and the communication time the links add to a step. Each rule
 * names its source or says it is an assumption; docs/methodology.md ("Servers") lists them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "catalog.h"
#include "estimate.h"
#include "numparse.h"

#define GIB 1073741824.0
/* Operating system, drivers, page cache floor and the training processes' own heaps: an
 * assumption, not a measured figure. */
#define TS_HOST_RESERVE (32.0 * GIB)
/* Host memory of one data-loader worker process (its own Python and torch import, the
 * dataset index and prefetched batches): an assumption, not a measured figure. */
#define TS_WORKER_RAM (2.0 * GIB)
/* Fewest server-grade cores a training node should have (the whole-server issue's
 * checklist: "fewer than 8 cores" is an unbalanced system). */
#define TS_MIN_CORES 8.0
/* Token ids on disk: uint32 per token (Megatron's indexed datasets use uint16 below 65,536
 * vocabulary entries and int32 above). */
#define TS_DATASET_BYTES_PER_TOKEN 4.0
/* NVLink ring collectives reach 0.78-0.82 of the per-direction link rate (hardware.md §2.5:
 * A100 78 %, H100/H200 81-82 %). */
#define TS_SCALE_UP_SHARE 0.8
/* The backward pass, which data-parallel gradient communication overlaps, is about two
 * thirds of a step's compute (backward = 2 x forward). */
#define TS_BACKWARD_SHARE (2.0 / 3.0)

/* Host RAM sizes servers are sold with, GiB. */
static const double RAM_SIZES[] = {64, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384};

static double round_up_ram(double bytes)
{
    size_t i;
    for (i = 0; i < sizeof RAM_SIZES / sizeof RAM_SIZES[0]; i++)
        if (RAM_SIZES[i] * GIB >= bytes) return RAM_SIZES[i] * GIB;
    return ceil(bytes / (1024.0 * GIB)) * 1024.0 * GIB; /* whole TiB beyond the table */
}

static int to_u64(double v, uint64_t *out, const char *field, trainsize_error *err)
{
    if (!(v >= 0) || v >= 9.2e18)
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, field, "%s: result does not fit in 64 bits", field);
    *out = (uint64_t)ceil(v);
    return TRAINSIZE_OK;
}

/* One checkpoint: weights as held (without fp8's cached copies) plus the optimizer state
 * (master copy included); for LoRA the adapters and their state only. */
static double checkpoint_bytes(const trainsize_job *job, const ts_param_counts *pc, const ts_conv *c)
{
    double params = (double)pc->total;
    double state = c->adafactor ? c->state * ts_adafactor_elements(&job->model, pc) / params : c->state;
    double weight = c->weight - (job->precision == TS_PREC_FP8_MIXED ? 1.0 : 0.0);
    if (job->lora_rank) {
        double adapters = ts_lora_layer_params(job) * (double)job->model.layers;
        return adapters * (c->adapter_weight + c->adapter_state);
    }
    return params * (weight + c->master + state);
}

/* Bytes one step moves, by parallelism. */
typedef struct traffic {
    double tp_per_gpu;     /* tensor-parallel collectives, per GPU */
    double ep_per_gpu;     /* MoE all-to-all, per GPU */
    double dp_intra_per_gpu; /* data-parallel reduction inside a server, per GPU */
    double dp_inter_per_node; /* data-parallel reduction between servers, per server */
} traffic;

/* Ring collectives move 2 (n - 1)/n of the data per rank (ZeRO paper §7). */
static double ring(double n) { return n > 1.0 ? 2.0 * (n - 1.0) / n : 0.0; }

static void traffic_make(const trainsize_job *job, const ts_layout *lay, const ts_param_counts *pc,
                         const ts_conv *c, traffic *tr)
{
    const ts_model *m = &job->model;
    double gpn = (double)lay->gpus_per_node, t = (double)lay->tp;
    double sbh = (double)job->seq / (double)lay->cp * (double)job->micro_batch * (double)m->hidden;
    double per_step = (double)lay->layers_per_stage * (double)lay->micro_batches;
    double params = (double)pc->total, model_parallel = t * (double)lay->pp;
    double share = model_parallel > gpn ? gpn / model_parallel : 1.0; /* of a replica per node */
    double k = (double)lay->nodes * share;                         /* nodes per DP group */
    double dp_in_node = gpn / fmin(gpn, model_parallel * (double)lay->cp);
    double grads = job->lora_rank ? ts_lora_layer_params(job) * (double)m->layers * c->adapter_grad
                                  : params * c->grad;
    /* Megatron's tensor parallelism: two all-reduces of s b h in the forward pass of each
     * layer and two in the backward (Shoeybi et al. 2019, §3); full recomputation repeats
     * the forward's two. */
    double tp_collectives = job->recompute == TS_RECOMPUTE_FULL ? 6.0 : 4.0;
    tr->tp_per_gpu = lay->tp > 1 ? tp_collectives * ring(t) * sbh * c->act * per_step : 0.0;
    /* Expert parallelism: dispatch and combine all-to-alls, forward and backward, of each
     * token's k copies; (e - 1)/e of them leave the rank. */
    tr->ep_per_gpu = ts_model_is_moe(m) && lay->ep > 1
                         ? 4.0 * (double)m->experts_per_token * sbh * c->act *
                               ((double)lay->ep - 1.0) / (double)lay->ep * per_step
                         : 0.0;
    /* Data parallelism, hierarchically: inside a server across its DP ranks, then between
     * the k servers of a DP group, each sending 2 (k - 1)/k of the gradients it holds. */
    tr->dp_intra_per_gpu = ring(dp_in_node) * grads / model_parallel;
    tr->dp_inter_per_node = lay->dense_shard > 1 ? ring(k) * grads * share : 0.0;
    if (job->zero >= 3) { /* ZeRO-3 all-gathers the weights too: 3 instead of 2 */
        tr->dp_intra_per_gpu *= 1.5;
        tr->dp_inter_per_node *= 1.5;
    }
}

/* 10 GbE: the checklist calls multi-node training over it (or slower) unbalanced. */
#define TS_SLOW_NETWORK 1250000000ull

/* The slowest scale-out link faster than 10 GbE whose achieved rate per port meets
 * `need`; NULL if none. */
static const trainsize_link_info *choose_link(double need_per_port)
{
    const trainsize_link_info *best = NULL;
    size_t i;
    for (i = 0; i < ts_link_count; i++) {
        const trainsize_link_info *l = &ts_links[i];
        double rate = (double)l->bandwidth * l->achieved_share;
        if (l->kind != TRAINSIZE_LINK_SCALE_OUT || l->bandwidth <= TS_SLOW_NETWORK ||
            rate < need_per_port)
            continue;
        if (!best || rate < (double)best->bandwidth * best->achieved_share) best = l;
    }
    return best;
}

/* The fastest scale-out link of the catalogue. */
static const trainsize_link_info *fastest_link(void)
{
    const trainsize_link_info *best = NULL;
    size_t i;
    for (i = 0; i < ts_link_count; i++) {
        const trainsize_link_info *l = &ts_links[i];
        if (l->kind == TRAINSIZE_LINK_SCALE_OUT &&
            (!best || (double)l->bandwidth * l->achieved_share > (double)best->bandwidth * best->achieved_share))
            best = l;
    }
    return best;
}

/* The slowest storage class whose per-client rates meet both needs; NULL if none. */
static const trainsize_storage_info *choose_storage(double read, double write)
{
    const trainsize_storage_info *best = NULL;
    size_t i;
    for (i = 0; i < ts_storage_count; i++) {
        const trainsize_storage_info *st = &ts_storage[i];
        if ((double)st->read_rate < read || (double)st->write_rate < write) continue;
        if (!best || st->read_rate < best->read_rate) best = st;
    }
    return best;
}

/* Per-direction rate one GPU achieves over its host PCIe link: its generation's catalogue
 * link ("pcie3" ... "pcie6"). */
static double pcie_rate(const trainsize_gpu_info *gpu)
{
    size_t i;
    for (i = 0; i < ts_link_count; i++) {
        const trainsize_link_info *l = &ts_links[i];
        if (strncmp(l->name, "pcie", 4) == 0 && l->name[4] == (char)('0' + gpu->pcie_generation) &&
            l->name[5] == '\0')
            return (double)l->bandwidth * l->achieved_share;
    }
    return 1e9; /* an unknown generation: PCIe 1-class, so the warning shows */
}

/* Per-direction GPU-to-GPU bandwidth one GPU achieves inside a server: its NVLink-class
 * link, or else PCIe. */
static double scale_up_rate(const trainsize_gpu_info *gpu)
{
    if (gpu->scale_up_bandwidth) return (double)gpu->scale_up_bandwidth / 2.0 * TS_SCALE_UP_SHARE;
    return pcie_rate(gpu);
}

/* Bytes the host loads per server while the model is read: the checkpoint in 16 bits, as
 * the ranks of one server hold it at once. Megatron-LM ranks read their tp x pp shard;
 * under ZeRO-3/FSDP one rank reads the model and the others receive their shards
 * (Accelerate's cpu_ram_efficient_loading, DeepSpeed zero.Init); otherwise (DDP, ZeRO-1/2,
 * one GPU) every rank loads a whole copy. */
static double load_bytes_per_node(const trainsize_job *job, const ts_layout *lay, const ts_conv *c,
                                  double params)
{
    double gpn = (double)lay->gpus_per_node, model_parallel = (double)(lay->tp * lay->pp);
    if (job->sharded_loading) return 2.0 * params;
    if (job->zero >= 3 && c->framework != TS_FW_MEGATRON) return 2.0 * params;
    return gpn * 2.0 * params / model_parallel;
}

/* ZeRO-Offload's CPU Adam reads and writes the fp32 master, both moments and the gradient,
 * and writes the 16-bit weights back: 4+4 + 4+4 + 4+4 + 2 + 2 bytes per parameter, bound
 * by host memory bandwidth (a roofline: a real CPU Adam runs slower, never faster). */
#define TS_CPU_ADAM_BYTES 28.0

/* Offload time per step that compute does not hide (Ren et al. 2021, ZeRO-Offload §4-5):
 * the gradients go down during the backward pass (hidden); the CPU step over every rank's
 * partition of a server runs alone, then the updated 16-bit weights go up over PCIe before
 * the next forward. With the parameters offloaded too (ZeRO-Infinity), every forward and
 * backward pass of every micro-batch fetches the rank's partition, prefetched under that
 * pass's compute: only what exceeds it adds time. */
static double offload_seconds(const trainsize_job *job, const ts_layout *lay, const ts_conv *c,
                              double trainable, double compute_step)
{
    double shard = trainable / (double)lay->dense_shard, pcie = pcie_rate(job->gpu);
    double cpu, up, t;
    if (job->offload == TS_OFFLOAD_NONE) return 0.0;
    cpu = (double)lay->gpus_per_node * shard * TS_CPU_ADAM_BYTES / job->host_memory_bandwidth;
    up = shard * c->weight_compute / pcie;
    t = cpu + up;
    if (job->offload == TS_OFFLOAD_OPTIMIZER_PARAMS) {
        double passes = job->recompute == TS_RECOMPUTE_FULL ? 3.0 : 2.0;
        double fetch = passes * shard * c->weight_compute / pcie;
        double per_micro = compute_step / (double)lay->micro_batches;
        t += (double)lay->micro_batches * fmax(0.0, fetch - per_micro);
    }
    return t;
}

int ts_system_make(const trainsize_job *job, const ts_layout *lay, const ts_param_counts *pc,
                   const ts_conv *conv, const trainsize_memory *mem, trainsize_time *tm,
                   trainsize_system *out, uint64_t *warnings, trainsize_error *err)
{
    double gpn = (double)lay->gpus_per_node, params = (double)pc->total;
    double nodes = (double)lay->nodes, compute_step = tm->step_seconds;
    double nics = job->nics_per_node ? (double)job->nics_per_node : gpn;
    double trainable = job->lora_rank ? ts_lora_layer_params(job) * (double)job->model.layers : params;
    double ram_need = gpn * ((double)mem->host_offload + (double)job->data_loader_workers * TS_WORKER_RAM) +
                      load_bytes_per_node(job, lay, conv, params) + TS_HOST_RESERVE;
    /* The rule is about the GPU memory a server is sold with: the label, not the runtime's total. */
    double label = job->gpu_memory ? (double)job->gpu_memory : (double)job->gpu->memory_bytes;
    double ram_floor = job->host_ram_factor * gpn * label;
    double cores = fmax(TS_MIN_CORES, gpn * ((double)job->data_loader_workers + 1.0));
    double tokens_per_s = (double)lay->global_batch * (double)job->seq / compute_step;
    double ckpt = checkpoint_bytes(job, pc, conv);
    double read_need = tokens_per_s * TS_DATASET_BYTES_PER_TOKEN / nodes;
    double write_need = ckpt / nodes / job->checkpoint_seconds;
    double window = job->comm_share * compute_step, intra = scale_up_rate(job->gpu);
    double tp_rate, ep_rate, net_rate = 0.0, exposed, dp_time;
    const trainsize_link_info *link = NULL;
    const trainsize_storage_info *st;
    traffic tr;
    int rc;

    traffic_make(job, lay, pc, conv, &tr);
    out->nodes = lay->nodes;
    out->gpus_per_node = lay->gpus_per_node;
    if ((rc = to_u64(round_up_ram(fmax(ram_floor, ram_need)), &out->host_ram_per_node,
                     "host_ram_per_node", err)) ||
        (rc = to_u64(ram_need, &out->host_ram_need_per_node, "host_ram_need_per_node", err)))
        return rc;
    /* Below the need the job cannot run; below the rule only the recommendation is missed. */
    if (job->host_ram && (double)job->host_ram < ram_need) *warnings |= TRAINSIZE_WARN_HOST_RAM;
    else if (job->host_ram && (double)job->host_ram < ram_floor) *warnings |= TRAINSIZE_WARN_HOST_RAM_RULE;
    out->cpu_cores_per_node = (uint64_t)cores;
    if (job->cpu_cores && (double)job->cpu_cores < cores) *warnings |= TRAINSIZE_WARN_CPU_CORES;

    /* Storage: capacity, the read rate that feeds the GPUs, the checkpoint write rate. */
    if ((rc = to_u64(tm->tokens * TS_DATASET_BYTES_PER_TOKEN + (double)job->checkpoints_kept * ckpt,
                     &out->storage_capacity, "storage_capacity", err)) ||
        (rc = to_u64(read_need * nodes, &out->storage_read_rate, "storage_read_rate", err)) ||
        (rc = to_u64(ckpt, &out->checkpoint_bytes, "checkpoint_bytes", err)) ||
        (rc = to_u64(write_need, &out->checkpoint_write_rate, "checkpoint_write_rate", err)))
        return rc;
    st = job->storage ? job->storage : choose_storage(read_need, write_need);
    if (!st || (double)st->read_rate < read_need || (double)st->write_rate < write_need)
        *warnings |= TRAINSIZE_WARN_STORAGE;
    ts_copy_name(out->storage_class, sizeof out->storage_class, st ? st->name : "");

    /* Links: what each GPU needs inside a server, what each server needs between
     * servers, for communication to fit in comm-share of the step. */
    tp_rate = lay->tp <= lay->gpus_per_node ? tr.tp_per_gpu : 0.0;
    ep_rate = lay->ep <= lay->gpus_per_node ? tr.ep_per_gpu : 0.0;
    if ((rc = to_u64((tp_rate + ep_rate + tr.dp_intra_per_gpu) / window, &out->intra_node_rate_per_gpu,
                     "intra_node_rate_per_gpu", err)))
        return rc;
    if ((double)out->intra_node_rate_per_gpu > intra) *warnings |= TRAINSIZE_WARN_GPU_LINK;
    if (lay->nodes > 1) {
        double spill = (lay->tp > lay->gpus_per_node ? tr.tp_per_gpu : 0.0) +
                       (lay->ep > lay->gpus_per_node ? tr.ep_per_gpu : 0.0);
        net_rate = (tr.dp_inter_per_node + gpn * spill) / window;
        link = job->network ? job->network : choose_link(net_rate / nics);
        if (!link) link = fastest_link(); /* none meets the need: time it on the best there is */
        if (!link || (double)link->bandwidth * link->achieved_share * nics < net_rate)
            *warnings |= TRAINSIZE_WARN_NETWORK;
        if (link && link->bandwidth <= TS_SLOW_NETWORK) *warnings |= TRAINSIZE_WARN_SLOW_MULTINODE;
    }
    if ((rc = to_u64(net_rate, &out->interconnect_rate_per_node, "interconnect_rate_per_node", err)))
        return rc;
    ts_copy_name(out->network_link, sizeof out->network_link, link ? link->name : "");

    /* Time the links add: tensor- and expert-parallel collectives block the step; the
     * data-parallel reduction overlaps the backward pass and adds only what exceeds it. */
    {
        double node_rate = link ? (double)link->bandwidth * link->achieved_share * nics / gpn : intra;
        double tp_time = tr.tp_per_gpu / (lay->tp <= lay->gpus_per_node ? intra : node_rate);
        double ep_time = tr.ep_per_gpu / (lay->ep <= lay->gpus_per_node ? intra : node_rate);
        dp_time = tr.dp_intra_per_gpu / intra +
                  (link ? tr.dp_inter_per_node / ((double)link->bandwidth * link->achieved_share * nics) : 0.0);
        exposed = fmax(0.0, dp_time - TS_BACKWARD_SHARE * compute_step);
        tm->comm_seconds = tp_time + ep_time + exposed;
        tm->offload_seconds = offload_seconds(job, lay, conv, trainable, compute_step);
        tm->step_seconds += tm->comm_seconds + tm->offload_seconds;
        tm->seconds = tm->step_seconds * (double)tm->steps;
        tm->gpu_hours = tm->seconds * (double)lay->gpus / 3600.0;
    }
    ts_power_cost(job, lay, tm, out, warnings);
    return ts_ok(err);
}

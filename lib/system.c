/* Server sizing from the same job: host RAM, CPU cores, storage, the links between GPUs
 * and between servers, and the communication time the links add to a step. Each rule
 * names its source or says it is an assumption; docs/methodology.md ("Servers") lists them. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "error.h"
#include "catalog.h"
#include "checked.h"
#include "host_ram.h"
#include "stages.h"
#include "text_values.h"

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
/* NVLink ring collectives reach 0.78-0.82 of the per-direction link rate (nccl-tests
 * all-reduce busbw, Ring: 8x A100 78 %, 8x H100/H200 81-82 %; S. Bekman, ml-engineering,
 * https://github.com/stas00/ml-engineering/blob/744d01e/network/README.md, and
 * https://github.com/NVIDIA/nccl-tests/issues/212). */
#define TS_SCALE_UP_SHARE 0.8
/* NVLink SHARP all-reduces (the NVSwitches reduce) reach 1.05 of the per-direction link rate
 * on Hopper (8x H100/H200: 473-482 GB/s of 450) and 0.93 on Blackwell (8x B200: 838 of 900;
 * the same sources, and https://github.com/NVIDIA/nccl-tests/issues/272). */
#define TS_NVLS_SHARE_HOPPER 1.05
#define TS_NVLS_SHARE_BLACKWELL 0.93

/* Host RAM sizes servers are sold with, GiB. */
static const double RAM_SIZES[] = {64,   128,  192,  256,  384,  512,  768,   1024,
                                   1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384};

double ts_round_up_ram(double bytes)
{
    size_t i;
    for (i = 0; i < sizeof RAM_SIZES / sizeof RAM_SIZES[0]; i++)
        if (RAM_SIZES[i] * GIB >= bytes) return RAM_SIZES[i] * GIB;
    return ceil(bytes / (1024.0 * GIB)) * 1024.0 * GIB; /* whole TiB beyond the table */
}

/* Too large a figure names the input that drives it (err->field) and the figure. */
static int to_u64(double v, uint64_t *out, const char *result, const char *input,
                  trainsize_error *err)
{
    if (!ts_fits_u64(v))
        return ts_fail(err, TRAINSIZE_E_OVERFLOW, input,
                       "%s: the job is too large to estimate (system.%s would pass 2^63)", input,
                       result);
    *out = ts_ceil_u64(v);
    return TRAINSIZE_OK;
}

/* One checkpoint: weights as held (without fp8's cached copies) plus the optimizer state
 * (master copy included); for LoRA the adapters and their state only. */
static double checkpoint_bytes(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                               const ts_conv *c)
{
    double params = (double)pc->total + (double)pc->mtp; /* trained MTP modules are saved too */
    double state = c->adafactor ? c->state * ts_model_adafactor_elements(&cfg->model, pc) / (double)pc->total
                                : c->state;
    /* Transformer Engine's fp8 copies are not saved; with fp8 params the weights are saved
     * in 16 bits, cast from the master (an assumption) */
    int te_fp8 = cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED && c->framework != TRAINSIZE_FRAMEWORK_PYTORCH;
    double weight = !te_fp8                              ? c->weight
                    : cfg->fp8_params && c->master > 0.0 ? 2.0
                                                         : c->weight - ts_fp8_weight_bytes(cfg);
    if (cfg->lora_rank) {
        double adapters = lay->lora_layer * (double)cfg->model.layers;
        return adapters * (c->adapter_weight + c->adapter_state);
    }
    return params * (weight + c->master + state);
}

/* The GPUs one scale-up fabric joins in this job (ts_fabric_span): NVL72's NVLink switches
 * join 18 trays of 4, a TPU slice's ICI joins its hosts. Collectives inside it run at the
 * GPU link's rate. */
static double fabric_span(const trainsize_gpu_info *gpu, const ts_layout *lay)
{
    return (double)ts_fabric_span(gpu, lay->gpus_per_node, lay->gpus);
}

/* The links inside the fabric, the same for every scale-out link a step is timed on (so
 * built once): the GPU link's rate, the fabric's span, an NVLink bridge's and PCIe's. */
static ts_comm_links fabric_links(const ts_settings *cfg, const ts_layout *lay, double intra, double pcie)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    ts_comm_links k;
    /* scale-up-efficiency: a site's own fabric against nccl-tests' shares (a calibration) */
    k.intra = intra * cfg->scale_up_efficiency;
    k.gpus_per_node = fabric_span(gpu, lay);
    k.bridge = (double)ts_bridge_span(gpu, lay->gpus_per_node);
    k.pcie = pcie * cfg->scale_up_efficiency;
    k.net_per_gpu = 0.0;
    k.nvls = 0.0;
    k.sharp = cfg->sharp;
    /* NVLink SHARP needs NVSwitches (no bridges) of NVIDIA Hopper or Blackwell parts */
    if (cfg->nvls != TRAINSIZE_TRISTATE_NO && gpu->scale_up_bandwidth && k.bridge == 0.0) {
        int hopper = ts_arch_is(gpu, "Hopper"), blackwell = ts_arch_is(gpu, "Blackwell");
        double share = hopper ? TS_NVLS_SHARE_HOPPER : blackwell ? TS_NVLS_SHARE_BLACKWELL : 0.0;
        if (share == 0.0 && cfg->nvls == TRAINSIZE_TRISTATE_YES)
            share = TS_SCALE_UP_SHARE; /* asked, no switch: a ring */
        k.nvls = (double)gpu->scale_up_bandwidth / 2.0 * share * cfg->scale_up_efficiency;
    }
    return k;
}

/* The links the step's collectives run on with scale-out link `l` (NULL: one server), which
 * only what leaves the fabric uses. */
static ts_comm_links links_with(const ts_settings *cfg, const ts_comm_links *fabric, const ts_layout *lay,
                                const trainsize_link_info *l, double nics)
{
    ts_comm_links k = *fabric;
    /* network-efficiency: a site's own network against nccl-tests' shares (a calibration) */
    k.net_per_gpu = l && (double)lay->gpus > k.gpus_per_node
                        ? (double)l->bandwidth * l->achieved_share * cfg->network_efficiency * nics /
                              (double)lay->gpus_per_node
                        : 0.0;
    return k;
}

/* What RL's rollout spends on the network each step (an engine wider than a server, and
 * engines on servers of their own receiving the weights), which the link chosen must keep
 * in the share too; and the same were the network as fast as the GPUs' own link. */
static double rollout_network(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                              const ts_comm_links *k)
{
    if (!lay->rl) return 0.0;
    return ts_rollout_network_seconds(cfg, lay, pc, k) +
           (lay->rollout_gpus ? ts_rollout_sync_seconds(cfg, lay, pc, k) : 0.0);
}

static double rollout_network_ideal(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                                    const ts_comm_links *k)
{
    ts_comm_links fast = *k;
    fast.net_per_gpu = k->net_per_gpu > 0.0 ? k->intra : 0.0;
    return rollout_network(cfg, lay, pc, &fast);
}

/* Exposed communication were the network as fast as the GPUs' own link: the baseline a
 * network's cost is measured from (the same for every link, so computed once). */
static double ideal_exposed(const ts_comm_terms *terms, const ts_comm_links *k)
{
    ts_comm ideal;
    ts_comm_links fast = *k;
    fast.net_per_gpu = k->net_per_gpu > 0.0 ? k->intra : 0.0;
    ts_comm_time(terms, &fast, &ideal);
    return ideal.exposed;
}


/* The slowest scale-out link faster than 10 GbE that adds at most comm-share of the step's
 * compute to its exposed communication (its exposed time with it, less the ideal one); NULL
 * if none. A faster link never exposes more, so the candidates, in the catalogue's order by
 * achieved rate (ts_links_by_rate), are searched by halves: a few timings of the step's
 * collectives instead of one per link. The link chosen was one of them: its timing is left
 * in *timed, so that the step is not timed on it again. */
static const trainsize_link_info *choose_link(const ts_settings *cfg, const ts_layout *lay,
                                              const ts_param_counts *pc, const ts_comm_terms *terms,
                                              double compute_step, const ts_comm_links *fabric, double nics,
                                              ts_comm *timed)
{
    /* the first candidate in [lo, hi) that meets the share; hi = n: none yet */
    size_t n = ts_links_by_rate_count, lo = 0, hi = n;
    double ideal = -1.0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        ts_comm_links k = links_with(cfg, fabric, lay, &ts_links[ts_links_by_rate[mid]], nics);
        ts_comm with;
        if (ideal < 0.0) ideal = ideal_exposed(terms, &k) + (lay->rl ? rollout_network_ideal(cfg, lay, pc, &k) : 0.0);
        ts_comm_time(terms, &k, &with);
        if (with.exposed + (lay->rl ? rollout_network(cfg, lay, pc, &k) : 0.0) - ideal <=
            cfg->comm_share * compute_step) {
            hi = mid; /* the answer so far: the last one kept is the one returned */
            *timed = with;
        } else {
            lo = mid + 1;
        }
    }
    return lo < n ? &ts_links[ts_links_by_rate[lo]] : NULL;
}

/* The fastest scale-out link of the catalogue. */
static const trainsize_link_info *fastest_link(void)
{
    const trainsize_link_info *best = NULL;
    size_t i;
    for (i = 0; i < ts_link_count; i++) {
        const trainsize_link_info *l = &ts_links[i];
        if (l->kind == TRAINSIZE_LINK_SCALE_OUT &&
            (!best ||
             (double)l->bandwidth * l->achieved_share > (double)best->bandwidth * best->achieved_share))
            best = l;
    }
    return best;
}

/* The links RL's rollout uses: the training's, and a network wherever its engines reach
 * past a server though training stays on one (engines on servers of their own, an engine
 * wider than a server): the one set or the host's, else the fastest there is. */
static ts_comm_links rollout_links(const ts_settings *cfg, const ts_layout *lay, const ts_comm_links *k,
                                   const trainsize_link_info *link, double nics)
{
    ts_comm_links r = *k;
    const trainsize_link_info *l = link ? link : cfg->network ? cfg->network : fastest_link();
    if (!(r.net_per_gpu > 0.0) && l)
        r.net_per_gpu = (double)l->bandwidth * l->achieved_share * cfg->network_efficiency * nics /
                        (double)lay->gpus_per_node;
    return r;
}

/* Are a storage class's rates enough: every server's read and checkpoint write, and for a
 * shared file system everything together? (Sharing is judged apart: storage_shared_ok.) */
static int storage_meets(const trainsize_storage_info *st, double read, double write,
                         double total_read, double total_write)
{
    if ((double)st->read_rate < read || (double)st->write_rate < write) return 0;
    if (st->aggregate_read_rate && (double)st->aggregate_read_rate < total_read) return 0;
    if (st->aggregate_write_rate && (double)st->aggregate_write_rate < total_write) return 0;
    return 1;
}

/* Several servers need shared storage: a job restarts from a checkpoint on any server, and
 * sharded checkpoints are saved into one namespace. */
static int storage_shared_ok(const trainsize_storage_info *st, uint64_t nodes)
{
    return nodes <= 1 || st->shared;
}

/* The first class of `order` (indices into the catalogue) whose rates are enough; NULL if
 * none. */
static const trainsize_storage_info *first_meeting(const unsigned char *order, size_t n, double read,
                                                  double write, double total_read, double total_write)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (storage_meets(&ts_storage[order[i]], read, write, total_read, total_write)) return &ts_storage[order[i]];
    return NULL;
}

/* The storage the job reads and checkpoints to: the NVMe each server carries where one
 * server runs it (*local: the slowest that serves one server's rates, `local_read` being all
 * of the reads when the dataset is cached there); on several servers, or one that no NVMe
 * drive keeps up with (checkpoints in seconds), the first shared class in the catalogue's
 * order that serves the job (`read` per server from it). NULL where none does. */
static const trainsize_storage_info *choose_storage(double local_read, double read, double write,
                                                   double total_read, double total_write, uint64_t nodes,
                                                   const trainsize_storage_info **local)
{
    *local = first_meeting(ts_storage_nvme_by_read, ts_storage_nvme_count, local_read, write, local_read, write);
    if (nodes <= 1 && *local) return *local;
    return first_meeting(ts_storage_shared_by_rank, ts_storage_shared_count, read, write, total_read, total_write);
}

/* One checkpoint written to a class: every server its share at the class's per-client rate,
 * no faster than a shared deployment takes all of them together. */
static double checkpoint_write_seconds(const trainsize_storage_info *st, double ckpt, double nodes)
{
    double t = st->write_rate ? ckpt / nodes / (double)st->write_rate : 0.0;
    if (st->shared && st->aggregate_write_rate) t = fmax(t, ckpt / (double)st->aggregate_write_rate);
    return t;
}

/* The class that writes fastest (shared ones only, for several servers): where a job that
 * none serves is timed. */
static const trainsize_storage_info *fastest_storage(int shared)
{
    const trainsize_storage_info *best = NULL;
    size_t i;
    for (i = 0; i < ts_storage_count; i++) {
        const trainsize_storage_info *st = &ts_storage[i];
        double rate = st->shared && st->aggregate_write_rate ? (double)st->aggregate_write_rate
                                                             : (double)st->write_rate;
        if (shared && !st->shared) continue;
        if (!best || rate > (best->shared && best->aggregate_write_rate ? (double)best->aggregate_write_rate
                                                                          : (double)best->write_rate))
            best = st;
    }
    return best;
}

/* checkpoint-async: the step waits while each saving GPU copies its shard to pinned host
 * memory over its host link. The shard: the checkpoint over the model-parallel ranks, and
 * over the data-parallel ranks too where ZeRO shards the state. */
static double checkpoint_copy_seconds(const ts_layout *lay, double ckpt, double pcie)
{
    double ranks = (double)(lay->tp * lay->pp * lay->ep) * (lay->zero >= 1 ? (double)lay->dense_shard : 1.0);
    return ckpt / ranks / pcie;
}

/* Per-direction rate one GPU achieves over its host link: its PCIe generation's catalogue
 * link ("pcie3" ... "pcie6"); generation 0 in the catalogue is a Grace host on NVLink-C2C. */
static double pcie_rate(const trainsize_gpu_info *gpu)
{
    size_t i;
    const char *name = gpu->pcie_generation == 0 ? "nvlink-c2c" : NULL;
    for (i = 0; name && i < ts_link_count; i++)
        if (strcmp(ts_links[i].name, name) == 0)
            return (double)ts_links[i].bandwidth * ts_links[i].achieved_share;
    if (gpu->pcie_generation < 1 || gpu->pcie_generation > 9) return 1e9;
    for (i = 0; i < ts_link_count; i++) {
        const trainsize_link_info *l = &ts_links[i];
        /* "pcieN" compared letter by letter: the estimate asks for it several times */
        if (l->name[0] == 'p' && l->name[1] == 'c' && l->name[2] == 'i' && l->name[3] == 'e' &&
            l->name[4] == (char)('0' + gpu->pcie_generation) && l->name[5] == '\0')
            return (double)l->bandwidth * l->achieved_share;
    }
    return 1e9; /* an unknown generation: PCIe 1-class, so the warning shows */
}

/* Per-direction GPU-to-GPU bandwidth one GPU achieves inside a server: its NVLink-class
 * link, or else PCIe. */
static double scale_up_rate(const trainsize_gpu_info *gpu, double pcie)
{
    if (gpu->scale_up_bandwidth) return (double)gpu->scale_up_bandwidth / 2.0 * TS_SCALE_UP_SHARE;
    return pcie;
}

/* Bytes the host loads per server while the model is read: the checkpoint in 16 bits, as
 * the ranks of one server hold it at once. Megatron-LM ranks read their tp x pp shard;
 * under ZeRO-3/FSDP one rank reads the model and the others receive their shards
 * (Accelerate's cpu_ram_efficient_loading, DeepSpeed zero.Init); otherwise (DDP, ZeRO-1/2,
 * one GPU) every rank loads a whole copy. */
static double load_bytes_per_node(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                                  double params)
{
    double gpn = (double)lay->gpus_per_node, model_parallel = (double)(lay->tp * lay->pp);
    if (cfg->sharded_loading) return 2.0 * params;
    if (lay->zero >= 3 && c->framework != TRAINSIZE_FRAMEWORK_MEGATRON) return 2.0 * params;
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
static double offload_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c,
                              double trainable, double compute_step, double pcie)
{
    double shard = trainable / (double)lay->dense_shard;
    double cpu, up, t;
    if (cfg->offload == TRAINSIZE_OFFLOAD_NONE) return 0.0;
    cpu = (double)lay->gpus_per_node * shard * TS_CPU_ADAM_BYTES / cfg->host_memory_bandwidth;
    up = shard * c->weight_compute / pcie;
    t = cpu + up;
    if (cfg->offload == TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS) {
        double passes = 2.0 + (ts_recompute_repeats_matmuls(cfg) ? lay->recompute_share : 0.0);
        double fetch = passes * shard * c->weight_compute / pcie;
        double per_micro = compute_step / (double)lay->micro_batches;
        t += (double)lay->micro_batches * fmax(0.0, fetch - per_micro);
    }
    return t;
}

/* A product sold with its host (a TPU VM, a Grace tray) on the servers it comes in: the
 * answer is that host, with the RAM, cores and NICs it has. */
static int sold_with_host(const ts_settings *cfg, const ts_layout *lay)
{
    return cfg->gpu->host_ram_bytes && (int)lay->gpus_per_node == cfg->gpu->per_host;
}

/* Host RAM and CPU cores per server: the need (offload, loader workers, loading the model,
 * the system) and the rule (host-ram-factor x the server's GPU memory), against what the
 * host has when that is known. */
static int size_host(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                     const ts_conv *conv, const trainsize_memory *mem, trainsize_system *out,
                     ts_findings *found, trainsize_error *err)
{
    double gpn = (double)lay->gpus_per_node;
    double ram_need = gpn * ((double)mem->host_offload + (double)cfg->data_loader_workers * TS_WORKER_RAM) +
                      load_bytes_per_node(cfg, lay, conv, (double)pc->total) + TS_HOST_RESERVE;
    /* The rule is about the GPU memory a server is sold with: the label, not the runtime's total. */
    double label = cfg->gpu_memory ? (double)cfg->gpu_memory : (double)cfg->gpu->memory_bytes;
    double ram_floor = cfg->host_ram_factor * gpn * label;
    double cores = fmax(TS_MIN_CORES, gpn * ((double)cfg->data_loader_workers + 1.0));
    int fixed_host = sold_with_host(cfg, lay);
    double have_ram = cfg->host_ram ? (double)cfg->host_ram
                      : fixed_host  ? (double)cfg->gpu->host_ram_bytes
                                    : 0.0;
    double have_cores = cfg->cpu_cores  ? (double)cfg->cpu_cores
                        : fixed_host ? (double)cfg->gpu->host_cores
                                     : 0.0;
    int rc;

    if ((rc = to_u64(ts_round_up_ram(fmax(ram_floor, ram_need)), &out->host_ram_per_node,
                     "host_ram_per_node", "model", err)) ||
        (rc = to_u64(ram_need, &out->host_ram_need_per_node, "host_ram_need_per_node", "model", err)))
        return rc;
    out->cpu_cores_per_node = (uint64_t)cores;
    /* A host sold with the GPUs has the RAM and cores it has (or the ones set): the answer
     * is that host, checked against the need; the rule does not apply. */
    if (fixed_host) {
        out->host_ram_per_node = (uint64_t)have_ram;
        if (have_cores > 0.0) out->cpu_cores_per_node = (uint64_t)have_cores;
    }
    /* Below the need the job cannot run; below the rule only the recommendation is missed. */
    found->host_ram_short = have_ram > 0.0 && have_ram < ram_need;
    found->host_ram_below_rule = cfg->host_ram && !fixed_host && (double)cfg->host_ram < ram_floor;
    found->cpu_cores_short = have_cores > 0.0 && have_cores < cores;
    return 0;
}

/* Storage: capacity, the read rate that feeds the GPUs, the checkpoint write rate; the
 * class that serves them, each server's local NVMe, and the checkpoint's copy to host. */
static int size_storage(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                        const ts_conv *conv, const ts_compute *cmp, double pcie, trainsize_system *out,
                        ts_step_losses *losses, ts_findings *found, trainsize_error *err)
{
    double nodes = (double)lay->nodes;
    double tokens_per_s =
        (double)lay->global_batch * lay->seq_step * (double)lay->seqs_per_sample / cmp->step_seconds;
    double ckpt = checkpoint_bytes(cfg, lay, pc, conv);
    double read_need = tokens_per_s * ts_dataset_read_per_token(cfg) / nodes;
    double dataset = ts_dataset_bytes(cfg, cmp->tokens);
    double write_need = ckpt / nodes / cfg->checkpoint_seconds;
    const trainsize_storage_info *st, *local; /* local: every GPU server's NVMe, cache and scratch */
    double shared_read; /* per server, from the shared file system (or the one storage) */
    int rc, cached;

    if ((rc = to_u64(dataset + (double)cfg->checkpoints_kept * ckpt, &out->storage_capacity,
                     "storage_capacity", cfg->dataset_bytes ? "dataset-bytes" : "tokens", err)) ||
        (rc = to_u64(dataset, &out->dataset_bytes, "dataset_bytes",
                     cfg->dataset_bytes ? "dataset-bytes" : "tokens", err)) ||
        (rc = to_u64(read_need * nodes, &out->storage_read_rate, "storage_read_rate", "micro-batch", err)) ||
        (rc = to_u64(ckpt, &out->checkpoint_bytes, "checkpoint_bytes", "model", err)) ||
        (rc = to_u64(write_need, &out->checkpoint_write_rate, "checkpoint_write_rate", "model", err)) ||
        (rc = to_u64(write_need * nodes, &out->checkpoint_write_rate_total, "checkpoint_write_rate_total",
                     "model", err)))
        return rc;
    /* Several servers whose dataset fits each one's NVMe cache stage it there once (each
     * reads the whole dataset over the run) and read it locally; the shared file system
     * serves that and the checkpoints. */
    cached = lay->nodes > 1 && cfg->local_cache_bytes && dataset <= (double)cfg->local_cache_bytes &&
             !(cfg->storage && !cfg->storage->shared);
    shared_read = cached ? fmin(read_need, dataset / (cmp->tokens / tokens_per_s)) : read_need;
    st = choose_storage(read_need, shared_read, write_need, shared_read * nodes, write_need * nodes,
                        lay->nodes, &local);
    if (cfg->storage) st = cfg->storage;
    ts_copy_name(out->local_storage_class, sizeof out->local_storage_class, local ? local->name : "");
    ts_copy_name(out->dataset_source, sizeof out->dataset_source,
                 lay->nodes <= 1 ? (st && st->shared ? "shared" : "local") : cached ? "local-cache" : "shared");
    found->storage_short =
        !st || !storage_meets(st, shared_read, write_need, shared_read * nodes, write_need * nodes);
    /* None serves the job (storage-too-slow): the checkpoints are timed on the fastest there is */
    out->checkpoint_write_seconds =
        checkpoint_write_seconds(st ? st : fastest_storage(lay->nodes > 1), ckpt, nodes);
    /* owning, several servers: the shared file system is bought with them */
    out->capex_storage_usd = lay->nodes > 1 && (!st || st->shared)
                                 ? (double)out->storage_capacity / 1e12 * cfg->storage_usd_per_tb
                                 : 0.0;
    losses->checkpoint_copy = checkpoint_copy_seconds(lay, ckpt, pcie);
    found->storage_not_shared = st && !storage_shared_ok(st, lay->nodes);
    ts_copy_name(out->storage_class, sizeof out->storage_class, st ? st->name : "");
    return 0;
}

/* The links: the slowest network that keeps exposed communication under comm-share of the
 * step (or the one set, or the host's own); the rates each GPU and each server move at
 * within the step; the communication, rollout hand-over and offload the step waits for. */
static int size_network(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                        const ts_conv *conv, double compute_step, double pcie, trainsize_system *out,
                        ts_step_losses *losses, ts_findings *found, trainsize_error *err)
{
    double gpn = (double)lay->gpus_per_node;
    double nics = cfg->nics_per_node ? (double)cfg->nics_per_node : gpn;
    double trainable = cfg->lora_rank ? lay->lora_layer * (double)cfg->model.layers : (double)pc->total;
    double intra = scale_up_rate(cfg->gpu, pcie);
    const ts_comm_links fabric = fabric_links(cfg, lay, intra, pcie);
    ts_comm_terms terms; /* the step's collectives, timed below on each link tried */
    int beyond_fabric = (double)lay->gpus > fabric_span(cfg->gpu, lay); /* the network carries traffic */
    /* The host's own NICs (a TPU VM's data-centre network), unless a network is set. */
    const trainsize_link_info *sold = sold_with_host(cfg, lay) && !cfg->network && cfg->gpu->host_network &&
                                              cfg->gpu->host_network[0]
                                          ? trainsize_link_find(cfg->gpu->host_network)
                                          : NULL;
    const trainsize_link_info *link = NULL;
    ts_comm cm;    /* the step's communication on the links it runs on */
    int timed = 0; /* cm holds it already (choose_link timed the link it chose) */
    ts_comm_links k;
    int rc;

    if (sold && !cfg->nics_per_node && cfg->gpu->host_nics > 0) nics = (double)cfg->gpu->host_nics;
    ts_comm_terms_make(cfg, lay, pc, conv, compute_step, &terms);
    /* Within the scale-up domain nothing uses a network, set or not. */
    if (beyond_fabric && (cfg->network || sold)) {
        link = cfg->network ? cfg->network : sold;
    } else if (beyond_fabric) {
        link = choose_link(cfg, lay, pc, &terms, compute_step, &fabric, nics, &cm);
        timed = link != NULL;
        if (!link) {
            link = fastest_link(); /* none keeps it under the share: time it on the best there is */
            found->network_short = 1;
        }
    }
    found->slow_multinode = beyond_fabric && link && link->bandwidth <= TS_SLOW_NETWORK;
    k = links_with(cfg, &fabric, lay, link, nics);
    if (!timed) ts_comm_time(&terms, &k, &cm);
    if (beyond_fabric && (cfg->network || sold) &&
        cm.exposed - ideal_exposed(&terms, &k) > cfg->comm_share * compute_step)
        found->network_short = 1;
    /* The rates the links must keep to move a step's traffic within its compute: slower,
     * and communication cannot hide whatever the schedule. */
    if ((rc = to_u64(cm.intra_bytes_per_gpu / compute_step, &out->intra_node_rate_per_gpu,
                     "intra_node_rate_per_gpu", "model", err)) ||
        (rc = to_u64(lay->nodes > 1 ? cm.inter_bytes_per_gpu * gpn / compute_step : 0.0,
                     &out->interconnect_rate_per_node, "interconnect_rate_per_node", "model", err)))
        return rc;
    /* Bridged cards in a server wider than a bridge reach the others over PCIe. */
    found->gpu_link_short =
        (double)out->intra_node_rate_per_gpu >
        (fabric.bridge > 0.0 && (double)lay->gpus_per_node > fabric.bridge ? fmin(intra, fabric.pcie) : intra);
    ts_copy_name(out->network_link, sizeof out->network_link, link ? link->name : "");
    out->network_nics_per_node = link ? (uint64_t)nics : 0;
    losses->comm = cm.exposed;
    if (lay->rl) {
        ts_comm_links r = rollout_links(cfg, lay, &k, link ? link : sold, nics);
        losses->rollout_sync = ts_rollout_sync_seconds(cfg, lay, pc, &r);
        losses->rollout_network = ts_rollout_network_seconds(cfg, lay, pc, &r);
    }
    /* Without ZeRO-3 the gradient sync is once a step whatever the batch, so a batch too
     * small for the data-parallel degree is what to fix, and the user should hear it.
     * (ZeRO-3 gathers the weights for every micro-batch: its cure is a larger
     * micro-batch, not a larger global batch.) */
    found->small_batch = (lay->zero < 3 || conv->grad_sync_step) && cm.dp_seconds > compute_step;
    losses->offload = offload_seconds(cfg, lay, conv, trainable, compute_step, pcie);
    return 0;
}

int ts_system_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                   const ts_conv *conv, const trainsize_memory *mem, const ts_compute *cmp,
                   trainsize_system *out, ts_step_losses *losses, ts_findings *found,
                   trainsize_error *err)
{
    /* the host link, looked up once: the fabric, checkpoints and offload all use it */
    double pcie = pcie_rate(cfg->gpu);
    int rc;

    out->nodes = lay->nodes;
    out->gpus_per_node = lay->gpus_per_node;
    out->rollout_nodes = lay->rollout_nodes;
    if ((rc = size_host(cfg, lay, pc, conv, mem, out, found, err)) ||
        (rc = size_storage(cfg, lay, pc, conv, cmp, pcie, out, losses, found, err)) ||
        (rc = size_network(cfg, lay, pc, conv, cmp->step_seconds, pcie, out, losses, found, err)))
        return rc;
    return ts_ok(err);
}

/* Server sizing from the same job: host RAM, CPU cores, storage, inter-node bandwidth and
 * power. A first model, each rule named below; docs/methodology.md ("Servers") lists the
 * sources and what is left for the whole-server issue (link classes, checkpoint writes,
 * pipeline and tensor traffic across nodes, cost). */
#include <math.h>

#include "error.h"
#include "estimate.h"

#define GIB 1073741824.0
/* Operating system, drivers, page cache floor and the training processes' own heaps: an
 * assumption, not a measured figure. */
#define TS_HOST_RESERVE (32.0 * GIB)
/* Fewest server-grade cores a training node should have (the whole-server issue's
 * checklist: "fewer than 8 cores" is an unbalanced system). */
#define TS_MIN_CORES 8.0
/* Token ids on disk: uint32 per token (Megatron's indexed datasets use uint16 below 65,536
 * vocabulary entries and int32 above). */
#define TS_DATASET_BYTES_PER_TOKEN 4.0
/* Share of a step that data-parallel communication may take without being hidden. */
#define TS_COMM_SHARE 0.25
/* Rest of the server beyond the GPUs' TDP: DGX A100/H100/B200 maximum system power is
 * 2.03x/1.82x/1.79x the GPUs' TDP (hardware.md §4); 0.8 is the lower end. */
#define TS_SERVER_POWER_FACTOR 0.8

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

/* One checkpoint: weights as held plus the optimizer state (master copy included); for
 * LoRA the adapters and their state only. */
static double checkpoint_bytes(const trainsize_job *job, const ts_param_counts *pc, const ts_conv *c)
{
    double params = (double)pc->total;
    double state = c->adafactor ? c->state * ts_adafactor_elements(&job->model, pc) / params : c->state;
    double weight = c->weight - (job->precision == TS_PREC_FP8_MIXED ? 1.0 : 0.0); /* no fp8 cache */
    if (job->lora_rank) {
        double adapters = ts_lora_layer_params(job) * (double)job->model.layers;
        return adapters * (c->adapter_weight + c->adapter_state);
    }
    return params * (weight + c->master + state);
}

int ts_system_make(const trainsize_job *job, const ts_layout *lay, const ts_param_counts *pc,
                   const ts_conv *conv, const trainsize_memory *mem, const trainsize_time *tm,
                   trainsize_system *out, trainsize_error *err)
{
    double gpn = (double)lay->gpus_per_node, params = (double)pc->total;
    double node_gpu_memory = gpn * (double)lay->capacity;
    /* Every rank loads its own 16-bit copy of the model unless loading is sharded. */
    double needed = gpn * ((double)mem->host_offload + 2.0 * params) + TS_HOST_RESERVE;
    double ram = fmax(job->host_ram_factor * node_gpu_memory, needed);
    double tokens_per_s = (double)lay->global_batch * (double)job->seq / tm->step_seconds;
    double net = 0.0;
    int rc;
    if (lay->nodes > 1 && lay->dense_shard > 1) {
        /* Hierarchical all-reduce of the gradients, as NCCL runs it across nodes: inside
         * a node first, then between the k nodes of the data-parallel group, where each
         * node sends 2 (k - 1) / k of the gradients it holds (ZeRO paper §7 for the ring
         * volume). A node holds one replica's gradients, or its share when the model
         * (tp x pp) spans nodes. ZeRO-3 adds the parameter all-gather (3 instead of 2). */
        double model_parallel = (double)lay->tp * (double)lay->pp;
        double share = model_parallel > gpn ? gpn / model_parallel : 1.0;
        double k = (double)lay->nodes * share;
        double per_node;
        if (job->lora_rank) {
            /* Only the adapters have gradients; ZeRO-3 still gathers the frozen base. */
            double adapters = ts_lora_layer_params(job) * (double)job->model.layers;
            per_node = conv->adapter_grad * adapters * share * 2.0 * (k - 1.0) / k;
            if (job->zero >= 3) per_node += conv->frozen_layer * params * share * (k - 1.0) / k;
        } else {
            per_node = conv->grad * params * share * 2.0 * (k - 1.0) / k;
            if (job->zero >= 3) per_node *= 1.5;
        }
        if (k > 1.0) net = per_node / (TS_COMM_SHARE * tm->step_seconds);
    }
    out->nodes = lay->nodes;
    out->gpus_per_node = lay->gpus_per_node;
    if ((rc = to_u64(round_up_ram(ram), &out->host_ram_per_node, "host_ram_per_node", err))) return rc;
    out->cpu_cores_per_node = (uint64_t)fmax(TS_MIN_CORES, gpn * (double)job->cpu_cores_per_gpu);
    if ((rc = to_u64(net, &out->interconnect_rate_per_node, "interconnect_rate_per_node", err))) return rc;
    if ((rc = to_u64(tm->tokens * TS_DATASET_BYTES_PER_TOKEN +
                         (double)job->checkpoints_kept * checkpoint_bytes(job, pc, conv),
                     &out->storage_capacity, "storage_capacity", err)))
        return rc;
    if ((rc = to_u64(tokens_per_s * TS_DATASET_BYTES_PER_TOKEN, &out->storage_read_rate,
                     "storage_read_rate", err)))
        return rc;
    out->power_watts = (double)lay->gpus * job->gpu->tdp_watts * (1.0 + TS_SERVER_POWER_FACTOR);
    return ts_ok(err);
}

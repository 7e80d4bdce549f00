/* The checklist's words: each warning bit of trainsize_result.warnings with a stable name
 * (the JSON) and a sentence (the report). A table, below the stages and the report alike:
 * warnings.c sets the bits, report.c and the JSON writers say them. */
#include <stddef.h>

#include "warning_texts.h"

typedef struct warning_def {
    uint64_t bit;
    const char *name;
    const char *text;
} warning_def;

static const warning_def WARNINGS[] = {
    {TRAINSIZE_WARN_DOES_NOT_FIT, "does-not-fit", "the job does not fit the GPU's memory"},
    {TRAINSIZE_WARN_LOW_HEADROOM, "low-vram-headroom",
     "less GPU memory headroom than the headroom setting leaves for growth and fragmentation"},
    {TRAINSIZE_WARN_HOST_RAM, "host-ram-short",
     "the server's host RAM is below what the job needs (host_ram_need_per_node)"},
    {TRAINSIZE_WARN_CPU_CORES, "cpu-cores-short", "the server has fewer CPU cores than the job needs"},
    {TRAINSIZE_WARN_STORAGE, "storage-too-slow",
     "the storage cannot read as fast as the GPUs consume data, or write a checkpoint in time"},
    {TRAINSIZE_WARN_STORAGE_NOT_SHARED, "storage-not-shared",
     "several servers on a local drive: checkpoints need one namespace every server reads (a "
     "restart may land anywhere), so put them on shared storage and keep local NVMe as cache "
     "and scratch"},
    {TRAINSIZE_WARN_CALIBRATION_GPU, "calibration-other-gpu",
     "the site calibration applied was fitted on runs of other GPUs than this one: its shares "
     "may not hold here (calibrate with runs on this GPU)"},
    {TRAINSIZE_WARN_NETWORK, "network-too-slow",
     "the inter-node network is slower than the step needs within its communication share"},
    {TRAINSIZE_WARN_TP_WITHOUT_NVLINK, "tensor-parallel-without-nvlink",
     "tensor parallelism over PCIe (wider than an NVLink bridge's pair) or across servers: its "
     "per-layer collectives need NVLink-class links"},
    {TRAINSIZE_WARN_SLOW_MULTINODE, "multi-node-over-10gbe",
     "a multi-node job over 10 GbE or slower"},
    {TRAINSIZE_WARN_NO_ECC, "no-ecc-long-run",
     "a long run on GPUs without ECC memory (consumer cards): silent corruption goes unnoticed"},
    {TRAINSIZE_WARN_RACK_POWER, "beyond-air-cooling",
     "a rack needs liquid cooling: it draws more than the air-cooled rack budget (rack-power-watts), "
     "or the product is liquid-cooled (an NVL72 rack); plan the facility's cooling for it"},
    {TRAINSIZE_WARN_NO_PRICE, "no-price",
     "a price is missing for this GPU, so that cost is 0; set gpu-hour-usd / gpu-price-usd"},
    {TRAINSIZE_WARN_GPU_LINK, "gpu-link-too-slow",
     "the GPUs' own link (NVLink or PCIe) is slower than the step's GPU-to-GPU traffic needs"},
    {TRAINSIZE_WARN_HOST_RAM_RULE, "host-ram-below-rule",
     "the host RAM covers the job, but not host-ram-factor x the server's GPU memory (the rule)"},
    {TRAINSIZE_WARN_NO_POWER, "no-power-figure",
     "the vendor publishes no power for this accelerator (TPUs): power, energy and CO2 are 0; "
     "a gpu-file with tdp_watts sets one"},
    {TRAINSIZE_WARN_SMALL_BATCH, "small-batch",
     "the global batch is so small that the data-parallel gradient sync takes longer than the "
     "compute of a step: a larger global batch (gradient accumulation) amortises it"},
    {TRAINSIZE_WARN_NO_BF16, "no-bf16",
     "the GPU has no bfloat16: estimated as fp16 (same memory, its FP16 rate, loss scaling)"},
    {TRAINSIZE_WARN_NO_FLASH_ATTENTION, "no-flash-attention",
     "no FlashAttention-2 before Ampere: estimated with SDPA's memory-efficient kernel"},
};

#define WARNING_COUNT (sizeof WARNINGS / sizeof WARNINGS[0])

static const warning_def *find(uint64_t bit)
{
    size_t i;
    for (i = 0; i < WARNING_COUNT; i++)
        if (WARNINGS[i].bit == bit) return &WARNINGS[i];
    return NULL;
}

const char *ts_warning_name(uint64_t bit)
{
    const warning_def *w = find(bit);
    return w ? w->name : NULL;
}

const char *ts_warning_text(uint64_t bit)
{
    const warning_def *w = find(bit);
    return w ? w->text : NULL;
}

/* The public names are the same lookups. */
const char *trainsize_warning_name(uint64_t bit) { return ts_warning_name(bit); }
const char *trainsize_warning_text(uint64_t bit) { return ts_warning_text(bit); }


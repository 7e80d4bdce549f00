/* The checklist's stage: which conditions a buyer or a scheduler should hear about apply,
 * as bits of trainsize_result.warnings (their names and sentences: warning_texts.c). */
#include "calibration.h"
#include "catalog.h"
#include "stages.h"

/* Long runs: a day of GPU time per GPU (an assumption: the window in which an uncorrected
 * memory error becomes likely enough to matter on consumer cards). */
#define TS_LONG_RUN_HOURS 24.0

/* Every bit is set here, from the result and what the stages found. */
void ts_warnings_make(const ts_settings *cfg, const ts_layout *lay, const trainsize_result *r,
                      const ts_findings *found, uint64_t *warnings)
{
    const struct { int on; uint64_t bit; } facts[] = {
        {found->host_ram_short, TRAINSIZE_WARN_HOST_RAM},
        {found->host_ram_below_rule && !found->host_ram_short, TRAINSIZE_WARN_HOST_RAM_RULE},
        {found->cpu_cores_short, TRAINSIZE_WARN_CPU_CORES},
        {found->storage_short, TRAINSIZE_WARN_STORAGE},
        {found->network_short, TRAINSIZE_WARN_NETWORK},
        {found->slow_multinode, TRAINSIZE_WARN_SLOW_MULTINODE},
        {found->gpu_link_short, TRAINSIZE_WARN_GPU_LINK},
        {found->no_price, TRAINSIZE_WARN_NO_PRICE},
        {found->small_batch, TRAINSIZE_WARN_SMALL_BATCH},
        {found->storage_not_shared, TRAINSIZE_WARN_STORAGE_NOT_SHARED},
    };
    size_t i;
    for (i = 0; i < sizeof facts / sizeof facts[0]; i++)
        if (facts[i].on) *warnings |= facts[i].bit;
    const trainsize_memory *m = &r->memory;
    double headroom = (double)m->gpu_capacity - (double)m->peak_total;
    if (!m->fits) *warnings |= TRAINSIZE_WARN_DOES_NOT_FIT;
    else if (headroom < cfg->headroom * (double)m->gpu_capacity) *warnings |= TRAINSIZE_WARN_LOW_HEADROOM;
    /* Tensor parallelism needs a GPU-to-GPU fabric: inside one server, or the scale-up
     * domain that spans servers (an NVL72 rack, a TPU slice). */
    if (lay->tp > 1 && !ts_tp_on_fabric(cfg->gpu, lay->tp, lay->gpus_per_node, lay->gpus))
        *warnings |= TRAINSIZE_WARN_TP_WITHOUT_NVLINK;
    if (!cfg->gpu->ecc && r->time.seconds / 3600.0 > TS_LONG_RUN_HOURS)
        *warnings |= TRAINSIZE_WARN_NO_ECC;
    if (r->system.cooling[0] == 'l') *warnings |= TRAINSIZE_WARN_RACK_POWER; /* "liquid" */
    /* What the GPU cannot run: the estimate goes on with the nearest thing that runs. */
    if (cfg->gpu->no_bf16 &&
        (cfg->precision == TRAINSIZE_PRECISION_BF16 || cfg->precision == TRAINSIZE_PRECISION_BF16_MIXED))
        *warnings |= TRAINSIZE_WARN_NO_BF16;
    if (cfg->gpu->no_flash_attention && cfg->attention == TRAINSIZE_ATTENTION_FLASH)
        *warnings |= TRAINSIZE_WARN_NO_FLASH_ATTENTION;
    if (!(cfg->gpu->tdp_watts > 0.0)) *warnings |= TRAINSIZE_WARN_NO_POWER;
    if (!ts_calibration_covers(cfg->calibration_runs, cfg->calibration_gpus, cfg->gpu->name)) *warnings |= TRAINSIZE_WARN_CALIBRATION_GPU;
}

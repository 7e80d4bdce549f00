/* The facility a job's servers need: racks, the fullest rack's power and its cooling, each
 * server's power supplies, and the switches of its scale-out fabric.
 *
 * - Servers as NVIDIA ships them (8 GPUs): DGX A100 six 3 kW supplies, 3+3 redundant, 6U;
 *   DGX H100/H200 six 3.3 kW, 4+2, 8U; DGX B200 six 3.3 kW, 5+1, 10U (the DGX user guides,
 *   docs.nvidia.com/dgx). Another server: 3 kW supplies, as many as its maximum power
 *   needs and one more (N+1, the least that survives a supply failing), 8U with an
 *   NVLink-class board, else 4U: assumptions.
 * - An NVL72 rack is one product: 18 liquid-cooled compute trays, power shelves of six
 *   5.5 kW supplies, eight of them (NVIDIA's GB300 NVL72 reference architecture; the
 *   Supermicro GB200 NVL72 datasheet: 8 x 33 kW). It is judged, and bought, whole.
 * - Otherwise a rack takes as many servers as its power budget (rack-power-watts, the
 *   air-cooled budget) and 42 units allow, at least one; a rack above the budget (a server
 *   that alone draws more) is liquid-cooled.
 * - The fabric: a non-blocking folded Clos of 64-port switches (Quantum-2 QM9700 64 x 400G,
 *   Spectrum-4 SN5600 64 x 800G): T tiers carry 2 (k/2)^T ports, with 2N/k switches in each
 *   tier below the top and N/k at the top (Al-Fares et al., SIGCOMM 2008); it gives
 *   NVIDIA's DGX SuperPOD tables (32 servers of 8 NICs: 8 leaf and 4 spine switches). */
#include <math.h>
#include <string.h>

#include "catalog.h"
#include "stages.h"
#include "text_values.h"

#define TS_RACK_UNITS 42.0
#define TS_SWITCH_PORTS 64.0
#define TS_GENERIC_PSU_WATTS 3000.0

typedef struct server_design {
    const char *gpu;    /* catalogue name, 8 per server */
    double psu_watts;
    unsigned psus, spare, units;
} server_design;

static const server_design DGX[] = {
    {"a100-40gb", 3000.0, 6, 3, 6}, {"a100-80gb", 3000.0, 6, 3, 6},
    {"h100-80gb", 3300.0, 6, 2, 8}, {"h200", 3300.0, 6, 2, 8},
    {"b200", 3300.0, 6, 1, 10},
};

/* The NVL72 rack: its trays, its power shelves' supplies, and the rack's published power:
 * GB200 NVL72 132 kW (Supermicro's GB200 NVL72 datasheet: 125-135 kW operating; NVIDIA's DGX
 * GB200 user guide, about 120 kW), GB300 NVL72 up to 142 kW (NVIDIA's GB300 NVL72 reference
 * architecture). */
#define TS_NVL72_TRAYS 18u
#define TS_NVL72_PSUS 48u
#define TS_NVL72_PSU_WATTS 5500.0

static const struct { const char *gpu; double rack_watts, gpus; } RACK_POWER[] = {
    {"gb200", 132000.0, 72.0},
    {"gb300", 142000.0, 72.0},
};

double ts_rack_product_watts_per_gpu(const trainsize_gpu_info *gpu)
{
    size_t i;
    for (i = 0; i < sizeof RACK_POWER / sizeof RACK_POWER[0]; i++)
        if (gpu->name[0] == RACK_POWER[i].gpu[0] && strcmp(gpu->name, RACK_POWER[i].gpu) == 0)
            return RACK_POWER[i].rack_watts / RACK_POWER[i].gpus;
    return 0.0;
}

static const server_design *dgx_design(const trainsize_gpu_info *gpu, uint64_t gpus_per_node)
{
    size_t i;
    if (gpus_per_node != 8) return NULL;
    for (i = 0; i < sizeof DGX / sizeof DGX[0]; i++)
        if (DGX[i].gpu[0] == gpu->name[0] && strcmp(DGX[i].gpu, gpu->name) == 0) return &DGX[i];
    return NULL;
}

static int rack_scale(const trainsize_gpu_info *gpu)
{
    return gpu->scale_up_domain >= 72 && gpu->per_host > 0 && gpu->kind == TRAINSIZE_ACCELERATOR_GPU;
}

/* Decimal digits of v at buf (at most 20), returning the end; no printf on the estimate path. */
static char *put_u64(char *buf, uint64_t v)
{
    char digits[20];
    size_t n = 0;
    do { digits[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *buf++ = digits[--n];
    return buf;
}

/* "4+2": supplies that carry the load, then the redundant ones (the vendors' notation).
 * "" for counts of a million or more (no server has them; a caller's odd GPU might). */
static void redundancy_text(char *buf, uint64_t needed, uint64_t spare)
{
    char *end = buf;
    if (needed && needed < 1000000 && spare < 1000000) { /* 6 + 1 + 6 digits fit 16 bytes */
        end = put_u64(end, needed);
        *end++ = '+';
        end = put_u64(end, spare);
    }
    *end = '\0';
}

/* Switches of the fat tree for `ports` NICs, and its tiers. */
static void fabric(double ports, uint64_t *switches, uint64_t *tiers)
{
    double k = TS_SWITCH_PORTS, reach = 2.0 * (k / 2.0) * (k / 2.0); /* two tiers: k^2 / 2 ports */
    unsigned t = 2;
    *switches = *tiers = 0;
    if (ports <= 0.0) return;
    if (ports <= k) { *switches = *tiers = 1; return; }
    while (ports > reach && t < 8) { /* eight tiers reach 2 x 32^8 ports, beyond any job */
        reach *= k / 2.0;
        t++;
    }
    *tiers = t;
    *switches = (uint64_t)((double)(t - 1) * ceil(2.0 * ports / k) + ceil(ports / k));
}

uint64_t ts_facility_servers(const ts_settings *cfg, const ts_layout *lay)
{
    uint64_t servers = lay->nodes + lay->rollout_nodes + lay->critic_nodes + lay->reward_nodes + cfg->spare_nodes,
             per_rack;
    if (!rack_scale(cfg->gpu)) return servers;
    per_rack = TS_NVL72_TRAYS * 4u / (uint64_t)cfg->gpu->per_host; /* sold as whole racks */
    return (servers + per_rack - 1) / per_rack * per_rack;
}

void ts_facility_make(const ts_settings *cfg, const ts_layout *lay, trainsize_system *sys)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    const server_design *dgx = dgx_design(gpu, lay->gpus_per_node);
    uint64_t servers = ts_facility_servers(cfg, lay), per_rack, needed = 0, psus = 0;
    double server_w = sys->power_per_node_watts, psu_w = TS_GENERIC_PSU_WATTS;
    int liquid = 0;
    if (rack_scale(gpu)) {
        per_rack = TS_NVL72_TRAYS * 4u / (uint64_t)gpu->per_host;
        liquid = 1;
    } else {
        double units = dgx ? (double)dgx->units : gpu->scale_up_bandwidth && !ts_bridge_span(gpu, lay->gpus_per_node) ? 8.0 : 4.0;
        double by_power = server_w > 0.0 ? floor(cfg->rack_power_watts / server_w) : TS_RACK_UNITS;
        per_rack = cfg->servers_per_rack ? cfg->servers_per_rack
                                         : (uint64_t)fmax(1.0, fmin(by_power, floor(TS_RACK_UNITS / units)));
    }
    sys->servers_per_rack = per_rack;
    sys->racks = (servers + per_rack - 1) / per_rack;
    /* The fullest rack: a whole NVL72, else as many servers as a rack holds of the job's. */
    sys->rack_power_watts = (double)(rack_scale(gpu) ? per_rack : (servers < per_rack ? servers : per_rack)) * server_w;
    liquid = liquid || sys->rack_power_watts > cfg->rack_power_watts;
    /* no power figure (TPUs): no cooling verdict either */
    ts_copy_name(sys->cooling, sizeof sys->cooling, server_w > 0.0 ? (liquid ? "liquid" : "air") : "");
    /* Power supplies: per server, or per rack for an NVL72's power shelves. */
    if (server_w > 0.0) {
        if (rack_scale(gpu)) {
            psu_w = TS_NVL72_PSU_WATTS;
            psus = TS_NVL72_PSUS;
            needed = (uint64_t)ceil(sys->rack_power_watts / psu_w);
        } else if (dgx) {
            psu_w = dgx->psu_watts;
            psus = dgx->psus;
            needed = dgx->psus - dgx->spare;
        } else {
            needed = (uint64_t)ceil(server_w / psu_w);
            psus = needed + 1;
        }
    }
    sys->psus_per_server = psus;
    sys->psus_needed = needed;
    sys->psu_watts = psus ? psu_w : 0.0;
    redundancy_text(sys->psu_redundancy, needed, psus > needed ? psus - needed : 0);
    /* The scale-out fabric: every server's NICs, spares included. */
    if (sys->network_link[0])
        fabric((double)servers * (double)sys->network_nics_per_node, &sys->switches, &sys->switch_tiers);
    else
        sys->switches = sys->switch_tiers = 0;
}

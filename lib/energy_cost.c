/* Power, heat, energy, CO2 and cost of a job.
 *
 * Power: the GPUs' TDP plus the rest of each server, as a share of the GPUs' TDP
 * (`server-power-factor`; DGX A100/H100/B200 maximum system power, 6.5/10.2/14.3 kW in the
 * NVIDIA DGX A100 (DU-09821-001), DGX H100/H200 and DGX B200 user guides, is 2.03/1.82/1.79 x
 * the GPUs' TDP, derived). Heat: 1 W = 3.41214 BTU/h (the International Table BTU, a unit
 * conversion). Energy: GPU-hours x power per GPU x PUE, the LLaMA paper's convention
 * (Touvron et al. 2023, arXiv 2302.13971, Table 15: 400 W, PUE 1.1); CO2: energy x grid
 * intensity (0.385 kg/kWh there). Cost: rented GPU-hours at a price per GPU-hour, against
 * owning: the purchase of the GPUs, the rest of their servers (spare nodes included), the
 * network and shared storage, paid off over the hours the cluster is busy in its life
 * (utilization), plus a yearly support share of the purchase, the facility's rent per kW
 * (colo-usd-per-kw-month; CBRE, North America Data Center Trends H2 2024: $184.06 per kW
 * a month for 250-500 kW, power billed apart) and the power. Break-even: the purchase over
 * what renting the same busy hours costs a month more than running the owned cluster. */
#include "error.h"
#include "stages.h"
#include "text_values.h"

#define TS_BTU_PER_WATT_HOUR 3.41214
#define TS_HOURS_PER_YEAR (365.25 * 24.0)

double ts_energy_kwh(double gpu_hours, double watts_per_gpu, double pue)
{
    return gpu_hours * watts_per_gpu * pue / 1000.0;
}

/* The GPU's prices: a gpu-prices entry naming it, else gpu-hour-usd / gpu-price-usd, else
 * the catalogue's. */
static TS_INLINE_ALWAYS void gpu_prices(const ts_settings *cfg, const trainsize_gpu_info *gpu, double *hourly,
                                        double *price)
{
    size_t i;
    *hourly = cfg->gpu_hour_usd > 0 ? cfg->gpu_hour_usd : gpu->cloud_usd_per_hour;
    *price = cfg->gpu_price_usd > 0 ? cfg->gpu_price_usd : gpu->purchase_usd;
    for (i = 0; i < cfg->gpu_price_count; i++)
        if (ts_name_equal(cfg->gpu_prices[i].name, gpu->name)) {
            if (cfg->gpu_prices[i].hourly > 0) *hourly = cfg->gpu_prices[i].hourly;
            if (cfg->gpu_prices[i].purchase > 0) *price = cfg->gpu_prices[i].purchase;
        }
}

void ts_gpu_prices(const ts_settings *cfg, const trainsize_gpu_info *gpu, double *hourly, double *price)
{
    gpu_prices(cfg, gpu, hourly, price);
}

/* The purchase (servers with spares, the fabric, shared storage), the run's owned cost and
 * the months after which owning pays off against renting the same GPU-hours. */
static void ownership(const ts_settings *cfg, const ts_layout *lay, double price, double hourly,
                      double run_hours, trainsize_system *sys)
{
    double servers = (double)ts_facility_servers(cfg, lay), gpn = (double)lay->gpus_per_node;
    double bought = servers * gpn, busy_year = TS_HOURS_PER_YEAR * cfg->utilization;
    double it_kw = servers * sys->power_per_node_watts / 1000.0; /* the facility provisions every server */
    double run_share = run_hours / busy_year, support_month, power_month;
    sys->capex_servers_usd = bought * price * (1.0 + cfg->server_share);
    sys->capex_network_usd = sys->network_link[0] ? bought * cfg->network_usd_per_gpu : 0.0;
    /* capex_storage_usd: the shared file system, priced where it was chosen (system.c) */
    sys->capex_usd = sys->capex_servers_usd + sys->capex_network_usd + sys->capex_storage_usd;
    /* The run's share of the hardware's busy life and of a year's support, facility, power. */
    sys->cost_own_hardware_usd = sys->capex_usd * (run_share / cfg->amortization_years + cfg->support_share * run_share);
    sys->cost_own_facility_usd = it_kw * cfg->colo_usd_per_kw_month * 12.0 * run_share;
    sys->cost_own_power_usd = sys->energy_kwh * cfg->power_usd_per_kwh;
    sys->cost_own_usd = sys->cost_own_hardware_usd + sys->cost_own_facility_usd + sys->cost_own_power_usd;
    /* A month: the busy hours rented (cloud_usd_per_month), against the owned cluster's
     * running costs. */
    support_month = cfg->support_share * sys->capex_usd / 12.0;
    power_month = sys->power_watts / 1000.0 * busy_year / 12.0 * cfg->pue * cfg->power_usd_per_kwh;
    sys->own_usd_per_month = it_kw * cfg->colo_usd_per_kw_month + power_month + support_month;
    sys->breakeven_months = hourly > 0 && sys->cloud_usd_per_month > sys->own_usd_per_month
                                ? sys->capex_usd / (sys->cloud_usd_per_month - sys->own_usd_per_month)
                                : 0.0;
}

/* Products sold as a whole rack publish the rack's power (facility.c): it is used as is,
 * per GPU, in place of TDP x (1 + server-power-factor). */
static TS_INLINE_ALWAYS double system_watts_per_gpu(const ts_settings *cfg)
{
    const trainsize_gpu_info *gpu = cfg->gpu;
    double tdp = gpu->tdp_watts;
    /* a power cap lowers what the GPU draws, not the rest of the server */
    double cap = cfg->gpu_power_limit > 0.0 && cfg->gpu_power_limit < tdp ? tdp - cfg->gpu_power_limit : 0.0;
    double rack = ts_rack_product_watts_per_gpu(gpu);
    return rack > 0.0 ? rack - cap : tdp - cap + tdp * cfg->server_power_factor;
}

void ts_power_cost(const ts_settings *cfg, const ts_layout *lay, const trainsize_time *tm,
                   trainsize_system *sys, ts_findings *found)
{
    double gpu_watts = system_watts_per_gpu(cfg);
    double gpus = (double)lay->billed_gpus, hours = tm->gpu_hours; /* the engines' GPUs too */
    double hourly, price;
    gpu_prices(cfg, cfg->gpu, &hourly, &price);
    sys->power_watts = gpus * gpu_watts;
    sys->power_per_node_watts = (double)lay->gpus_per_node * gpu_watts;
    sys->heat_btu_per_hour = sys->power_watts * TS_BTU_PER_WATT_HOUR;
    sys->energy_kwh = ts_energy_kwh(hours, gpu_watts, cfg->pue);
    sys->co2_kg = sys->energy_kwh * cfg->carbon_intensity;
    sys->cost_cloud_usd = hourly * hours;
    /* renting the busy hours of a month: also for what is only rented (TPUs) */
    sys->cloud_usd_per_month = gpus * hourly * TS_HOURS_PER_YEAR * cfg->utilization / 12.0;
    if (price > 0) ownership(cfg, lay, price, hourly, hours / gpus, sys);
    else sys->capex_storage_usd = 0.0; /* no purchase priced without the GPUs' */
    found->no_price = !(hourly > 0) || !(price > 0);
}

/* Floors under a run's costs for `wall` seconds on at least `gpus` GPUs, for the planner's
 * bounds: renting, the price of those GPU-hours (cost_cloud_usd bills every GPU of the job
 * for the wall time); owning, the share of those GPUs' purchase with their servers
 * (ownership(): every server a job takes holds at least its GPUs) and the power they draw,
 * leaving out the network, storage and facility, which only add. 0 where the GPU has no
 * such price, as the estimate's costs are. */
void ts_cost_floors(const ts_settings *cfg, uint64_t gpus, double wall, double *cloud, double *own)
{
    double hourly, price, hours = wall / 3600.0, n = (double)gpus;
    double busy_year = TS_HOURS_PER_YEAR * cfg->utilization;
    gpu_prices(cfg, cfg->gpu, &hourly, &price);
    *cloud = hourly > 0 ? hourly * (wall * n / 3600.0) : 0.0; /* as ts_power_cost rounds it */
    *own = price > 0 ? n * price * (1.0 + cfg->server_share) * (hours / busy_year) *
                               (1.0 / cfg->amortization_years + cfg->support_share) +
                           ts_energy_kwh(hours * n, system_watts_per_gpu(cfg), cfg->pue) * cfg->power_usd_per_kwh
                     : 0.0;
}

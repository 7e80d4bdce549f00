/* Power, heat, energy, CO2 and cost of a job.
 *
 * Power: the GPUs' TDP plus the rest of each server, as a share of the GPUs' TDP
 * (`server-power-factor`; DGX A100/H100/B200 maximum system power, 6.5/10.2/14.3 kW in the
 * NVIDIA DGX A100 (DU-09821-001), DGX H100/H200 and DGX B200 user guides, is 2.03/1.82/1.79 x
 * the GPUs' TDP, derived). Heat: 1 W = 3.41214 BTU/h (the International Table BTU, a unit
 * conversion). Energy: GPU-hours x power per GPU x PUE, the LLaMA paper's convention
 * (Touvron et al. 2023, arXiv 2302.13971, Table 15: 400 W, PUE 1.1); CO2: energy x grid
 * intensity (0.385 kg/kWh there). Cost: rented GPU-hours at a price per GPU-hour, against
 * owning: the purchase of the GPUs, the rest of their servers and the network, amortised
 * over their life for the run's share of it, plus power at the facility and a yearly
 * support share of the purchase. */
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
void ts_gpu_prices(const ts_settings *cfg, const trainsize_gpu_info *gpu, double *hourly, double *price)
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

void ts_power_cost(const ts_settings *cfg, const ts_layout *lay, const trainsize_time *tm,
                   trainsize_system *sys, ts_findings *found)
{
    /* a power cap lowers what the GPU draws, not the rest of the server */
    double tdp = cfg->gpu->tdp_watts;
    double gpu_watts = (cfg->gpu_power_limit > 0.0 && cfg->gpu_power_limit < tdp ? cfg->gpu_power_limit : tdp) +
                       tdp * cfg->server_power_factor;
    double gpus = (double)lay->gpus, hours = tm->gpu_hours;
    double hourly, price, run_hours = hours / gpus;
    ts_gpu_prices(cfg, cfg->gpu, &hourly, &price);
    sys->power_watts = gpus * gpu_watts;
    sys->power_per_node_watts = (double)lay->gpus_per_node * gpu_watts;
    sys->heat_btu_per_hour = sys->power_watts * TS_BTU_PER_WATT_HOUR;
    sys->energy_kwh = ts_energy_kwh(hours, gpu_watts, cfg->pue);
    sys->co2_kg = sys->energy_kwh * cfg->carbon_intensity;
    sys->cost_cloud_usd = hourly * hours;
    if (price > 0) {
        /* The run's share of the hardware's life (the GPUs, the rest of their servers, and
         * the network when the job uses one: none within an NVL72 rack or a TPU slice),
         * support for the run's share of a year, and the power. */
        double life = run_hours / (cfg->amortization_years * TS_HOURS_PER_YEAR);
        double support = cfg->support_share * run_hours / TS_HOURS_PER_YEAR;
        double hardware = gpus * price * (1.0 + cfg->server_share) +
                          (sys->network_link[0] ? gpus * cfg->network_usd_per_gpu : 0.0);
        sys->cost_own_hardware_usd = hardware * (life + support);
        sys->cost_own_power_usd = sys->energy_kwh * cfg->power_usd_per_kwh;
        sys->cost_own_usd = sys->cost_own_hardware_usd + sys->cost_own_power_usd;
    }
    found->no_price = !(hourly > 0) || !(price > 0);
}

/* The report's facility, buy-or-rent and goodput lines, and the largest batch that fits:
 * what a buyer reads after the memory and the servers. A client of the public API, as
 * report.c is. */
#include <stdio.h>
#include <string.h>

#include "report_sections.h"
#include "text_format.h"

void ts_report_largest_fit(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    uint64_t mb = r->memory.max_micro_batch, seq = r->memory.max_seq;
    char a[TS_FMT_MAX], b[TS_FMT_MAX];
    if (!ts_report_job_is(job, "largest-fit", "true") && trainsize_largest_fit(job, &mb, &seq, NULL) != TRAINSIZE_OK)
        return;
    ts_out_puts(o, "  largest that fits: ");
    if (!ts_report_job_is(job, "max-tokens-per-gpu", "0")) ts_out_puts(o, "micro-batch not used (max-tokens-per-gpu)");
    else if (mb) ts_out_printf(o, "micro-batch %s", ts_fmt_thousands(a, sizeof a, mb));
    else ts_out_puts(o, "no micro-batch");
    if (seq) ts_out_printf(o, ", sequence %s", ts_fmt_thousands(b, sizeof b, seq));
    else ts_out_puts(o, ", no sequence");
    ts_out_puts(o, " (each with the rest as given)\n");
}

void ts_report_facility(ts_out *o, const trainsize_result *r, const char *server)
{
    const trainsize_system *s = &r->system;
    const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
    int nvl = g && g->scale_up_domain >= 72 && g->per_host > 0 && g->kind == TRAINSIZE_ACCELERATOR_GPU;
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX], t[3 * TS_FMT_MAX + 96];
    ts_out_puts(o, "Facility\n");
    ts_report_key(o, "  racks");
    if (s->rack_power_watts > 0.0)
        snprintf(c, sizeof c, "the fullest draws %s: %s cooling", ts_fmt_si(a, sizeof a, s->rack_power_watts, "W"),
                 s->cooling);
    else
        snprintf(c, sizeof c, "power and cooling unknown");
    snprintf(t, sizeof t, "%s rack%s, up to %s %s%s a rack%s; %s%s",
             ts_fmt_thousands(a, sizeof a, s->racks), s->racks == 1 ? "" : "s",
             ts_fmt_thousands(b, sizeof b, s->servers_per_rack), nvl ? "tray" : server,
             s->servers_per_rack == 1 ? "" : "s", nvl ? " (an NVL72 is sold as a rack)" : "", c,
             nvl ? " (an NVL72 rack is liquid-cooled)"
                 : strcmp(s->cooling, "liquid") == 0 ? " (above the air-cooled budget, rack-power-watts)" : "");
    ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
    ts_out_putc(o, '\n');
    ts_report_key(o, "  power supplies");
    if (s->psus_per_server) {
        snprintf(t, sizeof t, "%llu x %s %s, %s redundant (%llu carr%s the maximum load)",
                 (unsigned long long)s->psus_per_server, ts_fmt_si(a, sizeof a, s->psu_watts, "W"),
                 nvl ? "in the rack's power shelves" : "per server", s->psu_redundancy,
                 (unsigned long long)s->psus_needed, s->psus_needed == 1 ? "ies" : "y");
        ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
        ts_out_putc(o, '\n');
    } else {
        ts_out_puts(o, "unknown: the accelerator's power is not published\n");
    }
    ts_report_key(o, "  fabric");
    if (s->switches) {
        snprintf(t, sizeof t, "%s switch%s of 64 ports in %llu tier%s (a non-blocking fat tree for "
                 "%s NICs per %s, spares included)",
                 ts_fmt_thousands(a, sizeof a, s->switches), s->switches == 1 ? "" : "es",
                 (unsigned long long)s->switch_tiers, s->switch_tiers == 1 ? "" : "s",
                 ts_fmt_thousands(b, sizeof b, s->network_nics_per_node), server);
        ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
        ts_out_putc(o, '\n');
    } else {
        ts_out_puts(o, "no scale-out switches (no traffic leaves the scale-up domain)\n");
    }
    ts_out_putc(o, '\n');
}

void ts_report_buy_or_rent(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    const trainsize_system *s = &r->system;
    const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX], d[TS_FMT_MAX], e[TS_FMT_MAX], f[TS_FMT_MAX];
    char t[6 * TS_FMT_MAX + 192], given[64];
    double use = ts_report_job_f64(job, "utilization"), life = ts_report_job_f64(job, "amortization-years");
    double hours = r->time.gpu_hours;
    int own_price = ts_report_job_f64(job, "gpu-hour-usd") > 0.0 ||
                    (trainsize_job_get(job, "gpu-prices", given, sizeof given, NULL) > 0);
    if (!(s->cost_cloud_usd > 0.0)) return; /* the cost line said what is missing */
    ts_out_puts(o, "Buy or rent\n");
    ts_report_key(o, "  cloud");
    snprintf(t, sizeof t, "nothing up front; %s a month for the busy hours (%.0f %% of the year); "
             "this run %s, at %s a %s-hour (%s)", ts_fmt_usd(a, sizeof a, s->cloud_usd_per_month), 100.0 * use,
             ts_fmt_usd(b, sizeof b, s->cost_cloud_usd), ts_fmt_usd(c, sizeof c, hours > 0.0 ? s->cost_cloud_usd / hours : 0.0),
             g && g->kind == TRAINSIZE_ACCELERATOR_TPU ? "chip" : "GPU",
             own_price ? "as given" : g && g->price_date && g->price_date[0] ? "the catalogue's on-demand list price; "
                                                                               "a reserved cluster rents for less"
                                                                             : "the catalogue's");
    ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
    ts_out_putc(o, '\n');
    ts_report_key(o, "  owned");
    if (!(s->capex_usd > 0.0)) {
        ts_out_wrapped(o, "no purchase price (rented only, or --gpu-price-usd, --gpu-prices)", TS_REPORT_KEY_WIDTH);
        ts_out_puts(o, "\n\n");
        return;
    }
    snprintf(t, sizeof t, "%s up front (servers %s, network %s, shared storage %s); %s a month "
             "(facility, power, support); this run %s",
             ts_fmt_usd(a, sizeof a, s->capex_usd), ts_fmt_usd(b, sizeof b, s->capex_servers_usd),
             ts_fmt_usd(c, sizeof c, s->capex_network_usd), ts_fmt_usd(d, sizeof d, s->capex_storage_usd),
             ts_fmt_usd(e, sizeof e, s->own_usd_per_month), ts_fmt_usd(f, sizeof f, s->cost_own_usd));
    ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
    ts_out_putc(o, '\n');
    ts_report_key(o, "  break-even");
    if (s->breakeven_months > 0.0)
        snprintf(t, sizeof t, "owning pays off after %.1f months%s", s->breakeven_months,
                 s->breakeven_months > 12.0 * life ? ", beyond the hardware's life (amortization-years)"
                                                   : ", within the hardware's life");
    else
        snprintf(t, sizeof t, "never: renting costs less a month than running owned servers");
    ts_out_wrapped(o, t, TS_REPORT_KEY_WIDTH);
    ts_out_puts(o, "\n\n");
}

void ts_report_goodput(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev)
{
    const trainsize_time *t = &r->time;
    char a[TS_FMT_MAX], b[TS_FMT_MAX], text[4 * TS_FMT_MAX + 160];
    double rate = ts_report_job_f64(job, "interruptions-per-gpu-day");
    ts_report_key(o, "  failures");
    if (rate > 0.0 && t->checkpoint_interval > 0.0)
        snprintf(text, sizeof text, "%.*f interruptions expected (%.3g per %s-day); a checkpoint every "
                 "%s, stalling %s%s", t->expected_interruptions >= 100.0 ? 0 : 2, t->expected_interruptions,
                 rate, dev, ts_fmt_duration(a, sizeof a, t->checkpoint_interval),
                 ts_fmt_duration(b, sizeof b, t->checkpoint_stall),
                 ts_report_job_is(job, "checkpoint-async", "true") ? " (async: the copy to host memory)" : "");
    else if (rate > 0.0)
        snprintf(text, sizeof text, "%.*f interruptions expected (%.3g per %s-day); no checkpoint inside a "
                 "run shorter than the optimum interval", t->expected_interruptions >= 100.0 ? 0 : 2,
                 t->expected_interruptions, rate, dev);
    else
        snprintf(text, sizeof text, "none (interruptions-per-gpu-day 0)");
    ts_out_wrapped(o, text, TS_REPORT_KEY_WIDTH);
    ts_out_putc(o, '\n');
    ts_report_key(o, "  wall time");
    if (t->wall_seconds >= 1e12)
        snprintf(text, sizeof text, "%.3e hours = %.3e days", t->wall_seconds / 3600.0, t->wall_seconds / 86400.0);
    else if (t->wall_seconds >= 3600.0)
        snprintf(text, sizeof text, "%.1f hours = %.2f days", t->wall_seconds / 3600.0, t->wall_seconds / 86400.0);
    else
        ts_fmt_duration(text, sizeof text, t->wall_seconds);
    ts_out_printf(o, "%s; goodput %.1f %%", text, 100.0 * t->goodput);
    if (!ts_report_job_is(job, "tokens", "0") || ts_report_job_f64(job, "epochs") > 0.0)
        ts_out_printf(o, "; %s %s-hours", ts_fmt_thousands_d(a, sizeof a, t->gpu_hours), dev);
    ts_out_putc(o, '\n');
}

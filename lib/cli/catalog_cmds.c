/* The `models` and `gpus` commands: the library's built-in catalogues as tables, or with
 * --json as a JSON array of objects. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Options of the listing commands: --json and --help. Returns an exit status, or -1 to go
 * on with the listing. */
static int listing_options(const ts_cli *cx, int argc, char *const *argv, const char *command,
                           enum ts_cli_help_topic topic, int *json)
{
    int i;

    *json = 0;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return ts_cli_print_help(cx, topic);
    }
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *json = 1;
        } else if (argv[i][0] == '-') {
            ts_cli_error(cx, "unknown option '%.64s' for %s (see trainsize %s --help)", argv[i],
                      command, command);
            return TS_CLI_EXIT_USAGE;
        } else {
            ts_cli_error(cx, "unexpected argument '%.64s' (trainsize %s takes no arguments)", argv[i],
                      command);
            return TS_CLI_EXIT_USAGE;
        }
    }
    return -1;
}

static size_t max_len(size_t now, const char *s, size_t limit)
{
    size_t n = s ? strlen(s) : 0;

    if (n > limit)
        n = limit;
    return n > now ? n : now;
}

static void cell(ts_out *o, const char *s, size_t width)
{
    size_t start = ts_out_column(o);

    ts_out_clipped(o, s ? s : "", width);
    ts_out_pad_to(o, start + width + 2, 2);
}

/* ---- models ---- */

static void models_table(ts_out *o)
{
    size_t i, n = trainsize_model_count();
    size_t wname = 4, wfam = 6, used;
    char a[TS_FMT_MAX], b[TS_FMT_MAX];

    for (i = 0; i < n; i++) {
        const trainsize_model_info *m = trainsize_model_at(i);
        if (m) {
            wname = max_len(wname, m->name, 32);
            wfam = max_len(wfam, m->family, 12);
        }
    }
    used = wname + 2 + wfam + 2 + 10 + 2 + 10 + 2;
    cell(o, "name", wname);
    cell(o, "family", wfam);
    ts_out_printf(o, "%10s  %10s  source\n", "parameters", "active");
    for (i = 0; i < n; i++) {
        const trainsize_model_info *m = trainsize_model_at(i);
        if (!m)
            continue;
        cell(o, m->name, wname);
        cell(o, m->family, wfam);
        ts_out_printf(o, "%10s  %10s  ", ts_fmt_count(a, sizeof a, m->parameters),
                       ts_fmt_count(b, sizeof b, m->active_parameters));
        ts_out_clipped(o, m->source, TS_CLI_COLUMNS - used);
        ts_out_putc(o, '\n');
    }
}

/* `models` and `gpus`: the options, then the table or the library's JSON. */
static int listing(const ts_cli *cx, int argc, char *const *argv, const char *command, enum ts_cli_help_topic help, void (*table)(ts_out *),
                   int gpus)
{
    ts_out out;
    int json, status = listing_options(cx, argc, argv, command, help, &json);
    if (status >= 0) return status;
    ts_out_init(&out);
    if (!json) table(&out);
    return ts_cli_out_finish(cx, &out, json ? ts_cli_catalogue_json(cx, &out, gpus) : 0);
}

int ts_cli_cmd_models(const ts_cli *cx, int argc, char *const *argv)
{
    return listing(cx, argc, argv, "models", TS_CLI_HELP_MODELS, models_table, 0);
}

/* ---- gpus ---- */

/* The FP16 rate as the library's GPU field table gives it (the BF16 one where the same). */
static double fp16_rate(const trainsize_gpu_info *g)
{
    trainsize_field_value v;
    size_t at = ts_cli_field_index(trainsize_gpu_field_count, trainsize_gpu_field_at, "flops_fp16");
    return trainsize_gpu_field_get(g, at, &v) == TRAINSIZE_OK ? v.f64 : 0.0;
}

/* A TFLOP/s column: "-" for a datatype the part does not take. */
static void tflops_cell(ts_out *o, double flops, int width)
{
    if (flops > 0)
        ts_out_printf(o, "%*.0f  ", width, flops / 1e12);
    else
        ts_out_printf(o, "%*s  ", width, "-");
}

/* The scale-up domain: how many accelerators one fabric joins. */
static const char *domain_text(const trainsize_gpu_info *g, char *buf, size_t cap)
{
    if (g->scale_up_domain)
        snprintf(buf, cap, "%llu", (unsigned long long)g->scale_up_domain);
    else
        snprintf(buf, cap, "%s", g->scale_up_bandwidth ? "server" : "-");
    return buf;
}

/* A vendor's heading before its first row (the catalogue keeps each vendor's rows together). */
static void vendor_heading(ts_out *o, const trainsize_gpu_info *g, const char **vendor)
{
    const char *v = g->vendor && g->vendor[0] ? g->vendor : "other";

    if (*vendor && strcmp(*vendor, v) == 0)
        return;
    ts_out_printf(o, "%s%s\n", *vendor ? "\n" : "", v);
    *vendor = v;
}

/* Speeds and fabrics: what sizes a job. */
static void gpus_speeds(ts_out *o, size_t wname)
{
    size_t i, n = trainsize_gpu_count();
    const char *vendor = NULL;
    char b[TS_FMT_MAX], c[TS_FMT_MAX], d[24];

    cell(o, "name", wname);
    ts_out_printf(o, "%7s  %9s  %5s  %5s  %5s  %6s  %4s  %9s  %6s\n", "memory", "bandwidth", "BF16", "FP16",
                   "FP8", "FP4", "W", "link", "domain");
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (!g)
            continue;
        vendor_heading(o, g, &vendor);
        cell(o, g->name, wname);
        ts_out_printf(o, "%3.0f GiB  ", (double)g->memory_bytes / 1073741824.0);
        ts_out_printf(o, "%9s  ", ts_fmt_si(b, sizeof b, (double)g->memory_bandwidth, "B/s"));
        tflops_cell(o, g->flops_bf16, 5);
        tflops_cell(o, fp16_rate(g), 5);
        tflops_cell(o, g->flops_fp8, 5);
        tflops_cell(o, g->flops_fp4, 6);
        if (g->tdp_watts > 0)
            ts_out_printf(o, "%4.0f  ", g->tdp_watts);
        else
            ts_out_printf(o, "%4s  ", "-");
        ts_out_printf(o, "%9s  %6s\n",
                       g->scale_up_bandwidth ? ts_fmt_si(c, sizeof c, (double)g->scale_up_bandwidth, "B/s")
                                             : "PCIe",
                       domain_text(g, d, sizeof d));
    }
}

/* What the runtime leaves, the host as sold and the prices with their dates. */
static void gpus_hosts_prices(ts_out *o, size_t wname)
{
    size_t i, n = trainsize_gpu_count();
    const char *vendor = NULL;
    char host[96];

    cell(o, "name", wname);
    ts_out_printf(o, "%9s  %-42s  %6s  %7s  %s\n", "usable", "host as sold", "$/h", "buy $", "prices");
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (!g)
            continue;
        vendor_heading(o, g, &vendor);
        cell(o, g->name, wname);
        if (g->usable_bytes)
            ts_out_printf(o, "%5.1f GiB  ", (double)g->usable_bytes / 1073741824.0);
        else
            ts_out_printf(o, "%9s  ", "-");
        if (g->host_ram_bytes) {
            /* Cloud VMs count vCPUs (hyperthreads), Grace trays physical cores. */
            int len = snprintf(host, sizeof host, "%d per host, %.0f GiB, %d %s", g->per_host,
                               (double)g->host_ram_bytes / 1073741824.0, g->host_cores,
                               g->kind == TRAINSIZE_ACCELERATOR_TPU ? "vCPUs" : "cores");
            if (g->host_network && g->host_network[0] && len > 0 && (size_t)len < sizeof host)
                snprintf(host + len, sizeof host - (size_t)len, ", %d x %s", g->host_nics, g->host_network);
        } else if (g->per_host)
            snprintf(host, sizeof host, "%d per host", g->per_host);
        else
            snprintf(host, sizeof host, "-");
        ts_out_printf(o, "%-42s  ", host);
        if (g->cloud_usd_per_hour > 0)
            ts_out_printf(o, "%6.2f  ", g->cloud_usd_per_hour);
        else
            ts_out_printf(o, "%6s  ", "-");
        if (g->purchase_usd > 0)
            ts_out_printf(o, "%7.0f  ", g->purchase_usd);
        else
            ts_out_printf(o, "%7s  ", "-");
        ts_out_printf(o, "%s\n", g->price_date && g->price_date[0] ? g->price_date : "-");
    }
}

static void gpus_table(ts_out *o)
{
    size_t i, n = trainsize_gpu_count();
    size_t wname = 4;

    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (g)
            wname = max_len(wname, g->name, 24);
    }
    gpus_speeds(o, wname);
    ts_out_puts(o, "\nmemory: the label. BF16, FP16, FP8, FP4: dense peak TFLOP/s; -: no such units\n"
                    "(V100: no BF16, bf16 runs as fp16; TPUs: no FP16). W: board power (-: unpublished).\n"
                    "link: device-to-device bandwidth (NVLink, Infinity Fabric, ICI), PCIe when there\n"
                    "is none; domain: how many devices it joins (server: one server's; 72: an NVL72\n"
                    "rack; TPUs: the largest ICI slice, beyond which the network carries traffic).\n\n");
    gpus_hosts_prices(o, wname);
    ts_out_puts(o, "\nusable: the total the CUDA/ROCm runtime reports, which fit checks use (-: the label).\n"
                    "host as sold: devices, RAM, cores (vCPUs on a VM) and NICs per host where the\n"
                    "product fixes them (TPU VMs, Grace trays; -: any server of up to 8). $/h: an\n"
                    "on-demand price per device-hour (RunPod Community where listed; the source says\n"
                    "which); buy $: a street price; prices: when they were seen; -: none found\n"
                    "(--gpu-prices sets your own).\n"
                    "--json gives every figure with its source and the datatypes each part takes.\n");
}

int ts_cli_cmd_gpus(const ts_cli *cx, int argc, char *const *argv)
{
    return listing(cx, argc, argv, "gpus", TS_CLI_HELP_GPUS, gpus_table, 1);
}

/* The `models` and `gpus` commands: the library's built-in catalogues as tables, or with
 * --json as a JSON array of objects. */
#include "cli.h"

#include <stdio.h>
#include <string.h>

/* Options of the listing commands: --json and --help. Returns an exit status, or -1 to go
 * on with the listing. */
static int listing_options(int argc, char **argv, const char *command,
                           enum cli_help_topic topic, int *json)
{
    int i;

    *json = 0;
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return cli_print_help(topic);
    }
    for (i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            *json = 1;
        } else if (argv[i][0] == '-') {
            cli_error("unknown option '%.64s' for %s (see trainsize %s --help)", argv[i],
                      command, command);
            return CLI_EXIT_USAGE;
        } else {
            cli_error("unexpected argument '%.64s' (trainsize %s takes no arguments)", argv[i],
                      command);
            return CLI_EXIT_USAGE;
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

static void cell(cli_out *o, const char *s, size_t width)
{
    size_t start = cli_out_column(o);

    cli_out_clipped(o, s ? s : "", width);
    cli_out_pad_to(o, start + width + 2, 2);
}

/* ---- models ---- */

static void models_json(cli_out *o)
{
    size_t i, written = 0, n = trainsize_model_count();

    cli_out_putc(o, '[');
    for (i = 0; i < n; i++) {
        const trainsize_model_info *m = trainsize_model_at(i);
        if (!m)
            continue;
        cli_out_puts(o, written++ ? ",\n  {" : "\n  {");
        cli_out_puts(o, "\"name\": ");
        cli_json_string(o, m->name);
        cli_out_puts(o, ", \"family\": ");
        cli_json_string(o, m->family);
        cli_out_puts(o, ", \"parameters\": ");
        cli_json_u64(o, m->parameters);
        cli_out_puts(o, ", \"active_parameters\": ");
        cli_json_u64(o, m->active_parameters);
        cli_out_puts(o, ", \"source\": ");
        cli_json_string(o, m->source);
        cli_out_putc(o, '}');
    }
    cli_out_puts(o, written ? "\n]\n" : "]\n");
}

static void models_table(cli_out *o)
{
    size_t i, n = trainsize_model_count();
    size_t wname = 4, wfam = 6, used;
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX];

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
    cli_out_printf(o, "%10s  %10s  source\n", "parameters", "active");
    for (i = 0; i < n; i++) {
        const trainsize_model_info *m = trainsize_model_at(i);
        if (!m)
            continue;
        cell(o, m->name, wname);
        cell(o, m->family, wfam);
        cli_out_printf(o, "%10s  %10s  ", cli_fmt_count(a, sizeof a, m->parameters),
                       cli_fmt_count(b, sizeof b, m->active_parameters));
        cli_out_clipped(o, m->source, CLI_COLUMNS - used);
        cli_out_putc(o, '\n');
    }
}

int cli_cmd_models(int argc, char **argv)
{
    cli_out out;
    int json, status = listing_options(argc, argv, "models", CLI_HELP_MODELS, &json);

    if (status >= 0)
        return status;
    cli_out_init(&out);
    if (json)
        models_json(&out);
    else
        models_table(&out);
    return cli_out_flush_stdout(&out);
}

/* ---- gpus ---- */

static void gpus_json(cli_out *o)
{
    size_t i, written = 0, n = trainsize_gpu_count();

    cli_out_putc(o, '[');
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (!g)
            continue;
        cli_out_puts(o, written++ ? ",\n  {" : "\n  {");
        cli_out_puts(o, "\"name\": ");
        cli_json_string(o, g->name);
        cli_out_puts(o, ", \"full_name\": ");
        cli_json_string(o, g->full_name);
        cli_out_puts(o, ", \"memory_bytes\": ");
        cli_json_u64(o, g->memory_bytes);
        cli_out_puts(o, ", \"usable_bytes\": ");
        cli_json_u64(o, g->usable_bytes);
        cli_out_puts(o, ", \"memory_bandwidth\": ");
        cli_json_u64(o, g->memory_bandwidth);
        cli_out_puts(o, ", \"flops_fp32\": ");
        cli_json_number(o, g->flops_fp32);
        cli_out_puts(o, ", \"flops_bf16\": ");
        cli_json_number(o, g->flops_bf16);
        cli_out_puts(o, ", \"flops_fp8\": ");
        cli_json_number(o, g->flops_fp8);
        cli_out_puts(o, ", \"tdp_watts\": ");
        cli_json_number(o, g->tdp_watts);
        cli_out_puts(o, g->ecc ? ", \"ecc\": true" : ", \"ecc\": false");
        cli_out_puts(o, g->data_center ? ", \"data_center\": true" : ", \"data_center\": false");
        cli_out_puts(o, ", \"scale_up_bandwidth\": ");
        cli_json_u64(o, g->scale_up_bandwidth);
        cli_out_printf(o, ", \"pcie_generation\": %d", g->pcie_generation);
        cli_out_puts(o, ", \"architecture\": ");
        cli_json_string(o, g->architecture ? g->architecture : "");
        cli_out_puts(o, g->no_bf16 ? ", \"bf16\": false" : ", \"bf16\": true");
        cli_out_puts(o, g->no_flash_attention ? ", \"flash_attention\": false"
                                              : ", \"flash_attention\": true");
        cli_out_puts(o, ", \"source\": ");
        cli_json_string(o, g->source);
        cli_out_puts(o, ", \"cloud_usd_per_hour\": ");
        cli_json_number(o, g->cloud_usd_per_hour);
        cli_out_puts(o, ", \"purchase_usd\": ");
        cli_json_number(o, g->purchase_usd);
        cli_out_puts(o, ", \"price_source\": ");
        cli_json_string(o, g->price_source ? g->price_source : "");
        cli_out_putc(o, '}');
    }
    cli_out_puts(o, written ? "\n]\n" : "]\n");
}

static void gpus_table(cli_out *o)
{
    size_t i, n = trainsize_gpu_count();
    size_t wname = 4;
    char b[CLI_FMT_MAX], c[CLI_FMT_MAX];

    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (g)
            wname = max_len(wname, g->name, 24);
    }
    /* name, memory, usable, bandwidth, BF16, FP8, TDP, GPU-to-GPU link, $/GPU-h, price */
    cell(o, "name", wname);
    cli_out_printf(o, "%7s  %9s  %9s  %5s  %5s  %5s  %9s  %7s  %7s\n", "memory", "usable", "bandwidth",
                   "BF16", "FP8", "TDP W", "GPU link", "$/GPU-h", "buy $");
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        if (!g)
            continue;
        cell(o, g->name, wname);
        cli_out_printf(o, "%3.0f GiB  ", (double)g->memory_bytes / 1073741824.0);
        if (g->usable_bytes)
            cli_out_printf(o, "%5.1f GiB  ", (double)g->usable_bytes / 1073741824.0);
        else
            cli_out_printf(o, "%9s  ", "-");
        cli_out_printf(o, "%9s  ", cli_fmt_si(b, sizeof b, (double)g->memory_bandwidth, "B/s"));
        cli_out_printf(o, "%5.0f  ", g->flops_bf16 / 1e12);
        if (g->flops_fp8 > 0)
            cli_out_printf(o, "%5.0f  ", g->flops_fp8 / 1e12);
        else
            cli_out_printf(o, "%5s  ", "-");
        cli_out_printf(o, "%5.0f  %9s  ", g->tdp_watts,
                       g->scale_up_bandwidth
                           ? cli_fmt_si(c, sizeof c, (double)g->scale_up_bandwidth, "B/s")
                           : "PCIe");
        if (g->cloud_usd_per_hour > 0)
            cli_out_printf(o, "%7.2f  ", g->cloud_usd_per_hour);
        else
            cli_out_printf(o, "%7s  ", "-");
        if (g->purchase_usd > 0)
            cli_out_printf(o, "%7.0f\n", g->purchase_usd);
        else
            cli_out_printf(o, "%7s\n", "-");
    }
    cli_out_puts(o, "\nusable: the total the CUDA/ROCm runtime reports, which fit checks use (-: the label).\n"
                    "BF16, FP8: dense peak TFLOP/s. GPU link: GPU-to-GPU bandwidth per GPU (NVLink,\n"
                    "Infinity Fabric), PCIe when there is none. $/GPU-h: RunPod Community on-demand,\n"
                    "dated; buy $: a street price; -: none found (--gpu-prices sets your own).\n"
                    "--json gives every figure with its source, the vendor name and the architecture.\n");
}

int cli_cmd_gpus(int argc, char **argv)
{
    cli_out out;
    int json, status = listing_options(argc, argv, "gpus", CLI_HELP_GPUS, &json);

    if (status >= 0)
        return status;
    cli_out_init(&out);
    if (json)
        gpus_json(&out);
    else
        gpus_table(&out);
    return cli_out_flush_stdout(&out);
}

/* GPUs of the caller's own description, checked and completed into a description of
 * their own (custom_gpu.h): from a struct, or from a JSON device file. Nothing here
 * touches a job; job_load.c gives the description to one. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "custom_gpu.h"
#include "error.h"
#include "json.h"
#include "text_values.h"
#include "text.h"

#define GIB 1073741824.0
/* The least memory and link rate a description may state: less is a unit left out. */
#define GPU_MEMORY_MIN (UINT64_C(1) << 20)
#define RATE_MIN UINT64_C(1000000)
/* An FP32 rate is rarely on a datasheet's first line; unset, it is taken as an eighth of
 * the 16-bit tensor rate (A100: 19.5 of 312 is 1/16; H100 SXM: 67 of 989 is 1/15; an
 * eighth errs on the fast side for fp32 jobs) and said so in the docs. */
#define TS_FP32_FALLBACK_SHARE (1.0 / 8.0)
#define TS_DEFAULT_PCIE 4

static int positive(double v, const char *field, trainsize_error *err)
{
    if (!(v > 0) || v > 1e30)
        return ts_fail(err, TRAINSIZE_E_INVALID, field, "gpu: %s must be a positive number", field);
    return TRAINSIZE_OK;
}

void ts_gpu_description_bind(ts_gpu_description *d)
{
    d->info.name = d->name;
    d->info.full_name = d->full_name;
    d->info.source = d->source;
    d->info.architecture = d->architecture;
    d->info.vendor = d->vendor;
    d->info.host_network = d->host_network;
    d->info.price_source = "";
    d->info.price_date = "";
}

/* Every rate, power and price finite and sane, or refused naming the field: no NaN or
 * infinity reaches a figure. */
static int check_rates(const trainsize_gpu_info *info, trainsize_error *err)
{
    /* 0 is "not stated"; a stated figure below its floor is a slip: a rate of a few
     * FLOP/s or a price of a denormal would size a job in 10^22 s or at $1e-323 */
    static const struct { size_t offset; const char *name; double min, max; } ranges[] = {
        {offsetof(trainsize_gpu_info, flops_fp32), "flops_fp32", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, flops_bf16), "flops_bf16", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, flops_fp8), "flops_fp8", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, flops_fp16), "flops_fp16", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, flops_fp4), "flops_fp4", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, flops_tf32), "flops_tf32", 1e9, 1e21},
        {offsetof(trainsize_gpu_info, tdp_watts), "tdp_watts", 1, 1e6},
        {offsetof(trainsize_gpu_info, cloud_usd_per_hour), "cloud_usd_per_hour", 1e-4, 1e6},
        {offsetof(trainsize_gpu_info, purchase_usd), "purchase_usd", 1, 1e9}};
    size_t i;
    for (i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        double v;
        ts_number min, max;
        memcpy(&v, (const char *)info + ranges[i].offset, sizeof v);
        if (!(v >= 0 && v <= ranges[i].max) || (v > 0 && v < ranges[i].min))
            return ts_fail(err, TRAINSIZE_E_INVALID, ranges[i].name,
                           "gpu: %s must be 0 (not stated) or a number from %s to %s", ranges[i].name,
                           ts_number_text(&min, ranges[i].min), ts_number_text(&max, ranges[i].max));
    }
    return TRAINSIZE_OK;
}

/* Memory, bandwidths, the kind and the scale-up domain in range. */
static int check_sizes(const trainsize_gpu_info *info, trainsize_error *err)
{
    /* a memory or a link of a handful of bytes is a slip (a unit left out), not a part */
    if (info->memory_bytes < GPU_MEMORY_MIN || (info->memory_bandwidth && info->memory_bandwidth < RATE_MIN) ||
        (info->scale_up_bandwidth && info->scale_up_bandwidth < RATE_MIN) ||
        (info->host_ram_bytes && info->host_ram_bytes < GPU_MEMORY_MIN))
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu",
                       "gpu: memory_bytes (and host_ram_bytes when given) must be at least 1 MiB, "
                       "memory_bandwidth and scale_up_bandwidth (when given) at least 1 MB/s");
    if (info->memory_bytes > (UINT64_C(1) << 50) || info->usable_bytes > info->memory_bytes ||
        info->memory_bandwidth > UINT64_C(1000000000000000) ||
        info->scale_up_bandwidth > UINT64_C(1000000000000000))
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu",
                       "gpu: memory (at most 1 PiB, usable at most the label) or a bandwidth "
                       "(at most 1 PB/s) is out of range");
    if (info->kind != TRAINSIZE_ACCELERATOR_GPU && info->kind != TRAINSIZE_ACCELERATOR_TPU)
        return ts_fail(err, TRAINSIZE_E_INVALID, "kind", "gpu: kind must be 0 (GPU) or 1 (TPU)");
    if (info->scale_up_domain > 1000000 || (info->scale_up_domain && !info->scale_up_bandwidth))
        return ts_fail(err, TRAINSIZE_E_INVALID, "scale_up_domain",
                       "gpu: scale_up_domain must be at most 1e6, and needs a scale_up_bandwidth "
                       "(the fabric that joins the devices)");
    return TRAINSIZE_OK;
}

/* A host sold with the part (a TPU VM, a Grace tray): its RAM, cores, network and NICs; and
 * the part's own host link and precisions. */
static int check_host(const trainsize_gpu_info *info, trainsize_error *err)
{
    if (info->per_host < 0 || info->per_host > 1024)
        return ts_fail(err, TRAINSIZE_E_INVALID, "per_host", "gpu: per_host must be from 0 to 1024");
    if (info->host_ram_bytes > (UINT64_C(1) << 50))
        return ts_fail(err, TRAINSIZE_E_INVALID, "host_ram_bytes", "gpu: host_ram_bytes must be at most 1 PiB");
    if (info->host_cores < 0 || info->host_cores > 1000000)
        return ts_fail(err, TRAINSIZE_E_INVALID, "host_cores", "gpu: host_cores must be from 0 to 1e6");
    if ((info->host_ram_bytes || info->host_cores) && !info->per_host)
        return ts_fail(err, TRAINSIZE_E_INVALID, "per_host",
                       "gpu: a host sold with the part (host_ram_bytes, host_cores) needs per_host");
    if (info->host_network && info->host_network[0]) {
        const trainsize_link_info *l = trainsize_link_find(info->host_network);
        if (!l || l->kind != TRAINSIZE_LINK_SCALE_OUT)
            return ts_fail(err, TRAINSIZE_E_INVALID, "host_network",
                           "gpu: host_network must name a scale-out link (e.g. eth-200g, ib-ndr)");
        if (info->host_nics < 1 || info->host_nics > 64 || !info->per_host)
            return ts_fail(err, TRAINSIZE_E_INVALID, "host_nics",
                           "gpu: host_network needs host_nics (1-64) and per_host");
    }
    if (info->no_fp16 && !(info->flops_bf16 > 0))
        return ts_fail(err, TRAINSIZE_E_INVALID, "flops_bf16",
                       "gpu: a part without fp16 needs a flops_bf16 rate");
    if (info->pcie_generation > 9)
        return ts_fail(err, TRAINSIZE_E_INVALID, "pcie_generation",
                       "gpu: pcie_generation must be from 1 to 9 (0: unknown, PCIe 4)");
    return TRAINSIZE_OK;
}

/* The checked description into `out`: fallbacks for what it leaves out, its texts copied
 * and made one printable line each. */
static void copy_description(const trainsize_gpu_info *info, ts_gpu_description *out)
{
    trainsize_gpu_info g = *info;
    if (!(g.flops_fp32 > 0))
        g.flops_fp32 = (g.flops_bf16 > 0 ? g.flops_bf16 : g.flops_fp16) * TS_FP32_FALLBACK_SHARE;
    if (g.pcie_generation <= 0) g.pcie_generation = TS_DEFAULT_PCIE;
    out->info = g;
    ts_copy_name(out->name, sizeof out->name, info->name);
    ts_copy_name(out->full_name, sizeof out->full_name, info->full_name && info->full_name[0] ? info->full_name : info->name);
    ts_copy_name(out->source, sizeof out->source,
                 info->source && info->source[0] ? info->source : "caller's description");
    ts_copy_name(out->architecture, sizeof out->architecture, info->architecture);
    ts_copy_name(out->vendor, sizeof out->vendor, info->vendor);
    ts_copy_name(out->host_network, sizeof out->host_network, info->host_network);
    /* The caller's text is handed back in results and JSON: one printable line of UTF-8. */
    ts_text_tidy(out->name, sizeof out->name);
    ts_text_tidy(out->full_name, sizeof out->full_name);
    ts_text_tidy(out->source, sizeof out->source);
    ts_text_tidy(out->architecture, sizeof out->architecture);
    ts_text_tidy(out->vendor, sizeof out->vendor);
    /* Without a BF16 figure bf16 runs as fp16 (warned), as on a part without bf16. */
    out->info.no_bf16 = info->no_bf16 != 0 || !(info->flops_bf16 > 0);
    out->info.no_fp16 = info->no_fp16 != 0;
    out->info.no_flash_attention = info->no_flash_attention != 0;
}

int ts_gpu_description_make(const trainsize_gpu_info *info, ts_gpu_description *out, trainsize_error *err)
{
    int rc;
    if (!info) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "gpu", "gpu: NULL job or description");
    if (!info->name || !info->name[0])
        return ts_fail(err, TRAINSIZE_E_INVALID, "name", "gpu: the description needs a name");
    if (strlen(info->name) >= TRAINSIZE_NAME_MAX)
        return ts_fail(err, TRAINSIZE_E_INVALID, "name", "gpu: the name is longer than %d bytes",
                       TRAINSIZE_NAME_MAX - 1);
    /* A description under a catalogue name would be reported, planned and applied as that
     * catalogue part. */
    if (trainsize_gpu_find(info->name))
        return ts_fail(err, TRAINSIZE_E_INVALID, "name",
                       "gpu: name \"%s\" is a catalogue GPU's; give your description its own "
                       "name (e.g. \"%s-custom\")", info->name, info->name);
    /* Power may be unpublished for a TPU, as in the catalogue (the estimate then warns). */
    if ((rc = positive((double)info->memory_bytes, "memory_bytes", err)) ||
        (info->kind != TRAINSIZE_ACCELERATOR_TPU && (rc = positive(info->tdp_watts, "tdp_watts", err))))
        return rc;
    /* A 16-bit rate is what every estimate runs at: BF16, or FP16 alone (V100-class). */
    if (!(info->flops_bf16 > 0) && !(info->flops_fp16 > 0))
        return ts_fail(err, TRAINSIZE_E_INVALID, "flops_bf16",
                       "gpu: flops_bf16 (or flops_fp16 alone, for a part without bf16) must be a "
                       "positive number");
    if ((rc = check_rates(info, err)) || (rc = check_sizes(info, err)) || (rc = check_host(info, err)))
        return rc;
    copy_description(info, out);
    ts_gpu_description_bind(out);
    return ts_ok(err);
}

/* One number of the device file into a double field; absent keys keep 0. A boolean is
 * no number ("memory_gib": true is not 1 GiB). */
static int read_number(const ts_json_value *root, const char *key, double *out, trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(root, key, &v) || ts_json_is_null(&v)) return TRAINSIZE_OK;
    return ts_json_get_double(&v, key, out, err);
}

/* One flag of the device file (ecc, bf16, ...): true or false, or 1 or 0; absent keeps *out. */
static int read_flag(const ts_json_value *root, const char *key, double *out, trainsize_error *err)
{
    ts_json_value v;
    int flag;
    double d;
    if (!ts_json_object_get(root, key, &v) || ts_json_is_null(&v)) return TRAINSIZE_OK;
    if (v.type == TS_JSON_BOOL) {
        int rc = ts_json_get_bool(&v, key, &flag, err);
        if (rc == TRAINSIZE_OK) *out = flag;
        return rc;
    }
    if (v.type == TS_JSON_NUMBER && ts_json_get_double(&v, key, &d, NULL) == TRAINSIZE_OK && (d == 0 || d == 1)) {
        *out = d;
        return TRAINSIZE_OK;
    }
    return ts_fail(err, TRAINSIZE_E_INVALID, key, "gpu-file: %s: expected true or false", key);
}

static int read_text(const ts_json_value *root, const char *key, char *buf, size_t cap,
                     trainsize_error *err)
{
    ts_json_value v;
    if (!ts_json_object_get(root, key, &v) || ts_json_is_null(&v)) return TRAINSIZE_OK;
    return ts_json_get_string(&v, key, buf, cap, err);
}

int ts_gpu_description_read(const char *json, size_t len, ts_gpu_description *out, trainsize_error *err)
{
    ts_json_value root;
    trainsize_gpu_info g;
    char name[TRAINSIZE_NAME_MAX] = "", full[TRAINSIZE_NAME_MAX] = "", source[TRAINSIZE_NAME_MAX] = "";
    char arch[TRAINSIZE_NAME_MAX] = "", vendor[TRAINSIZE_NAME_MAX] = "", kind[8] = "gpu";
    char network[TRAINSIZE_NAME_MAX] = "";
    double memory = 0, memory_gib = 0, bw = 0, scale_up = 0, ecc = 0, dc = 0, pcie = 0;
    double domain = 0, per_host = 0, host_ram = 0, host_cores = 0, nics = 0;
    double bf16 = 1, fp16 = -1, flash = 1; /* absent: the part has them (fp16: unless a TPU) */
    int rc;
    if (!json && len) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "gpu-file", "gpu-file: NULL job or text");
    memset(&g, 0, sizeof g);
    if ((rc = ts_json_parse(json ? json : "", len, TRAINSIZE_HF_CONFIG_MAX_BYTES,
                            TRAINSIZE_HF_CONFIG_MAX_DEPTH, &root, err))) {
        if (err && err->field[0] == '\0') snprintf(err->field, sizeof err->field, "gpu-file");
        return rc;
    }
    if (root.type != TS_JSON_OBJECT)
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu-file", "gpu-file: the top-level value is not an object");
    if ((rc = read_text(&root, "name", name, sizeof name, err)) ||
        (rc = read_text(&root, "full_name", full, sizeof full, err)) ||
        (rc = read_text(&root, "source", source, sizeof source, err)) ||
        (rc = read_text(&root, "architecture", arch, sizeof arch, err)) ||
        (rc = read_text(&root, "vendor", vendor, sizeof vendor, err)) ||
        (rc = read_text(&root, "kind", kind, sizeof kind, err)) ||
        (rc = read_flag(&root, "bf16", &bf16, err)) ||
        (rc = read_flag(&root, "fp16", &fp16, err)) ||
        (rc = read_number(&root, "flops_fp16", &g.flops_fp16, err)) ||
        (rc = read_number(&root, "flops_fp4", &g.flops_fp4, err)) ||
        (rc = read_number(&root, "flops_tf32", &g.flops_tf32, err)) ||
        (rc = read_number(&root, "scale_up_domain", &domain, err)) ||
        (rc = read_number(&root, "per_host", &per_host, err)) ||
        (rc = read_number(&root, "host_ram_bytes", &host_ram, err)) ||
        (rc = read_number(&root, "host_cores", &host_cores, err)) ||
        (rc = read_text(&root, "host_network", network, sizeof network, err)) ||
        (rc = read_number(&root, "host_nics", &nics, err)) ||
        (rc = read_flag(&root, "flash_attention", &flash, err)) ||
        (rc = read_number(&root, "memory_bytes", &memory, err)) ||
        (rc = read_number(&root, "memory_gib", &memory_gib, err)) ||
        (rc = read_number(&root, "memory_bandwidth", &bw, err)) ||
        (rc = read_number(&root, "flops_fp32", &g.flops_fp32, err)) ||
        (rc = read_number(&root, "flops_bf16", &g.flops_bf16, err)) ||
        (rc = read_number(&root, "flops_fp8", &g.flops_fp8, err)) ||
        (rc = read_number(&root, "tdp_watts", &g.tdp_watts, err)) ||
        (rc = read_flag(&root, "ecc", &ecc, err)) ||
        (rc = read_flag(&root, "data_center", &dc, err)) ||
        (rc = read_number(&root, "scale_up_bandwidth", &scale_up, err)) ||
        (rc = read_number(&root, "pcie_generation", &pcie, err)) ||
        (rc = read_number(&root, "cloud_usd_per_hour", &g.cloud_usd_per_hour, err)) ||
        (rc = read_number(&root, "purchase_usd", &g.purchase_usd, err)))
        return rc;
    /* one of the two: a bad memory_bytes is not hidden behind a memory_gib */
    if (memory != 0 && memory_gib != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "memory_bytes", "gpu-file: give memory_bytes or memory_gib, not both");
    if (memory_gib < 0 || memory != floor(memory) || host_ram != floor(host_ram))
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu-file",
                       "gpu-file: memory_gib must be positive, memory_bytes and host_ram_bytes whole numbers");
    /* a rate under 1 MB/s would be cut to 0, "not stated", below */
    if ((bw > 0 && bw < (double)RATE_MIN) || (scale_up > 0 && scale_up < (double)RATE_MIN))
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu",
                       "gpu: memory_bandwidth and scale_up_bandwidth (when given) must be at least 1 MB/s");
    if (memory_gib > 0) memory = memory_gib * GIB;
    if (memory < 0 || memory > 1e18 || bw < 0 || bw > 1e18 || scale_up < 0 || scale_up > 1e18 ||
        pcie < 0 || pcie > 9 || !(domain >= 0 && domain <= 1e6) || !(per_host >= 0 && per_host <= 1024) ||
        !(host_ram >= 0 && host_ram <= 1e18) || !(host_cores >= 0 && host_cores <= 1e6) ||
        !(nics >= 0 && nics <= 64))
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu-file", "gpu-file: a size, rate, count or PCIe generation is out of range");
    if (domain != (double)(uint64_t)domain || per_host != (double)(int)per_host ||
        host_cores != (double)(int)host_cores || nics != (double)(int)nics || pcie != (double)(int)pcie)
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu-file",
                       "gpu-file: scale_up_domain, per_host, host_cores, host_nics and pcie_generation are "
                       "whole numbers");
    if (strcmp(kind, "gpu") != 0 && strcmp(kind, "tpu") != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "kind", "gpu-file: kind must be \"gpu\" or \"tpu\"");
    g.name = name;
    g.full_name = full;
    g.source = source;
    g.price_source = "";
    g.architecture = arch;
    g.vendor = vendor;
    g.kind = strcmp(kind, "tpu") == 0 ? TRAINSIZE_ACCELERATOR_TPU : TRAINSIZE_ACCELERATOR_GPU;
    g.no_bf16 = bf16 == 0;
    g.no_fp16 = fp16 < 0 ? g.kind == TRAINSIZE_ACCELERATOR_TPU : fp16 == 0; /* TPUs take bf16 only */
    g.scale_up_domain = (uint64_t)domain;
    g.per_host = (int)per_host;
    g.host_ram_bytes = (uint64_t)host_ram;
    g.host_cores = (int)host_cores;
    g.host_network = network;
    g.host_nics = (int)nics;
    g.no_flash_attention = flash == 0;
    g.memory_bytes = (uint64_t)memory;
    g.memory_bandwidth = (uint64_t)bw;
    g.scale_up_bandwidth = (uint64_t)scale_up;
    g.ecc = ecc != 0;
    g.data_center = dc != 0;
    g.pcie_generation = (int)pcie;
    return ts_gpu_description_make(&g, out, err);
}

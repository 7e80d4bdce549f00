/* admission: a scheduler's admission check for one node.
 *
 *   admission --node-gpu a100-80gb --node-gpus 8 --node-ram-gib 1024 [--node-cores N] \
 *             model=llama-2-7b zero=3 micro-batch=2 ...
 *
 * Builds the job for one node of that type: the node's GPU, as many GPUs as the node has
 * (unless the job asks for fewer with gpus=N), the node's host RAM (and CPU cores, when
 * given) to check against; the NAME=VALUE pairs are any job parameters of the library
 * (those of `trainsize estimate --help`, without the dashes). It estimates and prints one
 * line:
 *   ADMIT: peak X GiB of Y GiB per GPU
 *   REJECT: <reason>      (does not fit, host-ram-short, cpu-cores-short, more GPUs)
 *
 * A scheduler asks what the job needs, so the host RAM is checked against the job's own
 * need: host-ram-factor (the buying guideline of 2 x the node's GPU memory) is 0 here
 * unless a pair sets it.
 *
 * Exit status: 0 admit, 1 reject, 2 invalid input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainsize.h"

#define GIB 1073741824.0

static double gib(uint64_t bytes)
{
    return (double)bytes / GIB;
}

static int usage(const char *why, const char *what)
{
    fprintf(stderr, "admission: %s%.64s\n", why, what);
    fprintf(stderr, "usage: admission --node-gpu NAME --node-gpus N --node-ram-gib N "
                    "[--node-cores N] [NAME=VALUE ...]\n");
    return 2;
}

/* A whole number from 1 to max; 0 when the text is not one. */
static uint64_t whole(const char *s, uint64_t max)
{
    char *end;
    unsigned long long v;

    if (!s || *s < '0' || *s > '9')
        return 0;
    v = strtoull(s, &end, 10);
    return (*end == '\0' && v >= 1 && v <= max) ? (uint64_t)v : 0;
}

static int set(trainsize_job *job, const char *name, const char *value)
{
    trainsize_error err;

    if (trainsize_job_set(job, name, value, &err) == TRAINSIZE_OK)
        return 0;
    fprintf(stderr, "admission: %s\n", err.message);
    return -1;
}

/* The job's parameters: the model first (it replaces the whole shape), then the others
 * in order. The node's own settings may not be changed by the job. */
static int apply_pairs(trainsize_job *job, int argc, char **argv, int first, uint64_t *gpus)
{
    static const char *const node_owned[] = {"gpu", "gpu-memory", "gpus-per-node", "host-ram",
                                             "cpu-cores"};
    char name[64];
    int pass, i;
    size_t k;

    for (pass = 0; pass < 2; pass++) {
        for (i = first; i < argc; i++) {
            const char *eq = strchr(argv[i], '=');
            size_t len = eq ? (size_t)(eq - argv[i]) : 0;
            if (!eq || len == 0 || len >= sizeof name) {
                fprintf(stderr, "admission: expected NAME=VALUE, got '%.64s'\n", argv[i]);
                return -1;
            }
            memcpy(name, argv[i], len);
            name[len] = '\0';
            if ((strcmp(name, "model") == 0) != (pass == 0))
                continue;
            for (k = 0; k < sizeof node_owned / sizeof node_owned[0]; k++) {
                if (strcmp(name, node_owned[k]) == 0) {
                    fprintf(stderr, "admission: %s is the node's (use the --node-* options)\n",
                            name);
                    return -1;
                }
            }
            if (set(job, name, eq + 1) != 0)
                return -1;
            if (strcmp(name, "gpus") == 0)
                *gpus = strtoull(eq + 1, NULL, 10);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *node_gpu = NULL;
    uint64_t node_gpus = 0, ram_gib = 0, cores = 0, gpus = 0;
    char text[32];
    trainsize_result r;
    trainsize_error err;
    trainsize_job *job;
    int i, status;

    for (i = 1; i + 1 < argc && strncmp(argv[i], "--", 2) == 0; i += 2) {
        if (strcmp(argv[i], "--node-gpu") == 0)
            node_gpu = argv[i + 1];
        else if (strcmp(argv[i], "--node-gpus") == 0 && !(node_gpus = whole(argv[i + 1], 64)))
            return usage("--node-gpus: expected a whole number from 1 to 64, got ", argv[i + 1]);
        else if (strcmp(argv[i], "--node-ram-gib") == 0 &&
                 !(ram_gib = whole(argv[i + 1], UINT64_C(1) << 24)))
            return usage("--node-ram-gib: expected a whole number of GiB, got ", argv[i + 1]);
        else if (strcmp(argv[i], "--node-cores") == 0 && !(cores = whole(argv[i + 1], 100000)))
            return usage("--node-cores: expected a whole number, got ", argv[i + 1]);
        else if (strcmp(argv[i], "--node-gpu") != 0 && strcmp(argv[i], "--node-gpus") != 0 &&
                 strcmp(argv[i], "--node-ram-gib") != 0 && strcmp(argv[i], "--node-cores") != 0)
            return usage("unknown option ", argv[i]);
    }
    if (i < argc && strncmp(argv[i], "--", 2) == 0)
        return usage("an option without its value: ", argv[i]);
    if (!node_gpu || !node_gpus || !ram_gib)
        return usage("--node-gpu, --node-gpus and --node-ram-gib are required", "");

    job = trainsize_job_new();
    if (!job) {
        fprintf(stderr, "admission: out of memory\n");
        return 1;
    }
    status = 2;
    snprintf(text, sizeof text, "%" PRIu64, node_gpus);
    if (set(job, "gpu", node_gpu) || set(job, "gpus", text) || set(job, "host-ram-factor", "0"))
        goto done;
    snprintf(text, sizeof text, "%" PRIu64, ram_gib * (uint64_t)GIB);
    if (set(job, "host-ram", text))
        goto done;
    snprintf(text, sizeof text, "%" PRIu64, cores);
    if (cores && set(job, "cpu-cores", text))
        goto done;
    gpus = node_gpus;
    if (apply_pairs(job, argc, argv, i, &gpus) != 0)
        goto done;
    if (gpus > node_gpus) {
        printf("REJECT: the job asks for %" PRIu64 " GPUs, the node has %" PRIu64 "\n", gpus,
               node_gpus);
        status = 1;
        goto done;
    }
    /* One node: all of the job's GPUs in one server. */
    snprintf(text, sizeof text, "%" PRIu64, gpus);
    if (set(job, "gpus-per-node", text))
        goto done;
    if (trainsize_estimate(job, &r, sizeof r, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "admission: %s\n", err.message);
        goto done;
    }

    status = 1;
    if (!r.memory.fits)
        printf("REJECT: does not fit: peak %.2f GiB > %.2f GiB per GPU\n",
               gib(r.memory.peak_total), gib(r.memory.gpu_capacity));
    else if (r.warnings & TRAINSIZE_WARN_HOST_RAM)
        printf("REJECT: %s: the job needs %.0f GiB of host RAM, the node has %" PRIu64 " GiB\n",
               trainsize_warning_name(TRAINSIZE_WARN_HOST_RAM), gib(r.system.host_ram_per_node),
               ram_gib);
    else if (r.warnings & TRAINSIZE_WARN_CPU_CORES)
        printf("REJECT: %s: the job needs %" PRIu64 " CPU cores, the node has %" PRIu64 "\n",
               trainsize_warning_name(TRAINSIZE_WARN_CPU_CORES), r.system.cpu_cores_per_node,
               cores);
    else {
        printf("ADMIT: peak %.2f GiB of %.2f GiB per GPU\n", gib(r.memory.peak_total),
               gib(r.memory.gpu_capacity));
        status = 0;
    }

done:
    trainsize_job_free(job);
    return status;
}

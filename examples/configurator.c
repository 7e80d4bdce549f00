/* configurator: a job in, ranked server builds out.
 *
 *   configurator MODEL TOKENS [DEADLINE_DAYS]
 *   configurator llama-2-70b 2e12 90
 *
 * Runs the planner (trainsize_plan) over the whole GPU catalogue for a built-in model
 * preset and a number of training tokens, then, for each of the three best candidates,
 * applies it to the job (trainsize_plan_apply) and estimates (trainsize_estimate) to read
 * the servers it needs: GPUs, servers and GPUs per server, host RAM, CPU cores, storage,
 * network, power and cost, the facility and what buying costs against renting. It also checks the library's promise that the estimate gives
 * the candidate's own figures, and exits with status 1 if it does not.
 *
 * Exit status: 0 builds printed (or nothing fits), 1 a broken promise or failure, 2 bad
 * input. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainsize.h"

#define SHOWN 3

static double gib(uint64_t bytes)
{
    return (double)bytes / (1024.0 * 1024.0 * 1024.0);
}

/* "1,650,750" */
static const char *thousands(char *buf, size_t cap, double v)
{
    char digits[32];
    size_t n, i, j = 0;

    snprintf(digits, sizeof digits, "%.0f", v);
    n = strlen(digits);
    for (i = 0; i < n && j + 2 < cap; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[j++] = ',';
        buf[j++] = digits[i];
    }
    buf[j] = '\0';
    return buf;
}

/* "24.5 days", "3.2 hours", "12.0 minutes", "1.2 seconds" */
static const char *duration(char *buf, size_t cap, double seconds)
{
    if (seconds >= 86400.0)
        snprintf(buf, cap, "%.1f days", seconds / 86400.0);
    else if (seconds >= 3600.0)
        snprintf(buf, cap, "%.1f hours", seconds / 3600.0);
    else if (seconds >= 60.0)
        snprintf(buf, cap, "%.1f minutes", seconds / 60.0);
    else
        snprintf(buf, cap, "%.1f seconds", seconds);
    return buf;
}

/* Set one parameter; on failure print the library's one-line message. */
static int set(trainsize_job *job, const char *name, const char *value)
{
    trainsize_error err;

    if (trainsize_job_set(job, name, value, &err) == TRAINSIZE_OK)
        return 0;
    fprintf(stderr, "configurator: %s\n", err.message);
    return -1;
}

/* The candidate's recompute setting as the "recompute" option names it: a field of the
 * library's plan table, found by its name. */
static const char *recompute_name(const trainsize_plan_candidate *c)
{
    size_t i;
    for (i = 0; i < trainsize_plan_field_count(); i++) {
        trainsize_field_value v;
        if (strcmp(trainsize_plan_field_at(i)->path, "recompute") == 0 &&
            trainsize_plan_field_get(c, i, &v) == TRAINSIZE_OK)
            return v.text;
    }
    return "?";
}

/* One candidate as a server build. Returns 0, or 1 when the estimate disagrees. */
static int print_build(const trainsize_job *job, size_t rank, const trainsize_plan_candidate *c)
{
    const trainsize_gpu_info *gpu = trainsize_gpu_find(c->gpu);
    trainsize_job *build = trainsize_job_clone(job);
    trainsize_result r;
    trainsize_error err;
    const trainsize_system *s = &r.system;
    char text[64];
    int bit;

    if (!build) {
        fprintf(stderr, "configurator: out of memory\n");
        return 1;
    }
    /* The candidate's GPU and layout on a copy of the job, then a full estimate. */
    if (trainsize_plan_apply(build, c, &err) != TRAINSIZE_OK ||
        trainsize_estimate(build, &r, sizeof r, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "configurator: candidate %zu: %s\n", rank, err.message);
        trainsize_job_free(build);
        return 1;
    }
    trainsize_job_free(build);

    printf("#%zu  %" PRIu64 " x %s (%s)\n", rank, c->gpus, gpu ? gpu->full_name : c->gpu, c->gpu);
    printf("    servers      %" PRIu64 " x %" PRIu64 " GPUs; tp %" PRIu64 ", pp %" PRIu64
           ", ZeRO %" PRIu64 ", micro-batch %" PRIu64 ", recompute %s\n",
           s->nodes, s->gpus_per_node, c->layout.tp, c->layout.pp, c->layout.zero,
           c->layout.micro_batch, recompute_name(c));
    printf("    per server   %.0f GiB host RAM, %" PRIu64 " CPU cores, %.1f kW\n",
           gib(s->host_ram_per_node), s->cpu_cores_per_node, s->power_per_node_watts / 1000.0);
    printf("    storage      %s, %.0f GiB (dataset and checkpoints)\n", s->storage_class,
           gib(s->storage_capacity));
    /* "" means one server, or no catalogue link fast enough (then with a warning). */
    printf("    network      %s\n", s->network_link[0] ? s->network_link
                                    : s->nodes <= 1 ? "none (one server)"
                                                    : "none fast enough in the catalogue");
    printf("    run          %s on the wall clock (goodput %.1f %%), peak %.2f GiB of %.0f GiB per GPU\n",
           duration(text, sizeof text, r.time.wall_seconds), 100.0 * r.time.goodput,
           gib(r.memory.peak_total), gib(r.memory.gpu_capacity));
    printf("    facility     %" PRIu64 " rack%s, %.1f kW in the fullest, %s cooling; %" PRIu64
           " x %.1f kW power supplies (%s)\n",
           s->racks, s->racks == 1 ? "" : "s", s->rack_power_watts / 1000.0, s->cooling,
           s->psus_per_server, s->psu_watts / 1000.0, s->psu_redundancy);
    if (c->cost > 0)
        printf("    cost         $%s in the cloud", thousands(text, sizeof text, s->cost_cloud_usd));
    if (c->cost > 0) {
        printf(", $%s owned", thousands(text, sizeof text, s->cost_own_usd));
        printf("; buying: $%s", thousands(text, sizeof text, s->capex_usd));
        if (s->breakeven_months > 0)
            printf(", paid off against renting in %.1f months\n", s->breakeven_months);
        else
            printf(", never cheaper than renting\n");
    } else
        printf("    cost         no price in the catalogue for this GPU\n");

    /* The promise: the candidate's figures are those of the estimate. */
    if (r.memory.peak_total != c->peak_total || r.time.wall_seconds != c->seconds ||
        !r.memory.fits) {
        fprintf(stderr,
                "configurator: candidate %zu: the estimate gives peak %" PRIu64
                " and %.17g s, the planner %" PRIu64 " and %.17g s\n",
                rank, r.memory.peak_total, r.time.wall_seconds, c->peak_total, c->seconds);
        return 1;
    }
    if (r.warnings) {
        printf("    warnings    ");
        for (bit = 0; bit < 64; bit++) {
            const char *name = trainsize_warning_name(UINT64_C(1) << bit);
            if ((r.warnings & (UINT64_C(1) << bit)) && name)
                printf(" %s", name);
        }
        printf("\n");
    }
    printf("    checked      the estimate gives the planner's peak and time\n");
    return 0;
}

int main(int argc, char **argv)
{
    trainsize_plan_candidate best[SHOWN];
    trainsize_plan_stats stats;
    trainsize_error err;
    trainsize_job *job;
    size_t count = 0, i;
    int status = 0, rc;

    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: configurator MODEL TOKENS [DEADLINE_DAYS]\n"
                        "  e.g. configurator llama-2-70b 2e12 90\n");
        return 2;
    }
    job = trainsize_job_new();
    if (!job) {
        fprintf(stderr, "configurator: out of memory\n");
        return 1;
    }
    if (set(job, "model", argv[1]) || set(job, "tokens", argv[2]) ||
        (argc == 4 && set(job, "deadline-days", argv[3]))) {
        trainsize_job_free(job);
        return 2;
    }
    rc = trainsize_plan(job, best, SHOWN, &count, &stats, &err);
    if (rc != TRAINSIZE_OK) {
        fprintf(stderr, "configurator: %s\n", err.message);
        trainsize_job_free(job);
        return rc == TRAINSIZE_E_ARGUMENT ? 1 : 2;
    }
    printf("%s, %s tokens%s%s%s: %" PRIu64 " configurations examined, %" PRIu64 " feasible\n\n",
           argv[1], argv[2], argc == 4 ? ", within " : "", argc == 4 ? argv[3] : "",
           argc == 4 ? " days" : "", stats.evaluated, stats.feasible);
    if (count == 0)
        printf("Nothing fits: try a later deadline.\n");
    for (i = 0; i < count && status == 0; i++) {
        if (i > 0)
            printf("\n");
        status = print_build(job, i + 1, &best[i]);
    }
    trainsize_job_free(job);
    return status;
}

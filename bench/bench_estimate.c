/* Benchmark: how long one full estimate takes, whether it allocates, and how fast the
 * planner examines configurations.
 *
 * Runs a set of representative jobs (dense, MoE, 3D parallel, LoRA), each many times,
 * reports nanoseconds per estimate (median of repeated batches) and the number of heap
 * allocations made on the estimate path (counted by interposing malloc). It links the
 * shared library, which is what the command and the bindings load.
 *
 * `bench_estimate --json` prints each job and its times as one JSON line instead, and
 * skips the planner: bench/bench_wasm.js times the JavaScript package on the same jobs
 * against these figures, in the same run.
 *
 * `bench_estimate --instructions K` makes INSTRUCTION_RUNS estimates of case K and
 * nothing else: bench/instructions.sh runs it under callgrind, which counts the
 * instructions inside trainsize_estimate exactly (hardware counters are often absent on
 * virtual machines, and noisy where present). */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "trainsize.h"

#ifdef __GLIBC__
/* The benchmark links the shared library, as its users do: its calls to malloc bind to
 * these definitions in the program (ELF interposition), which count and hand on to
 * glibc's own allocator. They must be visible, against the build's hidden default. */
#define INTERPOSED __attribute__((visibility("default")))
static unsigned long allocations;
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t n, size_t size);
void *__libc_realloc(void *p, size_t size);
INTERPOSED void *malloc(size_t size) { allocations++; return __libc_malloc(size); }
INTERPOSED void *calloc(size_t n, size_t size) { allocations++; return __libc_calloc(n, size); }
INTERPOSED void *realloc(void *p, size_t size) { allocations++; return __libc_realloc(p, size); }
#define ALLOCATION_COUNTING "counted (malloc/calloc/realloc interposed)"
#else
static unsigned long allocations;
#define ALLOCATION_COUNTING "not counted on this platform"
#endif

#define BATCH 20000
#define INSTRUCTION_RUNS 100
#define BATCHES 15

typedef struct bench_case {
    const char *name;
    const char *pairs[40];
} bench_case;

static const bench_case CASES[] = {
    {"llama-2-7b, 8 GPUs, ZeRO-3", {"model", "llama-2-7b", "gpus", "8", "zero", "3", "seq", "4096", NULL}},
    {"llama-3-70b, 64 GPUs, tp8 pp4 sp, selective",
     {"model", "llama-3-70b", "gpus", "64", "tp", "8", "pp", "4", "pp-interleave", "2", "sp", "true",
      "recompute", "selective", "global-batch", "512", "zero", "1", NULL}},
    {"mixtral-8x7b, 32 GPUs, ep8 tp2", {"model", "mixtral-8x7b", "gpus", "32", "ep", "8", "tp", "2",
      "zero", "1", NULL}},
    {"llama-2-13b QLoRA nf4, 1 GPU", {"model", "llama-2-13b", "lora-rank", "64", "lora-targets",
      "q,k,v,o,gate,up,down", "quantize-base", "nf4", "framework", "pytorch", NULL}},
    {"gpt2 eager fp32, 1 GPU", {"model", "gpt2", "precision", "fp32", "attention", "eager",
      "framework", "pytorch", "micro-batch", "8", "seq", "1024", NULL}},
};

static double now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* CPU seconds of this process (the planner's figure: what a page or a scheduler waits on
 * one core, whatever else the machine runs). */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One whole-catalogue plan of `model` at 1e12 tokens (max-gpus 4096, the default), bounded
 * or exhaustive: its stats, best candidate and CPU seconds. 0 on success. */
static int plan_once(const char *model, int exhaustive, trainsize_plan_stats *st, trainsize_plan_candidate *best,
                     double *seconds, unsigned long *allocs)
{
    unsigned long before;
    trainsize_job *job = trainsize_job_new();
    trainsize_plan_candidate top[10];
    size_t count = 0;
    double t0;
    int rc;
    if (!job) return -1;
    trainsize_job_set(job, "model", model, NULL);
    trainsize_job_set(job, "tokens", "1e12", NULL);
    if (exhaustive) trainsize_job_set(job, "exhaustive", "true", NULL);
    before = allocations;
    t0 = cpu_seconds();
    rc = trainsize_plan(job, top, 10, &count, st, NULL);
    *seconds = cpu_seconds() - t0;
    *allocs = allocations - before;
    trainsize_job_free(job);
    if (rc != 0 || count == 0) return -1;
    *best = top[0];
    return 0;
}

/* The planner over the whole catalogue: configurations examined, what each rule ruled out
 * (memory: a lighter configuration of the layout did not fit; floor: its time and cost
 * cannot beat what is kept; GPU counts skipped whole), full estimates, the CPU time of the
 * bounded search (the best of three) and of the exhaustive one, and whether both found the
 * same best candidate. */
static void bench_plans(void)
{
    static const char *const models[] = {"llama-3-70b", "mixtral-8x7b", "deepseek-v3", "llama-3-8b"};
    size_t i;
    printf("\nplanner: whole catalogue, up to 4096 GPUs, 1e12 tokens, CPU seconds\n");
    printf("%-14s %10s %9s %9s %9s %8s %7s %8s %10s %5s %7s\n", "model", "examined", "estimated", "memory",
           "floor", "floors", "counts", "bounded", "exhaustive", "same", "allocs");
    for (i = 0; i < sizeof models / sizeof models[0]; i++) {
        trainsize_plan_stats st, ex;
        trainsize_plan_candidate best, best_ex;
        double t = 1e9, te, once;
        unsigned long allocs = 0, a;
        int k;
        for (k = 0; k < 3; k++) {
            if (plan_once(models[i], 0, &st, &best, &once, &a) != 0) return;
            if (once < t) t = once;
            allocs += a;
        }
        if (plan_once(models[i], 1, &ex, &best_ex, &te, &a) != 0) return;
        allocs += a;
        printf("%-14s %10llu %9llu %9llu %9llu %8llu %7llu %8.3f %10.3f %5s %7lu\n", models[i],
               (unsigned long long)st.evaluated, (unsigned long long)st.estimated,
               (unsigned long long)st.pruned_memory, (unsigned long long)st.pruned_bound,
               (unsigned long long)st.bounds, (unsigned long long)st.counts_skipped, t, te,
               memcmp(&best, &best_ex, sizeof best) == 0 ? "yes" : "NO", allocs);
    }
}

/* One case as a JSON line: its name, options and times (the names and values hold no
 * character JSON would escape). */
static void print_json_case(const bench_case *bc, double median, double min)
{
    size_t i;
    printf("{\"name\": \"%s\", \"options\": {", bc->name);
    for (i = 0; bc->pairs[i]; i += 2)
        printf("%s\"%s\": \"%s\"", i ? ", " : "", bc->pairs[i], bc->pairs[i + 1]);
    printf("}, \"median_ns\": %.1f, \"min_ns\": %.1f}\n", median, min);
}

/* Case K's job, INSTRUCTION_RUNS estimates of it, and its name on stdout. */
static int run_for_instructions(const char *which)
{
    char *end;
    unsigned long k = strtoul(which, &end, 10);
    trainsize_job *job;
    trainsize_result r;
    size_t i;
    if (*which == '\0' || *end != '\0' || k >= sizeof CASES / sizeof CASES[0]) {
        fprintf(stderr, "bench: --instructions takes a case number below %zu\n",
                sizeof CASES / sizeof CASES[0]);
        return 2;
    }
    job = trainsize_job_new();
    if (!job) return 1;
    for (i = 0; CASES[k].pairs[i]; i += 2)
        if (trainsize_job_set(job, CASES[k].pairs[i], CASES[k].pairs[i + 1], NULL) != 0) return 1;
    for (i = 0; i < INSTRUCTION_RUNS; i++)
        if (trainsize_estimate(job, &r, sizeof r, NULL) != 0) return 1;
    printf("%s\t%d\n", CASES[k].name, INSTRUCTION_RUNS);
    trainsize_job_free(job);
    return 0;
}

int main(int argc, char **argv)
{
    size_t c;
    volatile uint64_t sink = 0;
    int json = argc > 1 && strcmp(argv[1], "--json") == 0;
    if (argc > 2 && strcmp(argv[1], "--instructions") == 0) return run_for_instructions(argv[2]);
    if (argc > 1 && !json) {
        fprintf(stderr, "usage: bench_estimate [--json | --instructions CASE]\n");
        return 2;
    }
    if (json) goto cases;
    printf("libtrainsize %s benchmark: one full estimate (memory, servers, time)\n",
           trainsize_version_string());
    printf("allocations on the estimate path: %s\n", ALLOCATION_COUNTING);
    printf("instructions per estimate: bench/instructions.sh (callgrind) counts them\n");
    {
        /* The counter must see the one allocation trainsize_job_new makes, or it is blind. */
        unsigned long before = allocations;
        trainsize_job_free(trainsize_job_new());
        printf("counter check: creating a job made %lu allocation(s)\n", allocations - before);
    }
    printf("%-48s %12s %12s %14s %12s\n", "job", "median ns", "min ns", "estimates/s", "allocs/est");
cases:
    for (c = 0; c < sizeof CASES / sizeof CASES[0]; c++) {
        trainsize_job *job = trainsize_job_new();
        trainsize_result r;
        trainsize_error err;
        double per[BATCHES];
        unsigned long before;
        size_t i, b;
        if (!job) return 1;
        for (i = 0; CASES[c].pairs[i]; i += 2)
            if (trainsize_job_set(job, CASES[c].pairs[i], CASES[c].pairs[i + 1], &err) != 0) {
                fprintf(stderr, "bench: %s\n", err.message);
                return 1;
            }
        if (trainsize_estimate(job, &r, sizeof r, &err) != 0) {
            fprintf(stderr, "bench: %s: %s\n", CASES[c].name, err.message);
            return 1;
        }
        before = allocations;
        for (b = 0; b < BATCHES; b++) {
            double t0 = now_ns();
            for (i = 0; i < BATCH; i++) {
                trainsize_estimate(job, &r, sizeof r, &err);
                sink += r.memory.peak_total;
            }
            per[b] = (now_ns() - t0) / BATCH;
        }
        qsort(per, BATCHES, sizeof per[0], compare_double);
        if (json) {
            print_json_case(&CASES[c], per[BATCHES / 2], per[0]);
            trainsize_job_free(job);
            continue;
        }
        printf("%-48s %12.1f %12.1f %14.0f %12.3f\n", CASES[c].name, per[BATCHES / 2], per[0],
               1e9 / per[BATCHES / 2], (double)(allocations - before) / (double)(BATCH * BATCHES));
        trainsize_job_free(job);
    }
    if (!json) bench_plans();
    return sink == 0; /* keeps the loop from being optimised away */
}

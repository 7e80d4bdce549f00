/* setups: the three typical setups of the design, and where a few jobs land on each.
 *
 *   (a) a small research setup: 1-2 consumer GPUs, 128 GiB RAM, a 2 TB SATA SSD
 *   (b) a mid-size company: 4-8 V100 or A100, 512 GiB RAM, 8 TB NVMe, 10 GbE
 *   (c) a large distributed cluster: servers of 8 A100-80GB, 1 TiB RAM each, InfiniBand
 *       HDR, Ceph
 *
 * A setup is a list of job parameters (the machine), a job is another list (the model, the
 * training and the layout); both go through trainsize_job_set, exactly as the command's
 * options. A job with "plan" set asks the planner for the layout instead (restricted to
 * the setup's GPU) and shows its best candidate, applied with trainsize_plan_apply. For
 * each job: whether it fits, the peak per GPU, the time for its tokens, the warnings, and
 * the disk it needs when that is more than the setup has.
 *
 *   setups            (no arguments; exit status 0, or 1 if the library refuses a job) */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "trainsize.h"

#define MAX_SETTINGS 16

typedef struct setting {
    const char *name, *value;
} setting;

typedef struct job_def {
    const char *title;
    setting settings[MAX_SETTINGS]; /* ends at the first NULL name */
    int plan;                        /* 1: the planner chooses the GPU count and layout */
} job_def;

typedef struct setup_def {
    const char *title;
    double disk_bytes;               /* the setup's disk, to compare with what a job keeps */
    setting machine[MAX_SETTINGS];
    job_def jobs[4];                 /* ends at the first NULL title */
} setup_def;

static const setup_def SETUPS[] = {
    {"(a) small research: 1-2 x RTX 4090, 128 GiB RAM, 2 TB SATA SSD", 2e12,
     {{"gpu", "rtx-4090"}, {"host-ram", "137438953472"}, {"storage", "sata-ssd"}},
     {{"GPT-2 full fine-tune, 1 GPU",
       {{"model", "gpt2"}, {"gpus", "1"}, {"micro-batch", "8"}, {"seq", "1024"},
        {"tokens", "1e9"}}, 0},
      {"Llama-2-7B QLoRA nf4 r16, 1 GPU",
       {{"model", "llama-2-7b"}, {"gpus", "1"}, {"lora-rank", "16"},
        {"quantize-base", "nf4"}, {"recompute", "full"}, {"tokens", "1e8"}}, 0},
      {"Llama-2-7B full, 2 GPUs ZeRO-3",
       {{"model", "llama-2-7b"}, {"gpus", "2"}, {"zero", "3"}, {"tokens", "1e9"}}, 0},
      {NULL, {{NULL, NULL}}, 0}}},
    {"(b) mid-size company: 8 x A100-40GB or 4 x V100-32GB, 512 GiB RAM, 8 TB NVMe, 10 GbE",
     8e12,
     {{"gpu", "a100-40gb"}, {"host-ram", "549755813888"}, {"storage", "nvme-gen4"},
      {"network", "eth-10g"}},
     {{"Llama-2-7B full, 8 x A100-40GB ZeRO-3",
       {{"model", "llama-2-7b"}, {"gpus", "8"}, {"zero", "3"}, {"recompute", "selective"},
        {"tokens", "2e10"}}, 0},
      {"Llama-2-13B LoRA r16, 4 x V100-32GB",
       {{"model", "llama-2-13b"}, {"gpu", "v100-32gb"}, {"gpus", "4"}, {"precision", "fp16-mixed"},
        {"lora-rank", "16"}, {"recompute", "full"}, {"tokens", "1e9"}}, 0},
      {"Llama-2-70B full, 8 x A100-40GB ZeRO-3",
       {{"model", "llama-2-70b"}, {"gpus", "8"}, {"zero", "3"}, {"recompute", "full"},
        {"tokens", "1e10"}}, 0},
      {NULL, {{NULL, NULL}}, 0}}},
    {"(c) large cluster: servers of 8 x A100-80GB, 1 TiB RAM each, InfiniBand HDR, Ceph", 1e15,
     {{"gpu", "a100-80gb"}, {"gpus-per-node", "8"}, {"host-ram", "1099511627776"},
      {"network", "ib-hdr"}, {"storage", "ceph"}},
     {{"Llama-2-70B, 64 GPUs tp8 pp2 ZeRO-1",
       {{"model", "llama-2-70b"}, {"gpus", "64"}, {"tp", "8"}, {"pp", "2"}, {"zero", "1"},
        {"sp", "true"}, {"recompute", "selective"}, {"global-batch", "1024"},
        {"seq", "4096"}, {"tokens", "1e11"}}, 0},
      {"Mixtral 8x7B, 64 GPUs tp2 ep8 ZeRO-1",
       {{"model", "mixtral-8x7b"}, {"gpus", "64"}, {"tp", "2"}, {"ep", "8"}, {"zero", "1"},
        {"recompute", "selective"}, {"global-batch", "1024"}, {"tokens", "1e11"}}, 0},
      {"Llama-3-70B, planner, 60-day deadline",
       {{"model", "llama-3-70b"}, {"plan-gpus", "a100-80gb"}, {"max-gpus", "2048"},
        {"deadline-days", "60"}, {"seq", "8192"}, {"tokens", "2e12"}}, 1},
      {NULL, {{NULL, NULL}}, 0}}},
};

static double gib(uint64_t bytes)
{
    return (double)bytes / 1073741824.0;
}

static int apply(trainsize_job *job, const setting *s)
{
    trainsize_error err;

    for (; s->name; s++) {
        if (trainsize_job_set(job, s->name, s->value, &err) != TRAINSIZE_OK) {
            fprintf(stderr, "setups: %s=%s: %s\n", s->name, s->value, err.message);
            return -1;
        }
    }
    return 0;
}

/* The planner's best layout for the job, applied to it; a line saying which. */
static int plan_layout(trainsize_job *job, char *note, size_t cap)
{
    trainsize_plan_candidate best;
    trainsize_error err;
    size_t count = 0;

    if (trainsize_plan(job, &best, 1, &count, NULL, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "setups: plan: %s\n", err.message);
        return -1;
    }
    if (count == 0) {
        snprintf(note, cap, "the planner finds nothing that fits");
        return 1;
    }
    if (trainsize_plan_apply(job, &best, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "setups: plan: %s\n", err.message);
        return -1;
    }
    snprintf(note, cap,
             "planner: %" PRIu64 " GPUs, tp %" PRIu64 " pp %" PRIu64 " ZeRO %" PRIu64
             " micro-batch %" PRIu64,
             best.gpus, best.layout.tp, best.layout.pp, best.layout.zero, best.layout.micro_batch);
    return 0;
}

/* The warnings' names (and the disk, when short), from column WARN_COL, wrapped at 100. */
#define TITLE_W 38
#define WARN_COL (2 + TITLE_W + 1 + 4 + 1 + 10 + 1 + 7 + 2)

static void print_warnings(uint64_t bits, double disk_need, double disk_have)
{
    char item[64];
    int bit, col = WARN_COL, n = 0;

    for (bit = 0; bit <= 64; bit++) {
        const char *name = bit < 64 ? trainsize_warning_name(UINT64_C(1) << bit) : NULL;
        if (bit < 64 && (!(bits & (UINT64_C(1) << bit)) || !name))
            continue;
        if (bit == 64 && !(disk_need > disk_have))
            break;
        if (bit < 64)
            snprintf(item, sizeof item, "%s", name);
        else
            snprintf(item, sizeof item, "disk: needs %.1f TB", disk_need / 1e12);
        if (n > 0 && col + 2 + (int)strlen(item) > 100) {
            printf(",\n%*s", WARN_COL, "");
            col = WARN_COL;
        } else if (n > 0) {
            printf(", ");
            col += 2;
        }
        col += printf("%s", item);
        n++;
    }
    printf("%s\n", n ? "" : "-");
}

static int run_job(const setup_def *setup, const job_def *def)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    char note[160] = "";
    int rc = -1;

    if (!job) {
        fprintf(stderr, "setups: out of memory\n");
        return -1;
    }
    if (apply(job, setup->machine) != 0 || apply(job, def->settings) != 0)
        goto done;
    if (def->plan && (rc = plan_layout(job, note, sizeof note)) != 0) {
        printf("  %-*.*s %s\n", TITLE_W, TITLE_W, def->title, note);
        rc = rc > 0 ? 0 : -1;
        goto done;
    }
    rc = -1;
    if (trainsize_estimate(job, &r, sizeof r, &err) != TRAINSIZE_OK) {
        fprintf(stderr, "setups: %s: %s\n", def->title, err.message);
        goto done;
    }
    printf("  %-*.*s %-4s %6.1f/%-3.0f %7.1f  ", TITLE_W, TITLE_W, def->title,
           r.memory.fits ? "yes" : "NO",
           gib(r.memory.peak_total), gib(r.memory.gpu_capacity), r.time.seconds / 86400.0);
    print_warnings(r.warnings & ~TRAINSIZE_WARN_DOES_NOT_FIT, (double)r.system.storage_capacity,
                   setup->disk_bytes);
    if (note[0])
        printf("  %-*s %s\n", TITLE_W, "", note);
    rc = 0;

done:
    trainsize_job_free(job);
    return rc;
}

int main(void)
{
    size_t i, j;
    int status = 0;

    for (i = 0; i < sizeof SETUPS / sizeof SETUPS[0]; i++) {
        printf("%s%s\n", i ? "\n" : "", SETUPS[i].title);
        printf("  %-*s %-4s %10s %7s  %s\n", TITLE_W, "job", "fits", "peak GiB", "days",
               "warnings");
        for (j = 0; SETUPS[i].jobs[j].title; j++) {
            if (run_job(&SETUPS[i], &SETUPS[i].jobs[j]) != 0)
                status = 1;
        }
    }
    return status;
}

/* The human report of an estimate (trainsize_report), as the trainsize command prints it:
 * a header, the per-GPU memory table with bars against the GPU's capacity, the verdict,
 * then the system and the time. ASCII only, and no line longer than TS_COLUMNS. A client
 * of the public API (it reads the job and the result as any caller would), above the
 * estimate pipeline; it writes into a caller's buffer and prints nothing. */
#define _POSIX_C_SOURCE 200809L /* newlocale, uselocale: the C locale while formatting */

#include <inttypes.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "report_sections.h"
#include "text_format.h"
#include "text_out.h"
#include "warning_texts.h"
#include "trainsize.h"

#define GIB 1073741824.0

/* Memory table geometry. */
#define LABEL_COL 2   /* labels start here */
#define GIB_COL 30    /* the GiB column starts here (10 wide) */
#define PCT_COL 40    /* the percentage column (9 wide) */
#define BAR_COL 51    /* the bar: '|' + BAR_WIDTH + '|' */
#define BAR_WIDTH 40
#define KEY_WIDTH TS_REPORT_KEY_WIDTH

/* The report's words: GPUs in servers (nodes), or a TPU's chips in hosts. */
typedef struct words {
    const char *dev;        /* "GPU", "chip" */
    const char *kind;       /* the header's key: "GPU", "TPU" */
    const char *server;     /* "server", "host" */
    const char *node;       /* "node", "host" */
    const char *ram_key;    /* the system section's keys */
    const char *cores_key;
    const char *servers_key;
    const char *between_key;
    const char *d2d_key;
} words;

static const words *words_of(const trainsize_gpu_info *g)
{
    static const words gpu = {"GPU", "GPU", "server", "node", "  host RAM per server",
                              "  CPU cores per server", "  servers", "  between servers",
                              "  GPU to GPU"};
    static const words tpu = {"chip", "TPU", "host", "host", "  RAM per host",
                              "  CPU cores per host", "  hosts", "  between hosts",
                              "  chip to chip"};
    return g && g->kind == TRAINSIZE_ACCELERATOR_TPU ? &tpu : &gpu;
}

/* The text of a CHOICE or STRING result field by its path, or NULL. */
static const char *result_text(const trainsize_result *r, const char *path)
{
    size_t i, count = trainsize_result_field_count();
    for (i = 0; i < count; i++) {
        const trainsize_field_info *f = trainsize_result_field_at(i);
        trainsize_field_value v;
        if (f && f->path && strcmp(f->path, path) == 0 &&
            trainsize_result_field_get(r, i, &v) == TRAINSIZE_OK &&
            (v.type == TRAINSIZE_FIELD_CHOICE || v.type == TRAINSIZE_FIELD_STRING))
            return v.text;
    }
    return NULL;
}

/* A line's text, built in pieces and then wrapped. */
typedef struct para {
    char b[1024];
    size_t n;
} para;

static void add(para *t, const char *fmt, ...) TS_OUT_PRINTF(2, 3);
static void add(para *t, const char *fmt, ...)
{
    va_list ap;
    int k;

    va_start(ap, fmt);
    k = vsnprintf(t->b + t->n, sizeof t->b - t->n, fmt, ap);
    va_end(ap);
    if (k > 0)
        t->n = (size_t)k < sizeof t->b - t->n ? t->n + (size_t)k : sizeof t->b - 1;
}

/* A job parameter in its text form, or NULL when the library has no such parameter. */
static const char *job_text(const trainsize_job *job, const char *name, char *buf, size_t cap)
{
    int n = trainsize_job_get(job, name, buf, cap, NULL);
    return n >= 0 ? buf : NULL;
}

int ts_report_job_is(const trainsize_job *job, const char *name, const char *value)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && strcmp(t, value) == 0;
}

static int job_is(const trainsize_job *job, const char *name, const char *value)
{
    return ts_report_job_is(job, name, value);
}

/* Whether a numeric job parameter is set to something other than "", "0" or "1". */
static int job_above_one(const trainsize_job *job, const char *name)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && t[0] && strtod(t, NULL) > 1.0;
}

/* A figure whose number and unit stay on one line: its spaces become NB, which
 * para_out() prints as spaces. */
#define NB TS_NB
static const char *nb(char *s)
{
    char *p;
    for (p = s; *p; p++)
        if (*p == ' ') *p = NB;
    return s;
}

/* A paragraph, wrapped at `indent` on its spaces (not inside a figure), then a newline. */
static void para_out(ts_out *o, const para *t, size_t indent)
{
    ts_out_wrapped(o, t->b, indent);
    ts_out_putc(o, '\n');
}

/* A numeric job parameter; 0 when unset or unknown. */
static uint64_t job_u64(const trainsize_job *job, const char *name)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && t[0] ? strtoull(t, NULL, 10) : 0;
}

double ts_report_job_f64(const trainsize_job *job, const char *name)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && t[0] ? strtod(t, NULL) : 0.0;
}

static double job_f64(const trainsize_job *job, const char *name) { return ts_report_job_f64(job, name); }

/* Append a segment, starting a new line at `indent` when it would pass the width. */
static void seg(ts_out *o, size_t indent, const char *sep, const char *text)
{
    size_t col = ts_out_column(o);

    if (col > indent && col + strlen(sep) + strlen(text) > TS_COLUMNS) {
        ts_out_putc(o, '\n');
        ts_out_repeat(o, ' ', indent);
    } else if (col > indent) {
        ts_out_puts(o, sep);
    }
    ts_out_clipped(o, text, TS_COLUMNS - indent);
}

void ts_report_key(ts_out *o, const char *k)
{
    ts_out_puts(o, k);
    ts_out_pad_to(o, KEY_WIDTH, 1);
}

static void key(ts_out *o, const char *k) { ts_report_key(o, k); }

/* ---- header ---- */

static void param_segment(ts_out *o, const char *what, uint64_t v)
{
    char n[TS_FMT_MAX], s[TS_FMT_MAX], text[3 * TS_FMT_MAX];

    snprintf(text, sizeof text, "%s %s (%s)", ts_fmt_thousands(n, sizeof n, v), what,
             ts_fmt_count(s, sizeof s, v));
    seg(o, KEY_WIDTH, "; ", text);
}

/* Which of a checkpoint's tensors the shape did not explain, entry by entry ("; "), each
 * kept whole on its line. */
static void header_extra_tensors(ts_out *o, const char *list)
{
    char entry[2 * TRAINSIZE_NAME_MAX];
    const char *p = list, *sep = " ";
    key(o, "");
    seg(o, KEY_WIDTH, "", "not in the shape:");
    while (*p) {
        const char *end = strstr(p, "; ");
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(entry, sizeof entry, "%.*s", (int)n, p);
        seg(o, KEY_WIDTH, sep, entry);
        sep = "; ";
        p += n;
        if (*p) p += 2;
    }
    ts_out_putc(o, '\n');
}

static void header_model(ts_out *o, const trainsize_result *r)
{
    ts_out_printf(o, "trainsize %s: what it takes to train ", trainsize_version_string());
    ts_out_clipped(o, r->model.name, 40);
    ts_out_puts(o, "\n\n");

    key(o, "Model");
    ts_out_clipped(o, r->model.name, TS_COLUMNS - KEY_WIDTH);
    ts_out_putc(o, '\n');
    key(o, "Parameters");
    param_segment(o, "total", r->model.parameters);
    param_segment(o, "trainable", r->model.trainable_parameters);
    param_segment(o, "active per token", r->model.active_parameters);
    if (r->model.mtp_parameters)
        param_segment(o, "in multi-token prediction, trained too", r->model.mtp_parameters);
    if (r->extra_parameters)
        param_segment(o, "beyond the shape (extra-params: a checkpoint's)", r->extra_parameters);
    ts_out_putc(o, '\n');
    if (r->extra_tensors[0]) header_extra_tensors(o, r->extra_tensors);
}

/* A multimodal model: what its tower and projector are, whether the tower trains, and what
 * a sample's images cost the sequence. */
static void header_vision(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX], d[TS_FMT_MAX];
    uint64_t images = job_u64(job, "images"), tokens = job_u64(job, "image-tokens");
    para t = {{0}, 0};
    if (!r->model.vision_parameters) return;
    key(o, "Vision");
    add(&t, "tower %s (%s) %s, projector %s (%s) trained; ",
        ts_fmt_thousands(a, sizeof a, r->model.vision_parameters),
        ts_fmt_count(b, sizeof b, r->model.vision_parameters),
        job_is(job, "freeze-vision", "true") ? "frozen" : "trained",
        ts_fmt_thousands(c, sizeof c, r->model.projector_parameters),
        ts_fmt_count(d, sizeof d, r->model.projector_parameters));
    add(&t, "%s image%s a sample of %s patches", ts_fmt_thousands(a, sizeof a, images),
        images == 1 ? "" : "s", ts_fmt_thousands(b, sizeof b, job_u64(job, "vision-patches")));
    if (tokens)
        add(&t, ", %s tokens of the sequence each", ts_fmt_thousands(c, sizeof c, tokens));
    else
        add(&t, ", read by %s cross-attention layers", ts_fmt_thousands(c, sizeof c, job_u64(job, "cross-attention-layers")));
    para_out(o, &t, KEY_WIDTH);
}

static void header_gpu(ts_out *o, const trainsize_result *r, const words *w)
{
    const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
    char a[TS_FMT_MAX], text[2 * TS_FMT_MAX + 128];

    key(o, w->kind);
    snprintf(text, sizeof text, "%s x %s", ts_fmt_thousands(a, sizeof a, r->gpus), r->gpu);
    seg(o, KEY_WIDTH, "", text);
    if (g && g->full_name)
        seg(o, KEY_WIDTH, ": ", g->full_name);
    snprintf(text, sizeof text, "%s each", ts_fmt_iec(a, sizeof a, (double)r->memory.gpu_capacity));
    if (g && g->usable_bytes && r->memory.gpu_capacity == g->usable_bytes) {
        char l[TS_FMT_MAX];
        snprintf(text, sizeof text, "%s usable each (label %s)", a,
                 ts_fmt_iec(l, sizeof l, (double)g->memory_bytes));
    }
    seg(o, KEY_WIDTH, ", ", text);
    ts_out_putc(o, '\n');
}

static void header_layout(ts_out *o, const trainsize_result *r, const words *w)
{
    const trainsize_layout *l = &r->layout;
    const struct { uint64_t degree; const char *name; int always; } degrees[] = {
        {l->tp, "tensor", 1}, {l->pp, "pipeline", 1}, {l->cp, "context", 0}, {l->ep, "expert", 0}};
    char a[TS_FMT_MAX], b[TS_FMT_MAX], text[2 * TS_FMT_MAX + 128];
    size_t i;

    key(o, "Layout");
    snprintf(text, sizeof text, "%s %s%s x %s %s%s",
             ts_fmt_thousands(a, sizeof a, r->system.nodes), w->node, r->system.nodes == 1 ? "" : "s",
             ts_fmt_thousands(b, sizeof b, r->system.gpus_per_node), w->dev,
             r->system.gpus_per_node == 1 ? "" : "s");
    seg(o, KEY_WIDTH, "", text);
    snprintf(text, sizeof text, "data parallel %s", ts_fmt_thousands(a, sizeof a, r->data_parallel));
    seg(o, KEY_WIDTH, "; ", text);
    for (i = 0; i < sizeof degrees / sizeof degrees[0]; i++) {
        if (degrees[i].always || degrees[i].degree > 1) {
            snprintf(text, sizeof text, "%s %s", degrees[i].name,
                     ts_fmt_thousands(a, sizeof a, degrees[i].degree));
            seg(o, KEY_WIDTH, " x ", text);
        }
    }
    if (r->pipeline_first_layers != r->pipeline_layers || r->pipeline_last_layers != r->pipeline_layers) {
        snprintf(text, sizeof text, "stages of %llu, %llu, ..., %llu layers",
                 (unsigned long long)r->pipeline_first_layers, (unsigned long long)r->pipeline_layers,
                 (unsigned long long)r->pipeline_last_layers);
        seg(o, KEY_WIDTH, ", ", text);
    }
    if (l->pp_interleave > 1) {
        snprintf(text, sizeof text, "interleave %s", ts_fmt_thousands(a, sizeof a, l->pp_interleave));
        seg(o, KEY_WIDTH, ", ", text);
    }
    if (l->sp) seg(o, KEY_WIDTH, ", ", "sequence parallel");
    snprintf(text, sizeof text, "ZeRO %llu", (unsigned long long)l->zero);
    seg(o, KEY_WIDTH, "; ", text);
    ts_out_putc(o, '\n');
}

static void header_batch(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX], v[64];
    const char *seq = job_text(job, "seq", v, sizeof v);
    para t = {{0}, 0};

    key(o, "Batch");
    if (job_u64(job, "resnet-depth")) {
        /* a convolutional network trains on whole images */
        uint64_t side = job_u64(job, "image-size");
        add(&t, "micro-batch %s images of %s x %s pixels; ", ts_fmt_thousands(a, sizeof a, r->layout.micro_batch),
            ts_fmt_thousands(b, sizeof b, side ? side : 224), b);
    } else if (job_u64(job, "max-tokens-per-gpu")) {
        /* a token budget forms the micro-batches (tokens.c) */
        add(&t, "micro-batches of at most %s tokens a GPU (max-tokens-per-gpu), padding removed; ",
            ts_fmt_thousands(a, sizeof a, job_u64(job, "max-tokens-per-gpu")));
    } else {
        add(&t, "micro-batch %s x %s%s tokens%s; ", ts_fmt_thousands(a, sizeof a, r->layout.micro_batch),
            strcmp(r->method, "dpo") == 0 ? "2 sequences (chosen, rejected) x " : "",
            ts_fmt_thousands(b, sizeof b, seq ? strtoull(seq, NULL, 10) : 0),
            job_is(job, "packing", "true") ? ", packed (padding removed)" : "");
    }
    if (job_u64(job, "sample-tokens"))
        add(&t, "samples of %s tokens on average; ", ts_fmt_thousands(a, sizeof a, job_u64(job, "sample-tokens")));
    add(&t, "gradient accumulation %s; ", ts_fmt_thousands(a, sizeof a, r->gradient_accumulation));
    /* the batch, and why: the option, or the default's rule */
    add(&t, "global batch %s sample%s: %s", ts_fmt_thousands(b, sizeof b, r->layout.global_batch),
        r->layout.global_batch == 1 ? "" : "s", r->global_batch_reason);
    para_out(o, &t, KEY_WIDTH);
}

/* RL's generation: its time, what of it the links take, and which length sized what. */
static void rollout_time(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX];
    para t = {{0}, 0};
    key(o, "  rollout");
    add(&t, "%s per step generating the responses (included; uncalibrated)",
        ts_fmt_duration(a, sizeof a, r->time.rollout_seconds));
    if (r->rollout_sync_seconds > 0 || r->rollout_network_seconds > 0)
        add(&t, "; of which %s handing the engines the weights, %s in decode all-reduces across servers",
            ts_fmt_duration(a, sizeof a, r->rollout_sync_seconds),
            ts_fmt_duration(b, sizeof b, r->rollout_network_seconds));
    if (job_u64(job, "response-tokens-mean"))
        add(&t, "; the mean response sized the KV cache's sequences and the decode work, the longest "
                "the last wave's tail");
    para_out(o, &t, KEY_WIDTH);
}

static void header_training(ts_out *o, const trainsize_job *job, const trainsize_result *r)
{
    static const char *const setup[][2] = {{"precision", ""},
                                           {"optimizer", ""},
                                           {"recompute", "recompute "},
                                           {"attention", "attention "},
                                           {"offload", "offload "}};
    /* settings shown by name when on */
    static const char *const flags[][2] = {{"activation-offload", "activation offload"},
                                           {"fp8-activation-store", "fp8 activation store"}};
    char text[256], v1[64];
    const char *t1, *sep = "";
    size_t i;

    key(o, "Training");
    if (strcmp(r->method, "dpo") == 0) {
        /* what the step trains first: a preference step runs two sequences a sample */
        snprintf(text, sizeof text, "DPO (chosen + rejected per sample; reference %s)", r->reference);
        seg(o, KEY_WIDTH, sep, text);
        sep = ", ";
    } else if (strcmp(r->method, "distill") == 0) {
        char tname[TRAINSIZE_NAME_MAX];
        snprintf(text, sizeof text, "distillation from %s (its logits, one forward a token)",
                 job_text(job, "teacher", tname, sizeof tname));
        seg(o, KEY_WIDTH, sep, text);
        sep = ", ";
    } else if (strcmp(r->method, "grpo") == 0 || strcmp(r->method, "ppo") == 0) {
        char g[32], resp[32];
        const char *gen = job_is(job, "response-tokens", "0") ? "half" : job_text(job, "response-tokens", resp, sizeof resp);
        snprintf(text, sizeof text, "%s (%s responses a prompt, %s%s tokens generated; reference %s%s)",
                 strcmp(r->method, "grpo") == 0 ? "GRPO" : "PPO", job_text(job, "group-size", g, sizeof g),
                 gen, strcmp(gen, "half") == 0 ? " of the" : "", r->reference,
                 strcmp(r->method, "ppo") == 0 ? "; a critic" : "");
        seg(o, KEY_WIDTH, sep, text);
        if (job_u64(job, "response-tokens-mean")) {
            snprintf(text, sizeof text, "responses of %llu tokens on average",
                     (unsigned long long)job_u64(job, "response-tokens-mean"));
            seg(o, KEY_WIDTH, ", ", text);
        }
        sep = ", ";
    }
    for (i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        t1 = job_text(job, setup[i][0], v1, sizeof v1);
        if (!t1 || !t1[0] || (strcmp(setup[i][0], "offload") == 0 && strcmp(t1, "none") == 0))
            continue;
        snprintf(text, sizeof text, "%s%s", setup[i][1], t1);
        if (strcmp(setup[i][0], "recompute") == 0 && strcmp(t1, "none") != 0 &&
            !job_is(job, "recompute-layers", "0")) {
            char v2[32];
            snprintf(text, sizeof text, "recompute %s (first %s layers per %sstage)", t1,
                     job_text(job, "recompute-layers", v2, sizeof v2),
                     job_above_one(job, "pp-interleave") ? "virtual " : "");
        }
        if (strcmp(setup[i][0], "recompute") == 0 && strcmp(t1, "selective") == 0 &&
            !job_is(job, "recompute-modules", "core_attn")) {
            char v2[96];
            size_t len = strlen(text);
            snprintf(text + len, sizeof text - len, " (%s)", job_text(job, "recompute-modules", v2, sizeof v2));
        }
        /* fp8-mixed names the scaling recipe it used (auto's choice for the GPU) */
        if (strcmp(setup[i][0], "precision") == 0 && r->fp8_recipe[0])
            snprintf(text, sizeof text, "%s (%s scaling)", t1, r->fp8_recipe);
        /* fp32 and tf32 say what ran on the TF32 tensor cores, and why */
        if (strcmp(setup[i][0], "precision") == 0 && r->tf32_reason[0])
            snprintf(text, sizeof text, "%s (%s%s: %s)", t1, r->tf32[0] ? "TF32 " : "plain FP32",
                     r->tf32, r->tf32_reason);
        /* fp8-attention applies where the library applies it (fp8-mixed, flash) */
        if (strcmp(setup[i][0], "attention") == 0 && strcmp(t1, "flash") == 0 &&
            job_is(job, "fp8-attention", "true") && job_is(job, "precision", "fp8-mixed"))
            snprintf(text, sizeof text, "attention flash in fp8");
        seg(o, KEY_WIDTH, sep, text);
        sep = ", ";
    }
    for (i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (job_is(job, flags[i][0], "true")) {
            seg(o, KEY_WIDTH, sep, flags[i][1]);
            sep = ", ";
        }
    if (job_above_one(job, "lora-rank") || job_is(job, "lora-rank", "1")) {
        snprintf(text, sizeof text, "LoRA rank %s", job_text(job, "lora-rank", v1, sizeof v1));
        seg(o, KEY_WIDTH, sep, text);
        t1 = job_text(job, "quantize-base", v1, sizeof v1);
        if (t1 && t1[0] && strcmp(t1, "none") != 0) {
            snprintf(text, sizeof text, "base in %s", t1);
            seg(o, KEY_WIDTH, ", ", text);
        }
    }
    ts_out_putc(o, '\n');
}

/* The model, the GPUs, the parallel layout, the batch and the training setup. */
static void header(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                   const words *w)
{
    header_model(o, r);
    header_vision(o, job, r);
    header_gpu(o, r, w);
    header_layout(o, r, w);
    header_batch(o, job, r);
    header_training(o, job, r);
    key(o, "Conventions");
    {
        char text[5 * TRAINSIZE_NAME_MAX + 200];
        snprintf(text, sizeof text, "%s (%s); stack %s (%s); kernels %s%s%s", r->framework, r->framework_reason,
                 r->stack, r->stack_reason, r->kernels, r->calibration[0] ? "; site calibration: " : "",
                 r->calibration);
        ts_out_wrapped(o, text, KEY_WIDTH);
    }
    ts_out_putc(o, '\n');
    ts_out_putc(o, '\n');
}

/* ---- memory table ---- */

static void bar(ts_out *o, uint64_t bytes, uint64_t capacity, char fill)
{
    double frac = capacity ? (double)bytes / (double)capacity : (bytes ? 2.0 : 0.0);
    size_t n = frac >= 1.0 ? BAR_WIDTH : (size_t)(frac * BAR_WIDTH + 0.5);

    if (n == 0 && bytes > 0)
        n = 1; /* something, however small, shows */
    ts_out_putc(o, '|');
    ts_out_repeat(o, fill, n);
    ts_out_repeat(o, ' ', BAR_WIDTH - n);
    ts_out_putc(o, '|');
    if (frac > 1.0)
        ts_out_putc(o, '>'); /* beyond the GPU's capacity */
}

static void row(ts_out *o, int level, const char *label, uint64_t bytes, uint64_t capacity,
                int with_bar)
{
    char g[TS_FMT_MAX];

    ts_out_repeat(o, ' ', LABEL_COL + 2 * (size_t)level);
    ts_out_puts(o, label);
    ts_out_pad_to(o, GIB_COL, 1);
    ts_out_puts(o, ts_fmt_gib_col(g, sizeof g, bytes, 10));
    if (capacity) {
        double pct = 100.0 * (double)bytes / (double)capacity;
        if (pct < 99999.95)
            ts_out_printf(o, "%8.1f%%", pct);
        else
            ts_out_puts(o, "  >99999%");
    } else {
        ts_out_puts(o, "        -");
    }
    if (with_bar) {
        ts_out_pad_to(o, BAR_COL, 2);
        bar(o, bytes, capacity, level == 0 ? '#' : '=');
    }
    ts_out_putc(o, '\n');
}

static void rule(ts_out *o)
{
    ts_out_repeat(o, ' ', LABEL_COL);
    ts_out_repeat(o, '-', BAR_COL + BAR_WIDTH + 2 - LABEL_COL);
    ts_out_putc(o, '\n');
}

/* The table: each part of a GPU's memory, its share and a bar. */
static void memory_rows(ts_out *o, const trainsize_result *r, const words *w)
{
    const trainsize_memory *m = &r->memory;
    uint64_t cap = m->gpu_capacity;
    char a[TS_FMT_MAX];

    ts_out_printf(o, "Memory per %s", w->dev);
    ts_out_pad_to(o, GIB_COL + 7, 1);
    ts_out_puts(o, "GiB");
    ts_out_pad_to(o, PCT_COL + 2, 1);
    ts_out_printf(o, "of %s", w->dev);
    ts_out_pad_to(o, BAR_COL, 1);
    ts_out_puts(o, "0%");
    ts_out_pad_to(o, BAR_COL + BAR_WIDTH / 2 - 1, 1);
    ts_out_puts(o, "50%");
    ts_out_pad_to(o, BAR_COL + BAR_WIDTH - 2, 1);
    ts_out_puts(o, "100%\n");

    row(o, 0, "weights", m->weights, cap, 1);
    if (m->reference_weights) row(o, 1, "of which reference model", m->reference_weights, cap, 1);
    if (m->critic_state) row(o, 1, "critic (all its state)", m->critic_state, cap, 1);
    if (m->teacher_weights) row(o, 1, "of which teacher model", m->teacher_weights, cap, 1);
    if (r->reward_weights) row(o, 1, "of which reward model", r->reward_weights, cap, 1);
    if (m->vision_weights) row(o, 1, "of which vision tower", m->vision_weights, cap, 1);
    row(o, 0, "gradients", m->gradients, cap, 1);
    row(o, 0, "optimizer state", m->optimizer, cap, 1);
    row(o, 1, "of which master weights", m->master_weights, cap, 1);
    row(o, 0, "activations", m->activations, cap, 1);
    row(o, 1, "layers", m->activations_layers, cap, 1);
    row(o, 1, "embedding", m->activations_embedding, cap, 1);
    row(o, 1, "output and loss", m->activations_output, cap, 1);
    if (m->activations_vision) row(o, 1, "vision tower", m->activations_vision, cap, 1);
    row(o, 0, "transient", m->transient, cap, 1);
    rule(o);
    row(o, 0, "peak allocated", m->peak_allocated, cap, 1);
    row(o, 0, "overhead", m->overhead, cap, 1);
    row(o, 1, "CUDA context", m->cuda_context, cap, 1);
    row(o, 1, "communication buffers", m->comm_buffers, cap, 1);
    row(o, 1, "allocator slack", m->allocator_slack, cap, 1);
    rule(o);
    row(o, 0, "peak total", m->peak_total, cap, 1);
    snprintf(a, sizeof a, "%s capacity", w->dev);
    row(o, 0, a, cap, cap, 0);
    ts_out_putc(o, '\n');
}

/* The verdict: fits (and the headroom), fits tight, or does not (and by how much). */
static void memory_verdict(ts_out *o, const trainsize_result *r, const words *w)
{
    const trainsize_memory *m = &r->memory;
    uint64_t cap = m->gpu_capacity;
    char a[TS_FMT_MAX], b[TS_FMT_MAX];

    if (m->fits && m->peak_total <= cap) {
        uint64_t head = cap - m->peak_total;
        char c[TS_FMT_MAX];
        ts_out_printf(o, "FITS: peak total %s of %s; headroom %s (%.1f%% of the %s)\n",
                       ts_fmt_iec(a, sizeof a, (double)m->peak_total),
                       ts_fmt_iec(b, sizeof b, (double)cap),
                       ts_fmt_iec(c, sizeof c, (double)head),
                       cap ? 100.0 * (double)head / (double)cap : 0.0, w->dev);
    } else if (m->fits) {
        /* the cache the allocator grows where memory is free is above the capacity, but what
         * the job needs is not: under pressure it releases cached blocks and retries */
        char c[TS_FMT_MAX];
        ts_out_printf(o, "FITS, TIGHT: needs %s of %s; peak total %s counts the allocator's cache,\n"
                         "  which it releases under pressure (needs: the allocated peak, fragmentation,\n"
                         "  the context and buffers)\n",
                       ts_fmt_iec(a, sizeof a, (double)m->peak_needed),
                       ts_fmt_iec(b, sizeof b, (double)cap),
                       ts_fmt_iec(c, sizeof c, (double)m->peak_total));
    } else if (m->peak_needed <= cap) {
        /* the policy's GPUs hold it; the critic's or the reward model's own do not */
        ts_out_printf(o, "DOES NOT FIT: the training GPUs hold it (needs %s of %s), the %s own GPUs\n"
                         "  do not (below)\n",
                      ts_fmt_iec(a, sizeof a, (double)m->peak_needed), ts_fmt_iec(b, sizeof b, (double)cap),
                      r->critic_gpu_peak > cap ? (r->reward_gpu_peak > cap ? "critic's and the reward model's"
                                                                           : "critic's")
                                               : "reward model's");
    } else {
        uint64_t over = m->peak_needed > cap ? m->peak_needed - cap : 0;
        char c[TS_FMT_MAX], d[TS_FMT_MAX];
        ts_out_printf(o, "DOES NOT FIT: needs %s of %s (peak total %s); short by %s\n",
                       ts_fmt_iec(a, sizeof a, (double)m->peak_needed),
                       ts_fmt_iec(b, sizeof b, (double)cap),
                       ts_fmt_iec(c, sizeof c, (double)m->peak_total),
                       ts_fmt_iec(d, sizeof d, (double)over));
    }
}

/* What the figures rest on: the likely range, the largest fit, the rollout engine and side
 * models, the most loaded stage and its phase, what is in flight, offloaded or loading. */
static void memory_notes(ts_out *o, const trainsize_job *job, const trainsize_result *r, const words *w)
{
    const trainsize_memory *m = &r->memory;
    const char *phase = result_text(r, "memory.peak_phase");
    char a[TS_FMT_MAX], b[TS_FMT_MAX];

    {
        /* how sure: the band of the job's validation class (the basis is in the time section) */
        const trainsize_uncertainty *u = &r->uncertainty;
        ts_out_printf(o, "  likely peak total: %s to %s (the estimate x %.2f to %.2f)\n",
                      ts_fmt_iec(a, sizeof a, (double)m->peak_total * u->memory_low),
                      ts_fmt_iec(b, sizeof b, (double)m->peak_total * u->memory_high), u->memory_low,
                      u->memory_high);
    }
    ts_report_largest_fit(o, job, r);
    if (m->rollout_weights) {
        char c[TS_FMT_MAX];
        ts_out_printf(o, "  rollout engine: %s weights + %s KV cache, %s\n",
                      ts_fmt_iec(a, sizeof a, (double)m->rollout_weights),
                      ts_fmt_iec(c, sizeof c, (double)m->rollout_kv_cache),
                      r->system.rollout_nodes ? "on the engines' own GPUs"
                      : job_is(job, "rollout-sleep", "true") ? "freed while training" : "kept while training");
    }
    ts_report_side_memory(o, job, r, w->dev);
    ts_out_printf(o, "  most loaded %s: pipeline stage %d", w->dev, m->pipeline_stage);
    if (phase)
        ts_out_printf(o, "; peak during: %.40s", phase);
    ts_out_putc(o, '\n');
    /* Which rows make up the peak: the rows above are the parts, not all live at once. */
    ts_out_printf(o, "  peak allocated = weights + optimizer state%s%s + transient\n",
                   m->peak_includes_gradients ? " + gradients" : "",
                   m->peak_includes_activations ? " + activations" : "");
    ts_out_printf(o, "  activations of %.2f micro-batch%s in flight; one layer of one: %s\n",
                   m->in_flight_microbatches, m->in_flight_microbatches == 1.0 ? "" : "es",
                   ts_fmt_iec(a, sizeof a, (double)m->activations_per_layer));
    if (m->host_offload && m->activations_offloaded)
        ts_out_printf(o, "  offloaded to host memory: %s per %s, of which activations %s\n",
                       ts_fmt_iec(a, sizeof a, (double)m->host_offload), w->dev,
                       ts_fmt_iec(b, sizeof b, (double)m->activations_offloaded));
    else if (m->host_offload)
        ts_out_printf(o, "  offloaded to host memory: %s per %s\n",
                       ts_fmt_iec(a, sizeof a, (double)m->host_offload), w->dev);
    if (m->loading_peak)
        ts_out_printf(o, "  loading the weights: %s on the %s at most (before sharding, casting "
                          "or quantizing)\n",
                       ts_fmt_iec(a, sizeof a, (double)m->loading_peak), w->dev);
    ts_out_putc(o, '\n');
}

static void memory_table(ts_out *o, const trainsize_job *job, const trainsize_result *r, const words *w)
{
    memory_rows(o, r, w);
    memory_verdict(o, r, w);
    memory_notes(o, job, r, w);
}

/* ---- fit advice ---- */

static void advice_section(ts_out *o, const trainsize_advice *advice, size_t n)
{
    char a[TS_FMT_MAX], set[256];
    size_t i, k, used;

    if (!n)
        return;
    ts_out_puts(o, "To make it fit (each a full estimate of the changed job, least disruptive first):\n");
    for (i = 0; i < n; i++) {
        used = 0;
        set[0] = '\0';
        for (k = 0; k < advice[i].settings && used < sizeof set; k++)
            used += (size_t)snprintf(set + used, sizeof set - used, "%s--%s %s", k ? " " : "",
                                     advice[i].names[k], advice[i].values[k]);
        if (used > 58) /* a long change gets its own line */
            ts_out_printf(o, "  %s\n  %-58s", set, "");
        else
            ts_out_printf(o, "  %-58s", set);
        ts_out_printf(o, " %9s  %.2f s per step\n",
                       ts_fmt_iec(a, sizeof a, (double)advice[i].peak_total), advice[i].step_seconds);
    }
    ts_out_putc(o, '\n');
}

/* ---- system and time ---- */

static void rate_text(char *buf, size_t cap, uint64_t bytes_per_s)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX];

    snprintf(buf, cap, "%s (%s)", ts_fmt_si(a, sizeof a, (double)bytes_per_s, "B/s"),
             ts_fmt_si(b, sizeof b, 8.0 * (double)bytes_per_s, "bit/s"));
}

/* Whether the servers are the product's own hosts, sold with their RAM, cores and NICs (a
 * TPU VM, a Grace tray): then those are the servers, checked against the job. */
static int sold_host(const trainsize_result *r, const trainsize_gpu_info *g)
{
    return g && g->host_ram_bytes && g->per_host > 0 &&
           r->system.gpus_per_node == (uint64_t)g->per_host;
}

/* "enough" or "short by X" (bytes), for what was given against the need. */
static void verdict_bytes(para *t, uint64_t have, uint64_t need)
{
    char a[TS_FMT_MAX];
    if (have >= need)
        add(t, "enough");
    else
        add(t, "short by %s", nb(ts_fmt_iec(a, sizeof a, (double)(need - have))));
}

/* Host RAM: the server given (or sold) against the job's need; else the recommendation and
 * why (host-ram-factor x the server's GPU memory, or the job's own need). */
static void host_ram_line(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                          const trainsize_gpu_info *g, const words *w)
{
    const trainsize_system *s = &r->system;
    uint64_t given = job_u64(job, "host-ram"), need = s->host_ram_need_per_node;
    /* The rule is about the GPU memory a server is sold with: the label (or gpu-memory). */
    uint64_t label = job_u64(job, "gpu-memory") ? job_u64(job, "gpu-memory") : g ? g->memory_bytes : 0;
    double factor = job_f64(job, "host-ram-factor");
    double vram = (double)label * (double)s->gpus_per_node, rule = factor * vram;
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX], d[TS_FMT_MAX];
    para t = {{0}, 0};

    key(o, w->ram_key);
    if (given || sold_host(r, g)) {
        uint64_t have = given ? given : s->host_ram_per_node;
        add(&t, "%s, %s; the job needs %s: ", nb(ts_fmt_iec(a, sizeof a, (double)have)),
            given ? "as given" : "the host as sold", nb(ts_fmt_iec(b, sizeof b, (double)need)));
        verdict_bytes(&t, have, need);
        if (r->warnings & TRAINSIZE_WARN_HOST_RAM_RULE)
            add(&t, "; below the %g x %s memory rule (%s): %s recommended", factor, w->dev,
                nb(ts_fmt_iec(a, sizeof a, rule)),
                nb(ts_fmt_iec(b, sizeof b, (double)s->host_ram_per_node)));
    } else if (label && (double)need <= rule) {
        add(&t, "%s recommended: %g x the %s's %s of %s memory (%s), rounded up to a size %ss "
                "are sold with; the job needs %s",
            nb(ts_fmt_iec(a, sizeof a, (double)s->host_ram_per_node)), factor, w->server,
            nb(ts_fmt_iec(b, sizeof b, vram)), w->dev, nb(ts_fmt_iec(c, sizeof c, rule)), w->server,
            nb(ts_fmt_iec(d, sizeof d, (double)need)));
    } else if (label) {
        add(&t, "%s recommended: the job's need, %s, rounded up to a size %ss are sold with "
                "(above %g x the %s's %s of %s memory)",
            nb(ts_fmt_iec(a, sizeof a, (double)s->host_ram_per_node)),
            nb(ts_fmt_iec(b, sizeof b, (double)need)), w->server, factor, w->server,
            nb(ts_fmt_iec(c, sizeof c, vram)), w->dev);
    } else { /* a device of the caller's description: its label is not at hand here */
        add(&t, "%s recommended: the larger of %g x the %s's %s memory and the job's need (%s), "
                "rounded up to a size %ss are sold with",
            nb(ts_fmt_iec(a, sizeof a, (double)s->host_ram_per_node)), factor, w->server, w->dev,
            nb(ts_fmt_iec(b, sizeof b, (double)need)), w->server);
    }
    para_out(o, &t, KEY_WIDTH);
}

/* CPU cores: the server given (or sold) against the need; else the need and why. */
static void cpu_cores_line(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                           const trainsize_gpu_info *g, const words *w)
{
    const trainsize_system *s = &r->system;
    uint64_t given = job_u64(job, "cpu-cores");
    char a[TS_FMT_MAX], b[TS_FMT_MAX];
    para t = {{0}, 0};

    key(o, w->cores_key);
    if (sold_host(r, g)) {
        /* The count is the host's (or the one given); the result holds no separate need. */
        add(&t, "%s, %s: %s", nb(ts_fmt_thousands(a, sizeof a, s->cpu_cores_per_node)),
            given ? "as given" : "the host as sold",
            r->warnings & TRAINSIZE_WARN_CPU_CORES ? "short of the job's need" : "enough");
    } else if (given) {
        add(&t, "%s, as given; the job needs %s: ", nb(ts_fmt_thousands(a, sizeof a, given)),
            nb(ts_fmt_thousands(b, sizeof b, s->cpu_cores_per_node)));
        if (given >= s->cpu_cores_per_node)
            add(&t, "enough");
        else
            add(&t, "short by %s", nb(ts_fmt_thousands(a, sizeof a, s->cpu_cores_per_node - given)));
    } else {
        add(&t, "%s needed: one per data-loader worker and per training process (8 at least)",
            nb(ts_fmt_thousands(a, sizeof a, s->cpu_cores_per_node)));
    }
    para_out(o, &t, KEY_WIDTH);
}

/* "57x" (whole above 10) or "1.4x". */
static void ratio_text(para *t, double ratio)
{
    if (ratio >= 10.0 && ratio < 1e15)
        add(t, "%llux", (unsigned long long)ratio);
    else
        add(t, "%.1fx", ratio);
}

/* Between servers: the rate the step needs per server, then the link apart (NICs x
 * catalogue rate = capacity), where it comes from and whether it is enough. */
static void network_line(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                         const trainsize_gpu_info *g, const words *w)
{
    const trainsize_system *s = &r->system;
    const trainsize_link_info *l = s->network_link[0] ? trainsize_link_find(s->network_link) : NULL;
    char given[TRAINSIZE_NAME_MAX], a[TS_FMT_MAX], b[TS_FMT_MAX];
    const char *net = job_text(job, "network", given, sizeof given);
    int set = net && net[0];
    int sold = !set && sold_host(r, g) && g->host_network && g->host_network[0];
    int short_net = (r->warnings & TRAINSIZE_WARN_NETWORK) != 0;
    double need = (double)s->interconnect_rate_per_node;
    double cap = l ? (double)s->network_nics_per_node * (double)l->bandwidth : 0.0;
    para t = {{0}, 0};

    key(o, w->between_key);
    if (s->nodes <= 1 || !s->network_link[0]) {
        /* Several servers and no link: the scale-up fabric (NVL72, a TPU slice) spans them. */
        add(&t, s->nodes <= 1 ? "none needed (one %s" : "none on the network: the scale-up fabric "
                                                       "(NVLink, ICI) joins the %ss",
            w->server);
        if (set) add(&t, "%sthe %.31s given is not used", s->nodes <= 1 ? "; " : "; ", net);
        if (s->nodes <= 1) add(&t, ")");
        para_out(o, &t, KEY_WIDTH);
        return;
    }
    if (need > 0)
        add(&t, "needs %s (%s) per %s", nb(ts_fmt_si(a, sizeof a, need, "B/s")),
            nb(ts_fmt_si(b, sizeof b, 8.0 * need, "bit/s")), w->server);
    else
        add(&t, "no data-parallel traffic");
    add(&t, "; link %llu x %.31s", (unsigned long long)s->network_nics_per_node, s->network_link);
    if (l)
        add(&t, " = %s (%s)", nb(ts_fmt_si(a, sizeof a, cap, "B/s")),
            nb(ts_fmt_si(b, sizeof b, 8.0 * cap, "bit/s")));
    if (set || sold) {
        add(&t, ", %s: ", set ? "as given" : "the host's as sold");
        if (short_net && cap > 0 && need > cap) {
            ratio_text(&t, need / cap);
            add(&t, " short");
        } else if (short_net) {
            add(&t, "too slow: more than %g%% of a step's communication stays exposed",
                100.0 * job_f64(job, "comm-share"));
        } else {
            add(&t, "enough");
        }
    } else if (short_net) {
        add(&t, ", chosen: the fastest in the catalogue, still too slow for the step");
        if (cap > 0 && need > cap) {
            add(&t, " (");
            ratio_text(&t, need / cap);
            add(&t, " short)");
        }
    } else {
        add(&t, ", chosen: the slowest that keeps exposed communication under %g%% of a step",
            100.0 * job_f64(job, "comm-share"));
    }
    para_out(o, &t, KEY_WIDTH);
}

/* Storage: capacity, then the class given (its rates against the needs and a verdict) or
 * the class chosen. */
static void storage_line(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                         const words *w)
{
    const trainsize_system *s = &r->system;
    const trainsize_storage_info *st = s->storage_class[0] ? trainsize_storage_find(s->storage_class) : NULL;
    char given[TRAINSIZE_NAME_MAX], a[TS_FMT_MAX], b[TS_FMT_MAX];
    const char *set = job_text(job, "storage", given, sizeof given);
    double nodes = s->nodes ? (double)s->nodes : 1.0;
    double read = (double)s->storage_read_rate / nodes, write = (double)s->checkpoint_write_rate;
    para t = {{0}, 0};

    key(o, "  storage");
    add(&t, "%s for dataset and checkpoints; ",
        nb(ts_fmt_si(a, sizeof a, (double)s->storage_capacity, "B")));
    if (!st) {
        add(&t, "no class in the catalogue meets the read and checkpoint rates");
    } else if (set && set[0]) {
        const char *sep = ": ";
        /* Several servers need one namespace: a local drive does not serve them. */
        int unshared = s->nodes > 1 && !st->shared;
        add(&t, "class %.31s, as given (reads %s, writes %s per %s): ", st->name,
            nb(ts_fmt_si(a, sizeof a, (double)st->read_rate, "B/s")),
            nb(ts_fmt_si(b, sizeof b, (double)st->write_rate, "B/s")), w->server);
        if (!(r->warnings & TRAINSIZE_WARN_STORAGE) && !unshared) {
            add(&t, "enough");
        } else {
            /* Why, in the order the estimate checks it. */
            add(&t, "short");
            if ((double)st->read_rate < read) {
                add(&t, "%sreads slower than the job needs", sep);
                sep = "; ";
            }
            if ((double)st->write_rate < write) {
                add(&t, "%swrites a checkpoint slower than the target", sep);
                sep = "; ";
            }
            if (unshared) {
                add(&t, "%sa local drive serves one %s, not" "\x1f" "%llu", sep, w->server,
                    (unsigned long long)s->nodes);
                sep = "; ";
            }
            if ((st->aggregate_read_rate && (double)st->aggregate_read_rate < (double)s->storage_read_rate) ||
                (st->aggregate_write_rate &&
                 (double)st->aggregate_write_rate < (double)s->checkpoint_write_rate_total))
                add(&t, "%sall %ss together need more than one deployment serves", sep, w->server);
        }
    } else if (s->nodes > 1) {
        add(&t, "class %.31s, chosen: the first shared storage (a restart reads the checkpoint from "
            "any %s) that meets the read and checkpoint rates", st->name, w->server);
    } else {
        add(&t, "class %.31s, chosen: the slowest local NVMe that meets the read and checkpoint rates",
            st->name);
    }
    if (s->nodes > 1 && s->local_storage_class[0])
        add(&t, "; and %.31s in every %s as cache and scratch", s->local_storage_class, w->server);
    if (s->nodes > 1)
        add(&t, strcmp(s->dataset_source, "local-cache") == 0
                    ? "; the dataset fits each %s's cache (local-cache-bytes): staged once, read there"
                    : "; the dataset is read from the shared storage (larger than each %s's cache)",
            w->server);
    para_out(o, &t, KEY_WIDTH);
}

static void system_section(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                           const words *w)
{
    const trainsize_system *s = &r->system;
    const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
    char a[TS_FMT_MAX], b[TS_FMT_MAX], t[3 * TS_FMT_MAX];

    ts_out_puts(o, "System\n");
    key(o, w->servers_key);
    ts_out_printf(o, "%s x %s %s%s", ts_fmt_thousands(a, sizeof a, s->nodes),
                   ts_fmt_thousands(b, sizeof b, s->gpus_per_node), w->dev,
                   s->gpus_per_node == 1 ? "" : "s");
    if (s->rollout_nodes) /* rollout separate: the engines' servers, priced and powered too */
        ts_out_printf(o, " training, and %s more for the rollout engines (%s %s%s)",
                      ts_fmt_thousands(a, sizeof a, s->rollout_nodes),
                      ts_fmt_thousands(b, sizeof b, job_u64(job, "rollout-gpus")), w->dev,
                      job_u64(job, "rollout-gpus") == 1 ? "" : "s");
    ts_out_putc(o, '\n');
    ts_report_side_servers(o, job, r, w->dev);
    host_ram_line(o, job, r, g, w);
    cpu_cores_line(o, job, r, g, w);
    key(o, w->d2d_key);
    if (s->intra_node_rate_per_gpu == 0) {
        ts_out_printf(o, "no traffic inside a %s\n", w->server);
    } else {
        /* what the step needs, beside what the part's own link gives (a number alone read
         * as the link's speed: 32 GB/s on an NVLink of 300) */
        char line[8 * TS_FMT_MAX], link[3 * TS_FMT_MAX];
        rate_text(t, sizeof t, s->intra_node_rate_per_gpu);
        link[0] = '\0';
        if (g && g->scale_up_bandwidth) rate_text(link, sizeof link, g->scale_up_bandwidth / 2);
        snprintf(line, sizeof line, "%s per %s, per direction, needed%s%s", t, w->dev,
                 link[0] ? "; its link gives " : "", link);
        ts_out_wrapped(o, line, KEY_WIDTH);
        ts_out_putc(o, '\n');
    }
    network_line(o, job, r, g, w);
    storage_line(o, job, r, w);
    key(o, "");
    rate_text(t, sizeof t, s->storage_read_rate);
    ts_out_printf(o, "read %s to feed the %ss\n", t, w->dev);
    key(o, "  checkpoints");
    {
        para c = {{0}, 0};
        rate_text(t, sizeof t, s->checkpoint_write_rate);
        add(&c, "%s each; written at %s per %s", nb(ts_fmt_si(a, sizeof a, (double)s->checkpoint_bytes, "B")),
            t, w->server);
        if (s->nodes > 1)
            add(&c, ", %s in all", nb(ts_fmt_si(b, sizeof b, (double)s->checkpoint_write_rate_total, "B/s")));
        para_out(o, &c, KEY_WIDTH);
    }
    key(o, "  power");
    ts_out_printf(o, "%s per %s, %s in all", ts_fmt_si(a, sizeof a, s->power_per_node_watts, "W"),
                   w->server, ts_fmt_si(b, sizeof b, s->power_watts, "W"));
    ts_out_printf(o, "; heat %s\n", ts_fmt_si(a, sizeof a, s->heat_btu_per_hour, "BTU/h"));
    key(o, "  energy");
    ts_out_printf(o, "%s", ts_fmt_si(a, sizeof a, s->energy_kwh * 1000.0, "Wh"));
    if (s->co2_kg >= 1000.0)
        ts_out_printf(o, " (PUE included); %.1f t CO2e\n", s->co2_kg / 1000.0);
    else if (s->co2_kg >= 1.0)
        ts_out_printf(o, " (PUE included); %.1f kg CO2e\n", s->co2_kg);
    else /* one optimizer step: grams, not "0.0 kg" */
        ts_out_printf(o, " (PUE included); %.2g g CO2e\n", s->co2_kg * 1000.0);
    key(o, "  cost");
    if (s->cost_cloud_usd > 0)
        ts_out_printf(o, "cloud %s", ts_fmt_usd(a, sizeof a, s->cost_cloud_usd));
    else
        ts_out_puts(o, "cloud: no price (--gpu-hour-usd, --gpu-prices)");
    if (s->cost_own_usd > 0) {
        char own[4 * TS_FMT_MAX + 64];
        char f[TS_FMT_MAX];
        snprintf(own, sizeof own, "owned %s (%ss, %ss, network, storage, support: %s; facility: %s; "
                 "power: %s)",
                 ts_fmt_usd(a, sizeof a, s->cost_own_usd), w->dev, w->server,
                 ts_fmt_usd(b, sizeof b, s->cost_own_hardware_usd),
                 ts_fmt_usd(f, sizeof f, s->cost_own_facility_usd),
                 ts_fmt_usd(t, sizeof t, s->cost_own_power_usd));
        ts_out_puts(o, "; ");
        ts_out_wrapped(o, own, KEY_WIDTH); /* wrapped, never clipped */
        ts_out_putc(o, '\n');
    } else {
        ts_out_puts(o, "; ");
        ts_out_wrapped(o, "owned: no price (--gpu-price-usd, --gpu-prices)", KEY_WIDTH);
        ts_out_putc(o, '\n');
    }
    ts_out_putc(o, '\n');
}

/* The checklist: one line per warning that applies. */
static void warnings_section(ts_out *o, const trainsize_result *r)
{
    int bit;
    if (r->warnings == 0) return;
    ts_out_puts(o, "Warnings\n");
    for (bit = 0; bit < 64; bit++) {
        const char *text = ts_warning_text(UINT64_C(1) << bit);
        if ((r->warnings & (UINT64_C(1) << bit)) && text) {
            ts_out_puts(o, "  - ");
            ts_out_wrapped(o, text, 4);
            ts_out_putc(o, '\n');
        }
    }
    ts_out_putc(o, '\n');
}

static void time_section(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                         const words *w)
{
    const trainsize_time *t = &r->time;
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX];

    ts_out_puts(o, "Time\n");
    key(o, "  compute");
    ts_out_printf(o, "%.3e FLOP in all; %.3e FLOP per step\n", t->flops, t->step_flops);
    key(o, "  steps");
    if (t->tokens >= 0.0 && t->tokens < 1e18 && t->tokens == (double)(uint64_t)t->tokens)
        ts_fmt_thousands(b, sizeof b, (uint64_t)t->tokens);
    else
        snprintf(b, sizeof b, "%.3e", t->tokens);
    ts_out_printf(o, "%s step%s of %s; %s %s\n", ts_fmt_thousands(a, sizeof a, t->steps),
                   t->steps == 1 ? "" : "s", ts_fmt_duration(c, sizeof c, t->step_seconds), b,
                   job_u64(job, "resnet-depth") ? "images" : "tokens"); /* a ResNet's sample is an image */
    {
        /* end to end, as published runs report it: of the dense 16-bit peak */
        const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
        double peak = g ? (g->flops_bf16 > 0.0 ? g->flops_bf16 : g->flops_fp16) : 0.0;
        double denom = t->step_seconds * (double)t->steps * (double)r->gpus * peak;
        if (denom > 0.0 && t->steps > 0) {
            key(o, "  utilisation");
            ts_out_printf(o, "MFU %.1f %%, HFU %.1f %% of the %.0f TFLOP/s dense 16-bit peak, end to end\n",
                          100.0 * t->model_flops / denom, 100.0 * t->flops / denom, peak / 1e12);
        }
    }
    if (t->comm_seconds > 0) {
        key(o, "  communication");
        ts_out_printf(o, "%s per step not hidden by compute (included)\n",
                       ts_fmt_duration(a, sizeof a, t->comm_seconds));
    }
    if (t->overhead_seconds > 0) {
        /* the host-side cost, worked out from the job unless step-overhead was given */
        key(o, "  host side");
        ts_out_printf(o, "%s per step: %s (included)\n", ts_fmt_duration(a, sizeof a, t->overhead_seconds),
                      job_is(job, "step-overhead", "0") ? "launches not hidden, the step's sync"
                                                         : "step-overhead as given");
    }
    if (t->rollout_seconds > 0) rollout_time(o, job, r);
    ts_report_side_time(o, r);
    if (t->offload_seconds > 0) {
        key(o, "  CPU offload");
        ts_out_printf(o, "%s per step not hidden by compute (included)\n",
                       ts_fmt_duration(a, sizeof a, t->offload_seconds));
    }
    key(o, "  total");
    if (t->seconds >= 3600.0 && t->seconds < 1e12)
        ts_out_printf(o, "%.1f hours = %.2f days", t->seconds / 3600.0, t->seconds / 86400.0);
    else if (t->seconds >= 1e12)
        ts_out_printf(o, "%.3e hours = %.3e days", t->seconds / 3600.0, t->seconds / 86400.0);
    else
        ts_out_puts(o, ts_fmt_duration(a, sizeof a, t->seconds));
    if (t->steps == 1 && job_is(job, "tokens", "0") && job_f64(job, "epochs") == 0.0)
        ts_out_puts(o, " (one optimizer step; --tokens N sizes a whole training run)");
    else
        ts_out_puts(o, " on a cluster that never fails");
    ts_out_putc(o, '\n');
    {
        /* how sure: the band of the job's validation class, and which */
        const trainsize_uncertainty *u = &r->uncertainty;
        char text[TS_FMT_MAX * 4 + sizeof u->basis + 160];
        char d[TS_FMT_MAX];
        key(o, "  likely");
        ts_fmt_duration(a, sizeof a, t->step_seconds * u->time_low);
        ts_fmt_duration(b, sizeof b, t->step_seconds * u->time_high);
        if (t->steps == 1) /* the run is the step: said once */
            snprintf(text, sizeof text, "%s to %s a step (the estimate x %.2f to %.2f)", a, b, u->time_low,
                     u->time_high);
        else
            snprintf(text, sizeof text, "%s to %s a step; %s to %s in all (the estimate x %.2f to %.2f)", a, b,
                     ts_fmt_duration(c, sizeof c, t->seconds * u->time_low),
                     ts_fmt_duration(d, sizeof d, t->seconds * u->time_high), u->time_low, u->time_high);
        ts_out_wrapped(o, text, TS_REPORT_KEY_WIDTH);
        ts_out_putc(o, '\n');
        key(o, "  how sure");
        snprintf(text, sizeof text, "80 %% or more of the published runs of the class fell in such a band "
                 "(each predicted without its own source): %s", u->basis);
        ts_out_wrapped(o, text, TS_REPORT_KEY_WIDTH);
        ts_out_putc(o, '\n');
    }
    ts_report_goodput(o, job, r, w->dev);
}

static void build_report(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                         const trainsize_advice *advice, size_t n)
{
    const words *w = words_of(trainsize_gpu_find(r->gpu));

    header(o, job, r, w);
    memory_table(o, job, r, w);
    advice_section(o, advice, n);
    system_section(o, job, r, w);
    ts_report_facility(o, r, w->server);
    ts_report_buy_or_rent(o, job, r);
    time_section(o, job, r, w);
    ts_out_putc(o, '\n');
    warnings_section(o, r);
}

int trainsize_report(const trainsize_job *job, const trainsize_result *result,
                     const trainsize_advice *advice, size_t advice_count, char *buf, size_t cap,
                     trainsize_error *err)
{
    ts_out o;
    /* printf's numbers follow LC_NUMERIC: the C locale for this thread while the report is
     * built (a program's setlocale changes nothing), then the caller's again. */
    locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t before = c_locale ? uselocale(c_locale) : (locale_t)0;
    size_t len;
    if (!job || !result || (!buf && cap) || (!advice && advice_count)) {
        if (c_locale) {
            uselocale(before);
            freelocale(c_locale);
        }
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_report: NULL job, result, buffer or advice");
    }
    ts_out_init(&o);
    build_report(&o, job, result, advice, advice_count);
    if (c_locale) {
        uselocale(before);
        freelocale(c_locale);
    }
    if (o.failed || !c_locale || o.len > (size_t)TRAINSIZE_REPORT_MAX_BYTES) {
        ts_out_free(&o);
        return ts_fail(err, TRAINSIZE_E_NOMEM, "", "trainsize_report: out of memory");
    }
    len = o.len;
    if (cap) {
        size_t copy = len < cap ? len : cap - 1;
        memcpy(buf, o.data, copy);
        buf[copy] = '\0';
    }
    ts_out_free(&o);
    ts_ok(err);
    return (int)len;
}

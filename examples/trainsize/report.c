/* The human report of an estimate: a header, the per-GPU memory table with bars against
 * the GPU's capacity, the verdict, then the system and the time. ASCII only, and no line
 * longer than CLI_COLUMNS. */
#include "cli.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GIB 1073741824.0

/* Memory table geometry. */
#define LABEL_COL 2   /* labels start here */
#define GIB_COL 30    /* the GiB column starts here (10 wide) */
#define PCT_COL 40    /* the percentage column (9 wide) */
#define BAR_COL 51    /* the bar: '|' + BAR_WIDTH + '|' */
#define BAR_WIDTH 40
#define KEY_WIDTH 24  /* key column of the header and of the system and time sections */

/* A job parameter in its text form, or NULL when the library has no such parameter. */
static const char *job_text(const trainsize_job *job, const char *name, char *buf, size_t cap)
{
    int n = trainsize_job_get(job, name, buf, cap, NULL);
    return n >= 0 ? buf : NULL;
}

static int job_is(const trainsize_job *job, const char *name, const char *value)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && strcmp(t, value) == 0;
}

/* Whether a numeric job parameter is set to something other than "", "0" or "1". */
static int job_above_one(const trainsize_job *job, const char *name)
{
    char buf[64];
    const char *t = job_text(job, name, buf, sizeof buf);
    return t && t[0] && strtod(t, NULL) > 1.0;
}

/* Append a segment, starting a new line at `indent` when it would pass the width. */
static void seg(cli_out *o, size_t indent, const char *sep, const char *text)
{
    size_t col = cli_out_column(o);

    if (col > indent && col + strlen(sep) + strlen(text) > CLI_COLUMNS) {
        cli_out_putc(o, '\n');
        cli_out_repeat(o, ' ', indent);
    } else if (col > indent) {
        cli_out_puts(o, sep);
    }
    cli_out_clipped(o, text, CLI_COLUMNS - indent);
}

static void key(cli_out *o, const char *k)
{
    cli_out_puts(o, k);
    cli_out_pad_to(o, KEY_WIDTH, 1);
}

/* ---- header ---- */

static void param_segment(cli_out *o, const char *what, uint64_t v)
{
    char n[CLI_FMT_MAX], s[CLI_FMT_MAX], text[3 * CLI_FMT_MAX];

    snprintf(text, sizeof text, "%s %s (%s)", cli_fmt_thousands(n, sizeof n, v), what,
             cli_fmt_count(s, sizeof s, v));
    seg(o, KEY_WIDTH, "; ", text);
}

static void header_model(cli_out *o, const trainsize_result *r)
{
    cli_out_printf(o, "trainsize %s: what it takes to train ", trainsize_version_string());
    cli_out_clipped(o, r->model.name, 40);
    cli_out_puts(o, "\n\n");

    key(o, "Model");
    cli_out_clipped(o, r->model.name, CLI_COLUMNS - KEY_WIDTH);
    cli_out_putc(o, '\n');
    key(o, "Parameters");
    param_segment(o, "total", r->model.parameters);
    param_segment(o, "trainable", r->model.trainable_parameters);
    param_segment(o, "active per token", r->model.active_parameters);
    if (r->model.mtp_parameters)
        param_segment(o, "in multi-token prediction, trained too", r->model.mtp_parameters);
    cli_out_putc(o, '\n');
}

static void header_gpu(cli_out *o, const trainsize_result *r)
{
    const trainsize_gpu_info *g = trainsize_gpu_find(r->gpu);
    char a[CLI_FMT_MAX], text[2 * CLI_FMT_MAX + 128];

    key(o, "GPU");
    snprintf(text, sizeof text, "%s x %s", cli_fmt_thousands(a, sizeof a, r->gpus), r->gpu);
    seg(o, KEY_WIDTH, "", text);
    if (g && g->full_name)
        seg(o, KEY_WIDTH, ": ", g->full_name);
    snprintf(text, sizeof text, "%s each", cli_fmt_iec(a, sizeof a, (double)r->memory.gpu_capacity));
    if (g && g->usable_bytes && r->memory.gpu_capacity == g->usable_bytes) {
        char l[CLI_FMT_MAX];
        snprintf(text, sizeof text, "%s usable each (label %s)", a,
                 cli_fmt_iec(l, sizeof l, (double)g->memory_bytes));
    }
    seg(o, KEY_WIDTH, ", ", text);
    cli_out_putc(o, '\n');
}

static void header_layout(cli_out *o, const trainsize_result *r)
{
    const trainsize_layout *l = &r->layout;
    const struct { uint64_t degree; const char *name; int always; } degrees[] = {
        {l->tp, "tensor", 1}, {l->pp, "pipeline", 1}, {l->cp, "context", 0}, {l->ep, "expert", 0}};
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX], text[2 * CLI_FMT_MAX + 128];
    size_t i;

    key(o, "Layout");
    snprintf(text, sizeof text, "%s node%s x %s GPU%s",
             cli_fmt_thousands(a, sizeof a, r->system.nodes), r->system.nodes == 1 ? "" : "s",
             cli_fmt_thousands(b, sizeof b, r->system.gpus_per_node),
             r->system.gpus_per_node == 1 ? "" : "s");
    seg(o, KEY_WIDTH, "", text);
    snprintf(text, sizeof text, "data parallel %s", cli_fmt_thousands(a, sizeof a, r->data_parallel));
    seg(o, KEY_WIDTH, "; ", text);
    for (i = 0; i < sizeof degrees / sizeof degrees[0]; i++) {
        if (degrees[i].always || degrees[i].degree > 1) {
            snprintf(text, sizeof text, "%s %s", degrees[i].name,
                     cli_fmt_thousands(a, sizeof a, degrees[i].degree));
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
        snprintf(text, sizeof text, "interleave %s", cli_fmt_thousands(a, sizeof a, l->pp_interleave));
        seg(o, KEY_WIDTH, ", ", text);
    }
    if (l->sp) seg(o, KEY_WIDTH, ", ", "sequence parallel");
    snprintf(text, sizeof text, "ZeRO %llu", (unsigned long long)l->zero);
    seg(o, KEY_WIDTH, "; ", text);
    cli_out_putc(o, '\n');
}

static void header_batch(cli_out *o, const trainsize_job *job, const trainsize_result *r)
{
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX], text[2 * CLI_FMT_MAX + 128], v[64];
    const char *seq = job_text(job, "seq", v, sizeof v);

    key(o, "Batch");
    snprintf(text, sizeof text, "micro-batch %s x %s tokens",
             cli_fmt_thousands(a, sizeof a, r->layout.micro_batch),
             cli_fmt_thousands(b, sizeof b, seq ? strtoull(seq, NULL, 10) : 0));
    seg(o, KEY_WIDTH, "", text);
    snprintf(text, sizeof text, "gradient accumulation %s",
             cli_fmt_thousands(a, sizeof a, r->gradient_accumulation));
    seg(o, KEY_WIDTH, "; ", text);
    snprintf(text, sizeof text, "global batch %s sample%s",
             cli_fmt_thousands(b, sizeof b, r->layout.global_batch),
             r->layout.global_batch == 1 ? "" : "s");
    seg(o, KEY_WIDTH, "; ", text);
    cli_out_putc(o, '\n');
}

static void header_training(cli_out *o, const trainsize_job *job)
{
    static const char *const setup[][2] = {{"precision", ""},
                                           {"optimizer", ""},
                                           {"recompute", "recompute "},
                                           {"attention", "attention "},
                                           {"offload", "offload "}};
    char text[256], v1[64];
    const char *t1, *sep = "";
    size_t i;

    key(o, "Training");
    for (i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        t1 = job_text(job, setup[i][0], v1, sizeof v1);
        if (!t1 || !t1[0] || (strcmp(setup[i][0], "offload") == 0 && strcmp(t1, "none") == 0))
            continue;
        snprintf(text, sizeof text, "%s%s", setup[i][1], t1);
        seg(o, KEY_WIDTH, sep, text);
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
    cli_out_putc(o, '\n');
}

/* The model, the GPUs, the parallel layout, the batch and the training setup. */
static void header(cli_out *o, const trainsize_job *job, const trainsize_result *r)
{
    header_model(o, r);
    header_gpu(o, r);
    header_layout(o, r);
    header_batch(o, job, r);
    header_training(o, job);
    key(o, "Conventions");
    {
        char text[2 * TRAINSIZE_NAME_MAX + 160];
        snprintf(text, sizeof text, "%s (%s)", r->framework, r->framework_reason);
        cli_out_wrapped(o, text, KEY_WIDTH);
    }
    cli_out_putc(o, '\n');
    cli_out_putc(o, '\n');
}

/* ---- memory table ---- */

static void bar(cli_out *o, uint64_t bytes, uint64_t capacity, char fill)
{
    double frac = capacity ? (double)bytes / (double)capacity : (bytes ? 2.0 : 0.0);
    size_t n = frac >= 1.0 ? BAR_WIDTH : (size_t)(frac * BAR_WIDTH + 0.5);

    if (n == 0 && bytes > 0)
        n = 1; /* something, however small, shows */
    cli_out_putc(o, '|');
    cli_out_repeat(o, fill, n);
    cli_out_repeat(o, ' ', BAR_WIDTH - n);
    cli_out_putc(o, '|');
    if (frac > 1.0)
        cli_out_putc(o, '>'); /* beyond the GPU's capacity */
}

static void row(cli_out *o, int level, const char *label, uint64_t bytes, uint64_t capacity,
                int with_bar)
{
    char g[CLI_FMT_MAX];

    cli_out_repeat(o, ' ', LABEL_COL + 2 * (size_t)level);
    cli_out_puts(o, label);
    cli_out_pad_to(o, GIB_COL, 1);
    cli_out_puts(o, cli_fmt_gib_col(g, sizeof g, bytes, 10));
    if (capacity) {
        double pct = 100.0 * (double)bytes / (double)capacity;
        if (pct < 99999.95)
            cli_out_printf(o, "%8.1f%%", pct);
        else
            cli_out_puts(o, "  >99999%");
    } else {
        cli_out_puts(o, "        -");
    }
    if (with_bar) {
        cli_out_pad_to(o, BAR_COL, 2);
        bar(o, bytes, capacity, level == 0 ? '#' : '=');
    }
    cli_out_putc(o, '\n');
}

static void rule(cli_out *o)
{
    cli_out_repeat(o, ' ', LABEL_COL);
    cli_out_repeat(o, '-', BAR_COL + BAR_WIDTH + 2 - LABEL_COL);
    cli_out_putc(o, '\n');
}

static void memory_table(cli_out *o, const trainsize_result *r)
{
    const trainsize_memory *m = &r->memory;
    uint64_t cap = m->gpu_capacity;
    const char *phase = cli_result_text(r, "memory.peak_phase");
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX];

    cli_out_puts(o, "Memory per GPU");
    cli_out_pad_to(o, GIB_COL + 7, 1);
    cli_out_puts(o, "GiB");
    cli_out_pad_to(o, PCT_COL + 2, 1);
    cli_out_puts(o, "of GPU");
    cli_out_pad_to(o, BAR_COL, 1);
    cli_out_puts(o, "0%");
    cli_out_pad_to(o, BAR_COL + BAR_WIDTH / 2 - 1, 1);
    cli_out_puts(o, "50%");
    cli_out_pad_to(o, BAR_COL + BAR_WIDTH - 2, 1);
    cli_out_puts(o, "100%\n");

    row(o, 0, "weights", m->weights, cap, 1);
    row(o, 0, "gradients", m->gradients, cap, 1);
    row(o, 0, "optimizer state", m->optimizer, cap, 1);
    row(o, 1, "of which master weights", m->master_weights, cap, 1);
    row(o, 0, "activations", m->activations, cap, 1);
    row(o, 1, "layers", m->activations_layers, cap, 1);
    row(o, 1, "embedding", m->activations_embedding, cap, 1);
    row(o, 1, "output and loss", m->activations_output, cap, 1);
    row(o, 0, "transient", m->transient, cap, 1);
    rule(o);
    row(o, 0, "peak allocated", m->peak_allocated, cap, 1);
    row(o, 0, "overhead", m->overhead, cap, 1);
    row(o, 1, "CUDA context", m->cuda_context, cap, 1);
    row(o, 1, "communication buffers", m->comm_buffers, cap, 1);
    row(o, 1, "allocator slack", m->allocator_slack, cap, 1);
    rule(o);
    row(o, 0, "peak total", m->peak_total, cap, 1);
    row(o, 0, "GPU capacity", cap, cap, 0);
    cli_out_putc(o, '\n');

    if (m->fits) {
        uint64_t head = cap >= m->peak_total ? cap - m->peak_total : 0;
        char c[CLI_FMT_MAX];
        cli_out_printf(o, "FITS: peak total %s of %s; headroom %s (%.1f%% of the GPU)\n",
                       cli_fmt_iec(a, sizeof a, (double)m->peak_total),
                       cli_fmt_iec(b, sizeof b, (double)cap),
                       cli_fmt_iec(c, sizeof c, (double)head),
                       cap ? 100.0 * (double)head / (double)cap : 0.0);
    } else {
        uint64_t over = m->peak_total > cap ? m->peak_total - cap : 0;
        char c[CLI_FMT_MAX];
        cli_out_printf(o, "DOES NOT FIT: peak total %s of %s; short by %s\n",
                       cli_fmt_iec(a, sizeof a, (double)m->peak_total),
                       cli_fmt_iec(b, sizeof b, (double)cap),
                       cli_fmt_iec(c, sizeof c, (double)over));
    }
    cli_out_printf(o, "  most loaded GPU: pipeline stage %d", m->pipeline_stage);
    if (phase)
        cli_out_printf(o, "; peak during: %.40s", phase);
    cli_out_putc(o, '\n');
    /* Which rows make up the peak: the rows above are the parts, not all live at once. */
    cli_out_printf(o, "  peak allocated = weights + optimizer state%s%s + transient\n",
                   m->peak_includes_gradients ? " + gradients" : "",
                   m->peak_includes_activations ? " + activations" : "");
    cli_out_printf(o, "  activations of %.2f micro-batch%s in flight; one layer of one: %s\n",
                   m->in_flight_microbatches, m->in_flight_microbatches == 1.0 ? "" : "es",
                   cli_fmt_iec(a, sizeof a, (double)m->activations_per_layer));
    if (m->host_offload)
        cli_out_printf(o, "  offloaded to host memory: %s per GPU\n",
                       cli_fmt_iec(a, sizeof a, (double)m->host_offload));
    if (m->loading_peak)
        cli_out_printf(o, "  loading the weights: %s on the GPU at most (before sharding, casting "
                          "or quantizing)\n",
                       cli_fmt_iec(a, sizeof a, (double)m->loading_peak));
    cli_out_putc(o, '\n');
}

/* ---- fit advice ---- */

static void advice_section(cli_out *o, const trainsize_advice *advice, size_t n)
{
    char a[CLI_FMT_MAX], set[256];
    size_t i, k, used;

    if (!n)
        return;
    cli_out_puts(o, "To make it fit (each a full estimate of the changed job, least disruptive first):\n");
    for (i = 0; i < n; i++) {
        used = 0;
        set[0] = '\0';
        for (k = 0; k < advice[i].settings && used < sizeof set; k++)
            used += (size_t)snprintf(set + used, sizeof set - used, "%s--%s %s", k ? " " : "",
                                     advice[i].names[k], advice[i].values[k]);
        if (used > 58) /* a long change gets its own line */
            cli_out_printf(o, "  %s\n  %-58s", set, "");
        else
            cli_out_printf(o, "  %-58s", set);
        cli_out_printf(o, " %9s  %.2f s per step\n",
                       cli_fmt_iec(a, sizeof a, (double)advice[i].peak_total), advice[i].step_seconds);
    }
    cli_out_putc(o, '\n');
}

/* ---- system and time ---- */

static void rate_text(char *buf, size_t cap, uint64_t bytes_per_s)
{
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX];

    snprintf(buf, cap, "%s (%s)", cli_fmt_si(a, sizeof a, (double)bytes_per_s, "B/s"),
             cli_fmt_si(b, sizeof b, 8.0 * (double)bytes_per_s, "bit/s"));
}

static void system_section(cli_out *o, const trainsize_result *r)
{
    const trainsize_system *s = &r->system;
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX], t[3 * CLI_FMT_MAX];

    cli_out_puts(o, "System\n");
    key(o, "  servers");
    cli_out_printf(o, "%s x %s GPU%s\n", cli_fmt_thousands(a, sizeof a, s->nodes),
                   cli_fmt_thousands(b, sizeof b, s->gpus_per_node),
                   s->gpus_per_node == 1 ? "" : "s");
    key(o, "  host RAM per server");
    cli_out_printf(o, "%s (the job needs %s)\n", cli_fmt_iec(a, sizeof a, (double)s->host_ram_per_node),
                   cli_fmt_iec(b, sizeof b, (double)s->host_ram_need_per_node));
    key(o, "  CPU cores per server");
    cli_out_printf(o, "%s\n", cli_fmt_thousands(a, sizeof a, s->cpu_cores_per_node));
    key(o, "  GPU to GPU");
    if (s->intra_node_rate_per_gpu == 0) {
        cli_out_puts(o, "no traffic inside a server\n");
    } else {
        rate_text(t, sizeof t, s->intra_node_rate_per_gpu);
        cli_out_printf(o, "%s per GPU, per direction\n", t);
    }
    key(o, "  between servers");
    if (s->interconnect_rate_per_node == 0) {
        /* Several servers and no link: the scale-up fabric (NVL72, a TPU slice) spans them. */
        cli_out_puts(o, s->nodes <= 1            ? "none needed (one server)\n"
                        : !s->network_link[0] ? "none on the network: the scale-up fabric (NVLink, ICI) "
                                                  "joins the servers\n"
                                              : "no data-parallel traffic between servers\n");
    } else {
        rate_text(t, sizeof t, s->interconnect_rate_per_node);
        cli_out_printf(o, "%s per server", t);
        if (s->network_link[0]) {
            /* NICs x link, as the estimate counted them. */
            const trainsize_link_info *l = trainsize_link_find(s->network_link);
            cli_out_printf(o, "; link: %llu x %.31s", (unsigned long long)s->network_nics_per_node,
                           s->network_link);
            if (l) cli_out_printf(o, " (%s each)", cli_fmt_si(b, sizeof b, 8.0 * (double)l->bandwidth, "bit/s"));
        }
        cli_out_putc(o, '\n');
    }
    key(o, "  storage");
    cli_out_printf(o, "%s for dataset and checkpoints", cli_fmt_si(a, sizeof a, (double)s->storage_capacity, "B"));
    if (s->storage_class[0]) cli_out_printf(o, "; class: %.31s", s->storage_class);
    cli_out_putc(o, '\n');
    key(o, "");
    rate_text(t, sizeof t, s->storage_read_rate);
    cli_out_printf(o, "read %s to feed the GPUs\n", t);
    key(o, "  checkpoints");
    rate_text(t, sizeof t, s->checkpoint_write_rate);
    cli_out_printf(o, "%s each; written at %s per server", cli_fmt_si(a, sizeof a, (double)s->checkpoint_bytes, "B"), t);
    if (s->nodes > 1)
        cli_out_printf(o, ", %s in all", cli_fmt_si(b, sizeof b, (double)s->checkpoint_write_rate_total, "B/s"));
    cli_out_putc(o, '\n');
    key(o, "  power");
    cli_out_printf(o, "%s per server, %s in all", cli_fmt_si(a, sizeof a, s->power_per_node_watts, "W"),
                   cli_fmt_si(b, sizeof b, s->power_watts, "W"));
    cli_out_printf(o, "; heat %s\n", cli_fmt_si(a, sizeof a, s->heat_btu_per_hour, "BTU/h"));
    key(o, "  energy");
    cli_out_printf(o, "%s", cli_fmt_si(a, sizeof a, s->energy_kwh * 1000.0, "Wh"));
    if (s->co2_kg >= 1000.0)
        cli_out_printf(o, " (PUE included); %.1f t CO2e\n", s->co2_kg / 1000.0);
    else if (s->co2_kg >= 1.0)
        cli_out_printf(o, " (PUE included); %.1f kg CO2e\n", s->co2_kg);
    else /* one optimizer step: grams, not "0.0 kg" */
        cli_out_printf(o, " (PUE included); %.2g g CO2e\n", s->co2_kg * 1000.0);
    key(o, "  cost");
    if (s->cost_cloud_usd > 0)
        cli_out_printf(o, "cloud %s", cli_fmt_usd(a, sizeof a, s->cost_cloud_usd));
    else
        cli_out_puts(o, "cloud: no price (--gpu-hour-usd or --gpu-prices)");
    if (s->cost_own_usd > 0) {
        char text[4 * CLI_FMT_MAX + 64];
        snprintf(text, sizeof text, "owned %s (GPUs, servers, network, support: %s; power: %s)",
                 cli_fmt_usd(a, sizeof a, s->cost_own_usd),
                 cli_fmt_usd(b, sizeof b, s->cost_own_hardware_usd),
                 cli_fmt_usd(t, sizeof t, s->cost_own_power_usd));
        cli_out_puts(o, "; ");
        cli_out_wrapped(o, text, KEY_WIDTH); /* wrapped, never clipped */
        cli_out_putc(o, '\n');
    } else
        cli_out_puts(o, "; owned: no price (--gpu-price-usd or --gpu-prices)\n");
    cli_out_putc(o, '\n');
}

/* The checklist: one line per warning that applies. */
static void warnings_section(cli_out *o, const trainsize_result *r)
{
    int bit;
    if (r->warnings == 0) return;
    cli_out_puts(o, "Warnings\n");
    for (bit = 0; bit < 64; bit++) {
        const char *text = trainsize_warning_text(UINT64_C(1) << bit);
        if ((r->warnings & (UINT64_C(1) << bit)) && text) {
            cli_out_puts(o, "  - ");
            cli_out_wrapped(o, text, 4);
            cli_out_putc(o, '\n');
        }
    }
    cli_out_putc(o, '\n');
}

static void time_section(cli_out *o, const trainsize_job *job, const trainsize_result *r)
{
    const trainsize_time *t = &r->time;
    char a[CLI_FMT_MAX], b[CLI_FMT_MAX], c[CLI_FMT_MAX];

    cli_out_puts(o, "Time\n");
    key(o, "  compute");
    cli_out_printf(o, "%.3e FLOP in all; %.3e FLOP per step\n", t->flops, t->step_flops);
    key(o, "  steps");
    if (t->tokens >= 0.0 && t->tokens < 1e18 && t->tokens == (double)(uint64_t)t->tokens)
        cli_fmt_thousands(b, sizeof b, (uint64_t)t->tokens);
    else
        snprintf(b, sizeof b, "%.3e", t->tokens);
    cli_out_printf(o, "%s step%s of %s; %s tokens\n", cli_fmt_thousands(a, sizeof a, t->steps),
                   t->steps == 1 ? "" : "s", cli_fmt_duration(c, sizeof c, t->step_seconds), b);
    if (t->comm_seconds > 0) {
        key(o, "  communication");
        cli_out_printf(o, "%s per step not hidden by compute (included)\n",
                       cli_fmt_duration(a, sizeof a, t->comm_seconds));
    }
    if (t->offload_seconds > 0) {
        key(o, "  CPU offload");
        cli_out_printf(o, "%s per step not hidden by compute (included)\n",
                       cli_fmt_duration(a, sizeof a, t->offload_seconds));
    }
    key(o, "  total");
    if (t->seconds >= 3600.0 && t->seconds < 1e12)
        cli_out_printf(o, "%.1f hours = %.2f days", t->seconds / 3600.0, t->seconds / 86400.0);
    else if (t->seconds >= 1e12)
        cli_out_printf(o, "%.3e hours = %.3e days", t->seconds / 3600.0, t->seconds / 86400.0);
    else
        cli_out_puts(o, cli_fmt_duration(a, sizeof a, t->seconds));
    if (job_is(job, "tokens", "0"))
        cli_out_puts(o, " (one optimizer step; --tokens N sizes a whole training run)");
    else
        cli_out_printf(o, "; %s GPU-hours", cli_fmt_thousands_d(a, sizeof a, t->gpu_hours));
    cli_out_putc(o, '\n');
}

void cli_report(cli_out *o, const trainsize_job *job, const trainsize_result *r,
                const trainsize_advice *advice, size_t n)
{
    header(o, job, r);
    memory_table(o, r);
    advice_section(o, advice, n);
    system_section(o, r);
    time_section(o, job, r);
    cli_out_putc(o, '\n');
    warnings_section(o, r);
}

/* `trainsize capacity`: what a server (or a few) can train: the largest catalogue model
 * for each way of training, with the options that make it fit (trainsize_capacity). The
 * numbers are read through a probe job, so each option takes the units, ranges and error
 * messages it has for estimate. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* The options, as given (NULL: the default). */
typedef struct capacity_options {
    const char *gpu, *gpus, *servers, *gpus_per_node, *seq, *micro_batch, *host_ram;
    int json;
} capacity_options;

static int parse(const ts_cli *cx, int argc, char *const *argv, capacity_options *o)
{
    static const char *const NAMES[] = {"gpu", "gpus", "servers", "gpus-per-node", "seq", "micro-batch", "host-ram"};
    const char **slots[] = {&o->gpu, &o->gpus, &o->servers, &o->gpus_per_node, &o->seq, &o->micro_batch,
                            &o->host_ram};
    int i;
    size_t k;
    memset(o, 0, sizeof *o);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *eq;
        size_t len;
        if (strcmp(a, "--json") == 0) {
            o->json = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            ts_cli_error(cx, "capacity: unexpected argument '%.64s' (see trainsize capacity --help)", a);
            return TS_CLI_EXIT_USAGE;
        }
        a += 2;
        eq = strchr(a, '=');
        len = eq ? (size_t)(eq - a) : strlen(a);
        for (k = 0; k < sizeof NAMES / sizeof NAMES[0]; k++)
            if (strlen(NAMES[k]) == len && strncmp(a, NAMES[k], len) == 0) break;
        if (k == sizeof NAMES / sizeof NAMES[0]) {
            ts_cli_error(cx, "capacity: unknown option '--%.*s' (see trainsize capacity --help)", (int)(len < 64 ? len : 64), a);
            return TS_CLI_EXIT_USAGE;
        }
        if (eq) {
            *slots[k] = eq + 1;
        } else if (i + 1 < argc) {
            *slots[k] = argv[++i];
        } else {
            ts_cli_error(cx, "capacity: option --%s needs a value", NAMES[k]);
            return TS_CLI_EXIT_USAGE;
        }
    }
    return TS_CLI_EXIT_OK;
}

/* One option's value, read the way estimate reads it (units, range, message). */
static int number(const ts_cli *cx, trainsize_job *probe, const char *name, const char *text, uint64_t *out)
{
    trainsize_error err;
    char back[32];
    int rc = trainsize_job_set(probe, name, text, &err);
    if (rc != TRAINSIZE_OK) return ts_cli_library_error(cx, rc, &err);
    if (trainsize_job_get(probe, name, back, sizeof back, &err) < 0) return ts_cli_library_error(cx, TRAINSIZE_E_INVALID, &err);
    *out = strtoull(back, NULL, 10);
    return TS_CLI_EXIT_OK;
}

/* "  trainsize estimate ARGS", wrapped before 100 columns between one option's pair and the
 * next, with a backslash, continued four spaces in. */
static void args_line(ts_out *o, const char *args)
{
    const char *s = args;
    ts_out_puts(o, "  trainsize estimate");
    while (*s) {
        const char *next = strstr(s + 2, " --"); /* the next option's start */
        size_t len = next ? (size_t)(next - s) : strlen(s);
        if (*s == ' ') s++, len--;
        if (ts_out_column(o) + 1 + len + 2 > TS_CLI_COLUMNS) ts_out_puts(o, " \\\n   "); /* pastes into a shell */
        ts_out_printf(o, " %.*s", (int)len, s);
        s += len;
    }
    ts_out_putc(o, '\n');
}

static int table(ts_out *o, const char *gpu, uint64_t gpus, uint64_t seq, uint64_t mb,
                 const trainsize_capacity_entry *e)
{
    size_t i;
    char p[32], t[32];
    ts_out_printf(o, "trainsize %s: what %llu x %s can train (sequence %llu, micro-batch %llu)\n\n",
                  trainsize_version_string(), (unsigned long long)gpus, gpu, (unsigned long long)seq,
                  (unsigned long long)mb);
    ts_out_printf(o, "%-17s %-17s %10s %12s %10s\n", "method", "largest model", "parameters", "tokens/s", "peak/GPU");
    for (i = 0; i < TRAINSIZE_CAPACITY_METHODS; i++) {
        if (!e[i].model[0]) {
            ts_out_printf(o, "%-17s %-17s\n", e[i].method, "(none fits)");
            continue;
        }
        ts_out_printf(o, "%-17s %-17s %10s %12s %6.1f GiB\n", e[i].method, e[i].model,
                      ts_fmt_count(p, sizeof p, e[i].parameters), ts_fmt_thousands(t, sizeof t, (uint64_t)e[i].tokens_per_s),
                      (double)e[i].peak_total / 1073741824.0);
        args_line(o, e[i].args);
    }
    ts_out_puts(o, "\nEach is the largest decoder of the catalogue whose whole peak fits the GPU, tried from\n"
                   "the largest down with ZeRO-3, full recomputation, tensor parallelism 2-8 and, past\n"
                   "pretraining, CPU offload; the line under it is that job in full.\n");
    return 0;
}

/* The library's JSON of the table; 0, or -1 after a message. */
static int json(const ts_cli *cx, ts_out *o, const char *gpu, uint64_t gpus, uint64_t seq, uint64_t mb,
                const trainsize_capacity_entry *e)
{
    trainsize_error err;
    char *buf = malloc(TRAINSIZE_JSON_MAX_BYTES);
    int n;
    if (!buf) {
        ts_cli_error(cx, "out of memory");
        return -1;
    }
    n = trainsize_capacity_json(gpu, gpus, seq, mb, e, buf, TRAINSIZE_JSON_MAX_BYTES, &err);
    if (n >= 0 && (size_t)n < TRAINSIZE_JSON_MAX_BYTES) ts_out_puts(o, buf);
    else if (n < 0) (void)ts_cli_library_error(cx, n, &err);
    else ts_cli_error(cx, "internal error: the capacity JSON is longer than the library writes");
    free(buf);
    return n < 0 || (size_t)n >= TRAINSIZE_JSON_MAX_BYTES ? -1 : 0;
}

int ts_cli_cmd_capacity(const ts_cli *cx, int argc, char *const *argv)
{
    capacity_options opts;
    trainsize_capacity_entry e[TRAINSIZE_CAPACITY_METHODS];
    trainsize_error err;
    trainsize_job *probe;
    uint64_t gpus = 8, servers = 0, per_node = 0, seq = 2048, mb = 1, host_ram = 0;
    const char *gpu;
    ts_out out;
    int status, rc;
    for (rc = 0; rc < argc; rc++)
        if (strcmp(argv[rc], "--help") == 0 || strcmp(argv[rc], "-h") == 0) return ts_cli_print_help(cx, TS_CLI_HELP_CAPACITY);
    if ((status = parse(cx, argc, argv, &opts)) != TS_CLI_EXIT_OK) return status;
    gpu = opts.gpu ? opts.gpu : "h100-80gb";
    if (!(probe = trainsize_job_new())) {
        ts_cli_error(cx, "out of memory");
        return TS_CLI_EXIT_FAILURE;
    }
    if ((rc = trainsize_job_set(probe, "gpu", gpu, &err)) != TRAINSIZE_OK) status = ts_cli_library_error(cx, rc, &err);
    if (status == TS_CLI_EXIT_OK && opts.gpus) status = number(cx, probe, "gpus", opts.gpus, &gpus);
    if (status == TS_CLI_EXIT_OK && opts.gpus_per_node) status = number(cx, probe, "gpus-per-node", opts.gpus_per_node, &per_node);
    if (status == TS_CLI_EXIT_OK && opts.servers) {
        char *end;
        servers = strtoull(opts.servers, &end, 10);
        if (*end || opts.servers[0] < '1' || opts.servers[0] > '9' || servers > 4096) {
            ts_cli_error(cx, "servers: expected a count from 1 to 4096, got '%.32s'", opts.servers);
            status = TS_CLI_EXIT_USAGE;
        }
    }
    if (status == TS_CLI_EXIT_OK && opts.seq) status = number(cx, probe, "seq", opts.seq, &seq);
    if (status == TS_CLI_EXIT_OK && opts.micro_batch) status = number(cx, probe, "micro-batch", opts.micro_batch, &mb);
    if (status == TS_CLI_EXIT_OK && opts.host_ram) status = number(cx, probe, "host-ram", opts.host_ram, &host_ram);
    if (status == TS_CLI_EXIT_OK && servers) {
        /* N servers of the product's own size (or --gpus-per-node) */
        const trainsize_gpu_info *g = trainsize_gpu_find(gpu);
        uint64_t each = per_node ? per_node : g && g->per_host > 0 ? (uint64_t)g->per_host : 8;
        if (opts.gpus) {
            ts_cli_error(cx, "capacity: options --gpus and --servers exclude each other: give one count");
            status = TS_CLI_EXIT_USAGE;
        }
        gpus = servers * each;
        per_node = each;
    }
    trainsize_job_free(probe);
    if (status != TS_CLI_EXIT_OK) return status;
    if ((rc = trainsize_capacity(gpu, gpus, per_node, seq, mb, host_ram, e, &err)) != TRAINSIZE_OK)
        return ts_cli_library_error(cx, rc, &err);
    ts_out_init(&out);
    return ts_cli_out_finish(cx, &out, opts.json ? json(cx, &out, gpu, gpus, seq, mb, e) : table(&out, gpu, gpus, seq, mb, e));
}

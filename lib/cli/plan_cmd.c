/* The `plan` command: options -> trainsize_plan -> a ranked table, or JSON.
 *
 * The options are estimate's, parsed for plan (args.c): --gpu is a list that restricts the
 * catalogue, a fixed layout is refused, and --top N (1..100, default 10) says how many
 * candidates to show. Every candidate is a real estimate (the library's promise), and the
 * human output ends with the `trainsize estimate` command that reproduces the first one.
 * Without --tokens a fixed count (--plan-gpu-count) lists the layouts that fit and the
 * largest batch each takes, without time or cost.
 * As for estimate, the output is built in memory and written only once it is complete. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include "cli.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TOP_DEFAULT 10
#define TOP_MAX 100
#define TEXT_MAX 256

/* The options that are the planner's constraints: not part of the reproducing command. */
static const char *const plan_only[] = {
    "plan-gpus", "max-gpus", "deadline-days", "budget", "objective", "plan-gpu-count", "plan-ranking", "plan-rollout", "exhaustive",
    "rollout", "rollout-gpus", /* the candidate gives the placement */
    "gpus-per-node", "global-batch", "cp", /* the candidate gives these */
};

static int parse_top(const ts_cli *cx, const char *text, size_t *out)
{
    size_t v = 0;
    const char *s = text;

    *out = TOP_DEFAULT;
    if (!text)
        return TS_CLI_EXIT_OK;
    if (*s == '\0')
        goto bad;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || v > TOP_MAX)
            goto bad;
        v = v * 10 + (size_t)(*s - '0');
    }
    if (v < 1 || v > TOP_MAX)
        goto bad;
    *out = v;
    return TS_CLI_EXIT_OK;
bad:
    ts_cli_error(cx, "top: expected a whole number from 1 to %d, got '%.32s'", TOP_MAX, text);
    return TS_CLI_EXIT_USAGE;
}

/* A candidate's field as the library's plan table gives it (the recompute setting's name,
 * the server count). */
static int candidate_field(const trainsize_plan_candidate *c, const char *name, trainsize_field_value *v)
{
    size_t at = ts_cli_field_index(trainsize_plan_field_count, trainsize_plan_field_at, name);
    return trainsize_plan_field_get(c, at, v) == TRAINSIZE_OK;
}

/* The candidate's recompute setting, as the "recompute" option names it. */
static void recompute_name(const trainsize_plan_candidate *c, char *buf, size_t cap)
{
    trainsize_field_value v;
    snprintf(buf, cap, "%s", candidate_field(c, "recompute", &v) && v.text ? v.text : "?");
}

/* A job parameter as text ("" when the library has no such parameter). */
static const char *job_text(const trainsize_job *job, const char *name, char *buf, size_t cap)
{
    int n = trainsize_job_get(job, name, buf, cap, NULL);

    if (n < 0)
        buf[0] = '\0';
    return buf;
}

/* GPUs a ppo critic or a reward model of the job takes of its own (critic-gpus,
 * reward-gpus): beside every candidate's training GPUs. */
static uint64_t side_count(const trainsize_job *job)
{
    char method[32], reward[64], n[32];
    uint64_t side = 0;
    job_text(job, "method", method, sizeof method);
    if (strcmp(method, "grpo") != 0 && strcmp(method, "ppo") != 0) return 0;
    if (strcmp(method, "ppo") == 0) side += strtoull(job_text(job, "critic-gpus", n, sizeof n), NULL, 10);
    if (job_text(job, "reward-model", reward, sizeof reward)[0])
        side += strtoull(job_text(job, "reward-gpus", n, sizeof n), NULL, 10);
    return side;
}

/* The count --plan-gpu-count fixes, or 0. */
static uint64_t fixed_count(const trainsize_job *job)
{
    char b[32];
    return strtoull(job_text(job, "plan-gpu-count", b, sizeof b), NULL, 10);
}

/* No --tokens with a fixed count: the layouts that fit and their largest batch. */
static int batch_mode(const trainsize_job *job)
{
    char b[32];
    return fixed_count(job) > 0 && strcmp(job_text(job, "tokens", b, sizeof b), "0") == 0;
}

/* ---- human output ---- */

/* A paragraph: `text` wrapped at TS_CLI_COLUMNS with `indent`, then a newline. */
static void wrap_words(ts_out *o, const char *text, size_t indent)
{
    ts_out_wrapped(o, text, indent);
    ts_out_putc(o, '\n');
}

/* snprintf at the end of what `buf` holds. */
static void append(char *buf, size_t cap, const char *fmt, ...) TS_CLI_PRINTF(3, 4);
static void append(char *buf, size_t cap, const char *fmt, ...)
{
    size_t n = strlen(buf);
    va_list ap;

    if (n + 1 >= cap)
        return;
    va_start(ap, fmt);
    vsnprintf(buf + n, cap - n, fmt, ap);
    va_end(ap);
}

/* A name for the terminal: printable ASCII (others become '?'), at most 48 characters. */
static const char *printable(char *buf, size_t cap, const char *s)
{
    size_t i, n = strlen(s), keep = n > 48 ? 45 : n;

    for (i = 0; i < keep && i + 4 < cap; i++)
        buf[i] = (s[i] < 0x20 || s[i] >= 0x7f) ? '?' : s[i];
    if (keep < n && i + 4 <= cap) {
        memcpy(buf + i, "...", 3);
        i += 3;
    }
    buf[i] = '\0';
    return buf;
}

static void header(ts_out *o, const trainsize_job *job, const trainsize_plan_candidate *first,
                   const trainsize_plan_stats *st, double elapsed)
{
    char a[TEXT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX], d[TEXT_MAX], list[4 * TEXT_MAX],
        line[8 * TEXT_MAX];
    trainsize_job *probe = trainsize_job_clone(job);
    trainsize_result r;
    double v;

    /* The model as counted: an estimate of the first candidate (or of the job as given). */
    line[0] = '\0';
    if (probe && (!first || trainsize_plan_apply(probe, first, NULL) == TRAINSIZE_OK) &&
        trainsize_estimate(probe, &r, sizeof r, NULL) == TRAINSIZE_OK) {
        append(line, sizeof line, "Plan for %s (%s parameters",
               printable(a, sizeof a, r.model.name), ts_fmt_count(b, sizeof b, r.model.parameters));
        if (r.model.trainable_parameters != r.model.parameters)
            append(line, sizeof line, ", %s trainable",
                   ts_fmt_count(b, sizeof b, r.model.trainable_parameters));
        append(line, sizeof line, ")");
    } else {
        job_text(job, "model", d, sizeof d);
        append(line, sizeof line, "Plan for %s", printable(a, sizeof a, d));
    }
    trainsize_job_free(probe);
    v = strtod(job_text(job, "tokens", a, sizeof a), NULL);
    if (!(v >= 0 && v < 9e18)) /* the tokens option stays far below; never a narrowing cast */
        v = 0;
    if (batch_mode(job))
        append(line, sizeof line, ": no --tokens (what fits, no time or cost), seq %s",
               job_text(job, "seq", c, sizeof c));
    else
        append(line, sizeof line, ": %s tokens, seq %s", ts_fmt_count(b, sizeof b, (uint64_t)v),
               job_text(job, "seq", c, sizeof c));
    append(line, sizeof line, ", %s, %s", job_text(job, "precision", b, sizeof b),
           job_text(job, "optimizer", c, sizeof c));
    wrap_words(o, line, 4);

    /* Constraints. */
    line[0] = '\0';
    job_text(job, "plan-gpus", list, sizeof list);
    append(line, sizeof line, "Constraints: ");
    if (list[0]) {
        char *item = list, *comma;
        append(line, sizeof line, "GPUs");
        while ((comma = strchr(item, ',')) != NULL) { /* "a,b" -> "a, b": wraps */
            *comma = '\0';
            append(line, sizeof line, " %s,", item);
            item = comma + 1;
        }
        append(line, sizeof line, " %s", item);
    } else {
        const char *gpu = job_text(job, "gpu", d, sizeof d);
        if (gpu[0] && !trainsize_gpu_find(gpu))
            append(line, sizeof line, "GPU %s (your description)", printable(a, sizeof a, gpu));
        else
            append(line, sizeof line, "any catalogue GPU");
    }
    if (fixed_count(job))
        append(line, sizeof line, "; exactly %s GPUs", job_text(job, "plan-gpu-count", b, sizeof b));
    else
        append(line, sizeof line, "; at most %s GPUs", job_text(job, "max-gpus", b, sizeof b));
    if (strcmp(job_text(job, "gpus-per-node", b, sizeof b), "0") != 0)
        append(line, sizeof line, ", servers of %s", b);
    job_text(job, "deadline-days", b, sizeof b);
    if (strtod(b, NULL) > 0)
        append(line, sizeof line, ", within %s days", b);
    else
        append(line, sizeof line, ", no deadline");
    job_text(job, "budget", b, sizeof b);
    if (strtod(b, NULL) > 0)
        append(line, sizeof line, ", at most %s USD", b);
    else
        append(line, sizeof line, ", no budget");
    if (strcmp(job_text(job, "plan-margin", b, sizeof b), "high") == 0)
        append(line, sizeof line, "; each held to its high bound (--plan-margin high: memory x memory_high "
               "must fit; days and cost at x time_high)");
    wrap_words(o, line, 4);

    /* The step every configuration trains with: the job's, or the planner's default. */
    line[0] = '\0';
    job_text(job, "global-batch", b, sizeof b);
    if (strcmp(b, "0") != 0) {
        append(line, sizeof line, "Step: global batch %s samples of seq %s, as set (--global-batch)",
               ts_fmt_thousands(c, sizeof c, strtoull(b, NULL, 10)), job_text(job, "seq", d, sizeof d));
    } else if (strcmp(job_text(job, "resnet-depth", b, sizeof b), "0") != 0 && !batch_mode(job)) {
        append(line, sizeof line, "Step: an image classifier's, one micro-batch of 32 to 256 images a GPU "
               "and no accumulation, at most 32,768 images a step (LARS's ImageNet batch; --global-batch "
               "sets it)");
    } else if (batch_mode(job)) {
        append(line, sizeof line, "Step: each layout's largest batch: the largest micro-batch that fits "
               "in memory x data-parallel degree x pp micro-batches in flight (one without a "
               "pipeline), no further accumulation");
    } else {
        append(line, sizeof line, "Step: about 4M tokens, the planner's default (--global-batch sets it)");
        if (first)
            append(line, sizeof line, ": global batch %s samples of seq %s",
                   ts_fmt_thousands(c, sizeof c, first->layout.global_batch),
                   job_text(job, "seq", d, sizeof d));
    }
    wrap_words(o, line, 4);

    snprintf(line, sizeof line,
             "Examined %s configurations in %.2f s: %s estimated in full, %s feasible",
             ts_fmt_thousands(b, sizeof b, st->evaluated), elapsed,
             ts_fmt_thousands(c, sizeof c, st->estimated),
             ts_fmt_thousands(d, sizeof d, st->feasible));
    if (st->pruned_memory) {
        char e[32];
        append(line, sizeof line, "; %s ruled out because a smaller micro-batch did not fit",
               ts_fmt_thousands(e, sizeof e, st->pruned_memory));
    }
    if (st->pruned_bound || st->counts_skipped) {
        /* what the floors ruled out, so that a reader knows what was not estimated and why */
        char e[32];
        append(line, sizeof line, "; %s ruled out by a floor under their time and cost, %s GPU counts skipped "
               "whole (the same answer as --exhaustive)",
               ts_fmt_thousands(e, sizeof e, st->pruned_bound), ts_fmt_thousands(c, sizeof c, st->counts_skipped));
    }
    wrap_words(o, line, 4);
}

static const char *days_text(char *buf, size_t cap, double seconds)
{
    double days = seconds / 86400.0;

    if (days < 0.01)
        snprintf(buf, cap, "%.1e", days);
    else
        snprintf(buf, cap, days < 10 ? "%.2f" : days < 1e5 ? "%.1f" : "%.2e", days);
    return buf;
}

static const char *cost_text(char *buf, size_t cap, double cost)
{
    if (!(cost > 0))
        snprintf(buf, cap, "no price");
    else
        ts_fmt_usd(buf, cap, cost);
    return buf;
}

/* The GPU column is 14 characters wide (ts_fmt_column: whole UTF-8 characters).
 * Widths: 3+2+14+1+6+1+9+1+2+1+2+1+5+1+2+1+4+1+3+1+9+1+8+1+6+1+12 = 99 columns. */
#define ROW_FMT "%3s  %s %6s %9s %2s %2s %5s %2s %4s %3s %-9s %8s %6s %12s\n"
/* Without tokens: 3+2+14+1+6+1+9+1+2+1+2+1+5+1+2+1+4+1+5+1+9+1+6+1+8+1+11 = 100 columns. */
#define BATCH_FMT "%3s  %s %6s %9s %2s %2s %5s %2s %4s %5s %-9s %6s %8s %11s\n"

/* The warnings a row shows: no-price only where the objective needs the missing price (a
 * purchase price for owned cost, an hourly one otherwise; none without tokens), as the
 * planner ranks them (planner.c, ranked_warnings). JSON keeps the estimate's bits. */
static uint64_t shown_warnings(const trainsize_plan_candidate *c, int owned, int batch)
{
    double price = owned ? c->cost_own : c->cost;
    return batch || price > 0 ? c->warnings & ~TRAINSIZE_WARN_NO_PRICE : c->warnings;
}

static void row(ts_out *o, size_t rank, const trainsize_plan_candidate *c, int owned, int batch,
                uint64_t seq, uint64_t side)
{
    char r[24], gpus[24], nodes[48], tp[24], cp[24], pp[48], ep[24], z[24], mb[24], rec[32],
        peak[32], days[32], cost[48], gb[32], tok[48], gpu[64];
    uint64_t warn = shown_warnings(c, owned, batch);
    trainsize_field_value v;
    int bit;

    snprintf(r, sizeof r, "%zu", rank);
    if (c->rollout_gpus + side) /* training GPUs + those beside them */
        snprintf(gpus, sizeof gpus, "%" PRIu64 "+%" PRIu64, c->gpus, c->rollout_gpus + side);
    else
        snprintf(gpus, sizeof gpus, "%" PRIu64, c->gpus);
    snprintf(nodes, sizeof nodes, "%" PRIu64 " x %" PRIu64, candidate_field(c, "nodes", &v) ? v.u64 : 0,
             c->gpus_per_node);
    snprintf(tp, sizeof tp, "%" PRIu64, c->layout.tp);
    snprintf(cp, sizeof cp, "%" PRIu64, c->layout.cp ? c->layout.cp : 1);
    if (c->layout.pp_interleave > 1)
        snprintf(pp, sizeof pp, "%" PRIu64 "x%" PRIu64, c->layout.pp, c->layout.pp_interleave);
    else
        snprintf(pp, sizeof pp, "%" PRIu64, c->layout.pp);
    snprintf(ep, sizeof ep, "%" PRIu64, c->layout.ep);
    snprintf(z, sizeof z, "%" PRIu64, c->layout.zero);
    if (c->max_tokens_per_gpu) snprintf(mb, sizeof mb, "-"); /* a token budget: the line below */
    else snprintf(mb, sizeof mb, "%" PRIu64, c->layout.micro_batch);
    recompute_name(c, rec, sizeof rec);
    ts_fmt_gib_col(peak, sizeof peak, c->peak_total, 0);
    ts_fmt_column(gpu, sizeof gpu, c->gpu, 14);
    if (batch) {
        ts_fmt_thousands(gb, sizeof gb, c->layout.global_batch);
        ts_fmt_count(tok, sizeof tok,
                      seq && c->layout.global_batch <= UINT64_MAX / seq ? c->layout.global_batch * seq : 0);
        ts_out_printf(o, BATCH_FMT, r, gpu, gpus, nodes, tp, cp, pp, ep, z, mb, rec, peak, gb, tok);
    } else {
        ts_out_printf(o, ROW_FMT, r, gpu, gpus, nodes, tp, cp, pp, ep, z, mb, rec, peak,
                       days_text(days, sizeof days, c->seconds),
                       cost_text(cost, sizeof cost, owned ? c->cost_own : c->cost));
    }
    if (c->rollout_tp || c->max_tokens_per_gpu) {
        char budget[TS_FMT_MAX], where[24];
        ts_out_puts(o, "     ");
        if (c->rollout_tp) {
            ts_out_printf(o, "rollout: %s engines of tp %" PRIu64, printable(where, sizeof where, c->rollout),
                          c->rollout_tp);
            if (c->rollout_gpus) ts_out_printf(o, " on %" PRIu64 " GPUs of their own", c->rollout_gpus);
            ts_out_puts(o, c->max_tokens_per_gpu ? "; " : "");
        }
        if (c->max_tokens_per_gpu)
            ts_out_printf(o, "micro-batches of at most %s tokens a GPU",
                          ts_fmt_thousands(budget, sizeof budget, c->max_tokens_per_gpu));
        ts_out_putc(o, '\n');
    }
    if (warn == 0)
        return;
    ts_out_puts(o, "     warnings:");
    for (bit = 0; bit < 64; bit++) {
        const char *name = trainsize_warning_name(UINT64_C(1) << bit);
        if (!(warn & (UINT64_C(1) << bit)) || !name)
            continue;
        if (ts_out_column(o) + 2 + strlen(name) > TS_CLI_COLUMNS)
            ts_out_puts(o, "\n              ");
        else if (ts_out_column(o) > 14)
            ts_out_putc(o, ',');
        ts_out_putc(o, ' ');
        ts_out_clipped(o, name, 60);
    }
    ts_out_putc(o, '\n');
}

/* A shell word: as is when it is plainly safe, else single-quoted. 0, or -1 when it does
 * not fit `cap` (nothing cut is shown as if whole). */
static int shell_word(char *word, size_t cap, const char *s)
{
    size_t i, j = 0, n = strlen(s);
    int plain = n > 0;

    for (i = 0; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              strchr("._,+-/:=@%", ch)))
            plain = 0;
    }
    if (plain)
        return snprintf(word, cap, "%s", s) < (int)cap && n < cap ? 0 : -1;
    word[j++] = '\'';
    for (i = 0; i < n && j + 6 < cap; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\'') {
            memcpy(word + j, "'\\''", 4);
            j += 4;
        } else {
            word[j++] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
        }
    }
    word[j++] = '\'';
    word[j] = '\0';
    return i < n ? -1 : 0;
}

/* Room for a path of PATH_MAX bytes, quoted. */
#define WORD_MAX (4 * 4096 + 3)

/* Append "--NAME VALUE" to the hint, breaking the line (with a backslash) before 100. A
 * value too long to show whole is named by its length instead. */
static void hint_option(ts_out *o, const char *name, const char *value)
{
    char word[WORD_MAX], item[WORD_MAX + 64];
    int len;

    if (shell_word(word, sizeof word, value) != 0)
        snprintf(word, sizeof word, "'(the value given, %zu bytes)'", strlen(value));
    len = snprintf(item, sizeof item, "--%s %s", name, word);
    if (len < 0)
        return;
    if (ts_out_column(o) + 1 + (size_t)len + 2 > TS_CLI_COLUMNS)
        ts_out_puts(o, " \\\n   ");
    ts_out_putc(o, ' ');
    ts_out_puts(o, item);
}

static int is_plan_only(const char *name)
{
    size_t i;

    for (i = 0; i < sizeof plan_only / sizeof plan_only[0]; i++) {
        if (strcmp(name, plan_only[i]) == 0)
            return 1;
    }
    return 0;
}

static void hint(ts_out *o, const ts_cli_options *opts, const trainsize_plan_candidate *c)
{
    char v[TS_FMT_MAX];
    size_t i;

    ts_out_puts(o, "\nThe first, in full:\n  trainsize estimate");
    if (opts->model)
        hint_option(o, "model", opts->model);
    if (opts->hf_config)
        hint_option(o, "hf-config", opts->hf_config);
    if (opts->hf_model)
        hint_option(o, "hf-model", opts->hf_model);
    if (opts->revision)
        hint_option(o, "revision", opts->revision);
    if (opts->safetensors)
        hint_option(o, "safetensors", opts->safetensors);
    if (opts->calibration)
        hint_option(o, "calibration", opts->calibration);
    for (i = 0; i < opts->set_count; i++) {
        if (!is_plan_only(opts->sets[i].name))
            hint_option(o, opts->sets[i].name, opts->sets[i].value);
    }
    if (opts->gpu_file)
        hint_option(o, "gpu-file", opts->gpu_file);
    else
        hint_option(o, "gpu", c->gpu);
#define HINT_U64(name, value)                                                                 \
    do {                                                                                      \
        snprintf(v, sizeof v, "%" PRIu64, (value));                                           \
        hint_option(o, name, v);                                                              \
    } while (0)
    HINT_U64("gpus", c->gpus);
    HINT_U64("gpus-per-node", c->gpus_per_node);
    HINT_U64("tp", c->layout.tp);
    HINT_U64("pp", c->layout.pp);
    if (c->layout.cp > 1)
        HINT_U64("cp", c->layout.cp);
    if (c->layout.pp_interleave > 1)
        HINT_U64("pp-interleave", c->layout.pp_interleave);
    if (c->layout.ep > 1)
        HINT_U64("ep", c->layout.ep);
    HINT_U64("zero", c->layout.zero);
    if (c->max_tokens_per_gpu) HINT_U64("max-tokens-per-gpu", c->max_tokens_per_gpu);
    else HINT_U64("micro-batch", c->layout.micro_batch);
    HINT_U64("global-batch", c->layout.global_batch);
    if (c->rollout_tp) HINT_U64("rollout-tp", c->rollout_tp);
    if (c->rollout[0]) {
        char where[24];
        hint_option(o, "rollout", printable(where, sizeof where, c->rollout));
        if (c->rollout_gpus) HINT_U64("rollout-gpus", c->rollout_gpus);
    }
#undef HINT_U64
    recompute_name(c, v, sizeof v);
    hint_option(o, "recompute", v);
    ts_out_putc(o, '\n');
}

/* The GPUs searched that have no price for the objective: ranked after the priced ones, and
 * said so ("" when every one has a price). A gpu-prices entry counts as a price. */
static void unpriced_gpus(const trainsize_job *job, int owned, char *buf, size_t cap)
{
    char list[4 * TEXT_MAX], prices[4 * TEXT_MAX];
    size_t i, n = trainsize_gpu_count();

    buf[0] = '\0';
    job_text(job, "plan-gpus", list, sizeof list);
    job_text(job, "gpu-prices", prices, sizeof prices);
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        char key[TRAINSIZE_NAME_MAX + 2];
        if (!g || (owned ? g->purchase_usd : g->cloud_usd_per_hour) > 0)
            continue;
        if (list[0]) { /* only the GPUs asked for */
            const char *p = list;
            int found = 0;
            while (*p && !found) {
                const char *end = strchr(p, ',');
                size_t len = end ? (size_t)(end - p) : strlen(p);
                char item[TRAINSIZE_NAME_MAX];
                snprintf(item, sizeof item, "%.*s", (int)len, p);
                found = trainsize_gpu_find(item) == g;
                p = end ? end + 1 : p + len;
            }
            if (!found)
                continue;
        }
        snprintf(key, sizeof key, "%s=", g->name);
        if (strstr(prices, key))
            continue;
        append(buf, cap, "%s%s", buf[0] ? ", " : "", g->name);
    }
}

/* What the cost column and the footer call the objective's cost. */
static const char *cost_label(int owned)
{
    return owned ? "Cost: owning the GPUs (purchase over amortization-years, support, power, "
                   "servers and network), for the run's hours."
                 : "Cost: cloud, GPU-hours at the hourly price (gpu-prices or the catalogue).";
}

static void nothing_fits(ts_out *o, const trainsize_job *job, const trainsize_plan_stats *st)
{
    char why[3 * TEXT_MAX], d[32], e[48], n[32], more[TEXT_MAX];
    uint64_t fixed = fixed_count(job);

    /* A fixed count is the user's cluster: the advice names that count, not --max-gpus. */
    if (fixed)
        snprintf(more, sizeof more, "a different GPU count than %s (--plan-gpu-count)",
                 job_text(job, "plan-gpu-count", n, sizeof n));
    else
        snprintf(more, sizeof more, "more GPUs (--max-gpus)");
    if (st->evaluated == 0)
        snprintf(why, sizeof why,
                 "Nothing was examined: none of the planner's GPU counts and layouts applies to this "
                 "job%s. Allow %s or more GPU types (--gpu).",
                 fixed ? " on these GPUs (the count must fill whole servers: --gpus-per-node)" : "", more);
    else if (st->fit_memory == 0)
        snprintf(why, sizeof why,
                 "Nothing fits: GPU memory binds. No configuration examined%s fits; the closest "
                 "needs %.0f%% more memory than its GPU has. Allow %s, larger GPUs (--gpu), or "
                 "LoRA/QLoRA (--lora-rank, --quantize-base).",
                 fixed ? " on these GPUs" : "", 100.0 * st->least_overshoot, more);
    else
        snprintf(why, sizeof why,
                 "Nothing fits the constraints: %" PRIu64 " configurations fit in memory; the "
                 "fastest takes %s days and the cheapest costs %s. Allow a later deadline "
                 "(--deadline-days), a larger budget (--budget), %s or more GPU types (--gpu).",
                 st->fit_memory, days_text(d, sizeof d, st->fastest_fit_seconds),
                 cost_text(e, sizeof e, st->cheapest_fit_cost), more);
    wrap_words(o, why, 0);
}

static void human_plan(ts_out *o, const ts_cli_options *opts, const trainsize_job *job,
                       const trainsize_plan_candidate *c, size_t count,
                       const trainsize_plan_stats *st, double elapsed)
{
    char objective[32], ranking[32], seq[32];
    size_t i;
    int interleaved = 0, beside = 0, owned, batch = batch_mode(job);
    uint64_t side = side_count(job);

    header(o, job, count ? &c[0] : NULL, st, elapsed);
    ts_out_putc(o, '\n');
    if (count == 0) {
        nothing_fits(o, job, st);
        return;
    }
    job_text(job, "objective", objective, sizeof objective);
    job_text(job, "plan-ranking", ranking, sizeof ranking);
    owned = strcmp(objective, "owned") == 0;
    if (batch)
        ts_out_printf(o, "The %zu layouts that take the largest batch, one per layout, largest "
                          "first:\n", count);
    else if (strcmp(ranking, "pareto") == 0)
        ts_out_printf(o, "The Pareto front of %s and time (%zu points, fastest first; none is both "
                          "faster and cheaper than another):\n",
                       owned ? "owning cost" : "cloud cost", count);
    else
        ts_out_printf(o, "The best %zu, one per layout, by %s, then %s (within 1%%: no warning, "
                          "then fewer GPUs first):\n",
                       count, owned ? "owning cost" : objective,
                       strcmp(objective, "time") == 0 ? "cost" : "time");
    if (batch)
        ts_out_printf(o, BATCH_FMT, "#", "GPU           ", "GPUs", "servers", "TP", "CP", "PP", "EP", "ZeRO",
                       "MB", "recompute", "GiB", "batch", "tokens/step");
    else
        ts_out_printf(o, ROW_FMT, "#", "GPU           ", "GPUs", "servers", "TP", "CP", "PP", "EP", "ZeRO",
                       "MB", "recompute", "peak GiB", "days", owned ? "owned cost" : "cloud cost");
    job_text(job, "seq", seq, sizeof seq);
    for (i = 0; i < count; i++) {
        row(o, i + 1, &c[i], owned, batch, strtoull(seq, NULL, 10), side);
        interleaved |= c[i].layout.pp_interleave > 1;
        beside |= c[i].rollout_gpus + side > 0;
    }
    ts_out_putc(o, '\n');
    if (!batch && strcmp(objective, "time") != 0) {
        char none[8 * TEXT_MAX], text[9 * TEXT_MAX];
        unpriced_gpus(job, owned, none, sizeof none);
        if (none[0]) {
            snprintf(text, sizeof text, "Without a %s price, ranked after the priced GPUs: %s "
                     "(--gpu-prices NAME=HOURLY[:PURCHASE] prices them).",
                     owned ? "purchase" : "cloud", none);
            wrap_words(o, text, 0);
        }
    }
    {
        char text[4 * TEXT_MAX];
        snprintf(text, sizeof text,
                 "%sservers: count x GPUs each. TP, CP, PP, EP: tensor, context, pipeline, expert "
                 "parallel degrees%s. MB: micro-batch per GPU%s. Peak (GiB): per GPU, as nvidia-smi. %s",
                 beside ? "GPUs 8+8: 8 training and 8 beside them (rollout engines, a critic or a reward model "
                          "on GPUs of their own), all priced; "
                        : "",
                 interleaved ? " (PP 4x2: 4 stages of 2 interleaved virtual stages)" : "",
                 batch ? ", the largest that fits; batch: global batch, MB x data-parallel x pp "
                         "micro-batches (one without a pipeline), in samples. Give --tokens for time and cost"
                       : "",
                 batch ? "" : cost_label(owned));
        wrap_words(o, text, 0);
    }
    hint(o, opts, &c[0]);
}

/* ---- the command ---- */

static double seconds_between(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

int ts_cli_cmd_plan(const ts_cli *cx, int argc, char *const *argv)
{
    trainsize_plan_candidate cand[TOP_MAX];
    trainsize_plan_stats stats;
    trainsize_error err;
    trainsize_job *job = NULL;
    ts_cli_options opts;
    struct timespec t0, t1;
    size_t top, count = 0;
    ts_out out;
    int status, rc;

    status = ts_cli_parse_plan_options(cx, argc, argv, &opts);
    if (status != TS_CLI_EXIT_OK)
        return status;
    if (opts.help) {
        ts_cli_options_free(&opts);
        return ts_cli_print_help(cx, TS_CLI_HELP_PLAN);
    }
    status = parse_top(cx, opts.top, &top);
    if (status == TS_CLI_EXIT_OK)
        status = ts_cli_build_job(cx, &opts, &job);
    if (status != TS_CLI_EXIT_OK) {
        ts_cli_options_free(&opts);
        return status;
    }
    memset(&stats, 0, sizeof stats);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = trainsize_plan_with_progress(job, cand, top, &count, &stats, cx->io.progress, cx->io.progress_context, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (rc != TRAINSIZE_OK) {
        status = ts_cli_library_error(cx, rc, &err);
        goto done;
    }
    if (count > top)
        count = top;
    ts_out_init(&out);
    if (!opts.json) human_plan(&out, &opts, job, cand, count, &stats, seconds_between(&t0, &t1));
    status = ts_cli_out_finish(cx, &out, opts.json ? ts_cli_plan_json(cx, &out, job, cand, count, &stats) : 0);

done:
    trainsize_job_free(job);
    ts_cli_options_free(&opts);
    return status;
}

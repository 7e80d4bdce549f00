/* The planner's answer and the catalogues as JSON: the texts `trainsize plan --json`,
 * `trainsize gpus --json` and `trainsize models --json` print, written here once from the
 * field tables (record_fields.c). No heap: into the caller's buffer, snprintf-style. */
#include <inttypes.h>
#include <string.h>

#include "error.h"
#include "field_table.h"
#include "json_write.h"
#include "trainsize.h"

int trainsize_plan_json(const trainsize_job *job, const trainsize_plan_candidate *candidates, size_t count,
                        const trainsize_plan_stats *stats, char *buf, size_t cap, trainsize_error *err)
{
    char objective[32];
    ts_out o;
    size_t i;
    int rc;
    if (buf && cap) buf[0] = '\0'; /* "" whatever fails */
    if (!job || !stats || (!candidates && count) || (!buf && cap))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_plan_json: NULL job, stats, candidates or buffer");
    if ((rc = trainsize_job_get(job, "objective", objective, sizeof objective, err)) < 0) return rc;
    ts_out_fixed(&o, buf, cap);
    ts_out_printf(&o, "{\n  \"evaluated\": %" PRIu64 ",\n  \"estimated\": %" PRIu64
                      ",\n  \"feasible\": %" PRIu64 ",\n  \"fit_memory\": %" PRIu64
                      ",\n  \"fastest_fit_seconds\": ",
                  stats->evaluated, stats->estimated, stats->feasible, stats->fit_memory);
    ts_json_number(&o, stats->fastest_fit_seconds);
    ts_out_puts(&o, ",\n  \"cheapest_fit_cost\": ");
    ts_json_number(&o, stats->cheapest_fit_cost);
    ts_out_puts(&o, ",\n  \"least_overshoot\": ");
    ts_json_number(&o, stats->least_overshoot);
    ts_out_printf(&o, ",\n  \"pruned_memory\": %" PRIu64 ",\n  \"pruned_bound\": %" PRIu64
                      ",\n  \"bounds\": %" PRIu64 ",\n  \"counts_skipped\": %" PRIu64,
                  stats->pruned_memory, stats->pruned_bound, stats->bounds, stats->counts_skipped);
    ts_out_puts(&o, ",\n  \"objective\": ");
    ts_json_string(&o, objective);
    ts_out_puts(&o, ",\n  \"candidates\": [");
    for (i = 0; i < count; i++) {
        ts_out_puts(&o, i ? ",\n    " : "\n    ");
        if (ts_plan_candidate_json(&o, &candidates[i]) != 0) {
            if (cap) buf[0] = '\0'; /* no partial text */
            return ts_fail(err, TRAINSIZE_E_ARGUMENT, "",
                           "trainsize_plan_json: candidate %zu cannot be read (its gpu name has no end)", i);
        }
    }
    ts_out_puts(&o, count ? "\n  ]\n}\n" : "]\n}\n");
    return ts_json_done(&o, "trainsize_plan_json", err);
}

/* A catalogue as an array, one object per entry and line. */
static int catalogue_json(size_t n, int (*entry)(ts_out *, size_t), const char *what, char *buf, size_t cap,
                          trainsize_error *err)
{
    ts_out o;
    size_t i;
    if (!buf && cap) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "%s: NULL buffer", what);
    ts_out_fixed(&o, buf, cap);
    ts_out_putc(&o, '[');
    for (i = 0; i < n; i++) {
        ts_out_puts(&o, i ? ",\n  " : "\n  ");
        entry(&o, i);
    }
    ts_out_puts(&o, n ? "\n]\n" : "]\n");
    return ts_json_done(&o, what, err);
}

static int gpu_entry(ts_out *o, size_t i) { return ts_gpu_json(o, trainsize_gpu_at(i)); }
static int model_entry(ts_out *o, size_t i) { return ts_model_json(o, trainsize_model_at(i)); }

int trainsize_gpus_json(char *buf, size_t cap, trainsize_error *err)
{
    return catalogue_json(trainsize_gpu_count(), gpu_entry, "trainsize_gpus_json", buf, cap, err);
}

int trainsize_models_json(char *buf, size_t cap, trainsize_error *err)
{
    return catalogue_json(trainsize_model_count(), model_entry, "trainsize_models_json", buf, cap, err);
}

int trainsize_capacity_json(const char *gpu, uint64_t gpus, uint64_t seq, uint64_t micro_batch,
                            const trainsize_capacity_entry *entries, char *buf, size_t cap, trainsize_error *err)
{
    ts_out o;
    size_t i;
    if (buf && cap) buf[0] = '\0';
    if (!gpu || !entries || (!buf && cap))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_capacity_json: NULL gpu, entries or buffer");
    ts_out_fixed(&o, buf, cap);
    ts_out_puts(&o, "{\n  \"gpu\": ");
    ts_json_string(&o, gpu);
    ts_out_printf(&o, ",\n  \"gpus\": %" PRIu64 ",\n  \"seq\": %" PRIu64 ",\n  \"micro_batch\": %" PRIu64
                      ",\n  \"methods\": [",
                  gpus, seq, micro_batch);
    for (i = 0; i < TRAINSIZE_CAPACITY_METHODS; i++) {
        const trainsize_capacity_entry *e = &entries[i];
        /* the caller's struct: its strings read only to their NUL within their arrays */
        if (!memchr(e->method, '\0', sizeof e->method) || !memchr(e->model, '\0', sizeof e->model) ||
            !memchr(e->args, '\0', sizeof e->args)) {
            if (cap) buf[0] = '\0';
            return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_capacity_json: entry %zu has a string without its end",
                           i);
        }
        ts_out_puts(&o, i ? ",\n    {\"method\": " : "\n    {\"method\": ");
        ts_json_string(&o, e->method);
        ts_out_puts(&o, ", \"model\": ");
        ts_json_string(&o, e->model[0] ? e->model : NULL);
        ts_out_puts(&o, ", \"parameters\": ");
        ts_json_u64(&o, e->parameters);
        ts_out_puts(&o, ", \"tokens_per_s\": ");
        ts_json_number(&o, e->tokens_per_s);
        ts_out_puts(&o, ", \"peak_total\": ");
        ts_json_u64(&o, e->peak_total);
        ts_out_puts(&o, ", \"args\": ");
        ts_json_string(&o, e->args);
        ts_out_putc(&o, '}');
    }
    ts_out_puts(&o, "\n  ]\n}\n");
    return ts_json_done(&o, "trainsize_capacity_json", err);
}

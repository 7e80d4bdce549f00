/* Fitting a site calibration to the site's measured runs (`trainsize calibrate`).
 *
 * Each run is a job (the command's options) and what was measured: the step time (or
 * tokens per second per GPU) and optionally the peak memory. The fit chooses the
 * efficiency model's site-dependent shares, each within bounds, that minimise
 *
 *   sum over runs of L(log(estimated step / measured step))
 *     + RIDGE x sum over shares of log(share / its default)^2
 *
 * with L a robust loss (robust(): Cauchy, a square within 10 %, logarithmic beyond) of a
 * relative error, so a 1 s step and a 60 s step count alike, and a run the model misses
 * widely does not drag every other run's estimate after it: plain least squares made the
 * Ultra-Scale Playbook sweep's median error worse, 8.6 % to 23 %, for two runs missed by
 * 44 % and 66 %. The ridge keeps a share that no run's step depends on at its default
 * instead of wandering. A share the runs do not move (no multi-server run for the
 * network) is left out of the file and said so. The search is coordinate descent with a
 * golden-section line search per share, from the defaults: the objective is smooth along
 * each share (not convex: a local minimum), and every evaluation is a full estimate per
 * run (about a microsecond), so a few thousand are cheap. The allocator's reserve, where
 * max_memory_reserved was measured, is fitted apart: one share for ZeRO-3/FSDP runs
 * (sharded-slack) and one for the others (allocator-slack), each by the same line search
 * on the same relative error of memory.peak_reserved. Leave-one-out: each run predicted by
 * the calibration fitted on the others, warm-started from the full fit.
 * docs/methodology.md, "Site calibration". */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "json.h"
#include "json_write.h"
#include "text_out.h"
#include "text_values.h"

/* The step-time shares, their bounds, and how the fit moves each: on a log scale (a
 * factor), or on a linear one in seconds (the step overhead, whose default may be 0). */
typedef struct share {
    const char *name;
    trainsize_param_id id;
    double lo, hi;
    int linear;
} share;

static const share SHARES[] = {
    {"gemm-share", TRAINSIZE_ID_GEMM_SHARE, 0.2, 1.2, 0},
    {"scale-up-efficiency", TRAINSIZE_ID_SCALE_UP_EFFICIENCY, 0.2, 1.5, 0},
    {"network-efficiency", TRAINSIZE_ID_NETWORK_EFFICIENCY, 0.2, 1.5, 0},
    {"step-overhead", TRAINSIZE_ID_STEP_OVERHEAD, 0.0, 5.0, 1},
};
#define SHARE_COUNT (sizeof SHARES / sizeof SHARES[0])

/* The ridge's weight: a weak pull to the defaults. Moving a share by 10 % costs 0.01 x
 * log(1.1)^2 = 9e-5, about a seventieth of one run missed by 10 % (robust(0.095) = 6e-3):
 * enough to hold a share the runs do not decide, too little to bend one they do. */
#define RIDGE 0.01
/* The linear share's scale for the ridge: a move of this many seconds counts as a factor e. */
#define LINEAR_SCALE 0.5
/* A share that moves a run's step by less than this (relative, for a 10 % change; 0.05 s
 * for the overhead) does not count as moving it, and a share that moves ... */
#define MOVES_NOTHING 0.01
/* ... in fewer than this many runs (all of them, when there are fewer) is not fitted: one
 * or two of many runs cannot tell a share from their own quirks (a share fitted to two
 * runs moved them and mispredicted the rest). */
#define MOVED_RUNS_MIN 3
#define SWEEPS 6
#define LOO_SWEEPS 3
#define GOLDEN_STEPS 28
/* A measured step the shares cannot reach is not this job's (an option or a unit wrong):
 * faster than the estimate by more than this factor, or slower by more than this factor
 * plus the overhead's bound (step-overhead's 5 s). The bounds above move a step by about
 * 1.6x down and 4x up. */
#define MEASURED_FACTOR_MAX 20.0
/* No optimizer step of a model on a GPU is shorter (a tenth of a millisecond). */
#define STEP_SECONDS_MIN 1e-4
/* No training step's peak is under 1 MiB (the CUDA context alone is hundreds), and a
 * measured peak this many times off the estimate's is another job's: the allocator's
 * reserve, the one memory share a calibration fits, moves it by at most 2x. */
#define PEAK_BYTES_MIN 1048576.0
#define PEAK_FACTOR_MAX 10.0
/* Two runs the estimate cannot tell apart (the same job) measured further apart than
 * this contradict each other: repeated measurements of one job differ by a few percent. */
#define SAME_JOB_SPREAD_MAX 1.5
/* The robust fit minimises its loss, not the median error, so on runs the defaults
 * already fit it may end a little worse by the median (the fms-fsdp half-sites: 5.9 %
 * against 5.3 %); more than WORSE_BY (2 points) worse is a fit worse than none. A fit that
 * still errs by more than FIT_ERROR_MAX on the very runs it was fitted on (a median 50 %)
 * tells the runs apart from no model the shares can make: they contradict each other, or
 * their options are not the runs'. Either is refused. */
#define WORSE_BY 0.02
#define FIT_ERROR_MAX 0.5

/* Runs one file may hold; leave-one-out refits once per run, so up to this many. */
#define RUNS_MAX 256
#define LOO_MAX 64

typedef struct run {
    trainsize_job *job;
    double step;      /* measured step seconds (from tokens per second when that was given) */
    double tps;       /* measured tokens per second per GPU, or 0 */
    double peak;      /* measured peak bytes, or 0 */
    int reserved;     /* peak is max_memory_reserved */
    int sharded;      /* the estimate's layout is ZeRO-3 (sharded-slack) */
    double estimated; /* the estimate's step seconds at the defaults */
    uint64_t estimated_peak; /* and its memory.peak_total: with the GPU, what tells jobs apart */
} run;

typedef struct fit {
    double v[SHARE_COUNT];
    int fitted[SHARE_COUNT];
    double slack[2];  /* allocator-slack, sharded-slack: < 0 when not fitted */
} fit;

/* ---- applying a fit and measuring its error ---- */

static int set_shares(trainsize_job *job, const double *v)
{
    size_t k;
    for (k = 0; k < SHARE_COUNT; k++)
        if (trainsize_job_set_f64(job, SHARES[k].id, v[k], NULL) != TRAINSIZE_OK) return -1;
    return 0;
}

/* One run's estimate under shares v; 0, or -1 when it fails. */
static int estimate(const run *r, const double *v, trainsize_result *out)
{
    if (set_shares(r->job, v) != 0) return -1;
    return trainsize_estimate(r->job, out, sizeof *out, NULL) == TRAINSIZE_OK ? 0 : -1;
}

static double log_error(double predicted, double measured)
{
    return log(predicted / measured);
}

/* A run's loss: the Cauchy (Lorentzian) loss of its log error, about its square within
 * ROBUST_WIDTH (10 %) and growing only as its logarithm beyond, so that a run the model
 * misses by 60 % (a shape or schedule it does not describe) barely pulls the shares:
 * least squares, and the gentler pseudo-Huber loss, let the Ultra-Scale Playbook's two
 * worst-described runs drag scale-up-efficiency to 0.47 and the other runs' median error
 * from 8.6 % to 25 % (docs/accuracy.md, "Site calibration"). */
#define ROBUST_WIDTH 0.1
static double robust(double d)
{
    double r = d / ROBUST_WIDTH;
    return ROBUST_WIDTH * ROBUST_WIDTH * log(1.0 + r * r);
}

/* The objective over runs [0, n) but `skip` (-1: none). */
static double objective(run *runs, size_t n, long skip, const double *v, const double *v0)
{
    double sum = 0.0;
    size_t i, k;
    for (i = 0; i < n; i++) {
        trainsize_result e;
        double d;
        if ((long)i == skip) continue;
        if (estimate(&runs[i], v, &e) != 0) return INFINITY;
        d = log_error(e.time.step_seconds, runs[i].step);
        sum += robust(d);
    }
    for (k = 0; k < SHARE_COUNT; k++) {
        double d = SHARES[k].linear ? (v[k] - v0[k]) / LINEAR_SCALE : log(v[k] / v0[k]);
        sum += RIDGE * d * d;
    }
    return sum;
}

/* The minimum of f on [a, b] by golden-section search (GOLDEN_STEPS steps), and its value
 * in *fmin. One search for the shares and the allocator's reserve alike. */
typedef double (*objective_fn)(double x, void *ctx);
static double golden(objective_fn f, void *ctx, double a, double b, double *fmin)
{
    const double g = 0.6180339887498949;
    double x1 = b - g * (b - a), x2 = a + g * (b - a), f1 = f(x1, ctx), f2 = f(x2, ctx);
    int step;
    for (step = 0; step < GOLDEN_STEPS; step++) {
        if (f1 < f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - g * (b - a);
            f1 = f(x1, ctx);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + g * (b - a);
            f2 = f(x2, ctx);
        }
    }
    *fmin = f1 < f2 ? f1 : f2;
    return f1 < f2 ? x1 : x2;
}

/* The objective along share k: x on a log scale unless the share is linear. */
typedef struct along {
    run *runs;
    size_t n;
    long skip;
    double *v;
    const double *v0;
    size_t k;
} along;

static double share_objective(double x, void *ctx)
{
    along *a = ctx;
    a->v[a->k] = SHARES[a->k].linear ? x : exp(x);
    return objective(a->runs, a->n, a->skip, a->v, a->v0);
}

/* Share k at its best within its bounds, the others held; never worse than it started. */
static void line_search(run *runs, size_t n, long skip, double *v, const double *v0, size_t k)
{
    along a = {runs, n, skip, v, v0, k};
    int linear = SHARES[k].linear;
    double start = v[k], fstart = objective(runs, n, skip, v, v0), fbest;
    double x = golden(share_objective, &a, linear ? SHARES[k].lo : log(SHARES[k].lo),
                      linear ? SHARES[k].hi : log(SHARES[k].hi), &fbest);
    v[k] = fbest > fstart ? start : linear ? x : exp(x);
}

static void fit_shares(run *runs, size_t n, long skip, fit *f, const double *v0, int sweeps)
{
    int s;
    size_t k;
    for (s = 0; s < sweeps; s++)
        for (k = 0; k < SHARE_COUNT; k++)
            if (f->fitted[k]) line_search(runs, n, skip, f->v, v0, k);
}

/* Which shares the runs move: a 10 % change (0.05 s for the overhead) of share k changes
 * some run's estimated step by more than MOVES_NOTHING. */
static int moved(run *runs, size_t n, const double *v0, size_t k)
{
    double v[SHARE_COUNT];
    size_t i, runs_moved = 0;
    memcpy(v, v0, sizeof v);
    for (i = 0; i < n; i++) {
        trainsize_result a, b;
        v[k] = v0[k];
        if (estimate(&runs[i], v, &a) != 0) return 0;
        v[k] = SHARES[k].linear ? v0[k] + 0.05 : v0[k] * 0.9;
        if (estimate(&runs[i], v, &b) != 0) return 0;
        runs_moved += fabs(b.time.step_seconds / a.time.step_seconds - 1.0) > MOVES_NOTHING;
    }
    return runs_moved >= (n < MOVED_RUNS_MIN ? n : MOVED_RUNS_MIN);
}

/* The allocator's reserve for one group of runs (ZeRO-3/FSDP or not): the error of
 * memory.peak_reserved over the group's runs with max_memory_reserved, reserve x. */
typedef struct reserve {
    run *runs;
    size_t n;
    const double *v;
    int sharded;
} reserve;

static int in_group(const run *r, int sharded) { return r->peak > 0 && r->reserved && r->sharded == sharded; }

static double reserve_objective(double x, void *ctx)
{
    reserve *g = ctx;
    trainsize_param_id id = g->sharded ? TRAINSIZE_ID_SHARDED_SLACK : TRAINSIZE_ID_ALLOCATOR_SLACK;
    double sum = 0.0;
    size_t i;
    for (i = 0; i < g->n; i++) {
        trainsize_result e;
        double d;
        if (!in_group(&g->runs[i], g->sharded)) continue;
        trainsize_job_set_f64(g->runs[i].job, id, x, NULL);
        if (estimate(&g->runs[i], g->v, &e) != 0) return INFINITY;
        d = log_error((double)e.memory.peak_reserved, g->runs[i].peak);
        sum += d * d;
    }
    return sum;
}

/* The reserve in [0, 1] whose memory.peak_reserved errs least for the group; < 0 when no
 * run of it measured max_memory_reserved. */
static double fit_slack(run *runs, size_t n, const double *v, int sharded)
{
    reserve g = {runs, n, v, sharded};
    double fmin;
    size_t i, any = 0;
    for (i = 0; i < n; i++) any += in_group(&runs[i], sharded);
    return any ? golden(reserve_objective, &g, 0.0, 1.0, &fmin) : -1.0;
}

/* ---- reading the runs ---- */

/* "runs[i] ("name"): message", the field "runs". */
static int run_fail(trainsize_error *err, int code, size_t i, const char *name, const char *message)
{
    return ts_fail(err, code, "runs", "runs[%zu]%s%.60s%s: %s", i, name[0] ? " (\"" : "", name, name[0] ? "\")" : "",
                   message);
}

/* The settings the fit chooses (and hfu, which would make the kernel model moot). */
static int calibrated(const char *option)
{
    size_t k;
    if (strcmp(option, "hfu") == 0) return 1;
    for (k = 0; k < trainsize_calibration_setting_count(); k++)
        if (strcmp(option, trainsize_calibration_setting_at(k)) == 0) return 1;
    return 0;
}

/* A job option's value as the text trainsize_job_set takes. */
static int option_text(const ts_json_value *v, char *buf, size_t cap)
{
    double d;
    int b;
    if (v->type == TS_JSON_STRING) return ts_json_get_string(v, "value", buf, cap, NULL) == TRAINSIZE_OK ? 0 : -1;
    if (v->type == TS_JSON_BOOL && ts_json_get_bool(v, "value", &b, NULL) == TRAINSIZE_OK) {
        snprintf(buf, cap, "%s", b ? "true" : "false");
        return 0;
    }
    if (v->type == TS_JSON_NUMBER && ts_json_get_double(v, "value", &d, NULL) == TRAINSIZE_OK) {
        ts_format_shortest(buf, cap, d); /* the C locale's form, whatever LC_NUMERIC says */
        return 0;
    }
    return -1;
}

static int read_job(const ts_json_value *jobv, trainsize_job *job, size_t i, const char *name, trainsize_error *err)
{
    ts_json_value key, value, model;
    size_t cursor = 0;
    char text[TRAINSIZE_HF_CONFIG_MAX_BYTES > 4096 ? 4096 : TRAINSIZE_HF_CONFIG_MAX_BYTES];
    char option[64], why[300];
    trainsize_error inner;
    if (jobv->type != TS_JSON_OBJECT)
        return run_fail(err, TRAINSIZE_E_INVALID, i, name, "job: expected an object of the command's options");
    /* the model first, as the command applies it */
    if (ts_json_object_get(jobv, "model", &model)) {
        if (option_text(&model, text, sizeof text) != 0)
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, "job: model: expected a preset name");
        if (trainsize_job_set(job, "model", text, &inner) != TRAINSIZE_OK) {
            snprintf(why, sizeof why, "job: %s", inner.message);
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
        }
    }
    while (ts_json_object_next(jobv, &cursor, &key, &value)) {
        if (ts_json_string_copy(&key, option, sizeof option) >= sizeof option)
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, "job: an option name is too long");
        if (strcmp(option, "model") == 0) continue;
        if (strcmp(option, "calibration") == 0 || strcmp(option, "hf-config") == 0 || strcmp(option, "gpu-file") == 0) {
            snprintf(why, sizeof why, "job: %s: a run is given by the command's job options, not a file", option);
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
        }
        if (calibrated(option)) {
            snprintf(why, sizeof why, "job: %s: the fit chooses it (a run says what ran, not how fast)", option);
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
        }
        if (option_text(&value, text, sizeof text) != 0) {
            snprintf(why, sizeof why, "job: %s: expected a string, number or boolean", option);
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
        }
        if (trainsize_job_set(job, option, text, &inner) != TRAINSIZE_OK) {
            snprintf(why, sizeof why, "job: %s", inner.message);
            return run_fail(err, inner.code == TRAINSIZE_E_UNKNOWN ? TRAINSIZE_E_UNKNOWN : TRAINSIZE_E_INVALID, i,
                            name, why);
        }
    }
    return TRAINSIZE_OK;
}

/* A positive, finite measured number from min to max, or absent (0). */
static int measured_number(const ts_json_value *m, const char *key, double min, double max, double *out, size_t i,
                           const char *name, trainsize_error *err)
{
    ts_json_value v;
    char why[160];
    *out = 0.0;
    if (!ts_json_object_get(m, key, &v)) return TRAINSIZE_OK;
    if (ts_json_get_double(&v, key, out, NULL) != TRAINSIZE_OK || !(*out > 0.0) || !(*out <= max) || *out < min) {
        snprintf(why, sizeof why, "measured: %s: expected a positive number (%g to %g)", key, min, max);
        return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
    }
    return TRAINSIZE_OK;
}

static const char *const RUN_KEYS[] = {"name", "job", "measured", "source"};
static const char *const MEASURED_KEYS[] = {"step_seconds", "tokens_per_s_per_gpu", "peak_allocated_bytes",
                                            "peak_reserved_bytes"};

static int only_keys(const ts_json_value *obj, const char *const *keys, size_t n, const char *where, size_t i,
                     const char *name, trainsize_error *err)
{
    ts_json_value key, value;
    size_t cursor = 0, k;
    while (ts_json_object_next(obj, &cursor, &key, &value)) {
        char text[40], why[160];
        for (k = 0; k < n; k++)
            if (ts_json_string_equals(&key, keys[k])) break;
        if (k < n) continue;
        if (ts_json_string_copy(&key, text, sizeof text) == TS_JSON_BAD_STRING) text[0] = '\0';
        snprintf(why, sizeof why, "%sunknown key \"%.32s\"", where, text);
        return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
    }
    return TRAINSIZE_OK;
}

/* The memory figure comparable to run r's measurement. */
static uint64_t peak_of(const run *r, const trainsize_result *e)
{
    return r->reserved ? e->memory.peak_reserved : e->memory.peak_allocated;
}

/* A measured step within what a step can be and what the shares can reach from the
 * estimate at the defaults. */
static int plausible(const run *r, const trainsize_result *e, size_t i, const char *name, trainsize_error *err)
{
    char why[200];
    double est = e->time.step_seconds, ratio = r->step / est;
    if (r->peak > 0.0) {
        double est_peak = (double)peak_of(r, e), peak_ratio = r->peak / est_peak;
        if (!(peak_ratio >= 1.0 / PEAK_FACTOR_MAX && peak_ratio <= PEAK_FACTOR_MAX)) {
            snprintf(why, sizeof why, "measured: a peak of %g bytes is %.3g times the estimate's %.4g GiB: not "
                     "this job's (check its options and the unit: bytes)", r->peak, peak_ratio, est_peak / 1073741824.0);
            return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
        }
    }
    if (r->step >= STEP_SECONDS_MIN && r->step <= 1e7 && ratio >= 1.0 / MEASURED_FACTOR_MAX &&
        r->step <= MEASURED_FACTOR_MAX * est + SHARES[SHARE_COUNT - 1].hi)
        return TRAINSIZE_OK;
    if (r->step < STEP_SECONDS_MIN || r->step > 1e7)
        snprintf(why, sizeof why, "measured: a step of %g s%s is not a training step's (%g s to 1e7 s): check the "
                 "unit", r->step, r->tps > 0.0 ? " (from tokens_per_s_per_gpu)" : "", STEP_SECONDS_MIN);
    else
        snprintf(why, sizeof why, "measured: a step of %g s is %.3g times the estimate's %.3g s, beyond what a "
                 "calibration's shares reach: check the run's options and the unit", r->step, ratio, est);
    return run_fail(err, TRAINSIZE_E_INVALID, i, name, why);
}

/* Runs the estimate cannot tell apart (the same GPU, step and peak at the defaults) whose
 * measured steps lie further apart than SAME_JOB_SPREAD_MAX: the fit would split the
 * difference and fit neither. */
static int contradictions(const run *runs, const trainsize_calibration_run *out, size_t n, trainsize_error *err)
{
    size_t i, j;
    for (i = 0; i < n; i++)
        for (j = i + 1; j < n; j++) {
            double hi = fmax(runs[i].step, runs[j].step), lo = fmin(runs[i].step, runs[j].step);
            if (runs[i].estimated != runs[j].estimated || runs[i].estimated_peak != runs[j].estimated_peak ||
                strcmp(out[i].gpu, out[j].gpu) != 0 || hi <= SAME_JOB_SPREAD_MAX * lo)
                continue;
            return ts_fail(err, TRAINSIZE_E_INVALID, "runs",
                           "runs[%zu] (\"%.40s\") and runs[%zu] (\"%.40s\") are the same job to the estimate but "
                           "were measured at %g s and %g s a step (%.3gx apart): measure again, or give each "
                           "run's job the options that differ", i, out[i].name, j, out[j].name, runs[i].step,
                           runs[j].step, hi / lo);
        }
    return TRAINSIZE_OK;
}

static int read_run(const ts_json_value *rv, size_t i, run *r, trainsize_calibration_run *out, trainsize_error *err)
{
    ts_json_value v, m;
    trainsize_result e;
    double alloc, reserved, tps;
    char why[TRAINSIZE_ERROR_MESSAGE_MAX + 64];
    trainsize_error inner;
    int rc;
    memset(out, 0, sizeof *out);
    if (rv->type != TS_JSON_OBJECT)
        return run_fail(err, TRAINSIZE_E_INVALID, i, "", "expected an object: {\"job\": {...}, \"measured\": {...}}");
    if (ts_json_object_get(rv, "name", &v) &&
        (ts_json_get_string(&v, "name", out->name, sizeof out->name, NULL) || !ts_text_printable(out->name)))
        return run_fail(err, TRAINSIZE_E_INVALID, i, "",
                        "name: expected a text of up to 95 bytes, valid UTF-8 without control characters");
    if (!out->name[0]) snprintf(out->name, sizeof out->name, "run %zu", i + 1);
    if ((rc = only_keys(rv, RUN_KEYS, sizeof RUN_KEYS / sizeof RUN_KEYS[0], "", i, out->name, err))) return rc;
    r->job = trainsize_job_new();
    if (!r->job) return ts_fail(err, TRAINSIZE_E_NOMEM, "runs", "runs: out of memory");
    if (!ts_json_object_get(rv, "job", &v))
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name, "job: missing (the command's options of the run)");
    if ((rc = read_job(&v, r->job, i, out->name, err))) return rc;
    if (!ts_json_object_get(rv, "measured", &m) || m.type != TS_JSON_OBJECT)
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name,
                        "measured: missing (step_seconds or tokens_per_s_per_gpu, and optionally peak_allocated_bytes "
                        "or peak_reserved_bytes)");
    if ((rc = only_keys(&m, MEASURED_KEYS, sizeof MEASURED_KEYS / sizeof MEASURED_KEYS[0], "measured: ", i, out->name,
                        err)) ||
        (rc = measured_number(&m, "step_seconds", 0.0, 1e7, &r->step, i, out->name, err)) ||
        (rc = measured_number(&m, "tokens_per_s_per_gpu", 0.0, 1e9, &tps, i, out->name, err)) ||
        (rc = measured_number(&m, "peak_allocated_bytes", PEAK_BYTES_MIN, 1e15, &alloc, i, out->name, err)) ||
        (rc = measured_number(&m, "peak_reserved_bytes", PEAK_BYTES_MIN, 1e15, &reserved, i, out->name, err)))
        return rc;
    if (!r->step && !tps)
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name, "measured: needs step_seconds or tokens_per_s_per_gpu");
    if (alloc && reserved)
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name,
                        "measured: give peak_allocated_bytes or peak_reserved_bytes, not both");
    if (trainsize_estimate(r->job, &e, sizeof e, &inner) != TRAINSIZE_OK) {
        snprintf(why, sizeof why, "job: %.*s", (int)sizeof inner.message, inner.message);
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name, why);
    }
    if (!e.memory.fits) {
        snprintf(why, sizeof why, "does not fit its GPU (peak %.1f GiB of %.1f GiB): a run that ran fits, so its "
                 "options are not the run's", (double)e.memory.peak_total / 1073741824.0,
                 (double)e.memory.gpu_capacity / 1073741824.0);
        return run_fail(err, TRAINSIZE_E_INVALID, i, out->name, why);
    }
    if (tps) {
        /* tokens of a step over the step time, per GPU */
        double tokens_per_step = e.time.steps ? e.time.tokens / (double)e.time.steps : 0.0;
        double step = tokens_per_step / (tps * (double)e.gpus);
        if (r->step && fabs(step / r->step - 1.0) > 0.02) {
            snprintf(why, sizeof why, "measured: step_seconds %g and tokens_per_s_per_gpu %g disagree (%g s a step of "
                     "%.0f tokens on %llu GPUs)", r->step, tps, step, tokens_per_step, (unsigned long long)e.gpus);
            return run_fail(err, TRAINSIZE_E_INVALID, i, out->name, why);
        }
        if (!r->step) r->step = step;
        r->tps = tps;
    }
    r->peak = alloc ? alloc : reserved;
    r->reserved = reserved > 0;
    if ((rc = plausible(r, &e, i, out->name, err))) return rc;
    r->estimated = e.time.step_seconds;
    r->estimated_peak = e.memory.peak_total;
    r->sharded = e.layout.zero >= 3;
    memcpy(out->gpu, e.gpu, sizeof out->gpu);
    out->step_seconds = r->step;
    out->peak_bytes = (uint64_t)r->peak;
    out->peak_reserved = r->reserved;
    return TRAINSIZE_OK;
}

/* ---- writing the calibration ---- */

/* A figure for people (the fit's errors, each run's seconds): `precision` significant
 * digits, in the C locale's form whatever LC_NUMERIC says. */
static void json_rounded(ts_out *o, int precision, double d)
{
    char buf[40];
    if (!isfinite(d)) {
        ts_out_puts(o, "null");
        return;
    }
    ts_format_double(buf, sizeof buf, precision, d);
    ts_out_puts(o, buf);
}

static double median_abs(const double *x, size_t n)
{
    double tmp[RUNS_MAX];
    size_t i, j;
    if (!n) return 0.0;
    for (i = 0; i < n; i++) tmp[i] = fabs(x[i]);
    for (i = 1; i < n; i++) /* insertion sort: a few hundred at most */
        for (j = i; j > 0 && tmp[j - 1] > tmp[j]; j--) {
            double t = tmp[j];
            tmp[j] = tmp[j - 1];
            tmp[j - 1] = t;
        }
    return n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2.0;
}

static void write_calibration(ts_out *o, const fit *f, const trainsize_calibration_run *out, size_t n,
                              const char *date, const trainsize_calibration_summary *sum)
{
    size_t i, k, j;
    int first;
    ts_out_printf(o, "{\n  \"trainsize_calibration\": 1,\n  \"library_version\": ");
    ts_json_string(o, trainsize_version_string());
    ts_out_puts(o, ",\n  \"date\": ");
    ts_json_string(o, date ? date : "");
    ts_out_printf(o, ",\n  \"runs\": %zu,\n  \"gpus\": [", n);
    for (i = 0, first = 1; i < n; i++) {
        for (j = 0; j < i; j++)
            if (strcmp(out[j].gpu, out[i].gpu) == 0) break;
        if (j < i) continue;
        if (!first) ts_out_puts(o, ", ");
        ts_json_string(o, out[i].gpu);
        first = 0;
    }
    ts_out_puts(o, "],\n  \"settings\": {");
    for (k = 0, first = 1; k < SHARE_COUNT; k++) {
        if (!f->fitted[k]) continue;
        ts_out_printf(o, "%s\n    \"%s\": ", first ? "" : ",", SHARES[k].name);
        ts_json_number(o, f->v[k]);
        first = 0;
    }
    for (k = 0; k < 2; k++) {
        if (f->slack[k] < 0) continue;
        ts_out_printf(o, "%s\n    \"%s\": ", first ? "" : ",", k ? "sharded-slack" : "allocator-slack");
        ts_json_number(o, f->slack[k]);
        first = 0;
    }
    ts_out_puts(o, first ? "},\n" : "\n  },\n");
    ts_out_puts(o, "  \"fit\": {\"step_error_before\": ");
    json_rounded(o, 4, sum->step_error_before);
    ts_out_puts(o, ", \"step_error_after\": ");
    json_rounded(o, 4, sum->step_error_after);
    ts_out_puts(o, ", \"step_error_left_out\": ");
    if (sum->left_out) json_rounded(o, 4, sum->step_error_left_out);
    else ts_out_puts(o, "null");
    ts_out_puts(o, ", \"peak_error_before\": ");
    json_rounded(o, 4, sum->peak_error_before);
    ts_out_puts(o, ", \"peak_error_after\": ");
    json_rounded(o, 4, sum->peak_error_after);
    ts_out_puts(o, ", \"not_fitted\": [");
    for (k = 0, first = 1; k < SHARE_COUNT; k++) {
        if (f->fitted[k]) continue;
        if (!first) ts_out_puts(o, ", ");
        ts_json_string(o, SHARES[k].name);
        first = 0;
    }
    ts_out_puts(o, "]},\n  \"per_run\": [");
    for (i = 0; i < n; i++) {
        const trainsize_calibration_run *r = &out[i];
        ts_out_puts(o, i ? ",\n    {\"name\": " : "\n    {\"name\": ");
        ts_json_string(o, r->name);
        ts_out_puts(o, ", \"gpu\": ");
        ts_json_string(o, r->gpu);
        ts_out_puts(o, ", \"step_seconds\": ");
        json_rounded(o, 6, r->step_seconds);
        ts_out_puts(o, ", \"before\": ");
        json_rounded(o, 6, r->step_seconds_before);
        ts_out_puts(o, ", \"after\": ");
        json_rounded(o, 6, r->step_seconds_after);
        ts_out_puts(o, ", \"left_out\": ");
        if (r->step_seconds_left_out > 0) json_rounded(o, 6, r->step_seconds_left_out);
        else ts_out_puts(o, "null");
        if (r->peak_bytes)
            ts_out_printf(o, ", \"%s\": %llu, \"peak_before\": %llu, \"peak_after\": %llu",
                          r->peak_reserved ? "peak_reserved_bytes" : "peak_allocated_bytes",
                          (unsigned long long)r->peak_bytes, (unsigned long long)r->peak_bytes_before,
                          (unsigned long long)r->peak_bytes_after);
        ts_out_putc(o, '}');
    }
    ts_out_puts(o, n ? "\n  ]\n}\n" : "]\n}\n");
}

/* ---- the fit ---- */

static void free_runs(run *runs, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) trainsize_job_free(runs[i].job);
    free(runs);
}


/* A fit worse than none, or one that still misses its own runs widely (WORSE_BY,
 * FIT_ERROR_MAX): refused with the spread of measured over estimated. */
static int worse_than_none(const trainsize_calibration_summary *sum, const trainsize_calibration_run *out, size_t n,
                           trainsize_error *err)
{
    double lo = HUGE_VAL, hi = 0.0;
    size_t i;
    for (i = 0; i < n; i++) {
        double ratio = out[i].step_seconds / out[i].step_seconds_before;
        lo = fmin(lo, ratio);
        hi = fmax(hi, ratio);
    }
    return ts_fail(err, TRAINSIZE_E_INVALID, "runs",
                   "runs: the fit errs by a median %.1f %% on its own runs (the defaults: %.1f %%): the runs "
                   "contradict each other (measured steps from %.3gx to %.3gx the estimate's); nothing written",
                   100.0 * sum->step_error_after, 100.0 * sum->step_error_before, lo, hi);
}

/* The runs: the JSON's list (or {"runs": [...]}) read into a new array of n jobs and their
 * measurements (the caller frees it with free_runs), each echoed in out[]. */
static int read_runs(const char *runs_json, size_t len, size_t cap, trainsize_calibration_run *out, run **runs_out,
                     size_t *n_out, trainsize_error *err)
{
    ts_json_value root, list, rv;
    run *runs;
    size_t n = 0, cursor = 0, i;
    int rc;
    if ((rc = ts_json_parse(runs_json ? runs_json : "", len, TRAINSIZE_HF_CONFIG_MAX_BYTES,
                            TRAINSIZE_HF_CONFIG_MAX_DEPTH, &root, err)))
        return rc;
    list = root;
    if (root.type == TS_JSON_OBJECT && !ts_json_object_get(&root, "runs", &list))
        return ts_fail(err, TRAINSIZE_E_INVALID, "runs", "runs: expected {\"runs\": [...]} or a list of runs");
    if (list.type != TS_JSON_ARRAY)
        return ts_fail(err, TRAINSIZE_E_INVALID, "runs", "runs: expected a list of runs");
    while (ts_json_array_next(&list, &cursor, &rv)) n++;
    if (n == 0) return ts_fail(err, TRAINSIZE_E_INVALID, "runs", "runs: the list is empty");
    if (n > RUNS_MAX || n > cap)
        return ts_fail(err, TRAINSIZE_E_LIMIT, "runs", "runs: %zu runs, more than %zu", n, n > RUNS_MAX ? (size_t)RUNS_MAX : cap);
    runs = calloc(n, sizeof *runs);
    if (!runs) return ts_fail(err, TRAINSIZE_E_NOMEM, "runs", "runs: out of memory");
    for (cursor = 0, i = 0; ts_json_array_next(&list, &cursor, &rv); i++) {
        if ((rc = read_run(&rv, i, &runs[i], &out[i], err))) {
            free_runs(runs, n);
            return rc;
        }
    }
    if ((rc = contradictions(runs, out, n, err))) {
        free_runs(runs, n);
        return rc;
    }
    *runs_out = runs;
    *n_out = n;
    return TRAINSIZE_OK;
}

/* The shares' values of a fresh job: where the fit starts and what it is held to. */
static int default_shares(double v0[SHARE_COUNT], trainsize_error *err)
{
    trainsize_job *fresh = trainsize_job_new();
    char text[32];
    size_t k;
    if (!fresh) return ts_fail(err, TRAINSIZE_E_NOMEM, "runs", "runs: out of memory");
    for (k = 0; k < SHARE_COUNT; k++) {
        /* read back with the library's own reader: strtod follows LC_NUMERIC */
        if (trainsize_job_get(fresh, SHARES[k].name, text, sizeof text, NULL) < 0 ||
            ts_parse_double(text, &v0[k]) != 0)
            v0[k] = 0.0;
    }
    trainsize_job_free(fresh);
    return TRAINSIZE_OK;
}

/* Each run estimated with the fitted shares and slacks: out[]'s "after" figures, the step
 * errors (log) in after[], and the peak errors before and after in pb[] and pa[] for the
 * runs that measured a peak; their count. */
static size_t estimate_after(run *runs, size_t n, const fit *f, trainsize_calibration_run *out, double *after,
                             double *pb, double *pa)
{
    size_t i, np = 0;
    for (i = 0; i < n; i++) {
        trainsize_result e;
        if (f->slack[0] >= 0) trainsize_job_set_f64(runs[i].job, TRAINSIZE_ID_ALLOCATOR_SLACK, f->slack[0], NULL);
        if (f->slack[1] >= 0) trainsize_job_set_f64(runs[i].job, TRAINSIZE_ID_SHARDED_SLACK, f->slack[1], NULL);
        estimate(&runs[i], f->v, &e);
        out[i].step_seconds_after = e.time.step_seconds;
        out[i].peak_bytes_after = peak_of(&runs[i], &e);
        after[i] = log_error(e.time.step_seconds, runs[i].step);
        if (runs[i].peak > 0) {
            pb[np] = log((double)out[i].peak_bytes_before / runs[i].peak);
            pa[np] = log((double)out[i].peak_bytes_after / runs[i].peak);
            np++;
        }
    }
    return np;
}

/* Leave-one-out: each run predicted from the others' fit (the step shares; warm-started
 * from the whole fit); the median error into the summary. */
static void leave_one_out(run *runs, size_t n, const fit *f, const double *v0, trainsize_calibration_run *out,
                          trainsize_calibration_summary *sum)
{
    double left[RUNS_MAX];
    size_t i;
    for (i = 0; i < n; i++) {
        fit g = *f;
        trainsize_result e;
        fit_shares(runs, n, (long)i, &g, v0, LOO_SWEEPS);
        estimate(&runs[i], g.v, &e);
        out[i].step_seconds_left_out = e.time.step_seconds;
        left[i] = log_error(e.time.step_seconds, runs[i].step);
    }
    sum->left_out = 1;
    sum->step_error_left_out = exp(median_abs(left, n)) - 1.0;
}

/* The calibration file's text into the caller's buffer (snprintf-style: its length in
 * *calibration_len whatever the capacity). */
static int hand_over_text(const fit *f, const trainsize_calibration_run *out, size_t n, const char *date,
                          const trainsize_calibration_summary *sum, char *calibration, size_t calibration_cap,
                          size_t *calibration_len, trainsize_error *err)
{
    ts_out o;
    ts_out_init(&o);
    write_calibration(&o, f, out, n, date, sum);
    if (o.failed) {
        ts_out_free(&o);
        return ts_fail(err, TRAINSIZE_E_NOMEM, "runs", "runs: out of memory");
    }
    if (calibration_len) *calibration_len = o.len;
    if (calibration_cap) {
        size_t m = o.len < calibration_cap - 1 ? o.len : calibration_cap - 1;
        memcpy(calibration, o.data, m);
        calibration[m] = '\0';
    }
    ts_out_free(&o);
    return TRAINSIZE_OK;
}

int trainsize_calibrate(const char *runs_json, size_t len, const char *date, trainsize_calibration_run *out,
                        size_t cap, size_t *count, trainsize_calibration_summary *summary, char *calibration,
                        size_t calibration_cap, size_t *calibration_len, trainsize_error *err)
{
    run *runs = NULL;
    size_t n = 0, i, k, np;
    double v0[SHARE_COUNT], before[RUNS_MAX], after[RUNS_MAX], pb[RUNS_MAX], pa[RUNS_MAX];
    fit f;
    trainsize_calibration_summary sum;
    int rc;
    if (count) *count = 0;
    if (calibration_len) *calibration_len = 0;
    if ((!runs_json && len) || !out || !count || !summary || (!calibration && calibration_cap))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "runs", "runs: NULL text or output");
    if (date && date[0] && !ts_date_valid(date))
        return ts_fail(err, TRAINSIZE_E_INVALID, "date", "date: expected a calendar date, YYYY-MM-DD");
    if ((rc = read_runs(runs_json, len, cap, out, &runs, &n, err))) return rc;
    if ((rc = default_shares(v0, err))) {
        free_runs(runs, n);
        return rc;
    }
    memset(&f, 0, sizeof f);
    memcpy(f.v, v0, sizeof v0);
    for (k = 0; k < SHARE_COUNT; k++) f.fitted[k] = moved(runs, n, v0, k);
    memset(&sum, 0, sizeof sum);
    for (i = 0; i < n; i++) {
        trainsize_result e;
        estimate(&runs[i], v0, &e);
        out[i].step_seconds_before = e.time.step_seconds;
        out[i].peak_bytes_before = peak_of(&runs[i], &e);
        before[i] = log_error(e.time.step_seconds, runs[i].step);
    }
    fit_shares(runs, n, -1, &f, v0, SWEEPS);
    f.slack[0] = fit_slack(runs, n, f.v, 0);
    f.slack[1] = fit_slack(runs, n, f.v, 1);
    np = estimate_after(runs, n, &f, out, after, pb, pa);
    if (n >= 3 && n <= LOO_MAX) leave_one_out(runs, n, &f, v0, out, &sum);
    sum.step_error_before = exp(median_abs(before, n)) - 1.0;
    sum.step_error_after = exp(median_abs(after, n)) - 1.0;
    sum.peak_error_before = np ? exp(median_abs(pb, np)) - 1.0 : 0.0;
    sum.peak_error_after = np ? exp(median_abs(pa, np)) - 1.0 : 0.0;
    sum.peak_runs = np;
    for (k = 0; k < SHARE_COUNT; k++) {
        sum.values[k] = f.v[k];
        sum.fitted[k] = f.fitted[k];
    }
    sum.allocator_slack = f.slack[0];
    sum.sharded_slack = f.slack[1];
    free_runs(runs, n);
    if (sum.step_error_after > sum.step_error_before + WORSE_BY || sum.step_error_after > FIT_ERROR_MAX)
        return worse_than_none(&sum, out, n, err);
    *count = n;
    *summary = sum;
    return hand_over_text(&f, out, n, date, &sum, calibration, calibration_cap, calibration_len, err);
}

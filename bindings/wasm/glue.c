/* The WebAssembly module's entries, for trainsize.js.
 *
 * tsw_run runs the `trainsize` command itself on an argument vector (the same code path
 * as the native command, programs/trainsize, a client of the public header only); what it
 * would print goes to a buffer in the module's memory (cli_module_output), not to stdout,
 * and trainsize.js decodes it in one go. tsw_estimate runs the estimate command up to its
 * output and leaves the result's fields as numbers in `slots`, so that trainsize.js builds
 * the object the command's JSON would parse to without any JSON being written or parsed.
 * The command's errors still reach stderr (the module's printErr): one line, on failure.
 *
 * The module runs one call at a time (JavaScript is single-threaded; a worker gets its own
 * module), so the last output and the last result are module state, read right after the
 * call that made them. */
#include <emscripten/emscripten.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The command's main, compiled under this name for the module (CMakeLists.txt). */
int trainsize_cli_main(int argc, char **argv);

/* The last command's output (malloc'd by the text buffer; freed when the next comes). */
static char *output;
static size_t output_len;

int cli_module_output(ts_out *o)
{
    free(output);
    output = o->data;
    output_len = o->len;
    o->data = NULL;
    o->len = o->cap = 0;
    return CLI_EXIT_OK;
}

/* The planner's progress, to the JavaScript that called the module: Module.onPlanProgress
 * (trainsize.js sets it for the length of a plan() that asked for progress) gets GPU
 * counts done, their total and the configurations examined, and a true answer cancels. */
EM_JS(int, tsw_plan_progress, (double done, double total, double examined), {
    var f = Module['onPlanProgress'];
    return typeof f === 'function' && f(done, total, examined) ? 1 : 0;
});

int cli_module_progress(void *context, uint64_t done, uint64_t total, uint64_t examined)
{
    (void)context;
    return tsw_plan_progress((double)done, (double)total, (double)examined);
}

/* One 8-byte slot per result field: a double for numbers and booleans (a u64 as the
 * double JSON.parse would read it), the address of the text for strings and choices, the
 * bits for flags. The catalogue has about 200 fields; a library with more than this
 * table holds is refused by tsw_init, not overrun. */
#define SLOTS_MAX 1024
static union {
    double number;
    uint64_t bits;
} slots[SLOTS_MAX];
static cli_estimate last;
/* A job fresh from trainsize_job_new, copied for each estimate (setting every default from
 * its text again costs more than the estimate itself). */
static trainsize_job *base_job;
/* The last estimate's job, kept for tsw_estimate_again: a call with the same options (the
 * configurator's redraws, a loop) estimates it again without parsing and building it. */
static trainsize_job *last_job;

EMSCRIPTEN_KEEPALIVE int tsw_run(int argc, char **argv);
EMSCRIPTEN_KEEPALIVE const char *tsw_output(void);
EMSCRIPTEN_KEEPALIVE size_t tsw_output_length(void);
EMSCRIPTEN_KEEPALIVE int tsw_init(void);
EMSCRIPTEN_KEEPALIVE const char *tsw_field_path(size_t index);
EMSCRIPTEN_KEEPALIVE int tsw_field_type(size_t index);
EMSCRIPTEN_KEEPALIVE const char *tsw_warning_name(int bit);
EMSCRIPTEN_KEEPALIVE const char *tsw_warning_text(int bit);
EMSCRIPTEN_KEEPALIVE const char *tsw_example_setting(size_t index, int value);
EMSCRIPTEN_KEEPALIVE const char *tsw_param_text(size_t index, int which);
EMSCRIPTEN_KEEPALIVE double tsw_param_number(size_t index, int which);
EMSCRIPTEN_KEEPALIVE void *tsw_slots(void);
EMSCRIPTEN_KEEPALIVE int tsw_estimate(int argc, char **argv);
EMSCRIPTEN_KEEPALIVE int tsw_estimate_again(void);
EMSCRIPTEN_KEEPALIVE double tsw_bench_native(int argc, char **argv, int count);

int tsw_run(int argc, char **argv)
{
    free(output);
    output = NULL;
    output_len = 0;
    return trainsize_cli_main(argc, argv);
}

const char *tsw_output(void) { return output ? output : ""; }
size_t tsw_output_length(void) { return output_len; }

/* The number of result fields, or -1 when they would not fit the slots (or there is no
 * memory for the base job). */
int tsw_init(void)
{
    size_t n = trainsize_result_field_count();
    if (!base_job)
        base_job = trainsize_job_new();
    return n <= SLOTS_MAX && base_job ? (int)n : -1;
}

const char *tsw_field_path(size_t index)
{
    const trainsize_field_info *f = trainsize_result_field_at(index);
    return f ? f->path : NULL;
}

int tsw_field_type(size_t index)
{
    const trainsize_field_info *f = trainsize_result_field_at(index);
    return f ? (int)f->type : -1;
}

const char *tsw_warning_name(int bit)
{
    return bit >= 0 && bit < 64 ? trainsize_warning_name(UINT64_C(1) << bit) : NULL;
}

const char *tsw_warning_text(int bit)
{
    return bit >= 0 && bit < 64 ? trainsize_warning_text(UINT64_C(1) << bit) : NULL;
}

/* The built-in example job's settings (`trainsize` with no arguments): the name of the
 * index-th (value 0) or its value (value 1); NULL past the last. */
const char *tsw_example_setting(size_t index, int value)
{
    if (index >= cli_example_job_count)
        return NULL;
    return value ? cli_example_job[index].value : cli_example_job[index].name;
}

/* The parameter catalogue, for trainsize.js's params(): the index-th parameter's name (0),
 * choices (1), default (2), unit (3) or doc (4); its kind (0), min (1) or max (2). NULL
 * (or -1) past the last. */
const char *tsw_param_text(size_t index, int which)
{
    const trainsize_param_info *p = trainsize_param_at(index);
    if (!p)
        return NULL;
    switch (which) {
    case 0: return p->name;
    case 1: return p->choices ? p->choices : "";
    case 2: return p->default_text;
    case 3: return p->unit;
    default: return p->doc;
    }
}

double tsw_param_number(size_t index, int which)
{
    const trainsize_param_info *p = trainsize_param_at(index);
    if (!p)
        return -1;
    return which == 0 ? (double)p->kind : which == 1 ? p->min : p->max;
}

void *tsw_slots(void) { return slots; }

/* The fields of `last` into `slots`, and the estimate's JSON (trainsize.js takes its
 * "advice") as the output when the job does not fit. */
static int fill_slots(void)
{
    size_t i, n = trainsize_result_field_count();
    for (i = 0; i < n && i < SLOTS_MAX; i++) {
        trainsize_field_value v;
        if (trainsize_result_field_get(&last.result, i, &v) != TRAINSIZE_OK) {
            cli_error("internal error: cannot read a result field");
            return CLI_EXIT_FAILURE;
        }
        switch (v.type) {
        case TRAINSIZE_FIELD_U64: slots[i].number = (double)v.u64; break;
        case TRAINSIZE_FIELD_F64: slots[i].number = v.f64; break;
        case TRAINSIZE_FIELD_BOOL: slots[i].number = v.u64 ? 1.0 : 0.0; break;
        case TRAINSIZE_FIELD_FLAGS: slots[i].bits = v.u64; break;
        case TRAINSIZE_FIELD_STRING:
        case TRAINSIZE_FIELD_CHOICE: slots[i].bits = (uint64_t)(uintptr_t)v.text; break;
        default: slots[i].bits = 0; break; /* a type newer than trainsize.js: null */
        }
    }
    if (last.advised > 0) {
        ts_out out;
        ts_out_init(&out);
        if (cli_result_json(&out, &last.result, last.advice, last.advised) != 0) {
            ts_out_free(&out);
            return CLI_EXIT_FAILURE;
        }
        return cli_out_flush_stdout(&out);
    }
    return CLI_EXIT_OK;
}

/* The estimate command on argv (as tsw_run takes it, without the command's name): 0 and
 * the fields in `slots` (and the estimate's JSON as the output when the job does not
 * fit, otherwise no output), or the command's exit status after its message on stderr.
 * The job is kept for tsw_estimate_again. */
int tsw_estimate(int argc, char **argv)
{
    cli_options opts;
    trainsize_job *job = NULL;
    int status;

    free(output);
    output = NULL;
    output_len = 0;
    trainsize_job_free(last_job);
    last_job = NULL;
    status = cli_estimate_options(argc, argv, base_job, &opts, &job, &last);
    if (status == CLI_EXIT_OK && opts.help) {
        cli_error("help is not an option of estimate()"); /* trainsize.js refuses it first */
        status = CLI_EXIT_USAGE;
    }
    cli_options_free(&opts);
    if (status != CLI_EXIT_OK) {
        trainsize_job_free(job);
        return status;
    }
    last_job = job;
    return fill_slots();
}

/* The last estimate's job estimated again (the same options): as tsw_estimate returns;
 * CLI_EXIT_FAILURE when there is none (trainsize.js then calls tsw_estimate). */
int tsw_estimate_again(void)
{
    trainsize_error err;
    int rc;
    free(output);
    output = NULL;
    output_len = 0;
    if (!last_job) return CLI_EXIT_FAILURE;
    rc = trainsize_estimate(last_job, &last.result, sizeof last.result, &err);
    if (rc != TRAINSIZE_OK) return cli_library_error(rc, &err);
    last.advised = 0;
    if (!last.result.memory.fits &&
        trainsize_advise(last_job, last.advice, CLI_ADVICE_MAX, &last.advised, NULL) != TRAINSIZE_OK)
        last.advised = 0;
    return fill_slots();
}

/* For the benchmark: seconds per trainsize_estimate() of the job argv describes, as the
 * library runs it inside the module (no options parsed, nothing converted), over `count`
 * runs; a negative number when the job is invalid. */
double tsw_bench_native(int argc, char **argv, int count)
{
    cli_options opts;
    trainsize_job *job = NULL;
    trainsize_result r;
    double start, seconds = -1.0;
    int i, status;

    status = cli_parse_options(argc, argv, &opts);
    if (status == CLI_EXIT_OK)
        status = cli_build_job(&opts, &job);
    if (status == CLI_EXIT_OK && trainsize_estimate(job, &r, sizeof r, NULL) == TRAINSIZE_OK) {
        start = emscripten_get_now();
        for (i = 0; i < count; i++)
            trainsize_estimate(job, &r, sizeof r, NULL);
        seconds = (emscripten_get_now() - start) / 1e3 / (count > 0 ? count : 1);
    }
    trainsize_job_free(job);
    cli_options_free(&opts);
    return seconds;
}

/* The WebAssembly module's entries, for trainsize.js.
 *
 * tsw_run runs the library's command (trainsize_command, the same code as the native
 * program) on an argument vector, with writers that keep what it would print in a buffer
 * in the module's memory and hand its message lines to the module's printErr; trainsize.js
 * decodes the buffer in one go. tsw_estimate builds the job the estimate command would size
 * (trainsize_command_job), estimates it and leaves the result's fields as numbers in
 * `slots`, so that trainsize.js builds the object the command's JSON would parse to without
 * any JSON being written or parsed. This file uses the public header only.
 *
 * The module runs one call at a time (JavaScript is single-threaded; a worker gets its own
 * module), so the last output and the last result are module state, read right after the
 * call that made them. */
#include <emscripten/emscripten.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainsize.h"

/* Advice asked for when a job does not fit (as many as the command asks for). */
#define ADVICE_MAX 5

/* The last command's output (malloc'd, grown as the writer is called; freed when the next
 * call starts). */
static char *output;
static size_t output_len;

static void output_clear(void)
{
    free(output);
    output = NULL;
    output_len = 0;
}

/* The output writer: appends to `output` (the command writes its answer once, whole).
 * Takes nothing when memory runs out, which the command reports as a write failure. */
static size_t keep_output(const char *data, size_t size, void *context)
{
    char *grown;
    (void)context;
    if (size > SIZE_MAX - output_len - 1 || !(grown = realloc(output, output_len + size + 1)))
        return 0;
    memcpy(grown + output_len, data, size);
    output = grown;
    output_len += size;
    output[output_len] = '\0';
    return size;
}

/* The message writer: the lines go to the module's stderr (printErr), which trainsize.js
 * collects for its errors. */
static size_t to_stderr(const char *data, size_t size, void *context)
{
    (void)context;
    return fwrite(data, 1, size, stderr);
}

/* The planner's progress, to the JavaScript that called the module: Module.onPlanProgress
 * (trainsize.js sets it for the length of a plan() that asked for progress) gets GPU
 * counts done, their total and the configurations examined, and a true answer cancels. */
EM_JS(int, tsw_plan_progress, (double done, double total, double examined), {
    var f = Module['onPlanProgress'];
    return typeof f === 'function' && f(done, total, examined) ? 1 : 0;
}) /* no ';': EM_JS ends its own declaration */

static int plan_progress(void *context, uint64_t done, uint64_t total, uint64_t examined)
{
    (void)context;
    return tsw_plan_progress((double)done, (double)total, (double)examined);
}

static const trainsize_command_io io = {keep_output, NULL, to_stderr, NULL, plan_progress, NULL};

/* One 8-byte slot per result field: a double for numbers and booleans (a u64 as the
 * double JSON.parse would read it), the address of the text for strings and choices, the
 * bits for flags. The catalogue has about 200 fields; a library with more than this
 * table holds is refused by tsw_init, not overrun. */
#define SLOTS_MAX 1024
static union {
    double number;
    uint64_t bits;
} slots[SLOTS_MAX];
/* The last estimate and, when its job does not fit, the changes that would make it fit. */
static trainsize_result last;
static trainsize_advice last_advice[ADVICE_MAX];
static size_t last_advised;
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
    output_clear();
    return trainsize_command(argc, argv, &io);
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
    const char *name, *text;
    if (!trainsize_example_setting(index, &name, &text))
        return NULL;
    return value ? text : name;
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

/* A library failure as the command says it: one line on stderr; the exit status it maps
 * to (out of memory and misuse are failures, anything else the input's fault). */
static int library_error(int code, const trainsize_error *err)
{
    const char *text = err && err->message[0] && memchr(err->message, '\0', sizeof err->message)
                           ? err->message : trainsize_strerror(code);
    fprintf(stderr, "trainsize: %s\n", text);
    return code == TRAINSIZE_E_NOMEM || code == TRAINSIZE_E_ARGUMENT ? TRAINSIZE_COMMAND_FAILURE
                                                                    : TRAINSIZE_COMMAND_USAGE;
}

/* Estimate `last_job` into `last`, with advice when it does not fit; then its fields into
 * `slots`, and the estimate's JSON (trainsize.js takes its "advice") as the output when
 * the job does not fit. */
static int estimate_last_job(void)
{
    trainsize_error err;
    size_t i, n = trainsize_result_field_count();
    int rc = trainsize_estimate(last_job, &last, sizeof last, &err);

    if (rc != TRAINSIZE_OK)
        return library_error(rc, &err);
    last_advised = 0;
    if (!last.memory.fits &&
        trainsize_advise(last_job, last_advice, ADVICE_MAX, &last_advised, NULL) != TRAINSIZE_OK)
        last_advised = 0;
    for (i = 0; i < n && i < SLOTS_MAX; i++) {
        trainsize_field_value v;
        if (trainsize_result_field_get(&last, i, &v) != TRAINSIZE_OK)
            return library_error(TRAINSIZE_E_ARGUMENT, NULL);
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
    if (last_advised > 0) {
        int len = trainsize_result_json(&last, last_advice, last_advised, NULL, 0, &err);
        if (len < 0)
            return library_error(len, &err);
        if (!(output = malloc((size_t)len + 1)))
            return library_error(TRAINSIZE_E_NOMEM, NULL);
        if (trainsize_result_json(&last, last_advice, last_advised, output, (size_t)len + 1, &err) != len) {
            output_clear(); /* the same text twice: a second answer is the library's fault */
            return library_error(TRAINSIZE_E_ARGUMENT, &err);
        }
        output_len = (size_t)len;
    }
    return TRAINSIZE_COMMAND_OK;
}

/* The estimate command on argv (as tsw_run takes it, without the command's name): 0 and
 * the fields in `slots` (and the estimate's JSON as the output when the job does not
 * fit, otherwise no output), or the command's exit status after its message on stderr.
 * The job is kept for tsw_estimate_again. */
int tsw_estimate(int argc, char **argv)
{
    int status;

    output_clear();
    trainsize_job_free(last_job);
    last_job = NULL;
    status = trainsize_command_job(argc, argv, base_job, &last_job, &io);
    return status == TRAINSIZE_COMMAND_OK ? estimate_last_job() : status;
}

/* The last estimate's job estimated again (the same options): as tsw_estimate returns;
 * 1 (a failure) when there is none (trainsize.js then calls tsw_estimate). */
int tsw_estimate_again(void)
{
    output_clear();
    return last_job ? estimate_last_job() : TRAINSIZE_COMMAND_FAILURE;
}

/* For the benchmark: seconds per trainsize_estimate() of the job argv describes, as the
 * library runs it inside the module (no options parsed, nothing converted), over `count`
 * runs; a negative number when the job is invalid. */
double tsw_bench_native(int argc, char **argv, int count)
{
    trainsize_job *job = NULL;
    trainsize_result r;
    double start, seconds = -1.0;
    int i;

    if (trainsize_command_job(argc, argv, NULL, &job, &io) == TRAINSIZE_COMMAND_OK &&
        trainsize_estimate(job, &r, sizeof r, NULL) == TRAINSIZE_OK) {
        start = emscripten_get_now();
        for (i = 0; i < count; i++)
            trainsize_estimate(job, &r, sizeof r, NULL);
        seconds = (emscripten_get_now() - start) / 1e3 / (count > 0 ? count : 1);
    }
    trainsize_job_free(job);
    return seconds;
}

/* Jobs: creation, defaults, and setting/reading parameters by name. */
#include <float.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "job.h"
#include "text_values.h"
#include "params.h"
#include "text.h"
#include "units.h"

/* NAME=HOURLY[:PURCHASE],...: parsed once here, kept as given for trainsize_job_get. */
static int set_gpu_prices(trainsize_job *job, const ts_param_def *def, const char *value,
                          trainsize_error *err)
{
    struct ts_gpu_price prices[sizeof job->s.gpu_prices / sizeof job->s.gpu_prices[0]];
    size_t n = 0, i;
    const char *p = value;
    char item[128], *eq, *colon;
    int more;
    if (strlen(value) >= sizeof job->gpu_prices_text)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name, "gpu-prices: list too long");
    while ((more = ts_list_next(&p, ',', item, sizeof item)) > 0 && n < sizeof prices / sizeof prices[0]) {
        eq = strchr(item, '=');
        if (!eq || eq == item || (size_t)(eq - item) >= sizeof prices[n].name)
            return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                           "gpu-prices: \"%.60s\" is not NAME=HOURLY[:PURCHASE]", item);
        memcpy(prices[n].name, item, (size_t)(eq - item));
        prices[n].name[eq - item] = '\0';
        colon = strchr(eq + 1, ':');
        if (colon) *colon = '\0';
        if (ts_parse_double(eq + 1, &prices[n].hourly) != 0 || !(prices[n].hourly >= 0) ||
            prices[n].hourly > 1e6 ||
            (colon && (ts_parse_double(colon + 1, &prices[n].purchase) != 0 ||
                       !(prices[n].purchase >= 0) || prices[n].purchase > 1e9)))
            return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                           "gpu-prices: bad price for \"%.40s\" (US dollars: 0-1e6 per hour, 0-1e9 to buy)",
                           prices[n].name);
        if (!colon) prices[n].purchase = 0.0;
        /* a GPU priced twice would lose one price without a word (names by the catalogue's rule) */
        for (i = 0; i < n; i++)
            if (ts_name_equal(prices[i].name, prices[n].name))
                return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                               "gpu-prices: \"%.40s\" is priced twice; give each GPU once", prices[n].name);
        /* a subnormal price is none (it prints as 1e-323 dollars) */
        if ((prices[n].hourly > 0 && prices[n].hourly < DBL_MIN) ||
            (prices[n].purchase > 0 && prices[n].purchase < DBL_MIN))
            return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                           "gpu-prices: the price of \"%.40s\" is closer to 0 than any price (give 0)", prices[n].name);
        n++;
    }
    if (more != 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "gpu-prices: expected at most 16 NAME=HOURLY[:PURCHASE] items, comma-separated "
                       "(no empty item, no trailing comma)");
    memcpy(job->s.gpu_prices, prices, n * sizeof prices[0]);
    job->s.gpu_price_count = n;
    memcpy(job->gpu_prices_text, value, strlen(value) + 1);
    return ts_ok(err);
}

static int set_value(trainsize_job *job, const ts_param_def *def, const char *value,
                     trainsize_error *err);

/* A default that parses to zero, which the zeroed job holds already: a number stored as 0
 * or 0.0 (all bits zero), a flag as 0, a choice as its index when it is the first. */
static int zero_default(const ts_param_def *def)
{
    const char *t = def->info.default_text;
    switch (def->setter) {
    case TS_SET_U64:
    case TS_SET_DOUBLE: return t[0] == '0' && t[1] == '\0';
    case TS_SET_BOOL: return strcmp(t, "false") == 0;
    case TS_SET_CHOICE: { /* the list's first item, without looking through the rest */
        const char *c = def->info.choices;
        while (*t && *t == *c) {
            t++;
            c++;
        }
        return *t == '\0' && (*c == '|' || *c == '\0');
    }
    default: return 0;
    }
}

/* The catalogue's default texts are the only place defaults are written down; each is
 * parsed as trainsize_job_set would, but for the zeros zero_default() knows (over half). */
static void defaults(trainsize_job *job, int skip_zeros)
{
    size_t i;
    memset(job, 0, sizeof *job);
    ts_model_clear(&job->s.model);
    for (i = 0; i < ts_param_def_count(); i++) {
        const ts_param_def *def = ts_param_def_at(i);
        if (def->info.default_text[0] == '\0' || (skip_zeros && zero_default(def))) continue;
        set_value(job, def, def->info.default_text, NULL);
    }
}

void ts_job_defaults(trainsize_job *job) { defaults(job, 1); }

void ts_job_defaults_parsed(trainsize_job *job) { defaults(job, 0); }

trainsize_job *trainsize_job_new(void)
{
    trainsize_job *job = malloc(sizeof *job);
    if (job) ts_job_defaults(job);
    return job;
}

void ts_job_fit_seq(trainsize_job *job)
{
    const ts_param_def *def = ts_param_def_by_id(TRAINSIZE_ID_SEQ);
    uint64_t seq = def ? strtoull(def->info.default_text, NULL, 10) : job->s.seq;
    if (job->seq_given) return;
    if (job->s.model.positions && job->s.model.positions < seq) seq = job->s.model.positions;
    job->s.seq = seq;
}

void ts_job_count_model(trainsize_job *job)
{
    job->extra_tensors[0] = '\0'; /* a checkpoint's, until the model changes */
    job->counted_ok = ts_model_validate(&job->s.model, NULL) == TRAINSIZE_OK &&
                      ts_model_count(&job->s.model, &job->counted, NULL) == TRAINSIZE_OK;
    /* memcpy, so that padding is copied too and compares equal. The job's other copies
     * are assignments (clone, plan_apply, prepare's): gcc and clang copy a struct this size
     * whole; where a compiler did not, the estimate would only count the model again. */
    memcpy(&job->counted_model, &job->s.model, sizeof job->counted_model);
}

/* The overhead settings whose defaults are a GPU runtime's (docs/methodology.md, "TPUs"). */
static const trainsize_param_id ts_device_overheads[] = {
    TRAINSIZE_ID_CUDA_CONTEXT, TRAINSIZE_ID_COMM_BUFFER, TRAINSIZE_ID_ALLOCATOR_SLACK,
    TRAINSIZE_ID_SHARDED_SLACK, TRAINSIZE_ID_FRAGMENTATION};
#define TS_DEVICE_OVERHEADS (sizeof ts_device_overheads / sizeof ts_device_overheads[0])

void ts_job_fit_device(trainsize_job *job)
{
    int kind = job->s.gpu ? job->s.gpu->kind : TRAINSIZE_ACCELERATOR_GPU;
    size_t i;
    if (kind == job->overheads_kind) return; /* the planner's GPU changes mostly keep the kind */
    job->overheads_kind = kind;
    for (i = 0; i < TS_DEVICE_OVERHEADS; i++) {
        const ts_param_def *def = ts_param_def_by_id((int)ts_device_overheads[i]);
        if (!def || (job->overheads_given & (1u << i))) continue;
        set_value(job, def, kind == TRAINSIZE_ACCELERATOR_TPU ? "0" : def->info.default_text, NULL);
    }
}

/* Mark an overhead setting the caller set: it no longer follows the accelerator. */
static void mark_overhead_given(trainsize_job *job, int id)
{
    size_t i;
    for (i = 0; i < TS_DEVICE_OVERHEADS; i++)
        if ((int)ts_device_overheads[i] == id) job->overheads_given |= 1u << i;
}

/* A custom GPU's strings live in the job: point them (and job->gpu) at this job's copy. */
void ts_job_rebind_custom_gpu(trainsize_job *job, int in_use)
{
    ts_gpu_description_bind(&job->custom);
    if (in_use) job->s.gpu = &job->custom.info;
}

trainsize_job *trainsize_job_clone(const trainsize_job *job)
{
    trainsize_job *copy;
    if (!job) return NULL;
    copy = malloc(sizeof *copy);
    if (copy) {
        *copy = *job;
        ts_job_rebind_custom_gpu(copy, job->s.gpu == &job->custom.info);
    }
    return copy;
}

void trainsize_job_free(trainsize_job *job) { free(job); }

int ts_choice_index(const char *choices, const char *name)
{
    /* compared in place, item by item: every new job looks up each choice's default */
    const char *p = choices;
    int index = 0;
    while (p && *p) {
        const char *n = name;
        while (*p && *p != '|' && *p == *n) {
            p++;
            n++;
        }
        if ((*p == '|' || *p == '\0') && *n == '\0') return index;
        while (*p && *p != '|') p++;
        if (*p == '|') p++;
        index++;
    }
    return -1;
}

int ts_choice_name(const char *choices, int index, char *buf, size_t cap)
{
    const char *p = choices;
    char item[64];
    int i = 0;
    while (ts_list_next(&p, '|', item, sizeof item) > 0) {
        if (i++ == index) {
            if (cap) ts_copy_name(buf, cap, item);
            return (int)strlen(item);
        }
    }
    return -1;
}

/* A comma-separated list of the parameter's choices, as bits (1 << the choice's index). */
static int set_bits(trainsize_job *job, const ts_param_def *def, const char *value, trainsize_error *err)
{
    unsigned bits = 0;
    const char *p = value;
    char item[16];
    int more;
    while ((more = ts_list_next(&p, ',', item, sizeof item)) > 0) {
        int index = ts_choice_index(def->info.choices, item);
        if (index < 0)
            return ts_fail(err, TRAINSIZE_E_UNKNOWN, def->info.name, "%s: unknown item \"%s\" (expected %s)",
                           def->info.name, item, def->info.choices);
        bits |= 1u << index;
    }
    if (more < 0 || bits == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "%s: expected a comma-separated list of %s (no empty item, no "
                       "trailing comma)", def->info.name, def->info.choices);
    memcpy((char *)job + def->offset, &bits, sizeof bits);
    return ts_ok(err);
}

static const char *preset_name_at(size_t i)
{
    const trainsize_model_info *m = trainsize_model_at(i);
    return m ? m->name : NULL;
}

static const char *gpu_name_at(size_t i)
{
    const trainsize_gpu_info *g = trainsize_gpu_at(i);
    return g ? g->name : NULL;
}

/* "unknown GPU "h100"; did you mean "h100-80gb"?", or without the question when no
 * catalogue name is near. */
static int unknown_name(trainsize_error *err, const char *field, const char *what, const char *value,
                        const char *(*name_at)(size_t), size_t count, const char *listing)
{
    const char *near = ts_name_nearest(value, name_at, count);
    if (near)
        return ts_fail(err, TRAINSIZE_E_UNKNOWN, field,
                       "%s: unknown %s \"%.40s\"; did you mean \"%s\"? (see `trainsize %s`)", field,
                       what, value, near, listing);
    return ts_fail(err, TRAINSIZE_E_UNKNOWN, field, "%s: unknown %s \"%.40s\" (see `trainsize %s`)",
                   field, what, value, listing);
}

/* Every name must be a catalogue GPU; the list is kept as given. */
static int set_plan_gpus(trainsize_job *job, const ts_param_def *def, const char *value,
                         trainsize_error *err)
{
    const char *p = value;
    char item[TRAINSIZE_NAME_MAX];
    int more;
    if (strlen(value) >= sizeof job->plan.gpus)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name, "plan-gpus: list too long");
    while ((more = ts_list_next(&p, ',', item, sizeof item)) > 0)
        if (!trainsize_gpu_find(item))
            return unknown_name(err, def->info.name, "GPU", item, gpu_name_at, trainsize_gpu_count(),
                                "gpus");
    if (more < 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "plan-gpus: expected a comma-separated list of catalogue GPUs (no empty "
                       "item, no trailing comma)");
    memcpy(job->plan.gpus, value, strlen(value) + 1);
    return ts_ok(err);
}

/* The one validate-and-store path of typed values: the text setter parses, then calls
 * these; trainsize_job_set_u64/_f64/_bool/_choice call them directly. */
static int store_u64(trainsize_job *job, const ts_param_def *def, uint64_t v, trainsize_error *err)
{
    /* Compared as integers: a double cannot tell max from max + 1 near 1e18. */
    if (v < (uint64_t)def->info.min || v > (uint64_t)def->info.max)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "%s: expected an integer from %.0f to %.0f, got %llu", def->info.name,
                       def->info.min, def->info.max, (unsigned long long)v);
    memcpy((char *)job + def->offset, &v, sizeof v);
    return ts_ok(err);
}

static int store_f64(trainsize_job *job, const ts_param_def *def, double v, trainsize_error *err)
{
    ts_number lo, hi, got;
    if (!(v >= def->info.min && v <= def->info.max)) /* NaN fails too */
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "%s: expected a number from %s to %s, got %s", def->info.name,
                       ts_number_text(&lo, def->info.min), ts_number_text(&hi, def->info.max),
                       ts_number_text(&got, v));
    /* a subnormal (1e-320 days, dollars, a share) is in range but no setting's value: it
     * prints as 9.99988867182683e-321 and divides to infinity */
    if (v != 0.0 && v > -DBL_MIN && v < DBL_MIN)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                       "%s: %s is closer to 0 than any setting means (under 2.2e-308): give 0 or a number "
                       "that means something", def->info.name, ts_number_text(&got, v));
    memcpy((char *)job + def->offset, &v, sizeof v);
    return ts_ok(err);
}

static int store_int(trainsize_job *job, const ts_param_def *def, int v, int count,
                     trainsize_error *err)
{
    if (v < 0 || v >= count)
        return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name, "%s: %d is not one of 0-%d (%s)",
                       def->info.name, v, count - 1,
                       def->setter == TS_SET_BOOL ? "false, true" : def->info.choices);
    memcpy((char *)job + def->offset, &v, sizeof v);
    return ts_ok(err);
}

/* The choices of a parameter: its "a|b|c" list's items (none is empty). */
static int choice_count(const ts_param_def *def)
{
    const char *p = def->info.choices;
    int n = p && *p ? 1 : 0;
    for (; p && *p; p++) n += *p == '|';
    return n;
}

/* A number (TS_SET_U64, TS_SET_DOUBLE), its unit expanded ("24GiB", "3.5 days"), in range. */
static int set_number(trainsize_job *job, const ts_param_def *def, const char *value, trainsize_error *err)
{
    const char *name = def->info.name;
    char plain[96];
    const char *given = value; /* messages quote what the caller wrote */
    const char *why = "";
    int u = ts_units_expand(def->info.unit, def->info.name, value, plain, sizeof plain, &why);
    if (u < 0 && why)
        return ts_fail(err, TRAINSIZE_E_INVALID, name, "%s: \"%.40s\" has a unit it does not take "
                       "(units: %s)", name, value, why);
    if (u < 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, name, "%s: expected a number before the unit, "
                       "got \"%.40s\"", name, value);
    if (u > 0) value = plain;
    switch (def->setter) {
    case TS_SET_U64: {
        uint64_t v;
        if (ts_parse_u64(value, (uint64_t)def->info.max, &v) != 0 || (double)v < def->info.min)
            return ts_fail(err, TRAINSIZE_E_INVALID, name,
                           "%s: expected an integer from %.0f to %.0f, got \"%.40s\"", name,
                           def->info.min, def->info.max, given);
        /* "--gpu-memory 24" meant gigabytes: a size under 1 MiB without a unit is refused
         * (not a sample's, which is often that small: an encoded image, a clip, nor a
         * dataset's); a memory, a host's RAM, a context, a buffer or a cache under 1 MiB
         * is no such thing with a unit either ("5B", "1KiB") */
        if (v > 0 && v < 1048576 && strcmp(def->info.unit, "bytes") == 0 && def->id != TRAINSIZE_ID_SAMPLE_BYTES &&
            (value == given || def->id != TRAINSIZE_ID_DATASET_BYTES))
            return ts_fail(err, TRAINSIZE_E_INVALID, name,
                           value == given ? "%s: %llu bytes is under 1 MiB; a size without a unit is in bytes "
                                            "(give one, e.g. 24GiB)"
                                          : "%s: %llu bytes is under 1 MiB: no memory, context, buffer or "
                                            "cache is that small",
                           name, (unsigned long long)v);
        return store_u64(job, def, v, err);
    }
    case TS_SET_DOUBLE: {
        double v;
        ts_number lo, hi;
        if (ts_parse_double(value, &v) != 0 || v < def->info.min || v > def->info.max)
            return ts_fail(err, TRAINSIZE_E_INVALID, name,
                           "%s: expected a number from %s to %s, got \"%.40s\"", name,
                           ts_number_text(&lo, def->info.min), ts_number_text(&hi, def->info.max),
                           given);
        return store_f64(job, def, v, err);
    }
    default: break;
    }
    return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "%s: unknown parameter", name);
}

/* A catalogue entry by name: a preset (the model, or another model of the job), a GPU, a
 * network link, a storage class. */
static int set_catalogue_ref(trainsize_job *job, const ts_param_def *def, const char *value, trainsize_error *err)
{
    const char *name = def->info.name;
    switch (def->setter) {
    case TS_SET_MODEL: {
        const ts_model *preset = ts_preset_find(value);
        if (!preset)
            return unknown_name(err, name, "preset", value, preset_name_at, trainsize_model_count(),
                                "models");
        job->s.model = *preset;
        return ts_ok(err);
    }
    case TS_SET_GPU: {
        const trainsize_gpu_info *gpu = trainsize_gpu_find(value);
        if (!gpu)
            return unknown_name(err, name, "GPU", value, gpu_name_at, trainsize_gpu_count(), "gpus");
        job->s.gpu = gpu;
        return ts_ok(err);
    }
    case TS_SET_LINK: {
        const trainsize_link_info *link = trainsize_link_find(value);
        if (!link || link->kind != TRAINSIZE_LINK_SCALE_OUT)
            return ts_fail(err, TRAINSIZE_E_UNKNOWN, name,
                           "network: unknown scale-out link \"%.40s\" (e.g. ib-ndr, eth-100g)", value);
        job->s.network = link;
        return ts_ok(err);
    }
    case TS_SET_STORAGE: {
        const trainsize_storage_info *st = trainsize_storage_find(value);
        if (!st)
            return ts_fail(err, TRAINSIZE_E_UNKNOWN, name,
                           "storage: unknown storage class \"%.40s\" (e.g. nvme-gen4, nfs)", value);
        job->s.storage = st;
        return ts_ok(err);
    }
    case TS_SET_PRESET_REF: {
        const ts_model *preset = value[0] ? ts_preset_find(value) : NULL;
        if (value[0] && !preset)
            return unknown_name(err, name, "preset", value, preset_name_at, trainsize_model_count(),
                                "models");
        *(const ts_model **)((char *)job + def->offset) = preset;
        return ts_ok(err);
    }
    default: break;
    }
    return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "%s: unknown parameter", name);
}

static int set_value(trainsize_job *job, const ts_param_def *def, const char *value,
                     trainsize_error *err)
{
    const char *name = def->info.name;
    switch (def->setter) {
    case TS_SET_U64:
    case TS_SET_DOUBLE:
        return set_number(job, def, value, err);
    case TS_SET_BOOL: {
        int v;
        if (ts_parse_bool(value, &v) != 0)
            return ts_fail(err, TRAINSIZE_E_INVALID, name, "%s: expected true or false, got \"%.40s\"",
                           name, value);
        return store_int(job, def, v, 2, err);
    }
    case TS_SET_CHOICE: {
        int v = ts_choice_index(def->info.choices, value);
        if (v < 0)
            return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "%s: unknown choice \"%.40s\" (expected %s)",
                           name, value, def->info.choices);
        return store_int(job, def, v, choice_count(def), err);
    }
    case TS_SET_MODEL:
    case TS_SET_GPU:
    case TS_SET_LINK:
    case TS_SET_STORAGE:
    case TS_SET_PRESET_REF:
        return set_catalogue_ref(job, def, value, err);
    case TS_SET_PLAN_GPUS:
        return set_plan_gpus(job, def, value, err);
    case TS_SET_GPU_PRICES:
        return set_gpu_prices(job, def, value, err);
    case TS_SET_BITS:
        return set_bits(job, def, value, err);
    }
    return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "%s: unknown parameter", name);
}

/* A preset or config whose shape was then changed is no longer that model: say so in its
 * name, so a report of 64-layer "llama-2-7b" does not pass for the real one. */
static void mark_modified(ts_model *m, const ts_model *before)
{
    static const char suffix[] = " (modified)";
    size_t len = strlen(m->name);
    ts_model shape = *m;
    memcpy(shape.name, before->name, sizeof shape.name);
    shape.mtp_layers = before->mtp_layers; /* training the model's MTP modules: the same model */
    if (len == 0 || memcmp(&shape, before, sizeof shape) == 0) return;
    if (len >= sizeof suffix - 1 && strcmp(m->name + len - (sizeof suffix - 1), suffix) == 0) return;
    if (len + sizeof suffix > sizeof m->name) len = ts_utf8_prefix(m->name, sizeof m->name - sizeof suffix);
    memcpy(m->name + len, suffix, sizeof suffix);
}

/* Is the parameter a member of the model's shape? Only the setters that store at their
 * offset have one (the catalogue pointers' rows say 0). */
static int in_model(const ts_param_def *def)
{
    switch (def->setter) {
    case TS_SET_U64:
    case TS_SET_DOUBLE:
    case TS_SET_BOOL:
    case TS_SET_CHOICE:
    case TS_SET_BITS: return def->offset < sizeof(ts_model);
    default: return 0;
    }
}

/* Does setting this parameter change the model's shape (so its name and seq follow)? */
static int shapes_model(const ts_param_def *def) { return def->setter == TS_SET_MODEL || in_model(def); }

/* After any successful set: a changed shape renames the model, and seq follows it. */
static void after_set(trainsize_job *job, const ts_param_def *def, const ts_model *before)
{
    if (in_model(def)) mark_modified(&job->s.model, before);
    if (def->id == TRAINSIZE_ID_SEQ) job->seq_given = 1;
    if (shapes_model(def) || def->id == TRAINSIZE_ID_SEQ) ts_job_fit_seq(job);
    if (shapes_model(def)) ts_job_count_model(job);
    if (def->id == TRAINSIZE_ID_GPU) ts_job_fit_device(job);
    if (def->id == TRAINSIZE_ID_RECOMPUTE) job->s.recompute_given = 1; /* no longer follows QLoRA */
    if (def->id == TRAINSIZE_ID_STEP_OVERHEAD) job->s.step_overhead_given = 1; /* nor the model kind */
    mark_overhead_given(job, def->id);
}

int trainsize_job_set(trainsize_job *job, const char *name, const char *value, trainsize_error *err)
{
    const ts_param_def *def;
    ts_model before;
    int rc;
    if (!job || !name || !value)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, name ? name : "",
                       "trainsize_job_set: NULL job, name or value");
    def = ts_param_find(name);
    if (!def)
        return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "unknown parameter \"%.60s\"", name);
    before = job->s.model;
    rc = set_value(job, def, value, err);
    if (rc == TRAINSIZE_OK) after_set(job, def, &before);
    return rc;
}

/* The typed setters: the parameter by id, of the kind the setter takes, stored through
 * the same checks as its text. */
int ts_job_set_typed(trainsize_job *job, const ts_param_def *def, ts_setter want, const char *fn, uint64_t u,
                     double d, int i, trainsize_error *err)
{
    ts_model before;
    int rc;
    if (def->setter != want)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, def->info.name,
                       "%s: %s is not a parameter of that kind (trainsize_job_set takes any)", fn,
                       def->info.name);
    if (shapes_model(def)) before = job->s.model; /* the planner's layout sets skip the copy */
    if (want == TS_SET_U64) rc = store_u64(job, def, u, err);
    else if (want == TS_SET_DOUBLE) rc = store_f64(job, def, d, err);
    else rc = store_int(job, def, i, want == TS_SET_BOOL ? 2 : choice_count(def), err);
    if (rc == TRAINSIZE_OK) after_set(job, def, &before);
    return rc;
}

static int set_typed(trainsize_job *job, int id, ts_setter want, const char *fn, uint64_t u,
                     double d, int i, trainsize_error *err)
{
    const ts_param_def *def = ts_param_def_by_id(id);
    if (!job) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "%s: NULL job", fn);
    if (!def) return ts_fail(err, TRAINSIZE_E_UNKNOWN, "", "%s: no parameter has id %d", fn, id);
    return ts_job_set_typed(job, def, want, fn, u, d, i, err);
}

int trainsize_job_set_u64(trainsize_job *job, trainsize_param_id id, uint64_t value, trainsize_error *err)
{
    return set_typed(job, (int)id, TS_SET_U64, "trainsize_job_set_u64", value, 0.0, 0, err);
}

int trainsize_job_set_f64(trainsize_job *job, trainsize_param_id id, double value, trainsize_error *err)
{
    return set_typed(job, (int)id, TS_SET_DOUBLE, "trainsize_job_set_f64", 0, value, 0, err);
}

int trainsize_job_set_bool(trainsize_job *job, trainsize_param_id id, int value, trainsize_error *err)
{
    return set_typed(job, (int)id, TS_SET_BOOL, "trainsize_job_set_bool", 0, 0.0, value, err);
}

int trainsize_job_set_choice(trainsize_job *job, trainsize_param_id id, int index, trainsize_error *err)
{
    return set_typed(job, (int)id, TS_SET_CHOICE, "trainsize_job_set_choice", 0, 0.0, index, err);
}

static int get_bits(const trainsize_job *job, const ts_param_def *def, char *out, size_t cap)
{
    char text[128] = "";
    size_t len = 0;
    unsigned bits;
    int i;
    memcpy(&bits, (const char *)job + def->offset, sizeof bits);
    for (i = 0; i < 16; i++) {
        char item[16];
        if (!(bits & (1u << i)) || ts_choice_name(def->info.choices, i, item, sizeof item) < 0) continue;
        len += (size_t)snprintf(text + len, sizeof text - len, "%s%s", len ? "," : "", item);
    }
    return snprintf(out, cap, "%s", text);
}

int ts_job_model_in_range(const ts_model *model, trainsize_error *err)
{
    const size_t base = offsetof(trainsize_job, s.model);
    size_t i;
    for (i = 0; i < ts_param_def_count(); i++) {
        const ts_param_def *def = ts_param_def_at(i);
        uint64_t v;
        if (def->setter != TS_SET_U64 || def->offset < base || def->offset >= base + sizeof *model)
            continue;
        memcpy(&v, (const char *)model + (def->offset - base), sizeof v);
        if (v < (uint64_t)def->info.min || v > (uint64_t)def->info.max)
            return ts_fail(err, TRAINSIZE_E_INVALID, def->info.name,
                           "config.json: the model's %s would be %llu, outside the %.0f to %.0f "
                           "that --%s takes", def->info.name, (unsigned long long)v,
                           def->info.min, def->info.max, def->info.name);
    }
    return ts_ok(err);
}

int trainsize_job_get(const trainsize_job *job, const char *name, char *buf, size_t cap,
                      trainsize_error *err)
{
    const ts_param_def *def;
    const char *base = (const char *)job;
    char scratch[1];
    int n = -1;
    if (!job || !name || (!buf && cap))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, name ? name : "", "trainsize_job_get: NULL argument");
    def = ts_param_find(name);
    if (!def) return ts_fail(err, TRAINSIZE_E_UNKNOWN, name, "unknown parameter \"%.60s\"", name);
    if (!buf) { buf = scratch; cap = 0; }
    switch (def->setter) {
    case TS_SET_U64: {
        uint64_t v;
        memcpy(&v, base + def->offset, sizeof v);
        n = snprintf(buf, cap, "%llu", (unsigned long long)v);
        break;
    }
    case TS_SET_DOUBLE: {
        double v;
        memcpy(&v, base + def->offset, sizeof v);
        n = ts_format_shortest(buf, cap, v);
        break;
    }
    case TS_SET_BOOL: {
        int v;
        memcpy(&v, base + def->offset, sizeof v);
        n = snprintf(buf, cap, "%s", v ? "true" : "false");
        break;
    }
    case TS_SET_CHOICE: {
        int v;
        memcpy(&v, base + def->offset, sizeof v);
        n = ts_choice_name(def->info.choices, v, buf, cap);
        break;
    }
    case TS_SET_MODEL: n = snprintf(buf, cap, "%s", job->s.model.name); break;
    case TS_SET_GPU: n = snprintf(buf, cap, "%s", job->s.gpu ? job->s.gpu->name : ""); break;
    case TS_SET_LINK: n = snprintf(buf, cap, "%s", job->s.network ? job->s.network->name : ""); break;
    case TS_SET_STORAGE: n = snprintf(buf, cap, "%s", job->s.storage ? job->s.storage->name : ""); break;
    case TS_SET_PRESET_REF: {
        const ts_model *preset = *(const ts_model *const *)((const char *)job + def->offset);
        n = snprintf(buf, cap, "%s", preset ? preset->name : "");
        break;
    }
    case TS_SET_PLAN_GPUS: n = snprintf(buf, cap, "%s", job->plan.gpus); break;
    case TS_SET_GPU_PRICES: n = snprintf(buf, cap, "%s", job->gpu_prices_text); break;
    case TS_SET_BITS: n = get_bits(job, def, buf, cap); break;
    }
    if (n < 0) return ts_fail(err, TRAINSIZE_E_INVALID, name, "%s: cannot format value", name);
    ts_ok(err);
    return n;
}

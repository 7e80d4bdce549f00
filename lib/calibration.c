/* A site's calibration file read: the efficiency model's shares fitted to the site's own
 * runs (`trainsize calibrate`). The file is checked whole: its format, the library version
 * it was fitted with (the model's terms change between versions, so the fit is refused
 * from another major.minor), and only the settings a calibration may hold; job_load.c then
 * sets each through the catalogue (its ranges) on a copy of the job. What it came from
 * (runs, GPUs, date) stays with the job for the result's layout.calibration and for the
 * warning when the job's GPU is not one it was fitted on. docs/methodology.md,
 * "Site calibration". */
#include <stdio.h>
#include <string.h>

#include "calibration.h"
#include "error.h"
#include "json.h"
#include "text.h"
#include "text_values.h"

/* What a calibration may set: the shares a site's machines decide (the rest of the model
 * is the job's). */
static const char *const CALIBRATED[] = {"gemm-share",    "scale-up-efficiency", "network-efficiency",
                                         "step-overhead", "allocator-slack",     "sharded-slack"};
#define CALIBRATED_COUNT (sizeof CALIBRATED / sizeof CALIBRATED[0])
typedef char ts_calibrated_fit_the_file[CALIBRATED_COUNT == TS_CALIBRATION_SETTINGS_MAX ? 1 : -1];

/* The top-level keys of the file: what the loader reads, and what `calibrate` writes for
 * people (the fit's errors, the runs' names), which it accepts and ignores. */
static const char *const KEYS[] = {"trainsize_calibration", "library_version", "date", "runs", "gpus",
                                   "settings", "fit", "per_run", "sources"};
#define KEY_COUNT (sizeof KEYS / sizeof KEYS[0])

size_t trainsize_calibration_setting_count(void) { return CALIBRATED_COUNT; }

const char *trainsize_calibration_setting_at(size_t index)
{
    return index < CALIBRATED_COUNT ? CALIBRATED[index] : NULL;
}

static int known(const char *const *list, size_t n, const ts_json_value *key)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (ts_json_string_equals(key, list[i])) return 1;
    return 0;
}

/* One version number: 1 to 9 digits (sscanf's %u would wrap a longer one onto another
 * version), advancing *p past it; -1 when there is none. */
static long version_part(const char **p)
{
    long v = 0;
    int digits = 0;
    while (**p >= '0' && **p <= '9' && digits < 10) v = v * 10 + (*(*p)++ - '0'), digits++;
    return digits == 0 || digits > 9 ? -1 : v;
}

/* "major.minor.patch" of the file (what `calibrate` writes), nothing else, against this
 * library's major.minor: 1 the same, 0 another, -1 not a version. */
static int same_version(const char *v)
{
    long major = version_part(&v), minor = -1, patch = -1;
    if (major >= 0 && *v == '.') v++, minor = version_part(&v);
    if (minor >= 0 && *v == '.') v++, patch = version_part(&v);
    if (patch < 0 || *v != '\0') return -1;
    return major == TRAINSIZE_VERSION_MAJOR && minor == TRAINSIZE_VERSION_MINOR;
}

/* The GPU list: catalogue-style names, joined with commas into `out`. */
static int read_gpus(const ts_json_value *root, char *out, size_t cap, trainsize_error *err)
{
    ts_json_value arr, elem;
    size_t cursor = 0, used = 0;
    out[0] = '\0';
    if (!ts_json_object_get(root, "gpus", &arr) || arr.type != TS_JSON_ARRAY)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: gpus: expected the list of GPUs its runs ran on");
    while (ts_json_array_next(&arr, &cursor, &elem)) {
        char name[TRAINSIZE_NAME_MAX];
        size_t n;
        if (ts_json_get_string(&elem, "gpus", name, sizeof name, NULL))
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                           "calibration: gpus: expected GPU names (strings of up to 95 bytes)");
        n = strlen(name);
        /* the names reach the report and the JSON as they are */
        if (!ts_text_printable(name))
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                           "calibration: gpus: a name holds a control character or invalid UTF-8");
        if (ts_name_blank(name) || strchr(name, ',') || used + n + 2 > cap)
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                           "calibration: gpus: a name is blank, holds a comma, or the list is too long");
        if (used) out[used++] = ',';
        memcpy(out + used, name, n + 1);
        used += n;
    }
    if (used == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration", "calibration: gpus: the list is empty");
    return TRAINSIZE_OK;
}

/* fit.step_error_left_out, what `calibrate` writes of its leave-one-out (null with fewer
 * than 3 runs): the result's time band comes from it (uncertainty.c). Absent or null: 0. */
static int read_loo_error(const ts_json_value *root, double *out, trainsize_error *err)
{
    ts_json_value fit, v;
    *out = 0.0;
    if (!ts_json_object_get(root, "fit", &fit) || fit.type != TS_JSON_OBJECT ||
        !ts_json_object_get(&fit, "step_error_left_out", &v) || ts_json_is_null(&v))
        return TRAINSIZE_OK;
    if (ts_json_get_double(&v, "step_error_left_out", out, NULL) != TRAINSIZE_OK || !(*out >= 0.0 && *out <= 100.0))
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: fit: step_error_left_out: expected a number from 0 to 100 (a share) or null");
    return TRAINSIZE_OK;
}

/* The settings it fitted, each a calibration setting with a number. */
static int read_settings(const ts_json_value *root, ts_calibration_file *out, trainsize_error *err)
{
    ts_json_value settings, key, value;
    size_t cursor = 0;
    if (!ts_json_object_get(root, "settings", &settings) || settings.type != TS_JSON_OBJECT)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: settings: expected an object of the shares it fitted");
    while (ts_json_object_next(&settings, &cursor, &key, &value)) {
        char name[48];
        trainsize_error inner;
        double value_read;
        size_t i;
        if (ts_json_string_copy(&key, name, sizeof name) >= sizeof name || !known(CALIBRATED, CALIBRATED_COUNT, &key))
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                           "calibration: settings: \"%.40s\" is not a calibration setting (gemm-share, "
                           "scale-up-efficiency, network-efficiency, step-overhead, allocator-slack, "
                           "sharded-slack)", name);
        /* a key given twice: the last one wins, as everywhere JSON is read here (json.h) */
        for (i = 0; i < out->settings && strcmp(out->names[i], name) != 0; i++) {}
        if (ts_json_get_double(&value, name, &value_read, &inner))
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration", "calibration: settings: %s: expected a number",
                           name);
        out->values[i] = value_read;
        if (i == out->settings) memcpy(out->names[out->settings++], name, sizeof name);
    }
    return TRAINSIZE_OK;
}

int ts_calibration_read(const char *json, size_t len, ts_calibration_file *out, trainsize_error *err)
{
    ts_json_value root, v, key, value;
    char version[32];
    uint64_t format;
    size_t cursor = 0;
    trainsize_error inner;
    int rc;
    if (!json && len) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "calibration", "calibration: NULL job or text");
    memset(out, 0, sizeof *out);
    if ((rc = ts_json_parse(json ? json : "", len, TRAINSIZE_HF_CONFIG_MAX_BYTES, TRAINSIZE_HF_CONFIG_MAX_DEPTH,
                            &root, &inner)))
        return ts_fail(err, rc, "calibration", "calibration: %s", inner.message);
    if (root.type != TS_JSON_OBJECT)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration", "calibration: the top-level value is not an object");
    while (ts_json_object_next(&root, &cursor, &key, &value)) {
        char name[40];
        if (!known(KEYS, KEY_COUNT, &key)) {
            if (ts_json_string_copy(&key, name, sizeof name) == TS_JSON_BAD_STRING) name[0] = '\0';
            return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                           "calibration: unknown key \"%.32s\" (a file `trainsize calibrate` wrote?)", name);
        }
    }
    if (!ts_json_object_get(&root, "trainsize_calibration", &v) || ts_json_get_u64(&v, "trainsize_calibration", 100, &format, err) ||
        format != 1)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: trainsize_calibration: expected 1, the format `trainsize calibrate` writes");
    if (!ts_json_object_get(&root, "library_version", &v) || ts_json_get_string(&v, "library_version", version, sizeof version, err))
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: library_version: expected MAJOR.MINOR.PATCH (numbers of up to 9 digits)");
    if ((rc = same_version(version)) < 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: library_version: expected MAJOR.MINOR.PATCH (numbers of up to 9 digits), "
                       "got \"%.20s\"", version);
    if (rc == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: library_version: fitted with libtrainsize %.16s, this is %s: fit it again "
                       "with this version (the model's terms change between versions)",
                       version, trainsize_version_string());
    /* at most what `calibrate` fits on (its RUNS_MAX) */
    if (!ts_json_object_get(&root, "runs", &v) || ts_json_get_u64(&v, "runs", 256, &out->runs, err) || out->runs == 0)
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration",
                       "calibration: runs: expected the number of runs it was fitted on (1 to 256)");
    if (ts_json_object_get(&root, "date", &v) &&
        (ts_json_get_string(&v, "date", out->date, sizeof out->date, err) || (out->date[0] && !ts_date_valid(out->date))))
        return ts_fail(err, TRAINSIZE_E_INVALID, "calibration", "calibration: date: expected a date, YYYY-MM-DD");
    if ((rc = read_gpus(&root, out->gpus, sizeof out->gpus, err))) return rc;
    if ((rc = read_loo_error(&root, &out->loo_error, err))) return rc;
    return read_settings(&root, out, err);
}

/* 1 when the calibration (if any) was fitted on `gpu`'s runs. */
int ts_calibration_covers(uint64_t runs, const char *gpus, const char *gpu)
{
    const char *p = gpus;
    size_t n = gpu ? strlen(gpu) : 0;
    if (!runs) return 1;
    while (n && *p) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, gpu, n) == 0) return 1;
        p += len + (end ? 1 : 0);
    }
    return 0;
}

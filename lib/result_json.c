/* The estimate as JSON: the text `trainsize estimate --json` prints, written here once for
 * the command, the WebAssembly module and the bindings.
 *
 * It is generated from the result field catalogue (result_fields.c), not from the struct:
 * each field's dotted path ("memory.weights") nests it in objects, which keep the order in
 * which their names first appear, so a field appended to the catalogue joins its object.
 * "trainsize_version" comes first and "advice" last. No heap: objects are found by
 * rescanning the catalogue (141 fields, a dozen objects). */
#include <inttypes.h>
#include <string.h>

#include "error.h"
#include "field_table.h"
#include "json_write.h"
#include "trainsize.h"

/* Sub-objects of one object at most (the catalogue has 9 at the top level). */
#define OBJECTS_MAX 32

static int write_value(ts_out *o, const trainsize_result *r, size_t index)
{
    trainsize_field_value v;
    if (trainsize_result_field_get(r, index, &v) != TRAINSIZE_OK) return -1;
    ts_field_json_value(o, trainsize_result_field_at(index), &v);
    return 0;
}

static void write_key(ts_out *o, const char *name, size_t len, int *first, int depth)
{
    if (!*first) ts_out_putc(o, ',');
    *first = 0;
    ts_json_indent(o, depth);
    ts_out_putc(o, '"');
    ts_out_write(o, name, len); /* catalogue names are [a-z0-9_]: nothing to escape */
    ts_out_puts(o, "\": ");
}

/* The members of the object whose path is prefix[0..plen) (the root when plen is 0). */
static int write_members(ts_out *o, const trainsize_result *r, const char *prefix, size_t plen,
                         int depth, int first)
{
    const char *done[OBJECTS_MAX];
    size_t done_len[OBJECTS_MAX], objects = 0, i, k, count = trainsize_result_field_count();
    for (i = 0; i < count; i++) {
        const char *path = trainsize_result_field_at(i)->path, *name, *dot;
        size_t len;
        if (plen && (strncmp(path, prefix, plen) != 0 || path[plen] != '.')) continue;
        if (!plen && strcmp(path, "trainsize_version") == 0) continue; /* written first */
        name = plen ? path + plen + 1 : path;
        dot = strchr(name, '.');
        if (!dot) {
            write_key(o, name, strlen(name), &first, depth);
            if (write_value(o, r, i) != 0) return -1;
            continue;
        }
        len = (size_t)(dot - name);
        for (k = 0; k < objects && !(done_len[k] == len && memcmp(done[k], name, len) == 0); k++) {}
        if (k < objects) continue; /* this object was written where its name first came */
        if (objects == OBJECTS_MAX) return -1;
        done[objects] = name;
        done_len[objects++] = len;
        write_key(o, name, len, &first, depth);
        ts_out_putc(o, '{');
        if (write_members(o, r, path, (size_t)(dot - path), depth + 1, 1) != 0) return -1;
        ts_json_indent(o, depth);
        ts_out_putc(o, '}');
    }
    return 0;
}

/* A name or value of an advice: its array must hold its NUL. */
static int advice_text(ts_out *o, const char *s, size_t size)
{
    if (!memchr(s, '\0', size)) return -1;
    ts_json_string(o, s);
    return 0;
}

static int write_advice(ts_out *o, const trainsize_advice *advice, size_t n)
{
    size_t i, k;
    ts_out_putc(o, '[');
    for (i = 0; i < n; i++) {
        const trainsize_advice *a = &advice[i];
        ts_out_puts(o, i ? ",\n    {\"set\": {" : "\n    {\"set\": {");
        for (k = 0; k < a->settings && k < TRAINSIZE_ADVICE_MAX_SETTINGS; k++) {
            if (k) ts_out_puts(o, ", ");
            if (advice_text(o, a->names[k], sizeof a->names[k]) != 0) return -1;
            ts_out_puts(o, ": ");
            if (advice_text(o, a->values[k], sizeof a->values[k]) != 0) return -1;
        }
        ts_out_printf(o, "}, \"peak_total\": %" PRIu64 ", \"gpu_capacity\": %" PRIu64
                         ", \"fits\": true, \"gpus\": %" PRIu64 ", \"step_seconds\": ",
                      a->peak_total, a->gpu_capacity, a->gpus);
        ts_json_number(o, a->step_seconds);
        ts_out_puts(o, ", \"seconds\": ");
        ts_json_number(o, a->seconds);
        ts_out_putc(o, '}');
    }
    ts_out_puts(o, n ? "\n  ]" : "]");
    return 0;
}

int trainsize_result_json(const trainsize_result *result, const trainsize_advice *advice,
                          size_t advice_count, char *buf, size_t cap, trainsize_error *err)
{
    ts_out o;
    if (buf && cap) buf[0] = '\0'; /* "" whatever fails */
    if (!result || (!buf && cap) || (!advice && advice_count))
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_result_json: NULL result, buffer or advice");
    ts_out_fixed(&o, buf, cap);
    ts_out_puts(&o, "{\n  \"trainsize_version\": ");
    ts_json_string(&o, trainsize_version_string());
    if (write_members(&o, result, "", 0, 1, 0) != 0) {
        if (cap) buf[0] = '\0'; /* no partial text */
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "",
                       "trainsize_result_json: a result field cannot be read (a text without its end: a "
                       "result trainsize_estimate did not fill?)");
    }
    ts_out_puts(&o, ",\n  \"advice\": ");
    if (write_advice(&o, advice, advice_count) != 0) {
        if (cap) buf[0] = '\0';
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_result_json: an advice's name or value has no end");
    }
    ts_out_puts(&o, "\n}\n");
    return ts_json_done(&o, "trainsize_result_json", err);
}

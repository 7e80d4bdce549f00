/* C helpers of the Go binding (compiled by cgo with the package). */
#include "cgo_helpers.h"

#include <string.h>

#include "_cgo_export.h" /* tsgoPlanProgress */

int tsgo_field_get(int table, const void *record, size_t index, tsgo_value *out, char *text,
                   size_t cap)
{
    trainsize_field_value v;
    int rc;

    if (!out)
        return TRAINSIZE_E_ARGUMENT;
    memset(&v, 0, sizeof v);
    memset(out, 0, sizeof *out);
    rc = table == TSGO_TABLE_PLAN ? trainsize_plan_field_get(record, index, &v)
                                  : trainsize_result_field_get(record, index, &v);
    if (rc != TRAINSIZE_OK)
        return rc;
    out->type = (int)v.type;
    out->u64 = v.u64;
    out->f64 = v.f64;
    out->has_text = v.text != NULL;
    out->text_len = v.text ? strlen(v.text) : 0;
    if (text && cap > 0) {
        size_t n = 0;
        if (v.text) {
            n = out->text_len < cap - 1 ? out->text_len : cap - 1;
            memcpy(text, v.text, n);
        }
        text[n] = '\0';
    }
    return TRAINSIZE_OK;
}

/* The library's progress callback: the context carries the Go handle, as an integer. */
static int tsgo_progress(void *context, uint64_t done, uint64_t total, uint64_t examined)
{
    return tsgoPlanProgress((uintptr_t)context, done, total, examined);
}

int tsgo_plan_with_progress(const trainsize_job *job, trainsize_plan_candidate *out, size_t cap,
                            size_t *count, trainsize_plan_stats *stats, uintptr_t handle,
                            trainsize_error *err)
{
    return trainsize_plan_with_progress(job, out, cap, count, stats, tsgo_progress, (void *)handle, err);
}

/* C helpers of the Go binding (compiled by cgo with the package). */
#ifndef TRAINSIZE_GO_HELPERS_H
#define TRAINSIZE_GO_HELPERS_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

/* One field of a record (a result, a plan candidate), without pointers, so that no C
 * pointer into the Go-held record outlives the call: the text is copied into the caller's
 * buffer. */
typedef struct tsgo_value {
    int type;        /* a trainsize_field_type */
    int has_text;    /* 1 when the library gave a text (STRING, CHOICE) */
    uint64_t u64;
    double f64;
    size_t text_len; /* the text's full length; the copy is cut at cap - 1 bytes */
} tsgo_value;

/* The field tables tsgo_field_get reads. */
enum { TSGO_TABLE_RESULT = 0, TSGO_TABLE_PLAN = 1 };

/* Field `index` of a trainsize_result (TSGO_TABLE_RESULT) or a trainsize_plan_candidate
 * (TSGO_TABLE_PLAN), through the library's field table. */
int tsgo_field_get(int table, const void *record, size_t index, tsgo_value *out, char *text,
                   size_t cap);

/* trainsize_plan_with_progress with the Go callback tsgoPlanProgress, handed `handle` (a
 * runtime/cgo.Handle) as its context. */
int tsgo_plan_with_progress(const trainsize_job *job, trainsize_plan_candidate *out, size_t cap,
                            size_t *count, trainsize_plan_stats *stats, uintptr_t handle,
                            trainsize_error *err);

#endif

/* Field tables (internal): a public struct seen as named, typed fields, so that the JSON
 * writers, the command's listings and the bindings read one table instead of each
 * spelling the struct out. The estimate's result (result_fields.c) and the planner's
 * candidates, the GPU catalogue and the model presets (record_fields.c) have one each. */
#ifndef TS_FIELD_TABLE_H
#define TS_FIELD_TABLE_H

#include <stddef.h>

#include "text_out.h"
#include "trainsize.h"

/* How a field's member is stored; AUTO follows the field's type (U64 and FLAGS: uint64_t,
 * F64: double, BOOL: int, STRING: a char array, CHOICE: an int indexing `names`). */
typedef enum ts_member {
    TS_MEMBER_AUTO = 0,
    TS_MEMBER_INT,    /* a U64 field kept in an int */
    TS_MEMBER_NOT,    /* a BOOL field that is the negation of an int ("bf16" of no_bf16) */
    TS_MEMBER_CSTR,   /* a STRING field kept as a const char *, NULL read as "" */
    TS_MEMBER_DERIVED /* computed from the whole struct by `derive` */
} ts_member;

typedef struct ts_field_def {
    trainsize_field_info info;
    size_t offset;
    ts_member member;
    const char *const *names; /* CHOICE: the names by value */
    size_t name_count;
    void (*derive)(const void *item, trainsize_field_value *out);
    size_t size; /* the member's bytes: a STRING array must hold its NUL within them */
} ts_field_def;

/* Field `index` of the table (count rows) for the struct at item: TRAINSIZE_OK, or
 * TRAINSIZE_E_ARGUMENT for NULL pointers, an index past the table, or a text array without
 * its NUL (a struct the library did not fill). */
int ts_field_read(const ts_field_def *table, size_t count, const void *item, size_t index,
                  trainsize_field_value *out);

/* {"name": value, ...} on one line, from every field of the table (paths are flat names). */
int ts_field_json_object(ts_out *o, const ts_field_def *table, size_t count, const void *item);

/* A field's value as JSON (warnings as an array of names; a STRING whose unit is "list" as
 * an array of its comma-separated names). */
void ts_field_json_value(ts_out *o, const trainsize_field_info *info, const trainsize_field_value *v);

/* One candidate, GPU or preset as a one-line JSON object (record_fields.c's tables). */
int ts_plan_candidate_json(ts_out *o, const trainsize_plan_candidate *c);
int ts_gpu_json(ts_out *o, const trainsize_gpu_info *g);
int ts_model_json(ts_out *o, const trainsize_model_info *m);

/* The "recompute" parameter's choices by value, for the tables that name a layout's. */
extern const char *const ts_recompute_names[4]; /* TS_RECOMPUTE_COUNT (choices.h) */

#endif

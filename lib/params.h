/* The parameter catalogue (internal). */
#ifndef TS_PARAMS_H
#define TS_PARAMS_H

#include <stddef.h>

#include "trainsize.h"

/* How a parameter's text becomes job state. */
typedef enum ts_setter {
    TS_SET_U64 = 0,   /* uint64_t member at `offset` */
    TS_SET_DOUBLE,    /* double member at `offset` */
    TS_SET_BOOL,      /* int member at `offset` */
    TS_SET_CHOICE,    /* int member at `offset`: the index in info.choices */
    TS_SET_MODEL,     /* a preset: the whole shape */
    TS_SET_GPU,       /* a catalogue GPU */
    TS_SET_LINK,      /* a catalogue network link */
    TS_SET_STORAGE,   /* a catalogue storage class */
    TS_SET_PLAN_GPUS, /* a comma-separated list of catalogue GPUs */
    TS_SET_GPU_PRICES, /* NAME=HOURLY[:PURCHASE],... per-GPU prices */
    TS_SET_PRESET_REF, /* a preset another model of the job is (a teacher, a critic, a reward
                          model): a const ts_model * at the offset ("" unsets it) */
    TS_SET_BITS       /* a comma-separated list of choices, as bits (1 << index) in an unsigned */
} ts_setter;

/* The planner's policy for a parameter: kept as the caller set it, or chosen by the
 * planner itself (and so refused from the caller, with the reason). */
typedef enum ts_plan_policy { TS_PLAN_KEEPS = 0, TS_PLAN_CHOOSES_LAYOUT, TS_PLAN_CHOOSES_GPU } ts_plan_policy;

typedef struct ts_param_def {
    trainsize_param_info info;
    ts_setter setter;
    size_t offset;
    trainsize_param_id id;   /* the public typed id */
    ts_plan_policy plan;     /* omitted in the table: TS_PLAN_KEEPS */
} ts_param_def;

const ts_param_def *ts_param_find(const char *name);
const ts_param_def *ts_param_def_by_id(int id); /* NULL when no parameter has it */
size_t ts_param_def_count(void);
const ts_param_def *ts_param_def_at(size_t index);

/* Index of `name` in a '|'-separated choice list, or -1. */
int ts_choice_index(const char *choices, const char *name);
/* Copy the index-th name of a choice list into buf; returns its length or -1. */
int ts_choice_name(const char *choices, int index, char *buf, size_t cap);

#endif

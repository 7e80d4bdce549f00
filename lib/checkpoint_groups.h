/* A checkpoint's tensors grouped by name prefix (trainsize_checkpoint_group), and which of
 * those groups a model's shape does not explain (internal; checkpoint_groups.c). */
#ifndef TS_CHECKPOINT_GROUPS_H
#define TS_CHECKPOINT_GROUPS_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "trainsize.h"

/* The groups met while headers are read: a hash table on the heap, so that a header of a
 * million tensor names costs a million lookups (past its slots, new prefixes go to
 * "(other)"). */
typedef struct ts_groups ts_groups;

ts_groups *ts_groups_new(void);
void ts_groups_free(ts_groups *g);
/* One tensor named `name` (its full name, decoded) of `elements`: into its group. Never
 * fails: the sums saturate where the caller's own checked total would already have failed. */
void ts_groups_add(ts_groups *g, const char *name, uint64_t elements);
/* The groups into ck->groups, the most parameters first (ties by name), the ones past the
 * table summed in a last "(other)". */
void ts_groups_finish(const ts_groups *g, trainsize_checkpoint *ck);

/* Set each group's `unexplained` against the shape's counts `pc`, which describe
 * `described` parameters (trainsize_job_set_checkpoint's rule, in trainsize.h). */
void ts_checkpoint_explain(trainsize_checkpoint *ck, const ts_param_counts *pc, uint64_t described);

/* The unexplained groups as one line, "NAME COUNT; NAME COUNT of TOTAL; ...", the most
 * first, layer indices as "0-23"; cut at whole entries with "; and N more (COUNT)". */
void ts_checkpoint_describe_extra(const trainsize_checkpoint *ck, char *buf, size_t cap);

#endif

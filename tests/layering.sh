#!/bin/sh
# The estimate runs one way (docs/architecture.md, "The estimate pipeline"): the pipeline
# (estimate.c) includes the job and the stages; a stage includes the stage types
# (stages.h) and the settings, never the job (job.h), the parameter table (params.h) or
# the public entry points above it, so it cannot reach back up. The readers (config.json,
# device files, calibrations) and the base code (text, numbers, JSON, units) fill structs
# and never see the job or the parameter table either: job_load.c and job.c hand what
# they read to a job. Fails naming each file that breaks the rule.
# Usage: layering.sh LIB_DIR
lib=${1:?usage: layering.sh LIB_DIR}
fail=0
bad() { echo "layering: $1" >&2; fail=1; }

for h in stages.h settings.h model.h; do
    grep -q '#include "job.h"' "$lib/$h" && bad "$h includes job.h"
done
stages=0
for f in "$lib"/*.c; do
    name=$(basename "$f")
    grep -q '#include "stages.h"' "$f" || continue
    [ "$name" = estimate.c ] && continue
    stages=$((stages + 1))
    grep -q '#include "job.h"' "$f" && bad "stage $name includes job.h"
    grep -q '#include "params.h"' "$f" && bad "stage $name includes params.h"
    grep -q 'trainsize_job\b' "$f" && bad "stage $name names trainsize_job"
    grep -nE '\b(trainsize_estimate|trainsize_plan|trainsize_advise|trainsize_job_[a-z_]+)\(' "$f" >/dev/null &&
        bad "stage $name calls an entry point above the pipeline"
done
# A rule that matches nothing passes vacuously: the stages must be there.
[ "$stages" -ge 9 ] || bad "found $stages stage files including stages.h (expected 9 or more)"
# Above the pipeline: the planner and the advice call trainsize_estimate, not the stages.
for f in planner.c plan_rank.c plan_bound.c plan_search.h advice.c job.c params.c; do
    grep -q '#include "stages.h"' "$lib/$f" && bad "$f (above the pipeline) includes stages.h"
done
# Readers and base code: no job, no job's settings, no parameter table, no call into a job
# (a reader fills its own struct and takes plain values).
below=0
for name in hf_config hf_families hf_keys hf_vision custom_gpu calibration json decimal units text \
            text_out text_format text_values json_write error file_read field_table warning_texts; do
    for f in "$lib/$name.c" "$lib/$name.h"; do
        [ -f "$f" ] || continue
        below=$((below + 1))
        grep -q '#include "job.h"' "$f" && bad "$(basename "$f") (a reader or base code) includes job.h"
        grep -q '#include "params.h"' "$f" && bad "$(basename "$f") (a reader or base code) includes params.h"
        grep -qE '#include "(settings|stages)\.h"' "$f" && bad "$(basename "$f") (a reader or base code) includes a job's settings"
        grep -nE '\b(ts_job_[a-z_]+|trainsize_job_[a-z_]+)\(' "$f" >/dev/null &&
            bad "$(basename "$f") (a reader or base code) calls into a job"
    done
done
[ "$below" -ge 20 ] || bad "found $below reader and base files (expected 20 or more)"
[ $fail -eq 0 ] && echo "layering: $stages stages and $below reader and base files, none includes the job"
exit $fail

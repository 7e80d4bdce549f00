/* What the Slurm plugin reads, as text (no Slurm types, so it is tested without Slurm):
 * the job's own options (#TRAINSIZE lines of a batch script, or a "trainsize:" comment),
 * its GPU request (the TRES strings Slurm hands a job_submit plugin) and the site's
 * trainsize.conf. Everything is bounded; nothing allocates. */
#ifndef TS_SLURM_DIRECTIVES_H
#define TS_SLURM_DIRECTIVES_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

/* Bounds: a job's directives and a site's configuration are short. */
#define TSD_MAX_PAIRS 64     /* options one job or one section sets */
#define TSD_TEXT_MAX 2048    /* bytes of option names and values kept for one job */
#define TSD_SECTIONS 16      /* [partition NAME] sections of trainsize.conf */
#define TSD_GRES_TYPES 16    /* gres-type.NAME = GPU mappings */
#define TSD_SCRIPT_SCAN 65536 /* bytes of a batch script searched for directives */

/* Option name = value pairs, pointing into `text`. */
typedef struct tsd_pairs {
    size_t count;
    const char *name[TSD_MAX_PAIRS], *value[TSD_MAX_PAIRS];
    char text[TSD_TEXT_MAX];
    size_t used;
} tsd_pairs;

/* The job's options from its batch script (#TRAINSIZE lines, several add up) or, when the
 * script has none (srun, salloc), its comment ("trainsize: OPTIONS"). Returns 1 when the
 * job opted in, 0 when not, -1 with `why` filled when the directives cannot be read (too
 * long, an option without a value, not an option). */
int tsd_job_options(const char *script, const char *comment, tsd_pairs *out, char *why, size_t cap);

/* A GPU request: GPUs per node and per job, and the GRES type if one was named
 * ("gres:gpu:a100:8" or "gres/gpu:8", several TRES separated by ',' or ';'). */
typedef struct tsd_gpus {
    uint64_t per_node, per_job;
    char type[64];
} tsd_gpus;

/* Add the GPUs of one TRES string (tres_per_node, tres_per_job) to `gpus`; `per_node`
 * says which of its counts it fills. Returns 0, or -1 when the count is unreadable. */
int tsd_gpu_request(const char *tres, int per_node, tsd_gpus *gpus);

/* trainsize.conf: `key = value` lines (the command's option names), `#` comments, then
 * `[partition NAME]` sections that apply on top for jobs of that partition, and
 * `gres-type.NAME = GPU` lines mapping site GRES types to catalogue GPUs; `set-mem = yes`
 * gives jobs without --mem the host RAM they need. */
typedef struct tsd_config {
    tsd_pairs global;
    size_t sections;
    char section_name[TSD_SECTIONS][64];
    tsd_pairs section[TSD_SECTIONS];
    size_t gres_types;
    char gres_type[TSD_GRES_TYPES][64], gres_gpu[TSD_GRES_TYPES][64];
    int set_mem;
} tsd_config;

/* Parse a configuration's text. Returns 0, or -1 with `why` (the line number and what is
 * wrong). */
int tsd_config_parse(const char *text, size_t len, tsd_config *cfg, char *why, size_t cap);

/* The options of a partition's section (NULL when none), and the catalogue GPU a GRES type
 * maps to (NULL when none). */
const tsd_pairs *tsd_config_section(const tsd_config *cfg, const char *partition);
const char *tsd_config_gres_gpu(const tsd_config *cfg, const char *type);

#endif

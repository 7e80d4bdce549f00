/* What the Slurm plugin reads, as text (no Slurm types, so it is tested without Slurm):
 * the job's own options (#TRAINSIZE lines of a batch script, or a "trainsize:" comment),
 * its GPU request (the TRES strings Slurm hands a job_submit plugin) and the site's
 * trainsize.conf; and what a job's directive may set. Everything is bounded; nothing
 * allocates. Input longer than a bound is refused, never cut. */
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
#define TSD_COMMENT_MAX 2048 /* bytes of options a "trainsize:" comment may hold */
#define TSD_GPUS_MAX 10000000 /* GPUs one request may count (the library's own bound) */
/* The catalogue's size when its hardware options were listed (tsd_option_source): a test
 * fails when it grows, so that a new parameter is placed on one side or the other. */
#define TSD_CATALOGUE_CLASSIFIED 226

/* Option name = value pairs, pointing into `text`. */
typedef struct tsd_pairs {
    size_t count;
    const char *name[TSD_MAX_PAIRS], *value[TSD_MAX_PAIRS];
    char text[TSD_TEXT_MAX];
    size_t used;
} tsd_pairs;

/* The job's options from its batch script (#TRAINSIZE lines anywhere in it, several add
 * up; the whole script is read, as Slurm bounds its size) or its comment ("trainsize:
 * OPTIONS", for srun and salloc, at most TSD_COMMENT_MAX bytes). Returns 1 when the job
 * opted in, 0 when not, -1 with `why` filled when the directives cannot be read: more
 * than is kept, not an option, or directives in both the script and the comment. */
int tsd_job_options(const char *script, const char *comment, tsd_pairs *out, char *why, size_t cap);

/* Where an option's value comes from. The rule: the hardware a job runs on is not the
 * job's to state. What Slurm allocates (gpus, gpus-per-node) comes from the request; what
 * the nodes and the site are (gpu, gpu-memory, host-ram, cpu-cores, nics-per-node,
 * host-memory-bandwidth, network, storage, rack-power-watts, spare-nodes, ...) from
 * trainsize.conf; options that read a file (hf-config, gpu-file) are never taken per job.
 * GPUs a job uses beside the training ones (rollout-gpus: the rollout engines of rollout
 * separate; critic-gpus, reward-gpus) are the job's to say, but come out of its allocation
 * (tsd_rollout_split).
 * Everything else describes the model and the training, which the job's directives say. */
typedef enum tsd_source { TSD_JOB = 0, TSD_ALLOCATION, TSD_SITE, TSD_FILE, TSD_WITHIN } tsd_source;

/* The one spelling of an option name: names compare ignoring ASCII case, '-' and '_'
 * (so "GPU", "gpu_memory" and "gpus-per_node" are the options they look like). Returns
 * the catalogue's name (static), "hf-config" or "gpu-file", or NULL for no option. */
const char *tsd_option_name(const char *given);
tsd_source tsd_option_source(const char *name); /* `name` as tsd_option_name returns it */

/* A GPU request: GPUs per node and per job, and the GRES type if one was named
 * ("gres:gpu:a100:8" or "gres/gpu:8", several TRES separated by ',' or ';'). */
typedef struct tsd_gpus {
    uint64_t per_node, per_job;
    char type[64];
} tsd_gpus;

/* Add the GPUs of one TRES string (tres_per_node, tres_per_job) to `gpus`; `per_node`
 * says which of its counts it fills. Returns 0, or -1 when a count is unreadable or above
 * TSD_GPUS_MAX in all, or the request names two GPU types (or one longer than kept). */
int tsd_gpu_request(const char *tres, int per_node, tsd_gpus *gpus);

/* What a job's GPU memory is admitted on (trainsize.conf's admit-on): the estimate
 * (memory.fits: peak_needed within the GPU), or its high bound (peak_needed x the result's
 * uncertainty.memory_high within the GPU). UNSET: a partition section that does not say,
 * which takes the global one. */
enum { TSD_ADMIT_UNSET = 0, TSD_ADMIT_ESTIMATE, TSD_ADMIT_HIGH };

/* trainsize.conf: `key = value` lines (the command's option names), `#` comments, then
 * `[partition NAME]` sections that apply on top for jobs of that partition, and
 * `gres-type.NAME = GPU` lines mapping site GRES types to catalogue GPUs; `set-mem = yes`
 * gives jobs without --mem the host RAM they need; `admit-on = estimate|high` (global, and
 * per section) what a job's GPU memory is admitted on. */
typedef struct tsd_config {
    tsd_pairs global;
    size_t sections;
    char section_name[TSD_SECTIONS][64];
    tsd_pairs section[TSD_SECTIONS];
    size_t gres_types;
    char gres_type[TSD_GRES_TYPES][64], gres_gpu[TSD_GRES_TYPES][64];
    int set_mem;
    /* admit-on: the global one (UNSET: the estimate), and each section's (UNSET: the
     * global one) */
    int admit_on, section_admit_on[TSD_SECTIONS];
    /* job-may-set = OPTIONS: the site's hardware options its jobs may set themselves;
     * job-may-not-set = OPTIONS: training options the site keeps (calibrated overheads). */
    size_t may_sets, may_not_sets;
    const char *may_set[TSD_MAX_PAIRS], *may_not_set[TSD_MAX_PAIRS];
    /* calibration = PATH: the site's calibration (trainsize calibrate), read once at init;
     * its settings are then the site's, not a directive's. "" when none. */
    char calibration[1024];
} tsd_config;

/* Parse a configuration's text; its keys are spelled as tsd_option_name reads them and
 * kept in that spelling. Returns 0, or -1 with `why` (the line number and what is wrong:
 * also an unknown option, a file option, a gres-type that is not a catalogue GPU). */
int tsd_config_parse(const char *text, size_t len, tsd_config *cfg, char *why, size_t cap);

/* Check a job's options against what a directive may set (cfg NULL: no trainsize.conf)
 * and give each its one spelling. Returns 0; TSD_CLAIM with `why` naming the option when
 * it claims hardware (the allocation's or the site's, unless job-may-set gives it); or -1
 * with `why` naming the option: not an option, one that reads a file, one the site keeps
 * (job-may-not-set or its calibration), or one given twice. */
#define TSD_CLAIM (-2)
int tsd_job_check(tsd_pairs *own, const tsd_config *cfg, char *why, size_t cap);

/* The GPUs a job's settings place beside the training ones: the rollout engines'
 * (rollout-gpus), ppo's critic's (critic-gpus), a reward model's (reward-gpus). */
typedef struct tsd_side {
    uint64_t rollout, critic, reward;
} tsd_side;

/* A job's GPUs beside training against its allocation `alloc`: they come out of the GPUs
 * Slurm allocated, and the rest train. Returns 0 with `train` the training GPUs (per job:
 * the allocation's less the side's; per node: the allocation's); or -1 with `why`, naming
 * each option that claims them, when they leave no GPU to train (they claim GPUs outside
 * the allocation, or all of it), or leave more than one server's GPUs to train that do not
 * fill whole servers (the library places them on servers of their own). */
int tsd_rollout_split(const tsd_gpus *alloc, const tsd_side *side, tsd_gpus *train, char *why, size_t cap);

/* The GPU the site says a job runs on: its GRES type's gres-type mapping, else its
 * partition's `gpu`, else the global one; NULL when the site names none (cfg NULL too).
 * *from_type tells whether the GRES type named it. */
const char *tsd_config_gpu(const tsd_config *cfg, const char *partition, const char *gres_type,
                           int *from_type);

/* What a job of `partition` is admitted on: its section's admit-on, else the global one;
 * TSD_ADMIT_ESTIMATE or TSD_ADMIT_HIGH (the estimate when cfg is NULL or none says). */
int tsd_config_admit_on(const tsd_config *cfg, const char *partition);

/* The options of a partition's section (NULL when none), and the catalogue GPU a GRES type
 * maps to (NULL when none). */
const tsd_pairs *tsd_config_section(const tsd_config *cfg, const char *partition);
const char *tsd_config_gres_gpu(const tsd_config *cfg, const char *type);

/* [s, s + n) as one line of printable ASCII, NUL-terminated in out: every other byte
 * (control bytes, ESC, DEL, bytes >= 0x80) is written \xHH, never cut through. Returns the
 * length written; cap >= 1. */
size_t tsd_escape(char *out, size_t cap, const char *s, size_t n);

#endif

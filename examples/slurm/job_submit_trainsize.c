/* job_submit/trainsize: a Slurm job_submit plugin that sizes a GPU job with libtrainsize
 * before it is queued, and rejects at the sbatch prompt a job that will not fit its GPUs.
 *
 * A job opts in with `#TRAINSIZE --option value ...` lines in its batch script (or, for
 * srun/salloc, `--comment "trainsize: --option value ..."`); others pass untouched. The
 * directives describe the model and the training; the hardware is never the job's word:
 * the GPUs come from the job's request (--gres=gpu[:TYPE]:N per node x nodes, --gpus),
 * the nodes' GPU model, host RAM and cores from trainsize.conf next to slurm.conf, read
 * once at init; GPUs a job uses beside the training ones (--rollout-gpus) come out of its
 * allocation, and a claim outside it is refused, naming the job
 * (examples/slurm/README.md, "Security"). Written for the Slurm 22.05 plugin interface
 * (src/slurmctld/job_submit.c): Slurm loads only a plugin built against its exact
 * version. */
#define _POSIX_C_SOURCE 200809L /* open's O_CLOEXEC, fstat */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#include "directives.h"
#include "trainsize.h"

#define PLUGIN_API __attribute__((visibility("default")))

PLUGIN_API const char plugin_name[] = "Size GPU jobs with libtrainsize before they are queued";
PLUGIN_API const char plugin_type[] = "job_submit/trainsize";
PLUGIN_API const uint32_t plugin_version = SLURM_VERSION_NUMBER;

/* slurmctld's own functions, resolved when it loads the plugin (not in the public headers):
 * err_msg is freed by slurmctld with xfree(), so it must come from its allocator;
 * xstrcat appends to it, or starts it when it is NULL. */
extern void slurm_xstrcat(char **str1, const char *str2);
extern void slurm_info(const char *fmt, ...);
extern void slurm_error(const char *fmt, ...);

/* The plugin interface slurmctld calls (src/slurmctld/job_submit.c, 22.05). */
struct job_record;
PLUGIN_API int init(void);
PLUGIN_API int fini(void);
PLUGIN_API int job_submit(job_desc_msg_t *d, uint32_t submit_uid, char **err_msg);
PLUGIN_API int job_modify(job_desc_msg_t *d, struct job_record *job_ptr, uint32_t submit_uid);

/* The site's configuration, read once at init (no file I/O per job). */
static tsd_config config;
static int config_loaded;

#define GIB (1024.0 * 1024.0 * 1024.0)
#define CONFIG_MAX (64 * 1024)

/* trainsize.conf in slurm.conf's folder ($SLURM_CONF's, else /etc/slurm); -1 when the
 * path does not fit (a cut path would name another file). */
static int config_path(char *buf, size_t cap)
{
    const char *conf = getenv("SLURM_CONF");
    const char *slash = conf ? strrchr(conf, '/') : NULL;
    int n = slash ? snprintf(buf, cap, "%.*s/trainsize.conf", (int)(slash - conf), conf)
                  : snprintf(buf, cap, "/etc/slurm/trainsize.conf");
    return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* trainsize.conf's text (or the calibration's) into text[0, *len): 1 when read, 0 when
 * there is none, -1 with
 * `why` when it cannot be used. It is opened without blocking and must be a regular file
 * before a byte is read: a FIFO there would hang slurmctld, a device never end. */
static int read_config(const char *path, char *text, size_t cap, size_t *len, const char **why)
{
    struct stat st;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    *len = 0;
    if (fd < 0) {
        if (errno == ENOENT) return 0;
        *why = strerror(errno);
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *why = "not a regular file";
        close(fd);
        return -1;
    }
    while (*len < cap) {
        ssize_t got = read(fd, text + *len, cap - *len);
        if (got == 0) break;
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            *why = strerror(errno);
            close(fd);
            return -1;
        }
        *len += (size_t)got;
    }
    close(fd);
    if (*len == cap) {
        *why = "larger than its limit (trainsize.conf: 64 KiB, a calibration: 256 KiB)";
        return -1;
    }
    return 1;
}

/* The site calibration's text, read once at init (never per job), checked by the library
 * then, and applied to every job before the site's settings. */
#define CALIBRATION_MAX (256 * 1024)
static char calibration_text[CALIBRATION_MAX];
static size_t calibration_len;

static int load_calibration(const char *path)
{
    const char *fail = "";
    trainsize_job *probe;
    trainsize_error err;
    int rc = read_config(path, calibration_text, sizeof calibration_text, &calibration_len, &fail);
    calibration_len = rc > 0 ? calibration_len : 0;
    if (rc <= 0) {
        slurm_error("job_submit/trainsize: calibration %s: %s", path, rc == 0 ? "no such file" : fail);
        return -1;
    }
    probe = trainsize_job_new();
    if (!probe) {
        slurm_error("job_submit/trainsize: calibration %s: out of memory", path);
        return -1;
    }
    rc = trainsize_job_load_calibration_json(probe, calibration_text, calibration_len, &err);
    trainsize_job_free(probe);
    if (rc != TRAINSIZE_OK) {
        slurm_error("job_submit/trainsize: calibration %s: %s", path, err.message);
        calibration_len = 0;
        return -1;
    }
    return 0;
}

/* For the "loaded" line: where jobs are admitted on the high bound ("; admit-on = high",
 * or "; admit-on = high in partition a, b"), "" where nowhere. */
static void admission(char *out, size_t cap)
{
    size_t i, used = 0;
    out[0] = '\0';
    if (config.admit_on == TSD_ADMIT_HIGH) {
        snprintf(out, cap, "; admit-on = high");
        return;
    }
    for (i = 0; i < config.sections && used < cap; i++)
        if (config.section_admit_on[i] == TSD_ADMIT_HIGH)
            used += (size_t)snprintf(out + used, cap - used, "%s%s", used ? ", " : "; admit-on = high in partition ",
                                     config.section_name[i]);
}

PLUGIN_API int init(void)
{
    static char text[CONFIG_MAX];
    char path[4096], why[256], admit[512];
    const char *fail = "";
    size_t n;
    int rc;
    memset(&config, 0, sizeof config);
    config_loaded = 0;
    calibration_len = 0;
    if (config_path(path, sizeof path) != 0) {
        slurm_error("job_submit/trainsize: the path of trainsize.conf is longer than %zu bytes", sizeof path);
        return SLURM_ERROR;
    }
    rc = read_config(path, text, sizeof text, &n, &fail);
    if (rc == 0) {
        slurm_info("job_submit/trainsize: no %s: it names no GPU, so jobs are let through unsized", path);
        return SLURM_SUCCESS;
    }
    if (rc < 0 || tsd_config_parse(text, n, &config, why, sizeof why) != 0) {
        slurm_error("job_submit/trainsize: %s: %s", path, rc < 0 ? fail : why);
        memset(&config, 0, sizeof config);
        return SLURM_ERROR;
    }
    if (config.calibration[0] && load_calibration(config.calibration) != 0) {
        memset(&config, 0, sizeof config);
        return SLURM_ERROR;
    }
    config_loaded = 1;
    admission(admit, sizeof admit);
    /* the line an operator greps slurmctld's log for: the plugin is loaded, and with what */
    slurm_info("job_submit/trainsize: loaded %s (libtrainsize %s)%s%s%s", path, trainsize_version_string(),
               config.calibration[0] ? "; calibration " : "", config.calibration, admit);
    return SLURM_SUCCESS;
}

PLUGIN_API int fini(void) { return SLURM_SUCCESS; }

/* The message slurmctld shows at the prompt (it frees it): one line of printable text,
 * whatever a job wrote or the library echoed. slurmctld hands every JobSubmitPlugins
 * plugin the same err_msg: an earlier plugin's message is kept and ours follows it. */
static void say(char **err_msg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(char **err_msg, const char *fmt, ...)
{
    char line[640], safe[1024];
    va_list ap;
    if (!err_msg) return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    tsd_escape(safe, sizeof safe, line, strlen(line));
    if (*err_msg && **err_msg) slurm_xstrcat(err_msg, "; ");
    slurm_xstrcat(err_msg, safe);
}

/* Apply option pairs (names in their one spelling); 0, or SLURM_ERROR with `why` the
 * library's message. */
static int apply(trainsize_job *job, const tsd_pairs *pairs, char *why, size_t cap)
{
    size_t i;
    for (i = 0; pairs && i < pairs->count; i++) {
        trainsize_error err;
        if (trainsize_job_set(job, pairs->name[i], pairs->value[i], &err) != TRAINSIZE_OK) {
            snprintf(why, cap, "%s", err.message);
            return SLURM_ERROR;
        }
    }
    return SLURM_SUCCESS;
}

/* Does a job's own option set `name`? */
static int sets(const tsd_pairs *own, const char *name)
{
    size_t i;
    for (i = 0; i < own->count; i++)
        if (strcmp(own->name[i], name) == 0) return 1;
    return 0;
}

/* The job, as the refusal of a claim names it. slurmctld numbers a job only after the
 * job_submit plugins ran (job_id is NO_VAL here unless an administrator asked for one), so
 * its name (sbatch: the script's, or --job-name) and the user who submitted it say which
 * it was. The name is the user's text: bounded here, escaped by say(). */
static void job_label(const job_desc_msg_t *d, uint32_t uid, char *out, size_t cap)
{
    char id[16] = "", name[64] = "";
    if (d->job_id && d->job_id != NO_VAL) snprintf(id, sizeof id, " %u", (unsigned)d->job_id);
    if (d->name && d->name[0]) {
        int longer = memchr(d->name, '\0', 41) == NULL;
        snprintf(name, sizeof name, " \"%.40s%s\"", d->name, longer ? "..." : "");
    }
    snprintf(out, cap, "job%s%s (uid %u)", id, name, (unsigned)uid);
}

/* A refused claim on hardware: the job, then the one reason already in `why` (moved up,
 * its end cut if both do not fit; cap is the caller's buffer, more than a label). */
static void claimed(const job_desc_msg_t *d, uint32_t uid, char *why, size_t cap)
{
    char label[96];
    size_t n, len = strlen(why);
    job_label(d, uid, label, sizeof label);
    n = strlen(label) + 2;
    if (n >= cap) return;
    if (n + len >= cap) len = cap - n - 1;
    memmove(why + n, why, len);
    why[n + len] = '\0';
    memcpy(why, label, n - 2);
    memcpy(why + n - 2, ": ", 2);
}

/* A count the job's settings give GPUs beside the training ones (rollout-gpus, critic-gpus,
 * reward-gpus), as the library read it (from a directive, trainsize.conf or anywhere else:
 * whoever set it, the claim is checked); 0 when none. */
static int side_gpus(const trainsize_job *job, const char *name, uint64_t *n)
{
    char text[32], *end;
    int len = trainsize_job_get(job, name, text, sizeof text, NULL);
    if (len <= 0 || (size_t)len >= sizeof text || text[0] < '0' || text[0] > '9') return -1;
    errno = 0;
    *n = strtoull(text, &end, 10);
    return *end || errno ? -1 : 0;
}

/* GPUs of the job: --gres=gpu per node x nodes, or --gpus for the job. */
static int request_gpus(const job_desc_msg_t *d, tsd_gpus *g)
{
    uint64_t nodes = d->min_nodes && d->min_nodes != NO_VAL ? d->min_nodes : 1;
    memset(g, 0, sizeof *g);
    if (tsd_gpu_request(d->tres_per_node, 1, g) || tsd_gpu_request(d->tres_per_job, 0, g)) return -1;
    if (g->per_node) g->per_job = g->per_node * nodes;
    else if (g->per_job) g->per_node = g->per_job / nodes;
    return g->per_job ? 0 : -1;
}

/* The job as libtrainsize sees it: the site's defaults, the partition's, the GRES type's
 * GPU, the job's own options (checked by tsd_job_check), then the request's counts, less
 * the GPUs the engines take (`train`: what trains). */
static int build(trainsize_job *job, const job_desc_msg_t *d, uint32_t uid, const tsd_gpus *g,
                 const tsd_pairs *own, tsd_gpus *train, char *why, size_t cap)
{
    char n[32];
    const char *gpu = tsd_config_gres_gpu(&config, g->type);
    tsd_side side;
    int rc;
    /* the site's calibration first: its settings then, the job's last */
    if (config_loaded && calibration_len) {
        trainsize_error err;
        if (trainsize_job_load_calibration_json(job, calibration_text, calibration_len, &err) != TRAINSIZE_OK) {
            snprintf(why, cap, "trainsize.conf calibration: %s", err.message);
            return SLURM_ERROR;
        }
    }
    if ((rc = apply(job, config_loaded ? &config.global : NULL, why, cap)) ||
        (rc = apply(job, config_loaded ? tsd_config_section(&config, d->partition) : NULL, why, cap)))
        return rc;
    if (gpu && trainsize_job_set(job, "gpu", gpu, NULL) != TRAINSIZE_OK) {
        snprintf(why, cap, "trainsize.conf: gres-type.%s = %s is not a catalogue GPU", g->type, gpu);
        return SLURM_ERROR;
    }
    if ((rc = apply(job, own, why, cap))) return rc;
    /* The counts last: no directive sets them, and what the engines take is known now. */
    if (side_gpus(job, "rollout-gpus", &side.rollout) || side_gpus(job, "critic-gpus", &side.critic) ||
        side_gpus(job, "reward-gpus", &side.reward)) {
        snprintf(why, cap, "rollout-gpus, critic-gpus, reward-gpus: cannot be read back");
        return SLURM_ERROR;
    }
    if (tsd_rollout_split(g, &side, train, why, cap)) {
        claimed(d, uid, why, cap);
        return SLURM_ERROR;
    }
    snprintf(n, sizeof n, "%llu", (unsigned long long)train->per_job);
    if (trainsize_job_set(job, "gpus", n, NULL) != TRAINSIZE_OK) {
        snprintf(why, cap, "gpus: %s GPUs cannot be sized", n);
        return SLURM_ERROR;
    }
    snprintf(n, sizeof n, "%llu", (unsigned long long)train->per_node);
    if (train->per_node && trainsize_job_set(job, "gpus-per-node", n, NULL) != TRAINSIZE_OK) {
        snprintf(why, cap, "gpus-per-node: %s cannot be sized", n);
        return SLURM_ERROR;
    }
    return SLURM_SUCCESS;
}

/* What the directives and the request leave to size, or why not: SLURM_SUCCESS with
 * *gpu_known 0 when the site names no GPU (the job goes through unsized). */
static int admissible(const job_desc_msg_t *d, uint32_t uid, tsd_pairs *own, tsd_gpus *g, int *gpu_known,
                      char *why, size_t cap)
{
    const tsd_config *cfg = config_loaded ? &config : NULL;
    const char *gpu;
    int from_type, rc = tsd_job_check(own, cfg, why, cap);
    if (rc == TSD_CLAIM) claimed(d, uid, why, cap); /* hardware: name the job */
    if (rc) return SLURM_ERROR;
    if (request_gpus(d, g)) {
        snprintf(why, cap, "no GPU request to size (--gres=gpu[:TYPE]:N or --gpus=N, one GPU type)");
        return ESLURM_INVALID_GRES;
    }
    gpu = tsd_config_gpu(cfg, d->partition, g->type, &from_type);
    if (from_type && sets(own, "gpu")) {
        snprintf(why, cap, "--gpu: the job's GRES type %s is %s (trainsize.conf gres-type.%s)", g->type, gpu,
                 g->type);
        claimed(d, uid, why, cap);
        return SLURM_ERROR;
    }
    *gpu_known = gpu || sets(own, "gpu"); /* the latter only where job-may-set gives gpu */
    return SLURM_SUCCESS;
}

/* The high bound of what an estimate needs per GPU (admit-on = high): memory.peak_needed,
 * which memory.fits compares with the GPU, times the band's high factor. */
static double needed_high(const trainsize_result *r)
{
    return (double)r->memory.peak_needed * r->uncertainty.memory_high;
}

/* Does it fit at the high bound? NaN (never from the library) does not. */
static int fits_high(const trainsize_result *r)
{
    return r->memory.fits && needed_high(r) <= (double)r->memory.gpu_capacity;
}

/* The first of the library's fit advice for `job` on a GPU of `capacity` bytes with no
 * headroom kept (the band is the margin) that, applied to the job itself, fits at the high
 * bound (and in the nodes' host RAM), into `advice`; 0 when none does. */
#define HIGH_ADVICE_TRIED 4
static int first_high_advice(const trainsize_job *job, uint64_t capacity, char *advice, size_t cap)
{
    trainsize_advice a[HIGH_ADVICE_TRIED];
    trainsize_job *shrunk = trainsize_job_clone(job);
    size_t count = 0, i, j;
    char bytes[32];
    if (!shrunk) return 0;
    snprintf(bytes, sizeof bytes, "%llu", (unsigned long long)capacity);
    if (trainsize_job_set(shrunk, "gpu-memory", bytes, NULL) != TRAINSIZE_OK ||
        trainsize_job_set(shrunk, "headroom", "0", NULL) != TRAINSIZE_OK ||
        trainsize_advise(shrunk, a, HIGH_ADVICE_TRIED, &count, NULL) != TRAINSIZE_OK)
        count = 0;
    trainsize_job_free(shrunk);
    for (i = 0; i < count && a[i].settings > 0; i++) {
        trainsize_job *changed = trainsize_job_clone(job);
        trainsize_result c;
        int ok = changed != NULL;
        for (j = 0; ok && j < a[i].settings; j++)
            ok = trainsize_job_set(changed, a[i].names[j], a[i].values[j], NULL) == TRAINSIZE_OK;
        ok = ok && trainsize_estimate(changed, &c, sizeof c, NULL) == TRAINSIZE_OK && fits_high(&c) &&
             !(c.warnings & TRAINSIZE_WARN_HOST_RAM);
        trainsize_job_free(changed);
        if (ok) {
            size_t used = (size_t)snprintf(advice, cap, "; fits at the high bound with");
            for (j = 0; j < a[i].settings && used < cap; j++)
                used += (size_t)snprintf(advice + used, cap - used, " --%s %s", a[i].names[j], a[i].values[j]);
            if (used < cap) snprintf(advice + used, cap - used, " (needs up to %.1f GiB)", needed_high(&c) / GIB);
            return 1;
        }
    }
    return 0;
}

/* Fit advice for admit-on = high ("; fits at the high bound with --x y (needs up to N
 * GiB)"), or "" when none is found. The library's advice fits the estimate (what the job
 * needs within the GPU, its peak total within the GPU less the job's headroom), so it is
 * sought on a GPU shrunk by the band, then checked on the job itself: a change can move the
 * job to another band (ZeRO-3's is wider). The advisor holds the peak total (the allocator's
 * cache too) within the shrunk GPU, above what the job needs: first a GPU grown back by
 * that ratio (kept below what the job needs, else the advisor sees it fit and advises
 * nothing), then, when none of its advice holds, the GPU shrunk by the band alone. A few
 * dozen estimates; no file; a few jobs allocated and freed. */
static void advise_high(const trainsize_job *job, const trainsize_result *r, char *advice, size_t cap)
{
    const double capacity = (double)r->memory.gpu_capacity, high = r->uncertainty.memory_high;
    double strict, loose;
    advice[0] = '\0';
    if (!(high >= 1.0) || !r->memory.peak_needed) return; /* the library's band is >= 1; NaN is not */
    strict = capacity / high;
    loose = strict * ((double)r->memory.peak_total / (double)r->memory.peak_needed);
    if (loose > (double)r->memory.peak_needed - 1.0) loose = (double)r->memory.peak_needed - 1.0;
    if (loose > strict && first_high_advice(job, (uint64_t)loose, advice, cap)) return;
    if (!first_high_advice(job, (uint64_t)strict, advice, cap)) advice[0] = '\0';
}

/* What the band of an estimate's memory rests on: the basis's memory part ("ZeRO-3 and
 * FSDP, 50 figures; widened: offload"), or all of it. */
static const char *memory_basis(const trainsize_result *r)
{
    const char *m = strstr(r->uncertainty.basis, "memory: ");
    return m ? m + 8 : r->uncertainty.basis;
}

/* Size a built job: the verdict at the prompt, and its status. `g` is the allocation,
 * `train` what of it trains; the line says so when the engines take the rest. With
 * admit-on = high, the job's GPU memory is admitted on the estimate's high bound. */
static int verdict(trainsize_job *job, job_desc_msg_t *d, const tsd_gpus *g, const tsd_gpus *train,
                   char **err_msg)
{
    trainsize_result r;
    trainsize_error err;
    char split[160] = "", high[96] = "";
    tsd_side side = {0, 0, 0};
    int admit_high = config_loaded && tsd_config_admit_on(&config, d->partition) == TSD_ADMIT_HIGH;
    /* read back as build() did; a count that cannot be (none here) reads as 0 */
    if (side_gpus(job, "critic-gpus", &side.critic)) side.critic = 0;
    if (side_gpus(job, "reward-gpus", &side.reward)) side.reward = 0;
    if (train->per_job != g->per_job && !side.critic && !side.reward)
        snprintf(split, sizeof split, " (training on %llu of the %llu GPUs, %llu for rollout)",
                 (unsigned long long)train->per_job, (unsigned long long)g->per_job,
                 (unsigned long long)(g->per_job - train->per_job));
    else if (train->per_job != g->per_job) {
        /* the roles that take GPUs beside training, those with none left out */
        const unsigned long long counts[] = {g->per_job - train->per_job - side.critic - side.reward, side.critic,
                                             side.reward};
        static const char *const roles[] = {"rollout", "the critic", "the reward model"};
        size_t i, used = (size_t)snprintf(split, sizeof split, " (training on %llu of the %llu GPUs; beside them",
                                          (unsigned long long)train->per_job, (unsigned long long)g->per_job);
        const char *sep = " ";
        for (i = 0; i < 3 && used < sizeof split; i++) {
            if (!counts[i]) continue;
            used += (size_t)snprintf(split + used, sizeof split - used, "%s%llu for %s", sep, counts[i], roles[i]);
            sep = ", ";
        }
        if (used < sizeof split) snprintf(split + used, sizeof split - used, ")");
    }
    if (trainsize_estimate(job, &r, sizeof r, &err) != TRAINSIZE_OK) {
        say(err_msg, "trainsize: %s", err.message);
        return SLURM_ERROR;
    }
    if (!r.memory.fits) {
        trainsize_advice a[1];
        size_t count = 0;
        char advice[200] = "";
        if (admit_high) /* the estimate's advice may not clear the high bound */
            advise_high(job, &r, advice, sizeof advice);
        else if (trainsize_advise(job, a, 1, &count, NULL) == TRAINSIZE_OK && count == 1 && a[0].settings > 0) {
            size_t i, used = 0;
            used += (size_t)snprintf(advice, sizeof advice, "; fits with");
            for (i = 0; i < a[0].settings && used < sizeof advice; i++)
                used += (size_t)snprintf(advice + used, sizeof advice - used, " --%s %s", a[0].names[i],
                                         a[0].values[i]);
            if (used < sizeof advice)
                snprintf(advice + used, sizeof advice - used, " (%.1f GiB)", (double)a[0].peak_total / GIB);
        }
        say(err_msg, "trainsize: does not fit: peak %.1f GiB per GPU of %.1f GiB on %s%s%s",
            (double)r.memory.peak_total / GIB, (double)r.memory.gpu_capacity / GIB, r.gpu, split, advice);
        return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
    }
    /* admit-on = high: the estimate fits, its high bound must too. */
    if (admit_high && !fits_high(&r)) {
        char advice[200];
        advise_high(job, &r, advice, sizeof advice);
        say(err_msg, "trainsize: does not fit at the high bound: needs up to %.1f GiB per GPU (the estimate's "
            "%.1f GiB x %.2f: %.140s) of %.1f GiB on %s%s; admit-on = high (trainsize.conf)%s",
            needed_high(&r) / GIB, (double)r.memory.peak_needed / GIB, r.uncertainty.memory_high,
            memory_basis(&r), (double)r.memory.gpu_capacity / GIB, r.gpu, split, advice);
        return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
    }
    if (admit_high)
        snprintf(high, sizeof high, "; at the high bound needs up to %.1f GiB (x %.2f)", needed_high(&r) / GIB,
                 r.uncertainty.memory_high);
    /* The GPUs hold it, but the nodes' host RAM (trainsize.conf's host-ram) does not. */
    if (r.warnings & TRAINSIZE_WARN_HOST_RAM) {
        say(err_msg, "trainsize: host RAM short: the job needs %.0f GiB per node (CPU offload, loading, "
            "data loaders), more than the nodes' host-ram", (double)r.system.host_ram_need_per_node / GIB);
        return ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE;
    }
    /* Optionally the host RAM the job needs, when it asked for none (MiB per node). */
    if (config.set_mem && (d->pn_min_memory == NO_VAL64 || d->pn_min_memory == 0))
        d->pn_min_memory = (r.system.host_ram_need_per_node + (1u << 20) - 1) >> 20;
    say(err_msg, "trainsize: fits: peak %.1f GiB per GPU of %.1f GiB on %s%s%s; host RAM %.0f GiB per node",
        (double)r.memory.peak_total / GIB, (double)r.memory.gpu_capacity / GIB, r.gpu, split, high,
        (double)r.system.host_ram_need_per_node / GIB);
    return SLURM_SUCCESS;
}

PLUGIN_API int job_submit(job_desc_msg_t *d, uint32_t submit_uid, char **err_msg)
{
    tsd_pairs own;
    tsd_gpus g, train;
    trainsize_job *job;
    char why[512];
    int opted, rc, gpu_known = 0;
    if (!d) return SLURM_SUCCESS;
    opted = tsd_job_options(d->script, d->comment, &own, why, sizeof why);
    if (opted == 0) return SLURM_SUCCESS; /* not ours */
    rc = opted < 0 ? SLURM_ERROR : admissible(d, submit_uid, &own, &g, &gpu_known, why, sizeof why);
    if (rc != SLURM_SUCCESS) {
        say(err_msg, "trainsize: %s", why);
        return rc;
    }
    if (!gpu_known) {
        say(err_msg, "trainsize: not sized: trainsize.conf names no GPU for these nodes (gpu = NAME, or "
            "gres-type.TYPE = NAME)");
        return SLURM_SUCCESS;
    }
    job = trainsize_job_new();
    if (!job) return SLURM_SUCCESS; /* out of memory: never stand in the job's way */
    rc = build(job, d, submit_uid, &g, &own, &train, why, sizeof why);
    if (rc != SLURM_SUCCESS) say(err_msg, "trainsize: %s", why);
    else rc = verdict(job, d, &g, &train, err_msg);
    trainsize_job_free(job);
    return rc;
}

/* Modifications (scontrol update) are not sized again. 22.05's signature has no err_msg;
 * job_record_t is internal to slurmctld. */
PLUGIN_API int job_modify(job_desc_msg_t *d, struct job_record *job_ptr, uint32_t submit_uid)
{
    (void)d;
    (void)job_ptr;
    (void)submit_uid;
    return SLURM_SUCCESS;
}

/* How sure an estimate is (trainsize_result.uncertainty): each job falls in a class of the
 * library's own validation, and the class's band is the interval of measured over
 * estimated that leaves out at most a tenth of its published runs on each side, each run
 * predicted by the fit left without its own source and as the library ships
 * (tests/accuracy/bands.py measures the table below; docs/accuracy.md, "Uncertainty
 * bands"). At least 80 % of the class's runs lie inside it.
 *
 * Where the job lies outside what the class validated, the band widens: each such
 * condition stretches its half-width by BAND_WIDEN on a log scale (fitted on the fixtures'
 * widened runs, which are too few to have bands of their own). Where a site calibration
 * was fitted on this GPU with a held-out error of its own, the time band is that error's.
 * docs/methodology.md, "Uncertainty". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "calibration.h"
#include "catalog.h"
#include "stages.h"

/* One class: what the basis says of it (its name and the runs it was measured on) and its
 * band (factors on the estimate: measured / estimated). Written out whole, so that an
 * estimate copies it rather than formats it. */
typedef struct band {
    const char *text;
    double low, high;
} band;
#define TIME_BAND(name, low, high, runs) {name ", " #runs " runs", low, high}
#define MEMORY_BAND(name, low, high, runs) {name ", " #runs " figures", low, high}

/* Time: measured over estimated step time, held out (tests/accuracy/bands.py). Megatron
 * stacks: Megatron-LM, Megatron-Core (NeMo), nanotron; FSDP stacks: torchtitan, FSDP. */
enum { T_IMAGE, T_ENCODER, T_MEGATRON, T_FSDP, T_HF, T_MOE, T_CLASSES };
static const band TIME_BANDS[T_CLASSES] = {
    [T_IMAGE] = TIME_BAND("ResNets", 0.794, 1.640, 112),
    [T_ENCODER] = TIME_BAND("encoders (BERT)", 0.875, 1.269, 196),
    [T_MEGATRON] = TIME_BAND("decoders on Megatron stacks", 0.870, 1.272, 107),
    [T_FSDP] = TIME_BAND("decoders on FSDP stacks", 0.795, 1.458, 46),
    [T_HF] = TIME_BAND("decoders on the HF Trainer or DeepSpeed", 0.923, 1.235, 23),
    [T_MOE] = TIME_BAND("MoE decoders", 0.697, 1.576, 13),
};

/* Memory: measured over estimated peak, the figure each run reported (allocated, reserved
 * or nvidia-smi's), held out (a ZeRO-3/FSDP figure with sharded-slack fitted without its
 * source) and at the library's defaults. Long context: a GPU's micro-batch of
 * LONG_CONTEXT_TOKENS or more, or context parallelism. */
enum { M_UNSHARDED, M_SHARDED, M_LONG, M_CLASSES };
static const band MEMORY_BANDS[M_CLASSES] = {
    [M_UNSHARDED] = MEMORY_BAND("unsharded", 0.986, 1.127, 52),
    [M_SHARDED] = MEMORY_BAND("ZeRO-3 and FSDP", 0.787, 1.157, 50),
    [M_LONG] = MEMORY_BAND("long context", 0.976, 1.285, 14),
};

/* The stretch of a band's half-width, on a log scale about its centre, for each way a
 * job lies outside its class's runs: the least of 1.5, 2, 2.5 and 3 under which the
 * fixtures' widened runs (65 timed, 34 memory figures) lie inside their bands at least
 * 80 % of the time (62 of 65 and 29 of 34; 1.5 gave 60 and 25: tests/accuracy/bands.py). */
#define BAND_WIDEN 2.0
/* A micro-batch's tokens on one GPU from which a job counts as long-context. */
#define LONG_CONTEXT_TOKENS 32768
/* MoE with more routed experts than this: the fixtures' runs are coarse-grained. */
#define MANY_EXPERTS 64
/* A site calibration's held-out median error x gives the band exp(+-Z log(1 + x)): 1.9 is
 * the 90th percentile of |error| over its median for a normal error (1.2816 / 0.6745), so
 * about 80 % inside. */
#define CALIBRATION_Z 1.9

static int time_class(const ts_settings *cfg, const ts_conv *conv)
{
    const ts_model *m = &cfg->model;
    if (conv->cnn) return T_IMAGE;
    /* post-norm (BERT, RoBERTa) or a pooler or classifier head: an encoder */
    if (m->post_norm || m->head != TS_HEAD_LM) return T_ENCODER;
    if (ts_model_is_moe(m)) return T_MOE;
    switch (conv->stack) {
    case TS_STACK_TORCHTITAN:
    case TS_STACK_FSDP: return T_FSDP;
    case TS_STACK_HF:
    case TS_STACK_DEEPSPEED: return T_HF;
    default: return T_MEGATRON;
    }
}

static int memory_class(const ts_settings *cfg, const ts_layout *lay)
{
    if (lay->cp > 1 || lay->micro_batch * cfg->seq / lay->cp >= LONG_CONTEXT_TOKENS) return M_LONG;
    return lay->zero >= 3 ? M_SHARDED : M_UNSHARDED;
}

/* The architectures the fixtures hold measured runs of. */
static int validated_gpu(const trainsize_gpu_info *g)
{
    return ts_arch_is(g, "Volta") || ts_arch_is(g, "Ampere") || ts_arch_is(g, "Ada") ||
           ts_arch_is(g, "Hopper") || ts_arch_is(g, "Blackwell");
}

/* A band's half-width stretched by `widen` on a log scale about its centre; it still
 * holds the estimate itself (1). */
static void stretch(double low, double high, double widen, double *lo, double *hi)
{
    double centre = 0.5 * (log(low) + log(high)), half = 0.5 * (log(high) - log(low)) * widen;
    *lo = fmin(1.0, exp(centre - half));
    *hi = fmax(1.0, exp(centre + half));
}

/* Text appended at buf[used] (cap bytes in all), cut to fit; the new length. */
static size_t put(char *buf, size_t cap, size_t used, const char *text)
{
    size_t n = strlen(text);
    if (used + 1 >= cap) return used;
    if (n > cap - 1 - used) n = cap - 1 - used;
    memcpy(buf + used, text, n);
    buf[used + n] = '\0';
    return used + n;
}

/* One more reason the bands were widened: its words after the others'. */
static size_t widened(char *buf, size_t cap, size_t used, int *count, const char *why)
{
    used = put(buf, cap, used, (*count)++ ? ", " : "; widened: ");
    return put(buf, cap, used, why);
}

void ts_uncertainty_make(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                         trainsize_uncertainty *u)
{
    const band *t = &TIME_BANDS[time_class(cfg, conv)], *m = &MEMORY_BANDS[memory_class(cfg, lay)];
    char *b = u->basis;
    size_t cap = sizeof u->basis, used;
    int count = 0, both = 0, time_only = 0;
    int calibrated = cfg->calibration_runs && cfg->calibration_loo_error > 0.0 &&
                     ts_calibration_covers(cfg->calibration_runs, cfg->calibration_gpus, cfg->gpu->name);
    if (calibrated) /* this site's own held-out error: the class's band does not apply to its time */
        used = (size_t)snprintf(b, cap, "time: this site's calibration, %llu runs held out one at a time",
                                (unsigned long long)cfg->calibration_runs);
    else
        used = put(b, cap, put(b, cap, 0, "time: "), t->text);
    used = put(b, cap, put(b, cap, used, "; memory: "), m->text);
    /* the ways a job lies outside its class: each stretches the bands it names */
    if (!validated_gpu(cfg->gpu)) used = widened(b, cap, used, &count, "an architecture without runs"), both++;
    if (lay->cp > 1) used = widened(b, cap, used, &count, "context parallelism"), both++;
    if (cfg->offload || cfg->activation_offload) used = widened(b, cap, used, &count, "offload"), both++;
    if (cfg->method != TS_METHOD_SFT) used = widened(b, cap, used, &count, "post-training"), both++;
    if (cfg->model.experts > MANY_EXPERTS) used = widened(b, cap, used, &count, "many experts (time)"), time_only++;
    if (calibrated) {
        double z = CALIBRATION_Z * log1p(cfg->calibration_loo_error);
        u->time_low = exp(-z);
        u->time_high = exp(z);
    } else if (both + time_only == 0) {
        u->time_low = t->low, u->time_high = t->high;
    } else {
        stretch(t->low, t->high, pow(BAND_WIDEN, both + time_only), &u->time_low, &u->time_high);
    }
    if (both == 0) u->memory_low = m->low, u->memory_high = m->high;
    else stretch(m->low, m->high, pow(BAND_WIDEN, both), &u->memory_low, &u->memory_high);
}

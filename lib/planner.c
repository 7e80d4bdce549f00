/* The planner: a search over GPU type x count x tensor/context/pipeline (interleaved)/expert
 * parallelism x ZeRO stage x micro-batch x recomputation, under the job's constraints.
 * Every configuration it keeps is a full trainsize_estimate of a copy of the job (one code
 * path: trainsize_plan_apply + trainsize_estimate give the same figures).
 *
 * Pruning by memory: within a recomputation mode, per-GPU memory grows with the micro-batch
 * while the step accumulates gradients over several micro-batches, so the first that does
 * not fit ends the larger ones, but for the one that makes the step a single micro-batch
 * (no accumulation buffers: it can take less). Recomputation modes are not ordered for
 * every job (eager attention's long sequences peak higher under full recomputation than
 * under selective), so each is tried. No heap allocation.
 *
 * Bounds (plan_bound.c): once a candidate is kept, a configuration is estimated only when
 * the floor under its figures (its compute stage) could still change the answer, and a GPU
 * count is skipped whole when a floor for all its layouts cannot; GPUs are searched from
 * the one with the lowest floor, so that the bar is high early. "exhaustive" turns them
 * off; the answer is the same (plan_rank.c breaks every tie).
 *
 * Without tokens, a fixed count (plan-gpu-count) asks what fits on those GPUs: each layout's
 * largest micro-batch that fits (doubling, then bisection, on the same monotonicity), with
 * the global batch of one step of pp micro-batches (one without a pipeline). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "error.h"
#include "job.h"
#include "model.h"
#include "plan_search.h"

#define TS_PLAN_MAX_GPU_TYPES 64
/* Context parallelism is searched only where each rank keeps at least this many tokens of a
 * sample: NVIDIA's Llama 3.1 405B recipe runs cp 2 at seq 8192 (NVIDIA/dgxc-benchmarking,
 * llama3.1/README.md), Llama 3 cp 16 at 131,072 (Dubey et al. 2024, Table 4: 8,192 each).
 * Shorter sequences gain nothing from it: the job's own cp (when above 1) is kept. */
#define TS_PLAN_CP_MIN_TOKENS 4096
/* Interleaving: every number of virtual stages that divides a stage's layers, up to this
 * (a bound on the search; published recipes run 8, e.g. the one above). */
#define TS_PLAN_MAX_VPP 16

static const uint64_t TP_CHOICES[] = {1, 2, 4, 8};
static const uint64_t PP_CHOICES[] = {1, 2, 4, 8, 16, 32, 64};
static const uint64_t CP_CHOICES[] = {1, 2, 4, 8, 16, 32};
static const uint64_t EP_CHOICES[] = {1, 2, 4, 8, 16, 32, 64};
static const uint64_t MB_CHOICES[] = {1, 2, 4, 8, 16};
/* An image classifier's per-GPU batches: from torchvision's reference recipe (32 a GPU)
 * to NVIDIA's ConvNets scripts (256), one micro-batch a step, and a step of at most 32k
 * images, the largest ImageNet batch ResNet-50 trains at without losing accuracy (LARS:
 * You, Gitman and Ginsburg 2017, arXiv 1708.03888; plain SGD holds to 8k, Goyal et al.
 * 2017, arXiv 1706.02677). */
static const uint64_t IMAGE_MB_CHOICES[] = {32, 64, 128, 256};
#define IMAGE_BATCH_MAX 32768u
/* Full first: the least memory, which rules a layout out when it does not fit. Per-op is
 * searched too: with flash attention (the default) selective saves only the log-sum-exp,
 * and per-op is what sits between none and full in memory and in time. recompute-layers
 * and activation-offload stay as the job sets them. */
static const int RECOMPUTE_ORDER[] = {TRAINSIZE_RECOMPUTE_FULL, TRAINSIZE_RECOMPUTE_PER_OP,
                                      TRAINSIZE_RECOMPUTE_SELECTIVE, TRAINSIZE_RECOMPUTE_NONE};
/* GPU counts: whole small servers, then servers of `gpus_per_node`, up to 16,384 of them
 * (131,072 GPUs of 8, beyond Llama 3 405B's 16,384 H100s: Dubey et al. 2024, section 3.3),
 * as far as max-gpus lets. */
static const uint64_t SMALL_COUNTS[] = {1, 2, 4};
static const uint64_t NODE_COUNTS[] = {1,    2,    3,    4,    6,    8,     12,   16,
                                       24,   32,   48,   64,   96,   128,   192,  256,
                                       384,  512,  768,  1024, 1536, 2048,  3072, 4096,
                                       6144, 8192, 12288, 16384};

#define COUNT_OF(a) (sizeof(a) / sizeof((a)[0]))

typedef ts_plan_search search;
_Static_assert(COUNT_OF(EP_CHOICES) <= sizeof(((search *)0)->incumbent) / sizeof(double),
               "an incumbent for every expert-parallel degree");

/* Estimate the work job; 1 when it fits (whatever the constraints), 0 when it does not,
 * -1 when the layout is invalid. Keeps it when it also meets the constraints. */
static int try_config(search *s, const trainsize_job *job)
{
    trainsize_result r;
    trainsize_plan_candidate c;
    const trainsize_job *w = &s->work;
    double time_factor = 1.0, wall, cost, over;
    int fits;
    s->stats.evaluated++;
    s->stats.estimated++;
    if (trainsize_estimate(w, &r, sizeof r, NULL) != TRAINSIZE_OK) {
        /* Keep the first refusal's message (estimated again, once, with a message): when
         * no configuration is valid the job itself is, and the caller hears why. */
        if (s->first_rc == TRAINSIZE_OK)
            s->first_rc = trainsize_estimate(w, &r, sizeof r, &s->first_err);
        return -1;
    }
    s->valid++;
    fits = r.memory.fits;
    over = (double)r.memory.peak_total / (double)r.memory.gpu_capacity - 1.0;
    /* plan-margin high: held to the high bounds of the result's uncertainty, the memory
     * that must fit and the time (and with it the cost) that is ranked and bounded */
    if (job->plan.margin == 1) {
        time_factor = r.uncertainty.time_high;
        fits = (double)r.memory.peak_needed * r.uncertainty.memory_high <= (double)r.memory.gpu_capacity;
        over = (double)r.memory.peak_needed * r.uncertainty.memory_high / (double)r.memory.gpu_capacity - 1.0;
    }
    if (!fits) {
        /* The nearest miss, for "nothing fits" (only while nothing does). */
        if (s->stats.fit_memory == 0 && (s->stats.least_overshoot == 0.0 || over < s->stats.least_overshoot))
            s->stats.least_overshoot = over;
        return 0;
    }
    wall = r.time.wall_seconds * time_factor;
    cost = r.system.cost_cloud_usd * time_factor;
    /* What a deadline or a budget would have to allow, for "nothing fits". */
    s->stats.fit_memory++;
    s->stats.least_overshoot = 0.0;
    /* a deadline is met on the wall clock: with the cluster's interruptions */
    if (s->stats.fastest_fit_seconds == 0.0 || wall < s->stats.fastest_fit_seconds) s->stats.fastest_fit_seconds = wall;
    if (cost > 0 && (s->stats.cheapest_fit_cost == 0.0 || cost < s->stats.cheapest_fit_cost))
        s->stats.cheapest_fit_cost = cost;
    if (job->plan.deadline_days > 0 && wall > job->plan.deadline_days * 86400.0) return 1;
    memset(&c, 0, sizeof c);
    snprintf(c.gpu, sizeof c.gpu, "%s", w->s.gpu->name);
    c.gpus = w->s.gpus;
    c.gpus_per_node = r.system.gpus_per_node;
    c.layout = r.layout; /* as the estimate used it */
    c.peak_total = r.memory.peak_total;
    c.seconds = wall;
    c.cost = cost; /* one kind of cost, comparable across GPUs */
    c.cost_own = r.system.cost_own_usd * time_factor;
    c.warnings = r.warnings;
    if (ts_is_rl(w->s.method)) {
        c.rollout_tp = w->s.rollout_tp;
        snprintf(c.rollout, sizeof c.rollout, "%s", w->s.rollout == TS_ROLLOUT_SEPARATE ? "separate" : "colocated");
        c.rollout_gpus = w->s.rollout == TS_ROLLOUT_SEPARATE ? w->s.rollout_gpus : 0;
    }
    c.max_tokens_per_gpu = w->s.max_tokens_per_gpu;
    if (job->plan.budget_usd > 0 && !(c.cost > 0 && c.cost <= job->plan.budget_usd)) return 1;
    s->stats.feasible++;
    {
        /* the layout's best feasible variant: a bar for its others (plan_bound.c) */
        double step = ts_plan_tie_step(ts_plan_first_of(job, &c));
        if (step < s->incumbent[s->ep_index]) s->incumbent[s->ep_index] = step;
    }
    ts_plan_keep(s, job, &c);
    return 1;
}

/* A candidate's setting goes through the typed setter, held to the checks of any caller's
 * value; a value it refuses is no candidate. */
static int set_u64(search *s, const ts_param_def *def, uint64_t v)
{
    return ts_job_set_typed(&s->work, def, TS_SET_U64, "trainsize_plan", v, 0.0, 0, NULL) == TRAINSIZE_OK;
}

static int set_recompute(search *s, int index)
{
    return ts_job_set_typed(&s->work, s->def.recompute, TS_SET_CHOICE, "trainsize_plan", 0, 0.0, index, NULL) ==
           TRAINSIZE_OK;
}

/* A micro-batch of `mb` samples, or with a token budget (the job's max-tokens-per-gpu) a
 * budget of `mb` sequences' tokens a GPU in its place: memory grows with either, so the
 * search prunes both alike. 0 when the batch does not split or a setter refuses. */
static int set_batch(search *s, const trainsize_job *job, uint64_t dp, uint64_t mb)
{
    if (job->s.max_tokens_per_gpu) {
        uint64_t cp = s->work.s.cp ? s->work.s.cp : 1, per = (job->s.seq + cp - 1) / cp;
        if (job->s.method == TS_METHOD_DPO) per *= 2; /* chosen and rejected together */
        return s->global_batch % dp == 0 && set_u64(s, s->def.max_tokens, per * mb);
    }
    return s->global_batch % (mb * dp) == 0 && set_u64(s, s->def.micro_batch, mb);
}

/* The rollout engine's tensor parallelism to search for an RL job on `gpus` GPUs of `gpn`
 * a server: the smallest that holds the engine's 16-bit weights in four fifths of
 * rollout-memory-share (a fifth left for the KV cache), and twice it; each a divisor of a
 * server or whole servers, tiling the GPUs the engines run on. 0 choices for other jobs
 * (the job's own rollout-tp stays). */
static size_t rollout_tp_choices(const search *s, const trainsize_job *job, uint64_t engines_on, uint64_t gpn,
                                 uint64_t *out)
{
    const trainsize_gpu_info *g = s->work.s.gpu;
    double capacity = (double)(g->usable_bytes ? g->usable_bytes : g->memory_bytes);
    double weights = 2.0 * (double)job->counted.total, room = 0.8 * job->s.rollout_memory_share * capacity;
    uint64_t t, pp = job->s.rollout_pp ? job->s.rollout_pp : 1;
    size_t n = 0;
    if (!ts_is_rl(job->s.method) || !job->counted_ok || !(room > 0.0)) return 0;
    /* the job's pipeline stages stay: an engine spans t x rollout-pp GPUs */
    for (t = 1; t * pp <= engines_on && n < 2; t *= 2) {
        uint64_t w = t * pp;
        int shape = (t <= gpn ? gpn % t == 0 : t % gpn == 0) && (w <= gpn ? gpn % w == 0 : w % gpn == 0);
        if (!shape || engines_on % w != 0 || (n == 0 && weights / (double)w > room)) continue;
        out[n++] = t;
    }
    return n;
}

/* The first recomputation to try: the least memory (full), except for a ResNet, which
 * keeps every activation (layout.c refuses recomputation for it). */
static size_t first_recompute(const trainsize_job *job)
{
    return ts_model_is_cnn(&job->s.model) ? COUNT_OF(RECOMPUTE_ORDER) - 1 : 0;
}

/* What the bounds know of a layout's micro-batch before its sweep. */
enum { MB_REFUSED, MB_FLOOR, MB_UNKNOWN };

/* Whether recomputation only adds to a step's time. Not with a critic or a reward model on
 * GPUs of its own: their phase runs at the policy's mean rate a FLOP (ts_side_step), which
 * the attention a recomputation repeats can raise, so a recomputing step can be shorter. */
static int recompute_only_adds(const trainsize_job *job)
{
    return !((job->s.method == TS_METHOD_PPO && job->s.critic_gpus) || (job->s.reward && job->s.reward_gpus));
}

/* The floors of the layout's micro-batches without recomputation, the least time each can
 * take (recomputation only adds to it), in `none`; 1 when one of them may still change the
 * answer (or its floor is unknown), 0 when every one is beaten. */
static int screen_layout(search *s, const trainsize_job *job, uint64_t dp, const uint64_t *mbs, size_t nmb,
                         ts_plan_floor *none, int *state)
{
    size_t m;
    int open = 0;
    if (!recompute_only_adds(job) || !set_recompute(s, TRAINSIZE_RECOMPUTE_NONE)) {
        for (m = 0; m < nmb; m++) state[m] = MB_UNKNOWN;
        return 1;
    }
    for (m = 0; m < nmb; m++) {
        state[m] = !set_batch(s, job, dp, mbs[m])               ? MB_REFUSED
                   : ts_plan_config_floor(s, &none[m]) ? MB_FLOOR
                                                            : MB_UNKNOWN;
        if (state[m] == MB_UNKNOWN || (state[m] == MB_FLOOR && !ts_plan_beaten(s, job, &none[m], 1))) open = 1;
    }
    return open;
}

/* Whether the configuration now in s->work (recomputation `rc`, micro-batch m) is beaten
 * by its floor: the layout's floor without recomputation first, then its own. */
static int config_beaten(search *s, const trainsize_job *job, int rc, const ts_plan_floor *none, int state)
{
    ts_plan_floor f;
    if (!s->bounded || s->count == 0) return 0;
    if (state == MB_FLOOR && ts_plan_beaten(s, job, none, 1)) return 1;
    if (state == MB_FLOOR && rc == TRAINSIZE_RECOMPUTE_NONE) return 0; /* that was its own */
    return ts_plan_config_floor(s, &f) && ts_plan_beaten(s, job, &f, 1);
}

/* Whether micro-batch `mb` on `dp` ranks makes the whole step one micro-batch: no gradient
 * accumulation, whose buffers (FSDP's unsharded gradients, a ZeRO-2 bucket kept between
 * micro-batches: conventions.c) the smaller micro-batches pay for. Memory grows with the
 * micro-batch only within one regime, so such a configuration is never ruled out by a
 * smaller one that did not fit. */
static int single_step(const search *s, const trainsize_job *job, uint64_t dp, uint64_t mb)
{
    return !job->s.max_tokens_per_gpu && s->global_batch && mb * dp == s->global_batch;
}

/* All micro-batch x recomputation configurations of the layout now in s->work. */
static void try_layout(search *s, const trainsize_job *job, uint64_t dp)
{
    /* a ResNet's micro-batches are an image classifier's */
    int cnn = ts_model_is_cnn(&job->s.model);
    const uint64_t *mbs = cnn ? IMAGE_MB_CHOICES : MB_CHOICES;
    size_t nmb = cnn ? COUNT_OF(IMAGE_MB_CHOICES) : COUNT_OF(MB_CHOICES);
    size_t r0 = first_recompute(job), r, m, modes = COUNT_OF(RECOMPUTE_ORDER) - r0, per_layout = modes * nmb;
    ts_plan_floor none[COUNT_OF(IMAGE_MB_CHOICES) > COUNT_OF(MB_CHOICES) ? COUNT_OF(IMAGE_MB_CHOICES)
                                                                         : COUNT_OF(MB_CHOICES)];
    int state[COUNT_OF(none)];
    for (m = 0; m < nmb; m++) state[m] = MB_UNKNOWN;
    if (s->bounded && s->count > 0 && !screen_layout(s, job, dp, mbs, nmb, none, state)) {
        /* no micro-batch of it can change the answer, whatever its recomputation */
        uint64_t refused = 0;
        for (m = 0; m < nmb; m++) refused += state[m] == MB_REFUSED;
        s->stats.evaluated += per_layout;
        s->stats.pruned_bound += per_layout - refused * modes;
        return;
    }
    for (r = r0; r < COUNT_OF(RECOMPUTE_ORDER); r++) {
        size_t above = nmb;
        if (!set_recompute(s, RECOMPUTE_ORDER[r])) {
            s->stats.evaluated += nmb;
            continue;
        }
        for (m = 0; m < nmb; m++) {
            int fit;
            if (state[m] == MB_REFUSED || !set_batch(s, job, dp, mbs[m])) {
                s->stats.evaluated++;
                continue;
            }
            if (m >= above && !single_step(s, job, dp, mbs[m])) {
                s->stats.evaluated++; /* a lighter one did not fit */
                s->stats.pruned_memory++;
                continue;
            }
            if (config_beaten(s, job, RECOMPUTE_ORDER[r], &none[m], state[m])) {
                s->stats.evaluated++;
                s->stats.pruned_bound++;
                continue;
            }
            fit = try_config(s, job); /* counted there */
            if (fit < 0 && r == r0 && m == 0) {
                /* not a valid layout for this job: the rest are not either */
                s->stats.evaluated += per_layout - 1;
                return;
            }
            /* larger micro-batches of this recomputation take more memory (but a single
             * step's); across recomputations memory is not ordered for every job (eager
             * attention's long sequences peak higher under full recomputation than under
             * selective), so each is tried */
            if (fit == 0 && !single_step(s, job, dp, mbs[m]) && above == nmb) above = m + 1;
        }
    }
}

/* A ResNet with tokens (images) to train: each image batch a GPU that fits, one
 * micro-batch a step (the estimate's convention for an image classifier). */
static void try_layout_images(search *s, const trainsize_job *job, uint64_t dp)
{
    size_t m;
    for (m = 0; m < COUNT_OF(IMAGE_MB_CHOICES); m++) {
        uint64_t mb = IMAGE_MB_CHOICES[m];
        if (mb * dp > IMAGE_BATCH_MAX || !set_u64(s, s->def.micro_batch, mb) ||
            !set_u64(s, s->def.global_batch, mb * dp) || try_config(s, job) <= 0) {
            s->stats.evaluated += COUNT_OF(IMAGE_MB_CHOICES) - 1 - m; /* larger take more */
            return;
        }
    }
}

/* One micro-batch of the batch mode: the step is pp micro-batches (one without a pipeline),
 * the fewest for which 1F1B reaches its steady state (layout.c), and no accumulation
 * beyond. 1 fits, 0 does not, -1 refused (a batch past the settings' ranges, a bad layout). */
static int try_micro_batch(search *s, const trainsize_job *job, uint64_t mb, uint64_t per_step)
{
    if (mb > UINT64_MAX / per_step || !set_u64(s, s->def.micro_batch, mb) ||
        !set_u64(s, s->def.global_batch, mb * per_step)) {
        s->stats.evaluated++;
        return -1;
    }
    return try_config(s, job);
}

/* Batch mode: each recomputation's largest micro-batch that fits, by doubling and then
 * bisection (memory grows with the micro-batch); the kept candidate of the layout is the
 * largest (better_batch). */
static void try_layout_largest(search *s, const trainsize_job *job, uint64_t dp, uint64_t pp)
{
    size_t r0 = first_recompute(job), r;
    uint64_t per_step = dp * pp;
    for (r = r0; r < COUNT_OF(RECOMPUTE_ORDER); r++) {
        uint64_t lo = 0, hi = 0, mb;
        int fit;
        if (!set_recompute(s, RECOMPUTE_ORDER[r])) continue;
        for (mb = 1; !hi; mb *= 2) {
            if ((fit = try_micro_batch(s, job, mb, per_step)) > 0) lo = mb;
            else hi = mb;
            if (fit < 0 && lo == 0) break; /* not a valid layout at all */
        }
        if (lo == 0) {
            if (r == r0) { /* the least memory does not fit: neither does more */
                s->stats.evaluated += COUNT_OF(RECOMPUTE_ORDER) - 1 - r0;
                return;
            }
            continue;
        }
        while (hi - lo > 1) {
            mb = lo + (hi - lo) / 2;
            if (try_micro_batch(s, job, mb, per_step) > 0) lo = mb;
            else hi = mb;
        }
    }
}

/* The context-parallel degrees to search: the job's when it sets one above 1; else 1 and
 * those that leave each rank TS_PLAN_CP_MIN_TOKENS or more, with flash (ring) attention. */
static size_t cp_choices(const trainsize_job *job, uint64_t *out)
{
    size_t i, n = 0;
    if (job->s.cp > 1) {
        out[0] = job->s.cp;
        return 1;
    }
    for (i = 0; i < COUNT_OF(CP_CHOICES); i++)
        if (CP_CHOICES[i] == 1 || (!ts_model_is_cnn(&job->s.model) && job->s.attention == TRAINSIZE_ATTENTION_FLASH &&
                                   job->s.seq / CP_CHOICES[i] >= TS_PLAN_CP_MIN_TOKENS &&
                                   job->s.seq % (2 * CP_CHOICES[i]) == 0))
            out[n++] = CP_CHOICES[i];
    return n;
}

/* The most virtual stages per pipeline rank: 1 unless the layers divide evenly by pp, then the
 * layers of a stage, up to TS_PLAN_MAX_VPP. The planner interleaves even splits only, which
 * Megatron runs without a pipeline layout; uneven virtual stages (layout.c splits them) are
 * the caller's choice. */
static uint64_t max_interleave(const trainsize_job *job, uint64_t pp)
{
    uint64_t layers = job->s.model.layers;
    if (pp == 1 || layers % pp != 0 || job->s.pp_first_layers || job->s.pp_last_layers) return 1;
    return layers / pp < TS_PLAN_MAX_VPP ? layers / pp : TS_PLAN_MAX_VPP;
}

/* Every layout of `gpus` training GPUs of `gpn` a server, the engines of an RL job on
 * `engines_on` GPUs (the training GPUs when colocated). */
static void search_layouts(search *s, const trainsize_job *job, uint64_t gpus, uint64_t gpn, uint64_t engines_on)
{
    const ts_model *model = &job->s.model;
    /* Tensor parallelism stays on the scale-up fabric: a server, or an NVL72 rack's. */
    uint64_t span = ts_fabric_span(s->work.s.gpu, gpn, gpus);
    uint64_t cps[COUNT_OF(CP_CHOICES)], rts[2];
    size_t a, b, c, d, z, e, ncp = cp_choices(job, cps), nrt;
    /* A ResNet trains data-parallel only (layout.c refuses tp, pp and cp for it); its
     * transformer-shaped fields are set by the estimate, so the job's layer count is 0. */
    int cnn = ts_model_is_cnn(model);
    if (!set_u64(s, s->def.gpus, gpus) || !set_u64(s, s->def.gpus_per_node, gpn)) return;
    nrt = rollout_tp_choices(s, job, engines_on, gpn, rts);
    /* none holds the engine here: the job's own, not one an earlier count left */
    if (!nrt && ts_is_rl(job->s.method) && !set_u64(s, s->def.rollout_tp, job->s.rollout_tp)) return;
    /* Each degree is set at its own loop's level: the inner loops change only theirs. */
    for (a = 0; a < COUNT_OF(TP_CHOICES); a++) {
        uint64_t tp = TP_CHOICES[a];
        if (tp > span || (cnn && tp > 1) || model->heads % tp != 0 || !set_u64(s, s->def.tp, tp)) continue;
        for (b = 0; b < COUNT_OF(PP_CHOICES); b++) {
            uint64_t pp = PP_CHOICES[b], vmax = max_interleave(job, pp), vpp;
            /* Stages need not be even (layout.c splits like Megatron-LM), only non-empty. */
            if ((cnn ? pp > 1 : pp > model->layers) || !set_u64(s, s->def.pp, pp)) continue;
            for (c = 0; c < ncp; c++) {
                uint64_t mp = tp * pp * cps[c], dp;
                if (mp > gpus || gpus % mp != 0 || !set_u64(s, s->def.cp, cps[c])) continue;
                dp = gpus / mp;
                for (d = 0; d < COUNT_OF(s->incumbent); d++) s->incumbent[d] = HUGE_VAL; /* a new layout */
                for (vpp = 1; vpp <= vmax; vpp++) {
                    if ((vpp > 1 && (model->layers / pp) % vpp != 0) || !set_u64(s, s->def.pp_interleave, vpp))
                        continue;
                    for (d = 0; d < COUNT_OF(EP_CHOICES); d++) {
                        uint64_t ep = EP_CHOICES[d];
                        if (ep > 1 && (!ts_model_is_moe(model) || model->experts % ep != 0 ||
                                       (dp * cps[c]) % ep != 0))
                            continue;
                        if (!set_u64(s, s->def.ep, ep)) continue;
                        s->ep_index = d;
                        for (z = 0; z <= 3; z++) {
                            if (z >= 2 && pp > 1) continue; /* refused by DeepSpeed and Megatron */
                            if (!set_u64(s, s->def.zero, z)) continue;
                            for (e = 0; e < (nrt ? nrt : 1); e++) {
                                if (nrt && !set_u64(s, s->def.rollout_tp, rts[e])) continue;
                                if (s->batch_mode && !s->global_batch) try_layout_largest(s, job, dp, pp);
                                else if (cnn && !s->global_batch) try_layout_images(s, job, dp);
                                else try_layout(s, job, dp);
                            }
                        }
                    }
                }
            }
        }
    }
}

/* Whether the search chooses where an RL job's engines run (and so how many GPUs of a
 * count train). */
static int placement_searched(const trainsize_job *job)
{
    return ts_is_rl(job->s.method) && !(job->s.rollout == TS_ROLLOUT_SEPARATE && job->s.rollout_gpus);
}

/* Where an RL job's engines run, searched over `total` GPUs (the count less a critic's or
 * a reward model's own): on all of them (colocated, verl's hybrid engine), or on a quarter
 * or a half of them beside the rest (separate, OpenRLHF's vLLM engines), whole servers or
 * a divisor of one; plan-rollout keeps one of the two. A job that sets rollout separate
 * with its own rollout-gpus keeps them. Writes the engines' GPU counts, 0 for colocated. */
static size_t placement_choices(const trainsize_job *job, uint64_t total, uint64_t gpn, uint64_t *out)
{
    static const uint64_t SHARE[] = {4, 2}; /* a quarter, a half */
    size_t i, n = 0;
    if (!ts_is_rl(job->s.method) || (job->s.rollout == TS_ROLLOUT_SEPARATE && job->s.rollout_gpus)) return 0;
    if (job->plan.rollout != 2) out[n++] = 0;
    if (job->plan.rollout == 1) return n;
    for (i = 0; i < COUNT_OF(SHARE); i++) {
        uint64_t r = total / SHARE[i];
        if (r == 0 || total % SHARE[i] != 0 || !(r % gpn == 0 || gpn % r == 0)) continue;
        out[n++] = r;
    }
    return n;
}

static int set_placement(search *s, uint64_t engines)
{
    const ts_param_def *where = s->def.rollout;
    return ts_job_set_typed(&s->work, where, TS_SET_CHOICE, "trainsize_plan", 0, 0.0,
                            engines ? TS_ROLLOUT_SEPARATE : TS_ROLLOUT_COLOCATED, NULL) == TRAINSIZE_OK &&
           set_u64(s, s->def.rollout_gpus, engines);
}

/* GPUs of the count that do not train: a critic's and a reward model's own (ppo, a reward
 * model), the engines' a job sets separate. */
static uint64_t side_gpus(const trainsize_job *job)
{
    const ts_settings *c = &job->s;
    uint64_t n = 0;
    if (!ts_is_rl(c->method)) return 0;
    if (c->method == TS_METHOD_PPO) n += c->critic_gpus;
    if (c->reward) n += c->reward_gpus;
    if (c->rollout == TS_ROLLOUT_SEPARATE) n += c->rollout_gpus;
    return n;
}

/* A count of `total` GPUs, all of them: the training ones and those beside them. */
static void search_gpu_count(search *s, const trainsize_job *job, uint64_t total, uint64_t gpn)
{
    uint64_t engines[3], side = side_gpus(job);
    size_t i, n;
    if (side >= total) return;
    total -= side;
    n = placement_choices(job, total, gpn, engines);
    if (n == 0 && placement_searched(job)) return; /* plan-rollout separate: no share of this count fits */
    if (n == 0) {
        search_layouts(s, job, total, gpn, job->s.rollout == TS_ROLLOUT_SEPARATE ? job->s.rollout_gpus : total);
        return;
    }
    for (i = 0; i < n; i++)
        if (set_placement(s, engines[i]) && engines[i] < total)
            search_layouts(s, job, total - engines[i], gpn, engines[i] ? engines[i] : total);
}

/* One GPU count to search: its GPUs in all, and as many a server. */
typedef struct gpu_count {
    uint64_t total, gpn;
} gpu_count;
/* the small counts, the server counts, and NVL72 racks doubling up to LIM_GPUS */
#define TS_PLAN_MAX_COUNTS (COUNT_OF(SMALL_COUNTS) + COUNT_OF(NODE_COUNTS) + 32)

/* Whole scale-up domains the server counts miss: 1, 2, 4, ... NVL72 racks (18 trays
 * each). */
static size_t whole_domains(const trainsize_job *job, const trainsize_gpu_info *gpu, uint64_t gpn,
                            gpu_count *out, size_t n)
{
    uint64_t per_domain = gpu->scale_up_domain / gpn, nodes;
    size_t i;
    /* only fabrics that join servers (an NVLink bridge's pair does not) */
    if (!gpu->scale_up_domain || gpu->scale_up_domain <= ts_host_size(gpu) ||
        gpu->scale_up_domain % gpn != 0 || per_domain <= 1)
        return n;
    for (nodes = per_domain; nodes * gpn <= job->plan.max_gpus && n < TS_PLAN_MAX_COUNTS; nodes *= 2) {
        for (i = 0; i < COUNT_OF(NODE_COUNTS) && NODE_COUNTS[i] != nodes; i++) {}
        if (i == COUNT_OF(NODE_COUNTS)) out[n++] = (gpu_count){nodes * gpn, gpn};
    }
    return n;
}

/* The counts to search on a GPU: plan-gpu-count alone, else part of a server, whole
 * servers and whole scale-up domains up to max-gpus. */
static size_t gpu_counts(const trainsize_job *job, const trainsize_gpu_info *gpu, gpu_count *out)
{
    /* Servers as the product is built (a GB200 tray, a TPU host), else HGX boards of 8. */
    uint64_t host = ts_host_size(gpu);
    uint64_t gpn = job->s.gpus_per_node ? job->s.gpus_per_node : host;
    size_t i, n = 0;
    if (job->plan.gpu_count) { /* the GPUs one has: that count only */
        uint64_t k = job->plan.gpu_count;
        uint64_t per = job->s.gpus_per_node ? job->s.gpus_per_node : (k < host ? k : host);
        if (k % per == 0) out[n++] = (gpu_count){k, per};
        return n;
    }
    /* Part of a server, where servers are built to order (a product sold with its host, a
     * TPU VM or a Grace tray, comes whole). */
    if (!job->s.gpus_per_node && !gpu->host_ram_bytes)
        for (i = 0; i < COUNT_OF(SMALL_COUNTS); i++)
            if (SMALL_COUNTS[i] <= job->plan.max_gpus && SMALL_COUNTS[i] < host)
                out[n++] = (gpu_count){SMALL_COUNTS[i], SMALL_COUNTS[i]};
    for (i = 0; i < COUNT_OF(NODE_COUNTS); i++)
        if (NODE_COUNTS[i] * gpn <= job->plan.max_gpus) out[n++] = (gpu_count){NODE_COUNTS[i] * gpn, gpn};
    return whole_domains(job, gpu, gpn, out, n);
}

/* A GPU the search binds to the work job: a catalogue one by its name, as a caller would
 * set it; the job's own GPU is bound already. */
static int bind_gpu(search *s, const trainsize_gpu_info *gpu)
{
    return gpu == &s->work.custom.info || trainsize_job_set(&s->work, "gpu", gpu->name, NULL) == TRAINSIZE_OK;
}

/* The floor that holds for every layout of the GPU (plan_bound.c), taken on the simplest
 * layout of its first count; 0 when there is none. */
static int gpu_floor(search *s, const trainsize_job *job, const trainsize_gpu_info *gpu, ts_time_floor *f)
{
    gpu_count counts[TS_PLAN_MAX_COUNTS];
    uint64_t side = side_gpus(job), train;
    if (!gpu_counts(job, gpu, counts) || counts[0].total <= side || !bind_gpu(s, gpu)) return 0;
    train = counts[0].total - side;
    if (!set_u64(s, s->def.gpus, train) || !set_u64(s, s->def.gpus_per_node, counts[0].gpn) ||
        !set_u64(s, s->def.tp, 1) || !set_u64(s, s->def.pp, 1) || !set_u64(s, s->def.cp, 1) ||
        !set_u64(s, s->def.pp_interleave, 1) || !set_u64(s, s->def.ep, 1) || !set_u64(s, s->def.zero, 0) ||
        !set_recompute(s, TRAINSIZE_RECOMPUTE_NONE) || !set_batch(s, job, train, 1) ||
        (placement_searched(job) && !set_placement(s, 0)))
        return 0;
    return ts_plan_gpu_floor(s, f);
}

/* One more GPU count done: the caller hears of it, and may stop the search (not once it is
 * complete: the answer is there). */
static void count_done(search *s)
{
    s->done++;
    if (s->progress && s->progress(s->context, s->done, s->total, s->stats.evaluated) != 0 && s->done < s->total)
        s->cancelled = 1;
}

/* Every count of a GPU: the fastest first when ranking by time (the bar is then set by
 * the largest clusters), else the smallest; a count whose floor for every layout is
 * beaten is skipped whole. */
static void search_gpu(search *s, const trainsize_job *job, const trainsize_gpu_info *gpu, const ts_time_floor *g)
{
    gpu_count counts[TS_PLAN_MAX_COUNTS];
    size_t i, all = gpu_counts(job, gpu, counts), n = bind_gpu(s, gpu) ? all : 0;
    uint64_t side = side_gpus(job);
    int down = s->bounded && job->plan.ranking == 0 && job->plan.objective == TRAINSIZE_OBJECTIVE_TIME;
    for (i = 0; i < n && !s->cancelled; i++) {
        const gpu_count *k = &counts[down ? n - 1 - i : i];
        ts_plan_floor f;
        if (g && k->total > side) {
            ts_plan_count_floor(s, g, k->total - side, !placement_searched(job), &f);
            if (ts_plan_beaten(s, job, &f, 0)) {
                s->stats.counts_skipped++;
                count_done(s);
                continue;
            }
        }
        search_gpu_count(s, job, k->total, k->gpn);
        count_done(s);
    }
    /* the counts of a GPU that could not be bound are done too: the total counted them */
    for (; i < all && !s->cancelled; i++) count_done(s);
}

/* The GPUs to search: the job's plan-gpus list, or the whole catalogue. */
static size_t gpu_choices(const trainsize_job *job, const trainsize_gpu_info **out, size_t cap)
{
    size_t n = 0;
    if (job->plan.gpus[0]) {
        const char *p = job->plan.gpus;
        char item[TRAINSIZE_NAME_MAX];
        while (*p && n < cap) {
            const char *end = strchr(p, ',');
            size_t len = end ? (size_t)(end - p) : strlen(p);
            if (len < sizeof item) {
                memcpy(item, p, len);
                item[len] = '\0';
                if ((out[n] = trainsize_gpu_find(item)) != NULL) {
                    size_t k; /* a name given twice (or by an alias) is searched once */
                    for (k = 0; k < n && out[k] != out[n]; k++) {}
                    if (k == n) n++;
                }
            }
            p = end ? end + 1 : p + len;
        }
        return n;
    }
    for (n = 0; n < trainsize_gpu_count() && n < cap; n++) out[n] = trainsize_gpu_at(n);
    return n;
}

/* The key a GPU's floor orders the search by: its objective's figure for the work of
 * every layout (HUGE_VAL without a floor or a price). */
static double floor_key(const trainsize_job *job, const ts_time_floor *g)
{
    return ts_plan_priced(job->plan.objective == TRAINSIZE_OBJECTIVE_TIME  ? g->gpu_seconds
                          : job->plan.objective == TRAINSIZE_OBJECTIVE_OWNED ? g->own_any
                                                                             : g->cloud_any);
}

/* The order to search the GPUs in: with the bounds and the best-by-objective ranking (which
 * does not depend on it), the lowest floor first, so that the bar is high from the start;
 * else the list's (the Pareto front's spread depends on it). Writes each GPU's floor. */
static void order_gpus(search *s, const trainsize_job *job, const trainsize_gpu_info *const *gpus, size_t n,
                       ts_time_floor *floors, int *have, size_t *order)
{
    size_t i, k;
    for (i = 0; i < n; i++) {
        order[i] = i;
        have[i] = s->bounded && gpu_floor(s, job, gpus[i], &floors[i]);
        if (!have[i]) floors[i].gpu_seconds = 0.0;
    }
    if (!s->bounded || job->plan.ranking != 0) return;
    for (i = 1; i < n; i++) { /* insertion sort, stable: the catalogue's order among equals */
        size_t v = order[i];
        double key = have[v] ? floor_key(job, &floors[v]) : HUGE_VAL;
        for (k = i; k > 0 && (have[order[k - 1]] ? floor_key(job, &floors[order[k - 1]]) : HUGE_VAL) > key; k--)
            order[k] = order[k - 1];
        order[k] = v;
    }
}

/* The parameters the search sets, looked up once. */
static void look_up_params(search *s)
{
    s->def.recompute = ts_param_def_by_id(TRAINSIZE_ID_RECOMPUTE);
    s->def.rollout_tp = ts_param_def_by_id(TRAINSIZE_ID_ROLLOUT_TP);
    s->def.max_tokens = ts_param_def_by_id(TRAINSIZE_ID_MAX_TOKENS_PER_GPU);
    s->def.rollout = ts_param_def_by_id(TRAINSIZE_ID_ROLLOUT);
    s->def.rollout_gpus = ts_param_def_by_id(TRAINSIZE_ID_ROLLOUT_GPUS);
    s->def.micro_batch = ts_param_def_by_id(TRAINSIZE_ID_MICRO_BATCH);
    s->def.global_batch = ts_param_def_by_id(TRAINSIZE_ID_GLOBAL_BATCH);
    s->def.gpus = ts_param_def_by_id(TRAINSIZE_ID_GPUS);
    s->def.gpus_per_node = ts_param_def_by_id(TRAINSIZE_ID_GPUS_PER_NODE);
    s->def.tp = ts_param_def_by_id(TRAINSIZE_ID_TP);
    s->def.pp = ts_param_def_by_id(TRAINSIZE_ID_PP);
    s->def.cp = ts_param_def_by_id(TRAINSIZE_ID_CP);
    s->def.pp_interleave = ts_param_def_by_id(TRAINSIZE_ID_PP_INTERLEAVE);
    s->def.ep = ts_param_def_by_id(TRAINSIZE_ID_EP);
    s->def.zero = ts_param_def_by_id(TRAINSIZE_ID_ZERO);
}

/* The job's refusals before any search: no model, no tokens where they are needed. */
static int check_plannable(const trainsize_job *job, trainsize_error *err)
{
    int rc;
    if ((rc = ts_model_validate(&job->s.model, err))) return rc;
    if (job->s.tokens == 0 && !job->plan.gpu_count)
        return ts_fail(err, TRAINSIZE_E_INVALID, "tokens",
                       "tokens: the planner needs the training tokens (for time and cost), or "
                       "plan-gpu-count to ask what fits on that many GPUs");
    /* Without tokens there is no run to time or price: a deadline, a budget or a front of
     * cost against time would be met by one step. */
    if (job->s.tokens == 0 &&
        (job->plan.deadline_days > 0 || job->plan.budget_usd > 0 || job->plan.ranking == 1))
        return ts_fail(err, TRAINSIZE_E_INVALID, "tokens",
                       "tokens: %s needs the training tokens",
                       job->plan.deadline_days > 0 ? "deadline-days" : job->plan.budget_usd > 0 ? "budget"
                                                                                 : "plan-ranking pareto");
    return TRAINSIZE_OK;
}

int trainsize_plan(const trainsize_job *job, trainsize_plan_candidate *out, size_t cap,
                   size_t *count, trainsize_plan_stats *stats, trainsize_error *err)
{
    return trainsize_plan_with_progress(job, out, cap, count, stats, NULL, NULL, err);
}

int trainsize_plan_with_progress(const trainsize_job *job, trainsize_plan_candidate *out, size_t cap,
                                 size_t *count, trainsize_plan_stats *stats, trainsize_plan_progress_fn progress,
                                 void *context, trainsize_error *err)
{
    const trainsize_gpu_info *gpus[TS_PLAN_MAX_GPU_TYPES];
    ts_time_floor floors[TS_PLAN_MAX_GPU_TYPES];
    int have[TS_PLAN_MAX_GPU_TYPES];
    size_t order[TS_PLAN_MAX_GPU_TYPES];
    gpu_count counts[TS_PLAN_MAX_COUNTS];
    search s;
    size_t i, n;
    int rc;
    if (!job || (!out && cap) || !count)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_plan: NULL job, result or count");
    *count = 0;
    if ((rc = check_plannable(job, err))) return rc;
    memset(&s, 0, sizeof s);
    s.work = *job;
    ts_job_rebind_custom_gpu(&s.work, 0);
    look_up_params(&s);
    s.out = out;
    s.cap = cap;
    s.batch_mode = job->s.tokens == 0;
    s.bounded = !job->plan.exhaustive && !s.batch_mode && cap > 0;
    s.progress = progress;
    s.context = context;
    /* The job's step, or (with tokens) the planner's own, given to every configuration so
     * that none depends on estimate's default; the batch mode finds it per layout, and a
     * ResNet steps its image batches (try_layout_images: no 4M-token step of images). */
    s.global_batch = job->s.global_batch ? job->s.global_batch
                     : s.batch_mode || ts_model_is_cnn(&job->s.model)
                         ? 0
                         : (uint64_t)fmax(1.0, floor(TS_PRETRAIN_STEP_TOKENS / (double)job->s.seq));
    /* The catalogue's capacity of each candidate GPU. */
    if ((s.global_batch &&
         (rc = trainsize_job_set_u64(&s.work, TRAINSIZE_ID_GLOBAL_BATCH, s.global_batch, err))) ||
        (rc = trainsize_job_set_u64(&s.work, TRAINSIZE_ID_GPU_MEMORY, 0, err)))
        return rc;
    if (job->s.gpu == &job->custom.info && !job->plan.gpus[0]) {
        /* A GPU of the caller's own description: search it alone. */
        ts_job_rebind_custom_gpu(&s.work, 1);
        gpus[0] = &s.work.custom.info;
        n = 1;
    } else {
        n = gpu_choices(job, gpus, TS_PLAN_MAX_GPU_TYPES);
    }
    for (i = 0; i < n; i++) s.total += gpu_counts(job, gpus[i], counts);
    order_gpus(&s, job, gpus, n, floors, have, order);
    for (i = 0; i < n && !s.cancelled; i++)
        search_gpu(&s, job, gpus[order[i]], have[order[i]] ? &floors[order[i]] : NULL);
    if (s.cancelled)
        return ts_fail(err, TRAINSIZE_E_CANCELLED, "",
                       "trainsize_plan: the progress callback cancelled the search after %llu of %llu GPU counts",
                       (unsigned long long)s.done, (unsigned long long)s.total);
    if (s.valid == 0 && s.first_rc != TRAINSIZE_OK) {
        /* Not a search that found nothing: a job no layout can hold (seq beyond the
         * model's positions, ...). */
        if (err) *err = s.first_err;
        return s.first_rc;
    }
    *count = s.count;
    if (stats) *stats = s.stats;
    return ts_ok(err);
}

/* An RL candidate's placement: its engines on the training GPUs, or on rollout_gpus of
 * their own. */
static int apply_placement(trainsize_job *work, const trainsize_plan_candidate *c, trainsize_error *err)
{
    int rc;
    if (memchr(c->rollout, '\0', sizeof c->rollout) == NULL)
        return ts_fail(err, TRAINSIZE_E_INVALID, "rollout", "rollout: the candidate's placement is not terminated");
    if ((rc = trainsize_job_set(work, "rollout", c->rollout, err))) return rc;
    return trainsize_job_set_u64(work, TRAINSIZE_ID_ROLLOUT_GPUS, c->rollout_gpus, err);
}

/* Set the candidate's GPU and layout on the job through the typed setters, so a candidate
 * is held to the same checks as any caller's value. Sequence parallelism is the job's: the
 * planner does not vary it. */
int trainsize_plan_apply(trainsize_job *job, const trainsize_plan_candidate *c, trainsize_error *err)
{
    const trainsize_gpu_info *gpu;
    trainsize_job work;
    int rc;
    if (!job || !c) return ts_fail(err, TRAINSIZE_E_ARGUMENT, "", "trainsize_plan_apply: NULL argument");
    if (memchr(c->gpu, '\0', sizeof c->gpu) == NULL)
        return ts_fail(err, TRAINSIZE_E_INVALID, "gpu", "gpu: the candidate's name is not terminated");
    gpu = trainsize_gpu_find(c->gpu);
    if (!gpu && job->s.gpu == &job->custom.info && strcmp(job->custom.name, c->gpu) == 0)
        gpu = &job->custom.info; /* the job's own GPU, as planned */
    if (!gpu) return ts_fail(err, TRAINSIZE_E_UNKNOWN, "gpu", "gpu: unknown GPU \"%.40s\"", c->gpu);
    /* On a copy, through the typed setters (the checks of trainsize_job_set); the job changes
     * only when all of them pass. */
    work = *job;
    ts_job_rebind_custom_gpu(&work, job->s.gpu == &job->custom.info);
    if (gpu != &job->custom.info && (rc = trainsize_job_set(&work, "gpu", gpu->name, err))) return rc;
    if ((rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_GPU_MEMORY, 0, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_GPUS, c->gpus, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_GPUS_PER_NODE, c->gpus_per_node, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_TP, c->layout.tp, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_PP, c->layout.pp, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_CP, c->layout.cp ? c->layout.cp : 1, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_PP_INTERLEAVE, c->layout.pp_interleave,
                                    err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_EP, c->layout.ep, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_ZERO, c->layout.zero, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_MICRO_BATCH, c->layout.micro_batch, err)) ||
        (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_GLOBAL_BATCH, c->layout.global_batch, err)) ||
        (rc = trainsize_job_set_choice(&work, TRAINSIZE_ID_RECOMPUTE, c->layout.recompute, err)) ||
        (c->rollout_tp && (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_ROLLOUT_TP, c->rollout_tp, err))) ||
        (c->rollout[0] && (rc = apply_placement(&work, c, err))) ||
        (c->max_tokens_per_gpu &&
         (rc = trainsize_job_set_u64(&work, TRAINSIZE_ID_MAX_TOKENS_PER_GPU, c->max_tokens_per_gpu, err))))
        return rc;
    *job = work;
    ts_job_rebind_custom_gpu(job, work.s.gpu == &work.custom.info);
    return ts_ok(err);
}

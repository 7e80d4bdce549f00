/* The largest micro-batch and the largest sequence that fit, everything else as given.
 * Each candidate is sized as the estimate sizes it (layout, conventions, the most loaded
 * stage's memory in whole bytes: memory_result.c), so "fits" means what memory.fits would
 * say of an estimate with that value. Memory grows with either, so a doubling search finds
 * a bound and halving finds the edge: about 2 log2(answer) candidates, none on the heap.
 * With global-batch set, a micro-batch must divide each rank's share of it: the search
 * runs over those divisors. A candidate the layout refuses counts as not fitting. */
#include <string.h>

#include "stages.h"

/* Sequences are searched in multiples of this (attention kernels' tile; lengths users
 * train at), and of what the layout needs. */
#define TS_SEQ_STEP 128u
/* The micro-batch option's own bound. */
#define TS_MICRO_BATCH_MAX UINT64_C(1000000000)
/* Divisors of a rank's share of the global batch (at most 1,344 below 1e9). */
#define TS_DIVISORS_MAX 1536u

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) { uint64_t t = a % b; a = b; b = t; }
    return a;
}

static uint64_t lcm(uint64_t a, uint64_t b) { return a / gcd(a, b) * b; }

/* Does the job with this micro-batch and sequence fit? */
static int fits(ts_settings *probe, const ts_param_counts *pc, uint64_t micro_batch, uint64_t seq)
{
    ts_layout lay;
    ts_conv conv;
    ts_stage_memory worst;
    trainsize_memory m;
    probe->micro_batch = micro_batch;
    probe->seq = seq;
    if (ts_layout_make(probe, &lay, NULL) || ts_conv_make(probe, &lay, &conv, NULL)) return 0;
    if (ts_memory_result(probe, &lay, &conv, pc, &worst, &m, NULL)) return 0;
    return m.fits;
}

/* The largest v = step x j, 1 <= j <= limit, that fits (0 when j = 1 does not), from a
 * first guess `at`. */
static uint64_t search(const ts_settings *cfg, ts_settings *probe, const ts_param_counts *pc,
                       int by_seq, uint64_t step, uint64_t at, uint64_t limit)
{
    uint64_t lo, hi; /* fits at lo (0: none known), not at hi (limit + 1: none known) */
#define FITS(j) (by_seq ? fits(probe, pc, cfg->micro_batch, (j) * step) \
                        : fits(probe, pc, (j) * step, cfg->seq))
    if (at < 1) at = 1;
    if (at > limit) at = limit;
    if (FITS(at)) {
        lo = at;
        hi = limit + 1;
        while (hi == limit + 1 && lo < limit) { /* doubling: find a bound */
            uint64_t next = lo > limit / 2 ? limit : lo * 2;
            if (FITS(next)) lo = next;
            else hi = next;
        }
        if (lo == limit) return lo * step;
    } else {
        lo = 0;
        hi = at;
    }
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (FITS(mid)) lo = mid;
        else hi = mid;
    }
#undef FITS
    return lo * step;
}

/* With global-batch set: the largest divisor of each rank's share that fits. */
static uint64_t search_divisors(const ts_settings *cfg, ts_settings *probe, const ts_param_counts *pc,
                                uint64_t share)
{
    uint64_t small[TS_DIVISORS_MAX / 2], large[TS_DIVISORS_MAX / 2], d;
    size_t ns = 0, nl = 0, n, lo, hi; /* ascending: small, then large reversed */
    for (d = 1; d <= share / d && ns < TS_DIVISORS_MAX / 2 && nl < TS_DIVISORS_MAX / 2; d++)
        if (share % d == 0) {
            small[ns++] = d;
            if (d != share / d) large[nl++] = share / d;
        }
    n = ns + nl;
    /* fits at index lo - 1 (lo = 0: none), not at hi */
    lo = 0;
    hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint64_t v = mid < ns ? small[mid] : large[nl - 1 - (mid - ns)];
        if (fits(probe, pc, v, cfg->seq)) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return 0;
    return lo - 1 < ns ? small[lo - 1] : large[nl - 1 - (lo - 1 - ns)];
}

void ts_largest_fit(const ts_settings *cfg, const ts_param_counts *pc, const ts_layout *lay,
                    trainsize_memory *m)
{
    ts_settings probe = *cfg;
    uint64_t step = TS_SEQ_STEP, limit;
    /* the estimate's own answer is the first guess: most jobs are near their edge; a token
     * budget sets a micro-batch's tokens, and the micro-batch is not used (tokens.c) */
    if (cfg->max_tokens_per_gpu)
        m->max_micro_batch = 0;
    else if (cfg->global_batch && lay->dp && cfg->global_batch % lay->dp == 0)
        m->max_micro_batch = search_divisors(cfg, &probe, pc, cfg->global_batch / lay->dp);
    else
        m->max_micro_batch = search(cfg, &probe, pc, 0, 1, cfg->micro_batch, TS_MICRO_BATCH_MAX);
    probe = *cfg;
    /* An image transformer's sequence is its image's patches: the position table fixes it
     * (a ResNet's one image a sample too). */
    if (cfg->model.patch_size || ts_model_is_cnn(&cfg->model)) {
        m->max_seq = fits(&probe, pc, cfg->micro_batch, cfg->model.positions) ? cfg->model.positions : 0;
        return;
    }
    if (lay->cp > 1) step = lcm(step, 2 * lay->cp);
    if (lay->sp && lay->tp > 1) step = lcm(step, lay->tp * lay->cp);
    limit = (cfg->model.positions ? cfg->model.positions : TS_LIM_POSITIONS) / step;
    m->max_seq = limit ? search(cfg, &probe, pc, 1, step, cfg->seq / step, limit) : 0;
}

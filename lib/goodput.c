/* Goodput: what a cluster that fails makes of a run's failure-free time.
 *
 * Interruptions arrive at interruptions-per-gpu-day per GPU (Llama 3's 16,384-GPU run saw
 * 419 unexpected ones in 54 days: Grattafiori et al. 2024, arXiv 2407.21783, section
 * 3.3.4), so the job's mean time between them is M = 1 / (rate x GPUs). Each checkpoint
 * stops training for delta seconds (its write at the storage's rates, or with
 * checkpoint-async the copy to host memory); after an interruption the job restarts in R
 * seconds and redoes the work since its last checkpoint. Daly's expected wall time for
 * exponentially distributed failures (J. T. Daly, "A higher order estimate of the optimum
 * checkpoint interval for restart dumps", Future Generation Computer Systems 22(3), 2006)
 * is
 *     T_w = M e^(R/M) (e^((tau + delta)/M) - 1) T / tau
 * for a solve time T and a checkpoint interval tau: the caller's, or Daly's optimum
 * tau = sqrt(2 delta M) [1 + sqrt(delta / 2M) / 3 + (delta / 2M) / 9] - delta for
 * delta < 2M, else M (J. W. Young, Communications of the ACM 17(9), 1974, gives its first
 * term, sqrt(2 delta M)). */
#include <math.h>

#include "error.h"
#include "stages.h"

#define TS_SECONDS_PER_DAY 86400.0
/* A run whose wall time passes 1,000 x its training time does not finish in any sense a
 * user plans for: refused, naming the input that makes it so. */
#define TS_GOODPUT_FLOOR 1000.0
static double daly_interval(double delta, double mttf)
{
    double x = delta / (2.0 * mttf);
    if (delta >= 2.0 * mttf) return mttf;
    return sqrt(2.0 * delta * mttf) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - delta;
}

/* Which input to name when the run would not finish. */
static const char *culprit(const ts_settings *cfg, double mttf, int inside)
{
    /* an interval past the run's end is the cause unless a restart outlasts the time
     * between interruptions (no interval would help then) */
    if (cfg->checkpoint_interval > 0.0 && (inside || cfg->restart_seconds < mttf)) return "checkpoint-interval";
    return cfg->restart_seconds >= mttf ? "restart-seconds" : "interruptions-per-gpu-day";
}

int ts_goodput_make(const ts_settings *cfg, const ts_layout *lay, const trainsize_system *sys,
                    const ts_step_losses *losses, trainsize_time *t, trainsize_error *err)
{
    /* every GPU of the job can stop its synchronous step, the engines' too */
    double rate = cfg->interruptions_per_gpu_day * (double)lay->billed_gpus / TS_SECONDS_PER_DAY;
    double write = sys->checkpoint_write_seconds;
    double delta = cfg->checkpoint_async ? losses->checkpoint_copy : write;
    /* async: an interruption also loses the checkpoint still being written */
    double restart = cfg->restart_seconds + (cfg->checkpoint_async ? write : 0.0);
    double solve = t->seconds, tau = cfg->checkpoint_interval, mttf = rate > 0.0 ? 1.0 / rate : 0.0, wall;
    int inside = 1;
    if (tau <= 0.0 && rate > 0.0) {
        tau = delta > 0.0 ? daly_interval(delta, mttf) : 0.0;
        /* an async checkpoint's write must end before the next one starts */
        if (cfg->checkpoint_async) tau = fmax(tau, write);
    }
    /* An async checkpoint taken before the last one's write has ended waits for it: the
     * training stalls for the rest of that write as well as for the copy. */
    if (cfg->checkpoint_async && tau > 0.0 && tau < write) delta += write - tau;
    t->checkpoint_stall = delta;
    /* A run no longer than the interval checkpoints nowhere inside it: the whole run is
     * at risk, and no stall is paid. */
    if (tau >= solve) {
        inside = 0;
        if (rate > 0.0) wall = mttf * exp(restart / mttf) * expm1(solve / mttf);
        else wall = solve;
    } else if (rate > 0.0) {
        wall = tau > 0.0 ? mttf * exp(restart / mttf) * expm1((tau + delta) / mttf) * solve / tau
                         : solve * exp(restart / mttf); /* no stall, no interval: only restarts */
    } else {
        wall = tau > 0.0 ? solve * (tau + delta) / tau : solve; /* never fails: none needed */
    }
    if (!isfinite(wall) || wall > TS_GOODPUT_FLOOR * solve)
        return ts_fail(err, TRAINSIZE_E_INVALID, culprit(cfg, mttf, inside),
                       "%s: the run would not finish (goodput under 0.1 %%): the job's %llu GPUs are "
                       "interrupted every %.3g s on average, against %.3g s to checkpoint, %.3g s to "
                       "restart and %s %.3g s%s",
                       culprit(cfg, mttf, inside), (unsigned long long)lay->gpus, mttf, delta, restart,
                       inside ? "a checkpoint every" : "no checkpoint inside the run's", inside ? tau : solve,
                       inside ? "" : " (the interval is as long as the run)");
    if (!inside) tau = 0.0;
    t->checkpoint_interval = tau;
    t->wall_seconds = wall;
    t->goodput = wall > 0.0 ? solve / wall : 1.0;
    t->expected_interruptions = wall * rate;
    t->gpu_hours = wall * (double)lay->billed_gpus / 3600.0;
    return ts_ok(err);
}

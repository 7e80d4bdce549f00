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
static double daly_interval(double delta, double mttf)
{
    double x = delta / (2.0 * mttf);
    if (delta >= 2.0 * mttf) return mttf;
    return sqrt(2.0 * delta * mttf) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - delta;
}

int ts_goodput_make(const ts_settings *cfg, const ts_layout *lay, const trainsize_system *sys,
                    const ts_step_losses *losses, trainsize_time *t, trainsize_error *err)
{
    double rate = cfg->interruptions_per_gpu_day * (double)lay->gpus / TS_SECONDS_PER_DAY;
    double delta = cfg->checkpoint_async ? losses->checkpoint_copy : sys->checkpoint_write_seconds;
    double solve = t->seconds, restart = cfg->restart_seconds, tau = cfg->checkpoint_interval, wall;
    t->checkpoint_stall = delta;
    if (rate > 0.0) {
        double mttf = 1.0 / rate;
        if (tau <= 0.0) tau = delta > 0.0 ? daly_interval(delta, mttf) : 0.0;
        /* an async checkpoint's write must end before the next one starts */
        if (cfg->checkpoint_async && cfg->checkpoint_interval <= 0.0) tau = fmax(tau, sys->checkpoint_write_seconds);
        /* no stall, no interval: checkpoint continuously, lose only the restarts */
        wall = tau > 0.0 ? mttf * exp(restart / mttf) * expm1((tau + delta) / mttf) * solve / tau
                         : solve * exp(restart / mttf);
    } else {
        wall = tau > 0.0 ? solve * (tau + delta) / tau : solve; /* never fails: no checkpoints needed */
    }
    if (!isfinite(wall)) /* e^(R/M) overflowed: interruptions come faster than a restart */
        return ts_fail(err, TRAINSIZE_E_INVALID, "interruptions-per-gpu-day",
                       "interruptions-per-gpu-day: the run would not finish: the job's %llu GPUs are "
                       "interrupted every %.3g s, against %.3g s to checkpoint and %.3g s to restart",
                       (unsigned long long)lay->gpus, rate > 0.0 ? 1.0 / rate : 0.0, delta, restart);
    t->checkpoint_interval = tau;
    t->wall_seconds = wall;
    t->goodput = wall > 0.0 ? solve / wall : 1.0;
    t->expected_interruptions = wall * rate;
    t->gpu_hours = wall * (double)lay->gpus / 3600.0;
    return ts_ok(err);
}

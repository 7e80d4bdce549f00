/* The report's lines for ppo's critic and a reward model on GPUs of their own: a GPU's
 * memory there and whether it fits, their servers, the seconds of their work a step. A
 * client of the public API, as report.c is. */
#include <stdio.h>

#include "report_sections.h"
#include "text_format.h"

static void side_memory(ts_out *o, const char *who, uint64_t gpus, uint64_t peak, uint64_t cap, const char *dev)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX], c[TS_FMT_MAX];
    if (!peak) return;
    ts_out_printf(o, "  %s: on %s %s%s of its own, peak total %s a %s of %s: %s\n", who,
                  ts_fmt_thousands(a, sizeof a, gpus), dev, gpus == 1 ? "" : "s", ts_fmt_iec(b, sizeof b, (double)peak),
                  dev, ts_fmt_iec(c, sizeof c, (double)cap), peak <= cap ? "fits" : "DOES NOT FIT");
}

void ts_report_side_memory(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev)
{
    side_memory(o, "critic", (uint64_t)ts_report_job_f64(job, "critic-gpus"), r->critic_gpu_peak,
                r->memory.gpu_capacity, dev);
    side_memory(o, "reward model", (uint64_t)ts_report_job_f64(job, "reward-gpus"), r->reward_gpu_peak,
                r->memory.gpu_capacity, dev);
}

static void side_servers(ts_out *o, const char *key, uint64_t nodes, uint64_t gpus, const char *dev)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX];
    if (!nodes) return;
    ts_report_key(o, key);
    ts_out_printf(o, "%s more, %s %s%s of its own (priced and powered with the rest)\n",
                  ts_fmt_thousands(a, sizeof a, nodes), ts_fmt_thousands(b, sizeof b, gpus), dev,
                  gpus == 1 ? "" : "s");
}

void ts_report_side_servers(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev)
{
    side_servers(o, "  critic servers", r->critic_nodes, (uint64_t)ts_report_job_f64(job, "critic-gpus"), dev);
    side_servers(o, "  reward model servers", r->reward_nodes, (uint64_t)ts_report_job_f64(job, "reward-gpus"), dev);
}

void ts_report_side_time(ts_out *o, const trainsize_result *r)
{
    char a[TS_FMT_MAX], b[TS_FMT_MAX];
    if (!(r->critic_seconds > 0) && !(r->reward_seconds > 0)) return;
    ts_report_key(o, "  beside the policy");
    if (r->critic_seconds > 0 && r->reward_seconds > 0)
        ts_out_printf(o, "critic %s, reward model %s a step, on their own GPUs\n",
                      ts_fmt_duration(a, sizeof a, r->critic_seconds),
                      ts_fmt_duration(b, sizeof b, r->reward_seconds));
    else
        ts_out_printf(o, "%s %s a step, on its own GPUs\n",
                      r->critic_seconds > 0 ? "critic" : "reward model",
                      ts_fmt_duration(a, sizeof a, r->critic_seconds > 0 ? r->critic_seconds : r->reward_seconds));
}

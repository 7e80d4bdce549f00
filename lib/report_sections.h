/* Parts of the human report that live in their own files (report.c builds the report and
 * calls them in order). Each writes whole lines into `o`; `dev` and `server` are the
 * report's words ("GPU"/"chip", "server"/"host"). */
#ifndef TS_REPORT_SECTIONS_H
#define TS_REPORT_SECTIONS_H

#include "text_out.h"
#include "trainsize.h"

#define TS_REPORT_KEY_WIDTH 24 /* the key column of the header and of the sections */

/* A key, padded to the key column. */
void ts_report_key(ts_out *o, const char *k);
/* A job parameter's text equals `value`; a job parameter as a number (0 when unset). */
int ts_report_job_is(const trainsize_job *job, const char *name, const char *value);
double ts_report_job_f64(const trainsize_job *job, const char *name);

/* "largest that fits": the result's, or found for the report (trainsize_largest_fit). */
void ts_report_largest_fit(ts_out *o, const trainsize_job *job, const trainsize_result *r);
/* Racks, cooling, power supplies, the fabric's switches. */
void ts_report_facility(ts_out *o, const trainsize_result *r, const char *server);
/* Cloud and owned side by side: up front, a month, break-even. */
void ts_report_buy_or_rent(ts_out *o, const trainsize_job *job, const trainsize_result *r);
/* Interruptions, checkpoints, wall time and goodput. */
void ts_report_goodput(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev);

/* ppo's critic and a reward model on GPUs of their own (report_side.c): a GPU's memory and
 * fit there (memory section), their servers (after the servers line), their seconds a step
 * (time section), the step waiting for the slowest. Nothing when they share the policy's GPUs. */
void ts_report_side_memory(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev);
void ts_report_side_servers(ts_out *o, const trainsize_job *job, const trainsize_result *r, const char *dev);
void ts_report_side_time(ts_out *o, const trainsize_result *r);

#endif

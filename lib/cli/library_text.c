/* What the library writes for the command: the human report of an estimate
 * (trainsize_report) and every JSON text (trainsize_result_json, trainsize_plan_json, the
 * catalogues'), each asked for its length, then written into a buffer of that size and
 * appended to the command's output; and a field of the library's tables by its name. */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

/* A library writer: snprintf-style into buf, or a negative status. */
typedef int (*library_writer)(const void *ctx, char *buf, size_t cap);

static int append_library_text(const ts_cli *cx, ts_out *o, library_writer write, const void *ctx)
{
    int len = write(ctx, NULL, 0);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    int rc = 0;
    if (!text || write(ctx, text, (size_t)len + 1) != len) {
        ts_cli_error(cx, len < 0 ? "internal error: the library could not write the output" : "out of memory");
        rc = -1;
    } else {
        ts_out_write(o, text, (size_t)len);
    }
    free(text);
    return rc;
}

typedef struct estimate_ctx {
    const trainsize_job *job;
    const trainsize_result *r;
    const trainsize_advice *advice;
    size_t n;
} estimate_ctx;

static int write_report(const void *ctx, char *buf, size_t cap)
{
    const estimate_ctx *e = (const estimate_ctx *)ctx;
    return trainsize_report(e->job, e->r, e->advice, e->n, buf, cap, NULL);
}

static int write_result_json(const void *ctx, char *buf, size_t cap)
{
    const estimate_ctx *e = (const estimate_ctx *)ctx;
    return trainsize_result_json(e->r, e->advice, e->n, buf, cap, NULL);
}

int ts_cli_report(const ts_cli *cx, ts_out *o, const trainsize_job *job, const trainsize_result *r,
               const trainsize_advice *advice, size_t n)
{
    estimate_ctx e = {job, r, advice, n};
    return append_library_text(cx, o, write_report, &e);
}

int ts_cli_result_json(const ts_cli *cx, ts_out *o, const trainsize_result *r, const trainsize_advice *advice, size_t n)
{
    estimate_ctx e = {NULL, r, advice, n};
    return append_library_text(cx, o, write_result_json, &e);
}

typedef struct plan_ctx {
    const trainsize_job *job;
    const trainsize_plan_candidate *c;
    size_t count;
    const trainsize_plan_stats *st;
} plan_ctx;

static int write_plan_json(const void *ctx, char *buf, size_t cap)
{
    const plan_ctx *p = (const plan_ctx *)ctx;
    return trainsize_plan_json(p->job, p->c, p->count, p->st, buf, cap, NULL);
}

int ts_cli_plan_json(const ts_cli *cx, ts_out *o, const trainsize_job *job, const trainsize_plan_candidate *c, size_t count,
                  const trainsize_plan_stats *st)
{
    plan_ctx p = {job, c, count, st};
    return append_library_text(cx, o, write_plan_json, &p);
}

static int write_gpus_json(const void *ctx, char *buf, size_t cap)
{
    (void)ctx;
    return trainsize_gpus_json(buf, cap, NULL);
}

static int write_models_json(const void *ctx, char *buf, size_t cap)
{
    (void)ctx;
    return trainsize_models_json(buf, cap, NULL);
}

int ts_cli_catalogue_json(const ts_cli *cx, ts_out *o, int gpus)
{
    return append_library_text(cx, o, gpus ? write_gpus_json : write_models_json, NULL);
}

size_t ts_cli_field_index(size_t (*count)(void), const trainsize_field_info *(*at)(size_t), const char *name)
{
    size_t i, n = count();
    for (i = 0; i < n; i++)
        if (strcmp(at(i)->path, name) == 0) return i;
    return n; /* every name asked for is in the library's tables (tests/ts_cli_*.sh) */
}

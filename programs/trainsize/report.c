/* The human report and the JSON of an estimate: the library's (trainsize_report,
 * trainsize_result_json), appended to the command's output. */
#include "cli.h"

#include <stdlib.h>

void cli_report(ts_out *o, const trainsize_job *job, const trainsize_result *r,
                const trainsize_advice *advice, size_t n)
{
    int len = trainsize_report(job, r, advice, n, NULL, 0, NULL);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (!text || trainsize_report(job, r, advice, n, text, (size_t)len + 1, NULL) != len) {
        o->failed = 1; /* reported as out of memory when the output is written */
    } else {
        ts_out_write(o, text, (size_t)len);
    }
    free(text);
}

int cli_result_json(ts_out *o, const trainsize_result *r, const trainsize_advice *advice, size_t n)
{
    int len = trainsize_result_json(r, advice, n, NULL, 0, NULL);
    char *text = len >= 0 ? malloc((size_t)len + 1) : NULL;
    int rc = 0;
    if (!text || trainsize_result_json(r, advice, n, text, (size_t)len + 1, NULL) != len) {
        cli_error(len < 0 ? "internal error: the estimate's JSON cannot be written" : "out of memory");
        rc = -1;
    } else {
        ts_out_write(o, text, (size_t)len);
    }
    free(text);
    return rc;
}

/* The human report of an estimate: the library's (trainsize_report), appended to the
 * command's output. */
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

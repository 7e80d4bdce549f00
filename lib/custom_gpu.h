/* A caller's own GPU (internal; custom_gpu.c): the public description with its strings in
 * arrays of its own, so that it is plain data a job keeps and copies whole. */
#ifndef TS_CUSTOM_GPU_H
#define TS_CUSTOM_GPU_H

#include <stddef.h>

#include "trainsize.h"

typedef struct ts_gpu_description {
    trainsize_gpu_info info; /* its strings point into the arrays below (ts_gpu_description_bind) */
    char name[TRAINSIZE_NAME_MAX], full_name[TRAINSIZE_NAME_MAX];
    char source[TRAINSIZE_NAME_MAX];
    char architecture[TRAINSIZE_NAME_MAX];
    char vendor[TRAINSIZE_NAME_MAX];
    char host_network[32];
} ts_gpu_description;

/* A caller's description checked (each field's range, a name no catalogue part has) and
 * completed (an FP32 rate, a PCIe generation) into *out; *out is untouched on failure,
 * whose error names the field. */
int ts_gpu_description_make(const trainsize_gpu_info *info, ts_gpu_description *out, trainsize_error *err);
/* The same from a JSON device file's text (docs/methodology.md, "Your own GPU"). */
int ts_gpu_description_read(const char *json, size_t len, ts_gpu_description *out, trainsize_error *err);
/* Point the description's strings at its own arrays (after it was copied). */
void ts_gpu_description_bind(ts_gpu_description *d);

#endif

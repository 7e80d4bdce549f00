/* Fuzz target: a checkpoint's bytes (trainsize_checkpoint_read), written to a file first,
 * since the reader takes a path: a .safetensors file, or a model.safetensors.index.json
 * when the input starts with '{' (its shards named beside it, mostly missing). The files
 * live in one temporary folder for the process's life. */
#define _POSIX_C_SOURCE 200809L

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "trainsize.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char folder[64];

static void remove_folder(void) { rmdir(folder); }

static int write_all(const char *path, const uint8_t *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    size_t n;
    if (!f) return -1;
    n = size ? fwrite(data, 1, size, f) : 0;
    return fclose(f) == 0 && n == size ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[128];
    trainsize_checkpoint ck;
    trainsize_error err;
    if (!folder[0]) {
        snprintf(folder, sizeof folder, "/tmp/trainsize-fuzz-st-XXXXXX");
        if (!mkdtemp(folder)) return 0;
        atexit(remove_folder);
    }
    snprintf(path, sizeof path, "%s/%s", folder,
             size && data[0] == '{' ? "model.safetensors.index.json" : "model-00001-of-00001.safetensors");
    if (write_all(path, data, size) == 0) (void)trainsize_checkpoint_read(path, &ck, &err);
    unlink(path);
    return 0;
}

/* Fuzz target: the command (trainsize_command) on `trainsize estimate ARGS`, each input
 * line one argument, once as the report and once with --json; what it writes goes to
 * writers that count it (nothing reaches standard output or error). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trainsize.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Takes everything (a writer that fails is tests/test_command.c's). */
static size_t count_bytes(const char *text, size_t len, void *context)
{
    (void)text;
    *(size_t *)context += len;
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1);
    char *argv[MAX_ARGS + 4];
    int argc = 2;
    size_t i, start = 0, written = 0;
    trainsize_command_io io = {0};
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    argv[0] = "trainsize";
    argv[1] = "estimate";
    for (i = 0; i <= size && argc < MAX_ARGS + 2; i++) {
        if (i == size || copy[i] == '\n' || copy[i] == '\0') {
            copy[i] = '\0';
            argv[argc++] = copy + start;
            start = i + 1;
        }
    }
    io.output = count_bytes;
    io.output_context = &written;
    io.message = count_bytes;
    io.message_context = &written;
    (void)trainsize_command(argc, argv, &io);
    argv[argc] = "--json";
    (void)trainsize_command(argc + 1, argv, &io);
    free(copy);
    return 0;
}

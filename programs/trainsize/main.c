/* trainsize: what it takes to train a transformer model.
 *
 * The program is the library's command (trainsize_command) with standard output and
 * standard error as its writers; everything it does is the library's. */
#define _POSIX_C_SOURCE 200809L /* SIGPIPE */

#include "trainsize.h"

#include <signal.h>
#include <stdio.h>

/* Standard output or error, whole: the command hands its answer over once. A failed write
 * leaves errno for the command's message. */
static size_t write_stream(const char *data, size_t size, void *context)
{
    FILE *stream = (FILE *)context;
    size_t n = fwrite(data, 1, size, stream);
    if (fflush(stream) != 0 || ferror(stream))
        return n < size ? n : size - 1;
    return n;
}

int main(int argc, char **argv)
{
    trainsize_command_io io = {0};

#ifdef SIGPIPE
    /* A closed pipe is a write error that the command reports (exit status 1), not a
     * silent death by signal. */
    signal(SIGPIPE, SIG_IGN);
#endif
    io.output = write_stream;
    io.output_context = stdout;
    io.message = write_stream;
    io.message_context = stderr;
    return trainsize_command(argc, argv, &io);
}

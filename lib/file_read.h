/* Reading a small input file into memory, bounded (internal). */
#ifndef TS_FILE_READ_H
#define TS_FILE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize.h"

/* Read up to cap bytes from the descriptor fd, retrying when interrupted; the count (less
 * than cap at the end of the file), or -1 on a read error. */
long ts_read_upto(int fd, void *buf, size_t cap);

/* Open `path` for reading only when it is a regular file, without blocking (a FIFO or
 * device is refused by name before it is opened, and checked again with fstat on the
 * descriptor); its size in *size. The descriptor, which the caller closes, or a negative
 * status naming `field` (TRAINSIZE_E_IO). */
int ts_open_regular(const char *path, const char *field, uint64_t *size, trainsize_error *err);

/* 1 when `path` names a folder. */
int ts_is_dir(const char *path);

/* Read the file at `path` (at most `limit` bytes) into a new buffer the caller frees.
 * Errors name `field`: TRAINSIZE_E_IO, TRAINSIZE_E_LIMIT, TRAINSIZE_E_NOMEM. */
int ts_read_file(const char *path, size_t limit, const char *field, char **out, size_t *len,
                 trainsize_error *err);

/* Replace err's generic "config.json: " prefix (or none) with the path the caller gave. */
void ts_error_name_file(trainsize_error *err, const char *path);

/* A loader of text into a job (trainsize_job_load_hf_config, _load_gpu_json). */
typedef int (*ts_text_loader)(trainsize_job *job, const char *text, size_t len, trainsize_error *err);

/* The one file loader: read `path` (bounded as the text loaders are), hand its text to
 * `load`, name the file in a failure's message. Errors name `field`. */
int ts_load_file(trainsize_job *job, const char *path, const char *field, ts_text_loader load,
                 trainsize_error *err);

#endif

/* Error reporting helpers (internal). */
#ifndef TS_ERROR_H
#define TS_ERROR_H

#include "trainsize.h"

#if defined(__GNUC__) || defined(__clang__)
#define TS_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define TS_PRINTF(a, b)
#endif

/** Fill err (if not NULL) with code, field and a formatted message; return code. */
int ts_fail(trainsize_error *err, int code, const char *field, const char *fmt, ...)
    TS_PRINTF(4, 5);

/** Make err's field and message valid, one-line, printable UTF-8 again after a caller of
 *  ts_fail edited them (a prefix added, a file name put in front). */
void ts_error_tidy(trainsize_error *err);

/** Clear err (if not NULL) to success; return TRAINSIZE_OK. */
int ts_ok(trainsize_error *err);

#endif

/* Error codes and messages. Messages name the offending field; no global state. */
#include "error.h"
#include "text.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *trainsize_strerror(int code)
{
    switch (code) {
    case TRAINSIZE_OK: return "success";
    case TRAINSIZE_E_INVALID: return "invalid value";
    case TRAINSIZE_E_UNKNOWN: return "unknown name";
    case TRAINSIZE_E_LAYOUT: return "parallel layout does not divide";
    case TRAINSIZE_E_OVERFLOW: return "result does not fit in 64 bits";
    case TRAINSIZE_E_PARSE: return "malformed JSON";
    case TRAINSIZE_E_LIMIT: return "input beyond a size or nesting limit";
    case TRAINSIZE_E_IO: return "file could not be read";
    case TRAINSIZE_E_NOMEM: return "out of memory";
    case TRAINSIZE_E_ARGUMENT: return "invalid argument";
    case TRAINSIZE_E_UNSUPPORTED: return "unsupported combination";
    case TRAINSIZE_E_CANCELLED: return "cancelled by the caller";
    default: return "unknown error";
    }
}

void ts_error_tidy(trainsize_error *err)
{
    if (!err) return;
    ts_text_tidy(err->field, sizeof err->field);
    ts_text_tidy(err->message, sizeof err->message);
}

int ts_fail(trainsize_error *err, int code, const char *field, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        snprintf(err->field, sizeof err->field, "%s", field ? field : "");
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
        ts_error_tidy(err);
    }
    return code;
}

int ts_ok(trainsize_error *err)
{
    if (err) {
        err->code = TRAINSIZE_OK;
        err->field[0] = '\0';
        err->message[0] = '\0';
    }
    return TRAINSIZE_OK;
}

/* JSON text out (internal), the one writer of every JSON the library hands back (the
 * estimate, the plan, the catalogues): strings escaped with invalid UTF-8 bytes as U+FFFD,
 * numbers in the shortest form that reads back as the same double, in the C locale's form
 * whatever LC_NUMERIC the program set. Writes into a ts_out, usually a fixed one over the
 * caller's buffer. */
#ifndef TS_JSON_WRITE_H
#define TS_JSON_WRITE_H

#include <stdint.h>

#include "text_out.h"
#include "trainsize.h"

/* A JSON string, or null for NULL. */
void ts_json_string(ts_out *o, const char *s);
/* A double, or null when it is not finite (JSON has no infinities). */
void ts_json_number(ts_out *o, double d);
void ts_json_u64(ts_out *o, uint64_t v);
/* The names of the warning bits set in `bits`, as an array of strings. */
void ts_json_warnings(ts_out *o, uint64_t bits);
/* A newline and two spaces per level. */
void ts_json_indent(ts_out *o, int depth);
/* The writers' common end: the length as trainsize_report returns it, or
 * TRAINSIZE_E_LIMIT past TRAINSIZE_JSON_MAX_BYTES (what says `what` wrote). */
int ts_json_done(const ts_out *o, const char *what, trainsize_error *err);

#endif

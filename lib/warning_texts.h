/* The checklist's words (internal; warning_texts.c): a warning bit's stable name and its
 * sentence, for the report and the JSON writers without going through the public API. */
#ifndef TS_WARNING_TEXTS_H
#define TS_WARNING_TEXTS_H

#include <stdint.h>

#include "trainsize.h"

/* The name of one TRAINSIZE_WARN_* bit ("does-not-fit", ...); NULL for anything else. */
const char *ts_warning_name(uint64_t bit);
/* Its sentence; NULL for anything else. */
const char *ts_warning_text(uint64_t bit);

#endif

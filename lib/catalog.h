/* The catalogues' tables, for loops on the estimate path that would otherwise go through
 * the public accessors once per row (internal). */
#ifndef TS_CATALOG_H
#define TS_CATALOG_H

#include <stddef.h>

#include "trainsize.h"

extern const trainsize_link_info ts_links[];
extern const size_t ts_link_count;
extern const trainsize_storage_info ts_storage[];
extern const size_t ts_storage_count;

#endif

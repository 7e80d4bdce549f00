/* Units on numeric parameters: "24GiB", "80GB", "300GB/s", "1.5T" tokens (internal). */
#ifndef TS_UNITS_H
#define TS_UNITS_H

#include <stddef.h>


/* Rewrite a value with a unit suffix as the plain number it stands for, in buf ("24GiB" ->
 * "25769803776", "1.5T" -> "1.5e12"), for the parameter `name` whose unit is `unit_name`
 * ("bytes", "bytes/s"; "tokens" take counts). Returns 1 when it did, 0 when the text has
 * no suffix (parse it as it is), -1 when the suffix is not a unit this parameter takes
 * (then *why says which units it takes) or the number before a unit is malformed (*why is
 * NULL). */
int ts_units_expand(const char *unit_name, const char *name, const char *text, char *buf, size_t cap,
                    const char **why);

#endif

/* Units on numeric parameters. Byte sizes and rates take SI (kB, MB, GB: powers of 1000) and
 * IEC (KiB, MiB, GiB: powers of 1024) prefixes, as IEC 80000-13 defines them, spelled
 * exactly, so that "Gb" (gigabits) is refused rather than read as bytes; the training token
 * count takes K, M, B (billion) and T (trillion), as papers count tokens ("300B", "15T").
 * Sequence lengths take none: "8K" means 8192 to some and 8000 to others. */
#include "units.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "text_values.h"

typedef struct unit {
    const char *suffix;
    int power;  /* of the base */
    int binary; /* base 1024, else 1000 */
} unit;

static const unit BYTE_UNITS[] = {
    {"B", 0, 0},   {"kB", 1, 0},  {"KB", 1, 0},  {"MB", 2, 0},  {"GB", 3, 0},  {"TB", 4, 0},
    {"PB", 5, 0},  {"KiB", 1, 1}, {"MiB", 2, 1}, {"GiB", 3, 1}, {"TiB", 4, 1}, {"PiB", 5, 1},
};
static const unit COUNT_UNITS[] = {
    {"K", 1, 0}, {"k", 1, 0}, {"M", 2, 0}, {"B", 3, 0}, {"T", 4, 0},
};

static const char BYTE_HELP[] = "bytes: B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, "
                                "TiB, PiB (powers of 1024), e.g. 24GiB";
static const char RATE_HELP[] = "bytes per second: B/s, kB/s, MB/s, GB/s, TB/s (or KiB/s ... "
                                "PiB/s), e.g. 300GB/s";
static const char COUNT_HELP[] = "a count: K, M, B (billion) or T (trillion), e.g. 1.5T";
static const char NO_HELP[] = "none: a plain number";

static int is_number_char(char c)
{
    return (c >= '0' && c <= '9') || c == '.' || c == '+' || c == '-';
}

/* The units a parameter takes, by its unit and name. */
static const unit *units_of(const char *unit_name, const char *name, size_t *count, int *rate,
                            const char **help)
{
    *rate = 0;
    if (strcmp(unit_name, "bytes") == 0) {
        *count = sizeof BYTE_UNITS / sizeof BYTE_UNITS[0];
        *help = BYTE_HELP;
        return BYTE_UNITS;
    }
    if (strcmp(unit_name, "bytes/s") == 0) {
        *count = sizeof BYTE_UNITS / sizeof BYTE_UNITS[0];
        *rate = 1;
        *help = RATE_HELP;
        return BYTE_UNITS;
    }
    if (strcmp(name, "tokens") == 0) {
        *count = sizeof COUNT_UNITS / sizeof COUNT_UNITS[0];
        *help = COUNT_HELP;
        return COUNT_UNITS;
    }
    *count = 0;
    *help = NO_HELP;
    return NULL;
}

int ts_units_expand(const char *unit_name, const char *name, const char *text, char *buf, size_t cap,
                    const char **why)
{
    char number[64], suffix[16];
    const unit *units;
    size_t count, i, n = 0, len = strlen(text), s;
    int rate;
    const char *help;

    /* The number is the leading run of digits, signs and points (an exponent's 'e' only
     * when a digit or sign follows it); an optional space, then the suffix. */
    while (n < len && (is_number_char(text[n]) ||
                       ((text[n] == 'e' || text[n] == 'E') && n + 1 < len &&
                        is_number_char(text[n + 1]))))
        n++;
    if (n == len || n == 0) return 0; /* no suffix, or no number: the plain parser decides */
    s = text[n] == ' ' ? n + 1 : n;
    units = units_of(unit_name, name, &count, &rate, &help);
    *why = help;
    if (len - s >= sizeof suffix || n >= sizeof number) return -1;
    memcpy(number, text, n);
    number[n] = '\0';
    memcpy(suffix, text + s, len - s + 1);
    if (rate) {
        size_t sl = strlen(suffix);
        if (sl < 3 || strcmp(suffix + sl - 2, "/s") != 0) return -1;
        suffix[sl - 2] = '\0';
    }
    for (i = 0; i < count; i++) {
        double v, scaled;
        if (strcmp(suffix, units[i].suffix) != 0) continue;
        if (!units[i].binary && !strchr(number, 'e') && !strchr(number, 'E')) {
            /* Decimal: an exponent on the same text, so the plain parser stays exact. */
            snprintf(buf, cap, "%se%d", number, 3 * units[i].power);
            return 1;
        }
        if (ts_parse_double(number, &v) != 0) {
            *why = NULL; /* the unit is fine, the number is not */
            return -1;
        }
        scaled = v * pow(units[i].binary ? 1024.0 : 1000.0, units[i].power);
        /* Rounded to the whole unit ("0.1GiB" is 107374182 bytes) while a double holds
         * integers exactly; beyond, its shortest text (the range check refuses it). */
        if (fabs(scaled) < 9007199254740992.0)
            snprintf(buf, cap, "%.0f", floor(scaled + 0.5));
        else
            ts_format_double(buf, cap, 17, scaled);
        return 1;
    }
    return -1;
}

/* JSON text out: one escaping and one number format for every JSON the library writes, so
 * that the command, the WebAssembly module and the bindings hand back the same bytes. */
#include "json_write.h"

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "error.h"
#include "text.h"
#include "text_values.h"
#include "warning_texts.h"

void ts_json_string(ts_out *o, const char *s)
{
    size_t len, pos = 0;
    if (!s) {
        ts_out_puts(o, "null");
        return;
    }
    len = strlen(s);
    ts_out_putc(o, '"');
    while (pos < len) {
        unsigned char c = (unsigned char)s[pos];
        size_t n = 1;
        if (c == '"' || c == '\\') {
            ts_out_putc(o, '\\');
            ts_out_putc(o, (char)c);
        } else if (c < 0x20 || c == 0x7f) {
            ts_out_printf(o, "\\u%04x", (unsigned)c);
        } else if ((n = ts_utf8_sequence(s, len, pos)) == 0) {
            ts_out_puts(o, "\\ufffd"); /* an invalid byte: the replacement character */
            n = 1;
        } else {
            ts_out_write(o, s + pos, n);
        }
        pos += n;
    }
    ts_out_putc(o, '"');
}

void ts_json_number(ts_out *o, double d)
{
    char buf[40];
    if (!isfinite(d)) {
        ts_out_puts(o, "null");
        return;
    }
    ts_format_shortest(buf, sizeof buf, d);
    ts_out_puts(o, buf);
}

void ts_json_u64(ts_out *o, uint64_t v) { ts_out_printf(o, "%" PRIu64, v); }

void ts_json_warnings(ts_out *o, uint64_t bits)
{
    int bit, first = 1;
    ts_out_putc(o, '[');
    for (bit = 0; bit < 64; bit++) {
        const char *name = ts_warning_name(UINT64_C(1) << bit);
        if (!(bits & (UINT64_C(1) << bit)) || !name) continue;
        if (!first) ts_out_puts(o, ", ");
        ts_json_string(o, name);
        first = 0;
    }
    ts_out_putc(o, ']');
}

void ts_json_indent(ts_out *o, int depth)
{
    ts_out_putc(o, '\n');
    ts_out_repeat(o, ' ', (size_t)depth * 2);
}

int ts_json_done(const ts_out *o, const char *what, trainsize_error *err)
{
    if (o->failed || o->len > (size_t)TRAINSIZE_JSON_MAX_BYTES) {
        if (o->cap) o->data[0] = '\0'; /* no partial text */
        return ts_fail(err, TRAINSIZE_E_LIMIT, "", "%s: the text would pass %u bytes", what,
                       (unsigned)TRAINSIZE_JSON_MAX_BYTES);
    }
    ts_ok(err);
    return (int)o->len;
}

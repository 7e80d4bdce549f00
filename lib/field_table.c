/* Field tables: one reader for every table and one JSON form of a field's value. */
#include "choices.h"
#include "field_table.h"

#include <string.h>

#include "json_write.h"
#include "text_values.h"

const char *const ts_recompute_names[TS_RECOMPUTE_COUNT] = {TS_RECOMPUTE_LIST(TS_NAME_ITEM)};

int ts_field_read(const ts_field_def *table, size_t count, const void *item, size_t index,
                  trainsize_field_value *out)
{
    const char *base = (const char *)item;
    const ts_field_def *f;
    int v;
    if (!table || !item || !out || index >= count) return TRAINSIZE_E_ARGUMENT;
    f = &table[index];
    out->type = f->info.type;
    out->u64 = 0;
    out->f64 = 0;
    out->text = NULL;
    switch (f->member) {
    case TS_MEMBER_DERIVED: f->derive(item, out); return TRAINSIZE_OK;
    case TS_MEMBER_INT:
        memcpy(&v, base + f->offset, sizeof v);
        out->u64 = v < 0 ? 0 : (uint64_t)v;
        out->f64 = (double)out->u64;
        return TRAINSIZE_OK;
    case TS_MEMBER_NOT:
        memcpy(&v, base + f->offset, sizeof v);
        out->u64 = v ? 0u : 1u;
        return TRAINSIZE_OK;
    case TS_MEMBER_CSTR: {
        const char *s;
        memcpy(&s, base + f->offset, sizeof s);
        out->text = s ? s : "";
        return TRAINSIZE_OK;
    }
    case TS_MEMBER_AUTO: break;
    }
    switch (f->info.type) {
    case TRAINSIZE_FIELD_U64:
    case TRAINSIZE_FIELD_FLAGS:
        memcpy(&out->u64, base + f->offset, sizeof out->u64);
        if (f->info.type == TRAINSIZE_FIELD_U64) out->f64 = (double)out->u64;
        break;
    case TRAINSIZE_FIELD_F64: memcpy(&out->f64, base + f->offset, sizeof out->f64); break;
    case TRAINSIZE_FIELD_BOOL:
        memcpy(&v, base + f->offset, sizeof v);
        out->u64 = v ? 1u : 0u;
        break;
    case TRAINSIZE_FIELD_STRING:
        if (!memchr(base + f->offset, '\0', f->size)) return TRAINSIZE_E_ARGUMENT;
        out->text = base + f->offset;
        break;
    case TRAINSIZE_FIELD_CHOICE:
        /* a choice past its names is a struct the library did not fill, as a text without
         * its NUL is */
        memcpy(&v, base + f->offset, sizeof v);
        if (v < 0 || (size_t)v >= f->name_count) {
            out->text = NULL;
            return TRAINSIZE_E_ARGUMENT;
        }
        out->text = f->names[v];
        out->u64 = (uint64_t)v;
        break;
    }
    return TRAINSIZE_OK;
}

/* "a,b,c" as ["a", "b", "c"], through the one list iterator (text_values.c). */
static void json_list(ts_out *o, const char *s)
{
    char item[64];
    int first = 1;
    ts_out_putc(o, '[');
    while (ts_list_next(&s, ',', item, sizeof item) > 0) {
        if (!first) ts_out_puts(o, ", ");
        ts_json_string(o, item);
        first = 0;
    }
    ts_out_putc(o, ']');
}

void ts_field_json_value(ts_out *o, const trainsize_field_info *info, const trainsize_field_value *v)
{
    switch (v->type) {
    case TRAINSIZE_FIELD_U64: ts_json_u64(o, v->u64); break;
    case TRAINSIZE_FIELD_F64: ts_json_number(o, v->f64); break;
    case TRAINSIZE_FIELD_BOOL: ts_out_puts(o, v->u64 ? "true" : "false"); break;
    case TRAINSIZE_FIELD_FLAGS: ts_json_warnings(o, v->u64); break;
    case TRAINSIZE_FIELD_STRING:
        if (strcmp(info->unit, "list") == 0) json_list(o, v->text);
        else ts_json_string(o, v->text);
        break;
    default: ts_json_string(o, v->text); break; /* CHOICE */
    }
}

int ts_field_json_object(ts_out *o, const ts_field_def *table, size_t count, const void *item)
{
    size_t i;
    ts_out_putc(o, '{');
    for (i = 0; i < count; i++) {
        trainsize_field_value v;
        if (ts_field_read(table, count, item, i, &v) != TRAINSIZE_OK) return -1;
        if (i) ts_out_puts(o, ", ");
        ts_json_string(o, table[i].info.path);
        ts_out_puts(o, ": ");
        ts_field_json_value(o, &table[i].info, &v);
    }
    ts_out_putc(o, '}');
    return 0;
}

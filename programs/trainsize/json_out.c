/* The JSON writer.
 *
 * The estimate's JSON is generated from the library's result field catalogue
 * (trainsize_result_field_count/_at/_get), not from the struct: each field has a dotted
 * path ("memory.weights"), and the paths are turned into a tree of objects that keeps the
 * order in which paths first appear. A field added to the library appears in the JSON
 * without a change here, and a catalogue whose paths are not grouped still gives one key
 * per name. The first key is "trainsize_version". */
#include "cli.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scalars ---- */

/* Length of the valid UTF-8 sequence at s (at most `left` bytes), or 0 when invalid. */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n, i;
    uint32_t cp;

    if (s[0] < 0x80)
        return 1;
    if (s[0] >= 0xc2 && s[0] <= 0xdf) {
        n = 2;
        cp = s[0] & 0x1fu;
    } else if (s[0] >= 0xe0 && s[0] <= 0xef) {
        n = 3;
        cp = s[0] & 0x0fu;
    } else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
        n = 4;
        cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (n > left)
        return 0;
    for (i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

void cli_json_string(ts_out *o, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t left;

    if (!s) {
        ts_out_puts(o, "null");
        return;
    }
    left = strlen(s);
    ts_out_putc(o, '"');
    while (left > 0) {
        size_t n;
        if (*p == '"' || *p == '\\') {
            ts_out_putc(o, '\\');
            ts_out_putc(o, (char)*p);
            n = 1;
        } else if (*p < 0x20 || *p == 0x7f) {
            ts_out_printf(o, "\\u%04x", (unsigned)*p);
            n = 1;
        } else {
            n = utf8_len(p, left);
            if (n == 0) {
                ts_out_puts(o, "\\ufffd"); /* an invalid byte: the replacement character */
                n = 1;
            } else {
                ts_out_write(o, (const char *)p, n);
            }
        }
        p += n;
        left -= n;
    }
    ts_out_putc(o, '"');
}

void cli_json_number(ts_out *o, double d)
{
    char buf[40];
    int prec;

    if (!isfinite(d)) {
        ts_out_puts(o, "null"); /* JSON has no infinities; the library never gives them */
        return;
    }
    /* The shortest of %.15g..%.17g that reads back as the same double. */
    for (prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, d);
        if (strtod(buf, NULL) == d)
            break;
    }
    ts_out_puts(o, buf);
}

void cli_json_u64(ts_out *o, uint64_t v)
{
    ts_out_printf(o, "%" PRIu64, v);
}

/* ---- the path tree ---- */

typedef struct node {
    const char *name; /* not NUL-terminated: `len` bytes of a field path */
    size_t len;
    long field;       /* field index for a leaf, -1 for an object */
    size_t first;     /* first child, 0 = none (node 0 is the root, never a child) */
    size_t last;
    size_t next;      /* next sibling, 0 = none */
} node;

typedef struct tree {
    node *nodes;
    size_t count;
    size_t cap;
} tree;

static size_t tree_add(tree *t, size_t parent, const char *name, size_t len, long field)
{
    node *n = &t->nodes[t->count];

    n->name = name;
    n->len = len;
    n->field = field;
    n->first = n->last = n->next = 0;
    if (t->nodes[parent].last)
        t->nodes[t->nodes[parent].last].next = t->count;
    else
        t->nodes[parent].first = t->count;
    t->nodes[parent].last = t->count;
    return t->count++;
}

static size_t tree_child(const tree *t, size_t parent, const char *name, size_t len)
{
    size_t c;

    for (c = t->nodes[parent].first; c != 0; c = t->nodes[c].next) {
        if (t->nodes[c].len == len && memcmp(t->nodes[c].name, name, len) == 0)
            return c;
    }
    return 0;
}

/* Insert one field's path. Returns 0, or -1 for an empty component or a clash (a path
 * given twice, or used both as a value and as an object). */
static int tree_insert(tree *t, const char *path, long field)
{
    size_t at = 0;
    const char *s = path;

    for (;;) {
        const char *dot = strchr(s, '.');
        size_t len = dot ? (size_t)(dot - s) : strlen(s);
        size_t c;

        if (len == 0)
            return -1;
        c = tree_child(t, at, s, len);
        if (!dot) {
            if (c != 0)
                return -1;
            tree_add(t, at, s, len, field);
            return 0;
        }
        if (c == 0)
            c = tree_add(t, at, s, len, -1);
        else if (t->nodes[c].field >= 0)
            return -1;
        at = c;
        s = dot + 1;
    }
}

static int write_value(ts_out *o, const trainsize_result *r, size_t index)
{
    trainsize_field_value v;

    if (trainsize_result_field_get(r, index, &v) != TRAINSIZE_OK)
        return -1;
    switch (v.type) {
    case TRAINSIZE_FIELD_U64:
        cli_json_u64(o, v.u64);
        break;
    case TRAINSIZE_FIELD_F64:
        cli_json_number(o, v.f64);
        break;
    case TRAINSIZE_FIELD_BOOL:
        ts_out_puts(o, v.u64 ? "true" : "false");
        break;
    case TRAINSIZE_FIELD_STRING:
    case TRAINSIZE_FIELD_CHOICE:
        cli_json_string(o, v.text);
        break;
    case TRAINSIZE_FIELD_FLAGS: {
        /* A bit set: the names of the bits that are set, as an array of strings. */
        int bit, first = 1;
        ts_out_putc(o, '[');
        for (bit = 0; bit < 64; bit++) {
            const char *name = trainsize_warning_name(UINT64_C(1) << bit);
            if (!(v.u64 & (UINT64_C(1) << bit)) || !name) continue;
            if (!first) ts_out_puts(o, ", ");
            cli_json_string(o, name);
            first = 0;
        }
        ts_out_putc(o, ']');
        break;
    }
    default:
        ts_out_puts(o, "null"); /* a type newer than this command */
        break;
    }
    return 0;
}

static void indent(ts_out *o, int depth)
{
    ts_out_putc(o, '\n');
    ts_out_repeat(o, ' ', (size_t)depth * 2);
}

static void write_key(ts_out *o, const node *n)
{
    char name[256];
    size_t len = n->len < sizeof name - 1 ? n->len : sizeof name - 1;

    memcpy(name, n->name, len);
    name[len] = '\0';
    cli_json_string(o, name);
    ts_out_puts(o, ": ");
}

/* Write the members of object node `at` (the braces are the caller's). */
static int write_members(ts_out *o, const tree *t, const trainsize_result *r, size_t at,
                         int depth, int first)
{
    size_t c;

    for (c = t->nodes[at].first; c != 0; c = t->nodes[c].next) {
        const node *n = &t->nodes[c];
        if (!first)
            ts_out_putc(o, ',');
        first = 0;
        indent(o, depth);
        write_key(o, n);
        if (n->field >= 0) {
            if (write_value(o, r, (size_t)n->field) != 0)
                return -1;
        } else {
            ts_out_putc(o, '{');
            if (write_members(o, t, r, c, depth + 1, 1) != 0)
                return -1;
            indent(o, depth);
            ts_out_putc(o, '}');
        }
    }
    return 0;
}

/* [{"set": {name: value, ...}, "peak_total": N, ...}, ...], the value of "advice" */
void cli_json_advice(ts_out *o, const trainsize_advice *advice, size_t n)
{
    size_t i, k;

    ts_out_putc(o, '[');
    for (i = 0; i < n; i++) {
        const trainsize_advice *a = &advice[i];
        ts_out_puts(o, i ? ",\n    {\"set\": {" : "\n    {\"set\": {");
        for (k = 0; k < a->settings; k++) {
            if (k)
                ts_out_puts(o, ", ");
            cli_json_string(o, a->names[k]);
            ts_out_puts(o, ": ");
            cli_json_string(o, a->values[k]);
        }
        ts_out_printf(o, "}, \"peak_total\": %" PRIu64 ", \"gpu_capacity\": %" PRIu64
                          ", \"fits\": true, \"gpus\": %" PRIu64 ", \"step_seconds\": ",
                       a->peak_total, a->gpu_capacity, a->gpus);
        cli_json_number(o, a->step_seconds);
        ts_out_puts(o, ", \"seconds\": ");
        cli_json_number(o, a->seconds);
        ts_out_putc(o, '}');
    }
    ts_out_puts(o, n ? "\n  ]" : "]");
}

int cli_json_result(ts_out *o, const trainsize_result *r, const trainsize_advice *advice, size_t n)
{
    size_t i, count = trainsize_result_field_count();
    size_t max_nodes = 1;
    tree t;
    int rc = 0;

    /* Each path adds at most one node per component. */
    for (i = 0; i < count; i++) {
        const trainsize_field_info *f = trainsize_result_field_at(i);
        const char *p;
        if (!f || !f->path) {
            cli_error("internal error: result field %zu has no path", i);
            return -1;
        }
        max_nodes++;
        for (p = f->path; *p; p++)
            max_nodes += *p == '.';
    }
    t.nodes = calloc(max_nodes, sizeof *t.nodes);
    if (!t.nodes) {
        cli_error("out of memory");
        return -1;
    }
    t.cap = max_nodes;
    t.count = 1; /* the root */
    t.nodes[0].field = -1;
    for (i = 0; i < count; i++) {
        const char *path = trainsize_result_field_at(i)->path;
        if (strcmp(path, "trainsize_version") == 0)
            continue; /* written first, below */
        if (tree_insert(&t, path, (long)i) != 0) {
            cli_error("internal error: result field path '%.100s' clashes with another", path);
            free(t.nodes);
            return -1;
        }
    }
    ts_out_puts(o, "{");
    indent(o, 1);
    ts_out_puts(o, "\"trainsize_version\": ");
    cli_json_string(o, trainsize_version_string());
    if (write_members(o, &t, r, 0, 1, 0) != 0) {
        cli_error("internal error: cannot read a result field");
        rc = -1;
    }
    ts_out_puts(o, ",\n  \"advice\": ");
    cli_json_advice(o, advice, n);
    ts_out_puts(o, "\n}\n");
    free(t.nodes);
    return rc;
}


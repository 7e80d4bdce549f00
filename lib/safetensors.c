/* Counting a checkpoint's parameters exactly from its safetensors headers, never its data.
 *
 * A safetensors file (github.com/huggingface/safetensors, "Format") begins with an 8-byte
 * little-endian length N, then N bytes of JSON: one member per tensor, {"dtype": "BF16",
 * "shape": [4096, 4096], "data_offsets": [begin, end]} (offsets into the data after the
 * header), and an optional "__metadata__" of strings. A sharded checkpoint lists its shards
 * in model.safetensors.index.json ("weight_map": tensor name -> file name beside it).
 *
 * Only the header is read, through a bounded reader: its length is checked against the
 * file's size and TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES before anything is allocated, a
 * tensor's shape product is checked for overflow, and its data must lie inside the file and
 * hold exactly its elements (for the dtypes whose width is known). Files are opened through
 * file_read.c (ts_open_regular), so that a FIFO or device is refused before any read. */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checked.h"
#include "checkpoint_groups.h"
#include "error.h"
#include "file_read.h"
#include "json.h"

#define FIELD "safetensors"
#define SINGLE_NAME "model.safetensors"
#define INDEX_NAME "model.safetensors.index.json"
/* An index lists one name per tensor: DeepSeek-V3's (91,991 tensors) is under 9 MB. */
#define INDEX_MAX_BYTES (64u << 20)
#define HEADER_DEPTH 8
#define PATH_MAX_BYTES 4096

/* The dtypes of the format and their widths in bytes; a dtype not listed (a newer one) is
 * counted by its elements, its bytes taken from its offsets. */
static const struct {
    const char *name;
    unsigned bytes;
} DTYPES[] = {{"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E4M3", 1}, {"F8_E5M2", 1}, {"F8_E8M0", 1},
              {"I16", 2},  {"U16", 2}, {"F16", 2}, {"BF16", 2},    {"I32", 4},     {"U32", 4},
              {"F32", 4},  {"I64", 8}, {"U64", 8}, {"F64", 8},     {"C64", 8}};
#define DTYPE_COUNT (sizeof DTYPES / sizeof DTYPES[0])

/* What the headers add up to, and the elements by dtype (the last slot: dtypes not listed). */
typedef struct tally {
    trainsize_checkpoint *out;
    uint64_t by_dtype[DTYPE_COUNT + 1];
    ts_groups *groups; /* the tensors by name prefix (checkpoint_groups.c) */
} tally;

static int bad(trainsize_error *err, int code, const char *path, const char *what)
{
    return ts_fail(err, code, FIELD, FIELD ": %.150s: %s", path, what);
}

/* One tensor's entry: its elements and bytes added to the tally. */
static int count_tensor(const char *path, const ts_json_value *name, const ts_json_value *t, uint64_t data_bytes,
                        tally *ty, trainsize_error *err)
{
    ts_json_value dtype, shape, offsets, v;
    char dname[16], tname[256], msg[200];
    uint64_t elements = 1, dim, begin = 0, end = 0;
    size_t cursor = 0, i, n;
    ts_json_string_copy(name, tname, sizeof tname);
    if (t->type != TS_JSON_OBJECT || !ts_json_object_get(t, "dtype", &dtype) ||
        !ts_json_object_get(t, "shape", &shape) || !ts_json_object_get(t, "data_offsets", &offsets) ||
        dtype.type != TS_JSON_STRING || shape.type != TS_JSON_ARRAY || offsets.type != TS_JSON_ARRAY) {
        snprintf(msg, sizeof msg, "tensor \"%.100s\" lacks a dtype, shape or data_offsets", tname);
        return bad(err, TRAINSIZE_E_INVALID, path, msg);
    }
    if (ts_json_string_copy(&dtype, dname, sizeof dname) >= sizeof dname) dname[0] = '\0';
    while (ts_json_array_next(&shape, &cursor, &v)) {
        int sized = ts_json_get_u64(&v, "shape", TS_U64_LIMIT - 1, &dim, NULL) == TRAINSIZE_OK;
        if (!sized || ts_mul_u64(elements, dim, &elements) != 0) {
            snprintf(msg, sizeof msg, "tensor \"%.100s\": %s", tname,
                     sized ? "its shape's product overflows 2^63" : "its shape is not a list of sizes");
            return bad(err, sized ? TRAINSIZE_E_OVERFLOW : TRAINSIZE_E_INVALID, path, msg);
        }
    }
    cursor = 0;
    for (i = 0; ts_json_array_next(&offsets, &cursor, &v); i++) {
        uint64_t *slot = i == 0 ? &begin : &end;
        if (i > 1 || ts_json_get_u64(&v, "data_offsets", TS_U64_LIMIT - 1, slot, NULL) != TRAINSIZE_OK) i = 3;
    }
    if (i != 2 || end < begin || end > data_bytes) {
        snprintf(msg, sizeof msg, "tensor \"%.100s\": data_offsets not [begin, end] inside the file", tname);
        return bad(err, TRAINSIZE_E_INVALID, path, msg);
    }
    for (n = 0; n < DTYPE_COUNT && strcmp(DTYPES[n].name, dname) != 0; n++) {}
    if (n < DTYPE_COUNT) {
        uint64_t bytes;
        if (ts_mul_u64(elements, DTYPES[n].bytes, &bytes) != 0 || bytes != end - begin) {
            snprintf(msg, sizeof msg, "tensor \"%.100s\": %s x its shape is not its %llu data bytes", tname, dname,
                     (unsigned long long)(end - begin));
            return bad(err, TRAINSIZE_E_INVALID, path, msg);
        }
    }
    if (ts_add_u64(ty->out->parameters, elements, &ty->out->parameters) != 0 ||
        ts_add_u64(ty->out->bytes, end - begin, &ty->out->bytes) != 0 ||
        ts_add_u64(ty->by_dtype[n], elements, &ty->by_dtype[n]) != 0)
        return bad(err, TRAINSIZE_E_OVERFLOW, path, "the parameters overflow 2^63");
    ty->out->tensors++;
    ts_groups_add(ty->groups, tname, elements);
    return TRAINSIZE_OK;
}

/* One file's header, parsed and counted. */
static int count_header(const char *path, const char *json, size_t len, uint64_t data_bytes, tally *ty,
                        trainsize_error *err)
{
    ts_json_value root, key, value;
    trainsize_error jerr;
    size_t cursor = 0;
    int rc;
    if (ts_json_parse(json, len, len, HEADER_DEPTH, &root, &jerr) != TRAINSIZE_OK || root.type != TS_JSON_OBJECT)
        return bad(err, TRAINSIZE_E_PARSE, path, "the header is not a JSON object");
    while (ts_json_object_next(&root, &cursor, &key, &value)) {
        if (ts_json_string_equals(&key, "__metadata__")) continue;
        if ((rc = count_tensor(path, &key, &value, data_bytes, ty, err)) != TRAINSIZE_OK) return rc;
    }
    return TRAINSIZE_OK;
}

/* Read one .safetensors file's header (never its data) and count it. */
static int count_file(const char *path, tally *ty, trainsize_error *err)
{
    unsigned char head[8];
    char *json;
    uint64_t len = 0, size;
    long n;
    int i, rc, fd = ts_open_regular(path, FIELD, &size, err);
    if (fd < 0) return fd;
    if (ts_read_upto(fd, head, sizeof head) != (long)sizeof head) {
        close(fd);
        return bad(err, TRAINSIZE_E_INVALID, path, "shorter than the 8-byte header length");
    }
    for (i = 7; i >= 0; i--) len = len << 8 | head[i];
    if (len > size - sizeof head) {
        close(fd);
        return bad(err, TRAINSIZE_E_INVALID, path, "its header length runs past the end of the file");
    }
    if (len > TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES) {
        close(fd);
        return bad(err, TRAINSIZE_E_LIMIT, path, "its header is over the 100,000,000 bytes read");
    }
    json = malloc(len ? (size_t)len : 1);
    if (!json) {
        close(fd);
        return bad(err, TRAINSIZE_E_NOMEM, path, "out of memory");
    }
    n = ts_read_upto(fd, json, (size_t)len);
    close(fd);
    rc = n != (long)len ? bad(err, TRAINSIZE_E_IO, path, "cannot read its header")
                        : count_header(path, json, (size_t)len, size - sizeof head - len, ty, err);
    free(json);
    if (rc == TRAINSIZE_OK) ty->out->files++;
    return rc;
}

/* dir + "/" + name into buf; 0, or -1 when it does not fit */
static int join(char *buf, size_t cap, const char *dir, size_t dir_len, const char *name)
{
    size_t n = strlen(name);
    if (dir_len + 1 + n + 1 > cap) return -1;
    memcpy(buf, dir, dir_len);
    buf[dir_len] = '/';
    memcpy(buf + dir_len + 1, name, n + 1);
    return 0;
}

/* A shard's name as an index may give it: a plain .safetensors file beside the index. */
static int plain_shard_name(const char *name)
{
    size_t n = strlen(name), suffix = strlen(".safetensors");
    return n > suffix && name[0] != '.' && !strchr(name, '/') && !strchr(name, '\\') &&
           strcmp(name + n - suffix, ".safetensors") == 0;
}

/* The shards an index names so far, each once: their names, and an open-addressing table
 * of their indices (+1; 0 is empty) by name hash, so that a weight_map of a million entries
 * costs a million lookups, not a million times the shards. */
#define SHARD_SLOTS (2 * TRAINSIZE_CHECKPOINT_MAX_FILES)
typedef struct shard_set {
    char names[TRAINSIZE_CHECKPOINT_MAX_FILES][256];
    uint32_t slot[SHARD_SLOTS];
    size_t count;
} shard_set;

static size_t name_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h % SHARD_SLOTS;
}

/* 1 when `name` was added now, 0 when seen before, -1 when the set is full. */
static int shard_add(shard_set *set, const char *name)
{
    size_t i = name_hash(name);
    while (set->slot[i]) {
        if (strcmp(set->names[set->slot[i] - 1], name) == 0) return 0;
        i = (i + 1) % SHARD_SLOTS;
    }
    if (set->count == TRAINSIZE_CHECKPOINT_MAX_FILES) return -1;
    strcpy(set->names[set->count], name);
    set->slot[i] = (uint32_t)++set->count;
    return 1;
}

/* Every shard an index names, each once, counted. */
static int count_index(const char *path, tally *ty, trainsize_error *err)
{
    ts_json_value root, map, key, value;
    char *text, shard[PATH_MAX_BYTES];
    shard_set *seen;
    size_t len, cursor = 0, dir_len;
    const char *slash = strrchr(path, '/');
    int rc;
    if ((rc = ts_read_file(path, INDEX_MAX_BYTES, FIELD, &text, &len, err)) != TRAINSIZE_OK) return rc;
    dir_len = slash ? (size_t)(slash - path) : 1;
    if (ts_json_parse(text, len, len, HEADER_DEPTH, &root, NULL) != TRAINSIZE_OK ||
        !ts_json_object_get(&root, "weight_map", &map) || map.type != TS_JSON_OBJECT) {
        free(text);
        return bad(err, TRAINSIZE_E_PARSE, path, "not an index: no \"weight_map\" object");
    }
    seen = calloc(1, sizeof *seen);
    rc = seen ? TRAINSIZE_OK : bad(err, TRAINSIZE_E_NOMEM, path, "out of memory");
    while (rc == TRAINSIZE_OK && ts_json_object_next(&map, &cursor, &key, &value)) {
        char name[256];
        int added;
        if (value.type != TS_JSON_STRING || ts_json_string_copy(&value, name, sizeof name) >= sizeof name ||
            !plain_shard_name(name)) {
            rc = bad(err, TRAINSIZE_E_INVALID, path, "a weight_map entry is not a .safetensors file beside it");
            break;
        }
        if ((added = shard_add(seen, name)) == 0) continue;
        if (added < 0) {
            rc = bad(err, TRAINSIZE_E_LIMIT, path, "it lists over 4096 shards");
            break;
        }
        if (join(shard, sizeof shard, slash ? path : ".", dir_len, name) != 0) {
            rc = bad(err, TRAINSIZE_E_LIMIT, path, "a shard's path is too long");
            break;
        }
        rc = count_file(shard, ty, err);
    }
    if (rc == TRAINSIZE_OK && seen->count == 0) rc = bad(err, TRAINSIZE_E_INVALID, path, "its weight_map lists no shard");
    free(seen);
    free(text);
    return rc;
}

int trainsize_checkpoint_read(const char *path, trainsize_checkpoint *out, trainsize_error *err)
{
    tally ty;
    char file[PATH_MAX_BYTES];
    size_t n, best = 0, i;
    int rc;
    if (!path || !out) return ts_fail(err, TRAINSIZE_E_ARGUMENT, FIELD, FIELD ": NULL path or result");
    memset(&ty, 0, sizeof ty);
    memset(out, 0, sizeof *out);
    ty.out = out;
    if (!(ty.groups = ts_groups_new())) return ts_fail(err, TRAINSIZE_E_NOMEM, FIELD, FIELD ": out of memory");
    n = strlen(path);
    while (n > 1 && path[n - 1] == '/') n--; /* "dir/" as "dir" */
    if (ts_is_dir(path)) {
        if (join(file, sizeof file, path, n, SINGLE_NAME) == 0 && access(file, F_OK) == 0)
            rc = count_file(file, &ty, err);
        else if (join(file, sizeof file, path, n, INDEX_NAME) == 0 && access(file, F_OK) == 0)
            rc = count_index(file, &ty, err);
        else
            rc = ts_fail(err, TRAINSIZE_E_IO, FIELD, FIELD ": %.150s holds neither " SINGLE_NAME " nor " INDEX_NAME,
                         path);
    } else {
        size_t suffix = strlen(".json");
        rc = n > suffix && strcmp(path + n - suffix, ".json") == 0 ? count_index(path, &ty, err)
                                                                  : count_file(path, &ty, err);
    }
    if (rc == TRAINSIZE_OK) ts_groups_finish(ty.groups, out);
    ts_groups_free(ty.groups);
    if (rc != TRAINSIZE_OK) {
        memset(out, 0, sizeof *out); /* no partial result */
        return rc;
    }
    for (i = 1; i <= DTYPE_COUNT; i++)
        if (ty.by_dtype[i] > ty.by_dtype[best]) best = i;
    if (out->parameters) strcpy(out->dtype, best < DTYPE_COUNT ? DTYPES[best].name : "other");
    return ts_ok(err);
}

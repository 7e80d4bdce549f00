/* Checkpoints counted from their safetensors headers (lib/safetensors.c), found in the
 * Hugging Face cache (lib/hf_cache.c) and compared with the config's shape
 * (lib/checkpoint_job.c): both layouts, the cache's, and every hostile file the reader
 * must turn into one error naming "safetensors" and the file. Files are written here, in a
 * fresh temporary folder: a header and a sparse data section (ftruncate), never data. */
#define _POSIX_C_SOURCE 200809L

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "ts_test.h"

static char root[256];

/* One tensor of a header: its name, dtype, width in bytes and shape (up to 3 dims). */
typedef struct tensor {
    const char *name, *dtype;
    unsigned width;
    uint64_t dims[3];
    unsigned ndims;
} tensor;

/* A tiny Llama (hidden 64, ffn 128, 2 layers, 4 heads, 2 kv heads, vocab 256) as
 * LlamaForCausalLM names its tensors. */
static const char TINY_CONFIG[] =
    "{\"model_type\": \"llama\", \"hidden_size\": 64, \"intermediate_size\": 128, \"num_hidden_layers\": 2,"
    " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"vocab_size\": 256,"
    " \"max_position_embeddings\": 2048, \"rms_norm_eps\": 1e-5, \"tie_word_embeddings\": false}";

static size_t tiny_tensors(tensor *t, size_t cap)
{
    static char names[2][9][64];
    static const struct {
        const char *what;
        uint64_t a, b;
        unsigned n;
    } LAYER[9] = {{"self_attn.q_proj.weight", 64, 64, 2}, {"self_attn.k_proj.weight", 32, 64, 2},
                  {"self_attn.v_proj.weight", 32, 64, 2}, {"self_attn.o_proj.weight", 64, 64, 2},
                  {"mlp.gate_proj.weight", 128, 64, 2},   {"mlp.up_proj.weight", 128, 64, 2},
                  {"mlp.down_proj.weight", 64, 128, 2},   {"input_layernorm.weight", 64, 0, 1},
                  {"post_attention_layernorm.weight", 64, 0, 1}};
    size_t n = 0, l, i;
    assert_true(cap >= 21);
    t[n++] = (tensor){"model.embed_tokens.weight", "BF16", 2, {256, 64, 0}, 2};
    for (l = 0; l < 2; l++)
        for (i = 0; i < 9; i++) {
            snprintf(names[l][i], sizeof names[l][i], "model.layers.%zu.%s", l, LAYER[i].what);
            t[n++] = (tensor){names[l][i], "BF16", 2, {LAYER[i].a, LAYER[i].b, 0}, LAYER[i].n};
        }
    t[n++] = (tensor){"model.norm.weight", "BF16", 2, {64, 0, 0}, 1};
    t[n++] = (tensor){"lm_head.weight", "BF16", 2, {256, 64, 0}, 2};
    return n;
}

static uint64_t elements(const tensor *t)
{
    uint64_t e = 1;
    unsigned i;
    for (i = 0; i < t->ndims; i++) e *= t->dims[i];
    return e;
}

static void path_in(char *buf, size_t cap, const char *name) { snprintf(buf, cap, "%s/%s", root, name); }

/* Write raw header bytes after an 8-byte length `len_field` and extend the file to
 * 8 + header + data bytes, sparse. */
static void write_raw(const char *path, uint64_t len_field, const char *header, uint64_t data)
{
    unsigned char head[8];
    size_t hl = strlen(header);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), i;
    assert_true(fd >= 0);
    for (i = 0; i < 8; i++) head[i] = (unsigned char)(len_field >> (8 * i));
    assert_int_equal(write(fd, head, 8), 8);
    assert_int_equal(write(fd, header, hl), (ssize_t)hl);
    assert_int_equal(ftruncate(fd, (off_t)(8 + hl + data)), 0);
    close(fd);
}

/* A well-formed file of `n` tensors, laid out one after the other. */
static void write_tensors(const char *path, const tensor *t, size_t n)
{
    static char header[16384];
    size_t used = 0, i;
    uint64_t off = 0;
    used += (size_t)snprintf(header + used, sizeof header - used, "{\"__metadata__\": {\"format\": \"pt\"}");
    for (i = 0; i < n; i++) {
        uint64_t bytes = elements(&t[i]) * t[i].width;
        unsigned d;
        used += (size_t)snprintf(header + used, sizeof header - used, ", \"%s\": {\"dtype\": \"%s\", \"shape\": [",
                                 t[i].name, t[i].dtype);
        for (d = 0; d < t[i].ndims; d++)
            used += (size_t)snprintf(header + used, sizeof header - used, "%s%llu", d ? ", " : "",
                                     (unsigned long long)t[i].dims[d]);
        used += (size_t)snprintf(header + used, sizeof header - used, "], \"data_offsets\": [%llu, %llu]}",
                                 (unsigned long long)off, (unsigned long long)(off + bytes));
        off += bytes;
    }
    used += (size_t)snprintf(header + used, sizeof header - used, "}");
    assert_true(used < sizeof header);
    write_raw(path, strlen(header), header, off);
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    const char *tmp = getenv("TMPDIR");
    (void)state;
    snprintf(root, sizeof root, "%s/trainsize-ckpt-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[300];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

/* A single model.safetensors: every tensor's elements summed, its bytes, the dtype holding
 * most; and the config's shape describes exactly as many (two independent counts agree). */
static void test_single_file_counted_exactly(void **state)
{
    tensor t[32];
    size_t n = tiny_tensors(t, 32), i;
    uint64_t want = 0;
    char dir[300], file[340], config[340];
    trainsize_checkpoint ck;
    trainsize_error err;
    trainsize_job *job = trainsize_job_new();
    (void)state;
    for (i = 0; i < n; i++) want += elements(&t[i]);
    path_in(dir, sizeof dir, "tiny");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/model.safetensors", dir);
    snprintf(config, sizeof config, "%s/config.json", dir);
    write_tensors(file, t, n);
    write_text(config, TINY_CONFIG);
    assert_int_equal(trainsize_checkpoint_read(file, &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.parameters, want);
    assert_int_equal(ck.bytes, 2 * want);
    assert_int_equal(ck.tensors, n);
    assert_int_equal(ck.files, 1);
    assert_string_equal(ck.dtype, "BF16");
    /* the folder, with a trailing slash, reads the same file */
    snprintf(file, sizeof file, "%s/", dir);
    assert_int_equal(trainsize_checkpoint_read(file, &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.parameters, want);
    assert_int_equal(trainsize_job_load_checkpoint(job, dir, NULL, &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.config_parameters, want);
    assert_int_equal(ck.extra_parameters, 0);
    trainsize_job_free(job);
}

/* Shards: the index's weight_map names each shard once (several tensors per shard); the
 * folder picks the index when there is no model.safetensors. */
static void test_sharded_checkpoint(void **state)
{
    tensor t[32];
    size_t n = tiny_tensors(t, 32), i, half = n / 2;
    uint64_t want = 0;
    char dir[300], file[340], index[8192];
    size_t used = 0;
    trainsize_checkpoint ck;
    trainsize_error err;
    (void)state;
    for (i = 0; i < n; i++) want += elements(&t[i]);
    path_in(dir, sizeof dir, "sharded");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/model-00001-of-00002.safetensors", dir);
    write_tensors(file, t, half);
    snprintf(file, sizeof file, "%s/model-00002-of-00002.safetensors", dir);
    write_tensors(file, t + half, n - half);
    used += (size_t)snprintf(index, sizeof index, "{\"metadata\": {\"total_size\": %llu}, \"weight_map\": {",
                             (unsigned long long)(2 * want));
    for (i = 0; i < n; i++)
        used += (size_t)snprintf(index + used, sizeof index - used, "%s\"%s\": \"model-0000%d-of-00002.safetensors\"",
                                 i ? ", " : "", t[i].name, i < half ? 1 : 2);
    snprintf(index + used, sizeof index - used, "}}");
    snprintf(file, sizeof file, "%s/model.safetensors.index.json", dir);
    write_text(file, index);
    assert_int_equal(trainsize_checkpoint_read(dir, &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.parameters, want);
    assert_int_equal(ck.tensors, n);
    assert_int_equal(ck.files, 2);
    assert_int_equal(trainsize_checkpoint_read(file, &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.files, 2);
}

/* A config that under-describes its checkpoint (a tensor the reader does not know): the
 * headers win, the difference is extra-params, and the estimate counts and holds it. */
static void test_headers_win_over_the_config(void **state)
{
    tensor t[32];
    size_t n = tiny_tensors(t, 32), i;
    uint64_t described = 0;
    char dir[300], file[340];
    trainsize_checkpoint ck;
    trainsize_error err;
    trainsize_result plain, with;
    trainsize_job *job = trainsize_job_new();
    (void)state;
    for (i = 0; i < n; i++) described += elements(&t[i]);
    t[n++] = (tensor){"v_head.summary.weight", "F32", 4, {1, 64, 0}, 2};
    t[n++] = (tensor){"model.mtp.0.proj.weight", "BF16", 2, {64, 128, 0}, 2};
    path_in(dir, sizeof dir, "extra");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/model.safetensors", dir);
    write_tensors(file, t, n);
    snprintf(file, sizeof file, "%s/config.json", dir);
    write_text(file, TINY_CONFIG);
    assert_int_equal(trainsize_job_load_hf_config_file(job, file, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &plain, sizeof plain, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_load_checkpoint(job, dir, "org/extra-model", &ck, &err), TRAINSIZE_OK);
    assert_int_equal(ck.config_parameters, described);
    assert_int_equal(ck.extra_parameters, 64 + 64 * 128);
    assert_int_equal(trainsize_estimate(job, &with, sizeof with, &err), TRAINSIZE_OK);
    assert_string_equal(with.model.name, "org/extra-model");
    assert_int_equal(with.model.parameters, plain.model.parameters + ck.extra_parameters);
    assert_int_equal(with.extra_parameters, ck.extra_parameters);
    /* held and trained: weights, gradients and optimizer state grow with them */
    assert_true(with.memory.weights > plain.memory.weights && with.memory.optimizer > plain.memory.optimizer);
    /* which tensors: the MTP projection and the value head (64, as many as the final norm,
     * which sits beside the layers and is the shape's) */
    assert_int_equal(ck.group_count, 6);
    assert_string_equal(with.extra_tensors, "model.mtp.0 8.19K; v_head.summary 64");
    for (i = 0, described = 0; i < ck.group_count; i++) described += ck.groups[i].unexplained;
    assert_int_equal(described, ck.extra_parameters);
    /* the names are the checkpoint's: gone once extra-params is set by hand */
    assert_int_equal(trainsize_job_set(job, "extra-params", "8256", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &with, sizeof with, &err), TRAINSIZE_OK);
    assert_int_equal(with.extra_parameters, 8256);
    assert_string_equal(with.extra_tensors, "");
    trainsize_job_free(job);
}

/* The cache as huggingface_hub lays it out: refs/main names the snapshot; a commit id is
 * used as given; an unknown id or revision names what was searched. */
static void test_hf_cache_layout(void **state)
{
    static const char COMMIT[] = "0123456789abcdef0123456789abcdef01234567";
    char cache[300], path[1024], snap[600];
    trainsize_error err;
    (void)state;
    path_in(cache, sizeof cache, "hub");
    snprintf(path, sizeof path, "mkdir -p '%s/models--org--tiny/refs' '%s/models--org--tiny/snapshots/%s'", cache,
             cache, COMMIT);
    assert_int_equal(system(path), 0);
    snprintf(path, sizeof path, "%s/models--org--tiny/refs/main", cache);
    write_text(path, COMMIT);
    snprintf(path, sizeof path, "%s/models--org--tiny/snapshots/%s", cache, COMMIT);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/tiny", NULL, snap, sizeof snap, &err), TRAINSIZE_OK);
    assert_string_equal(snap, path);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/tiny", COMMIT, snap, sizeof snap, &err), TRAINSIZE_OK);
    assert_string_equal(snap, path);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/other", NULL, snap, sizeof snap, &err), TRAINSIZE_E_UNKNOWN);
    assert_non_null(strstr(err.message, "org/other"));
    assert_non_null(strstr(err.message, "models--org--other"));
    assert_int_equal(trainsize_hf_snapshot(cache, "org/tiny", "v2", snap, sizeof snap, &err), TRAINSIZE_E_UNKNOWN);
    assert_non_null(strstr(err.message, "v2"));
    assert_int_equal(trainsize_hf_snapshot(cache, "../etc", NULL, snap, sizeof snap, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/a/b", NULL, snap, sizeof snap, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/tiny", "../../x", snap, sizeof snap, &err),
                     TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_hf_snapshot(cache, "org/tiny", NULL, snap, 8, &err), TRAINSIZE_E_LIMIT);
}

/* Where huggingface_hub looks: HF_HUB_CACHE, HUGGINGFACE_HUB_CACHE, HF_HOME/hub,
 * XDG_CACHE_HOME/huggingface/hub, HOME/.cache/huggingface/hub, in that order. */
static void test_hub_cache_from_the_environment(void **state)
{
    char buf[300];
    (void)state;
    setenv("HOME", "/h", 1);
    unsetenv("HF_HUB_CACHE");
    unsetenv("HUGGINGFACE_HUB_CACHE");
    unsetenv("HF_HOME");
    unsetenv("XDG_CACHE_HOME");
    assert_int_equal(trainsize_hf_hub_cache(buf, sizeof buf), (int)strlen("/h/.cache/huggingface/hub"));
    assert_string_equal(buf, "/h/.cache/huggingface/hub");
    setenv("XDG_CACHE_HOME", "/x", 1);
    trainsize_hf_hub_cache(buf, sizeof buf);
    assert_string_equal(buf, "/x/huggingface/hub");
    setenv("HF_HOME", "/hf", 1);
    trainsize_hf_hub_cache(buf, sizeof buf);
    assert_string_equal(buf, "/hf/hub");
    setenv("HUGGINGFACE_HUB_CACHE", "/old", 1);
    trainsize_hf_hub_cache(buf, sizeof buf);
    assert_string_equal(buf, "/old");
    setenv("HF_HUB_CACHE", "/new", 1);
    trainsize_hf_hub_cache(buf, sizeof buf);
    assert_string_equal(buf, "/new");
}

/* One hostile file: the code, "safetensors" and the file's name in the message, nothing
 * counted. */
static void expect_refused(const char *path, int code)
{
    trainsize_checkpoint ck;
    trainsize_error err;
    const char *base = strrchr(path, '/') + 1;
    memset(&ck, 0xab, sizeof ck);
    assert_int_equal(trainsize_checkpoint_read(path, &ck, &err), code);
    assert_non_null(strstr(err.message, "safetensors"));
    assert_non_null(strstr(err.message, base));
    assert_int_equal(ck.parameters, 0);
    assert_int_equal(ck.tensors, 0);
}

/* len_field 0: the header's own length */
static void hostile_file(const char *name, uint64_t len_field, const char *header, uint64_t data, int code)
{
    char path[340];
    path_in(path, sizeof path, name);
    write_raw(path, len_field ? len_field : strlen(header), header, data);
    expect_refused(path, code);
}

static void test_hostile_headers(void **state)
{
    static const char OK_HEADER[] = "{\"a\": {\"dtype\": \"F16\", \"shape\": [2, 3], \"data_offsets\": [0, 12]}}";
    char path[340];
    (void)state;
    /* a length past the end of the file, and one past the reader's limit (sparse) */
    hostile_file("past-end.safetensors", 1000, "{}", 0, TRAINSIZE_E_INVALID);
    hostile_file("huge.safetensors", (uint64_t)TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES + 1, "{}",
                 (uint64_t)TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES, TRAINSIZE_E_LIMIT);
    hostile_file("max-len.safetensors", UINT64_MAX, "{}", 0, TRAINSIZE_E_INVALID);
    /* not JSON; JSON but not an object */
    hostile_file("not-json.safetensors", 0, "{\"a\": [1,", 0, TRAINSIZE_E_PARSE);
    hostile_file("array.safetensors", 0, "[]", 0, TRAINSIZE_E_PARSE);
    /* a shape whose product overflows, or that is not sizes */
    hostile_file("overflow.safetensors", 0,
                 "{\"a\": {\"dtype\": \"U8\", \"shape\": [4294967296, 4294967296, 4], \"data_offsets\": [0, 0]}}",
                 0, TRAINSIZE_E_OVERFLOW);
    hostile_file("negative.safetensors", 0, "{\"a\": {\"dtype\": \"U8\", \"shape\": [-2], \"data_offsets\": [0, 0]}}", 0,
                 TRAINSIZE_E_INVALID);
    /* offsets outside the data, or not the tensor's size; a tensor without its keys */
    hostile_file("outside.safetensors", 0, OK_HEADER, 6, TRAINSIZE_E_INVALID);
    hostile_file("wrong-size.safetensors", 0, "{\"a\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 12]}}",
                 24, TRAINSIZE_E_INVALID);
    hostile_file("no-dtype.safetensors", 0, "{\"a\": {\"shape\": [2, 3], \"data_offsets\": [0, 12]}}", 12,
                 TRAINSIZE_E_INVALID);
    /* shorter than its length field */
    path_in(path, sizeof path, "short.safetensors");
    write_text(path, "abc");
    expect_refused(path, TRAINSIZE_E_INVALID);
    /* a FIFO is refused before any read (a read would wait for a writer) */
    path_in(path, sizeof path, "fifo.safetensors");
    assert_int_equal(mkfifo(path, 0600), 0);
    expect_refused(path, TRAINSIZE_E_IO);
    /* missing */
    path_in(path, sizeof path, "missing.safetensors");
    expect_refused(path, TRAINSIZE_E_IO);
    /* the well-formed header reads */
    path_in(path, sizeof path, "ok.safetensors");
    write_raw(path, strlen(OK_HEADER), OK_HEADER, 12);
    {
        trainsize_checkpoint ck;
        assert_int_equal(trainsize_checkpoint_read(path, &ck, NULL), TRAINSIZE_OK);
        assert_int_equal(ck.parameters, 6);
    }
}

/* An index naming a shard that is missing, one outside its folder, or no weight_map. */
static void test_hostile_indexes(void **state)
{
    char path[340];
    (void)state;
    path_in(path, sizeof path, "missing-shard.index.json");
    write_text(path, "{\"weight_map\": {\"a\": \"gone-00001.safetensors\"}}");
    {
        trainsize_error err;
        trainsize_checkpoint ck;
        assert_int_equal(trainsize_checkpoint_read(path, &ck, &err), TRAINSIZE_E_IO);
        assert_non_null(strstr(err.message, "gone-00001.safetensors"));
    }
    path_in(path, sizeof path, "escape.index.json");
    write_text(path, "{\"weight_map\": {\"a\": \"../../etc/x.safetensors\"}}");
    expect_refused(path, TRAINSIZE_E_INVALID);
    path_in(path, sizeof path, "no-map.index.json");
    write_text(path, "{\"metadata\": {}}");
    expect_refused(path, TRAINSIZE_E_PARSE);
    path_in(path, sizeof path, "empty-map.index.json");
    write_text(path, "{\"weight_map\": {}}");
    expect_refused(path, TRAINSIZE_E_INVALID);
}

/* The job is unchanged when any step fails: a folder without config.json. */
static void test_failure_leaves_the_job(void **state)
{
    tensor t[32];
    size_t n = tiny_tensors(t, 32);
    char dir[300], file[340], before[64], after[64];
    trainsize_checkpoint ck;
    trainsize_error err;
    trainsize_job *job = trainsize_job_new();
    (void)state;
    path_in(dir, sizeof dir, "no-config");
    assert_int_equal(mkdir(dir, 0755), 0);
    snprintf(file, sizeof file, "%s/model.safetensors", dir);
    write_tensors(file, t, n);
    assert_int_equal(trainsize_job_set(job, "model", "llama-3-8b", &err), TRAINSIZE_OK);
    assert_true(trainsize_job_get(job, "layers", before, sizeof before, NULL) > 0);
    assert_int_equal(trainsize_job_load_checkpoint(job, dir, NULL, &ck, &err), TRAINSIZE_E_IO);
    assert_non_null(strstr(err.message, "config.json"));
    assert_true(trainsize_job_get(job, "layers", after, sizeof after, NULL) > 0);
    assert_string_equal(before, after);
    assert_int_equal(ck.parameters, 0);
    trainsize_job_free(job);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_file_counted_exactly),
        cmocka_unit_test(test_sharded_checkpoint),
        cmocka_unit_test(test_headers_win_over_the_config),
        cmocka_unit_test(test_hf_cache_layout),
        cmocka_unit_test(test_hub_cache_from_the_environment),
        cmocka_unit_test(test_hostile_headers),
        cmocka_unit_test(test_hostile_indexes),
        cmocka_unit_test(test_failure_leaves_the_job),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* Finding a model's snapshot in the Hugging Face hub cache, laid out as huggingface_hub
 * writes it (huggingface_hub's "Understand caching" guide and constants.py):
 *
 *   <cache>/models--ORG--NAME/refs/main            the commit id "main" points at
 *   <cache>/models--ORG--NAME/snapshots/<commit>/  config.json, model.safetensors, ...
 *
 * The cache is $HF_HUB_CACHE, else the older $HUGGINGFACE_HUB_CACHE, else $HF_HOME/hub,
 * else $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "file_read.h"

#define FIELD "hf-model"
#define PART_MAX 96
#define COMMIT_LEN 40
#define REF_MAX_BYTES 256
#define PATH_MAX_BYTES 4096

int trainsize_hf_hub_cache(char *buf, size_t cap)
{
    const char *v;
    int n;
    if ((v = getenv("HF_HUB_CACHE")) && *v) n = snprintf(buf, cap, "%s", v);
    else if ((v = getenv("HUGGINGFACE_HUB_CACHE")) && *v) n = snprintf(buf, cap, "%s", v);
    else if ((v = getenv("HF_HOME")) && *v) n = snprintf(buf, cap, "%s/hub", v);
    else if ((v = getenv("XDG_CACHE_HOME")) && *v) n = snprintf(buf, cap, "%s/huggingface/hub", v);
    else if ((v = getenv("HOME")) && *v) n = snprintf(buf, cap, "%s/.cache/huggingface/hub", v);
    else return TRAINSIZE_E_UNKNOWN;
    return n < 0 ? TRAINSIZE_E_UNKNOWN : n;
}

/* One part of an id (ORG or NAME): 1 to PART_MAX of letters, digits, '-', '_', '.', no
 * "..", not ".". */
static int id_part(const char *s, size_t n)
{
    size_t i;
    if (n == 0 || n > PART_MAX || (n == 1 && s[0] == '.')) return 0;
    for (i = 0; i < n; i++) {
        if (!isalnum((unsigned char)s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.') return 0;
        if (s[i] == '.' && i + 1 < n && s[i + 1] == '.') return 0;
    }
    return 1;
}

static int is_commit(const char *s)
{
    size_t i;
    for (i = 0; i < COMMIT_LEN; i++)
        if (!isxdigit((unsigned char)s[i]) || isupper((unsigned char)s[i])) return 0;
    return s[COMMIT_LEN] == '\0';
}

/* A branch or tag as a ref file's path under refs/: letters, digits, '-', '_', '.', '/'
 * (refs/pr/1), no "..", no leading '/'. */
static int ref_name(const char *s)
{
    size_t i, n = strlen(s);
    if (n == 0 || n > PART_MAX || s[0] == '/' || strstr(s, "..")) return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("-_./", s[i])) return 0;
    return 1;
}

int trainsize_hf_snapshot(const char *hub_cache, const char *id, const char *revision, char *buf, size_t cap,
                          trainsize_error *err)
{
    char repo[PATH_MAX_BYTES], ref[PATH_MAX_BYTES], commit[COMMIT_LEN + 1];
    const char *slash, *name;
    size_t org_len, name_len, len;
    char *text;
    int n, rc;
    if (!hub_cache || !id || !buf || cap == 0)
        return ts_fail(err, TRAINSIZE_E_ARGUMENT, FIELD, FIELD ": NULL cache, id or buffer");
    slash = strchr(id, '/');
    name = slash ? slash + 1 : id;
    org_len = slash ? (size_t)(slash - id) : 0;
    name_len = strlen(name);
    if ((slash && !id_part(id, org_len)) || !id_part(name, name_len))
        return ts_fail(err, TRAINSIZE_E_INVALID, FIELD,
                       FIELD ": \"%.120s\" is not a Hub id (ORG/NAME: letters, digits, '-', '_', '.')", id);
    n = slash ? snprintf(repo, sizeof repo, "%s/models--%.*s--%s", hub_cache, (int)org_len, id, name)
              : snprintf(repo, sizeof repo, "%s/models--%s", hub_cache, name);
    if (n < 0 || (size_t)n >= sizeof repo)
        return ts_fail(err, TRAINSIZE_E_LIMIT, FIELD, FIELD ": the cache path is too long");
    if (!ts_is_dir(repo))
        return ts_fail(err, TRAINSIZE_E_UNKNOWN, FIELD,
                       FIELD ": %.100s is not in the Hugging Face cache (searched %.150s)", id, repo);
    if (!revision || !*revision) revision = "main";
    if (is_commit(revision)) {
        memcpy(commit, revision, sizeof commit);
    } else {
        if (!ref_name(revision))
            return ts_fail(err, TRAINSIZE_E_INVALID, "revision", "revision: \"%.100s\" is not a revision name",
                           revision);
        n = snprintf(ref, sizeof ref, "%s/refs/%s", repo, revision);
        if (n < 0 || (size_t)n >= sizeof ref)
            return ts_fail(err, TRAINSIZE_E_LIMIT, FIELD, FIELD ": the cache path is too long");
        if (ts_read_file(ref, REF_MAX_BYTES, FIELD, &text, &len, NULL) != TRAINSIZE_OK)
            return ts_fail(err, TRAINSIZE_E_UNKNOWN, "revision",
                           "revision: %.100s has no revision \"%.60s\" in the cache (searched %.150s)", id, revision,
                           ref);
        while (len && isspace((unsigned char)text[len - 1])) len--;
        rc = len == COMMIT_LEN;
        if (rc) {
            memcpy(commit, text, COMMIT_LEN);
            commit[COMMIT_LEN] = '\0';
            rc = is_commit(commit);
        }
        free(text);
        if (!rc) return ts_fail(err, TRAINSIZE_E_INVALID, FIELD, FIELD ": %.150s does not hold a commit id", ref);
    }
    n = snprintf(buf, cap, "%s/snapshots/%s", repo, commit);
    if (n < 0 || (size_t)n >= cap)
        return ts_fail(err, TRAINSIZE_E_LIMIT, FIELD, FIELD ": the snapshot path is too long");
    if (!ts_is_dir(buf))
        return ts_fail(err, TRAINSIZE_E_UNKNOWN, FIELD, FIELD ": %.100s: no snapshot %s in the cache (searched %.150s)",
                       id, commit, buf);
    return ts_ok(err);
}

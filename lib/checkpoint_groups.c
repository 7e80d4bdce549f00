/* A checkpoint's tensors grouped by name prefix, and which groups a model's shape does not
 * explain.
 *
 * Names vary by family (Llama's "model.layers.3.mlp.up_proj.weight", GPT-2's
 * "h.3.mlp.c_fc.weight", LLaVA's "vision_tower.vision_model.encoder.layers.3..."), so no
 * list of names is kept: a tensor's group is its name up to the first numeric component
 * (a layer, block or expert index), else its name without the last component (the
 * parameter's attribute: weight, bias). Which groups the shape explains is decided by
 * counts: the shape's embedding, output layer and norm match groups of exactly their size;
 * the shape's remaining count goes to the layer stacks, then the rest, largest first. A
 * group that gets less than it holds is (partly) what the config did not describe. */
#define _POSIX_C_SOURCE 200809L

#include "checkpoint_groups.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"
#include "text_format.h"

#define KEY_CAP sizeof(((trainsize_checkpoint_group *)0)->name)
/* Checkpoints hold a few dozen prefixes (a multimodal model about twenty); a header of
 * hostile names fills the table and the rest goes to "(other)". */
#define SLOTS 1024u
#define SLOTS_USED_MAX (SLOTS * 3 / 4)
#define OTHER "(other)"
/* An index beyond this is not a layer count anyone trains; kept from overflowing +1. */
#define INDEX_MAX 1000000000000ull

typedef struct group {
    char key[KEY_CAP];
    uint64_t parameters, tensors, layers;
} group;

struct ts_groups {
    group slot[SLOTS];
    size_t used;
    group other; /* the prefixes past SLOTS_USED_MAX */
};

ts_groups *ts_groups_new(void) { return calloc(1, sizeof(ts_groups)); }

void ts_groups_free(ts_groups *g) { free(g); }

static int numeric(const char *s, size_t n)
{
    size_t i;
    if (n == 0) return 0;
    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return 0;
    return 1;
}

/* name -> its group's key (cut to whole UTF-8 characters), and the index at "#" + 1 (0
 * without one). */
static uint64_t group_key(const char *name, char *key)
{
    const char *c = name, *last_dot = strrchr(name, '.');
    size_t n = last_dot ? (size_t)(last_dot - name) : strlen(name);
    uint64_t layers = 0;
    char buf[512];
    while (*c) {
        const char *dot = strchr(c, '.');
        size_t len = dot ? (size_t)(dot - c) : strlen(c);
        if (numeric(c, len)) {
            size_t i;
            for (i = 0; i < len && layers <= INDEX_MAX; i++) layers = layers * 10 + (uint64_t)(c[i] - '0');
            layers = (layers > INDEX_MAX ? INDEX_MAX : layers) + 1;
            n = (size_t)(c - name);
            break;
        }
        if (!dot) break;
        c = dot + 1;
    }
    /* the prefix, "#" where the index stood */
    snprintf(buf, sizeof buf, "%.*s%s", (int)(n < 400 ? n : 400), name, layers ? "#" : "");
    if (!buf[0]) snprintf(buf, sizeof buf, "%s", "(unnamed)");
    snprintf(key, KEY_CAP, "%.*s", (int)ts_utf8_prefix(buf, strnlen(buf, KEY_CAP - 1)), buf);
    ts_text_tidy(key, KEY_CAP); /* a header's bytes, printed later */
    return layers;
}

static size_t key_hash(const char *s)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h % SLOTS;
}

static void add_to(group *g, uint64_t elements, uint64_t layers)
{
    /* each sum is at most the checkpoint's total, which the reader checks for overflow */
    g->parameters += elements;
    g->tensors++;
    if (layers > g->layers) g->layers = layers;
}

void ts_groups_add(ts_groups *g, const char *name, uint64_t elements)
{
    char key[KEY_CAP];
    uint64_t layers = group_key(name, key);
    size_t i = key_hash(key);
    while (g->slot[i].key[0] && strcmp(g->slot[i].key, key) != 0) i = (i + 1) % SLOTS;
    if (!g->slot[i].key[0]) {
        if (g->used == SLOTS_USED_MAX) {
            add_to(&g->other, elements, 0);
            return;
        }
        memcpy(g->slot[i].key, key, KEY_CAP);
        g->used++;
    }
    add_to(&g->slot[i], elements, layers);
}

static int by_parameters(const void *a, const void *b)
{
    const group *x = *(const group *const *)a, *y = *(const group *const *)b;
    if (x->parameters != y->parameters) return x->parameters < y->parameters ? 1 : -1;
    return strcmp(x->key, y->key);
}

static void put(trainsize_checkpoint_group *out, const group *g)
{
    memset(out, 0, sizeof *out);
    memcpy(out->name, g->key, sizeof out->name);
    out->parameters = g->parameters;
    out->tensors = g->tensors;
    out->layers = g->layers;
}

void ts_groups_finish(const ts_groups *g, trainsize_checkpoint *ck)
{
    const group *list[SLOTS];
    group rest = g->other;
    size_t n = 0, i, keep;
    for (i = 0; i < SLOTS; i++)
        if (g->slot[i].key[0]) list[n++] = &g->slot[i];
    qsort(list, n, sizeof list[0], by_parameters);
    /* all of them when they fit, else the largest and "(other)" for the rest */
    keep = n + (rest.tensors ? 1 : 0) <= TRAINSIZE_CHECKPOINT_GROUPS ? n : TRAINSIZE_CHECKPOINT_GROUPS - 1;
    for (i = 0; i < keep; i++) put(&ck->groups[i], list[i]);
    for (; i < n; i++) {
        rest.parameters += list[i]->parameters;
        rest.tensors += list[i]->tensors;
    }
    ck->group_count = (uint32_t)keep;
    if (rest.tensors) {
        snprintf(rest.key, sizeof rest.key, "%s", OTHER);
        rest.layers = 0;
        put(&ck->groups[ck->group_count++], &rest);
    }
}

/* ---- against the shape ---- */

static void take(trainsize_checkpoint_group *g, uint64_t *budget, int *done)
{
    uint64_t t = g->parameters < *budget ? g->parameters : *budget;
    *budget -= t;
    g->unexplained = g->parameters - t;
    *done = 1;
}

/* Whether `name` shares the stack's first component ("model." in "model.layers.#"). */
static int same_parent(const char *name, const char *stack)
{
    const char *dot = stack ? strchr(stack, '.') : NULL;
    return dot && strncmp(name, stack, (size_t)(dot - stack) + 1) == 0;
}

void ts_checkpoint_explain(trainsize_checkpoint *ck, const ts_param_counts *pc, uint64_t described)
{
    /* what of the shape lies outside its layers, one tensor group each in a checkpoint */
    const uint64_t pieces[] = {pc->token_embedding, pc->position_embedding, pc->output_layer,
                               pc->final_norm,      pc->head,               pc->patch_embedding};
    int matched[sizeof pieces / sizeof pieces[0]] = {0}, done[TRAINSIZE_CHECKPOINT_GROUPS] = {0}, pass;
    uint64_t budget = described;
    size_t i, p, n = ck->group_count < TRAINSIZE_CHECKPOINT_GROUPS ? ck->group_count : TRAINSIZE_CHECKPOINT_GROUPS;
    const char *stack = NULL;
    for (i = 0; i < n; i++) {
        ck->groups[i].unexplained = 0;
        if (!stack && strchr(ck->groups[i].name, '#')) stack = ck->groups[i].name;
    }
    /* Equal counts (a value head of hidden elements, a final norm of as many) are told
     * apart by where they sit: first the groups beside the largest layer stack ("model.norm"
     * beside "model.layers.#"), then the others. */
    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < n; i++) {
            trainsize_checkpoint_group *g = &ck->groups[i];
            if (done[i] || strchr(g->name, '#') || strcmp(g->name, OTHER) == 0 ||
                (pass == 0 && !same_parent(g->name, stack)))
                continue;
            for (p = 0; p < sizeof pieces / sizeof pieces[0]; p++)
                if (!matched[p] && pieces[p] && pieces[p] == g->parameters) {
                    matched[p] = 1;
                    take(g, &budget, &done[i]);
                    break;
                }
        }
    /* groups are sorted by size: the stacks, then the rest, each the largest first */
    for (i = 0; i < n; i++)
        if (!done[i] && strchr(ck->groups[i].name, '#')) take(&ck->groups[i], &budget, &done[i]);
    for (i = 0; i < n; i++)
        if (!done[i]) take(&ck->groups[i], &budget, &done[i]);
}

/* A group's name for a reader: "#" as the index range it spans ("layers.0-23"). */
static void readable_name(const trainsize_checkpoint_group *g, char *buf, size_t cap)
{
    const char *hash = strchr(g->name, '#');
    if (!hash || !g->layers) {
        snprintf(buf, cap, "%s", g->name);
    } else if (g->layers == 1) {
        snprintf(buf, cap, "%.*s0%s", (int)(hash - g->name), g->name, hash + 1);
    } else {
        snprintf(buf, cap, "%.*s0-%llu%s", (int)(hash - g->name), g->name, (unsigned long long)(g->layers - 1),
                 hash + 1);
    }
}

static int by_unexplained(const void *a, const void *b)
{
    const trainsize_checkpoint_group *x = *(const trainsize_checkpoint_group *const *)a,
                                     *y = *(const trainsize_checkpoint_group *const *)b;
    if (x->unexplained != y->unexplained) return x->unexplained < y->unexplained ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* Room kept for the closing "; and N more (COUNT)". */
#define TAIL_ROOM 40

void ts_checkpoint_describe_extra(const trainsize_checkpoint *ck, char *buf, size_t cap)
{
    const trainsize_checkpoint_group *list[TRAINSIZE_CHECKPOINT_GROUPS];
    size_t n = 0, i, used = 0, more;
    uint64_t left = 0;
    char total[TS_FMT_MAX];
    if (!cap) return;
    buf[0] = '\0';
    for (i = 0; i < ck->group_count && i < TRAINSIZE_CHECKPOINT_GROUPS; i++)
        if (ck->groups[i].unexplained) list[n++] = &ck->groups[i];
    qsort(list, n, sizeof list[0], by_unexplained);
    for (i = 0; i < n; i++) {
        char name[KEY_CAP + 48], a[TS_FMT_MAX], b[TS_FMT_MAX], entry[sizeof name + 2 * TS_FMT_MAX + 8];
        size_t reserve = i + 1 < n ? TAIL_ROOM : 0, len;
        readable_name(list[i], name, sizeof name);
        ts_fmt_count(a, sizeof a, list[i]->unexplained);
        if (list[i]->unexplained < list[i]->parameters)
            snprintf(entry, sizeof entry, "%s%s %s of %s", i ? "; " : "", name, a,
                     ts_fmt_count(b, sizeof b, list[i]->parameters));
        else
            snprintf(entry, sizeof entry, "%s%s %s", i ? "; " : "", name, a);
        len = strlen(entry);
        if (used + len + reserve >= cap) break;
        memcpy(buf + used, entry, len + 1);
        used += len;
    }
    if (i == n) return;
    more = n - i;
    for (; i < n; i++) left += list[i]->unexplained;
    snprintf(buf + used, cap - used, "%sand %zu more (%s)", used ? "; " : "", more,
             ts_fmt_count(total, sizeof total, left));
}

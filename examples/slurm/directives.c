/* Reading the plugin's text inputs, bounded and without allocation (see directives.h). */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "directives.h"

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* strlen, looking at no more than max bytes (strnlen is POSIX, not C11). */
static size_t bounded_len(const char *s, size_t max)
{
    const char *nul = memchr(s, '\0', max);
    return nul ? (size_t)(nul - s) : max;
}

size_t tsd_escape(char *out, size_t cap, const char *s, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    size_t used = 0, i;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c <= 0x7e) {
            if (used + 1 >= cap) break;
            out[used++] = (char)c;
        } else {
            if (used + 4 >= cap) break; /* a whole \xHH or none of it */
            out[used++] = '\\';
            out[used++] = 'x';
            out[used++] = hex[c >> 4];
            out[used++] = hex[c & 15];
        }
    }
    out[used] = '\0';
    return used;
}

/* ---- Option names and where their values come from. ---- */

static char fold(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }
static int ignored(char c) { return c == '-' || c == '_'; }

/* The name rule: ASCII case, '-' and '_' do not tell names apart. */
static int same_name(const char *a, const char *b)
{
    for (;;) {
        while (ignored(*a)) a++;
        while (ignored(*b)) b++;
        if (*a == '\0' || *b == '\0') return *a == *b;
        if (fold(*a) != fold(*b)) return 0;
        a++;
        b++;
    }
}

/* The command's options that read a file: not in the catalogue, never taken per job. */
static const char *const FILE_OPTIONS[] = {"hf-config", "gpu-file"};

/* The hardware, by the rule of directives.h: what the allocation gives, then what the
 * site's nodes are. Everything else in the catalogue is the job's to say. */
static const char *const ALLOCATION_OPTIONS[] = {"gpus", "gpus-per-node"};
static const char *const SITE_OPTIONS[] = {"gpu",       "gpu-memory",    "host-ram",
                                           "cpu-cores", "nics-per-node", "host-memory-bandwidth",
                                           "network",   "storage",       "rack-power-watts",
                                           "nvls",      "sharp",         "gpu-power-limit",
                                           "servers-per-rack", "local-cache-bytes",
                                           /* servers racked beside the job's, to replace one */
                                           "spare-nodes",
                                           /* how fast the site's machines run: its calibration's */
                                           "gemm-share", "scale-up-efficiency", "network-efficiency"};

/* GPUs a job uses beside the training ones: its own to say, inside its allocation. */
static const char *const WITHIN_OPTIONS[] = {"rollout-gpus", "critic-gpus", "reward-gpus"};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int listed(const char *const *list, size_t n, const char *name)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (strcmp(list[i], name) == 0) return 1;
    return 0;
}

const char *tsd_option_name(const char *given)
{
    size_t i, n = trainsize_param_count();
    if (!given || !*given) return NULL;
    for (i = 0; i < n; i++) {
        const trainsize_param_info *p = trainsize_param_at(i);
        if (p && same_name(p->name, given)) return p->name;
    }
    for (i = 0; i < COUNT(FILE_OPTIONS); i++)
        if (same_name(FILE_OPTIONS[i], given)) return FILE_OPTIONS[i];
    return NULL;
}

tsd_source tsd_option_source(const char *name)
{
    if (!name || listed(FILE_OPTIONS, COUNT(FILE_OPTIONS), name)) return TSD_FILE;
    if (listed(ALLOCATION_OPTIONS, COUNT(ALLOCATION_OPTIONS), name)) return TSD_ALLOCATION;
    if (listed(SITE_OPTIONS, COUNT(SITE_OPTIONS), name)) return TSD_SITE;
    if (listed(WITHIN_OPTIONS, COUNT(WITHIN_OPTIONS), name)) return TSD_WITHIN;
    return TSD_JOB;
}

/* ---- A job's options. ---- */

/* Copy [s, s + n) into the pairs' text; NULL when it is full. */
static const char *keep(tsd_pairs *p, const char *s, size_t n)
{
    char *at = p->text + p->used;
    if (p->used + n + 1 > sizeof p->text) return NULL;
    memcpy(at, s, n);
    at[n] = '\0';
    p->used += n + 1;
    return at;
}

static int add_pair(tsd_pairs *p, const char *name, size_t nlen, const char *value, size_t vlen)
{
    const char *n, *v;
    if (p->count == TSD_MAX_PAIRS || !(n = keep(p, name, nlen)) || !(v = keep(p, value, vlen)))
        return -1;
    p->name[p->count] = n;
    p->value[p->count] = v;
    p->count++;
    return 0;
}

/* The next whitespace-separated token of [*s, end): its start and length, *s after it. */
static size_t next_token(const char **s, const char *end, const char **tok)
{
    const char *p = *s;
    while (p < end && is_space(*p)) p++;
    *tok = p;
    while (p < end && !is_space(*p)) p++;
    *s = p;
    return (size_t)(p - *tok);
}

/* "not an option" for a token, escaped: what the job wrote comes back printable. */
static void not_an_option(const char *tok, size_t n, char *why, size_t cap)
{
    char shown[4 * 40 + 1];
    tsd_escape(shown, sizeof shown, tok, n > 40 ? 40 : n);
    snprintf(why, cap, "not an option: \"%s%s\" (directives are the command's --options)", shown,
             n > 40 ? "..." : "");
}

/* The options of [s, end): --name value, --name=value, or --name alone (true) before
 * another option or at the end. */
static int options(const char *s, const char *end, tsd_pairs *out, char *why, size_t cap)
{
    const char *tok, *peek_at;
    size_t n;
    while ((n = next_token(&s, end, &tok)) > 0) {
        const char *eq, *peek;
        size_t pn;
        if (n < 3 || tok[0] != '-' || tok[1] != '-') {
            not_an_option(tok, n, why, cap);
            return -1;
        }
        tok += 2;
        n -= 2;
        eq = memchr(tok, '=', n);
        if (eq) {
            if (add_pair(out, tok, (size_t)(eq - tok), eq + 1, n - (size_t)(eq - tok) - 1)) goto full;
            continue;
        }
        peek_at = s;
        pn = next_token(&peek_at, end, &peek);
        if (pn == 0 || (pn >= 2 && peek[0] == '-' && peek[1] == '-')) {
            if (add_pair(out, tok, n, "true", 4)) goto full; /* a flag */
        } else {
            if (add_pair(out, tok, n, peek, pn)) goto full;
            s = peek_at;
        }
    }
    return 0;
full:
    snprintf(why, cap, "too many directives (at most %d options, %d bytes)", TSD_MAX_PAIRS, TSD_TEXT_MAX);
    return -1;
}

/* The #TRAINSIZE lines of the whole script: 1 when there is one, 0 when none, -1. */
static int script_options(const char *script, tsd_pairs *out, char *why, size_t cap)
{
    static const char mark[] = "#TRAINSIZE";
    const size_t mlen = sizeof mark - 1;
    const char *s = script, *stop = script + strlen(script);
    int found = 0;
    while (s < stop) {
        const char *eol = memchr(s, '\n', (size_t)(stop - s));
        const char *line_end = eol ? eol : stop;
        size_t len = (size_t)(line_end - s);
        if (len >= mlen && memcmp(s, mark, mlen) == 0 && (len == mlen || is_space(s[mlen]))) {
            found = 1;
            if (options(s + mlen, line_end, out, why, cap)) return -1;
        }
        s = eol ? eol + 1 : stop;
    }
    return found;
}

/* The options after a comment's "trainsize:" prefix, if it has one. */
static const char *comment_options(const char *comment)
{
    static const char prefix[] = "trainsize:";
    const char *c = comment;
    if (!c) return NULL;
    while (is_space(*c)) c++;
    return strncmp(c, prefix, sizeof prefix - 1) == 0 ? c + sizeof prefix - 1 : NULL;
}

int tsd_job_options(const char *script, const char *comment, tsd_pairs *out, char *why, size_t cap)
{
    const char *c = comment_options(comment);
    int found;
    size_t n;
    memset(out, 0, sizeof *out);
    found = script ? script_options(script, out, why, cap) : 0;
    if (found < 0) return -1;
    if (found && c) {
        snprintf(why, cap, "directives in both the script (#TRAINSIZE) and the comment (trainsize:); "
                 "give them in one place");
        return -1;
    }
    if (found || !c) return found;
    n = bounded_len(c, TSD_COMMENT_MAX + 1);
    if (n > TSD_COMMENT_MAX) {
        snprintf(why, cap, "the comment's directives are longer than %d bytes; put them in the "
                 "script's #TRAINSIZE lines", TSD_COMMENT_MAX);
        return -1;
    }
    return options(c, c + n, out, why, cap) ? -1 : 1;
}

/* One of the settings a calibration holds (the library's list). */
static int calibrated(const char *name)
{
    size_t i;
    for (i = 0; i < trainsize_calibration_setting_count(); i++)
        if (strcmp(name, trainsize_calibration_setting_at(i)) == 0) return 1;
    return 0;
}

/* Why a directive may not set `name` (NULL when it may). */
static const char *refusal(const char *name, const tsd_config *cfg)
{
    switch (tsd_option_source(name)) {
    case TSD_FILE: return "reads a file; the plugin reads none per job: use --model and shape options";
    case TSD_ALLOCATION:
        return "is set by the job's allocation, not by a directive (request GPUs with --gres=gpu:N and "
               "--nodes, or --gpus=N)";
    case TSD_SITE:
        if (cfg && listed(cfg->may_set, cfg->may_sets, name)) return NULL; /* job-may-set */
        return "is set by the site (trainsize.conf), not by a directive";
    case TSD_WITHIN: /* checked against the allocation once read (tsd_rollout_split) */
    case TSD_JOB: break;
    }
    if (cfg && cfg->calibration[0] && calibrated(name))
        return "is set by the site's calibration (trainsize.conf calibration), not by a directive";
    return cfg && listed(cfg->may_not_set, cfg->may_not_sets, name)
               ? "is set by the site (trainsize.conf job-may-not-set), not by a directive"
               : NULL;
}

int tsd_job_check(tsd_pairs *own, const tsd_config *cfg, char *why, size_t cap)
{
    size_t i, j;
    for (i = 0; i < own->count; i++) {
        const char *name = tsd_option_name(own->name[i]), *no;
        if (!name) {
            char shown[4 * 40 + 1];
            size_t n = strlen(own->name[i]);
            tsd_escape(shown, sizeof shown, own->name[i], n > 40 ? 40 : n);
            snprintf(why, cap, "--%s%s: unknown option", shown, n > 40 ? "..." : "");
            return -1;
        }
        if ((no = refusal(name, cfg)) != NULL) {
            tsd_source from = tsd_option_source(name);
            snprintf(why, cap, "--%s %s", name, no);
            return from == TSD_ALLOCATION || from == TSD_SITE ? TSD_CLAIM : -1;
        }
        for (j = 0; j < i; j++)
            if (own->name[j] == name) {
                snprintf(why, cap, "--%s is given twice; give it once", name);
                return -1;
            }
        own->name[i] = name;
    }
    return 0;
}

/* ---- GPU requests. ---- */

/* One request's GPU type: the first kept, a second different one refused. */
static int note_type(tsd_gpus *gpus, const char *type, size_t len, int *typed)
{
    if (len >= sizeof gpus->type) return -1;
    if (*typed && (strlen(gpus->type) != len || memcmp(gpus->type, type, len) != 0)) return -1;
    memcpy(gpus->type, type, len);
    gpus->type[len] = '\0';
    *typed = 1;
    return 0;
}

int tsd_gpu_request(const char *tres, int per_node, tsd_gpus *gpus)
{
    const char *s = tres;
    int typed = gpus->per_node + gpus->per_job > 0;
    while (s && *s) {
        const char *end = s + strcspn(s, ",;"), *p = s, *last, *type = NULL;
        size_t type_len = 0;
        uint64_t count = 0, *into = per_node ? &gpus->per_node : &gpus->per_job;
        if (strncmp(p, "gres:", 5) == 0 || strncmp(p, "gres/", 5) == 0) p += 5;
        if (end - p >= 3 && strncmp(p, "gpu", 3) == 0 && (p + 3 == end || p[3] == ':' || p[3] == '=')) {
            /* gpu[:TYPE]:COUNT or gpu[:TYPE]=COUNT: the count is after the last separator */
            last = end;
            while (last > p && last[-1] != ':' && last[-1] != '=') last--;
            if (last == p + 3 || last <= p) return -1;
            if (last - 1 > p + 3) {
                type = p + 4;
                type_len = (size_t)(last - 1 - type);
            }
            for (p = last; p < end; p++) {
                if (*p < '0' || *p > '9' || count > TSD_GPUS_MAX) return -1;
                count = count * 10 + (uint64_t)(*p - '0');
            }
            if (last == end || count > TSD_GPUS_MAX || *into + count > TSD_GPUS_MAX) return -1;
            if (note_type(gpus, type ? type : "", type_len, &typed)) return -1;
            *into += count;
        }
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* The GPUs beside the training ones come out of the allocation; the training GPUs are the
 * rest. A claim beyond it would size the training on GPUs the job does not have (or the
 * engines, the critic or the reward model on GPUs no one allocated), and admit a job that
 * does not fit what it runs on. */
int tsd_rollout_split(const tsd_gpus *alloc, const tsd_side *side, tsd_gpus *train, char *why, size_t cap)
{
    static const char *const NAMES[] = {"--rollout-gpus", "--critic-gpus", "--reward-gpus"};
    const uint64_t counts[] = {side->rollout, side->critic, side->reward};
    const unsigned long long all = alloc->per_job, per_node = alloc->per_node;
    unsigned long long r = 0, left;
    char claim[160];
    size_t i, used = 0, named = 0;
    *train = *alloc;
    claim[0] = '\0';
    for (i = 0; i < COUNT(counts); i++) {
        if (!counts[i]) continue;
        r = counts[i] > ULLONG_MAX - r ? ULLONG_MAX : r + counts[i]; /* saturates, never wraps */
        used += (size_t)snprintf(claim + used, sizeof claim - used, "%s%s %llu", named++ ? " + " : "", NAMES[i],
                                 (unsigned long long)counts[i]);
        if (used >= sizeof claim) used = sizeof claim - 1;
    }
    if (r == 0) return 0;
    if (named > 1) snprintf(claim + used, sizeof claim - used, " (%llu GPUs)", r);
    if (r >= alloc->per_job) {
        snprintf(why, cap, "%s does not fit inside the job's allocation of %llu GPU%s: the GPUs beside "
                 "training come out of it, and at least one GPU must be left to train (request more "
                 "with --gres=gpu:N and --nodes, or --gpus=N)", claim, all, all == 1 ? "" : "s");
        return -1;
    }
    left = all - r;
    /* more than a server's GPUs train on whole servers, the others on the rest */
    if (per_node && left > per_node && left % per_node != 0) {
        snprintf(why, cap, "%s leaves %llu of the allocation's %llu GPUs to train, which do "
                 "not fill whole servers of %llu (the GPUs beside training take whole servers, or share "
                 "one server with all the training GPUs)", claim, left, all, per_node);
        return -1;
    }
    train->per_job = left;
    return 0;
}

/* ---- trainsize.conf. ---- */

/* [s, e) without surrounding spaces. */
static void trim(const char **s, const char **e)
{
    while (*s < *e && is_space(**s)) (*s)++;
    while (*e > *s && is_space((*e)[-1])) (*e)--;
}

static int key_is(const char *k, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(k, word, n) == 0;
}

/* The option named by [s, s + n) (NULL when none, or too long to be one). */
static const char *option_in(const char *s, size_t n)
{
    char name[64];
    if (n >= sizeof name) return NULL;
    memcpy(name, s, n);
    name[n] = '\0';
    return tsd_option_name(name);
}

/* job-may-set / job-may-not-set = NAME, NAME...: canonical names into `list`. */
static int policy_list(const char *v, size_t vn, int may_set, tsd_config *cfg, unsigned line, char *why,
                       size_t cap)
{
    const char *s = v, *end = v + vn;
    const char **list = may_set ? cfg->may_set : cfg->may_not_set;
    size_t *count = may_set ? &cfg->may_sets : &cfg->may_not_sets;
    while (s < end) {
        const char *e = memchr(s, ',', (size_t)(end - s)), *b = s, *name;
        if (!e) e = end;
        s = e < end ? e + 1 : end;
        trim(&b, &e);
        if (b == e) continue;
        if (!(name = option_in(b, (size_t)(e - b)))) {
            snprintf(why, cap, "line %u: \"%.*s\" is not an option", line, (int)(e - b > 40 ? 40 : e - b), b);
            return -1;
        }
        if (may_set && tsd_option_source(name) != TSD_SITE) {
            snprintf(why, cap, "line %u: job-may-set takes the site's hardware options (gpu, gpu-memory, "
                     "host-ram, cpu-cores, nics-per-node, host-memory-bandwidth, network, storage, "
                     "rack-power-watts, servers-per-rack, local-cache-bytes, spare-nodes), not %s", line,
                     name);
            return -1;
        }
        if (*count == TSD_MAX_PAIRS) {
            snprintf(why, cap, "line %u: too many options", line);
            return -1;
        }
        list[(*count)++] = name;
    }
    return 0;
}

/* One `key = value` line into the configuration (or the section `into`). */
static int config_line(const char *kb, size_t kn, const char *vb, size_t vn, tsd_config *cfg, tsd_pairs *into,
                       unsigned line, char *why, size_t cap)
{
    const char *name;
    if (kn > 10 && memcmp(kb, "gres-type.", 10) == 0) {
        size_t i = cfg->gres_types;
        if (i == TSD_GRES_TYPES || kn - 10 >= sizeof cfg->gres_type[0] || vn >= sizeof cfg->gres_gpu[0]) {
            snprintf(why, cap, "line %u: too many or too long gres-type mappings", line);
            return -1;
        }
        memcpy(cfg->gres_type[i], kb + 10, kn - 10);
        memcpy(cfg->gres_gpu[i], vb, vn);
        if (!trainsize_gpu_find(cfg->gres_gpu[i])) {
            snprintf(why, cap, "line %u: %s is not a catalogue GPU (trainsize gpus)", line, cfg->gres_gpu[i]);
            return -1;
        }
        cfg->gres_types++;
        return 0;
    }
    if (key_is(kb, kn, "calibration")) {
        if (into != &cfg->global || vn == 0 || vn >= sizeof cfg->calibration) {
            snprintf(why, cap, "line %u: calibration = PATH belongs before the first [partition] section, a path "
                     "of 1 to %zu bytes", line, sizeof cfg->calibration - 1);
            return -1;
        }
        memcpy(cfg->calibration, vb, vn);
        cfg->calibration[vn] = '\0';
        return 0;
    }
    if (key_is(kb, kn, "admit-on")) {
        int *at = into == &cfg->global ? &cfg->admit_on : &cfg->section_admit_on[into - cfg->section];
        if (key_is(vb, vn, "estimate")) *at = TSD_ADMIT_ESTIMATE;
        else if (key_is(vb, vn, "high")) *at = TSD_ADMIT_HIGH;
        else {
            snprintf(why, cap, "line %u: admit-on takes estimate or high, not \"%.*s\"", line,
                     (int)(vn > 40 ? 40 : vn), vb);
            return -1;
        }
        return 0;
    }
    if (key_is(kb, kn, "set-mem")) {
        cfg->set_mem = key_is(vb, vn, "yes") || key_is(vb, vn, "true");
        return 0;
    }
    if (key_is(kb, kn, "job-may-set") || key_is(kb, kn, "job-may-not-set")) {
        if (into != &cfg->global) {
            snprintf(why, cap, "line %u: %.*s belongs before the first [partition] section", line, (int)kn,
                     kb);
            return -1;
        }
        return policy_list(vb, vn, key_is(kb, kn, "job-may-set"), cfg, line, why, cap);
    }
    if (!(name = option_in(kb, kn)) || tsd_option_source(name) == TSD_FILE) {
        snprintf(why, cap, "line %u: \"%.*s\" is not an option the plugin takes", line,
                 (int)(kn > 40 ? 40 : kn), kb);
        return -1;
    }
    if (add_pair(into, name, strlen(name), vb, vn)) {
        snprintf(why, cap, "line %u: too many settings in one section", line);
        return -1;
    }
    return 0;
}

/* No option both given to jobs and kept from them. */
static int policy_consistent(const tsd_config *cfg, char *why, size_t cap)
{
    size_t i;
    for (i = 0; i < cfg->may_sets; i++)
        if (listed(cfg->may_not_set, cfg->may_not_sets, cfg->may_set[i])) {
            snprintf(why, cap, "%s is in both job-may-set and job-may-not-set", cfg->may_set[i]);
            return -1;
        }
    return 0;
}

int tsd_config_parse(const char *text, size_t len, tsd_config *cfg, char *why, size_t cap)
{
    const char *s = text, *stop = text + len;
    tsd_pairs *into = &cfg->global;
    unsigned line = 0;
    memset(cfg, 0, sizeof *cfg);
    while (s < stop) {
        const char *eol = memchr(s, '\n', (size_t)(stop - s)), *e = eol ? eol : stop, *eq;
        const char *b = s;
        line++;
        s = eol ? eol + 1 : stop;
        trim(&b, &e);
        if (b == e || *b == '#') continue;
        if (*b == '[') {
            static const char kw[] = "[partition ";
            size_t n = (size_t)(e - b);
            if (n < sizeof kw + 1 || memcmp(b, kw, sizeof kw - 1) != 0 || e[-1] != ']' ||
                cfg->sections == TSD_SECTIONS || n - sizeof kw >= sizeof cfg->section_name[0]) {
                snprintf(why, cap, "line %u: expected [partition NAME] (at most %d sections)", line,
                         TSD_SECTIONS);
                return -1;
            }
            memcpy(cfg->section_name[cfg->sections], b + sizeof kw - 1, n - sizeof kw);
            cfg->section_name[cfg->sections][n - sizeof kw] = '\0';
            into = &cfg->section[cfg->sections++];
            continue;
        }
        eq = memchr(b, '=', (size_t)(e - b));
        if (!eq) {
            snprintf(why, cap, "line %u: expected key = value", line);
            return -1;
        }
        {
            const char *kb = b, *ke = eq, *vb = eq + 1, *ve = e;
            trim(&kb, &ke);
            trim(&vb, &ve);
            if (kb == ke || vb == ve) {
                snprintf(why, cap, "line %u: a key and a value are needed", line);
                return -1;
            }
            if (config_line(kb, (size_t)(ke - kb), vb, (size_t)(ve - vb), cfg, into, line, why, cap))
                return -1;
        }
    }
    return policy_consistent(cfg, why, cap);
}

const tsd_pairs *tsd_config_section(const tsd_config *cfg, const char *partition)
{
    size_t i;
    for (i = 0; partition && i < cfg->sections; i++)
        if (strcmp(cfg->section_name[i], partition) == 0) return &cfg->section[i];
    return NULL;
}

int tsd_config_admit_on(const tsd_config *cfg, const char *partition)
{
    size_t i;
    if (!cfg) return TSD_ADMIT_ESTIMATE;
    /* the section tsd_config_section gives the job (the first of that name) */
    for (i = 0; partition && i < cfg->sections; i++)
        if (strcmp(cfg->section_name[i], partition) == 0) {
            if (cfg->section_admit_on[i] != TSD_ADMIT_UNSET) return cfg->section_admit_on[i];
            break;
        }
    return cfg->admit_on == TSD_ADMIT_HIGH ? TSD_ADMIT_HIGH : TSD_ADMIT_ESTIMATE;
}

const char *tsd_config_gres_gpu(const tsd_config *cfg, const char *type)
{
    size_t i;
    for (i = 0; type && *type && i < cfg->gres_types; i++)
        if (strcmp(cfg->gres_type[i], type) == 0) return cfg->gres_gpu[i];
    return NULL;
}

/* The last `gpu` a set of pairs gives (they apply in order), or NULL. */
static const char *pairs_gpu(const tsd_pairs *p)
{
    const char *gpu = NULL;
    size_t i;
    for (i = 0; p && i < p->count; i++)
        if (strcmp(p->name[i], "gpu") == 0) gpu = p->value[i];
    return gpu;
}

const char *tsd_config_gpu(const tsd_config *cfg, const char *partition, const char *gres_type,
                           int *from_type)
{
    const char *gpu;
    *from_type = 0;
    if (!cfg) return NULL;
    if ((gpu = tsd_config_gres_gpu(cfg, gres_type)) != NULL) {
        *from_type = 1;
        return gpu;
    }
    if ((gpu = pairs_gpu(tsd_config_section(cfg, partition))) != NULL) return gpu;
    return pairs_gpu(&cfg->global);
}

/* Reading the plugin's text inputs, bounded and without allocation (see directives.h). */
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
            snprintf(why, cap, "not an option: \"%.*s\" (directives are the command's --options)",
                     (int)(n > 40 ? 40 : n), tok);
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

int tsd_job_options(const char *script, const char *comment, tsd_pairs *out, char *why, size_t cap)
{
    static const char mark[] = "#TRAINSIZE", prefix[] = "trainsize:";
    int found = 0;
    memset(out, 0, sizeof *out);
    if (script) {
        const char *s = script, *stop = script + bounded_len(script, TSD_SCRIPT_SCAN);
        while (s < stop) {
            const char *eol = memchr(s, '\n', (size_t)(stop - s));
            const char *line_end = eol ? eol : stop;
            size_t len = (size_t)(line_end - s);
            if (len >= sizeof mark - 1 && memcmp(s, mark, sizeof mark - 1) == 0 &&
                (len == sizeof mark - 1 || is_space(s[sizeof mark - 1]))) {
                found = 1;
                if (options(s + sizeof mark - 1, line_end, out, why, cap)) return -1;
            }
            s = eol ? eol + 1 : stop;
        }
    }
    if (!found && comment) {
        const char *c = comment;
        while (is_space(*c)) c++;
        if (strncmp(c, prefix, sizeof prefix - 1) == 0) {
            c += sizeof prefix - 1;
            found = 1;
            if (options(c, c + bounded_len(c, TSD_TEXT_MAX), out, why, cap)) return -1;
        }
    }
    return found;
}

int tsd_gpu_request(const char *tres, int per_node, tsd_gpus *gpus)
{
    const char *s = tres;
    while (s && *s) {
        const char *end = s + strcspn(s, ",;"), *p = s, *last, *type = NULL;
        size_t type_len = 0;
        uint64_t count = 0;
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
                if (*p < '0' || *p > '9' || count > 1000000) return -1;
                count = count * 10 + (uint64_t)(*p - '0');
            }
            if (last == end) return -1;
            if (per_node) gpus->per_node += count;
            else gpus->per_job += count;
            if (type && type_len < sizeof gpus->type) {
                memcpy(gpus->type, type, type_len);
                gpus->type[type_len] = '\0';
            }
        }
        s = *end ? end + 1 : end;
    }
    return 0;
}

/* [s, e) without surrounding spaces. */
static void trim(const char **s, const char **e)
{
    while (*s < *e && is_space(**s)) (*s)++;
    while (*e > *s && is_space((*e)[-1])) (*e)--;
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
            size_t kn, vn;
            trim(&kb, &ke);
            trim(&vb, &ve);
            kn = (size_t)(ke - kb);
            vn = (size_t)(ve - vb);
            if (kn == 0 || vn == 0) {
                snprintf(why, cap, "line %u: a key and a value are needed", line);
                return -1;
            }
            if (kn > 10 && memcmp(kb, "gres-type.", 10) == 0) {
                size_t i = cfg->gres_types;
                if (i == TSD_GRES_TYPES || kn - 10 >= sizeof cfg->gres_type[0] || vn >= sizeof cfg->gres_gpu[0]) {
                    snprintf(why, cap, "line %u: too many or too long gres-type mappings", line);
                    return -1;
                }
                memcpy(cfg->gres_type[i], kb + 10, kn - 10);
                memcpy(cfg->gres_gpu[i], vb, vn);
                cfg->gres_types++;
            } else if (kn == 7 && memcmp(kb, "set-mem", 7) == 0) {
                cfg->set_mem = (vn == 3 && memcmp(vb, "yes", 3) == 0) || (vn == 4 && memcmp(vb, "true", 4) == 0);
            } else if (add_pair(into, kb, kn, vb, vn)) {
                snprintf(why, cap, "line %u: too many settings in one section", line);
                return -1;
            }
        }
    }
    return 0;
}

const tsd_pairs *tsd_config_section(const tsd_config *cfg, const char *partition)
{
    size_t i;
    for (i = 0; partition && i < cfg->sections; i++)
        if (strcmp(cfg->section_name[i], partition) == 0) return &cfg->section[i];
    return NULL;
}

const char *tsd_config_gres_gpu(const tsd_config *cfg, const char *type)
{
    size_t i;
    for (i = 0; type && *type && i < cfg->gres_types; i++)
        if (strcmp(cfg->gres_type[i], type) == 0) return cfg->gres_gpu[i];
    return NULL;
}

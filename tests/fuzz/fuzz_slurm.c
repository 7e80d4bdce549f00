/* Fuzz target: the Slurm plugin, its readers and job_submit itself. The plugin's source is
 * compiled in (for its site configuration, which a fuzzed trainsize.conf replaces), with
 * stand-ins for the slurmctld functions it calls. An input is fields separated by NUL
 * bytes:
 *     FLAGS \0 trainsize.conf \0 script \0 comment \0 tres_per_node \0 tres_per_job \0 partition
 *     \0 job name
 * FLAGS' first byte's bits (a field holds no NUL: seeds use 0x40 plus these): 1 an earlier
 * plugin's message is in err_msg, 2 no err_msg at all, 4 no script (srun, salloc), 8 no
 * trainsize.conf, 16 a job id an administrator gave (else NO_VAL, as for a new job); its
 * second byte, if any, the job's --nodes. Any
 * input must give a status and, at the prompt, one line of printable text: never a
 * crash, a hang, a leak or a raw control byte. */
#include "job_submit_trainsize.c"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* slurmctld's functions, as Slurm's: xstrcat appends, or starts the string when NULL. */
void slurm_xstrcat(char **str1, const char *str2)
{
    size_t had = *str1 ? strlen(*str1) : 0, n = strlen(str2) + 1;
    char *p = realloc(*str1, had + n);
    if (!p) abort();
    memcpy(p + had, str2, n);
    *str1 = p;
}
void slurm_info(const char *fmt, ...) { (void)fmt; }
void slurm_error(const char *fmt, ...) { (void)fmt; }

enum { EARLIER_MESSAGE = 1, NO_ERR_MSG = 2, NO_SCRIPT = 4, NO_CONFIG = 8, JOB_ID = 16 };
#define FIELDS 8

/* The message a job sees is printable ASCII, whatever it wrote. */
static void check_printable(const char *msg)
{
    const unsigned char *p;
    for (p = (const unsigned char *)msg; p && *p; p++)
        if (*p < 0x20 || *p > 0x7e) abort();
}

/* The site's trainsize.conf, parsed as init() would have read it. */
static void load_config(const char *text, int none)
{
    char why[256];
    config_loaded = !none && tsd_config_parse(text, strlen(text), &config, why, sizeof why) == 0;
    if (!config_loaded) memset(&config, 0, sizeof config);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy = malloc(size + 1), *field[FIELDS], *err = NULL;
    size_t i, n = 0;
    unsigned flags, nodes;
    job_desc_msg_t d;
    if (!copy) return 0;
    memcpy(copy, data, size);
    copy[size] = '\0';
    field[n++] = copy;
    for (i = 0; i < size && n < FIELDS; i++)
        if (copy[i] == '\0') field[n++] = copy + i + 1;
    while (n < FIELDS) field[n++] = copy + size;
    flags = (unsigned char)field[0][0];
    nodes = field[0][0] ? (unsigned char)field[0][1] : 0;
    load_config(field[1], (flags & NO_CONFIG) != 0);
    memset(&d, 0, sizeof d);
    d.script = (flags & NO_SCRIPT) ? NULL : field[2];
    d.comment = field[3][0] ? field[3] : NULL;
    d.tres_per_node = field[4][0] ? field[4] : NULL;
    d.tres_per_job = field[5][0] ? field[5] : NULL;
    d.partition = field[6][0] ? field[6] : NULL;
    d.name = field[7][0] ? field[7] : NULL;
    d.job_id = (flags & JOB_ID) ? 4242 : NO_VAL;
    d.min_nodes = nodes ? nodes : NO_VAL;
    d.pn_min_memory = NO_VAL64;
    if (flags & EARLIER_MESSAGE) slurm_xstrcat(&err, "lua: checked");
    (void)job_submit(&d, 1000, (flags & NO_ERR_MSG) ? NULL : &err);
    check_printable(err);
    free(err);
    free(copy);
    return 0;
}

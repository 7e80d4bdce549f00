#define _POSIX_C_SOURCE 200809L /* setenv */
/* The job_submit/trainsize plugin loaded as slurmctld loads it (dlopen), with stand-ins
 * for the slurmctld functions it calls (slurm_xstrcat, slurm_info, slurm_error: exported
 * by this executable; slurm_xstrdup too, for an earlier plugin's message; the strings
 * they hand out are counted), and job_submit called on hand-built job descriptions.
 * Usage: test_slurm_plugin PLUGIN.so DIR (DIR holds trainsize.conf, DIR/trusting another). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trainsize.h" /* TRAINSIZE_VERSION_STRING: the library the plugin was built with */
#include <sys/stat.h>
#include <unistd.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#define EXPORTED __attribute__((visibility("default")))

EXPORTED char *slurm_xstrdup(const char *str);
EXPORTED void slurm_xstrcat(char **str1, const char *str2);
EXPORTED void slurm_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
EXPORTED void slurm_error(const char *fmt, ...);

/* Strings handed out and not yet given back: a message lost in the chain shows here. */
static int live_strings;

char *slurm_xstrdup(const char *str)
{
    size_t n = strlen(str) + 1;
    char *p = malloc(n);
    if (p) {
        memcpy(p, str, n);
        live_strings++;
    }
    return p;
}
/* As Slurm's: appends, or starts the string when *str1 is NULL. */
void slurm_xstrcat(char **str1, const char *str2)
{
    size_t had = *str1 ? strlen(*str1) : 0, n = strlen(str2) + 1;
    char *p = realloc(*str1, had + n);
    if (!p) abort();
    if (!*str1) live_strings++;
    memcpy(p + had, str2, n);
    *str1 = p;
}
static void xfree_stand_in(char *p)
{
    if (p) live_strings--;
    free(p);
}
static char last_info[512]; /* what the plugin last logged at info level */
void slurm_info(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(last_info, sizeof last_info, fmt, ap);
    va_end(ap);
}
void slurm_error(const char *fmt, ...) { (void)fmt; }

static const char *plugin_path, *conf_dir;
static void *handle;
static int (*job_submit)(job_desc_msg_t *, uint32_t, char **);
static int (*plugin_init)(void);

/* init() with trainsize.conf read from DIR (beside DIR/slurm.conf), as slurmctld would
 * after a restart; a hung read is a failure, not a hung test. */
static int init_from(const char *dir)
{
    char conf[1024];
    int rc;
    snprintf(conf, sizeof conf, "%s/slurm.conf", dir);
    setenv("SLURM_CONF", conf, 1);
    alarm(10);
    rc = plugin_init();
    alarm(0);
    return rc;
}

static int load(void **state)
{
    (void)state;
    handle = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) fprintf(stderr, "%s\n", dlerror());
    assert_non_null(handle);
    assert_string_equal((const char *)dlsym(handle, "plugin_type"), "job_submit/trainsize");
    *(void **)&plugin_init = dlsym(handle, "init");
    *(void **)&job_submit = dlsym(handle, "job_submit");
    assert_non_null(plugin_init);
    assert_non_null(job_submit);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
    /* loaded: slurmctld's log says so, naming the configuration and the library */
    if (!strstr(last_info, "job_submit/trainsize: loaded ") || !strstr(last_info, "trainsize.conf (libtrainsize "))
        fail_msg("no 'loaded' line in the log: \"%s\"", last_info);
    return 0;
}

static int unload(void **state)
{
    (void)state;
    dlclose(handle);
    return 0;
}

static void describe(job_desc_msg_t *d, char *script, char *gres_per_node, uint32_t nodes)
{
    memset(d, 0, sizeof *d);
    d->script = script;
    d->tres_per_node = gres_per_node;
    d->min_nodes = nodes;
    d->pn_min_memory = NO_VAL64;
}

/* Run job_submit; returns its status, the message in msg (freed here). */
static int submit(job_desc_msg_t *d, char *msg, size_t cap)
{
    char *err = NULL;
    int before = live_strings, rc = job_submit(d, 1000, &err);
    snprintf(msg, cap, "%s", err ? err : "");
    xfree_stand_in(err);
    assert_int_equal(live_strings, before);
    return rc;
}

/* Submit a batch script on --gres=gpu:8; its status, its message in msg. */
static int submit_script(const char *script, char *msg, size_t cap)
{
    static char copy[200000];
    job_desc_msg_t d;
    snprintf(copy, sizeof copy, "%s", script);
    describe(&d, copy, "gres:gpu:8", 1);
    return submit(&d, msg, cap);
}

/* Does msg start with prefix? */
static int starts(const char *msg, const char *prefix) { return strncmp(msg, prefix, strlen(prefix)) == 0; }

/* The plugin's message is one line of printable ASCII. */
static void assert_printable(const char *msg)
{
    const unsigned char *p;
    for (p = (const unsigned char *)msg; *p; p++)
        if (*p < 0x20 || *p > 0x7e)
            fail_msg("byte 0x%02x at %d of \"%s\"", *p, (int)(p - (const unsigned char *)msg), msg);
}

static void test_not_ours(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    describe(&d, "#!/bin/sh\nsrun hostname\n", "gres:gpu:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_SUCCESS);
    assert_string_equal(msg, "");
}

static void test_fits(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model llama-2-7b --zero 3 --seq 4096\n", "gres:gpu:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_SUCCESS);
    assert_true(strncmp(msg, "trainsize: fits: peak ", 22) == 0);
    assert_non_null(strstr(msg, "a100-80gb")); /* the site's GPU, from trainsize.conf */
    assert_true(d.pn_min_memory != NO_VAL64 && d.pn_min_memory > 0); /* set-mem = yes */
}

static void test_does_not_fit(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model llama-2-70b --seq 4096\n", "gres:gpu:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_true(strncmp(msg, "trainsize: does not fit: peak ", 30) == 0);
    assert_non_null(strstr(msg, "fits with --")); /* the first fit advice */
}

/* The GPUs hold it, the nodes' host RAM (trainsize.conf: 1 TiB) does not: 405B with its
 * parameters and optimizer state offloaded to the CPU needs about 7.5 TiB per node. */
static void test_host_ram_short(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model llama-3.1-405b --zero 3 --offload optimizer+params "
                 "--seq 2048 --recompute full\n", "gres:gpu:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_true(strncmp(msg, "trainsize: host RAM short: the job needs ", 41) == 0);
}

static void test_gres_type_and_bad_directive(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2\n", "gres:gpu:h100:2", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_SUCCESS);
    assert_non_null(strstr(msg, "h100-80gb")); /* gres-type.h100 = h100-80gb */
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model no-such-model\n", "gres:gpu:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_true(strncmp(msg, "trainsize: model: unknown preset", 32) == 0);
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2\n", NULL, 1);
    assert_int_equal(submit(&d, msg, sizeof msg), ESLURM_INVALID_GRES);
    describe(&d, NULL, NULL, 1);
    d.comment = "trainsize: --model gpt2 --hf-config /etc/passwd";
    d.tres_per_job = "gres:gpu:1";
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "--hf-config reads a file"));
}

/* The hardware is the allocation's and the site's: a llama-2-70b ZeRO-3 job does not fit
 * 8 a100-80gb (180.6 GiB per GPU), and no directive makes it fit, however it is spelled. */
static void test_hardware_is_not_the_jobs(void **state)
{
    static const char *const said[][2] = {
        {"--gpus 64", "--gpus is set by the job's allocation, not by a directive"},
        {"--gpus=64", "--gpus is set by the job's allocation"},
        {"--GPUS 64", "--gpus is set by the job's allocation"},
        {"--gpus-per_node 1", "--gpus-per-node is set by the job's allocation"},
        {"--gpu-memory 1e15", "--gpu-memory is set by the site (trainsize.conf), not by a directive"},
        {"--gpu_memory=1PB", "--gpu-memory is set by the site"},
        {"--Gpu-Memory 1e15", "--gpu-memory is set by the site"},
        {"--gpu gb300", "--gpu is set by the site"},
        {"--GPU gb300", "--gpu is set by the site"},
        {"--host-ram 100TiB", "--host-ram is set by the site"},
        {"--cpu-cores 1000", "--cpu-cores is set by the site"},
        {"--network ib-xdr", "--network is set by the site"},
        {"--spare-nodes 64", "--spare-nodes is set by the site"},
    };
    char script[256], msg[512];
    size_t i;
    (void)state;
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-70b --zero 3 --recompute full\n", msg, sizeof msg),
                     ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_non_null(strstr(msg, "a100-80gb"));
    for (i = 0; i < sizeof said / sizeof said[0]; i++) {
        snprintf(script, sizeof script, "#TRAINSIZE --model llama-2-70b --zero 3 --recompute full %s\n",
                 said[i][0]);
        assert_int_equal(submit_script(script, msg, sizeof msg), SLURM_ERROR);
        if (!strstr(msg, said[i][1])) fail_msg("%s: \"%s\"", said[i][0], msg);
        /* a claim names the job: it has no id yet, so the user who submitted it */
        if (!starts(msg, "trainsize: job (uid 1000): --")) fail_msg("%s: \"%s\"", said[i][0], msg);
    }
}

/* A job of an RL method on an allocation of `gres` per node on `nodes`, named `name`,
 * with `directives` after "#TRAINSIZE --method grpo --rollout separate"; its status, its
 * message in msg. */
static int submit_rl(const char *gres, uint32_t nodes, char *name, const char *directives, char *msg, size_t cap)
{
    static char script[1024], request[64];
    job_desc_msg_t d;
    snprintf(script, sizeof script, "#!/bin/sh\n#TRAINSIZE --method grpo --rollout separate %s\nsrun true\n",
             directives);
    snprintf(request, sizeof request, "%s", gres);
    describe(&d, script, request, nodes);
    d.name = name;
    d.job_id = NO_VAL; /* as slurmctld hands a new job to the plugins */
    return submit(&d, msg, cap);
}

/* The rollout engines' GPUs (rollout separate) come out of the allocation: a job sized on
 * its training GPUs plus engines beside them was admitted on GPUs it does not have. */
static void test_rollout_inside_the_allocation(void **state)
{
    static const char *const outside[][2] = {
        /* beyond the allocation, all of it, in any spelling or form the library reads */
        {"--model gpt2 --rollout-gpus 16", "--rollout-gpus 16 does not fit inside the job's allocation of 8 GPUs"},
        {"--model gpt2 --rollout-gpus 8", "--rollout-gpus 8 does not fit inside the job's allocation of 8 GPUs"},
        {"--model gpt2 --Rollout_GPUs=9", "--rollout-gpus 9 does not fit"},
        {"--model gpt2 --rollout-gpus 1e3", "--rollout-gpus 1000 does not fit"},
        {"--model gpt2 --rollout-gpus 1e7", "--rollout-gpus 10000000 does not fit"},
        {"--model gpt2 --rollout-gpus +8", "--rollout-gpus 8 does not fit"},
        {"--model gpt2 --rollout-gpus 0008", "--rollout-gpus 8 does not fit"},
    };
    static const char *const malformed[][2] = {
        /* what the library refuses to read, with its own reason */
        {"--model gpt2 --rollout-gpus 1e30", "rollout-gpus: expected an integer from 0 to 10000000"},
        {"--model gpt2 --rollout-gpus 99999999999999999999999", "rollout-gpus: expected an integer"},
        {"--model gpt2 --rollout-gpus -1", "rollout-gpus: expected an integer"},
        {"--model gpt2 --rollout-gpus 8GiB", "rollout-gpus: \"8GiB\" has a unit it does not take"},
        {"--model gpt2 --rollout-gpus 1.5", "rollout-gpus: expected an integer"},
        {"--model gpt2 --rollout-gpus 0x10", "rollout-gpus: \"0x10\" has a unit"},
        {"--model gpt2 --rollout-gpus", "rollout-gpus: "}, /* a flag: "true" */
        {"--model gpt2 --rollout-gpus 0", "rollout separate needs the engines' GPUs"},
        {"--model gpt2 --rollout-gpus= 4", "not an option: \"4\""},
        {"--model gpt2 --rollout-gpus 4 --rollout_gpus 4", "--rollout-gpus is given twice"},
    };
    char msg[1024], name[] = "rl.sh";
    size_t i;
    (void)state;
    /* inside: 4 of the 8 GPUs train, 4 run the engines */
    assert_int_equal(submit_rl("gres:gpu:8", 1, name, "--model gpt2 --rollout-gpus 4", msg, sizeof msg),
                     SLURM_SUCCESS);
    if (!starts(msg, "trainsize: fits: peak ") ||
        !strstr(msg, " on a100-80gb (training on 4 of the 8 GPUs, 4 for rollout); host RAM "))
        fail_msg("\"%s\"", msg);
    /* sized on the GPUs that train: llama-2-13b under ZeRO-3 fits 8 a100-80gb (71.3 GiB),
     * not the 4 left beside 4 engines (95.1 GiB), which the plugin used to admit */
    assert_int_equal(submit_rl("gres:gpu:8", 1, name, "--model llama-2-13b --zero 3 --seq 4096 --rollout-gpus 4",
                               msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    if (!starts(msg, "trainsize: does not fit: peak ") ||
        !strstr(msg, "on a100-80gb (training on 4 of the 8 GPUs, 4 for rollout)"))
        fail_msg("\"%s\"", msg);
    for (i = 0; i < sizeof outside / sizeof outside[0]; i++) {
        assert_int_equal(submit_rl("gres:gpu:8", 1, name, outside[i][0], msg, sizeof msg), SLURM_ERROR);
        /* the job and one reason, on one printable line */
        if (!starts(msg, "trainsize: job \"rl.sh\" (uid 1000): --rollout-gpus ") ||
            !strstr(msg, outside[i][1]) || !strstr(msg, "at least one GPU must be left to train"))
            fail_msg("%s: \"%s\"", outside[i][0], msg);
        assert_printable(msg);
    }
    for (i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        assert_int_equal(submit_rl("gres:gpu:8", 1, name, malformed[i][0], msg, sizeof msg), SLURM_ERROR);
        if (!strstr(msg, malformed[i][1])) fail_msg("%s: \"%s\"", malformed[i][0], msg);
        assert_printable(msg);
    }
    /* engines without rollout separate: the library's refusal */
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --rollout-gpus 4\n", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "rollout-gpus: GPUs of their own belong to rollout separate"));
    /* a request for the job (--gpus=8) is the same allocation */
    {
        job_desc_msg_t d;
        describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2 --method grpo --rollout separate --rollout-gpus 4\n",
                 NULL, 1);
        d.tres_per_job = "gres:gpu:8";
        assert_int_equal(submit(&d, msg, sizeof msg), SLURM_SUCCESS);
        assert_non_null(strstr(msg, "(training on 4 of the 8 GPUs, 4 for rollout)"));
        describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2 --method grpo --rollout separate --rollout-gpus 9\n",
                 NULL, 1);
        d.tres_per_job = "gres:gpu:8";
        assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
        assert_non_null(strstr(msg, "--rollout-gpus 9 does not fit inside the job's allocation of 8 GPUs"));
    }
}

/* Across servers: the training GPUs fill whole servers (or share one with the engines). */
static void test_rollout_across_servers(void **state)
{
    char msg[1024], name[] = "rl.sh";
    (void)state;
    assert_int_equal(submit_rl("gres:gpu:8", 2, name, "--model gpt2 --rollout-gpus 8", msg, sizeof msg),
                     SLURM_SUCCESS);
    assert_non_null(strstr(msg, "(training on 8 of the 16 GPUs, 8 for rollout)"));
    assert_int_equal(submit_rl("gres:gpu:8", 2, name, "--model gpt2 --rollout-gpus 12", msg, sizeof msg),
                     SLURM_SUCCESS);
    assert_non_null(strstr(msg, "(training on 4 of the 16 GPUs, 12 for rollout)"));
    assert_int_equal(submit_rl("gres:gpu:8", 2, name, "--model gpt2 --rollout-gpus 4", msg, sizeof msg),
                     SLURM_ERROR);
    assert_string_equal(msg, "trainsize: job \"rl.sh\" (uid 1000): --rollout-gpus 4 leaves 12 of the allocation's "
                             "16 GPUs to train, which do not fill whole servers of 8 (the GPUs beside training "
                             "take whole servers, or share one server with all the training GPUs)");
    assert_int_equal(submit_rl("gres:gpu:8", 2, name, "--model gpt2 --rollout-gpus 17", msg, sizeof msg),
                     SLURM_ERROR);
    assert_non_null(strstr(msg, "--rollout-gpus 17 does not fit inside the job's allocation of 16 GPUs"));
}

/* A ppo job on 4 servers of 8 GPUs, its engines, reward model and critic on GPUs of their
 * own (8, 8 and `critic`); its status, its message in msg. */
static int submit_ppo(char *name, const char *critic, char *msg, size_t cap)
{
    static char script[512], request[] = "gres:gpu:8";
    job_desc_msg_t d;
    snprintf(script, sizeof script,
             "#!/bin/sh\n#TRAINSIZE --model gpt2 --method ppo --rollout separate --rollout-gpus 8 --reward-model "
             "gpt2 --reward-gpus 8 --critic-gpus %s\nsrun true\n", critic);
    describe(&d, script, request, 4);
    d.name = name;
    d.job_id = NO_VAL;
    return submit(&d, msg, cap);
}

/* ppo's critic and a reward model on GPUs of their own come out of the allocation beside
 * the engines': sized on what is left, refused when together they take it all. */
static void test_critic_and_reward_inside_the_allocation(void **state)
{
    char msg[1024], name[] = "ppo.sh";
    (void)state;
    assert_int_equal(submit_ppo(name, "8", msg, sizeof msg), SLURM_SUCCESS);
    assert_non_null(strstr(msg, "(training on 8 of the 32 GPUs; beside them 8 for rollout, 8 for the critic, 8 for "
                                "the reward model)"));
    assert_int_equal(submit_ppo(name, "16", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "--rollout-gpus 8 + --critic-gpus 16 + --reward-gpus 8 (32 GPUs) does not fit "
                                "inside the job's allocation of 32 GPUs"));
}

/* What names a job in a refused claim: an id when an administrator gave one, its name
 * (bounded, escaped), the user who submitted it. */
static void test_claim_names_the_job(void **state)
{
    char msg[1024], name[200], *err = NULL;
    job_desc_msg_t d;
    (void)state;
    assert_int_equal(submit_rl("gres:gpu:8", 1, NULL, "--model gpt2 --rollout-gpus 8", msg, sizeof msg),
                     SLURM_ERROR);
    assert_true(starts(msg, "trainsize: job (uid 1000): --rollout-gpus 8 "));
    memset(name, 'n', sizeof name - 1);
    name[sizeof name - 1] = '\0';
    name[3] = '\033';
    assert_int_equal(submit_rl("gres:gpu:8", 1, name, "--model gpt2 --rollout-gpus 8", msg, sizeof msg),
                     SLURM_ERROR);
    assert_printable(msg);
    assert_true(starts(msg, "trainsize: job \"nnn\\x1bnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn...\" (uid 1000): "
                             "--rollout-gpus 8 does not fit"));
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2 --GPUS 64\n", "gres:gpu:8", 1);
    d.job_id = 4242;
    d.name = "train.sh";
    assert_int_equal(job_submit(&d, 7, &err), SLURM_ERROR);
    assert_string_equal(err, "trainsize: job 4242 \"train.sh\" (uid 7): --gpus is set by the job's allocation, "
                             "not by a directive (request GPUs with --gres=gpu:N and --nodes, or --gpus=N)");
    xfree_stand_in(err);
    /* a claim's message follows an earlier plugin's */
    err = slurm_xstrdup("lua: note");
    d.script = "#!/bin/sh\n#TRAINSIZE --model gpt2 --method grpo --rollout separate --rollout-gpus 8\n";
    assert_int_equal(job_submit(&d, 7, &err), SLURM_ERROR);
    assert_true(starts(err, "lua: note; trainsize: job 4242 \"train.sh\" (uid 7): --rollout-gpus 8 "));
    xfree_stand_in(err);
}

/* A directive given twice, or directives in both the script and the comment, are refused:
 * which one was meant is not for the plugin to guess. */
static void test_ambiguous_directives(void **state)
{
    job_desc_msg_t d;
    char msg[512];
    (void)state;
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-7b --micro-batch 16 --seq 4096\n"
                                   "#TRAINSIZE --micro_batch 1\n", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "--micro-batch is given twice"));
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2\n", "gres:gpu:8", 1);
    d.comment = "trainsize: --model llama-2-70b";
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "both"));
    /* a claim in each place: neither is taken */
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2 --method grpo --rollout separate --rollout-gpus 4\n",
             "gres:gpu:8", 1);
    d.comment = "trainsize: --rollout-gpus 64";
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "both"));
}

/* Input longer than what is read is refused, never cut: a comment past 2 KiB (cut, its
 * --micro-batch 16 read as 1 and a 467.9 GiB job admitted), a script's directive line
 * across the old 64 KiB scan limit, and directives beyond it. */
static void test_long_input_is_refused_or_read_whole(void **state)
{
    static char comment[4096], script[140000];
    job_desc_msg_t d;
    char msg[512];
    size_t n;
    (void)state;
    n = (size_t)snprintf(comment, sizeof comment, "trainsize: --model llama-2-7b --zero 3 --seq 4096");
    memset(comment + n, ' ', 2043 - n); /* the old cut fell on the "6" */
    snprintf(comment + 2043, sizeof comment - 2043, "--micro-batch 16");
    describe(&d, "#!/bin/sh\nsrun true\n", "gres:gpu:8", 1);
    d.comment = comment;
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "longer than"));
    /* a line across byte 65536: its --micro-batch 16 was cut to 1 */
    n = (size_t)snprintf(script, sizeof script, "#!/bin/sh\n");
    while (n < 65536 - 60) n += (size_t)snprintf(script + n, sizeof script - n, "# padding padding\n");
    n += (size_t)snprintf(script + n, sizeof script - n, "#TRAINSIZE --model llama-2-7b --zero 3 --seq 4096 ");
    while (n < 65536 - 15) script[n++] = ' '; /* the old cut fell on the "6" */
    snprintf(script + n, sizeof script - n, "--micro-batch 16\nsrun true\n");
    assert_int_equal(submit_script(script, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    /* directives wholly past byte 65536 */
    n = (size_t)snprintf(script, sizeof script, "#!/bin/sh\n#TRAINSIZE --model llama-2-7b --zero 3\n");
    while (n < 100000) n += (size_t)snprintf(script + n, sizeof script - n, "# padding padding\n");
    snprintf(script + n, sizeof script - n, "#TRAINSIZE --micro-batch 16 --seq 4096\nsrun true\n");
    assert_int_equal(submit_script(script, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
}

/* slurmctld hands every JobSubmitPlugins plugin the same err_msg: an earlier plugin's
 * message stays, ours follows it, nothing is lost or leaked. */
static void test_err_msg_chain(void **state)
{
    job_desc_msg_t d;
    char *err;
    int before = live_strings;
    (void)state;
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2\n", "gres:gpu:8", 1);
    err = slurm_xstrdup("lua: partition set to gpu");
    assert_int_equal(job_submit(&d, 1000, &err), SLURM_SUCCESS);
    assert_non_null(err);
    assert_true(strncmp(err, "lua: partition set to gpu", 25) == 0);
    assert_non_null(strstr(err, "trainsize: fits: peak "));
    assert_int_equal(live_strings, before + 1);
    xfree_stand_in(err);
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model llama-2-70b --gpus 64\n", "gres:gpu:8", 1);
    err = slurm_xstrdup("lua: note");
    assert_int_equal(job_submit(&d, 1000, &err), SLURM_ERROR);
    assert_true(strncmp(err, "lua: note", 9) == 0);
    assert_non_null(strstr(err, "trainsize: job (uid 1000): --gpus is set by the job's allocation"));
    xfree_stand_in(err);
    assert_int_equal(live_strings, before);
}

/* Control bytes in a directive come back escaped: the message is one printable line. */
static void test_control_bytes_escaped(void **state)
{
    char msg[512];
    (void)state;
    assert_int_equal(submit_script("#TRAINSIZE \033[31mred\033[0m --model gpt2\n", msg, sizeof msg),
                     SLURM_ERROR);
    assert_printable(msg);
    assert_non_null(strstr(msg, "not an option"));
    assert_non_null(strstr(msg, "\\x1b[31mred"));
    assert_int_equal(submit_script("#TRAINSIZE --model \033]0;owned\007\x9b" "2J\n", msg, sizeof msg),
                     SLURM_ERROR);
    assert_printable(msg);
    assert_int_equal(submit_script("#TRAINSIZE --mo\033del gpt2\n", msg, sizeof msg), SLURM_ERROR);
    assert_printable(msg);
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --seq \0334096\r\n", msg, sizeof msg),
                     SLURM_ERROR);
    assert_printable(msg);
}

/* trainsize.conf that is not a regular file is refused before it is read: a FIFO would
 * hang slurmctld (an open for reading waits for a writer), /dev/null reads as empty. */
static void test_config_not_a_regular_file(void **state)
{
    char dir[] = "/tmp/trainsize-plugin-XXXXXX", path[256];
    (void)state;
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/trainsize.conf", dir);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(init_from(dir), SLURM_ERROR);
    unlink(path);
    assert_int_equal(symlink("/dev/null", path), 0);
    assert_int_equal(init_from(dir), SLURM_ERROR);
    unlink(path);
    rmdir(dir);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

/* Without trainsize.conf the plugin knows no GPU: a job cannot name one (it would choose
 * the figure it is sized on), so it is let through unsized, saying so. */
static void test_no_config(void **state)
{
    char dir[] = "/tmp/trainsize-plugin-XXXXXX", msg[512];
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(init_from(dir), SLURM_SUCCESS);
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-70b --zero 3 --gpu gb300\n", msg, sizeof msg),
                     SLURM_ERROR);
    assert_non_null(strstr(msg, "--gpu is set by the site"));
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-70b --zero 3\n", msg, sizeof msg), SLURM_SUCCESS);
    assert_true(strncmp(msg, "trainsize: not sized: ", 22) == 0);
    rmdir(dir);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

/* A site may let its jobs name some of the hardware (job-may-set) and keep calibrated
 * overheads for itself (job-may-not-set); a GRES type it maps still names the GPU. */
static void test_site_policy(void **state)
{
    char dir[1024], msg[512];
    job_desc_msg_t d;
    (void)state;
    snprintf(dir, sizeof dir, "%s/trusting", conf_dir);
    assert_int_equal(init_from(dir), SLURM_SUCCESS);
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-70b --zero 3 --recompute full --gpu gb300\n", msg,
                                   sizeof msg), SLURM_SUCCESS);
    assert_non_null(strstr(msg, "on gb300"));
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --storage nfs\n", msg, sizeof msg), SLURM_SUCCESS);
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --gpu-memory 1e15\n", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "--gpu-memory is set by the site"));
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --allocator-slack 0\n", msg, sizeof msg),
                     SLURM_ERROR);
    assert_non_null(strstr(msg, "--allocator-slack is set by the site"));
    describe(&d, "#!/bin/sh\n#TRAINSIZE --model gpt2 --gpu gb300\n", "gres:gpu:h100:8", 1);
    assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "gres-type.h100"));
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

/* Write `text` to DIR/NAME. */
static void write_file(const char *dir, const char *name, const char *text)
{
    char path[512];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* trainsize.conf's calibration = PATH: read once at init (the log says so), applied to
 * every job before the site's settings, its settings kept from directives; a calibration
 * that is not one, or not a regular file, stops the plugin from loading. */
static void test_calibration(void **state)
{
    static const char cal[] =
        "{\"trainsize_calibration\": 1, \"library_version\": \"" TRAINSIZE_VERSION_STRING "\", \"runs\": 4, "
        "\"gpus\": [\"a100-80gb\"], \"settings\": {\"sharded-slack\": 0.4, \"gemm-share\": 0.6}}";
    char dir[] = "/tmp/trainsize-plugin-XXXXXX", conf[1024], path[600], plain[512], msg[512];
    (void)state;
    assert_non_null(mkdtemp(dir));
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-7b --zero 3 --seq 4096\n", plain, sizeof plain),
                     SLURM_SUCCESS);
    write_file(dir, "calibration.json", cal);
    snprintf(conf, sizeof conf, "gpu = a100-80gb\ncalibration = %s/calibration.json\n", dir);
    write_file(dir, "trainsize.conf", conf);
    assert_int_equal(init_from(dir), SLURM_SUCCESS);
    assert_non_null(strstr(last_info, "; calibration "));
    assert_non_null(strstr(last_info, "calibration.json"));
    /* the same job: fits, with the calibrated reserve a larger peak than the plain one */
    assert_int_equal(submit_script("#TRAINSIZE --model llama-2-7b --zero 3 --seq 4096\n", msg, sizeof msg),
                     SLURM_SUCCESS);
    assert_true(strncmp(msg, "trainsize: fits: peak ", 22) == 0);
    assert_true(strtod(msg + 22, NULL) > strtod(plain + 22, NULL));
    /* a directive cannot take the calibration's settings back */
    assert_int_equal(submit_script("#TRAINSIZE --model gpt2 --sharded-slack 0\n", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "--sharded-slack is set by the site's calibration"));
    /* one that is not a calibration, one that is missing, one that is a FIFO: no plugin */
    write_file(dir, "calibration.json", "{\"trainsize_calibration\": 1, \"settings\": {\"hfu\": 1}}");
    assert_int_equal(init_from(dir), SLURM_ERROR);
    snprintf(path, sizeof path, "%s/calibration.json", dir);
    unlink(path);
    assert_int_equal(init_from(dir), SLURM_ERROR);
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_int_equal(init_from(dir), SLURM_ERROR);
    unlink(path);
    /* only in the global part */
    snprintf(conf, sizeof conf, "gpu = a100-80gb\n[partition big]\ncalibration = %s\n", path);
    write_file(dir, "trainsize.conf", conf);
    assert_int_equal(init_from(dir), SLURM_ERROR);
    snprintf(path, sizeof path, "%s/trainsize.conf", dir);
    unlink(path);
    rmdir(dir);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

/* Whoever sets rollout-gpus, the claim is checked: a site's trainsize.conf too. */
static void test_rollout_from_the_site(void **state)
{
    char dir[] = "/tmp/trainsize-plugin-XXXXXX", path[256], msg[1024];
    (void)state;
    assert_non_null(mkdtemp(dir));
    write_file(dir, "trainsize.conf", "gpu = a100-80gb\nrollout-gpus = 16\n");
    assert_int_equal(init_from(dir), SLURM_SUCCESS);
    assert_int_equal(submit_rl("gres:gpu:8", 1, NULL, "--model gpt2", msg, sizeof msg), SLURM_ERROR);
    assert_non_null(strstr(msg, "trainsize: job (uid 1000): --rollout-gpus 16 does not fit inside"));
    assert_int_equal(submit_rl("gres:gpu:8", 2, NULL, "--model gpt2", msg, sizeof msg), SLURM_ERROR);
    assert_int_equal(submit_rl("gres:gpu:8", 3, NULL, "--model gpt2", msg, sizeof msg), SLURM_SUCCESS);
    assert_non_null(strstr(msg, "(training on 8 of the 24 GPUs, 16 for rollout)"));
    snprintf(path, sizeof path, "%s/trainsize.conf", dir);
    unlink(path);
    rmdir(dir);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

/* Submit `directives` (one #TRAINSIZE line) on --gres=gpu:8 in `partition`; its status, its
 * message in msg. */
static int submit_in(const char *partition, const char *directives, char *msg, size_t cap)
{
    static char script[1024], part[64];
    job_desc_msg_t d;
    snprintf(script, sizeof script, "#!/bin/sh\n#TRAINSIZE %s\nsrun true\n", directives);
    describe(&d, script, "gres:gpu:8", 1);
    if (partition) {
        snprintf(part, sizeof part, "%s", partition);
        d.partition = part;
    }
    return submit(&d, msg, cap);
}

/* The GiB figure after `after` in msg (fails when there is none). */
static double gib_after(const char *msg, const char *after)
{
    const char *at = strstr(msg, after);
    char *end;
    double v;
    if (!at) fail_msg("no \"%s\" in \"%s\"", after, msg);
    v = strtod(at + strlen(after), &end);
    if (end == at + strlen(after)) fail_msg("no figure after \"%s\" in \"%s\"", after, msg);
    return v;
}

/* admit-on = high ([partition strict] of tests/slurm/trainsize.conf): a job is admitted
 * only when the high bound of what it needs fits its GPU, memory.peak_needed x
 * uncertainty.memory_high. llama-2-7b under ZeRO-3 at 2 x 4608 tokens on 8 a100-80gb needs
 * 70.6 GiB of 79.2 (it fits the estimate, and is admitted elsewhere), up to 81.7 GiB at
 * the band of ZeRO-3 runs (x 1.157): rejected, with advice that fits at the high bound. */
static void test_admit_on_high(void **state)
{
    static const char job[] = "--model llama-2-7b --zero 3 --seq 4608 --micro-batch 2";
    static const char lead[] = "trainsize: does not fit at the high bound: needs up to ";
    char msg[1024], fixed[512];
    const char *with, *until;
    double high, need, factor, capacity;
    (void)state;
    /* the estimate fits: admitted where admit-on is not high, saying nothing of the band */
    assert_int_equal(submit_in(NULL, job, msg, sizeof msg), SLURM_SUCCESS);
    if (!starts(msg, "trainsize: fits: peak ") || strstr(msg, "high bound")) fail_msg("\"%s\"", msg);
    assert_int_equal(submit_in("big", job, msg, sizeof msg), SLURM_SUCCESS); /* a section without admit-on */
    if (!starts(msg, "trainsize: fits: peak ") || strstr(msg, "high bound")) fail_msg("\"%s\"", msg);
    /* its high bound does not: rejected, with the bound, the estimate, the factor, the band's
     * class, the GPU and what decided it, on one printable line */
    assert_int_equal(submit_in("strict", job, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_printable(msg);
    if (!starts(msg, lead) || !strstr(msg, " GiB per GPU (the estimate's ") ||
        !strstr(msg, ": ZeRO-3 and FSDP, ") || !strstr(msg, " GiB on a100-80gb; admit-on = high (trainsize.conf); "))
        fail_msg("\"%s\"", msg);
    high = gib_after(msg, lead);
    need = gib_after(msg, "(the estimate's ");
    factor = gib_after(msg, " GiB x ");
    capacity = gib_after(msg, " figures) of ");
    if (!(need < capacity && capacity < high && factor > 1.0 && need * factor - high < 0.2 && high - need * factor < 0.2))
        fail_msg("needs %.1f x %.2f = %.1f of %.1f: \"%s\"", need, factor, high, capacity, msg);
    /* its advice holds at the high bound: the job with it is admitted there */
    with = strstr(msg, "; fits at the high bound with --");
    until = with ? strstr(with, " (needs up to ") : NULL;
    if (!until || gib_after(with, " (needs up to ") > capacity) fail_msg("no advice that fits: \"%s\"", msg);
    snprintf(fixed, sizeof fixed, "%s %.*s", job, (int)(until - with - 30), with + 30);
    assert_int_equal(submit_in("strict", fixed, msg, sizeof msg), SLURM_SUCCESS);
    if (!starts(msg, "trainsize: fits: peak ") || !strstr(msg, "; at the high bound needs up to "))
        fail_msg("%s: \"%s\"", fixed, msg);
    /* one that fits both is admitted, the line with its likely most (llama-2-7b at 4096
     * tokens: 38.3 GiB, up to 44.3) */
    assert_int_equal(submit_in("strict", "--model llama-2-7b --zero 3 --seq 4096", msg, sizeof msg), SLURM_SUCCESS);
    if (!starts(msg, "trainsize: fits: peak ") || !strstr(msg, " on a100-80gb; at the high bound needs up to ") ||
        !strstr(msg, " GiB (x 1.16); host RAM "))
        fail_msg("\"%s\"", msg);
    high = gib_after(msg, "at the high bound needs up to ");
    capacity = gib_after(msg, " GiB per GPU of ");
    /* the bound is the factor on what the job needs, which is less than the peak said (the
     * driver's view, the allocator's reserve included: 38.3 and 44.5 GiB here) */
    factor = gib_after(msg, " GiB (x ");
    assert_true(factor > 1.0 && high / factor < gib_after(msg, "fits: peak ") && high <= capacity);
    /* sized on what trains: the engines' GPUs said on the line */
    {
        job_desc_msg_t d;
        describe(&d, "#!/bin/sh\n#TRAINSIZE --model llama-2-7b --zero 3 --seq 4096 --micro-batch 2 --method grpo "
                     "--rollout separate --rollout-gpus 4\n", "gres:gpu:8", 1);
        d.partition = "strict";
        assert_int_equal(submit(&d, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
        if (!starts(msg, lead) || !strstr(msg, "; widened: post-training) of ") ||
            !strstr(msg, " on a100-80gb (training on 4 of the 8 GPUs, 4 for rollout); admit-on = high (trainsize.conf)"))
            fail_msg("\"%s\"", msg);
        assert_printable(msg);
    }
    /* one that does not fit the estimate: its advice is for the high bound too */
    assert_int_equal(submit_in("strict", "--model llama-2-70b --seq 4096", msg, sizeof msg),
                     ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    if (!starts(msg, "trainsize: does not fit: peak ") || !strstr(msg, "; fits at the high bound with --") ||
        strstr(msg, "; fits with --"))
        fail_msg("\"%s\"", msg);
    assert_printable(msg);
}

/* admit-on in trainsize.conf: global, and a section's over it; a value it does not take
 * stops the plugin from loading (the log names the line), as any bad line does; a job
 * cannot set it (it is no option of the library's: an unknown directive). */
static void test_admit_on_config(void **state)
{
    static const char *const bad[] = {
        "gpu = a100-80gb\nadmit-on = maybe\n",   "gpu = a100-80gb\nadmit-on = High\n",
        "gpu = a100-80gb\nadmit-on = high,estimate\n", "gpu = a100-80gb\nadmit-on = \n",
        "gpu = a100-80gb\nadmit_on = high\n", /* not the plugin's key, not an option */
        "gpu = a100-80gb\n[partition a]\nadmit-on = higher\n",
    };
    static const char job[] = "--model llama-2-7b --zero 3 --seq 4608 --micro-batch 2";
    char dir[] = "/tmp/trainsize-plugin-XXXXXX", path[256], msg[1024];
    size_t i;
    (void)state;
    assert_non_null(mkdtemp(dir));
    write_file(dir, "trainsize.conf", "gpu = a100-80gb\nadmit-on = high\n[partition lax]\nadmit-on = estimate\n"
                                      "[partition gpu]\nhost-ram = 2TiB\n");
    assert_int_equal(init_from(dir), SLURM_SUCCESS);
    if (!strstr(last_info, "trainsize.conf (libtrainsize ") || !strstr(last_info, "; admit-on = high"))
        fail_msg("\"%s\"", last_info);
    assert_int_equal(submit_in(NULL, job, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_true(starts(msg, "trainsize: does not fit at the high bound: "));
    assert_int_equal(submit_in("gpu", job, msg, sizeof msg), ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE);
    assert_int_equal(submit_in("lax", job, msg, sizeof msg), SLURM_SUCCESS);
    if (!starts(msg, "trainsize: fits: peak ") || strstr(msg, "high bound")) fail_msg("\"%s\"", msg);
    /* not a job's to say, in the script or the comment, however spelled */
    assert_int_equal(submit_in("lax", "--model gpt2 --admit-on high", msg, sizeof msg), SLURM_ERROR);
    assert_string_equal(msg, "trainsize: --admit-on: unknown option");
    assert_int_equal(submit_in(NULL, "--model gpt2 --Admit_On=estimate", msg, sizeof msg), SLURM_ERROR);
    assert_string_equal(msg, "trainsize: --Admit_On: unknown option");
    {
        job_desc_msg_t d;
        describe(&d, NULL, "gres:gpu:8", 1);
        d.comment = "trainsize: --model llama-2-7b --zero 3 --seq 4096 --micro-batch 2 --admit-on estimate";
        assert_int_equal(submit(&d, msg, sizeof msg), SLURM_ERROR);
        assert_string_equal(msg, "trainsize: --admit-on: unknown option");
    }
    /* the default partition's section of the shared file names it in the log */
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
    if (!strstr(last_info, "; admit-on = high in partition strict")) fail_msg("\"%s\"", last_info);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(dir, "trainsize.conf", bad[i]);
        if (init_from(dir) != SLURM_ERROR) fail_msg("loaded with \"%s\"", bad[i]);
    }
    snprintf(path, sizeof path, "%s/trainsize.conf", dir);
    unlink(path);
    rmdir(dir);
    assert_int_equal(init_from(conf_dir), SLURM_SUCCESS);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_ours), cmocka_unit_test(test_fits), cmocka_unit_test(test_does_not_fit),
        cmocka_unit_test(test_host_ram_short), cmocka_unit_test(test_gres_type_and_bad_directive),
        cmocka_unit_test(test_hardware_is_not_the_jobs), cmocka_unit_test(test_ambiguous_directives),
        cmocka_unit_test(test_long_input_is_refused_or_read_whole), cmocka_unit_test(test_err_msg_chain),
        cmocka_unit_test(test_control_bytes_escaped), cmocka_unit_test(test_config_not_a_regular_file),
        cmocka_unit_test(test_no_config), cmocka_unit_test(test_site_policy), cmocka_unit_test(test_calibration),
        cmocka_unit_test(test_rollout_inside_the_allocation), cmocka_unit_test(test_rollout_across_servers),
        cmocka_unit_test(test_critic_and_reward_inside_the_allocation),
        cmocka_unit_test(test_claim_names_the_job), cmocka_unit_test(test_rollout_from_the_site),
        cmocka_unit_test(test_admit_on_high), cmocka_unit_test(test_admit_on_config),
    };
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLUGIN.so DIR\n", argv[0]);
        return 2;
    }
    plugin_path = argv[1];
    conf_dir = argv[2];
    if (getenv("TS_TEST_FILTER")) cmocka_set_test_filter(getenv("TS_TEST_FILTER")); /* one test, by name */
    return cmocka_run_group_tests(tests, load, unload);
}

#define _POSIX_C_SOURCE 200809L /* setenv */
/* The job_submit/trainsize plugin loaded as slurmctld loads it (dlopen), with stand-ins
 * for the slurmctld functions it calls (slurm_xstrdup, slurm_info, slurm_error: exported
 * by this executable), and job_submit called on hand-built job descriptions.
 * Usage: test_slurm_plugin PLUGIN.so DIR (DIR holds trainsize.conf). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slurm/slurm.h>
#include <slurm/slurm_errno.h>

#define EXPORTED __attribute__((visibility("default")))

EXPORTED char *slurm_xstrdup(const char *str);
EXPORTED void slurm_info(const char *fmt, ...);
EXPORTED void slurm_error(const char *fmt, ...);

char *slurm_xstrdup(const char *str)
{
    size_t n = strlen(str) + 1;
    char *p = malloc(n);
    if (p) memcpy(p, str, n);
    return p;
}
void slurm_info(const char *fmt, ...) { (void)fmt; }
void slurm_error(const char *fmt, ...) { (void)fmt; }

static const char *plugin_path, *conf_dir;
static void *handle;
static int (*job_submit)(job_desc_msg_t *, uint32_t, char **);

static int load(void **state)
{
    char conf[1024];
    int (*init)(void);
    (void)state;
    snprintf(conf, sizeof conf, "%s/slurm.conf", conf_dir); /* trainsize.conf beside it */
    setenv("SLURM_CONF", conf, 1);
    handle = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
    if (!handle) fprintf(stderr, "%s\n", dlerror());
    assert_non_null(handle);
    assert_string_equal((const char *)dlsym(handle, "plugin_type"), "job_submit/trainsize");
    *(void **)&init = dlsym(handle, "init");
    *(void **)&job_submit = dlsym(handle, "job_submit");
    assert_non_null(init);
    assert_non_null(job_submit);
    assert_int_equal(init(), SLURM_SUCCESS);
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
    int rc = job_submit(d, 1000, &err);
    snprintf(msg, cap, "%s", err ? err : "");
    free(err);
    return rc;
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
    assert_non_null(strstr(msg, "files are not read per job"));
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_not_ours), cmocka_unit_test(test_fits), cmocka_unit_test(test_does_not_fit),
        cmocka_unit_test(test_host_ram_short), cmocka_unit_test(test_gres_type_and_bad_directive),
    };
    if (argc != 3) {
        fprintf(stderr, "usage: %s PLUGIN.so DIR\n", argv[0]);
        return 2;
    }
    plugin_path = argv[1];
    conf_dir = argv[2];
    return cmocka_run_group_tests(tests, load, unload);
}

/* The Slurm plugin's text readers: a job's #TRAINSIZE directives and comment, its GPU
 * request as slurmctld hands it (the TRES strings of Slurm 22.05: --gres=gpu:8 arrives as
 * "gres:gpu:8", --gpus=4 as "gres:gpu:4"), and the site's trainsize.conf. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "directives.h"

static void test_script_directives(void **state)
{
    static const char script[] =
        "#!/bin/bash\n"
        "#SBATCH --gres=gpu:8\n"
        "#TRAINSIZE --model llama-2-70b --zero 3\n"
        "#TRAINSIZE --micro-batch=4 --seq 4096 --sp\n"
        "#TRAINSIZEX --not-ours 1\n"
        "srun python train.py --trainsize-like-flag\n";
    tsd_pairs p;
    char why[128];
    (void)state;
    assert_int_equal(tsd_job_options(script, NULL, &p, why, sizeof why), 1);
    assert_int_equal(p.count, 5);
    assert_string_equal(p.name[0], "model");
    assert_string_equal(p.value[0], "llama-2-70b");
    assert_string_equal(p.name[2], "micro-batch");
    assert_string_equal(p.value[2], "4");
    assert_string_equal(p.name[4], "sp"); /* a flag: true */
    assert_string_equal(p.value[4], "true");
}

static void test_comment_and_none(void **state)
{
    tsd_pairs p;
    char why[128];
    (void)state;
    assert_int_equal(tsd_job_options(NULL, "trainsize: --model gpt2 --gpu h100-80gb", &p, why, sizeof why), 1);
    assert_int_equal(p.count, 2);
    assert_string_equal(p.value[1], "h100-80gb");
    /* the script's directives win over the comment */
    assert_int_equal(tsd_job_options("#TRAINSIZE --model gpt2\n", "trainsize: --model x", &p, why,
                                     sizeof why), 1);
    assert_int_equal(p.count, 1);
    assert_int_equal(tsd_job_options("#!/bin/sh\necho\n", "a comment", &p, why, sizeof why), 0);
    assert_int_equal(tsd_job_options(NULL, NULL, &p, why, sizeof why), 0);
}

static void test_bad_directives(void **state)
{
    tsd_pairs p;
    char why[128], many[4096];
    size_t i, n = 0;
    (void)state;
    assert_int_equal(tsd_job_options("#TRAINSIZE model gpt2\n", NULL, &p, why, sizeof why), -1);
    assert_non_null(strstr(why, "not an option"));
    n += (size_t)snprintf(many, sizeof many, "#TRAINSIZE");
    for (i = 0; i < 100; i++) n += (size_t)snprintf(many + n, sizeof many - n, " --x%zu 1", i);
    assert_int_equal(tsd_job_options(many, NULL, &p, why, sizeof why), -1);
    assert_non_null(strstr(why, "too many"));
}

static void test_gpu_requests(void **state)
{
    tsd_gpus g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:8", 1, &g), 0);
    assert_int_equal(g.per_node, 8);
    assert_string_equal(g.type, "");
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("cpu:4,gres:gpu:a100:4", 1, &g), 0);
    assert_int_equal(g.per_node, 4);
    assert_string_equal(g.type, "a100");
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres/gpu=16", 0, &g), 0);
    assert_int_equal(g.per_job, 16);
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:x", 1, &g), -1);
    assert_int_equal(tsd_gpu_request("gres:gpu:", 1, &g), -1);
    assert_int_equal(tsd_gpu_request(NULL, 1, &g), 0);
    assert_int_equal(g.per_node + g.per_job, 0);
}

static void test_config(void **state)
{
    static const char text[] =
        "# site defaults\n"
        "gpu = a100-80gb\n"
        "host-ram = 1TiB\n"
        "gres-type.h100 = h100-80gb\n"
        "set-mem = yes\n"
        "\n"
        "[partition big]\n"
        "network = ib-ndr\n";
    static tsd_config cfg;
    char why[128];
    const tsd_pairs *big;
    (void)state;
    assert_int_equal(tsd_config_parse(text, sizeof text - 1, &cfg, why, sizeof why), 0);
    assert_int_equal(cfg.global.count, 2);
    assert_string_equal(cfg.global.name[1], "host-ram");
    assert_string_equal(cfg.global.value[1], "1TiB");
    assert_true(cfg.set_mem);
    assert_string_equal(tsd_config_gres_gpu(&cfg, "h100"), "h100-80gb");
    assert_null(tsd_config_gres_gpu(&cfg, "v100"));
    big = tsd_config_section(&cfg, "big");
    assert_non_null(big);
    assert_string_equal(big->value[0], "ib-ndr");
    assert_null(tsd_config_section(&cfg, "small"));
    assert_int_equal(tsd_config_parse("gpu\n", 4, &cfg, why, sizeof why), -1);
    assert_non_null(strstr(why, "line 1"));
    assert_int_equal(tsd_config_parse("[part x]\n", 9, &cfg, why, sizeof why), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_script_directives), cmocka_unit_test(test_comment_and_none),
        cmocka_unit_test(test_bad_directives),    cmocka_unit_test(test_gpu_requests),
        cmocka_unit_test(test_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

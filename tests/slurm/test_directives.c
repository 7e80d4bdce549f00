/* The Slurm plugin's text readers: a job's #TRAINSIZE directives and comment, its GPU
 * request as slurmctld hands it (the TRES strings of Slurm 22.05: --gres=gpu:8 arrives as
 * "gres:gpu:8", --gpus=4 as "gres:gpu:4"), the site's trainsize.conf, and what a job's
 * directive may set. */
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
    /* directives in both the script and the comment: which was meant is not guessed */
    assert_int_equal(tsd_job_options("#TRAINSIZE --model gpt2\n", "trainsize: --model x", &p, why,
                                     sizeof why), -1);
    assert_non_null(strstr(why, "both"));
    assert_int_equal(tsd_job_options("#TRAINSIZE --model gpt2\n", "a comment", &p, why, sizeof why), 1);
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

/* Input longer than what is kept is refused, never cut: a comment holds at most
 * TSD_COMMENT_MAX bytes of options; a script is read whole, however long. */
static void test_long_input(void **state)
{
    static char comment[TSD_COMMENT_MAX + 64], script[200000];
    static const char prefix[] = "trainsize: ";
    tsd_pairs p;
    char why[256];
    size_t n;
    (void)state;
    /* exactly TSD_COMMENT_MAX bytes after "trainsize:" are read, one more is refused */
    memset(comment, ' ', sizeof comment);
    memcpy(comment, prefix, sizeof prefix - 1);
    memcpy(comment + 10 + TSD_COMMENT_MAX - 16, "--micro-batch 16", 16);
    comment[10 + TSD_COMMENT_MAX] = '\0';
    assert_int_equal(tsd_job_options(NULL, comment, &p, why, sizeof why), 1);
    assert_string_equal(p.value[0], "16");
    memcpy(comment + 10 + TSD_COMMENT_MAX - 16, " --micro-batch 16", 17);
    comment[10 + TSD_COMMENT_MAX + 1] = '\0';
    assert_int_equal(tsd_job_options(NULL, comment, &p, why, sizeof why), -1);
    assert_non_null(strstr(why, "longer than 2048 bytes"));
    /* a line across the old 64 KiB scan limit, and one wholly past it */
    n = (size_t)snprintf(script, sizeof script, "#!/bin/sh\n");
    while (n < 65536 - 30) n += (size_t)snprintf(script + n, sizeof script - n, "# padding\n");
    n += (size_t)snprintf(script + n, sizeof script - n, "#TRAINSIZE --model gpt2 --micro-batch 16\n");
    assert_true(n > 65536);
    while (n < 150000) n += (size_t)snprintf(script + n, sizeof script - n, "echo padding\n");
    snprintf(script + n, sizeof script - n, "#TRAINSIZE --seq 4096\n");
    assert_int_equal(tsd_job_options(script, NULL, &p, why, sizeof why), 1);
    assert_int_equal(p.count, 3);
    assert_string_equal(p.value[1], "16");
    assert_string_equal(p.name[2], "seq");
}

/* Names compare as the library's do, ignoring case, '-' and '_': a refused option cannot
 * be smuggled in another spelling, and each is passed on in its one spelling. */
static void test_option_names(void **state)
{
    (void)state;
    assert_string_equal(tsd_option_name("GPU"), "gpu");
    assert_string_equal(tsd_option_name("gpu_memory"), "gpu-memory");
    assert_string_equal(tsd_option_name("Gpu-Memory"), "gpu-memory");
    assert_string_equal(tsd_option_name("gpus-per_node"), "gpus-per-node");
    assert_string_equal(tsd_option_name("GPUSPERNODE"), "gpus-per-node");
    assert_string_equal(tsd_option_name("micro_batch"), "micro-batch");
    assert_string_equal(tsd_option_name("HF_Config"), "hf-config");
    assert_null(tsd_option_name("gpux"));
    assert_null(tsd_option_name("--"));
    assert_null(tsd_option_name(""));
}

/* Every catalogue parameter is on one side of the rule: the hardware (the allocation's or
 * the site's), the job's inside its allocation (GPUs beside the training ones), or the
 * job's. A new parameter fails here until it is placed. */
static void test_hardware_options(void **state)
{
    static const char *const allocation[] = {"gpus", "gpus-per-node"};
    static const char *const site[] = {"gpu", "gpu-memory", "host-ram", "cpu-cores", "nics-per-node",
                                       "host-memory-bandwidth", "network", "storage", "rack-power-watts",
                                       "nvls", "sharp", "gpu-power-limit", "servers-per-rack",
                                       "local-cache-bytes", "spare-nodes", "gemm-share",
                                       "scale-up-efficiency", "network-efficiency"};
    size_t i, hardware = 0;
    (void)state;
    if (trainsize_param_count() != TSD_CATALOGUE_CLASSIFIED)
        fail_msg("the catalogue has %zu parameters, %d when its hardware was listed: place the new ones "
                 "(examples/slurm/directives.c) and update TSD_CATALOGUE_CLASSIFIED",
                 trainsize_param_count(), TSD_CATALOGUE_CLASSIFIED);
    for (i = 0; i < sizeof allocation / sizeof allocation[0]; i++)
        assert_int_equal(tsd_option_source(tsd_option_name(allocation[i])), TSD_ALLOCATION);
    for (i = 0; i < sizeof site / sizeof site[0]; i++)
        assert_int_equal(tsd_option_source(tsd_option_name(site[i])), TSD_SITE);
    assert_int_equal(tsd_option_source(tsd_option_name("Rollout_GPUs")), TSD_WITHIN);
    assert_int_equal(tsd_option_source(tsd_option_name("critic-gpus")), TSD_WITHIN);
    assert_int_equal(tsd_option_source(tsd_option_name("reward_gpus")), TSD_WITHIN);
    for (i = 0; i < trainsize_param_count(); i++)
        if (tsd_option_source(trainsize_param_at(i)->name) != TSD_JOB) hardware++;
    assert_int_equal(hardware, 23);
    /* the GPUs of a job, and the servers, that are not hardware claims: layouts inside
     * the GPUs (the library checks they divide them), the planner's search (the plugin
     * never plans), a routing limit */
    assert_int_equal(tsd_option_source("rollout-tp"), TSD_JOB);
    assert_int_equal(tsd_option_source("shard-group"), TSD_JOB);
    assert_int_equal(tsd_option_source("plan-gpu-count"), TSD_JOB);
    assert_int_equal(tsd_option_source("max-gpus"), TSD_JOB);
    assert_int_equal(tsd_option_source("plan-margin"), TSD_JOB);
    assert_int_equal(tsd_option_source("moe-max-nodes"), TSD_JOB);
    assert_int_equal(tsd_option_source("hf-config"), TSD_FILE);
    assert_int_equal(tsd_option_source("gpu-file"), TSD_FILE);
    assert_int_equal(tsd_option_source("micro-batch"), TSD_JOB);
}

/* A job's options against what a directive may set. */
static int check(const char *script, const tsd_config *cfg, char *why, size_t cap)
{
    tsd_pairs p;
    if (tsd_job_options(script, NULL, &p, why, cap) != 1) return -2;
    return tsd_job_check(&p, cfg, why, cap);
}

static void test_job_check(void **state)
{
    static const char conf[] = "gpu = a100-80gb\njob-may-set = storage, GPU_memory\n"
                               "job-may-not-set = allocator-slack\n";
    static tsd_config cfg;
    tsd_pairs p;
    char why[256];
    (void)state;
    assert_int_equal(tsd_job_options("#TRAINSIZE --Model gpt2 --micro_batch=4\n", NULL, &p, why, sizeof why), 1);
    assert_int_equal(tsd_job_check(&p, NULL, why, sizeof why), 0);
    assert_string_equal(p.name[0], "model"); /* passed on in the one spelling */
    assert_string_equal(p.name[1], "micro-batch");
    assert_int_equal(check("#TRAINSIZE --gpus=64\n", NULL, why, sizeof why), TSD_CLAIM);
    assert_string_equal(why, "--gpus is set by the job's allocation, not by a directive (request GPUs with "
                             "--gres=gpu:N and --nodes, or --gpus=N)");
    assert_int_equal(check("#TRAINSIZE --GPU gb300\n", NULL, why, sizeof why), TSD_CLAIM);
    assert_string_equal(why, "--gpu is set by the site (trainsize.conf), not by a directive");
    assert_int_equal(check("#TRAINSIZE --spare-nodes 1000\n", NULL, why, sizeof why), TSD_CLAIM);
    assert_string_equal(why, "--spare-nodes is set by the site (trainsize.conf), not by a directive");
    /* GPUs beside the training ones: the job's to say, checked against its allocation */
    assert_int_equal(check("#TRAINSIZE --rollout separate --rollout_gpus 4\n", NULL, why, sizeof why), 0);
    assert_int_equal(check("#TRAINSIZE --rollout-gpus 4 --ROLLOUT-GPUS=4\n", NULL, why, sizeof why), -1);
    assert_string_equal(why, "--rollout-gpus is given twice; give it once");
    assert_int_equal(check("#TRAINSIZE --gpu-file x.json\n", NULL, why, sizeof why), -1);
    assert_non_null(strstr(why, "--gpu-file reads a file"));
    assert_int_equal(check("#TRAINSIZE --seq 1 --SEQ 2\n", NULL, why, sizeof why), -1);
    assert_string_equal(why, "--seq is given twice; give it once");
    assert_int_equal(check("#TRAINSIZE --no-such 1\n", NULL, why, sizeof why), -1);
    assert_string_equal(why, "--no-such: unknown option");
    assert_int_equal(check("#TRAINSIZE --mo\033del 1\n", NULL, why, sizeof why), -1);
    assert_string_equal(why, "--mo\\x1bdel: unknown option");
    /* what the site gives its jobs, and what it keeps */
    assert_int_equal(tsd_config_parse(conf, sizeof conf - 1, &cfg, why, sizeof why), 0);
    assert_int_equal(check("#TRAINSIZE --storage nfs --gpu-memory 40GiB\n", &cfg, why, sizeof why), 0);
    assert_int_equal(check("#TRAINSIZE --gpu h100-80gb\n", &cfg, why, sizeof why), TSD_CLAIM);
    assert_int_equal(check("#TRAINSIZE --allocator_slack 0\n", &cfg, why, sizeof why), -1);
    assert_string_equal(why, "--allocator-slack is set by the site (trainsize.conf job-may-not-set), not by a "
                             "directive");
    assert_int_equal(check("#TRAINSIZE --cuda-context 0\n", &cfg, why, sizeof why), 0);
}

/* split(per_node, per_job, rollout): the training GPUs tsd_rollout_split leaves, or -1. */
static long long split(uint64_t per_node, uint64_t per_job, uint64_t rollout, char *why, size_t cap)
{
    tsd_gpus alloc, train;
    memset(&alloc, 0, sizeof alloc);
    alloc.per_node = per_node;
    alloc.per_job = per_job;
    snprintf(alloc.type, sizeof alloc.type, "h100");
    why[0] = '\0';
    tsd_side side = {rollout, 0, 0};
    if (tsd_rollout_split(&alloc, &side, &train, why, cap)) return -1;
    assert_int_equal(train.per_node, per_node); /* the servers are the allocation's */
    assert_string_equal(train.type, "h100");
    return (long long)train.per_job;
}

/* The rollout engines' GPUs come out of the allocation: inside it the rest train; a claim
 * outside it, or of all of it, is refused with one reason. */
static void test_rollout_split(void **state)
{
    char why[512];
    (void)state;
    /* inside: one server of 8 */
    assert_int_equal(split(8, 8, 0, why, sizeof why), 8);
    assert_int_equal(split(8, 8, 4, why, sizeof why), 4);
    assert_int_equal(split(8, 8, 7, why, sizeof why), 1);
    /* all of it, or outside it */
    assert_int_equal(split(8, 8, 8, why, sizeof why), -1);
    assert_string_equal(why, "--rollout-gpus 8 does not fit inside the job's allocation of 8 GPUs: the GPUs "
                             "beside training come out of it, and at least one GPU must be left to train (request "
                             "more with --gres=gpu:N and --nodes, or --gpus=N)");
    assert_int_equal(split(8, 8, 16, why, sizeof why), -1);
    assert_non_null(strstr(why, "--rollout-gpus 16 does not fit inside the job's allocation of 8 GPUs"));
    assert_int_equal(split(1, 1, 1, why, sizeof why), -1);
    assert_non_null(strstr(why, "allocation of 1 GPU:"));
    assert_int_equal(split(8, TSD_GPUS_MAX, TSD_GPUS_MAX, why, sizeof why), -1);
    assert_int_equal(split(8, 8, UINT64_MAX, why, sizeof why), -1); /* never wraps */
    assert_non_null(strstr(why, "--rollout-gpus 18446744073709551615 does not fit"));
    /* several servers: the training GPUs fill whole servers, or share one with the engines */
    assert_int_equal(split(8, 16, 8, why, sizeof why), 8);
    assert_int_equal(split(8, 32, 8, why, sizeof why), 24);
    assert_int_equal(split(8, 16, 12, why, sizeof why), 4);
    assert_int_equal(split(8, 16, 4, why, sizeof why), -1);
    assert_string_equal(why, "--rollout-gpus 4 leaves 12 of the allocation's 16 GPUs to train, which do not fill "
                             "whole servers of 8 (the GPUs beside training take whole servers, or share one server "
                             "with all the training GPUs)");
    /* a request per job over more nodes than GPUs: no server size to keep */
    assert_int_equal(split(0, 4, 2, why, sizeof why), 2);
    assert_int_equal(split(0, 4, 4, why, sizeof why), -1);
}

/* ppo's critic and a reward model on GPUs of their own come out of the allocation as the
 * engines' do, added together, and a refusal names each claim and their sum. */
static void test_side_split(void **state)
{
    tsd_gpus alloc, train;
    tsd_side side = {8, 8, 0};
    char why[512];
    (void)state;
    memset(&alloc, 0, sizeof alloc);
    alloc.per_node = 8;
    alloc.per_job = 32;
    assert_int_equal(tsd_rollout_split(&alloc, &side, &train, why, sizeof why), 0);
    assert_int_equal(train.per_job, 16);
    side.reward = 16;
    assert_int_equal(tsd_rollout_split(&alloc, &side, &train, why, sizeof why), -1);
    assert_non_null(strstr(why, "--rollout-gpus 8 + --critic-gpus 8 + --reward-gpus 16 (32 GPUs) does not fit "
                                "inside the job's allocation of 32 GPUs"));
    side.rollout = 0;
    side.critic = UINT64_MAX; /* saturates */
    assert_int_equal(tsd_rollout_split(&alloc, &side, &train, why, sizeof why), -1);
    assert_non_null(strstr(why, "--critic-gpus 18446744073709551615 + --reward-gpus 16 (18446744073709551615 GPUs)"));
    side.critic = 4;
    side.reward = 0;
    assert_int_equal(tsd_rollout_split(&alloc, &side, &train, why, sizeof why), -1);
    assert_non_null(strstr(why, "--critic-gpus 4 leaves 28 of the allocation's 32 GPUs to train"));
}

/* Whatever a job writes comes back as printable ASCII, escapes never cut. */
static void test_escape(void **state)
{
    tsd_pairs p;
    char out[32], why[256];
    (void)state;
    assert_int_equal(tsd_escape(out, sizeof out, "a\033[1m\x9b\x7f", 7), 16);
    assert_string_equal(out, "a\\x1b[1m\\x9b\\x7f");
    assert_int_equal(tsd_escape(out, 6, "ab\033", 3), 2); /* no room for all of \x1b */
    assert_string_equal(out, "ab");
    assert_int_equal(tsd_escape(out, 1, "abc", 3), 0);
    assert_int_equal(tsd_job_options("#TRAINSIZE \033]0;x\007\n", NULL, &p, why, sizeof why), -1);
    assert_string_equal(why, "not an option: \"\\x1b]0;x\\x07\" (directives are the command's --options)");
}

/* A request the plugin cannot size whole is refused rather than half read. */
static void test_gpu_request_limits(void **state)
{
    tsd_gpus g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:a100:4,gres:gpu:a100:4", 1, &g), 0);
    assert_int_equal(g.per_node, 8);
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:a100:4,gres:gpu:h100:4", 1, &g), -1); /* two types */
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:a100:4", 1, &g), 0);
    assert_int_equal(tsd_gpu_request("gres:gpu:4", 0, &g), -1); /* typed per node, untyped per job */
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:9999999,gres:gpu:9999999", 1, &g), -1);
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:99999999999999999999999", 1, &g), -1);
    memset(&g, 0, sizeof g);
    assert_int_equal(tsd_gpu_request("gres:gpu:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:1", 1, &g),
                     -1); /* a type longer than is kept */
}

/* trainsize.conf's keys are options in the one spelling; the policy keys are checked when
 * it is read, not on every job. */
static void test_config_policy(void **state)
{
    static const char ok[] = "GPU = a100-80gb\nhost_ram = 1TiB\ngres-type.h100 = h100-80gb\n"
                             "job-may-set = network,storage\n[partition big]\ngpu = b200\n";
    static tsd_config cfg;
    char why[256];
    int from_type;
    (void)state;
    assert_int_equal(tsd_config_parse(ok, sizeof ok - 1, &cfg, why, sizeof why), 0);
    assert_string_equal(cfg.global.name[0], "gpu");
    assert_string_equal(cfg.global.name[1], "host-ram");
    assert_int_equal(cfg.may_sets, 2);
    assert_string_equal(cfg.may_set[1], "storage");
    assert_string_equal(tsd_config_gpu(&cfg, NULL, "", &from_type), "a100-80gb");
    assert_false(from_type);
    assert_string_equal(tsd_config_gpu(&cfg, "big", "", &from_type), "b200");
    assert_string_equal(tsd_config_gpu(&cfg, "big", "h100", &from_type), "h100-80gb"); /* the type wins */
    assert_true(from_type);
    assert_null(tsd_config_gpu(NULL, "big", "h100", &from_type));
    assert_int_equal(tsd_config_parse("host-ram = 1TiB\n", 16, &cfg, why, sizeof why), 0);
    assert_null(tsd_config_gpu(&cfg, NULL, "h100", &from_type));
#define BAD(text, said)                                                                 \
    do {                                                                                \
        assert_int_equal(tsd_config_parse(text, sizeof text - 1, &cfg, why, sizeof why), -1); \
        if (!strstr(why, said)) fail_msg("%s: %s", text, why);                          \
    } while (0)
    BAD("job-may-set = gpus\n", "job-may-set takes the site's hardware options");
    BAD("job-may-set = micro-batch\n", "not micro-batch");
    BAD("job-may-set = rollout-gpus\n", "not rollout-gpus"); /* the job's already, inside its GPUs */
    BAD("job-may-set = gpux\n", "line 1: \"gpux\" is not an option");
    BAD("[partition a]\njob-may-set = gpu\n", "line 2: job-may-set belongs before");
    BAD("job-may-set = gpu\njob-may-not-set = GPU\n", "gpu is in both");
    BAD("gpux = 1\n", "line 1: \"gpux\" is not an option");
    BAD("gpu-file = /etc/x.json\n", "\"gpu-file\" is not an option the plugin takes");
    BAD("gres-type.a = no-such-gpu\n", "no-such-gpu is not a catalogue GPU");
    BAD("admit-on = maybe\n", "line 1: admit-on takes estimate or high, not \"maybe\"");
    BAD("gpu = a100-80gb\n[partition a]\nadmit-on = HIGH\n", "line 3: admit-on takes estimate or high");
    BAD("admit_on = high\n", "line 1: \"admit_on\" is not an option the plugin takes");
#undef BAD
}

/* admit-on = estimate|high: global (the estimate when unsaid), a section's over it for the
 * jobs of that partition; not an option of the library's, so no directive sets it. */
static void test_config_admit_on(void **state)
{
    static const char text[] = "gpu = a100-80gb\n"
                               "[partition a]\nadmit-on = high\n"
                               "[partition b]\nnetwork = ib-ndr\n"
                               "[partition c]\nadmit-on = high\nadmit-on = estimate\n";
    static const char strict[] = "admit-on = high\n[partition lax]\nadmit-on = estimate\n[partition d]\n"
                                 "gpu = h100-80gb\n";
    static tsd_config cfg;
    char why[256];
    (void)state;
    assert_null(tsd_option_name("admit-on")); /* the plugin's own key, never the library's */
    assert_null(tsd_option_name("Admit_On"));
    assert_int_equal(tsd_config_admit_on(NULL, "a"), TSD_ADMIT_ESTIMATE);
    assert_int_equal(tsd_config_parse(text, sizeof text - 1, &cfg, why, sizeof why), 0);
    assert_int_equal(cfg.global.count, 1); /* kept out of the options handed to the library */
    assert_int_equal(cfg.section[0].count, 0);
    assert_int_equal(tsd_config_admit_on(&cfg, NULL), TSD_ADMIT_ESTIMATE);
    assert_int_equal(tsd_config_admit_on(&cfg, "a"), TSD_ADMIT_HIGH);
    assert_int_equal(tsd_config_admit_on(&cfg, "b"), TSD_ADMIT_ESTIMATE);
    assert_int_equal(tsd_config_admit_on(&cfg, "c"), TSD_ADMIT_ESTIMATE); /* the last line says */
    assert_int_equal(tsd_config_admit_on(&cfg, "a,b"), TSD_ADMIT_ESTIMATE); /* as tsd_config_section */
    assert_int_equal(tsd_config_parse(strict, sizeof strict - 1, &cfg, why, sizeof why), 0);
    assert_int_equal(tsd_config_admit_on(&cfg, NULL), TSD_ADMIT_HIGH);
    assert_int_equal(tsd_config_admit_on(&cfg, "lax"), TSD_ADMIT_ESTIMATE);
    assert_int_equal(tsd_config_admit_on(&cfg, "d"), TSD_ADMIT_HIGH); /* a section that does not say */
    assert_int_equal(tsd_config_admit_on(&cfg, "none"), TSD_ADMIT_HIGH);
    /* a directive: an unknown option, in any spelling */
    assert_int_equal(check("#TRAINSIZE --model gpt2 --admit-on estimate\n", &cfg, why, sizeof why), -1);
    assert_string_equal(why, "--admit-on: unknown option");
    assert_int_equal(check("#TRAINSIZE --ADMIT_ON=high\n", NULL, why, sizeof why), -1);
    assert_string_equal(why, "--ADMIT_ON: unknown option");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_script_directives), cmocka_unit_test(test_comment_and_none),
        cmocka_unit_test(test_bad_directives),    cmocka_unit_test(test_gpu_requests),
        cmocka_unit_test(test_config),            cmocka_unit_test(test_long_input),
        cmocka_unit_test(test_option_names),      cmocka_unit_test(test_hardware_options),
        cmocka_unit_test(test_job_check),         cmocka_unit_test(test_escape),
        cmocka_unit_test(test_gpu_request_limits), cmocka_unit_test(test_config_policy),
        cmocka_unit_test(test_rollout_split),
        cmocka_unit_test(test_side_split),
        cmocka_unit_test(test_config_admit_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

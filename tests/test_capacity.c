/* What a server can train (lib/capacity.c): for 8 x H100 80GB and one RTX 4090, every way
 * of training names a model whose options, given back to the estimate, fit with the same
 * peak; the next larger model of its family with the same options does not fit; and the
 * ways order as they should (QLoRA >= LoRA >= full fine-tuning >= pretraining). */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

#include "host_ram.h"
#include "ts_test.h"

/* A job from an entry's "--name value ..." options, with the model replaced when given. */
static trainsize_job *job_of(const char *args, const char *model)
{
    char copy[512], *save = NULL, *name, *value;
    trainsize_job *job = trainsize_job_new();
    trainsize_error err;
    assert_non_null(job);
    snprintf(copy, sizeof copy, "%s", args);
    for (name = strtok_r(copy, " ", &save); name; name = strtok_r(NULL, " ", &save)) {
        value = strtok_r(NULL, " ", &save);
        assert_non_null(value);
        assert_true(strncmp(name, "--", 2) == 0);
        if (model && strcmp(name, "--model") == 0) value = (char *)model;
        if (trainsize_job_set(job, name + 2, value, &err) != TRAINSIZE_OK) fail_msg("%s %s: %s", name, value, err.message);
    }
    return job;
}

/* The capacity's own test of a fit: the whole peak on the GPU and the host RAM in the
 * server's (the product's, else host-ram-factor x its GPU memory in a size sold). */
static int fits_whole(const trainsize_result *r, const char *gpu)
{
    const trainsize_gpu_info *g = trainsize_gpu_find(gpu);
    double server = g->host_ram_bytes && (int)r->system.gpus_per_node == g->per_host
                        ? (double)g->host_ram_bytes
                        : ts_round_up_ram(2.0 * (double)r->system.gpus_per_node * (double)g->memory_bytes);
    return r->memory.fits && r->memory.peak_total <= r->memory.gpu_capacity &&
           (double)r->system.host_ram_need_per_node <= server;
}

/* The smallest preset of `family` with more parameters than `than`; NULL when none. */
static const trainsize_model_info *next_larger(const char *family, uint64_t than)
{
    const trainsize_model_info *best = NULL;
    size_t i;
    for (i = 0; i < trainsize_model_count(); i++) {
        const trainsize_model_info *m = trainsize_model_at(i);
        if (strcmp(m->family, family) == 0 && m->parameters > than && (!best || m->parameters < best->parameters))
            best = m;
    }
    return best;
}

static const trainsize_model_info *preset(const char *name)
{
    size_t i;
    for (i = 0; i < trainsize_model_count(); i++)
        if (strcmp(trainsize_model_at(i)->name, name) == 0) return trainsize_model_at(i);
    fail_msg("no preset %s", name);
    return NULL;
}

static void check_server(const char *gpu, uint64_t gpus)
{
    trainsize_capacity_entry e[TRAINSIZE_CAPACITY_METHODS];
    trainsize_error err;
    trainsize_result r;
    size_t i;
    assert_int_equal(trainsize_capacity(gpu, gpus, 0, 2048, 1, 0, e, &err), TRAINSIZE_OK);
    for (i = 0; i < TRAINSIZE_CAPACITY_METHODS; i++) {
        const trainsize_model_info *larger;
        trainsize_job *job;
        if (!e[i].model[0]) fail_msg("%s on %llu x %s: no model", e[i].method, (unsigned long long)gpus, gpu);
        /* the options fit, with the same peak */
        job = job_of(e[i].args, NULL);
        assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
        assert_true(fits_whole(&r, gpu));
        assert_int_equal(r.memory.peak_total, e[i].peak_total);
        assert_int_equal(r.model.parameters, e[i].parameters);
        trainsize_job_free(job);
        /* the next larger of its family, with the same options, does not */
        larger = next_larger(preset(e[i].model)->family, e[i].parameters);
        if (larger) {
            job = job_of(e[i].args, larger->name);
            if (trainsize_estimate(job, &r, sizeof r, &err) == TRAINSIZE_OK && fits_whole(&r, gpu))
                fail_msg("%s: %s fits with %s's options", e[i].method, larger->name, e[i].model);
            trainsize_job_free(job);
        }
    }
    /* pretraining, full fine-tuning, LoRA, QLoRA: each at least the one before */
    assert_string_equal(e[0].method, "pretraining");
    assert_string_equal(e[3].method, "qlora");
    assert_true(e[1].parameters >= e[0].parameters);
    assert_true(e[2].parameters >= e[1].parameters);
    assert_true(e[3].parameters >= e[2].parameters);
}

static void test_eight_h100(void **state)
{
    (void)state;
    check_server("h100-80gb", 8);
}

static void test_one_rtx_4090(void **state)
{
    (void)state;
    check_server("rtx-4090", 1);
}

/* The JSON names every way, a model that fits none as null, and the options as a string. */
static void test_capacity_json(void **state)
{
    trainsize_capacity_entry e[TRAINSIZE_CAPACITY_METHODS];
    trainsize_error err;
    char buf[8192];
    int n;
    (void)state;
    assert_int_equal(trainsize_capacity("rtx-4090", 1, 0, 2048, 1, 0, e, &err), TRAINSIZE_OK);
    e[5].model[0] = '\0'; /* as when none fits */
    n = trainsize_capacity_json("rtx-4090", 1, 2048, 1, e, buf, sizeof buf, &err);
    assert_true(n > 0 && (size_t)n < sizeof buf);
    assert_non_null(strstr(buf, "\"gpu\": \"rtx-4090\""));
    assert_non_null(strstr(buf, "{\"method\": \"grpo\", \"model\": null"));
    assert_non_null(strstr(buf, "\"args\": \"--model "));
    /* snprintf-style: the length whatever the room */
    assert_int_equal(trainsize_capacity_json("rtx-4090", 1, 2048, 1, e, buf, 10, &err), n);
    memset(e[0].args, 'x', sizeof e[0].args); /* no NUL: refused, never read past */
    assert_int_equal(trainsize_capacity_json("rtx-4090", 1, 2048, 1, e, buf, sizeof buf, &err), TRAINSIZE_E_ARGUMENT);
}

/* Bad input: named, nothing filled. */
static void test_capacity_refuses(void **state)
{
    trainsize_capacity_entry e[TRAINSIZE_CAPACITY_METHODS];
    trainsize_error err;
    (void)state;
    assert_int_equal(trainsize_capacity("no-such-gpu", 8, 0, 2048, 1, 0, e, &err), TRAINSIZE_E_UNKNOWN);
    assert_int_equal(trainsize_capacity("h100-80gb", 0, 0, 2048, 1, 0, e, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "gpus");
    assert_int_equal(trainsize_capacity("h100-80gb", 8, 0, 0, 1, 0, e, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "seq");
    assert_int_equal(e[0].model[0], '\0');
    assert_int_equal(trainsize_capacity(NULL, 8, 0, 2048, 1, 0, e, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_capacity("h100-80gb", 8, 0, 2048, 1, 0, NULL, &err), TRAINSIZE_E_ARGUMENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_eight_h100),
        cmocka_unit_test(test_one_rtx_4090),
        cmocka_unit_test(test_capacity_json),
        cmocka_unit_test(test_capacity_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

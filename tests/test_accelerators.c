/* What the kind of accelerator changes in an estimate: per-datatype peaks (V100's FP16
 * only, Gaudi 3's slower FP16), TPUs under XLA (no fp16, no GPU-runtime overheads, the
 * TPU VM's host, no published power), and scale-up fabrics that span servers (NVL72
 * racks, TPU slices). docs/methodology.md ("Accelerators") describes each rule. */
#include "ts_test.h"

static double step_seconds(const char *gpu, const char *precision)
{
    trainsize_result r;
    /* hfu set: every FLOP at the peak's share, so that the peaks alone differ */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", gpu, "gpus", "8", "zero", "3", "precision",
                           precision, "hfu", "0.5", "step-overhead", "0"),
                     &r);
    return r.time.step_seconds - r.time.comm_seconds - r.time.offload_seconds;
}

/* fp16 runs at the FP16 figure, bf16 at the BF16 one; bf16 on V100 runs as fp16 and warns. */
static void test_per_datatype_peaks(void **state)
{
    trainsize_result r;
    (void)state;
    /* Gaudi 3: 1677 TF BF16 against 459 FP16 on the MME: compute takes 1677/459 as long. */
    ts_assert_near(step_seconds("gaudi3", "fp16-mixed") / step_seconds("gaudi3", "bf16-mixed"),
                       1677.0 / 459.0, 1e-9);
    /* A100: one 16-bit rate for both. */
    ts_assert_near(step_seconds("a100-80gb", "fp16-mixed"), step_seconds("a100-80gb", "bf16-mixed"),
                       1e-12);
    /* V100: bf16 falls back to fp16's 125 TF, with the warning; fp16 itself does not warn. */
    ts_assert_near(step_seconds("v100-32gb", "bf16-mixed"), step_seconds("v100-32gb", "fp16-mixed"),
                       1e-12);
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "v100-32gb", "precision", "bf16-mixed"), &r);
    assert_true(r.warnings & TRAINSIZE_WARN_NO_BF16);
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "v100-32gb", "precision", "fp16-mixed"), &r);
    assert_false(r.warnings & TRAINSIZE_WARN_NO_BF16);
}

static void test_tpu_refuses_fp16(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "gpt2", "gpu", "tpu-v5p", "precision", "fp16-mixed"),
                                         &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "precision");
    assert_non_null(strstr(err.message, "bf16"));
    /* No FP32 rate is published for TPUs: fp32 is refused rather than timed at 0. */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "gpt2", "gpu", "tpu-v6e", "precision", "fp32"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "precision");
    /* No FP8 units on v5p (its FP8 rate is the BF16 one); TPU7x has them. */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "gpt2", "gpu", "tpu-v5p", "precision", "fp8-mixed"),
                                         &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "gpt2", "gpu", "tpu-v7", "precision", "fp8-mixed"),
                                         &err),
                     TRAINSIZE_OK);
}

/* XLA has no CUDA context, no NCCL buffers and no caching allocator: those overheads are 0
 * on a TPU unless the caller sets them, follow the GPU again when it changes, and the
 * reason says so. */
static void test_tpu_overheads(void **state)
{
    trainsize_result r;
    trainsize_error err;
    trainsize_job *job;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "8", "zero", "3"), &r);
    assert_true(r.memory.cuda_context == 0 && r.memory.comm_buffers == 0 && r.memory.allocator_slack == 0);
    assert_true(r.memory.peak_total == r.memory.peak_allocated);
    assert_non_null(strstr(r.framework_reason, "XLA"));
    /* Set by the caller: kept on the TPU. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "8", "zero", "3", "cuda-context",
                           "1073741824"),
                     &r);
    assert_true(r.memory.cuda_context == UINT64_C(1073741824));
    assert_true(r.memory.comm_buffers == 0);
    /* Back on a GPU, the unset ones are the GPU defaults again. */
    job = ts_test_job(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "8", "zero", "3"));
    assert_int_equal(trainsize_job_set(job, "gpu", "h100-80gb", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.memory.cuda_context == UINT64_C(536870912)); /* the cuda-context default */
    assert_true(r.memory.allocator_slack > 0 && r.memory.comm_buffers > 0);
    assert_null(strstr(r.framework_reason, "XLA"));
    trainsize_job_free(job);
}

/* The TPU VM is the server: its RAM and vCPUs, not the 2x rule; more need warns. No power
 * figure is published: the estimate says so rather than pricing energy at 0 silently. */
static void test_tpu_host(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5e", "gpus", "16", "zero", "3"), &r);
    assert_true(r.system.gpus_per_node == 8); /* ct5lp-hightpu-8t */
    assert_true(r.system.host_ram_per_node == UINT64_C(384) << 30);
    assert_true(r.system.cpu_cores_per_node == 224);
    assert_false(r.warnings & (TRAINSIZE_WARN_HOST_RAM | TRAINSIZE_WARN_HOST_RAM_RULE));
    assert_true(r.warnings & TRAINSIZE_WARN_NO_POWER);
    assert_true(r.system.energy_kwh == 0.0);
    /* v5p hosts have 4 chips by default. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "16", "zero", "3"), &r);
    assert_true(r.system.gpus_per_node == 4 && r.system.nodes == 4);
    assert_true(r.system.host_ram_per_node == UINT64_C(448) << 30);
    /* ZeRO-Offload of a 70B model's optimizer needs more than the v5e VM's 384 GB. */
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "tpu-v5e", "gpus", "8", "zero", "3", "offload",
                           "optimizer"),
                     &r);
    assert_true(r.system.host_ram_need_per_node > r.system.host_ram_per_node);
    assert_true(r.warnings & TRAINSIZE_WARN_HOST_RAM);
    /* A GPU has a power figure and no such warning. */
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "h100-80gb"), &r);
    assert_false(r.warnings & TRAINSIZE_WARN_NO_POWER);
}

/* Within an NVL72 rack or a TPU slice the collectives stay on the scale-up fabric: no
 * network is chosen or priced; beyond it the network carries the traffic that leaves. */
static void test_scale_up_domain(void **state)
{
    trainsize_result in_rack, two_racks, hgx;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "gb200", "gpus", "72", "zero", "3"), &in_rack);
    assert_true(in_rack.system.gpus_per_node == 4 && in_rack.system.nodes == 18);
    assert_string_equal(in_rack.system.network_link, "");
    assert_true(in_rack.system.interconnect_rate_per_node == 0);
    assert_true(in_rack.system.intra_node_rate_per_gpu > 0);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "gb200", "gpus", "144", "zero", "3"), &two_racks);
    assert_true(two_racks.system.network_link[0] != '\0');
    assert_true(two_racks.system.interconnect_rate_per_node > 0);
    /* B200 on HGX boards of 8: 72 GPUs are 9 servers joined by the network. */
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "b200", "gpus", "72", "zero", "3"), &hgx);
    assert_true(hgx.system.network_link[0] != '\0');
    assert_true(hgx.system.interconnect_rate_per_node > 0);
    /* A 256-chip v6e slice is one ICI domain: no network. */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v6e", "gpus", "256", "zero", "3"), &in_rack);
    assert_string_equal(in_rack.system.network_link, "");
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v6e", "gpus", "512", "zero", "3"), &two_racks);
    assert_true(two_racks.system.network_link[0] != '\0');
}

/* Tensor parallelism may span the servers of one scale-up domain (an NVL72 rack): no
 * warning there, and the planner and the fit advice may use it; not across HGX servers. */
static void test_tp_within_domain(void **state)
{
    trainsize_result r;
    trainsize_advice adv[16];
    trainsize_error err;
    trainsize_job *job;
    size_t n = 0, i;
    int tp8 = 0;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "gb300", "gpus", "8", "tp", "8"), &r);
    assert_false(r.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "b200", "gpus", "16", "tp", "16"), &r);
    assert_true(r.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    /* 405B on 16 GB300s with ZeRO-1 does not fit; tp 8 over two trays is among the fixes. */
    job = ts_test_job(PAIRS("model", "llama-3.1-405b", "gpu", "gb300", "gpus", "16", "zero", "1"));
    assert_int_equal(trainsize_advise(job, adv, 16, &n, &err), TRAINSIZE_OK);
    for (i = 0; i < n && i < 16; i++) {
        size_t k;
        for (k = 0; k < adv[i].settings; k++)
            if (strcmp(adv[i].names[k], "tp") == 0 && strcmp(adv[i].values[k], "8") == 0) tp8 = 1;
    }
    assert_true(tp8);
    trainsize_job_free(job);
}

/* Where the host is known (a TPU VM), the fit advice offers nothing it cannot hold: 70B on
 * 8 v5e chips does not fit, and offloading the optimizer and parameters alone would need
 * about 1.4 TiB of a 384 GiB VM. Every advised job, estimated, fits its host. */
static void test_advice_respects_host(void **state)
{
    trainsize_advice adv[16];
    trainsize_result r;
    trainsize_error err;
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-70b", "gpu", "tpu-v5e", "gpus", "8", "zero", "3"));
    size_t n = 0, i, k;
    (void)state;
    assert_int_equal(trainsize_advise(job, adv, 16, &n, &err), TRAINSIZE_OK);
    assert_true(n > 0);
    for (i = 0; i < n && i < 16; i++) {
        trainsize_job *advised = trainsize_job_clone(job);
        assert_non_null(advised);
        for (k = 0; k < adv[i].settings; k++)
            assert_int_equal(trainsize_job_set(advised, adv[i].names[k], adv[i].values[k], &err), TRAINSIZE_OK);
        assert_int_equal(trainsize_estimate(advised, &r, sizeof r, &err), TRAINSIZE_OK);
        assert_false(r.warnings & (TRAINSIZE_WARN_HOST_RAM | TRAINSIZE_WARN_DOES_NOT_FIT));
        trainsize_job_free(advised);
    }
    trainsize_job_free(job);
}

/* A host set by the caller is the host judged and reported, also for a product sold with
 * one; a network set within the domain is neither used nor priced. */
static void test_fixed_host_overrides(void **state)
{
    trainsize_result r, with_net;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "gb300", "gpus", "8", "zero", "3", "host-ram", "64GiB",
                           "cpu-cores", "8"),
                     &r);
    assert_true(r.system.host_ram_per_node == UINT64_C(64) << 30 && r.system.cpu_cores_per_node == 8);
    assert_true(r.warnings & TRAINSIZE_WARN_HOST_RAM);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "16", "zero", "3", "gpu-price-usd",
                           "10000"),
                     &r);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v5p", "gpus", "16", "zero", "3", "gpu-price-usd",
                           "10000", "network", "ib-ndr"),
                     &with_net);
    assert_string_equal(with_net.system.network_link, "");
    ts_assert_near(with_net.system.cost_own_hardware_usd, r.system.cost_own_hardware_usd, 1e-12);
    /* Beyond the slice, the VM's own NICs carry the traffic (v6e: 2 x 200 GbE a VM). */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "tpu-v6e", "gpus", "512", "zero", "3"), &r);
    assert_string_equal(r.system.network_link, "eth-200g");
}

/* A caller's TPU from a device file: its kind alone refuses fp16, power may be left out as
 * Google leaves it out, and the host comes with its RAM, vCPUs and NICs. */
static void test_custom_tpu(void **state)
{
    static const char file[] =
        "{\"name\": \"my-tpu\", \"kind\": \"tpu\", \"vendor\": \"Google\", "
        "\"memory_gib\": 32, \"flops_bf16\": 9e14, \"scale_up_bandwidth\": 8e11, \"scale_up_domain\": 256, "
        "\"per_host\": 4, \"host_ram_bytes\": 773094113280, \"host_cores\": 180, "
        "\"host_network\": \"eth-200g\", \"host_nics\": 2}";
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_non_null(job);
    assert_int_equal(trainsize_job_set(job, "model", "llama-2-7b", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "gpus", "8", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_load_gpu_json(job, file, sizeof file - 1, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.memory.allocator_slack == 0);
    assert_true(r.system.gpus_per_node == 4 && r.system.host_ram_per_node == UINT64_C(773094113280));
    assert_true(r.warnings & TRAINSIZE_WARN_NO_POWER);
    assert_int_equal(trainsize_job_set(job, "precision", "fp16-mixed", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_E_UNSUPPORTED);
    /* An unknown kind is refused by name. */
    {
        static const char npu[] = "{\"name\": \"x\", \"memory_gib\": 8, \"flops_bf16\": 1e14, "
                                  "\"tdp_watts\": 100, \"kind\": \"npu\"}";
        assert_int_equal(trainsize_job_load_gpu_json(job, npu, sizeof npu - 1, &err), TRAINSIZE_E_INVALID);
    }
    assert_string_equal(err.field, "kind");
    /* FP16 alone (a V100-class part) is a valid description; bf16 then runs as fp16. */
    {
        static const char old[] =
            "{\"name\": \"old\", \"memory_gib\": 16, \"flops_fp16\": 1e14, \"tdp_watts\": 250}";
        assert_int_equal(trainsize_job_load_gpu_json(job, old, sizeof old - 1, &err), TRAINSIZE_OK);
    }
    assert_int_equal(trainsize_job_set(job, "precision", "bf16-mixed", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.warnings & TRAINSIZE_WARN_NO_BF16);
    /* Refused by name: a domain without a fabric, a fractional host, an unknown network. */
    {
        static const char *const bad[][2] = {
            {"{\"name\": \"d\", \"memory_gib\": 8, \"flops_bf16\": 1e14, \"tdp_watts\": 100, "
             "\"scale_up_domain\": 64}", "scale_up_domain"},
            {"{\"name\": \"d\", \"memory_gib\": 8, \"flops_bf16\": 1e14, \"tdp_watts\": 100, "
             "\"per_host\": 4.5}", "gpu-file"},
            {"{\"name\": \"d\", \"memory_gib\": 8, \"flops_bf16\": 1e14, \"tdp_watts\": 100, "
             "\"per_host\": 4, \"host_network\": \"nvlink5\", \"host_nics\": 1}", "host_network"},
            {"{\"name\": \"d\", \"memory_gib\": 8, \"flops_bf16\": 1e14, \"tdp_watts\": 100, "
             "\"host_ram_bytes\": 1e12}", "per_host"},
            {"{\"name\": \"d\", \"memory_gib\": 8, \"flops_bf16\": 1e14}", "tdp_watts"}};
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            assert_int_equal(trainsize_job_load_gpu_json(job, bad[i][0], strlen(bad[i][0]), &err),
                             TRAINSIZE_E_INVALID);
            assert_string_equal(err.field, bad[i][1]);
        }
    }
    trainsize_job_free(job);
}

/* The planner builds servers as the product does (4 per GB200 tray or v5p host), and
 * searches whole NVL72 racks: 72 GPUs is 18 trays, which no power-of-two count of trays
 * gives, so a limit of 72 examines more than a limit of 71. */
static void test_planner_hosts(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b", "tokens", "1000000000", "plan-gpus",
                                           "tpu-v5p,gb200", "max-gpus", "64"));
    trainsize_plan_candidate c[8];
    trainsize_plan_stats st;
    trainsize_error err;
    size_t n = 0, i;
    (void)state;
    assert_int_equal(trainsize_plan(job, c, 8, &n, &st, &err), TRAINSIZE_OK);
    assert_true(n > 0);
    for (i = 0; i < n && i < 8; i++)
        assert_true(c[i].gpus_per_node <= 4);
    trainsize_job_free(job);
    {
        trainsize_plan_stats below, whole;
        job = ts_test_job(PAIRS("model", "llama-2-7b", "tokens", "1000000000", "plan-gpus", "gb300", "max-gpus",
                                "71"));
        assert_int_equal(trainsize_plan(job, c, 8, &n, &below, &err), TRAINSIZE_OK);
        assert_int_equal(trainsize_job_set(job, "max-gpus", "72", &err), TRAINSIZE_OK);
        assert_int_equal(trainsize_plan(job, c, 8, &n, &whole, &err), TRAINSIZE_OK);
        assert_true(whole.evaluated > below.evaluated);
        trainsize_job_free(job);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_datatype_peaks), cmocka_unit_test(test_tpu_refuses_fp16),
        cmocka_unit_test(test_tpu_overheads),      cmocka_unit_test(test_tpu_host),
        cmocka_unit_test(test_scale_up_domain),    cmocka_unit_test(test_custom_tpu),
        cmocka_unit_test(test_planner_hosts),      cmocka_unit_test(test_tp_within_domain),
        cmocka_unit_test(test_advice_respects_host), cmocka_unit_test(test_fixed_host_overrides),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

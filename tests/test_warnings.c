/* The checklist: each warning appears when its condition holds, and not otherwise. */
#include "ts_test.h"

static uint64_t warnings_of(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.warnings;
}

static void test_each_warning_has_a_name_and_text(void **state)
{
    int bit, named = 0;
    (void)state;
    for (bit = 0; bit < 64; bit++) {
        const char *name = trainsize_warning_name(UINT64_C(1) << bit);
        if (!name) continue;
        named++;
        assert_non_null(trainsize_warning_text(UINT64_C(1) << bit));
    }
    assert_int_equal(named, 19);
    assert_null(trainsize_warning_name(3)); /* not a single bit */
}

static void test_conditions(void **state)
{
    (void)state;
    /* Fits with room: none of the memory warnings. */
    assert_false(warnings_of(PAIRS("model", "gpt2", "gpu", "h100-80gb")) &
                 (TRAINSIZE_WARN_DOES_NOT_FIT | TRAINSIZE_WARN_LOW_HEADROOM));
    assert_true(warnings_of(PAIRS("model", "llama-2-70b", "gpu", "a100-80gb")) &
                TRAINSIZE_WARN_DOES_NOT_FIT);
    /* 90 % headroom asked of a job using ~12 %: low headroom. */
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "h100-80gb", "micro-batch", "8",
                                  "headroom", "0.9")) & TRAINSIZE_WARN_LOW_HEADROOM);
    /* A server set too small for the job (128 GiB: 8 ranks x 8 loader workers x 2 GiB alone
     * need more), and one that covers the job (512 GiB) but not 2 x its 640 GB of GPUs. */
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "host-ram",
                                  "137438953472")) & TRAINSIZE_WARN_HOST_RAM);
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "host-ram",
                                  "549755813888")) & TRAINSIZE_WARN_HOST_RAM_RULE);
    assert_false(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "host-ram",
                                   "549755813888")) & TRAINSIZE_WARN_HOST_RAM);
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "8", "zero", "3", "cpu-cores",
                                  "16")) & TRAINSIZE_WARN_CPU_CORES);
    assert_true(warnings_of(PAIRS("model", "llama-2-70b", "gpus", "64", "zero", "3", "storage",
                                  "hdd")) & TRAINSIZE_WARN_STORAGE);
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "16", "zero", "3", "network",
                                  "eth-10g")) & (TRAINSIZE_WARN_NETWORK | TRAINSIZE_WARN_SLOW_MULTINODE));
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpus", "16", "zero", "3", "network",
                                  "eth-10g")) & TRAINSIZE_WARN_SLOW_MULTINODE);
    /* Tensor parallelism over PCIe, and across servers. */
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpu", "l40s", "gpus", "2", "tp", "2")) &
                TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    assert_true(warnings_of(PAIRS("model", "llama-2-70b", "gpus", "16", "tp", "16",
                                  "gpus-per-node", "8")) & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    assert_false(warnings_of(PAIRS("model", "llama-2-70b", "gpus", "8", "tp", "8")) &
                 TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    /* A month on consumer cards without ECC; none for a single step. */
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "rtx-4090", "tokens", "1e11")) &
                TRAINSIZE_WARN_NO_ECC);
    assert_false(warnings_of(PAIRS("model", "gpt2", "gpu", "rtx-4090")) & TRAINSIZE_WARN_NO_ECC);
    /* A server of 16 B200 at 1000 W x 1.8 = 28.8 kW is beyond a 20 kW air-cooled rack; one
     * of 8 (14.4 kW, the DGX B200's 14.3 kW maximum) is not. */
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpu", "b200", "gpus", "16",
                                  "gpus-per-node", "16", "rack-power-watts", "20000")) & TRAINSIZE_WARN_RACK_POWER);
    assert_false(warnings_of(PAIRS("model", "llama-2-7b", "gpu", "b200", "gpus", "8")) &
                 TRAINSIZE_WARN_RACK_POWER);
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "l4")) & TRAINSIZE_WARN_NO_PRICE);
    /* ZeRO-3 of a 7B model over 8 L40S (PCIe 4, no NVLink) gathers its weights faster than
     * PCIe can carry them within the step; over NVLink 3 (A100) it keeps up. */
    assert_true(warnings_of(PAIRS("model", "llama-2-7b", "gpu", "l40s", "gpus", "8", "zero", "3")) &
                TRAINSIZE_WARN_GPU_LINK);
    assert_false(warnings_of(PAIRS("model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "8", "zero", "3")) &
                 TRAINSIZE_WARN_GPU_LINK);
    assert_false(warnings_of(PAIRS("model", "gpt2", "gpu", "h100-80gb")) & TRAINSIZE_WARN_NO_PRICE);
    /* A V100 has neither bfloat16 nor FlashAttention-2 (Volta); fp16 and eager ask for
     * neither, and an A100 has both. */
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "v100-32gb")) & TRAINSIZE_WARN_NO_BF16);
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "v100-32gb", "precision", "bf16")) &
                TRAINSIZE_WARN_NO_BF16);
    assert_true(warnings_of(PAIRS("model", "gpt2", "gpu", "v100-32gb")) &
                TRAINSIZE_WARN_NO_FLASH_ATTENTION);
    assert_false(warnings_of(PAIRS("model", "gpt2", "gpu", "v100-32gb", "precision", "fp16-mixed",
                                   "attention", "eager")) &
                 (TRAINSIZE_WARN_NO_BF16 | TRAINSIZE_WARN_NO_FLASH_ATTENTION));
    assert_false(warnings_of(PAIRS("model", "gpt2", "gpu", "a100-80gb")) &
                 (TRAINSIZE_WARN_NO_BF16 | TRAINSIZE_WARN_NO_FLASH_ATTENTION));
}

/* The estimate of a bf16 job on a V100 is the fp16 one: same bytes, the FP16 rate. */
static void test_no_bf16_is_fp16(void **state)
{
    trainsize_result bf, fp;
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "v100-32gb"), &bf);
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "v100-32gb", "precision", "fp16-mixed"), &fp);
    assert_int_equal(bf.memory.peak_total, fp.memory.peak_total);
    assert_true(bf.time.step_seconds == fp.time.step_seconds);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_each_warning_has_a_name_and_text),
        cmocka_unit_test(test_conditions),
        cmocka_unit_test(test_no_bf16_is_fp16),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

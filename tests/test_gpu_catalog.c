/* The built-in GPU catalogue: names, look-up and datasheet values.
 *
 * Exact figures are checked against the vendors' datasheets (the verified rows of
 * docs/hardware-catalog.md); the comment on each check names the datasheet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "trainsize.h"

#define GIB(n) ((uint64_t)(n) << 30)

/* The short catalogue names the command line documents (`trainsize gpus`; the table in
 * docs/hardware-catalog.md, "The catalog"). */
static const char *const cli_names[] = {
    "v100-16gb", "v100-32gb", "a100-40gb", "a100-80gb", "a100-80gb-pcie", "h100-80gb",
    "h100-pcie", "h100-nvl",  "h200",      "b200",      "l40s",           "l4",
    "a10",       "a40",       "rtx-3090",  "rtx-4090",  "rtx-5090",       "mi250x",
    "mi300x",    "gaudi2",    "gaudi3",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ASCII upper-casing for the test's own use. */
static void upper(char *dst, size_t cap, const char *src)
{
    size_t i;
    for (i = 0; i + 1 < cap && src[i] != '\0'; i++)
        dst[i] = (src[i] >= 'a' && src[i] <= 'z') ? (char)(src[i] - 'a' + 'A') : src[i];
    dst[i] = '\0';
}

static void test_cli_names_resolve(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < COUNT(cli_names); i++) {
        const trainsize_gpu_info *g = trainsize_gpu_find(cli_names[i]);
        assert_non_null(g);
        /* The short names are the catalogue names themselves, not aliases. */
        assert_string_equal(g->name, cli_names[i]);
    }
}

static void test_case_insensitive(void **state)
{
    size_t i;
    char buf[64];
    (void)state;
    for (i = 0; i < COUNT(cli_names); i++) {
        upper(buf, sizeof buf, cli_names[i]);
        assert_ptr_equal(trainsize_gpu_find(buf), trainsize_gpu_find(cli_names[i]));
    }
    assert_ptr_equal(trainsize_gpu_find("H100-80GB"), trainsize_gpu_find("h100-80gb"));
    assert_ptr_equal(trainsize_gpu_find("Rtx-4090"), trainsize_gpu_find("rtx-4090"));
    assert_ptr_equal(trainsize_gpu_find("MI300x"), trainsize_gpu_find("mi300x"));
}

static void test_aliases_and_separators(void **state)
{
    (void)state;
    /* Long device names (form factor and memory), as docs/hardware-catalog.md lists them. */
    assert_string_equal(trainsize_gpu_find("A100-SXM4-80GB")->name, "a100-80gb");
    assert_string_equal(trainsize_gpu_find("H100-SXM5-80GB")->name, "h100-80gb");
    assert_string_equal(trainsize_gpu_find("H200-SXM-141GB")->name, "h200");
    assert_string_equal(trainsize_gpu_find("V100-PCIe-32GB")->name, "v100-32gb-pcie");
    /* Forms by analogy with the short names. */
    assert_string_equal(trainsize_gpu_find("h100-80gb-pcie")->name, "h100-pcie");
    assert_string_equal(trainsize_gpu_find("h100-sxm")->name, "h100-80gb");
    /* Separators '-', '_' and ' ' are ignored. */
    assert_string_equal(trainsize_gpu_find("RTX 4090")->name, "rtx-4090");
    assert_string_equal(trainsize_gpu_find("rtx4090")->name, "rtx-4090");
    assert_string_equal(trainsize_gpu_find("a100_80gb")->name, "a100-80gb");
    assert_string_equal(trainsize_gpu_find("Gaudi 3")->name, "gaudi3");
    assert_string_equal(trainsize_gpu_find(" h200 ")->name, "h200");
    /* a10 and a100-* stay distinct. */
    assert_string_equal(trainsize_gpu_find("A10")->name, "a10");
    assert_string_equal(trainsize_gpu_find("A40")->name, "a40");
}

static void test_unknown_names(void **state)
{
    (void)state;
    assert_null(trainsize_gpu_find(NULL));
    assert_null(trainsize_gpu_find(""));
    assert_null(trainsize_gpu_find("-"));
    assert_null(trainsize_gpu_find("   "));
    assert_null(trainsize_gpu_find("not-a-gpu"));
    assert_null(trainsize_gpu_find("h300"));
    assert_null(trainsize_gpu_find("a100-80gbx"));
    assert_null(trainsize_gpu_find("a100-80"));
    /* Ambiguous family names are not guessed. */
    assert_null(trainsize_gpu_find("a100"));
    assert_null(trainsize_gpu_find("h100"));
    assert_null(trainsize_gpu_find("v100"));
}

static void test_every_row_valid(void **state)
{
    size_t n = trainsize_gpu_count();
    size_t i, j;
    (void)state;
    assert_true(n >= COUNT(cli_names));
    for (i = 0; i < n; i++) {
        const trainsize_gpu_info *g = trainsize_gpu_at(i);
        const char *c;
        assert_non_null(g);
        assert_non_null(g->name);
        assert_true(g->name[0] != '\0');
        for (c = g->name; *c; c++) /* lowercase, digits and '-' only */
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-');
        assert_non_null(g->full_name);
        assert_true(g->full_name[0] != '\0');
        assert_true(g->memory_bytes > 0);
        assert_true(g->memory_bytes % GIB(1) == 0);
        /* The runtime's total is under the label: the driver keeps 0.5-3 % of HBM, and
         * GDDR6 with ECC on (L4, A10, A40, L40S) gives up another 6.25 %. */
        if (g->usable_bytes) {
            assert_true(g->usable_bytes < g->memory_bytes);
            assert_true(g->usable_bytes > g->memory_bytes / 100 * 90);
        }
        assert_true(g->memory_bandwidth > 0);
        /* A 16-bit rate: BF16, or FP16 alone on a part without bf16 (V100). */
        if (g->no_bf16)
            assert_true(g->flops_bf16 == 0.0 && g->flops_fp16 > 0.0);
        else
            assert_true(g->flops_bf16 > 0.0);
        assert_true(g->flops_fp32 >= 0.0);
        assert_true(g->flops_fp8 >= 0.0);
        assert_true(g->flops_fp16 >= 0.0 && g->flops_fp4 >= 0.0);
        /* Only TPUs go without a published power figure (and they warn no-power-figure). */
        assert_true(g->tdp_watts > 0.0 || g->kind == TRAINSIZE_ACCELERATOR_TPU);
        /* TPUs take no IEEE fp16; every GPU does. */
        assert_int_equal(g->no_fp16, g->kind == TRAINSIZE_ACCELERATOR_TPU);
        assert_non_null(g->vendor);
        assert_true(strcmp(g->vendor, "NVIDIA") == 0 || strcmp(g->vendor, "AMD") == 0 ||
                    strcmp(g->vendor, "Intel") == 0 || strcmp(g->vendor, "Google") == 0);
        assert_int_equal(g->kind == TRAINSIZE_ACCELERATOR_TPU, strcmp(g->vendor, "Google") == 0);
        /* A domain beyond one host spans hosts, or is an NVLink bridge's (2 or 4 PCIe cards
         * of a buyer's server); a product's host comes with its RAM and cores. */
        if (g->scale_up_domain)
            assert_true((g->per_host > 0 && g->scale_up_domain > (uint64_t)g->per_host) ||
                        (g->per_host == 0 && g->scale_up_domain <= 4 && g->scale_up_bandwidth > 0 &&
                         g->pcie_generation > 0));
        assert_int_equal(g->host_ram_bytes > 0, g->host_cores > 0);
        if (g->host_ram_bytes) assert_true(g->per_host > 0);
        /* A price has its date; an unpriced row has none. */
        assert_non_null(g->price_date);
        assert_int_equal(g->price_date[0] != '\0', g->cloud_usd_per_hour > 0 || g->purchase_usd > 0);
        assert_true(g->ecc == 0 || g->ecc == 1);
        assert_true(g->data_center == 0 || g->data_center == 1);
        assert_true(g->pcie_generation >= 0 && g->pcie_generation <= 6);
        assert_non_null(g->source);
        assert_true(g->source[0] != '\0');
        assert_non_null(g->architecture);
        assert_true(g->architecture[0] != '\0');
        /* Volta has neither bfloat16 nor FlashAttention-2; every later part has both. */
        assert_int_equal(g->no_bf16, strcmp(g->architecture, "Volta") == 0);
        assert_int_equal(g->no_flash_attention, strcmp(g->architecture, "Volta") == 0);
        /* Consumer cards have no ECC by default. */
        if (!g->data_center)
            assert_int_equal(g->ecc, 0);
        /* Each row is found by its own name. */
        assert_ptr_equal(trainsize_gpu_find(g->name), g);
        /* Names are distinct, also once case and separators are ignored. */
        for (j = 0; j < i; j++)
            assert_ptr_not_equal(trainsize_gpu_find(trainsize_gpu_at(j)->name), g);
    }
}

/* Runtime totals from public printouts (docs/hardware-catalog.md): PyTorch's
 * get_device_properties on an H100 80GB HBM3 prints total_memory=81089MB (torch 2.7,
 * CUDA 12.8); deviceQuery on an A100-SXM4-40GB (driver 535) 40339 MiB
 * (bottlerocket-os/bottlerocket#3873). Fit checks use them, not the label. */
static void test_usable_memory(void **state)
{
    trainsize_job *job = trainsize_job_new();
    trainsize_result r;
    trainsize_error err;
    (void)state;
    assert_true(trainsize_gpu_find("h100-80gb")->usable_bytes == UINT64_C(81089) << 20);
    assert_true(trainsize_gpu_find("a100-40gb")->usable_bytes == UINT64_C(40339) << 20);
    assert_true(trainsize_gpu_find("gaudi2")->usable_bytes == 0); /* none published */
    assert_non_null(job);
    assert_int_equal(trainsize_job_set(job, "model", "llama-2-7b", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "gpu", "h100-80gb", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.memory.gpu_capacity == UINT64_C(81089) << 20);
    assert_int_equal(trainsize_job_set(job, "gpu", "gaudi2", &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, &err), TRAINSIZE_OK);
    assert_true(r.memory.gpu_capacity == GIB(96));
    trainsize_job_free(job);
}

static void test_index_out_of_range(void **state)
{
    (void)state;
    assert_non_null(trainsize_gpu_at(0));
    assert_non_null(trainsize_gpu_at(trainsize_gpu_count() - 1));
    assert_null(trainsize_gpu_at(trainsize_gpu_count()));
    assert_null(trainsize_gpu_at((size_t)-1));
}

static void test_datasheet_values(void **state)
{
    const trainsize_gpu_info *g;
    (void)state;

    /* A100 80GB SXM4: NVIDIA A100 datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4),
     * as reproduced on glennklockwood.com/garden/processors/A100; verified. The row's
     * source names that datasheet. */
    g = trainsize_gpu_find("a100-80gb");
    assert_non_null(g);
    assert_non_null(strstr(g->source, "NVIDIA A100 datasheet"));
    assert_true(g->memory_bytes == GIB(80));
    assert_true(g->memory_bandwidth == UINT64_C(2039000000000));
    assert_true(g->flops_bf16 == 312e12);
    assert_true(g->tdp_watts == 400.0);
    assert_true(g->scale_up_bandwidth == UINT64_C(600000000000)); /* NVLink3 12 x 50 GB/s */
    assert_int_equal(g->ecc, 1);
    assert_int_equal(g->data_center, 1);

    /* H100 SXM5 80GB: NVIDIA H100 datasheet (nvidia.com/en-us/data-center/h100);
     * 1830 MHz x 512 FMA x 2 x 528 TC = 989.4 TF (ML Engineering book, accelerator chapter,
     * github.com/stas00/ml-engineering); verified. The source names the page. */
    g = trainsize_gpu_find("h100-80gb");
    assert_non_null(g);
    assert_non_null(strstr(g->source, "nvidia.com/en-us/data-center/h100"));
    assert_true(g->flops_bf16 == 989.4e12);
    assert_true(g->flops_fp8 == 1978.9e12);
    assert_true(g->tdp_watts == 700.0);
    assert_true(g->scale_up_bandwidth == UINT64_C(900000000000)); /* NVLink4 18 x 50 GB/s */
    assert_int_equal(g->pcie_generation, 5);

    /* H200 SXM 141GB: nvidia.com/en-us/data-center/h200 and MLPerf system JSON ("18x 4th
     * Gen NVLink, 900GB/s", "H200 TGP 700W"); verified. */
    g = trainsize_gpu_find("h200");
    assert_non_null(g);
    assert_true(g->memory_bytes == GIB(141));
    assert_true(g->memory_bandwidth == UINT64_C(4800000000000));
    /* nvidia-smi shows 143771 MiB: less than the label, as documented. */
    assert_true(g->memory_bytes > UINT64_C(143771) << 20);

    /* B200: DGX B200 user guide (docs.nvidia.com/dgx/dgxb200-user-guide: 8 GPUs =
     * 1,440 GB), 180 GB usable, not the 192 of the marketing material. */
    g = trainsize_gpu_find("b200");
    assert_non_null(g);
    assert_true(g->memory_bytes == GIB(180));
    assert_true(g->scale_up_bandwidth == UINT64_C(1800000000000));

    /* GeForce RTX 4090: bf16 is the FP32-accumulate rate (165.2, not 330.3); no ECC;
     * Ada whitepaper as reproduced by hmc-tech.com and waredb.com; cross-checked (two
     * secondary sources agree). */
    g = trainsize_gpu_find("rtx-4090");
    assert_non_null(g);
    assert_true(g->flops_bf16 == 165.2e12);
    assert_int_equal(g->ecc, 0);
    assert_int_equal(g->data_center, 0);
    assert_true(g->scale_up_bandwidth == 0);

    /* GeForce RTX 3090: GA102 whitepaper v2 Appendix A, 71 TF FP32-accumulate. */
    g = trainsize_gpu_find("rtx-3090");
    assert_non_null(g);
    assert_true(g->flops_bf16 == 71e12);
    assert_true(g->memory_bandwidth == UINT64_C(936000000000));

    /* MI300X: AMD MI300X page via stas00; 192 GB, 5.3 TB/s, 1307.4 TF, 750 W. */
    g = trainsize_gpu_find("mi300x");
    assert_non_null(g);
    assert_true(g->memory_bytes == GIB(192));
    assert_true(g->memory_bandwidth == UINT64_C(5300000000000));
    assert_true(g->flops_bf16 == 1307.4e12);
    assert_true(g->tdp_watts == 750.0);

    /* L40S: NVIDIA L40S datasheet; a PCIe-only card. */
    g = trainsize_gpu_find("l40s");
    assert_non_null(g);
    assert_true(g->scale_up_bandwidth == 0);
    assert_true(g->flops_bf16 == 362e12);

    /* V100 has no BF16 and no FP8: its 125 TF tensor rate is FP16 (V100 datasheet
     * 1165301-r5), so it is the FP16 figure and BF16 is 0. */
    g = trainsize_gpu_find("v100-32gb");
    assert_non_null(g);
    assert_true(g->flops_fp8 == 0.0);
    assert_true(g->flops_bf16 == 0.0);
    assert_true(g->flops_fp16 == 125e12);
    assert_true(g->memory_bytes == GIB(32));
}

/* The 2025-26 rows, a few datasheet figures per vendor; each source is named beside it and
 * in the row's source string. */
static void test_datasheet_values_2026(void **state)
{
    const trainsize_gpu_info *g;
    (void)state;

    /* NVIDIA GB300: "15 PetaFLOPS dense NVFP4" (NVIDIA technical blog, Inside NVIDIA
     * Blackwell Ultra, 2025-08); 1400 W TGP and 4 GPUs per tray (NVIDIA's MLPerf GB300
     * NVL72 system description); a 72-GPU NVLink domain of 1.8 TB/s per GPU. */
    g = trainsize_gpu_find("gb300");
    assert_non_null(g);
    assert_string_equal(g->vendor, "NVIDIA");
    assert_true(g->flops_fp4 == 15000e12);
    assert_true(g->flops_bf16 == 2500e12 && g->flops_fp8 == 5000e12);
    assert_true(g->tdp_watts == 1400.0);
    assert_true(g->scale_up_domain == 72 && g->per_host == 4);
    assert_true(g->scale_up_bandwidth == UINT64_C(1800000000000));
    assert_true(g->host_ram_bytes == GIB(960) && g->host_cores == 144); /* 2 Grace */
    assert_non_null(strstr(g->source, "Blackwell Ultra"));

    /* NVIDIA RTX PRO 6000 Blackwell: 96 GB GDDR7 at 1792 GB/s, 600 W, PCIe only. */
    g = trainsize_gpu_find("rtx-pro-6000");
    assert_non_null(g);
    assert_true(g->memory_bytes == GIB(96));
    assert_true(g->memory_bandwidth == UINT64_C(1792000000000));
    assert_true(g->scale_up_bandwidth == 0 && g->tdp_watts == 600.0);

    /* AMD MI355X: 288 GB HBM3E at 8 TB/s, 1400 W (Tom's Hardware 2025-06, Hot Chips 2025);
     * dense 2.5 PF BF16 / 5 PF FP8 / 10 PF MXFP4 from AMD's page via stas00. */
    g = trainsize_gpu_find("mi355x");
    assert_non_null(g);
    assert_string_equal(g->vendor, "AMD");
    assert_true(g->memory_bytes == GIB(288));
    assert_true(g->memory_bandwidth == UINT64_C(8000000000000));
    assert_true(g->flops_bf16 == 2516.6e12 && g->flops_fp8 == 5033e12 && g->flops_fp4 == 10066e12);
    assert_true(g->tdp_watts == 1400.0);

    /* Intel Gaudi 3: the PCIe card (HL-338) is the OAM's silicon at 600 W (The Register,
     * 2024-04-12); FP16 on the MME is 459 TF against 1677 BF16 (stas00). */
    g = trainsize_gpu_find("gaudi3-pcie");
    assert_non_null(g);
    assert_string_equal(g->vendor, "Intel");
    assert_true(g->tdp_watts == 600.0 && g->memory_bytes == GIB(128));
    assert_true(g->flops_fp16 == 459e12 && g->flops_bf16 == 1677e12);
    assert_true(trainsize_gpu_find("gaudi3")->flops_fp16 == 459e12);
    assert_ptr_equal(trainsize_gpu_find("HL-338"), g);

    /* Google TPU v5p: 459 TF BF16, 95 GiB at 2765 GB/s, 4 chips and 208 vCPU / 448 GB per
     * ct5p-hightpu-4t VM (docs.cloud.google.com/tpu/docs/v5p-training). */
    g = trainsize_gpu_find("tpu-v5p");
    assert_non_null(g);
    assert_string_equal(g->vendor, "Google");
    assert_int_equal(g->kind, TRAINSIZE_ACCELERATOR_TPU);
    assert_true(g->flops_bf16 == 459e12 && g->memory_bytes == GIB(95));
    assert_true(g->memory_bandwidth == UINT64_C(2765000000000));
    assert_true(g->per_host == 4 && g->host_cores == 208 && g->host_ram_bytes == GIB(448));
    assert_int_equal(g->no_fp16, 1);

    /* Google TPU v6e (Trillium): 918 TF, 32 GB at 1638 GB/s, ICI 800 GB/s, 256-chip pod
     * (docs.cloud.google.com/tpu/docs/v6e). */
    g = trainsize_gpu_find("trillium");
    assert_non_null(g);
    assert_string_equal(g->name, "tpu-v6e");
    assert_true(g->flops_bf16 == 918e12 && g->memory_bytes == GIB(32));
    assert_true(g->scale_up_bandwidth == UINT64_C(800000000000) && g->scale_up_domain == 256);

    /* Google TPU7x (Ironwood): 2307 TF BF16, 4614 TF FP8, 192 GiB at 7380 GB/s, a 9216-chip
     * pod (docs.cloud.google.com/tpu/docs/tpu7x). */
    g = trainsize_gpu_find("tpu7x");
    assert_non_null(g);
    assert_string_equal(g->name, "tpu-v7");
    assert_true(g->flops_bf16 == 2307e12 && g->flops_fp8 == 4614e12);
    assert_true(g->memory_bytes == GIB(192) && g->scale_up_domain == 9216);
}

static void test_unverified_marked(void **state)
{
    /* No primary source confirms some figures of these rows (H200 NVL TFLOPS and bridge,
     * A10 tensor TFLOPS, RTX 5090 dense FP32-accumulate and FP8, Gaudi 2 ECC, Gaudi 3 ECC,
     * B300 FP4, H20 FP8); the source string must say so. */
    static const char *const unverified[] = {"h200-nvl", "a10", "rtx-5090", "gaudi2", "gaudi3", "b300", "h20"};
    size_t i;
    (void)state;
    for (i = 0; i < COUNT(unverified); i++) {
        const trainsize_gpu_info *g = trainsize_gpu_find(unverified[i]);
        assert_non_null(g);
        assert_non_null(strstr(g->source, "unverified"));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cli_names_resolve),
        cmocka_unit_test(test_case_insensitive),
        cmocka_unit_test(test_aliases_and_separators),
        cmocka_unit_test(test_unknown_names),
        cmocka_unit_test(test_every_row_valid),
        cmocka_unit_test(test_index_out_of_range),
        cmocka_unit_test(test_usable_memory),
        cmocka_unit_test(test_datasheet_values),
        cmocka_unit_test(test_datasheet_values_2026),
        cmocka_unit_test(test_unverified_marked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

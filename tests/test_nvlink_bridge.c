/* NVLink bridges join pairs of PCIe cards (NVIDIA's A100 PCIe, H100 PCIe/NVL, A40, RTX
 * A6000 and RTX 3090 product briefs: a 2-way bridge; H200 NVL 2- or 4-way): a tensor- or
 * expert-parallel group wider than the bridge talks over PCIe. Before, A100 and H100 PCIe
 * at tp 4 were timed as SXM boards (the same step) and an RTX 3090 at tp 4 got no
 * warning. */
#include "ts_test.h"

#include "catalog.h"

static void estimate_tp(const char *gpu, const char *tp, trainsize_result *r)
{
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", gpu, "gpus", "4", "gpus-per-node", "4",
                           "tp", tp, "seq", "2048", "micro-batch", "4", "hfu", "0.5", "tp-overlap", "no"), r);
}

/* tp 4 on bridged pairs is slower than on the SXM part with the same compute, and warns;
 * tp 2 stays on the bridge, at the bridge's rate, and does not warn. */
static void test_tp_past_a_bridge_goes_over_pcie(void **state)
{
    static const struct { const char *pcie, *sxm; } pairs[] = {
        {"a100-80gb-pcie", "a100-80gb"},
    };
    trainsize_result bridged, board;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        estimate_tp(pairs[i].pcie, "4", &bridged);
        estimate_tp(pairs[i].sxm, "4", &board);
        /* the same peak (312 TFLOP/s both) at a set hfu, the same compute; the tp
         * collectives differ */
        assert_true(fabs((bridged.time.step_seconds - bridged.time.comm_seconds) -
                         (board.time.step_seconds - board.time.comm_seconds)) < 1e-9);
        assert_true(bridged.time.step_seconds > 1.2 * board.time.step_seconds);
        assert_true(bridged.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
        assert_false(board.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
        estimate_tp(pairs[i].pcie, "2", &bridged);
        assert_false(bridged.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    }
}

/* H100 PCIe and RTX 3090: tp 4 warns and is slower than tp 2 on the bridge would make it
 * look; the catalogue says which cards are bridged and how many a bridge joins. */
static void test_bridged_cards(void **state)
{
    static const char *const bridged[] = {"a100-40gb-pcie", "a100-80gb-pcie", "h100-pcie", "h100-nvl",
                                          "a40", "rtx-a6000", "rtx-3090", "rtx-3090-ti"};
    trainsize_result r2, r4;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof bridged / sizeof bridged[0]; i++)
        assert_int_equal(ts_bridge_span(trainsize_gpu_find(bridged[i]), 8), 2);
    assert_int_equal(ts_bridge_span(trainsize_gpu_find("h200-nvl"), 8), 4);
    assert_int_equal(ts_bridge_span(trainsize_gpu_find("h100-80gb"), 8), 0); /* NVSwitch board */
    assert_int_equal(ts_bridge_span(trainsize_gpu_find("gb200"), 4), 0);     /* NVL72 */
    assert_int_equal(ts_bridge_span(trainsize_gpu_find("rtx-3090"), 2), 0);  /* one pair: all of it */
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "rtx-3090", "gpus", "4", "tp", "4",
                           "lora-rank", "16", "quantize-base", "nf4"), &r4);
    assert_true(r4.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    estimate_tp("h100-pcie", "4", &r4);
    estimate_tp("h100-pcie", "2", &r2);
    assert_true(r4.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    assert_false(r2.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
}

/* What the first version got wrong (review): a bridge is no fabric between servers of one
 * card; data-parallel traffic across pairs stays in the server (over PCIe), and is judged
 * against PCIe; a one-server job whose checkpoints outrun every NVMe still gets storage. */
static void test_bridge_edges(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-3-8b", "gpu", "a100-80gb-pcie", "gpus", "2", "gpus-per-node",
                           "1", "tp", "2", "tokens", "1e9"), &r);
    assert_string_not_equal(r.system.network_link, "");
    assert_true(r.warnings & TRAINSIZE_WARN_TP_WITHOUT_NVLINK);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "a100-80gb-pcie", "gpus", "8", "zero", "3",
                           "tokens", "1e9", "global-batch", "8"), &r);
    assert_true(r.system.intra_node_rate_per_gpu > 0);
    ts_test_estimate(PAIRS("model", "llama-2-7b", "gpu", "a100-80gb-pcie", "gpus", "8", "tp", "8",
                           "tokens", "1e9"), &r);
    assert_true(r.warnings & TRAINSIZE_WARN_GPU_LINK);
    ts_test_estimate(PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "tokens", "1e9",
                           "checkpoint-seconds", "5"), &r);
    assert_string_not_equal(r.system.storage_class, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tp_past_a_bridge_goes_over_pcie),
        cmocka_unit_test(test_bridged_cards),
        cmocka_unit_test(test_bridge_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

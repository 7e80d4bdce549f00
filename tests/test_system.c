/* Server sizing rules that must always hold (the design's checklist). */
#include "ts_test.h"

/* 16 x A100-80GB over two nodes: host RAM >= 2 x 8 x 80 GiB = 1280 GiB per node, >= 8 cores
 * per node, inter-node bandwidth only with two nodes, power at least the GPUs' TDP. */
static void test_two_nodes_of_a100(void **state)
{
    trainsize_result one, two;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-13b", "gpu", "a100-80gb", "gpus", "16",
                           "gpus-per-node", "8", "zero", "3"), &two);
    ts_test_estimate(PAIRS("model", "llama-2-13b", "gpu", "a100-80gb", "gpus", "8",
                           "gpus-per-node", "8", "zero", "3"), &one);
    assert_int_equal(two.system.nodes, 2);
    assert_int_equal(two.system.gpus_per_node, 8);
    assert_true(two.system.host_ram_per_node >= 1280ull * 1073741824ull);
    assert_true(two.system.cpu_cores_per_node >= 8);
    assert_true(two.system.interconnect_rate_per_node > 0);
    assert_true(two.system.power_watts >= 16 * 400.0);
    assert_int_equal(one.system.nodes, 1);
    assert_int_equal(one.system.interconnect_rate_per_node, 0);
}

/* A single small GPU still gets a server of at least 8 cores and 2 x its memory. */
static void test_small_server_floors(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS("model", "gpt2", "gpu", "rtx-4090", "gpus", "1"), &r);
    assert_true(r.system.cpu_cores_per_node >= 8);
    assert_true(r.system.host_ram_per_node >= 2ull * 24 * 1073741824ull);
    assert_true(r.system.storage_capacity > 0);
    assert_true(r.system.storage_read_rate > 0);
}

/* Offloaded state must fit in host RAM too. */
static void test_offload_raises_host_ram(void **state)
{
    trainsize_result plain, off;
    (void)state;
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "a100-80gb", "gpus", "8", "zero", "3"),
                     &plain);
    ts_test_estimate(PAIRS("model", "llama-2-70b", "gpu", "a100-80gb", "gpus", "8", "zero", "3",
                           "offload", "optimizer+params"), &off);
    assert_true(off.system.host_ram_per_node >= 8 * off.memory.host_offload);
    assert_true(off.system.host_ram_per_node >= plain.system.host_ram_per_node);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_nodes_of_a100),
        cmocka_unit_test(test_small_server_floors),
        cmocka_unit_test(test_offload_raises_host_ram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

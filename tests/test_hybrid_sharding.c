/* Hybrid sharding and the gradients' type on the wire (docs/methodology.md, "ZeRO stages"
 * and "Communication per step"): shard-group N shards the model state over N data-parallel
 * ranks and replicates it across the others, whose gradient shards are all-reduced;
 * reduce-precision sets the bytes the gradients' reduction moves, not the bytes held. */
#include "ts_test.h"

#define JOB "model", "llama-2-13b", "gpu", "a100-80gb", "gpus-per-node", "8", "seq", "4096", \
            "zero", "3", "precision", "bf16-mixed", "stack", "fsdp", "network", "eth-400g", \
            "nics-per-node", "1", "gpu-variation", "0"

/* 64 GPUs in groups of 8 keep what 8 GPUs of one full-sharding group keep. */
static void test_state_sharded_within_the_group(void **state)
{
    trainsize_result hybrid, eight;
    (void)state;
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8"), &hybrid);
    ts_test_estimate(PAIRS(JOB, "gpus", "8", "global-batch", "8"), &eight);
    assert_int_equal(hybrid.memory.weights, eight.memory.weights);
    assert_int_equal(hybrid.memory.gradients, eight.memory.gradients);
    assert_int_equal(hybrid.memory.optimizer, eight.memory.optimizer);
}

/* Across servers a group of a server's 8 GPUs sends only the all-reduce of its gradient
 * shard, 2 (R - 1) / R of it for R replicas: 8 servers need 7/4 of what 2 need, for the same
 * work per GPU (the same window); full sharding across the servers needs more. */
static void test_only_the_shard_crosses_servers(void **state)
{
    trainsize_result eight, two, full;
    (void)state;
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8"), &eight);
    ts_test_estimate(PAIRS(JOB, "gpus", "16", "global-batch", "16", "shard-group", "8"), &two);
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64"), &full);
    ts_assert_near((double)eight.system.interconnect_rate_per_node,
                   1.75 * (double)two.system.interconnect_rate_per_node,
                   (double)two.system.interconnect_rate_per_node * 1e-6);
    assert_true(eight.system.interconnect_rate_per_node < full.system.interconnect_rate_per_node);
}

/* The gradients' type on the wire: fp32 moves twice the bf16 bytes and holds the same. */
static void test_reduce_precision_is_the_wire_only(void **state)
{
    trainsize_result half, fp32;
    (void)state;
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8"), &half);
    ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8", "reduce-precision", "fp32"),
                     &fp32);
    assert_int_equal(half.memory.gradients, fp32.memory.gradients);
    ts_assert_near((double)fp32.system.interconnect_rate_per_node,
                   2.0 * (double)half.system.interconnect_rate_per_node,
                   (double)half.system.interconnect_rate_per_node * 1e-6);
    /* torchtitan reduces in fp32 by default (mixed_precision_reduce): as reduce-precision
     * fp32 under the same stack, twice its bf16 */
    {
        trainsize_result titan, titan32, titan16;
        ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8", "stack", "torchtitan"),
                         &titan);
        ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8", "stack", "torchtitan",
                               "reduce-precision", "fp32"), &titan32);
        ts_test_estimate(PAIRS(JOB, "gpus", "64", "global-batch", "64", "shard-group", "8", "stack", "torchtitan",
                               "reduce-precision", "half"), &titan16);
        ts_assert_near((double)titan.system.interconnect_rate_per_node,
                       (double)titan32.system.interconnect_rate_per_node,
                       (double)titan32.system.interconnect_rate_per_node * 1e-6);
        ts_assert_near((double)titan.system.interconnect_rate_per_node,
                       2.0 * (double)titan16.system.interconnect_rate_per_node,
                       (double)titan16.system.interconnect_rate_per_node * 1e-6);
    }
}

/* Refused with the field named: no ZeRO, a group of one, one that does not divide dp x cp,
 * expert parallelism. */
static void test_bad_groups_are_refused(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "gpus", "64", "shard-group", "8", "zero", "0"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "shard-group");
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "gpus", "64", "shard-group", "1"), &err), TRAINSIZE_E_UNSUPPORTED);
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "gpus", "64", "shard-group", "6"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "shard-group");
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "mixtral-8x7b", "gpus", "16", "ep", "2", "zero", "3",
                                               "shard-group", "8"),
                                         &err),
                     TRAINSIZE_E_UNSUPPORTED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_sharded_within_the_group),
        cmocka_unit_test(test_only_the_shard_crosses_servers),
        cmocka_unit_test(test_reduce_precision_is_the_wire_only),
        cmocka_unit_test(test_bad_groups_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

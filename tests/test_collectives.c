/* Collectives priced where their ranks sit (lib/comm.c): the NICs a group's ranks share in
 * each server, NVLink SHARP and InfiniBand SHARP all-reduces, and the overlap settings.
 * The exact figures follow the alpha-beta model of docs/methodology.md ("Communication per
 * step") with the catalogue's links: A100 NVLink 600 GB/s both ways (a ring reaches 0.8 of
 * 300), HDR InfiniBand 25 GB/s per NIC at 0.85. */
#include "ts_test.h"

/* Llama 2 7B (6,738,415,616 parameters), fp32 gradients under pytorch conventions, on two
 * servers of 8 A100; short samples so that the gradient all-reduce dominates, and nothing
 * overlapping it so that its whole time is exposed. */
#define DDP16 "model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "16", "seq", "128", "micro-batch", "1", \
              "framework", "pytorch", "network", "ib-hdr", "dp-overlap", "no"
#define AR_BYTES (2.0 * 15.0 / 16.0 * 6738415616.0 * 4.0)
#define LATENCY (32.0 * 2.0 * 4.0 * 1e-5) /* a collective per layer, 2 log2(16) steps of 10 us */

static double comm(const char *const *pairs)
{
    trainsize_result r;
    ts_test_estimate(pairs, &r);
    return r.time.comm_seconds;
}

/* All 8 ranks of each server in the group: NCCL runs a channel per NIC, so the group moves
 * its inter-server bytes over the 8 NICs (8 x 21.25 GB/s, under NVLink's 240), as
 * nccl-tests show on 8-GPU servers (365 GB/s bus bandwidth on 400 GB/s of NICs each). */
static void test_group_uses_every_nic_of_its_ranks(void **state)
{
    trainsize_result server, own;
    (void)state;
    ts_test_estimate(PAIRS(DDP16, "dp-nics", "server"), &server);
    ts_test_estimate(PAIRS(DDP16, "dp-nics", "own"), &own);
    ts_assert_near(server.time.comm_seconds, AR_BYTES / (8.0 * 21.25e9) + LATENCY, 1e-9);
    ts_assert_near(own.time.comm_seconds, AR_BYTES / 21.25e9 + LATENCY, 1e-9);
    /* each NIC carries a 1/8 slice of the ring: the server sends an eighth of the bytes */
    assert_true(server.system.interconnect_rate_per_node * 7 < own.system.interconnect_rate_per_node);
    /* pytorch conventions (DDP, FSDP on today's NCCL) take every NIC by default */
    ts_assert_near(comm(PAIRS(DDP16)), server.time.comm_seconds, 1e-12);
}

/* Tensor parallelism over the 8 GPUs of a server leaves one rank of each data-parallel
 * group per server: the group has one NIC per server whatever the setting. */
static void test_one_rank_per_server_has_one_nic(void **state)
{
    (void)state;
    ts_assert_near(comm(PAIRS(DDP16, "tp", "8", "dp-nics", "server")),
                       comm(PAIRS(DDP16, "tp", "8", "dp-nics", "own")), 1e-12);
}

/* Under megatron and deepspeed conventions auto keeps each rank's own NIC share, what their
 * published runs (tests/accuracy/fixtures/time.json) were calibrated with. */
static void test_calibrated_conventions_keep_their_own_nic(void **state)
{
    (void)state;
    ts_assert_near(comm(PAIRS(DDP16, "framework", "deepspeed", "zero", "3")),
                       comm(PAIRS(DDP16, "framework", "deepspeed", "zero", "3", "dp-nics", "own")), 1e-12);
    assert_true(comm(PAIRS(DDP16, "framework", "deepspeed", "zero", "3", "dp-nics", "server")) * 4 <
                comm(PAIRS(DDP16, "framework", "deepspeed", "zero", "3")));
}

/* InfiniBand SHARP: the switches reduce, an all-reduce's bytes cross each NIC once each way,
 * twice the NICs' ring rate (340 GB/s), so NVLink's 240 GB/s bounds it. ZeRO-1's
 * reduce-scatter and all-gather are not all-reduces and keep the ring. */
static void test_sharp_halves_an_all_reduce(void **state)
{
    (void)state;
    ts_assert_near(comm(PAIRS(DDP16, "sharp", "true")), AR_BYTES / 240e9 + LATENCY, 1e-9);
    ts_assert_near(comm(PAIRS(DDP16, "zero", "1", "framework", "pytorch", "sharp", "true")),
                       comm(PAIRS(DDP16, "zero", "1", "framework", "pytorch")), 1e-12);
}

/* NVLink SHARP inside an HGX H100 server: an all-reduce at 1.05 of the 450 GB/s link rate
 * where a ring reaches 0.8 (nccl-tests: 480 vs 370 GB/s bus bandwidth). */
static void test_nvls_all_reduce_inside_a_server(void **state)
{
#define H8 "model", "llama-2-7b", "gpu", "h100-80gb", "gpus", "8", "seq", "128", "framework", "pytorch", \
           "dp-overlap", "no"
    double bytes = 2.0 * 7.0 / 8.0 * 6738415616.0 * 4.0, lat = 32.0 * 2.0 * 3.0 * 1e-5;
    (void)state;
    ts_assert_near(comm(PAIRS(H8)), bytes / (450e9 * 1.05) + lat, 1e-9);
    ts_assert_near(comm(PAIRS(H8, "nvls", "no")), bytes / (450e9 * 0.8) + lat, 1e-9);
    /* A100 has no NVLink SHARP: auto leaves its ring */
    ts_assert_near(comm(PAIRS(H8, "gpu", "a100-80gb")), bytes / 240e9 + lat, 1e-9);
#undef H8
}

/* dp-overlap: under Megatron-LM's stack, with a pipeline, auto reduces after the flush
 * (nothing overlaps); yes overlaps the reduce-scatter with the last backward and the
 * all-gather with the next forward; without a pipeline auto overlaps the last backward, no
 * nothing. Megatron-Core's stack (auto for a Megatron layout) overlaps. */
static void test_data_parallel_overlap(void **state)
{
#define PP "model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "32", "pp", "2", "zero", "1", "network", "ib-hdr", \
           "global-batch", "64"
#define FLAT "model", "llama-2-7b", "gpu", "a100-80gb", "gpus", "32", "zero", "1", "network", "ib-hdr", \
             "global-batch", "64", "framework", "megatron"
    (void)state;
    ts_assert_near(comm(PAIRS(PP, "stack", "megatron-lm", "dp-overlap", "auto")),
                   comm(PAIRS(PP, "stack", "megatron-lm", "dp-overlap", "no")), 1e-12);
    ts_assert_near(comm(PAIRS(PP)), comm(PAIRS(PP, "stack", "megatron-core")), 1e-12);
    ts_assert_near(comm(PAIRS(PP)), comm(PAIRS(PP, "dp-overlap", "yes", "tp-overlap", "yes", "dp-nics", "server")),
                   1e-12);
    assert_true(comm(PAIRS(PP, "stack", "megatron-lm", "dp-overlap", "yes")) <
                comm(PAIRS(PP, "stack", "megatron-lm")));
    assert_true(comm(PAIRS(FLAT, "dp-overlap", "yes")) < comm(PAIRS(FLAT, "dp-overlap", "auto")));
    assert_true(comm(PAIRS(FLAT, "dp-overlap", "auto")) < comm(PAIRS(FLAT, "dp-overlap", "no")));
    /* ZeRO-3 without its prefetch: every gather waits */
    assert_true(comm(PAIRS(FLAT, "zero", "3", "dp-overlap", "no")) > comm(PAIRS(FLAT, "zero", "3")));
#undef PP
#undef FLAT
}

/* tp-overlap: Llama 2 70B at tp 8 on one H100 server moves 30 % of its matmuls' time in
 * tensor-parallel traffic; in chunks under the matmuls it all hides. Megatron-LM's stack
 * blocks; Megatron-Core's (auto for this layout) overlaps. */
static void test_tensor_parallel_overlap(void **state)
{
#define TP8 "model", "llama-2-70b", "gpu", "h100-80gb", "gpus", "8", "tp", "8", "seq", "4096"
    (void)state;
    assert_true(comm(PAIRS(TP8, "stack", "megatron-lm")) > 0.05);
    ts_assert_near(comm(PAIRS(TP8, "stack", "megatron-lm", "tp-overlap", "yes")), 0.0, 0.0);
    ts_assert_near(comm(PAIRS(TP8)), 0.0, 0.0);
    ts_assert_near(comm(PAIRS(TP8, "tp-overlap", "no")), comm(PAIRS(TP8, "stack", "megatron-lm")), 1e-12);
#undef TP8
}

/* The stack's overlap only where the link carries it: 4 A100 PCIe cards (NVLink bridges
 * join pairs) at tp 4 cross PCIe, where Transformer Engine's userbuffers overlap does not
 * run, so Megatron-Core's auto blocks there as tp-overlap no does; on the SXM board's
 * NVSwitch it hides. yes is still the caller's word. */
static void test_tensor_parallel_overlap_needs_nvlink(void **state)
{
#define PCIE "model", "llama-2-13b", "gpu", "a100-80gb-pcie", "gpus", "4", "tp", "4", "stack", "megatron-core"
    (void)state;
    assert_true(comm(PAIRS(PCIE)) > 0.0);
    ts_assert_near(comm(PAIRS(PCIE)), comm(PAIRS(PCIE, "tp-overlap", "no")), 1e-12);
    assert_true(comm(PAIRS(PCIE, "tp-overlap", "yes")) < comm(PAIRS(PCIE)));
    ts_assert_near(comm(PAIRS("model", "llama-2-13b", "gpu", "a100-80gb", "gpus", "4", "tp", "4", "stack",
                              "megatron-core")), 0.0, 0.0);
#undef PCIE
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_group_uses_every_nic_of_its_ranks),
        cmocka_unit_test(test_tensor_parallel_overlap_needs_nvlink),
        cmocka_unit_test(test_one_rank_per_server_has_one_nic),
        cmocka_unit_test(test_calibrated_conventions_keep_their_own_nic),
        cmocka_unit_test(test_sharp_halves_an_all_reduce),
        cmocka_unit_test(test_nvls_all_reduce_inside_a_server),
        cmocka_unit_test(test_data_parallel_overlap),
        cmocka_unit_test(test_tensor_parallel_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* MoE parallel folding (Megatron-Core): the routed experts' ep x etp ranks span the
 * attention's tp x cp x dp, so ep may exceed dp x cp when the experts are split over fewer
 * ranks than tp (etp). Mixtral 8x7B: 32 MoE layers of 8 experts of 3 x 4096 x 14336 =
 * 176,160,768 parameters. */
#include "ts_test.h"

#define EXPERT 176160768.0

static void test_ep_over_the_tensor_ranks(void **state)
{
    trainsize_result folded, tp_only;
    trainsize_error err;
    (void)state;
    /* one server, tp 8: dp x cp = 1, so ep 8 needs folding */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "mixtral-8x7b", "gpus", "8", "tp", "8", "ep", "8"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "ep");
    ts_test_estimate(PAIRS("model", "mixtral-8x7b", "gpus", "8", "tp", "8", "ep", "8", "etp", "1"), &folded);
    ts_test_estimate(PAIRS("model", "mixtral-8x7b", "gpus", "8", "tp", "8"), &tp_only);
    /* one whole expert per rank, or every expert split 8 ways: the same bytes */
    ts_assert_near((double)folded.memory.weights, (double)tp_only.memory.weights, 1.0);
    assert_true(folded.time.comm_seconds > 0.0); /* the dispatch and combine all-to-alls */
    /* ep x etp must divide tp x cp x dp */
    assert_int_equal(ts_test_estimate_rc(PAIRS("model", "mixtral-8x7b", "gpus", "8", "tp", "8", "ep", "8", "etp",
                                               "2"), &err),
                     TRAINSIZE_E_LAYOUT);
}

/* tp 2, ep 8 on 64 GPUs: unfolded (etp 2) each rank holds half of one expert, folded (etp 1)
 * a whole one; the expert-data-parallel group is 32 / 8 = 4 ranks, or 2 x 32 / 8 = 8, so
 * under ZeRO-1 each rank keeps the same share of the experts' optimizer state. */
static void test_folded_experts_are_whole(void **state)
{
#define J "model", "mixtral-8x7b", "gpus", "64", "tp", "2", "ep", "8", "zero", "1", "global-batch", "32"
    trainsize_result folded, split;
    (void)state;
    ts_test_estimate(PAIRS(J, "etp", "1"), &folded);
    ts_test_estimate(PAIRS(J), &split);
    ts_assert_near((double)folded.memory.weights - (double)split.memory.weights, 32.0 * EXPERT / 2.0 * 2.0, 1.0);
    ts_assert_near((double)folded.memory.optimizer, (double)split.memory.optimizer, 1.0);
#undef J
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ep_over_the_tensor_ranks),
        cmocka_unit_test(test_folded_experts_are_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

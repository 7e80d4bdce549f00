/* PPO's critic and a reward model with a placement, a ZeRO stage and an offload of their
 * own (side_models.c): each checked against the same job with the policy's, by the ratio
 * the sharding or the move implies. The policy is Qwen2.5-7B on 16 H100s under ZeRO 3
 * (its dense state shards over 16 ranks); the critic is Llama-3.2-1B, the reward model
 * Llama-3-8B. */
#include "ts_test.h"

#define PPO "model", "qwen2.5-7b", "gpu", "h100-80gb", "gpus", "16", "zero", "3", "seq", "1024", \
            "global-batch", "256", "micro-batch", "1", "recompute", "full", "method", "ppo"

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1.0); }

/* weights, gradients and optimizer state a GPU, the critic's among them when it is there */
static double model_state(const trainsize_result *r)
{
    return (double)r->memory.weights + (double)r->memory.gradients + (double)r->memory.optimizer;
}

/* On the policy's GPUs: its own ZeRO stage shards its state over the same 16 ranks, or
 * not at all; its own offload moves its optimizer state to the host. */
static void test_critic_zero_and_offload(void **state)
{
    trainsize_result same, three, none, off;
    (void)state;
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b"), &same);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-zero", "3"), &three);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-zero", "0"), &none);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-offload", "optimizer"), &off);
    /* auto is the policy's stage: the same figures to the byte */
    assert_int_equal(three.memory.critic_state, same.memory.critic_state);
    assert_int_equal(three.memory.peak_total, same.memory.peak_total);
    /* unsharded: 16 times the state a rank (a dense model, no frozen part) */
    assert_true(rel((double)none.memory.critic_state, 16.0 * (double)same.memory.critic_state) < 1e-6);
    /* the policy's own state is untouched (each figure rounded up on its own: bytes) */
    assert_true(fabs(model_state(&none) - (double)none.memory.critic_state -
                     (model_state(&same) - (double)same.memory.critic_state)) <= 4.0);
    /* offloaded: its gradients and optimizer state leave the GPU for the host, its weights
     * stay; the host holds them with an fp32 gradient copy (ZeRO-Offload) */
    assert_true(off.memory.critic_state < same.memory.critic_state / 3);
    assert_true(off.memory.host_offload > same.memory.host_offload);
    assert_true(off.memory.optimizer < same.memory.optimizer);
    assert_int_equal(off.memory.weights, same.memory.weights);
}

/* On GPUs of its own: none of its state on the policy's, its ZeRO 3 sharding over its own
 * GPUs (twice the GPUs, half the state: the peaks' differences halve), its servers and
 * GPU-hours counted, its passes off the policy's GPUs and beside them. */
static void test_critic_gpus(void **state)
{
    trainsize_result colocated, c8, c16, c32;
    (void)state;
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b"), &colocated);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-gpus", "8"), &c8);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-gpus", "16"), &c16);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b", "critic-gpus", "32"), &c32);
    assert_int_equal(colocated.critic_gpu_peak, 0);
    assert_int_equal(c8.memory.critic_state, 0);
    assert_true(fabs(model_state(&c8) - (model_state(&colocated) - (double)colocated.memory.critic_state)) <= 4.0);
    assert_true(c8.critic_gpu_peak > 0 && c8.memory.fits);
    /* (S/8 - S/16) = 2 (S/16 - S/32): the state shards over the critic's GPUs */
    assert_true(rel((double)(c8.critic_gpu_peak - c16.critic_gpu_peak),
                    2.0 * (double)(c16.critic_gpu_peak - c32.critic_gpu_peak)) < 1e-6);
    /* one server of 8 beside the policy's two, priced by the hour */
    assert_int_equal(c8.critic_nodes, 1);
    assert_int_equal(c32.critic_nodes, 4);
    assert_true(rel(c8.time.gpu_hours, c8.time.wall_seconds * 24.0 / 3600.0) < 1e-9);
    /* its four passes leave the policy's GPUs and run on its own at the same rate: twice
     * the GPUs, half the seconds */
    assert_true(c8.time.step_flops < colocated.time.step_flops);
    assert_true(c8.critic_seconds > 0 && colocated.critic_seconds == 0);
    assert_true(rel(c8.critic_seconds, 2.0 * c16.critic_seconds) < 1e-9);
    assert_true(c8.time.step_seconds >= c8.critic_seconds);
}

/* A critic larger than the policy trains after it on the same GPUs: the layers'
 * activations are its own, the policy's times its layers x width over the policy's (80 x
 * 8192 over 28 x 3584 for Qwen2.5-72B over Qwen2.5-7B). */
static void test_critic_activations(void **state)
{
    trainsize_result policy_shaped, larger, smaller;
    (void)state;
    ts_test_estimate(PAIRS(PPO), &policy_shaped);
    ts_test_estimate(PAIRS(PPO, "critic-model", "qwen2.5-72b"), &larger);
    ts_test_estimate(PAIRS(PPO, "critic-model", "llama-3.2-1b"), &smaller);
    assert_true(rel((double)larger.memory.activations_layers,
                    (double)policy_shaped.memory.activations_layers * 80.0 * 8192.0 / (28.0 * 3584.0)) < 1e-6);
    assert_int_equal(smaller.memory.activations_layers, policy_shaped.memory.activations_layers);
}

/* The reward model: its ZeRO stage (below 3 every rank holds it whole: 16 times), the host
 * between its forwards (none on the GPU, once over the host link a step), GPUs of its own. */
static void test_reward_placement(void **state)
{
    trainsize_result sharded, whole, offloaded, own;
    (void)state;
    ts_test_estimate(PAIRS(PPO, "reward-model", "llama-3-8b"), &sharded);
    ts_test_estimate(PAIRS(PPO, "reward-model", "llama-3-8b", "reward-zero", "0"), &whole);
    ts_test_estimate(PAIRS(PPO, "reward-model", "llama-3-8b", "reward-offload", "true"), &offloaded);
    ts_test_estimate(PAIRS(PPO, "reward-model", "llama-3-8b", "reward-gpus", "8"), &own);
    assert_true(rel((double)whole.reward_weights, 16.0 * (double)sharded.reward_weights) < 1e-6);
    assert_int_equal(offloaded.reward_weights, 0);
    assert_int_equal(offloaded.memory.weights, sharded.memory.weights - sharded.reward_weights);
    assert_true(rel((double)(offloaded.memory.host_offload - sharded.memory.host_offload),
                    (double)sharded.reward_weights) < 1e-6);
    assert_true(offloaded.time.step_seconds > sharded.time.step_seconds);
    assert_int_equal(own.reward_weights, 0);
    assert_int_equal(own.reward_nodes, 1);
    assert_true(own.reward_gpu_peak > 0 && own.reward_seconds > 0);
    assert_true(own.time.step_flops < sharded.time.step_flops);
}

/* A critic too large for its own GPUs: the policy's GPUs hold the job, the job does not fit. */
static void test_side_fit(void **state)
{
    trainsize_result r;
    (void)state;
    ts_test_estimate(PAIRS(PPO, "critic-model", "qwen2.5-72b", "critic-gpus", "8", "critic-zero", "1"), &r);
    assert_true(r.memory.peak_needed <= r.memory.gpu_capacity);
    assert_true(r.critic_gpu_peak > r.memory.gpu_capacity);
    assert_false(r.memory.fits);
}

/* The fit advice reaches for the critic's own sharding and offload when its GPUs are what
 * does not fit, and every change it offers, estimated, fits. */
static void test_advice_for_the_critic(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS(PPO, "critic-gpus", "1"));
    trainsize_advice adv[16];
    trainsize_result r;
    size_t n = 0, i, k;
    int critic = 0;
    (void)state;
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
    assert_false(r.memory.fits);
    assert_true(r.memory.peak_needed <= r.memory.gpu_capacity); /* the policy's GPUs hold it */
    assert_int_equal(trainsize_advise(job, adv, 16, &n, NULL), TRAINSIZE_OK);
    assert_true(n > 0);
    for (i = 0; i < n && i < 16; i++) {
        trainsize_job *fixed = trainsize_job_clone(job);
        for (k = 0; k < adv[i].settings; k++) {
            if (strncmp(adv[i].names[k], "critic-", 7) == 0) critic = 1;
            assert_int_equal(trainsize_job_set(fixed, adv[i].names[k], adv[i].values[k], NULL), TRAINSIZE_OK);
        }
        assert_int_equal(trainsize_estimate(fixed, &r, sizeof r, NULL), TRAINSIZE_OK);
        assert_true(r.memory.fits);
        trainsize_job_free(fixed);
    }
    assert_true(critic);
    trainsize_job_free(job);
}

static void test_side_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "method", "grpo", "critic-gpus", "8"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "critic-gpus");
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "method", "sft", "critic-zero", "1"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "critic-zero");
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "reward-gpus", "8"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reward-gpus"); /* no reward model */
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "reward-model", "llama-3-8b", "reward-gpus", "8",
                                               "reward-offload", "true"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reward-offload");
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "critic-zero", "2", "critic-offload", "optimizer+params"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "critic-offload");
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "critic-zero", "0", "critic-offload", "optimizer"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "critic-offload");
    assert_int_equal(ts_test_estimate_rc(PAIRS(PPO, "lora-rank", "16", "zero", "0", "critic-gpus", "8"), &err),
                     TRAINSIZE_E_UNSUPPORTED);
    assert_string_equal(err.field, "critic-gpus");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_critic_zero_and_offload),
        cmocka_unit_test(test_critic_gpus),
        cmocka_unit_test(test_critic_activations),
        cmocka_unit_test(test_reward_placement),
        cmocka_unit_test(test_side_fit),
        cmocka_unit_test(test_advice_for_the_critic),
        cmocka_unit_test(test_side_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

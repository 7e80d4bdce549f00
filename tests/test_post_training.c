/* Post-training methods: DPO's chosen and rejected sequences in one batch, its frozen
 * reference (a copy of the model, the policy with its adapters off, or log-probabilities
 * computed before training) and the reference's forward pass, each worked out by hand
 * against the SFT estimate of the same job. */
#include "ts_test.h"

#define JOB "model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "2048"

static void test_dpo_full_fine_tune(void **state)
{
    trainsize_result sft, dpo, pre;
    double per_token_sft, per_token_dpo;
    (void)state;
    ts_test_estimate(PAIRS(JOB), &sft);
    ts_test_estimate(PAIRS(JOB, "method", "dpo"), &dpo);
    ts_test_estimate(PAIRS(JOB, "method", "dpo", "reference", "precomputed"), &pre);
    assert_string_equal(dpo.method, "dpo");
    assert_string_equal(dpo.reference, "model"); /* auto without LoRA, as TRL copies the model */
    assert_string_equal(sft.method, "sft");
    assert_string_equal(sft.reference, "");
    /* the reference: every parameter in bf16, sharded over the 8 ranks like the policy */
    assert_true(fabs((double)dpo.memory.reference_weights - (double)dpo.model.parameters * 2.0 / 8.0) <= 1.0);
    assert_int_equal(dpo.memory.weights, sft.memory.weights + dpo.memory.reference_weights);
    assert_int_equal(pre.memory.reference_weights, 0);
    assert_int_equal(pre.memory.weights, sft.memory.weights);
    /* chosen + rejected in one batch: twice the activations of a micro-batch */
    assert_int_equal(dpo.memory.activations, 2 * sft.memory.activations);
    /* twice the tokens a step, each with one more forward pass (the reference's): 4 passes
     * of 2 FLOPs per weight against training's 3 */
    per_token_sft = sft.time.step_flops / sft.time.tokens;
    per_token_dpo = dpo.time.step_flops / dpo.time.tokens;
    assert_true(fabs(dpo.time.tokens - 2.0 * sft.time.tokens) < 1e-9);
    assert_true(fabs(per_token_dpo / per_token_sft - 4.0 / 3.0) < 1e-9);
    assert_true(pre.time.step_flops == dpo.time.step_flops); /* the same passes, run before */
}

static void test_dpo_with_lora(void **state)
{
    trainsize_result off, copy;
    (void)state;
#define LORA JOB, "method", "dpo", "lora-rank", "16", "zero", "0", "gpus", "1"
    ts_test_estimate(PAIRS(LORA), &off);
    assert_string_equal(off.reference, "adapters-off"); /* TRL with PEFT */
    assert_int_equal(off.memory.reference_weights, 0);
    /* a separate reference copies the frozen base: 16-bit, the whole model on one GPU */
    ts_test_estimate(PAIRS(LORA, "reference", "model"), &copy);
    assert_true(copy.memory.reference_weights > 0.99 * 2.0 * (double)copy.model.parameters);
    assert_true(copy.memory.reference_weights < 1.001 * 2.0 * (double)copy.model.parameters);
#undef LORA
}

static void test_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "reference", "model"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reference"); /* sft has no reference */
    assert_int_equal(ts_test_estimate_rc(PAIRS(JOB, "method", "dpo", "reference", "adapters-off"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reference"); /* no adapters to turn off */
}


/* GRPO and PPO as verl runs them, on a colocated engine: Qwen2.5-7B on 8 H100s, 512
 * responses a step of 1,024 tokens, 512 of them generated, in groups of 8. */
#define RL "model", "qwen2.5-7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "1024", \
           "global-batch", "512", "micro-batch", "4", "recompute", "full"

static void test_grpo_and_ppo(void **state)
{
    trainsize_result sft, grpo, ppo, awake;
    double p, w, kv, bytes, flops, decode, prefill, bw, rate, sync;
    (void)state;
    ts_test_estimate(PAIRS(RL), &sft);
    ts_test_estimate(PAIRS(RL, "method", "grpo"), &grpo);
    ts_test_estimate(PAIRS(RL, "method", "ppo"), &ppo);
    ts_test_estimate(PAIRS(RL, "method", "grpo", "rollout-sleep", "false"), &awake);
    p = (double)grpo.model.parameters;
    /* the engine: the whole model in 16 bits on each GPU (rollout-tp 1), the rest of half
     * the GPU its KV cache */
    w = p * 2.0;
    assert_true(fabs((double)grpo.memory.rollout_weights - w) <= 1.0);
    assert_true(fabs((double)(grpo.memory.rollout_weights + grpo.memory.rollout_kv_cache) -
                     0.5 * (double)grpo.memory.gpu_capacity) <= 2.0);
    /* asleep while training: the engine sits beside the model state only; awake, beside
     * the activations too */
    assert_true(awake.memory.peak_allocated >= grpo.memory.peak_allocated + grpo.memory.rollout_weights);
    /* passes a token, without recomputation: the update (3), the old policy's
     * log-probabilities (1), the reference's (1); ppo's critic its values (1) and its
     * update (3) */
    {
        trainsize_result a, b, c;
        ts_test_estimate(PAIRS(RL, "recompute", "none"), &a);
        ts_test_estimate(PAIRS(RL, "recompute", "none", "method", "grpo"), &b);
        ts_test_estimate(PAIRS(RL, "recompute", "none", "method", "ppo"), &c);
        assert_true(fabs(b.time.step_flops / a.time.step_flops - 5.0 / 3.0) < 1e-9);
        assert_true(fabs(c.time.step_flops / a.time.step_flops - 9.0 / 3.0) < 1e-9);
    }
    /* the critic: a second copy of the policy's state */
    assert_int_equal(ppo.memory.gradients, 2 * grpo.memory.gradients);
    assert_true(ppo.memory.critic_state > 0 && grpo.memory.critic_state == 0);
    /* the rollout, worked out: 8 engines of 64 responses; 512 decode steps reading the
     * weights and the KV cache (2 x 28 layers x 4 kv heads x 128 x 2 bytes a token) at 80 %
     * of 3.35 TB/s, against their FLOPs at half the dense 989.4 TFLOP/s; each group's
     * prompt prefilled once */
    kv = 2.0 * 28 * 4 * 128 * 2;
    bytes = 512.0 * w + 64.0 * kv * (512.0 * 512.0 + 512.0 * 513.0 / 2.0);
    bw = 3350e9 * 0.8;
    rate = 989.4e12 * 0.5;
    flops = 512.0 * 64.0 * 2.0 * p;
    decode = fmax(bytes / bw, flops / rate);
    prefill = 64.0 / 8.0 * 512.0 * 2.0 * p / rate;
    /* and the weights handed to the engines: ZeRO-3's shards gathered over the server's
     * NVLink (450 GB/s x the scale-up efficiency 0.8), 7/8 of them, 2 log2(8) latencies */
    sync = 6.0 * 1e-5 + 7.0 / 8.0 * w / (450e9 * 0.8);
    assert_true(fabs(grpo.rollout_sync_seconds - sync) < 1e-9 * sync);
    assert_true(grpo.rollout_network_seconds == 0.0); /* one server */
    assert_true(fabs(grpo.time.rollout_seconds - (decode + prefill + sync)) < 1e-9 * grpo.time.rollout_seconds);
    assert_true(grpo.time.step_seconds > sft.time.step_seconds + grpo.time.rollout_seconds);
}

static void test_rl_refusals(void **state)
{
    trainsize_error err;
    (void)state;
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "method", "grpo", "rollout", "separate"), &err),
                     TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-gpus"); /* the engines need GPUs */
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "method", "grpo", "rollout", "separate", "rollout-gpus", "3",
                                               "rollout-tp", "2"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-gpus");
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "method", "grpo", "rollout-gpus", "8"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "rollout-gpus"); /* colocated takes no GPUs of its own */
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "model", "llama-3-70b", "method", "grpo", "rollout", "separate",
                                               "rollout-gpus", "1"), &err), TRAINSIZE_E_LAYOUT);
    assert_string_equal(err.field, "rollout-tp"); /* 70B's 16-bit weights do not fit half a GPU */
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "method", "grpo", "reference", "precomputed"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reference");
    assert_int_equal(ts_test_estimate_rc(PAIRS(RL, "method", "ppo", "response-tokens", "1024"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "response-tokens");
}

/* The engine on GPUs of its own (OpenRLHF's vLLM engines beside the trainer): the training
 * GPUs hold none of it, the engines' GPUs generate, and the job pays, powers and sees
 * fail every GPU it takes. */
static void test_rollout_separate(void **state)
{
    trainsize_result co, sep, twice;
    (void)state;
    ts_test_estimate(PAIRS(RL, "method", "grpo", "tokens", "1e8"), &co);
    ts_test_estimate(PAIRS(RL, "method", "grpo", "tokens", "1e8", "rollout", "separate", "rollout-gpus", "8"), &sep);
    ts_test_estimate(PAIRS(RL, "method", "grpo", "tokens", "1e8", "rollout", "separate", "rollout-gpus", "16"), &twice);
    /* no engine beside the model state: the peak is training's (an engine that stays awake
     * colocated adds its share to every phase; separate, none) */
    assert_true(sep.memory.peak_phase != TRAINSIZE_PHASE_ROLLOUT);
    assert_true(sep.memory.peak_total <= co.memory.peak_total);
    {
        trainsize_result awake, awake_sep;
        ts_test_estimate(PAIRS(RL, "method", "grpo", "rollout-sleep", "false"), &awake);
        ts_test_estimate(PAIRS(RL, "method", "grpo", "rollout-sleep", "false", "rollout", "separate",
                               "rollout-gpus", "8"), &awake_sep);
        assert_true(awake.memory.peak_allocated >= awake_sep.memory.peak_allocated + awake.memory.rollout_weights);
    }
    assert_int_equal(sep.memory.rollout_weights, co.memory.rollout_weights); /* an engine GPU's */
    /* eight engines either way at 8 GPUs (rollout-tp 1): the same generation. Sixteen take
     * half the sequences each but still read their weights every decode step: shorter, not
     * half */
    assert_true(fabs((sep.time.rollout_seconds - sep.rollout_sync_seconds) -
                     (co.time.rollout_seconds - co.rollout_sync_seconds)) < 1e-9 * co.time.rollout_seconds);
    /* the weights cross to the engines' server: 2 bytes a parameter over its network share,
     * slower than the trainer's own NVLink gather */
    assert_true(sep.rollout_sync_seconds > co.rollout_sync_seconds);
    assert_true(twice.time.rollout_seconds < sep.time.rollout_seconds);
    assert_true(twice.time.rollout_seconds > 0.5 * sep.time.rollout_seconds);
    /* every GPU counts: GPU-hours, power, servers */
    assert_int_equal(sep.system.rollout_nodes, 1);
    assert_int_equal(co.system.rollout_nodes, 0);
    assert_true(fabs(sep.time.gpu_hours - sep.time.wall_seconds * 16.0 / 3600.0) < 1e-9 * sep.time.gpu_hours);
    assert_true(fabs(sep.system.power_watts - 2.0 * co.system.power_watts) < 1e-6 * co.system.power_watts);
    assert_true(sep.system.capex_servers_usd > 1.99 * co.system.capex_servers_usd);
}

/* A critic and a reward model of their own shape (Llama-3-8B: 8,030,261,248 parameters, an
 * untied output layer of 128,256 x 4,096 = 525,336,576, 32 layers of 32 heads of 128). A
 * scorer ends in a one-wide head, so it holds the model without its output layer; a reward
 * model is frozen in 16 bits, sharded as the policy's weights (ZeRO-3 over 8), one forward
 * of every response. */
#define SCORED "model", "qwen2.5-7b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "1024", \
               "global-batch", "512", "micro-batch", "4", "recompute", "none"

static void test_critic_and_reward_of_their_own_shape(void **state)
{
    trainsize_result grpo, rewarded, ppo, own, self;
    trainsize_error err;
    double scorer = 8030261248.0 - 525336576.0, mm = scorer - 525336576.0;
    double attention = 2.0 * 32 * (128 + 128) * 32 * 1024.0, tokens = 512.0 * 1024.0;
    (void)state;
    ts_test_estimate(PAIRS(SCORED, "method", "grpo"), &grpo);
    ts_test_estimate(PAIRS(SCORED, "method", "grpo", "reward-model", "llama-3-8b"), &rewarded);
    assert_true(fabs((double)rewarded.reward_weights - scorer * 2.0 / 8.0) <= 1.0);
    assert_int_equal(rewarded.memory.weights - grpo.memory.weights, rewarded.reward_weights);
    assert_true(fabs((rewarded.time.step_flops - grpo.time.step_flops) - tokens * (2.0 * mm + attention)) <
                1e-9 * rewarded.time.step_flops);
    assert_int_equal(grpo.reward_weights, 0);
    /* ppo's critic: by default the policy's shape and state; of its own, in proportion */
    ts_test_estimate(PAIRS(SCORED, "method", "ppo"), &ppo);
    ts_test_estimate(PAIRS(SCORED, "method", "ppo", "critic-model", "llama-3-8b"), &own);
    ts_test_estimate(PAIRS(SCORED, "method", "ppo", "critic-model", "llama-3.2-1b"), &self);
    assert_true(fabs((double)own.memory.critic_state / (double)ppo.memory.critic_state -
                     scorer / (double)ppo.model.parameters) < 1e-6);
    assert_true(self.memory.critic_state < ppo.memory.critic_state / 4);
    assert_true(self.time.step_flops < ppo.time.step_flops);
    /* each belongs to the methods that run it */
    assert_int_equal(ts_test_estimate_rc(PAIRS(SCORED, "method", "grpo", "critic-model", "llama-3-8b"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "critic-model");
    assert_int_equal(ts_test_estimate_rc(PAIRS(SCORED, "reward-model", "llama-3-8b"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "reward-model");
    {
        trainsize_job *job = trainsize_job_new();
        assert_int_equal(trainsize_job_set(job, "critic-model", "no-such-model", &err), TRAINSIZE_E_UNKNOWN);
        assert_string_equal(err.field, "critic-model");
        trainsize_job_free(job);
    }
}

/* Distillation (TRL's GKDTrainer's setting): a frozen teacher in 16 bits, sharded like the
 * student's weights, one forward of every token, its logits kept for the loss. */
static void test_distill(void **state)
{
    trainsize_result sft, kd;
    trainsize_error err;
    double teacher = 8030261248.0; /* llama-3-8b */
    (void)state;
#define KD "model", "llama-3.2-1b", "gpu", "h100-80gb", "gpus", "8", "zero", "3", "seq", "2048"
    ts_test_estimate(PAIRS(KD), &sft);
    ts_test_estimate(PAIRS(KD, "method", "distill", "teacher", "llama-3-8b"), &kd);
    assert_string_equal(kd.method, "distill");
    assert_true(fabs((double)kd.memory.teacher_weights - teacher * 2.0 / 8.0) <= 1.0);
    assert_int_equal(kd.memory.weights, sft.memory.weights + kd.memory.teacher_weights);
    /* the teacher's logits at the loss: 2,048 tokens x 128,256 in bf16 */
    assert_true(kd.memory.transient >= sft.memory.transient + 2048ull * 128256 * 2);
    assert_true(kd.time.step_flops > sft.time.step_flops + 2.0 * 7.0e9 * sft.time.tokens);
    assert_int_equal(ts_test_estimate_rc(PAIRS(KD, "method", "distill"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "teacher");
    assert_int_equal(ts_test_estimate_rc(PAIRS(KD, "teacher", "llama-3-8b"), &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "teacher"); /* a teacher without distill */
    assert_int_equal(ts_test_estimate_rc(PAIRS(KD, "method", "distill", "teacher", "gpt2"), &err),
                     TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "teacher"); /* another vocabulary */
#undef KD
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dpo_full_fine_tune),
        cmocka_unit_test(test_dpo_with_lora),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_grpo_and_ppo),
        cmocka_unit_test(test_rl_refusals),
        cmocka_unit_test(test_rollout_separate),
        cmocka_unit_test(test_critic_and_reward_of_their_own_shape),
        cmocka_unit_test(test_distill),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

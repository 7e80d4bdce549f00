/* Typed parameter ids and setters: every id names its parameter (the ids are ABI, so this
 * table is their record: a renamed or renumbered id fails here), and a value set by id is
 * validated and applied exactly as the same value given as text. */
#include "job.h"
#include "ts_test.h"

static const struct { trainsize_param_id id; const char *name; } IDS[] = {
    {TRAINSIZE_ID_MODEL, "model"},
    {TRAINSIZE_ID_LAYERS, "layers"},
    {TRAINSIZE_ID_HIDDEN, "hidden"},
    {TRAINSIZE_ID_HEADS, "heads"},
    {TRAINSIZE_ID_KV_HEADS, "kv-heads"},
    {TRAINSIZE_ID_HEAD_DIM, "head-dim"},
    {TRAINSIZE_ID_FFN, "ffn"},
    {TRAINSIZE_ID_VOCAB, "vocab"},
    {TRAINSIZE_ID_POSITIONS, "positions"},
    {TRAINSIZE_ID_TIE_EMBEDDINGS, "tie-embeddings"},
    {TRAINSIZE_ID_GATED_MLP, "gated-mlp"},
    {TRAINSIZE_ID_NORM, "norm"},
    {TRAINSIZE_ID_BIAS, "bias"},
    {TRAINSIZE_ID_EXPERTS, "experts"},
    {TRAINSIZE_ID_EXPERTS_PER_TOKEN, "experts-per-token"},
    {TRAINSIZE_ID_SHARED_EXPERTS, "shared-experts"},
    {TRAINSIZE_ID_SHARED_EXPERT_FFN, "shared-expert-ffn"},
    {TRAINSIZE_ID_FUSED_QKV, "fused-qkv"},
    {TRAINSIZE_ID_FUSED_GATE_UP, "fused-gate-up"},
    {TRAINSIZE_ID_RESIDUAL_DROPOUT, "residual-dropout"},
    {TRAINSIZE_ID_SEQ, "seq"},
    {TRAINSIZE_ID_MICRO_BATCH, "micro-batch"},
    {TRAINSIZE_ID_GLOBAL_BATCH, "global-batch"},
    {TRAINSIZE_ID_TOKENS, "tokens"},
    {TRAINSIZE_ID_PRECISION, "precision"},
    {TRAINSIZE_ID_OPTIMIZER, "optimizer"},
    {TRAINSIZE_ID_FRAMEWORK, "framework"},
    {TRAINSIZE_ID_GRAD_PRECISION, "grad-precision"},
    {TRAINSIZE_ID_LOSS_UPCAST, "loss-upcast"},
    {TRAINSIZE_ID_AUTOCAST_OPS, "autocast-ops"},
    {TRAINSIZE_ID_DROPOUT_MASK_BYTES, "dropout-mask-bytes"},
    {TRAINSIZE_ID_MEAN_KEEPS_INPUT, "mean-keeps-input"},
    {TRAINSIZE_ID_GPU, "gpu"},
    {TRAINSIZE_ID_GPU_MEMORY, "gpu-memory"},
    {TRAINSIZE_ID_GPUS, "gpus"},
    {TRAINSIZE_ID_GPUS_PER_NODE, "gpus-per-node"},
    {TRAINSIZE_ID_TP, "tp"},
    {TRAINSIZE_ID_PP, "pp"},
    {TRAINSIZE_ID_PP_INTERLEAVE, "pp-interleave"},
    {TRAINSIZE_ID_PP_FIRST_LAYERS, "pp-first-layers"},
    {TRAINSIZE_ID_PP_LAST_LAYERS, "pp-last-layers"},
    {TRAINSIZE_ID_SP, "sp"},
    {TRAINSIZE_ID_CP, "cp"},
    {TRAINSIZE_ID_EP, "ep"},
    {TRAINSIZE_ID_ZERO, "zero"},
    {TRAINSIZE_ID_RECOMPUTE, "recompute"},
    {TRAINSIZE_ID_ATTENTION, "attention"},
    {TRAINSIZE_ID_DROPOUT, "dropout"},
    {TRAINSIZE_ID_OFFLOAD, "offload"},
    {TRAINSIZE_ID_LORA_RANK, "lora-rank"},
    {TRAINSIZE_ID_LORA_TARGETS, "lora-targets"},
    {TRAINSIZE_ID_QUANTIZE_BASE, "quantize-base"},
    {TRAINSIZE_ID_QUANTIZE_KEEPS_INPUT, "quantize-keeps-input"},
    {TRAINSIZE_ID_KBIT_UPCAST, "kbit-upcast"},
    {TRAINSIZE_ID_QUANT_STATE_REPLICATED, "quant-state-replicated"},
    {TRAINSIZE_ID_EMBEDDING_STATE_FP32, "embedding-state-fp32"},
    {TRAINSIZE_ID_BASE_DTYPE, "base-dtype"},
    {TRAINSIZE_ID_GRAD_SYNC, "grad-sync"},
    {TRAINSIZE_ID_FSDP_LORA_WRAP, "fsdp-lora-wrap"},
    {TRAINSIZE_ID_LOADING, "loading"},
    {TRAINSIZE_ID_LOAD_DTYPE, "load-dtype"},
    {TRAINSIZE_ID_QUANTIZE_SCRATCH, "quantize-scratch"},
    {TRAINSIZE_ID_CUDA_CONTEXT, "cuda-context"},
    {TRAINSIZE_ID_COMM_BUFFER, "comm-buffer"},
    {TRAINSIZE_ID_ALLOCATOR_SLACK, "allocator-slack"},
    {TRAINSIZE_ID_SHARDED_SLACK, "sharded-slack"},
    {TRAINSIZE_ID_ZERO3_GATHER_LAYERS, "zero3-gather-layers"},
    {TRAINSIZE_ID_HFU, "hfu"},
    {TRAINSIZE_ID_DATA_LOADER_WORKERS, "data-loader-workers"},
    {TRAINSIZE_ID_SHARDED_LOADING, "sharded-loading"},
    {TRAINSIZE_ID_HOST_MEMORY_BANDWIDTH, "host-memory-bandwidth"},
    {TRAINSIZE_ID_HOST_RAM, "host-ram"},
    {TRAINSIZE_ID_CPU_CORES, "cpu-cores"},
    {TRAINSIZE_ID_NICS_PER_NODE, "nics-per-node"},
    {TRAINSIZE_ID_NETWORK, "network"},
    {TRAINSIZE_ID_STORAGE, "storage"},
    {TRAINSIZE_ID_CHECKPOINT_SECONDS, "checkpoint-seconds"},
    {TRAINSIZE_ID_COMM_SHARE, "comm-share"},
    {TRAINSIZE_ID_COLLECTIVE_LATENCY, "collective-latency"},
    {TRAINSIZE_ID_MOE_MAX_NODES, "moe-max-nodes"},
    {TRAINSIZE_ID_EP_OVERLAP, "ep-overlap"},
    {TRAINSIZE_ID_HEADROOM, "headroom"},
    {TRAINSIZE_ID_SERVER_POWER_FACTOR, "server-power-factor"},
    {TRAINSIZE_ID_PUE, "pue"},
    {TRAINSIZE_ID_CARBON_INTENSITY, "carbon-intensity"},
    {TRAINSIZE_ID_GPU_HOUR_USD, "gpu-hour-usd"},
    {TRAINSIZE_ID_GPU_PRICE_USD, "gpu-price-usd"},
    {TRAINSIZE_ID_GPU_PRICES, "gpu-prices"},
    {TRAINSIZE_ID_SERVER_SHARE, "server-share"},
    {TRAINSIZE_ID_NETWORK_USD_PER_GPU, "network-usd-per-gpu"},
    {TRAINSIZE_ID_AMORTIZATION_YEARS, "amortization-years"},
    {TRAINSIZE_ID_SUPPORT_SHARE, "support-share"},
    {TRAINSIZE_ID_POWER_USD_PER_KWH, "power-usd-per-kwh"},
    {TRAINSIZE_ID_PLAN_GPUS, "plan-gpus"},
    {TRAINSIZE_ID_MAX_GPUS, "max-gpus"},
    {TRAINSIZE_ID_DEADLINE_DAYS, "deadline-days"},
    {TRAINSIZE_ID_BUDGET, "budget"},
    {TRAINSIZE_ID_OBJECTIVE, "objective"},
    {TRAINSIZE_ID_PLAN_RANKING, "plan-ranking"},
    {TRAINSIZE_ID_PLAN_GPU_COUNT, "plan-gpu-count"},
    {TRAINSIZE_ID_RACK_POWER_WATTS, "rack-power-watts"},
    {TRAINSIZE_ID_HOST_RAM_FACTOR, "host-ram-factor"},
    {TRAINSIZE_ID_CHECKPOINTS_KEPT, "checkpoints-kept"},
    {TRAINSIZE_ID_Q_LORA_RANK, "q-lora-rank"},
    {TRAINSIZE_ID_KV_LORA_RANK, "kv-lora-rank"},
    {TRAINSIZE_ID_QK_ROPE_HEAD_DIM, "qk-rope-head-dim"},
    {TRAINSIZE_ID_V_HEAD_DIM, "v-head-dim"},
    {TRAINSIZE_ID_QK_NORM, "qk-norm"},
    {TRAINSIZE_ID_ATTENTION_SINKS, "attention-sinks"},
    {TRAINSIZE_ID_SLIDING_WINDOW, "sliding-window"},
    {TRAINSIZE_ID_GLOBAL_EVERY, "global-every"},
    {TRAINSIZE_ID_NORMS_PER_LAYER, "norms-per-layer"},
    {TRAINSIZE_ID_PARALLEL_BLOCK, "parallel-block"},
    {TRAINSIZE_ID_FIRST_DENSE_LAYERS, "first-dense-layers"},
    {TRAINSIZE_ID_MOE_EVERY, "moe-every"},
    {TRAINSIZE_ID_DENSE_FFN, "dense-ffn"},
    {TRAINSIZE_ID_ROUTER_BIAS, "router-bias"},
    {TRAINSIZE_ID_SHARED_EXPERT_GATE, "shared-expert-gate"},
    {TRAINSIZE_ID_OUTPUT_BIAS, "output-bias"},
    {TRAINSIZE_ID_ATTN_SOFTCAP, "attn-softcap"},
    {TRAINSIZE_ID_LOGIT_SOFTCAP, "logit-softcap"},
    {TRAINSIZE_ID_MTP_LAYERS, "mtp-layers"},
    {TRAINSIZE_ID_NVLS, "nvls"},
    {TRAINSIZE_ID_SHARP, "sharp"},
    {TRAINSIZE_ID_DP_OVERLAP, "dp-overlap"},
    {TRAINSIZE_ID_TP_OVERLAP, "tp-overlap"},
    {TRAINSIZE_ID_DP_NICS, "dp-nics"},
    {TRAINSIZE_ID_FUSED_KERNELS, "fused-kernels"},
    {TRAINSIZE_ID_STACK, "stack"},
    {TRAINSIZE_ID_RECOMPUTE_LAYERS, "recompute-layers"},
    {TRAINSIZE_ID_ACTIVATION_OFFLOAD, "activation-offload"},
    {TRAINSIZE_ID_FP8_RECIPE, "fp8-recipe"},
    {TRAINSIZE_ID_FP8_PARAMS, "fp8-params"},
    {TRAINSIZE_ID_GPU_POWER_LIMIT, "gpu-power-limit"},
    {TRAINSIZE_ID_PP_ACCOUNT_EMBEDDING, "pp-account-embedding"},
    {TRAINSIZE_ID_CROSS_ENTROPY, "cross-entropy"},
    {TRAINSIZE_ID_PP_SCHEDULE, "pp-schedule"},
    {TRAINSIZE_ID_ETP, "etp"},
    {TRAINSIZE_ID_STEP_OVERHEAD, "step-overhead"},
    {TRAINSIZE_ID_RECOMPUTE_MODULES, "recompute-modules"},
    {TRAINSIZE_ID_FP8_ACTIVATION_STORE, "fp8-activation-store"},
    {TRAINSIZE_ID_FP8_ATTENTION, "fp8-attention"},
    {TRAINSIZE_ID_FUSED_NORM, "fused-norm"},
    {TRAINSIZE_ID_FUSED_ACTIVATION, "fused-activation"},
    {TRAINSIZE_ID_FUSED_ROPE, "fused-rope"},
    {TRAINSIZE_ID_COMPILE, "compile"},
    {TRAINSIZE_ID_SHARD_GROUP, "shard-group"},
    {TRAINSIZE_ID_REDUCE_PRECISION, "reduce-precision"},
    {TRAINSIZE_ID_SERVERS_PER_RACK, "servers-per-rack"},
    {TRAINSIZE_ID_UTILIZATION, "utilization"},
    {TRAINSIZE_ID_COLO_USD_PER_KW_MONTH, "colo-usd-per-kw-month"},
    {TRAINSIZE_ID_STORAGE_USD_PER_TB, "storage-usd-per-tb"},
    {TRAINSIZE_ID_INTERRUPTIONS_PER_GPU_DAY, "interruptions-per-gpu-day"},
    {TRAINSIZE_ID_RESTART_SECONDS, "restart-seconds"},
    {TRAINSIZE_ID_CHECKPOINT_INTERVAL, "checkpoint-interval"},
    {TRAINSIZE_ID_CHECKPOINT_ASYNC, "checkpoint-async"},
    {TRAINSIZE_ID_SPARE_NODES, "spare-nodes"},
    {TRAINSIZE_ID_DATASET_BYTES, "dataset-bytes"},
    {TRAINSIZE_ID_SAMPLE_BYTES, "sample-bytes"},
    {TRAINSIZE_ID_EPOCHS, "epochs"},
    {TRAINSIZE_ID_LARGEST_FIT, "largest-fit"},
    {TRAINSIZE_ID_LOCAL_CACHE_BYTES, "local-cache-bytes"},
    {TRAINSIZE_ID_METHOD, "method"},
    {TRAINSIZE_ID_REFERENCE, "reference"},
    {TRAINSIZE_ID_HEAD, "head"},
    {TRAINSIZE_ID_CLASSES, "classes"},
    {TRAINSIZE_ID_TOKEN_TYPES, "token-types"},
    {TRAINSIZE_ID_POST_NORM, "post-norm"},
    {TRAINSIZE_ID_PATCH_SIZE, "patch-size"},
    {TRAINSIZE_ID_CHANNELS, "channels"},
    {TRAINSIZE_ID_GROUP_SIZE, "group-size"},
    {TRAINSIZE_ID_RESPONSE_TOKENS, "response-tokens"},
    {TRAINSIZE_ID_ROLLOUT, "rollout"},
    {TRAINSIZE_ID_ROLLOUT_MEMORY_SHARE, "rollout-memory-share"},
    {TRAINSIZE_ID_ROLLOUT_TP, "rollout-tp"},
    {TRAINSIZE_ID_ROLLOUT_SLEEP, "rollout-sleep"},
    {TRAINSIZE_ID_TEACHER, "teacher"},
    {TRAINSIZE_ID_VISION_LAYERS, "vision-layers"},
    {TRAINSIZE_ID_VISION_HIDDEN, "vision-hidden"},
    {TRAINSIZE_ID_VISION_HEADS, "vision-heads"},
    {TRAINSIZE_ID_VISION_FFN, "vision-ffn"},
    {TRAINSIZE_ID_VISION_GATED, "vision-gated"},
    {TRAINSIZE_ID_VISION_PATCHES, "vision-patches"},
    {TRAINSIZE_ID_VISION_OTHER_PARAMS, "vision-other-params"},
    {TRAINSIZE_ID_PROJECTOR_PARAMS, "projector-params"},
    {TRAINSIZE_ID_IMAGE_TOKENS, "image-tokens"},
    {TRAINSIZE_ID_CROSS_ATTENTION_LAYERS, "cross-attention-layers"},
    {TRAINSIZE_ID_IMAGES, "images"},
    {TRAINSIZE_ID_FREEZE_VISION, "freeze-vision"},
    {TRAINSIZE_ID_RESNET_DEPTH, "resnet-depth"},
    {TRAINSIZE_ID_RESNET_WIDTH, "resnet-width"},
    {TRAINSIZE_ID_IMAGE_SIZE, "image-size"},
    {TRAINSIZE_ID_ROLLOUT_GPUS, "rollout-gpus"},
    {TRAINSIZE_ID_GEMM_SHARE, "gemm-share"},
    {TRAINSIZE_ID_SCALE_UP_EFFICIENCY, "scale-up-efficiency"},
    {TRAINSIZE_ID_NETWORK_EFFICIENCY, "network-efficiency"},
    {TRAINSIZE_ID_TF32, "tf32"},
    {TRAINSIZE_ID_MEMORY_FORMAT, "memory-format"},
    {TRAINSIZE_ID_CONV_SHARE, "conv-share"},
    {TRAINSIZE_ID_LAUNCH_OVERHEAD, "launch-overhead"},
    {TRAINSIZE_ID_STEP_SYNC, "step-sync"},
    {TRAINSIZE_ID_CUDA_GRAPHS, "cuda-graphs"},
    {TRAINSIZE_ID_GPU_VARIATION, "gpu-variation"},
    {TRAINSIZE_ID_FLASH_KERNEL, "flash-kernel"},
    {TRAINSIZE_ID_FP8_GEMM_SHARE, "fp8-gemm-share"},
    {TRAINSIZE_ID_MOE_IMBALANCE, "moe-imbalance"},
    {TRAINSIZE_ID_FRAGMENTATION, "fragmentation"},
    {TRAINSIZE_ID_MLP_TILES, "mlp-tiles"},
    {TRAINSIZE_ID_PLAN_MARGIN, "plan-margin"},
    {TRAINSIZE_ID_EXTRA_PARAMS, "extra-params"},
    {TRAINSIZE_ID_PACKING, "packing"},
    {TRAINSIZE_ID_SAMPLE_TOKENS, "sample-tokens"},
    {TRAINSIZE_ID_MAX_TOKENS_PER_GPU, "max-tokens-per-gpu"},
    {TRAINSIZE_ID_RESPONSE_TOKENS_MEAN, "response-tokens-mean"},
    {TRAINSIZE_ID_CRITIC_MODEL, "critic-model"},
    {TRAINSIZE_ID_REWARD_MODEL, "reward-model"},
    {TRAINSIZE_ID_LOG_PROB_MAX_TOKENS_PER_GPU, "log-prob-max-tokens-per-gpu"},
    {TRAINSIZE_ID_CRITIC_GPUS, "critic-gpus"},
    {TRAINSIZE_ID_CRITIC_ZERO, "critic-zero"},
    {TRAINSIZE_ID_CRITIC_OFFLOAD, "critic-offload"},
    {TRAINSIZE_ID_REWARD_GPUS, "reward-gpus"},
    {TRAINSIZE_ID_REWARD_ZERO, "reward-zero"},
    {TRAINSIZE_ID_REWARD_OFFLOAD, "reward-offload"},
    {TRAINSIZE_ID_ROLLOUT_PP, "rollout-pp"},
    {TRAINSIZE_ID_PLAN_ROLLOUT, "plan-rollout"},
    {TRAINSIZE_ID_EXHAUSTIVE, "exhaustive"},
};

static void test_every_id_names_its_parameter(void **state)
{
    size_t i;
    (void)state;
    assert_int_equal(sizeof IDS / sizeof IDS[0], TRAINSIZE_ID_COUNT);
    assert_int_equal(trainsize_param_count(), TRAINSIZE_ID_COUNT);
    for (i = 0; i < sizeof IDS / sizeof IDS[0]; i++) {
        const trainsize_param_info *p = trainsize_param_by_id(IDS[i].id);
        assert_non_null(p);
        assert_string_equal(p->name, IDS[i].name);
        assert_int_equal(trainsize_param_find(IDS[i].name), IDS[i].id);
    }
    assert_int_equal(trainsize_param_find("no-such-parameter"), -1);
    assert_int_equal(trainsize_param_find(NULL), -1);
    assert_null(trainsize_param_by_id(-1));
    assert_null(trainsize_param_by_id(TRAINSIZE_ID_COUNT));
}

/* The job after `text` settings and after the same settings by id estimate alike. */
static void test_typed_equals_text(void **state)
{
    trainsize_job *text = ts_test_job(PAIRS("model", "llama-2-7b", "micro-batch", "4", "seq", "4096",
                                            "hfu", "0.45", "sp", "true", "tp", "2", "gpus", "8",
                                            "recompute", "selective", "gpu-memory", "42949672960"));
    trainsize_job *typed = ts_test_job(PAIRS("model", "llama-2-7b"));
    trainsize_result a, b;
    trainsize_error err;
    char x[64], y[64];
    size_t i;
    (void)state;
    assert_int_equal(trainsize_job_set_u64(typed, TRAINSIZE_ID_MICRO_BATCH, 4, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_u64(typed, TRAINSIZE_ID_SEQ, 4096, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_f64(typed, TRAINSIZE_ID_HFU, 0.45, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_bool(typed, TRAINSIZE_ID_SP, 1, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_u64(typed, TRAINSIZE_ID_TP, 2, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_u64(typed, TRAINSIZE_ID_GPUS, 8, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_choice(typed, TRAINSIZE_ID_RECOMPUTE, TRAINSIZE_RECOMPUTE_SELECTIVE,
                                              &err),
                     TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set_u64(typed, TRAINSIZE_ID_GPU_MEMORY, 40ull << 30, &err), TRAINSIZE_OK);
    for (i = 0; i < trainsize_param_count(); i++) {
        const char *name = trainsize_param_at(i)->name;
        trainsize_job_get(text, name, x, sizeof x, NULL);
        trainsize_job_get(typed, name, y, sizeof y, NULL);
        assert_string_equal(x, y);
    }
    assert_int_equal(trainsize_estimate(text, &a, sizeof a, &err), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(typed, &b, sizeof b, &err), TRAINSIZE_OK);
    assert_int_equal(a.memory.peak_total, b.memory.peak_total);
    assert_true(a.time.seconds == b.time.seconds);
    trainsize_job_free(text);
    trainsize_job_free(typed);
}

static void test_typed_errors(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "gpt2"));
    trainsize_error err;
    char before[64], after[64];
    (void)state;
    trainsize_job_get(job, "micro-batch", before, sizeof before, NULL);
    /* Out of range, with the parameter named; the job unchanged. */
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_MICRO_BATCH, 0, &err), TRAINSIZE_E_INVALID);
    assert_string_equal(err.field, "micro-batch");
    trainsize_job_get(job, "micro-batch", after, sizeof after, NULL);
    assert_string_equal(before, after);
    assert_int_equal(trainsize_job_set_f64(job, TRAINSIZE_ID_HFU, NAN, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_job_set_f64(job, TRAINSIZE_ID_HFU, INFINITY, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_job_set_f64(job, TRAINSIZE_ID_HFU, 1.5, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_job_set_bool(job, TRAINSIZE_ID_SP, 2, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_job_set_choice(job, TRAINSIZE_ID_RECOMPUTE, 4, &err), TRAINSIZE_E_INVALID);
    assert_int_equal(trainsize_job_set_choice(job, TRAINSIZE_ID_RECOMPUTE, -1, &err), TRAINSIZE_E_INVALID);
    /* The wrong kind, an unknown id, no job. */
    assert_int_equal(trainsize_job_set_f64(job, TRAINSIZE_ID_MICRO_BATCH, 2.0, &err), TRAINSIZE_E_ARGUMENT);
    assert_string_equal(err.field, "micro-batch");
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_MODEL, 1, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_set_u64(job, (trainsize_param_id)-1, 1, &err), TRAINSIZE_E_UNKNOWN);
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_COUNT, 1, &err), TRAINSIZE_E_UNKNOWN);
    assert_int_equal(trainsize_job_set_u64(NULL, TRAINSIZE_ID_TP, 1, &err), TRAINSIZE_E_ARGUMENT);
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_TP, 1, NULL), TRAINSIZE_OK);
    trainsize_job_free(job);
}

/* What follows a set by name follows a set by id: a changed shape renames the model, and a
 * sequence set by id is the caller's (a later model does not shorten it). */
static void test_typed_side_effects(void **state)
{
    trainsize_job *job = ts_test_job(PAIRS("model", "llama-2-7b"));
    trainsize_result r;
    char text[64];
    (void)state;
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_LAYERS, 16, NULL), TRAINSIZE_OK);
    assert_int_equal(trainsize_estimate(job, &r, sizeof r, NULL), TRAINSIZE_OK);
    assert_non_null(strstr(r.model.name, "(modified)"));
    assert_int_equal(trainsize_job_set_u64(job, TRAINSIZE_ID_SEQ, 512, NULL), TRAINSIZE_OK);
    assert_int_equal(trainsize_job_set(job, "model", "gpt2", NULL), TRAINSIZE_OK);
    trainsize_job_get(job, "seq", text, sizeof text, NULL);
    assert_string_equal(text, "512");
    trainsize_job_free(job);
}

/* The public choice enums name each parameter's choices in the order of its list: the
 * value given to trainsize_job_set_choice() is the one whose name the job reads back. */
static void test_choice_enums_follow_the_lists(void **state)
{
    static const struct { trainsize_param_id id; int value; const char *name; } cases[] = {
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_FP32, "fp32"},
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_BF16_MIXED, "bf16-mixed"},
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_FP16_MIXED, "fp16-mixed"},
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_BF16, "bf16"},
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_FP16, "fp16"},
        {TRAINSIZE_ID_PRECISION, TRAINSIZE_PRECISION_FP8_MIXED, "fp8-mixed"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_ADAMW, "adamw"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_ADAM, "adam"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_SGD, "sgd"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_SGD_MOMENTUM, "sgd-momentum"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_ADAFACTOR, "adafactor"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_ADAMW_8BIT, "adamw-8bit"},
        {TRAINSIZE_ID_OPTIMIZER, TRAINSIZE_OPTIMIZER_LION, "lion"},
        {TRAINSIZE_ID_FRAMEWORK, TRAINSIZE_FRAMEWORK_MEGATRON, "megatron"},
        {TRAINSIZE_ID_FRAMEWORK, TRAINSIZE_FRAMEWORK_DEEPSPEED, "deepspeed"},
        {TRAINSIZE_ID_FRAMEWORK, TRAINSIZE_FRAMEWORK_PYTORCH, "pytorch"},
        {TRAINSIZE_ID_FRAMEWORK, TRAINSIZE_FRAMEWORK_AUTO, "auto"},
        {TRAINSIZE_ID_RECOMPUTE, TRAINSIZE_RECOMPUTE_NONE, "none"},
        {TRAINSIZE_ID_RECOMPUTE, TRAINSIZE_RECOMPUTE_SELECTIVE, "selective"},
        {TRAINSIZE_ID_RECOMPUTE, TRAINSIZE_RECOMPUTE_FULL, "full"},
        {TRAINSIZE_ID_RECOMPUTE, TRAINSIZE_RECOMPUTE_PER_OP, "per-op"},
        {TRAINSIZE_ID_ATTENTION, TRAINSIZE_ATTENTION_FLASH, "flash"},
        {TRAINSIZE_ID_ATTENTION, TRAINSIZE_ATTENTION_EAGER, "eager"},
        {TRAINSIZE_ID_OFFLOAD, TRAINSIZE_OFFLOAD_NONE, "none"},
        {TRAINSIZE_ID_OFFLOAD, TRAINSIZE_OFFLOAD_OPTIMIZER, "optimizer"},
        {TRAINSIZE_ID_OFFLOAD, TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS, "optimizer+params"},
        {TRAINSIZE_ID_QUANTIZE_BASE, TRAINSIZE_QUANTIZE_NONE, "none"},
        {TRAINSIZE_ID_QUANTIZE_BASE, TRAINSIZE_QUANTIZE_NF4, "nf4"},
        {TRAINSIZE_ID_QUANTIZE_BASE, TRAINSIZE_QUANTIZE_INT8, "int8"},
        {TRAINSIZE_ID_KBIT_UPCAST, TRAINSIZE_TRISTATE_AUTO, "auto"},
        {TRAINSIZE_ID_QUANT_STATE_REPLICATED, TRAINSIZE_TRISTATE_YES, "yes"},
        {TRAINSIZE_ID_EMBEDDING_STATE_FP32, TRAINSIZE_TRISTATE_NO, "no"},
        {TRAINSIZE_ID_OBJECTIVE, TRAINSIZE_OBJECTIVE_COST, "cost"},
        {TRAINSIZE_ID_OBJECTIVE, TRAINSIZE_OBJECTIVE_TIME, "time"},
        {TRAINSIZE_ID_OBJECTIVE, TRAINSIZE_OBJECTIVE_OWNED, "owned"},
        {TRAINSIZE_ID_NORM, TRAINSIZE_NORM_LAYERNORM, "layernorm"},
        {TRAINSIZE_ID_NORM, TRAINSIZE_NORM_RMSNORM, "rmsnorm"},
        {TRAINSIZE_ID_BIAS, TRAINSIZE_BIAS_NONE, "none"},
        {TRAINSIZE_ID_BIAS, TRAINSIZE_BIAS_QKV, "qkv"},
        {TRAINSIZE_ID_BIAS, TRAINSIZE_BIAS_ALL, "all"},
        {TRAINSIZE_ID_BIAS, TRAINSIZE_BIAS_ATTENTION, "attention"},
        {TRAINSIZE_ID_QK_NORM, TRAINSIZE_QK_NORM_NONE, "none"},
        {TRAINSIZE_ID_QK_NORM, TRAINSIZE_QK_NORM_HEAD, "head"},
        {TRAINSIZE_ID_QK_NORM, TRAINSIZE_QK_NORM_FULL, "full"},
    };
    trainsize_job *job = trainsize_job_new();
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const trainsize_param_info *p = trainsize_param_by_id(cases[i].id);
        char got[64];
        assert_non_null(p);
        assert_int_equal(trainsize_job_set_choice(job, cases[i].id, cases[i].value, NULL), 0);
        assert_true(trainsize_job_get(job, p->name, got, sizeof got, NULL) > 0);
        if (strcmp(got, cases[i].name) != 0)
            fail_msg("%s = %d reads back \"%s\", the enum names \"%s\"", p->name, cases[i].value,
                     got, cases[i].name);
    }
    trainsize_job_free(job);
}

/* The method and reference lists are written once (choices.h): the parameter's choices,
 * the enum and the result's names all come from them. Every choice, set by name, is the
 * enum of its position and reads back in an estimate's result by the same name (a
 * reference left to auto reads ""). */
static void test_written_once_lists(void **state)
{
    static const char *const methods[] = {TS_METHOD_LIST(TS_NAME_ITEM)};
    static const char *const references[] = {TS_REFERENCE_LIST(TS_NAME_ITEM)};
    const trainsize_param_info *m = trainsize_param_by_id(TRAINSIZE_ID_METHOD);
    const trainsize_param_info *r = trainsize_param_by_id(TRAINSIZE_ID_REFERENCE);
    size_t i;
    (void)state;
    assert_int_equal(sizeof methods / sizeof methods[0], TS_METHOD_COUNT);
    assert_int_equal(sizeof references / sizeof references[0], TS_REFERENCE_COUNT);
    assert_string_equal(m->choices, "sft|dpo|grpo|ppo|distill");
    assert_string_equal(r->choices, "auto|model|adapters-off|precomputed|none");
    for (i = 0; i < TS_METHOD_COUNT; i++) {
        /* each method with what it needs: a teacher to distil from, a response for RL */
        trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "3"));
        trainsize_result res;
        trainsize_error err;
        assert_int_equal(trainsize_job_set(job, "method", methods[i], NULL), 0);
        assert_int_equal((int)((const trainsize_job *)job)->s.method, (int)i);
        if (i == TS_METHOD_DISTILL) assert_int_equal(trainsize_job_set(job, "teacher", "llama-3-8b", NULL), 0);
        if (trainsize_estimate(job, &res, sizeof res, &err) != 0) fail_msg("%s: %s", methods[i], err.message);
        assert_string_equal(res.method, methods[i]);
        trainsize_job_free(job);
    }
    for (i = 0; i < TS_REFERENCE_COUNT; i++) {
        /* dpo keeps a reference; none is grpo's (its KL term off) */
        trainsize_job *job = ts_test_job(PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "3",
                                               "method", i == TS_REF_NONE ? "grpo" : "dpo", "lora-rank", "16"));
        trainsize_result res;
        trainsize_error err;
        assert_int_equal(trainsize_job_set(job, "reference", references[i], NULL), 0);
        assert_int_equal((int)((const trainsize_job *)job)->s.reference, (int)i);
        if (trainsize_estimate(job, &res, sizeof res, &err) != 0) fail_msg("%s: %s", references[i], err.message);
        /* auto resolves (adapters-off with LoRA); the others read as set */
        assert_string_equal(res.reference, i == TS_REF_AUTO ? "adapters-off" : references[i]);
        trainsize_job_free(job);
    }
}

/* The other lists written once (choices.h): each parameter's choice text is its list, and
 * every choice but auto, set by name, reads back by the same name in an estimate's result. */
typedef struct list_case {
    int id;                           /* the parameter */
    const char *const *names;         /* its list's names */
    size_t count;
    const char *result_field;         /* where an estimate names the choice it ran */
    const char *const *pairs;         /* a job that runs every choice */
} list_case;

static void test_more_written_once_lists(void **state)
{
    static const char *const stacks[] = {TS_STACK_LIST(TS_NAME_ITEM)};
    static const char *const recipes[] = {TS_FP8_RECIPE_LIST(TS_NAME_ITEM)};
    static const char *const schedules[] = {TS_PP_SCHEDULE_LIST(TS_NAME_ITEM)};
    static const char *const frameworks[] = {TS_FRAMEWORK_LIST(TS_NAME_ITEM)};
    static const char *const recomputes[] = {TS_RECOMPUTE_LIST(TS_NAME_ITEM)};
    const list_case cases[] = {
        {TRAINSIZE_ID_STACK, stacks, TS_STACK_COUNT, "layout.stack",
         PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "1")},
        {TRAINSIZE_ID_FP8_RECIPE, recipes, TS_FP8_RECIPE_COUNT, "layout.fp8_recipe",
         PAIRS("model", "llama-3-8b", "gpu", "b200", "gpus", "8", "zero", "1", "precision", "fp8-mixed")},
        {TRAINSIZE_ID_PP_SCHEDULE, schedules, TS_PP_SCHEDULE_COUNT, "layout.pp_schedule",
         PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "pp", "4", "global-batch", "64")},
        {TRAINSIZE_ID_FRAMEWORK, frameworks, TS_FRAMEWORK_COUNT, "layout.framework",
         PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "1")},
        {TRAINSIZE_ID_RECOMPUTE, recomputes, TS_RECOMPUTE_COUNT, "layout.recompute",
         PAIRS("model", "llama-3-8b", "gpu", "h100-80gb", "gpus", "8", "zero", "1")},
    };
    size_t c, i;
    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const trainsize_param_info *p = trainsize_param_by_id((trainsize_param_id)cases[c].id);
        char joined[256] = "";
        size_t field = trainsize_result_field_count();
        for (i = 0; i < cases[c].count; i++) {
            if (i) strcat(joined, "|");
            strcat(joined, cases[c].names[i]);
        }
        assert_string_equal(p->choices, joined);
        for (i = 0; i < trainsize_result_field_count(); i++)
            if (strcmp(trainsize_result_field_at(i)->path, cases[c].result_field) == 0) field = i;
        assert_true(field < trainsize_result_field_count());
        for (i = 0; i < cases[c].count; i++) {
            trainsize_job *job;
            trainsize_result res;
            trainsize_error err;
            trainsize_field_value v;
            if (strcmp(cases[c].names[i], "auto") == 0) continue; /* resolved, by a rule */
            job = ts_test_job(cases[c].pairs);
            if (cases[c].id == TRAINSIZE_ID_PP_SCHEDULE && strcmp(cases[c].names[i], "interleaved") == 0)
                assert_int_equal(trainsize_job_set(job, "pp-interleave", "2", NULL), 0);
            assert_int_equal(trainsize_job_set(job, p->name, cases[c].names[i], NULL), 0);
            if (trainsize_estimate(job, &res, sizeof res, &err) != 0)
                fail_msg("%s %s: %s", p->name, cases[c].names[i], err.message);
            assert_int_equal(trainsize_result_field_get(&res, field, &v), 0);
            if (strcmp(v.text, cases[c].names[i]) != 0)
                fail_msg("%s %s reads back as %s \"%s\"", p->name, cases[c].names[i], cases[c].result_field, v.text);
            trainsize_job_free(job);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_id_names_its_parameter),
        cmocka_unit_test(test_typed_equals_text),
        cmocka_unit_test(test_more_written_once_lists),
        cmocka_unit_test(test_typed_errors),
        cmocka_unit_test(test_typed_side_effects),
        cmocka_unit_test(test_choice_enums_follow_the_lists),
        cmocka_unit_test(test_written_once_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

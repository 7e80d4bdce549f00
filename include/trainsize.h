/**
 * @file trainsize.h
 * @brief libtrainsize: what it takes to train a transformer model.
 *
 * One umbrella header. A caller describes a training job (a model shape, a training
 * setup, a parallel layout and a GPU) on a ::trainsize_job, then asks for an estimate:
 * per-GPU memory (weights, gradients, optimizer state, activations, transient peaks and
 * overhead), the server it needs and the time it takes.
 *
 * Conventions, for every function below:
 * - Sizes are bytes in 64-bit unsigned integers, rates bytes per second, times seconds,
 *   power watts, compute floating-point operations.
 * - Functions that can fail return ::TRAINSIZE_OK (0) or a negative ::trainsize_status.
 *   When the caller passes a ::trainsize_error, it receives the code, the offending
 *   field and a one-line message; passing NULL is allowed.
 * - Results are plain structs owned by the caller. The library keeps no global mutable
 *   state, never prints, exits or aborts, and is reentrant: distinct jobs may be used
 *   from distinct threads at once, and one job may be read (estimated) from many threads
 *   at once as long as no thread modifies it.
 * - The estimate path does not allocate heap memory.
 *
 * @defgroup trainsize libtrainsize public API
 * @{
 */
#ifndef TRAINSIZE_H
#define TRAINSIZE_H

#include <stddef.h>
#include <stdint.h>

#include "trainsize_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/** @name Version
 * The release version lives here once; CMake reads it from this header.
 * @{ */
#define TRAINSIZE_VERSION_MAJOR 0 /**< Major release number. */
#define TRAINSIZE_VERSION_MINOR 1 /**< Minor release number. */
#define TRAINSIZE_VERSION_PATCH 0 /**< Patch release number. */
/** The release version as one number: major * 10000 + minor * 100 + patch. */
#define TRAINSIZE_VERSION_NUMBER \
    (TRAINSIZE_VERSION_MAJOR * 10000 + TRAINSIZE_VERSION_MINOR * 100 + TRAINSIZE_VERSION_PATCH)
/** The release version as a string, "major.minor.patch". */
#define TRAINSIZE_VERSION_STRING "0.1.0"
/** The ABI version: the SONAME's number. Bumped on any incompatible change of a public
 *  struct layout or function signature; independent of the release version. 2: the
 *  result gained the layout it used, GPU descriptions their usable memory,
 *  capabilities, vendor, per-datatype peaks, scale-up domain and host (with its
 *  network), and plan
 *  candidates and statistics their owned cost and limits. */
#define TRAINSIZE_ABI_VERSION 2
/** @} */

/**
 * @brief The release version of the library actually linked, as "major.minor.patch".
 * @return A static string; never NULL; the caller must not free it.
 */
TRAINSIZE_API const char *trainsize_version_string(void);

/**
 * @brief The release version of the library actually linked, as ::TRAINSIZE_VERSION_NUMBER.
 * @return major * 10000 + minor * 100 + patch.
 */
TRAINSIZE_API unsigned trainsize_version_number(void);

/**
 * @brief The ABI version of the library actually linked (::TRAINSIZE_ABI_VERSION).
 *
 * Bindings compare it with the ABI they were written for and refuse a mismatch.
 * @return The ABI version number.
 */
TRAINSIZE_API unsigned trainsize_abi_version(void);

/** @name Struct sizes
 * The sizes of the public structs callers allocate, as the library was built, so that a
 * binding or a caller compiled against another header can check its own layout.
 * @{ */

/** Which struct ::trainsize_struct_size measures. */
typedef enum trainsize_struct_id {
    TRAINSIZE_STRUCT_ERROR = 0,          /**< ::trainsize_error */
    TRAINSIZE_STRUCT_RESULT = 1,         /**< ::trainsize_result */
    TRAINSIZE_STRUCT_PLAN_CANDIDATE = 2, /**< ::trainsize_plan_candidate */
    TRAINSIZE_STRUCT_PLAN_STATS = 3,     /**< ::trainsize_plan_stats */
    TRAINSIZE_STRUCT_FIELD_VALUE = 4,    /**< ::trainsize_field_value */
    TRAINSIZE_STRUCT_GPU_INFO = 5,       /**< ::trainsize_gpu_info */
    TRAINSIZE_STRUCT_ADVICE = 6,         /**< ::trainsize_advice */
    TRAINSIZE_STRUCT_CHECKPOINT = 7,     /**< ::trainsize_checkpoint */
    TRAINSIZE_STRUCT_CAPACITY_ENTRY = 8  /**< ::trainsize_capacity_entry */
} trainsize_struct_id;

/**
 * @brief The size in bytes of a public struct as the linked library has it.
 * @param which A ::trainsize_struct_id.
 * @return sizeof that struct, or 0 for an unknown id.
 */
TRAINSIZE_API size_t trainsize_struct_size(int which);

/** @} */

/** @name Errors
 * @{ */

/** Status codes. Values are pinned: they never change meaning. */
typedef enum trainsize_status {
    TRAINSIZE_OK = 0,              /**< Success. */
    TRAINSIZE_E_INVALID = -1,      /**< A value is malformed or out of its range. */
    TRAINSIZE_E_UNKNOWN = -2,      /**< An unknown parameter, preset, GPU or choice name. */
    TRAINSIZE_E_LAYOUT = -3,       /**< The parallel layout does not divide the model or GPUs. */
    TRAINSIZE_E_OVERFLOW = -4,     /**< A result would not fit in 64 bits. */
    TRAINSIZE_E_PARSE = -5,        /**< Malformed JSON. */
    TRAINSIZE_E_LIMIT = -6,        /**< Input beyond a size or nesting limit. */
    TRAINSIZE_E_IO = -7,           /**< A file could not be read. */
    TRAINSIZE_E_NOMEM = -8,        /**< Memory allocation failed (job creation only). */
    TRAINSIZE_E_ARGUMENT = -9,     /**< A NULL pointer or a too-small struct from the caller. */
    TRAINSIZE_E_UNSUPPORTED = -10, /**< A valid combination the model does not cover. */
    TRAINSIZE_E_CANCELLED = -11    /**< The caller's progress callback stopped a search. */
} trainsize_status;

/** Capacity of ::trainsize_error::field, including the terminating NUL. */
#define TRAINSIZE_ERROR_FIELD_MAX 64
/** Capacity of ::trainsize_error::message, including the terminating NUL. */
#define TRAINSIZE_ERROR_MESSAGE_MAX 256

/**
 * @brief Details of a failure, filled by the library in caller-owned storage.
 *
 * Every function that takes a `trainsize_error *` fills it on failure and clears it
 * (code 0, empty strings) on success. NULL is accepted and means "no details wanted".
 */
typedef struct trainsize_error {
    int code;                                  /**< A ::trainsize_status value. */
    char field[TRAINSIZE_ERROR_FIELD_MAX];     /**< The offending parameter or JSON key, or "". */
    char message[TRAINSIZE_ERROR_MESSAGE_MAX]; /**< One line naming the field and the reason:
                                                    valid, printable UTF-8 whatever the input
                                                    (a caller's control characters quoted in
                                                    it are escaped as \\xNN or \\uNNNN), its
                                                    numbers in the C locale's form. */
} trainsize_error;

/**
 * @brief A short, static description of a status code.
 * @param code A ::trainsize_status value (unknown values give "unknown error").
 * @return A static string; never NULL; the caller must not free it.
 */
TRAINSIZE_API const char *trainsize_strerror(int code);

/** @} */

/** @name Jobs
 * A job holds everything that describes one training run. It is created with
 * ::trainsize_job_new (defaults: see ::trainsize_param_info), changed with
 * ::trainsize_job_set, and freed with ::trainsize_job_free.
 * @{ */

/** Opaque description of a training job. */
typedef struct trainsize_job trainsize_job;

/**
 * @brief Create a job holding the defaults (a model must still be chosen).
 * @return A new job owned by the caller (free it with ::trainsize_job_free), or NULL
 *         when memory is exhausted.
 */
TRAINSIZE_API trainsize_job *trainsize_job_new(void);

/**
 * @brief Copy a job.
 * @param[in] job The job to copy; NULL gives NULL.
 * @return A new job owned by the caller, or NULL on NULL input or exhausted memory.
 */
TRAINSIZE_API trainsize_job *trainsize_job_clone(const trainsize_job *job);

/**
 * @brief Free a job. NULL is a harmless no-op.
 * @param[in] job A job from ::trainsize_job_new or ::trainsize_job_clone, or NULL.
 */
TRAINSIZE_API void trainsize_job_free(trainsize_job *job);

/**
 * @brief Typed ids of the parameters, beside their names: a misspelt id fails to compile
 *        where a misspelt name fails at run time.
 *
 * Fixed values (part of the ABI): new parameters get new ids after the last; an id is
 * never reused. trainsize_param_by_id() gives an id's ::trainsize_param_info,
 * trainsize_param_find() the id of a name.
 */
typedef enum trainsize_param_id {
    TRAINSIZE_ID_MODEL = 0,                     /**< "model" */
    TRAINSIZE_ID_LAYERS = 1,                    /**< "layers" */
    TRAINSIZE_ID_HIDDEN = 2,                    /**< "hidden" */
    TRAINSIZE_ID_HEADS = 3,                     /**< "heads" */
    TRAINSIZE_ID_KV_HEADS = 4,                  /**< "kv-heads" */
    TRAINSIZE_ID_HEAD_DIM = 5,                  /**< "head-dim" */
    TRAINSIZE_ID_FFN = 6,                       /**< "ffn" */
    TRAINSIZE_ID_VOCAB = 7,                     /**< "vocab" */
    TRAINSIZE_ID_POSITIONS = 8,                 /**< "positions" */
    TRAINSIZE_ID_TIE_EMBEDDINGS = 9,            /**< "tie-embeddings" */
    TRAINSIZE_ID_GATED_MLP = 10,                /**< "gated-mlp" */
    TRAINSIZE_ID_NORM = 11,                     /**< "norm" */
    TRAINSIZE_ID_BIAS = 12,                     /**< "bias" */
    TRAINSIZE_ID_EXPERTS = 13,                  /**< "experts" */
    TRAINSIZE_ID_EXPERTS_PER_TOKEN = 14,        /**< "experts-per-token" */
    TRAINSIZE_ID_SHARED_EXPERTS = 15,           /**< "shared-experts" */
    TRAINSIZE_ID_SHARED_EXPERT_FFN = 16,        /**< "shared-expert-ffn" */
    TRAINSIZE_ID_FUSED_QKV = 17,                /**< "fused-qkv" */
    TRAINSIZE_ID_FUSED_GATE_UP = 18,            /**< "fused-gate-up" */
    TRAINSIZE_ID_RESIDUAL_DROPOUT = 19,         /**< "residual-dropout" */
    TRAINSIZE_ID_SEQ = 20,                      /**< "seq" */
    TRAINSIZE_ID_MICRO_BATCH = 21,              /**< "micro-batch" */
    TRAINSIZE_ID_GLOBAL_BATCH = 22,             /**< "global-batch" */
    TRAINSIZE_ID_TOKENS = 23,                   /**< "tokens" */
    TRAINSIZE_ID_PRECISION = 24,                /**< "precision" */
    TRAINSIZE_ID_OPTIMIZER = 25,                /**< "optimizer" */
    TRAINSIZE_ID_FRAMEWORK = 26,                /**< "framework" */
    TRAINSIZE_ID_GRAD_PRECISION = 27,           /**< "grad-precision" */
    TRAINSIZE_ID_LOSS_UPCAST = 28,              /**< "loss-upcast" */
    TRAINSIZE_ID_AUTOCAST_OPS = 29,             /**< "autocast-ops" */
    TRAINSIZE_ID_DROPOUT_MASK_BYTES = 30,       /**< "dropout-mask-bytes" */
    TRAINSIZE_ID_MEAN_KEEPS_INPUT = 31,         /**< "mean-keeps-input" */
    TRAINSIZE_ID_GPU = 32,                      /**< "gpu" */
    TRAINSIZE_ID_GPU_MEMORY = 33,               /**< "gpu-memory" */
    TRAINSIZE_ID_GPUS = 34,                     /**< "gpus" */
    TRAINSIZE_ID_GPUS_PER_NODE = 35,            /**< "gpus-per-node" */
    TRAINSIZE_ID_TP = 36,                       /**< "tp" */
    TRAINSIZE_ID_PP = 37,                       /**< "pp" */
    TRAINSIZE_ID_PP_INTERLEAVE = 38,            /**< "pp-interleave" */
    TRAINSIZE_ID_PP_FIRST_LAYERS = 39,          /**< "pp-first-layers" */
    TRAINSIZE_ID_PP_LAST_LAYERS = 40,           /**< "pp-last-layers" */
    TRAINSIZE_ID_SP = 41,                       /**< "sp" */
    TRAINSIZE_ID_CP = 42,                       /**< "cp" */
    TRAINSIZE_ID_EP = 43,                       /**< "ep" */
    TRAINSIZE_ID_ZERO = 44,                     /**< "zero" */
    TRAINSIZE_ID_RECOMPUTE = 45,                /**< "recompute" */
    TRAINSIZE_ID_ATTENTION = 46,                /**< "attention" */
    TRAINSIZE_ID_DROPOUT = 47,                  /**< "dropout" */
    TRAINSIZE_ID_OFFLOAD = 48,                  /**< "offload" */
    TRAINSIZE_ID_LORA_RANK = 49,                /**< "lora-rank" */
    TRAINSIZE_ID_LORA_TARGETS = 50,             /**< "lora-targets" */
    TRAINSIZE_ID_QUANTIZE_BASE = 51,            /**< "quantize-base" */
    TRAINSIZE_ID_QUANTIZE_KEEPS_INPUT = 52,     /**< "quantize-keeps-input" */
    TRAINSIZE_ID_KBIT_UPCAST = 53,              /**< "kbit-upcast" */
    TRAINSIZE_ID_QUANT_STATE_REPLICATED = 54,   /**< "quant-state-replicated" */
    TRAINSIZE_ID_EMBEDDING_STATE_FP32 = 55,     /**< "embedding-state-fp32" */
    TRAINSIZE_ID_BASE_DTYPE = 56,               /**< "base-dtype" */
    TRAINSIZE_ID_GRAD_SYNC = 57,                /**< "grad-sync" */
    TRAINSIZE_ID_FSDP_LORA_WRAP = 58,           /**< "fsdp-lora-wrap" */
    TRAINSIZE_ID_LOADING = 59,                  /**< "loading" */
    TRAINSIZE_ID_LOAD_DTYPE = 60,               /**< "load-dtype" */
    TRAINSIZE_ID_QUANTIZE_SCRATCH = 61,         /**< "quantize-scratch" */
    TRAINSIZE_ID_CUDA_CONTEXT = 62,             /**< "cuda-context" */
    TRAINSIZE_ID_COMM_BUFFER = 63,              /**< "comm-buffer" */
    TRAINSIZE_ID_ALLOCATOR_SLACK = 64,          /**< "allocator-slack" */
    TRAINSIZE_ID_SHARDED_SLACK = 65,            /**< "sharded-slack" */
    TRAINSIZE_ID_ZERO3_GATHER_LAYERS = 66,      /**< "zero3-gather-layers" */
    TRAINSIZE_ID_HFU = 67,                      /**< "hfu" */
    TRAINSIZE_ID_DATA_LOADER_WORKERS = 68,      /**< "data-loader-workers" */
    TRAINSIZE_ID_SHARDED_LOADING = 69,          /**< "sharded-loading" */
    TRAINSIZE_ID_HOST_MEMORY_BANDWIDTH = 70,    /**< "host-memory-bandwidth" */
    TRAINSIZE_ID_HOST_RAM = 71,                 /**< "host-ram" */
    TRAINSIZE_ID_CPU_CORES = 72,                /**< "cpu-cores" */
    TRAINSIZE_ID_NICS_PER_NODE = 73,            /**< "nics-per-node" */
    TRAINSIZE_ID_NETWORK = 74,                  /**< "network" */
    TRAINSIZE_ID_STORAGE = 75,                  /**< "storage" */
    TRAINSIZE_ID_CHECKPOINT_SECONDS = 76,       /**< "checkpoint-seconds" */
    TRAINSIZE_ID_COMM_SHARE = 77,               /**< "comm-share" */
    TRAINSIZE_ID_COLLECTIVE_LATENCY = 78,       /**< "collective-latency" */
    TRAINSIZE_ID_MOE_MAX_NODES = 79,            /**< "moe-max-nodes" */
    TRAINSIZE_ID_EP_OVERLAP = 80,               /**< "ep-overlap" */
    TRAINSIZE_ID_HEADROOM = 81,                 /**< "headroom" */
    TRAINSIZE_ID_SERVER_POWER_FACTOR = 82,      /**< "server-power-factor" */
    TRAINSIZE_ID_PUE = 83,                      /**< "pue" */
    TRAINSIZE_ID_CARBON_INTENSITY = 84,         /**< "carbon-intensity" */
    TRAINSIZE_ID_GPU_HOUR_USD = 85,             /**< "gpu-hour-usd" */
    TRAINSIZE_ID_GPU_PRICE_USD = 86,            /**< "gpu-price-usd" */
    TRAINSIZE_ID_GPU_PRICES = 87,               /**< "gpu-prices" */
    TRAINSIZE_ID_SERVER_SHARE = 88,             /**< "server-share" */
    TRAINSIZE_ID_NETWORK_USD_PER_GPU = 89,      /**< "network-usd-per-gpu" */
    TRAINSIZE_ID_AMORTIZATION_YEARS = 90,       /**< "amortization-years" */
    TRAINSIZE_ID_SUPPORT_SHARE = 91,            /**< "support-share" */
    TRAINSIZE_ID_POWER_USD_PER_KWH = 92,        /**< "power-usd-per-kwh" */
    TRAINSIZE_ID_PLAN_GPUS = 93,                /**< "plan-gpus" */
    TRAINSIZE_ID_MAX_GPUS = 94,                 /**< "max-gpus" */
    TRAINSIZE_ID_DEADLINE_DAYS = 95,            /**< "deadline-days" */
    TRAINSIZE_ID_BUDGET = 96,                   /**< "budget" */
    TRAINSIZE_ID_OBJECTIVE = 97,                /**< "objective" */
    TRAINSIZE_ID_PLAN_RANKING = 98,             /**< "plan-ranking" */
    TRAINSIZE_ID_PLAN_GPU_COUNT = 99,           /**< "plan-gpu-count" */
    TRAINSIZE_ID_RACK_POWER_WATTS = 100,        /**< "rack-power-watts" */
    TRAINSIZE_ID_HOST_RAM_FACTOR = 101,         /**< "host-ram-factor" */
    TRAINSIZE_ID_CHECKPOINTS_KEPT = 102,        /**< "checkpoints-kept" */
    TRAINSIZE_ID_Q_LORA_RANK = 103,             /**< "q-lora-rank" */
    TRAINSIZE_ID_KV_LORA_RANK = 104,            /**< "kv-lora-rank" */
    TRAINSIZE_ID_QK_ROPE_HEAD_DIM = 105,        /**< "qk-rope-head-dim" */
    TRAINSIZE_ID_V_HEAD_DIM = 106,              /**< "v-head-dim" */
    TRAINSIZE_ID_QK_NORM = 107,                 /**< "qk-norm" */
    TRAINSIZE_ID_ATTENTION_SINKS = 108,         /**< "attention-sinks" */
    TRAINSIZE_ID_SLIDING_WINDOW = 109,          /**< "sliding-window" */
    TRAINSIZE_ID_GLOBAL_EVERY = 110,            /**< "global-every" */
    TRAINSIZE_ID_NORMS_PER_LAYER = 111,         /**< "norms-per-layer" */
    TRAINSIZE_ID_PARALLEL_BLOCK = 112,          /**< "parallel-block" */
    TRAINSIZE_ID_FIRST_DENSE_LAYERS = 113,      /**< "first-dense-layers" */
    TRAINSIZE_ID_MOE_EVERY = 114,               /**< "moe-every" */
    TRAINSIZE_ID_DENSE_FFN = 115,               /**< "dense-ffn" */
    TRAINSIZE_ID_ROUTER_BIAS = 116,             /**< "router-bias" */
    TRAINSIZE_ID_SHARED_EXPERT_GATE = 117,      /**< "shared-expert-gate" */
    TRAINSIZE_ID_OUTPUT_BIAS = 118,             /**< "output-bias" */
    TRAINSIZE_ID_ATTN_SOFTCAP = 119,            /**< "attn-softcap" */
    TRAINSIZE_ID_LOGIT_SOFTCAP = 120,           /**< "logit-softcap" */
    TRAINSIZE_ID_MTP_LAYERS = 121,              /**< "mtp-layers" */
    TRAINSIZE_ID_NVLS = 122,                    /**< "nvls" */
    TRAINSIZE_ID_SHARP = 123,                   /**< "sharp" */
    TRAINSIZE_ID_DP_OVERLAP = 124,              /**< "dp-overlap" */
    TRAINSIZE_ID_TP_OVERLAP = 125,              /**< "tp-overlap" */
    TRAINSIZE_ID_DP_NICS = 126,                 /**< "dp-nics" */
    TRAINSIZE_ID_FUSED_KERNELS = 127,           /**< "fused-kernels" */
    TRAINSIZE_ID_STACK = 128,                   /**< "stack" */
    TRAINSIZE_ID_RECOMPUTE_LAYERS = 129,        /**< "recompute-layers" */
    TRAINSIZE_ID_ACTIVATION_OFFLOAD = 130,      /**< "activation-offload" */
    TRAINSIZE_ID_FP8_RECIPE = 131,              /**< "fp8-recipe" */
    TRAINSIZE_ID_FP8_PARAMS = 132,              /**< "fp8-params" */
    TRAINSIZE_ID_GPU_POWER_LIMIT = 133,         /**< "gpu-power-limit" */
    TRAINSIZE_ID_PP_ACCOUNT_EMBEDDING = 134,    /**< "pp-account-embedding" */
    TRAINSIZE_ID_CROSS_ENTROPY = 135,           /**< "cross-entropy" */
    TRAINSIZE_ID_PP_SCHEDULE = 136,             /**< "pp-schedule" */
    TRAINSIZE_ID_ETP = 137,                     /**< "etp" */
    TRAINSIZE_ID_STEP_OVERHEAD = 138,           /**< "step-overhead" */
    TRAINSIZE_ID_RECOMPUTE_MODULES = 139,       /**< "recompute-modules" */
    TRAINSIZE_ID_FP8_ACTIVATION_STORE = 140,    /**< "fp8-activation-store" */
    TRAINSIZE_ID_FP8_ATTENTION = 141,           /**< "fp8-attention" */
    TRAINSIZE_ID_FUSED_NORM = 142,              /**< "fused-norm" */
    TRAINSIZE_ID_FUSED_ACTIVATION = 143,        /**< "fused-activation" */
    TRAINSIZE_ID_FUSED_ROPE = 144,              /**< "fused-rope" */
    TRAINSIZE_ID_COMPILE = 145,                 /**< "compile" */
    TRAINSIZE_ID_SHARD_GROUP = 146,             /**< "shard-group" */
    TRAINSIZE_ID_REDUCE_PRECISION = 147,        /**< "reduce-precision" */
    TRAINSIZE_ID_SERVERS_PER_RACK = 148,        /**< "servers-per-rack" */
    TRAINSIZE_ID_UTILIZATION = 149,             /**< "utilization" */
    TRAINSIZE_ID_COLO_USD_PER_KW_MONTH = 150,   /**< "colo-usd-per-kw-month" */
    TRAINSIZE_ID_STORAGE_USD_PER_TB = 151,      /**< "storage-usd-per-tb" */
    TRAINSIZE_ID_INTERRUPTIONS_PER_GPU_DAY = 152, /**< "interruptions-per-gpu-day" */
    TRAINSIZE_ID_RESTART_SECONDS = 153,         /**< "restart-seconds" */
    TRAINSIZE_ID_CHECKPOINT_INTERVAL = 154,     /**< "checkpoint-interval" */
    TRAINSIZE_ID_CHECKPOINT_ASYNC = 155,        /**< "checkpoint-async" */
    TRAINSIZE_ID_SPARE_NODES = 156,             /**< "spare-nodes" */
    TRAINSIZE_ID_DATASET_BYTES = 157,           /**< "dataset-bytes" */
    TRAINSIZE_ID_SAMPLE_BYTES = 158,            /**< "sample-bytes" */
    TRAINSIZE_ID_EPOCHS = 159,                  /**< "epochs" */
    TRAINSIZE_ID_LARGEST_FIT = 160,             /**< "largest-fit" */
    TRAINSIZE_ID_LOCAL_CACHE_BYTES = 161,       /**< "local-cache-bytes" */
    TRAINSIZE_ID_METHOD = 162,                  /**< "method" */
    TRAINSIZE_ID_REFERENCE = 163,               /**< "reference" */
    TRAINSIZE_ID_HEAD = 164,                    /**< "head" */
    TRAINSIZE_ID_CLASSES = 165,                 /**< "classes" */
    TRAINSIZE_ID_TOKEN_TYPES = 166,             /**< "token-types" */
    TRAINSIZE_ID_POST_NORM = 167,               /**< "post-norm" */
    TRAINSIZE_ID_PATCH_SIZE = 168,              /**< "patch-size" */
    TRAINSIZE_ID_CHANNELS = 169,                /**< "channels" */
    TRAINSIZE_ID_GROUP_SIZE = 170,              /**< "group-size" */
    TRAINSIZE_ID_RESPONSE_TOKENS = 171,         /**< "response-tokens" */
    TRAINSIZE_ID_ROLLOUT = 172,                 /**< "rollout" */
    TRAINSIZE_ID_ROLLOUT_MEMORY_SHARE = 173,    /**< "rollout-memory-share" */
    TRAINSIZE_ID_ROLLOUT_TP = 174,              /**< "rollout-tp" */
    TRAINSIZE_ID_ROLLOUT_SLEEP = 175,           /**< "rollout-sleep" */
    TRAINSIZE_ID_TEACHER = 176,                 /**< "teacher" */
    TRAINSIZE_ID_VISION_LAYERS = 177,           /**< "vision-layers" */
    TRAINSIZE_ID_VISION_HIDDEN = 178,           /**< "vision-hidden" */
    TRAINSIZE_ID_VISION_HEADS = 179,            /**< "vision-heads" */
    TRAINSIZE_ID_VISION_FFN = 180,              /**< "vision-ffn" */
    TRAINSIZE_ID_VISION_GATED = 181,            /**< "vision-gated" */
    TRAINSIZE_ID_VISION_PATCHES = 182,          /**< "vision-patches" */
    TRAINSIZE_ID_VISION_OTHER_PARAMS = 183,     /**< "vision-other-params" */
    TRAINSIZE_ID_PROJECTOR_PARAMS = 184,        /**< "projector-params" */
    TRAINSIZE_ID_IMAGE_TOKENS = 185,            /**< "image-tokens" */
    TRAINSIZE_ID_CROSS_ATTENTION_LAYERS = 186,  /**< "cross-attention-layers" */
    TRAINSIZE_ID_IMAGES = 187,                  /**< "images" */
    TRAINSIZE_ID_FREEZE_VISION = 188,           /**< "freeze-vision" */
    TRAINSIZE_ID_RESNET_DEPTH = 189,            /**< "resnet-depth" */
    TRAINSIZE_ID_RESNET_WIDTH = 190,            /**< "resnet-width" */
    TRAINSIZE_ID_IMAGE_SIZE = 191,              /**< "image-size" */
    TRAINSIZE_ID_ROLLOUT_GPUS = 192,            /**< "rollout-gpus" */
    TRAINSIZE_ID_GEMM_SHARE = 193,              /**< "gemm-share" */
    TRAINSIZE_ID_SCALE_UP_EFFICIENCY = 194,     /**< "scale-up-efficiency" */
    TRAINSIZE_ID_NETWORK_EFFICIENCY = 195,      /**< "network-efficiency" */
    TRAINSIZE_ID_TF32 = 196,                    /**< "tf32" */
    TRAINSIZE_ID_MEMORY_FORMAT = 197,           /**< "memory-format" */
    TRAINSIZE_ID_CONV_SHARE = 198,              /**< "conv-share" */
    TRAINSIZE_ID_LAUNCH_OVERHEAD = 199,         /**< "launch-overhead" */
    TRAINSIZE_ID_STEP_SYNC = 200,               /**< "step-sync" */
    TRAINSIZE_ID_CUDA_GRAPHS = 201,             /**< "cuda-graphs" */
    TRAINSIZE_ID_GPU_VARIATION = 202,           /**< "gpu-variation" */
    TRAINSIZE_ID_FLASH_KERNEL = 203,            /**< "flash-kernel" */
    TRAINSIZE_ID_FP8_GEMM_SHARE = 204,          /**< "fp8-gemm-share" */
    TRAINSIZE_ID_MOE_IMBALANCE = 205,           /**< "moe-imbalance" */
    TRAINSIZE_ID_FRAGMENTATION = 206,           /**< "fragmentation" */
    TRAINSIZE_ID_MLP_TILES = 207,               /**< "mlp-tiles" */
    TRAINSIZE_ID_PLAN_MARGIN = 208,             /**< "plan-margin" */
    TRAINSIZE_ID_EXTRA_PARAMS = 209,            /**< "extra-params" */
    TRAINSIZE_ID_PACKING = 210,                 /**< "packing" */
    TRAINSIZE_ID_SAMPLE_TOKENS = 211,           /**< "sample-tokens" */
    TRAINSIZE_ID_MAX_TOKENS_PER_GPU = 212,      /**< "max-tokens-per-gpu" */
    TRAINSIZE_ID_RESPONSE_TOKENS_MEAN = 213,    /**< "response-tokens-mean" */
    TRAINSIZE_ID_CRITIC_MODEL = 214,            /**< "critic-model" */
    TRAINSIZE_ID_REWARD_MODEL = 215,            /**< "reward-model" */
    TRAINSIZE_ID_LOG_PROB_MAX_TOKENS_PER_GPU = 216, /**< "log-prob-max-tokens-per-gpu" */
    TRAINSIZE_ID_CRITIC_GPUS = 217,             /**< "critic-gpus" */
    TRAINSIZE_ID_CRITIC_ZERO = 218,             /**< "critic-zero" */
    TRAINSIZE_ID_CRITIC_OFFLOAD = 219,          /**< "critic-offload" */
    TRAINSIZE_ID_REWARD_GPUS = 220,             /**< "reward-gpus" */
    TRAINSIZE_ID_REWARD_ZERO = 221,             /**< "reward-zero" */
    TRAINSIZE_ID_REWARD_OFFLOAD = 222,          /**< "reward-offload" */
    TRAINSIZE_ID_ROLLOUT_PP = 223,              /**< "rollout-pp" */
    TRAINSIZE_ID_PLAN_ROLLOUT = 224,            /**< "plan-rollout" */
    TRAINSIZE_ID_EXHAUSTIVE = 225,              /**< "exhaustive" */
    TRAINSIZE_ID_COUNT = 226                    /**< Number of ids (not a parameter). */
} trainsize_param_id;

/**
 * @brief Set one parameter by name, from its text form.
 *
 * Names are the command-line option names without the leading dashes ("micro-batch",
 * "tp", "precision", "model", "gpu", ...); ::trainsize_param_info lists them all with
 * their units, ranges and defaults. Numbers are decimal (integers may use an exponent,
 * as in "2e12", when the value is integral); booleans are "true"/"false"/"1"/"0".
 * Units: a parameter in "bytes" also takes a size with a unit, SI (kB, MB, GB, TB, PB:
 * powers of 1000) or IEC (KiB, MiB, GiB, TiB, PiB: powers of 1024), spelled exactly and
 * optionally after one space ("24GiB", "80 GB"; "24Gb", bits, is refused), and a nonzero
 * size under 1 MiB without a unit is refused as a likely slip; one in "bytes/s" takes the
 * same with "/s" ("300GB/s"); "tokens" (the training run) takes K, M, B (billion) and T
 * (trillion) ("1.5T", "300B"). Other counts, sequence lengths included, take none.
 * Names of presets and catalogue entries ignore ASCII case, '-', '_' and spaces
 * ("Llama_2_7B" is "llama-2-7b"). Setting "model" loads a preset's whole shape; shape
 * parameters set afterwards override single fields of it.
 *
 * @param[in,out] job   The job to change.
 * @param[in]     name  Parameter name (NUL-terminated).
 * @param[in]     value Its value as text (NUL-terminated).
 * @param[out]    err   Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_UNKNOWN for an unknown name or choice;
 *         ::TRAINSIZE_E_INVALID for a malformed or out-of-range value (the job is then
 *         unchanged); ::TRAINSIZE_E_ARGUMENT for NULL arguments.
 */
TRAINSIZE_API int trainsize_job_set(trainsize_job *job, const char *name, const char *value,
                                    trainsize_error *err);

/**
 * @brief Read one parameter back in its text form.
 *
 * The text is what ::trainsize_job_set accepts back unchanged: numbers in the C locale's
 * form (a '.' decimal point) whatever LC_NUMERIC the program set, a fraction as the
 * shortest text that reads back as the same double.
 *
 * @param[in]  job  The job.
 * @param[in]  name Parameter name, as for ::trainsize_job_set.
 * @param[out] buf  Caller buffer for the NUL-terminated text; may be NULL when cap is 0.
 * @param[in]  cap  Capacity of buf in bytes.
 * @param[out] err  Details on failure; may be NULL.
 * @return The length of the text (without NUL) on success, which may be >= cap, in which
 *         case the text was truncated (snprintf-style); a negative ::trainsize_status on
 *         failure (::TRAINSIZE_E_UNKNOWN, ::TRAINSIZE_E_ARGUMENT).
 */
TRAINSIZE_API int trainsize_job_get(const trainsize_job *job, const char *name, char *buf,
                                    size_t cap, trainsize_error *err);

/** Largest Hugging Face config.json the reader accepts, in bytes. */
#define TRAINSIZE_HF_CONFIG_MAX_BYTES (1u << 20)
/** Deepest JSON nesting the reader accepts. */
#define TRAINSIZE_HF_CONFIG_MAX_DEPTH 32

/**
 * @brief Load a model shape from the text of a Hugging Face `config.json`.
 *
 * The supported `model_type`s are those `trainsize estimate --help` lists for hf-config
 * (Llama-like families, GPT-2, Mixtral, Qwen2/3 and their MoE, DeepSeek V2/V3, Gemma 1-3,
 * Phi-3, gpt-oss, OLMo 2, Granite, StarCoder2, Falcon, Llama 4's text model, ...); others
 * are refused by name. Unknown keys are ignored; a missing or invalid key that
 * the model type needs is an error naming the key. Each size key is bounded by the range of
 * the option it maps to (`num_hidden_layers` by `layers`, `intermediate_size` by `ffn`, ...),
 * and a value the config implies (GPT-2's 4 x n_embd MLP) by its option's range, naming the
 * option. The reader is bounded: at most
 * ::TRAINSIZE_HF_CONFIG_MAX_BYTES bytes and ::TRAINSIZE_HF_CONFIG_MAX_DEPTH levels.
 * On failure the job is unchanged.
 *
 * @param[in,out] job  The job whose model shape is replaced.
 * @param[in]     json The JSON text (need not be NUL-terminated).
 * @param[in]     len  Its length in bytes.
 * @param[out]    err  Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_PARSE, ::TRAINSIZE_E_LIMIT, ::TRAINSIZE_E_INVALID,
 *         ::TRAINSIZE_E_UNKNOWN (unsupported model_type) or ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_job_load_hf_config(trainsize_job *job, const char *json, size_t len,
                                               trainsize_error *err);

/**
 * @brief Load a model shape from a Hugging Face `config.json` file.
 *
 * Reads the file (at most ::TRAINSIZE_HF_CONFIG_MAX_BYTES) into a bounded buffer, then
 * behaves as ::trainsize_job_load_hf_config. The model's name becomes the file's
 * `_name_or_path` when present, else its folder's name for a file called `config.json`
 * (`Qwen3-8B/config.json`: "Qwen3-8B"), else the file's name without `.json`, else its
 * `model_type`. Only a regular file is read: a
 * FIFO, device, socket or folder is refused (::TRAINSIZE_E_IO, saying which) before any
 * read, so the call never waits for a writer; it reads at most one byte past the limit.
 *
 * @param[in,out] job  The job whose model shape is replaced.
 * @param[in]     path File path (NUL-terminated).
 * @param[out]    err  Details on failure; may be NULL.
 * @return As ::trainsize_job_load_hf_config, plus ::TRAINSIZE_E_IO when the file cannot
 *         be read.
 */
TRAINSIZE_API int trainsize_job_load_hf_config_file(trainsize_job *job, const char *path,
                                                    trainsize_error *err);

/** @} */

/** @name Checkpoints
 * A model's parameters counted exactly from its safetensors headers, and the Hugging Face
 * cache's snapshots found as `huggingface_hub` lays them out.
 * @{ */

/** Largest safetensors header read, in bytes (the safetensors library's own limit). */
#define TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES 100000000u
/** Most shards an index (`model.safetensors.index.json`) may name. */
#define TRAINSIZE_CHECKPOINT_MAX_FILES 4096u

/** Tensor groups a ::trainsize_checkpoint lists (the largest; the rest summed in the last). */
#define TRAINSIZE_CHECKPOINT_GROUPS 16

/** Tensors of a checkpoint whose names share a prefix: the name up to its first numeric
 *  component, written "#" ("model.layers.#": every layer), else the name without its last
 *  component ("model.embed_tokens", "v_head.summary"). Plain data. */
typedef struct trainsize_checkpoint_group {
    char name[80];        /**< The prefix (UTF-8, cut to fit); "(other)" for the groups
                               past the table. */
    uint64_t parameters;  /**< Elements of its tensors, summed (exact). */
    uint64_t tensors;     /**< Its tensors. */
    uint64_t layers;      /**< With "#": its largest index + 1 (layers, experts, blocks); else 0. */
    uint64_t unexplained; /**< Of parameters: those the job's shape does not explain (set by
                               ::trainsize_job_set_checkpoint; 0 before). */
} trainsize_checkpoint_group;

/** What a checkpoint's safetensors headers list. Caller-owned plain data. */
typedef struct trainsize_checkpoint {
    uint64_t parameters; /**< Elements of every tensor, summed (exact). */
    uint64_t bytes;      /**< The tensors' data as stored, in bytes. */
    uint64_t tensors;    /**< Tensors the headers list. */
    uint32_t files;      /**< safetensors files whose headers were read. */
    char dtype[16];      /**< The dtype holding the most elements ("BF16", "F32", ...; "other"
                              for one the format added after this library; "" when none). */
    uint64_t config_parameters; /**< What the job's model shape describes, multi-token
                              prediction included (set by ::trainsize_job_set_checkpoint). */
    uint64_t extra_parameters;  /**< What the headers hold beyond it: the job's `extra-params`
                              (set by ::trainsize_job_set_checkpoint; 0 when they hold less). */
    uint32_t group_count;       /**< Entries of `groups` in use. */
    trainsize_checkpoint_group groups[TRAINSIZE_CHECKPOINT_GROUPS]; /**< The tensors by name
                              prefix, the most parameters first; when there are more than
                              ::TRAINSIZE_CHECKPOINT_GROUPS, the last one, "(other)", sums the
                              rest. Their `unexplained` add up to `extra_parameters`. */
} trainsize_checkpoint;

/**
 * @brief Count a checkpoint's parameters from its safetensors headers, never its data.
 *
 * `path` is a `.safetensors` file, a `model.safetensors.index.json` (each shard its
 * `weight_map` names, a plain file name beside it, is read once), or a folder holding
 * `model.safetensors`, else `model.safetensors.index.json`. Of each file only the 8-byte
 * little-endian header length and the JSON header are read, bounded: the length must lie
 * inside the file and at most ::TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES; a tensor's shape
 * product must not overflow, its `data_offsets` must lie inside the file and, for a dtype of
 * known width, hold exactly its elements. Only regular files are opened. Reentrant.
 *
 * @param[in]  path The file or folder (NUL-terminated).
 * @param[out] out  The counts; zeroed on failure (no partial result).
 * @param[out] err  Details on failure, naming "safetensors" and the file; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_IO (missing or unreadable file, a shard listed but
 *         missing), ::TRAINSIZE_E_INVALID (a header length past the file's end, a tensor
 *         without dtype, shape or offsets, offsets outside the file or not its size),
 *         ::TRAINSIZE_E_PARSE (a header or index that is not JSON),
 *         ::TRAINSIZE_E_OVERFLOW (a shape or the total over 2^63 - 1),
 *         ::TRAINSIZE_E_LIMIT (a header or index over its limit, too many shards),
 *         ::TRAINSIZE_E_NOMEM or ::TRAINSIZE_E_ARGUMENT (NULL path or out).
 */
TRAINSIZE_API int trainsize_checkpoint_read(const char *path, trainsize_checkpoint *out,
                                            trainsize_error *err);

/**
 * @brief Let a checkpoint's headers win over the job's model shape where they hold more.
 *
 * Counts the job's model as its shape describes it (its `extra-params` left out, its
 * multi-token-prediction modules in), stores that in `ck->config_parameters`, and sets the
 * job's `extra-params` to what `ck->parameters` holds beyond it (also in
 * `ck->extra_parameters`): those parameters are then trained and held like the embedding.
 * Headers that hold fewer (a quantized checkpoint packs several values in one element)
 * set `extra-params` to 0; the caller says so.
 *
 * Which tensors the shape does not explain: each of `ck->groups` gets its `unexplained`
 * share. The shape's count is handed out in order: first to groups without "#" whose count
 * equals one of the shape's embedding, position embedding, output layer, final norm or head
 * (each matched once), then to the groups with "#" (layer stacks), the largest first, then
 * to the rest, the largest first; what a group gets beyond that count is unexplained. The
 * job keeps the unexplained groups' names for its report (the result's `extra_tensors`)
 * while its `extra-params` stays what this call set. On failure the job is unchanged.
 *
 * @param[in,out] job The job whose model the checkpoint holds (set first: a preset, a
 *                    config.json).
 * @param[in,out] ck  A checkpoint ::trainsize_checkpoint_read filled.
 * @param[out]    err Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_INVALID (the job has no valid model: "model"),
 *         ::TRAINSIZE_E_OVERFLOW or ::TRAINSIZE_E_ARGUMENT (NULL job or ck).
 */
TRAINSIZE_API int trainsize_job_set_checkpoint(trainsize_job *job, trainsize_checkpoint *ck,
                                               trainsize_error *err);

/**
 * @brief Load a model from a checkpoint folder: its config.json, counted by its headers.
 *
 * `dir` holds `config.json` and the safetensors (a Hugging Face snapshot:
 * ::trainsize_hf_snapshot finds one in the cache). Reads the headers
 * (::trainsize_checkpoint_read), loads the shape (::trainsize_job_load_hf_config_file),
 * names the model `name` when given, and lets the headers win
 * (::trainsize_job_set_checkpoint). On failure the job is unchanged.
 *
 * @param[in,out] job  The job whose model is replaced.
 * @param[in]     dir  The checkpoint folder (NUL-terminated).
 * @param[in]     name The model's name (its Hub id); NULL or "" keeps the config's naming.
 * @param[out]    ck   What the headers hold, and how they compare (zeroed on failure).
 * @param[out]    err  Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK, or an error of the three calls it makes (::TRAINSIZE_E_NOMEM when
 *         the job cannot be copied for the trial).
 */
TRAINSIZE_API int trainsize_job_load_checkpoint(trainsize_job *job, const char *dir, const char *name,
                                                trainsize_checkpoint *ck, trainsize_error *err);

/**
 * @brief The Hugging Face hub cache folder, as `huggingface_hub` finds it.
 *
 * `$HF_HUB_CACHE`, else `$HUGGINGFACE_HUB_CACHE` (its older name), else `$HF_HOME/hub`,
 * else `$XDG_CACHE_HOME/huggingface/hub`, else `$HOME/.cache/huggingface/hub`. Reads the
 * environment (getenv): do not call it while another thread changes the environment.
 *
 * @param[out] buf Receives the folder (NUL-terminated, truncated to cap - 1 bytes).
 * @param[in]  cap Size of buf in bytes.
 * @return The folder's length (>= cap: truncated, snprintf-style), or a negative
 *         ::TRAINSIZE_E_UNKNOWN when none of the variables is set.
 */
TRAINSIZE_API int trainsize_hf_hub_cache(char *buf, size_t cap);

/**
 * @brief The snapshot folder of a model in a Hugging Face hub cache.
 *
 * `hub_cache/models--ORG--NAME/snapshots/COMMIT`, where COMMIT is `revision` when it is a
 * 40-hex commit id, else what `hub_cache/models--ORG--NAME/refs/REVISION` names ("main"
 * when `revision` is NULL or empty). `id` is `ORG/NAME` or `NAME`: letters, digits, `-`,
 * `_` and `.`, at most 96 bytes each part, no `..`. The folder must exist.
 *
 * @param[in]  hub_cache The cache (::trainsize_hf_hub_cache gives the usual one).
 * @param[in]  id        The model's Hub id.
 * @param[in]  revision  A branch, tag or commit id; NULL or "" for "main".
 * @param[out] buf       Receives the snapshot folder (NUL-terminated).
 * @param[in]  cap       Size of buf in bytes.
 * @param[out] err       Details on failure, naming the id and the folder searched; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_UNKNOWN (the id or revision is not in the cache),
 *         ::TRAINSIZE_E_INVALID (a malformed id or revision, a ref that names no commit),
 *         ::TRAINSIZE_E_LIMIT (the path does not fit in cap) or ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_hf_snapshot(const char *hub_cache, const char *id, const char *revision,
                                        char *buf, size_t cap, trainsize_error *err);

/** @} */

/** @name What a server can train
 * The largest catalogue model each way of training fits on a given set of GPUs.
 * @{ */

/** Ways of training ::trainsize_capacity sizes, one entry each, in this order: pretraining,
 *  full fine-tuning, LoRA, QLoRA, DPO, GRPO. */
#define TRAINSIZE_CAPACITY_METHODS 6

/** The largest model one way of training fits. Caller-owned plain data. */
typedef struct trainsize_capacity_entry {
    char method[24];                /**< "pretraining", "full-fine-tuning", "lora", "qlora", "dpo", "grpo". */
    char model[64];                 /**< The catalogue preset; "" when none fits. */
    uint64_t parameters;            /**< Its parameters (0 when none fits). */
    double tokens_per_s;            /**< Tokens the job trains per second, all GPUs together. */
    uint64_t peak_total;            /**< Its peak per GPU (memory.peak_total), bytes. */
    char args[384];                 /**< The `trainsize estimate` options that reproduce it:
                                         the hardware and job given, and the layout and
                                         settings that make it fit. */
} trainsize_capacity_entry;

/**
 * @brief The largest catalogue model each way of training fits on these GPUs.
 *
 * For each of the ::TRAINSIZE_CAPACITY_METHODS ways (pretraining and full fine-tuning:
 * every weight trained; LoRA: rank 16; QLoRA: rank 16 on an nf4 base; DPO and GRPO: the
 * post-training methods at their defaults, every weight trained, else with LoRA rank 16
 * when no model fits so), the catalogue's decoder language models (dense
 * and MoE; not encoders, image or vision-language models) are tried from the largest down,
 * each with a ladder of settings that save memory: ZeRO-3 over the GPUs (none on one GPU),
 * then full recomputation, then tensor parallelism of 2, 4 and 8 within a server, then
 * (not for pretraining, which would not run at that speed) the optimizer state, then the
 * parameters too, offloaded to the CPU. A rung fits when the whole peak per GPU
 * (memory.peak_total, the allocator's reserve included) is within the GPU and the job's
 * host RAM per server (system.host_ram_need_per_node) within the server's. The first
 * model with a rung that fits is the entry, at its first such rung: every larger model
 * fits at none. Reentrant.
 *
 * @param[in]  gpu           A catalogue GPU name.
 * @param[in]  gpus          GPUs in all (1 or more).
 * @param[in]  gpus_per_node GPUs per server; 0 = the product's own (as the "gpus-per-node"
 *                           option).
 * @param[in]  seq           Tokens per sample (1 or more).
 * @param[in]  micro_batch   Samples per GPU per pass (1 or more).
 * @param[in]  host_ram      The server's host RAM, bytes; 0 = the product's as catalogued,
 *                           else twice the server's GPU memory (the sizing floor).
 * @param[out] out           ::TRAINSIZE_CAPACITY_METHODS entries.
 * @param[out] err           Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_UNKNOWN (the GPU), ::TRAINSIZE_E_INVALID (a count
 *         out of its option's range, naming it), ::TRAINSIZE_E_NOMEM,
 *         ::TRAINSIZE_E_ARGUMENT (NULL gpu or out).
 */
TRAINSIZE_API int trainsize_capacity(const char *gpu, uint64_t gpus, uint64_t gpus_per_node, uint64_t seq,
                                     uint64_t micro_batch, uint64_t host_ram, trainsize_capacity_entry *out,
                                     trainsize_error *err);

/**
 * @brief ::trainsize_capacity's answer as JSON: the object `trainsize capacity --json` prints.
 *
 * `{"gpu", "gpus", "seq", "micro_batch", "methods": [{"method", "model" (null when none
 * fits), "parameters", "tokens_per_s", "peak_total", "args"}, ...]}`. No heap allocation.
 *
 * @param[in]  gpu         The GPU asked for.
 * @param[in]  gpus        GPUs in all.
 * @param[in]  seq         Tokens per sample.
 * @param[in]  micro_batch Samples per GPU per pass.
 * @param[in]  entries     ::TRAINSIZE_CAPACITY_METHODS entries ::trainsize_capacity wrote.
 * @param[out] buf         Caller buffer for the NUL-terminated text; may be NULL when cap is 0.
 * @param[in]  cap         Capacity of `buf` in bytes.
 * @param[out] err         Details on failure; may be NULL.
 * @return The text's length without the NUL (>= cap: truncated), or a negative
 *         ::trainsize_status (::TRAINSIZE_E_ARGUMENT, ::TRAINSIZE_E_LIMIT).
 */
TRAINSIZE_API int trainsize_capacity_json(const char *gpu, uint64_t gpus, uint64_t seq, uint64_t micro_batch,
                                          const trainsize_capacity_entry *entries, char *buf, size_t cap,
                                          trainsize_error *err);

/** @} */

/** @name Parameter catalogue
 * What can be set on a job, for help texts, bindings and form builders.
 * @{ */

/** The kind of value a parameter takes. */
typedef enum trainsize_param_kind {
    TRAINSIZE_PARAM_INT = 0,    /**< A non-negative integer within [min, max]. */
    TRAINSIZE_PARAM_FLOAT = 1,  /**< A finite number within [min, max]. */
    TRAINSIZE_PARAM_BOOL = 2,   /**< true / false. */
    TRAINSIZE_PARAM_CHOICE = 3, /**< One of the names in `choices`. */
    TRAINSIZE_PARAM_NAME = 4,   /**< A catalogue name (model preset, GPU). */
    TRAINSIZE_PARAM_LIST = 5    /**< A comma-separated subset of `choices`. */
} trainsize_param_kind;

/** Description of one settable parameter. Library-owned, static storage. */
typedef struct trainsize_param_info {
    const char *name;          /**< Name as for ::trainsize_job_set (the CLI option). */
    trainsize_param_kind kind; /**< The kind of value. */
    const char *choices;       /**< For CHOICE and LIST: the names, separated by '|'; else NULL. */
    double min;                /**< Smallest accepted value (INT, FLOAT). */
    double max;                /**< Largest accepted value (INT, FLOAT). */
    const char *default_text;  /**< The default, as text ("" when it depends on others). */
    const char *unit;          /**< Unit, e.g. "bytes", "tokens", "fraction"; "" if none. */
    const char *doc;           /**< One-line description, with the source of the default. */
} trainsize_param_info;

/**
 * @brief Number of parameters in the catalogue.
 * @return The count; indices 0..count-1 are valid for ::trainsize_param_at.
 */
TRAINSIZE_API size_t trainsize_param_count(void);

/**
 * @brief One parameter's description.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_param_info *trainsize_param_at(size_t index);

/**
 * @brief The typed id of a parameter name.
 * @param name Parameter name, e.g. "micro-batch" (NUL-terminated; NULL gives -1).
 * @return A ::trainsize_param_id value, or -1 when no parameter has that name.
 */
TRAINSIZE_API int trainsize_param_find(const char *name);

/**
 * @brief A parameter's description by its typed id.
 * @param id A ::trainsize_param_id value.
 * @return A pointer to static, library-owned data, or NULL when no parameter has that id.
 */
TRAINSIZE_API const trainsize_param_info *trainsize_param_by_id(int id);

/**
 * @brief Whether the planner takes a parameter from the caller.
 *
 * trainsize_plan() chooses the GPU count and the layout itself and ignores the job's
 * values of those parameters; a front end (the command's `plan`, the bindings' `plan`)
 * refuses them with this reason rather than ignore them silently.
 * @param id A ::trainsize_param_id value.
 * @return NULL when the planner takes the parameter as given; else the reason it does not
 *         (static, library-owned text).
 */
TRAINSIZE_API const char *trainsize_param_plan_refusal(int id);

/**
 * @brief Set an integer parameter (kind ::TRAINSIZE_PARAM_INT) by id, without text.
 *
 * Validated as trainsize_job_set() validates the same value given as text (its range; the
 * model's name and the sequence default follow as they do there), except the refusal of a
 * size under 1 MiB written without a unit, which guards text only.
 * @param[in,out] job   The job; unchanged on failure.
 * @param[in]     id    The parameter, e.g. ::TRAINSIZE_ID_MICRO_BATCH.
 * @param[in]     value The value, in the parameter's unit (bytes, tokens, ...).
 * @param[out]    err   Details on failure (the parameter named); may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_INVALID (out of range), ::TRAINSIZE_E_UNKNOWN (no
 *         such id) or ::TRAINSIZE_E_ARGUMENT (NULL job, or the parameter is of another kind).
 */
TRAINSIZE_API int trainsize_job_set_u64(trainsize_job *job, trainsize_param_id id, uint64_t value,
                                        trainsize_error *err);

/**
 * @brief Set a real-valued parameter (kind ::TRAINSIZE_PARAM_FLOAT) by id, without text.
 * @param[in,out] job   The job; unchanged on failure.
 * @param[in]     id    The parameter, e.g. ::TRAINSIZE_ID_HFU.
 * @param[in]     value The value, in the parameter's unit; NaN and infinities are refused.
 * @param[out]    err   Details on failure; may be NULL.
 * @return As trainsize_job_set_u64().
 */
TRAINSIZE_API int trainsize_job_set_f64(trainsize_job *job, trainsize_param_id id, double value,
                                        trainsize_error *err);

/**
 * @brief Set a boolean parameter (kind ::TRAINSIZE_PARAM_BOOL) by id.
 * @param[in,out] job   The job; unchanged on failure.
 * @param[in]     id    The parameter, e.g. ::TRAINSIZE_ID_SP.
 * @param[in]     value 0 or 1; anything else is refused.
 * @param[out]    err   Details on failure; may be NULL.
 * @return As trainsize_job_set_u64().
 */
TRAINSIZE_API int trainsize_job_set_bool(trainsize_job *job, trainsize_param_id id, int value,
                                         trainsize_error *err);

/**
 * @brief Set a choice parameter (kind ::TRAINSIZE_PARAM_CHOICE) by id and index.
 * @param[in,out] job   The job; unchanged on failure.
 * @param[in]     id    The parameter, e.g. ::TRAINSIZE_ID_RECOMPUTE.
 * @param[in]     index The choice's 0-based position in the parameter's `choices` list
 *                      (for "recompute", a ::trainsize_recompute value).
 * @param[out]    err   Details on failure; may be NULL.
 * @return As trainsize_job_set_u64().
 */
TRAINSIZE_API int trainsize_job_set_choice(trainsize_job *job, trainsize_param_id id, int index,
                                           trainsize_error *err);

/** @} */

/** @name Choices
 *  The values of the choice parameters, in the order of their `choices` lists, for
 *  trainsize_job_set_choice(). Choice parameters not listed here (e.g. "grad-sync") are set
 *  by their name, or by their position in the `choices` list of trainsize_param_by_id().
 *  @{ */

/** "precision": number formats of weights and compute. */
typedef enum trainsize_precision {
    TRAINSIZE_PRECISION_FP32 = 0,       /**< fp32 everywhere. */
    TRAINSIZE_PRECISION_BF16_MIXED = 1, /**< bf16 compute, fp32 master weights. */
    TRAINSIZE_PRECISION_FP16_MIXED = 2, /**< fp16 compute, fp32 master weights, loss scaling. */
    TRAINSIZE_PRECISION_BF16 = 3,       /**< bf16 weights and compute, no fp32 copy. */
    TRAINSIZE_PRECISION_FP16 = 4,       /**< fp16 weights and compute, no fp32 copy. */
    TRAINSIZE_PRECISION_FP8_MIXED = 5,  /**< fp8 linear layers (Transformer Engine), bf16 else. */
    TRAINSIZE_PRECISION_TF32 = 6        /**< fp32 weights, activations and optimizer state, the
                                             matmuls and convolutions on the TF32 tensor cores
                                             (Ampere and later; refused where the GPU has none). */
} trainsize_precision;

/** "optimizer". */
typedef enum trainsize_optimizer {
    TRAINSIZE_OPTIMIZER_ADAMW = 0,        /**< AdamW: two fp32 moments. */
    TRAINSIZE_OPTIMIZER_ADAM = 1,         /**< Adam: two fp32 moments. */
    TRAINSIZE_OPTIMIZER_SGD = 2,          /**< SGD without momentum: no state. */
    TRAINSIZE_OPTIMIZER_SGD_MOMENTUM = 3, /**< SGD with momentum: one fp32 buffer. */
    TRAINSIZE_OPTIMIZER_ADAFACTOR = 4,    /**< Adafactor: factored second moment. */
    TRAINSIZE_OPTIMIZER_ADAMW_8BIT = 5,   /**< bitsandbytes 8-bit AdamW. */
    TRAINSIZE_OPTIMIZER_LION = 6          /**< Lion: one moment. */
} trainsize_optimizer;

/** "framework": whose conventions an estimate uses. */
typedef enum trainsize_framework {
    TRAINSIZE_FRAMEWORK_MEGATRON = 0,  /**< Megatron-LM / NeMo. */
    TRAINSIZE_FRAMEWORK_DEEPSPEED = 1, /**< DeepSpeed. */
    TRAINSIZE_FRAMEWORK_PYTORCH = 2,   /**< PyTorch, FSDP, Hugging Face Trainer, PEFT. */
    TRAINSIZE_FRAMEWORK_AUTO = 3       /**< Inferred from the job (the result says which). */
} trainsize_framework;

/** "attention": the attention kernel. */
typedef enum trainsize_attention {
    TRAINSIZE_ATTENTION_FLASH = 0, /**< FlashAttention / fused SDPA: no score matrix kept. */
    TRAINSIZE_ATTENTION_EAGER = 1  /**< Eager attention: scores and probabilities kept. */
} trainsize_attention;

/** "offload": what ZeRO-Offload keeps in host memory. */
typedef enum trainsize_offload {
    TRAINSIZE_OFFLOAD_NONE = 0,            /**< Nothing. */
    TRAINSIZE_OFFLOAD_OPTIMIZER = 1,       /**< Optimizer state (and its step) on the CPU. */
    TRAINSIZE_OFFLOAD_OPTIMIZER_PARAMS = 2 /**< Optimizer state and parameters (ZeRO-3). */
} trainsize_offload;

/** "quantize-base": the frozen base weights of QLoRA-style fine-tuning. */
typedef enum trainsize_quantize {
    TRAINSIZE_QUANTIZE_NONE = 0, /**< Not quantized. */
    TRAINSIZE_QUANTIZE_NF4 = 1,  /**< 4-bit NormalFloat (bitsandbytes). */
    TRAINSIZE_QUANTIZE_INT8 = 2  /**< 8-bit (bitsandbytes LLM.int8). */
} trainsize_quantize;

/** "kbit-upcast", "quant-state-replicated", "embedding-state-fp32": settings whose default
 *  follows the framework. */
typedef enum trainsize_tristate {
    TRAINSIZE_TRISTATE_AUTO = 0, /**< As the framework does. */
    TRAINSIZE_TRISTATE_YES = 1,  /**< On. */
    TRAINSIZE_TRISTATE_NO = 2    /**< Off. */
} trainsize_tristate;

/** "objective": what ranks the planner's candidates. */
typedef enum trainsize_objective {
    TRAINSIZE_OBJECTIVE_COST = 0,  /**< Cloud cost, then time. */
    TRAINSIZE_OBJECTIVE_TIME = 1,  /**< Time, then cost. */
    TRAINSIZE_OBJECTIVE_OWNED = 2  /**< Owning cost, then time. */
} trainsize_objective;

/** "norm": the model's normalisation. */
typedef enum trainsize_norm {
    TRAINSIZE_NORM_LAYERNORM = 0, /**< LayerNorm: weight and bias. */
    TRAINSIZE_NORM_RMSNORM = 1    /**< RMSNorm: weight. */
} trainsize_norm;

/** "bias": the model's linear-layer biases. */
typedef enum trainsize_bias {
    TRAINSIZE_BIAS_NONE = 0, /**< None (Llama). */
    TRAINSIZE_BIAS_QKV = 1,  /**< On q, k and v only (Qwen2). */
    TRAINSIZE_BIAS_ALL = 2,  /**< On every linear layer (GPT-2). */
    TRAINSIZE_BIAS_ATTENTION = 3 /**< On q, k, v and o, not the MLP (Phi-3.5-MoE). */
} trainsize_bias;

/** "qk-norm": norms on queries and keys. */
typedef enum trainsize_qk_norm {
    TRAINSIZE_QK_NORM_NONE = 0, /**< None. */
    TRAINSIZE_QK_NORM_HEAD = 1, /**< Per head, one weight vector of head_dim (Qwen3, Gemma 3). */
    TRAINSIZE_QK_NORM_FULL = 2  /**< Over the whole q and k projections (OLMo 2). */
} trainsize_qk_norm;

/** @} */

/** @name Catalogues of models and GPUs
 * @{ */

/** Description of one built-in model preset. Library-owned, static storage. */
typedef struct trainsize_model_info {
    const char *name;        /**< Preset name, as for the "model" parameter. */
    const char *family;      /**< Architecture family, e.g. "llama", "gpt2", "mixtral". */
    uint64_t parameters;     /**< Total parameters (exact). */
    uint64_t active_parameters; /**< Parameters used per token (differs for MoE). */
    const char *source;      /**< Where the shape comes from (the config it mirrors). */
} trainsize_model_info;

/**
 * @brief Number of built-in model presets.
 * @return The count.
 */
TRAINSIZE_API size_t trainsize_model_count(void);

/**
 * @brief One built-in model preset.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_model_info *trainsize_model_at(size_t index);

/** Description of one catalogue GPU or accelerator. Library-owned, static storage. */
typedef struct trainsize_gpu_info {
    const char *name;           /**< Catalogue name, e.g. "a100-80gb" (also the short form). */
    const char *full_name;      /**< Vendor name, e.g. "NVIDIA A100 80GB SXM4". */
    uint64_t memory_bytes;      /**< Device memory as labelled (the vendor's "GB" x 2^30), bytes. */
    uint64_t memory_bandwidth;  /**< Memory bandwidth, bytes per second. */
    double flops_fp32;          /**< Dense FP32 peak, FLOP/s. */
    double flops_bf16;          /**< Dense BF16 tensor peak (FP32 accumulate), FLOP/s; 0 on
                                     a part without bf16 (then `flops_fp16` is set). */
    double flops_fp8;           /**< Dense FP8 tensor peak, FLOP/s; 0 when unsupported. */
    double tdp_watts;           /**< Board power limit (TDP/TGP), watts. */
    int ecc;                    /**< 1 when the memory has ECC on by default. */
    int data_center;            /**< 1 for a data-centre part, 0 for a consumer card. */
    uint64_t scale_up_bandwidth;/**< GPU-to-GPU link, bidirectional total per GPU, bytes/s
                                     (NVLink, Infinity Fabric); 0 when PCIe only. */
    int pcie_generation;        /**< Host PCIe generation. */
    const char *source;         /**< The datasheet the figures come from. */
    double cloud_usd_per_hour;  /**< A dated on-demand cloud price per GPU-hour, US dollars;
                                     0 when the catalogue has none (see `price_source`). */
    double purchase_usd;        /**< A street price per GPU, US dollars; 0 when unknown. */
    const char *price_source;   /**< Where and when the prices were seen, or ("unpriced: ...")
                                     why there is none; "" for a caller's own GPU. */
    uint64_t usable_bytes;      /**< Device memory as the CUDA/ROCm runtime reports its total
                                     (PyTorch's `total_memory`), bytes: 1-3 % under the label,
                                     the rest kept by the driver. Fit checks use it; 0 when
                                     unknown, and then `memory_bytes` is used. */
    int no_bf16;                /**< 1 when the tensor cores take no bfloat16 (V100:
                                     `flops_bf16` is then 0 and `flops_fp16` its rate); bf16
                                     jobs are estimated as fp16 with ::TRAINSIZE_WARN_NO_BF16.
                                     0: bf16 works. */
    int no_flash_attention;     /**< 1 when no FlashAttention-2 kernel runs on it (before
                                     Ampere); `attention flash` then warns
                                     (::TRAINSIZE_WARN_NO_FLASH_ATTENTION). 0: it runs. */
    const char *architecture;   /**< e.g. "Hopper", "CDNA 3"; "" when unknown. */
    /* Appended in ABI 2 (before its first release): the 2026 catalogue and TPUs. */
    const char *vendor;         /**< "NVIDIA", "AMD", "Intel", "Google"; "" when unknown. */
    int kind;                   /**< A ::trainsize_accelerator_kind: GPU-class (CUDA, ROCm,
                                     Gaudi's PyTorch bridge) or TPU (XLA). */
    int no_fp16;                /**< 1 when the matrix units take no IEEE fp16 (TPUs): fp16
                                     precisions are refused. 0: fp16 works. */
    double flops_fp16;          /**< Dense FP16 tensor peak (FP32 accumulate), FLOP/s; 0: the
                                     same as `flops_bf16` (the usual case), or none when
                                     `no_fp16`. */
    double flops_fp4;           /**< Dense FP4 tensor peak, FLOP/s; 0 when the part has none
                                     (a catalogue figure: no precision trains in FP4 here). */
    uint64_t scale_up_domain;   /**< Accelerators one scale-up fabric joins: 72 in an NVL72
                                     rack, a TPU pod's ICI slice (collectives within it run
                                     at the GPU link's rate across servers); 2 (4 for H200
                                     NVL) on NVLink-bridged PCIe cards, whose groups wider
                                     than the bridge in a server run over PCIe; 0: one
                                     server's (an HGX board's NVSwitch, or PCIe). */
    int per_host;               /**< Accelerators per host as the product is built (a GB200
                                     tray 4, a TPU v5p host 4); 0: any count up to 8. The
                                     default `gpus-per-node`. */
    uint64_t host_ram_bytes;    /**< The host RAM the product comes with per host (a TPU
                                     VM, a Grace tray), bytes; 0 when the buyer sizes the
                                     server. With `per_host` accelerators per server the
                                     estimate reports this RAM, not the host-ram-factor rule,
                                     and warns when the job needs more. */
    int host_cores;             /**< The host's cores (vCPUs) as published; 0 as above. */
    const char *price_date;     /**< When the prices were seen ("2026-11"); "" for none. */
    const char *host_network;   /**< The scale-out link catalogue name of the NICs the host
                                     is sold with (a TPU VM's data-centre network: "eth-200g");
                                     "" or NULL when the buyer chooses. With `per_host` devices
                                     per server and no `network` set, traffic that leaves the
                                     scale-up domain runs on it. */
    int host_nics;              /**< How many of those NICs a host has; 0 when none. */
    double flops_tf32;          /**< Dense TF32 tensor peak (FP32 accumulate), FLOP/s: the rate
                                     of fp32 matmuls and convolutions that run in TF32
                                     (precision tf32, or tf32 auto/yes under fp32); 0 when the
                                     part has none (Volta, TPUs) or the vendor publishes none. */
} trainsize_gpu_info;

/** What kind of accelerator a ::trainsize_gpu_info describes (fixed values). */
typedef enum trainsize_accelerator_kind {
    TRAINSIZE_ACCELERATOR_GPU = 0, /**< A GPU-class device under CUDA, ROCm or Gaudi's
                                        PyTorch bridge: a caching allocator, NCCL-class
                                        collective buffers, a process context. */
    TRAINSIZE_ACCELERATOR_TPU = 1  /**< A Google TPU under XLA: memory planned at compile
                                        time (no caching-allocator slack, no CUDA context
                                        or NCCL buffers), ICI as the scale-up fabric. */
} trainsize_accelerator_kind;

/**
 * @brief Number of GPUs in the built-in catalogue.
 * @return The count.
 */
TRAINSIZE_API size_t trainsize_gpu_count(void);

/**
 * @brief One catalogue GPU.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_gpu_info *trainsize_gpu_at(size_t index);

/**
 * @brief Use a GPU of the caller's own description instead of a catalogue entry.
 *
 * The job keeps its own copy of `info` (its strings included, truncated to
 * ::TRAINSIZE_NAME_MAX bytes), so `info` need not outlive the call. Required: a non-empty
 * `name`, `memory_bytes` > 0, `flops_bf16` > 0 and `tdp_watts` > 0; the other figures may
 * be 0 (unknown: `flops_fp32` then falls back to `flops_bf16` / 8, no FP8, PCIe 4, no
 * NVLink, no prices).
 *
 * @param[in,out] job  The job.
 * @param[in]     info The description.
 * @param[out]    err  Details on failure (the offending field); may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_INVALID or ::TRAINSIZE_E_ARGUMENT; on failure the
 *         job is unchanged.
 */
TRAINSIZE_API int trainsize_job_set_gpu(trainsize_job *job, const trainsize_gpu_info *info,
                                        trainsize_error *err);

/**
 * @brief Use a GPU described by a JSON device file's text.
 *
 * An object with the keys of ::trainsize_gpu_info (`name`, `memory_bytes` or `memory_gib`,
 * `memory_bandwidth`, `flops_fp32`, `flops_bf16`, `flops_fp8`, `tdp_watts`, `ecc`,
 * `data_center`, `scale_up_bandwidth`, `pcie_generation`, `cloud_usd_per_hour`,
 * `purchase_usd`, `full_name`, `source`, `architecture`, and the booleans `bf16` and
 * `flash_attention`, true when absent); unknown keys are ignored; bounded like
 * ::trainsize_job_load_hf_config. Then as ::trainsize_job_set_gpu.
 *
 * @param[in,out] job  The job.
 * @param[in]     json The JSON text (need not be NUL-terminated).
 * @param[in]     len  Its length in bytes.
 * @param[out]    err  Details on failure (the offending key); may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_PARSE, ::TRAINSIZE_E_LIMIT, ::TRAINSIZE_E_INVALID or
 *         ::TRAINSIZE_E_ARGUMENT; on failure the job is unchanged.
 */
TRAINSIZE_API int trainsize_job_load_gpu_json(trainsize_job *job, const char *json, size_t len,
                                              trainsize_error *err);

/**
 * @brief Use a GPU described by a JSON device file (see ::trainsize_job_load_gpu_json).
 *
 * Only a regular file is read, bounded as ::trainsize_job_load_hf_config_file reads.
 *
 * @param[in,out] job  The job.
 * @param[in]     path File path (NUL-terminated).
 * @param[out]    err  Details on failure; may be NULL.
 * @return As ::trainsize_job_load_gpu_json, plus ::TRAINSIZE_E_IO when the file cannot be
 *         read.
 */
TRAINSIZE_API int trainsize_job_load_gpu_file(trainsize_job *job, const char *path,
                                              trainsize_error *err);

/**
 * @brief Apply a site calibration: the efficiency model's shares fitted to the site's own
 * runs by `trainsize calibrate`.
 *
 * The JSON object holds `"trainsize_calibration": 1`, the `library_version` it was fitted
 * with (refused unless its major.minor is this library's: the model's terms change between
 * versions), `runs` (how many), `gpus` (the GPUs they ran on), an optional `date`, and
 * `settings`: values for the parameters ::trainsize_calibration_setting_at lists, each
 * taken as ::trainsize_job_set takes it (so within the catalogue's range). `fit`, `per_run`
 * and `sources`, which the command writes for people, are accepted and not read; any other
 * key is refused. Settings set on the job afterwards win over the calibration's. The
 * result's `calibration` says it applied; a job on another GPU than those gets
 * ::TRAINSIZE_WARN_CALIBRATION_GPU. Bounded like ::trainsize_job_load_hf_config.
 *
 * @param[in,out] job  The job.
 * @param[in]     json The JSON text (need not be NUL-terminated).
 * @param[in]     len  Its length in bytes.
 * @param[out]    err  Details on failure (the key or setting, named "calibration: ...");
 *                     may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_PARSE, ::TRAINSIZE_E_LIMIT, ::TRAINSIZE_E_INVALID,
 *         ::TRAINSIZE_E_NOMEM or ::TRAINSIZE_E_ARGUMENT; on failure the job is unchanged.
 */
TRAINSIZE_API int trainsize_job_load_calibration_json(trainsize_job *job, const char *json, size_t len,
                                                      trainsize_error *err);

/**
 * @brief Apply a site calibration file (see ::trainsize_job_load_calibration_json).
 *
 * Only a regular file is read, bounded as ::trainsize_job_load_hf_config_file reads.
 *
 * @param[in,out] job  The job.
 * @param[in]     path File path (NUL-terminated).
 * @param[out]    err  Details on failure; may be NULL.
 * @return As ::trainsize_job_load_calibration_json, plus ::TRAINSIZE_E_IO when the file
 *         cannot be read; on failure the job is unchanged.
 */
TRAINSIZE_API int trainsize_job_load_calibration(trainsize_job *job, const char *path, trainsize_error *err);

/**
 * @brief Number of parameters a site calibration may set.
 * @return The count (indices 0..count-1 for ::trainsize_calibration_setting_at).
 */
TRAINSIZE_API size_t trainsize_calibration_setting_count(void);

/**
 * @brief The name of one parameter a calibration may set ("gemm-share", ...).
 * @param index 0-based index.
 * @return A static string, or NULL when index is out of range.
 */
TRAINSIZE_API const char *trainsize_calibration_setting_at(size_t index);

/**
 * @brief Find a catalogue GPU by name, ignoring ASCII case, '-', '_' and spaces.
 * @param name A name such as "a100-80gb", "H100-80GB" or "rtx-4090".
 * @return A pointer to static, library-owned data, or NULL when there is no such GPU.
 */
TRAINSIZE_API const trainsize_gpu_info *trainsize_gpu_find(const char *name);

/** Where a link sits: inside a server (GPU to GPU) or between servers. */
typedef enum trainsize_link_kind {
    TRAINSIZE_LINK_SCALE_UP = 0,  /**< GPU-to-GPU inside a node: PCIe, NVLink, Infinity Fabric. */
    TRAINSIZE_LINK_SCALE_OUT = 1  /**< Node-to-node: InfiniBand, Ethernet (per port). */
} trainsize_link_kind;

/** Description of one interconnect class. Library-owned, static storage. */
typedef struct trainsize_link_info {
    const char *name;           /**< Catalogue name, e.g. "nvlink4", "pcie5", "ib-ndr", "eth-100g". */
    const char *full_name;      /**< Human name, e.g. "InfiniBand NDR (400 Gb/s)". */
    int kind;                   /**< A ::trainsize_link_kind value. */
    uint64_t bandwidth;         /**< Peak per direction, bytes/s: per GPU for scale-up links,
                                     per port for scale-out links. */
    double achieved_share;      /**< Share of the peak that collectives reach (nccl-tests busbw). */
    const char *source;         /**< Where the figures come from. */
} trainsize_link_info;

/**
 * @brief Number of interconnect classes in the catalogue.
 * @return The count.
 */
TRAINSIZE_API size_t trainsize_link_count(void);

/**
 * @brief One interconnect class.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_link_info *trainsize_link_at(size_t index);

/**
 * @brief Find an interconnect class by name, ignoring ASCII case, '-', '_' and spaces.
 * @param name A name such as "ib-ndr" or "eth-100g".
 * @return A pointer to static, library-owned data, or NULL when there is no such link.
 */
TRAINSIZE_API const trainsize_link_info *trainsize_link_find(const char *name);

/** Description of one storage class (as one training node sees it). Library-owned. */
typedef struct trainsize_storage_info {
    const char *name;           /**< Catalogue name, e.g. "nvme-gen4", "nfs", "lustre". */
    const char *full_name;      /**< Human name. */
    uint64_t read_rate;         /**< Sustained sequential read for one client, bytes/s. */
    uint64_t write_rate;        /**< Sustained sequential write for one client, bytes/s. */
    int shared;                 /**< 1 for a network file system all nodes share. */
    const char *source;         /**< Where the figures come from. */
    uint64_t aggregate_read_rate;  /**< Shared classes: what one deployment serves to all
                                        clients together, bytes/s (an NFS class: one filer's
                                        line rate); 0 when it scales out with its servers
                                        (Lustre, Ceph) or for a local drive. */
    uint64_t aggregate_write_rate; /**< The same for writes, bytes/s. */
} trainsize_storage_info;

/**
 * @brief Number of storage classes in the catalogue.
 * @return The count.
 */
TRAINSIZE_API size_t trainsize_storage_count(void);

/**
 * @brief One storage class.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_storage_info *trainsize_storage_at(size_t index);

/**
 * @brief Find a storage class by name, ignoring ASCII case, '-', '_' and spaces.
 * @param name A name such as "nvme-gen4".
 * @return A pointer to static, library-owned data, or NULL when there is no such class.
 */
TRAINSIZE_API const trainsize_storage_info *trainsize_storage_find(const char *name);

/** @} */

/** @name Results
 * @{ */

/** @name Warnings: the checklist, as bits of trainsize_result::warnings.
 * @{ */
#define TRAINSIZE_WARN_DOES_NOT_FIT (UINT64_C(1) << 0)     /**< peak_total exceeds the GPU. */
#define TRAINSIZE_WARN_LOW_HEADROOM (UINT64_C(1) << 1)     /**< Fits, with less headroom than asked. */
#define TRAINSIZE_WARN_HOST_RAM (UINT64_C(1) << 2)         /**< The set host RAM is too small. */
#define TRAINSIZE_WARN_CPU_CORES (UINT64_C(1) << 3)        /**< The set core count is too small. */
#define TRAINSIZE_WARN_STORAGE (UINT64_C(1) << 4)          /**< Storage slower than the job needs. */
#define TRAINSIZE_WARN_NETWORK (UINT64_C(1) << 5)          /**< Network slower than the job needs. */
#define TRAINSIZE_WARN_TP_WITHOUT_NVLINK (UINT64_C(1) << 6) /**< Tensor parallelism without NVLink. */
#define TRAINSIZE_WARN_SLOW_MULTINODE (UINT64_C(1) << 7)   /**< Several servers over 10 GbE or less. */
#define TRAINSIZE_WARN_NO_ECC (UINT64_C(1) << 8)           /**< Long run on GPUs without ECC. */
#define TRAINSIZE_WARN_RACK_POWER (UINT64_C(1) << 9)       /**< A rack beyond air cooling
                                                               (system.cooling "liquid"). */
#define TRAINSIZE_WARN_NO_PRICE (UINT64_C(1) << 10)        /**< A price is missing: that cost is 0. */
#define TRAINSIZE_WARN_GPU_LINK (UINT64_C(1) << 11)        /**< GPU-to-GPU link slower than needed. */
#define TRAINSIZE_WARN_NO_BF16 (UINT64_C(1) << 12)         /**< bf16 asked of a GPU without it: estimated as fp16. */
#define TRAINSIZE_WARN_NO_FLASH_ATTENTION (UINT64_C(1) << 13) /**< FlashAttention asked of a GPU without it. */
#define TRAINSIZE_WARN_HOST_RAM_RULE (UINT64_C(1) << 14)   /**< The set host RAM meets the job's need
                                                               but not host-ram-factor x GPU memory. */
#define TRAINSIZE_WARN_NO_POWER (UINT64_C(1) << 15)        /**< The accelerator's power is not published
                                                               (TPUs): power, energy and CO2 are 0. */
#define TRAINSIZE_WARN_SMALL_BATCH (UINT64_C(1) << 16)    /**< The global batch is so small that
                                                              the data-parallel gradient sync
                                                              exposed takes longer than the
                                                              step's compute. */
#define TRAINSIZE_WARN_STORAGE_NOT_SHARED (UINT64_C(1) << 17) /**< Several servers on a storage
                                                              class that is not shared (a
                                                              local drive). */
#define TRAINSIZE_WARN_CALIBRATION_GPU (UINT64_C(1) << 18) /**< The job's GPU is not one the site
                                                              calibration applied was fitted on. */
/** @} */

/**
 * @brief The stable name of one warning bit, as the JSON prints it ("low-vram-headroom").
 * @param bit One TRAINSIZE_WARN_* value.
 * @return A static string, or NULL for a value that is not one warning bit.
 */
TRAINSIZE_API const char *trainsize_warning_name(uint64_t bit);

/**
 * @brief A one-sentence explanation of one warning bit.
 * @param bit One TRAINSIZE_WARN_* value.
 * @return A static string, or NULL for a value that is not one warning bit.
 */
TRAINSIZE_API const char *trainsize_warning_text(uint64_t bit);

/** Capacity of the name strings in ::trainsize_result, including the NUL. */
#define TRAINSIZE_NAME_MAX 96

/** The phase of a training step at which the per-GPU peak happens. */
typedef enum trainsize_phase {
    TRAINSIZE_PHASE_FORWARD_BACKWARD = 0, /**< At the start of the backward pass. */
    TRAINSIZE_PHASE_BACKWARD_END = 1,     /**< At the end of the backward pass (all gradients). */
    TRAINSIZE_PHASE_OPTIMIZER_STEP = 2,   /**< During the optimizer step. */
    TRAINSIZE_PHASE_LOADING = 3,          /**< While the weights are loaded onto the GPU,
                                               before sharding or casting (loading gpu). */
    TRAINSIZE_PHASE_ROLLOUT = 4,          /**< While an RL method's engine generates the
                                               responses, beside the model state (grpo,
                                               ppo). */
    TRAINSIZE_PHASE_LOG_PROB = 5          /**< While the old policy's and the reference's
                                               log-probabilities are computed, forward only,
                                               over log-prob-max-tokens-per-gpu tokens a GPU
                                               (grpo, ppo). */
} trainsize_phase;

/** The model as counted. */
typedef struct trainsize_model_counts {
    char name[TRAINSIZE_NAME_MAX];   /**< Preset name, config name, or "custom". */
    uint64_t parameters;             /**< Total parameters. */
    uint64_t trainable_parameters;   /**< Parameters the optimizer updates (LoRA: adapters). */
    uint64_t active_parameters;      /**< Parameters used per token (MoE: top-k experts). */
    uint64_t embedding_parameters;   /**< Token (+ position) embeddings and untied output layer;
                                          an encoder's segment embeddings and embedding norm,
                                          an image transformer's patch projection and class
                                          token. */
    uint64_t layer_parameters;       /**< One transformer layer. */
    uint64_t mtp_parameters;         /**< Multi-token-prediction modules trained with the model
                                          ("mtp-layers"; DeepSeek-V3's), not in `parameters`;
                                          0 without them. */
    uint64_t vision_parameters;      /**< Of `parameters`: a multimodal model's vision tower
                                          (run per image, so not in `active_parameters`); 0
                                          without one. */
    uint64_t projector_parameters;   /**< Of `parameters`: its projector, trained with the
                                          model; 0 without one. */
} trainsize_model_counts;

/** Per-GPU memory, for the most loaded GPU. Bytes unless stated. */
typedef struct trainsize_memory {
    uint64_t weights;          /**< Model weights held on the GPU (16-bit copies, or fp32). */
    uint64_t gradients;        /**< Gradients held at the end of the backward pass. */
    uint64_t optimizer;        /**< Optimizer state, including the fp32 master copy. */
    uint64_t master_weights;   /**< The fp32 master copy (part of `optimizer`). */
    uint64_t activations;      /**< Bytes saved for backward by the in-flight micro-batches. */
    uint64_t activations_layers;    /**< ... of which: the transformer layers. */
    uint64_t activations_embedding; /**< ... of which: the embeddings. */
    uint64_t activations_output;    /**< ... of which: final norm, output layer and loss. */
    uint64_t activations_loss;      /**< ... of that: what the loss keeps of the logits. */
    uint64_t activations_per_layer; /**< One layer, one micro-batch (as stored). */
    double in_flight_microbatches;  /**< Micro-batches whose activations are held at once. */
    uint64_t transient;        /**< Temporary and communication buffers at the peak (loss
                                    backward, recomputation, ZeRO-3 gathers, optimizer
                                    temporaries, DDP's gradient buckets). peak_allocated =
                                    weights + optimizer + transient, plus gradients and
                                    activations when the peak_includes_ flags say so. */
    uint64_t peak_allocated;   /**< Comparable to torch.cuda.max_memory_allocated(). */
    uint64_t cuda_context;     /**< CUDA context and kernels (part of `overhead`). */
    uint64_t comm_buffers;     /**< Communication library buffers (part of `overhead`). */
    uint64_t allocator_slack;  /**< Reserved but unallocated (part of `overhead`). */
    uint64_t overhead;         /**< cuda_context + comm_buffers + allocator_slack. */
    uint64_t peak_total;       /**< peak_allocated + overhead: comparable to nvidia-smi. */
    uint64_t gpu_capacity;     /**< The GPU's memory. */
    uint64_t host_offload;     /**< Bytes per GPU kept in host memory by CPU offload: ZeRO-Offload's
                                    state and offloaded activations. */
    int fits;                  /**< 1 when peak_needed <= gpu_capacity. */
    int peak_phase;            /**< A ::trainsize_phase value. */
    int pipeline_stage;        /**< 0-based pipeline stage of the most loaded GPU. */
    int peak_includes_activations; /**< 1 when `activations` is part of `peak_allocated`. */
    int peak_includes_gradients;   /**< 1 when `gradients` is part of `peak_allocated`
                                        (frameworks that free them between steps allocate
                                        them during backward, after the activations' peak). */
    uint64_t loading_peak;     /**< Bytes on the GPU while the weights are loaded (with
                                    loading gpu: the whole model, or pipeline stage, in the
                                    load type before sharding; with a quantized base: the
                                    weights kept plus one matrix being quantized); 0 when an
                                    unquantized model loads through the host. */
    uint64_t peak_reserved;    /**< peak_allocated + allocator_slack: comparable to
                                    torch.cuda.max_memory_reserved(). */
    uint64_t activations_offloaded; /**< Of `host_offload`: the layers' activations kept in
                                    host memory ("activation-offload"); not in
                                    `activations`. 0 without activation offload. */
    uint64_t recomputed_layers; /**< Layers of the most loaded GPU's pipeline stage that the
                                    recomputation applies to ("recompute-layers"; the others
                                    keep all their activations); 0 with recompute none. */
    uint64_t max_micro_batch;   /**< The largest micro-batch that fits with everything else
                                    as given (a divisor of the global batch's share of a rank
                                    when global-batch is set): an estimate with it fits and one
                                    with the next larger does not; 0 when even 1 does not fit,
                                    or with largest-fit false. */
    uint64_t max_seq;           /**< The largest sequence, a multiple of 128 (and of what the
                                    layout needs: 2 x cp, tp x cp under sequence parallelism),
                                    that fits with everything else as given, tokens; 0 when
                                    even the smallest does not, or with largest-fit false. An
                                    image transformer's is its positions (the image fixes
                                    it) when the job fits, else 0. */
    uint64_t reference_weights; /**< Of `weights`: the frozen reference model of dpo, grpo or
                                    ppo on this GPU (reference model); 0 with adapters-off,
                                    precomputed, none, or another method. */
    uint64_t critic_state;      /**< Of `weights`, `gradients` and `optimizer`: ppo's critic, a
                                    trainable model of the policy's shape; 0 otherwise. */
    uint64_t rollout_weights;   /**< grpo, ppo: the rollout engine's 16-bit weights on this GPU
                                    (over rollout-tp), held while it generates; with rollout
                                    separate, on an engine GPU (none on the training GPUs). */
    uint64_t rollout_kv_cache;  /**< grpo, ppo: the engine's KV cache, the rest of its
                                    rollout-memory-share; 0 when its weights take all of it. */
    uint64_t teacher_weights;   /**< Of `weights`: distill's frozen teacher on this GPU; 0
                                    otherwise. */
    uint64_t vision_weights;    /**< Of `weights`: a multimodal model's vision tower on this
                                    GPU (frozen with freeze-vision, else trained: its
                                    gradients and optimizer state are then in theirs); 0
                                    without one, or on a later pipeline stage. */
    uint64_t activations_vision; /**< Of `activations`: what a trained vision tower keeps
                                    for backward (its layers over the micro-batch's image
                                    patches); 0 when it is frozen or absent. */
    uint64_t peak_needed;       /**< What the job needs to run: peak_allocated, the share of it
                                    the caching allocator cannot reuse once memory runs short
                                    ("fragmentation"), the CUDA context and the communication
                                    buffers. `fits` compares it with gpu_capacity: under
                                    pressure the allocator hands its cached blocks back and
                                    retries before it runs out, so a job whose peak_total (the
                                    cache grown where memory is plentiful) is above the
                                    capacity can still run. */
} trainsize_memory;

/** The servers the job needs. */
typedef struct trainsize_system {
    uint64_t nodes;                      /**< Servers. */
    uint64_t gpus_per_node;              /**< GPUs in each server. */
    uint64_t host_ram_per_node;          /**< Host RAM per server, bytes (>= 2 x node GPU memory). */
    uint64_t cpu_cores_per_node;         /**< CPU cores per server. */
    uint64_t interconnect_rate_per_node; /**< Inter-node bandwidth the step needs, bytes/s; 0 on one node. */
    uint64_t storage_capacity;           /**< Dataset + checkpoints kept, bytes. */
    uint64_t storage_read_rate;          /**< Sustained read rate that keeps all the GPUs fed
                                              (the whole job), bytes/s. */
    double power_watts;                  /**< Whole job: GPUs and the rest of the servers, watts. */
    double power_per_node_watts;         /**< One server, watts. */
    double heat_btu_per_hour;            /**< Heat the whole job gives off, BTU per hour. */
    double energy_kwh;                   /**< Energy of the run at the facility (PUE included), kWh. */
    double co2_kg;                       /**< Emissions of that energy at the grid intensity, kg CO2e. */
    double cost_cloud_usd;               /**< Renting: GPU-hours x price per GPU-hour, US dollars
                                              (0 when no price is known). */
    double cost_own_usd;                 /**< Owning: the run's share of the purchase of the GPUs,
                                              the rest of their servers and the network over
                                              their life, support and power, US dollars (0 when
                                              no price is known): cost_own_hardware_usd +
                                              cost_own_power_usd. */
    uint64_t checkpoint_bytes;           /**< One checkpoint of the whole model, bytes. */
    uint64_t checkpoint_write_rate_total; /**< The whole job's write rate for a checkpoint in the
                                              target time (what a shared file system must take),
                                              bytes/s. */
    uint64_t checkpoint_write_rate;      /**< Write rate per server that saves a checkpoint in the
                                              target time, bytes/s. */
    uint64_t intra_node_rate_per_gpu;    /**< GPU-to-GPU bandwidth one GPU needs inside a server
                                              (tensor and data parallelism), bytes/s, per direction. */
    char storage_class[32];              /**< The storage the job reads and checkpoints to (or
                                              the one set): on one server the local NVMe of
                                              `local_storage_class` (a shared class when no NVMe
                                              keeps up); on several, the first shared
                                              class that meets the needs, in the order of what it
                                              serves (NFS filers by their aggregate rate, then
                                              file systems that scale out, Ceph and Lustre). */
    char network_link[32];               /**< The slowest scale-out link that meets the inter-node
                                              need with the server's NICs (or the one set); "" on
                                              one server. */
    double cost_own_hardware_usd;        /**< Of cost_own_usd: the GPUs, the rest of their servers
                                              (server-share) and, with several servers, the
                                              network (network-usd-per-gpu), amortised over
                                              amortization-years for the run, with support. */
    double cost_own_power_usd;           /**< Of cost_own_usd: the energy at power-usd-per-kwh. */
    uint64_t host_ram_need_per_node;     /**< Host RAM the job itself needs per server, bytes:
                                              the checkpoint shards its ranks load, offloaded state,
                                              data-loader workers and the system's share.
                                              host_ram_per_node is the larger of this and
                                              host-ram-factor x the server's GPU memory, in a
                                              size servers are sold with. */
    uint64_t network_nics_per_node;      /**< NICs per server of `network_link` (nics-per-node,
                                              the host's as sold, or one per GPU); 0 without a
                                              network. */
    char local_storage_class[32];        /**< The NVMe class every GPU server carries as its
                                              cache and scratch (data shards, checkpoints staged
                                              before the shared copy): the slowest NVMe that
                                              meets one server's read and checkpoint rates. On
                                              one server it is also `storage_class`. */
    /* Buying against renting (docs/methodology.md, "Buy or rent"). */
    double capex_usd;                    /**< The purchase, US dollars: capex_servers_usd +
                                              capex_network_usd + capex_storage_usd (0 when the
                                              GPU has no price). Not the building, its power and
                                              cooling plant: the facility is rented
                                              (colo-usd-per-kw-month). */
    double capex_servers_usd;            /**< Of capex_usd: the servers with their GPUs, CPUs,
                                              RAM, NICs and local NVMe, spare nodes included
                                              (GPUs x price x (1 + server-share); an NVL72 in
                                              whole racks). */
    double capex_network_usd;            /**< Of capex_usd: the scale-out fabric (NICs' share,
                                              switches, cables: network-usd-per-gpu), several
                                              servers only. */
    double capex_storage_usd;            /**< Of capex_usd: the shared file system at
                                              storage-usd-per-tb for storage_capacity, several
                                              servers only. */
    double cost_own_facility_usd;        /**< Of cost_own_usd: the facility's rent for the run's
                                              share of the year. */
    double cloud_usd_per_month;          /**< Renting the job's GPUs for the GPU-hours a month
                                              that owning them gives at `utilization`, US
                                              dollars. */
    double own_usd_per_month;            /**< Owning them, what runs on each month: facility,
                                              power at `utilization`, support; the purchase
                                              apart, US dollars. */
    double breakeven_months;             /**< Months after which the purchase has paid for
                                              itself against renting: capex_usd / (cloud -
                                              own per month); 0 when renting stays cheaper
                                              (or a price is missing). */
    uint64_t racks;                      /**< Racks for the servers, spare nodes included. */
    uint64_t servers_per_rack;           /**< Servers in one rack (servers-per-rack, or the
                                              most the power budget and 42 units take; 18
                                              trays in an NVL72). */
    double rack_power_watts;             /**< The fullest rack's power, watts (an NVL72 rack
                                              judged whole). */
    char cooling[8];                     /**< "air", or "liquid" when the product is liquid-
                                              cooled (NVL72) or a rack draws more than the
                                              air-cooled budget (rack-power-watts); "" when
                                              the accelerator's power is unknown (TPUs). */
    uint64_t psus_per_server;            /**< Power supplies in one server as the vendor ships
                                              it (for an NVL72, in the whole rack's power
                                              shelves); 0 when the GPU's power is unknown. */
    uint64_t psus_needed;                /**< Of those, how many carry the server's maximum
                                              power; the rest are redundancy. */
    double psu_watts;                    /**< One supply's rating, watts. */
    char psu_redundancy[16];             /**< psus_needed "+" the redundant ones, as vendors
                                              write it: "4+2" (DGX H100), "3+3" (N+N, DGX
                                              A100), "5+1" (N+1, DGX B200 and the library's
                                              rule for another server); "" with none. */
    uint64_t switches;                   /**< Scale-out switches of a non-blocking fat tree of
                                              64-port switches for the servers' NICs (1 tier:
                                              one switch; 2: leaf-spine; 3); 0 on one server or
                                              within one scale-up domain. */
    uint64_t switch_tiers;               /**< Tiers of that fat tree; 0 without one. */
    double checkpoint_write_seconds;     /**< One checkpoint written to `storage_class` at its
                                              rates, seconds (all servers together). */
    uint64_t dataset_bytes;              /**< The dataset as stored (dataset-bytes, or the
                                              run's tokens as 4-byte ids), bytes. */
    char dataset_source[16];             /**< Where training reads the dataset: "local" (one
                                              server's own drive), "local-cache" (several
                                              servers, each with a staged copy on its NVMe
                                              cache: the dataset fits local-cache-bytes, and
                                              the shared file system serves the staging and
                                              the checkpoints) or "shared" (streamed from
                                              the shared file system). */
    uint64_t rollout_nodes;              /**< rollout separate (grpo, ppo): servers the rollout
                                              engines take beside `nodes` (rollout-gpus of
                                              the job's GPU, gpus_per_node a server), counted
                                              in power, racks, purchase, GPU-hours and
                                              interruptions; 0 otherwise. */
} trainsize_system;

/** Compute and time. */
typedef struct trainsize_time {
    double flops;           /**< Operations the GPUs execute in the whole run (or one step),
                                 recomputation included. */
    double seconds;         /**< Seconds for it on a cluster that never fails (wall_seconds
                                 adds the interruptions, restarts and checkpoints). */
    double step_flops;      /**< Operations of one optimizer step (global batch). */
    double step_seconds;    /**< Seconds of one optimizer step. */
    double tokens;          /**< Tokens the run trains on, in whole steps (the "tokens" setting
                                 rounded up to global batches; one step when not set). */
    uint64_t steps;         /**< Optimizer steps. */
    double model_flops;     /**< Operations of the model itself, without recomputation (the
                                 numerator of MFU). */
    double gpu_hours;       /**< GPUs x wall_seconds, hours: what is rented, and what draws
                                 power. */
    double comm_seconds;    /**< Communication per step that does not overlap compute, seconds
                                 (included in step_seconds). */
    double offload_seconds; /**< CPU offload per step that does not overlap compute (the CPU
                                 optimizer step, PCIe transfers of state, parameters and
                                 offloaded activations), seconds (included in
                                 step_seconds); 0 without offload. */
    /* Goodput (docs/methodology.md, "Goodput"). */
    double wall_seconds;    /**< The run as a cluster that fails lives it: `seconds` with the
                                 checkpoints' stalls, the restarts and the work lost since the
                                 last checkpoint (Daly 2006's expected wall time). Cost,
                                 energy and GPU-hours follow it. */
    double goodput;         /**< seconds / wall_seconds: the share of the wall time that
                                 trains, in (0, 1]. */
    double expected_interruptions; /**< Interruptions the run sees: wall_seconds x GPUs x
                                 interruptions-per-gpu-day. */
    double checkpoint_interval; /**< Training seconds between checkpoints (the option, or
                                 Daly's optimum); 0 when none falls inside the run (the
                                 cluster never fails and none is set, or the run is shorter
                                 than the interval). */
    double checkpoint_stall; /**< Seconds each checkpoint stops training: the write
                                 (system.checkpoint_write_seconds), or with checkpoint-async
                                 the copy to host memory. */
    double rollout_seconds; /**< grpo, ppo: seconds of one step's generation before it trains,
                                 the weights handed to the engines and an engine's
                                 all-reduces across servers included (included in
                                 step_seconds; trainsize_result.rollout_sync_seconds and
                                 .rollout_network_seconds say how much); 0 otherwise. */
    double overhead_seconds; /**< Seconds a step spends outside the kernels and collectives
                                 timed (included in step_seconds): the kernel launches the GPU
                                 waits for and the step's synchronisation, or step-overhead as
                                 given. */
} trainsize_time;

/** Activation recomputation: the "recompute" parameter's choices, in their order. */
typedef enum trainsize_recompute {
    TRAINSIZE_RECOMPUTE_NONE = 0,      /**< Every activation kept for backward. */
    TRAINSIZE_RECOMPUTE_SELECTIVE = 1, /**< Attention's core recomputed (Korthikanti et al.
                                            2022, arXiv 2205.05198). */
    TRAINSIZE_RECOMPUTE_FULL = 2,      /**< Only each layer's input kept; layers recomputed. */
    TRAINSIZE_RECOMPUTE_PER_OP = 3     /**< Per-op selective checkpointing (torchtitan's
                                            default "selective"): the outputs of matmuls
                                            (every other one) and of the attention kernel
                                            kept, pointwise ops recomputed. */
} trainsize_recompute;

/** The parallel layout and batch an estimate used: the job's settings after defaults and
 *  inference (the global batch when the job leaves it 0, sequence parallelism only where
 *  tp > 1). Caller-owned plain data. */
typedef struct trainsize_layout {
    uint64_t tp;            /**< Tensor-parallel degree. */
    uint64_t pp;            /**< Pipeline-parallel degree. */
    uint64_t pp_interleave; /**< Virtual pipeline stages per rank; 1: not interleaved. */
    uint64_t cp;            /**< Context-parallel degree. */
    uint64_t ep;            /**< Expert-parallel degree. */
    uint64_t zero;          /**< ZeRO stage, 0-3 (FSDP FULL_SHARD is 3). */
    uint64_t micro_batch;   /**< Samples per GPU per forward and backward pass. */
    uint64_t global_batch;  /**< Samples per optimizer step, all data-parallel ranks. */
    int sp;                 /**< 1 when sequence parallelism applies. */
    int recompute;          /**< A ::trainsize_recompute value. */
} trainsize_layout;

/** How sure an estimate is: empirical bands from the library's own validation
 *  (docs/accuracy.md, "Uncertainty bands"): on the published runs of the job's class, each
 *  predicted by the fit left without its own source, the measured figure lay inside the
 *  band for at least 80 % of them (the interval of measured over estimated that leaves
 *  out at most a tenth of them on each side). The band widens where the job is outside what was validated (an
 *  architecture without measured runs, context parallelism, offload, post-training, MoE
 *  with many experts) and narrows to a site calibration's own held-out error where one was
 *  fitted on this GPU. */
typedef struct trainsize_uncertainty {
    double time_low;    /**< Factor on every time figure (seconds, step, wall time, and what
                             follows from them): the true figure is expected at least
                             figure x time_low; <= 1. */
    double time_high;   /**< ... and at most figure x time_high; >= 1. */
    double memory_low;  /**< Factor on every memory figure (memory.*, bytes): at least
                             figure x memory_low; <= 1. */
    double memory_high; /**< ... and at most figure x memory_high; >= 1. */
    char basis[2 * TRAINSIZE_NAME_MAX]; /**< Which validation set the bands and how many
                             runs it holds, and what widened or narrowed them:
                             "time: decoders on Megatron stacks, 107 runs; memory:
                             unsharded, 52 figures; widened: offload". */
} trainsize_uncertainty;

/** Everything an estimate returns. Caller-owned plain data. */
typedef struct trainsize_result {
    trainsize_model_counts model; /**< The model as counted. */
    trainsize_memory memory;      /**< Per-GPU memory. */
    trainsize_system system;      /**< Servers. */
    trainsize_time time;          /**< Compute and time. */
    char gpu[TRAINSIZE_NAME_MAX]; /**< Catalogue name of the GPU. */
    uint64_t gpus;                /**< GPUs in the job. */
    uint64_t data_parallel;       /**< Data-parallel degree: gpus / (tp * pp * cp). */
    uint64_t gradient_accumulation; /**< Micro-batches per optimizer step per data-parallel rank. */
    uint64_t warnings;            /**< The checklist: TRAINSIZE_WARN_* bits that apply. */
    char framework[16];           /**< Conventions the estimate used: "megatron", "deepspeed"
                                       or "pytorch" (the framework option, or inferred from
                                       the job when it is "auto"). */
    char framework_reason[TRAINSIZE_NAME_MAX]; /**< Why those conventions: the option, or
                                       the rule of the job that chose them. */
    uint64_t pipeline_first_layers; /**< Transformer layers of the first pipeline stage. */
    uint64_t pipeline_layers;       /**< Layers of each stage between the first and the last
                                         (all of them when the split is even). */
    uint64_t pipeline_last_layers;  /**< Layers of the last pipeline stage. */
    trainsize_layout layout;        /**< The layout and batch the estimate used. */
    char global_batch_reason[TRAINSIZE_NAME_MAX]; /**< Why layout.global_batch: "global-batch
                                         as set", or the default's rule (about 4M tokens per
                                         step for a pretraining run with tokens; micro-batch
                                         x data-parallel for fine-tuning or one step). */
    char stack[24];               /**< The training stack whose defaults the estimate used:
                                       "megatron-lm", "megatron-core", "nanotron",
                                       "torchtitan", "fsdp", "hf" or "deepspeed" (the stack
                                       option, or inferred from the framework and the job). */
    char stack_reason[TRAINSIZE_NAME_MAX]; /**< Why that stack: the option, or the rule. */
    char pp_schedule[16];         /**< The pipeline schedule used: "1f1b", "interleaved",
                                       "zb-h1", "zb-h2" or "dualpipe" ("1f1b" without a
                                       pipeline). */
    double pipeline_bubble;       /**< The step's compute over its ideal, >= 1: 1 + the
                                       schedule's idle share (1 without a pipeline). */
    char kernels[48];             /**< What ran in fused kernels: "fused", "eager", or one of
                                       them and the groups that differ ("eager but fused
                                       norm,activation,rope"): fused-kernels, fused-norm,
                                       fused-activation and fused-rope as resolved. */
    char fp8_recipe[16];          /**< Under fp8-mixed, the scaling recipe used: "delayed",
                                       "current", "mxfp8" or "blockwise" (the fp8-recipe
                                       option, or auto's choice for the GPU); "" otherwise. */
    char method[8];               /**< What the step trains: "sft", "dpo", "grpo", "ppo" or
                                       "distill" (the method option). */
    char reference[16];           /**< Under dpo, where the reference's log-probabilities come
                                       from: "model", "adapters-off" or "precomputed" (the
                                       reference option, or auto's choice); "" otherwise. */
    char calibration[TRAINSIZE_NAME_MAX]; /**< The site calibration applied
                                       (::trainsize_job_load_calibration): "12 runs on
                                       h100-80gb, 2026-12-01"; "" when none. */
    uint64_t calibration_runs;    /**< Runs that calibration was fitted on; 0 when none. */
    char tf32[16];                /**< Under fp32 or tf32 precision, what the estimate timed
                                       on the TF32 tensor cores: "matmuls" (a transformer's
                                       matmuls and attention), "convolutions" (a ResNet's), or
                                       "" when it ran in plain FP32 (and under 16-bit or fp8
                                       precisions). */
    char tf32_reason[TRAINSIZE_NAME_MAX]; /**< Why: the precision or the tf32 option, or auto's
                                       rule (PyTorch's cuDNN default for convolutions, the NGC
                                       containers' TF32 matmuls under Megatron, a GPU without
                                       TF32); "" under 16-bit or fp8 precisions. */
    trainsize_uncertainty uncertainty; /**< How sure the time and memory figures are. */
    uint64_t extra_parameters;       /**< Of model.parameters: those a checkpoint holds beyond
                                          what the shape describes (the job's `extra-params`,
                                          ::trainsize_job_set_checkpoint); the JSON's
                                          `model.extra_parameters`. */
    char extra_tensors[2 * TRAINSIZE_NAME_MAX]; /**< Which of a checkpoint's tensors make up
                                          extra_parameters: "NAME COUNT" per tensor group
                                          (::trainsize_checkpoint_group), the most first,
                                          "; "-separated, cut with "..." to fit; "" when
                                          extra-params was set by hand or is 0. The JSON's
                                          `model.extra_tensors`. */
    double rollout_sync_seconds;     /**< Of time.rollout_seconds: the trainer's 16-bit weights
                                          handed to the engines each step (gathered on the
                                          training links when colocated, over the network
                                          when separate); the JSON's
                                          `time.rollout_sync_seconds`. */
    double rollout_network_seconds;  /**< Of time.rollout_seconds: an engine wider than a
                                          server (rollout-tp over gpus-per-node), its decode
                                          all-reduces across servers; the JSON's
                                          `time.rollout_network_seconds`. */
    uint64_t reward_weights;         /**< Of memory.weights: a frozen reward model
                                          (reward-model) on the most loaded GPU, bytes; the
                                          JSON's `memory.reward_weights`. */
    uint64_t critic_gpu_peak;        /**< ppo with critic-gpus: the peak of one of the
                                          critic's own GPUs (its state, activations and
                                          overhead), bytes; 0 when the critic shares the
                                          policy's GPUs. memory.fits needs it within the
                                          GPU's capacity too. The JSON's
                                          `memory.critic_gpu_peak`. */
    uint64_t reward_gpu_peak;        /**< With reward-gpus: the peak of one of the reward
                                          model's own GPUs, bytes; 0 otherwise. memory.fits
                                          needs it within the GPU's capacity too. The
                                          JSON's `memory.reward_gpu_peak`. */
    uint64_t critic_nodes;           /**< ppo with critic-gpus: the critic's servers beside
                                          system.nodes, priced and powered with them; the
                                          JSON's `system.critic_nodes`. */
    uint64_t reward_nodes;           /**< With reward-gpus: the reward model's servers; the
                                          JSON's `system.reward_nodes`. */
    double critic_seconds;           /**< ppo with critic-gpus: a step's critic passes on its
                                          own GPUs, which run beside the policy's (the step
                                          waits for the slower), seconds; 0 otherwise. The
                                          JSON's `time.critic_seconds`. */
    double reward_seconds;           /**< With reward-gpus: a step's scoring forward on the
                                          reward model's own GPUs, beside the policy's
                                          passes, seconds; 0 otherwise. The JSON's
                                          `time.reward_seconds`. */
} trainsize_result;

/**
 * @brief Estimate what the job takes.
 *
 * Validates the job (a model must be set; the layout must divide: gpus by tp*pp*cp,
 * heads by tp, layers by pp*interleave, experts by ep, ...), then fills `out`. No heap
 * allocation; safe to call concurrently on the same job from many threads.
 *
 * @param[in]  job      The job.
 * @param[out] out      Caller-owned result, fully overwritten on success; untouched
 *                      contents are not guaranteed on failure.
 * @param[in]  out_size sizeof(trainsize_result) as the caller was compiled with; must be
 *                      at least the library's size.
 * @param[out] err      Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK; ::TRAINSIZE_E_INVALID (no model, inconsistent values),
 *         ::TRAINSIZE_E_LAYOUT, ::TRAINSIZE_E_OVERFLOW, ::TRAINSIZE_E_UNSUPPORTED or
 *         ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_estimate(const trainsize_job *job, trainsize_result *out,
                                     size_t out_size, trainsize_error *err);

/**
 * @brief The largest micro-batch and the largest sequence that fit, everything else as
 *        the job gives it.
 *
 * What an estimate with "largest-fit" true reports as memory.max_micro_batch and
 * memory.max_seq, without the rest of the estimate: each value is found by memory
 * estimates of its own (about 2 log2 of the answer of them), so an estimate with it fits
 * and one with the next larger does not. The micro-batch is searched among the divisors of
 * each data-parallel rank's share when global-batch is set; the sequence in multiples of
 * 128 (and of 2 x cp, and of tp x cp under sequence parallelism), up to the model's learned
 * positions. No heap allocation; thread-safe.
 *
 * @param[in]  job             The job.
 * @param[out] max_micro_batch Samples; 0 when even 1 does not fit.
 * @param[out] max_seq         Tokens; 0 when even the smallest step does not fit.
 * @param[out] err             Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK, or the error trainsize_estimate() gives for an invalid job (the
 *         layout and model checks), or ::TRAINSIZE_E_ARGUMENT for a NULL pointer.
 */
TRAINSIZE_API int trainsize_largest_fit(const trainsize_job *job, uint64_t *max_micro_batch,
                                        uint64_t *max_seq, trainsize_error *err);

/** @} */

/** @name Planning
 * Search GPU types, counts and parallel layouts for the configurations that fit, cheapest
 * or fastest first. The job gives the model, the training setup and the constraints (the
 * parameters "tokens", "plan-gpus", "max-gpus", "deadline-days", "budget", "objective",
 * "global-batch", "plan-rollout"); the planner varies the GPU, the GPU count, gpus-per-node
 * (up to 8), tp, cp, pp, pp-interleave, ep, zero, micro-batch (or, with max-tokens-per-gpu,
 * the token budget) and recompute, and for grpo and ppo the rollout engine's tensor
 * parallelism and placement. A GPU count is every GPU of the job: those a rollout, a critic
 * or a reward model takes beside the training ones included. Every candidate is a real
 * estimate: trainsize_plan_apply() on the job, then trainsize_estimate(), gives the same
 * figures.
 * @{ */

/** One configuration the planner found. Caller-owned plain data. */
typedef struct trainsize_plan_candidate {
    char gpu[TRAINSIZE_NAME_MAX]; /**< Catalogue GPU. */
    uint64_t gpus;                /**< GPUs that train (rollout_gpus, and a job's own
                                       critic-gpus and reward-gpus, are beside them). */
    uint64_t gpus_per_node;       /**< GPUs per server. */
    trainsize_layout layout;      /**< The layout and batch, as the candidate's estimate
                                       reports them (trainsize_result.layout); the global
                                       batch is the job's, or the planner's default of about
                                       4M tokens (a fixed count without tokens: the largest
                                       that fits). */
    uint64_t peak_total;          /**< Per-GPU memory, bytes (as memory.peak_total). */
    double seconds;               /**< Whole run on the wall clock, interruptions included,
                                       seconds (as time.wall_seconds). */
    double cost;                  /**< Cloud cost of the run, US dollars (as
                                       system.cost_cloud_usd; 0 when the GPU has no price). */
    uint64_t warnings;            /**< TRAINSIZE_WARN_* bits of the estimate. */
    double cost_own;              /**< Owning cost of the run, US dollars (as
                                       system.cost_own_usd; 0 when the GPU has no price). */
    uint64_t rollout_tp;          /**< grpo, ppo: the rollout engine's tensor parallelism,
                                       searched: the smallest that leaves a fifth of its
                                       rollout-memory-share for the KV cache, and twice it;
                                       0 for other methods. */
    char rollout[16];             /**< grpo, ppo: where the engines run, "colocated" or
                                       "separate", searched: on the training GPUs, or on a
                                       quarter or a half of the count (rollout_gpus) beside
                                       the rest (gpus); a job that sets rollout separate with
                                       its rollout-gpus keeps them. "" for other methods. */
    uint64_t max_tokens_per_gpu;  /**< With a token budget (the job's max-tokens-per-gpu),
                                       the budget searched in the micro-batch's place: 1, 2,
                                       4, 8 or 16 sequences' tokens a GPU; 0 otherwise. */
    uint64_t rollout_gpus;        /**< rollout "separate": the engines' GPUs, beside gpus
                                       (which train), priced with them; 0 otherwise. */
} trainsize_plan_candidate;

/** What a search covered. Caller-owned plain data. The counts of configurations that fit
 * are of those estimated; the search prunes only once a candidate is feasible, so when
 * none is, every configuration was estimated and fastest_fit_seconds, cheapest_fit_cost
 * and least_overshoot are over all of them. */
typedef struct trainsize_plan_stats {
    uint64_t evaluated;  /**< Configurations examined one by one: estimated, refused by a
                              setter (a batch that does not split), or ruled out by memory
                              (pruned_memory) or a floor (pruned_bound). */
    uint64_t estimated;  /**< Of those, full estimates run. */
    uint64_t feasible;   /**< Configurations estimated that fit and meet every constraint. */
    uint64_t fit_memory; /**< Configurations estimated that fit in GPU memory, constraints or not. */
    double fastest_fit_seconds; /**< The shortest run among those, seconds (0 when none):
                                     what a deadline would have to allow. */
    double cheapest_fit_cost;   /**< The lowest priced cost among those, US dollars (0 when
                                     none is priced): what a budget would have to allow. */
    double least_overshoot;     /**< When nothing fits in memory: how far the closest
                                     configuration is over its GPU, as peak_total / capacity - 1;
                                     0 otherwise. */
    uint64_t pruned_memory;  /**< Of evaluated, ruled out unseen because a lighter configuration
                                  of the same layout did not fit (a larger micro-batch, less
                                  recomputation: memory only grows). */
    uint64_t pruned_bound;   /**< Of evaluated, ruled out by a floor under their time and cost
                                  that is already beaten by the candidates kept (0 with
                                  "exhaustive"). */
    uint64_t bounds;         /**< Floors computed: the compute stage of an estimate alone (about
                                  a quarter of one), which the other stages only add to. */
    uint64_t counts_skipped; /**< GPU counts (of one GPU type) ruled out whole by a floor that
                                  holds for every layout, before any of their configurations was
                                  looked at; those configurations are not in evaluated. */
} trainsize_plan_stats;

/**
 * @brief Search for the best configurations of a job.
 *
 * Needs "tokens" on the job, or a fixed "plan-gpu-count": then, without tokens, it writes
 * the layouts that fit that count with the largest batch each takes (the largest
 * micro-batch that fits, and a global batch of micro-batch x data parallel x pp), largest
 * batch first, with one step's time and cost. Otherwise it writes the best `cap`
 * candidates, best first (by the job's "objective": cloud cost, then time; time, then
 * cloud cost; or owning cost, then time), into `out`: one per GPU x count x tp x cp x pp x
 * ep layout (its best interleave, ZeRO stage, micro-batch and recomputation), values
 * within 1 % counting as a tie that a candidate without a warning wins, then the fewer
 * GPUs. Every candidate trains with the job's "global-batch", or about 4M tokens per step
 * (as the estimate's default for a pretraining run). Counts reach 16,384 servers within
 * "max-gpus". The GPU list
 * ("plan-gpus") is searched once per distinct name; a job with a GPU of its own description
 * (trainsize_job_set_gpu) and no list searches that GPU; "plan-gpu-count" fixes the count.
 * When nothing is feasible, `stats` says which constraint binds (fit_memory,
 * fastest_fit_seconds, cheapest_fit_cost, least_overshoot). With "plan-ranking" pareto it
 * writes instead the Pareto front of cost (cloud, or owned with objective owned) against
 * time, fastest first, up to `cap` points spread over the range. No heap allocation.
 *
 * The search prunes, and its answer is the exhaustive search's: a configuration is
 * estimated only when a floor under its time and cost (its compute alone, which
 * communication, offload and interruptions only add to) could still beat the candidates
 * kept; a whole GPU count is skipped when a floor that holds for all its layouts (the
 * matmuls at their kernels' fastest rate) cannot; and within a layout a micro-batch that
 * does not fit ends the larger ones. Ties are broken down to the GPU's name and the layout,
 * so the order it searches in never changes the answer. "exhaustive" (a boolean) turns the
 * floors off, to check that the answers agree (tests/test_plan_bounds.c does, over the
 * catalogue's models).
 *
 * @param[in]  job     The job (model, setup, constraints); not changed.
 * @param[out] out     Caller array of `cap` candidates; may be NULL when cap is 0.
 * @param[in]  cap     Its capacity.
 * @param[out] count   Number of candidates written (0 when nothing fits).
 * @param[out] stats   What the search covered; may be NULL.
 * @param[out] err     Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK (also when nothing fits), ::TRAINSIZE_E_INVALID (no model, no
 *         tokens), ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_plan(const trainsize_job *job, trainsize_plan_candidate *out, size_t cap,
                                 size_t *count, trainsize_plan_stats *stats, trainsize_error *err);

/**
 * @brief How far a search has come, for a progress bar; the answer stops it.
 *
 * Called from within trainsize_plan_with_progress() on the caller's thread, after each GPU
 * count of each GPU type is searched or skipped (844 times in a whole-catalogue search of a
 * dense model). It must not call back into the same search.
 *
 * @param context  The caller's pointer, as given.
 * @param done     GPU counts searched or skipped so far (of every GPU type).
 * @param total    GPU counts the search will look at in all; done == total at the end.
 * @param examined Configurations examined so far (trainsize_plan_stats::evaluated).
 * @return 0 to go on; anything else cancels the search (::TRAINSIZE_E_CANCELLED), but on
 *         the last call (done == total), when the answer is complete.
 */
typedef int (*trainsize_plan_progress_fn)(void *context, uint64_t done, uint64_t total, uint64_t examined);

/**
 * @brief trainsize_plan() with a progress callback that can cancel the search.
 *
 * @param[in]  job      The job; not changed.
 * @param[out] out      As trainsize_plan().
 * @param[in]  cap      As trainsize_plan().
 * @param[out] count    As trainsize_plan(); 0 when cancelled (no partial answer).
 * @param[out] stats    As trainsize_plan(); may be NULL. Left unwritten when cancelled.
 * @param[in]  progress Called as the search goes; NULL: none (then this is trainsize_plan()).
 * @param[in]  context  Handed to `progress`; the library does not read it.
 * @param[out] err      Details on failure; may be NULL.
 * @return As trainsize_plan(), or ::TRAINSIZE_E_CANCELLED when `progress` returned non-zero.
 */
TRAINSIZE_API int trainsize_plan_with_progress(const trainsize_job *job, trainsize_plan_candidate *out,
                                               size_t cap, size_t *count, trainsize_plan_stats *stats,
                                               trainsize_plan_progress_fn progress, void *context,
                                               trainsize_error *err);

/**
 * @brief Set a job's GPU and layout to a candidate's, so that trainsize_estimate() gives
 *        the candidate's figures.
 * @param[in,out] job       The job.
 * @param[in]     candidate A candidate from trainsize_plan().
 * @param[out]    err       Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_UNKNOWN (GPU not in the catalogue) or
 *         ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_plan_apply(trainsize_job *job, const trainsize_plan_candidate *candidate,
                                       trainsize_error *err);

/** @} */

/** @name Fit advice
 * When a job does not fit its GPU: the smallest changes that make it fit, least disruptive
 * first (recomputation, micro-batch, flash attention, ZeRO, tensor parallelism, CPU offload,
 * more GPUs, then LoRA and QLoRA), each one a real estimate of the changed job.
 * @{ */

/** Most settings one piece of advice changes. */
#define TRAINSIZE_ADVICE_MAX_SETTINGS 6

/** One way to make a job fit. Caller-owned plain data. */
typedef struct trainsize_advice {
    size_t settings;                                /**< Settings used in names/values. */
    char names[TRAINSIZE_ADVICE_MAX_SETTINGS][32];  /**< Parameter names, as trainsize_job_set() takes them. */
    char values[TRAINSIZE_ADVICE_MAX_SETTINGS][32]; /**< Their values, as text. */
    uint64_t peak_total;   /**< Per-GPU memory with the change, bytes (memory.peak_total). */
    uint64_t gpu_capacity; /**< The GPU's capacity, bytes. */
    uint64_t gpus;         /**< GPUs with the change. */
    double step_seconds;   /**< Seconds per optimizer step with the change. */
    double seconds;        /**< The whole run with the change, seconds. */
} trainsize_advice;

/**
 * @brief Ways to make a job that does not fit its GPU fit.
 *
 * Tries each change alone on the job (recompute selective, per-op, full; micro-batch 1; flash
 * attention; ZeRO 1, 2, 3; tensor parallelism 2, 4, 8 inside a server; CPU offload of the
 * optimizer, and of the parameters; 2 to 64 times the GPUs with ZeRO-3; LoRA rank 16; QLoRA
 * nf4), then, while fewer than `cap` were found, the same changes stacked in that order until
 * the job fits. "Fits" here keeps the job's `headroom` share of the GPU free (no
 * ::TRAINSIZE_WARN_LOW_HEADROOM), since an estimate is a few per cent off. The global batch
 * is kept as it was set (or, under micro-batch and tp changes, as it came out), so the
 * training is the same. Applying
 * every name/value of an advice with trainsize_job_set() gives an estimate that fits, with
 * the advice's figures. No heap allocation.
 *
 * @param[in]  job   The job; not changed.
 * @param[out] out   Caller array of `cap` advice; may be NULL when cap is 0.
 * @param[in]  cap   Its capacity.
 * @param[out] count Advice written: 0 when the job fits, or nothing tried makes it fit.
 * @param[out] err   Details on failure; may be NULL.
 * @return ::TRAINSIZE_OK (also when the job fits), the job's own estimate error, or
 *         ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_advise(const trainsize_job *job, trainsize_advice *out, size_t cap,
                                   size_t *count, trainsize_error *err);

/** Largest report trainsize_report() writes, in bytes (far above any real one). */
#define TRAINSIZE_REPORT_MAX_BYTES (1u << 20)

/**
 * @brief The human report of an estimate, the text `trainsize estimate` prints.
 *
 * A header (model, GPU, layout, batch and why, conventions), the per-GPU memory table with
 * bars, the verdict, the fit advice given, the servers (the host RAM, cores, network and
 * storage the job was given, with its need and a verdict; else what is recommended and
 * why), the time, and the warnings. ASCII, lines of at most 100 columns, numbers in the C
 * locale's form whatever LC_NUMERIC the program set. Reads `job` (what the caller gave)
 * and `result`; prints nothing.
 *
 * @param[in]  job          The job that was estimated.
 * @param[in]  result       Its estimate (::trainsize_estimate of `job`).
 * @param[in]  advice       Fit advice to show (::trainsize_advise), or NULL.
 * @param[in]  advice_count Entries of `advice` (0 when NULL): shown when the job does not fit.
 * @param[out] buf          Caller buffer for the NUL-terminated text; may be NULL when
 *                          cap is 0 (then only the length is returned).
 * @param[in]  cap          Capacity of `buf` in bytes.
 * @param[out] err          Details on failure; may be NULL.
 * @return The report's length in bytes without the NUL, which may be >= cap, in which case
 *         the text was truncated (snprintf-style); a negative ::trainsize_status on failure:
 *         ::TRAINSIZE_E_ARGUMENT (NULL job or result, NULL buf with cap > 0),
 *         ::TRAINSIZE_E_NOMEM (the working buffer could not be allocated; the report is
 *         built in one, freed before return).
 */
TRAINSIZE_API int trainsize_report(const trainsize_job *job, const trainsize_result *result,
                                   const trainsize_advice *advice, size_t advice_count, char *buf,
                                   size_t cap, trainsize_error *err);

/** Largest JSON text trainsize_result_json() and the other JSON writers write, in bytes
 *  (far above any real one). */
#define TRAINSIZE_JSON_MAX_BYTES (1u << 20)

/**
 * @brief The estimate as JSON: the object `trainsize estimate --json` prints.
 *
 * "trainsize_version" first, then every field of the result field catalogue
 * (trainsize_result_field_at()) nested by its dotted path, objects in the order their
 * names first appear, warnings as an array of their names, and last "advice", an array of
 * {"set": {name: value, ...}, "peak_total", "gpu_capacity", "fits", "gpus",
 * "step_seconds", "seconds"}. Two-space indentation, a final newline; numbers in the
 * shortest form that reads back as the same double, in the C locale's form whatever
 * LC_NUMERIC the program set; strings escaped, invalid UTF-8 bytes as U+FFFD. The same
 * bytes as the command's, the WebAssembly module's and the Rust and Go bindings' JSON,
 * which all call this. No heap allocation; reentrant.
 *
 * @param[in]  result       An estimate (::trainsize_estimate).
 * @param[in]  advice       Fit advice to list (::trainsize_advise), or NULL.
 * @param[in]  advice_count Entries of `advice` (0 when NULL).
 * @param[out] buf          Caller buffer for the NUL-terminated text; may be NULL when cap
 *                          is 0 (then only the length is returned).
 * @param[in]  cap          Capacity of `buf` in bytes.
 * @param[out] err          Details on failure; may be NULL.
 * @return The text's length in bytes without the NUL, which may be >= cap, in which case
 *         the text was truncated (snprintf-style: call again with length + 1 bytes); a
 *         negative ::trainsize_status on failure (then `buf` holds ""):
 *         ::TRAINSIZE_E_ARGUMENT (NULL result, NULL buf with cap > 0, NULL advice with a
 *         count, a text of the result or an advice without its NUL: not what the library
 *         filled), ::TRAINSIZE_E_LIMIT (longer than ::TRAINSIZE_JSON_MAX_BYTES).
 */
TRAINSIZE_API int trainsize_result_json(const trainsize_result *result, const trainsize_advice *advice,
                                        size_t advice_count, char *buf, size_t cap,
                                        trainsize_error *err);

/** @} */

/** @name Site calibration: fitting
 * @{ */

/** The step-time shares a calibration fits, in the order of
 *  ::trainsize_calibration_summary's arrays: gemm-share, scale-up-efficiency,
 *  network-efficiency, step-overhead (the first four of ::trainsize_calibration_setting_at). */
#define TRAINSIZE_CALIBRATION_SHARES 4

/** One measured run of ::trainsize_calibrate, and what the estimate gives for it. */
typedef struct trainsize_calibration_run {
    char name[TRAINSIZE_NAME_MAX]; /**< The run's "name", else "run N" (from 1). */
    char gpu[TRAINSIZE_NAME_MAX];  /**< Its GPU, as the estimate names it. */
    double step_seconds;           /**< Measured seconds per optimizer step (from
                                        tokens_per_s_per_gpu when that was given). */
    double step_seconds_before;    /**< The estimate with the library's defaults. */
    double step_seconds_after;     /**< The estimate with the calibration fitted. */
    double step_seconds_left_out;  /**< The estimate with the calibration fitted on the other
                                        runs (leave-one-out); 0 when not computed. */
    uint64_t peak_bytes;           /**< Measured peak memory, bytes; 0 when not measured. */
    int peak_reserved;             /**< 1: peak_bytes is max_memory_reserved (compared with
                                        memory.peak_reserved); 0: max_memory_allocated
                                        (memory.peak_allocated). */
    uint64_t peak_bytes_before;    /**< The estimate's comparable figure, defaults. */
    uint64_t peak_bytes_after;     /**< The same, calibrated. */
} trainsize_calibration_run;

/** What ::trainsize_calibrate fitted and how well. Errors are the median over runs of
 *  |estimate / measured - 1| (taken on a log scale, so a factor of 2 too slow and too fast
 *  count alike). */
typedef struct trainsize_calibration_summary {
    double step_error_before;   /**< Step time, the library's defaults. */
    double step_error_after;    /**< Step time, calibrated (the runs it was fitted on). */
    double step_error_left_out; /**< Step time, each run from the others' fit. */
    int left_out;               /**< 1 when leave-one-out ran (3 to 64 runs). */
    double peak_error_before;   /**< Peak memory of the runs that measured it, defaults. */
    double peak_error_after;    /**< The same, calibrated. */
    size_t peak_runs;           /**< Runs with a measured peak. */
    double values[TRAINSIZE_CALIBRATION_SHARES]; /**< The shares as fitted (or left). */
    int fitted[TRAINSIZE_CALIBRATION_SHARES];    /**< 0: no run's step depends on it (no
                                                      multi-server run for the network):
                                                      left at its default and out of the file. */
    double allocator_slack;     /**< Fitted to non-ZeRO-3 runs' max_memory_reserved; < 0 when
                                     none measured it. */
    double sharded_slack;       /**< Fitted to ZeRO-3/FSDP runs' max_memory_reserved; < 0 when
                                     none measured it. */
} trainsize_calibration_summary;

/**
 * @brief Fit a site calibration to measured runs (what `trainsize calibrate` runs).
 *
 * `runs_json` is `{"runs": [...]}` or the list alone; each run is an object with `job` (the
 * command's options: `model` and any parameter but those a calibration sets, `hfu` and the
 * files), `measured` (`step_seconds` or `tokens_per_s_per_gpu`, and optionally
 * `peak_allocated_bytes` or `peak_reserved_bytes`, positive numbers), and optionally
 * `name` and `source`. A run the estimate says does not fit its GPU is refused (a run
 * that ran fits). The step-time shares are fitted by least squares on the log of
 * estimated over measured step time, within bounds, with a weak pull to the defaults; the
 * allocator's reserve to max_memory_reserved where measured; see docs/methodology.md.
 *
 * @param[in]  runs_json       The runs' JSON text (need not be NUL-terminated); bounded
 *                             like ::trainsize_job_load_hf_config, at most 256 runs.
 * @param[in]  len             Its length in bytes.
 * @param[in]  date            The date to write into the calibration ("YYYY-MM-DD"); may
 *                             be NULL ("").
 * @param[out] runs            Caller array for each run's figures.
 * @param[in]  cap             Its capacity; fewer than the runs is ::TRAINSIZE_E_LIMIT.
 * @param[out] count           Runs read.
 * @param[out] summary         What was fitted and the errors before and after.
 * @param[out] calibration     Caller buffer for the calibration's JSON text (what
 *                             ::trainsize_job_load_calibration_json reads), NUL-terminated
 *                             and truncated to fit; may be NULL when calibration_cap is 0.
 * @param[in]  calibration_cap Its capacity in bytes.
 * @param[out] calibration_len The text's full length (>= calibration_cap: truncated); may
 *                             be NULL.
 * @param[out] err             Details on failure (field "runs", the message naming the run
 *                             and its key: `runs[2] ("name"): measured: ...`); may be NULL.
 * @return ::TRAINSIZE_OK, ::TRAINSIZE_E_PARSE, ::TRAINSIZE_E_LIMIT, ::TRAINSIZE_E_INVALID,
 *         ::TRAINSIZE_E_UNKNOWN (an unknown option or preset in a run), ::TRAINSIZE_E_NOMEM
 *         or ::TRAINSIZE_E_ARGUMENT.
 */
TRAINSIZE_API int trainsize_calibrate(const char *runs_json, size_t len, const char *date,
                                      trainsize_calibration_run *runs, size_t cap, size_t *count,
                                      trainsize_calibration_summary *summary, char *calibration,
                                      size_t calibration_cap, size_t *calibration_len,
                                      trainsize_error *err);

/** @} */

/** @name Result fields
 * A flat, named view of ::trainsize_result so that callers in any language (and the
 * command's JSON writer) can walk every figure without mirroring the struct. Paths are
 * dotted JSON paths such as "memory.peak_total", in the order the JSON prints them.
 * @{ */

/** The type of a result field. */
typedef enum trainsize_field_type {
    TRAINSIZE_FIELD_U64 = 0,    /**< Unsigned 64-bit integer. */
    TRAINSIZE_FIELD_F64 = 1,    /**< Double. */
    TRAINSIZE_FIELD_BOOL = 2,   /**< 0 or 1. */
    TRAINSIZE_FIELD_STRING = 3, /**< NUL-terminated text inside the result. */
    TRAINSIZE_FIELD_CHOICE = 4, /**< An enum, read as its name. */
    TRAINSIZE_FIELD_FLAGS = 5   /**< A bit set (`u64`); each bit's name from trainsize_warning_name. */
} trainsize_field_type;

/** Description of one result field. Library-owned, static storage. */
typedef struct trainsize_field_info {
    const char *path;          /**< Dotted path, e.g. "memory.weights". */
    trainsize_field_type type; /**< Its type. */
    const char *unit;          /**< "bytes", "bytes/s", "seconds", "watts", "flops", "" ... */
    const char *doc;           /**< One-line description. */
} trainsize_field_info;

/** One field's value; which member is meaningful follows the field's type. */
typedef struct trainsize_field_value {
    trainsize_field_type type; /**< The field's type. */
    uint64_t u64;              /**< U64 and BOOL values. */
    double f64;                /**< F64 values. */
    const char *text;          /**< STRING (points into the result) and CHOICE (static). */
} trainsize_field_value;

/**
 * @brief Number of result fields.
 * @return The count.
 */
TRAINSIZE_API size_t trainsize_result_field_count(void);

/**
 * @brief One result field's description.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_field_info *trainsize_result_field_at(size_t index);

/**
 * @brief Read one field of a result.
 * @param[in]  result The result.
 * @param[in]  index  0-based field index.
 * @param[out] out    Caller-owned value; `text` points into `result` or static storage
 *                    and lives as long as they do.
 * @return ::TRAINSIZE_OK, or ::TRAINSIZE_E_ARGUMENT for NULL pointers, a bad index, a
 *         text field whose array holds no NUL or a choice past its names (a struct the
 *         library did not fill).
 */
TRAINSIZE_API int trainsize_result_field_get(const trainsize_result *result, size_t index,
                                             trainsize_field_value *out);

/* The planner's candidates, the GPU catalogue and the model presets as named fields, in
 * the order of their JSON objects (trainsize_plan_json(), trainsize_gpus_json(),
 * trainsize_models_json()). A STRING field whose unit is "list" holds comma-separated
 * names (a GPU's "datatypes"), written to JSON as an array of strings. */

/** @brief Number of plan candidate fields (::trainsize_plan_field_at). @return The count. */
TRAINSIZE_API size_t trainsize_plan_field_count(void);

/**
 * @brief One plan candidate field's description: its JSON key (a flat name), type, unit and meaning.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_field_info *trainsize_plan_field_at(size_t index);

/**
 * @brief Read one field of a plan candidate (::trainsize_plan), as the JSON has it
 *        (derived values included).
 * @param[in]  candidate The plan candidate.
 * @param[in]  index  0-based field index.
 * @param[out] out    Caller-owned value; `text` points into `candidate` or static storage
 *                    and lives as long as they do.
 * @return ::TRAINSIZE_OK, or ::TRAINSIZE_E_ARGUMENT for NULL pointers, a bad index, or a
 *         text field whose array holds no NUL or a choice past its names (a struct the
 *         library did not fill).
 */
TRAINSIZE_API int trainsize_plan_field_get(const trainsize_plan_candidate *candidate, size_t index,
                                         trainsize_field_value *out);

/** @brief Number of GPU fields (::trainsize_gpu_field_at). @return The count. */
TRAINSIZE_API size_t trainsize_gpu_field_count(void);

/**
 * @brief One GPU field's description: its JSON key (a flat name), type, unit and meaning.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_field_info *trainsize_gpu_field_at(size_t index);

/**
 * @brief Read one field of a GPU (::trainsize_gpu_at, or a caller's own), as the JSON has it
 *        (derived values included).
 * @param[in]  gpu The GPU.
 * @param[in]  index  0-based field index.
 * @param[out] out    Caller-owned value; `text` points where `gpu`'s own strings point (a
 *                    catalogue GPU's are static; a caller's own, the caller's), or into
 *                    static storage, and lives as long as they do.
 * @return ::TRAINSIZE_OK, or ::TRAINSIZE_E_ARGUMENT for NULL pointers, a bad index, or a
 *         text field whose array holds no NUL or a choice past its names (a struct the
 *         library did not fill).
 */
TRAINSIZE_API int trainsize_gpu_field_get(const trainsize_gpu_info *gpu, size_t index,
                                         trainsize_field_value *out);

/** @brief Number of model preset fields (::trainsize_model_field_at). @return The count. */
TRAINSIZE_API size_t trainsize_model_field_count(void);

/**
 * @brief One model preset field's description: its JSON key (a flat name), type, unit and meaning.
 * @param index 0-based index.
 * @return A pointer to static, library-owned data, or NULL when index is out of range.
 */
TRAINSIZE_API const trainsize_field_info *trainsize_model_field_at(size_t index);

/**
 * @brief Read one field of a model preset (::trainsize_model_at), as the JSON has it
 *        (derived values included).
 * @param[in]  model The model preset.
 * @param[in]  index  0-based field index.
 * @param[out] out    Caller-owned value; `text` points into `model` or static storage
 *                    and lives as long as they do.
 * @return ::TRAINSIZE_OK, or ::TRAINSIZE_E_ARGUMENT for NULL pointers, a bad index, or a
 *         text field whose array holds no NUL or a choice past its names (a struct the
 *         library did not fill).
 */
TRAINSIZE_API int trainsize_model_field_get(const trainsize_model_info *model, size_t index,
                                         trainsize_field_value *out);

/**
 * @brief The planner's answer as JSON: the object `trainsize plan --json` prints.
 *
 * The search's figures ("evaluated", "estimated", "feasible", "fit_memory",
 * "fastest_fit_seconds", "cheapest_fit_cost", "least_overshoot"), the job's "objective",
 * and "candidates": one object per candidate, one per line, with the fields of
 * ::trainsize_plan_field_at (warnings as an array of names). Numbers and strings as in
 * trainsize_result_json(). No heap allocation; reentrant.
 *
 * @param[in]  job        The job that was planned (its objective is named).
 * @param[in]  candidates What ::trainsize_plan wrote; may be NULL when count is 0.
 * @param[in]  count      Candidates.
 * @param[in]  stats      What ::trainsize_plan reported of the search.
 * @param[out] buf        Caller buffer for the NUL-terminated text; may be NULL when cap is 0.
 * @param[in]  cap        Capacity of `buf` in bytes.
 * @param[out] err        Details on failure; may be NULL.
 * @return The text's length in bytes without the NUL (>= cap: truncated, snprintf-style),
 *         or a negative ::trainsize_status: ::TRAINSIZE_E_ARGUMENT (NULL job, stats,
 *         candidates with a count, or buf with cap > 0; a candidate's gpu without its NUL),
 *         ::TRAINSIZE_E_LIMIT (longer than ::TRAINSIZE_JSON_MAX_BYTES).
 */
TRAINSIZE_API int trainsize_plan_json(const trainsize_job *job, const trainsize_plan_candidate *candidates,
                                      size_t count, const trainsize_plan_stats *stats, char *buf,
                                      size_t cap, trainsize_error *err);

/**
 * @brief The GPU catalogue as JSON: the array `trainsize gpus --json` prints, one object
 *        per GPU and line, with the fields of ::trainsize_gpu_field_at. No heap; reentrant.
 * @param[out] buf Caller buffer for the NUL-terminated text; may be NULL when cap is 0.
 * @param[in]  cap Capacity of `buf` in bytes.
 * @param[out] err Details on failure; may be NULL.
 * @return The length without the NUL (>= cap: truncated), or ::TRAINSIZE_E_ARGUMENT (NULL
 *         buf with cap > 0), ::TRAINSIZE_E_LIMIT.
 */
TRAINSIZE_API int trainsize_gpus_json(char *buf, size_t cap, trainsize_error *err);

/**
 * @brief The model presets as JSON: the array `trainsize models --json` prints, one object
 *        per preset and line, with the fields of ::trainsize_model_field_at. No heap; reentrant.
 * @param[out] buf Caller buffer for the NUL-terminated text; may be NULL when cap is 0.
 * @param[in]  cap Capacity of `buf` in bytes.
 * @param[out] err Details on failure; may be NULL.
 * @return As trainsize_gpus_json().
 */
TRAINSIZE_API int trainsize_models_json(char *buf, size_t cap, trainsize_error *err);

/** @} */

/** @name The command
 *
 * The `trainsize` command itself, as a library entry: the installed program is this call
 * with standard output and standard error as its writers, and the WebAssembly module is the
 * same call with buffers. The command's options, output and exit statuses are its contract
 * (docs/cli.md). The library writes nothing itself: what the command would print goes to
 * the caller's writers, as curl hands a transfer's bytes to CURLOPT_WRITEFUNCTION.
 * @{ */

/** Exit statuses of trainsize_command() (and of the program). */
enum trainsize_command_status {
    TRAINSIZE_COMMAND_OK = 0,      /**< The answer (estimate, plan, listing, help) was written. */
    TRAINSIZE_COMMAND_FAILURE = 1, /**< A write failed, out of memory, or a cancelled plan. */
    TRAINSIZE_COMMAND_USAGE = 2    /**< Invalid input: one message line, no output. */
};

/**
 * @brief Takes bytes the command writes.
 *
 * @param data    The bytes (not NUL-terminated); valid only during the call.
 * @param size    How many, in bytes; never 0.
 * @param context The caller's pointer, as given in ::trainsize_command_io.
 * @return The number of bytes taken; fewer than `size` is a write failure (the command then
 *         says so on its message writer, naming errno when the writer set it, and returns
 *         ::TRAINSIZE_COMMAND_FAILURE).
 */
typedef size_t (*trainsize_write_fn)(const char *data, size_t size, void *context);

/** Where trainsize_command() writes. A NULL writer discards what it would have taken. */
typedef struct trainsize_command_io {
    /** The answer (a report, JSON, a listing, help), written once, whole, at the end: a
     *  failure never leaves half an answer behind. */
    trainsize_write_fn output;
    void *output_context; /**< Handed to `output`; the library does not read it. */
    /** Messages: on failure one line ("trainsize: ..." and a newline) and nothing else; on
     *  success a note or two (a checkpoint smaller than its shape, after the answer;
     *  calibrate's fit table, before it). */
    trainsize_write_fn message;
    void *message_context; /**< Handed to `message`; the library does not read it. */
    /** `plan`'s progress, as trainsize_plan_with_progress() calls it; NULL: none. A
     *  non-zero answer cancels the plan (a message, ::TRAINSIZE_COMMAND_FAILURE), but on the
     *  last call (done == total), when the answer is complete. */
    trainsize_plan_progress_fn progress;
    void *progress_context; /**< Handed to `progress`; the library does not read it. */
} trainsize_command_io;

/**
 * @brief Run the `trainsize` command on a command line.
 *
 * Exactly what the program does with the same arguments: `estimate`, `plan`, `models`,
 * `gpus`, `capacity`, `calibrate`, `help`, `--version`, or the built-in example job with no
 * argument. Files named by options (--hf-config, --gpu-file, --calibration, --safetensors,
 * --hf-model's cache, calibrate's runs) are read as the library's loaders read them.
 * Reentrant: the arguments and `io` are all the state a call has.
 *
 * @param argc Number of arguments, the program's name included (>= 1).
 * @param argv The arguments, none NULL; argv[0] is the program's name (not otherwise read).
 *             Not changed.
 * @param io   Where to write; NULL discards everything (the status still says how it went).
 * @return An exit status, ::trainsize_command_status.
 */
TRAINSIZE_API int trainsize_command(int argc, char *const *argv, const trainsize_command_io *io);

/**
 * @brief The job `trainsize estimate` would size for these options, without estimating it.
 *
 * For a caller that estimates a command line's job itself (the WebAssembly module hands the
 * result's fields over without writing JSON): the options are parsed and applied as the
 * estimate command applies them (--model or --hf-config first, files read, then every other
 * option in order; the built-in example job when no option names a job). `--json` is
 * accepted and ignored; `--help` is invalid input here.
 *
 * @param argc Number of options (>= 0), the command's name not included.
 * @param argv The options; may be NULL when argc is 0. Not changed.
 * @param base A job fresh from trainsize_job_new() to start from (a copy costs less than
 *             setting every default again), or NULL for a new one. Not changed.
 * @param[out] job The new job, owned by the caller (trainsize_job_free()); NULL on failure.
 * @param io   Its `message` writer only: the message line of a failure, or on success a note
 *             (a checkpoint smaller than its shape); may be NULL.
 * @return ::TRAINSIZE_COMMAND_OK, ::TRAINSIZE_COMMAND_USAGE (invalid option or value, a file
 *         that cannot be read), ::TRAINSIZE_COMMAND_FAILURE (out of memory, NULL `job`).
 */
TRAINSIZE_API int trainsize_command_job(int argc, char *const *argv, const trainsize_job *base,
                                        trainsize_job **job, const trainsize_command_io *io);

/**
 * @brief A setting of the built-in example job (what `trainsize` with no argument sizes).
 * @param index      0, 1, ... in the order the command applies them.
 * @param[out] name  The parameter's name (static text); may be NULL.
 * @param[out] value Its value as text (static text); may be NULL.
 * @return 1 when `index` names a setting, 0 past the last.
 */
TRAINSIZE_API int trainsize_example_setting(size_t index, const char **name, const char **value);

/** @} */

#ifdef __cplusplus
}
#endif

/** @} */
#endif /* TRAINSIZE_H */

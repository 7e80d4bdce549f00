/* What an estimate reads: the model and every setting of a job, without the planner's
 * options or the storage behind a caller's GPU (job.h). The pipeline (estimate.c) hands
 * each stage a const pointer to this; no stage sees the job itself. */
#ifndef TS_SETTINGS_H
#define TS_SETTINGS_H

#include <stdint.h>

#include "calibration.h"
#include "choices.h"
#include "model.h"
#include "trainsize.h"

/* Tokens per optimizer step of a pretraining run whose job sets no global batch, in the
 * estimate (layout.c) and the planner alike: about 4M, the LLaMA paper's batch (Touvron et
 * al. 2023, section 2.2). */
#define TS_PRETRAIN_STEP_TOKENS 4194304.0

/* The choices the public header names (trainsize_precision, trainsize_optimizer,
 * trainsize_framework, trainsize_tristate, trainsize_recompute, trainsize_attention,
 * trainsize_offload, trainsize_quantize) are used here as they are: a parameter's choice
 * index and the public value are the same number, and no internal copy of them exists.
 * The enums below are the choices the header does not name. TRAINSIZE_FRAMEWORK_AUTO is
 * resolved from the job (framework.c); "auto|yes|no" settings default by the framework. */
/* When sharded gradients are reduced under gradient accumulation. */
typedef enum ts_grad_sync { TS_SYNC_AUTO = 0, TS_SYNC_MICRO_BATCH, TS_SYNC_STEP } ts_grad_sync;
/* The flash-attention kernel (flash-kernel): FlashAttention-2 (PyTorch's SDPA flash backend,
 * the flash-attn package), or FlashAttention-3 / cuDNN's fused attention on Hopper and later. */
typedef enum ts_flash_kernel { TS_FLASH_AUTO = 0, TS_FLASH_FA2, TS_FLASH_FA3 } ts_flash_kernel;
/* A ResNet's activation layout (memory-format): AUTO is channels-last under 16-bit precisions. */
typedef enum ts_memory_format { TS_MEMFMT_AUTO = 0, TS_MEMFMT_NCHW, TS_MEMFMT_NHWC } ts_memory_format;
/* The loss's kernel: the logits kept whole, in chunks, or never (a fused linear + loss). */
typedef enum ts_cross_entropy { TS_CE_EAGER = 0, TS_CE_CHUNKED, TS_CE_FUSED } ts_cross_entropy;
/* The NICs a data-parallel group's traffic uses across servers. */
typedef enum ts_dp_nics { TS_DP_NICS_AUTO = 0, TS_DP_NICS_SERVER, TS_DP_NICS_OWN } ts_dp_nics;
/* Storage type of the frozen base weights that are not quantized (LoRA). */
typedef enum ts_base_dtype { TS_BASE_AUTO = 0, TS_BASE_16BIT, TS_BASE_FP32 } ts_base_dtype;
/* Where the weights are first put when the job starts. */
typedef enum ts_loading { TS_LOAD_CPU = 0, TS_LOAD_GPU } ts_loading;


/* grpo and ppo: a rollout engine generates the responses the step trains on. */
static inline int ts_is_rl(int method) { return method == TS_METHOD_GRPO || method == TS_METHOD_PPO; }
typedef enum ts_rollout { TS_ROLLOUT_COLOCATED = 0, TS_ROLLOUT_SEPARATE } ts_rollout;

/* What selective recomputation recomputes (recompute-modules, in its choices' order). */
typedef enum ts_recompute_module {
    TS_RC_CORE_ATTN = 1u << 0,
    TS_RC_LAYERNORM = 1u << 1,
    TS_RC_MLA_UP_PROJ = 1u << 2,
    TS_RC_MOE_ACT = 1u << 3,
    TS_RC_MLP = 1u << 4,
    TS_RC_MOE = 1u << 5
} ts_recompute_module;
typedef enum ts_grad_precision { TS_GRAD_AUTO = 0, TS_GRAD_FP32, TS_GRAD_HALF } ts_grad_precision;

/* fp32 and tf32 keep the same bytes (tf32 is fp32 data on the TF32 tensor cores). */
static inline int ts_precision_fp32(int precision)
{
    return precision == TRAINSIZE_PRECISION_FP32 || precision == TRAINSIZE_PRECISION_TF32;
}

typedef struct ts_settings {
    ts_model model;
    /* Job. */
    uint64_t seq;
    uint64_t micro_batch;
    uint64_t global_batch; /* 0: micro_batch x data-parallel degree */
    uint64_t tokens;       /* 0: one optimizer step */
    int precision;         /* trainsize_precision */
    int tf32;              /* trainsize_tristate: fp32's matmuls and convolutions in TF32 */
    int fp8_recipe;        /* ts_fp8_recipe */
    int fp8_params;        /* fp8-mixed keeps no 16-bit copy of the weights */
    int fp8_act_store;     /* the MLP activation's input is saved in fp8 (any precision) */
    int fp8_attention;     /* fp8-mixed runs attention in fp8 and keeps its tensors so */
    int optimizer;         /* trainsize_optimizer */
    int framework;         /* trainsize_framework */
    int stack;             /* ts_stack */
    int grad_precision;    /* ts_grad_precision */
    int reduce_precision;  /* ts_grad_precision: the gradients' type on the wire */
    int loss_upcast;       /* the loss works on a 32-bit copy of the logits */
    int cross_entropy;     /* ts_cross_entropy: how the loss's kernel holds the logits */
    int autocast_ops;      /* 0: CUDA's autocast op lists, 1: CPU's */
    uint64_t dropout_mask_bytes;
    int mean_keeps_input;  /* torch <= 1.13 */
    /* Hardware and layout. */
    const trainsize_gpu_info *gpu; /* the catalogue's, or &custom_gpu */
    uint64_t gpu_memory;   /* 0: the catalogue's */
    double gpu_power_limit; /* watts per GPU; 0: the board's TDP */
    uint64_t gpus;
    uint64_t gpus_per_node; /* 0: min(gpus, 8) */
    uint64_t tp, pp, pp_interleave, cp, ep;
    uint64_t etp;          /* expert tensor parallelism; 0: tp */
    uint64_t pp_first_layers, pp_last_layers; /* 0: derived (even, or Megatron's uneven split) */
    int pp_account_embedding; /* trainsize_tristate: the embedding and the loss each take a layer's slot */
    int pp_schedule;       /* ts_pp_schedule */
    int sp;
    uint64_t zero;
    uint64_t shard_group;  /* data-parallel ranks one ZeRO/FSDP shard spans; 0: all (dp x cp) */
    int recompute;         /* trainsize_recompute */
    int recompute_given;   /* the caller set recompute (else it follows QLoRA: framework.c) */
    int step_overhead_given;      /* the caller set step-overhead: it no longer follows the model */
    int recompute_auto;    /* set on the pipeline's copy when it did follow QLoRA */
    uint64_t recompute_layers; /* layers of each (virtual) pipeline stage recompute applies
                                  to, the first ones (Megatron's block method); 0: all */
    int activation_offload;    /* the layers' saved activations go to pinned host memory */
    uint64_t mlp_tiles;        /* a dense MLP run over the sequence in tiles (TiledMLP); 1: untiled */
    unsigned recompute_modules; /* TS_RC_* bits: what selective recomputes */
    int attention;         /* trainsize_attention */
    int flash_kernel;      /* ts_flash_kernel */
    double dropout;
    int offload;           /* trainsize_offload */
    uint64_t lora_rank;
    unsigned lora_targets; /* TS_LORA_* bits */
    int quantize_base;     /* trainsize_quantize */
    int quantize_keeps_input; /* quantized linears keep their input (bitsandbytes) */
    double quantize_scratch;  /* bytes per element of quantizing a matrix on the GPU */
    int kbit_upcast;       /* trainsize_tristate: non-quantized weights upcast to fp32 (PEFT) */
    int embedding_state_fp32; /* trainsize_tristate: 8-bit optimizers keep 32-bit embedding state */
    int quant_state_replicated; /* trainsize_tristate: quantization scales on every rank, on the GPU */
    int base_dtype;        /* ts_base_dtype */
    int grad_sync;         /* ts_grad_sync */
    int fsdp_lora_wrap;    /* 0: adapters wrapped apart (PEFT's policy), 1: whole layers */
    int loading;           /* ts_loading */
    int load_dtype;        /* ts_base_dtype: the type the checkpoint is loaded in */
    /* Overheads and efficiency (documented defaults, overridable). */
    uint64_t cuda_context;      /* bytes per process */
    uint64_t comm_buffer;       /* bytes per communicator of more than one rank */
    double allocator_slack;     /* reserved-but-free share of the allocated peak */
    double host_memory_bandwidth; /* bytes/s per server, for CPU offload's optimizer step */
    double sharded_slack;       /* the same, for ZeRO-3/FSDP (gathers on their own stream) */
    double fragmentation;       /* of the allocated peak, what the allocator cannot reuse under pressure */
    uint64_t zero3_gather_layers;
    double hfu;                 /* achieved share of dense peak over executed FLOPs */
    double step_overhead;       /* seconds a step spends outside kernels and collectives, when given */
    double launch_overhead;     /* host seconds per kernel launch (overhead.c) */
    double step_sync;           /* host seconds once a step: the synchronisation, the next batch */
    int cuda_graphs;            /* the step replays a captured CUDA graph: no launches */
    double gpu_variation;       /* relative spread of the GPUs' speeds: a synchronous step waits
                                   for the slowest */
    double gemm_share;          /* of the GEMM ceiling, what a training step's matmuls keep */
    double fp8_gemm_share;      /* of that, what fp8 matmuls keep; 0: by recipe */
    double scale_up_efficiency; /* factor on the scale-up fabric's collective rate */
    double network_efficiency;  /* factor on the network's collective rate */
    /* The site calibration applied (calibration.c): runs 0 when none. */
    uint64_t calibration_runs;
    char calibration_gpus[TS_CALIBRATION_GPUS_MAX]; /* the GPUs its runs ran on, comma-separated */
    char calibration_date[TS_CALIBRATION_DATE_MAX]; /* YYYY-MM-DD, or "" */
    char calibration_text[TRAINSIZE_NAME_MAX]; /* what the result says of it */
    double calibration_loo_error; /* its runs' held-out median step error; 0: not given */
    /* Servers. */
    uint64_t data_loader_workers; /* per GPU */
    int sharded_loading;          /* ranks load only their shard of the weights */
    uint64_t host_ram;            /* the server's RAM when given; 0: size it */
    uint64_t cpu_cores;           /* the server's cores when given; 0: size them */
    uint64_t nics_per_node;       /* 0: one per GPU */
    const trainsize_link_info *network; /* NULL: choose */
    const trainsize_storage_info *storage; /* NULL: choose */
    double checkpoint_seconds;    /* target time to write a checkpoint */
    double comm_share;            /* share of a step communication may take */
    double collective_latency;    /* seconds per algorithm step of a collective */
    uint64_t moe_max_nodes;       /* node-limited expert routing (0: unlimited) */
    double moe_imbalance;         /* the most loaded expert's tokens over the mean (dropless) */
    int ep_overlap;               /* expert all-to-all hidden under compute (DualPipe) */
    int nvls;                     /* trainsize_tristate: NVLink SHARP all-reduces inside a server */
    int sharp;                    /* the network's switches reduce all-reduces (SHARP) */
    int dp_overlap;               /* trainsize_tristate: data-parallel traffic under compute */
    int tp_overlap;               /* trainsize_tristate: tensor-parallel traffic under the matmuls */
    int dp_nics;                  /* ts_dp_nics: the NICs data-parallel traffic uses */
    int fused_kernels;            /* trainsize_tristate: element-wise work in fused kernels */
    int fused_norm;               /* trainsize_tristate: the norms in one kernel each (auto: fused_kernels) */
    int fused_activation;         /* trainsize_tristate: the MLP's activation function in one kernel */
    int fused_rope;               /* trainsize_tristate: the rotary embedding in one kernel */
    int compile;                  /* torch.compile: Inductor fuses the element-wise work */
    int memory_format;            /* ts_memory_format: a ResNet's activations NCHW or channels-last */
    double conv_share;            /* a ResNet's convolutions' share of the GEMM ceiling; 0: by architecture */
    double headroom;              /* GPU memory to keep free, as a share */
    /* Power and cost. */
    double server_power_factor, pue, carbon_intensity;
    double gpu_hour_usd, gpu_price_usd, amortization_years, support_share, power_usd_per_kwh;
    double rack_power_watts;
    uint64_t servers_per_rack;    /* 0: from the rack's power budget and height */
    /* Buying against renting (docs/methodology.md, "Buy or rent"). */
    double utilization;           /* share of the year the owned cluster trains */
    double colo_usd_per_kw_month; /* facility rent per kW of IT load, power billed apart */
    double storage_usd_per_tb;    /* shared storage bought with several servers, per TB */
    /* Goodput: interruptions, checkpoints and restarts (docs/methodology.md, "Goodput"). */
    double interruptions_per_gpu_day;
    double restart_seconds;       /* an interruption to training again, lost work apart */
    double checkpoint_interval;   /* seconds between checkpoints; 0: Young/Daly's optimum */
    int checkpoint_async;         /* the step waits only for the copy to host memory */
    uint64_t spare_nodes;         /* servers bought beside the job's, idle until one fails */
    /* The dataset (docs/methodology.md, "Storage"). */
    uint64_t dataset_bytes;       /* as stored; 0: the run's tokens as 4-byte ids */
    uint64_t sample_bytes;        /* one sample as read (an image, a clip); 0: token ids */
    double epochs;                /* passes over the dataset; 0: the tokens setting */
    int largest_fit;              /* search memory.max_micro_batch and memory.max_seq */
    uint64_t local_cache_bytes;   /* each server's NVMe cache, for a staged copy of the dataset */
    int method;                   /* ts_method */
    int reference;                /* ts_reference */
    /* RL post-training (grpo, ppo): the rollout engine that generates the responses. */
    uint64_t group_size;          /* responses generated per prompt */
    uint64_t response_tokens;     /* generated tokens of each sequence; 0: half of seq */
    int rollout;                  /* ts_rollout */
    double rollout_memory_share;  /* of the GPU's memory, what the engine takes */
    uint64_t rollout_tp;          /* tensor parallelism of the engine */
    uint64_t rollout_pp;          /* pipeline parallelism of the engine (its stages) */
    int rollout_sleep;            /* the engine frees its weights and KV cache while training */
    uint64_t rollout_gpus;        /* rollout separate: the engines' GPUs beside the training ones */
    uint64_t response_tokens_mean; /* the responses' mean length; 0: response-tokens */
    /* Padding, packing and token budgets (tokens.c). */
    int packing;                  /* padding removed: samples packed into rows */
    uint64_t sample_tokens;       /* a sequence's real tokens on average; 0: seq */
    uint64_t max_tokens_per_gpu;  /* micro-batches of at most this many tokens a GPU; 0: off */
    uint64_t log_prob_max_tokens; /* RL's log-probability passes' tokens a GPU; 0: the training
                                     micro-batch's */
    const ts_model *teacher;      /* distill: the teacher, a preset; NULL: none */
    const ts_model *critic;       /* ppo: the critic, a preset; NULL: the policy's shape */
    const ts_model *reward;       /* grpo, ppo: a reward model, a preset; NULL: a rule */
    /* Where ppo's critic and a reward model run, and how they are sharded (side_models.c). */
    uint64_t critic_gpus;         /* the critic's own GPUs; 0: the policy's */
    int critic_zero;              /* 0: the policy's ZeRO stage; else stage + 1 */
    int critic_offload;           /* 0: the policy's offload; else trainsize_offload + 1 */
    uint64_t reward_gpus;         /* the reward model's own GPUs; 0: the policy's */
    int reward_zero;              /* 0: the policy's ZeRO stage; else stage + 1 */
    int reward_offload;           /* its weights on the host between its forwards */
    /* A multimodal model's images (vision.c). */
    uint64_t images;              /* per sample (tiles for tiled models) */
    int freeze_vision;            /* the vision tower frozen; the projector trains */
    /* Planning. */
    struct ts_gpu_price {
        char name[48];
        double hourly, purchase;  /* 0: not given */
    } gpu_prices[16];
    size_t gpu_price_count;
    double server_share;          /* owned: the rest of a server, as a share of its GPUs' price */
    double network_usd_per_gpu;   /* owned: NIC and switch ports per GPU, several servers */
    double host_ram_factor;     /* host RAM >= factor x node GPU memory */
    uint64_t checkpoints_kept;
} ts_settings;

#endif

/* The stages of an estimate and the types they pass along, in the order the pipeline
 * (estimate.c) runs them: layout, conventions, memory per pipeline stage, compute,
 * servers and communication, time, power and cost, warnings. Each stage reads the
 * settings and the results of the stages before it, all const, and fills its own
 * struct; none sees the job (job.h) or calls back into the pipeline
 * (tests/layering.sh checks). */
#ifndef TS_STAGES_H
#define TS_STAGES_H

#include "settings.h"
#include "model.h"

/* Parallel layout, validated and derived. */
typedef struct ts_layout {
    uint64_t gpus, tp, pp, vpp, cp, ep, dp;
    uint64_t etp;           /* expert tensor parallelism (tp unless folded) */
    uint64_t dense_shard;   /* ranks sharing dense model state under ZeRO: dp * cp, or shard-group */
    uint64_t expert_shard;  /* ranks sharing expert state: tp * cp * dp / (ep * etp) */
    uint64_t shard_replicas; /* copies of the ZeRO shard group (hybrid sharding): dp * cp / dense_shard */
    uint64_t micro_batches; /* per optimizer step per data-parallel rank */
    uint64_t global_batch;
    const char *global_batch_reason; /* the option, or the default's rule (static text) */
    int pretraining_batch;  /* the default chose a pretraining batch (--tokens, no LoRA) */
    uint64_t gpus_per_node, nodes;
    uint64_t layers_per_stage; /* the most of any stage (a middle one when uneven) */
    uint64_t first_layers, mid_layers, last_layers; /* stage 0, stages 1..p-2, stage p-1 */
    int embedding_slots;    /* the embedding and the loss each took a layer's place in the split */
    int schedule;           /* resolved ts_pp_schedule (1F1B without a pipeline) */
    double bubble;          /* the step's compute over the ideal: 1 + the schedule's bubble */
    int sp;                 /* sequence parallel with tp > 1 */
    uint64_t capacity;      /* GPU memory, bytes */
    /* Figures every later stage uses, derived once here. */
    uint64_t micro_batch;   /* samples per micro-batch */
    uint64_t zero;          /* ZeRO stage */
    int fsdp_pipeline;      /* FSDP with a pipeline (torchtitan): the stage's weights stay gathered
                               and its gradients unsharded through the step */
    double tokens_mb;       /* tokens of one micro-batch on one GPU: seq / cp x micro-batch
                               x seqs_per_sample */
    uint64_t seqs_per_sample; /* sequences a sample trains on: 2 under DPO (chosen, rejected) */
    int reference;          /* ts_reference resolved: TS_REF_AUTO (none) outside DPO */
    double lora_layer;      /* trainable LoRA parameters of one layer, unsharded; 0 without */
    int recompute_on;       /* a recomputation policy applies (recompute is not none) */
    uint64_t recompute_layers; /* per (virtual) stage it applies to, the first ones; 0: all */
    double recompute_share; /* the model's layers it applies to, as a share (0 with none) */
} ts_layout;

int ts_layout_make(const ts_settings *cfg, ts_layout *out, trainsize_error *err);
/* A ts_pp_schedule's name, as the pp-schedule option spells it. */
const char *ts_pp_schedule_name(int schedule);
/* Layers of one pipeline stage, and how many of them have experts (an MoE model's first
 * layers may be dense, or only every n-th layer MoE). */
uint64_t ts_stage_layers(const ts_layout *lay, uint64_t stage);
uint64_t ts_stage_moe_layers(const ts_layout *lay, const ts_model *m, uint64_t stage);
/* Layers of one pipeline stage that the recomputation policy applies to: all of them, or
 * recompute-layers of each of its (virtual) stages; 0 with recompute none. */
uint64_t ts_stage_recomputed_layers(const ts_layout *lay, uint64_t stage);

/* Bytes per element/parameter under the job's precision, optimizer and framework, and
 * what the framework's kernels keep for backward. See docs/methodology.md. */
typedef struct ts_conv {
    double weight;        /* trainable weights as held (16-bit copy, or fp32) */
    double weight_compute;/* weights as the matmuls read them (ZeRO-3 gathers) */
    double grad;
    double master;        /* fp32 master copy (0 when the weights are the master) */
    double state;         /* optimizer state per trainable parameter */
    double embedding_state; /* the same for the token embedding (full fine-tuning) */
    int adafactor;        /* state is factored: see ts_adafactor_elements */
    double act;           /* activation element */
    double residual;      /* residual-stream element (fp32 under autocast with fp32 weights) */
    double linear_in;     /* saved linear-layer input (fp8: 1 byte) */
    double frozen_layer;  /* frozen base weight (LoRA), per parameter of the layers */
    double frozen_other;  /* frozen embeddings and norms */
    double adapter_weight, adapter_grad, adapter_state;
    int grads_persistent; /* gradient buffers live through forward (not set_to_none) */
    double optimizer_temp;/* step temporaries per local trainable parameter, bytes */
    int autocast_copies;  /* autocast keeps 16-bit copies of fp32 weights for backward */
    int ddp_buckets;      /* DDP bucket copy of the gradients */
    double bucket_bytes;  /* its bytes per parameter; 0: the gradients' own */
    double reduce;        /* bytes per gradient element in the data-parallel reduction */
    double step_flat;     /* bytes per stage parameter of the flat buffers the optimizer step
                             builds (nanotron's ZeRO-1 weight gather): segments of their own */
    double grad_copy;     /* bytes per parameter of a 16-bit gradient beside the accumulation
                             buffer at the end of a backward (nanotron) */
    /* kernels */
    double norm_saved;    /* bytes saved per element of a norm's input */
    double gelu_bytes;    /* bytes per ffn element kept by a non-gated activation */
    double glu_saved;     /* ffn-wide tensors saved by a gated activation */
    double glu_elem;      /* bytes of each of those elements (fp8-activation-store: 1) */
    double attn_saved;    /* bytes per element of the q, k, v and output flash attention
                             keeps (fp8-attention: 1) */
    double softmax_saved; /* bytes per attention score (eager) */
    int attn_out_copy;    /* a contiguous copy of the attention output is saved too */
    double loss_saved;    /* bytes per logit kept for the loss backward */
    double loss_backward; /* bytes per logit alive during the loss backward */
    int loss_fused;       /* a fused linear + loss keeps the output layer input's gradient */
    int qkv_view_kept;    /* the qkv projection's output stays alive beside the rotated q, k */
    double dropout_mask;  /* bytes per element of a kept dropout mask */
    int residual_dropout; /* masks on the residual branches and embeddings too */
    double qkv_in_copies; /* copies of the q/k/v projections' input kept */
    double fc1_in_copies; /* copies of the gate/up projections' input kept */
    int mask_held;        /* a 4-D causal mask stays alive with full recomputation */
    /* framework and the mechanisms it decides (docs/methodology.md, "Which framework") */
    int framework;              /* resolved ts_framework (never TS_FW_AUTO) */
    const char *framework_reason; /* static text: why that framework */
    int stack;                  /* resolved ts_stack (never TS_STACK_AUTO) */
    const char *stack_reason;   /* static text: why that stack */
    /* what the stack sets where the job leaves the setting auto */
    int fused;                  /* element-wise work in fused kernels */
    int fused_norm, fused_act, fused_rope; /* those kernel groups fused (each its own option) */
    int dp_overlap;             /* ts_tristate: TS_AUTO keeps Megatron-LM's (overlap without a pipeline) */
    int tp_overlap;             /* tensor-parallel traffic under the matmuls */
    int dp_nics_own;            /* data-parallel traffic on each rank's own NIC share */
    int grad_sync_step;         /* sharded gradients accumulate unsharded until the step */
    int quant_keeps_input;      /* quantized frozen linears keep their input for backward */
    double dequant;             /* bytes per element of a dequantized weight (transient) */
    double quant_state;         /* of frozen_layer, the scales no rank shards or offloads */
    double layer_copy;          /* bytes of the 16-bit copy autocast keeps per fp32 layer weight */
    double output_copy;         /* the same for the output layer's weight */
    int root_unsharded;         /* FSDP keeps its root unit (embeddings, output layer) gathered */
    int lora_unit_grads;        /* FSDP flat gradient buffers span whole layers (LoRA) */
    double load;                /* bytes per parameter loaded onto the GPU (0: loaded via CPU) */
} ts_conv;

/* The framework whose conventions apply (TS_FW_AUTO resolved from the cfg), and why. */
int ts_framework_resolve(const ts_settings *cfg, const char **reason);
/* fp8-mixed: the recipe (auto resolved by the GPU) and the bytes per weight of its cached
 * fp8 copies (conventions.c). */
int ts_fp8_recipe_resolve(const ts_settings *cfg);
/* A ts_fp8_recipe's name, as the fp8-recipe option spells it ("auto" for TS_FP8_AUTO). */
const char *ts_fp8_recipe_name(int recipe);
double ts_fp8_weight_bytes(const ts_settings *cfg);
/* 1 when attention runs in fp8 (fp8-attention under fp8-mixed, flash kernel). */
int ts_fp8_attention(const ts_settings *cfg);
/* The training stack (TS_STACK_AUTO resolved from the framework and the job), and why. */
int ts_stack_resolve(const ts_settings *cfg, const char **reason);
const char *ts_stack_name(int stack);
/* 1 when the job is QLoRA under the pytorch conventions and the caller left recompute
 * unset: PEFT's prepare_model_for_kbit_training turns gradient checkpointing on (full
 * recomputation), so the estimate does too. */
int ts_framework_qlora_recomputes(const ts_settings *cfg);
/* The framework's option name ("megatron", "deepspeed", "pytorch"). */
const char *ts_framework_name(int framework);

int ts_conv_make(const ts_settings *cfg, const ts_layout *lay, ts_conv *out, trainsize_error *err);
/* What runs fused, in words for the result: "fused", "eager", or one of them with the
 * kernel groups that differ ("eager but fused norm,activation,rope"). */
void ts_conv_kernels_text(const ts_conv *c, char *dst, size_t cap);


/* Per-op selective checkpointing (recompute.c): the layer's matmuls (an MoE layer's when
 * `moe`; at most TS_LAYER_MMS_MAX) with, for each, 1 when the policy keeps its output and
 * 0 when it recomputes it; returns how many. */
size_t ts_per_op_layer(const ts_settings *cfg, int moe, ts_layer_mm *mm, int *saved);
/* The policy over any list of a block's matmuls in forward order: a router's gate
 * (TS_MM_ROUTER: torchtitan's force-recomputed shapes) and experts recomputed, a biased or
 * `scaled` (fp8) one kept, the plain ones kept and recomputed in turn, the first kept. */
void ts_per_op_policy(const ts_layer_mm *mm, size_t n, int scaled, int *saved);
/* Forward FLOPs per token the policy computes again in one layer: its recomputed matmuls
 * (pointwise ops are memory-bound and counted as none). */
double ts_per_op_recompute_flops(const ts_settings *cfg, int moe);
/* The modules selective recomputation drops from what a layer keeps (recompute-modules
 * under recompute selective; none otherwise): TS_RC_* bits. */
unsigned ts_recompute_dropped(const ts_settings *cfg, int recompute);
/* Forward FLOPs per token of one layer (an MoE layer's when `moe`) that selective
 * recomputation's matmul modules compute again: MLA's up-projections, a dense MLP, an MoE
 * layer (core_attn is attention's, counted with it; the others are element-wise). */
double ts_recompute_module_flops(const ts_settings *cfg, int moe);
/* 1 when the recomputation repeats matmuls (full, per-op), so that it needs the weights
 * again (ZeRO-3 gathers them again) and repeats the element-wise work around them. */
int ts_recompute_repeats_matmuls(const ts_settings *cfg);

/* Activations of one stage. */
typedef struct ts_activations {
    double per_layer;          /* one layer, one micro-batch, as stored */
    double per_layer_full;     /* one layer, one micro-batch, nothing recomputed */
    double layers;             /* all layers of the stage, all in-flight micro-batches */
    double embedding;
    double output;             /* final norm, output layer input, loss */
    double loss;               /* of which: what the loss keeps of the logits */
    double in_flight;
    double loss_backward;      /* transient while the loss backward runs */
    double recompute;          /* transient: one layer recomputed (full, per-op) */
    double offloaded;          /* of the layers, what activation-offload keeps in host memory */
    double offload_moved;      /* bytes one micro-batch moves to the host and back (each way) */
    double recomputed_layers;  /* layers of the stage the recomputation applies to */
} ts_activations;

void ts_activations_stage(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                          uint64_t stage, ts_activations *out);

/* Per-GPU memory of one pipeline stage, in bytes (double until checked). */
typedef struct ts_stage_memory {
    double weights, gradients, master, states, optimizer;
    double activations, act_layers, act_embedding, act_output, act_loss, act_per_layer, in_flight;
    double transient, peak_allocated;
    double cuda_context, comm_buffers, allocator_slack, overhead, peak_total;
    double host_offload;
    double act_offloaded, act_offload_moved; /* activation-offload: in host memory; per micro-batch */
    double recomputed_layers;
    double reference;          /* of weights: DPO's frozen reference model on this rank */
    double load_peak;          /* loading the weights onto the GPU (0: through the host) */
    int peak_phase;
    int peak_has_activations, peak_has_gradients;
} ts_stage_memory;

void ts_memory_stage(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                    const ts_param_counts *pc, uint64_t stage, ts_stage_memory *out);

/* A figure in whole bytes (rounded up) into *out; too large a figure fails naming the
 * input that drives it (`input`) and the result (`result`). */
int ts_result_bytes(double v, uint64_t *out, const char *result, const char *input,
                    trainsize_error *err);
/* The most loaded stage's memory (every stage that can be it sized, the largest kept) in
 * whole bytes, as trainsize_result.memory reads it; `worst` receives that stage's sizes.
 * max_micro_batch and max_seq are left 0. Fails naming the input a figure overflows on. */
int ts_memory_result(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv,
                     const ts_param_counts *pc, ts_stage_memory *worst, trainsize_memory *m,
                     trainsize_error *err);
/* memory.max_micro_batch and memory.max_seq: the largest that fit with everything else as
 * `cfg` gives it (its layout `lay`), each found by memory estimates of its own. */
void ts_largest_fit(const ts_settings *cfg, const ts_param_counts *pc, const ts_layout *lay,
                    trainsize_memory *m);

/* Compute of one optimizer step and of the run, before communication and offload. */
typedef struct ts_compute {
    double step_flops, flops, model_flops; /* executed per step; executed and model's per run */
    double step_seconds;   /* compute of one step's micro-batches, the pipeline bubble included */
    double serial_seconds; /* after them: the optimizer step and the step's fixed overhead */
    double tokens;         /* tokens of the run, in whole steps */
    uint64_t steps;
} ts_compute;

int ts_compute_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                    const ts_conv *conv, const trainsize_memory *mem, ts_compute *out,
                    trainsize_error *err);

/* What the stages found that a warning reports; warnings.c turns them into bits. */
typedef struct ts_findings {
    int host_ram_short, host_ram_below_rule, cpu_cores_short, storage_short;
    int network_short, slow_multinode, gpu_link_short, no_price;
    int small_batch; /* the data-parallel sync exposed outlasts the compute of a step */
    int storage_not_shared; /* several servers on a storage class that is not shared */
} ts_findings;

/* Per step, what compute does not hide: communication and CPU offload, seconds; and,
 * once a checkpoint, the copy of each GPU's shard to host memory (checkpoint-async). */
typedef struct ts_step_losses {
    double comm, offload;
    double checkpoint_copy;
} ts_step_losses;

/* The dataset (dataset-bytes, sample-bytes, epochs). With epochs, the run's tokens (set
 * into *tokens; unchanged without epochs); fails naming the option that conflicts. */
int ts_dataset_run_tokens(const ts_settings *cfg, uint64_t *tokens, trainsize_error *err);
/* The dataset as stored, bytes: dataset-bytes, or what the run's tokens read. */
double ts_dataset_bytes(const ts_settings *cfg, double run_tokens);
/* Bytes read from storage per token trained. */
double ts_dataset_read_per_token(const ts_settings *cfg);

/* Servers, links and the communication a step exposes on them. */
int ts_system_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                   const ts_conv *conv, const trainsize_memory *mem, const ts_compute *cmp,
                   trainsize_system *out, ts_step_losses *losses, ts_findings *found,
                   trainsize_error *err);

/* Per step, the activation offload's transfers (activation-offload) that the compute of
 * each micro-batch does not hide, for `moved_per_micro` bytes each way per micro-batch. */
double ts_activation_offload_seconds(const ts_settings *cfg, const ts_layout *lay,
                                     double moved_per_micro, const ts_compute *cmp);

/* The run's time: compute plus the step's losses. Final when it returns. */
void ts_time_make(const ts_compute *cmp, const ts_step_losses *losses, const ts_layout *lay,
                  trainsize_time *out);

/* The run on a cluster that fails: checkpoint interval and stall, interruptions, wall
 * time, goodput; the GPU-hours follow the wall time. Fails naming
 * interruptions-per-gpu-day when the run would never finish. */
int ts_goodput_make(const ts_settings *cfg, const ts_layout *lay, const trainsize_system *sys,
                    const ts_step_losses *losses, trainsize_time *t, trainsize_error *err);

/* Power, heat, energy, CO2 and cost, from the time's GPU-hours; the purchase against
 * renting (capex, per month, break-even). */
void ts_power_cost(const ts_settings *cfg, const ts_layout *lay, const trainsize_time *tm,
                   trainsize_system *sys, ts_findings *found);

/* The facility: racks, their power and cooling, the servers' power supplies, the fabric's
 * switches. After ts_power_cost (it reads the server's power). */
void ts_facility_make(const ts_settings *cfg, const ts_layout *lay, trainsize_system *sys);
/* Servers bought and racked: the job's and the spares, in whole racks for a rack-scale
 * product (an NVL72 is sold as a rack). */
uint64_t ts_facility_servers(const ts_settings *cfg, const ts_layout *lay);
/* Energy in kWh of GPU-hours at a power per GPU (watts) and a PUE. */
double ts_energy_kwh(double gpu_hours, double watts_per_gpu, double pue);

/* The checklist warnings that depend on the whole result. */
void ts_warnings_make(const ts_settings *cfg, const ts_layout *lay, const trainsize_result *r,
                      const ts_findings *found, uint64_t *warnings);

/* The links a step's collectives run on: per GPU, per direction, as achieved. */
typedef struct ts_comm_links {
    double intra;          /* NVLink-class (or PCIe) rate inside a server */
    double net_per_gpu;    /* the GPU's share of the server's NICs; 0 on one server */
    double gpus_per_node;  /* GPUs the fabric joins: a server's, or an NVL72 rack's */
    double bridge;         /* GPUs one NVLink bridge joins (PCIe pairs: 2); 0: no limit */
    double pcie;           /* the PCIe rate wider groups of bridged cards fall back to */
    double nvls;           /* all-reduce rate with NVLink SHARP inside a server; 0: ring */
    int sharp;             /* the network's switches reduce (InfiniBand SHARP) */
} ts_comm_links;

/* Communication of one step that compute does not hide, by parallelism, and the bytes
 * each GPU moves inside its server and across servers (for the links' needs). */
typedef struct ts_comm {
    double tp_seconds, pp_seconds, cp_seconds, ep_seconds, dp_seconds, exposed;
    double intra_bytes_per_gpu, inter_bytes_per_gpu;
} ts_comm;

void ts_comm_make(const ts_settings *cfg, const ts_layout *lay, const ts_param_counts *pc,
                  const ts_conv *c, double compute_step, const ts_comm_links *links, ts_comm *out);

/* Seconds the job's GPUs take to compute one token (kernels.c): executed matmul and
 * attention FLOPs per token at the matmul and attention peaks given, and the element-wise
 * work at memory bandwidth; with hfu set, every FLOP at that share of the peak. */
double ts_kernel_token_seconds(const ts_settings *cfg, const ts_layout *lay, const ts_conv *conv, double mm,
                               double at, double peak_mm, double peak_at);
/* A dense layer's matmul time over its compute-bound time (>= 1) for one micro-batch on
 * one rank, each GEMM at the longer of its FLOPs at `rate` (FLOP/s) and its bytes at `bw`
 * (bytes/s): the roofline (kernels.c). */
double ts_kernel_gemm_roofline(const ts_settings *cfg, const ts_layout *lay, const ts_conv *c, double rate,
                               double bw);
/* Seconds of one optimizer step on a GPU: its shard of the weights, gradients and optimizer
 * state read and written at memory bandwidth (kernels.c); 0 with hfu set. */
double ts_kernel_optimizer_seconds(const ts_settings *cfg, const ts_conv *conv, const trainsize_memory *mem);

/* The prices of a GPU for a job: a gpu-prices entry, else gpu-hour-usd/gpu-price-usd,
 * else the catalogue's (0: none). */
void ts_gpu_prices(const ts_settings *cfg, const trainsize_gpu_info *gpu, double *hourly, double *price);

#endif

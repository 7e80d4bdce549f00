/* Byte conventions: how many bytes each copy of a parameter, gradient, optimizer state
 * and activation takes under a precision, an optimizer and a framework, and what each
 * framework's kernels keep for backward. Every number here is named and sourced in
 * docs/methodology.md ("Byte conventions"). */
#include <string.h>

#include "catalog.h"
#include "error.h"
#include "stages.h"

/* bitsandbytes' blockwise 8-bit optimizers keep one fp32 absmax per block of 256 values
 * for each of the two states (bitsandbytes functional.py, optimizer_update_8bit_blockwise). */
#define TS_BNB_BLOCK 256.0
/* QLoRA (Dettmers et al. 2023, §3): NF4 with double quantization costs 4 + 8/64 +
 * 32/(64*256) = 4.127 bits per parameter. */
#define TS_NF4_BITS (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0))
/* LLM.int8 (bitsandbytes Linear8bitLt): 1 byte per weight plus a row-wise fp32 scale; the
 * scale is ~4/hidden bytes per parameter and is added by the caller. */
#define TS_INT8_BYTES 1.0

static int is_mixed(int p)
{
    return p == TRAINSIZE_PRECISION_BF16_MIXED || p == TRAINSIZE_PRECISION_FP16_MIXED ||
           p == TRAINSIZE_PRECISION_FP8_MIXED;
}

/* Optimizer states per parameter, in units of the state element. */
static double state_count(int optimizer)
{
    switch (optimizer) {
    case TRAINSIZE_OPTIMIZER_ADAMW:
    case TRAINSIZE_OPTIMIZER_ADAM: return 2.0;   /* exp_avg, exp_avg_sq */
    case TRAINSIZE_OPTIMIZER_SGD_MOMENTUM:
    case TRAINSIZE_OPTIMIZER_LION: return 1.0;   /* momentum buffer / Lion's exp_avg */
    default: return 0.0;            /* SGD; Adafactor and 8-bit Adam are handled apart */
    }
}

/* An auto|yes|no setting: yes, or auto where the framework's default is on. */
static int tristate_on(int setting, int auto_default)
{
    return setting == TRAINSIZE_TRISTATE_YES || (setting == TRAINSIZE_TRISTATE_AUTO && auto_default);
}

static void set_model_state_bytes(const ts_settings *cfg, int fw, ts_conv *c)
{
    int p = cfg->precision;
    double state_elem = (p == TRAINSIZE_PRECISION_BF16 || p == TRAINSIZE_PRECISION_FP16) ? 2.0 : 4.0;
    if (ts_precision_fp32(p)) {
        c->weight = c->weight_compute = 4.0;
        c->grad = 4.0;
        c->master = 0.0;
    } else if (!is_mixed(p)) { /* pure 16-bit: weights, grads and states in that type */
        c->weight = c->weight_compute = 2.0;
        c->grad = 2.0;
        c->master = 0.0;
    } else if (fw == TRAINSIZE_FRAMEWORK_PYTORCH) { /* autocast: the fp32 parameters are the master copy */
        c->weight = 4.0;
        c->weight_compute = 2.0;
        c->grad = 4.0;
        c->master = 0.0;
    } else { /* Megatron-LM and DeepSpeed: 16-bit weights + fp32 master in the optimizer */
        c->weight = 2.0;
        c->weight_compute = 2.0;
        c->grad = fw == TRAINSIZE_FRAMEWORK_MEGATRON ? 4.0 : 2.0; /* main_grad in fp32 vs ZeRO paper's 2Ψ */
        c->master = 4.0;
    }
    /* Transformer Engine's cached fp8 weights */
    if (p == TRAINSIZE_PRECISION_FP8_MIXED && fw != TRAINSIZE_FRAMEWORK_PYTORCH) {
        if (cfg->fp8_params && c->master > 0.0) c->weight = 0.0; /* no 16-bit copy beside the master */
        c->weight += ts_fp8_weight_bytes(cfg);
    }
    if (cfg->grad_precision == TS_GRAD_FP32) c->grad = 4.0;
    if (cfg->grad_precision == TS_GRAD_HALF) c->grad = 2.0;
    c->adafactor = cfg->optimizer == TRAINSIZE_OPTIMIZER_ADAFACTOR;
    if (cfg->optimizer == TRAINSIZE_OPTIMIZER_ADAMW_8BIT)
        c->state = 2.0 * (1.0 + 4.0 / TS_BNB_BLOCK);
    else
        c->state = state_count(cfg->optimizer) * state_elem;
    if (c->adafactor) c->state = state_elem; /* per factored element */
    /* The Hugging Face Trainer overrides bitsandbytes' 8-bit state to 32-bit for every
     * nn.Embedding (transformers trainer.py, create_optimizer): two fp32 states. */
    c->embedding_state = c->state;
    if (cfg->optimizer == TRAINSIZE_OPTIMIZER_ADAMW_8BIT &&
        tristate_on(cfg->embedding_state_fp32, fw == TRAINSIZE_FRAMEWORK_PYTORCH))
        c->embedding_state = 8.0;
}

/* fp8-attention applies to fp8-mixed training with a flash kernel only. */
int ts_fp8_attention(const ts_settings *cfg)
{
    return cfg->fp8_attention && cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED &&
           cfg->attention == TRAINSIZE_ATTENTION_FLASH;
}

/* The recipe fp8-mixed runs: auto is MXFP8 on Blackwell (Transformer Engine's default
 * there), delayed scaling elsewhere. */
int ts_fp8_recipe_resolve(const ts_settings *cfg)
{
    if (cfg->fp8_recipe != TS_FP8_AUTO) return cfg->fp8_recipe;
    return ts_arch_is(cfg->gpu, "Blackwell") ? TS_FP8_MXFP8 : TS_FP8_DELAYED;
}

const char *ts_fp8_recipe_name(int recipe)
{
    /* in the enum's order, then "" for a value out of range */
    static const char NAMES[][TS_NAME_WIDTH(fp8_recipe)] = {TS_FP8_RECIPE_LIST(TS_NAME_ITEM) ""};
    return NAMES[recipe >= 0 && recipe < TS_FP8_RECIPE_COUNT ? recipe : TS_FP8_RECIPE_COUNT];
}

/* Bytes per weight of Transformer Engine's fp8 copies: the row-wise copy the forward's GEMM
 * reads and a column-wise one for the backward's, since Hopper's (and Ada's) fp8 GEMMs take
 * one layout only and MXFP8's 1x32 scales run along one direction (each with a byte of scale
 * per 32); per-tensor scaling on Blackwell reads either layout from one copy. */
double ts_fp8_weight_bytes(const ts_settings *cfg)
{
    int recipe = ts_fp8_recipe_resolve(cfg);
    if (recipe == TS_FP8_MXFP8) return 2.0 * (1.0 + 1.0 / 32.0);
    return ts_arch_is(cfg->gpu, "Blackwell") && recipe != TS_FP8_BLOCKWISE && recipe != TS_FP8_ROWWISE ? 1.0 : 2.0;
}

/* LoRA: the base is frozen (no gradient, no optimizer state); adapters are trained in
 * fp32 under mixed precision (PEFT's autocast_adapter_dtype), else in the model's type.
 * The unquantized base is 16-bit unless the job loads it in fp32; PEFT's
 * prepare_model_for_kbit_training (peft/utils/other.py) casts every weight that is not
 * quantized (embeddings, norms, output layer) to fp32. */
static void set_lora_bytes(const ts_settings *cfg, int upcast, ts_conv *c)
{
    int p = cfg->precision;
    double base = ts_precision_fp32(p) ? 4.0 : 2.0;
    double adapter = (p == TRAINSIZE_PRECISION_BF16 || p == TRAINSIZE_PRECISION_FP16) ? 2.0 : 4.0;
    if (cfg->base_dtype == TS_BASE_FP32) base = 4.0;
    if (cfg->base_dtype == TS_BASE_16BIT) base = 2.0;
    c->frozen_other = upcast ? 4.0 : base;
    c->frozen_layer = base;
    if (p == TRAINSIZE_PRECISION_FP8_MIXED && cfg->fp8_params) c->frozen_layer = ts_fp8_weight_bytes(cfg);
    if (cfg->quantize_base == TRAINSIZE_QUANTIZE_NF4) c->frozen_layer = TS_NF4_BITS / 8.0;
    if (cfg->quantize_base == TRAINSIZE_QUANTIZE_INT8)
        c->frozen_layer = TS_INT8_BYTES + 4.0 / (double)cfg->model.hidden;
    c->adapter_weight = adapter;
    c->adapter_grad = adapter;
    c->adapter_state = c->state; /* same optimizer, same state bytes */
}

/* torchtune's CEWithChunkedOutputLoss splits the sequence into 8 chunks. */
#define TS_CE_CHUNKS 8.0

/* What the kernels keep for backward. Megatron-LM: fused kernels (Korthikanti et al. 2022,
 * §4). PyTorch eager / Hugging Face modules: see methodology.md for each count. */
void ts_conv_set_kernels(const ts_settings *cfg, ts_conv *c)
{
    const ts_model *m = &cfg->model;
    /* the stack's kernels (fused-kernels): fused ones keep what Megatron-LM's keep */
    int eager = !c->fused;
    int cpu_autocast = c->autocast_copies && cfg->autocast_ops == 1;
    c->act = ts_precision_fp32(cfg->precision) ? 4.0 : 2.0;
    /* Under autocast with fp32 weights the embedding output and every residual add stay
     * fp32; only the matmuls' outputs are 16-bit. */
    c->residual = c->autocast_copies ? 4.0 : c->act;
    /* Under fp8 a linear keeps its input for the weight gradient: Transformer Engine (the
     * megatron and deepspeed conventions, as for its cached weights) keeps the fp8 cast;
     * torchao's float8 (pytorch) keeps the high-precision input and casts it again in the
     * backward (matmul_with_hp_or_float8_args, torchao/float8/float8_linear.py). */
    c->gemm_in = cfg->precision == TRAINSIZE_PRECISION_FP8_MIXED ? 1.0 : c->act;
    c->linear_in = c->framework != TRAINSIZE_FRAMEWORK_PYTORCH ? c->gemm_in : c->act;
    c->glu_elem = cfg->fp8_act_store ? 1.0 : c->act;
    c->attn_saved = ts_fp8_attention(cfg) ? 1.0 : c->act;
    c->dropout_mask = (double)cfg->dropout_mask_bytes;
    c->qkv_in_copies = c->fc1_in_copies = 1.0;
    c->residual_dropout = !eager || m->residual_dropout; /* Megatron: hidden dropout always */
    if (c->fused_norm) {
        c->norm_saved = c->act;
    } else {
        /* HF RMSNorm upcasts: keeps its fp32 input (pow, mul) and the normalised tensor in
         * the input's type; torch <= 1.13's mean() keeps x^2 too. nn.LayerNorm keeps its
         * input. */
        c->norm_saved = m->norm == TRAINSIZE_NORM_RMSNORM
                            ? 4.0 + c->residual + (cfg->mean_keeps_input ? 4.0 : 0.0)
                            : c->residual;
    }
    if (c->fused_act) {
        c->gelu_bytes = c->act;  /* bias-GeLU fusion keeps the GeLU input */
        c->glu_saved = 2.0;      /* fused SwiGLU keeps gate and up outputs */
    } else {
        /* gelu_new in elementwise ops keeps x (pow), tanh's output, 0.5x and 1 + tanh.
         * CUDA autocast runs pow in fp32, so x is kept as an fp32 copy and tanh and 1 + tanh
         * come out fp32; CPU autocast keeps them all 16-bit. PyTorch's own GELU keeps its
         * input. */
        c->gelu_bytes = !ts_model_gelu_formula(m)                 ? c->act
                        : c->autocast_copies && !cpu_autocast ? 4.0 + 4.0 + c->act + 4.0
                                                              : 4.0 * c->act;
        c->glu_saved = 3.0;      /* act(gate) * up: gate, act(gate), up */
    }
    if (!eager) {
        /* nanotron (huggingface/nanotron@0e0a27e, models/llama.py) keeps the qkv output
         * alive through flash-attn's view */
        c->qkv_view_kept = c->stack == TS_STACK_NANOTRON;
        c->softmax_saved = c->act;
        c->attn_out_copy = 0;
        c->loss_backward = c->act; /* gradient computed in place, cast for the output layer */
    } else {
        double fp32 = 4.0;
        /* The rotary (Llama) lineage asks softmax for fp32 explicitly and casts back for
         * the matmul; GPT-2 leaves it to autocast, which upcasts on CUDA, not on CPU. */
        if (c->act >= fp32)
            c->softmax_saved = fp32;
        else if (m->positions == 0 || (c->autocast_copies && !cpu_autocast))
            c->softmax_saved = fp32 + c->act;
        else
            c->softmax_saved = c->act;
        c->attn_out_copy = 1;    /* transpose(1, 2).contiguous() before o_proj */
        c->loss_backward = 8.0;  /* nll and log_softmax gradients, fp32 */
        /* Autocast casts each linear layer's input itself (only weights are cached), so
         * separate q, k, v (gate, up) projections of the fp32 residual keep one copy each. */
        if (c->autocast_copies) {
            c->qkv_in_copies = m->fused_qkv ? 1.0 : 3.0;
            c->fc1_in_copies = (m->gated_mlp && !m->fused_gate_up) ? 2.0 : 1.0;
        }
        /* With full recomputation the rotary lineage's 4-D causal mask (eager attention) is
         * an input of every checkpointed layer and stays alive. */
        c->mask_held = cfg->attention == TRAINSIZE_ATTENTION_EAGER && m->positions == 0;
    }
    c->loss_saved = cfg->loss_upcast ? 4.0 : c->act; /* softmax / log_softmax output */
    if (!cfg->loss_upcast && eager) c->loss_backward = 2.0 * c->act;
    if (cfg->cross_entropy == TS_CE_CHUNKED) { /* 16-bit logits kept, one chunk upcast at a time */
        c->loss_saved = c->act;
        c->loss_backward /= TS_CE_CHUNKS;
    } else if (cfg->cross_entropy == TS_CE_FUSED) { /* no logits: the input's gradient instead */
        c->loss_saved = c->loss_backward = 0.0;
        c->loss_fused = 1;
    }
}

/* Autocast over fp32 weights: which 16-bit copies of weights the matmuls keep for
 * backward. Autocast caches the cast of every fp32 weight that requires grad; a frozen fp32
 * weight is cast at each use, and that copy is kept as well because the matmul needs it
 * for its input's gradient. A quantized layer keeps only its quantized weight (its
 * dequantized copy is a transient). */
static void set_autocast(const ts_settings *cfg, const ts_layout *lay, int mixed, ts_conv *c)
{
    int lora = cfg->lora_rank > 0, quant = cfg->quantize_base != TRAINSIZE_QUANTIZE_NONE;
    int fp32_layers = !lora || (!quant && c->frozen_layer >= 4.0);
    int fp32_other = !lora || c->frozen_other >= 4.0;
    /* FSDP's MixedPrecision (ZeRO-3) gathers 16-bit weights instead of running autocast. */
    c->autocast_copies = c->framework == TRAINSIZE_FRAMEWORK_PYTORCH && mixed && lay->zero < 3 &&
                         (fp32_layers || fp32_other);
    if (!c->autocast_copies) return;
    c->layer_copy = fp32_layers ? 2.0 : 0.0;
    c->output_copy = fp32_other ? 2.0 : 0.0;
}

/* What the stack sets where the job leaves a setting auto (docs/methodology.md, "Which
 * stack"): Megatron-LM, its published runs' behaviour (the gradient reduction after a
 * pipeline's flush, each rank's own NIC share: both calibrated on those runs);
 * Megatron-Core as NeMo's recipes set it (overlap_grad_reduce, overlap_param_gather,
 * tp_comm_overlap); the others fused or eager kernels, every NIC but DeepSpeed's ZeRO-3,
 * calibrated like Megatron-LM's runs on its published ones. */
/* The share of the GEMM ceiling torchtitan's published FSDP2 runs keep against the stacks
 * gemm-share was fitted on: fitted to torchao's float8 README runs and torchtitan's pull
 * requests (leave-one-source-out in docs/accuracy.md). */
#define TS_TORCHTITAN_GEMM 0.70

static void set_stack(const ts_settings *cfg, ts_conv *c)
{
    int s = c->stack = ts_stack_resolve_with(cfg, c->framework, &c->stack_reason);
    int megatron = s == TS_STACK_MEGATRON_LM || s == TS_STACK_MEGATRON_CORE || s == TS_STACK_NANOTRON;
    c->fused = cfg->fused_kernels != TRAINSIZE_TRISTATE_AUTO ? cfg->fused_kernels == TRAINSIZE_TRISTATE_YES
                                                             : megatron || cfg->compile;
    /* each kernel group follows fused-kernels unless set; nanotron's LLaMA runs silu(gate) *
     * up as two operations (huggingface/nanotron@0e0a27e, models/llama.py GLUActivation) */
    c->fused_norm =
        cfg->fused_norm != TRAINSIZE_TRISTATE_AUTO ? cfg->fused_norm == TRAINSIZE_TRISTATE_YES : c->fused;
    c->fused_act = cfg->fused_activation != TRAINSIZE_TRISTATE_AUTO
                       ? cfg->fused_activation == TRAINSIZE_TRISTATE_YES
                       : c->fused && (s != TS_STACK_NANOTRON || cfg->compile);
    c->fused_rope =
        cfg->fused_rope != TRAINSIZE_TRISTATE_AUTO ? cfg->fused_rope == TRAINSIZE_TRISTATE_YES : c->fused;
    /* nanotron's ZeRO-1 (no DDP with fp32 accumulation) all-reduces the gradient buffer
     * after the backward (trainer.py sync_gradients_across_dp, huggingface/nanotron@0e0a27e) */
    c->dp_overlap = cfg->dp_overlap != TRAINSIZE_TRISTATE_AUTO              ? cfg->dp_overlap
                    : s == TS_STACK_MEGATRON_CORE           ? TRAINSIZE_TRISTATE_YES
                    : s == TS_STACK_NANOTRON && cfg->zero >= 1 ? TRAINSIZE_TRISTATE_NO
                                                            : TRAINSIZE_TRISTATE_AUTO;
    c->tp_overlap = cfg->tp_overlap != TRAINSIZE_TRISTATE_AUTO ? cfg->tp_overlap == TRAINSIZE_TRISTATE_YES
                                                               : s == TS_STACK_MEGATRON_CORE;
    /* torchtitan's FSDP2 runs keep less of the GEMM ceiling than the stacks gemm-share was
     * fitted on (docs/accuracy.md, "torchtitan"); fp8 runs through Transformer Engine under
     * the Megatron stacks, through torchao's float8 elsewhere */
    c->gemm_stack = s == TS_STACK_TORCHTITAN ? TS_TORCHTITAN_GEMM : 1.0;
    c->fp8_te = s == TS_STACK_MEGATRON_LM || s == TS_STACK_MEGATRON_CORE;
    c->tf32 = ts_tf32_resolve(cfg, s, &c->tf32_reason); /* the Megatron stacks' containers */
    c->dp_nics_own = cfg->dp_nics != TS_DP_NICS_AUTO
                         ? cfg->dp_nics == TS_DP_NICS_OWN
                         : s == TS_STACK_MEGATRON_LM || (s == TS_STACK_DEEPSPEED && cfg->zero >= 3);
}

int ts_conv_make(const ts_settings *cfg, const ts_layout *lay, ts_conv *c, trainsize_error *err)
{
    int mixed = is_mixed(cfg->precision), fw, quant = cfg->quantize_base != TRAINSIZE_QUANTIZE_NONE;
    int upcast;
    *c = (ts_conv){0};
    fw = c->framework = ts_framework_resolve(cfg, &c->framework_reason);
    set_stack(cfg, c);
    /* a ResNet's layout: channels-last under 16-bit precisions unless set */
    c->cnn = ts_model_is_cnn(&cfg->model);
    c->channels_last = cfg->memory_format != TS_MEMFMT_AUTO ? cfg->memory_format == TS_MEMFMT_NHWC
                                                            : !ts_precision_fp32(cfg->precision);
    upcast = quant && tristate_on(cfg->kbit_upcast, fw == TRAINSIZE_FRAMEWORK_PYTORCH);
    set_model_state_bytes(cfg, fw, c);
    if (cfg->lora_rank) set_lora_bytes(cfg, upcast, c);
    set_autocast(cfg, lay, mixed, c);
    ts_conv_set_kernels(cfg, c);
    /* Megatron's grad buffer and DeepSpeed's partitioned gradients live across steps;
     * PyTorch frees .grad at zero_grad(set_to_none=True) unless micro-batches accumulate. */
    c->grads_persistent = fw != TRAINSIZE_FRAMEWORK_PYTORCH || lay->micro_batches > 1;
    /* torch.optim's default foreach Adam/AdamW makes one state-sized temporary
     * (the square root of exp_avg_sq); Megatron and DeepSpeed use fused kernels. */
    if (fw == TRAINSIZE_FRAMEWORK_PYTORCH &&
        (cfg->optimizer == TRAINSIZE_OPTIMIZER_ADAMW || cfg->optimizer == TRAINSIZE_OPTIMIZER_ADAM))
        c->optimizer_temp = c->state / 2.0;
    /* DeepSpeed's mixed-precision optimizers convert the 16-bit gradient partition to an
     * fp32 copy for the step ("2 fp16 grads + 4 fp32 grads + 4 fp32 params + 8 Adam",
     * deepspeed/runtime/zero/stage_1_and_2.py). */
    if (fw == TRAINSIZE_FRAMEWORK_DEEPSPEED && mixed && cfg->lora_rank == 0 && c->grad < 4.0)
        c->optimizer_temp = 4.0;
    /* DDP's default (gradient_as_bucket_view=False) keeps bucket copies of the grads. */
    c->ddp_buckets = fw == TRAINSIZE_FRAMEWORK_PYTORCH && lay->zero == 0 && lay->dense_shard > 1;
    if (c->stack == TS_STACK_NANOTRON && cfg->lora_rank == 0) {
        /* nanotron (huggingface/nanotron@0e0a27e, optim/gradient_accumulator.py): each
         * micro-batch's backward leaves bf16 .grad beside the fp32 accumulation buffer until
         * it is folded in; without ZeRO, DDP's bf16 bucket as well */
        c->grad_copy = 2.0;
        if (lay->zero == 0 && lay->dense_shard > 1) {
            c->ddp_buckets = 1;
            c->bucket_bytes = 2.0;
        }
        /* ZeRO-1's all-gather of the updated weights flattens the rank's 16-bit slices and
         * each of the dp outputs into buffers of their own, all at once (optim/zero.py
         * _all_gather_params, distributed.py all_gather_coalesced): 2 (1 + 1/dp) bytes a
         * parameter at the step */
        if (lay->zero == 1 && lay->dense_shard > 1)
            c->step_flat = 2.0 * (1.0 + 1.0 / (double)lay->dense_shard);
    }
    /* The gradients' type on the wire: FSDP's MixedPrecision reduces in param_dtype unless
     * reduce_dtype says otherwise (torch FSDP docs; Accelerate and fms-fsdp's bfSixteen set
     * bf16); torchtitan reduces in fp32 (mixed_precision_reduce). Others reduce what they hold. */
    {
        double held = cfg->lora_rank ? c->adapter_grad : c->grad;
        int fsdp_half =
            fw == TRAINSIZE_FRAMEWORK_PYTORCH && lay->zero >= 3 && mixed && c->stack != TS_STACK_TORCHTITAN;
        c->reduce = cfg->reduce_precision == TS_GRAD_FP32   ? 4.0
                    : cfg->reduce_precision == TS_GRAD_HALF ? 2.0
                    : fsdp_half                             ? 2.0
                                                            : held;
    }
    /* FSDP's no_sync() (Accelerate's default under gradient accumulation) keeps each rank's
     * unsharded gradients until the last micro-batch (torch FSDP docs, no_sync). A
     * pretraining run on the default pretraining batch is not a Trainer's job: pretraining
     * FSDP stacks (torchtitan) reduce-scatter after every micro-batch. With a pipeline,
     * torch.distributed.pipelining turns the gradient sync off for all but the stage's last
     * backward, unless the job reduce-scatters each micro-batch itself (Llama 3's 4D
     * parallelism shards the gradients: Dubey et al. 2024, arXiv 2407.21783, §3.3.2). RL's
     * trainers (verl's FSDP actor, OpenRLHF's DeepSpeed) and a token budget's micro-batches
     * (verl's use_dynamic_bsz) call backward on every micro-batch without no_sync. */
    c->grad_sync_step = lay->zero >= 2 && lay->micro_batches > 1 &&
                        (cfg->grad_sync == TS_SYNC_STEP ||
                         (cfg->grad_sync == TS_SYNC_AUTO && fw == TRAINSIZE_FRAMEWORK_PYTORCH &&
                          !lay->pretraining_batch && !lay->rl && !cfg->max_tokens_per_gpu) ||
                         (cfg->grad_sync == TS_SYNC_AUTO && lay->fsdp_pipeline));
    /* bitsandbytes' MatMul4Bit and MatMul8bitLt save their input whenever it needs a
     * gradient, frozen weight or not, and dequantize the weight to the compute type for
     * the forward and again for the backward matmul (bitsandbytes autograd/_functions.py). */
    c->quant_keeps_input = quant && cfg->quantize_keeps_input;
    c->dequant = quant ? (ts_precision_fp32(cfg->precision) ? 4.0 : 2.0) : 0.0;
    /* bitsandbytes' quant_state is an attribute, not a parameter: FSDP and ZeRO-3 leave
     * it whole on every rank (AnswerDotAI/fsdp_qlora PR 4; bitsandbytes issue 1945). */
    if (quant && tristate_on(cfg->quant_state_replicated, cfg->quantize_keeps_input))
        c->quant_state = c->frozen_layer - (cfg->quantize_base == TRAINSIZE_QUANTIZE_NF4 ? 0.5 : TS_INT8_BYTES);
    /* FSDP does not reshard the root unit (what no layer wraps: embeddings, final norm,
     * output layer) between forward and backward (torch FSDP, _root_pre_forward). */
    c->root_unsharded = fw == TRAINSIZE_FRAMEWORK_PYTORCH && lay->zero >= 3;
    c->lora_unit_grads =
        cfg->lora_rank && fw == TRAINSIZE_FRAMEWORK_PYTORCH && lay->zero >= 2 && cfg->fsdp_lora_wrap;
    if (cfg->loading == TS_LOAD_GPU && !quant) {
        double trained = cfg->lora_rank ? c->frozen_layer : c->weight;
        c->load = cfg->load_dtype == TS_BASE_FP32 ? 4.0 : cfg->load_dtype == TS_BASE_16BIT ? 2.0 : trained;
    }
    return ts_ok(err);
}

/* Append src at *len in dst (cap bytes, NUL kept), truncating. */
static void append(char *dst, size_t cap, size_t *len, const char *src)
{
    while (*src && *len + 1 < cap) dst[(*len)++] = *src++;
    dst[*len] = '\0';
}

void ts_conv_kernels_text(const ts_conv *c, char *dst, size_t cap)
{
    const char *name[3] = {"norm", "activation", "rope"};
    int group[3];
    size_t len = 0, i, n = 0;
    group[0] = c->fused_norm;
    group[1] = c->fused_act;
    group[2] = c->fused_rope;
    dst[0] = '\0';
    append(dst, cap, &len, c->fused ? "fused" : "eager");
    for (i = 0; i < 3; i++) {
        if (group[i] == c->fused) continue;
        append(dst, cap, &len, n++ ? "," : (c->fused ? " but eager " : " but fused "));
        append(dst, cap, &len, name[i]);
    }
    if (c->cnn) append(dst, cap, &len, c->channels_last ? ", channels-last" : ", nchw");
}

/* Which framework's conventions an estimate uses. With --framework auto (the default) the
 * job says which kind of run it is; the rules, in order, are the table "Which framework"
 * in docs/methodology.md. The reason is part of the result, so a user sees what was
 * assumed and can override it. */
#include "stages.h"

/* Each rule's reason, on a GPU and on a TPU, where the reason also says which runtime
 * conventions apply (XLA: the overhead settings default to 0, see ts_job_fit_device). */
enum { RULE_SET, RULE_MODEL_PARALLEL, RULE_LORA, RULE_OFFLOAD, RULE_ZERO12, RULE_ZERO3, RULE_PLAIN, RULE_QLORA,
       RULE_STACK };
#define TS_XLA "XLA on a TPU (no CUDA context, NCCL buffers or allocator reserve)"
static const char *const REASONS[][2] = {
    {"set by the framework option", "set by the framework option; XLA on a TPU: no CUDA context or "
                                    "allocator reserve"},
    {"tensor, pipeline, context or expert parallelism: a Megatron-LM layout",
     TS_XLA "; a Megatron-style layout"},
    {"LoRA/QLoRA: Hugging Face PEFT on PyTorch", TS_XLA "; LoRA as PEFT"},
    {"CPU offload: DeepSpeed ZeRO-Offload", TS_XLA "; ZeRO-Offload"},
    {"ZeRO stage 1 or 2 without model parallelism: DeepSpeed", TS_XLA "; ZeRO 1/2 as DeepSpeed"},
    {"ZeRO-3 without model parallelism: PyTorch FSDP, FULL_SHARD", TS_XLA "; ZeRO-3 as FSDP"},
    {"one GPU or plain data parallelism: PyTorch / Hugging Face Trainer", TS_XLA "; data parallel"},
    {"QLoRA: Hugging Face PEFT on PyTorch, recomputing (prepare_model_for_kbit_training)",
     TS_XLA "; QLoRA as PEFT, recomputing"},
    {"the stack option's conventions", TS_XLA "; the stack option's conventions"}};

static int stack_framework(int stack);

int ts_framework_resolve(const ts_settings *cfg, const char **reason)
{
    int rule, fw;
    if (cfg->framework != TRAINSIZE_FRAMEWORK_AUTO) {
        rule = RULE_SET;
        fw = cfg->framework;
    } else if (cfg->stack != TS_STACK_AUTO) {
        rule = RULE_STACK;
        fw = stack_framework(cfg->stack);
    } else if (cfg->tp > 1 || cfg->pp > 1 || cfg->cp > 1 || cfg->ep > 1 || cfg->sp) {
        rule = RULE_MODEL_PARALLEL;
        fw = TRAINSIZE_FRAMEWORK_MEGATRON;
    } else if (cfg->lora_rank || cfg->quantize_base != TRAINSIZE_QUANTIZE_NONE) {
        rule = cfg->recompute_auto && cfg->recompute == TRAINSIZE_RECOMPUTE_FULL ? RULE_QLORA : RULE_LORA;
        fw = TRAINSIZE_FRAMEWORK_PYTORCH;
    } else if (cfg->offload != TRAINSIZE_OFFLOAD_NONE) {
        rule = RULE_OFFLOAD;
        fw = TRAINSIZE_FRAMEWORK_DEEPSPEED;
    } else if (cfg->zero == 1 || cfg->zero == 2) {
        rule = RULE_ZERO12;
        fw = TRAINSIZE_FRAMEWORK_DEEPSPEED;
    } else if (cfg->zero >= 3) {
        rule = RULE_ZERO3;
        fw = TRAINSIZE_FRAMEWORK_PYTORCH;
    } else {
        rule = RULE_PLAIN;
        fw = TRAINSIZE_FRAMEWORK_PYTORCH;
    }
    *reason = REASONS[rule][cfg->gpu && cfg->gpu->kind == TRAINSIZE_ACCELERATOR_TPU];
    return fw;
}

int ts_framework_qlora_recomputes(const ts_settings *cfg)
{
    const char *reason;
    return !cfg->recompute_given && cfg->recompute == TRAINSIZE_RECOMPUTE_NONE &&
           cfg->quantize_base != TRAINSIZE_QUANTIZE_NONE &&
           ts_framework_resolve(cfg, &reason) == TRAINSIZE_FRAMEWORK_PYTORCH;
}

const char *ts_framework_name(int framework)
{
    static const char NAMES[][TS_NAME_WIDTH(framework)] = {TS_FRAMEWORK_LIST(TS_NAME_ITEM)};
    return NAMES[framework >= 0 && framework < TRAINSIZE_FRAMEWORK_AUTO ? framework : TRAINSIZE_FRAMEWORK_AUTO];
}

/* The stacks' names (choices.h) and the framework (byte conventions) each runs. */
static const char STACK_NAMES[][TS_NAME_WIDTH(stack)] = {TS_STACK_LIST(TS_NAME_ITEM)};
static const int STACK_FRAMEWORK[TS_STACK_COUNT] = {
    [TS_STACK_AUTO] = TRAINSIZE_FRAMEWORK_AUTO,         [TS_STACK_MEGATRON_LM] = TRAINSIZE_FRAMEWORK_MEGATRON,
    [TS_STACK_MEGATRON_CORE] = TRAINSIZE_FRAMEWORK_MEGATRON, [TS_STACK_NANOTRON] = TRAINSIZE_FRAMEWORK_MEGATRON,
    [TS_STACK_TORCHTITAN] = TRAINSIZE_FRAMEWORK_PYTORCH, [TS_STACK_FSDP] = TRAINSIZE_FRAMEWORK_PYTORCH,
    [TS_STACK_HF] = TRAINSIZE_FRAMEWORK_PYTORCH,         [TS_STACK_DEEPSPEED] = TRAINSIZE_FRAMEWORK_DEEPSPEED};

int ts_stack_resolve(const ts_settings *cfg, const char **reason)
{
    const char *why;
    /* the framework decides only a stack left to auto */
    int fw = cfg->stack == TS_STACK_AUTO ? ts_framework_resolve(cfg, &why) : TRAINSIZE_FRAMEWORK_AUTO;
    return ts_stack_resolve_with(cfg, fw, reason);
}

int ts_stack_resolve_with(const ts_settings *cfg, int fw, const char **reason)
{
    if (cfg->stack != TS_STACK_AUTO) {
        *reason = "set by the stack option";
        return cfg->stack;
    }
    if (cfg->framework != TRAINSIZE_FRAMEWORK_AUTO) {
        *reason = fw == TRAINSIZE_FRAMEWORK_MEGATRON
                      ? "the megatron framework: Megatron-LM as its published runs"
                  : fw == TRAINSIZE_FRAMEWORK_DEEPSPEED ? "the deepspeed framework"
                  : cfg->zero >= 3                      ? "the pytorch framework with ZeRO-3: PyTorch FSDP"
                                                        : "the pytorch framework: Hugging Face Trainer";
        return fw == TRAINSIZE_FRAMEWORK_MEGATRON ? TS_STACK_MEGATRON_LM
               : fw == TRAINSIZE_FRAMEWORK_DEEPSPEED ? TS_STACK_DEEPSPEED
               : cfg->zero >= 3 ? TS_STACK_FSDP : TS_STACK_HF;
    }
    if (fw == TRAINSIZE_FRAMEWORK_MEGATRON) {
        /* under TRAINSIZE_NAME_MAX (96) with its NUL: result.stack_reason holds it whole */
        *reason = "Megatron-Core as NeMo runs it: gradient reduction, weight gathers and TP traffic overlapped";
        return TS_STACK_MEGATRON_CORE;
    }
    if (fw == TRAINSIZE_FRAMEWORK_DEEPSPEED) {
        *reason = "DeepSpeed, the stack of those conventions";
        return TS_STACK_DEEPSPEED;
    }
    *reason = cfg->zero >= 3 ? "PyTorch FSDP, the stack of those conventions"
                             : "the Hugging Face Trainer, the stack of those conventions";
    return cfg->zero >= 3 ? TS_STACK_FSDP : TS_STACK_HF;
}

const char *ts_stack_name(int stack)
{
    return STACK_NAMES[stack >= 0 && stack < TS_STACK_COUNT ? stack : 0];
}

static int stack_framework(int stack)
{
    return stack > 0 && stack < TS_STACK_COUNT ? STACK_FRAMEWORK[stack] : TRAINSIZE_FRAMEWORK_PYTORCH;
}

/* Which framework's conventions an estimate uses. With --framework auto (the default) the
 * job says which kind of run it is; the rules, in order, are the table "Which framework"
 * in docs/methodology.md. The reason is part of the result, so a user sees what was
 * assumed and can override it. */
#include "stages.h"

int ts_framework_resolve(const ts_settings *cfg, const char **reason)
{
    if (cfg->framework != TS_FW_AUTO) {
        *reason = "set by the framework option";
        return cfg->framework;
    }
    if (cfg->tp > 1 || cfg->pp > 1 || cfg->cp > 1 || cfg->ep > 1 || cfg->sp) {
        *reason = "tensor, pipeline, context or expert parallelism: a Megatron-LM layout";
        return TS_FW_MEGATRON;
    }
    if (cfg->lora_rank || cfg->quantize_base != TS_QUANT_NONE) {
        *reason = "LoRA/QLoRA: Hugging Face PEFT on PyTorch";
        return TS_FW_PYTORCH;
    }
    if (cfg->offload != TS_OFFLOAD_NONE) {
        *reason = "CPU offload: DeepSpeed ZeRO-Offload";
        return TS_FW_DEEPSPEED;
    }
    if (cfg->zero == 1 || cfg->zero == 2) {
        *reason = "ZeRO stage 1 or 2 without model parallelism: DeepSpeed";
        return TS_FW_DEEPSPEED;
    }
    if (cfg->zero >= 3) {
        *reason = "ZeRO-3 without model parallelism: PyTorch FSDP, FULL_SHARD";
        return TS_FW_PYTORCH;
    }
    *reason = "one GPU or plain data parallelism: PyTorch / Hugging Face Trainer";
    return TS_FW_PYTORCH;
}

const char *ts_framework_name(int framework)
{
    switch (framework) {
    case TS_FW_MEGATRON: return "megatron";
    case TS_FW_DEEPSPEED: return "deepspeed";
    case TS_FW_PYTORCH: return "pytorch";
    default: return "auto";
    }
}

/* Which framework's conventions an estimate uses. With --framework auto (the default) the
 * job says which kind of run it is; the rules, in order, are the table "Which framework"
 * in docs/methodology.md. The reason is part of the result, so a user sees what was
 * assumed and can override it. */
#include "estimate.h"

int ts_framework_resolve(const trainsize_job *job, const char **reason)
{
    if (job->framework != TS_FW_AUTO) {
        *reason = "set by the framework option";
        return job->framework;
    }
    if (job->tp > 1 || job->pp > 1 || job->cp > 1 || job->ep > 1 || job->sp) {
        *reason = "tensor, pipeline, context or expert parallelism: a Megatron-LM layout";
        return TS_FW_MEGATRON;
    }
    if (job->lora_rank || job->quantize_base != TS_QUANT_NONE) {
        *reason = "LoRA/QLoRA: Hugging Face PEFT on PyTorch";
        return TS_FW_PYTORCH;
    }
    if (job->offload != TS_OFFLOAD_NONE) {
        *reason = "CPU offload: DeepSpeed ZeRO-Offload";
        return TS_FW_DEEPSPEED;
    }
    if (job->zero == 1 || job->zero == 2) {
        *reason = "ZeRO stage 1 or 2 without model parallelism: DeepSpeed";
        return TS_FW_DEEPSPEED;
    }
    if (job->zero >= 3) {
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

/* A flat, named view of trainsize_result: the command's JSON and the bindings walk this
 * table, so a figure has one name everywhere. Order is the JSON's order (cli.md). */
#include <stddef.h>

#include "error.h"
#include "trainsize.h"

typedef struct field_def {
    trainsize_field_info info;
    size_t offset;
} field_def;

#define R(member) offsetof(trainsize_result, member)
#define U64 TRAINSIZE_FIELD_U64
#define F64 TRAINSIZE_FIELD_F64

static const char *const PHASES[] = {"forward-backward", "backward-end", "optimizer-step", "loading", "rollout"};
static const char *const RECOMPUTE[] = {"none", "selective", "full", "per-op"}; /* the parameter's order */

static const field_def FIELDS[] = {
    {{"model.name", TRAINSIZE_FIELD_STRING, "", "preset or config name"}, R(model.name)},
    {{"model.parameters", U64, "parameters", "total parameters"}, R(model.parameters)},
    {{"model.trainable_parameters", U64, "parameters", "parameters the optimizer updates"},
     R(model.trainable_parameters)},
    {{"model.active_parameters", U64, "parameters", "parameters used per token"},
     R(model.active_parameters)},
    {{"model.embedding_parameters", U64, "parameters", "embeddings and untied output layer"},
     R(model.embedding_parameters)},
    {{"model.layer_parameters", U64, "parameters", "one transformer layer"}, R(model.layer_parameters)},
    {{"model.mtp_parameters", U64, "parameters",
      "multi-token-prediction modules trained with the model, not in parameters"},
     R(model.mtp_parameters)},
    {{"memory.weights", U64, "bytes", "weights on the most loaded GPU"}, R(memory.weights)},
    {{"memory.gradients", U64, "bytes", "gradients at the end of backward"}, R(memory.gradients)},
    {{"memory.optimizer", U64, "bytes", "optimizer state incl. the fp32 master copy"},
     R(memory.optimizer)},
    {{"memory.activations", U64, "bytes", "kept for backward by the in-flight micro-batches"},
     R(memory.activations)},
    {{"memory.peak_allocated", U64, "bytes", "comparable to torch.cuda.max_memory_allocated()"},
     R(memory.peak_allocated)},
    {{"memory.overhead", U64, "bytes", "CUDA context, communication buffers, allocator slack"},
     R(memory.overhead)},
    {{"memory.peak_total", U64, "bytes", "peak_allocated + overhead: comparable to nvidia-smi"},
     R(memory.peak_total)},
    {{"memory.gpu_capacity", U64, "bytes", "the GPU's memory"}, R(memory.gpu_capacity)},
    {{"memory.fits", TRAINSIZE_FIELD_BOOL, "", "peak_total <= gpu_capacity"}, R(memory.fits)},
    {{"memory.master_weights", U64, "bytes", "fp32 master copy (part of optimizer)"},
     R(memory.master_weights)},
    {{"memory.activations_layers", U64, "bytes", "activations of the transformer layers"},
     R(memory.activations_layers)},
    {{"memory.activations_embedding", U64, "bytes", "activations of the embeddings"},
     R(memory.activations_embedding)},
    {{"memory.activations_output", U64, "bytes", "final norm, output layer and loss"},
     R(memory.activations_output)},
    {{"memory.activations_loss", U64, "bytes", "what the loss keeps of the logits"},
     R(memory.activations_loss)},
    {{"memory.activations_per_layer", U64, "bytes", "one layer, one micro-batch"},
     R(memory.activations_per_layer)},
    {{"memory.in_flight_microbatches", F64, "micro-batches", "micro-batches held at once"},
     R(memory.in_flight_microbatches)},
    {{"memory.transient", U64, "bytes", "temporary and communication buffers at the peak"},
     R(memory.transient)},
    {{"memory.cuda_context", U64, "bytes", "CUDA context (part of overhead)"}, R(memory.cuda_context)},
    {{"memory.comm_buffers", U64, "bytes", "communication buffers (part of overhead)"},
     R(memory.comm_buffers)},
    {{"memory.allocator_slack", U64, "bytes", "allocator reserve (part of overhead)"},
     R(memory.allocator_slack)},
    {{"memory.host_offload", U64, "bytes", "host memory per GPU used by CPU offload (state, activations)"},
     R(memory.host_offload)},
    {{"memory.peak_phase", TRAINSIZE_FIELD_CHOICE, "", "phase of the step at the peak"},
     R(memory.peak_phase)},
    {{"memory.pipeline_stage", U64, "", "pipeline stage of the most loaded GPU"},
     R(memory.pipeline_stage)},
    {{"memory.peak_includes_activations", TRAINSIZE_FIELD_BOOL, "",
      "activations are part of peak_allocated"}, R(memory.peak_includes_activations)},
    {{"memory.peak_includes_gradients", TRAINSIZE_FIELD_BOOL, "",
      "gradients are part of peak_allocated"}, R(memory.peak_includes_gradients)},
    {{"memory.loading_peak", U64, "bytes", "while the weights are loaded onto the GPU (loading gpu, or quantizing a base)"},
     R(memory.loading_peak)},
    {{"memory.peak_reserved", U64, "bytes",
      "peak_allocated + allocator_slack: comparable to torch.cuda.max_memory_reserved()"},
     R(memory.peak_reserved)},
    {{"memory.activations_offloaded", U64, "bytes",
      "of host_offload: the layers' activations in host memory (activation-offload)"},
     R(memory.activations_offloaded)},
    {{"memory.recomputed_layers", U64, "layers",
      "layers of the most loaded stage that the recomputation applies to (0 without)"},
     R(memory.recomputed_layers)},
    {{"system.nodes", U64, "servers", "servers"}, R(system.nodes)},
    {{"system.gpus_per_node", U64, "GPUs", "GPUs per server"}, R(system.gpus_per_node)},
    {{"system.host_ram_per_node", U64, "bytes", "host RAM per server"}, R(system.host_ram_per_node)},
    {{"system.cost_own_hardware_usd", F64, "USD", "owning: GPUs, servers and network, amortised, with support"},
     R(system.cost_own_hardware_usd)},
    {{"system.cost_own_power_usd", F64, "USD", "owning: the energy"}, R(system.cost_own_power_usd)},
    {{"system.host_ram_need_per_node", U64, "bytes", "host RAM the job needs per server (before the rule)"},
     R(system.host_ram_need_per_node)},
    {{"system.cpu_cores_per_node", U64, "cores", "CPU cores per server"}, R(system.cpu_cores_per_node)},
    {{"system.interconnect_rate_per_node", U64, "bytes/s", "inter-node bandwidth the step needs"},
     R(system.interconnect_rate_per_node)},
    {{"system.storage_capacity", U64, "bytes", "dataset + checkpoints kept"}, R(system.storage_capacity)},
    {{"system.storage_read_rate", U64, "bytes/s", "read rate that keeps the GPUs fed"},
     R(system.storage_read_rate)},
    {{"system.power_watts", F64, "watts", "whole job, GPUs and the rest of the servers"},
     R(system.power_watts)},
    {{"system.power_per_node_watts", F64, "watts", "one server"}, R(system.power_per_node_watts)},
    {{"system.heat_btu_per_hour", F64, "BTU/h", "heat of the whole job"}, R(system.heat_btu_per_hour)},
    {{"system.energy_kwh", F64, "kWh", "energy of the run at the facility (PUE included)"},
     R(system.energy_kwh)},
    {{"system.co2_kg", F64, "kg CO2e", "emissions of that energy"}, R(system.co2_kg)},
    {{"system.cost_cloud_usd", F64, "USD", "renting: GPU-hours x price per GPU-hour"},
     R(system.cost_cloud_usd)},
    {{"system.cost_own_usd", F64, "USD", "owning: amortised purchase, support and power"},
     R(system.cost_own_usd)},
    {{"system.checkpoint_bytes", U64, "bytes", "one checkpoint"}, R(system.checkpoint_bytes)},
    {{"system.checkpoint_write_rate_total", U64, "bytes/s", "the whole job, to write it in the target time"},
     R(system.checkpoint_write_rate_total)},
    {{"system.checkpoint_write_rate", U64, "bytes/s", "per server, to write it in the target time"},
     R(system.checkpoint_write_rate)},
    {{"system.intra_node_rate_per_gpu", U64, "bytes/s", "GPU-to-GPU bandwidth per GPU inside a server"},
     R(system.intra_node_rate_per_gpu)},
    {{"system.storage_class", TRAINSIZE_FIELD_STRING, "", "storage class that meets the needs"},
     R(system.storage_class)},
    {{"system.local_storage_class", TRAINSIZE_FIELD_STRING, "",
      "NVMe every GPU server carries as cache and scratch"},
     R(system.local_storage_class)},
    {{"system.network_link", TRAINSIZE_FIELD_STRING, "", "scale-out link that meets the need"},
     R(system.network_link)},
    {{"system.network_nics_per_node", U64, "", "NICs per server of that link (0 without one)"},
     R(system.network_nics_per_node)},
    {{"time.flops", F64, "flops", "FLOPs the GPUs execute, recomputation included"}, R(time.flops)},
    {{"time.seconds", F64, "seconds", "the run on a cluster that never fails"}, R(time.seconds)},
    {{"time.step_flops", F64, "flops", "one optimizer step"}, R(time.step_flops)},
    {{"time.step_seconds", F64, "seconds", "one optimizer step"}, R(time.step_seconds)},
    {{"time.tokens", F64, "tokens", "tokens trained on"}, R(time.tokens)},
    {{"time.steps", U64, "steps", "optimizer steps"}, R(time.steps)},
    {{"time.model_flops", F64, "flops", "model FLOPs without recomputation (for MFU)"},
     R(time.model_flops)},
    {{"time.gpu_hours", F64, "GPU-hours", "GPUs x wall time"}, R(time.gpu_hours)},
    {{"time.comm_seconds", F64, "seconds", "communication per step not overlapped by compute"},
     R(time.comm_seconds)},
    {{"time.offload_seconds", F64, "seconds", "CPU offload per step not overlapped by compute"},
     R(time.offload_seconds)},
    {{"layout.gpu", TRAINSIZE_FIELD_STRING, "", "catalogue GPU"}, R(gpu)},
    {{"layout.gpus", U64, "GPUs", "GPUs in the job"}, R(gpus)},
    {{"layout.tp", U64, "", "tensor-parallel degree"}, R(layout.tp)},
    {{"layout.pp", U64, "", "pipeline-parallel degree"}, R(layout.pp)},
    {{"layout.pp_interleave", U64, "", "virtual pipeline stages per rank (1: none)"},
     R(layout.pp_interleave)},
    {{"layout.cp", U64, "", "context-parallel degree"}, R(layout.cp)},
    {{"layout.ep", U64, "", "expert-parallel degree"}, R(layout.ep)},
    {{"layout.sp", TRAINSIZE_FIELD_BOOL, "", "sequence parallelism applies"}, R(layout.sp)},
    {{"layout.zero", U64, "", "ZeRO stage (FSDP FULL_SHARD is 3)"}, R(layout.zero)},
    {{"layout.micro_batch", U64, "samples", "samples per GPU per pass"}, R(layout.micro_batch)},
    {{"layout.global_batch", U64, "samples", "samples per optimizer step"}, R(layout.global_batch)},
    {{"layout.global_batch_reason", TRAINSIZE_FIELD_STRING, "", "why that global batch: the option, "
      "or the default's rule (a pretraining batch of about 4M tokens with --tokens)"},
     R(global_batch_reason)},
    {{"layout.recompute", TRAINSIZE_FIELD_CHOICE, "", "activation recomputation: none, selective, full or per-op"},
     R(layout.recompute)},
    {{"layout.data_parallel", U64, "", "data-parallel degree"}, R(data_parallel)},
    {{"layout.gradient_accumulation", U64, "micro-batches", "micro-batches per step per rank"},
     R(gradient_accumulation)},
    {{"layout.framework", TRAINSIZE_FIELD_STRING, "", "conventions used: megatron, deepspeed or pytorch"},
     R(framework)},
    {{"layout.framework_reason", TRAINSIZE_FIELD_STRING, "", "why those conventions"},
     R(framework_reason)},
    {{"layout.stack", TRAINSIZE_FIELD_STRING, "",
      "the training stack whose kernel, overlap and collective defaults were used"},
     R(stack)},
    {{"layout.stack_reason", TRAINSIZE_FIELD_STRING, "", "why that stack"}, R(stack_reason)},
    {{"layout.fp8_recipe", TRAINSIZE_FIELD_STRING, "",
      "under fp8-mixed, the scaling recipe used (the option, or auto's choice for the GPU); empty otherwise"},
     R(fp8_recipe)},
    {{"layout.kernels", TRAINSIZE_FIELD_STRING, "",
      "what ran in fused kernels: fused, eager, or one of them and the groups that differ"},
     R(kernels)},
    {{"layout.pp_schedule", TRAINSIZE_FIELD_STRING, "", "the pipeline schedule used"}, R(pp_schedule)},
    {{"layout.method", TRAINSIZE_FIELD_STRING, "", "what the step trains: sft or dpo"}, R(method)},
    {{"layout.reference", TRAINSIZE_FIELD_STRING, "",
      "dpo: where the reference's log-probabilities come from (model, adapters-off, precomputed)"},
     R(reference)},
    {{"layout.pipeline_bubble", TRAINSIZE_FIELD_F64, "", "the step's compute over its ideal (1 + the bubble)"},
     R(pipeline_bubble)},
    {{"layout.pipeline_first_layers", U64, "layers", "layers of the first pipeline stage"},
     R(pipeline_first_layers)},
    {{"layout.pipeline_layers", U64, "layers", "layers of each middle pipeline stage"},
     R(pipeline_layers)},
    {{"layout.pipeline_last_layers", U64, "layers", "layers of the last pipeline stage"},
     R(pipeline_last_layers)},
    {{"memory.max_micro_batch", U64, "samples",
      "largest micro-batch that fits, all else as given (0: even 1 does not, or largest-fit false)"},
     R(memory.max_micro_batch)},
    {{"memory.max_seq", U64, "tokens",
      "largest sequence (a multiple of 128) that fits, all else as given (0: none, or largest-fit false)"},
     R(memory.max_seq)},
    {{"memory.reference_weights", U64, "bytes", "of weights: the frozen reference model (dpo, grpo, ppo)"},
     R(memory.reference_weights)},
    {{"memory.critic_state", U64, "bytes", "of the model state: ppo's critic"}, R(memory.critic_state)},
    {{"memory.rollout_weights", U64, "bytes", "grpo, ppo: the rollout engine's weights"},
     R(memory.rollout_weights)},
    {{"memory.rollout_kv_cache", U64, "bytes", "grpo, ppo: the rollout engine's KV cache"},
     R(memory.rollout_kv_cache)},
    {{"memory.teacher_weights", U64, "bytes", "of weights: distill's frozen teacher"},
     R(memory.teacher_weights)},
    {{"system.capex_usd", F64, "USD", "the purchase: servers, network, shared storage"}, R(system.capex_usd)},
    {{"system.capex_servers_usd", F64, "USD", "of capex: servers with GPUs, CPUs, RAM, NICs, NVMe, spares"},
     R(system.capex_servers_usd)},
    {{"system.capex_network_usd", F64, "USD", "of capex: the scale-out fabric"}, R(system.capex_network_usd)},
    {{"system.capex_storage_usd", F64, "USD", "of capex: the shared file system"}, R(system.capex_storage_usd)},
    {{"system.cost_own_facility_usd", F64, "USD", "of the owned cost: the facility's rent for the run"},
     R(system.cost_own_facility_usd)},
    {{"system.cloud_usd_per_month", F64, "USD", "renting the GPUs for the busy hours of a month"},
     R(system.cloud_usd_per_month)},
    {{"system.own_usd_per_month", F64, "USD", "owning them a month: facility, power, support"},
     R(system.own_usd_per_month)},
    {{"system.breakeven_months", F64, "months", "when the purchase has paid for itself (0: never)"},
     R(system.breakeven_months)},
    {{"system.racks", U64, "racks", "racks for the servers and spares"}, R(system.racks)},
    {{"system.servers_per_rack", U64, "servers", "servers in one rack"}, R(system.servers_per_rack)},
    {{"system.rack_power_watts", F64, "watts", "the fullest rack's power (an NVL72 judged whole)"},
     R(system.rack_power_watts)},
    {{"system.cooling", TRAINSIZE_FIELD_STRING, "", "air or liquid"}, R(system.cooling)},
    {{"system.psus_per_server", U64, "", "power supplies per server (NVL72: per rack)"},
     R(system.psus_per_server)},
    {{"system.psus_needed", U64, "", "of those, the ones that carry the maximum power"},
     R(system.psus_needed)},
    {{"system.psu_watts", F64, "watts", "one power supply's rating"}, R(system.psu_watts)},
    {{"system.psu_redundancy", TRAINSIZE_FIELD_STRING, "", "needed + redundant supplies, e.g. 4+2"},
     R(system.psu_redundancy)},
    {{"system.switches", U64, "switches", "scale-out switches of a non-blocking fat tree (64 ports)"},
     R(system.switches)},
    {{"system.switch_tiers", U64, "tiers", "tiers of that fat tree"}, R(system.switch_tiers)},
    {{"system.checkpoint_write_seconds", F64, "seconds", "one checkpoint written to the storage"},
     R(system.checkpoint_write_seconds)},
    {{"system.dataset_bytes", U64, "bytes", "the dataset as stored"}, R(system.dataset_bytes)},
    {{"system.dataset_source", TRAINSIZE_FIELD_STRING, "",
      "where training reads the dataset: local, local-cache (a staged copy on every server) or shared"},
     R(system.dataset_source)},
    {{"time.rollout_seconds", F64, "seconds", "grpo, ppo: one step's generation (in step_seconds)"},
     R(time.rollout_seconds)},
    {{"time.wall_seconds", F64, "seconds", "the run with checkpoints, interruptions and restarts"},
     R(time.wall_seconds)},
    {{"time.goodput", F64, "", "seconds / wall_seconds"}, R(time.goodput)},
    {{"time.expected_interruptions", F64, "", "interruptions the run sees"}, R(time.expected_interruptions)},
    {{"time.checkpoint_interval", F64, "seconds", "training time between checkpoints"},
     R(time.checkpoint_interval)},
    {{"time.checkpoint_stall", F64, "seconds", "what each checkpoint stops training for"},
     R(time.checkpoint_stall)},
    {{"model.vision_parameters", U64, "parameters", "of parameters: a multimodal model's vision tower"},
     R(model.vision_parameters)},
    {{"model.projector_parameters", U64, "parameters", "of parameters: its projector (trained)"},
     R(model.projector_parameters)},
    {{"memory.vision_weights", U64, "bytes", "of weights: the vision tower on this GPU"},
     R(memory.vision_weights)},
    {{"memory.activations_vision", U64, "bytes", "of activations: a trained vision tower's"},
     R(memory.activations_vision)},
    {{"system.rollout_nodes", U64, "servers", "rollout separate: the engines' servers beside nodes"},
     R(system.rollout_nodes)},
    {{"layout.calibration", TRAINSIZE_FIELD_STRING, "",
      "the site calibration applied: its runs, their GPUs, its date; \"\" when none"},
     R(calibration)},
    {{"layout.calibration_runs", U64, "runs", "runs that calibration was fitted on; 0 when none"},
     R(calibration_runs)},
    {{"warnings", TRAINSIZE_FIELD_FLAGS, "", "the checklist (names: trainsize_warning_name)"},
     R(warnings)},
};

#define FIELD_COUNT (sizeof FIELDS / sizeof FIELDS[0])

size_t trainsize_result_field_count(void) { return FIELD_COUNT; }

const trainsize_field_info *trainsize_result_field_at(size_t index)
{
    return index < FIELD_COUNT ? &FIELDS[index].info : NULL;
}

/* The names of a CHOICE field's values, by value. */
static const char *choice_name(size_t offset, int v)
{
    const char *const *names = offset == R(layout.recompute) ? RECOMPUTE : PHASES;
    int count = offset == R(layout.recompute) ? (int)(sizeof RECOMPUTE / sizeof RECOMPUTE[0])
                                              : (int)(sizeof PHASES / sizeof PHASES[0]);
    return v >= 0 && v < count ? names[v] : "unknown";
}

/* Fields are uint64_t, double, int or char[]: read each through its own type. */
int trainsize_result_field_get(const trainsize_result *result, size_t index, trainsize_field_value *out)
{
    const char *base = (const char *)result;
    const field_def *f;
    if (!result || !out || index >= FIELD_COUNT) return TRAINSIZE_E_ARGUMENT;
    f = &FIELDS[index];
    out->type = f->info.type;
    out->u64 = 0;
    out->f64 = 0;
    out->text = NULL;
    switch (f->info.type) {
    case TRAINSIZE_FIELD_U64:
        if (f->offset == R(memory.pipeline_stage))
            out->u64 = (uint64_t)result->memory.pipeline_stage;
        else
            out->u64 = *(const uint64_t *)(const void *)(base + f->offset);
        out->f64 = (double)out->u64;
        break;
    case TRAINSIZE_FIELD_F64: out->f64 = *(const double *)(const void *)(base + f->offset); break;
    case TRAINSIZE_FIELD_FLAGS: out->u64 = *(const uint64_t *)(const void *)(base + f->offset); break;
    case TRAINSIZE_FIELD_BOOL:
        out->u64 = *(const int *)(const void *)(base + f->offset) ? 1u : 0u;
        break;
    case TRAINSIZE_FIELD_STRING: out->text = base + f->offset; break;
    case TRAINSIZE_FIELD_CHOICE: {
        int v = *(const int *)(const void *)(base + f->offset);
        out->text = choice_name(f->offset, v);
        out->u64 = (uint64_t)(v < 0 ? 0 : v);
        break;
    }
    }
    return TRAINSIZE_OK;
}

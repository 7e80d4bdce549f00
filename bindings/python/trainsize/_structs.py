"""ctypes counterparts of the public structs of trainsize.h (ABI version 2).

Only the structs that cross the boundary by value or through caller storage are mirrored
here. The mirror of ``trainsize_result`` exists to size the caller buffer: the binding
never reads it by member, it walks the library's result field table instead. At import,
``_lib`` checks every mirror against ``trainsize_struct_size()`` (when the library has it)
and cross-checks the result mirror against the field table on a real estimate.
"""

import ctypes
from ctypes import c_char, c_char_p, c_double, c_int, c_size_t, c_uint32, c_uint64

#: Capacity of trainsize_error.field, including the NUL.
ERROR_FIELD_MAX = 64
#: Capacity of trainsize_error.message, including the NUL.
ERROR_MESSAGE_MAX = 256
#: Capacity of the name strings in the result and the plan candidate, including the NUL.
NAME_MAX = 96

# trainsize_struct_id values (trainsize_struct_size()).
STRUCT_ERROR = 0
STRUCT_RESULT = 1
STRUCT_PLAN_CANDIDATE = 2
STRUCT_PLAN_STATS = 3
STRUCT_FIELD_VALUE = 4
STRUCT_ADVICE = 6
STRUCT_CHECKPOINT = 7
STRUCT_CAPACITY_ENTRY = 8
ADVICE_MAX_SETTINGS = 6


class Error(ctypes.Structure):
    """trainsize_error: details of a failure, in caller storage."""

    _fields_ = [
        ("code", c_int),
        ("field", c_char * ERROR_FIELD_MAX),
        ("message", c_char * ERROR_MESSAGE_MAX),
    ]


class ParamInfo(ctypes.Structure):
    """trainsize_param_info: one settable parameter (library-owned, static)."""

    _fields_ = [
        ("name", c_char_p),
        ("kind", c_int),
        ("choices", c_char_p),
        ("min", c_double),
        ("max", c_double),
        ("default_text", c_char_p),
        ("unit", c_char_p),
        ("doc", c_char_p),
    ]


class ModelInfo(ctypes.Structure):
    """trainsize_model_info: one built-in model preset (library-owned, static)."""

    _fields_ = [
        ("name", c_char_p),
        ("family", c_char_p),
        ("parameters", c_uint64),
        ("active_parameters", c_uint64),
        ("source", c_char_p),
    ]


class FieldInfo(ctypes.Structure):
    """trainsize_field_info: one result field (library-owned, static)."""

    _fields_ = [
        ("path", c_char_p),
        ("type", c_int),
        ("unit", c_char_p),
        ("doc", c_char_p),
    ]


class FieldValue(ctypes.Structure):
    """trainsize_field_value: one result field's value, in caller storage."""

    _fields_ = [
        ("type", c_int),
        ("u64", c_uint64),
        ("f64", c_double),
        # A pointer into the result buffer (STRING) or static storage (CHOICE). Kept as a
        # void pointer so that the layout check can compare its address with the buffer's.
        ("text", ctypes.c_void_p),
    ]


class PlanStats(ctypes.Structure):
    """trainsize_plan_stats: what a search covered."""

    _fields_ = [
        ("evaluated", c_uint64),
        ("estimated", c_uint64),
        ("feasible", c_uint64),
        ("fit_memory", c_uint64),
        ("fastest_fit_seconds", c_double),
        ("cheapest_fit_cost", c_double),
        ("least_overshoot", c_double),
        # Added after ABI 2's first release: a library before them writes the fields above
        # only (PLAN_STATS_BEFORE_PRUNING bytes), and these stay 0.
        ("pruned_memory", c_uint64),
        ("pruned_bound", c_uint64),
        ("bounds", c_uint64),
        ("counts_skipped", c_uint64),
    ]


#: trainsize_plan_stats' size before pruned_memory, pruned_bound, bounds and counts_skipped.
PLAN_STATS_BEFORE_PRUNING = PlanStats.pruned_memory.offset


class Advice(ctypes.Structure):
    """trainsize_advice: one way to make a job fit."""

    _fields_ = [
        ("settings", c_size_t),
        ("names", (c_char * 32) * ADVICE_MAX_SETTINGS),
        ("values", (c_char * 32) * ADVICE_MAX_SETTINGS),
        ("peak_total", c_uint64),
        ("gpu_capacity", c_uint64),
        ("gpus", c_uint64),
        ("step_seconds", c_double),
        ("seconds", c_double),
    ]


class CalibrationRun(ctypes.Structure):
    """trainsize_calibration_run: one measured run of a calibration."""

    _fields_ = [
        ("name", c_char * NAME_MAX),
        ("gpu", c_char * NAME_MAX),
        ("step_seconds", c_double),
        ("step_seconds_before", c_double),
        ("step_seconds_after", c_double),
        ("step_seconds_left_out", c_double),
        ("peak_bytes", c_uint64),
        ("peak_reserved", c_int),
        ("peak_bytes_before", c_uint64),
        ("peak_bytes_after", c_uint64),
    ]


class CalibrationSummary(ctypes.Structure):
    """trainsize_calibration_summary: what a calibration fitted and how well."""

    _fields_ = [
        ("step_error_before", c_double),
        ("step_error_after", c_double),
        ("step_error_left_out", c_double),
        ("left_out", c_int),
        ("peak_error_before", c_double),
        ("peak_error_after", c_double),
        ("peak_runs", c_size_t),
        ("values", c_double * 4),
        ("fitted", c_int * 4),
        ("allocator_slack", c_double),
        ("sharded_slack", c_double),
    ]


#: Runs trainsize_calibrate reads at the most.
CALIBRATION_RUNS_MAX = 256


#: Tensor groups a checkpoint lists (TRAINSIZE_CHECKPOINT_GROUPS).
CHECKPOINT_GROUPS = 16


class CheckpointGroup(ctypes.Structure):
    """trainsize_checkpoint_group: a checkpoint's tensors that share a name prefix."""

    _fields_ = [
        ("name", c_char * 80),
        ("parameters", c_uint64),
        ("tensors", c_uint64),
        ("layers", c_uint64),
        ("unexplained", c_uint64),
    ]


class Checkpoint(ctypes.Structure):
    """trainsize_checkpoint: what a checkpoint's safetensors headers list, in caller
    storage (trainsize_checkpoint_read fills it; trainsize_job_set_checkpoint completes it)."""

    _fields_ = [
        ("parameters", c_uint64),
        ("bytes", c_uint64),
        ("tensors", c_uint64),
        ("files", c_uint32),
        ("dtype", c_char * 16),
        ("config_parameters", c_uint64),
        ("extra_parameters", c_uint64),
        ("group_count", c_uint32),
        ("groups", CheckpointGroup * CHECKPOINT_GROUPS),
    ]


#: Entries trainsize_capacity writes: one per way of training (TRAINSIZE_CAPACITY_METHODS).
CAPACITY_METHODS = 6


class CapacityEntry(ctypes.Structure):
    """trainsize_capacity_entry: the largest model one way of training fits, in caller
    storage (trainsize_capacity fills TRAINSIZE_CAPACITY_METHODS of them)."""

    _fields_ = [
        ("method", c_char * 24),
        ("model", c_char * 64),
        ("parameters", c_uint64),
        ("tokens_per_s", c_double),
        ("peak_total", c_uint64),
        ("args", c_char * 384),
    ]


# ---- trainsize_result: mirrored only to size (and check) the caller's buffer ----

class ModelCounts(ctypes.Structure):
    """trainsize_model_counts."""

    _fields_ = [
        ("name", c_char * NAME_MAX),
        ("parameters", c_uint64),
        ("trainable_parameters", c_uint64),
        ("active_parameters", c_uint64),
        ("embedding_parameters", c_uint64),
        ("layer_parameters", c_uint64),
        ("mtp_parameters", c_uint64),
        ("vision_parameters", c_uint64),
        ("projector_parameters", c_uint64),
    ]


class Memory(ctypes.Structure):
    """trainsize_memory."""

    _fields_ = [
        ("weights", c_uint64),
        ("gradients", c_uint64),
        ("optimizer", c_uint64),
        ("master_weights", c_uint64),
        ("activations", c_uint64),
        ("activations_layers", c_uint64),
        ("activations_embedding", c_uint64),
        ("activations_output", c_uint64),
        ("activations_loss", c_uint64),
        ("activations_per_layer", c_uint64),
        ("in_flight_microbatches", c_double),
        ("transient", c_uint64),
        ("peak_allocated", c_uint64),
        ("cuda_context", c_uint64),
        ("comm_buffers", c_uint64),
        ("allocator_slack", c_uint64),
        ("overhead", c_uint64),
        ("peak_total", c_uint64),
        ("gpu_capacity", c_uint64),
        ("host_offload", c_uint64),
        ("fits", c_int),
        ("peak_phase", c_int),
        ("pipeline_stage", c_int),
        ("peak_includes_activations", c_int),
        ("peak_includes_gradients", c_int),
        ("loading_peak", c_uint64),
        ("peak_reserved", c_uint64),
        ("activations_offloaded", c_uint64),
        ("recomputed_layers", c_uint64),
        ("max_micro_batch", c_uint64),
        ("max_seq", c_uint64),
        ("reference_weights", c_uint64),
        ("critic_state", c_uint64),
        ("rollout_weights", c_uint64),
        ("rollout_kv_cache", c_uint64),
        ("teacher_weights", c_uint64),
        ("vision_weights", c_uint64),
        ("activations_vision", c_uint64),
        ("peak_needed", c_uint64),
    ]


class System(ctypes.Structure):
    """trainsize_system."""

    _fields_ = [
        ("nodes", c_uint64),
        ("gpus_per_node", c_uint64),
        ("host_ram_per_node", c_uint64),
        ("cpu_cores_per_node", c_uint64),
        ("interconnect_rate_per_node", c_uint64),
        ("storage_capacity", c_uint64),
        ("storage_read_rate", c_uint64),
        ("power_watts", c_double),
        ("power_per_node_watts", c_double),
        ("heat_btu_per_hour", c_double),
        ("energy_kwh", c_double),
        ("co2_kg", c_double),
        ("cost_cloud_usd", c_double),
        ("cost_own_usd", c_double),
        ("checkpoint_bytes", c_uint64),
        ("checkpoint_write_rate_total", c_uint64),
        ("checkpoint_write_rate", c_uint64),
        ("intra_node_rate_per_gpu", c_uint64),
        ("storage_class", c_char * 32),
        ("network_link", c_char * 32),
        ("cost_own_hardware_usd", c_double),
        ("cost_own_power_usd", c_double),
        ("host_ram_need_per_node", c_uint64),
        ("network_nics_per_node", c_uint64),
        ("local_storage_class", c_char * 32),
        ("capex_usd", c_double),
        ("capex_servers_usd", c_double),
        ("capex_network_usd", c_double),
        ("capex_storage_usd", c_double),
        ("cost_own_facility_usd", c_double),
        ("cloud_usd_per_month", c_double),
        ("own_usd_per_month", c_double),
        ("breakeven_months", c_double),
        ("racks", c_uint64),
        ("servers_per_rack", c_uint64),
        ("rack_power_watts", c_double),
        ("cooling", c_char * 8),
        ("psus_per_server", c_uint64),
        ("psus_needed", c_uint64),
        ("psu_watts", c_double),
        ("psu_redundancy", c_char * 16),
        ("switches", c_uint64),
        ("switch_tiers", c_uint64),
        ("checkpoint_write_seconds", c_double),
        ("dataset_bytes", c_uint64),
        ("dataset_source", c_char * 16),
        ("rollout_nodes", c_uint64),
    ]


class Time(ctypes.Structure):
    """trainsize_time."""

    _fields_ = [
        ("flops", c_double),
        ("seconds", c_double),
        ("step_flops", c_double),
        ("step_seconds", c_double),
        ("tokens", c_double),
        ("steps", c_uint64),
        ("model_flops", c_double),
        ("gpu_hours", c_double),
        ("comm_seconds", c_double),
        ("offload_seconds", c_double),
        ("wall_seconds", c_double),
        ("goodput", c_double),
        ("expected_interruptions", c_double),
        ("checkpoint_interval", c_double),
        ("checkpoint_stall", c_double),
        ("rollout_seconds", c_double),
        ("overhead_seconds", c_double),
    ]


class Layout(ctypes.Structure):
    """trainsize_layout: the layout and batch an estimate used."""

    _fields_ = [
        ("tp", c_uint64),
        ("pp", c_uint64),
        ("pp_interleave", c_uint64),
        ("cp", c_uint64),
        ("ep", c_uint64),
        ("zero", c_uint64),
        ("micro_batch", c_uint64),
        ("global_batch", c_uint64),
        ("sp", c_int),
        ("recompute", c_int),
    ]


class PlanCandidate(ctypes.Structure):
    """trainsize_plan_candidate: one configuration the planner found."""

    _fields_ = [
        ("gpu", c_char * NAME_MAX),
        ("gpus", c_uint64),
        ("gpus_per_node", c_uint64),
        ("layout", Layout),
        ("peak_total", c_uint64),
        ("seconds", c_double),
        ("cost", c_double),
        ("warnings", c_uint64),
        ("cost_own", c_double),
        ("rollout_tp", c_uint64),
        ("rollout", c_char * 16),
        ("max_tokens_per_gpu", c_uint64),
        ("rollout_gpus", c_uint64),
    ]


class Uncertainty(ctypes.Structure):
    """trainsize_uncertainty"""

    _fields_ = [
        ("time_low", c_double),
        ("time_high", c_double),
        ("memory_low", c_double),
        ("memory_high", c_double),
        ("basis", c_char * (2 * NAME_MAX)),
    ]


class Result(ctypes.Structure):
    """trainsize_result: the caller-owned buffer trainsize_estimate() fills."""

    _fields_ = [
        ("model", ModelCounts),
        ("memory", Memory),
        ("system", System),
        ("time", Time),
        ("gpu", c_char * NAME_MAX),
        ("gpus", c_uint64),
        ("data_parallel", c_uint64),
        ("gradient_accumulation", c_uint64),
        ("warnings", c_uint64),
        ("framework", c_char * 16),
        ("framework_reason", c_char * NAME_MAX),
        ("pipeline_first_layers", c_uint64),
        ("pipeline_layers", c_uint64),
        ("pipeline_last_layers", c_uint64),
        ("layout", Layout),
        ("global_batch_reason", c_char * NAME_MAX),
        ("stack", c_char * 24),
        ("stack_reason", c_char * NAME_MAX),
        ("pp_schedule", c_char * 16),
        ("pipeline_bubble", c_double),
        ("kernels", c_char * 48),
        ("fp8_recipe", c_char * 16),
        ("method", c_char * 8),
        ("reference", c_char * 16),
        ("calibration", c_char * NAME_MAX),
        ("calibration_runs", c_uint64),
        ("tf32", c_char * 16),
        ("tf32_reason", c_char * NAME_MAX),
        ("uncertainty", Uncertainty),
        ("extra_parameters", c_uint64),
        ("extra_tensors", c_char * (2 * NAME_MAX)),
        ("rollout_sync_seconds", c_double),
        ("rollout_network_seconds", c_double),
        ("reward_weights", c_uint64),
        ("critic_gpu_peak", c_uint64),
        ("reward_gpu_peak", c_uint64),
        ("critic_nodes", c_uint64),
        ("reward_nodes", c_uint64),
        ("critic_seconds", c_double),
        ("reward_seconds", c_double),
    ]


#: Result field paths (as the field table names them) -> the mirror's member, as a tuple of
#: attribute names. Used only by the import-time layout check.
RESULT_PATHS = {}
for _section, _struct in (("model", ModelCounts), ("memory", Memory), ("system", System),
                          ("time", Time)):
    for _name, _ in _struct._fields_:
        RESULT_PATHS[_section + "." + _name] = (_section, _name)
RESULT_PATHS.update({
    "layout.gpu": ("gpu",),
    "layout.gpus": ("gpus",),
    "layout.data_parallel": ("data_parallel",),
    "layout.gradient_accumulation": ("gradient_accumulation",),
    "warnings": ("warnings",),
    "layout.framework": ("framework",),
    "layout.framework_reason": ("framework_reason",),
    "layout.pipeline_first_layers": ("pipeline_first_layers",),
    "layout.pipeline_layers": ("pipeline_layers",),
    "layout.pipeline_last_layers": ("pipeline_last_layers",),
    "layout.global_batch_reason": ("global_batch_reason",),
    "layout.stack": ("stack",),
    "layout.stack_reason": ("stack_reason",),
    "layout.pp_schedule": ("pp_schedule",),
    "layout.pipeline_bubble": ("pipeline_bubble",),
    "layout.kernels": ("kernels",),
    "layout.fp8_recipe": ("fp8_recipe",),
    "layout.method": ("method",),
    "layout.reference": ("reference",),
    "layout.calibration": ("calibration",),
    "layout.calibration_runs": ("calibration_runs",),
    "layout.tf32": ("tf32",),
    "layout.tf32_reason": ("tf32_reason",),
    "model.extra_parameters": ("extra_parameters",),  # appended at the struct's end
    "model.extra_tensors": ("extra_tensors",),
    "time.rollout_sync_seconds": ("rollout_sync_seconds",),
    "time.rollout_network_seconds": ("rollout_network_seconds",),
    "memory.reward_weights": ("reward_weights",),
    "memory.critic_gpu_peak": ("critic_gpu_peak",),
    "memory.reward_gpu_peak": ("reward_gpu_peak",),
    "system.critic_nodes": ("critic_nodes",),
    "system.reward_nodes": ("reward_nodes",),
    "time.critic_seconds": ("critic_seconds",),
    "time.reward_seconds": ("reward_seconds",),
})
for _name, _ in Uncertainty._fields_:
    RESULT_PATHS["uncertainty." + _name] = ("uncertainty", _name)
for _name, _ in Layout._fields_:
    RESULT_PATHS["layout." + _name] = ("layout", _name)
del _section, _struct, _name, _


def member_offset(path):
    """Byte offset of the mirrored member for a field path, or None when not mirrored."""
    attrs = RESULT_PATHS.get(path)
    if attrs is None:
        return None
    struct, offset = Result, 0
    for attr in attrs:
        desc = getattr(struct, attr)
        offset += desc.offset
        struct = dict(struct._fields_)[attr]
    return offset


def member_type(path):
    """The ctypes type of the mirrored member for a field path, or None when not mirrored."""
    attrs = RESULT_PATHS.get(path)
    if attrs is None:
        return None
    struct = Result
    for attr in attrs:
        struct = dict(struct._fields_)[attr]
    return struct


def member_value(result, path):
    """The mirrored member's value for a field path (bytes for char arrays)."""
    value = result
    for attr in RESULT_PATHS[path]:
        value = getattr(value, attr)
    return value

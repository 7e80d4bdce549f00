//! Raw declarations mirroring `include/trainsize.h` (ABI version 2), one for one.
//!
//! C enums are `c_int` type aliases with their values as constants (a Rust `enum` must
//! never hold a value the library may add later). Every struct is `#[repr(C)]` with the
//! header's members in the header's order; the safe wrapper checks their sizes against
//! `trainsize_struct_size` before first use.

#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_double, c_int, c_uint, c_void};

/* ---- Version ---- */

/// Major release number of the header these declarations mirror.
pub const TRAINSIZE_VERSION_MAJOR: c_uint = 0;
/// Minor release number.
pub const TRAINSIZE_VERSION_MINOR: c_uint = 1;
/// Patch release number.
pub const TRAINSIZE_VERSION_PATCH: c_uint = 0;
/// major * 10000 + minor * 100 + patch.
pub const TRAINSIZE_VERSION_NUMBER: c_uint =
    TRAINSIZE_VERSION_MAJOR * 10000 + TRAINSIZE_VERSION_MINOR * 100 + TRAINSIZE_VERSION_PATCH;
/// "major.minor.patch".
pub const TRAINSIZE_VERSION_STRING: &str = "0.1.0";
/// The ABI these declarations are written for (the SONAME's number).
pub const TRAINSIZE_ABI_VERSION: c_uint = 2;

/* ---- Struct sizes ---- */

/// `trainsize_struct_id`
pub type trainsize_struct_id = c_int;
pub const TRAINSIZE_STRUCT_ERROR: trainsize_struct_id = 0;
pub const TRAINSIZE_STRUCT_RESULT: trainsize_struct_id = 1;
pub const TRAINSIZE_STRUCT_PLAN_CANDIDATE: trainsize_struct_id = 2;
pub const TRAINSIZE_STRUCT_PLAN_STATS: trainsize_struct_id = 3;
pub const TRAINSIZE_STRUCT_FIELD_VALUE: trainsize_struct_id = 4;
pub const TRAINSIZE_STRUCT_GPU_INFO: trainsize_struct_id = 5;
pub const TRAINSIZE_STRUCT_ADVICE: trainsize_struct_id = 6;
pub const TRAINSIZE_STRUCT_CHECKPOINT: trainsize_struct_id = 7;
pub const TRAINSIZE_STRUCT_CAPACITY_ENTRY: trainsize_struct_id = 8;

/// `TRAINSIZE_ADVICE_MAX_SETTINGS`
pub const TRAINSIZE_ADVICE_MAX_SETTINGS: usize = 6;

/* ---- Errors ---- */

/// `trainsize_status`
pub type trainsize_status = c_int;
pub const TRAINSIZE_OK: trainsize_status = 0;
pub const TRAINSIZE_E_INVALID: trainsize_status = -1;
pub const TRAINSIZE_E_UNKNOWN: trainsize_status = -2;
pub const TRAINSIZE_E_LAYOUT: trainsize_status = -3;
pub const TRAINSIZE_E_OVERFLOW: trainsize_status = -4;
pub const TRAINSIZE_E_PARSE: trainsize_status = -5;
pub const TRAINSIZE_E_LIMIT: trainsize_status = -6;
pub const TRAINSIZE_E_IO: trainsize_status = -7;
pub const TRAINSIZE_E_NOMEM: trainsize_status = -8;
pub const TRAINSIZE_E_ARGUMENT: trainsize_status = -9;
pub const TRAINSIZE_E_UNSUPPORTED: trainsize_status = -10;
pub const TRAINSIZE_E_CANCELLED: trainsize_status = -11;

/// Capacity of `trainsize_error::field`, including the NUL.
pub const TRAINSIZE_ERROR_FIELD_MAX: usize = 64;
/// Capacity of `trainsize_error::message`, including the NUL.
pub const TRAINSIZE_ERROR_MESSAGE_MAX: usize = 256;

/// `trainsize_error`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_error {
    pub code: c_int,
    pub field: [c_char; TRAINSIZE_ERROR_FIELD_MAX],
    pub message: [c_char; TRAINSIZE_ERROR_MESSAGE_MAX],
}

/* ---- Jobs ---- */

/// Opaque `trainsize_job`.
#[repr(C)]
pub struct trainsize_job {
    _opaque: [u8; 0],
    // Not Send, not Sync, not Unpin: the wrapper decides.
    _marker: std::marker::PhantomData<(*mut u8, std::marker::PhantomPinned)>,
}

/// Largest Hugging Face config.json the reader accepts, in bytes.
pub const TRAINSIZE_HF_CONFIG_MAX_BYTES: usize = 1 << 20;
/// Deepest JSON nesting the reader accepts.
pub const TRAINSIZE_HF_CONFIG_MAX_DEPTH: usize = 32;

/* ---- Parameter catalogue ---- */

/// `trainsize_param_kind`
pub type trainsize_param_kind = c_int;
pub const TRAINSIZE_PARAM_INT: trainsize_param_kind = 0;
pub const TRAINSIZE_PARAM_FLOAT: trainsize_param_kind = 1;
pub const TRAINSIZE_PARAM_BOOL: trainsize_param_kind = 2;
pub const TRAINSIZE_PARAM_CHOICE: trainsize_param_kind = 3;
pub const TRAINSIZE_PARAM_NAME: trainsize_param_kind = 4;
pub const TRAINSIZE_PARAM_LIST: trainsize_param_kind = 5;

/// `trainsize_param_info` (library-owned, static).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_param_info {
    pub name: *const c_char,
    pub kind: trainsize_param_kind,
    pub choices: *const c_char,
    pub min: c_double,
    pub max: c_double,
    pub default_text: *const c_char,
    pub unit: *const c_char,
    pub doc: *const c_char,
}

/* ---- Catalogues of models and GPUs ---- */

/// `trainsize_model_info` (library-owned, static).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_model_info {
    pub name: *const c_char,
    pub family: *const c_char,
    pub parameters: u64,
    pub active_parameters: u64,
    pub source: *const c_char,
}

/// `trainsize_gpu_info` (library-owned, static; or the caller's, for
/// `trainsize_job_set_gpu`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_gpu_info {
    pub name: *const c_char,
    pub full_name: *const c_char,
    pub memory_bytes: u64,
    pub memory_bandwidth: u64,
    pub flops_fp32: c_double,
    pub flops_bf16: c_double,
    pub flops_fp8: c_double,
    pub tdp_watts: c_double,
    pub ecc: c_int,
    pub data_center: c_int,
    pub scale_up_bandwidth: u64,
    pub pcie_generation: c_int,
    pub source: *const c_char,
    pub cloud_usd_per_hour: c_double,
    pub purchase_usd: c_double,
    pub price_source: *const c_char,
    pub usable_bytes: u64,
    pub no_bf16: c_int,
    pub no_flash_attention: c_int,
    pub architecture: *const c_char,
    pub vendor: *const c_char,
    pub kind: c_int,
    pub no_fp16: c_int,
    pub flops_fp16: c_double,
    pub flops_fp4: c_double,
    pub scale_up_domain: u64,
    pub per_host: c_int,
    pub host_ram_bytes: u64,
    pub host_cores: c_int,
    pub price_date: *const c_char,
    pub host_network: *const c_char,
    pub host_nics: c_int,
    pub flops_tf32: c_double,
}

/// `trainsize_accelerator_kind`
pub type trainsize_accelerator_kind = c_int;
pub const TRAINSIZE_ACCELERATOR_GPU: trainsize_accelerator_kind = 0;
pub const TRAINSIZE_ACCELERATOR_TPU: trainsize_accelerator_kind = 1;

/// `trainsize_link_kind`
pub type trainsize_link_kind = c_int;
pub const TRAINSIZE_LINK_SCALE_UP: trainsize_link_kind = 0;
pub const TRAINSIZE_LINK_SCALE_OUT: trainsize_link_kind = 1;

/// `trainsize_link_info` (library-owned, static).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_link_info {
    pub name: *const c_char,
    pub full_name: *const c_char,
    pub kind: c_int,
    pub bandwidth: u64,
    pub achieved_share: c_double,
    pub source: *const c_char,
}

/// `trainsize_storage_info` (library-owned, static).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_storage_info {
    pub name: *const c_char,
    pub full_name: *const c_char,
    pub read_rate: u64,
    pub write_rate: u64,
    pub shared: c_int,
    pub source: *const c_char,
    pub aggregate_read_rate: u64,
    pub aggregate_write_rate: u64,
}

/* ---- Results ---- */

pub const TRAINSIZE_WARN_DOES_NOT_FIT: u64 = 1 << 0;
pub const TRAINSIZE_WARN_LOW_HEADROOM: u64 = 1 << 1;
pub const TRAINSIZE_WARN_HOST_RAM: u64 = 1 << 2;
pub const TRAINSIZE_WARN_CPU_CORES: u64 = 1 << 3;
pub const TRAINSIZE_WARN_STORAGE: u64 = 1 << 4;
pub const TRAINSIZE_WARN_NETWORK: u64 = 1 << 5;
pub const TRAINSIZE_WARN_TP_WITHOUT_NVLINK: u64 = 1 << 6;
pub const TRAINSIZE_WARN_SLOW_MULTINODE: u64 = 1 << 7;
pub const TRAINSIZE_WARN_NO_ECC: u64 = 1 << 8;
pub const TRAINSIZE_WARN_RACK_POWER: u64 = 1 << 9;
pub const TRAINSIZE_WARN_NO_PRICE: u64 = 1 << 10;
pub const TRAINSIZE_WARN_GPU_LINK: u64 = 1 << 11;

/// Capacity of the name strings in `trainsize_result`, including the NUL.
pub const TRAINSIZE_NAME_MAX: usize = 96;

/// `trainsize_phase`
pub type trainsize_phase = c_int;
pub const TRAINSIZE_PHASE_FORWARD_BACKWARD: trainsize_phase = 0;
pub const TRAINSIZE_PHASE_BACKWARD_END: trainsize_phase = 1;
pub const TRAINSIZE_PHASE_OPTIMIZER_STEP: trainsize_phase = 2;
pub const TRAINSIZE_PHASE_LOADING: trainsize_phase = 3;
pub const TRAINSIZE_PHASE_ROLLOUT: trainsize_phase = 4;

/// `trainsize_model_counts`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_model_counts {
    pub name: [c_char; TRAINSIZE_NAME_MAX],
    pub parameters: u64,
    pub trainable_parameters: u64,
    pub active_parameters: u64,
    pub embedding_parameters: u64,
    pub layer_parameters: u64,
    pub mtp_parameters: u64,
    pub vision_parameters: u64,
    pub projector_parameters: u64,
}

/// `trainsize_memory`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_memory {
    pub weights: u64,
    pub gradients: u64,
    pub optimizer: u64,
    pub master_weights: u64,
    pub activations: u64,
    pub activations_layers: u64,
    pub activations_embedding: u64,
    pub activations_output: u64,
    pub activations_loss: u64,
    pub activations_per_layer: u64,
    pub in_flight_microbatches: c_double,
    pub transient: u64,
    pub peak_allocated: u64,
    pub cuda_context: u64,
    pub comm_buffers: u64,
    pub allocator_slack: u64,
    pub overhead: u64,
    pub peak_total: u64,
    pub gpu_capacity: u64,
    pub host_offload: u64,
    pub fits: c_int,
    pub peak_phase: c_int,
    pub pipeline_stage: c_int,
    pub peak_includes_activations: c_int,
    pub peak_includes_gradients: c_int,
    pub loading_peak: u64,
    pub peak_reserved: u64,
    pub activations_offloaded: u64,
    pub recomputed_layers: u64,
    pub max_micro_batch: u64,
    pub max_seq: u64,
    pub reference_weights: u64,
    pub critic_state: u64,
    pub rollout_weights: u64,
    pub rollout_kv_cache: u64,
    pub teacher_weights: u64,
    pub vision_weights: u64,
    pub activations_vision: u64,
    pub peak_needed: u64,
}

/// `trainsize_system`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_system {
    pub nodes: u64,
    pub gpus_per_node: u64,
    pub host_ram_per_node: u64,
    pub cpu_cores_per_node: u64,
    pub interconnect_rate_per_node: u64,
    pub storage_capacity: u64,
    pub storage_read_rate: u64,
    pub power_watts: c_double,
    pub power_per_node_watts: c_double,
    pub heat_btu_per_hour: c_double,
    pub energy_kwh: c_double,
    pub co2_kg: c_double,
    pub cost_cloud_usd: c_double,
    pub cost_own_usd: c_double,
    pub checkpoint_bytes: u64,
    pub checkpoint_write_rate_total: u64,
    pub checkpoint_write_rate: u64,
    pub intra_node_rate_per_gpu: u64,
    pub storage_class: [c_char; 32],
    pub network_link: [c_char; 32],
    pub cost_own_hardware_usd: c_double,
    pub cost_own_power_usd: c_double,
    pub host_ram_need_per_node: u64,
    pub network_nics_per_node: u64,
    pub local_storage_class: [c_char; 32],
    pub capex_usd: c_double,
    pub capex_servers_usd: c_double,
    pub capex_network_usd: c_double,
    pub capex_storage_usd: c_double,
    pub cost_own_facility_usd: c_double,
    pub cloud_usd_per_month: c_double,
    pub own_usd_per_month: c_double,
    pub breakeven_months: c_double,
    pub racks: u64,
    pub servers_per_rack: u64,
    pub rack_power_watts: c_double,
    pub cooling: [c_char; 8],
    pub psus_per_server: u64,
    pub psus_needed: u64,
    pub psu_watts: c_double,
    pub psu_redundancy: [c_char; 16],
    pub switches: u64,
    pub switch_tiers: u64,
    pub checkpoint_write_seconds: c_double,
    pub dataset_bytes: u64,
    pub dataset_source: [c_char; 16],
    pub rollout_nodes: u64,
}

/// `trainsize_time`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_time {
    pub flops: c_double,
    pub seconds: c_double,
    pub step_flops: c_double,
    pub step_seconds: c_double,
    pub tokens: c_double,
    pub steps: u64,
    pub model_flops: c_double,
    pub gpu_hours: c_double,
    pub comm_seconds: c_double,
    pub offload_seconds: c_double,
    pub wall_seconds: c_double,
    pub goodput: c_double,
    pub expected_interruptions: c_double,
    pub checkpoint_interval: c_double,
    pub checkpoint_stall: c_double,
    pub rollout_seconds: c_double,
    pub overhead_seconds: c_double,
}

/// `trainsize_recompute`
pub type trainsize_recompute = c_int;
pub const TRAINSIZE_RECOMPUTE_NONE: trainsize_recompute = 0;
pub const TRAINSIZE_RECOMPUTE_SELECTIVE: trainsize_recompute = 1;
pub const TRAINSIZE_RECOMPUTE_FULL: trainsize_recompute = 2;
pub const TRAINSIZE_RECOMPUTE_PER_OP: trainsize_recompute = 3;

/// `trainsize_layout`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_layout {
    pub tp: u64,
    pub pp: u64,
    pub pp_interleave: u64,
    pub cp: u64,
    pub ep: u64,
    pub zero: u64,
    pub micro_batch: u64,
    pub global_batch: u64,
    pub sp: c_int,
    pub recompute: c_int,
}

/// `trainsize_uncertainty`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_uncertainty {
    pub time_low: f64,
    pub time_high: f64,
    pub memory_low: f64,
    pub memory_high: f64,
    pub basis: [c_char; 2 * TRAINSIZE_NAME_MAX],
}

/// `trainsize_result`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_result {
    pub model: trainsize_model_counts,
    pub memory: trainsize_memory,
    pub system: trainsize_system,
    pub time: trainsize_time,
    pub gpu: [c_char; TRAINSIZE_NAME_MAX],
    pub gpus: u64,
    pub data_parallel: u64,
    pub gradient_accumulation: u64,
    pub warnings: u64,
    pub framework: [c_char; 16],
    pub framework_reason: [c_char; TRAINSIZE_NAME_MAX],
    pub pipeline_first_layers: u64,
    pub pipeline_layers: u64,
    pub pipeline_last_layers: u64,
    pub layout: trainsize_layout,
    pub global_batch_reason: [c_char; TRAINSIZE_NAME_MAX],
    pub stack: [c_char; 24],
    pub stack_reason: [c_char; TRAINSIZE_NAME_MAX],
    pub pp_schedule: [c_char; 16],
    pub pipeline_bubble: f64,
    pub kernels: [c_char; 48],
    pub fp8_recipe: [c_char; 16],
    pub method: [c_char; 8],
    pub reference: [c_char; 16],
    pub calibration: [c_char; TRAINSIZE_NAME_MAX],
    pub calibration_runs: u64,
    pub tf32: [c_char; 16],
    pub tf32_reason: [c_char; TRAINSIZE_NAME_MAX],
    pub uncertainty: trainsize_uncertainty,
    pub extra_parameters: u64,
    pub extra_tensors: [c_char; 2 * TRAINSIZE_NAME_MAX],
    pub rollout_sync_seconds: f64,
    pub rollout_network_seconds: f64,
    pub reward_weights: u64,
    pub critic_gpu_peak: u64,
    pub reward_gpu_peak: u64,
    pub critic_nodes: u64,
    pub reward_nodes: u64,
    pub critic_seconds: f64,
    pub reward_seconds: f64,
}

/* ---- Site calibration ---- */

/// `trainsize_calibration_run`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_calibration_run {
    pub name: [c_char; TRAINSIZE_NAME_MAX],
    pub gpu: [c_char; TRAINSIZE_NAME_MAX],
    pub step_seconds: f64,
    pub step_seconds_before: f64,
    pub step_seconds_after: f64,
    pub step_seconds_left_out: f64,
    pub peak_bytes: u64,
    pub peak_reserved: c_int,
    pub peak_bytes_before: u64,
    pub peak_bytes_after: u64,
}

/// `trainsize_calibration_summary`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_calibration_summary {
    pub step_error_before: f64,
    pub step_error_after: f64,
    pub step_error_left_out: f64,
    pub left_out: c_int,
    pub peak_error_before: f64,
    pub peak_error_after: f64,
    pub peak_runs: usize,
    pub values: [f64; 4],
    pub fitted: [c_int; 4],
    pub allocator_slack: f64,
    pub sharded_slack: f64,
}

/* ---- Checkpoints ---- */

/// Largest safetensors header read, in bytes (`TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES`).
pub const TRAINSIZE_SAFETENSORS_HEADER_MAX_BYTES: u32 = 100_000_000;
/// Most shards an index may name (`TRAINSIZE_CHECKPOINT_MAX_FILES`).
pub const TRAINSIZE_CHECKPOINT_MAX_FILES: u32 = 4096;

/// Tensor groups a checkpoint lists (`TRAINSIZE_CHECKPOINT_GROUPS`).
pub const TRAINSIZE_CHECKPOINT_GROUPS: usize = 16;

/// `trainsize_checkpoint_group`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct trainsize_checkpoint_group {
    pub name: [c_char; 80],
    pub parameters: u64,
    pub tensors: u64,
    pub layers: u64,
    pub unexplained: u64,
}

impl Default for trainsize_checkpoint_group {
    fn default() -> Self {
        trainsize_checkpoint_group { name: [0; 80], parameters: 0, tensors: 0, layers: 0, unexplained: 0 }
    }
}

/// `trainsize_checkpoint`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct trainsize_checkpoint {
    pub parameters: u64,
    pub bytes: u64,
    pub tensors: u64,
    pub files: u32,
    pub dtype: [c_char; 16],
    pub config_parameters: u64,
    pub extra_parameters: u64,
    pub group_count: u32,
    pub groups: [trainsize_checkpoint_group; TRAINSIZE_CHECKPOINT_GROUPS],
}

/* ---- What a server can train ---- */

/// Entries `trainsize_capacity` writes, one per way of training
/// (`TRAINSIZE_CAPACITY_METHODS`).
pub const TRAINSIZE_CAPACITY_METHODS: usize = 6;

/// `trainsize_capacity_entry`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_capacity_entry {
    pub method: [c_char; 24],
    pub model: [c_char; 64],
    pub parameters: u64,
    pub tokens_per_s: c_double,
    pub peak_total: u64,
    pub args: [c_char; 384],
}

/* ---- Planning ---- */

/// `trainsize_plan_candidate`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_plan_candidate {
    pub gpu: [c_char; TRAINSIZE_NAME_MAX],
    pub gpus: u64,
    pub gpus_per_node: u64,
    pub layout: trainsize_layout,
    pub peak_total: u64,
    pub seconds: c_double,
    pub cost: c_double,
    pub warnings: u64,
    pub cost_own: c_double,
    pub rollout_tp: u64,
    pub rollout: [c_char; 16],
    pub max_tokens_per_gpu: u64,
    pub rollout_gpus: u64,
}

/// `trainsize_plan_stats`
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct trainsize_plan_stats {
    pub evaluated: u64,
    pub estimated: u64,
    pub feasible: u64,
    pub fit_memory: u64,
    pub fastest_fit_seconds: c_double,
    pub cheapest_fit_cost: c_double,
    pub least_overshoot: c_double,
    pub pruned_memory: u64,
    pub pruned_bound: u64,
    pub bounds: u64,
    pub counts_skipped: u64,
}

/// `trainsize_plan_progress_fn`: (context, done, total, examined); non-zero cancels.
pub type trainsize_plan_progress_fn =
    Option<unsafe extern "C" fn(context: *mut c_void, done: u64, total: u64, examined: u64) -> c_int>;

/// `trainsize_advice`
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct trainsize_advice {
    pub settings: usize,
    pub names: [[c_char; 32]; TRAINSIZE_ADVICE_MAX_SETTINGS],
    pub values: [[c_char; 32]; TRAINSIZE_ADVICE_MAX_SETTINGS],
    pub peak_total: u64,
    pub gpu_capacity: u64,
    pub gpus: u64,
    pub step_seconds: c_double,
    pub seconds: c_double,
}

/* ---- Result fields ---- */

/// `trainsize_field_type`
pub type trainsize_field_type = c_int;
pub const TRAINSIZE_FIELD_U64: trainsize_field_type = 0;
pub const TRAINSIZE_FIELD_F64: trainsize_field_type = 1;
pub const TRAINSIZE_FIELD_BOOL: trainsize_field_type = 2;
pub const TRAINSIZE_FIELD_STRING: trainsize_field_type = 3;
pub const TRAINSIZE_FIELD_CHOICE: trainsize_field_type = 4;
pub const TRAINSIZE_FIELD_FLAGS: trainsize_field_type = 5;

/// `trainsize_field_info` (library-owned, static).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_field_info {
    pub path: *const c_char,
    pub type_: trainsize_field_type,
    pub unit: *const c_char,
    pub doc: *const c_char,
}

/// `trainsize_field_value`
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct trainsize_field_value {
    pub type_: trainsize_field_type,
    pub u64: u64,
    pub f64: c_double,
    pub text: *const c_char,
}

/* ---- Functions ---- */

extern "C" {
    pub fn trainsize_version_string() -> *const c_char;
    pub fn trainsize_version_number() -> c_uint;
    pub fn trainsize_abi_version() -> c_uint;
    pub fn trainsize_struct_size(which: c_int) -> usize;

    pub fn trainsize_strerror(code: c_int) -> *const c_char;

    pub fn trainsize_job_new() -> *mut trainsize_job;
    pub fn trainsize_job_clone(job: *const trainsize_job) -> *mut trainsize_job;
    pub fn trainsize_job_free(job: *mut trainsize_job);
    pub fn trainsize_job_set(
        job: *mut trainsize_job,
        name: *const c_char,
        value: *const c_char,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_get(
        job: *const trainsize_job,
        name: *const c_char,
        buf: *mut c_char,
        cap: usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_hf_config(
        job: *mut trainsize_job,
        json: *const c_char,
        len: usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_hf_config_file(
        job: *mut trainsize_job,
        path: *const c_char,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_param_count() -> usize;
    pub fn trainsize_param_at(index: usize) -> *const trainsize_param_info;

    pub fn trainsize_model_count() -> usize;
    pub fn trainsize_model_at(index: usize) -> *const trainsize_model_info;

    pub fn trainsize_gpu_count() -> usize;
    pub fn trainsize_gpu_at(index: usize) -> *const trainsize_gpu_info;
    pub fn trainsize_job_set_gpu(
        job: *mut trainsize_job,
        info: *const trainsize_gpu_info,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_gpu_json(
        job: *mut trainsize_job,
        json: *const c_char,
        len: usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_gpu_file(
        job: *mut trainsize_job,
        path: *const c_char,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_calibration_json(
        job: *mut trainsize_job,
        json: *const c_char,
        len: usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_calibration(
        job: *mut trainsize_job,
        path: *const c_char,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_calibrate(
        runs_json: *const c_char,
        len: usize,
        date: *const c_char,
        runs: *mut trainsize_calibration_run,
        cap: usize,
        count: *mut usize,
        summary: *mut trainsize_calibration_summary,
        calibration: *mut c_char,
        calibration_cap: usize,
        calibration_len: *mut usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_gpu_find(name: *const c_char) -> *const trainsize_gpu_info;

    pub fn trainsize_link_count() -> usize;
    pub fn trainsize_link_at(index: usize) -> *const trainsize_link_info;
    pub fn trainsize_link_find(name: *const c_char) -> *const trainsize_link_info;

    pub fn trainsize_storage_count() -> usize;
    pub fn trainsize_storage_at(index: usize) -> *const trainsize_storage_info;
    pub fn trainsize_storage_find(name: *const c_char) -> *const trainsize_storage_info;

    pub fn trainsize_warning_name(bit: u64) -> *const c_char;
    pub fn trainsize_warning_text(bit: u64) -> *const c_char;

    pub fn trainsize_example_setting(index: usize, name: *mut *const c_char, value: *mut *const c_char) -> c_int;

    pub fn trainsize_estimate(
        job: *const trainsize_job,
        out: *mut trainsize_result,
        out_size: usize,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_largest_fit(
        job: *const trainsize_job,
        max_micro_batch: *mut u64,
        max_seq: *mut u64,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_advise(
        job: *const trainsize_job,
        out: *mut trainsize_advice,
        cap: usize,
        count: *mut usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_plan(
        job: *const trainsize_job,
        out: *mut trainsize_plan_candidate,
        cap: usize,
        count: *mut usize,
        stats: *mut trainsize_plan_stats,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_plan_with_progress(
        job: *const trainsize_job,
        out: *mut trainsize_plan_candidate,
        cap: usize,
        count: *mut usize,
        stats: *mut trainsize_plan_stats,
        progress: trainsize_plan_progress_fn,
        context: *mut c_void,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_plan_apply(
        job: *mut trainsize_job,
        candidate: *const trainsize_plan_candidate,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_result_json(
        result: *const trainsize_result,
        advice: *const trainsize_advice,
        advice_count: usize,
        buf: *mut c_char,
        cap: usize,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_result_field_count() -> usize;
    pub fn trainsize_result_field_at(index: usize) -> *const trainsize_field_info;
    pub fn trainsize_result_field_get(
        result: *const trainsize_result,
        index: usize,
        out: *mut trainsize_field_value,
    ) -> c_int;

    pub fn trainsize_plan_field_count() -> usize;
    pub fn trainsize_plan_field_at(index: usize) -> *const trainsize_field_info;
    pub fn trainsize_plan_field_get(
        candidate: *const trainsize_plan_candidate,
        index: usize,
        out: *mut trainsize_field_value,
    ) -> c_int;

    pub fn trainsize_gpu_field_count() -> usize;
    pub fn trainsize_gpu_field_at(index: usize) -> *const trainsize_field_info;
    pub fn trainsize_gpu_field_get(
        gpu: *const trainsize_gpu_info,
        index: usize,
        out: *mut trainsize_field_value,
    ) -> c_int;

    pub fn trainsize_model_field_count() -> usize;
    pub fn trainsize_model_field_at(index: usize) -> *const trainsize_field_info;
    pub fn trainsize_model_field_get(
        model: *const trainsize_model_info,
        index: usize,
        out: *mut trainsize_field_value,
    ) -> c_int;

    pub fn trainsize_plan_json(
        job: *const trainsize_job,
        candidates: *const trainsize_plan_candidate,
        count: usize,
        stats: *const trainsize_plan_stats,
        buf: *mut c_char,
        cap: usize,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_gpus_json(buf: *mut c_char, cap: usize, err: *mut trainsize_error) -> c_int;
    pub fn trainsize_models_json(buf: *mut c_char, cap: usize, err: *mut trainsize_error) -> c_int;

    pub fn trainsize_checkpoint_read(
        path: *const c_char,
        out: *mut trainsize_checkpoint,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_set_checkpoint(
        job: *mut trainsize_job,
        ck: *mut trainsize_checkpoint,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_job_load_checkpoint(
        job: *mut trainsize_job,
        dir: *const c_char,
        name: *const c_char,
        ck: *mut trainsize_checkpoint,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_capacity(
        gpu: *const c_char,
        gpus: u64,
        gpus_per_node: u64,
        seq: u64,
        micro_batch: u64,
        host_ram: u64,
        out: *mut trainsize_capacity_entry,
        err: *mut trainsize_error,
    ) -> c_int;
    pub fn trainsize_capacity_json(
        gpu: *const c_char,
        gpus: u64,
        seq: u64,
        micro_batch: u64,
        entries: *const trainsize_capacity_entry,
        buf: *mut c_char,
        cap: usize,
        err: *mut trainsize_error,
    ) -> c_int;

    pub fn trainsize_hf_hub_cache(buf: *mut c_char, cap: usize) -> c_int;
    pub fn trainsize_hf_snapshot(
        hub_cache: *const c_char,
        id: *const c_char,
        revision: *const c_char,
        buf: *mut c_char,
        cap: usize,
        err: *mut trainsize_error,
    ) -> c_int;
}

//! Estimates through the bindings equal the command's `trainsize estimate --json`.

mod common;

use common::{estimate_args, exe, expected_structure, first_difference, parse, run, Json, EXAMPLE_JOB};
use trainsize::{sys, FieldValue, Job};

/// Jobs that exercise most of the model: dense and MoE, tensor/pipeline/expert
/// parallelism, ZeRO stages, LoRA/QLoRA, offload, several servers, a job that does not
/// fit, custom run lengths and prices.
const JOBS: &[&[(&str, &str)]] = &[
    EXAMPLE_JOB,
    &[("model", "llama-2-13b"), ("gpu", "h100-80gb"), ("gpus", "16"), ("tp", "2"), ("zero", "1")],
    &[
        ("model", "mixtral-8x7b"),
        ("gpu", "h100-80gb"),
        ("gpus", "32"),
        ("ep", "8"),
        ("tp", "2"),
        ("zero", "1"),
        ("seq", "4096"),
        ("tokens", "1e10"),
    ],
    &[
        ("model", "llama-2-70b"),
        ("gpu", "a100-80gb"),
        ("gpus", "64"),
        ("tp", "8"),
        ("pp", "4"),
        ("pp-interleave", "2"),
        ("micro-batch", "2"),
        ("global-batch", "512"),
        ("recompute", "selective"),
        ("sp", "true"),
        ("tokens", "2e12"),
    ],
    &[
        ("model", "gpt2"),
        ("gpu", "rtx-4090"),
        ("precision", "fp16-mixed"),
        ("framework", "pytorch"),
        ("attention", "eager"),
        ("dropout", "0.1"),
        ("optimizer", "adamw-8bit"),
        ("micro-batch", "8"),
        ("seq", "1024"),
    ],
    &[("model", "llama-2-7b"), ("gpu", "a10"), ("lora-rank", "16"), ("quantize-base", "nf4"), ("lora-targets", "q,k,v,o")],
    &[
        ("model", "llama-3-70b"),
        ("gpu", "h100-80gb"),
        ("gpus", "256"),
        ("tp", "8"),
        ("pp", "4"),
        ("zero", "1"),
        ("tokens", "1e12"),
        ("network", "eth-100g"),
        ("storage", "nfs"),
        ("gpu-hour-usd", "2.5"),
    ],
    &[("model", "llama-2-70b"), ("gpus", "1")],
    &[("model", "qwen2.5-7b"), ("gpus", "8"), ("zero", "3"), ("offload", "optimizer+params"), ("cp", "2"), ("seq", "32768")],
    &[("model", "llama-2-7b"), ("layers", "40"), ("hidden", "5120"), ("heads", "40"), ("kv-heads", "8"), ("seq", "2048"), ("gpus", "4"), ("zero", "2")],
    // The largest that fits, buying against renting and goodput on a cluster that fails.
    &[
        ("model", "llama-2-13b"),
        ("gpu", "h100-80gb"),
        ("gpus", "64"),
        ("tp", "2"),
        ("zero", "1"),
        ("global-batch", "512"),
        ("tokens", "1e11"),
        ("largest-fit", "true"),
        ("interruptions-per-gpu-day", "0.01"),
        ("checkpoint-async", "true"),
        ("spare-nodes", "1"),
        ("dataset-bytes", "2TB"),
    ],
    // DPO with its frozen reference model; PPO with its critic and a colocated rollout engine.
    &[("model", "llama-3-8b"), ("gpu", "h100-80gb"), ("gpus", "8"), ("zero", "3"), ("method", "dpo")],
    &[("model", "qwen2.5-7b"), ("gpu", "h100-80gb"), ("gpus", "8"), ("zero", "3"), ("seq", "1024"), ("method", "ppo")],
    // PPO with a critic and a reward model on GPUs of their own.
    &[
        ("model", "qwen2.5-7b"),
        ("gpu", "h100-80gb"),
        ("gpus", "8"),
        ("zero", "3"),
        ("seq", "1024"),
        ("method", "ppo"),
        ("critic-model", "llama-3.2-1b"),
        ("critic-gpus", "8"),
        ("reward-model", "llama-3.2-1b"),
        ("reward-gpus", "8"),
    ],
    &[("model", "llama-3.2-1b"), ("gpus", "8"), ("zero", "3"), ("method", "distill"), ("teacher", "llama-3-8b")],
];

fn job_of(settings: &[(&str, &str)]) -> Job {
    Job::with_settings(settings.iter().copied()).unwrap_or_else(|e| panic!("{:?}: {}", settings, e))
}

/// to_json() is the command's text byte for byte; and the parsed structures agree (the
/// command's, to_json()'s, and one built from fields() alone).
fn assert_matches_command(job: &Job, cli_json: &str, what: &str) {
    let estimate = job.estimate().unwrap_or_else(|e| panic!("{}: {}", what, e));
    let ours = estimate.to_json();
    let theirs = parse(cli_json).unwrap_or_else(|e| panic!("{}: the command's JSON: {}", what, e));
    let from_fields = expected_structure(&estimate);
    if let Some(d) = first_difference(&theirs, &from_fields, "") {
        panic!("{}: fields() differ from the command's JSON at {}", what, d);
    }
    let parsed_ours = parse(&ours).unwrap_or_else(|e| panic!("{}: to_json(): {}", what, e));
    if let Some(d) = first_difference(&theirs, &parsed_ours, "") {
        panic!("{}: to_json() differs from the command's JSON at {}", what, d);
    }
    assert_eq!(theirs.keys().first().copied(), Some("trainsize_version"), "{}", what);
    assert_eq!(ours, cli_json, "{}: to_json() is not the command's text byte for byte", what);
}

#[test]
fn bare_example_equals_bare_command() {
    let exe = match exe() {
        Some(e) => e,
        None => return,
    };
    // No job option at all: the command sizes its built-in example job.
    let run = run(&exe, &["--json".to_string()]);
    assert_eq!(run.status, 0, "{}", run.stderr);
    assert_matches_command(&job_of(EXAMPLE_JOB), &run.stdout, "the example job");
}

#[test]
fn jobs_equal_the_command() {
    let exe = match exe() {
        Some(e) => e,
        None => return,
    };
    for settings in JOBS {
        let run = run(&exe, &estimate_args(settings));
        assert_eq!(run.status, 0, "{:?}: {}", settings, run.stderr);
        assert_matches_command(&job_of(settings), &run.stdout, &format!("{:?}", settings));
    }
}

#[test]
fn hf_configs_equal_the_command() {
    let exe = match exe() {
        Some(e) => e,
        None => return,
    };
    let dir = common::data_dir().join("hf");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {}", dir.display(), e))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().map(|x| x == "json").unwrap_or(false))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    // seq left to its default: 2048, or the model's learned positions when fewer (GPT-2's
    // 1024, BERT's 512, ViT-B/16's 197).
    let rest: &[(&str, &str)] = &[("gpu", "h100-80gb"), ("gpus", "8"), ("zero", "3")];
    for path in &paths {
        let mut args = estimate_args(rest);
        args.push(format!("--hf-config={}", path.display()));
        let run = run(&exe, &args);
        assert_eq!(run.status, 0, "{}: {}", path.display(), run.stderr);

        let mut job = Job::new().unwrap();
        job.load_hf_config_file(path).unwrap();
        for (name, value) in rest {
            job.set(name, value).unwrap();
        }
        assert_matches_command(&job, &run.stdout, &path.display().to_string());

        // From the text, the figures are the same (the name may be the file's or not).
        let text = std::fs::read_to_string(path).unwrap();
        let mut from_text = Job::new().unwrap();
        from_text.load_hf_config_str(&text).unwrap();
        for (name, value) in rest {
            from_text.set(name, value).unwrap();
        }
        let a = job.estimate().unwrap();
        let b = from_text.estimate().unwrap();
        assert_eq!(a.memory(), b.memory(), "{}", path.display());
        assert_eq!(a.time(), b.time(), "{}", path.display());
        assert_eq!(a.model().parameters, b.model().parameters, "{}", path.display());
    }
}

/// Each field of the table, read by the library through its offset, equals the member of
/// the Rust struct it names: the #[repr(C)] mirror has the header's layout.
#[test]
fn field_table_agrees_with_the_struct_layout() {
    let mut seen = 0;
    for settings in JOBS {
        let e = job_of(settings).estimate().unwrap();
        let r = e.raw();
        for (path, value) in e.fields() {
            let m = &r.memory;
            let s = &r.system;
            let t = &r.time;
            let n = &r.model;
            let expect: FieldValue = match path {
                "model.name" => FieldValue::Str(e.model_name()),
                "model.parameters" => FieldValue::U64(n.parameters),
                "model.trainable_parameters" => FieldValue::U64(n.trainable_parameters),
                "model.active_parameters" => FieldValue::U64(n.active_parameters),
                "model.embedding_parameters" => FieldValue::U64(n.embedding_parameters),
                "model.layer_parameters" => FieldValue::U64(n.layer_parameters),
                "model.mtp_parameters" => FieldValue::U64(n.mtp_parameters),
                "model.extra_parameters" => FieldValue::U64(r.extra_parameters),
                "model.extra_tensors" => FieldValue::Str(e.extra_tensors()),
                "time.rollout_sync_seconds" => FieldValue::F64(r.rollout_sync_seconds),
                "time.rollout_network_seconds" => FieldValue::F64(r.rollout_network_seconds),
                "memory.reward_weights" => FieldValue::U64(r.reward_weights),
                "memory.critic_gpu_peak" => FieldValue::U64(r.critic_gpu_peak),
                "memory.reward_gpu_peak" => FieldValue::U64(r.reward_gpu_peak),
                "system.critic_nodes" => FieldValue::U64(r.critic_nodes),
                "system.reward_nodes" => FieldValue::U64(r.reward_nodes),
                "time.critic_seconds" => FieldValue::F64(r.critic_seconds),
                "time.reward_seconds" => FieldValue::F64(r.reward_seconds),
                "model.vision_parameters" => FieldValue::U64(n.vision_parameters),
                "model.projector_parameters" => FieldValue::U64(n.projector_parameters),
                "memory.weights" => FieldValue::U64(m.weights),
                "memory.gradients" => FieldValue::U64(m.gradients),
                "memory.optimizer" => FieldValue::U64(m.optimizer),
                "memory.master_weights" => FieldValue::U64(m.master_weights),
                "memory.activations" => FieldValue::U64(m.activations),
                "memory.activations_layers" => FieldValue::U64(m.activations_layers),
                "memory.activations_embedding" => FieldValue::U64(m.activations_embedding),
                "memory.activations_output" => FieldValue::U64(m.activations_output),
                "memory.activations_loss" => FieldValue::U64(m.activations_loss),
                "memory.activations_per_layer" => FieldValue::U64(m.activations_per_layer),
                "memory.in_flight_microbatches" => FieldValue::F64(m.in_flight_microbatches),
                "memory.transient" => FieldValue::U64(m.transient),
                "memory.peak_allocated" => FieldValue::U64(m.peak_allocated),
                "memory.cuda_context" => FieldValue::U64(m.cuda_context),
                "memory.comm_buffers" => FieldValue::U64(m.comm_buffers),
                "memory.allocator_slack" => FieldValue::U64(m.allocator_slack),
                "memory.overhead" => FieldValue::U64(m.overhead),
                "memory.peak_total" => FieldValue::U64(m.peak_total),
                "memory.gpu_capacity" => FieldValue::U64(m.gpu_capacity),
                "memory.host_offload" => FieldValue::U64(m.host_offload),
                "memory.fits" => FieldValue::Bool(m.fits != 0),
                "memory.peak_phase" => FieldValue::Choice(match m.peak_phase {
                    sys::TRAINSIZE_PHASE_FORWARD_BACKWARD => "forward-backward",
                    sys::TRAINSIZE_PHASE_BACKWARD_END => "backward-end",
                    sys::TRAINSIZE_PHASE_OPTIMIZER_STEP => "optimizer-step",
                    sys::TRAINSIZE_PHASE_LOADING => "loading",
                    sys::TRAINSIZE_PHASE_ROLLOUT => "rollout",
                    _ => "unknown",
                }),
                "memory.pipeline_stage" => FieldValue::U64(m.pipeline_stage as u64),
                "memory.peak_includes_activations" => FieldValue::Bool(m.peak_includes_activations != 0),
                "memory.peak_includes_gradients" => FieldValue::Bool(m.peak_includes_gradients != 0),
                "memory.loading_peak" => FieldValue::U64(m.loading_peak),
                "memory.peak_reserved" => FieldValue::U64(m.peak_reserved),
                "memory.activations_offloaded" => FieldValue::U64(m.activations_offloaded),
                "memory.recomputed_layers" => FieldValue::U64(m.recomputed_layers),
                "memory.max_micro_batch" => FieldValue::U64(m.max_micro_batch),
                "memory.max_seq" => FieldValue::U64(m.max_seq),
                "memory.reference_weights" => FieldValue::U64(m.reference_weights),
                "memory.critic_state" => FieldValue::U64(m.critic_state),
                "memory.rollout_weights" => FieldValue::U64(m.rollout_weights),
                "memory.rollout_kv_cache" => FieldValue::U64(m.rollout_kv_cache),
                "memory.teacher_weights" => FieldValue::U64(m.teacher_weights),
                "memory.vision_weights" => FieldValue::U64(m.vision_weights),
                "memory.activations_vision" => FieldValue::U64(m.activations_vision),
                "memory.peak_needed" => FieldValue::U64(m.peak_needed),
                "system.nodes" => FieldValue::U64(s.nodes),
                "system.gpus_per_node" => FieldValue::U64(s.gpus_per_node),
                "system.host_ram_per_node" => FieldValue::U64(s.host_ram_per_node),
                "system.cpu_cores_per_node" => FieldValue::U64(s.cpu_cores_per_node),
                "system.host_ram_need_per_node" => FieldValue::U64(s.host_ram_need_per_node),
                "system.network_nics_per_node" => FieldValue::U64(s.network_nics_per_node),
                "system.interconnect_rate_per_node" => FieldValue::U64(s.interconnect_rate_per_node),
                "system.storage_capacity" => FieldValue::U64(s.storage_capacity),
                "system.storage_read_rate" => FieldValue::U64(s.storage_read_rate),
                "system.power_watts" => FieldValue::F64(s.power_watts),
                "system.power_per_node_watts" => FieldValue::F64(s.power_per_node_watts),
                "system.heat_btu_per_hour" => FieldValue::F64(s.heat_btu_per_hour),
                "system.energy_kwh" => FieldValue::F64(s.energy_kwh),
                "system.co2_kg" => FieldValue::F64(s.co2_kg),
                "system.cost_cloud_usd" => FieldValue::F64(s.cost_cloud_usd),
                "system.cost_own_usd" => FieldValue::F64(s.cost_own_usd),
                "system.cost_own_hardware_usd" => FieldValue::F64(s.cost_own_hardware_usd),
                "system.cost_own_power_usd" => FieldValue::F64(s.cost_own_power_usd),
                "system.checkpoint_bytes" => FieldValue::U64(s.checkpoint_bytes),
                "system.checkpoint_write_rate" => FieldValue::U64(s.checkpoint_write_rate),
                "system.checkpoint_write_rate_total" => FieldValue::U64(s.checkpoint_write_rate_total),
                "system.intra_node_rate_per_gpu" => FieldValue::U64(s.intra_node_rate_per_gpu),
                "system.storage_class" => FieldValue::Str(e.storage_class()),
                "system.local_storage_class" => FieldValue::Str(e.local_storage_class()),
                "system.network_link" => FieldValue::Str(e.network_link()),
                "system.capex_usd" => FieldValue::F64(s.capex_usd),
                "system.capex_servers_usd" => FieldValue::F64(s.capex_servers_usd),
                "system.capex_network_usd" => FieldValue::F64(s.capex_network_usd),
                "system.capex_storage_usd" => FieldValue::F64(s.capex_storage_usd),
                "system.cost_own_facility_usd" => FieldValue::F64(s.cost_own_facility_usd),
                "system.cloud_usd_per_month" => FieldValue::F64(s.cloud_usd_per_month),
                "system.own_usd_per_month" => FieldValue::F64(s.own_usd_per_month),
                "system.breakeven_months" => FieldValue::F64(s.breakeven_months),
                "system.racks" => FieldValue::U64(s.racks),
                "system.servers_per_rack" => FieldValue::U64(s.servers_per_rack),
                "system.rack_power_watts" => FieldValue::F64(s.rack_power_watts),
                "system.cooling" => FieldValue::Str(e.cooling()),
                "system.psus_per_server" => FieldValue::U64(s.psus_per_server),
                "system.psus_needed" => FieldValue::U64(s.psus_needed),
                "system.psu_watts" => FieldValue::F64(s.psu_watts),
                "system.psu_redundancy" => FieldValue::Str(e.psu_redundancy()),
                "system.switches" => FieldValue::U64(s.switches),
                "system.switch_tiers" => FieldValue::U64(s.switch_tiers),
                "system.checkpoint_write_seconds" => FieldValue::F64(s.checkpoint_write_seconds),
                "system.dataset_bytes" => FieldValue::U64(s.dataset_bytes),
                "system.dataset_source" => FieldValue::Str(e.dataset_source()),
                "system.rollout_nodes" => FieldValue::U64(s.rollout_nodes),
                "time.flops" => FieldValue::F64(t.flops),
                "time.seconds" => FieldValue::F64(t.seconds),
                "time.step_flops" => FieldValue::F64(t.step_flops),
                "time.step_seconds" => FieldValue::F64(t.step_seconds),
                "time.tokens" => FieldValue::F64(t.tokens),
                "time.steps" => FieldValue::U64(t.steps),
                "time.model_flops" => FieldValue::F64(t.model_flops),
                "time.gpu_hours" => FieldValue::F64(t.gpu_hours),
                "time.comm_seconds" => FieldValue::F64(t.comm_seconds),
                "time.offload_seconds" => FieldValue::F64(t.offload_seconds),
                "time.wall_seconds" => FieldValue::F64(t.wall_seconds),
                "time.goodput" => FieldValue::F64(t.goodput),
                "time.expected_interruptions" => FieldValue::F64(t.expected_interruptions),
                "time.checkpoint_interval" => FieldValue::F64(t.checkpoint_interval),
                "time.checkpoint_stall" => FieldValue::F64(t.checkpoint_stall),
                "time.rollout_seconds" => FieldValue::F64(t.rollout_seconds),
                "time.overhead_seconds" => FieldValue::F64(t.overhead_seconds),
                "layout.gpu" => FieldValue::Str(e.gpu()),
                "layout.gpus" => FieldValue::U64(r.gpus),
                "layout.tp" => FieldValue::U64(r.layout.tp),
                "layout.pp" => FieldValue::U64(r.layout.pp),
                "layout.pp_interleave" => FieldValue::U64(r.layout.pp_interleave),
                "layout.cp" => FieldValue::U64(r.layout.cp),
                "layout.ep" => FieldValue::U64(r.layout.ep),
                "layout.sp" => FieldValue::Bool(r.layout.sp != 0),
                "layout.zero" => FieldValue::U64(r.layout.zero),
                "layout.micro_batch" => FieldValue::U64(r.layout.micro_batch),
                "layout.global_batch" => FieldValue::U64(r.layout.global_batch),
                "layout.recompute" => FieldValue::Choice(match r.layout.recompute {
                    sys::TRAINSIZE_RECOMPUTE_NONE => "none",
                    sys::TRAINSIZE_RECOMPUTE_SELECTIVE => "selective",
                    sys::TRAINSIZE_RECOMPUTE_FULL => "full",
                    sys::TRAINSIZE_RECOMPUTE_PER_OP => "per-op",
                    _ => "unknown",
                }),
                "layout.data_parallel" => FieldValue::U64(r.data_parallel),
                "layout.gradient_accumulation" => FieldValue::U64(r.gradient_accumulation),
                "layout.framework" => FieldValue::Str(e.framework()),
                "layout.framework_reason" => FieldValue::Str(e.framework_reason()),
                "layout.global_batch_reason" => FieldValue::Str(e.global_batch_reason()),
                "layout.stack" => FieldValue::Str(e.stack()),
                "layout.stack_reason" => FieldValue::Str(e.stack_reason()),
                "layout.pp_schedule" => FieldValue::Str(e.pp_schedule()),
                "layout.pipeline_bubble" => FieldValue::F64(e.pipeline_bubble()),
                "layout.kernels" => FieldValue::Str(e.kernels()),
                "layout.fp8_recipe" => FieldValue::Str(e.fp8_recipe()),
                "layout.method" => FieldValue::Str(e.method()),
                "layout.reference" => FieldValue::Str(e.reference()),
                "layout.calibration" => FieldValue::Str(e.calibration()),
                "layout.calibration_runs" => FieldValue::U64(e.calibration_runs()),
                "layout.tf32" => FieldValue::Str(e.tf32()),
                "layout.tf32_reason" => FieldValue::Str(e.tf32_reason()),
                "layout.pipeline_first_layers" => FieldValue::U64(e.pipeline_layers().0),
                "layout.pipeline_layers" => FieldValue::U64(e.pipeline_layers().1),
                "layout.pipeline_last_layers" => FieldValue::U64(e.pipeline_layers().2),
                "warnings" => FieldValue::Flags(e.warnings()),
                "uncertainty.time_low" => FieldValue::F64(e.uncertainty().time_low),
                "uncertainty.time_high" => FieldValue::F64(e.uncertainty().time_high),
                "uncertainty.memory_low" => FieldValue::F64(e.uncertainty().memory_low),
                "uncertainty.memory_high" => FieldValue::F64(e.uncertainty().memory_high),
                "uncertainty.basis" => FieldValue::Str(e.uncertainty_basis()),
                other => panic!("result field {} is not known to these bindings' test", other),
            };
            assert_eq!(value, expect, "{} of {:?}", path, settings);
            seen += 1;
        }
    }
    assert_eq!(seen, JOBS.len() * trainsize::result_fields().len());
}

#[test]
fn fields_and_lookups() {
    let e = job_of(EXAMPLE_JOB).estimate().unwrap();
    let fields: Vec<_> = e.fields().collect();
    assert_eq!(fields.len(), trainsize::result_fields().len());
    assert_eq!(e.get("memory.peak_total"), Some(FieldValue::U64(e.peak_total())));
    assert_eq!(e.get("layout.gpu").unwrap().as_str(), Some("a100-80gb"));
    assert_eq!(e.get("model.name").unwrap().as_str(), Some("llama-2-7b"));
    assert_eq!(e.get("memory.fits"), Some(FieldValue::Bool(true)));
    assert_eq!(e.get("no.such.field"), None);
    assert_eq!(e.gpus(), 8);
    assert_eq!(e.data_parallel(), 8);
    assert!(e.fits());
    assert!(e.peak_total() > 0 && e.peak_total() <= e.memory().gpu_capacity);
    assert_eq!(e.model().parameters, 6_738_415_616);
    // Debug walks the fields.
    assert!(format!("{:?}", e).contains("memory.peak_total"));

    let big = job_of(&[("model", "llama-2-70b"), ("gpus", "1")]).estimate().unwrap();
    assert!(!big.fits());
    assert!(big.warnings().contains(trainsize::Warnings::DOES_NOT_FIT));
    assert!(big.warnings().names().contains(&"does-not-fit"), "{:?}", big.warnings().names());
    assert_eq!(trainsize::warning_name(trainsize::Warnings::DOES_NOT_FIT), Some("does-not-fit"));
    assert!(trainsize::warning_text(trainsize::Warnings::DOES_NOT_FIT).is_some());
    assert_eq!(trainsize::warning_name(3), None);
    match big.get("warnings") {
        Some(FieldValue::Flags(w)) => assert_eq!(w, big.warnings()),
        other => panic!("warnings: {:?}", other),
    }
}

#[test]
fn to_json_structure() {
    let e = job_of(EXAMPLE_JOB).estimate().unwrap();
    let text = e.to_json();
    assert!(text.starts_with("{\n  \"trainsize_version\": \""));
    assert!(text.ends_with("\n}\n"));
    let v = parse(&text).unwrap();
    assert_eq!(
        v.keys(),
        vec!["trainsize_version", "model", "memory", "system", "time", "layout", "warnings", "uncertainty", "advice"]
    );
    assert_eq!(v.at("advice"), Some(&Json::Arr(Vec::new()))); // the example job fits
    assert_eq!(v.at("trainsize_version"), Some(&Json::Str(trainsize::version())));
    assert_eq!(v.at("memory.peak_total"), Some(&Json::Num(e.peak_total().to_string())));
    assert_eq!(v.at("warnings"), Some(&Json::Arr(Vec::new())));
}

#[test]
fn abi_and_version() {
    trainsize::check_abi().unwrap();
    assert_eq!(trainsize::abi_version(), trainsize::ABI_VERSION);
    let sizes = [
        (sys::TRAINSIZE_STRUCT_ERROR, std::mem::size_of::<sys::trainsize_error>()),
        (sys::TRAINSIZE_STRUCT_RESULT, std::mem::size_of::<sys::trainsize_result>()),
        (sys::TRAINSIZE_STRUCT_PLAN_CANDIDATE, std::mem::size_of::<sys::trainsize_plan_candidate>()),
        (sys::TRAINSIZE_STRUCT_PLAN_STATS, std::mem::size_of::<sys::trainsize_plan_stats>()),
        (sys::TRAINSIZE_STRUCT_FIELD_VALUE, std::mem::size_of::<sys::trainsize_field_value>()),
        (sys::TRAINSIZE_STRUCT_GPU_INFO, std::mem::size_of::<sys::trainsize_gpu_info>()),
    ];
    for (id, size) in sizes {
        assert_eq!(unsafe { sys::trainsize_struct_size(id) }, size, "struct id {}", id);
    }
    // A result one byte short is refused, as the guard relies on.
    let job = Job::new().unwrap();
    let mut out: sys::trainsize_result = unsafe { std::mem::zeroed() };
    let rc = unsafe {
        sys::trainsize_estimate(job.as_ptr(), &mut out, std::mem::size_of::<sys::trainsize_result>() - 1, std::ptr::null_mut())
    };
    assert_eq!(rc, sys::TRAINSIZE_E_ARGUMENT);

    let v = trainsize::version();
    let parts: Vec<u32> = v.split('.').map(|p| p.parse().unwrap()).collect();
    assert_eq!(parts.len(), 3);
    assert_eq!(trainsize::version_number(), parts[0] * 10000 + parts[1] * 100 + parts[2]);
    if let Some(exe) = exe() {
        let run = run(&exe, &["--version".to_string()]);
        assert_eq!(run.stdout.trim(), format!("trainsize {}", v));
    }
}

#[test]
fn catalogues() {
    let gpus = trainsize::gpus();
    assert!(gpus.iter().any(|g| g.name == "a100-80gb" && g.memory_bytes == 80 << 30 && g.usable_bytes == 81050 << 20));
    assert!(gpus.iter().any(|g| g.name == "v100-32gb" && !g.bf16 && !g.flash_attention && g.architecture == "Volta"));
    assert_eq!(trainsize::find_gpu("A100-80GB").map(|g| g.name), Some("a100-80gb"));
    assert_eq!(trainsize::find_gpu("no-such-gpu"), None);
    // A GPU's fields are the catalogue listing's: `trainsize gpus --json`, key for key.
    let h100 = trainsize::find_gpu("h100-80gb").unwrap();
    let fields = h100.fields();
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone());
    assert_eq!(get("name"), Some(FieldValue::Str("h100-80gb".into())));
    assert_eq!(get("memory_bytes"), Some(FieldValue::U64(h100.memory_bytes)));
    assert_eq!(get("kind"), Some(FieldValue::Choice("gpu")));
    if let Some(exe) = exe() {
        let listing = parse(&run(&exe, &["gpus".to_string(), "--json".to_string()]).stdout).unwrap();
        let Json::Arr(entries) = listing else { panic!("gpus --json is not an array") };
        let entry = entries.iter().find(|e| e.at("name") == Some(&Json::Str("h100-80gb".into()))).expect("h100-80gb");
        let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, entry.keys());
        assert_eq!(entry.at("memory_bytes"), Some(&Json::Num(h100.memory_bytes.to_string())));
    }
    let mut made = h100;
    made.name = "not-in-the-catalogue";
    assert!(made.fields().is_empty());
    let models = trainsize::models();
    assert!(models.iter().any(|m| m.name == "llama-2-7b" && m.parameters == 6_738_415_616));
    let params = trainsize::params();
    let mb = params.iter().find(|p| p.name == "micro-batch").expect("micro-batch");
    assert_eq!(mb.kind, sys::TRAINSIZE_PARAM_INT);
    assert_eq!(mb.default_text, "1");
    let prec = params.iter().find(|p| p.name == "precision").expect("precision");
    assert!(prec.choices.split('|').any(|c| c == "bf16-mixed"));
    for f in trainsize::result_fields() {
        assert!(!f.path.is_empty());
    }
}

/// Job::largest_fit() is what an estimate with largest-fit true reports; the micro-batch
/// it gives fits and the next larger one does not.
#[test]
fn largest_fit_agrees_with_the_estimate() {
    let mut job = job_of(&[("model", "llama-2-7b"), ("gpu", "a100-80gb"), ("gpus", "8"), ("zero", "3"), ("seq", "4096")]);
    let fit = job.largest_fit().unwrap();
    assert!(fit.max_micro_batch > 0 && fit.max_seq > 0, "{:?}", fit);
    let plain = job.estimate().unwrap();
    assert_eq!((plain.memory().max_micro_batch, plain.memory().max_seq), (0, 0));
    let mut with = job.clone();
    with.set("largest-fit", "true").unwrap();
    let e = with.estimate().unwrap();
    assert_eq!((e.memory().max_micro_batch, e.memory().max_seq), (fit.max_micro_batch, fit.max_seq));
    assert_eq!(with.largest_fit().unwrap(), fit);
    job.set("micro-batch", &fit.max_micro_batch.to_string()).unwrap();
    assert!(job.estimate().unwrap().fits());
    job.set("micro-batch", &(fit.max_micro_batch + 1).to_string()).unwrap();
    assert!(!job.estimate().unwrap().fits());
    let never = job_of(&[("model", "llama-2-70b"), ("gpu", "rtx-4090")]).largest_fit().unwrap();
    assert_eq!(never, trainsize::LargestFit::default());
    let err = job_of(&[("model", "gpt2"), ("tp", "2"), ("gpus", "3")]).largest_fit().unwrap_err();
    assert_eq!(err.code, trainsize::Error::LAYOUT);
}

#[test]
fn advice_applied_fits() {
    let mut job = Job::new().unwrap();
    job.set("model", "llama-2-7b").unwrap().set("gpu", "a100-80gb").unwrap();
    assert!(!job.estimate().unwrap().fits());
    let advice = job.advise(5).unwrap();
    assert!(!advice.is_empty());
    for a in &advice {
        let mut changed = job.clone();
        for (name, value) in &a.settings {
            changed.set(name, value).unwrap();
        }
        let e = changed.estimate().unwrap();
        assert!(e.fits());
        assert_eq!(e.raw().memory.peak_total, a.peak_total);
    }
}

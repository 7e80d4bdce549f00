//! Planning: every candidate, applied to the job and estimated, gives its own figures.

use trainsize::{Error, Job};

fn job() -> Job {
    Job::with_settings(
        [
            ("model", "llama-2-7b"),
            ("tokens", "1e10"),
            ("seq", "4096"),
            ("plan-gpus", "a100-80gb,h100-80gb,l40s"),
            ("max-gpus", "64"),
        ]
        .iter()
        .copied(),
    )
    .unwrap()
}

#[test]
fn candidates_equal_their_estimates() {
    let job = job();
    let plan = job.plan(8).unwrap();
    assert!(!plan.candidates.is_empty());
    assert!(plan.candidates.len() <= 8);
    assert!(plan.stats.feasible >= plan.candidates.len() as u64);
    assert!(plan.stats.evaluated >= plan.stats.estimated);
    assert!(plan.stats.estimated >= plan.stats.feasible);

    for c in &plan.candidates {
        let mut applied = job.clone();
        applied.apply(c).unwrap();
        let e = applied.estimate().unwrap();
        assert_eq!(e.gpu(), c.gpu());
        assert_eq!(e.gpus(), c.gpus());
        assert_eq!(e.system().gpus_per_node, c.gpus_per_node());
        assert_eq!(e.peak_total(), c.peak_total());
        assert_eq!(e.wall_seconds(), c.seconds());
        assert_eq!(e.system().cost_cloud_usd, c.cost());
        assert_eq!(e.warnings(), c.warnings());
        assert!(e.fits());
        assert_eq!(c.global_batch(), e.data_parallel() * c.micro_batch() * e.gradient_accumulation());
        // The estimate says which layout it used: the candidate's, field for field (one
        // struct in both).
        assert_eq!(e.layout(), c.raw().layout);

        // The same layout through named settings gives the same estimate.
        let mut by_name = job.clone();
        for (name, value) in c.settings() {
            by_name.set(name, &value).unwrap_or_else(|err| panic!("{} = {}: {}", name, value, err));
        }
        assert_eq!(by_name.estimate().unwrap(), e);
    }
    // The planner leaves the job alone.
    assert_eq!(job.get("gpus").unwrap(), "1");
}

#[test]
fn best_first() {
    // Values within one 1 % step tie, and then fewer GPUs come first.
    let plan = job().plan(16).unwrap();
    for w in plan.candidates.windows(2) {
        assert!(w[0].cost() <= 1.02 * w[1].cost(), "{:?} before {:?}", w[0], w[1]);
    }
    let mut fast = job();
    fast.set("objective", "time").unwrap();
    let plan = fast.plan(16).unwrap();
    for w in plan.candidates.windows(2) {
        assert!(w[0].seconds() <= 1.02 * w[1].seconds());
    }
}

#[test]
fn capacity_zero_and_nothing_fits() {
    let plan = job().plan(0).unwrap();
    assert!(plan.candidates.is_empty());
    assert!(plan.stats.evaluated > 0);

    let mut tiny = job();
    tiny.set("model", "llama-3.1-405b").unwrap().set("max-gpus", "1").unwrap();
    let plan = tiny.plan(4).unwrap();
    assert!(plan.candidates.is_empty());
    assert_eq!(plan.stats.feasible, 0);
}

#[test]
fn apply_sets_only_the_gpu_and_layout() {
    let job = job();
    let first = job.plan(1).unwrap().candidates[0];
    let mut other = Job::new().unwrap();
    // Applying to a job without a model works; estimating it then names the model.
    other.apply(&first).unwrap();
    let e = other.estimate().unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "model"));
}

/// A candidate's fields are the library's plan field table: the keys of `trainsize plan
/// --json`'s candidates, in that order, with the values the accessors give.
#[test]
fn candidate_fields_are_the_tables() {
    use trainsize::FieldValue;
    let plan = job().plan(2).unwrap();
    let c = &plan.candidates[0];
    let fields = c.fields();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| *k).collect();
    assert_eq!(&keys[..4], &["gpu", "gpus", "gpus_per_node", "nodes"]);
    assert!(keys.contains(&"recompute") && keys.contains(&"warnings") && keys.contains(&"sp"));
    let get = |key: &str| fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()).unwrap();
    assert_eq!(get("gpu"), FieldValue::Str(c.gpu().to_string().into()));
    assert_eq!(get("gpus"), FieldValue::U64(c.gpus()));
    assert_eq!(get("nodes"), FieldValue::U64(c.gpus() / c.gpus_per_node()));
    assert_eq!(get("peak_total"), FieldValue::U64(c.peak_total()));
    assert_eq!(get("recompute"), FieldValue::Choice(c.recompute_name()));
    assert_ne!(c.recompute_name(), "unknown");
}

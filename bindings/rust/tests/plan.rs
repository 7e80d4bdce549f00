//! Planning: every candidate, applied to the job and estimated, gives its own figures.

mod common;

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

/* ---- the search's pruning counts, exhaustive, progress ---- */

/// Large enough that the floors prune configurations and skip GPU counts whole.
const PRUNED: &[(&str, &str)] = &[
    ("model", "llama-3-8b"),
    ("tokens", "1e11"),
    ("plan-gpus", "h100-80gb,a100-80gb"),
    ("max-gpus", "64"),
];

fn pruned_job() -> Job {
    Job::with_settings(PRUNED.iter().copied()).unwrap()
}

/// The stats equal `trainsize plan --json`'s, the pruning counts after least_overshoot.
#[test]
fn stats_equal_the_commands_json() {
    let plan = pruned_job().plan(10).unwrap();
    let st = plan.stats;
    assert!(st.pruned_bound > 0 && st.bounds > 0 && st.counts_skipped > 0, "{:?}", st);
    assert!(st.estimated + st.pruned_memory + st.pruned_bound <= st.evaluated, "{:?}", st);
    let exe = match common::exe() {
        Some(exe) => exe,
        None => return,
    };
    let mut args = vec!["plan".to_string(), "--json".to_string()];
    for (name, value) in PRUNED {
        let name = if *name == "plan-gpus" { "gpu" } else { name };
        args.push(format!("--{}={}", name, value));
    }
    let r = common::run(&exe, &args);
    assert_eq!(r.status, 0, "{}", r.stderr);
    let json = common::parse(&r.stdout).unwrap();
    let keys = json.keys();
    let at = keys.iter().position(|k| *k == "least_overshoot").unwrap();
    assert_eq!(&keys[at + 1..at + 6], &["pruned_memory", "pruned_bound", "bounds", "counts_skipped", "objective"]);
    let number = |key: &str| match json.at(key) {
        Some(common::Json::Num(n)) => n.clone(),
        other => panic!("{}: {:?}", key, other),
    };
    for (key, ours) in [
        ("evaluated", st.evaluated),
        ("estimated", st.estimated),
        ("feasible", st.feasible),
        ("fit_memory", st.fit_memory),
        ("pruned_memory", st.pruned_memory),
        ("pruned_bound", st.pruned_bound),
        ("bounds", st.bounds),
        ("counts_skipped", st.counts_skipped),
    ] {
        assert_eq!(number(key), ours.to_string(), "{}", key);
    }
    for (key, ours) in [
        ("fastest_fit_seconds", st.fastest_fit_seconds),
        ("cheapest_fit_cost", st.cheapest_fit_cost),
        ("least_overshoot", st.least_overshoot),
    ] {
        assert_eq!(number(key).parse::<f64>().unwrap(), ours, "{}", key);
    }
}

#[test]
fn exhaustive_gives_the_same_candidates() {
    let pruned = pruned_job().plan(10).unwrap();
    let mut job = pruned_job();
    job.set("exhaustive", "true").unwrap();
    let full = job.plan(10).unwrap();
    assert!(!full.candidates.is_empty());
    assert_eq!(full.candidates, pruned.candidates);
    assert_eq!((full.stats.pruned_bound, full.stats.counts_skipped), (0, 0));
    assert!(full.stats.estimated > pruned.stats.estimated);
}

#[test]
fn progress_counts_up_to_total() {
    let job = pruned_job();
    let mut calls = Vec::new();
    let plan = job
        .plan_with_progress(10, |done, total, examined| {
            calls.push((done, total, examined));
            false
        })
        .unwrap();
    assert_eq!(plan, job.plan(10).unwrap());
    let total = calls[0].1;
    assert_eq!(calls.iter().map(|c| c.0).collect::<Vec<_>>(), (1..=total).collect::<Vec<_>>());
    assert!(calls.iter().all(|c| c.1 == total));
    assert!(calls.windows(2).all(|w| w[0].2 <= w[1].2));
    assert_eq!(calls.last().unwrap().2, plan.stats.evaluated);
}

#[test]
fn progress_cancels() {
    let mut seen = 0;
    let e = pruned_job()
        .plan_with_progress(10, |done, _, _| {
            seen = done;
            done == 3
        })
        .unwrap_err();
    assert_eq!(e.code, Error::CANCELLED);
    assert_eq!(e.code, -11);
    assert!(e.message.contains("cancel"), "{}", e.message);
    assert!(e.description().contains("cancelled"), "{}", e.description());
    assert_eq!(seen, 3); // not called once cancelled
}

#[test]
fn a_panic_in_progress_cancels_and_is_resumed() {
    let job = pruned_job();
    let mut calls = 0;
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        job.plan_with_progress(10, |done, _, _| {
            calls += 1;
            if done == 2 {
                panic!("from the callback");
            }
            false
        })
    }));
    let payload = caught.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"from the callback"));
    assert_eq!(calls, 2);
    // The job is whole: it plans again.
    assert!(!job.plan(2).unwrap().candidates.is_empty());
}

//! Ownership: Drop, Clone and threads.

mod common;

use common::EXAMPLE_JOB;
use trainsize::Job;

fn example() -> Job {
    Job::with_settings(EXAMPLE_JOB.iter().copied()).unwrap()
}

#[test]
fn clones_are_independent() {
    let mut a = example();
    let before = a.estimate().unwrap();
    let mut b = a.clone();
    b.set("micro-batch", "4").unwrap();
    assert_eq!(a.get("micro-batch").unwrap(), "1");
    assert_eq!(b.get("micro-batch").unwrap(), "4");
    assert_eq!(a.estimate().unwrap(), before);
    assert_ne!(b.estimate().unwrap(), before);

    a.set("gpus", "16").unwrap();
    assert_eq!(b.get("gpus").unwrap(), "8");

    // The clone outlives the original.
    let c = b.try_clone().unwrap();
    drop(a);
    drop(b);
    assert_eq!(c.get("micro-batch").unwrap(), "4");
    assert_eq!(c.estimate().unwrap().model_name(), "llama-2-7b");
}

#[test]
fn many_jobs_come_and_go() {
    let base = example();
    let mut jobs: Vec<Job> = (0..200).map(|_| base.clone()).collect();
    for (i, job) in jobs.iter_mut().enumerate() {
        job.set("micro-batch", &(i % 7 + 1).to_string()).unwrap();
    }
    for (i, job) in jobs.iter().enumerate() {
        assert_eq!(job.get("micro-batch").unwrap(), (i % 7 + 1).to_string());
    }
    jobs.truncate(10);
    drop(base);
    for _ in 0..1000 {
        let _ = Job::new().unwrap();
    }
    assert_eq!(jobs[3].get("micro-batch").unwrap(), "4");
}

#[test]
fn a_job_moves_to_another_thread() {
    let job = example();
    let here = job.estimate().unwrap();
    let there = std::thread::spawn(move || job.estimate().unwrap()).join().unwrap();
    assert_eq!(here, there);
}

#[test]
fn one_job_is_estimated_from_many_threads() {
    let job = example();
    let expected = job.estimate().unwrap();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|_| s.spawn(|| (0..200).map(|_| job.estimate().unwrap()).collect::<Vec<_>>()))
            .collect();
        for h in handles {
            for e in h.join().unwrap() {
                assert_eq!(e, expected);
            }
        }
    });
}

#[test]
fn get_reads_long_values() {
    let mut job = example();
    let list = "a100-80gb,a100-40gb,h100-80gb,h100-pcie,h200,b200,l40s,mi300x,gaudi3,rtx-4090";
    job.set("plan-gpus", list).unwrap();
    assert!(list.len() > 64);
    assert_eq!(job.get("plan-gpus").unwrap(), list);
    assert_eq!(job.get("model").unwrap(), "llama-2-7b");
    assert!(format!("{:?}", job).contains("llama-2-7b"));
}

#[test]
fn custom_gpu_from_json() {
    let path = common::data_dir().join("gpu/my-accelerator.json");
    let mut a = example();
    a.load_gpu_file(&path).unwrap();
    let mut b = example();
    b.load_gpu_json_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(a.estimate().unwrap(), b.estimate().unwrap());
}

/// A FIFO given as a config or device file is refused at once, not read: a reader waits
/// forever for a writer that never comes.
#[test]
fn fifo_files_are_refused() {
    let dir = std::env::temp_dir().join(format!("trainsize-rust-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("config.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let mut job = example();
    let e = job.load_hf_config_file(&fifo).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (trainsize::Error::IO, "hf-config"));
    assert!(e.message.contains("is a FIFO"), "{}", e.message);
    let e = job.load_gpu_file(&fifo).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (trainsize::Error::IO, "gpu-file"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A site calibration: applied (the result says so, the step slows with a lower GEMM
/// share), a setting after it wins, and a bad one refused with the job unchanged.
#[test]
fn calibration_applies_and_is_checked() {
    let calibration = format!(
        "{{\"trainsize_calibration\": 1, \"library_version\": \"{}\", \"runs\": 3, \"gpus\": [\"a100-80gb\"], \
         \"settings\": {{\"gemm-share\": 0.6}}}}",
        trainsize::version()
    );
    let mut job = example();
    let plain = job.estimate().unwrap();
    job.load_calibration_json_str(&calibration).unwrap();
    let calibrated = job.estimate().unwrap();
    assert_eq!(calibrated.calibration(), "3 runs on a100-80gb");
    assert_eq!(calibrated.calibration_runs(), 3);
    assert!(calibrated.time().step_seconds > plain.time().step_seconds);
    assert_eq!(job.get("gemm-share").unwrap(), "0.6");
    job.set("gemm-share", "0.77").unwrap();
    assert_eq!(job.estimate().unwrap().time().step_seconds, plain.time().step_seconds);
    let err = job.load_calibration_json_str(&calibration.replace("gemm-share", "hfu")).unwrap_err();
    assert!(err.message.contains("\"hfu\" is not a calibration setting"), "{}", err.message);
    assert_eq!(err.field, "calibration");
    assert_eq!(job.get("gemm-share").unwrap(), "0.77");
    assert!(job.load_calibration_file("/nonexistent/site.json").is_err());
}

/// `calibrate` is the command's: the same text for the same runs, and a job takes it.
#[test]
fn calibrate_is_the_command_s() {
    let runs = r#"{"runs": [{"name": "a", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, "zero": 3,
        "seq": 4096}, "measured": {"step_seconds": 0.7}}, {"job": {"model": "llama-3-8b", "gpu": "h100-80gb",
        "gpus": 4, "zero": 3, "seq": 4096, "recompute": "full"}, "measured": {"step_seconds": 0.9}}]}"#;
    let text = trainsize::calibrate(runs, Some("2026-12-01")).unwrap();
    let path = std::env::temp_dir().join(format!("trainsize-runs-{}.json", std::process::id()));
    std::fs::write(&path, runs).unwrap();
    let exe = std::env::var("TRAINSIZE_EXE").expect("TRAINSIZE_EXE");
    let out = std::process::Command::new(exe).args(["calibrate", path.to_str().unwrap(), "--date", "2026-12-01"])
        .output().unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(out.status.success());
    assert_eq!(text, String::from_utf8(out.stdout).unwrap());
    let mut job = example();
    job.load_calibration_json_str(&text).unwrap();
    assert_eq!(job.estimate().unwrap().calibration(), "2 runs on h100-80gb, 2026-12-01");
    let err = trainsize::calibrate(r#"[{"job": {"model": "gpt2"}, "measured": {}}]"#, None).unwrap_err();
    assert!(err.message.contains("measured: needs step_seconds"), "{}", err.message);
}

/// The library's list of the example job is the one the tests spell out (and so the one
/// bare `trainsize` sizes, which the estimate tests compare with).
#[test]
fn example_settings_are_the_example_job() {
    assert_eq!(trainsize::example_settings(), EXAMPLE_JOB.to_vec());
}

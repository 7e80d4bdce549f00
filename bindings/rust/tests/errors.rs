//! Failures become Err with the library's code, field and message.

mod common;

use trainsize::{Error, Job};

fn job() -> Job {
    let mut job = Job::new().unwrap();
    job.set("model", "llama-2-7b").unwrap();
    job
}

#[test]
fn unknown_parameter() {
    let mut job = job();
    let e = job.set("no-such-parameter", "1").unwrap_err();
    assert_eq!(e.code, Error::UNKNOWN);
    assert_eq!(e.field, "no-such-parameter");
    assert!(e.message.contains("no-such-parameter"), "{}", e.message);
    assert_eq!(e.to_string(), e.message);
    assert_eq!(e.description(), trainsize::strerror(Error::UNKNOWN));

    let e = job.set("precision", "fp64").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "precision"));
    let e = job.set("model", "no-such-model").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "model"));
    let e = job.set("gpu", "no-such-gpu").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "gpu"));
    let e = job.get("no-such-parameter").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "no-such-parameter"));
}

#[test]
fn bad_values_leave_the_job_unchanged() {
    let mut job = job();
    job.set("micro-batch", "4").unwrap();
    for bad in ["abc", "0", "-1", "1.5", "", "1e99"] {
        let e = job.set("micro-batch", bad).unwrap_err();
        assert_eq!(e.code, Error::INVALID, "{:?}: {}", bad, e);
        assert_eq!(e.field, "micro-batch", "{:?}", bad);
        assert!(!e.message.is_empty());
        assert_eq!(job.get("micro-batch").unwrap(), "4");
    }
    let e = job.set("dropout", "2").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "dropout"));
    let e = job.set("sp", "maybe").unwrap_err();
    assert_eq!(e.field, "sp");
}

#[test]
fn nul_bytes_are_refused_without_reaching_the_library() {
    let mut job = job();
    let e = job.set("micro\0batch", "1").unwrap_err();
    assert_eq!(e.code, Error::UNKNOWN);
    let e = job.set("micro-batch", "1\0").unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "micro-batch"));
    assert_eq!(job.get("micro-batch").unwrap(), "1");
}

#[test]
fn bad_layouts() {
    let mut job = job();
    job.set("gpus", "8").unwrap().set("tp", "3").unwrap();
    let e = job.estimate().unwrap_err();
    assert_eq!(e.code, Error::LAYOUT, "{}", e);
    assert!(!e.field.is_empty());
    assert!(e.message.starts_with(&format!("{}:", e.field)), "{}", e.message);

    // 32 heads do not divide by tp = 3.
    let mut job = self::job();
    job.set("gpus", "6").unwrap().set("tp", "3").unwrap();
    let e = job.estimate().unwrap_err();
    assert_eq!(e.code, Error::LAYOUT, "{}", e);
    assert!(!e.field.is_empty());

    // 32 layers and the embedding's and the loss's slots are fewer than pp x interleave = 8 x 8
    // virtual stages.
    let mut job = self::job();
    job.set("gpus", "8").unwrap().set("pp", "8").unwrap().set("pp-interleave", "8").unwrap();
    let e = job.estimate().unwrap_err();
    assert_eq!(e.code, Error::LAYOUT, "{}", e);
    assert_eq!(e.field, "pp-interleave");
}

#[test]
fn no_model() {
    let job = Job::new().unwrap();
    let e = job.estimate().unwrap_err();
    assert_eq!(e.code, Error::INVALID, "{}", e);
    assert_eq!(e.field, "model");
    let e = job.plan(4).unwrap_err();
    assert_eq!(e.code, Error::INVALID, "{}", e);
}

#[test]
fn plan_needs_tokens() {
    let e = job().plan(4).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "tokens"));
}

#[test]
fn hf_config_errors() {
    let mut job = job();
    let e = job.load_hf_config_str("{").unwrap_err();
    assert_eq!(e.code, Error::PARSE, "{}", e);
    let e = job.load_hf_config_str(r#"{"model_type": "no-such-type"}"#).unwrap_err();
    assert_eq!(e.code, Error::UNKNOWN, "{}", e);
    let e = job.load_hf_config_str(r#"{"model_type": "llama", "hidden_size": 4096}"#).unwrap_err();
    assert_eq!(e.code, Error::INVALID, "{}", e);
    assert!(!e.field.is_empty(), "the missing key is named: {}", e);
    let e = job.load_hf_config_bytes(&vec![b' '; trainsize::sys::TRAINSIZE_HF_CONFIG_MAX_BYTES + 1]).unwrap_err();
    assert_eq!(e.code, Error::LIMIT, "{}", e);
    let e = job.load_hf_config_file("/no/such/dir/config.json").unwrap_err();
    assert_eq!(e.code, Error::IO, "{}", e);
    // The job is unchanged by all of it.
    assert_eq!(job.get("model").unwrap(), "llama-2-7b");
    assert_eq!(job.estimate().unwrap().model_name(), "llama-2-7b");
}

#[test]
fn errors_compose_with_std() {
    fn run() -> Result<(), Box<dyn std::error::Error>> {
        let mut job = Job::new()?;
        job.set("model", "llama-2-7b")?.set("tp", "nope")?;
        Ok(())
    }
    let e = run().unwrap_err();
    let ours = e.downcast_ref::<Error>().expect("a trainsize::Error");
    assert_eq!(ours.field, "tp");
    assert_eq!(e.to_string(), ours.message);
}

/// The command prints the library's message after "trainsize: ", as Display does.
#[test]
fn messages_equal_the_command() {
    let exe = match common::exe() {
        Some(e) => e,
        None => return,
    };
    let cases: &[&[(&str, &str)]] = &[
        &[("model", "llama-2-7b"), ("micro-batch", "abc")],
        &[("model", "llama-2-7b"), ("precision", "fp64")],
        &[("model", "llama-2-7b"), ("gpus", "8"), ("tp", "3")],
        &[("model", "llama-2-7b"), ("gpus", "6"), ("tp", "3")],
        &[("model", "no-such-model")],
    ];
    for settings in cases {
        let r = common::run(&exe, &common::estimate_args(settings));
        assert_eq!(r.status, 2, "{:?}", settings);
        assert!(r.stdout.is_empty());
        let err = match Job::with_settings(settings.iter().copied()) {
            Err(e) => e,
            Ok(job) => job.estimate().unwrap_err(),
        };
        assert_eq!(r.stderr, format!("trainsize: {}\n", err), "{:?}", settings);
    }
}

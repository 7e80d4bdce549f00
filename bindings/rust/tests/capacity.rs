//! What a server can train: capacity() and capacity_json() against `trainsize capacity
//! --json` for the same GPUs (both come from the library's trainsize_capacity), and the
//! refusals naming the option.

mod common;

use common::{exe, parse, run, Json};
use trainsize::{capacity, capacity_json, Error};

const METHODS: [&str; 6] = ["pretraining", "full-fine-tuning", "lora", "qlora", "dpo", "grpo"];

/// (gpu, gpus, seq) compared with the command.
const CASES: &[(&str, u64, u64)] = &[("h100-80gb", 8, 2048), ("rtx-4090", 1, 2048)];

fn command_args(gpu: &str, gpus: u64, seq: u64) -> Vec<String> {
    ["capacity", "--json", "--gpu", gpu, "--gpus", &gpus.to_string(), "--seq", &seq.to_string()]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

fn num(v: Option<&Json>) -> f64 {
    match v {
        Some(Json::Num(text)) => text.parse().unwrap(),
        other => panic!("expected a number, got {:?}", other),
    }
}

fn text(v: Option<&Json>) -> Option<String> {
    match v {
        Some(Json::Str(s)) => Some(s.clone()),
        Some(Json::Null) => None,
        other => panic!("expected a string or null, got {:?}", other),
    }
}

#[test]
fn capacity_json_is_the_command_s_text() {
    let exe = match exe() {
        Some(e) => e,
        None => return,
    };
    for &(gpu, gpus, seq) in CASES {
        let ours = capacity_json(gpu, gpus, 0, seq, 1, 0).unwrap();
        let theirs = run(&exe, &command_args(gpu, gpus, seq));
        assert_eq!(theirs.status, 0, "{}", theirs.stderr);
        assert_eq!(ours, theirs.stdout, "{} x {}", gpus, gpu);
    }
}

#[test]
fn capacity_entries_are_the_command_s_methods() {
    let exe = match exe() {
        Some(e) => e,
        None => return,
    };
    for &(gpu, gpus, seq) in CASES {
        let entries = capacity(gpu, gpus, 0, seq, 1, 0).unwrap();
        let theirs = run(&exe, &command_args(gpu, gpus, seq));
        let json = parse(&theirs.stdout).unwrap();
        assert_eq!(num(json.at("gpus")), gpus as f64);
        let methods = match json.at("methods") {
            Some(Json::Arr(items)) => items,
            other => panic!("methods: {:?}", other),
        };
        assert_eq!(entries.len(), methods.len());
        for (i, (e, m)) in entries.iter().zip(methods).enumerate() {
            assert_eq!(e.method, METHODS[i]);
            assert_eq!(Some(e.method.clone()), text(m.at("method")));
            assert_eq!(e.model, text(m.at("model")));
            assert!(e.model.is_some(), "{} x {}: nothing fits {}", gpus, gpu, e.method);
            assert_eq!(e.parameters as f64, num(m.at("parameters")));
            assert_eq!(e.tokens_per_s, num(m.at("tokens_per_s")));
            assert_eq!(e.peak_total as f64, num(m.at("peak_total")));
            assert_eq!(Some(e.args.clone()), text(m.at("args")));
            assert!(e.args.starts_with(&format!("--model {} --gpu {} --gpus {} ", e.model.as_ref().unwrap(), gpu, gpus)));
        }
    }
}

#[test]
fn refusals_name_the_option() {
    let err = capacity("h100-80gb", 0, 0, 2048, 1, 0).unwrap_err();
    assert_eq!((err.code, err.field.as_str()), (Error::INVALID, "gpus"), "{}", err);
    assert!(err.message.starts_with("gpus: "), "{}", err);
    let err = capacity_json("no-such-gpu", 8, 0, 2048, 1, 0).unwrap_err();
    assert_eq!((err.code, err.field.as_str()), (Error::UNKNOWN, "gpu"), "{}", err);
    let err = capacity("h100-80gb", 8, 0, 2048, 0, 0).unwrap_err();
    assert_eq!(err.field, "micro-batch", "{}", err);
    let err = capacity("h100\0", 8, 0, 2048, 1, 0).unwrap_err();
    assert_eq!((err.code, err.field.as_str()), (Error::INVALID, "gpu"), "{}", err);
    // The command names the same option (its message quotes the text it was given, the
    // library's the number).
    if let Some(exe) = exe() {
        for (args, ours) in [
            (vec!["--gpus", "0"], capacity("h100-80gb", 0, 0, 2048, 1, 0).unwrap_err()),
            (vec!["--gpu", "no-such-gpu"], capacity("no-such-gpu", 8, 0, 2048, 1, 0).unwrap_err()),
        ] {
            let mut a = vec!["capacity".to_string()];
            a.extend(args.iter().map(|s| s.to_string()));
            let theirs = run(&exe, &a);
            assert_ne!(theirs.status, 0);
            let prefix = format!("trainsize: {}: ", ours.field);
            assert!(theirs.stderr.starts_with(&prefix), "{} vs {}", theirs.stderr, ours);
        }
    }
}

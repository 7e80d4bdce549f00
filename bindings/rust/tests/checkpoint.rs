//! Checkpoints: a model found in a Hugging Face cache laid out as huggingface_hub writes
//! it, counted from its safetensors headers, as the command's --hf-model, --revision and
//! --safetensors do (tests/cli_checkpoint.sh builds the same cache).

mod common;

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use trainsize::{Error, Job};

const COMMIT: &str = "0123456789abcdef0123456789abcdef01234567";
const OTHER_COMMIT: &str = "89abcdef0123456789abcdef0123456789abcdef";

/// A tiny Llama (hidden 64, ffn 128, 2 layers, 4 heads, 2 kv heads, vocab 256).
const CONFIG: &str = r#"{"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
 "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 256,
 "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "tie_word_embeddings": false}"#;

/// The tiny Llama's tensors as LlamaForCausalLM names them, and a value head of `head`
/// parameters its config does not describe.
fn tensors(head: u64) -> Vec<(String, Vec<u64>)> {
    let mut t = vec![
        ("model.embed_tokens.weight".to_string(), vec![256, 64]),
        ("model.norm.weight".to_string(), vec![64]),
        ("lm_head.weight".to_string(), vec![256, 64]),
        ("v_head.summary.weight".to_string(), vec![1, head]),
    ];
    for layer in 0..2 {
        for (name, shape) in [
            ("self_attn.q_proj", vec![64, 64]),
            ("self_attn.k_proj", vec![32, 64]),
            ("self_attn.v_proj", vec![32, 64]),
            ("self_attn.o_proj", vec![64, 64]),
            ("mlp.gate_proj", vec![128, 64]),
            ("mlp.up_proj", vec![128, 64]),
            ("mlp.down_proj", vec![64, 128]),
            ("input_layernorm", vec![64]),
            ("post_attention_layernorm", vec![64]),
        ] {
            t.push((format!("model.layers.{}.{}.weight", layer, name), shape));
        }
    }
    t
}

/// config.json and model.safetensors (BF16; the data sparse, headers only) in `dir`; the
/// parameters the header lists.
fn write_checkpoint(dir: &Path, head: u64) -> u64 {
    fs::create_dir_all(dir).unwrap();
    let mut entries = Vec::new();
    let mut offset = 0u64;
    for (name, shape) in tensors(head) {
        let bytes = 2 * shape.iter().product::<u64>();
        let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
        entries.push(format!(
            r#""{}": {{"dtype": "BF16", "shape": [{}], "data_offsets": [{}, {}]}}"#,
            name,
            dims.join(", "),
            offset,
            offset + bytes
        ));
        offset += bytes;
    }
    let header = format!("{{{}}}", entries.join(", "));
    fs::write(dir.join("config.json"), CONFIG).unwrap();
    let mut f = fs::File::create(dir.join("model.safetensors")).unwrap();
    f.write_all(&(header.len() as u64).to_le_bytes()).unwrap();
    f.write_all(header.as_bytes()).unwrap();
    f.set_len(8 + header.len() as u64 + offset).unwrap();
    offset / 2
}

/// A hub cache holding org/tiny at COMMIT (refs/main; a 64-parameter value head) and at
/// OTHER_COMMIT (refs/v2; 128), and the same checkpoint in a folder outside it; removed on
/// drop.
struct Cache {
    root: PathBuf,
    hub: PathBuf,
    snapshot: PathBuf,
    outside: PathBuf,
    parameters: u64,
}

impl Cache {
    fn new(test: &str) -> Cache {
        let root = std::env::temp_dir().join(format!("ts-rs-{}-{}", std::process::id(), test));
        let _ = fs::remove_dir_all(&root);
        let hub = root.join("hub");
        let repo = hub.join("models--org--tiny");
        let snapshot = repo.join("snapshots").join(COMMIT);
        let parameters = write_checkpoint(&snapshot, 64);
        write_checkpoint(&repo.join("snapshots").join(OTHER_COMMIT), 128);
        fs::create_dir_all(repo.join("refs")).unwrap();
        fs::write(repo.join("refs/main"), COMMIT).unwrap();
        fs::write(repo.join("refs/v2"), OTHER_COMMIT).unwrap();
        let outside = root.join("outside");
        write_checkpoint(&outside, 64);
        Cache { root, hub, snapshot, outside, parameters }
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.root);
    }
}

fn gpu_job() -> Job {
    let mut job = Job::new().unwrap();
    job.set("gpu", "a100-80gb").unwrap();
    job
}

/// The command's `estimate --json ARGS` with HF_HUB_CACHE set to the cache (for it alone).
fn command_json(cache: &Cache, args: &[&str]) -> Option<String> {
    let exe = common::exe()?;
    let out = Command::new(exe)
        .arg("estimate")
        .arg("--json")
        .args(args)
        .env("HF_HUB_CACHE", &cache.hub)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap())
}

#[test]
fn hf_snapshot_in_follows_refs_and_commit_ids() {
    let cache = Cache::new("refs");
    assert_eq!(trainsize::hf_snapshot_in(&cache.hub, "org/tiny", None).unwrap(), cache.snapshot);
    let v2 = trainsize::hf_snapshot_in(&cache.hub, "org/tiny", Some("v2")).unwrap();
    assert!(v2.ends_with(OTHER_COMMIT), "{}", v2.display());
    assert_eq!(trainsize::hf_snapshot_in(&cache.hub, "org/tiny", Some(OTHER_COMMIT)).unwrap(), v2);
}

#[test]
fn hf_snapshot_unknown_id_or_revision_names_it_and_the_folder() {
    let cache = Cache::new("unknown");
    let e = trainsize::hf_snapshot_in(&cache.hub, "org/absent", None).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "hf-model"));
    assert!(e.message.contains("org/absent") && e.message.contains("models--org--absent"), "{}", e);
    let e = trainsize::hf_snapshot_in(&cache.hub, "org/tiny", Some("v9")).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::UNKNOWN, "revision"));
    assert!(e.message.contains("\"v9\""), "{}", e);
    let e = trainsize::hf_snapshot_in(&cache.hub, "../../etc", None).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "hf-model"));
    let e = trainsize::hf_snapshot_in(&cache.hub, "org/ti\0ny", None).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "hf-model"));
}

/// The only test that reads the environment (tests run on threads of one process).
#[test]
fn hf_snapshot_searches_hf_hub_cache() {
    let cache = Cache::new("env");
    std::env::set_var("HF_HUB_CACHE", &cache.hub);
    assert_eq!(trainsize::hf_hub_cache(), Some(cache.hub.clone()));
    assert_eq!(trainsize::hf_snapshot("org/tiny", None).unwrap(), cache.snapshot);
    std::env::remove_var("HF_HUB_CACHE");
}

#[test]
fn load_checkpoint_lets_the_headers_win() {
    let cache = Cache::new("load");
    let mut job = gpu_job();
    let ck = job.load_checkpoint(&cache.snapshot, Some("org/tiny")).unwrap();
    assert_eq!(ck.parameters, cache.parameters);
    assert_eq!(ck.bytes, 2 * cache.parameters);
    assert_eq!((ck.tensors, ck.files, ck.dtype.as_str()), (tensors(64).len() as u64, 1, "BF16"));
    // The value head (1 x 64) is beyond what config.json describes.
    assert_eq!(ck.config_parameters, cache.parameters - 64);
    assert_eq!(ck.extra_parameters, 64);
    assert!(!ck.holds_fewer());
    assert_eq!(job.get("extra-params").unwrap(), "64");
    let est = job.estimate().unwrap();
    assert_eq!(est.model_name(), "org/tiny");
    assert_eq!(est.extra_parameters(), 64);
    assert_eq!(est.model().parameters, cache.parameters);
    // Which tensors: the value head, not the final norm of as many (beside the layers).
    assert_eq!(est.extra_tensors(), "v_head.summary 64");
    let unexplained: Vec<(&str, u64)> =
        ck.groups.iter().filter(|g| g.unexplained > 0).map(|g| (g.name.as_str(), g.unexplained)).collect();
    assert_eq!(unexplained, vec![("v_head.summary", 64)]);
}

#[test]
fn hf_model_equals_the_command() {
    let cache = Cache::new("command");
    for (revision, args) in [
        (None, vec!["--hf-model", "org/tiny", "--gpu", "a100-80gb", "--layers", "4"]),
        (Some("v2"), vec!["--hf-model", "org/tiny", "--revision", "v2", "--gpu", "a100-80gb", "--layers", "4"]),
    ] {
        // As the command: the snapshot first, then the settings (a shape override too).
        let dir = trainsize::hf_snapshot_in(&cache.hub, "org/tiny", revision).unwrap();
        let mut job = Job::new().unwrap();
        job.load_checkpoint(&dir, Some("org/tiny")).unwrap();
        job.set("gpu", "a100-80gb").unwrap().set("layers", "4").unwrap();
        let Some(want) = command_json(&cache, &args) else { return };
        assert_eq!(job.estimate().unwrap().to_json(), want, "{:?}", args);
    }
}

#[test]
fn set_checkpoint_from_counts_against_the_model_set() {
    let cache = Cache::new("set");
    // The folder's own config.json as the model: the same as loading the folder.
    let mut job = gpu_job();
    job.load_hf_config_file(cache.outside.join("config.json")).unwrap();
    let ck = job.set_checkpoint_from(cache.outside.join("model.safetensors")).unwrap();
    assert_eq!((ck.parameters, ck.extra_parameters), (cache.parameters, 64));
    let mut folder = gpu_job();
    folder.load_checkpoint(&cache.outside, None).unwrap();
    let mut a = job.estimate().unwrap().to_json();
    let b = folder.estimate().unwrap().to_json();
    if let Some(want) = command_json(&cache, &["--safetensors", cache.outside.to_str().unwrap(), "--gpu", "a100-80gb"]) {
        assert_eq!(b, want);
    }
    // Named by the config's file in one and by the folder in the other; the rest the same.
    let name = |t: &str| t.lines().find(|l| l.trim_start().starts_with("\"name\"")).unwrap().to_string();
    a = a.replace(&name(&a), &name(&b));
    assert_eq!(a, b);

    // A preset's shape holds more than the tiny checkpoint: the shape's count stays.
    let mut job = gpu_job();
    job.set("model", "llama-2-7b").unwrap();
    let before = job.estimate().unwrap();
    let ck = job.set_checkpoint_from(&cache.snapshot).unwrap();
    assert!(ck.holds_fewer());
    assert_eq!(ck.extra_parameters, 0);
    assert_eq!(job.estimate().unwrap().model(), before.model());
}

#[test]
fn corrupt_headers_are_errors_and_leave_the_job_unchanged() {
    let cache = Cache::new("corrupt");
    let file = cache.snapshot.join("model.safetensors");
    let mut job = gpu_job();
    job.set("model", "llama-2-7b").unwrap().set("extra-params", "5").unwrap();
    let before = job.estimate().unwrap();

    fs::write(&file, b"\xff\xff\xff\xff\x00\x00\x00\x00{}").unwrap(); // length past the end
    let e = job.set_checkpoint_from(&file).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::INVALID, "safetensors"));
    assert!(e.message.contains("model.safetensors"), "{}", e);
    fs::write(&file, b"\x03\x00\x00\x00\x00\x00\x00\x00{x]").unwrap(); // not JSON
    let e = job.load_checkpoint(&cache.snapshot, Some("org/tiny")).unwrap_err();
    assert_eq!((e.code, e.field.as_str()), (Error::PARSE, "safetensors"));
    let e = trainsize::read_checkpoint(&file).unwrap_err();
    assert_eq!(e.code, Error::PARSE);
    let e = trainsize::read_checkpoint(cache.root.join("absent.safetensors")).unwrap_err();
    assert_eq!(e.code, Error::IO);

    assert_eq!(job.get("extra-params").unwrap(), "5");
    assert_eq!(job.estimate().unwrap(), before);
}

#[test]
fn read_checkpoint_counts_a_file_and_a_folder() {
    let cache = Cache::new("read");
    let ck = trainsize::read_checkpoint(cache.outside.join("model.safetensors")).unwrap();
    assert_eq!(ck, trainsize::read_checkpoint(&cache.outside).unwrap());
    assert_eq!((ck.parameters, ck.bytes, ck.files), (cache.parameters, 2 * cache.parameters, 1));
    assert_eq!((ck.config_parameters, ck.extra_parameters), (0, 0));
    assert_eq!(ck.dtype, "BF16");
    // The tensors by prefix, the most first: the two layers, then by name.
    let names: Vec<&str> = ck.groups.iter().map(|g| g.name.as_str()).collect();
    assert_eq!(names, vec!["model.layers.#", "lm_head", "model.embed_tokens", "model.norm", "v_head.summary"]);
    assert_eq!((ck.groups[0].layers, ck.groups[0].tensors), (2, 18));
    assert_eq!(ck.groups.iter().map(|g| g.parameters).sum::<u64>(), ck.parameters);
}

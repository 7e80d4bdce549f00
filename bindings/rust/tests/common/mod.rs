//! Shared by the integration tests: the command (from $TRAINSIZE_EXE), a small JSON
//! parser, and the built-in example job.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

use trainsize::{Estimate, FieldValue};

/// The built-in example job of the command (the library lists it: trainsize_example_setting): what bare
/// `trainsize` sizes.
pub const EXAMPLE_JOB: &[(&str, &str)] = &[
    ("model", "llama-2-7b"),
    ("gpu", "a100-80gb"),
    ("gpus", "8"),
    ("zero", "3"),
    ("micro-batch", "1"),
    ("seq", "4096"),
    ("precision", "bf16-mixed"),
];

/// The repository's tests/data directory.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data")
}

/// The `trainsize` command: $TRAINSIZE_EXE, else $TRAINSIZE_LIB_DIR/programs/trainsize
/// (a CMake build tree). None when neither exists: the comparisons are then skipped with
/// a note on standard error.
pub fn exe() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("TRAINSIZE_EXE") {
        if !p.is_empty() {
            let p = PathBuf::from(p);
            assert!(p.exists(), "TRAINSIZE_EXE={} does not exist", p.display());
            return Some(p);
        }
    }
    if let Some(dir) = std::env::var_os("TRAINSIZE_LIB_DIR") {
        let p = PathBuf::from(dir).join("programs/trainsize");
        if p.exists() {
            return Some(p);
        }
    }
    eprintln!("note: TRAINSIZE_EXE is not set: comparisons with the command are skipped");
    None
}

/// Output of one run of the command.
pub struct Run {
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(exe: &PathBuf, args: &[String]) -> Run {
    let out = Command::new(exe)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {}", exe.display(), e));
    Run {
        status: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("the command's output is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// `estimate --json --NAME VALUE ...` for the settings.
pub fn estimate_args(settings: &[(&str, &str)]) -> Vec<String> {
    let mut args = vec!["estimate".to_string(), "--json".to_string()];
    for (name, value) in settings {
        args.push(format!("--{}={}", name, value));
    }
    args
}

/* ---- a small JSON parser ---- */

/// A parsed JSON value. Numbers keep their text; objects keep their key order.
#[derive(Clone, Debug)]
pub enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl PartialEq for Json {
    /// Structural equality; numbers are equal when they are the same integer, or else
    /// the same double (so "32768" equals "3.2768e4" and "1.5e+15" equals "1.5e15").
    fn eq(&self, other: &Json) -> bool {
        match (self, other) {
            (Json::Null, Json::Null) => true,
            (Json::Bool(a), Json::Bool(b)) => a == b,
            (Json::Num(a), Json::Num(b)) => numbers_equal(a, b),
            (Json::Str(a), Json::Str(b)) => a == b,
            (Json::Arr(a), Json::Arr(b)) => a == b,
            (Json::Obj(a), Json::Obj(b)) => a == b,
            _ => false,
        }
    }
}

pub fn numbers_equal(a: &str, b: &str) -> bool {
    if let (Ok(x), Ok(y)) = (a.parse::<u64>(), b.parse::<u64>()) {
        return x == y;
    }
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => x.to_bits() == y.to_bits() || x == y,
        _ => false,
    }
}

impl Json {
    /// The value at a dotted path of object keys.
    pub fn at(&self, path: &str) -> Option<&Json> {
        let mut v = self;
        for key in path.split('.') {
            match v {
                Json::Obj(members) => v = &members.iter().find(|(k, _)| k == key)?.1,
                _ => return None,
            }
        }
        Some(v)
    }

    pub fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
            _ => Vec::new(),
        }
    }
}

pub fn parse(text: &str) -> Result<Json, String> {
    let mut p = Parser { s: text.as_bytes(), i: 0 };
    let v = p.value(0)?;
    p.ws();
    if p.i != p.s.len() {
        return Err(format!("trailing text at byte {}", p.i));
    }
    Ok(v)
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    fn err<T>(&self, what: &str) -> Result<T, String> {
        Err(format!("{} at byte {}", what, self.i))
    }

    fn eat(&mut self, b: u8) -> Result<(), String> {
        self.ws();
        if self.s.get(self.i) == Some(&b) {
            self.i += 1;
            Ok(())
        } else {
            self.err(&format!("expected '{}'", b as char))
        }
    }

    fn literal(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            self.err("bad literal")
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, String> {
        if depth > 64 {
            return self.err("too deep");
        }
        self.ws();
        match self.s.get(self.i) {
            None => self.err("unexpected end"),
            Some(b'{') => {
                self.i += 1;
                let mut members = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(members));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    self.eat(b':')?;
                    let v = self.value(depth + 1)?;
                    members.push((key, v));
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(members));
                        }
                        _ => return self.err("expected ',' or '}'"),
                    }
                }
            }
            Some(b'[') => {
                self.i += 1;
                let mut items = Vec::new();
                self.ws();
                if self.s.get(self.i) == Some(&b']') {
                    self.i += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value(depth + 1)?);
                    self.ws();
                    match self.s.get(self.i) {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return self.err("expected ',' or ']'"),
                    }
                }
            }
            Some(b'"') => Ok(Json::Str(self.string()?)),
            Some(b't') => self.literal("true", Json::Bool(true)),
            Some(b'f') => self.literal("false", Json::Bool(false)),
            Some(b'n') => self.literal("null", Json::Null),
            Some(_) => {
                let start = self.i;
                while self.i < self.s.len() && matches!(self.s[self.i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.i += 1;
                }
                let text = std::str::from_utf8(&self.s[start..self.i]).unwrap();
                if text.is_empty() || text.parse::<f64>().is_err() {
                    return self.err("bad number");
                }
                Ok(Json::Num(text.to_string()))
            }
        }
    }

    fn hex4(&mut self) -> Result<u32, String> {
        let h = self.s.get(self.i..self.i + 4).ok_or("short \\u escape")?;
        let h = std::str::from_utf8(h).map_err(|e| e.to_string())?;
        let v = u32::from_str_radix(h, 16).map_err(|e| e.to_string())?;
        self.i += 4;
        Ok(v)
    }

    fn string(&mut self) -> Result<String, String> {
        if self.s.get(self.i) != Some(&b'"') {
            return self.err("expected a string");
        }
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i] != b'"' && self.s[self.i] != b'\\' {
                self.i += 1;
            }
            out.push_str(std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?);
            match self.s.get(self.i) {
                None => return self.err("unterminated string"),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                _ => {
                    self.i += 1;
                    let c = *self.s.get(self.i).ok_or("bad escape")?;
                    self.i += 1;
                    match c {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let mut cp = self.hex4()?;
                            if (0xd800..0xdc00).contains(&cp) && self.s[self.i..].starts_with(b"\\u") {
                                self.i += 2;
                                let lo = self.hex4()?;
                                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo.wrapping_sub(0xdc00) & 0x3ff);
                            }
                            out.push(char::from_u32(cp).unwrap_or('\u{fffd}'));
                        }
                        _ => return self.err("bad escape"),
                    }
                }
            }
        }
    }
}

/* ---- an estimate as a JSON structure, built from fields() alone ---- */

fn field_json(v: &FieldValue) -> Json {
    match v {
        FieldValue::U64(x) => Json::Num(x.to_string()),
        FieldValue::F64(x) if x.is_finite() => Json::Num(format!("{:e}", x)),
        FieldValue::F64(_) => Json::Null,
        FieldValue::Bool(b) => Json::Bool(*b),
        FieldValue::Str(s) => Json::Str(s.to_string()),
        FieldValue::Choice(s) => Json::Str(s.to_string()),
        FieldValue::Flags(w) => Json::Arr(w.names().into_iter().map(|n| Json::Str(n.to_string())).collect()),
        FieldValue::Unknown(_) => Json::Null,
    }
}

fn insert(obj: &mut Vec<(String, Json)>, path: &[&str], v: Json) {
    if path.len() == 1 {
        obj.push((path[0].to_string(), v));
        return;
    }
    if !obj.iter().any(|(k, _)| k == path[0]) {
        obj.push((path[0].to_string(), Json::Obj(Vec::new())));
    }
    for (k, child) in obj.iter_mut() {
        if k == path[0] {
            if let Json::Obj(members) = child {
                insert(members, &path[1..], v);
                return;
            }
            panic!("path clash at {}", k);
        }
    }
}

/// The structure `trainsize estimate --json` should print, from fields() and version()
/// only (independent of to_json()).
pub fn expected_structure(e: &Estimate) -> Json {
    let mut root = vec![("trainsize_version".to_string(), Json::Str(trainsize::version()))];
    for (path, value) in e.fields() {
        if path == "trainsize_version" {
            continue;
        }
        let parts: Vec<&str> = path.split('.').collect();
        insert(&mut root, &parts, field_json(&value));
    }
    // The advice, from Estimate::advice() (the library's trainsize_advise).
    let advice = e
        .advice()
        .iter()
        .map(|a| {
            Json::Obj(vec![
                (
                    "set".to_string(),
                    Json::Obj(a.settings.iter().map(|(n, v)| (n.clone(), Json::Str(v.clone()))).collect()),
                ),
                ("peak_total".to_string(), Json::Num(a.peak_total.to_string())),
                ("gpu_capacity".to_string(), Json::Num(a.gpu_capacity.to_string())),
                ("fits".to_string(), Json::Bool(true)),
                ("gpus".to_string(), Json::Num(a.gpus.to_string())),
                ("step_seconds".to_string(), Json::Num(format!("{:e}", a.step_seconds))),
                ("seconds".to_string(), Json::Num(format!("{:e}", a.seconds))),
            ])
        })
        .collect();
    root.push(("advice".to_string(), Json::Arr(advice)));
    Json::Obj(root)
}

/// Where two structures differ first, for assertion messages.
pub fn first_difference(a: &Json, b: &Json, at: &str) -> Option<String> {
    match (a, b) {
        (Json::Obj(x), Json::Obj(y)) => {
            let kx: Vec<&String> = x.iter().map(|(k, _)| k).collect();
            let ky: Vec<&String> = y.iter().map(|(k, _)| k).collect();
            if kx != ky {
                return Some(format!("{}: keys {:?} vs {:?}", at, kx, ky));
            }
            x.iter()
                .zip(y.iter())
                .find_map(|((k, va), (_, vb))| first_difference(va, vb, &format!("{}.{}", at, k)))
        }
        _ if a == b => None,
        _ => Some(format!("{}: {:?} vs {:?}", at, a, b)),
    }
}

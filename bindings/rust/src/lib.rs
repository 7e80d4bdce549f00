//! Safe Rust bindings to libtrainsize: what it takes to train a transformer model.
//!
//! A [`Job`] describes one training run through the library's named parameters (the
//! command-line option names without the dashes); [`Job::estimate`] sizes it, and
//! [`Job::plan`] searches GPU types, counts and layouts for it.
//!
//! ```no_run
//! let mut job = trainsize::Job::new()?;
//! job.set("model", "llama-2-7b")?
//!     .set("gpu", "a100-80gb")?
//!     .set("gpus", "8")?
//!     .set("zero", "3")?;
//! let estimate = job.estimate()?;
//! println!("{} bytes per GPU, fits: {}", estimate.memory().peak_total, estimate.fits());
//! println!("{}", estimate.to_json());
//! # Ok::<(), trainsize::Error>(())
//! ```
//!
//! Before the first job is made, the bindings check that the linked library speaks ABI 2
//! and that its structs have the sizes declared in [`sys`] (see [`check_abi`]).

pub mod sys;


use std::borrow::Cow;
use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_int, c_void};
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::atomic::{AtomicBool, Ordering};

/// The ABI version these bindings are written for.
pub const ABI_VERSION: u32 = sys::TRAINSIZE_ABI_VERSION;

/// Advice [`Job::estimate`] asks for when the job does not fit (as the command does).
pub const ADVICE_MAX: usize = 5;

/* ---- small helpers ---- */

/// A library-owned static string (NULL gives ""). The library is linked, not loaded at
/// run time, so its static storage lives as long as the program.
fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the library promises a NUL-terminated string in static storage.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("")
}

/// The text of a fixed-size char array, up to its first NUL (or its end).
fn array_str(a: &[c_char]) -> Cow<'_, str> {
    // SAFETY: c_char and u8 have the same size and alignment.
    let bytes = unsafe { std::slice::from_raw_parts(a.as_ptr() as *const u8, a.len()) };
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end])
}

fn zeroed_error() -> sys::trainsize_error {
    sys::trainsize_error {
        code: 0,
        field: [0; sys::TRAINSIZE_ERROR_FIELD_MAX],
        message: [0; sys::TRAINSIZE_ERROR_MESSAGE_MAX],
    }
}

fn zeroed_result() -> sys::trainsize_result {
    // SAFETY: trainsize_result holds integers, doubles and char arrays only; all-zero
    // bytes are a valid value of each.
    unsafe { std::mem::zeroed() }
}

/* ---- version ---- */

/// The release version of the linked library, "major.minor.patch".
pub fn version() -> String {
    static_str(unsafe { sys::trainsize_version_string() }).to_string()
}

/// Fits a site calibration to measured runs, as `trainsize calibrate RUNS.json` does:
/// `runs_json` is the RUNS.json text, `date` ("YYYY-MM-DD") what the calibration records.
/// Returns the calibration's JSON text, which `Job::load_calibration_json_str` takes.
pub fn calibrate(runs_json: &str, date: Option<&str>) -> Result<String, Error> {
    const RUNS: usize = 256;
    let day = match date {
        Some(d) => Some(CString::new(d).map_err(|_| Error::new(Error::INVALID, "date", "date: contains a NUL".into()))?),
        None => None,
    };
    let day_ptr = day.as_ref().map_or(std::ptr::null(), |d| d.as_ptr());
    let mut runs: Vec<sys::trainsize_calibration_run> = Vec::with_capacity(RUNS);
    let mut summary = std::mem::MaybeUninit::<sys::trainsize_calibration_summary>::zeroed();
    let (mut count, mut need) = (0usize, 0usize);
    let mut err = zeroed_error();
    let mut call = |buf: *mut c_char, cap: usize, need: &mut usize, err: &mut sys::trainsize_error| unsafe {
        sys::trainsize_calibrate(runs_json.as_ptr() as *const c_char, runs_json.len(), day_ptr, runs.as_mut_ptr(), RUNS,
                                 &mut count, summary.as_mut_ptr(), buf, cap, need, err)
    };
    check(call(std::ptr::null_mut(), 0, &mut need, &mut err), &err)?;
    let mut text = vec![0u8; need + 1];
    check(call(text.as_mut_ptr() as *mut c_char, text.len(), &mut need, &mut err), &err)?;
    text.truncate(need);
    String::from_utf8(text).map_err(|_| Error::new(Error::INVALID, "runs", "runs: the calibration is not UTF-8".into()))
}

/// The release version of the linked library as major * 10000 + minor * 100 + patch.
pub fn version_number() -> u32 {
    unsafe { sys::trainsize_version_number() }
}

/// The ABI version of the linked library (these bindings need [`ABI_VERSION`]).
pub fn abi_version() -> u32 {
    unsafe { sys::trainsize_abi_version() }
}

/// A short, static description of a status code.
pub fn strerror(code: i32) -> &'static str {
    static_str(unsafe { sys::trainsize_strerror(code) })
}

/* ---- errors ---- */

/// A failure reported by the library (or by these bindings, in the same terms).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Error {
    /// A `trainsize_status` value (negative); see the associated constants.
    pub code: i32,
    /// The offending parameter or JSON key, or "".
    pub field: String,
    /// One line naming the field and the reason.
    pub message: String,
}

impl Error {
    /// A value is malformed or out of its range.
    pub const INVALID: i32 = sys::TRAINSIZE_E_INVALID;
    /// An unknown parameter, preset, GPU or choice name.
    pub const UNKNOWN: i32 = sys::TRAINSIZE_E_UNKNOWN;
    /// The parallel layout does not divide the model or GPUs.
    pub const LAYOUT: i32 = sys::TRAINSIZE_E_LAYOUT;
    /// A result would not fit in 64 bits.
    pub const OVERFLOW: i32 = sys::TRAINSIZE_E_OVERFLOW;
    /// Malformed JSON.
    pub const PARSE: i32 = sys::TRAINSIZE_E_PARSE;
    /// Input beyond a size or nesting limit.
    pub const LIMIT: i32 = sys::TRAINSIZE_E_LIMIT;
    /// A file could not be read.
    pub const IO: i32 = sys::TRAINSIZE_E_IO;
    /// Memory allocation failed.
    pub const NOMEM: i32 = sys::TRAINSIZE_E_NOMEM;
    /// A NULL pointer or a too-small struct (here: an ABI mismatch).
    pub const ARGUMENT: i32 = sys::TRAINSIZE_E_ARGUMENT;
    /// A valid combination the model does not cover.
    pub const UNSUPPORTED: i32 = sys::TRAINSIZE_E_UNSUPPORTED;
    /// The progress callback of [`Job::plan_with_progress`] stopped the search.
    pub const CANCELLED: i32 = sys::TRAINSIZE_E_CANCELLED;

    fn new(code: i32, field: &str, message: String) -> Error {
        Error {
            code,
            field: field.to_string(),
            message,
        }
    }

    fn from_raw(rc: i32, err: &sys::trainsize_error) -> Error {
        Error {
            code: rc,
            field: array_str(&err.field).into_owned(),
            message: array_str(&err.message).into_owned(),
        }
    }

    fn nomem() -> Error {
        Error::new(Error::NOMEM, "", "out of memory".to_string())
    }

    /// The library's short description of the code ("unknown parameter", ...).
    pub fn description(&self) -> &'static str {
        strerror(self.code)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.message.is_empty() {
            f.write_str(&self.message)
        } else if !self.field.is_empty() {
            write!(f, "{}: {}", self.field, self.description())
        } else {
            f.write_str(self.description())
        }
    }
}

impl std::error::Error for Error {}

/// Turns a status and its details into a Result.
fn check(rc: i32, err: &sys::trainsize_error) -> Result<(), Error> {
    if rc == sys::TRAINSIZE_OK {
        Ok(())
    } else {
        Err(Error::from_raw(rc, err))
    }
}

/* ---- the ABI guard ---- */

static ABI_CHECKED: AtomicBool = AtomicBool::new(false);

/// Checks, once, that the linked library is the one these bindings are written for: ABI
/// version [`ABI_VERSION`], the same size of every struct the bindings allocate (through
/// `trainsize_struct_size`), and `trainsize_estimate` accepting the bindings' result size.
/// [`Job::new`] calls it; a mismatch is an [`Error`] with code [`Error::ARGUMENT`] and
/// field "abi".
pub fn check_abi() -> Result<(), Error> {
    if ABI_CHECKED.load(Ordering::Acquire) {
        return Ok(());
    }
    probe_abi()?;
    ABI_CHECKED.store(true, Ordering::Release);
    Ok(())
}

fn probe_abi() -> Result<(), Error> {
    let mismatch = |message: String| Error::new(Error::ARGUMENT, "abi", message);
    let abi = abi_version();
    if abi != ABI_VERSION {
        return Err(mismatch(format!(
            "abi: the linked libtrainsize {} has ABI version {}; these bindings need {}",
            version(),
            abi,
            ABI_VERSION
        )));
    }
    let sizes = [
        (sys::TRAINSIZE_STRUCT_ERROR, std::mem::size_of::<sys::trainsize_error>(), "trainsize_error"),
        (sys::TRAINSIZE_STRUCT_RESULT, std::mem::size_of::<sys::trainsize_result>(), "trainsize_result"),
        (
            sys::TRAINSIZE_STRUCT_PLAN_CANDIDATE,
            std::mem::size_of::<sys::trainsize_plan_candidate>(),
            "trainsize_plan_candidate",
        ),
        (sys::TRAINSIZE_STRUCT_PLAN_STATS, std::mem::size_of::<sys::trainsize_plan_stats>(), "trainsize_plan_stats"),
        (
            sys::TRAINSIZE_STRUCT_FIELD_VALUE,
            std::mem::size_of::<sys::trainsize_field_value>(),
            "trainsize_field_value",
        ),
        (sys::TRAINSIZE_STRUCT_GPU_INFO, std::mem::size_of::<sys::trainsize_gpu_info>(), "trainsize_gpu_info"),
        (sys::TRAINSIZE_STRUCT_ADVICE, std::mem::size_of::<sys::trainsize_advice>(), "trainsize_advice"),
        (sys::TRAINSIZE_STRUCT_CHECKPOINT, std::mem::size_of::<sys::trainsize_checkpoint>(), "trainsize_checkpoint"),
        (
            sys::TRAINSIZE_STRUCT_CAPACITY_ENTRY,
            std::mem::size_of::<sys::trainsize_capacity_entry>(),
            "trainsize_capacity_entry",
        ),
    ];
    for &(id, ours, name) in sizes.iter() {
        let theirs = unsafe { sys::trainsize_struct_size(id) };
        if theirs != ours {
            return Err(mismatch(format!(
                "abi: {} is {} bytes in the linked libtrainsize {} and {} in these bindings",
                name,
                theirs,
                version(),
                ours
            )));
        }
    }
    // trainsize_estimate refuses a result smaller than its own with E_ARGUMENT, before it
    // looks at the job: a job without a model must fail on the model instead.
    let job = unsafe { sys::trainsize_job_new() };
    if job.is_null() {
        return Err(Error::nomem());
    }
    let mut out = zeroed_result();
    let mut err = zeroed_error();
    let rc = unsafe {
        sys::trainsize_estimate(job, &mut out, std::mem::size_of::<sys::trainsize_result>(), &mut err)
    };
    unsafe { sys::trainsize_job_free(job) };
    if rc == sys::TRAINSIZE_E_ARGUMENT {
        let detail = Error::from_raw(rc, &err);
        return Err(mismatch(format!("abi: {}", detail)));
    }
    Ok(())
}

/* ---- jobs ---- */

/// One training job: a model, a training setup, a parallel layout and a GPU.
///
/// Owns a `trainsize_job`; dropping it frees it. Cloning copies it (`trainsize_job_clone`).
/// A job may move between threads, and may be estimated or planned from many threads at
/// once (`&Job`); changing it needs `&mut Job`, as the library requires.
pub struct Job {
    raw: NonNull<sys::trainsize_job>,
}

// SAFETY: the library keeps no global mutable state and a job has no thread affinity; it
// may be read (estimate, plan, get) concurrently as long as nobody modifies it, which
// `&mut self` on every modifying method guarantees.
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

impl Job {
    /// A job holding the library's defaults (a model must still be set). Checks the ABI
    /// first (see [`check_abi`]).
    pub fn new() -> Result<Job, Error> {
        check_abi()?;
        NonNull::new(unsafe { sys::trainsize_job_new() })
            .map(|raw| Job { raw })
            .ok_or_else(Error::nomem)
    }

    /// A new job with the given settings applied in order (as [`Job::set`]).
    pub fn with_settings<'a, I>(settings: I) -> Result<Job, Error>
    where
        I: IntoIterator<Item = (&'a str, &'a str)>,
    {
        let mut job = Job::new()?;
        for (name, value) in settings {
            job.set(name, value)?;
        }
        Ok(job)
    }

    /// The raw pointer, for calls into [`sys`]; it stays owned by this job.
    pub fn as_ptr(&self) -> *const sys::trainsize_job {
        self.raw.as_ptr()
    }

    /// The raw pointer, mutable, for calls into [`sys`]; it stays owned by this job.
    pub fn as_mut_ptr(&mut self) -> *mut sys::trainsize_job {
        self.raw.as_ptr()
    }

    /// A copy of the job; [`Clone::clone`] panics where this returns an error.
    pub fn try_clone(&self) -> Result<Job, Error> {
        NonNull::new(unsafe { sys::trainsize_job_clone(self.as_ptr()) })
            .map(|raw| Job { raw })
            .ok_or_else(Error::nomem)
    }

    /// Sets one parameter by name ("model", "gpu", "gpus", "tp", "micro-batch", ...) from
    /// its text form. On failure the job is unchanged and the error names the field.
    pub fn set(&mut self, name: &str, value: &str) -> Result<&mut Self, Error> {
        let c_name = CString::new(name).map_err(|_| {
            Error::new(
                Error::UNKNOWN,
                name,
                format!("{}: unknown parameter (the name holds a NUL byte)", name.escape_debug()),
            )
        })?;
        let c_value = CString::new(value).map_err(|_| {
            Error::new(Error::INVALID, name, format!("{}: the value holds a NUL byte", name))
        })?;
        let mut err = zeroed_error();
        let rc = unsafe { sys::trainsize_job_set(self.as_mut_ptr(), c_name.as_ptr(), c_value.as_ptr(), &mut err) };
        check(rc, &err)?;
        Ok(self)
    }

    /// Reads one parameter back in its text form.
    pub fn get(&self, name: &str) -> Result<String, Error> {
        let c_name = CString::new(name).map_err(|_| {
            Error::new(
                Error::UNKNOWN,
                name,
                format!("{}: unknown parameter (the name holds a NUL byte)", name.escape_debug()),
            )
        })?;
        let mut buf: Vec<u8> = vec![0; 64];
        loop {
            let mut err = zeroed_error();
            let rc = unsafe {
                sys::trainsize_job_get(self.as_ptr(), c_name.as_ptr(), buf.as_mut_ptr() as *mut c_char, buf.len(), &mut err)
            };
            if rc < 0 {
                return Err(Error::from_raw(rc, &err));
            }
            let len = rc as usize;
            if len < buf.len() {
                buf.truncate(len);
                return Ok(String::from_utf8_lossy(&buf).into_owned());
            }
            buf = vec![0; len + 1];
        }
    }

    /// Loads a model shape from the text of a Hugging Face `config.json`. On failure the
    /// job is unchanged.
    pub fn load_hf_config_str(&mut self, json: &str) -> Result<&mut Self, Error> {
        self.load_hf_config_bytes(json.as_bytes())
    }

    /// As [`Job::load_hf_config_str`], from bytes.
    pub fn load_hf_config_bytes(&mut self, json: &[u8]) -> Result<&mut Self, Error> {
        self.load_text(sys::trainsize_job_load_hf_config, json)
    }

    /// Loads a model shape from a Hugging Face `config.json` file (the model's name becomes
    /// its `_name_or_path`, else its `model_type`).
    pub fn load_hf_config_file<P: AsRef<Path>>(&mut self, path: P) -> Result<&mut Self, Error> {
        self.load_file(sys::trainsize_job_load_hf_config_file, path.as_ref())
    }

    /// Uses a GPU described by the text of a JSON device file instead of a catalogue GPU.
    pub fn load_gpu_json_str(&mut self, json: &str) -> Result<&mut Self, Error> {
        self.load_text(sys::trainsize_job_load_gpu_json, json.as_bytes())
    }

    /// Uses a GPU described by a JSON device file.
    pub fn load_gpu_file<P: AsRef<Path>>(&mut self, path: P) -> Result<&mut Self, Error> {
        self.load_file(sys::trainsize_job_load_gpu_file, path.as_ref())
    }

    /// Applies a site calibration from its JSON text (what `trainsize calibrate` writes):
    /// the efficiency model's shares fitted to the site's own runs. Settings set afterwards
    /// win over it; on failure the job is unchanged.
    pub fn load_calibration_json_str(&mut self, json: &str) -> Result<&mut Self, Error> {
        self.load_text(sys::trainsize_job_load_calibration_json, json.as_bytes())
    }

    /// Applies a site calibration file, as the command's `--calibration`.
    pub fn load_calibration_file<P: AsRef<Path>>(&mut self, path: P) -> Result<&mut Self, Error> {
        self.load_file(sys::trainsize_job_load_calibration, path.as_ref())
    }

    /// Loads a model from a checkpoint folder, as the command's `--safetensors DIR` (and,
    /// on a cached snapshot, `--hf-model`): its `config.json` is the model's shape, named
    /// `name` when given (a Hub id), and its safetensors headers count the parameters,
    /// winning where they hold more (the difference becomes "extra-params"). Set the model
    /// this way first: settings set afterwards (a shape override) win over it. On failure
    /// the job is unchanged.
    pub fn load_checkpoint<P: AsRef<Path>>(&mut self, dir: P, name: Option<&str>) -> Result<Checkpoint, Error> {
        let c_dir = path_cstring(dir.as_ref())?;
        let c_name = match name {
            Some(n) => Some(CString::new(n).map_err(|_| {
                Error::new(Error::INVALID, "safetensors", "safetensors: the model's name holds a NUL byte".into())
            })?),
            None => None,
        };
        let name_ptr = c_name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr());
        let mut ck = sys::trainsize_checkpoint::default();
        let mut err = zeroed_error();
        let rc = unsafe {
            sys::trainsize_job_load_checkpoint(self.as_mut_ptr(), c_dir.as_ptr(), name_ptr, &mut ck, &mut err)
        };
        check(rc, &err)?;
        Ok(Checkpoint::from_raw(&ck))
    }

    /// Counts a checkpoint's parameters against the job's model (set first: a preset, a
    /// config.json), as the command's `--safetensors PATH` with `--model` or `--hf-config`:
    /// `path` is a `.safetensors` file, a `model.safetensors.index.json` or a folder holding
    /// either. Where the headers hold more than the shape describes, the difference becomes
    /// "extra-params"; where fewer ([`Checkpoint::holds_fewer`]), the shape's count stays.
    /// On failure the job is unchanged.
    pub fn set_checkpoint_from<P: AsRef<Path>>(&mut self, path: P) -> Result<Checkpoint, Error> {
        let mut ck = read_raw_checkpoint(path.as_ref())?;
        let mut err = zeroed_error();
        let rc = unsafe { sys::trainsize_job_set_checkpoint(self.as_mut_ptr(), &mut ck, &mut err) };
        check(rc, &err)?;
        Ok(Checkpoint::from_raw(&ck))
    }

    /// A file's text through one of the library's loaders (config.json, device file,
    /// calibration).
    fn load_text(
        &mut self,
        load: unsafe extern "C" fn(*mut sys::trainsize_job, *const c_char, usize, *mut sys::trainsize_error) -> c_int,
        json: &[u8],
    ) -> Result<&mut Self, Error> {
        let mut err = zeroed_error();
        let rc = unsafe { load(self.as_mut_ptr(), json.as_ptr() as *const c_char, json.len(), &mut err) };
        check(rc, &err)?;
        Ok(self)
    }

    /// A file, by its path, through one of the library's file loaders.
    fn load_file(
        &mut self,
        load: unsafe extern "C" fn(*mut sys::trainsize_job, *const c_char, *mut sys::trainsize_error) -> c_int,
        path: &Path,
    ) -> Result<&mut Self, Error> {
        let c_path = path_cstring(path)?;
        let mut err = zeroed_error();
        let rc = unsafe { load(self.as_mut_ptr(), c_path.as_ptr(), &mut err) };
        check(rc, &err)?;
        Ok(self)
    }

    /// Estimates what the job takes.
    pub fn estimate(&self) -> Result<Estimate, Error> {
        let mut raw = zeroed_result();
        let mut err = zeroed_error();
        let rc = unsafe {
            sys::trainsize_estimate(self.as_ptr(), &mut raw, std::mem::size_of::<sys::trainsize_result>(), &mut err)
        };
        check(rc, &err)?;
        // A job that does not fit comes with the changes that make it fit, as the command's.
        let mut advice = [zeroed_advice(); ADVICE_MAX];
        let advised = if raw.memory.fits != 0 { 0 } else { self.advise_into(&mut advice)? };
        Ok(Estimate { raw, advice, advised })
    }

    /// The largest micro-batch and the largest sequence that fit, everything else as the
    /// job gives it (`trainsize_largest_fit`): what an estimate with "largest-fit" true
    /// reports as memory.max_micro_batch and memory.max_seq, without the rest of it.
    pub fn largest_fit(&self) -> Result<LargestFit, Error> {
        let mut fit = LargestFit::default();
        let mut err = zeroed_error();
        let rc = unsafe {
            sys::trainsize_largest_fit(self.as_ptr(), &mut fit.max_micro_batch, &mut fit.max_seq, &mut err)
        };
        check(rc, &err)?;
        Ok(fit)
    }

    /// Searches for the best `cap` configurations of the job (needs "tokens"), best first
    /// by the job's "objective". An empty list means that nothing fits. "exhaustive" true
    /// on the job estimates every configuration without pruning (the same candidates).
    pub fn plan(&self, cap: usize) -> Result<Plan, Error> {
        self.plan_raw(cap, None, std::ptr::null_mut())
    }

    /// [`Job::plan`], calling `progress(done, total, examined)` on this thread after each
    /// GPU count is searched or skipped (`done` counts up by 1 to `total`; `examined`:
    /// configurations so far); returning true cancels the search, which then gives an
    /// [`Error`] with code [`Error::CANCELLED`] and no candidates. A panic in `progress`
    /// cancels it too, and is resumed here once the library has returned.
    pub fn plan_with_progress<F>(&self, cap: usize, progress: F) -> Result<Plan, Error>
    where
        F: FnMut(u64, u64, u64) -> bool,
    {
        struct State<F> {
            progress: F,
            panic: Option<Box<dyn std::any::Any + Send + 'static>>,
        }
        unsafe extern "C" fn call<F: FnMut(u64, u64, u64) -> bool>(
            context: *mut c_void,
            done: u64,
            total: u64,
            examined: u64,
        ) -> c_int {
            // SAFETY: the context is the State below, alive and not otherwise borrowed for
            // the whole call; the library calls back on the caller's thread only.
            let state = &mut *(context as *mut State<F>);
            // A panic must not unwind through the library's frames: it stops the search.
            let progress = &mut state.progress;
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| progress(done, total, examined))) {
                Ok(stop) => c_int::from(stop),
                Err(payload) => {
                    state.panic = Some(payload);
                    1
                }
            }
        }
        let mut state = State { progress, panic: None };
        let result = self.plan_raw(cap, Some(call::<F>), &mut state as *mut State<F> as *mut c_void);
        if let Some(payload) = state.panic {
            std::panic::resume_unwind(payload);
        }
        result
    }

    fn plan_raw(&self, cap: usize, progress: sys::trainsize_plan_progress_fn, context: *mut c_void) -> Result<Plan, Error> {
        let mut out: Vec<sys::trainsize_plan_candidate> = Vec::with_capacity(cap);
        let mut count: usize = 0;
        let mut stats = sys::trainsize_plan_stats::default();
        let mut err = zeroed_error();
        let out_ptr = if cap == 0 { std::ptr::null_mut() } else { out.as_mut_ptr() };
        let rc = unsafe {
            sys::trainsize_plan_with_progress(
                self.as_ptr(),
                out_ptr,
                cap,
                &mut count,
                &mut stats,
                progress,
                context,
                &mut err,
            )
        };
        check(rc, &err)?;
        assert!(count <= cap, "trainsize_plan wrote {} candidates into {}", count, cap);
        // SAFETY: the library wrote `count` whole candidates at the start of the buffer.
        unsafe { out.set_len(count) };
        Ok(Plan {
            candidates: out.into_iter().map(|raw| Candidate { raw }).collect(),
            stats: PlanStats {
                evaluated: stats.evaluated,
                estimated: stats.estimated,
                feasible: stats.feasible,
                fit_memory: stats.fit_memory,
                fastest_fit_seconds: stats.fastest_fit_seconds,
                cheapest_fit_cost: stats.cheapest_fit_cost,
                least_overshoot: stats.least_overshoot,
                pruned_memory: stats.pruned_memory,
                pruned_bound: stats.pruned_bound,
                bounds: stats.bounds,
                counts_skipped: stats.counts_skipped,
            },
        })
    }

    /// When the job does not fit its GPU, up to `cap` changes that make it fit, least
    /// disruptive first, each a full estimate of the changed job (empty when it fits).
    pub fn advise(&self, cap: usize) -> Result<Vec<Advice>, Error> {
        let mut out = vec![zeroed_advice(); cap];
        let count = self.advise_into(&mut out)?;
        Ok(out[..count].iter().map(Advice::from_raw).collect())
    }

    /// [`Job::advise`] into the caller's entries; the count written.
    fn advise_into(&self, out: &mut [sys::trainsize_advice]) -> Result<usize, Error> {
        let mut count: usize = 0;
        let mut err = zeroed_error();
        let out_ptr = if out.is_empty() { std::ptr::null_mut() } else { out.as_mut_ptr() };
        let rc = unsafe { sys::trainsize_advise(self.as_ptr(), out_ptr, out.len(), &mut count, &mut err) };
        check(rc, &err)?;
        assert!(count <= out.len(), "trainsize_advise wrote {} entries into {}", count, out.len());
        Ok(count)
    }

    /// Sets the job's GPU and layout to a candidate's, so that [`Job::estimate`] gives the
    /// candidate's figures.
    pub fn apply(&mut self, candidate: &Candidate) -> Result<&mut Self, Error> {
        let mut err = zeroed_error();
        let rc = unsafe { sys::trainsize_plan_apply(self.as_mut_ptr(), &candidate.raw, &mut err) };
        check(rc, &err)?;
        Ok(self)
    }
}

impl Clone for Job {
    /// Copies the job; panics when memory is exhausted (see [`Job::try_clone`]).
    fn clone(&self) -> Job {
        self.try_clone().expect("trainsize_job_clone failed")
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        unsafe { sys::trainsize_job_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Job {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = self.get("model").unwrap_or_default();
        let gpu = self.get("gpu").unwrap_or_default();
        f.debug_struct("Job").field("model", &model).field("gpu", &gpu).finish_non_exhaustive()
    }
}

fn path_cstring(path: &Path) -> Result<CString, Error> {
    #[cfg(unix)]
    let bytes: Vec<u8> = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes: Vec<u8> = match path.to_str() {
        Some(s) => s.as_bytes().to_vec(),
        None => return Err(Error::new(Error::IO, "", format!("{}: not a UTF-8 path", path.display()))),
    };
    CString::new(bytes).map_err(|_| Error::new(Error::IO, "", format!("{}: the path holds a NUL byte", path.display())))
}

fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
    }
}

/* ---- checkpoints ---- */

/// What a checkpoint's safetensors headers list (`trainsize_checkpoint`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Checkpoint {
    /// Elements of every tensor, summed (exact).
    pub parameters: u64,
    /// The tensors' data as stored, in bytes.
    pub bytes: u64,
    /// Tensors the headers list.
    pub tensors: u64,
    /// safetensors files whose headers were read.
    pub files: u32,
    /// The dtype holding the most elements ("BF16", "F32", ...; "" when none).
    pub dtype: String,
    /// What the job's model shape describes (0 from [`read_checkpoint`]).
    pub config_parameters: u64,
    /// What the headers hold beyond it: the job's "extra-params" (0 from
    /// [`read_checkpoint`], and when they hold fewer).
    pub extra_parameters: u64,
    /// The tensors by name prefix, the most parameters first (at most 16; the last,
    /// "(other)", sums the rest).
    pub groups: Vec<CheckpointGroup>,
}

/// A checkpoint's tensors that share a name prefix (`trainsize_checkpoint_group`): the
/// name up to its first numeric component, written "#" ("model.layers.#"), else the name
/// without its last component ("model.embed_tokens").
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CheckpointGroup {
    /// The prefix; "(other)" for the groups past the table.
    pub name: String,
    /// Elements of its tensors, summed (exact).
    pub parameters: u64,
    /// Its tensors.
    pub tensors: u64,
    /// With "#": its largest index + 1 (layers, experts, blocks); else 0.
    pub layers: u64,
    /// Of `parameters`, those the job's shape does not explain (0 from [`read_checkpoint`]);
    /// the groups' add up to `extra_parameters`.
    pub unexplained: u64,
}

impl Checkpoint {
    fn from_raw(ck: &sys::trainsize_checkpoint) -> Checkpoint {
        let used = (ck.group_count as usize).min(sys::TRAINSIZE_CHECKPOINT_GROUPS);
        Checkpoint {
            parameters: ck.parameters,
            bytes: ck.bytes,
            tensors: ck.tensors,
            files: ck.files,
            dtype: array_str(&ck.dtype).into_owned(),
            config_parameters: ck.config_parameters,
            extra_parameters: ck.extra_parameters,
            groups: ck.groups[..used]
                .iter()
                .map(|g| CheckpointGroup {
                    name: array_str(&g.name).into_owned(),
                    parameters: g.parameters,
                    tensors: g.tensors,
                    layers: g.layers,
                    unexplained: g.unexplained,
                })
                .collect(),
        }
    }

    /// The headers hold fewer parameters than the job's shape describes (a quantized
    /// checkpoint packs several values in one element): the shape's count is used. The
    /// command says so on standard error; a caller may say it too.
    pub fn holds_fewer(&self) -> bool {
        self.parameters < self.config_parameters
    }
}

fn read_raw_checkpoint(path: &Path) -> Result<sys::trainsize_checkpoint, Error> {
    let c_path = path_cstring(path)?;
    let mut ck = sys::trainsize_checkpoint::default();
    let mut err = zeroed_error();
    check(unsafe { sys::trainsize_checkpoint_read(c_path.as_ptr(), &mut ck, &mut err) }, &err)?;
    Ok(ck)
}

/// Counts a checkpoint's parameters from its safetensors headers, never its data
/// (`trainsize_checkpoint_read`): `path` is a `.safetensors` file, a
/// `model.safetensors.index.json` (every shard it names is read) or a folder holding either.
pub fn read_checkpoint<P: AsRef<Path>>(path: P) -> Result<Checkpoint, Error> {
    read_raw_checkpoint(path.as_ref()).map(|ck| Checkpoint::from_raw(&ck))
}

/// The Hugging Face hub cache folder, as `huggingface_hub` finds it: `$HF_HUB_CACHE`, else
/// `$HUGGINGFACE_HUB_CACHE`, else `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`,
/// else `$HOME/.cache/huggingface/hub`; None when none of them is set. Reads the
/// environment through C's getenv: do not call it while another thread changes it.
pub fn hf_hub_cache() -> Option<PathBuf> {
    let mut buf: Vec<u8> = vec![0; 512];
    loop {
        let n = unsafe { sys::trainsize_hf_hub_cache(buf.as_mut_ptr() as *mut c_char, buf.len()) };
        if n < 0 {
            return None;
        }
        let len = n as usize;
        if len < buf.len() {
            return Some(path_from_bytes(&buf[..len]));
        }
        buf = vec![0; len + 1]; // snprintf-style: the length it needs
    }
}

/// The snapshot folder of a model in the usual Hugging Face cache ([`hf_hub_cache`]), as
/// the command's `--hf-model ID --revision REV` finds it: `id` is "ORG/NAME" or "NAME",
/// `revision` a branch, tag or 40-hex commit id (None: "main"). No network: a model not in
/// the cache is an error naming the id and the folder searched. [`Job::load_checkpoint`]
/// loads the folder.
pub fn hf_snapshot(id: &str, revision: Option<&str>) -> Result<PathBuf, Error> {
    let cache = hf_hub_cache().ok_or_else(|| {
        Error::new(
            Error::UNKNOWN,
            "hf-model",
            "hf-model: no Hugging Face cache to search: set HF_HUB_CACHE, HF_HOME or HOME".into(),
        )
    })?;
    hf_snapshot_in(cache, id, revision)
}

/// [`hf_snapshot`] in a given hub cache folder, the environment left unread.
pub fn hf_snapshot_in<P: AsRef<Path>>(hub_cache: P, id: &str, revision: Option<&str>) -> Result<PathBuf, Error> {
    let text = |what: &str, s: &str| {
        CString::new(s)
            .map_err(|_| Error::new(Error::INVALID, "hf-model", format!("hf-model: the {} holds a NUL byte", what)))
    };
    let c_cache = path_cstring(hub_cache.as_ref())?;
    let c_id = text("id", id)?;
    let c_revision = match revision {
        Some(r) => Some(text("revision", r)?),
        None => None,
    };
    let revision_ptr = c_revision.as_ref().map_or(std::ptr::null(), |r| r.as_ptr());
    // The cache, models--ORG--NAME (two parts of at most 96 bytes) and snapshots/COMMIT.
    let mut buf: Vec<u8> = vec![0; c_cache.as_bytes().len() + 512];
    let mut err = zeroed_error();
    let rc = unsafe {
        sys::trainsize_hf_snapshot(c_cache.as_ptr(), c_id.as_ptr(), revision_ptr, buf.as_mut_ptr() as *mut c_char,
                                   buf.len(), &mut err)
    };
    check(rc, &err)?;
    let len = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    Ok(path_from_bytes(&buf[..len]))
}

/* ---- what a server can train ---- */

/// The largest catalogue model one way of training fits (`trainsize_capacity_entry`).
#[derive(Clone, Debug, PartialEq)]
pub struct CapacityEntry {
    /// "pretraining", "full-fine-tuning", "lora", "qlora", "dpo" or "grpo".
    pub method: String,
    /// The catalogue preset; None when none fits.
    pub model: Option<String>,
    /// Its parameters (0 when none fits).
    pub parameters: u64,
    /// Tokens the job trains per second, all GPUs together.
    pub tokens_per_s: f64,
    /// Its peak per GPU (`memory.peak_total`), bytes.
    pub peak_total: u64,
    /// The `trainsize estimate` options that reproduce it ("--model ... --gpu ...").
    pub args: String,
}

impl CapacityEntry {
    fn from_raw(e: &sys::trainsize_capacity_entry) -> CapacityEntry {
        let model = array_str(&e.model);
        CapacityEntry {
            method: array_str(&e.method).into_owned(),
            model: if model.is_empty() { None } else { Some(model.into_owned()) },
            parameters: e.parameters,
            tokens_per_s: e.tokens_per_s,
            peak_total: e.peak_total,
            args: array_str(&e.args).into_owned(),
        }
    }
}

/// `trainsize_capacity`'s entries, and the GPU name as C text for `trainsize_capacity_json`.
fn raw_capacity(
    gpu: &str,
    gpus: u64,
    gpus_per_node: u64,
    seq: u64,
    micro_batch: u64,
    host_ram: u64,
) -> Result<(CString, [sys::trainsize_capacity_entry; sys::TRAINSIZE_CAPACITY_METHODS]), Error> {
    check_abi()?;
    let c_gpu = CString::new(gpu).map_err(|_| Error::new(Error::INVALID, "gpu", "gpu: the name holds a NUL byte".into()))?;
    // SAFETY: the entry holds integers, a double and char arrays; all-zero bytes are valid.
    let mut entries: [sys::trainsize_capacity_entry; sys::TRAINSIZE_CAPACITY_METHODS] = unsafe { std::mem::zeroed() };
    let mut err = zeroed_error();
    let rc = unsafe {
        sys::trainsize_capacity(c_gpu.as_ptr(), gpus, gpus_per_node, seq, micro_batch, host_ram, entries.as_mut_ptr(),
                                &mut err)
    };
    check(rc, &err)?;
    Ok((c_gpu, entries))
}

/// The largest catalogue model each way of training fits on `gpus` GPUs named `gpu`, as
/// `trainsize capacity` finds it (`trainsize_capacity`): one entry per way, pretraining,
/// full fine-tuning, LoRA, QLoRA, DPO and GRPO. `gpus_per_node` 0 is the product's own;
/// `host_ram` (bytes) 0 is the product's as catalogued, else sized from its GPU memory.
/// An unknown GPU or a count out of its option's range is an [`Error`] naming it ("gpu",
/// "gpus", "seq", ...).
pub fn capacity(
    gpu: &str,
    gpus: u64,
    gpus_per_node: u64,
    seq: u64,
    micro_batch: u64,
    host_ram: u64,
) -> Result<Vec<CapacityEntry>, Error> {
    let (_, entries) = raw_capacity(gpu, gpus, gpus_per_node, seq, micro_batch, host_ram)?;
    Ok(entries.iter().map(CapacityEntry::from_raw).collect())
}

/// [`capacity`] as the JSON `trainsize capacity --json` prints for the same GPUs, byte for
/// byte (`trainsize_capacity_json`): `gpu`, `gpus`, `seq`, `micro_batch` and `methods`.
pub fn capacity_json(
    gpu: &str,
    gpus: u64,
    gpus_per_node: u64,
    seq: u64,
    micro_batch: u64,
    host_ram: u64,
) -> Result<String, Error> {
    let (c_gpu, entries) = raw_capacity(gpu, gpus, gpus_per_node, seq, micro_batch, host_ram)?;
    let mut err = zeroed_error();
    let write = |buf: &mut [u8], err: &mut sys::trainsize_error| unsafe {
        let ptr = if buf.is_empty() { std::ptr::null_mut() } else { buf.as_mut_ptr() as *mut c_char };
        sys::trainsize_capacity_json(c_gpu.as_ptr(), gpus, seq, micro_batch, entries.as_ptr(), ptr, buf.len(), err)
    };
    // snprintf-style: the length first, then the text into a buffer that holds it and its NUL
    let n = write(&mut [], &mut err);
    if n < 0 {
        return Err(Error::from_raw(n, &err));
    }
    let mut text = vec![0u8; n as usize + 1];
    let got = write(&mut text, &mut err);
    if got < 0 {
        return Err(Error::from_raw(got, &err));
    }
    text.truncate(got.min(n) as usize);
    String::from_utf8(text).map_err(|_| Error::new(Error::INVALID, "gpu", "gpu: the JSON is not UTF-8".into()))
}

/// What [`Job::largest_fit`] found: an estimate with either fits, one with the next larger
/// does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LargestFit {
    /// Samples (a divisor of a rank's share when global-batch is set); 0 when even 1 does
    /// not fit.
    pub max_micro_batch: u64,
    /// Tokens, a multiple of 128 (and of what the layout needs); 0 when even the smallest
    /// does not fit.
    pub max_seq: u64,
}

/* ---- warnings ---- */

/// The checklist: `TRAINSIZE_WARN_*` bits of an estimate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Warnings(pub u64);

impl Warnings {
    pub const DOES_NOT_FIT: u64 = sys::TRAINSIZE_WARN_DOES_NOT_FIT;
    pub const LOW_HEADROOM: u64 = sys::TRAINSIZE_WARN_LOW_HEADROOM;
    pub const HOST_RAM: u64 = sys::TRAINSIZE_WARN_HOST_RAM;
    pub const CPU_CORES: u64 = sys::TRAINSIZE_WARN_CPU_CORES;
    pub const STORAGE: u64 = sys::TRAINSIZE_WARN_STORAGE;
    pub const NETWORK: u64 = sys::TRAINSIZE_WARN_NETWORK;
    pub const TP_WITHOUT_NVLINK: u64 = sys::TRAINSIZE_WARN_TP_WITHOUT_NVLINK;
    pub const SLOW_MULTINODE: u64 = sys::TRAINSIZE_WARN_SLOW_MULTINODE;
    pub const NO_ECC: u64 = sys::TRAINSIZE_WARN_NO_ECC;
    pub const RACK_POWER: u64 = sys::TRAINSIZE_WARN_RACK_POWER;
    pub const NO_PRICE: u64 = sys::TRAINSIZE_WARN_NO_PRICE;
    pub const GPU_LINK: u64 = sys::TRAINSIZE_WARN_GPU_LINK;

    /// The raw bits.
    pub fn bits(self) -> u64 {
        self.0
    }

    /// No warning applies.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every bit of `bits` is set.
    pub fn contains(self, bits: u64) -> bool {
        self.0 & bits == bits
    }

    /// The single bits that are set, lowest first.
    pub fn iter(self) -> impl Iterator<Item = u64> {
        (0..64).map(|b| 1u64 << b).filter(move |bit| self.0 & bit != 0)
    }

    /// The stable names of the bits that are set, as the JSON prints them (bits the
    /// library has no name for are left out).
    pub fn names(self) -> Vec<&'static str> {
        self.iter().filter_map(warning_name).collect()
    }
}

/// The stable name of one warning bit ("low-vram-headroom"), or None.
pub fn warning_name(bit: u64) -> Option<&'static str> {
    let p = unsafe { sys::trainsize_warning_name(bit) };
    if p.is_null() {
        None
    } else {
        Some(static_str(p))
    }
}

/// A one-sentence explanation of one warning bit, or None.
pub fn warning_text(bit: u64) -> Option<&'static str> {
    let p = unsafe { sys::trainsize_warning_text(bit) };
    if p.is_null() {
        None
    } else {
        Some(static_str(p))
    }
}

/// The built-in example job that the bare `trainsize` command sizes: its settings, name and
/// value, in the order the command applies them (`trainsize_example_setting`).
pub fn example_settings() -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    loop {
        let (mut name, mut value) = (std::ptr::null(), std::ptr::null());
        // SAFETY: the library writes two pointers to static text, or returns 0.
        if unsafe { sys::trainsize_example_setting(out.len(), &mut name, &mut value) } == 0 {
            return out;
        }
        out.push((static_str(name), static_str(value)));
    }
}

/* ---- estimates ---- */

/// An owned copy of a `trainsize_result`.
#[derive(Clone, Copy, PartialEq)]
pub struct Estimate {
    raw: sys::trainsize_result,
    advice: [sys::trainsize_advice; ADVICE_MAX],
    advised: usize,
}

impl Estimate {
    /// Wraps a raw result (from [`sys::trainsize_estimate`]).
    pub fn from_raw(raw: sys::trainsize_result) -> Estimate {
        Estimate { raw, advice: [zeroed_advice(); ADVICE_MAX], advised: 0 }
    }

    /// When the job does not fit: the changes that make it fit, least disruptive first, as
    /// [`Job::advise`] gives them (up to five); empty when it fits.
    pub fn advice(&self) -> Vec<Advice> {
        self.advice[..self.advised].iter().map(Advice::from_raw).collect()
    }

    /// The raw result.
    pub fn raw(&self) -> &sys::trainsize_result {
        &self.raw
    }

    /// The model as counted.
    pub fn model(&self) -> &sys::trainsize_model_counts {
        &self.raw.model
    }

    /// Per-GPU memory, for the most loaded GPU.
    pub fn memory(&self) -> &sys::trainsize_memory {
        &self.raw.memory
    }

    /// The servers.
    pub fn system(&self) -> &sys::trainsize_system {
        &self.raw.system
    }

    /// Compute and time.
    pub fn time(&self) -> &sys::trainsize_time {
        &self.raw.time
    }

    /// How sure the time and memory figures are: factors on them from the library's own
    /// validation (`time_low`..`time_high`, `memory_low`..`memory_high`).
    pub fn uncertainty(&self) -> &sys::trainsize_uncertainty {
        &self.raw.uncertainty
    }

    /// Which validation class set the bands, its runs, and what widened or narrowed them.
    pub fn uncertainty_basis(&self) -> Cow<'_, str> {
        array_str(&self.raw.uncertainty.basis)
    }

    /// Preset name, config name, or "custom".
    pub fn model_name(&self) -> Cow<'_, str> {
        array_str(&self.raw.model.name)
    }

    /// Parameters beyond the model's shape ("extra-params": a checkpoint's headers that
    /// hold more than its config describes), counted in [`Estimate::model`]'s totals;
    /// model.extra_parameters in the JSON.
    pub fn extra_parameters(&self) -> u64 {
        self.raw.extra_parameters
    }

    /// Which of a checkpoint's tensors make up [`Estimate::extra_parameters`]: "NAME COUNT"
    /// per tensor group, the most first, "; "-separated ("" when extra-params was set by
    /// hand); model.extra_tensors in the JSON.
    pub fn extra_tensors(&self) -> Cow<'_, str> {
        array_str(&self.raw.extra_tensors)
    }

    /// Catalogue name of the GPU.
    pub fn gpu(&self) -> Cow<'_, str> {
        array_str(&self.raw.gpu)
    }

    /// The conventions used: "megatron", "deepspeed" or "pytorch".
    pub fn framework(&self) -> Cow<'_, str> {
        array_str(&self.raw.framework)
    }

    /// Why those conventions: the option, or the rule of the job that chose them.
    pub fn framework_reason(&self) -> Cow<'_, str> {
        array_str(&self.raw.framework_reason)
    }

    /// Why that global batch: "global-batch as set", or the default's rule.
    pub fn global_batch_reason(&self) -> Cow<'_, str> {
        array_str(&self.raw.global_batch_reason)
    }

    /// The training stack whose kernel, overlap and collective defaults were used.
    pub fn stack(&self) -> Cow<'_, str> {
        array_str(&self.raw.stack)
    }

    /// Why that stack: the option, or the rule of the job that chose it.
    pub fn stack_reason(&self) -> Cow<'_, str> {
        array_str(&self.raw.stack_reason)
    }

    /// The pipeline schedule used ("1f1b" without a pipeline).
    pub fn pp_schedule(&self) -> Cow<'_, str> {
        array_str(&self.raw.pp_schedule)
    }

    /// The step's compute over its ideal: 1 + the schedule's bubble.
    pub fn pipeline_bubble(&self) -> f64 {
        self.raw.pipeline_bubble
    }

    /// What ran in fused kernels: "fused", "eager", or one of them and the groups that
    /// differ ("eager but fused norm,activation,rope").
    pub fn kernels(&self) -> Cow<'_, str> {
        array_str(&self.raw.kernels)
    }

    /// Under fp8-mixed, the scaling recipe used ("delayed", "current", "mxfp8",
    /// "blockwise"); empty otherwise.
    pub fn fp8_recipe(&self) -> Cow<'_, str> {
        array_str(&self.raw.fp8_recipe)
    }

    /// What the step trains: "sft" or "dpo".
    pub fn method(&self) -> Cow<'_, str> {
        array_str(&self.raw.method)
    }

    /// Under dpo, where the reference's log-probabilities come from ("model",
    /// "adapters-off", "precomputed"); empty otherwise.
    pub fn reference(&self) -> Cow<'_, str> {
        array_str(&self.raw.reference)
    }

    /// The site calibration applied ("12 runs on h100-80gb, 2026-12-01"); empty when none.
    pub fn calibration(&self) -> Cow<'_, str> {
        array_str(&self.raw.calibration)
    }

    /// Runs that calibration was fitted on; 0 when none.
    pub fn calibration_runs(&self) -> u64 {
        self.raw.calibration_runs
    }

    /// Under fp32 or tf32, what ran on the TF32 tensor cores ("matmuls", "convolutions");
    /// empty for none.
    pub fn tf32(&self) -> Cow<'_, str> {
        array_str(&self.raw.tf32)
    }

    /// Why (the option, or auto's rule); empty outside fp32 and tf32.
    pub fn tf32_reason(&self) -> Cow<'_, str> {
        array_str(&self.raw.tf32_reason)
    }

    /// Layers of the first, each middle and the last pipeline stage.
    pub fn pipeline_layers(&self) -> (u64, u64, u64) {
        (self.raw.pipeline_first_layers, self.raw.pipeline_layers, self.raw.pipeline_last_layers)
    }

    /// The parallel layout and batch the estimate used (tp, pp, pp_interleave, cp, ep, zero,
    /// micro_batch, global_batch, sp, recompute: a `TRAINSIZE_RECOMPUTE_*` value).
    pub fn layout(&self) -> sys::trainsize_layout {
        self.raw.layout
    }

    /// The storage class that meets the needs (or the one set).
    pub fn storage_class(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.storage_class)
    }

    /// The NVMe every GPU server carries as cache and scratch.
    pub fn local_storage_class(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.local_storage_class)
    }

    /// The scale-out link that meets the need (or the one set); "" on one server.
    pub fn network_link(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.network_link)
    }

    /// "air", or "liquid" when the product is liquid-cooled or a rack draws more than the
    /// air-cooled budget.
    pub fn cooling(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.cooling)
    }

    /// The power supplies as vendors write them: needed "+" redundant ("5+1"); "" with none.
    pub fn psu_redundancy(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.psu_redundancy)
    }

    /// Where training reads the dataset: "local", "local-cache" (a staged copy on every
    /// server) or "shared".
    pub fn dataset_source(&self) -> Cow<'_, str> {
        array_str(&self.raw.system.dataset_source)
    }

    /// GPUs in the job.
    pub fn gpus(&self) -> u64 {
        self.raw.gpus
    }

    /// Data-parallel degree.
    pub fn data_parallel(&self) -> u64 {
        self.raw.data_parallel
    }

    /// Micro-batches per optimizer step per data-parallel rank.
    pub fn gradient_accumulation(&self) -> u64 {
        self.raw.gradient_accumulation
    }

    /// Whether peak_total fits in the GPU's memory.
    pub fn fits(&self) -> bool {
        self.raw.memory.fits != 0
    }

    /// Per-GPU memory at the peak, bytes, comparable to nvidia-smi.
    pub fn peak_total(&self) -> u64 {
        self.raw.memory.peak_total
    }

    /// Seconds of the run on a cluster that never fails (time.seconds).
    pub fn seconds(&self) -> f64 {
        self.raw.time.seconds
    }

    /// Seconds of the run on the wall clock: with interruptions, restarts and checkpoints
    /// (time.wall_seconds).
    pub fn wall_seconds(&self) -> f64 {
        self.raw.time.wall_seconds
    }

    /// The checklist.
    pub fn warnings(&self) -> Warnings {
        Warnings(self.raw.warnings)
    }

    /// Every figure through the library's result-field table: (dotted path, value), in
    /// the order the JSON prints them.
    pub fn fields(&self) -> Fields<'_> {
        Fields {
            estimate: self,
            index: 0,
            count: unsafe { sys::trainsize_result_field_count() },
        }
    }

    /// One figure by its dotted path ("memory.peak_total").
    pub fn get(&self, path: &str) -> Option<FieldValue<'_>> {
        self.fields().find(|(p, _)| *p == path).map(|(_, v)| v)
    }

    /// The JSON text `trainsize estimate --json` prints for the same job, byte for byte
    /// (final newline included): the library's `trainsize_result_json`, which the command
    /// calls too. First "trainsize_version", then the field table's paths as nested
    /// objects, then "advice".
    pub fn to_json(&self) -> String {
        let advice = if self.advised > 0 { self.advice.as_ptr() } else { std::ptr::null() };
        let mut err = zeroed_error();
        // The length first, then the text into a buffer of that size and its NUL.
        let len = unsafe {
            sys::trainsize_result_json(&self.raw, advice, self.advised, std::ptr::null_mut(), 0, &mut err)
        };
        if len < 0 {
            return String::new(); // only for arguments this type cannot hold
        }
        let mut buf = vec![0u8; len as usize + 1];
        let written = unsafe {
            sys::trainsize_result_json(&self.raw, advice, self.advised, buf.as_mut_ptr() as *mut c_char,
                                       buf.len(), &mut err)
        };
        if written != len {
            return String::new();
        }
        buf.truncate(len as usize);
        // Invalid UTF-8 in a name is written as the escape \ufffd: the text is valid UTF-8.
        String::from_utf8(buf).unwrap_or_default()
    }

    fn field_value(&self, index: usize) -> Option<FieldValue<'_>> {
        let mut v = empty_field_value();
        let rc = unsafe { sys::trainsize_result_field_get(&self.raw, index, &mut v) };
        if rc != sys::TRAINSIZE_OK {
            return None;
        }
        // SAFETY: a STRING's text points into self.raw, NUL-terminated within its array.
        Some(unsafe { value_of(self, &v) })
    }
}

fn empty_field_value() -> sys::trainsize_field_value {
    sys::trainsize_field_value { type_: 0, u64: 0, f64: 0.0, text: std::ptr::null() }
}

/// Every field of `record` through one of the library's record field tables (plan
/// candidates, GPUs): (key, value), in the table's order; a field the library cannot read
/// is left out.
///
/// # Safety
/// `at` and `get` must be the table's functions for `T`, and `count` its length.
unsafe fn table_fields<'a, T>(
    record: &'a T,
    count: usize,
    at: unsafe extern "C" fn(usize) -> *const sys::trainsize_field_info,
    get: unsafe extern "C" fn(*const T, usize, *mut sys::trainsize_field_value) -> c_int,
) -> Vec<(&'static str, FieldValue<'a>)> {
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let info = at(i);
        let mut v = empty_field_value();
        if info.is_null() || get(record, i, &mut v) != sys::TRAINSIZE_OK {
            continue;
        }
        // The key is static; a STRING's text points into `record` or static storage.
        out.push((static_str((*info).path), value_of(record, &v)));
    }
    out
}

/// Every entry of one of the library's static tables (the parameters, presets, GPUs, result
/// fields): `count` entries through `at`, each converted; an index the library answers NULL
/// for is left out.
///
/// # Safety
/// `at` must return NULL or a pointer to a static entry, for every index below `count`.
unsafe fn static_table<T: 'static, U>(
    count: usize,
    at: unsafe extern "C" fn(usize) -> *const T,
    convert: impl Fn(&'static T) -> U,
) -> Vec<U> {
    (0..count)
        .filter_map(|i| {
            let p = at(i);
            if p.is_null() {
                None
            } else {
                Some(convert(&*p))
            }
        })
        .collect()
}

/// A field's value from the library, its text borrowed for as long as `_owner`, the struct
/// it was read from.
///
/// # Safety
/// A STRING's `text` must point into `_owner` (or static storage), NUL-terminated.
unsafe fn value_of<'a, T>(_owner: &'a T, v: &sys::trainsize_field_value) -> FieldValue<'a> {
    {
        match v.type_ {
            sys::TRAINSIZE_FIELD_U64 => FieldValue::U64(v.u64),
            sys::TRAINSIZE_FIELD_F64 => FieldValue::F64(v.f64),
            sys::TRAINSIZE_FIELD_BOOL => FieldValue::Bool(v.u64 != 0),
            sys::TRAINSIZE_FIELD_STRING => FieldValue::Str(if v.text.is_null() {
                Cow::Borrowed("")
            } else {
                String::from_utf8_lossy(CStr::from_ptr(v.text).to_bytes())
            }),
            sys::TRAINSIZE_FIELD_CHOICE => FieldValue::Choice(static_str(v.text)),
            sys::TRAINSIZE_FIELD_FLAGS => FieldValue::Flags(Warnings(v.u64)),
            other => FieldValue::Unknown(other),
        }
    }
}

impl fmt::Debug for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.fields()).finish()
    }
}

/// The value of one result field.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldValue<'a> {
    /// An unsigned integer.
    U64(u64),
    /// A double.
    F64(f64),
    /// A flag.
    Bool(bool),
    /// Text held in the result (a name).
    Str(Cow<'a, str>),
    /// An enum, by its name ("forward-backward").
    Choice(&'static str),
    /// A bit set: the warnings.
    Flags(Warnings),
    /// A field type newer than these bindings.
    Unknown(i32),
}

impl<'a> FieldValue<'a> {
    /// The value as a number (integers and flags converted, booleans 0 or 1).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            FieldValue::U64(v) => Some(v as f64),
            FieldValue::F64(v) => Some(v),
            FieldValue::Bool(v) => Some(if v { 1.0 } else { 0.0 }),
            _ => None,
        }
    }

    /// The value as an unsigned integer (U64, Bool and Flags).
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            FieldValue::U64(v) => Some(v),
            FieldValue::Bool(v) => Some(v as u64),
            FieldValue::Flags(w) => Some(w.0),
            _ => None,
        }
    }

    /// The value as text (Str and Choice).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            FieldValue::Str(s) => Some(s),
            FieldValue::Choice(s) => Some(s),
            _ => None,
        }
    }
}

impl<'a> fmt::Display for FieldValue<'a> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldValue::U64(v) => write!(f, "{}", v),
            // Rust's shortest text that reads back as the same double (1e300, 0.45).
            FieldValue::F64(v) => write!(f, "{:?}", v),
            FieldValue::Bool(v) => write!(f, "{}", v),
            FieldValue::Str(s) => f.write_str(s),
            FieldValue::Choice(s) => f.write_str(s),
            FieldValue::Flags(w) => f.write_str(&w.names().join(",")),
            FieldValue::Unknown(t) => write!(f, "<field type {}>", t),
        }
    }
}

/// The iterator of [`Estimate::fields`].
pub struct Fields<'a> {
    estimate: &'a Estimate,
    index: usize,
    count: usize,
}

impl<'a> Iterator for Fields<'a> {
    type Item = (&'static str, FieldValue<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        while self.index < self.count {
            let i = self.index;
            self.index += 1;
            let info = unsafe { sys::trainsize_result_field_at(i) };
            if info.is_null() {
                continue;
            }
            let path = static_str(unsafe { (*info).path });
            if let Some(value) = self.estimate.field_value(i) {
                return Some((path, value));
            }
        }
        None
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.count - self.index))
    }
}

/// Description of one result field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// Dotted path, e.g. "memory.weights".
    pub path: &'static str,
    /// A `TRAINSIZE_FIELD_*` value.
    pub field_type: i32,
    /// "bytes", "bytes/s", "seconds", ... or "".
    pub unit: &'static str,
    /// One-line description.
    pub doc: &'static str,
}

/// The result-field table.
pub fn result_fields() -> Vec<FieldInfo> {
    // SAFETY: the library's table functions, as its header declares them.
    unsafe {
        static_table(sys::trainsize_result_field_count(), sys::trainsize_result_field_at, |f| FieldInfo {
            path: static_str(f.path),
            field_type: f.type_,
            unit: static_str(f.unit),
            doc: static_str(f.doc),
        })
    }
}

/* ---- planning ---- */

/// What [`Job::plan`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The best configurations, best first.
    pub candidates: Vec<Candidate>,
    /// What the search covered.
    pub stats: PlanStats,
}

/// What a search covered.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PlanStats {
    /// Configurations examined: estimated, or ruled out by a bound.
    pub evaluated: u64,
    /// Of those, full estimates run.
    pub estimated: u64,
    /// Configurations that fit and meet every constraint.
    pub feasible: u64,
    /// Configurations that fit in GPU memory, constraints or not.
    pub fit_memory: u64,
    /// The shortest run among those, seconds (0 when none).
    pub fastest_fit_seconds: f64,
    /// The lowest priced cost among those, US dollars (0 when none is priced).
    pub cheapest_fit_cost: f64,
    /// When nothing fits in memory: how far the closest configuration is over its GPU.
    pub least_overshoot: f64,
    /// Of evaluated, ruled out unseen because a lighter configuration of the same layout
    /// did not fit (memory only grows with the micro-batch).
    pub pruned_memory: u64,
    /// Of evaluated, ruled out by a floor under their time and cost that the candidates
    /// kept already beat (0 with "exhaustive").
    pub pruned_bound: u64,
    /// Floors computed: the compute stage of an estimate alone.
    pub bounds: u64,
    /// GPU counts ruled out whole by a floor that holds for all their layouts; their
    /// configurations are not in evaluated.
    pub counts_skipped: u64,
}

/// One way to make a job fit: the settings to change and the estimate with them.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// Parameter names and values, as [`Job::set`] takes them.
    pub settings: Vec<(String, String)>,
    /// Per-GPU memory with the change, bytes.
    pub peak_total: u64,
    /// The GPU's capacity, bytes.
    pub gpu_capacity: u64,
    /// GPUs with the change.
    pub gpus: u64,
    /// Seconds per optimizer step with the change.
    pub step_seconds: f64,
    /// The whole run with the change, seconds.
    pub seconds: f64,
}

impl Advice {
    fn from_raw(a: &sys::trainsize_advice) -> Advice {
        Advice {
            settings: (0..a.settings.min(sys::TRAINSIZE_ADVICE_MAX_SETTINGS))
                .map(|k| (array_str(&a.names[k]).into_owned(), array_str(&a.values[k]).into_owned()))
                .collect(),
            peak_total: a.peak_total,
            gpu_capacity: a.gpu_capacity,
            gpus: a.gpus,
            step_seconds: a.step_seconds,
            seconds: a.seconds,
        }
    }
}

fn zeroed_advice() -> sys::trainsize_advice {
    sys::trainsize_advice {
        settings: 0,
        names: [[0; 32]; sys::TRAINSIZE_ADVICE_MAX_SETTINGS],
        values: [[0; 32]; sys::TRAINSIZE_ADVICE_MAX_SETTINGS],
        peak_total: 0,
        gpu_capacity: 0,
        gpus: 0,
        step_seconds: 0.0,
        seconds: 0.0,
    }
}

/// One configuration the planner found.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    raw: sys::trainsize_plan_candidate,
}

impl Candidate {
    /// The raw candidate.
    pub fn raw(&self) -> &sys::trainsize_plan_candidate {
        &self.raw
    }

    /// Every field through the library's plan field table: (key, value), in the order and
    /// with the keys of `trainsize plan --json`'s candidates (derived ones included: the
    /// servers, the recompute setting's name).
    pub fn fields(&self) -> Vec<(&'static str, FieldValue<'_>)> {
        // SAFETY: the plan table's functions, with the record they read.
        unsafe {
            table_fields(
                &self.raw,
                sys::trainsize_plan_field_count(),
                sys::trainsize_plan_field_at,
                sys::trainsize_plan_field_get,
            )
        }
    }
    /// Catalogue GPU.
    pub fn gpu(&self) -> Cow<'_, str> {
        array_str(&self.raw.gpu)
    }
    /// GPUs.
    pub fn gpus(&self) -> u64 {
        self.raw.gpus
    }
    /// GPUs per server.
    pub fn gpus_per_node(&self) -> u64 {
        self.raw.gpus_per_node
    }
    /// Tensor-parallel degree.
    pub fn tp(&self) -> u64 {
        self.raw.layout.tp
    }
    /// Pipeline-parallel degree.
    pub fn pp(&self) -> u64 {
        self.raw.layout.pp
    }
    /// Virtual pipeline stages per rank.
    pub fn pp_interleave(&self) -> u64 {
        self.raw.layout.pp_interleave
    }
    /// Expert-parallel degree.
    pub fn ep(&self) -> u64 {
        self.raw.layout.ep
    }
    /// ZeRO stage.
    pub fn zero(&self) -> u64 {
        self.raw.layout.zero
    }
    /// Samples per GPU per pass.
    pub fn micro_batch(&self) -> u64 {
        self.raw.layout.micro_batch
    }
    /// Samples per optimizer step.
    pub fn global_batch(&self) -> u64 {
        self.raw.layout.global_batch
    }
    /// Activation recomputation: 0 none, 1 selective, 2 full, 3 per-op.
    pub fn recompute(&self) -> i32 {
        self.raw.layout.recompute
    }
    /// The recomputation as the "recompute" parameter names it (the library's plan field
    /// table, whose names are static); "unknown" for a value it has no name for.
    pub fn recompute_name(&self) -> &'static str {
        for (key, value) in self.fields() {
            if let (true, FieldValue::Choice(name)) = (key == "recompute", value) {
                return name;
            }
        }
        "unknown"
    }
    /// Per-GPU memory, bytes (as memory.peak_total).
    pub fn peak_total(&self) -> u64 {
        self.raw.peak_total
    }
    /// Whole run on the wall clock, interruptions included, seconds (as time.wall_seconds).
    pub fn seconds(&self) -> f64 {
        self.raw.seconds
    }
    /// Cloud cost of the run, US dollars (0 when the GPU has no price).
    pub fn cost(&self) -> f64 {
        self.raw.cost
    }
    /// Owning cost of the run, US dollars; 0 when the GPU has no price.
    pub fn cost_own(&self) -> f64 {
        self.raw.cost_own
    }
    /// The checklist of its estimate.
    pub fn warnings(&self) -> Warnings {
        Warnings(self.raw.warnings)
    }
    /// grpo, ppo: the rollout engine's tensor parallelism the planner chose; 0 otherwise.
    pub fn rollout_tp(&self) -> u64 {
        self.raw.rollout_tp
    }
    /// grpo, ppo: where the engines run ("colocated", "separate"); "" otherwise.
    pub fn rollout(&self) -> Cow<'_, str> {
        array_str(&self.raw.rollout)
    }
    /// With a token budget: the budget a GPU the planner chose; 0 otherwise.
    pub fn max_tokens_per_gpu(&self) -> u64 {
        self.raw.max_tokens_per_gpu
    }
    /// rollout "separate": the engines' GPUs beside [`gpus`](Self::gpus), priced with them;
    /// 0 otherwise.
    pub fn rollout_gpus(&self) -> u64 {
        self.raw.rollout_gpus
    }

    /// The job settings that give this configuration (what [`Job::apply`] sets), as
    /// (parameter, value) pairs for [`Job::set`] or the command line.
    pub fn settings(&self) -> Vec<(&'static str, String)> {
        let mut s = vec![
            ("gpu", self.gpu().into_owned()),
            ("gpu-memory", "0".to_string()),
            ("gpus", self.raw.gpus.to_string()),
            ("gpus-per-node", self.raw.gpus_per_node.to_string()),
            ("tp", self.raw.layout.tp.to_string()),
            ("pp", self.raw.layout.pp.to_string()),
            ("pp-interleave", self.raw.layout.pp_interleave.to_string()),
            ("ep", self.raw.layout.ep.to_string()),
            ("zero", self.raw.layout.zero.to_string()),
            ("micro-batch", self.raw.layout.micro_batch.to_string()),
            ("global-batch", self.raw.layout.global_batch.to_string()),
            ("recompute", self.recompute_name().to_string()),
        ];
        if self.raw.rollout_tp > 0 {
            s.push(("rollout-tp", self.raw.rollout_tp.to_string()));
        }
        if self.raw.max_tokens_per_gpu > 0 {
            s.push(("max-tokens-per-gpu", self.raw.max_tokens_per_gpu.to_string()));
        }
        if self.raw.rollout[0] != 0 {
            s.push(("rollout", self.rollout().into_owned()));
            s.push(("rollout-gpus", self.raw.rollout_gpus.to_string()));
        }
        s
    }
}

/* ---- catalogues ---- */

/// One settable job parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamInfo {
    /// Name as for [`Job::set`] (the command-line option).
    pub name: &'static str,
    /// A `TRAINSIZE_PARAM_*` value.
    pub kind: i32,
    /// For CHOICE and LIST: the names, separated by '|'; else "".
    pub choices: &'static str,
    /// Smallest accepted value (INT, FLOAT).
    pub min: f64,
    /// Largest accepted value (INT, FLOAT).
    pub max: f64,
    /// The default as text ("" when it depends on others).
    pub default_text: &'static str,
    /// Unit, or "".
    pub unit: &'static str,
    /// One-line description.
    pub doc: &'static str,
}

/// Every parameter a job takes.
pub fn params() -> Vec<ParamInfo> {
    // SAFETY: the library's table functions, as its header declares them.
    unsafe {
        static_table(sys::trainsize_param_count(), sys::trainsize_param_at, |p| ParamInfo {
            name: static_str(p.name),
            kind: p.kind,
            choices: static_str(p.choices),
            min: p.min,
            max: p.max,
            default_text: static_str(p.default_text),
            unit: static_str(p.unit),
            doc: static_str(p.doc),
        })
    }
}

/// One built-in model preset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ModelInfo {
    /// Preset name, as for the "model" parameter.
    pub name: &'static str,
    /// Architecture family.
    pub family: &'static str,
    /// Total parameters.
    pub parameters: u64,
    /// Parameters used per token.
    pub active_parameters: u64,
    /// The config it mirrors.
    pub source: &'static str,
}

/// The built-in model presets.
pub fn models() -> Vec<ModelInfo> {
    // SAFETY: the library's table functions, as its header declares them.
    unsafe {
        static_table(sys::trainsize_model_count(), sys::trainsize_model_at, |m| ModelInfo {
            name: static_str(m.name),
            family: static_str(m.family),
            parameters: m.parameters,
            active_parameters: m.active_parameters,
            source: static_str(m.source),
        })
    }
}

/// One catalogue GPU.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GpuInfo {
    /// Catalogue name, e.g. "a100-80gb".
    pub name: &'static str,
    /// Vendor name.
    pub full_name: &'static str,
    /// Device memory as labelled (the vendor's "GB" x 2^30), bytes.
    pub memory_bytes: u64,
    /// Memory bandwidth, bytes per second.
    pub memory_bandwidth: u64,
    /// Dense FP32 peak, FLOP/s.
    pub flops_fp32: f64,
    /// Dense BF16 tensor peak, FLOP/s; 0 on a part without bf16 (V100).
    pub flops_bf16: f64,
    /// Dense FP8 tensor peak, FLOP/s; 0 when unsupported.
    pub flops_fp8: f64,
    /// Board power limit, watts.
    pub tdp_watts: f64,
    /// ECC on by default.
    pub ecc: bool,
    /// A data-centre part.
    pub data_center: bool,
    /// GPU-to-GPU link, bidirectional total per GPU, bytes/s; 0 when PCIe only.
    pub scale_up_bandwidth: u64,
    /// Host PCIe generation.
    pub pcie_generation: i32,
    /// The datasheet the figures come from.
    pub source: &'static str,
    /// On-demand cloud price per GPU-hour, US dollars; 0 when unknown.
    pub cloud_usd_per_hour: f64,
    /// Street price per GPU, US dollars; 0 when unknown.
    pub purchase_usd: f64,
    /// Where and when the prices were seen.
    pub price_source: &'static str,
    /// Device memory as the runtime reports its total (fit checks use it), bytes;
    /// 0 when unknown.
    pub usable_bytes: u64,
    /// The tensor cores take bfloat16 (false on Volta).
    pub bf16: bool,
    /// FlashAttention-2 kernels run on it (false before Ampere).
    pub flash_attention: bool,
    /// The architecture, e.g. "Hopper"; "" when unknown.
    pub architecture: &'static str,
    /// "NVIDIA", "AMD", "Intel" or "Google".
    pub vendor: &'static str,
    /// A TPU under XLA (no fp16; no CUDA context, NCCL buffers or allocator slack).
    pub tpu: bool,
    /// The matrix units take IEEE fp16 (false on TPUs).
    pub fp16: bool,
    /// Dense FP16 tensor peak, FLOP/s; 0 when the same as `flops_bf16`.
    pub flops_fp16: f64,
    /// Dense FP4 tensor peak, FLOP/s; 0 when the part has none.
    pub flops_fp4: f64,
    /// Devices one scale-up fabric joins (72 in an NVL72 rack, a TPU slice); 0: one server's.
    pub scale_up_domain: u64,
    /// Devices per host as the product is built; 0: any count up to 8.
    pub per_host: i32,
    /// Host RAM the product comes with per host (TPU VM, Grace tray), bytes; 0 when chosen.
    pub host_ram_bytes: u64,
    /// The host's cores (vCPUs) as published; 0 when chosen.
    pub host_cores: i32,
    /// When the prices were seen ("2026-09"); "" when unpriced.
    pub price_date: &'static str,
    /// The scale-out link the host's NICs are (a TPU VM's network); "" when chosen.
    pub host_network: &'static str,
    /// How many of those NICs a host has; 0 when chosen.
    pub host_nics: i32,
    /// Dense TF32 tensor peak, FLOP/s; 0 when the part has none.
    pub flops_tf32: f64,
}

impl GpuInfo {
    fn from_raw(g: &sys::trainsize_gpu_info) -> GpuInfo {
        GpuInfo {
            name: static_str(g.name),
            full_name: static_str(g.full_name),
            memory_bytes: g.memory_bytes,
            memory_bandwidth: g.memory_bandwidth,
            flops_fp32: g.flops_fp32,
            flops_bf16: g.flops_bf16,
            flops_fp8: g.flops_fp8,
            tdp_watts: g.tdp_watts,
            ecc: g.ecc != 0,
            data_center: g.data_center != 0,
            scale_up_bandwidth: g.scale_up_bandwidth,
            pcie_generation: g.pcie_generation,
            source: static_str(g.source),
            cloud_usd_per_hour: g.cloud_usd_per_hour,
            purchase_usd: g.purchase_usd,
            price_source: static_str(g.price_source),
            usable_bytes: g.usable_bytes,
            bf16: g.no_bf16 == 0,
            flash_attention: g.no_flash_attention == 0,
            architecture: static_str(g.architecture),
            vendor: static_str(g.vendor),
            tpu: g.kind == sys::TRAINSIZE_ACCELERATOR_TPU,
            fp16: g.no_fp16 == 0,
            flops_fp16: g.flops_fp16,
            flops_fp4: g.flops_fp4,
            scale_up_domain: g.scale_up_domain,
            per_host: g.per_host,
            host_ram_bytes: g.host_ram_bytes,
            host_cores: g.host_cores,
            price_date: static_str(g.price_date),
            host_network: static_str(g.host_network),
            host_nics: g.host_nics,
            flops_tf32: g.flops_tf32,
        }
    }

    /// Every field of the catalogue entry through the library's GPU field table: (key,
    /// value), in the order and with the keys of `trainsize gpus --json` (derived ones
    /// included: "kind", "flops_fp16" as the tensor cores run it, "datatypes" as a
    /// comma-separated list). The figures are the catalogue entry's of this name, not this
    /// value's members (an edited copy reports the catalogue's); empty for a `GpuInfo` that
    /// names no catalogue GPU.
    pub fn fields(&self) -> Vec<(&'static str, FieldValue<'static>)> {
        let Ok(name) = CString::new(self.name) else { return Vec::new() };
        let p = unsafe { sys::trainsize_gpu_find(name.as_ptr()) };
        if p.is_null() {
            return Vec::new();
        }
        // SAFETY: catalogue entries are static; the GPU table's functions read them.
        unsafe {
            table_fields(
                &*p,
                sys::trainsize_gpu_field_count(),
                sys::trainsize_gpu_field_at,
                sys::trainsize_gpu_field_get,
            )
        }
    }
}

/// The built-in GPU catalogue.
pub fn gpus() -> Vec<GpuInfo> {
    // SAFETY: the library's table functions, as its header declares them.
    unsafe { static_table(sys::trainsize_gpu_count(), sys::trainsize_gpu_at, GpuInfo::from_raw) }
}

/// A catalogue GPU by name or short form, case-insensitively.
pub fn find_gpu(name: &str) -> Option<GpuInfo> {
    let c_name = CString::new(name).ok()?;
    let p = unsafe { sys::trainsize_gpu_find(c_name.as_ptr()) };
    if p.is_null() {
        None
    } else {
        Some(GpuInfo::from_raw(unsafe { &*p }))
    }
}

// Package trainsize is a Go binding of libtrainsize, the C library that sizes the
// training of a transformer model: memory per GPU, the servers it needs and the time
// it takes.
//
// A Job is described by named parameters (the command-line option names without the
// dashes: "model", "gpu", "gpus", "tp", "micro-batch", ...), then estimated:
//
//	job, err := trainsize.NewJob()
//	if err != nil { ... }
//	defer job.Close()
//	if err := job.Set("model", "llama-2-7b"); err != nil { ... }
//	est, err := job.Estimate()
//	fmt.Println(est.PeakTotal(), est.Fits())
//
// Every failure of the library is returned as an *Error carrying the library's status
// code, the offending field and its one-line message.
//
// Building: the package compiles against the repository's include/ directory and links
// with -ltrainsize; say where the library is through the environment, for example
//
//	CGO_LDFLAGS="-L/path/to/build -Wl,-rpath,/path/to/build" go test ./...
package trainsize

/*
#cgo CFLAGS: -I${SRCDIR}/../../include
#cgo LDFLAGS: -ltrainsize
#include <stdlib.h>
#include "cgo_helpers.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"
)

// Status codes of the library (trainsize_status); Error.Code holds one of them.
const (
	OK             = 0   // success
	ErrInvalid     = -1  // a value is malformed or out of its range
	ErrUnknown     = -2  // an unknown parameter, preset, GPU or choice name
	ErrLayout      = -3  // the parallel layout does not divide the model or GPUs
	ErrOverflow    = -4  // a result would not fit in 64 bits
	ErrParse       = -5  // malformed JSON
	ErrLimit       = -6  // input beyond a size or nesting limit
	ErrIO          = -7  // a file could not be read
	ErrNoMem       = -8  // memory allocation failed
	ErrArgument    = -9  // a bad argument from the caller (also: a closed Job)
	ErrUnsupported = -10 // a valid combination the model does not cover (also: ABI mismatch)
	ErrCancelled   = -11 // PlanWithProgress's callback stopped the search
)

// ABIVersion is the library ABI this binding was written for; NewJob refuses a library
// with another one.
const ABIVersion = 2

// Error is a failure reported by the library.
type Error struct {
	Code    int    // one of the Err* status codes
	Field   string // the offending parameter or JSON key, or ""
	Message string // one line naming the field and the reason
}

// Error returns the library's message, or the description of the code when there is none.
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Message != "" {
		return e.Message
	}
	return StrError(e.Code)
}

// StrError is the library's short description of a status code.
func StrError(code int) string {
	s := C.trainsize_strerror(C.int(code))
	if s == nil {
		return "unknown error"
	}
	return C.GoString(s)
}

// Version is the release version of the linked library, "major.minor.patch".
func Version() string {
	s := C.trainsize_version_string()
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// VersionNumber is the release version of the linked library as major*10000+minor*100+patch.
func VersionNumber() uint { return uint(C.trainsize_version_number()) }

// LibraryABIVersion is the ABI version of the linked library.
func LibraryABIVersion() uint { return uint(C.trainsize_abi_version()) }

// goStr converts a C char array that should hold a NUL-terminated string, reading no
// further than the array.
func goStr(a []C.char) string {
	b := make([]byte, 0, len(a))
	for _, c := range a {
		if c == 0 {
			break
		}
		b = append(b, byte(c))
	}
	return string(b)
}

func libError(rc C.int, e *C.trainsize_error) error {
	code := int(rc)
	if code == OK {
		code = int(e.code)
	}
	if code == OK {
		code = ErrArgument
	}
	return &Error{Code: code, Field: goStr(e.field[:]), Message: goStr(e.message[:])}
}

func argError(field, format string, args ...any) error {
	return &Error{Code: ErrArgument, Field: field, Message: fmt.Sprintf(format, args...)}
}

var (
	checkOnce sync.Once
	checkErr  error
)

// checkLibrary compares the linked library's ABI and struct sizes with this binding's.
func checkLibrary() error {
	checkOnce.Do(func() {
		if abi := uint(C.trainsize_abi_version()); abi != ABIVersion {
			checkErr = &Error{Code: ErrUnsupported, Message: fmt.Sprintf(
				"trainsize: the linked library has ABI %d; this binding needs ABI %d", abi, ABIVersion)}
			return
		}
		sizes := []struct {
			id   C.int
			name string
			size uintptr
		}{
			{C.TRAINSIZE_STRUCT_ERROR, "trainsize_error", C.sizeof_trainsize_error},
			{C.TRAINSIZE_STRUCT_RESULT, "trainsize_result", C.sizeof_trainsize_result},
			{C.TRAINSIZE_STRUCT_PLAN_CANDIDATE, "trainsize_plan_candidate", C.sizeof_trainsize_plan_candidate},
			{C.TRAINSIZE_STRUCT_PLAN_STATS, "trainsize_plan_stats", C.sizeof_trainsize_plan_stats},
			{C.TRAINSIZE_STRUCT_FIELD_VALUE, "trainsize_field_value", C.sizeof_trainsize_field_value},
		}
		for _, s := range sizes {
			if got := uintptr(C.trainsize_struct_size(s.id)); got != s.size {
				checkErr = &Error{Code: ErrUnsupported, Message: fmt.Sprintf(
					"trainsize: %s is %d bytes in the linked library, %d in this binding's header",
					s.name, got, s.size)}
				return
			}
		}
	})
	return checkErr
}

// Job describes one training job. Create it with NewJob and release it with Close (a
// finalizer frees a forgotten one). A Job may be estimated from several goroutines at
// once as long as none of them changes it; changing it needs exclusive access.
type Job struct {
	p *C.trainsize_job
}

func wrapJob(p *C.trainsize_job) *Job {
	j := &Job{p: p}
	runtime.SetFinalizer(j, (*Job).Close)
	return j
}

// NewJob creates a job holding the library's defaults (a model must still be chosen).
func NewJob() (*Job, error) {
	if err := checkLibrary(); err != nil {
		return nil, err
	}
	p := C.trainsize_job_new()
	if p == nil {
		return nil, &Error{Code: ErrNoMem, Message: "trainsize: cannot create a job: out of memory"}
	}
	return wrapJob(p), nil
}

// Close frees the job; later calls on it return an *Error with ErrArgument. Closing twice,
// or closing a nil *Job, is harmless.
func (j *Job) Close() {
	if j == nil || j.p == nil {
		return
	}
	C.trainsize_job_free(j.p)
	j.p = nil
	runtime.SetFinalizer(j, nil)
}

func (j *Job) handle() (*C.trainsize_job, error) {
	if j == nil || j.p == nil {
		return nil, argError("", "trainsize: the job is closed")
	}
	return j.p, nil
}

// Clone copies the job.
func (j *Job) Clone() (*Job, error) {
	p, err := j.handle()
	if err != nil {
		return nil, err
	}
	q := C.trainsize_job_clone(p)
	runtime.KeepAlive(j)
	if q == nil {
		return nil, &Error{Code: ErrNoMem, Message: "trainsize: cannot copy the job: out of memory"}
	}
	return wrapJob(q), nil
}

// cString converts s for C, refusing the NUL bytes C would silently cut it at.
func cString(s, field, what string) (*C.char, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, &Error{Code: ErrInvalid, Field: field,
			Message: fmt.Sprintf("%s: the %s contains a NUL byte", field, what)}
	}
	return C.CString(s), nil
}

// Set sets one parameter by name from its text form, as the command-line option
// --name value would. On failure the job is unchanged.
func (j *Job) Set(name, value string) error {
	p, err := j.handle()
	if err != nil {
		return err
	}
	cname, err := cString(name, name, "parameter name")
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cname))
	cvalue, err := cString(value, name, "value")
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cvalue))
	var e C.trainsize_error
	rc := C.trainsize_job_set(p, cname, cvalue, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return libError(rc, &e)
	}
	return nil
}

// Get reads one parameter back in its text form.
func (j *Job) Get(name string) (string, error) {
	p, err := j.handle()
	if err != nil {
		return "", err
	}
	cname, err := cString(name, name, "parameter name")
	if err != nil {
		return "", err
	}
	defer C.free(unsafe.Pointer(cname))
	buf := make([]byte, 128)
	for tries := 0; tries < 4; tries++ {
		var e C.trainsize_error
		n := C.trainsize_job_get(p, cname, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &e)
		runtime.KeepAlive(j)
		if n < 0 {
			return "", libError(n, &e)
		}
		if int(n) < len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, int(n)+1)
	}
	return "", argError(name, "%s: the value keeps changing length", name)
}

// bytesArg gives C a pointer to data, also when it is empty.
func bytesArg(data []byte) (*C.char, C.size_t) {
	if len(data) == 0 {
		var zero [1]byte
		return (*C.char)(unsafe.Pointer(&zero[0])), 0
	}
	return (*C.char)(unsafe.Pointer(&data[0])), C.size_t(len(data))
}

// LoadHFConfig replaces the model shape with the one of a Hugging Face config.json's
// text. On failure the job is unchanged.
func (j *Job) LoadHFConfig(json []byte) error {
	return j.loadText(json, fileHFConfig)
}

// LoadHFConfigFile is LoadHFConfig on a file; the model is named after the file's
// "_name_or_path" (else its model_type), as the command's --hf-config does.
func (j *Job) LoadHFConfigFile(path string) error {
	return j.loadFile(path, fileHFConfig)
}

// LoadGPUJSON makes the job use a GPU described by a JSON device file's text.
func (j *Job) LoadGPUJSON(json []byte) error {
	return j.loadText(json, fileGPU)
}

// LoadGPUFile is LoadGPUJSON on a file, as the command's --gpu-file.
func (j *Job) LoadGPUFile(path string) error {
	return j.loadFile(path, fileGPU)
}

// LoadCalibration applies a site calibration's JSON text (what `trainsize calibrate`
// writes): the efficiency model's shares fitted to the site's own runs. Settings set
// afterwards win over it; on failure the job is unchanged.
func (j *Job) LoadCalibration(json []byte) error {
	return j.loadText(json, fileCalibration)
}

// Calibrate fits a site calibration to measured runs, as `trainsize calibrate RUNS.json`
// does: runs is the RUNS.json text, date ("YYYY-MM-DD", or "") what the calibration
// records. It returns the calibration's JSON text, which LoadCalibration takes.
func Calibrate(runs []byte, date string) ([]byte, error) {
	const maxRuns = 256
	var cdate *C.char
	if date != "" {
		d, err := cString(date, "date", "date")
		if err != nil {
			return nil, err
		}
		defer C.free(unsafe.Pointer(d))
		cdate = d
	}
	ptr, n := bytesArg(runs)
	fitted := (*C.trainsize_calibration_run)(C.calloc(maxRuns, C.sizeof_trainsize_calibration_run))
	if fitted == nil {
		return nil, &Error{Code: ErrNoMem, Message: "trainsize: calibrate: out of memory"}
	}
	defer C.free(unsafe.Pointer(fitted))
	var summary C.trainsize_calibration_summary
	var count, need C.size_t
	var e C.trainsize_error
	rc := C.trainsize_calibrate(ptr, n, cdate, fitted, maxRuns, &count, &summary, nil, 0, &need, &e)
	if rc != C.TRAINSIZE_OK {
		runtime.KeepAlive(runs)
		return nil, libError(rc, &e)
	}
	buf := (*C.char)(C.malloc(need + 1))
	if buf == nil {
		return nil, &Error{Code: ErrNoMem, Message: "trainsize: calibrate: out of memory"}
	}
	defer C.free(unsafe.Pointer(buf))
	rc = C.trainsize_calibrate(ptr, n, cdate, fitted, maxRuns, &count, &summary, buf, need+1, &need, &e)
	runtime.KeepAlive(runs)
	if rc != C.TRAINSIZE_OK {
		return nil, libError(rc, &e)
	}
	return C.GoBytes(unsafe.Pointer(buf), C.int(need)), nil
}

// LoadCalibrationFile is LoadCalibration on a file, as the command's --calibration.
func (j *Job) LoadCalibrationFile(path string) error {
	return j.loadFile(path, fileCalibration)
}

// The files a job reads.
const (
	fileHFConfig = iota
	fileGPU
	fileCalibration
)

// loadText hands a file's text to the library's loader of that kind.
func (j *Job) loadText(json []byte, kind int) error {
	p, err := j.handle()
	if err != nil {
		return err
	}
	ptr, n := bytesArg(json)
	var e C.trainsize_error
	var rc C.int
	switch kind {
	case fileHFConfig:
		rc = C.trainsize_job_load_hf_config(p, ptr, n, &e)
	case fileGPU:
		rc = C.trainsize_job_load_gpu_json(p, ptr, n, &e)
	default:
		rc = C.trainsize_job_load_calibration_json(p, ptr, n, &e)
	}
	runtime.KeepAlive(j)
	runtime.KeepAlive(json)
	if rc != C.TRAINSIZE_OK {
		return libError(rc, &e)
	}
	return nil
}

func (j *Job) loadFile(path string, kind int) error {
	p, err := j.handle()
	if err != nil {
		return err
	}
	cpath, err := cString(path, "path", "file path")
	if err != nil {
		return err
	}
	defer C.free(unsafe.Pointer(cpath))
	var e C.trainsize_error
	var rc C.int
	switch kind {
	case fileHFConfig:
		rc = C.trainsize_job_load_hf_config_file(p, cpath, &e)
	case fileGPU:
		rc = C.trainsize_job_load_gpu_file(p, cpath, &e)
	default:
		rc = C.trainsize_job_load_calibration(p, cpath, &e)
	}
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return libError(rc, &e)
	}
	return nil
}

// Estimate sizes the job.
func (j *Job) Estimate() (*Estimate, error) {
	p, err := j.handle()
	if err != nil {
		return nil, err
	}
	est := new(Estimate)
	var e C.trainsize_error
	rc := C.trainsize_estimate(p, &est.r, C.sizeof_trainsize_result, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return nil, libError(rc, &e)
	}
	if est.r.memory.fits == 0 {
		// A job that does not fit comes with the changes that make it fit, as the command's.
		var count C.size_t
		rc = C.trainsize_advise(p, &est.advice[0], C.size_t(MaxEstimateAdvice), &count, &e)
		runtime.KeepAlive(j)
		if rc != C.TRAINSIZE_OK {
			return nil, libError(rc, &e)
		}
		est.advised = int(count)
	}
	return est, nil
}

// LargestFit is the largest micro-batch (samples) and the largest sequence (tokens) that
// fit, everything else as the job gives it (trainsize_largest_fit): what an estimate with
// "largest-fit" true reports as MaxMicroBatch and MaxSeq, without the rest of it. Each is
// 0 when even the smallest does not fit.
func (j *Job) LargestFit() (maxMicroBatch, maxSeq uint64, err error) {
	p, err := j.handle()
	if err != nil {
		return 0, 0, err
	}
	var mb, seq C.uint64_t
	var e C.trainsize_error
	rc := C.trainsize_largest_fit(p, &mb, &seq, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return 0, 0, libError(rc, &e)
	}
	return uint64(mb), uint64(seq), nil
}

// MaxEstimateAdvice is how much advice Estimate asks for when a job does not fit.
const MaxEstimateAdvice = 5

// Setting is one parameter to change, as Job.Set takes it.
type Setting struct {
	Name, Value string
}

// Advice is one way to make a job fit: the settings to change and the estimate with them.
type Advice struct {
	Settings    []Setting
	PeakTotal   uint64  // per-GPU memory with the change, bytes
	GPUCapacity uint64  // the GPU's capacity, bytes
	GPUs        uint64  // GPUs with the change
	StepSeconds float64 // seconds per optimizer step with the change
	Seconds     float64 // the whole run with the change, seconds
}

// Advise gives, when the job does not fit its GPU, up to max changes that make it fit,
// least disruptive first, each a full estimate of the changed job; none when it fits.
func (j *Job) Advise(max int) ([]Advice, error) {
	p, err := j.handle()
	if err != nil {
		return nil, err
	}
	if max < 0 || max > MaxPlanCandidates {
		return nil, argError("cap", "cap: expected 0 to %d entries, got %d", MaxPlanCandidates, max)
	}
	out := make([]C.trainsize_advice, max)
	var ptr *C.trainsize_advice
	if max > 0 {
		ptr = &out[0]
	}
	var count C.size_t
	var e C.trainsize_error
	rc := C.trainsize_advise(p, ptr, C.size_t(max), &count, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return nil, libError(rc, &e)
	}
	return adviceOf(out[:int(count)]), nil
}

func adviceOf(raw []C.trainsize_advice) []Advice {
	advice := make([]Advice, 0, len(raw))
	for _, a := range raw {
		var settings []Setting
		for k := 0; k < int(a.settings) && k < C.TRAINSIZE_ADVICE_MAX_SETTINGS; k++ {
			settings = append(settings, Setting{goStr(a.names[k][:]), goStr(a.values[k][:])})
		}
		advice = append(advice, Advice{settings, uint64(a.peak_total), uint64(a.gpu_capacity),
			uint64(a.gpus), float64(a.step_seconds), float64(a.seconds)})
	}
	return advice
}

// Candidate is one configuration the planner found.
type Candidate struct {
	GPU          string  // catalogue GPU
	GPUs         uint64  // GPUs
	GPUsPerNode  uint64  // GPUs per server
	TP           uint64  // tensor-parallel degree
	PP           uint64  // pipeline-parallel degree
	PPInterleave uint64  // virtual pipeline stages per rank
	EP           uint64  // expert-parallel degree
	Zero         uint64  // ZeRO stage
	MicroBatch   uint64  // samples per GPU per pass
	GlobalBatch  uint64  // samples per optimizer step
	Recompute    int     // 0 none, 1 selective, 2 full, 3 per-op
	PeakTotal    uint64  // per-GPU memory, bytes (as Estimate.PeakTotal)
	Seconds      float64 // whole run on the wall clock, seconds (as Estimate.WallSeconds)
	Cost         float64 // cloud cost of the run, US dollars (as Estimate.CostCloudUSD)
	Warnings     uint64  // warning bits of the estimate (as Estimate.WarningBits)
	CostOwn      float64 // owning cost of the run, US dollars (0 when the GPU has no price)
	CP           uint64  // context-parallel degree
	SP           bool    // sequence parallelism applies
	// grpo, ppo: the rollout engine's tensor parallelism, where the engines run
	// ("colocated" or "separate") and, separate, their GPUs beside GPUs; 0 and "" otherwise.
	RolloutTP   uint64
	Rollout     string
	RolloutGPUs uint64
	// With a token budget: the budget a GPU the planner chose, in the micro-batch's place.
	MaxTokensPerGPU uint64
}

// copyName writes s into a fixed C array, terminated; false when it does not fit or holds a NUL.
func copyName(dst []C.char, s string) bool {
	if len(s) >= len(dst) || strings.IndexByte(s, 0) >= 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		dst[i] = C.char(s[i])
	}
	return true
}

// raw is the candidate as the library's struct.
func (c Candidate) raw() (C.trainsize_plan_candidate, error) {
	var cc C.trainsize_plan_candidate
	if !copyName(cc.gpu[:], c.GPU) {
		return cc, &Error{Code: ErrUnknown, Field: "gpu",
			Message: fmt.Sprintf("gpu: %q is not a catalogue GPU name", c.GPU)}
	}
	cc.gpus = C.uint64_t(c.GPUs)
	cc.gpus_per_node = C.uint64_t(c.GPUsPerNode)
	cc.layout.tp = C.uint64_t(c.TP)
	cc.layout.pp = C.uint64_t(c.PP)
	cc.layout.pp_interleave = C.uint64_t(c.PPInterleave)
	cc.layout.cp = C.uint64_t(c.CP)
	cc.layout.ep = C.uint64_t(c.EP)
	cc.layout.zero = C.uint64_t(c.Zero)
	cc.layout.micro_batch = C.uint64_t(c.MicroBatch)
	cc.layout.global_batch = C.uint64_t(c.GlobalBatch)
	cc.layout.recompute = C.int(c.Recompute)
	if c.SP {
		cc.layout.sp = 1
	}
	cc.peak_total = C.uint64_t(c.PeakTotal)
	cc.seconds = C.double(c.Seconds)
	cc.cost = C.double(c.Cost)
	cc.warnings = C.uint64_t(c.Warnings)
	cc.cost_own = C.double(c.CostOwn)
	if !copyName(cc.rollout[:], c.Rollout) {
		return cc, &Error{Code: ErrInvalid, Field: "rollout",
			Message: fmt.Sprintf("rollout: %q is not a placement", c.Rollout)}
	}
	cc.rollout_tp = C.uint64_t(c.RolloutTP)
	cc.rollout_gpus = C.uint64_t(c.RolloutGPUs)
	cc.max_tokens_per_gpu = C.uint64_t(c.MaxTokensPerGPU)
	return cc, nil
}

// Fields lists the candidate as the plan JSON writes it, through the library's plan field
// table: the members above and what follows from them ("nodes", "recompute" by name,
// "warnings" as names), keyed as in the JSON.
func (c Candidate) Fields() ([]Field, error) {
	cc, err := c.raw()
	if err != nil {
		return nil, err
	}
	return planTable.all(unsafe.Pointer(&cc))
}

// Field gives one of the candidate's fields by its plan JSON key ("nodes"); ok is false
// when the library has no such field.
func (c Candidate) Field(key string) (value any, ok bool, err error) {
	cc, err := c.raw()
	if err != nil {
		return nil, false, err
	}
	return planTable.one(unsafe.Pointer(&cc), key)
}

// PlanStats says what a search covered.
type PlanStats struct {
	Evaluated uint64 // configurations examined: estimated, or ruled out by a bound
	Estimated uint64 // of those, full estimates run
	Feasible  uint64 // configurations that fit and meet every constraint
	// What binds when nothing is feasible: configurations that fit in memory, the fastest
	// and the cheapest of those, and how far the closest is over its GPU when none fits.
	FitMemory         uint64
	FastestFitSeconds float64
	CheapestFitCost   float64
	LeastOvershoot    float64
	// What the pruning saved: configurations of Evaluated ruled out unseen because a
	// lighter one of the same layout did not fit (PrunedMemory) or by a floor under their
	// time and cost already beaten (PrunedBound; 0 with "exhaustive"), the floors computed
	// (Bounds), and GPU counts ruled out whole (CountsSkipped; their configurations are
	// not in Evaluated).
	PrunedMemory  uint64
	PrunedBound   uint64
	Bounds        uint64
	CountsSkipped uint64
}

// Plan is the result of a search: the best candidates, best first.
type Plan struct {
	Candidates []Candidate
	Stats      PlanStats
}

// MaxPlanCandidates bounds the capacity Plan accepts.
const MaxPlanCandidates = 1 << 20

// Plan searches GPU types, counts and layouts for the best configurations of the job
// (which needs "tokens"), returning at most max candidates, best first. The job is not
// changed; Apply sets one candidate on a job. "exhaustive" true on the job estimates every
// configuration without pruning (the same candidates, slower).
func (j *Job) Plan(max int) (*Plan, error) {
	return j.plan(max, nil)
}

// PlanWithProgress is Plan calling progress(done, total, examined) on the calling
// goroutine after each GPU count is searched or skipped (done counts up by 1 to total;
// examined: configurations so far). A true return stops the search: the error is then an
// *Error with ErrCancelled and there is no plan. A panic in progress stops it too, and
// panics again here once the library has returned; progress must not call
// runtime.Goexit (t.FailNow), which cannot leave through the library's frames. A nil
// progress is Plan.
func (j *Job) PlanWithProgress(max int, progress func(done, total, examined uint64) bool) (*Plan, error) {
	return j.plan(max, progress)
}

func (j *Job) plan(max int, progress func(done, total, examined uint64) bool) (*Plan, error) {
	p, err := j.handle()
	if err != nil {
		return nil, err
	}
	if max < 0 || max > MaxPlanCandidates {
		return nil, argError("cap", "cap: expected 0 to %d candidates, got %d", MaxPlanCandidates, max)
	}
	out := make([]C.trainsize_plan_candidate, max)
	var ptr *C.trainsize_plan_candidate
	if max > 0 {
		ptr = &out[0]
	}
	var count C.size_t
	var stats C.trainsize_plan_stats
	var e C.trainsize_error
	var rc C.int
	if progress == nil {
		rc = C.trainsize_plan(p, ptr, C.size_t(max), &count, &stats, &e)
	} else {
		rc = planWithProgress(p, ptr, C.size_t(max), &count, &stats, &e, progress)
	}
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return nil, libError(rc, &e)
	}
	if uint64(count) > uint64(max) {
		return nil, &Error{Code: ErrArgument, Message: fmt.Sprintf(
			"trainsize: the planner reported %d candidates for a capacity of %d", uint64(count), max)}
	}
	plan := &Plan{
		Candidates: make([]Candidate, int(count)),
		Stats: PlanStats{Evaluated: uint64(stats.evaluated), Estimated: uint64(stats.estimated),
			Feasible: uint64(stats.feasible), FitMemory: uint64(stats.fit_memory),
			FastestFitSeconds: float64(stats.fastest_fit_seconds),
			CheapestFitCost:   float64(stats.cheapest_fit_cost), LeastOvershoot: float64(stats.least_overshoot),
			PrunedMemory: uint64(stats.pruned_memory), PrunedBound: uint64(stats.pruned_bound),
			Bounds: uint64(stats.bounds), CountsSkipped: uint64(stats.counts_skipped)},
	}
	for i := range plan.Candidates {
		c := &out[i]
		l := &c.layout
		plan.Candidates[i] = Candidate{
			GPU: goStr(c.gpu[:]), GPUs: uint64(c.gpus), GPUsPerNode: uint64(c.gpus_per_node),
			TP: uint64(l.tp), PP: uint64(l.pp), PPInterleave: uint64(l.pp_interleave), EP: uint64(l.ep),
			Zero: uint64(l.zero), MicroBatch: uint64(l.micro_batch), GlobalBatch: uint64(l.global_batch),
			Recompute: int(l.recompute), PeakTotal: uint64(c.peak_total), Seconds: float64(c.seconds),
			Cost: float64(c.cost), Warnings: uint64(c.warnings), CostOwn: float64(c.cost_own),
			CP: uint64(l.cp), SP: l.sp != 0,
			RolloutTP: uint64(c.rollout_tp), Rollout: goStr(c.rollout[:]), RolloutGPUs: uint64(c.rollout_gpus),
			MaxTokensPerGPU: uint64(c.max_tokens_per_gpu),
		}
	}
	return plan, nil
}

// Apply sets the job's GPU and layout to a candidate's, so that Estimate gives the
// candidate's figures.
func (j *Job) Apply(c Candidate) error {
	p, err := j.handle()
	if err != nil {
		return err
	}
	cc, err := c.raw()
	if err != nil {
		return err
	}
	var e C.trainsize_error
	rc := C.trainsize_plan_apply(p, &cc, &e)
	runtime.KeepAlive(j)
	if rc != C.TRAINSIZE_OK {
		return libError(rc, &e)
	}
	return nil
}

// WarningName is the stable name of one warning bit ("low-vram-headroom"), or "" for a
// value that is not one warning bit.
func WarningName(bit uint64) string {
	s := C.trainsize_warning_name(C.uint64_t(bit))
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// ExampleSettings is the built-in example job that the bare `trainsize` command sizes: its
// settings, name and value, in the order the command applies them
// (trainsize_example_setting).
func ExampleSettings() [][2]string {
	var out [][2]string
	for {
		var name, value *C.char
		if C.trainsize_example_setting(C.size_t(len(out)), &name, &value) == 0 {
			return out
		}
		out = append(out, [2]string{C.GoString(name), C.GoString(value)})
	}
}

// WarningText is the one-sentence explanation of one warning bit, or "".
func WarningText(bit uint64) string {
	s := C.trainsize_warning_text(C.uint64_t(bit))
	if s == nil {
		return ""
	}
	return C.GoString(s)
}

// warningNames lists the names of the bits set in w, lowest bit first, skipping bits
// the library does not name (as the command's JSON does).
func warningNames(w uint64) []string {
	names := []string{}
	for bit := 0; bit < 64; bit++ {
		b := uint64(1) << bit
		if w&b == 0 {
			continue
		}
		if name := WarningName(b); name != "" {
			names = append(names, name)
		}
	}
	return names
}

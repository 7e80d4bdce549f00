package trainsize

/*
#include "cgo_helpers.h"
*/
import "C"

import (
	"fmt"
	"strconv"
	"sync"
	"unsafe"
)

// Estimate is what a job takes: the library's trainsize_result, held by value. The
// accessors give the main figures; Fields and JSON give every figure the library has.
type Estimate struct {
	r       C.trainsize_result
	advice  [MaxEstimateAdvice]C.trainsize_advice // when the job does not fit (raw, so that
	advised int                                   // an Estimate stays comparable)
}

// Advice lists, when the job does not fit its GPU, the changes that make it fit, least
// disruptive first, each a full estimate of the changed job (at most MaxEstimateAdvice);
// empty when it fits.
func (e *Estimate) Advice() []Advice { return adviceOf(e.advice[:e.advised]) }

// ModelName is the preset name, the config's name, or "custom".
func (e *Estimate) ModelName() string { return goStr(e.r.model.name[:]) }

// Parameters is the model's total parameter count.
func (e *Estimate) Parameters() uint64 { return uint64(e.r.model.parameters) }

// TrainableParameters is the count the optimizer updates (LoRA: the adapters).
func (e *Estimate) TrainableParameters() uint64 { return uint64(e.r.model.trainable_parameters) }

// ActiveParameters is the count used per token (MoE: the top-k experts).
func (e *Estimate) ActiveParameters() uint64 { return uint64(e.r.model.active_parameters) }

// ExtraParameters is the count beyond the model's shape ("extra-params": a checkpoint's
// headers that hold more than its config describes), included in Parameters.
func (e *Estimate) ExtraParameters() uint64 { return uint64(e.r.extra_parameters) }

// ExtraTensors says which of a checkpoint's tensors make up ExtraParameters: "NAME COUNT"
// per tensor group, the most first, "; "-separated ("" when extra-params was set by hand);
// model.extra_tensors in the JSON.
func (e *Estimate) ExtraTensors() string { return goStr(e.r.extra_tensors[:]) }

// Weights is the bytes of model weights on the most loaded GPU.
func (e *Estimate) Weights() uint64 { return uint64(e.r.memory.weights) }

// Gradients is the bytes of gradients held at the end of the backward pass.
func (e *Estimate) Gradients() uint64 { return uint64(e.r.memory.gradients) }

// Optimizer is the bytes of optimizer state, the fp32 master copy included.
func (e *Estimate) Optimizer() uint64 { return uint64(e.r.memory.optimizer) }

// Activations is the bytes saved for backward by the in-flight micro-batches.
func (e *Estimate) Activations() uint64 { return uint64(e.r.memory.activations) }

// PeakAllocated is comparable to torch.cuda.max_memory_allocated(), bytes.
func (e *Estimate) PeakAllocated() uint64 { return uint64(e.r.memory.peak_allocated) }

// Overhead is the CUDA context, communication buffers and allocator slack, bytes.
func (e *Estimate) Overhead() uint64 { return uint64(e.r.memory.overhead) }

// PeakTotal is the per-GPU peak comparable to nvidia-smi, bytes.
func (e *Estimate) PeakTotal() uint64 { return uint64(e.r.memory.peak_total) }

// GPUCapacity is the GPU's memory, bytes.
func (e *Estimate) GPUCapacity() uint64 { return uint64(e.r.memory.gpu_capacity) }

// Fits reports whether PeakTotal <= GPUCapacity.
func (e *Estimate) Fits() bool { return e.r.memory.fits != 0 }

// MaxMicroBatch is the largest micro-batch that fits, with "largest-fit" true (else 0).
func (e *Estimate) MaxMicroBatch() uint64 { return uint64(e.r.memory.max_micro_batch) }

// MaxSeq is the largest sequence that fits, tokens, with "largest-fit" true (else 0).
func (e *Estimate) MaxSeq() uint64 { return uint64(e.r.memory.max_seq) }

// Nodes is the number of servers.
func (e *Estimate) Nodes() uint64 { return uint64(e.r.system.nodes) }

// GPUsPerNode is the number of GPUs in each server.
func (e *Estimate) GPUsPerNode() uint64 { return uint64(e.r.system.gpus_per_node) }

// HostRAMPerNode is the host RAM each server needs, bytes.
func (e *Estimate) HostRAMPerNode() uint64 { return uint64(e.r.system.host_ram_per_node) }

// CPUCoresPerNode is the CPU cores each server needs.
func (e *Estimate) CPUCoresPerNode() uint64 { return uint64(e.r.system.cpu_cores_per_node) }

// PowerWatts is the power of the whole job, watts.
func (e *Estimate) PowerWatts() float64 { return float64(e.r.system.power_watts) }

// EnergyKWh is the energy of the run at the facility, kWh.
func (e *Estimate) EnergyKWh() float64 { return float64(e.r.system.energy_kwh) }

// CostCloudUSD is the cost of renting the GPUs for the run, US dollars (0 without a price).
func (e *Estimate) CostCloudUSD() float64 { return float64(e.r.system.cost_cloud_usd) }

// CapexUSD is the purchase of the servers, network and storage, US dollars (0 without a price).
func (e *Estimate) CapexUSD() float64 { return float64(e.r.system.capex_usd) }

// BreakevenMonths is the months after which buying has paid for itself against renting;
// 0 when renting stays cheaper.
func (e *Estimate) BreakevenMonths() float64 { return float64(e.r.system.breakeven_months) }

// FLOPs is the operations the GPUs execute in the run, recomputation included.
func (e *Estimate) FLOPs() float64 { return float64(e.r.time.flops) }

// Seconds is the time of the run on a cluster that never fails (WallSeconds adds the
// interruptions, restarts and checkpoints).
func (e *Estimate) Seconds() float64 { return float64(e.r.time.seconds) }

// StepSeconds is the time of one optimizer step.
func (e *Estimate) StepSeconds() float64 { return float64(e.r.time.step_seconds) }

// Steps is the number of optimizer steps.
func (e *Estimate) Steps() uint64 { return uint64(e.r.time.steps) }

// GPUHours is GPUs x run time, hours.
func (e *Estimate) GPUHours() float64 { return float64(e.r.time.gpu_hours) }

// WallSeconds is the run on a cluster that fails: Seconds with checkpoint stalls,
// restarts and lost work.
func (e *Estimate) WallSeconds() float64 { return float64(e.r.time.wall_seconds) }

// Goodput is Seconds / WallSeconds, in (0, 1].
func (e *Estimate) Goodput() float64 { return float64(e.r.time.goodput) }

// GPU is the catalogue name of the GPU.
func (e *Estimate) GPU() string { return goStr(e.r.gpu[:]) }

// GPUs is the number of GPUs in the job.
func (e *Estimate) GPUs() uint64 { return uint64(e.r.gpus) }

// DataParallel is the data-parallel degree.
func (e *Estimate) DataParallel() uint64 { return uint64(e.r.data_parallel) }

// GradientAccumulation is the micro-batches per optimizer step per data-parallel rank.
func (e *Estimate) GradientAccumulation() uint64 { return uint64(e.r.gradient_accumulation) }

// Layout is the parallel layout and batch an estimate used.
type Layout struct {
	TP, PP, PPInterleave, CP, EP uint64
	Zero                         uint64 // ZeRO stage (FSDP FULL_SHARD is 3)
	MicroBatch, GlobalBatch      uint64 // samples per GPU per pass; per optimizer step
	SP                           bool   // sequence parallelism applies
	Recompute                    int    // 0 none, 1 selective, 2 full, 3 per-op (trainsize_recompute)
}

// Layout is the layout and batch the estimate used (the job's settings after defaults).
func (e *Estimate) Layout() Layout {
	l := e.r.layout
	return Layout{TP: uint64(l.tp), PP: uint64(l.pp), PPInterleave: uint64(l.pp_interleave),
		CP: uint64(l.cp), EP: uint64(l.ep), Zero: uint64(l.zero), MicroBatch: uint64(l.micro_batch),
		GlobalBatch: uint64(l.global_batch), SP: l.sp != 0, Recompute: int(l.recompute)}
}

// WarningBits is the checklist as the library's TRAINSIZE_WARN_* bits.
func (e *Estimate) WarningBits() uint64 { return uint64(e.r.warnings) }

// Warnings is the checklist as the warnings' stable names ("low-vram-headroom").
func (e *Estimate) Warnings() []string { return warningNames(uint64(e.r.warnings)) }

// Uncertainty is how sure an estimate is: factors on every time figure and on every
// memory figure (the true one is expected within figure x [Low, High]; about 80 % of the
// published runs of the job's class fell inside), and the validation that set them.
type Uncertainty struct {
	TimeLow, TimeHigh, MemoryLow, MemoryHigh float64
	Basis                                    string
}

// Uncertainty is the estimate's uncertainty bands (the JSON's "uncertainty").
func (e *Estimate) Uncertainty() Uncertainty {
	u := e.r.uncertainty
	return Uncertainty{TimeLow: float64(u.time_low), TimeHigh: float64(u.time_high),
		MemoryLow: float64(u.memory_low), MemoryHigh: float64(u.memory_high), Basis: goStr(u.basis[:])}
}

// FieldType is the type of a result field.
type FieldType int

// The result field types (trainsize_field_type).
const (
	FieldU64    FieldType = 0 // Value is a uint64
	FieldF64    FieldType = 1 // Value is a float64
	FieldBool   FieldType = 2 // Value is a bool
	FieldString FieldType = 3 // Value is a string
	FieldChoice FieldType = 4 // Value is a string: an enum's name
	FieldFlags  FieldType = 5 // Value is a []string: the names of the bits set
)

func (t FieldType) String() string {
	switch t {
	case FieldU64:
		return "u64"
	case FieldF64:
		return "f64"
	case FieldBool:
		return "bool"
	case FieldString:
		return "string"
	case FieldChoice:
		return "choice"
	case FieldFlags:
		return "flags"
	}
	return "FieldType(" + strconv.Itoa(int(t)) + ")"
}

// Field is one figure of an estimate (named by its dotted JSON path) or of a plan
// candidate (named by its key in the plan JSON).
type Field struct {
	Path  string    // dotted path, e.g. "memory.peak_total"; a candidate's key, e.g. "nodes"
	Type  FieldType // its type
	Unit  string    // "bytes", "bytes/s", "seconds", ... or ""
	Doc   string    // one-line description
	Value any       // uint64, float64, bool, string or []string, following Type; nil for a type newer than this binding
}

type fieldInfo struct {
	path, unit, doc string
	typ             FieldType
}

// fieldTable is one of the library's field tables, read once.
type fieldTable struct {
	what  string // "result", "plan"
	id    C.int  // TSGO_TABLE_*
	count func() C.size_t
	at    func(C.size_t) *C.trainsize_field_info
	once  sync.Once
	infos []fieldInfo
	err   error
}

var (
	resultTable = &fieldTable{what: "result", id: C.TSGO_TABLE_RESULT,
		count: func() C.size_t { return C.trainsize_result_field_count() },
		at:    func(i C.size_t) *C.trainsize_field_info { return C.trainsize_result_field_at(i) }}
	planTable = &fieldTable{what: "plan", id: C.TSGO_TABLE_PLAN,
		count: func() C.size_t { return C.trainsize_plan_field_count() },
		at:    func(i C.size_t) *C.trainsize_field_info { return C.trainsize_plan_field_at(i) }}
)

// fields gives the table's descriptions.
func (t *fieldTable) fields() ([]fieldInfo, error) {
	t.once.Do(func() {
		n := int(t.count())
		infos := make([]fieldInfo, 0, n)
		for i := 0; i < n; i++ {
			f := t.at(C.size_t(i))
			if f == nil || f.path == nil {
				t.err = &Error{Code: ErrArgument, Message: fmt.Sprintf(
					"trainsize: %s field %d has no path", t.what, i)}
				return
			}
			info := fieldInfo{path: C.GoString(f.path), typ: FieldType(f._type)}
			if f.unit != nil {
				info.unit = C.GoString(f.unit)
			}
			if f.doc != nil {
				info.doc = C.GoString(f.doc)
			}
			infos = append(infos, info)
		}
		t.infos = infos
	})
	return t.infos, t.err
}

// value reads field i of a record of the table (a C struct held by Go) as a Go value.
func (t *fieldTable) value(record unsafe.Pointer, i int) (any, error) {
	var v C.tsgo_value
	buf := make([]byte, 256)
	for tries := 0; tries < 4; tries++ {
		rc := C.tsgo_field_get(t.id, record, C.size_t(i), &v, (*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)))
		if rc != C.TRAINSIZE_OK {
			return nil, &Error{Code: int(rc), Message: fmt.Sprintf(
				"trainsize: cannot read %s field %d: %s", t.what, i, StrError(int(rc)))}
		}
		if int(v.text_len) < len(buf) {
			break
		}
		buf = make([]byte, int(v.text_len)+1)
	}
	switch FieldType(v._type) {
	case FieldU64:
		return uint64(v.u64), nil
	case FieldF64:
		return float64(v.f64), nil
	case FieldBool:
		return v.u64 != 0, nil
	case FieldString, FieldChoice:
		if v.has_text == 0 {
			return nil, nil
		}
		n := int(v.text_len)
		if n >= len(buf) {
			n = len(buf) - 1
		}
		return string(buf[:n]), nil
	case FieldFlags:
		return warningNames(uint64(v.u64)), nil
	}
	return nil, nil
}

// all lists every field of a record, in the table's order.
func (t *fieldTable) all(record unsafe.Pointer) ([]Field, error) {
	infos, err := t.fields()
	if err != nil {
		return nil, err
	}
	out := make([]Field, len(infos))
	for i, f := range infos {
		v, err := t.value(record, i)
		if err != nil {
			return nil, err
		}
		out[i] = Field{Path: f.path, Type: f.typ, Unit: f.unit, Doc: f.doc, Value: v}
	}
	return out, nil
}

// one gives a record's field by its path; ok is false when the table has no such field.
func (t *fieldTable) one(record unsafe.Pointer, path string) (value any, ok bool, err error) {
	infos, err := t.fields()
	if err != nil {
		return nil, false, err
	}
	for i, f := range infos {
		if f.path == path {
			v, err := t.value(record, i)
			return v, err == nil, err
		}
	}
	return nil, false, nil
}

// Fields lists every figure of the estimate, in the library's field-table order.
func (e *Estimate) Fields() ([]Field, error) { return resultTable.all(unsafe.Pointer(&e.r)) }

// Field gives one figure by its dotted path ("memory.peak_total"); ok is false when the
// library has no such field.
func (e *Estimate) Field(path string) (value any, ok bool, err error) {
	return resultTable.one(unsafe.Pointer(&e.r), path)
}

// ---- JSON ----

// JSON gives the estimate as the command's `trainsize estimate --json` prints it, byte for
// byte, final newline included: the library's trainsize_result_json, which the command
// calls too ("trainsize_version" first, then the result fields nested by their dotted
// paths, warnings as a list of names, then "advice").
func (e *Estimate) JSON() ([]byte, error) {
	var cerr C.trainsize_error
	var advice *C.trainsize_advice
	if e.advised > 0 {
		advice = &e.advice[0]
	}
	// The length first, then the text into a buffer of that size and its NUL.
	n := C.trainsize_result_json(&e.r, advice, C.size_t(e.advised), nil, 0, &cerr)
	if n < 0 {
		return nil, libError(n, &cerr)
	}
	buf := make([]byte, int(n)+1)
	got := C.trainsize_result_json(&e.r, advice, C.size_t(e.advised), (*C.char)(unsafe.Pointer(&buf[0])),
		C.size_t(len(buf)), &cerr)
	if got != n {
		return nil, libError(got, &cerr)
	}
	return buf[:n], nil
}

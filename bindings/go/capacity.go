package trainsize

/*
#include <stdlib.h>
#include "trainsize.h"
*/
import "C"

import "unsafe"

// CapacityEntry is the largest catalogue model one way of training fits
// (trainsize_capacity_entry).
type CapacityEntry struct {
	Method     string  // "pretraining", "full-fine-tuning", "lora", "qlora", "dpo" or "grpo"
	Model      string  // the catalogue preset; "" when none fits
	Parameters uint64  // its parameters (0 when none fits)
	TokensPerS float64 // tokens the job trains per second, all GPUs together
	PeakTotal  uint64  // its peak per GPU (memory.peak_total), bytes
	Args       string  // the `trainsize estimate` options that reproduce it ("--model ... --gpu ...")
}

// capacity is trainsize_capacity for the GPU named gpu: its entries, and the name as C text
// for trainsize_capacity_json (the caller frees it; nil on error).
func capacity(gpu string, gpus, gpusPerNode, seq, microBatch, hostRAM uint64) (
	*C.char, *[C.TRAINSIZE_CAPACITY_METHODS]C.trainsize_capacity_entry, error) {
	if err := checkLibrary(); err != nil {
		return nil, nil, err
	}
	cgpu, err := cString(gpu, "gpu", "name")
	if err != nil {
		return nil, nil, err
	}
	var raw [C.TRAINSIZE_CAPACITY_METHODS]C.trainsize_capacity_entry
	var e C.trainsize_error
	rc := C.trainsize_capacity(cgpu, C.uint64_t(gpus), C.uint64_t(gpusPerNode), C.uint64_t(seq),
		C.uint64_t(microBatch), C.uint64_t(hostRAM), &raw[0], &e)
	if rc != C.TRAINSIZE_OK {
		C.free(unsafe.Pointer(cgpu))
		return nil, nil, libError(rc, &e)
	}
	return cgpu, &raw, nil
}

// Capacity is the largest catalogue model each way of training fits on gpus GPUs named gpu,
// as `trainsize capacity` finds it (trainsize_capacity): one entry per way, pretraining,
// full fine-tuning, LoRA, QLoRA, DPO and GRPO. gpusPerNode 0 is the product's own; hostRAM
// (bytes) 0 is the product's as catalogued, else sized from its GPU memory. An unknown GPU
// or a count out of its option's range is an *Error naming it ("gpu", "gpus", "seq", ...).
func Capacity(gpu string, gpus, gpusPerNode, seq, microBatch, hostRAM uint64) ([]CapacityEntry, error) {
	cgpu, raw, err := capacity(gpu, gpus, gpusPerNode, seq, microBatch, hostRAM)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cgpu))
	out := make([]CapacityEntry, len(raw))
	for i := range raw {
		r := &raw[i]
		out[i] = CapacityEntry{Method: goStr(r.method[:]), Model: goStr(r.model[:]), Parameters: uint64(r.parameters),
			TokensPerS: float64(r.tokens_per_s), PeakTotal: uint64(r.peak_total), Args: goStr(r.args[:])}
	}
	return out, nil
}

// CapacityJSON is Capacity as `trainsize capacity --json` prints it for the same GPUs, byte
// for byte, final newline included (trainsize_capacity_json): "gpu", "gpus", "seq",
// "micro_batch" and "methods".
func CapacityJSON(gpu string, gpus, gpusPerNode, seq, microBatch, hostRAM uint64) ([]byte, error) {
	cgpu, raw, err := capacity(gpu, gpus, gpusPerNode, seq, microBatch, hostRAM)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cgpu))
	var e C.trainsize_error
	// The length first, then the text into a buffer of that size and its NUL.
	n := C.trainsize_capacity_json(cgpu, C.uint64_t(gpus), C.uint64_t(seq), C.uint64_t(microBatch), &raw[0], nil, 0, &e)
	if n < 0 {
		return nil, libError(n, &e)
	}
	buf := make([]byte, int(n)+1)
	got := C.trainsize_capacity_json(cgpu, C.uint64_t(gpus), C.uint64_t(seq), C.uint64_t(microBatch), &raw[0],
		(*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &e)
	if got != n {
		return nil, libError(got, &e)
	}
	return buf[:n], nil
}

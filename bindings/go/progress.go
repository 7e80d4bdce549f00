package trainsize

/*
#include "cgo_helpers.h"
*/
import "C"

import "runtime/cgo"

// planProgress is what the library's progress callback reaches through a cgo.Handle (a
// Go pointer may not be handed to C to keep): the caller's function, and a panic of it,
// raised again once the library has returned.
type planProgress struct {
	fn       func(done, total, examined uint64) bool
	panicked bool
	value    any
}

//export tsgoPlanProgress
func tsgoPlanProgress(handle C.uintptr_t, done, total, examined C.uint64_t) (stop C.int) {
	p := cgo.Handle(handle).Value().(*planProgress)
	returned := false
	// A panic must not unwind through the library's frames: it stops the search instead
	// (a flag rather than recover's value, which is nil for panic(nil) before Go 1.21).
	defer func() {
		if !returned {
			p.panicked, p.value = true, recover()
			stop = 1
		}
	}()
	cancel := p.fn(uint64(done), uint64(total), uint64(examined))
	returned = true
	if cancel {
		return 1
	}
	return 0
}

// planWithProgress runs trainsize_plan_with_progress with progress as its callback; a
// panic of progress is raised again here, after the library has returned.
func planWithProgress(job *C.trainsize_job, out *C.trainsize_plan_candidate, max C.size_t, count *C.size_t,
	stats *C.trainsize_plan_stats, e *C.trainsize_error, progress func(done, total, examined uint64) bool) C.int {
	state := &planProgress{fn: progress}
	h := cgo.NewHandle(state)
	defer h.Delete() // also on the way out of a panic
	rc := C.tsgo_plan_with_progress(job, out, max, count, stats, C.uintptr_t(h), e)
	if state.panicked {
		panic(state.value)
	}
	return rc
}

package trainsize

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"testing"
)

// prunedSettings is a search large enough that the floors prune configurations and skip
// GPU counts whole.
var prunedSettings = []setting{{"model", "llama-3-8b"}, {"tokens", "1e11"},
	{"plan-gpus", "h100-80gb,a100-80gb"}, {"max-gpus", "64"}}

func prunedJob(t *testing.T) *Job {
	t.Helper()
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range prunedSettings {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
	}
	return job
}

// The stats are the plan JSON's, the pruning counts after "least_overshoot" and before
// "objective". Without TRAINSIZE_EXE only the counts' sanity is checked.
func TestPlanStatsMatchPlanJSON(t *testing.T) {
	job := prunedJob(t)
	defer job.Close()
	plan, err := job.Plan(10)
	if err != nil {
		t.Fatal(err)
	}
	st := plan.Stats
	if st.PrunedBound == 0 || st.Bounds == 0 || st.CountsSkipped == 0 ||
		st.Estimated+st.PrunedMemory+st.PrunedBound > st.Evaluated {
		t.Fatalf("the pruning counts do not add up: %+v", st)
	}
	if os.Getenv("TRAINSIZE_EXE") == "" {
		t.Skip("TRAINSIZE_EXE is not set: no trainsize command to compare with")
	}
	cmd := []string{"plan", "--json"}
	for _, s := range prunedSettings {
		name := s.name
		if name == "plan-gpus" {
			name = "gpu"
		}
		cmd = append(cmd, "--"+name, s.value)
	}
	out := runCommand(t, cmd...)
	var all map[string]any
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber() // the counts exactly, not as float64
	if err := dec.Decode(&all); err != nil {
		t.Fatal(err)
	}
	want := map[string]json.Number{}
	for k, v := range all {
		if n, ok := v.(json.Number); ok {
			want[k] = n
		}
	}
	for key, got := range map[string]uint64{"evaluated": st.Evaluated, "estimated": st.Estimated,
		"feasible": st.Feasible, "fit_memory": st.FitMemory, "pruned_memory": st.PrunedMemory,
		"pruned_bound": st.PrunedBound, "bounds": st.Bounds, "counts_skipped": st.CountsSkipped} {
		if n, err := want[key].Int64(); err != nil || uint64(n) != got {
			t.Errorf("%s = %d, the JSON %q", key, got, want[key])
		}
	}
	for key, got := range map[string]float64{"fastest_fit_seconds": st.FastestFitSeconds,
		"cheapest_fit_cost": st.CheapestFitCost, "least_overshoot": st.LeastOvershoot} {
		if f, err := want[key].Float64(); err != nil || f != got {
			t.Errorf("%s = %v, the JSON %q", key, got, want[key])
		}
	}
	// The keys in the command's order.
	last := -1
	for _, key := range []string{"least_overshoot", "pruned_memory", "pruned_bound", "bounds",
		"counts_skipped", "objective"} {
		at := bytes.Index(out, []byte(`"`+key+`":`))
		if at <= last {
			t.Errorf("%q is not after the key before it in the plan JSON", key)
		}
		last = at
	}
}

func TestPlanExhaustiveGivesTheSameCandidates(t *testing.T) {
	job := prunedJob(t)
	defer job.Close()
	pruned, err := job.Plan(10)
	if err != nil {
		t.Fatal(err)
	}
	if err := job.Set("exhaustive", "true"); err != nil {
		t.Fatal(err)
	}
	full, err := job.Plan(10)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Candidates) == 0 || !reflect.DeepEqual(full.Candidates, pruned.Candidates) {
		t.Errorf("exhaustive: %+v\npruned: %+v", full.Candidates, pruned.Candidates)
	}
	if full.Stats.PrunedBound != 0 || full.Stats.CountsSkipped != 0 || full.Stats.Estimated <= pruned.Stats.Estimated {
		t.Errorf("exhaustive stats %+v, pruned %+v", full.Stats, pruned.Stats)
	}
}

func TestPlanWithProgress(t *testing.T) {
	job := prunedJob(t)
	defer job.Close()
	type call struct{ done, total, examined uint64 }
	var calls []call
	plan, err := job.PlanWithProgress(10, func(done, total, examined uint64) bool {
		calls = append(calls, call{done, total, examined})
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	first, err := job.Plan(10)
	if err != nil || !reflect.DeepEqual(first, plan) {
		t.Errorf("a callback that goes on changed the plan: %v", err)
	}
	if len(calls) == 0 {
		t.Fatal("progress was not called")
	}
	total := calls[0].total
	if uint64(len(calls)) != total {
		t.Errorf("%d calls for a total of %d", len(calls), total)
	}
	prev := call{}
	for i, c := range calls {
		if c.done != uint64(i+1) || c.total != total || c.examined < prev.examined {
			t.Errorf("call %d: %+v after %+v", i, c, prev)
		}
		prev = c
	}
	if last := calls[len(calls)-1]; last.examined != plan.Stats.Evaluated {
		t.Errorf("last call examined %d, the plan evaluated %d", last.examined, plan.Stats.Evaluated)
	}

	// true stops it, and the callback is not called again.
	seen := uint64(0)
	plan, err = job.PlanWithProgress(10, func(done, _, _ uint64) bool {
		seen = done
		return done == 3
	})
	var e *Error
	if plan != nil || !errors.As(err, &e) || e.Code != ErrCancelled || seen != 3 {
		t.Errorf("cancelled: %+v, %v (called up to %d)", plan, err, seen)
	}
	if ErrCancelled != -11 || StrError(ErrCancelled) != "cancelled by the caller" {
		t.Errorf("StrError(ErrCancelled) = %q", StrError(ErrCancelled))
	}

	// A panic stops it and panics again once the library has returned.
	seen = 0
	func() {
		defer func() {
			if r := recover(); r != "from the callback" || seen != 2 {
				t.Errorf("recovered %v after %d calls", r, seen)
			}
		}()
		_, _ = job.PlanWithProgress(10, func(done, _, _ uint64) bool {
			seen = done
			if done == 2 {
				panic("from the callback")
			}
			return false
		})
		t.Error("no panic")
	}()
	// The job plans again; a nil callback is Plan.
	again, err := job.PlanWithProgress(10, nil)
	if err != nil || !reflect.DeepEqual(again, first) {
		t.Errorf("after the panic: %v", err)
	}
}

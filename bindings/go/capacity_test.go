package trainsize

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
)

// What a server can train: Capacity and CapacityJSON against `trainsize capacity --json` for
// the same GPUs (both come from the library's trainsize_capacity), and the refusals naming
// the option.

var capacityCases = []struct {
	gpu       string
	gpus, seq uint64
}{{"h100-80gb", 8, 2048}, {"rtx-4090", 1, 2048}}

var capacityMethods = []string{"pretraining", "full-fine-tuning", "lora", "qlora", "dpo", "grpo"}

func capacityCommand(t *testing.T, gpu string, gpus, seq uint64) []byte {
	t.Helper()
	return runCommand(t, "capacity", "--json", "--gpu", gpu, "--gpus", fmt.Sprint(gpus), "--seq", fmt.Sprint(seq))
}

func TestCapacityJSONIsTheCommandsText(t *testing.T) {
	trainsizeExe(t)
	for _, c := range capacityCases {
		ours, err := CapacityJSON(c.gpu, c.gpus, 0, c.seq, 1, 0)
		if err != nil {
			t.Fatalf("%d x %s: %v", c.gpus, c.gpu, err)
		}
		if theirs := capacityCommand(t, c.gpu, c.gpus, c.seq); string(ours) != string(theirs) {
			t.Errorf("%d x %s: CapacityJSON\n%s\nthe command\n%s", c.gpus, c.gpu, ours, theirs)
		}
	}
}

func TestCapacityEntriesAreTheCommandsMethods(t *testing.T) {
	trainsizeExe(t)
	for _, c := range capacityCases {
		entries, err := Capacity(c.gpu, c.gpus, 0, c.seq, 1, 0)
		if err != nil {
			t.Fatalf("%d x %s: %v", c.gpus, c.gpu, err)
		}
		want := normalise(t, capacityCommand(t, c.gpu, c.gpus, c.seq))
		if want["gpus"] != float64(c.gpus) {
			t.Errorf("%d x %s: the command's gpus is %v", c.gpus, c.gpu, want["gpus"])
		}
		methods := want["methods"].([]any)
		if len(entries) != len(methods) {
			t.Fatalf("%d x %s: %d entries, the command %d", c.gpus, c.gpu, len(entries), len(methods))
		}
		for i, e := range entries {
			// the entry as the JSON writes it: "model" null when none fits
			var model any = e.Model
			if e.Model == "" {
				model = nil
			}
			got := map[string]any{"method": e.Method, "model": model, "parameters": float64(e.Parameters),
				"tokens_per_s": e.TokensPerS, "peak_total": float64(e.PeakTotal), "args": e.Args}
			if !reflect.DeepEqual(got, methods[i]) {
				t.Errorf("%d x %s: entry %d\n%v\nthe command\n%v", c.gpus, c.gpu, i, got, methods[i])
			}
			if e.Method != capacityMethods[i] || e.Model == "" ||
				!strings.HasPrefix(e.Args, fmt.Sprintf("--model %s --gpu %s --gpus %d ", e.Model, c.gpu, c.gpus)) {
				t.Errorf("%d x %s: entry %d: %+v", c.gpus, c.gpu, i, e)
			}
		}
	}
}

func TestCapacityRefusalsNameTheOption(t *testing.T) {
	cases := []struct {
		name   string
		call   func() error
		code   int
		field  string
		cmdArg []string // the command's options for the same refusal (nil: none)
	}{
		{"gpus 0", func() error { _, err := Capacity("h100-80gb", 0, 0, 2048, 1, 0); return err },
			ErrInvalid, "gpus", []string{"--gpus", "0"}},
		{"unknown gpu", func() error { _, err := CapacityJSON("no-such-gpu", 8, 0, 2048, 1, 0); return err },
			ErrUnknown, "gpu", []string{"--gpu", "no-such-gpu"}},
		{"micro-batch 0", func() error { _, err := Capacity("h100-80gb", 8, 0, 2048, 0, 0); return err },
			ErrInvalid, "micro-batch", []string{"--micro-batch", "0"}},
		{"a NUL in the name", func() error { _, err := Capacity("h100\x00", 8, 0, 2048, 1, 0); return err },
			ErrInvalid, "gpu", nil},
	}
	for _, c := range cases {
		var e *Error
		if err := c.call(); !errors.As(err, &e) || e.Code != c.code || e.Field != c.field ||
			!strings.HasPrefix(e.Message, c.field+": ") {
			t.Errorf("%s: %v (%#v), want code %d naming %q", c.name, err, e, c.code, c.field)
			continue
		}
		exe := os.Getenv("TRAINSIZE_EXE")
		if c.cmdArg == nil || exe == "" {
			continue
		}
		// The command names the same option (its message quotes the text it was given).
		out, err := exec.Command(exe, append([]string{"capacity"}, c.cmdArg...)...).CombinedOutput()
		if err == nil || !strings.HasPrefix(string(out), "trainsize: "+c.field+": ") {
			t.Errorf("%s: the command: %v: %s", c.name, err, out)
		}
	}
}

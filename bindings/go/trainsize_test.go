package trainsize

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// The repository root, for the test data (this package is bindings/go).
var repoRoot = filepath.Join("..", "..")

// setting is one job parameter: a Set call, or the command-line option --name=value.
type setting struct{ name, value string }

// A configuration is the settings, and optionally a Hugging Face config or a GPU file
// (relative to the repository), loaded before them.
type config struct {
	label    string
	hfConfig string
	gpuFile  string
	settings []setting
}

var configs = []config{
	{label: "example", settings: []setting{
		{"model", "llama-2-7b"}, {"gpu", "a100-80gb"}, {"gpus", "8"}, {"zero", "3"},
		{"micro-batch", "1"}, {"seq", "4096"}, {"precision", "bf16-mixed"}}},
	{label: "13b-h100-tp2", settings: []setting{
		{"model", "llama-2-13b"}, {"gpu", "h100-80gb"}, {"gpus", "16"}, {"tp", "2"},
		{"zero", "1"}, {"tokens", "1e10"}}},
	{label: "gpt2-fp32-eager", settings: []setting{
		{"model", "gpt2"}, {"gpu", "rtx-4090"}, {"precision", "fp32"}, {"optimizer", "sgd"},
		{"attention", "eager"}, {"dropout", "0.1"}, {"micro-batch", "4"}, {"seq", "1024"},
		{"framework", "pytorch"}}},
	{label: "70b-does-not-fit", settings: []setting{
		{"model", "llama-2-70b"}, {"gpu", "a100-40gb"}, {"tokens", "2e12"}}},
	{label: "mixtral-ep-pp", settings: []setting{
		{"model", "mixtral-8x7b"}, {"gpu", "h100-80gb"}, {"gpus", "64"}, {"tp", "2"},
		{"pp", "4"}, {"pp-interleave", "2"}, {"ep", "8"}, {"recompute", "full"},
		{"global-batch", "512"}, {"tokens", "1e11"}, {"sp", "true"}}},
	{label: "qlora", settings: []setting{
		{"model", "llama-3-8b"}, {"gpu", "l4"}, {"lora-rank", "16"},
		{"quantize-base", "nf4"}, {"lora-targets", "q,k,v,o"}, {"recompute", "selective"}}},
	{label: "offload-multinode", settings: []setting{
		{"model", "llama-3.1-70b"}, {"gpu", "a100-80gb"}, {"gpus", "32"}, {"zero", "3"},
		{"offload", "optimizer"}, {"network", "eth-100g"}, {"tokens", "1e9"}}},
	{label: "hf-mistral", hfConfig: "tests/data/hf/Mistral-7B-v0.1.json", settings: []setting{
		{"gpu", "h200"}, {"gpus", "8"}, {"zero", "2"}, {"seq", "8192"}}},
	{label: "hf-phi3-shape-override", hfConfig: "tests/data/hf/Phi-3-mini-4k-instruct.json",
		settings: []setting{{"layers", "16"}, {"gpu", "a10"}, {"precision", "fp16-mixed"}}},
	{label: "gpu-file", gpuFile: "tests/data/gpu/my-accelerator.json", settings: []setting{
		{"model", "qwen2.5-7b"}, {"gpus", "4"}, {"zero", "3"}, {"tokens", "5e9"}}},
	// The largest that fits, buying against renting and goodput on a cluster that fails.
	{label: "largest-fit-goodput", settings: []setting{
		{"model", "llama-2-13b"}, {"gpu", "h100-80gb"}, {"gpus", "64"}, {"tp", "2"},
		{"zero", "1"}, {"global-batch", "512"}, {"tokens", "1e11"}, {"largest-fit", "true"},
		{"interruptions-per-gpu-day", "0.01"}, {"checkpoint-async", "true"},
		{"spare-nodes", "1"}, {"dataset-bytes", "2TB"}}},
}

func (c config) args() []string {
	args := []string{"estimate"}
	if c.hfConfig != "" {
		args = append(args, "--hf-config="+filepath.Join(repoRoot, c.hfConfig))
	}
	if c.gpuFile != "" {
		args = append(args, "--gpu-file="+filepath.Join(repoRoot, c.gpuFile))
	}
	for _, s := range c.settings {
		args = append(args, "--"+s.name+"="+s.value)
	}
	return append(args, "--json")
}

// job builds the configuration through the binding; the Hugging Face config is passed
// as bytes when hfBytes is set, else by file name.
func (c config) job(t *testing.T, hfBytes bool) *Job {
	t.Helper()
	job, err := NewJob()
	if err != nil {
		t.Fatalf("NewJob: %v", err)
	}
	t.Cleanup(job.Close)
	if c.hfConfig != "" {
		path := filepath.Join(repoRoot, c.hfConfig)
		if hfBytes {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			err = job.LoadHFConfig(data)
		} else {
			err = job.LoadHFConfigFile(path)
		}
		if err != nil {
			t.Fatalf("%s: load %s: %v", c.label, c.hfConfig, err)
		}
	}
	if c.gpuFile != "" {
		data, err := os.ReadFile(filepath.Join(repoRoot, c.gpuFile))
		if err != nil {
			t.Fatal(err)
		}
		if err := job.LoadGPUJSON(data); err != nil {
			t.Fatalf("%s: load %s: %v", c.label, c.gpuFile, err)
		}
	}
	for _, s := range c.settings {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatalf("%s: Set(%q, %q): %v", c.label, s.name, s.value, err)
		}
	}
	return job
}

// trainsizeExe is the command to compare with, from $TRAINSIZE_EXE; tests that need it
// are skipped without it.
func trainsizeExe(t *testing.T) string {
	t.Helper()
	exe := os.Getenv("TRAINSIZE_EXE")
	if exe == "" {
		t.Skip("TRAINSIZE_EXE is not set: no trainsize command to compare with")
	}
	return exe
}

func runCommand(t *testing.T, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(trainsizeExe(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("trainsize %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// normalise turns every number into a float64, as decoding into any does.
func normalise(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, data)
	}
	return v
}

func TestEstimateMatchesCommand(t *testing.T) {
	trainsizeExe(t)
	for _, c := range configs {
		c := c
		t.Run(c.label, func(t *testing.T) {
			want := runCommand(t, c.args()...)
			for _, hfBytes := range []bool{false, true} {
				if hfBytes && c.hfConfig == "" {
					continue
				}
				est, err := c.job(t, hfBytes).Estimate()
				if err != nil {
					t.Fatalf("Estimate: %v", err)
				}
				got, err := est.JSON()
				if err != nil {
					t.Fatalf("JSON: %v", err)
				}
				g, w := normalise(t, got), normalise(t, want)
				if hfBytes {
					// From bytes the model has no file to be named after.
					g["model"].(map[string]any)["name"] = w["model"].(map[string]any)["name"]
				}
				if !reflect.DeepEqual(g, w) {
					t.Errorf("hf bytes %v: estimate differs from the command's JSON\ngot:  %s\nwant: %s", hfBytes, got, want)
				}
				if !hfBytes && !bytes.Equal(got, want) {
					t.Errorf("JSON text differs from the command's\ngot:\n%s\nwant:\n%s", got, want)
				}
				if !hfBytes {
					checkAccessors(t, est, w)
				}
			}
		})
	}
}

// checkAccessors compares the typed accessors and Fields with the command's JSON.
func checkAccessors(t *testing.T, est *Estimate, w map[string]any) {
	t.Helper()
	lookup := func(path string) any {
		var v any = w
		for _, k := range strings.Split(path, ".") {
			v = v.(map[string]any)[k]
		}
		return v
	}
	num := func(path string) float64 { return lookup(path).(float64) }
	checks := []struct {
		path string
		got  float64
	}{
		{"model.parameters", float64(est.Parameters())},
		{"memory.weights", float64(est.Weights())},
		{"memory.gradients", float64(est.Gradients())},
		{"memory.optimizer", float64(est.Optimizer())},
		{"memory.activations", float64(est.Activations())},
		{"memory.peak_total", float64(est.PeakTotal())},
		{"memory.gpu_capacity", float64(est.GPUCapacity())},
		{"system.nodes", float64(est.Nodes())},
		{"system.gpus_per_node", float64(est.GPUsPerNode())},
		{"system.cost_cloud_usd", est.CostCloudUSD()},
		{"time.seconds", est.Seconds()},
		{"time.steps", float64(est.Steps())},
		{"time.wall_seconds", est.WallSeconds()},
		{"time.goodput", est.Goodput()},
		{"memory.max_micro_batch", float64(est.MaxMicroBatch())},
		{"memory.max_seq", float64(est.MaxSeq())},
		{"system.capex_usd", est.CapexUSD()},
		{"system.breakeven_months", est.BreakevenMonths()},
		{"layout.gpus", float64(est.GPUs())},
		{"layout.data_parallel", float64(est.DataParallel())},
		{"uncertainty.time_low", est.Uncertainty().TimeLow},
		{"uncertainty.time_high", est.Uncertainty().TimeHigh},
		{"uncertainty.memory_low", est.Uncertainty().MemoryLow},
		{"uncertainty.memory_high", est.Uncertainty().MemoryHigh},
	}
	for _, c := range checks {
		if want := num(c.path); c.got != want {
			t.Errorf("accessor of %s = %v, JSON has %v", c.path, c.got, want)
		}
	}
	if est.Fits() != lookup("memory.fits").(bool) {
		t.Errorf("Fits() = %v, JSON has %v", est.Fits(), lookup("memory.fits"))
	}
	if est.Uncertainty().Basis != lookup("uncertainty.basis").(string) {
		t.Errorf("Uncertainty().Basis = %q, JSON has %q", est.Uncertainty().Basis, lookup("uncertainty.basis"))
	}
	if est.ModelName() != lookup("model.name").(string) || est.GPU() != lookup("layout.gpu").(string) {
		t.Errorf("ModelName/GPU = %q/%q", est.ModelName(), est.GPU())
	}
	warnings := []string{}
	for _, x := range lookup("warnings").([]any) {
		warnings = append(warnings, x.(string))
	}
	if !reflect.DeepEqual(est.Warnings(), warnings) {
		t.Errorf("Warnings() = %v, JSON has %v", est.Warnings(), warnings)
	}
	fields, err := est.Fields()
	if err != nil {
		t.Fatalf("Fields: %v", err)
	}
	if len(fields) == 0 {
		t.Fatal("Fields: none")
	}
	for _, f := range fields {
		want := lookup(f.Path)
		var got any
		switch v := f.Value.(type) {
		case uint64:
			got = float64(v)
		case []string:
			l := []any{}
			for _, s := range v {
				l = append(l, s)
			}
			got = l
		default:
			got = v
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("field %s (%s) = %#v, JSON has %#v", f.Path, f.Type, f.Value, want)
		}
		v, ok, err := est.Field(f.Path)
		if err != nil || !ok || !reflect.DeepEqual(v, f.Value) {
			t.Errorf("Field(%q) = %v, %v, %v", f.Path, v, ok, err)
		}
	}
	if _, ok, err := est.Field("no.such.field"); ok || err != nil {
		t.Errorf("Field of an unknown path: ok %v, err %v", ok, err)
	}
}

func TestJSONKeyOrder(t *testing.T) {
	est, err := configs[1].job(t, false).Estimate()
	if err != nil {
		t.Fatal(err)
	}
	data, err := est.JSON()
	if err != nil {
		t.Fatal(err)
	}
	// The first key is the version, then the groups in field-table order.
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, _ := dec.Token(); tok != json.Delim('{') {
		t.Fatalf("JSON does not start with an object: %s", data)
	}
	if tok, _ := dec.Token(); tok != "trainsize_version" {
		t.Fatalf("first key %v, want trainsize_version", tok)
	}
	if tok, _ := dec.Token(); tok != Version() {
		t.Fatalf("trainsize_version %v, want %s", tok, Version())
	}
	fields, err := est.Fields()
	if err != nil {
		t.Fatal(err)
	}
	var groups []string
	seen := map[string]bool{}
	for _, f := range fields {
		g := strings.SplitN(f.Path, ".", 2)[0]
		if !seen[g] {
			seen[g] = true
			groups = append(groups, g)
		}
	}
	var top []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		top = append(top, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	groups = append(groups, "advice") // last, after the result fields
	if !reflect.DeepEqual(top, groups) {
		t.Errorf("top-level keys %v, want %v", top, groups)
	}
}

// asError checks that err is an *Error with the code and, when given, the field.
func asError(t *testing.T, what string, err error, code int, field string) *Error {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: error %v (%T), want *Error", what, err, err)
	}
	if e.Code != code {
		t.Errorf("%s: code %d (%s), want %d (%s)", what, e.Code, e.Message, code, StrError(code))
	}
	if field != "" && e.Field != field {
		t.Errorf("%s: field %q, want %q (%s)", what, e.Field, field, e.Message)
	}
	if e.Message == "" || e.Error() == "" {
		t.Errorf("%s: no message", what)
	}
	return e
}

func TestErrors(t *testing.T) {
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()

	_, err = job.Estimate()
	asError(t, "estimate without a model", err, ErrInvalid, "model")

	asError(t, "unknown parameter", job.Set("no-such-option", "1"), ErrUnknown, "no-such-option")
	asError(t, "unknown model", job.Set("model", "no-such-model"), ErrUnknown, "model")
	asError(t, "unknown choice", job.Set("precision", "fp7"), ErrUnknown, "precision")

	if err := job.Set("seq", "2048"); err != nil {
		t.Fatal(err)
	}
	asError(t, "bad value", job.Set("seq", "abc"), ErrInvalid, "seq")
	asError(t, "out of range", job.Set("zero", "4"), ErrInvalid, "zero")
	asError(t, "NUL in a value", job.Set("seq", "1\x002"), ErrInvalid, "seq")
	asError(t, "NUL in a name", job.Set("s\x00eq", "1"), ErrInvalid, "")
	if v, err := job.Get("seq"); err != nil || v != "2048" {
		t.Errorf("after failed Sets, seq = %q, %v; want 2048 (unchanged)", v, err)
	}
	_, err = job.Get("no-such-option")
	asError(t, "Get of an unknown parameter", err, ErrUnknown, "")

	for _, s := range []setting{{"model", "llama-2-7b"}, {"gpus", "8"}, {"tp", "3"}} {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
	}
	_, err = job.Estimate()
	e := asError(t, "bad layout", err, ErrLayout, "")
	if e.Field == "" {
		t.Errorf("bad layout: no field (%s)", e.Message)
	}

	hf := []struct {
		label string
		json  string
		code  int
	}{
		{"empty", "", ErrParse},
		{"truncated", `{"model_type": "llama", "hidden_size": 40`, ErrParse},
		{"not an object", `[1, 2]`, ErrInvalid},
		{"unknown type", `{"model_type": "no-such-type"}`, ErrUnknown},
	}
	for _, c := range hf {
		err := job.LoadHFConfig([]byte(c.json))
		if err == nil {
			t.Errorf("LoadHFConfig(%s): no error", c.label)
			continue
		}
		var te *Error
		if !errors.As(err, &te) {
			t.Fatalf("LoadHFConfig(%s): %T", c.label, err)
		}
		if te.Code != c.code || te.Field == "" {
			t.Errorf("LoadHFConfig(%s): code %d, field %q (%s), want code %d and a field", c.label,
				te.Code, te.Field, te.Message, c.code)
		}
	}
	for _, name := range []string{"bad-value.json", "missing-key.json"} {
		err := job.LoadHFConfigFile(filepath.Join(repoRoot, "tests", "data", "cli", name))
		e := asError(t, name, err, ErrInvalid, "")
		if e.Field == "" {
			t.Errorf("%s: no field named (%s)", name, e.Message)
		}
	}
	asError(t, "missing file", job.LoadHFConfigFile(filepath.Join(t.TempDir(), "none.json")), ErrIO, "")
	asError(t, "bad GPU JSON", job.LoadGPUJSON([]byte(`{"name": "x"}`)), ErrInvalid, "")

	_, err = job.Plan(-1)
	asError(t, "negative plan capacity", err, ErrArgument, "cap")
	if err := job.Set("tp", "1"); err != nil {
		t.Fatal(err)
	}
	_, err = job.Plan(3)
	asError(t, "plan without tokens", err, ErrInvalid, "")
	asError(t, "apply of an unknown GPU", job.Apply(Candidate{GPU: "no-such-gpu", GPUs: 1}), ErrUnknown, "")

	job.Close()
	job.Close()
	asError(t, "Set on a closed job", job.Set("seq", "1"), ErrArgument, "")
	_, err = job.Estimate()
	asError(t, "Estimate on a closed job", err, ErrArgument, "")
	_, err = job.Clone()
	asError(t, "Clone of a closed job", err, ErrArgument, "")
	var nilJob *Job
	nilJob.Close()
	asError(t, "Set on a nil job", nilJob.Set("seq", "1"), ErrArgument, "")
}

func TestPlanCandidatesMatchEstimates(t *testing.T) {
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	for _, s := range []setting{{"model", "llama-2-7b"}, {"tokens", "1e10"}, {"max-gpus", "64"}} {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
	}
	before, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	plan, err := job.Plan(8)
	if err != nil {
		t.Fatalf("Plan: %v", err)
	}
	if len(plan.Candidates) == 0 || plan.Stats.Feasible == 0 || plan.Stats.Evaluated < plan.Stats.Estimated {
		t.Fatalf("Plan found nothing: %+v", plan.Stats)
	}
	after, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if *before != *after {
		t.Error("Plan changed the job")
	}
	for i, c := range plan.Candidates {
		est, err := appliedEstimate(t, job, i, c)
		if err != nil {
			t.Fatalf("candidate %d (%+v): Estimate: %v", i, c, err)
		}
		if est.GPU() != c.GPU || est.GPUs() != c.GPUs || est.GPUsPerNode() != c.GPUsPerNode ||
			est.PeakTotal() != c.PeakTotal || est.WallSeconds() != c.Seconds ||
			est.CostCloudUSD() != c.Cost || est.WarningBits() != c.Warnings {
			t.Errorf("candidate %d %+v: estimate after Apply: gpu %s x%d (%d/node), peak %d, %v s, $%v, warnings %#x",
				i, c, est.GPU(), est.GPUs(), est.GPUsPerNode(), est.PeakTotal(), est.WallSeconds(),
				est.CostCloudUSD(), est.WarningBits())
		}
		if !est.Fits() {
			t.Errorf("candidate %d does not fit", i)
		}
		// The estimate says which layout it used: the candidate's.
		l := est.Layout()
		if l.TP != c.TP || l.PP != c.PP || l.PPInterleave != c.PPInterleave || l.EP != c.EP ||
			l.Zero != c.Zero || l.MicroBatch != c.MicroBatch || l.GlobalBatch != c.GlobalBatch ||
			l.Recompute != c.Recompute || l.CP != c.CP || l.SP != c.SP {
			t.Errorf("candidate %d %+v: estimate's layout %+v", i, c, l)
		}
	}
	zero, err := job.Plan(0)
	if err != nil || len(zero.Candidates) != 0 || zero.Stats.Evaluated == 0 {
		t.Errorf("Plan(0) = %+v, %v", zero, err)
	}
}

// appliedEstimate is candidate i applied to a clone of job, estimated.
func appliedEstimate(t *testing.T, job *Job, i int, c Candidate) (*Estimate, error) {
	t.Helper()
	clone, err := job.Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer clone.Close()
	if err := clone.Apply(c); err != nil {
		t.Fatalf("candidate %d: Apply: %v", i, err)
	}
	return clone.Estimate()
}

// An RL plan's candidates carry the rollout's tensor parallelism, placement and token
// budget, and Apply sets them: each is the estimate of the job it describes (engines that
// never sleep leave no room beside training, so they run on GPUs of their own).
func TestRLCandidatesApplyTheirRollout(t *testing.T) {
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	for _, s := range []setting{{"model", "qwen2.5-7b"}, {"method", "grpo"}, {"seq", "2048"},
		{"response-tokens", "1024"}, {"global-batch", "256"}, {"tokens", "1e8"}, {"plan-gpus", "h100-80gb"},
		{"plan-gpu-count", "16"}, {"rollout-sleep", "false"}, {"rollout-memory-share", "0.9"},
		{"max-tokens-per-gpu", "4096"}} {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
	}
	plan, err := job.Plan(5)
	if err != nil || len(plan.Candidates) == 0 {
		t.Fatalf("Plan: %+v, %v", plan, err)
	}
	for i, c := range plan.Candidates {
		if c.Rollout != "separate" || c.RolloutGPUs != 8 || c.RolloutTP == 0 || c.MaxTokensPerGPU == 0 {
			t.Errorf("candidate %d: %+v", i, c)
		}
		est, err := appliedEstimate(t, job, i, c)
		if err != nil || est.PeakTotal() != c.PeakTotal || est.WallSeconds() != c.Seconds || !est.Fits() {
			t.Errorf("candidate %d %+v: estimate after Apply: %v", i, c, err)
		}
	}
}

// A candidate's Fields are the plan JSON's candidate, key for key and value for value, and
// Apply keeps its context parallelism and sequence parallelism (long sequences with sp on
// servers of two GPUs: the planner mixes tp 2 with sp and tp 1 without, cp 2 to 4). Without TRAINSIZE_EXE the JSON
// comparison is skipped, the rest still runs.
func TestCandidateFieldsMatchPlanJSON(t *testing.T) {
	args := []setting{{"model", "llama-3-8b"}, {"tokens", "1e11"}, {"max-gpus", "64"},
		{"seq", "32768"}, {"sp", "true"}, {"gpus-per-node", "2"}, {"plan-gpus", "h100-sxm"}}
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	cmd := []string{"plan", "--json", "--gpu", "h100-sxm"}
	for _, s := range args {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
		if s.name != "plan-gpus" {
			cmd = append(cmd, "--"+s.name, s.value)
		}
	}
	plan, err := job.Plan(10)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Candidates) == 0 {
		t.Fatal("no candidates")
	}
	var want struct {
		Candidates []map[string]any `json:"candidates"`
	}
	if os.Getenv("TRAINSIZE_EXE") != "" {
		if err := json.Unmarshal(runCommand(t, cmd...), &want); err != nil {
			t.Fatal(err)
		}
		if len(want.Candidates) != len(plan.Candidates) {
			t.Fatalf("%d candidates, the command %d", len(plan.Candidates), len(want.Candidates))
		}
	}
	withCP, withSP := 0, 0
	for i, c := range plan.Candidates {
		fields, err := c.Fields()
		if err != nil {
			t.Fatal(err)
		}
		if want.Candidates != nil {
			if len(fields) != len(want.Candidates[i]) {
				t.Errorf("candidate %d: %d fields, the JSON %d keys", i, len(fields), len(want.Candidates[i]))
			}
			for _, f := range fields {
				got, _ := json.Marshal(f.Value)
				exp, _ := json.Marshal(want.Candidates[i][f.Path])
				if string(got) != string(exp) {
					t.Errorf("candidate %d: %s = %s, the JSON %s", i, f.Path, got, exp)
				}
			}
		}
		if nodes, ok, err := c.Field("nodes"); !ok || err != nil || nodes != c.GPUs/c.GPUsPerNode {
			t.Errorf("candidate %d: nodes = %v (%v, %v)", i, nodes, ok, err)
		}
		if sp, ok, _ := c.Field("sp"); !ok || sp != c.SP {
			t.Errorf("candidate %d: sp field %v, member %v", i, sp, c.SP)
		}
		if _, ok, _ := c.Field("no-such-key"); ok {
			t.Error("a key the table lacks was found")
		}
		if c.CP > 1 {
			withCP++
		}
		if c.SP {
			withSP++
		}
		clone, err := job.Clone()
		if err != nil {
			t.Fatal(err)
		}
		if err := clone.Apply(c); err != nil {
			t.Fatal(err)
		}
		est, err := clone.Estimate()
		clone.Close()
		if err != nil || est.Layout().CP != c.CP || est.Layout().SP != c.SP || est.WallSeconds() != c.Seconds {
			t.Errorf("candidate %d: cp %d sp %v applied: %+v, %v s, %v", i, c.CP, c.SP, est.Layout(), est.WallSeconds(), err)
		}
	}
	if withCP == 0 || withSP == 0 || withSP == len(plan.Candidates) {
		t.Errorf("%d candidates with cp > 1, %d with sp, of %d: the test checks too little",
			withCP, withSP, len(plan.Candidates))
	}
	bad := plan.Candidates[0]
	bad.GPU = "x\x00y"
	if _, err := bad.Fields(); err == nil {
		t.Error("a GPU name with a NUL was read")
	}
}

func TestVersion(t *testing.T) {
	if v := Version(); v == "" || strings.Count(v, ".") != 2 {
		t.Fatalf("Version() = %q", v)
	}
	parts := strings.Split(Version(), ".")
	n := 0
	for _, p := range parts {
		x, err := strconv.Atoi(p)
		if err != nil {
			t.Fatalf("Version() = %q", Version())
		}
		n = n*100 + x
	}
	if uint(n) != VersionNumber() {
		t.Errorf("VersionNumber() = %d, Version() = %s", VersionNumber(), Version())
	}
	if LibraryABIVersion() != ABIVersion {
		t.Errorf("LibraryABIVersion() = %d", LibraryABIVersion())
	}
	if StrError(ErrLayout) == "" || StrError(12345) == "" {
		t.Error("StrError gives nothing")
	}
	out := strings.TrimSpace(string(runCommand(t, "--version")))
	if want := "trainsize " + Version(); out != want {
		t.Errorf("trainsize --version = %q, want %q", out, want)
	}
}

func TestConcurrentEstimates(t *testing.T) {
	job := configs[4].job(t, false)
	want, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 50; i++ {
				est, err := job.Estimate()
				if err != nil || *est != *want {
					errs <- "concurrent estimate differs"
					return
				}
				if _, err := est.JSON(); err != nil {
					errs <- err.Error()
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestGetAndClone(t *testing.T) {
	job := configs[1].job(t, false)
	for _, s := range configs[1].settings {
		if _, err := job.Get(s.name); err != nil {
			t.Errorf("Get(%q): %v", s.name, err)
		}
	}
	if v, _ := job.Get("tp"); v != "2" {
		t.Errorf("Get(tp) = %q", v)
	}
	clone, err := job.Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer clone.Close()
	if err := clone.Set("tp", "4"); err != nil {
		t.Fatal(err)
	}
	if v, _ := job.Get("tp"); v != "2" {
		t.Errorf("changing the clone changed the job: tp = %q", v)
	}
}

// Jobs that are never closed are freed by their finalizer, without a crash.
func TestFinalizer(t *testing.T) {
	for i := 0; i < 200; i++ {
		job, err := NewJob()
		if err != nil {
			t.Fatal(err)
		}
		if err := job.Set("model", "gpt2"); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
}

// A job that does not fit gets advice; each, applied with Set, fits with its peak.
func TestAdviceMakesTheJobFit(t *testing.T) {
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	for _, kv := range [][2]string{{"model", "llama-2-7b"}, {"gpu", "a100-80gb"}} {
		if err := job.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	est, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	advice := est.Advice()
	if est.Fits() || len(advice) == 0 {
		t.Fatalf("fits %v with %d advice", est.Fits(), len(advice))
	}
	for _, a := range advice {
		changed, err := job.Clone()
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range a.Settings {
			if err := changed.Set(s.Name, s.Value); err != nil {
				t.Fatal(err)
			}
		}
		after, err := changed.Estimate()
		changed.Close()
		if err != nil {
			t.Fatal(err)
		}
		if !after.Fits() || after.PeakTotal() != a.PeakTotal {
			t.Errorf("%v: fits %v, peak %d vs %d", a.Settings, after.Fits(), after.PeakTotal(), a.PeakTotal)
		}
	}
}

// LargestFit is what an estimate with "largest-fit" true reports; the micro-batch it
// gives fits and the next larger one does not.
func TestLargestFit(t *testing.T) {
	c := config{label: "largest-fit", settings: []setting{
		{"model", "llama-2-7b"}, {"gpu", "a100-80gb"}, {"gpus", "8"}, {"zero", "3"}, {"seq", "4096"}}}
	job := c.job(t, false)
	mb, seq, err := job.LargestFit()
	if err != nil || mb == 0 || seq == 0 {
		t.Fatalf("LargestFit = %d, %d, %v", mb, seq, err)
	}
	if err := job.Set("largest-fit", "true"); err != nil {
		t.Fatal(err)
	}
	est, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if est.MaxMicroBatch() != mb || est.MaxSeq() != seq {
		t.Errorf("estimate has %d, %d; LargestFit %d, %d", est.MaxMicroBatch(), est.MaxSeq(), mb, seq)
	}
	for _, try := range []struct {
		mb   uint64
		fits bool
	}{{mb, true}, {mb + 1, false}} {
		if err := job.Set("micro-batch", strconv.FormatUint(try.mb, 10)); err != nil {
			t.Fatal(err)
		}
		if est, err := job.Estimate(); err != nil || est.Fits() != try.fits {
			t.Errorf("micro-batch %d: fits %v, want %v (%v)", try.mb, est.Fits(), try.fits, err)
		}
	}
	bad := config{settings: []setting{{"model", "gpt2"}, {"tp", "2"}, {"gpus", "3"}}}.job(t, false)
	var te *Error
	if _, _, err := bad.LargestFit(); !errors.As(err, &te) || te.Code != ErrLayout {
		t.Errorf("a layout that does not divide: %v", err)
	}
}

// A FIFO given as a config or device file is refused at once, not read: a reader waits
// forever for a writer that never comes.
func TestFIFOFilesAreRefused(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "config.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	for _, hf := range []bool{true, false} {
		var e error
		if hf {
			e = job.LoadHFConfigFile(fifo)
		} else {
			e = job.LoadGPUFile(fifo)
		}
		var te *Error
		if !errors.As(e, &te) || te.Code != ErrIO || !strings.Contains(te.Message, "is a FIFO") {
			t.Fatalf("hf=%v: expected an I/O error naming the FIFO, got %v", hf, e)
		}
	}
}

// A site calibration: applied (the result says so through its field, the step slows with
// a lower GEMM share), a setting after it wins, a bad one refused with the job unchanged.
func TestCalibration(t *testing.T) {
	cal := `{"trainsize_calibration": 1, "library_version": "` + Version() + `", "runs": 3, ` +
		`"gpus": ["a100-80gb"], "settings": {"gemm-share": 0.6}}`
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	for _, s := range []setting{{"model", "llama-2-7b"}, {"gpus", "8"}, {"zero", "3"}} {
		if err := job.Set(s.name, s.value); err != nil {
			t.Fatal(err)
		}
	}
	plain, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if err := job.LoadCalibration([]byte(cal)); err != nil {
		t.Fatal(err)
	}
	got, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := got.Field("layout.calibration"); err != nil || !ok || v != "3 runs on a100-80gb" {
		t.Fatalf("layout.calibration = %v, %v, %v", v, ok, err)
	}
	if got.StepSeconds() <= plain.StepSeconds() {
		t.Fatalf("calibrated step %g, plain %g", got.StepSeconds(), plain.StepSeconds())
	}
	err = job.LoadCalibration([]byte(strings.Replace(cal, "gemm-share", "hfu", 1)))
	if err == nil || !strings.Contains(err.Error(), `"hfu" is not a calibration setting`) {
		t.Fatalf("a bad calibration: %v", err)
	}
	if v, _ := job.Get("gemm-share"); v != "0.6" {
		t.Fatalf("gemm-share after a refused calibration = %q", v)
	}
	if err := job.LoadCalibrationFile("/nonexistent/site.json"); err == nil {
		t.Fatal("a missing file was taken")
	}
}

// Calibrate is the command's: the same text for the same runs, and a job takes it.
func TestCalibrate(t *testing.T) {
	runs := []byte(`{"runs": [{"name": "a", "job": {"model": "llama-3-8b", "gpu": "h100-80gb", "gpus": 8, ` +
		`"zero": 3, "seq": 4096}, "measured": {"step_seconds": 0.7}}, {"job": {"model": "llama-3-8b", ` +
		`"gpu": "h100-80gb", "gpus": 4, "zero": 3, "seq": 4096, "recompute": "full"}, "measured": {"step_seconds": 0.9}}]}`)
	got, err := Calibrate(runs, "2026-12-01")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "runs.json")
	if err := os.WriteFile(path, runs, 0o600); err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(os.Getenv("TRAINSIZE_EXE"), "calibrate", path, "--date", "2026-12-01").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Calibrate:\n%s\nthe command:\n%s", got, want)
	}
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	if err := job.LoadCalibration(got); err != nil {
		t.Fatal(err)
	}
	if _, err := Calibrate([]byte(`[{"job": {"model": "gpt2"}, "measured": {}}]`), ""); err == nil ||
		!strings.Contains(err.Error(), "measured: needs step_seconds") {
		t.Fatalf("a bad run: %v", err)
	}
}

// The library's list of the example job is the one the configurations spell out (and so
// the one bare `trainsize` sizes, which TestEstimateMatchesCommand compares with).
func TestExampleSettings(t *testing.T) {
	var want [][2]string
	for _, s := range configs[0].settings {
		want = append(want, [2]string{s.name, s.value})
	}
	if got := ExampleSettings(); !reflect.DeepEqual(got, want) {
		t.Fatalf("ExampleSettings() = %v, want %v", got, want)
	}
}

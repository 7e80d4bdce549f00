package trainsize

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// Checkpoints: a model found in a Hugging Face cache laid out as huggingface_hub writes it,
// counted from its safetensors headers, as the command's --hf-model, --revision and
// --safetensors do (tests/cli_checkpoint.sh builds the same cache).

const (
	ckCommit      = "0123456789abcdef0123456789abcdef01234567"
	ckOtherCommit = "89abcdef0123456789abcdef0123456789abcdef"
	// A tiny Llama (hidden 64, ffn 128, 2 layers, 4 heads, 2 kv heads, vocab 256).
	ckConfig = `{"model_type": "llama", "hidden_size": 64, "intermediate_size": 128,
 "num_hidden_layers": 2, "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 256,
 "max_position_embeddings": 2048, "rms_norm_eps": 1e-5, "tie_word_embeddings": false}`
)

type ckTensor struct {
	name  string
	shape []uint64
}

// ckTensors are the tiny Llama's tensors as LlamaForCausalLM names them, and a value head
// of head parameters its config does not describe.
func ckTensors(head uint64) []ckTensor {
	t := []ckTensor{{"model.embed_tokens.weight", []uint64{256, 64}}, {"model.norm.weight", []uint64{64}},
		{"lm_head.weight", []uint64{256, 64}}, {"v_head.summary.weight", []uint64{1, head}}}
	for layer := 0; layer < 2; layer++ {
		for _, m := range []ckTensor{{"self_attn.q_proj", []uint64{64, 64}}, {"self_attn.k_proj", []uint64{32, 64}},
			{"self_attn.v_proj", []uint64{32, 64}}, {"self_attn.o_proj", []uint64{64, 64}},
			{"mlp.gate_proj", []uint64{128, 64}}, {"mlp.up_proj", []uint64{128, 64}},
			{"mlp.down_proj", []uint64{64, 128}}, {"input_layernorm", []uint64{64}},
			{"post_attention_layernorm", []uint64{64}}} {
			t = append(t, ckTensor{fmt.Sprintf("model.layers.%d.%s.weight", layer, m.name), m.shape})
		}
	}
	return t
}

// writeCheckpoint writes config.json and model.safetensors (BF16; the data sparse, headers
// only) in dir and returns the parameters the header lists.
func writeCheckpoint(t *testing.T, dir string, head uint64) uint64 {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	header := map[string]any{}
	var offset uint64
	for _, x := range ckTensors(head) {
		n := uint64(2)
		for _, d := range x.shape {
			n *= d
		}
		header[x.name] = map[string]any{"dtype": "BF16", "shape": x.shape, "data_offsets": []uint64{offset, offset + n}}
		offset += n
	}
	text, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(ckConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	binary.Write(&buf, binary.LittleEndian, uint64(len(text)))
	buf.Write(text)
	f, err := os.Create(filepath.Join(dir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(buf.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(int64(buf.Len()) + int64(offset)); err != nil {
		t.Fatal(err)
	}
	return offset / 2
}

// ckCache is a hub cache holding org/tiny at ckCommit (refs/main; a 64-parameter value
// head) and at ckOtherCommit (refs/v2; 128), and the same checkpoint in a folder outside.
type ckCache struct {
	hub, snapshot, outside string
	parameters             uint64
}

func newCkCache(t *testing.T) ckCache {
	t.Helper()
	root := t.TempDir()
	c := ckCache{hub: filepath.Join(root, "hub"), outside: filepath.Join(root, "outside")}
	repo := filepath.Join(c.hub, "models--org--tiny")
	c.snapshot = filepath.Join(repo, "snapshots", ckCommit)
	c.parameters = writeCheckpoint(t, c.snapshot, 64)
	writeCheckpoint(t, filepath.Join(repo, "snapshots", ckOtherCommit), 128)
	writeCheckpoint(t, c.outside, 64)
	if err := os.MkdirAll(filepath.Join(repo, "refs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for ref, commit := range map[string]string{"main": ckCommit, "v2": ckOtherCommit} {
		if err := os.WriteFile(filepath.Join(repo, "refs", ref), []byte(commit), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

func TestHFSnapshotFollowsRefsAndCommitIDs(t *testing.T) {
	c := newCkCache(t)
	t.Setenv("HF_HUB_CACHE", c.hub)
	if dir, ok := HFHubCache(); !ok || dir != c.hub {
		t.Errorf("HFHubCache: %q %v, want %q", dir, ok, c.hub)
	}
	if dir, err := HFSnapshot("org/tiny", ""); err != nil || dir != c.snapshot {
		t.Errorf("HFSnapshot main: %q %v, want %q", dir, err, c.snapshot)
	}
	for _, rev := range []string{"v2", ckOtherCommit} {
		if dir, err := HFSnapshotIn(c.hub, "org/tiny", rev); err != nil || filepath.Base(dir) != ckOtherCommit {
			t.Errorf("HFSnapshotIn %s: %q %v", rev, dir, err)
		}
	}
}

func TestHFSnapshotUnknownIDOrRevision(t *testing.T) {
	c := newCkCache(t)
	_, err := HFSnapshotIn(c.hub, "org/absent", "")
	e := asError(t, "unknown id", err, ErrUnknown, "hf-model")
	if !strings.Contains(e.Message, "org/absent") || !strings.Contains(e.Message, "models--org--absent") {
		t.Errorf("unknown id: %q does not name the id and the folder searched", e.Message)
	}
	_, err = HFSnapshotIn(c.hub, "org/tiny", "v9")
	if e := asError(t, "unknown revision", err, ErrUnknown, "revision"); !strings.Contains(e.Message, `"v9"`) {
		t.Errorf("unknown revision: %q does not name it", e.Message)
	}
	_, err = HFSnapshotIn(c.hub, "../../etc", "")
	asError(t, "malformed id", err, ErrInvalid, "hf-model")
	_, err = HFSnapshotIn(c.hub, "org/ti\x00ny", "")
	asError(t, "a NUL in the id", err, ErrInvalid, "hf-model")
}

func TestLoadCheckpointLetsTheHeadersWin(t *testing.T) {
	c := newCkCache(t)
	job, err := NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	ck, err := job.LoadCheckpoint(c.snapshot, "org/tiny")
	if err != nil {
		t.Fatal(err)
	}
	// The value head (1 x 64) is beyond what config.json describes.
	want := Checkpoint{Parameters: c.parameters, Bytes: 2 * c.parameters, Tensors: uint64(len(ckTensors(64))),
		Files: 1, DType: "BF16", ConfigParameters: c.parameters - 64, ExtraParameters: 64,
		Groups: tinyGroups(c.parameters)}
	// Which tensors: the value head, not the final norm of as many (beside the layers).
	want.Groups[4].Unexplained = 64
	if !reflect.DeepEqual(ck, want) || ck.HoldsFewer() {
		t.Errorf("LoadCheckpoint: %+v, want %+v", ck, want)
	}
	est, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	if est.ModelName() != "org/tiny" || est.ExtraParameters() != 64 || est.Parameters() != c.parameters ||
		est.ExtraTensors() != "v_head.summary 64" {
		t.Errorf("estimate: %s, %d extra of %d (%q)", est.ModelName(), est.ExtraParameters(), est.Parameters(),
			est.ExtraTensors())
	}
}

// The tiny checkpoint's tensors by prefix, the most first (ties by name).
func tinyGroups(parameters uint64) []CheckpointGroup {
	return []CheckpointGroup{
		{Name: "model.layers.#", Parameters: parameters - 2*256*64 - 2*64, Tensors: 18, Layers: 2},
		{Name: "lm_head", Parameters: 256 * 64, Tensors: 1},
		{Name: "model.embed_tokens", Parameters: 256 * 64, Tensors: 1},
		{Name: "model.norm", Parameters: 64, Tensors: 1},
		{Name: "v_head.summary", Parameters: 64, Tensors: 1},
	}
}

// The same job as the command's --hf-model (a shape override after it), byte for byte.
func TestHFModelMatchesCommand(t *testing.T) {
	exe := trainsizeExe(t)
	c := newCkCache(t)
	for _, rev := range []string{"", "v2"} {
		args := []string{"estimate", "--json", "--hf-model", "org/tiny", "--gpu", "a100-80gb", "--layers", "4"}
		if rev != "" {
			args = append(args, "--revision", rev)
		}
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "HF_HUB_CACHE="+c.hub)
		want, err := cmd.Output()
		if err != nil {
			t.Fatalf("trainsize %v: %v", args, err)
		}
		dir, err := HFSnapshotIn(c.hub, "org/tiny", rev)
		if err != nil {
			t.Fatal(err)
		}
		job, err := NewJob()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := job.LoadCheckpoint(dir, "org/tiny"); err != nil {
			t.Fatal(err)
		}
		for _, s := range []setting{{"gpu", "a100-80gb"}, {"layers", "4"}} {
			if err := job.Set(s.name, s.value); err != nil {
				t.Fatal(err)
			}
		}
		est, err := job.Estimate()
		if err != nil {
			t.Fatal(err)
		}
		got, err := est.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("revision %q: JSON differs from the command's\ngot:\n%s\nwant:\n%s", rev, got, want)
		}
		job.Close()
	}
}

func TestSetCheckpointFromCountsAgainstTheModelSet(t *testing.T) {
	c := newCkCache(t)
	job := config{settings: []setting{{"model", "llama-2-7b"}}}.job(t, false)
	before, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	// A preset's shape holds more than the tiny checkpoint: the shape's count stays.
	ck, err := job.SetCheckpointFrom(filepath.Join(c.snapshot, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	if !ck.HoldsFewer() || ck.ExtraParameters != 0 || ck.Parameters != c.parameters {
		t.Errorf("fewer: %+v", ck)
	}
	if after, err := job.Estimate(); err != nil || after.Parameters() != before.Parameters() {
		t.Errorf("fewer: the shape's count changed: %v", err)
	}
	// The folder's own config.json as the model: 64 beyond it.
	job, err = NewJob()
	if err != nil {
		t.Fatal(err)
	}
	defer job.Close()
	if err := job.LoadHFConfigFile(filepath.Join(c.outside, "config.json")); err != nil {
		t.Fatal(err)
	}
	if ck, err := job.SetCheckpointFrom(c.outside); err != nil || ck.ExtraParameters != 64 {
		t.Errorf("folder: %+v %v", ck, err)
	}
}

func TestCorruptHeadersLeaveTheJobUnchanged(t *testing.T) {
	c := newCkCache(t)
	file := filepath.Join(c.snapshot, "model.safetensors")
	job := config{settings: []setting{{"model", "llama-2-7b"}, {"extra-params", "5"}}}.job(t, false)
	before, err := job.Estimate()
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte("\xff\xff\xff\xff\x00\x00\x00\x00{}"), 0o644) // a length past the end
	_, err = job.SetCheckpointFrom(file)
	if e := asError(t, "length past the end", err, ErrInvalid, "safetensors"); !strings.Contains(e.Message, "model.safetensors") {
		t.Errorf("%q does not name the file", e.Message)
	}
	os.WriteFile(file, []byte("\x03\x00\x00\x00\x00\x00\x00\x00{x]"), 0o644) // not JSON
	_, err = job.LoadCheckpoint(c.snapshot, "org/tiny")
	asError(t, "not JSON", err, ErrParse, "safetensors")
	_, err = ReadCheckpoint(filepath.Join(c.hub, "absent.safetensors"))
	asError(t, "missing file", err, ErrIO, "safetensors")
	if after, err := job.Estimate(); err != nil || *after != *before {
		t.Errorf("a failed load changed the job (%v)", err)
	}
	var te *Error
	if _, err := (&Job{}).LoadCheckpoint(c.snapshot, ""); !errors.As(err, &te) || te.Code != ErrArgument {
		t.Errorf("a closed job: %v", err)
	}
}

func TestReadCheckpointCountsAFileAndAFolder(t *testing.T) {
	c := newCkCache(t)
	file, err := ReadCheckpoint(filepath.Join(c.outside, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	folder, err := ReadCheckpoint(c.outside)
	if err != nil {
		t.Fatal(err)
	}
	want := Checkpoint{Parameters: c.parameters, Bytes: 2 * c.parameters, Tensors: uint64(len(ckTensors(64))),
		Files: 1, DType: "BF16", Groups: tinyGroups(c.parameters)}
	if !reflect.DeepEqual(file, want) || !reflect.DeepEqual(folder, want) {
		t.Errorf("file %+v, folder %+v, want %+v", file, folder, want)
	}
}

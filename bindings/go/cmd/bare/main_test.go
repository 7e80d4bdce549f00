package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"reflect"
	"testing"
)

// The output equals the bare command's `trainsize --json`, as parsed structures and as text.
func TestBareMatchesCommand(t *testing.T) {
	exe := os.Getenv("TRAINSIZE_EXE")
	if exe == "" {
		t.Skip("TRAINSIZE_EXE is not set: no trainsize command to compare with")
	}
	want, err := exec.Command(exe, "--json").Output()
	if err != nil {
		t.Fatalf("trainsize --json: %v", err)
	}
	var got bytes.Buffer
	if err := run(&got); err != nil {
		t.Fatalf("run: %v", err)
	}
	var g, w map[string]any
	if err := json.Unmarshal(got.Bytes(), &g); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, got.Bytes())
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("the command's JSON is invalid: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("differs from trainsize --json\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("text differs from trainsize --json\ngot:\n%s\nwant:\n%s", got.Bytes(), want)
	}
}

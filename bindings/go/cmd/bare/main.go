// Command bare prints, as JSON, the estimate of the built-in example job that the bare
// `trainsize` command sizes (the library lists it: trainsize_example_setting): the same text as
// `trainsize --json`.
package main

import (
	"fmt"
	"io"
	"os"

	"libtrainsize.invalid/trainsize"
)

// exampleJob is the command's built-in example job, setting by setting.
var exampleJob = [][2]string{
	{"model", "llama-2-7b"},
	{"gpu", "a100-80gb"},
	{"gpus", "8"},
	{"zero", "3"},
	{"micro-batch", "1"},
	{"seq", "4096"},
	{"precision", "bf16-mixed"},
}

func run(w io.Writer) error {
	job, err := trainsize.NewJob()
	if err != nil {
		return err
	}
	defer job.Close()
	for _, s := range exampleJob {
		if err := job.Set(s[0], s[1]); err != nil {
			return err
		}
	}
	est, err := job.Estimate()
	if err != nil {
		return err
	}
	data, err := est.JSON()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bare:", err)
		os.Exit(1)
	}
}

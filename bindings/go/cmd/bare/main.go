// Command bare prints, as JSON, the estimate of the built-in example job that the bare
// `trainsize` command sizes (trainsize.ExampleSettings): the same text as `trainsize --json`.
package main

import (
	"fmt"
	"io"
	"os"

	"libtrainsize.invalid/trainsize"
)

func run(w io.Writer) error {
	job, err := trainsize.NewJob()
	if err != nil {
		return err
	}
	defer job.Close()
	for _, s := range trainsize.ExampleSettings() {
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

package trainsize_test

import (
	"fmt"
	"log"

	"libtrainsize.invalid/trainsize"
)

// The built-in example job of the bare `trainsize` command.
func Example() {
	job, err := trainsize.NewJob()
	if err != nil {
		log.Fatal(err)
	}
	defer job.Close()
	for _, s := range [][2]string{
		{"model", "llama-2-7b"}, {"gpu", "a100-80gb"}, {"gpus", "8"}, {"zero", "3"},
		{"micro-batch", "1"}, {"seq", "4096"}, {"precision", "bf16-mixed"},
	} {
		if err := job.Set(s[0], s[1]); err != nil {
			log.Fatal(err)
		}
	}
	est, err := job.Estimate()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(est.ModelName(), est.Parameters(), est.GPU(), est.GPUs(), est.Fits())
	// Output: llama-2-7b 6738415616 a100-80gb 8 true
}

// Every failure is an *Error naming the field.
func ExampleError() {
	job, err := trainsize.NewJob()
	if err != nil {
		log.Fatal(err)
	}
	defer job.Close()
	err = job.Set("micro-batch", "zero")
	if e, ok := err.(*trainsize.Error); ok {
		fmt.Println(e.Code == trainsize.ErrInvalid, e.Field)
	}
	// Output: true micro-batch
}

#!/usr/bin/env python3
"""Size the built-in example job of `trainsize` (no arguments) through the Python binding.

Prints the estimate as JSON: the same object as `trainsize --json` prints (the command with
no job options sizes this job; the C library lists it: trainsize_example_setting), then, on standard error,
a short summary.

    LIBTRAINSIZE=build/libtrainsize.so python3 bindings/python/example.py
"""

import json
import sys

import trainsize

# The built-in example job, as the library lists it (trainsize_example_setting).
EXAMPLE_JOB = dict(
    model="llama-2-7b",
    gpu="a100-80gb",
    gpus=8,
    zero=3,
    micro_batch=1,
    seq=4096,
    precision="bf16-mixed",
)


def main():
    r = trainsize.estimate(**EXAMPLE_JOB)
    json.dump(r.to_dict(), sys.stdout, indent=2)
    sys.stdout.write("\n")
    gib = 1 << 30
    print("%s on %d x %s: %.2f GiB of %.2f GiB per GPU (%s), one step %.2f s"
          % (r.model.name, r.layout.gpus, r.layout.gpu, r.memory.peak_total / gib,
             r.memory.gpu_capacity / gib, "fits" if r.memory.fits else "does not fit",
             r.time.step_seconds), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

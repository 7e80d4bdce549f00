#!/usr/bin/env python3
"""Size the built-in example job of `trainsize` (no arguments) through the Python binding.

Prints the estimate as JSON: the same object as `trainsize --json` prints (the command with
no job options sizes this job; ``trainsize.example_settings()`` lists it), then, on standard
error, a short summary.

    LIBTRAINSIZE=build/libtrainsize.so python3 bindings/python/example.py
"""

import json
import sys

import trainsize

def main():
    # The built-in example job, setting by setting (model="llama-2-7b", gpu="a100-80gb",
    # gpus="8", ...): the keywords take the parameters' names and text values as they are.
    r = trainsize.estimate(**dict(trainsize.example_settings()))
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

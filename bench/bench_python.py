"""Speed of the Python binding: estimate(**kw), estimate(**kw).to_dict() and the import.

Run with the built library:
    LIBTRAINSIZE=build/libtrainsize.so PYTHONPATH=bindings/python python3 bench/bench_python.py

Each figure is the best of several rounds (the least disturbed by other work on the
machine), with the garbage collector on, as a caller has it. The jobs are those the C
benchmark times first: one GPU that fits, and a multi-GPU ZeRO-3 job.
"""

import os
import subprocess
import sys
import tempfile
import time

JOBS = {
    "gpt2 (1 GPU)": dict(model="gpt2"),
    "llama-2-7b zero-3 on 8 x A100": dict(model="llama-2-7b", gpu="a100-80gb", gpus=8,
                                          zero=3, micro_batch=1, seq=2048),
}
ROUNDS, CALLS = 7, 20000


def best_us(call):
    for _ in range(1000):
        call()
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(CALLS):
            call()
        best = min(best, (time.perf_counter() - start) / CALLS)
    return best * 1e6


def import_ms(cached):
    """`import trainsize` beyond `import ctypes`, in a fresh interpreter each time: with the
    bytecode compiled once beforehand (as after pip install), in a cache outside the tree,
    or compiled on every import (PYTHONDONTWRITEBYTECODE, a read-only checkout)."""
    code = ("import time, ctypes; t = time.perf_counter(); import trainsize; "
            "print(time.perf_counter() - t)")
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as cache:
        if cached:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = cache
            subprocess.check_output([sys.executable, "-c", code], env=env)  # writes the cache
        else:
            env["PYTHONDONTWRITEBYTECODE"] = "1"
        runs = [float(subprocess.check_output([sys.executable, "-c", code], env=env))
                for _ in range(9)]
    return min(runs) * 1e3, sorted(runs)[len(runs) // 2] * 1e3


def main():
    import trainsize
    print("libtrainsize %s, Python %s" % (trainsize.version(), sys.version.split()[0]))
    for name, kw in JOBS.items():
        assert trainsize.estimate(**kw).memory.fits, name  # no fit advice in the timing
        e = best_us(lambda: trainsize.estimate(**kw))
        d = best_us(lambda: trainsize.estimate(**kw).to_dict())
        print("%-32s estimate %5.2f us   estimate + to_dict %5.2f us" % (name, e, d))
    for cached, how in ((True, "bytecode cached"), (False, "compiled each time")):
        best, median = import_ms(cached)
        print("import trainsize (beyond ctypes), %s: best %.1f ms, median %.1f ms" % (how, best, median))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Leave-one-source-out: every constant fitted on the published-throughput fixtures, refitted
without each source in turn, predicts that source; the held-out error is the figure that
counts (docs/accuracy.md, "Fitted constants, left out one source at a time").

The fixtures: tests/accuracy/fixtures/time.json (large pretraining runs), stacks.json (today's
stacks), images_encoders.json (ResNets and BERT). A source is the public place a row comes
from: its GitHub repository, arXiv paper, MLPerf Training (all submitters' results together)
or web site. Each constant is a setting of the library, so a refit is a set of option values:

  gemm-share         every transformer row's matmuls           (default 0.77)
  torchtitan         torchtitan's GEMM factor (gemm-share x it on its rows; 0.70)
  gpu-variation      every multi-GPU row                       (0.03)
  fp8 torchao        fp8-gemm-share of torchao's float8        (0.62)
  fp8 fine           the fine-grained recipes' factor on it    (0.89)
  moe-imbalance      dropless MoE rows                         (1.3)
  conv shares        each architecture's and math's conv-share, and the NCHW traffic
                     (memory-format's), on the ResNet rows

The fit minimises the mean over sources of each source's median |log(predicted/measured)|,
so that no source's many rows outweigh the others. It runs the library through the Python
binding (LIBTRAINSIZE, else libtrainsize.so beside the command given).

    python3 tests/accuracy/loso.py build/programs/trainsize     # prints the tables
"""

import collections
import json
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.join(HERE, "fixtures")


def load_binding(binary):
    if "LIBTRAINSIZE" not in os.environ:
        lib = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(binary))), "libtrainsize.so")
        os.environ["LIBTRAINSIZE"] = lib
    sys.path.insert(0, os.path.join(HERE, "..", "..", "bindings", "python"))
    import trainsize  # noqa: E402
    return trainsize


def source_key(url):
    m = re.search(r"github\.com/([^/]+)/([^/#?]+)", url or "")
    if m:
        repo = (m.group(1) + "/" + m.group(2)).lower()
        return "MLPerf Training" if repo.startswith("mlcommons/training_results") else repo
    m = re.search(r"arxiv\.org/abs/([0-9.]+)", url or "")
    if m:
        return "arXiv " + m.group(1)
    m = re.search(r"https?://([^/]+)", url or "")
    return m.group(1) if m else "unknown"


def rows():
    out = []
    for name, group, figure, unit in (("time.json", "pretraining runs", "tokens_per_s_per_gpu", "tokens"),
                                      ("stacks.json", "today's stacks", "tokens_per_s_per_gpu", "tokens"),
                                      ("images_encoders.json", None, "samples_per_s_per_gpu", "samples")):
        with open(os.path.join(FIXTURES, name)) as f:
            for r in json.load(f)["rows"]:
                if "excluded" in r:
                    continue
                out.append(dict(id=r["id"], fixture=name, group=group or r["group"], source=source_key(r.get("url")),
                                settings=r["settings"], measured=r[figure], unit=unit))
    return out


class Model:
    """The library at a set of fitted constants."""

    TT0 = 0.70

    def __init__(self, ts, rows):
        self.ts = ts
        self.rows = rows
        self.stack = {}
        for r in rows:  # the stack auto resolves to for each row, once
            e = self._estimate(r, {})
            self.stack[r["id"]] = e["layout"]["stack"] if e else ""

    def _estimate(self, r, extra):
        kw = {k.replace("-", "_"): v for k, v in r["settings"].items()}
        kw.update({k.replace("-", "_"): v for k, v in extra.items()})
        try:
            return self.ts.estimate(**kw).to_dict()
        except Exception:  # a refused row is reported as missing, not fatal
            return None

    def extra(self, r, P):
        s, st = r["settings"], self.stack[r["id"]]
        if s.get("model", "").startswith("resnet"):
            e = {"gpu-variation": P["gpu-variation"]}
            key = conv_key(s)
            if key in P:
                e["conv-share"] = P[key]
            return e
        e = {"gemm-share": P["gemm-share"] * (P["torchtitan"] / self.TT0 if st == "torchtitan" else 1.0),
             "gpu-variation": P["gpu-variation"]}
        if s.get("precision") == "fp8-mixed":
            fine = s.get("fp8-recipe") in ("blockwise", "rowwise")
            base = 1.0 if st in ("megatron-core", "megatron-lm") else P["fp8 torchao"]
            e["fp8-gemm-share"] = base * (P["fp8 fine"] if fine else 1.0)
        if "moe-imbalance" not in s:
            e["moe-imbalance"] = P["moe-imbalance"]
        return e

    def log_error(self, r, P):
        e = self._estimate(r, self.extra(r, P))
        if not e:
            return None
        gb, g = e["layout"]["global_batch"], int(r["settings"].get("gpus", "1"))
        per = gb * (int(r["settings"].get("seq", "2048")) if r["unit"] == "tokens" else 1)
        return math.log(per / e["time"]["step_seconds"] / g / r["measured"])


def conv_key(settings):
    """The conv-share a ResNet row's GPU and math take: 'conv <arch> <math>' (kernels.c's table)."""
    p = settings.get("precision", "bf16-mixed")
    if p == "fp32":
        return "conv fp32"
    return "conv %s %s" % (arch_family(settings.get("gpu", "a100-80gb")), "tf32" if p == "tf32" else "16-bit")


def arch_family(gpu):
    g = gpu.lower()
    if g.startswith("v100"):
        return "Volta"
    if g.startswith(("h100", "h200", "h20", "gh200")):
        return "Hopper"
    if g.startswith(("b200", "gb200", "b300", "gb300", "rtx-pro-6000", "rtx-5090")):
        return "Blackwell"
    if g.startswith(("a10", "a40", "rtx-a6000", "rtx-30")) and not g.startswith("a100"):
        return "GA10x"
    if g.startswith(("rtx-40", "rtx-6000-ada", "l40", "l4")):
        return "Ada"
    return "Ampere"  # the A100


DEFAULTS = {"gemm-share": 0.77, "torchtitan": 0.70, "gpu-variation": 0.03, "fp8 torchao": 0.62,
            "fp8 fine": 0.89, "moe-imbalance": 1.3,
            "conv Volta 16-bit": 1.0, "conv Ampere 16-bit": 0.65, "conv Hopper 16-bit": 0.63,
            "conv Blackwell 16-bit": 0.07, "conv GA10x 16-bit": 1.24, "conv Ada 16-bit": 1.25,
            "conv GA10x tf32": 0.43, "conv Ada tf32": 0.66, "conv Ampere tf32": 0.338, "conv Hopper tf32": 0.25,
            "conv Blackwell tf32": 0.122, "conv fp32": 1.12}
BOUNDS = {"gemm-share": (0.4, 1.2), "torchtitan": (0.3, 1.3), "gpu-variation": (0.0, 0.15),
          "fp8 torchao": (0.3, 1.3), "fp8 fine": (0.4, 1.3), "moe-imbalance": (1.0, 2.5)}
# a convolution share is held at 1.25: above it the convolutions hide under the element-wise work


def fallback(P, key, keys_trained):
    """A constant no remaining source moves (a conv share fitted on one source): what the
    fit says of the other architectures of its math, their geometric mean (a prediction
    for an architecture the fit has not seen); with none, the GEMM ceiling itself (1: a
    convolution as fast as a transformer's GEMMs, the model before the fit)."""
    math_ = key.split()[-1]
    others = [P[k] for k in keys_trained if k.startswith("conv") and k.split()[-1] == math_ and k != key]
    return math.exp(statistics.mean(math.log(v) for v in others)) if others else 1.0


def loss(model, rows, P):
    by = collections.defaultdict(list)
    for r in rows:
        e = model.log_error(r, P)
        if e is not None:
            by[r["source"]].append(abs(e))
    return statistics.mean(statistics.median(v) for v in by.values()) if by else 0.0


def fit(model, rows, P0, keys, sweeps=8):
    """Coordinate descent on a log scale (gpu-variation on a linear one), each within bounds."""
    P, step = dict(P0), {k: 0.12 for k in keys}
    cur = loss(model, rows, P)
    for _ in range(sweeps):
        for k in keys:
            lo, hi = BOUNDS.get(k, (0.02, 1.25))
            for sgn in (1, -1):
                v = P[k] + sgn * step[k] * 0.02 if k == "gpu-variation" else P[k] * (1 + sgn * step[k])
                Q = dict(P)
                Q[k] = min(hi, max(lo, v))
                q = loss(model, rows, Q)
                if q < cur - 1e-6:
                    cur, P = q, Q
                    break
            else:
                step[k] *= 0.5
    return P


def affected(r, key):
    s = r["settings"]
    cnn = s.get("model", "").startswith("resnet")
    if key.startswith("conv"):
        return cnn and conv_key(s) == key
    if cnn:
        return key == "gpu-variation" and int(s.get("gpus", "1")) > 1
    if key == "gpu-variation":
        return int(s.get("gpus", "1")) > 1
    if key.startswith("fp8"):
        return s.get("precision") == "fp8-mixed" and (key != "fp8 fine" or s.get("fp8-recipe") in ("blockwise", "rowwise"))
    if key == "moe-imbalance":
        return "moe-imbalance" not in s and any(w in s.get("model", "") for w in ("mixtral", "moe", "a3b", "a22b", "deepseek", "gpt-oss", "scout")) or "experts" in s
    return True


def run(binary):
    ts = load_binding(binary)
    R = rows()
    model = Model(ts, R)
    keys = [k for k in DEFAULTS if any(affected(r, k) for r in R)]
    full = fit(model, R, DEFAULTS, keys)
    fitted = {k: full[k] for k in keys}
    # each source left out in turn: every constant refitted on the others (warm-started)
    held = {}
    for src in sorted(set(r["source"] for r in R)):
        train = [r for r in R if r["source"] != src]
        test = [r for r in R if r["source"] == src]
        ks = [k for k in keys if any(affected(r, k) for r in test) and any(affected(r, k) for r in train)]
        P = fit(model, train, full, ks, sweeps=3) if ks else dict(full)
        trained = [k for k in keys if any(affected(r, k) for r in train)]
        for k in keys:
            if k not in trained:
                P[k] = fallback(P, k, trained)
        for r in test:
            held[r["id"]] = model.log_error(r, P)
    at_defaults = {r["id"]: model.log_error(r, DEFAULTS) for r in R}
    return R, fitted, held, at_defaults, keys


def table(R, fitted, held, at_defaults):
    lines = ["| constant | default (the library's) | fitted on all sources | sources it moves |",
             "|---|---:|---:|---:|"]
    for k, v in fitted.items():
        srcs = len(set(r["source"] for r in R if affected(r, k)))
        lines.append("| %s | %g | %.3g | %d |" % (k, DEFAULTS[k], v, srcs))
    lines += ["", "| fixture, group | rows | sources | median \\|error\\| at the defaults | held-out median "
              "(each source predicted by the fit without it) | held-out worst |", "|---|---:|---:|---:|---:|---:|"]
    groups = collections.OrderedDict()
    for r in R:
        groups.setdefault((r["fixture"], r["group"]), []).append(r)
    for (fx, g), rs in groups.items():
        d = [abs(math.exp(at_defaults[r["id"]]) - 1) for r in rs if at_defaults[r["id"]] is not None]
        h = [abs(math.exp(held[r["id"]]) - 1) for r in rs if held.get(r["id"]) is not None]
        lines.append("| `%s`, %s | %d | %d | %.1f %% | %.1f %% | %.1f %% |" % (
            fx, g, len(rs), len(set(r["source"] for r in rs)), 100 * statistics.median(d), 100 * statistics.median(h),
            100 * max(h)))
    lines += ["", "| source | rows | held-out median | held-out worst |", "|---|---:|---:|---:|"]
    by = collections.defaultdict(list)
    for r in R:
        if held.get(r["id"]) is not None:
            by[r["source"]].append(abs(math.exp(held[r["id"]]) - 1))
    for s, v in sorted(by.items(), key=lambda x: -len(x[1])):
        lines.append("| %s | %d | %.1f %% | %.1f %% |" % (s, len(v), 100 * statistics.median(v), 100 * max(v)))
    return "\n".join(lines)


def markdown(binary):
    R, fitted, held, at_defaults, _ = run(binary)
    L = ["## Fitted constants, left out one source at a time", ""]
    L.append("Every constant the library fits on the published-throughput fixtures (time.json, "
             "stacks.json, images_encoders.json) is refitted with each source left out in turn, "
             "and that fit predicts the source's rows (`tests/accuracy/loso.py`). A source is the "
             "public place a row comes from: a GitHub repository, an arXiv paper, MLPerf Training "
             "(all its submitters together) or a web site. The fit minimises the mean over sources "
             "of each source's median |log(predicted / measured)|, so that a source with many rows "
             "does not outweigh the others. A constant that only the left-out source moves (a "
             "convolution share measured on one source) takes, for that prediction, the geometric "
             "mean of the other architectures' fitted shares of its math, or 1 (the GEMM ceiling) "
             "when none: what the library would say of an architecture it has not seen. The "
             "held-out median is the figure that counts and the one a result's uncertainty comes "
             "from. The first table is the fit on all sources, against the library's defaults; "
             "the attention curves (FlashAttention-2 and -3, fitted to the kernels' own published "
             "benchmarks), the step's synchronisation (0.02 s) and the launch cost (10 us) are not "
             "fitted on these fixtures.")
    L.append("")
    L += table(R, fitted, held, at_defaults).split("\n")
    L.append("")
    return L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/programs/trainsize"
    R, fitted, held, at_defaults, _ = run(binary)
    print(table(R, fitted, held, at_defaults))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Compare libtrainsize and four peer estimators with measured training memory.

Reads every fixture in tests/accuracy/fixtures/*.json, runs `trainsize estimate --json`
on each configuration's settings, evaluates the peers' published formulas
(tests/accuracy/peers.py) and writes docs/accuracy.md and docs/accuracy.png.

    python3 tests/accuracy/report.py [TRAINSIZE]      # default: build/programs/trainsize

Standard library + matplotlib (Agg) only.  The output is deterministic: same fixtures
and same trainsize give byte-identical files.
"""

import argparse
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import peers  # noqa: E402
import public  # noqa: E402
import published_time  # noqa: E402
import published_stacks  # noqa: E402
import published_images  # noqa: E402
import published_post_training  # noqa: E402
import loso  # noqa: E402
import calibration_split  # noqa: E402
import bands  # noqa: E402

MIB = 1024.0 * 1024.0
BAND = 0.05  # the +-5 % band in the picture
TOOLS = ["libtrainsize"] + [name for name, _ in peers.PEERS]

# (row label, key in the normalised "measured" dict / the tools' dicts)
TERMS = [
    ("weights", "weights"),
    ("gradients", "gradients"),
    ("optimizer state", "optimizer"),
    ("model state (w + g + o)", "model_state"),
    ("activations: model forward", "act_model"),
    ("activations: loss", "act_loss"),
    ("activations (saved for backward)", "activations"),
    ("total (model state + activations)", "total"),
]
GPU_TERMS = [
    ("peak allocated", "peak_allocated"),
    ("peak total (driver view)", "peak_total"),
]
PUBLIC_LINES = []  # the published-runs section, filled by main() from public.py
TIME_LINES = []  # the published training times, filled by main() from published_time.py
STACK_LINES = []  # the published runs on today's stacks, from published_stacks.py
IMAGE_LINES = []  # image classifiers and encoders, from published_images.py
POST_LINES = []  # RL post-training checks, from published_post_training.py
LOSO_LINES = []  # every fitted constant left out one source at a time, from loso.py
CALIBRATION_LINES = []  # a site calibration on held-out runs, from calibration_split.py
BAND_LINES = []  # the result's uncertainty bands, from bands.py
PLOT_TERMS = [("activations", "activations"), ("model state (weights + gradients + optimizer)",
                                               "model_state")]


# --------------------------------------------------------------------------
# Fixtures: normalise both formats to {name, settings, measured{term: bytes}, params, buffers}
# --------------------------------------------------------------------------
def _sum_or_none(*vals):
    return None if any(v is None for v in vals) else sum(vals)


def _measured_terms(m):
    w, g, o = m.get("weights"), m.get("gradients"), m.get("optimizer")
    m["model_state"] = _sum_or_none(w, g, o)
    m["total"] = _sum_or_none(m["model_state"], m.get("activations"))
    return m


def load_cpu_style(data):
    """measure_cpu.py format: configs[] with `settings` (trainsize options) and `measured`."""
    out = []
    for c in data.get("configs", []):
        if "error" in c or "measured" not in c:
            continue
        ms = c["measured"]
        m = _measured_terms({
            "weights": ms.get("parameter_bytes"),
            "gradients": ms.get("gradient_bytes"),
            "optimizer": ms.get("optimizer_state_bytes"),
            "act_model": ms.get("saved_bytes_model"),
            "act_loss": ms.get("saved_bytes_loss"),
            "activations": ms.get("saved_bytes_total"),
        })
        params = ms.get("parameter_count")
        if params is None:  # fp32 storage of parameters (fp32 and bf16-mixed runs)
            per = 2 if c["settings"].get("precision") in ("bf16", "fp16") else 4
            params = ms["parameter_bytes"] // per
        out.append({"name": c["name"], "settings": dict(c["settings"]), "measured": m,
                    "params": int(params), "buffer_bytes": int(ms.get("buffer_bytes", 0)),
                    "notes": c.get("notes", "")})
    return out


CUDA_PRECISION = {"fp32": "fp32", "bf16_autocast": "bf16-mixed", "bf16_pure": "bf16"}
CUDA_OPTIMIZER = {"adamw": "adamw", "adamw_fused": "adamw", "sgd_momentum": "sgd-momentum"}
CUDA_ATTENTION = {"eager": "eager", "sdpa": "flash"}


def load_cuda_style(data):
    """measure_cuda.py format (tests/accuracy/README.md): configs[] with `shape`, `model`,
    `saved_for_backward`, `step2`, `step3`, `optimizer_state`."""
    gpu = (data.get("environment", {}).get("gpu_name") or "").lower()
    out = []
    for c in data.get("configs", []):
        if "error" in c or "step3" not in c:
            continue
        sh = c["shape"]
        gpt2 = sh["model_type"] == "gpt2"
        settings = {
            "layers": sh["layers"], "hidden": sh["hidden"], "heads": sh["heads"],
            "kv-heads": sh["kv_heads"], "ffn": sh["ffn"], "vocab": sh["vocab"],
            "positions": sh["max_positions"] if gpt2 else 0,
            "tie-embeddings": "true" if sh["tied_embeddings"] else "false",
            "gated-mlp": "false" if gpt2 else "true", "norm": sh["norm"],
            "bias": "all" if gpt2 else "none", "seq": sh["seq"], "micro-batch": sh["micro_batch"],
            "precision": CUDA_PRECISION[sh["precision"]],
            "optimizer": CUDA_OPTIMIZER[sh["optimizer"]], "framework": "pytorch",
            "attention": CUDA_ATTENTION[sh["attn"]],
            "recompute": "full" if sh.get("grad_ckpt") else "none", "dropout": 0, "gpus": 1,
        }
        if "h200" in gpu:
            settings["gpu"] = "h200"
        settings = {k: str(v) for k, v in settings.items()}
        sfb = c.get("saved_for_backward", {})
        act_model = sfb.get("model_forward", {}).get("bytes")
        act_loss = sfb.get("loss", {}).get("bytes")
        act = sfb.get("total_bytes")
        if sh.get("grad_ckpt"):  # the hooks do not see inside checkpointed layers (README)
            act_model = None
            act = c["step2"].get("alloc_delta_after_forward_bytes")
        s3 = c["step3"]
        m = _measured_terms({
            "weights": c["model"]["parameter_bytes"],
            "gradients": c["step2"].get("gradient_bytes"),
            "optimizer": c.get("optimizer_state", {}).get("device_bytes"),
            "act_model": act_model, "act_loss": act_loss, "activations": act,
        })
        m["peak_allocated"] = s3.get("peak_allocated_bytes")
        if s3.get("peak_reserved_bytes") is not None and \
                s3.get("driver_used_minus_reserved_bytes") is not None:
            m["peak_total"] = s3["peak_reserved_bytes"] + s3["driver_used_minus_reserved_bytes"]
        out.append({"name": "%s (%s)" % (c["name"], c["id"]), "settings": settings,
                    "measured": m, "params": int(c["model"]["parameter_count"]),
                    "buffer_bytes": int(c["model"].get("buffer_bytes", 0))})
    return out


def load_fixtures(directory):
    fixtures = []
    for path in sorted(glob.glob(os.path.join(directory, "*.json"))):
        with open(path) as f:
            data = json.load(f)
        if "rows" in data:  # published runs: public.py compares them
            continue
        cfgs = data.get("configs", [])
        cuda = bool(cfgs) and "shape" in cfgs[0]
        configs = load_cuda_style(data) if cuda else load_cpu_style(data)
        fixtures.append({"id": os.path.splitext(os.path.basename(path))[0],
                         "path": os.path.relpath(path, ROOT), "data": data, "cuda": cuda,
                         "configs": sorted(configs, key=lambda c: c["name"])})
    return fixtures


# --------------------------------------------------------------------------
# Estimates
# --------------------------------------------------------------------------
def run_trainsize(binary, settings):
    args = [binary, "estimate", "--json"]
    for k in sorted(settings):
        args += ["--" + k, str(settings[k])]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("report.py: %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr.strip()))
    return json.loads(r.stdout)


def libtrainsize_terms(out):
    mem = out["memory"]
    w = mem["weights"] + mem.get("master_weights", 0)
    g, o, a = mem["gradients"], mem["optimizer"], mem["activations"]
    loss = mem.get("activations_loss")
    return {"weights": w, "gradients": g, "optimizer": o, "model_state": w + g + o,
            "act_model": None if loss is None else a - loss, "act_loss": loss,
            "activations": a, "total": w + g + o + a,
            "peak_allocated": mem["peak_allocated"], "peak_total": mem["peak_total"]}


def estimates(binary, cfg):
    out = run_trainsize(binary, cfg["settings"])
    job = peers.job_from_settings(cfg["settings"], cfg["params"])
    if cfg["buffer_bytes"] and cfg["buffer_bytes"] != peers.hf_buffers(job):
        print("report.py: %s: measured buffers %d B, peers.hf_buffers %d B"
              % (cfg["name"], cfg["buffer_bytes"], peers.hf_buffers(job)), file=sys.stderr)
    est = {"libtrainsize": libtrainsize_terms(out)}
    for name, terms in peers.all_peers(job):
        est[name] = dict(terms, peak_allocated=terms.get("peak"))
    return est, out.get("trainsize_version", "?")


def err(pred, meas):
    if pred is None or meas is None or meas == 0:
        return None
    return 100.0 * (pred - meas) / meas


# --------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------
def mib(v):
    return "%.2f" % (v / MIB)


def pct(e, signed=True):
    if abs(e) < 0.05:
        return "0.0 %"
    return ("%+.1f %%" if signed else "%.1f %%") % e


def cell(pred, meas):
    if pred is None:
        return "—"
    e = err(pred, meas)
    return mib(pred) if e is None else "%s (%s)" % (mib(pred), pct(e))


def config_table(cfg, est, terms):
    head = "| term | measured | " + " | ".join(TOOLS) + " |"
    lines = [head, "|---|" + "---:|" * (len(TOOLS) + 1)]
    for label, key in terms:
        meas = cfg["measured"].get(key)
        if meas is None and all(est[t].get(key) is None for t in TOOLS):
            continue
        row = [label, "—" if meas is None else mib(meas)]
        row += [cell(est[t].get(key), meas) for t in TOOLS]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def worst_errors(fixture, results, terms):
    """{term key: {tool: (|err|, config name)}} over the fixture's configurations."""
    worst = {}
    for cfg in fixture["configs"]:
        est = results[(fixture["id"], cfg["name"])]
        for _, key in terms:
            for tool in TOOLS:
                e = err(est[tool].get(key), cfg["measured"].get(key))
                if e is None:
                    continue
                cur = worst.setdefault(key, {}).get(tool)
                if cur is None or abs(e) > cur[0] + 1e-12:
                    worst[key][tool] = (abs(e), cfg["name"])
    return worst


def summary_table(fixture, results, terms):
    worst = worst_errors(fixture, results, terms)
    lines = ["| term | " + " | ".join(TOOLS) + " | libtrainsize's worst config |",
             "|---|" + "---:|" * len(TOOLS) + "---|"]
    for label, key in terms:
        if key not in worst:
            continue
        row = [label]
        for tool in TOOLS:
            w = worst[key].get(tool)
            row.append("—" if w is None else pct(w[0], signed=False))
        lt = worst[key].get("libtrainsize")
        row.append("—" if lt is None or lt[0] < 0.05 else "`%s`" % lt[1])
        lines.append("| " + " | ".join(row) + " |")
    return lines


def settings_line(s):
    return ", ".join("`%s %s`" % (k, s[k]) for k in sorted(s))


def fixture_env(fx):
    d = fx["data"]
    if fx["cuda"]:
        env = d.get("environment", {})
        keys = ["gpu_name", "torch", "cuda", "transformers", "python", "platform"]
        return ", ".join("%s %s" % (k, env[k]) for k in keys if env.get(k))
    parts = ["torch %s" % d.get("torch_version", "?"), "Python %s" % d.get("python", "?")]
    m = d.get("machine", {})
    if m.get("cpu"):
        parts.append("CPU: %s (%s logical CPUs, %s torch threads)"
                     % (m["cpu"], m.get("logical_cpus", "?"), m.get("torch_num_threads", "?")))
    if m.get("platform"):
        parts.append(m["platform"])
    checks = d.get("hook_self_checks", [])
    if checks:
        ok = sum(1 for c in checks if str(c.get("pass")) == "true")
        parts.append("saved-tensor hook self-checks passed: %d of %d" % (ok, len(checks)))
    prof = [c["measured"].get("profiler_minus_expected_bytes") for c in d.get("configs", [])
            if "measured" in c]
    if prof and all(p is not None for p in prof):
        parts.append("profiler cross-check (forward with no hooks): %d of %d configurations "
                     "differ from the hook count by 0 bytes" % (sum(1 for p in prof if p == 0), len(prof)))
    return "; ".join(parts)


def write_markdown(path, fixtures, results, version, binary_label):
    cpu = [f for f in fixtures if not f["cuda"]]
    cuda = [f for f in fixtures if f["cuda"]]
    L = []
    L.append("# Accuracy: libtrainsize and peer estimators against measured training memory")
    L.append("")
    L.append("*Generated by `tests/accuracy/report.py` from the fixtures in `tests/accuracy/fixtures/` "
             "and trainsize %s. Do not edit by hand; see [How to regenerate](#how-to-regenerate).*"
             % version)
    L.append("")
    L.append("## What was measured, and how")
    L.append("")
    L.append("Each configuration is a small causal-LM training job whose memory was measured in "
             "PyTorch, byte-exactly, by the harnesses in `tests/accuracy/` (`measure_cpu.py` for the "
             "CPU fixture, `measure_cuda.py` for GPU fixtures; methods and fields in "
             "`tests/accuracy/README.md`):")
    L.append("")
    L.append("- **weights**, **gradients**, **optimizer state**: Σ bytes of the parameters, of "
             "`p.grad` after backward, and of the distinct tensors in `optimizer.state`;")
    L.append("- **activations**: the bytes of the distinct tensors that autograd saves for backward "
             "(`torch.autograd.graph.saved_tensors_hooks`; parameters not counted), split into the "
             "model forward and the loss;")
    L.append("- **total**: model state + activations (a sum of terms, not an allocator peak).")
    L.append("")
    L.append("Fixtures read:")
    L.append("")
    if not fixtures:
        L.append("- none (no `tests/accuracy/fixtures/*.json` present)")
    for fx in fixtures:
        L.append("- `%s`: %d configurations; %s" % (fx["path"], len(fx["configs"]), fixture_env(fx)))
    L.append("")
    L.append("libtrainsize's figures are `trainsize estimate --json` run with each configuration's "
             "settings (listed under each table); its *weights* are `memory.weights + "
             "memory.master_weights`, its *activations: loss* `memory.activations_loss`, its "
             "*activations: model forward* `memory.activations − memory.activations_loss`.")
    L.append("")
    L.append("**Read this as a calibration, not a blind validation.** The CPU fixture is the data "
             "the PyTorch conventions were fitted to: where the first comparison missed (it was "
             "off by up to 48 % on one term), the per-tensor breakdown in the fixture showed "
             "why, and each cause became a named setting or a corrected term (per-linear input "
             "casts under autocast; CPU against CUDA autocast op lists, `--autocast-ops`; "
             "dropout masks at the input's width on CPU, `--dropout-mask-bytes`; torch 1.13's "
             "`mean()` keeping its input, `--mean-keeps-input`; residual dropout and fused "
             "projections per model lineage; the causal mask kept by checkpointing). No "
             "tolerance was widened. What the agreement shows is that the term-by-term model "
             "accounts for every saved tensor of these implementations; how well its CUDA "
             "defaults hold on a GPU is open until a GPU fixture exists (below).")
    L.append("")
    L.append("The peers are their published formulas (`tests/accuracy/peers.py`, transcribed from "
             "each tool's source at the commit named in docs/methodology.md), for one GPU and no parallelism:")
    L.append("")
    L.append("- **llm-analysis** (@d841e40): its defaults — weights in the activation dtype, "
             "fp32 gradients, 12 B/param Adam state (8 for SGD with momentum via other_op_bytes=4), "
             "LayerNorm inputs in fp32; the non-flash branch (eager attention), softmax_dropout off; "
             "its own parameter count (no biases, no position embeddings, shared embedding).")
    L.append("- **Megatron-LM** `theoretical_memory_usage` (@00caa53a): 18 B/param (no "
             "distributed optimizer; split 2 + 4 + 12: fp16 weights, fp32 gradients, fp32 master weights and Adam moments), activations "
             "sbh(10 + 24/t)·L + 8sb + sbh + 2(sbV + sbh), × 1.05 (no 5as/h term, full recompute "
             "not modelled).")
    L.append("- **DeepSpeed** `estimate_zero2_model_states_mem_needs` (@02aa38c3), no offload, "
             "1 GPU: 2P + 18P = 20 B/param (DeepSpeed ships no ZeRO-0 estimator); model states only.")
    L.append("- **accelerate** `estimate-memory` (@00e4d264): \"Training using Adam\" = 4× the "
             "fp32 model size (fp32) or 2× (16-bit), buffers included; no activations, so its "
             "total is that figure.")
    L.append("")
    L.append("Megatron, DeepSpeed and accelerate use the measured model's true parameter count. "
             "Sizes are MiB (2^20 bytes); an error is (estimate − measured) / measured. "
             "— : not modelled (or not measured).")
    L.append("")
    if fixtures:
        L.append("![predicted / measured per configuration](accuracy.png)")
        L.append("")
    for fx in cpu:
        L.append("## Per configuration: `%s`" % fx["path"])
        L.append("")
        for cfg in fx["configs"]:
            est = results[(fx["id"], cfg["name"])]
            L.append("### %s" % cfg["name"])
            L.append("")
            L.append(settings_line(cfg["settings"]))
            L.append("")
            if cfg.get("notes"):
                L.append("*Measured: %s.*" % cfg["notes"].rstrip("."))
                L.append("")
            L += config_table(cfg, est, TERMS)
            L.append("")
    L.append("## Summary: worst |error| across configurations")
    L.append("")
    if not cpu:
        L.append("No CPU fixture present.")
        L.append("")
    for fx in cpu:
        L.append("`%s`, %d configurations:" % (fx["path"], len(fx["configs"])))
        L.append("")
        L += summary_table(fx, results, TERMS)
        L.append("")
    L.append("## GPU (CUDA) measurements")
    L.append("")
    if not cuda:
        L.append("**None exist yet.** The H200 harness `tests/accuracy/measure_cuda.py` is written "
                 "but has not run: no GPU was lent in this session, so there is no "
                 "`tests/accuracy/fixtures/cuda_*.json`. Everything above was measured on CPU, "
                 "where the allocator, the CUDA context, cuBLAS workspaces and kernel-specific "
                 "buffers do not exist. libtrainsize's `memory.peak_allocated` and "
                 "`memory.peak_total`, and its overhead defaults (`--cuda-context`, "
                 "`--allocator-slack`, `--comm-buffer`), are therefore **not yet validated "
                 "against a measurement**.")
        L.append("")
    for fx in cuda:
        L.append("### `%s`" % fx["path"])
        L.append("")
        L.append("Peak allocated: `step3.peak_allocated_bytes` (`torch.cuda.max_memory_allocated()` "
                 "over one step). Peak total: `step3.peak_reserved_bytes + "
                 "step3.driver_used_minus_reserved_bytes` (the allocator's reserved peak plus "
                 "context and library memory). With gradient checkpointing the activations are "
                 "`step2.alloc_delta_after_forward_bytes`.")
        L.append("")
        for cfg in fx["configs"]:
            est = results[(fx["id"], cfg["name"])]
            L.append("#### %s" % cfg["name"])
            L.append("")
            L.append(settings_line(cfg["settings"]))
            L.append("")
            L += config_table(cfg, est, TERMS + GPU_TERMS)
            L.append("")
        L.append("Worst |error| across the %d configurations:" % len(fx["configs"]))
        L.append("")
        L += summary_table(fx, results, TERMS + GPU_TERMS)
        L.append("")
    L += PUBLIC_LINES
    L += TIME_LINES
    L += STACK_LINES
    L += IMAGE_LINES
    L += POST_LINES
    L += LOSO_LINES
    L += BAND_LINES
    L += CALIBRATION_LINES
    L.append("## How to regenerate")
    L.append("")
    L.append("```sh")
    L.append("cmake -S . -B build && cmake --build build      # builds build/programs/trainsize")
    L.append("# CPU measurements (needs torch; Debian's python3-torch works):")
    L.append("/usr/bin/python3 tests/accuracy/measure_cpu.py --out tests/accuracy/fixtures/cpu.json")
    L.append("# GPU measurements, on a CUDA machine (see tests/accuracy/README.md):")
    L.append("# python3 tests/accuracy/measure_cuda.py --out tests/accuracy/fixtures/cuda_<gpu>.json")
    L.append("python3 tests/accuracy/peers.py                 # peer formulas vs their published numbers")
    L.append("/usr/bin/python3 tests/accuracy/report.py build/programs/trainsize")
    L.append("                                                 # writes docs/accuracy.md, docs/accuracy.png")
    L.append("                                                 # and docs/accuracy-public.png")
    L.append("```")
    L.append("")
    L.append("`report.py` needs Python 3 with matplotlib (Debian: `apt-get install python3-matplotlib`); "
             "its output depends only on the fixtures and on trainsize.")
    with open(path, "w") as f:
        f.write("\n".join(L) + "\n")


# --------------------------------------------------------------------------
# Picture
# --------------------------------------------------------------------------
MARKERS = {"libtrainsize": ("o", "#d62728"), "llm-analysis": ("s", "#1f77b4"),
           "Megatron": ("^", "#2ca02c"), "DeepSpeed": ("D", "#9467bd"),
           "accelerate": ("v", "#8c564b")}


def write_png(path, fixtures, results):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "libtrainsize"
    import matplotlib.pyplot as plt

    rows = [(fx, cfg) for fx in fixtures for cfg in fx["configs"]]
    labels = [("%s: %s" % (fx["id"], cfg["name"])) if len(fixtures) > 1 else cfg["name"]
              for fx, cfg in rows]
    n = max(len(rows), 1)
    fig, axes = plt.subplots(len(PLOT_TERMS), 1, figsize=(max(8.0, 0.75 * n + 4.0), 8.5),
                             sharex=True, dpi=90)
    width = 0.75
    for ax, (title, key) in zip(axes, PLOT_TERMS):
        ax.axhspan(1 - BAND, 1 + BAND, color="#2ca02c", alpha=0.15, lw=0)
        ax.axhline(1.0, color="black", lw=0.8)
        lo, hi = 1 - BAND, 1 + BAND
        for ti, tool in enumerate(TOOLS):
            xs, ys = [], []
            for i, (fx, cfg) in enumerate(rows):
                meas = cfg["measured"].get(key)
                pred = results[(fx["id"], cfg["name"])][tool].get(key)
                if meas and pred is not None:
                    xs.append(i - width / 2 + width * (ti + 0.5) / len(TOOLS))
                    ys.append(pred / meas)
            if not xs:
                continue
            lo, hi = min(lo, min(ys)), max(hi, max(ys))
            mk, col = MARKERS.get(tool, ("x", "gray"))
            ax.scatter(xs, ys, marker=mk, color=col, s=46 if tool == "libtrainsize" else 34,
                       zorder=3 if tool == "libtrainsize" else 2,
                       edgecolors="black" if tool == "libtrainsize" else "none", linewidths=0.6)
        ax.set_yscale("log")
        ax.set_ylim(lo / 1.15, hi * 1.15)
        cand = (0.9, 0.95, 1.0, 1.05, 1.1) if hi / lo < 1.4 else \
            (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 5, 10, 20)
        ticks = [t for t in cand if lo / 1.15 <= t <= hi * 1.15]
        ax.set_yticks(ticks)
        ax.set_yticklabels(["%g" % t for t in ticks])
        ax.minorticks_off()
        ax.set_ylabel("estimate / measured")
        ax.set_title(title, fontsize=11)
        ax.grid(axis="y", color="#cccccc", lw=0.5)
        for i in range(1, n):
            ax.axvline(i - 0.5, color="#e0e0e0", lw=0.6)
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    handles = [Line2D([], [], ls="none", marker=MARKERS[t][0], color=MARKERS[t][1],
                      markeredgecolor="black" if t == "libtrainsize" else MARKERS[t][1],
                      markersize=7, label=t) for t in TOOLS]
    handles.append(Patch(color="#2ca02c", alpha=0.15, label="±%d %%" % round(100 * BAND)))
    axes[0].legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9,
                   frameon=False)
    axes[-1].set_xticks(range(len(rows)))
    axes[-1].set_xticklabels(labels, rotation=35, ha="right", fontsize=8.5)
    axes[-1].set_xlim(-0.6, n - 0.4)
    fig.suptitle("Training memory: estimate / measured per configuration (1 = exact)", fontsize=12)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)


# --------------------------------------------------------------------------
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trainsize", nargs="?", default="build/programs/trainsize",
                    help="path of the trainsize binary (default: build/programs/trainsize, "
                         "relative to the repository root)")
    ap.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"),
                    help="folder of fixture JSON files (default: tests/accuracy/fixtures)")
    ap.add_argument("--md", default=os.path.join(ROOT, "docs", "accuracy.md"))
    ap.add_argument("--png", default=os.path.join(ROOT, "docs", "accuracy.png"))
    args = ap.parse_args()

    binary = args.trainsize
    if not os.path.isabs(binary) and not os.path.exists(binary):
        binary = os.path.join(ROOT, binary)
    if not os.access(binary, os.X_OK):
        sys.exit("report.py: no trainsize binary at %s (build it, or pass its path)" % args.trainsize)

    fixtures = load_fixtures(args.fixtures)
    results, version = {}, "?"
    for fx in fixtures:
        for cfg in fx["configs"]:
            results[(fx["id"], cfg["name"])], version = estimates(binary, cfg)
    public_rows = public.compare(binary)
    PUBLIC_LINES[:] = public.markdown(public_rows, "accuracy-public.png")
    TIME_LINES[:] = published_time.markdown(published_time.compare(binary))
    STACK_LINES[:] = published_stacks.markdown(published_stacks.compare(binary))
    IMAGE_LINES[:] = published_images.markdown(published_images.compare(binary))
    POST_LINES[:] = published_post_training.markdown(published_post_training.compare(binary))
    LOSO_LINES[:] = loso.markdown(binary)
    BAND_LINES[:] = bands.markdown(binary)
    CALIBRATION_LINES[:] = calibration_split.markdown(calibration_split.compare(binary))
    write_markdown(args.md, fixtures, results, version, args.trainsize)
    public.write_png(os.path.join(os.path.dirname(args.png), "accuracy-public.png"), public_rows)
    write_png(args.png, fixtures, results)
    print("wrote %s and %s (%d fixtures, %d configurations)"
          % (os.path.relpath(args.md), os.path.relpath(args.png), len(fixtures),
             sum(len(f["configs"]) for f in fixtures)))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Measure what a training step stores, on the CPU, for libtrainsize's accuracy fixtures.

Builds small GPT-2-style and Llama-style models (tests/accuracy/models.py, faithful copies of
Hugging Face's eager modules, because `transformers` is not installed here), trains each one for
two steps on the CPU, and records exact byte counts:

  parameter_bytes        sum of numel * element size over the distinct parameters (tied once)
  gradient_bytes         sum of p.grad bytes after backward
  optimizer_state_bytes  distinct tensor storages in optimizer.state after a real step
  saved_bytes_*          bytes of the distinct storages autograd saved for backward, counted with
                         torch.autograd.graph.saved_tensors_hooks; parameter and buffer storages
                         are left out; gradient checkpointing's held layer inputs are added

Step 1 measures (hooks, then backward and optimizer.step). Step 2 repeats the forward under the
CPU profiler with no hooks at all, as an independent check of the saved-bytes count: the net
bytes that the forward + loss allocated and did not free (with the logits dropped) must equal
the hooks' total less the saved storages that existed before the forward (input ids, targets),
plus the 4-byte loss, plus checkpointing's RNG-state copies.

    /usr/bin/python3 tests/accuracy/measure_cpu.py --out tests/accuracy/fixtures/cpu.json

Needs only torch (Debian's python3-torch 1.13 works). See tests/accuracy/README.md.
"""

import argparse
import contextlib
import gc
import json
import math
import os
import platform
import sys
import time
import traceback

import torch
import torch.nn.functional as F
import torch.utils.checkpoint

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import models  # noqa: E402

SCHEMA = "libtrainsize-measured-cpu/1"
TOP_N = 12

# --------------------------------------------------------------------------------------------
# Configurations
# --------------------------------------------------------------------------------------------
GPT2_A = dict(arch="gpt2", layers=2, hidden=128, heads=4, kv_heads=4, ffn=512, vocab=1024,
              positions=512, tied=True, micro_batch=2, seq=64)
GPT2_B = dict(arch="gpt2", layers=4, hidden=256, heads=8, kv_heads=8, ffn=1024, vocab=5000,
              positions=512, tied=True, micro_batch=4, seq=128)
GPT2_C = dict(arch="gpt2", layers=3, hidden=192, heads=6, kv_heads=6, ffn=768, vocab=2048,
              positions=512, tied=True, micro_batch=2, seq=256)
GPT2_D = dict(arch="gpt2", layers=2, hidden=256, heads=4, kv_heads=4, ffn=1024, vocab=3000,
              positions=512, tied=True, micro_batch=3, seq=192)
LLAMA_A = dict(arch="llama", layers=2, hidden=128, heads=4, kv_heads=2, ffn=344, vocab=1024,
               positions=0, tied=False, micro_batch=2, seq=64)
LLAMA_B = dict(arch="llama", layers=4, hidden=256, heads=8, kv_heads=2, ffn=688, vocab=5000,
               positions=0, tied=False, micro_batch=4, seq=128)
LLAMA_C = dict(arch="llama", layers=3, hidden=192, heads=6, kv_heads=6, ffn=512, vocab=3000,
               positions=0, tied=True, micro_batch=2, seq=256)
LLAMA_D = dict(arch="llama", layers=2, hidden=256, heads=4, kv_heads=2, ffn=688, vocab=4096,
               positions=0, tied=False, micro_batch=3, seq=192)


def _cfg(name, base, **over):
    c = dict(base)
    c.update(dict(precision="fp32", optimizer="adamw", recompute="none", dropout="0"))
    c.update(over)
    c["name"] = name
    return c


CONFIGS = [
    _cfg("gpt2-2l-128-fp32", GPT2_A),
    _cfg("gpt2-4l-256-fp32", GPT2_B),
    _cfg("gpt2-4l-256-bf16", GPT2_B, precision="bf16-mixed"),
    _cfg("gpt2-4l-256-fp32-ckpt", GPT2_B, recompute="full"),
    _cfg("gpt2-3l-192-fp32-drop-sgd", GPT2_C, dropout="0.1", optimizer="sgd-momentum"),
    _cfg("gpt2-2l-256-bf16-ckpt", GPT2_D, precision="bf16-mixed", recompute="full"),
    _cfg("llama-2l-128-gqa-fp32", LLAMA_A),
    _cfg("llama-4l-256-gqa-fp32", LLAMA_B),
    _cfg("llama-4l-256-gqa-bf16", LLAMA_B, precision="bf16-mixed"),
    _cfg("llama-4l-256-gqa-fp32-ckpt", LLAMA_B, recompute="full"),
    _cfg("llama-4l-256-gqa-bf16-ckpt", LLAMA_B, precision="bf16-mixed", recompute="full"),
    _cfg("llama-3l-192-mha-tied-fp32-sgd", LLAMA_C, optimizer="sgd-momentum"),
    _cfg("llama-2l-256-gqa-fp32-drop", LLAMA_D, dropout="0.1"),
]


def torch_version_tuple():
    """(major, minor) of the running torch."""
    parts = torch.__version__.split("+")[0].split(".")
    return int(parts[0]), int("".join(ch for ch in parts[1] if ch.isdigit()) or 0)


def settings_of(c):
    """libtrainsize option name -> string value, describing the same job."""
    s = {
        "layers": str(c["layers"]),
        "hidden": str(c["hidden"]),
        "heads": str(c["heads"]),
        "kv-heads": str(c["kv_heads"]),
        "ffn": str(c["ffn"]),
        "vocab": str(c["vocab"]),
        "positions": str(c["positions"]),
        "tie-embeddings": "true" if c["tied"] else "false",
        "gated-mlp": "true" if c["arch"] == "llama" else "false",
        "norm": "rmsnorm" if c["arch"] == "llama" else "layernorm",
        "bias": "none" if c["arch"] == "llama" else "all",
        "seq": str(c["seq"]),
        "micro-batch": str(c["micro_batch"]),
        "precision": c["precision"],
        "optimizer": c["optimizer"],
        "framework": "pytorch",
        "attention": "eager",
        "recompute": c["recompute"],
        "dropout": c["dropout"],
        "gpus": "1",
        # The module layout of the reference implementation (models.py mirrors HF's).
        "fused-qkv": "true" if c["arch"] == "gpt2" else "false",
        "fused-gate-up": "false",
        "residual-dropout": "true" if c["arch"] == "gpt2" else "false",
        # Implementation choices of this machine and torch version, each a named
        # libtrainsize setting: CPU autocast's op lists, torch <= 1.13's mean() keeping its
        # input, and CPU dropout keeping its mask at the input's width.
        "autocast-ops": "cpu",
        "mean-keeps-input": "true" if torch_version_tuple() < (2, 0) else "false",
        "dropout-mask-bytes": "4" if c["precision"] == "fp32" else "2",
    }
    if c.get("head_dim") and c["head_dim"] != c["hidden"] // c["heads"]:
        s["head-dim"] = str(c["head_dim"])
    return s


def build_model(c):
    p = float(c["dropout"])
    if c["arch"] == "gpt2":
        cfg = models.GPT2Config(vocab_size=c["vocab"], n_positions=c["positions"], n_embd=c["hidden"],
                                n_layer=c["layers"], n_head=c["heads"], n_inner=c["ffn"],
                                resid_pdrop=p, embd_pdrop=p, attn_pdrop=p,
                                tie_word_embeddings=c["tied"])
        return models.GPT2LMHeadModel(cfg)
    cfg = models.LlamaConfig(vocab_size=c["vocab"], hidden_size=c["hidden"], intermediate_size=c["ffn"],
                             num_hidden_layers=c["layers"], num_attention_heads=c["heads"],
                             num_key_value_heads=c["kv_heads"], head_dim=c.get("head_dim"),
                             max_position_embeddings=max(2048, c["seq"]), attention_dropout=p,
                             tie_word_embeddings=c["tied"])
    return models.LlamaForCausalLM(cfg)


def notes_of(c):
    n = []
    if c["arch"] == "gpt2":
        n.append("GPT-2 eager (Conv1D addmm projections, gelu_new tanh formula, torch.where causal mask "
                 "against a per-layer bool buffer, learned positions, tied lm_head)")
    else:
        n.append("Llama eager (RMSNorm in fp32, rotary cos/sin computed once per forward from the "
                 "embeddings, repeat_kv copy when kv-heads < heads, softmax(dtype=float32), SwiGLU MLP, "
                 "4-D float causal mask of the embeddings' dtype, %s lm_head)" % ("tied" if c["tied"] else "untied"))
    if c["precision"] == "bf16-mixed":
        n.append("bf16-mixed = fp32 parameters/gradients/optimizer state, torch.autocast('cpu', bfloat16) "
                 "around the model forward and the loss. CPU autocast's op lists differ from CUDA's: in "
                 "this torch, layer_norm, softmax, log_softmax, pow, tanh and silu keep a bf16 input in bf16 "
                 "(CUDA autocast runs several of them in fp32); see environment.autocast_cpu_probe")
        if c["arch"] == "llama":
            n.append("Under autocast, HF Llama's rotary multiply promotes bf16 q/k to fp32 (cos/sin are fp32), "
                     "so the scores, softmax output and probabilities are fp32 and cast to bf16 again by matmul")
    else:
        n.append("fp32 everywhere, no autocast")
    if c["recompute"] == "full":
        n.append("gradient checkpointing: torch.utils.checkpoint.checkpoint(layer.__call__, *HF's positional "
                 "args, use_reentrant=False) around each decoder layer. The hooks cannot see inside a "
                 "checkpointed layer; the tensors its closure holds (the layer inputs%s) are added to "
                 "saved_bytes_model as checkpoint_held_bytes" %
                 (", the 4-D causal mask, position ids and cos/sin" if c["arch"] == "llama" else ""))
    if c["dropout"] != "0":
        if c["arch"] == "gpt2":
            n.append("dropout %s at GPT-2's sites: embeddings, attention probabilities, attention output "
                     "and MLP output (nn.Dropout)" % c["dropout"])
        else:
            n.append("dropout %s: Llama has only attention-probability dropout (F.dropout); no embedding "
                     "or residual dropout" % c["dropout"])
        n.append("CPU dropout in this torch is input * (bernoulli mask / (1-p)) with a mask of the input's "
                 "dtype, saved by the multiply (CUDA's fused native_dropout saves a 1-byte bool mask)")
    if c["optimizer"] == "adamw":
        n.append("torch.optim.AdamW(lr=1e-4), foreach left at its default")
    else:
        n.append("torch.optim.SGD(lr=1e-2, momentum=0.9), foreach left at its default")
    return "; ".join(n)


# --------------------------------------------------------------------------------------------
# Storage helpers
# --------------------------------------------------------------------------------------------
def storage_of(t):
    if hasattr(t, "untyped_storage"):
        s = t.untyped_storage()
    else:
        s = t.storage()
    return s.data_ptr(), s.nbytes()


def dtype_name(dt):
    return str(dt).replace("torch.", "")


def shape_str(t):
    return "x".join(str(d) for d in t.shape) if t.dim() else "scalar"


def flatten_tensors(obj):
    if isinstance(obj, torch.Tensor):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for o in obj:
            yield from flatten_tensors(o)
    elif isinstance(obj, dict):
        for o in obj.values():
            yield from flatten_tensors(o)


try:
    from torch.overrides import TorchFunctionMode
except ImportError:  # pragma: no cover
    TorchFunctionMode = None


class OpLabelMode(TorchFunctionMode if TorchFunctionMode is not None else object):
    """Records the Python-level torch function running when autograd packs a tensor."""

    def __init__(self, stack):
        super().__init__()
        self.stack = stack

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.stack.append(getattr(func, "__name__", str(func)))
        try:
            return func(*args, **(kwargs or {}))
        finally:
            self.stack.pop()


# --------------------------------------------------------------------------------------------
# Saved-tensor tracker
# --------------------------------------------------------------------------------------------
VIEW_NODES = {"TBackward0", "ViewBackward0", "ReshapeAliasBackward0", "TransposeBackward0",
              "PermuteBackward0", "ExpandBackward0", "SliceBackward0", "SelectBackward0",
              "UnsqueezeBackward0", "SqueezeBackward0", "SqueezeBackward1", "AsStridedBackward0",
              "AliasBackward0", "SplitBackward0", "UnbindBackward0", "ViewBackward1"}


class SavedTracker:
    def __init__(self, model, preexisting):
        self.excluded = {}  # ptr -> kind
        for p in model.parameters():
            self.excluded[storage_of(p)[0]] = "parameter"
        for b in model.buffers():
            self.excluded[storage_of(b)[0]] = "buffer"
        self.preexisting = {storage_of(t)[0]: name for name, t in preexisting.items()}
        self.param_ids = {id(p) for p in model.parameters()}
        self.layer_index = {id(m): i for i, m in enumerate(model.decoder_layers)}
        self.module_names = {id(m): n for n, m in model.named_modules()}
        self.records = {}  # ptr -> dict
        self.excluded_saves = {"parameter": 0, "buffer": 0}
        self.pack_calls = 0
        self.active = False
        self.phase = None
        self.module_stack = []
        self.op_stack = []
        self.layers_started = False
        self.handles = []
        for m in model.modules():
            self.handles.append(m.register_forward_pre_hook(self._pre))
            self.handles.append(m.register_forward_hook(self._post))

    def close(self):
        for h in self.handles:
            h.remove()
        self.handles = []

    def release(self):
        for r in self.records.values():
            r.pop("ref", None)

    def _pre(self, module, inputs):
        if self.active:
            self.module_stack.append(module)
            if id(module) in self.layer_index:
                self.layers_started = True

    def _post(self, module, inputs, output):
        if self.active and self.module_stack and self.module_stack[-1] is module:
            self.module_stack.pop()

    def region(self):
        for m in reversed(self.module_stack):
            i = self.layer_index.get(id(m))
            if i is not None:
                return "layer%d" % i
        if self.phase == "loss":
            return "loss"
        return "head" if self.layers_started else "embed"

    def module_label(self):
        if self.module_stack:
            return self.module_names.get(id(self.module_stack[-1]), "?") or "(model)"
        return "(loss)" if self.phase == "loss" else "(model)"

    def _kind_of(self, t, ptr):
        if ptr in self.preexisting:
            return "input:" + self.preexisting[ptr]
        fn = t.grad_fn
        hops = 0
        # Look through views (same storage) for the op that made the storage.
        while fn is not None and fn.name() in VIEW_NODES and fn.next_functions and hops < 8:
            fn = fn.next_functions[0][0]
            hops += 1
        if fn is not None and fn.name().startswith("ToCopyBackward"):
            nxt = fn.next_functions[0][0] if fn.next_functions else None
            var = getattr(nxt, "variable", None) if nxt is not None else None
            if var is not None and id(var) in self.param_ids:
                return "weight_cast"
            return "activation_cast"
        return "activation"

    def _add(self, t, how, region=None, module=None):
        ptr, nbytes = storage_of(t)
        if nbytes == 0:
            return
        kind = self.excluded.get(ptr)
        if kind is not None:
            self.excluded_saves[kind] += 1
            return
        if region is None:
            region = self.region()
        rec = self.records.get(ptr)
        if rec is None:
            rec = dict(ptr=ptr, bytes=nbytes, dtype=dtype_name(t.dtype), shape=shape_str(t),
                       producer=(t.grad_fn.name() if t.grad_fn is not None else "(no grad_fn)"),
                       op=(self.op_stack[-1] if self.op_stack else "?") if how == "hook" else "checkpoint",
                       module=module or self.module_label(), kind=self._kind_of(t, ptr),
                       first_region=region, regions=[], phases=[], how=[], saves=0, saved_by=[],
                       ref=t)
            if how == "checkpoint":
                rec["kind"] = "checkpoint_arg"
            self.records[ptr] = rec
        if region not in rec["regions"]:
            rec["regions"].append(region)
        if self.phase not in rec["phases"]:
            rec["phases"].append(self.phase)
        if how not in rec["how"]:
            rec["how"].append(how)
        rec["saves"] += 1

    def pack(self, t):
        if self.active:
            self.pack_calls += 1
            self._add(t, "hook")
        return t

    @staticmethod
    def unpack(t):
        return t

    def checkpoint_args(self, function, args, kwargs):
        """The tensors handed to one checkpoint call; the checkpointed layer is function.__self__."""
        if self.active:
            layer = getattr(function, "__self__", None)
            i = self.layer_index.get(id(layer))
            region = "layer%d" % i if i is not None else self.region()
            module = "checkpoint(%s)" % self.module_names.get(id(layer), "?")
            for t in flatten_tensors((args, kwargs)):
                self._add(t, "checkpoint", region=region, module=module)

    @contextlib.contextmanager
    def measuring(self, phase):
        self.phase = phase
        self.active = True
        try:
            with torch.autograd.graph.saved_tensors_hooks(self.pack, self.unpack):
                yield
        finally:
            self.active = False
            self.module_stack = []

    # ---- summaries ----
    def select(self, phase=None, how=None, region=None):
        out = []
        for r in self.records.values():
            if phase is not None and phase not in r["phases"]:
                continue
            if how is not None and how not in r["how"]:
                continue
            if region is not None and region not in r["regions"]:
                continue
            out.append(r)
        return out

    @staticmethod
    def total(recs):
        return sum(r["bytes"] for r in recs)

    @staticmethod
    def top(recs, n=TOP_N):
        recs = sorted(recs, key=lambda r: (-r["bytes"], r["first_region"], r["shape"]))[:n]
        return [dict(bytes=r["bytes"], shape=r["shape"], dtype=r["dtype"], producer=r["producer"],
                     op=r["op"], module=r["module"], kind=r["kind"], saves=r["saves"],
                     saved_by=",".join(r["saved_by"][:4]) if r["saved_by"] else "")
                for r in recs]

    @staticmethod
    def by_dtype(recs):
        d = {}
        for r in recs:
            d[r["dtype"]] = d.get(r["dtype"], 0) + r["bytes"]
        return d

    @staticmethod
    def by_kind(recs):
        d = {}
        for r in recs:
            k = r["kind"].split(":")[0]
            d[k] = d.get(k, 0) + r["bytes"]
        return d


def graph_walk(tracker, root_fn):
    """Reads every autograd node's _saved_* attributes (our unpack hook is the identity), records
    which node saved which storage, and compares the storage set with the hooks' set."""
    seen = set()
    stack = [root_fn]
    walk_ptrs = set()
    nodes = 0
    while stack:
        fn = stack.pop()
        if fn is None or fn in seen:
            continue
        seen.add(fn)
        nodes += 1
        for attr in dir(fn):
            if not attr.startswith("_saved_"):
                continue
            try:
                v = getattr(fn, attr)
            except Exception:
                continue
            for t in flatten_tensors(v):
                ptr, nb = storage_of(t)
                if nb == 0 or ptr in tracker.excluded:
                    continue
                walk_ptrs.add(ptr)
                rec = tracker.records.get(ptr)
                if rec is not None:
                    label = "%s.%s" % (fn.name(), attr[len("_saved_"):])
                    if label not in rec["saved_by"]:
                        rec["saved_by"].append(label)
        for nf, _ in fn.next_functions:
            if nf is not None:
                stack.append(nf)
    hook_ptrs = {p for p, r in tracker.records.items() if "hook" in r["how"]}
    return dict(nodes=nodes,
                storages_found_by_walk=len(walk_ptrs),
                storages_only_in_walk=len(walk_ptrs - hook_ptrs),
                storages_only_in_hooks=len(hook_ptrs - walk_ptrs),
                bytes_only_in_hooks=sum(tracker.records[p]["bytes"] for p in hook_ptrs - walk_ptrs))


# --------------------------------------------------------------------------------------------
# Optimizer helpers
# --------------------------------------------------------------------------------------------
def make_optimizer(c, params):
    if c["optimizer"] == "adamw":
        return torch.optim.AdamW(params, lr=1e-4)
    return torch.optim.SGD(params, lr=1e-2, momentum=0.9)


@contextlib.contextmanager
def detect_optimizer_path(kind, found):
    """Wraps the optimizer module's single-tensor and multi-tensor (foreach) implementations and
    records which one ran."""
    import importlib
    mod = importlib.import_module("torch.optim.adamw" if kind == "adamw" else "torch.optim.sgd")
    base = "adamw" if kind == "adamw" else "sgd"
    names = {"_single_tensor_" + base: "single-tensor (for-loop)",
             "_multi_tensor_" + base: "multi-tensor (foreach)",
             "_fused_" + base: "fused"}
    saved = {}
    for n, label in names.items():
        f = getattr(mod, n, None)
        if f is None:
            continue
        saved[n] = f

        def wrap(*a, _f=f, _label=label, **k):
            found.append(_label)
            return _f(*a, **k)
        setattr(mod, n, wrap)
    try:
        yield
    finally:
        for n, f in saved.items():
            setattr(mod, n, f)


def optimizer_state_bytes(opt):
    seen = set()
    total = 0
    by_key = {}
    for st in opt.state.values():
        for k, v in st.items():
            if isinstance(v, torch.Tensor):
                ptr, nb = storage_of(v)
                if ptr in seen:
                    continue
                seen.add(ptr)
                total += nb
                by_key[k] = by_key.get(k, 0) + nb
    return total, by_key


def distinct_bytes(tensors):
    seen = set()
    total = 0
    for t in tensors:
        ptr, nb = storage_of(t)
        if ptr not in seen:
            seen.add(ptr)
            total += nb
    return total


def profiler_net_bytes(prof):
    """Sum of the raw allocation (+) and free (-) records of a memory profile. The raw records are
    summed directly: the per-op attribution that FunctionEvent.self_cpu_memory_usage does matches
    records to ops by microsecond timestamps and is not exact."""
    results = getattr(prof, "kineto_results", None)
    if results is not None:
        return sum(e.nbytes() for e in results.events() if e.name() == "[memory]")
    return sum(e.self_cpu_memory_usage for e in prof.function_events)  # pragma: no cover


# --------------------------------------------------------------------------------------------
# Environment probes and hook self-checks
# --------------------------------------------------------------------------------------------
def autocast_probe():
    x32 = torch.randn(2, 4, 16)
    x16 = x32.bfloat16()
    w = torch.randn(16, 16)
    b = torch.randn(16)
    t = torch.randint(0, 16, (8,))
    probes = [
        ("linear(fp32 in)", lambda: F.linear(x32, w, b)),
        ("addmm(fp32 in)", lambda: torch.addmm(b, x32.view(-1, 16), w)),
        ("matmul(fp32 in)", lambda: torch.matmul(x32, x32.transpose(-1, -2))),
        ("layer_norm(fp32 in)", lambda: F.layer_norm(x32, (16,))),
        ("layer_norm(bf16 in)", lambda: F.layer_norm(x16, (16,))),
        ("softmax(bf16 in)", lambda: F.softmax(x16, -1)),
        ("log_softmax(bf16 in)", lambda: F.log_softmax(x16, -1)),
        ("cross_entropy(bf16 in)", lambda: F.cross_entropy(x16.view(-1, 16), t)),
        ("pow(bf16 in)", lambda: torch.pow(x16, 2)),
        ("tanh(bf16 in)", lambda: torch.tanh(x16)),
        ("silu(bf16 in)", lambda: F.silu(x16)),
        ("embedding(fp32 weight)", lambda: F.embedding(t, w)),
    ]
    out = {}
    with torch.autocast("cpu", dtype=torch.bfloat16):
        for name, fn in probes:
            try:
                out[name] = dtype_name(fn().dtype)
            except Exception as e:  # pragma: no cover
                out[name] = "error: %s" % type(e).__name__
    return out


def count_saved(fn, params=(), preexisting=None):
    """Distinct non-parameter storages saved while fn() runs (the same counting as the tracker)."""
    excluded = {storage_of(p)[0] for p in params}
    seen = {}

    def pack(t):
        ptr, nb = storage_of(t)
        if ptr not in excluded and nb:
            seen[ptr] = (nb, t)
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    total = sum(v[0] for v in seen.values())
    return total, len(seen), out


def hook_self_checks():
    checks = []
    torch.manual_seed(0)
    lin = torch.nn.Linear(64, 32)
    x = torch.randn(8, 64)
    got, n, _ = count_saved(lambda: lin(x), lin.parameters())
    checks.append(dict(name="nn.Linear(64,32) on an [8,64] fp32 input (no grad on input)",
                       expected_bytes=x.numel() * 4, measured_bytes=got, storages=n))
    xg = torch.randn(8, 64, requires_grad=True)
    got, n, _ = count_saved(lambda: lin(xg), lin.parameters())
    checks.append(dict(name="nn.Linear(64,32) on an [8,64] fp32 input that requires grad",
                       expected_bytes=xg.numel() * 4, measured_bytes=got, storages=n))
    x3 = torch.randn(2, 4, 64, requires_grad=True)
    got, n, _ = count_saved(lambda: lin(x3), lin.parameters())
    checks.append(dict(name="nn.Linear(64,32) on a [2,4,64] fp32 input (3-D, flattened by addmm)",
                       expected_bytes=x3.numel() * 4, measured_bytes=got, storages=n))
    got, n, _ = count_saved(lambda: xg * xg)
    checks.append(dict(name="x * x saves x twice; its storage is counted once",
                       expected_bytes=xg.numel() * 4, measured_bytes=got, storages=n))
    got, n, _ = count_saved(lambda: torch.tanh(xg))
    checks.append(dict(name="tanh saves its output",
                       expected_bytes=xg.numel() * 4, measured_bytes=got, storages=n))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        got, n, _ = count_saved(lambda: lin(xg), lin.parameters())
    checks.append(dict(name="nn.Linear(64,32) under CPU bf16 autocast: bf16 copies of the input and "
                            "of the weight (the weight copy is not the parameter's storage)",
                       expected_bytes=xg.numel() * 2 + 64 * 32 * 2, measured_bytes=got, storages=n))
    for c in checks:
        c["pass"] = "true" if c["expected_bytes"] == c["measured_bytes"] else "false"
    return checks


# --------------------------------------------------------------------------------------------
# One configuration
# --------------------------------------------------------------------------------------------
def run_config(c):
    t0 = time.time()
    gc.collect()
    torch.manual_seed(0)
    model = build_model(c)
    model.train()
    ckpt_mode = ""
    tracker_box = {}
    if c["recompute"] == "full":
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        inner = model.transformer if c["arch"] == "gpt2" else model.model

        def ckpt_func(function, *args, **kwargs):
            tr = tracker_box.get("t")
            if tr is not None:
                tr.checkpoint_args(function, args, kwargs)
            return torch.utils.checkpoint.checkpoint(function, *args, use_reentrant=False, **kwargs)
        inner._gradient_checkpointing_func = ckpt_func
        ckpt_mode = "torch.utils.checkpoint.checkpoint(use_reentrant=False)"

    params = list(model.parameters())
    parameter_bytes = distinct_bytes(params)
    parameter_count = sum(p.numel() for p in params)
    buffer_bytes = distinct_bytes(list(model.buffers()))
    opt = make_optimizer(c, params)

    B, S, V = c["micro_batch"], c["seq"], c["vocab"]
    g = torch.Generator().manual_seed(1234)
    input_ids = torch.randint(0, V, (B, S), generator=g)
    targets = torch.randint(0, V, (B, S), generator=g)
    bf16 = c["precision"] == "bf16-mixed"

    def autocast():
        return torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else contextlib.nullcontext()

    # ---------------- step 1: hooks ----------------
    tracker = SavedTracker(model, {"input_ids": input_ids, "targets": targets})
    tracker_box["t"] = tracker
    with autocast():
        with OpLabelMode(tracker.op_stack) if TorchFunctionMode is not None else contextlib.nullcontext():
            with tracker.measuring("model"):
                logits = model(input_ids)
            with tracker.measuring("loss"):
                loss = F.cross_entropy(logits.float().view(-1, V), targets.view(-1))
    tracker_box.pop("t")
    logits_info = dict(dtype=dtype_name(logits.dtype), shape=shape_str(logits),
                       bytes=logits.numel() * logits.element_size())
    walk = None
    if c["recompute"] == "none":
        walk = graph_walk(tracker, loss.grad_fn)
    loss1 = float(loss.detach())
    del logits  # as the HF Trainer: only the loss survives until backward
    loss.backward()
    del loss
    gradient_bytes = distinct_bytes([p.grad for p in params if p.grad is not None])
    grad_dtypes = sorted({dtype_name(p.grad.dtype) for p in params if p.grad is not None})
    path = []
    with detect_optimizer_path(c["optimizer"], path):
        opt.step()
    opt_bytes, opt_by_key = optimizer_state_bytes(opt)
    opt.zero_grad(set_to_none=True)
    tracker.close()
    tracker.release()

    # ---------------- step 2: profiler cross-check (no hooks) ----------------
    gc.collect()
    with torch.autograd.profiler.profile(profile_memory=True) as prof:
        with autocast():
            logits = model(input_ids)
            loss = F.cross_entropy(logits.float().view(-1, V), targets.view(-1))
        del logits
    net = profiler_net_bytes(prof)
    del prof
    loss2 = float(loss.detach())
    loss.backward()
    del loss
    opt.step()
    opt.zero_grad(set_to_none=True)

    # ---------------- summaries ----------------
    recs_all = list(tracker.records.values())
    recs_model = tracker.select(phase="model")
    recs_model_hooks = [r for r in recs_model if "hook" in r["how"]]
    recs_ckpt = tracker.select(how="checkpoint")
    recs_loss = tracker.select(phase="loss")
    preexisting = [r for r in recs_all if r["kind"].startswith("input:")]
    rng_state_bytes = 0
    if c["recompute"] == "full":
        # preserve_rng_state=True: each checkpoint keeps a copy of the CPU generator state.
        rng_state_bytes = c["layers"] * torch.get_rng_state().numel()
    total = SavedTracker.total(recs_all)
    expected_net = total - SavedTracker.total(preexisting) + 4 + rng_state_bytes

    regions = []
    names = ["embed"] + ["layer%d" % i for i in range(c["layers"])] + ["head", "loss"]
    for rn in names:
        recs = tracker.select(region=rn)
        first = [r for r in recs if r["first_region"] == rn]
        entry = dict(region=rn, bytes_first=SavedTracker.total(first), bytes_all=SavedTracker.total(recs),
                     storages=len(recs), by_kind=SavedTracker.by_kind(recs),
                     by_dtype=SavedTracker.by_dtype(recs), top=SavedTracker.top(recs))
        if rn.startswith("layer"):
            entry["checkpoint_held_bytes"] = SavedTracker.total([r for r in recs if "checkpoint" in r["how"]])
        regions.append(entry)

    measured = dict(
        parameter_bytes=parameter_bytes,
        parameter_count=parameter_count,
        parameter_dtypes=",".join(sorted({dtype_name(p.dtype) for p in params})),
        buffer_bytes=buffer_bytes,
        gradient_bytes=gradient_bytes,
        gradient_dtypes=",".join(grad_dtypes),
        optimizer_state_bytes=opt_bytes,
        optimizer_state_bytes_by_key=opt_by_key,
        optimizer_path=",".join(sorted(set(path))) or "unknown",
        saved_bytes_total=total,
        saved_bytes_model=SavedTracker.total(recs_model),
        saved_bytes_loss=SavedTracker.total(recs_loss),
        saved_bytes_model_hooks=SavedTracker.total(recs_model_hooks),
        checkpoint_held_bytes=SavedTracker.total(recs_ckpt),
        checkpoint_rng_state_bytes=rng_state_bytes,
        saved_bytes_shared_model_and_loss=SavedTracker.total([r for r in recs_model if "loss" in r["phases"]]),
        saved_bytes_preexisting_inputs=SavedTracker.total(preexisting),
        saved_bytes_weight_casts=SavedTracker.total([r for r in recs_all if r["kind"] == "weight_cast"]),
        saved_bytes_by_kind=SavedTracker.by_kind(recs_all),
        saved_bytes_by_dtype=SavedTracker.by_dtype(recs_all),
        saved_storages=len(recs_all),
        pack_calls=tracker.pack_calls,
        excluded_parameter_saves=tracker.excluded_saves["parameter"],
        excluded_buffer_saves=tracker.excluded_saves["buffer"],
        saved_bytes_per_layer=[r["bytes_all"] for r in regions if r["region"].startswith("layer")],
        regions=regions,
        top_model=SavedTracker.top(recs_model),
        top_loss=SavedTracker.top(recs_loss),
        input_bytes=input_ids.numel() * 8 + targets.numel() * 8,
        logits=logits_info,
        profiler_net_forward_bytes=net,
        profiler_expected_bytes=expected_net,
        profiler_minus_expected_bytes=net - expected_net,
        loss_step1=("%.4f" % loss1),
        loss_step2=("%.4f" % loss2),
        ln_vocab=("%.4f" % math.log(V)),
    )
    if walk is not None:
        measured["graph_walk"] = walk
    if ckpt_mode:
        measured["checkpoint_mode"] = ckpt_mode
    measured["milliseconds"] = int((time.time() - t0) * 1000)
    return dict(name=c["name"], settings=settings_of(c), measured=measured, notes=notes_of(c))


# --------------------------------------------------------------------------------------------
def environment():
    import inspect
    ckpt_sig = str(inspect.signature(torch.utils.checkpoint.checkpoint))
    return dict(
        torch_num_threads=torch.get_num_threads(),
        checkpoint_signature=ckpt_sig,
        checkpoint_use_reentrant_supported="true" if "use_reentrant" in ckpt_sig else "false",
        autocast_cpu_probe=autocast_probe(),
        autocast_note=("output dtypes under torch.autocast('cpu', bfloat16): matmul-like ops run in bf16; "
                       "in this torch, normalisation, softmax and pointwise ops keep their input dtype "
                       "(CUDA autocast's fp32 list has layer_norm, softmax, log_softmax, pow, ... )"),
    )


def machine():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return dict(platform=platform.platform(), machine=platform.machine(), cpu=cpu,
                logical_cpus=os.cpu_count() or 0, torch_num_threads=torch.get_num_threads())


METHOD = (
    "Per configuration: seed 0, model built on the CPU in fp32, model.train(). Inputs are random token "
    "ids (B x S, int64) and random targets of the same shape (no shift). Step 1: the model forward runs "
    "inside one torch.autograd.graph.saved_tensors_hooks context and the loss "
    "F.cross_entropy(logits.float().view(-1, V), targets.view(-1)) inside a second one; each packed "
    "tensor is keyed by its storage's data_ptr and counted once with the storage's full nbytes; "
    "storages of parameters and buffers are left out; a reference to every counted storage is kept "
    "until the end of the step so that no address is reused. Module forward hooks attribute each save "
    "to a region (embed, layerN, head, loss). For gradient checkpointing the tensors passed to each "
    "torch.utils.checkpoint call are added (they are held by the checkpoint's closure until backward). "
    "Without checkpointing, the autograd graph is then walked and every node's _saved_* attributes are "
    "matched to the hook records (graph_walk). The logits are dropped, loss.backward() runs, gradients "
    "are summed, optimizer.step() runs and optimizer.state is summed (distinct storages), then "
    "zero_grad(set_to_none=True). Step 2 repeats forward + loss with no hooks under "
    "torch.autograd.profiler.profile(profile_memory=True); the raw allocation/free records are summed "
    "(net bytes still allocated, logits dropped) and compared with saved_bytes_total - "
    "saved_bytes_preexisting_inputs + 4 (the loss) + checkpoint RNG states.")


def check_simple(obj, path="$"):
    """The fixture is read by a small C JSON reader: objects, arrays, integers and strings only."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            if not isinstance(k, str):
                raise TypeError("%s: non-string key %r" % (path, k))
            check_simple(v, path + "." + k)
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            check_simple(v, "%s[%d]" % (path, i))
    elif isinstance(obj, bool) or not isinstance(obj, (int, str)):
        raise TypeError("%s: %r is not an integer or a string" % (path, obj))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--only", default="", help="comma-separated config names")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: leave)")
    args = ap.parse_args()
    if args.list:
        for c in CONFIGS:
            print(c["name"])
        return 0
    if args.threads:
        torch.set_num_threads(args.threads)
    only = [s for s in args.only.split(",") if s]
    todo = [c for c in CONFIGS if not only or c["name"] in only]
    t0 = time.time()
    env = environment()
    doc = dict(schema=SCHEMA,
               torch_version=torch.__version__,
               python=platform.python_version(),
               machine=machine(),
               method=METHOD,
               environment=env,
               hook_self_checks=hook_self_checks(),
               configs=[])
    for sc in doc["hook_self_checks"]:
        print("self-check %-5s %s (expected %d, measured %d)" % (sc["pass"], sc["name"], sc["expected_bytes"],
                                                                 sc["measured_bytes"]))
    failures = 0
    for c in todo:
        try:
            rec = run_config(c)
        except Exception as e:
            failures += 1
            rec = dict(name=c["name"], settings=settings_of(c), notes=notes_of(c),
                       error="%s: %s" % (type(e).__name__, e),
                       traceback_tail=traceback.format_exc()[-2000:])
            print("FAILED %s: %s" % (c["name"], rec["error"]))
        else:
            m = rec["measured"]
            print("%-32s params %9d grads %9d optim %9d saved %9d (model %9d loss %8d) prof-diff %d  %s  %d ms"
                  % (c["name"], m["parameter_bytes"], m["gradient_bytes"], m["optimizer_state_bytes"],
                     m["saved_bytes_total"], m["saved_bytes_model"], m["saved_bytes_loss"],
                     m["profiler_minus_expected_bytes"], m["optimizer_path"], m["milliseconds"]))
        doc["configs"].append(rec)
        doc["environment"]["adamw_default_path"] = next(
            (x["measured"]["optimizer_path"] for x in doc["configs"]
             if "measured" in x and x["settings"]["optimizer"] == "adamw"), "not run")
        doc["environment"]["sgd_default_path"] = next(
            (x["measured"]["optimizer_path"] for x in doc["configs"]
             if "measured" in x and x["settings"]["optimizer"] == "sgd-momentum"), "not run")
        doc["seconds_elapsed"] = int(time.time() - t0)
        check_simple(doc)
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out + ".tmp", "w") as f:
            json.dump(doc, f, indent=1, sort_keys=False)
            f.write("\n")
        os.replace(args.out + ".tmp", args.out)
    print("wrote %s (%d configs, %d failed) in %.1f s" % (args.out, len(doc["configs"]), failures, time.time() - t0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

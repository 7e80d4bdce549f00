#!/usr/bin/env python3
"""Measure real training memory on one CUDA GPU, for libtrainsize's accuracy fixtures.

Builds randomly initialised Hugging Face causal-LM models from config objects (no
weight downloads), runs three training steps per configuration and records, with
exact byte counts, what a training step holds on the GPU:

  step 1  warm-up; also counts the bytes autograd saves for backward (saved-tensor hooks)
  step 2  phase peaks: forward(+loss), forward+backward, optimizer.step
  step 3  whole-step peak (one reset at the start, one read at the end), reserved, driver view

Results go to --out as JSON, rewritten after every configuration so a run cut
short still leaves a file.  See tests/accuracy/README.md for the fields.

Needs: python3 with torch (CUDA) and transformers.  Typical use:

    PYTHONUNBUFFERED=1 python3 tests/accuracy/measure_cuda.py --out cuda_h200.json
"""

import argparse
import contextlib
import gc
import json
import os
import platform
import subprocess
import sys
import time
import traceback

import torch
import torch.nn.functional as F

SCHEMA = "libtrainsize-measured-training-memory/1"
DEV = "cuda"

# --------------------------------------------------------------------------
# Configurations.  Every field a C estimator needs to reproduce the run is here;
# the measured model's own numbers (parameter count, head_dim, ...) are added to
# each record at run time.
# --------------------------------------------------------------------------
GPT2_SMALL = dict(model_type="gpt2", layers=12, hidden=768, heads=12, kv_heads=12,
                  ffn=3072, vocab=50257, max_positions=1024, tied_embeddings=True,
                  activation="gelu_new", norm="layernorm", micro_batch=4, seq=1024)
LLAMA_1B = dict(model_type="llama", layers=16, hidden=2048, heads=16, kv_heads=4,
                ffn=5632, vocab=32000, max_positions=2048, tied_embeddings=False,
                activation="silu (SwiGLU)", norm="rmsnorm", micro_batch=2, seq=2048)
LLAMA_SMALL_MHA = dict(model_type="llama", layers=8, hidden=1024, heads=16, kv_heads=16,
                       ffn=2816, vocab=32000, max_positions=1024, tied_embeddings=True,
                       activation="silu (SwiGLU)", norm="rmsnorm", micro_batch=4, seq=1024)


def _cfg(cid, base, **over):
    c = dict(base)
    c.update(dict(precision="fp32", optimizer="adamw", attn="sdpa", grad_ckpt=False))
    c.update(over)
    c["id"] = cid
    return c


CONFIGS = [
    _cfg("a", GPT2_SMALL, attn="eager"),
    _cfg("b", GPT2_SMALL),
    _cfg("c", GPT2_SMALL, grad_ckpt=True),
    _cfg("d", GPT2_SMALL, precision="bf16_autocast"),
    _cfg("e", LLAMA_1B, precision="bf16_autocast"),
    _cfg("f", LLAMA_1B, precision="bf16_autocast", attn="eager"),
    _cfg("g", LLAMA_1B, precision="bf16_autocast", grad_ckpt=True),
    _cfg("h", LLAMA_1B, precision="bf16_pure"),
    _cfg("i", LLAMA_1B, precision="bf16_autocast", optimizer="adamw_fused"),
    _cfg("j", LLAMA_1B, precision="bf16_autocast", micro_batch=4),
    _cfg("k", LLAMA_SMALL_MHA, optimizer="sgd_momentum"),
    _cfg("l", LLAMA_1B, precision="bf16_autocast", micro_batch=1, seq=4096, max_positions=4096),
]

PRECISION_NOTES = {
    "fp32": "fp32 parameters, gradients, optimizer state and activations; no autocast",
    "bf16_autocast": "fp32 parameters/gradients/optimizer state; torch.autocast(cuda, bfloat16) "
                     "around model forward and loss",
    "bf16_pure": "model.to(torch.bfloat16): bf16 parameters, gradients and optimizer state; no autocast",
}
OPTIMIZER_NOTES = {
    "adamw": "torch.optim.AdamW(lr=1e-4, weight_decay=0.01), foreach/fused left at defaults",
    "adamw_fused": "torch.optim.AdamW(lr=1e-4, weight_decay=0.01, fused=True)",
    "sgd_momentum": "torch.optim.SGD(lr=1e-3, momentum=0.9)",
}

MIB = 1024.0 * 1024.0


def name_of(c):
    size = {"gpt2": "gpt2-124m", "llama": "llama-%dL-%dh" % (c["layers"], c["hidden"])}[c["model_type"]]
    return "%s-%s-%s-%s%s-b%d-s%d" % (size, c["precision"], c["attn"], c["optimizer"],
                                     "-ckpt" if c["grad_ckpt"] else "", c["micro_batch"], c["seq"])


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------
def sh(args, timeout=20):
    try:
        r = subprocess.run(args, capture_output=True, text=True, timeout=timeout)
        if r.returncode != 0:
            return None
        return r.stdout.strip()
    except Exception:
        return None


def smi_used_mib():
    out = sh(["nvidia-smi", "--query-gpu=memory.used", "--format=csv,noheader,nounits"])
    if not out:
        return None
    try:
        return int(out.splitlines()[0].strip())
    except ValueError:
        return None


def sync():
    torch.cuda.synchronize()


def driver_used():
    free, total = torch.cuda.mem_get_info()
    return int(total - free)


def tbytes(t):
    return int(t.numel() * t.element_size())


def storage_of(t):
    """(data_ptr, nbytes) of the storage under tensor t, or (None, tensor bytes)."""
    try:
        st = t.untyped_storage()
    except Exception:
        try:
            st = t.storage()
        except Exception:
            return None, tbytes(t)
    try:
        return int(st.data_ptr()), int(st.nbytes())
    except Exception:
        return None, tbytes(t)


def cleanup():
    gc.collect()
    torch.cuda.empty_cache()
    sync()
    torch.cuda.reset_peak_memory_stats()


def amp_ctx(precision):
    if precision == "bf16_autocast":
        return torch.autocast(device_type=DEV, dtype=torch.bfloat16)
    return contextlib.nullcontext()


def loss_fn(logits, targets, vocab):
    # The common Hugging Face pattern: upcast logits to fp32, then cross-entropy.
    return F.cross_entropy(logits.float().reshape(-1, vocab), targets.reshape(-1))


# --------------------------------------------------------------------------
# Saved-for-backward accounting
# --------------------------------------------------------------------------
class SavedCounter:
    """pack hook that counts each saved storage once (storages shared across
    counters through `seen`), skipping parameter and buffer storages."""

    def __init__(self, exclude_ptrs, seen, param_shapes):
        self.exclude = exclude_ptrs
        self.seen = seen
        self.param_shapes = param_shapes
        self.bytes = 0
        self.packs = 0
        self.storages = 0
        self.skipped_param_packs = 0
        self.non_device_bytes = 0
        self.weight_cast_bytes = 0
        self.by_dtype = {}
        self.by_shape = {}

    def pack(self, t):
        self.packs += 1
        ptr, nb = storage_of(t)
        if ptr is not None and ptr in self.exclude:
            self.skipped_param_packs += 1
            return t
        if ptr is not None and ptr != 0:
            if ptr in self.seen:
                return t
            self.seen[ptr] = nb
        if t.device.type != DEV:
            self.non_device_bytes += nb
            return t
        self.storages += 1
        self.bytes += nb
        dt = str(t.dtype).replace("torch.", "")
        self.by_dtype[dt] = self.by_dtype.get(dt, 0) + nb
        key = "%s%s" % (dt, list(t.shape))
        ent = self.by_shape.setdefault(key, [0, 0])
        ent[0] += 1
        ent[1] += nb
        shp = tuple(t.shape)
        if t.is_floating_point() and t.dim() >= 2 and (shp in self.param_shapes or shp[::-1] in self.param_shapes) \
                and t.dtype != self.param_shapes.get(shp, self.param_shapes.get(shp[::-1])):
            self.weight_cast_bytes += nb
        return t

    @staticmethod
    def unpack(t):
        return t

    def report(self, top=16):
        shapes = sorted(self.by_shape.items(), key=lambda kv: -kv[1][1])[:top]
        return {
            "bytes": self.bytes,
            "storages": self.storages,
            "pack_calls": self.packs,
            "parameter_or_buffer_packs_skipped": self.skipped_param_packs,
            "non_device_bytes": self.non_device_bytes,
            "weight_cast_bytes_heuristic": self.weight_cast_bytes,
            "by_dtype": self.by_dtype,
            "top_shapes": [{"dtype_shape": k, "count": v[0], "bytes": v[1]} for k, v in shapes],
        }


# --------------------------------------------------------------------------
# Model, optimizer
# --------------------------------------------------------------------------
def make_hf_config(c):
    common = dict(vocab_size=c["vocab"], tie_word_embeddings=c["tied_embeddings"], use_cache=False)
    if c["model_type"] == "gpt2":
        from transformers import GPT2Config as Cfg
        kw = dict(n_positions=c["max_positions"], n_embd=c["hidden"], n_layer=c["layers"],
                  n_head=c["heads"], n_inner=c["ffn"], activation_function="gelu_new",
                  resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0, **common)
    else:
        from transformers import LlamaConfig as Cfg
        kw = dict(hidden_size=c["hidden"], intermediate_size=c["ffn"],
                  num_hidden_layers=c["layers"], num_attention_heads=c["heads"],
                  num_key_value_heads=c["kv_heads"], max_position_embeddings=c["max_positions"],
                  hidden_act="silu", attention_dropout=0.0, attention_bias=False,
                  rms_norm_eps=1e-5, **common)
    try:
        cfg = Cfg(attn_implementation=c["attn"], **kw)
    except TypeError:
        cfg = Cfg(**kw)
        cfg._attn_implementation = c["attn"]
    return cfg


def model_class(c):
    if c["model_type"] == "gpt2":
        from transformers import GPT2LMHeadModel
        return GPT2LMHeadModel
    from transformers import LlamaForCausalLM
    return LlamaForCausalLM


def build_model(c, info):
    cfg = make_hf_config(c)
    cls = model_class(c)
    torch.manual_seed(0)
    try:
        with torch.device(DEV):
            model = cls(cfg)
        info["built_on"] = "device"
    except Exception as e:  # torch.device context manager missing or init refused it
        info["built_on"] = "cpu, then moved (%s)" % type(e).__name__
        model = None
        gc.collect()
        model = cls(cfg)
    model.to(DEV)
    actual = getattr(model.config, "_attn_implementation", None)
    if actual != c["attn"] and hasattr(model, "set_attn_implementation"):
        model.set_attn_implementation(c["attn"])
        actual = getattr(model.config, "_attn_implementation", None)
    info["attn_implementation_actual"] = actual
    if c["precision"] == "bf16_pure":
        model.to(torch.bfloat16)
    elif any(p.dtype != torch.float32 for p in model.parameters()):
        info.setdefault("notes", []).append("parameters were not fp32 after build; forced model.float()")
        model.float()
    model.train()
    if c["grad_ckpt"]:
        try:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
            info["grad_ckpt_kwargs"] = {"use_reentrant": False}
        except TypeError:
            model.gradient_checkpointing_enable()
            info["grad_ckpt_kwargs"] = "library default (kwargs not accepted)"
        info["grad_ckpt_active"] = bool(getattr(model, "is_gradient_checkpointing", True))
    return model


def build_optimizer(c, params):
    if c["optimizer"] == "adamw":
        return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.01)
    if c["optimizer"] == "adamw_fused":
        return torch.optim.AdamW(params, lr=1e-4, weight_decay=0.01, fused=True)
    if c["optimizer"] == "sgd_momentum":
        return torch.optim.SGD(params, lr=1e-3, momentum=0.9)
    raise ValueError("unknown optimizer %r" % c["optimizer"])


def describe_model(model, c):
    params = list(model.parameters())  # de-duplicated (tied weights once)
    inp = model.get_input_embeddings().weight
    out_mod = model.get_output_embeddings()
    out = out_mod.weight if out_mod is not None else None
    tied = out is not None and out.data_ptr() == inp.data_ptr()
    breakdown = {"input_embedding": 0, "output_embedding_untied": 0, "position_embedding": 0,
                 "other (blocks, final norm)": 0}
    for name, p in model.named_parameters():
        if p is inp:
            breakdown["input_embedding"] += p.numel()
        elif out is not None and p is out:
            breakdown["output_embedding_untied"] += p.numel()
        elif name.endswith("wpe.weight"):
            breakdown["position_embedding"] += p.numel()
        else:
            breakdown["other (blocks, final norm)"] += p.numel()
    cfg = model.config
    head_dim = getattr(cfg, "head_dim", None) or c["hidden"] // c["heads"]
    return {
        "parameter_count": int(sum(p.numel() for p in params)),
        "parameter_breakdown": {k: int(v) for k, v in breakdown.items()},
        "parameter_dtypes": sorted({str(p.dtype).replace("torch.", "") for p in params}),
        "parameter_bytes": int(sum(tbytes(p) for p in params)),
        "buffer_bytes": int(sum(tbytes(b) for b in model.buffers() if b.device.type == DEV)),
        "tied_embeddings_actual": bool(tied),
        "head_dim": int(head_dim),
    }


def grad_bytes(model):
    return int(sum(tbytes(p.grad) for p in model.parameters() if p.grad is not None))


def optimizer_state_bytes(opt):
    seen = set()
    dev = 0
    other = 0
    by_key = {}
    for st in opt.state.values():
        for k, v in st.items():
            if not torch.is_tensor(v):
                continue
            ptr, nb = storage_of(v)
            if ptr is not None and ptr != 0:
                if ptr in seen:
                    continue
                seen.add(ptr)
            if v.device.type == DEV:
                dev += nb
                by_key[k] = by_key.get(k, 0) + nb
            else:
                other += nb
    return {"device_bytes": int(dev), "host_bytes": int(other), "device_bytes_by_key": by_key}


def optimizer_defaults(opt):
    out = {}
    for k in ("foreach", "fused", "capturable", "momentum", "weight_decay", "lr"):
        if k in opt.defaults:
            v = opt.defaults[k]
            out[k] = v if isinstance(v, (bool, int, float, type(None))) else str(v)
    return out


# --------------------------------------------------------------------------
# One configuration
# --------------------------------------------------------------------------
def forward_loss(model, ids, tgt, c):
    with amp_ctx(c["precision"]):
        out = model(input_ids=ids, use_cache=False)
        logits = out.logits
        loss = loss_fn(logits, tgt, c["vocab"])
    return loss


def run_config(c):
    rec = {"id": c["id"], "name": name_of(c), "shape": dict(c)}
    rec["shape"]["precision_note"] = PRECISION_NOTES[c["precision"]]
    rec["shape"]["optimizer_note"] = OPTIMIZER_NOTES[c["optimizer"]]
    info = {}
    rec["build"] = info
    cleanup()
    rec["baseline_allocated_bytes"] = int(torch.cuda.memory_allocated())
    rec["baseline_reserved_bytes"] = int(torch.cuda.memory_reserved())
    rec["baseline_driver_used_bytes"] = driver_used()
    t0 = time.time()

    model = build_model(c, info)
    rec["model"] = describe_model(model, c)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = build_optimizer(c, params)
    rec["optimizer_defaults"] = optimizer_defaults(opt)

    g = torch.Generator(device=DEV)
    g.manual_seed(1234)
    b, s, v = c["micro_batch"], c["seq"], c["vocab"]
    ids = torch.randint(0, v, (b, s), device=DEV, generator=g)
    tgt = torch.randint(0, v, (b, s), device=DEV, generator=g)
    rec["input_bytes"] = tbytes(ids) + tbytes(tgt)

    exclude = set()
    for p in list(model.parameters()) + list(model.buffers()):
        ptr, _ = storage_of(p)
        if ptr:
            exclude.add(ptr)
    param_shapes = {}
    for p in model.parameters():
        param_shapes.setdefault(tuple(p.shape), p.dtype)

    # ---- step 1: warm-up + saved-for-backward accounting -----------------
    seen = {}
    mc = SavedCounter(exclude, seen, param_shapes)
    lc = SavedCounter(exclude, seen, param_shapes)
    saved = {}
    try:
        with amp_ctx(c["precision"]):
            with torch.autograd.graph.saved_tensors_hooks(mc.pack, mc.unpack):
                out = model(input_ids=ids, use_cache=False)
            logits = out.logits
            rec["logits"] = {"dtype": str(logits.dtype).replace("torch.", ""),
                             "shape": list(logits.shape), "bytes": tbytes(logits)}
            with torch.autograd.graph.saved_tensors_hooks(lc.pack, lc.unpack):
                loss = loss_fn(logits, tgt, v)
        del out, logits
        saved = {"model_forward": mc.report(), "loss": lc.report(),
                 "total_bytes": mc.bytes + lc.bytes}
    except Exception as e:
        saved = {"error": "%s: %s" % (type(e).__name__, str(e)[:500])}
        loss = None
        out = logits = None
        del out, logits
        gc.collect()
        loss = forward_loss(model, ids, tgt, c)
    if c["grad_ckpt"]:
        saved["note"] = ("non-reentrant checkpointing hides the saved tensors of checkpointed layers "
                         "from these hooks (they are recomputed in backward) and keeps each layer's "
                         "input by reference, which the hooks do not see: use "
                         "step2.alloc_delta_after_forward_bytes for what the forward really holds")
    rec["saved_for_backward"] = saved
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    rec["loss_step1"] = float(loss.detach().float().item())
    del loss
    mc = lc = seen = None
    gc.collect()
    sync()
    rec["peak_allocated_build_and_step1_bytes"] = int(torch.cuda.max_memory_allocated())
    rec["peak_reserved_build_and_step1_bytes"] = int(torch.cuda.max_memory_reserved())

    # ---- step 2: phase peaks ---------------------------------------------
    s2 = {}
    sync()
    t1 = time.time()
    s2["alloc_before_bytes"] = int(torch.cuda.memory_allocated())
    torch.cuda.reset_peak_memory_stats()
    loss = forward_loss(model, ids, tgt, c)
    sync()
    s2["alloc_after_forward_bytes"] = int(torch.cuda.memory_allocated())
    s2["alloc_delta_after_forward_bytes"] = s2["alloc_after_forward_bytes"] - s2["alloc_before_bytes"]
    s2["peak_forward_bytes"] = int(torch.cuda.max_memory_allocated())
    loss.backward()
    sync()
    s2["peak_forward_backward_bytes"] = int(torch.cuda.max_memory_allocated())
    s2["alloc_after_backward_bytes"] = int(torch.cuda.memory_allocated())
    s2["gradient_bytes"] = grad_bytes(model)
    torch.cuda.reset_peak_memory_stats()
    opt.step()
    sync()
    s2["peak_optimizer_step_bytes"] = int(torch.cuda.max_memory_allocated())
    s2["alloc_after_step_bytes"] = int(torch.cuda.memory_allocated())
    opt.zero_grad(set_to_none=True)
    del loss
    sync()
    s2["alloc_after_zero_grad_bytes"] = int(torch.cuda.memory_allocated())
    s2["seconds"] = round(time.time() - t1, 4)
    rec["step2"] = s2
    rec["optimizer_state"] = optimizer_state_bytes(opt)

    # ---- step 3: whole-step peak -----------------------------------------
    s3 = {}
    sync()
    t2 = time.time()
    s3["alloc_before_bytes"] = int(torch.cuda.memory_allocated())
    torch.cuda.reset_peak_memory_stats()
    loss = forward_loss(model, ids, tgt, c)
    loss.backward()
    opt.step()
    opt.zero_grad(set_to_none=True)
    rec["loss_step3"] = float(loss.detach().float().item())
    del loss
    sync()
    s3["seconds"] = round(time.time() - t2, 4)
    s3["peak_allocated_bytes"] = int(torch.cuda.max_memory_allocated())
    s3["peak_reserved_bytes"] = int(torch.cuda.max_memory_reserved())
    s3["alloc_end_bytes"] = int(torch.cuda.memory_allocated())
    s3["reserved_end_bytes"] = int(torch.cuda.memory_reserved())
    s3["driver_used_end_bytes"] = driver_used()
    s3["driver_used_minus_reserved_bytes"] = s3["driver_used_end_bytes"] - s3["reserved_end_bytes"]
    smi = smi_used_mib()
    s3["nvidia_smi_used_end_mib"] = smi
    try:
        st = torch.cuda.memory_stats()
        s3["num_alloc_retries"] = int(st.get("num_alloc_retries", 0))
        s3["num_ooms"] = int(st.get("num_ooms", 0))
    except Exception:
        pass
    rec["step3"] = s3
    rec["seconds_total"] = round(time.time() - t0, 2)

    del opt, params, model, ids, tgt, g
    return rec


def summary_line(rec):
    if "error" in rec:
        return "[%s] %s ERROR %s" % (rec["id"], rec.get("name", ""), rec["error"][:300])
    m = rec["model"]
    s2 = rec["step2"]
    s3 = rec["step3"]
    sv = rec["saved_for_backward"].get("total_bytes")
    f = lambda x: "%.0f" % (x / MIB) if isinstance(x, int) else "?"
    return ("[%s] %s: P=%.1fM params %s grads %s opt %s saved %s | fwd %s fwd+bwd %s step %s whole %s "
            "reserved %s driver %s MiB | %.1fs" % (
                rec["id"], rec["name"], m["parameter_count"] / 1e6, f(m["parameter_bytes"]),
                f(s2["gradient_bytes"]), f(rec["optimizer_state"]["device_bytes"]), f(sv),
                f(s2["peak_forward_bytes"]), f(s2["peak_forward_backward_bytes"]),
                f(s2["peak_optimizer_step_bytes"]), f(s3["peak_allocated_bytes"]),
                f(s3["peak_reserved_bytes"]), f(s3["driver_used_end_bytes"]), rec["seconds_total"]))


# --------------------------------------------------------------------------
# Environment
# --------------------------------------------------------------------------
def environment():
    env = {"python": platform.python_version(), "platform": platform.platform(),
           "torch": torch.__version__, "cuda": torch.version.cuda}
    try:
        env["cudnn"] = torch.backends.cudnn.version()
    except Exception:
        env["cudnn"] = None
    env["PYTORCH_CUDA_ALLOC_CONF"] = os.environ.get("PYTORCH_CUDA_ALLOC_CONF")
    q = sh(["nvidia-smi", "--query-gpu=name,driver_version,memory.total,memory.used",
            "--format=csv,noheader"])
    env["nvidia_smi_before_cuda_init"] = q
    if q:
        parts = [x.strip() for x in q.splitlines()[0].split(",")]
        if len(parts) >= 4:
            env["driver_version"] = parts[1]
            env["nvidia_smi_memory_total"] = parts[2]
            env["nvidia_smi_memory_used_before_init"] = parts[3]

    torch.cuda.init()
    x = torch.zeros(1, device=DEV)
    sync()
    free, total = torch.cuda.mem_get_info()
    env["context_bytes"] = int(total - free)
    env["context_reserved_by_torch_bytes"] = int(torch.cuda.memory_reserved())
    env["context_bytes_excluding_torch_reserved"] = env["context_bytes"] - env["context_reserved_by_torch_bytes"]
    env["mem_get_info_total_bytes"] = int(total)
    env["nvidia_smi_used_after_context_mib"] = smi_used_mib()
    props = torch.cuda.get_device_properties(0)
    env["gpu_name"] = props.name
    env["gpu_total_memory_bytes"] = int(props.total_memory)
    env["compute_capability"] = "%d.%d" % (props.major, props.minor)
    env["multi_processor_count"] = int(props.multi_processor_count)
    try:  # imported only after the context was measured
        import transformers
        env["transformers"] = transformers.__version__
    except Exception as e:
        env["transformers"] = "unavailable: %s" % e

    # What the first matmuls add (cuBLAS / cuBLASLt handles and workspaces).
    a = torch.randn(512, 512, device=DEV)
    (a @ a).sum().item()
    with torch.autocast(device_type=DEV, dtype=torch.bfloat16):
        (a @ a).float().sum().item()
    del a
    sync()
    env["after_first_matmuls"] = {
        "driver_used_bytes": driver_used(),
        "torch_allocated_bytes": int(torch.cuda.memory_allocated()),
        "torch_reserved_bytes": int(torch.cuda.memory_reserved()),
    }
    del x
    flags = {}
    for k in ("flash_sdp_enabled", "mem_efficient_sdp_enabled", "math_sdp_enabled", "cudnn_sdp_enabled"):
        fn = getattr(torch.backends.cuda, k, None)
        if fn is not None:
            try:
                flags[k] = bool(fn())
            except Exception:
                pass
    flags["matmul_allow_tf32"] = bool(torch.backends.cuda.matmul.allow_tf32)
    env["backend_flags"] = flags
    return env


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="cuda_measurements.json", help="JSON file to write")
    ap.add_argument("--only", default="", help="comma-separated config ids (default: all)")
    ap.add_argument("--time-budget", type=float, default=300.0,
                    help="seconds after which remaining configs are skipped (default 300)")
    ap.add_argument("--list", action="store_true", help="print the configurations and exit")
    ap.add_argument("--no-print-json", action="store_true", help="do not print the JSON at the end")
    args = ap.parse_args(argv)

    chosen = CONFIGS
    if args.only:
        want = [x.strip() for x in args.only.split(",") if x.strip()]
        chosen = [c for c in CONFIGS if c["id"] in want]
    if args.list:
        for c in chosen:
            print(c["id"], name_of(c))
        return 0

    start = time.time()
    result = {
        "schema": SCHEMA,
        "generated_by": "tests/accuracy/measure_cuda.py",
        "started_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "method": {
            "model_source": "transformers model classes built from config objects, random init, no downloads",
            "dropout": "all dropout probabilities 0",
            "loss": "logits = model(input_ids, use_cache=False).logits; "
                    "F.cross_entropy(logits.float().reshape(-1, V), targets.reshape(-1)), "
                    "targets random, same length as input (no shift), mean reduction",
            "logits_reference": "the model output and logits are dropped before backward "
                                "(as in the Hugging Face Trainer); only what autograd saved survives",
            "steps": "step 1 warm-up with saved-tensor hooks; step 2 phase peaks; step 3 whole-step peak",
            "zero_grad": "optimizer.zero_grad(set_to_none=True) after every step",
            "cache": "empty_cache only between configurations, never between steps",
        },
        "environment": None,
        "configs": [],
    }

    def write():
        d = os.path.dirname(os.path.abspath(args.out))
        os.makedirs(d, exist_ok=True)
        tmp = args.out + ".tmp"
        with open(tmp, "w") as fh:
            json.dump(result, fh, indent=1, sort_keys=False)
            fh.write("\n")
        os.replace(tmp, args.out)

    try:
        result["environment"] = environment()
    except Exception as e:
        result["environment"] = {"error": "%s: %s" % (type(e).__name__, e),
                                 "traceback_tail": traceback.format_exc()[-2500:]}
        write()
        print("environment failed: %s" % result["environment"]["error"])
        return 1
    env = result["environment"]
    print("[env] %s, %.1f GiB, driver %s, torch %s, CUDA %s, transformers %s, context %.0f MiB" % (
        env["gpu_name"], env["gpu_total_memory_bytes"] / (MIB * 1024), env.get("driver_version"),
        env["torch"], env["cuda"], env["transformers"], env["context_bytes"] / MIB))
    write()

    for c in chosen:
        if time.time() - start > args.time_budget:
            rec = {"id": c["id"], "name": name_of(c), "shape": dict(c),
                   "error": "skipped: time budget of %.0f s used up" % args.time_budget}
        else:
            try:
                rec = run_config(c)
            except Exception as e:
                tb = traceback.format_exc()
                rec = {"id": c["id"], "name": name_of(c), "shape": dict(c),
                       "error": "%s: %s" % (type(e).__name__, str(e)[:1500]),
                       "traceback_tail": tb[-2500:]}
                e = None
                tb = None
        gc.collect()
        try:
            torch.cuda.empty_cache()
        except Exception:
            pass
        result["configs"].append(rec)
        print(summary_line(rec))
        result["seconds_elapsed"] = round(time.time() - start, 1)
        write()

    result["seconds_elapsed"] = round(time.time() - start, 1)
    write()
    if not args.no_print_json:
        print(json.dumps(result, indent=1))
    n_err = sum(1 for r in result["configs"] if "error" in r)
    print("done: %d configs, %d errors, %.1f s, wrote %s" % (
        len(result["configs"]), n_err, result["seconds_elapsed"], args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

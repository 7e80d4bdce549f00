"""The published memory formulas of four peer tools, evaluated for one training job.

Each function returns a dict of the terms that tool models, in bytes:
    weights, gradients, optimizer, model_state (= what the tool reports for
    weights + gradients + optimizer), activations, total
(llm-analysis also gives `peak`), with None for a term the tool does not model.
Every formula is transcribed from the tool's own source at a pinned commit (named in
docs/methodology.md, "Where libtrainsize differs from the peer tools").

The job is a plain dict (see job_from_settings): the model shape, seq, micro_batch,
precision ("fp32", "bf16-mixed", "bf16", ...), optimizer, recompute, attention, plus
`params` (the true parameter count of the measured model).
Only one GPU, no tensor/pipeline/data parallelism (tp = pp = dp = 1), is modelled.
Standard library only.
"""


def _bool(v):
    return str(v).strip().lower() in ("1", "true", "yes", "on")


def job_from_settings(settings, params):
    """Turn libtrainsize option strings (--NAME VALUE) into the job dict the peers use."""
    s = settings
    heads = int(s["heads"])
    kv = int(s.get("kv-heads", "0")) or heads
    return {
        "layers": int(s["layers"]), "hidden": int(s["hidden"]), "heads": heads, "kv_heads": kv,
        "head_dim": int(s.get("head-dim", "0")) or int(s["hidden"]) // heads,
        "ffn": int(s["ffn"]), "vocab": int(s["vocab"]), "positions": int(s.get("positions", "0")),
        "gated": _bool(s.get("gated-mlp", "false")),
        "seq": int(s["seq"]), "micro_batch": int(s.get("micro-batch", "1")),
        "precision": s.get("precision", "bf16-mixed"),
        "optimizer": s.get("optimizer", "adamw"),
        "recompute": s.get("recompute", "none"),
        "attention": s.get("attention", "flash"),
        "params": int(params),
    }


def _act_bytes(job):
    """Bytes per activation / weight element: 4 for fp32 training, else 2 (16-bit)."""
    return 4 if job["precision"] == "fp32" else 2


# llm-analysis `other_op_bytes`: optimizer state besides the master copy, bytes/param
# (None, its default, means Adam's 8); what a user would pass for each optimizer.
OTHER_OP_BYTES = {"adam": 8, "adamw": 8, "sgd-momentum": 4, "sgd": 0}


# --------------------------------------------------------------------------
# llm-analysis, llm_analysis/analysis.py at
# https://github.com/cli99/llm-analysis/tree/d841e40aec8c84b9e76ba9cfbce67418adb172bd
# --------------------------------------------------------------------------
def llm_analysis_params(job):
    """llm-analysis's own count (its get_num_params_* functions): no biases, no position
    embeddings, a shared (tied) embedding, 2h of norm weights per layer plus a final norm
    of h."""
    h, L, V = job["hidden"], job["layers"], job["vocab"]
    attn = 2 * h * h + 2 * h * (h * job["kv_heads"] // job["heads"])
    mlp = (3 if job["gated"] else 2) * h * job["ffn"]
    return L * (attn + mlp + 2 * h) + V * h + h


def llm_analysis(job):
    """llm-analysis `training()` with its defaults: weights in the activation dtype
    (wb = bpa), gradients in the master dtype (mb = 4 bytes), optimizer op = 8 + mb = 12
    bytes/param for Adam (other_op_bytes=4 for SGD with momentum: 8), LayerNorm inputs
    kept in fp32 (lnb = 4), attention dropout mask counted (attn_dropout=True),
    softmax_dropout=False.  Eager configurations use the non-flash branch
    (flash_attn=False), flash ones the default flash branch; tp = sp = 1.
    `peak` is its peak estimate: weights + optimizer + max(activations, gradients) +
    loss_bwd (s b V bpa); the ZeRO-3 prefetch term is 0 here."""
    P = llm_analysis_params(job)
    bpa = _act_bytes(job)            # weight_bits = activation_bits = embedding_bits
    mb, lnb = 4, 4
    op = OTHER_OP_BYTES.get(job["optimizer"], 8) + mb
    s, b, h, a, V = job["seq"], job["micro_batch"], job["hidden"], job["heads"], job["vocab"]
    sbh = s * b * h
    if job["recompute"] == "full":
        per_layer = sbh * bpa                                  # FULL: layer input only
    else:
        if job["attention"] == "flash":
            core = (2 * sbh + 4 * a * s * b) * bpa
        else:
            core = 2 * a * s * s * b * bpa
        attn = (sbh + 4 * sbh) * bpa + core + sbh               # + 1-byte dropout mask
        mlp = sbh * bpa + (bpa + bpa) * (job["ffn"] / h) * sbh
        norms = 2 * sbh * lnb
        per_layer = attn + mlp + norms
    # full L, + input embedding + logits + final norm
    act = job["layers"] * per_layer + sbh * bpa + s * b * V * bpa + sbh * lnb
    w, g, o = P * bpa, P * mb, P * op
    return {"weights": w, "gradients": g, "optimizer": o, "model_state": w + g + o,
            "activations": act, "total": w + g + o + act,
            "peak": w + o + max(act, g) + s * b * V * bpa}


# --------------------------------------------------------------------------
# Megatron-LM megatron/training/theoretical_memory_usage.py at
# https://github.com/NVIDIA/Megatron-LM/blob/00caa53af30912914981c86f39db123961678bbd/megatron/training/theoretical_memory_usage.py
# --------------------------------------------------------------------------
def megatron(job):
    """`compute_weight_and_optimizer_memory`: 18 bytes/param without the distributed
    optimizer, here on the true parameter count.  The code only reports the product; the
    split 2 (16-bit weights) + 4 (fp32 grads) + 12 (fp32 master + Adam m, v) follows from
    Megatron's fp32 `main_grad` and its distributed-optimizer figure 6 + 12/DP (2 + 4 kept
    whole, 12 sharded).  It does not depend on precision or optimizer.
    `compute_activation_memory_without_sp` (used unless SP + selective):
    sbh(10 + 24/t) per layer (no 5as/h term, full recompute not modelled), x L,
    + 8sb (embedding input) + sbh (embedding dropout), + (sb V_padded + sbh) x 2 for the
    output layer when pp = 1, all x 1.05.  V_padded: the vocabulary rounded up to a
    multiple of 128 (Megatron's default --make-vocab-size-divisible-by, tp = 1)."""
    P = job["params"]
    s, b, h, t = job["seq"], job["micro_batch"], job["hidden"], 1
    vp = -(-job["vocab"] // 128) * 128
    act = s * b * h * (10 + 24 / t) * job["layers"]
    act += 8 * s * b + s * b * h
    act += (s * b * vp / t + s * b * h) * 2
    act *= 1.05
    return {"weights": 2 * P, "gradients": 4 * P, "optimizer": 12 * P, "model_state": 18 * P,
            "activations": act, "total": 18 * P + act}


# --------------------------------------------------------------------------
# DeepSpeed estimate_zero2_model_states_mem_needs, deepspeed/runtime/zero/stage_1_and_2.py at
# https://github.com/deepspeedai/DeepSpeed/blob/02aa38c3/deepspeed/runtime/zero/stage_1_and_2.py
# --------------------------------------------------------------------------
def deepspeed(job, gpus=1):
    """ZeRO-2, no offload: GPU bytes = 2P + int(18P/G), with G = total GPUs (here 1,
    i.e. 20 bytes/param; DeepSpeed ships no ZeRO-0/1 estimator).  Its comment splits the
    18 as 2 fp16 grads + 4 fp32 grads + 4 fp32 params + 8 Adam; so weights 2P (fp16),
    gradients 6P, optimizer 12P.  Model states only: no activations, independent of the
    precision and optimizer chosen."""
    P = job["params"]
    G = gpus
    return {"weights": 2 * P, "gradients": (2 + 4) * P // G, "optimizer": (4 + 8) * P // G,
            "model_state": 2 * P + int(18 * P / G), "activations": None, "total": None}


# --------------------------------------------------------------------------
# Hugging Face accelerate estimate-memory, src/accelerate/commands/estimate.py at
# https://github.com/huggingface/accelerate/blob/00e4d264/src/accelerate/commands/estimate.py
# --------------------------------------------------------------------------
def hf_buffers(job, bool_bytes=1.0):
    """Bytes of the buffers Hugging Face's modules register (transformers 4.45-4.47, as copied
    in tests/accuracy/models.py): GPT-2 (learned positions) keeps a bool causal mask of
    positions^2 and an fp32 `masked_bias` scalar in every layer; Llama (rotary) one fp32
    `inv_freq` of head_dim/2.  accelerate's `dtype_byte_size` counts a bool as 1/8 byte."""
    if job["positions"] > 0:
        return job["layers"] * (job["positions"] ** 2 * bool_bytes + 4)
    return 4 * (job["head_dim"] // 2)


def accelerate(job):
    """`estimate_training_usage(fp32 size, dtype)`: the fp32 size is that of the model
    loaded on the meta device in fp32, buffers included (`calculate_maximum_sizes`):
    4P + hf_buffers(job, bool_bytes=1/8).
    float32: model 1x, gradients 1x, optimizer 2x, step 4x; float16/bfloat16 (our
    bf16-mixed): model 1x, gradients 1.5x, optimizer 2x, step 2x, all of the fp32 size.
    The column "Training using Adam" is max(values): 4x for fp32, 2x for 16-bit; that is
    reported as model_state and as total (accelerate counts no activations and assumes
    Adam and batch size 1)."""
    fp32 = 4 * job["params"] + hf_buffers(job, bool_bytes=1 / 8)
    if job["precision"] == "fp32":
        m = {"model": fp32, "gradients": fp32, "optimizer": 2 * fp32, "step": 4 * fp32}
    else:
        m = {"model": fp32, "gradients": fp32 + fp32 // 2, "optimizer": 2 * fp32}
        m["step"] = m["optimizer"]
    headline = max(m.values())
    return {"weights": m["model"], "gradients": m["gradients"], "optimizer": m["optimizer"],
            "model_state": headline, "activations": None, "total": headline}


PEERS = [
    ("llm-analysis", llm_analysis),
    ("Megatron", megatron),
    ("DeepSpeed", deepspeed),
    ("accelerate", accelerate),
]


def all_peers(job):
    return [(name, fn(job)) for name, fn in PEERS]


def _self_check():
    """Reproduce known outputs of the tools (tp = 1 cases): llm-analysis run at d841e40 on a
    Llama-2-7B-like config, DeepSpeed's ZeRO-2 estimator for 7e9 parameters on 8 GPUs, and
    accelerate's documented bert-base-cased table
    (https://huggingface.co/docs/accelerate/usage_guides/model_size_estimator)."""
    llama7b = {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 32, "ffn": 11008,
               "vocab": 32000, "gated": True, "seq": 4096, "micro_batch": 1,
               "precision": "bf16-mixed", "optimizer": "adamw", "recompute": "full",
               "attention": "flash", "params": 6738415616}
    assert llm_analysis_params(llama7b) == 6607343616
    la = llm_analysis(llama7b)                       # ZeRO 0 row
    assert (la["weights"], la["gradients"], la["optimizer"], la["activations"]) == \
        (13214687232, 26429374464, 79288123392, 1436549120), la
    ds = deepspeed(dict(llama7b, params=7 * 10**9), gpus=8)         # 27.71 GiB
    assert "%.2f" % (ds["model_state"] / 2**30) == "27.71"
    # bert-base-cased: 108,310,272 params + 8,192 B of int64 buffers; not a GPT-2/Llama
    # layout, so hf_buffers does not apply: fold the buffers into the count (2,048 x 4 B)
    bert = dict(llama7b, params=108310272 + 2048, head_dim=0, positions=0, precision="fp32")
    acc = accelerate(bert)
    assert "%.2f" % (acc["weights"] / 2**20) == "413.18"
    assert "%.2f" % (acc["total"] / 2**30) == "1.61"
    assert "%.2f" % (accelerate(dict(bert, precision="bf16-mixed"))["total"] / 2**20) == "826.36"
    print("peers.py: published vectors reproduced")


if __name__ == "__main__":
    _self_check()

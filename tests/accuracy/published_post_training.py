#!/usr/bin/env python3
"""Published RL post-training runs (tests/accuracy/fixtures/post_training.json) against the
estimate: independent checks of the rollout and the step, nothing fitted to them. Used by
report.py for docs/accuracy.md; `python3 tests/accuracy/published_post_training.py
[TRAINSIZE]` prints the rows."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "post_training.json")


def figure(est, path):
    v = est
    for k in path.split("."):
        v = v[k]
    return float(v)


def predicted(est, row, name):
    """A result's figure, or one derived from it: the engine's output tokens a second (the
    responses' tokens over the generation, the weights handed to the engines left out)."""
    if name == "rollout.output_tokens_per_second":
        t = est["time"]
        generating = t["rollout_seconds"] - t["rollout_sync_seconds"] - t["rollout_network_seconds"]
        s = row["settings"]
        return float(s["global-batch"]) * float(s["response-tokens-mean"]) / generating
    return figure(est, name)


def compare(binary, path=FIXTURE):
    with open(path) as f:
        rows = json.load(f)["rows"]
    out = []
    for row in rows:
        args = [binary, "estimate", "--json"]
        for k, v in row["settings"].items():
            args += ["--" + k, v]
        est = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        for c in row["checks"]:
            pred = predicted(est, row, c["figure"])
            out.append({"id": row["id"], "url": row["url"], "figure": c["figure"], "what": c["what"],
                        "measured": c["measured"], "predicted": pred, "ratio": pred / c["measured"],
                        "note": row.get("note", ""), "link": est["system"]["network_link"]})
    return out


def markdown(rows):
    L = ["## Post-training checks: `tests/accuracy/fixtures/post_training.json`", ""]
    L.append("RL runs whose step, rollout or weight synchronisation a public page states with its layout, "
             "and inference benchmarks of vLLM read as one rollout (prompts, mean and longest output, the "
             "engine's tensor parallelism), each estimated as the page describes it. The rollout engine's "
             "shares (80 % of the memory bandwidth, half the 16-bit peak) and the weight sync's link-rate "
             "bound are assumptions, not fits: these rows are checks of them. They show the engine model "
             "is not calibrated: close for an 8B model on one GPU, about 1.7 times too fast for a 70B at "
             "tensor parallelism 4, five times for DeepSeek-V3 at 32, so a per-step cost that grows with "
             "the engine's width is missing. TensorRT-LLM's published tables run FP8 weights and KV "
             "cache, which the 16-bit engine model does not describe, and are left out. "
             "Memory: the packed fine-tuning run with a published peak is torchtune's Llama 3.2 3B on one "
             "A100 (rows of 4,096 tokens, two a step, bf16, no checkpointing: 60.0 GiB of peak active "
             "memory), `tt-readme-opt-3b-packed` under the published runs above (`--packing true`). No "
             "published peak of a token-budget GRPO run (verl's `use_dynamic_bsz`) with its statistic "
             "(allocated, reserved, nvidia-smi) and device named was found: that check has nothing to run "
             "against yet.")
    L.append("")
    L.append("| run | figure | published | estimated | estimated / published |")
    L.append("|---|---|---:|---:|---:|")
    for r in rows:
        L.append("| [%s](%s) | %s (`%s`) | %.1f | %.1f | %.2f |" % (r["id"], r["url"], r["what"], r["figure"],
                                                                   r["measured"], r["predicted"], r["ratio"]))
    L.append("")
    notes = sorted({(r["id"], r["note"]) for r in rows if r["note"]})
    for i, n in notes:
        L.append("- `%s`: %s." % (i, n))
    L.append("")
    return L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/programs/trainsize"
    for r in compare(binary):
        print("%-45s %-30s %9.1f %9.1f %5.2f  %s" % (r["id"], r["figure"], r["measured"], r["predicted"], r["ratio"],
                                                    r["link"]))


if __name__ == "__main__":
    main()

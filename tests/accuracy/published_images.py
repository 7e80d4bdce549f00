#!/usr/bin/env python3
"""Published training throughput of image classifiers and encoders
(tests/accuracy/fixtures/images_encoders.json) against trainsize's defaults: samples/s per
GPU against layout.global_batch / time.step_seconds / gpus. Used by report.py for
docs/accuracy.md; `python3 tests/accuracy/published_images.py [TRAINSIZE]` prints the rows.
The C test tests/test_published_images.c applies the same rule."""

import collections
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "images_encoders.json")


def compare(binary, path=FIXTURE):
    with open(path) as f:
        fixture = json.load(f)
    out = []
    for row in fixture["rows"]:
        r = {"id": row["id"], "group": row["group"], "model": row["model"], "url": row["url"],
             "settings": row["settings"]}
        if "excluded" in row:
            r["excluded"] = row["excluded"]
            out.append(r)
            continue
        args = [binary, "estimate", "--json"]
        for k, v in row["settings"].items():
            args += ["--" + k, v]
        est = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)
        pred = est["layout"]["global_batch"] / est["time"]["step_seconds"] / int(row["settings"].get("gpus", "1"))
        r.update(measured=row["samples_per_s_per_gpu"], predicted=pred, error=pred / row["samples_per_s_per_gpu"] - 1.0,
                 tf32=est["layout"]["tf32"], kernels=est["layout"]["kernels"])
        out.append(r)
    return out


def markdown(rows):
    comp = [r for r in rows if "error" in r]
    L = ["## Image and encoder training: `tests/accuracy/fixtures/images_encoders.json`", ""]
    L.append("Measured training throughput of torchvision's ResNets and of BERT-base and -large "
             "(SQuAD v1.1 fine-tuning at 384 tokens), 1 to 8 GPUs: Lambda's own runs of NVIDIA's "
             "training scripts on its machines (the raw logs of lambdal/deeplearning-benchmark: "
             "ResNet-50 on synthetic data in NCHW, BERT with its 2022 modelling code), timm's RTX "
             "3090 benchmarks of ResNet-18 to -152 in NCHW and channels-last, and a timm issue's "
             "A100 channels-last runs. Lambda's \"FP32\" on Ampere and later is TF32 (the NGC "
             "containers turn it on), so those rows set `precision tf32`. The convolution shares "
             "are fitted on these rows (kernels.c), so the errors below are fitted ones; the "
             "held-out ones are in the section on leaving sources out. %d rows compared, %d left "
             "out with the reason (an 8 x A100 box whose BERT runs scaled 3.3x where its ResNet "
             "runs scaled 6.9x)." % (len(comp), len(rows) - len(comp)))
    L.append("")
    L.append("| group, precision, GPU | runs | median \\|error\\| | worst | signed median |")
    L.append("|---|---:|---:|---:|---:|")
    by = collections.OrderedDict()
    for r in sorted(comp, key=lambda r: (r["group"], r["model"], r["settings"]["precision"], r["settings"]["gpu"])):
        by.setdefault((r["group"] + " " + r["model"], r["settings"]["precision"], r["settings"]["gpu"]), []).append(r["error"])
    for (g, p, gpu), v in by.items():
        a = [abs(x) for x in v]
        L.append("| %s, %s, %s | %d | %.1f %% | %.1f %% | %+.1f %% |" % (g, p, gpu, len(v), 100 * statistics.median(a),
                                                                    100 * max(a), 100 * statistics.median(v)))
    for grp in ("image", "encoder"):
        a = [abs(r["error"]) for r in comp if r["group"] == grp]
        L.append("| **%s, all** | %d | %.1f %% | %.1f %% | |" % (grp, len(a), 100 * statistics.median(a), 100 * max(a)))
    L.append("")
    return L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/programs/trainsize"
    for r in compare(binary):
        if "error" in r:
            print("%-70s %9.1f %9.1f %+6.1f%%" % (r["id"][:70], r["measured"], r["predicted"], 100 * r["error"]))


if __name__ == "__main__":
    main()

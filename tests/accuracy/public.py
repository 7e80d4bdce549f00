#!/usr/bin/env python3
"""Published runs (tests/accuracy/fixtures/public.json) against trainsize's defaults.

Each compared row runs `trainsize estimate --json` with the row's settings (never a
framework: the defaults are under test) and compares the figure as the fixture's
"comparison" member says. Used by report.py for docs/accuracy.md and
docs/accuracy-public.png; `python3 tests/accuracy/public.py [TRAINSIZE]` prints the rows.
The C test tests/test_public_accuracy.c applies the same rules."""

import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "fixtures", "public.json")
GIB = float(1 << 30)

# Row id prefix -> the source as the tables name it (the row's own "source" is longer).
SOURCES = [("aai-", "Answer.AI fsdp_qlora"), ("peft-doc-", "HF PEFT docs"),
           ("philschmid-", "HF blog (P. Schmid)"), ("peft-", "HF PEFT"), ("tt-", "torchtune"),
           ("lf-wiki-", "LLaMA-Factory wiki"), ("lf-issue", "LLaMA-Factory issues"),
           ("axolotl-", "axolotl"), ("openrlhf-", "OpenRLHF"), ("unsloth-", "Unsloth"),
           ("dschat-", "DeepSpeed-Chat"), ("hf-run-clm", "transformers issues"),
           ("hf-ulysses-", "HF blog (Ulysses SP)"), ("trl-pr", "TRL / Accelerate PRs"),
           ("accelerate-pr", "TRL / Accelerate PRs"), ("swift-", "ms-swift"),
           ("torchtitan-pr", "torchtitan PRs"), ("mst-", "MsT paper"),
           ("torchtune-", "torchtune"), ("open-r1-", "open-r1")]


def source_of(row_id):
    for prefix, name in SOURCES:
        if row_id.startswith(prefix):
            return name
    return "other"


def estimate(binary, settings, extra=()):
    args = [binary, "estimate", "--json"]
    for k, v in settings.items():
        args += ["--" + k, v]
    args += list(extra)
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def compare(binary, path=FIXTURE, extra=()):
    """One dict per fixture row: compared (with its error and the estimate), out of memory, or
    excluded; `extra` options follow each row's own."""
    with open(path) as f:
        fixture = json.load(f)
    out = []
    for row in fixture["rows"]:
        r = {"id": row["id"], "source": source_of(row["id"]), "kind": row["kind"],
             "url": row["url"], "oom": row["oom"], "gathered": row.get("gathered", "")}
        if "settings" not in row:
            r["excluded"] = row["excluded"]
            out.append(r)
            continue
        est = estimate(binary, row["settings"], extra)
        m = est["memory"]
        r["framework"] = est["layout"]["framework"]
        if row["oom"]:
            r.update(fits=m["fits"], predicted=(m["peak_total"], m["peak_total"]),
                     capacity=m["gpu_capacity"])
            out.append(r)
            continue
        lo, hi = m["peak_allocated"], m["peak_total"]
        if row["kind"] == "allocated":
            hi = lo
        elif row["kind"] == "reserved":
            lo = hi = m["peak_reserved"]
        elif row["kind"] == "nvidia-smi":
            lo = hi
        flo, fhi = row.get("range_bytes", [row["figure_bytes"]] * 2)
        err = (hi - flo) / flo if hi < flo else (lo - fhi) / fhi if lo > fhi else 0.0
        r.update(measured=(flo, fhi), predicted=(lo, hi), error=err, fits=m["fits"], estimate=est)
        out.append(r)
    return out


def _stats(errs):
    a = [abs(e) for e in errs]
    return (len(a), 100 * statistics.median(a), 100 * max(a)) if a else (0, 0.0, 0.0)


def _gib(pair):
    lo, hi = pair
    return "%.2f" % (lo / GIB) if lo == hi else "%.2f–%.2f" % (lo / GIB, hi / GIB)


def markdown(rows, png_name):
    comp = [r for r in rows if "error" in r]
    ooms = [r for r in rows if r["oom"] and "fits" in r]
    excl = [r for r in rows if "excluded" in r]
    n, med, worst = _stats([r["error"] for r in comp])
    L = ["## Published runs: `tests/accuracy/fixtures/public.json`", ""]
    L.append("Peak GPU memory that people measured on real fine-tuning jobs, each row with its "
             "source (URL and commit), the settings as the source states them, the figure and its "
             "kind, and the trainsize options that describe the run. The options never set "
             "`--framework`: what is compared is the default, `auto` (the rows gathered 2026-12, "
             "an independent check of memory at the margin and at long context, name their "
             "training stack with `--stack`, as a user would). %d rows from %d sources; "
             "%d compared, %d out-of-memory runs checked, %d left out with the reason in the "
             "fixture." % (len(rows), len({r["source"] for r in rows}), len(comp), len(ooms), len(excl)))
    L.append("")
    L.append("How a figure is compared: `allocated` with `memory.peak_allocated`, `reserved` with "
             "`memory.peak_reserved`, `nvidia-smi` with `memory.peak_total`; a figure of unknown "
             "kind counts as exact when it lies between `peak_allocated` and `peak_total`, else by "
             "its distance to the nearer end. **Calibration:** `sharded-slack` (0.19) is the median "
             "of what the ZeRO-3/FSDP figures of `max_memory_reserved` here and in `stacks.json` need "
             "(held out one source at a time under \"Uncertainty bands\"), so those rows are not "
             "independent of the model; the mechanisms (no_sync, bitsandbytes inputs, kbit upcast, "
             "root unit) come from the frameworks' code, not from these figures.")
    L.append("")
    L.append("| set | figures | median \\|error\\| | worst \\|error\\| |")
    L.append("|---|---:|---:|---:|")
    L.append("| all compared | %d | %.1f %% | %.1f %% |" % (n, med, worst))
    for label, later in (("gathered before 2026-12", False), ("gathered 2026-12", True)):
        k = _stats([r["error"] for r in comp if bool(r["gathered"]) == later])
        if k[0]:
            L.append("| %s | %d | %.1f %% | %.1f %% |" % ((label,) + k))
    for kind in ("allocated", "reserved", "nvidia-smi", "unknown"):
        k = _stats([r["error"] for r in comp if r["kind"] == kind])
        if k[0]:
            L.append("| kind: %s | %d | %.1f %% | %.1f %% |" % ((kind,) + k))
    for src in sorted({r["source"] for r in comp}):
        k = _stats([r["error"] for r in comp if r["source"] == src])
        L.append("| source: %s | %d | %.1f %% | %.1f %% |" % ((src,) + k))
    L.append("")
    called = [r["id"] for r in ooms if r["fits"]]
    L.append("Out-of-memory runs: %d; called \"does not fit\": %d%s." % (
        len(ooms), len(ooms) - len(called), (" (called fitting: %s)" % ", ".join(called)) if called else ""))
    ran_no_fit = [r for r in comp if not r.get("fits", True)]
    L.append("Runs that ran, called \"does not fit\": %d of %d%s. The verdict compares "
             "`peak_needed` (the allocated peak, fragmentation, the CUDA context and buffers: "
             "the allocator releases its cache under pressure) with the runtime's total "
             "(`usable_bytes`), so a run measured within a few per cent of its GPU can fall "
             "either side; `--headroom` warns before that." % (
                 len(ran_no_fit), len(comp),
                 (" (%s)" % ", ".join(r["id"] for r in ran_no_fit)) if ran_no_fit else ""))
    L.append("")
    L.append("![estimate / measured per published run](%s)" % png_name)
    L.append("")
    L.append("| row | source | kind | measured GiB | predicted GiB | error |")
    L.append("|---|---|---|---:|---:|---:|")
    for r in comp:
        L.append("| [%s](%s) | %s | %s | %s | %s | %+.1f %% |" % (
            r["id"], r["url"], r["source"], r["kind"], _gib(r["measured"]), _gib(r["predicted"]),
            100 * r["error"]))
    for r in ooms:
        L.append("| [%s](%s) | %s | out of memory | %.2f (capacity) | %.2f | %s |" % (
            r["id"], r["url"], r["source"], r["capacity"] / GIB, r["predicted"][0] / GIB,
            "fits (wrong)" if r["fits"] else "does not fit"))
    L.append("")
    L.append("Left out (reasons as in the fixture):")
    L.append("")
    reasons = {}
    for r in excl:
        reasons.setdefault(r["excluded"], []).append(r["id"])
    for reason, ids in sorted(reasons.items(), key=lambda x: -len(x[1])):
        L.append("- %s: %s" % (reason, ", ".join(ids)))
    L.append("")
    return L


def write_png(path, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    comp = [r for r in rows if "error" in r]
    sources = sorted({r["source"] for r in comp})
    colours = plt.get_cmap("tab10")
    fig, ax = plt.subplots(figsize=(11, 5.5), dpi=90)
    ax.axhspan(0.9, 1.1, color="#2ca02c", alpha=0.15, lw=0)
    ax.axhspan(0.75, 1.25, color="#2ca02c", alpha=0.07, lw=0)
    ax.axhline(1.0, color="black", lw=0.8)
    for i, src in enumerate(sources):
        pts = [(r["measured"][0] / GIB, 1.0 + r["error"]) for r in comp if r["source"] == src]
        ax.scatter([p[0] for p in pts], [p[1] for p in pts], color=colours(i % 10), s=36,
                   label=src, edgecolors="black", linewidths=0.4)
    ax.set_xscale("log")
    ax.set_xlabel("measured peak, GiB (per GPU)")
    ax.set_ylabel("estimate / measured (1 = exact)")
    ax.set_title("Published fine-tuning runs: trainsize defaults against measured peaks "
                 "(bands: ±10 %, ±25 %)", fontsize=11)
    ax.grid(color="#dddddd", lw=0.5)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9, frameon=False)
    fig.tight_layout()
    fig.savefig(path, format="png", metadata={"Software": None})
    plt.close(fig)


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/programs/trainsize"
    for r in compare(binary):
        if "error" in r:
            print("%-52s %-10s %+6.1f%%" % (r["id"], r["kind"], 100 * r["error"]))
        elif "fits" in r:
            print("%-52s %-10s %s" % (r["id"], "oom", "FITS (wrong)" if r["fits"] else "does not fit"))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Uncertainty bands: for each validation class the library puts a job in (its result's
uncertainty.basis), the 10th to the 90th percentile of measured over estimated on the
class's published runs.

Time: every row of time.json, stacks.json and images_encoders.json, its step time as the
fit left without the row's own source predicts it (loso.py): measured / estimated step =
estimated / measured tokens (or samples) per second. Memory: every compared figure of
public.json and stacks.json, measured / estimated (the figure of the row's kind, as
public.py and published_stacks.py compare it; a figure of unknown kind counts as exact
between peak_allocated and peak_total), a ZeRO-3/FSDP one with sharded-slack fitted
without its source. Each band holds at least 80 % of its class both held out and at the
library's shipped constants (what tests/test_uncertainty.c checks). Rows the library
widens (an architecture without runs, context parallelism, offload, post-training, many
experts) are left out of their class's band and reported apart: how many the widened band
covers.

    python3 tests/accuracy/bands.py build/programs/trainsize    # the tables, and the C table

lib/uncertainty.c holds the figures this prints (its TIME_BAND and MEMORY_BAND rows, rounded
outward); docs/accuracy.md ("Uncertainty bands") the tables (report.py writes them).
"""

import collections
import math
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import loso  # noqa: E402
import public  # noqa: E402
import published_stacks  # noqa: E402

BASIS = re.compile(r"^time: (.*?), \d+ runs; memory: (.*?), \d+ figures(?:; widened: (.*))?$")
LOW_Q = 0.10


def basis(est):
    m = BASIS.match(est["uncertainty"]["basis"])
    if not m:
        raise SystemExit("bands: unexpected basis %r" % est["uncertainty"]["basis"])
    return m.group(1), m.group(2), m.group(3) or ""


def interval(v):
    """The order statistics that leave out at most a tenth of the rows on each side: the
    k-th smallest and k-th largest, k = floor(n / 10), so at least 80 % lie inside (an
    interpolated decile leaves out more of a small class)."""
    s = sorted(v)
    k = int(math.floor(LOW_Q * len(s)))
    return s[k], s[len(s) - 1 - k]


def time_rows(binary):
    ts = loso.load_binding(binary)
    R, _, held, at_defaults, _ = loso.run(binary)
    out = []
    for r in R:
        if held.get(r["id"]) is None or at_defaults.get(r["id"]) is None:
            continue
        kw = {k.replace("-", "_"): v for k, v in r["settings"].items()}
        est = ts.estimate(**kw).to_dict()
        t, _, widened = basis(est)
        u = est["uncertainty"]
        out.append(dict(id=r["id"], source=r["source"], cls=t, widened=widened, ratio=math.exp(held[r["id"]]),
                        shipped=math.exp(at_defaults[r["id"]]), low=u["time_low"], high=u["time_high"]))
    return out


GIB = 2.0 ** 30
SHARDED_SLACK = 0.19  # the library's sharded-slack (lib/params.c)


def memory_figures(binary, extra=()):
    """Every compared memory figure of public.json and stacks.json: its source (the repository
    or site, as loso.py keys time rows), kind, measured bytes (low, high), the estimate and
    its error, as public.py and published_stacks.py compare them; `extra` options follow
    each row's own."""
    out = []
    for r in public.compare(binary, extra=extra):
        if "error" in r:
            out.append(dict(id=r["id"], source=loso.source_key(r["url"]), kind=r["kind"], measured=r["measured"],
                            est=r["estimate"], error=r["error"]))
    for r in published_stacks.compare(binary, extra=extra):
        if "memory_error" in r:
            b = r["memory"] * GIB
            out.append(dict(id=r["id"], source=loso.source_key(r["url"]), kind=r["memory_kind"], measured=(b, b),
                            est=r["memory_estimate"], error=r["memory_error"]))
    return out


def sharded(f):
    return f["est"]["layout"]["zero"] >= 3


def needed_slack(f):
    """The sharded-slack a ZeRO-3/FSDP figure of max_memory_reserved needs for the estimate to
    meet it: what it holds beyond the estimate's allocated peak, as a share of that peak."""
    m = f["est"]["memory"]
    measured = 0.5 * (f["measured"][0] + f["measured"][1])
    return (measured - (m["peak_reserved"] - m["allocator_slack"])) / m["peak_allocated"]


def slack_fit(figures, leave_out=None):
    """sharded-slack fitted as the median of what the sharded reserved figures need, without
    the source `leave_out`."""
    need = [needed_slack(f) for f in figures if sharded(f) and f["kind"] == "reserved" and f["source"] != leave_out]
    return statistics.median(need) if need else SHARDED_SLACK


def memory_rows(binary):
    """Each figure's measured / estimated, held out (its sharded-slack fitted without its
    source, for a ZeRO-3/FSDP layout, the only one the constant moves) and as shipped."""
    shipped = memory_figures(binary)
    held = {}
    for src in sorted({f["source"] for f in shipped if sharded(f)}):
        extra = ["--sharded-slack", "%.4f" % slack_fit(shipped, src)]
        for f in memory_figures(binary, extra):
            if f["source"] == src and sharded(f):
                held[f["id"]] = f
    out = []
    for f in shipped:
        h = held.get(f["id"], f)
        _, m, widened = basis(f["est"])
        u = f["est"]["uncertainty"]
        out.append(dict(id=f["id"], source=f["source"], cls=m, widened=widened, ratio=1.0 / (1.0 + h["error"]),
                        shipped=1.0 / (1.0 + f["error"]), low=u["memory_low"], high=u["memory_high"]))
    return out


def slack_table(binary):
    """The sharded-slack fit: on every source, and without each source that has figures for it."""
    figs = memory_figures(binary)
    fit = [f for f in figs if sharded(f) and f["kind"] == "reserved"]
    L = ["| sharded-slack fitted | reserved figures | value |", "|---|---:|---:|",
         "| on every source (the library's: %.2f) | %d | %.3f |" % (SHARDED_SLACK, len(fit), slack_fit(figs))]
    for s in sorted({f["source"] for f in fit}):
        n = sum(1 for f in fit if f["source"] == s)
        L.append("| without %s | %d | %.3f |" % (s, len(fit) - n, slack_fit(figs, s)))
    return L


def bands(rows):
    """class -> (runs, sources, low, high) from the rows the library does not widen."""
    by = collections.OrderedDict()
    for r in rows:
        if not r["widened"]:
            by.setdefault(r["cls"], []).append(r)
    out = collections.OrderedDict()
    for c, rs in by.items():
        lo, hi = interval([r["ratio"] for r in rs])
        # the band holds 80 % of the class both held out and as the library ships (its
        # fitted constants)
        if "shipped" in rs[0]:
            slo, shi = interval([r["shipped"] for r in rs])
            lo, hi = min(lo, slo), max(hi, shi)
        out[c] = (len(rs), len({r["source"] for r in rs}), min(1.0, lo), max(1.0, hi))
    return out


def coverage(rows):
    """(covered, rows) of the rows inside the band the library gives them."""
    inside = [r["low"] * (1 - 1e-9) <= r["ratio"] <= r["high"] * (1 + 1e-9) for r in rows]
    return sum(inside), len(inside)


def table(kind, rows):
    b = bands(rows)
    L = ["| %s class | runs | sources | low | high | half-width | inside the library's band |" % kind,
         "|---|---:|---:|---:|---:|---:|---:|"]
    for c, (n, src, lo, hi) in b.items():
        cov, tot = coverage([r for r in rows if r["cls"] == c and not r["widened"]])
        L.append("| %s | %d | %d | %.3f | %.3f | %.3f | %d of %d |" % (c, n, src, lo, hi, (hi - lo) / 2, cov, tot))
    wid = [r for r in rows if r["widened"]]
    if wid:
        cov, tot = coverage(wid)
        L.append("| widened (any class) | %d | %d | | | | %d of %d |" % (tot, len({r["source"] for r in wid}), cov, tot))
    cov, tot = coverage(rows)
    widths = sorted((r["high"] - r["low"]) / 2 for r in rows)
    L.append("| **all** | %d | %d | | | median %.3f | %d of %d (%.0f %%) |" % (
        tot, len({r["source"] for r in rows}), statistics.median(widths), cov, tot, 100.0 * cov / tot))
    return L


def c_table(kind, rows):
    """The table of lib/uncertainty.c: each band rounded outward to 3 decimals (a rounded-in
    end would leave its own row outside)."""
    return ["%s %-70s %.3f %.3f %d" % (kind, c, math.floor(lo * 1000) / 1000, math.ceil(hi * 1000) / 1000, n)
            for c, (n, _, lo, hi) in bands(rows).items()]


def markdown(binary):
    t, m = time_rows(binary), memory_rows(binary)
    L = ["## Uncertainty bands", ""]
    L.append("Every result carries `uncertainty`: factors on its time figures (`time_low`, `time_high`) "
             "and on its memory figures (`memory_low`, `memory_high`), and the `basis` that set them "
             "(lib/uncertainty.c; `tests/accuracy/bands.py` writes these tables). The library puts each "
             "job in a class (decoders by the stack that runs them, MoE decoders, encoders, ResNets; for "
             "memory: unsharded, ZeRO-3/FSDP, long context), and a class's band is the interval that "
             "leaves out at most a tenth of its runs on each side, of measured over estimated: for time, "
             "each run predicted by the constants fitted without its source (the section above) and, "
             "taken together with it, as the library ships; for memory likewise, the one memory constant "
             "fitted on these rows, sharded-slack, refitted without the figure's source (the table "
             "after the bands). "
             "About 80 % of a class's runs lie inside its band. A job outside what its class validated "
             "(an architecture without measured runs, context parallelism, offload, post-training, more "
             "than 64 experts for time) gets its band's half-width doubled on a log scale for each such "
             "condition: 2 is the least of 1.5, 2, 2.5 and 3 under which the widened runs below lie "
             "inside their bands at least 80 % of the time, so that factor is fitted on them. A site "
             "calibration fitted on the job's GPU with a leave-one-out error `x` sets the time band to "
             "exp(±1.9 log(1 + x)) instead. `tests/test_uncertainty.c` recomputes each class's coverage "
             "at the defaults and fails when one with 10 runs or more falls under 80 %. The last column "
             "is the runs inside the band the library gives them (held out for time).")
    L.append("")
    L += table("time", t)
    L.append("")
    L += table("memory", m)
    L.append("")
    L.append("`sharded-slack`, the caching allocator's reserve under ZeRO-3/FSDP as a share of the "
             "allocated peak, is the median of what the ZeRO-3/FSDP figures of `max_memory_reserved` "
             "need for the estimate to meet them (a figure's need is its measured bytes less the "
             "estimate's reserved peak without the slack, over the estimate's allocated peak). Fitted "
             "on every source and without each source in turn (that source's figures are then "
             "estimated with the second value):")
    L.append("")
    L += slack_table(binary)
    L.append("")
    return L


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/programs/trainsize"
    t, m = time_rows(binary), memory_rows(binary)
    print("\n".join(table("time", t)))
    print()
    print("\n".join(table("memory", m)))
    print()
    print("\n".join(c_table("T", t) + c_table("M", m)))


if __name__ == "__main__":
    main()

"""Result classes: what estimate() and plan() return.

An :class:`Estimate` is built generically from the library's result field table: each
field's dotted path (``"memory.peak_total"``) becomes nested :class:`Section` objects, so a
field the library adds appears here without a change to the binding. Its ``to_dict()``
is the JSON object of ``trainsize estimate --json``; :class:`Plan`'s is that of
``trainsize plan --json``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
TYPE_CHECKING = False  # typing costs ~8 ms to import; the annotations are strings anyway
if TYPE_CHECKING:
    from typing import Any, Dict, Iterator, List, Optional


def _plain(value: Any) -> Any:
    """A value as the command's JSON has it: dicts and lists, non-finite floats as None."""
    kind = type(value)  # exact types: isinstance on the Mapping ABC is slow
    if kind is float:
        return value if math.isfinite(value) else None
    if kind is Section:
        return value.to_dict()
    if kind is list:
        return [_plain(v) for v in value]
    return value


class Section(Mapping):
    """A group of result figures: the fields whose dotted paths share a prefix.

    Read a figure as an attribute (``r.memory.peak_total``) or by key
    (``r.memory["peak_total"]``); iterate over the keys in the library's order. The values
    are ``int`` (sizes in bytes, counts), ``float``, ``bool``, ``str``, a list of warning
    names, or a nested Section. ``trainsize.result_fields()`` gives each path's unit and
    description. Sections are read-only.
    """

    __slots__ = ("_path", "_items")

    def __init__(self, path: str, items: Dict[str, Any]):
        object.__setattr__(self, "_path", path)
        object.__setattr__(self, "_items", dict(items))

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._items[key]
        except KeyError:
            raise AttributeError("result section %r has no field %r (it has: %s)"
                                 % (self._path, key, ", ".join(self._items))) from None

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("result sections are read-only")

    def __getitem__(self, key: str) -> Any:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._items))

    def __repr__(self) -> str:
        return "Section(%r, %s)" % (self._path, ", ".join(
            "%s=%r" % kv for kv in self._items.items()))

    def __reduce__(self):
        return (Section, (self._path, self._items))

    def to_dict(self) -> Dict[str, Any]:
        """The section as plain dicts, lists and scalars (non-finite floats as None)."""
        return {k: _plain(v) for k, v in self._items.items()}


# The tree of a field table, built once per table: {key: field index, or a nested tree}.
_TEMPLATES: Dict[int, tuple] = {}


def _template(fields) -> Dict[str, Any]:
    cached = _TEMPLATES.get(id(fields))
    if cached is not None and cached[0] is fields:
        return cached[1]
    root: Dict[str, Any] = {}
    for i, f in enumerate(fields):
        node = root
        for key in f.keys[:-1]:
            node = node.setdefault(key, {})
        node[f.keys[-1]] = i
    _TEMPLATES[id(fields)] = (fields, root)
    return root


def _build(path: str, template: Dict[str, Any], values) -> Section:
    return Section(path, {k: values[v] if type(v) is int
                          else _build(path + "." + k if path else k, v, values)
                          for k, v in template.items()})


@dataclass(frozen=True)
class Estimate:
    """What a training job takes: the result of :func:`trainsize.estimate`.

    Every figure comes from the C library. Sizes are ``int`` bytes, rates bytes per second,
    times seconds, power watts, compute FLOPs; memory is per GPU, for the most loaded GPU.

    Attributes:
        trainsize_version: the C library's release version.
        model: the model as counted (``name``, ``parameters``, ``trainable_parameters``, ...).
        memory: per-GPU memory (``weights``, ``gradients``, ``optimizer``, ``activations``,
            ``peak_allocated``, ``overhead``, ``peak_total``, ``gpu_capacity``, ``fits``, ...).
        system: the servers (``nodes``, ``gpus_per_node``, ``host_ram_per_node``,
            ``power_watts``, ``cost_cloud_usd``, ...).
        time: compute and time (``flops``, ``seconds``, ``steps``, ``gpu_hours``, ...).
        layout: the GPU and the layout as estimated (``gpu``, ``gpus``, ``tp``, ``pp``,
            ``pp_interleave``, ``cp``, ``ep``, ``sp``, ``zero``, ``micro_batch``,
            ``global_batch``, ``recompute``, ``data_parallel``, ``gradient_accumulation``, ...).
        warnings: names of the checklist warnings that apply (e.g. ``"no-price"``).
        advice: when the job does not fit, the changes that make it fit (``set``: options
            and values; ``peak_total``, ``gpu_capacity``, ``gpus``, ``step_seconds``,
            ``seconds``), least disruptive first; empty when it fits.

    Top-level groups the library adds later are readable as attributes too, and every
    group is in :meth:`to_dict`.
    """

    trainsize_version: str
    model: Optional[Section] = None
    memory: Optional[Section] = None
    system: Optional[Section] = None
    time: Optional[Section] = None
    layout: Optional[Section] = None
    warnings: List[str] = field(default_factory=list)
    advice: List[Dict[str, Any]] = field(default_factory=list)
    _tree: Dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def _from_fields(cls, version: str, fields, values, advice=()) -> "Estimate":
        """From the library's field table and one estimate's values, in table order."""
        template = _template(fields)
        tree = {k: values[v] if type(v) is int else _build(k, v, values)
                for k, v in template.items()}
        known = {k: tree[k] for k in ("model", "memory", "system", "time", "layout", "warnings")
                 if k in tree}
        return cls(trainsize_version=version, _tree=tree, advice=list(advice), **known)

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._tree[key]
        except KeyError:
            raise AttributeError("Estimate has no field %r" % key) from None

    def __getitem__(self, key: str) -> Any:
        """``r["memory"]``, as for the JSON object (``"trainsize_version"`` included)."""
        if key == "trainsize_version":
            return self.trainsize_version
        return self._tree[key]

    def to_dict(self) -> Dict[str, Any]:
        """The estimate as ``trainsize estimate --json`` prints it (same keys, same order,
        same values once the JSON is parsed)."""
        out: Dict[str, Any] = {"trainsize_version": self.trainsize_version}
        out.update((k, _plain(v)) for k, v in self._tree.items())
        out["advice"] = [dict(a, set=dict(a["set"])) for a in self.advice]
        return out


@dataclass(frozen=True)
class Candidate:
    """One configuration the planner found; each is a real estimate of the job.

    Attributes:
        gpu: catalogue GPU name.
        gpus: GPUs in the job; gpus_per_node: GPUs per server; nodes: servers.
        tp, pp, pp_interleave, ep: tensor, pipeline (and virtual stages per pipeline rank)
            and expert parallel degrees.
        zero: ZeRO stage (0-3).
        micro_batch: samples per GPU per pass; global_batch: samples per optimizer step.
        recompute: ``"none"``, ``"selective"`` or ``"full"``.
        peak_total: per-GPU memory, bytes (as ``memory.peak_total``).
        seconds: the whole run, seconds (as ``time.seconds``).
        cost: cloud cost of the run, US dollars (0 when the GPU has no price).
        warnings: names of the checklist warnings of the estimate.
    """

    gpu: str
    gpus: int
    gpus_per_node: int
    nodes: int
    tp: int
    pp: int
    pp_interleave: int
    ep: int
    zero: int
    micro_batch: int
    global_batch: int
    recompute: str
    peak_total: int
    seconds: float
    cost: float
    warnings: List[str] = field(default_factory=list)
    cost_own: float = 0.0

    def layout(self) -> Dict[str, Any]:
        """The keyword arguments that give this layout to :func:`trainsize.estimate`
        (together with the plan's model and job keywords; not its constraints)."""
        out: Dict[str, Any] = {
            "gpu": self.gpu, "gpus": self.gpus, "gpus_per_node": self.gpus_per_node,
            "tp": self.tp, "pp": self.pp,
        }
        if self.pp_interleave > 1:
            out["pp_interleave"] = self.pp_interleave
        if self.ep > 1:
            out["ep"] = self.ep
        out.update(zero=self.zero, micro_batch=self.micro_batch,
                   global_batch=self.global_batch, recompute=self.recompute)
        return out

    def to_dict(self) -> Dict[str, Any]:
        """The candidate as ``trainsize plan --json`` prints it."""
        return {
            "gpu": self.gpu, "gpus": self.gpus, "gpus_per_node": self.gpus_per_node,
            "nodes": self.nodes, "tp": self.tp, "pp": self.pp,
            "pp_interleave": self.pp_interleave, "ep": self.ep, "zero": self.zero,
            "micro_batch": self.micro_batch, "global_batch": self.global_batch,
            "recompute": self.recompute, "peak_total": self.peak_total,
            "seconds": _plain(self.seconds), "cost": _plain(self.cost),
            "cost_own": _plain(self.cost_own), "warnings": list(self.warnings),
        }


@dataclass(frozen=True)
class Plan:
    """The result of :func:`trainsize.plan`: the best configurations, best first.

    Attributes:
        evaluated: configurations examined (estimated, or ruled out by a bound).
        estimated: of those, full estimates run.
        feasible: configurations that fit and meet every constraint.
        objective: what ranks them: ``"cost"`` (then time), ``"time"`` (then cost) or
            ``"owned"`` (owning cost, then time).
        candidates: the best ones, best first (or the Pareto front, fastest first, with
            ``plan_ranking="pareto"``); empty when nothing fits.
        fit_memory, fastest_fit_seconds, cheapest_fit_cost, least_overshoot: what binds when
            nothing is feasible (configurations that fit in memory; the fastest and the
            cheapest of those; how far the closest one is over its GPU when none fits).
    """

    evaluated: int
    estimated: int
    feasible: int
    objective: str
    candidates: List[Candidate] = field(default_factory=list)
    fit_memory: int = 0
    fastest_fit_seconds: float = 0.0
    cheapest_fit_cost: float = 0.0
    least_overshoot: float = 0.0

    def to_dict(self) -> Dict[str, Any]:
        """The plan as ``trainsize plan --json`` prints it."""
        return {
            "evaluated": self.evaluated, "estimated": self.estimated,
            "feasible": self.feasible, "fit_memory": self.fit_memory,
            "fastest_fit_seconds": _plain(self.fastest_fit_seconds),
            "cheapest_fit_cost": _plain(self.cheapest_fit_cost),
            "least_overshoot": _plain(self.least_overshoot), "objective": self.objective,
            "candidates": [c.to_dict() for c in self.candidates],
        }


@dataclass(frozen=True)
class Parameter:
    """One settable job parameter (an option of the command, a keyword of estimate()).

    Attributes:
        name: the library's and the command's name (``"micro-batch"``).
        keyword: the Python keyword (``"micro_batch"``).
        kind: ``"int"``, ``"float"``, ``"bool"``, ``"choice"``, ``"name"`` or ``"list"``.
        choices: the accepted names, for ``choice`` and ``list``.
        min, max: the accepted range, for ``int`` and ``float``.
        default: the default as text (``""`` when it depends on other settings).
        unit: e.g. ``"bytes"``, ``"tokens"``; ``""`` when none.
        doc: one-line description.
        plan_refusal: why :func:`plan` refuses the keyword (the planner sets it), or None.
    """

    name: str
    keyword: str
    kind: str
    choices: tuple
    min: float
    max: float
    default: str
    unit: str
    doc: str
    plan_refusal: Optional[str] = None


@dataclass(frozen=True)
class ResultField:
    """One figure of an estimate: its dotted path, type, unit and description."""

    path: str
    type: str
    unit: str
    doc: str

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
from operator import itemgetter as _itemgetter
TYPE_CHECKING = False  # typing costs ~8 ms to import; the annotations are strings anyway
if TYPE_CHECKING:
    from typing import Any, Dict, Iterator, List, Optional

# The library's field types (trainsize_field_type) that the table needs.
_FIELD_F64, _FIELD_FLAGS = 1, 5


class _Record:
    """A frozen record of named fields, set once: what ``dataclass(frozen=True)`` gives
    (keyword or positional construction, defaults, ``==``, ``repr``, read-only fields)
    without importing :mod:`dataclasses` (~7 ms of every import)."""

    __slots__ = ()
    _fields: tuple = ()
    _defaults: Dict[str, Any] = {}  # name -> default; a list default is copied per record

    def __init__(self, *args: Any, **kwargs: Any):
        names, cls = self._fields, type(self).__name__
        if len(args) > len(names):
            raise TypeError("%s() takes at most %d arguments" % (cls, len(names)))
        values = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names or key in values:
                raise TypeError("%s() got an unexpected or repeated argument %r" % (cls, key))
            values[key] = value
        for name in names:
            if name not in values:
                if name not in self._defaults:
                    raise TypeError("%s() missing argument %r" % (cls, name))
                default = self._defaults[name]
                values[name] = list(default) if type(default) is list else default
            object.__setattr__(self, name, values[name])

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("%s is read-only" % type(self).__name__)

    def __delattr__(self, key: str) -> None:
        raise AttributeError("%s is read-only" % type(self).__name__)

    def _astuple(self) -> tuple:
        return tuple(getattr(self, n) for n in self._fields)

    def __eq__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._astuple() == other._astuple()

    def __hash__(self) -> int:
        return hash(self._astuple())

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, ", ".join(
            "%s=%r" % (n, getattr(self, n)) for n in self._fields))

    def __reduce__(self):
        return (type(self), self._astuple())



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


class _Table:
    """What one field table gives every estimate, built once: the tree of dotted paths
    ({key: field index, or a nested tree}), the float fields (non-finite ones read as None
    in to_dict()), the decoders that turn a raw field into its value (strings, bools,
    warning bits, choices; none when the values are already decoded), and to_dict()
    compiled to one nested dict display that decodes as it goes."""

    __slots__ = ("fields", "decoders", "template", "floats", "build")

    def __init__(self, fields, decoders):
        self.fields, self.decoders = fields, decoders
        self.template: Dict[str, Any] = {}
        for i, f in enumerate(fields):
            node = self.template
            for key in f.keys[:-1]:
                node = node.setdefault(key, {})
            node[f.keys[-1]] = i
        floats = [i for i, f in enumerate(fields) if f.type == _FIELD_F64]
        self.floats = (lambda v: ()) if not floats else (
            (lambda v, i=floats[0]: (v[i],)) if len(floats) == 1 else _itemgetter(*floats))
        lists = {i for i, f in enumerate(fields) if f.type == _FIELD_FLAGS}
        self.build = self._compile(lists)

    def values(self, raw) -> List[Any]:
        values = list(raw)
        for i, decode in self.decoders.items():
            values[i] = decode(values[i])
        return values

    def _compile(self, lists):
        # The result's shape is the library's (its field table), so the dict display is
        # written from it once; the keys are repr()'d strings, the values v[i] reads,
        # decoded in place (bools, choices) or through field i's decoder di.
        namespace: Dict[str, Any] = {}

        def value(i):
            decode = self.decoders.get(i)
            if decode is bool:  # inline: a call per field is most of the cost here
                return "(v[%d] != 0)" % i
            table = getattr(decode, "__self__", None)
            if type(table) is dict:  # a lookup table (choices), subscripted in place
                namespace["c%d" % i] = table
                return "c%d[v[%d]]" % (i, i)
            if decode is not None:
                namespace["d%d" % i] = decode
                return "d%d(v[%d])" % (i, i)
            return "list(v[%d])" % i if i in lists else "v[%d]" % i

        def display(node):
            return "{" + ", ".join("%r: %s" % (k, display(v) if type(v) is not int else value(v))
                                   for k, v in node.items()) + "}"
        body = display(self.template)[1:-1]
        src = "def build(version, v):\n    return {'trainsize_version': version%s}\n" % (
            ", " + body if body else "")
        exec(compile(src, "<trainsize result fields>", "exec"), namespace)
        return namespace["build"]


# One _Table per field table and decoders (the library's are read once, at import).
_TABLES: Dict[tuple, _Table] = {}


def _table(fields, decoders=None) -> _Table:
    key = (id(fields), id(decoders))
    cached = _TABLES.get(key)
    if cached is None or cached.fields is not fields or cached.decoders is not (decoders or _NONE):
        cached = _TABLES[key] = _Table(fields, decoders or _NONE)
    return cached


_NONE: Dict[int, Any] = {}


def _build(path: str, template: Dict[str, Any], values) -> Section:
    return Section(path, {k: values[v] if type(v) is int
                          else _build(path + "." + k if path else k, v, values)
                          for k, v in template.items()})


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
    group is in :meth:`to_dict`. The groups are built when first read; estimates are
    read-only.
    """

    __slots__ = ("trainsize_version", "advice", "_raw", "_table", "_groups", "_decoded")

    def __init__(self, version: str, table: _Table, raw, advice=()):
        setter = object.__setattr__
        setter(self, "trainsize_version", version)
        setter(self, "advice", list(advice))
        setter(self, "_raw", raw)
        setter(self, "_table", table)
        setter(self, "_groups", {})
        setter(self, "_decoded", None)

    @classmethod
    def _from_fields(cls, version: str, fields, values, advice=()) -> "Estimate":
        """From the library's field table and one estimate's values, in table order."""
        return cls(version, _table(fields), values, advice)

    @classmethod
    def _from_raw(cls, version: str, fields, decoders, raw, advice=()) -> "Estimate":
        """From the field table, one estimate's raw fields and the decoders of their
        values (decoded when first read)."""
        return cls(version, _table(fields, decoders), raw, advice)

    @property
    def _values(self) -> List[Any]:
        if self._decoded is None:
            object.__setattr__(self, "_decoded", self._table.values(self._raw))
        return self._decoded

    def _group(self, key: str) -> Any:
        groups = self._groups
        if key not in groups:
            node = self._table.template[key]  # KeyError: no such group
            groups[key] = self._values[node] if type(node) is int else _build(key, node, self._values)
        return groups[key]

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return self._group(key)
        except KeyError:
            raise AttributeError("Estimate has no field %r" % key) from None

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Estimate is read-only")

    def __getitem__(self, key: str) -> Any:
        """``r["memory"]``, as for the JSON object (``"trainsize_version"`` included)."""
        if key == "trainsize_version":
            return self.trainsize_version
        return self._group(key)

    def __eq__(self, other: Any) -> bool:
        if type(other) is not Estimate:
            return NotImplemented
        return (self.trainsize_version, self._values, self.advice) == \
            (other.trainsize_version, other._values, other.advice)

    __hash__ = None  # type: ignore[assignment]  # it holds lists, as the dataclass did

    def __repr__(self) -> str:
        return "Estimate(trainsize_version=%r, %s, advice=%r)" % (
            self.trainsize_version,
            ", ".join("%s=%r" % (k, self._group(k)) for k in self._table.template), self.advice)

    def __reduce__(self):
        return (Estimate._from_fields, (self.trainsize_version, self._table.fields,
                                        self._values, self.advice))

    def to_dict(self) -> Dict[str, Any]:
        """The estimate as ``trainsize estimate --json`` prints it (same keys, same order,
        same values once the JSON is parsed)."""
        table, raw = self._table, self._raw
        if not all(map(math.isfinite, table.floats(raw))):
            raw = [None if type(x) is float and not math.isfinite(x) else x for x in raw]
        out = table.build(self.trainsize_version, raw)
        out["advice"] = [dict(a, set=dict(a["set"])) for a in self.advice]
        return out


class Candidate(_Record):
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

    _fields = ("gpu", "gpus", "gpus_per_node", "nodes", "tp", "pp", "pp_interleave", "ep",
               "zero", "micro_batch", "global_batch", "recompute", "peak_total", "seconds",
               "cost", "warnings", "cost_own")
    __slots__ = _fields
    _defaults = {"warnings": [], "cost_own": 0.0}

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


class Plan(_Record):
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

    _fields = ("evaluated", "estimated", "feasible", "objective", "candidates", "fit_memory",
               "fastest_fit_seconds", "cheapest_fit_cost", "least_overshoot")
    __slots__ = _fields
    _defaults = {"candidates": [], "fit_memory": 0, "fastest_fit_seconds": 0.0,
                 "cheapest_fit_cost": 0.0, "least_overshoot": 0.0}

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


class Parameter(_Record):
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

    _fields = ("name", "keyword", "kind", "choices", "min", "max", "default", "unit", "doc",
               "plan_refusal")
    __slots__ = _fields
    _defaults = {"plan_refusal": None}


class ResultField(_Record):
    """One figure of an estimate: its dotted path, type, unit and description."""

    _fields = ("path", "type", "unit", "doc")
    __slots__ = _fields

"""Result classes: what estimate(), plan() and largest_fit() return.

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
    ({key: field index, or a nested tree}), where each field sits in an estimate's raw
    tuple (``positions``; table order when not given), the float fields (non-finite ones
    read as None in to_dict()), the decoders that turn a raw field into its value
    (``bool``, or a dict-like of names by raw value; a tuple of names is a warning list),
    and to_dict() compiled to one nested dict display that decodes as it goes."""

    __slots__ = ("fields", "decoders", "positions", "template", "floats", "build")

    def __init__(self, fields, decoders, positions=None):
        self.fields, self.decoders = fields, decoders
        self.positions = tuple(range(len(fields))) if positions is None else tuple(positions)
        self.template: Dict[str, Any] = {}
        for i, f in enumerate(fields):
            node = self.template
            for key in f.keys[:-1]:
                node = node.setdefault(key, {})
            node[f.keys[-1]] = i
        floats = [self.positions[i] for i, f in enumerate(fields) if f.type == _FIELD_F64]
        self.floats = (lambda v: ()) if not floats else (
            (lambda v, i=floats[0]: (v[i],)) if len(floats) == 1 else _itemgetter(*floats))
        # Compiled on first use: compiling is ~1 ms of the import otherwise.
        self.build = self._compile_and_build

    def values(self, raw) -> List[Any]:
        """The fields' values in table order."""
        values = [raw[p] for p in self.positions]
        for i, decode in self.decoders.items():
            value = decode(values[i]) if decode is bool else decode[values[i]]
            values[i] = list(value) if type(value) is tuple else value
        return values

    def _compile_and_build(self, version: str, v) -> Dict[str, Any]:
        lists = {i for i, f in enumerate(self.fields) if f.type == _FIELD_FLAGS}
        self.build = self._compile(lists)  # two threads may both compile: the same code
        return self.build(version, v)

    def _compile(self, lists):
        # The result's shape is the library's (its field table), so the dict display is
        # written from it once. The raw tuple is unpacked into locals p0, p1, ... (one
        # per position), each value read once, decoded in place: bools compared, names
        # subscripted from their table (a dict lookup, not a call).
        namespace: Dict[str, Any] = {}

        def value(i):
            p, decode = self.positions[i], self.decoders.get(i)
            if decode is bool:
                return "(p%d != 0)" % p
            if decode is not None:
                namespace["d%d" % i] = decode
                read = "d%d[p%d]" % (i, p)
                return "list(%s)" % read if i in lists else read
            return "list(p%d)" % p if i in lists else "p%d" % p

        # Each dict is a copy of its keys (presized, so no resizing as it fills) whose
        # values are then stored: about half the cost of a display of the same size.
        lines, names = [], iter("t%d" % n for n in range(1 << 30))

        def fill(node, first=None):
            name = next(names)
            keys = ([first] if first else []) + list(node)
            namespace["k" + name] = dict.fromkeys(keys)
            lines.append("%s = k%s.copy()" % (name, name))
            for key, sub in node.items():
                lines.append("%s[%r] = %s" % (name, key, value(sub) if type(sub) is int
                                                   else fill(sub)))
            return name
        top = fill(self.template, "trainsize_version")
        count = max(self.positions, default=-1) + 1
        body = ["(%s,) = v" % ", ".join("p%d" % p for p in range(count))] if count else []
        body += lines + ["%s['trainsize_version'] = version" % top, "return " + top]
        src = "def build(version, v):\n" + "".join("    %s\n" % line for line in body)
        exec(compile(src, "<trainsize result fields>", "exec"), namespace)
        return namespace["build"]


# One _Table per field table, decoders and positions (the library's are read once, at
# import).
_TABLES: Dict[tuple, _Table] = {}


def _table(fields, decoders=None, positions=None) -> _Table:
    key = (id(fields), id(decoders), positions)
    cached = _TABLES.get(key)
    if cached is None or cached.fields is not fields or cached.decoders is not (decoders or _NONE):
        cached = _TABLES[key] = _Table(fields, decoders or _NONE, positions)
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

    __slots__ = ("trainsize_version", "advice", "_raw", "_table", "_groups", "_decoded", "_job")

    def __init__(self, version: str, table: _Table, raw, advice=()):
        _make_estimate(version, table, raw, list(advice), self)

    @classmethod
    def _from_fields(cls, version: str, fields, values, advice=()) -> "Estimate":
        """From the library's field table and one estimate's values, in table order."""
        return cls(version, _table(fields), values, advice)

    @classmethod
    def _from_raw(cls, version: str, fields, decoders, raw, advice=(),
                  positions=None) -> "Estimate":
        """From the field table, one estimate's raw fields (field i at positions[i]) and
        the decoders of their values (decoded when first read)."""
        return cls(version, _table(fields, decoders, positions), raw, advice)

    def report(self) -> str:
        """The human report, the text ``trainsize estimate`` prints for the same job (the
        library's trainsize_report: memory table, verdict, fit advice, servers, time,
        warnings). The job is built again from the keywords of :func:`trainsize.estimate`.

        Raises:
            TrainsizeError: for an estimate not made by :func:`trainsize.estimate`, or when
                the library cannot build the report.
        """
        return self._of_job("report", _REPORT)

    def to_json(self) -> str:
        """The JSON text ``trainsize estimate --json`` prints for the same job, byte for
        byte (the library's trainsize_result_json, which the command calls too; the fit
        advice included). The job is built again from the keywords of
        :func:`trainsize.estimate`; ``json.loads`` of it equals :meth:`to_dict` with
        ``trainsize_version`` and ``advice``.

        Raises:
            TrainsizeError: for an estimate not made by :func:`trainsize.estimate`, or when
                the library cannot write it.
        """
        return self._of_job("to_json", _JSON)

    def _of_job(self, what: str, build) -> str:
        """A text the library writes of this estimate's job, built again from its keywords
        by ``build`` (the package's, set at import)."""
        try:
            kwargs = self._job
        except AttributeError:
            kwargs = None
        if kwargs is None or build is None:
            from ._errors import E_INVALID, TrainsizeError
            raise TrainsizeError(E_INVALID, what, "%s: only an estimate made by "
                                 "trainsize.estimate() knows its job" % what)
        return build(kwargs)

    # _groups and _decoded are set when first needed: an estimate that is only turned
    # into a dict never builds them.
    @property
    def _values(self) -> List[Any]:
        try:
            return self._decoded
        except AttributeError:
            values = self._table.values(self._raw)
            _set_decoded(self, values)
            return values

    def _group(self, key: str) -> Any:
        try:
            groups = self._groups
        except AttributeError:
            groups = {}
            _set_groups(self, groups)
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

    def __dir__(self) -> List[str]:
        # The groups (memory, layout, ..., and those the library adds) are attributes read
        # through __getattr__: list them for dir() and completion.
        try:
            groups = self._table.template
        except AttributeError:  # an Estimate.__new__() never filled
            groups = ()
        return sorted(set(object.__dir__(self)) | set(groups))

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
        # Any NaN or infinity makes the sum non-finite (so does an overflow, harmlessly).
        if not math.isfinite(sum(table.floats(raw))):
            raw = [None if type(x) is float and not math.isfinite(x) else x for x in raw]
        out = table.build(self.trainsize_version, raw)
        out["advice"] = [dict(a, set=dict(a["set"])) for a in self.advice] if self.advice else []
        return out


_set_version = Estimate.trainsize_version.__set__  # type: ignore[attr-defined]
_set_advice = Estimate.advice.__set__  # type: ignore[attr-defined]
_set_raw = Estimate._raw.__set__  # type: ignore[attr-defined]
_set_table = Estimate._table.__set__  # type: ignore[attr-defined]
_set_job = Estimate._job.__set__  # type: ignore[attr-defined]
# Estimate.report() and .to_json(): the package's builders of a job's report and JSON from
# its keywords (set at import, as the job is built where the keywords are read).
_REPORT = None
_JSON = None
_set_groups = Estimate._groups.__set__  # type: ignore[attr-defined]
_set_decoded = Estimate._decoded.__set__  # type: ignore[attr-defined]
_new = object.__new__


def _make_estimate(version: str, table: _Table, raw, advice: list, self=None,
                   job: Any = None) -> Estimate:
    """An Estimate over its raw fields, through the slots' own setters (Estimate's
    __setattr__ refuses every write); ``advice`` becomes the estimate's own list, ``job``
    the keywords it was made from (for report())."""
    if self is None:
        self = _new(Estimate)
    _set_version(self, version)
    _set_advice(self, advice)
    _set_raw(self, raw)
    _set_table(self, table)
    _set_job(self, job)
    return self


class Candidate(_Record):
    """One configuration the planner found; each is a real estimate of the job.

    Attributes:
        gpu: catalogue GPU name.
        gpus: GPUs in the job; gpus_per_node: GPUs per server; nodes: servers.
        tp, pp, pp_interleave, cp, ep: tensor, pipeline (and virtual stages per pipeline
            rank), context and expert parallel degrees.
        zero: ZeRO stage (0-3).
        micro_batch: samples per GPU per pass; global_batch: samples per optimizer step.
        recompute: ``"none"``, ``"selective"``, ``"full"`` or ``"per-op"``.
        peak_total: per-GPU memory, bytes (as ``memory.peak_total``).
        seconds: the whole run on the wall clock, interruptions included, seconds (as
            ``time.wall_seconds``).
        cost: cloud cost of the run, US dollars (0 when the GPU has no price).
        warnings: names of the checklist warnings of the estimate.
        cost_own: owning cost of the run, US dollars (0 when the GPU has no price).
        sp: whether sequence parallelism applies.
        rollout_tp: grpo, ppo: the rollout engine's tensor parallelism the planner chose (0
            for other methods).
        rollout: grpo, ppo: where the engines run, ``"colocated"`` or ``"separate"`` (``""``
            for other methods).
        max_tokens_per_gpu: with a token budget, the budget a GPU the planner chose (0
            otherwise).
        rollout_gpus: rollout ``"separate"``: the engines' GPUs beside ``gpus`` (which
            train), priced with them (0 otherwise).

    The planner's candidates are read through the library's plan field table, whose keys
    these are.
    """

    _fields = ("gpu", "gpus", "gpus_per_node", "nodes", "tp", "pp", "pp_interleave", "cp", "ep",
               "zero", "micro_batch", "global_batch", "recompute", "peak_total", "seconds",
               "cost", "warnings", "cost_own", "sp", "rollout_tp", "rollout", "max_tokens_per_gpu",
               "rollout_gpus")
    __slots__ = _fields
    _defaults = {"warnings": [], "cost_own": 0.0, "cp": 1, "sp": False, "rollout_tp": 0, "rollout": "",
                 "max_tokens_per_gpu": 0, "rollout_gpus": 0}

    def layout(self) -> Dict[str, Any]:
        """The keyword arguments that give this layout to :func:`trainsize.estimate`
        (together with the plan's model and job keywords; not its constraints)."""
        out: Dict[str, Any] = {
            "gpu": self.gpu, "gpus": self.gpus, "gpus_per_node": self.gpus_per_node,
            "tp": self.tp, "pp": self.pp,
        }
        if self.pp_interleave > 1:
            out["pp_interleave"] = self.pp_interleave
        if self.cp > 1:
            out["cp"] = self.cp
        if self.ep > 1:
            out["ep"] = self.ep
        out.update(zero=self.zero, global_batch=self.global_batch, recompute=self.recompute)
        if self.max_tokens_per_gpu:
            out["max_tokens_per_gpu"] = self.max_tokens_per_gpu
        else:
            out["micro_batch"] = self.micro_batch
        if self.rollout_tp:
            out["rollout_tp"] = self.rollout_tp
        if self.rollout:
            out["rollout"] = self.rollout
        if self.rollout_gpus:
            out["rollout_gpus"] = self.rollout_gpus
        return out

    def to_dict(self) -> Dict[str, Any]:
        """The candidate as ``trainsize plan --json`` prints it."""
        return {
            "gpu": self.gpu, "gpus": self.gpus, "gpus_per_node": self.gpus_per_node,
            "nodes": self.nodes, "tp": self.tp, "pp": self.pp,
            "pp_interleave": self.pp_interleave, "cp": self.cp, "ep": self.ep, "zero": self.zero,
            "micro_batch": self.micro_batch, "global_batch": self.global_batch,
            "recompute": self.recompute, "peak_total": self.peak_total,
            "seconds": _plain(self.seconds), "cost": _plain(self.cost),
            "cost_own": _plain(self.cost_own), "warnings": list(self.warnings), "sp": self.sp,
            "rollout_tp": self.rollout_tp, "rollout": self.rollout,
            "max_tokens_per_gpu": self.max_tokens_per_gpu, "rollout_gpus": self.rollout_gpus,
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
        pruned_memory: of evaluated, ruled out unseen because a lighter configuration of
            the same layout did not fit (memory only grows with the micro-batch).
        pruned_bound: of evaluated, ruled out by a floor under their time and cost that the
            candidates kept already beat (0 with ``exhaustive=True``).
        bounds: floors computed (the compute stage of an estimate alone).
        counts_skipped: GPU counts ruled out whole by a floor that holds for all their
            layouts; their configurations are not in evaluated.
        (The last four are 0 from a library that predates them.)
    """

    # New fields go last, so that positional construction and older pickles still work.
    _fields = ("evaluated", "estimated", "feasible", "objective", "candidates", "fit_memory",
               "fastest_fit_seconds", "cheapest_fit_cost", "least_overshoot",
               "pruned_memory", "pruned_bound", "bounds", "counts_skipped")
    __slots__ = _fields
    _defaults = {"candidates": [], "fit_memory": 0, "fastest_fit_seconds": 0.0,
                 "cheapest_fit_cost": 0.0, "least_overshoot": 0.0, "pruned_memory": 0,
                 "pruned_bound": 0, "bounds": 0, "counts_skipped": 0}

    def to_dict(self) -> Dict[str, Any]:
        """The plan as ``trainsize plan --json`` prints it."""
        return {
            "evaluated": self.evaluated, "estimated": self.estimated,
            "feasible": self.feasible, "fit_memory": self.fit_memory,
            "fastest_fit_seconds": _plain(self.fastest_fit_seconds),
            "cheapest_fit_cost": _plain(self.cheapest_fit_cost),
            "least_overshoot": _plain(self.least_overshoot),
            "pruned_memory": self.pruned_memory, "pruned_bound": self.pruned_bound,
            "bounds": self.bounds, "counts_skipped": self.counts_skipped,
            "objective": self.objective,
            "candidates": [c.to_dict() for c in self.candidates],
        }


class LargestFit(_Record):
    """The result of :func:`trainsize.largest_fit`: the largest micro-batch and sequence
    that fit, everything else as given. Unpacks as a pair
    (``mb, seq = trainsize.largest_fit(...)``).

    Attributes:
        max_micro_batch: samples, as ``memory.max_micro_batch``; 0 when even 1 does not fit.
        max_seq: tokens, as ``memory.max_seq``; 0 when even the smallest does not fit.
    """

    _fields = ("max_micro_batch", "max_seq")
    __slots__ = _fields

    def __iter__(self) -> Iterator[int]:
        return iter(self._astuple())

    def to_dict(self) -> Dict[str, Any]:
        """The two figures, keyed as in the estimate's ``memory`` section."""
        return {"max_micro_batch": self.max_micro_batch, "max_seq": self.max_seq}


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

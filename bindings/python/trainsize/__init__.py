"""trainsize: what it takes to train a transformer model (Python binding of libtrainsize).

A thin ``ctypes`` layer over the C library: every figure comes from libtrainsize, none is
computed here.

    >>> import trainsize
    >>> r = trainsize.estimate(model="llama-2-7b", gpu="a100-80gb", gpus=8, zero=3,
    ...                        micro_batch=1, seq=4096, precision="bf16-mixed")
    >>> r.memory.peak_total          # int, bytes, as in the CLI's JSON
    >>> r.to_dict()                  # == json.loads(`trainsize estimate --json ...`)
    >>> p = trainsize.plan(model="llama-2-70b", tokens=2e12, deadline_days=30)
    >>> p.candidates[0].gpu
    >>> mb, seq = trainsize.largest_fit(model="llama-2-7b", gpu="a100-80gb", seq=4096)
    >>> trainsize.capacity("h100-80gb", 8)  # == json.loads(`trainsize capacity --json ...`)
    >>> trainsize.version()          # the C library's version string

Keywords are the command's option names with ``-`` written ``_`` (``micro_batch``,
``deadline_days``, ``hf_config``); :func:`parameters` lists them all. Invalid input raises
:class:`TrainsizeError` (a ``ValueError``) with the library's message.

The library is looked up through ``$LIBTRAINSIZE`` (a path to the shared object), then next
to this package, then on the system's library path; see :mod:`trainsize._lib`. Importing
the package fails with :class:`LibraryError` (an ``ImportError``) when it is missing or of
another ABI version.
"""

from __future__ import annotations

import _thread
import os
import sys
from collections.abc import Mapping

TYPE_CHECKING = False  # typing costs ~8 ms to import; the annotations are strings anyway
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

from . import _lib
from . import _errors
from ._errors import E_INVALID as _E_INVALID, E_LIMIT as _E_LIMIT, E_UNKNOWN as _E_UNKNOWN
from ._errors import LibraryError, TrainsizeError
from . import _results
from ._results import Candidate, Estimate, LargestFit, Parameter, Plan, ResultField, Section

__all__ = [
    "estimate", "plan", "largest_fit", "capacity", "calibrate", "checkpoint", "version", "abi_version", "parameters", "result_fields",
    "example_settings",
    "Estimate", "Section", "Plan", "Candidate", "LargestFit", "Parameter", "ResultField",
    "TrainsizeError", "LibraryError", "Status", "EXPECTED_ABI", "PLAN_TOP_DEFAULT",
    "PLAN_TOP_MAX",
]

#: The ABI version of the C library this binding was written for.
EXPECTED_ABI = _lib.EXPECTED_ABI

#: plan(top=...): how many candidates by default, and at most (as ``trainsize plan --top``).
PLAN_TOP_DEFAULT = 10
PLAN_TOP_MAX = 100
#: Advice an estimate asks for when the job does not fit (as the command does).
ADVICE_MAX = 5

# Load and check the library now: a missing or mismatched library fails the import.
_LIB = _lib.get()

# Keywords that are not job parameters of the library.
_MODEL = "model"
_HF_CONFIG = "hf-config"
_GPU_FILE = "gpu-file"
_CALIBRATION = "calibration"
# A checkpoint: a model in the Hugging Face cache (at a revision), or safetensors files.
_HF_MODEL = "hf-model"
_REVISION = "revision"
_SAFETENSORS = "safetensors"
#: The keywords the binding handles itself rather than set as job parameters.
_NOT_PARAMETERS = (_MODEL, _HF_CONFIG, _GPU_FILE, _CALIBRATION, _HF_MODEL, _REVISION, _SAFETENSORS)
#: The keywords that name a file or its contents, as either spelling (``hf_config``,
#: ``**{"hf-config": ...}``): a job built from them is never kept, as the files may change.
_FILE_KEYWORDS = frozenset(("hf_config", "gpu_file", "calibration", "hf_model", "safetensors",
                            "hf-config", "gpu-file", "hf-model"))


def __getattr__(name: str) -> Any:
    # Status (an IntEnum) is made when first read: enum is ~2 ms of the import.
    if name == "Status":
        return _errors.status_class()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def __dir__() -> List[str]:
    return sorted(set(globals()) | {"Status"})


def version() -> str:
    """The release version of the C library actually loaded ("major.minor.patch")."""
    return _LIB.version


def calibrate(runs: Any, date: str | None = None) -> Dict[str, Any]:
    """Fit a site calibration to measured runs, as ``trainsize calibrate RUNS.json`` does.

    ``runs`` is the RUNS.json contents: a dict (``{"runs": [...]}``), the list of runs, a
    path, or JSON bytes. Each run is ``{"name": ..., "job": {the command's options},
    "measured": {"step_seconds" or "tokens_per_s_per_gpu", optionally
    "peak_allocated_bytes" or "peak_reserved_bytes"}}``. ``date`` ("YYYY-MM-DD") is what the
    calibration records (default: none). Returns the calibration as a dict: pass it as
    ``calibration=`` to :func:`estimate` and :func:`plan`, or write it with ``json.dump``
    for the command's ``--calibration``. Its ``fit`` and ``per_run`` say how well it fits.

    Raises:
        TrainsizeError: a run the library refuses (naming the run and its key).
    """
    if isinstance(runs, list):
        runs = {"runs": runs}
    if isinstance(runs, Mapping):
        text = _json_bytes("runs", "runs", runs)
    elif isinstance(runs, (bytes, bytearray)):
        text = bytes(runs)
    elif isinstance(runs, (str, os.PathLike)):
        try:
            # a regular file only, opened without blocking (a FIFO would wait for a writer)
            fd = os.open(runs, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
            with open(fd, "rb") as f:
                if not __import__("stat").S_ISREG(os.fstat(f.fileno()).st_mode):
                    raise _fail(_E_INVALID, "runs", "runs", "%s is not a regular file" % _escaped(str(runs)))
                text = f.read((1 << 20) + 1)  # the library refuses what is over 1 MiB
        except OSError as exc:
            raise _fail(_E_INVALID, "runs", "runs", "cannot read %s: %s" % (_escaped(str(runs)), exc.strerror)) \
                from None
    else:
        raise _fail(_E_INVALID, "runs", "runs", "expected a dict, a list, a path or JSON bytes, got %s"
                    % type(runs).__name__)
    import json  # here, not at import: it costs the import a few milliseconds
    day = None if date is None else _value_bytes("date", "date", date)
    return json.loads(_LIB.calibrate(text, day))


def checkpoint(path: Any) -> Dict[str, Any]:
    """Count a checkpoint's parameters from its safetensors headers, never its data (the
    library's trainsize_checkpoint_read).

    ``path`` (``str`` or ``os.PathLike``) is a ``.safetensors`` file, a
    ``model.safetensors.index.json`` (every shard it names is read), or a folder holding
    either. Returns ``{"parameters": ..., "bytes": ..., "tensors": ..., "files": ...,
    "dtype": ..., "groups": [...]}``: the elements of every tensor (exact), their data as
    stored in bytes, the tensors and files read, the dtype holding the most elements
    (``"BF16"``, ...), and the tensors by name prefix, the most parameters first: each
    ``{"name": ..., "parameters": ..., "tensors": ..., "layers": ...}`` (``"model.layers.#"``
    for every layer, ``layers`` its largest index + 1; at most 16, the last ``"(other)"``
    summing the rest). Which of them a model's shape does not explain is the estimate's
    ``model.extra_tensors``.

    Raises:
        TrainsizeError: a missing file, a corrupt header (the library's message names
            "safetensors" and the file).
    """
    ck = _LIB.checkpoint_read(_path_bytes("path", "path", path), "path")
    groups = [{"name": _lib.decode(g.name), "parameters": int(g.parameters), "tensors": int(g.tensors),
               "layers": int(g.layers)} for g in ck.groups[:ck.group_count]]
    return {"parameters": int(ck.parameters), "bytes": int(ck.bytes), "tensors": int(ck.tensors),
            "files": int(ck.files), "dtype": _lib.decode(ck.dtype), "groups": groups}


def abi_version() -> int:
    """The ABI version of the C library actually loaded (it equals :data:`EXPECTED_ABI`)."""
    return _LIB.abi


def parameters() -> List[Parameter]:
    """Every job parameter the library accepts, i.e. every keyword of :func:`estimate`
    (besides ``model``, ``hf_config`` and ``gpu_file``), in the library's order."""
    return [Parameter(keyword=p["name"].replace("-", "_"), **p) for p in _LIB.params]


def example_settings() -> List[Tuple[str, str]]:
    """The built-in example job that bare ``trainsize`` sizes: its settings as (name, value)
    pairs, in the order the command applies them (the library's list; empty from a library
    older than the list)."""
    import ctypes  # loaded already, by the library's loader

    fn = _LIB.fn.example_setting
    out: List[Tuple[str, str]] = []
    if fn is None:
        return out
    name, value = ctypes.c_char_p(), ctypes.c_char_p()
    while fn(len(out), ctypes.byref(name), ctypes.byref(value)):
        out.append((name.value.decode("utf-8"), value.value.decode("utf-8")))
    return out


def result_fields() -> List[ResultField]:
    """Every figure of an :class:`Estimate`: dotted path, type, unit and description."""
    return [ResultField(f.path, _lib.FIELD_TYPE_NAMES.get(f.type, str(f.type)), f.unit, f.doc)
            for f in _LIB.fields]


# ---------------------------------------------------------------------------------------
# Keyword arguments -> the library's text form


def _fail(code: int, option: str, keyword: str, reason: str) -> TrainsizeError:
    return TrainsizeError(code, option, "%s: %s" % (option, reason), keyword)


def _reason(exc: BaseException) -> str:
    """An exception as a message's reason; its own __str__ may raise too."""
    try:
        return "%s: %s" % (type(exc).__name__, exc)
    except Exception:
        return type(exc).__name__


def _shown(value: Any) -> str:
    """A value for a message: a short repr(), which may raise (a hostile object's, an int
    of over 4300 digits)."""
    try:
        text = repr(value)
    except Exception:
        return "a value of type %s" % type(value).__name__
    return text if len(text) <= 60 else text[:57] + "..."


def _escaped(text: str) -> str:
    """A name as one printable line, escaped as the library escapes the names it hands
    back: \\xNN for C0 and DEL, \\uNNNN for C1, U+2028/9, the bidirectional controls
    (U+202A-E, U+2066-9) and (here) lone surrogates."""
    out = []
    for c in text:
        o = ord(c)
        if o < 0x20 or o == 0x7F:
            c = "\\x%02x" % o
        elif 0x80 <= o < 0xA0 or 0x2028 <= o <= 0x202E or 0x2066 <= o <= 0x2069 or 0xD800 <= o < 0xE000:
            c = "\\u%04x" % o
        out.append(c)
    return "".join(out)


def _option(key: str) -> str:
    """A keyword's library name (``micro_batch`` -> ``micro-batch``). A name the C text
    cannot carry is refused here, as the library refuses an unknown one: a NUL would end
    it ("gpus\\0junk" would set gpus) and a lone surrogate has no UTF-8."""
    option = key.replace("_", "-")
    if "\0" in option or not (option.isascii() or _is_utf8(option)):
        name = _escaped(option)
        raise TrainsizeError(_E_UNKNOWN, name, 'unknown parameter "%s"' % name, key)
    return option


def _is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _scalar_text(value: Any) -> str | None:
    """A value's text (a str; None for a type that has none). The exact types first (the
    common case); subclasses by their base type's methods, as theirs could raise or hide a
    NUL; other numbers (numpy's, Fraction) through int() or float(). May raise: an int too
    long for str() (sys.get_int_max_str_digits()), or another number's own methods."""
    kind = type(value)
    if kind is str:
        return value
    if kind is int:
        return str(value)
    if kind is float:
        return repr(value)
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, int):  # bool is not subclassable: this is an int's subclass
        return int.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value)
    import numbers  # only for other number types (numpy's, Fraction): ~0.5 ms of import
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        return repr(float(value))
    return None


def _value_bytes(option: str, keyword: str, value: Any) -> bytes:
    """int/float/bool/str, or a list/tuple of those (joined with ','), as UTF-8 text."""
    try:
        if isinstance(value, (list, tuple)):
            parts = [_scalar_text(v) for v in value]
            text = None if any(p is None for p in parts) else ",".join(parts)
        else:
            text = _scalar_text(value)
    except Exception as exc:  # raised by the value's own methods, or an int too long
        raise _fail(_E_INVALID, option, keyword, "cannot write the %s as text: %s"
                    % (type(value).__name__, _reason(exc))) from exc
    if text is None:
        raise _fail(_E_INVALID, option, keyword,
                    "expected a str, int, float or bool (or a list of them), got %s"
                    % type(value).__name__)
    if "\0" in text:
        raise _fail(_E_INVALID, option, keyword, "the value contains a NUL character")
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        raise _fail(_E_INVALID, option, keyword,
                    "the value is not valid Unicode text") from None


def _path_bytes(option: str, keyword: str, value: Any) -> bytes:
    """A path as os.fsencode() gives it, encoded by the base types' methods (a subclass's
    encode() could hide a NUL)."""
    try:
        path = os.fspath(value)
        if isinstance(path, str):
            path = str.encode(path, sys.getfilesystemencoding(),
                              sys.getfilesystemencodeerrors())
        else:
            path = bytes(memoryview(path))
    except Exception as exc:  # __fspath__ raised or gave no str/bytes; a lone surrogate
        raise _fail(_E_INVALID, option, keyword,
                    "the path cannot be used: %s" % _reason(exc)) from exc
    if b"\0" in path:
        raise _fail(_E_INVALID, option, keyword, "the path contains a NUL character")
    return path


def _json_bytes(option: str, keyword: str, value: Mapping) -> bytes:
    import json  # only for dict configs: ~8 ms of import otherwise spent by every user
    try:
        return json.dumps(value, allow_nan=False).encode("utf-8")
    except RecursionError:  # the library reads a few dozen levels: this is far beyond
        raise _fail(_E_LIMIT, option, keyword,
                    "the dict is nested too deeply to be written as JSON") from None
    except Exception as exc:  # a cycle, a key or value JSON lacks, or its own methods
        raise _fail(_E_INVALID, option, keyword,
                    "the dict cannot be written as JSON: %s" % _reason(exc)) from exc


def _load(option: str, keyword: str, value: Any, job: int, load_text, load_file) -> None:
    """hf_config= / gpu_file= / calibration=: a path (str, os.PathLike), a dict, or JSON
    text as bytes."""
    if isinstance(value, Mapping):
        load_text(job, _json_bytes(option, keyword, value), keyword)
    elif isinstance(value, (bytes, bytearray)):
        # The buffer itself: a subclass's __bytes__ could give an object whose len() lies.
        load_text(job, value if type(value) is bytes else bytes(memoryview(value)), keyword)
    elif isinstance(value, (str, os.PathLike)):
        load_file(job, _path_bytes(option, keyword, value), keyword)
    else:
        raise _fail(_E_INVALID, option, keyword,
                    "expected a path (str or os.PathLike), a dict or JSON bytes, got %s"
                    % type(value).__name__)


class _job:
    """``with _job(kwargs, for_plan) as job``: a job built from keyword arguments, freed on
    exit (a class rather than contextlib.contextmanager, which costs the import ~3 ms)."""

    __slots__ = ("handle",)

    def __init__(self, kwargs: Dict[str, Any], for_plan: bool):
        self.handle = _new_job(kwargs, for_plan)

    def __enter__(self) -> int:
        return self.handle

    def __exit__(self, *exc: Any) -> None:
        _LIB.free_job(self.handle)


def _load_checkpoint(job: int, given: Dict[str, str], values: Dict[str, Any]) -> None:
    """hf_model= (with revision=) or safetensors=, as the command's --hf-model and
    --safetensors load them: a cached snapshot or a folder is the model itself, its
    config.json counted by its headers; a file (or a folder, when ``model`` or
    ``hf_config`` gives the model) is counted against the model already set."""
    lib = _LIB
    if _HF_MODEL in given:
        key = given[_HF_MODEL]
        model_id = _name_bytes(_HF_MODEL, key, values[_HF_MODEL])
        revision = None
        if _REVISION in given:
            revision = _name_bytes(_REVISION, given[_REVISION], values[_REVISION])
        folder = lib.hf_snapshot(lib.hf_hub_cache(key), model_id, revision, key, given.get(_REVISION))
        ck = lib.job_load_checkpoint(job, folder, model_id, key)
    else:
        key = given[_SAFETENSORS]
        path = _path_bytes(_SAFETENSORS, key, values[_SAFETENSORS])
        if _MODEL in given or _HF_CONFIG in given:
            ck = lib.checkpoint_read(path, key)
            lib.job_set_checkpoint(job, ck, key)
        else:
            ck = lib.job_load_checkpoint(job, path, None, key)
    if ck.parameters < ck.config_parameters:
        # More than the shape is extra_params in the result; fewer is said, as the command
        # says it on standard error.
        import warnings  # already loaded by the interpreter: a dict lookup
        warnings.warn("%s: the checkpoint's headers hold %d parameters, %d fewer than its shape "
                      "describes (%d; packed or quantized tensors?): the shape's count is used"
                      % (_escaped(key), ck.parameters, ck.config_parameters - ck.parameters,
                         ck.config_parameters), stacklevel=5)


def _name_bytes(option: str, keyword: str, value: Any) -> bytes:
    """hf_model= and revision=: a str (a Hub id, a branch, tag or commit id)."""
    if not isinstance(value, str):
        raise _fail(_E_INVALID, option, keyword, "expected a str, got %s" % type(value).__name__)
    return _value_bytes(option, keyword, value)


def _new_job(kwargs: Dict[str, Any], for_plan: bool) -> int:
    """A job built from keyword arguments as the command builds it from options: the model
    (``model``, ``hf_config`` or ``hf_model``) first, then the checkpoint (``hf_model``,
    ``safetensors``), then every other keyword in order, then ``gpu_file``. ``None``
    values are left out."""
    items = []
    for key, value in kwargs.items():
        if value is not None:
            key = str.__str__(key)  # a str subclass by its text: its methods may lie
            items.append((key, _option(key), value))
    given = {option: key for key, option, _ in items}
    if len(given) < len(items):  # micro_batch=1, **{"micro-batch": 2}: not the last silently
        seen: Dict[str, str] = {}
        for key, option, _ in items:
            if option in seen:
                raise _fail(_E_INVALID, option, key, "given twice, as %s and as %s"
                            % (_escaped(seen[option]), _escaped(key)))
            seen[option] = key
    if _HF_MODEL in given and (_MODEL in given or _HF_CONFIG in given):
        raise _fail(_E_INVALID, _HF_MODEL, given[_HF_MODEL],
                    "model, hf_config and hf_model exclude each other: give one model")
    if _MODEL in given and _HF_CONFIG in given:
        raise _fail(_E_INVALID, _HF_CONFIG, given[_HF_CONFIG],
                    "model and hf_config exclude each other: give one model")
    if _HF_MODEL in given and _SAFETENSORS in given:
        raise _fail(_E_INVALID, _SAFETENSORS, given[_SAFETENSORS],
                    "hf_model and safetensors exclude each other: give one checkpoint")
    if _REVISION in given and _HF_MODEL not in given:
        raise _fail(_E_INVALID, _REVISION, given[_REVISION], "revision goes with hf_model")
    if not for_plan and _GPU_FILE in given and "gpu" in given:
        raise _fail(_E_INVALID, _GPU_FILE, given[_GPU_FILE],
                    "gpu and gpu_file exclude each other: give one GPU")
    lib = _LIB
    if for_plan:
        # The library's planner policy, as `trainsize plan` applies it.
        refused = {p["name"]: p["plan_refusal"] for p in lib.params if p["plan_refusal"]}
        for key, option, _ in items:
            if option in refused:
                raise _fail(_E_INVALID, option, key,
                            "not a keyword of plan(): " + refused[option])
    job = lib.new_job()
    try:
        for key, option, value in items:
            if option == _MODEL:
                lib.job_set(job, "model", _value_bytes(option, key, value), key)
            elif option == _HF_CONFIG:
                _load(option, key, value, job, lib.load_hf_config_text, lib.load_hf_config_file)
        # A checkpoint: its own model (a cached snapshot, a folder), else the one above counted.
        if _HF_MODEL in given or _SAFETENSORS in given:
            _load_checkpoint(job, given, {option: value for _, option, value in items})
        # The site's calibration next: the keywords after it win over its shares.
        for key, option, value in items:
            if option == _CALIBRATION:
                _load(option, key, value, job, lib.load_calibration_text, lib.load_calibration_file)
        for key, option, value in items:
            if option in _NOT_PARAMETERS:
                continue
            name = "plan-gpus" if for_plan and option == "gpu" else option
            lib.job_set(job, name, _value_bytes(option, key, value), key)
        for key, option, value in items:
            if option == _GPU_FILE:
                _load(option, key, value, job, lib.load_gpu_text, lib.load_gpu_file)
    except TrainsizeError as exc:
        lib.free_job(job)
        suggesting = _suggesting(exc, for_plan)
        if suggesting is exc:
            raise
        raise suggesting from None
    except BaseException:
        lib.free_job(job)
        raise
    return job


def _suggesting(exc: TrainsizeError, for_plan: bool) -> TrainsizeError:
    """``exc``, or, for a keyword the library does not know, the same error with the
    nearest keyword suggested: 'unknown parameter "micro-bach"; did you mean
    "micro_batch"?' (a message that already suggests one is kept)."""
    option = exc.field
    if exc.code != _E_UNKNOWN or not option or exc.keyword is None \
            or option != exc.keyword.replace("_", "-") or "did you mean" in exc.message \
            or _LIB.fn.param_find(option.encode("utf-8")) >= 0:
        # A known parameter's value (an unknown GPU, preset, choice), a config's key, or a
        # message that suggests already.
        return exc
    from . import _introspect
    near = _introspect.suggestion(_LIB.params, option, for_plan)
    if near is None:
        return exc
    return TrainsizeError(exc.code, exc.field, '%s; did you mean "%s"?' % (exc.message, near),
                          exc.keyword)


# ---------------------------------------------------------------------------------------
# Jobs kept for repeated keywords

#: Scalar types whose keyword values make a job worth keeping (paths and dicts name
#: files and configs that may change between calls, so they are built anew each time).
_KEYABLE = (str, int, float, bool)
#: Jobs each thread keeps, the oldest dropped first.
_JOBS_PER_THREAD = 32


_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))
_STR = frozenset((str,))


def _job_key(kwargs: Dict[str, Any]) -> tuple | None:
    """The keywords as a key (their order and types included: 1, 1.0 and True set
    different text), or None when they name a file or config, or when a keyword is a str
    subclass (its __eq__ and __hash__ would choose the job)."""
    types = tuple(map(type, kwargs.values()))
    if _SCALAR_TYPES.issuperset(types):  # the common case, at C speed
        if not _STR.issuperset(map(type, kwargs)) or not _FILE_KEYWORDS.isdisjoint(kwargs):
            return None
        return (tuple(kwargs.items()), types)
    key = []
    for k, v in kwargs.items():
        kind = type(v)
        if type(k) is not str:
            return None
        if kind in _KEYABLE or v is None:
            key.append((k, kind, v))
        elif kind in (list, tuple) and all(type(x) in _KEYABLE for x in v):
            key.append((k, kind, tuple((type(x), x) for x in v)))
        else:
            return None
    if not _FILE_KEYWORDS.isdisjoint(kwargs):
        return None
    return tuple(key)


class _ThreadJobs:
    """The jobs one thread built from keywords: a job is only read once built (a
    trainsize_estimate reads its job and nothing else changes it), so estimating it again
    gives what building it anew would, without the dozen ctypes calls of building it. Freed
    with the thread (its thread-local state goes, and with it this object)."""

    __slots__ = ("by_key", "scratch", "__weakref__")

    def __init__(self) -> None:
        self.by_key: Dict[tuple, Any] = {}  # key -> c_void_p job
        self.scratch = _lib.Scratch(_LIB)  # the thread's result buffer, reused

    def get(self, kwargs: Dict[str, Any]) -> Any:
        key = _job_key(kwargs)
        if key is None:
            return None
        job = self.by_key.get(key)
        if job is None:
            job = _lib.ctypes.c_void_p(_new_job(kwargs, False))
            if len(self.by_key) >= _JOBS_PER_THREAD:
                _LIB.free_job(self.by_key.pop(next(iter(self.by_key))).value)
            self.by_key[key] = job
        return job

    def __del__(self) -> None:
        lib = _LIB  # at interpreter exit the module may be gone: then the OS reclaims them
        if lib is not None:
            for job in self.by_key.values():
                lib.free_job(job.value)
        self.by_key = {}


class _PerThread(_thread._local):
    def __init__(self) -> None:
        self.jobs = _ThreadJobs()


_PER_THREAD = _PerThread()
# The library's field table as estimates read it (built once), and what every estimate
# uses, bound once.
_TABLE = _results._table(_LIB.fields, _LIB.decoders, _LIB.positions)
_ESTIMATE = _LIB.fn.estimate_untyped  # takes ctypes objects only
_READ_RAW = _LIB.read_raw
_FITS = _LIB.positions[_LIB.fits_index]
_VERSION = _LIB.version
_make_estimate = _results._make_estimate


# ---------------------------------------------------------------------------------------
# The API


def estimate(**kwargs: Any) -> Estimate:
    """Estimate what one training job takes, as ``trainsize estimate`` does.

    Keywords are the command's options with ``-`` written ``_``; values are ``int``,
    ``float``, ``bool`` or ``str`` (lists, e.g. ``lora_targets=["q", "v"]``, are joined with
    commas); ``None`` means "not given". Besides the library's parameters
    (:func:`parameters`):

    - ``model``: a built-in preset name;
    - ``hf_config``: a Hugging Face ``config.json``, as a path (``str``/``os.PathLike``), a
      ``dict``, or its JSON text as ``bytes`` (excludes ``model``);
    - ``gpu_file``: a JSON device file for a GPU outside the catalogue, as a path, a
      ``dict`` or ``bytes`` (excludes ``gpu``);
    - ``calibration``: a site calibration ``trainsize calibrate`` wrote, as a path, a
      ``dict`` or ``bytes``: the efficiency model's shares fitted to the site's own runs
      (``layout.calibration`` says it applied; the keywords win over its shares);
    - ``hf_model``: ``"ORG/NAME"``, a model the Hugging Face cache already holds
      (``$HF_HUB_CACHE``, else ``$HF_HOME/hub``, ..., as ``huggingface_hub`` finds it), at
      ``revision`` (a branch, tag or commit id; default ``"main"``): its ``config.json`` is
      the model, named by the id, and its parameters are counted from the safetensors
      headers; where they hold more than the config describes, the difference is
      ``extra_params`` (``model.extra_parameters``); where fewer, a ``UserWarning`` says so
      (excludes ``model``, ``hf_config`` and ``safetensors``; no network);
    - ``safetensors``: the same for a checkpoint outside the cache, as a path: a folder
      (its ``config.json`` is the model unless ``model`` or ``hf_config`` gives one), a
      ``.safetensors`` file or a ``model.safetensors.index.json``.

    The model is applied first, then the checkpoint, so shape keywords (``layers``,
    ``hidden``, ...) override single fields of it; the other keywords follow in the order
    given.

    Returns:
        An :class:`Estimate`; ``to_dict()`` equals the JSON of ``trainsize estimate --json``.
        When the job does not fit, ``advice`` lists up to 5 changes that make it fit, least
        disruptive first, each ``{"set": {option: value}, "peak_total": ..., "fits": True,
        ...}`` and each a full estimate of the changed job.
    Raises:
        TrainsizeError: invalid input (unknown keyword, bad value, a layout that does not
            divide, an unreadable or malformed config), with the library's message.
    """
    jobs = _PER_THREAD.jobs
    types = tuple(map(type, kwargs.values()))
    if _SCALAR_TYPES.issuperset(types) and _FILE_KEYWORDS.isdisjoint(kwargs):  # the common case, inline
        job = jobs.by_key.get((tuple(kwargs.items()), types))
        if job is not None:
            return _estimate(job, jobs.scratch, kwargs)
    job = jobs.get(kwargs)
    if job is not None:
        return _estimate(job, jobs.scratch, kwargs)
    with _job(kwargs, for_plan=False) as handle:
        return _estimate(_lib.ctypes.c_void_p(handle), jobs.scratch, kwargs)


def _estimate(job: Any, scratch: Any, kwargs: Dict[str, Any]) -> Estimate:
    """Estimate ``job`` (a ``c_void_p``) into the thread's buffer ``scratch``; the values
    are copied out of it before anything reuses it. ``kwargs`` (the call's own dict) is
    kept for report()."""
    rc = _ESTIMATE(job, scratch.buf_ref, scratch.c_size, scratch.err_ref)
    if rc != 0:
        raise _LIB.error(rc, scratch.err)
    raw = _READ_RAW(scratch.buf)
    advice = [] if raw[_FITS] else _LIB.advise(job, ADVICE_MAX)
    return _make_estimate(_VERSION, _TABLE, raw, advice, None, kwargs)


def _report(kwargs: Dict[str, Any]) -> str:
    """Estimate.report(): the job built again from its keywords, and the library's report
    of it (with the fit advice the command shows)."""
    with _job(kwargs, for_plan=False) as handle:
        return _LIB.report(_lib.ctypes.c_void_p(handle), ADVICE_MAX)


_results._REPORT = _report


def _json(kwargs: Dict[str, Any]) -> str:
    """Estimate.to_json(): the job built again from its keywords, and the library's JSON of
    it (trainsize_result_json, with the fit advice the command lists)."""
    with _job(kwargs, for_plan=False) as handle:
        return _LIB.result_json(_lib.ctypes.c_void_p(handle), ADVICE_MAX)


_results._JSON = _json


def _plan_top(top: Any) -> int:
    """top= as an int from 1 to PLAN_TOP_MAX (an int subclass by its value, another
    Integral through int()), else TrainsizeError."""
    n = None
    if type(top) is bool:
        pass
    elif isinstance(top, int):
        n = int.__int__(top)
    else:
        import numbers
        if isinstance(top, numbers.Integral):
            try:
                n = int(top)
            except Exception:  # its own __int__ raised
                pass
    if n is None or not 1 <= n <= PLAN_TOP_MAX:
        raise _fail(_E_INVALID, "top", "top", "expected a whole number from 1 to %d, got %s"
                    % (PLAN_TOP_MAX, _shown(top)))
    return n


def plan(top: int = PLAN_TOP_DEFAULT, *, progress: Optional[Callable[[int, int, int], Any]] = None,
         **kwargs: Any) -> Plan:
    """Search GPU types, counts and parallel layouts, as ``trainsize plan`` does.

    Takes the model and job keywords of :func:`estimate` (``tokens`` is required) and the
    planner's constraints: ``deadline_days``, ``budget``, ``max_gpus``, ``objective``
    (``"cost"`` or ``"time"``), ``gpus_per_node``, ``global_batch``, and ``gpu``: a catalogue
    name or a list of names that restricts the search (the library's ``plan-gpus``). A fixed
    layout (``gpus``, ``tp``, ``pp``, ``pp_interleave``, ``ep``, ``zero``, ``micro_batch``,
    ``recompute``) or ``gpu_memory`` is refused; ``gpu_file`` (a GPU of your own description)
    plans for that GPU alone. ``exhaustive=True`` estimates every configuration, without the
    floors that prune the search: the same answer, slower.

    Args:
        top: how many candidates to return, 1 to 100 (``--top``; default 10).
        progress: ``progress(done, total, examined)``, called on this thread after each GPU
            count is searched or skipped (``done`` counts up by 1 to ``total``; ``examined``
            is the configurations examined so far); a true return cancels the search.

    Returns:
        A :class:`Plan`; ``to_dict()`` equals the JSON of ``trainsize plan --json``.
    Raises:
        TrainsizeError: invalid input, with the library's message; ``Status.E_CANCELLED``
            when ``progress`` cancelled the search (no partial plan); ``Status.E_UNSUPPORTED``
            when ``progress`` is given and the library lacks trainsize_plan_with_progress.
        Whatever ``progress`` raised: the search is cancelled and it is raised again.
    """
    top = _plan_top(top)
    if progress is not None and not callable(progress):
        raise _fail(_E_INVALID, "progress", "progress", "expected a callable or None, got %s"
                    % type(progress).__name__)
    with _job(kwargs, for_plan=True) as job:
        stats, found = _LIB.plan(job, top, progress)
        objective = _LIB.job_get(job, "objective") or ""
    # Each candidate from the library's plan field table: its keys are the JSON's, and a
    # key a later library adds that this binding does not know is left out.
    known = set(Candidate._fields)
    candidates = []
    for c in found:
        fields = _LIB.candidate_fields(c)
        candidates.append(Candidate(**{k: v for k, v in fields.items() if k in known}))
    return Plan(evaluated=int(stats.evaluated), estimated=int(stats.estimated),
                feasible=int(stats.feasible), objective=objective, candidates=candidates,
                fit_memory=int(stats.fit_memory), fastest_fit_seconds=float(stats.fastest_fit_seconds),
                cheapest_fit_cost=float(stats.cheapest_fit_cost),
                least_overshoot=float(stats.least_overshoot),
                pruned_memory=int(stats.pruned_memory), pruned_bound=int(stats.pruned_bound),
                bounds=int(stats.bounds), counts_skipped=int(stats.counts_skipped))


def largest_fit(**kwargs: Any) -> LargestFit:
    """The largest micro-batch and the largest sequence that fit, everything else as the
    keywords give it (the library's trainsize_largest_fit).

    Takes the keywords of :func:`estimate`. The answer is what
    ``estimate(..., largest_fit=True)`` reports as ``memory.max_micro_batch`` and
    ``memory.max_seq``, without the rest of the estimate: an estimate with either fits, one
    with the next larger does not. The micro-batch is searched among the divisors of a
    data-parallel rank's share of ``global_batch`` when that is set; the sequence in
    multiples of 128 (and of what the layout needs), up to the model's learned positions.

    Returns:
        A :class:`LargestFit` (``max_micro_batch`` in samples, ``max_seq`` in tokens; 0
        when even the smallest does not fit), which unpacks as a pair.
    Raises:
        TrainsizeError: invalid input, as for :func:`estimate`.
    """
    job = _PER_THREAD.jobs.get(kwargs)
    if job is not None:
        return LargestFit(*_LIB.largest_fit(job))
    with _job(kwargs, for_plan=False) as handle:
        return LargestFit(*_LIB.largest_fit(handle))


#: capacity(): GPUs in all when neither gpus nor servers is given, and the most servers (as
#: ``trainsize capacity``).
CAPACITY_GPUS_DEFAULT = 8
_SERVERS_MAX = 4096


def capacity(gpu: str = "h100-80gb", gpus: Any = None, *, servers: Any = None, gpus_per_node: Any = 0,
             seq: Any = 2048, micro_batch: Any = 1, host_ram: Any = 0) -> Dict[str, Any]:
    """The largest catalogue model each way of training fits on these GPUs, as
    ``trainsize capacity`` finds it (the library's trainsize_capacity).

    Args:
        gpu: a catalogue GPU name.
        gpus: GPUs in all (default 8); excludes ``servers``.
        servers: that many servers of ``gpus_per_node`` GPUs, else of the product's own
            count per server (else 8), 1 to 4096.
        gpus_per_node: GPUs per server; 0: the product's own.
        seq: tokens per sample.
        micro_batch: samples per GPU per pass.
        host_ram: the server's host RAM in bytes, or as the command takes it (``"2TiB"``);
            0: the product's as catalogued, else sized from its GPU memory.

    Each number is read as the command reads it (its units, range and message); ``None``
    means "not given".

    Returns:
        A dict equal to ``json.loads`` of ``trainsize capacity --json``: ``gpu``, ``gpus``,
        ``seq``, ``micro_batch`` and ``methods``, one dict per way of training
        (pretraining, full-fine-tuning, lora, qlora, dpo, grpo): ``method``, ``model``
        (None when none fits), ``parameters``, ``tokens_per_s``, ``peak_total`` and
        ``args``, the ``trainsize estimate`` options that reproduce it.
    Raises:
        TrainsizeError: an unknown GPU or a number out of its range, naming the keyword.
    """
    lib = _LIB
    gpu_text = _value_bytes("gpu", "gpu", gpu)
    probe = lib.new_job()
    try:
        # The command's order: the GPU first, then each number through a probe job, so that
        # a value takes the units and gets the message it would for estimate.
        lib.job_set(probe, "gpu", gpu_text, "gpu")

        def number(keyword: str, value: Any, default: int) -> int:
            if value is None:
                return default
            option = keyword.replace("_", "-")
            lib.job_set(probe, option, _value_bytes(option, keyword, value), keyword)
            return int(lib.job_get(probe, option))

        count = number("gpus", gpus, CAPACITY_GPUS_DEFAULT)
        per_node = number("gpus_per_node", gpus_per_node, 0)
        n_servers = None if servers is None else _servers(servers)
        seq_n = number("seq", seq, 2048)
        micro_batch_n = number("micro_batch", micro_batch, 1)
        host_ram_n = number("host_ram", host_ram, 0)
    finally:
        lib.free_job(probe)
    if n_servers is not None:
        if gpus is not None:
            raise _fail(_E_INVALID, "servers", "servers", "gpus and servers exclude each other: give one count")
        per_node = per_node or lib.gpu_per_host(gpu_text) or CAPACITY_GPUS_DEFAULT
        count = n_servers * per_node
    keywords = {"gpu": "gpu", "gpus": "servers" if n_servers else "gpus", "gpus-per-node": "gpus_per_node",
                "seq": "seq", "micro-batch": "micro_batch", "host-ram": "host_ram"}
    import json  # here, not at import: it costs the import a few milliseconds
    return json.loads(lib.capacity_json(gpu_text, count, per_node, seq_n, micro_batch_n, host_ram_n, keywords))


def _servers(value: Any) -> int:
    """servers= as the command reads --servers: a whole number from 1 to 4096, as an int or
    its digits."""
    text = _value_bytes("servers", "servers", value).decode("utf-8")
    if not (text.isascii() and text.isdigit() and text[0] != "0" and len(text) <= 4
            and int(text) <= _SERVERS_MAX):
        raise _fail(_E_INVALID, "servers", "servers", "expected a count from 1 to %d, got '%s'"
                    % (_SERVERS_MAX, _escaped(text[:32])))
    return int(text)


# ---------------------------------------------------------------------------------------
# help() and inspect.signature(), built on first use


class _Described:
    """What introspection finds behind estimate(), plan() and largest_fit() through their
    ``__wrapped__``: inspect.signature() (help(), IPython's ``?``) reads ``__signature__``
    here, which is built from the library's parameter table on first use and completes the
    function's docstring with every keyword (kind, range, unit, default, description) as it
    is, so that help() shows it. The functions stay plain functions: nothing is added to a
    call, and nothing is built at import (importing inspect is ~9 ms, the listing ~7 ms
    more)."""

    __slots__ = ("_fn", "_for_plan", "_doc", "_signature", "_twin")

    def __init__(self, fn: Any, for_plan: bool):
        self._fn, self._for_plan, self._doc = fn, for_plan, fn.__doc__
        self._signature = self._twin = None

    @property
    def __signature__(self) -> Any:
        sig = self._signature
        if sig is None:  # two threads may both build it: the same text
            from . import _introspect
            sig, self._fn.__doc__ = _introspect.describe(
                self._doc, _LIB.params, self._for_plan, PLAN_TOP_DEFAULT, PLAN_TOP_MAX)
            self._signature = sig
        return sig

    @property
    def __wrapped__(self) -> Any:
        # inspect.unwrap() without a stop (inspect.getsource(), doctest) ends at a copy of
        # the function: the function itself would be a loop.
        twin = self._twin
        if twin is None:
            from . import _introspect
            twin = self._twin = _introspect.twin(self._fn)
        return twin


estimate.__wrapped__ = _Described(estimate, False)  # type: ignore[attr-defined]
plan.__wrapped__ = _Described(plan, True)  # type: ignore[attr-defined]
largest_fit.__wrapped__ = _Described(largest_fit, False)  # type: ignore[attr-defined]

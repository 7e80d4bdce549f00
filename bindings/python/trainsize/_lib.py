"""Finding, loading and checking libtrainsize, and the thin calls on top of ctypes.

Lookup order (the first that loads wins; a set ``LIBTRAINSIZE`` is the only one tried):

1. the environment variable ``LIBTRAINSIZE``: a path to the shared object;
2. a ``libtrainsize.so*`` (``libtrainsize*.dylib``, ``trainsize.dll``) next to this package;
3. the system's library path: ``ctypes.util.find_library("trainsize")``, then
   ``libtrainsize.so.<ABI>`` through the dynamic loader (``LD_LIBRARY_PATH`` included).

On load the library's ``trainsize_abi_version()`` must equal :data:`EXPECTED_ABI`; then the
mirrored struct sizes are compared with ``trainsize_struct_size()`` (when the library has
it), and one real estimate is read both through the field table and through the mirror of
``trainsize_result``, so that a layout mismatch fails loudly at import instead of
corrupting memory later.
"""

import codecs
import ctypes
import math
import os
import struct
import _thread

from . import _ffi
from . import _structs as S
from ._errors import E_UNSUPPORTED, OK, LibraryError, TrainsizeError

#: The ABI version of trainsize.h this binding mirrors (TRAINSIZE_ABI_VERSION).
EXPECTED_ABI = 2

#: The environment variable naming the shared object to load.
ENV_VAR = "LIBTRAINSIZE"

# trainsize_field_type
FIELD_U64, FIELD_F64, FIELD_BOOL, FIELD_STRING, FIELD_CHOICE, FIELD_FLAGS = range(6)
FIELD_TYPE_NAMES = {FIELD_U64: "u64", FIELD_F64: "f64", FIELD_BOOL: "bool",
                    FIELD_STRING: "string", FIELD_CHOICE: "choice", FIELD_FLAGS: "flags"}

# trainsize_param_kind
PARAM_KIND_NAMES = {0: "int", 1: "float", 2: "bool", 3: "choice", 4: "name", 5: "list"}


def _replace_per_byte(exc):
    # As the library's JSON writer (trainsize_result_json) does: every byte that does not start a valid UTF-8
    # sequence becomes one U+FFFD, and decoding resumes at the next byte.
    return ("\ufffd", exc.start + 1)


codecs.register_error("trainsize-replace", _replace_per_byte)


def decode(raw):
    """Library text (bytes, or None) -> str (or None), invalid UTF-8 replaced per byte."""
    if raw is None:
        return None
    return raw.decode("utf-8", "trainsize-replace")


# ---------------------------------------------------------------------------------------
# Finding the shared object


def _package_dir_candidates(directory):
    # The names, most specific first: libtrainsize.so.<ABI>, libtrainsize.so,
    # libtrainsize.so.*, libtrainsize*.dylib, trainsize.dll (no glob: it imports re, ~4 ms).
    try:
        entries = sorted(os.listdir(directory))
    except OSError:
        return []
    exact = "libtrainsize.so.%d" % EXPECTED_ABI
    ranked = []
    for name in entries:
        if name == exact:
            rank = 0
        elif name == "libtrainsize.so":
            rank = 1
        elif name.startswith("libtrainsize.so."):
            rank = 2
        elif name.startswith("libtrainsize") and name.endswith(".dylib"):
            rank = 3
        elif name == "trainsize.dll":
            rank = 4
        else:
            continue
        path = os.path.join(directory, name)
        if os.path.isfile(path):
            ranked.append((rank, path))
    return [path for _, path in sorted(ranked)]


def candidates():
    """The (where, path-or-name) pairs the loader tries, in order."""
    env = os.environ.get(ENV_VAR)
    if env:
        return [("$" + ENV_VAR, env)]
    found = [("package directory", p)
             for p in _package_dir_candidates(os.path.dirname(os.path.abspath(__file__)))]
    import ctypes.util  # only here: it costs ~12 ms to import and may run ldconfig
    name = ctypes.util.find_library("trainsize")
    if name:
        found.append(("ctypes.util.find_library", name))
    found.append(("dynamic loader", "libtrainsize.so.%d" % EXPECTED_ABI))
    return found


def _open(where_path_pairs):
    tried = []
    for where, path in where_path_pairs:
        try:
            return ctypes.CDLL(path), path
        except OSError as exc:
            tried.append("  %s: %s (%s)" % (where, path, exc))
    raise LibraryError(
        "cannot load libtrainsize; tried:\n" + "\n".join(tried) +
        "\nBuild the library (cmake --build build) and set %s=/path/to/libtrainsize.so, "
        "or install it where the dynamic loader finds it." % ENV_VAR)


def check_abi(abi, path, expected=None):
    """Raise LibraryError unless a library's ABI version ``abi`` is ``expected`` (default:
    :data:`EXPECTED_ABI`, read at call time so that tests can change it); return ``abi``."""
    if expected is None:
        expected = EXPECTED_ABI
    if abi != expected:
        raise LibraryError(
            "libtrainsize at %s has ABI version %d, but this Python binding was written for "
            "ABI version %d; install a binding and a library of the same ABI version"
            % (path, abi, expected))
    return abi


# ---------------------------------------------------------------------------------------
# The loaded library


class FieldDesc:
    """One result field of the library's table."""

    __slots__ = ("index", "path", "type", "unit", "doc", "keys")

    def __init__(self, index, path, type_, unit, doc):
        self.index = index
        self.path = path
        self.type = type_
        self.unit = unit
        self.doc = doc
        self.keys = tuple(path.split("."))


class Memo(dict):
    """A value by raw key, converted on first sight and remembered (up to `limit` keys):
    the names a result holds (GPU, link, framework, warning bits, choices) repeat from
    one estimate to the next, and a known one is a dict subscript at C speed. Values must
    be immutable."""

    __slots__ = ("convert", "limit")

    def __init__(self, convert, limit=256):
        super().__init__()
        self.convert, self.limit = convert, limit

    def __missing__(self, raw):
        value = self.convert(raw)
        if len(self) < self.limit:
            self[raw] = value
        return value


class Scratch:
    """A result buffer and an error struct with their ctypes references made once: one
    thread reuses them for estimates whose values it copies out before the next."""

    __slots__ = ("buf", "size", "err", "buf_ref", "err_ref", "c_size")

    def __init__(self, lib):
        words = (lib.result_size + 7) // 8
        self.buf = (ctypes.c_uint64 * words)()
        self.size = words * 8
        self.c_size = ctypes.c_size_t(self.size)
        self.err = S.Error()
        self.buf_ref = ctypes.byref(self.buf)
        self.err_ref = ctypes.byref(self.err)


class Lib:
    """A loaded, checked libtrainsize with its static tables read once."""

    def __init__(self, path=None):
        pairs = [("argument", path)] if path else candidates()
        cdll, self.path = _open(pairs)

        def missing(name):
            return LibraryError("libtrainsize at %s lacks the function %s: the library and "
                                "this binding do not match" % (self.path, name))

        # The ABI first: a library of another ABI may lack symbols this binding declares.
        try:
            abi_fn = cdll.trainsize_abi_version
        except AttributeError:
            raise missing("trainsize_abi_version") from None
        abi_fn.argtypes = []
        abi_fn.restype = ctypes.c_uint
        self.abi = check_abi(abi_fn(), self.path)
        self.fn = _ffi.register(cdll, missing)
        self.version = decode(self.fn.version_string()) or ""
        self._check_struct_sizes()
        self.fields = self._read_fields()
        self._params = None  # read when first needed (about 1 ms)
        self._default_job = None  # new_job() copies it; made when first needed
        self._plan_keys = None  # the plan field table's keys, read when first needed
        self._default_lock = _thread.allocate_lock()
        self.warning_bits = self._read_warnings()
        self._check_result_layout()
        self._build_reader()

    # ---- static tables ----

    def _check_struct_sizes(self):
        size_fn = self.fn.struct_size
        self.result_size = ctypes.sizeof(S.Result)
        if size_fn is None:
            return  # an ABI-1 library before trainsize_struct_size(): rely on the cross-check
        for which, mirror in ((S.STRUCT_ERROR, S.Error), (S.STRUCT_RESULT, S.Result),
                              (S.STRUCT_PLAN_CANDIDATE, S.PlanCandidate),
                              (S.STRUCT_PLAN_STATS, S.PlanStats),
                              (S.STRUCT_FIELD_VALUE, S.FieldValue)) + (
                                  ((S.STRUCT_ADVICE, S.Advice),) if self.fn.advise else ()) + (
                                  ((S.STRUCT_CHECKPOINT, S.Checkpoint),) if self.fn.checkpoint_read else ()) + (
                                  ((S.STRUCT_CAPACITY_ENTRY, S.CapacityEntry),) if self.fn.capacity else ()):
            theirs = size_fn(which)
            # A library from before the planner's pruning counts has a shorter
            # trainsize_plan_stats: it writes that much of the binding's larger one, whose
            # last fields stay 0.
            if theirs != ctypes.sizeof(mirror) and not (
                    mirror is S.PlanStats and theirs == S.PLAN_STATS_BEFORE_PRUNING):
                raise LibraryError(
                    "libtrainsize at %s: struct %s is %d bytes there, %d bytes in this binding "
                    "(same ABI version %d): the library and this binding do not match"
                    % (self.path, mirror.__name__, theirs, ctypes.sizeof(mirror), self.abi))

    def _read_fields(self):
        fields = []
        tree = {}
        for i in range(self.fn.result_field_count()):
            info = self.fn.result_field_at(i)
            if not info or not info.contents.path:
                raise LibraryError("libtrainsize at %s: result field %d has no path"
                                   % (self.path, i))
            f = FieldDesc(i, decode(info.contents.path), info.contents.type,
                          decode(info.contents.unit) or "", decode(info.contents.doc) or "")
            if f.path == "trainsize_version":
                continue  # the binding puts the version first, as the JSON writer does
            # The same path rules as the JSON writer: no empty component, no clash.
            node = tree
            for depth, key in enumerate(f.keys):
                last = depth == len(f.keys) - 1
                if key == "" or (key in node and (last or node[key] is None)):
                    raise LibraryError("libtrainsize at %s: result field path %r is empty or "
                                       "clashes with another" % (self.path, f.path))
                if last:
                    node[key] = None
                else:
                    node = node.setdefault(key, {})
            fields.append(f)
        return fields

    @property
    def params(self):
        """Every job parameter: a list of dicts (name, plan_refusal, kind, choices, ...)."""
        params = self._params
        if params is None:  # two threads may both read them: the same static tables
            params = self._params = self._read_params()
        return params

    def _read_params(self):
        params = []
        for i in range(self.fn.param_count()):
            p = self.fn.param_at(i)
            if not p or not p.contents.name:
                continue
            p = p.contents
            refusal = self.fn.param_plan_refusal(self.fn.param_find(p.name))
            params.append({
                "name": decode(p.name),
                "plan_refusal": decode(refusal) if refusal else None,
                "kind": PARAM_KIND_NAMES.get(p.kind, str(p.kind)),
                "choices": tuple(decode(p.choices).split("|")) if p.choices else (),
                "min": p.min,
                "max": p.max,
                "default": decode(p.default_text) or "",
                "unit": decode(p.unit) or "",
                "doc": decode(p.doc) or "",
            })
        return params

    def _read_warnings(self):
        bits = []
        for bit in range(64):
            name = self.fn.warning_name(1 << bit)
            if name:
                bits.append((1 << bit, decode(name)))
        return bits

    def param(self, name):
        for p in self.params:
            if p["name"] == name:
                return p
        return None

    # ---- errors ----

    def error(self, code, err, keyword=None):
        """A TrainsizeError from a status and a filled trainsize_error."""
        field = decode(err.field) if err is not None else ""
        message = decode(err.message) if err is not None else ""
        if not message:
            message = decode(self.fn.strerror(code)) or "error %d" % code
        return TrainsizeError(code, field or "", message, keyword)

    # ---- jobs ----

    def new_job(self):
        """A new job handle (an int); free it with free_job(). A copy of one default job
        made once: trainsize_job_new reads every default from the catalogue's text (about
        60,000 instructions), a copy is a memcpy."""
        base = self._default_job
        if base is None:
            with self._default_lock:
                base = self._default_job
                if base is None:
                    base = self.fn.job_new()
                    if not base:
                        raise MemoryError("trainsize_job_new: out of memory")
                    self._default_job = base  # never changed, never freed: only copied
        job = self.fn.job_clone(base)
        if not job:
            raise MemoryError("trainsize_job_clone: out of memory")
        return job

    def free_job(self, job):
        if job:
            self.fn.job_free(job)

    def job_set(self, job, name, value, keyword=None):
        err = S.Error()
        rc = self.fn.job_set(job, name.encode("utf-8"), value, ctypes.byref(err))
        if rc != OK:
            raise self.error(rc, err, keyword)

    def job_get(self, job, name):
        """A job parameter's text, or None when the library has no such parameter."""
        cap = 256
        while True:
            buf = ctypes.create_string_buffer(cap)
            n = self.fn.job_get(job, name.encode("utf-8"), buf, cap, None)
            if n < 0:
                return None
            if n < cap:
                return decode(buf.value)
            cap = n + 1

    def _checked(self, rc, err, keyword):
        if rc != OK:
            raise self.error(rc, err, keyword)

    # The file loaders: a file's text (bytes) or its path (bytes), for hf_config=,
    # gpu_file= and calibration=.
    def load_hf_config_text(self, job, text, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_hf_config(job, text, len(text), ctypes.byref(err)), err, keyword)

    def load_hf_config_file(self, job, path, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_hf_config_file(job, path, ctypes.byref(err)), err, keyword)

    def load_gpu_text(self, job, text, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_gpu_json(job, text, len(text), ctypes.byref(err)), err, keyword)

    def load_gpu_file(self, job, path, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_gpu_file(job, path, ctypes.byref(err)), err, keyword)

    def load_calibration_text(self, job, text, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_calibration_json(job, text, len(text), ctypes.byref(err)), err, keyword)

    def load_calibration_file(self, job, path, keyword=None):
        err = S.Error()
        self._checked(self.fn.job_load_calibration(job, path, ctypes.byref(err)), err, keyword)

    # ---- checkpoints (hf_model=, safetensors=, checkpoint()) ----

    def _checkpoint_fn(self, name, option, keyword):
        """A checkpoint function of the library, or E_UNSUPPORTED naming the keyword when
        the loaded library is older than them."""
        fn = getattr(self.fn, name)
        if fn is None:
            raise TrainsizeError(E_UNSUPPORTED, option, "%s: the loaded library has no trainsize_%s"
                                 % (option, name), keyword)
        return fn

    def checkpoint_read(self, path, keyword=None):
        """trainsize_checkpoint_read of a path (bytes): a filled S.Checkpoint."""
        fn = self._checkpoint_fn("checkpoint_read", "safetensors", keyword)
        ck, err = S.Checkpoint(), S.Error()
        self._checked(fn(path, ctypes.byref(ck), ctypes.byref(err)), err, keyword)
        return ck

    def job_set_checkpoint(self, job, ck, keyword=None):
        """trainsize_job_set_checkpoint: the headers win where they hold more (``ck`` is
        completed with the shape's count and the difference)."""
        fn = self._checkpoint_fn("job_set_checkpoint", "safetensors", keyword)
        err = S.Error()
        self._checked(fn(job, ctypes.byref(ck), ctypes.byref(err)), err, keyword)

    def job_load_checkpoint(self, job, folder, name, keyword=None):
        """trainsize_job_load_checkpoint of a folder (bytes), the model named ``name``
        (bytes, or None for the config's naming): the S.Checkpoint."""
        fn = self._checkpoint_fn("job_load_checkpoint", "safetensors", keyword)
        ck, err = S.Checkpoint(), S.Error()
        self._checked(fn(job, folder, name, ctypes.byref(ck), ctypes.byref(err)), err, keyword)
        return ck

    def hf_hub_cache(self, keyword=None):
        """The Hugging Face cache folder as bytes (trainsize_hf_hub_cache), or
        TrainsizeError when the environment names none."""
        fn = self._checkpoint_fn("hf_hub_cache", "hf-model", keyword)
        cap = 1024
        while True:
            buf = ctypes.create_string_buffer(cap)
            n = fn(buf, cap)
            if n < 0:
                raise TrainsizeError(n, "hf-model", "hf-model: no Hugging Face cache to search: set "
                                     "HF_HUB_CACHE, HF_HOME or HOME", keyword)
            if n < cap:
                return buf.value
            cap = n + 1  # snprintf-style: the length it needs

    def hf_snapshot(self, cache, model_id, revision, keyword=None, revision_keyword=None):
        """trainsize_hf_snapshot: the snapshot folder (bytes) of ``model_id`` (bytes) at
        ``revision`` (bytes, or None for "main") in ``cache`` (bytes). An error of the
        revision (the library's field "revision") names ``revision_keyword``."""
        fn = self._checkpoint_fn("hf_snapshot", "hf-model", keyword)
        # the cache path, models--ORG--NAME (two 96-byte parts) and snapshots/COMMIT
        cap = len(cache) + 512
        buf, err = ctypes.create_string_buffer(cap), S.Error()
        rc = fn(cache, model_id, revision, buf, cap, ctypes.byref(err))
        if rc != OK and revision_keyword and err.field == b"revision":
            keyword = revision_keyword
        self._checked(rc, err, keyword)
        return buf.value

    def calibrate(self, runs_text, date):
        """trainsize_calibrate: the calibration's JSON text."""
        err = S.Error()
        runs = (S.CalibrationRun * S.CALIBRATION_RUNS_MAX)()
        summary = S.CalibrationSummary()
        count, need = ctypes.c_size_t(), ctypes.c_size_t()
        args = (runs_text, len(runs_text), date, runs, S.CALIBRATION_RUNS_MAX, ctypes.byref(count),
                ctypes.byref(summary))
        rc = self.fn.calibrate(*args, None, 0, ctypes.byref(need), ctypes.byref(err))
        if rc == OK:
            buf = ctypes.create_string_buffer(need.value + 1)
            rc = self.fn.calibrate(*args, buf, len(buf), ctypes.byref(need), ctypes.byref(err))
        if rc != OK:
            raise self.error(rc, err, "runs")
        return buf.value.decode("utf-8")

    # ---- what a server can train ----

    def capacity_json(self, gpu, gpus, gpus_per_node, seq, micro_batch, host_ram, keywords):
        """trainsize_capacity, then trainsize_capacity_json of its entries: the text
        ``trainsize capacity --json`` prints. ``gpu`` is bytes; an error's library field
        (an option name) names the Python keyword ``keywords`` gives it."""
        if self.fn.capacity is None or self.fn.capacity_json is None:
            raise TrainsizeError(E_UNSUPPORTED, "capacity", "capacity: the loaded library has no "
                                 "trainsize_capacity", "gpu")
        entries, err = (S.CapacityEntry * S.CAPACITY_METHODS)(), S.Error()
        rc = self.fn.capacity(gpu, gpus, gpus_per_node, seq, micro_batch, host_ram, entries, ctypes.byref(err))
        if rc == OK:
            # snprintf-style: the length first, then the text into a buffer that holds it
            rc = n = self.fn.capacity_json(gpu, gpus, seq, micro_batch, entries, None, 0, ctypes.byref(err))
        if rc >= OK:
            buf = ctypes.create_string_buffer(n + 1)
            rc = self.fn.capacity_json(gpu, gpus, seq, micro_batch, entries, buf, n + 1, ctypes.byref(err))
        if rc < OK:
            raise self.error(rc, err, keywords.get(decode(err.field)))
        return buf.value.decode("utf-8")

    def gpu_per_host(self, gpu):
        """The catalogue's accelerators per host of GPU ``gpu`` (bytes; its "per_host"
        field, through the GPU field table), or 0 when the GPU or the field is unknown."""
        if self.fn.gpu_find is None or self.fn.gpu_field_get is None:
            return 0
        info = self.fn.gpu_find(gpu)
        if not info:
            return 0
        for i in range(self.fn.gpu_field_count()):
            if decode(self.fn.gpu_field_at(i).contents.path) == "per_host":
                v = S.FieldValue()
                if self.fn.gpu_field_get(info, i, ctypes.byref(v)) == OK:
                    return int(v.u64)
        return 0

    # ---- estimate ----

    def estimate_buffer(self, job, scratch=None):
        """Run trainsize_estimate; return the filled (8-byte aligned) result buffer: a new
        one, or ``scratch`` (a :class:`Scratch` of the calling thread, reused)."""
        if scratch is None:
            scratch = Scratch(self)
        rc = self.fn.estimate(job, scratch.buf_ref, scratch.size, scratch.err_ref)
        if rc != OK:
            raise self.error(rc, scratch.err)
        return scratch.buf

    def flag_names(self, bits):
        return [name for bit, name in self.warning_bits if bits & bit]

    def field_value(self, buf, f, raw=None):
        """One field of a filled result buffer as a Python value."""
        v = S.FieldValue() if raw is None else raw
        rc = self.fn.result_field_get(ctypes.byref(buf), f.index, ctypes.byref(v))
        if rc != OK:
            raise TrainsizeError(rc, f.path, "cannot read result field %r: %s"
                                 % (f.path, decode(self.fn.strerror(rc))))
        return self.value_of(v)

    def candidate_fields(self, candidate):
        """A plan candidate as {key: value}, in the order of the library's plan field
        table (the keys of ``trainsize plan --json``)."""
        keys = self._plan_keys
        if keys is None:  # the table is static: its keys are read once
            keys = self._plan_keys = [decode(self.fn.plan_field_at(i).contents.path)
                                      for i in range(self.fn.plan_field_count())]
        out = {}
        v = S.FieldValue()
        for i, key in enumerate(keys):
            rc = self.fn.plan_field_get(ctypes.byref(candidate), i, ctypes.byref(v))
            if rc != OK:
                raise TrainsizeError(rc, key, "cannot read plan field %r: %s"
                                     % (key, decode(self.fn.strerror(rc))))
            out[key] = self.value_of(v)
        return out

    def value_of(self, v):
        """A field value (trainsize_field_value) as a Python value."""
        if v.type == FIELD_U64:
            return int(v.u64)
        if v.type == FIELD_F64:
            return float(v.f64)
        if v.type == FIELD_BOOL:
            return bool(v.u64)
        if v.type in (FIELD_STRING, FIELD_CHOICE):
            return decode(ctypes.string_at(v.text)) if v.text else None
        if v.type == FIELD_FLAGS:
            return self.flag_names(int(v.u64))
        return None  # a type newer than this binding (the JSON writer prints null)

    def _build_reader(self):
        """One struct.unpack_from over the (import-time checked) mirror of trainsize_result
        reads every mirrored field at once, in the struct's order; ``positions[i]`` is
        where field i is in that tuple. Strings, warning bits and choices are read raw
        (bytes, bits, a choice's index) and named through a :class:`Memo`: a choice's
        name comes from trainsize_result_field_get the first time its index is seen (the
        names are the library's static text). Fields newer than this binding go through
        trainsize_result_field_get one by one and follow the mirrored ones."""
        codes = {ctypes.c_uint64: "Q", ctypes.c_double: "d", ctypes.c_int: "i"}
        spans, slow = [], []
        for i, f in enumerate(self.fields):
            offset, kind = S.member_offset(f.path), S.member_type(f.path)
            code = codes.get(kind)
            if code is None and kind is not None and issubclass(kind, ctypes.Array) \
                    and kind._type_ is ctypes.c_char:
                code = "%ds" % kind._length_
            if code is None or (f.type == FIELD_CHOICE and code != "i"):
                slow.append(i)
            else:
                spans.append((offset, code, i))
        spans.sort()
        fmt, pos, order, decoders = "=", 0, [], {}
        for offset, code, i in spans:
            if offset < pos:
                slow.append(i)  # overlapping members: never in a sound mirror
                continue
            fmt += ("%dx" % (offset - pos) if offset > pos else "") + code
            pos = offset + struct.calcsize("=" + code)
            order.append(i)
            f = self.fields[i]
            if f.type == FIELD_BOOL:
                decoders[i] = bool
            elif f.type == FIELD_STRING:
                decoders[i] = Memo(lambda b: decode(b.split(b"\0", 1)[0]))
            elif f.type == FIELD_FLAGS:  # a tuple, copied to a list as the value
                decoders[i] = Memo(lambda bits: tuple(self.flag_names(bits)))
            elif f.type == FIELD_CHOICE:
                decoders[i] = Memo(lambda index, f=f, offset=offset:
                                   self._choice_name(f, offset, index))
        self._unpack = struct.Struct(fmt).unpack_from
        positions = [0] * len(self.fields)
        for position, i in enumerate(order + slow):
            positions[i] = position
        #: field index -> where read_raw's tuple holds it.
        self.positions = tuple(positions)
        #: field index -> what turns its raw value into the Python value: ``bool`` or a
        #: :class:`Memo` (a tuple of names for warning bits, which the value lists).
        self.decoders = decoders
        self._slow = tuple(self.fields[i] for i in slow)
        self.fits_index = next(i for i, f in enumerate(self.fields) if f.path == "memory.fits")
        self.fits_position = positions[self.fits_index]

    def _choice_name(self, field, offset, index):
        # A buffer of its own: a Memo may be filled from several threads at once.
        buf = (ctypes.c_uint64 * ((self.result_size + 7) // 8))()
        struct.pack_into("=i", buf, offset, index)
        return self.field_value(buf, field)

    def read_raw(self, buf):
        """Every field, in the order of :attr:`positions`: as the mirror holds it (bytes
        for strings, an int for bools, bits and a choice's index; :attr:`decoders` turns
        them into values), then the fields the mirror lacks, read as values."""
        raw = self._unpack(buf)
        if self._slow:
            raw += tuple(self.field_value(buf, f) for f in self._slow)
        return raw

    def read_values(self, buf):
        """Every field's value, in table order."""
        raw = self.read_raw(buf)
        values = [raw[p] for p in self.positions]
        for i, decode_one in self.decoders.items():
            value = decode_one(values[i]) if decode_one is bool else decode_one[values[i]]
            values[i] = list(value) if type(value) is tuple else value
        return values

    # ---- plan ----

    def plan(self, job, cap, progress=None):
        """trainsize_plan; with ``progress`` (a callable of done, total, examined whose true
        answer cancels), trainsize_plan_with_progress."""
        out = (S.PlanCandidate * cap)()
        count = ctypes.c_size_t(0)
        stats = S.PlanStats()
        err = S.Error()
        if progress is None:
            rc = self.fn.plan(job, out, cap, ctypes.byref(count), ctypes.byref(stats),
                              ctypes.byref(err))
        else:
            with_progress = self.fn.plan_with_progress
            if with_progress is None:
                raise TrainsizeError(E_UNSUPPORTED, "progress", "progress: the loaded library "
                                     "has no trainsize_plan_with_progress", "progress")
            raised = []

            def report(context, done, total, examined):
                # An exception must not reach the C frames (ctypes would print it and go
                # on searching): it cancels, and is raised again once the search returns.
                try:
                    return 1 if progress(done, total, examined) else 0
                except BaseException as exc:
                    raised.append(exc)
                    return 1

            callback = _ffi.PlanProgress(report)  # alive until the call returns
            rc = with_progress(job, out, cap, ctypes.byref(count), ctypes.byref(stats),
                               callback, None, ctypes.byref(err))
            if raised:
                raise raised.pop()  # pop: no cycle through the callback's frame
        if rc != OK:
            raise self.error(rc, err)
        return stats, list(out[:min(count.value, cap)])

    # ---- the human report ----

    def report(self, job, advice_cap):
        """trainsize_report of a fresh estimate of ``job`` with its fit advice, as text."""
        if self.fn.report is None:
            raise TrainsizeError(E_UNSUPPORTED, "report",
                                 "report: the loaded library has no trainsize_report")
        return self._text_of_estimate(job, advice_cap, lambda buf, out, n, text, cap, err:
                                      self.fn.report(job, buf, out, n, text, cap, err))

    def result_json(self, job, advice_cap):
        """trainsize_result_json of a fresh estimate of ``job`` with its fit advice: the
        text ``trainsize estimate --json`` prints."""
        if self.fn.result_json is None:
            raise TrainsizeError(E_UNSUPPORTED, "to_json",
                                 "to_json: the loaded library has no trainsize_result_json")
        return self._text_of_estimate(job, advice_cap, self.fn.result_json)

    def _text_of_estimate(self, job, advice_cap, write):
        """A text the library writes of an estimate and its advice (snprintf-style: its
        length first, then the text)."""
        buf = self.estimate_buffer(job)
        out = (S.Advice * advice_cap)()
        count = ctypes.c_size_t(0)
        err = S.Error()
        if self.fn.advise is not None:
            rc = self.fn.advise(job, out, advice_cap, ctypes.byref(count), ctypes.byref(err))
            if rc != OK:
                raise self.error(rc, err)
        n = write(buf, out, count.value, None, 0, ctypes.byref(err))
        if n < 0:
            raise self.error(n, err)
        text = ctypes.create_string_buffer(n + 1)
        n = write(buf, out, count.value, text, n + 1, ctypes.byref(err))
        if n < 0:
            raise self.error(n, err)
        return text.value.decode("utf-8", "replace")

    # ---- the largest that fits ----

    def largest_fit(self, job):
        """(max_micro_batch, max_seq) of trainsize_largest_fit for ``job``."""
        if self.fn.largest_fit is None:
            raise TrainsizeError(E_UNSUPPORTED, "largest-fit", "largest-fit: the loaded "
                                 "library has no trainsize_largest_fit")
        micro_batch, seq = ctypes.c_uint64(0), ctypes.c_uint64(0)
        err = S.Error()
        rc = self.fn.largest_fit(job, ctypes.byref(micro_batch), ctypes.byref(seq),
                                 ctypes.byref(err))
        if rc != OK:
            raise self.error(rc, err)
        return int(micro_batch.value), int(seq.value)

    # ---- fit advice ----

    def advise(self, job, cap):
        """[advice dict] as the command's JSON prints them; [] from a library without it."""
        if self.fn.advise is None:
            return []
        out = (S.Advice * cap)()
        count = ctypes.c_size_t(0)
        err = S.Error()
        rc = self.fn.advise(job, out, cap, ctypes.byref(count), ctypes.byref(err))
        if rc != OK:
            raise self.error(rc, err)
        advice = []
        for a in out[:min(count.value, cap)]:
            n = min(int(a.settings), S.ADVICE_MAX_SETTINGS)
            advice.append({
                "set": {decode(a.names[k].value): decode(a.values[k].value) for k in range(n)},
                "peak_total": int(a.peak_total), "gpu_capacity": int(a.gpu_capacity),
                "fits": True, "gpus": int(a.gpus), "step_seconds": float(a.step_seconds),
                "seconds": float(a.seconds)})
        return advice

    # ---- the import-time layout check ----

    def _check_result_layout(self):
        """Estimate a known job; compare the field table's view with the struct mirror."""
        if self.fn.model_count() == 0:
            raise LibraryError("libtrainsize at %s has no model presets" % self.path)
        info = self.fn.model_at(0)
        if not info or not info.contents.name:
            raise LibraryError("libtrainsize at %s: model preset 0 has no name" % self.path)
        job = self.new_job()
        try:
            # Several GPUs, a token count and a batch, so that few members are zero, and
            # Megatron's conventions, so that weights (16-bit) and gradients (fp32) differ.
            for name, value in (("model", info.contents.name), ("gpus", b"4"),
                                ("micro-batch", b"2"), ("tokens", b"1000000000"),
                                ("framework", b"megatron")):
                self.job_set(job, name, value)
            buf = self.estimate_buffer(job)
        except TrainsizeError as exc:
            raise LibraryError("libtrainsize at %s: the import-time check estimate failed: %s"
                               % (self.path, exc)) from None
        finally:
            self.free_job(job)
        mirror = S.Result.from_buffer(buf)
        base = ctypes.addressof(buf)
        checked = 0
        for f in self.fields:
            offset = S.member_offset(f.path)
            if offset is None:
                continue
            raw = S.FieldValue()
            ours = S.member_value(mirror, f.path)
            theirs = self.field_value(buf, f, raw)
            if raw.type == FIELD_STRING:
                ok = raw.text == base + offset and ours == ctypes.string_at(raw.text)
            elif raw.type == FIELD_F64:
                ok = ours == raw.f64 or (math.isnan(ours) and math.isnan(raw.f64))
            elif raw.type in (FIELD_U64, FIELD_BOOL, FIELD_FLAGS):
                ok = ours == raw.u64
            elif raw.type == FIELD_CHOICE:  # read by index through the mirror, named once
                ok = theirs is not None and ours == raw.u64
            else:
                continue
            if not ok:
                raise LibraryError(
                    "libtrainsize at %s: result field %r reads %r through the library but %r "
                    "through this binding's mirror of trainsize_result (offset %d): the "
                    "struct layouts differ although both say ABI %d"
                    % (self.path, f.path, theirs, ours, offset, self.abi))
            checked += 1
        if checked == 0:
            raise LibraryError("libtrainsize at %s: no result field could be cross-checked "
                               "against this binding's struct mirror" % self.path)


_lock = _thread.allocate_lock()  # threading would add ~1 ms to the import
_lib = None


def get():
    """The process-wide loaded library (loaded and checked on first use)."""
    global _lib
    with _lock:
        if _lib is None:
            _lib = Lib()
        return _lib


def load(path=None):
    """Load and check a library afresh (not cached): for tests and diagnostics."""
    return Lib(path)

"""Hostile keywords, values, configs and paths: each is a TrainsizeError that names the
keyword, never another exception, a crash, a value cut short or a partial result."""

import json
import numbers
import os
import threading

import pytest

import trainsize

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
GPT2_JSON = os.path.join(REPO, "tests", "data", "hf", "gpt2.json")
GPU_FILE = os.path.join(REPO, "tests", "data", "gpu", "my-accelerator.json")
Status = trainsize.Status


def refused(call, keyword, field=None, code=None):
    """call() raises a TrainsizeError blaming ``keyword``; the error is returned."""
    with pytest.raises(trainsize.TrainsizeError) as e:
        call()
    err = e.value
    assert err.keyword == keyword, repr(err)
    assert err.field == (keyword.replace("_", "-") if field is None else field), repr(err)
    if code is not None:
        assert err.code == code, repr(err)
    assert isinstance(err.code, Status) and err.code != Status.OK
    assert type(err.message) is str and err.message and str(err) == err.message
    return err


def twice(call, *args, **kw):
    # Twice: the second call must not find a kept job for what the first one refused.
    for _ in range(2):
        err = refused(call, *args, **kw)
    return err


# ---- keywords --------------------------------------------------------------------------

@pytest.mark.parametrize("key,field", [
    ("gpus\0junk", r"gpus\x00junk"), ("gpus\0", r"gpus\x00"), ("\0", r"\x00"),
    ("\udcff", r"\udcff"), ("micro_batch\udcff", r"micro-batch\udcff"),
    ("gp\ud800us\0\n", r"gp\ud800us\x00\x0a"),
], ids=["nul", "nul-end", "nul-only", "surrogate", "surrogate-end", "surrogate-nul"])
def test_keyword_c_text_cannot_carry(key, field):
    # A NUL would cut the name ("gpus\0junk" set gpus); a lone surrogate has no UTF-8.
    # Named as the library names an unknown parameter: escaped, one printable line.
    for fn in (trainsize.estimate, lambda **kw: trainsize.plan(tokens=1e9, **kw)):
        err = twice(lambda: fn(model="gpt2", **{key: 8}), key, field, Status.E_UNKNOWN)
        assert err.message == 'unknown parameter "%s"' % field


class _LyingStr(str):
    def replace(self, *args):
        return "gpus"

    def encode(self, *args, **kwargs):
        return b"gpus"

    def __contains__(self, item):
        return False


def test_keyword_str_subclass_is_read_by_its_text():
    # Python keeps a str subclass as the keyword; its methods must not choose the parameter.
    refused(lambda: trainsize.estimate(model="gpt2", **{_LyingStr("foo"): 8}), "foo",
            code=Status.E_UNKNOWN)
    refused(lambda: trainsize.estimate(model="gpt2", **{_LyingStr("gpus\0x"): 8}),
            "gpus\0x", r"gpus\x00x", Status.E_UNKNOWN)
    kw = {_LyingStr("micro_batch"): 2}
    for _ in range(2):
        assert trainsize.estimate(model="gpt2", **kw).to_dict() == \
            trainsize.estimate(model="gpt2", micro_batch=2).to_dict()


def test_keyword_given_twice():
    # Both spellings name one parameter: which value was meant is not known.
    for fn in (trainsize.estimate, lambda **kw: trainsize.plan(tokens=1e9, **kw)):
        # (None is "not given": deadline_days=None does not clash)
        err = twice(lambda: fn(model="gpt2", deadline_days=None, **{
            "deadline-days": 3, "max-gpus": 2, "max_gpus": 4}),
                    "max_gpus", "max-gpus", Status.E_INVALID)
        assert err.message == "max-gpus: given twice, as max-gpus and as max_gpus"


# ---- values ----------------------------------------------------------------------------

def _number(base, method):
    """A ``base`` (numbers.Integral, numbers.Real) whose every method is ``method``."""
    return type("Hostile" + base.__name__, (base,),
                dict.fromkeys(base.__abstractmethods__, method))()


def _raise(*args, **kwargs):
    raise RuntimeError("a hostile number")


class _RaisingStr:
    def __str__(self):
        raise RuntimeError("__str__")

    __repr__ = __format__ = __str__


class _RaisingIndex:
    def __index__(self):
        raise RuntimeError("__index__")

    __int__ = __float__ = __index__


class _RaisingIter(list):
    def __iter__(self):
        raise RuntimeError("__iter__")


class _NulHidingStr(str):
    def __contains__(self, item):
        return False

    def encode(self, *args, **kwargs):
        return b"gpt2"


class _NotBytesStr(str):
    def encode(self, *args, **kwargs):
        return 42


@pytest.mark.parametrize("keyword,value", [
    ("gpus", 10 ** 5000),             # beyond Python's int-to-str limit
    ("gpus", -10 ** 5000),
    ("tokens", 10 ** 5000),
    ("lora_targets", ["q", 10 ** 5000]),
    ("gpus", _number(numbers.Integral, _raise)),
    ("tokens", _number(numbers.Real, _raise)),
    ("tokens", _number(numbers.Real, lambda *a: "1.5")),  # a str from __float__
    ("model", _RaisingStr()),
    ("gpus", _RaisingIndex()),
    ("lora_targets", _RaisingIter(["q"])),
    ("lora_targets", ["q", ["v"]]),
    ("model", _NulHidingStr("gpt2\0junk")),
    ("model", "gpt2\0junk"),
    ("model", "gpt2\udcff"),
    ("lora_targets", ["q", "v\0"]),
    ("model", b"gpt2"),
    ("model", bytearray(b"gpt2")),
    ("tokens", 1j),
    ("gpus", float("nan")),
    ("gpus", float("inf")),
    ("tokens", float("-inf")),
    ("dropout", float("nan")),
    ("gpus", True),
    ("zero", False),
    ("gpus", -1),
    ("gpus", 10 ** 30),
    ("tokens", -(2 ** 64)),
], ids=lambda v: v if type(v) is str and v.isidentifier() else type(v).__name__)
def test_hostile_values(keyword, value):
    kw = {"model": "gpt2"} if keyword != "model" else {}
    kw[keyword] = value
    twice(lambda: trainsize.estimate(**kw), keyword)
    if keyword not in ("gpus", "zero"):  # a fixed layout is refused by plan() anyway
        kw.setdefault("tokens", 1e9)
        twice(lambda: trainsize.plan(**kw), keyword)


class _LyingInt(int):
    def __int__(self):
        raise RuntimeError("__int__")

    __str__ = __repr__ = __index__ = __int__


class _LyingFloat(float):
    def __float__(self):
        return "nope"

    def __repr__(self):
        raise RuntimeError("__repr__")


def test_subclasses_are_read_by_their_value():
    # An int/float/str subclass is the number or text it holds (what the C text carries),
    # whatever its own methods do.
    base = trainsize.estimate(model="gpt2", gpus=8, tokens=1e9).to_dict()
    for _ in range(2):
        assert trainsize.estimate(model=_NotBytesStr("gpt2"), gpus=_LyingInt(8),
                                  tokens=_LyingFloat(1e9)).to_dict() == base


def test_top_of_plan():
    for top in (10 ** 5000, -10 ** 5000, _LyingInt(0), _number(numbers.Integral, _raise),
                _RaisingStr()):
        refused(lambda: trainsize.plan(model="gpt2", tokens=1e9, top=top), "top",
                code=Status.E_INVALID)
    assert len(trainsize.plan(model="gpt2", tokens=1e9, top=_LyingInt(2)).candidates) == 2


# ---- config dicts and bytes ------------------------------------------------------------

def _deep(depth):
    root = node = {}
    for _ in range(depth):
        node["a"] = {}
        node = node["a"]
    return root


def _gpt2():
    with open(GPT2_JSON, encoding="utf-8") as f:
        return json.load(f)


class _RaisingItems(dict):
    def items(self):
        raise RuntimeError("items")

    keys = values = __iter__ = items


class _LyingLength(bytes):
    def __len__(self):
        return 1 << 19


class _LyingBytes(bytes):
    def __bytes__(self):
        return _LyingLength(b'{"model_type": "no-such-type"}')


@pytest.mark.parametrize("keyword", ["hf_config", "gpu_file"])
def test_config_dicts(keyword):
    kw = {"model": "gpt2"} if keyword == "gpu_file" else {}
    deep = dict(_deep(5000), model_type="llama")  # deeper than Python's recursion limit
    refused(lambda: trainsize.estimate(**kw, **{keyword: deep}), keyword, code=Status.E_LIMIT)
    deep_list = {"model_type": "llama", "a": [[[]]]}
    node = deep_list["a"]
    for _ in range(5000):
        node.append([])
        node = node[-1]
    refused(lambda: trainsize.estimate(**kw, **{keyword: deep_list}), keyword,
            code=Status.E_LIMIT)
    cyclic = {"model_type": "llama"}
    cyclic["self"] = cyclic
    for bad in (cyclic, {(1, 2): 3}, {object(): 1}, {"x": object()}, {"x": b"bytes"},
                {"x": float("nan")}, {"x": 10 ** 5000}, _RaisingItems(model_type="llama"),
                {"x": "\udcff"}, {"\ud800": 1}, {"x" * (2 << 20): 1},
                {"k%d" % i: i for i in range(200000)}):
        refused(lambda: trainsize.estimate(**kw, **{keyword: bad}), keyword)


def test_config_dict_values_are_not_cut():
    # A NUL in a string would cut it in C; the library refuses it rather than reading
    # "gpt2" for "gpt2\0junk".
    for bad in (dict(_gpt2(), model_type="gpt2\0junk"),
                json.dumps(dict(_gpt2(), model_type="gpt2\0junk")).encode()):
        refused(lambda: trainsize.estimate(hf_config=bad), "hf_config",
                field="model_type")


def test_config_dict_keys_as_json_writes_them():
    # Keys as json.dumps writes them (transformers' to_dict() has int keys in id2label).
    cfg = dict(_gpt2(), id2label={0: "a", 1: "b"})
    assert trainsize.estimate(hf_config=cfg).to_dict() == \
        trainsize.estimate(hf_config=GPT2_JSON).to_dict()


def test_bytes_subclass_is_read_by_its_bytes():
    # bytes() of it would give __bytes__'s object, whose len() lies about its size.
    with open(GPT2_JSON, "rb") as f:
        text = f.read()
    want = trainsize.estimate(hf_config=GPT2_JSON).to_dict()
    assert trainsize.estimate(hf_config=_LyingBytes(text)).to_dict() == want


# ---- paths -----------------------------------------------------------------------------

class _RaisingPath:
    def __fspath__(self):
        raise RuntimeError("__fspath__")


class _IntPath:
    def __fspath__(self):
        return 42


class _NulHidingPath(str):
    def encode(self, *args, **kwargs):
        return b"/no/such/file"

    def __fspath__(self):
        return self


class _LyingPathLike:
    def __init__(self, path):
        self.path = path

    def __fspath__(self):
        return self.path


@pytest.mark.parametrize("keyword", ["hf_config", "gpu_file"])
def test_hostile_paths(keyword, tmp_path):
    kw = {"model": "gpt2"} if keyword == "gpu_file" else {}
    for bad in ("a\0b", "/tmp/\ud800", _RaisingPath(), _IntPath(), _NulHidingPath("x\0y"),
                _LyingPathLike(b"x\0y"), _LyingPathLike(bytearray(b"/etc")),
                "/no/such/file", str(tmp_path), "/dev/zero", "/dev/null",
                os.path.join(str(tmp_path), "x" * 5000)):
        refused(lambda: trainsize.estimate(**kw, **{keyword: bad}), keyword)


@pytest.mark.parametrize("keyword", ["hf_config", "gpu_file"])
def test_fifo_is_refused_without_blocking(keyword, tmp_path):
    # Reading a FIFO would wait for a writer forever: the library refuses a file that is
    # not a regular one before it reads.
    fifo = str(tmp_path / "config.json")
    os.mkfifo(fifo)
    kw = {"model": "gpt2"} if keyword == "gpu_file" else {}
    out = []

    def call():
        try:
            trainsize.estimate(**kw, **{keyword: fifo})
            out.append(None)
        except BaseException as exc:  # handed to the test's thread
            out.append(exc)

    worker = threading.Thread(target=call, daemon=True)
    worker.start()
    worker.join(10)
    blocked = worker.is_alive()
    while worker.is_alive():  # let a blocked open() return: a writer comes and goes
        try:
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            pass
        worker.join(0.1)
    assert not blocked, "estimate(%s=<a FIFO>) blocked on it" % keyword
    err = out[0]
    assert isinstance(err, trainsize.TrainsizeError), repr(err)
    assert err.keyword == keyword and err.field == keyword.replace("_", "-")
    assert err.code == Status.E_IO

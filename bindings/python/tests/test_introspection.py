"""help(), inspect.signature(), "did you mean" and dir(): what the binding tells a user about
its keywords and results, all built lazily from the library's own tables.

Run from the repository root:
    LIBTRAINSIZE=build/libtrainsize.so TRAINSIZE_EXE=build/programs/trainsize \
        python3 -m pytest -q bindings/python/tests
"""

import inspect
import os
import pickle
import pydoc
import subprocess
import sys

import pytest

import trainsize

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE_ROOT = os.path.dirname(HERE)


def help_text(obj):
    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def entry(text, keyword):
    """The lines of one keyword's entry in a help text: its heading and its description."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith(keyword + ":"):
            out = [line.strip()]
            for more in lines[i + 1:]:
                if not more.startswith(line[:len(line) - len(line.lstrip())] + " "):
                    break
                out.append(more.strip())
            return " ".join(out)
    raise AssertionError("no entry for %r in:\n%s" % (keyword, text))


# ---- help() ----------------------------------------------------------------------------

def test_help_estimate_lists_every_keyword_with_unit_range_and_default():
    text = help_text(trainsize.estimate)
    params = {p.keyword: p for p in trainsize.parameters()}
    for keyword in list(params) + ["hf_config", "gpu_file", "hf_model", "revision", "safetensors"]:
        assert entry(text, keyword)
    mb = entry(text, "micro_batch")
    assert "int" in mb and "1 to 1000000000" in mb and "samples" in mb and "default 1" in mb
    assert params["micro_batch"].doc in mb
    prec = entry(text, "precision")
    assert "bf16-mixed" in prec and "fp8-mixed" in prec and "default bf16-mixed" in prec
    mem = entry(text, "gpu_memory")
    assert "bytes" in mem and "default 0" in mem
    assert "default True" in entry(text, "loss_upcast")
    # The docstring the function was written with is still there.
    assert "Estimate what one training job takes" in text
    assert trainsize.estimate.__doc__.startswith("Estimate what one training job takes")
    assert "micro_batch" in trainsize.estimate.__doc__  # completed by help()


def test_help_plan_lists_its_keywords_and_the_refused_ones():
    text = help_text(trainsize.plan)
    params = trainsize.parameters()
    assert "top" in entry(text, "top") and "1 to 100" in entry(text, "top")
    assert "cancels" in entry(text, "progress")
    assert "progress: a callable, progress(done, total, examined)" in text  # the listing's
    dd = entry(text, "deadline_days")
    assert "days" in dd and "default 0" in dd
    for p in params:
        if p.plan_refusal:  # refused: named, not listed as a keyword
            assert p.keyword in text
            with pytest.raises(AssertionError):
                entry(text, p.keyword)
        else:
            assert entry(text, p.keyword)
    assert "Search GPU types" in text


def test_signature_lists_the_keywords():
    sig = inspect.signature(trainsize.estimate)
    names = list(sig.parameters)
    binding = ["hf_config", "hf_model", "revision", "safetensors", "gpu_file", "calibration"]
    assert names[:7] == ["model"] + binding
    assert set(names) == {p.keyword for p in trainsize.parameters()} | set(binding)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY and p.default is None
               for p in sig.parameters.values())
    psig = inspect.signature(trainsize.plan)
    assert list(psig.parameters)[0] == "top"
    assert psig.parameters["top"].default == trainsize.PLAN_TOP_DEFAULT
    assert "deadline_days" in psig.parameters and "tp" not in psig.parameters
    assert list(psig.parameters)[1] == "progress" and psig.parameters["progress"].default is None
    assert psig.parameters["progress"].kind is inspect.Parameter.KEYWORD_ONLY
    # The functions are still plain functions: their source, pickling and calls as before.
    assert inspect.isfunction(trainsize.estimate)
    assert "def estimate(**kwargs" in inspect.getsource(trainsize.estimate)
    assert pickle.loads(pickle.dumps(trainsize.estimate)) is trainsize.estimate
    assert trainsize.estimate(model="gpt2").memory.fits


def test_import_builds_no_documentation():
    # The parameter table, the docstrings and the signatures are built on first use only.
    code = ("import sys, trainsize\n"
            "assert trainsize._LIB._params is None, 'parameter table read at import'\n"
            "assert 'micro_batch:' not in trainsize.estimate.__doc__\n"
            "assert 'inspect' not in sys.modules and 'pydoc' not in sys.modules\n"
            "trainsize.estimate(model='gpt2').to_dict()\n"
            "assert trainsize._LIB._params is None, 'parameter table read by estimate'\n"
            "import pydoc\n"
            "text = pydoc.render_doc(trainsize.estimate, renderer=pydoc.plaintext)\n"
            "assert 'micro_batch:' in text, text\n")
    env = dict(os.environ, PYTHONPATH=PACKAGE_ROOT)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=60)
    assert proc.returncode == 0, proc.stderr


# ---- did you mean ----------------------------------------------------------------------

@pytest.mark.parametrize("keyword,nearest", [
    ("micro_bach", "micro_batch"),     # one edit
    ("Micro_Batc", "micro_batch"),     # case and a prefix, as the library folds names
    ("micro", "micro_batch"),          # the start of a name
    ("gpu_count", "plan_gpu_count"),   # the end of a name
    ("hf_confg", "hf_config"),         # the binding's own keywords too
    ("hf_modl", "hf_model"),
    ("safetensor", "safetensors"),
    ("deadline_day", "deadline_days"),
    ("tokns", "tokens"),
])
def test_unknown_keyword_suggests_the_nearest(keyword, nearest):
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(model="gpt2", **{keyword: 1})
    err = e.value
    assert err.code == trainsize.Status.E_UNKNOWN
    option = keyword.replace("_", "-")
    assert err.field == option and err.keyword == keyword
    assert err.message == str(err) == \
        'unknown parameter "%s"; did you mean "%s"?' % (option, nearest)


def test_unknown_keyword_far_from_every_name_gets_no_suggestion():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(model="gpt2", xyzzy_plugh=1)
    assert e.value.message == 'unknown parameter "xyzzy-plugh"'
    assert e.value.field == "xyzzy-plugh" and e.value.keyword == "xyzzy_plugh"


def test_plan_suggests_its_own_keywords():
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.plan(model="gpt2", tokens=1e9, deadline_dyas=3)
    assert e.value.message.endswith('did you mean "deadline_days"?')
    assert e.value.keyword == "deadline_dyas"
    # A known value error is the library's message, untouched.
    with pytest.raises(trainsize.TrainsizeError) as e:
        trainsize.estimate(model="gpt2", gpu="h100")
    assert e.value.field == "gpu" and e.value.message.count("did you mean") == 1


# ---- dir() -----------------------------------------------------------------------------

def test_dir_lists_the_sections_and_fields():
    r = trainsize.estimate(model="gpt2")
    names = dir(r)
    for key in ("model", "memory", "system", "time", "layout", "warnings",
                "trainsize_version", "advice", "to_dict"):
        assert key in names
    assert set(r.to_dict()) - {"advice"} <= set(names)
    assert "peak_total" in dir(r.memory) and "to_dict" in dir(r.memory)
    p = trainsize.plan(model="gpt2", seq=1024, tokens=1e9, top=2)
    assert {"candidates", "evaluated", "objective", "to_dict"} <= set(dir(p))
    c = p.candidates[0]
    assert {"gpu", "gpus", "micro_batch", "peak_total", "layout", "to_dict"} <= set(dir(c))
